"""Lists of str, pyarrow string arrays and pandas Series: answers come back
in the same kind, bad rows None/null, every answer checked independently."""

import numpy as np
import pyarrow as pa
import pytest

import sudoku_bulk
from helpers import letters_to_cells, pattern_grid, read_lines, relabel, to_cells, valid_solutions


@pytest.fixture(scope="module")
def lines():
    return read_lines("17_clue_sub.txt", 500) + read_lines("magictour_top1465.txt", 200)


def check_strings(puzzles, answers):
    assert all(isinstance(a, str) and len(a) == 81 for a in answers)
    return valid_solutions(to_cells(puzzles), to_cells(answers))


def test_list_of_str(lines):
    out = sudoku_bulk.solve(lines)
    assert isinstance(out, list) and len(out) == len(lines)
    assert check_strings(lines, out).all()
    # Zeros as blanks, a tuple, trailing text after whitespace (as in files).
    zeros = [s.replace(".", "0") for s in lines[:50]]
    assert check_strings(lines[:50], sudoku_bulk.solve(tuple(zeros))).all()
    assert check_strings(lines[:5], sudoku_bulk.solve([s + "  # comment" for s in lines[:5]])).all()


def test_list_bad_rows(lines):
    p = [lines[0], None, "x" * 81, lines[1][:80], "11" + lines[2][2:], lines[3]]
    out, status = sudoku_bulk.solve(p, return_status=True)
    assert [o is None for o in out] == [False, True, True, True, True, False]
    assert status[0] is None and status[5] is None
    assert status[1] == "null: no puzzle"
    assert status[2] == "cell 1: invalid character 'x'"
    assert status[3] == "expected 81 cells, found 80"
    assert status[4].startswith("duplicate given 1") or status[4] in ("no solution",)
    assert check_strings([lines[0], lines[3]], [out[0], out[5]]).all()
    with pytest.raises(ValueError, match=r"^puzzle 1: null: no puzzle$"):
        sudoku_bulk.solve(p, on_error="raise")
    with pytest.raises(TypeError, match=r"puzzles\[1\] is bytes"):
        sudoku_bulk.solve([lines[0], lines[1].encode()])


def letter_puzzles(box, count, blanks, seed):
    rng = np.random.default_rng(seed)
    side = box * box
    grids, text = [], []
    for _ in range(count):
        g = relabel(pattern_grid(box), rng).reshape(-1)
        p = g.copy()
        p[rng.choice(p.size, blanks, replace=False)] = 0
        grids.append(p)
        text.append("".join("." if v == 0 else chr(ord("A") + v - 1) for v in p))
    return np.stack(grids), text


def test_16x16_and_25x25_strings_in_letters():
    for box, blanks in [(4, 120), (5, 220)]:
        side = box * box
        cells, text = letter_puzzles(box, 8, blanks, box)
        out = sudoku_bulk.solve(text)
        # Answers use the input's symbols (letters).
        assert valid_solutions(cells, letters_to_cells(out, side)).all()


@pytest.mark.parametrize("large", [False, True])
def test_pyarrow_arrays(lines, large):
    t = pa.large_string() if large else pa.string()
    arr = pa.array(lines[:300] + [None, "bad"] + lines[300:400], type=t)
    out, status = sudoku_bulk.solve(arr, return_status=True)
    assert out.type == t and len(out) == len(arr)
    assert out.null_count == 2 and out[300].as_py() is None and out[301].as_py() is None
    assert status[300] == "null: no puzzle" and status[301] == "expected 81 cells, found 3"
    got = out.to_pylist()
    good = [i for i in range(len(arr)) if i not in (300, 301)]
    assert check_strings([arr[i].as_py() for i in good], [got[i] for i in good]).all()
    # A slice (non-zero offset) reads the right rows.
    sl = arr.slice(290, 20)
    out_sl = sudoku_bulk.solve(sl)
    assert out_sl.to_pylist() == got[290:310]
    out_sl.validate(full=True)
    out.validate(full=True)


def test_chunked_arrays_and_counts(lines):
    chunks = pa.chunked_array([lines[:100], lines[100:101], lines[101:250]])
    out = sudoku_bulk.solve(chunks)
    assert isinstance(out, pa.ChunkedArray) and len(out) == 250
    assert check_strings(lines[:250], out.to_pylist()).all()
    counts = sudoku_bulk.count(chunks)
    assert counts.dtype == np.int64 and (counts == 1).all()
    assert sudoku_bulk.check(chunks, out).all()
    wrong = out.to_pylist()
    wrong[7] = wrong[8]
    assert sudoku_bulk.check(chunks, pa.chunked_array([wrong[:50], wrong[50:]])).tolist() == [
        i != 7 for i in range(250)
    ]


def test_pandas_series(lines):
    pd = pytest.importorskip("pandas")
    s = pd.Series(lines[:100], index=range(1000, 1100), name="puzzle")
    out = sudoku_bulk.solve(s)
    assert isinstance(out, pd.Series) and (out.index == s.index).all()
    assert check_strings(lines[:100], out.tolist()).all()
    df = pd.DataFrame({"puzzle": lines[:50]})
    df["solution"] = sudoku_bulk.solve(df["puzzle"])
    assert check_strings(df["puzzle"].tolist(), df["solution"].tolist()).all()


def test_strings_and_arrays_agree(lines):
    cells = to_cells(lines[:200])
    assert to_cells(sudoku_bulk.solve(lines[:200])).tolist() == sudoku_bulk.solve(cells).tolist()
