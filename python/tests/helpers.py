"""Helpers of the Python tests: the repository's data, and an answer
checker written with NumPy alone (it never calls sudoku_bulk), so no answer
is judged by the engine that produced it."""

import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


def read_lines(name, limit=None):
    """One-line puzzles of data/NAME (comments and blank lines skipped)."""
    out = []
    for line in (DATA / name).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line.split()[0])
            if limit is not None and len(out) == limit:
                break
    return out


def to_cells(lines):
    """9x9 one-line strings ('.' or '0' blank) -> (N, 81) uint8."""
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(len(lines), 81)
    cells = raw.astype(np.int16) - ord("0")
    cells[raw == ord(".")] = 0
    assert ((cells >= 0) & (cells <= 9)).all()
    return cells.astype(np.uint8)


def letters_to_cells(lines, side):
    """Letter-coded (A = 1, '.' blank) strings -> (N, side*side) uint8."""
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(len(lines), side * side)
    cells = raw.astype(np.int16) - ord("A") + 1
    cells[raw == ord(".")] = 0
    return cells.astype(np.uint8)


def valid_solutions(puzzles, answers, box_rows=None, box_cols=None):
    """Per row: is `answers` a full valid grid that keeps the givens of
    `puzzles`? Both (N, cells) or (N, side, side), any integer dtype. Boxes
    are square unless `box_rows` x `box_cols` (height x width) is given."""
    p = np.asarray(puzzles).astype(np.int64)
    a = np.asarray(answers).astype(np.int64)
    n = p.shape[0]
    p = p.reshape(n, -1)
    a = a.reshape(n, -1)
    cells = p.shape[1]
    side = int(round(cells ** 0.5))
    h = box_rows or int(round(side ** 0.5))
    w = box_cols or side // h
    assert h * w == side and side * side == cells
    want = np.arange(1, side + 1)
    g = a.reshape(n, side, side)
    # (band, row in band, stack, column in stack) -> one row per box.
    boxes = g.reshape(n, side // h, h, side // w, w).transpose(0, 1, 3, 2, 4).reshape(n, side, side)
    ok = ((a >= 1) & (a <= side)).all(axis=1)
    ok &= ((p == 0) | (p == a)).all(axis=1)
    for units in (g, g.transpose(0, 2, 1), boxes):
        ok &= (np.sort(units, axis=2) == want).all(axis=(1, 2))
    return ok


def pattern_grid(box):
    """A valid full grid of box size `box` by the classic shifting pattern."""
    side = box * box
    r = np.arange(side)[:, None]
    c = np.arange(side)[None, :]
    return ((box * (r % box) + r // box + c) % side + 1).astype(np.uint8)


def relabel(grid, rng):
    """`grid` with its symbols permuted at random (still valid)."""
    side = grid.shape[-1]
    perm = np.concatenate([[0], rng.permutation(side) + 1]).astype(np.uint8)
    return perm[grid]
