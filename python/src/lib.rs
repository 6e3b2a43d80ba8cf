//! `sudoku_bulk._native`: the Python package's bridge to the Rust library.
//! Python hands it whole arrays or columns (NumPy rows of cells, a list of
//! strings, the buffers of a pyarrow string array); it converts them to rows
//! of cells, runs `batch::for_each_row` + `record::answer` (the CLI's own
//! per-record rule) on a rayon pool with the GIL released, and converts the
//! results back. While the pool works, the calling thread wakes every 50 ms
//! to run Python's signal handlers, so Ctrl-C stops a call between rows
//! ([`interruptible`]). No solving logic lives here, and nothing runs per row in
//! Python. Argument checking and dispatch on the input kind are in
//! `python/sudoku_bulk/__init__.py`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use numpy::{
    Element, IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

mod analysis;

use sudoku_bulk::batch;
use sudoku_bulk::generate::{self, Level, Spec, Symmetry};
use sudoku_bulk::record::{self, Label, Outcome, Task, Verdict};
use sudoku_bulk::solver::Boxes;
use sudoku_bulk::text::detect::{self, Forced, ShapeName};
use sudoku_bulk::text::{Layout, RecordError, Shape, Symbols};

/// Cells of the per-row stack buffers (25x25); rows of bigger grids (up
/// to 64x64) use the heap (see [`scratch`]).
const STACK_CELLS: usize = 625;

/// `n` bytes for a row's cells: `stack` when they fit, else `heap` grown to
/// `n` (a 36x36 to 64x64 row takes far longer to solve than to allocate).
fn scratch<'a>(stack: &'a mut [u8; STACK_CELLS], heap: &'a mut Vec<u8>, n: usize) -> &'a mut [u8] {
    if n <= STACK_CELLS {
        &mut stack[..n]
    } else {
        heap.resize(n, 0);
        heap
    }
}

/// What to do with each row.
#[derive(Clone, Copy, Debug)]
enum Job {
    /// Solve; answers hold the solution.
    Solve { unique: bool },
    /// Count solutions up to `limit`; values hold the count.
    Count { limit: u32 },
    /// Count to 2 and keep the guesses (the CLI's `--stats`); values hold them.
    Grade,
    /// Check a given solution (the label rule: kept = valid).
    Check,
}

impl Job {
    fn task(self) -> Task {
        match self {
            Job::Solve { unique } => Task::Solve { unique },
            Job::Count { limit } => Task::Count { limit },
            Job::Grade => Task::Count { limit: 2 },
            Job::Check => Task::Solve { unique: false },
        }
    }
}

/// The results of one call, before conversion to Python objects.
struct Done {
    /// Answer cells, row after row (`Solve`; zeros for bad rows).
    answers: Vec<u8>,
    /// Per row: the count (`Count`), guesses (`Grade`), 1/0 (`Check`); -1 for
    /// a bad row.
    values: Vec<i64>,
    /// Bad rows in order, with the reason.
    bad: Vec<(usize, String)>,
}

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

/// Boxes of a row of `cells` cells (N*N for a side N from 4 to 64 that
/// boxes tile; rectangular sides get their usual boxes, 6 → 2x3).
fn box_of_cells(cells: usize) -> PyResult<Boxes> {
    let side = cells.isqrt();
    (side * side == cells)
        .then(|| Boxes::for_side(side))
        .flatten()
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "a row of {cells} cells is no grid size this package knows \
                 (N*N for N from 4 to 64, not prime: 16, 36, 81, 256, 625 ...)"
            ))
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

/// The boxes of rows of `cells` cells: `forced` (from `box=`) when given,
/// which must make grids of that many cells, else the usual boxes of the
/// size. `what` names the rows in the message ("rows", "strings").
fn boxes_of_rows(forced: Option<Boxes>, cells: usize, what: &str) -> PyResult<Boxes> {
    match forced {
        None => box_of_cells(cells),
        Some(b) if b.cells() == cells => Ok(b),
        Some(b) => {
            let side = cells.isqrt();
            let grid = if side * side == cells {
                format!(" ({side}x{side})")
            } else {
                String::new()
            };
            Err(PyValueError::new_err(format!(
                "box={b} asks for {n}x{n} grids ({} cells), the {what} hold {cells} cells{grid}",
                b.cells(),
                n = b.side(),
            )))
        }
    }
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

/// Fills a row's cells (0 blank, each `<= side`) or says why it cannot.
type LoadFn<'a> = dyn Fn(usize, &mut [u8]) -> Result<(), String> + Sync + 'a;

/// What [`run`] does, over how many rows of which grid.
#[derive(Clone, Copy)]
struct Plan<'a> {
    threads: Option<usize>,
    boxes: Boxes,
    rows: usize,
    job: Job,
    /// Write answers as this layout's one-line text instead of cells.
    text: Option<&'a Layout>,
}

