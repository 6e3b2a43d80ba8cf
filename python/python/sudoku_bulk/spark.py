"""Apache Spark glue: add a solution (or count) column to a DataFrame.

Place in the data flow: Spark executors hand each partition to a Python
worker as Arrow record batches (``DataFrame.mapInArrow``); each batch's
puzzle column goes to :func:`sudoku_bulk.solve` (Rust, no Python work per
row) through the Arrow C data interface, and the batch comes back with one
more column. (An Arrow UDF, PySpark 4.1, ships only the puzzle column each
way; it measured no faster: docs/benchmarks.md, "Python and Spark".)

Every executor needs ``sudoku_bulk`` installed (``pip install ./python`` on
each node or in its image, or a packed venv shipped with ``--archives``; not
``--py-files``, whose zips cannot hold a compiled extension). For a
cluster without the package, see the package README, "Spark": pipe the rows
through the ``sudoku-bulk`` binary shipped with ``--files`` instead.

Threads: Spark already runs one task per core, so each task solves on one
thread by default (``threads=1``); scale with partitions, not threads.

Boxes: ``box="3x2"`` or ``box=(3, 2)`` as in :func:`sudoku_bulk.solve`; it is
checked on the driver, before any task runs, as every other argument is.

Set-up check: the first call in a Spark application (per worker Python;
not under Spark Connect, which has no SparkContext to run it) runs a
one-task-per-core probe job that imports ``sudoku_bulk`` and
``pyarrow`` on the executors; when they cannot, the call raises a short
``RuntimeError`` saying which Python failed and how to fix it
(``PYSPARK_PYTHON``, or ``--archives`` with a packed venv), instead of the
job failing later with hundreds of lines of Java trace.

Bad rows: null in the output column, without the ``UserWarning`` of
:func:`sudoku_bulk.solve` (it would go to the executors' logs) and without
failing a partition whose rows are all bad.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional, Tuple, Union

__all__ = ["solve", "count", "canon", "rate", "split", "augment"]


def _check_column(df: Any, column: Any, output: Any, fill: bool = False) -> bool:
    """Checks the names and types; true when `output` is an existing
    string column that `fill` (``solve``) allows to be filled."""
    from pyspark.sql.types import StringType

    for name, value in (("column", column), ("output", output)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a column name (str), not {type(value).__name__}")
    names = df.schema.names
    if column not in names:
        raise ValueError(f"no column {column!r} in the DataFrame (columns: {names})")
    if not isinstance(df.schema[column].dataType, StringType):
        raise TypeError(
            f"column {column!r} is {df.schema[column].dataType.simpleString()}, "
            "expected string puzzles (one-line layout)"
        )
    if output in names:
        if fill and output != column and isinstance(df.schema[output].dataType, StringType):
            return True
        raise ValueError(f"column {output!r} already exists; pick another output name")
    return False


def _box(box: Union[str, Tuple[int, int], None]) -> Optional[Tuple[int, int]]:
    """`box` checked here on the driver, as a picklable (rows, cols) tuple."""
    if box is None:
        return None
    from . import _native

    return _native.box_shape(box)


def _options(
    unique: Any = False, threads: Any = 1, format: Any = None, limit: Any = None
) -> None:
    """The arguments checked on the driver as :func:`sudoku_bulk.solve`
    checks them, so a wrong one fails here, not in every task."""
    import sudoku_bulk as sb

    sb._flag("unique", unique)
    sb._threads(threads)
    sb._choice("format", format, sb.FORMATS, optional=True)
    if limit is not None:
        limit = sb._int("limit", limit)
        if not 1 <= limit <= 2**32 - 1:
            raise ValueError(f"limit must be in 1..=4294967295, not {limit}")


#: (application id, worker Python) pairs whose executors imported the
#: package: the probe runs once per pair, not per call.
_checked: set = set()

#: How to give the executors the package, for the error below.
_HOW_TO_FIX = """Spark's Python workers must run a Python that has sudoku_bulk (and pyarrow):
- one machine (local mode), or the same path on every node: set
  PYSPARK_PYTHON to that Python before the SparkSession starts, e.g.
  export PYSPARK_PYTHON=$VIRTUAL_ENV/bin/python
