#!/usr/bin/env bash
# End-to-end scaling: the whole `solve` process on a big file against the
# solver-only `bench` rate, measured side by side (the runs take turns, so
# a noisy spell on a shared machine hits them alike).
#
#   scripts/scaling.sh                     # 1M puzzles shuffled from data/17_clue_sub.txt
#   N=200000 ROUNDS=5 scripts/scaling.sh   # smaller file, more rounds
#   FILE=big.txt scripts/scaling.sh        # an existing one-per-line file
#
# For each round: `bench -j 1` (solver only, one thread), then `solve -j 1`
# and `solve -j T` (T = all cores) writing a real file and /dev/null.
# Prints the median puzzles/s of each and the ratios the issue asks about:
# solve -j 1 against bench, and solve -j T against T x bench. `bench -j T`
# is measured too: on a shared VM the second core is not always a whole
# core, and solve -j T / bench -j T is the part the tool's I/O costs.
# Outputs of -j 1 and -j T are compared byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${ROUNDS:-3}"
threads="${THREADS:-$(nproc)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cargo build --release --quiet
bin=target/release/sudoku-bulk
file="${FILE:-}"
if [ -z "$file" ]; then
    n="${N:-1000000}"
    file="$tmp/big.txt"
    echo "making $n puzzles (scripts/shuffle.py --seed 1) ..." >&2
    python3 scripts/shuffle.py -n "$n" --seed 1 data/17_clue_sub.txt > "$file"
fi
export LC_ALL=C

rate() { # summary line on stderr -> puzzles/s
    sed -n 's/.*(\([0-9.]*\) puzzles\/s).*/\1/p' | tail -1
}
median() {
    tr ' ' '\n' | { grep -E '^[0-9.]+$' || true; } | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.0f\n", v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

b=""; bn=""; s1=""; sn=""; s1n=""; snn=""
for _ in $(seq "$rounds"); do
    b="$b $($bin bench --json -j 1 --seconds 3 "$file" | sed -n 's/.*"puzzles_per_sec": \([0-9.]*\).*/\1/p')"
    bn="$bn $($bin bench --json -j "$threads" --seconds 3 "$file" | sed -n 's/.*"puzzles_per_sec": \([0-9.]*\).*/\1/p')"
    s1="$s1 $($bin solve -j 1 --no-progress -o "$tmp/out1.txt" "$file" 2>&1 | rate)"
    sn="$sn $($bin solve -j "$threads" --no-progress -o "$tmp/outn.txt" "$file" 2>&1 | rate)"
    s1n="$s1n $($bin solve -j 1 --no-progress -o /dev/null "$file" 2>&1 | rate)"
    snn="$snn $($bin solve -j "$threads" --no-progress -o /dev/null "$file" 2>&1 | rate)"
    cmp -s "$tmp/out1.txt" "$tmp/outn.txt" || { echo "outputs of -j 1 and -j $threads differ" >&2; exit 1; }
done
B=$(echo "$b" | median)
BN=$(echo "$bn" | median)
printf '%-34s %12s %8s %8s\n' "run ($(grep -c . "$file") puzzles, $rounds rounds)" "puzzles/s" "ratio" "vs bench"
printf '%-34s %12s %8s %8s\n' "bench -j 1 (solver only)" "$B" "1.000" "-"
printf '%-34s %12s %8s %8s\n' "bench -j $threads (solver only)" "$BN" \
    "$(awk -v a="$BN" -v b="$B" -v k="$threads" 'BEGIN { printf "%.3f", a / (k * b) }')" "-"
for row in "solve -j 1 -o FILE:$s1:1:$B" "solve -j 1 -o /dev/null:$s1n:1:$B" \
           "solve -j $threads -o FILE:$sn:$threads:$BN" "solve -j $threads -o /dev/null:$snn:$threads:$BN"; do
    IFS=: read -r name vals k same <<<"$row"
    m=$(echo "$vals" | median)
    printf '%-34s %12s %8s %8s\n' "$name" "$m" \
        "$(awk -v a="$m" -v b="$B" -v k="$k" 'BEGIN { printf "%.3f", a / (k * b) }')" \
        "$(awk -v a="$m" -v b="$same" 'BEGIN { printf "%.3f", a / b }')"
done
echo "ratio: puzzles/s over (threads x bench -j 1); vs bench: over bench with the same threads"
echo "outputs of -j 1 and -j $threads were identical"
