"""Lists of str, pyarrow string arrays and pandas Series: answers come back
in the same kind, bad rows None/null, every answer checked independently."""

import numpy as np
import pyarrow as pa
import pytest

import sudoku_bulk
from helpers import letters_to_cells, pattern_grid, read_lines, relabel, to_cells, valid_solutions

# These tests give bad rows on purpose and read them from the results; the
# warning about them is tested in test_bad_rows_and_arguments.py.
pytestmark = pytest.mark.filterwarnings("ignore:.* rows are bad:UserWarning")


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
    with pytest.raises(ValueError, match=r"^row 2 \(puzzles\[1\]\): null: no puzzle$"):
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


def test_chunked_arrays_with_empty_and_sliced_chunks(lines):
    """The chunks go to the engine through the Arrow C data interface as
    they are: empty chunks, chunks that are slices of a bigger array (a
    non-zero offset) and large_string chunks each come back as a chunk of
    the same length and type, with every answer checked."""
    for t in (pa.string(), pa.large_string()):
        whole = pa.array(lines[:300], type=t)
        parts = [whole.slice(0, 0), whole.slice(10, 90), pa.array([], type=t), whole.slice(150, 1)]
        chunks = pa.chunked_array(parts, type=t)
        out = sudoku_bulk.solve(chunks)
        assert out.type == t
        assert [len(c) for c in out.chunks] == [0, 90, 0, 1]
        rows = lines[10:100] + lines[150:151]
        assert check_strings(rows, out.to_pylist()).all()
        for c in out.chunks:
            c.validate(full=True)
        # Solutions chunked another way are paired by row.
        sol = pa.chunked_array([out.to_pylist()[:7], out.to_pylist()[7:]], type=t)
        assert sudoku_bulk.check(chunks, sol).all()


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


def test_a_bad_row_anywhere_is_that_rows_problem(lines):
    """Each string is a record of its own: a bad one among the first rows
    (those the layout is told from) is a bad row, as it is further on."""
    nul = lines[0][:40] + "\x00" + lines[0][41:]
    two = lines[1] + "\n" + lines[2]
    for at in (0, 5, 250):
        p = list(lines[:300])
        p[at] = nul
        p[at + 1] = lines[at + 1][:80]
        p[at + 2] = two
        out, status = sudoku_bulk.solve(p, return_status=True)
        bad = {at: "cell 41: invalid character '\\x00'",
               at + 1: "expected 81 cells, found 80",
               at + 2: "a line break at character 82: a record holds one puzzle on one line"}
        assert {i: s for i, s in enumerate(status) if s is not None} == bad
        assert all(out[i] is None for i in bad)
        good = [i for i in range(300) if i not in bad]
        assert check_strings([p[i] for i in good], [out[i] for i in good]).all()
    # Nulls before a bad row: its index is its own, not one counted without them.
    out, status = sudoku_bulk.solve([None, lines[0], None, nul], return_status=True)
    assert out[2:] == [None] * 2 and status[3] == "cell 41: invalid character '\\x00'"
    # No row is a puzzle: each is None with its own reason (the call raises
    # unless on_error="ignore").
    out, status = sudoku_bulk.solve(
        [lines[0][:80], "x", nul[:41]], return_status=True, on_error="ignore"
    )
    assert out == [None] * 3
    assert status[0].startswith("80 characters: expected N*N cells for a grid side N")
    assert status[1].startswith("1 character: expected N*N cells")
    assert status[2] == 'binary data, not text: byte "\\x00" at character 41'
    _, status = sudoku_bulk.solve([lines[0][:35]], box="2x3", return_status=True, on_error="ignore")
    assert status == ["35 characters: expected 36 cells for 6x6 grids"]
    with pytest.raises(ValueError, match=r"^row 1 \(puzzles\[0\]\): 80 characters"):
        sudoku_bulk.solve([lines[0][:80]], on_error="raise")
    # pyarrow: the same rows, and chunks that each hold only a bad row.
    arr = pa.array([nul, lines[1], lines[2][:80]])
    out, status = sudoku_bulk.solve(arr, return_status=True)
    assert out.to_pylist()[0] is None and out[2].as_py() is None
    assert check_strings(lines[1:2], [out[1].as_py()]).all()
    chunks = pa.chunked_array([[lines[0]], [lines[1][:80]], [nul]])
    out, status = sudoku_bulk.solve(chunks, return_status=True)
    assert out.num_chunks == 3 and status[1:] == [
        "expected 81 cells, found 80", "cell 41: invalid character '\\x00'"
    ]
    assert check_strings(lines[:1], [out[0].as_py()]).all()


