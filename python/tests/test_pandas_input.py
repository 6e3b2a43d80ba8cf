"""pandas Series as data people have them: a Kaggle-style CSV read with
pd.read_csv's defaults, integer columns (leading zeros dropped), object
columns of 81-digit Python ints, rows of the wrong kind named, Series
paired by index in check(), and the whole package without pyarrow."""

import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sudoku_bulk
from helpers import ROOT, read_lines, to_cells, valid_solutions

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def kaggle_csv(tmp_path_factory):
    """A `quizzes,solutions` file as the Kaggle sets write it: 0 blanks,
    81 digits, puzzles from the repository, solutions verified by the
    NumPy-only checker before they are written."""
    lines = read_lines("17_clue_sub.txt", 150) + read_lines("magictour_top1465.txt", 50)
    puzzles = to_cells(lines)
    solutions = sudoku_bulk.solve(puzzles)
    assert valid_solutions(puzzles, solutions).all()
    digits = lambda a: ["".join(map(str, row)) for row in a]
    path = tmp_path_factory.mktemp("kaggle") / "sudoku.csv"
    with open(path, "w") as f:
        f.write("quizzes,solutions\n")
        for q, s in zip(digits(puzzles), digits(solutions)):
            f.write(f"{q},{s}\n")
    return path, puzzles


def answers_to_cells(answers):
    return to_cells([str(a) for a in answers])


def test_kaggle_csv_read_the_default_way_and_as_numbers(kaggle_csv):
    path, puzzles = kaggle_csv
    df = pd.read_csv(path)
    out = sudoku_bulk.solve(df["quizzes"])
    assert valid_solutions(puzzles, answers_to_cells(out)).all()
    assert sudoku_bulk.check(df["quizzes"], df["solutions"]).all()
    # The same columns as numbers: object Series of 81-digit Python ints
    # whose leading zeros (blank cells) are gone (was OverflowError).
    ints = pd.read_csv(path, converters={"quizzes": int, "solutions": int})
    assert ints["quizzes"].dtype == object and isinstance(ints["quizzes"][0], int)
    assert (ints["quizzes"] < 10**80).sum() > 100  # most start with a blank
    out = sudoku_bulk.solve(ints["quizzes"])
    assert list(out.index) == list(ints.index) and out.name == "solution"
    assert all(isinstance(a, str) and len(a) == 81 for a in out)
    assert valid_solutions(puzzles, answers_to_cells(out)).all()
    assert sudoku_bulk.check(ints["quizzes"], ints["solutions"]).all()
    assert (sudoku_bulk.count(ints["quizzes"]) == 1).all()
    # The 17-clue rows alone: every one starts with 17 blanks (64 digits
    # left), still 9x9 puzzles, not 8x8 ones.
    assert (ints["quizzes"][:150] < 10**64).all()
    out = sudoku_bulk.solve(ints["quizzes"][:150])
    assert valid_solutions(puzzles[:150], answers_to_cells(out)).all()
    # A number longer than the grid is that row's problem, named.
    longer = pd.Series([ints["quizzes"][0], 10**81 + 1, ints["quizzes"][1]])
    with pytest.warns(UserWarning, match=r"1 of 3 rows are bad .*row 2 \(index 1\): expected 81 cells, found 82"):
        out = sudoku_bulk.solve(longer)
    assert out[1] is None and valid_solutions(puzzles[:2], answers_to_cells(out[[0, 2]])).all()


def test_int64_column_of_small_grids_gets_its_zeros_back(tmp_path):
    """4x4 puzzles fit in int64: pd.read_csv gives int64 and drops the
    leading zeros; each row is padded back to 16 cells."""
    p = sudoku_bulk.generate(60, size=4, seed=3, as_array=True)
    path = tmp_path / "four.csv"
    path.write_text("puzzle\n" + "".join("".join(map(str, row)) + "\n" for row in p))
    s = pd.read_csv(path)["puzzle"]
    assert s.dtype == np.int64 and (s < 10**15).any()
    out = sudoku_bulk.solve(s)
    cells = np.array([[int(c) for c in a] for a in out], dtype=np.uint8)
    assert valid_solutions(p, cells, 2, 2).all()
    # Nullable integers (a missing row is null) and box= naming the grid.
    nullable = pd.Series(list(s[:5]) + [None], dtype="Int64")
    out, status = sudoku_bulk.solve(nullable, box="2x2", on_error="ignore", return_status=True)
    assert status == [None] * 5 + ["null: no puzzle"] and out.isna().tolist() == [False] * 5 + [True]


