//! Runs a parsed command: wires input, pipeline and output together and turns
//! the outcome into an exit status. The only place that knows all three.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;

use crate::args::{BenchConfig, BulkConfig, CheckConfig, GenerateConfig, RateConfig};
use crate::bench::{self, Mode};
use crate::check;
use crate::columnar::{self, Asked, Data, Job, Run};
use crate::generate;
use crate::input::{self, Input};
use crate::output::guard::{Outputs, Plan, Role, Slot, Writes};
use crate::output::{Compress, Named, Output, Reporter};
use crate::pipeline::{self, Observer, Options, Task};
use crate::text::detect::{self, Detected};
use crate::text::{Analysis, Layout, RecordError, Shape, Symbols};

/// Exit status when every record was answered.
pub const EXIT_OK: u8 = 0;
/// Exit status when some records were bad (or the run stopped on one).
pub const EXIT_BAD_RECORDS: u8 = 1;
/// Exit status for usage and I/O errors.
pub const EXIT_ERROR: u8 = 2;

/// Chunk size for stdin, where the total size is unknown.
const STDIN_CHUNK: usize = 256 << 10;
/// Largest automatic chunk: big enough that per-chunk overhead vanishes
/// (about 12k 9x9 puzzles), small enough to keep memory and progress steps
/// small.
const MAX_CHUNK: usize = 1 << 20;

/// Bytes of stdin read up front to detect the layout.
const STDIN_HEAD: usize = 1 << 20;

/// Installs the last-resort cleanup of temporary output files (Ctrl-C,
/// SIGTERM, SIGHUP, SIGPIPE, SIGBUS from a shrinking input, panics); a
/// binary calls it once before running a command.
pub fn install_cleanup() {
    crate::cleanup::install();
}

/// Runs one bulk job per input, in order. Every output of the run is
/// checked against every input of the run (and the others) first, so an
/// output reached through a link in `--output-dir` never replaces a later
/// input: refused before any work. A failing input (missing, unreadable)
/// is reported and the others still run, as `rg` and `cat` go on; the exit
/// status is the worst (2 over 1 over 0). A reader gone early ends the
/// whole run. `output_dir` (`--output-dir`) is created first when it does
/// not exist.
pub fn bulk_all(
    cfgs: &[BulkConfig],
    output_dir: Option<&std::path::Path>,
) -> anyhow::Result<ExitCode> {
    if let Some(dir) = output_dir.filter(|d| !d.is_dir()) {
        std::fs::create_dir_all(dir).with_context(|| {
            format!(
                "{}: cannot create the directory",
                crate::text::shown_path(&dir)
            )
        })?;
    }
    let inputs: Vec<Option<std::path::PathBuf>> = cfgs.iter().map(|c| c.input.clone()).collect();
    if cfgs.len() > 1 {
        let mut plan = Plan::new();
        for i in &inputs {
            plan.input(i.as_deref());
        }
        for cfg in cfgs {
            plan.next_job();
            plan.output(
                Role::OUTPUT,
                cfg.output.as_deref(),
                Writes::Later,
                cfg.compress,
            );
        }
        plan.verify()?;
    }
    let several = cfgs.len() > 1;
    let mut worst = EXIT_OK;
    for cfg in cfgs {
        // `sudoku-bulk solve` typed alone would wait without a word.
        if cfg.input.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            crate::output::note(format_args!(
                "reading puzzles from the terminal; end with Ctrl-D (or give a FILE, see --help)"
            ));
        }
        let code = match bulk_to(cfg, None, &inputs) {
            Ok(code) if code == ExitCode::SUCCESS => EXIT_OK,
            Ok(code) if code == ExitCode::from(EXIT_BAD_RECORDS) => EXIT_BAD_RECORDS,
            Ok(_) => EXIT_ERROR,
            Err(err) if is_broken_pipe(&err) => return Ok(ExitCode::SUCCESS),
            Err(err) if !several => return Err(err),
            Err(err) => {
                eprintln!("sudoku-bulk: {err:#}");
                EXIT_ERROR
            }
        };
        worst = worst.max(code);
    }
    Ok(ExitCode::from(worst))
}

/// Runs a bulk job (`solve`, `count`).
pub fn bulk(cfg: &BulkConfig) -> anyhow::Result<ExitCode> {
    bulk_to(cfg, None, &[])
}

/// The outputs of one bulk job, checked and open: the answers and, for an
/// analysis with side lines, the side output.
struct Outs {
    outs: Outputs,
    main: Slot,
    side: Option<Slot>,
}

impl Outs {
    /// The answers' output, its name checked against what it will hold.
    fn main(&mut self, writes: Writes) -> anyhow::Result<Output> {
        self.outs.take(self.main, writes)
    }

    /// The side output, if any.
    fn side(&mut self) -> anyhow::Result<Option<Output>> {
        self.side
            .map(|s| self.outs.take(s, Writes::Later))
            .transpose()
    }

    /// Puts the steps (when there are any) and the answers in place
    /// together; a reader gone early is no error.
    fn commit(self, side: Option<Output>, out: Output) -> anyhow::Result<bool> {
        let all = side.into_iter().chain([out]).collect();
        match self.outs.commit(all) {
            Err(e) if is_broken_pipe(&e) => Ok(false),
            r => r.map(|()| true),
        }
    }
}

/// [`bulk`], with the side lines of an analysis that has them
/// ([`crate::record::Analysis::side`], `rate --steps`) written to `side`:
/// one per record, in input order, whatever the input (stdin, text,
/// tables, compressed), in the same pass. The file appears only when the
/// run ends well, as the answers' does, and both together. `run_inputs`
/// are the other inputs of the run (`solve a b --output-dir d`), which
/// no output of this job may replace either.
fn bulk_to(
    cfg: &BulkConfig,
    side: Option<&std::path::Path>,
    run_inputs: &[Option<std::path::PathBuf>],
) -> anyhow::Result<ExitCode> {
    let name = input::display_name(cfg.input.as_deref());
    if let (Task::Analyse(a), true) = (cfg.task, cfg.stats) {
        anyhow::bail!("--stats applies to solve and count, not to {}", a.name());
    }
    let mut plan = Plan::new();
    plan.input(cfg.input.as_deref());
    for i in run_inputs {
        plan.input(i.as_deref());
    }
    let main = plan.output(
        Role::OUTPUT,
        cfg.output.as_deref(),
        Writes::Later,
        cfg.compress,
    );
    let side = side.map(|p| plan.output(Role::STEPS, Some(p), Writes::Jsonl, Compress::Auto));
    let outs = Outs {
        outs: plan.check()?,
        main,
        side,
    };
    // The shape of the data is decided once, here, from its first bytes:
    // text records, a table (Parquet, Arrow IPC) or an array (`.npy`).
    let source = input::open(cfg.input.as_deref(), cfg.no_mmap)?;
    let (kind, source) = input::peek_kind(source, cfg.input.as_deref(), &name)?;
    if let (None, Some(c)) = (kind, cfg.compression) {
        anyhow::bail!(
            "{name}: --compression {} applies to Parquet and Arrow outputs; the answers of \
             text input are text (--compress compresses them)",
            c.name()
        );
    }
    if let Some(kind) = kind {
        return bulk_columnar(cfg, &name, kind, source, outs);
    }
    match source {
        Input::Mapped(map) => bulk_slice(cfg, &name, &map, outs),
        Input::Stream(stream) => bulk_stream(cfg, &name, stream, outs),
    }
}

