//! `dedupe` and `overlap`: after `canon`, the dataset questions. Each
//! record's key (its canonical form for `--by iso`, its cells for `--by
//! exact`) is computed through the same seam as `canon` (a
//! [`Task::Analyse`](crate::record::Task::Analyse) run of the text pipeline, the table engine or the
//! `.npy` rows, on all cores); the keys and record positions go to
//! bounded-memory sorted runs (`runs.rs`); a merge finds the repeats; a
//! second, sequential pass copies the input without the dropped records.
//!
//! ```text
//! input ──(pipeline / table / npy, KeyJob on all cores)──> one key line per record
//!       ──> KeySink: (packed key, position) ──> Runs (spilled past --memory)
//!       ──> merge: first of each key kept, others (dropped, first) ──> Runs
//!       ──> copy pass: input bytes / rows minus the dropped ones; report
//! ```
//!
//! Positions are rows: the 0-based index of a record among the input's
//! records (text, table or array alike: a header, comments and the lines
//! of a grid not counted), written 1-based in the reports (`dropped_row`,
//! `test_row`), as every message numbers rows (`record::At`). Bad records
//! (unreadable, a size with no form) have no key: they are reported as
//! `FILE:LINE (row R): reason`, never dropped, and make the exit status 1.

mod runs;
mod split;
mod stats;

pub use split::{
    check_fractions, class_hash, key_clues, part_path, split, split_keys, Part, SplitConfig,
    Strata, Stratify,
};
pub use stats::{
    card_of_keys, cards_json, rating_bars, stats, Card, KeyRows, Ratings, StatsConfig,
    RATING_COLUMNS,
};

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use crate::canon::{self, Form};
use crate::columnar::{self, Asked, Data, Job, Kind};
use crate::output::guard::{Outputs, Plan, Role, Slot, Writes};
use crate::output::{self, Compress, Output, Reporter};
use crate::pipeline::{self, OnError, Options, Task};
use crate::record::{Analysis, RecordError};
use crate::solver::Boxes;
use crate::text::detect::{self, Detected, Forced};
use crate::text::{Item, Layout, Records, Shape};

use runs::Runs;

/// Bytes of a packed key: 81 cells of 4 bits, and the side in the last
/// low nibble (so a 4x4 key never equals a 9x9 one).
const KEY: usize = 41;
/// A record's packed key (its canonical form's cells, or its own): two
/// cells a byte, the side in the last low nibble. Grids up to 9x9.
pub type Key = [u8; KEY];
/// A key and a position (big-endian, so byte order is numeric order).
const ENTRY: usize = KEY + 8;
/// Top bit of a position: the record is TEST's (`overlap`). TRAIN's sort
/// first within a key.
const TEST: u64 = 1 << 63;

/// Exit statuses, as `cmd` has them (not imported: `cmd` reaches this
/// module through `args`, and imports go one way).
const EXIT_OK: u8 = 0;
const EXIT_BAD_RECORDS: u8 = 1;
const EXIT_ERROR: u8 = 2;

/// True when an error chain ends in a broken pipe (`dedupe | head`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Which records count as the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The same cells after parsing (`.` and `0` blanks are equal).
    Exact,
    /// The same canonical form: disguises of each other.
    Iso,
}

/// A `dedupe` run.
#[derive(Clone, Debug)]
pub struct DedupeConfig {
    /// Input path; `None` or `-` for stdin.
    pub input: Option<PathBuf>,
    /// Output path; `None` for stdout.
    pub output: Option<PathBuf>,
    /// What counts as a repeat.
    pub by: By,
    /// The canonical form for `By::Iso`.
    pub form: Form,
    /// CSV of the dropped records.
    pub report: Option<PathBuf>,
    /// Blank symbol of the kept puzzles (one-line and CSV/TSV text);
    /// `None`: each record as it is.
    pub blank: Option<u8>,
    /// `--compression`: the table output's codec (`None`: the input's).
    pub compression: Option<crate::columnar::TableCodec>,
    /// Memory for keys before spilling to disk, in bytes.
    pub memory: u64,
    /// Where spill files go (`--temp-dir`); else beside the output when it
    /// is a file, else the system's temporary directory.
    pub temp_dir: Option<PathBuf>,
    /// Worker threads.
    pub threads: usize,
    /// Draw a progress bar.
    pub progress: bool,
    /// Layout choices the user forced.
    pub forced: Forced,
}

/// An `overlap` run.
#[derive(Clone, Debug)]
pub struct OverlapConfig {
    /// The training set.
    pub train: PathBuf,
    /// The test set.
    pub test: PathBuf,
    /// What counts as a leak (`Iso` also counts exact copies).
    pub by: By,
    /// The canonical form for `By::Iso`.
    pub form: Form,
    /// CSV of the leaking TEST records.
    pub report: Option<PathBuf>,
    /// Memory for keys before spilling to disk, in bytes.
    pub memory: u64,
    /// Where spill files go (`--temp-dir`); else beside the report when
    /// it is a file, else the system's temporary directory.
    pub temp_dir: Option<PathBuf>,
    /// Worker threads.
    pub threads: usize,
    /// Draw a progress bar.
    pub progress: bool,
    /// Layout choices the user forced (both inputs).
    pub forced: Forced,
}

/// The per-record job of the key pass: the record's key(s) as one hex
/// field (iso key first, then the exact key, as asked), or why it has
/// none. Public for callers holding rows in memory (the Python package
/// runs it through [`crate::batch::analyse_rows`]), so their keys are the
/// commands' own.
#[derive(Clone, Copy, Debug)]
pub struct KeyJob {
    /// The canonical form of the iso key; `None`: no iso key.
    pub iso: Option<Form>,
    /// Also the exact key (the cells themselves).
    pub exact: bool,
}

impl KeyJob {
    fn hex_len(&self) -> usize {
        2 * KEY * (usize::from(self.iso.is_some()) + usize::from(self.exact))
    }

    /// The keys of one record from the fields the job wrote for it: `(iso,
    /// exact)` as asked, or `None` when it wrote none (a bad record).
    pub fn keys(&self, fields: &[String]) -> Option<(Option<Key>, Option<Key>)> {
        let field = fields.first()?;
        let mut bytes = [0u8; 2 * KEY];
        let bytes = &mut bytes[..self.hex_len() / 2];
        unhex(field.as_bytes(), bytes)?;
        let mut keys = bytes.chunks_exact(KEY);
        let mut next = |asked: bool| {
            asked.then(|| {
                keys.next()
                    .expect("asked key")
                    .try_into()
                    .expect("KEY bytes")
            })
        };
        let iso = next(self.iso.is_some());
        let exact = next(self.exact);
        Some((iso, exact))
    }
}

