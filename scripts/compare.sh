#!/usr/bin/env bash
# Side-by-side solver speed: our `bench` (first-solution and count-to-2 modes)
# over the benchmark sets, and optionally a peer solver in the same run, with
# ratios. Machines here are shared and noisy: only ratios measured in one run
# mean anything.
#
#   scripts/compare.sh                       # our two modes on the shared sets
#   scripts/compare.sh --tdoku PATH          # also tdoku's run_benchmark binary
#   SETS="data/*.txt" SECONDS_PER=3 scripts/compare.sh
#
# SETS defaults to ../shared/data/puzzles* when that folder exists (it does on
# the development machines), else to data/*.txt. tdoku's run_benchmark always
# counts to 2 (a uniqueness proof), so its column is compared with ours in
# `unique` mode.
set -euo pipefail
cd "$(dirname "$0")/.."

tdoku=""
while [ $# -gt 0 ]; do
    case "$1" in
        --tdoku) tdoku="$2"; shift 2 ;;
        *) echo "usage: $0 [--tdoku PATH/run_benchmark]" >&2; exit 2 ;;
    esac
done

if [ -z "${SETS:-}" ]; then
    if compgen -G "../shared/data/puzzles*" >/dev/null; then SETS="../shared/data/puzzles*"; else SETS="data/*.txt"; fi
fi
secs="${SECONDS_PER:-3}"

cargo build --release --quiet
bin=target/release/sudoku-bulk

rate() { # JSON line -> puzzles_per_sec
    sed -n 's/.*"puzzles_per_sec": \([0-9.]*\).*/\1/p'
}

printf '%-36s %12s %12s %8s %12s %12s %8s\n' set ours_first ours_count2 guesses tdoku_count2 ratio_c2 verified
for f in $SETS; do
    first=$($bin bench --json --seconds "$secs" --mode first "$f" | grep '"file"')
    uniq=$($bin bench --json --seconds "$secs" --mode unique "$f" | grep '"file"')
    r1=$(echo "$first" | rate)
    r2=$(echo "$uniq" | rate)
    g2=$(echo "$uniq" | sed -n 's/.*"guesses_per_puzzle": \([0-9.]*\).*/\1/p')
    ver=$(echo "$uniq" | sed -n 's/.*"verified": \([0-9]*\).*/\1/p')
    t="-"; ratio="-"
    if [ -n "$tdoku" ]; then
        # tdoku prints a |-separated table; puzzles/sec is the 3rd field of its row.
        t=$("$tdoku" -t"$secs" -w1 -v0 -s tdoku "$f" 2>/dev/null \
            | awk -F'|' '$2 ~ /^tdoku/ { gsub(/ /, "", $3); print $3 }' | tail -1)
        ratio=$(awk -v a="$r2" -v b="$t" 'BEGIN{ if (b > 0) printf "%.2f", a / b; else print "-" }')
    fi
    printf '%-36s %12.0f %12.0f %8s %12s %12s %8s\n' "$(basename "$f")" "$r1" "$r2" "$g2" "$t" "$ratio" "$ver"
done