/// A writer whose errors say they are the side output's (`FILE: cannot
/// write: ...`), so a full disk while writing the steps is not reported as
/// the answers'.
struct SideWriter<'a>(&'a mut Output);

/// A write error of the side output, with its message.
#[derive(Debug)]
struct SideError(String);

impl std::fmt::Display for SideError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SideError {}

impl SideWriter<'_> {
    fn named(&self, e: std::io::Error) -> std::io::Error {
        let msg = format!("{}: cannot write: {e}", self.0.name());
        std::io::Error::new(e.kind(), SideError(msg))
    }
}

impl Write for SideWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.writer().write(buf).map_err(|e| self.named(e))
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.writer().write_all(buf).map_err(|e| self.named(e))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.writer().flush().map_err(|e| self.named(e))
    }
}

/// Runs a bulk job over a columnar input (`kind`): the format module reads
/// rows and writes answers; this owns the output file, the exit status and
/// the summary, as for text.
fn bulk_columnar(
    cfg: &BulkConfig,
    name: &str,
    kind: input::Kind,
    source: Input,
    mut outs: Outs,
) -> anyhow::Result<ExitCode> {
    let map;
    let data = match source {
        Input::Mapped(m) => {
            map = m;
            let path = cfg.input.as_deref().expect("a mapped input has a path");
            Data::File(path, &map)
        }
        // An Arrow IPC stream is read front to back as it comes.
        Input::Stream(stream) if kind == input::Kind::ArrowStream => Data::Stream(Box::new(
            std::io::BufReader::with_capacity(1 << 16, stream.reader),
        )),
        // Parquet, Arrow files and .npy need the whole input.
        Input::Stream(mut stream) => {
            let mut all = Vec::new();
            stream
                .reader
                .read_to_end(&mut all)
                .map_err(|e| input::read_error(name, e))?;
            Data::Owned(all)
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()?;
    let asked = Asked::of(&cfg.forced);
    asked.fits(name, kind)?;
    text_only_options(cfg, name, kind)?;
    let target = columnar::target(kind, name, cfg.output.as_deref())?;
    let mut out = outs.main(match target {
        columnar::Target::Text => Writes::Lines,
        columnar::Target::Columnar(k) => Writes::Table(k),
    })?;
    let side_out = outs.side()?.map(std::sync::Mutex::new);
    let job = Job {
        pool: &pool,
        name,
        task: cfg.task,
        threads: cfg.threads,
        on_error: cfg.on_error,
        stats: cfg.stats,
        overwrite: cfg.overwrite,
        asked,
        output: cfg.output.as_deref(),
        compression: cfg.compression,
        // Rows, not bytes: a table is read by row groups and pages, not
        // front to back. The format sets the total when its metadata
        // gives one (Parquet, .npy).
        reporter: std::sync::Mutex::new(Reporter::records(name.to_string(), None, cfg.progress)),
        side: side_out.as_ref(),
    };
    let run = columnar::run(&job, kind, data, target, &mut out);
    let reporter = job.reporter.into_inner().expect("no panic while held");
    let side_out = side_out.map(|s| s.into_inner().expect("no panic while held"));
    let tally = match run {
        Ok(Run::Done(tally)) => tally,
        Ok(Run::Failed) => {
            if let Some(s) = side_out {
                abandon(s)?;
            }
            abandon(out)?;
            return Ok(ExitCode::from(EXIT_BAD_RECORDS));
        }
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e),
    };
    if !outs.commit(side_out, out)? {
        return Ok(ExitCode::SUCCESS);
    }
    reporter.finish(cfg.task, &tally);
    Ok(ExitCode::from(if tally.bad == 0 {
        EXIT_OK
    } else {
        EXIT_BAD_RECORDS
    }))
}

/// Refuses an option only text input can honour on a table or array input,
/// naming both, rather than ignore it (`--keep-lines` was taken without a
/// word, as if each row's answer could be anything but one line).
fn text_only_options(cfg: &BulkConfig, name: &str, kind: input::Kind) -> anyhow::Result<()> {
    let what = kind.a_file();
    if cfg.keep_lines {
        anyhow::bail!(
            "{name}: --keep-lines applies to one-puzzle-per-line text, not to {what}: every \
             row gets exactly one answer already"
        );
    }
    if cfg.chunk_bytes.is_some() {
        anyhow::bail!(
            "{name}: --chunk-size applies to text input, not to {what}: rows are read {} at \
             a time",
            columnar::ROWS_PER_STEP
        );
    }
    if kind == input::Kind::Npy && cfg.forced.column.is_some() {
        anyhow::bail!(
            "{name}: --column applies to tables and CSV, not to {what}: an array has no columns"
        );
    }
    Ok(())
}

/// How the input's text is written, which delimited rows keep in the
/// output ("the input's own layout"): a UTF-8 BOM in front, and CRLF line
/// ends (as its first line ends).
#[derive(Clone, Copy, Debug, Default)]
struct Style {
    bom: bool,
    crlf: bool,
}

impl Style {
    /// The style of an input that starts with `raw`.
    fn of(raw: &[u8]) -> Style {
        let body = pipeline::strip_bom(raw);
        let crlf = memchr::memchr(b'\n', body).is_some_and(|i| i > 0 && body[i - 1] == b'\r');
        Style {
            bom: body.len() != raw.len(),
            crlf,
        }
    }
}

fn bulk_slice(cfg: &BulkConfig, name: &str, data: &[u8], outs: Outs) -> anyhow::Result<ExitCode> {
    let style = Style::of(data);
    let data = pipeline::strip_bom(data);
    let found = detect::detect(data, &cfg.forced).map_err(|e| anyhow::anyhow!("{name}:{e}"))?;
    let total = data.len() as u64;
    // Enough chunks to keep every thread busy to the end, even on small
    // files, and never fewer than a few KiB.
    let auto = ((total as usize) / (cfg.threads * 16)).clamp(4 << 10, MAX_CHUNK);
    let chunk_bytes = cfg.chunk_bytes.unwrap_or(auto);
    let data = &data[found.skip_bytes..];
    let chunks = pipeline::slice_chunks(data, &found.layout, chunk_bytes);
    // A file of one chunk is solved on this thread: no pool to start (its
    // threads were most of a one-puzzle run's instructions on a many-core
    // machine; 2 cores: ~0.1M of 1.3M, callgrind).
    let one_chunk = data.len() <= chunk_bytes;
    finish(
        cfg,
        name,
        &found,
        Feed {
            size: Progress::Bytes(total),
            chunk_bytes,
            one_chunk,
            style,
        },
        chunks,
        outs,
    )
}

/// Reads the head of a stream for detection: at least `STDIN_HEAD` bytes
/// up to a newline, or less when the input ends or pauses after a whole
/// line (a co-process waiting for its first answer). A line longer than
/// [`pipeline::MAX_LINE`] keeps only its first `MAX_LINE` bytes, as the
/// pipeline cuts it, so an overlong first line neither grows the head
/// without bound nor hides the lines after it from detection.
fn read_head(stream: &mut input::Stream, name: &str) -> anyhow::Result<(Vec<u8>, bool)> {
    let mut head = Vec::new();
    let mut buf = vec![0u8; 64 << 10];
    // Where the line being read starts in `head`.
    let mut line_start = 0;
    loop {
        let has_line = line_start > 0;
        if has_line && (head.len() >= STDIN_HEAD || stream.pause.paused()) {
            return Ok((head, false));
        }
        match stream.reader.read(&mut buf) {
            Ok(0) => return Ok((head, true)),
            Ok(n) => {
                for piece in buf[..n].split_inclusive(|&b| b == b'\n') {
                    let ends = piece.last() == Some(&b'\n');
                    let text = &piece[..piece.len() - usize::from(ends)];
                    let room = (line_start + pipeline::MAX_LINE).saturating_sub(head.len());
                    head.extend_from_slice(&text[..text.len().min(room)]);
                    if ends {
                        head.push(b'\n');
                        line_start = head.len();
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(input::read_error(name, e)),
        }
    }
}

/// Reads on (blocking) until one more line end arrives or the input ends;
/// true when it ended.
fn read_line_more(
    stream: &mut input::Stream,
    head: &mut Vec<u8>,
    name: &str,
) -> anyhow::Result<bool> {
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match stream.reader.read(&mut buf) {
            Ok(0) => return Ok(true),
            Ok(n) => {
                head.extend_from_slice(&buf[..n]);
                if memchr::memchr(b'\n', &buf[..n]).is_some() {
                    return Ok(false);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(input::read_error(name, e)),
        }
    }
}

fn bulk_stream(
    cfg: &BulkConfig,
    name: &str,
    mut stream: input::Stream,
    outs: Outs,
) -> anyhow::Result<ExitCode> {
    let (mut head, mut ended) = read_head(&mut stream, name)?;
    let found = loop {
        let body = pipeline::strip_bom(&head);
        // Detection sees whole lines only, unless that is all there is.
        let lines = match memchr::memrchr(b'\n', body) {
            Some(i) if !ended => &body[..=i],
            _ => body,
        };
        match detect::detect_head(lines, &cfg.forced, ended) {
            // Blank and comment lines alone say nothing of the layout: a
            // writer that sends its header comment first (`(echo '#
            // 12x12'; cat puzzles.txt) | sudoku-bulk solve`) would get the
            // default 9x9 layout and every puzzle a bad record. They get
            // no output, so no reader waits for one: read on until a
            // record comes. Under `--keep-lines` they are echoed, and a
            // co-process may wait for that echo: wait a while, as for a
            // count line below.
            Ok(_)
                if !ended
                    && head.len() < STDIN_HEAD
                    && detect::only_comments(lines)
                    && (!cfg.keep_lines || stream.pause.ready_within(2000)) =>
            {
                ended = read_line_more(&mut stream, &mut head, name)?;
            }
            Ok(found) => break found,
            // The head stopped where the writer paused, which may be
            // before anything that tells the layout (`(echo 5000; cat
            // grids.txt) | sudoku-bulk solve` sends a count line alone
            // first): wait a while for the next line and try again. A
            // co-process that sent a bad line and waits for its answer
            // gets the error after that while.
            Err(_) if !ended && head.len() < STDIN_HEAD && stream.pause.ready_within(2000) => {
                ended = read_line_more(&mut stream, &mut head, name)?;
            }
            Err(e) => anyhow::bail!("{name}:{e}"),
        }
    };
    let style = Style::of(&head);
    let rest = pipeline::strip_bom(&head)[found.skip_bytes..].to_vec();
    let chunk_bytes = cfg.chunk_bytes.unwrap_or(STDIN_CHUNK);
    let input::Stream {
        reader,
        pause,
        stored,
        ..
    } = stream;
    let chunks = pipeline::stream_chunks(
        std::io::Cursor::new(rest).chain(reader),
        &found.layout,
        chunk_bytes,
        move || pause.paused(),
    );
    // A file read front to back (compressed, or --no-mmap): the bar
    // follows the bytes read from the file, out of its size, so a `.gz`
    // has a total and an ETA although its decoded size is unknown.
    let size = match stored {
        Some(s) => Progress::Stored(s),
        None => Progress::Unknown,
    };
    let feed = Feed {
        size,
        chunk_bytes,
        one_chunk: false,
        style,
    };
    finish(cfg, name, &found, feed, chunks, outs)
}

/// What a text run's progress bar counts.
enum Progress {
    /// The input's bytes, of this total (a mapped file).
    Bytes(u64),
    /// The bytes read from a file of known size (compressed or streamed).
    Stored(input::Stored),
    /// Bytes with no total (stdin, pipes).
    Unknown,
}

/// How a text run's chunks come: what the progress bar counts, the chunk
/// size, whether it is one chunk (solved on this thread), and the input's
/// text style.
struct Feed {
    size: Progress,
    chunk_bytes: usize,
    one_chunk: bool,
    style: Style,
}

fn finish<'a>(
    cfg: &BulkConfig,
    name: &str,
    found: &Detected,
    feed: Feed,
    chunks: impl pipeline::Chunks<'a>,
    mut outs: Outs,
) -> anyhow::Result<ExitCode> {
    let Feed {
        size,
        chunk_bytes,
        one_chunk,
        style,
    } = feed;
    if cfg.stats && found.layout.multiline() {
        anyhow::bail!("{name}: --stats needs a one-puzzle-per-line or CSV layout");
    }
    if cfg.keep_lines && found.layout.shape != Shape::Line {
        anyhow::bail!("{name}: --keep-lines needs the one-puzzle-per-line layout");
    }
    text_output_fits(cfg, name, &found.layout)?;
    let mut out = outs.main(match found.layout.shape {
        Shape::Csv(cols) => Writes::Rows(cols.delim),
        _ if matches!(cfg.task, Task::Count { .. }) => Writes::Lines,
        _ if found.layout.multiline() => Writes::Grids,
        _ => Writes::Lines,
    })?;
    // Delimited rows keep the input's BOM and CRLF line ends (`count`
    // adds its column to them, as to a table).
    let rows = matches!(found.layout.shape, Shape::Csv(_));
    let style = if rows { style } else { Style::default() };
    let mut opts = Options {
        threads: if one_chunk { 1 } else { cfg.threads },
        chunk_bytes,
        on_error: cfg.on_error,
        line_offset: found.skip_lines,
        stats: cfg.stats,
        overwrite: cfg.overwrite,
        keep_lines: cfg.keep_lines,
        crlf: style.crlf,
        fields_at: &[],
    };
    let mut reporter = match size {
        Progress::Bytes(total) => Reporter::new(name.to_string(), Some(total), cfg.progress),
        Progress::Stored(s) => {
            let mut r = Reporter::new(name.to_string(), Some(s.size), cfg.progress);
            r.follow(s.read);
            r
        }
        Progress::Unknown => Reporter::new(name.to_string(), None, cfg.progress),
    };
    let mut preamble = match cfg.task {
        Task::Solve { .. } => found.preamble.clone(),
        Task::Count { .. } => count_preamble(name, &found.layout, &found.header)?,
        Task::Analyse(a) => {
            let (preamble, at) = analysis_preamble(name, a, &found.layout, &found.header)?;
            opts.fields_at = at;
            preamble
        }
    };
    if cfg.stats && preamble.ends_with(b"\n") {
        preamble.pop();
        let d = match found.layout.shape {
            Shape::Csv(cols) => char::from(cols.delim),
            _ => ',',
        };
        // As a table's run refuses it: a second `guesses` column beside the
        // first is read back as `guesses.1` or shadows it.
        let header = preamble.trim_ascii();
        for column in ["guesses", "level"] {
            if header_has(header, d as u8, column) {
                anyhow::bail!(
                    "{name}: the header already has a column {column:?}, which --stats would add"
                );
            }
        }
        preamble.extend_from_slice(format!("{d}guesses{d}level\n").as_bytes());
    }
    if style.crlf && preamble.ends_with(b"\n") && !preamble.ends_with(b"\r\n") {
        preamble.pop();
        preamble.extend_from_slice(b"\r\n");
    }
    if style.bom {
        preamble.splice(0..0, *b"\xEF\xBB\xBF");
    }
    let mut side_out = outs.side()?;
    let result = out
        .writer()
        .write_all(&preamble)
        .and_then(|()| match &mut side_out {
            None => pipeline::run(
                cfg.task,
                &opts,
                &found.layout,
                chunks,
                out.writer(),
                &mut reporter,
            ),
            Some(s) => pipeline::run_with_side(
                cfg.task,
                &opts,
                &found.layout,
                chunks,
                out.writer(),
                &mut SideWriter(s),
                &mut reporter,
            ),
        });
    let summary = match result {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) if e.get_ref().is_some_and(|i| i.is::<SideError>()) => {
            return Err(anyhow::anyhow!("{}", e.get_ref().expect("checked")));
        }
        Err(e) => {
            // Reading errors carry the input's name already (a decoder's
            // `gzip data that does not decompress`); everything else here
            // is writing.
            let what = if is_read_error(&e) {
                // A decoder's message says what is wrong on its own.
                if e.kind() == std::io::ErrorKind::InvalidData {
                    name.to_string()
                } else {
                    format!("{name}: cannot read")
                }
            } else {
                write_what(cfg.output.as_deref())
            };
            return Err(e).context(what);
        }
    };
    if let Some((line, err)) = &summary.failed {
        // Stdout keeps the answers before the bad record.
        if let Some(s) = side_out {
            abandon(s)?;
        }
        abandon(out)?;
        if matches!(err, RecordError::Held { .. }) {
            // A refusal, not a bad record (exit status 2).
            reporter.clear();
            anyhow::bail!("{name}:{line}: {err}");
        }
        reporter.fail(*line, err);
        return Ok(ExitCode::from(EXIT_BAD_RECORDS));
    }
    if let Some(said) = found.announced.filter(|&n| n != summary.tally.records) {
        // A stream's count line could only be checked against its head:
        // a file is refused before any work, a stream at its end (`out`
        // dropped unfinished: a temporary output file is deleted).
        anyhow::bail!(
            "{name}:{}: the count line says {said} puzzles but {} follow; fix the count or \
             delete the line",
            found.skip_lines,
            summary.tally.records
        );
    }
    if !outs.commit(side_out, out)? {
        return Ok(ExitCode::SUCCESS);
    }
    let tally = summary.tally;
    reporter.finish(cfg.task, &tally);
    Ok(ExitCode::from(if tally.bad == 0 {
        EXIT_OK
    } else {
        EXIT_BAD_RECORDS
    }))
}

/// True when the CSV `header` (fields split by `delim`, trimmed, one pair
/// of double quotes taken off) has a field named `column`, in any case: a
/// run that adds that column must not add a second.
fn header_has(header: &[u8], delim: u8, column: &str) -> bool {
    header_position(header, delim, column).is_some()
}

/// The index of the first field of `header` named `column` (as
/// [`header_has`] compares them).
fn header_position(header: &[u8], delim: u8, column: &str) -> Option<usize> {
    header.split(|&b| b == delim).position(|f| {
        let f = f.trim_ascii();
        let f = f
            .strip_prefix(b"\"")
            .and_then(|f| f.strip_suffix(b"\""))
            .unwrap_or(f);
        f.eq_ignore_ascii_case(column.as_bytes())
    })
}

/// The header of an [`Analysis`] run over text: a CSV header with the
/// analysis's columns added (refused when it has one of them already: a
/// second `canonical` column would shadow the first), nothing otherwise.
/// Fields of an analysis that writes grids of several lines have no place
/// to go: refused. For an analysis without a grid (`rate`), columns the
/// header has are kept where they are and their fields written there: the
/// second value says where each column goes ([`Options::fields_at`];
/// empty when all are added). Without `--overwrite` the pipeline then stops
/// at the first row holding a value in one of them
/// ([`crate::text::RecordError::Held`]), so only empty fields are filled.
fn analysis_preamble(
    name: &str,
    a: &dyn Analysis,
    layout: &Layout,
    header: &[u8],
) -> anyhow::Result<(Vec<u8>, &'static [Option<usize>])> {
    let added: Vec<&str> = a
        .grid_column()
        .into_iter()
        .chain(a.columns().iter().copied())
        .collect();
    if layout.multiline() && a.grid_column().is_some() && !a.columns().is_empty() {
        anyhow::bail!(
            "{name}: {} with {} needs a one-puzzle-per-line or CSV layout (grids of several \
             lines have no place for them)",
            a.name(),
            a.columns().join(", ")
        );
    }
    let Shape::Csv(cols) = layout.shape else {
        return Ok((Vec::new(), &[]));
    };
    if header.is_empty() {
        return Ok((Vec::new(), &[]));
    }
    let d = cols.delim;
    let header = header.strip_suffix(b"\r").unwrap_or(header);
    if a.grid_column().is_none() {
        let mut at = Vec::new();
        for column in &added {
            let k = header_position(header, d, column);
            if k == Some(cols.puzzle) {
                anyhow::bail!(
                    "{name}: the header's column {column:?} is the puzzle column, which {} \
                     would write its {column} into; name another column",
                    a.name()
                );
            }
            at.push(k);
        }
        if at.iter().any(Option::is_some) {
            let mut preamble = header.to_vec();
            for (column, _) in added.iter().zip(&at).filter(|(_, k)| k.is_none()) {
                preamble.push(d);
                preamble.extend_from_slice(column.as_bytes());
            }
            preamble.push(b'\n');
            // One small list per run, read by every worker for its rows.
            return Ok((preamble, Vec::leak(at)));
        }
    }
    for column in &added {
        if header_has(header, d, column) {
            anyhow::bail!(
                "{name}: the header already has a column {column:?}, which {} would add",
                a.name()
            );
        }
    }
    let mut preamble = header.to_vec();
    for column in added {
        preamble.push(d);
        preamble.extend_from_slice(column.as_bytes());
    }
    preamble.push(b'\n');
    Ok((preamble, &[]))
}

/// The header of `count`'s delimited rows: the input's, with a
/// `solutions` column added (`solution_count` when the header has a
/// `solutions` column already, a Kaggle `quizzes,solutions` set), as a
/// table gets it; empty for other layouts and headerless rows.
fn count_preamble(name: &str, layout: &Layout, header: &[u8]) -> anyhow::Result<Vec<u8>> {
    let Shape::Csv(cols) = layout.shape else {
        return Ok(Vec::new());
    };
    if header.is_empty() {
        return Ok(Vec::new());
    }
    let d = cols.delim;
    let header = header.strip_suffix(b"\r").unwrap_or(header);
    let column = if header_has(header, d, "solutions") {
        "solution_count"
    } else {
        "solutions"
    };
    if header_has(header, d, column) {
        anyhow::bail!("{name}: the header already has a column {column:?}, which count would add");
    }
    let mut preamble = header.to_vec();
    preamble.push(d);
    preamble.extend_from_slice(column.as_bytes());
    preamble.push(b'\n');
    Ok(preamble)
}

pub use crate::output::write_what;

/// Ends the output of a run that a bad record stopped (see
/// [`Output::abandon`]): a temporary file is deleted, stdout keeps what was
/// written. A reader gone early is no error.
pub(crate) fn abandon(out: Output) -> anyhow::Result<()> {
    let what = format!("{}: cannot write", out.name());
    match out.abandon() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context(what),
        _ => Ok(()),
    }
}

/// Refuses an `-o` name whose extension asks for a format a text run does
/// not write. Answers keep the input's text layout, so `.txt` always fits;
/// `.csv` and `.tsv` fit delimited rows (`solve` of a CSV, TSV or tdoku
/// input, its delimiter kept) and one answer or count per line (a
/// one-column file), not grids of several lines; a columnar name never
/// fits (no writer turns text into a table or an array). Runs before the
/// output is created.
fn text_output_fits(cfg: &BulkConfig, name: &str, layout: &Layout) -> anyhow::Result<()> {
    let (Some(path), Some(named)) = (cfg.output.as_deref(), Named::of(cfg.output.as_deref()))
    else {
        return Ok(());
    };
    let count = matches!(cfg.task, Task::Count { .. });
    let rows = matches!(layout.shape, Shape::Csv(_));
    // `count` writes one count per line for every layout but delimited
    // rows (which get a column).
    let one_per_line = count || !layout.multiline();
    // Rows keep the input's delimiter: a `.tsv` name for comma-separated
    // rows (or `.csv` for tab-separated ones) would get the other one.
    if let Shape::Csv(cols) = layout.shape {
        let wrong = match named {
            Named::Csv => (cols.delim == b'\t').then_some(("CSV (.csv)", "tab-separated")),
            Named::Tsv => (cols.delim != b'\t').then_some(("TSV (.tsv)", "not tab-separated")),
            _ => None,
        };
        if let Some((asked, has)) = wrong {
            return Err(named.refuse(
                path,
                &format!(
                    "the {} of {name} ({has} rows)",
                    if count { "counts" } else { "answers" }
                ),
                &format!(
                    "rows with the input's own delimiter: name the output for it (not {asked}), \
                     or .txt"
                ),
            ));
        }
    }
    let fits = match named {
        Named::Text => true,
        Named::Csv | Named::Tsv => one_per_line,
        Named::Columnar(_) => false,
    };
    if fits {
        return Ok(());
    }
    let (subject, allowed) = if count && rows {
        (
            "the counts of",
            "delimited rows (.csv, .tsv, with the input's delimiter) or text (.txt)",
        )
    } else if count {
        (
            "the counts of",
            "text (.txt, .csv, .tsv), one count per line",
        )
    } else if rows {
        (
            "the answers of",
            "delimited rows (.csv, .tsv, with the input's delimiter) or text (.txt)",
        )
    } else if one_per_line {
        (
            "the answers of",
            "text (.txt, .csv, .tsv), one answer per line in the input's layout",
        )
    } else {
        ("the answers of", "text (.txt) in the input's layout")
    };
    let allowed = match named {
        // The run cannot, but another command can.
        Named::Columnar(_) => format!(
            "{allowed} (`sudoku-bulk convert {name} -o {}` turns the puzzles into that format)",
            crate::text::shown_path(path)
        ),
        _ => allowed.to_string(),
    };
    Err(named.refuse(path, &format!("{subject} {name} (text input)"), &allowed))
}

/// Runs `bench`: one table row (or JSON object) per file.
/// A reader gone early (`bench … | head`) ends it quietly, as it ends
/// `solve`.
pub fn bench(cfg: &BenchConfig) -> anyhow::Result<ExitCode> {
    let mut plan = Plan::new();
    for f in &cfg.files {
        plan.input(Some(f));
    }
    let slot = plan.output(Role::RESULT, None, Writes::Text, Compress::None);
    let mut outs = plan.check()?;
    let mut out = outs.take(slot, Writes::Text)?;
    let rows = bench_rows(cfg, &mut Flushed(out.writer()));
    match rows.and_then(|ok| outs.commit(vec![out]).map(|()| ok)) {
        Err(e) if is_broken_pipe(&e) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e),
        Ok(all_solved) => Ok(ExitCode::from(if all_solved {
            EXIT_OK
        } else {
            EXIT_BAD_RECORDS
        })),
    }
}

/// A writer flushed at every line end: `bench`'s rows appear as each file
/// is measured.
struct Flushed<'a>(&'a mut dyn Write);