- a cluster: pack the venv and ship it with the job:
  venv-pack -o env.tar.gz
  spark-submit --archives env.tar.gz#env \\
    --conf spark.pyspark.python=./env/bin/python job.py
(the sudoku_bulk package README, "Spark", has the whole recipe)"""


def _check_workers(df: Any) -> None:
    """Runs a probe task per core that imports ``sudoku_bulk`` and
    ``pyarrow`` where the executors' Python workers run, once per Spark
    application and worker Python; raises ``RuntimeError`` with the fix
    when they cannot. The probe is a nested function, so Spark ships it by
    value: unpickling it needs neither package."""
    try:
        sc = df.sparkSession.sparkContext
    except Exception:  # noqa: BLE001 - any "not available" error
        # Spark Connect has no SparkContext (the probe is an RDD job): no
        # check there; the tasks' own errors remain.
        return
    key = (sc.applicationId, sc.pythonExec)
    if key in _checked:
        return

    def probe(_: Any) -> Tuple[str, str]:
        import sys

        try:
            import sudoku_bulk  # noqa: F401

            import pyarrow  # noqa: F401
        except Exception as e:  # noqa: BLE001 - reported on the driver
            return sys.executable, f"{type(e).__name__}: {e}"
        return sys.executable, ""

    tasks = max(1, min(int(sc.defaultParallelism), 64))
    try:
        results = sc.parallelize(range(tasks), tasks).map(probe).collect()
    except Exception as e:  # noqa: BLE001 - summarised below
        # The worker did not start at all (no such program, no pyspark
        # there): the cause is one line deep in a Java trace.
        import re

        text = str(e)
        found = re.search(r"Cannot run program [^\n]*", text) or re.findall(
            r"^\w*(?:Error|Exception): [^\n]*", text, re.M
        )
        cause = found.group(0) if isinstance(found, re.Match) else (
            found[-1] if found else text.strip().splitlines()[0]
        )
        raise RuntimeError(
            f"sudoku_bulk.spark: Spark could not start its Python workers with "
            f"{sc.pythonExec!r}: {cause}\n{_HOW_TO_FIX}"
        ) from None
    for exe, error in results:
        if error:
            raise RuntimeError(
                f"sudoku_bulk.spark: the executors' Python ({exe}) cannot import the "
                f"package: {error}\n{_HOW_TO_FIX}"
            ) from None
    _checked.add(key)


def _with_column(df: Any, column: str, output: str, out_type: Any, make: Any) -> Any:
    """`df` with one more column `output` of Spark type `out_type`, made by
    `make(puzzles)` from each Arrow batch's `column` on the executors.

    The columns go through ``mapInArrow`` under positional names (``_0``,
    ``_1`` ...) and get theirs back after (``toDF``): ``mapInArrow``
    resolves each input column by name, and a name such as ``a.b`` reads
    there as field ``b`` of a struct ``a`` (``UNRESOLVED_COLUMN``)."""
    from pyspark.sql.types import StructField, StructType

    names = list(df.columns)
    at = names.index(column)
    safe = df.toDF(*[f"_{i}" for i in range(len(names))])
    out_name = f"_{len(names)}"
    schema = StructType(safe.schema.fields + [StructField(out_name, out_type, True)])

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in it:
            yield pa.RecordBatch.from_arrays(
                list(batch.columns) + [make(batch.column(at))],
                names=list(batch.schema.names) + [out_name],
            )

    return safe.mapInArrow(batches, schema).toDF(*names, output)


def _fill_column(df: Any, column: str, output: str, make: Any) -> Any:
    """`df` with its string column `output` replaced by
    `make(puzzles, existing)` of each Arrow batch (the schema unchanged),
    under positional names as in `_with_column`."""
    names = list(df.columns)
    at, out_at = names.index(column), names.index(output)
    safe = df.toDF(*[f"_{i}" for i in range(len(names))])
    schema = safe.schema

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in it:
            cols = list(batch.columns)
            cols[out_at] = make(batch.column(at), batch.column(out_at)).cast(
                batch.column(out_at).type
            )
            yield pa.RecordBatch.from_arrays(cols, names=list(batch.schema.names))

    return safe.mapInArrow(batches, schema).toDF(*names)


def _fill(
    puzzles: Any, existing: Any, answers: Any, unique: bool, opts: dict, output: str
) -> Any:
    """The CLI's rule for a dataset's own solutions, on one batch: an
    empty or null `existing` value gets the row's answer, a valid one is
    kept byte for byte; a wrong one (or, with `unique`, one of a puzzle
    without exactly one solution) fails the task with the row named,
    rather than being replaced or passed over unseen."""
    import numpy as np
    import pyarrow.compute as pc
    import sudoku_bulk

    held = pc.fill_null(pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(existing)), 0), False)
    idx = np.flatnonzero(held.to_numpy(zero_copy_only=False))
    if len(idx):
        ok = sudoku_bulk.check(
            puzzles.take(idx), existing.take(idx), on_error="ignore", **opts
        )
        if unique:
            ok &= answers.take(idx).is_valid().to_numpy(zero_copy_only=False)
        if not ok.all():
            k = int(idx[int(np.argmin(ok))])
            why = "is not a solution of it" if not unique else "is wrong, or the puzzle is not unique"
            raise ValueError(
                f"sudoku_bulk.spark.solve: the {output!r} value {existing[k].as_py()!r} of "
                f"puzzle {puzzles[k].as_py()!r} {why}; sudoku-bulk solve keeps such a value "
                "and reports it: fix or null it, or write the answers to a new column"
            )
    return pc.if_else(held, existing, answers)


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
        output: the new column's name; or an existing string column (a
            dataset's ``answer`` column, partly empty), filled as
            ``sudoku-bulk solve`` fills it: null and empty values get the
            answer, valid ones are kept byte for byte, and a wrong one
            fails the task naming the row (the command keeps and reports
            it; nothing is replaced unseen).
        unique: null for puzzles with more than one solution.
        threads: solver threads per Spark task (default 1: one task per core).
        box: the box shape, ``"3x2"`` or ``(3, 2)`` (default: the usual boxes
            of the puzzles' size), as for :func:`sudoku_bulk.solve`.
        format: the puzzles' symbols (``"letters"``, ``"hex0"`` ...), as for
            :func:`sudoku_bulk.solve`; default: told from each Arrow batch.
    """
    from pyspark.sql.types import StringType

    fill = _check_column(df, column, output, fill=True)
    box = _box(box)
    _options(unique=unique, threads=threads, format=format)
    _check_workers(df)

    def make(puzzles: Any) -> Any:
        import sudoku_bulk

        return sudoku_bulk.solve(
            puzzles, unique=unique, threads=threads, box=box, format=format, on_error="ignore"
        )

    if fill:
        opts = dict(threads=threads, box=box, format=format)
        return _fill_column(
            df,
            column,
            output,
            lambda p, e: _fill(p, e, make(p), unique, opts, output),
        )
    return _with_column(df, column, output, StringType(), make)


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
    from pyspark.sql.types import LongType

    _check_column(df, column, output)
    box = _box(box)
    _options(threads=threads, format=format, limit=limit)
    _check_workers(df)

    def make(puzzles: Any) -> Any:
        import pyarrow as pa

        import sudoku_bulk

        counts = sudoku_bulk.count(
            puzzles, limit=limit, threads=threads, box=box, format=format, on_error="ignore"
        )
        return pa.array(counts, type=pa.int64(), mask=counts < 0)

    return _with_column(df, column, output, LongType(), make)


