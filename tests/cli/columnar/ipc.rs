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

/// A record batch (and a Parquet row group) longer than a solving step
/// (32,768 rows) is cut into step-sized slices for the workers and the
/// output: every answer still completes its own puzzle, in row order, the
/// puzzle column comes back unchanged, and the answers are byte-identical
/// at -j 1 and -j 2 and between one big batch and many small ones.
#[test]
fn a_batch_longer_than_a_step_is_solved_in_slices() {
    const ROWS: usize = 40_000;
    // 400 distinct puzzles, repeated: the slicing is under test, not the
    // solver, and 40,000 full grids would take longer to make than solve.
    let set = fixtures(3, 400, 45, 11);
    let rows: Vec<Vec<u8>> = (0..ROWS).map(|k| set[k % set.len()].0.clone()).collect();
    let strs: Vec<String> = rows.iter().map(|p| digits(p)).collect();
    let one = batch(vec![
        (
            "puzzle",
            Arc::new(StringArray::from(strs.clone())) as ArrayRef,
        ),
        ("grid", u8_lists(&rows)),
    ]);
    let many: Vec<RecordBatch> = (0..ROWS)
        .step_by(7_000)
        .map(|at| one.slice(at, 7_000.min(ROWS - at)))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let inputs = [
        ("one.arrow", ipc_bytes(std::slice::from_ref(&one), false)),
        ("one.arrows", ipc_bytes(std::slice::from_ref(&one), true)),
        ("many.arrow", ipc_bytes(&many, false)),
    ];
    let mut seen: Option<Vec<u8>> = None;
    let mut same = |text: Vec<u8>, what: &str| match &seen {
        None => seen = Some(text),
        Some(first) => assert!(*first == text, "{what}: answers differ"),
    };
    for (name, bytes) in &inputs {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        for j in ["1", "2"] {
            let out = dir.path().join(format!("out-{j}-{name}"));
            solve_to(&path, &out).args(["-j", j]).ok();
            let back = read_ipc(&std::fs::read(&out).unwrap());
            assert!(
                back.iter().all(|b| b.num_rows() <= 1 << 15),
                "{name}: sliced"
            );
            let mut text = Vec::new();
            let mut k = 0;
            for b in &back {
                for (p, a) in strings(b.column(0)).into_iter().zip(strings(b.column(2))) {
                    assert_eq!(p.as_deref(), Some(strs[k].as_str()), "{name}: row {k}");
                    let a = a.unwrap();
                    assert_valid(3, &rows[k], &cells(&a, "", "123456789"));
                    text.extend_from_slice(a.as_bytes());
                    text.push(b'\n');
                    k += 1;
                }
            }
            assert_eq!(k, ROWS, "{name}: one answer per row");
            same(text, name);
        }
    }
    // The list column as a one-row-group Parquet file (read in quarter
    // steps), answered as text lines.
    let pq = dir.path().join("lists.parquet");
    write_parquet(
        &pq,
        &batch(vec![("puzzle", u8_lists(&rows))]),
        ROWS,
        ::parquet::basic::Compression::SNAPPY,
    );
    for j in ["1", "2"] {
        let out = dir.path().join(format!("lists-{j}.txt"));
        solve_to(&pq, &out).args(["-j", j]).ok();
        same(std::fs::read(&out).unwrap(), "list Parquet");
    }
}

/// The body compression of the first record batch of an Arrow IPC file,
/// read from its footer and that batch's message header.
fn ipc_codec(bytes: &[u8]) -> Option<arrow_ipc::CompressionType> {
    let end = bytes.len() - 10;
    let footer_len = u32::from_le_bytes(bytes[end..end + 4].try_into().unwrap()) as usize;
    let footer = arrow_ipc::root_as_footer(&bytes[end - footer_len..end]).unwrap();
    let block = footer.recordBatches().unwrap().get(0);
    let at = block.offset() as usize;
    // A continuation marker, the metadata length, the message.
    assert_eq!(&bytes[at..at + 4], &[0xFF; 4]);
    let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
    let message = arrow_ipc::root_as_message(&bytes[at + 8..at + 8 + len]).unwrap();
    message
        .header_as_record_batch()
        .unwrap()
        .compression()
        .map(|c| c.codec())
}

