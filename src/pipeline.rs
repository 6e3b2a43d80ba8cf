//! The bulk engine: input bytes → record-aligned chunks → solved on rayon
//! workers → written back in input order by one writer. The sequential path
//! (`threads == 1`) runs the very same chunk and writer code on one thread, so
//! both give byte-identical output.
//!
//! Memory stays bounded: at most `4 × threads` chunks are in flight (being
//! solved or waiting for an earlier chunk to be written), whatever the input
//! size.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use crate::format::{self, Line, RecordError};
use crate::solver;

/// What to do with each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Write one solution per puzzle. With `unique`, puzzles with several
    /// solutions are bad records instead.
    Solve {
        /// Answer only puzzles with exactly one solution.
        unique: bool,
    },
}

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
}

/// Counts over the records processed so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Puzzle records seen (bad ones included).
    pub records: u64,
    /// Records answered.
    pub solved: u64,
    /// Records that got an error mark.
    pub bad: u64,
    /// Search branch points over all puzzles.
    pub guesses: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.records += other.records;
        self.solved += other.solved;
        self.bad += other.bad;
        self.guesses += other.guesses;
    }
}

/// How a run ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Totals over the records written.
    pub tally: Tally,
    /// Set when `OnError::Fail` stopped the run: the line and reason of the
    /// first bad record.
    pub failed: Option<(u64, RecordError)>,
}

/// Receives what the writer learns, in input order.
pub trait Observer {
    /// A bad record at 1-based input line `line` (with `OnError::Mark`).
    fn bad_record(&mut self, line: u64, err: &RecordError);
    /// Progress after a chunk was written: input bytes and records done.
    fn progress(&mut self, bytes: u64, records: u64);
}

/// An observer that ignores everything (library use, benchmarks).
pub struct Quiet;

impl Observer for Quiet {
    fn bad_record(&mut self, _: u64, _: &RecordError) {}
    fn progress(&mut self, _: u64, _: u64) {}
}

/// One chunk's answers, waiting for its turn to be written.
#[derive(Default)]
struct ChunkResult {
    out: Vec<u8>,
    /// Bad records: line relative to the chunk start (1-based) and reason.
    errors: Vec<(u64, RecordError)>,
    /// Newlines in the chunk, to number the lines of later chunks.
    lines: u64,
    bytes: u64,
    tally: Tally,
    /// The chunk held an `end` line: nothing after it counts.
    ended: bool,
}

/// Solves every record of one chunk. Pure CPU work: runs on a worker.
fn process_chunk(task: Task, on_error: OnError, data: &[u8]) -> ChunkResult {
    let mut res = ChunkResult {
        out: Vec::with_capacity(data.len() + data.len() / 8),
        bytes: data.len() as u64,
        lines: memchr::memchr_iter(b'\n', data).count() as u64,
        ..ChunkResult::default()
    };
    let mut cells = [0u8; 81];
    let mut answer = [0u8; 81];
    let mut line_no = 0u64;
    let mut rest = data;
    while !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        line_no += 1;
        let token = match format::classify_line(line) {
            Line::Skip => continue,
            Line::End => {
                res.ended = true;
                break;
            }
            Line::Puzzle(token) => token,
        };
        res.tally.records += 1;
        match solve_9x9(task, token, &mut cells, &mut answer) {
            Ok(guesses) => {
                res.tally.solved += 1;
                res.tally.guesses += guesses;
                format::write_9x9(&answer, &mut res.out);
            }
            Err(err) => {
                res.tally.bad += 1;
                format::write_error(&err, &mut res.out);
                res.errors.push((line_no, err));
                if on_error == OnError::Fail {
                    break;
                }
            }
        }
    }
    res
}

/// Parses and solves one 9x9 record; returns the guesses it took.
fn solve_9x9(
    task: Task,
    token: &[u8],
    cells: &mut [u8; 81],
    answer: &mut [u8; 81],
) -> Result<u64, RecordError> {
    format::parse_9x9(token, cells)?;
    let Task::Solve { unique } = task;
    let limit = if unique { 2 } else { 1 };
    let search = solver::solve(3, cells, limit, answer);
    match search.count {
        0 => Err(match solver::find_conflict(3, cells) {
            Some(c) => RecordError::Duplicate {
                digit: c.digit,
                first: format::CellName::new(c.first, 9),
                second: format::CellName::new(c.second, 9),
            },
            None => RecordError::NoSolution,
        }),
        1 => Ok(search.guesses),
        _ => Err(RecordError::MultipleSolutions),
    }
}

