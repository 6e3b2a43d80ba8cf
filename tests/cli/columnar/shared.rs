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

pub fn write_parquet(path: &Path, batch: &RecordBatch, group_rows: usize, codec: Compression) {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group_rows))
        .set_compression(codec)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut w = ArrowWriter::try_new(file, batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
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

/// All rows of a Parquet file, plus its row-group sizes and first codec.
pub fn read_parquet(path: &Path) -> (RecordBatch, Vec<i64>, Compression) {
    let file = std::fs::File::open(path).unwrap();
    let b = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let md = b.metadata().clone();
    let schema = b.schema().clone();
    let batches: Vec<RecordBatch> = b.build().unwrap().map(Result::unwrap).collect();
    let groups = md.row_groups().iter().map(|g| g.num_rows()).collect();
    let codec = md
        .row_groups()
        .first()
        .map_or(Compression::UNCOMPRESSED, |g| g.column(0).compression());
    (
        arrow_select::concat::concat_batches(&schema, &batches).unwrap(),
        groups,
        codec,
    )
}

pub fn strings(col: &ArrayRef) -> Vec<Option<String>> {
    col.as_string::<i32>()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

pub fn u8_lists(values: &[Vec<u8>]) -> ArrayRef {
    let mut b = ListBuilder::new(UInt8Builder::new());
    for v in values {
        b.values().append_slice(v);
        b.append(true);
    }
    Arc::new(b.finish())
}

pub fn list_rows(col: &ArrayRef) -> Vec<Option<Vec<u8>>> {
    let l = col.as_list::<i32>();
    (0..l.len())
        .map(|i| {
            l.is_valid(i)
                .then(|| l.value(i).as_primitive::<UInt8Type>().values().to_vec())
        })
        .collect()
}

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
