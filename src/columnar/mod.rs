//! Column- and array-shaped inputs (Parquet, Arrow IPC file and stream, NumPy
//! `.npy`): `cmd` tells them apart by their first bytes ([`crate::input::peek_kind`])
//! and hands the run's bytes here with a [`Job`]. Each format's module turns
//! its data into fixed-size rows of cells, which are solved (or analysed) in
//! parallel under the label rule of [`crate::record`]; the answers go back
//! out in the input's format (or as text lines, or another format named by
//! `-o`'s extension), in row order, into the [`Output`] `cmd` made. What a
//! run's end means (exit status, summary, an abandoned output) is `cmd`'s:
//! nothing here imports it.
//!
//! ```text
//! input bytes ── cmd ──> npy     (header + raw array, memory-mapped)
//!                   └──> table   (Parquet row groups / Arrow record batches,
//!                                 read and written by `parquet` and `ipc`
//!                                 through the shared `batches` vocabulary)
//!         rows of cells ──> solve_step ──> answers + outcomes (+ fields)
//!         answers ──> same format (column filled or added) | text lines
//! ```
//!
//! Rows are counted from 0 in messages (`FILE:row R: reason`), as NumPy and
//! DataFrame indices are.

// Without the `columnar` feature (the Python package's build) only `.npy`
// is here, and the table vocabulary it shares with Parquet and Arrow goes
// unused.
#![cfg_attr(not(feature = "columnar"), allow(dead_code))]

use crate::solver::Boxes;
use anyhow::Context;
use std::io::{BufRead, Write};
use std::path::Path;

use crate::check::Report;
pub use crate::input::Kind;
use crate::output::{Named, Output, Reporter};
use crate::pipeline::{OnError, Tally, Task};
use crate::record::{Outcome, Verdict};
use crate::text::detect::{Forced, ShapeName};
use crate::text::{Layout, RecordError, Symbols};

pub mod npy;

#[cfg(feature = "columnar")]
mod batches;
#[cfg(feature = "columnar")]
pub mod copy;
#[cfg(feature = "columnar")]
mod guard;
#[cfg(feature = "columnar")]
pub mod ipc;
#[cfg(feature = "columnar")]
pub mod parquet;
#[cfg(feature = "columnar")]
pub mod table;

/// Where answers go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A columnar format.
    Columnar(Kind),
    /// One answer line per row (`error: REASON` for a bad row).
    Text,
}

/// The output format of a run over a `kind` input named `name`: the one
/// `-o`'s extension names (see [`Named`]), else the input's. A name asking
/// for a format this input cannot be written in (a table as `.npy` or CSV,
/// an array as a table or CSV) is refused here, before any output exists.
pub fn target(kind: Kind, name: &str, output: Option<&Path>) -> anyhow::Result<Target> {
    let (Some(path), Some(named)) = (output, Named::of(output)) else {
        return Ok(Target::Columnar(kind));
    };
    match (kind, named) {
        (_, Named::Text) => Ok(Target::Text),
        (Kind::Npy, Named::Columnar(Kind::Npy)) => Ok(Target::Columnar(Kind::Npy)),
        (Kind::Npy, _) => Err(named.refuse(
            path,
            &format!("the answers of {name} (a NumPy .npy array)"),
            "NumPy (.npy) or answer lines (.txt)",
        )),
        (_, Named::Columnar(to)) if to != Kind::Npy => Ok(Target::Columnar(to)),
        _ => Err(named.refuse(
            path,
            &format!("the answers of {name} ({} table)", kind.a_row_name()),
            "Parquet (.parquet), Arrow IPC (.arrow, .arrows) or answer lines (.txt)",
        )),
    }
}

/// The codec a table output's columns are written with, when the user names
/// one (`--compression`); without it a table output follows its input's
/// codecs. Parquet has all five (LZ4 as `LZ4_RAW`); Arrow IPC bodies only
/// zstd and LZ4 (frame), or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableCodec {
    /// Uncompressed.
    None,
    /// Snappy (Parquet only).
    Snappy,
    /// Zstandard (level 1 in Parquet, the crate's default).
    Zstd,
    /// Gzip (Parquet only).
    Gzip,
    /// LZ4: `LZ4_RAW` in Parquet, `LZ4_FRAME` in Arrow IPC.
    Lz4,
}

