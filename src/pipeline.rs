//! The bulk engine: input bytes → record-aligned chunks → solved on rayon
//! workers → written back in input order by one writer. The sequential path
//! (`threads == 1`) runs the very same chunk and writer code on one thread, so
//! both give byte-identical output.
//!
//! Memory stays bounded: at most `4 × threads` chunks are in flight (being
//! solved or waiting for an earlier chunk to be written), fewer when chunks
//! are big (about 256 MiB in flight at most), whatever the input size. A
//! stream is read and cut on its own reader thread ([`stream_chunks`]),
//! which holds one chunk plus two queued, and never a line longer than
//! [`MAX_LINE`].

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Read, Write};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use crate::record::{self, At, Label, Verdict};
use crate::text::{classify_line, Item, Layout, Line, RecordError, Records, Shape};

pub use crate::record::Task;

/// What to do when a record is bad.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnError {
    /// Write a marked line for it, report it, go on (exit status 1 at the end).
    #[default]
    Mark,
    /// Stop at the first bad record, in input order.
    Fail,
}

/// How to run a job; built by `args` from the command line.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Worker threads; 1 takes the sequential path.
    pub threads: usize,
    /// Target chunk size in bytes; chunks end at a record boundary after it.
    pub chunk_bytes: usize,
    /// Bad-record policy.
    pub on_error: OnError,
    /// Lines before the first chunk (a header or count line), so reported
    /// line numbers are those of the file.
    pub line_offset: u64,
    /// Append each answered puzzle's guesses and level (one-line and CSV
    /// layouts only).
    pub stats: bool,
    /// Replace every existing label (solution field) with ours.
    pub overwrite: bool,
    /// One-per-line layout: one output line per input line, blank and `#`
    /// lines echoed.
    pub keep_lines: bool,
    /// Delimited rows: end each output row with CRLF, as the input's
    /// lines end (the text layouts' answers keep LF).
    pub crlf: bool,
    /// Delimited rows under an analysis with `--overwrite`: per column of
    /// the analysis, the row's field it replaces in place (`None`: added
    /// after the others). Empty: every column is added.
    pub fields_at: &'static [Option<usize>],
}

/// Counts over the records processed so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Puzzle records seen (bad ones included).
    pub records: u64,
    /// Records answered.
    pub solved: u64,
    /// Of `solved`, records whose existing solution (label) was verified
    /// and written back instead of ours ("kept" in the summary).
    pub kept: u64,
    /// Records that got an error mark.
    pub bad: u64,
    /// Search branch points over all puzzles.
    pub guesses: u64,
    /// `count`: puzzles with no solution, exactly one, and at least the limit
    /// (when the limit is 1, the last two coincide).
    pub by_count: [u64; 3],
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.records += other.records;
        self.solved += other.solved;
        self.kept += other.kept;
        self.bad += other.bad;
        self.guesses += other.guesses;
        for (a, b) in self.by_count.iter_mut().zip(other.by_count) {
            *a += b;
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Totals over the records written.
    pub tally: Tally,
    /// Set when `OnError::Fail` stopped the run: the place and reason of
    /// the first bad record; or a record holding a value where the run
    /// would write ([`RecordError::Held`]), whatever `on_error` says.
    pub failed: Option<(At, RecordError)>,
}

/// Receives what the writer learns, in input order.
pub trait Observer {
    /// A bad record at `at` (with `OnError::Mark`).
    fn bad_record(&mut self, at: At, err: &RecordError);
    /// Progress after a chunk was written: input bytes and records done.
    fn progress(&mut self, bytes: u64, records: u64);
}

/// One chunk's answers, waiting for its turn to be written.
#[derive(Default)]
struct ChunkResult {
    out: Vec<u8>,
    /// Bad records: line and record relative to the chunk start (both
    /// 1-based) and reason.
    errors: Vec<(u64, u64, RecordError)>,
    /// Newlines in the chunk, to number the lines of later chunks.
    lines: u64,
    bytes: u64,
    tally: Tally,
    /// The chunk held an `end` line: nothing after it counts.
    ended: bool,
    /// With `OnError::Fail`, the length of `out` before the bad record
    /// that stopped the chunk: the writer writes only what comes before.
    before_bad: usize,
    /// An analysis's side lines ([`record::Analysis::side`]), one per
    /// record, each ending in a newline.
    side: Vec<u8>,
    /// With `OnError::Fail`, the length of `side` before the bad record.
    side_before_bad: usize,
}

/// Solves every record of one chunk. Pure CPU work: runs on a worker.
fn process_chunk(task: Task, opts: &Options, layout: &Layout, data: &[u8]) -> ChunkResult {
    let mut res = ChunkResult {
        out: Vec::with_capacity(data.len() + data.len() / 8),
        bytes: data.len() as u64,
        lines: memchr::memchr_iter(b'\n', data).count() as u64,
        ..ChunkResult::default()
    };
    let n = layout.cells();
    let mut bufs = Buffers {
        cells: vec![0u8; n],
        label: vec![0u8; n],
        answer: vec![0u8; n],
        fields: Vec::new(),
    };
    let fail = opts.on_error == OnError::Fail;
    if opts.keep_lines && layout.shape == Shape::Line {
        // Streaming-filter mode: one output line per input line, blanks,
        // comments and `end` echoed as they are, so callers can zip input
        // and output (Hadoop streaming, Spark's RDD.pipe).
        for (k, text) in data.split_inclusive(|&b| b == b'\n').enumerate() {
            let text = text.strip_suffix(b"\n").unwrap_or(text);
            match classify_line(text) {
                Line::Text(raw) => {
                    res.tally.records += 1;
                    let before = (res.out.len(), res.side.len());
                    let good =
                        one_record(task, opts, layout, k as u64 + 1, raw, &mut bufs, &mut res);
                    if !good && (fail || stops(&res)) {
                        (res.before_bad, res.side_before_bad) = before;
                        break;
                    }
                }
                Line::Skip | Line::End => {
                    res.out.extend_from_slice(text);
                    res.out.push(b'\n');
                }
            }
        }
        return res;
    }
    // Multi-line answers are separated by an empty line; every record gets
    // one in front and the writer drops the very first.
    let sep = grids_out(task, layout);
    for item in Records::new(layout, data) {
        let (line, raw) = match item {
            Item::End => {
                res.ended = true;
                break;
            }
            Item::Record { line, raw } => (line, raw),
        };
        res.tally.records += 1;
        let before = (res.out.len(), res.side.len());
        if sep {
            res.out.push(b'\n');
        }
        let good = one_record(task, opts, layout, line, raw, &mut bufs, &mut res);
        if !good && (fail || stops(&res)) {
            (res.before_bad, res.side_before_bad) = before;
            break;
        }
    }
    res
}

/// True when the chunk's last bad record stops the run whatever
/// `--on-error` says: a column the run would write into holds a value
/// ([`RecordError::Held`]).
fn stops(res: &ChunkResult) -> bool {
    matches!(res.errors.last(), Some((_, _, RecordError::Held { .. })))
}

