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
  dictionary arrays too) or ``ChunkedArray`` of them (read from the Arrow
  buffers; no Python work per row).
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

import warnings
from typing import Any, List, Optional, Sequence, Tuple, Union

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

_ON_ERROR = ("mark", "raise")
_LEVELS = ("easy", "medium", "hard", "extreme")
_SYMMETRIES = ("none", "rotate180", "rotate90", "mirror", "diagonal")

#: ``format=`` values: the symbols of string puzzles, as the command's
#: ``--format``, or ``"numbers"`` (space-separated numbers, 0 blank).
FORMATS = ("digits", "letters", "hex0", "hex1", "numbers")

#: A ``box=`` argument: ``"RxC"`` (rows x columns of a box, such as
#: ``"3x2"``), a tuple ``(R, C)``, or None for the usual boxes.
_Box = Union[str, Tuple[int, int], None]


def _threads(threads: Optional[int]) -> Optional[int]:
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads must be an int or None, not {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
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


def _arrow_parts(arr: Any) -> Tuple[Any, tuple]:
    """A pyarrow string array's buffers as uint8 NumPy views (no copy)."""
    import pyarrow as pa

    t = arr.type
    if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
        if pa.types.is_null(t) or arr.null_count == len(arr):
            # All null (pandas' all-None, all-NaN or empty Series): no puzzle.
            arr = arr.cast(pa.string())
        elif pa.types.is_string_view(t) or (
            pa.types.is_dictionary(t)
            and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type))
        ):
            arr = arr.cast(pa.large_string())
        else:
            raise TypeError(f"expected a pyarrow string array, not one of type {t}")
    large = pa.types.is_large_string(arr.type)
    validity, offsets, data = arr.buffers()[:3]

    def view(buf: Any) -> np.ndarray:
        if buf is None:
            return np.zeros(0, dtype=np.uint8)
        return np.frombuffer(buf, dtype=np.uint8)

    v = view(validity) if (validity is not None and arr.null_count > 0) else None
    return arr, (v, view(offsets), view(data), arr.offset, len(arr), large)


def _call(
    puzzles: Any,
    kind: str,
    *,
    solutions: Any = None,
    unique: bool = False,
    limit: int = 2,
    threads: Optional[int] = None,
    box: _Box = None,
    format: Optional[str] = None,
    _side: Optional[int] = None,
) -> Tuple[Any, np.ndarray, List[Tuple[int, str]]]:
    """Runs `kind` over `puzzles` (and `solutions`) and returns
    (answers in the input's kind or None, int64 values, [(index, reason)]).
    `box` goes to the native call as given (it parses and checks it);
    `_side` is the grid side of the other chunks of a chunked array."""
    threads = _threads(threads)
    k = _kind(puzzles)
    if format is not None and format not in FORMATS:
        raise ValueError(
            f"format must be one of {', '.join(map(repr, FORMATS))} or None, not {format!r}"
        )
    if format is not None and k == "numpy":
        raise ValueError("format= applies to string puzzles; arrays hold numbers already")
    if solutions is not None and _kind(solutions) != k:
        raise TypeError(
            f"solutions must be the same kind as puzzles ({k}), not {_kind(solutions)}"
        )
    opts = dict(unique=bool(unique), limit=int(limit), threads=threads, box=box)
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
        import pyarrow as pa

        arr = pa.array(puzzles, from_pandas=True)
        sol = pa.array(solutions, from_pandas=True) if solutions is not None else None
        answers, values, bad = _call(arr, kind, solutions=sol, **opts)
        if answers is not None:
            answers = answers.to_pandas()
            dtype = puzzles.dtype
            if isinstance(dtype, pd.CategoricalDtype):
                # New values: categories of their own (the puzzles' would
                # turn every answer into NaN).
                answers = answers.astype("category")
            elif isinstance(dtype, (pd.StringDtype, pd.ArrowDtype)):
                answers = answers.astype(dtype)
            answers.index = puzzles.index
            answers.name = puzzles.name
        return answers, values, bad
    # pyarrow
    import pyarrow as pa

    if isinstance(puzzles, pa.ChunkedArray):
        if solutions is not None or puzzles.num_chunks == 1:
            # One pass over one array: chunks of puzzles and solutions need
            # not line up, and one call keeps every core busy.
            whole = puzzles.combine_chunks() if puzzles.num_chunks != 1 else puzzles.chunk(0)
            if solutions is not None and isinstance(solutions, pa.ChunkedArray):
                solutions = solutions.combine_chunks()
            answers, values, bad = _call(whole, kind, solutions=solutions, **opts)
            if answers is not None:
                answers = pa.chunked_array([answers], type=answers.type)
            return answers, values, bad
        parts, values, bad, start = [], [], [], 0
        # One reading for every chunk: the size and symbols the first
        # puzzles show (a chunk whose 16x16 givens are only A-G stays
        # letters; one holding only a short row is told its 81 cells).
        found = _native.format_of(_head(puzzles), box=box, format=opts["format"])
        if found is not None:
            opts["format"] = opts["format"] or found[0]
            opts["_side"] = found[1]
        for chunk in puzzles.chunks:
            a, v, b = _call(chunk, kind, **opts)
            parts.append(a)
            values.append(v)
            bad.extend((start + i, r) for i, r in b)
            start += len(chunk)
        answers = None
        if kind == "solve":
            out_type = parts[0].type if parts else puzzles.type
            answers = pa.chunked_array(parts, type=out_type)
        vals = np.concatenate(values) if values else np.zeros(0, dtype=np.int64)
        return answers, vals, bad
    if isinstance(solutions, pa.ChunkedArray):
        solutions = solutions.combine_chunks()
    arr, parts = _arrow_parts(puzzles)
    sol_parts = _arrow_parts(solutions)[1] if solutions is not None else None
    out, values, bad = _native.run_arrow(*parts, kind, solutions=sol_parts, side=_side, **opts)
    answers = None
    if out is not None:
        validity, offsets, data = out
        answers = pa.Array.from_buffers(
            arr.type,
            len(arr),
            [
                pa.py_buffer(validity) if validity is not None else None,
                pa.py_buffer(offsets),
                pa.py_buffer(data),
            ],
            null_count=len(bad),
        )
        if pa.types.is_string_view(puzzles.type) or pa.types.is_dictionary(puzzles.type):
            # string_view and dictionary puzzles were read as large_string.
            answers = answers.cast(puzzles.type)
    return answers, values, bad


