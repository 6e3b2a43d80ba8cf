//! The vocabulary the table formats share (Parquet, Arrow IPC): a source's
//! batches as they come, and the writer they write the output through. The
//! format modules and the table engine (`table`) import this; it imports
//! none of them, so a new table format is one module beside these.

use std::io::Write;

use arrow_array::RecordBatch;

use crate::input::Kind;

/// One batch from a source: the batch and whether it ends a row group.
pub type Item = anyhow::Result<(RecordBatch, bool)>;

/// A source's batches, in order.
pub type Batches<'a> = Box<dyn Iterator<Item = Item> + 'a>;

/// `batches` with a panic of the reader below (see [`crate::cleanup::contain`])
/// turned into an error item naming the file, after which it ends.
pub fn contained<'a>(name: &str, kind: Kind, mut batches: Batches<'a>) -> Batches<'a> {
    let name = name.to_string();
    let mut done = false;
    Box::new(std::iter::from_fn(move || {
        if done {
            return None;
        }
        match crate::cleanup::contain(|| batches.next()) {
            Ok(item) => item,
            Err(msg) => {
                done = true;
                Some(Err(anyhow::anyhow!("{name}: bad {}: {msg}", kind.name())))
            }
        }
    }))
}

/// The output's writer, marked `Send` for `ArrowWriter`'s bound.
pub struct SendWriter<'o>(pub &'o mut dyn Write);

// SAFETY: `ArrowWriter::try_new` asks for `W: Send` only so that a writer
// may be moved to another thread; this one never is: the sink is made,
// used and dropped on the thread that owns the `Output` (the solving tasks
// spawned in `run` never touch it), and the parquet writer starts no
// threads of its own. Writing straight through instead of into a `Vec`
// drained per row group halved the peak memory of a 1M-row row group.
unsafe impl Send for SendWriter<'_> {}

impl Write for SendWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(WriteFailed::mark)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.write_all(buf).map_err(WriteFailed::mark)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(WriteFailed::mark)
    }
}

/// An error writing the output through [`SendWriter`], marked so that a
/// Parquet call that reads the input and writes the output at once (a
/// column chunk copied as it is) can tell whose fault it was.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct WriteFailed(std::io::Error);

impl WriteFailed {
    fn mark(e: std::io::Error) -> std::io::Error {
        std::io::Error::new(e.kind(), WriteFailed(e))
    }
}

/// True when the Parquet error `e` is an output write error (see
/// [`WriteFailed`]), not one of the input.
pub fn failed_writing(e: &parquet::errors::ParquetError) -> bool {
    match e {
        parquet::errors::ParquetError::External(inner) => inner
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .is_some_and(|r| r.is::<WriteFailed>()),
        _ => false,
    }
}

/// A write error of the output as a user reads it: `OUT: cannot write:
/// REASON`, the reason said once. The Parquet and Arrow writers wrap the
/// OS error in their own (`External: No space left on device`, `Io error:
/// ...`) whose cause is that same OS error again, so `{:#}` showed it
/// twice; the OS error found in the chain (unwrapped from
/// [`WriteFailed`]) is kept alone, still an [`std::io::Error`] for the
/// broken-pipe check. An error with no OS error under it (an encoder's)
/// keeps its own words.
pub fn write_failed(output: Option<&std::path::Path>, e: anyhow::Error) -> anyhow::Error {
    let what = crate::output::write_what(output);
    let io = e.chain().find_map(|c| c.downcast_ref::<std::io::Error>());
    match io {
        Some(io) => {
            let io = match io.get_ref().and_then(|r| r.downcast_ref::<WriteFailed>()) {
                Some(WriteFailed(inner)) => inner,
                None => io,
            };
            let plain = match io.raw_os_error() {
                Some(code) => std::io::Error::from_raw_os_error(code),
                None => std::io::Error::new(io.kind(), io.to_string()),
            };
            anyhow::Error::new(plain).context(what)
        }
        None => e.context(what),
    }
}