/// The single writer: takes chunk results in any order, writes them in input
/// order, numbers lines, and decides when the run stops.
struct Writer<'o, W: Write, O: Observer> {
    out: W,
    obs: &'o mut O,
    on_error: OnError,
    pending: BTreeMap<usize, ChunkResult>,
    next: usize,
    lines_before: u64,
    bytes_done: u64,
    summary: Summary,
    stopped: bool,
}

impl<W: Write, O: Observer> Writer<'_, W, O> {
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
        if self.on_error == OnError::Fail {
            if let Some((line, err)) = res.errors.into_iter().next() {
                self.summary.failed = Some((self.lines_before + line, err));
                self.stopped = true;
                return Ok(());
            }
        } else {
            for (line, err) in &res.errors {
                self.obs.bad_record(self.lines_before + line, err);
            }
        }
        self.out.write_all(&res.out)?;
        self.summary.tally.add(&res.tally);
        self.lines_before += res.lines;
        self.bytes_done += res.bytes;
        self.obs
            .progress(self.bytes_done, self.summary.tally.records);
        self.stopped = res.ended;
        Ok(())
    }
}

/// Runs `task` over `chunks` (record-aligned pieces of the input, in order),
/// writing answers to `out` in input order.
///
/// Returns the summary, or the first I/O error from reading or writing.
pub fn run<'a, I, W, O>(
    task: Task,
    opts: &Options,
    chunks: I,
    out: W,
    obs: &mut O,
) -> io::Result<Summary>
where
    I: Iterator<Item = io::Result<Cow<'a, [u8]>>>,
    W: Write,
    O: Observer,
{
    let mut w = Writer {
        out,
        obs,
        on_error: opts.on_error,
        pending: BTreeMap::new(),
        next: 0,
        lines_before: 0,
        bytes_done: 0,
        summary: Summary::default(),
        stopped: false,
    };
    if opts.threads <= 1 {
        for (i, chunk) in chunks.enumerate() {
            w.accept(i, process_chunk(task, opts.on_error, &chunk?))?;
            if w.stopped {
                break;
            }
        }
    } else {
        run_parallel(task, opts, chunks, &mut w)?;
    }
    w.out.flush()?;
    Ok(w.summary)
}

fn run_parallel<'a, I, W, O>(
    task: Task,
    opts: &Options,
    chunks: I,
    w: &mut Writer<'_, W, O>,
) -> io::Result<()>
where
    I: Iterator<Item = io::Result<Cow<'a, [u8]>>>,
    W: Write,
    O: Observer,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .thread_name(|i| format!("sudoku-bulk-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let window = opts.threads * 4;
    let on_error = opts.on_error;
    let cancel = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, ChunkResult)>();
    // The calling thread splits chunks and writes; the pool only solves. A
    // worker that sees `cancel` skips its chunk: the writer has stopped.
    let result = pool.in_place_scope(|scope| -> io::Result<()> {
        let mut spawned = 0;
        for chunk in chunks {
            let chunk = chunk?;
            while spawned - w.next >= window && !w.stopped {
                let (i, res) = rx.recv().expect("a spawned chunk always reports");
                w.accept(i, res)?;
            }
            if w.stopped {
                return Ok(());
            }
            let tx = tx.clone();
            let cancel = &cancel;
            scope.spawn(move |_| {
                let res = if cancel.load(Ordering::Relaxed) {
                    ChunkResult::default()
                } else {
                    process_chunk(task, on_error, &chunk)
                };
                let _ = tx.send((spawned, res));
            });
            spawned += 1;
        }
        while w.next < spawned && !w.stopped {
            let (i, res) = rx.recv().expect("a spawned chunk always reports");
            w.accept(i, res)?;
        }
        Ok(())
    });
    cancel.store(true, Ordering::Relaxed);
    result
}