def _head(puzzles: Any, rows: int = 200) -> List[str]:
    """The first `rows` non-null strings of a pyarrow chunked array."""
    head: List[str] = []
    for chunk in puzzles.chunks:
        head.extend(v for v in chunk.slice(0, 4 * rows).drop_null().to_pylist())
        if len(head) >= rows:
            break
    return head[:rows]


def _status(n: int, bad: List[Tuple[int, str]]) -> List[Optional[str]]:
    status: List[Optional[str]] = [None] * n
    for i, reason in bad:
        status[i] = reason
    return status


def _length(puzzles: Any) -> int:
    return int(puzzles.shape[0]) if isinstance(puzzles, np.ndarray) else len(puzzles)


def solve(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    unique: bool = False,
    on_error: str = "mark",
    return_status: bool = False,
    box: _Box = None,
    format: Optional[str] = None,
) -> Any:
    """Solve every puzzle; return the answers in the kind the puzzles came in.

    Args:
        puzzles: a NumPy integer array (N, 81) / (N, 9, 9) / (N, 256) /
            (N, 16, 16) / (N, 625) / (N, 25, 25), 0 = blank; a list of str in
            a one-line layout; a pyarrow string array or chunked array; or a
            pandas Series of str.
        threads: worker threads (default: all cores). The GIL is released
            while they work.
        unique: treat puzzles with more than one solution as bad rows.
        on_error: ``"mark"`` (default) marks a bad row (an array row of zeros,
            ``None`` in a list, null in pyarrow); ``"raise"`` raises
            ``ValueError`` naming the first bad row and why.
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

    Returns:
        The answers: an array of the input's shape and dtype, a list of str
        (in the input's symbols), a pyarrow array of the input's type or a
        pandas Series. With ``return_status=True``, ``(answers, status)``.

    Raises:
        TypeError: puzzles of an unsupported kind or dtype.
        ValueError: a shape that is no grid size, bad arguments, a ``box``
            that is no box shape or makes another grid size than the
            puzzles', or (with ``on_error="raise"``) a bad puzzle.
    """
    if on_error not in _ON_ERROR:
        raise ValueError(f'on_error must be "mark" or "raise", not {on_error!r}')
    answers, _, bad = _call(
        puzzles, "solve", unique=unique, threads=threads, box=box, format=format
    )
    if on_error == "raise" and bad:
        i, reason = bad[0]
        raise ValueError(f"puzzle {i}: {reason}")
    if return_status:
        return answers, _status(_length(puzzles), bad)
    return answers


def count(
    puzzles: Any,
    limit: int = 2,
    *,
    threads: Optional[int] = None,
    return_status: bool = False,
    box: _Box = None,
    format: Optional[str] = None,
) -> Any:
    """Count each puzzle's solutions, stopping at ``limit``.

    Args:
        puzzles: as for :func:`solve`.
        limit: stop counting there (default 2: 0 none, 1 unique, 2 several).
        threads: worker threads (default: all cores).
        return_status: also return the per-row reasons (see :func:`solve`).
        box: the box shape, as for :func:`solve`.
        format: the symbols of string puzzles, as for :func:`solve`.

    Returns:
        An int64 NumPy array: the number of solutions, at most ``limit``;
        ``-1`` for a row that is not a puzzle (clashing givens, bad cells).
    """
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if not 1 <= limit <= 2**32 - 1:
        raise ValueError(f"limit must be in 1..=4294967295, not {limit}")
    _, values, bad = _call(
        puzzles, "count", limit=limit, threads=threads, box=box, format=format
    )
    if return_status:
        return values, _status(len(values), bad)
    return values