impl Analysis for KeyJob {
    fn name(&self) -> &'static str {
        "dedupe"
    }
    fn grid_column(&self) -> Option<&'static str> {
        None
    }
    fn columns(&self) -> &[&'static str] {
        &["key"]
    }
    fn keeps_puzzle(&self) -> bool {
        false
    }
    fn analyse(
        &self,
        boxes: Boxes,
        cells: &[u8],
        _grid: &mut [u8],
        fields: &mut Vec<String>,
    ) -> Result<(), RecordError> {
        if cells.len() != boxes.cells() {
            return Err(RecordError::Unsupported(
                "pencilmark records are not compared".into(),
            ));
        }
        let mut text = String::with_capacity(self.hex_len());
        if let Some(form) = self.iso {
            let c = canon::canonicalize(boxes, cells, form)
                .map_err(|e| RecordError::Unsupported(e.to_string()))?;
            push_hex(&pack(boxes, c.cells())?, &mut text);
        }
        if self.exact {
            push_hex(&pack(boxes, cells)?, &mut text);
        }
        fields.push(text);
        Ok(())
    }
}

/// The cells as a key: two cells a byte (first cell in the high nibble),
/// the side in the low nibble of the last byte. Grids up to 9x9.
fn pack(boxes: Boxes, cells: &[u8]) -> Result<[u8; KEY], RecordError> {
    let side = boxes.side();
    if cells.len() > 81 {
        return Err(RecordError::Unsupported(format!(
            "dedupe and overlap compare grids up to 9x9, not {side}x{side}"
        )));
    }
    let mut key = [0u8; KEY];
    for (i, &v) in cells.iter().enumerate() {
        key[i / 2] |= if i % 2 == 0 { v << 4 } else { v };
    }
    key[KEY - 1] |= side as u8;
    Ok(key)
}

/// The cells and side of a packed key.
pub(crate) fn unpack(key: &[u8; KEY]) -> (usize, Vec<u8>) {
    let side = usize::from(key[KEY - 1] & 15);
    let n = side * side;
    let cells = (0..n)
        .map(|i| {
            let b = key[i / 2];
            if i % 2 == 0 {
                b >> 4
            } else {
                b & 15
            }
        })
        .collect();
    (side, cells)
}

fn push_hex(bytes: &[u8], out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for &b in bytes {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
}

fn unhex(text: &[u8], out: &mut [u8]) -> Option<()> {
    if text.len() != 2 * out.len() {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    for (o, pair) in out.iter_mut().zip(text.chunks_exact(2)) {
        *o = (digit(pair[0])? << 4) | digit(pair[1])?;
    }
    Some(())
}

fn entry(key: &[u8], pos: u64) -> [u8; ENTRY] {
    let mut e = [0u8; ENTRY];
    e[..KEY].copy_from_slice(key);
    e[KEY..].copy_from_slice(&pos.to_be_bytes());
    e
}

fn entry_pos(e: &[u8; ENTRY]) -> u64 {
    u64::from_be_bytes(e[KEY..].try_into().expect("8 bytes"))
}

/// A pair of positions `(a, b)`, sorted by `a`.
fn pair(a: u64, b: u64) -> [u8; 16] {
    let mut p = [0u8; 16];
    p[..8].copy_from_slice(&a.to_be_bytes());
    p[8..].copy_from_slice(&b.to_be_bytes());
    p
}

fn unpair(p: &[u8; 16]) -> (u64, u64) {
    (
        u64::from_be_bytes(p[..8].try_into().expect("8 bytes")),
        u64::from_be_bytes(p[8..].try_into().expect("8 bytes")),
    )
}

/// The key tables of pass 1.
struct Tables {
    iso: Option<Runs<ENTRY>>,
    exact: Option<Runs<ENTRY>>,
}

impl Tables {
    fn new(job: KeyJob, budget: u64, dir: &Path) -> Tables {
        let n = u64::from(job.iso.is_some()) + u64::from(job.exact);
        let each = budget / n.max(1);
        Tables {
            iso: job.iso.map(|_| Runs::new(each, dir)),
            exact: job.exact.then(|| Runs::new(each, dir)),
        }
    }

    fn spilled(&self) -> usize {
        self.iso.as_ref().map_or(0, Runs::spilled) + self.exact.as_ref().map_or(0, Runs::spilled)
    }
}

/// The key pass as every command on it sets it up (`dedupe`, `overlap`,
/// `split`, `stats`): the per-record job, its key tables within a memory
/// budget spilling to a directory, and the worker pool the pass and the
/// merges after it run on.
struct KeyPass<'f> {
    job: &'static KeyJob,
    tables: Tables,
    pool: rayon::ThreadPool,
    threads: usize,
    progress: bool,
    forced: &'f Forced,
}

impl<'f> KeyPass<'f> {
    /// Tables for `job`'s keys within `budget` bytes, spilling to `dir`;
    /// a pool of `threads`.
    fn new(
        job: KeyJob,
        budget: u64,
        dir: &Path,
        threads: usize,
        progress: bool,
        forced: &'f Forced,
    ) -> anyhow::Result<KeyPass<'f>> {
        // The job outlives the pass's workers (`Task::Analyse` holds a
        // `&'static`): one small value a run.
        let job: &'static KeyJob = Box::leak(Box::new(job));
        Ok(KeyPass {
            job,
            tables: Tables::new(*job, budget, dir),
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()?,
            threads,
            progress,
            forced,
        })
    }

    /// Pass 1 over `input`: every record's key(s) into the tables,
    /// positions tagged with `tag`.
    fn keys(&mut self, input: &Loaded, tag: u64) -> anyhow::Result<Keyed> {
        keys(
            input,
            self.job,
            &mut self.tables,
            tag,
            &self.pool,
            self.threads,
            self.progress,
            self.forced,
        )
    }
}

/// Where pass 1's key lines come from.
enum Source<'a> {
    /// Text records, walked beside the pipeline's output to learn, for
    /// delimited rows, where the row the output repeats ends.
    Text {
        records: Records<'a>,
        delim: Option<u8>,
        pending: Option<&'a [u8]>,
    },
    /// Table or array rows, one output line each.
    Rows,
}

/// Pass 1's output: parses the key line of each record as the run writes
/// it, in input order, and files the keys with the record's position.
struct KeySink<'a, 't> {
    source: Source<'a>,
    buf: Vec<u8>,
    at: usize,
    job: KeyJob,
    tables: &'t mut Tables,
    tag: u64,
    records: u64,
    bad: u64,
}

