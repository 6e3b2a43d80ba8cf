"""sudoku_bulk.canon, dedupe and overlap, checked against the symmetry
group written in NumPy (tests/sudoku_group.py): random disguises of a
puzzle share its form, the transform maps the record to its form, the
form is no larger than any disguise, small grids match a brute force over
their whole group, and dedupe/overlap answer lists built from random
disguises with known classes."""

import warnings

import numpy as np
import pyarrow as pa
import pandas as pd
import pytest

import sudoku_bulk as sb
from helpers import read_lines, to_cells, valid_solutions
from sudoku_group import (
    apply_text, automorphisms, brute_minlex, parse, random_transform, show,
)

#: The smallest grid in string minlex order (issue 31): its own form.
MINLEX_GRID = (
    "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
)
#: The grid with the most automorphisms (648) among 9x9 grids.
RICH_GRID = (
    "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
)


def _key(text):
    """A one-line puzzle as its cell string with 0 blank (minlex order)."""
    return show(parse(text), blank="0")


def _pattern(text):
    return "".join("0" if c in ".0" else "1" for c in text)


@pytest.fixture(scope="module")
def puzzles():
    """17-clue puzzles, hard ones, and full grids (solutions, checked)."""
    p = read_lines("17_clue_sub.txt", 12) + read_lines("forum_hardest_11plus_sub.txt", 6)
    grids = sb.solve(p[:6])
    assert valid_solutions(to_cells(p[:6]), to_cells(grids)).all()
    return p + grids


def test_the_minlex_grid_is_its_own_form_and_automorphisms_match_a_brute_force():
    counted = [automorphisms(parse(g)) for g in (MINLEX_GRID, RICH_GRID)]
    # The brute force itself: 648 is the known count for RICH_GRID.
    assert counted[1] == 648
    for form in ("string", "pattern"):
        forms, transforms, autos = sb.canon([MINLEX_GRID, RICH_GRID], form=form, transform=True)
        assert forms == [MINLEX_GRID, RICH_GRID]
        for t, g in zip(transforms, (MINLEX_GRID, RICH_GRID)):
            assert show(apply_text(t, parse(g))) == g
        assert autos.tolist() == counted


@pytest.mark.parametrize("form", ["string", "pattern"])
def test_every_disguise_has_the_same_form_and_the_transform_reaches_it(puzzles, form):
    rng = np.random.default_rng(31)
    for p in puzzles:
        cells = parse(p)
        disguises = [show(random_transform(cells, rng)) for _ in range(12)]
        forms, transforms, autos = sb.canon([p] + disguises, form=form, transform=True)
        assert len(set(forms)) == 1, p
        f = forms[0]
        assert len(f) == 81
        # The form is a member of the class: each record's transform, applied
        # here, gives it.
        for record, t in zip([p] + disguises, transforms):
            assert show(apply_text(t, parse(record))) == f
        # Minimal: no disguise is smaller (string form), or has a smaller
        # pattern (pattern form).
        if form == "string":
            assert all(_key(f) <= _key(d) for d in disguises)
        else:
            assert all(_pattern(f) <= _pattern(d) for d in disguises)
        # The same automorphism count for every member of the class.
        assert (autos == autos[0]).all() and autos[0] >= 1
        # A form is its own form.
        assert sb.canon([f], form=form) == [f]


@pytest.mark.parametrize("box, n", [((2, 2), 40), ((2, 3), 6)])
def test_small_grids_match_a_brute_force_over_the_whole_group(box, n):
    side = box[0] * box[1]
    rng = np.random.default_rng(7)
    p = sb.generate(n, size=side, seed=5, as_array=True)
    # Full grids too, and disguises of the puzzles.
    p = np.concatenate([p, sb.solve(p[:2]), np.array([random_transform(r, rng, box) for r in p])])
    forms = sb.canon(p)
    assert forms.shape == p.shape and forms.dtype == p.dtype
    for row, f in zip(p, forms):
        assert (f == brute_minlex(row, box)).all(), show(row)


def test_inputs_of_every_kind_give_forms_of_that_kind(puzzles):
    p = puzzles[:10]
    want = sb.canon(p)
    cells = to_cells(p)
    a = sb.canon(cells.reshape(-1, 9, 9).astype(np.int64))
    assert a.shape == (10, 9, 9) and a.dtype == np.int64
    assert [show(r) for r in a.reshape(10, 81)] == want
    arr = sb.canon(pa.array(p, type=pa.large_string()))
    assert arr.type == pa.large_string() and arr.to_pylist() == want
    chunked = sb.canon(pa.chunked_array([p[:4], p[4:]]))
    assert isinstance(chunked, pa.ChunkedArray) and chunked.to_pylist() == want
    s = pd.Series(p, index=range(100, 110), name="quiz", dtype="string")
    out = sb.canon(s)
    assert out.dtype == "string" and out.name == "canonical"
    assert list(out.index) == list(range(100, 110)) and out.tolist() == want
    # One form whatever the blank symbol (issue 42): `.`, as the CLI.
    zeros = [x.replace(".", "0") for x in p]
    assert sb.canon(zeros) == want


