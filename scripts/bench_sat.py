#!/usr/bin/env python3
"""CaDiCaL anchor for scripts/bench_big.sh: solves Sudoku puzzles with CaDiCaL
through python-sat (PyPI `python-sat`; bench_big.sh installs it into the scratch
venv target/satenv, run this with that venv's python).

    bench_sat.py FILE first|count2

FILE holds one puzzle per line, N*N decimal numbers separated by spaces, 0 =
blank (N = B*B, any box side B). For each puzzle one line is printed (and
flushed) as it is solved, the same interface as the DLX anchor:

    COUNT MILLISECONDS SOLUTION

COUNT is the number of solutions found (first: 0 or 1; count2: 0, 1 or 2),
MILLISECONDS the time spent inside the solver's solve() calls only (building
the encoding and loading it into the solver are not timed; count2 sums both
calls), SOLUTION the first model's grid as N*N numbers joined by commas ("-"
when there is none). The model is decoded and checked here too (a full valid
grid that keeps the givens); a model that fails the check is reported as
COUNT -2 and a message on stderr.

Encoding: the standard extended encoding over x(cell, digit): each cell holds
at least one and at most one digit; each row, column and box holds each digit
at least once and at most once; the givens are unit clauses. "At most one" is
pairwise up to N = 36 and Sinz's sequential counter above (pairwise 64x64 is
33M clauses); SAT_AMO=pairwise|seqcounter forces one. A fresh solver per
puzzle (no learnt clauses carried between puzzles). SAT_SOLVER picks the
pysat class (default Cadical195, falling back to Cadical153).

Single thread. No time cap of its own: bench_big.py kills and restarts it
when a puzzle runs past CAP_SECONDS.
"""
import math
import os
import sys
import time

import pysat.solvers as solvers


def solver_class():
    name = os.environ.get("SAT_SOLVER", "")
    for n in ([name] if name else ["Cadical195", "Cadical153"]):
        if hasattr(solvers, n):
            return n, getattr(solvers, n)
    raise SystemExit(f"bench_sat.py: pysat has no solver {name or 'Cadical195/Cadical153'}")


def amo_kind(n):
    kind = os.environ.get("SAT_AMO", "")
    if kind in ("pairwise", "seqcounter"):
        return kind
    return "pairwise" if n <= 36 else "seqcounter"


class Encoding:
    """The clauses every puzzle of size N shares (built once per size)."""

    def __init__(self, n):
        b = math.isqrt(n)
        if b * b != n:
            raise ValueError(f"size {n} is not a square")
        self.n, self.b = n, b
        self.kind = amo_kind(n)
        self.top = n * n * n
        self.clauses = []

        def var(r, c, d):
            return (r * n + c) * n + d + 1

        self.var = var
        groups = []
        for r in range(n):
            for c in range(n):
                groups.append([var(r, c, d) for d in range(n)])
        for d in range(n):
            for r in range(n):
                groups.append([var(r, c, d) for c in range(n)])
            for c in range(n):
                groups.append([var(r, c, d) for r in range(n)])
            for bx in range(n):
                r0, c0 = (bx // b) * b, (bx % b) * b
                groups.append([var(r0 + i // b, c0 + i % b, d) for i in range(n)])
        for g in groups:
            self.clauses.append(g)
            self.amo(g)

    def amo(self, xs):
        cl = self.clauses
        if self.kind == "pairwise":
            for i in range(len(xs)):
                xi = -xs[i]
                for j in range(i + 1, len(xs)):
                    cl.append([xi, -xs[j]])
            return
        # Sinz sequential counter: s_i = "some of x_1..x_i is true".
        m = len(xs)
        s = list(range(self.top + 1, self.top + m))
        self.top += m - 1
        cl.append([-xs[0], s[0]])
        for i in range(1, m - 1):
            cl.append([-xs[i], s[i]])
            cl.append([-s[i - 1], s[i]])
            cl.append([-xs[i], -s[i - 1]])
        cl.append([-xs[m - 1], -s[m - 2]])


def parse(line):
    vals = [int(t) for t in line.split()]
    n = math.isqrt(math.isqrt(len(vals)))
    n = n * n
    if n * n != len(vals) or n < 4:
        raise ValueError(f"{len(vals)} numbers is not a square grid of square boxes")
    return n, vals


def valid(n, b, grid, givens):
    """A full valid grid that keeps the givens (checked from the grid alone)."""
    if len(grid) != n * n or any(not 1 <= v <= n for v in grid):
        return False
    if any(g and g != v for g, v in zip(givens, grid)):
        return False
    full = set(range(1, n + 1))
    for i in range(n):
        if set(grid[i * n:(i + 1) * n]) != full:
            return False
        if set(grid[i::n]) != full:
            return False
        r0, c0 = (i // b) * b, (i % b) * b
        if {grid[(r0 + k // b) * n + c0 + k % b] for k in range(n)} != full:
            return False
    return True


def decode(enc, model):
    n = enc.n
    true = set(l for l in model if l > 0 and l <= n * n * n)
    grid = []
    for cell in range(n * n):
        ds = [d + 1 for d in range(n) if cell * n + d + 1 in true]
        grid.append(ds[0] if len(ds) == 1 else 0)
    return grid


def solve(enc, cls, givens, count2):
    """-> (count, seconds in solve(), first grid or None)"""
    n = enc.n
    s = cls(bootstrap_with=enc.clauses)
    try:
        for cell, v in enumerate(givens):
            if v:
                s.add_clause([cell * n + v])
        t = time.perf_counter()
        ok = s.solve()
        spent = time.perf_counter() - t
        if not ok:
            return 0, spent, None
        model = s.get_model()
        grid = decode(enc, model)
        if not count2:
            return 1, spent, grid
        block = [-(cell * n + grid[cell]) for cell in range(n * n) if not givens[cell]]
        if not block:
            return 1, spent, grid
        s.add_clause(block)
        t = time.perf_counter()
        ok = s.solve()
        spent += time.perf_counter() - t
        return (2 if ok else 1), spent, grid
    finally:
        s.delete()


def solve_grid(givens, n):
    """Any solution of `givens` (used by bench_big.py to make full grids); None if none."""
    _, cls = solver_class()
    _, _, grid = solve(Encoding(n), cls, givens, False)
    return grid


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("first", "count2"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    path, mode = sys.argv[1], sys.argv[2]
    _, cls = solver_class()
    encs = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            n, givens = parse(line)
            if n not in encs:
                encs[n] = Encoding(n)
            enc = encs[n]
            count, spent, grid = solve(enc, cls, givens, mode == "count2")
            if grid is not None and not valid(n, enc.b, grid, givens):
                print(f"bench_sat.py: {path}:{lineno}: the model is not a valid answer", file=sys.stderr)
                count = -2
            sol = ",".join(map(str, grid)) if grid is not None else "-"
            print(f"{count} {spent * 1000:.3f} {sol}", flush=True)


if __name__ == "__main__":
    main()
