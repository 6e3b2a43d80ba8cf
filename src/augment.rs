//! `augment`: K random disguises of every record (`disguise.rs`), in the
//! input's text layout, table kind (Parquet/Arrow: `mod table` below,
//! per batch through `augment_rows`, the in-memory twin the Python
//! package calls too) or `.npy` dtype (`augment_npy`, the same). The input is loaded as `dedupe` loads it (mapped,
//! or a stream copied to a spill file), detected once, cut into
//! record-aligned chunks (`pipeline::slice_chunks`) that rayon workers
//! rewrite, and written in input order by one writer. A record's
//! disguises depend only on the seed and its cells, so every `-j` and
//! chunk size gives the same bytes.
//!
//! ```text
//! input ──load, detect──> chunks ──(workers: parse, K disguises, write)──>
//!       ordered writer ──> Output (atomic file or stdout)
//! ```
//!
//! It does not run through `Task::Analyse`: that seam writes one output
//! record per input record, and augment writes K (or K + 1).

use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;

use crate::disguise::{Disguise, Rng};
use crate::output::guard::{Plan, Role, Writes};
use crate::pipeline;
use crate::record::{Label, RecordError};
use crate::solver::Boxes;
use crate::text::detect::{self, Forced};
use crate::text::{Item, Records, Shape};

/// An `augment` run.
#[derive(Clone, Debug)]
pub struct AugmentConfig {
    /// Input path; `None` or `-` for stdin.
    pub input: Option<PathBuf>,
    /// Output path; `None` for stdout.
    pub output: Option<PathBuf>,
    /// Disguises per record.
    pub count: u32,
    /// Seed of the disguises.
    pub seed: u64,
    /// Write each record itself before its disguises.
    pub keep_original: bool,
    /// Add the transform (`canon --transform`'s notation) to each record.
    pub transform_column: bool,
    /// Blank symbol of the written puzzles; `None`: each record's own.
    pub blank: Option<u8>,
    /// `--compression`: the table output's codec (`None`: the input's).
    pub compression: Option<crate::columnar::TableCodec>,
    /// Worker threads.
    pub threads: usize,
    /// Layout choices the user forced.
    pub forced: Forced,
}

