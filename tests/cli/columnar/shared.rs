//! Parquet and Arrow IPC files for the table tests (here, hostile.rs and
//! conventions.rs): written and read back with the real arrow-rs crates,
//! never by the binary under test.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, UInt8Builder};
use arrow_array::cast::AsArray;
use arrow_array::types::UInt8Type;
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use crate::util::encode;

/// A 9x9 grid as a line of digits, `.` for blanks.
pub fn digits(cells: &[u8]) -> String {
    encode(cells, "123456789", '.')
}

/// A batch of `columns`, each nullable when it holds a null. Logical
/// nulls count: a dictionary's are in its keys and a `Null` array's
/// are all of it, which arrow 60's `try_from_iter` (physical nulls)
/// does not see, and the Parquet writer then refuses the nulls.
pub fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter_with_nullable(columns.into_iter().map(|(name, array)| {
        let nullable = array.logical_null_count() > 0;
        (name, array, nullable)
    }))
    .unwrap()
}

/// `batch` as a Parquet file of row groups of `group_rows`, in `codec`.
pub fn write_parquet(path: &Path, batch: &RecordBatch, group_rows: usize, codec: Compression) {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group_rows))
        .set_compression(codec)
        .build();
    write_parquet_props(path, batch, Some(props));
}

/// `batch` as a Parquet file with the parquet crate's default properties.
pub fn write_parquet_default(path: &Path, batch: &RecordBatch) {
    write_parquet_props(path, batch, None);
}

fn write_parquet_props(path: &Path, batch: &RecordBatch, props: Option<WriterProperties>) {
    let file = std::fs::File::create(path).unwrap();
    let mut w = ArrowWriter::try_new(file, batch.schema(), props).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

/// `batch` as an Arrow IPC file.
pub fn write_arrow(path: &Path, batch: &RecordBatch) {
    std::fs::write(path, ipc_bytes(std::slice::from_ref(batch), false)).unwrap();
}

/// All rows of an Arrow IPC file (not a stream), as one batch.
pub fn read_arrow(path: &Path) -> RecordBatch {
    let file = std::fs::File::open(path).unwrap();
    let r = arrow_ipc::reader::FileReader::try_new(file, None).unwrap();
    let schema = r.schema();
    let batches: Vec<RecordBatch> = r.map(Result::unwrap).collect();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// A Parquet file of one string column `puzzle` (snappy, row groups of
/// `group_rows`).
pub fn write_puzzles(path: &Path, values: StringArray, group_rows: usize) {
    let column = Arc::new(values) as ArrayRef;
    write_parquet(
        path,
        &batch(vec![("puzzle", column)]),
        group_rows,
        Compression::SNAPPY,
    );
}

/// All rows of a Parquet file, as one batch.
pub fn read_parquet(path: &Path) -> RecordBatch {
    let file = std::fs::File::open(path).unwrap();
    let b = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = b.schema().clone();
    let batches: Vec<RecordBatch> = b.build().unwrap().map(Result::unwrap).collect();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// A Parquet file's row-group sizes and its first column chunk's codec.
pub fn parquet_layout(path: &Path) -> (Vec<i64>, Compression) {
    let file = std::fs::File::open(path).unwrap();
    let b = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let md = b.metadata();
    let groups = md.row_groups().iter().map(|g| g.num_rows()).collect();
    let codec = md
        .row_groups()
        .first()
        .map_or(Compression::UNCOMPRESSED, |g| g.column(0).compression());
    (groups, codec)
}

/// The values of a Utf8 column.
pub fn strings(col: &ArrayRef) -> Vec<Option<String>> {
    col.as_string::<i32>()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

/// A `list<u8>` column, a list a row.
pub fn u8_lists(values: &[Vec<u8>]) -> ArrayRef {
    let mut b = ListBuilder::new(UInt8Builder::new());
    for v in values {
        b.values().append_slice(v);
        b.append(true);
    }
    Arc::new(b.finish())
}

/// A `list<u8>` column with null lists (`None`) and null cells.
pub fn u8_lists_with_nulls(values: &[Option<Vec<Option<u8>>>]) -> ArrayRef {
    let mut b = ListBuilder::new(UInt8Builder::new());
    for v in values {
        match v {
            Some(cells) => {
                for c in cells {
                    b.values().append_option(*c);
                }
                b.append(true);
            }
            None => b.append(false),
        }
    }
    Arc::new(b.finish())
}

/// The rows of a `list<u8>` column, `None` for a null list.
pub fn list_rows(col: &ArrayRef) -> Vec<Option<Vec<u8>>> {
    let l = col.as_list::<i32>();
    (0..l.len())
        .map(|i| {
            l.is_valid(i)
                .then(|| l.value(i).as_primitive::<UInt8Type>().values().to_vec())
        })
        .collect()
}

/// `batches` as Arrow IPC: a stream, or a file (`ARROW1`).
pub fn ipc_bytes(batches: &[RecordBatch], stream: bool) -> Vec<u8> {
    let schema = batches[0].schema();
    let mut buf = Vec::new();
    if stream {
        let mut w = arrow_ipc::writer::StreamWriter::try_new(&mut buf, &schema).unwrap();
        for b in batches {
            w.write(b).unwrap();
        }
        w.finish().unwrap();
    } else {
        let mut w = arrow_ipc::writer::FileWriter::try_new(&mut buf, &schema).unwrap();
        for b in batches {
            w.write(b).unwrap();
        }
        w.finish().unwrap();
    }
    buf
}

/// The batches of Arrow IPC bytes, file or stream.
pub fn read_ipc(bytes: &[u8]) -> Vec<RecordBatch> {
    if bytes.starts_with(b"ARROW1") {
        arrow_ipc::reader::FileReader::try_new(std::io::Cursor::new(bytes.to_vec()), None)
            .unwrap()
            .map(Result::unwrap)
            .collect()
    } else {
        arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(bytes.to_vec()), None)
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }
}
