//! Parquet in and out (the `parquet` crate's Arrow reader and writer): reads
//! one row group at a time in steps of [`super::ROWS_PER_STEP`] rows, so
//! memory follows the step, not the file; writes one output row group per
//! input row group (split past [`MAX_GROUP_ROWS`] rows). Columns the run does not fill or add are copied chunk
//! for chunk from the input, never decoded and re-encoded (when their
//! description in the output schema matches the input's; otherwise every
//! column is encoded again with the input's codec). Before a row group is
//! read its page headers are checked (`guard::check`), and each page again
//! once decompressed, before it is decoded (`Checked`): the size claims
//! parquet 60 still allocates from (see guard.rs).

use std::fs::File;
use std::sync::{Arc, OnceLock};

use anyhow::Context;
use arrow_schema::{Schema, SchemaRef};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader, RowGroups,
};
use parquet::arrow::FieldLevels;
use parquet::basic::{Compression, Encoding, Type};
use parquet::column::page::{Page, PageIterator, PageMetadata, PageReader};
use parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::ChunkReader;
use parquet::file::serialized_reader::SerializedPageReader;
use parquet::schema::types::{ColumnDescPtr, ColumnPath};

use super::batches::{Batches, Item};
use super::Data;

/// Rows an output row group holds at most: the Parquet writer keeps a row
/// group's encoded pages in memory until the group ends (the answers of a
/// row group of 2^20 9x9 puzzles are about 80 MB, digits 1-9 being all but
/// incompressible), so an input row group longer than this is written as
/// several of [`SPLIT_GROUP_ROWS`] rows (re-encoding its other columns
/// rather than copying them), and memory stays below that of a 2^20-row
/// group whatever the input's (pyarrow's default row group is this long).
pub const MAX_GROUP_ROWS: usize = 1 << 20;

/// Rows per output row group when an input row group is split (see
/// [`MAX_GROUP_ROWS`]): every column is encoded then, so a group holds
/// them all; 2^17 rows (DuckDB writes 122,880) keeps that near 25 MB.
pub const SPLIT_GROUP_ROWS: usize = 1 << 17;

/// The input file, for copying its untouched column chunks.
pub struct Input {
    source: Source,
    meta: Arc<parquet::file::metadata::ParquetMetaData>,
    /// The next input row group to copy from.
    group: usize,
    /// The input's name in messages.
    name: String,
}

impl Input {
    /// Rows in the file, from its footer (the progress bar's total).
    pub fn rows(&self) -> u64 {
        self.meta.file_metadata().num_rows().max(0) as u64
    }
}

/// An error of the input file found while writing (a column chunk that
/// cannot be copied): reported as it is, not as a write error.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(String);

/// The message for a Parquet library error `e` while reading `name`: the
/// file shrank or grew under the run (the reader then fails in ways that
/// say nothing of it), else `bad Parquet file: WHERE: e`.
fn bad_input(name: &str, source: &Source, place: &str, e: impl std::fmt::Display) -> String {
    if let Some(changed) = source.changed() {
        return format!("{name}: {changed}");
    }
    format!("{name}: bad Parquet file: {place}: {e}")
}

impl Input {
    /// True when every column to copy has the same description (name,
    /// types, levels) in the output schema as in the input file, so its
    /// chunks can be copied as they are.
    pub fn fits(&self, schema: &Schema, encoded: &[bool]) -> bool {
        // A row group's encoded columns are held until the group ends: a
        // longer group is written again in groups of `MAX_GROUP_ROWS`,
        // where its chunks cannot be copied.
        if self
            .meta
            .row_groups()
            .iter()
            .any(|rg| rg.num_rows() as usize > MAX_GROUP_ROWS)
        {
            return false;
        }
        let Ok(descr) = parquet::arrow::ArrowSchemaConverter::new().convert(schema) else {
            return false;
        };
        let in_descr = self.meta.file_metadata().schema_descr();
        (0..descr.num_columns()).all(|c| {
            encoded[descr.get_column_root_idx(c)]
                || (c < in_descr.num_columns() && *in_descr.column(c) == *descr.column(c))
        })
    }
}

