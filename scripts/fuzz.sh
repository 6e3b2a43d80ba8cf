#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets/) for SECONDS each, or until RUNS
# executions, starting from the seed corpus kept in fuzz/seeds/<target>
# (copied into fuzz/corpus/<target>, which grows and is not committed), and
# prints each target's execution count. A finding stops its target and is
# left in fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh                  # every target, 60 s each
#   SECONDS_PER=600 scripts/fuzz.sh solve_path records
#   RUNS=10000000 scripts/fuzz.sh records
#   JOBS=2 SANITIZER=address scripts/fuzz.sh
#
# Needs the nightly toolchain (`rustup toolchain list`); installs cargo-fuzz
# from crates.io when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
SECONDS_PER=${SECONDS_PER:-60}
RUNS=${RUNS:-0}
JOBS=${JOBS:-1}
# No sanitizer by default: the code under test is safe Rust but for the mmap
# and the solver's SIMD, which the Rust tests cover; SANITIZER=address
# turns AddressSanitizer on (about 3x fewer executions per second).
SANITIZER=${SANITIZER:-none}
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build -O -s "$SANITIZER"
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    cp -n "seeds/$t"/* "corpus/$t/" 2>/dev/null || true
    log=$(mktemp)
    limit=(-max_total_time="$SECONDS_PER")
    if [ "$RUNS" != 0 ]; then limit=(-runs="$RUNS"); fi
    if cargo +nightly fuzz run -O -s "$SANITIZER" "$t" "corpus/$t" -- "${limit[@]}" -jobs="$JOBS" \
        -workers="$JOBS" -print_final_stats=1 >"$log" 2>&1; then
        result=ok
    else
        result="FINDING (see fuzz/artifacts/$t)"
        status=1
    fi
    # With -jobs, each worker writes fuzz-N.log; the main log repeats
    # nothing of theirs we need. Count from the workers' logs when present.
    logs=("$log")
    if compgen -G "fuzz-*.log" >/dev/null; then logs=(fuzz-*.log); fi
    # A target that stops early (a finding in the seed corpus, an abort)
    # prints no stats: count 0 rather than let grep's status end the script.
    execs=$(cat "${logs[@]}" | awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}')
    rate=$(cat "${logs[@]}" | awk '/stat::average_exec_per_sec/ {s += $2} END {print s + 0}')
    rm -f fuzz-*.log
    printf '%-12s %12s execs %8s execs/s  %s\n' "$t" "$execs" "$rate" "$result"
    [ "$result" = ok ] || tail -40 "$log"
    rm -f "$log"
done
exit $status