thread_local! {
    /// A worker's buffer for one answer's text.
    static TEXT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `job` over `rows` rows with the GIL released. `load` fills a row's
/// cells (0 blank, each `<= side`) or says why it cannot; `load_label` does
/// the same for `Check`'s solutions. With `text`, the answers are written as
/// that layout's one-line text (bad rows stay zero bytes).
fn run(
    py: Python<'_>,
    plan: Plan<'_>,
    load: &LoadFn<'_>,
    load_label: Option<&LoadFn<'_>>,
) -> PyResult<Done> {
    let Plan {
        threads,
        boxes,
        rows,
        job,
        text,
    } = plan;
    let side = boxes.side();
    let n = side * side;
    let pool = pool(threads)?;
    let task = job.task();
    let stop = AtomicBool::new(false);
    let stop = &stop;
    let mut answers = vec![0u8; rows * n];
    let answers_ref = &mut answers;
    let (outcomes, unread) = interruptible(py, &pool, stop, move || {
        // Rows that never reach the solver (unreadable cells), with why; rare,
        // so a lock is cheaper than a second pass.
        let unread: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
        let not_read = |row: usize, why: String| {
            unread
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((row, why));
            Outcome {
                verdict: Verdict::Bad(RecordError::NoSolution),
                guesses: 0,
            }
        };
        let outcomes = batch::for_each_row(n, answers_ref, |row, answer| {
            if stop.load(Ordering::Relaxed) {
                // Interrupted: the call raises, this row is never seen.
                return Outcome {
                    verdict: Verdict::Answered(0),
                    guesses: 0,
                };
            }
            let (mut buf, mut heap) = ([0u8; STACK_CELLS], Vec::new());
            let cells = scratch(&mut buf, &mut heap, n);
            if let Err(why) = load(row, cells) {
                return not_read(row, why);
            }
            let (mut lbuf, mut lheap) = ([0u8; STACK_CELLS], Vec::new());
            let lcells = scratch(&mut lbuf, &mut lheap, n);
            let label = match load_label {
                None => Label::Absent,
                Some(f) => match f(row, lcells) {
                    Ok(()) => Label::Cells(lcells),
                    Err(why) => Label::Unreadable(why),
                },
            };
            let Some(layout) = text else {
                return record::answer(boxes, task, label, false, cells, answer);
            };
            // Text answers are written here, on the workers: one symbol
            // per cell, so a row's text fits its `n`-byte slot.
            let (mut obuf, mut oheap) = ([0u8; STACK_CELLS], Vec::new());
            let cells_out = scratch(&mut obuf, &mut oheap, n);
            let o = record::answer(boxes, task, label, false, cells, cells_out);
            if o.is_good() {
                TEXT.with_borrow_mut(|t| {
                    t.clear();
                    // The one-line writer (vectorised for digits; the
                    // per-cell `write_cells` cost 2% of a 17-clue solve,
                    // perf), then its newline dropped.
                    layout.write_answer(b"", cells_out, t);
                    answer.copy_from_slice(&t[..n]);
                });
            }
            o
        });
        (
            outcomes,
            unread.into_inner().unwrap_or_else(|e| e.into_inner()),
        )
    })?;
    let mut unread = unread;
    unread.sort_unstable_by_key(|&(row, _)| row);
    let mut unread = unread.into_iter().peekable();
    let mut values = Vec::with_capacity(rows);
    let mut bad = Vec::new();
    for (row, o) in outcomes.into_iter().enumerate() {
        let value = match (&o.verdict, job) {
            // A wrong or unreadable solution is `check`'s answer (false),
            // not a bad row: only puzzles that cannot be checked are.
            (Verdict::Bad(RecordError::WrongLabel(_)), Job::Check) => -1,
            (Verdict::Bad(err), _) => {
                let why = match unread.peek() {
                    Some((r, _)) if *r == row => unread.next().map(|(_, w)| w),
                    _ => None,
                };
                bad.push((row, why.unwrap_or_else(|| err.to_string())));
                -1
            }
            (Verdict::Answered(0), Job::Grade) => {
                bad.push((row, "no solution".to_string()));
                -1
            }
            (Verdict::Answered(_), Job::Grade) => o.guesses as i64,
            (Verdict::Answered(c), _) => i64::from(*c),
            (Verdict::Kept, _) => 1,
        };
        values.push(value);
    }
    if !matches!(job, Job::Solve { .. }) {
        answers = Vec::new();
    }
    Ok(Done {
        answers,
        values,
        bad,
    })
}

/// A NumPy integer type cells may come in.
trait CellValue: Element + Copy + Send + Sync + std::fmt::Display {
    /// The value, saturated into `i64` (u64 beyond `i64::MAX` is out of
    /// range anyway).
    fn value(self) -> i64;
}

macro_rules! cell_value {
    ($($t:ty),*) => {$(
        impl CellValue for $t {
            #[inline]
            fn value(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
        }
    )*};
}
cell_value!(i8, i16, i32, i64, u16, u32, u64);

/// Loads row `row` of `data` (rows of `n` cells) into `cells`, checking each
/// value is in `0..=side`.
#[inline]
fn load_typed<T: CellValue>(
    data: &[T],
    n: usize,
    side: usize,
    row: usize,
    cells: &mut [u8],
) -> Result<(), String> {
    for (k, (c, &v)) in cells
        .iter_mut()
        .zip(&data[row * n..(row + 1) * n])
        .enumerate()
    {
        let value = v.value();
        if !(0..=side as i64).contains(&value) {
            // The array's own value (a u64 past i64::MAX is not that).
            return Err(format!("cell {}: value {v} is not in 0..={side}", k + 1));
        }
        *c = value as u8;
    }
    Ok(())
}

/// The u8 row: the array's own bytes are the cells, copied, then the copy
/// range-checked: another Python thread may write the array while the GIL
/// is released, and a check of the source could pass a value the copy
/// then reads changed (a cell past the side reached the solver, a panic).
#[inline]
fn load_u8(data: &[u8], n: usize, side: usize, row: usize, cells: &mut [u8]) -> Result<(), String> {
    cells.copy_from_slice(&data[row * n..(row + 1) * n]);
    if let Some(k) = cells.iter().position(|&v| v as usize > side) {
        return Err(format!(
            "cell {}: value {} is not in 0..={side}",
            k + 1,
            cells[k]
        ));
    }
    Ok(())
}

/// Runs `job` over a 2-D C-contiguous integer array (rows of cells), read in
/// place: `PyReadonlyArray2::as_slice` borrows NumPy's buffer, no copy.
fn run_array(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    solutions: Option<&Bound<'_, PyAny>>,
    job: Job,
    threads: Option<usize>,
    forced: Option<Boxes>,
) -> PyResult<Done> {
    macro_rules! with_slice {
        ($arr:expr, |$s:ident, $rows:ident, $n:ident| $body:expr, $($t:ty),*) => {{
            let arr = $arr;
            if let Ok(a) = arr.extract::<PyReadonlyArray2<u8>>() {
                let ($rows, $n) = (a.shape()[0], a.shape()[1]);
                let $s = a.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
                let $s = Rows::U8($s);
                $body
            }
            $(else if let Ok(a) = arr.extract::<PyReadonlyArray2<$t>>() {
                let ($rows, $n) = (a.shape()[0], a.shape()[1]);
                let $s = a.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
                let $s = Rows::from($s);
                $body
            })*
            else {
                return Err(PyTypeError::new_err(
                    "expected a 2-D C-contiguous integer array (u8/i8/i16/i32/i64/u16/u32/u64)",
                ));
            }
        }};
    }
    with_slice!(
        puzzles,
        |p, rows, n| {
            let boxes = boxes_of_rows(forced, n, "rows")?;
            let side = boxes.side();
            let load = |row: usize, cells: &mut [u8]| p.load(n, side, row, cells);
            let plan = Plan {
                threads,
                boxes,
                rows,
                job,
                text: None,
            };
            match solutions {
                None => run(py, plan, &load, None),
                Some(sol) => with_slice!(
                    sol,
                    |s, srows, sn| {
                        if (srows, sn) != (rows, n) {
                            return Err(PyValueError::new_err(format!(
                                "solutions have shape ({srows}, {sn}), puzzles ({rows}, {n})"
                            )));
                        }
                        // A solution value outside 0..=side makes the label
                        // unreadable: the row checks false.
                        let load_sol = |row: usize, cells: &mut [u8]| s.load(n, side, row, cells);
                        run(py, plan, &load, Some(&load_sol))
                    },
                    i8,
                    i16,
                    i32,
                    i64,
                    u16,
                    u32,
                    u64
                ),
            }
        },
        i8,
        i16,
        i32,
        i64,
        u16,
        u32,
        u64
    )
}

/// A borrowed array's cells, by element type.
#[derive(Clone, Copy)]
enum Rows<'a> {
    U8(&'a [u8]),
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
}

macro_rules! rows_from {
    ($($t:ty => $v:ident),*) => {$(
        impl<'a> From<&'a [$t]> for Rows<'a> {
            fn from(s: &'a [$t]) -> Rows<'a> {
                Rows::$v(s)
            }
        }
    )*};
}
rows_from!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u16 => U16, u32 => U32, u64 => U64);

impl Rows<'_> {
    #[inline]
    fn load(self, n: usize, side: usize, row: usize, cells: &mut [u8]) -> Result<(), String> {
        match self {
            Rows::U8(s) => load_u8(s, n, side, row, cells),
            Rows::I8(s) => load_typed(s, n, side, row, cells),
            Rows::I16(s) => load_typed(s, n, side, row, cells),
            Rows::I32(s) => load_typed(s, n, side, row, cells),
            Rows::I64(s) => load_typed(s, n, side, row, cells),
            Rows::U16(s) => load_typed(s, n, side, row, cells),
            Rows::U32(s) => load_typed(s, n, side, row, cells),
            Rows::U64(s) => load_typed(s, n, side, row, cells),
        }
    }
}