/// True when `task` writes a grid of several lines per record (`layout`'s
/// grids): those records are separated by an empty line.
fn grids_out(task: Task, layout: &Layout) -> bool {
    layout.multiline()
        && match task {
            Task::Solve { .. } => true,
            Task::Count { .. } => false,
            Task::Analyse(a) => a.grid_column().is_some(),
        }
}

/// Per-record scratch space, allocated once per chunk.
struct Buffers {
    cells: Vec<u8>,
    label: Vec<u8>,
    answer: Vec<u8>,
    /// An analysis's text fields.
    fields: Vec<String>,
}

/// Parses, solves and writes one record (line `line` of the chunk); false
/// when it is bad. The label rule is `record::answer`'s: a valid existing
/// solution is written back byte for byte, a wrong one is reported and kept
/// (the record counts as bad) unless `--overwrite`.
#[inline(always)]
fn one_record(
    task: Task,
    opts: &Options,
    layout: &Layout,
    line: u64,
    raw: &[u8],
    bufs: &mut Buffers,
    res: &mut ChunkResult,
) -> bool {
    if let Task::Analyse(analysis) = task {
        return analysed_record(analysis, opts, layout, line, raw, bufs, res);
    }
    // Whether the record holds a label that a bad verdict must leave in
    // place (a solve without `--overwrite`): an error mark written over it
    // would lose the dataset's own answer.
    let label_held;
    // A delimited row's fields, found once for parse, label and write.
    let split = layout.split_row(raw);
    let split = split.as_ref();
    let verdict = match layout.parse_split(raw, split, &mut bufs.cells) {
        Err(err) => {
            label_held = layout.has_labels()
                && !matches!(
                    layout.label_split(raw, split, &mut bufs.label),
                    Label::Empty | Label::Absent
                );
            Verdict::Bad(err)
        }
        Ok(()) => {
            // Most layouts have no label field: skip the call (21
            // instructions a record on one-per-line input, callgrind).
            let label = if layout.has_labels() {
                layout.label_split(raw, split, &mut bufs.label)
            } else {
                Label::Absent
            };
            label_held = !matches!(label, Label::Empty | Label::Absent);
            let outcome = record::answer(
                layout.boxes,
                task,
                label,
                opts.overwrite,
                &bufs.cells,
                &mut bufs.answer,
            );
            res.tally.guesses += outcome.guesses;
            outcome.verdict
        }
    };
    let out = &mut res.out;
    match verdict {
        Verdict::Answered(count) => {
            res.tally.solved += 1;
            match task {
                Task::Solve { .. } => layout.write_answer_split(raw, split, &bufs.answer, out),
                Task::Analyse(_) => unreachable!("analyses take `analysed_record`"),
                Task::Count { limit } => {
                    res.tally.by_count[count.min(2) as usize] += 1;
                    // Digits by hand: `writeln!` went through
                    // `core::fmt` (~185 instructions a record, callgrind).
                    let mut digits = Vec::new();
                    let n = if matches!(layout.shape, Shape::Csv(_)) {
                        &mut digits
                    } else {
                        &mut *out
                    };
                    if count >= limit {
                        push_decimal(limit, n);
                        n.push(b'+');
                    } else {
                        push_decimal(count, n);
                    }
                    // A delimited row keeps its fields, the count added
                    // as a column (as a table's `solutions`).
                    if !layout.write_added_field(raw, &digits, out) {
                        out.push(b'\n');
                    }
                }
            }
        }
        Verdict::Kept => {
            res.tally.solved += 1;
            res.tally.kept += 1;
            layout.write_kept(raw, out);
        }
        Verdict::Bad(err) => {
            res.tally.bad += 1;
            let err = match err {
                // Name the clashing digit in the file's own symbols.
                RecordError::Duplicate { .. } => layout.no_solution(&bufs.cells),
                e => e,
            };
            // (Not a row with an unterminated quote: written back, it would
            // swallow the rows after it again.)
            let keep = matches!(err, RecordError::WrongLabel(_))
                || (label_held
                    && matches!(task, Task::Solve { .. })
                    && !opts.overwrite
                    && err != RecordError::RunOnQuote);
            let count_row = matches!(task, Task::Count { .. })
                && matches!(layout.shape, Shape::Csv(_))
                && err != RecordError::RunOnQuote;
            if count_row {
                // The row kept, the mark in the added count column.
                layout.write_added_field(raw, format!("error: {err}").as_bytes(), out);
            } else if keep {
                // The old label stays, unchanged, whatever is wrong with the
                // record; the message says what.
                layout.write_kept(raw, out);
            } else {
                layout.write_error(raw, &err, out);
            }
            crlf_end(opts, out);
            res.errors.push((line, res.tally.records, err));
            return false;
        }
    }
    if opts.stats {
        append_stats(layout, &bufs.cells, out);
    }
    crlf_end(opts, out);
    true
}

