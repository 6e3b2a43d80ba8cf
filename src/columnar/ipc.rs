//! Arrow IPC in and out (the `arrow-ipc` crate): the file format (Feather
//! v2, `.arrow`/`.feather`) and the stream format, which also flows through
//! stdin and stdout so a program can pipe record batches through the tool.
//! Batches are read one at a time; answers keep the input's body
//! compression (LZ4 frame or zstd), read from its first record batch.

use std::io::{Cursor, Write};
use std::sync::Arc;

use arrow_buffer::Buffer;
use arrow_schema::ArrowError;

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
    open_with(name, kind, data, None)
}

/// [`open`], an Arrow IPC file's record batches cut into slices of at most
/// `step` rows as they are read (a stream's come whole), each slice but
/// the last of a batch marked as not ending it. A file's slices are
/// checked one at a time where arrow-ipc would check the whole batch when
/// reading it, and the pages of the slices done are handed back, so a file
/// of one huge batch is resident a few slices at a time (see
/// [`Mapped::next`]).
pub fn open_in_steps<'a>(
    name: &str,
    kind: Kind,
    data: Data<'a>,
    step: usize,
) -> anyhow::Result<(SchemaRef, Box<dyn Iterator<Item = Item> + 'a>)> {
    open_with(name, kind, data, Some(step.max(1)))
}

fn open_with<'a>(
    name: &str,
    kind: Kind,
    data: Data<'a>,
    step: Option<usize>,
) -> anyhow::Result<(SchemaRef, Box<dyn Iterator<Item = Item> + 'a>)> {
    if let Some(bytes) = data.whole() {
        check_lengths(bytes).map_err(|e| anyhow::anyhow!("{name}: bad {}: {e}", kind.name()))?;
    }
    let (schema, batches) = crate::cleanup::contain(|| open_unguarded(name, kind, data, step))
        .map_err(|msg| anyhow::anyhow!("{name}: bad {}: {msg}", kind.name()))??;
    Ok((schema, super::batches::contained(name, kind, batches)))
}

