//! Output side of the data flow: the answer file (written to a temporary file
//! beside the target and renamed into place only on success; devices and
//! pipes such as `/dev/null` are written directly), compressed when asked
//! (by `--compress` or the name's extension), the progress bar, bad-record
//! messages and the closing summary, all on stderr.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::input::Codec;
use crate::input::Kind;
use crate::pipeline::{Observer, Tally, Task};
use crate::record::At;
use crate::text::RecordError;

pub mod guard;

/// True when an error chain ends in a broken pipe (`sudoku-bulk … | head`).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// How answers are compressed: `Auto` follows the output name's extension
/// (`.gz`, `.zst`, `.xz`, `.bz2`; plain for stdout and other names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compress {
    /// By the output file's extension.
    #[default]
    Auto,
    /// Plain text, whatever the name.
    None,
    /// This codec, whatever the name.
    With(Codec),
}

impl Compress {
    /// The codec to write to `path` (`None` for stdout).
    pub fn resolve(self, path: Option<&Path>) -> Option<Codec> {
        match self {
            Compress::Auto => path.and_then(Codec::from_extension),
            Compress::None => None,
            Compress::With(c) => Some(c),
        }
    }
}

/// The format an output file's name asks for: its extension, read after a
/// compression extension (`answers.txt.gz` names text, `a.parquet.zst`
/// Parquet). Stdout, `-` and names whose extension names no format have
/// none: those outputs keep the input's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    /// `.txt`, `.text`, `.sudoku`, `.sdk`: text, in whatever layout the run
    /// writes.
    Text,
    /// `.csv`: delimited rows, comma- or semicolon-separated.
    Csv,
    /// `.tsv`: tab-separated rows.
    Tsv,
    /// `.parquet`/`.pq`, `.arrow`/`.feather`/`.ipc`, `.arrows`, `.npy`.
    Columnar(Kind),
}

impl Named {
    /// The format `path`'s name asks for, if any.
    pub fn of(path: Option<&Path>) -> Option<Named> {
        let path = path.filter(|p| p.as_os_str() != "-")?;
        if let Some(kind) = Kind::named_by(path) {
            return Some(Named::Columnar(kind));
        }
        let inner;
        let path = if Codec::from_extension(path).is_some() {
            inner = PathBuf::from(path.file_stem()?);
            &inner
        } else {
            path
        };
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "txt" | "text" | "sudoku" | "sdk" => Named::Text,
            "csv" => Named::Csv,
            "tsv" => Named::Tsv,
            _ => return None,
        })
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Named::Text => "text",
            Named::Csv => "CSV",
            Named::Tsv => "TSV",
            Named::Columnar(kind) => kind.name(),
        }
    }

    /// The refusal of an output named `path` (as this format) for a run
    /// whose `subject` (`the answers of in.txt`) can only be written as
    /// `allowed`: a usage error, raised before the output is created.
    pub fn refuse(self, path: &Path, subject: &str, allowed: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "{}: the name asks for {} output, but {subject} can only be written as {allowed}",
            crate::text::shown_path(&path),
            self.name()
        )
    }
}

/// `OUT: cannot write` (`<stdout>` without `-o`), the context of a write
/// error.
pub fn write_what(output: Option<&Path>) -> String {
    match output {
        Some(o) => format!("{}: cannot write", crate::text::shown_path(&o)),
        None => "<stdout>: cannot write".to_string(),
    }
}

/// The bytes' destination before compression.
enum Sink {
    /// Standard output, buffered.
    Stdout(BufWriter<io::Stdout>),
    /// An existing path that is not a regular file (`/dev/null`, a FIFO):
    /// written in place, since renaming over it would replace the device.
    Special(BufWriter<File>),
    /// Bytes thrown away (see [`guard::discard`]).
    Discard(io::Sink),
    /// A temporary file in the target's directory, renamed on `finish`.
    Temp {
        /// The temporary file's descriptor. Written as a plain `File`:
        /// `NamedTempFile`'s own writes wrap errors with the hidden
        /// temporary's path, which means nothing to the user.
        tmp: BufWriter<File>,
        /// Its path, deleted if dropped before `finish`.
        path: tempfile::TempPath,
        /// The final path.
        dest: PathBuf,
        /// Its registration for the signal handlers' cleanup, undone when
        /// the sink goes (renamed into place, or deleted with `tmp`).
        registered: Registered,
    },
}

