#!/usr/bin/env bash
# Side-by-side solver speed: our `bench` (first-solution and count-to-2 modes)
# over the benchmark sets, and optionally peer solvers in the same run, with
# ratios. Machines here are shared and noisy: only ratios measured in one run
# mean anything.
#
#   scripts/compare.sh                       # our two modes on the shared sets
#   scripts/compare.sh --tdoku PATH          # also tdoku's run_benchmark binary
#   scripts/compare.sh --peer PATH           # also a peer harness (see below)
#   SETS="data/*.txt" SECONDS_PER=3 ROUNDS=3 scripts/compare.sh
#
# Each figure is the median of ROUNDS runs (default 3), the solvers taking
# turns within each round so that a noisy spell hits them alike.
#
# SETS defaults to ../shared/data/puzzles* when that folder exists (it does on
# the development machines), else to data/*.txt. tdoku runs on the file as it
# is (`-r0 -nCOUNT`: no random transforms, no resampling), as ours does; `-f`
# is its first-solution mode. A peer harness is any program run as
# `PATH FILE first|count2 SECONDS` that prints one line whose third field is
# puzzles/s (we measured the Rust `sudoku` crate this way; its code is not
# part of this project). Ratios are ours / the best peer in the same mode.
set -euo pipefail
cd "$(dirname "$0")/.."

tdoku=""
peer=""
while [ $# -gt 0 ]; do
    case "$1" in
        --tdoku) tdoku="$2"; shift 2 ;;
        --peer) peer="$2"; shift 2 ;;
        *) echo "usage: $0 [--tdoku PATH/run_benchmark] [--peer PATH]" >&2; exit 2 ;;
    esac
done

if [ -z "${SETS:-}" ]; then
    if compgen -G "../shared/data/puzzles*" >/dev/null; then SETS="../shared/data/puzzles*"; else SETS="data/*.txt"; fi
fi
secs="${SECONDS_PER:-3}"
rounds="${ROUNDS:-3}"

cargo build --release --quiet
bin=target/release/sudoku-bulk
export LC_ALL=C

field() { # JSON line, key -> value
    sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" <<<"$1"
}
tdoku_rate() { # file, extra flags
    local n
    n=$(grep -cv '^#' "$1")
    # tdoku prints a |-separated table; puzzles/sec is the 3rd field of its row.
    "$tdoku" -t"$secs" -w1 -v0 -r0 -n"$n" $2 -s tdoku "$1" 2>/dev/null \
        | awk -F'|' '$2 ~ /^ *tdoku/ { gsub(/ /, "", $3); print $3 }' | tail -1
}
ratio() { # ours, peer...: ours / max(peer)
    awk -v a="$1" -v b="$2" -v c="${3:--}" 'BEGIN{ m = 0; if (b+0 > m) m = b+0; if (c+0 > m) m = c+0;
        if (m > 0) printf "%.2f", a / m; else print "-" }'
}

median() { # numbers or "-" -> median, "-" when there are none
    tr ' ' '\n' | { grep -E '^[0-9.]+$' || true; } | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) print "-"; else if (NR % 2) printf "%.0f\n", v[(NR + 1) / 2];
        else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-34s %6s %10s %8s %10s %10s %6s %9s\n' set mode ours guesses tdoku peer ratio verified
for f in $SETS; do
    for mode in first unique; do
        rs=""; ts=""; ps=""
        for _ in $(seq "$rounds"); do
            j=$($bin bench --json --seconds "$secs" --mode "$mode" "$f" | grep '"file"')
            rs="$rs $(field "$j" puzzles_per_sec)"
            if [ -n "$tdoku" ]; then
                if [ "$mode" = first ]; then ts="$ts $(tdoku_rate "$f" -f)"; else ts="$ts $(tdoku_rate "$f" "")"; fi
            fi
            if [ -n "$peer" ]; then
                if [ "$mode" = first ]; then pm=first; else pm=count2; fi
                ps="$ps $("$peer" "$f" "$pm" "$secs" 2>/dev/null | awk '{ print $3 }')"
            fi
        done
        r=$(echo "$rs" | median); t=$(echo "$ts" | median); p=$(echo "$ps" | median)
        g=$(field "$j" guesses_per_puzzle)
        v=$(field "$j" verified)
        printf '%-34s %6s %10s %8s %10s %10s %6s %9s\n' "$(basename "$f")" "$mode" "$r" "$g" "$t" "$p" \
            "$(ratio "$r" "$t" "$p")" "$v"
    done
done
