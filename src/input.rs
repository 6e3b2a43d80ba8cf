//! Input: the one place that turns a path or stdin into bytes for the rest
//! of the data flow. A plain regular file is memory-mapped and handed on as
//! one `&[u8]`; everything else (stdin, a FIFO, `<(...)`, a character device,
//! a compressed file, or any file under `--no-mmap`) becomes a [`Stream`]
//! that `pipeline` cuts into record-aligned chunks on a reader thread.
//! Compression is recognised by its first bytes, never by the file name.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::Path;

use anyhow::Context;

/// A compression format, recognised by its magic bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// gzip, including multi-member files (bgzip, `cat a.gz b.gz`).
    Gzip,
    /// Zstandard, including several concatenated frames.
    Zstd,
    /// xz, including several concatenated streams.
    Xz,
    /// bzip2, including several concatenated streams.
    Bzip2,
}

impl Codec {
    /// Bytes needed to recognise every codec.
    pub const MAGIC_LEN: usize = 6;

    /// The codec whose magic number starts `head`, if any.
    pub fn sniff(head: &[u8]) -> Option<Codec> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Codec::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) || is_skippable_frame(head) {
            Some(Codec::Zstd)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(Codec::Xz)
        } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
            Some(Codec::Bzip2)
        } else {
            None
        }
    }

    /// The codec's usual name, as users say it.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Xz => "xz",
            Codec::Bzip2 => "bzip2",
        }
    }

    /// The codec a file name's extension asks for (`.gz`, `.zst`, `.xz`,
    /// `.bz2`). Only used for output: input is recognised by content.
    pub fn from_extension(path: &Path) -> Option<Codec> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "gz" | "gzip" | "bgz" => Some(Codec::Gzip),
            "zst" | "zstd" => Some(Codec::Zstd),
            "xz" => Some(Codec::Xz),
            "bz2" | "bzip2" => Some(Codec::Bzip2),
            _ => None,
        }
    }

    /// A decoder of this codec over `raw`, whose errors say the data does
    /// not decompress (errors of `raw` itself pass through unchanged).
    fn decoder(self, raw: Box<dyn Read + Send>) -> io::Result<Box<dyn Read + Send>> {
        let raw = io::BufReader::with_capacity(1 << 16, SourceErrors(raw));
        let inner: Box<dyn Read + Send> = match self {
            Codec::Gzip => Box::new(GzMembers::new(raw)),
            Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(raw)?),
            Codec::Xz => Box::new(xz2::bufread::XzDecoder::new_multi_decoder(raw)),
            Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
        };
        Ok(Box::new(Decoded { codec: self, inner }))
    }
}

/// True when `head` starts a zstd skippable frame (magic `0x184D2A5?`,
/// little-endian; RFC 8878 section 3.1.2): `pzstd` writes one in front of
/// each frame to say its size, and the decoder skips it as `zstd -d` does.
fn is_skippable_frame(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18]
}

/// gzip members one after another (bgzip, `cat a.gz b.gz`), read as GNU
/// gzip reads them: zero bytes after a member (tape or block padding, a
/// preallocated file) end the data quietly; another codec's data after a
/// member (`cat a.gz b.zst`) is named, so the message says what the file
/// is; other bytes are an error naming where the gzip data ended. A member
/// after zero padding is read on: it is data.
/// `flate2`'s `MultiGzDecoder` took any such tail for a member and said
/// `invalid gzip header`.
struct GzMembers<R: io::BufRead> {
    /// The member being read; `None` once the data ended.
    member: Option<flate2::bufread::GzDecoder<CountedBuf<R>>>,
}

impl<R: io::BufRead> GzMembers<R> {
    fn new(raw: R) -> Self {
        GzMembers {
            member: Some(flate2::bufread::GzDecoder::new(CountedBuf {
                inner: raw,
                at: 0,
            })),
        }
    }