fn open_unguarded<'a>(
    name: &str,
    kind: Kind,
    data: Data<'a>,
    step: Option<usize>,
) -> anyhow::Result<(SchemaRef, Box<dyn Iterator<Item = Item> + 'a>)> {
    let bad = |e: arrow_schema::ArrowError| anyhow::anyhow!("{name}: bad {}: {e}", kind.name());
    let owned = name.to_string();
    let mark = move |r: Result<arrow_array::RecordBatch, arrow_schema::ArrowError>| -> Item {
        r.map(|b| (b, true))
            .map_err(|e| anyhow::anyhow!("{owned}: bad {}: {e}", kind.name()))
    };
    let owned = name.to_string();
    let marked = move |r: Result<(arrow_array::RecordBatch, bool), ArrowError>| -> Item {
        r.map_err(|e| anyhow::anyhow!("{owned}: bad {}: {e}", kind.name()))
    };
    Ok(match (kind, data) {
        // A file's batches are views into its mapping (or into the bytes
        // read from stdin): no copy of a batch's body, however big.
        (Kind::ArrowFile, Data::File(path, bytes)) => {
            let r = Mapped::open(name, path, bytes, step).map_err(bad)?;
            (r.decoder.schema(), Box::new(r.map(marked)))
        }
        (Kind::ArrowFile, Data::Owned(v)) => {
            let r = Mapped::new(arrow_buffer::Buffer::from_vec(v), None, step).map_err(bad)?;
            (r.decoder.schema(), Box::new(r.map(marked)))
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

/// An Arrow IPC file read zero-copy: every record batch's arrays are views
/// into one [`Buffer`] holding the whole file, a mapping of it (or the bytes
/// read from stdin), as arrow-rs's `zero_copy_ipc` example does; nothing of
/// a batch's body is copied unless it is compressed (then arrow-ipc
/// decompresses each buffer) or misaligned. A mapped file's pages of the
/// batches already answered are handed back to the kernel as the run goes
/// ([`Mapped::release`]), so the resident set follows the batches in
/// flight, not the file.
struct Mapped {
    buf: Buffer,
    decoder: Decoder,
    blocks: Vec<arrow_ipc::Block>,
    /// The next block to read.
    at: usize,
    /// The mapping behind `buf`, for releasing pages; `None` for bytes
    /// read into memory.
    map: Option<Arc<memmap2::Mmap>>,
    /// Rows per slice ([`open_in_steps`]); `None`: whole batches.
    step: Option<usize>,
    /// The batch being cut into slices, when there is one.
    cutting: Option<Cutting>,
}

/// A record batch being handed out in slices.
struct Cutting {
    batch: arrow_array::RecordBatch,
    /// The first row of the next slice.
    at: usize,
    /// Where its buffers lie in the mapping (empty when nothing of the
    /// mapping is in the batch: a compressed body, bytes read).
    regions: Vec<(usize, usize)>,
}

/// The decoder with the schema it reads.
struct Decoder {
    inner: arrow_ipc::reader::FileDecoder,
    schema: SchemaRef,
}

impl Decoder {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

impl Mapped {
    /// The file `path`, whose content `bytes` are, mapped again as a
    /// [`Buffer`] the batches can share (the caller's mapping is borrowed,
    /// and arrays need an owner). If the file is not these bytes (they
    /// were decompressed from it), the bytes are copied into memory.
    fn open(
        name: &str,
        path: &std::path::Path,
        bytes: &[u8],
        step: Option<usize>,
    ) -> Result<Mapped, ArrowError> {
        let same = |map: &[u8]| {
            let k = map.len().min(4096);
            map.len() == bytes.len()
                && map[..k] == bytes[..k]
                && map[map.len() - k..] == bytes[bytes.len() - k..]
        };
        let map = std::fs::File::open(path).ok().and_then(|f| {
            // SAFETY: as for the caller's own mapping of this file
            // (`input::open`): the map is only read, through the buffers
            // arrow-ipc makes of it, never written; the output was checked
            // not to be this file; a truncation by another process raises
            // SIGBUS on the lost pages, which `cleanup::watch_map` (below)
            // turns into a clear error.
            let map = unsafe { memmap2::Mmap::map(&f) }.ok()?;
            same(&map).then_some(map)
        });
        let Some(map) = map else {
            return Mapped::new(Buffer::from(bytes), None, step);
        };
        crate::cleanup::watch_map(&map, name);
        let map = Arc::new(map);
        let ptr = std::ptr::NonNull::new(map.as_ptr().cast_mut())
            .ok_or_else(|| ArrowError::IpcError("empty mapping".into()))?;
        // SAFETY: `ptr` and `map.len()` are the mapping's own; the buffer
        // holds an `Arc` of the mapping as its owner, so the memory stays
        // mapped while any array made from it lives; it is never written.
        let buf = unsafe { Buffer::from_custom_allocation(ptr, map.len(), map.clone()) };
        Mapped::new(buf, Some(map), step)
    }

    /// Reads the footer of the IPC file in `buf`, as arrow-ipc's
    /// `FileReader` does, and the dictionaries it lists.
    fn new(
        buf: Buffer,
        map: Option<Arc<memmap2::Mmap>>,
        step: Option<usize>,
    ) -> Result<Mapped, ArrowError> {
        let bad = |why: &str| ArrowError::ParseError(why.to_string());
        if buf.len() < 10 {
            return Err(bad("the file is too short for an Arrow IPC file's footer"));
        }
        let trailer: [u8; 10] = buf[buf.len() - 10..].try_into().expect("10 bytes");
        let footer_len = arrow_ipc::reader::read_footer_length(trailer)?;
        let start = (buf.len() - 10)
            .checked_sub(footer_len)
            .ok_or_else(|| bad("the footer's length runs past the start of the file"))?;
        let footer = arrow_ipc::root_as_footer(&buf[start..buf.len() - 10])
            .map_err(|e| ArrowError::ParseError(format!("Unable to get root as footer: {e:?}")))?;
        let blocks: Vec<arrow_ipc::Block> = footer
            .recordBatches()
            .ok_or_else(|| bad("Unable to get record batches from IPC Footer"))?
            .iter()
            .copied()
            .collect();
        let ipc_schema = footer
            .schema()
            .ok_or_else(|| bad("Unable to get schema from IPC Footer"))?;
        if !ipc_schema.endianness().equals_to_target_endianness() {
            return Err(ArrowError::IpcError(
                "the endianness of the source system does not match the endianness of the \
                 target system."
                    .into(),
            ));
        }
        let schema = Arc::new(arrow_ipc::convert::try_fb_to_schema(ipc_schema)?);
        let mut inner = arrow_ipc::reader::FileDecoder::new(schema.clone(), footer.version());
        for block in footer.dictionaries().iter().flatten() {
            let data = block_bytes(&buf, block)?;
            inner.read_dictionary(block, &data)?;
        }
        // Sliced reading checks each slice itself (see `Mapped::next`),
        // for columns whose every check a slice's `validate_full` makes.
        let step = step.filter(|_| schema.fields().iter().all(|f| flat(f.data_type())));
        if step.is_some() {
            // SAFETY: arrow-ipc then builds the arrays without checking
            // offsets, UTF-8, null counts and lengths; nothing reads them
            // before `Mapped::next` has checked them: the whole batch's
            // column lengths against its row count, then each slice's
            // columns by `ArrayData::validate_full` (the same checks,
            // over the slice's rows) and nullability, before the slice is
            // handed out. Only slicing (which asserts its bounds against
            // the buffers, a panic at worst, contained as an error of the
            // file) touches a batch before that. `flat` keeps this to
            // types without child arrays, variadic buffers or
            // dictionaries, whose slice checks cover all a slice reads.
            inner = unsafe { inner.with_skip_validation(true) };
        }
        Ok(Mapped {
            buf,
            decoder: Decoder { inner, schema },
            blocks,
            at: 0,
            map,
            step,
            cutting: None,
        })
    }

    /// Hands the pages of block `k` back to the kernel. They are the
    /// file's pages in the page cache, never written: one touched again is
    /// read back from the file, so this only keeps the resident set small.
    fn release(&self, k: usize) {
        let Some(block) = self.blocks.get(k) else {
            return;
        };
        let Ok(start) = usize::try_from(block.offset()) else {
            return;
        };
        let len = block.metaDataLength() as usize + block.bodyLength().max(0) as usize;
        self.release_range(start, start + len);
    }

    /// Hands back the whole pages of the mapping inside `start..end` (see
    /// [`Mapped::release`]); nothing for bytes read into memory.
    fn release_range(&self, start: usize, end: usize) {
        let Some(map) = &self.map else {
            return;
        };
        let page = 4096;
        // Whole pages inside the range only: its neighbours' stay.
        let first = start.div_ceil(page) * page;
        let end = end.min(map.len()) / page * page;
        if end > first {
            // SAFETY: a private, read-only file mapping: MADV_DONTNEED drops
            // the pages from this process, and a later read of them faults
            // them in again from the file, unchanged (nothing was written
            // through the map). Only a hint: a failure changes nothing.
            #[cfg(unix)]
            let _ = unsafe {
                map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, first, end - first)
            };
        }
    }
}

/// Block `b`'s bytes (metadata and body) in `buf`, checked to lie in it.
fn block_bytes(buf: &Buffer, b: &arrow_ipc::Block) -> Result<Buffer, ArrowError> {
    let fits = usize::try_from(b.offset()).ok().and_then(|o| {
        let len = usize::try_from(b.metaDataLength())
            .ok()?
            .checked_add(usize::try_from(b.bodyLength()).ok()?)?;
        (o.checked_add(len)? <= buf.len()).then_some((o, len))
    });
    let (o, len) = fits.ok_or_else(|| {
        ArrowError::ParseError(format!(
            "a block at byte {} claims more bytes than the file has",
            b.offset()
        ))
    })?;
    Ok(buf.slice_with_length(o, len))
}

impl Mapped {
    /// The next slice of the batch being cut, checked (see
    /// [`Mapped::new`]); `None` once it is all handed out.
    fn next_slice(&mut self) -> Option<Result<(arrow_array::RecordBatch, bool), ArrowError>> {
        let step = self.step?;
        let cut = self.cutting.as_mut()?;
        let rows = cut.batch.num_rows();
        if cut.at >= rows && rows > 0 {
            self.cutting = None;
            return None;
        }
        let at = cut.at;
        let len = step.min(rows - at);
        cut.at += len;
        let slice = cut.batch.slice(at, len);
        let end = at + len == rows;
        // Three slices back: by now solved and written (the run reads one
        // slice ahead of the one it solves and writes the one before), so
        // the pages of its rows are handed back, in each buffer the share
        // of those rows (exact for fixed-width buffers, near for string
        // values; a page still wanted is only read back in).
        let done: Vec<(usize, usize)> = match at.checked_sub(3 * step).filter(|&d| d > 0) {
            Some(done) => cut
                .regions
                .iter()
                .map(|&(s, e)| (s, s + ((e - s) as u128 * done as u128 / rows as u128) as usize))
                .collect(),
            None => Vec::new(),
        };
        for (s, upto) in done {
            self.release_range(s, upto);
        }
        if end {
            self.cutting = None;
        }
        let schema = slice.schema();
        for (field, col) in schema.fields().iter().zip(slice.columns()) {
            if let Err(e) = col.to_data().validate_full() {
                return Some(Err(e));
            }
            if !field.is_nullable() && col.null_count() > 0 {
                return Some(Err(ArrowError::InvalidArgumentError(format!(
                    "column {:?} is declared non-nullable but contains null values",
                    field.name()
                ))));
            }
        }
        Some(Ok((slice, end)))
    }

    /// Where the buffers of record batch `block` (its bytes `data`) lie in
    /// the mapping, from its message header; none for a compressed body
    /// (arrow-ipc decompresses it into memory) or bytes read.
    fn regions(&self, block: &arrow_ipc::Block, data: &[u8]) -> Vec<(usize, usize)> {
        if self.map.is_none() {
            return Vec::new();
        }
        let word = |at: usize| -> Option<usize> {
            Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?) as usize)
        };
        let meta_at = if word(0) == Some(0xFFFF_FFFF) { 8 } else { 4 };
        let header = word(meta_at - 4)
            .and_then(|len| data.get(meta_at..meta_at.checked_add(len)?))
            .and_then(|m| arrow_ipc::root_as_message(m).ok())
            .and_then(|m| m.header_as_record_batch());
        let (Some(rb), Ok(start), Ok(meta)) = (
            header,
            usize::try_from(block.offset()),
            usize::try_from(block.metaDataLength()),
        ) else {
            return Vec::new();
        };
        if rb.compression().is_some() {
            return Vec::new();
        }
        let body = start + meta;
        rb.buffers()
            .into_iter()
            .flatten()
            .filter_map(|b| {
                let s = body.checked_add(usize::try_from(b.offset()).ok()?)?;
                Some((s, s.checked_add(usize::try_from(b.length()).ok()?)?))
            })
            .collect()
    }
}

impl Iterator for Mapped {
    type Item = Result<(arrow_array::RecordBatch, bool), ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(slice) = self.next_slice() {
            return Some(slice);
        }
        let block = *self.blocks.get(self.at)?;
        self.at += 1;
        // Two blocks back: by now its last slices are solved and written
        // (the run reads one step ahead of the one it solves and writes
        // the one before).
        if self.at >= 3 {
            self.release(self.at - 3);
        }
        let data = match block_bytes(&self.buf, &block) {
            Ok(d) => d,
            Err(e) => return Some(Err(e)),
        };
        let batch = match self.decoder.inner.read_record_batch(&block, &data) {
            Ok(Some(b)) => b,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        if self.step.is_none() {
            return Some(Ok((batch, true)));
        }
        // Unchecked so far (see `Mapped::new`): the lengths first, so
        // that slicing stays inside every column.
        if let Some(col) = batch.columns().iter().find(|c| c.len() != batch.num_rows()) {
            return Some(Err(ArrowError::InvalidArgumentError(format!(
                "a column of {} rows in a record batch of {}",
                col.len(),
                batch.num_rows()
            ))));
        }
        let regions = self.regions(&block, &data);
        if regions.is_empty() && self.map.is_some() {
            // A compressed body was decompressed into memory: the
            // block's pages are done with.
            self.release(self.at - 1);
        }
        self.cutting = Some(Cutting {
            batch,
            at: 0,
            regions,
        });
        self.next_slice()
    }
}

/// True for a column type whose slice's `validate_full` checks all that
/// reading the slice relies on: no child arrays, dictionaries or variadic
/// buffers (see [`Mapped::new`]).
fn flat(dt: &arrow_schema::DataType) -> bool {
    use arrow_schema::DataType as T;
    matches!(
        dt,
        T::Null
            | T::Boolean
            | T::Int8
            | T::Int16
            | T::Int32
            | T::Int64
            | T::UInt8
            | T::UInt16
            | T::UInt32
            | T::UInt64
            | T::Float16
            | T::Float32
            | T::Float64
            | T::Timestamp(..)
            | T::Date32
            | T::Date64
            | T::Time32(_)
            | T::Time64(_)
            | T::Duration(_)
            | T::Interval(_)
            | T::Binary
            | T::LargeBinary
            | T::FixedSizeBinary(_)
            | T::Utf8
            | T::LargeUtf8
            | T::Decimal128(..)
            | T::Decimal256(..)
    )
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
    let mut pos = if file { first_message(data) } else { 0 };
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

/// Where the first message of an IPC file starts: after the magic and its
/// padding, which arrow-rs 60 makes 64 bytes long (the file's alignment)
/// where pyarrow writes 8; the zero words in between were read as an end
/// of stream, so a file written by arrow-rs showed no compression (its
/// answers came out uncompressed) and had its lengths unchecked.
fn first_message(data: &[u8]) -> usize {
    let mut pos = 8;
    while pos < 64 && data.get(pos..pos + 4) == Some(&[0, 0, 0, 0][..]) {
        pos += 4;
    }
    pos
}

/// The body compression of the first record batch in `data` (a whole IPC
/// file or stream), walking the message headers only.
pub fn compression(data: &[u8]) -> Option<CompressionType> {
    let mut pos = if data.starts_with(b"ARROW1") {
        first_message(data)
    } else {
        0
    };
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