def _with_columns(df: Any, column: str, outputs: Any, make: Any) -> Any:
    """`df` with the columns `outputs` (``[(name, Spark type)]``) added,
    made by `make(puzzles)` (a list of Arrow arrays, one per output) from
    each Arrow batch's `column` on the executors; as :func:`_with_column`
    (positional names through ``mapInArrow``), for several columns."""
    from pyspark.sql.types import StructField, StructType

    for name, _ in outputs:
        _check_column(df, column, name)
    names = list(df.columns)
    at = names.index(column)
    safe = df.toDF(*[f"_{i}" for i in range(len(names))])
    out_names = [f"_{len(names) + k}" for k in range(len(outputs))]
    schema = StructType(
        safe.schema.fields
        + [StructField(n, t, True) for n, (_, t) in zip(out_names, outputs)]
    )

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in it:
            yield pa.RecordBatch.from_arrays(
                list(batch.columns) + list(make(batch.column(at))),
                names=list(batch.schema.names) + out_names,
            )

    return safe.mapInArrow(batches, schema).toDF(*names, *[n for n, _ in outputs])


def canon(
    df: Any,
    column: str = "puzzle",
    output: str = "canonical",
    form: str = "string",
    transform: bool = False,
    threads: Optional[int] = 1,
) -> Any:
    """Return ``df`` with a string column ``output`` (default
    ``canonical``): each puzzle's canonical form, as
    :func:`sudoku_bulk.canon` gives it (null for a bad row: unreadable, or
    a size without forms). Puzzles that are disguises of each other get the
    same form, so ``canon(df).dropDuplicates(["canonical"])`` keeps one
    puzzle of each class (which one is Spark's choice; for the first in an
    order, rank with a window over ``canonical``), and a join on it finds
    the test rows that leak from a training set.

    Args:
        df: a Spark DataFrame with a string column of one-line puzzles.
        column: the puzzle column.
        output: the new column's name.
        form: ``"string"`` or ``"pattern"``, as for :func:`sudoku_bulk.canon`.
        transform: also add ``transform`` (string) and ``automorphisms``
            (long) columns.
        threads: threads per Spark task (default 1: one task per core).
    """
    from pyspark.sql.types import LongType, StringType

    import sudoku_bulk as sb

    sb._choice("form", form, ("string", "pattern"))
    transform = sb._flag("transform", transform)
    _options(threads=threads)
    outputs = [(output, StringType())]
    if transform:
        outputs += [("transform", StringType()), ("automorphisms", LongType())]
    _check_column(df, column, output)
    _check_workers(df)

    def make(puzzles: Any) -> Any:
        import pyarrow as pa

        import sudoku_bulk

        if not transform:
            return [sudoku_bulk.canon(puzzles, form=form, threads=threads, on_error="ignore")]
        forms, transforms, autos = sudoku_bulk.canon(
            puzzles, form=form, transform=True, threads=threads, on_error="ignore"
        )
        return [forms, transforms, pa.array(autos, type=pa.int64(), mask=autos < 0)]

    return _with_columns(df, column, outputs, make)