/// A temporary file's path registered with [`crate::cleanup`]; forgotten
/// there on drop, so a run that writes several outputs (the answers and
/// `rate --steps`) or several runs in one process never leave a stale
/// registration behind.
struct Registered(PathBuf);

impl Registered {
    fn new(path: &Path) -> Registered {
        crate::cleanup::register_temp(path);
        Registered(path.to_path_buf())
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        crate::cleanup::unregister_temp(&self.0);
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::Special(w) => w.write(buf),
            Sink::Discard(w) => w.write(buf),
            Sink::Temp { tmp, .. } => tmp.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Special(w) => w.write_all(buf),
            Sink::Discard(w) => w.write_all(buf),
            Sink::Temp { tmp, .. } => tmp.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::Special(w) => w.flush(),
            Sink::Discard(w) => w.flush(),
            Sink::Temp { tmp, .. } => tmp.flush(),
        }
    }
}

/// The compressor in front of the sink.
enum Encoder {
    Plain(Sink),
    Gzip(flate2::write::GzEncoder<Sink>),
    Zstd(zstd::stream::write::Encoder<'static, Sink>),
    Xz(xz2::write::XzEncoder<Sink>),
    Bzip2(bzip2::write::BzEncoder<Sink>),
}

impl Encoder {
    fn new(codec: Option<Codec>, sink: Sink) -> io::Result<Encoder> {
        Ok(match codec {
            None => Encoder::Plain(sink),
            Some(Codec::Gzip) => Encoder::Gzip(flate2::write::GzEncoder::new(
                sink,
                flate2::Compression::default(),
            )),
            // Level 3 is zstd's default: several times faster than gzip's
            // default and smaller.
            Some(Codec::Zstd) => {
                let mut e = zstd::stream::write::Encoder::new(sink, 3)?;
                // A checksum lets readers notice a damaged file.
                e.include_checksum(true)?;
                Encoder::Zstd(e)
            }
            Some(Codec::Xz) => Encoder::Xz(xz2::write::XzEncoder::new(sink, 6)),
            Some(Codec::Bzip2) => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                sink,
                bzip2::Compression::default(),
            )),
        })
    }

    /// Where the (compressed) bytes go.
    fn sink(&self) -> &Sink {
        match self {
            Encoder::Plain(s) => s,
            Encoder::Gzip(e) => e.get_ref(),
            Encoder::Zstd(e) => e.get_ref(),
            Encoder::Xz(e) => e.get_ref(),
            Encoder::Bzip2(e) => e.get_ref(),
        }
    }

    fn finish(self) -> io::Result<Sink> {
        match self {
            Encoder::Plain(s) => Ok(s),
            Encoder::Gzip(e) => e.finish(),
            Encoder::Zstd(e) => e.finish(),
            Encoder::Xz(e) => e.finish(),
            Encoder::Bzip2(e) => e.finish(),
        }
    }
}

impl Write for Encoder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Plain(w) => w.write(buf),
            Encoder::Gzip(w) => w.write(buf),
            Encoder::Zstd(w) => w.write(buf),
            Encoder::Xz(w) => w.write(buf),
            Encoder::Bzip2(w) => w.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Encoder::Plain(w) => w.write_all(buf),
            Encoder::Gzip(w) => w.write_all(buf),
            Encoder::Zstd(w) => w.write_all(buf),
            Encoder::Xz(w) => w.write_all(buf),
            Encoder::Bzip2(w) => w.write_all(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Plain(w) => w.flush(),
            Encoder::Gzip(w) => w.flush(),
            Encoder::Zstd(w) => w.flush(),
            Encoder::Xz(w) => w.flush(),
            Encoder::Bzip2(w) => w.flush(),
        }
    }
}

/// Where answers go: stdout, a device or pipe, or a file that appears only
/// when complete; compressed or not.
///
/// Made only by [`guard`] (a [`guard::Plan`] checked and opened), so no
/// command writes a file the guard has not seen.
pub struct Output {
    enc: Encoder,
    /// The output as messages name it (`<stdout>` without a path).
    what: String,
    /// Its place in the [`guard::Outputs`] that opened it.
    slot: Option<usize>,
}

