"""NumPy arrays in, arrays of the same shape and dtype out; every answer
checked by the NumPy-only checker in helpers.py."""

import os

import numpy as np
import pytest

import sudoku_bulk
from helpers import pattern_grid, read_lines, relabel, to_cells, valid_solutions

DTYPES = [np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64]

# These tests give bad rows on purpose and read them from the results; the
# warning about them is tested in test_bad_rows_and_arguments.py.
pytestmark = pytest.mark.filterwarnings("ignore:.* rows are bad:UserWarning")


@pytest.fixture(scope="module")
def puzzles():
    lines = read_lines("17_clue_sub.txt", 300) + read_lines("forum_hardest_1106.txt", 100)
    return to_cells(lines)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", ["flat", "grid"])
def test_every_dtype_and_shape_keeps_both(puzzles, dtype, shape):
    p = puzzles.astype(dtype)
    if shape == "grid":
        p = p.reshape(-1, 9, 9)
    out = sudoku_bulk.solve(p, threads=2)
    assert out.shape == p.shape and out.dtype == p.dtype
    assert valid_solutions(p, out).all()


def test_non_contiguous_fortran_and_big_endian_inputs(puzzles):
    strided = puzzles[::3]
    assert not strided.flags.c_contiguous
    assert valid_solutions(strided, sudoku_bulk.solve(strided)).all()
    fortran = np.asfortranarray(puzzles[:50])
    assert valid_solutions(fortran, sudoku_bulk.solve(fortran)).all()
    big = puzzles[:50].astype(">i4")
    out = sudoku_bulk.solve(big)
    assert out.dtype == big.dtype and valid_solutions(big, out).all()


def test_input_array_is_not_written(puzzles):
    p = puzzles[:20].copy()
    before = p.copy()
    sudoku_bulk.solve(p)
    assert (p == before).all()


def blanked(grid, rng, blanks):
    p = grid.copy().reshape(-1)
    p[rng.choice(p.size, blanks, replace=False)] = 0
    return p


@pytest.mark.parametrize("box,blanks", [(2, 8), (4, 110), (5, 200)])
def test_other_sizes(box, blanks):
    """4x4, 16x16 and 25x25 grids (flat and square), made from a valid grid
    with random symbols and random blanks, so they are solvable."""
    rng = np.random.default_rng(box)
    side = box * box
    rows = np.stack(
        [blanked(relabel(pattern_grid(box), rng), rng, blanks) for _ in range(12)]
    )
    for p in (rows, rows.reshape(-1, side, side).astype(np.int32)):
        out = sudoku_bulk.solve(p)
        assert out.shape == p.shape and out.dtype == p.dtype
        assert valid_solutions(p, out).all()


def unsolvable_without_clash():
    """Row 1 holds 1-8 and column 9 a 9 lower down: r1c9 has no candidate,
    yet no two givens clash."""
    p = np.zeros(81, dtype=np.uint8)
    p[:8] = np.arange(1, 9)
    p[9 * 4 + 8] = 9
    return p


def test_bad_rows_are_zero_and_reasons_given(puzzles):
    good = puzzles[:6].copy()
    clash = good[0].copy()
    clash[0:2] = [5, 5]
    out_of_range = good[1].copy()
    out_of_range[7] = 10
    p = np.stack([good[0], clash, good[2], unsolvable_without_clash(), out_of_range, good[3]])
    out, status = sudoku_bulk.solve(p, return_status=True)
    assert [s is None for s in status] == [True, False, True, False, False, True]
    assert "duplicate given 5" in status[1]
    assert status[3] == "no solution"
    assert status[4] == "cell 8: value 10 is not in 0..=9"
    assert (out[[1, 3, 4]] == 0).all()
    assert valid_solutions(p[[0, 2, 5]], out[[0, 2, 5]]).all()
    # Negative and huge values in wide dtypes are bad rows, not wrapped.
    wide = good[:3].astype(np.int64)
    wide[0, 3] = -1
    wide[2, 80] = 2**40
    out, status = sudoku_bulk.solve(wide, return_status=True)
    assert status[0] == "cell 4: value -1 is not in 0..=9"
    assert status[1] is None
    assert status[2] == f"cell 81: value {2**40} is not in 0..=9"
    assert (out[[0, 2]] == 0).all() and valid_solutions(wide[1:2], out[1:2]).all()
    # A u64 past i64::MAX is named as the array holds it.
    big = good[:1].astype(np.uint64)
    big[0, 3] = 2**64 - 1
    _, status = sudoku_bulk.solve(big, return_status=True, on_error="ignore")
    assert status == [f"cell 4: value {2**64 - 1} is not in 0..=9"]


def test_on_error_raise_names_first_bad_index(puzzles):
    p = puzzles[:10].copy()
    p[6] = unsolvable_without_clash()
    p[8, :2] = [3, 3]
    with pytest.raises(ValueError, match=r"^row 7 \(puzzles\[6\]\): no solution$"):
        sudoku_bulk.solve(p, on_error="raise")
    # Without bad rows it returns normally.
    assert valid_solutions(puzzles[:5], sudoku_bulk.solve(puzzles[:5], on_error="raise")).all()


