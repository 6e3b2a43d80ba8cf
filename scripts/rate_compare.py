#!/usr/bin/env python3
"""Accuracy and speed of our ER/EP/ED rater against serate, side by side.

Rates the same puzzles with serate (Sukaku Explainer v1.18.1, built outside
the repo; see docs/rating.md) and with ours, then reports per set how many
get the same ER/EP/ED, how many we leave unrated, every disagreement class
with an example, and the puzzles/s of both (one core each).

    SERATE=/path/to/serate-wrapper scripts/rate_compare.py [--sets gen,17,top,hard,bank]
        [--out DIR] [--cached-only] [--check-steps ID:N,...]

Sets: gen (2,000 from `generate --seed 1`), 17 (first 1,000 of
data/17_clue_sub.txt), top (first 200 of magictour top1465), hard (first 10
of data/forum_hardest_11plus_sub.txt; serate takes minutes for each, so run
it once with `nice` in the background and keep its cache; --cached-only
compares the puzzles it has rated so far), hard30 (puzzles 11-40 of the
same list, cached apart), h1106 (first 40 of data/forum_hardest_1106.txt),
toprest (top1465's puzzles 201-1465),
topu (the 3 puzzles of `top` that need Dynamic Forcing Chains (+) or nested
chains), bank (the 301
Sudoku Exchange puzzles of data/sudoku_exchange_diabolical_sub.txt, whose
published rating is a fourth column: the script also counts how many agree
with serate's ER and with ours).

SERATE is a command that runs `java ... diuf.sudoku.test.serate` with the
arguments given. RATER (default: `target/release/sudoku-bulk rate`) is our
rater reading one-line puzzles on stdin and writing `PUZZLE ER/EP/ED`.
serate's results are cached in DIR (default /tmp/rate_compare) per set, as
serate needs minutes to hours for the harder sets.

--check-steps UniqueLoop:24,BivalueUniversalGrave:33 also checks single steps:
for every step of technique ID on our paths (`rate --steps`), the grid before
it goes to serate as 729-character pencilmarks with only its N-th technique
on (`serate --techs=` lists them), and serate's first step there must have our
rating and remove exactly our candidates.
"""
import argparse
import collections
import json
import os
import resource
import tempfile
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def puzzles_of(path, n):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if len(line) >= 81 and not line.startswith("#"):
                out.append(line[:81])
                if len(out) == n:
                    break
    return out


def bank_of(path):
    """The Sudoku Exchange bank's lines (`hash puzzle rating`, 0 blank) as
    ({puzzle with . blank: published rating}, puzzles in file order)."""
    published, puzzles = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            _, p, r = line.split()
            p = p.replace("0", ".")
            published[p] = r
            puzzles.append(p)
    return published, puzzles


