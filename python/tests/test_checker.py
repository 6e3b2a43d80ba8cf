"""The independent checker itself must catch what it is there to catch."""

import numpy as np

from helpers import box_grid, count_naive, pattern_grid, valid_solutions


def test_checker_rejects_bad_grids():
    """The independent checker itself: a valid grid passes; a swapped pair,
    a changed given and a zero cell each fail."""
    g = pattern_grid(3).reshape(1, 81)
    assert valid_solutions(g, g).all()
    bad = g.copy()
    bad[0, [0, 1]] = bad[0, [1, 0]]
    assert not valid_solutions(np.zeros_like(g), bad).any()
    p = np.zeros_like(g)
    p[0, 5] = g[0, 5] % 9 + 1
    assert not valid_solutions(p, g).any()
    z = g.copy()
    z[0, 40] = 0
    assert not valid_solutions(np.zeros_like(g), z).any()


def test_checker_uses_the_box_shape():
    """A grid of 3x2 boxes (3 rows tall) passes with box 3x2 and fails with
    the usual 2x3 (the default for 6x6); a 4x3 one likewise for 12x12."""
    rng = np.random.default_rng(0)
    for h, w in [(3, 2), (4, 3), (4, 2)]:
        g = box_grid(h, w).reshape(1, -1)
        assert valid_solutions(g, g, h, w).all()
        assert not valid_solutions(g, g, w, h).any()
        shuffled = box_grid(h, w, rng).reshape(1, -1)
        assert valid_solutions(shuffled, shuffled, h, w).all()
    assert not valid_solutions(box_grid(3, 2).reshape(1, 36), box_grid(3, 2).reshape(1, 36)).any()


def test_naive_counter():
    """The naive counter: 288 solutions of the empty 4x4 grid (a known
    count), 1 for a full grid, 0 for clashing givens, and the limit."""
    assert count_naive(np.zeros(16, dtype=np.uint8), 2, 2) == 288
    assert count_naive(np.zeros(16, dtype=np.uint8), 2, 2, limit=5) == 5
    g = box_grid(3, 2).reshape(-1)
    assert count_naive(g, 3, 2) == 1
    assert count_naive(g, 2, 3) == 0
    # Two cells of a row blanked: each column misses one value, so still 1.
    p = g.copy()
    p[:2] = 0
    assert count_naive(p, 3, 2) == 1