/// Answers between Parquet and Arrow IPC keep the input's codec where the
/// other format has it: a zstd Parquet file's Arrow answers are zstd, an
/// LZ4 one's LZ4, a snappy one's uncompressed (IPC has no snappy); an LZ4
/// Arrow file's Parquet answers are LZ4_RAW, an uncompressed one's zstd
/// (the default). Every answer still completes its puzzle.
#[test]
fn codecs_follow_the_input_across_formats() {
    use ::parquet::basic::Compression;
    use arrow_ipc::CompressionType;
    let set = fixtures(3, 20, 50, 5);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let strs: Vec<String> = rows.iter().map(|p| digits(p)).collect();
    let b = batch(vec![(
        "puzzle",
        Arc::new(StringArray::from(strs)) as ArrayRef,
    )]);
    let dir = tempfile::tempdir().unwrap();
    let answered = |batches: &[RecordBatch]| {
        let mut k = 0;
        for b in batches {
            for a in strings(b.column(1)) {
                assert_valid(3, &rows[k], &cells(&a.unwrap(), "", "123456789"));
                k += 1;
            }
        }
        assert_eq!(k, rows.len());
    };
    for (codec, want) in [
        (
            Compression::ZSTD(Default::default()),
            Some(CompressionType::ZSTD),
        ),
        (Compression::LZ4_RAW, Some(CompressionType::LZ4_FRAME)),
        (Compression::SNAPPY, None),
    ] {
        let pq = dir.path().join("in.parquet");
        write_parquet(&pq, &b, 1 << 20, codec);
        let out = dir.path().join("out.arrow");
        solve_to(&pq, &out).ok();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(ipc_codec(&bytes), want, "{codec:?} Parquet to Arrow");
        answered(&read_ipc(&bytes));
    }
    for (codec, want) in [
        (Some(CompressionType::LZ4_FRAME), Compression::LZ4_RAW),
        (None, Compression::ZSTD(Default::default())),
    ] {
        let mut buf = Vec::new();
        let opts = arrow_ipc::writer::IpcWriteOptions::default()
            .try_with_compression(codec)
            .unwrap();
        let mut w =
            arrow_ipc::writer::FileWriter::try_new_with_options(&mut buf, &b.schema(), opts)
                .unwrap();
        w.write(&b).unwrap();
        w.finish().unwrap();
        drop(w);
        assert_eq!(ipc_codec(&buf), codec);
        let path = dir.path().join("in.arrow");
        std::fs::write(&path, &buf).unwrap();
        let out = dir.path().join("out.parquet");
        solve_to(&path, &out).ok();
        assert_eq!(parquet_layout(&out).1, want, "{codec:?} Arrow to Parquet");
        answered(&[read_parquet(&out)]);
    }
}

/// Every column chunk's codec of a Parquet file, all row groups.
fn all_parquet_codecs(path: &std::path::Path) -> Vec<::parquet::basic::Compression> {
    use ::parquet::file::reader::FileReader;
    let r = ::parquet::file::reader::SerializedFileReader::new(std::fs::File::open(path).unwrap())
        .unwrap();
    let md = r.metadata();
    md.row_groups()
        .iter()
        .flat_map(|g| g.columns().iter().map(|c| c.compression()))
        .collect()
}

