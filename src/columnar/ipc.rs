//! Arrow IPC in and out (the `arrow-ipc` crate): the file format (Feather
//! v2, `.arrow`/`.feather`) and the stream format, which also flows through
//! stdin and stdout so a program can pipe record batches through the tool.
//! Batches are read one at a time; answers keep the input's body
//! compression (LZ4 frame or zstd), read from its first record batch.

use std::io::{Cursor, Write};

use arrow_ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
use arrow_ipc::CompressionType;
use arrow_schema::{Schema, SchemaRef};

use super::batches::Item;
use super::{Data, Kind};

/// Opens `data` as an Arrow IPC file or stream: the schema and the batches
/// (each its own group).
pub fn open<'a>(
    name: &str,
    kind: Kind,
    data: Data<'a>,
) -> anyhow::Result<(SchemaRef, Box<dyn Iterator<Item = Item> + 'a>)> {
    if let Some(bytes) = data.whole() {
        check_lengths(bytes).map_err(|e| anyhow::anyhow!("{name}: bad {}: {e}", kind.name()))?;
    }
    let (schema, batches) = crate::cleanup::contain(|| open_unguarded(name, kind, data))
        .map_err(|msg| anyhow::anyhow!("{name}: bad {}: {msg}", kind.name()))??;
    Ok((schema, super::batches::contained(name, kind, batches)))
}

fn open_unguarded<'a>(
    name: &str,
    kind: Kind,
    data: Data<'a>,
) -> anyhow::Result<(SchemaRef, Box<dyn Iterator<Item = Item> + 'a>)> {
    let bad = |e: arrow_schema::ArrowError| anyhow::anyhow!("{name}: bad {}: {e}", kind.name());
    let owned = name.to_string();
    let mark = move |r: Result<arrow_array::RecordBatch, arrow_schema::ArrowError>| -> Item {
        r.map(|b| (b, true))
            .map_err(|e| anyhow::anyhow!("{owned}: bad {}: {e}", kind.name()))
    };
    Ok(match (kind, data) {
        (Kind::ArrowFile, Data::File(_, bytes)) => {
            let r =
                arrow_ipc::reader::FileReader::try_new(Cursor::new(bytes), None).map_err(bad)?;
            (r.schema(), Box::new(r.map(mark)))
        }
        (Kind::ArrowFile, Data::Owned(v)) => {
            let r = arrow_ipc::reader::FileReader::try_new(Cursor::new(v), None).map_err(bad)?;
            (r.schema(), Box::new(r.map(mark)))
        }
        (Kind::ArrowStream, Data::File(_, bytes)) => {
            let r =
                arrow_ipc::reader::StreamReader::try_new(Cursor::new(bytes), None).map_err(bad)?;
            (r.schema(), Box::new(r.map(mark)))
        }
        (Kind::ArrowStream, Data::Owned(v)) => {
            let r = arrow_ipc::reader::StreamReader::try_new(Cursor::new(v), None).map_err(bad)?;
            (r.schema(), Box::new(r.map(mark)))
        }
        (Kind::ArrowStream, Data::Stream(lock)) => {
            let r =
                arrow_ipc::reader::StreamReader::try_new(Framed::new(lock), None).map_err(bad)?;
            (r.schema(), Box::new(r.map(mark)))
        }
        (k, _) => anyhow::bail!("{name}: {} needs a whole file", k.name()),
    })
}

/// An Arrow IPC stream read from a pipe, handed to arrow-ipc one whole
/// message at a time. arrow-ipc allocates the body a message claims before
/// reading it, and a stream cannot be checked ahead as a file is
/// ([`check_lengths`]): a damaged or hostile stream claiming a 20 TB body
/// aborted the process. Here each message's metadata and body are first
/// read into a buffer that grows only with the bytes that really come, so
/// a claim the stream does not back ends as an error naming the byte, and
/// what arrow-ipc then allocates is there. The cost is one copy of each
/// message (batches are read one at a time, so one message is held twice
/// at most).
struct Framed<R> {
    inner: R,
    /// The current message (from its continuation marker on) and how much
    /// of it arrow-ipc has read.
    buf: Vec<u8>,
    at: usize,
    /// Stream offset of `buf[0]`, for messages.
    pos: u64,
    /// The end-of-stream marker or the end of the input was met: what is
    /// left is served, then end of file.
    done: bool,
}

impl<R: std::io::BufRead> Framed<R> {
    fn new(inner: R) -> Self {
        Framed {
            inner,
            buf: Vec::new(),
            at: 0,
            pos: 0,
            done: false,
        }
    }

    /// Appends up to `k` bytes of the input to `buf`; how many there were.
    fn take(&mut self, k: u64) -> std::io::Result<u64> {
        let mut got = 0;
        while got < k {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min((k - got) as usize);
            self.buf.extend_from_slice(&chunk[..n]);
            self.inner.consume(n);
            got += n as u64;
        }
        Ok(got)
    }

