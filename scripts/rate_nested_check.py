#!/usr/bin/env python3
"""Our Dynamic Forcing Chains (+) and Nested Forcing Chains steps, each checked
against serate's own first step on the same grid.

serate needs minutes to hours for a whole hardest-list puzzle (one of forum
hardest 1106 ran 1,200 s for its first 32 steps), so whole-path comparisons
(scripts/rate_compare.py) cover few of them. This checks steps instead: for
every puzzle of FILE, `rate --steps` gives our path; the grid before each of
its steps of these two techniques goes to serate as 729-character
pencilmarks with only that technique on (`--techs=`, DFC+ its 45th, nested
its 46th), and serate is stopped as soon as it prints its first step, which
must have our rating and remove exactly our candidates. Results are cached
(--cache, one JSON object per checked step), so a run can be stopped and
resumed.

    SERATE=/path/to/serate-wrapper scripts/rate_nested_check.py FILE \\
        [--every K] [--limit N] [--cache FILE] [--timeout SECONDS]

--every K checks every K-th such step of each path (the first always);
--cached-only reports the cache's steps without starting serate.
--lines OUT writes each equal step that places nothing as a fixture line
`ID PENCILMARKS RATING REMOVALS` (the format of
tests/data/rate_serate_chain_steps.txt), from the cache too.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rate_compare as rc  # noqa: E402

POS = {"DynamicForcingChainPlus": 45, "NestedForcingChain": 46}


def first_step(serate, pm, pos, timeout):
    """serate's first step on pencilmarks `pm` with technique `pos` alone:
    (rating, removed (cell, digit) list, seconds), or None."""
    techs = "".join("1" if i == pos - 1 else "0" for i in range(46))
    t = time.time()
    p = subprocess.Popen(shlex.split(serate) + ["--techs=" + techs, "--format=", "--after=%s|%r|%m", pm],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    got = None
    try:
        deadline = t + timeout
        for line in p.stdout:
            if "|" in line:
                got = line.strip()
                break
            if time.time() > deadline:
                break
    finally:
        p.kill()
        p.wait()
    if got is None:
        return None
    _, rating, after = got.rsplit("|", 2)
    gone = sorted((i // 9, i % 9 + 1) for i in range(729) if pm[i] != "." and after[i] == ".")
    return rating, gone, time.time() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--rater", default=os.path.join(rc.ROOT, "target/release/sudoku-bulk") + " rate -j 1")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--limit", type=int, default=10**9)
    ap.add_argument("--cache", default="/tmp/rate_nested_check.jsonl")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--lines", help="write equal non-placing steps here as fixture lines")
    ap.add_argument("--cached-only", action="store_true", help="check only cached steps; never run serate")
    a = ap.parse_args()
    serate = os.environ.get("SERATE")
    if not serate and not a.cached_only:
        sys.exit("SERATE is not set: see the docstring")
    done = {}
    if os.path.exists(a.cache):
        for line in open(a.cache):
            o = json.loads(line)
            done[(o["puzzle"], o["step"])] = o
    with tempfile.TemporaryDirectory() as d:
        steps = os.path.join(d, "steps.jsonl")
        subprocess.run(shlex.split(a.rater) + [a.file, "--steps", steps], capture_output=True, check=True)
        paths = [json.loads(l) for l in open(steps)]
    checked = equal = 0
    out = open(a.cache, "a")
    lines = open(a.lines, "w") if a.lines else None
    for o in paths:
        if not o.get("steps"):
            continue
        values = [int(ch) if ch.isdigit() else 0 for ch in o["puzzle"][:81]]
        cand = rc.candidates(values)
        seen = 0
        for k, s in enumerate(o["steps"]):
            if s["id"] in POS:
                seen += 1
                if (seen - 1) % a.every == 0 and checked < a.limit:
                    key = (o["puzzle"], k)
                    pm = "".join(
                        "".join(str(v) if (v == values[i] if values[i] else v in cand[i]) else "."
                                for v in range(1, 10)) for i in range(81))
                    ours = {(rc.cell_index(e["cell"]), e["digit"]) for e in s["eliminated"]}
                    if s["placed"]:
                        c, v = rc.cell_index(s["placed"]["cell"]), s["placed"]["digit"]
                        ours |= {(j, v) for j in range(81) if rc.peers(c, j) and v in cand[j]}
                    if key in done:
                        r = done[key]
                    elif a.cached_only:
                        continue
                    else:
                        got = first_step(serate, pm, POS[s["id"]], a.timeout)
                        r = {"puzzle": o["puzzle"], "step": k, "id": s["id"], "ours": s["rating"],
                             "serate": got[0] if got else None,
                             "same_removals": bool(got) and got[1] == sorted(ours),
                             "serate_secs": round(got[2], 1) if got else None}
                        out.write(json.dumps(r) + "\n")
                        out.flush()
                    checked += 1
                    ok = r["serate"] == r["ours"] and r["same_removals"]
                    equal += ok
                    if ok and lines and not s["placed"]:
                        lines.write("%s %s %s %s\n" % (s["id"], pm, s["rating"], ",".join(
                            "r%dc%d-%d" % (c // 9 + 1, c % 9 + 1, v) for c, v in sorted(ours))))
                        lines.flush()
                    print(("equal " if ok else "DIFFERENT ") + json.dumps(r), flush=True)
            for e in s["eliminated"]:
                cand[rc.cell_index(e["cell"])].discard(e["digit"])
            if s["placed"]:
                values[rc.cell_index(s["placed"]["cell"])] = s["placed"]["digit"]
                fresh = rc.candidates(values)
                cand = [cand[i] & fresh[i] for i in range(81)]
    print(f"{equal} of {checked} steps equal to serate's")


if __name__ == "__main__":
    main()
