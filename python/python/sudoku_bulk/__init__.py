"""Solve millions of Sudoku puzzles from Python with the sudoku-bulk engine.

Place in the data flow: the Python user's data (a NumPy array, a list of
strings, a pyarrow column, a pandas Series, a Spark DataFrame via
:mod:`sudoku_bulk.spark`) -> this module checks the arguments and picks the
converter -> ``sudoku_bulk._native`` (Rust) solves every row on a rayon pool
with the GIL released, using the same library and per-record rule as the
``sudoku-bulk`` command -> results come back in the input's own kind.

Functions:

- :func:`solve` -- one solution per puzzle (bad rows zero / None / null)
- :func:`count` -- number of solutions, capped at ``limit``
- :func:`check` -- is each solution a valid full grid keeping the givens?
- :func:`generate` -- the puzzles ``sudoku-bulk generate`` makes for a seed
- :func:`grade` -- guesses and level, as ``sudoku-bulk solve --stats``
- :func:`canon`, :func:`dedupe`, :func:`overlap` -- canonical forms,
  isomorph-aware dedupe and train/test leakage (``sudoku-bulk canon``)
- :func:`rate` -- Sudoku Explainer ER/EP/ED and solving paths
  (``sudoku-bulk rate``)
- :func:`split`, :func:`augment`, :func:`stats` -- leak-free train/test
  splits, random disguises, the dataset card (``sudoku-bulk split``,
  ``augment``, ``stats``)

Puzzles are accepted as

- a NumPy integer array of shape ``(N, 81)``, ``(N, 9, 9)``, ``(N, 256)``,
  ``(N, 16, 16)``, ``(N, 625)`` or ``(N, 25, 25)`` (also 4x4: ``(N, 16)``,
  ``(N, 4, 4)``), dtype int8/16/32/64 or uint8/16/32/64, 0 = blank. A
  C-contiguous array is read in place, without a copy.
- a list (or tuple) of ``str``, one puzzle per string in any one-line layout
  the command reads (``.``/``0`` blanks; 16x16 in letters or hex; past
  36x36 space-separated numbers, 0 blank), ``None`` allowed (a bad row).
  The layout is the one most of the first 200 strings have (``format=``
  fixes the symbols); a string that is not a puzzle is a bad row.
- a pyarrow ``StringArray``, ``LargeStringArray`` (``string_view`` and
  dictionary arrays too) or ``ChunkedArray`` of them (imported through the
  Arrow C data interface, without a copy; no Python work per row).
- a pandas ``Series`` of strings (through pyarrow).

Boxes are the usual ones of the size (square for 9x9, 16x16 ...; wider than
tall otherwise: 6x6 as 2x3, 8x8 as 2x4, 12x12 as 3x4) unless ``box=`` names
another shape, as the command's ``--box``: ``box="3x2"`` or ``box=(3, 2)``
is boxes 3 rows tall and 2 columns wide (for 6x6 grids). A box that makes
another grid size than the puzzles' raises ``ValueError``.

Example::

    >>> import numpy as np, sudoku_bulk
    >>> p = np.zeros((2, 9, 9), dtype=np.uint8)      # two empty grids
    >>> s = sudoku_bulk.solve(p)                      # (2, 9, 9) uint8
    >>> bool(sudoku_bulk.check(p, s).all())
    True
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = ["solve", "count", "check", "generate", "grade", "SIZES", "FORMATS"]
__version__ = "0.1.0"

#: Grid sides the package solves, by cells per row: every side from 4 to 64
#: that boxes of at least 2x2 tile (6x6 as 2x3, 12x12 as 3x4, ...; primes
#: have none). Rectangular boxes are the usual wider-than-tall ones unless
#: ``box=`` names another shape (``box="3x2"`` for 6x6).
SIZES = {
    s * s: s
    for s in range(4, 65)
    if any(s % r == 0 for r in range(2, int(s**0.5) + 1))
}

_ON_ERROR = ("mark", "raise", "ignore")
_LEVELS = ("easy", "medium", "hard", "extreme")
_SYMMETRIES = ("none", "rotate180", "rotate90", "mirror", "diagonal")

#: ``format=`` values: the symbols of string puzzles, as the command's
#: ``--format``, or ``"numbers"`` (space-separated numbers, 0 blank).
FORMATS = ("digits", "letters", "hex0", "hex1", "numbers")

#: A ``box=`` argument: ``"RxC"`` (rows x columns of a box, such as
#: ``"3x2"``), a tuple ``(R, C)``, or None for the usual boxes.
_Box = Union[str, Tuple[int, int], None]


#: The largest ``threads=`` taken (the pool is lowered to 4 per core, as
#: the command's ``-j``); past it the number cannot be a thread count, and
#: says so rather than overflowing in the conversion.
_MAX_THREADS = 2**63 - 1


def _type_name(value: Any) -> str:
    return type(value).__name__


def _int(name: str, value: Any) -> int:
    """`value` as an int when it is one (NumPy integers too, never bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {_type_name(value)}")
    return int(value)


def _rating_band(rating: Any) -> Optional[str]:
    """``generate(rating=)`` as the command's ``--rating MIN..MAX`` text
    (the library parses and checks it): a pair of numbers or that text."""
    if rating is None or isinstance(rating, str):
        return rating
    if isinstance(rating, (tuple, list)) and len(rating) == 2:
        ends = []
        for end in rating:
            if isinstance(end, bool) or not isinstance(end, (int, float, np.integer, np.floating)):
                break
            # repr of a float is its shortest text (4.4, not 4.4000000000000004).
            ends.append(repr(float(end)))
        else:
            return "..".join(ends)
    raise TypeError(
        f"rating must be a (MIN, MAX) pair of numbers or a \"MIN..MAX\" str, not {rating!r}"
    )


def _flag(name: str, value: Any) -> bool:
    """A bool argument: True/False (NumPy's too), never a truthy string such
    as ``"false"`` (which ``bool()`` would take as True)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def _choice(name: str, value: Any, allowed: Sequence[str], optional: bool = False) -> Any:
    """A str argument from `allowed` (or None when `optional`)."""
    if value is None and optional:
        return None
    names = ", ".join(map(repr, allowed)) + (" or None" if optional else "")
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {names}, not {_type_name(value)}")
    if value not in allowed:
        raise ValueError(f"{name} must be one of {names}, not {value!r}")
    return value


def _threads(threads: Any) -> Optional[int]:
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int or None, not {_type_name(threads)}")
    if not 1 <= threads <= _MAX_THREADS:
        raise ValueError(
            "threads must be an int from 1 to 2**63-1 (more than 4 per core are lowered to "
            f"that) or None (all cores), not {threads}"
        )
    return int(threads)


def _module_of(obj: Any) -> str:
    return type(obj).__module__.split(".")[0]


def _kind(puzzles: Any) -> str:
    """Which converter takes `puzzles`: numpy, strings, arrow or pandas."""
    if isinstance(puzzles, np.ndarray):
        return "numpy"
    if isinstance(puzzles, (list, tuple)):
        return "strings"
    module = _module_of(puzzles)
    if module == "pyarrow":
        import pyarrow as pa

        if isinstance(puzzles, (pa.Array, pa.ChunkedArray)):
            return "arrow"
    if module == "pandas":
        import pandas as pd

        if isinstance(puzzles, pd.Series):
            return "pandas"
    if isinstance(puzzles, (str, bytes)):
        raise TypeError("puzzles must be a collection of puzzles; for one puzzle pass [puzzle]")
    raise TypeError(
        "puzzles must be a NumPy integer array, a list of str, a pyarrow string array "
        f"or a pandas Series, not {type(puzzles).__module__}.{type(puzzles).__qualname__}"
    )


def _rows(a: np.ndarray, what: str = "puzzles") -> Tuple[np.ndarray, int]:
    """`a` as a C-contiguous (N, cells) array of a native integer dtype (a view
    when it already is one) and the grid's box size."""
    if a.dtype.kind not in "iu":
        if a.dtype == object:
            raise TypeError(
                f"{what} is an object array (ragged rows or mixed values?): "
                "expected an integer array of shape (N, 81), (N, 9, 9), ..."
            )
        raise TypeError(f"{what} must have an integer dtype (0 = blank), not {a.dtype}")
    if a.ndim == 2:
        n, cells = a.shape
        if cells not in SIZES:
            raise ValueError(
                f"{what} has rows of {cells} cells: expected side*side cells for a grid side "
                f"from 4 to 64 that boxes tile (81 for 9x9, 36 for 6x6, 256 for 16x16 ...), "
                f"shape (N, cells) or (N, side, side)"
            )
    elif a.ndim == 3:
        n, rows, cols = a.shape
        if rows != cols or rows * cols not in SIZES:
            raise ValueError(
                f"{what} has shape {a.shape}: expected (N, side, side) for a grid side from 4 "
                f"to 64 that boxes tile: (N, 9, 9), (N, 6, 6), (N, 16, 16) ..."
            )
        cells = rows * cols
    else:
        raise ValueError(
            f"{what} has {a.ndim} dimension(s), shape {a.shape}: expected (N, cells) or "
            "(N, side, side); for one puzzle use shape (1, 81) or (1, 9, 9)"
        )
    if not a.dtype.isnative:
        a = a.astype(a.dtype.newbyteorder("="))
    flat = np.ascontiguousarray(a).reshape(n, cells)
    return flat, SIZES[cells]


def _is_string_view(t: Any) -> bool:
    """True for pyarrow's ``string_view`` type (pyarrow 16 and later; no
    array of an older pyarrow has it)."""
    import pyarrow as pa

    is_view = getattr(pa.types, "is_string_view", None)
    return is_view is not None and is_view(t)


def _arrow_strings(arr: Any) -> Any:
    """A pyarrow array or chunked array as one of strings (``string`` or
    ``large_string``, which the engine imports through the Arrow C data
    interface): ``string_view`` and string dictionaries (pandas
    ``category``) are cast to ``large_string``, an all-null array of any
    type to ``string``; other types raise TypeError."""
    import pyarrow as pa

    t = arr.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return arr
    if pa.types.is_null(t) or arr.null_count == len(arr):
        # All null (pandas' all-None, all-NaN or empty Series): no puzzle.
        return arr.cast(pa.string())
    if _is_string_view(t) or (
        pa.types.is_dictionary(t)
        and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type))
    ):
        return arr.cast(pa.large_string())
    raise _arrow_type_error(t)


