//! `sudoku_bulk._native`'s analyses: `canon`, `dedupe`, `overlap` and
//! `rate` of the Python package. Python hands over a `uint8` array of rows
//! of cells or a list of one-line strings (`sudoku_bulk/__init__.py` turns
//! every other input kind into one of the two); the rows are read with the
//! CLI's layout rules and analysed by the library's own per-record jobs
//! (`canon::CanonJob`, `rate::RateAnalysis`) through `batch::analyse_rows`
//! on a rayon pool with the GIL released, Ctrl-C stopping it between rows
//! (the pool and the wait are `lib.rs`'s). Dedupe and overlap compare the forms with
//! `batch::first_of_each` / `batch::first_matches`. No analysis logic
//! lives here: only reading, the parallel run and the conversion back.

use std::sync::atomic::{AtomicBool, Ordering};

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rayon::prelude::*;

use sudoku_bulk::batch;
use sudoku_bulk::canon::{CanonJob, Form};
use sudoku_bulk::rate::{self, RateAnalysis, Rater, Techniques};
use sudoku_bulk::record::{Analysis, Verdict};
use sudoku_bulk::solver::Boxes;
use sudoku_bulk::text::detect::{self, Forced};
use sudoku_bulk::text::{Layout, RecordError};

use crate::{interruptible, pool};

/// Rows read to tell the layout of strings (as the CLI reads a file's head).
const HEAD_ROWS: usize = 200;

/// A row that could not be read: its first cell holds this (no grid has
/// 255 symbols), so [`Guarded`] skips it without running the analysis.
pub(crate) const UNREAD: u8 = 0xFF;

/// Bad rows as `(index, reason)`, in row order.
pub(crate) type Bad = Vec<(usize, String)>;

/// The puzzles of one call, as handed over by Python, copied out of the
/// Python objects (under the GIL) so the work can run without it.
pub(crate) struct Puzzles {
    pub(crate) boxes: Boxes,
    pub(crate) rows: usize,
    pub(crate) source: Source,
    /// Rows Python already found bad (array values out of the grid's
    /// range, seen before the cast to `uint8`), with why.
    pre_bad: Vec<(usize, String)>,
}

// One per call: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Source {
    /// Rows of `boxes.cells()` cells, 0 blank.
    Cells(Vec<u8>),
    /// Strings packed end to end: row `i` is `data[ends[i]..ends[i + 1]]`
    /// unless `null[i]`. `layout` is `None` when no string is a puzzle.
    Text {
        data: Vec<u8>,
        ends: Vec<usize>,
        null: Vec<bool>,
        layout: Option<Layout>,
    },
}

impl Puzzles {
    /// Reads `puzzles`: a 2-D C-contiguous `uint8` array or a list of
    /// `str` (None allowed).
    pub(crate) fn read(
        puzzles: &Bound<'_, PyAny>,
        pre_bad: Vec<(usize, String)>,
    ) -> PyResult<Puzzles> {
        if let Ok(list) = puzzles.cast::<PyList>() {
            return Puzzles::from_list(list, pre_bad);
        }
        let a = puzzles.extract::<PyReadonlyArray2<u8>>().map_err(|_| {
            PyTypeError::new_err("expected a 2-D C-contiguous uint8 array or a list of str")
        })?;
        let (rows, n) = (a.shape()[0], a.shape()[1]);
        // Python's `_rows` checked the shape already; this keeps a bad
        // call from reaching the analyses.
        let side = n.isqrt();
        let boxes = (side * side == n)
            .then(|| Boxes::for_side(side))
            .flatten()
            .ok_or_else(|| PyValueError::new_err(format!("rows of {n} cells are no grid")))?;
        let cells = a
            .as_slice()
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .to_vec();
        Ok(Puzzles {
            boxes,
            rows,
            source: Source::Cells(cells),
            pre_bad,
        })
    }