/// An [`Output`] finished and synced, waiting to be renamed into place
/// with the other outputs of its run ([`guard::Outputs::commit`]).
enum Prepared {
    /// Stdout, a device or pipe: already where it goes.
    Done,
    /// A temporary file, deleted if dropped.
    Temp {
        path: tempfile::TempPath,
        dest: PathBuf,
        what: String,
        registered: Registered,
    },
}

impl Prepared {
    /// Renames a temporary file into place and syncs its directory.
    fn place(self) -> anyhow::Result<()> {
        let Prepared::Temp {
            path,
            dest,
            what,
            registered,
        } = self
        else {
            return Ok(());
        };
        path.persist(&dest)
            .map_err(|e| e.error)
            .with_context(|| format!("{what}: cannot rename into place"))?;
        drop(registered);
        sync_dir(&dest);
        Ok(())
    }
}

impl Output {
    /// Opens stdout (`None` or `-`), an existing device or pipe in place, or
    /// a temporary file beside `path` (beside the link's target when `path`
    /// is a symbolic link, dangling or not, so the link survives), writing
    /// `compress`'s codec.
    fn create(path: Option<&Path>, compress: Compress) -> anyhow::Result<Output> {
        let path = path.filter(|p| p.as_os_str() != "-");
        let codec = compress.resolve(path);
        let sink = match path {
            None => Sink::Stdout(BufWriter::with_capacity(1 << 16, io::stdout())),
            Some(dest) => open_file(dest)?,
        };
        let what = path.map_or_else(|| "<stdout>".to_string(), |p| crate::text::shown_path(&p));
        let enc = Encoder::new(codec, sink)
            .with_context(|| format!("{what}: cannot start the compressor"))?;
        Ok(Output {
            enc,
            what,
            slot: None,
        })
    }

    /// An output that throws its bytes away.
    fn discard() -> Output {
        Output {
            enc: Encoder::Plain(Sink::Discard(io::sink())),
            what: "<discarded>".to_string(),
            slot: None,
        }
    }

    /// The output as messages name it (`<stdout>` without a path).
    pub fn name(&self) -> &str {
        &self.what
    }

    /// The writer answers go to.
    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.enc
    }

    /// Ends the compressed stream, flushes and, for a file, makes it
    /// durable (fsync), ready to be renamed into place. Errors name the
    /// output: the last buffered answers (all of them, for a short run)
    /// are only written here.
    fn prepare(self) -> anyhow::Result<Prepared> {
        let what = self.what;
        let cannot = || format!("{what}: cannot write");
        let sink = self.enc.finish().with_context(cannot)?;
        match sink {
            Sink::Stdout(mut w) => w.flush().with_context(cannot).map(|()| Prepared::Done),
            Sink::Special(mut w) => w.flush().with_context(cannot).map(|()| Prepared::Done),
            Sink::Discard(_) => Ok(Prepared::Done),
            Sink::Temp {
                tmp,
                path,
                dest,
                registered,
            } => {
                let file = tmp
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(cannot)?;
                file.sync_all().with_context(cannot)?;
                Ok(Prepared::Temp {
                    path,
                    dest,
                    what,
                    registered,
                })
            }
        }
    }
}

impl Output {
    /// Ends a run that stopped early (`--on-error fail`): a temporary file
    /// is deleted, so nothing is left behind; stdout or a device or pipe,
    /// which already hold the answers written so far, get the end of the
    /// compressed stream (a zstd frame is unreadable without it) and a
    /// flush.
    pub fn abandon(self) -> io::Result<()> {
        if matches!(self.enc.sink(), Sink::Temp { .. }) {
            return Ok(());
        }
        self.enc.finish()?.flush()
    }
}

