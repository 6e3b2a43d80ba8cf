//! The `check` subcommand's engine: walks a puzzle file and an answer file
//! record by record (or one CSV's puzzle and solution columns) and verifies
//! each answer on its own terms: a full valid grid that keeps the puzzle's
//! givens. Never asks a solver.

use crate::record::At;
use crate::solver;
use crate::solver::Boxes;
use crate::text::detect::{self, Detected, Forced};
use crate::text::{
    classify_line, quote, CellName, CsvColumns, Item, Layout, Line, RecordError, Records, Shape,
};

/// Bad records listed in full; the rest are only counted.
pub const SHOWN: usize = 20;

/// The outcome of a check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Record pairs compared.
    pub records: u64,
    /// Pairs whose answer is right.
    pub good: u64,
    /// Pairs whose answer is wrong (all of them, not just those listed).
    pub bad: u64,
    /// The first [`SHOWN`] bad records: where in the answer file (a text
    /// record's [`At`], `row R` of a table, both 1-based), reason.
    pub shown: Vec<(String, String)>,
    /// Set when the files have different numbers of records.
    pub count_mismatch: Option<(u64, u64)>,
}

impl Report {
    /// Counts the next record, which starts on `line` (the first record is
    /// row 1 whatever line it starts on).
    fn record(&mut self, line: u64, verdict: Result<(), String>) {
        let at = At {
            line,
            row: self.records + 1,
        };
        self.records += 1;
        match verdict {
            Ok(()) => self.good += 1,
            Err(reason) => {
                self.bad += 1;
                if self.shown.len() < SHOWN {
                    self.shown.push((at.to_string(), reason));
                }
            }
        }
    }

    /// True when every answer is right and the counts match.
    pub fn ok(&self) -> bool {
        self.bad == 0 && self.count_mismatch.is_none()
    }
}