    fn from_list(list: &Bound<'_, PyList>, pre_bad: Vec<(usize, String)>) -> PyResult<Puzzles> {
        let rows = list.len();
        let mut data = Vec::with_capacity(rows * 82);
        let mut ends = Vec::with_capacity(rows + 1);
        let mut null = Vec::with_capacity(rows);
        ends.push(0);
        for (i, item) in list.iter().enumerate() {
            null.push(item.is_none());
            if !item.is_none() {
                let s = item.cast::<PyString>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "puzzles[{i}] is {}, expected str or None",
                        item.get_type().name().map_or("?".into(), |n| n.to_string())
                    ))
                })?;
                match s.to_str() {
                    Ok(text) => data.extend_from_slice(text.as_bytes()),
                    // A lone surrogate has no UTF-8: U+FFFD in its place
                    // makes the row bad, not the call (as `solve` does).
                    Err(_) => data.extend_from_slice(s.to_string_lossy().as_bytes()),
                }
            }
            ends.push(data.len());
        }
        let value = |i: usize| (!null[i]).then(|| &data[ends[i]..ends[i + 1]]);
        let values = || (0..rows).filter_map(value);
        let forced = Forced::default();
        // The CLI's detection of values one puzzle each, on the head; all
        // rows when the head holds no puzzle (rare).
        let mut found = detect::detect_values(values().take(HEAD_ROWS), &forced);
        if found.is_err() && rows > HEAD_ROWS {
            found = detect::detect_values(values(), &forced);
        }
        let layout = found.ok().flatten();
        Ok(Puzzles {
            boxes: layout.as_ref().map_or(Boxes::NINE, |l| l.boxes),
            rows,
            source: Source::Text {
                data,
                ends,
                null,
                layout,
            },
            pre_bad,
        })
    }

    pub(crate) fn cells(&self) -> usize {
        self.boxes.cells()
    }

    /// Every row's cells, read in parallel on the current pool; a row that
    /// cannot be read gets [`UNREAD`] in its first cell and its reason.
    fn load(&self) -> (Vec<u8>, Vec<Option<String>>) {
        let n = self.cells();
        let side = self.boxes.side();
        let mut cells = vec![0u8; self.rows * n];
        let mut why: Vec<Option<String>> = vec![None; self.rows];
        cells
            .par_chunks_mut(n)
            .zip(why.par_iter_mut())
            .enumerate()
            .with_min_len(1024)
            .for_each(|(row, (out, why))| {
                let read = match &self.source {
                    Source::Cells(all) => {
                        out.copy_from_slice(&all[row * n..(row + 1) * n]);
                        match out.iter().position(|&v| v as usize > side) {
                            Some(k) => Err(format!(
                                "cell {}: value {} is not in 0..={side}",
                                k + 1,
                                out[k]
                            )),
                            None => Ok(()),
                        }
                    }
                    Source::Text {
                        data,
                        ends,
                        null,
                        layout,
                    } => {
                        let raw = &data[ends[row]..ends[row + 1]];
                        match layout {
                            _ if null[row] => Err("null: no puzzle".to_string()),
                            None => Err(detect::value_reason(raw, &Forced::default())),
                            Some(l) => l.parse_value(raw, out).map_err(|e| e.to_string()),
                        }
                    }
                };
                if let Err(e) = read {
                    out.fill(0);
                    out[0] = UNREAD;
                    *why = Some(e);
                }
            });
        for (row, reason) in &self.pre_bad {
            cells[row * n] = UNREAD;
            why[*row] = Some(reason.clone());
        }
        (cells, why)
    }

    /// Grid `grid` as a one-line string in the strings' own symbols and
    /// the symbols' usual blank, whatever the row used: a canonical form
    /// is one text per class, as the CLI writes it (`Text` input only).
    fn text_of(&self, grid: &[u8], buf: &mut Vec<u8>) -> String {
        let Source::Text {
            layout: Some(l), ..
        } = &self.source
        else {
            unreachable!("text_of is for string input");
        };
        buf.clear();
        l.write_cells(grid, l.usual_blank(), buf);
        // Symbols are ASCII.
        String::from_utf8_lossy(buf).into_owned()
    }

    pub(crate) fn is_text(&self) -> bool {
        matches!(self.source, Source::Text { .. })
    }
}