/// Opens the sink for a named output: a device or pipe in place, else a
/// temporary file beside the final path.
fn open_file(dest: &Path) -> anyhow::Result<Sink> {
    let shown = dest;
    let mut dest = dest.to_path_buf();
    match std::fs::metadata(&dest) {
        Ok(meta) if meta.is_dir() => {
            anyhow::bail!("{}: is a directory", crate::text::shown_path(&dest))
        }
        Ok(meta) if !meta.is_file() => {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(&dest)
                .with_context(|| {
                    format!(
                        "{}: cannot open for writing",
                        crate::text::shown_path(&dest)
                    )
                })?;
            return Ok(Sink::Special(BufWriter::with_capacity(1 << 16, file)));
        }
        _ => {}
    }
    // A symbolic link (even one whose target does not exist yet) is
    // followed: the answers go to its target and the link stays.
    let mut hops = 0;
    while std::fs::symlink_metadata(&dest).is_ok_and(|m| m.file_type().is_symlink()) {
        if let Some(fd) = own_descriptor(&dest) {
            return Ok(Sink::Special(BufWriter::with_capacity(
                1 << 16,
                write_descriptor(fd, shown)?,
            )));
        }
        hops += 1;
        if hops > 40 {
            anyhow::bail!(
                "{}: too many levels of symbolic links",
                crate::text::shown_path(&dest)
            );
        }
        let target = std::fs::read_link(&dest)
            .with_context(|| format!("{}: cannot resolve link", crate::text::shown_path(&dest)))?;
        dest = match dest.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    let existing = std::fs::metadata(&dest).ok();
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    // Ask for 0666 so open(2) applies the umask: a new answer file gets the
    // permissions a plain `File::create` would give, not 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // Named by the path the user gave, with the OS's reason: tempfile's
    // error names the hidden temporary file, which means nothing to them.
    let tmp = builder
        .prefix(".sudoku-bulk-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| os_reason(e, dir))
        .with_context(|| format!("{}: cannot create", crate::text::shown_path(&shown)))?;
    let registered = Registered::new(tmp.path());
    if let Some(meta) = existing {
        keep_owner_and_mode(tmp.as_file(), &meta);
    }
    let (file, path) = tmp.into_parts();
    Ok(Sink::Temp {
        tmp: BufWriter::with_capacity(1 << 16, file),
        path,
        dest,
        registered,
    })
}

/// The descriptor of this process that `link` is, when it is one of the
/// kernel's links to our open files (`/proc/self/fd/N`; `/dev/stdout`,
/// `/dev/stderr` and `/dev/fd/N` lead there). Its target names the file
/// the descriptor was opened on, but replacing that file by name would
/// destroy what the descriptor was opened for: `-o /dev/stdout >> log`
/// would replace the log instead of appending to it, and `-o /dev/stdin <
/// notes.txt` would replace notes.txt. Such an output is written through
/// the descriptor, as stdout is.
#[cfg(target_os = "linux")]
fn own_descriptor(link: &Path) -> Option<i32> {
    let fd = link.file_name()?.to_str()?.parse::<i32>().ok()?;
    let dir = std::fs::canonicalize(link.parent()?).ok()?;
    let proc = PathBuf::from(format!("/proc/{}", std::process::id()));
    // `/proc/self/fd` or `/proc/thread-self/fd` (`/proc/PID/task/TID/fd`).
    let ours = dir == proc.join("fd")
        || (dir.ends_with("fd") && dir.parent()?.parent()? == proc.join("task"));
    ours.then_some(fd)
}

#[cfg(not(target_os = "linux"))]
fn own_descriptor(_: &Path) -> Option<i32> {
    None
}

/// A duplicate of descriptor `fd` (found by [`own_descriptor`] for the
/// output `shown`) to write answers to; refused when it is open for
/// reading only (`-o /dev/stdin`), which no write could go through.
#[cfg(unix)]
fn write_descriptor(fd: i32, shown: &Path) -> anyhow::Result<File> {
    use std::os::fd::FromRawFd;
    let name = crate::text::shown_path(&shown);
    // SAFETY: fcntl on a plain integer is safe whatever it names; a
    // descriptor that is not open gives -1 (EBADF).
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error())
            .with_context(|| format!("{name}: cannot open for writing"));
    }
    if flags & libc::O_ACCMODE == libc::O_RDONLY {
        anyhow::bail!(
            "{name}: cannot write: descriptor {fd} is open for reading only (it is not an output)"
        );
    }
    // SAFETY: as above; the duplicate is a fresh descriptor we own.
    let dup = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3) };
    if dup < 0 {
        return Err(io::Error::last_os_error())
            .with_context(|| format!("{name}: cannot open for writing"));
    }
    // SAFETY: `dup` is a new open descriptor that nothing else owns.
    Ok(unsafe { File::from_raw_fd(dup) })
}

