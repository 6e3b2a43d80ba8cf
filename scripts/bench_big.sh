#!/usr/bin/env bash
# Big-grid speed benchmark (issue 15): our `bench` against two anchors, CaDiCaL
# (through python-sat) and an optional dancing-links solver, on fixed-seed sets
# of 16x16 to 64x64 puzzles, single thread everywhere, each set's solvers run
# back to back. Prints a Markdown table (one row per set) and writes the raw
# JSON lines to target/bench-big/results.jsonl. Machines here are shared and
# noisy: only ratios measured in one run mean anything.
#
#   scripts/bench_big.sh                          # all sets, ours + CaDiCaL
#   DLX=/path/to/dlx scripts/bench_big.sh         # also a DLX solver (see below)
#   SIZES="16 25" PUZZLES=5 scripts/bench_big.sh  # a quick run
#   SETS="r25-50 u25" scripts/bench_big.sh        # only these sets
#
# Sets (written once to target/bench-big/sets/, reused while seed and counts
# stay; never committed), one puzzle per line, N*N numbers, 0 = blank:
#   rN-P  random puzzles, N x N with exactly P% of the cells blank: 16 at
#         55/68/75, 25 at 40/45/50/55/60, 36 at 40/45/50/60, 49 and 64 at 40.
#         Mostly several solutions; any solution is a correct answer; timed in
#         first-solution mode. Each is a full grid with P% blanked: the pattern
#         grid or one of GRIDS grids CaDiCaL completes from a random first row
#         (so not all pattern-equivalent), put through random relabelling,
#         row/column/band/stack permutations and transposition.
#   uN    unique puzzles from our `generate --size N --seed SEED` (16 and 25),
#         timed counting to 2 solutions (`bench --mode unique`). Cached per
#         commit of the binary: the generator's output for a seed changes
#         with the solver (a set cached at an older commit was far easier).
#
# Environment:
#   SEED=1          seed of every set
#   PUZZLES=        puzzles per random set (defaults: 200 for 16/25, 20 for 36,
#                   10 for 49/64); PUZZLES_16 .. PUZZLES_64 per size
#   UNIQUE_16=30 UNIQUE_25=15  puzzles in the unique sets (25x25 generation
#                   takes 5-30 s a puzzle on one core; cached)
#   SIZES="16 25 36 49 64"  SETS="NAME ..."  which sets to run
#   GRIDS=4         solved random-first-row grids per size (plus the pattern)
#   CAP_SECONDS=60  per-puzzle cap for the anchors: the DLX gets it in its
#                   environment; a puzzle without an answer line after
#                   CAP_SECONDS + ANCHOR_SLACK (30) s is killed, counted as
#                   capped (at CAP_SECONDS) and the anchor restarted after it
#   DLX=PATH        the DLX anchor; no DLX columns when unset
#   OURS_SPLIT=1    when our bench JSON has no per-puzzle percentiles
#                   (median_ms, p99_ms, ...), measure them with one `bench`
#                   run per puzzle (else they print as -)
#   SAT_SOLVER=Cadical195  SAT_AMO=pairwise|seqcounter   see bench_sat.py
#   PYSAT=python-sat==1.9.dev22   what pip installs into target/satenv
#   OUT=target/bench-big
#
# Ours: `target/release/sudoku-bulk bench SET -j 1 --json --seconds 0
# [--mode unique]`: one timed pass, the solver only. CaDiCaL: scripts/bench_sat.py
# (a fresh solver per puzzle, only solve() timed; extended encoding, givens as
# unit clauses), run in the virtualenv target/satenv that this script makes.
#
# An anchor (the DLX or any other) is a program run as `PROG FILE first|count2`
# that prints, flushed, one line per puzzle of FILE: `COUNT MILLISECONDS
# [SOLUTION]`: COUNT = solutions found (first: 1; count2: stop at 2; -1 = gave
# up at CAP_SECONDS), MILLISECONDS = its own solving time for the puzzle,
# SOLUTION (optional) = the first solution as N*N comma-separated numbers,
# checked here when present. No DLX is part of this project: build one outside
# the repo (we used a plain C Algorithm X with dancing links, fewest-nodes
# column choice, gcc -O2).
#
# The table: per solver the total seconds, median, p99 (nearest rank: with 50
# puzzles, the slowest) and max ms per puzzle; then ours / the best anchor for
# the total and the p99, and our p99 / our median.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

pysat="${PYSAT:-python-sat==1.9.dev22}"
venv=target/satenv
if [ ! -f "$venv/.installed-$pysat" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$pysat"
    touch "$venv/.installed-$pysat"
fi
cargo build --release --quiet

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "Command: $(for v in SEED PUZZLES PUZZLES_16 PUZZLES_25 PUZZLES_36 PUZZLES_49 PUZZLES_64 UNIQUE_16 UNIQUE_25 \
    SIZES SETS GRIDS CAP_SECONDS DLX OURS_SPLIT SAT_SOLVER SAT_AMO; do
    [ -n "${!v:-}" ] && printf '%s=%q ' "$v" "${!v}"; done)scripts/bench_big.sh $*"
echo
echo "Machine: $(nproc) cores, ${cpu:-unknown CPU}; commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (modified)'); $pysat; $(date -u +%Y-%m-%dT%H:%MZ); single thread"
echo
exec "$venv/bin/python" scripts/bench_big.py
