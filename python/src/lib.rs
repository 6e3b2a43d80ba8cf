//! `sudoku_bulk._native`: the Python package's bridge to the Rust library.
//! Python hands it whole arrays or columns (NumPy rows of cells, a list of
//! strings, Arrow string arrays through the C data interface: see
//! [`arrow`]); this file only converts them to the library's inputs
//! ([`batch::Cells`], [`batch::Values`]), runs the
//! library's row engine ([`batch::run_cells`], [`batch::run_texts`]: the
//! CLI's per-record rule, layouts and `--format` names) on a rayon pool
//! with the GIL released, and converts the results back. While the pool
//! works, the calling thread wakes every 50 ms to run Python's signal
//! handlers, so Ctrl-C stops a call between rows ([`interruptible`]). No
//! row logic lives here, and nothing runs per row in Python. Argument
//! checking and dispatch on the input kind are in
//! `python/sudoku_bulk/__init__.py`.

mod analysis;
mod arrow;
mod workbench;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use sudoku_bulk::batch::{self, Cells, Done, Job, Packed, Values};
use sudoku_bulk::generate::{self, Level, Spec, Symmetry};
use sudoku_bulk::solver::Boxes;
use sudoku_bulk::text::Layout;

/// The pools built so far in this process (see [`pool`]).
struct Pools {
    pid: u32,
    by_threads: HashMap<usize, Arc<rayon::ThreadPool>>,
}

/// A rayon pool per thread count, built once: a Spark job calls once per
/// Arrow batch, and building a pool each time would start threads each time.
/// A forked child (multiprocessing, a DataLoader worker) inherits the cache
/// but not the threads, so it builds its own.
fn pool(threads: Option<usize>) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let threads = match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        // As the CLI's -j: more than a few per core only adds switching,
        // and each count asked for keeps its pool (threads=2**40 tried to
        // start that many).
        Some(t) => t.min(sudoku_bulk::batch::max_threads()),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pid = std::process::id();
    let mut pools = POOLS
        .get_or_init(|| {
            Mutex::new(Pools {
                pid,
                by_threads: HashMap::new(),
            })
        })
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if pools.pid != pid {
        // The parent's pools have no threads here; dropping them would wait
        // for threads that do not exist, so they are leaked.
        std::mem::forget(std::mem::take(&mut pools.by_threads));
        pools.pid = pid;
    }
    if let Some(p) = pools.by_threads.get(&threads) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoku-bulk-{i}"))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let p = Arc::new(p);
    pools.by_threads.insert(threads, p.clone());
    Ok(p)
}

/// How often a waiting call wakes to run Python's signal handlers: Ctrl-C
/// then stops a call within this plus the row (or generate batch) in
/// progress, and taking the GIL 20 times a second costs nothing measurable.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on `pool` with the GIL released while the calling thread
/// waits, waking every [`SIGNAL_POLL`] to take the GIL and run Python's
/// signal handlers (`Python::check_signals`): when one raises (Ctrl-C's
/// `KeyboardInterrupt`), `stop` is set, which `work` polls between rows or
/// batches, and that exception is returned once the workers have let go.
/// Without this a `KeyboardInterrupt` waited for the whole call (7-9 s
/// for 300k hard puzzles, over a minute for `generate(3000, size=16)`).
fn interruptible<T: Send>(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        let (done, finished) = mpsc::channel();
        let mut raised = None;
        // The work goes to a pool worker and this thread waits in the scope:
        // the same two hand-offs as `pool.install` (a helper thread that
        // installed the work cost 0.4-0.8 ms more per call on a busy 2-core
        // machine: 1-puzzle solves took 0.6-1.0 ms instead of 0.2).
        let out = pool.in_place_scope(|s| {
            s.spawn(move |_| {
                // Caught here and carried on below, after the scope.
                let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
                let _ = done.send(out);
            });
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Ok(out) => break out,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if raised.is_none() {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                stop.store(true, Ordering::Relaxed);
                                raised = Some(e);
                            }
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        unreachable!("the job sends before it ends, panic or not")
                    }
                }
            }
        });
        let out = out.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        raised.map_or(Ok(out), Err)
    })
}

/// The usual boxes of a grid `size` cells wide.
fn boxes_of_side(size: usize) -> PyResult<Boxes> {
    Boxes::for_side(size).ok_or_else(|| {
        PyValueError::new_err(format!(
            "size must be a grid side from 4 to 64 that boxes tile (6, 8, 9, 10, 12, 16, 25 ...), \
             not {size}"
        ))
    })
}

