"""One shape per answer whatever the route: Series in, Series out (the
caller's index, named as the command's columns); one row numbering in the
messages (rows from 1, as the command's); progress callbacks and bars; the
refusal of puzzles read as numbers says how to read them as text; Spark fills
a partly empty answer column as the command does."""

import sys

import numpy as np
import pyarrow as pa
import pytest

import sudoku_bulk as sb
from helpers import read_lines, to_cells, valid_solutions

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def lines():
    return read_lines("17_clue_sub.txt", 40)


def test_every_call_returns_a_series_with_the_callers_index_and_the_cli_names(lines):
    index = pd.Index([f"k{i}" for i in range(len(lines))])
    s = pd.Series(lines, index=index, name="quizzes")
    answers = sb.solve(s)
    assert answers.name == "solution" and answers.index.equals(index)
    assert valid_solutions(to_cells(lines), to_cells(list(answers))).all()
    counts = sb.count(s)
    assert isinstance(counts, pd.Series) and counts.name == "solutions"
    assert counts.index.equals(index) and (counts == 1).all()
    # A wrong solution at label k3 is False there, by label.
    sols = answers.copy()
    sols["k3"] = sols["k4"]
    valid = sb.check(s, sols)
    assert isinstance(valid, pd.Series) and valid.name == "valid" and valid.index.equals(index)
    assert not valid["k3"] and valid.drop("k3").all()
    guesses, levels = sb.grade(s)
    assert (guesses.name, levels.name) == ("guesses", "level")
    assert guesses.index.equals(index) and levels.index.equals(index)
    assert (guesses >= 0).all() and set(levels) <= {"easy", "medium", "hard", "extreme"}
    forms = sb.canon(s)
    assert forms.name == "canonical" and forms.index.equals(index)
    forms, transforms, autos = sb.canon(s, transform=True)
    assert (transforms.name, autos.name) == ("transform", "automorphisms")
    assert transforms.index.equals(index) and autos.index.equals(index)
    er, ep, ed, steps = sb.rate(s[:3], steps=True)
    assert [x.name for x in (er, ep, ed, steps)] == ["er", "ep", "ed", "steps"]
    assert steps.index.equals(index[:3]) and steps["k0"]["status"] == "rated"
    # Other kinds keep their shapes: arrays and lists.
    assert isinstance(sb.count(lines), np.ndarray)
    assert isinstance(sb.check(lines, list(answers)), np.ndarray)


def test_messages_number_rows_from_one_as_the_command_does(lines):
    bad = [lines[0], "xx", lines[1]]
    with pytest.raises(ValueError, match=r"^row 2 \(puzzles\[1\]\): expected 81 cells"):
        sb.solve(bad, on_error="raise")
    s = pd.Series(bad, index=[10, 20, 30])
    with pytest.warns(UserWarning, match=r"the first, row 2 \(index 20\): expected 81 cells"):
        sb.count(s)


def test_progress_callback_sees_every_row_and_the_answers_do_not_change(lines):
    many = lines * 60  # 2,400 rows: three parts of at least 1,024
    seen = []
    out = sb.solve(many, progress=lambda done, total: seen.append((done, total)))
    assert out == sb.solve(many)
    assert seen[0] == (0, len(many)) and seen[-1] == (len(many), len(many))
    assert len(seen) == 4 and all(a[0] < b[0] for a, b in zip(seen, seen[1:]))
    # Arrays, pyarrow and pandas parts are joined back into their kinds, bad
    # rows numbered over the whole input.
    cells = to_cells(many)
    cells[2000] = 0
    cells[2000, :2] = 5  # clashing givens
    calls = []
    got, status = sb.count(
        cells, progress=lambda d, t: calls.append(d), return_status=True, on_error="ignore"
    )
    assert got.shape == (len(many),) and got[2000] == -1 and (np.delete(got, 2000) == 1).all()
    assert status[2000].startswith("duplicate given") and calls[-1] == len(many)
    arr = pa.chunked_array([many[:1500], many[1500:]])
    assert sb.solve(arr, progress=lambda d, t: None).to_pylist() == out
    s = pd.Series(many, index=range(5, 5 + len(many)))
    ser = sb.solve(s, progress=lambda d, t: None)
    assert ser.index.equals(s.index) and list(ser) == out
    forms = sb.canon(many, progress=lambda d, t: calls.append(-d))
    assert forms == sb.canon(many) and calls[-1] == -len(many)
    er, ep, ed = sb.rate(lines[:5], progress=lambda d, t: calls.append((d, t)))
    assert calls[-2:] == [(0, 5), (5, 5)] and not np.isnan(er).any()


