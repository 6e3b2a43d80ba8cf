//! The `rate` command's plug into the bulk pipeline ([`crate::record::Analysis`]):
//! puzzle cells in, `er`, `ep`, `ed` (numbers) and `rate_status` fields
//! out, and with `steps` each record's `--steps` JSON object as the
//! analysis's side line (the CLI and the Python binding both run this).
//! Pure: strings out, no I/O.

use super::{Outcome, Rater, Step, Tenths};
use crate::record::{Analysis, RecordError};
use crate::solver::Boxes;

/// Rates each record (9x9 only): `4.2`, `1.5`, `1.2` in `er`, `ep`, `ed`
/// and `ok` in `rate_status`. A puzzle whose path needs a technique the
/// rater does not have has no ER (an empty field: null in tables; EP and
/// ED too when the path stopped before them, they are exact when given)
/// and `unrated` in `rate_status`; one-line text writes `unrated` for
/// each missing number ([`Analysis::line`]). No or several solutions make
/// the record bad, as `solve --unique` does (its reason in `rate_status`).
/// With `steps`, each record also gets its solving path as a side line
/// ([`steps_json`]; `rate --steps`, Python's `rate(steps=True)`).
#[derive(Debug)]
pub struct RateAnalysis {
    /// The rater (its technique set).
    pub rater: Rater,
    /// The names of its columns, [`RateAnalysis::COLUMNS`] unless the user named others
    /// (`rate --er-column rating`).
    pub columns: [&'static str; 4],
    /// Write each record's path as the side line ([`Analysis::side`]).
    pub steps: bool,
    /// The error of a grid that is not 9x9 ([`RateAnalysis::new`]: the
    /// CLI's `expected 81 cells, found N`).
    pub not_nine: fn(Boxes) -> RecordError,
}

impl RateAnalysis {
    /// The columns `rate` adds by default: the three ratings, then the
    /// status (`ok`, `unrated` or a bad record's reason).
    pub const COLUMNS: [&'static str; 4] = ["er", "ep", "ed", "rate_status"];

    /// Rates with `rater`, no side line; a grid that is not 9x9 is
    /// `expected 81 cells, found N`, as the CLI reports a record of the
    /// wrong length.
    pub fn new(rater: Rater) -> RateAnalysis {
        RateAnalysis {
            rater,
            columns: RateAnalysis::COLUMNS,
            steps: false,
            not_nine: |boxes| RecordError::WrongLength {
                expected: 81,
                found: boxes.cells(),
            },
        }
    }
}

/// `4.2` for 42.
pub fn tenths(t: Tenths) -> String {
    format!("{}.{}", t / 10, t % 10)
}

/// A 9x9 grid's cells as a one-line puzzle, `.` blank.
fn line_of(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
        .collect()
}

impl Analysis for RateAnalysis {
    fn name(&self) -> &'static str {
        "rate"
    }
    fn grid_column(&self) -> Option<&'static str> {
        None
    }
    fn columns(&self) -> &[&'static str] {
        &self.columns
    }
    fn number(&self, k: usize) -> bool {
        k < 3
    }
    fn status(&self) -> Option<usize> {
        Some(3)
    }
    fn keeps_puzzle(&self) -> bool {
        true
    }
    /// `ER/EP/ED`, `unrated` for a missing number; no status.
    fn line(&self, fields: &[String]) -> String {
        let shown: Vec<&str> = fields
            .iter()
            .take(3)
            .map(|f| if f.is_empty() { "unrated" } else { f })
            .collect();
        shown.join("/")
    }
    fn side(&self) -> bool {
        self.steps
    }
    fn side_of_bad(&self, cells: Option<&[u8]>, err: &RecordError) -> String {
        let puzzle = cells
            .filter(|c| c.len() == 81 && c.iter().all(|&v| v <= 9))
            .map(line_of);
        bad_json(puzzle.as_deref(), err)
    }
    fn analyse(
        &self,
        boxes: Boxes,
        cells: &[u8],
        _grid: &mut [u8],
        fields: &mut Vec<String>,
    ) -> Result<(), RecordError> {
        if boxes != Boxes::NINE {
            // serate's ratings exist for 9x9 only.
            return Err((self.not_nine)(boxes));
        }
        if cells.len() != 81 || cells.iter().any(|&v| v > 9) {
            // A pencilmark record: serate rates puzzles from their givens.
            return Err(RecordError::Unsupported(
                "a pencilmark record cannot be rated: rate takes puzzles (givens only)".into(),
            ));
        }
        let mut path = Vec::new();
        let outcome = if self.steps {
            self.rater.rate_steps(cells, &mut path)
        } else {
            self.rater.rate(cells)
        };
        match outcome {
            Outcome::Rated(r) => {
                fields.extend([tenths(r.er), tenths(r.ep), tenths(r.ed), "ok".into()]);
            }
            Outcome::Unrated { so_far, .. } => {
                let known = |t: Tenths| if t == 0 { String::new() } else { tenths(t) };
                fields.extend([
                    String::new(),
                    known(so_far.ep),
                    known(so_far.ed),
                    "unrated".into(),
                ]);
            }
            // Clashing givens are named as `solve` names them.
            Outcome::NotUnique { solutions: 0 } => {
                return Err(crate::record::clash(boxes, cells).unwrap_or(RecordError::NoSolution))
            }
            Outcome::NotUnique { .. } => return Err(RecordError::MultipleSolutions),
        }
        if self.steps {
            fields.push(steps_json(&line_of(cells), &outcome, &path));
        }
        Ok(())
    }
}

