#!/usr/bin/env bash
# Input forms side by side: solves one N-puzzle file (default 1M) stored in
# each form, with -j 1 and with all cores, and prints each form's rate and
# peak RSS as a ratio to plain lines at the same thread count. Goal: every
# form >= 0.95 of plain lines at -j 1 and -j 2, peak RSS <= 1.5x plain's.
# Machines here are shared and noisy: the forms take turns within each
# round and each figure is the median of ROUNDS runs.
#
#   scripts/formats.sh                     # 1M puzzles, 3 rounds
#   N=200000 ROUNDS=5 scripts/formats.sh
#   SOURCE=generated scripts/formats.sh    # generated puzzles with solutions
#                                          # (adds the Kaggle-style forms)
#   BASE=/tmp/base/target/release/sudoku-bulk scripts/formats.sh
#                                          # also plain lines through another
#                                          # build (a ratio for "no slower")
#   KEEP=DIR scripts/formats.sh            # leave the files made in DIR (a
#                                          # later run with the same KEEP
#                                          # reuses them: same N and SOURCE)
#   MAKE_ONLY=1 KEEP=DIR scripts/formats.sh  # only make them
#   CALLGRIND=1 N=100000 scripts/formats.sh  # instructions a puzzle (-j 1,
#                                          # valgrind) instead of timings
#
# SOURCE=17 (default): scripts/shuffle.py over data/17_clue_sub.txt.
# SOURCE=generated: `sudoku-bulk generate -n 20000 --seed 1
# --with-solution` (easier puzzles, as in the Kaggle sets, so the text
# handling is a larger share) moved by shuffle.py --with-solution to N
# puzzle,solution pairs; plain.txt is their puzzles.
#
# A form is one `form` line below: a name, a file name, the command that
# makes it from plain.txt (stdin -> stdout, run in the work directory, where
# pairs.csv holds the solutions with SOURCE=generated; none for plain.txt
# itself or a file an earlier form made), and extra flags for `solve`
# (optional). BIN=PATH measures that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

n="${N:-1000000}"
rounds="${ROUNDS:-3}"
cores=$(nproc)
source="${SOURCE:-17}"
python="${PYTHON:-python3}"
if [ -n "${BIN:-}" ]; then
    bin=$(realpath "$BIN")
else
    cargo build --release --quiet
    bin="$PWD/target/release/sudoku-bulk"
fi
if [ -n "${KEEP:-}" ]; then
    work="$KEEP"
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
export LC_ALL=C

# Files kept by an earlier run are used again.
reuse=""
[ -n "${KEEP:-}" ] && [ -s "$work/plain.txt" ] && reuse=1

[ -z "$reuse" ] && case "$source" in
    17) python3 scripts/shuffle.py -n "$n" --seed 1 data/17_clue_sub.txt > "$work/plain.txt" ;;
    generated)
        "$bin" generate -n 20000 --seed 1 --with-solution -o "$work/gen.csv" 2>/dev/null
        python3 scripts/shuffle.py --with-solution -n "$n" --seed 1 "$work/gen.csv" > "$work/pairs.csv"
        cut -d, -f1 "$work/pairs.csv" > "$work/plain.txt"
        ;;
    *) echo "SOURCE is 17 or generated" >&2; exit 2 ;;
esac

names=() files=() flags=() bins=()
form() { # NAME FILE MAKE [FLAGS...]
    local name=$1 file=$2 make=$3
    shift 3
    if [ -n "$make" ] && [ -z "$reuse" ]; then
        (cd "$work" && bash -c "$make" < plain.txt > "$file")
    fi
    names+=("$name") files+=("$file") flags+=("$*") bins+=("$bin")
}

form "plain lines"        plain.txt     ""
if [ -z "${CALLGRIND:-}" ]; then
    form "gzip"           plain.txt.gz  "gzip -6 -c"
    form "zstd"           plain.txt.zst "zstd -3 -q -c"
fi
form "CSV with header"    header.csv    "{ echo puzzle,solution; sed 's/\$/,/'; }"
form "CSV puzzle column"  quizzes.csv   "{ echo quizzes; cat; }"
form "headerless CSV"     bare.csv      "sed 's/\$/,/'"
if [ "$source" = generated ]; then
    # Kaggle's layout: every row holds its solution. Kept labels are
    # verified, not searched for (a different job from plain lines);
    # --overwrite solves every puzzle and writes ours over them.
    form "Kaggle, --overwrite" kaggle.csv "{ echo quizzes,solutions; cat pairs.csv; }" --overwrite
    form "Kaggle, labels kept" kaggle.csv ""
