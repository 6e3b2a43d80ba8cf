//! Tables (Parquet row groups, Arrow IPC record batches) in and out: finds
//! the puzzle column, turns each batch's puzzle (and existing solution)
//! values into rows of cells, and builds the answer batch: the same columns
//! in the same order, the solution column filled (or `solution` added, typed
//! like the puzzle column), plus `solutions` for `count` and
//! `guesses`/`level` for `--stats`. The format modules only move batches.
//!
//! Puzzle columns: strings (`"4.....8.5.3..."`, any symbols the one-line
//! text layout reads, via [`Layout::parse`]), dictionary-encoded strings
//! (pandas `category`, read as their values) or lists of small integers
//! (`list`, `large_list`, `fixed_size_list`, one level nested for
//! `[[...9], ...]` rows), 0 = blank (a null cell is a bad row, never a
//! blank: see [`ints`]). A dictionary or `Null`
//! solution column is written back as plain strings.

use crate::solver::Boxes;
use std::io::Write;
use std::sync::Arc;

use anyhow::Context;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowPrimitiveType, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, Float64Array, GenericListArray, Int64Array,
    OffsetSizeTrait, PrimitiveArray, RecordBatch, StringArray,
};
use arrow_buffer::{ArrowNativeType, NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::batches::{Batches, Item, SendWriter};
use super::{Asked, Data, Job, Kind, Run, Solved, Target};
use crate::check::Report;
use crate::pipeline::{Tally, Task};
use crate::record::{Label, Outcome, Verdict};
use crate::text::detect::{Forced, ShapeName};
use crate::text::{Layout, RecordError};

/// The arrow-rs crates the table converters speak, as this crate was built
/// with them, for callers that build or read batches themselves (the fuzz
/// targets), so they never meet a second version of the types.
#[cfg(feature = "internals")]
pub mod arrow {
    pub use arrow_array as array;
    pub use arrow_buffer as buffer;
    pub use arrow_ipc as ipc;
    pub use arrow_schema as schema;
}

/// Known dataset columns, (puzzle, solution), as for CSV headers.
const KNOWN_COLUMNS: &[(&str, &str)] = &[
    ("quizzes", "solutions"),
    ("puzzle", "solution"),
    ("question", "answer"),
    ("quiz", "solution"),
    ("puzzles", "solutions"),
];

/// Where the puzzles and solutions are, and what the output looks like.
pub struct Plan {
    /// Puzzle column index.
    pub puzzle: usize,
    /// Existing solution column index.
    pub solution: Option<usize>,
    /// The output schema.
    pub schema: SchemaRef,
    /// Grid and symbols, once a non-null puzzle was seen.
    grid: Option<Grid>,
    /// The user's forced symbols.
    forced: Forced,
    /// The input's format, for messages.
    kind: Kind,
    /// Per column of an analysis (`er`, `ep`, `ed`): the input column it
    /// replaces in place (`--overwrite`), or `None` when it is added last.
    fields_at: Vec<Option<usize>>,
}

/// The grid size and, for string columns, how cells are written.
#[derive(Clone, Debug)]
struct Grid {
    boxes: Boxes,
    /// Layout of string puzzles (also used to write string answers).
    text: Layout,
    /// Layout of string solutions, when the solution column is strings.
    label_text: Layout,
}

fn is_text(dt: &DataType) -> bool {
    matches!(
        dt,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
    )
}

fn is_int(dt: &DataType) -> bool {
    dt.is_integer()
}

/// The element type under one or two levels of lists, if `dt` is a list of
/// integers.
fn list_child(dt: &DataType) -> Option<&DataType> {
    match dt {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            Some(f.data_type())
        }
        _ => None,
    }
}

fn is_int_list(dt: &DataType) -> bool {
    match list_child(dt) {
        Some(c) if is_int(c) => true,
        Some(c) => list_child(c).is_some_and(is_int),
        None => false,
    }
}

/// A dictionary-encoded text column (pandas `category`, pyarrow's
/// `dictionary_encode`): read as its values.
fn is_text_dictionary(dt: &DataType) -> bool {
    matches!(dt, DataType::Dictionary(_, values) if is_text(values))
}

fn usable(dt: &DataType) -> bool {
    is_text(dt) || is_int_list(dt) || is_text_dictionary(dt)
}

/// A solution column may also be all null, typed `Null` (pandas writes
/// `solution=None` so).
fn usable_label(dt: &DataType) -> bool {
    usable(dt) || *dt == DataType::Null
}

/// The type [`plain`] turns a column of type `dt` into: a dictionary's
/// value type, strings for a `Null` column, else `dt` itself.
fn plain_type(dt: &DataType) -> DataType {
    match dt {
        DataType::Dictionary(_, values) => values.as_ref().clone(),
        DataType::Null => DataType::Utf8,
        dt => dt.clone(),
    }
}

/// `col` as the rows read and write it: a dictionary-encoded column as its
/// values, row for row; a `Null` column as null strings; any other column
/// as it is (no copy).
fn plain(col: &ArrayRef) -> Result<ArrayRef, arrow_schema::ArrowError> {
    match col.data_type() {
        DataType::Dictionary(..) => {
            let dict = col.as_any_dictionary();
            let checked = arrow_select::take::TakeOptions { check_bounds: true };
            arrow_select::take::take(dict.values().as_ref(), dict.keys(), Some(checked))
        }
        DataType::Null => Ok(arrow_array::new_null_array(&DataType::Utf8, col.len())),
        _ => Ok(col.clone()),
    }
}

/// What a damaged input is called: `bad Parquet file`, `bad Arrow IPC
/// stream`.
fn file_kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Parquet => "Parquet file",
        kind => kind.name(),
    }
}

/// A column's name in a message, as text: `"Rätsel grid ✓"`. Column
/// names are UTF-8 (Arrow and Parquet say so), so only what a terminal
/// would act on or hide is escaped: ASCII control bytes, quotes and
/// backslashes as [`crate::text::quote`] escapes them (`\x1b`, `\n`),
/// and non-ASCII characters that are not printable (a right-to-left
/// override) as `\u{202e}`. Cut to 40 bytes at a character boundary, with
/// the full length, as any input bytes are.
fn shown_name(name: &str) -> String {
    const SHOWN: usize = 40;
    let mut cut = name.len().min(SHOWN);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut s = String::from("\"");
    for c in name[..cut].chars() {
        if c.is_ascii() {
            s.extend((c as u8).escape_ascii().map(char::from));
        } else {
            s.extend(c.escape_debug());
        }
    }
    if cut < name.len() {
        s.push_str(&format!("...\" ({} bytes)", name.len()));
    } else {
        s.push('"');
    }
    s
}

/// A column's type in a message: as Arrow writes it, or only its outer
/// kind (`Struct(...)`) when that is long or holds field names (input
/// bytes, which would need escaping).
fn shown_type(dt: &DataType) -> String {
    let t = dt.to_string();
    let plain = |t: &str| {
        t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"(), ':_-".contains(&b))
    };
    if t.len() <= 40 && plain(&t) {
        return t;
    }
    match t.split_once('(') {
        Some((kind, _)) if kind.len() <= 40 && plain(kind) => format!("{kind}(...)"),
        _ => "?".to_string(),
    }
}

/// The columns of `schema` for a message: names quoted, the first few.
fn shown_columns(schema: &Schema) -> String {
    const SHOWN: usize = 8;
    let fields = schema.fields();
    let mut list: Vec<String> = fields
        .iter()
        .take(SHOWN)
        .map(|f| format!("{} ({})", shown_name(f.name()), shown_type(f.data_type())))
        .collect();
    if fields.len() > SHOWN {
        list.push(format!("... ({} columns)", fields.len()));
    }
    list.join(", ")
}

impl Plan {
    /// Finds the columns in `schema` and builds the output schema for
    /// `job`'s task.
    pub fn new(job: &Job<'_>, kind: Kind, schema: &Schema) -> anyhow::Result<Plan> {
        Plan::for_task(kind, job.name, &job.asked, job.task, job.stats, schema)
    }

