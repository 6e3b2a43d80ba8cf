#!/usr/bin/env bash
# Columnar formats against plain lines: one puzzle file solved as plain
# text, Parquet (string column), Parquet (list<uint8> column), Arrow IPC
# file and NumPy .npy, with -j 1 and with all cores. The runs take turns
# (round-robin over the forms, ROUNDS times), so a noisy spell on a shared
# machine hits every form alike; each form's median rate is printed as a
# ratio to plain lines, with the peak RSS (/usr/bin/time %M) of the runs.
#
#   scripts/formats_columnar.sh                    # 1M puzzles from data/17_clue_sub.txt
#   N=200000 ROUNDS=5 scripts/formats_columnar.sh  # smaller, more rounds
#   FILE=big.txt scripts/formats_columnar.sh       # an existing one-per-line 9x9 file
#
#   BIG=1 scripts/formats_columnar.sh              # also the 10M-row streaming test
#
# The columnar copies are written by examples/to_columnar.rs (the same
# crates the tool reads them with): Parquet as pyarrow writes it by
# default (snappy, row groups of 2^20 rows), Arrow IPC in 65,536-row
# batches, .npy as (N, 81) uint8; and `one.*`: the whole file as one Arrow
# record batch and one Parquet row group (what pyarrow's `write_table` of
# a table built in one go gives). Answers go to a real file in each run's
# own format. BIG=1 then runs the ignored test
# `ten_million_rows_stream_in_bounded_memory` (tests/cli/columnar/tables.rs:
# peak RSS at 10M rows against 1M, one row group / 64k batches).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${ROUNDS:-3}"
threads="${THREADS:-$(nproc)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cargo build --release --quiet
cargo build --release --quiet --example to_columnar
bin=target/release/sudoku-bulk
file="${FILE:-}"
if [ -z "$file" ]; then
    n="${N:-1000000}"
    file="$tmp/big.txt"
    echo "making $n puzzles (scripts/shuffle.py --seed 1) ..." >&2
    python3 scripts/shuffle.py -n "$n" --seed 1 data/17_clue_sub.txt > "$file"
fi
cp "$file" "$tmp/p.txt"
target/release/examples/to_columnar "$tmp/p.txt" "$tmp/p" 2>/dev/null
ARROW_BATCH=1000000000 GROUP_ROWS=1000000000 \
    target/release/examples/to_columnar "$tmp/p.txt" "$tmp/one" 2>/dev/null
mv "$tmp/one.arrow" "$tmp/p.one.arrow"
mv "$tmp/one.str.parquet" "$tmp/p.one.str.parquet"
rm -f "$tmp"/one.*
export LC_ALL=C

forms="p.txt p.str.parquet p.list.parquet p.arrow p.npy p.one.arrow p.one.str.parquet"

median() {
    tr ' ' '\n' | { grep -E '^[0-9.]+$' || true; } | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "nan"; exit }
        print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

declare -A rate rss cpu
for j in 1 "$threads"; do
    for f in $forms; do rate[$j,$f]=""; rss[$j,$f]=""; cpu[$j,$f]=""; done
    for ((r = 1; r <= rounds; r++)); do
        for f in $forms; do
            ext="${f#p.}"
            out="$tmp/out.$ext"
            /usr/bin/time -f '%e %M %U %S' -o "$tmp/time" \
                "$bin" solve "$tmp/$f" -o "$out" -j "$j" --no-progress 2> "$tmp/err"
            read -r secs kb user sys < "$tmp/time"
            n=$(sed -n 's/.*: \([0-9]*\) records,.*/\1/p' "$tmp/err" | tail -1)
            rate[$j,$f]+=" $(awk -v n="$n" -v s="$secs" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 1e-9) }')"
            rss[$j,$f]+=" $kb"
            cpu[$j,$f]+=" $(awk -v n="$n" -v u="$user" -v s="$sys" 'BEGIN { printf "%.4f", (u + s) * 1e6 / n }')"
            rm -f "$out"
        done
    done
done

printf '%-16s %8s %12s %7s %16s %20s\n' form threads puzzles/s ratio "CPU/puzzle" "peak RSS"
for j in 1 "$threads"; do
    base=$(echo "${rate[$j,p.txt]}" | median)
    base_rss=$(echo "${rss[$j,p.txt]}" | median)
    base_cpu=$(echo "${cpu[$j,p.txt]}" | median)
    for f in $forms; do
        m=$(echo "${rate[$j,$f]}" | median)
        k=$(echo "${rss[$j,$f]}" | median)
        c=$(echo "${cpu[$j,$f]}" | median)
        printf '%-16s %8s %12.0f %7.3f %6.2f us %5.2fx %10.0f MiB (%.2fx)\n' "${f#p.}" "$j" "$m" \
            "$(awk -v a="$m" -v b="$base" 'BEGIN { print a / b }')" \
            "$c" "$(awk -v a="$c" -v b="$base_cpu" 'BEGIN { print a / b }')" \
            "$(awk -v k="$k" 'BEGIN { print k / 1024 }')" \
            "$(awk -v a="$k" -v b="$base_rss" 'BEGIN { print a / b }')"
    done
done
echo "(median of $rounds alternating rounds; ratio = rate / plain-text rate at the same -j;" \
    "CPU/puzzle = (user + sys) / puzzles and its ratio to plain text; RSS ratio against the plain-text run)"
if [ "${BIG:-0}" = 1 ]; then
    echo "10M-row streaming test (peak RSS at 10M rows against 1M):" >&2
    cargo test --release --quiet --test cli ten_million -- --ignored --nocapture 2>&1 |
        grep -E 'peak RSS|test result|panicked'
fi
