"""The dataset workbench from Python: split, augment and stats. Classes are
known by construction (disguises made by the tests' own group code in
sudoku_group.py), solutions are checked by the NumPy checker in helpers.py,
counts are made here from the rows; and each call is compared with the
command (`sudoku-bulk split/augment/stats`) on the same file."""

import collections
import json
import subprocess
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import sudoku_bulk as sb
from helpers import read_lines, to_cells, valid_solutions
from sudoku_group import apply_text, parse, random_transform, show


def _classes(seed, n_rows, n_bases=60):
    """`n_rows` disguises of Royle's 17-clue puzzles (no two of the list
    isomorphic), with each row's class, some classes large; a few exact
    copies and `0` blanks among them."""
    rng = np.random.default_rng(seed)
    bases = read_lines("17_clue_sub.txt", n_bases)
    weights = rng.random(n_bases) ** 3
    classes = [int(k) for k in rng.choice(n_bases, size=n_rows, p=weights / weights.sum())]
    rows = [show(random_transform(parse(bases[k]), rng)) for k in classes]
    for i in range(0, n_rows, 37):
        rows[i + 1 if i + 1 < n_rows else i] = rows[i].replace(".", "0")
        classes[i + 1 if i + 1 < n_rows else i] = classes[i]
    return rows, classes


def _check_parts(parts, classes, fractions):
    """No class in two parts; every row in one part; each part within one
    class of its fraction."""
    n = len(classes)
    seen = np.concatenate(parts)
    assert sorted(seen.tolist()) == list(range(n))
    home = {}
    for p, idx in enumerate(parts):
        for i in idx:
            assert home.setdefault(classes[i], p) == p, f"class {classes[i]} in two parts"
    largest = max(collections.Counter(classes).values())
    for p, f in fractions.items():
        assert abs(len(parts[p]) - round(n * f)) < largest + 1


def test_split_keeps_every_known_class_whole_within_one_class_of_the_fractions():
    rows, classes = _classes(1, 600)
    train, test, val = sb.split(rows, 0.2, 0.1, seed=7)
    _check_parts([train, test, val], classes, {1: 0.2, 2: 0.1})
    # Every part is ascending, and test/val are not empty.
    for part in (train, test, val):
        assert (np.diff(part) > 0).all()
    assert len(test) and len(val)
    # Deterministic for a seed whatever the threads and the input kind;
    # another seed gives another split.
    again = sb.split(to_cells(rows), 0.2, 0.1, seed=7, threads=1)
    assert all((a == b).all() for a, b in zip(again, (train, test, val)))
    assert all(
        (a == b).all() for a, b in zip(sb.split(pd.Series(rows), 0.2, 0.1, seed=7), again)
    )
    other = sb.split(rows, 0.2, 0.1, seed=8)
    assert not (other[1].tolist() == test.tolist())
    # No val part without val.
    assert len(sb.split(rows, 0.25, seed=7)) == 2


def test_split_by_exact_keeps_copies_together_and_lets_disguises_straddle():
    rows, classes = _classes(2, 300)
    keys = [r.replace("0", ".") for r in rows]
    train, test = sb.split(rows, 0.3, by="exact", seed=3)
    _check_parts([train, test], keys, {1: 0.3})
    iso_leaks = set(classes[i] for i in train) & set(classes[i] for i in test)
    assert iso_leaks, "some isomorph class straddles an exact split"


def test_split_matches_the_command_on_the_same_file(cli, tmp_path):
    rows, _ = _classes(3, 400)
    path = tmp_path / "set.txt"
    path.write_text("".join(r + "\n" for r in rows))
    for extra, strat in (([], None), (["--stratify", "clues"], "clues")):
        out = tmp_path / f"parts{len(extra)}"
        subprocess.run(
            [cli, "split", str(path), "--test", "0.2", "--val", "0.1", "--seed", "11",
             "--output-dir", str(out), "-q", *extra],
            check=True,
        )
        parts = sb.split(rows, 0.2, 0.1, seed=11, stratify=strat)
        for name, idx in zip(("train", "test", "val"), parts):
            want = (out / f"{name}.txt").read_text().splitlines()
            assert want == [rows[i] for i in idx]
    # --stratify COLUMN of a CSV against one label a row.
    levels = [("hard", "easy", "mid")[sum(c != "." for c in r) % 3] for r in rows]
    csv = tmp_path / "set.csv"
    csv.write_text("question,level\n" + "".join(f"{r},{v}\n" for r, v in zip(rows, levels)))
    subprocess.run(
        [cli, "split", str(csv), "--test", "0.3", "--seed", "2", "--stratify", "level", "-q"],
        check=True,
    )
    parts = sb.split(rows, 0.3, seed=2, stratify=levels)
    for name, idx in zip(("train", "test"), parts):
        want = (tmp_path / f"set.{name}.csv").read_text().splitlines()[1:]
        assert want == [f"{rows[i]},{levels[i]}" for i in idx]


