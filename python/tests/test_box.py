"""box=: rectangular boxes other than the usual ones (6x6 as 3x2, 8x8 as
4x2, 12x12 as 4x3) from NumPy, lists of str, pyarrow and pandas; every
answer checked by the NumPy checker of helpers.py with the same box shape,
counts compared with a naive counter written here, never with the engine."""

import subprocess

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import sudoku_bulk
from helpers import box_grid, cells_to_text, count_naive, text_to_cells, valid_solutions

# 3 rows tall, 2 columns wide: not the usual 2x3 boxes of 6x6 grids.
H, W = 3, 2

# These tests give bad rows on purpose and read them from the results; the
# warning about them is tested in test_bad_rows_and_arguments.py.
pytestmark = pytest.mark.filterwarnings("ignore:.* rows are bad:UserWarning")


def box_puzzles(h, w, count, blanks, seed):
    """`count` (grids, puzzles): random valid h x w box grids, each with
    `blanks` random cells blanked; every grid is invalid under the
    transposed boxes (the usual ones of 6x6, 8x8 ...), so a solver that
    ignored box= could not answer."""
    rng = np.random.default_rng(seed)
    side = h * w
    grids = []
    while len(grids) < count:
        g = box_grid(h, w, rng).reshape(1, -1)
        # Some shuffles of 8x8 grids are valid under 4x2 and 2x4 both.
        if h == w or not valid_solutions(g, g, w, h)[0]:
            grids.append(g[0])
    grids = np.stack(grids)
    assert valid_solutions(grids, grids, h, w).all()
    puzzles = grids.copy()
    for p in puzzles:
        p[rng.choice(side * side, blanks, replace=False)] = 0
    return grids, puzzles


@pytest.fixture(scope="module")
def six():
    return box_puzzles(H, W, 40, 14, seed=32)


@pytest.mark.parametrize("box", ["3x2", (3, 2), "3X2", (np.int64(3), np.int64(2))])
@pytest.mark.parametrize("shape", ["flat", "grid"])
def test_numpy_6x6_with_3x2_boxes(six, box, shape):
    _, p = six
    if shape == "grid":
        p = p.reshape(-1, 6, 6)
    out, status = sudoku_bulk.solve(p, box=box, return_status=True)
    assert out.shape == p.shape and out.dtype == p.dtype
    assert status == [None] * len(p)
    assert valid_solutions(p, out, H, W).all()
    # The same puzzles under the usual 2x3 boxes: no row gets a 3x2 answer.
    usual = sudoku_bulk.solve(p, on_error="ignore")
    assert not valid_solutions(p, usual, H, W).any()


@pytest.mark.parametrize("h,w,blanks", [(4, 2, 24), (2, 4, 24), (4, 3, 50), (5, 2, 40)])
def test_numpy_other_rectangular_boxes(h, w, blanks):
    """8x8 as 4x2 (and its usual 2x4, named explicitly), 12x12 as 4x3, 10x10
    as 5x2, given as "RxC" and as (R, C)."""
    _, p = box_puzzles(h, w, 12, blanks, seed=h * 10 + w)
    for box in (f"{h}x{w}", (h, w)):
        out = sudoku_bulk.solve(p.astype(np.int32), box=box)
        assert out.dtype == np.int32
        assert valid_solutions(p, out, h, w).all()


def test_strings_6x6_with_3x2_boxes(six):
    _, p = six
    text = cells_to_text(p)
    for box in ("3x2", (3, 2)):
        out, status = sudoku_bulk.solve(text + [None], box=box, return_status=True)
        assert isinstance(out, list) and out[-1] is None and status[-1] == "null: no puzzle"
        assert all(isinstance(a, str) and len(a) == 36 for a in out[:-1])
        assert valid_solutions(p, text_to_cells(out[:-1], 6), H, W).all()


