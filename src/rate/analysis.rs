//! The `rate` command's plug into the bulk pipeline ([`crate::record::Analysis`]):
//! puzzle cells in, `er`, `ep`, `ed` text fields out; and the `--steps`
//! JSON object of one puzzle. Pure: strings out, no I/O.

use super::{Outcome, Rater, Step, Tenths};
use crate::record::{Analysis, RecordError};
use crate::solver::Boxes;

/// Rates each record (9x9 only): `4.2`, `1.5`, `1.2` in `er`, `ep`, `ed`.
/// A puzzle whose path needs a technique the rater does not have gets
/// `unrated` for ER (EP and ED too when the path stopped before them; they
/// are exact when given). No or several solutions make the record bad, as
/// `solve --unique` does.
#[derive(Debug)]
pub struct RateAnalysis {
    /// The rater (its technique set).
    pub rater: Rater,
}

/// `4.2` for 42.
pub fn tenths(t: Tenths) -> String {
    format!("{}.{}", t / 10, t % 10)
}

impl Analysis for RateAnalysis {
    fn name(&self) -> &'static str {
        "rate"
    }
    fn grid_column(&self) -> Option<&'static str> {
        None
    }
    fn columns(&self) -> &[&'static str] {
        &["er", "ep", "ed"]
    }
    fn keeps_puzzle(&self) -> bool {
        true
    }
    fn line_join(&self) -> &'static str {
        "/"
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
            return Err(RecordError::WrongLength {
                expected: 81,
                found: cells.len(),
            });
        }
        match self.rater.rate(cells) {
            Outcome::Rated(r) => {
                fields.extend([tenths(r.er), tenths(r.ep), tenths(r.ed)]);
            }
            Outcome::Unrated { so_far, .. } => {
                let known = |t: Tenths| {
                    if t == 0 {
                        "unrated".to_string()
                    } else {
                        tenths(t)
                    }
                };
                fields.extend(["unrated".to_string(), known(so_far.ep), known(so_far.ed)]);
            }
            Outcome::NotUnique { solutions: 0 } => return Err(RecordError::NoSolution),
            Outcome::NotUnique { .. } => return Err(RecordError::MultipleSolutions),
        }
        Ok(())
    }
}

fn cell_name(c: u8) -> String {
    format!("r{}c{}", c / 9 + 1, c % 9 + 1)
}

/// One puzzle's `--steps` line: `{"puzzle":..., "status":..., "er":...,
/// "ep":..., "ed":..., "steps":[{"technique":..., "id":..., "rating":...,
/// "placed":{"cell":"r1c2","digit":5} or null, "eliminated":[...],
/// "cells":[...] for a pattern (a unique loop's cells, in loop order)}]}`.
/// `status` is `rated`, `unrated` (with `"next"`: the technique the path
/// stopped at), `no solution` or `multiple solutions`; ratings are strings
/// as serate prints them, `null` when unknown.
pub fn steps_json(puzzle: &str, outcome: &Outcome, steps: &[Step]) -> String {
    let num = |t: Tenths| {
        if t == 0 {
            "null".to_string()
        } else {
            format!("\"{}\"", tenths(t))
        }
    };
    let puzzle: String = puzzle
        .chars()
        .map(|c| {
            if c == '"' || c == '\\' || c.is_control() {
                '?'
            } else {
                c
            }
        })
        .collect();
    let mut s = format!("{{\"puzzle\":\"{puzzle}\",");
    match outcome {
        Outcome::Rated(r) => {
            s += &format!(
                "\"status\":\"rated\",\"er\":{},\"ep\":{},\"ed\":{},",
                num(r.er),
                num(r.ep),
                num(r.ed)
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
        s.push('}');
    }
    s += "]}";
    s
}