/// Writes Parquet by copying every untouched column chunk of the input
/// byte for byte (`append_column`) and encoding only the columns the run
/// fills or adds: the puzzle column and any others are never decoded and
/// re-encoded on the way out, so they come out exactly as they went in.
pub struct Splice<'o> {
    writer: parquet::file::writer::SerializedFileWriter<super::batches::SendWriter<'o>>,
    factory: parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory,
    input: Input,
    /// Per top-level output field: encoded here (true) or copied.
    encoded: Vec<bool>,
    /// Per leaf column: its top-level field.
    roots: Vec<usize>,
    /// The current row group's writers (all leaves; copied ones unused).
    columns: Option<Vec<parquet::arrow::arrow_writer::ArrowColumnWriter>>,
}

impl<'o> Splice<'o> {
    /// A splicing writer (check [`Input::fits`] first).
    pub fn new(
        out: super::batches::SendWriter<'o>,
        schema: &SchemaRef,
        props: WriterProperties,
        input: Input,
        encoded: Vec<bool>,
    ) -> anyhow::Result<Splice<'o>> {
        // Copied chunks bring no page index (the input's is not read), and
        // the writer cannot mix columns with and without one: none at all.
        let mut props = props
            .into_builder()
            .set_statistics_enabled(parquet::file::properties::EnabledStatistics::Chunk)
            .set_offset_index_disabled(true)
            .build();
        if let Some(kv) = input.meta.file_metadata().key_value_metadata() {
            let keep: Vec<_> = kv
                .iter()
                .filter(|k| k.key != "ARROW:schema")
                .cloned()
                .collect();
            props = props
                .into_builder()
                .set_key_value_metadata(Some(keep))
                .build();
        }
        let w = parquet::arrow::ArrowWriter::try_new(out, schema.clone(), Some(props))?;
        let (writer, factory) = w.into_serialized_writer()?;
        let descr = writer.schema_descr();
        let roots: Vec<usize> = (0..descr.num_columns())
            .map(|c| descr.get_column_root_idx(c))
            .collect();
        Ok(Splice {
            writer,
            factory,
            input,
            encoded,
            roots,
            columns: None,
        })
    }

    /// Encodes the filled and added columns of `batch`.
    pub fn write(&mut self, batch: &arrow_array::RecordBatch) -> anyhow::Result<()> {
        if self.columns.is_none() {
            let g = self.writer.flushed_row_groups().len();
            self.columns = Some(self.factory.create_column_writers(g)?);
        }
        let columns = self.columns.as_mut().expect("made above");
        let schema = batch.schema();
        let mut leaf = 0;
        for (i, field) in schema.fields().iter().enumerate() {
            let leaves = self.roots.iter().filter(|&&r| r == i).count();
            if self.encoded[i] {
                let arrays = parquet::arrow::arrow_writer::compute_leaves(field, batch.column(i))?;
                for (k, a) in arrays.iter().enumerate() {
                    columns[leaf + k].write(a)?;
                }
            }
            leaf += leaves;
        }
        Ok(())
    }

    /// Writes the row group: copied chunks from the next non-empty input
    /// row group, encoded ones from this run.
    pub fn end_group(&mut self) -> anyhow::Result<()> {
        let Some(columns) = self.columns.take() else {
            return Ok(());
        };
        let md = self.input.meta.clone();
        while md.row_group(self.input.group).num_rows() == 0 {
            self.input.group += 1;
        }
        let g = self.input.group;
        let rg_in = md.row_group(g);
        self.input.group += 1;
        let mut rg = self.writer.next_row_group()?;
        for (c, col) in columns.into_iter().enumerate() {
            if self.encoded[self.roots[c]] {
                col.close()?.append_to_row_group(&mut rg)?;
            } else {
                let chunk = rg_in.column(c).clone();
                // The chunk must lie in the file: the parquet crate's
                // own message for a short copy is a bare format string.
                let start = chunk
                    .dictionary_page_offset()
                    .unwrap_or(chunk.data_page_offset());
                let end = u64::try_from(start)
                    .ok()
                    .zip(u64::try_from(chunk.compressed_size()).ok())
                    .and_then(|(start, len)| start.checked_add(len));
                let close = parquet::column::writer::ColumnCloseResult {
                    bytes_written: chunk.compressed_size() as u64,
                    rows_written: rg_in.num_rows() as u64,
                    metadata: chunk,
                    bloom_filter: None,
                    column_index: None,
                    offset_index: None,
                };
                let source = &self.input.source;
                let bad = |e: &dyn std::fmt::Display| {
                    let place = format!("row group {g}, column {c}");
                    BadInput(bad_input(&self.input.name, source, &place, e))
                };
                if end.is_none_or(|end| end > source.len()) {
                    let e = format!(
                        "the column chunk at byte {start} ({} bytes) runs past the end of the file ({} bytes)",
                        close.bytes_written,
                        source.len()
                    );
                    return Err(bad(&e).into());
                }
                match source {
                    Source::File(f, _) => rg.append_column(&FileRef(f.clone()), close),
                    Source::Bytes(b) => rg.append_column(b, close),
                }
                .map_err(|e| -> anyhow::Error {
                    // The copy reads the input and writes the output: a
                    // full disk is no `bad Parquet file`.
                    if super::batches::failed_writing(&e) {
                        e.into()
                    } else {
                        bad(&e).into()
                    }
                })?;
            }
        }
        rg.close()?;
        Ok(())
    }

    /// Writes the footer.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.end_group()?;
        self.writer.close()?;
        Ok(())
    }
}