def letters16_only_a_to_g(seed):
    """A 16x16 letters puzzle whose givens are only A-G, and its cells."""
    cells, _ = letter_puzzles(4, 1, 0, seed)
    p = cells[0].copy()
    p[p > 7] = 0
    text = "".join("." if v == 0 else chr(ord("A") + v - 1) for v in p)
    return p, text


def test_format_names_the_symbols():
    p, text = letters16_only_a_to_g(5)
    # Alone, A-G givens read as hex (1-9 then A-G), which also solves the
    # puzzle, in hex digits: format= says they are letters.
    assert set(sudoku_bulk.solve([text])[0]) & set("123456789")
    out = sudoku_bulk.solve([text], format="letters")
    assert set(out[0]) <= set("ABCDEFGHIJKLMNOP")
    assert valid_solutions(p[None], letters_to_cells(out, 16)).all()
    assert sudoku_bulk.count([text], format="letters").tolist() == [2]
    assert sudoku_bulk.check([text], out, format="letters").tolist() == [True]
    # A chunked array is read one way for all chunks: the first chunk shows
    # H-P, so the second, A-G only, is letters too.
    full_cells, full = letter_puzzles(4, 3, 100, 6)
    out = sudoku_bulk.solve(pa.chunked_array([full, [text]]))
    assert valid_solutions(p[None], letters_to_cells([out[3].as_py()], 16)).all()
    with pytest.raises(ValueError, match="format must be one of"):
        sudoku_bulk.solve([text], format="hex")
    with pytest.raises(ValueError, match="format= applies to string"):
        sudoku_bulk.solve(p[None], format="letters")


def numbers_to_cells(lines):
    return np.array([[int(t) for t in s.split()] for s in lines], dtype=np.uint8)


def test_grids_past_36_are_numbers_both_ways():
    """generate writes 38x38 puzzles as numbers (0 blank); solve reads them
    back, from a list and from pyarrow, and answers in numbers."""
    side = 38
    text = sudoku_bulk.generate(3, size=side, seed=2, clues=side * side - 30)
    cells = numbers_to_cells(text)
    arr = sudoku_bulk.generate(3, size=side, seed=2, clues=side * side - 30, as_array=True)
    assert cells.tolist() == arr.tolist()
    for got in (sudoku_bulk.solve(text), sudoku_bulk.solve(pa.array(text)).to_pylist()):
        assert valid_solutions(cells, numbers_to_cells(got), 2, 19).all()
    assert sudoku_bulk.count(text).tolist() == [1, 1, 1]
    # A 9x9 puzzle as a line of numbers too, with format= or without.
    nine = [" ".join(str(v) for v in row) for row in to_cells(read_lines("17_clue_sub.txt", 3))]
    for fmt in (None, "numbers"):
        out = sudoku_bulk.solve(nine, format=fmt)
        assert valid_solutions(numbers_to_cells(nine), numbers_to_cells(out)).all()
    _, status = sudoku_bulk.solve(["." * 81], format="numbers", return_status=True, on_error="ignore")
    assert status == ["81 characters, not numbers separated by spaces or commas as the format given asks"]