def test_unique_marks_puzzles_with_several_solutions(puzzles):
    p = np.stack([puzzles[0], np.zeros(81, dtype=np.uint8)])
    out, status = sudoku_bulk.solve(p, return_status=True)
    assert status == [None, None] and valid_solutions(p, out).all()
    out, status = sudoku_bulk.solve(p, unique=True, return_status=True)
    assert status == [None, "multiple solutions"]
    assert (out[1] == 0).all()


def test_count_and_check(puzzles):
    p = np.stack([puzzles[0], np.zeros(81, np.uint8), unsolvable_without_clash(), puzzles[1]])
    p[3, :2] = [4, 4]
    counts = sudoku_bulk.count(p)
    assert counts.dtype == np.int64
    assert counts.tolist() == [1, 2, 0, -1]
    assert sudoku_bulk.count(p, limit=50).tolist() == [1, 50, 0, -1]
    counts, status = sudoku_bulk.count(p, return_status=True)
    assert status[:3] == [None, None, None] and "duplicate given 4" in status[3]

    s = sudoku_bulk.solve(puzzles[:4])
    assert sudoku_bulk.check(puzzles[:4], s).tolist() == [True] * 4
    wrong = s.copy()
    wrong[0, [0, 1]] = wrong[0, [1, 0]]  # breaks rows/columns (and maybe givens)
    wrong[1, 0] = 0  # a hole
    g = np.flatnonzero(puzzles[2])[0]
    wrong[2] = relabel(s[2].reshape(9, 9), np.random.default_rng(0)).reshape(81)
    if (wrong[2] == s[2]).all():  # the identity relabelling: force a changed given
        wrong[2] = (s[2] % 9) + 1
    assert wrong[2, g] != puzzles[2, g]
    result = sudoku_bulk.check(puzzles[:4], wrong)
    assert result.dtype == np.bool_
    assert result.tolist() == [False, False, False, True]
    assert result.tolist() == valid_solutions(puzzles[:4], wrong).tolist()


@pytest.mark.parametrize(
    "bad,err,match",
    [
        (np.zeros((3, 81), dtype=np.float64), TypeError, "integer dtype"),
        (np.zeros((3, 80), dtype=np.uint8), ValueError, "rows of 80 cells"),
        (np.zeros((3, 9, 8), dtype=np.uint8), ValueError, r"shape \(3, 9, 8\)"),
        (np.zeros((9, 9), dtype=np.uint8), ValueError, "rows of 9 cells"),
        (np.zeros(81, dtype=np.uint8), ValueError, "1 dimension"),
        (np.array([[1, 2], [3]], dtype=object), TypeError, "object array"),
        ("1" * 81, TypeError, "collection of puzzles"),
        ({1: 2}, TypeError, "NumPy integer array"),
        ([1, 2, 3], TypeError, r"puzzles\[0\] is int"),
    ],
)
def test_usage_errors_are_exceptions(bad, err, match):
    with pytest.raises(err, match=match):
        sudoku_bulk.solve(bad)


def test_argument_errors(puzzles):
    with pytest.raises(ValueError, match="on_error"):
        sudoku_bulk.solve(puzzles[:2], on_error="skip")
    with pytest.raises(ValueError, match="threads"):
        sudoku_bulk.solve(puzzles[:2], threads=0)
    with pytest.raises(ValueError, match="limit"):
        sudoku_bulk.count(puzzles[:2], limit=0)
    with pytest.raises(ValueError, match="shape"):
        sudoku_bulk.check(puzzles[:2], np.zeros((2, 256), np.uint8))
    with pytest.raises(ValueError, match="3 solutions for 2 puzzles"):
        sudoku_bulk.check(puzzles[:2], puzzles[:3])


def test_thread_counts_give_identical_answers(puzzles):
    one = sudoku_bulk.solve(puzzles, threads=1)
    assert (sudoku_bulk.solve(puzzles, threads=2) == one).all()
    assert (sudoku_bulk.solve(puzzles) == one).all()


def _threads_now():
    with open("/proc/self/status") as f:
        return int(next(l for l in f if l.startswith("Threads:")).split()[1])


def test_a_huge_thread_count_is_lowered_as_the_cli_does(puzzles):
    one = sudoku_bulk.solve(puzzles, threads=1)
    before = _threads_now()
    # Was an attempt to start 2**40 threads (the machine ground to a halt).
    assert (sudoku_bulk.solve(puzzles, threads=2**40) == one).all()
    assert (sudoku_bulk.solve(puzzles, threads=2**40 - 1) == one).all()
    cap = 4 * (os.cpu_count() or 1)
    # Both counts share the capped pool: at most one new pool of `cap`.
    assert _threads_now() - before <= cap


def test_empty_input():
    out = sudoku_bulk.solve(np.zeros((0, 81), np.uint8))
    assert out.shape == (0, 81)
    assert sudoku_bulk.count(np.zeros((0, 9, 9), np.int32)).shape == (0,)
    assert sudoku_bulk.solve([]) == []