/// A `box=` argument: `"RxC"` (rows x columns of a box, parsed by
/// [`Boxes::parse`] as the CLI's `--box`) or a tuple `(R, C)`; `None` when
/// not given.
fn box_arg(b: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Boxes>> {
    let Some(b) = b.filter(|b| !b.is_none()) else {
        return Ok(None);
    };
    if let Ok(s) = b.cast::<PyString>() {
        return Boxes::parse(s.to_str()?)
            .map(Some)
            .map_err(|e| PyValueError::new_err(format!("box={e}")));
    }
    let text = || b.repr().map_or("?".into(), |r| r.to_string());
    if !b.is_instance_of::<PyTuple>() {
        return Err(PyTypeError::new_err(format!(
            "box must be a str such as \"3x2\" or a tuple (rows, cols) such as (3, 2), not {}",
            text()
        )));
    }
    let (r, c) = b.extract::<(i64, i64)>().map_err(|_| {
        PyValueError::new_err(format!(
            "box={}: expected (rows, cols), two ints such as (3, 2)",
            text()
        ))
    })?;
    usize::try_from(r)
        .ok()
        .zip(usize::try_from(c).ok())
        .and_then(|(r, c)| Boxes::new(r, c))
        .map(Some)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "box=({r}, {c}): boxes must be at least 2x2 with at most {} cells",
                sudoku_bulk::solver::MAX_SIDE
            ))
        })
}

/// The boxes `size=` and `box=` fix together, as the CLI's `--size` and
/// `--box`: `box` when given (it must agree with `size`), else the usual
/// boxes of `size`, else 3x3.
fn boxes_of_grid(size: Option<usize>, forced: Option<Boxes>) -> PyResult<Boxes> {
    match (size, forced) {
        (Some(n), Some(b)) if b.side() != n => Err(PyValueError::new_err(format!(
            "box={b} makes {0}x{0} grids, not size={n}",
            b.side()
        ))),
        (_, Some(b)) => Ok(b),
        (Some(n), None) => boxes_of_side(n),
        (None, None) => Ok(Boxes::NINE),
    }
}

/// The note `generate` gives for minimal puzzles of grids `side` wide
/// when they take minutes (the command's note, spelled `clues=`), or None.
#[pyfunction]
fn slow_minimal_note(side: usize) -> Option<String> {
    sudoku_bulk::generate::slow_minimal_note(side, "clues=")
}

