//! Input: opens a path or stdin and hands the rest of the data flow plain
//! bytes. A regular file is memory-mapped (or read whole with `--no-mmap`, or
//! when mapping fails); stdin is streamed in chunks by `pipeline`.

use std::fs::File;
use std::io;
use std::path::Path;

use anyhow::Context;

/// Where the puzzles come from.
pub enum Input {
    /// A memory-mapped regular file.
    Mapped(memmap2::Mmap),
    /// A file read whole into memory.
    Read(Vec<u8>),
    /// Standard input, to be streamed.
    Stdin,
}

impl Input {
    /// The whole input, for a file; `None` for stdin, which is streamed.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Input::Mapped(m) => Some(m),
            Input::Read(v) => Some(v),
            Input::Stdin => None,
        }
    }
}

/// How a user names the input in messages: the path, or `<stdin>`.
pub fn display_name(path: Option<&Path>) -> String {
    match path {
        Some(p) => p.display().to_string(),
        None => "<stdin>".to_string(),
    }
}

/// Opens `path` (`None` or `-` for stdin). Maps the file unless `no_mmap`;
/// when mapping fails, says so on stderr and reads the file instead.
pub fn open(path: Option<&Path>, no_mmap: bool) -> anyhow::Result<Input> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        return Ok(Input::Stdin);
    };
    let file = File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("{}: cannot stat", path.display()))?;
    if meta.is_dir() {
        anyhow::bail!("{}: is a directory", path.display());
    }
    if !no_mmap && meta.is_file() && meta.len() > 0 {
        // SAFETY: the map is only read, as a byte slice. The file may be
        // changed or truncated by another process while mapped, which would
        // make the slice lie (or raise SIGBUS on truncation); we accept that
        // risk as ripgrep does, since the alternative is reading whole
        // multi-gigabyte files. We never write through or to this file: the
        // output path is checked against it before anything is created.
        match unsafe { memmap2::Mmap::map(&file) } {
            Ok(map) => {
                // One front-to-back pass: let the kernel read ahead and
                // drop pages behind us. Only a hint, so failure is fine.
                #[cfg(unix)]
                let _ = map.advise(memmap2::Advice::Sequential);
                return Ok(Input::Mapped(map));
            }
            Err(err) => eprintln!(
                "sudoku-bulk: {}: cannot memory-map ({err}), reading it instead",
                path.display()
            ),
        }
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    io::Read::read_to_end(&mut &file, &mut data)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    Ok(Input::Read(data))
}

/// True when `output` names the same file as `input` (through links or
/// other spellings of the path), so writing it would destroy the input.
///
/// On Unix this compares device and inode from `stat`, which never opens
/// either path: opening a FIFO given as `-o` for reading would block until
/// some writer appears, and we are that writer.
#[cfg(unix)]
pub fn same_file(input: &Path, output: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(input), std::fs::metadata(output)) {
        (Ok(i), Ok(o)) => i.dev() == o.dev() && i.ino() == o.ino(),
        _ => false,
    }
}

/// True when `output` names the same file as `input` (through links or
/// other spellings of the path), so writing it would destroy the input.
#[cfg(not(unix))]
pub fn same_file(input: &Path, output: &Path) -> bool {
    same_file::is_same_file(input, output).unwrap_or(false)
}
