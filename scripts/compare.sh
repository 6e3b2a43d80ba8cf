#!/usr/bin/env bash
# Side-by-side solver speed: our `bench` (first-solution and count-to-2 modes)
# over the benchmark sets, and optionally peer solvers in the same run, with
# ratios. Machines here are shared and noisy: only ratios measured in one run
# mean anything.
#
#   scripts/compare.sh                       # our two modes on the shared sets
#   scripts/compare.sh --tdoku PATH          # also tdoku's run_benchmark binary
#   scripts/compare.sh --peer PATH           # also a peer harness (see below; repeatable)
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
#
# Whole process (`--drive NAME=PATH`, repeatable): a second table times whole
# programs end to end, start-up, reading, parsing and writing included. Each
# set is repeated into a scratch file of about SECONDS_PER seconds of our
# solving (WHOLE_PUZZLES=N fixes the count instead); we run `sudoku-bulk
# solve -j 1` (first) and `sudoku-bulk count -j 1` (count2), and each driver
# is run as `PATH FILE first|count2` and must print one line per puzzle: the
# solution in first mode (every driver's answers, ours too, go through
# `sudoku-bulk check` in the first round: "verified" is yes only when all
# pass), the solution count in count2 mode (compared with ours line by line).
# Rates are puzzles / wall-clock second (CLOCK=cpu: per second of user+system
# CPU time, steadier when the machine is shared), the median of ROUNDS
# alternating runs; /usr/bin/time measures them. `--whole-only` skips the
# in-process table.
set -euo pipefail
cd "$(dirname "$0")/.."

tdoku=""
peers=()
drives=()
in_process=1
while [ $# -gt 0 ]; do
    case "$1" in
        --tdoku) tdoku="$2"; shift 2 ;;
        --peer) peers+=("$2"); shift 2 ;;
        --drive) drives+=("$2"); shift 2 ;;
        --whole-only) in_process=0; shift ;;
        *) echo "usage: $0 [--tdoku PATH/run_benchmark] [--peer PATH]... [--drive NAME=PATH]... [--whole-only]" >&2; exit 2 ;;
    esac
done
for d in ${drives[@]+"${drives[@]}"}; do
    case "$d" in
        *=*) [ -x "${d#*=}" ] || { echo "$0: --drive $d: ${d#*=} is not an executable" >&2; exit 2; } ;;
        *) echo "$0: --drive wants NAME=PATH, not $d" >&2; exit 2 ;;
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
    local a="$1"
    shift
    printf '%s\n' "$@" | awk -v a="$a" '{ if ($1 + 0 > m) m = $1 + 0 } END { if (m > 0) printf "%.2f", a / m; else print "-" }'
}

median() { # numbers or "-" -> median, "-" when there are none
    tr ' ' '\n' | { grep -E '^[0-9.]+$' || true; } | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) print "-"; else if (NR % 2) printf "%.0f\n", v[(NR + 1) / 2];
        else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

in_process_table() {
printf '%-34s %6s %10s %8s %10s' set mode ours guesses tdoku
for p in ${peers[@]+"${peers[@]}"}; do printf ' %10s' "$(basename "$p" | cut -c1-10)"; done
printf ' %6s %9s\n' ratio verified
for f in $SETS; do
    for mode in first unique; do
        rs=""; ts=""
        declare -A prs=()
        for _ in $(seq "$rounds"); do
            j=$($bin bench --json --seconds "$secs" --mode "$mode" "$f" | grep '"file"')
            rs="$rs $(field "$j" puzzles_per_sec)"
            if [ -n "$tdoku" ]; then
                if [ "$mode" = first ]; then ts="$ts $(tdoku_rate "$f" -f)"; else ts="$ts $(tdoku_rate "$f" "")"; fi
            fi
            for p in ${peers[@]+"${peers[@]}"}; do
                if [ "$mode" = first ]; then pm=first; else pm=count2; fi
                prs[$p]="${prs[$p]:-} $("$p" "$f" "$pm" "$secs" 2>/dev/null | awk '{ print $3 }')"
            done
        done
        r=$(echo "$rs" | median); t=$(echo "$ts" | median)
        g=$(field "$j" guesses_per_puzzle)
        v=$(field "$j" verified)
        line=$(printf '%-34s %6s %10s %8s %10s' "$(basename "$f")" "$mode" "$r" "$g" "$t")
        all=("$t")
        for p in ${peers[@]+"${peers[@]}"}; do
            pr=$(echo "${prs[$p]}" | median)
            line="$line $(printf ' %10s' "$pr")"
            all+=("$pr")
        done
        printf '%s %6s %9s\n' "$line" "$(ratio "$r" "${all[@]}")" "$v"
        unset prs
    done
done
}