/// Appends `n` in decimal, as `write!(out, "{n}")` does.
#[inline]
fn push_decimal(n: u32, out: &mut Vec<u8>) {
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    let mut n = n;
    while n > 0 {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    out.extend_from_slice(&buf[i..]);
}

/// With [`Options::crlf`], turns the line end of the row just written into
/// CRLF (only the row's own end: a line break inside a quoted field stays
/// as it was).
#[inline]
fn crlf_end(opts: &Options, out: &mut Vec<u8>) {
    if opts.crlf && out.last() == Some(&b'\n') {
        out.pop();
        out.extend_from_slice(b"\r\n");
    }
}

/// [`one_record`] for an [`record::Analysis`]: parses, analyses and writes
/// one record; false when it is bad. Existing labels are not read.
fn analysed_record(
    analysis: &dyn record::Analysis,
    opts: &Options,
    layout: &Layout,
    line: u64,
    raw: &[u8],
    bufs: &mut Buffers,
    res: &mut ChunkResult,
) -> bool {
    let parsed = layout.parse(raw, &mut bufs.cells);
    let read = parsed.is_ok();
    let held = match (&parsed, layout.shape) {
        (Err(RecordError::RunOnQuote), _) => None,
        (_, Shape::Csv(cols)) if !opts.overwrite => {
            held_field(raw, cols.delim, opts.fields_at, analysis)
        }
        _ => None,
    };
    let verdict = match parsed {
        _ if held.is_some() => Verdict::Bad(held.expect("checked")),
        Err(err) => Verdict::Bad(err),
        Ok(()) => {
            record::analyse(
                layout.boxes,
                analysis,
                &bufs.cells,
                &mut bufs.answer,
                &mut bufs.fields,
            )
            .verdict
        }
    };
    if analysis.side() {
        // The side line leaves the fields before they are written.
        let line = match &verdict {
            Verdict::Bad(err) => {
                analysis.side_of_bad(read.then_some(&bufs.cells[..]), err)
            }
            _ => bufs.fields.pop().unwrap_or_default(),
        };
        res.side.extend_from_slice(line.as_bytes());
        res.side.push(b'\n');
    }
    if let (false, Shape::Csv(cols)) = (opts.fields_at.is_empty(), layout.shape) {
        // `--overwrite`: the analysis's fields go where the row has them.
        if !matches!(verdict, Verdict::Bad(RecordError::RunOnQuote)) {
            let mark;
            let values: Vec<&[u8]> = match &verdict {
                Verdict::Bad(err) => {
                    // The mark in the status column (else the first), the
                    // others empty, as `write_analysis_error` writes added
                    // columns.
                    mark = crate::text::error_mark(analysis, err);
                    let mut v = vec![&b""[..]; opts.fields_at.len()];
                    v[analysis.status().unwrap_or(0)] = mark.as_bytes();
                    v
                }
                _ => bufs.fields.iter().map(|f| f.as_bytes()).collect(),
            };
            replace_fields(raw, cols.delim, opts.fields_at, &values, &mut res.out);
            crlf_end(opts, &mut res.out);
            if let Verdict::Bad(err) = verdict {
                res.tally.bad += 1;
                res.errors.push((line, res.tally.records, err));
                return false;
            }
            res.tally.solved += 1;
            return true;
        }
    }
    match verdict {
        Verdict::Bad(err) => {
            res.tally.bad += 1;
            layout.write_analysis_error(raw, analysis, &err, &mut res.out);
            crlf_end(opts, &mut res.out);
            res.errors.push((line, res.tally.records, err));
            false
        }
        _ => {
            res.tally.solved += 1;
            layout.write_analysed(raw, analysis, &bufs.answer, &bufs.fields, &mut res.out);
            crlf_end(opts, &mut res.out);
            true
        }
    }
}

/// The [`RecordError::Held`] of delimited row `raw` when a field the
/// analysis writes into in place (`at[k]`, [`Options::fields_at`]) holds a
/// value: anything but an empty field, blanks or `""`.
fn held_field(
    raw: &[u8],
    delim: u8,
    at: &[Option<usize>],
    analysis: &dyn record::Analysis,
) -> Option<RecordError> {
    if at.iter().all(Option::is_none) {
        return None;
    }
    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
    let mut fields: Vec<&[u8]> = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, &b) in line.iter().enumerate() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == delim && !quoted {
            fields.push(&line[start..i]);
            start = i + 1;
        }
    }
    fields.push(&line[start..]);
    at.iter().enumerate().find_map(|(k, slot)| {
        let field = fields.get((*slot)?)?.trim_ascii();
        let value = field
            .strip_prefix(b"\"")
            .and_then(|f| f.strip_suffix(b"\""))
            .unwrap_or(field);
        (!value.trim_ascii().is_empty()).then(|| RecordError::Held {
            command: analysis.name(),
            column: record::quote(analysis.columns()[k].as_bytes()),
            value: record::quote(value),
        })
    })
}

/// Appends delimited row `raw` with field `at[k]` replaced by `values[k]`
/// (`None`: added after the others, in order), then a line end. The other
/// fields keep their bytes, quotes included; a short row gets empty fields
/// up to the last replaced one. A delimiter inside double quotes does not
/// split.
fn replace_fields(
    raw: &[u8],
    delim: u8,
    at: &[Option<usize>],
    values: &[&[u8]],
    out: &mut Vec<u8>,
) {
    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
    let mut fields: Vec<Vec<u8>> = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, &b) in line.iter().enumerate() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == delim && !quoted {
            fields.push(line[start..i].to_vec());
            start = i + 1;
        }
    }
    fields.push(line[start..].to_vec());
    for (slot, value) in at.iter().zip(values) {
        let value = csv_quoted(value, delim);
        match *slot {
            Some(i) => {
                if fields.len() <= i {
                    fields.resize(i + 1, Vec::new());
                }
                fields[i] = value;
            }
            None => fields.push(value),
        }
    }
    for (k, f) in fields.iter().enumerate() {
        if k > 0 {
            out.push(delim);
        }
        out.extend_from_slice(f);
    }
    out.push(b'\n');
}

/// `field` as a delimited field: quoted (quotes doubled) when it holds the
/// delimiter, a quote or a line break.
fn csv_quoted(field: &[u8], delim: u8) -> Vec<u8> {
    if !field
        .iter()
        .any(|&b| b == delim || b == b'"' || b == b'\n' || b == b'\r')
    {
        return field.to_vec();
    }
    let mut v = vec![b'"'];
    for &b in field {
        if b == b'"' {
            v.push(b'"');
        }
        v.push(b);
    }
    v.push(b'"');
    v
}

/// Replaces the line end just written with ` GUESSES LEVEL` (`,` separated
/// in CSV): the work to prove the puzzle unique and the level it gives.
fn append_stats(layout: &Layout, cells: &[u8], out: &mut Vec<u8>) {
    let (guesses, level) = crate::generate::grade(layout.boxes, cells);
    let sep = match layout.shape {
        Shape::Csv(cols) => char::from(cols.delim),
        _ => ' ',
    };
    out.pop();
    let _ = writeln!(out, "{sep}{guesses}{sep}{}", level.name());
}

/// The single writer: takes chunk results in any order, writes them in input
/// order, numbers lines, and decides when the run stops.
struct Writer<'o, W: Write, O: Observer> {
    out: W,
    /// Where an analysis's side lines go, in record order.
    side: Option<&'o mut dyn Write>,
    obs: &'o mut O,
    on_error: OnError,
    pending: BTreeMap<usize, ChunkResult>,
    next: usize,
    lines_before: u64,
    bytes_done: u64,
    summary: Summary,
    stopped: bool,
    /// Drop the separator in front of the first record written.
    drop_lead: bool,
}

impl<W: Write, O: Observer> Writer<'_, W, O> {
    /// Flushes the answers and the side lines.
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()?;
        match self.side.as_deref_mut() {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }

    /// The place of the `k`-th record of the next chunk (1-based), which
    /// starts on its `line` (1-based).
    fn at(&self, line: u64, k: u64) -> At {
        At {
            line: self.lines_before + line,
            row: self.summary.tally.records + k,
        }
    }

    fn accept(&mut self, index: usize, res: ChunkResult) -> io::Result<()> {
        self.pending.insert(index, res);
        while !self.stopped {
            let Some(res) = self.pending.remove(&self.next) else {
                break;
            };
            self.next += 1;
            self.write(res)?;
        }
        Ok(())
    }

    fn write(&mut self, res: ChunkResult) -> io::Result<()> {
        let mut out = &res.out[..];
        let mut side = &res.side[..];
        let mut failed = None;
        // The bad record that stops the run: the first with
        // `OnError::Fail`, else a held column's (the chunk stopped there).
        let stop = if self.on_error == OnError::Fail {
            (!res.errors.is_empty()).then_some(0)
        } else {
            res.errors
                .iter()
                .position(|(_, _, e)| matches!(e, RecordError::Held { .. }))
        };
        let mut errors = res.errors.into_iter();
        if self.on_error == OnError::Mark {
            for (line, k, err) in errors.by_ref().take(stop.unwrap_or(usize::MAX)) {
                let at = self.at(line, k);
                self.obs.bad_record(at, &err);
            }
        }
        if stop.is_some() {
            if let Some((line, k, err)) = errors.next() {
                // The answers of the chunk's records before the bad one are
                // written, so what reaches a stream is every answer before
                // the bad record, whatever the chunking (`-j`, stdin).
                out = &out[..res.before_bad];
                side = &side[..res.side_before_bad];
                failed = Some((self.at(line, k), err));
            }
        }
        if self.drop_lead && !out.is_empty() {
            out = &out[1..];
            self.drop_lead = false;
        }
        self.out.write_all(out)?;
        if let Some(w) = self.side.as_deref_mut() {
            w.write_all(side)?;
        }
        if failed.is_some() {
            self.summary.failed = failed;
            self.stopped = true;
            return Ok(());
        }
        self.summary.tally.add(&res.tally);
        self.lines_before += res.lines;
        self.bytes_done += res.bytes;
        self.obs
            .progress(self.bytes_done, self.summary.tally.records);
        self.stopped = res.ended;
        Ok(())
    }
}

