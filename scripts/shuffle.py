#!/usr/bin/env python3
"""Make big 9x9 benchmark files from small ones by random symmetries.

Each output puzzle is an input puzzle (chosen at random) with a random
validity-preserving transform: digits relabelled, rows permuted within bands,
bands permuted, columns within stacks, stacks permuted, optional transpose.
The transformed puzzle has the same number of solutions and the same
difficulty as its source, so a 1M-line file made from a set behaves like the
set (tdoku's benchmark does the same).

    scripts/shuffle.py -n 1000000 --seed 1 data/17_clue_sub.txt > big.txt
    scripts/shuffle.py --with-solution -n 1000000 gen.csv > big.csv

Reads one-puzzle-per-line 9x9 files (`#` comments skipped). With
--with-solution it reads `puzzle,solution` rows instead (as `sudoku-bulk
generate --with-solution -o gen.csv` writes them; a header row is skipped)
and writes `puzzle,solution` rows, both grids moved by the same transform.
"""
import argparse
import random
import sys


def perm_within_groups(rng):
    groups = [0, 1, 2]
    rng.shuffle(groups)
    out = []
    for g in groups:
        inner = [0, 1, 2]
        rng.shuffle(inner)
        out.extend(g * 3 + i for i in inner)
    return out


def transform(p, rng):
    return make_transform(rng)(p)


def make_transform(rng):
    """A random symmetry, as a function of a grid (so a puzzle and its
    solution can be moved alike)."""
    digits = list("123456789")
    rng.shuffle(digits)
    relabel = {str(i + 1): digits[i] for i in range(9)}
    rows = perm_within_groups(rng)
    cols = perm_within_groups(rng)
    transpose = rng.random() < 0.5

    def apply(p):
        out = []
        for r in range(9):
            for c in range(9):
                sr, sc = rows[r], cols[c]
                if transpose:
                    sr, sc = sc, sr
                ch = p[sr * 9 + sc]
                out.append(relabel.get(ch, "."))
        return "".join(out)

    return apply


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("-n", type=int, default=1_000_000, help="puzzles to write")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--with-solution",
        action="store_true",
        help="read and write puzzle,solution rows",
    )
    a = ap.parse_args()
    rng = random.Random(a.seed)
    src = []
    for f in a.files:
        with open(f) as fh:
            for line in fh:
                if a.with_solution:
                    t = line.strip().split(",")
                    if len(t) == 2 and len(t[0]) == 81 and len(t[1]) == 81:
                        src.append(t)
                    continue
                t = line.split()
                if t and not t[0].startswith("#") and len(t[0]) == 81:
                    src.append(t[0])
    if not src:
        sys.exit("no 81-cell puzzles in the input files")
    w = sys.stdout.write
    for _ in range(a.n):
        if a.with_solution:
            p, s = rng.choice(src)
            move = make_transform(rng)
            w(move(p) + "," + move(s) + "\n")
        else:
            w(transform(rng.choice(src), rng) + "\n")


if __name__ == "__main__":
    main()
