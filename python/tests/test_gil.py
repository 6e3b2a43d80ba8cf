"""solve() releases the GIL: a Python thread keeps running while a large
solve works on another core."""

import threading
import time

import numpy as np

import sudoku_bulk
from helpers import read_lines, to_cells


def spin_rate(seconds):
    """Loop iterations per second of the spinning thread on its own."""
    n, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        n += 1
    return n / seconds


def test_python_thread_runs_during_solve():
    hard = to_cells(read_lines("forum_hardest_1106.txt"))
    # Enough hard puzzles for a solve of a good fraction of a second on one
    # thread (the other core is left to the spinning thread).
    reps = 1
    start = time.perf_counter()
    sudoku_bulk.solve(hard, threads=1)
    one = time.perf_counter() - start
    reps = max(1, int(np.ceil(0.6 / max(one, 1e-3))))
    puzzles = np.tile(hard, (reps, 1))

    alone = spin_rate(0.2)
    stop = threading.Event()
    stamps = []

    def spin():
        n = 0
        while not stop.is_set():
            n += 1
            if n % 1000 == 0:
                stamps.append(time.perf_counter())

    t = threading.Thread(target=spin)
    t.start()
    time.sleep(0.05)
    begin = time.perf_counter()
    out = sudoku_bulk.solve(puzzles, threads=1)
    end = time.perf_counter()
    stop.set()
    t.join()
    assert (out != 0).all()
    inside = [s for s in stamps if begin < s < end]
    # With the GIL held for the whole native call the thread would make no
    # progress between entering and leaving it (a few ms of conversion at
    # most); released, it spins at a good share of its solo rate.
    spins = 1000 * len(inside)
    assert end - begin > 0.2
    assert spins > 0.2 * alone * (end - begin), (spins, alone, end - begin)


def _child_solve(puzzles, queue):
    queue.put(sudoku_bulk.solve(puzzles, threads=2))


def test_solve_in_a_forked_child_after_the_parent_solved():
    """The parent's thread pool does not survive fork(); the child must build
    its own rather than wait forever on the parent's."""
    import multiprocessing

    puzzles = to_cells(read_lines("17_clue_sub.txt", 200))
    parent = sudoku_bulk.solve(puzzles, threads=2)
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_solve, args=(puzzles, queue))
    child.start()
    got = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert (got == parent).all()


def test_an_array_written_during_solve_never_reaches_the_solver_unchecked():
    """With the GIL released, another Python thread may write the input array
    while it is read. Each row is copied, then the copy checked, so a value
    past the side is a bad row: no panic, no answer breaking its row's
    givens as read. (The first build checked the array, then copied it: a
    value written in between reached the solver and panicked it.)"""
    p = np.zeros((2000, 81), np.uint8)
    flat = p.reshape(-1)
    idx = np.random.default_rng(0).integers(0, p.size, 4096)
    stop = threading.Event()

    def writer():
        while not stop.is_set():
            flat[idx] = 200
            flat[idx] = 0

    t = threading.Thread(target=writer)
    t.start()
    try:
        for _ in range(100):
            out, status = sudoku_bulk.solve(p, threads=1, return_status=True, on_error="ignore")
            for row, why in enumerate(status):
                if why is None:
                    assert sorted(out[row][:9]) == list(range(1, 10))
                else:
                    assert why.endswith("is not in 0..=9"), why
    finally:
        stop.set()
        t.join()