/// A source of record-aligned chunks, in input order.
pub trait Chunks<'a>: Iterator<Item = io::Result<Cow<'a, [u8]>>> {
    /// True when the chunk last returned ended where the input paused (its
    /// writer may be waiting for these answers, as a co-process or Hadoop
    /// streaming does): the writer then writes and flushes every answer so
    /// far before taking the next chunk. Never for in-memory inputs.
    fn paused(&self) -> bool {
        false
    }
}

/// Chunks that are always ready (an in-memory input, a test's list).
pub struct Ready<I>(pub I);

impl<'a, I: Iterator<Item = io::Result<Cow<'a, [u8]>>>> Iterator for Ready<I> {
    type Item = io::Result<Cow<'a, [u8]>>;
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next()
    }
}

impl<'a, I: Iterator<Item = io::Result<Cow<'a, [u8]>>>> Chunks<'a> for Ready<I> {}

/// Bytes of chunks in flight (input plus answers) the parallel path aims to
/// stay under: the window is `4 × threads` chunks, fewer when chunks are big.
const IN_FLIGHT_BYTES: usize = 256 << 20;

/// Most worker threads per core: more only adds switching (`-j 2048` took
/// 50 s against 0.3 s for `-j 2` on 2 cores).
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads worth starting here: `THREADS_PER_CORE` per
/// core. The CLI lowers `-j` to it with a note, the Python binding its
/// `threads=` (a pool per count is kept, so this also bounds what stays).
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * THREADS_PER_CORE
}

/// Test hook, documented in docs/guide.md: `SUDOKU_BULK_PANIC_AT_CHUNK=N` makes
/// the worker solving chunk N (0-based) panic, so tests can prove a panic
/// ends the run cleanly. Read once; costs one comparison per chunk.
fn panic_at_chunk() -> Option<usize> {
    static AT: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *AT.get_or_init(|| {
        std::env::var("SUDOKU_BULK_PANIC_AT_CHUNK")
            .ok()
            .and_then(|v| v.parse().ok())
    })
}

fn solve_chunk(
    index: usize,
    task: Task,
    opts: &Options,
    layout: &Layout,
    data: &[u8],
) -> ChunkResult {
    if panic_at_chunk() == Some(index) {
        panic!("SUDOKU_BULK_PANIC_AT_CHUNK={index}: test panic");
    }
    process_chunk(task, opts, layout, data)
}

/// Runs `task` over `chunks` (record-aligned pieces of the input, in order),
/// writing answers to `out` in input order. When the input pauses, answers
/// so far are written and flushed before waiting for more.
///
/// Returns the summary, or the first I/O error from reading or writing.
pub fn run<'a, I, W, O>(
    task: Task,
    opts: &Options,
    layout: &Layout,
    chunks: I,
    out: W,
    obs: &mut O,
) -> io::Result<Summary>
where
    I: Chunks<'a>,
    W: Write,
    O: Observer,
{
    run_on(None, task, opts, layout, chunks, out, obs)
}

/// [`run`] for an analysis with a side output ([`record::Analysis::side`]):
/// its lines go to `side`, one per record in input order (up to the bad
/// record that stopped the run, as for the answers).
pub fn run_with_side<'a, I, W, O>(
    task: Task,
    opts: &Options,
    layout: &Layout,
    chunks: I,
    out: W,
    side: &mut dyn Write,
    obs: &mut O,
) -> io::Result<Summary>
where
    I: Chunks<'a>,
    W: Write,
    O: Observer,
{
    run_inner(None, task, opts, layout, chunks, out, Some(side), obs)
}

/// [`run`] on `pool` when `opts.threads > 1` (its threads solve, however
/// many it has), instead of a pool of `opts.threads` made for the run: for
/// callers that run many small inputs (the fuzz target `solve_path` made
/// two pools an input, most of its time; see scripts/fuzz.sh).
pub fn run_on<'a, I, W, O>(
    pool: Option<&rayon::ThreadPool>,
    task: Task,
    opts: &Options,
    layout: &Layout,
    chunks: I,
    out: W,
    obs: &mut O,
) -> io::Result<Summary>
where
    I: Chunks<'a>,
    W: Write,
    O: Observer,
{
    run_inner(pool, task, opts, layout, chunks, out, None, obs)
}

// One argument more than clippy's limit: the side output, which only
// `run_with_side` passes.
#[allow(clippy::too_many_arguments)]
fn run_inner<'a, 's, I, W, O>(
    pool: Option<&rayon::ThreadPool>,
    task: Task,
    opts: &Options,
    layout: &Layout,
    mut chunks: I,
    out: W,
    side: Option<&'s mut dyn Write>,
    obs: &'s mut O,
) -> io::Result<Summary>
where
    I: Chunks<'a>,
    W: Write,
    O: Observer,
{
    let mut w = Writer {
        out,
        side,
        obs,
        on_error: opts.on_error,
        pending: BTreeMap::new(),
        next: 0,
        lines_before: opts.line_offset,
        bytes_done: 0,
        summary: Summary::default(),
        stopped: false,
        drop_lead: grids_out(task, layout),
    };
    if opts.threads <= 1 {
        let mut i = 0;
        while let Some(chunk) = chunks.next() {
            w.accept(i, solve_chunk(i, task, opts, layout, &chunk?))?;
            i += 1;
            if w.stopped {
                break;
            }
            if chunks.paused() {
                w.flush()?;
            }
        }
    } else {
        match pool {
            Some(pool) => run_parallel(pool, task, opts, layout, chunks, &mut w)?,
            None => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(opts.threads)
                    .thread_name(|i| format!("sudoku-bulk-{i}"))
                    .build()
                    .map_err(io::Error::other)?;
                run_parallel(&pool, task, opts, layout, chunks, &mut w)?
            }
        }
    }
    w.flush()?;
    Ok(w.summary)
}

/// What a worker sends back: its chunk's answers, or word that it panicked.
type Report = (usize, Option<ChunkResult>);

/// Sends `(index, None)` if dropped before `send`: a worker that panics
/// still reports, so the writer never waits forever for its chunk.
struct ReportGuard {
    tx: Option<mpsc::Sender<Report>>,
    index: usize,
}