impl Write for Flushed<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.0.write(buf)?;
        if buf[..n].contains(&b'\n') {
            self.0.flush()?;
        }
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Measures each file of `bench` and writes its row to `w`; true when
/// every puzzle was solved and verified.
fn bench_rows(cfg: &BenchConfig, w: &mut impl Write) -> anyhow::Result<bool> {
    let mode = match cfg.mode {
        Mode::First => "first",
        Mode::Unique => "unique",
    };
    // The header waits for the first measured file: a run that fails
    // before measuring anything (an empty or binary file) prints nothing.
    let header = |w: &mut dyn Write| -> anyhow::Result<()> {
        if cfg.json {
            writeln!(w, "[").map_err(stdout_error)
        } else {
            writeln!(
                w,
                "{:<40} {:>9} {:>12} {:>10} {:>9} {:>10} {:>10} {:>10} {:>10} {:>10} {:>17}",
                format!("file (mode {mode}, {} thread(s))", cfg.threads),
                "puzzles",
                "puzzles/s",
                "us/puzzle",
                "no_guess",
                "guesses",
                "median_ms",
                "p90_ms",
                "p99_ms",
                "max_ms",
                "solved"
            )
            .map_err(stdout_error)
        }
    };
    let mut all_solved = true;
    for (i, path) in cfg.files.iter().enumerate() {
        let data = input::read_all(path)?;
        let name = input::display_name(Some(path));
        let set = match input::sniff(&data) {
            Some(kind) => bench_table(cfg, path, &name, kind, &data)?,
            None => bench::load(&data, &cfg.forced).map_err(|e| anyhow::anyhow!("{name}:{e}"))?,
        };
        if set.is_empty() {
            anyhow::bail!("{name}: no puzzles to measure ({} bad records)", set.bad);
        }
        let m = bench::measure(&set, cfg.mode, cfg.threads, cfg.min_time);
        if i == 0 {
            header(w)?;
        }
        all_solved &= m.verified == m.puzzles && set.bad == 0;
        let n = m.puzzles.max(1) as f64;
        let us = 1e6 / m.rate().max(1e-12) * cfg.threads as f64;
        let [p50, p90, p99, max] = m.percentiles.map(|d| d.as_secs_f64() * 1e3);
        if cfg.json {
            writeln!(
                w,
                "  {{\"file\": {}, \"mode\": \"{mode}\", \"threads\": {}, \"puzzles\": {}, \
                 \"bad_records\": {}, \"passes\": {}, \"seconds\": {:.6}, \"puzzles_per_sec\": {:.1}, \
                 \"us_per_puzzle\": {:.4}, \"no_guess_pct\": {:.2}, \"guesses_per_puzzle\": {:.3}, \
                 \"verified\": {}, \"unique\": {}, \"multiple\": {}, \"median_ms\": {:.4}, \
                 \"p90_ms\": {:.4}, \"p99_ms\": {:.4}, \"max_ms\": {:.4}}}{}",
                json_string(&name),
                cfg.threads,
                m.puzzles,
                set.bad,
                m.passes,
                m.elapsed.as_secs_f64(),
                m.rate(),
                us,
                100.0 * m.no_guess as f64 / n,
                m.guesses as f64 / n,
                m.verified,
                m.unique,
                m.multiple,
                p50,
                p90,
                p99,
                max,
                if i + 1 < cfg.files.len() { "," } else { "" }
            )
            .map_err(stdout_error)?;
        } else {
            let solved = match cfg.mode {
                Mode::First => format!("{}/{}", m.verified, m.puzzles),
                Mode::Unique => format!("{}/{} ({} 2+)", m.verified, m.puzzles, m.multiple),
            };
            writeln!(
                w,
                "{:<40} {:>9} {:>12.1} {:>10.3} {:>8.1}% {:>10.2} {:>10.3} {:>10.3} {:>10.3} {:>10.3} {:>17}",
                name,
                m.puzzles,
                m.rate(),
                us,
                100.0 * m.no_guess as f64 / n,
                m.guesses as f64 / n,
                p50,
                p90,
                p99,
                max,
                solved
            )
            .map_err(stdout_error)?;
        }
    }
    if cfg.json {
        writeln!(w, "]").map_err(stdout_error)?;
    }
    Ok(all_solved)
}