/// Runs the wrapped analysis unless the row was unread or the call was
/// interrupted (both bad rows; the caller names them).
struct Guarded<'a> {
    inner: &'a dyn Analysis,
    stop: &'a AtomicBool,
}

impl Analysis for Guarded<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn grid_column(&self) -> Option<&'static str> {
        self.inner.grid_column()
    }
    fn columns(&self) -> &[&'static str] {
        self.inner.columns()
    }
    fn keeps_puzzle(&self) -> bool {
        self.inner.keeps_puzzle()
    }
    fn side(&self) -> bool {
        self.inner.side()
    }
    fn analyse(
        &self,
        boxes: Boxes,
        cells: &[u8],
        grid: &mut [u8],
        fields: &mut Vec<String>,
    ) -> Result<(), RecordError> {
        if cells[0] == UNREAD || self.stop.load(Ordering::Relaxed) {
            return Err(RecordError::Unsupported(String::new()));
        }
        self.inner.analyse(boxes, cells, grid, fields)
    }
}

/// What an analysis gave for every row.
pub(crate) struct Analysed {
    /// The rows' cells as read (an unread row starts with [`UNREAD`]).
    pub(crate) cells: Vec<u8>,
    /// The output grids (zeros for bad rows).
    pub(crate) grids: Vec<u8>,
    /// The text fields of each row (empty for bad rows).
    pub(crate) fields: Vec<Vec<String>>,
    /// Per row: the reason it is bad.
    pub(crate) bad: Vec<Option<String>>,
}

impl Analysed {
    pub(crate) fn bad_list(&self) -> Bad {
        self.bad
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.clone().map(|b| (i, b)))
            .collect()
    }

    /// Row `row`'s key: its cells (`grid = false`) or its output grid, or
    /// None for a bad row.
    fn key(&self, row: usize, grid: bool, n: usize) -> Option<&[u8]> {
        let from = if grid { &self.grids } else { &self.cells };
        self.bad[row]
            .is_none()
            .then(|| &from[row * n..(row + 1) * n])
    }
}

/// Reads every row and runs `analysis` on it (none: only reads), on a
/// pool of `threads` with the GIL released; Ctrl-C raises
/// `KeyboardInterrupt` within a row.
pub(crate) fn analyse(
    py: Python<'_>,
    puzzles: &Puzzles,
    analysis: Option<&dyn Analysis>,
    threads: Option<usize>,
) -> PyResult<Analysed> {
    analyse_reporting(py, puzzles, analysis, threads, None)
}

/// A `progress(done, total)` callable and where this call's rows sit in
/// the whole (rows before them, rows in all), for calls that analyse more
/// than one set (`overlap`, `stats` with `against`).
pub(crate) type Progress<'a> = Option<(&'a Py<PyAny>, usize, usize)>;

/// Rows analysed between two `progress` calls: about 100 calls over a
/// set, each part big enough that the pool's start stays small beside it.
fn part_rows(rows: usize) -> usize {
    rows.div_ceil(100).max(4096)
}