impl ReportGuard {
    fn send(mut self, res: ChunkResult) {
        if let Some(tx) = self.tx.take() {
            let _ = tx.send((self.index, Some(res)));
        }
    }
}

impl Drop for ReportGuard {
    fn drop(&mut self) {
        if let Some(tx) = self.tx.take() {
            let _ = tx.send((self.index, None));
        }
    }
}

fn run_parallel<'a, I, W, O>(
    pool: &rayon::ThreadPool,
    task: Task,
    opts: &Options,
    layout: &Layout,
    mut chunks: I,
    w: &mut Writer<'_, W, O>,
) -> io::Result<()>
where
    I: Chunks<'a>,
    W: Write,
    O: Observer,
{
    // Each chunk in flight holds its input (for streams) and its answers,
    // about twice its size.
    let by_memory = IN_FLIGHT_BYTES / (2 * opts.chunk_bytes.max(1));
    let window = by_memory.clamp(2, opts.threads * 4);
    let cancel = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Report>();
    let receive = |w: &mut Writer<'_, W, O>| -> io::Result<()> {
        match rx.recv() {
            Ok((i, Some(res))) => w.accept(i, res),
            Ok((_, None)) => Err(io::Error::other("a worker thread panicked")),
            Err(_) => Err(io::Error::other("the worker threads stopped")),
        }
    };
    // The calling thread takes chunks and writes; the pool only solves. A
    // worker that sees `cancel` skips its chunk: the writer has stopped.
    pool.in_place_scope(|scope| -> io::Result<()> {
        let mut spawned = 0;
        let result = (|| {
            while let Some(chunk) = chunks.next() {
                let chunk = chunk?;
                while spawned - w.next >= window && !w.stopped {
                    receive(w)?;
                }
                if w.stopped {
                    return Ok(());
                }
                let guard = ReportGuard {
                    tx: Some(tx.clone()),
                    index: spawned,
                };
                let cancel = &cancel;
                scope.spawn(move |_| {
                    let res = if cancel.load(Ordering::Relaxed) {
                        ChunkResult::default()
                    } else {
                        solve_chunk(guard.index, task, opts, layout, &chunk)
                    };
                    guard.send(res);
                });
                spawned += 1;
                if chunks.paused() {
                    // The input paused: write everything in flight and
                    // flush before waiting for more.
                    while w.next < spawned && !w.stopped {
                        receive(w)?;
                    }
                    w.flush()?;
                }
            }
            while w.next < spawned && !w.stopped {
                receive(w)?;
            }
            Ok(())
        })();
        // Stop the chunks still queued before the scope waits for them.
        cancel.store(true, Ordering::Relaxed);
        result
    })
}

/// Splits an in-memory input (a map or a buffer) into chunks of about
/// `chunk_bytes`, each ending at a record boundary of `layout`.
pub fn slice_chunks<'a>(
    data: &'a [u8],
    layout: &'a Layout,
    chunk_bytes: usize,
) -> Ready<impl Iterator<Item = io::Result<Cow<'a, [u8]>>> + 'a> {
    let chunk_bytes = chunk_bytes.max(1);
    let mut pos = 0;
    Ready(std::iter::from_fn(move || {
        if pos >= data.len() {
            return None;
        }
        let rest = &data[pos..];
        let end = match layout.cut(rest, chunk_bytes) {
            Some(n) => pos + n,
            None => data.len(),
        };
        let chunk = &data[pos..end];
        pos = end;
        Some(Ok(Cow::Borrowed(chunk)))
    }))
}

/// Longest line kept from a stream: a longer one can be no record of any
/// layout, so it is cut here (and reported bad by the parser) and the rest
/// of it skipped up to the next newline, instead of growing without bound.
pub const MAX_LINE: usize = 1 << 20;

/// Largest read from a stream at once: buffers grow as data arrives, never
/// ahead of it, whatever the chunk size.
const READ_STEP: usize = 1 << 20;

/// Cuts a stream into chunks of about `target` bytes ending at record
/// boundaries. Looks at each byte a bounded number of times: new bytes are
/// scanned once for newlines, and a cut is only tried when one arrived.
struct Chunker<R> {
    reader: R,
    layout: Layout,
    target: usize,
    buf: Vec<u8>,
    /// Start of the last (incomplete) line in `buf`.
    line_start: usize,
    /// Dropping bytes of an overlong line until its newline.
    skipping: bool,
    /// A newline arrived since the last failed cut.
    fresh_newline: bool,
    done: bool,
}

impl<R: Read> Chunker<R> {
    fn new(reader: R, layout: Layout, target: usize) -> Self {
        Chunker {
            reader,
            layout,
            target: target.max(1),
            buf: Vec::new(),
            line_start: 0,
            skipping: false,
            fresh_newline: false,
            done: false,
        }
    }

    /// Splits off `buf[..n]` as a chunk.
    fn take(&mut self, n: usize) -> Vec<u8> {
        let rest = self.buf.split_off(n);
        self.line_start = self.line_start.saturating_sub(n);
        // The rest may hold whole records already.
        self.fresh_newline = memchr::memchr(b'\n', &rest).is_some();
        std::mem::replace(&mut self.buf, rest)
    }

    /// The next chunk once `target` bytes (or the end) arrived.
    #[cfg(any(test, feature = "internals"))]
    fn next_chunk(&mut self) -> Option<io::Result<Vec<u8>>> {
        self.next_chunk_or_pause(&mut || false)
            .map(|r| r.map(|(c, _)| c))
    }