/// Where Parquet pages come from: the file, reopened (pages are read on
/// demand, never the whole file), with its length when opened; or stdin's
/// bytes.
#[derive(Clone)]
enum Source {
    File(Arc<File>, u64),
    Bytes(bytes::Bytes),
}

impl Source {
    /// The length the input had when opened.
    fn len(&self) -> u64 {
        match self {
            Source::File(_, len) => *len,
            Source::Bytes(b) => b.len() as u64,
        }
    }

    /// What happened to a file whose length is no longer the one it had
    /// when opened (as for text input: `the file shrank while being read`).
    fn changed(&self) -> Option<&'static str> {
        let Source::File(f, len) = self else {
            return None;
        };
        let now = f.metadata().ok()?.len();
        match now.cmp(len) {
            std::cmp::Ordering::Less => Some("the file shrank while being read"),
            std::cmp::Ordering::Greater => Some("the file grew while being read"),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// Opens `data` as Parquet: its Arrow schema, the batches (each row group's
/// last batch marked), and writer properties that keep the input's codecs
/// and row-group size.
pub fn open<'a>(
    name: &str,
    data: Data<'a>,
) -> anyhow::Result<(SchemaRef, Batches<'a>, WriterProperties, Input)> {
    let kind = super::Kind::Parquet;
    let (schema, batches, props, input) =
        crate::cleanup::contain(|| open_unguarded(name, data))
            .map_err(|msg| anyhow::anyhow!("{name}: bad Parquet file: {msg}"))??;
    let batches = super::batches::contained(name, kind, batches);
    Ok((schema, batches, props, input))
}

fn open_unguarded<'a>(
    name: &str,
    data: Data<'a>,
) -> anyhow::Result<(SchemaRef, Batches<'a>, WriterProperties, Input)> {
    // The file's bytes when pages are read from the file, for checking
    // their headers (see guard.rs); in-memory input is `source` itself.
    let mut mapped: &'a [u8] = &[];
    let source = match data {
        Data::File(path, bytes) => {
            let file = File::open(path).with_context(|| format!("{name}: cannot open"))?;
            // The file holds these very bytes unless it was compressed
            // (then `bytes` are the decoded content): read pages from the
            // file only when it is the Parquet file itself.
            if file.metadata().is_ok_and(|m| m.len() == bytes.len() as u64) {
                mapped = bytes;
                Source::File(Arc::new(file), bytes.len() as u64)
            } else {
                Source::Bytes(bytes::Bytes::copy_from_slice(bytes))
            }
        }
        Data::Owned(v) => Source::Bytes(bytes::Bytes::from(v)),
        Data::Stream(_) => anyhow::bail!("{name}: Parquet needs a whole file, not a stream"),
    };
    let bad = |e: parquet::errors::ParquetError| match source.changed() {
        Some(changed) => anyhow::anyhow!("{name}: {changed}"),
        None => anyhow::anyhow!("{name}: bad Parquet file: {e}"),
    };
    let options = ArrowReaderOptions::new();
    let meta = match &source {
        Source::File(f, _) => ArrowReaderMetadata::load(&**f, options),
        Source::Bytes(b) => ArrowReaderMetadata::load(b, options),
    }
    .map_err(bad)?;
    let md = meta.metadata().clone();
    let schema = meta.schema().clone();
    // Each column keeps its codec and whether it was dictionary-encoded;
    // added columns (a solution per row, all distinct) get no dictionary:
    // hashing 81 cells a row was 20% of a list<uint8> run (perf).
    let mut props = WriterProperties::builder().set_dictionary_enabled(false);
    if let Some(rg) = md.row_groups().first() {
        if let Some(first) = rg.columns().first() {
            props = props.set_compression(first.compression());
        }
        for c in rg.columns() {
            props = props
                .set_column_compression(c.column_path().clone(), c.compression())
                .set_column_dictionary_enabled(
                    c.column_path().clone(),
                    c.dictionary_page_offset().is_some(),
                );
        }
    }
    // Row groups are ended by hand, one per input row group, and split
    // only past `MAX_GROUP_ROWS` rows (see there).
    let biggest = md
        .row_groups()
        .iter()
        .map(|rg| rg.num_rows() as usize)
        .max()
        .unwrap_or(0);
    props = props.set_max_row_group_row_count(Some(if biggest > MAX_GROUP_ROWS {
        SPLIT_GROUP_ROWS
    } else {
        MAX_GROUP_ROWS + 1
    }));
    let groups = md.num_row_groups();
    // How each column's pages become arrays: the schema's fields, as
    // `build` finds them from the same metadata (its `fields`).
    let levels = parquet::arrow::parquet_to_arrow_field_levels(
        md.file_metadata().schema_descr(),
        parquet::arrow::ProjectionMask::all(),
        Some(schema.fields()),
    )
    .map_err(bad)?;
    // As `build` does: no batch longer than the file (as it casts).
    // A list column decodes to 4-byte leaves plus two 2-byte levels a
    // cell before it becomes a list: 8 bytes a cell, 650 a 9x9 row, so such
    // a file is read in quarter steps (three steps are in flight at once).
    let nested = (0..md.file_metadata().schema_descr().num_columns())
        .any(|c| md.file_metadata().schema_descr().column(c).max_rep_level() > 0);
    let step = if nested { super::ROWS_PER_STEP / 4 } else { super::ROWS_PER_STEP };
    let step = step.min(md.file_metadata().num_rows() as usize);
    let input = Input {
        source: source.clone(),
        meta: md.clone(),
        group: 0,
        name: name.to_string(),
    };
    let name = name.to_string();
    let iter = (0..groups).flat_map(move |g| {
        // The page headers are checked before the parquet crate sizes
        // buffers from them.
        let whole = match &source {
            Source::File(..) => mapped,
            Source::Bytes(b) => &b[..],
        };
        if let Err(why) = super::guard::check(whole, meta.metadata().row_group(g)) {
            let place = format!("row group {g}");
            let e = anyhow::anyhow!("{}", bad_input(&name, &source, &place, why));
            return Box::new(std::iter::once(Err(e))) as Box<dyn Iterator<Item = Item>>;
        }
        let refused = Arc::new(OnceLock::new());
        let reader = match &source {
            Source::File(f, _) => Group::read(
                FileRef(f.clone()),
                meta.metadata(),
                g,
                &levels,
                step,
                &refused,
            ),
            Source::Bytes(b) => Group::read(b.clone(), meta.metadata(), g, &levels, step, &refused),
        };
        let name = name.clone();
        let items: Box<dyn Iterator<Item = Item>> = match reader {
            Err(e) => Box::new(std::iter::once(Err(anyhow::anyhow!(
                "{}",
                bad_input(&name, &source, &format!("row group {g}"), e)
            )))),
            Ok(r) => Box::new(Marked {
                inner: r.peekable(),
                name,
                group: g,
                source: source.clone(),
                refused,
            }),
        };
        items
    });
    Ok((schema, Box::new(iter), props.build(), input))
}

