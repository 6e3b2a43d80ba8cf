"""Canonical forms, isomorph-aware dedupe and leakage checks, and human
difficulty ratings: the analyses of the ``sudoku-bulk canon`` and ``rate``
commands, from Python.

Place in the data flow: the user's puzzles (any kind :func:`sudoku_bulk.solve`
takes) -> here: checked and turned into a ``uint8`` array of rows or a list
of str -> ``sudoku_bulk._native`` (Rust, ``python/src/analysis.rs``) reads
them with the command's layout rules and runs the library's canonicaliser
or rater on every row on a thread pool with the GIL released -> results
back in the input's own kind (forms), or as NumPy arrays (indices,
ratings). :mod:`sudoku_bulk` re-exports these functions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = ["canon", "dedupe", "overlap", "Overlap", "rate", "techniques"]

_FORMS = ("string", "pattern")
_BY = ("iso", "exact")


def _sb() -> Any:
    # The package's argument checks and bad-row rules (defined in
    # __init__, which imports this module last).
    import sudoku_bulk

    return sudoku_bulk


def _native_rows(puzzles: Any, what: str) -> Tuple[Any, List[Tuple[int, str]], bool]:
    """`puzzles` as the native analyses take them: a C-contiguous ``uint8``
    (N, cells) array, or a list of str / None. Also the rows found bad on
    the way (array values outside ``0..=side``, which the cast to ``uint8``
    would wrap) and whether a pandas Series held text.

    Strings from pyarrow and pandas are handed over as a list: the analyses
    cost far more per row than the list (measured: ``to_pylist`` of 100k
    17-clue puzzles 6 ms, their canonical forms 3 s on one core)."""
    sb = _sb()
    k = sb._kind(puzzles)
    if k == "numpy":
        flat, side = sb._rows(puzzles, what)
        pre_bad: List[Tuple[int, str]] = []
        if flat.dtype != np.uint8:
            out = (flat < 0) | (flat > side)
            for r in np.flatnonzero(out.any(axis=1)):
                c = int(np.argmax(out[r]))
                pre_bad.append((int(r), f"cell {c + 1}: value {flat[r, c]} is not in 0..={side}"))
            flat = np.where(out, 0, flat).astype(np.uint8)
        return np.ascontiguousarray(flat), pre_bad, False
    if k == "strings":
        return list(puzzles), [], True
    if k == "pandas":
        rows, text = sb._series_rows(puzzles, None, what)
        return (rows if isinstance(rows, list) else rows.to_pylist()), [], text
    # pyarrow
    import pyarrow as pa

    t = puzzles.type
    if isinstance(t, pa.DictionaryType):
        t = t.value_type
    if not (
        pa.types.is_string(t)
        or pa.types.is_large_string(t)
        or pa.types.is_string_view(t)
        or pa.types.is_null(t)
    ):
        raise sb._arrow_type_error(puzzles.type)
    return puzzles.to_pylist(), [], True


def _part(rows: Any, a: int, b: int) -> Any:
    """Rows `a..b` of the native rows (the rows themselves when that is
    all of them: no copy of a list)."""
    return rows if (a, b) == (0, len(rows)) else rows[a:b]


def _part_bad(pre_bad: List[Tuple[int, str]], a: int, b: int) -> List[Tuple[int, str]]:
    """The rows found bad before the native call that fall in `a..b`,
    counted from `a`."""
    return [(i - a, r) for i, r in pre_bad if a <= i < b]


def _like(
    puzzles: Any, values: List[Optional[str]], text: bool, keep_type: bool, name: str
) -> Any:
    """`values` (str or None per row) in the kind of `puzzles`: a list, a
    pyarrow array (of the puzzles' type when `keep_type`) or a pandas
    Series with the puzzles' index (and text dtype), named `name` as the
    command names its column."""
    sb = _sb()
    k = sb._kind(puzzles)
    if k in ("strings", "numpy"):
        return values
    if k == "pandas":
        import pandas as pd

        out = pd.Series(values, dtype=object, index=puzzles.index, name=name)
        dtype = puzzles.dtype
        if keep_type and text and isinstance(dtype, pd.CategoricalDtype):
            out = out.astype("category")
        elif keep_type and text and isinstance(dtype, (pd.StringDtype, pd.ArrowDtype)):
            out = out.astype(dtype)
        return out
    import pyarrow as pa

    arr = pa.array(values, type=pa.string())
    if keep_type and not pa.types.is_null(puzzles.type) and puzzles.type != arr.type:
        arr = arr.cast(puzzles.type)
    if isinstance(puzzles, pa.ChunkedArray):
        return pa.chunked_array([arr], type=arr.type)
    return arr


def _numbers(puzzles: Any, values: np.ndarray, name: str) -> Any:
    """Per-row numbers: a pandas Series (the puzzles' index) for a Series,
    else the NumPy array."""
    if _sb()._module_of(puzzles) == "pandas":
        import pandas as pd

        return pd.Series(values, index=puzzles.index, name=name)
    return values


def canon(
    puzzles: Any,
    form: str = "string",
    transform: bool = False,
    *,
    threads: Optional[int] = None,
    on_error: str = "mark",
    return_status: bool = False,
    progress: Any = None,
) -> Any:
    """The canonical form of every puzzle (or full grid): one representative
    of its class under the 3,359,232 geometric transforms of a 9x9 grid
    (transpose, permute bands, rows within a band, stacks, columns within
    a stack) and the relabelling of the digits. Two puzzles are disguises
    of each other exactly when their forms are equal. The same forms as
    ``sudoku-bulk canon``.

    Args:
        puzzles: as for :func:`sudoku_bulk.solve` (a NumPy integer array, a
            list of str, a pyarrow string array, a pandas Series). 9x9,
            4x4 and 6x6 (2x3 boxes) grids; other sizes are bad rows.
        form: ``"string"`` (default): the lexicographically smallest
            81-cell string over the whole group, blank = 0 (blanks sort
            first); ``"pattern"``: the pattern-first minlex of dobrichev's
            ``sudoku-minlexing-tool`` (smallest given/blank pattern first,
            then the smallest string among those), byte-identical to it.
        transform: also return, per row, the transform that maps the puzzle
            to its form and the number of automorphisms.
        threads: worker threads (default: all cores); Ctrl-C stops the call.
        on_error: as for :func:`sudoku_bulk.solve`: bad rows (unreadable,
            a size without forms) are zeros, None or null.
        return_status: also return the per-row reasons (None for good rows).
        progress: a callable ``progress(done, total)`` or ``True`` for a
            tqdm bar, as for :func:`sudoku_bulk.solve`.

    A form does not depend on whether the puzzle can be solved: clashing
    givens get a form like any other cells.

    Returns:
        The forms in the input's kind: an array of the input's shape and
        dtype, a list of str, a pyarrow array of the input's type, a pandas
        Series (the input's index, named ``canonical`` as the command's
        column; ``transform`` and ``automorphisms`` for the others). Strings are written in each puzzle's own symbols and blank
        (``.`` or ``0``). With ``transform=True``: ``(forms, transforms,
        automorphisms)``, where ``transforms`` holds one text per row
        (``N/ROWS/COLS/LABELS``, ``T/...`` when transposed first; a list,
        or a pyarrow array / pandas Series for those inputs; None for bad
        rows) and ``automorphisms`` is an int64 array (-1 for bad rows).
        ``return_status=True`` appends the status list.

    The transform text: target row ``i`` takes source row ``ROWS[i]``,
    target column ``j`` source column ``COLS[j]`` (both 0-based), and
    digit ``d`` becomes ``LABELS[d - 1]``; so ``form[i][j] =
    LABELS[src[ROWS[i]][COLS[j]]]``, with ``src`` the puzzle, transposed
    first for ``T``.
    """
    sb = _sb()
    form = sb._choice("form", form, _FORMS)
    transform = sb._flag("transform", transform)
    on_error = sb._choice("on_error", on_error, sb._ON_ERROR)
    return_status = sb._flag("return_status", return_status)
    threads = sb._threads(threads)
    rows, pre_bad, text = _native_rows(puzzles, "puzzles")
    forms, transforms, autos, bad = sb._in_parts(
        len(rows),
        sb._progress_fn(progress),
        lambda a, b: _native.canon_rows(
            _part(rows, a, b), form, transform, threads, pre_bad=_part_bad(pre_bad, a, b)
        ),
    )
    sb._settle(puzzles, bad, on_error, "no form: zeros, None or null")
    if isinstance(puzzles, np.ndarray):
        forms = forms.reshape(puzzles.shape).astype(puzzles.dtype, copy=False)
    else:
        forms = _like(puzzles, forms, text, keep_type=True, name="canonical")
    out: Tuple[Any, ...] = (forms,)
    if transform:
        out += (_like(puzzles, transforms, text, keep_type=False, name="transform"), _numbers(
            puzzles, autos, "automorphisms"))
    if return_status:
        out += (sb._status(sb._length(puzzles), bad),)
    return out[0] if len(out) == 1 else out


def dedupe(
    puzzles: Any,
    by: str = "iso",
    *,
    threads: Optional[int] = None,
    on_error: str = "mark",
    progress: Any = None,
) -> np.ndarray:
    """The rows to keep so that no two kept puzzles are the same: the index
    of the first row of each class, ascending (an int64 NumPy array; use
    ``puzzles[kept]``, ``[puzzles[i] for i in kept]``, ``series.iloc[kept]``
    or ``array.take(kept)``).

    Args:
        puzzles: as for :func:`sudoku_bulk.solve`.
        by: ``"iso"`` (default): puzzles are the same when one is a
            disguise of the other (equal canonical forms; 9x9, 4x4 and 6x6
            grids); ``"exact"``: when their cells are equal (``.`` and
            ``0`` blanks are the same; any grid size).
        threads: worker threads (default: all cores).
        on_error: as for :func:`sudoku_bulk.solve`. A bad row (unreadable,
            no form for its size) is never dropped: it is kept, a class of
            its own, and ``"mark"`` warns about it.
        progress: a callable ``progress(done, total)`` (rows keyed so far)
            or ``True`` for a tqdm bar, as for :func:`sudoku_bulk.solve`;
            called about 100 times.
    """
    sb = _sb()
    by = sb._choice("by", by, _BY)
    on_error = sb._choice("on_error", on_error, sb._ON_ERROR)
    threads = sb._threads(threads)
    report = sb._progress_fn(progress)
    rows, pre_bad, _ = _native_rows(puzzles, "puzzles")
    kept, bad = _native.dedupe_rows(rows, by, threads, pre_bad=pre_bad, progress=report)
    sb._settle(puzzles, bad, on_error, "kept, each a class of its own")
    return kept


@dataclass(frozen=True)
class Overlap:
    """What :func:`overlap` found: the test rows that also occur in train.

    Attributes:
        test: int64 indices (ascending) of the test rows with a match in
            train.
        train: for each of them, the index of the first train row of the
            same class (same form for ``by="iso"``, same cells for
            ``"exact"``).
        exact: for each of them, True when train also holds an exact copy
            (the same cells, not only a disguise).
        test_rows: how many rows test has.
        train_rows: how many rows train has.
    """

    test: np.ndarray
    train: np.ndarray
    exact: np.ndarray
    test_rows: int
    train_rows: int

    @property
    def leaked(self) -> int:
        """How many test rows have a match in train."""
        return int(len(self.test))

    @property
    def exact_copies(self) -> int:
        """How many test rows have an exact copy in train."""
        return int(self.exact.sum())

    def __bool__(self) -> bool:
        """True when any test row leaks (``if sudoku_bulk.overlap(a, b):``)."""
        return self.leaked > 0

    def __repr__(self) -> str:
        return (
            f"Overlap(leaked={self.leaked} of {self.test_rows} test rows, "
            f"exact_copies={self.exact_copies}, train_rows={self.train_rows})"
        )


def overlap(
    train: Any,
    test: Any,
    by: str = "iso",
    *,
    threads: Optional[int] = None,
    on_error: str = "mark",
    progress: Any = None,
) -> Overlap:
    """Leakage between two sets: which ``test`` puzzles also occur in
    ``train`` (as a disguise with ``by="iso"``, or cell for cell with
    ``"exact"``), each with the first matching train row, and whether an
    exact copy is among the matches. See :class:`Overlap`.

    Args:
        train, test: puzzles as for :func:`sudoku_bulk.solve` (each of any
            kind; same grid size).
        by: ``"iso"`` (default) or ``"exact"``, as for :func:`dedupe`.
        threads: worker threads (default: all cores).
        on_error: as for :func:`sudoku_bulk.solve`; bad rows never match.
        progress: as for :func:`dedupe`, over the rows of both sets.

    Example::

        >>> leak = sudoku_bulk.overlap(train, test)
        >>> clean_test = np.delete(np.arange(len(test)), leak.test)
    """
    sb = _sb()
    by = sb._choice("by", by, _BY)
    on_error = sb._choice("on_error", on_error, sb._ON_ERROR)
    threads = sb._threads(threads)
    report = sb._progress_fn(progress)
    a, a_bad, _ = _native_rows(train, "train")
    b, b_bad, _ = _native_rows(test, "test")
    ti, tr, ex, bad_a, bad_b = _native.overlap_rows(
        a, b, by, threads, train_bad=a_bad, test_bad=b_bad, progress=report
    )
    sb._settle(train, bad_a, on_error, "train rows that match nothing")
    sb._settle(test, bad_b, on_error, "test rows that match nothing")
    return Overlap(ti, tr, ex, sb._length(test), sb._length(train))


def _technique_list(techniques: Any) -> Optional[str]:
    if techniques is None:
        return None
    if isinstance(techniques, str):
        return techniques
    if isinstance(techniques, (list, tuple, set, frozenset)) and all(
        isinstance(t, str) for t in techniques
    ):
        if not techniques:
            raise ValueError("techniques is empty: name at least one (see techniques())")
        return ",".join(techniques)
    raise TypeError(
        "techniques must be None (all), a list of technique ids such as "
        f"['HiddenSingle', 'NakedSingle'] or a comma-separated str, not {type(techniques).__name__}"
    )


def techniques() -> List[dict]:
    """The rater's techniques in serate's order: ``{"id", "name",
    "implemented"}`` each. ``id`` is what ``rate(techniques=...)`` takes;
    every one is implemented today; a puzzle whose path needs one left
    out of ``rate(techniques=...)`` is unrated (ER NaN), never given a
    guessed number."""
    return [
        {"id": i, "name": n, "implemented": impl} for i, n, impl in _native.techniques()
    ]


def rate(
    puzzles: Any,
    steps: Union[bool, str] = False,
    techniques: Optional[Sequence[str]] = None,
    *,
    threads: Optional[int] = None,
    on_error: str = "mark",
    return_status: bool = False,
    progress: Any = None,
) -> Tuple[Any, ...]:
    """Sudoku Explainer difficulty: ER (the hardest step), EP (the hardest
    step up to the first placement) and ED (the first step) of every 9x9
    puzzle, as serate (Sukaku Explainer v1.18.1, default options) rates it,
    the numbers of ``sudoku-bulk rate``.

    Args:
        puzzles: 9x9 puzzles as for :func:`sudoku_bulk.solve`.
        steps: also return each puzzle's solving path (``True``: as a
            dict; ``"json"``: as the JSON text of the command's ``--steps``
            line, about 3x faster when the paths go to a file anyway).
        techniques: rate with only these techniques (serate ids, a list or
            a comma-separated str; :func:`techniques` lists them); a puzzle
            that needs another is unrated. Default: all.
        threads: worker threads (default: all cores).
        on_error: as for :func:`sudoku_bulk.solve`. Bad rows: unreadable,
            not 9x9, no solution or several solutions.
        return_status: also return the per-row reasons.
        progress: a callable ``progress(done, total)`` or ``True`` for a
            tqdm bar, as for :func:`sudoku_bulk.solve` (parts of at least
            1024 rows: a report every few seconds on hard puzzles).

    Returns:
        ``(er, ep, ed)``: float64 NumPy arrays (pandas Series with the
        puzzles' index for a Series), one decimal as serate prints them
        (``4.2``). NaN marks what has no number: every field of a bad row;
        ER of an unrated puzzle (its path needs a technique left out by
        ``techniques``; every serate technique is implemented), and its EP
        and ED when the path stopped before them (they are exact when
        given). With ``steps=True`` a fourth item: per row a dict as a line
        of the command's ``--steps`` JSONL (``puzzle``, ``status``
        ``"rated"``/``"unrated"``, ``er``/``ep``/``ed`` as strings or None,
        ``next`` for unrated, and ``steps``: a list of ``{"technique",
        "id", "rating", "placed": {"cell": "r1c2", "digit": 5} or None,
        "eliminated": [{"cell", "digit"}, ...]}``, with ``"cells"``, the
        pattern's cells, for a unique rectangle or loop and a BUG, and
        ``"inner"``, the chains nested in a Nested Forcing Chains step), None
        for a bad row (``return_status`` says why; the command's
        ``--steps`` writes a status line for it).
        With ``steps="json"`` the fourth item holds that object's JSON
        text instead (None for a bad row). ``return_status=True`` appends
        the status list.
    """
    sb = _sb()
    if isinstance(steps, str) and steps != "json":
        raise ValueError(f'steps must be True, False or "json", not {steps!r}')
    as_json = isinstance(steps, str)
    steps = as_json or sb._flag("steps", steps)
    on_error = sb._choice("on_error", on_error, sb._ON_ERROR)
    return_status = sb._flag("return_status", return_status)
    threads = sb._threads(threads)
    tech = _technique_list(techniques)
    rows, pre_bad, _ = _native_rows(puzzles, "puzzles")
    values, paths, bad = sb._in_parts(
        len(rows),
        sb._progress_fn(progress),
        lambda a, b: _native.rate_rows(
            _part(rows, a, b), steps, tech, threads, pre_bad=_part_bad(pre_bad, a, b)
        ),
    )
    sb._settle(puzzles, bad, on_error, "rated NaN")
    values = values.reshape(-1, 3)
    out: Tuple[Any, ...] = tuple(
        _numbers(puzzles, np.ascontiguousarray(values[:, k]), name)
        for k, name in enumerate(("er", "ep", "ed"))
    )
    if as_json:
        out += (sb._per_row(puzzles, paths, "steps"),)
    elif steps:
        # json.loads is most of the cost of steps (0.57 ms of 0.9 ms a
        # 17-clue puzzle, serial under the GIL): steps="json" skips it.
        loaded = [None if p is None else json.loads(p) for p in paths]
        out += (sb._per_row(puzzles, loaded, "steps"),)
    if return_status:
        out += (sb._status(sb._length(puzzles), bad),)
    return out
