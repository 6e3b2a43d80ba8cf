#!/usr/bin/env python3
"""Benchmark of the Python package against the CLI on the same puzzles.

Place in the project: a measurement script, not a test (STYLE: speed targets
live in benchmarks). It solves the same N shuffled 17-clue puzzles through

  - `sudoku-bulk solve -j T FILE -o OUT` (the CLI end to end, plain lines,
                                      file to file: the rate the goals compare with)
  - `sudoku-bulk bench -j T`        (the solver alone, parse excluded)
  - `sudoku_bulk.solve(array)`       (NumPy (N, 81) uint8, threads=T)
  - `sudoku_bulk.solve(list_of_str)` (threads=T)

in alternating rounds, and with --spark also

  - `sudoku-bulk solve -j 2 FILE -o OUT` (end to end, text file to file)
  - Spark local[2]: Parquet -> sudoku_bulk.spark.solve -> Parquet

and prints a Markdown table of medians and ratios. Every answer of the
package is checked by a NumPy-only checker, so a fast wrong run cannot pass.

Run from the repository root after `cargo build --release` and
`scripts/test.sh` (which makes target/pyenv with the package installed):

    target/pyenv/bin/python scripts/bench_python.py -n 1000000 --threads 1 --spark
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def puzzles_file(n: int) -> pathlib.Path:
    """N puzzles from data/17_clue_sub.txt by scripts/shuffle.py (cached)."""
    out = ROOT / "target" / "bench" / f"17clue_shuffled_{n}.txt"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w") as f:
            subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "shuffle.py"), "-n", str(n), "--seed", "1",
                 str(ROOT / "data" / "17_clue_sub.txt")],
                check=True, stdout=f,
            )
    return out


def to_cells(lines: list) -> np.ndarray:
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(len(lines), 81)
    cells = raw.astype(np.int16) - ord("0")
    cells[raw == ord(".")] = 0
    return cells.astype(np.uint8)


def all_valid(puzzles: np.ndarray, answers: np.ndarray) -> bool:
    """Independent check: full valid grids keeping the givens (NumPy only)."""
    n = len(puzzles)
    a = answers.reshape(n, 9, 9).astype(np.int64)
    p = puzzles.reshape(n, 9, 9).astype(np.int64)
    want = np.arange(1, 10)
    boxes = a.reshape(n, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(n, 9, 9)
    ok = ((p == 0) | (p == a)).all()
    for units in (a, a.transpose(0, 2, 1), boxes):
        ok &= bool((np.sort(units, axis=2) == want).all())
    return bool(ok)


def cli_bench(binary: str, path: pathlib.Path, threads: int) -> float:
    out = subprocess.run(
        [binary, "bench", "--json", "-j", str(threads), "--seconds", "1", str(path)],
        check=True, capture_output=True, text=True,
    ).stdout
    rec = json.loads(out)[0]
    assert rec["verified"] == rec["puzzles"], rec
    return rec["puzzles_per_sec"]


def cli_solve(binary: str, path: pathlib.Path, threads: int) -> tuple:
    """Puzzles/s of the whole `solve` process on plain lines, file to file
    (process start, reading, parsing, solving, writing)."""
    out = path.with_suffix(".out.txt")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    secs, _ = timed(lambda: subprocess.run(
        [binary, "solve", "-j", str(threads), str(path), "-o", str(out)],
        check=True, capture_output=True))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(out, "rb") as f:
        answers = f.read().split()
    out.unlink()
    assert len(answers) == len(path.read_bytes().split()), "one answer per puzzle"
    return len(answers) / secs, len(answers) / cpu


def timed(f):
    start = time.perf_counter()
    result = f()
    return time.perf_counter() - start, result


def cpu_timed(f):
    """Wall and CPU seconds of `f` in this process (all its threads: the
    package's workers too)."""
    cpu = time.process_time()
    secs, result = timed(f)
    return secs, time.process_time() - cpu, result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1_000_000, help="puzzles (default 1M)")
    ap.add_argument("--threads", type=int, default=1, help="threads for CLI bench and package")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--spark", action="store_true", help="also Spark local[2] vs `solve -j 2`")
    ap.add_argument("--spark-only", action="store_true", help="only the Spark table")
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "sudoku-bulk"))
    ap.add_argument(
        "--baseline", metavar="DIR",
        help="also time another build of the package, copied as DIR/sudoku_bulk_base "
        "(the installed sudoku_bulk folder of that build, renamed), in the same rounds")
    args = ap.parse_args()

    import pyarrow as pa

    import sudoku_bulk

    packages = {"": sudoku_bulk}
    if args.baseline:
        sys.path.insert(0, args.baseline)
        import sudoku_bulk_base

        packages["base "] = sudoku_bulk_base

    path = puzzles_file(args.n)
    lines = path.read_text().split()
    assert len(lines) == args.n, (len(lines), args.n)
    if args.spark_only:
        spark_vs_cli(args, path, lines)
        return 0
    cells = to_cells(lines)
    column = pa.array(lines, type=pa.string())
    t = args.threads
    rates = {"solve": [], "bench": []}
    # Puzzles per CPU second (user + system, all threads): steadier than
    # wall time on a shared machine, where neighbours take the cores.
    cpu_rates = {"solve": []}
    for r in range(args.rounds):
        wall, cpu = cli_solve(args.binary, path, t)
        rates["solve"].append(wall)
        cpu_rates["solve"].append(cpu)
        rates["bench"].append(cli_bench(args.binary, path, t))
        for tag, sb in packages.items():
            for kind, data in (("numpy", cells), ("str", lines), ("arrow", column)):
                secs, cpu, out = cpu_timed(lambda: sb.solve(data, threads=t))
                if kind == "numpy":
                    assert all_valid(cells, out)
                elif kind == "str":
                    assert None not in out
                else:
                    assert out.null_count == 0
                rates.setdefault(tag + kind, []).append(args.n / secs)
                cpu_rates.setdefault(tag + kind, []).append(args.n / cpu)
                del out
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:,.0f}/s" for k, v in rates.items()),
              file=sys.stderr)
    med = {k: statistics.median(v) for k, v in rates.items()}
    # Ratios of the same round, then their median: the machine's load
    # changes between rounds, and a ratio of two medians from different
    # rounds mixes those loads.
    ratio = {
        k: statistics.median(x / c for x, c in zip(v, rates["solve"])) for k, v in rates.items()
    }
    cpu_ratio = {
        k: statistics.median(x / c for x, c in zip(v, cpu_rates["solve"]))
        for k, v in cpu_rates.items()
    }
    print(f"\n{args.n:,} puzzles (17-clue, shuffled), {t} thread(s), {args.rounds} alternating "
          "rounds: median rate, median of the rounds' ratios\n")
    print("| path | puzzles/s | ratio to CLI `solve` | goal | puzzles per CPU s | CPU ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    names = {
        "solve": f"`sudoku-bulk solve -j {t}` plain lines, file to file",
        "bench": f"`sudoku-bulk bench -j {t}` (solver only)",
        "numpy": "`solve(ndarray (N,81) u8)`",
        "str": "`solve(list[str])`",
        "arrow": "`solve(pa.array(..., pa.string()))`",
    }
    goals = {"numpy": "1.00", "str": "0.95"}
    for k in rates:
        tag, _, kind = k.rpartition(" ")
        name = names[kind] + (f" ({tag} build)" if tag else "")
        goal = goals.get(kind, "") if not tag else ""
        cpu = (f"{statistics.median(cpu_rates[k]):,.0f} | {cpu_ratio[k]:.2f}"
               if k in cpu_rates else " | ")
        print(f"| {name} | {med[k]:,.0f} | {ratio[k]:.2f} | {goal} | {cpu} |")

    if args.spark:
        spark_vs_cli(args, path, lines)
    return 0


