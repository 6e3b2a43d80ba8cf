"""Apache Spark glue: add a solution (or count) column to a DataFrame.

Place in the data flow: Spark executors hand each partition to a Python
worker as Arrow record batches (``DataFrame.mapInArrow``); each batch's
puzzle column goes, buffers and all, to :func:`sudoku_bulk.solve` (Rust, no
Python work per row), and the batch comes back with one more column.

Every executor needs ``sudoku_bulk`` installed (``pip install ./python`` on
each node, or ship a wheel with ``--py-files``/an environment archive). For a
cluster without the package, see the package README, "Spark": pipe the rows
through the ``sudoku-bulk`` binary shipped with ``--files`` instead.

Threads: Spark already runs one task per core, so each task solves on one
thread by default (``threads=1``); scale with partitions, not threads.

Boxes: ``box="3x2"`` or ``box=(3, 2)`` as in :func:`sudoku_bulk.solve`; it is
checked on the driver, before any task runs.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional, Tuple, Union

__all__ = ["solve", "count"]


def _check_column(df: Any, column: str, output: str) -> None:
    from pyspark.sql.types import StringType

    names = df.schema.names
    if column not in names:
        raise ValueError(f"no column {column!r} in the DataFrame (columns: {names})")
    if not isinstance(df.schema[column].dataType, StringType):
        raise TypeError(
            f"column {column!r} is {df.schema[column].dataType.simpleString()}, "
            "expected string puzzles (one-line layout)"
        )
    if output in names:
        raise ValueError(f"column {output!r} already exists; pick another output name")


def _box(box: Union[str, Tuple[int, int], None]) -> Optional[Tuple[int, int]]:
    """`box` checked here on the driver, as a picklable (rows, cols) tuple."""
    if box is None:
        return None
    from . import _native

    return _native.box_shape(box)


def solve(
    df: Any,
    column: str = "puzzle",
    output: str = "solution",
    unique: bool = False,
    threads: Optional[int] = 1,
    box: Union[str, Tuple[int, int], None] = None,
    format: Optional[str] = None,
) -> Any:
    """Return ``df`` with a string column ``output`` holding each puzzle's
    solution (null for a bad puzzle: no solution, clashing givens, unreadable,
    or several solutions with ``unique=True``).

    Args:
        df: a Spark DataFrame with a string column of one-line puzzles.
        column: the puzzle column.
        output: the new column's name.
        unique: null for puzzles with more than one solution.
        threads: solver threads per Spark task (default 1: one task per core).
        box: the box shape, ``"3x2"`` or ``(3, 2)`` (default: the usual boxes
            of the puzzles' size), as for :func:`sudoku_bulk.solve`.
        format: the puzzles' symbols (``"letters"``, ``"hex0"`` ...), as for
            :func:`sudoku_bulk.solve`; default: told from each Arrow batch.
    """
    from pyspark.sql.types import StringType, StructField, StructType

    _check_column(df, column, output)
    box = _box(box)
    schema = StructType(df.schema.fields + [StructField(output, StringType(), True)])

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        import sudoku_bulk

        for batch in it:
            answers = sudoku_bulk.solve(
                batch.column(column), unique=unique, threads=threads, box=box, format=format
            )
            yield pa.RecordBatch.from_arrays(
                list(batch.columns) + [answers], names=list(batch.schema.names) + [output]
            )

    return df.mapInArrow(batches, schema)


def count(
    df: Any,
    column: str = "puzzle",
    output: str = "solutions",
    limit: int = 2,
    threads: Optional[int] = 1,
    box: Union[str, Tuple[int, int], None] = None,
    format: Optional[str] = None,
) -> Any:
    """Return ``df`` with a long column ``output``: each puzzle's number of
    solutions, capped at ``limit`` (null for a row that is not a puzzle:
    clashing givens, unreadable text). ``box`` and ``format``: as for
    :func:`solve`.
    """
    from pyspark.sql.types import LongType, StructField, StructType

    _check_column(df, column, output)
    box = _box(box)
    schema = StructType(df.schema.fields + [StructField(output, LongType(), True)])

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        import sudoku_bulk

        for batch in it:
            counts = sudoku_bulk.count(
                batch.column(column), limit=limit, threads=threads, box=box, format=format
            )
            col = pa.array(counts, type=pa.int64(), mask=counts < 0)
            yield pa.RecordBatch.from_arrays(
                list(batch.columns) + [col], names=list(batch.schema.names) + [output]
            )

    return df.mapInArrow(batches, schema)
