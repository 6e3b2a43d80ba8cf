"""Ctrl-C reaches the native analyses: a child process busy in canon,
dedupe or rate gets SIGINT and raises KeyboardInterrupt within a second or
two (the workers stop between rows), then canonicalises again normally."""

import textwrap

import pytest

from helpers import interrupt_child

CHILD = textwrap.dedent(
    """
    import sys, time
    import numpy as np, sudoku_bulk
    from helpers import read_lines, to_cells
    clues = to_cells(read_lines("17_clue_sub.txt"))
    # Empty grids are the slow case of canon (every transform is an
    # automorphism: 1.5 ms each on one thread): 20k take 15 s on 2 threads.
    grids = np.zeros((20_000, 81), dtype=np.uint8)
    # 1M 17-clue puzzles: about a minute of rating on 2 threads.
    many = np.tile(clues, (200, 1))
    calls = {
        "canon": lambda: sudoku_bulk.canon(grids, threads=2),
        "dedupe": lambda: sudoku_bulk.dedupe(grids, threads=2),
        "rate": lambda: sudoku_bulk.rate(many, threads=2),
    }
    call = calls[sys.argv[1]]
    print("calling", flush=True)
    start = time.monotonic()
    try:
        call()
        print("finished", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {time.monotonic() - start:.2f} s", flush=True)
    # The pool is still usable after an interrupted call.
    g = sudoku_bulk.canon(clues[:5])
    print("again", int(((g != 0).sum(axis=1) == 17).all()), flush=True)
    """
)


@pytest.mark.parametrize("kind", ["canon", "dedupe", "rate"])
def test_ctrl_c_stops_an_analysis_within_a_second(kind):
    lines, took = interrupt_child(CHILD, kind, timeout=30)
    assert lines[0].startswith("interrupted after"), lines
    assert lines[1] == "again 1"
    # Within a second, plus a generous margin for a busy 2-core machine.
    assert took < 3, (took, lines)