/// One row group of a file read as `ParquetRecordBatchReaderBuilder` reads
/// it, but each column's pages through [`Checked`]: the builder gives no
/// way to see a page between its decompression and its decoding.
struct Group<C> {
    reader: Arc<C>,
    meta: Arc<ParquetMetaData>,
    group: usize,
    /// Where a refusing [`Checked`] leaves its reason.
    refused: Arc<OnceLock<String>>,
}

impl<C: ChunkReader + 'static> Group<C> {
    /// The batches of row group `group` of the file `reader`, `step` rows
    /// at a time, a page's refusal left in `refused`.
    fn read(
        reader: C,
        meta: &Arc<ParquetMetaData>,
        group: usize,
        levels: &FieldLevels,
        step: usize,
        refused: &Arc<OnceLock<String>>,
    ) -> parquet::errors::Result<ParquetRecordBatchReader> {
        let rows = Group {
            reader: Arc::new(reader),
            meta: meta.clone(),
            group,
            refused: refused.clone(),
        };
        ParquetRecordBatchReader::try_new_with_row_groups(levels, &rows, step, None)
    }
}

impl<C: ChunkReader + 'static> RowGroups for Group<C> {
    fn num_rows(&self) -> usize {
        self.meta.row_group(self.group).num_rows() as usize
    }

    fn column_chunks(&self, i: usize) -> parquet::errors::Result<Box<dyn PageIterator>> {
        let rg = self.meta.row_group(self.group);
        let chunk = rg.column(i);
        let pages =
            SerializedPageReader::new(self.reader.clone(), chunk, rg.num_rows() as usize, None)?;
        let checked: Box<dyn PageReader> = Box::new(Checked {
            inner: pages,
            descr: chunk.column_descr_ptr(),
            data_pages: 0,
            refused: self.refused.clone(),
        });
        Ok(Box::new(OneChunk(Some(checked))))
    }

    fn row_groups(&self) -> Box<dyn Iterator<Item = &RowGroupMetaData> + '_> {
        Box::new(std::iter::once(self.meta.row_group(self.group)))
    }

    fn metadata(&self) -> &ParquetMetaData {
        &self.meta
    }
}

