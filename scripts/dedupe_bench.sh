#!/usr/bin/env bash
# `dedupe --by iso` of N puzzles (default 10M) on 2 threads: time and peak
# RSS (/usr/bin/time -v), with the default --memory and with 64M (spilling).
# BASE puzzles are `generate`d, then each line of the big file is one of
# them in a random disguise made by the awk below (digits relabelled, bands
# and rows within bands permuted, every other line transposed), so the
# file has the goal's size and about BASE classes: random generated
# puzzles are isomorphs of each other with negligible probability, so
# `kept` should print BASE. (Making 10M lines with awk takes ~10 minutes
# on a busy machine; WORK=DIR keeps the file for another run.)
#
#   scripts/dedupe_bench.sh [N] [BASE]      # N=10000000 BASE=20000
#
# Needs a release build (cargo build --release) and /usr/bin/time.
set -euo pipefail
N=${1:-10000000}
BASE=${2:-20000}
BIN=${BIN:-target/release/sudoku-bulk}
# WORK=DIR keeps the files there; by default a temporary directory is
# removed at the end.
if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
echo "work dir: $WORK"
"$BIN" generate -q -n "$BASE" --seed 31 -o "$WORK/base.txt"
# Disguises: per line a random digit relabelling, band order, row order in
# each band; plus a transposition every other line. Deterministic (srand).
[ -s "$WORK/big.txt" ] && [ "$(wc -l < "$WORK/big.txt")" -eq "$N" ] || awk -v n="$N" -v seed=7 '
  function shuffle(a, k,   i, j, t) { for (i = k; i > 1; i--) { j = int(rand() * i) + 1; t = a[i]; a[i] = a[j]; a[j] = t } }
  { base[NR] = $0 }
  END {
    srand(seed)
    for (r = 0; r < n; r++) {
      p = base[int(rand() * NR) + 1]
      for (i = 1; i <= 9; i++) lab[i] = i; shuffle(lab, 9)
      for (i = 1; i <= 3; i++) band[i] = i - 1; shuffle(band, 3)
      out = ""
      for (b = 1; b <= 3; b++) {
        for (i = 1; i <= 3; i++) ro[i] = i - 1; shuffle(ro, 3)
        for (k = 1; k <= 3; k++) {
          src = band[b] * 3 + ro[k]
          for (c = 0; c < 9; c++) {
            ch = (r % 2) ? substr(p, c * 9 + src + 1, 1) : substr(p, src * 9 + c + 1, 1)
            out = out ((ch == ".") ? "." : lab[ch + 0])
          }
        }
      }
      print out
    }
  }' "$WORK/base.txt" > "$WORK/big.txt"
ls -l "$WORK/big.txt"
for mem in 1G 64M; do
  echo "== dedupe --by iso -j 2 --memory $mem"
  /usr/bin/time -v "$BIN" dedupe -j 2 --memory "$mem" "$WORK/big.txt" -o "$WORK/kept.txt" \
    2> "$WORK/time.txt" || true
  grep -E "sudoku-bulk:|Elapsed|Maximum resident|User time|System time" "$WORK/time.txt"
  echo "kept lines: $(wc -l < "$WORK/kept.txt") (distinct classes generated: $BASE)"
done
