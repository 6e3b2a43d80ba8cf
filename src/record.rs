//! The record vocabulary and one record's work, shared by every data shape
//! (text records, Parquet and Arrow columns, NumPy arrays, the Python
//! package): what a record is called when it is bad ([`RecordError`],
//! [`CellName`]), the label it may hold ([`Label`]), the job to do on it
//! ([`Task`], [`Analysis`]) and the one rule for labels (solutions) a
//! dataset already holds: parsed cells in, a [`Verdict`] out. `pipeline`
//! and `batch` call it; it imports only the solver and does no I/O.
//!
//! The label rule, so no dataset label is ever silently changed:
//!
//! ```text
//! label absent or empty        -> solve, write ours            (Answered)
//! label a valid solution       -> keep its bytes               (Kept)
//!   ... under --unique         -> keep only if the puzzle is unique
//! label wrong or unreadable    -> bad record, old label kept   (Bad(WrongLabel))
//! --overwrite                  -> ignore every label, solve    (Answered)
//! ```

use std::fmt;

use crate::solver;
use crate::solver::Boxes;

/// Where a text record is, for messages and reports: its first line in the
/// file (1-based, every line counted: a header, comments, blank lines) and
/// its row (1-based among the records only, a header not counted; pandas'
/// `df.iloc[row - 1]` of the same CSV). Tables and arrays have rows only,
/// numbered the same way. Shown as `LINE` when both agree (a text file with
/// no header or comment before the record), else `LINE (row ROW)`, so
/// `in.csv:200316 (row 200315): reason` keeps the `FILE:LINE` an editor jumps
/// to and the row a DataFrame user looks up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    /// 1-based line of the file where the record starts.
    pub line: u64,
    /// 1-based row among the records.
    pub row: u64,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == self.row {
            write!(f, "{}", self.line)
        } else {
            write!(f, "{} (row {})", self.line, self.row)
        }
    }
}

/// Why a record could not be turned into an answer. Bad records are data, not
/// crashes: the pipeline counts them, marks their output line, and reports
/// them as `FILE:LINE: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The record does not have the number of cells of its grid.
    #[error("expected {expected} cells, found {found}")]
    WrongLength {
        /// Cells a record of this file has.
        expected: usize,
        /// Cells found in the record.
        found: usize,
    },
    /// A grid record with too few rows before a blank line or the end.
    #[error("expected {expected} rows, found {found}")]
    WrongRows {
        /// Rows of the file's grid.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// A row of a grid record with the wrong number of cells.
    #[error("row {row}: expected {expected} cells, found {found}")]
    WrongRowLength {
        /// 1-based row of the grid.
        row: usize,
        /// Cells per row.
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// A character that is neither a symbol of the file nor a blank marker.
    #[error("cell {cell}: invalid character {ch}")]
    BadChar {
        /// 1-based cell number, row-major.
        cell: usize,
        /// The offending character.
        ch: Shown,
    },
    /// A value (a table cell, a Python string) of more than one line: a
    /// second puzzle, or a grid, where a value holds one puzzle's line; or
    /// a line of a file that goes on after a `\r` (lines ended by `\r`
    /// alone).
    #[error("a line break at character {at}: a record holds one puzzle on one line")]
    LineBreak {
        /// 1-based character of the line break.
        at: usize,
    },
    /// A number outside `0..=side` in a space-separated grid.
    #[error("cell {cell}: invalid number {token}")]
    BadNumber {
        /// 1-based cell number, row-major.
        cell: usize,
        /// The token as written, quoted by [`quote`] (at most 40 bytes).
        token: String,
    },
    /// A quoted CSV field that does not close: the record is only its first
    /// line, and reading goes on with the next line.
    #[error("quoted field runs on from this line (no closing quote within {MAX_QUOTED_LINES} lines or before the end)")]
    RunOnQuote,
    /// A CSV row without the puzzle column.
    #[error("CSV row has {found} fields, the puzzle is in field {column}")]
    MissingField {
        /// 1-based column of the puzzle.
        column: usize,
        /// Fields in the row.
        found: usize,
    },
    /// A CSV row the csv reader rejects.
    #[error("bad CSV row: {0}")]
    Csv(String),
    /// A Parquet or Arrow row whose puzzle cannot be read (a null value).
    #[error("bad {format} row: {reason}")]
    Table {
        /// The format, as messages name it (`Parquet`, `Arrow`).
        format: &'static str,
        /// What is wrong with the row.
        reason: String,
    },
    /// Two givens clash in a row, column or box.
    #[error("duplicate given {digit} at {first} and {second}")]
    Duplicate {
        /// The repeated digit, as the file writes it.
        digit: String,
        /// First cell, as `rNcM`.
        first: CellName,
        /// Second cell, as `rNcM`.
        second: CellName,
    },
    /// The givens are consistent but no grid completes them.
    #[error("no solution")]
    NoSolution,
    /// More than one grid completes the givens (reported only when asked to
    /// check uniqueness).
    #[error("multiple solutions")]
    MultipleSolutions,
    /// A per-record analysis does not apply to this record (`canon` of a
    /// 16x16 grid); the text says why.
    #[error("{0}")]
    Unsupported(String),
    /// The solution the record already holds is not a solution of its
    /// puzzle (or not readable as a grid); the old label is kept.
    #[error("existing solution is wrong: {0}")]
    WrongLabel(String),
    /// A column the run writes into (`rate --er-column rating`) already
    /// holds a value in this record, and `--overwrite` was not given. Not
    /// a bad record: it stops the run, whatever `--on-error` says, and no
    /// output is kept, so a dataset's own label is never replaced
    /// silently.
    #[error(
        "column {column} already holds a value ({value}), which {command} would write over; \
         give --overwrite to replace the column's values, or name a new or empty column"
    )]
    Held {
        /// The command (`rate`).
        command: &'static str,
        /// The column, quoted by [`quote`].
        column: String,
        /// The value it holds, quoted by [`quote`].
        value: String,
    },
}