/// [`analyse`], calling `progress` (see [`Progress`]) before the first
/// row and after each part of the rows, the GIL taken for the call only;
/// an exception it raises stops the work (the rows left are not
/// analysed) and is raised.
pub(crate) fn analyse_reporting(
    py: Python<'_>,
    puzzles: &Puzzles,
    analysis: Option<&dyn Analysis>,
    threads: Option<usize>,
    progress: Progress<'_>,
) -> PyResult<Analysed> {
    let pool = pool(threads)?;
    let stop = AtomicBool::new(false);
    let stop = &stop;
    let failed: std::sync::Mutex<Option<PyErr>> = std::sync::Mutex::new(None);
    let failed = &failed;
    let report = move |done: usize| {
        let Some((cb, before, total)) = progress else {
            return;
        };
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = Python::attach(|py| cb.call1(py, (before + done, total)).map(drop)) {
            stop.store(true, Ordering::Relaxed);
            *failed.lock().expect("not poisoned") = Some(e);
        }
    };
    let out = interruptible(py, &pool, stop, move || {
        let (cells, mut bad) = puzzles.load();
        let n = puzzles.cells();
        let Some(inner) = analysis else {
            // Reading is the whole work: the start and the end.
            report(0);
            report(puzzles.rows);
            return Analysed {
                cells,
                grids: Vec::new(),
                fields: Vec::new(),
                bad,
            };
        };
        let guarded = Guarded { inner, stop };
        let mut grids = vec![0u8; cells.len()];
        let mut fields = vec![Vec::new(); puzzles.rows];
        let outcomes = if progress.is_none() {
            batch::analyse_rows(puzzles.boxes, &guarded, &cells, &mut grids, &mut fields)
        } else {
            report(0);
            let part = part_rows(puzzles.rows);
            let mut all = Vec::with_capacity(puzzles.rows);
            for from in (0..puzzles.rows).step_by(part) {
                let to = (from + part).min(puzzles.rows);
                all.extend(batch::analyse_rows(
                    puzzles.boxes,
                    &guarded,
                    &cells[from * n..to * n],
                    &mut grids[from * n..to * n],
                    &mut fields[from..to],
                ));
                report(to);
            }
            all
        };
        for (row, o) in outcomes.into_iter().enumerate() {
            if let Verdict::Bad(e) = o.verdict {
                bad[row].get_or_insert_with(|| e.to_string());
            }
        }
        debug_assert_eq!(grids.len(), puzzles.rows * n);
        Analysed {
            cells,
            grids,
            fields,
            bad,
        }
    })?;
    let err = failed.lock().expect("not poisoned").take();
    match err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

pub(crate) fn form_of(form: &str) -> PyResult<Form> {
    match form {
        "string" => Ok(Form::String),
        "pattern" => Ok(Form::Pattern),
        other => Err(PyValueError::new_err(format!(
            "form must be \"string\" or \"pattern\", not {other:?}"
        ))),
    }
}

/// Canonical forms: `(forms, transforms, automorphisms, bad)`. `forms`
/// is a flat `uint8` array for array input (zeros for bad rows), else a
/// list of str in each string's own symbols and blank (None for bad
/// rows). With `transform`: a list of transform texts (None for bad
/// rows) and an `int64` array of automorphism counts (-1 for bad rows);
/// else both None.
#[pyfunction]
#[pyo3(signature = (puzzles, form="string", transform=false, threads=None, pre_bad=Vec::new()))]
#[allow(clippy::type_complexity)] // the tuple Python unpacks
fn canon_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    form: &str,
    transform: bool,
    threads: Option<usize>,
    pre_bad: Vec<(usize, String)>,
) -> PyResult<(
    Bound<'py, PyAny>,
    Option<Vec<Option<String>>>,
    Option<Bound<'py, PyArray1<i64>>>,
    Bad,
)> {
    let job = CanonJob {
        form: form_of(form)?,
        transform,
        blank: None,
    };
    let p = Puzzles::read(puzzles, pre_bad)?;
    let done = analyse(py, &p, Some(&job), threads)?;
    let n = p.cells();
    let forms = if p.is_text() {
        let mut buf = Vec::new();
        let list: Vec<Option<String>> = (0..p.rows)
            .map(|r| {
                done.bad[r]
                    .is_none()
                    .then(|| p.text_of(&done.grids[r * n..(r + 1) * n], &mut buf))
            })
            .collect();
        list.into_pyobject(py)?.into_any()
    } else {
        done.grids.clone().into_pyarray(py).into_any()
    };
    let (transforms, autos) = if transform {
        let t = done.fields.iter().map(|f| f.first().cloned()).collect();
        let a: Vec<i64> = done
            .fields
            .iter()
            .map(|f| f.get(1).and_then(|s| s.parse().ok()).unwrap_or(-1))
            .collect();
        (Some(t), Some(a.into_pyarray(py)))
    } else {
        (None, None)
    };
    Ok((forms, transforms, autos, done.bad_list()))
}