impl KeySink<'_, '_> {
    /// Files every record whose output is complete in `buf`.
    fn drain(&mut self) -> io::Result<()> {
        loop {
            let rest = &self.buf[self.at..];
            if rest.is_empty() {
                break;
            }
            let (pos, field, used) = match &mut self.source {
                Source::Rows => {
                    let Some(end) = memchr::memchr(b'\n', rest) else {
                        break;
                    };
                    (self.records, &rest[..end], end + 1)
                }
                Source::Text {
                    records,
                    delim,
                    pending,
                } => {
                    if pending.is_none() {
                        match records.next() {
                            Some(Item::Record { raw, .. }) => *pending = Some(raw),
                            _ => return Err(mismatch("an answer after the last record")),
                        }
                    }
                    let raw = pending.expect("set above");
                    let (start, end) = match *delim {
                        None => match memchr::memchr(b'\n', rest) {
                            Some(end) => (0, end),
                            None => break,
                        },
                        // A delimited row comes back whole, then the key
                        // field (or, for a row whose quote never closes,
                        // an `error:` line alone).
                        Some(d) => {
                            let row = raw.strip_suffix(b"\r").unwrap_or(raw);
                            if rest.len() <= row.len() && row.starts_with(rest) {
                                break;
                            }
                            let start = if rest.starts_with(row) && rest[row.len()] == d {
                                row.len() + 1
                            } else {
                                0
                            };
                            match memchr::memchr(b'\n', &rest[start..]) {
                                Some(i) => (start, start + i),
                                None => break,
                            }
                        }
                    };
                    *pending = None;
                    (self.records, &rest[start..end], end + 1)
                }
            };
            self.records += 1;
            let field = field.strip_prefix(b"\"").unwrap_or(field);
            if field.starts_with(b"error: ") {
                self.bad += 1;
            } else {
                let mut keys = [0u8; 2 * KEY];
                let keys = &mut keys[..self.job.hex_len() / 2];
                unhex(field, keys).ok_or_else(|| mismatch("a key field that is not a key"))?;
                let pos = pos | self.tag;
                let mut keys = keys.chunks_exact(KEY);
                if let Some(t) = &mut self.tables.iso {
                    t.push(entry(keys.next().expect("iso key"), pos))?;
                }
                if let Some(t) = &mut self.tables.exact {
                    t.push(entry(keys.next().expect("exact key"), pos))?;
                }
            }
            self.at += used;
        }
        if self.at > (1 << 20) || self.at == self.buf.len() {
            self.buf.drain(..self.at);
            self.at = 0;
        }
        Ok(())
    }
}

fn mismatch(what: &str) -> io::Error {
    io::Error::other(format!(
        "internal error: the key pass wrote {what} (please report this input)"
    ))
}

impl Write for KeySink<'_, '_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        self.drain()?;
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An input's bytes, mapped or (for a stream) copied to a spill file and
/// mapped, or read whole (a columnar stream).
pub(crate) struct Loaded {
    pub(crate) name: String,
    path: Option<PathBuf>,
    bytes: Bytes,
}

enum Bytes {
    Map(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Loaded {
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Map(m) => m,
            Bytes::Owned(v) => v,
        }
    }

    /// The bytes as the columnar readers take them.
    pub(crate) fn data(&self) -> Data<'_> {
        match (&self.path, &self.bytes) {
            (Some(p), Bytes::Map(m)) => Data::File(p, m),
            (_, b) => Data::Owned(match b {
                Bytes::Map(m) => m.to_vec(),
                Bytes::Owned(v) => v.clone(),
            }),
        }
    }
}

/// Opens `path` (stdin for `None` or `-`). A file is mapped; a stream
/// (stdin, a pipe, a compressed file) is copied to a spill file in `dir`
/// and mapped, since the copy pass reads the input a second time. The
/// stream's first bytes are looked at before the copy: binary data that is
/// no table or array is refused before anything is written to disk. An
/// empty input whose name says it is a table or an array (`x.parquet`) is
/// refused, not read as empty text.
pub(crate) fn load(path: Option<&Path>, dir: &Path) -> anyhow::Result<Loaded> {
    let name = crate::input::display_name(path);
    let input = crate::input::open(path, false)?;
    let given = path;
    let mut path = path.filter(|p| p.as_os_str() != "-").map(Path::to_path_buf);
    let bytes = match input {
        crate::input::Input::Mapped(map) => {
            // A mapped file's pages go if it shrinks: SIGBUS then ends the
            // run with a message instead of a crash.
            crate::cleanup::watch_map(&map, &name);
            Bytes::Map(map)
        }
        crate::input::Input::Stream(mut stream) => {
            // A spill copy has no path the Parquet reader could reopen.
            path = None;
            let mut head = Vec::with_capacity(SNIFF);
            (&mut stream.reader)
                .take(SNIFF as u64)
                .read_to_end(&mut head)
                .map_err(|e| crate::input::read_error(&name, e))?;
            if crate::input::sniff(&head).is_none() {
                if let Some(why) = detect::not_text(&head) {
                    anyhow::bail!("{name}: {why}");
                }
            }
            if head.len() < SNIFF {
                Bytes::Owned(head)
            } else {
                let mut file = crate::cleanup::spill_file(dir)?;
                file.write_all(&head).map_err(spill_write)?;
                copy_stream(&mut stream.reader, &mut file, &name)?;
                file.rewind().map_err(spill_write)?;
                // SAFETY: the file is our own unnamed spill file: no other
                // process can open it by name, and we never write it again.
                Bytes::Map(unsafe { memmap2::Mmap::map(&file) }.map_err(spill_write)?)
            }
        }
    };
    let loaded = Loaded { name, path, bytes };
    if loaded.bytes().is_empty() {
        crate::input::refuse_empty(given, &loaded.name)?;
    }
    Ok(loaded)
}

/// Bytes of a stream looked at before it is copied to disk.
const SNIFF: usize = 64 << 10;

/// A spill file's write error, named as a write (not as the input's read).
fn spill_write(e: io::Error) -> anyhow::Error {
    anyhow::Error::new(e).context("spill file: cannot write")
}

/// Copies the rest of a stream to the spill file: errors reading name the
/// input, errors writing name the spill file.
fn copy_stream(from: &mut dyn io::Read, to: &mut File, name: &str) -> anyhow::Result<()> {
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(crate::input::read_error(name, e)),
        };
        to.write_all(&buf[..n]).map_err(spill_write)?;
    }
}

/// What pass 1 learned about one input.
struct Keyed {
    /// How the input is laid out: text (with its detection) or a columnar
    /// kind.
    shape: Found,
    records: u64,
    bad: u64,
}

