"""sudoku_bulk.rate: serate's own numbers (tests/data/rate_serate.txt, rated
by Sukaku Explainer v1.18.1) and every solving path replayed from the
givens to the solution by a checker written here."""

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

import sudoku_bulk as sb
from helpers import ROOT, to_cells, valid_solutions

FIXTURES = ROOT / "tests" / "data" / "rate_serate.txt"


def _fixtures():
    """(puzzle, (ER, EP, ED)) of every line serate rated."""
    out = []
    for line in FIXTURES.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        p, r = line.split()
        out.append((p, tuple(float(x) for x in r.split("/"))))
    return out


@pytest.fixture(scope="module")
def fixtures():
    fx = _fixtures()
    assert len(fx) >= 100
    return fx


def test_ratings_are_serates_where_rated(fixtures):
    puzzles = [p for p, _ in fixtures]
    er, ep, ed = sb.rate(puzzles)
    assert er.dtype == np.float64 and len(er) == len(puzzles)
    rated = 0
    for k, (p, want) in enumerate(fixtures):
        if math.isnan(er[k]):
            # Unrated only where serate needed more than the rater's
            # techniques reach (all of serate's below 4.2 are implemented).
            assert want[0] > 4.0, p
            continue
        assert (er[k], ep[k], ed[k]) == want, p
        rated += 1
    assert rated * 2 > len(fixtures), "most fixtures rated"
    # The same numbers from an array, a pandas Series (indexed like it) and
    # one thread.
    cells = to_cells(puzzles)
    assert np.array_equal(sb.rate(cells, threads=1)[0], er, equal_nan=True)
    s = pd.Series(puzzles, index=[f"p{i}" for i in range(len(puzzles))])
    ser, sep, sed = sb.rate(s)
    assert ser.name == "er" and list(ser.index) == list(s.index)
    assert np.array_equal(sed.to_numpy(), ed, equal_nan=True)


