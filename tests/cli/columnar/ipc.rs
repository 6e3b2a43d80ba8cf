//! Arrow IPC inputs and outputs: file and stream, from a path or a pipe.

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray};

use super::shared::*;
use super::*;

#[test]
fn arrow_file_stream_and_stdin_pipe() {
    let set = fixtures(3, 30, 60, 9);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let strs: Vec<String> = rows.iter().map(|p| digits(p)).collect();
    let make = |lo: usize, hi: usize| {
        batch(vec![
            (
                "puzzle",
                Arc::new(StringArray::from(strs[lo..hi].to_vec())) as ArrayRef,
            ),
            ("grid", u8_lists(&rows[lo..hi])),
        ])
    };
    let batches = [make(0, 10), make(10, 25), make(25, 30)];
    let check_out = |out: &[Vec<RecordBatch>]| {
        let all: Vec<&RecordBatch> = out.iter().flatten().collect();
        assert_eq!(
            all.iter().map(|b| b.num_rows()).collect::<Vec<_>>(),
            [10, 15, 5]
        );
        let mut k = 0;
        for b in all {
            assert_eq!(b.num_columns(), 3);
            for a in strings(b.column(2)) {
                assert_valid(3, &rows[k], &cells(&a.unwrap(), "", "123456789"));
                k += 1;
            }
        }
    };
    let dir = tempfile::tempdir().unwrap();
    for (stream, ext) in [(false, "arrow"), (true, "arrows")] {
        let path = dir.path().join(format!("in.{ext}"));
        std::fs::write(&path, ipc_bytes(&batches, stream)).unwrap();
        let out = dir.path().join(format!("out.{ext}"));
        solve_to(&path, &out).ok();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(bytes.starts_with(b"ARROW1"), !stream, "format kept");
        check_out(&[read_ipc(&bytes)]);
        // A .parquet name converts.
        let pq = dir.path().join(format!("{ext}.parquet"));
        solve_to(&path, &pq).ok();
        let got = read_parquet(&pq);
        check_out(&[vec![got.slice(0, 10), got.slice(10, 15), got.slice(25, 5)]]);
    }
    // The list column as the puzzle column, by name.
    let path = dir.path().join("in.arrow");
    let o = sb(["count"])
        .arg(&path)
        .args(["--column", "grid", "-o", "-"])
        .ok();
    let counted = read_ipc(&o.stdout);
    assert!(counted
        .iter()
        .all(|b| b.column_by_name("solutions").is_some()));
    // stdin to stdout, as a pipe filter.
    let o = sb(["solve", "-j", "2"])
        .stdin(ipc_bytes(&batches, true))
        .ok();
    assert!(!o.stdout.starts_with(b"ARROW1"));
    check_out(&[read_ipc(&o.stdout)]);
}