impl TableCodec {
    /// Its name as `--compression` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TableCodec::None => "none",
            TableCodec::Snappy => "snappy",
            TableCodec::Zstd => "zstd",
            TableCodec::Gzip => "gzip",
            TableCodec::Lz4 => "lz4",
        }
    }

    /// `--compression` on a command whose output is its input's kind
    /// (`dedupe`, `split`, `augment`): checked before any work, refused
    /// for text and `.npy` inputs and for a codec the kind does not have
    /// (snappy and gzip are Parquet's only).
    pub fn check_copy(choice: Option<TableCodec>, name: &str, kind: Option<Kind>) -> anyhow::Result<()> {
        let Some(c) = choice else { return Ok(()) };
        match kind {
            Some(Kind::Parquet) => Ok(()),
            Some(Kind::ArrowFile | Kind::ArrowStream) => match c {
                TableCodec::Snappy | TableCodec::Gzip => anyhow::bail!(
                    "{name}: --compression {}: Arrow IPC bodies are compressed with zstd or lz4 \
                     (or none); {} is for Parquet",
                    c.name(),
                    c.name()
                ),
                _ => Ok(()),
            },
            Some(Kind::Npy) | None => anyhow::bail!(
                "{name}: --compression {} applies to Parquet and Arrow outputs; this input's \
                 records are written as they are read (`--compress` compresses a text output)",
                c.name()
            ),
        }
    }
}

/// A bulk run over a columnar input, as the format modules see it.
pub struct Job<'a> {
    /// The input's name in messages.
    pub name: &'a str,
    /// Solve or count.
    pub task: Task,
    /// Worker threads.
    pub threads: usize,
    /// Bad-row policy.
    pub on_error: OnError,
    /// Add guesses and level.
    pub stats: bool,
    /// Replace existing labels.
    pub overwrite: bool,
    /// What the user said of the columns.
    pub asked: Asked<'a>,
    /// Output path (`None`: stdout).
    pub output: Option<&'a Path>,
    /// `--compression`: the table output's codec (`None`: the input's).
    pub compression: Option<TableCodec>,
    /// The worker threads rows are solved on.
    pub pool: &'a rayon::ThreadPool,
    /// Progress bar (hidden unless stderr is a terminal).
    pub reporter: std::sync::Mutex<Reporter>,
    /// Where an analysis's side lines go ([`crate::record::Analysis::side`],
    /// `rate --steps`), one per row in row order; `None` without one.
    pub side: Option<&'a std::sync::Mutex<Output>>,
}

/// Rows solved per step: enough to keep every worker busy, few enough that
/// the cells, answers and decoded columns of one step stay a few MiB.
pub const ROWS_PER_STEP: usize = 1 << 15;

/// The input's bytes: a mapped or read file, or stdin for a stream.
pub enum Data<'a> {
    /// A whole input file (mapped or read) and its path, which Parquet
    /// reopens to read pages at will (only Parquet reads the path).
    File(&'a Path, &'a [u8]),
    /// The whole input, read from stdin.
    Owned(Vec<u8>),
    /// A stream (stdin, a pipe, a decompressed file), read front to back
    /// (Arrow IPC stream only).
    Stream(Box<dyn BufRead + Send>),
}

impl Data<'_> {
    /// All the input's bytes when they are at hand (a file or what stdin
    /// held), for checks that look ahead before a reader sizes anything
    /// from them; `None` for a stream.
    pub fn whole(&self) -> Option<&[u8]> {
        match self {
            Data::File(_, bytes) => Some(bytes),
            Data::Owned(v) => Some(v),
            Data::Stream(_) => None,
        }
    }
}

/// How a run ended.
pub enum Run {
    /// Every row written; the totals.
    Done(Tally),
    /// `--on-error fail` stopped at a bad row (already reported).
    Failed,
}