def make_sets(workdir, which):
    """{name: (cache key, puzzles, published ER by puzzle or None)}."""
    sets = {}
    if "gen" in which:
        path = os.path.join(workdir, "gen2000.txt")
        if not os.path.exists(path):
            exe = os.path.join(ROOT, "target/release/sudoku-bulk")
            with open(path, "w") as f:
                subprocess.run([exe, "generate", "--count", "2000", "--seed", "1"], stdout=f, check=True)
        sets["generate --count 2000 --seed 1"] = ("generate", puzzles_of(path, 2000), None)
    if "17" in which:
        sets["17-clue (first 1000 of data/17_clue_sub.txt)"] = ("17clue", puzzles_of(
            os.path.join(ROOT, "data/17_clue_sub.txt"), 1000), None)
    if "top" in which:
        sets["magictour top1465 (first 200)"] = ("magictour", puzzles_of(
            os.path.join(ROOT, "data/magictour_top1465.txt"), 200), None)
    if "toprest" in which:
        # The rest of the list (serate about 2 s a puzzle, so cached apart).
        sets["magictour top1465 (puzzles 201-1465)"] = ("magictour_rest", puzzles_of(
            os.path.join(ROOT, "data/magictour_top1465.txt"), 1465)[200:], None)
    if "hard" in which:
        sets["hardest 11+ (first 10 of data/forum_hardest_11plus_sub.txt)"] = ("hardest11", puzzles_of(
            os.path.join(ROOT, "data/forum_hardest_11plus_sub.txt"), 10), None)
    if "hard30" in which:
        # The next 30 of the 11+ list (the first 10 are `hard`'s): serate
        # needs minutes for each, so its cache is kept apart from `hard`'s.
        sets["hardest 11+ (puzzles 11-40 of data/forum_hardest_11plus_sub.txt)"] = ("hardest11_30", puzzles_of(
            os.path.join(ROOT, "data/forum_hardest_11plus_sub.txt"), 40)[10:], None)
    if "h1106" in which:
        sets["forum hardest 1106 (first 40 of data/forum_hardest_1106.txt)"] = ("hardest1106", puzzles_of(
            os.path.join(ROOT, "data/forum_hardest_1106.txt"), 40), None)
    if "topu" in which:
        # The three puzzles of `top` whose paths need Dynamic Forcing
        # Chains (+) or nested chains (serate 9.5, 9.6, 9.8).
        sets["magictour top1465, the 3 of the first 200 that need DFC(+) or nested chains"] = ("magictour_unrated", [
            "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
            "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........",
            "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
        ], None)
    if "bank" in which:
        published, puzzles = bank_of(os.path.join(ROOT, "data/sudoku_exchange_diabolical_sub.txt"))
        sets["Sudoku Exchange bank, diabolical sample (data/sudoku_exchange_diabolical_sub.txt)"] = (
            "bank", puzzles, published)
    return sets


def time_serate(serate, puzzles, cache):
    """serate's seconds per puzzle on the first 100 puzzles (its JVM start included)."""
    sample = puzzles[:100]
    inp = cache + ".sample"
    with open(inp, "w") as f:
        f.write("\n".join(sample) + "\n")
    t = time.time()
    subprocess.run(shlex.split(serate) + ["--format=%g %r/%p/%d", "--input=" + inp, "--output=/dev/null"],
                   check=True)
    return (time.time() - t) / len(sample)


def run_serate(serate, puzzles, cache):
    if os.path.exists(cache):
        with open(cache) as f:
            lines = [l.split() for l in f if l.strip()]
        if len(lines) == len(puzzles):
            if not os.path.exists(cache + ".secs"):
                with open(cache + ".secs", "w") as f:
                    f.write(str(time_serate(serate, puzzles, cache) * len(puzzles)))
            secs = float(open(cache + ".secs").read())
            return {p: r for p, r in lines}, secs
    inp = cache + ".in"
    with open(inp, "w") as f:
        f.write("\n".join(puzzles) + "\n")
    t = time.time()
    subprocess.run(shlex.split(serate) + ["--format=%g %r/%p/%d", "--input=" + inp, "--output=" + cache],
                   check=True)
    secs = time.time() - t
    with open(cache + ".secs", "w") as f:
        f.write(str(secs))
    with open(cache) as f:
        return {p: r for p, r in (l.split() for l in f if l.strip())}, secs


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_ours(rater, puzzles):
    """Our ratings and CPU seconds (user + system, one thread)."""
    t = child_cpu()
    res = subprocess.run(shlex.split(rater), input="\n".join(puzzles) + "\n", capture_output=True,
                         text=True, check=True)
    secs = child_cpu() - t
    out = {}
    for line in res.stdout.splitlines():
        p, r = line.split(None, 1)
        out[p] = r.strip()
    return out, secs


