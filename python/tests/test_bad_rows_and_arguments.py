"""Nothing fails silently: bad rows warn with their count and first reason
(or raise when every row is bad), generate warns about off-target puzzles,
and every argument is type-checked as the stubs say."""

import warnings

import numpy as np
import pytest

import sudoku_bulk
from helpers import read_lines, to_cells, valid_solutions


@pytest.fixture(scope="module")
def lines():
    return read_lines("17_clue_sub.txt", 30)


def test_bad_rows_warn_with_count_and_first_reason(lines):
    p = [lines[0], lines[1][:80], lines[2], None]
    with pytest.warns(UserWarning, match=r"^2 of 4 rows are bad \(no answer.*\); the first, "
                      r"row 2 \(puzzles\[1\]\): expected 81 cells, found 80\. return_status=True"):
        out = sudoku_bulk.solve(p)
    assert out[1] is None and out[3] is None
    assert valid_solutions(to_cells([lines[0], lines[2]]), to_cells([out[0], out[2]])).all()
    cells = to_cells(lines[:3]).astype(np.int8)
    cells[2, 0] = cells[2, 1] = 5  # clashing givens in row 0 of the grid
    with pytest.warns(UserWarning, match=r"^1 of 3 rows are bad \(counted -1\); the first, row 3 \(puzzles\[2\]\): duplicate given 5"):
        assert sudoku_bulk.count(cells).tolist() == [1, 1, -1]
    with pytest.warns(UserWarning, match=r"1 of 3 rows are bad \(graded -1 and None\)"):
        guesses, levels = sudoku_bulk.grade(cells)
    assert levels[2] is None and guesses[2] == -1
    # check: a wrong solution is the answer False, not a bad row; a puzzle
    # that cannot be checked is.
    answers = sudoku_bulk.solve(to_cells(lines[:3]))
    wrong = answers.copy()
    wrong[0, [0, 1]] = wrong[0, [1, 0]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sudoku_bulk.check(to_cells(lines[:3]), wrong).tolist() == [False, True, True]
        # on_error="ignore": marked, silent.
        out, status = sudoku_bulk.solve(p, on_error="ignore", return_status=True)
        assert status[1] == "expected 81 cells, found 80" and out[1] is None
        assert sudoku_bulk.count(cells, on_error="ignore").tolist() == [1, 1, -1]
    with pytest.warns(UserWarning, match=r"1 of 3 rows are bad \(checked False\); the first, row 3 \(puzzles\[2\]\): duplicate"):
        assert sudoku_bulk.check(cells, answers.astype(np.int8)).tolist() == [True, True, False]


def test_all_bad_input_raises(lines):
    # A blank written as -1: every row bad (was all zeros, no word).
    minus = to_cells(lines[:4]).astype(np.int8)
    minus[minus == 0] = -1
    with pytest.raises(ValueError, match=r"^no puzzle could be used: all 4 rows are bad; the first, "
                       r"row 1 \(puzzles\[0\]\): cell 1: value -1 is not in 0\.\.=9"):
        sudoku_bulk.solve(minus)
    # 80-character strings (was all None, no word).
    with pytest.raises(ValueError, match=r"all 3 rows are bad; the first, row 1 \(puzzles\[0\]\): 80 characters"):
        sudoku_bulk.solve([l[:80] for l in lines[:3]])
    with pytest.raises(ValueError, match="all 4 rows are bad"):
        sudoku_bulk.count(minus)
    # Empty input is not bad input; on_error="ignore" returns the marks.
    assert sudoku_bulk.solve([]) == []
    assert (sudoku_bulk.solve(minus, on_error="ignore") == 0).all()


def test_pandas_bad_rows_are_named_by_label(lines):
    pd = pytest.importorskip("pandas")
    s = pd.Series([lines[0], "x" * 81, lines[1]], index=[10, 20, 30])
    with pytest.warns(UserWarning, match=r"the first, row 2 \(index 20\): cell 1: invalid character 'x'"):
        sudoku_bulk.solve(s)
    with pytest.raises(ValueError, match=r"^row 2 \(index 20\): cell 1"):
        sudoku_bulk.solve(s, on_error="raise")


@pytest.mark.parametrize(
    "call,err,match",
    [
        # Was taken as true (a non-empty string).
        (lambda p: sudoku_bulk.solve(p, unique="false"), TypeError, r"^unique must be True or False, not 'false'"),
        (lambda p: sudoku_bulk.solve(p, return_status=1), TypeError, "return_status must be True or False"),
        # Was OverflowError from the conversion.
        (lambda p: sudoku_bulk.solve(p, threads=2**70), ValueError, r"^threads must be an int from 1 to 2\*\*63-1"),
        (lambda p: sudoku_bulk.solve(p, threads=2.0), TypeError, "threads must be an int or None, not float"),
        (lambda p: sudoku_bulk.solve(p, on_error=None), TypeError, "on_error must be one of"),
        (lambda p: sudoku_bulk.solve(p, on_error="skip"), ValueError, "on_error must be one of 'mark', 'raise', 'ignore', not 'skip'"),
        (lambda p: sudoku_bulk.solve(p, format=1), TypeError, "format must be one of"),
        (lambda p: sudoku_bulk.count(p, limit="2"), TypeError, "limit must be an int, not str"),
        (lambda p: sudoku_bulk.count(p, limit=2**70), ValueError, "limit must be in"),
        (lambda p: sudoku_bulk.check(p, p, threads=2**64), ValueError, "threads must be"),
        (lambda p: sudoku_bulk.grade(p, on_error=True), TypeError, "on_error must be one of"),
        (lambda p: sudoku_bulk.generate("3"), TypeError, "n must be an int, not str"),
        (lambda p: sudoku_bulk.generate(1, seed=1.5), TypeError, "seed must be an int"),
        (lambda p: sudoku_bulk.generate(1, size="9"), TypeError, "size must be an int"),
        (lambda p: sudoku_bulk.generate(1, clues="30"), TypeError, "clues must be an int"),
        (lambda p: sudoku_bulk.generate(1, difficulty=3), TypeError, "difficulty must be one of"),
        (lambda p: sudoku_bulk.generate(1, symmetry=None), TypeError, "symmetry must be one of"),
        (lambda p: sudoku_bulk.generate(1, as_array="yes"), TypeError, "as_array must be True or False"),
        (lambda p: sudoku_bulk.generate(1, threads=2**70), ValueError, "threads must be an int from 1"),
    ],
)
def test_arguments_are_type_checked_as_the_stubs_say(lines, call, err, match):
    with pytest.raises(err, match=match):
        call(to_cells(lines[:2]))


def test_numpy_booleans_and_ints_are_accepted(lines):
    p = to_cells(lines[:2])
    out = sudoku_bulk.solve(p, unique=np.bool_(True), threads=np.int64(1))
    assert valid_solutions(p, out).all()
    assert sudoku_bulk.count(p, limit=np.uint8(3)).tolist() == [1, 1]


def test_generate_off_target_warns_with_the_count():
    """difficulty= a level the attempts rarely reach: the nearest puzzles
    come back with a warning naming how many missed (the command's "off
    target"); the levels in it are those grade() gives them."""
    with pytest.warns(UserWarning, match=r"^(\d+) of 6 puzzles are off target: difficulty='extreme'") as rec:
        p = sudoku_bulk.generate(6, seed=4, size=4, difficulty="extreme")
    off = int(str(rec[0].message).split()[0])
    _, levels = sudoku_bulk.grade(p)
    assert off == sum(level != "extreme" for level in levels) and off > 0
    assert f"easy {levels.count('easy')}," in str(rec[0].message)
    # On target: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sudoku_bulk.generate(6, seed=4, size=4, difficulty="easy")


def test_absurd_generate_counts_are_refused_before_any_work():
    # Was accepted: memory grew until SIGTERM.
    for kwargs in (dict(), dict(as_array=True), dict(size=64, clues=4000)):
        with pytest.raises(ValueError, match=r"^generate\(1099511627776\) would need about .* GiB .*sudoku-bulk generate -n"):
            sudoku_bulk.generate(2**40, **kwargs)
