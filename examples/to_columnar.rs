//! Benchmark fixtures: converts a one-puzzle-per-line 9x9 file into the
//! columnar forms `scripts/formats_columnar.sh` measures, written with the
//! same crates the tool reads them with.
//!
//! ```text
//! cargo run --release --example to_columnar -- puzzles.txt OUT
//! ```
//! writes `OUT.str.parquet` (string column `puzzle`, snappy, row groups of
//! 2^20 rows as pyarrow writes by default), `OUT.list.parquet` (the same as
//! `list<uint8>`), `OUT.arrow` (Arrow IPC file, string column, batches of
//! 65,536 rows as pyarrow's feather writer makes them) and `OUT.npy`
//! (`(N, 81)` uint8).

use std::io::{BufRead, Write};
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder, UInt8Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, out] = &args[..] else {
        anyhow::bail!("usage: to_columnar PUZZLES.txt OUT_PREFIX");
    };
    // ARROW_BATCH=N: rows per Arrow IPC record batch (default 65,536; a
    // number past the row count makes one batch, as pyarrow's
    // `write_table` of a table built in one go does). GROUP_ROWS=N: rows
    // per Parquet row group (default 2^20).
    let env = |k: &str, d: usize| -> anyhow::Result<usize> {
        Ok(match std::env::var(k) {
            Ok(v) => v.parse()?,
            Err(_) => d,
        })
    };
    let arrow_batch = env("ARROW_BATCH", 1 << 16)?.max(1);
    let group_rows = env("GROUP_ROWS", 1 << 20)?.max(1);
    let text = std::io::BufReader::new(std::fs::File::open(input)?);
    let cells = |l: &str| -> Vec<u8> {
        l.bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect()
    };
    let props = || {
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(group_rows))
            .build()
    };
    let string_field = Arc::new(Schema::new(vec![Field::new(
        "puzzle",
        DataType::Utf8,
        true,
    )]));
    let item = Arc::new(Field::new("item", DataType::UInt8, true));
    let list_field = Arc::new(Schema::new(vec![Field::new(
        "puzzle",
        DataType::List(item),
        true,
    )]));
    let mut str_pq = ArrowWriter::try_new(
        std::fs::File::create(format!("{out}.str.parquet"))?,
        string_field.clone(),
        Some(props()),
    )?;
    let mut list_pq = ArrowWriter::try_new(
        std::fs::File::create(format!("{out}.list.parquet"))?,
        list_field,
        Some(props()),
    )?;
    let mut arrow = arrow_ipc::writer::FileWriter::try_new(
        std::io::BufWriter::new(std::fs::File::create(format!("{out}.arrow"))?),
        &string_field,
    )?;
    // The .npy body goes to a temporary beside it, the header (which
    // holds the row count) first once the count is known.
    let npy_body = format!("{out}.npy.body");
    let mut npy = std::io::BufWriter::new(std::fs::File::create(&npy_body)?);
    let mut pending = StringBuilder::new();
    let mut pending_rows = 0usize;
    let mut rows = 0usize;
    let mut lines = text.lines();
    loop {
        // 65,536 lines at a time into each writer.
        let mut strings = StringBuilder::new();
        let mut lists = ListBuilder::new(UInt8Builder::new());
        let mut got = 0;
        for l in lines.by_ref() {
            let l = l?;
            let l = l.trim();
            if l.len() != 81 || l.starts_with('#') {
                continue;
            }
            strings.append_value(l);
            pending.append_value(l);
            let c = cells(l);
            lists.values().append_slice(&c);
            lists.append(true);
            npy.write_all(&c)?;
            got += 1;
            if got == 1 << 16 {
                break;
            }
        }
        if got == 0 {
            break;
        }
        rows += got;
        pending_rows += got;
        let strings: ArrayRef = Arc::new(strings.finish());
        let lists: ArrayRef = Arc::new(lists.finish());
        str_pq.write(&RecordBatch::try_from_iter([("puzzle", strings)])?)?;
        list_pq.write(&RecordBatch::try_from_iter([("puzzle", lists)])?)?;
        if pending_rows >= arrow_batch {
            let batch = RecordBatch::try_from_iter([("puzzle", Arc::new(pending.finish()) as _)])?;
            let mut start = 0;
            while start < batch.num_rows() {
                let len = (batch.num_rows() - start).min(arrow_batch);
                arrow.write(&batch.slice(start, len))?;
                start += len;
            }
            pending_rows = 0;
        }
    }
    if pending_rows > 0 {
        let batch = RecordBatch::try_from_iter([("puzzle", Arc::new(pending.finish()) as _)])?;
        arrow.write(&batch)?;
    }
    str_pq.close()?;
    list_pq.close()?;
    arrow.finish()?;
    npy.flush()?;
    drop(npy);
    let mut f = std::io::BufWriter::new(std::fs::File::create(format!("{out}.npy"))?);
    f.write_all(&npy_header(rows))?;
    std::io::copy(&mut std::fs::File::open(&npy_body)?, &mut f)?;
    f.flush()?;
    std::fs::remove_file(&npy_body)?;
    eprintln!("{rows} puzzles written to {out}.*");
    Ok(())
}

/// A version 1.0 `.npy` header for a C-order `(rows, 81)` array of `u8`, as
/// NumPy writes it: the magic, the header length, the dict padded with
/// spaces and a newline so the data starts on a 64-byte boundary.
fn npy_header(rows: usize) -> Vec<u8> {
    let dict = format!("{{'descr': '|u1', 'fortran_order': False, 'shape': ({rows}, 81), }}");
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    let pad = total - 10 - dict.len() - 1;
    let mut h = b"\x93NUMPY\x01\x00".to_vec();
    h.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.extend(std::iter::repeat_n(b' ', pad));
    h.push(b'\n');
    h
}