/// Loads the puzzles of a table or array for `bench` with the columnar
/// readers `solve` uses (a [`bench::Collect`] analysis on one thread, the
/// text it writes thrown away).
fn bench_table(
    cfg: &BenchConfig,
    path: &std::path::Path,
    name: &str,
    kind: input::Kind,
    data: &[u8],
) -> anyhow::Result<bench::Set> {
    // `Task::Analyse` takes a `'static` analysis: one small collector per
    // benched table, its puzzles moved out below.
    let collect: &'static bench::Collect = Box::leak(Box::default());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let asked = Asked::of(&cfg.forced);
    asked.fits(name, kind)?;
    let job = Job {
        pool: &pool,
        name,
        task: Task::Analyse(collect),
        threads: 1,
        on_error: pipeline::OnError::Mark,
        stats: false,
        overwrite: false,
        asked,
        output: None,
        compression: None,
        reporter: std::sync::Mutex::new(Reporter::records(name.to_string(), None, false)),
        side: None,
    };
    let mut out = crate::output::guard::discard();
    let tally = match columnar::run(
        &job,
        kind,
        Data::File(path, data),
        columnar::Target::Text,
        &mut out,
    )? {
        Run::Done(tally) => tally,
        Run::Failed => anyhow::bail!("{name}: stopped at a bad row"),
    };
    collect
        .into_set(tally.bad as usize)
        .map_err(|e| anyhow::anyhow!("{name}:{e}"))
}