    /// An analysis without a grid (`rate`) writes into the columns the
    /// table has already, where they are ([`Plan::held`] says when that
    /// is refused).
    fn for_task(
        kind: Kind,
        name: &str,
        asked: &Asked<'_>,
        task: Task,
        stats: bool,
        schema: &Schema,
    ) -> anyhow::Result<Plan> {
        struct J<'a> {
            name: &'a str,
            column: Option<&'a str>,
            task: Task,
            stats: bool,
        }
        let job = J {
            name,
            column: asked.column,
            task,
            stats,
        };
        let names: Vec<String> = schema
            .fields()
            .iter()
            .map(|f| f.name().to_ascii_lowercase())
            .collect();
        let find = |name: &str| names.iter().position(|n| n == name);
        let listed = || shown_columns(schema);
        let (puzzle, solution) = match job.column {
            Some(col) => {
                let p = find(&col.to_ascii_lowercase()).ok_or_else(|| {
                    anyhow::anyhow!(
                        "{}: no column {} (columns: {})",
                        job.name,
                        shown_name(col),
                        listed()
                    )
                })?;
                let s = KNOWN_COLUMNS
                    .iter()
                    .find(|(pz, _)| names[p] == *pz)
                    .and_then(|(_, s)| find(s))
                    .or_else(|| find("solution"));
                (p, s)
            }
            None => KNOWN_COLUMNS
                .iter()
                .find_map(|(p, s)| find(p).map(|p| (p, find(s))))
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{}: no known puzzle column (puzzle, quizzes, question, quiz) among {}; \
                         name it with --column NAME",
                        job.name,
                        listed()
                    )
                })?,
        };
        let solution = solution.filter(|&s| s != puzzle);
        let pf = schema.field(puzzle);
        if !usable(pf.data_type()) {
            anyhow::bail!(
                "{}: column {} is {}: expected strings or lists of integers",
                job.name,
                shown_name(pf.name()),
                shown_type(pf.data_type())
            );
        }
        if let Some(s) = solution {
            let sf = schema.field(s);
            if !usable_label(sf.data_type()) {
                // pandas reads an empty CSV column as float64 NaN: the
                // likeliest way to meet a float solution column.
                let hint = if sf.data_type().is_floating() {
                    " (an empty column read by pandas is float64 NaN: write it as strings, \
                     `df[\"solution\"] = df[\"solution\"].astype(\"string\")`, or drop it)"
                } else {
                    ""
                };
                anyhow::bail!(
                    "{}: solution column {} is {}: expected strings or lists of integers{hint}",
                    job.name,
                    shown_name(sf.name()),
                    shown_type(sf.data_type())
                );
            }
        }
        let mut fields: Vec<Arc<Field>> = schema.fields().iter().cloned().collect();
        let mut add = |name: &str, dt: DataType| -> anyhow::Result<()> {
            if find(name).is_some() {
                anyhow::bail!(
                    "{}: the table already has a column {name:?}, which this run would add",
                    job.name
                );
            }
            fields.push(Arc::new(Field::new(name, dt, true)));
            Ok(())
        };
        let mut fields_at = Vec::new();
        match job.task {
            // A dictionary puzzle column gets plain strings of its values.
            Task::Solve { .. } if solution.is_none() => {
                add("solution", plain_type(pf.data_type()))?
            }
            Task::Solve { .. } => {}
            Task::Count { .. } => add(
                if find("solutions").is_some() && solution.is_some() {
                    "solution_count"
                } else {
                    "solutions"
                },
                DataType::Int64,
            )?,
            // An analysis's grid is typed like the puzzle column (strings
            // or lists of cells), its fields are Float64 for numbers, else
            // strings.
            Task::Analyse(a) => {
                if let Some(grid) = a.grid_column() {
                    add(grid, plain_type(pf.data_type()))?;
                }
                for (c, column) in a.columns().iter().enumerate() {
                    let at = find(&column.to_ascii_lowercase());
                    if at == Some(puzzle) {
                        anyhow::bail!(
                            "{}: column {} is the puzzle column, which {} would write its \
                             {column} into; name another column",
                            job.name,
                            shown_name(column),
                            a.name()
                        );
                    }
                    match at.filter(|_| a.grid_column().is_none()) {
                        // The old column's place (and name as written) is
                        // kept, its values replaced: only empty ones
                        // unless `--overwrite` ([`Plan::held`]).
                        Some(k) => fields_at.push(Some(k)),
                        None => {
                            add(column, analysis_type(a, c))?;
                            fields_at.push(None);
                        }
                    }
                }
            }
        }
        if job.stats {
            add("guesses", DataType::Int64)?;
            add("level", DataType::Utf8)?;
        }
        if let Task::Analyse(a) = job.task {
            for (c, k) in fields_at.iter().enumerate() {
                if let Some(k) = *k {
                    let name = fields[k].name().clone();
                    fields[k] = Arc::new(Field::new(name, analysis_type(a, c), true));
                }
            }
        }
        // A solution column that may now hold nulls (bad rows) must say
        // so; a dictionary or `Null` one is written as plain values.
        if let (Some(s), Task::Solve { .. }) = (solution, job.task) {
            let f = fields[s].as_ref().clone().with_nullable(true);
            let dt = plain_type(f.data_type());
            fields[s] = Arc::new(f.with_data_type(dt));
        }
        let schema = Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
        Ok(Plan {
            puzzle,
            solution,
            schema,
            grid: None,
            forced: Forced {
                shape: asked.shape,
                symbols: asked.symbols,
                column: None,
                side: None,
                boxes: asked.boxes,
            },
            kind,
            fields_at,
        })
    }

    /// Decides the grid from the first non-null puzzles of a batch (its
    /// puzzle and solution columns, [`plain`]).
    fn decide(
        &mut self,
        job_name: &str,
        col: &dyn Array,
        scol: Option<&dyn Array>,
    ) -> anyhow::Result<()> {
        if self.grid.is_some() {
            return Ok(());
        }
        let valid = || {
            (0..col.len())
                .filter(|&i| sampled(col, i))
                .take(SAMPLE_VALUES)
        };
        let boxes = if is_text(col.data_type()) {
            None
        } else {
            // The size most of the first lists have (a short or long one
            // is a bad row, wherever it is); one only if none fits.
            let mut sizes: Vec<(usize, usize)> = Vec::new();
            for i in valid() {
                let (a, b) = leaf_range(col, i);
                match sizes.iter_mut().find(|(cells, _)| *cells == b - a) {
                    Some((_, seen)) => *seen += 1,
                    None => sizes.push((b - a, 1)),
                }
            }
            if sizes.is_empty() {
                return Ok(());
            }
            let fits = |cells: usize| match self.forced.boxes {
                Some(forced) => Some(forced).filter(|f| f.cells() == cells),
                None => super::box_of_cells(cells),
            };
            let best = sizes
                .iter()
                .filter_map(|&(cells, seen)| Some((fits(cells)?, seen)))
                .fold(None, |best: Option<(Boxes, usize)>, (b, seen)| match best {
                    Some((_, most)) if most >= seen => best,
                    _ => Some((b, seen)),
                });
            let Some((boxes, _)) = best else {
                let found: Vec<String> = sizes.iter().map(|(c, _)| c.to_string()).collect();
                anyhow::bail!(
                    "{job_name}: column {}: cannot tell the grid size: \
                     its first {} puzzles have {} cells; expected {}",
                    shown_name(self.schema.field(self.puzzle).name()),
                    valid().count(),
                    found.join(", "),
                    match self.forced.boxes {
                        Some(f) => format!("{} for --box {f}", f.cells()),
                        None => "N*N for a grid side N from 4 to 64 (81, 256, 625, ...)".into(),
                    }
                );
            };
            Some(boxes)
        };
        let text = match boxes {
            Some(b) => Layout::one_line_in(b, self.forced.symbols),
            None => {
                let sample: Vec<Vec<u8>> = valid()
                    .filter_map(|i| text_value(col, i).map(<[u8]>::to_vec))
                    .collect();
                if sample.is_empty() {
                    return Ok(());
                }
                self.detect(job_name, &sample, self.forced.shape)?
            }
        };
        let mut label_text = text.clone();
        if let Some(scol) = scol {
            if is_text(scol.data_type()) && !is_text(col.data_type()) {
                let sample: Vec<Vec<u8>> = (0..scol.len())
                    .filter_map(|i| text_value(scol, i))
                    .filter(|v| !v.is_empty())
                    .take(100)
                    .map(<[u8]>::to_vec)
                    .collect();
                if !sample.is_empty() {
                    let found = self.detect(job_name, &sample, None)?;
                    // The labels decide how answers are written only when
                    // one of them reads as a grid that holds something in
                    // the symbols found: blank labels with one stray `Z`
                    // made the whole column's answers letters (A-I) where
                    // the puzzles are numbers (table_columns fuzz finding).
                    let mut cells = vec![0u8; found.cells()];
                    if sample.iter().any(|v| {
                        found.parse_value(v, &mut cells).is_ok() && cells.iter().any(|&c| c != 0)
                    }) {
                        label_text = found;
                    }
                }
            }
        }
        self.grid = Some(Grid {
            boxes: text.boxes,
            text,
            label_text,
        });
        Ok(())
    }

    /// The layout of sample strings, one puzzle each (a line of symbols or
    /// of numbers, or as `shape`, the user's `--format line|numbers`), by
    /// the text detector; a bad value among them is a bad row later, not
    /// the column's layout.
    fn detect(
        &self,
        job_name: &str,
        sample: &[Vec<u8>],
        shape: Option<ShapeName>,
    ) -> anyhow::Result<Layout> {
        let forced = Forced {
            shape,
            ..self.forced.clone()
        };
        match crate::text::detect::detect_values(sample.iter().map(Vec::as_slice), &forced) {
            Ok(Some(layout)) => Ok(layout),
            Ok(None) => Ok(Layout::one_line_in(
                self.forced.boxes.unwrap_or(Boxes::NINE),
                self.forced.symbols,
            )),
            Err(why) => anyhow::bail!(
                "{job_name}: puzzle column: none of its first {} values is a puzzle; the \
                 first: {why}",
                sample.len()
            ),
        }
    }

    /// Decides the grid from the first [`SAMPLE_VALUES`] non-null puzzles
    /// of `batches` together (their puzzle and solution columns, cut after
    /// the last value needed and joined), so a first row group of one bad
    /// row, or of a few rows of another size, is not the file's layout.
    /// Takes no batch past the one holding the last value needed, so the
    /// caller can read ahead through it.
    fn decide_from(
        &mut self,
        job_name: &str,
        batches: impl Iterator<Item = anyhow::Result<RecordBatch>>,
    ) -> anyhow::Result<()> {
        let (mut ps, mut ss) = (Vec::new(), Vec::new());
        let mut seen = 0;
        for batch in batches {
            let (p, s) = self.columns(job_name, &batch?)?;
            let (mut take, mut any) = (p.len(), false);
            for i in (0..p.len()).filter(|&i| sampled(p.as_ref(), i)) {
                any = true;
                seen += 1;
                if seen == SAMPLE_VALUES {
                    take = i + 1;
                    break;
                }
            }
            if any {
                ps.push(p.slice(0, take));
                ss.extend(s.map(|s| s.slice(0, take)));
            }
            if seen >= SAMPLE_VALUES {
                break;
            }
        }
        let join = |parts: &[ArrayRef]| -> anyhow::Result<Option<ArrayRef>> {
            Ok(match parts {
                [] => None,
                [one] => Some(one.clone()),
                _ => {
                    let refs: Vec<&dyn Array> = parts.iter().map(|a| a.as_ref()).collect();
                    Some(arrow_select::concat::concat(&refs)?)
                }
            })
        };
        match join(&ps)? {
            Some(p) => self.decide(job_name, p.as_ref(), join(&ss)?.as_deref()),
            None => Ok(()),
        }
    }

    /// What solving `batch` needs, owned, so it can run on the pool while
    /// the caller reads and writes other batches.
    fn work(&mut self, job: &Job<'_>, batch: &RecordBatch) -> anyhow::Result<Work> {
        let (puzzles, labels) = self.columns(job.name, batch)?;
        self.decide(job.name, puzzles.as_ref(), labels.as_deref())?;
        Ok(Work {
            grid: self.grid.clone(),
            rows: batch.num_rows(),
            puzzles,
            labels,
            format: self.kind.row_name(),
        })
    }

    /// The puzzle and solution columns of `batch`, [`plain`].
    fn columns(
        &self,
        name: &str,
        batch: &RecordBatch,
    ) -> anyhow::Result<(ArrayRef, Option<ArrayRef>)> {
        let bad = |e| anyhow::anyhow!("{name}: bad {}: {e}", file_kind(self.kind));
        let puzzles = plain(batch.column(self.puzzle)).map_err(bad)?;
        let labels = match self.solution {
            Some(s) => Some(plain(batch.column(s)).map_err(bad)?),
            None => None,
        };
        Ok((puzzles, labels))
    }

    /// The output batch for `batch` and its answers.
    fn answer_batch(
        &self,
        job: &Job<'_>,
        batch: &RecordBatch,
        solved: &Solved,
    ) -> anyhow::Result<RecordBatch> {
        let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
        let rows = solved.rows();
        let n = solved.answers.len() / rows.max(1);
        let side = solved.boxes.side();
        let text = self.text_layout();
        match job.task {
            Task::Solve { .. } => {
                // A dictionary or `Null` column is written as plain values.
                let old = match self.solution {
                    Some(s) => Some(plain(batch.column(s))?),
                    None => None,
                };
                let dt = match &old {
                    Some(old) => old.data_type().clone(),
                    None => plain_type(batch.column(self.puzzle).data_type()),
                };
                let fresh_rows: Vec<bool> = solved
                    .outcomes
                    .iter()
                    .map(|o| matches!(o.verdict, Verdict::Answered(_)))
                    .collect();
                let label_layout = self
                    .grid
                    .as_ref()
                    .map_or_else(|| text.clone(), |g| g.label_text.clone());
                let fresh = build(
                    &dt,
                    &solved.answers,
                    n,
                    side,
                    &fresh_rows,
                    if self.solution.is_some() {
                        &label_layout
                    } else {
                        &text
                    },
                    None,
                )?;
                // The label rule of the text path (`pipeline::one_record`):
                // a kept or wrong label stays byte for byte (a wrong one
                // for the user to see), and so does one a bad row holds,
                // unless `--overwrite`, which ignored every label: a bad
                // row's would be one nobody checked. Such a row, and a bad
                // row whose label was empty, gets null (CSV writes the
                // error mark there).
                let col = match old {
                    Some(old) => {
                        let mut scratch = Vec::new();
                        let format = self.kind.row_name();
                        let idx: Vec<(usize, usize)> = (0..rows)
                            .map(|r| {
                                let keep = match &solved.outcomes[r].verdict {
                                    Verdict::Answered(_) => false,
                                    Verdict::Kept | Verdict::Bad(RecordError::WrongLabel(_)) => {
                                        true
                                    }
                                    Verdict::Bad(_) => {
                                        !job.overwrite
                                            && !matches!(
                                                label(
                                                    old.as_ref(),
                                                    r,
                                                    &label_layout,
                                                    n,
                                                    &mut scratch,
                                                    format
                                                ),
                                                Label::Empty | Label::Absent
                                            )
                                    }
                                };
                                if keep {
                                    (0, r)
                                } else {
                                    (1, r)
                                }
                            })
                            .collect();
                        arrow_select::interleave::interleave(&[old.as_ref(), fresh.as_ref()], &idx)?
                    }
                    None => fresh,
                };
                match self.solution {
                    Some(s) => columns[s] = col,
                    None => columns.push(col),
                }
            }
            Task::Analyse(a) => {
                let good: Vec<bool> = solved.outcomes.iter().map(Outcome::is_good).collect();
                if a.grid_column().is_some() {
                    let dt = plain_type(batch.column(self.puzzle).data_type());
                    columns.push(build(&dt, &solved.answers, n, side, &good, &text, a.blank())?);
                }
                let fields = solved.fields.as_deref().unwrap_or(&[]);
                // A bad row's reason, for the status column.
                let reasons: Vec<Option<String>> = match a.status() {
                    Some(_) => solved
                        .outcomes
                        .iter()
                        .map(|o| match &o.verdict {
                            Verdict::Bad(e) => Some(e.to_string()),
                            _ => None,
                        })
                        .collect(),
                    None => Vec::new(),
                };
                for c in 0..a.columns().len() {
                    let field = |r: usize| fields.get(r).and_then(|f| f.get(c));
                    // A bad row's fields are null (its reason is on stderr,
                    // and in the status column when the analysis has one).
                    let column: ArrayRef = if a.number(c) {
                        // `9.4` parses to the double nearest the decimal,
                        // as Python's `float("9.4")`; empty is null.
                        Arc::new(
                            (0..rows)
                                .map(|r| field(r).and_then(|f| f.parse::<f64>().ok()))
                                .collect::<Float64Array>(),
                        )
                    } else if a.status() == Some(c) {
                        Arc::new(
                            (0..rows)
                                .map(|r| field(r).map(String::as_str).or(reasons[r].as_deref()))
                                .collect::<StringArray>(),
                        )
                    } else {
                        Arc::new(
                            (0..rows)
                                .map(|r| field(r).map(String::as_str))
                                .collect::<StringArray>(),
                        )
                    };
                    match self.fields_at.get(c).copied().flatten() {
                        Some(k) => columns[k] = column,
                        None => columns.push(column),
                    }
                }
            }
            Task::Count { .. } => {
                let counts: Int64Array = solved
                    .outcomes
                    .iter()
                    .map(|o| match o.verdict {
                        Verdict::Answered(c) => Some(c as i64),
                        _ => None,
                    })
                    .collect();
                columns.push(Arc::new(counts));
            }
        }
        if let Some(grades) = &solved.grades {
            let guesses: Int64Array = grades.iter().map(|g| g.map(|(x, _)| x as i64)).collect();
            let levels: StringArray = grades.iter().map(|g| g.map(|(_, l)| l.name())).collect();
            columns.push(Arc::new(guesses));
            columns.push(Arc::new(levels));
        }
        RecordBatch::try_new(self.schema.clone(), columns)
            .with_context(|| format!("{}: cannot build the answer table", job.name))
    }

    /// The text layout answers are written in (text output).
    fn text_layout(&self) -> Layout {
        self.grid
            .as_ref()
            .map_or_else(|| Layout::one_line(Boxes::NINE), |g| g.text.clone())
    }
}

