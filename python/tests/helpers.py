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
    # Default: the usual boxes, as square as the divisors allow and wider
    # than tall (6 -> 2x3, 8 -> 2x4, 12 -> 3x4).
    h = box_rows or max(d for d in range(2, int(side ** 0.5) + 1) if side % d == 0)
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


def box_grid(h, w, rng=None):
    """A valid full grid of h x w boxes (h rows tall, w columns wide; side
    h*w) by the shifting pattern; with `rng`, its symbols, the rows within
    each band, the bands, the columns within each stack and the stacks are
    shuffled (each keeps it valid)."""
    side = h * w
    r = np.arange(side)[:, None]
    c = np.arange(side)[None, :]
    g = ((w * (r % h) + r // h + c) % side + 1).astype(np.uint8)
    if rng is None:
        return g
    # Bands are h rows tall (w of them); stacks are w columns wide (h of them).
    rows = np.concatenate([b * h + rng.permutation(h) for b in rng.permutation(w)])
    cols = np.concatenate([s * w + rng.permutation(w) for s in rng.permutation(h)])
    return relabel(g[rows][:, cols], rng)


def count_naive(puzzle, h, w, limit=None):
    """Solutions of one puzzle (flat or square cells, 0 blank) with h x w
    boxes, by plain backtracking over the emptiest cell: slow, only for
    small grids. Stops at `limit` when given; 0 for clashing givens."""
    g = [int(v) for v in np.asarray(puzzle).reshape(-1)]
    side = h * w
    assert len(g) == side * side
    rows = [set() for _ in range(side)]
    cols = [set() for _ in range(side)]
    boxes = [set() for _ in range(side)]

    def box(i):
        r, c = divmod(i, side)
        return (r // h) * h + c // w

    for i, v in enumerate(g):
        if v:
            r, c = divmod(i, side)
            if v in rows[r] or v in cols[c] or v in boxes[box(i)]:
                return 0
            rows[r].add(v)
            cols[c].add(v)
            boxes[box(i)].add(v)
    blanks = [i for i, v in enumerate(g) if v == 0]
    digits = set(range(1, side + 1))
    found = 0

    def search():
        nonlocal found
        best, best_options = None, None
        for i in blanks:
            if g[i] == 0:
                r, c = divmod(i, side)
                options = digits - rows[r] - cols[c] - boxes[box(i)]
                if best is None or len(options) < len(best_options):
                    best, best_options = i, options
                    if len(options) <= 1:
                        break
        if best is None:
            found += 1
            return limit is not None and found >= limit
        r, c = divmod(best, side)
        b = box(best)
        for v in best_options:
            g[best] = v
            rows[r].add(v)
            cols[c].add(v)
            boxes[b].add(v)
            stop = search()
            rows[r].discard(v)
            cols[c].discard(v)
            boxes[b].discard(v)
            g[best] = 0
            if stop:
                return True
        return False

    search()
    return found


def cells_to_text(cells, blank="."):
    """Rows of cells -> one-line strings: digits up to 9x9, letters A.. above
    (as the command writes them)."""
    a = np.asarray(cells)
    a = a.reshape(a.shape[0], -1)
    side = int(round(a.shape[1] ** 0.5))
    base = ord("0") if side <= 9 else ord("A") - 1
    return ["".join(blank if v == 0 else chr(base + int(v)) for v in row) for row in a]


def text_to_cells(lines, side):
    """One-line strings ('.' or '0' blank; digits up to 9x9, letters A..
    above) -> (N, side*side) uint8."""
    if side > 9:
        return letters_to_cells(lines, side)
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(len(lines), side * side)
    cells = raw.astype(np.int16) - ord("0")
    cells[raw == ord(".")] = 0
    assert ((cells >= 0) & (cells <= side)).all()
    return cells.astype(np.uint8)


def interrupt_child(child, kind, timeout, inherit_ignored=False):
    """Runs the script `child` with argument `kind` in a Python child (from
    python/tests, so it imports `helpers`), waits for its `calling` line,
    sends SIGINT half a second into the call, and returns the child's output
    lines and the seconds from the signal to its exit. `inherit_ignored`
    starts it with SIGINT ignored, as a background job's children are
    (`nohup scripts/test.sh &`). The child must exit 0;
    it prints `interrupted after ...` when the call raised KeyboardInterrupt
    and `again 1` when the library worked normally afterwards."""
    import signal
    import subprocess
    import sys
    import time

    # The child sets the handler it depends on: started from a background
    # job (`nohup scripts/test.sh &`) it inherits SIGINT ignored, and
    # Python then installs no KeyboardInterrupt handler of its own.
    prelude = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
    proc = subprocess.Popen(
        [sys.executable, "-c", prelude + child, kind], cwd=ROOT / "python" / "tests",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if inherit_ignored else None,
    )
    try:
        assert proc.stdout.readline().strip() == "calling"
        time.sleep(0.5)  # well inside the call
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=timeout)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    return out.splitlines(), took
