#!/usr/bin/env python3
"""serate's own step, technique by technique, on the grids where our rating
paths stop: fixture lines for the rater's tests (src/rate/tests.rs reads
tests/data/rate_serate_steps.txt).

For every puzzle of FILE... that `rate --steps` leaves unrated, the grid
where its path stopped (the givens, then every step's removals and
placements replayed) goes to serate as 729-character pencilmarks with only
one technique on (`--techs=`, the N-th of its list), for each ID:N given.
Each grid and technique is a line `ID PENCILMARKS RATING REMOVALS` (serate's
first step there: its rating and the candidates it removes, `r1c2-5,...`) or
`ID PENCILMARKS -` (serate finds nothing). The rater must take the same
step on the same grid (that test feeds each line to the technique alone).

    SERATE=/path/to/serate-wrapper scripts/rate_stop_check.py \\
        --techs TUVWXYZWing:40,AlignedTripletExclusion:41 FILE... > lines.txt

This also covers techniques our paths never reach (those after the first
one not implemented): the grids are real positions of real puzzles.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = [[j for j in range(81) if j != i and (
    i // 9 == j // 9 or i % 9 == j % 9 or (i // 27 == j // 27 and i % 9 // 3 == j % 9 // 3))]
    for i in range(81)]


def candidates(values):
    return [set() if values[i] else set(range(1, 10)) - {values[j] for j in PEERS[i] if values[j]}
            for i in range(81)]


def cell_index(name):
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def stop_grids(exe, path):
    """The pencilmarks where each unrated path of `path` stops."""
    with tempfile.TemporaryDirectory() as d:
        steps = os.path.join(d, "steps.jsonl")
        subprocess.run([exe, "rate", path, "--steps", steps, "-o", os.devnull],
                       capture_output=True, check=True)
        out = []
        for line in open(steps):
            o = json.loads(line)
            if o["status"] != "unrated":
                continue
            values = [int(ch) if ch.isdigit() else 0 for ch in o["puzzle"][:81]]
            cand = candidates(values)
            for s in o["steps"]:
                for e in s["eliminated"]:
                    cand[cell_index(e["cell"])].discard(e["digit"])
                if s["placed"]:
                    values[cell_index(s["placed"]["cell"])] = s["placed"]["digit"]
                    fresh = candidates(values)
                    cand = [cand[i] & fresh[i] for i in range(81)]
            out.append("".join(
                "".join(str(v) if (v == values[i] if values[i] else v in cand[i]) else "."
                        for v in range(1, 10)) for i in range(81)))
        return out


def serate_first_steps(serate, grids, pos):
    """serate's first step (rating, pencilmarks after) or None per grid,
    with only its `pos`-th technique on."""
    techs = "".join("1" if i == pos - 1 else "0" for i in range(46))
    with tempfile.TemporaryDirectory() as d:
        inp = os.path.join(d, "in.txt")
        with open(inp, "w") as f:
            f.write("\n".join(grids) + "\n")
        r = subprocess.run(shlex.split(serate) + ["--techs=" + techs, "--threads=1", "--input=" + inp,
                                                  "--start=#%n", "--after=%s|%r|%m", "--format=#END"],
                           capture_output=True, text=True, check=True)
    firsts, cur = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("#END"):
            cur = None
        elif line.startswith("#"):
            cur = int(line[1:]) - 1
            firsts[cur] = None
        elif cur is not None and firsts[cur] is None and "|" in line:
            _, rating, after = line.split("|")
            firsts[cur] = (rating, after)
    return [firsts.get(i) for i in range(len(grids))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--techs", required=True, help="ID:N,...: our id and serate's position of each")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    serate = os.environ.get("SERATE")
    if not serate:
        sys.exit("set SERATE to a command running serate (see docs/rating.md)")
    exe = os.environ.get("RATER_EXE", os.path.join(ROOT, "target/release/sudoku-bulk"))
    grids = [g for path in a.files for g in stop_grids(exe, path)]
    print("%d stop grids" % len(grids), file=sys.stderr)
    for spec in a.techs.split(","):
        tech, pos = spec.split(":")
        found = 0
        for g, step in zip(grids, serate_first_steps(serate, grids, int(pos))):
            if step:
                found += 1
                gone = ["r%dc%d-%d" % (i // 81 + 1, i // 9 % 9 + 1, i % 9 + 1)
                        for i in range(729) if g[i] != "." and step[1][i] == "."]
                print(tech, g, step[0], ",".join(gone))
            else:
                print(tech, g, "-")
        print("%s: serate steps on %d of %d" % (tech, found, len(grids)), file=sys.stderr)


if __name__ == "__main__":
    main()