/// Runs `job` over a `kind` input's `data`, writing answers as `target`
/// says into `out`. Bad rows are reported through the job's reporter;
/// what the run's end means (exit status, summary) is the caller's.
pub fn run(
    job: &Job<'_>,
    kind: Kind,
    data: Data<'_>,
    target: Target,
    out: &mut Output,
) -> anyhow::Result<Run> {
    match kind {
        Kind::Npy => {
            let bytes = match &data {
                Data::File(_, d) => *d,
                Data::Owned(v) => &v[..],
                Data::Stream(_) => unreachable!("only Arrow streams are streamed"),
            };
            npy::run(job, bytes, target, out)
        }
        #[cfg(feature = "columnar")]
        Kind::Parquet | Kind::ArrowFile | Kind::ArrowStream => {
            table::run(job, kind, data, target, out)
        }
        #[cfg(not(feature = "columnar"))]
        _ => anyhow::bail!(
            "{}: {} input needs sudoku-bulk built with the `columnar` feature",
            job.name,
            kind.name()
        ),
    }
}

/// Rows of one step, solved: what every writer needs.
pub struct Solved {
    /// Box size of the grids.
    pub boxes: Boxes,
    /// Answer cells, `rows × cells` (zeros for bad rows).
    pub answers: Vec<u8>,
    /// One outcome per row.
    pub outcomes: Vec<Outcome>,
    /// Per row with `--stats`: guesses to prove it unique and the level
    /// (`None` for bad rows).
    pub grades: Option<Vec<Option<(u64, crate::generate::Level)>>>,
    /// Per row under an [`crate::record::Analysis`]: its text fields
    /// (empty for bad rows); the grid it makes is in `answers`.
    pub fields: Option<Vec<Vec<String>>>,
    /// Per row under an analysis with a side output: its side line (bad
    /// rows too). `None` otherwise, and for steps of bad rows only, whose
    /// lines [`write_side`] makes.
    pub side: Option<Vec<String>>,
}

impl Solved {
    /// Rows in the step.
    pub fn rows(&self) -> usize {
        self.outcomes.len()
    }
}

/// Solves `rows` rows: `puzzle(row, cells)` fills a row's cells (or says why
/// it cannot), `label(row)` gives its existing solution. Runs on the current
/// rayon pool.
pub fn solve_step<P, L>(job: &Job<'_>, boxes: Boxes, rows: usize, puzzle: P, label: L) -> Solved
where
    P: Fn(usize, &mut [u8]) -> Result<(), RecordError> + Sync,
    L: for<'x> Fn(usize, &'x mut Vec<u8>) -> crate::record::Label<'x> + Sync,
{
    let side = boxes.side();
    let n = side * side;
    let answers = vec![0u8; rows * n];
    job.pool
        .install(|| solve_rows(job, boxes, rows, &puzzle, &label, answers))
}