/// The input's kind as pass 1 found it.
enum Found {
    /// Text, with its detected layout.
    Text {
        found: Box<Detected>,
        /// Where the records start (after a BOM and the header).
        body: usize,
    },
    /// A table or an array.
    Columnar(Kind),
}

/// Pass 1 over one input: every record's key(s) into `tables`, positions
/// tagged with `tag`.
#[allow(clippy::too_many_arguments)]
fn keys(
    input: &Loaded,
    job: &'static KeyJob,
    tables: &mut Tables,
    tag: u64,
    pool: &rayon::ThreadPool,
    threads: usize,
    progress: bool,
    forced: &Forced,
) -> anyhow::Result<Keyed> {
    let name = &input.name;
    let data = input.bytes();
    if let Some(kind) = crate::input::sniff(data) {
        let asked = Asked::of(forced);
        asked.fits(name, kind)?;
        let cjob = Job {
            pool,
            name,
            task: Task::Analyse(job),
            threads,
            on_error: OnError::Mark,
            stats: false,
            overwrite: false,
            asked,
            output: None,
            compression: None,
            reporter: std::sync::Mutex::new(Reporter::records(name.to_string(), None, progress)),
            side: None,
        };
        let mut sink = KeySink {
            source: Source::Rows,
            buf: Vec::new(),
            at: 0,
            job: *job,
            tables,
            tag,
            records: 0,
            bad: 0,
        };
        if kind == Kind::Npy {
            npy_keys(&cjob, data, &mut sink)?;
        } else {
            table_keys(&cjob, kind, input.data(), &mut sink)?;
        }
        let (records, bad) = (sink.records, sink.bad);
        cjob.reporter
            .into_inner()
            .expect("no panic while held")
            .clear();
        return Ok(Keyed {
            shape: Found::Columnar(kind),
            records,
            bad,
        });
    }
    let bom = data.len() - pipeline::strip_bom(data).len();
    let found = detect::detect(&data[bom..], forced).map_err(|e| anyhow::anyhow!("{name}:{e}"))?;
    let body_at = bom + found.skip_bytes;
    let body = &data[body_at..];
    let layout = found.layout.clone();
    let chunk_bytes = (body.len() / (threads * 16)).clamp(4 << 10, 1 << 20);
    let opts = Options {
        threads: if body.len() <= chunk_bytes {
            1
        } else {
            threads
        },
        chunk_bytes,
        on_error: OnError::Mark,
        line_offset: found.skip_lines,
        stats: false,
        overwrite: false,
        keep_lines: false,
        crlf: false,
        fields_at: &[],
    };
    let mut reporter = Reporter::new(name.to_string(), Some(body.len() as u64), progress);
    let mut sink = KeySink {
        source: Source::Text {
            records: Records::new(&layout, body),
            delim: match layout.shape {
                Shape::Csv(cols) => Some(cols.delim),
                _ => None,
            },
            pending: None,
        },
        buf: Vec::new(),
        at: 0,
        job: *job,
        tables,
        tag,
        records: 0,
        bad: 0,
    };
    let chunks = pipeline::slice_chunks(body, &layout, chunk_bytes);
    let summary = pipeline::run(
        Task::Analyse(job),
        &opts,
        &layout,
        chunks,
        &mut sink,
        &mut reporter,
    )
    .with_context(|| format!("{name}: key pass"))?;
    reporter.clear();
    if sink.records != summary.tally.records || sink.at != sink.buf.len() {
        return Err(mismatch("fewer answers than records").into());
    }
    let (records, bad) = (sink.records, sink.bad);
    Ok(Keyed {
        shape: Found::Text {
            found: Box::new(found),
            body: body_at,
        },
        records,
        bad,
    })
}

/// Pass 1 of a table: the table engine's text answers (one key line per
/// row) into `sink`.
#[cfg(feature = "columnar")]
fn table_keys(job: &Job<'_>, kind: Kind, data: Data<'_>, sink: &mut KeySink) -> anyhow::Result<()> {
    match columnar::table::run_to(job, kind, data, columnar::Target::Text, sink)? {
        columnar::Run::Done(_) => Ok(()),
        columnar::Run::Failed => unreachable!("bad rows are marked"),
    }
}

#[cfg(not(feature = "columnar"))]
fn table_keys(job: &Job<'_>, kind: Kind, _: Data<'_>, _: &mut KeySink) -> anyhow::Result<()> {
    anyhow::bail!(
        "{}: {} input needs sudoku-bulk built with the `columnar` feature",
        job.name,
        kind.name()
    )
}