/// The Arrow type of column `c` of analysis `a`: Float64 for numbers,
/// else strings.
fn analysis_type(a: &dyn crate::record::Analysis, c: usize) -> DataType {
    if a.number(c) {
        DataType::Float64
    } else {
        DataType::Utf8
    }
}

impl Plan {
    /// For an analysis that writes into columns the table has (`rate
    /// --er-column rating`, or an `er` column already there), without
    /// `--overwrite`: the first row of `batch` (its first row is row
    /// `first` of the input, 0-based) holding a value in one of them
    /// refuses the run, before any of it is rated, so a dataset's own
    /// values are never replaced silently. Empty values are null, empty
    /// or blank strings and NaN (pandas' missing float).
    fn held(&self, job: &Job<'_>, batch: &RecordBatch, first: u64) -> anyhow::Result<()> {
        let Task::Analyse(a) = job.task else {
            return Ok(());
        };
        if job.overwrite {
            return Ok(());
        }
        let mut found: Option<(usize, usize, String)> = None;
        for (c, k) in self.fields_at.iter().enumerate() {
            let Some(k) = *k else { continue };
            let col = plain(batch.column(k))?;
            // Rows before the first held one found so far.
            let end = found.as_ref().map_or(col.len(), |f| f.0);
            if let Some((r, value)) = (0..end).find_map(|r| Some((r, held_value(&col, r)?))) {
                found = Some((r, c, value));
            }
        }
        let Some((r, c, value)) = found else {
            return Ok(());
        };
        let err = RecordError::Held {
            command: a.name(),
            column: shown_name(a.columns()[c]),
            value,
        };
        anyhow::bail!("{}:row {}: {err}", job.name, first + r as u64 + 1)
    }
}

