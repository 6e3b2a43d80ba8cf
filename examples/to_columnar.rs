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

use std::io::Write;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, StringBuilder, UInt8Builder};
use arrow_array::{ArrayRef, RecordBatch};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, out] = &args[..] else {
        anyhow::bail!("usage: to_columnar PUZZLES.txt OUT_PREFIX");
    };
    let text = std::fs::read_to_string(input)?;
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.len() == 81 && !l.starts_with('#'))
        .collect();
    let cells = |l: &str| -> Vec<u8> {
        l.bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect()
    };

    let mut strings = StringBuilder::new();
    let mut lists = ListBuilder::new(UInt8Builder::new());
    let mut npy = Vec::with_capacity(lines.len() * 81);
    for l in &lines {
        strings.append_value(l);
        let c = cells(l);
        lists.values().append_slice(&c);
        lists.append(true);
        npy.extend_from_slice(&c);
    }
    let strings: ArrayRef = Arc::new(strings.finish());
    let lists: ArrayRef = Arc::new(lists.finish());

    for (suffix, col) in [("str", strings.clone()), ("list", lists)] {
        let batch = RecordBatch::try_from_iter([("puzzle", col)])?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(1 << 20))
            .build();
        let file = std::fs::File::create(format!("{out}.{suffix}.parquet"))?;
        let mut w = ArrowWriter::try_new(file, batch.schema(), Some(props))?;
        w.write(&batch)?;
        w.close()?;
    }

    let batch = RecordBatch::try_from_iter([("puzzle", strings)])?;
    let file = std::fs::File::create(format!("{out}.arrow"))?;
    let mut w = arrow_ipc::writer::FileWriter::try_new(file, &batch.schema())?;
    let mut start = 0;
    while start < batch.num_rows() {
        let len = (batch.num_rows() - start).min(1 << 16);
        w.write(&batch.slice(start, len))?;
        start += len;
    }
    w.finish()?;

    let mut f = std::io::BufWriter::new(std::fs::File::create(format!("{out}.npy"))?);
    f.write_all(&npy_header(lines.len()))?;
    f.write_all(&npy)?;
    f.flush()?;
    eprintln!("{} puzzles written to {out}.*", lines.len());
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