    /// Reads the next message into `buf`. A short word or metadata is left
    /// for arrow-ipc to report; a body shorter than its claim is an error.
    fn next_message(&mut self) -> std::io::Result<()> {
        self.pos += self.buf.len() as u64;
        self.buf.clear();
        self.at = 0;
        let word = |b: &[u8]| u32::from_le_bytes(b[b.len() - 4..].try_into().expect("4 bytes"));
        if self.take(4)? < 4 {
            self.done = true;
            return Ok(());
        }
        let mut len = word(&self.buf);
        if len == 0xFFFF_FFFF {
            if self.take(4)? < 4 {
                self.done = true;
                return Ok(());
            }
            len = word(&self.buf);
        }
        if len == 0 || self.take(u64::from(len))? < u64::from(len) {
            self.done = true;
            return Ok(());
        }
        let meta = &self.buf[self.buf.len() - len as usize..];
        let Ok(message) = arrow_ipc::root_as_message(meta) else {
            // Not a message: arrow-ipc says why.
            self.done = true;
            return Ok(());
        };
        let body = message.bodyLength();
        let bad = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidData, why);
        let at = self.pos;
        let body = u64::try_from(body).map_err(|_| {
            bad(format!(
                "message at byte {at} claims a body of {body} bytes"
            ))
        })?;
        let got = self.take(body)?;
        if got < body {
            return Err(bad(format!(
                "message at byte {at} claims a body of {body} bytes, the stream ends after {got}"
            )));
        }
        Ok(())
    }
}

impl<R: std::io::BufRead> std::io::Read for Framed<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            if self.done {
                return Ok(0);
            }
            self.next_message()?;
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Checks that every message (and, in a file, every block its footer
/// lists) fits in `data` before arrow-ipc reads it: the reader allocates
/// what a message claims up front, so a length of terabytes in a damaged
/// file aborted the process (found by fuzz/tables). Streams from a pipe
/// are checked message by message as they come ([`Framed`]).
fn check_lengths(data: &[u8]) -> Result<(), String> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
    };
    let file = data.starts_with(b"ARROW1");
    let mut pos = if file { 8 } else { 0 };
    while let Some(mut len) = word(pos).map(|w| w as usize) {
        pos += 4;
        if len == 0xFFFF_FFFF {
            let Some(l) = word(pos) else { break };
            len = l as usize;
            pos += 4;
        }
        if len == 0 {
            break;
        }
        let meta = data.get(pos..pos.saturating_add(len)).ok_or_else(|| {
            format!("message at byte {pos} claims {len} bytes, the file ends first")
        })?;
        let body = arrow_ipc::root_as_message(meta)
            .map_err(|e| format!("message at byte {pos}: {e}"))?
            .bodyLength();
        pos += len;
        let body = usize::try_from(body)
            .ok()
            .filter(|&b| b <= data.len() - pos)
            .ok_or_else(|| {
                format!("message at byte {pos} claims a body of {body} bytes, the file ends first")
            })?;
        pos += body;
    }
    if file && data.len() >= 10 {
        let end = data.len() - 6;
        let footer_len = word(end - 4).unwrap_or(0) as usize;
        let footer = end
            .checked_sub(4 + footer_len)
            .and_then(|start| data.get(start..end - 4))
            .ok_or("the footer's length runs past the start of the file")?;
        let footer = arrow_ipc::root_as_footer(footer).map_err(|e| format!("footer: {e}"))?;
        let blocks = footer.recordBatches().into_iter().flatten();
        for b in blocks.chain(footer.dictionaries().into_iter().flatten()) {
            let fits = usize::try_from(b.offset())
                .ok()
                .and_then(|o| o.checked_add(usize::try_from(b.metaDataLength()).ok()?))
                .and_then(|o| o.checked_add(usize::try_from(b.bodyLength()).ok()?))
                .is_some_and(|e| e <= data.len());
            if !fits {
                return Err(format!(
                    "a record batch at byte {} claims more bytes than the file has",
                    b.offset()
                ));
            }
        }
    }
    Ok(())
}

/// The body compression of the first record batch in `data` (a whole IPC
/// file or stream), walking the message headers only.
pub fn compression(data: &[u8]) -> Option<CompressionType> {
    let mut pos = if data.starts_with(b"ARROW1") { 8 } else { 0 };
    for _ in 0..64 {
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
        };
        let mut len = word(pos)? as usize;
        pos += 4;
        if len == 0xFFFF_FFFF {
            len = word(pos)? as usize;
            pos += 4;
        }
        if len == 0 {
            return None;
        }
        let msg = arrow_ipc::root_as_message(data.get(pos..pos + len)?).ok()?;
        if let Some(rb) = msg.header_as_record_batch() {
            return rb.compression().map(|c| c.codec());
        }
        pos += len + usize::try_from(msg.bodyLength()).ok()?;
    }
    None
}

fn options(codec: Option<CompressionType>) -> anyhow::Result<IpcWriteOptions> {
    Ok(IpcWriteOptions::default().try_with_compression(codec)?)
}

/// A file-format writer on `w`.
pub fn file_writer<'o>(
    w: &'o mut dyn Write,
    schema: &Schema,
    codec: Option<CompressionType>,
) -> anyhow::Result<FileWriter<&'o mut dyn Write>> {
    Ok(FileWriter::try_new_with_options(
        w,
        schema,
        options(codec)?,
    )?)
}

/// A stream-format writer on `w`.
pub fn stream_writer<'o>(
    w: &'o mut dyn Write,
    schema: &Schema,
    codec: Option<CompressionType>,
) -> anyhow::Result<StreamWriter<&'o mut dyn Write>> {
    Ok(StreamWriter::try_new_with_options(
        w,
        schema,
        options(codec)?,
    )?)
}
