#!/usr/bin/env python3
"""Rating speed per ER band, one thread: puzzles per CPU second of `rate -j 1`.

    scripts/rate_bands.py FILE... [--bin target/release/sudoku-bulk] [--min-seconds 2]

Rates every puzzle of the files once to learn its ER, groups them by band
(ER < 5, 5-7, 7-9, 9.0-9.4, 9.5+ nested chains, unrated), then for each
band rates a file holding the band's puzzles (repeated until a run takes
about --min-seconds) with `rate -j 1` and reports the user + system CPU
time of that process (getrusage of the child), as a Markdown table.
Our ER equals serate's on every puzzle scripts/rate_compare.py compared, so
the bands are serate's too. This is a benchmark, not a test: run the bands
side by side in one run, and compare ratios across runs, not raw rates.
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BANDS = [
    ("ER < 5.0", lambda e: e < 5.0),
    ("ER 5.0-6.9", lambda e: 5.0 <= e < 7.0),
    ("ER 7.0-8.9", lambda e: 7.0 <= e < 9.0),
    ("ER 9.0-9.4 (dynamic chains)", lambda e: 9.0 <= e < 9.5),
    ("ER 9.5+ (nested chains)", lambda e: e >= 9.5),
]


def puzzles(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            # One-line puzzles, or lines whose first 81-character field is
            # the puzzle (the Sudoku Exchange bank: id, puzzle, rating).
            out += [w for w in line.split() if len(w) == 81][:1]
    return out


def cpu_of(cmd, stdin_path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin_path) as f:
        subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/sudoku-bulk"))
    ap.add_argument("--min-seconds", type=float, default=2.0)
    a = ap.parse_args()
    all_p = []
    for f in a.files:
        all_p += puzzles(f)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "all.txt")
        with open(src, "w") as f:
            f.write("\n".join(all_p) + "\n")
        out = subprocess.run([a.bin, "rate", "-j", "1", src], capture_output=True, text=True, check=True).stdout
        er = {}
        for line in out.splitlines():
            p, r = line.split()
            er[p] = r.split("/")[0]
        print("| band | puzzles | rated per CPU second, one thread |")
        print("|---|---|---|")
        rows = [(n, [p for p in all_p if er[p] != "unrated" and t(float(er[p]))]) for n, t in BANDS]
        rows.append(("unrated", [p for p in all_p if er[p] == "unrated"]))
        for name, band in rows:
            if not band:
                print("| %s | 0 | |" % name)
                continue
            path = os.path.join(tmp, "band.txt")
            reps, secs = 1, 0.0
            while True:
                with open(path, "w") as f:
                    f.write(("\n".join(band) + "\n") * reps)
                secs = cpu_of([a.bin, "rate", "-j", "1", "-o", "/dev/null"], path)
                if secs >= a.min_seconds or reps >= 1 << 12:
                    break
                reps *= max(2, min(16, int(a.min_seconds / max(secs, 1e-3)) + 1))
            print("| %s | %d | %.0f/s (%d rated in %.2f s) |" % (
                name, len(band), len(band) * reps / secs, len(band) * reps, secs))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