def test_progress_of_the_key_calls_counts_every_row_and_changes_nothing(lines):
    # 10,000 rows: parts of 4,096, so three reports after the first.
    many = (lines * 250)[:10000]
    seen = []

    def cb(done, total):
        seen.append((done, total))

    kept = sb.dedupe(many, progress=cb)
    assert kept.tolist() == sb.dedupe(many).tolist()
    assert seen == [(0, 10000), (4096, 10000), (8192, 10000), (10000, 10000)]
    # Two sets: one count over both, the second's rows after the first's.
    seen.clear()
    leak = sb.overlap(many[:6000], many[6000:], progress=cb)
    assert leak.test.tolist() == sb.overlap(many[:6000], many[6000:]).test.tolist()
    assert seen[0] == (0, 10000) and seen[-1] == (10000, 10000)
    assert (6000, 10000) in seen and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    seen.clear()
    parts = sb.split(many, 0.2, seed=3, progress=cb)
    assert [p.tolist() for p in parts] == [p.tolist() for p in sb.split(many, 0.2, seed=3)]
    assert seen[-1] == (10000, 10000)
    seen.clear()
    card = sb.stats(many[:5000], against=many[5000:], progress=cb)
    assert card == sb.stats(many[:5000], against=many[5000:])
    assert seen[0] == (0, 10000) and seen[-1] == (10000, 10000)
    # An exception in the callback stops the call and is raised.

    def boom(done, total):
        if done > 0:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        sb.dedupe(many, progress=boom)
    with pytest.raises(TypeError, match="progress must be"):
        sb.split(many, progress="yes")


def test_progress_true_is_a_tqdm_bar_or_says_how_to_get_one(lines, monkeypatch, capsys):
    try:
        import tqdm  # noqa: F401
    except ImportError:
        have = False
    else:
        have = True
    if have:
        assert sb.count(lines, progress=True).tolist() == [1] * len(lines)
        assert "puzzles" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError, match="pip install tqdm"):
        sb.count(lines, progress=True)
    with pytest.raises(TypeError, match="progress must be"):
        sb.count(lines, progress="yes")


def test_numbers_from_pyarrow_csv_are_refused_with_how_to_read_text(tmp_path, lines):
    """A Kaggle CSV of digits with 0 blanks, read by pyarrow.csv.read_csv,
    comes as int64 or double; the refusal names the option that reads it
    as text, and that option works."""
    import pyarrow.csv as pcsv

    path = tmp_path / "kaggle.csv"
    quizzes = [l.replace(".", "0") for l in lines[:5]]
    path.write_text("quizzes,solutions\n" + "".join(f"{q},\n" for q in quizzes))
    table = pcsv.read_csv(path)
    assert not pa.types.is_string(table["quizzes"].type)
    for call in (sb.solve, sb.canon):
        with pytest.raises(TypeError, match=r'column_types=\{"quizzes": pyarrow.string\(\)'):
            call(table["quizzes"])
    opts = pcsv.ConvertOptions(column_types={"quizzes": pa.string(), "solutions": pa.string()})
    table = pcsv.read_csv(path, convert_options=opts)
    answers = sb.solve(table["quizzes"]).to_pylist()
    assert valid_solutions(to_cells(quizzes), to_cells(answers)).all()


def test_spark_solve_fills_a_partly_empty_answer_column(spark, lines):
    right = sb.solve(lines[:4])
    rows = [(lines[0], None), (lines[1], ""), (lines[2], right[2]), (lines[3], "  ")]
    df = spark.createDataFrame(rows, "puzzle string, answer string")
    got = sudoku_spark().solve(df, output="answer").collect()
    assert [r.puzzle for r in got] == lines[:4]
    answers = [r.answer for r in got]
    # The existing valid answer kept byte for byte; the empty ones filled.
    assert answers[2] == right[2]
    assert valid_solutions(to_cells(lines[:4]), to_cells(answers)).all()
    assert df.columns == ["puzzle", "answer"]
    wrong = spark.createDataFrame([(lines[0], right[1])], "puzzle string, answer string")
    with pytest.raises(Exception, match="is not a solution of it"):
        sudoku_spark().solve(wrong, output="answer").collect()
    with pytest.raises(ValueError, match="already exists"):
        sudoku_spark().count(df, output="answer")


def sudoku_spark():
    import sudoku_bulk.spark

    return sudoku_bulk.spark


def test_non_ascii_strings_are_counted_in_characters_not_bytes():
    # 81 characters but 162 UTF-8 bytes: the refusal must speak of what the
    # caller wrote (81 characters, the first non-ASCII one), not of bytes.
    with pytest.raises(ValueError) as e:
        sb.solve(["é" * 81], on_error="raise")
    msg = str(e.value)
    assert "81 characters" in msg and "162" not in msg
    assert "'é' at character 1" in msg
    # A plain bad row of ASCII keeps the library's own reason.
    with pytest.raises(ValueError) as e:
        sb.solve(["1" * 80], on_error="raise")
    assert "characters, not all ASCII" not in str(e.value)
