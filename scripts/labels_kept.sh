#!/usr/bin/env bash
# Builds an N-row dataset CSV (default 100k) whose solution column already
# holds valid labels, one row in ten a multi-solution puzzle whose label is
# one of its solutions (usually not the one our solver finds), some rows
# with quoted fields; then checks that `solve` writes it back byte for byte
# and counts the labels `solve --overwrite` would have changed.
# Usage: scripts/labels_kept.sh [N]   (after cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${B:-target/release/sudoku-bulk}
N=${1:-100000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 scripts/shuffle.py -n "$N" data/17_clue_sub.txt > "$T/p.txt"
"$B" solve "$T/p.txt" -o "$T/a.txt" 2>/dev/null
python3 - "$T" <<'PY'
import random, sys
t = sys.argv[1]
random.seed(7)
P = [l.split()[0] for l in open(f"{t}/p.txt") if l.strip() and not l.startswith("#")]
A = [l.strip() for l in open(f"{t}/a.txt")]
rows = ["id,puzzle,solution,clues,note"]
for i, (p, a) in enumerate(zip(P, A)):
    if i % 10 == 3:  # keep ~20% of the label's cells: many solutions
        p = "".join(c if random.random() < 0.2 else "." for c in a)
    note = '"quoted, with comma"' if i % 17 == 0 else "plain"
    rows.append(f"{i},{p},{a},{sum(c != '.' for c in p)},{note}")
open(f"{t}/ds.csv", "w").write("\n".join(rows) + "\n")
PY
"$B" count "$T/ds.csv" 2>&1 | tail -1
"$B" solve "$T/ds.csv" -o "$T/out.csv"
if cmp -s "$T/ds.csv" "$T/out.csv"; then echo "solve: byte-identical ($N rows)"; else echo "solve: CHANGED"; exit 1; fi
"$B" solve --overwrite "$T/ds.csv" -o "$T/ow.csv" 2>/dev/null
echo "labels --overwrite replaces with a different solution: $(diff <(cut -d, -f3 "$T/ds.csv") <(cut -d, -f3 "$T/ow.csv") | grep -c '^<' || true)"