def test_strings_12x12_with_4x3_boxes_in_letters():
    _, p = box_puzzles(4, 3, 6, 50, seed=43)
    text = cells_to_text(p)
    assert all(t.replace(".", "").isalpha() for t in text)
    out = sudoku_bulk.solve(text, box=(4, 3))
    assert valid_solutions(p, text_to_cells(out, 12), 4, 3).all()


@pytest.mark.parametrize("large", [False, True])
def test_pyarrow_and_pandas_6x6_with_3x2_boxes(six, large):
    _, p = six
    text = cells_to_text(p)
    t = pa.large_string() if large else pa.string()
    arr = pa.array(text, type=t)
    out = sudoku_bulk.solve(arr, box="3x2")
    assert out.type == t and out.null_count == 0
    assert valid_solutions(p, text_to_cells(out.to_pylist(), 6), H, W).all()
    # Chunked (one call per chunk) and a pandas Series (through pyarrow).
    chunked = pa.chunked_array([text[:15], text[15:]], type=t)
    out = sudoku_bulk.solve(chunked, box=(3, 2))
    assert out.num_chunks == 2
    assert valid_solutions(p, text_to_cells(out.to_pylist(), 6), H, W).all()
    series = pd.Series(text, index=range(100, 100 + len(text)))
    out = sudoku_bulk.solve(series, box="3x2")
    assert list(out.index) == list(series.index)
    assert valid_solutions(p, text_to_cells(out.tolist(), 6), H, W).all()
    counts = sudoku_bulk.count(arr, limit=1000, box="3x2")
    assert counts.tolist() == [count_naive(q, H, W) for q in p]


def test_count_against_a_naive_counter():
    """6x6 puzzles with 3x2 boxes and 12 to 24 blanks, several with more
    than one solution: counts up to a limit equal a plain backtracking
    count, from arrays, strings and pyarrow alike."""
    rng = np.random.default_rng(7)
    puzzles = []
    for blanks in range(12, 25):
        for _ in range(3):
            g = box_grid(H, W, rng).reshape(-1)
            g[rng.choice(36, blanks, replace=False)] = 0
            puzzles.append(g)
    p = np.stack(puzzles)
    want = np.array([count_naive(q, H, W) for q in p])
    assert (want == 1).any() and (want > 5).any()
    limit = 1000
    got = sudoku_bulk.count(p, limit=limit, box="3x2")
    assert got.tolist() == np.minimum(want, limit).tolist()
    assert sudoku_bulk.count(cells_to_text(p), limit=limit, box=(3, 2)).tolist() == got.tolist()
    # The cap: limit=3 stops at 3.
    capped = sudoku_bulk.count(p, limit=3, box=(3, 2))
    assert capped.tolist() == np.minimum(want, 3).tolist()
    # Givens that clash only in a 3x2 box: not a puzzle under 3x2 boxes,
    # a puzzle under the usual 2x3.
    clash = np.zeros((1, 36), dtype=np.uint8)
    clash[0, 0], clash[0, 2 * 6 + 1] = 5, 5  # r1c1, r3c2: one 3x2 box, two 2x3 boxes
    assert count_naive(clash[0], H, W) == 0
    assert sudoku_bulk.count(clash, box="3x2", on_error="ignore").tolist() == [-1]
    assert sudoku_bulk.count(clash).tolist() == [2]


