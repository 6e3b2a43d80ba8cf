"""The Sudoku symmetry group written in NumPy for the tests of canon,
dedupe and overlap, independently of sudoku_bulk: random transforms
(disguises) of a puzzle, the transform text of ``canon(transform=True)``
applied to a puzzle, a brute-force string minlex over whole groups of
small grids, and a brute-force automorphism count of 9x9 grids."""

import itertools

import numpy as np


def parse(text):
    """A one-line puzzle ('.' or '0' blank, digits) -> cells (side*side,)."""
    return np.array([0 if c in ".0" else int(c) for c in text], dtype=np.uint8)


def show(cells, blank="."):
    """Cells -> a one-line puzzle, `blank` for 0."""
    return "".join(blank if v == 0 else str(int(v)) for v in np.asarray(cells).ravel())


def block_perms(count, size, rng):
    """A random permutation of `count` blocks of `size` lines each, and of
    the lines inside each block: the source line of each target line."""
    blocks = rng.permutation(count)
    return np.concatenate([size * b + rng.permutation(size) for b in blocks])


def random_transform(cells, rng, box=(3, 3)):
    """`cells` (side*side) under a random element of the group: transpose
    (square boxes only), permute bands and rows inside bands, stacks and
    columns inside stacks, relabel the digits."""
    h, w = box
    side = h * w
    g = np.asarray(cells).reshape(side, side)
    if h == w and rng.random() < 0.5:
        g = g.T
    rows = block_perms(side // h, h, rng)  # bands of h rows
    cols = block_perms(side // w, w, rng)  # stacks of w columns
    labels = np.concatenate([[0], rng.permutation(side) + 1])
    return labels[g[rows][:, cols]].astype(np.uint8).ravel()


def apply_text(text, cells):
    """Applies a transform written as canon's ``N/ROWS/COLS/LABELS`` (``T``
    first: transposed before the permutations) to `cells`, as the
    package's docs define it: form[i][j] = LABELS[src[ROWS[i]][COLS[j]]]."""
    t, rows, cols, labels = text.split("/")
    side = len(rows)
    g = np.asarray(cells).reshape(side, side)
    if t == "T":
        g = g.T
    r = np.array([int(c) for c in rows])
    c = np.array([int(c) for c in cols])
    lab = np.array([0] + [int(c) for c in labels])
    return lab[g[r][:, c]].astype(np.uint8).ravel()


def _line_perms(count, size):
    """Every (block order, order inside each block) as source-line lists."""
    out = []
    for blocks in itertools.permutations(range(count)):
        for inner in itertools.product(itertools.permutations(range(size)), repeat=count):
            out.append([size * b + inner[k][i] for k, b in enumerate(blocks) for i in range(size)])
    return out


def first_appearance(cells):
    """`cells` relabelled so digits read 1, 2, ... in order of first
    appearance (the smallest relabelling for a fixed geometry)."""
    lab = {0: 0}
    out = []
    for v in cells:
        v = int(v)
        if v not in lab:
            lab[v] = len(lab)
        out.append(lab[v])
    return out


def brute_minlex(cells, box):
    """The string minlex form of `cells` over the whole group of a small
    grid (`box` (2, 2): 128 geometries; (2, 3): 3,456), by trying them all."""
    h, w = box
    side = h * w
    g = np.asarray(cells).reshape(side, side)
    rows = _line_perms(side // h, h)
    cols = _line_perms(side // w, w)
    best = None
    for m in ([g, g.T] if h == w else [g]):
        for r in rows:
            mr = m[r]
            for c in cols:
                key = first_appearance(mr[:, c].ravel())
                if best is None or key < best:
                    best = key
    return np.array(best, dtype=np.uint8)


def automorphisms(grid):
    """How many of the 3,359,232 geometric transforms of a full 9x9 grid,
    each with the relabelling it needs, map the grid to itself: all row
    orders x all column orders (x transpose), vectorised over columns."""
    g = np.asarray(grid).reshape(9, 9).astype(np.int64)
    lines = np.array(_line_perms(3, 3))  # 1296 x 9
    idx = np.arange(len(lines))[:, None]
    count = 0
    for t in (g, g.T):
        for r in lines:
            b = t[r][:, lines].transpose(1, 0, 2)  # (1296 column orders, 9, 9)
            lab = np.zeros((len(lines), 10), dtype=np.int64)
            lab[idx, b[:, 0, :]] = g[0][None, :]  # the relabelling row 1 forces
            # Row 2 first (cheap), then the whole grid for the few left.
            ok = np.flatnonzero((lab[idx, b[:, 1, :]] == g[1][None, :]).all(axis=1))
            if len(ok):
                full = lab[ok][np.arange(len(ok))[:, None, None], b[ok]]
                count += int((full == g[None]).all(axis=(1, 2)).sum())
    return count