    /// What follows a member that ended at byte `end`: `Ok(true)` for
    /// another member, `Ok(false)` for the end (nothing, or zeros only).
    fn next_member(src: &mut CountedBuf<R>) -> io::Result<bool> {
        let end = src.at;
        loop {
            let head = src.fill_buf()?;
            match head.first() {
                None => return Ok(false),
                // A member after padding too: GNU gzip would drop it as
                // garbage, but it is data, and readable.
                Some(0x1f) => return Ok(true),
                Some(0) => {
                    let zeros = head.iter().take_while(|&&b| b == 0).count();
                    src.consume(zeros);
                }
                Some(_) => break,
            }
        }
        // Not gzip, not padding: read a few bytes to name what it is.
        let at = src.at;
        let mut head = Vec::with_capacity(Codec::MAGIC_LEN);
        while head.len() < Codec::MAGIC_LEN {
            let buf = src.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let n = buf.len().min(Codec::MAGIC_LEN - head.len());
            head.extend_from_slice(&buf[..n]);
            src.consume(n);
        }
        let msg = match Codec::sniff(&head) {
            Some(other) if at == end => format!(
                "gzip data ends at byte {end} and {other} data follows: one file holds one \
                 compression (decompress the parts one by one, then join them)"
            ),
            Some(other) => format!(
                "gzip data ends at byte {end} and, after zero bytes, {other} data follows at \
                 byte {at}: one file holds one compression (decompress the parts one by one, \
                 then join them)"
            ),
            None if at == end => format!(
                "gzip data ends at byte {end} and other bytes follow ({}): not a gzip member",
                crate::text::quote(&head)
            ),
            None => format!(
                "gzip data ends at byte {end}, then zero bytes, then other bytes at byte {at} \
                 ({}): not a gzip member",
                crate::text::quote(&head)
            ),
        };
        Err(io::Error::new(io::ErrorKind::InvalidData, Trailing(msg)))
    }
}

impl<R: io::BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = &mut self.member else {
                return Ok(0);
            };
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let more = Self::next_member(member.get_mut());
            let src = self
                .member
                .take()
                .expect("a member was being read")
                .into_inner();
            if more? {
                self.member = Some(flate2::bufread::GzDecoder::new(src));
            }
        }
    }
}

/// A buffered reader that counts the bytes consumed from it, so messages
/// can say where in the compressed file something is.
struct CountedBuf<R> {
    inner: R,
    at: u64,
}

impl<R: io::BufRead> Read for CountedBuf<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.at += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for CountedBuf<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.at += n as u64;
        self.inner.consume(n);
    }
}

/// A message about what follows compressed data, complete on its own: the
/// decoder wrapper passes it on without `... does not decompress`.
#[derive(Debug)]
struct Trailing(String);

impl fmt::Display for Trailing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Trailing {}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error of the raw source under a decoder, marked so the decoder's
/// wrapper does not blame the compressed data for it.
#[derive(Debug)]
struct SourceError(io::Error);

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for SourceError {}

struct SourceErrors(Box<dyn Read + Send>);

impl Read for SourceErrors {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), SourceError(e)))
    }
}

/// A decoder whose own errors read `CODEC data that does not decompress: …`.
struct Decoded {
    codec: Codec,
    inner: Box<dyn Read + Send>,
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            let kind = e.kind();
            match e.into_inner() {
                Some(inner) => match inner.downcast::<SourceError>() {
                    Ok(src) => src.0,
                    Err(other) if other.is::<Trailing>() => {
                        io::Error::new(io::ErrorKind::InvalidData, other)
                    }
                    Err(other) => io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("{} data that does not decompress: {other}", self.codec),
                    ),
                },
                None => io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{} data that does not decompress: {}",
                        self.codec,
                        io::Error::from(kind)
                    ),
                ),
            }
        })
    }
}

/// Input read front to back: decoded bytes, plus how to tell whether the
/// source has nothing more to give right now.
pub struct Stream {
    /// The decoded bytes.
    pub reader: Box<dyn Read + Send>,
    /// The compression found, if any (read by the tests of the magic-byte
    /// detection; the run itself only needs the decoded bytes).
    #[allow(dead_code)]
    pub codec: Option<Codec>,
    /// Asks the source whether a read would block.
    pub pause: Pause,
    /// For a regular file: its size and the bytes read from it so far
    /// (compressed bytes for a compressed file), the progress bar's
    /// position and total. `None` for stdin, pipes and devices.
    pub stored: Option<Stored>,
}