/// Bad rows as `(index, reason)`, in row order.
type Bad = Vec<(usize, String)>;

/// What a `run_*` function returns to Python: the answers in the input's
/// kind (None unless solving), int64 values per row, the bad rows.
type Returned<'py, A> = (Option<A>, Bound<'py, PyArray1<i64>>, Bad);

/// Answers as a flat u8 array (moved into NumPy, not copied).
type Result3<'py> = Returned<'py, Bound<'py, PyArray1<u8>>>;

/// Converts a [`Done`] for Python (see [`Returned`]).
fn to_python(py: Python<'_>, done: Done, with_answers: bool) -> Result3<'_> {
    let answers = with_answers.then(|| done.answers.into_pyarray(py));
    (answers, done.values.into_pyarray(py), done.bad)
}

fn job_of(kind: &str, unique: bool, limit: u32) -> PyResult<Job> {
    Ok(match kind {
        "solve" => Job::Solve { unique },
        "count" if limit == 0 => return Err(PyValueError::new_err("limit must be at least 1")),
        "count" => Job::Count { limit },
        "grade" => Job::Grade,
        "check" => Job::Check,
        _ => return Err(PyValueError::new_err(format!("unknown job {kind:?}"))),
    })
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
) -> PyResult<Result3<'py>> {
    let job = job_of(kind, unique, limit)?;
    let forced = box_arg(r#box)?;
    if matches!(job, Job::Check) != solutions.is_some() {
        return Err(PyValueError::new_err(
            "solutions go with kind=\"check\" only",
        ));
    }
    let done = run_array(py, puzzles, solutions, job, threads, forced)?;
    Ok(to_python(py, done, matches!(job, Job::Solve { .. })))
}

/// Strings packed end to end: row `i` is `data[start(i)..end(i)]` unless
/// null.
struct Packed<'a> {
    data: &'a [u8],
    offsets: Offsets<'a>,
    /// Arrow validity bitmap (bit `base + i`), if any.
    validity: Option<&'a [u8]>,
    /// Arrow slice offset (`array.offset`).
    base: usize,
    rows: usize,
}