/// The value row `r` of `col` holds, as a message shows it; `None` when it
/// is empty: null, an empty or blank string, NaN.
fn held_value(col: &ArrayRef, r: usize) -> Option<String> {
    if col.is_null(r) {
        return None;
    }
    macro_rules! number {
        ($($t:ty),*) => {
            match col.data_type() {
                $(dt if dt == &<$t>::DATA_TYPE => {
                    return Some(col.as_primitive::<$t>().value(r).to_string())
                })*
                _ => {}
            }
        };
    }
    number!(
        Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type
    );
    match col.data_type() {
        DataType::Float64 => {
            let v = col.as_primitive::<Float64Type>().value(r);
            (!v.is_nan()).then(|| v.to_string())
        }
        DataType::Float32 => {
            let v = col.as_primitive::<Float32Type>().value(r);
            (!v.is_nan()).then(|| v.to_string())
        }
        DataType::Boolean => Some(col.as_boolean().value(r).to_string()),
        dt if is_text(dt) => {
            let v = text_value(col.as_ref(), r)?;
            (!v.trim_ascii().is_empty()).then(|| crate::text::quote(v))
        }
        dt => Some(format!("a {} value", shown_type(dt))),
    }
}

/// One batch's solving, detached from the batch.
struct Work {
    grid: Option<Grid>,
    rows: usize,
    puzzles: ArrayRef,
    labels: Option<ArrayRef>,
    format: &'static str,
}

impl Work {
    fn run(self, job: &Job<'_>) -> Solved {
        let rows = self.rows;
        let Some(grid) = self.grid else {
            // Only null puzzles so far: each row is bad.
            let outcomes = (0..rows)
                .map(|_| crate::record::Outcome {
                    verdict: Verdict::Bad(null_puzzle(self.format)),
                    guesses: 0,
                })
                .collect();
            return Solved {
                boxes: Boxes::NINE,
                answers: vec![0; rows * 81],
                outcomes,
                grades: job.stats.then(|| vec![None; rows]),
                fields: matches!(job.task, Task::Analyse(_)).then(|| vec![Vec::new(); rows]),
                side: None,
            };
        };
        let pcol = self.puzzles.as_ref();
        let scol = self.labels.as_deref();
        let n = grid.text.cells();
        let format = self.format;
        let bytes = ByteRows::of(pcol);
        let side = grid.boxes.side();
        super::solve_step(
            job,
            grid.boxes,
            rows,
            |r, cells| match &bytes {
                Some(b) => b.decode(r, side, cells, format),
                None => decode(pcol, r, &grid.text, n, cells, format),
            },
            |r, scratch| match scol {
                None => Label::Absent,
                Some(col) => label(col, r, &grid.label_text, n, scratch, format),
            },
        )
    }
}

/// A list column of bytes with no null cell (`list<uint8>`,
/// `large_list<uint8>`, `fixed_size_list<uint8>[N]`: what NumPy-made and
/// pyarrow-made grid columns are), its rows read straight from the leaf
/// buffer: the offsets and the leaf slice are found once per step, not
/// through the list's type for every row as [`decode`] does, and a row is a
/// copy and one range check (callgrind, 100k-row `list<uint8>` Parquet:
/// 1,200 instructions a row in [`decode`] before).
struct ByteRows<'a> {
    starts: Starts<'a>,
    leaf: &'a [u8],
    nulls: Option<&'a NullBuffer>,
}