#[cfg(not(unix))]
fn write_descriptor(_: i32, shown: &Path) -> anyhow::Result<File> {
    anyhow::bail!(
        "{}: cannot open for writing",
        crate::text::shown_path(&shown)
    )
}

/// Why a temporary file could not be made in `dir`, without tempfile's
/// wrapping (which names the hidden temporary file, meaningless to the
/// user and not the path they gave): the OS's error for the directory
/// itself (missing, no access), else the OS's error of `e`'s kind
/// (`Permission denied`, `Read-only file system`, ...).
fn os_reason(e: io::Error, dir: &Path) -> io::Error {
    if let Err(d) = std::fs::metadata(dir) {
        return d;
    }
    if e.get_ref().is_none() {
        return e;
    }
    #[cfg(unix)]
    {
        use io::ErrorKind as K;
        let code = match e.kind() {
            K::NotFound => Some(libc::ENOENT),
            K::PermissionDenied => Some(libc::EACCES),
            K::NotADirectory => Some(libc::ENOTDIR),
            K::ReadOnlyFilesystem => Some(libc::EROFS),
            K::StorageFull => Some(libc::ENOSPC),
            _ => None,
        };
        if let Some(code) = code {
            return io::Error::from_raw_os_error(code);
        }
    }
    io::Error::from(e.kind())
}

/// Gives the replacement file the mode (and, when allowed, the owner and
/// group) of the file it replaces, as editors do. Best effort: a user may
/// not give a file away, and then it stays theirs.
fn keep_owner_and_mode(file: &File, old: &std::fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        // SAFETY: fchown on a descriptor we own; failure is only reported.
        unsafe {
            if libc::fchown(file.as_raw_fd(), old.uid(), old.gid()) != 0 {
                libc::fchown(file.as_raw_fd(), u32::MAX, old.gid());
            }
        }
    }
    // After chown, which may clear set-id bits.
    let _ = file.set_permissions(old.permissions());
}

/// Syncs the directory of `dest` so a rename into it survives a crash.
/// Some file systems refuse to sync a directory; the data is already safe,
/// so this is best effort.
fn sync_dir(dest: &Path) {
    #[cfg(unix)]
    if let Some(dir) = dest.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = dest;
}

/// How much the program says on stderr besides errors, for the whole
/// process (one CLI run): set once from `-q` and `--progress` before any
/// command runs, read by every [`Reporter`] (the columnar path makes its
/// own) and by notes. A process-wide setting, as a logger's level is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Chatter {
    /// A progress bar when stderr is a terminal, notes and a summary.
    #[default]
    Normal,
    /// As `Normal`, but progress as plain `NAME: progress ...` lines
    /// (at most one a second, and the last), terminal or not: for logs of
    /// batch jobs, and tests.
    Plain,
    /// Errors only: no progress, notes or summary.
    Quiet,
}

static CHATTER: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Sets what stderr gets besides errors (see [`Chatter`]).
pub fn set_chatter(c: Chatter) {
    CHATTER.store(c as u8, std::sync::atomic::Ordering::Relaxed);
}

/// What stderr gets besides errors.
pub fn chatter() -> Chatter {
    match CHATTER.load(std::sync::atomic::Ordering::Relaxed) {
        1 => Chatter::Plain,
        2 => Chatter::Quiet,
        _ => Chatter::Normal,
    }
}

/// Prints `sudoku-bulk: note: MSG` on stderr unless `-q`.
pub fn note(msg: std::fmt::Arguments<'_>) {
    if chatter() != Chatter::Quiet {
        eprintln!("sudoku-bulk: note: {msg}");
    }
}

/// Bad-record messages printed on stderr before the rest are only counted
/// (the output file still marks every one).
pub const SHOWN_BAD_RECORDS: u64 = 100;

/// What a progress position counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    /// Input bytes (of the file as stored: compressed bytes for `.gz`).
    Bytes,
    /// Records (table rows, generated puzzles).
    Records,
}