def peers(a, b):
    return a != b and (a // 9 == b // 9 or a % 9 == b % 9 or (a // 27 == b // 27 and a % 9 // 3 == b % 9 // 3))


def candidates(values):
    return [set() if values[i] else
            set(range(1, 10)) - {values[j] for j in range(81) if values[j] and peers(i, j)}
            for i in range(81)]


def cell_index(name):
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def check_steps(serate, rater, puzzles, tech, pos):
    """(steps checked, [mismatches]) for technique `tech` (serate's `pos`-th)."""
    with tempfile.TemporaryDirectory() as d:
        inp, steps = os.path.join(d, "in.txt"), os.path.join(d, "steps.jsonl")
        with open(inp, "w") as f:
            f.write("\n".join(puzzles) + "\n")
        # RATER's own options (e.g. --techniques) apply to the paths checked.
        subprocess.run(shlex.split(rater) + [inp, "--steps", steps], capture_output=True, check=True)
        techs = "".join("1" if i == pos - 1 else "0" for i in range(46))
        checked, bad = 0, []
        for line in open(steps):
            o = json.loads(line)
            if not any(s["id"] == tech for s in o["steps"]):
                continue
            values = [int(ch) if ch.isdigit() else 0 for ch in o["puzzle"][:81]]
            cand = candidates(values)
            for s in o["steps"]:
                if s["id"] == tech:
                    pm = "".join(
                        "".join(str(v) if (v == values[i] if values[i] else v in cand[i]) else "."
                                for v in range(1, 10)) for i in range(81))
                    r = subprocess.run(shlex.split(serate) + ["--techs=" + techs, "--format=",
                                                              "--after=%s|%r|%m", pm],
                                       capture_output=True, text=True)
                    got = [l for l in r.stdout.splitlines() if "|" in l]
                    gone = []
                    if got:
                        _, rating, after = got[0].split("|")
                        gone = sorted((i // 9, i % 9 + 1) for i in range(729)
                                      if pm[i] != "." and after[i] == ".")
                    ours = {(cell_index(e["cell"]), e["digit"]) for e in s["eliminated"]}
                    if s["placed"]:
                        # serate's pencilmarks after a placement (a forcing chain's) lack
                        # the digit in the cell's peers too.
                        c, v = cell_index(s["placed"]["cell"]), s["placed"]["digit"]
                        ours |= {(j, v) for j in range(81) if peers(c, j) and v in cand[j]}
                    ours = sorted(ours)
                    checked += 1
                    if not got or rating != s["rating"] or gone != ours:
                        bad.append((o["puzzle"], s, got[0] if got else "no step"))
                    break
                for e in s["eliminated"]:
                    cand[cell_index(e["cell"])].discard(e["digit"])
                if s["placed"]:
                    values[cell_index(s["placed"]["cell"])] = s["placed"]["digit"]
                    fresh = candidates(values)
                    cand = [cand[i] & fresh[i] for i in range(81)]
    return checked, bad


def er(r):
    try:
        return float(r.split("/")[0])
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="gen,17,top,hard,bank")
    ap.add_argument("--out", default="/tmp/rate_compare")
    ap.add_argument("--cached-only", action="store_true",
                    help="compare only the puzzles serate's cache holds; never run serate")
    ap.add_argument("--check-steps", default="", help="ID:N,...: check our steps of technique ID "
                    "against serate's N-th technique alone (see above)")
    a = ap.parse_args()
    serate = os.environ.get("SERATE")
    if not serate:
        sys.exit("set SERATE to a command running serate (see docs/rating.md)")
    rater = os.environ.get("RATER", os.path.join(ROOT, "target/release/sudoku-bulk") + " rate --threads 1")
    os.makedirs(a.out, exist_ok=True)
    for name, (key, puzzles, published) in make_sets(a.out, a.sets.split(",")).items():
        cache = os.path.join(a.out, key + ".serate")
        if a.cached_only:
            # The puzzles serate has rated so far (its cache is written a
            # line per puzzle as it goes): the slow sets, while it runs.
            theirs = {}
            if os.path.exists(cache):
                with open(cache) as f:
                    theirs = dict(l.split() for l in f if len(l.split()) == 2)
            total = len(puzzles)
            puzzles = [p for p in puzzles if p in theirs]
            print("(serate's cache holds %d of the set's %d puzzles: those are compared)" % (
                len(puzzles), total))
            tsecs = None
            if os.path.exists(cache + ".secs") and len(puzzles) == total:
                tsecs = float(open(cache + ".secs").read())
            if not puzzles:
                continue
        else:
            theirs, tsecs = run_serate(serate, puzzles, cache)
        ours, osecs = run_ours(rater, puzzles)
        same = unrated = below6 = below6_same = 0
        classes = collections.defaultdict(list)
        unrated_er = collections.Counter()
        for p in puzzles:
            t, o = theirs.get(p, "?"), ours.get(p, "?")
            te = er(t)
            if te is not None and te < 6.0:
                below6 += 1
            if o == t:
                same += 1
                if te is not None and te < 6.0:
                    below6_same += 1
            elif o.startswith("unrated"):
                unrated += 1
                unrated_er[t.split("/")[0]] += 1
            else:
                cls = "ours %s vs serate %s" % (
                    "lower" if (er(o) or 0) < (te or 0) else "higher" if (er(o) or 0) > (te or 0) else "same ER, other EP/ED",
                    "ER" if (er(o) or 0) != (te or 0) else "")
                classes[cls].append((p, o, t))
        n = len(puzzles)
        print("## %s: %d puzzles" % (name, n))
        print("same ER/EP/ED: %d (%.1f%%); unrated: %d; different numbers: %d" % (
            same, 100.0 * same / n, unrated, n - same - unrated))
        print("of the rated: %d/%d equal" % (same, n - unrated))
        print("serate ER < 6.0: %d, of which equal %d" % (below6, below6_same))
        print("unrated by serate ER: %s" % ", ".join("%s:%d" % kv for kv in sorted(unrated_er.items())))
        if tsecs is None:
            print("time: ours %.3f CPU s (%.0f/s; %.3f s a puzzle)" % (
                osecs, n / max(osecs, 1e-9), osecs / n))
        else:
            print("time: serate %.1f s (%.1f/s), ours %.3f CPU s (%.0f/s), ratio %.0fx" % (
                tsecs, n / tsecs, osecs, n / max(osecs, 1e-9), tsecs / max(osecs, 1e-9)))
        for cls, ex in classes.items():
            p, o, t = ex[0]
            print("  disagreement '%s': %d, e.g. %s ours %s serate %s" % (cls, len(ex), p, o, t))
        if published:
            # The published rating is an ER (the bank's generator graded with
            # an older Sukaku Explainer).
            with_serate = sum(1 for p in puzzles if theirs.get(p, "?").split("/")[0] == published[p])
            with_ours = sum(1 for p in puzzles if ours.get(p, "?").split("/")[0] == published[p])
            ours_rated = sum(1 for p in puzzles if not ours.get(p, "?").startswith("unrated"))
            print("published rating = serate's ER: %d of %d; = our ER: %d of %d (%d of our %d rated)" % (
                with_serate, n, with_ours, n, with_ours, ours_rated))
            diff = collections.Counter((published[p], theirs.get(p, "?").split("/")[0])
                                       for p in puzzles if theirs.get(p, "?").split("/")[0] != published[p])
            if diff:
                print("  published vs serate: %s" % ", ".join(
                    "%s vs %s x%d" % (b, t, k) for (b, t), k in diff.most_common()))
        for spec in filter(None, a.check_steps.split(",")):
            tech, pos = spec.split(":")
            checked, bad = check_steps(serate, rater, puzzles, tech, int(pos))
            print("steps of %s equal to serate's own: %d of %d" % (tech, checked - len(bad), checked))
            for p, s, got in bad[:3]:
                print("  e.g. %s: ours %s %s, serate %s" % (p, s["rating"], s["eliminated"], got[:100]))
        print()


if __name__ == "__main__":
    main()