/// Lines a quoted CSV field may span before it counts as an unterminated
/// quote (which would otherwise swallow the rest of the file into one
/// record).
pub const MAX_QUOTED_LINES: usize = 1000;

/// Input bytes quoted in a message: at most 40 of them, escaped (`\xc3`,
/// `\t`), in double quotes, with `...` and the full length when cut. A bad
/// 50 MB token must not become a 50 MB stderr line.
pub fn quote(bytes: &[u8]) -> String {
    const SHOWN: usize = 40;
    let cut = &bytes[..bytes.len().min(SHOWN)];
    let mut s = format!("\"{}\"", cut.escape_ascii());
    if bytes.len() > SHOWN {
        s = format!("{}...\" ({} bytes)", &s[..s.len() - 1], bytes.len());
    }
    s
}

/// A character of input, printed the way a user can read it back: `'x'`, or
/// `'\xc3'` for control and non-ASCII bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown(pub u8);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", self.0.escape_ascii())
    }
}

/// A cell named by 1-based row and column, `r3c7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    /// 1-based row.
    pub row: usize,
    /// 1-based column.
    pub col: usize,
}

impl CellName {
    /// Names cell `index` (row-major, 0-based) of a grid `side` cells wide.
    pub fn new(index: usize, side: usize) -> CellName {
        CellName {
            row: index / side + 1,
            col: index % side + 1,
        }
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.col)
    }
}