/// The page reader of a row group's column chunk, as a [`PageIterator`].
struct OneChunk(Option<Box<dyn PageReader>>);

impl Iterator for OneChunk {
    type Item = parquet::errors::Result<Box<dyn PageReader>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.take().map(Ok)
    }
}

impl PageIterator for OneChunk {}

/// A column chunk's pages, each checked by [`super::guard::check_values`]
/// once decompressed, before the crate decodes it.
struct Checked<R> {
    inner: R,
    descr: ColumnDescPtr,
    /// Data pages read so far.
    data_pages: usize,
    refused: Arc<OnceLock<String>>,
}

impl<R: PageReader> Iterator for Checked<R> {
    type Item = parquet::errors::Result<Page>;

    fn next(&mut self) -> Option<Self::Item> {
        self.get_next_page().transpose()
    }
}

impl<R: PageReader> PageReader for Checked<R> {
    fn get_next_page(&mut self) -> parquet::errors::Result<Option<Page>> {
        let page = self.inner.get_next_page()?;
        if let Some(page) = &page {
            if page.is_data_page() {
                self.data_pages += 1;
            }
            if let Err(why) = super::guard::check_values(page, &self.descr) {
                let why = format!(
                    "column {}: data page {} of its chunk: {why}",
                    self.descr.path(),
                    self.data_pages
                );
                self.refused.get_or_init(|| why.clone());
                return Err(parquet::errors::ParquetError::General(why));
            }
        }
        Ok(page)
    }

    fn peek_next_page(&mut self) -> parquet::errors::Result<Option<PageMetadata>> {
        self.inner.peek_next_page()
    }

    fn skip_next_page(&mut self) -> parquet::errors::Result<()> {
        self.inner.skip_next_page()
    }

    fn at_record_boundary(&mut self) -> parquet::errors::Result<bool> {
        self.inner.at_record_boundary()
    }
}

/// A shared file handle as a page source.
struct FileRef(Arc<File>);

impl parquet::file::reader::Length for FileRef {
    fn len(&self) -> u64 {
        parquet::file::reader::Length::len(&*self.0)
    }
}

impl parquet::file::reader::ChunkReader for FileRef {
    type T = <File as parquet::file::reader::ChunkReader>::T;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        parquet::file::reader::ChunkReader::get_read(&*self.0, start)
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<bytes::Bytes> {
        parquet::file::reader::ChunkReader::get_bytes(&*self.0, start, length)
    }
}