/// A regular file's size and how much of it was read (see [`Stream`]).
#[derive(Clone, Debug)]
pub struct Stored {
    /// The file's size in bytes.
    pub size: u64,
    /// Bytes read from the file so far, shared with the reader.
    pub read: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Stored {
    /// Wraps `file` (of `size` bytes) so reads from it are counted here.
    fn count(file: File, size: u64) -> (Stored, Box<dyn Read + Send>) {
        let stored = Stored {
            size,
            read: Default::default(),
        };
        let counter = Counted {
            inner: file,
            read: stored.read.clone(),
        };
        (stored, Box::new(counter))
    }
}

/// A reader that adds what it reads to a shared counter.
struct Counted {
    inner: File,
    read: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

/// For plain pipes and terminals: the descriptor to ask whether a read would
/// block, so answers can be flushed while the writer of the input pauses (a
/// co-process, Hadoop streaming). Empty for files and decoders.
pub struct Pause {
    #[cfg(unix)]
    fd: Option<std::os::fd::OwnedFd>,
}

impl Pause {
    /// True when the next read would block: the input's writer has paused.
    pub fn paused(&self) -> bool {
        !self.ready_within(0)
    }

    /// True when a read would not block within `ms` milliseconds (data,
    /// or the end of the input, arrived); always true without a
    /// descriptor to ask.
    pub fn ready_within(&self, ms: i32) -> bool {
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            use std::os::fd::AsRawFd;
            let mut p = libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, count 1; poll only writes `revents`.
            return unsafe { libc::poll(&mut p, 1, ms) } != 0;
        }
        true
    }
}

/// The magic string every NumPy `.npy` file starts with.
pub const NPY_MAGIC: &[u8] = b"\x93NUMPY";

/// A columnar format, as told by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Apache Parquet (`PAR1`).
    Parquet,
    /// Arrow IPC file, also called Feather v2 (`ARROW1`).
    ArrowFile,
    /// Arrow IPC stream (messages behind the `0xFFFFFFFF` continuation
    /// marker).
    ArrowStream,
    /// NumPy `.npy` (`\x93NUMPY`).
    Npy,
}

/// What the crate knows of one columnar format: how its bytes start, the
/// file-name extensions that name it, and its names in messages. One line
/// of [`FORMATS`] registers a format; its reader and writer are a module of
/// `columnar/`.
struct Format {
    kind: Kind,
    /// The bytes every input of the format starts with.
    magic: &'static [u8],
    /// Extensions (lower case) that name it as an output.
    extensions: &'static [&'static str],
    /// [`Kind::name`], [`Kind::a_file`], [`Kind::row_name`],
    /// [`Kind::a_row_name`].
    name: &'static str,
    a_file: &'static str,
    #[cfg_attr(not(feature = "columnar"), allow(dead_code))] // tables only
    row_name: &'static str,
    a_row_name: &'static str,
}

/// Every columnar format, in the order the first bytes are tried.
#[rustfmt::skip]
const FORMATS: [Format; 4] = [
    Format { kind: Kind::Parquet, magic: b"PAR1", extensions: &["parquet", "pq"], name: "Parquet", a_file: "a Parquet file", row_name: "Parquet", a_row_name: "a Parquet" },
    Format { kind: Kind::ArrowFile, magic: b"ARROW1", extensions: &["arrow", "feather", "ipc"], name: "Arrow IPC file", a_file: "an Arrow IPC file", row_name: "Arrow", a_row_name: "an Arrow" },
    Format { kind: Kind::ArrowStream, magic: &[0xFF; 4], extensions: &["arrows"], name: "Arrow IPC stream", a_file: "an Arrow IPC stream", row_name: "Arrow", a_row_name: "an Arrow" },
    Format { kind: Kind::Npy, magic: NPY_MAGIC, extensions: &["npy"], name: "NumPy .npy", a_file: "a NumPy .npy file", row_name: "NumPy", a_row_name: "a NumPy" },
];