/// The records of `data` with their line numbers in the file, up to `end`.
fn records<'a>(
    layout: &'a Layout,
    data: &'a [u8],
    skip_lines: u64,
) -> impl Iterator<Item = (u64, &'a [u8])> + 'a {
    Records::new(layout, data).map_while(move |item| match item {
        Item::End => None,
        Item::Record { line, raw } => Some((skip_lines + line, raw)),
    })
}

fn parse_answer(layout: &Layout, raw: &[u8], cells: &mut [u8]) -> Result<(), String> {
    let text = raw.trim_ascii();
    if text.starts_with(b"error:") {
        return Err(format!("no answer ({})", quote(text)));
    }
    layout.parse(raw, cells).map_err(|e| e.to_string())
}

/// An answer on its own terms, with blanks named by cell (`cell 5 (r1c5) is
/// blank`) before the grid rules are checked.
fn verify(boxes: Boxes, puzzle: &[u8], answer: &[u8]) -> Result<(), String> {
    let side = boxes.side();
    if let Some(i) = answer.iter().position(|&v| v == 0) {
        return Err(format!(
            "cell {} ({}) is blank",
            i + 1,
            CellName::new(i, side)
        ));
    }
    solver::verify(boxes, puzzle, answer)
}

/// Bytes and lines up to the end of the first content line (a header).
fn first_line_end(data: &[u8]) -> (usize, u64) {
    let (mut pos, mut lines) = (0, 0);
    while pos < data.len() {
        let end = memchr::memchr(b'\n', &data[pos..]).map_or(data.len(), |i| pos + i + 1);
        lines += 1;
        let text = matches!(classify_line(&data[pos..end]), Line::Text(_));
        pos = end;
        if text {
            break;
        }
    }
    (pos, lines)
}

/// The layout that reads answers of a delimited file as `solve` wrote them:
/// the solution field (or the one `solve` appended) becomes the field read.
fn answer_layout(found: &Detected, data: &[u8]) -> Layout {
    let layout = &found.layout;
    let Shape::Csv(cols) = layout.shape else {
        return layout.clone();
    };
    let column = cols.solution.unwrap_or_else(|| {
        // `solve` appended the answer after the row's last field.
        let row = if found.preamble.is_empty() {
            let rows = &data[found.skip_bytes..];
            let (end, _) = first_line_end(rows);
            &rows[..end]
        } else {
            &found.preamble[..]
        };
        let fields = row.trim_ascii().split(|&b| b == cols.delim).count();
        if found.preamble.is_empty() {
            fields
        } else {
            fields - 1
        }
    });
    Layout::new(
        Shape::Csv(CsvColumns {
            puzzle: column,
            solution: None,
            delim: cols.delim,
        }),
        layout.boxes,
        layout.symbols,
    )
}

/// Checks `answers` against `puzzles` (each any layout `solve` reads; the
/// answers usually in the puzzles' layout, as `solve` writes them).
pub fn check_files(puzzles: &[u8], answers: &[u8], forced: &Forced) -> Result<Report, String> {
    let puzzles = crate::pipeline::strip_bom(puzzles);
    let answers = crate::pipeline::strip_bom(answers);
    let pf = detect::detect(puzzles, forced).map_err(|e| format!("puzzles:{e}"))?;
    let (al, askip, askip_lines) = if let Shape::Csv(_) = pf.layout.shape {
        // Delimited answers are read as `solve` wrote them: the solution
        // field, after a header if the puzzles had one (whatever the
        // answers' own first row looks like).
        let (skip, lines) = if pf.preamble.is_empty() {
            (0, 0)
        } else {
            first_line_end(answers)
        };
        (answer_layout(&pf, puzzles), skip, lines)
    } else {
        // Answers have no count line and may hold `error:` marks that
        // defeat detection: fall back to the puzzles' layout.
        match detect::detect(answers, forced) {
            Ok(a) if a.layout.boxes == pf.layout.boxes => {
                (answer_layout(&a, answers), a.skip_bytes, a.skip_lines)
            }
            _ => (pf.layout.clone(), 0, 0),
        }
    };
    let pl = &pf.layout;
    // The answers' own cells: 81 for pencilmark puzzles' 729 flags.
    let (mut p, mut a) = (vec![0u8; pl.cells()], vec![0u8; al.cells()]);
    let mut report = Report::default();
    let mut prs = records(pl, &puzzles[pf.skip_bytes..], pf.skip_lines);
    let mut ars = records(&al, &answers[askip..], askip_lines);
    let (mut np, mut na) = (0u64, 0u64);
    loop {
        match (prs.next(), ars.next()) {
            (Some((pline, praw)), Some((aline, araw))) => {
                np += 1;
                na += 1;
                let at = At {
                    line: pline,
                    row: np,
                };
                let verdict = match pl.parse(praw, &mut p) {
                    Err(e) => Err(format!("puzzle at line {at} is bad: {e}")),
                    Ok(()) => {
                        parse_answer(&al, araw, &mut a).and_then(|()| verify(pl.boxes, &p, &a))
                    }
                };
                report.record(aline, verdict);
            }
            (Some(_), None) => np += 1,
            (None, Some(_)) => na += 1,
            (None, None) => break,
        }
    }
    if np != na {
        report.count_mismatch = Some((np, na));
    }
    Ok(report)
}

/// Checks a delimited dataset's own solution field against its puzzle field
/// (CSV or TSV with a header, headerless `puzzle,solution` rows, tdoku
/// `puzzle:count:solution` lines).
pub fn check_csv(data: &[u8], forced: &Forced) -> Result<Report, String> {
    let data = crate::pipeline::strip_bom(data);
    let found = detect::detect(data, forced)?;
    let Shape::Csv(cols) = found.layout.shape else {
        return Err(
            " one file given, but it has no solution field (a CSV/TSV solution column, \
             `puzzle,solution` rows or tdoku lines); give PUZZLES and ANSWERS"
                .into(),
        );
    };
    let Some(sol) = cols.solution else {
        return Err(" the file has no solution field to check".into());
    };
    let layout = &found.layout;
    let answer_layout = Layout::new(
        Shape::Csv(CsvColumns {
            puzzle: sol,
            solution: None,
            delim: cols.delim,
        }),
        layout.boxes,
        layout.symbols,
    );
    let n = layout.cells();
    let (mut p, mut a) = (vec![0u8; n], vec![0u8; n]);
    let mut report = Report::default();
    for (line, raw) in records(layout, &data[found.skip_bytes..], found.skip_lines) {
        let verdict = match layout.parse(raw, &mut p) {
            Err(e) => Err(format!("puzzle is bad: {e}")),
            Ok(()) => answer_layout
                .parse(raw, &mut a)
                .map_err(|e| match e {
                    RecordError::WrongLength { found: 0, .. } => "solution is empty".to_string(),
                    e => format!("solution: {e}"),
                })
                .and_then(|()| verify(layout.boxes, &p, &a)),
        };
        report.record(line, verdict);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const A: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    #[test]
    fn swapped_digits_changed_givens_and_missing_answers() {
        // Swap two non-given digits in one row: the columns break.
        let mut swapped = A.as_bytes().to_vec();
        swapped.swap(1, 2);
        let swapped = String::from_utf8(swapped).unwrap();
        let answers = format!("{A}\n{swapped}\nerror: no solution\n");
        let puzzles = format!("{P}\n{P}\n{P}\n{P}\n");
        let r = check_files(puzzles.as_bytes(), answers.as_bytes(), &Forced::default()).unwrap();
        assert_eq!((r.records, r.good, r.bad), (3, 1, 2));
        assert_eq!(r.shown[0].0, "2");
        assert!(r.shown[0].1.contains("both hold"), "{:?}", r.shown);
        assert_eq!(r.shown[1].0, "3");
        assert!(r.shown[1].1.starts_with("no answer"));
        assert_eq!(r.count_mismatch, Some((4, 3)));
        assert!(!r.ok());
    }

    #[test]
    fn csv_checks_its_own_solution_column() {
        let mut changed = A.as_bytes().to_vec();
        changed[0] = b'1'; // the given 4 at r1c1 changed
        let changed = String::from_utf8(changed).unwrap();
        let csv = format!("id,puzzle,solution\n1,{P},{A}\n2,{P},{changed}\n");
        let r = check_csv(csv.as_bytes(), &Forced::default()).unwrap();
        assert_eq!((r.records, r.good, r.bad), (2, 1, 1));
        // Line 3 of the file, the second data row.
        assert_eq!(r.shown[0].0, "3 (row 2)");
        assert!(r.shown[0].1.contains("given"), "{:?}", r.shown);
        assert!(check_csv(P.as_bytes(), &Forced::default()).is_err());
    }
}
