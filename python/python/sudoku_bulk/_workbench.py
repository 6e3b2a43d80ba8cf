"""The dataset workbench: leak-free splits, augmentation and the dataset
card of the ``sudoku-bulk split``, ``augment`` and ``stats`` commands,
from Python.

Place in the data flow: the user's puzzles (any kind
:func:`sudoku_bulk.solve` takes) or a table holding them (a pandas
DataFrame, a pyarrow Table) -> here: the puzzle column picked and checked,
turned into a ``uint8`` array of rows or a list of str -> ``sudoku_bulk._native``
(Rust, ``python/src/workbench.rs``) computes every row's keys with the
commands' own per-record job on a thread pool with the GIL released, and
the library's in-memory twins of the commands (the same seeded class order
and walk as ``split``, the same walks as ``stats``, the same disguises as
``augment``) do the rest -> index arrays, tables or a dict back.
:mod:`sudoku_bulk` re-exports these functions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np

from . import _native
from ._analysis import _BY, _native_rows, _sb

__all__ = ["split", "augment", "Augmented", "stats"]

#: Puzzle and solution columns of known datasets, as the command reads
#: CSV headers and tables (``src/text/detect.rs``, ``KNOWN_COLUMNS``).
_KNOWN_COLUMNS = (
    ("quizzes", "solutions"),
    ("puzzle", "solution"),
    ("question", "answer"),
    ("quiz", "solution"),
    ("puzzles", "solutions"),
)


def _table_kind(data: Any) -> Optional[str]:
    """``"pandas"`` for a DataFrame, ``"arrow"`` for a pyarrow Table or
    RecordBatch, else None (a puzzles collection)."""
    m = _sb()._module_of(data)
    if m == "pandas":
        import pandas as pd

        if isinstance(data, pd.DataFrame):
            return "pandas"
    if m == "pyarrow":
        import pyarrow as pa

        if isinstance(data, (pa.Table, pa.RecordBatch)):
            return "arrow"
    return None


def _names(data: Any, kind: str) -> List[str]:
    return [str(c) for c in data.columns] if kind == "pandas" else list(data.schema.names)


def _pick(data: Any, kind: str, column: Any, what: str = "column") -> str:
    """The puzzle column of a table: `column`, else the first known
    dataset column it has (``quizzes``, ``puzzle``, ``question`` ...)."""
    names = _names(data, kind)
    if column is None:
        for p, _ in _KNOWN_COLUMNS:
            if p in names:
                return p
        raise ValueError(
            f"no puzzle column among {names}: name it with {what}= "
            f"(known names: {', '.join(p for p, _ in _KNOWN_COLUMNS)})"
        )
    if not isinstance(column, str):
        raise TypeError(f"{what} must be a column name (str), not {type(column).__name__}")
    if column not in names:
        raise ValueError(f"no column {column!r} in the table (columns: {names})")
    return column


#: Columns `stats` reads a rating or level from, in the command's order.
_RATING_COLUMNS = ("er", "rating", "level", "difficulty")


def _rating_text(v: Any) -> str:
    """A rating value as the command writes it: empty for null/NaN, an
    integral float without its ``.0`` (Rust's float display)."""
    if v is None:
        return ""
    if isinstance(v, (float, np.floating)):
        if v != v:
            return ""
        if float(v).is_integer():
            return str(int(v))
        return repr(float(v))
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    return str(v)


def _rating_column(data: Any, kind: str, puzzle: str) -> Optional[Tuple[str, List[str]]]:
    """(name, values as text) of the table's first rating or level column."""
    names = _names(data, kind)
    for c in _RATING_COLUMNS:
        if c in names and c != puzzle:
            col = _col(data, kind, c)
            values = col.tolist() if kind == "pandas" else col.to_pylist()
            return c, [_rating_text(v) for v in values]
    return None


def _col(data: Any, kind: str, name: str) -> Any:
    """Column `name` as the puzzles kinds take it: a Series or a pyarrow
    (Chunked)Array."""
    return data[name] if kind == "pandas" else data.column(name)


def _take(data: Any, kind: str, idx: np.ndarray) -> Any:
    """Rows `idx` of a table, in that order."""
    if kind == "pandas":
        return data.iloc[idx]
    return data.take(idx)


def _strata(stratify: Any, data: Any, kind: Optional[str], n: int) -> Tuple[Optional[str], Any]:
    """`stratify` as the native call takes it: (None | "clues" | "given",
    uint32 stratum numbers one a row for "given")."""
    if stratify is None:
        return None, None
    if isinstance(stratify, str):
        if stratify == "clues":
            return "clues", None
        if kind is None:
            raise ValueError(
                f'stratify must be None, "clues" or one label a row, not {stratify!r} '
                "(a column name needs a DataFrame or Table)"
            )
        if stratify not in _names(data, kind):
            raise ValueError(
                f'stratify must be None, "clues" or a column of the table, not {stratify!r} '
                f"(columns: {_names(data, kind)})"
            )
        values = _col(data, kind, stratify)
    else:
        values = stratify
    if _sb()._module_of(values) == "pyarrow":
        values = values.to_pylist()
    labels = np.asarray(values, dtype=object)
    if labels.ndim != 1 or len(labels) != n:
        raise ValueError(f"stratify holds {labels.size} labels for {n} rows: one a row")
    # Missing labels are a stratum of their own.
    keys = ["\x00none" if v is None or (isinstance(v, float) and v != v) else repr(v) for v in labels]
    _, inverse = np.unique(np.asarray(keys, dtype=object), return_inverse=True)
    return "given", np.ascontiguousarray(inverse.astype(np.uint32))


def split(
    data: Any,
    test: float = 0.1,
    val: float = 0.0,
    *,
    seed: int = 0,
    by: str = "iso",
    stratify: Any = None,
    column: Optional[str] = None,
    threads: Optional[int] = None,
    on_error: str = "mark",
    progress: Any = None,
) -> Tuple[Any, ...]:
    """A leak-free train/test(/val) split: every isomorph class (``by="iso"``:
    the puzzles that are disguises of each other) or every set of equal
    puzzles (``by="exact"``) goes whole to one part, so no test puzzle has
    an isomorph in train. The parts of ``sudoku-bulk split`` for the same
    rows, seed and options: classes in an order only the seed and their
    canonical forms decide, each part within one class of its fraction
    (of each stratum with ``stratify``); the same result whatever
    ``threads``.

    Args:
        data: puzzles as for :func:`sudoku_bulk.solve` (a NumPy array, a
            list of str, a pyarrow array, a pandas Series), or a pandas
            DataFrame / pyarrow Table holding them in ``column``.
        test: share of the rows in the test part (0 to 1).
        val: share of the rows in a validation part (0: none).
        seed: seed of the class order.
        by: ``"iso"`` (default) or ``"exact"``, as for :func:`dedupe`.
        stratify: hold the fractions within strata: ``"clues"`` (each clue
            count, as the command's ``--stratify clues``), a column name of
            the table, or one label a row (a list, array or Series: a
            class's stratum is its first row's label).
        column: the puzzle column of a table (default: the first of
            ``quizzes``, ``puzzle``, ``question``, ``quiz``, ``puzzles``).
        threads: worker threads (default: all cores).
        on_error: as for :func:`sudoku_bulk.solve`. A bad row (unreadable;
            past 9x9; 16x16 and larger have no form) has no class and goes
            to train, as the command keeps it there.
        progress: as for :func:`sudoku_bulk.dedupe` (rows keyed so far).

    Returns:
        ``(train, test)``, or ``(train, test, val)`` when ``val > 0``: for
        a DataFrame or Table the parts' rows (input order within each,
        the DataFrame's index kept); otherwise int64 NumPy arrays of row
        positions, ascending (``puzzles[train]``, ``series.iloc[train]``,
        ``array.take(train)``).
    """
    sb = _sb()
    by = sb._choice("by", by, _BY)
    on_error = sb._choice("on_error", on_error, sb._ON_ERROR)
    threads = sb._threads(threads)
    for name, v in (("test", test), ("val", val)):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name} must be a fraction (a float), not {type(v).__name__}")
    seed = sb._int("seed", seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    kind = _table_kind(data)
    puzzles = _col(data, kind, _pick(data, kind, column)) if kind else data
    rows, pre_bad, _ = _native_rows(puzzles, "puzzles")
    mode, strata = _strata(stratify, data, kind, len(rows))
    parts, bad = _native.split_rows(
        rows,
        float(test),
        float(val),
        seed,
        by=by,
        form="pattern",
        stratify=mode,
        strata=strata,
        threads=threads,
        pre_bad=pre_bad,
        progress=sb._progress_fn(progress),
    )
    sb._settle(puzzles, bad, on_error, "kept in train, each a class of its own")
    k = 3 if val > 0 else 2
    idx = tuple(np.flatnonzero(parts == p).astype(np.int64) for p in range(k))
    if kind:
        return tuple(_take(data, kind, i) for i in idx)
    return idx


@dataclass(frozen=True)
class Augmented:
    """What :func:`augment` made from a puzzles collection.

    Attributes:
        puzzles: the output puzzles in the input's kind (an array of the
            input's row shape and dtype, a list of str, a pyarrow array, a
            pandas Series whose index repeats each input row's label).
        solutions: their solutions, transformed along, in the solutions'
            kind (None when none were given; a row without one is zeros
            or None).
        transforms: with ``transform=True``, each output row's transform
            (``canon --transform``'s ``N|T/ROWS/COLS/LABELS``: output cell
            ``(i, j)`` is ``LABELS[src[ROWS[i]][COLS[j]]]``); None for a
            bad row copied unchanged. Else None.
        source: int64: the input row (position) of each output row.
    """

    puzzles: Any
    solutions: Any
    transforms: Any
    source: np.ndarray


def _rows_like(original: Any, out: Any, source: np.ndarray, copied: np.ndarray, name: str) -> Any:
    """The native output rows in the kind of `original`: an array of its
    row shape and dtype (bad rows copied from it), a list, a pyarrow array
    of its type, a Series with its index labels repeated."""
    sb = _sb()
    k = sb._kind(original)
    if k == "numpy":
        shape = (len(source),) + tuple(original.shape[1:])
        arr = out.reshape(shape).astype(original.dtype, copy=False)
        if copied.any():
            arr = arr.copy() if not arr.flags.writeable else arr
            arr[copied] = original[source[copied]]
        return arr
    out = list(out)
    if copied.any():
        # A bad row (and its solution) is copied as it came.
        values = original.to_pylist() if k == "arrow" else list(original)
        for i in np.flatnonzero(copied):
            out[i] = values[source[i]]
    if k == "strings":
        return out
    if k == "pandas":
        import pandas as pd

        s = pd.Series(out, dtype=object, index=original.index[source], name=name)
        dtype = original.dtype
        if isinstance(dtype, (pd.StringDtype, pd.ArrowDtype)):
            s = s.astype(dtype)
        return s
    import pyarrow as pa

    t = original.type
    arr = pa.array(out, type=pa.string())
    if not pa.types.is_null(t) and t != arr.type and not pa.types.is_dictionary(t):
        arr = arr.cast(t)
    return arr


def _augment_options(n: Any, seed: Any, keep_original: Any, transform: Any, blank: Any) -> Tuple[int, int, bool, bool]:
    """``augment``'s options checked, as ``spark.augment`` takes them too:
    ``(n, seed, keep_original, transform)``."""
    sb = _sb()
    n = sb._int("n", n)
    if not 0 <= n < 2**32:
        raise ValueError(f"n must be in 0..2**32, not {n}")
    seed = sb._int("seed", seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    keep_original = sb._flag("keep_original", keep_original)
    transform = sb._flag("transform", transform)
    sb._choice("blank", blank, ("0", "."), optional=True)
    return n, seed, keep_original, transform


def augment(
    data: Any,
    n: int = 1,
    *,
    solutions: Any = None,
    seed: int = 0,
    keep_original: bool = False,
    transform: bool = False,
    blank: Optional[str] = None,
    column: Optional[str] = None,
    solution_column: Optional[str] = None,
    threads: Optional[int] = None,
    on_error: str = "mark",
) -> Any:
    """``n`` random disguises of every puzzle (a training-set multiplier),
    as ``sudoku-bulk augment`` makes them: rows permuted within bands and
    the bands, columns within stacks and the stacks, a transposition half
    the time when the boxes are square, the digits relabelled. Each keeps
    its solutions (transformed along) and its difficulty. A puzzle's
    disguises depend only on ``seed`` and its cells: the command's for the
    same record, whatever ``threads``. Any size with square or
    rectangular boxes.

    Args:
        data: puzzles as for :func:`sudoku_bulk.solve`, or a pandas
            DataFrame / pyarrow Table holding them in ``column``.
        n: disguises per puzzle.
        solutions: the puzzles' solutions (a collection of the same kind,
            one a puzzle; None or zeros where there is none), transformed
            along; for a table, ``solution_column`` instead.
        seed: seed of the disguises.
        keep_original: each puzzle itself before its disguises.
        transform: also give each row's transform (a ``transform`` column
            for a table).
        blank: the blank symbol of string outputs, ``"."`` or ``"0"``
            (default: each puzzle's own).
        column: a table's puzzle column (default: the first known one,
            as for :func:`split`).
        solution_column: a table's solution column (default: the known
            partner of the puzzle column when the table has it, such as
            ``solution`` for ``puzzle``); it is transformed along.
        threads: worker threads (default: all cores).
        on_error: as for :func:`sudoku_bulk.solve`. A bad row (unreadable)
            is copied once, unchanged, as the command copies it.

    Returns:
        For a table: a table of the same kind with ``n`` (``n + 1`` with
        ``keep_original``) rows per good input row, in order, every other
        column carried (a DataFrame's index label repeated), the puzzle
        and solution columns transformed. Otherwise an :class:`Augmented`.
    """
    sb = _sb()
    n, seed, keep_original, transform = _augment_options(n, seed, keep_original, transform, blank)
    on_error = sb._choice("on_error", on_error, sb._ON_ERROR)
    threads = sb._threads(threads)
    kind = _table_kind(data)
    sol_name = None
    if kind:
        if solutions is not None:
            raise ValueError("a table's solutions are its solution_column=, not solutions=")
        pcol = _pick(data, kind, column)
        if solution_column is not None:
            sol_name = _pick(data, kind, solution_column, "solution_column")
        else:
            partner = dict(_KNOWN_COLUMNS).get(pcol)
            names = _names(data, kind)
            sol_name = partner if partner in names else None
        puzzles = _col(data, kind, pcol)
        solutions = _col(data, kind, sol_name) if sol_name else None
    else:
        puzzles = data
        if solution_column is not None or column is not None:
            raise ValueError("column= and solution_column= name a table's columns")
    rows, pre_bad, _ = _native_rows(puzzles, "puzzles")
    sol_rows, sol_bad = None, []
    if solutions is not None:
        sol_rows, sol_bad, _ = _native_rows(solutions, "solutions")
        if len(sol_rows) != len(rows):
            raise ValueError(f"{len(sol_rows)} solutions for {len(rows)} puzzles: one a puzzle")
    out, sol_out, transforms, source, copied, bad = _native.augment_rows(
        rows,
        n,
        seed,
        keep_original=keep_original,
        transform=transform,
        solutions=sol_rows,
        blank=blank,
        threads=threads,
        pre_bad=pre_bad,
        solution_bad=sol_bad,
    )
    sb._settle(puzzles, bad, on_error, "copied once, unchanged")
    if kind:
        return _table_out(
            data, kind, pcol, sol_name, out, sol_out, transforms, source, copied, puzzles,
            solutions,
        )
    pz = _rows_like(puzzles, out, source, copied, "puzzle")
    sl = None
    if solutions is not None:
        sl = _rows_like(solutions, sol_out, source, copied, "solution")
    tr = None
    if transform:
        tr = transforms
        if sb._kind(puzzles) == "pandas":
            import pandas as pd

            tr = pd.Series(transforms, dtype=object, index=puzzles.index[source], name="transform")
        elif sb._kind(puzzles) == "arrow":
            import pyarrow as pa

            tr = pa.array(transforms, type=pa.string())
    return Augmented(pz, sl, tr, source)


def _table_out(
    data: Any,
    kind: str,
    pcol: str,
    sol_name: Optional[str],
    out: Any,
    sol_out: Any,
    transforms: Any,
    source: np.ndarray,
    copied: np.ndarray,
    puzzles: Any,
    solutions: Any,
) -> Any:
    """The augmented rows as a table of `data`'s kind: its rows at
    `source`, the puzzle (and solution) column replaced, ``transform``
    added when asked."""
    if kind == "pandas":
        import pandas as pd

        t = data.iloc[source].copy()
        t[pcol] = _rows_like(puzzles, out, source, copied, pcol).array
        if sol_name is not None:
            t[sol_name] = _rows_like(solutions, sol_out, source, copied, sol_name).array
        if transforms is not None:
            t["transform"] = pd.Series(transforms, index=t.index, dtype=object)
        return t
    import pyarrow as pa

    t = data.take(pa.array(source))
    if isinstance(t, pa.RecordBatch):
        t = pa.Table.from_batches([t])
    names = list(t.schema.names)
    t = t.set_column(names.index(pcol), pcol, _rows_like(puzzles, out, source, copied, pcol))
    if sol_name is not None:
        arr = _rows_like(solutions, sol_out, source, copied, sol_name)
        t = t.set_column(names.index(sol_name), sol_name, arr)
    if transforms is not None:
        t = t.append_column("transform", pa.array(transforms, type=pa.string()))
    return t


def stats(
    data: Any,
    *,
    against: Any = None,
    name: str = "puzzles",
    against_name: str = "against",
    column: Optional[str] = None,
    as_frame: bool = False,
    threads: Optional[int] = None,
    on_error: str = "mark",
    progress: Any = None,
) -> Any:
    """The dataset card of ``sudoku-bulk stats``: records and bad records,
    grid sizes, blank symbols (string puzzles), the clue-count histogram,
    how many puzzles have 0, 1 and 2+ solutions, isomorph classes,
    isomorph repeats and exact duplicates, and with ``against`` how many
    records have an isomorph (or a copy) in another set. The numbers of
    ``sudoku-bulk stats --json`` for the same records (the same keys and
    walks). Grids up to 9x9; larger ones are bad rows.

    Args:
        data: puzzles as for :func:`sudoku_bulk.solve`, or a pandas
            DataFrame / pyarrow Table holding them in ``column``.
        against: another set (any kind) to count overlap with.
        name, against_name: the names the card gives the two sets.
        column: a table's puzzle column (default: the first known one).
        as_frame: a one-row pandas DataFrame (``pandas.json_normalize`` of
            the dict: columns ``clues.17``, ``solutions.1`` ...) instead.
        threads: worker threads (default: all cores).
        on_error: as for :func:`sudoku_bulk.solve`.
        progress: as for :func:`sudoku_bulk.dedupe`, over the rows of both
            sets.

    Returns:
        A dict as the command's JSON object: ``name``, ``records``,
        ``bad``, ``sizes`` (``{"9": n}``), ``blanks`` (``{".": n}``),
        ``clues`` (``{"17": n}``), ``solutions`` (``{"0", "1", "2+"}``),
        ``classes``, ``iso_repeats``, ``exact_duplicates``, with
        ``against`` ``against: {"name", "isomorphs", "copies"}``, and for a
        table with a rating or level column (``er``, ``rating``, ``level``
        or ``difficulty``, the first found) ``ratings: {"column", "values":
        [[value, records], ...], "missing"}``.
    """
    sb = _sb()
    on_error = sb._choice("on_error", on_error, sb._ON_ERROR)
    as_frame = sb._flag("as_frame", as_frame)
    threads = sb._threads(threads)
    for what, v in (("name", name), ("against_name", against_name)):
        if not isinstance(v, str):
            raise TypeError(f"{what} must be a str, not {type(v).__name__}")
    kind = _table_kind(data)
    picked = _pick(data, kind, column) if kind else None
    puzzles = _col(data, kind, picked) if kind else data
    ratings = _rating_column(data, kind, picked) if kind else None
    rows, pre_bad, _ = _native_rows(puzzles, "puzzles")
    other, other_bad = None, []
    if against is not None:
        okind = _table_kind(against)
        against = _col(against, okind, _pick(against, okind, column)) if okind else against
        other, other_bad, _ = _native_rows(against, "against")
    text, bad, bad_other = _native.stats_rows(
        rows,
        name,
        against=other,
        against_name=against_name,
        threads=threads,
        pre_bad=pre_bad,
        against_bad=other_bad,
        ratings=ratings,
        progress=sb._progress_fn(progress),
    )
    sb._settle(puzzles, bad, on_error, "counted as bad, no class")
    if against is not None:
        sb._settle(against, bad_other, on_error, "matching nothing")
    card = json.loads(text)[0]
    if as_frame:
        import pandas as pd

        return pd.json_normalize(card)
    return card