/// The class keys of `by`: `"exact"` compares the cells as read, `"iso"`
/// their canonical forms. Pattern form: it is a class invariant like the
/// string form, and the faster of the two (45.8k against 32.8k 17-clue
/// puzzles/s on one core, docs/canon.md).
fn keyed(
    py: Python<'_>,
    puzzles: &Puzzles,
    by: &str,
    threads: Option<usize>,
    progress: Progress<'_>,
) -> PyResult<(Analysed, bool)> {
    let iso = match by {
        "iso" => true,
        "exact" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "by must be \"iso\" or \"exact\", not {other:?}"
            )))
        }
    };
    let job = CanonJob {
        form: Form::Pattern,
        transform: false,
        blank: None,
    };
    let analysis = iso.then_some(&job as &dyn Analysis);
    Ok((
        analyse_reporting(py, puzzles, analysis, threads, progress)?,
        iso,
    ))
}

/// Dedupe: `(kept, bad)`, the indices of the first row of each class
/// (`int64`, ascending; a bad row is kept, a class of its own) and the bad
/// rows.
#[pyfunction]
#[pyo3(signature = (puzzles, by="iso", threads=None, pre_bad=Vec::new(), progress=None))]
fn dedupe_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    by: &str,
    threads: Option<usize>,
    pre_bad: Vec<(usize, String)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(Bound<'py, PyArray1<i64>>, Bad)> {
    let p = Puzzles::read(puzzles, pre_bad)?;
    let (done, iso) = keyed(
        py,
        &p,
        by,
        threads,
        progress.as_ref().map(|c| (c, 0, p.rows)),
    )?;
    let n = p.cells();
    let kept = batch::first_of_each((0..p.rows).map(|r| done.key(r, iso, n)));
    let kept: Vec<i64> = kept.into_iter().map(|i| i as i64).collect();
    Ok((kept.into_pyarray(py), done.bad_list()))
}

/// The pairs [`overlap_rows`] returns: test indices, their train matches,
/// whether each has an exact copy, and the bad rows of train and test.
type Pairs<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<bool>>,
    Bad,
    Bad,
);

/// Leakage of `test` into `train`: `(test_index, train_index, exact,
/// train_bad, test_bad)`: every test row with a match in train (by `by`),
/// ascending, the first train row of its class, and whether the test row
/// also has an exact copy (same cells) in train. Both must be the same
/// grid size.
#[pyfunction]
#[pyo3(signature = (train, test, by="iso", threads=None, train_bad=Vec::new(), test_bad=Vec::new(), progress=None))]
#[allow(clippy::too_many_arguments)] // the keywords Python passes
fn overlap_rows<'py>(
    py: Python<'py>,
    train: &Bound<'py, PyAny>,
    test: &Bound<'py, PyAny>,
    by: &str,
    threads: Option<usize>,
    train_bad: Vec<(usize, String)>,
    test_bad: Vec<(usize, String)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Pairs<'py>> {
    let a = Puzzles::read(train, train_bad)?;
    let b = Puzzles::read(test, test_bad)?;
    let all = a.rows + b.rows;
    let cb = progress.as_ref();
    let (a_done, iso) = keyed(py, &a, by, threads, cb.map(|c| (c, 0, all)))?;
    let (b_done, _) = keyed(py, &b, by, threads, cb.map(|c| (c, a.rows, all)))?;
    let (na, nb) = (a.cells(), b.cells());
    if na != nb && a.rows > 0 && b.rows > 0 {
        return Err(PyValueError::new_err(format!(
            "train holds {0}x{0} grids, test {1}x{1}: no puzzle of one can match one of the other",
            a.boxes.side(),
            b.boxes.side()
        )));
    }
    let matched = batch::first_matches(
        (0..a.rows).map(|r| a_done.key(r, iso, na)),
        (0..b.rows).map(|r| b_done.key(r, iso, nb)),
    );
    let copies = batch::first_matches(
        (0..a.rows).map(|r| a_done.key(r, false, na)),
        (0..b.rows).map(|r| b_done.key(r, false, nb)),
    );
    let (mut ti, mut tr, mut ex) = (Vec::new(), Vec::new(), Vec::new());
    for (row, m) in matched.iter().enumerate() {
        if let Some(t) = m {
            ti.push(row as i64);
            tr.push(*t as i64);
            ex.push(copies[row].is_some());
        }
    }
    Ok((
        ti.into_pyarray(py),
        tr.into_pyarray(py),
        ex.into_pyarray(py),
        a_done.bad_list(),
        b_done.bad_list(),
    ))
}

