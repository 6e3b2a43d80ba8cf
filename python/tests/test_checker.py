"""The independent checker itself must catch what it is there to catch."""

import numpy as np

from helpers import pattern_grid, valid_solutions


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