def rate(
    df: Any,
    column: str = "puzzle",
    threads: Optional[int] = 1,
    techniques: Any = None,
    steps: bool = False,
) -> Any:
    """Return ``df`` with double columns ``er``, ``ep`` and ``ed``: each
    puzzle's Sudoku Explainer ratings as :func:`sudoku_bulk.rate` gives
    them, null where it gives NaN (a bad row: unreadable, not 9x9, not
    exactly one solution; ER of an unrated puzzle, EP and ED when its path
    stopped before them), and a string column ``rate_status``: ``ok``,
    ``unrated``, or a bad row's reason (``multiple solutions``, as
    ``rate(return_status=True)`` words it), as ``sudoku-bulk rate`` writes
    tables.

    Args:
        df: a Spark DataFrame with a string column of one-line 9x9 puzzles.
        column: the puzzle column.
        threads: threads per Spark task (default 1: one task per core).
        techniques: as for :func:`sudoku_bulk.rate` (None: all).
        steps: also add a string column ``steps``: each puzzle's solving
            path as the JSON text of the command's ``--steps`` line
            (``rate(steps="json")``; ``from_json`` or ``json.loads`` reads
            it), null for a bad row.
    """
    from pyspark.sql.types import DoubleType, StringType

    import sudoku_bulk as sb
    from sudoku_bulk._analysis import _technique_list

    _options(threads=threads)
    steps = sb._flag("steps", steps)
    tech = _technique_list(techniques)
    if tech is not None:
        # Unknown ids fail here, on the driver.
        sb.rate([], techniques=tech)
    _check_workers(df)

    def make(puzzles: Any) -> Any:
        import numpy as np
        import pyarrow as pa

        import sudoku_bulk

        got = sudoku_bulk.rate(
            puzzles,
            techniques=tech,
            threads=threads,
            on_error="ignore",
            steps="json" if steps else False,
            return_status=True,
        )
        out = [pa.array(v, type=pa.float64(), mask=np.isnan(v)) for v in got[:3]]
        # A good row without ER is unrated (a rated one has all three).
        status = [
            why if why is not None else ("unrated" if np.isnan(er) else "ok")
            for why, er in zip(got[-1], got[0])
        ]
        out.append(pa.array(status, type=pa.string()))
        if steps:
            out.append(pa.array(got[3], type=pa.string()))
        return out

    outputs = [(n, DoubleType()) for n in ("er", "ep", "ed")]
    outputs.append(("rate_status", StringType()))
    if steps:
        outputs.append(("steps", StringType()))
    return _with_columns(df, column, outputs, make)


