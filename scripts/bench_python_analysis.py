#!/usr/bin/env python3
"""Side-by-side speed of the Python package's analyses against the command:
`sudoku_bulk.canon` / `dedupe` / `rate` (list of str, uint8 array, pyarrow
array) against `sudoku-bulk canon -j 1` / `rate -j 1` on the same file of
one-line 9x9 puzzles, one thread, alternating rounds, best round of each
(the command's time includes starting its process and writing its output
to /dev/null). Prints puzzles/s and the ratio to the command.

    target/pyenv/bin/python scripts/bench_python_analysis.py canon FILE [--rounds 3]
    target/pyenv/bin/python scripts/bench_python_analysis.py rate FILE [--rounds 3]

A benchmark, not a test: the numbers in python/README.md ("Speed") come
from it.
"""

import argparse
import pathlib
import subprocess
import time

import numpy as np
import pyarrow as pa

import sudoku_bulk as sb

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["canon", "rate"])
    ap.add_argument("file")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cli", default=str(ROOT / "target" / "release" / "sudoku-bulk"))
    args = ap.parse_args()
    lines = [
        line.split()[0]
        for line in open(args.file)
        if line.strip() and not line.startswith("#")
    ]
    n = len(lines)
    raw = np.frombuffer("".join(lines).encode(), np.uint8).reshape(n, 81)
    cells = np.where((raw >= ord("1")) & (raw <= ord("9")), raw - ord("0"), 0).astype(np.uint8)
    column = pa.array(lines)
    command = [args.cli, args.what, "-j", "1", args.file, "-o", "/dev/null"]
    runs = {"command": lambda: subprocess.run(command, check=True, capture_output=True)}
    if args.what == "canon":
        runs["canon(list)"] = lambda: sb.canon(lines, threads=1, on_error="ignore")
        runs["canon(array)"] = lambda: sb.canon(cells, threads=1, on_error="ignore")
        runs["canon(pyarrow)"] = lambda: sb.canon(column, threads=1, on_error="ignore")
        runs["dedupe(list)"] = lambda: sb.dedupe(lines, threads=1, on_error="ignore")
    else:
        runs["rate(list)"] = lambda: sb.rate(lines, threads=1, on_error="ignore")
        runs["rate(array)"] = lambda: sb.rate(cells, threads=1, on_error="ignore")
        runs["rate(list, steps)"] = lambda: sb.rate(
            lines, steps=True, threads=1, on_error="ignore"
        )
    best = {}
    for _ in range(args.rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            took = time.perf_counter() - start
            best[name] = min(best.get(name, took), took)
    base = best["command"]
    print(f"{n} puzzles, {args.rounds} rounds, best of each")
    for name, took in best.items():
        print(f"{name:20s} {took:8.3f} s {n / took:10.0f}/s  {base / took:5.2f}x the command")


if __name__ == "__main__":
    main()