/// Splits an in-memory input (a map or a buffer) into chunks of about
/// `chunk_bytes`, each ending just after a newline (or at the end).
pub fn slice_chunks(
    data: &[u8],
    chunk_bytes: usize,
) -> impl Iterator<Item = io::Result<Cow<'_, [u8]>>> {
    let chunk_bytes = chunk_bytes.max(1);
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= data.len() {
            return None;
        }
        let target = (pos + chunk_bytes).min(data.len());
        let end = match memchr::memchr(b'\n', &data[target - 1..]) {
            Some(i) => target + i,
            None => data.len(),
        };
        let chunk = &data[pos..end];
        pos = end;
        Some(Ok(Cow::Borrowed(chunk)))
    })
}

/// Streams a reader (stdin) as chunks of about `chunk_bytes`, each ending just
/// after a newline, holding only one chunk plus a partial line at a time.
pub fn reader_chunks<R: Read>(
    mut reader: R,
    chunk_bytes: usize,
) -> impl Iterator<Item = io::Result<Cow<'static, [u8]>>> {
    let chunk_bytes = chunk_bytes.max(1);
    let mut carry: Vec<u8> = Vec::new();
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let mut buf = std::mem::take(&mut carry);
        let mut scanned = 0;
        loop {
            if buf.len() >= chunk_bytes {
                if let Some(i) = memchr::memrchr(b'\n', &buf[scanned..]) {
                    carry = buf.split_off(scanned + i + 1);
                    return Some(Ok(Cow::Owned(buf)));
                }
                scanned = buf.len();
            }
            let old = buf.len();
            let want = chunk_bytes.max(old + 1);
            buf.resize(want.max(old + 8192), 0);
            match reader.read(&mut buf[old..]) {
                Ok(0) => {
                    buf.truncate(old);
                    done = true;
                    return (!buf.is_empty()).then_some(Ok(Cow::Owned(buf)));
                }
                Ok(n) => buf.truncate(old + n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => buf.truncate(old),
                Err(e) => {
                    done = true;
                    return Some(Err(e));
                }
            }
        }
    })
}

/// Drops a UTF-8 byte order mark from the start of the input.
pub fn strip_bom(data: &[u8]) -> &[u8] {
    data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P1: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn collect(chunks: impl Iterator<Item = io::Result<Cow<'static, [u8]>>>) -> Vec<Vec<u8>> {
        chunks.map(|c| c.unwrap().into_owned()).collect()
    }

    #[test]
    fn chunks_end_at_newlines_and_cover_everything() {
        let data: &'static [u8] = b"aaa\nbb\n\ncccccc\nd";
        for size in 1..20 {
            let from_slice = collect(slice_chunks(data, size));
            let from_reader = collect(reader_chunks(data, size));
            for chunks in [&from_slice, &from_reader] {
                assert_eq!(chunks.concat(), data, "size {size}");
                for c in &chunks[..chunks.len() - 1] {
                    assert_eq!(c.last(), Some(&b'\n'), "size {size}");
                }
            }
        }
    }

    #[test]
    fn end_line_stops_and_errors_carry_line_numbers() {
        let input = format!("# header\n{P1}\n\n{}\n1234\nend\n{P1}\n", &P1[..80]);
        let opts = Options {
            threads: 1,
            chunk_bytes: 1 << 20,
            on_error: OnError::Mark,
        };
        struct Log(Vec<(u64, String)>);
        impl Observer for Log {
            fn bad_record(&mut self, line: u64, err: &RecordError) {
                self.0.push((line, err.to_string()));
            }
            fn progress(&mut self, _: u64, _: u64) {}
        }
        let mut log = Log(Vec::new());
        let mut out = Vec::new();
        let chunks = slice_chunks(input.as_bytes(), 1 << 20);
        let s = run(
            Task::Solve { unique: false },
            &opts,
            chunks,
            &mut out,
            &mut log,
        )
        .unwrap();
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
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].starts_with("error: ") && lines[2].starts_with("error: "));
    }
}