/// A per-record job that is not solving (a canonical form, a rating): the
/// puzzle's cells in, an output grid and/or text fields out. It is how a new
/// command plugs into every data shape at once: the text run, tables,
/// arrays and the Python package all drive it through [`analyse`], and the
/// shapes write what it gives (see [`Analysis::columns`]). Pure: no I/O.
pub trait Analysis: Send + Sync {
    /// The command's name, for messages (`canon`).
    fn name(&self) -> &'static str;
    /// The column the output grid goes into (`canonical`), when the
    /// analysis makes a grid. One-line text writes the grid in place of the
    /// puzzle (see [`Analysis::keeps_puzzle`]), grids of several lines
    /// write it as a grid, CSV rows and tables add the column (in the
    /// puzzle's symbols), `.npy` arrays give an array of the input's shape.
    fn grid_column(&self) -> Option<&'static str>;
    /// The columns it adds after the grid (`er`, `ep`, `ed`,
    /// `rate_status`), in the order [`Analysis::analyse`] fills them.
    fn columns(&self) -> &[&'static str];
    /// True when column `k` of [`Analysis::columns`] holds numbers: its
    /// field is a plain decimal (`9.4`) or empty when there is none.
    /// Delimited rows write the field as it is; tables write the column
    /// as nullable Float64 (null for an empty field and a bad row). Other
    /// columns are text (Utf8 in tables).
    fn number(&self, k: usize) -> bool {
        let _ = k;
        false
    }
    /// The column (an index into [`Analysis::columns`]) that holds a bad
    /// record's reason in delimited rows and tables (`rate_status`:
    /// `multiple solutions`, as `solve` words it), every other column then
    /// empty (null in tables). `None`: delimited rows get `error: REASON`
    /// in the first added column, tables null everywhere (the reason is
    /// on stderr).
    fn status(&self) -> Option<usize> {
        None
    }
    /// One-line text: true writes the puzzle's line before the fields
    /// (`PUZZLE 3.4/1.2/1.2`), false writes the grid (or the fields alone).
    fn keeps_puzzle(&self) -> bool;
    /// One-line text: the fields as the line writes them (after the
    /// puzzle, or alone). Default: joined by a space.
    fn line(&self, fields: &[String]) -> String {
        fields.join(" ")
    }
    /// The blank symbol its grid is written with (`canon --blank`);
    /// `None`: the usual blank of the layout's symbols (`.` for digits),
    /// whatever blank the record used, so one grid is one text.
    fn blank(&self) -> Option<u8> {
        None
    }
    /// True when the analysis also writes a side output: one line per
    /// record, in record order, bad records included, into a file of its
    /// own (`rate --steps FILE.jsonl`). [`Analysis::analyse`] then pushes
    /// that line after the columns' fields, and a bad record's line is
    /// [`Analysis::side_of_bad`]'s. The shapes take it off before they
    /// write the fields.
    fn side(&self) -> bool {
        false
    }
    /// The side line (no line end) of a bad record: `cells` when they were
    /// read (a puzzle without one solution), `None` when the record could
    /// not be read. Called only when [`Analysis::side`] is true.
    fn side_of_bad(&self, cells: Option<&[u8]>, err: &RecordError) -> String {
        let _ = (cells, err);
        String::new()
    }
    /// Analyses `cells` (boxes `boxes`, 0 blank): writes the output grid
    /// into `grid` (as long as `cells`, when [`Analysis::grid_column`] is
    /// set) and pushes one text per column onto `fields` (empty on entry),
    /// then the side line when [`Analysis::side`] is true, or says why the
    /// record is bad.
    fn analyse(
        &self,
        boxes: Boxes,
        cells: &[u8],
        grid: &mut [u8],
        fields: &mut Vec<String>,
    ) -> Result<(), RecordError>;
}

impl fmt::Debug for dyn Analysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Analysis({})", self.name())
    }
}

impl PartialEq for dyn Analysis {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::addr_eq(self, other)
    }
}

impl Eq for dyn Analysis {}

/// Runs `analysis` on one record: `Answered(1)` with the grid in `grid` and
/// the fields in `fields`, or `Bad` (grid zeroed, fields empty).
pub fn analyse(
    boxes: Boxes,
    analysis: &dyn Analysis,
    cells: &[u8],
    grid: &mut [u8],
    fields: &mut Vec<String>,
) -> Outcome {
    fields.clear();
    match analysis.analyse(boxes, cells, grid, fields) {
        Ok(()) => {
            debug_assert_eq!(
                fields.len(),
                analysis.columns().len() + usize::from(analysis.side())
            );
            Outcome {
                verdict: Verdict::Answered(1),
                guesses: 0,
            }
        }
        Err(e) => {
            grid.fill(0);
            fields.clear();
            bad(e, 0)
        }
    }
}

/// What to do with each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Write one solution per puzzle. With `unique`, puzzles with several
    /// solutions are bad records instead.
    Solve {
        /// Answer only puzzles with exactly one solution.
        unique: bool,
    },
    /// Write the number of solutions, capped at `limit` (`0`, `1`, `2+`).
    Count {
        /// Stop counting here; written `N+`.
        limit: u32,
    },
    /// Run an [`Analysis`] on each puzzle (`canon`, `rate`); existing
    /// labels are not read.
    Analyse(&'static dyn Analysis),
}

/// The solution a record already holds, as its shape found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label<'a> {
    /// The shape has no solution field for this record.
    Absent,
    /// The field exists but is empty (or null, or all zeros): fill it.
    Empty,
    /// The existing solution decoded to cells (`0` = blank, which makes it
    /// wrong).
    Cells(&'a [u8]),
    /// The field holds something that is not a grid of this size.
    Unreadable(String),
}

/// What became of one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Solved (`Solve`: always 1) or counted (`Count`: solutions found,
    /// capped at the limit). The answer buffer holds the first solution
    /// found when the count is at least 1.
    Answered(u32),
    /// The existing label is a valid solution (and the puzzle unique under
    /// `--unique`): write it back unchanged. The answer buffer holds it.
    Kept,
    /// A bad record, to be marked and reported. For
    /// [`RecordError::WrongLabel`] a shape that holds the label keeps the
    /// old bytes unchanged; the record still counts as bad.
    Bad(RecordError),
}