wall() { # command... -> seconds it took, wall clock or user+system CPU (stdout to $out)
    /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >"$out" 2>/dev/null
    if [ "${CLOCK:-wall}" = cpu ]; then awk '{ print $2 + $3 }' "$tmp/time"; else awk '{ print $1 }' "$tmp/time"; fi
}

median_rate() { # puzzles, "seconds seconds ..." -> median puzzles per second
    tr ' ' '\n' <<<"$2" | { grep . || true; } | awk -v p="$1" '{ print p / $1 }' | tr '\n' ' ' | median
}

whole_table() {
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    printf '\nWhole process (puzzles per %s second, median of %s alternating rounds)\n' "${CLOCK:-wall}" "$rounds"
    printf '%-34s %6s %9s %10s' set mode puzzles ours
    for d in "${drives[@]}"; do printf ' %10s' "${d%%=*}"; done
    printf ' %6s %9s\n' ratio verified
    for f in $SETS; do
        local n reps big total
        n=$(grep -cv '^#' "$f")
        for mode in first count2; do
            if [ -n "${WHOLE_PUZZLES:-}" ]; then
                total=$WHOLE_PUZZLES
            else
                # About SECONDS_PER seconds of our solving at the in-process rate.
                local bm=first
                [ "$mode" = count2 ] && bm=unique
                local r
                r=$(field "$($bin bench --json --seconds 0.5 --mode "$bm" "$f" | grep '"file"')" puzzles_per_sec)
                total=$(awk -v r="$r" -v s="$secs" 'BEGIN { printf "%d", r * s }')
            fi
            reps=$(( (total + n - 1) / n ))
            big="$tmp/$(basename "$f").x$reps"
            if [ ! -e "$big" ]; then
                grep -v '^#' "$f" >"$tmp/one"
                for _ in $(seq "$reps"); do cat "$tmp/one"; done >"$big"
            fi
            local puzzles=$((n * reps)) ours="" verified=yes
            declare -A peer_rates=()
            for round in $(seq "$rounds"); do
                out="$tmp/ours.out"
                if [ "$mode" = first ]; then
                    ours="$ours $(wall "$bin" solve -j 1 --no-progress "$big")"
                else
                    ours="$ours $(wall "$bin" count -j 1 --no-progress "$big")"
                fi
                if [ "$round" = 1 ]; then
                    if [ "$mode" = first ]; then
                        "$bin" check "$big" "$out" >/dev/null 2>&1 || verified=no
                    else
                        cp "$out" "$tmp/ours.counts"
                    fi
                fi
                for d in "${drives[@]}"; do
                    out="$tmp/peer.out"
                    peer_rates[$d]="${peer_rates[$d]:-} $(wall "${d#*=}" "$big" "$mode")"
                    if [ "$round" = 1 ]; then
                        if [ "$mode" = first ]; then
                            "$bin" check "$big" "$out" >/dev/null 2>&1 || verified=no
                        else
                            # `count` writes a reached limit as `2+`.
                            sed 's/+$//' "$tmp/ours.counts" | cmp -s - "$out" || verified=no
                        fi
                    fi
                done
            done
            local r best=0 line
            r=$(median_rate "$puzzles" "$ours")
            line=$(printf '%-34s %6s %9s %10s' "$(basename "$f")" "$mode" "$puzzles" "$r")
            local rates=()
            for d in "${drives[@]}"; do
                local pr
                pr=$(median_rate "$puzzles" "${peer_rates[$d]}")
                line="$line $(printf ' %10s' "$pr")"
                rates+=("$pr")
            done
            best=$(printf '%s\n' "${rates[@]}" | sort -g | tail -1)
            printf '%s %6s %9s\n' "$line" "$(awk -v a="$r" -v b="$best" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" "$verified"
            unset peer_rates
        done
    done
}

if [ "$in_process" = 1 ]; then in_process_table; fi
if [ ${#drives[@]} -gt 0 ]; then whole_table; fi