def _arrow_type_error(t: Any) -> TypeError:
    """The refusal of a pyarrow array of type `t`; for numbers, how to read
    the column again as text (a Kaggle ``quizzes`` column of digits that
    ``pyarrow.csv.read_csv`` typed int64, or double past 19 digits, has
    lost its leading zeros, the blank cells, or its last digits)."""
    import pyarrow as pa

    msg = f"expected a pyarrow string array, not one of type {t}"
    if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t):
        msg += (
            ": puzzles of digits read as numbers lost their leading zeros (blank "
            "cells) or, as double, their last digits; read the column as text, "
            "e.g. pyarrow.csv.read_csv(path, convert_options=pyarrow.csv.ConvertOptions("
            'column_types={"quizzes": pyarrow.string(), "solutions": pyarrow.string()}))'
        )
    return TypeError(msg)


def _have_pyarrow() -> bool:
    """pyarrow is optional (``pip install ./python[arrow]``): without it
    pandas Series go through the list-of-str path."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _row_name(series: Any, i: int) -> str:
    """Row `i` (0-based position) of a pandas Series as every message
    numbers rows, the command's included: ``row i+1`` (rows count from 1,
    as the CLI's ``FILE:row R`` and ``in.csv:LINE (row R)``), with the
    index label that finds it (``s.loc[label]``)."""
    return f"row {i + 1} (index {_label(series, i)!r})"


def _label(series: Any, i: int) -> Any:
    """The index label of row `i` of a pandas Series, a NumPy scalar as
    the Python value it holds (``20``, not ``np.int64(20)``)."""
    label = series.index[i]
    return label.item() if isinstance(label, np.generic) else label


#: The grid of integer puzzles by the longest number's digits, unless
#: box= names it: up to 16 digits 4x4, up to 36 6x6, else 9x9. A 9x9
#: puzzle with one solution never has 5 empty rows (two would share a band,
#: and swapping them gives a second solution), so it never has 45 leading
#: blanks and is never taken for 6x6; a 9x9 set starting with 17 or more
#: blanks, as the 17-clue sets in their usual form all do, stays 9x9
#: (taking the smallest grid that fits read those as 8x8). 8x8 integers
#: need ``box="2x4"``.
_DIGIT_GRIDS = ((16, 16), (36, 36), (10**9, 81))


def _digit_rows(values: List[Any], box: _Box) -> List[Optional[str]]:
    """Integers of digits (a Kaggle-style ``quizzes`` column read as
    numbers) as one-line puzzles: a number drops its leading zeros (blank
    cells), so each is left-padded with ``0`` to the grid's cells (`box`'s
    grid, else see `_DIGIT_GRIDS`). A negative number or one longer than
    the grid stays as written: a bad row, with the engine's reason."""
    text = [None if v is None else str(v) for v in values]
    if box is not None:
        rows, cols = _native.box_shape(box)
        cells = (rows * cols) ** 2
    else:
        longest = max((len(t) for t in text if t is not None), default=81)
        cells = next(c for most, c in _DIGIT_GRIDS if longest <= most)
    return [t if t is None or t.startswith("-") else t.zfill(cells) for t in text]