/// A verdict and the search work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// What became of the record.
    pub verdict: Verdict,
    /// Search branch points spent on it.
    pub guesses: u64,
}

impl Outcome {
    /// True unless the record is bad.
    pub fn is_good(&self) -> bool {
        !matches!(self.verdict, Verdict::Bad(_))
    }
}

/// Solves or counts the puzzle `cells` (boxes `boxes`, `0` blank),
/// applying the label rule for `label` (ignored by `Count`, and by `Solve`
/// when `overwrite`). `answer` must be as long as `cells`; it holds the
/// answer written for `Answered` and `Kept` (zeros for `Bad`).
pub fn answer(
    boxes: Boxes,
    task: Task,
    label: Label<'_>,
    overwrite: bool,
    cells: &[u8],
    answer: &mut [u8],
) -> Outcome {
    if let Task::Analyse(a) = task {
        let mut fields = Vec::new();
        return analyse(boxes, a, cells, answer, &mut fields);
    }
    let label = match task {
        Task::Solve { .. } if !overwrite => label,
        _ => Label::Absent,
    };
    let outcome = match label {
        Label::Absent | Label::Empty => solve(boxes, task, cells, answer),
        Label::Unreadable(reason) => bad(RecordError::WrongLabel(reason), 0),
        Label::Cells(existing) => judge(boxes, task, cells, existing, answer),
    };
    if !outcome.is_good() {
        answer.fill(0);
    }
    outcome
}

fn bad(err: RecordError, guesses: u64) -> Outcome {
    Outcome {
        verdict: Verdict::Bad(err),
        guesses,
    }
}

/// An existing label: kept when it is a valid solution (checked on its own
/// terms, no search needed), and, under `--unique`, the puzzle has no other.
fn judge(boxes: Boxes, task: Task, cells: &[u8], existing: &[u8], answer: &mut [u8]) -> Outcome {
    if let Some(err) = clash(boxes, cells) {
        return bad(err, 0);
    }
    if let Err(reason) = solver::verify(boxes, cells, existing) {
        return bad(RecordError::WrongLabel(reason), 0);
    }
    let mut guesses = 0;
    if task == (Task::Solve { unique: true }) {
        let search = solver::solve(boxes, cells, 2, answer);
        guesses = search.guesses;
        if search.count > 1 {
            return bad(RecordError::MultipleSolutions, guesses);
        }
    }
    answer.copy_from_slice(existing);
    Outcome {
        verdict: Verdict::Kept,
        guesses,
    }
}

/// Clashing givens, as a record error naming the cells (`solve`'s and
/// `rate`'s reason for such a record).
pub(crate) fn clash(boxes: Boxes, cells: &[u8]) -> Option<RecordError> {
    if cells.len() != boxes.cells() {
        // Pencilmark flags (`solver::MARK_FLAGS`): no givens to clash.
        return None;
    }
    let side = boxes.side();
    solver::find_conflict(boxes, cells).map(|c| RecordError::Duplicate {
        digit: c.digit.to_string(),
        first: CellName::new(c.first, side),
        second: CellName::new(c.second, side),
    })
}