/// Where each row of a [`ByteRows`] starts in its leaf buffer.
enum Starts<'a> {
    Offsets(&'a [i32]),
    Large(&'a [i64]),
    Fixed(usize),
}

impl<'a> ByteRows<'a> {
    /// `col` as byte rows, if it is such a column (one level of lists).
    fn of(col: &'a dyn Array) -> Option<ByteRows<'a>> {
        let (starts, values) = match col.data_type() {
            DataType::List(_) => {
                let l = col.as_list::<i32>();
                (Starts::Offsets(l.value_offsets()), l.values())
            }
            DataType::LargeList(_) => {
                let l = col.as_list::<i64>();
                (Starts::Large(l.value_offsets()), l.values())
            }
            DataType::FixedSizeList(_, size) => {
                let l = col.as_fixed_size_list();
                (Starts::Fixed(usize::try_from(*size).ok()?), l.values())
            }
            _ => return None,
        };
        if *values.data_type() != DataType::UInt8 || values.null_count() != 0 {
            return None;
        }
        let leaf: &[u8] = values.as_primitive::<UInt8Type>().values();
        Some(ByteRows {
            starts,
            leaf,
            nulls: col.nulls(),
        })
    }

    /// Row `r` into `cells`, with [`decode`]'s verdicts.
    fn decode(
        &self,
        r: usize,
        side: usize,
        cells: &mut [u8],
        format: &'static str,
    ) -> Result<(), RecordError> {
        if self.nulls.is_some_and(|n| n.is_null(r)) {
            return Err(null_puzzle(format));
        }
        let (a, b) = match self.starts {
            Starts::Offsets(o) => (o[r] as usize, o[r + 1] as usize),
            Starts::Large(o) => (o[r] as usize, o[r + 1] as usize),
            Starts::Fixed(k) => (r * k, (r + 1) * k),
        };
        if b - a != cells.len() {
            return Err(RecordError::WrongLength {
                expected: cells.len(),
                found: b - a,
            });
        }
        let row = &self.leaf[a..b];
        cells.copy_from_slice(row);
        // The largest cell first (a loop LLVM vectorises), the culprit
        // only for a row it refuses.
        if row.iter().fold(0, |m, &v| m.max(v)) as usize <= side {
            return Ok(());
        }
        let k = row.iter().position(|&v| v as usize > side).unwrap_or(0);
        Err(RecordError::BadNumber {
            cell: k + 1,
            token: format!("{:?}", row[k]),
        })
    }
}

/// Why a row whose value is null is bad.
const NULL_VALUE: &str = "no puzzle (null)";

fn null_puzzle(format: &'static str) -> RecordError {
    RecordError::Table {
        format,
        reason: NULL_VALUE.into(),
    }
}

/// The bytes of a string or binary value; `None` for null or non-text.
fn text_value(col: &dyn Array, i: usize) -> Option<&[u8]> {
    if col.is_null(i) {
        return None;
    }
    Some(match col.data_type() {
        DataType::Utf8 => col.as_string::<i32>().value(i).as_bytes(),
        DataType::LargeUtf8 => col.as_string::<i64>().value(i).as_bytes(),
        DataType::Utf8View => col.as_string_view().value(i).as_bytes(),
        DataType::Binary => col.as_binary::<i32>().value(i),
        DataType::LargeBinary => col.as_binary::<i64>().value(i),
        DataType::BinaryView => col.as_binary_view().value(i),
        _ => return None,
    })
}

/// Offset of list element `k` (`k == len` allowed) in the list's values.
fn boundary(col: &dyn Array, k: usize) -> usize {
    match col.data_type() {
        DataType::List(_) => col.as_list::<i32>().value_offsets()[k] as usize,
        DataType::LargeList(_) => col.as_list::<i64>().value_offsets()[k] as usize,
        DataType::FixedSizeList(_, size) => k * *size as usize,
        _ => k,
    }
}

fn list_values(col: &dyn Array) -> &ArrayRef {
    match col.data_type() {
        DataType::List(_) => col.as_list::<i32>().values(),
        DataType::LargeList(_) => col.as_list::<i64>().values(),
        _ => col.as_fixed_size_list().values(),
    }
}

/// Row `i`'s range in the leaf integer array of a (nested) list column.
fn leaf_range(col: &dyn Array, i: usize) -> (usize, usize) {
    let (a, b) = (boundary(col, i), boundary(col, i + 1));
    let child = list_values(col);
    if list_child(child.data_type()).is_some() {
        (boundary(child.as_ref(), a), boundary(child.as_ref(), b))
    } else {
        (a, b)
    }
}

fn leaf_values(col: &dyn Array) -> &ArrayRef {
    let child = list_values(col);
    if list_child(child.data_type()).is_some() {
        list_values(child.as_ref())
    } else {
        child
    }
}

/// Decodes the leaf integers `range` of a list column into `cells`. A null
/// cell is a bad row, not a blank: a blank is written 0, and a null is a
/// value lost on the way (a failed cast, an outer join), which read as a
/// blank would silently solve a different puzzle.
fn ints<T: ArrowPrimitiveType>(
    leaf: &dyn Array,
    range: (usize, usize),
    side: usize,
    cells: &mut [u8],
    format: &'static str,
) -> Result<(), RecordError> {
    let arr = leaf.as_primitive::<T>();
    let values = &arr.values()[range.0..range.1];
    // No null leaf in the column (the usual case): one pass without a
    // validity test per cell converts and range-checks the row; only a row
    // it refuses takes the checked loop below, which names the cell.
    if arr.null_count() == 0 {
        let mut fits = true;
        for (c, v) in cells.iter_mut().zip(values) {
            // A negative value wraps to a huge one: refused too.
            let x = v.as_usize();
            fits &= x <= side;
            *c = x as u8;
        }
        if fits {
            return Ok(());
        }
    }
    for (k, (c, v)) in cells.iter_mut().zip(values).enumerate() {
        if arr.is_null(range.0 + k) {
            return Err(RecordError::Table {
                format,
                reason: format!("cell {} is null", k + 1),
            });
        }
        match v.to_i64() {
            Some(x) if (0..=side as i64).contains(&x) => *c = x as u8,
            _ => {
                return Err(RecordError::BadNumber {
                    cell: k + 1,
                    token: format!("{v:?}"),
                })
            }
        }
    }
    Ok(())
}

/// True when row `i` of a puzzle column (plain values) is a value to tell
/// the grid from: not null, and for text, not blank or a comment alone
/// (bad rows too, but no more evidence of a layout than a null).
fn sampled(col: &dyn Array, i: usize) -> bool {
    col.is_valid(i) && !text_value(col, i).is_some_and(crate::text::detect::is_no_value)
}

/// Non-null puzzles the grid of a table is told from (its size for lists,
/// its layout for strings), across as many batches as they take.
const SAMPLE_VALUES: usize = 100;

/// Decodes row `r` of a puzzle or solution column into `cells`.
fn decode(
    col: &dyn Array,
    r: usize,
    text: &Layout,
    n: usize,
    cells: &mut [u8],
    format: &'static str,
) -> Result<(), RecordError> {
    if col.is_null(r) {
        return Err(null_puzzle(format));
    }
    if let Some(v) = text_value(col, r) {
        return text.parse_value(v, cells);
    }
    let range = leaf_range(col, r);
    if range.1 - range.0 != n {
        return Err(RecordError::WrongLength {
            expected: n,
            found: range.1 - range.0,
        });
    }
    let side = text.boxes.side();
    // A null grid row inside a list of row lists: its cells are lost, as
    // a null cell's are (a fixed-size one still has `side` slots, which
    // would read as whatever they hold).
    let child = list_values(col);
    if list_child(child.data_type()).is_some() {
        let (a, b) = (boundary(col, r), boundary(col, r + 1));
        if let Some(k) = (a..b).find(|&k| child.is_null(k)) {
            return Err(RecordError::Table {
                format,
                reason: format!("grid row {} is null", k - a + 1),
            });
        }
    }
    let leaf = leaf_values(col).as_ref();
    match leaf.data_type() {
        DataType::Int8 => ints::<Int8Type>(leaf, range, side, cells, format),
        DataType::Int16 => ints::<Int16Type>(leaf, range, side, cells, format),
        DataType::Int32 => ints::<Int32Type>(leaf, range, side, cells, format),
        DataType::Int64 => ints::<Int64Type>(leaf, range, side, cells, format),
        DataType::UInt8 => ints::<UInt8Type>(leaf, range, side, cells, format),
        DataType::UInt16 => ints::<UInt16Type>(leaf, range, side, cells, format),
        DataType::UInt32 => ints::<UInt32Type>(leaf, range, side, cells, format),
        DataType::UInt64 => ints::<UInt64Type>(leaf, range, side, cells, format),
        dt => Err(RecordError::Table {
            format,
            reason: format!("a list of {dt} is not a grid"),
        }),
    }
}

/// Row `r`'s existing solution.
fn label<'x>(
    col: &dyn Array,
    r: usize,
    text: &Layout,
    n: usize,
    scratch: &'x mut Vec<u8>,
    format: &'static str,
) -> Label<'x> {
    if col.is_null(r) {
        return Label::Empty;
    }
    if text_value(col, r).is_some_and(|v| v.trim_ascii().is_empty()) {
        return Label::Empty;
    }
    scratch.resize(n, 0);
    match decode(col, r, text, n, scratch, format) {
        Ok(()) if scratch.iter().all(|&c| c == 0) => Label::Empty,
        Ok(()) => Label::Cells(scratch),
        Err(e) => Label::Unreadable(e.to_string()),
    }
}

/// An array of type `dt` holding the answers of the rows marked in `rows`
/// (null elsewhere): strings in `text`'s symbols, or lists of integers
/// (nested lists hold one grid row each).
fn build(
    dt: &DataType,
    answers: &[u8],
    n: usize,
    side: usize,
    rows: &[bool],
    text: &Layout,
    blank: Option<u8>,
) -> anyhow::Result<ArrayRef> {
    let blank = blank.unwrap_or(b'.');
    let nulls = NullBuffer::from(rows.to_vec());
    let row = |r: usize| &answers[r * n..(r + 1) * n];
    if is_text(dt) {
        // One values buffer and one offsets buffer for the whole batch (a
        // String per row was a visible share of an Arrow IPC run).
        let mut values = Vec::with_capacity(rows.iter().filter(|&&r| r).count() * n);
        // A symbol set writes one byte a cell, numbers (past 36x36, or a
        // column of numbers) one to three: the lengths are measured.
        let mut lengths = Vec::with_capacity(rows.len());
        for (r, &answered) in rows.iter().enumerate() {
            let start = values.len();
            if answered {
                text.write_cells(row(r), blank, &mut values);
            }
            lengths.push(values.len() - start);
        }
        let offsets = OffsetBuffer::<i32>::from_lengths(lengths);
        let utf8 = StringArray::try_new(offsets, values.into(), Some(nulls))?;
        return arrow_cast_like(Arc::new(utf8), dt);
    }
    // Lists: every row gets n leaves (zeros under a null), so offsets are
    // regular.
    let items = rows.len();
    build_list(dt, answers, items, n, side, Some(nulls))
}