fn solve_rows<P, L>(
    job: &Job<'_>,
    boxes: Boxes,
    rows: usize,
    puzzle: &P,
    label: &L,
    mut answers: Vec<u8>,
) -> Solved
where
    P: Fn(usize, &mut [u8]) -> Result<(), RecordError> + Sync,
    L: for<'x> Fn(usize, &'x mut Vec<u8>) -> crate::record::Label<'x> + Sync,
{
    use rayon::prelude::*;
    let n = answers.len() / rows.max(1);
    if let Task::Analyse(analysis) = job.task {
        let mut fields = vec![Vec::new(); rows];
        let outcomes = answers
            .par_chunks_mut(n.max(1))
            .zip(fields.par_iter_mut())
            .enumerate()
            .with_min_len(256)
            .map_init(
                || vec![0u8; n],
                |cells, (row, (grid, fields))| {
                    let (outcome, read) = match puzzle(row, cells) {
                        Err(e) => {
                            grid.fill(0);
                            let bad = Outcome {
                                verdict: Verdict::Bad(e),
                                guesses: 0,
                            };
                            (bad, false)
                        }
                        Ok(()) => (
                            crate::record::analyse(boxes, analysis, cells, grid, fields),
                            true,
                        ),
                    };
                    if let (true, Verdict::Bad(e)) = (analysis.side(), &outcome.verdict) {
                        fields.push(analysis.side_of_bad(read.then_some(&cells[..]), e));
                    }
                    outcome
                },
            )
            .collect();
        // Every row's last field is its side line: taken off here, so the
        // writers see the columns' fields alone.
        let side = analysis
            .side()
            .then(|| fields.iter_mut().map(|f| f.pop().unwrap_or_default()).collect());
        return Solved {
            boxes,
            answers,
            outcomes,
            grades: None,
            fields: Some(fields),
            side,
        };
    }
    // The cells and label buffers are made once per job of rows, not per
    // row: a `vec!` and its free per row were 280 instructions a 9x9 row
    // (callgrind), a tenth of what a table run spent beyond plain text.
    let outcomes: Vec<Outcome> = answers
        .par_chunks_mut(n.max(1))
        .with_min_len(256)
        .enumerate()
        .map_init(
            || (vec![0u8; n], Vec::new()),
            |(cells, scratch), (row, answer)| {
                if let Err(e) = puzzle(row, cells) {
                    answer.fill(0);
                    return Outcome {
                        verdict: Verdict::Bad(e),
                        guesses: 0,
                    };
                }
                let label = label(row, scratch);
                crate::record::answer(boxes, job.task, label, job.overwrite, cells, answer)
            },
        )
        .collect();
    let grades = job.stats.then(|| {
        outcomes
            .par_iter()
            .enumerate()
            .map(|(row, o)| {
                if !o.is_good() {
                    return None;
                }
                let mut cells = vec![0u8; n];
                puzzle(row, &mut cells).ok()?;
                Some(crate::generate::grade(boxes, &cells))
            })
            .collect()
    });
    Solved {
        boxes,
        answers,
        outcomes,
        grades,
        fields: None,
        side: None,
    }
}

/// Writes the side lines of a step's rows ([`Job::side`]), in row order;
/// nothing without a side output. A row without one (a step of bad rows
/// only) gets the analysis's line for a record that could not be read.
pub fn write_side(job: &Job<'_>, solved: &Solved) -> anyhow::Result<()> {
    let (Some(side), Task::Analyse(analysis)) = (job.side, job.task) else {
        return Ok(());
    };
    let mut buf = Vec::new();
    for (k, o) in solved.outcomes.iter().enumerate() {
        match (solved.side.as_ref(), &o.verdict) {
            (Some(lines), _) => buf.extend_from_slice(lines[k].as_bytes()),
            (None, Verdict::Bad(e)) => buf.extend_from_slice(analysis.side_of_bad(None, e).as_bytes()),
            (None, _) => {}
        }
        buf.push(b'\n');
    }
    let mut out = side
        .lock()
        .map_err(|_| anyhow::anyhow!("the side output's lock was poisoned"))?;
    let what = format!("{}: cannot write", out.name());
    out.writer().write_all(&buf).map_err(anyhow::Error::new).context(what)
}

/// Adds a step's outcomes to `tally` and reports its bad rows on stderr as
/// `NAME:row R: reason` (rows from `first_row`). With `OnError::Fail`,
/// reports only the first and returns false: the run must stop.
pub fn account(job: &Job<'_>, first_row: u64, solved: &Solved, tally: &mut Tally) -> bool {
    for (k, o) in solved.outcomes.iter().enumerate() {
        tally.records += 1;
        tally.guesses += o.guesses;
        match &o.verdict {
            Verdict::Answered(count) => {
                tally.solved += 1;
                if let Task::Count { .. } = job.task {
                    tally.by_count[(*count).min(2) as usize] += 1;
                }
            }
            Verdict::Kept => {
                tally.solved += 1;
                tally.kept += 1;
            }
            Verdict::Bad(e) => {
                tally.bad += 1;
                // The first 100 messages, as for text (the reporter counts
                // the rest for the summary).
                if let Ok(mut r) = job.reporter.lock() {
                    // 1-based, as text rows (`record::At`).
                    r.bad_at(format_args!("row {}", first_row + k as u64 + 1), e);
                }
                if job.on_error == OnError::Fail {
                    return false;
                }
            }
        }
    }
    if let Ok(mut r) = job.reporter.lock() {
        crate::pipeline::Observer::progress(&mut *r, 0, tally.records);
    }
    true
}