enum Offsets<'a> {
    /// Arrow `string` (int32 offsets, little-endian bytes).
    I32(&'a [u8]),
    /// Arrow `large_string`.
    I64(&'a [u8]),
    /// A packed Python list ([`pack_list`]).
    List(&'a [usize]),
}

impl<'a> Packed<'a> {
    /// The strings of a list [`pack_list`] packed.
    fn of_list((data, offsets, validity, nulls): &'a PackedList) -> Packed<'a> {
        Packed {
            data,
            offsets: Offsets::List(offsets),
            validity: (*nulls > 0).then_some(&validity[..]),
            base: 0,
            rows: offsets.len() - 1,
        }
    }

    /// Row `i`'s bytes, `None` when null.
    fn get(&self, i: usize) -> Option<&[u8]> {
        let k = self.base + i;
        if let Some(v) = self.validity {
            if v[k / 8] >> (k % 8) & 1 == 0 {
                return None;
            }
        }
        let (a, b) = match &self.offsets {
            Offsets::List(o) => (o[k], o[k + 1]),
            Offsets::I32(o) => {
                let at = |j: usize| {
                    i32::from_le_bytes(o[4 * j..4 * j + 4].try_into().expect("4 bytes")) as usize
                };
                (at(k), at(k + 1))
            }
            Offsets::I64(o) => {
                let at = |j: usize| {
                    i64::from_le_bytes(o[8 * j..8 * j + 8].try_into().expect("8 bytes")) as usize
                };
                (at(k), at(k + 1))
            }
        };
        self.data.get(a..b)
    }

    /// Checks the offsets cover `rows` rows and stay inside `data`, so
    /// [`get`](Self::get) cannot go out of bounds.
    fn validate(&self) -> PyResult<()> {
        let need = self.base + self.rows + 1;
        let have = match &self.offsets {
            Offsets::List(o) => o.len(),
            Offsets::I32(o) => o.len() / 4,
            Offsets::I64(o) => o.len() / 8,
        };
        if have < need {
            return Err(PyValueError::new_err(format!(
                "offsets buffer holds {have} entries, {need} needed"
            )));
        }
        if let Some(v) = self.validity {
            if v.len() * 8 < self.base + self.rows {
                return Err(PyValueError::new_err("validity bitmap too short"));
            }
        }
        Ok(())
    }

    /// The layout of the strings: the CLI's detection of values one puzzle
    /// each ([`detect::detect_values`]) on the first 200 non-null rows, so a
    /// bad row among them is only that row's problem. With `boxes`
    /// (`box=`), only strings of its size vote; when none has it and the
    /// others make a grid, `ValueError` names both. `None` when no row is a
    /// puzzle.
    fn layout(&self, forced: &Forced, boxes: Option<Boxes>) -> PyResult<Option<Layout>> {
        let values = || (0..self.rows).filter_map(|i| self.get(i));
        let detect = |f: &Forced| {
            let found = detect::detect_values(values().take(HEAD_ROWS), f);
            if found.is_err() && self.rows > HEAD_ROWS {
                // The head holds no puzzle; a later row may (rare: read
                // them all).
                return detect::detect_values(values(), f);
            }
            found
        };
        // With box=, only strings of its size vote, as with the CLI's
        // --box: the others are bad rows.
        let with_box = Forced {
            boxes,
            ..forced.clone()
        };
        Ok(Some(match detect(&with_box) {
            Ok(Some(l)) => l,
            Ok(None) => {
                let b = boxes.unwrap_or(Boxes::NINE);
                Layout::one_line_in(b, forced.symbols)
            }
            Err(_) => {
                if let (Some(b), Ok(Some(l))) = (boxes, detect(forced)) {
                    // No string of the box's size, all of another: the
                    // box is the mistake, named as such.
                    boxes_of_rows(Some(b), l.cells(), "strings")?;
                }
                // None is a puzzle, but the other chunks of the array said
                // how they read: rows of this one are read so too.
                let side = boxes.or(forced.side.and_then(Boxes::for_side));
                match (side, forced.symbols) {
                    (Some(b), Some(s)) => Layout::new(Shape::Line, b, s),
                    (Some(b), None) if forced.shape == Some(ShapeName::Numbers) => {
                        Layout::new(Shape::Numbers(b' '), b, Symbols::Numbers)
                    }
                    _ => return Ok(None),
                }
            }
        }))
    }
}

/// `format=` names, the CLI's `--format` symbol names and `numbers`, both
/// ways: read by [`forced_format`], given back by [`format_of`].
const FORMATS: [(&str, Symbols); 5] = [
    ("digits", Symbols::Digits),
    ("letters", Symbols::Letters),
    ("hex0", Symbols::Hex0),
    ("hex1", Symbols::Hex1),
    ("numbers", Symbols::Numbers),
];

/// Rows read to tell the layout of strings, as the CLI reads a file's head.
const HEAD_ROWS: usize = 200;

/// The `format=` argument: the symbols of the strings (`"digits"`,
/// `"letters"`, `"hex0"`, `"hex1"`, as the CLI's `--format`) or
/// `"numbers"` (a line of space-separated numbers); `None` detects them.
/// `side`: the grid side other chunks of the same array were read with.
fn forced_format(format: Option<&str>, side: Option<usize>) -> PyResult<Forced> {
    let found = match format {
        None => None,
        Some(name) => match FORMATS.iter().find(|&&(n, _)| n == name) {
            Some(&(_, symbols)) => Some(symbols),
            None => {
                return Err(PyValueError::new_err(format!(
                    "format={name:?}: expected \"digits\" (1-9), \"letters\" (A, B, ...), \
                     \"hex0\" (0-9 then A-Z), \"hex1\" (1-9 then A-Z) or \"numbers\" \
                     (space-separated), or None to detect it"
                )))
            }
        },
    };
    // Numbers are a shape of their own (one line of them), not symbols.
    let (shape, symbols) = match found {
        Some(Symbols::Numbers) => (Some(ShapeName::Numbers), None),
        s => (None, s),
    };
    Ok(Forced {
        shape,
        symbols,
        side,
        ..Forced::default()
    })
}

/// The text of a solved row: the workers wrote one-line symbols in place
/// (`answer`); a numbers layout (sides past 36, or `format="numbers"`) has
/// no symbol per cell, so `answer` holds cells and its numbers are
/// written here.
fn answer_text<'a>(layout: &Layout, answer: &'a [u8], buf: &'a mut Vec<u8>) -> &'a [u8] {
    if layout.shape == Shape::Line {
        return answer;
    }
    buf.clear();
    layout.write_answer(b"", answer, buf);
    buf.pop();
    buf
}

/// Runs `job` over packed strings, parsed with the CLI's layout rules.
fn run_packed(
    py: Python<'_>,
    p: &Packed<'_>,
    sol: Option<&Packed<'_>>,
    job: Job,
    threads: Option<usize>,
    forced: Option<Boxes>,
    format: &Forced,
) -> PyResult<(Done, Layout)> {
    p.validate()?;
    if let Some(s) = sol {
        s.validate()?;
        if s.rows != p.rows {
            return Err(PyValueError::new_err(format!(
                "{} solutions for {} puzzles",
                s.rows, p.rows
            )));
        }
    }
    let found = p.layout(format, forced)?;
    // No row is a puzzle: each says why, in its own words.
    let known = found.is_some();
    let why = Forced {
        boxes: forced,
        ..format.clone()
    };
    let layout = found.unwrap_or_else(|| Layout::one_line(forced.unwrap_or(Boxes::NINE)));
    let parse = |src: &Packed<'_>, row: usize, cells: &mut [u8]| -> Result<(), String> {
        let raw = src.get(row).ok_or_else(|| "null: no puzzle".to_string())?;
        if !known {
            return Err(detect::value_reason(raw, &why));
        }
        layout.parse_value(raw, cells).map_err(|e| e.to_string())
    };
    let load = |row: usize, cells: &mut [u8]| parse(p, row, cells);
    let load_sol = |row: usize, cells: &mut [u8]| parse(sol.expect("checked"), row, cells);
    let plan = Plan {
        threads,
        boxes: layout.boxes,
        rows: p.rows,
        job,
        text: (matches!(job, Job::Solve { .. }) && layout.shape == Shape::Line).then_some(&layout),
    };
    let done = run(py, plan, &load, sol.map(|_| &load_sol as &LoadFn<'_>))?;
    Ok((done, layout))
}

/// Packs a sequence of `str` (or None) into one buffer, under the GIL (the
/// only per-row step, and it is a pointer read and a copy of the UTF-8).
/// A Python list packed for [`Packed`]: bytes, offsets, validity bitmap,
/// null count.
type PackedList = (Vec<u8>, Vec<usize>, Vec<u8>, usize);

fn pack_list(seq: &Bound<'_, PyAny>) -> PyResult<PackedList> {
    let list = seq
        .cast::<PyList>()
        .map_err(|_| PyTypeError::new_err("expected a list of str"))?;
    let rows = list.len();
    let mut data = Vec::with_capacity(rows * 82);
    let mut offsets = Vec::with_capacity(rows + 1);
    let mut validity = vec![0u8; rows.div_ceil(8)];
    let mut nulls = 0;
    offsets.push(0);
    for (i, item) in list.iter().enumerate() {
        if item.is_none() {
            nulls += 1;
        } else {
            let s = item.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "puzzles[{i}] is {}, expected str or None",
                    item.get_type().name().map_or("?".into(), |n| n.to_string())
                ))
            })?;
            match s.to_str() {
                Ok(text) => data.extend_from_slice(text.as_bytes()),
                // A lone surrogate (text decoded with surrogateescape) has
                // no UTF-8: U+FFFD in its place makes the row bad, not the
                // call.
                Err(_) => data.extend_from_slice(s.to_string_lossy().as_bytes()),
            }
            validity[i / 8] |= 1 << (i % 8);
        }
        offsets.push(data.len());
    }
    Ok((data, offsets, validity, nulls))
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
    let forced = box_arg(r#box)?;
    let format = forced_format(format, None)?;
    let packed = pack_list(puzzles)?;
    let p = Packed::of_list(&packed);
    let sol_packed = solutions.map(pack_list).transpose()?;
    let sol = sol_packed.as_ref().map(Packed::of_list);
    let (done, layout) = run_packed(py, &p, sol.as_ref(), job, threads, forced, &format)?;
    let strings = if matches!(job, Job::Solve { .. }) {
        let n = layout.cells();
        let mut bad = done.bad.iter().map(|&(r, _)| r).peekable();
        let mut buf = Vec::new();
        let items = done.answers.chunks(n).enumerate().map(|(row, answer)| {
            if bad.peek() == Some(&row) {
                bad.next();
                return None;
            }
            let text = answer_text(&layout, answer, &mut buf);
            // Symbols are ASCII, so the bytes are valid UTF-8.
            let s = std::str::from_utf8(text).expect("ASCII symbols");
            Some(PyString::new(py, s))
        });
        Some(PyList::new(py, items)?)
    } else {
        None
    };
    Ok((strings, done.values.into_pyarray(py), done.bad))
}

fn slice<'a>(a: &'a PyReadonlyArray1<'_, u8>) -> PyResult<&'a [u8]> {
    a.as_slice()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn packed<'a>(
    validity: Option<&'a [u8]>,
    offsets: &'a [u8],
    data: &'a [u8],
    base: usize,
    rows: usize,
    large: bool,
) -> Packed<'a> {
    Packed {
        data,
        offsets: if large {
            Offsets::I64(offsets)
        } else {
            Offsets::I32(offsets)
        },
        validity,
        base,
        rows,
    }
}