/// A failed write to standard output, named as such.
fn stdout_error(e: std::io::Error) -> anyhow::Error {
    anyhow::Error::new(e).context("<stdout>: cannot write")
}

/// Runs `check`: prints the first bad records and a summary on stdout.
pub fn check(cfg: &CheckConfig) -> anyhow::Result<ExitCode> {
    let pname = input::display_name(Some(&cfg.puzzles));
    let mut plan = Plan::new();
    plan.input(Some(&cfg.puzzles));
    if let Some(a) = &cfg.answers {
        plan.input(Some(a));
    }
    let slot = plan.output(Role::RESULT, None, Writes::Text, Compress::None);
    let mut outs = plan.check()?;
    if cfg.answers.as_deref().is_some_and(|a| a.as_os_str() == "-")
        && cfg.puzzles.as_os_str() == "-"
    {
        anyhow::bail!("only one of PUZZLES and ANSWERS can be `-` (stdin)");
    }
    let puzzles = input::read_all(&cfg.puzzles)?;
    let answers = match &cfg.answers {
        Some(a) => Some((input::display_name(Some(a)), input::read_all(a)?)),
        None => None,
    };
    let aname = answers.as_ref().map_or(&pname, |(n, _)| n).clone();
    let (report, rows) = match input::sniff(&puzzles) {
        Some(kind) => {
            // `-` is stdin: its bytes only (Parquet would reopen a file by
            // the path, here a file named `-`).
            fn data_of<'d>(path: &'d std::path::Path, bytes: &'d [u8]) -> Data<'d> {
                if path.as_os_str() == "-" {
                    Data::Owned(bytes.to_vec())
                } else {
                    Data::File(path, bytes)
                }
            }
            let adata = match (&answers, &cfg.answers) {
                (Some((aname, bytes)), Some(path)) => Some((aname.as_str(), data_of(path, bytes))),
                _ => None,
            };
            let asked = Asked::of(&cfg.forced);
            let data = data_of(&cfg.puzzles, &puzzles);
            (columnar::check(&asked, &pname, kind, data, adata)?, true)
        }
        None => {
            let r = match &answers {
                Some((aname, answers)) => {
                    if let Some(kind) = input::sniff(answers) {
                        anyhow::bail!(
                            "{aname} is {} but {pname} is text: check compares \
                             answers of the puzzles' own kind (text with text, .npy with .npy, \
                             a table with a table)",
                            kind.a_file()
                        );
                    }
                    check::check_files(&puzzles, answers, &cfg.forced)
                        .map_err(|e| anyhow::anyhow!("{pname} / {aname}: {e}"))?
                }
                None => check::check_csv(&puzzles, &cfg.forced)
                    .map_err(|e| anyhow::anyhow!("{pname}:{e}"))?,
            };
            (r, false)
        }
    };
    // Text records are named by line (and row past a header), table and
    // array rows by `row R`, 1-based.
    let what = if rows {
        "answer rows"
    } else {
        "answer records"
    };
    // `-q`: the exit status is the answer, as for `rg -q`.
    if crate::output::chatter() != crate::output::Chatter::Quiet {
        let mut o = outs.take(slot, Writes::Text)?;
        let out = o.writer();
        let lines = (|| -> std::io::Result<()> {
            for (at, reason) in &report.shown {
                writeln!(out, "{aname}:{at}: {reason}")?;
            }
            let hidden = report.bad - report.shown.len() as u64;
            if hidden > 0 {
                writeln!(out, "{aname}: ... and {hidden} more bad records")?;
            }
            if let Some((np, na)) = report.count_mismatch {
                writeln!(out, "{aname}: {na} {what} for {np} puzzles in {pname}")?;
            }
            writeln!(
                out,
                "{aname}: {} records checked, {} good, {} bad",
                report.records, report.good, report.bad
            )
        })();
        lines.map_err(stdout_error)?;
        outs.commit(vec![o])?;
    }
    Ok(ExitCode::from(if report.ok() {
        EXIT_OK
    } else {
        EXIT_BAD_RECORDS
    }))
}

