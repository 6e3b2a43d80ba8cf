//! `convert`: a dataset from any layout the tool reads into any it writes,
//! chosen by the output's name. The input is loaded as `dedupe` loads it
//! (mapped, or a stream spilled to disk); a source turns it into steps of
//! rows (an Arrow batch of every column, and each row's puzzle cells,
//! parsed: a bad record ends the run, naming it, with nothing written);
//! a `Sink` writes the steps as text lines, delimited rows, a Parquet or
//! Arrow IPC table (through the copy passes' writers,
//! `columnar::copy::Writers`) or a `.npy` array. `generate -o x.parquet`
//! writes through the same sink.
//!
//! ```text
//! text   ──records: parse, fields → string columns──┐
//! table  ──batches: puzzle column read as `solve`───┼─> Step (batch + cells) ─> Sink ─> OUTPUT
//! .npy   ──rows: cells → one-line strings───────────┘     lines | rows | Parquet/Arrow | .npy
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use crate::output::Compress;
use crate::text::detect::Forced;

/// A `convert` run.
#[derive(Clone, Debug)]
pub struct ConvertConfig {
    /// Input path; `None` or `-` for stdin.
    pub input: Option<PathBuf>,
    /// Output path; its name picks the format.
    pub output: PathBuf,
    /// Blank symbol of written puzzles (`.` or `0`); `None`: each record's
    /// own.
    pub blank: Option<u8>,
    /// Output compression.
    pub compress: Compress,
    /// `--compression`: a table output's codec (`None`: the input's).
    pub compression: Option<crate::columnar::TableCodec>,
    /// Directory for the spill copy of a streamed input (`--temp-dir`).
    pub temp_dir: Option<PathBuf>,
    /// Layout choices the user forced (`--column` also selects the
    /// puzzle column alone for `.npy` and `.txt` outputs).
    pub forced: Forced,
}

/// Runs `convert`: exit status 0, 1 when a bad record stopped it (named on
/// stderr, no output left), 2 on usage and I/O errors.
pub fn convert(cfg: &ConvertConfig) -> anyhow::Result<ExitCode> {
    #[cfg(feature = "columnar")]
    {
        imp::convert(cfg)
    }
    #[cfg(not(feature = "columnar"))]
    {
        let _ = cfg;
        anyhow::bail!("convert needs sudoku-bulk built with the `columnar` feature")
    }
}

#[cfg(feature = "columnar")]
pub(crate) use imp::Generated;

/// `generate -o x.parquet|.arrow|.arrows|.npy` without the `columnar`
/// feature: refused.
#[cfg(not(feature = "columnar"))]
pub(crate) struct Generated;

#[cfg(not(feature = "columnar"))]
impl Generated {
    pub(crate) fn new(
        path: &std::path::Path,
        _: &mut dyn std::io::Write,
        _: &GeneratedColumns<'_>,
    ) -> anyhow::Result<Option<Generated>> {
        match crate::output::Named::of(Some(path)) {
            Some(crate::output::Named::Columnar(k)) => anyhow::bail!(
                "{}: {} output needs sudoku-bulk built with the `columnar` feature",
                crate::text::shown_path(path),
                k.name()
            ),
            _ => Ok(None),
        }
    }
    pub(crate) fn write(&mut self, _: &[crate::generate::Puzzle]) -> anyhow::Result<()> {
        Ok(())
    }
    pub(crate) fn finish(self) -> anyhow::Result<()> {
        Ok(())
    }
}

/// What `generate` writes in a table: the puzzle column (and solution
/// column) names, the extra columns, the grid, the count.
#[cfg_attr(not(feature = "columnar"), allow(dead_code))]
pub(crate) struct GeneratedColumns<'a> {
    /// The puzzle and solution column names.
    pub(crate) names: (&'a str, &'a str),
    /// Add the solution column.
    pub(crate) with_solution: bool,
    /// Add `guesses` and `level`.
    pub(crate) stats: bool,
    /// The grid.
    pub(crate) boxes: crate::solver::Boxes,
    /// Blank symbol of the puzzle strings.
    pub(crate) blank: u8,
    /// Puzzles to be written.
    pub(crate) count: u64,
    /// `--compression`: the table's codec (`None`: zstd).
    pub(crate) compression: Option<crate::columnar::TableCodec>,
}

#[cfg(feature = "columnar")]
mod imp {
    use std::fs::File;
    use std::io::{self, BufWriter, Seek, Write};
    use std::path::Path;
    use std::process::ExitCode;
    use std::sync::Arc;
    use std::time::Instant;

    use anyhow::Context;
    use arrow_array::builder::StringBuilder;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{
        Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type,
        UInt32Type, UInt64Type, UInt8Type,
    };
    use arrow_array::{Array, ArrayRef, RecordBatch};
    use arrow_schema::{DataType, Field, Schema, SchemaRef};