impl Kind {
    fn format(self) -> &'static Format {
        FORMATS
            .iter()
            .find(|f| f.kind == self)
            .expect("every Kind has a line in FORMATS")
    }

    /// The name used in messages.
    pub fn name(self) -> &'static str {
        self.format().name
    }

    /// The format a file name's extension names, read inside a compression
    /// extension (`a.npy.gz`): `.parquet`/`.pq`, `.arrow`/`.feather`/`.ipc`,
    /// `.arrows`, `.npy`. Output names pick the format by it; an input's
    /// format is told by its bytes, the name only names what an empty file
    /// was meant to be.
    pub fn named_by(path: &Path) -> Option<Kind> {
        let inner;
        let path = if Codec::from_extension(path).is_some() {
            inner = std::path::PathBuf::from(path.file_stem()?);
            &inner
        } else {
            path
        };
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        FORMATS
            .iter()
            .find(|f| f.extensions.contains(&ext.as_str()))
            .map(|f| f.kind)
    }

    /// The format's name with its article, as a message says what a file
    /// is: `a Parquet file`, `an Arrow IPC stream`, `a NumPy .npy file`.
    pub fn a_file(self) -> &'static str {
        self.format().a_file
    }

    /// `a Parquet`, `an Arrow`: [`Kind::row_name`] with its article, for
    /// `... (an Arrow table)`, `... to an Arrow column`.
    pub fn a_row_name(self) -> &'static str {
        self.format().a_row_name
    }

    /// The format's name for a row of it in messages (`bad Parquet row:
    /// ...`): the Arrow file and stream are both `Arrow`.
    #[cfg_attr(not(feature = "columnar"), allow(dead_code))] // tables only
    pub fn row_name(self) -> &'static str {
        self.format().row_name
    }
}

/// The format `head` (the first bytes of an input) starts with, if any.
pub fn sniff(head: &[u8]) -> Option<Kind> {
    FORMATS
        .iter()
        .find(|f| head.starts_with(f.magic))
        .map(|f| f.kind)
}

/// Tells what `input` holds from its first bytes (after any decompression):
/// a columnar format, or `None` for text records. A stream gives back what
/// was peeked in front of the rest, so nothing is consumed. The peek stops at
/// a newline, so a co-process that sends one line is not kept waiting.
///
/// An empty input whose name (`path`) says it is a table or an array
/// (`x.parquet`, `a.npy.gz`) is refused: read as text it gave an empty
/// answer file and exit 0, as if a table of no rows had been solved.
pub fn peek_kind(
    input: Input,
    path: Option<&Path>,
    name: &str,
) -> anyhow::Result<(Option<Kind>, Input)> {
    match input {
        Input::Mapped(map) => Ok((sniff(&map), Input::Mapped(map))),
        Input::Stream(mut stream) => {
            let mut head = Vec::with_capacity(8);
            let mut buf = [0u8; 8];
            while head.len() < 8 && !head.contains(&b'\n') {
                match stream.reader.read(&mut buf[..8 - head.len()]) {
                    Ok(0) => break,
                    Ok(n) => head.extend_from_slice(&buf[..n]),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(read_error(name, e)),
                }
            }
            if head.is_empty() {
                refuse_empty(path, name)?;
            }
            let kind = sniff(&head);
            stream.reader = Box::new(io::Cursor::new(head).chain(stream.reader));
            Ok((kind, Input::Stream(stream)))
        }
    }
}

/// Refuses the empty input `path` (named `name`) when its name says it is
/// a table or an array: `x.parquet: empty file (0 bytes), not a Parquet
/// file`. Other empty inputs are empty text, no records.
pub fn refuse_empty(path: Option<&Path>, name: &str) -> anyhow::Result<()> {
    match path
        .filter(|p| p.as_os_str() != "-")
        .and_then(Kind::named_by)
    {
        Some(kind) => anyhow::bail!(
            "{name}: empty file (0 bytes), not {} as its name says",
            kind.a_file()
        ),
        None => Ok(()),
    }
}

/// Where the puzzles come from.
pub enum Input {
    /// A memory-mapped plain regular file.
    Mapped(memmap2::Mmap),
    /// Anything read front to back.
    Stream(Stream),
}

/// How a user names the input in messages: the path, or `<stdin>`.
pub fn display_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p.as_os_str() != "-" => crate::text::shown_path(&p),
        _ => "<stdin>".to_string(),
    }
}

