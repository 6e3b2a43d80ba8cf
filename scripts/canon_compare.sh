#!/usr/bin/env bash
# Side by side: `sudoku-bulk canon` (both forms) against dobrichev's
# sudoku-minlexing-tool (patminlex), whole process, one thread, alternating
# rounds so machine noise hits both alike; then a byte-for-byte comparison of
# `canon --form pattern` with the tool's forms on every set.
#
#   MINLEX=/path/to/patminlex scripts/canon_compare.sh [ROUNDS]
#
# MINLEX: the tool's binary, built outside this repository (see
#   docs/canon.md: `g++ -O3 -march=native -o patminlex main.cpp patminlex.cpp`).
# BIN: our binary [target/release/sudoku-bulk]. DATA: the shared benchmark
# sets [../shared/data]. GRID_TOOL_N: full grids given to the tool, which
# takes ~0.1 s a grid [200].
set -euo pipefail
cd "$(dirname "$0")/.."
: "${MINLEX:?set MINLEX to the patminlex binary}"
BIN=${BIN:-target/release/sudoku-bulk}
DATA=${DATA:-../shared/data}
GRID_TOOL_N=${GRID_TOOL_N:-200}
ROUNDS=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The tool reads every line as a puzzle: give it puzzles only.
strip() { grep -v '^#' "$1" | grep -v '^$'; }
strip "$DATA/puzzles2_17_clue" >"$work/17-clue"
strip "$DATA/puzzles3_magictour_top1465" >"$work/top1465"
strip "$DATA/puzzles5_forum_hardest_1905_11+" >"$work/hardest-11+"
"$BIN" generate -n 100000 --clues 60 --seed 31 --no-progress 2>/dev/null |
    "$BIN" solve --no-progress 2>/dev/null >"$work/grids-100k"
head -n "$GRID_TOOL_N" "$work/grids-100k" >"$work/grids-tool"

# The tool prints, per puzzle: the input line, "FORM<TAB>AUTOMORPHISMS",
# up to 200 mapped-back lines, a blank line. Keep the forms.
forms() {
    awk '{ if (s==0) { s=1; next }
           if (s==1) { split($0, a, "\t"); print a[1]; n=a[2]+0; if (n>200) n=200;
                       left=n; s=(left>0)?2:3; next }
           if (s==2) { if (--left==0) s=3; next }
           if (s==3) { s=0; next } }'
}

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

printf '%-12s %8s | %12s | %12s %7s | %12s %7s | %s\n' set records "tool /s" \
    "string /s" ratio "pattern /s" ratio "pattern == tool"
for set in 17-clue top1465 hardest-11+ grids-100k; do
    f="$work/$set"
    tf=$f
    [ "$set" = grids-100k ] && tf="$work/grids-tool"
    n=$(wc -l <"$f")
    tn=$(wc -l <"$tf")
    best_t=999999 best_s=999999 best_p=999999
    for _ in $(seq "$ROUNDS"); do
        a=$(now); "$MINLEX" <"$tf" >/dev/null; b=$(now)
        t=$(secs "$a" "$b")
        a=$(now); "$BIN" canon -j 1 --no-progress "$f" >/dev/null 2>&1; b=$(now)
        s=$(secs "$a" "$b")
        a=$(now); "$BIN" canon -j 1 --no-progress --form pattern "$f" >/dev/null 2>&1; b=$(now)
        p=$(secs "$a" "$b")
        best_t=$(echo "if ($t < $best_t) $t else $best_t" | bc -l)
        best_s=$(echo "if ($s < $best_s) $s else $best_s" | bc -l)
        best_p=$(echo "if ($p < $best_p) $p else $best_p" | bc -l)
    done
    rt=$(echo "$tn / $best_t" | bc -l)
    rs=$(echo "$n / $best_s" | bc -l)
    rp=$(echo "$n / $best_p" | bc -l)
    "$MINLEX" <"$tf" | forms >"$work/tool.out"
    "$BIN" canon --no-progress --form pattern "$tf" >"$work/ours.out" 2>/dev/null
    if cmp -s "$work/tool.out" "$work/ours.out"; then same="identical ($tn)"; else
        same="DIFFER: $(diff "$work/tool.out" "$work/ours.out" | grep -c '^<') of $tn"
    fi
    printf '%-12s %8d | %12.0f | %12.0f %6.2fx | %12.0f %6.2fx | %s\n' "$set" "$n" "$rt" \
        "$rs" "$(echo "$rs / $rt" | bc -l)" "$rp" "$(echo "$rp / $rt" | bc -l)" "$same"
done
