#!/usr/bin/env python3
"""A Spark standalone cluster on 127.0.0.1, started from the installed PySpark, with
the package shipped to its executors as the docs tell users (a packed virtualenv).

Place in the project: test and benchmark machinery, not part of the package. It is
imported by python/tests/test_spark_cluster.py (the test) and run as a script for the
benchmark; spark-submit also runs it as the job (`job` and `serve` modes below).

    packed_env(wheel, dir)   a virtualenv with the wheel, pyarrow and NumPy (the
                             versions of this interpreter), packed by venv-pack
    Cluster(dir)             a master and one worker (spark-class, from pyspark's
                             package folder), stopped on exit even after a failure
    submit_args(...)         the spark-submit command of python/README.md, "Spark":
                             --archives env.tar.gz#env, spark.pyspark.python=./env/bin/python

Benchmark (run from the repository root after scripts/test.sh, which makes
target/pyenv and target/wheels):

    target/pyenv/bin/python scripts/spark_cluster.py bench -n 1000000 --rounds 3

It solves the same N puzzles by `sudoku-bulk solve -j 2` (plain lines, file to file)
and on the cluster (a worker with 2 cores): Parquet -> `spark.solve` -> Parquet, and
Spark's own Parquet -> Parquet copy with nothing solved, in alternating rounds, and
prints the median ratios of wall time and of CPU time (every process under this one:
master, worker, executor, its Python workers, the driver, the CLI). Every answer of
the last round is checked independently.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]


def spark_home() -> pathlib.Path:
    """The installed PySpark's folder: it ships bin/spark-class, jars/ and
    python/lib/pyspark.zip (what the executors' Python imports pyspark from)."""
    import pyspark

    return pathlib.Path(pyspark.__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spark_env(work: pathlib.Path) -> dict:
    """The environment of every Spark process here: no PYSPARK_PYTHON from the
    caller (the job's --conf says which Python), services bound to 127.0.0.1
    (SPARK_LOCAL_IP also binds the web UIs there), an empty configuration folder."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "SPARK_HOME", "PYTHONPATH")}
    conf = work / "conf"
    conf.mkdir(parents=True, exist_ok=True)
    env.update(SPARK_HOME=str(spark_home()), SPARK_LOCAL_IP="127.0.0.1",
               SPARK_CONF_DIR=str(conf), SPARK_LOCAL_DIRS=str(work / "local"))
    return env


def packed_env(wheel: pathlib.Path, out_dir: pathlib.Path) -> pathlib.Path:
    """README "Spark", a cluster with a packed virtualenv: a venv holding the
    package and what the executors import (pyarrow, NumPy; pyspark itself comes
    from the cluster's Spark), packed with venv-pack. Returns the archive."""
    import numpy
    import pyarrow

    env = out_dir / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    # This interpreter's pip installs into the new venv (no pip inside the
    # archive); the same versions as here, so pip's cache has them.
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install",
         "--quiet", "--disable-pip-version-check", str(wheel),
         f"pyarrow=={pyarrow.__version__}", f"numpy=={numpy.__version__}"],
        check=True,
    )
    archive = out_dir / "env.tar.gz"
    # Level 1: a quarter of the default's packing time for a 10% bigger file.
    subprocess.run(
        [sys.executable, "-m", "venv_pack", "-p", str(env), "-o", str(archive), "-q",
         "--compress-level", "1"],
        check=True,
    )
    return archive


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGTERM to the process group this module started (the daemon and what it
    launched: the worker's executors and their Python workers), then SIGKILL."""
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


class Cluster:
    """A standalone master and one worker on 127.0.0.1, each in its own process
    group, their logs in `work`. A context manager: stopped on exit, whatever
    happened inside."""

    def __init__(self, work: pathlib.Path, cores: int = 2, memory: str = "2g"):
        self.work = work
        self.cores = cores
        self.memory = memory
        self.procs: list = []
        self.logs: list = []
        self.url = ""
        self.ui = ""

    def _start(self, name: str, args: list) -> None:
        log = open(self.work / f"{name}.log", "wb")
        self.logs.append(self.work / f"{name}.log")
        self.procs.append(subprocess.Popen(
            [str(spark_home() / "bin" / "spark-class"), *args], env=self.env,
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        ))
        log.close()

    def log_tails(self, lines: int = 30) -> str:
        out = []
        for path in self.logs:
            text = path.read_text(errors="replace").splitlines()
            out.append(f"--- {path.name} (last {lines} lines)\n" + "\n".join(text[-lines:]))
        return "\n".join(out)

    def __enter__(self) -> "Cluster":
        self.work.mkdir(parents=True, exist_ok=True)
        self.env = spark_env(self.work)
        # No REST submission server (it would take the fixed port 6066).
        self.env["SPARK_MASTER_OPTS"] = "-Dspark.master.rest.enabled=false"
        port, ui = free_port(), free_port()
        self.url, self.ui = f"spark://127.0.0.1:{port}", f"http://127.0.0.1:{ui}"
        try:
            self._start("master", ["org.apache.spark.deploy.master.Master", "--host",
                                   "127.0.0.1", "--port", str(port), "--webui-port", str(ui)])
            self._start("worker", ["org.apache.spark.deploy.worker.Worker", self.url,
                                   "--host", "127.0.0.1", "--cores", str(self.cores),
                                   "--memory", self.memory, "--webui-port",
                                   str(free_port()), "--work-dir", str(self.work / "worker")])
            self._wait_for_worker(timeout=180)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _wait_for_worker(self, timeout: float) -> None:
        """Until the master's JSON page counts one alive worker."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError(f"a Spark daemon exited ({p.returncode}) while "
                                       f"starting:\n{self.log_tails()}")
            try:
                with urllib.request.urlopen(self.ui + "/json/", timeout=5) as r:
                    if json.load(r).get("aliveworkers", 0) >= 1:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"no worker registered with the master in {timeout:.0f} s:\n"
                           f"{self.log_tails()}")

    def __exit__(self, *exc) -> None:
        # The worker first: it stops its executors; then the master.
        for p in reversed(self.procs):
            _kill_group(p)


def run_submit(cmd: list, env: dict, log: pathlib.Path, timeout: float) -> tuple:
    """Runs spark-submit `cmd` in its own process group, stderr to `log`;
    returns (exit status, stdout). Past `timeout`, or on any error here, the
    whole group (spark-submit and its Python driver) is stopped."""
    with open(log, "wb") as err:
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=err, start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=timeout)
        finally:
            _kill_group(proc)
    return proc.returncode, out.decode(errors="replace")


def submit_args(cluster: Cluster, archive: pathlib.Path, script: list,
                driver_memory: str = "1g", conf: tuple = ()) -> list:
    """spark-submit as python/README.md, "Spark" writes it, against the cluster."""
    args = [str(spark_home() / "bin" / "spark-submit"), "--master", cluster.url,
            "--archives", f"{archive}#env",
            "--conf", "spark.pyspark.python=./env/bin/python",
            "--conf", f"spark.pyspark.driver.python={sys.executable}",
            "--driver-memory", driver_memory, "--executor-memory", "1g",
            "--conf", "spark.ui.enabled=false",
            "--conf", "spark.ui.showConsoleProgress=false"]
    for c in conf:
        args += ["--conf", c]
    return args + [str(a) for a in script]


# ---- what spark-submit runs (the driver) ----

def job(src: str, solved: str, canonical: str) -> None:
    """The test's job: solve and canonicalise a Parquet dataset, each written
    back as Parquet."""
    from pyspark.sql import SparkSession

    import sudoku_bulk.spark

    spark = SparkSession.builder.appName("sudoku-bulk-cluster-test").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    df = spark.read.parquet(src)
    sudoku_bulk.spark.solve(df, column="puzzle", output="solution").write.parquet(solved)
    sudoku_bulk.spark.canon(df, column="puzzle", transform=True).write.parquet(canonical)
    # Where the executors' Python came from: the test checks it is the archive's.
    exe = spark.sparkContext.parallelize([0], 1).map(lambda _: __import__("sys").executable)
    print("EXECUTOR_PYTHON " + exe.collect()[0], flush=True)
    spark.stop()


def serve(src: str, ctl: str) -> None:
    """The benchmark's driver: runs one step per line read from the FIFO `ctl`
    (`solve OUT`, `copy OUT`, `noop`; spark-submit hands a Python driver no
    standard input), answering `done SECONDS` on stdout when it is written, so
    the caller can time the cluster between its own runs of the CLI."""
    from pyspark.sql import SparkSession

    import sudoku_bulk.spark

    spark = SparkSession.builder.appName("sudoku-bulk-cluster-bench").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    glue = sudoku_bulk.spark
    print("ready", flush=True)
    for line in open(ctl):
        cmd, *rest = line.split()
        t = time.perf_counter()
        df = spark.read.parquet(src)
        if cmd == "solve":
            glue.solve(df).write.parquet(rest[0])
        elif cmd == "copy":
            df.write.parquet(rest[0])
        elif cmd == "noop":
            glue.solve(df).write.format("noop").mode("overwrite").save()
        else:
            break
        print(f"done {time.perf_counter() - t:.3f}", flush=True)
    spark.stop()


# ---- the benchmark ----

def tree_cpu() -> float:
    """User + system CPU seconds of this process and all its descendants (with
    the children they reaped), from /proc: the Spark daemons were started by
    this process, so their executors and Python workers count too."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, times = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        parent[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(x) for x in fields[11:15]) / tick
    me = os.getpid()

    def mine(pid):
        while pid > 1:
            if pid == me:
                return True
            pid = parent.get(pid, 0)
        return False

    return sum(t for pid, t in times.items() if mine(pid))


def newest_wheel() -> pathlib.Path:
    wheels = sorted((ROOT / "target" / "wheels").glob("sudoku_bulk-*.whl"),
                    key=lambda p: p.stat().st_mtime)
    if not wheels:
        sys.exit("no wheel in target/wheels: run scripts/test.sh first")
    return wheels[-1]


def bench(args) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_python import all_valid, puzzles_file, to_cells

    path = puzzles_file(args.n)
    lines = path.read_text().split()
    base = ROOT / "target" / "bench"
    base.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="sb-cluster-", dir=base))
    src = tmp / "in.parquet"
    src.mkdir()
    # A dataset of 100k-row files, 100k-row groups: several tasks for the 2 cores.
    step = 100_000
    for k in range(0, len(lines), step):
        pq.write_table(pa.table({"puzzle": lines[k:k + step]}), src / f"part-{k // step:04}.parquet")
    archive = packed_env(args.wheel or newest_wheel(), tmp)
    wall: dict = {}
    cpu: dict = {}

    def record(name, secs, c):
        wall.setdefault(name, []).append(secs)
        cpu.setdefault(name, []).append(c)

    cli_name = "`sudoku-bulk solve -j 2` text file -> file"
    solve_name = "cluster: Parquet -> `spark.solve` -> Parquet"
    copy_name = "cluster: Parquet -> Parquet copy, nothing solved"
    try:
        with Cluster(tmp / "cluster", cores=2, memory="3g") as cluster:
            ctl = tmp / "ctl"
            os.mkfifo(ctl)
            cmd = submit_args(cluster, archive, [__file__, "serve", src, ctl],
                              driver_memory="2g",
                              conf=("spark.sql.execution.arrow.maxRecordsPerBatch=100000",))
            log = open(tmp / "driver.log", "wb")
            driver = subprocess.Popen(cmd, env=spark_env(tmp / "cluster"),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=log, text=True, start_new_session=True)
            control = None

            def reply(word):
                # The driver's stdout also carries its Python's stderr.
                for line in driver.stdout:
                    if line.split()[:1] == [word]:
                        return line.split()
                raise RuntimeError(f"the driver ended (see {tmp / 'driver.log'})")

            try:
                reply("ready")
                control = open(ctl, "w")

                def step_(line):
                    before, t = tree_cpu(), time.perf_counter()
                    control.write(line + "\n")
                    control.flush()
                    reply("done")
                    return time.perf_counter() - t, tree_cpu() - before

                step_("noop")  # untimed: the JVMs warm up, the Python workers start
                for r in range(args.rounds):
                    t, before = time.perf_counter(), tree_cpu()
                    subprocess.run([args.binary, "solve", "-j", "2", str(path), "-o",
                                    str(tmp / "cli.txt")], check=True, capture_output=True)
                    record(cli_name, time.perf_counter() - t, tree_cpu() - before)
                    record(solve_name, *step_(f"solve {tmp / f'solved{r}'}"))
                    record(copy_name, *step_(f"copy {tmp / f'copy{r}'}"))
                    print(f"round {r + 1}: " + ", ".join(
                        f"{args.n / wall[n][-1]:,.0f}/s ({args.n / cpu[n][-1]:,.0f}/CPU s)"
                        for n in wall), file=sys.stderr)
                control.write("quit\n")
                control.close()
                driver.wait(timeout=120)
            finally:
                _kill_group(driver)  # spark-submit and its Python driver
                log.close()
        got = pq.read_table(tmp / f"solved{args.rounds - 1}")
        assert got.num_rows == args.n
        assert all_valid(to_cells(got.column("puzzle").to_pylist()),
                         to_cells(got.column("solution").to_pylist()))
        assert pq.read_table(tmp / f"copy{args.rounds - 1}").num_rows == args.n
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)

    def ratio(times, name):
        return statistics.median(c / x for c, x in zip(times[cli_name], times[name]))

    print(f"\n{args.n:,} puzzles, a standalone master and one 2-core worker on 127.0.0.1, "
          f"{args.rounds} alternating rounds: median rate, median of the rounds' ratios to "
          "the CLI; CPU: user + system of every process under this one\n")
    print("| path | puzzles/s | wall ratio | puzzles per CPU s | CPU ratio |")
    print("|---|---:|---:|---:|---:|")
    for name in (cli_name, solve_name, copy_name):
        print(f"| {name} | {args.n / statistics.median(wall[name]):,.0f} | "
              f"{ratio(wall, name):.2f} | {args.n / statistics.median(cpu[name]):,.0f} | "
              f"{ratio(cpu, name):.2f} |")
    solve_vs_copy = statistics.median(s / c for s, c in zip(wall[solve_name], wall[copy_name]))
    solve_vs_copy_cpu = statistics.median(s / c for s, c in zip(cpu[solve_name], cpu[copy_name]))
    print(f"\n`spark.solve` job time / bare copy time: wall {solve_vs_copy:.2f}, "
          f"CPU {solve_vs_copy_cpu:.2f} (goal: within 1.2)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    j = sub.add_parser("job", help="(run by spark-submit) the test's job")
    j.add_argument("src")
    j.add_argument("solved")
    j.add_argument("canonical")
    s = sub.add_parser("serve", help="(run by spark-submit) the benchmark's driver")
    s.add_argument("src")
    s.add_argument("ctl")
    b = sub.add_parser("bench", help="the benchmark")
    b.add_argument("-n", type=int, default=1_000_000)
    b.add_argument("--rounds", type=int, default=3)
    b.add_argument("--binary", default=str(ROOT / "target" / "release" / "sudoku-bulk"))
    b.add_argument("--wheel", type=pathlib.Path, help="default: the newest in target/wheels")
    b.add_argument("--keep", action="store_true", help="keep the folder under target/bench")
    args = ap.parse_args()
    if args.mode == "job":
        job(args.src, args.solved, args.canonical)
        return 0
    if args.mode == "serve":
        serve(args.src, args.ctl)
        return 0
    # Stopped by a signal (also in the background, where SIGINT is ignored):
    # unwind, so the cluster's daemons are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return bench(args)


if __name__ == "__main__":
    sys.exit(main())