/// Runs `generate`: batches of indices on rayon workers, written in index
/// order, duplicates replaced deterministically (see [`generate::Run`]).
pub fn generate(cfg: &GenerateConfig) -> anyhow::Result<ExitCode> {
    let side = cfg.spec.boxes.side();
    let note = generate::slow_minimal_note(side, "--clues ");
    if let Some(note) = note.filter(|_| cfg.spec.clues.is_none()) {
        crate::output::note(format_args!("{note}"));
    }
    let named = Named::of(cfg.output.as_deref());
    if let (Some(path), Some(named)) = (cfg.output.as_deref(), named) {
        let csv = cfg.with_solution && named == Named::Csv;
        if !matches!(named, Named::Text | Named::Columnar(_)) && !csv {
            let allowed = if cfg.with_solution {
                "CSV (.csv), text (.txt), Parquet (.parquet) or Arrow IPC (.arrow, .arrows)"
            } else {
                "text (.txt), one puzzle per line (CSV with --with-solution), Parquet \
                 (.parquet), Arrow IPC (.arrow, .arrows) or NumPy (.npy)"
            };
            return Err(named.refuse(path, "generated puzzles", allowed));
        }
        if named == Named::Columnar(input::Kind::Npy) && (cfg.with_solution || cfg.stats) {
            return Err(named.refuse(
                path,
                if cfg.with_solution {
                    "generated puzzles with their solutions"
                } else {
                    "generated puzzles with --stats"
                },
                "Parquet (.parquet), Arrow IPC (.arrow, .arrows), CSV (.csv) or text (.txt): \
                 a .npy array holds only puzzles",
            ));
        }
    }
    if let Some(band) = cfg.rating {
        if cfg.spec.boxes != crate::solver::Boxes::NINE {
            anyhow::bail!("--rating: Sudoku Explainer ratings exist for 9x9 puzzles only");
        }
        band.check(&crate::rate::Rater::new(), &cfg.spec)
            .map_err(|e| anyhow::anyhow!(e))?;
    }
    let writes = match named {
        Some(Named::Columnar(k)) => Writes::Table(k),
        _ if cfg.with_solution => Writes::Rows(b','),
        _ => Writes::Lines,
    };
    let mut plan = Plan::new();
    let slot = plan.output(Role::OUTPUT, cfg.output.as_deref(), writes, cfg.compress);
    let mut outs = plan.check()?;
    let mut out = outs.take(slot, writes)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()?;
    let mut reporter = Reporter::records("generate".into(), Some(cfg.count), cfg.progress);
    let mut written = 0u64;
    let spec = &cfg.spec;
    let b = spec.boxes;
    let layout = Layout::one_line(b);
    let text = |cells: &[u8]| -> String {
        let mut v = Vec::new();
        layout.write_cells(cells, cfg.blank, &mut v);
        String::from_utf8(v).expect("symbols are ASCII")
    };
    // Numbers (sides past 36) are space-separated themselves.
    let sep = if cfg.with_solution || layout.symbols == Symbols::Numbers {
        ','
    } else {
        ' '
    };
    let mut puzzles = generate::Run::new(*spec, cfg.seed);
    let mut rated = cfg
        .rating
        .map(|band| generate::RatedRun::new(*spec, cfg.seed, band));
    // `--rating` found no puzzle in its band for too long.
    let mut dry: Option<String> = None;
    let mut levels = [0u64; 4];
    let (mut clues, mut off_target) = (0u64, 0u64);
    let start = std::time::Instant::now();
    let columns = crate::convert::GeneratedColumns {
        names: (&cfg.header.0, &cfg.header.1),
        with_solution: cfg.with_solution,
        stats: cfg.stats,
        boxes: b,
        blank: cfg.blank,
        count: cfg.count,
        compression: cfg.compression,
    };
    let run = (|| -> anyhow::Result<()> {
        let w = out.writer();
        // A table or `.npy` name: the same batches through convert's sink.
        let (mut table, mut lines) = match cfg.output.as_deref() {
            Some(path) if matches!(named, Some(Named::Columnar(_))) => {
                (crate::convert::Generated::new(path, w, &columns)?, None)
            }
            _ => (None, Some(w)),
        };
        if let (true, Some(w)) = (cfg.with_solution, lines.as_mut()) {
            let (p, s) = &cfg.header;
            let stats = if cfg.stats { ",guesses,level" } else { "" };
            w.write_all(format!("{p},{s}{stats}\n").as_bytes())?;
        }
        let mut index = 0;
        while index < cfg.count {
            let end = (index + generate::BATCH).min(cfg.count);
            let batch = match rated.as_mut() {
                Some(r) => match pool.install(|| {
                    // A narrow band rates thousands of candidates between
                    // two finds: the bar says how many.
                    r.take_with((end - index) as usize, |seen, found| {
                        reporter.progress(written, index + found as u64);
                        reporter.message(format!("({seen} candidates rated)"));
                        true
                    })
                }) {
                    Ok(b) => b,
                    Err(e) => {
                        dry = Some(e);
                        return Ok(());
                    }
                },
                None => pool.install(|| puzzles.take_until(end)),
            };
            if let Some(t) = table.as_mut() {
                t.write(&batch)?;
            }
            for p in batch {
                let mut line = text(&p.cells);
                if cfg.with_solution {
                    line.push(',');
                    line.push_str(&text(&p.solution));
                }
                if cfg.stats {
                    line.push_str(&format!("{sep}{}{sep}{}", p.guesses, p.level.name()));
                }
                line.push('\n');
                if let Some(w) = lines.as_mut() {
                    w.write_all(line.as_bytes())?;
                }
                written += line.len() as u64;
                levels[p.level as usize] += 1;
                clues += p.cells.iter().filter(|&&v| v != 0).count() as u64;
                off_target += u64::from(!p.on_target);
            }
            index = end;
            reporter.progress(written, index);
        }
        if let Some(t) = table {
            t.finish()?;
        }
        Ok(())
    })();
    match run {
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        r => r.with_context(|| write_what(cfg.output.as_deref()))?,
    }
    if let Some(e) = dry {
        // The output is dropped unfinished: a temporary file is deleted.
        anyhow::bail!("{e}");
    }
    match outs.commit(vec![out]) {
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        r => r?,
    }
    reporter.clear();
    let secs = start.elapsed().as_secs_f64();
    let quiet = crate::output::chatter() == crate::output::Chatter::Quiet;
    if !quiet {
        eprintln!(
            "sudoku-bulk: generated {} puzzles in {secs:.2}s ({:.0}/s), mean {:.1} clues; \
         easy {}, medium {}, hard {}, extreme {}; {off_target} off target, {} repeats replaced",
            cfg.count,
            cfg.count as f64 / secs.max(1e-9),
            clues as f64 / cfg.count.max(1) as f64,
            levels[0],
            levels[1],
            levels[2],
            levels[3],
            rated
                .as_ref()
                .map_or(puzzles.duplicates, |r| r.duplicates()),
        );
        if let (Some(r), Some(band)) = (&rated, cfg.rating) {
            eprintln!(
                "sudoku-bulk: --rating {band}: {} candidates generated and rated for {} \
                 puzzles ({:.1}%)",
                r.candidates,
                cfg.count,
                100.0 * cfg.count as f64 / r.candidates.max(1) as f64
            );
        }
    }
    if off_target > 0 && !cfg.best_effort {
        // The puzzles are written (each is valid and unique), but the run
        // did not give what was asked: a script must not take them for
        // the asked level or clue count without saying so.
        let asked = match (cfg.spec.level, cfg.spec.clues) {
            (Some(l), _) => format!("--difficulty {}", l.name()),
            (None, Some(k)) => format!("--clues {k}"),
            (None, None) => "the target".to_string(),
        };
        eprintln!(
            "sudoku-bulk: generate: {off_target} of {} puzzles missed {asked} (written \
             anyway; --best-effort exits 0 for them)",
            cfg.count
        );
        return Ok(ExitCode::from(EXIT_BAD_RECORDS));
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// True when an I/O error came from reading the input (a decoder or the
/// source), not from writing answers.
fn is_read_error(e: &std::io::Error) -> bool {
    e.get_ref()
        .is_some_and(|inner| inner.is::<pipeline::InputError>())
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes `bytes` to stdout as the one output of a command without
/// inputs (`man`, `completions`), through the output guard; a reader gone
/// early (`| head`) is no error.
pub fn print_all(bytes: &[u8]) -> anyhow::Result<()> {
    crate::output::guard::print_all(bytes)
}

/// True when an error chain ends in a broken pipe (`sudoku-bulk … | head`).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `rate`: `--techniques list` prints the techniques; else the ratings run
/// as any bulk job, with `--steps FILE` each record's solving path as its
/// side output (the same pass, any input).
pub fn rate(cfg: &RateConfig) -> anyhow::Result<ExitCode> {
    if cfg.list {
        let mut out = String::from("id\tname\timplemented\n");
        for t in crate::rate::Technique::ALL {
            let yes = if t.implemented() { "yes" } else { "no" };
            out.push_str(&format!("{}\t{}\t{yes}\n", t.id(), t.name()));
        }
        crate::output::guard::print_all(out.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    bulk_to(&cfg.bulk, cfg.steps.as_deref(), &[])
}
