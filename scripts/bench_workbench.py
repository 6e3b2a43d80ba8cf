#!/usr/bin/env python3
"""Side-by-side time of the Python workbench against the commands:
`sudoku_bulk.split` / `augment` / `stats` on a list of str against
`sudoku-bulk split` / `augment` / `stats --json` on the same file of
one-line 9x9 puzzles, the same thread count, alternating rounds, best
round of each. The command's time includes starting its process, reading
the file and writing its parts; the Python time is the call alone (the
rows read before). Prints each best time and the ratio Python / command.

    target/pyenv/bin/python scripts/bench_workbench.py FILE [-j 2] [-n 4] [--rounds 3]

Without FILE's existing, it is made first: 20 disguises of each puzzle of
data/17_clue_sub.txt (98,320 puzzles) by `sudoku-bulk augment`.

A benchmark, not a test: the ratios in docs/guide.md ("The dataset
workbench") come from it.
"""

import argparse
import pathlib
import shutil
import subprocess
import tempfile
import time

import sudoku_bulk as sb

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("-j", "--threads", type=int, default=2)
    ap.add_argument("-n", "--count", type=int, default=4, help="augment's disguises a record")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "sudoku-bulk"))
    a = ap.parse_args()
    path = pathlib.Path(a.file)
    j = str(a.threads)
    if not path.exists():
        subprocess.run([a.bin, "augment", str(ROOT / "data" / "17_clue_sub.txt"), "-n", "20",
                        "--seed", "1", "-o", str(path), "-q"], check=True)
    rows = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    tmp = pathlib.Path(tempfile.mkdtemp())

    def cli(*args):
        return lambda: subprocess.run([a.bin, *args, "-q"], check=True, capture_output=True)

    def clean_split():
        shutil.rmtree(tmp / "parts", ignore_errors=True)
        subprocess.run([a.bin, "split", str(path), "--test", "0.1", "--output-dir",
                        str(tmp / "parts"), "-j", j, "-q"], check=True)

    cases = {
        "split": (clean_split, lambda: sb.split(rows, 0.1, threads=a.threads)),
        "augment": (
            cli("augment", str(path), "-n", str(a.count), "-o", str(tmp / "aug.txt"), "-j", j),
            lambda: sb.augment(rows, a.count, threads=a.threads),
        ),
        "stats": (cli("stats", str(path), "--json", "-j", j),
                  lambda: sb.stats(rows, threads=a.threads)),
    }
    print(f"{len(rows)} puzzles of {path}, {a.threads} threads, best of {a.rounds} rounds")
    for name, (command, call) in cases.items():
        best = [float("inf"), float("inf")]
        for _ in range(a.rounds):
            for k, f in enumerate((command, call)):
                t = time.perf_counter()
                f()
                best[k] = min(best[k], time.perf_counter() - t)
        print(f"{name:8} command {best[0]:.3f}s  python {best[1]:.3f}s  "
              f"python/command {best[1] / best[0]:.2f}")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
