"""Spark in local mode: 100k puzzles from a Parquet file, solved through
sudoku_bulk.spark (mapInArrow), written back and checked independently; and
the CLI-only route (rdd.pipe through the sudoku-bulk binary)."""

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sudoku_bulk.spark
from helpers import (
    ROOT, box_grid, cells_to_text, count_naive, read_lines, text_to_cells, to_cells,
    valid_solutions,
)

ROWS = 100_000


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory):
    """ROWS puzzles: the repository's 17-clue set made bigger by
    scripts/shuffle.py (random validity-preserving transforms)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "shuffle.py"), "-n", str(ROWS), "--seed", "3",
         str(ROOT / "data" / "17_clue_sub.txt")],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    assert len(out) == ROWS
    path = tmp_path_factory.mktemp("spark") / "puzzles.parquet"
    pq.write_table(pa.table({"id": np.arange(ROWS, dtype=np.int64), "puzzle": out}), path,
                   row_group_size=25_000)
    return path, out


def test_spark_solve_parquet_round_trip(spark, puzzle_file, tmp_path):
    path, lines = puzzle_file
    df = spark.read.parquet(str(path)).repartition(4)
    solved = sudoku_bulk.spark.solve(df, column="puzzle", output="solution")
    out = tmp_path / "solved.parquet"
    solved.write.parquet(str(out))
    table = pq.read_table(out).sort_by("id")
    assert table.num_rows == ROWS
    assert table.column("id").to_numpy().tolist() == list(range(ROWS))
    got_puzzles = table.column("puzzle").to_pylist()
    assert got_puzzles == lines
    answers = table.column("solution").to_pylist()
    assert None not in answers
    assert valid_solutions(to_cells(got_puzzles), to_cells(answers)).all()


def test_spark_bad_rows_unique_and_count(spark):
    good = read_lines("17_clue_sub.txt", 20)
    rows = [(i, p) for i, p in enumerate(good)] + [
        (20, None), (21, "x" * 81), (22, "." * 81), (23, "55" + good[0][2:]),
    ]
    df = spark.createDataFrame(rows, "id long, puzzle string")
    got = {r.id: r.solution for r in sudoku_bulk.spark.solve(df).collect()}
    assert [got[i] is None for i in range(20, 24)] == [True, True, False, True]
    assert valid_solutions(to_cells(good), to_cells([got[i] for i in range(20)])).all()
    uniq = {r.id: r.solution for r in sudoku_bulk.spark.solve(df, unique=True).collect()}
    assert uniq[22] is None and all(uniq[i] == got[i] for i in range(20))
    counts = {r.id: r.solutions for r in sudoku_bulk.spark.count(df, limit=3).collect()}
    assert [counts[i] for i in range(20)] == [1] * 20
    assert [counts[i] for i in range(20, 24)] == [None, None, 3, None]
    with pytest.raises(ValueError, match="no column 'quiz'"):
        sudoku_bulk.spark.solve(df, column="quiz")
    # A partition (an Arrow batch) whose only row is bad: a null, not a
    # failed job.
    lone = spark.createDataFrame([(0, good[0]), (1, good[1][:80])], "id long, puzzle string")
    lone = lone.repartition(2, "id")
    got = {r.id: r.solution for r in sudoku_bulk.spark.solve(lone).collect()}
    assert got[1] is None and valid_solutions(to_cells(good[:1]), to_cells([got[0]])).all()


def test_spark_box_6x6_with_3x2_boxes(spark):
    """box= reaches the executors: 6x6 puzzles with boxes 3 rows tall and 2
    wide (their grids break the usual 2x3 boxes), a tiny DataFrame."""
    rng = np.random.default_rng(11)
    grids = np.stack([box_grid(3, 2, rng).reshape(-1) for _ in range(8)])
    assert not valid_solutions(grids, grids, 2, 3).any()
    puzzles = grids.copy()
    for p in puzzles:
        p[rng.choice(36, 16, replace=False)] = 0
    text = cells_to_text(puzzles)
    df = spark.createDataFrame(list(enumerate(text)) + [(8, None)], "id long, puzzle string")
    got = {r.id: r.solution for r in sudoku_bulk.spark.solve(df, box="3x2").collect()}
    assert got[8] is None
    answers = [got[i] for i in range(8)]
    assert valid_solutions(puzzles, text_to_cells(answers, 6), 3, 2).all()
    counts = {r.id: r.solutions for r in sudoku_bulk.spark.count(df, limit=50, box=(3, 2)).collect()}
    assert [counts[i] for i in range(8)] == [min(count_naive(p, 3, 2), 50) for p in puzzles]
    assert counts[8] is None
    # A bad box fails on the driver, before any task.
    with pytest.raises(ValueError, match=r'box="2y5"'):
        sudoku_bulk.spark.solve(df, box="2y5")


def test_cli_route_through_rdd_pipe(spark, cli):
    """For clusters without the package: each partition's lines go through
    the binary (shipped with --files; here its path in target/)."""
    lines = read_lines("serg_benchmark_sub.txt") + read_lines("forum_hardest_1106.txt")
    lines = [l for l in lines if len(l) == 81] + ["not a puzzle"]
    df = spark.createDataFrame([(l,) for l in lines], "puzzle string")
    # The recipe of docs/guide.md and python/README.md: pipe keeps one output
    # line per input line, in order, within each partition, so zip pairs each
    # puzzle with its answer.
    rows = df.rdd.map(lambda r: r.puzzle).cache()
    assert rows.getNumPartitions() >= 2
    answers_rdd = rows.pipe(f"{cli} solve --format line")
    pairs = rows.zip(answers_rdd).collect()
    puzzles = [p for p, _ in pairs]
    answers = [a for _, a in pairs]
    assert sorted(puzzles) == sorted(lines)
    bad = [i for i, a in enumerate(answers) if a.startswith("error:")]
    assert [puzzles[i] for i in bad] == ["not a puzzle"]
    good = [i for i in range(len(puzzles)) if i not in bad]
    assert valid_solutions(
        to_cells([puzzles[i] for i in good]), to_cells([answers[i] for i in good])
    ).all()


def test_spark_column_names_with_dots_and_driver_checks(spark):
    """Column names are taken as names: `a.b` was read by mapInArrow as
    field b of a struct a (UNRESOLVED_COLUMN). Wrong argument types fail on
    the driver, before any task."""
    good = read_lines("17_clue_sub.txt", 6)
    df = spark.createDataFrame(
        [(i, p) for i, p in enumerate(good)] + [(6, "x")], "`id.x` long, `a.b` string"
    )
    solved = sudoku_bulk.spark.solve(df, column="a.b", output="s.t")
    assert solved.columns == ["id.x", "a.b", "s.t"]
    got = {r[0]: r[2] for r in solved.collect()}
    assert got[6] is None
    assert valid_solutions(to_cells(good), to_cells([got[i] for i in range(6)])).all()
    counts = sudoku_bulk.spark.count(df, column="a.b", output="n.sol").select("`n.sol`")
    assert sorted(r[0] for r in counts.collect() if r[0] is not None) == [1] * 6
    for kwargs, err, match in [
        (dict(unique="false"), TypeError, "unique must be True or False"),
        (dict(threads=2**70), ValueError, "threads must be"),
        (dict(format=3), TypeError, "format must be one of"),
        (dict(column=1), TypeError, "column must be a column name"),
    ]:
        with pytest.raises(err, match=match):
            sudoku_bulk.spark.solve(df, **{"column": "a.b", **kwargs})
    with pytest.raises(TypeError, match="limit must be an int"):
        sudoku_bulk.spark.count(df, column="a.b", limit="2")


def test_spark_says_how_to_fix_executors_without_the_package(spark, tmp_path):
    """A worker Python without sudoku_bulk (the venv's Python not first on
    PATH): a short RuntimeError with the fix, raised at call time, instead
    of ~300 lines of Java trace from the first task. Then a worker Python
    that does not exist."""
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    sc = spark.sparkContext
    df = spark.createDataFrame([(read_lines("17_clue_sub.txt", 1)[0],)], "puzzle string")
    before = sc.pythonExec
    try:
        sc.pythonExec = str(bare / "bin" / "python")
        with pytest.raises(RuntimeError) as e:
            sudoku_bulk.spark.solve(df)
        message = str(e.value)
        assert message.startswith(
            f"sudoku_bulk.spark: the executors' Python ({bare}/bin/python) cannot import the "
            "package: ModuleNotFoundError: No module named "
        ), message
        assert "PYSPARK_PYTHON" in message and "--archives env.tar.gz#env" in message
        assert len(message.splitlines()) < 15
        sc.pythonExec = str(tmp_path / "no-such-python")
        with pytest.raises(RuntimeError, match=r"could not start its Python workers with .*no-such-python.*"
                           r"Cannot run program") as e:
            sudoku_bulk.spark.count(df)
        assert "PYSPARK_PYTHON" in str(e.value) and len(str(e.value).splitlines()) < 15
    finally:
        sc.pythonExec = before
    # The right Python again: it works (the failures were not remembered).
    assert sudoku_bulk.spark.solve(df).collect()[0].solution is not None
