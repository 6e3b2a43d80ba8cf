//! Batch: many puzzles held as rows (NumPy arrays, Parquet and Arrow
//! columns, the Python package's inputs) solved in parallel on the current
//! rayon pool, each through [`record::answer`], results in row order. Text
//! records of a file go through `pipeline` instead, which cuts them out of
//! bytes first.
//!
//! The second half is the row engine of the Python package (and of any
//! caller holding rows in memory): [`run_cells`] over fixed-size rows of
//! integer cells, [`run_texts`] over one-line text values ([`Values`]: a
//! packed list of strings, Arrow string columns), with the jobs the package
//! offers ([`Job`]), the label rule of [`record`], the CLI's layout
//! detection for values and its `--format` names ([`value_format`]). A
//! binding only converts its objects to these inputs and the [`Done`]
//! results back.
//!
//! ```text
//! rows of cells ([`Cells`]) ──> run_cells ─┐
//! text values   ([`Values`]) ─> run_texts ─┴─> Done { answers | texts, values, bad }
//! ```

use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::solver::Boxes;
use rayon::prelude::*;

use crate::record::{self, Label, Outcome, RecordError, Task, Verdict};
use crate::text::detect::{self, Forced, ShapeName};
use crate::text::{Layout, Shape, Symbols};

/// The most worker threads worth starting here (4 per core): the CLI lowers
/// `-j` to it, the Python binding its `threads=`.
pub use crate::pipeline::max_threads;

/// Rows handed to a worker at a time: enough to make the split cost vanish
/// next to a 9x9 solve (about 2 µs), small enough to balance hard rows.
const MIN_ROWS_PER_JOB: usize = 256;

/// Runs `f(row, answer)` for every row of `answers` (rows of
/// `cells_per_row` cells) in parallel on the current rayon pool (call it
/// inside `pool.install` to pick the threads), and returns the outcomes in
/// row order. `f` writes the row's answer cells.
pub fn for_each_row<F>(cells_per_row: usize, answers: &mut [u8], f: F) -> Vec<Outcome>
where
    F: Fn(usize, &mut [u8]) -> Outcome + Sync,
{
    assert!(cells_per_row > 0 && answers.len().is_multiple_of(cells_per_row));
    answers
        .par_chunks_mut(cells_per_row)
        .with_min_len(MIN_ROWS_PER_JOB)
        .enumerate()
        .map(|(row, answer)| f(row, answer))
        .collect()
}

/// Solves (or counts) every row of `puzzles` (cells, `0` blank, boxes
/// `boxes`) with the label rule: `labels` gives each row's existing
/// solution (`None`: all absent). Rows answered or kept get their solution in
/// `answers`; bad rows are all zeros.
pub fn solve_rows(
    boxes: Boxes,
    task: Task,
    puzzles: &[u8],
    labels: Option<&[Label<'_>]>,
    overwrite: bool,
    answers: &mut [u8],
) -> Vec<Outcome> {
    let side = boxes.side();
    let n = side * side;
    assert_eq!(
        puzzles.len(),
        answers.len(),
        "one answer row per puzzle row"
    );
    if let Some(l) = labels {
        assert_eq!(l.len() * n, puzzles.len(), "one label per puzzle row");
    }
    for_each_row(n, answers, |row, answer| {
        let label = labels.map_or(Label::Absent, |l| l[row].clone());
        let cells = &puzzles[row * n..(row + 1) * n];
        record::answer(boxes, task, label, overwrite, cells, answer)
    })
}

/// Runs `analysis` on every row of `puzzles` (cells, `0` blank, boxes
/// `boxes`) in parallel on the current rayon pool: each row's grid goes to
/// the same row of `grids` (zeros for a bad row), its text fields to
/// `fields[row]` (empty for a bad row). Outcomes in row order.
pub fn analyse_rows(
    boxes: Boxes,
    analysis: &dyn record::Analysis,
    puzzles: &[u8],
    grids: &mut [u8],
    fields: &mut [Vec<String>],
) -> Vec<Outcome> {
    let n = boxes.side() * boxes.side();
    assert_eq!(puzzles.len(), grids.len(), "one grid row per puzzle row");
    assert_eq!(fields.len() * n, puzzles.len(), "one field list per row");
    grids
        .par_chunks_mut(n)
        .zip(fields.par_iter_mut())
        .enumerate()
        .with_min_len(MIN_ROWS_PER_JOB)
        .map(|(row, (grid, fields))| {
            let cells = &puzzles[row * n..(row + 1) * n];
            record::analyse(boxes, analysis, cells, grid, fields)
        })
        .collect()
}

/// The rows to keep when deduplicating by `keys` (one per row; rows with
/// equal keys are one class): the index of the first row of each class, in
/// ascending order. A `None` key (a bad row: no key could be made) is a
/// class of its own, so it is kept and never merged with anything. In
/// memory (one hash entry per class); the Python package's `dedupe` and any
/// caller whose keys fit in memory share it.
pub fn first_of_each<K: Hash + Eq>(keys: impl IntoIterator<Item = Option<K>>) -> Vec<usize> {
    let mut seen = HashSet::new();
    keys.into_iter()
        .enumerate()
        .filter_map(|(i, key)| match key {
            None => Some(i),
            Some(k) => seen.insert(k).then_some(i),
        })
        .collect()
}

/// For each key of `probes`, the index of the first row of `reference`
/// with an equal key (`None` when there is none). `None` keys (bad rows)
/// never match and are never matched. The Python package's `overlap`
/// (train/test leakage) uses it.
pub fn first_matches<K: Hash + Eq>(
    reference: impl IntoIterator<Item = Option<K>>,
    probes: impl IntoIterator<Item = Option<K>>,
) -> Vec<Option<usize>> {
    let mut first = HashMap::new();
    for (i, key) in reference.into_iter().enumerate() {
        if let Some(k) = key {
            first.entry(k).or_insert(i);
        }
    }
    probes
        .into_iter()
        .map(|key| key.and_then(|k| first.get(&k).copied()))
        .collect()
}

// The row engine of the Python package: jobs, inputs, results.

/// A worker's buffers for one row at a time: the puzzle's cells, the
/// label's, the answer's (text answers), the answer's text. Made once per
/// rayon job of at least [`MIN_ROWS_PER_JOB`] rows: three zeroed stack
/// buffers a row (25x25-sized) cost 290 instructions a 17-clue puzzle, 1.5%
/// of the text path (callgrind, 22k puzzles).
struct Scratch {
    cells: Vec<u8>,
    label: Vec<u8>,
    out: Vec<u8>,
    text: Vec<u8>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            cells: vec![0; n],
            label: vec![0; n],
            out: vec![0; n],
            text: Vec::with_capacity(n + 1),
        }
    }
}