def test_check_uses_the_box(six):
    grids, p = six
    for box in ("3x2", (3, 2)):
        assert sudoku_bulk.check(p, grids, box=box).all()
        assert sudoku_bulk.check(p.reshape(-1, 6, 6), grids.reshape(-1, 6, 6), box=box).all()
        assert sudoku_bulk.check(cells_to_text(p), cells_to_text(grids), box=box).all()
        assert sudoku_bulk.check(
            pa.array(cells_to_text(p)), pa.array(cells_to_text(grids)), box=box
        ).all()
    # The same full grids are no valid answers under the usual 2x3 boxes.
    assert not sudoku_bulk.check(p, grids).any()
    # One cell changed in each answer: invalid (a blank cell, so the givens
    # are kept; the new value repeats one in its row).
    bad = grids.copy()
    for k in range(len(bad)):
        i = int(np.flatnonzero(p[k] == 0)[0])
        bad[k, i] = bad[k, i] % 6 + 1
    assert not valid_solutions(p, bad, H, W).any()
    assert not sudoku_bulk.check(p, bad, box="3x2").any()
    assert not sudoku_bulk.check(cells_to_text(p), cells_to_text(bad), box=(3, 2)).any()
    # Only the changed rows fail.
    mixed = grids.copy()
    mixed[::2] = bad[::2]
    assert sudoku_bulk.check(p, mixed, box="3x2").tolist() == [k % 2 == 1 for k in range(len(p))]


def test_grade_with_box(six):
    _, p = six
    # Every puzzle has a solution under 3x2 boxes, so every row grades.
    guesses, levels = sudoku_bulk.grade(p, box="3x2")
    assert (guesses >= 0).all()
    assert set(levels) <= {"easy", "medium", "hard", "extreme"}
    # Under the usual boxes the givens clash: every row is bad.
    with pytest.raises(ValueError, match=r"all 40 rows are bad; the first, row 1 \(puzzles\[0\]\): duplicate given"):
        sudoku_bulk.grade(p)
    guesses, levels = sudoku_bulk.grade(p, on_error="ignore")
    assert (guesses == -1).all() and levels == [None] * len(p)


def cli_lines(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True)
    return out.stdout.decode().splitlines()


def test_generate_with_box(cli):
    p = sudoku_bulk.generate(20, size=6, box="3x2", seed=4, as_array=True)
    assert p.shape == (20, 36) and p.dtype == np.uint8
    assert len({row.tobytes() for row in p}) == 20
    # Unique under 3x2 boxes, by the naive counter; solved into valid 3x2 grids.
    assert [count_naive(q, H, W, limit=2) for q in p] == [1] * 20
    assert valid_solutions(p, sudoku_bulk.solve(p, box="3x2"), H, W).all()
    # The box alone fixes the size; a tuple is the same box; strings are the
    # same puzzles, and the CLI's `generate --box 3x2` lines.
    assert (sudoku_bulk.generate(20, box=(3, 2), seed=4, as_array=True) == p).all()
    text = sudoku_bulk.generate(20, box="3x2", seed=4)
    assert (text_to_cells(text, 6) == p).all()
    assert text == cli_lines(cli, "generate", "-n", "20", "--seed", "4", "--box", "3x2")
    # 12x12 as 4x3: letters, unique under 4x3 boxes (solve with limit 2).
    q = sudoku_bulk.generate(3, box="4x3", seed=2, as_array=True)
    assert q.shape == (3, 144)
    assert (sudoku_bulk.count(q, box="4x3") == 1).all()
    assert valid_solutions(q, sudoku_bulk.solve(q, box="4x3"), 4, 3).all()
    assert all(len(s) == 144 for s in sudoku_bulk.generate(3, box="4x3", seed=2))


def test_mismatched_box_is_a_value_error(six):
    _, p = six
    msg = r"box=2x5 asks for 10x10 grids \(100 cells\), the rows hold 36 cells"
    with pytest.raises(ValueError, match=msg):
        sudoku_bulk.solve(p, box="2x5")
    with pytest.raises(ValueError, match=msg):
        sudoku_bulk.count(p.reshape(-1, 6, 6), box=(2, 5))
    with pytest.raises(ValueError, match=msg):
        sudoku_bulk.check(p, p, box="2x5")
    text = cells_to_text(p)
    msg = r"box=3x3 asks for 9x9 grids \(81 cells\), the strings hold 36 cells \(6x6\)"
    with pytest.raises(ValueError, match=msg):
        sudoku_bulk.solve(text, box="3x3")
    with pytest.raises(ValueError, match=msg):
        sudoku_bulk.solve(pa.array(text), box=(3, 3))
    with pytest.raises(ValueError, match=msg):
        sudoku_bulk.grade(pd.Series(text), box="3x3")
    with pytest.raises(ValueError, match=r"box=3x2 makes 6x6 grids, not size=9"):
        sudoku_bulk.generate(1, size=9, box="3x2")