/// FNV-1a of a record's cells: with the seed, the disguises' seed.
fn cells_hash(cells: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &c in cells {
        h = (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The `count` disguises of a record with `cells`: drawn from a generator
/// seeded by `seed` and the cells alone, so a record gets the same
/// disguises wherever it stands and whatever the threads (the command and
/// [`augment_rows`] share it).
pub fn disguises(
    boxes: Boxes,
    cells: &[u8],
    seed: u64,
    count: u32,
) -> impl Iterator<Item = Disguise> {
    let mut rng = Rng::new(seed ^ cells_hash(cells).rotate_left(17));
    (0..count).map(move |_| Disguise::random(boxes, &mut rng))
}

/// What [`augment_rows`] made: output rows in order, row `k` from input
/// row `source[k]`.
#[derive(Clone, Debug, Default)]
pub struct Augmented {
    /// The output puzzles' cells, row after row (zeros where `copied`).
    pub puzzles: Vec<u8>,
    /// Their solutions' cells (zeros where the input row had none); empty
    /// when no solutions were given.
    pub solutions: Vec<u8>,
    /// Per output row, whether its input row had a solution.
    pub solved: Vec<bool>,
    /// Per output row, its transform in `canon --transform`'s notation
    /// (`None` where `copied`); empty unless asked for.
    pub transforms: Vec<Option<String>>,
    /// Per output row, its input row.
    pub source: Vec<usize>,
    /// Per output row: a bad input row copied once, unchanged (the caller
    /// writes it from its own data).
    pub copied: Vec<bool>,
}

/// `augment` in memory, for callers holding rows of cells (the Python
/// package): for every good row (`good[i]`), the row itself first when
/// `keep_original` (as the identity transform), then its `count`
/// disguises ([`disguises`], the command's), each solution (`solutions`:
/// cells and whether row `i` has one) transformed along; a bad row once,
/// marked `copied`, as the command copies it. Rows are disguised in
/// parallel on the current rayon pool; the output does not depend on the
/// threads.
#[allow(clippy::too_many_arguments)] // the command's options, one each
pub fn augment_rows(
    boxes: Boxes,
    cells: &[u8],
    good: &[bool],
    solutions: Option<(&[u8], &[bool])>,
    count: u32,
    seed: u64,
    keep_original: bool,
    transforms: bool,
) -> Augmented {
    let n = boxes.cells();
    let rows = good.len();
    assert_eq!(cells.len(), rows * n, "one row of cells a row");
    const ROWS: usize = 1024;
    let parts: Vec<Augmented> = (0..rows.div_ceil(ROWS))
        .into_par_iter()
        .map(|p| {
            let mut a = Augmented::default();
            let mut out = vec![0u8; n];
            let identity = Disguise::identity(boxes.side());
            for row in p * ROWS..rows.min((p + 1) * ROWS) {
                let c = &cells[row * n..(row + 1) * n];
                let label = solutions
                    .filter(|(_, has)| has[row])
                    .map(|(s, _)| &s[row * n..(row + 1) * n]);
                let mut put = |d: Option<&Disguise>, a: &mut Augmented| {
                    a.source.push(row);
                    a.copied.push(d.is_none());
                    match d {
                        Some(d) => d.apply(c, &mut out),
                        None => out.fill(0),
                    }
                    a.puzzles.extend_from_slice(&out);
                    if solutions.is_some() {
                        match (d, label) {
                            (Some(d), Some(l)) => d.apply(l, &mut out),
                            _ => out.fill(0),
                        }
                        a.solutions.extend_from_slice(&out);
                        a.solved.push(d.is_some() && label.is_some());
                    }
                    if transforms {
                        a.transforms.push(d.map(Disguise::to_string));
                    }
                };
                if !good[row] {
                    put(None, &mut a);
                    continue;
                }
                if keep_original {
                    put(Some(&identity), &mut a);
                }
                for d in disguises(boxes, c, seed, count) {
                    put(Some(&d), &mut a);
                }
            }
            a
        })
        .collect();
    let mut all = Augmented::default();
    for mut p in parts {
        all.puzzles.append(&mut p.puzzles);
        all.solutions.append(&mut p.solutions);
        all.solved.append(&mut p.solved);
        all.transforms.append(&mut p.transforms);
        all.source.append(&mut p.source);
        all.copied.append(&mut p.copied);
    }
    all
}

/// One chunk's output and its bad records (line within the chunk, reason).
struct Done {
    out: Vec<u8>,
    bad: Vec<(u64, RecordError)>,
    records: u64,
}

/// Runs `augment`.
pub fn augment(cfg: &AugmentConfig) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    // The output is declared to the output guard: checked against the
    // input before any work, put in place at the end.
    let mut plan = Plan::new();
    plan.input(cfg.input.as_deref());
    let slot = plan.output(
        Role::OUTPUT,
        cfg.output.as_deref(),
        Writes::Later,
        crate::output::Compress::Auto,
    );
    let mut guard = plan.check()?;
    let dir = guard.scratch_dir(Some(slot), None);
    let input = crate::dedupe::load(cfg.input.as_deref(), &dir)?;
    let name = input.name.clone();
    let data = input.bytes();
    crate::columnar::TableCodec::check_copy(cfg.compression, &name, crate::input::sniff(data))?;
    if let Some(kind) = crate::input::sniff(data) {
        let mut out = guard.take(slot, crate::dedupe::writes_of(&input, &cfg.forced)?)?;
        let (records, bad) = if kind == crate::columnar::Kind::Npy {
            augment_npy(cfg, &input, out.writer())?
        } else {
            table::augment_table(cfg, &input, kind, out.writer())?
        };
        guard.commit(vec![out])?;
        summary(cfg, &name, records, bad, start);
        return Ok(ExitCode::from(if bad > 0 { 1 } else { 0 }));
    }
    let bom = data.len() - pipeline::strip_bom(data).len();
    let found =
        detect::detect(&data[bom..], &cfg.forced).map_err(|e| anyhow::anyhow!("{name}:{e}"))?;
    let layout = found.layout.clone();
    if cfg.transform_column && layout.multiline() {
        anyhow::bail!("{name}: --transform-column needs one record a line (not grids)");
    }
    if layout.is_pencilmarks() {
        anyhow::bail!("{name}: pencilmark records are not augmented");
    }
    let copies = u64::from(cfg.count) + u64::from(cfg.keep_original);
    let mut out = guard.take(slot, crate::dedupe::writes_of(&input, &cfg.forced)?)?;
    let out_name = guard.name(slot).to_string();
    let body_at = bom + found.skip_bytes;
    let head = &data[..body_at];
    let body = &data[body_at..];
    let records_hint = Records::new(&layout, body).count() as u64;
    let mut head_out = head[..bom].to_vec();
    let lines: Vec<&[u8]> = head[bom..].split_inclusive(|&b| b == b'\n').collect();
    let header_at = lines
        .iter()
        .rposition(|l| !l.trim_ascii().is_empty())
        .filter(|_| matches!(layout.shape, Shape::Csv(_)) && found.skip_lines > 0);
    for (k, l) in lines.iter().enumerate() {
        let t = l.trim_ascii();
        if Some(k) == header_at && cfg.transform_column {
            let body = l.trim_ascii_end();
            let delim = match layout.shape {
                Shape::Csv(c) => c.delim,
                _ => b',',
            };
            head_out.extend_from_slice(body);
            head_out.push(delim);
            head_out.extend_from_slice(b"transform");
            head_out.extend_from_slice(&l[body.len()..]);
        } else if !matches!(layout.shape, Shape::Csv(_))
            && !t.is_empty()
            && t.iter().all(u8::is_ascii_digit)
        {
            let _ = write!(head_out, "{}", records_hint * copies);
            head_out.extend_from_slice(&l[l.trim_ascii_end().len()..]);
        } else {
            head_out.extend_from_slice(l);
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()?;
    let chunk_bytes = (body.len() / (cfg.threads * 16).max(1)).clamp(4 << 10, 1 << 20);
    let chunks: Vec<Cow<[u8]>> = pipeline::slice_chunks(body, &layout, chunk_bytes)
        .collect::<std::io::Result<_>>()
        .with_context(|| format!("{name}: cannot read"))?;
    let w = out.writer();
    w.write_all(&head_out)
        .with_context(|| format!("{out_name}: cannot write"))?;
    let mut line_base = found.skip_lines;
    let (mut records, mut bad) = (0u64, 0u64);
    let window = cfg.threads * 4;
    let cells = layout.cells();
    for group in chunks.chunks(window) {
        let done: Vec<Done> = pool.install(|| {
            group
                .par_iter()
                .map(|chunk| augment_chunk(cfg, &layout, cells, chunk))
                .collect()
        });
        for (chunk, d) in group.iter().zip(done) {
            for (line, err) in &d.bad {
                eprintln!("{name}:{}: {err}", line_base + line);
            }
            bad += d.bad.len() as u64;
            records += d.records;
            line_base += memchr::memchr_iter(b'\n', chunk).count() as u64;
            w.write_all(&d.out)
                .with_context(|| format!("{out_name}: cannot write"))?;
        }
    }
    guard.commit(vec![out])?;
    summary(cfg, &name, records, bad, start);
    Ok(ExitCode::from(if bad > 0 { 1 } else { 0 }))
}

/// `augment` of a `.npy` array: every row's cells (values outside the
/// grid make a row bad, copied once as it came), the disguises of
/// [`augment_rows`] on the pool, written as an array of the input's dtype
/// and row shape. `(records, bad)`.
fn augment_npy(
    cfg: &AugmentConfig,
    input: &crate::dedupe::Loaded,
    out: &mut dyn Write,
) -> anyhow::Result<(u64, u64)> {
    use crate::columnar::{npy, Asked};
    let name = &input.name;
    if cfg.transform_column {
        anyhow::bail!("{name}: --transform-column: a .npy array has no column for it");
    }
    if cfg.blank.is_some() {
        anyhow::bail!("{name}: --blank: a .npy array has no blank symbol (0 is blank)");
    }
    let arr = npy::Array::open(input.bytes(), Asked::of(&cfg.forced).boxes)
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let n = arr.cells;
    let mut cells = vec![0u8; arr.rows * n];
    let mut good = vec![true; arr.rows];
    for r in 0..arr.rows {
        if let Err(e) = arr.row(r, &mut cells[r * n..(r + 1) * n]) {
            eprintln!("{name}: row {}: {e}", r + 1);
            cells[r * n..(r + 1) * n].fill(0);
            good[r] = false;
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()?;
    let a = pool.install(|| {
        augment_rows(
            arr.boxes,
            &cells,
            &good,
            None,
            cfg.count,
            cfg.seed,
            cfg.keep_original,
            false,
        )
    });
    let dtype = arr.header.dtype;
    let mut shape = vec![a.source.len()];
    shape.extend_from_slice(&arr.header.shape[arr.lead..]);
    out.write_all(&npy::write_header(dtype, &shape))?;
    let row_bytes = n * dtype.size();
    let mut buf = Vec::with_capacity(row_bytes);
    for (k, &src) in a.source.iter().enumerate() {
        buf.clear();
        if a.copied[k] {
            buf.extend_from_slice(&arr.data[src * row_bytes..(src + 1) * row_bytes]);
        } else {
            for &v in &a.puzzles[k * n..(k + 1) * n] {
                dtype.put(u64::from(v), &mut buf);
            }
        }
        out.write_all(&buf)?;
    }
    let bad = good.iter().filter(|g| !**g).count() as u64;
    Ok((arr.rows as u64, bad))
}

/// The run's line on stderr.
fn summary(cfg: &AugmentConfig, name: &str, records: u64, bad: u64, start: Instant) {
    let copies = u64::from(cfg.count) + u64::from(cfg.keep_original);
    if crate::output::chatter() != crate::output::Chatter::Quiet {
        eprintln!(
            "sudoku-bulk: {name}: {records} records, {} written ({} disguises each{}), {bad} bad \
             (copied once, unchanged) in {:.2}s",
            (records - bad) * copies + bad,
            cfg.count,
            if cfg.keep_original {
                " after the original"
            } else {
                ""
            },
            start.elapsed().as_secs_f64()
        );
    }
}

fn augment_chunk(
    cfg: &AugmentConfig,
    layout: &crate::text::Layout,
    n: usize,
    chunk: &[u8],
) -> Done {
    let mut done = Done {
        out: Vec::with_capacity(chunk.len() * (cfg.count as usize + 1)),
        bad: Vec::new(),
        records: 0,
    };
    let mut cells = vec![0u8; n];
    let mut label = vec![0u8; n];
    let mut puzzle = vec![0u8; n];
    let mut solution = vec![0u8; n];
    let sep = layout.multiline();
    for item in Records::new(layout, chunk) {
        let Item::Record { line, raw } = item else {
            break;
        };
        done.records += 1;
        if let Err(e) = layout.parse(raw, &mut cells) {
            done.bad.push((line, e));
            write_original(layout, raw, &mut done.out);
            if sep {
                done.out.push(b'\n');
            }
            continue;
        }
        let has_label = match layout.label(raw, &mut label) {
            Label::Cells(_) => true,
            Label::Unreadable(why) => {
                done.bad
                    .push((line, RecordError::Unsupported(format!("solution: {why}"))));
                false
            }
            _ => false,
        };
        let blank = cfg.blank.unwrap_or_else(|| layout.blank_of(raw));
        // Grids of several lines are separated by an empty line.
        let mut put = |d: &Disguise, out: &mut Vec<u8>| {
            d.apply(&cells, &mut puzzle);
            let sol = has_label.then(|| {
                d.apply(&label, &mut solution);
                &solution[..]
            });
            let t = cfg.transform_column.then(|| d.to_string());
            layout.write_disguised(raw, &puzzle, blank, sol, t.as_deref(), out);
            if sep {
                out.push(b'\n');
            }
        };
        if cfg.keep_original {
            if cfg.transform_column || cfg.blank.is_some() {
                put(&Disguise::identity(layout.boxes.side()), &mut done.out);
            } else {
                write_original(layout, raw, &mut done.out);
                if sep {
                    done.out.push(b'\n');
                }
            }
        }
        for d in disguises(layout.boxes, &cells, cfg.seed, cfg.count) {
            put(&d, &mut done.out);
        }
    }
    done
}

/// A record as it came: one-line records and rows with their own line
/// end dropped for `\n`; grids as their lines.
fn write_original(layout: &crate::text::Layout, raw: &[u8], out: &mut Vec<u8>) {
    if layout.multiline() {
        out.extend_from_slice(raw);
        if !raw.ends_with(b"\n") {
            out.push(b'\n');
        }
    } else {
        layout.write_kept(raw, out);
    }
}

/// `augment` of a Parquet or Arrow table with a string puzzle column: per
/// batch, every row's cells read with the table engine's rules, disguised
/// by [`augment_rows`] on the pool, and the batch's rows taken again in
/// output order (every other column carried) with the puzzle and solution
/// columns rewritten and a `transform` column added when asked.
#[cfg(feature = "columnar")]
mod table {
    use std::io::Write;
    use std::sync::Arc;

    use arrow_array::builder::StringBuilder;
    use arrow_array::{Array, ArrayRef, RecordBatch, UInt32Array};
    use arrow_schema::{DataType, Field, Schema};

    use super::{augment_rows, AugmentConfig};
    use crate::columnar::table::{text_at, values, Puzzles};
    use crate::columnar::{copy, Asked, Kind};
    use crate::dedupe::Loaded;

    /// Augments `input` (a `kind` table) into `out`: `(records, bad)`.
    pub(super) fn augment_table(
        cfg: &AugmentConfig,
        input: &Loaded,
        kind: Kind,
        out: &mut dyn Write,
    ) -> anyhow::Result<(u64, u64)> {
        let name = input.name.as_str();
        let asked = Asked::of(&cfg.forced);
        asked.fits(name, kind)?;
        let table = copy::open(name, kind, input.data())?;
        let mut puzzles = Puzzles::new(name, kind, &asked, &table.schema)?;
        if !puzzles.is_text() {
            anyhow::bail!(
                "{name}: augment rewrites string puzzle columns; this one holds lists of numbers"
            );
        }
        let (pcol, scol) = (puzzles.column(), puzzles.solution_column());
        // Rewritten columns are plain strings; `transform` is added.
        let mut fields: Vec<Arc<Field>> = table.schema.fields().iter().cloned().collect();
        for k in [Some(pcol), scol].into_iter().flatten() {
            let f = fields[k].as_ref().clone().with_data_type(DataType::Utf8);
            fields[k] = Arc::new(f);
        }
        if cfg.transform_column {
            if fields.iter().any(|f| f.name() == "transform") {
                anyhow::bail!("{name}: --transform-column: the table has a `transform` column");
            }
            fields.push(Arc::new(Field::new("transform", DataType::Utf8, true)));
        }
        let schema = Arc::new(Schema::new_with_metadata(
            fields,
            table.schema.metadata().clone(),
        ));
        let mut ws = copy::Writers::new(
            kind,
            [out],
            &schema,
            table.props.as_ref(),
            table.codec,
            cfg.compression,
        )?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cfg.threads)
            .build()?;
        let (mut records, mut bad, mut row0) = (0u64, 0u64, 0u64);
        for item in table.batches {
            let (batch, _) = item?;
            let rows = batch.num_rows();
            records += rows as u64;
            // Cells of every row: the whole batch at once, or row by row
            // when a row is bad (it is copied once, unchanged).
            let decided = puzzles.cells(name, &batch)?;
            let Some(layout) = puzzles.layout().cloned() else {
                // No puzzle in the batch yet: every row is null.
                bad += rows as u64;
                for r in 0..rows {
                    eprintln!("{name}: row {}: no puzzle (null)", row0 + r as u64 + 1);
                }
                let keep = UInt32Array::from_iter_values(0..rows as u32);
                write(
                    &mut ws, &batch, &keep, pcol, None, scol, None, None, &schema,
                )?;
                row0 += rows as u64;
                continue;
            };
            let boxes = layout.boxes;
            let n = boxes.cells();
            let pvals = values(batch.column(pcol))?;
            let (cells, good) = match decided {
                Ok((_, cells)) => (cells, vec![true; rows]),
                Err(_) => {
                    let mut cells = vec![0u8; rows * n];
                    let mut good = vec![false; rows];
                    for r in 0..rows {
                        let row = &mut cells[r * n..(r + 1) * n];
                        let read = match text_at(pvals.as_ref(), r) {
                            None => Err("no puzzle (null)".to_string()),
                            Some(raw) => layout.parse_value(raw, row).map_err(|e| e.to_string()),
                        };
                        match read {
                            Ok(()) => good[r] = true,
                            Err(e) => {
                                row.fill(0);
                                eprintln!("{name}: row {}: {e}", row0 + r as u64 + 1);
                                bad += 1;
                            }
                        }
                    }
                    (cells, good)
                }
            };
            let svals = scol.map(|k| values(batch.column(k))).transpose()?;
            let sols = svals.as_ref().map(|col| {
                let mut sc = vec![0u8; rows * n];
                let mut has = vec![false; rows];
                for r in 0..rows {
                    let Some(raw) = text_at(col.as_ref(), r).filter(|t| !t.trim_ascii().is_empty())
                    else {
                        continue;
                    };
                    if good[r] {
                        match layout.parse_value(raw, &mut sc[r * n..(r + 1) * n]) {
                            Ok(()) => has[r] = true,
                            Err(e) => eprintln!(
                                "{name}: row {}: solution: {e} (left out of the disguises)",
                                row0 + r as u64 + 1
                            ),
                        }
                    }
                }
                (sc, has)
            });
            let a = pool.install(|| {
                augment_rows(
                    boxes,
                    &cells,
                    &good,
                    sols.as_ref().map(|(c, h)| (&c[..], &h[..])),
                    cfg.count,
                    cfg.seed,
                    cfg.keep_original,
                    cfg.transform_column,
                )
            });
            let take = UInt32Array::from_iter_values(a.source.iter().map(|&s| s as u32));
            let strings = |cells: &[u8], from: &ArrayRef, solved: Option<&[bool]>| -> ArrayRef {
                let mut b = StringBuilder::with_capacity(a.source.len(), cells.len());
                let mut v = Vec::with_capacity(n * 2);
                for (k, &src) in a.source.iter().enumerate() {
                    let original = text_at(from.as_ref(), src);
                    if a.copied[k] || solved.is_some_and(|s| !s[k]) {
                        // A bad row, or a row without a solution: as it came.
                        match original {
                            Some(t) => b.append_value(String::from_utf8_lossy(t)),
                            None => b.append_null(),
                        }
                        continue;
                    }
                    v.clear();
                    let blank = cfg.blank.unwrap_or_else(|| {
                        original.map_or(layout.usual_blank(), |o| layout.blank_of(o))
                    });
                    layout.write_cells(&cells[k * n..(k + 1) * n], blank, &mut v);
                    b.append_value(std::str::from_utf8(&v).expect("symbols are ASCII"));
                }
                Arc::new(b.finish())
            };
            let pout = strings(&a.puzzles, &pvals, None);
            let sout = svals
                .as_ref()
                .map(|col| strings(&a.solutions, col, Some(&a.solved)));
            let tout: Option<ArrayRef> = cfg.transform_column.then(|| {
                let mut b = StringBuilder::new();
                for t in &a.transforms {
                    b.append_option(t.as_deref());
                }
                Arc::new(b.finish()) as ArrayRef
            });
            write(
                &mut ws,
                &batch,
                &take,
                pcol,
                Some(pout),
                scol,
                sout,
                tout,
                &schema,
            )?;
            row0 += rows as u64;
        }
        ws.finish()?;
        Ok((records, bad))
    }

    /// Rows `take` of `batch` with the puzzle (and solution) column
    /// replaced and the transform column appended, when given.
    #[allow(clippy::too_many_arguments)]
    fn write(
        ws: &mut copy::Writers<'_>,
        batch: &RecordBatch,
        take: &UInt32Array,
        pcol: usize,
        pout: Option<ArrayRef>,
        scol: Option<usize>,
        sout: Option<ArrayRef>,
        tout: Option<ArrayRef>,
        schema: &Arc<Schema>,
    ) -> anyhow::Result<()> {
        let mut cols: Vec<ArrayRef> = batch
            .columns()
            .iter()
            .map(|c| arrow_select::take::take(c.as_ref(), take, None))
            .collect::<Result<_, _>>()?;
        let plain = |c: &ArrayRef| -> anyhow::Result<ArrayRef> {
            // Untouched puzzle/solution columns of other string types,
            // as the schema's plain strings.
            let v = values(c)?;
            let mut b = StringBuilder::new();
            for r in 0..v.len() {
                match text_at(v.as_ref(), r) {
                    Some(t) => b.append_value(String::from_utf8_lossy(t)),
                    None => b.append_null(),
                }
            }
            Ok(Arc::new(b.finish()))
        };
        cols[pcol] = match pout {
            Some(p) => p,
            None => plain(&cols[pcol])?,
        };
        if let Some(k) = scol {
            cols[k] = match sout {
                Some(s) => s,
                None => plain(&cols[k])?,
            };
        }
        if schema.fields().len() > cols.len() {
            cols.push(tout.unwrap_or_else(|| {
                Arc::new(arrow_array::StringArray::new_null(take.len())) as ArrayRef
            }));
        }
        let b = RecordBatch::try_new(schema.clone(), cols)?;
        ws.write(0, &b)
    }
}

#[cfg(not(feature = "columnar"))]
mod table {
    use super::AugmentConfig;
    use crate::columnar::Kind;
    use crate::dedupe::Loaded;

    pub(super) fn augment_table(
        _: &AugmentConfig,
        input: &Loaded,
        kind: Kind,
        _: &mut dyn std::io::Write,
    ) -> anyhow::Result<(u64, u64)> {
        anyhow::bail!(
            "{}: {} input needs sudoku-bulk built with the `columnar` feature",
            input.name,
            kind.name()
        )
    }
}