/// Strings as `dt` (one of the text types).
fn arrow_cast_like(utf8: ArrayRef, dt: &DataType) -> anyhow::Result<ArrayRef> {
    let s = utf8.as_string::<i32>();
    Ok(match dt {
        DataType::Utf8 => utf8,
        DataType::LargeUtf8 => Arc::new(arrow_array::LargeStringArray::from_iter(s.iter())),
        DataType::Utf8View => Arc::new(arrow_array::StringViewArray::from_iter(s.iter())),
        DataType::Binary => Arc::new(arrow_array::BinaryArray::from_iter(
            s.iter().map(|v| v.map(str::as_bytes)),
        )),
        DataType::LargeBinary => Arc::new(arrow_array::LargeBinaryArray::from_iter(
            s.iter().map(|v| v.map(str::as_bytes)),
        )),
        DataType::BinaryView => Arc::new(arrow_array::BinaryViewArray::from_iter(
            s.iter().map(|v| v.map(str::as_bytes)),
        )),
        dt => anyhow::bail!("cannot write answers as {dt}"),
    })
}

fn prim<T: ArrowPrimitiveType>(cells: &[u8]) -> ArrayRef {
    Arc::new(PrimitiveArray::<T>::from_iter_values(
        cells.iter().map(|&v| T::Native::usize_as(v as usize)),
    ))
}

/// A list array of type `dt` with `items` items of `leaves` leaves each,
/// taken in order from `cells`.
fn build_list(
    dt: &DataType,
    cells: &[u8],
    items: usize,
    leaves: usize,
    side: usize,
    nulls: Option<NullBuffer>,
) -> anyhow::Result<ArrayRef> {
    let Some(child) = list_child(dt) else {
        return Ok(match dt {
            DataType::Int8 => prim::<Int8Type>(cells),
            DataType::Int16 => prim::<Int16Type>(cells),
            DataType::Int32 => prim::<Int32Type>(cells),
            DataType::Int64 => prim::<Int64Type>(cells),
            DataType::UInt8 => prim::<UInt8Type>(cells),
            DataType::UInt16 => prim::<UInt16Type>(cells),
            DataType::UInt32 => prim::<UInt32Type>(cells),
            DataType::UInt64 => prim::<UInt64Type>(cells),
            dt => anyhow::bail!("cannot write answers as {dt}"),
        });
    };
    // A nested list holds one grid row per inner list.
    let (per_item, child_leaves) = if list_child(child).is_some() {
        (side, leaves / side)
    } else {
        (leaves, 1)
    };
    let values = build_list(child, cells, items * per_item, child_leaves, side, None)?;
    Ok(match dt {
        DataType::List(f) => Arc::new(GenericListArray::<i32>::try_new(
            f.clone(),
            offsets::<i32>(items, per_item),
            values,
            nulls,
        )?),
        DataType::LargeList(f) => Arc::new(GenericListArray::<i64>::try_new(
            f.clone(),
            offsets::<i64>(items, per_item),
            values,
            nulls,
        )?),
        DataType::FixedSizeList(f, size) => {
            if *size as usize != per_item {
                anyhow::bail!("a fixed-size list of {size} cannot hold {per_item} cells");
            }
            Arc::new(FixedSizeListArray::try_new(
                f.clone(),
                *size,
                values,
                nulls,
            )?)
        }
        dt => anyhow::bail!("cannot write answers as {dt}"),
    })
}

fn offsets<O: OffsetSizeTrait>(items: usize, per_item: usize) -> OffsetBuffer<O> {
    OffsetBuffer::from_lengths(std::iter::repeat_n(per_item, items))
}