/// A grid that is not 9x9, as the Python package says it (the CLI reads
/// such a record as one of the wrong length).
fn not_nine(boxes: Boxes) -> RecordError {
    RecordError::Unsupported(format!(
        "ratings are for 9x9 puzzles, not {0}x{0}",
        boxes.side()
    ))
}

/// Ratings: `(values, steps, bad)`: `values` a flat `float64` array of
/// ER, EP, ED per row (NaN when unknown or bad), `steps` (with `steps`)
/// a list of `--steps` JSON texts (None for bad rows). `techniques`: a
/// comma-separated list of serate identifiers to rate with (None: all).
#[pyfunction]
#[pyo3(signature = (puzzles, steps=false, techniques=None, threads=None, pre_bad=Vec::new()))]
#[allow(clippy::type_complexity)] // the tuple Python unpacks
fn rate_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    steps: bool,
    techniques: Option<&str>,
    threads: Option<usize>,
    pre_bad: Vec<(usize, String)>,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Option<Vec<Option<String>>>, Bad)> {
    let techniques = match techniques {
        None => Techniques::all(),
        Some(list) => Techniques::parse(list).map_err(PyValueError::new_err)?,
    };
    // The CLI's analysis: `4.2` or empty per number, then `rate_status`,
    // the path as the side line after them (`batch::analyse_rows` leaves
    // it in the fields).
    let job = RateAnalysis {
        steps,
        not_nine,
        ..RateAnalysis::new(Rater::with_techniques(techniques))
    };
    let p = Puzzles::read(puzzles, pre_bad)?;
    let mut done = analyse(py, &p, Some(&job), threads)?;
    let mut values = Vec::with_capacity(3 * p.rows);
    for f in &done.fields {
        for k in 0..3 {
            // `4.2` parses to the double nearest the one-decimal number
            // serate prints; an empty field (unrated, and a bad row's
            // missing one) is NaN.
            let v = f.get(k).and_then(|s| s.parse::<f64>().ok());
            values.push(v.unwrap_or(f64::NAN));
        }
    }
    let paths = steps.then(|| done.fields.iter_mut().map(|f| f.pop()).collect());
    Ok((values.into_pyarray(py), paths, done.bad_list()))
}

/// The techniques the rater knows, in serate's order: `(id, name,
/// implemented)` for each.
#[pyfunction]
fn techniques() -> Vec<(&'static str, &'static str, bool)> {
    rate::Technique::ALL
        .iter()
        .map(|t| (t.id(), t.name(), t.implemented()))
        .collect()
}

/// Adds this file's functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(canon_rows, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_rows, m)?)?;
    m.add_function(wrap_pyfunction!(overlap_rows, m)?)?;
    m.add_function(wrap_pyfunction!(rate_rows, m)?)?;
    m.add_function(wrap_pyfunction!(techniques, m)?)?;
    Ok(())
}