def test_all_null_and_empty_inputs_are_rows_not_errors():
    """All-null input is rows of nulls with on_error="ignore" (by default
    every row bad raises); empty input is no rows, never an error."""
    pd = pytest.importorskip("pandas")
    for x in [pd.Series([None, None]), pd.Series([np.nan, np.nan]), pa.array([None, None])]:
        with pytest.raises(ValueError, match=r"all 2 rows are bad; the first, row 1 \((index 0|puzzles\[0\])\): null: no puzzle"):
            sudoku_bulk.solve(x)
        out, status = sudoku_bulk.solve(x, return_status=True, on_error="ignore")
        assert len(out) == 2 and status == ["null: no puzzle"] * 2
        assert list(pd.Series(out).isna()) == [True, True]
    for x in [pd.Series([], dtype=object), pa.array([])]:
        assert len(sudoku_bulk.solve(x)) == 0
        assert sudoku_bulk.count(x).tolist() == []


def test_answers_keep_the_input_type(lines):
    pd = pytest.importorskip("pandas")
    p = lines[:20] + [None]
    # string_view is pyarrow 16 and later (the package takes 14).
    views = [pa.string_view()] if hasattr(pa, "string_view") else []
    for t in views + [pa.dictionary(pa.int32(), pa.string())]:
        arr = pa.array(p, pa.string()).cast(t)
        out = sudoku_bulk.solve(arr)
        assert out.type == t
        got = out.cast(pa.string()).to_pylist()
        assert got[20] is None and check_strings(lines[:20], got[:20]).all()
    for dtype in ("string[pyarrow]", "string[python]", "category"):
        s = pd.Series(p, dtype=dtype)
        out = sudoku_bulk.solve(s)
        assert str(out.dtype) == str(pd.Series(["x"], dtype=dtype).dtype)
        assert out.isna().tolist() == [False] * 20 + [True]
        assert check_strings(lines[:20], out[:20].astype(str).tolist()).all()


def test_odd_strings_are_bad_rows_and_never_votes(lines):
    sixteen = sudoku_bulk.generate(3, seed=9, size=16)
    # Empty, blank and comment-only strings are no puzzle and no vote for
    # the default 9x9: the 16x16 rows are the layout.
    out, status = sudoku_bulk.solve(["", "  ", "# note", ""] + sixteen, return_status=True)
    assert status[:4] == ["expected 256 cells, found 0", "expected 256 cells, found 0",
                          "expected 256 cells, found 1", "expected 256 cells, found 0"]
    assert valid_solutions(letters_to_cells(sixteen, 16), letters_to_cells(out[4:], 16)).all()
    # A bare carriage return ends a line too: two puzzles are a bad row,
    # never the first one's answer.
    _, status = sudoku_bulk.solve([lines[0] + "\r" + lines[1], lines[2]], return_status=True)
    assert status == ["a line break at character 82: a record holds one puzzle on one line", None]
    # A lone surrogate (surrogateescape-decoded bytes) is that row's
    # problem, not a UnicodeEncodeError for the call.
    odd = lines[0][:40] + "\udcff" + lines[0][41:]
    out, status = sudoku_bulk.solve([lines[1], odd], return_status=True)
    assert out[1] is None and status[1] == "cell 41: invalid character '\\xef'"
    assert check_strings(lines[1:2], out[:1]).all()
    assert sudoku_bulk.count([odd, lines[1]]).tolist() == [-1, 1]


def test_box_picks_the_strings_of_its_size(lines):
    six = sudoku_bulk.generate(2, seed=3, box="3x2")
    # Only strings of the box's size vote; the others are bad rows, as
    # with the command's --box.
    out, status = sudoku_bulk.solve(lines[:3] + six, box="3x2", return_status=True)
    assert status[:3] == ["expected 36 cells, found 81"] * 3 and status[3:] == [None, None]
    cells = lambda t: np.array([[0 if ch == "." else int(ch) for ch in s] for s in t])
    assert valid_solutions(cells(six), cells(out[3:]), 3, 2).all()
    # No string of its size at all: the box is the mistake, and says so.
    with pytest.raises(ValueError, match=r"box=3x2 asks for 6x6 grids \(36 cells\), the strings hold 81"):
        sudoku_bulk.solve(lines[:3], box="3x2")