/// What [`run_cells`] and [`run_texts`] do with each row: the Python
/// package's `solve`, `count`, `grade` and `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Solve; the answers hold the solution.
    Solve {
        /// Rows with more than one solution are bad.
        unique: bool,
    },
    /// Count solutions up to `limit`; the values hold the count.
    Count {
        /// Stop counting here (at least 1).
        limit: u32,
    },
    /// Count to 2 and keep the guesses (the CLI's `--stats`); the values
    /// hold them.
    Grade,
    /// Check each row's given solution (the label rule: kept = valid).
    Check,
}

impl Job {
    /// The job `name` (`solve`, `count`, `grade`, `check`) names, with
    /// `unique` for `solve` and `limit` for `count`.
    pub fn named(name: &str, unique: bool, limit: u32) -> Result<Job, String> {
        Ok(match name {
            "solve" => Job::Solve { unique },
            "count" if limit == 0 => return Err("limit must be at least 1".into()),
            "count" => Job::Count { limit },
            "grade" => Job::Grade,
            "check" => Job::Check,
            _ => return Err(format!("unknown job {name:?}")),
        })
    }

    /// The record task each row runs ([`record::answer`]).
    pub fn task(self) -> Task {
        match self {
            Job::Solve { unique } => Task::Solve { unique },
            Job::Count { limit } => Task::Count { limit },
            Job::Grade => Task::Count { limit: 2 },
            Job::Check => Task::Solve { unique: false },
        }
    }
}

/// The results of [`run_cells`] or [`run_texts`], in row order.
#[derive(Debug, Default)]
pub struct Done {
    /// [`run_cells`] under [`Job::Solve`]: the answer cells, row after row
    /// (zeros for a bad row); empty otherwise.
    pub answers: Vec<u8>,
    /// [`run_texts`] under [`Job::Solve`]: each row's answer as one line in
    /// the values' own layout (no line end), null for a bad row.
    pub texts: Option<Packed>,
    /// Per row: the count ([`Job::Count`]), the guesses ([`Job::Grade`]),
    /// 1 for an answered row ([`Job::Solve`]) or a valid solution
    /// ([`Job::Check`]); -1 for a bad row, and for a wrong or unreadable
    /// solution under `Check` (its answer: not valid, not a bad row).
    pub values: Vec<i64>,
    /// The bad rows in order, with the reason.
    pub bad: Vec<(usize, String)>,
}