/// The box shape `(rows, cols)` that `box=` and `size=` ask for: `box`
/// (`"RxC"` or `(R, C)`) when given, which must make grids `size` wide;
/// else the usual boxes of `size`; else 3x3. Raises `ValueError` for a
/// bad box, a size no box tiles, or the two disagreeing.
#[pyfunction]
#[pyo3(signature = (r#box=None, size=None))]
fn box_shape(r#box: Option<&Bound<'_, PyAny>>, size: Option<usize>) -> PyResult<(usize, usize)> {
    let b = boxes_of_grid(size, box_arg(r#box)?)?;
    Ok((b.rows(), b.cols()))
}

/// A library error (a shape, a box or a format that does not fit) as
/// Python's `ValueError`.
fn value_error(e: String) -> PyErr {
    PyValueError::new_err(e)
}

/// Bad rows as `(index, reason)`, in row order.
type Bad = Vec<(usize, String)>;

/// What a `run_*` function returns to Python: the answers in the input's
/// kind (None unless solving), int64 values per row, the bad rows.
type Returned<'py, A> = (Option<A>, Bound<'py, PyArray1<i64>>, Bad);

/// The job `kind` names, with its options.
fn job_of(kind: &str, unique: bool, limit: u32) -> PyResult<Job> {
    Job::named(kind, unique, limit).map_err(value_error)
}

/// Runs `work` (a library run over rows, polling `stop`) on the pool for
/// `threads` with the GIL released (see [`interruptible`]).
fn run_job(
    py: Python<'_>,
    threads: Option<usize>,
    work: impl FnOnce(&AtomicBool) -> Result<Done, String> + Send,
) -> PyResult<Done> {
    let pool = pool(threads)?;
    let stop = AtomicBool::new(false);
    let stop = &stop;
    interruptible(py, &pool, stop, move || work(stop))?.map_err(value_error)
}

/// A 2-D C-contiguous NumPy integer array as the library's [`Cells`]
/// (borrowed in place: `as_slice` is NumPy's buffer, no copy) and its shape.
macro_rules! with_cells {
    ($arr:expr, |$cells:ident, $rows:ident, $n:ident| $body:expr) => {
        with_cells!(@try $arr, |$cells, $rows, $n| $body, u8, i8, i16, i32, i64, u16, u32, u64)
    };
    (@try $arr:expr, |$cells:ident, $rows:ident, $n:ident| $body:expr, $($t:ty),*) => {{
        let arr = $arr;
        $(if let Ok(a) = arr.extract::<PyReadonlyArray2<$t>>() {
            let ($rows, $n) = (a.shape()[0], a.shape()[1]);
            let s = a.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
            let $cells = Cells::from(s);
            $body
        } else)* {
            Err(PyTypeError::new_err(
                "expected a 2-D C-contiguous integer array (u8/i8/i16/i32/i64/u16/u32/u64)",
            ))
        }
    }};
}

/// Solves, counts, grades or checks the rows of a 2-D C-contiguous integer
/// array. Returns `(answers, values, bad)`: answers a flat uint8 array
/// (`kind="solve"`, else None), values int64 per row (count, guesses, or
/// 1 for a valid solution; -1 for a bad row), bad a list of
/// `(index, reason)`.
#[pyfunction]
#[pyo3(signature = (puzzles, kind, *, solutions=None, unique=false, limit=2, threads=None, r#box=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keywords
fn run_cells<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    kind: &str,
    solutions: Option<&Bound<'py, PyAny>>,
    unique: bool,
    limit: u32,
    threads: Option<usize>,
    r#box: Option<&Bound<'py, PyAny>>,
) -> PyResult<Returned<'py, Bound<'py, PyArray1<u8>>>> {
    let job = job_of(kind, unique, limit)?;
    let forced = box_arg(r#box)?;
    let done = with_cells!(puzzles, |p, rows, n| {
        match solutions {
            None => run_job(py, threads, |stop| {
                batch::run_cells(p, None, n, forced, job, stop)
            }),
            Some(sol) => with_cells!(sol, |s, srows, sn| {
                if (srows, sn) != (rows, n) {
                    return Err(PyValueError::new_err(format!(
                        "solutions have shape ({srows}, {sn}), puzzles ({rows}, {n})"
                    )));
                }
                run_job(py, threads, |stop| {
                    batch::run_cells(p, Some(s), n, forced, job, stop)
                })
            }),
        }
    })?;
    let answers = matches!(job, Job::Solve { .. }).then(|| done.answers.into_pyarray(py));
    Ok((answers, done.values.into_pyarray(py), done.bad))
}

/// What `format=` and `box=` fix of string puzzles, for the library.
fn text_forced(
    format: Option<&str>,
    forced: Option<Boxes>,
) -> PyResult<sudoku_bulk::text::detect::Forced> {
    let mut f = batch::value_format(format).map_err(value_error)?;
    f.boxes = forced;
    Ok(f)
}

/// Packs a list of `str` (or None) into one buffer, under the GIL (the
/// only per-row step: a pointer read and a copy of the UTF-8). Holding a
/// reference to each string and reading them in place instead measured no
/// better per CPU second at 1M puzzles, 1 thread (0.89 and 0.85 of the
/// CLI, against 0.89 and 0.86 packed) and worse at 2 threads (0.92
/// against 0.95): the workers then read a million scattered objects.
fn pack_list(seq: &Bound<'_, PyAny>) -> PyResult<Packed> {
    let list = seq
        .cast::<PyList>()
        .map_err(|_| PyTypeError::new_err("expected a list of str"))?;
    let mut packed = Packed::with_capacity(list.len(), list.len() * 82);
    for (i, item) in list.iter().enumerate() {
        if item.is_none() {
            packed.push(None);
            continue;
        }
        let s = item.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "puzzles[{i}] is {}, expected str or None",
                item.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?;
        match s.to_str() {
            Ok(text) => packed.push(Some(text.as_bytes())),
            // A lone surrogate (text decoded with surrogateescape) has no
            // UTF-8: U+FFFD in its place makes the row bad, not the call.
            Err(_) => packed.push(Some(s.to_string_lossy().as_bytes())),
        }
    }
    Ok(packed)
}

/// A Python `str` of `text`. Answers are ASCII (symbols, digits, spaces):
/// made as a compact ASCII string and filled with one copy, where
/// `PyString::new` decodes the bytes as UTF-8 first (550 instructions an
/// answer in all, about 2.8% of a 17-clue puzzle's work on the `list[str]`
/// path; this halves it, callgrind).
fn answer_str<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyString>> {
    if !text.is_ascii() {
        // Not an answer the library writes; decoded as any text.
        return Ok(PyString::new(py, &String::from_utf8_lossy(text)));
    }
    let len = pyo3::ffi::Py_ssize_t::try_from(text.len())
        .map_err(|_| PyValueError::new_err("answer too long for a str"))?;
    // SAFETY: `PyUnicode_New(len, 127)` returns a new compact ASCII string
    // of `len` one-byte characters (or NULL with an exception set), with
    // the GIL held (`py`); its `len` data bytes are filled with ASCII bytes
    // (checked above) before anyone else sees it, and the new reference is
    // owned by the returned `Bound`, which is a `str`.
    unsafe {
        let s = pyo3::ffi::PyUnicode_New(len, 127);
        if !s.is_null() {
            let data = pyo3::ffi::PyUnicode_1BYTE_DATA(s);
            std::ptr::copy_nonoverlapping(text.as_ptr(), data, text.len());
        }
        Ok(Bound::from_owned_ptr_or_err(py, s)?.cast_into_unchecked())
    }
}

/// The answers as a new list (`None` for a bad row), each `str` made
/// straight into its slot: one `PyList_New(n)` and a `PyList_SET_ITEM` a
/// row, where collecting a `Vec` of strings and `PyList::new` moved each
/// reference twice (an 8 MB vector and n reference-count round trips at
/// 1M rows).
fn answer_list<'py>(py: Python<'py>, texts: &Packed) -> PyResult<Bound<'py, PyList>> {
    let n = pyo3::ffi::Py_ssize_t::try_from(texts.rows())
        .map_err(|_| PyValueError::new_err("too many answers for a list"))?;
    // SAFETY: with the GIL held (`py`), `PyList_New(n)` returns a new list
    // of `n` NULL slots (or NULL with an exception set), owned from here by
    // `list`, which frees it (and the items set so far) if a row fails. Each
    // slot `row < n` is set once, before the list is returned or seen by
    // any other code, with a new reference that the list then owns
    // (`into_ptr` gives it up), as `PyList_SET_ITEM` requires.
    unsafe {
        let list = Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyList_New(n))?;
        for row in 0..texts.rows() {
            let item = match texts.get(row) {
                Some(text) => answer_str(py, text)?.into_any(),
                None => py.None().into_bound(py),
            };
            pyo3::ffi::PyList_SET_ITEM(
                list.as_ptr(),
                row as pyo3::ffi::Py_ssize_t,
                item.into_ptr(),
            );
        }
        Ok(list.cast_into_unchecked())
    }
}