def check(
    puzzles: Any,
    solutions: Any,
    *,
    threads: Optional[int] = None,
    box: _Box = None,
    format: Optional[str] = None,
) -> np.ndarray:
    """Check solutions: a bool per row, True when the solution is a valid full
    grid (every row, column and box holds each symbol once) that keeps every
    given of the puzzle.

    Args:
        puzzles: as for :func:`solve`.
        solutions: the same kind and length (for arrays the same shape).
        threads: worker threads (default: all cores).
        box: the box shape the grids are checked with, as for :func:`solve`.
        format: the symbols of string puzzles and solutions, as for
            :func:`solve`.

    Returns:
        A bool NumPy array.
    """
    if solutions is None:
        raise TypeError("check needs solutions")
    if _length(solutions) != _length(puzzles):
        raise ValueError(
            f"{_length(solutions)} solutions for {_length(puzzles)} puzzles"
        )
    _, values, _ = _call(
        puzzles, "check", solutions=solutions, threads=threads, box=box, format=format
    )
    return values == 1


def grade(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    box: _Box = None,
    format: Optional[str] = None,
) -> Tuple[np.ndarray, List[Optional[str]]]:
    """Grade puzzles as ``sudoku-bulk solve --stats`` does: the guesses the
    solver needs to prove the puzzle unique (count to 2), and the level they
    give (``easy`` 0, ``medium`` 1-4, ``hard`` 5-29, ``extreme`` 30+).
    ``box`` and ``format``: as for :func:`solve`.

    Returns:
        ``(guesses, levels)``: an int64 array (-1 for a bad row or one without
        a solution) and a list of level names (None for those rows).
    """
    _, guesses, _ = _call(puzzles, "grade", threads=threads, box=box, format=format)
    return guesses, _native.level_names(guesses)


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
) -> Any:
    """Generate ``n`` distinct puzzles, each with exactly one solution: the
    same puzzles, in the same order, as
    ``sudoku-bulk generate -n N --seed SEED`` (with the same ``--size``,
    ``--box``, ``--clues``, ``--difficulty``, ``--symmetry``), whatever the
    threads.

    Args:
        n: how many.
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
        symmetry: ``"none"``, ``"rotate180"``, ``"rotate90"``, ``"mirror"``
            or ``"diagonal"``.
        threads: worker threads (default: all cores).
        as_array: return a uint8 array of shape (n, side*side) (0 = blank)
            instead of a list of str (``.`` blank, digits for 9x9, letters
            ``A``.. up to 26x26, ``1``-``9`` then letters up to 35x35,
            ``0``-``9`` then letters for 36x36, space-separated numbers with
            ``0`` blank beyond, as the command writes them).
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n < 2**63:
        raise ValueError(f"n must be an int in 0..2**63, not {n!r}")
    if size is not None and (
        isinstance(size, bool) or not isinstance(size, (int, np.integer)) or not 4 <= size <= 64
    ):
        raise ValueError(
            f"size must be an int grid side from 4 to 64 (9, 16, 25, 6, 12 ...), not {size!r}"
        )
    if size is not None:
        size = int(size)
    # The boxes box= and size= fix together (ValueError when they disagree).
    rows, cols = _native.box_shape(box, size)
    side = rows * cols
    if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in 0..2**64, not {seed!r}")
    if clues is not None and (
        isinstance(clues, bool)
        or not isinstance(clues, (int, np.integer))
        or not 0 <= clues <= side * side
    ):
        raise ValueError(
            f"clues must be an int in 0..={side * side} (the cells of a {side}x{side} grid), "
            f"not {clues!r}"
        )
    if difficulty is not None and difficulty not in _LEVELS:
        raise ValueError(
            f"difficulty must be one of {', '.join(map(repr, _LEVELS))} or None, "
            f"not {difficulty!r}"
        )
    if symmetry not in _SYMMETRIES:
        raise ValueError(
            f"symmetry must be one of {', '.join(map(repr, _SYMMETRIES))}, not {symmetry!r}"
        )
    note = _native.slow_minimal_note(side) if clues is None else None
    if note is not None:
        # The command's note, as a warning: without clues= the call looks hung.
        warnings.warn(note, stacklevel=2)
    cells, _, _ = _native.generate_cells(
        int(n),
        side,
        int(seed),
        None if clues is None else int(clues),
        difficulty,
        symmetry,
        _threads(threads),
        box=(rows, cols),
    )
    if as_array:
        return cells.reshape(int(n), side * side)
    return _native.cells_to_strings(cells, side, box=(rows, cols))
