//! Parquet in and out (the `parquet` crate's Arrow reader and writer): reads
//! one row group at a time in steps of [`super::ROWS_PER_STEP`] rows, so
//! memory follows the step, not the file; writes one output row group per
//! input row group with the input's compression codec per column.

use std::fs::File;
use std::sync::Arc;

use anyhow::Context;
use arrow_schema::{Schema, SchemaRef};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use super::table::Item;
use super::Data;

/// Where Parquet pages come from: the file, reopened (pages are read on
/// demand, never the whole file), or stdin's bytes.
#[derive(Clone)]
enum Source {
    File(Arc<File>),
    Bytes(bytes::Bytes),
}

/// Opens `data` as Parquet: its Arrow schema, the batches (each row group's
/// last batch marked), and writer properties that keep the input's codecs
/// and row-group size.
pub fn open<'a>(
    name: &str,
    data: Data<'a>,
) -> anyhow::Result<(
    SchemaRef,
    Box<dyn Iterator<Item = Item> + 'a>,
    WriterProperties,
)> {
    let source = match data {
        Data::File(path, _) => Source::File(Arc::new(
            File::open(path).with_context(|| format!("{name}: cannot open"))?,
        )),
        Data::Owned(v) => Source::Bytes(bytes::Bytes::from(v)),
        Data::Stream(_) => anyhow::bail!("{name}: Parquet needs a whole file, not a stream"),
    };
    let bad = |e: parquet::errors::ParquetError| anyhow::anyhow!("{name}: bad Parquet file: {e}");
    let options = ArrowReaderOptions::new();
    let meta = match &source {
        Source::File(f) => ArrowReaderMetadata::load(&**f, options),
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
    // Row groups are ended by hand, one per input row group: never split.
    let biggest = md
        .row_groups()
        .iter()
        .map(|rg| rg.num_rows() as usize)
        .max()
        .unwrap_or(0);
    props = props.set_max_row_group_size(biggest.max(1 << 20) + 1);
    let groups = md.num_row_groups();
    let name = name.to_string();
    let iter = (0..groups).flat_map(move |g| {
        let reader = match &source {
            Source::File(f) => {
                ParquetRecordBatchReaderBuilder::new_with_metadata(FileRef(f.clone()), meta.clone())
                    .with_row_groups(vec![g])
                    .with_batch_size(super::ROWS_PER_STEP)
                    .build()
                    .map(Reader::File)
            }
            Source::Bytes(b) => {
                ParquetRecordBatchReaderBuilder::new_with_metadata(b.clone(), meta.clone())
                    .with_row_groups(vec![g])
                    .with_batch_size(super::ROWS_PER_STEP)
                    .build()
                    .map(Reader::Bytes)
            }
        };
        let name = name.clone();
        let items: Box<dyn Iterator<Item = Item>> = match reader {
            Err(e) => Box::new(std::iter::once(Err(anyhow::anyhow!(
                "{name}: bad Parquet file: row group {g}: {e}"
            )))),
            Ok(r) => Box::new(Marked {
                inner: r.peekable(),
                name,
                group: g,
            }),
        };
        items
    });
    Ok((schema, Box::new(iter), props.build()))
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

enum Reader {
    File(parquet::arrow::arrow_reader::ParquetRecordBatchReader),
    Bytes(parquet::arrow::arrow_reader::ParquetRecordBatchReader),
}

impl Iterator for Reader {
    type Item = Result<arrow_array::RecordBatch, arrow_schema::ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Reader::File(r) | Reader::Bytes(r) => r.next(),
        }
    }
}

/// A row group's batches, the last one marked as ending the group.
struct Marked {
    inner: std::iter::Peekable<Reader>,
    name: String,
    group: usize,
}

impl Iterator for Marked {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let batch = self.inner.next()?;
        let last = self.inner.peek().is_none();
        Some(batch.map(|b| (b, last)).map_err(|e| {
            anyhow::anyhow!(
                "{}: bad Parquet file: row group {}: {e}",
                self.name,
                self.group
            )
        }))
    }
}

/// Writer properties when the input was not Parquet: zstd, which reads and
/// writes fast and is what polars and DuckDB default to.
pub fn default_props() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::ZSTD(Default::default()))
        .build()
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
    b.build()
}