def test_bad_rows_are_marked_as_solve_marks_them():
    good = read_lines("17_clue_sub.txt", 2)
    rows = [good[0], None, "12" + "." * 77, "x" + good[1][1:], "1" + "." * 255, good[1]]
    with pytest.warns(UserWarning, match="4 of 6 rows are bad"):
        forms, status = sb.canon(rows, return_status=True)
    assert forms[1:5] == [None] * 4 and forms[0] and forms[5]
    assert status[0] is None and status[5] is None
    assert status[1] == "null: no puzzle"
    assert "invalid character 'x'" in status[3]
    with pytest.raises(ValueError, match=r"row 2 \(puzzles\[1\]\): null"):
        sb.canon(rows, on_error="raise")
    # 16x16 has no form: a bad row of its own size, with the reason.
    big = np.zeros((2, 256), dtype=np.uint8)
    big[0, 0] = 1
    _, t, autos, status = sb.canon(big, transform=True, on_error="ignore", return_status=True)
    assert t == [None, None] and autos.tolist() == [-1, -1]
    assert "canonical forms are computed for 9x9, 4x4 and 6x6" in status[0]
    # Array values outside the grid's range are bad rows, not wrapped.
    a = to_cells(good).astype(np.int16)
    a[1, 4] = 300
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        forms, status = sb.canon(a, return_status=True)
    assert status == [None, "cell 5: value 300 is not in 0..=9"]
    assert (forms[1] == 0).all() and show(forms[0]) == sb.canon(good[:1])[0]
    with pytest.raises(ValueError, match="form must be one of"):
        sb.canon(good, form="minlex")


def _disguises(rng, bases, picks):
    """For each index in `picks`, a random disguise of that base puzzle:
    rows whose classes are known by construction."""
    return [show(random_transform(parse(bases[k]), rng)) for k in picks]


def test_dedupe_keeps_the_first_of_each_known_class():
    rng = np.random.default_rng(3)
    bases = read_lines("17_clue_sub.txt", 30)  # Royle's list: no two isomorphic
    classes = [int(k) for k in rng.integers(0, 30, size=300)]
    rows = _disguises(rng, bases, classes)
    # Exact copies among them, with the other blank symbol half the time.
    for n in range(40):
        i, j = (int(x) for x in rng.integers(0, len(rows), size=2))
        rows.insert(j, rows[i].replace(".", "0") if n % 2 else rows[i])
        classes.insert(j, classes[i])
    first = {}
    for i, c in enumerate(classes):
        first.setdefault(c, i)
    want = sorted(first.values())
    kept = sb.dedupe(rows)
    assert kept.dtype == np.int64 and kept.tolist() == want
    assert sb.dedupe(to_cells(rows).reshape(-1, 9, 9)).tolist() == want
    assert sb.dedupe(pd.Series(rows)).tolist() == want
    assert sb.dedupe(pa.array(rows), by="iso", threads=1).tolist() == want
    # by="exact": equal cells, whatever the blank symbol.
    seen = {}
    for i, r in enumerate(rows):
        seen.setdefault(_key(r), i)
    assert sb.dedupe(rows, by="exact").tolist() == sorted(seen.values())
    # A bad row is kept (a class of its own), with a warning.
    with pytest.warns(UserWarning, match="1 of 4 rows are bad"):
        assert sb.dedupe([rows[0], None, rows[0], rows[1]]).tolist() == (
            [0, 1] + ([3] if classes[1] != classes[0] else []))


def test_overlap_finds_the_test_rows_of_train_classes():
    rng = np.random.default_rng(5)
    bases = read_lines("17_clue_sub.txt", 50)
    tr_class = [int(k) for k in rng.integers(0, 30, size=120)]
    te_class = [int(k) for k in rng.integers(20, 50, size=80)]
    train = _disguises(rng, bases, tr_class)
    test = _disguises(rng, bases, te_class)
    # Two exact copies of train rows at known places.
    test[3], te_class[3] = train[10], tr_class[10]
    test[7], te_class[7] = train[11].replace(".", "0"), tr_class[11]
    first = {}
    for i, c in enumerate(tr_class):
        first.setdefault(c, i)
    train_keys = {_key(r) for r in train}
    want = [i for i, c in enumerate(te_class) if c in first]
    leak = sb.overlap(train, test)
    assert leak.test.tolist() == want
    assert leak.train.tolist() == [first[te_class[i]] for i in want]
    assert leak.exact.tolist() == [_key(test[i]) in train_keys for i in want]
    assert leak.exact_copies >= 2 and leak.leaked == len(want) and bool(leak)
    assert (leak.test_rows, leak.train_rows) == (80, 120)
    # Mixed kinds, and exact only.
    again = sb.overlap(to_cells(train), pd.Series(test))
    assert again.test.tolist() == want and again.train.tolist() == leak.train.tolist()
    exact = sb.overlap(train, test, by="exact")
    assert exact.test.tolist() == [i for i in want if _key(test[i]) in train_keys]
    assert exact.exact.all() and exact.exact_copies == exact.leaked >= 2
    # No shared class: nothing leaks.
    clean = sb.overlap(train, [t for t, c in zip(test, te_class) if c >= 30])
    assert not clean and clean.leaked == 0