    /// The next chunk; when `paused()` says the input's writer is waiting,
    /// the complete records so far are a chunk on their own.
    fn next_chunk_or_pause(
        &mut self,
        paused: &mut dyn FnMut() -> bool,
    ) -> Option<io::Result<(Vec<u8>, bool)>> {
        loop {
            if self.done {
                if self.buf.is_empty() {
                    return None;
                }
                let all = std::mem::take(&mut self.buf);
                self.line_start = 0;
                return Some(Ok((all, false)));
            }
            if self.fresh_newline && self.buf.len() >= self.target {
                match self.layout.cut(&self.buf, self.target) {
                    Some(n) => return Some(Ok((self.take(n), false))),
                    None => self.fresh_newline = false,
                }
            }
            if self.line_start > 0 && paused() {
                // Everything up to the last newline, if it ends records.
                let cut = self
                    .layout
                    .cut(&self.buf, self.line_start)
                    .or_else(|| self.layout.cut(&self.buf, 1));
                if let Some(n) = cut {
                    return Some(Ok((self.take(n), true)));
                }
            }
            let old = self.buf.len();
            let step = self.target.clamp(8 << 10, READ_STEP);
            self.buf.resize(old + step, 0);
            match self.reader.read(&mut self.buf[old..]) {
                Ok(0) => {
                    self.buf.truncate(old);
                    self.done = true;
                }
                Ok(n) => {
                    self.buf.truncate(old + n);
                    self.scan(old);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => self.buf.truncate(old),
                Err(e) => {
                    self.buf.truncate(old);
                    self.done = true;
                    self.buf.clear();
                    return Some(Err(e));
                }
            }
        }
    }

    /// Looks at the bytes from `old` on: finds newlines, cuts overlong
    /// lines to `MAX_LINE` bytes (whatever the read sizes were).
    fn scan(&mut self, old: usize) {
        if self.skipping {
            match memchr::memchr(b'\n', &self.buf[old..]) {
                // Drop the rest of the overlong line, keep its newline.
                Some(i) => {
                    self.buf.drain(old..old + i);
                    self.skipping = false;
                }
                None => {
                    self.buf.truncate(old);
                    return;
                }
            }
        }
        if let Some(i) = memchr::memchr(b'\n', &self.buf[old..]) {
            // The line in progress ends here; later lines of this read are
            // at most one read long, so only it can be overlong.
            let nl = old + i;
            if nl - self.line_start > MAX_LINE {
                self.buf.drain(self.line_start + MAX_LINE..nl);
            }
            let last = memchr::memrchr(b'\n', &self.buf[self.line_start..])
                .expect("a newline was just found");
            self.line_start += last + 1;
            self.fresh_newline = true;
        }
        if self.buf.len() - self.line_start > MAX_LINE {
            self.buf.truncate(self.line_start + MAX_LINE);
            self.skipping = true;
        }
    }
}

/// Streams a reader as chunks of about `chunk_bytes`, each ending at a record
/// boundary of `layout`, on the calling thread (see [`stream_chunks`] for the
/// threaded form the command line uses). Only the tests and the fuzz
/// targets call it.
#[cfg(any(test, feature = "internals"))]
pub fn reader_chunks<'a, R: Read + 'a>(
    reader: R,
    layout: &'a Layout,
    chunk_bytes: usize,
) -> Ready<impl Iterator<Item = io::Result<Cow<'static, [u8]>>> + 'a> {
    let mut chunker = Chunker::new(reader, layout.clone(), chunk_bytes);
    Ready(std::iter::from_fn(move || {
        chunker.next_chunk().map(|r| r.map(Cow::Owned))
    }))
}

/// An error met while reading the input (not writing answers), so that
/// messages can name the right file.
#[derive(Debug)]
pub struct InputError(pub io::Error);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InputError {}

/// Chunks read and cut on a reader thread of their own, so reading and
/// decompressing run beside the solver threads. At most `QUEUE` chunks wait
/// between the threads, plus the one being read.
pub struct StreamChunks {
    rx: mpsc::Receiver<io::Result<(Vec<u8>, bool)>>,
    paused: bool,
}

/// Chunks queued between the reader thread and the writer.
const QUEUE: usize = 2;

/// Starts a reader thread over `reader`. `paused` tells the reader thread
/// that the source would block (see `input::Stream::paused`): it then sends
/// the complete records it holds at once, so a co-process gets its answers.
pub fn stream_chunks<R, P>(
    reader: R,
    layout: &Layout,
    chunk_bytes: usize,
    mut paused: P,
) -> StreamChunks
where
    R: Read + Send + 'static,
    P: FnMut() -> bool + Send + 'static,
{
    let (tx, rx) = mpsc::sync_channel(QUEUE);
    let mut chunker = Chunker::new(reader, layout.clone(), chunk_bytes);
    std::thread::Builder::new()
        .name("sudoku-bulk-reader".into())
        .spawn(move || {
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                while let Some(chunk) = chunker.next_chunk_or_pause(&mut paused) {
                    let chunk = chunk.map_err(|e| io::Error::new(e.kind(), InputError(e)));
                    if tx.send(chunk).is_err() {
                        break;
                    }
                }
            }));
            // A panic here (in a decoder, say) must not look like the end of
            // the input: the run would end early and "succeed".
            if read.is_err() {
                let _ = tx.send(Err(io::Error::other(InputError(io::Error::other(
                    "the reader thread panicked",
                )))));
            }
        })
        .expect("cannot start the reader thread");
    StreamChunks { rx, paused: false }
}

impl Iterator for StreamChunks {
    type Item = io::Result<Cow<'static, [u8]>>;
    fn next(&mut self) -> Option<Self::Item> {
        let (chunk, paused) = match self.rx.recv().ok()? {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        self.paused = paused;
        Some(Ok(Cow::Owned(chunk)))
    }
}

impl Chunks<'static> for StreamChunks {
    fn paused(&self) -> bool {
        self.paused
    }
}