/// Solves/counts/grades/checks a list of `str` (None allowed). Returns
/// `(answers, values, bad)`: answers a list of str (None for bad rows) for
/// `kind="solve"`, else None.
#[pyfunction]
#[pyo3(signature = (puzzles, kind, *, solutions=None, unique=false, limit=2, threads=None, r#box=None, format=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keywords
fn run_strings<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    kind: &str,
    solutions: Option<&Bound<'py, PyAny>>,
    unique: bool,
    limit: u32,
    threads: Option<usize>,
    r#box: Option<&Bound<'py, PyAny>>,
    format: Option<&str>,
) -> PyResult<Returned<'py, Bound<'py, PyList>>> {
    let job = job_of(kind, unique, limit)?;
    let forced = text_forced(format, box_arg(r#box)?)?;
    let p = pack_list(puzzles)?;
    let sol = solutions.map(pack_list).transpose()?;
    let done = run_job(py, threads, |stop| {
        batch::run_texts(
            &p,
            sol.as_ref().map(|s| s as &dyn Values),
            job,
            &forced,
            stop,
        )
    })?;
    let strings = done
        .texts
        .as_ref()
        .map(|t| answer_list(py, t))
        .transpose()?;
    Ok((strings, done.values.into_pyarray(py), done.bad))
}

/// Solves/counts/grades/checks an Arrow `string` / `large_string` column:
/// an object with `__arrow_c_array__` (a pyarrow `Array`) or
/// `__arrow_c_stream__` (a `ChunkedArray`), imported through the Arrow C
/// data interface ([`arrow::import`]); `solutions` likewise, chunked any
/// way. For `kind="solve"` the answers come back as one array of the same
/// width per puzzle chunk, each exporting `__arrow_c_array__` (bad rows
/// null); else None.
#[pyfunction]
#[pyo3(signature = (puzzles, kind, *, solutions=None, unique=false, limit=2, threads=None, r#box=None, format=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keywords
fn run_arrow<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    kind: &str,
    solutions: Option<&Bound<'py, PyAny>>,
    unique: bool,
    limit: u32,
    threads: Option<usize>,
    r#box: Option<&Bound<'py, PyAny>>,
    format: Option<&str>,
) -> PyResult<Returned<'py, Vec<arrow::Exported>>> {
    let job = job_of(kind, unique, limit)?;
    let forced = text_forced(format, box_arg(r#box)?)?;
    let p = arrow::import(puzzles, "puzzles")?;
    let sol = solutions
        .map(|s| arrow::import(s, "solutions"))
        .transpose()?;
    let mut done = run_job(py, threads, |stop| {
        batch::run_texts(
            &p,
            sol.as_ref().map(|s| s as &dyn Values),
            job,
            &forced,
            stop,
        )
    })?;
    let out = done
        .texts
        .take()
        .map(|texts| arrow::export(texts, p.large(), &p.chunk_rows()))
        .transpose()?;
    Ok((out, done.values.into_pyarray(py), done.bad))
}

/// Generates `n` puzzles exactly as `sudoku-bulk generate -n N --seed S`
/// does (same library code, so the same bytes whatever the threads).
/// `size` and `box` fix the grid as `--size` and `--box` do (see
/// [`box_shape`]). Returns `(cells, guesses, off_target)`: a flat uint8
/// array of `n` rows, an int64 array of the guesses each needs, and how
/// many missed the clue count or level asked for. `rating` (`"MIN..MAX"`,
/// as `--rating` takes it) keeps the candidates whose ER is in the band,
/// as `generate --rating` does ([`generate::RatedRun`]). Ctrl-C stops it
/// between batches (see [`interruptible`]).
#[pyfunction]
#[pyo3(signature = (n, size, seed, clues=None, level=None, symmetry="none", threads=None, *, r#box=None, rating=None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)] // mirrors the Python keywords
fn generate_cells<'py>(
    py: Python<'py>,
    n: u64,
    size: Option<usize>,
    seed: u64,
    clues: Option<usize>,
    level: Option<&str>,
    symmetry: &str,
    threads: Option<usize>,
    r#box: Option<&Bound<'py, PyAny>>,
    rating: Option<&str>,
) -> PyResult<(Bound<'py, PyArray1<u8>>, Bound<'py, PyArray1<i64>>, u64)> {
    let level = match level {
        None => None,
        Some("easy") => Some(Level::Easy),
        Some("medium") => Some(Level::Medium),
        Some("hard") => Some(Level::Hard),
        Some("extreme") => Some(Level::Extreme),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "difficulty must be easy, medium, hard or extreme, not {other:?}"
            )))
        }
    };
    let symmetry = match symmetry {
        "none" => Symmetry::None,
        "rotate180" => Symmetry::Rotate180,
        "rotate90" => Symmetry::Rotate90,
        "mirror" => Symmetry::Mirror,
        "diagonal" => Symmetry::Diagonal,
        other => {
            return Err(PyValueError::new_err(format!(
                "symmetry must be none, rotate180, rotate90, mirror or diagonal, not {other:?}"
            )))
        }
    };
    let spec = Spec {
        boxes: boxes_of_grid(size, box_arg(r#box)?)?,
        clues,
        level,
        symmetry,
    };
    // The CLI's checks and messages, named as the keyword is.
    let keyword = |e: String| PyValueError::new_err(e.replacen("--rating ", "rating=", 1));
    let band = rating
        .map(|r| -> PyResult<generate::RatingBand> {
            if spec.boxes != Boxes::NINE {
                return Err(PyValueError::new_err(
                    "rating: Sudoku Explainer ratings exist for 9x9 puzzles only",
                ));
            }
            let band = generate::RatingBand::parse(r).map_err(keyword)?;
            band.check(&sudoku_bulk::rate::Rater::new(), &spec)
                .map_err(keyword)?;
            Ok(band)
        })
        .transpose()?;
    let pool = pool(threads)?;
    let workers = pool.current_num_threads() as u64;
    let stop = AtomicBool::new(false);
    let stop = &stop;
    let (cells, guesses, off_target, dry) = interruptible(py, &pool, stop, move || {
        let mut run = generate::Run::new(spec, seed);
        let mut rated = band.map(|b| generate::RatedRun::new(spec, seed, b));
        let (mut cells, mut guesses, mut off_target) = (Vec::new(), Vec::new(), 0u64);
        // Batches sized to take about GENERATE_STEP, so Ctrl-C is seen
        // within about that: a batch of `generate::BATCH` 16x16 puzzles
        // takes minutes. Batch edges do not change the puzzles (repeats are
        // replaced in index order across batches).
        let mut step = 2 * workers;
        let mut index = 0;
        while index < n && !stop.load(Ordering::Relaxed) {
            let end = index.saturating_add(step).min(n);
            let started = Instant::now();
            let batch = match rated.as_mut() {
                None => run.take_until(end),
                // Polled after every rated batch of candidates: a band few
                // candidates reach can rate for minutes before one is found.
                Some(r) => match r
                    .take_with((end - index) as usize, |_, _| !stop.load(Ordering::Relaxed))
                {
                    Ok(b) => b,
                    Err(e) => return (cells, guesses, off_target, Some(e)),
                },
            };
            for p in batch {
                cells.extend_from_slice(&p.cells);
                guesses.push(p.guesses as i64);
                off_target += u64::from(!p.on_target);
            }
            let took = started.elapsed().as_secs_f64().max(1e-6);
            let fit = (step as f64 * GENERATE_STEP.as_secs_f64() / took) as u64;
            let most = (4 * step).min(generate::BATCH).max(workers);
            step = fit.clamp(workers, most);
            index = end;
        }
        (cells, guesses, off_target, None)
    })?;
    if let Some(e) = dry {
        return Err(keyword(e));
    }
    Ok((cells.into_pyarray(py), guesses.into_pyarray(py), off_target))
}

/// The time a batch of `generate` aims at: short enough that Ctrl-C stops
/// it within a second, long enough (hundreds of 9x9 puzzles) that the
/// workers stay busy.
const GENERATE_STEP: Duration = Duration::from_millis(200);

/// One-line text of flat cell rows (`.` blank; digits for 9x9, letters
/// above, as `generate` writes them), as a list of str. `size` and `box`
/// as for [`generate_cells`].
#[pyfunction]
#[pyo3(signature = (cells, size, *, r#box=None))]
fn cells_to_strings<'py>(
    py: Python<'py>,
    cells: PyReadonlyArray1<'py, u8>,
    size: Option<usize>,
    r#box: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let layout = Layout::one_line(boxes_of_grid(size, box_arg(r#box)?)?);
    let n = layout.cells();
    let cells = cells
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let side = layout.boxes.side();
    if cells.len() % n != 0 || cells.iter().any(|&c| c as usize > side) {
        return Err(PyValueError::new_err("cells are not rows of a grid"));
    }
    let mut text = Vec::with_capacity(n);
    let items = cells.chunks(n).map(|row| {
        text.clear();
        layout.write_cells(row, b'.', &mut text);
        PyString::new(py, std::str::from_utf8(&text).expect("ASCII symbols"))
    });
    let items: Vec<_> = items.collect();
    PyList::new(py, items)
}

/// The level name for a guess count (the CLI's `--stats` thresholds).
#[pyfunction]
fn level_names(guesses: PyReadonlyArray1<'_, i64>) -> PyResult<Vec<Option<&'static str>>> {
    let g = guesses
        .as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(g.iter()
        .map(|&g| (g >= 0).then(|| Level::from_guesses(g as u64).name()))
        .collect())
}

/// The Rust side of `sudoku_bulk`; use the functions of `sudoku_bulk`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<arrow::Exported>()?;
    m.add_function(wrap_pyfunction!(run_cells, m)?)?;
    m.add_function(wrap_pyfunction!(run_strings, m)?)?;
    m.add_function(wrap_pyfunction!(run_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(generate_cells, m)?)?;
    m.add_function(wrap_pyfunction!(cells_to_strings, m)?)?;
    m.add_function(wrap_pyfunction!(level_names, m)?)?;
    m.add_function(wrap_pyfunction!(box_shape, m)?)?;
    m.add_function(wrap_pyfunction!(slow_minimal_note, m)?)?;
    analysis::register(m)?;
    workbench::register(m)?;
    Ok(())
}
