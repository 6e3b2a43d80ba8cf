//! Probes of issue 35, kept as regressions: what a hostile user tried on the
//! compressed and table paths, each with the rule behind it (every format
//! treats labels, nulls and bad rows as the text path does; every error
//! names the file and whether reading or writing). Real files: gzip and
//! zstd made by the flate2 and zstd crates (and by the gzip, zstd and
//! pzstd tools when installed), Parquet and Arrow by the arrow-rs crates.

use std::io::Write;
use std::process::{Command as Std, Stdio};

use crate::util::*;

/// Three real puzzles and their lines, and the plain run's answers.
fn puzzles() -> (String, Vec<u8>) {
    let text: String = (0..3u64)
        .map(|k| {
            encode(
                &blank_out(&full_grid(3, 40 + k), 60, 50 + k),
                "123456789",
                '.',
            ) + "\n"
        })
        .collect();
    let plain = sb(["solve", "-j", "1"]).stdin(text.as_bytes()).ok();
    assert_answers_9x9(&puzzle_lines(&text), &plain.stdout());
    (text, plain.stdout.clone())
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn have(tool: &str) -> bool {
    Std::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `tool ARGS` with `input` on stdin: (status code, stdout, stderr).
fn pipe(tool: &str, args: &[&str], input: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let mut child = Std::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let o = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        o.status.code(),
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `packed` solved from a file (mapped path, then `--no-mmap`) and from
/// stdin: each run must give `want` on stdout with exit 0.
fn reads_as(packed: &[u8], want: &[u8], what: &str) {
    let (_dir, path) = temp_file("in.bin", packed);
    let p = path.to_str().unwrap();
    for (args, stdin) in [
        (vec!["solve", p], &b""[..]),
        (vec!["solve", p, "--no-mmap"], &b""[..]),
        (vec!["solve"], packed),
    ] {
        let o = sb(&args).stdin(stdin).note(format!("{what} {args:?}")).ok();
        assert!(o.stdout == want, "{what} {args:?}: other answers");
    }
}

/// A zstd skippable frame (RFC 8878 section 3.1.2: magic 0x184D2A50..5F,
/// little-endian, then the payload's length and the payload), as `pzstd`
/// writes one in front of each frame (holding the frame's size).
fn skippable(magic_low: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0x50 | magic_low, 0x2a, 0x4d, 0x18];
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Item 4: zstd data that starts with a skippable frame was "binary data,
/// not text".
#[test]
fn zstd_with_a_skippable_frame_first_is_read() {
    let (text, want) = puzzles();
    let frame = zstd::stream::encode_all(text.as_bytes(), 3).unwrap();
    let mut packed = skippable(0, &(frame.len() as u32).to_le_bytes());
    packed.extend_from_slice(&frame);
    // Another magic of the range, a longer payload, and a second pair.
    packed.extend(skippable(0xf, b"any user data"));
    packed.extend_from_slice(&zstd::stream::encode_all(&b""[..], 1).unwrap());
    if have("zstd") {
        // The reference decoder reads it as the plain text.
        let (code, out, err) = pipe("zstd", &["-dc"], &packed);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(out, text.as_bytes());
    }
    reads_as(&packed, &want, "skippable frame");
    if have("pzstd") {
        let (code, packed, err) = pipe("pzstd", &["-c", "-q"], text.as_bytes());
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(packed[1..4], [0x2a, 0x4d, 0x18], "pzstd starts with one");
        reads_as(&packed, &want, "pzstd");
    } else {
        eprintln!("pzstd not installed: the hand-made skippable frame only");
    }
}

/// Item 9: gzip data followed by zero padding read as GNU gzip reads it;
/// followed by another codec's data, a message that says so, not
/// `invalid gzip header`.
#[test]
fn gzip_then_zeros_or_another_codec() {
    let (text, want) = puzzles();
    let bytes = text.as_bytes();
    let mut padded = gzip(bytes);
    padded.resize(padded.len() + 4096, 0);
    if have("gzip") {
        // GNU gzip gives the plain text (1.12 says nothing of the zeros;
        // older ones warn "trailing zero bytes ignored").
        let (_, out, err) = pipe("gzip", &["-dc"], &padded);
        assert_eq!(out, bytes, "{err}");
    }
    reads_as(&padded, &want, "gzip + zeros");
    // Zero padding between members too (the second member is data).
    let mut two = gzip(&bytes[..82]);
    two.resize(two.len() + 100, 0);
    two.extend(gzip(&bytes[82..]));
    reads_as(&two, &want, "gzip, zeros, gzip");

    let first = gzip(bytes);
    let end = first.len();
    let zstd_member = zstd::stream::encode_all(&b"more\n"[..], 3).unwrap();
    let mut then_zstd = first.clone();
    then_zstd.extend_from_slice(&zstd_member);
    let mut then_zeros_zstd = first.clone();
    then_zeros_zstd.resize(end + 10, 0);
    then_zeros_zstd.extend_from_slice(&zstd_member);
    let mut then_text = first.clone();
    then_text.extend_from_slice(b"PK not gzip");
    for (bytes, want) in [
        (
            then_zstd,
            format!("gzip data ends at byte {end} and zstd data follows"),
        ),
        (
            then_zeros_zstd,
            format!(
                "gzip data ends at byte {end} and, after zero bytes, zstd data follows at byte {}",
                end + 10
            ),
        ),
        (
            then_text,
            format!("gzip data ends at byte {end} and other bytes follow (\"PK not\")"),
        ),
    ] {
        let (dir, path) = temp_file("in.gz", &bytes);
        let out = dir.path().join("a.txt");
        let o = solve_to(&path, &out).code(2);
        let err = o.stderr();
        assert!(
            err.contains(&format!("{}: {want}", path.display())),
            "{want:?} not in {err}"
        );
        assert!(!err.contains("invalid gzip header"), "{err}");
        assert!(!err.contains("does not decompress"), "{err}");
        assert!(!out.exists(), "no output for a failed read");
        let o = sb(["solve"]).stdin(&bytes).output();
        assert!(
            o.stderr().contains(&format!("<stdin>: {want}")),
            "{}",
            o.stderr()
        );
    }
}

#[cfg(feature = "columnar")]
mod tables {
    use super::*;
    use std::path::Path;
    use std::sync::Arc;

    use arrow_array::builder::{FixedSizeListBuilder, UInt8Builder};
    use arrow_array::cast::AsArray;
    use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};

    use crate::columnar::clashing;
    use crate::columnar::shared::*;

    /// Item 1: `--overwrite` promises to replace every existing solution;
    /// a bad row's old label stayed, unchecked, in Parquet and Arrow (CSV
    /// writes the error mark). Puzzles `[null, clashing, 81 blanks, good]`,
    /// labels `[STALE, grid, grid, grid]`, `solve --unique --overwrite`.
    #[test]
    fn overwrite_leaves_no_stale_label_on_a_bad_row() {
        let good = blank_out(&full_grid(3, 71), 50, 72);
        let grids: Vec<Vec<u8>> = (0..4).map(|k| full_grid(3, 80 + k)).collect();
        let puzzles = [
            None,
            Some(clashing()),
            Some(vec![0u8; 81]),
            Some(good.clone()),
        ];
        let dir = tempfile::tempdir().unwrap();
        // Parquet with a string solution column.
        let strings = |v: &[Option<Vec<u8>>]| -> ArrayRef {
            Arc::new(StringArray::from(
                v.iter()
                    .map(|c| c.as_ref().map(|c| digits(c)))
                    .collect::<Vec<_>>(),
            ))
        };
        let mut labels: Vec<Option<String>> = grids.iter().map(|g| Some(digits(g))).collect();
        labels[0] = Some("STALE1".into());
        let input = RecordBatch::try_from_iter([
            ("puzzle", strings(&puzzles)),
            (
                "solution",
                Arc::new(StringArray::from(labels.clone())) as ArrayRef,
            ),
        ])
        .unwrap();
        let path = dir.path().join("in.parquet");
        write_parquet_default(&path, &input);
        // Arrow with list<u8> puzzle and solution columns.
        let lists = |v: &[Option<Vec<u8>>]| {
            u8_lists_with_nulls(
                &v.iter()
                    .map(|c| c.as_ref().map(|c| c.iter().map(|&x| Some(x)).collect()))
                    .collect::<Vec<_>>(),
            )
        };
        let mut stale = grids.clone();
        stale[0] = vec![1; 81];
        let arrow_input = RecordBatch::try_from_iter([
            ("puzzle", lists(&puzzles)),
            (
                "solution",
                lists(&stale.iter().cloned().map(Some).collect::<Vec<_>>()),
            ),
        ])
        .unwrap();
        let apath = dir.path().join("in.arrow");
        write_arrow(&apath, &arrow_input);
        for (input, out, arrow) in [(&path, "out.parquet", false), (&apath, "out.arrow", true)] {
            let out = dir.path().join(out);
            let o = sb(["solve"])
                .arg(input)
                .args(["--unique", "--overwrite", "-o"])
                .arg(&out)
                .code(1);
            let err = o.stderr();
            for (row, why) in [
                (1, "no puzzle (null)"),
                (2, "duplicate given"),
                (3, "multiple solutions"),
            ] {
                assert!(
                    err.contains(&format!("{}:row {row}: ", input.display())) && err.contains(why),
                    "row {row}: {err}"
                );
            }
            let answers: Vec<Option<Vec<u8>>> = if arrow {
                list_rows(read_arrow(&out).column(1))
            } else {
                let got = read_parquet(&out);
                let col = got.column(1).as_string::<i32>();
                (0..col.len())
                    .map(|i| {
                        col.is_valid(i)
                            .then(|| cells(col.value(i), "", "123456789"))
                    })
                    .collect()
            };
            assert_eq!(
                answers[..3],
                [None, None, None],
                "{}: bad rows",
                out.display()
            );
            assert_valid(3, &good, answers[3].as_ref().unwrap());
            // `check` of the output: the good row passes, the bad ones have
            // no answer (and no label that looks like one).
            let o = sb(["check"]).arg(&out).output();
            assert!(
                o.stdout().contains("4 records checked, 1 good, 3 bad"),
                "{}",
                o.stdout()
            );
        }
        // Without --overwrite a bad row's label stays, as in CSV (a wrong
        // label is the user's to see).
        let out = dir.path().join("kept.parquet");
        sb(["solve"])
            .arg(&path)
            .args(["--unique", "-o"])
            .arg(&out)
            .code(1);
        let got = read_parquet(&out);
        let col = got.column(1).as_string::<i32>();
        for (k, label) in labels.iter().enumerate().take(3) {
            assert_eq!(Some(col.value(k)), label.as_deref(), "row {k}");
        }
    }

    /// Item 5: a null cell inside a list puzzle was read as a blank: a
    /// different puzzle, solved, exit 0. The same for a null grid row of a
    /// nested (fixed-size) list, and for `check`.
    #[test]
    fn a_null_cell_in_a_list_puzzle_is_a_bad_row() {
        let set: Vec<Vec<u8>> = (0..3)
            .map(|k| blank_out(&full_grid(3, 90 + k), 55, 91 + k))
            .collect();
        let mut rows: Vec<Option<Vec<Option<u8>>>> = set
            .iter()
            .map(|p| Some(p.iter().map(|&c| Some(c)).collect()))
            .collect();
        // Row 1, cell 5: a null where the puzzle has a blank; the row is
        // still solvable, which is what made the mistake silent.
        let blank = set[1].iter().position(|&c| c == 0).unwrap();
        rows[1].as_mut().unwrap()[blank] = None;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.parquet");
        write_parquet_default(
            &path,
            &RecordBatch::try_from_iter([("puzzle", u8_lists_with_nulls(&rows))]).unwrap(),
        );
        let out = dir.path().join("out.parquet");
        let o = solve_to(&path, &out).code(1);
        let err = o.stderr();
        assert!(
            err.contains(&format!(
                "{}:row 2: bad Parquet row: cell {} is null",
                path.display(),
                blank + 1
            )),
            "{err}"
        );
        let got = list_rows(read_parquet(&out).column(1));
        assert_eq!(got[1], None);
        for k in [0, 2] {
            assert_valid(3, &set[k], got[k].as_ref().unwrap());
        }

        // A fixed-size list of 9 fixed-size row lists, row 2's grid row 4
        // null (its nine slots hold zeros, which read as blanks).
        let mut b = FixedSizeListBuilder::new(FixedSizeListBuilder::new(UInt8Builder::new(), 9), 9);
        for (k, p) in set.iter().enumerate() {
            for (r, line) in p.chunks(9).enumerate() {
                let inner = b.values();
                if k == 2 && r == 3 {
                    inner.values().append_slice(&[0; 9]);
                    inner.append(false);
                } else {
                    inner.values().append_slice(line);
                    inner.append(true);
                }
            }
            b.append(true);
        }
        let nested = dir.path().join("nested.arrow");
        write_arrow(
            &nested,
            &RecordBatch::try_from_iter([("puzzle", Arc::new(b.finish()) as ArrayRef)]).unwrap(),
        );
        let o = sb(["solve"]).arg(&nested).args(["-o", "/dev/null"]).code(1);
        let err = o.stderr();
        assert!(
            err.contains(&format!(
                // Position 2: row 3, as rows count from 1.
                "{}:row 3: bad Arrow row: grid row 4 is null",
                nested.display()
            )),
            "{err}"
        );
        // `check` calls the puzzle bad too.
        let o = sb(["check"]).arg(&path).arg(&out).output();
        let report = o.stdout();
        assert!(
            report.contains(&format!(
                ":row 2: puzzle is bad: bad Parquet row: cell {} is null",
                blank + 1
            )),
            "{report}"
        );
    }

    /// Item 7: a write error reads as one: `OUT: cannot write: REASON`,
    /// the reason once, not `OUT (reading IN): External: REASON: REASON`;
    /// for Parquet, Arrow and `.npy` alike.
    #[test]
    fn write_errors_name_the_output_once() {
        if !Path::new("/dev/full").exists() {
            eprintln!("skipped: no /dev/full");
            return;
        }
        // Answers well past the output's 64 KiB buffer, so the writers
        // themselves meet the error, not only the last flush.
        let rows: Vec<Vec<u8>> = (0..3000)
            .map(|k| blank_out(&full_grid(3, 300 + k), 50, 301 + k))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let strings: ArrayRef = Arc::new(StringArray::from(
            rows.iter().map(|r| digits(r)).collect::<Vec<_>>(),
        ));
        let batch = RecordBatch::try_from_iter([("puzzle", strings)]).unwrap();
        let pq = dir.path().join("big.parquet");
        write_parquet_default(&pq, &batch);
        let arrow = dir.path().join("big.arrow");
        write_arrow(&arrow, &batch);
        let npy_path = dir.path().join("big.npy");
        std::fs::write(&npy_path, npy("|u1", "(3000, 81)", &rows)).unwrap();
        for input in [&pq, &arrow, &npy_path] {
            let o = sb(["solve"]).arg(input).args(["-o", "/dev/full"]).code(2);
            let err = o.stderr();
            assert!(
                err.starts_with("sudoku-bulk: /dev/full: cannot write: No space left on device"),
                "{}: {err}",
                input.display()
            );
            assert_eq!(err.matches("No space left").count(), 1, "{err}");
            assert!(!err.contains("reading"), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }

    /// Item 7: column names are UTF-8 text and shown so; a message says
    /// "an Arrow table", "an Arrow IPC file".
    #[test]
    fn column_names_are_text_and_articles_agree() {
        let dir = tempfile::tempdir().unwrap();
        let name = "Rätsel grid ✓";
        let batch = RecordBatch::try_from_iter([(
            name,
            Arc::new(StringArray::from(vec!["1"])) as ArrayRef,
        )])
        .unwrap();
        let arrow = dir.path().join("r.arrow");
        write_arrow(&arrow, &batch);
        let o = sb(["solve"]).arg(&arrow).code(2);
        let err = o.stderr();
        assert!(err.contains("among \"Rätsel grid ✓\" (Utf8)"), "{err}");
        // A right-to-left override is still escaped.
        let batch = RecordBatch::try_from_iter([(
            "a\u{202e}b",
            Arc::new(StringArray::from(vec!["1"])) as ArrayRef,
        )])
        .unwrap();
        let rtl = dir.path().join("rtl.arrow");
        write_arrow(&rtl, &batch);
        let err = sb(["solve"]).arg(&rtl).output().stderr();
        assert!(err.contains(r#""a\u{202e}b" (Utf8)"#), "{err}");

        let o = sb(["solve"])
            .arg(&arrow)
            .args(["-o", "x.csv", "--column", name])
            .code(2);
        let err = o.stderr();
        assert!(err.contains("(an Arrow table)"), "{err}");
        let (_d, text) = temp_file("p.txt", b"1234\n");
        let o = sb(["check"]).arg(&text).arg(&arrow).output();
        assert!(
            o.stderr().contains("is an Arrow IPC file but"),
            "{}",
            o.stderr()
        );
    }
}

/// Item 10: a 0-byte `x.parquet` (or `.arrow`, `.npy`, inside a
/// compression extension too) was read as empty text: an empty answer
/// file and exit 0. Its name says what it was meant to be: refused.
#[test]
fn an_empty_file_named_as_a_table_or_array_is_refused() {
    for (name, what) in [
        ("x.parquet", "a Parquet file"),
        ("x.arrow", "an Arrow IPC file"),
        ("x.arrows", "an Arrow IPC stream"),
        ("x.npy", "a NumPy .npy file"),
    ] {
        let (dir, path) = temp_file(name, b"");
        let out = dir.path().join("out");
        for cmd in ["solve", "count"] {
            let o = sb([cmd]).arg(&path).arg("-o").arg(&out).note(name).code(2);
            let err = o.stderr();
            assert!(
                err.contains(&format!(
                    "{}: empty file (0 bytes), not {what}",
                    path.display()
                )),
                "{err}"
            );
            assert!(!out.exists());
        }
        let o = sb(["check"]).arg(&path).code(2);
        assert!(
            o.stderr().contains("empty file (0 bytes)"),
            "{}",
            o.stderr()
        );
    }
    // Compressed to nothing: the name inside the compression extension.
    let (_dir, path) = temp_file("x.npy.gz", &gzip(b""));
    let o = sb(["solve"]).arg(&path).code(2);
    assert!(
        o.stderr().contains("not a NumPy .npy file"),
        "{}",
        o.stderr()
    );
    // An empty text file is still no records, exit 0; so is empty stdin.
    let (_dir, path) = temp_file("x.txt", b"");
    sb(["solve"]).arg(&path).ok();
    sb(["solve"]).ok();
}

/// Item 11: an option only text input can honour was ignored on table and
/// array input (`--keep-lines`); refused, naming both.
#[test]
fn text_only_options_on_tables_and_arrays_are_refused() {
    let rows: Vec<Vec<u8>> = (0..3)
        .map(|k| blank_out(&full_grid(3, 500 + k), 50, 501 + k))
        .collect();
    let (dir, npy_path) = temp_file("p.npy", &npy("|u1", "(3, 81)", &rows));
    let mut inputs = vec![(npy_path, "a NumPy .npy file")];
    #[cfg(feature = "columnar")]
    {
        use std::sync::Arc;
        let strings: arrow_array::ArrayRef = Arc::new(arrow_array::StringArray::from(
            rows.iter()
                .map(|r| encode(r, "123456789", '.'))
                .collect::<Vec<_>>(),
        ));
        let batch = arrow_array::RecordBatch::try_from_iter([("puzzle", strings)]).unwrap();
        let path = dir.path().join("p.parquet");
        crate::columnar::shared::write_parquet_default(&path, &batch);
        inputs.push((path, "a Parquet file"));
    }
    for (path, what) in &inputs {
        let p = path.to_str().unwrap();
        let mut cases = vec![
            (vec!["--keep-lines"], "--keep-lines"),
            (vec!["--chunk-size", "4096"], "--chunk-size"),
        ];
        if what.contains("NumPy") {
            cases.push((vec!["--column", "puzzle"], "--column"));
        }
        for (flags, option) in cases {
            let out = dir.path().join("out.txt");
            let mut args = vec!["solve", p, "-o", out.to_str().unwrap()];
            args.extend(flags);
            let o = sb(&args).note(format!("{args:?}")).code(2);
            let err = o.stderr();
            assert!(
                err.contains(&format!("{}: {option} applies to", path.display()))
                    && err.contains(&format!("not to {what}")),
                "{err}"
            );
            assert!(!out.exists());
        }
        // Without them the same input runs.
        sb(["solve", p, "-o", "/dev/null"]).ok();
    }
}