/// Opens `path` (`None` or `-` for stdin). A plain regular file is mapped
/// unless `no_mmap` (when mapping fails, says so and streams it instead);
/// compressed files, stdin, FIFOs and devices are streamed, decoded when
/// their first bytes name a codec.
pub fn open(path: Option<&Path>, no_mmap: bool) -> anyhow::Result<Input> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        return open_stdin().map(Input::Stream);
    };
    let name = crate::text::shown_path(&path);
    let file = File::open(path).with_context(|| format!("{name}: cannot open"))?;
    let meta = file
        .metadata()
        .with_context(|| format!("{name}: cannot stat"))?;
    if meta.is_dir() {
        anyhow::bail!("{name}: is a directory");
    }
    if !meta.is_file() {
        // A FIFO, `<(...)` or a device: endless for all we know, and a read
        // is the only way to learn more. Streamed like stdin.
        return stream(Box::new(file.try_clone()?), Some(file))
            .with_context(|| format!("{name}: cannot read"))
            .map(Input::Stream);
    }
    if !no_mmap && meta.len() > 0 {
        // SAFETY: the map is only read, as a byte slice, and never written
        // through; the output path is checked against this file before
        // anything is created, so we never write it ourselves. Another
        // process may still change or truncate the file while it is mapped:
        // a change shows up in what we read (as with any read), and a
        // truncation would raise SIGBUS on the lost pages, which
        // `cleanup::watch_map` turns into a clear error (exit 2, no
        // temporary file left) instead of a silent crash.
        match unsafe { memmap2::Mmap::map(&file) } {
            Ok(map) => {
                if let Some(codec) = Codec::sniff(&map[..map.len().min(Codec::MAGIC_LEN)]) {
                    drop(map);
                    let (stored, file) = Stored::count(file, meta.len());
                    let reader = codec
                        .decoder(file)
                        .with_context(|| format!("{name}: cannot read"))?;
                    return Ok(Input::Stream(Stream {
                        reader,
                        codec: Some(codec),
                        pause: Pause {
                            #[cfg(unix)]
                            fd: None,
                        },
                        stored: Some(stored),
                    }));
                }
                // One front-to-back pass: let the kernel read ahead and
                // drop pages behind us. Only a hint, so failure is fine.
                #[cfg(unix)]
                let _ = map.advise(memmap2::Advice::Sequential);
                crate::cleanup::watch_map(&map, &name.to_string());
                return Ok(Input::Mapped(map));
            }
            Err(err) => {
                eprintln!("sudoku-bulk: {name}: cannot memory-map ({err}), reading it instead")
            }
        }
    }
    let (stored, file) = Stored::count(file, meta.len());
    let mut s = stream(file, None).with_context(|| format!("{name}: cannot read"))?;
    s.stored = Some(stored);
    Ok(Input::Stream(s))
}

/// Standard input as a stream. Reads the descriptor directly (a duplicate of
/// fd 0), not through `io::Stdin`'s buffer, so that asking the descriptor
/// whether a read would block tells the truth.
fn open_stdin() -> anyhow::Result<Stream> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .context("<stdin>: cannot open")?;
        let file = File::from(fd);
        let poll = file.try_clone().ok();
        stream(Box::new(file), poll).context("<stdin>: cannot read")
    }
    #[cfg(not(unix))]
    {
        stream(Box::new(io::stdin()), None).context("<stdin>: cannot read")
    }
}