    use super::ConvertConfig;
    use crate::columnar::{self, copy, npy, table::Puzzles, Asked, Kind};
    use crate::dedupe::{load, Loaded};
    use crate::output::guard::{Plan, Role, Writes};
    use crate::output::{self, Named};
    use crate::pipeline;
    use crate::record::At;
    use crate::solver::Boxes;
    use crate::text::detect;
    use crate::text::{push_field, row_fields, Item, Layout, Records, Shape, Symbols};

    /// A bad record: the run stops, its output is not written.
    #[derive(Debug)]
    struct BadRecord(String);

    impl std::fmt::Display for BadRecord {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl std::error::Error for BadRecord {}

    fn bad(msg: String) -> anyhow::Error {
        anyhow::Error::new(BadRecord(msg))
    }

    /// Rows a step holds: the table engine's step.
    const STEP: usize = columnar::ROWS_PER_STEP;

    /// What an output's name asks for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum To {
        /// One puzzle a line (`.txt`).
        Lines,
        /// Delimited rows with a header (`.csv`: comma, `.tsv`: tab).
        Rows(u8),
        /// A Parquet or Arrow IPC table.
        Table(Kind),
        /// A `.npy` array of cells.
        Npy,
    }

    impl To {
        /// The format `path`'s name asks for, if any.
        pub(crate) fn of(path: &Path) -> Option<To> {
            Some(match Named::of(Some(path))? {
                Named::Text => To::Lines,
                Named::Csv => To::Rows(b','),
                Named::Tsv => To::Rows(b'\t'),
                Named::Columnar(Kind::Npy) => To::Npy,
                Named::Columnar(k) => To::Table(k),
            })
        }

        /// What the output guard checks the name against.
        pub(crate) fn writes(self) -> Writes {
            match self {
                To::Lines => Writes::Lines,
                To::Rows(d) => Writes::Rows(d),
                To::Table(k) => Writes::Table(k),
                To::Npy => Writes::Table(Kind::Npy),
            }
        }