fi
# A (N, 81) uint8 array as NumPy writes it (needs numpy in PYTHON).
if "$python" -c 'import numpy' 2>/dev/null; then
    form ".npy (NumPy)"   plain.npy     "$python -c 'import sys, numpy as np
a = np.frombuffer(sys.stdin.buffer.read(), np.uint8).reshape(-1, 82)[:, :81]
np.save(sys.stdout.buffer, np.where(a == ord(\".\"), 0, a - ord(\"0\")).astype(np.uint8))'"
fi
if [ -n "${BASE:-}" ]; then
    names+=("plain lines, BASE") files+=("plain.txt") flags+=("") bins+=("$BASE")
fi
[ -n "${MAKE_ONLY:-}" ] && { ls -l "$work"; exit 0; }

if [ -n "${CALLGRIND:-}" ]; then
    # Instructions a puzzle at -j 1: deterministic, so one run each.
    printf '%s puzzles, valgrind --tool=callgrind, solve -j 1\n' "$n"
    printf '| %-20s | %14s | %8s |\n' form "instr./puzzle" ratio
    printf '|%s|%s|%s|\n' ---------------------- ---------------- ----------
    for i in "${!names[@]}"; do
        # shellcheck disable=SC2086
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$i" \
            "${bins[$i]}" solve -j 1 --no-progress ${flags[$i]} "$work/${files[$i]}" \
            -o /dev/null 2>/dev/null || true
        ir=$(callgrind_annotate "$work/cg.$i" 2>/dev/null |
            awk '/PROGRAM TOTALS/ && !ir { gsub(",", "", $1); ir = $1 } END { print ir }')
        [ "$i" = 0 ] && base_ir=$ir
        printf '| %-20s | %14.0f | %8.3f |\n' "${names[$i]}" \
            "$(echo "$ir / $n" | bc -l)" "$(echo "$ir / $base_ir" | bc -l)"
    done
    exit 0
fi

declare -A times rss
for ((r = 1; r <= rounds; r++)); do
    for j in 1 "$cores"; do
        for i in "${!names[@]}"; do
            # shellcheck disable=SC2086
            /usr/bin/time -f '%e %M' -o "$work/time" \
                "${bins[$i]}" solve -j "$j" --no-progress ${flags[$i]} "$work/${files[$i]}" \
                -o /dev/null 2>/dev/null || true
            read -r secs kb < "$work/time"
            times[$i,$j]+="$secs " rss[$i,$j]+="$kb "
        done
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%s puzzles (SOURCE=%s), median of %s rounds, %s cores\n' "$n" "$source" "$rounds" "$cores"
printf '| %-20s | %10s | %10s | %7s | %7s | %9s | %9s |\n' form "-j 1 /s" "-j $cores /s" \
    "ratio 1" "ratio $cores" "RSS 1" "RSS $cores"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' ---------------------- ------------ ------------ \
    --------- --------- ----------- -----------
for j in 1 "$cores"; do
    base[$j]=$(echo "${times[0,$j]}" | median)
    base_rss[$j]=$(echo "${rss[0,$j]}" | median)
done
for i in "${!names[@]}"; do
    t1=$(echo "${times[$i,1]}" | median)
    tn=$(echo "${times[$i,$cores]}" | median)
    m1=$(echo "${rss[$i,1]}" | median)
    mn=$(echo "${rss[$i,$cores]}" | median)
    printf '| %-20s | %10.0f | %10.0f | %7.3f | %7.3f | %8.2fx | %8.2fx |\n' "${names[$i]}" \
        "$(echo "$n / $t1" | bc -l)" "$(echo "$n / $tn" | bc -l)" \
        "$(echo "${base[1]} / $t1" | bc -l)" "$(echo "${base[$cores]} / $tn" | bc -l)" \
        "$(echo "$m1 / ${base_rss[1]}" | bc -l)" "$(echo "$mn / ${base_rss[$cores]}" | bc -l)"
done
echo "(rates: median wall time of the alternating runs; RSS: median peak RSS, /usr/bin/time %M;" \
    "both as ratios to plain lines at the same -j)"
