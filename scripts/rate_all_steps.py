#!/usr/bin/env python3
"""Every step of one technique on our rating paths, checked against serate's
own step on the same grid, in one serate run (--check-steps of
scripts/rate_compare.py starts serate once per puzzle and checks only the
first step of each).

For each puzzle of FILE, `rate --steps` gives our path; the grid before
every step of technique ID goes to serate as 729-character pencilmarks
with only its N-th technique on (`--techs=`), all grids in one `--input`
file. serate's first step on each grid must have our rating and remove
exactly our candidates (a placement also clears its digit from the cell's
peers in serate's pencilmarks; that is counted as ours).

    SERATE=/path/to/serate-wrapper scripts/rate_all_steps.py ID:N FILE \\
        [--rater "target/release/sudoku-bulk rate -j 1 --techniques ..."] \\
        [--limit K] [--lines OUT]

--lines writes each equal step that places nothing as a fixture line
`ID PENCILMARKS RATING REMOVALS` (the format of
tests/data/rate_serate_chain_steps.txt). serate solves each grid to the
end with that technique alone, so this takes minutes for the dynamic
chains' hundreds of grids.
"""
import argparse
import collections
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rate_compare as rc  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tech", help="ID:N (our technique id, serate's technique number)")
    ap.add_argument("file")
    ap.add_argument("--rater", default=os.path.join(rc.ROOT, "target/release/sudoku-bulk") + " rate -j 1")
    ap.add_argument("--limit", type=int, default=10**9, help="check at most this many steps")
    ap.add_argument("--lines", help="write equal non-placing steps here as fixture lines")
    a = ap.parse_args()
    serate = os.environ.get("SERATE")
    if not serate:
        sys.exit("set SERATE to a command running serate (see docs/rating.md)")
    tech, pos = a.tech.split(":")
    puzzles = rc.puzzles_of(a.file, 10**9)
    items = []
    with tempfile.TemporaryDirectory() as d:
        inp, steps = os.path.join(d, "in.txt"), os.path.join(d, "steps.jsonl")
        with open(inp, "w") as f:
            f.write("\n".join(puzzles) + "\n")
        subprocess.run(shlex.split(a.rater) + [inp, "--steps", steps], capture_output=True, check=True)
        for line in open(steps):
            o = json.loads(line)
            values = [int(ch) if ch.isdigit() else 0 for ch in o["puzzle"][:81]]
            cand = rc.candidates(values)
            for s in o["steps"]:
                if s["id"] == tech and len(items) < a.limit:
                    pm = "".join("".join(str(v) if (v == values[i] if values[i] else v in cand[i]) else "."
                                         for v in range(1, 10)) for i in range(81))
                    items.append((o["puzzle"], pm, s))
                for e in s["eliminated"]:
                    cand[rc.cell_index(e["cell"])].discard(e["digit"])
                if s["placed"]:
                    values[rc.cell_index(s["placed"]["cell"])] = s["placed"]["digit"]
                    fresh = rc.candidates(values)
                    cand = [cand[i] & fresh[i] for i in range(81)]
        pin = os.path.join(d, "pm.txt")
        with open(pin, "w") as f:
            f.write("\n".join(pm for _, pm, _ in items) + "\n")
        techs = "".join("1" if i == int(pos) - 1 else "0" for i in range(46))
        r = subprocess.run(shlex.split(serate) + ["--techs=" + techs, "--format=", "--start=#START",
                                                  "--after=%s|%r|%m", "--input=" + pin],
                           capture_output=True, text=True)
    firsts = []
    for line in r.stdout.splitlines():
        if line.startswith("#START"):
            firsts.append(None)
            line = line[len("#START"):]
        if "|" in line and firsts and firsts[-1] is None:
            firsts[-1] = line
    if len(firsts) < len(items):
        print("serate answered %d of %d grids" % (len(firsts), len(items)))
    bad, kinds = 0, collections.Counter()
    out = open(a.lines, "w") if a.lines else None
    for (p, pm, s), got in zip(items, firsts):
        gone, rating = [], None
        if got:
            name, rating, after = got.split("|")
            gone = sorted((i // 9, i % 9 + 1) for i in range(729) if pm[i] != "." and after[i] == ".")
            kinds["%s %s" % (name.split(":")[0], rating)] += 1
        ours = {(rc.cell_index(e["cell"]), e["digit"]) for e in s["eliminated"]}
        if s["placed"]:
            c, v = rc.cell_index(s["placed"]["cell"]), s["placed"]["digit"]
            ours |= {(j, v) for j in range(81) if rc.peers(c, j) and pm[j * 9 + v - 1] != "."}
        ours = sorted(ours)
        if not got or rating != s["rating"] or gone != ours:
            bad += 1
            if bad <= 5:
                print("different: %s ours %s %s %s\n  serate %s %s\n  grid %s" % (
                    p, s["rating"], s["placed"], ours, got[:100] if got else None, gone, pm))
        elif out and not s["placed"]:
            out.write("%s %s %s %s\n" % (tech, pm, rating, ",".join(
                "r%dc%d-%d" % (c // 9 + 1, c % 9 + 1, v) for c, v in gone)))
    n = min(len(items), len(firsts))
    print("steps of %s equal to serate's own: %d of %d" % (tech, n - bad, n))
    for k, v in sorted(kinds.items()):
        print("  %s: %d" % (k, v))


if __name__ == "__main__":
    main()