def spark_vs_cli(args, path: pathlib.Path, lines: list) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark.sql import SparkSession

    import sudoku_bulk.spark

    os.environ["PYSPARK_PYTHON"] = sys.executable
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="sb-bench-", dir=ROOT / "target" / "bench"))
    src = tmp / "in.parquet"
    pq.write_table(pa.table({"puzzle": lines}), src, row_group_size=100_000)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("sudoku-bulk-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "4g")
        # Bigger Arrow batches: fewer round trips between JVM and Python.
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "100000")
        # Several tasks from one file, so both cores work.
        .config("spark.sql.files.maxPartitionBytes", str(4 << 20))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    glue = sudoku_bulk.spark
    # (name, goal, job): each round runs every job once, in this order.
    jobs = [
        ("`sudoku-bulk solve -j 2` text file -> file", "", lambda df, r: subprocess.run(
            [args.binary, "solve", "-j", "2", str(path), "-o", str(tmp / "cli.txt")],
            check=True, capture_output=True)),
        ("Spark local[2] Parquet -> `sudoku_bulk.spark.solve` -> Parquet", "0.60",
         lambda df, r: glue.solve(df).write.parquet(str(tmp / f"spark{r}.parquet"))),
        # The same job without the Parquet write: what the solve step costs
        # inside Spark (read, Arrow to Python and back, solve).
        ("Spark local[2] Parquet -> `sudoku_bulk.spark.solve` -> noop sink", "",
         lambda df, r: glue.solve(df).write.format("noop").mode("overwrite").save()),
        # And Spark's own floor: the Parquet copy with no Python step.
        ("Spark local[2] Parquet -> Parquet copy, no solving (Spark's floor)", "",
         lambda df, r: df.write.parquet(str(tmp / f"copy{r}.parquet"))),
    ]
    wall = {name: [] for name, _, _ in jobs}
    cpu = {name: [] for name, _, _ in jobs}
    try:
        # One untimed run: the JVM compiles its hot paths and starts the Python
        # workers once per session (the first run measured 2-3x slower).
        glue.solve(spark.read.parquet(str(src))).write.format("noop").mode("overwrite").save()
        for r in range(args.rounds):
            df = spark.read.parquet(str(src))
            for name, _, job in jobs:
                before = tree_cpu()
                secs, _ = timed(lambda: job(df, r))
                wall[name].append(secs)
                cpu[name].append(tree_cpu() - before)
            print(f"spark round {r + 1}: " + ", ".join(
                f"{args.n / wall[n][-1]:,.0f}/s ({args.n / cpu[n][-1]:,.0f}/CPU s)" for n in wall),
                file=sys.stderr)
        got = pq.read_table(tmp / f"spark{args.rounds - 1}.parquet")
        assert got.num_rows == args.n
        assert all_valid(to_cells(got.column("puzzle").to_pylist()),
                         to_cells(got.column("solution").to_pylist()))
    finally:
        spark.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    cli = jobs[0][0]

    def ratio(times, name):
        return statistics.median(c / x for c, x in zip(times[cli], times[name]))

    print(f"\nEnd to end, {args.n:,} puzzles, 2 cores, {args.rounds} alternating rounds: "
          "median rate, median of the rounds' ratios; CPU: user + system seconds of this "
          "process and every process under it (the JVM, its Python workers, the CLI)\n")
    print("| path | puzzles/s | ratio | goal | puzzles per CPU s | CPU ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, goal, _ in jobs:
        print(f"| {name} | {args.n / statistics.median(wall[name]):,.0f} | "
              f"{ratio(wall, name):.2f} | {goal} | "
              f"{args.n / statistics.median(cpu[name]):,.0f} | {ratio(cpu, name):.2f} |")


def tree_cpu() -> float:
    """User + system CPU seconds of this process and all its descendants
    (with the children they have reaped), from /proc (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, times = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        pid = int(entry)
        parent[pid] = int(fields[1])
        times[pid] = sum(int(x) for x in fields[11:15]) / tick
    me = os.getpid()

    def mine(pid):
        while pid > 1:
            if pid == me:
                return True
            pid = parent.get(pid, 0)
        return False

    return sum(t for pid, t in times.items() if mine(pid))

if __name__ == "__main__":
    sys.exit(main())