/// Reads the first bytes of `raw` to recognise a codec, then hands back a
/// stream of decoded bytes (those first bytes included). `poll` is the
/// source's descriptor for pause checks, kept only for plain text.
fn stream(mut raw: Box<dyn Read + Send>, poll: Option<File>) -> io::Result<Stream> {
    let mut head = Vec::with_capacity(Codec::MAGIC_LEN);
    let mut byte = [0u8; Codec::MAGIC_LEN];
    // Enough bytes to recognise a codec, but never wait for more once a
    // line has arrived: a co-process sends one line and waits for its answer.
    while head.len() < Codec::MAGIC_LEN && !head.contains(&b'\n') {
        match raw.read(&mut byte[..Codec::MAGIC_LEN - head.len()]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&byte[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let codec = Codec::sniff(&head);
    let whole: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(raw));
    let reader = match codec {
        Some(c) => c.decoder(whole)?,
        None => whole,
    };
    #[cfg(not(unix))]
    let _ = poll;
    Ok(Stream {
        reader,
        codec,
        pause: Pause {
            #[cfg(unix)]
            fd: match codec {
                None => poll.map(std::os::fd::OwnedFd::from),
                Some(_) => None,
            },
        },
        stored: None,
    })
}

/// `NAME: cannot read: ERR`, or `NAME: gzip data that does not decompress:
/// …` when the decoder found the data bad (its message says it all).
pub fn read_error(name: &str, err: io::Error) -> anyhow::Error {
    if err.kind() == io::ErrorKind::InvalidData {
        anyhow::Error::new(err).context(name.to_string())
    } else {
        anyhow::Error::new(err).context(format!("{name}: cannot read"))
    }
}

/// The whole decoded content of `path` (`-` for stdin), for commands that
/// need everything at once (`check`, `bench`): a plain file is mapped, a
/// compressed file or a stream is read into memory.
pub fn read_all(path: &Path) -> anyhow::Result<Whole> {
    let name = display_name(Some(path));
    match open(Some(path), false)? {
        Input::Mapped(m) => Ok(Whole::Mapped(m)),
        Input::Stream(mut s) => {
            let mut data = Vec::new();
            s.reader
                .read_to_end(&mut data)
                .map_err(|e| read_error(&name, e))?;
            if data.is_empty() {
                refuse_empty(Some(path), &name)?;
            }
            Ok(Whole::Read(data))
        }
    }
}

/// A whole input in memory, mapped or read.
pub enum Whole {
    /// A mapped plain file.
    Mapped(memmap2::Mmap),
    /// Bytes read (and decoded) into memory.
    Read(Vec<u8>),
}

impl std::ops::Deref for Whole {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Whole::Mapped(m) => m,
            Whole::Read(v) => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn sniff_recognises_each_magic_and_nothing_else() {
        assert_eq!(Codec::sniff(&[0x1f, 0x8b, 8, 0]), Some(Codec::Gzip));
        assert_eq!(
            Codec::sniff(&[0x28, 0xb5, 0x2f, 0xfd, 0]),
            Some(Codec::Zstd)
        );
        assert_eq!(Codec::sniff(b"\xfd7zXZ\x00"), Some(Codec::Xz));
        assert_eq!(Codec::sniff(b"BZh91AY"), Some(Codec::Bzip2));
        for plain in [
            &b"BZh"[..],
            b"BZhx",
            b"4.....8.5",
            b"",
            b"\x1f",
            b"puzzle,solution",
        ] {
            assert_eq!(Codec::sniff(plain), None, "{plain:?}");
        }
    }

    #[test]
    fn multi_member_gzip_decodes_whole() {
        let mut data = Vec::new();
        for part in [&b"first\n"[..], b"second\n"] {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(part).unwrap();
            data.extend(e.finish().unwrap());
        }
        let mut s = stream(Box::new(io::Cursor::new(data)), None).unwrap();
        assert_eq!(s.codec, Some(Codec::Gzip));
        let mut out = Vec::new();
        s.reader.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"first\nsecond\n");
    }

    #[test]
    fn corrupt_data_is_named_by_its_codec() {
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 1).unwrap();
        e.write_all(&b"some text\n".repeat(100)).unwrap();
        let mut data = e.finish().unwrap();
        // Cut short: frames carry no checksum by default, so only a
        // structural fault is sure to be noticed.
        data.truncate(data.len() - 3);
        let mut s = stream(Box::new(io::Cursor::new(data)), None).unwrap();
        let err = s.reader.read_to_end(&mut Vec::new()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("zstd data that does not decompress"),
            "{err}"
        );
    }

    #[test]
    fn plain_text_passes_through_unchanged() {
        let text = b"1\n22\n333\n".repeat(5);
        let mut s = stream(Box::new(io::Cursor::new(text.clone())), None).unwrap();
        assert_eq!(s.codec, None);
        let mut out = Vec::new();
        s.reader.read_to_end(&mut out).unwrap();
        assert_eq!(out, text);
    }
}