        fn name(self) -> &'static str {
            match self {
                To::Lines => "text",
                To::Rows(b'\t') => "TSV",
                To::Rows(_) => "CSV",
                To::Table(k) => k.name(),
                To::Npy => "NumPy .npy",
            }
        }
    }

    /// Rows on their way to the sink.
    pub(crate) struct Step {
        /// Every column the output gets.
        pub(crate) batch: RecordBatch,
        /// The grid of the puzzles.
        pub(crate) boxes: Boxes,
        /// Each row's puzzle cells, `rows × cells` (0 = blank).
        pub(crate) cells: Vec<u8>,
        /// The step ends a Parquet row group of the input.
        pub(crate) ends_group: bool,
    }

    /// Where steps go: one output of one format.
    pub(crate) enum Sink<'o> {
        /// A Parquet or Arrow IPC table.
        Table(copy::Writers<'o>),
        /// Text: the puzzle column alone (`None`) or delimited rows of
        /// the `columns` kept, with a header.
        Text {
            out: &'o mut dyn Write,
            delim: Option<u8>,
            puzzle: usize,
            columns: Vec<usize>,
            blank: u8,
            buf: Vec<u8>,
        },
        /// A `.npy` array: the cells go to a spill file until the row
        /// count, which the header holds, is known (`rows` given: at once).
        Npy {
            out: &'o mut dyn Write,
            spill: Option<BufWriter<File>>,
            rows: u64,
            cells: Option<usize>,
            promised: Option<u64>,
        },
    }

    impl<'o> Sink<'o> {
        /// A sink of `to` on `out` for rows of `schema` (puzzles in column
        /// `puzzle`): Parquet with `props` (zstd when `None`), Arrow with
        /// `codec`. `keep`: the columns text rows keep (all when `None`).
        /// A `.npy` sink with `rows` (rows, cells a row) known writes its
        /// header at once and the cells straight through; else the cells
        /// wait in a spill file in `dir`.
        #[allow(clippy::too_many_arguments)]
        pub(crate) fn new(
            to: To,
            out: &'o mut dyn Write,
            schema: &SchemaRef,
            puzzle: usize,
            props: Option<parquet::file::properties::WriterProperties>,
            codec: Option<arrow_ipc::CompressionType>,
            choice: Option<columnar::TableCodec>,
            blank: u8,
            rows: Option<(u64, usize)>,
            dir: &Path,
        ) -> anyhow::Result<Sink<'o>> {
            Ok(match to {
                To::Table(kind) => {
                    let props = props.unwrap_or_else(|| columnar::parquet::default_props(codec));
                    Sink::Table(copy::Writers::new(
                        kind,
                        [out],
                        schema,
                        Some(&props),
                        codec,
                        choice,
                    )?)
                }
                _ if choice.is_some() => anyhow::bail!(
                    "--compression {} applies to Parquet and Arrow outputs (--compress \
                     compresses a text or .npy output)",
                    choice.map_or("", |c| c.name())
                ),
                To::Lines | To::Rows(_) => {
                    let delim = match to {
                        To::Rows(d) => Some(d),
                        _ => None,
                    };
                    let columns: Vec<usize> = match delim {
                        Some(_) => (0..schema.fields().len()).collect(),
                        None => vec![puzzle],
                    };
                    if let Some(d) = delim {
                        let mut head = Vec::new();
                        for (i, f) in schema.fields().iter().enumerate() {
                            if i > 0 {
                                head.push(d);
                            }
                            push_field(f.name().as_bytes(), d, &mut head);
                        }
                        head.push(b'\n');
                        out.write_all(&head)?;
                    }
                    Sink::Text {
                        out,
                        delim,
                        puzzle,
                        columns,
                        blank,
                        buf: Vec::new(),
                    }
                }
                To::Npy => {
                    let spill = match rows {
                        Some((r, c)) => {
                            out.write_all(&npy::write_header(npy::Dtype::U8, &[r as usize, c]))?;
                            None
                        }
                        None => Some(BufWriter::new(crate::cleanup::spill_file(dir)?)),
                    };
                    Sink::Npy {
                        out,
                        spill,
                        rows: 0,
                        cells: rows.map(|(_, c)| c),
                        promised: rows.map(|(r, _)| r),
                    }
                }
            })
        }

        /// Writes one step.
        pub(crate) fn write(&mut self, step: &Step) -> anyhow::Result<()> {
            match self {
                Sink::Table(w) => {
                    w.write(0, &step.batch)?;
                    if step.ends_group {
                        w.end_group(0)?;
                    }
                }
                Sink::Text {
                    out,
                    delim,
                    puzzle,
                    columns,
                    blank,
                    buf,
                } => {
                    buf.clear();
                    let rows = step.batch.num_rows();
                    let n = step.cells.len() / rows.max(1);
                    let layout = Layout::one_line(step.boxes);
                    let cols: Vec<ArrayRef> = columns
                        .iter()
                        .map(|&k| columnar::table::values(step.batch.column(k)))
                        .collect::<Result<_, _>>()?;
                    let mut field = Vec::new();
                    for r in 0..rows {
                        for (i, (&k, col)) in columns.iter().zip(&cols).enumerate() {
                            if i > 0 {
                                buf.push(delim.unwrap_or(b','));
                            }
                            field.clear();
                            if k == *puzzle && columnar::table::text_at(col.as_ref(), r).is_none() {
                                // A list of cells: its one-line text.
                                layout.write_cells(
                                    &step.cells[r * n..(r + 1) * n],
                                    *blank,
                                    &mut field,
                                );
                            } else {
                                text_field(
                                    step.batch.schema_ref().field(k),
                                    col.as_ref(),
                                    r,
                                    &mut field,
                                )?;
                            }
                            match delim {
                                Some(d) => push_field(&field, *d, buf),
                                None => buf.extend_from_slice(&field),
                            }
                        }
                        buf.push(b'\n');
                    }
                    out.write_all(buf)?;
                }
                Sink::Npy {
                    out,
                    spill,
                    rows,
                    cells,
                    ..
                } => {
                    let n = step.boxes.cells();
                    if step.cells.len() != step.batch.num_rows() * n {
                        anyhow::bail!("pencilmark records have no .npy form");
                    }
                    match *cells {
                        None => *cells = Some(n),
                        Some(c) if c != n => {
                            anyhow::bail!("a .npy array holds one grid size: {c} and {n} cells")
                        }
                        _ => {}
                    }
                    match spill {
                        Some(s) => s
                            .write_all(&step.cells)
                            .context("spill file: cannot write")?,
                        None => out.write_all(&step.cells)?,
                    }
                    *rows += step.batch.num_rows() as u64;
                }
            }
            Ok(())
        }

        /// Finishes the output (a table's footer, a `.npy` header and its
        /// cells).
        pub(crate) fn finish(self) -> anyhow::Result<()> {
            match self {
                Sink::Table(w) => w.finish(),
                Sink::Text { out, .. } => Ok(out.flush()?),
                Sink::Npy {
                    out,
                    spill,
                    rows,
                    cells,
                    promised,
                } => {
                    let cells = cells.unwrap_or(81);
                    match spill {
                        Some(spill) => {
                            let mut file = spill.into_inner().map_err(|e| e.into_error())?;
                            file.rewind()?;
                            out.write_all(&npy::write_header(
                                npy::Dtype::U8,
                                &[rows as usize, cells],
                            ))?;
                            io::copy(&mut io::BufReader::new(file), out)?;
                        }
                        None => {
                            if promised != Some(rows) {
                                anyhow::bail!(
                                    "internal error: {rows} rows written, {promised:?} promised"
                                );
                            }
                        }
                    }
                    Ok(out.flush()?)
                }
            }
        }
    }

    /// `generate`'s puzzles as a table or a `.npy` array, through the sink
    /// `convert` writes with.
    pub(crate) struct Generated<'o> {
        sink: Sink<'o>,
        schema: SchemaRef,
        layout: Layout,
        with_solution: bool,
        stats: bool,
        boxes: Boxes,
        blank: u8,
    }

    impl<'o> Generated<'o> {
        /// A writer of generated puzzles on `out` when `path` names a
        /// table or `.npy` (`None` for text names). A `.npy` array holds
        /// puzzles alone: solutions or stats are refused there.
        pub(crate) fn new(
            path: &Path,
            out: &'o mut dyn Write,
            c: &super::GeneratedColumns<'_>,
        ) -> anyhow::Result<Option<Generated<'o>>> {
            let to = match To::of(path) {
                Some(to @ (To::Table(_) | To::Npy)) => to,
                _ => return Ok(None),
            };
            if to == To::Npy && (c.with_solution || c.stats) {
                anyhow::bail!(
                    "{}: a .npy array holds only puzzles: {} would be lost; leave {} out, or \
                     name the output .parquet or .arrow",
                    crate::text::shown_path(path),
                    if c.with_solution {
                        "the solutions"
                    } else {
                        "the guesses and levels"
                    },
                    if c.with_solution {
                        "--with-solution"
                    } else {
                        "--stats"
                    },
                );
            }
            let mut fields = vec![Field::new(c.names.0, DataType::Utf8, false)];
            if c.with_solution {
                fields.push(Field::new(c.names.1, DataType::Utf8, false));
            }
            if c.stats {
                fields.push(Field::new("guesses", DataType::Int64, false));
                fields.push(Field::new("level", DataType::Utf8, false));
            }
            let schema: SchemaRef = Arc::new(Schema::new(fields));
            let rows = (to == To::Npy).then_some((c.count, c.boxes.cells()));
            let sink = Sink::new(
                to,
                out,
                &schema,
                0,
                None,
                None,
                c.compression,
                c.blank,
                rows,
                Path::new("."),
            )?;
            Ok(Some(Generated {
                sink,
                schema,
                layout: Layout::one_line(c.boxes),
                with_solution: c.with_solution,
                stats: c.stats,
                boxes: c.boxes,
                blank: c.blank,
            }))
        }

        /// Writes a batch of puzzles.
        pub(crate) fn write(&mut self, batch: &[crate::generate::Puzzle]) -> anyhow::Result<()> {
            if batch.is_empty() {
                return Ok(());
            }
            let n = self.boxes.cells();
            let cells: Vec<u8> = batch.iter().flat_map(|p| p.cells.iter().copied()).collect();
            let mut columns = vec![strings(&self.layout, &cells, n, self.blank)];
            if self.with_solution {
                let sol: Vec<u8> = batch
                    .iter()
                    .flat_map(|p| p.solution.iter().copied())
                    .collect();
                columns.push(strings(&self.layout, &sol, n, self.blank));
            }
            if self.stats {
                let g: arrow_array::Int64Array =
                    batch.iter().map(|p| Some(p.guesses as i64)).collect();
                let l: arrow_array::StringArray =
                    batch.iter().map(|p| Some(p.level.name())).collect();
                columns.push(Arc::new(g));
                columns.push(Arc::new(l));
            }
            self.sink.write(&Step {
                batch: RecordBatch::try_new(self.schema.clone(), columns)?,
                boxes: self.boxes,
                cells,
                ends_group: false,
            })
        }

        /// Finishes the output.
        pub(crate) fn finish(self) -> anyhow::Result<()> {
            self.sink.finish()
        }
    }

    /// Row `r` of column `col` (field `f`, plain values) as text: strings
    /// as they are, numbers and booleans written out, a null empty.
    fn text_field(f: &Field, col: &dyn Array, r: usize, out: &mut Vec<u8>) -> anyhow::Result<()> {
        if col.is_null(r) {
            return Ok(());
        }
        if let Some(v) = columnar::table::text_at(col, r) {
            out.extend_from_slice(v);
            return Ok(());
        }
        macro_rules! num {
            ($t:ty) => {
                write!(out, "{}", col.as_primitive::<$t>().value(r))?
            };
        }
        match col.data_type() {
            DataType::Int8 => num!(Int8Type),
            DataType::Int16 => num!(Int16Type),
            DataType::Int32 => num!(Int32Type),
            DataType::Int64 => num!(Int64Type),
            DataType::UInt8 => num!(UInt8Type),
            DataType::UInt16 => num!(UInt16Type),
            DataType::UInt32 => num!(UInt32Type),
            DataType::UInt64 => num!(UInt64Type),
            DataType::Float32 => num!(Float32Type),
            DataType::Float64 => num!(Float64Type),
            DataType::Boolean => write!(out, "{}", col.as_boolean().value(r))?,
            dt => anyhow::bail!(
                "column {:?} is {dt}, which convert does not write as text (strings, numbers \
                 and booleans only)",
                f.name()
            ),
        }
        Ok(())
    }

    pub(super) fn convert(cfg: &ConvertConfig) -> anyhow::Result<ExitCode> {
        let start = Instant::now();
        let out_path = cfg.output.as_path();
        let Some(to) = To::of(out_path) else {
            anyhow::bail!(
                "{}: the output's name picks the format: end it in .txt, .csv, .tsv, \
                 .parquet, .arrow, .arrows or .npy (a .gz, .zst, .xz or .bz2 after a text \
                 name compresses it)",
                crate::text::shown_path(out_path)
            );
        };
        let mut plan = Plan::new();
        plan.input(cfg.input.as_deref());
        let slot = plan.output(Role::OUTPUT, Some(out_path), to.writes(), cfg.compress);
        let mut outs = plan.check()?;
        let dir = outs.scratch_dir(Some(slot), cfg.temp_dir.as_deref());
        let input = load(cfg.input.as_deref(), &dir)?;
        let name = input.name.clone();
        let mut out = outs.take(slot, to.writes())?;
        let out_name = outs.name(slot).to_string();
        let run = run(cfg, to, &input, out.writer(), &dir, &out_name);
        let records = match run {
            Ok(n) => n,
            Err(e) => {
                if let Some(b) = e.downcast_ref::<BadRecord>() {
                    // The output is dropped unfinished: its temporary file
                    // goes.
                    eprintln!("sudoku-bulk: {b}; nothing written");
                    return Ok(ExitCode::from(1));
                }
                return Err(e);
            }
        };
        outs.commit(vec![out])?;
        if output::chatter() != output::Chatter::Quiet {
            eprintln!(
                "sudoku-bulk: {name}: {records} records -> {} ({}) in {:.2}s",
                crate::text::shown_path(out_path),
                to.name(),
                start.elapsed().as_secs_f64()
            );
        }
        Ok(ExitCode::SUCCESS)
    }

    /// The columns of `schema` but the puzzle's, for a refusal.
    fn others(schema: &Schema, puzzle: usize) -> Vec<String> {
        schema
            .fields()
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != puzzle)
            .map(|(_, f)| format!("{:?}", f.name()))
            .collect()
    }

    /// The conversion itself: the number of records written.
    fn run(
        cfg: &ConvertConfig,
        to: To,
        input: &Loaded,
        out: &mut dyn Write,
        dir: &Path,
        out_name: &str,
    ) -> anyhow::Result<u64> {
        let name = input.name.as_str();
        let source = Source::open(cfg, input)?;
        let schema = source.schema.clone();
        let puzzle = source.puzzle;
        // `.npy` and one-puzzle lines hold the puzzle alone: other columns
        // would be lost, so they go only when the user named the puzzle
        // column.
        if matches!(to, To::Npy | To::Lines)
            && schema.fields().len() > 1
            && cfg.forced.column.is_none()
        {
            let what = match to {
                To::Npy => "a .npy array holds only puzzles",
                _ => "text (.txt) holds one puzzle a line",
            };
            anyhow::bail!(
                "{out_name}: {what}: the column(s) {} of {name} would be lost; give --column {:?} \
                 to write the puzzles alone, or name the output .csv, .tsv, .parquet or .arrow",
                others(&schema, puzzle).join(", "),
                schema.field(puzzle).name()
            );
        }
        if to == To::Npy && source.marks {
            anyhow::bail!(
                "{out_name}: pencilmark records have no .npy form (a .npy array holds puzzle \
                 cells); name the output .txt, .csv, .parquet or .arrow"
            );
        }
        let (props, codec) = match (&source.props, source.codec, to) {
            (Some(p), _, To::Table(Kind::ArrowFile | Kind::ArrowStream)) => (
                None,
                columnar::parquet::ipc_codec(p, schema.field(puzzle).name()),
            ),
            (p, c, _) => (p.clone(), c),
        };
        let blank = cfg.blank.unwrap_or(b'.');
        let mut sink = Sink::new(
            to,
            out,
            &schema,
            puzzle,
            props,
            codec,
            cfg.compression,
            blank,
            None,
            dir,
        )?;
        let written = |e: anyhow::Error| {
            if e.is::<BadRecord>() {
                e
            } else {
                e.context(format!("{out_name}: cannot write"))
            }
        };
        let records = source.run(cfg, &mut |step| sink.write(&step).map_err(written))?;
        sink.finish().map_err(written)?;
        Ok(records)
    }

    /// An opened input: its columns and how to read its steps.
    struct Source<'a> {
        /// Pencilmark (candidate) records, which have no cells to store.
        marks: bool,
        schema: SchemaRef,
        puzzle: usize,
        props: Option<parquet::file::properties::WriterProperties>,
        codec: Option<arrow_ipc::CompressionType>,
        input: &'a Loaded,
        shape: Shaped<'a>,
    }

    enum Shaped<'a> {
        Text {
            found: Box<detect::Detected>,
            body: &'a [u8],
            names: Vec<String>,
        },
        Table {
            table: Box<copy::Table<'a>>,
            puzzles: Box<Puzzles>,
        },
        Npy(npy::Array<'a>),
    }

    impl<'a> Source<'a> {
        fn open(cfg: &ConvertConfig, input: &'a Loaded) -> anyhow::Result<Source<'a>> {
            let name = input.name.as_str();
            let data = input.bytes();
            let forced = &cfg.forced;
            match crate::input::sniff(data) {
                Some(Kind::Npy) => {
                    if forced.column.is_some() {
                        anyhow::bail!(
                            "{name}: --column applies to tables and CSV, not to a .npy array"
                        );
                    }
                    let arr = npy::Array::open(data, Asked::of(forced).boxes)
                        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
                    check_blank(cfg, name, &Layout::one_line(arr.boxes))?;
                    Ok(Source {
                        marks: false,
                        schema: Arc::new(Schema::new(vec![Field::new(
                            "puzzle",
                            DataType::Utf8,
                            false,
                        )])),
                        puzzle: 0,
                        props: None,
                        codec: None,
                        input,
                        shape: Shaped::Npy(arr),
                    })
                }
                Some(kind) => {
                    let asked = Asked::of(forced);
                    asked.fits(name, kind)?;
                    let table = copy::open(name, kind, input.data())?;
                    let puzzles = Puzzles::new(name, kind, &asked, &table.schema)?;
                    let puzzle = puzzles.column();
                    let mut schema = table.schema.clone();
                    if cfg.blank.is_some() && puzzles.is_text() {
                        // Re-encoded puzzles are plain strings.
                        let mut fields: Vec<Arc<Field>> = schema.fields().iter().cloned().collect();
                        let f = fields[puzzle]
                            .as_ref()
                            .clone()
                            .with_data_type(DataType::Utf8);
                        fields[puzzle] = Arc::new(f);
                        schema =
                            Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
                    }
                    Ok(Source {
                        marks: false,
                        schema,
                        puzzle,
                        props: table.props.clone(),
                        codec: table.codec,
                        input,
                        shape: Shaped::Table {
                            table: Box::new(table),
                            puzzles: Box::new(puzzles),
                        },
                    })
                }
                None => {
                    let bom = data.len() - pipeline::strip_bom(data).len();
                    let found = detect::detect(&data[bom..], forced)
                        .map_err(|e| anyhow::anyhow!("{name}:{e}"))?;
                    let body = &data[bom + found.skip_bytes..];
                    let layout = &found.layout;
                    if cfg.blank.is_some() && layout.is_pencilmarks() {
                        anyhow::bail!(
                            "{name}: --blank applies to puzzles, not to pencilmark records"
                        );
                    }
                    check_blank(cfg, name, layout)?;
                    let names = text_columns(name, &found, body)?;
                    let puzzle = match layout.shape {
                        Shape::Csv(cols) => cols.puzzle,
                        _ => 0,
                    };
                    if puzzle >= names.len() {
                        anyhow::bail!("{name}: the header has no puzzle column {}", puzzle + 1);
                    }
                    let fields: Vec<Field> = names
                        .iter()
                        .enumerate()
                        .map(|(i, n)| Field::new(n, DataType::Utf8, i != puzzle))
                        .collect();
                    Ok(Source {
                        marks: layout.is_pencilmarks(),
                        schema: Arc::new(Schema::new(fields)),
                        puzzle,
                        props: None,
                        codec: None,
                        input,
                        shape: Shaped::Text {
                            found: Box::new(found),
                            body,
                            names,
                        },
                    })
                }
            }
        }

        /// Reads every step into `emit`; the number of records.
        fn run(
            self,
            cfg: &ConvertConfig,
            emit: &mut dyn FnMut(Step) -> anyhow::Result<()>,
        ) -> anyhow::Result<u64> {
            let name = self.input.name.as_str();
            match self.shape {
                Shaped::Text { found, body, names } => {
                    text_steps(cfg, name, &found, body, names.len(), &self.schema, emit)
                }
                Shaped::Table { table, mut puzzles } => {
                    let mut rows = 0u64;
                    for item in table.batches {
                        let (batch, ends_group) = item?;
                        let (boxes, cells) = match puzzles.cells(name, &batch)? {
                            Ok(c) => c,
                            Err((r, e)) => {
                                return Err(bad(format!("{name}:row {}: {e}", rows + r as u64 + 1)))
                            }
                        };
                        let batch = match (cfg.blank, puzzles.is_text()) {
                            (Some(blank), true) => {
                                let layout = puzzles
                                    .layout()
                                    .cloned()
                                    .unwrap_or_else(|| Layout::one_line(boxes));
                                let n = boxes.cells();
                                let col = strings(&layout, &cells, n, blank);
                                let mut columns = batch.columns().to_vec();
                                columns[self.puzzle] = col;
                                RecordBatch::try_new(self.schema.clone(), columns)?
                            }
                            _ => batch,
                        };
                        rows += batch.num_rows() as u64;
                        emit(Step {
                            batch,
                            boxes,
                            cells,
                            ends_group,
                        })?;
                    }
                    Ok(rows)
                }
                Shaped::Npy(arr) => {
                    let layout = Layout::one_line(arr.boxes);
                    let n = arr.cells;
                    let blank = cfg.blank.unwrap_or(b'.');
                    for first in (0..arr.rows).step_by(STEP) {
                        let rows = (arr.rows - first).min(STEP);
                        let mut cells = vec![0u8; rows * n];
                        for (r, row) in cells.chunks_exact_mut(n).enumerate() {
                            arr.row(first + r, row)
                                .map_err(|e| bad(format!("{name}:row {}: {e}", first + r + 1)))?;
                        }
                        let col = strings(&layout, &cells, n, blank);
                        emit(Step {
                            batch: RecordBatch::try_new(self.schema.clone(), vec![col])?,
                            boxes: arr.boxes,
                            cells,
                            ends_group: false,
                        })?;
                    }
                    Ok(arr.rows as u64)
                }
            }
        }
    }

    /// `--blank 0` where `0` is no blank of the symbols (36x36 grids write
    /// `0` as a digit) is refused.
    fn check_blank(cfg: &ConvertConfig, name: &str, layout: &Layout) -> anyhow::Result<()> {
        if cfg.blank == Some(b'0') && layout.symbols == Symbols::Hex0 {
            anyhow::bail!("{name}: --blank 0: 36x36 grids use 0 as a symbol; leave --blank out");
        }
        Ok(())
    }

    /// A string column of `cells` (`n` a row) in `layout`'s symbols.
    fn strings(layout: &Layout, cells: &[u8], n: usize, blank: u8) -> ArrayRef {
        let rows = cells.len() / n.max(1);
        let mut b = StringBuilder::with_capacity(rows, cells.len());
        let mut v = Vec::with_capacity(n * 3);
        for row in cells.chunks_exact(n.max(1)) {
            v.clear();
            layout.write_cells(row, blank, &mut v);
            b.append_value(std::str::from_utf8(&v).expect("symbols are ASCII"));
        }
        Arc::new(b.finish())
    }

    /// The column names of a text input: a CSV header's fields as they
    /// are; for delimited rows without one, `puzzle`, `solution` and
    /// `column_N` (N from 1) for the others, as many as the first row has;
    /// `puzzle` alone for the other layouts.
    fn text_columns(
        name: &str,
        found: &detect::Detected,
        body: &[u8],
    ) -> anyhow::Result<Vec<String>> {
        let Shape::Csv(cols) = found.layout.shape else {
            return Ok(vec!["puzzle".to_string()]);
        };
        if !found.header.is_empty() {
            let fields = row_fields(&found.header, cols.delim)
                .map_err(|e| anyhow::anyhow!("{name}: header: {e}"))?;
            return fields
                .into_iter()
                .map(|f| {
                    String::from_utf8(f).map_err(|_| {
                        anyhow::anyhow!("{name}: header: a column name is not UTF-8 text")
                    })
                })
                .collect();
        }
        let width = match Records::new(&found.layout, body).next() {
            Some(Item::Record { raw, .. }) => row_fields(raw, cols.delim).map_or(1, |f| f.len()),
            _ => cols.puzzle + 1,
        };
        Ok((0..width.max(cols.puzzle + 1))
            .map(|k| {
                if k == cols.puzzle {
                    "puzzle".to_string()
                } else if Some(k) == cols.solution {
                    "solution".to_string()
                } else {
                    format!("column_{}", k + 1)
                }
            })
            .collect())
    }

    /// The steps of a text input: every record parsed (the first bad one
    /// ends the run), its fields as strings.
    fn text_steps(
        cfg: &ConvertConfig,
        name: &str,
        found: &detect::Detected,
        body: &[u8],
        width: usize,
        schema: &SchemaRef,
        emit: &mut dyn FnMut(Step) -> anyhow::Result<()>,
    ) -> anyhow::Result<u64> {
        let layout = &found.layout;
        let one_line = Layout::one_line(layout.boxes);
        let n = layout.cells();
        let records = Records::new(layout, body);
        let mut row = 0u64;
        let new_builders = || -> Vec<StringBuilder> {
            (0..width)
                .map(|_| StringBuilder::with_capacity(STEP, STEP * 8))
                .collect()
        };
        let mut builders = new_builders();
        let mut cells: Vec<u8> = Vec::with_capacity(STEP * n);
        let mut in_step = 0;
        let mut value = Vec::with_capacity(n * 3);
        let mut flush =
            |builders: &mut Vec<StringBuilder>, cells: &mut Vec<u8>| -> anyhow::Result<()> {
                let columns: Vec<ArrayRef> = builders
                    .iter_mut()
                    .map(|b| Arc::new(b.finish()) as ArrayRef)
                    .collect();
                emit(Step {
                    batch: RecordBatch::try_new(schema.clone(), columns)?,
                    boxes: layout.boxes,
                    cells: std::mem::take(cells),
                    ends_group: false,
                })
            };
        let utf8 = |v: &[u8], at: At, what: &dyn Fn() -> String| -> anyhow::Result<String> {
            String::from_utf8(v.to_vec())
                .map_err(|_| bad(format!("{name}:{at}: {} is not UTF-8 text", what())))
        };
        for item in records {
            let Item::Record { line, raw } = item else {
                break;
            };
            row += 1;
            let at = At {
                line: found.skip_lines + line,
                row,
            };
            let start = cells.len();
            cells.resize(start + n, 0);
            layout
                .parse(raw, &mut cells[start..])
                .map_err(|e| bad(format!("{name}:{at}: {e}")))?;
            let puzzle_cells = &cells[start..];
            match layout.shape {
                Shape::Csv(cols) => {
                    let fields = row_fields(raw, cols.delim)
                        .map_err(|e| bad(format!("{name}:{at}: {e}")))?;
                    if fields.len() > width {
                        return Err(bad(format!(
                            "{name}:{at}: {} fields, the header has {width}",
                            fields.len()
                        )));
                    }
                    for (k, b) in builders.iter_mut().enumerate() {
                        match (fields.get(k), cfg.blank) {
                            (Some(_), Some(blank)) if k == cols.puzzle => {
                                value.clear();
                                layout.write_cells(puzzle_cells, blank, &mut value);
                                b.append_value(std::str::from_utf8(&value).expect("ASCII"));
                            }
                            (Some(f), _) => {
                                b.append_value(utf8(f, at, &|| format!("field {}", k + 1))?)
                            }
                            (None, _) => b.append_null(),
                        }
                    }
                }
                Shape::Line => {
                    let text = raw.trim_ascii();
                    let end = text
                        .iter()
                        .position(u8::is_ascii_whitespace)
                        .unwrap_or(text.len());
                    if end < text.len() {
                        return Err(bad(format!(
                            "{name}:{at}: text after the puzzle (a comment or a rating) has \
                             no column to go to; remove it, or make the file CSV"
                        )));
                    }
                    match cfg.blank {
                        Some(blank) => {
                            value.clear();
                            layout.write_cells(puzzle_cells, blank, &mut value);
                            builders[0].append_value(std::str::from_utf8(&value).expect("ASCII"));
                        }
                        None => builders[0].append_value(utf8(text, at, &|| "the puzzle".into())?),
                    }
                }
                _ => {
                    // Grids and number rows: the one-line form, in the
                    // record's own blank unless --blank says.
                    let blank = cfg.blank.unwrap_or_else(|| layout.blank_of(raw));
                    value.clear();
                    one_line.write_cells(puzzle_cells, blank, &mut value);
                    builders[0].append_value(std::str::from_utf8(&value).expect("ASCII"));
                }
            }
            in_step += 1;
            if in_step == STEP {
                flush(&mut builders, &mut cells)?;
                cells.reserve(STEP * n);
                in_step = 0;
            }
        }
        if in_step > 0 || row == 0 {
            flush(&mut builders, &mut cells)?;
        }
        Ok(row)
    }
}
