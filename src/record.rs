//! One record's work, shared by every data shape (text records, Parquet and
//! Arrow columns, NumPy arrays, the Python package): parsed cells in, a
//! [`Verdict`] out, with the one rule for labels (solutions) a dataset
//! already holds. `pipeline` and `batch` call it; nothing here does I/O.
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

use crate::format::RecordError;
use crate::solver;
use crate::solver::Boxes;

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

/// Clashing givens, as a record error naming the cells.
fn clash(boxes: Boxes, cells: &[u8]) -> Option<RecordError> {
    if cells.len() != boxes.cells() {
        // Pencilmark flags (`solver::MARK_FLAGS`): no givens to clash.
        return None;
    }
    let side = boxes.side();
    solver::find_conflict(boxes, cells).map(|c| RecordError::Duplicate {
        digit: c.digit.to_string(),
        first: crate::format::CellName::new(c.first, side),
        second: crate::format::CellName::new(c.second, side),
    })
}

fn solve(boxes: Boxes, task: Task, cells: &[u8], answer: &mut [u8]) -> Outcome {
    let limit = match task {
        Task::Solve { unique } => 1 + u32::from(unique),
        Task::Count { limit } => limit,
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
