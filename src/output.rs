//! Output side of the data flow: the answer file (written to a temporary file
//! beside the target and renamed into place only on success; devices and
//! pipes such as `/dev/null` are written directly), the progress bar,
//! bad-record messages and the closing summary, all on stderr.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::format::RecordError;
use crate::pipeline::{Observer, Tally, Task};

/// Where answers go: stdout, a device or pipe, or a file that appears only
/// when complete.
pub enum Output {
    /// Standard output, buffered.
    Stdout(BufWriter<io::Stdout>),
    /// An existing path that is not a regular file (`/dev/null`, a FIFO):
    /// written in place, since renaming over it would replace the device.
    Special(BufWriter<std::fs::File>),
    /// A temporary file in the target's directory, renamed on `finish`.
    File {
        /// The temporary file, deleted if dropped before `finish`.
        tmp: BufWriter<tempfile::NamedTempFile>,
        /// The final path.
        dest: PathBuf,
    },
}

impl Output {
    /// Opens stdout (`None` or `-`), an existing device or pipe in place, or
    /// a temporary file beside `path` (beside the link's target when `path`
    /// is a symbolic link, so the link survives).
    pub fn create(path: Option<&Path>) -> anyhow::Result<Output> {
        let Some(dest) = path.filter(|p| p.as_os_str() != "-") else {
            return Ok(Output::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout(),
            )));
        };
        let mut dest = dest.to_path_buf();
        if let Ok(meta) = std::fs::metadata(&dest) {
            if !meta.is_file() {
                if meta.is_dir() {
                    anyhow::bail!("{}: is a directory", dest.display());
                }
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&dest)
                    .with_context(|| format!("{}: cannot open for writing", dest.display()))?;
                return Ok(Output::Special(BufWriter::with_capacity(1 << 16, file)));
            }
            if std::fs::symlink_metadata(&dest).is_ok_and(|m| m.file_type().is_symlink()) {
                dest = std::fs::canonicalize(&dest)
                    .with_context(|| format!("{}: cannot resolve link", dest.display()))?;
            }
        }
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        // Ask for 0666 so open(2) applies the umask: the answer file gets the
        // permissions a plain `File::create` would give, not 0600.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = builder
            .prefix(".sudoku-bulk-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .with_context(|| format!("{}: cannot create a temporary file", dir.display()))?;
        Ok(Output::File {
            tmp: BufWriter::with_capacity(1 << 16, tmp),
            dest,
        })
    }

    /// The writer answers go to.
    pub fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(w) => w,
            Output::Special(w) => w,
            Output::File { tmp, .. } => tmp,
        }
    }

    /// Flushes and, for a file, renames it into place.
    pub fn finish(self) -> anyhow::Result<()> {
        match self {
            Output::Stdout(mut w) => Ok(w.flush()?),
            Output::Special(mut w) => Ok(w.flush()?),
            Output::File { tmp, dest } => {
                let tmp = tmp
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(|| format!("{}: cannot write", dest.display()))?;
                tmp.persist(&dest)
                    .map_err(|e| e.error)
                    .with_context(|| format!("{}: cannot rename into place", dest.display()))?;
                Ok(())
            }
        }
    }
}

/// Progress bar plus bad-record reporting, on stderr.
pub struct Reporter {
    name: String,
    bar: ProgressBar,
    errors: BufWriter<io::Stderr>,
    start: Instant,
}

impl Reporter {
    /// A reporter for input `name` of `total` bytes (unknown for stdin). The
    /// bar is drawn only if `show` and stderr is a terminal.
    pub fn new(name: String, total: Option<u64>, show: bool) -> Reporter {
        let target = if show && io::stderr().is_terminal() {
            ProgressDrawTarget::stderr_with_hz(8)
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(total, target);
        let style = if total.is_some() {
            "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}"
        } else {
            "{spinner} [{elapsed_precise}] {bytes} {msg}"
        };
        bar.set_style(ProgressStyle::with_template(style).expect("valid template"));
        bar.enable_steady_tick(Duration::from_millis(250));
        Reporter {
            name,
            bar,
            errors: BufWriter::new(io::stderr()),
            start: Instant::now(),
        }
    }

    /// Time since the reporter was made.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Clears the bar and prints `sudoku-bulk: NAME: records …` on stderr.
    pub fn finish(mut self, task: Task, tally: &Tally) {
        self.bar.finish_and_clear();
        let _ = self.errors.flush();
        let secs = self.start.elapsed().as_secs_f64();
        let what = match task {
            Task::Solve { .. } => format!("{} solved", tally.solved),
            Task::Count { limit } => {
                let [zero, one, many] = tally.by_count;
                if limit >= 2 {
                    format!("{zero} with 0 solutions, {one} with 1, {many} with 2+")
                } else {
                    format!("{zero} with 0 solutions, {one} with 1+")
                }
            }
        };
        eprintln!(
            "sudoku-bulk: {}: {} records, {what}, {} bad in {:.2}s ({:.0} puzzles/s)",
            self.name,
            tally.records,
            tally.bad,
            secs,
            tally.records as f64 / secs.max(1e-9)
        );
    }

    /// Clears the bar without a summary (for commands that print their own).
    pub fn clear(self) {
        self.bar.finish_and_clear();
    }

    /// Prints a fatal `NAME:LINE: reason` for the record that stopped a run.
    pub fn fail(mut self, line: u64, err: &RecordError) {
        self.bar.finish_and_clear();
        let _ = self.errors.flush();
        eprintln!("sudoku-bulk: {}:{line}: {err}", self.name);
    }
}

impl Observer for Reporter {
    fn bad_record(&mut self, line: u64, err: &RecordError) {
        let msg = format!("{}:{line}: {err}", self.name);
        if self.bar.is_hidden() {
            let _ = writeln!(self.errors, "{msg}");
        } else {
            self.bar.println(msg);
        }
    }

    fn progress(&mut self, bytes: u64, records: u64) {
        self.bar.set_position(bytes);
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        self.bar.set_message(format!(
            "{records} puzzles ({:.0}/s)",
            records as f64 / secs
        ));
    }
}