fn solve(boxes: Boxes, task: Task, cells: &[u8], answer: &mut [u8]) -> Outcome {
    let limit = match task {
        Task::Solve { unique } => 1 + u32::from(unique),
        Task::Count { limit } => limit,
        Task::Analyse(_) => unreachable!("analyses do not search"),
    };
    let search = solver::solve(boxes, cells, limit, answer);
    let guesses = search.guesses;
    if search.count == 0 {
        // Clashing givens are a malformed record for every task; a plain
        // dead end is an answer (`0`) for `count`.
        let err = clash(boxes, cells).unwrap_or(RecordError::NoSolution);
        if matches!(task, Task::Solve { .. }) || err != RecordError::NoSolution {
            return bad(err, guesses);
        }
    }
    match task {
        Task::Solve { .. } if search.count > 1 => bad(RecordError::MultipleSolutions, guesses),
        _ => Outcome {
            verdict: Verdict::Answered(search.count),
            guesses,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B2: Boxes = Boxes::square(2);

    /// A valid 4x4 grid; `puzzle()` blanks six of its cells so that it has
    /// exactly two solutions.
    const GRID: [u8; 16] = [3, 4, 1, 2, 1, 2, 3, 4, 4, 3, 2, 1, 2, 1, 4, 3];

    fn puzzle() -> [u8; 16] {
        let mut p = GRID;
        for i in [6, 7, 10, 11, 14, 15] {
            p[i] = 0;
        }
        p
    }

    fn is_solution(p: &[u8], a: &[u8]) -> bool {
        solver::verify(crate::solver::Boxes::square(2), p, a).is_ok()
    }

    #[test]
    fn empty_and_absent_labels_are_filled() {
        let p = puzzle();
        for label in [Label::Absent, Label::Empty] {
            let mut out = [0u8; 16];
            let o = answer(
                B2,
                Task::Solve { unique: false },
                label,
                false,
                &p,
                &mut out,
            );
            assert_eq!(o.verdict, Verdict::Answered(1));
            assert!(is_solution(&p, &out));
        }
    }

    #[test]
    fn a_valid_label_is_kept_even_when_the_solver_would_differ() {
        let p = puzzle();
        let mut out = [0u8; 16];
        let first = answer(
            B2,
            Task::Count { limit: 3 },
            Label::Absent,
            false,
            &p,
            &mut out,
        );
        assert_eq!(
            first.verdict,
            Verdict::Answered(2),
            "the puzzle is ambiguous"
        );
        // The two solutions: GRID, and GRID with r2c3/r2c4 and r4c3/r4c4
        // swapped (rows 2 and 4 both need 3 and 4 there).
        let mut other = GRID;
        other.swap(6, 7);
        other.swap(14, 15);
        assert_ne!(other, GRID);
        for label in [GRID, other] {
            assert!(is_solution(&p, &label));
            let mut out = [0u8; 16];
            let o = answer(
                B2,
                Task::Solve { unique: false },
                Label::Cells(&label),
                false,
                &p,
                &mut out,
            );
            assert_eq!(o.verdict, Verdict::Kept);
            assert_eq!(out, label);
            let o = answer(
                B2,
                Task::Solve { unique: true },
                Label::Cells(&label),
                false,
                &p,
                &mut out,
            );
            assert_eq!(o.verdict, Verdict::Bad(RecordError::MultipleSolutions));
            assert_eq!(out, [0; 16]);
        }
    }

    #[test]
    fn a_wrong_label_is_bad_unless_overwritten() {
        let p = puzzle();
        let mut wrong = GRID;
        wrong.swap(0, 1); // changes two givens
        let mut out = [9u8; 16];
        let o = answer(
            B2,
            Task::Solve { unique: false },
            Label::Cells(&wrong),
            false,
            &p,
            &mut out,
        );
        match o.verdict {
            Verdict::Bad(RecordError::WrongLabel(reason)) => assert!(reason.contains("given")),
            v => panic!("{v:?}"),
        }
        assert_eq!(out, [0; 16]);
        let o = answer(
            B2,
            Task::Solve { unique: false },
            Label::Cells(&wrong),
            true,
            &p,
            &mut out,
        );
        assert_eq!(o.verdict, Verdict::Answered(1));
        assert!(is_solution(&p, &out));
        let o = answer(
            B2,
            Task::Solve { unique: false },
            Label::Unreadable("expected 16 cells, found 3".into()),
            false,
            &p,
            &mut out,
        );
        assert_eq!(
            o.verdict,
            Verdict::Bad(RecordError::WrongLabel("expected 16 cells, found 3".into()))
        );
    }

    #[test]
    fn clashing_givens_and_dead_ends() {
        let mut p = [0u8; 16];
        p[0] = 1;
        p[1] = 1;
        let mut out = [0u8; 16];
        for task in [Task::Solve { unique: false }, Task::Count { limit: 2 }] {
            let o = answer(B2, task, Label::Absent, false, &p, &mut out);
            assert!(
                matches!(o.verdict, Verdict::Bad(RecordError::Duplicate { .. })),
                "{o:?}"
            );
        }
        // Consistent givens, no solution: r1c3 needs 3 or 4 (row), but
        // column 3 has a 3 and its box a 4.
        let dead = [1, 2, 0, 0, 0, 0, 0, 4, 0, 0, 3, 0, 0, 0, 0, 0];
        let o = answer(
            B2,
            Task::Count { limit: 2 },
            Label::Absent,
            false,
            &dead,
            &mut out,
        );
        assert_eq!(o.verdict, Verdict::Answered(0));
        let o = answer(
            B2,
            Task::Solve { unique: false },
            Label::Absent,
            false,
            &dead,
            &mut out,
        );
        assert_eq!(o.verdict, Verdict::Bad(RecordError::NoSolution));
    }
}