def _series_rows(series: Any, box: _Box, what: str) -> Tuple[Any, bool]:
    """A pandas Series of puzzles as rows the string converters read (a
    pyarrow array when pyarrow is installed, else a list of str or None)
    and whether the Series held text (its dtype is then kept for the
    answers). Integer Series (int64 with leading zeros dropped, or object
    Series of 81-digit Python ints) become zero-padded digits; floats,
    bytes and a Series mixing text and numbers raise TypeError naming the
    first row that breaks the pattern."""
    import pandas as pd
    from pandas.api.types import infer_dtype

    dtype = series.dtype
    nulls = series.isna().to_numpy()
    kind = getattr(dtype, "kind", "O")
    if isinstance(dtype, pd.CategoricalDtype):
        inner = infer_dtype(dtype.categories, skipna=True)
        if inner not in ("string", "empty"):
            return _series_rows(series.astype(object), box, what)
        kind = "text"
    elif isinstance(dtype, pd.StringDtype) or (
        isinstance(dtype, pd.ArrowDtype) and kind in "OU"
    ):
        kind = "text"
    if kind == "O":
        found = infer_dtype(series, skipna=True)
        if found == "integer":
            kind = "i"
        elif found in ("string", "empty"):
            kind = "text"
        else:
            kind = _object_kind(series, nulls, what)
    if kind in "iu":
        values = [None if null else int(v) for v, null in zip(series.tolist(), nulls)]
        return _text_rows(_digit_rows(values, box)), False
    if kind == "f" and nulls.all():
        kind = "text"  # all NaN: no puzzle in any row (null rows)
    if kind != "text":
        first = int(np.argmin(nulls))
        raise TypeError(
            f"{what} is a pandas Series of {dtype}, {_row_name(series, first)} holds "
            f"{series.iloc[first]!r}: expected one-line puzzles as str, or integers of "
            "digits (0 blank). A float cannot hold 81 digits exactly; read the column "
            "as text, e.g. pd.read_csv(path, dtype=str)"
        )
    if _have_pyarrow():
        import pyarrow as pa

        return pa.array(series, from_pandas=True), True
    return [None if null else v for v, null in zip(series.tolist(), nulls)], True


def _object_kind(series: Any, nulls: np.ndarray, what: str) -> str:
    """``"text"`` or ``"i"`` (integers) for an object Series whose rows are
    all one or the other (nulls aside); else TypeError naming the first row
    that is neither, or whose kind differs from the first row's
    (``[puzzle, 5]``)."""
    first = None
    for i, (v, null) in enumerate(zip(series.tolist(), nulls)):
        if null:
            continue
        if isinstance(v, str):
            this = "str"
        elif isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
            this = "int"
        else:
            this = None
        if this is not None and first in (None, this):
            first = this
            continue
        want = (
            f"{first}, as the rows before it (a Series of puzzles holds one kind)"
            if this is not None
            else "str (a one-line puzzle) or an int of digits (0 blank)"
        )
        raise TypeError(
            f"{what} {_row_name(series, i)} is {_type_name(v)} ({v!r}), expected {want}"
        )
    return "i" if first == "int" else "text"