/// Drops a UTF-8 byte order mark from the start of the input.
pub fn strip_bom(data: &[u8]) -> &[u8] {
    data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Shape, Symbols};

    const P1: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn collect<'a>(chunks: impl Iterator<Item = io::Result<Cow<'a, [u8]>>>) -> Vec<Vec<u8>> {
        chunks.map(|c| c.unwrap().into_owned()).collect()
    }

    #[test]
    fn chunks_end_at_record_boundaries_and_cover_everything() {
        let line = Layout::new(Shape::Line, crate::solver::Boxes::NINE, Symbols::Digits);
        let grid = Layout::new(
            Shape::Grid,
            crate::solver::Boxes::square(2),
            Symbols::Digits,
        );
        let lines: &[u8] = b"aaa\nbb\n\ncccccc\nd";
        let grids: &[u8] = b"1234\n3412\n2143\n4321\n\n1...\n\n.2..\n..3.\n...4\n4...\n12";
        for (layout, data) in [(&line, lines), (&grid, grids)] {
            for size in 1..30 {
                let from_slice = collect(slice_chunks(data, layout, size));
                let from_reader = collect(reader_chunks(data, layout, size));
                assert_eq!(from_slice, from_reader, "size {size}");
                assert_eq!(from_slice.concat(), data, "size {size}");
                // Every chunk but the last holds whole records.
                for c in &from_slice[..from_slice.len() - 1] {
                    assert_eq!(layout.cut(c, c.len()), Some(c.len()), "size {size}");
                }
            }
        }
    }

    /// A reader that hands out at most `step` bytes per read.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn overlong_lines_are_cut_at_max_line_whatever_the_reads() {
        let line = Layout::new(Shape::Line, crate::solver::Boxes::NINE, Symbols::Digits);
        let mut data = b"short\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', MAX_LINE + 12345));
        data.extend_from_slice(b"\nexact\n");
        data.extend(std::iter::repeat_n(b'y', MAX_LINE));
        data.extend_from_slice(b"\n");
        data.extend(std::iter::repeat_n(b'z', 3 * MAX_LINE));
        let mut want = b"short\n".to_vec();
        want.extend(std::iter::repeat_n(b'x', MAX_LINE));
        want.extend_from_slice(b"\nexact\n");
        want.extend(std::iter::repeat_n(b'y', MAX_LINE));
        want.extend_from_slice(b"\n");
        want.extend(std::iter::repeat_n(b'z', MAX_LINE));
        for step in [1000, 65536, MAX_LINE - 1, MAX_LINE, 3 * MAX_LINE] {
            for chunk in [10, 1 << 18, 4 << 20] {
                let reader = Trickle { data: &data, step };
                let got = collect(reader_chunks(reader, &line, chunk)).concat();
                assert!(
                    got == want,
                    "step {step} chunk {chunk}: {} bytes",
                    got.len()
                );
            }
        }
    }

    #[test]
    fn a_paused_input_sends_its_complete_records_at_once() {
        let line = Layout::new(Shape::Line, crate::solver::Boxes::NINE, Symbols::Digits);
        let data = b"one\ntwo\nthr";
        let mut chunker = Chunker::new(&data[..], line, 1 << 20);
        // The source says every further read would block.
        let (chunk, paused) = chunker.next_chunk_or_pause(&mut || true).unwrap().unwrap();
        assert_eq!((&chunk[..], paused), (&b"one\ntwo\n"[..], true));
        let (rest, paused) = chunker.next_chunk_or_pause(&mut || true).unwrap().unwrap();
        assert_eq!((&rest[..], paused), (&b"thr"[..], false));
        assert!(chunker.next_chunk_or_pause(&mut || true).is_none());
    }

    struct Log(Vec<(u64, String)>);
    impl Observer for Log {
        fn bad_record(&mut self, at: At, err: &RecordError) {
            self.0.push((at.line, err.to_string()));
        }
        fn progress(&mut self, _: u64, _: u64) {}
    }

    fn run_on(task: Task, layout: &Layout, input: &str, threads: usize) -> (Summary, String, Log) {
        let opts = Options {
            threads,
            chunk_bytes: 100,
            on_error: OnError::Mark,
            line_offset: 0,
            stats: false,
            overwrite: false,
            keep_lines: false,
            crlf: false,
            fields_at: &[],
        };
        let mut log = Log(Vec::new());
        let mut out = Vec::new();
        let chunks = slice_chunks(input.as_bytes(), layout, opts.chunk_bytes);
        let s = run(task, &opts, layout, chunks, &mut out, &mut log).unwrap();
        (s, String::from_utf8(out).unwrap(), log)
    }

    /// A small real analysis for the seam's tests: the grid is the puzzle
    /// turned a quarter (cell (r, c) goes to (c, side-1-r)), the fields are
    /// the number of givens and of blanks.
    struct Quarter;

    impl crate::record::Analysis for Quarter {
        fn name(&self) -> &'static str {
            "quarter"
        }
        fn grid_column(&self) -> Option<&'static str> {
            Some("turned")
        }
        fn columns(&self) -> &[&'static str] {
            &["givens", "blanks"]
        }
        fn keeps_puzzle(&self) -> bool {
            false
        }
        fn analyse(
            &self,
            boxes: crate::solver::Boxes,
            cells: &[u8],
            grid: &mut [u8],
            fields: &mut Vec<String>,
        ) -> Result<(), RecordError> {
            let side = boxes.side();
            for (i, &v) in cells.iter().enumerate() {
                let (r, c) = (i / side, i % side);
                grid[c * side + (side - 1 - r)] = v;
            }
            let givens = cells.iter().filter(|&&v| v != 0).count();
            if givens == 0 {
                return Err(RecordError::NoSolution);
            }
            fields.push(givens.to_string());
            fields.push((cells.len() - givens).to_string());
            Ok(())
        }
    }

    static QUARTER: Quarter = Quarter;

    /// The quarter turn, done on the text by the test itself.
    fn turned(line: &str) -> String {
        let b = line.as_bytes();
        let mut out = vec![b'?'; 81];
        for (i, &ch) in b.iter().enumerate() {
            let (r, c) = (i / 9, i % 9);
            out[c * 9 + (8 - r)] = ch;
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn an_analysis_writes_its_grid_and_fields_in_each_text_layout() {
        let task = Task::Analyse(&QUARTER);
        let givens = |p: &str| p.bytes().filter(|&b| b != b'.' && b != b'0').count();
        let empty = ".".repeat(81);
        // One line each: the turned grid in the symbols' usual blank
        // (`.`), whatever the record's (issue 42), then the fields; a bad
        // record is marked and reported.
        let p0 = P1.replace('.', "0");
        let input = format!("{P1}\n{empty}\n{p0}\n");
        let layout = Layout::new(Shape::Line, crate::solver::Boxes::NINE, Symbols::Digits);
        for threads in [1, 2] {
            let (s, text, log) = run_on(task, &layout, &input, threads);
            let g = givens(P1);
            let want = format!(
                "{} {g} {}\nerror: no solution\n{} {g} {}\n",
                turned(P1),
                81 - g,
                turned(P1),
                81 - g
            );
            assert_eq!(text, want);
            assert_eq!((s.tally.records, s.tally.solved, s.tally.bad), (3, 2, 1));
            assert_eq!(log.0, vec![(2, "no solution".to_string())]);
        }
        // CSV rows keep every field and get the added columns; a bad row
        // has the mark in the first of them.
        let cols = crate::text::CsvColumns {
            puzzle: 1,
            solution: None,
            delim: b',',
        };
        let csv = Layout::new(
            Shape::Csv(cols),
            crate::solver::Boxes::NINE,
            Symbols::Digits,
        );
        let input = format!("7,{P1},x\n8,{empty},y\n");
        let (_, text, _) = run_on(task, &csv, &input, 2);
        let g = givens(P1);
        assert_eq!(
            text,
            format!(
                "7,{P1},x,{},{g},{}\n8,{empty},y,error: no solution,,\n",
                turned(P1),
                81 - g
            )
        );
    }

    /// [`Quarter`] with a side output: `givens=N` for a record it answers,
    /// `bad read|unread: REASON` for a bad one.
    struct Sided;

    impl crate::record::Analysis for Sided {
        fn name(&self) -> &'static str {
            "sided"
        }
        fn grid_column(&self) -> Option<&'static str> {
            None
        }
        fn columns(&self) -> &[&'static str] {
            &["givens", "blanks"]
        }
        fn keeps_puzzle(&self) -> bool {
            true
        }
        fn side(&self) -> bool {
            true
        }
        fn side_of_bad(&self, cells: Option<&[u8]>, err: &RecordError) -> String {
            let read = if cells.is_some() { "read" } else { "unread" };
            format!("bad {read}: {err}")
        }
        fn analyse(
            &self,
            boxes: crate::solver::Boxes,
            cells: &[u8],
            grid: &mut [u8],
            fields: &mut Vec<String>,
        ) -> Result<(), RecordError> {
            QUARTER.analyse(boxes, cells, grid, fields)?;
            fields.push(format!("givens={}", fields[0]));
            Ok(())
        }
    }

    static SIDED: Sided = Sided;

    /// The side lines come one per record in input order, across chunks
    /// and threads, bad records included; the answers do not show them;
    /// `--on-error fail` keeps the side lines of the records before the
    /// bad one only, as it keeps their answers.
    #[test]
    fn side_lines_follow_the_records_in_order() {
        let layout = Layout::new(Shape::Line, crate::solver::Boxes::NINE, Symbols::Digits);
        let empty = ".".repeat(81);
        let g = P1.bytes().filter(|&b| b != b'.').count();
        let mut input = String::new();
        let mut want = String::new();
        for k in 0..30 {
            match k % 7 {
                3 => {
                    input += &format!("{empty}\n");
                    want += "bad read: no solution\n";
                }
                5 => {
                    input += "# a comment\n12345\n";
                    want += "bad unread: expected 81 cells, found 5\n";
                }
                _ => {
                    input += &format!("{P1}\n");
                    want += &format!("givens={g}\n");
                }
            }
        }
        for (threads, chunk) in [(1, 100), (2, 100), (2, 1 << 20), (3, 250)] {
            for on_error in [OnError::Mark, OnError::Fail] {
                let opts = Options {
                    threads,
                    chunk_bytes: chunk,
                    on_error,
                    line_offset: 0,
                    stats: false,
                    overwrite: false,
                    keep_lines: false,
                    crlf: false,
                    fields_at: &[],
                };
                let (mut out, mut side) = (Vec::new(), Vec::new());
                let chunks = slice_chunks(input.as_bytes(), &layout, chunk);
                let task = Task::Analyse(&SIDED);
                let s = run_with_side(
                    task,
                    &opts,
                    &layout,
                    chunks,
                    &mut out,
                    &mut side,
                    &mut Log(Vec::new()),
                )
                .unwrap();
                let (out, side) = (String::from_utf8(out).unwrap(), String::from_utf8(side).unwrap());
                assert!(!out.contains("givens="), "{out}");
                let case = format!("{threads} threads, chunks of {chunk}, {on_error:?}");
                match on_error {
                    OnError::Mark => {
                        assert_eq!(side, want, "{case}");
                        assert_eq!(s.tally.records, 30, "{case}");
                        assert_eq!(out.lines().count(), 30, "{case}");
                    }
                    OnError::Fail => {
                        // Records 0-2 answered, record 3 stopped the run.
                        assert_eq!(side, format!("givens={g}\n").repeat(3), "{case}");
                        assert_eq!(out.lines().count(), 3, "{case}");
                    }
                }
            }
        }
    }

    #[test]
    fn end_line_stops_and_errors_carry_line_numbers() {
        let input = format!("# header\n{P1}\n\n{}\n1234\nend\n{P1}\n", &P1[..80]);
        let layout = Layout::new(Shape::Line, crate::solver::Boxes::NINE, Symbols::Digits);
        for threads in [1, 2] {
            let (s, text, log) = run_on(Task::Solve { unique: false }, &layout, &input, threads);
            assert_eq!(s.tally.records, 3);
            assert_eq!(s.tally.solved, 1);
            assert_eq!(s.tally.bad, 2);
            assert_eq!(
                log.0,
                vec![
                    (4, "expected 81 cells, found 80".to_string()),
                    (5, "expected 81 cells, found 4".to_string())
                ]
            );
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 3);
            assert!(lines[1].starts_with("error: ") && lines[2].starts_with("error: "));
        }
    }

    /// `--on-error fail` writes exactly what a marking run writes for the
    /// records before the bad one, whatever the chunks (sizes, a slice or
    /// a reader) and threads, for one-line, grid and `--keep-lines` runs.
    #[test]
    fn fail_writes_exactly_the_answers_before_the_bad_record() {
        let nine = crate::solver::Boxes::NINE;
        let mut clash = P1.to_string();
        clash.replace_range(1..2, "4");
        let as_grid = |p: &str| -> String {
            p.as_bytes()
                .chunks(9)
                .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
                .collect()
        };
        let line = Layout::new(Shape::Line, nine, Symbols::Digits);
        let grid = Layout::new(Shape::Grid, nine, Symbols::Digits);
        let lines_before: String = (0..7).map(|k| format!("# {k}\n{P1}\n")).collect();
        let grids_before: String = (0..7).map(|_| as_grid(P1) + "\n").collect();
        let cases = [
            (
                &line,
                false,
                lines_before.clone(),
                format!("{clash}\n{P1}\n{P1}\n"),
            ),
            (
                &line,
                true,
                lines_before,
                format!("{clash}\n# after\n{P1}\n"),
            ),
            (
                &grid,
                false,
                grids_before,
                format!("{}\n{}", as_grid(&clash), as_grid(P1)),
            ),
        ];
        for (layout, keep_lines, before, rest) in cases {
            let go = |input: &str, on_error, threads, size, stream: bool| {
                let opts = Options {
                    threads,
                    chunk_bytes: size,
                    on_error,
                    line_offset: 0,
                    stats: false,
                    overwrite: false,
                    keep_lines,
                    crlf: false,
                    fields_at: &[],
                };
                let mut out = Vec::new();
                let task = Task::Solve { unique: false };
                let mut log = Log(Vec::new());
                let bytes = input.as_bytes();
                let s = if stream {
                    let chunks = reader_chunks(bytes, layout, size);
                    run(task, &opts, layout, chunks, &mut out, &mut log)
                } else {
                    let chunks = slice_chunks(bytes, layout, size);
                    run(task, &opts, layout, chunks, &mut out, &mut log)
                };
                (s.unwrap(), String::from_utf8(out).unwrap())
            };
            let (_, want) = go(&before, OnError::Mark, 1, 1 << 20, false);
            assert_eq!(want.matches(&P1[..9]).count(), 0, "answers, not puzzles");
            let input = before.clone() + &rest;
            let bad_line = before.lines().count() as u64 + 1;
            for threads in [1, 2] {
                for size in [1, 90, 100, 250, 1 << 20] {
                    for stream in [false, true] {
                        let (s, got) = go(&input, OnError::Fail, threads, size, stream);
                        let at = (keep_lines, threads, size, stream);
                        assert_eq!(got, want, "{at:?}");
                        let (place, err) = s.failed.expect("stopped");
                        // Seven records before the bad one, whatever the
                        // comment lines and grid rows around them.
                        assert_eq!(place, At { line: bad_line, row: 8 }, "{at:?}");
                        assert!(err.to_string().contains("duplicate given 4"), "{err}");
                    }
                }
            }
        }
    }

    #[test]
    fn count_writes_capped_counts_and_marks_clashes() {
        let layout = Layout::new(Shape::Line, crate::solver::Boxes::NINE, Symbols::Digits);
        let empty = ".".repeat(81);
        let mut clash = P1.to_string();
        clash.replace_range(1..2, "4");
        let dead = format!("12345678{}9{}", ".".repeat(36), ".".repeat(36));
        let input = format!("{P1}\n{empty}\n{dead}\n{clash}\n");
        let (s, text, log) = run_on(Task::Count { limit: 2 }, &layout, &input, 1);
        assert_eq!(
            text,
            "1\n2+\n0\nerror: duplicate given 4 at r1c1 and r1c2\n"
        );
        assert_eq!(s.tally.by_count, [1, 1, 1]);
        assert_eq!(log.0.len(), 1);
        let (_, text, _) = run_on(Task::Count { limit: 5 }, &layout, &input, 2);
        assert!(text.starts_with("1\n5+\n0\n"), "{text}");
    }
}
