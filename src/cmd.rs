//! Runs a parsed command: wires input, pipeline and output together and turns
//! the outcome into an exit status. The only place that knows all three.

use std::process::ExitCode;

use anyhow::Context;

use crate::args::BulkConfig;
use crate::input::{self, Input};
use crate::output::{Output, Reporter};
use crate::pipeline::{self, Options};

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

/// Runs a bulk job (`solve`).
pub fn bulk(cfg: &BulkConfig) -> anyhow::Result<ExitCode> {
    let name = input::display_name(cfg.input.as_deref());
    if let (Some(i), Some(o)) = (&cfg.input, &cfg.output) {
        if input::same_file(i, o) {
            anyhow::bail!(
                "{}: refusing to write the output over the input",
                o.display()
            );
        }
    }
    let source = input::open(cfg.input.as_deref(), cfg.no_mmap)?;
    let mut out = Output::create(cfg.output.as_deref())?;
    let total = match &source {
        Input::Mapped(m) => Some(m.len() as u64),
        Input::Read(v) => Some(v.len() as u64),
        Input::Stdin => None,
    };
    let chunk_bytes = cfg.chunk_bytes.unwrap_or(match total {
        // Enough chunks to keep every thread busy to the end, even on small
        // files, and never fewer than a few KiB.
        Some(n) => ((n as usize) / (cfg.threads * 16)).clamp(4 << 10, MAX_CHUNK),
        None => STDIN_CHUNK,
    });
    let opts = Options {
        threads: cfg.threads,
        chunk_bytes,
        on_error: cfg.on_error,
    };
    let mut reporter = Reporter::new(name.clone(), total, cfg.progress);
    let result = match &source {
        Input::Mapped(m) => run_slice(cfg, &opts, m, &mut out, &mut reporter),
        Input::Read(v) => run_slice(cfg, &opts, v, &mut out, &mut reporter),
        Input::Stdin => {
            let chunks = pipeline::reader_chunks(std::io::stdin().lock(), chunk_bytes);
            let mut first = true;
            // Drop a BOM at the very start of the stream.
            let chunks = chunks.map(move |c| {
                let c = c?;
                if std::mem::take(&mut first) && c.starts_with(b"\xEF\xBB\xBF") {
                    return Ok(std::borrow::Cow::Owned(c[3..].to_vec()));
                }
                Ok(c)
            });
            pipeline::run(cfg.task, &opts, chunks, out.writer(), &mut reporter)
        }
    };
    let summary = match result {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => {
            let what = match &cfg.output {
                Some(o) => format!("{} (reading {name})", o.display()),
                None => format!("writing output (reading {name})"),
            };
            return Err(e).context(what);
        }
    };
    if let Some((line, err)) = &summary.failed {
        // `out` is dropped here: a temporary output file is deleted.
        reporter.fail(*line, err);
        return Ok(ExitCode::from(EXIT_BAD_RECORDS));
    }
    match out.finish() {
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        r => r?,
    }
    let tally = summary.tally;
    reporter.finish(&tally);
    Ok(ExitCode::from(if tally.bad == 0 {
        EXIT_OK
    } else {
        EXIT_BAD_RECORDS
    }))
}

fn run_slice(
    cfg: &BulkConfig,
    opts: &Options,
    data: &[u8],
    out: &mut Output,
    reporter: &mut Reporter,
) -> std::io::Result<pipeline::Summary> {
    let data = pipeline::strip_bom(data);
    let chunks = pipeline::slice_chunks(data, opts.chunk_bytes);
    pipeline::run(cfg.task, opts, chunks, out.writer(), reporter)
}

/// True when an error chain ends in a broken pipe (`sudoku-bulk … | head`).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