def test_rows_that_are_no_puzzle_kind_are_named():
    good = read_lines("17_clue_sub.txt", 2)
    # Was a raw pyarrow ArrowTypeError ("Expected bytes, got a 'int' object").
    with pytest.raises(TypeError, match=r"^puzzles row 2 \(index 1\) is int \(5\), expected str, as the rows before"):
        sudoku_bulk.solve(pd.Series([good[0], 5]))
    with pytest.raises(TypeError, match=r"puzzles row 2 \(index 'b'\) is bytes"):
        sudoku_bulk.solve(pd.Series([good[0], b"x", good[1]], index=["a", "b", "c"]))
    # Floats cannot hold 81 digits: refused, with the way to read text.
    floats = pd.Series([4.0e80, np.nan])
    with pytest.raises(TypeError, match=r"float64, row 1 \(index 0\) holds .*dtype=str"):
        sudoku_bulk.solve(floats)
    with pytest.raises(TypeError, match=r"solutions row 1 \(index 0\) is float"):
        sudoku_bulk.check(pd.Series(good), pd.Series([1.5, good[1]]))


def test_check_pairs_series_by_index_label():
    lines = read_lines("17_clue_sub.txt", 40)
    puzzles = pd.Series(lines, index=range(100, 140))
    answers = sudoku_bulk.solve(puzzles)
    assert sudoku_bulk.check(puzzles, answers).all()
    # The right pairs under another order of the same labels: aligned by
    # label as pandas aligns (was all False, no warning).
    shuffled = answers.sample(frac=1, random_state=1)
    assert list(shuffled.index) != list(answers.index)
    assert sudoku_bulk.check(puzzles, shuffled).all()
    wrong = answers.copy()
    wrong[105] = answers[106]
    assert sudoku_bulk.check(puzzles, wrong.sample(frac=1, random_state=2)).tolist() == [
        i != 5 for i in range(40)
    ]
    # Other labels: refused, as pandas refuses to compare them.
    relabelled = answers.reset_index(drop=True)
    with pytest.raises(ValueError, match=r"different index labels \(puzzle labels \[100, 101, 102\]"):
        sudoku_bulk.check(puzzles, relabelled)
    assert sudoku_bulk.check(puzzles.reset_index(drop=True), relabelled).all()


def test_the_package_works_with_numpy_alone(tmp_path):
    """pyarrow is an extra: in an environment without it (this one's
    site-packages less pyarrow, the interpreter run without its own site),
    arrays, lists and pandas Series (through lists) still work, and
    pyproject names the extras."""
    site = pathlib.Path(np.__file__).resolve().parents[1]
    shadow = tmp_path / "site-packages"
    shadow.mkdir()
    for entry in site.iterdir():
        if not entry.name.lower().startswith("pyarrow"):
            (shadow / entry.name).symlink_to(entry)
    code = textwrap.dedent(
        """
        import importlib.util, sys
        assert importlib.util.find_spec("pyarrow") is None
        import numpy as np, pandas as pd, sudoku_bulk
        from helpers import read_lines, to_cells, valid_solutions
        lines = read_lines("17_clue_sub.txt", 30)
        cells = to_cells(lines)
        assert valid_solutions(cells, sudoku_bulk.solve(cells)).all()
        assert valid_solutions(cells, to_cells(sudoku_bulk.solve(lines))).all()
        for s in (pd.Series(lines + [None]), pd.Series(lines + [None], dtype="string[python]"),
                  pd.Series(lines + [None], dtype="category"),
                  pd.Series([int(l.replace(".", "0")) for l in lines] + [None], dtype=object)):
            out = sudoku_bulk.solve(s, on_error="ignore")
            assert out.isna().tolist() == [False] * 30 + [True], s.dtype
            assert valid_solutions(cells, to_cells(list(out[:30].astype(str)))).all()
            assert sudoku_bulk.check(s, out, on_error="ignore")[:30].all()
        assert "pyarrow" not in sys.modules
        print("ok")
        """
    )
    tests = ROOT / "python" / "tests"
    run = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=tests, capture_output=True, text=True,
        timeout=120, env={**os.environ, "PYTHONPATH": f"{shadow}{os.pathsep}{tests}"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "ok"
    tomllib = pytest.importorskip("tomllib")
    meta = tomllib.loads((ROOT / "python" / "pyproject.toml").read_text())["project"]
    assert [d.split(">")[0] for d in meta["dependencies"]] == ["numpy"]
    extras = meta["optional-dependencies"]
    assert {"arrow", "pandas", "spark"} <= set(extras)
    assert any(d.startswith("pyarrow") for d in extras["arrow"])
    assert any(d.startswith("pyspark") for d in extras["spark"])
