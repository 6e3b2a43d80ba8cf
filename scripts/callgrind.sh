#!/usr/bin/env bash
# Solver cost in instructions (callgrind: deterministic where wall-clock
# time on a shared machine is not). For each file and mode, the whole
# process runs on the file repeated REPS times and on its first puzzle
# alone; the difference over the extra puzzles is the marginal cost of a
# puzzle, start-up and writing excluded. Also prints the start-up cost
# (the one-puzzle run).
#
#   scripts/callgrind.sh data/forum_hardest_1106.txt data/serg_benchmark_sub.txt
#   BIN=path/to/sudoku-bulk REPS=3 scripts/callgrind.sh FILE...
#   MODES="solve" scripts/callgrind.sh FILE...   # solve, count (limit 2), or both
#
# `solve` is first-solution mode (limit 1), `count` counts to 2. BIN
# defaults to target/release/sudoku-bulk (build it first: the release
# profile keeps line tables for callgrind_annotate). Extra arguments for
# the binary go in ARGS (such as ARGS="--no-pext").
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${BIN:-target/release/sudoku-bulk}"
reps="${REPS:-2}"
modes="${MODES:-solve count}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

instr() { # command... -> total instructions (Ir) of the whole process
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>"$tmp/vg.err" || true
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$tmp/cg.out"
}

printf '%-32s %6s %8s %12s %10s\n' set mode puzzles instr/puzzle startup
for f in "$@"; do
    grep -v '^#' "$f" | grep -v '^$' >"$tmp/one.txt"
    n=$(wc -l <"$tmp/one.txt")
    for _ in $(seq "$reps"); do cat "$tmp/one.txt"; done >"$tmp/many.txt"
    head -1 "$tmp/one.txt" >"$tmp/first.txt"
    for mode in $modes; do
        case "$mode" in
            solve) cmd=(solve -j 1) ;;
            count) cmd=(count --limit 2 -j 1) ;;
            *) echo "unknown mode $mode" >&2; exit 2 ;;
        esac
        a=$(instr "$bin" "${cmd[@]}" ${ARGS:-} "$tmp/first.txt")
        b=$(instr "$bin" "${cmd[@]}" ${ARGS:-} "$tmp/many.txt")
        per=$(( (b - a) / (n * reps - 1) ))
        printf '%-32s %6s %8s %12s %10s\n' "$(basename "$f")" "$mode" "$n" "$per" "$a"
    done
done
