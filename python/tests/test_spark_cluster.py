"""Spark on a real standalone cluster, not local mode: a master and one worker
started on 127.0.0.1 from the installed PySpark (scripts/spark_cluster.py), the
package shipped to the executor as python/README.md, "Spark", tells users (a
virtualenv packed by venv-pack, `--archives env.tar.gz#env`,
`spark.pyspark.python=./env/bin/python`), a job submitted by spark-submit that runs
`spark.solve` and `spark.canon` on a Parquet dataset; every answer checked here
independently (valid grid, givens kept; canonical forms through the NumPy symmetry
group of sudoku_group.py). The cluster is stopped by the fixture, even on failure.

The wheel comes from SUDOKU_BULK_WHEEL (scripts/test.sh builds it and installs the
same file here); without it the test is skipped."""

import os
import pathlib
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from helpers import ROOT, read_lines, to_cells, valid_solutions
from sudoku_group import apply_text, parse, random_transform, show

sys.path.append(str(ROOT / "scripts"))
import spark_cluster  # noqa: E402

BASES = 60  # Royle's 17-clue puzzles: no two are isomorphic
ROWS = 3000


@pytest.fixture(scope="module")
def wheel():
    value = os.environ.get("SUDOKU_BULK_WHEEL")
    if not value:
        pytest.skip("SUDOKU_BULK_WHEEL not set (scripts/test.sh sets it)")
    path = pathlib.Path(value)
    assert path.is_file(), f"SUDOKU_BULK_WHEEL={value}: no such file"
    pytest.importorskip("pyspark")
    pytest.importorskip("venv_pack")
    return path


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, wheel):
    """The packed env and a running cluster; stopped when the module ends."""
    work = tmp_path_factory.mktemp("cluster")
    archive = spark_cluster.packed_env(wheel, work)
    with spark_cluster.Cluster(work / "spark", cores=2, memory="2g") as c:
        yield c, archive, work
    # Stopped: the daemons' process groups are gone.
    for p in c.procs:
        assert p.poll() is not None


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """ROWS random disguises of BASES known puzzles (so each row's class is
    known), in a Parquet dataset of three files with small row groups."""
    rng = np.random.default_rng(43)
    bases = read_lines("17_clue_sub.txt", BASES)
    classes = rng.integers(0, BASES, size=ROWS)
    rows = [show(random_transform(parse(bases[k]), rng)) for k in classes]
    path = tmp_path_factory.mktemp("dataset") / "puzzles"
    path.mkdir()
    for part, k in enumerate(range(0, ROWS, 1000)):
        table = pa.table({"id": np.arange(k, k + 1000, dtype=np.int64),
                          "puzzle": rows[k:k + 1000]})
        pq.write_table(table, path / f"part-{part}.parquet", row_group_size=250)
    return path, rows, classes


def test_solve_and_canon_on_a_standalone_cluster(cluster, dataset):
    c, archive, work = cluster
    src, rows, classes = dataset
    solved, canonical = work / "solved", work / "canonical"
    cmd = spark_cluster.submit_args(
        c, archive, [ROOT / "scripts" / "spark_cluster.py", "job", src, solved, canonical])
    log = work / "submit.log"
    code, out = spark_cluster.run_submit(cmd, spark_cluster.spark_env(work / "spark"), log,
                                         timeout=900)
    assert code == 0, (
        f"spark-submit failed ({code}):\n{out}\n"
        + "\n".join(log.read_text(errors="replace").splitlines()[-60:])
        + "\n" + c.log_tails())
    # The tasks ran on the cluster's executor, from the unpacked archive.
    executor_python = [l.split(" ", 1)[1] for l in out.splitlines()
                       if l.startswith("EXECUTOR_PYTHON ")]
    assert len(executor_python) == 1
    assert executor_python[0].endswith("/env/bin/python"), executor_python
    assert str(work / "spark" / "worker") in executor_python[0], executor_python

    table = pq.read_table(solved).sort_by("id")
    assert table.column("id").to_pylist() == list(range(ROWS))
    assert table.column("puzzle").to_pylist() == rows
    answers = table.column("solution").to_pylist()
    assert None not in answers
    assert valid_solutions(to_cells(rows), to_cells(answers)).all()

    table = pq.read_table(canonical).sort_by("id")
    assert table.column("puzzle").to_pylist() == rows
    forms = table.column("canonical").to_pylist()
    transforms = table.column("transform").to_pylist()
    # Each row's transform, applied by the NumPy group, gives its form.
    for row, t, f in zip(rows, transforms, forms):
        assert show(apply_text(t, parse(row))) == f
    # One form per class, and different classes have different forms.
    by_class = {}
    for k, f in zip(classes.tolist(), forms):
        by_class.setdefault(k, set()).add(f)
    assert all(len(v) == 1 for v in by_class.values())
    assert len({next(iter(v)) for v in by_class.values()}) == len(by_class)
    assert table.column("automorphisms").to_numpy().min() >= 1