/// Appends one text line per row of `solved`: the answer in `layout`'s
/// symbols (one-line shape), the count (`N+` at the limit), or `error:
/// REASON`; ` GUESSES LEVEL` after it with `--stats`.
pub fn write_text(job: &Job<'_>, layout: &Layout, solved: &Solved, out: &mut Vec<u8>) {
    let n = layout.cells();
    for (k, o) in solved.outcomes.iter().enumerate() {
        match (&o.verdict, job.task) {
            (Verdict::Bad(e), _) => {
                let _ = writeln!(out, "error: {e}");
                continue;
            }
            (Verdict::Answered(c), Task::Count { limit }) if *c >= limit => {
                let _ = writeln!(out, "{limit}+");
            }
            (Verdict::Answered(c), Task::Count { .. }) => {
                let _ = writeln!(out, "{c}");
            }
            // The puzzle's own text is not at hand here: an analysis that
            // keeps it writes its fields alone.
            (_, Task::Analyse(a)) => {
                let fields = solved.fields.as_ref().map_or(&[][..], |f| &f[k][..]);
                layout.write_analysed(b"", a, &solved.answers[k * n..(k + 1) * n], fields, out);
            }
            _ => layout.write_answer(b"", &solved.answers[k * n..(k + 1) * n], out),
        }
        if let Some(Some((guesses, level))) = solved.grades.as_ref().map(|g| g[k]) {
            out.pop();
            let _ = writeln!(out, " {guesses} {}", level.name());
        }
    }
}

/// The usual boxes of a grid of `cells` cells (N*N for a side N from 4
/// to 64 that boxes tile: 6x6 as 2x3, 9x9 as 3x3, ...).
pub fn box_of_cells(cells: usize) -> Option<Boxes> {
    let side = cells.isqrt();
    if side * side == cells {
        Boxes::for_side(side)
    } else {
        None
    }
}

/// `check` of a columnar puzzle input `data` (`kind`), named `pname`:
/// its own solution column, or the answers input `answers` (its name and
/// bytes). The caller prints the report.
pub fn check(
    asked: &Asked<'_>,
    pname: &str,
    kind: Kind,
    data: Data<'_>,
    answers: Option<(&str, Data<'_>)>,
) -> anyhow::Result<Report> {
    asked.fits(pname, kind)?;
    match kind {
        Kind::Npy => {
            let bytes = data.whole().expect("an .npy input is read whole");
            npy::check(asked.boxes, pname, bytes, answers)
        }
        #[cfg(feature = "columnar")]
        _ => table::check(asked, pname, kind, data, answers),
        #[cfg(not(feature = "columnar"))]
        _ => anyhow::bail!(
            "{pname}: {} input needs sudoku-bulk built with the `columnar` feature",
            kind.name()
        ),
    }
}

/// Counts one checked row in `report` (the first [`crate::check::SHOWN`]
/// bad ones with their reason); `row` is 0-based, shown 1-based as text
/// rows are (`record::At`).
pub fn record(report: &mut Report, row: u64, verdict: Result<(), String>) {
    report.records += 1;
    match verdict {
        Ok(()) => report.good += 1,
        Err(reason) => {
            report.bad += 1;
            if report.shown.len() < crate::check::SHOWN {
                report.shown.push((format!("row {}", row + 1), reason));
            }
        }
    }
}

/// What the user said of a columnar input's puzzles (`--column`,
/// `--format`, `--box`, `--size`).
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    /// The puzzle column the user named.
    pub column: Option<&'a str>,
    /// Forced symbols for string columns.
    pub symbols: Option<Symbols>,
    /// Forced shape of string values: one line of symbols or of numbers.
    pub shape: Option<ShapeName>,
    /// Forced box shape.
    pub boxes: Option<Boxes>,
}