def _text_rows(rows: List[Optional[str]]) -> Any:
    """Rows of text as the string converters take them: a pyarrow array when
    pyarrow is installed (as text Series go), else the list itself."""
    if _have_pyarrow():
        import pyarrow as pa

        return pa.array(rows, type=pa.string())
    return rows


#: A progress argument: None/False (no word), True (a tqdm bar), or a
#: callable taking ``(done, total)`` rows.
_Progress = Union[None, bool, Callable[[int, int], Any]]


def _progress_fn(progress: Any) -> Optional[Callable[[int, int], Any]]:
    """The callback a ``progress=`` argument asks for: None for None or
    False; a tqdm bar (``tqdm.auto``: a notebook widget in Jupyter) for
    True, ImportError naming the fix when tqdm is not installed; the
    callable itself."""
    if progress is None or progress is False:
        return None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            raise ImportError(
                "progress=True shows a tqdm bar, and tqdm is not installed: "
                "pip install tqdm, or pass a callable progress(done, total)"
            ) from None
        bar: List[Any] = []

        def show(done: int, total: int) -> None:
            if not bar:
                bar.append(tqdm(total=total, unit="puzzles"))
            bar[0].update(done - bar[0].n)
            if done >= total:
                bar[0].close()

        return show
    if callable(progress):
        return progress
    raise TypeError(
        f"progress must be None, a bool or a callable progress(done, total), "
        f"not {_type_name(progress)}"
    )