@pytest.mark.parametrize(
    "box,error,match",
    [
        ("3y2", ValueError, r'box="3y2": expected ROWSxCOLS'),
        ("3x", ValueError, r'box="3x": expected ROWSxCOLS'),
        ("", ValueError, r'box="": expected ROWSxCOLS'),
        ("1x6", ValueError, r'box="1x6": boxes must be at least 2x2'),
        ("9x9", ValueError, r"at most 64 cells"),
        ((1, 6), ValueError, r"box=\(1, 6\): boxes must be at least 2x2"),
        ((-3, -2), ValueError, r"box=\(-3, -2\)"),
        ((3,), ValueError, r"box=\(3,\): expected \(rows, cols\)"),
        ((3, 2, 1), ValueError, r"expected \(rows, cols\)"),
        (("3", "2"), ValueError, r"expected \(rows, cols\)"),
        (6, TypeError, r"box must be a str such as \"3x2\" or a tuple"),
        ([3, 2], TypeError, r"box must be a str"),
    ],
)
def test_invalid_box(six, box, error, match):
    _, p = six
    with pytest.raises(error, match=match):
        sudoku_bulk.solve(p, box=box)
    with pytest.raises(error, match=match):
        sudoku_bulk.count(cells_to_text(p[:2]), box=box)
    with pytest.raises(error, match=match):
        sudoku_bulk.generate(1, box=box)


def test_usual_box_named_explicitly_equals_default(six):
    """box="2x3" on 6x6 is the default boxes: same answers as no box."""
    rng = np.random.default_rng(5)
    _, p = box_puzzles(2, 3, 10, 14, seed=int(rng.integers(1000)))
    assert (sudoku_bulk.solve(p, box="2x3") == sudoku_bulk.solve(p)).all()
    assert valid_solutions(p, sudoku_bulk.solve(p, box=None), 2, 3).all()


def test_box_with_nothing_to_detect_the_size_from():
    """No strings (or only nulls): the box alone says the size, no error
    about it (only nulls are bad rows, marked with on_error="ignore")."""
    assert sudoku_bulk.solve([], box="3x2") == []
    assert sudoku_bulk.solve([None, None], box=(3, 2), on_error="ignore") == [None, None]
    assert sudoku_bulk.count(pa.array([], type=pa.string()), box="3x2").tolist() == []
    assert sudoku_bulk.solve(np.zeros((0, 6, 6), dtype=np.uint8), box="3x2").shape == (0, 6, 6)


@pytest.mark.parametrize("h,w", [(6, 6), (4, 9)])
def test_36x36_rows_beyond_the_stack_buffers(h, w):
    """36x36 grids (1296 cells a row, past the 25x25 stack buffers) as the
    usual 6x6 boxes and as 4x9: arrays, check, and strings in 0-9A-Z."""
    grids, p = box_puzzles(h, w, 2, 300, seed=36)
    box = (h, w)
    assert valid_solutions(p, sudoku_bulk.solve(p, box=box), h, w).all()
    if h == w:
        assert valid_solutions(p, sudoku_bulk.solve(p.reshape(-1, 36, 36)), h, w).all()
    assert sudoku_bulk.check(p, grids, box=box).all()
    symbols = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    text = ["".join("." if v == 0 else symbols[v - 1] for v in q) for q in p]
    out = sudoku_bulk.solve(text, box=f"{h}x{w}")
    cells = np.array([[symbols.index(c) + 1 for c in a] for a in out])
    assert valid_solutions(p, cells, h, w).all()