/// Progress bar plus bad-record reporting, on stderr.
pub struct Reporter {
    name: String,
    bar: ProgressBar,
    errors: BufWriter<io::Stderr>,
    start: Instant,
    /// Bad records reported so far (shown or not).
    bad_seen: u64,
    unit: Unit,
    total: Option<u64>,
    /// `--progress plain`: when the last line was printed (`None` before
    /// the first), and the last position seen, printed by `finish`.
    plain: Option<(Option<Instant>, u64, u64)>,
    /// Bytes read from the stored file (see [`Reporter::follow`]).
    follow: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

impl Reporter {
    /// A reporter for input `name` of `total` bytes (unknown for stdin). The
    /// bar is drawn only if `show` and stderr is a terminal (or as lines
    /// with `--progress plain`), never with `-q`.
    pub fn new(name: String, total: Option<u64>, show: bool) -> Reporter {
        Reporter::with_unit(name, total, show, Unit::Bytes)
    }

    /// A reporter whose bar counts records (table rows, generated puzzles)
    /// out of `total`, when known.
    pub fn records(name: String, total: Option<u64>, show: bool) -> Reporter {
        Reporter::with_unit(name, total, show, Unit::Records)
    }

    fn with_unit(name: String, total: Option<u64>, show: bool, unit: Unit) -> Reporter {
        let chatter = chatter();
        let show = show && chatter != Chatter::Quiet;
        let plain = show && chatter == Chatter::Plain;
        let target = if show && !plain && io::stderr().is_terminal() {
            ProgressDrawTarget::stderr_with_hz(8)
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(total, target);
        let style = match (unit, total.is_some()) {
            (Unit::Bytes, true) => {
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}"
            }
            (Unit::Bytes, false) => "{spinner} [{elapsed_precise}] {bytes} {msg}",
            (Unit::Records, true) => {
                "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {msg} ETA {eta}"
            }
            (Unit::Records, false) => "{spinner} [{elapsed_precise}] {human_pos} {msg}",
        };
        bar.set_style(ProgressStyle::with_template(style).expect("valid template"));
        if !bar.is_hidden() {
            bar.enable_steady_tick(Duration::from_millis(250));
        }
        Reporter {
            name,
            bar,
            errors: BufWriter::new(io::stderr()),
            start: Instant::now(),
            bad_seen: 0,
            unit,
            total,
            plain: plain.then_some((None, 0, 0)),
            follow: None,
        }
    }

    /// Makes a byte bar follow `read` (bytes read from the file as
    /// stored: a `.gz` file's compressed bytes) instead of the decoded
    /// bytes the pipeline reports.
    pub fn follow(&mut self, read: std::sync::Arc<std::sync::atomic::AtomicU64>) {
        self.follow = Some(read);
    }

    /// Sets the total (bytes or records, as made) once it is known.
    pub fn set_total(&mut self, total: u64) {
        self.total = Some(total);
        self.bar.set_length(total);
    }

    /// One `--progress plain` line: position, total, share and ETA.
    fn plain_line(&self, pos: u64, records: u64) {
        let secs = self.start.elapsed().as_secs_f64();
        let what = |n: u64| match self.unit {
            Unit::Bytes => format!("{} bytes", n),
            Unit::Records => format!("{n} puzzles"),
        };
        let mut line = format!("sudoku-bulk: {}: progress {}", self.name, what(pos));
        if let Some(total) = self.total {
            let share = pos as f64 / total.max(1) as f64;
            let eta = if pos > 0 {
                secs * (total.saturating_sub(pos)) as f64 / pos as f64
            } else {
                f64::NAN
            };
            line = format!(
                "sudoku-bulk: {}: progress {}/{} ({:.0}%), ETA {}",
                self.name,
                pos,
                what(total),
                100.0 * share,
                if eta.is_finite() {
                    format!("{eta:.0}s")
                } else {
                    "unknown".to_string()
                }
            );
        }
        if self.unit == Unit::Bytes {
            line.push_str(&format!(", {records} puzzles"));
        }
        eprintln!("{line}");
    }

    /// Prints the last `--progress plain` line and clears the bar.
    fn end_progress(&mut self) {
        if let Some((_, pos, records)) = self.plain.take() {
            let _ = self.errors.flush();
            self.plain_line(pos, records);
        }
        self.bar.finish_and_clear();
    }