/// Where a table run writes.
pub enum Sink<'o> {
    /// Parquet, one output row group per input row group.
    Parquet(Box<parquet::arrow::ArrowWriter<SendWriter<'o>>>),
    /// Parquet from Parquet, untouched columns copied byte for byte.
    Splice(Box<super::parquet::Splice<'o>>),
    /// Arrow IPC file.
    File(arrow_ipc::writer::FileWriter<&'o mut dyn Write>),
    /// Arrow IPC stream.
    Stream(arrow_ipc::writer::StreamWriter<&'o mut dyn Write>),
    /// Answer lines.
    Text(&'o mut dyn Write, Vec<u8>),
}

impl Sink<'_> {
    fn write(
        &mut self,
        job: &Job<'_>,
        plan: &Plan,
        batch: &RecordBatch,
        solved: &Solved,
    ) -> anyhow::Result<()> {
        match self {
            Sink::Text(out, buf) => {
                buf.clear();
                super::write_text(job, &plan.text_layout(), solved, buf);
                out.write_all(buf)?;
            }
            sink => {
                let answer = plan.answer_batch(job, batch, solved)?;
                match sink {
                    Sink::Parquet(w) => w.write(&answer)?,
                    Sink::Splice(w) => w.write(&answer)?,
                    Sink::File(w) => w.write(&answer)?,
                    Sink::Stream(w) => {
                        w.write(&answer)?;
                        // A pipe reader sees each batch as soon as it is done.
                        w.flush()?;
                    }
                    Sink::Text(..) => unreachable!(),
                }
            }
        }
        Ok(())
    }

    /// Ends a Parquet row group, so the output keeps the input's.
    fn end_group(&mut self) -> anyhow::Result<()> {
        match self {
            Sink::Parquet(w) => w.flush()?,
            Sink::Splice(w) => w.end_group()?,
            _ => {}
        }
        Ok(())
    }

    fn finish(self) -> anyhow::Result<()> {
        match self {
            Sink::Parquet(w) => {
                w.close()?;
            }
            Sink::Splice(w) => w.finish()?,
            Sink::File(mut w) => w.finish()?,
            Sink::Stream(mut w) => w.finish()?,
            Sink::Text(out, _) => out.flush()?,
        }
        Ok(())
    }
}

/// Runs a table job: `kind` says how to read `data`.
pub fn run(
    job: &Job<'_>,
    kind: Kind,
    data: Data<'_>,
    target: Target,
    out: &mut crate::output::Output,
) -> anyhow::Result<Run> {
    run_to(job, kind, data, target, out.writer())
}

/// [`run`] writing to `w` (the fuzz targets run whole jobs in memory).
pub fn run_to(
    job: &Job<'_>,
    kind: Kind,
    data: Data<'_>,
    target: Target,
    w: &mut dyn Write,
) -> anyhow::Result<Run> {
    let codec = match &data {
        Data::File(_, d) if kind != Kind::Parquet => super::ipc::compression(d),
        Data::Owned(d) if kind != Kind::Parquet => super::ipc::compression(d),
        _ => None,
    };
    let (schema, batches, props, input): (SchemaRef, Batches<'_>, _, _) = match kind {
        Kind::Parquet => {
            let (schema, it, props, input) = super::parquet::open(job.name, data)?;
            if let Ok(mut r) = job.reporter.lock() {
                r.set_total(input.rows());
            }
            (schema, it, Some(props), Some(input))
        }
        _ => {
            let (schema, it) = super::ipc::open_in_steps(job.name, kind, data, super::ROWS_PER_STEP)?;
            (schema, it, None, None)
        }
    };
    let mut plan = Plan::new(job, kind, &schema)?;
    // Arrow answers of a Parquet input keep its puzzle column's codec where
    // Arrow IPC has it (zstd, LZ4); snappy and gzip have no IPC form.
    let codec = match &props {
        Some(p) if codec.is_none() => {
            super::parquet::ipc_codec(p, schema.field(plan.puzzle).name())
        }
        _ => codec,
    };
    // `--compression` names every column's codec of a table output.
    let (props, codec) = match target {
        Target::Columnar(to) => super::copy::codecs(job.compression, to, &plan.schema, props, codec)?,
        Target::Text => match job.compression {
            Some(c) => anyhow::bail!(
                "--compression {} applies to Parquet and Arrow outputs, not to answer lines \
                 (--compress compresses a text output)",
                c.name()
            ),
            None => (props, codec),
        },
    };
    // Making a writer writes the magic or schema: a write error of the
    // output like any later one.
    let werr = |e: anyhow::Error| written(job, Err(e)).unwrap_err();
    let mut sink = match target {
        Target::Text => Sink::Text(w, Vec::new()),
        Target::Columnar(Kind::Parquet) => {
            let props = match props {
                Some(p) => p,
                None => super::parquet::default_props(codec),
            };
            let props = super::parquet::props_for(props, &plan.schema, plan.puzzle);
            // Columns this run fills or adds are encoded; the others are
            // copied from a Parquet input when their description matches.
            let inputs = schema.fields().len();
            let encoded: Vec<bool> = (0..plan.schema.fields().len())
                .map(|i| {
                    i >= inputs
                        || (Some(i) == plan.solution && matches!(job.task, Task::Solve { .. }))
                        || plan.fields_at.contains(&Some(i))
                })
                .collect();
            // Copied column chunks keep the input's codec: none is copied
            // when the user named one.
            let copy = job.compression.is_none();
            match input.filter(|i| copy && i.fits(&plan.schema, &encoded)) {
                Some(input) => Sink::Splice(Box::new(
                    super::parquet::Splice::new(SendWriter(w), &plan.schema, props, input, encoded)
                        .map_err(werr)?,
                )),
                None => {
                    let writer = parquet::arrow::ArrowWriter::try_new(
                        SendWriter(w),
                        plan.schema.clone(),
                        Some(props),
                    )
                    .context("cannot write Parquet")
                    .map_err(werr)?;
                    Sink::Parquet(Box::new(writer))
                }
            }
        }
        Target::Columnar(Kind::ArrowFile) => {
            Sink::File(super::ipc::file_writer(w, &plan.schema, codec).map_err(werr)?)
        }
        Target::Columnar(Kind::ArrowStream) => {
            Sink::Stream(super::ipc::stream_writer(w, &plan.schema, codec).map_err(werr)?)
        }
        Target::Columnar(Kind::Npy) => anyhow::bail!(
            "{}: writing .npy from a table is not supported; use .parquet, .arrow or .txt",
            job.name
        ),
    };
    // Batch k is solved on the pool while this thread reads batch k + 1
    // and writes batch k - 1: reading and writing (decompression, encoding)
    // overlap the solving instead of leaving the workers idle.
    let mut tally = Tally::default();
    let mut first = 0u64;
    let mut batches = batches.filter(|item| !matches!(item, Ok((b, false)) if b.num_rows() == 0));
    // The batches holding the first puzzles are read ahead, and the layout
    // told from all of them (see [`Plan::decide_from`]); they are kept
    // (a batch is shared buffers: its clone copies no data) to be solved.
    let mut ahead = std::collections::VecDeque::new();
    let pulled = std::iter::from_fn(|| {
        let item = batches.next()?;
        Some(item.map(|(batch, end)| {
            ahead.push_back((batch.clone(), end));
            batch
        }))
    });
    plan.decide_from(job.name, pulled)?;
    // A batch or row group longer than a step is cut into step-sized
    // slices (views, no copy): the cells, answers and output arrays of one
    // slice are what a step holds, so memory follows the step, not the
    // writer's batch size (a one-batch 1.2M-row Arrow file peaked at 488 MB
    // solved whole).
    let mut batches = sliced(ahead.into_iter().map(Ok).chain(batches), super::ROWS_PER_STEP);
    job.pool
        .in_place_scope(|scope| -> anyhow::Result<Run> {
            let (tx, rx) = std::sync::mpsc::channel::<Solved>();
            let spawn = |work: Work| {
                let tx = tx.clone();
                scope.spawn(move |_| {
                    let _ = tx.send(work.run(job));
                });
            };
            // Rows handed to the pool so far.
            let mut taken = 0u64;
            let mut inflight: Option<(RecordBatch, bool)> = match batches.next().transpose()? {
                Some((batch, end)) => {
                    plan.held(job, &batch, taken)?;
                    taken += batch.num_rows() as u64;
                    spawn(plan.work(job, &batch)?);
                    Some((batch, end))
                }
                None => None,
            };
            while let Some((batch, ends_group)) = inflight.take() {
                let next = batches.next().transpose()?;
                let solved = rx.recv().expect("the solving task sends its result");
                if let Some((b, end)) = next {
                    plan.held(job, &b, taken)?;
                    taken += b.num_rows() as u64;
                    spawn(plan.work(job, &b)?);
                    inflight = Some((b, end));
                }
                if !super::account(job, first, &solved, &mut tally) {
                    return Ok(Run::Failed);
                }
                super::write_side(job, &solved)?;
                written(job, sink.write(job, &plan, &batch, &solved))?;
                first += batch.num_rows() as u64;
                if ends_group {
                    written(job, sink.end_group())?;
                }
            }
            Ok(Run::Done(tally))
        })
        .and_then(|run| {
            if let Run::Done(_) = run {
                written(job, sink.finish())?;
            }
            Ok(run)
        })
}

/// `batches` with every batch longer than `step` rows cut into slices of
/// `step` rows (zero-copy views into the same buffers); a group's end mark
/// goes with its last slice.
fn sliced<'a>(
    batches: impl Iterator<Item = Item> + 'a,
    step: usize,
) -> impl Iterator<Item = Item> + 'a {
    let step = step.max(1);
    batches.flat_map(move |item| -> Box<dyn Iterator<Item = Item>> {
        match item {
            Ok((batch, end)) if batch.num_rows() > step => {
                let rows = batch.num_rows();
                Box::new((0..rows).step_by(step).map(move |at| {
                    let len = step.min(rows - at);
                    Ok((batch.slice(at, len), end && at + len == rows))
                }))
            }
            item => Box::new(std::iter::once(item)),
        }
    })
}

/// `r` of a step that writes, an error of it named as a write error of the
/// output (an error of the input found on the way,
/// [`super::parquet::BadInput`], as it is).
fn written(job: &Job<'_>, r: anyhow::Result<()>) -> anyhow::Result<()> {
    r.map_err(|e| {
        if e.is::<super::parquet::BadInput>() {
            e
        } else {
            super::batches::write_failed(job.output, e)
        }
    })
}

/// The grid and the cells (`rows × cells`) of a batch's puzzles.
pub type Cells = (Boxes, Vec<u8>);

/// A table's puzzle column as `solve` finds it (`--column`, else the known
/// names) and reads it (strings in the layout its first values show, or
/// lists of integers), for callers that move rows instead of answering
/// them (`convert`): each row's cells, or the first bad row and why.
pub struct Puzzles {
    plan: Plan,
}

/// The analysis a [`Puzzles`] plan is made for: no column added.
struct NoColumns;

impl crate::record::Analysis for NoColumns {
    fn name(&self) -> &'static str {
        "convert"
    }
    fn grid_column(&self) -> Option<&'static str> {
        None
    }
    fn columns(&self) -> &[&'static str] {
        &[]
    }
    fn keeps_puzzle(&self) -> bool {
        true
    }
    fn analyse(
        &self,
        _: Boxes,
        _: &[u8],
        _: &mut [u8],
        _: &mut Vec<String>,
    ) -> Result<(), RecordError> {
        Ok(())
    }
}

impl Puzzles {
    /// Finds the puzzle column of `schema` (a `kind` table named `name`).
    pub fn new(name: &str, kind: Kind, asked: &Asked<'_>, schema: &Schema) -> anyhow::Result<Puzzles> {
        let task = Task::Analyse(&NoColumns);
        let plan = Plan::for_task(kind, name, asked, task, false, schema)?;
        Ok(Puzzles { plan })
    }

    /// The puzzle column's index.
    pub fn column(&self) -> usize {
        self.plan.puzzle
    }

    /// The solution column's index, when the table has one.
    pub fn solution_column(&self) -> Option<usize> {
        self.plan.solution
    }

    /// True when the puzzle column holds strings (a dictionary of them
    /// too), not lists of integers.
    pub fn is_text(&self) -> bool {
        let dt = self.plan.schema.field(self.plan.puzzle).data_type();
        is_text(dt) || is_text_dictionary(dt)
    }

    /// The cells of every row of `batch` (`rows × cells`, in the grid the
    /// first values decided), or the first bad row (0-based in the batch)
    /// and why.
    pub fn cells(
        &mut self,
        name: &str,
        batch: &RecordBatch,
    ) -> anyhow::Result<Result<Cells, (usize, RecordError)>> {
        let (col, _) = self.columns(name, batch)?;
        self.plan.decide(name, col.as_ref(), None)?;
        let format = self.plan.kind.row_name();
        let Some(grid) = &self.plan.grid else {
            return Ok(match batch.num_rows() {
                0 => Ok((Boxes::NINE, Vec::new())),
                _ => Err((0, null_puzzle(format))),
            });
        };
        let n = grid.text.cells();
        let mut cells = vec![0u8; batch.num_rows() * n];
        for (r, row) in cells.chunks_exact_mut(n.max(1)).enumerate() {
            if let Err(e) = decode(col.as_ref(), r, &grid.text, n, row, format) {
                return Ok(Err((r, e)));
            }
        }
        Ok(Ok((grid.boxes, cells)))
    }

    /// The one-line layout string puzzles are written in (the column's
    /// own for strings), once a value decided it.
    pub fn layout(&self) -> Option<&Layout> {
        self.plan.grid.as_ref().map(|g| &g.text)
    }

