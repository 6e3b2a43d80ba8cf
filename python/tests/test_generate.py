"""generate() is byte-equal to the CLI's `generate` for the same seed, and
grade() to its `solve --stats`; generated puzzles are unique and solvable."""

import subprocess

import numpy as np
import pytest

import sudoku_bulk
from helpers import read_lines, to_cells, valid_solutions


def cli_lines(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True)
    return out.stdout.decode().splitlines()


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (["-n", "500", "--seed", "7"], dict(seed=7)),
        (["-n", "300", "--seed", "1", "-j", "1"], dict(seed=1, threads=2)),
        (["-n", "60", "--seed", "3", "--clues", "26", "--symmetry", "rotate180"],
         dict(seed=3, clues=26, symmetry="rotate180")),
        (["-n", "40", "--seed", "11", "--difficulty", "hard"], dict(seed=11, difficulty="hard")),
        (["-n", "4", "--seed", "2", "--size", "16"], dict(seed=2, size=16)),
        # Rectangular boxes: 6x6 as 2x3, 12x12 as 3x4 (letters A-L).
        (["-n", "30", "--seed", "4", "--size", "6"], dict(seed=4, size=6)),
        (["-n", "5", "--seed", "6", "--size", "12"], dict(seed=6, size=12)),
    ],
)
def test_generate_equals_cli_bytes(cli, args, kwargs):
    n = int(args[1])
    want = cli_lines(cli, "generate", *args)
    got = sudoku_bulk.generate(n, **kwargs)
    assert len(want) == n
    assert got == want


def test_generated_puzzles_are_unique_and_solvable():
    p = sudoku_bulk.generate(300, seed=5, as_array=True)
    assert p.shape == (300, 81) and p.dtype == np.uint8
    assert len({row.tobytes() for row in p}) == 300
    assert (sudoku_bulk.count(p) == 1).all()
    assert valid_solutions(p, sudoku_bulk.solve(p)).all()
    # The array and the strings are the same puzzles.
    assert (to_cells(sudoku_bulk.generate(300, seed=5)) == p).all()


@pytest.mark.parametrize("size,h,w", [(6, 2, 3), (8, 2, 4), (12, 3, 4)])
def test_rectangular_boxes_solve_and_count(size, h, w):
    # Rectangular boxes end to end: generated puzzles (arrays and strings)
    # are unique by count() and solve() answers are valid h x w box grids.
    p = sudoku_bulk.generate(20, size=size, seed=9, as_array=True)
    assert p.shape == (20, size * size)
    assert (sudoku_bulk.count(p) == 1).all()
    assert valid_solutions(p, sudoku_bulk.solve(p), h, w).all()
    strings = sudoku_bulk.generate(20, size=size, seed=9)
    answers = sudoku_bulk.solve(strings)
    assert len(answers) == 20 and all(len(a) == size * size for a in answers)
    # A box shape check that can fail: the answers break the transposed boxes.
    assert not valid_solutions(p, sudoku_bulk.solve(p), w, h).all()


def test_big_grids_without_clues_warn_as_the_command_notes():
    # n=0: the warning comes before any (minutes-long) work.
    with pytest.warns(UserWarning, match=r"minimal 36x36 puzzles take minutes.*clues=803"):
        assert sudoku_bulk.generate(0, size=36) == []
    with pytest.warns(UserWarning, match="clues="):
        sudoku_bulk.generate(0, box="7x7")
    # From 27x27 (box 3x9) up, where a minimal one took 49 s; 35x35 too.
    with pytest.warns(UserWarning, match=r"minimal 27x27 .*clues=451"):
        sudoku_bulk.generate(0, size=27)
    with pytest.warns(UserWarning, match=r"minimal 35x35 .*clues=759"):
        sudoku_bulk.generate(0, box="5x7")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sudoku_bulk.generate(0, size=36, clues=803)
        sudoku_bulk.generate(0, size=25)
        sudoku_bulk.generate(0, size=26)


def test_generate_argument_errors():
    # 7 is prime: no box of at least 2x2 tiles a 7x7 grid; 65 is too big.
    for size in (7, 65, 3):
        with pytest.raises(ValueError, match="size"):
            sudoku_bulk.generate(1, size=size)
    with pytest.raises(ValueError, match="difficulty"):
        sudoku_bulk.generate(1, difficulty="tricky")
    with pytest.raises(ValueError, match="n must be"):
        sudoku_bulk.generate(-1)
    # Out of range: a ValueError naming the argument, never a bare
    # OverflowError from the conversion (wrong types: TypeError, see
    # test_bad_rows_and_arguments.py).
    for kwargs, name in [
        (dict(n=2**64), "n"),
        (dict(size=-9), "size"),
        (dict(clues=10**30), "clues"),
        (dict(clues=82), "clues"),
        (dict(difficulty="tricky"), "difficulty"),
        (dict(symmetry="spiral"), "symmetry"),
    ]:
        n = kwargs.pop("n", 1)
        with pytest.raises(ValueError, match=f"^{name} must be"):
            sudoku_bulk.generate(n, **kwargs)


def test_grade_matches_cli_stats(cli, tmp_path):
    lines = read_lines("sample.txt")[:150] + read_lines("forum_hardest_1106.txt", 50)
    lines = [l for l in lines if len(l) == 81]
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    rows = cli_lines(cli, "solve", "--stats", str(f))
    guesses, levels = sudoku_bulk.grade(lines)
    assert len(rows) == len(lines)
    for k, row in enumerate(rows):
        if row.startswith("error:"):
            assert guesses[k] == -1 and levels[k] is None
            continue
        _, g, level = row.split()
        assert (int(g), level) == (int(guesses[k]), levels[k]), k
    # The same from an array.
    g2, l2 = sudoku_bulk.grade(to_cells(lines))
    assert g2.tolist() == guesses.tolist() and l2 == levels