def _key_columns(df: Any, column: str, seed: int, by: str, threads: Any) -> Any:
    """`df` with ``_class`` (each row's class key, hex; null for a bad
    row), ``_order`` (its class's place in ``split``'s seeded order) and
    ``_clues`` (its clue count) added, made on the executors from each
    Arrow batch by the package's own keys (the commands' key job)."""
    from pyspark.sql.types import IntegerType, LongType, StringType

    def make(puzzles: Any) -> Any:
        import pyarrow as pa

        from sudoku_bulk import _native
        from sudoku_bulk._analysis import _native_rows

        rows, pre_bad, _ = _native_rows(puzzles, "puzzles")
        keys, order, clues, _ = _native.class_rows(rows, seed, by, threads, pre_bad=pre_bad)
        bad = clues < 0
        return [
            pa.array(keys, type=pa.string()),
            pa.array(order, type=pa.int64(), mask=bad),
            pa.array(clues.astype("int32"), type=pa.int32(), mask=bad),
        ]

    outputs = [("_class", StringType()), ("_order", LongType()), ("_clues", IntegerType())]
    return _with_columns(df, column, outputs, make)


def split(
    df: Any,
    test: float = 0.1,
    val: float = 0.0,
    column: str = "puzzle",
    seed: int = 0,
    by: str = "iso",
    stratify: Optional[str] = None,
    threads: Optional[int] = 1,
) -> Tuple[Any, ...]:
    """Split ``df`` into ``(train, test)`` (``(train, test, val)`` when
    ``val > 0``) DataFrames with every isomorph class (``by="iso"``) or
    every set of equal puzzles (``by="exact"``) whole in one part: the
    parts of ``sudoku-bulk split`` and :func:`sudoku_bulk.split` for the
    same rows and seed (the same class keys, seeded class order and walk:
    each class goes to the part its first record's place in its stratum
    falls in, so each part is within one class of its fraction).

    The keys are computed on the executors; the classes (one small row
    each: key, order, size, stratum) are ordered with a window per
    stratum, so one task walks each stratum's classes. The routed rows are
    persisted (memory and disk), so the parts share one key pass
    (``spark.catalog.clearCache()`` frees them). Bad rows (no key) go to
    train.

    Args:
        df: a Spark DataFrame with a string column of one-line puzzles.
        test, val: the parts' shares of the rows.
        column: the puzzle column.
        seed: seed of the class order.
        by: ``"iso"`` or ``"exact"``.
        stratify: ``None``, ``"clues"`` (each clue count), or a column
            name (a class's stratum is the smallest value among its rows:
            a rating or level column, one value a class).
        threads: threads per Spark task (default 1: one task per core).
    """
    from pyspark import StorageLevel
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    import sudoku_bulk as sb

    sb._choice("by", by, ("iso", "exact"))
    _options(threads=threads)
    seed = sb._int("seed", seed)
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64, not {seed}")
    # The fractions checked by the library, on the driver.
    sb._native.split_rows([], float(test), float(val), seed)
    names = list(df.columns)
    _check_column(df, column, "_class")
    for extra in ("_class", "_order", "_clues", "_part"):
        if extra in names:
            raise ValueError(f"column {extra!r} is split's own; rename it first")
    if stratify is not None and stratify != "clues" and stratify not in names:
        raise ValueError(
            f'stratify must be None, "clues" or a column of the DataFrame, not {stratify!r}'
        )
    _check_workers(df)
    keyed = _key_columns(df, column, seed, by, threads)
    if stratify is None:
        stratum = F.lit(0)
    elif stratify == "clues":
        stratum = F.col("_clues")
    else:
        stratum = F.col(f"`{stratify}`")
    classes = (
        keyed.where(F.col("_class").isNotNull())
        .groupBy("_class")
        .agg(
            F.min("_order").alias("_order"),
            F.count(F.lit(1)).alias("_size"),
            F.min(stratum).alias("_stratum"),
        )
    )
    per = Window.partitionBy("_stratum")
    walk = per.orderBy("_order", "_class").rowsBetween(Window.unboundedPreceding, -1)
    # Rust's f64::round (half away from zero) is Spark's HALF_UP for
    # positive numbers.
    total = F.sum("_size").over(per)
    at = F.coalesce(F.sum("_size").over(walk), F.lit(0))
    t = F.round(total * F.lit(float(test)))
    v = F.round(total * F.lit(float(test) + float(val)))
    parts = classes.select(
        "_class",
        F.when(at < t, 1).when(at < v, 2).otherwise(0).alias("_part"),
    )
    routed = keyed.join(parts, on="_class", how="left")
    # Persisted (memory and disk): the parts share one key pass and one
    # walk instead of each running both again.
    routed = routed.withColumn("_part", F.coalesce(F.col("_part"), F.lit(0))).persist(
        StorageLevel.MEMORY_AND_DISK
    )
    k = 3 if val > 0 else 2
    return tuple(
        routed.where(F.col("_part") == p).select(*[F.col(f"`{n}`") for n in names])
        for p in (0, 1, 2)[:k]
    )