    /// Clears the bar and prints `sudoku-bulk: NAME: records …` on stderr
    /// (not with `-q`). Records whose existing solution (label) was
    /// verified and written back are `kept`, not `solved`.
    pub fn finish(mut self, task: Task, tally: &Tally) {
        self.end_progress();
        let _ = self.errors.flush();
        if chatter() == Chatter::Quiet {
            return;
        }
        let secs = self.start.elapsed().as_secs_f64();
        let what = match task {
            Task::Solve { .. } if tally.kept > 0 => format!(
                "{} solved, {} kept",
                tally.solved - tally.kept.min(tally.solved),
                tally.kept
            ),
            Task::Solve { .. } => format!("{} solved", tally.solved),
            Task::Analyse(a) => format!("{} done ({})", tally.solved, a.name()),
            Task::Count { limit } => {
                let [zero, one, many] = tally.by_count;
                if limit >= 2 {
                    format!("{zero} with 0 solutions, {one} with 1, {many} with 2+")
                } else {
                    format!("{zero} with 0 solutions, {one} with 1+")
                }
            }
        };
        let hidden = self.bad_seen.saturating_sub(SHOWN_BAD_RECORDS);
        let note = if hidden > 0 {
            format!(" (messages for the first {SHOWN_BAD_RECORDS} shown, {hidden} more not shown; the output marks every one)")
        } else {
            String::new()
        };
        eprintln!(
            "sudoku-bulk: {}: {} records, {what}, {} bad{note} in {:.2}s ({:.0} puzzles/s)",
            self.name,
            tally.records,
            tally.bad,
            secs,
            tally.records as f64 / secs.max(1e-9)
        );
    }

    /// Shows `msg` beside the bar (a long search's own count: `generate
    /// --rating`'s candidates rated); nothing when the bar is hidden.
    pub fn message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// Clears the bar without a summary (for commands that print their own).
    pub fn clear(mut self) {
        self.end_progress();
    }

    /// Prints a fatal `NAME:LINE: reason` (`NAME:LINE (row R): reason`
    /// past a header) for the record that stopped a run.
    pub fn fail(mut self, at: At, err: &RecordError) {
        self.plain = None;
        self.bar.finish_and_clear();
        let _ = self.errors.flush();
        eprintln!("sudoku-bulk: {}:{at}: {err}", self.name);
    }
}

impl Reporter {
    /// `NAME:WHERE: reason` for a bad record (`WHERE` a text record's
    /// [`At`], or `row R` of a table, 1-based), for the first [`SHOWN_BAD_RECORDS`] of them; the rest
    /// are counted for the summary's note.
    pub fn bad_at(&mut self, place: std::fmt::Arguments<'_>, err: &dyn std::fmt::Display) {
        self.bad_seen += 1;
        if self.bad_seen > SHOWN_BAD_RECORDS {
            return;
        }
        let msg = format!("sudoku-bulk: {}:{place}: {err}", self.name);
        if self.bar.is_hidden() {
            let _ = writeln!(self.errors, "{msg}");
        } else {
            self.bar.println(msg);
        }
    }
}

impl Observer for Reporter {
    fn bad_record(&mut self, at: At, err: &RecordError) {
        self.bad_at(format_args!("{at}"), err);
    }

    /// `bytes` is the input read so far (in the bar's unit for a byte
    /// bar); a record bar follows `records`.
    fn progress(&mut self, bytes: u64, records: u64) {
        let pos = match (self.unit, &self.follow) {
            (Unit::Bytes, Some(read)) => read.load(std::sync::atomic::Ordering::Relaxed),
            (Unit::Bytes, None) => bytes,
            (Unit::Records, _) => records,
        };
        if let Some((last, p, r)) = &mut self.plain {
            (*p, *r) = (pos, records);
            if last.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                *last = Some(Instant::now());
                let _ = self.errors.flush();
                self.plain_line(pos, records);
            }
            return;
        }
        self.bar.set_position(pos);
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        match self.unit {
            Unit::Bytes => self.bar.set_message(format!(
                "{records} puzzles ({:.0}/s)",
                records as f64 / secs
            )),
            Unit::Records => self
                .bar
                .set_message(format!("puzzles ({:.0}/s)", records as f64 / secs)),
        }
    }
}