def _peers(i):
    r, c = divmod(i, 9)
    return {
        j for j in range(81)
        if j != i and (j // 9 == r or j % 9 == c or (j // 27 == i // 27 and j % 9 // 3 == c // 3))
    }


PEERS = [_peers(i) for i in range(81)]


def _cell(name):
    m = re.fullmatch(r"r([1-9])c([1-9])", name)
    assert m, name
    return (int(m[1]) - 1) * 9 + int(m[2]) - 1


def replay(puzzle, solution, path):
    """Plays a `steps` path on the puzzle: every removal takes away a
    candidate that is there and is not the solution's digit, every
    placement puts the solution's digit where it is still a candidate.
    Returns the grid at the end and the step ratings."""
    values = [0 if c == "." else int(c) for c in puzzle]
    cand = [set() if v else set(range(1, 10)) - {values[j] for j in PEERS[i]}
            for i, v in enumerate(values)]
    ratings = []
    for step in path["steps"]:
        ratings.append(float(step["rating"]))
        assert step["eliminated"] or step["placed"], step
        for e in step["eliminated"]:
            c, d = _cell(e["cell"]), e["digit"]
            assert values[c] == 0 and d in cand[c], step
            assert solution[c] != d, f"removed the solution's digit: {step}"
            cand[c].discard(d)
        if step["placed"]:
            c, d = _cell(step["placed"]["cell"]), step["placed"]["digit"]
            assert values[c] == 0 and d in cand[c], step
            assert solution[c] == d, step
            if step["id"] == "NakedSingle":
                assert cand[c] == {d}, step
            values[c] = d
            cand[c] = set()
            for j in PEERS[c]:
                cand[j].discard(d)
    return values, ratings


def test_every_path_replays_from_the_givens_to_the_solution(fixtures):
    puzzles = [p for p, _ in fixtures]
    solutions = to_cells(sb.solve(puzzles))
    assert valid_solutions(to_cells(puzzles), solutions).all()
    er, ep, ed, paths = sb.rate(puzzles, steps=True)
    for k, (p, path) in enumerate(zip(puzzles, paths)):
        assert path["puzzle"] == p
        values, ratings = replay(p, solutions[k], path)
        if path["status"] == "rated":
            assert values == solutions[k].tolist(), p
            assert max(ratings) == er[k] and ratings[0] == ed[k]
            first = next(i for i, s in enumerate(path["steps"]) if s["placed"])
            assert max(ratings[: first + 1]) == ep[k]
            assert path["er"] == f"{er[k]:.1f}"
        else:
            assert path["status"] == "unrated" and path["next"] and math.isnan(er[k])
    # steps="json": the same objects, as text.
    texts = sb.rate(puzzles[:20], steps="json")[3]
    assert [json.loads(t) for t in texts] == paths[:20]
    with pytest.raises(ValueError, match='steps must be True, False or "json"'):
        sb.rate(puzzles[:1], steps="dict")


def test_a_technique_subset_leaves_harder_puzzles_unrated(fixtures):
    singles = ["HiddenSingle", "NakedSingle"]
    puzzles = [p for p, _ in fixtures]
    er, ep, ed = sb.rate(puzzles, techniques=singles)
    assert np.array_equal(sb.rate(puzzles, techniques="HiddenSingle,NakedSingle")[0], er,
                          equal_nan=True)
    for k, (p, want) in enumerate(fixtures):
        if want[0] > 2.3:
            # Serate tries singles before anything rated above 2.3, so its
            # path needed more there.
            assert math.isnan(er[k]), p
        elif want[0] <= 1.5:
            # Hidden singles all the way: the same path, the same numbers.
            assert (er[k], ep[k], ed[k]) == want, p
    ids = [t["id"] for t in sb.techniques()]
    assert ids[:4] == ["HiddenSingle", "DirectPointing", "DirectHiddenPair", "NakedSingle"]
    with pytest.raises(ValueError, match="unknown technique"):
        sb.rate(puzzles[:1], techniques=["Guessing"])
    with pytest.raises(TypeError, match="techniques must be"):
        sb.rate(puzzles[:1], techniques=5)


def test_bad_rows_are_nan_and_say_why(fixtures):
    good = fixtures[0][0]
    rows = [good, "." * 81, "11" + "." * 79, None, "." * 16, good]
    with pytest.warns(UserWarning, match="4 of 6 rows are bad"):
        er, ep, ed, paths, status = sb.rate(rows, steps=True, return_status=True)
    assert status[0] is None and status[5] is None
    assert status[1] == "multiple solutions"
    # Clashing givens: the same reason solve gives (naming the cells).
    _, solve_status = sb.solve(rows[2:3], on_error="ignore", return_status=True)
    assert status[2] == solve_status[0] != "no solution"
    assert status[3] == "null: no puzzle"
    assert status[4]
    assert all(math.isnan(x) for x in (*er[1:5], *ep[1:5], *ed[1:5]))
    assert paths[1:5] == [None] * 4 and paths[0] == paths[5]
    with pytest.raises(ValueError, match=r"row 2 \(puzzles\[1\]\): multiple solutions"):
        sb.rate(rows, on_error="raise")
    with pytest.raises(ValueError, match="ratings are for 9x9"):
        sb.rate(np.zeros((2, 16), dtype=np.uint8), on_error="raise")


def test_generate_rating_is_the_clis_and_each_puzzle_rates_in_the_band(cli):
    import subprocess

    args = ["generate", "-n", "30", "--seed", "7", "--rating", "3.0..4.4"]
    want = subprocess.run([cli, *args], check=True, capture_output=True).stdout.decode().split()
    got = sb.generate(30, seed=7, rating=(3.0, 4.4))
    assert got == want
    # The band as the command's text, integers, one thread: the same puzzles.
    assert sb.generate(30, seed=7, rating="3.0..4.4", threads=1) == want
    assert sb.generate(10, seed=7, rating=(3, 4.4)) == want[:10]
    # Each is unique (the solver finds one solution, checked valid here)
    # and its ER, as rate() gives it, is inside the band.
    cells = to_cells(got)
    assert valid_solutions(cells, to_cells(sb.solve(got, unique=True))).all()
    er, ep, ed = sb.rate(got)
    assert ((er >= 3.0) & (er <= 4.4)).all(), er
    assert len(set(got)) == 30
    arr = sb.generate(5, seed=7, rating=(3.0, 4.4), as_array=True)
    assert np.array_equal(arr, cells[:5])


def test_generate_rating_refuses_what_the_cli_refuses():
    # Every band is rated exactly now; one no minimal puzzle reaches is refused.
    with pytest.raises(ValueError, match=r"rating=1\.0\.\.1\.1: no puzzle can have an ER in this band"):
        sb.generate(1, rating=(1.0, 1.1))
    with pytest.raises(ValueError, match="MIN..MAX"):
        sb.generate(1, rating=(4.4, 2.0))
    with pytest.raises(ValueError, match="one decimal"):
        sb.generate(1, rating=(4.25, 4.4))
    with pytest.raises(ValueError, match="9x9"):
        sb.generate(1, size=16, rating=(2.0, 3.0))
    with pytest.raises(TypeError, match="rating must be"):
        sb.generate(1, rating=4.0)
    with pytest.raises(TypeError, match="rating must be"):
        sb.generate(1, rating=("4.0", "4.4"))