/// Pass 1 of a `.npy` array: rows analysed in steps on the pool (as
/// `canon` does them), one key line per row into `sink`.
fn npy_keys(job: &Job<'_>, data: &[u8], sink: &mut KeySink) -> anyhow::Result<()> {
    let arr = columnar::npy::Array::open(data, job.asked.boxes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", job.name))?;
    if let Ok(mut r) = job.reporter.lock() {
        r.set_total(arr.rows as u64);
    }
    let layout = Layout::one_line(arr.boxes);
    let mut tally = pipeline::Tally::default();
    let mut buf = Vec::new();
    for first in (0..arr.rows).step_by(columnar::ROWS_PER_STEP) {
        let rows = (arr.rows - first).min(columnar::ROWS_PER_STEP);
        let solved = columnar::solve_step(
            job,
            arr.boxes,
            rows,
            |r, cells| arr.row(first + r, cells),
            |_, _| crate::record::Label::Absent,
        );
        columnar::account(job, first as u64, &solved, &mut tally);
        buf.clear();
        columnar::write_text(job, &layout, &solved, &mut buf);
        sink.write_all(&buf)?;
    }
    Ok(())
}

fn quiet() -> bool {
    output::chatter() == output::Chatter::Quiet
}

/// What the copy pass of `input` writes (its own layout), for the check
/// of the output's name: rows with the input's delimiter, grids, one
/// record a line, or the input's table or array kind.
pub(crate) fn writes_of(input: &Loaded, forced: &Forced) -> anyhow::Result<Writes> {
    let data = input.bytes();
    if let Some(kind) = crate::input::sniff(data) {
        return Ok(Writes::Table(kind));
    }
    let found = detect::detect(pipeline::strip_bom(data), forced)
        .map_err(|e| anyhow::anyhow!("{}:{e}", input.name))?;
    Ok(match found.layout.shape {
        Shape::Csv(cols) => Writes::Rows(cols.delim),
        _ if found.layout.multiline() => Writes::Grids,
        _ => Writes::Lines,
    })
}

/// Runs `dedupe`. Its outputs (the kept records, `--report`) are declared
/// to the output guard and put in place together at the end, or neither.
pub fn dedupe(cfg: &DedupeConfig) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let mut plan = Plan::new();
    plan.input(cfg.input.as_deref());
    let main = plan.output(
        Role::OUTPUT,
        cfg.output.as_deref(),
        Writes::Later,
        Compress::Auto,
    );
    let rep = cfg
        .report
        .as_deref()
        .map(|r| plan.output(Role::REPORT, Some(r), Writes::Csv, Compress::Auto));
    let mut outs = plan.check()?;
    let dir = outs.scratch_dir(Some(main), cfg.temp_dir.as_deref());
    let input = load(cfg.input.as_deref(), &dir)?;
    columnar::TableCodec::check_copy(
        cfg.compression,
        &input.name,
        crate::input::sniff(input.bytes()),
    )?;
    let name = input.name.clone();
    let mut out = outs.take(main, writes_of(&input, &cfg.forced)?)?;
    let job = KeyJob {
        iso: (cfg.by == By::Iso).then_some(cfg.form),
        exact: cfg.by == By::Exact,
    };
    let mut pass = KeyPass::new(
        job,
        cfg.memory / 2,
        &dir,
        cfg.threads,
        cfg.progress,
        &cfg.forced,
    )?;
    let keyed = pass.keys(&input, 0)?;
    check_blank(&input, &keyed.shape, cfg.blank, &cfg.forced)?;
    let KeyPass {
        mut tables, pool, ..
    } = pass;
    let spilled = tables.spilled();
    let keys = match cfg.by {
        By::Iso => tables.iso.take(),
        By::Exact => tables.exact.take(),
    }
    .expect("the table of the asked key");
    let spill_err = |e: io::Error| anyhow::Error::new(e).context("spill files");
    // The merge: the first record of each key stays, the others go.
    let mut dropped = Runs::<16>::new(cfg.memory / 2, &dir);
    let mut last: Option<([u8; KEY], u64)> = None;
    let sorted = pool.install(|| keys.sorted()).map_err(spill_err)?;
    for e in sorted {
        let e = e.map_err(spill_err)?;
        let key: [u8; KEY] = e[..KEY].try_into().expect("key bytes");
        let pos = entry_pos(&e);
        match &last {
            Some((k, first)) if *k == key => dropped.push(pair(pos, *first)).map_err(spill_err)?,
            _ => last = Some((key, pos)),
        }
    }
    let n_dropped = dropped.len;
    let spilled = spilled + dropped.spilled();
    let dropped = pool.install(|| dropped.sorted()).map_err(spill_err)?;
    let dropped = dropped.map(|p| p.map(|p| unpair(&p)));
    // The copy pass, with the report's rows on the side (copied to the
    // report at the end: a report on stdout gets nothing unless the
    // output is complete).
    let mut report_rows = match rep {
        Some(_) => Some(BufWriter::new(crate::cleanup::spill_file(&dir)?)),
        None => None,
    };
    let kept = keyed.records - n_dropped;
    let written = match &keyed.shape {
        Found::Text { found, body } => copy_text(
            &input,
            *body,
            found,
            cfg.blank,
            kept,
            dropped,
            out.writer(),
            report_rows.as_mut(),
        ),
        Found::Columnar(Kind::Npy) => copy_npy(
            input.bytes(),
            &cfg.forced,
            kept,
            dropped,
            out.writer(),
            report_rows.as_mut(),
        ),
        Found::Columnar(kind) => copy_table(
            &input,
            *kind,
            (cfg.blank, &cfg.forced, cfg.compression),
            dropped,
            out.writer(),
            report_rows.as_mut(),
        ),
    };
    let out_name = outs.name(main).to_string();
    match written {
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        r => r.with_context(|| format!("{out_name}: cannot write"))?,
    }
    let mut all = Vec::new();
    if let (Some(rep), Some(rows)) = (rep, report_rows) {
        all.push(write_report(
            &mut outs,
            rep,
            "dropped_row,first_row\n",
            rows,
        )?);
    }
    all.push(out);
    match outs.commit(all) {
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        r => r?,
    }
    if !quiet() {
        let by = match cfg.by {
            By::Exact => "exact".to_string(),
            By::Iso => format!(
                "iso, {} form",
                match cfg.form {
                    Form::String => "string",
                    Form::Pattern => "pattern",
                }
            ),
        };
        let spill = if spilled > 0 {
            format!(", {spilled} runs spilled to disk")
        } else {
            String::new()
        };
        eprintln!(
            "sudoku-bulk: {name}: {} records, {kept} kept, {n_dropped} dropped (by {by}), {} bad \
             in {:.2}s{spill}",
            keyed.records,
            keyed.bad,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::from(if keyed.bad > 0 {
        EXIT_BAD_RECORDS
    } else {
        EXIT_OK
    }))
}

/// Writes a report (a header and the rows gathered in `rows`) into the
/// output of `slot`, which the caller commits with the run's others.
fn write_report(
    outs: &mut Outputs,
    slot: Slot,
    header: &str,
    rows: BufWriter<File>,
) -> anyhow::Result<Output> {
    let mut rows = rows.into_inner().map_err(|e| e.into_error())?;
    rows.rewind()?;
    let mut out = outs.take(slot, Writes::Csv)?;
    let name = outs.name(slot).to_string();
    let w = out.writer();
    match w
        .write_all(header.as_bytes())
        .and_then(|()| io::copy(&mut BufReader::new(rows), w).map(drop))
    {
        // A reader of a report on stdout gone early (`| head`): the
        // other outputs still go in place.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        r => r.with_context(|| format!("{name}: cannot write"))?,
    }
    Ok(out)
}

/// The copy pass over text: the input's bytes as they are (BOM, header,
/// comments, line ends) without the lines of the dropped records; a
/// count line says the number kept. Grids of several lines lose the blank
/// lines after a dropped grid too.
#[allow(clippy::too_many_arguments)]
fn copy_text(
    input: &Loaded,
    body: usize,
    found: &Detected,
    blank: Option<u8>,
    kept: u64,
    mut dropped: impl Iterator<Item = io::Result<(u64, u64)>>,
    out: &mut dyn Write,
    mut report: Option<&mut BufWriter<File>>,
) -> anyhow::Result<()> {
    let (data, name) = (input.bytes(), input.name.as_str());
    let layout = &found.layout;
    let head = &data[..body];
    let bom = data.len() - pipeline::strip_bom(data).len();
    let count_line = !matches!(layout.shape, Shape::Csv(_))
        && head[bom..]
            .split(|&b| b == b'\n')
            .any(|l| !l.trim_ascii().is_empty() && l.trim_ascii().iter().all(u8::is_ascii_digit));
    if count_line {
        // The count line is the last non-empty line of the head.
        let text = &head[bom..];
        let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
        out.write_all(&head[..bom])?;
        for l in lines {
            let t = l.trim_ascii();
            if !t.is_empty() && t.iter().all(u8::is_ascii_digit) {
                let end = &l[l.trim_ascii_end().len()..];
                write!(out, "{kept}")?;
                out.write_all(end)?;
            } else {
                out.write_all(l)?;
            }
        }
    } else {
        out.write_all(head)?;
    }
    let rest = &data[body..];
    let mut next = dropped.next().transpose()?;
    let mut records = Records::new(layout, rest);
    let mut copied = 0;
    let mut row = 0;
    while let Some((d, first)) = next {
        let Some(item) = records.next() else { break };
        let Item::Record { raw, .. } = item else {
            break;
        };
        row += 1;
        if row - 1 != d {
            continue;
        }
        let at = raw.as_ptr() as usize - rest.as_ptr() as usize;
        let start = memchr::memrchr(b'\n', &rest[..at]).map_or(0, |i| i + 1);
        let mut end = records.position();
        if layout.multiline() {
            // The blank lines that separated it from the next grid.
            while end < rest.len() {
                let line_end =
                    memchr::memchr(b'\n', &rest[end..]).map_or(rest.len(), |i| end + i + 1);
                if !rest[end..line_end].trim_ascii().is_empty() {
                    break;
                }
                end = line_end;
            }
        }
        write_records(layout, blank, &rest[copied..start], out)?;
        copied = end.max(copied);
        if let Some(r) = report.as_mut() {
            writeln!(r, "{},{}", d + 1, first + 1)?;
        }
        next = dropped.next().transpose()?;
    }
    if next.is_some() {
        return Err(mismatch("a dropped record the copy pass did not meet").into());
    }
    // An `end` line ends the records (as for `solve`): it is kept, and
    // what follows it, never read as records, is not copied unchecked.
    let mut end = rest.len();
    while let Some(item) = records.next() {
        if let Item::End = item {
            end = records.position();
            let tail = &rest[end..];
            if !tail.trim_ascii().is_empty() {
                let line =
                    found.skip_lines + rest[..end].iter().filter(|&&b| b == b'\n').count() as u64;
                output::note(format_args!(
                    "{name}:{line}: the `end` line ends the records; the {} bytes after it \
                     are not copied",
                    tail.len()
                ));
            }
            break;
        }
    }
    write_records(layout, blank, &rest[copied.min(end)..end], out)?;
    Ok(())
}

/// `--blank` of `dedupe` and `split`: the layouts whose records are
/// rewritten with another blank (one-line text and delimited rows; a grid
/// of several lines, a table or an array is refused: `convert --blank`
/// normalises those).
fn check_blank(
    input: &Loaded,
    shape: &Found,
    blank: Option<u8>,
    forced: &Forced,
) -> anyhow::Result<()> {
    let Some(b) = blank else { return Ok(()) };
    let name = input.name.as_str();
    let how = "`convert --blank` normalises the other layouts";
    match shape {
        Found::Text { found, .. } => {
            let l = &found.layout;
            if !matches!(l.shape, Shape::Line | Shape::Csv(_)) || l.is_pencilmarks() {
                anyhow::bail!("{name}: --blank rewrites one-line and CSV/TSV records; {how}");
            }
            if b == b'0' && l.symbols == crate::text::Symbols::Hex0 {
                anyhow::bail!(
                    "{name}: --blank 0: 36x36 grids use 0 as a symbol; leave --blank out"
                );
            }
            Ok(())
        }
        Found::Columnar(Kind::Npy) => anyhow::bail!(
            "{name}: --blank: a .npy array holds 0 for a blank; `convert --blank` writes text"
        ),
        Found::Columnar(kind) => table_blank_ok(input, *kind, forced),
    }
}

/// `--blank` on a table: its puzzle column must hold strings.
#[cfg(feature = "columnar")]
fn table_blank_ok(input: &Loaded, kind: Kind, forced: &Forced) -> anyhow::Result<()> {
    let name = input.name.as_str();
    let table = columnar::copy::open(name, kind, input.data())?;
    let puzzles = columnar::table::Puzzles::new(name, kind, &Asked::of(forced), &table.schema)?;
    if !puzzles.is_string() {
        anyhow::bail!(
            "{name}: --blank rewrites string puzzles; this table's puzzle column holds {} \
             (a list of integers has 0 for a blank)",
            table.schema.field(puzzles.column()).data_type()
        );
    }
    Ok(())
}

#[cfg(not(feature = "columnar"))]
fn table_blank_ok(input: &Loaded, kind: Kind, _: &Forced) -> anyhow::Result<()> {
    anyhow::bail!(
        "{}: {} input needs sudoku-bulk built with the `columnar` feature",
        input.name,
        kind.name()
    )
}

/// Writes `text` (whole records of `layout`, with the comment and blank
/// lines between them) to `out`, each record's puzzle written with
/// `blank` (the rest of its line or row kept, its line end too) when
/// given and the puzzle parses; everything else as it is.
fn write_records(
    layout: &Layout,
    blank: Option<u8>,
    text: &[u8],
    out: &mut dyn Write,
) -> io::Result<()> {
    let Some(blank) = blank else {
        return out.write_all(text);
    };
    let mut records = Records::new(layout, text);
    let mut cells = vec![0u8; layout.cells()];
    let mut buf = Vec::new();
    let mut copied = 0;
    while let Some(Item::Record { raw, .. }) = records.next() {
        let at = raw.as_ptr() as usize - text.as_ptr() as usize;
        if layout.parse(raw, &mut cells).is_err() {
            continue;
        }
        out.write_all(&text[copied..at])?;
        buf.clear();
        layout.write_disguised(raw, &cells, blank, None, None, &mut buf);
        // The record's own line end (`write_disguised` ends it with LF).
        let mut end = at + raw.len();
        let raw_cr = raw.ends_with(b"\r");
        if text[end..].starts_with(b"\r\n") || (raw_cr && text[end..].starts_with(b"\n")) {
            buf.pop();
            buf.extend_from_slice(b"\r\n");
            end += if raw_cr { 1 } else { 2 };
        } else if text[end..].starts_with(b"\n") {
            end += 1;
        }
        out.write_all(&buf)?;
        copied = end;
    }
    out.write_all(&text[copied..])
}

/// The copy pass over a `.npy` array: the same dtype, the kept rows (the
/// row dimensions of the shape flattened into one).
fn copy_npy(
    data: &[u8],
    forced: &Forced,
    kept: u64,
    mut dropped: impl Iterator<Item = io::Result<(u64, u64)>>,
    out: &mut dyn Write,
    mut report: Option<&mut BufWriter<File>>,
) -> anyhow::Result<()> {
    let arr = columnar::npy::Array::open(data, Asked::of(forced).boxes)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut shape = vec![kept as usize];
    shape.extend_from_slice(&arr.header.shape[arr.lead..]);
    out.write_all(&columnar::npy::write_header(arr.header.dtype, &shape))?;
    let row_bytes = arr.cells * arr.header.dtype.size();
    let mut next = dropped.next().transpose()?;
    let mut from = 0;
    while let Some((d, first)) = next {
        let d = d as usize;
        out.write_all(&arr.data[from * row_bytes..d * row_bytes])?;
        from = d + 1;
        if let Some(r) = report.as_mut() {
            writeln!(r, "{},{}", d + 1, first + 1)?;
        }
        next = dropped.next().transpose()?;
    }
    out.write_all(&arr.data[from * row_bytes..arr.rows * row_bytes])?;
    Ok(())
}

/// The copy pass over a Parquet or Arrow table: every column, the kept
/// rows, the input's row groups (Parquet: its codecs and group sizes).
#[cfg(feature = "columnar")]
fn copy_table(
    input: &Loaded,
    kind: Kind,
    (blank, forced, choice): CopyChoices<'_>,
    mut dropped: impl Iterator<Item = io::Result<(u64, u64)>>,
    out: &mut dyn Write,
    mut report: Option<&mut BufWriter<File>>,
) -> anyhow::Result<()> {
    use arrow_array::BooleanArray;
    let table = columnar::copy::open(&input.name, kind, input.data())?;
    let mut reblank = Reblank::new(input, kind, blank, forced, &table.schema)?;
    let mut w = columnar::copy::Writers::new(
        kind,
        [out],
        &reblank.schema,
        table.props.as_ref(),
        table.codec,
        choice,
    )?;
    let mut next = dropped.next().transpose()?;
    let mut row = 0u64;
    for item in table.batches {
        let (batch, ends_group) = item?;
        let n = batch.num_rows() as u64;
        let mut keep = vec![true; n as usize];
        while let Some((d, first)) = next.filter(|&(d, _)| d < row + n) {
            keep[(d - row) as usize] = false;
            if let Some(r) = report.as_mut() {
                writeln!(r, "{},{}", d + 1, first + 1)?;
            }
            next = dropped.next().transpose()?;
        }
        row += n;
        let batch = if keep.iter().all(|&k| k) {
            batch
        } else {
            arrow_select::filter::filter_record_batch(&batch, &BooleanArray::from(keep))?
        };
        w.write(0, &reblank.batch(&batch)?)?;
        if ends_group {
            w.end_group(0)?;
        }
    }
    if next.is_some() {
        return Err(mismatch("a dropped row the copy pass did not meet").into());
    }
    w.finish()
}

/// What a table's copy pass writes besides the rows: `--blank`, the
/// layout choices that find the puzzle column, `--compression`.
type CopyChoices<'a> = (Option<u8>, &'a Forced, Option<columnar::TableCodec>);