    fn columns(&self, name: &str, batch: &RecordBatch) -> anyhow::Result<(ArrayRef, Option<ArrayRef>)> {
        self.plan.columns(name, batch)
    }

    /// True when the puzzle column holds strings (or a dictionary of
    /// them): what `--blank` can rewrite (bytes and integer lists not).
    pub fn is_string(&self) -> bool {
        let string = |dt: &DataType| {
            matches!(
                dt,
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            )
        };
        match self.plan.schema.field(self.plan.puzzle).data_type() {
            DataType::Dictionary(_, v) => string(v),
            dt => string(dt),
        }
    }

    /// The schema a [`Puzzles::with_blank`] batch has: the puzzle column
    /// as plain strings (`Utf8`; `LargeUtf8` stays), every other field as
    /// it is.
    pub fn blank_schema(&self, schema: &SchemaRef) -> SchemaRef {
        let k = self.plan.puzzle;
        let f = schema.field(k);
        if matches!(f.data_type(), DataType::Utf8 | DataType::LargeUtf8) {
            return schema.clone();
        }
        let mut fields: Vec<Arc<Field>> = schema.fields().iter().cloned().collect();
        fields[k] = Arc::new(f.clone().with_data_type(DataType::Utf8));
        Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()))
    }

    /// `batch` with each puzzle string written with `blank` for its blank
    /// cells (`dedupe`/`split --blank`), in `schema` (from
    /// [`Puzzles::blank_schema`]); a row whose puzzle does not parse, and
    /// a null, keep their value, and every other column is untouched.
    pub fn with_blank(
        &mut self,
        name: &str,
        batch: &RecordBatch,
        blank: u8,
        schema: &SchemaRef,
    ) -> anyhow::Result<RecordBatch> {
        let (col, _) = self.columns(name, batch)?;
        self.plan.decide(name, col.as_ref(), None)?;
        let Some(grid) = &self.plan.grid else {
            return Ok(batch.clone());
        };
        let layout = &grid.text;
        if blank == b'0' && layout.symbols == crate::text::Symbols::Hex0 {
            anyhow::bail!("{name}: --blank 0: 36x36 grids use 0 as a symbol; leave --blank out");
        }
        let mut cells = vec![0u8; layout.cells()];
        let mut buf = Vec::new();
        let large = matches!(
            schema.field(self.plan.puzzle).data_type(),
            DataType::LargeUtf8
        );
        let mut values: Vec<Option<String>> = Vec::with_capacity(batch.num_rows());
        for r in 0..batch.num_rows() {
            let Some(raw) = text_value(col.as_ref(), r) else {
                values.push(None);
                continue;
            };
            let text = if layout.parse(raw, &mut cells).is_ok() {
                buf.clear();
                layout.write_disguised(raw, &cells, blank, None, None, &mut buf);
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                }
                String::from_utf8_lossy(&buf).into_owned()
            } else {
                String::from_utf8_lossy(raw).into_owned()
            };
            values.push(Some(text));
        }
        let puzzles: ArrayRef = if large {
            Arc::new(arrow_array::LargeStringArray::from(values))
        } else {
            Arc::new(arrow_array::StringArray::from(values))
        };
        let mut columns = batch.columns().to_vec();
        columns[self.plan.puzzle] = puzzles;
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}

/// `col` with a dictionary of values read as its values and a `Null`
/// column as null strings (as the table engine reads every column).
pub fn values(col: &ArrayRef) -> Result<ArrayRef, arrow_schema::ArrowError> {
    plain(col)
}

/// The bytes of row `i` of a string or binary column; `None` for a null
/// or a column of another type.
pub fn text_at(col: &dyn Array, i: usize) -> Option<&[u8]> {
    text_value(col, i)
}

/// `check` for a table: its puzzle column against its solution column, or
/// against the solution column of an answers table.
pub fn check(
    spec: &Asked<'_>,
    pname: &str,
    kind: Kind,
    data: Data<'_>,
    answers: Option<(&str, Data<'_>)>,
) -> anyhow::Result<Report> {
    let open =
        |name: &str, kind: Kind, data: Data<'_>| -> anyhow::Result<(SchemaRef, Vec<RecordBatch>)> {
            let (schema, it): (SchemaRef, Box<dyn Iterator<Item = Item> + '_>) = match kind {
                Kind::Parquet => {
                    let (s, it, _, _) = super::parquet::open(name, data)?;
                    (s, it)
                }
                Kind::Npy => anyhow::bail!("{name}: compare a table with a table"),
                k => super::ipc::open(name, k, data)?,
            };
            let batches = it
                .map(|r| r.map(|(b, _)| b))
                .collect::<anyhow::Result<Vec<_>>>()?;
            Ok((schema, batches))
        };
    let (schema, batches) = open(pname, kind, data)?;
    let plan_for = |kind: Kind, name: &str, schema: &Schema| {
        Plan::for_task(
            kind,
            name,
            spec,
            Task::Solve { unique: false },
            false,
            schema,
        )
    };
    let mut plan = plan_for(kind, pname, &schema)?;
    let abatches = match answers {
        Some((aname, adata)) => {
            let head = match &adata {
                Data::File(_, d) => *d,
                _ => &[],
            };
            let akind = crate::input::sniff(head)
                .ok_or_else(|| anyhow::anyhow!("{aname}: not a Parquet or Arrow file"))?;
            let (aschema, ab) = open(aname, akind, adata)?;
            let aplan = plan_for(akind, aname, &aschema);
            let col = match aplan {
                Ok(p) => p.solution.unwrap_or(p.puzzle),
                Err(_) => aschema
                    .index_of("solution")
                    .map_err(|_| anyhow::anyhow!("{aname}: no solution column"))?,
            };
            // Each batch's answer column once, as plain values.
            let ab = ab
                .iter()
                .map(|b| plain(b.column(col)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| anyhow::anyhow!("{aname}: bad {}: {e}", file_kind(akind)))?;
            Some(ab)
        }
        None => {
            if plan.solution.is_none() {
                anyhow::bail!("{pname}: no solution column to check (give the answers file too)");
            }
            None
        }
    };
    let mut report = Report::default();
    let mut row = 0u64;
    let mut arow = 0usize;
    let (mut pc, mut ac) = (Vec::new(), Vec::new());
    let flat: Option<Vec<(ArrayRef, usize)>> = abatches.as_ref().map(|cols| {
        cols.iter()
            .flat_map(|c| (0..c.len()).map(move |r| (c.clone(), r)))
            .collect()
    });
    let mut np = 0u64;
    plan.decide_from(pname, batches.iter().cloned().map(Ok))?;
    if plan.grid.is_none() {
        // No puzzle in the whole table (every value null): each row is
        // still a record, and a bad one, as `solve` counts it.
        let boxes = plan.forced.boxes.unwrap_or(Boxes::NINE);
        let text = Layout::one_line_in(boxes, plan.forced.symbols);
        plan.grid = Some(Grid {
            boxes,
            label_text: text.clone(),
            text,
        });
    }
    for batch in &batches {
        let (pcol, scol) = plan.columns(pname, batch)?;
        plan.decide(pname, pcol.as_ref(), scol.as_deref())?;
        let Some(grid) = plan.grid.clone() else {
            np += batch.num_rows() as u64;
            row += batch.num_rows() as u64;
            continue;
        };
        let n = grid.text.cells();
        pc.resize(n, 0);
        ac.resize(n, 0);
        for r in 0..batch.num_rows() {
            np += 1;
            let (acol_ref, ar) = match &flat {
                Some(f) => match f.get(arow) {
                    Some((c, ar)) => (c.as_ref(), *ar),
                    None => break,
                },
                None => (scol.as_deref().expect("checked above"), r),
            };
            arow += 1;
            let p = decode(
                pcol.as_ref(),
                r,
                &grid.text,
                n,
                &mut pc,
                plan.kind.row_name(),
            )
            .map(|()| &pc[..])
            .map_err(|e| e.to_string());
            let a = decode(
                acol_ref,
                ar,
                &grid.label_text,
                n,
                &mut ac,
                plan.kind.row_name(),
            )
            .map(|()| &ac[..])
            .map_err(|e| match e {
                RecordError::Table { reason, .. } if reason == NULL_VALUE => {
                    "no answer (null)".to_string()
                }
                e => e.to_string(),
            });
            super::record(&mut report, row, super::check_row(grid.boxes, p, a));
            row += 1;
        }
    }
    if let Some(f) = &flat {
        if f.len() as u64 != np {
            report.count_mismatch = Some((np, f.len() as u64));
        }
    }
    Ok(report)
}