impl<'a> Asked<'a> {
    /// The flags of a run.
    pub fn of(forced: &'a Forced) -> Asked<'a> {
        Asked {
            column: forced.column.as_deref(),
            symbols: forced.symbols,
            shape: forced.shape,
            boxes: forced.boxes_or_side(),
        }
    }

    /// Refuses a `--format` that cannot apply to a `kind` input, rather
    /// than ignore it: a `.npy` array holds numbers, and a table's string
    /// value is one puzzle, a line of symbols or of numbers.
    pub fn fits(&self, name: &str, kind: Kind) -> anyhow::Result<()> {
        match (kind, self.shape) {
            (Kind::Npy, shape) if shape.is_some() || self.symbols.is_some() => anyhow::bail!(
                "{name}: --format does not apply to a .npy array: its cells are numbers, 0 \
                 for a blank"
            ),
            (_, Some(shape)) if !matches!(shape, ShapeName::Line | ShapeName::Numbers) => {
                anyhow::bail!(
                    "{name}: --format {} does not apply to {} column: each string holds one \
                     puzzle, `line` (a line of symbols) or `numbers`",
                    shape.name(),
                    kind.a_row_name()
                )
            }
            _ => Ok(()),
        }
    }
}

/// Verifies one answer row against its puzzle row, both already decoded
/// (or not), for `check`.
pub fn check_row(
    boxes: Boxes,
    puzzle: Result<&[u8], String>,
    answer: Result<&[u8], String>,
) -> Result<(), String> {
    let p = puzzle.map_err(|e| format!("puzzle is bad: {e}"))?;
    let a = answer.map_err(|e| format!("solution: {e}"))?;
    crate::solver::verify(boxes, p, a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::sniff;

    #[test]
    fn magic_bytes_decide_and_names_only_pick_the_output() {
        assert_eq!(sniff(b"PAR1\x15\x04"), Some(Kind::Parquet));
        assert_eq!(sniff(b"ARROW1\0\0\xff\xff"), Some(Kind::ArrowFile));
        assert_eq!(
            sniff(b"\xff\xff\xff\xff\x10\0\0\0"),
            Some(Kind::ArrowStream)
        );
        assert_eq!(sniff(b"\x93NUMPY\x01\x00"), Some(Kind::Npy));
        assert_eq!(sniff(b"4.....8.5.3"), None);
        assert_eq!(sniff(b"PAR"), None);
        let t = |p: &str| target(Kind::Parquet, "in", Some(Path::new(p))).unwrap();
        assert_eq!(t("a.PARQUET"), Target::Columnar(Kind::Parquet));
        assert_eq!(t("a.feather"), Target::Columnar(Kind::ArrowFile));
        assert_eq!(t("a.arrows"), Target::Columnar(Kind::ArrowStream));
        assert_eq!(t("answers.txt"), Target::Text);
        assert_eq!(t("out"), Target::Columnar(Kind::Parquet));
        assert_eq!(t("-"), Target::Columnar(Kind::Parquet));
        // A compression extension wraps the format the name gives inside it.
        assert_eq!(t("answers.txt.gz"), Target::Text);
        assert_eq!(t("a.arrow.zst"), Target::Columnar(Kind::ArrowFile));
        assert_eq!(t("answers.gz"), Target::Columnar(Kind::Parquet));
        assert_eq!(
            target(Kind::Npy, "in", None).unwrap(),
            Target::Columnar(Kind::Npy)
        );
        let npy = |p: &str| target(Kind::Npy, "in.npy", Some(Path::new(p)));
        assert_eq!(npy("a.npy.xz").unwrap(), Target::Columnar(Kind::Npy));
        assert_eq!(npy("a.TXT").unwrap(), Target::Text);
        for refused in ["a.parquet", "a.arrows", "a.csv", "a.tsv.bz2"] {
            let e = npy(refused).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("{refused}: the name asks for")),
                "{e}"
            );
            assert!(e.contains("(.npy) or answer lines (.txt)"), "{e}");
        }
        for refused in ["a.npy", "a.csv", "a.tsv.gz"] {
            let e = target(Kind::ArrowStream, "in", Some(Path::new(refused))).unwrap_err();
            assert!(e.to_string().contains("Arrow IPC (.arrow, .arrows)"), "{e}");
        }
    }
}