/// `--blank` on a table's copy pass: the puzzle strings rewritten batch
/// by batch ([`columnar::table::Puzzles::with_blank`]), or every batch as it is.
#[cfg(feature = "columnar")]
struct Reblank {
    puzzles: Option<(columnar::table::Puzzles, u8)>,
    name: String,
    /// The outputs' schema (the input's, the puzzle column as strings).
    schema: arrow_schema::SchemaRef,
}

#[cfg(feature = "columnar")]
impl Reblank {
    fn new(
        input: &Loaded,
        kind: Kind,
        blank: Option<u8>,
        forced: &Forced,
        schema: &arrow_schema::SchemaRef,
    ) -> anyhow::Result<Reblank> {
        let name = input.name.clone();
        let Some(b) = blank else {
            return Ok(Reblank {
                puzzles: None,
                name,
                schema: schema.clone(),
            });
        };
        let puzzles = columnar::table::Puzzles::new(&name, kind, &Asked::of(forced), schema)?;
        Ok(Reblank {
            schema: puzzles.blank_schema(schema),
            puzzles: Some((puzzles, b)),
            name,
        })
    }

    fn batch(
        &mut self,
        batch: &arrow_array::RecordBatch,
    ) -> anyhow::Result<arrow_array::RecordBatch> {
        match &mut self.puzzles {
            None => Ok(batch.clone()),
            Some((p, b)) => p.with_blank(&self.name, batch, *b, &self.schema),
        }
    }
}