/// `text` as a JSON string, quotes included: `"`, `\\` and control
/// characters escaped.
fn json_string(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            c if c.is_control() => s.push_str(&format!("\\u{:04x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// The `--steps` line of a bad record: `status` `no solution` or `multiple
/// solutions` (with the puzzle), else `error` with the reason (`puzzle`
/// null when the record could not be read); no numbers, no steps.
fn bad_json(puzzle: Option<&str>, err: &RecordError) -> String {
    let puzzle = puzzle.map_or("null".to_string(), json_string);
    let status = match err {
        RecordError::NoSolution => "\"no solution\"".to_string(),
        RecordError::MultipleSolutions => "\"multiple solutions\"".to_string(),
        e => format!("\"error\",\"error\":{}", json_string(&e.to_string())),
    };
    format!(
        "{{\"puzzle\":{puzzle},\"status\":{status},\"er\":null,\"ep\":null,\"ed\":null,\"steps\":[]}}"
    )
}

fn cell_name(c: u8) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

/// One puzzle's `--steps` line: `{"puzzle":..., "status":..., "er":...,
/// "ep":..., "ed":..., "steps":[{"technique":..., "id":..., "rating":...,
/// "placed":{"cell":"r1c2","digit":5} or null, "eliminated":[...],
/// "cells":[...] for a pattern (a unique loop's cells, in loop order),
/// "inner":[...] for Nested Forcing Chains: the chains nested in the
/// step's chains, each `{"technique", "id", "rating", "eliminated"}` and
/// `"cells"` for a forcing chain or cycle ([`super::Step::inner`])}]}`.
/// `status` is `rated`, `unrated` (with `"next"`: the technique the path
/// stopped at), `no solution` or `multiple solutions` (a bad record's line,
/// [`Analysis::side_of_bad`], may also be `error`, with `"error"`: the
/// reason); ratings are strings as serate prints them, `null` when
/// unknown (an unrated puzzle's ER, and its EP and ED when the path
/// stopped before them). A rated puzzle has all three: an already solved
/// grid is `0.0` (no step), as the other outputs write it.
pub fn steps_json(puzzle: &str, outcome: &Outcome, steps: &[Step]) -> String {
    let num = |t: Tenths| {
        if t == 0 {
            "null".to_string()
        } else {
            format!("\"{}\"", tenths(t))
        }
    };
    let rated = |t: Tenths| format!("\"{}\"", tenths(t));
    let mut s = format!("{{\"puzzle\":{},", json_string(puzzle));
    match outcome {
        Outcome::Rated(r) => {
            s += &format!(
                "\"status\":\"rated\",\"er\":{},\"ep\":{},\"ed\":{},",
                rated(r.er),
                rated(r.ep),
                rated(r.ed)
            )
        }
        Outcome::Unrated { next, so_far } => {
            s += &format!(
                "\"status\":\"unrated\",\"next\":{},\"er\":null,\"ep\":{},\"ed\":{},",
                next.map_or("null".to_string(), |t| format!("\"{}\"", t.id())),
                num(so_far.ep),
                num(so_far.ed)
            )
        }
        Outcome::NotUnique { solutions } => {
            let what = if *solutions == 0 {
                "no solution"
            } else {
                "multiple solutions"
            };
            s += &format!("\"status\":\"{what}\",\"er\":null,\"ep\":null,\"ed\":null,");
        }
    }
    s += "\"steps\":[";
    for (i, st) in steps.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let placed = st.placed.map_or("null".to_string(), |(c, d)| {
            format!("{{\"cell\":\"{}\",\"digit\":{d}}}", cell_name(c))
        });
        let elims: Vec<String> = st
            .eliminated
            .iter()
            .map(|&(c, d)| format!("{{\"cell\":\"{}\",\"digit\":{d}}}", cell_name(c)))
            .collect();
        s += &format!(
            "{{\"technique\":\"{}\",\"id\":\"{}\",\"rating\":\"{}\",\"placed\":{placed},\"eliminated\":[{}]",
            st.technique.name(),
            st.technique.id(),
            tenths(st.rating),
            elims.join(",")
        );
        if !st.cells.is_empty() {
            let cells: Vec<String> = st
                .cells
                .iter()
                .map(|&c| format!("\"{}\"", cell_name(c)))
                .collect();
            s += &format!(",\"cells\":[{}]", cells.join(","));
        }
        if !st.inner.is_empty() {
            let inner: Vec<String> = st
                .inner
                .iter()
                .map(|c| {
                    let mut t = format!(
                        "{{\"technique\":\"{}\",\"id\":\"{}\",\"rating\":\"{}\",\"eliminated\":[{}]",
                        c.technique.name(),
                        c.technique.id(),
                        tenths(c.rating),
                        c.eliminated
                            .iter()
                            .map(|&(c, d)| format!("{{\"cell\":\"{}\",\"digit\":{d}}}", cell_name(c)))
                            .collect::<Vec<_>>()
                            .join(",")
                    );
                    if !c.cells.is_empty() {
                        let cells: Vec<String> =
                            c.cells.iter().map(|&c| format!("\"{}\"", cell_name(c))).collect();
                        t += &format!(",\"cells\":[{}]", cells.join(","));
                    }
                    t.push('}');
                    t
                })
                .collect();
            s += &format!(",\"inner\":[{}]", inner.join(","));
        }
        s.push('}');
    }
    s += "]}";
    s
}