/// Arrow result buffers: `(validity bitmap or None, offsets, data)` as NumPy
/// arrays, for `pa.Array.from_buffers`.
type ArrowOut<'py> = (
    Option<Bound<'py, PyArray1<u8>>>,
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<u8>>,
);

/// A pyarrow string array as `sudoku_bulk._arrow_parts` hands it over:
/// `(validity, offsets, data, offset, length, large)`.
type ArrowParts<'py> = (
    Option<PyReadonlyArray1<'py, u8>>,
    PyReadonlyArray1<'py, u8>,
    PyReadonlyArray1<'py, u8>,
    usize,
    usize,
    bool,
);

/// Solves/counts/grades/checks a pyarrow `string` / `large_string` array
/// given by its buffers (as uint8 NumPy views of `array.buffers()`), its
/// slice `offset` and length. For `kind="solve"` the answers come back as
/// buffers of a new array of the same type (offsets of the same width),
/// bad rows null; else None.
#[pyfunction]
#[pyo3(signature = (validity, offsets, data, offset, length, large, kind, *, solutions=None, unique=false, limit=2, threads=None, r#box=None, format=None, side=None))]
#[allow(clippy::too_many_arguments)]
fn run_arrow<'py>(
    py: Python<'py>,
    validity: Option<PyReadonlyArray1<'py, u8>>,
    offsets: PyReadonlyArray1<'py, u8>,
    data: PyReadonlyArray1<'py, u8>,
    offset: usize,
    length: usize,
    large: bool,
    kind: &str,
    solutions: Option<ArrowParts<'py>>,
    unique: bool,
    limit: u32,
    threads: Option<usize>,
    r#box: Option<&Bound<'py, PyAny>>,
    format: Option<&str>,
    side: Option<usize>,
) -> PyResult<Returned<'py, ArrowOut<'py>>> {
    let job = job_of(kind, unique, limit)?;
    let forced = box_arg(r#box)?;
    let format = forced_format(format, side)?;
    let validity_s = validity.as_ref().map(slice).transpose()?;
    let p = packed(
        validity_s,
        slice(&offsets)?,
        slice(&data)?,
        offset,
        length,
        large,
    );
    let sol_slices = match &solutions {
        Some((v, o, d, base, rows, large)) => Some((
            v.as_ref().map(slice).transpose()?,
            slice(o)?,
            slice(d)?,
            *base,
            *rows,
            *large,
        )),
        None => None,
    };
    let sol = sol_slices.map(|(v, o, d, base, rows, large)| packed(v, o, d, base, rows, large));
    let (done, layout) = run_packed(py, &p, sol.as_ref(), job, threads, forced, &format)?;
    let out = if matches!(job, Job::Solve { .. }) {
        let n = layout.cells();
        let mut bitmap = vec![0xFFu8; length.div_ceil(8)];
        let (text, ends) = if done.bad.is_empty() && layout.shape == Shape::Line {
            // Every row answered: the workers' text is the data buffer.
            (
                done.answers,
                (0..=length).map(|i| i * n).collect::<Vec<_>>(),
            )
        } else {
            let mut text = Vec::with_capacity((length - done.bad.len()) * n);
            let mut ends: Vec<usize> = Vec::with_capacity(length + 1);
            ends.push(0);
            let mut bad = done.bad.iter().map(|&(r, _)| r).peekable();
            let mut buf = Vec::new();
            for (row, answer) in done.answers.chunks(n).enumerate() {
                if bad.peek() == Some(&row) {
                    bad.next();
                    bitmap[row / 8] &= !(1 << (row % 8));
                } else {
                    text.extend_from_slice(answer_text(&layout, answer, &mut buf));
                }
                ends.push(text.len());
            }
            (text, ends)
        };
        let offsets: Bound<'py, PyAny> = if large {
            let v: Vec<i64> = ends.iter().map(|&e| e as i64).collect();
            v.into_pyarray(py).into_any()
        } else {
            // One-line answers are no longer than the puzzles they replace
            // (a good row held at least `n` bytes); numbers can be (a `0`
            // blank becomes `12`), hence the check.
            let v: Vec<i32> = ends
                .iter()
                .map(|&e| i32::try_from(e))
                .collect::<Result<_, _>>()
                .map_err(|_| PyValueError::new_err("answers exceed 2 GiB: use large_string"))?;
            v.into_pyarray(py).into_any()
        };
        let validity = (!done.bad.is_empty()).then(|| bitmap.into_pyarray(py));
        Some((validity, offsets, text.into_pyarray(py)))
    } else {
        None
    };
    Ok((out, done.values.into_pyarray(py), done.bad))
}