#[cfg(not(feature = "columnar"))]
fn copy_table(
    input: &Loaded,
    kind: Kind,
    _: CopyChoices<'_>,
    _: impl Iterator<Item = io::Result<(u64, u64)>>,
    _: &mut dyn Write,
    _: Option<&mut BufWriter<File>>,
) -> anyhow::Result<()> {
    anyhow::bail!(
        "{}: {} input needs sudoku-bulk built with the `columnar` feature",
        input.name,
        kind.name()
    )
}

/// Runs `overlap`: exit status 1 when a TEST record has a match in TRAIN,
/// 0 when none, 2 on errors (bad records included: the answer would be
/// incomplete).
pub fn overlap(cfg: &OverlapConfig) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    if cfg.train.as_os_str() == "-" && cfg.test.as_os_str() == "-" {
        anyhow::bail!("only one of TRAIN and TEST can be `-` (stdin)");
    }
    let mut plan = Plan::new();
    plan.input(Some(&cfg.train));
    plan.input(Some(&cfg.test));
    let rep = cfg
        .report
        .as_deref()
        .map(|r| plan.output(Role::REPORT, Some(r), Writes::Csv, Compress::Auto));
    // The result line goes to stdout, or to stderr when the report takes
    // stdout; with `-q` the exit status alone answers.
    let report_on_stdout = cfg.report.as_deref().is_some_and(|r| r.as_os_str() == "-");
    let line = (!quiet() && !report_on_stdout)
        .then(|| plan.output(Role::RESULT, None, Writes::Text, Compress::None));
    let mut outs = plan.check()?;
    let dir = outs.scratch_dir(rep, cfg.temp_dir.as_deref());
    let job = KeyJob {
        iso: (cfg.by == By::Iso).then_some(cfg.form),
        exact: true,
    };
    let mut pass = KeyPass::new(
        job,
        cfg.memory / 2,
        &dir,
        cfg.threads,
        cfg.progress,
        &cfg.forced,
    )?;
    let mut keyed = Vec::new();
    let mut names = Vec::new();
    for (path, tag) in [(&cfg.train, 0), (&cfg.test, TEST)] {
        let input = load(Some(path), &dir)?;
        keyed.push(pass.keys(&input, tag)?);
        names.push(input.name);
    }
    let spill_err = |e: io::Error| anyhow::Error::new(e).context("spill files");
    let KeyPass {
        mut tables, pool, ..
    } = pass;
    // Each table: per key, TRAIN's first position, then every TEST record
    // of that key is a match.
    let matched = |t: Option<Runs<ENTRY>>| -> anyhow::Result<Option<runs::Sorted<16>>> {
        let Some(t) = t else { return Ok(None) };
        let mut leaks = Runs::<16>::new(cfg.memory / 4, &dir);
        let mut train: Option<([u8; KEY], u64)> = None;
        for e in pool.install(|| t.sorted()).map_err(spill_err)? {
            let e = e.map_err(spill_err)?;
            let key: [u8; KEY] = e[..KEY].try_into().expect("key bytes");
            let pos = entry_pos(&e);
            if pos & TEST == 0 {
                if train.is_none_or(|(k, _)| k != key) {
                    train = Some((key, pos));
                }
            } else if let Some((_, first)) = train.filter(|(k, _)| *k == key) {
                leaks.push(pair(pos & !TEST, first)).map_err(spill_err)?;
            }
        }
        Ok(Some(pool.install(|| leaks.sorted()).map_err(spill_err)?))
    };
    let iso = matched(tables.iso.take())?;
    let mut exact = matched(tables.exact.take())?.expect("exact keys are always made");
    let (train_k, test_k) = (&keyed[0], &keyed[1]);
    let header = "test_row,train_row,match\n";
    let mut report = match &cfg.report {
        Some(_) => Some(BufWriter::new(crate::cleanup::spill_file(&dir)?)),
        None => None,
    };
    let (mut n_iso, mut n_exact) = (0u64, 0u64);
    let mut next_exact = exact
        .next()
        .transpose()
        .map_err(spill_err)?
        .map(|p| unpair(&p));
    let mut emit = |test: u64, train: u64, what: &str| -> io::Result<()> {
        if let Some(r) = report.as_mut() {
            writeln!(r, "{},{},{what}", test + 1, train + 1)?;
        }
        Ok(())
    };
    match iso {
        Some(iso) => {
            for p in iso {
                let (test, train) = unpair(&p.map_err(spill_err)?);
                n_iso += 1;
                // Exact matches are iso matches too: both streams are in
                // TEST order.
                while next_exact.is_some_and(|(t, _)| t < test) {
                    next_exact = exact
                        .next()
                        .transpose()
                        .map_err(spill_err)?
                        .map(|p| unpair(&p));
                }
                match next_exact.filter(|&(t, _)| t == test) {
                    Some((_, etrain)) => {
                        n_exact += 1;
                        emit(test, etrain, "exact")?;
                    }
                    None => emit(test, train, "isomorph")?,
                }
            }
        }
        None => {
            while let Some((test, train)) = next_exact {
                n_exact += 1;
                emit(test, train, "exact")?;
                next_exact = exact
                    .next()
                    .transpose()
                    .map_err(spill_err)?
                    .map(|p| unpair(&p));
            }
        }
    }
    let bad = train_k.bad + test_k.bad;
    let (test_name, train_name) = (&names[1], &names[0]);
    let leaks = match cfg.by {
        By::Iso => n_iso,
        By::Exact => n_exact,
    };
    // A side with no records has checked nothing: that is no pass
    // (an empty export, a closed stdin, a table of no rows).
    let empty = [(train_name, train_k.records), (test_name, test_k.records)]
        .into_iter()
        .find(|&(_, n)| n == 0);
    if let Some((which, _)) = empty {
        anyhow::bail!(
            "{which}: no records, so the leak check compared nothing (exit 2, not a pass)"
        );
    }
    let mut all = Vec::new();
    if let (Some(slot), Some(r)) = (rep, report) {
        all.push(write_report(&mut outs, slot, header, r)?);
    }
    let said = match cfg.by {
        By::Iso => format!(
            "{test_name}: {n_iso} of {} records have an isomorph in {train_name} ({n_exact} of \
             them an exact copy)",
            test_k.records
        ),
        By::Exact => format!(
            "{test_name}: {n_exact} of {} records have an exact copy in {train_name}",
            test_k.records
        ),
    };
    if let Some(slot) = line {
        let mut o = outs.take(slot, Writes::Text)?;
        match writeln!(o.writer(), "{said}") {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            r => r.context("<stdout>: cannot write")?,
        }
        all.push(o);
    } else if !quiet() {
        eprintln!("sudoku-bulk: {said}");
    }
    // The leak status is the answer a script reads: a reader of the
    // report gone early (`--report - | head`) does not change it.
    match outs.commit(all) {
        Err(e) if is_broken_pipe(&e) => {}
        r => r?,
    }
    if !quiet() {
        eprintln!(
            "sudoku-bulk: overlap: {} + {} records, {bad} bad, in {:.2}s",
            train_k.records,
            test_k.records,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::from(if leaks > 0 {
        EXIT_BAD_RECORDS
    } else if bad > 0 {
        EXIT_ERROR
    } else {
        EXIT_OK
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_pack_cells_and_size_and_round_trip_through_hex() {
        let cells: Vec<u8> = (0..81).map(|i| (i % 10) as u8).collect();
        let key = pack(Boxes::NINE, &cells).unwrap();
        for (i, &v) in cells.iter().enumerate() {
            let nib = if i % 2 == 0 {
                key[i / 2] >> 4
            } else {
                key[i / 2] & 15
            };
            assert_eq!(nib, v, "cell {i}");
        }
        assert_eq!(key[KEY - 1] & 15, 9);
        // A 4x4 grid whose cells begin like a 9x9 one's gets another key.
        let small = pack(Boxes::square(2), &cells[..16]).unwrap();
        let mut nine = cells.clone();
        nine[16..].fill(0);
        assert_ne!(small, pack(Boxes::NINE, &nine).unwrap());
        let mut text = String::new();
        push_hex(&key, &mut text);
        let mut back = [0u8; KEY];
        unhex(text.as_bytes(), &mut back).unwrap();
        assert_eq!(back, key);
        assert!(unhex(b"zz", &mut [0u8; 1]).is_none());
    }
}
