"""sudoku_bulk.spark.split and .augment in Spark local mode (local[2]):
classes known by construction (the tests' own disguises) land whole in one
part, with the parts of sudoku_bulk.split for the same rows and seed;
augmented rows are explained by their transforms and keep valid solutions
(checked by the NumPy checker), other columns carried."""

import collections

import numpy as np
import pytest

import sudoku_bulk as sb
import sudoku_bulk.spark
from helpers import read_lines, to_cells, valid_solutions
from sudoku_group import apply_text, parse, random_transform, show


def _rows(seed, n):
    rng = np.random.default_rng(seed)
    bases = read_lines("17_clue_sub.txt", 80)  # Royle's list: no two isomorphic
    w = rng.random(80) ** 3
    classes = [int(k) for k in rng.choice(80, size=n, p=w / w.sum())]
    rows = [show(random_transform(parse(bases[k]), rng)) for k in classes]
    return rows, classes


def test_split_keeps_known_classes_whole_and_matches_the_local_split(spark):
    rows, classes = _rows(21, 800)
    data = [(i, r, c, "hard" if c % 2 else "easy") for i, (r, c) in enumerate(zip(rows, classes))]
    data.append((800, "x" * 81, -1, "easy"))  # bad: no class, train
    df = spark.createDataFrame(data, "id long, puzzle string, class long, `lvl.x` string")
    for strat in (None, "clues"):
        parts = sudoku_bulk.spark.split(df, 0.2, 0.1, seed=5, stratify=strat)
        assert all(p.columns == df.columns for p in parts)
        ids = [sorted(r["id"] for r in p.select("id").collect()) for p in parts]
        assert sorted(sum(ids, [])) == list(range(801)) and 800 in ids[0]
        home = {}
        for k, part in enumerate(ids):
            for i in part[:]:
                if i < 800:
                    assert home.setdefault(classes[i], k) == k
        # The local call's parts (the same keys, class order and walk).
        with pytest.warns(UserWarning):
            local = sb.split(rows + ["x" * 81], 0.2, 0.1, seed=5, stratify=strat)
        assert ids == [p.tolist() for p in local]
    # A label column: the fractions within each label.
    train, test = sudoku_bulk.spark.split(df, 0.3, seed=2, stratify="lvl.x")
    got = collections.Counter(r["lvl.x"] for r in test.collect())
    largest = max(collections.Counter(classes).values())
    for lvl in ("hard", "easy"):
        n = sum(1 for r in data if r[3] == lvl and r[2] >= 0)
        assert abs(got[lvl] - round(0.3 * n)) <= largest
    with pytest.raises(ValueError, match="fractions"):
        sudoku_bulk.spark.split(df, 0.8, 0.3)


def test_augment_rows_are_disguises_with_solutions_and_columns_carried(spark):
    rows = read_lines("17_clue_sub.txt", 30)
    sols = sb.solve(rows)
    assert valid_solutions(to_cells(rows), to_cells(sols)).all()
    data = [(i, p, s, f"src{i}") for i, (p, s) in enumerate(zip(rows, sols))]
    df = spark.createDataFrame(data, "id long, puzzle string, solution string, source string")
    out = sudoku_bulk.spark.augment(df, 3, seed=4, transform=True)
    assert out.columns == ["id", "puzzle", "solution", "source", "transform"]
    got = out.collect()
    assert len(got) == 90
    assert collections.Counter(r["id"] for r in got) == {i: 3 for i in range(30)}
    for r in got:
        i = r["id"]
        assert r["source"] == f"src{i}"
        assert show(apply_text(r["transform"], parse(rows[i]))) == r["puzzle"]
        assert show(apply_text(r["transform"], parse(sols[i]))) == r["solution"]
    assert valid_solutions(to_cells([r["puzzle"] for r in got]),
                           to_cells([r["solution"] for r in got])).all()
    # The disguises sudoku_bulk.augment makes for the same rows and seed.
    local = sb.augment(rows, 3, seed=4)
    by_id = collections.defaultdict(list)
    for r in got:
        by_id[r["id"]].append(r["puzzle"])
    for i in range(30):
        assert sorted(by_id[i]) == sorted(local.puzzles[3 * i: 3 * i + 3])