/// Rows of integer cells as an array holds them (0 blank), by element
/// type: a NumPy array's buffer, read in place.
#[derive(Clone, Copy, Debug)]
pub enum Cells<'a> {
    /// `uint8`.
    U8(&'a [u8]),
    /// `int8`.
    I8(&'a [i8]),
    /// `int16`.
    I16(&'a [i16]),
    /// `int32`.
    I32(&'a [i32]),
    /// `int64`.
    I64(&'a [i64]),
    /// `uint16`.
    U16(&'a [u16]),
    /// `uint32`.
    U32(&'a [u32]),
    /// `uint64`.
    U64(&'a [u64]),
}

macro_rules! cells_from {
    ($($t:ty => $v:ident),*) => {$(
        impl<'a> From<&'a [$t]> for Cells<'a> {
            fn from(s: &'a [$t]) -> Cells<'a> {
                Cells::$v(s)
            }
        }
    )*};
}
cells_from!(u8 => U8, i8 => I8, i16 => I16, i32 => I32, i64 => I64, u16 => U16, u32 => U32, u64 => U64);

/// An integer type cells may come in.
trait CellValue: Copy + std::fmt::Display {
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
/// range-checked: the caller's memory may change while the run reads it (a
/// NumPy array another Python thread writes while the GIL is released), and
/// a check of the source could pass a value the copy then reads changed (a
/// cell past the side reached the solver, a panic).
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

impl Cells<'_> {
    /// Cells held, all rows together.
    pub fn len(self) -> usize {
        match self {
            Cells::U8(s) => s.len(),
            Cells::I8(s) => s.len(),
            Cells::I16(s) => s.len(),
            Cells::I32(s) => s.len(),
            Cells::I64(s) => s.len(),
            Cells::U16(s) => s.len(),
            Cells::U32(s) => s.len(),
            Cells::U64(s) => s.len(),
        }
    }

    /// True when no cell is held.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Fills `cells` with row `row` (rows of `n` cells), each value checked
    /// to be in `0..=side`, or says which is not.
    #[inline]
    fn load(self, n: usize, side: usize, row: usize, cells: &mut [u8]) -> Result<(), String> {
        match self {
            Cells::U8(s) => load_u8(s, n, side, row, cells),
            Cells::I8(s) => load_typed(s, n, side, row, cells),
            Cells::I16(s) => load_typed(s, n, side, row, cells),
            Cells::I32(s) => load_typed(s, n, side, row, cells),
            Cells::I64(s) => load_typed(s, n, side, row, cells),
            Cells::U16(s) => load_typed(s, n, side, row, cells),
            Cells::U32(s) => load_typed(s, n, side, row, cells),
            Cells::U64(s) => load_typed(s, n, side, row, cells),
        }
    }
}

/// The usual boxes of rows of `cells` cells (N*N for a side N from 4 to 64
/// that boxes tile; rectangular sides get their usual boxes, 6 → 2x3).
pub fn boxes_of_cells(cells: usize) -> Result<Boxes, String> {
    let side = cells.isqrt();
    (side * side == cells)
        .then(|| Boxes::for_side(side))
        .flatten()
        .ok_or_else(|| {
            format!(
                "a row of {cells} cells is no grid size this package knows \
                 (N*N for N from 4 to 64, not prime: 16, 36, 81, 256, 625 ...)"
            )
        })
}

/// The boxes of rows of `cells` cells: `forced` (a `box=` or `--box`)
/// when given, which must make grids of that many cells, else the usual
/// boxes of the size. `what` names the rows in the message ("rows",
/// "strings").
pub fn boxes_of_rows(forced: Option<Boxes>, cells: usize, what: &str) -> Result<Boxes, String> {
    match forced {
        None => boxes_of_cells(cells),
        Some(b) if b.cells() == cells => Ok(b),
        Some(b) => {
            let side = cells.isqrt();
            let grid = if side * side == cells {
                format!(" ({side}x{side})")
            } else {
                String::new()
            };
            Err(format!(
                "box={b} asks for {n}x{n} grids ({} cells), the {what} hold {cells} cells{grid}",
                b.cells(),
                n = b.side(),
            ))
        }
    }
}

/// Runs `job` over rows of `cells_per_row` cells (`puzzles`, and for
/// [`Job::Check`] the `solutions` to check, of the same shape), with the
/// boxes `boxes` names (else the usual ones of the size), on the current
/// rayon pool. A value outside `0..=side` makes its row bad (a solution's:
/// the row checks not valid). Setting `stop` ends the run between rows;
/// the rows not reached are then left as answered zeros.
pub fn run_cells(
    puzzles: Cells<'_>,
    solutions: Option<Cells<'_>>,
    cells_per_row: usize,
    boxes: Option<Boxes>,
    job: Job,
    stop: &AtomicBool,
) -> Result<Done, String> {
    let n = cells_per_row;
    let boxes = boxes_of_rows(boxes, n, "rows")?;
    if !puzzles.len().is_multiple_of(n) {
        return Err(format!(
            "{} cells are no whole number of rows of {n}",
            puzzles.len()
        ));
    }
    if matches!(job, Job::Check) != solutions.is_some() {
        return Err("solutions go with the check job, and it needs them".into());
    }
    if let Some(s) = solutions.filter(|s| s.len() != puzzles.len()) {
        return Err(format!(
            "{} solution rows for {} puzzle rows",
            s.len() / n,
            puzzles.len() / n
        ));
    }
    let side = boxes.side();
    let load = |row: usize, cells: &mut [u8]| puzzles.load(n, side, row, cells);
    let load_sol =
        solutions.map(|s| move |row: usize, cells: &mut [u8]| s.load(n, side, row, cells));
    let label = load_sol.as_ref().map(|f| f as &LoadFn<'_>);
    Ok(run(boxes, puzzles.len() / n, job, &load, label, None, stop))
}

/// One-line text values, one puzzle each, by row: a packed list of
/// strings ([`Packed`]), Arrow string columns. `None` is a null.
pub trait Values: Sync {
    /// Rows held.
    fn rows(&self) -> usize;
    /// Row `row`'s bytes, `None` when null.
    fn get(&self, row: usize) -> Option<&[u8]>;
}

/// Values packed end to end (Arrow's string layout): row `i` is
/// `data[offsets[i]..offsets[i + 1]]` unless null.
#[derive(Clone, Debug)]
pub struct Packed {
    data: Vec<u8>,
    /// `rows + 1` offsets from 0.
    offsets: Vec<usize>,
    /// Per row, true when null; `None` until the first null.
    nulls: Option<Vec<bool>>,
}

impl Default for Packed {
    fn default() -> Packed {
        Packed::with_capacity(0, 0)
    }
}

impl Packed {
    /// No rows yet, room for `rows` rows of `bytes` bytes in all.
    pub fn with_capacity(rows: usize, bytes: usize) -> Packed {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Packed {
            data: Vec::with_capacity(bytes),
            offsets,
            nulls: None,
        }
    }

    /// Adds a row: its bytes, or `None` for a null.
    pub fn push(&mut self, value: Option<&[u8]>) {
        let row = self.offsets.len() - 1;
        match value {
            Some(v) => {
                self.data.extend_from_slice(v);
                if let Some(nulls) = &mut self.nulls {
                    nulls.push(false);
                }
            }
            None => self
                .nulls
                .get_or_insert_with(|| vec![false; row])
                .push(true),
        }
        self.offsets.push(self.data.len());
    }

    /// All rows' bytes, end to end.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// `rows + 1` offsets into [`data`](Self::data), from 0.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// Per row, true when it is null; `None` when no row is.
    pub fn nulls(&self) -> Option<&[bool]> {
        self.nulls.as_deref()
    }

    /// The bytes, offsets and nulls, as [`data`](Self::data),
    /// [`offsets`](Self::offsets) and [`nulls`](Self::nulls) show them.
    pub fn into_parts(self) -> (Vec<u8>, Vec<usize>, Option<Vec<bool>>) {
        (self.data, self.offsets, self.nulls)
    }
}

impl Values for Packed {
    fn rows(&self) -> usize {
        self.offsets.len() - 1
    }

    fn get(&self, row: usize) -> Option<&[u8]> {
        if self.nulls.as_ref().is_some_and(|n| n[row]) {
            return None;
        }
        Some(&self.data[self.offsets[row]..self.offsets[row + 1]])
    }
}

/// Rows read to tell the layout of values, as the CLI reads a file's head.
pub const HEAD_ROWS: usize = 200;

/// The `format=` names of one-line values: the CLI's `--format` symbol
/// names, and `numbers` (a line of space-separated numbers, 0 blank).
pub const VALUE_FORMATS: [&str; 5] = ["digits", "letters", "hex0", "hex1", "numbers"];

/// What `format=` (one of [`VALUE_FORMATS`], or `None` to detect it) fixes
/// of values, as the CLI's `--format` would.
pub fn value_format(name: Option<&str>) -> Result<Forced, String> {
    let (shape, symbols) = match name {
        None => (None, None),
        Some("digits") => (None, Some(Symbols::Digits)),
        Some("letters") => (None, Some(Symbols::Letters)),
        Some("hex0") => (None, Some(Symbols::Hex0)),
        Some("hex1") => (None, Some(Symbols::Hex1)),
        // Numbers are a shape of their own (one line of them), not symbols.
        Some(n) if n == ShapeName::Numbers.name() => (Some(ShapeName::Numbers), None),
        Some(other) => {
            return Err(format!(
                "format={other:?}: expected \"digits\" (1-9), \"letters\" (A, B, ...), \
                 \"hex0\" (0-9 then A-Z), \"hex1\" (1-9 then A-Z) or \"numbers\" \
                 (space-separated), or None to detect it"
            ))
        }
    };
    Ok(Forced {
        shape,
        symbols,
        ..Forced::default()
    })
}

/// The layout of `values`: the CLI's detection of values one puzzle each
/// ([`detect::detect_values`]) on the first [`HEAD_ROWS`] non-null rows
/// (all rows when none of those is a puzzle), so a bad row among them is
/// only that row's problem. With `forced.boxes` (`box=`), only values of
/// its size vote; when none has it and the others make a grid, the error
/// names both. `None` when no row is a puzzle and `forced` does not fix a
/// layout either.
pub fn values_layout(values: &dyn Values, forced: &Forced) -> Result<Option<Layout>, String> {
    let rows = values.rows();
    let all = || (0..rows).filter_map(|i| values.get(i));
    let detect = |f: &Forced| {
        let found = detect::detect_values(all().take(HEAD_ROWS), f);
        if found.is_err() && rows > HEAD_ROWS {
            // The head holds no puzzle; a later row may (rare: read them
            // all).
            return detect::detect_values(all(), f);
        }
        found
    };
    let boxes = forced.boxes;
    Ok(Some(match detect(forced) {
        Ok(Some(l)) => l,
        Ok(None) => Layout::one_line_in(boxes.unwrap_or(Boxes::NINE), forced.symbols),
        Err(_) => {
            let loose = Forced {
                boxes: None,
                ..forced.clone()
            };
            if let (Some(b), Ok(Some(l))) = (boxes, detect(&loose)) {
                // No value of the box's size, all of another: the box is
                // the mistake, named as such.
                boxes_of_rows(Some(b), l.cells(), "strings")?;
            }
            // None is a puzzle; a layout the caller fixed (box= or a side,
            // and the symbols) still reads each row, to say why it is bad.
            match (forced.boxes_or_side(), forced.symbols) {
                (Some(b), Some(s)) => Layout::new(Shape::Line, b, s),
                (Some(b), None) if forced.shape == Some(ShapeName::Numbers) => {
                    Layout::new(Shape::Numbers(b' '), b, Symbols::Numbers)
                }
                _ => return Ok(None),
            }
        }
    }))
}

/// Runs `job` over one-line text values (`puzzles`, and for [`Job::Check`]
/// the `solutions` to check, row for row), read in the layout
/// [`values_layout`] finds under `forced` (`format=` as
/// [`value_format`] makes it, `box=` as `forced.boxes`), on the current
/// rayon pool. A null or unreadable value is a bad row (a solution's:
/// not valid). Answers ([`Job::Solve`]) come back as text in the same
/// layout in [`Done::texts`]. Setting `stop` ends the run between rows.
pub fn run_texts(
    puzzles: &dyn Values,
    solutions: Option<&dyn Values>,
    job: Job,
    forced: &Forced,
    stop: &AtomicBool,
) -> Result<Done, String> {
    if matches!(job, Job::Check) != solutions.is_some() {
        return Err("solutions go with the check job, and it needs them".into());
    }
    if let Some(s) = solutions.filter(|s| s.rows() != puzzles.rows()) {
        return Err(format!(
            "{} solutions for {} puzzles",
            s.rows(),
            puzzles.rows()
        ));
    }
    let found = values_layout(puzzles, forced)?;
    // No row is a puzzle: each says why, in its own words.
    let known = found.is_some();
    let layout = found.unwrap_or_else(|| Layout::one_line(forced.boxes.unwrap_or(Boxes::NINE)));
    let parse = |src: &dyn Values, row: usize, cells: &mut [u8]| -> Result<(), String> {
        let raw = src.get(row).ok_or_else(|| "null: no puzzle".to_string())?;
        if !known {
            return Err(detect::value_reason(raw, forced));
        }
        layout.parse_value(raw, cells).map_err(|e| e.to_string())
    };
    let load = |row: usize, cells: &mut [u8]| parse(puzzles, row, cells);
    let load_sol = solutions.map(|s| move |row: usize, cells: &mut [u8]| parse(s, row, cells));
    let label = load_sol.as_ref().map(|f| f as &LoadFn<'_>);
    let solving = matches!(job, Job::Solve { .. });
    let text = (solving && layout.shape == Shape::Line).then_some(&layout);
    let mut done = run(layout.boxes, puzzles.rows(), job, &load, label, text, stop);
    if solving {
        let answers = std::mem::take(&mut done.answers);
        done.texts = Some(answer_texts(&layout, answers, &done.bad));
    }
    Ok(done)
}

/// The answers of [`run_texts`] as text values: the workers wrote one-line
/// symbols in place, `layout.cells()` bytes a row; a numbers layout
/// (sides past 36, or `format="numbers"`) has no symbol per cell, so
/// `answers` holds cells and their numbers are written here.
fn answer_texts(layout: &Layout, answers: Vec<u8>, bad: &[(usize, String)]) -> Packed {
    let n = layout.boxes.cells();
    let rows = answers.len() / n;
    if bad.is_empty() && layout.shape == Shape::Line {
        // Every row answered: the workers' text is the data.
        return Packed {
            data: answers,
            offsets: (0..=rows).map(|i| i * n).collect(),
            nulls: None,
        };
    }
    let mut out = Packed::with_capacity(rows, (rows - bad.len()) * n);
    let mut bad = bad.iter().map(|&(r, _)| r).peekable();
    let mut buf = Vec::new();
    for (row, answer) in answers.chunks(n).enumerate() {
        if bad.peek() == Some(&row) {
            bad.next();
            out.push(None);
        } else if layout.shape == Shape::Line {
            out.push(Some(answer));
        } else {
            buf.clear();
            layout.write_answer(b"", answer, &mut buf);
            buf.pop();
            out.push(Some(&buf));
        }
    }
    out
}

/// Fills a row's cells (0 blank, each `<= side`) or says why it cannot.
type LoadFn<'a> = dyn Fn(usize, &mut [u8]) -> Result<(), String> + Sync + 'a;

/// Runs `job` over `rows` rows of `boxes` grids on the current rayon pool.
/// `load` fills a row's cells or says why it cannot; `load_label` does the
/// same for `Check`'s solutions. With `text`, the answers are written as
/// that layout's one-line text (bad rows stay zero bytes).
fn run(
    boxes: Boxes,
    rows: usize,
    job: Job,
    load: &LoadFn<'_>,
    load_label: Option<&LoadFn<'_>>,
    text: Option<&Layout>,
    stop: &AtomicBool,
) -> Done {
    let n = boxes.cells();
    let task = job.task();
    let mut answers = vec![0u8; rows * n];
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
    let one_row = |s: &mut Scratch, (row, answer): (usize, &mut [u8])| {
        if stop.load(Ordering::Relaxed) {
            // Stopped: the caller drops the run, this row is never seen.
            return Outcome {
                verdict: Verdict::Answered(0),
                guesses: 0,
            };
        }
        let Scratch {
            cells,
            label,
            out,
            text: line,
        } = s;
        if let Err(why) = load(row, cells) {
            return not_read(row, why);
        }
        let label = match load_label {
            None => Label::Absent,
            Some(f) => match f(row, label) {
                Ok(()) => Label::Cells(label),
                Err(why) => Label::Unreadable(why),
            },
        };
        let Some(layout) = text else {
            return record::answer(boxes, task, label, false, cells, answer);
        };
        // Text answers are written here, on the workers: one symbol per
        // cell, so a row's text fits its `n`-byte slot.
        let o = record::answer(boxes, task, label, false, cells, out);
        if o.is_good() {
            line.clear();
            // The one-line writer (vectorised for digits; the per-cell
            // `write_cells` cost 2% of a 17-clue solve, perf), then its
            // newline dropped.
            layout.write_answer(b"", out, line);
            answer.copy_from_slice(&line[..n]);
        }
        o
    };
    let outcomes: Vec<Outcome> = answers
        .par_chunks_mut(n)
        .with_min_len(MIN_ROWS_PER_JOB)
        .enumerate()
        .map_init(|| Scratch::new(n), one_row)
        .collect();
    let mut unread = unread.into_inner().unwrap_or_else(|e| e.into_inner());
    unread.sort_unstable_by_key(|&(row, _)| row);
    let mut unread = unread.into_iter().peekable();
    let mut values = Vec::with_capacity(rows);
    let mut bad = Vec::new();
    for (row, o) in outcomes.into_iter().enumerate() {
        let value = match (&o.verdict, job) {
            // A wrong or unreadable solution is `check`'s answer (not
            // valid), not a bad row: only puzzles that cannot be checked are.
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
    Done {
        answers,
        texts: None,
        values,
        bad,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Verdict;

    fn parse(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn rows_come_back_in_order_with_labels_applied() {
        let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt"))
            .unwrap();
        let rows: Vec<Vec<u8>> = data
            .lines()
            .filter(|l| l.len() == 81)
            .take(600)
            .map(parse)
            .collect();
        let puzzles = rows.concat();
        let mut answers = vec![0u8; puzzles.len()];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let task = Task::Solve { unique: false };
        let out =
            pool.install(|| solve_rows(Boxes::NINE, task, &puzzles, None, false, &mut answers));
        assert_eq!(out.len(), rows.len());
        for (k, row) in rows.iter().enumerate() {
            assert_eq!(out[k].verdict, Verdict::Answered(1), "row {k}");
            crate::solver::verify(
                crate::solver::Boxes::NINE,
                row,
                &answers[k * 81..(k + 1) * 81],
            )
            .unwrap();
        }
        // Every other row labelled with the answer, one with a broken one.
        let mut broken = answers[81..162].to_vec();
        broken.swap(0, 1);
        let labels: Vec<Label> = (0..rows.len())
            .map(|k| match k {
                1 => Label::Cells(&broken),
                k if k % 2 == 0 => Label::Cells(&answers[k * 81..(k + 1) * 81]),
                _ => Label::Empty,
            })
            .collect();
        let mut again = vec![0u8; puzzles.len()];
        let out = pool.install(|| {
            solve_rows(
                Boxes::NINE,
                task,
                &puzzles,
                Some(&labels),
                false,
                &mut again,
            )
        });
        assert!(matches!(out[1].verdict, Verdict::Bad(_)));
        assert_eq!(&again[81..162], &[0u8; 81][..]);
        for k in (0..rows.len()).filter(|&k| k != 1) {
            let want = if k % 2 == 0 {
                Verdict::Kept
            } else {
                Verdict::Answered(1)
            };
            assert_eq!(out[k].verdict, want, "row {k}");
            crate::solver::verify(
                crate::solver::Boxes::NINE,
                &rows[k],
                &again[k * 81..(k + 1) * 81],
            )
            .unwrap();
        }
    }

    #[test]
    fn first_of_each_keeps_the_first_row_of_every_class_and_every_bad_row() {
        let keys = [
            Some("a"),
            Some("b"),
            None,
            Some("a"),
            None,
            Some("c"),
            Some("b"),
        ];
        assert_eq!(first_of_each(keys), vec![0, 1, 2, 4, 5]);
        assert_eq!(first_of_each(Vec::<Option<u8>>::new()), Vec::<usize>::new());
        // Brute force on random keys: a row is kept exactly when no earlier
        // row has its key.
        let mut x = 7u64;
        let keys: Vec<Option<u64>> = (0..2000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 60 != 0).then_some(x >> 55)
            })
            .collect();
        let want: Vec<usize> = (0..keys.len())
            .filter(|&i| keys[i].is_none() || !keys[..i].contains(&keys[i]))
            .collect();
        assert_eq!(first_of_each(keys.iter().copied()), want);
    }

    #[test]
    fn first_matches_points_at_the_first_equal_reference_row() {
        let reference = [Some(&b"x"[..]), None, Some(b"y"), Some(b"x")];
        let probes = [Some(&b"x"[..]), Some(b"z"), None, Some(b"y")];
        assert_eq!(
            first_matches(reference, probes),
            vec![Some(0), None, None, Some(2)]
        );
    }

    /// Relabels digit d as 10 - d; the field is the number of givens, and
    /// a puzzle without givens is bad.
    struct Mirror;

    impl record::Analysis for Mirror {
        fn name(&self) -> &'static str {
            "mirror"
        }
        fn grid_column(&self) -> Option<&'static str> {
            Some("mirrored")
        }
        fn columns(&self) -> &[&'static str] {
            &["givens"]
        }
        fn keeps_puzzle(&self) -> bool {
            false
        }
        fn analyse(
            &self,
            _: Boxes,
            cells: &[u8],
            grid: &mut [u8],
            fields: &mut Vec<String>,
        ) -> Result<(), crate::text::RecordError> {
            let givens = cells.iter().filter(|&&v| v != 0).count();
            if givens == 0 {
                return Err(crate::text::RecordError::NoSolution);
            }
            for (g, &v) in grid.iter_mut().zip(cells) {
                *g = if v == 0 { 0 } else { 10 - v };
            }
            fields.push(givens.to_string());
            Ok(())
        }
    }

    #[test]
    fn analysed_rows_keep_their_order_and_bad_rows_are_empty() {
        let mut puzzles = Vec::new();
        for k in 0..1000u32 {
            // Row k has k % 81 givens (row 0, 81, ... none: bad).
            let mut row = [0u8; 81];
            for (i, c) in row.iter_mut().enumerate().take((k % 81) as usize) {
                *c = 1 + ((i as u32 + k) % 9) as u8;
            }
            puzzles.extend_from_slice(&row);
        }
        let mut grids = vec![7u8; puzzles.len()];
        let mut fields = vec![Vec::new(); 1000];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let out =
            pool.install(|| analyse_rows(Boxes::NINE, &Mirror, &puzzles, &mut grids, &mut fields));
        for k in 0..1000 {
            let p = &puzzles[k * 81..(k + 1) * 81];
            let g = &grids[k * 81..(k + 1) * 81];
            if k % 81 == 0 {
                assert!(matches!(out[k].verdict, Verdict::Bad(_)), "row {k}");
                assert!(g.iter().all(|&v| v == 0) && fields[k].is_empty(), "row {k}");
                continue;
            }
            assert_eq!(out[k].verdict, Verdict::Answered(1), "row {k}");
            assert_eq!(fields[k], vec![(k % 81).to_string()], "row {k}");
            for (&a, &b) in p.iter().zip(g) {
                assert_eq!(b, if a == 0 { 0 } else { 10 - a }, "row {k}");
            }
        }
    }

    fn sample_rows(count: usize) -> Vec<Vec<u8>> {
        let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt"))
            .unwrap();
        data.lines()
            .filter(|l| l.len() == 81)
            .take(count)
            .map(parse)
            .collect()
    }

    fn two_threads() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    #[test]
    fn cells_of_every_width_solve_alike_and_bad_values_name_their_cell() {
        let rows = sample_rows(300);
        let flat: Vec<u8> = rows.concat();
        let wide: Vec<i64> = flat.iter().map(|&v| i64::from(v)).collect();
        let mut short: Vec<u16> = flat.iter().map(|&v| u16::from(v)).collect();
        short[3 * 81 + 4] = 10;
        let stop = AtomicBool::new(false);
        let pool = two_threads();
        let job = Job::Solve { unique: false };
        let run = |cells: Cells<'_>| pool.install(|| run_cells(cells, None, 81, None, job, &stop));
        let narrow = run(Cells::from(&flat[..])).unwrap();
        let wide = run(Cells::from(&wide[..])).unwrap();
        let short = run(Cells::from(&short[..])).unwrap();
        assert!(narrow.bad.is_empty() && wide.bad.is_empty());
        assert_eq!(narrow.answers, wide.answers);
        for (k, row) in rows.iter().enumerate() {
            let answer = &narrow.answers[k * 81..(k + 1) * 81];
            crate::solver::verify(Boxes::NINE, row, answer).unwrap();
            assert_eq!(narrow.values[k], 1);
        }
        assert_eq!(
            short.bad,
            vec![(3, "cell 5: value 10 is not in 0..=9".to_string())]
        );
        assert_eq!(short.values[3], -1);
        assert!(short.answers[3 * 81..4 * 81].iter().all(|&v| v == 0));
        // A box that is no box of the rows, and rows that are no grid.
        let err = run_cells(
            Cells::from(&flat[..]),
            None,
            81,
            Boxes::new(2, 3),
            job,
            &stop,
        );
        assert!(err
            .unwrap_err()
            .contains("box=2x3 asks for 6x6 grids (36 cells)"));
        let err = run_cells(Cells::from(&flat[..81]), None, 27, None, job, &stop);
        assert!(err.unwrap_err().contains("27 cells is no grid size"));
    }

    #[test]
    fn check_says_valid_or_not_and_only_unreadable_puzzles_are_bad() {
        let rows = sample_rows(40);
        let mut puzzles: Vec<u8> = rows.concat();
        let stop = AtomicBool::new(false);
        let pool = two_threads();
        let solve = Job::Solve { unique: false };
        let solved = pool
            .install(|| run_cells(Cells::from(&puzzles[..]), None, 81, None, solve, &stop))
            .unwrap();
        let mut solutions = solved.answers.clone();
        // Row 1: two cells swapped (a given changes or a unit repeats);
        // row 2: a cell past the side (unreadable); row 3: clashing givens.
        solutions.swap(81, 82);
        solutions[2 * 81] = 12;
        let given = (0..81).find(|&i| puzzles[3 * 81 + i] != 0).unwrap();
        let other = (0..9).find(|&c| c != given % 9 && puzzles[3 * 81 + (given / 9) * 9 + c] == 0);
        puzzles[3 * 81 + (given / 9) * 9 + other.unwrap()] = puzzles[3 * 81 + given];
        let checked = pool
            .install(|| {
                run_cells(
                    Cells::from(&puzzles[..]),
                    Some(Cells::from(&solutions[..])),
                    81,
                    None,
                    Job::Check,
                    &stop,
                )
            })
            .unwrap();
        assert!(checked.answers.is_empty());
        assert_eq!(checked.values[..4], [1, -1, -1, -1]);
        assert!(checked.values[4..].iter().all(|&v| v == 1));
        assert_eq!(checked.bad.len(), 1, "{:?}", checked.bad);
        assert_eq!(checked.bad[0].0, 3);
        assert!(
            checked.bad[0].1.starts_with("duplicate given"),
            "{:?}",
            checked.bad
        );
        // Check needs its solutions, and only check takes them.
        assert!(run_cells(Cells::from(&puzzles[..]), None, 81, None, Job::Check, &stop).is_err());
    }

    #[test]
    fn texts_are_read_in_the_detected_layout_and_answered_in_it() {
        let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt"))
            .unwrap();
        let lines: Vec<&str> = data.lines().filter(|l| l.len() == 81).take(100).collect();
        let mut values = Packed::default();
        for l in &lines {
            values.push(Some(l.as_bytes()));
        }
        values.push(None);
        values.push(Some(&lines[0].as_bytes()[..80]));
        let two = format!("{}\n{}", lines[0], lines[1]);
        values.push(Some(two.as_bytes()));
        let stop = AtomicBool::new(false);
        let forced = value_format(None).unwrap();
        let job = Job::Solve { unique: false };
        let done = two_threads()
            .install(|| run_texts(&values, None, job, &forced, &stop))
            .unwrap();
        let texts = done.texts.unwrap();
        assert_eq!(texts.rows(), 103);
        for (k, l) in lines.iter().enumerate() {
            let answer: Vec<u8> = parse(std::str::from_utf8(texts.get(k).unwrap()).unwrap());
            crate::solver::verify(Boxes::NINE, &parse(l), &answer).unwrap();
        }
        let bad: Vec<(usize, &str)> = done.bad.iter().map(|(r, w)| (*r, &w[..])).collect();
        assert_eq!(
            bad,
            [
                (100, "null: no puzzle"),
                (101, "expected 81 cells, found 80"),
                (
                    102,
                    "a line break at character 82: a record holds one puzzle on one line"
                ),
            ]
        );
        assert!((100..103).all(|k| texts.get(k).is_none()));
        // The same values as numbers, when format= says so: answers too.
        let numbers: Vec<String> = lines[..5]
            .iter()
            .map(|l| {
                parse(l)
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let mut values = Packed::default();
        for l in &numbers {
            values.push(Some(l.as_bytes()));
        }
        let forced = value_format(Some("numbers")).unwrap();
        let done = two_threads()
            .install(|| run_texts(&values, None, job, &forced, &stop))
            .unwrap();
        let texts = done.texts.unwrap();
        for (k, l) in lines[..5].iter().enumerate() {
            let answer: Vec<u8> = std::str::from_utf8(texts.get(k).unwrap())
                .unwrap()
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect();
            crate::solver::verify(Boxes::NINE, &parse(l), &answer).unwrap();
        }
        assert!(value_format(Some("hex")).is_err());
    }

    #[test]
    fn sixteen_by_sixteen_hex_values_keep_their_symbols_and_a_wrong_box_is_named() {
        let boxes = Boxes::square(4);
        let mut grid = [0u8; 256];
        assert_eq!(
            crate::solver::solve(boxes, &[0u8; 256], 1, &mut grid).count,
            1
        );
        let hex = Layout::new(Shape::Line, boxes, Symbols::Hex0);
        let mut puzzles = Vec::new();
        let mut values = Packed::default();
        for k in 0..20usize {
            // Relabel the digits (v -> v + k, wrapping) and blank a third.
            let p: Vec<u8> = grid
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    if (i + k) % 3 == 0 {
                        0
                    } else {
                        (v as usize - 1 + k) as u8 % 16 + 1
                    }
                })
                .collect();
            let mut text = Vec::new();
            hex.write_cells(&p, b'.', &mut text);
            values.push(Some(&text));
            puzzles.push(p);
        }
        let stop = AtomicBool::new(false);
        let job = Job::Solve { unique: false };
        let forced = value_format(None).unwrap();
        let done = two_threads()
            .install(|| run_texts(&values, None, job, &forced, &stop))
            .unwrap();
        assert!(done.bad.is_empty(), "{:?}", done.bad);
        let texts = done.texts.unwrap();
        let mut answer = vec![0u8; 256];
        for (k, p) in puzzles.iter().enumerate() {
            let text = texts.get(k).unwrap();
            assert!(text.iter().all(|b| b.is_ascii_hexdigit()), "row {k}");
            hex.parse_value(text, &mut answer).unwrap();
            crate::solver::verify(boxes, p, &answer).unwrap();
        }
        let forced = Forced {
            boxes: Boxes::new(2, 3),
            ..value_format(None).unwrap()
        };
        let err = run_texts(&values, None, job, &forced, &stop).unwrap_err();
        assert!(
            err.contains(
                "box=2x3 asks for 6x6 grids (36 cells), the strings hold 256 cells (16x16)"
            ),
            "{err}"
        );
    }
}