/// A row group's batches, the last one marked as ending the group.
struct Marked {
    inner: std::iter::Peekable<ParquetRecordBatchReader>,
    name: String,
    group: usize,
    source: Source,
    /// A page's refusal (see [`Checked`]), said as it is rather than as
    /// the crate wraps it.
    refused: Arc<OnceLock<String>>,
}

impl Iterator for Marked {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let batch = self.inner.next()?;
        let last = self.inner.peek().is_none();
        Some(batch.map(|b| (b, last)).map_err(|e| {
            let place = format!("row group {}", self.group);
            let e = match self.refused.get() {
                Some(why) => why.clone(),
                None => e.to_string(),
            };
            anyhow::anyhow!("{}", bad_input(&self.name, &self.source, &place, e))
        }))
    }
}

/// Writer properties when the input was not Parquet: the Arrow input's
/// body compression where Parquet has it (LZ4 as `LZ4_RAW`), else zstd,
/// which reads and writes fast and is what polars and DuckDB default to.
pub fn default_props(ipc: Option<arrow_ipc::CompressionType>) -> WriterProperties {
    let codec = match ipc {
        Some(arrow_ipc::CompressionType::LZ4_FRAME) => Compression::LZ4_RAW,
        _ => Compression::ZSTD(Default::default()),
    };
    WriterProperties::builder().set_compression(codec).build()
}

/// The Arrow IPC body compression matching the Parquet codec `props` give
/// column `column`: zstd and LZ4 have one, others (snappy, gzip, none)
/// none.
pub fn ipc_codec(props: &WriterProperties, column: &str) -> Option<arrow_ipc::CompressionType> {
    match props.compression(&ColumnPath::from(column)) {
        Compression::ZSTD(_) => Some(arrow_ipc::CompressionType::ZSTD),
        Compression::LZ4 | Compression::LZ4_RAW => Some(arrow_ipc::CompressionType::LZ4_FRAME),
        _ => None,
    }
}

/// `props` with the added columns compressed like the puzzle column.
pub fn props_for(props: WriterProperties, schema: &Schema, puzzle: usize) -> WriterProperties {
    let puzzle_path = ColumnPath::from(schema.field(puzzle).name().as_str());
    let codec = props.compression(&puzzle_path);
    let mut b = props.into_builder();
    for f in schema.fields() {
        let path = ColumnPath::from(f.name().as_str());
        if matches!(
            f.name().as_str(),
            "solution" | "solutions" | "solution_count" | "guesses" | "level"
        ) {
            b = b.set_column_compression(path, codec);
        }
    }
    // Integer leaves of an added or filled `solution` list (cells 1..=side)
    // as DELTA_BINARY_PACKED, not PLAIN: 4 bytes a cell made snappy's
    // compression of the answers 14% of a list<uint8> Parquet -> Parquet
    // run at -j 1 (perf, 200k puzzles); deltas of -side..side take 5 bits.
    // (Dictionaries stay off: hashing 81 cells a row cost more.) Measured
    // again with callgrind (100k 9x9 rows, snappy list<uint8> in and out,
    // statistics off): PLAIN 0.6% fewer instructions a run but 2.25x the
    // bytes (17.1 MB against 7.6 MB), a dictionary 8.5% more.
    if let Ok(descr) = parquet::arrow::ArrowSchemaConverter::new().convert(schema) {
        for c in 0..descr.num_columns() {
            let root = descr.get_column_root_idx(c);
            let col = descr.column(c);
            if schema.field(root).name() == "solution"
                && col.max_rep_level() > 0
                && matches!(col.physical_type(), Type::INT32 | Type::INT64)
            {
                // No statistics either: their min and max are 1 and the
                // side in every chunk, and computing them cost 820
                // instructions a 9x9 row (callgrind, 100k rows, list<uint8>
                // Parquet -> Parquet: 2.7% of the run).
                b = b
                    .set_column_encoding(col.path().clone(), Encoding::DELTA_BINARY_PACKED)
                    .set_column_dictionary_enabled(col.path().clone(), false)
                    .set_column_statistics_enabled(col.path().clone(), EnabledStatistics::None);
            }
        }
    }
    b.build()
}