/// `--compression` names the codec of every column of a table output,
/// whatever the input's: a snappy Parquet file (an `id` column beside the
/// puzzles, two row groups) solved, counted and converted into each
/// Parquet codec, and an LZ4 Arrow file solved into each Arrow codec, read
/// back from the files' own metadata; the answers still complete their
/// puzzles. Snappy or gzip for Arrow, and any codec for answer lines, is a
/// usage error before any output exists.
#[test]
fn compression_names_the_codec_of_every_table_column() {
    use ::parquet::basic::Compression;
    use arrow_array::Int64Array;
    use arrow_ipc::CompressionType;
    let set = fixtures(3, 24, 50, 43);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let strs: Vec<String> = rows.iter().map(|p| digits(p)).collect();
    let b = batch(vec![
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..rows.len() as i64)) as ArrayRef,
        ),
        (
            "puzzle",
            Arc::new(StringArray::from(strs.clone())) as ArrayRef,
        ),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("in.parquet");
    write_parquet(&pq, &b, 12, Compression::SNAPPY);
    let answered = |got: &RecordBatch| {
        assert_eq!(got.num_rows(), rows.len());
        assert_eq!(
            strings(got.column(1)),
            strs.iter().cloned().map(Some).collect::<Vec<_>>()
        );
        for (k, a) in strings(got.column(2)).into_iter().enumerate() {
            assert_valid(3, &rows[k], &cells(&a.unwrap(), "", "123456789"));
        }
    };
    for (name, want) in [
        ("none", Compression::UNCOMPRESSED),
        ("snappy", Compression::SNAPPY),
        ("zstd", Compression::ZSTD(Default::default())),
        ("gzip", Compression::GZIP(Default::default())),
        ("lz4", Compression::LZ4_RAW),
    ] {
        let out = dir.path().join(format!("solved-{name}.parquet"));
        solve_to(&pq, &out).args(["--compression", name]).ok();
        let codecs = all_parquet_codecs(&out);
        assert_eq!(codecs.len(), 2 * 3, "two row groups of three columns");
        assert!(codecs.iter().all(|c| *c == want), "{name}: {codecs:?}");
        answered(&read_parquet(&out));
        let counted = dir.path().join(format!("counted-{name}.parquet"));
        sb(["count"])
            .arg(&pq)
            .arg("-o")
            .arg(&counted)
            .args(["--compression", name])
            .ok();
        assert!(
            all_parquet_codecs(&counted).iter().all(|c| *c == want),
            "count {name}"
        );
        let converted = dir.path().join(format!("converted-{name}.parquet"));
        sb(["convert"])
            .arg(&pq)
            .arg("-o")
            .arg(&converted)
            .args(["--compression", name])
            .ok();
        let codecs = all_parquet_codecs(&converted);
        assert!(
            !codecs.is_empty() && codecs.iter().all(|c| *c == want),
            "convert {name}"
        );
        assert_eq!(
            read_parquet(&converted),
            read_parquet(&pq),
            "convert keeps the rows"
        );
    }
    // Without the flag the input's codec holds (snappy), as before.
    let out = dir.path().join("kept.parquet");
    solve_to(&pq, &out).ok();
    assert!(all_parquet_codecs(&out)
        .iter()
        .all(|c| *c == Compression::SNAPPY));

    let mut buf = Vec::new();
    let opts = arrow_ipc::writer::IpcWriteOptions::default()
        .try_with_compression(Some(CompressionType::LZ4_FRAME))
        .unwrap();
    let mut w =
        arrow_ipc::writer::FileWriter::try_new_with_options(&mut buf, &b.schema(), opts).unwrap();
    w.write(&b).unwrap();
    w.finish().unwrap();
    drop(w);
    let arrow = dir.path().join("in.arrow");
    std::fs::write(&arrow, &buf).unwrap();
    for (name, want) in [
        ("none", None),
        ("zstd", Some(CompressionType::ZSTD)),
        ("lz4", Some(CompressionType::LZ4_FRAME)),
    ] {
        let out = dir.path().join(format!("solved-{name}.arrow"));
        solve_to(&arrow, &out).args(["--compression", name]).ok();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(ipc_codec(&bytes), want, "{name} Arrow");
        let got = read_ipc(&bytes);
        answered(&arrow_select::concat::concat_batches(&got[0].schema(), &got).unwrap());
    }
    for name in ["snappy", "gzip"] {
        let out = dir.path().join(format!("refused-{name}.arrow"));
        let ran = solve_to(&arrow, &out).args(["--compression", name]).code(2);
        assert!(
            ran.stderr().contains(&format!(
                "--compression {name}: Arrow IPC bodies are compressed with zstd or lz4 (or none)"
            )),
            "{}",
            ran.stderr()
        );
        assert!(!out.exists(), "no output left");
    }
    let out = dir.path().join("answers.txt");
    let ran = solve_to(&pq, &out).args(["--compression", "zstd"]).code(2);
    assert!(ran
        .stderr()
        .contains("--compression zstd applies to Parquet and Arrow outputs"));
    assert!(!out.exists());
    let text = dir.path().join("in.txt");
    std::fs::write(&text, strs.join("\n") + "\n").unwrap();
    let ran = solve_to(&text, dir.path().join("t.txt"))
        .args(["--compression", "zstd"])
        .code(2);
    assert!(ran
        .stderr()
        .contains("--compression zstd applies to Parquet and Arrow outputs"));
}