/// Generates `n` puzzles exactly as `sudoku-bulk generate -n N --seed S`
/// does (same library code, so the same bytes whatever the threads).
/// `size` and `box` fix the grid as `--size` and `--box` do (see
/// [`box_shape`]). Returns `(cells, guesses, off_target)`: a flat uint8
/// array of `n` rows, an int64 array of the guesses each needs, and how
/// many missed the clue count or level asked for. Ctrl-C stops it between
/// batches (see [`interruptible`]).
#[pyfunction]
#[pyo3(signature = (n, size, seed, clues=None, level=None, symmetry="none", threads=None, *, r#box=None))]
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
    let pool = pool(threads)?;
    let workers = pool.current_num_threads() as u64;
    let stop = AtomicBool::new(false);
    let stop = &stop;
    let (cells, guesses, off_target) = interruptible(py, &pool, stop, move || {
        let mut run = generate::Run::new(spec, seed);
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
            for p in run.take_until(end) {
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
        (cells, guesses, off_target)
    })?;
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

/// The `format=` name and grid side of the layout `detect_values` reads
/// from `head` (one puzzle a string, None allowed), or None when no string
/// is a puzzle: chunks of one array are then all read alike.
#[pyfunction]
#[pyo3(signature = (head, *, r#box=None, format=None))]
fn format_of(
    head: &Bound<'_, PyAny>,
    r#box: Option<&Bound<'_, PyAny>>,
    format: Option<&str>,
) -> PyResult<Option<(&'static str, usize)>> {
    let boxes = box_arg(r#box)?;
    let packed = pack_list(head)?;
    let p = Packed::of_list(&packed);
    let forced = forced_format(format, None)?;
    let found = detect::detect_values((0..p.rows).filter_map(|i| p.get(i)), &forced);
    Ok(match found {
        Ok(Some(l)) if boxes.is_none_or(|b| b.cells() == l.cells()) => FORMATS
            .iter()
            .find(|&&(_, s)| s == l.symbols)
            .map(|&(name, _)| (name, l.boxes.side())),
        _ => None,
    })
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
    m.add_function(wrap_pyfunction!(run_cells, m)?)?;
    m.add_function(wrap_pyfunction!(run_strings, m)?)?;
    m.add_function(wrap_pyfunction!(run_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(generate_cells, m)?)?;
    m.add_function(wrap_pyfunction!(cells_to_strings, m)?)?;
    m.add_function(wrap_pyfunction!(level_names, m)?)?;
    m.add_function(wrap_pyfunction!(format_of, m)?)?;
    m.add_function(wrap_pyfunction!(box_shape, m)?)?;
    m.add_function(wrap_pyfunction!(slow_minimal_note, m)?)?;
    analysis::register(m)?;
    Ok(())
}
