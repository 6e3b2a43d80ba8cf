#!/usr/bin/env bash
# Input forms side by side: solves one N-puzzle file (default 1M, made with
# scripts/shuffle.py from data/17_clue_sub.txt) stored in each form, with -j 1
# and with all cores, and prints each form's rate as a ratio to plain lines
# at the same thread count. Goal: every form >= 0.95 of plain lines with all
# cores. Machines here are shared and noisy: the forms take turns within
# each round and each figure is the median of ROUNDS runs.
#
#   scripts/formats.sh                     # 1M puzzles, 3 rounds
#   N=200000 ROUNDS=5 scripts/formats.sh
#   BASE=/tmp/base/target/release/sudoku-bulk scripts/formats.sh
#                                          # also plain lines through another
#                                          # build (a ratio for "no slower")
#
# A form is one `form` line below: a name, a file name, the command that
# makes it from plain.txt (stdin -> stdout; none for plain.txt itself), and extra flags for `solve`
# (optional). Later forms (Parquet, .npy) are one more line each.
set -euo pipefail
cd "$(dirname "$0")/.."

n="${N:-1000000}"
rounds="${ROUNDS:-3}"
cores=$(nproc)
cargo build --release --quiet
bin="$PWD/target/release/sudoku-bulk"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C

python3 scripts/shuffle.py -n "$n" --seed 1 data/17_clue_sub.txt > "$work/plain.txt"

names=() files=() flags=() bins=()
form() { # NAME FILE MAKE [FLAGS...]
    local name=$1 file=$2 make=$3
    shift 3
    if [ "$file" != plain.txt ]; then
        (cd "$work" && bash -c "$make" < plain.txt > "$file")
    fi
    names+=("$name") files+=("$file") flags+=("$*") bins+=("$bin")
}

form "plain lines"        plain.txt     ""
form "gzip"               plain.txt.gz  "gzip -6 -c"
form "zstd"               plain.txt.zst "zstd -3 -q -c"
form "CSV with header"    header.csv    "{ echo puzzle,solution; sed 's/\$/,/'; }"
form "headerless CSV"     bare.csv      "sed 's/\$/,/'"
if [ -n "${BASE:-}" ]; then
    names+=("plain lines, BASE") files+=("plain.txt") flags+=("") bins+=("$BASE")
fi

declare -A times
for ((r = 1; r <= rounds; r++)); do
    for j in 1 "$cores"; do
        for i in "${!names[@]}"; do
            start=$(date +%s.%N)
            # shellcheck disable=SC2086
            "${bins[$i]}" solve -j "$j" --no-progress ${flags[$i]} "$work/${files[$i]}" -o /dev/null 2>/dev/null
            end=$(date +%s.%N)
            times[$i,$j]+="$(echo "$end - $start" | bc) "
        done
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%s puzzles, median of %s rounds, %s cores\n' "$n" "$rounds" "$cores"
printf '| %-18s | %12s | %12s | %8s | %8s |\n' form "-j 1 /s" "-j $cores /s" "ratio 1" "ratio $cores"
printf '|%s|%s|%s|%s|%s|\n' -------------------- -------------- -------------- ---------- ----------
for j in 1 "$cores"; do
    base[$j]=$(echo "${times[0,$j]}" | median)
done
for i in "${!names[@]}"; do
    t1=$(echo "${times[$i,1]}" | median)
    tn=$(echo "${times[$i,$cores]}" | median)
    printf '| %-18s | %12.0f | %12.0f | %8.3f | %8.3f |\n' "${names[$i]}" \
        "$(echo "$n / $t1" | bc -l)" "$(echo "$n / $tn" | bc -l)" \
        "$(echo "${base[1]} / $t1" | bc -l)" "$(echo "${base[$cores]} / $tn" | bc -l)"
done