def test_split_stratified_by_labels_holds_each_stratum_and_keeps_classes_whole():
    rows, classes = _classes(4, 500)
    # One label a class (as a rating is), two strata of different sizes.
    labels = ["hard" if c % 3 == 0 else "easy" for c in classes]
    train, test = sb.split(rows, 0.25, seed=2, stratify=labels)
    _check_parts([train, test], classes, {1: 0.25})
    for label in ("hard", "easy"):
        mine = [i for i, v in enumerate(labels) if v == label]
        got = sum(1 for i in test if labels[i] == label)
        largest = max(collections.Counter(classes[i] for i in mine).values())
        assert abs(got - round(len(mine) * 0.25)) <= largest
    # "clues": isomorphs share their clue count; every count holds its share.
    train, test = sb.split(rows, 0.25, seed=2, stratify="clues")
    _check_parts([train, test], classes, {1: 0.25})


def test_split_of_tables_returns_tables_with_their_rows_and_index():
    rows, classes = _classes(5, 200)
    df = pd.DataFrame(
        {"id": np.arange(200) * 10, "question": rows, "source": ["x"] * 200},
        index=pd.Index([f"r{i}" for i in range(200)]),
    )
    df["klass"] = classes
    train, test = sb.split(df, 0.3, seed=1, stratify="source")
    assert isinstance(train, pd.DataFrame) and list(train.columns) == list(df.columns)
    assert len(train) + len(test) == 200
    assert not set(train["klass"]) & set(test["klass"])
    assert test.index.tolist() == [f"r{i}" for i in test["id"] // 10]
    t = pa.Table.from_pandas(df, preserve_index=False)
    ptrain, ptest = sb.split(t, 0.3, seed=1, column="question")
    assert ptest.column("id").to_pylist() == test["id"].tolist()
    with pytest.raises(ValueError, match="no puzzle column"):
        sb.split(pd.DataFrame({"x": rows}))
    with pytest.raises(ValueError, match="fractions"):
        sb.split(rows, 0.7, 0.4)


def test_split_leaves_bad_rows_in_train_and_says_so():
    rows, _ = _classes(6, 100)
    rows[5] = "not a puzzle"
    with pytest.warns(UserWarning, match="1 of 100 rows are bad"):
        train, test = sb.split(rows, 0.3, seed=1)
    assert 5 in train.tolist()


def _solutions(rows):
    """The unique solutions of `rows`, verified here, as strings."""
    sol = sb.solve(rows)
    assert valid_solutions(to_cells(rows), to_cells(sol)).all()
    return sol


def test_augment_writes_disguises_its_transforms_explain_with_solutions_along():
    rows = read_lines("17_clue_sub.txt", 40)
    sols = _solutions(rows)
    a = sb.augment(rows, 3, solutions=sols, seed=5, transform=True, keep_original=True)
    assert a.source.tolist() == [i for i in range(40) for _ in range(4)]
    for k, (p, s, t) in enumerate(zip(a.puzzles, a.solutions, a.transforms)):
        src = a.source[k]
        # The test's own reading of the transform text maps the original
        # puzzle and solution onto the output's.
        assert show(apply_text(t, parse(rows[src]))) == p
        assert show(apply_text(t, parse(sols[src]))) == s
        if k % 4 == 0:
            assert p == rows[src] and t.startswith("N/012345678/012345678/123456789")
    # Every solution is a valid grid keeping its puzzle's givens.
    assert valid_solutions(to_cells(a.puzzles), to_cells(a.solutions)).all()
    # The same class: canonical forms equal the original's.
    forms = sb.canon(a.puzzles)
    base = sb.canon(rows)
    assert all(forms[k] == base[a.source[k]] for k in range(len(forms)))
    # Disguises differ from one another, and depend on the seed alone.
    assert len(set(a.puzzles)) == len(a.puzzles)
    again = sb.augment(to_cells(rows), 3, seed=5, keep_original=True, threads=1)
    assert [show(r) for r in again.puzzles] == a.puzzles
    assert again.solutions is None and again.transforms is None


def test_augment_matches_the_command_on_the_same_file(cli, tmp_path):
    rows = read_lines("17_clue_sub.txt", 50)
    path = tmp_path / "p.txt"
    path.write_text("".join(r + "\n" for r in rows))
    out = subprocess.run(
        [cli, "augment", str(path), "-n", "4", "--seed", "9", "-q"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    assert sb.augment(rows, 4, seed=9).puzzles == out
    zeros = subprocess.run(
        [cli, "augment", str(path), "-n", "2", "--seed", "9", "--blank", "0", "-q"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    assert sb.augment(rows, 2, seed=9, blank="0").puzzles == zeros


def test_augment_of_a_table_carries_the_other_columns():
    rows = read_lines("17_clue_sub.txt", 20)
    sols = _solutions(rows)
    df = pd.DataFrame({"source": [f"s{i}" for i in range(20)], "question": rows,
                       "answer": sols, "rating": np.arange(20) / 2})
    out = sb.augment(df, 2, seed=3, transform=True)
    assert list(out.columns) == ["source", "question", "answer", "rating", "transform"]
    assert len(out) == 40 and out.index.tolist() == [i for i in range(20) for _ in range(2)]
    assert out["source"].tolist() == [f"s{i}" for i in range(20) for _ in range(2)]
    assert out["rating"].tolist() == [i / 2 for i in range(20) for _ in range(2)]
    for q, a, t, i in zip(out["question"], out["answer"], out["transform"], out.index):
        assert show(apply_text(t, parse(rows[i]))) == q
        assert show(apply_text(t, parse(sols[i]))) == a
    assert valid_solutions(to_cells(list(out["question"])), to_cells(list(out["answer"]))).all()
    t = sb.augment(pa.Table.from_pandas(df), 2, seed=3)
    assert t.column("question").to_pylist() == out["question"].tolist()
    assert t.column("answer").to_pylist() == out["answer"].tolist()


def test_augment_of_rectangular_boxes_and_a_bad_row():
    # 6x6 puzzles (2x3 boxes): disguises stay valid grids with their solutions.
    grids = sb.generate(20, size=6, seed=1)
    sols = sb.solve(grids)
    a = sb.augment(grids, 2, solutions=sols, seed=1, transform=True)
    cells = np.array([[0 if c == "." else int(c) for c in p] for p in a.puzzles])
    scells = np.array([[int(c) for c in s] for s in a.solutions])
    assert valid_solutions(cells, scells, 2, 3).all()
    assert not any(t.startswith("T") for t in a.transforms)
    rows = read_lines("17_clue_sub.txt", 5)
    rows[2] = "x" * 81
    with pytest.warns(UserWarning, match="1 of 5 rows are bad"):
        b = sb.augment(rows, 2, seed=1)
    assert b.source.tolist() == [0, 0, 1, 1, 2, 3, 3, 4, 4]
    assert b.puzzles[4] == "x" * 81


def test_stats_counts_what_the_test_counts_and_matches_the_command(cli, tmp_path):
    rows, classes = _classes(7, 300)
    rows.append("1" * 81)  # no solution (clashing givens), a class of its own
    classes.append(-1)
    rows.append("." * 81)  # many solutions
    classes.append(-2)
    card = sb.stats(rows)
    assert card["records"] == 302 and card["bad"] == 0
    clues = collections.Counter(str(sum(c not in ".0" for c in r)) for r in rows)
    assert card["clues"] == dict(clues)
    assert card["classes"] == len(set(classes))
    assert card["iso_repeats"] == 302 - len(set(classes))
    exact = collections.Counter(r.replace("0", ".") for r in rows)
    assert card["exact_duplicates"] == sum(v - 1 for v in exact.values())
    assert card["solutions"] == {"0": 1, "1": 300, "2+": 1}
    blanks = collections.Counter("0" if "0" in r else "." for r in rows if "." in r or "0" in r)
    assert card["blanks"] == dict(blanks)
    assert card["sizes"] == {"9": 302}
    # The command's JSON on the same file, name aside.
    path = tmp_path / "set.txt"
    path.write_text("".join(r + "\n" for r in rows))
    other = tmp_path / "other.txt"
    other.write_text("".join(r + "\n" for r in rows[:40]))
    got = subprocess.run(
        [cli, "stats", str(path), "--json", "--against", str(other)],
        check=True, capture_output=True, text=True,
    ).stdout
    want = json.loads(got)[0]
    mine = sb.stats(rows, against=rows[:40], name=want["name"], against_name=want["against"]["name"])
    assert mine == want
    assert mine["against"]["copies"] == sum(
        1 for r in rows if r.replace("0", ".") in {x.replace("0", ".") for x in rows[:40]}
    )
    frame = sb.stats(to_cells(rows[:300]), as_frame=True)
    assert frame.loc[0, "records"] == 300 and "blanks" not in frame.columns.tolist()
    assert frame.loc[0, "classes"] == len(set(classes[:300]))


def test_stats_reads_a_rating_column_as_the_command_does(cli, tmp_path):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows, _ = _classes(5, 120)
    # sudoku-extreme's shape: integer backtrack counts, one missing (a
    # float column in pandas then).
    rating = [float((i * 13) % 40) for i in range(len(rows))]
    rating[3] = float("nan")
    df = pd.DataFrame({"source": ["s"] * len(rows), "question": rows, "rating": rating})
    df.to_csv(tmp_path / "x.csv", index=False)  # "13.0": the same value as 13
    got = subprocess.run(
        [cli, "stats", str(tmp_path / "x.csv"), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    cli_card = json.loads(got)[0]
    card = sb.stats(df, name=cli_card["name"])
    assert card == cli_card
    want = collections.Counter(str(int(r)) for r in rating if r == r)
    assert card["ratings"]["column"] == "rating"
    assert card["ratings"]["missing"] == 1
    assert dict((v, n) for v, n in card["ratings"]["values"]) == dict(want)
    assert [int(v) for v, _ in card["ratings"]["values"]] == sorted(int(v) for v in want)
    # The same rows as Parquet (pyarrow's writer, a double column).
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), tmp_path / "x.parquet")
    got = subprocess.run(
        [cli, "stats", str(tmp_path / "x.parquet"), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    table_card = json.loads(got)[0]
    assert table_card["ratings"] == card["ratings"]
    # No rating column: no key.
    assert "ratings" not in sb.stats(df[["question"]])


def test_stats_marks_what_it_cannot_key():
    rows = read_lines("17_clue_sub.txt", 10) + [None, "abc"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        card = sb.stats(rows)
    assert card["records"] == 12 and card["bad"] == 2 and card["classes"] == 10


def test_augment_of_a_numpy_file_matches_the_package(cli, tmp_path):
    # A .npy written by NumPy: int16 (N, 9, 9), one row out of range (bad:
    # copied once, unchanged, by both routes).
    rows = read_lines("17_clue_sub.txt", 12)
    cells = to_cells(rows).astype(np.int16).reshape(12, 9, 9)
    cells[4, 0, 0] = 12
    np.save(tmp_path / "p.npy", cells)
    done = subprocess.run(
        [cli, "augment", str(tmp_path / "p.npy"), "-n", "3", "--seed", "2",
         "-o", str(tmp_path / "o.npy")],
        capture_output=True, text=True,
    )
    assert done.returncode == 1 and "row 5" in done.stderr
    out = np.load(tmp_path / "o.npy")
    assert out.dtype == np.int16 and out.shape == (11 * 3 + 1, 9, 9)
    with pytest.warns(UserWarning, match="1 of 12 rows are bad"):
        mine = sb.augment(cells, 3, seed=2)
    assert (mine.puzzles == out).all() and mine.puzzles.dtype == np.int16
    assert (out[12] == cells[4]).all()
    good = np.delete(np.arange(len(out)), 12)
    sols = sb.solve(out[good])
    assert valid_solutions(out[good], sols).all()
