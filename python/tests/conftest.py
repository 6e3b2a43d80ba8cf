"""pytest fixtures: the CLI binary the tests compare against, and one Spark
session in local mode for the Spark test modules."""

import os
import pathlib
import sys

import pytest

from helpers import ROOT


@pytest.fixture(scope="session")
def cli():
    """The sudoku-bulk binary built by `cargo test` / `cargo build`
    (SUDOKU_BULK_BIN overrides)."""
    env = os.environ.get("SUDOKU_BULK_BIN")
    candidates = [env] if env else [
        ROOT / "target" / "release" / "sudoku-bulk",
        ROOT / "target" / "debug" / "sudoku-bulk",
    ]
    found = [pathlib.Path(c) for c in candidates if c and pathlib.Path(c).is_file()]
    if not found:
        pytest.fail("no sudoku-bulk binary: run `cargo build` first (scripts/test.sh does)")
    # The newest build, so a stale release binary does not shadow a fresh debug one.
    return str(max(found, key=lambda p: p.stat().st_mtime))



@pytest.fixture(scope="session")
def spark():
    """A local[2] SparkSession shared by every Spark test module (one JVM
    start for the run); skips where PySpark is not installed."""
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    # Workers must run this interpreter, where sudoku_bulk is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master("local[2]")
        .appName("sudoku-bulk-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()

# pyarrow 26 now and then aborts while the interpreter shuts down, after all
# the work is done ("terminate called without an active exception": a native
# thread pool torn down with a worker alive; apache/arrow#34314; about one
# Parquet-reading process in 400 on these machines). pytest's own exit status
# is what counts, so once every other plugin has finished, leave with it
# without running the interpreter's teardown.
_exit_status = None


def pytest_sessionfinish(session, exitstatus):
    global _exit_status
    _exit_status = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    if _exit_status is None:
        return
    import sys

    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_exit_status)