def _part_rows(n: int) -> int:
    """Rows per part of a call that reports progress: about 100 reports
    over the call, each part large enough that the per-call setup (the
    thread pool, the conversions) stays small beside it."""
    return max(1024, -(-n // 100))


def _slice(x: Any, a: int, b: int) -> Any:
    """Rows `a..b` of any input kind, without a copy where the kind allows."""
    if x is None:
        return None
    m = _module_of(x)
    if m == "pandas":
        return x.iloc[a:b]
    if m == "pyarrow":
        return x.slice(a, b - a)
    return x[a:b]


def _concat(parts: List[Any]) -> Any:
    """Results of consecutive parts joined into one of the same kind."""
    first = parts[0]
    if first is None:
        return None
    if len(parts) == 1:
        return first
    if isinstance(first, np.ndarray):
        return np.concatenate(parts)
    if isinstance(first, list):
        return [v for p in parts for v in p]
    m = _module_of(first)
    if m == "pandas":
        import pandas as pd

        return pd.concat(parts)
    import pyarrow as pa

    if isinstance(first, pa.ChunkedArray):
        return pa.chunked_array([c for p in parts for c in p.chunks], type=first.type)
    return pa.concat_arrays(parts)


def _in_parts(
    n: int,
    progress: Optional[Callable[[int, int], Any]],
    run: Callable[[int, int], Tuple[Any, ...]],
) -> Tuple[Any, ...]:
    """`run(a, b)` (a tuple of results for rows ``a..b``, its last item the
    list of ``(row, reason)`` of bad rows, rows counted from `a`) over the
    whole input: in one call without `progress`, else in parts with
    ``progress(done, n)`` after each (and ``progress(0, n)`` first), the
    parts' results joined."""
    if progress is None:
        return run(0, n)
    progress(0, n)
    step = _part_rows(n)
    parts: List[Tuple[Any, ...]] = []
    for a in range(0, n, step):
        b = min(n, a + step)
        out = run(a, b)
        parts.append(out[:-1] + ([(a + i, r) for i, r in out[-1]],))
        progress(b, n)
    if not parts:
        return run(0, 0)
    joined = tuple(_concat([p[k] for p in parts]) for k in range(len(parts[0]) - 1))
    return joined + ([x for p in parts for x in p[-1]],)


def _call(
    puzzles: Any,
    kind: str,
    *,
    progress: Optional[Callable[[int, int], Any]] = None,
    solutions: Any = None,
    **opts: Any,
) -> Tuple[Any, np.ndarray, List[Tuple[int, str]]]:
    """`_call_whole`, in parts when `progress` is given (see `_in_parts`;
    the answers' reshape and index come from each part)."""
    if progress is None:
        return _call_whole(puzzles, kind, solutions=solutions, **opts)
    return _in_parts(
        _length(puzzles),
        progress,
        lambda a, b: _call_whole(
            _slice(puzzles, a, b), kind, solutions=_slice(solutions, a, b), **opts
        ),
    )


def _call_whole(
    puzzles: Any,
    kind: str,
    *,
    solutions: Any = None,
    unique: bool = False,
    limit: int = 2,
    threads: Optional[int] = None,
    box: _Box = None,
    format: Optional[str] = None,
) -> Tuple[Any, np.ndarray, List[Tuple[int, str]]]:
    """Runs `kind` over `puzzles` (and `solutions`) and returns
    (answers in the input's kind or None, int64 values, [(index, reason)]).
    `box` goes to the native call as given (it parses and checks it)."""
    threads = _threads(threads)
    k = _kind(puzzles)
    format = _choice("format", format, FORMATS, optional=True)
    if format is not None and k == "numpy":
        raise ValueError("format= applies to string puzzles; arrays hold numbers already")
    if solutions is not None and _kind(solutions) != k:
        raise TypeError(
            f"solutions must be the same kind as puzzles ({k}), not {_kind(solutions)}"
        )
    opts = dict(unique=unique, limit=limit, threads=threads, box=box)
    if k == "numpy":
        flat, _ = _rows(puzzles)
        sol = None
        if solutions is not None:
            sol, _ = _rows(solutions, "solutions")
            if sol.shape != flat.shape:
                raise ValueError(
                    f"solutions have shape {solutions.shape}, puzzles {puzzles.shape}"
                )
        answers, values, bad = _native.run_cells(flat, kind, solutions=sol, **opts)
        if answers is not None:
            answers = answers.reshape(puzzles.shape)
            if answers.dtype != puzzles.dtype:
                answers = answers.astype(puzzles.dtype)
        return answers, values, bad
    opts["format"] = format
    if k == "strings":
        sol = list(solutions) if solutions is not None else None
        return _native.run_strings(list(puzzles), kind, solutions=sol, **opts)
    if k == "pandas":
        import pandas as pd

        rows, text = _series_rows(puzzles, box, "puzzles")
        sol = None
        if solutions is not None:
            sol, _ = _series_rows(solutions, box, "solutions")
        answers, values, bad = _call_whole(rows, kind, solutions=sol, **opts)
        if answers is not None:
            if isinstance(answers, list):
                answers = pd.Series(answers, dtype=object)
            else:
                answers = answers.to_pandas()
            dtype = puzzles.dtype
            if text and isinstance(dtype, pd.CategoricalDtype):
                # New values: categories of their own (the puzzles' would
                # turn every answer into NaN).
                answers = answers.astype("category")
            elif text and isinstance(dtype, (pd.StringDtype, pd.ArrowDtype)):
                answers = answers.astype(dtype)
            answers.index = puzzles.index
            # Named as the command names the column it adds.
            answers.name = "solution"
        return answers, values, bad
    # pyarrow: Array or ChunkedArray (any chunks, for puzzles and solutions
    # alike), read in one pass through the Arrow C data interface.
    import pyarrow as pa

    def chunks(a: Any) -> Any:
        # A chunked array as its chunks (each exports __arrow_c_array__;
        # ChunkedArray exports __arrow_c_stream__ only from pyarrow 16).
        return a.chunks if isinstance(a, pa.ChunkedArray) else a

    arr = _arrow_strings(puzzles)
    sol = chunks(_arrow_strings(solutions)) if solutions is not None else None
    out, values, bad = _native.run_arrow(chunks(arr), kind, solutions=sol, **opts)
    answers = None
    if out is not None:
        if isinstance(arr, pa.ChunkedArray):
            answers = pa.chunked_array([pa.array(part) for part in out], type=arr.type)
        else:
            answers = pa.array(out[0])
        if _is_string_view(puzzles.type) or pa.types.is_dictionary(puzzles.type):
            # string_view and dictionary puzzles were read as large_string.
            answers = answers.cast(puzzles.type)
    return answers, values, bad


def _per_row(puzzles: Any, values: Any, name: str) -> Any:
    """Per-row values as a pandas Series with the puzzles' index, named as
    the command's column (`name`), when the puzzles are a Series; else as
    they are (a NumPy array, a list)."""
    if _module_of(puzzles) == "pandas":
        import pandas as pd

        return pd.Series(values, index=puzzles.index, name=name)
    return values


def _status(n: int, bad: List[Tuple[int, str]]) -> List[Optional[str]]:
    status: List[Optional[str]] = [None] * n
    for i, reason in bad:
        status[i] = reason
    return status


def _length(puzzles: Any) -> int:
    return int(puzzles.shape[0]) if isinstance(puzzles, np.ndarray) else len(puzzles)


def _puzzle_name(puzzles: Any, i: int) -> str:
    """Puzzle `i` (0-based position) as messages name it: ``row i+1``, as
    the command numbers rows (from 1), with what finds it in Python: the
    index label of a pandas Series (``s.loc[label]``), else the position
    (``puzzles[i]``)."""
    if _module_of(puzzles) == "pandas":
        return _row_name(puzzles, i)
    return f"row {i + 1} (puzzles[{i}])"


def _text_reason(puzzles: Any, i: int, reason: str) -> str:
    """`reason` for bad row `i`, unless the row is a Python string with
    non-ASCII characters: the library reads UTF-8 bytes (an ``é`` is two),
    so its layout advice would count bytes the caller never wrote. Only on
    the error path, so the good path pays nothing."""
    try:
        value = puzzles.iloc[i] if hasattr(puzzles, "iloc") else puzzles[i]
    except Exception:
        return reason
    if not isinstance(value, str) or value.isascii():
        return reason
    at = next(k for k, c in enumerate(value) if not c.isascii())
    return (
        f"{len(value)} characters, not all ASCII ({value[at]!r} at character {at + 1}): "
        "cells are written with ASCII digits or letters, blanks as '.' or '0'"
    )


def _settle(
    puzzles: Any, bad: List[Tuple[int, str]], on_error: str, marked: str
) -> None:
    """What a call does about its bad rows, by ``on_error``: ``"raise"``
    raises on the first; ``"mark"`` (the default) raises when every row is
    bad (nothing useful came back: the wrong column, the wrong size, a
    blank written as -1) and otherwise warns with their count and the first
    reason, so they are never missed; ``"ignore"`` only marks them.
    `marked` says how they show in the result."""
    if not bad or on_error == "ignore":
        return
    i, reason = bad[0]
    first = f"{_puzzle_name(puzzles, i)}: {_text_reason(puzzles, i, reason)}"
    if on_error == "raise":
        raise ValueError(first)
    n = _length(puzzles)
    if len(bad) == n:
        raise ValueError(
            f"no puzzle could be used: all {n} rows are bad; the first, {first} "
            '(on_error="ignore" returns them marked instead)'
        )
    warnings.warn(
        f"{len(bad)} of {n} rows are bad ({marked}); the first, {first}. "
        'return_status=True gives every reason; on_error="ignore" silences this',
        UserWarning,
        stacklevel=3,
    )


def solve(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    unique: bool = False,
    on_error: str = "mark",
    return_status: bool = False,
    box: _Box = None,
    progress: _Progress = None,
    format: Optional[str] = None,
) -> Any:
    """Solve every puzzle; return the answers in the kind the puzzles came in.

    Args:
        puzzles: a NumPy integer array (N, 81) / (N, 9, 9) / (N, 256) /
            (N, 16, 16) / (N, 625) / (N, 25, 25), 0 = blank; a list of str in
            a one-line layout; a pyarrow string array or chunked array; or a
            pandas Series of str or of integers of digits (see below).
        threads: worker threads (default: all cores). The GIL is released
            while they work, and Ctrl-C stops them within a fraction of a
            second (``KeyboardInterrupt``).
        unique: treat puzzles with more than one solution as bad rows.
        on_error: what to do about bad rows (no solution, clashing givens,
            unreadable; several solutions with ``unique=True``). Every mode
            marks them in the answers (an array row of zeros, ``None`` in a
            list, null in pyarrow and pandas). ``"mark"`` (default) also
            warns (``UserWarning``) with how many there are and the first
            reason, and raises ``ValueError`` when every row is bad;
            ``"ignore"`` only marks; ``"raise"`` raises ``ValueError``
            naming the first bad row and why.
        return_status: also return a list with, per row, ``None`` when it was
            solved or the reason it is bad (``"no solution"``,
            ``"multiple solutions"``, ``"duplicate given 5 at r1c1 and r1c4"``,
            ``"cell 3: invalid character 'x'"``, ...).
        box: the box shape, rows x columns: ``"3x2"`` or ``(3, 2)`` for 6x6
            grids with boxes 3 rows tall and 2 wide (the command's
            ``--box``). Default None: the usual boxes of the puzzles' size
            (6x6 as 2x3, 12x12 as 3x4, 9x9 as 3x3).
        format: how string puzzles write their cells, as the command's
            ``--format``: ``"digits"`` (``1``-``9``), ``"letters"`` (``A``,
            ``B``, ... for 1, 2, ...), ``"hex0"`` (``0``-``9`` then ``A``..),
            ``"hex1"`` (``1``-``9`` then ``A``..) or ``"numbers"``
            (space-separated, 0 blank; sides past 36 always are). Default
            None: told from the first 200 puzzles (a 16x16 set whose givens
            are only ``A``-``G`` reads as hex; say ``"letters"``).
        progress: report progress of a long call: a callable, called as
            ``progress(done, total)`` (rows) before the first row and after
            each part of about 1% of the rows (at least 1024); ``True``
            shows a tqdm bar (``pip install tqdm``); None (default) says
            nothing. The call then runs part by part, the same answers.

    A pandas Series of integers (int64, or object holding 81-digit Python
    ints: a Kaggle-style ``quizzes`` column read as numbers) is read as
    digits with ``0`` blank, each number left-padded with zeros (its
    leading blanks) to the grid's cells: ``box``'s grid, else 4x4 when the
    longest number has at most 16 digits, 6x6 up to 36, otherwise 9x9
    (8x8 needs ``box="2x4"``). Its answers are str.

    Returns:
        The answers: an array of the input's shape and dtype, a list of str
        (in the input's symbols), a pyarrow array of the input's type or a
        pandas Series. With ``return_status=True``, ``(answers, status)``.

    Raises:
        TypeError: puzzles of an unsupported kind or dtype (a float Series,
            a Series mixing str and int rows: the message names the row), an
            argument of the wrong type (``unique="false"``).
        ValueError: a shape that is no grid size, bad arguments, a ``box``
            that is no box shape or makes another grid size than the
            puzzles', every row bad (``on_error="mark"``) or a bad row
            (``on_error="raise"``).
        KeyboardInterrupt: Ctrl-C during the call.
    """
    on_error = _choice("on_error", on_error, _ON_ERROR)
    unique = _flag("unique", unique)
    return_status = _flag("return_status", return_status)
    answers, _, bad = _call(
        puzzles,
        "solve",
        progress=_progress_fn(progress),
        unique=unique,
        threads=threads,
        box=box,
        format=format,
    )
    _settle(puzzles, bad, on_error, "no answer: zeros, None or null")
    if return_status:
        return answers, _status(_length(puzzles), bad)
    return answers


def count(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: Optional[int] = None,
    on_error: str = "mark",
    return_status: bool = False,
    box: _Box = None,
    progress: _Progress = None,
    format: Optional[str] = None,
) -> Any:
    """Count each puzzle's solutions, stopping at ``limit``.

    Args:
        puzzles: as for :func:`solve`.
        limit: stop counting there (default 2: 0 none, 1 unique, 2 several).
        threads: worker threads (default: all cores).
        on_error: as for :func:`solve`: bad rows (not a puzzle: clashing
            givens, unreadable) count ``-1``; ``"mark"`` warns about them.
        return_status: also return the per-row reasons (see :func:`solve`).
        box: the box shape, as for :func:`solve`.
        format: the symbols of string puzzles, as for :func:`solve`.
        progress: as for :func:`solve`.

    Returns:
        An int64 NumPy array: the number of solutions, at most ``limit``;
        ``-1`` for a row that is not a puzzle (clashing givens, bad cells).
        For a pandas Series, a Series of them with its index, named
        ``solutions`` (the column ``sudoku-bulk count`` adds).
    """
    limit = _int("limit", limit)
    if not 1 <= limit <= 2**32 - 1:
        raise ValueError(f"limit must be in 1..=4294967295, not {limit}")
    on_error = _choice("on_error", on_error, _ON_ERROR)
    return_status = _flag("return_status", return_status)
    _, values, bad = _call(
        puzzles,
        "count",
        progress=_progress_fn(progress),
        limit=limit,
        threads=threads,
        box=box,
        format=format,
    )
    _settle(puzzles, bad, on_error, "counted -1")
    values = _per_row(puzzles, values, "solutions")
    if return_status:
        return values, _status(len(values), bad)
    return values


def _aligned(puzzles: Any, solutions: Any) -> Any:
    """`solutions` paired with `puzzles` by index when both are pandas
    Series, as pandas pairs Series: the same labels in another order are
    reordered to the puzzles'; other labels raise, as pandas refuses to
    compare differently-labelled Series (pairing by position would judge
    each solution against another row's puzzle)."""
    if _module_of(puzzles) != "pandas" or _module_of(solutions) != "pandas":
        return solutions
    p, s = puzzles.index, solutions.index
    if p.equals(s):
        return solutions
    if p.is_unique and s.is_unique and len(p) == len(s) and p.isin(s).all():
        return solutions.reindex(p)
    missing = p.difference(s)[:3].tolist() if p.is_unique and s.is_unique else []
    raise ValueError(
        "puzzles and solutions are pandas Series with different index labels"
        + (f" (puzzle labels {missing} have no solution)" if missing else "")
        + ": check pairs rows by label; align them first, e.g. solutions.reindex(puzzles.index),"
        " or pass .reset_index(drop=True) of both to pair by position"
    )


def check(
    puzzles: Any,
    solutions: Any,
    *,
    threads: Optional[int] = None,
    on_error: str = "mark",
    box: _Box = None,
    progress: _Progress = None,
    format: Optional[str] = None,
) -> Any:
    """Check solutions: a bool per row, True when the solution is a valid full
    grid (every row, column and box holds each symbol once) that keeps every
    given of the puzzle.

    Args:
        puzzles: as for :func:`solve`.
        solutions: the same kind and length (for arrays the same shape).
            Two pandas Series are paired by index label, as pandas does: the
            same labels in another order are aligned; different labels
            raise ``ValueError``.
        threads: worker threads (default: all cores).
        on_error: as for :func:`solve`, for puzzles that cannot be checked
            (unreadable, clashing givens): they are False; ``"mark"`` warns
            about them. A wrong solution is just False.
        box: the box shape the grids are checked with, as for :func:`solve`.
        format: the symbols of string puzzles and solutions, as for
            :func:`solve`.
        progress: as for :func:`solve`.

    Returns:
        A bool NumPy array; for pandas Series, a bool Series with the
        puzzles' index, named ``valid``.
    """
    if solutions is None:
        raise TypeError("check needs solutions")
    on_error = _choice("on_error", on_error, _ON_ERROR)
    if _length(solutions) != _length(puzzles):
        raise ValueError(
            f"{_length(solutions)} solutions for {_length(puzzles)} puzzles"
        )
    solutions = _aligned(puzzles, solutions)
    _, values, bad = _call(
        puzzles,
        "check",
        progress=_progress_fn(progress),
        solutions=solutions,
        threads=threads,
        box=box,
        format=format,
    )
    _settle(puzzles, bad, on_error, "checked False")
    return _per_row(puzzles, values == 1, "valid")


def grade(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    on_error: str = "mark",
    box: _Box = None,
    progress: _Progress = None,
    format: Optional[str] = None,
) -> Tuple[Any, Any]:
    """Grade puzzles as ``sudoku-bulk solve --stats`` does: the guesses the
    solver needs to prove the puzzle unique (count to 2), and the level they
    give (``easy`` 0, ``medium`` 1-4, ``hard`` 5-29, ``extreme`` 30+).
    ``on_error``, ``box``, ``format`` and ``progress``: as for
    :func:`solve` (bad rows and rows without a solution grade -1 and None).

    Returns:
        ``(guesses, levels)``: an int64 array (-1 for a bad row or one without
        a solution) and a list of level names (None for those rows). For a
        pandas Series, two Series with its index, named ``guesses`` and
        ``level`` (the columns of ``solve --stats``).
    """
    on_error = _choice("on_error", on_error, _ON_ERROR)
    _, guesses, bad = _call(
        puzzles,
        "grade",
        progress=_progress_fn(progress),
        threads=threads,
        box=box,
        format=format,
    )
    _settle(puzzles, bad, on_error, "graded -1 and None")
    levels = _native.level_names(guesses)
    return _per_row(puzzles, guesses, "guesses"), _per_row(puzzles, levels, "level")


def _memory() -> Optional[int]:
    """This machine's physical memory in bytes, when the OS says."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def generate(
    n: int,
    *,
    size: Optional[int] = None,
    box: _Box = None,
    seed: int = 1,
    clues: Optional[int] = None,
    difficulty: Optional[str] = None,
    symmetry: str = "none",
    threads: Optional[int] = None,
    as_array: bool = False,
    rating: Any = None,
) -> Any:
    """Generate ``n`` distinct puzzles, each with exactly one solution: the
    same puzzles, in the same order, as
    ``sudoku-bulk generate -n N --seed SEED`` (with the same ``--size``,
    ``--box``, ``--clues``, ``--difficulty``, ``--symmetry``, ``--rating``),
    whatever the threads.

    Args:
        n: how many. A count whose puzzles would not fit in this machine's
            memory raises ``ValueError`` before any work (the command
            streams any count to a file).
        size: grid side: 9, 16, 25, or any side from 4 to 64 that boxes
            tile (6 as 2x3 boxes, 12 as 3x4 ...). Default: the side ``box``
            makes, else 9.
        box: the box shape, rows x columns: ``"3x2"`` or ``(3, 2)`` (6x6
            grids with boxes 3 rows tall and 2 wide). It fixes the size, so
            ``size`` may be left out; when both are given they must agree
            (``size=6, box="3x2"``; ``size=9, box="3x2"`` raises
            ``ValueError``). Default: the usual boxes of ``size``.
        seed: run seed (each puzzle comes from (seed, index)).
        clues: stop removing clues at this many (when reachable).
        difficulty: ``"easy"``, ``"medium"``, ``"hard"`` or ``"extreme"``.
            Each puzzle is retried until it has that level, a bounded number
            of times; puzzles that missed it (or the ``clues`` count) are
            the nearest found, and a ``UserWarning`` says how many (the
            command's "off target").
        symmetry: ``"none"``, ``"rotate180"``, ``"rotate90"``, ``"mirror"``
            or ``"diagonal"``.
        threads: worker threads (default: all cores). Ctrl-C stops them
            within a second (``KeyboardInterrupt``).
        as_array: return a uint8 array of shape (n, side*side) (0 = blank)
            instead of a list of str (``.`` blank, digits for 9x9, letters
            ``A``.. up to 26x26, ``1``-``9`` then letters up to 35x35,
            ``0``-``9`` then letters for 36x36, space-separated numbers with
            ``0`` blank beyond, as the command writes them).
        rating: ``(MIN, MAX)`` (or ``"MIN..MAX"``): only puzzles whose
            Sudoku Explainer ER, as :func:`rate` gives it, is in the band,
            both ends included, one decimal (``(4.0, 4.4)``); 9x9 only.
            Candidates are the puzzles generated without it, rated in
            order, so the result depends on the seed only. A band above the
            highest ER the rater gives exactly, or one no candidate reaches
            in 200,000 in a row, raises ``ValueError``.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an int, not {_type_name(n)}")
    if not 0 <= n < 2**63:
        raise ValueError(f"n must be an int in 0..2**63, not {n!r}")
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
            raise TypeError(f"size must be an int grid side or None, not {_type_name(size)}")
        if not 4 <= size <= 64:
            raise ValueError(
                f"size must be an int grid side from 4 to 64 (9, 16, 25, 6, 12 ...), "
                f"not {size!r}"
            )
        size = int(size)
    # The boxes box= and size= fix together (ValueError when they disagree).
    rows, cols = _native.box_shape(box, size)
    side = rows * cols
    seed = _int("seed", seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in 0..2**64, not {seed!r}")
    if clues is not None:
        clues = _int("clues", clues)
        if not 0 <= clues <= side * side:
            raise ValueError(
                f"clues must be an int in 0..={side * side} (the cells of a {side}x{side} "
                f"grid), not {clues!r}"
            )
    difficulty = _choice("difficulty", difficulty, _LEVELS, optional=True)
    symmetry = _choice("symmetry", symmetry, _SYMMETRIES)
    as_array = _flag("as_array", as_array)
    threads = _threads(threads)
    band = _rating_band(rating)
    cells = side * side
    # Held at once: the cells and guesses, then the strings (about 50 bytes
    # of str object each besides the text) or the array.
    need = int(n) * (cells + 8 + (cells if as_array else cells + 64))
    memory = _memory()
    if memory is not None and need > memory:
        raise ValueError(
            f"generate({n}) would need about {need / 2**30:,.0f} GiB for {side}x{side} "
            f"puzzles, more than this machine's {memory / 2**30:,.0f} GiB of memory: ask for "
            f"fewer, or stream them to a file with `sudoku-bulk generate -n {n} -o FILE`"
        )
    note = _native.slow_minimal_note(side) if clues is None else None
    if note is not None:
        # The command's note, as a warning: without clues= the call looks hung.
        warnings.warn(note, stacklevel=2)
    flat, guesses, off_target = _native.generate_cells(
        int(n), side, seed, clues, difficulty, symmetry, threads, box=(rows, cols), rating=band,
    )
    if off_target:
        asked = ", ".join(
            f"{k}={v!r}" for k, v in (("difficulty", difficulty), ("clues", clues)) if v is not None
        )
        levels = _native.level_names(guesses)
        tally = ", ".join(f"{name} {levels.count(name)}" for name in _LEVELS)
        warnings.warn(
            f"{off_target} of {n} puzzles are off target: {asked} was not reached within "
            f"the attempts each puzzle gets, so they are the nearest found (levels: {tally}); "
            "each is still a proper puzzle with one solution",
            UserWarning,
            stacklevel=2,
        )
    if as_array:
        return flat.reshape(int(n), cells)
    return _native.cells_to_strings(flat, side, box=(rows, cols))


# The analyses (canonical forms, dedupe, overlap, ratings) live in
# _analysis.py, imported last: they use the argument checks above.
from ._analysis import Overlap, canon, dedupe, overlap, rate, techniques  # noqa: E402

__all__ += ["canon", "dedupe", "overlap", "Overlap", "rate", "techniques"]

# The dataset workbench (split, augment, stats) in _workbench.py, on the
# analyses' row conversion.
from ._workbench import Augmented, augment, split, stats  # noqa: E402

__all__ += ["split", "augment", "Augmented", "stats"]
