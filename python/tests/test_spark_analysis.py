"""sudoku_bulk.spark.canon and .rate in Spark local mode (local[2]):
disguises of known classes collapse to one row each under
``dropDuplicates(["canonical"])``, and ratings are serate's own numbers
(tests/data/rate_serate.txt)."""

import math

import numpy as np
import pytest

import sudoku_bulk as sb
import sudoku_bulk.spark
from helpers import ROOT, read_lines
from sudoku_group import parse, random_transform, show


def test_canon_column_dedupes_disguises_of_known_classes(spark):
    rng = np.random.default_rng(11)
    bases = read_lines("17_clue_sub.txt", 100)  # Royle's list: no two isomorphic
    classes = [int(k) for k in rng.integers(0, 100, size=1000)]
    rows = [show(random_transform(parse(bases[k]), rng)) for k in classes]
    # Two bad rows: no form (null), kept apart from the puzzles.
    data = [(i, r, c) for i, (r, c) in enumerate(zip(rows, classes))]
    data += [(1000, None, -1), (1001, "x" * 81, -1)]
    df = spark.createDataFrame(data, "id long, `puzzle.text` string, class long")
    # Cached: the collect and the dropDuplicates below share one run.
    out = sudoku_bulk.spark.canon(df, column="puzzle.text", transform=True).cache()
    assert out.columns == ["id", "puzzle.text", "class", "canonical", "transform", "automorphisms"]
    got = {r["id"]: r for r in out.collect()}
    assert len(got) == 1002
    # One form per class, different classes different forms.
    form_of = {}
    for i, c in enumerate(classes):
        f = got[i]["canonical"]
        assert form_of.setdefault(c, f) == f
        assert got[i]["automorphisms"] >= 1
    assert len(set(form_of.values())) == len(set(classes))
    assert got[1000]["canonical"] is None and got[1001]["canonical"] is None
    assert got[1001]["automorphisms"] is None
    # The forms the local call gives (the same library, through Arrow batches).
    assert [got[i]["canonical"] for i in range(1000)] == sb.canon(rows)
    kept = out.dropDuplicates(["canonical"]).filter("canonical is not null").count()
    assert kept == len(set(classes))
    with pytest.raises(ValueError, match="already exists"):
        sudoku_bulk.spark.canon(out, column="puzzle.text")
    with pytest.raises(ValueError, match="form must be"):
        sudoku_bulk.spark.canon(df, column="puzzle.text", form="minlex")


def test_rate_columns_hold_serates_numbers(spark):
    fixtures = []
    for line in (ROOT / "tests" / "data" / "rate_serate.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            p, r = line.split()
            fixtures.append((p, tuple(float(x) for x in r.split("/"))))
    data = [(i, p) for i, (p, _) in enumerate(fixtures)] + [(len(fixtures), "." * 81)]
    df = spark.createDataFrame(data, "id long, puzzle string")
    out = sudoku_bulk.spark.rate(df)
    assert out.columns == ["id", "puzzle", "er", "ep", "ed", "rate_status"]
    types = dict(out.dtypes)
    assert [types[c] for c in ("er", "ep", "ed", "rate_status")] == ["double"] * 3 + ["string"]
    got = {r["id"]: r for r in out.collect()}
    rated = 0
    for i, (p, want) in enumerate(fixtures):
        r = got[i]
        if r["er"] is None:
            assert want[0] > 4.0, p  # unrated: serate needed more
            assert r["rate_status"] == "unrated", p
            continue
        assert (r["er"], r["ep"], r["ed"]) == want, p
        assert r["rate_status"] == "ok", p
        rated += 1
    assert rated * 2 > len(fixtures)
    # Several solutions: a bad row, null in all three, the reason the
    # local call gives.
    last = got[len(fixtures)]
    assert last["er"] is None and last["ep"] is None and last["ed"] is None
    assert last["rate_status"] == "multiple solutions"
    singles = sudoku_bulk.spark.rate(df, techniques=["HiddenSingle", "NakedSingle"]).collect()
    unrated = 0
    for r in singles:
        if r["id"] < len(fixtures) and fixtures[r["id"]][1][0] > 2.3:
            assert r["er"] is None or math.isnan(r["er"])
            assert r["rate_status"] == "unrated"
            unrated += 1
    assert unrated > 0
    with pytest.raises(ValueError, match="unknown technique"):
        sudoku_bulk.spark.rate(df, techniques="Guessing")
    # steps=True: the path of each row as the local call's JSON text, null
    # for the bad row.
    import json

    with_steps = sudoku_bulk.spark.rate(df, steps=True)
    assert with_steps.columns == ["id", "puzzle", "er", "ep", "ed", "rate_status", "steps"]
    rows = {r["id"]: r for r in with_steps.collect()}
    puzzles = [p for p, _ in fixtures]
    paths = sb.rate(puzzles, steps=True)[3]
    for i, path in enumerate(paths):
        assert json.loads(rows[i]["steps"]) == path
        assert rows[i]["er"] == got[i]["er"]
    assert rows[len(fixtures)]["steps"] is None