def augment(
    df: Any,
    n: int = 1,
    column: str = "puzzle",
    solution_column: Optional[str] = None,
    seed: int = 0,
    keep_original: bool = False,
    transform: bool = False,
    blank: Optional[str] = None,
    threads: Optional[int] = 1,
) -> Any:
    """Return ``df`` with each row replaced by ``n`` random disguises of
    its puzzle (after the row itself with ``keep_original``), as
    :func:`sudoku_bulk.augment` and ``sudoku-bulk augment`` make them (a
    puzzle's disguises depend on ``seed`` and its cells alone), every
    other column carried, ``solution_column`` (default: ``solution`` for
    ``puzzle``, ``answer`` for ``question`` ... when the DataFrame has it)
    transformed along, and a string column ``transform`` with
    ``transform=True``. A bad row is kept once, unchanged.

    Args:
        df: a Spark DataFrame with a string column of one-line puzzles.
        n: disguises per row.
        column: the puzzle column.
        solution_column: the solution column to transform along.
        seed: seed of the disguises.
        keep_original, transform, blank: as for :func:`sudoku_bulk.augment`.
        threads: threads per Spark task (default 1: one task per core).
    """
    from pyspark.sql.types import StringType, StructField, StructType

    from sudoku_bulk._workbench import _KNOWN_COLUMNS, _augment_options

    n, seed, keep_original, transform = _augment_options(n, seed, keep_original, transform, blank)
    _options(threads=threads)
    names = list(df.columns)
    _check_column(df, column, "transform" if transform else "_unused")
    if solution_column is None:
        partner = dict(_KNOWN_COLUMNS).get(column)
        solution_column = partner if partner in names else None
    elif solution_column not in names:
        raise ValueError(f"no column {solution_column!r} in the DataFrame (columns: {names})")
    _check_workers(df)
    at = names.index(column)
    sol_at = names.index(solution_column) if solution_column else None
    safe = df.toDF(*[f"_{i}" for i in range(len(names))])
    fields = list(safe.schema.fields)
    if transform:
        fields.append(StructField(f"_{len(names)}", StringType(), True))
    schema = StructType(fields)

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        import sudoku_bulk

        for batch in it:
            out = sudoku_bulk.augment(
                pa.Table.from_batches([batch]),
                n,
                seed=seed,
                keep_original=keep_original,
                transform=transform,
                blank=blank,
                column=f"_{at}",
                solution_column=None if sol_at is None else f"_{sol_at}",
                threads=threads,
                on_error="ignore",
            )
            if transform:
                out = out.rename_columns(list(batch.schema.names) + [f"_{len(names)}"])
            yield from out.to_batches()

    out = safe.mapInArrow(batches, schema)
    return out.toDF(*names, *(["transform"] if transform else []))
