//! Columnar and array inputs: Parquet, Arrow IPC (file and stream) and NumPy
//! `.npy` files written here with the real crates (and with pyarrow/numpy
//! when a Python with them is at hand: `$SUDOKU_BULK_PYTHON` or `python3`),
//! solved by the real binary, every answer checked by `assert_valid`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command as Std;

use crate::util::*;

/// `count` puzzles of box size `b`: (puzzle, its full grid) pairs; about
/// `blank`% of cells blanked, so some have several solutions.
fn fixtures(b: usize, count: usize, blank: usize, seed: u64) -> Vec<(Vec<u8>, Vec<u8>)> {
    (0..count as u64)
        .map(|k| {
            let grid = full_grid(b, seed * 1000 + k);
            (blank_out(&grid, blank, seed * 7919 + k), grid)
        })
        .collect()
}

/// A puzzle whose givens clash (two 5s in row 1).
fn clashing() -> Vec<u8> {
    let mut p = vec![0u8; 81];
    p[0] = 5;
    p[8] = 5;
    p
}

fn solve(args: &[&str]) -> std::process::Output {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    run(&all, b"")
}

// ---------------------------------------------------------------- .npy

/// Reads back a `.npy` answer: (descr, shape, elements as u64).
fn read_npy(bytes: &[u8]) -> (String, String, Vec<u64>) {
    assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "data aligned as NumPy aligns it");
    let dict = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    let field = |key: &str, close: char| {
        let at = dict.find(key).unwrap() + key.len();
        let rest = &dict[at..];
        rest[..=rest.find(close).unwrap()].trim().to_string()
    };
    let descr = field("'descr': ", ',');
    let descr = descr.trim_end_matches(',').trim_matches('\'').to_string();
    let shape = field("'shape': ", ')');
    let size: usize = descr[2..].parse().unwrap();
    let values = bytes[10 + len..]
        .chunks(size)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..size].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect();
    (descr, shape, values)
}

#[test]
fn npy_every_dtype_and_shape_solved_in_kind() {
    let set = fixtures(3, 40, 60, 1);
    let puzzles: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    for (descr, shape) in [
        ("|u1", "(40, 81)"),
        ("|i1", "(40, 9, 9)"),
        ("<i2", "(40, 81)"),
        ("<i4", "(40, 9, 9)"),
        ("<i8", "(40, 81)"),
        ("<u2", "(40, 81)"),
    ] {
        let (dir, path) = temp_file("p.npy", &npy(descr, shape, &puzzles));
        let out = dir.path().join("a.npy");
        for j in ["1", "2"] {
            let o = run(
                &[
                    "solve",
                    path.to_str().unwrap(),
                    "-o",
                    out.to_str().unwrap(),
                    "-j",
                    j,
                ],
                b"",
            );
            assert_eq!(o.status.code(), Some(0), "{descr}: {}", stderr(&o));
            let (d, s, values) = read_npy(&std::fs::read(&out).unwrap());
            assert_eq!((d.as_str(), s.as_str()), (descr, shape));
            for (k, p) in puzzles.iter().enumerate() {
                let a: Vec<u8> = values[k * 81..(k + 1) * 81]
                    .iter()
                    .map(|&v| v as u8)
                    .collect();
                assert_valid(3, p, &a);
            }
        }
        // The answers pass `check`; a broken one does not.
        let o = run(
            &["check", path.to_str().unwrap(), out.to_str().unwrap()],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        assert!(stdout(&o).contains("40 records checked, 40 good, 0 bad"));
    }
}

#[test]
fn npy_16x16_and_text_output() {
    let set = fixtures(4, 6, 45, 2);
    let puzzles: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let (dir, path) = temp_file("p.npy", &npy("<i4", "(6, 16, 16)", &puzzles));
    let out = dir.path().join("a.npy");
    let o = run(
        &["solve", path.to_str().unwrap(), "-o", out.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (_, shape, values) = read_npy(&std::fs::read(&out).unwrap());
    assert_eq!(shape, "(6, 16, 16)");
    for (k, p) in puzzles.iter().enumerate() {
        let a: Vec<u8> = values[k * 256..(k + 1) * 256]
            .iter()
            .map(|&v| v as u8)
            .collect();
        assert_valid(4, p, &a);
    }
    // `-o x.txt` writes one answer line per row, in letters.
    let txt = dir.path().join("a.txt");
    let o = run(
        &["solve", path.to_str().unwrap(), "-o", txt.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(text.lines().count(), 6);
    for (p, line) in puzzles.iter().zip(text.lines()) {
        assert_valid(4, p, &cells(line, "", LETTERS));
    }
}

#[test]
fn npy_bad_rows_are_zeros_and_reported_by_index() {
    let set = fixtures(3, 5, 55, 3);
    let mut rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    rows[1] = clashing();
    rows[3][10] = 12; // not a 9x9 value
    let (dir, path) = temp_file("p.npy", &npy("<i2", "(5, 81)", &rows));
    let out = dir.path().join("a.npy");
    let o = run(
        &["solve", path.to_str().unwrap(), "-o", out.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let name = path.display().to_string();
    assert!(
        err.contains(&format!("{name}:row 1: duplicate given 5")),
        "{err}"
    );
    assert!(
        err.contains(&format!("{name}:row 3: cell 11: invalid number 12")),
        "{err}"
    );
    let (_, _, values) = read_npy(&std::fs::read(&out).unwrap());
    for k in [1, 3] {
        assert!(
            values[k * 81..(k + 1) * 81].iter().all(|&v| v == 0),
            "row {k}"
        );
    }
    for k in [0, 2, 4] {
        let a: Vec<u8> = values[k * 81..(k + 1) * 81]
            .iter()
            .map(|&v| v as u8)
            .collect();
        assert_valid(3, &rows[k], &a);
    }
    // `check` names the zero rows.
    let o = run(
        &["check", path.to_str().unwrap(), out.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("5 records checked, 3 good, 2 bad"),
        "{}",
        stdout(&o)
    );
    // --on-error fail leaves no output file.
    let fail = dir.path().join("f.npy");
    let o = run(
        &[
            "solve",
            path.to_str().unwrap(),
            "-o",
            fail.to_str().unwrap(),
            "--on-error",
            "fail",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(!fail.exists());
}

/// `--box` and `--size` hold for arrays as for text: 6x6 grids with boxes
/// 3 tall and 2 wide are solved, counted and checked with those boxes, and
/// a flag the array's shape cannot hold is a usage error.
#[test]
fn npy_follows_box_and_size_flags() {
    let puzzles: Vec<Vec<u8>> = (0..6)
        .map(|i| blank_out(&full_grid_boxes(3, 2, 40 + i), 50, 90 + i))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for (name, descr, shape) in [
        ("flat.npy", "|u1", "(6, 36)"),
        ("square.npy", "<i4", "(6, 6, 6)"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, npy(descr, shape, &puzzles)).unwrap();
        let p = path.to_str().unwrap();
        let out = dir.path().join(format!("answers-{name}"));
        let o = solve(&[p, "--box", "3x2", "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let (d, s, values) = read_npy(&std::fs::read(&out).unwrap());
        assert_eq!((d.as_str(), s.as_str()), (descr, shape));
        for (p, a) in puzzles.iter().zip(values.chunks(36)) {
            let a: Vec<u8> = a.iter().map(|&v| v as u8).collect();
            assert_valid_boxes(3, 2, p, &a);
        }
        let o = run(&["check", "--box", "3x2", p, out.to_str().unwrap()], b"");
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stdout(&o));
        assert!(stdout(&o).contains("6 good, 0 bad"), "{}", stdout(&o));
        let counts = dir.path().join(format!("counts-{name}"));
        let o = run(
            &["count", p, "--box", "3x2", "-o", counts.to_str().unwrap()],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let (_, _, n) = read_npy(&std::fs::read(&counts).unwrap());
        assert!(n.iter().all(|&c| c >= 1), "{name}: {n:?}");
        for flags in [["--box", "2x5"], ["--size", "9"]] {
            let o = solve(&[p, flags[0], flags[1], "-o", out.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(2), "{name} {flags:?}");
            assert!(
                stderr(&o).contains("--box/--size ask for"),
                "{}",
                stderr(&o)
            );
        }
    }
}

/// A lone `(16, 16)` array is sixteen 4x4 puzzles or one 16x16 puzzle:
/// without flags it is refused (it was read as one 16x16 grid, and sixteen
/// 4x4 puzzles came back as one 16x16 answer); `--size` picks the reading.
#[test]
fn npy_square_of_sixteen_needs_the_size() {
    let small: Vec<Vec<u8>> = (0..16)
        .map(|i| blank_out(&full_grid(2, 60 + i), 50, 70 + i))
        .collect();
    let big = blank_out(&full_grid(4, 61), 50, 71);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.npy");
    let out = dir.path().join("a.npy");
    let (p, o_path) = (path.to_str().unwrap(), out.to_str().unwrap());
    std::fs::write(&path, npy("|u1", "(16, 16)", &small)).unwrap();
    let o = solve(&[p, "-o", o_path]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("(16, 16)") && err.contains("--size 4"),
        "{err}"
    );
    assert!(!out.exists());
    let o = solve(&[p, "--size", "4", "-o", o_path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (d, s, values) = read_npy(&std::fs::read(&out).unwrap());
    assert_eq!((d.as_str(), s.as_str()), ("|u1", "(16, 16)"));
    for (p, a) in small.iter().zip(values.chunks(16)) {
        let a: Vec<u8> = a.iter().map(|&v| v as u8).collect();
        assert_valid(2, p, &a);
    }
    // The same shape holding one 16x16 puzzle, read as one with --size 16.
    let rows: Vec<Vec<u8>> = big.chunks(16).map(<[u8]>::to_vec).collect();
    std::fs::write(&path, npy("|u1", "(16, 16)", &rows)).unwrap();
    let o = solve(&[p, "--size", "16", "-o", o_path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (_, _, values) = read_npy(&std::fs::read(&out).unwrap());
    let a: Vec<u8> = values.iter().map(|&v| v as u8).collect();
    assert_valid(4, &big, &a);
}

/// `check` with text puzzles and a `.npy` of answers says the kinds differ
/// (it used to read the binary answers as lines of text).
#[test]
fn check_refuses_text_puzzles_with_npy_answers() {
    let set = fixtures(3, 3, 60, 8);
    let rows: Vec<Vec<u8>> = set.iter().map(|(_, a)| a.clone()).collect();
    let text: String = set
        .iter()
        .map(|(p, _)| encode(p, "123456789", '.') + "\n")
        .collect();
    let (dir, puzzles) = temp_file("p.txt", text.as_bytes());
    let answers = dir.path().join("a.npy");
    std::fs::write(&answers, npy("|u1", "(3, 81)", &rows)).unwrap();
    let o = run(
        &[
            "check",
            puzzles.to_str().unwrap(),
            answers.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("a.npy is a NumPy .npy file but"), "{err}");
    assert!(err.contains("p.txt is text"), "{err}");
}

#[test]
fn npy_count_empty_and_refusals() {
    let set = fixtures(3, 4, 75, 4);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let (dir, path) = temp_file("p.npy", &npy("|u1", "(4, 81)", &rows));
    let out = dir.path().join("c.npy");
    let o = run(
        &[
            "count",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--limit",
            "3",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (descr, shape, values) = read_npy(&std::fs::read(&out).unwrap());
    assert_eq!((descr.as_str(), shape.as_str()), ("<i8", "(4,)"));
    // 75% blanks: far more than three solutions each.
    assert_eq!(values, vec![3, 3, 3, 3]);

    let empty = dir.path().join("e.npy");
    std::fs::write(&empty, npy("<i8", "(0, 9, 9)", &[])).unwrap();
    let eout = dir.path().join("ea.npy");
    let o = run(
        &[
            "solve",
            empty.to_str().unwrap(),
            "-o",
            eout.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (_, shape, values) = read_npy(&std::fs::read(&eout).unwrap());
    assert_eq!((shape.as_str(), values.len()), ("(0, 9, 9)", 0));

    let refuse = |bytes: Vec<u8>, want: &str| {
        let (d, p) = temp_file("x.npy", &bytes);
        let o = run(
            &[
                "solve",
                p.to_str().unwrap(),
                "-o",
                d.path().join("o.npy").to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(2), "{want}");
        let err = stderr(&o);
        assert!(
            err.contains(&p.display().to_string()) && err.contains(want),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(!d.path().join("o.npy").exists());
    };
    let mut fortran = npy_header("|u1", "(1, 81)", true);
    fortran.extend_from_slice(&[0u8; 81]);
    refuse(fortran, "Fortran order");
    let mut big = npy_header(">i4", "(1, 81)", false);
    big.extend_from_slice(&[0u8; 324]);
    refuse(big, "big-endian");
    let whole = npy("<i4", "(4, 81)", &rows);
    refuse(whole[..whole.len() - 7].to_vec(), "truncated");
    refuse(npy_header("<f8", "(1, 81)", false), "integer");
    refuse(npy("|u1", "(1, 80)", &[vec![0; 80]]), "(1, 80)");
    refuse(b"\x93NUMPY\x01".to_vec(), "truncated");
    // A shape whose size wraps around to 2 rows of 81, with those 2 rows of
    // data: refused, not answered under the lying shape.
    refuse(
        npy("|u1", "(9223372036854775809, 2, 81)", &rows[..2]),
        "too large",
    );
}

/// A Python that imports `modules`, or `None` (the test then skips).
fn python_with(modules: &str) -> Option<PathBuf> {
    let py = std::env::var_os("SUDOKU_BULK_PYTHON")
        .map_or_else(|| PathBuf::from("python3"), PathBuf::from);
    let ok = Std::new(&py)
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: no Python with {modules} (set SUDOKU_BULK_PYTHON)");
    }
    ok.then_some(py)
}

/// Runs a Python `script` in `dir` with `args` and returns its output,
/// asserting that it succeeded. The script ends with `os._exit(0)` once its
/// output is flushed: pyarrow 26 now and then aborts while the interpreter
/// shuts down (`terminate called without an active exception`, about one
/// Parquet-reading process in 400 here; apache/arrow#34314), after the work
/// is done. A script that raises still fails with its traceback.
fn run_python(py: &Path, script: &str, dir: &Path, args: &[&OsStr]) -> Vec<u8> {
    let o = Std::new(py)
        .arg("-c")
        .arg(format!(
            "{script}\nimport os as _os, sys as _sys\n\
             _sys.stdout.flush(); _sys.stderr.flush(); _os._exit(0)\n"
        ))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

#[test]
fn arrays_written_and_read_by_numpy() {
    let Some(py) = python_with("numpy") else {
        return;
    };
    let set = fixtures(3, 10, 60, 11);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "import numpy as np\nq = np.array({rows:?})\n\
         np.save('a.npy', q.astype(np.int64))\n\
         np.save('b.npy', q.reshape(-1, 9, 9).astype(np.uint8))\n\
         np.save('c.npy', q.astype(np.int16)[::2])\n"
    );
    run_python(&py, &script, dir.path(), &[]);
    for (input, step) in [("a.npy", 1), ("b.npy", 1), ("c.npy", 2)] {
        let out = dir.path().join(format!("out-{input}"));
        let o = solve(&[
            dir.path().join(input).to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{input}: {}", stderr(&o));
        // NumPy reads the answer back with the input's dtype and shape.
        let stdout = run_python(&py, "import numpy as np, sys\na = np.load(sys.argv[1]); b = np.load(sys.argv[2])\nassert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)\nfor r in b.reshape(len(b), -1): print(''.join(map(str, r)))", dir.path(), &[dir.path().join(input).as_ref(), out.as_ref()]);
        let text = String::from_utf8(stdout).unwrap();
        let puzzles: Vec<&Vec<u8>> = rows.iter().step_by(step).collect();
        assert_eq!(text.lines().count(), puzzles.len());
        for (line, p) in text.lines().zip(puzzles) {
            assert_valid(3, p, &cells(line, "", "123456789"));
        }
    }
}

// ------------------------------------------------------- Parquet / Arrow

#[cfg(feature = "columnar")]
mod tables {
    use super::*;
    use std::path::Path;
    use std::sync::Arc;

    fn digits(cells: &[u8]) -> String {
        encode(cells, "123456789", '.')
    }

    use arrow_array::builder::{FixedSizeListBuilder, ListBuilder, UInt8Builder};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int64Type, Int8Type, UInt16Type, UInt8Type};
    use arrow_array::{
        Array, ArrayRef, DictionaryArray, Int64Array, LargeStringArray, NullArray, RecordBatch,
        StringArray,
    };
    use arrow_schema::DataType;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use parquet::basic::Compression;
    use parquet::file::properties::WriterProperties;

    /// A batch of `columns`, each nullable when it holds a null. Logical
    /// nulls count: a dictionary's are in its keys and a `Null` array's
    /// are all of it, which arrow 60's `try_from_iter` (physical nulls)
    /// does not see, and the Parquet writer then refuses the nulls.
    fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
        RecordBatch::try_from_iter_with_nullable(columns.into_iter().map(|(name, array)| {
            let nullable = array.logical_null_count() > 0;
            (name, array, nullable)
        }))
        .unwrap()
    }

    fn write_parquet(path: &Path, batch: &RecordBatch, group_rows: usize, codec: Compression) {
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
    fn write_puzzles(path: &Path, values: StringArray, group_rows: usize) {
        let column = Arc::new(values) as ArrayRef;
        write_parquet(
            path,
            &batch(vec![("puzzle", column)]),
            group_rows,
            Compression::SNAPPY,
        );
    }

    /// All rows of a Parquet file, plus its row-group sizes and first codec.
    fn read_parquet(path: &Path) -> (RecordBatch, Vec<i64>, Compression) {
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

    fn strings(col: &ArrayRef) -> Vec<Option<String>> {
        col.as_string::<i32>()
            .iter()
            .map(|v| v.map(str::to_string))
            .collect()
    }

    fn u8_lists(values: &[Vec<u8>]) -> ArrayRef {
        let mut b = ListBuilder::new(UInt8Builder::new());
        for v in values {
            b.values().append_slice(v);
            b.append(true);
        }
        Arc::new(b.finish())
    }

    fn list_rows(col: &ArrayRef) -> Vec<Option<Vec<u8>>> {
        let l = col.as_list::<i32>();
        (0..l.len())
            .map(|i| {
                l.is_valid(i)
                    .then(|| l.value(i).as_primitive::<UInt8Type>().values().to_vec())
            })
            .collect()
    }

    #[test]
    fn parquet_strings_keep_other_columns_row_groups_and_codec() {
        let set = fixtures(3, 50, 62, 5);
        let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let ids: Vec<i64> = (0..50).map(|i| 1000 + i).collect();
        let notes: Vec<Option<String>> = (0..50)
            .map(|i| (i % 3 != 0).then(|| format!("n{i}")))
            .collect();
        let input = batch(vec![
            ("id", Arc::new(Int64Array::from(ids.clone())) as ArrayRef),
            ("quizzes", Arc::new(StringArray::from(puzzles.clone()))),
            ("note", Arc::new(StringArray::from(notes.clone()))),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.parquet");
        write_parquet(&path, &input, 16, Compression::SNAPPY);
        let mut outputs = Vec::new();
        for j in ["1", "2"] {
            let out = dir.path().join(format!("out{j}.parquet"));
            let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap(), "-j", j]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let (got, groups, codec) = read_parquet(&out);
            assert_eq!(groups, vec![16, 16, 16, 2], "row groups kept");
            assert_eq!(codec, Compression::SNAPPY, "codec kept");
            let names: Vec<String> = got
                .schema()
                .fields()
                .iter()
                .map(|f| f.name().clone())
                .collect();
            assert_eq!(names, ["id", "quizzes", "note", "solution"]);
            assert_eq!(
                got.column(0).as_primitive::<Int64Type>().values().to_vec(),
                ids
            );
            assert_eq!(
                strings(got.column(1)),
                puzzles.iter().cloned().map(Some).collect::<Vec<_>>()
            );
            assert_eq!(strings(got.column(2)), notes);
            for ((p, _), a) in set.iter().zip(strings(got.column(3))) {
                assert_valid(3, p, &cells(&a.unwrap(), "", "123456789"));
            }
            // Untouched columns are copied chunk for chunk, not re-encoded.
            let sizes = |p: &Path| {
                let f = std::fs::File::open(p).unwrap();
                let b = ParquetRecordBatchReaderBuilder::try_new(f).unwrap();
                b.metadata()
                    .row_groups()
                    .iter()
                    .map(|g| (0..3).map(|c| g.column(c).compressed_size()).collect())
                    .collect::<Vec<Vec<i64>>>()
            };
            assert_eq!(sizes(&out), sizes(&path));
            outputs.push(std::fs::read(&out).unwrap());
        }
        assert_eq!(outputs[0], outputs[1], "same bytes for 1 and 2 threads");
        // Text output: one line per row.
        let txt = dir.path().join("a.txt");
        let o = solve(&[path.to_str().unwrap(), "-o", txt.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let refs: Vec<&str> = puzzles.iter().map(String::as_str).collect();
        assert_answers_9x9(&refs, &std::fs::read_to_string(&txt).unwrap());
    }

    #[test]
    fn parquet_integer_lists_fixed_size_and_nested() {
        let set = fixtures(3, 20, 60, 6);
        let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
        let mut fixed = FixedSizeListBuilder::new(UInt8Builder::new(), 81);
        for r in &rows {
            fixed.values().append_slice(r);
            fixed.append(true);
        }
        let mut nested = ListBuilder::new(ListBuilder::new(UInt8Builder::new()));
        for r in &rows {
            for line in r.chunks(9) {
                nested.values().values().append_slice(line);
                nested.values().append(true);
            }
            nested.append(true);
        }
        let dir = tempfile::tempdir().unwrap();
        for (kind, col) in [
            ("list", u8_lists(&rows)),
            ("fixed", Arc::new(fixed.finish()) as ArrayRef),
            ("nested", Arc::new(nested.finish()) as ArrayRef),
        ] {
            let dt = col.data_type().clone();
            let input = batch(vec![("puzzle", col)]);
            let path = dir.path().join(format!("{kind}.parquet"));
            write_parquet(&path, &input, 1000, Compression::ZSTD(Default::default()));
            let out = dir.path().join(format!("{kind}.out.parquet"));
            let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(0), "{kind}: {}", stderr(&o));
            let (got, _, _) = read_parquet(&out);
            let sol = got.column_by_name("solution").unwrap();
            assert_eq!(
                sol.data_type(),
                &dt,
                "{kind}: solution typed like the puzzle"
            );
            for (k, p) in rows.iter().enumerate() {
                let a: Vec<u8> = match kind {
                    "list" => list_rows(sol)[k].clone().unwrap(),
                    "fixed" => sol
                        .as_fixed_size_list()
                        .value(k)
                        .as_primitive::<UInt8Type>()
                        .values()
                        .to_vec(),
                    _ => {
                        let inner = sol.as_list::<i32>().value(k);
                        let inner = inner.as_list::<i32>();
                        (0..9)
                            .flat_map(|r| {
                                inner.value(r).as_primitive::<UInt8Type>().values().to_vec()
                            })
                            .collect()
                    }
                };
                assert_valid(3, p, &a);
            }
        }
    }

    /// Existing labels: a valid one survives even where the puzzle has other
    /// solutions, an empty one is filled, a wrong one is reported by row and
    /// kept, a bad puzzle's row keeps its (null) label; `--overwrite` solves
    /// every row.
    #[test]
    fn parquet_labels_kept_filled_and_wrong_reported() {
        let set = fixtures(3, 6, 70, 7);
        let mut puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let mut labels: Vec<Option<String>> = set.iter().map(|(_, g)| Some(digits(g))).collect();
        labels[1] = None;
        labels[2] = Some(String::new());
        let mut wrong = set[3].1.clone();
        wrong.swap(0, 1);
        labels[3] = Some(digits(&wrong));
        puzzles[4] = digits(&clashing());
        labels[4] = None;
        let input = batch(vec![
            (
                "puzzle",
                Arc::new(StringArray::from(puzzles.clone())) as ArrayRef,
            ),
            ("solution", Arc::new(StringArray::from(labels.clone()))),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.parquet");
        write_parquet(&path, &input, 1000, Compression::UNCOMPRESSED);
        let out = dir.path().join("o.parquet");
        let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        let name = path.display().to_string();
        assert!(
            err.contains(&format!("{name}:row 3: existing solution is wrong")),
            "{err}"
        );
        assert!(
            err.contains(&format!("{name}:row 4: duplicate given")),
            "{err}"
        );
        let (got, _, _) = read_parquet(&out);
        let sol = strings(got.column(1));
        for k in [0, 5] {
            assert_eq!(sol[k], labels[k], "row {k}: valid label kept byte for byte");
        }
        for k in [1, 2] {
            let p = cells(&puzzles[k], ".", "123456789");
            assert_valid(3, &p, &cells(sol[k].as_ref().unwrap(), "", "123456789"));
        }
        assert_eq!(sol[3], labels[3], "wrong label kept");
        assert_eq!(sol[4], None);
        // --overwrite replaces every label with a solution of ours.
        let over = dir.path().join("over.parquet");
        let o = solve(&[
            path.to_str().unwrap(),
            "-o",
            over.to_str().unwrap(),
            "--overwrite",
        ]);
        assert_eq!(o.status.code(), Some(1), "row 4 is still bad");
        assert!(!stderr(&o).contains("existing solution is wrong"));
        let (got, _, _) = read_parquet(&over);
        let sol = strings(got.column(1));
        for k in [0, 1, 2, 3, 5] {
            let p = cells(&puzzles[k], ".", "123456789");
            assert_valid(3, &p, &cells(sol[k].as_ref().unwrap(), "", "123456789"));
        }
        // `check` finds exactly the wrong label and the missing answer.
        let o = run(&["check", out.to_str().unwrap()], b"");
        assert_eq!(o.status.code(), Some(1));
        let report = stdout(&o);
        assert!(
            report.contains("6 records checked, 4 good, 2 bad"),
            "{report}"
        );
        assert!(
            report.contains(":row 3: ") && report.contains(":row 4: "),
            "{report}"
        );
    }

    #[test]
    fn parquet_count_stats_empty_and_corrupt() {
        let set = fixtures(3, 8, 72, 8);
        let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let input = batch(vec![(
            "question",
            Arc::new(StringArray::from(puzzles.clone())) as ArrayRef,
        )]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.parquet");
        write_parquet(&path, &input, 3, Compression::SNAPPY);
        let out = dir.path().join("c.parquet");
        let o = run(
            &[
                "count",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--limit",
                "4",
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (got, groups, _) = read_parquet(&out);
        assert_eq!(groups, vec![3, 3, 2]);
        let counts = got
            .column_by_name("solutions")
            .unwrap()
            .as_primitive::<Int64Type>();
        assert!(
            counts.iter().all(|c| c == Some(4)),
            "72% blanks: at least 4 solutions each"
        );
        // --stats adds guesses and level.
        let s = dir.path().join("s.parquet");
        let o = solve(&[path.to_str().unwrap(), "-o", s.to_str().unwrap(), "--stats"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (got, _, _) = read_parquet(&s);
        let names: Vec<String> = got
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        assert_eq!(names, ["question", "solution", "guesses", "level"]);
        let levels = strings(got.column(3));
        assert!(levels
            .iter()
            .all(|l| ["easy", "medium", "hard", "extreme"].contains(&l.as_deref().unwrap())));
        // An empty table gives an empty table with the solution column.
        let empty = dir.path().join("e.parquet");
        write_parquet(&empty, &input.slice(0, 0), 10, Compression::SNAPPY);
        let eout = dir.path().join("eo.parquet");
        let o = solve(&[empty.to_str().unwrap(), "-o", eout.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (got, _, _) = read_parquet(&eout);
        assert_eq!(got.num_rows(), 0);
        assert!(got.column_by_name("solution").is_some());
        // A cut file and a damaged page: exit 2, the file named, no panic,
        // no output left behind.
        let bytes = std::fs::read(&path).unwrap();
        let mut damaged = bytes.clone();
        for b in &mut damaged[8..bytes.len() / 2] {
            *b ^= 0x5A;
        }
        for (what, data) in [
            ("cut", bytes[..bytes.len() - 20].to_vec()),
            ("damaged", damaged),
            ("short", b"PAR1xx".to_vec()),
            ("huge", claim_huge_schema(&bytes)),
        ] {
            let bad = dir.path().join(format!("{what}.parquet"));
            std::fs::write(&bad, data).unwrap();
            let bout = dir.path().join(format!("{what}.out.parquet"));
            let o = solve(&[bad.to_str().unwrap(), "-o", bout.to_str().unwrap()]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{what}: {err}");
            assert!(
                err.contains(&bad.display().to_string()) && err.contains("Parquet"),
                "{what}: {err}"
            );
            assert!(!err.contains("panicked"), "{what}: {err}");
            assert!(!bout.exists(), "{what}");
        }
    }

    /// `file`, a Parquet file, with its footer's schema list claiming
    /// 2^31 - 1 entries (the footer length mended): the parquet crate
    /// sized a buffer from that claim, and the failed allocation aborted.
    fn claim_huge_schema(file: &[u8]) -> Vec<u8> {
        let n = file.len();
        let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
        let meta = &file[n - 8 - len..n - 8];
        // FileMetaData, compact Thrift: field 1 version (0x15, varint),
        // then field 2 schema (0x19, list header: count << 4 | 12, or 0xfc
        // and a varint count).
        let varint_end = |mut i: usize| {
            while meta[i] & 0x80 != 0 {
                i += 1;
            }
            i + 1
        };
        assert_eq!(meta[0], 0x15);
        let at = varint_end(1);
        assert_eq!(meta[at], 0x19);
        let rest = if meta[at + 1] >> 4 == 15 {
            varint_end(at + 2)
        } else {
            at + 2
        };
        let mut footer = meta[..=at].to_vec();
        footer.extend_from_slice(&[0xfc, 0xff, 0xff, 0xff, 0xff, 0x07]);
        footer.extend_from_slice(&meta[rest..]);
        let mut out = file[..n - 8 - len].to_vec();
        out.extend_from_slice(&footer);
        out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
        out.extend_from_slice(b"PAR1");
        out
    }

    fn ipc_bytes(batches: &[RecordBatch], stream: bool) -> Vec<u8> {
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

    fn read_ipc(bytes: &[u8]) -> Vec<RecordBatch> {
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
            let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let bytes = std::fs::read(&out).unwrap();
            assert_eq!(bytes.starts_with(b"ARROW1"), !stream, "format kept");
            check_out(&[read_ipc(&bytes)]);
            // A .parquet name converts.
            let pq = dir.path().join(format!("{ext}.parquet"));
            let o = solve(&[path.to_str().unwrap(), "-o", pq.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let (got, _, _) = read_parquet(&pq);
            check_out(&[vec![got.slice(0, 10), got.slice(10, 15), got.slice(25, 5)]]);
        }
        // The list column as the puzzle column, by name.
        let path = dir.path().join("in.arrow");
        let o = run(
            &[
                "count",
                path.to_str().unwrap(),
                "--column",
                "grid",
                "-o",
                "-",
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let counted = read_ipc(&o.stdout);
        assert!(counted
            .iter()
            .all(|b| b.column_by_name("solutions").is_some()));
        // stdin to stdout, as a pipe filter.
        let o = run(&["solve", "-j", "2"], &ipc_bytes(&batches, true));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(!o.stdout.starts_with(b"ARROW1"));
        check_out(&[read_ipc(&o.stdout)]);
    }

    /// The strings of a Utf8 or LargeUtf8 column.
    fn any_strings(col: &ArrayRef) -> Vec<Option<String>> {
        match col.data_type() {
            DataType::LargeUtf8 => col
                .as_string::<i64>()
                .iter()
                .map(|v| v.map(str::to_string))
                .collect(),
            _ => strings(col),
        }
    }

    /// The values of a dictionary-encoded string column, row by row.
    fn dictionary_strings(col: &ArrayRef) -> Vec<Option<String>> {
        let d = col.as_any_dictionary();
        let values = any_strings(d.values());
        let keys = d.normalized_keys();
        (0..col.len())
            .map(|i| col.is_valid(i).then(|| values[keys[i]].clone().unwrap()))
            .collect()
    }

    /// pandas `category` columns are dictionary-encoded strings: read as
    /// their values (here int8 keys over strings for the puzzles, uint16
    /// keys over large strings for the labels), in Parquet and Arrow IPC.
    /// The puzzle column comes back as it went in; the solution column as
    /// plain strings of its values: valid labels byte for byte, null ones
    /// filled, the wrong one kept and reported. A label column of type Null
    /// is all null: filled with strings.
    #[test]
    fn dictionary_and_null_typed_columns() {
        let set = fixtures(3, 12, 65, 21);
        let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let mut labels: Vec<Option<String>> = set.iter().map(|(_, g)| Some(digits(g))).collect();
        for k in [1, 4, 7, 10] {
            labels[k] = None;
        }
        let mut wrong = set[2].1.clone();
        wrong.swap(0, 1);
        labels[2] = Some(digits(&wrong));
        let pz: DictionaryArray<Int8Type> = puzzles.iter().map(String::as_str).collect();
        let plain_labels: DictionaryArray<UInt16Type> =
            labels.iter().map(|l| l.as_deref()).collect();
        let large: ArrayRef = Arc::new(LargeStringArray::from(
            (0..plain_labels.values().len())
                .map(|i| plain_labels.values().as_string::<i32>().value(i))
                .collect::<Vec<_>>(),
        ));
        let lb =
            DictionaryArray::<UInt16Type>::try_new(plain_labels.keys().clone(), large).unwrap();
        // Nullable said outright: a dictionary's nulls are in its keys,
        // which arrow 60's `try_from_iter` does not count.
        let input = RecordBatch::try_from_iter_with_nullable(vec![
            ("puzzle", Arc::new(pz) as ArrayRef, true),
            ("solution", Arc::new(lb) as ArrayRef, true),
        ])
        .unwrap();
        let in_types: Vec<DataType> = input
            .schema()
            .fields()
            .iter()
            .map(|f| f.data_type().clone())
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let pq = dir.path().join("cat.parquet");
        write_parquet(&pq, &input, 5, Compression::SNAPPY);
        let ipc = dir.path().join("cat.arrow");
        std::fs::write(&ipc, ipc_bytes(std::slice::from_ref(&input), false)).unwrap();
        for path in [&pq, &ipc] {
            let ext = path.extension().unwrap().to_str().unwrap();
            let out = dir.path().join(format!("out.{ext}"));
            let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{ext}: {err}");
            assert!(
                err.contains(&format!(
                    "{}:row 2: existing solution is wrong",
                    path.display()
                )),
                "{ext}: {err}"
            );
            // Labels verified and written back are `kept`, not `solved`.
            assert!(
                err.contains("12 records, 4 solved, 7 kept, 1 bad"),
                "{ext}: {err}"
            );
            let got = if ext == "parquet" {
                read_parquet(&out).0
            } else {
                let b = read_ipc(&std::fs::read(&out).unwrap());
                arrow_select::concat::concat_batches(&b[0].schema(), &b).unwrap()
            };
            assert_eq!(
                got.column(0).data_type(),
                &in_types[0],
                "{ext}: puzzle kept"
            );
            assert_eq!(
                dictionary_strings(got.column(0)),
                puzzles.iter().cloned().map(Some).collect::<Vec<_>>(),
                "{ext}"
            );
            assert_eq!(got.column(1).data_type(), &DataType::LargeUtf8, "{ext}");
            let sol = any_strings(got.column(1));
            for (k, (p, _)) in set.iter().enumerate() {
                match &labels[k] {
                    Some(l) => assert_eq!(sol[k].as_ref(), Some(l), "{ext} row {k}: label kept"),
                    None => assert_valid(3, p, &cells(sol[k].as_ref().unwrap(), "", "123456789")),
                }
            }
            let o = run(&["check", out.to_str().unwrap()], b"");
            assert!(
                stdout(&o).contains("12 records checked, 11 good, 1 bad"),
                "{ext}: {}",
                stdout(&o)
            );
        }
        // A `category` puzzle column without labels gets a plain `solution`.
        let alone = dir.path().join("alone.parquet");
        write_parquet(
            &alone,
            &input.project(&[0]).unwrap(),
            100,
            Compression::SNAPPY,
        );
        let out = dir.path().join("alone.out.parquet");
        let o = solve(&[alone.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (got, _, _) = read_parquet(&out);
        assert_eq!(got.column(1).data_type(), &DataType::Utf8);
        for ((p, _), s) in set.iter().zip(strings(got.column(1))) {
            assert_valid(3, p, &cells(&s.unwrap(), "", "123456789"));
        }
        // A solution column of type Null: every row filled, as strings.
        let nulls = batch(vec![
            (
                "puzzle",
                Arc::new(StringArray::from(puzzles.clone())) as ArrayRef,
            ),
            ("solution", Arc::new(NullArray::new(puzzles.len()))),
        ]);
        let npq = dir.path().join("null.parquet");
        write_parquet(&npq, &nulls, 100, Compression::SNAPPY);
        let nipc = dir.path().join("null.arrows");
        std::fs::write(&nipc, ipc_bytes(std::slice::from_ref(&nulls), true)).unwrap();
        for path in [&npq, &nipc] {
            let out = dir.path().join("null.out.parquet");
            let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let (got, _, _) = read_parquet(&out);
            assert_eq!(got.column(1).data_type(), &DataType::Utf8);
            assert_eq!(strings(got.column(0)).len(), puzzles.len());
            for ((p, _), s) in set.iter().zip(strings(got.column(1))) {
                assert_valid(3, p, &cells(&s.unwrap(), "", "123456789"));
            }
        }
    }

    /// The grid size of a list column is the one most of its first lists
    /// have: a short list in row 0 is one bad row like any other, the rest
    /// are solved. Only when no list has a grid's size does the run stop,
    /// naming the file and the column.
    #[test]
    fn a_short_list_in_row_0_is_one_bad_row() {
        let set = fixtures(3, 10, 60, 22);
        let mut rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
        rows[0] = vec![1, 2, 3];
        rows[6] = vec![4; 82];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("short.parquet");
        write_parquet(
            &path,
            &batch(vec![("puzzle", u8_lists(&rows))]),
            100,
            Compression::SNAPPY,
        );
        let out = dir.path().join("out.parquet");
        let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        let name = path.display().to_string();
        assert!(
            err.contains(&format!("{name}:row 0: expected 81 cells, found 3")),
            "{err}"
        );
        assert!(
            err.contains(&format!("{name}:row 6: expected 81 cells, found 82")),
            "{err}"
        );
        assert!(err.contains("10 records, 8 solved, 2 bad"), "{err}");
        let (got, _, _) = read_parquet(&out);
        let sol = list_rows(got.column(1));
        assert_eq!(
            list_rows(got.column(0)),
            rows.iter().cloned().map(Some).collect::<Vec<_>>()
        );
        for (k, p) in rows.iter().enumerate() {
            match k {
                0 | 6 => assert_eq!(sol[k], None, "row {k}"),
                _ => assert_valid(3, p, sol[k].as_ref().unwrap()),
            }
        }
        // No list of a grid's size: a usage error naming file and column.
        let odd = dir.path().join("odd.parquet");
        let lists = u8_lists(&[vec![1, 2, 3], vec![0; 80], vec![0; 3]]);
        write_parquet(
            &odd,
            &batch(vec![("quiz", lists)]),
            100,
            Compression::SNAPPY,
        );
        let oout = dir.path().join("odd.out.parquet");
        let o = solve(&[odd.to_str().unwrap(), "-o", oout.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "{}: column \"quiz\": cannot tell the grid size: its first 3 puzzles have 3, 80 cells",
                odd.display()
            )),
            "{err}"
        );
        assert!(!oout.exists());
        // A size that --box rules out is the same error.
        let o = solve(&[
            path.to_str().unwrap(),
            "-o",
            oout.to_str().unwrap(),
            "--box",
            "4x4",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("cannot tell the grid size") && err.contains("256 for --box 4x4"),
            "{err}"
        );
    }

    /// Text columns too: each value is a record of its own, so a bad one
    /// first (binary, short, two lines) is a bad row, not the column's
    /// layout; only a column without any puzzle stops the run.
    #[test]
    fn a_bad_string_in_row_0_is_one_bad_row() {
        let set = fixtures(3, 8, 60, 23);
        let mut rows: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let mut nul = rows[0].clone().into_bytes();
        nul[40] = 0;
        rows[0] = String::from_utf8(nul).unwrap();
        rows[1].truncate(80);
        rows[2] = format!("{}\n{}", rows[3], rows[4]);
        let dir = tempfile::tempdir().unwrap();
        // One row group, and a row group a row: the layout is told from
        // the first values across row groups, not from the first group.
        for group_rows in [100, 1] {
            let path = dir.path().join("first.parquet");
            write_puzzles(&path, StringArray::from(rows.clone()), group_rows);
            let out = dir.path().join("out.parquet");
            let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{err}");
            let name = path.display().to_string();
            for reason in [
                "row 0: cell 41: invalid character '\\x00'",
                "row 1: expected 81 cells, found 80",
                "row 2: a line break at character 82: a record holds one puzzle on one line",
            ] {
                assert!(err.contains(&format!("{name}:{reason}")), "{reason}: {err}");
            }
            assert!(err.contains("8 records, 5 solved, 3 bad"), "{err}");
            let (got, _, _) = read_parquet(&out);
            let sol = strings(got.column(1));
            for (k, (p, _)) in set.iter().enumerate() {
                match k {
                    0..=2 => assert_eq!(sol[k], None, "row {k}"),
                    _ => assert_valid(3, p, &cells(sol[k].as_deref().unwrap(), ".", "123456789")),
                }
            }
        }
        // No value is a puzzle: a usage error naming the first one's reason.
        let odd = dir.path().join("odd.parquet");
        write_puzzles(&odd, StringArray::from(vec!["12345", "x"]), 100);
        let oout = dir.path().join("odd.out.parquet");
        let o = solve(&[odd.to_str().unwrap(), "-o", oout.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("none of its first 2 values is a puzzle; the first: 5 characters"),
            "{err}"
        );
        assert!(!oout.exists());
    }

    /// `check` reads Parquet from stdin (`-`), counts a table without any
    /// puzzle as bad rows (it passed with 0 records checked), and blank
    /// values, like nulls, are no evidence of a layout: 120 of them in
    /// row groups of 10 ahead of the puzzles are bad rows, not a failed run.
    #[test]
    fn check_from_stdin_null_tables_and_blank_values() {
        let set = fixtures(3, 5, 55, 24);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pair.parquet");
        type Pair = (Vec<u8>, Vec<u8>);
        let column_of = |f: &dyn Fn(&Pair) -> Option<String>| {
            Arc::new(StringArray::from(set.iter().map(f).collect::<Vec<_>>())) as ArrayRef
        };
        let pair = batch(vec![
            ("puzzle", column_of(&|(p, _)| Some(digits(p)))),
            ("solution", column_of(&|(_, s)| Some(digits(s)))),
        ]);
        write_parquet(&path, &pair, 100, Compression::SNAPPY);
        let o = run(&["check", "-"], &std::fs::read(&path).unwrap());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stdout(&o).contains("<stdin>: 5 records checked, 5 good, 0 bad"),
            "{}",
            stdout(&o)
        );
        let nulls = batch(vec![
            ("puzzle", column_of(&|_| None)),
            ("solution", column_of(&|(_, s)| Some(digits(s)))),
        ]);
        let null_path = dir.path().join("nulls.parquet");
        write_parquet(&null_path, &nulls, 100, Compression::SNAPPY);
        let o = run(&["check", null_path.to_str().unwrap()], b"");
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stdout(&o).contains("5 records checked, 0 good, 5 bad"),
            "{}",
            stdout(&o)
        );
        let mut values: Vec<String> = vec![String::new(); 120];
        values[7] = "   ".into();
        values[9] = "# later".into();
        values.extend(set.iter().map(|(p, _)| digits(p)));
        let blank_path = dir.path().join("blank.parquet");
        write_puzzles(&blank_path, StringArray::from(values), 10);
        let out = dir.path().join("blank.out.parquet");
        let o = solve(&[blank_path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("125 records, 5 solved, 120 bad"), "{err}");
        // As for text, the first 100 bad rows are named, the rest counted.
        assert_eq!(err.matches(":row ").count(), 100, "{err}");
        assert!(
            err.contains("(messages for the first 100 shown, 20 more not shown"),
            "{err}"
        );
        let (got, _, _) = read_parquet(&out);
        let sol = strings(got.column(1));
        for (k, (p, _)) in set.iter().enumerate() {
            assert_valid(
                3,
                p,
                &cells(sol[120 + k].as_deref().unwrap(), ".", "123456789"),
            );
        }
    }

    /// Past 36x36 a string holds N*N numbers (as `generate` writes them):
    /// each answer is its whole grid of numbers, however long its text.
    #[test]
    fn parquet_strings_of_numbers_past_36() {
        let o = run(
            &[
                "generate", "--size", "38", "-n", "3", "--seed", "4", "--clues", "1404",
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        let puzzles: Vec<&str> = text.lines().collect();
        let numbers =
            |line: &str| -> Vec<u8> { line.split(' ').map(|t| t.parse::<u8>().unwrap()).collect() };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n38.parquet");
        write_puzzles(&path, StringArray::from(puzzles.clone()), 2);
        let out = dir.path().join("out.parquet");
        let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (got, _, _) = read_parquet(&out);
        let sol = strings(got.column(1));
        assert_eq!(sol.len(), 3);
        for (p, s) in puzzles.iter().zip(&sol) {
            assert_valid_boxes(2, 19, &numbers(p), &numbers(s.as_deref().unwrap()));
        }
    }

    /// A solution column of numbers (pandas reads an empty CSV column as
    /// float64 NaN) is refused with a hint, never replaced, and no output
    /// file is made.
    #[test]
    fn a_float_solution_column_is_refused_with_a_hint() {
        let p = ".".repeat(81);
        let input = batch(vec![
            (
                "puzzle",
                Arc::new(StringArray::from(vec![p.as_str()])) as ArrayRef,
            ),
            (
                "solution",
                Arc::new(arrow_array::Float64Array::from(vec![f64::NAN])),
            ),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nan.parquet");
        write_parquet(&path, &input, 100, Compression::SNAPPY);
        let out = dir.path().join("out.parquet");
        let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("solution column \"solution\" is Float64"),
            "{err}"
        );
        assert!(err.contains("astype(\"string\")"), "{err}");
        assert!(!out.exists());
    }

    /// `--format line|numbers` says how a table's strings are written and is
    /// followed; a layout no string can have (`grid`, `csv`, ...) and any
    /// `--format` on a `.npy` array is a usage error, not silently ignored.
    #[test]
    fn format_flags_on_tables_are_followed_or_refused() {
        let o = run(&["generate", "-n", "4", "--seed", "9"], b"");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        let grids: Vec<Vec<u8>> = text.lines().map(|l| cells(l, ".0", "123456789")).collect();
        let as_numbers = |g: &[u8]| g.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        let numbers: Vec<String> = grids.iter().map(|g| as_numbers(g)).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("numbers.parquet");
        write_puzzles(&path, StringArray::from(numbers.clone()), 100);
        let input = path.to_str().unwrap();
        let out = dir.path().join("out.parquet");

        let o = solve(&[input, "-o", out.to_str().unwrap(), "--format", "numbers"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (got, _, _) = read_parquet(&out);
        let sol = strings(got.column(1));
        assert_eq!(sol.len(), grids.len());
        for (g, s) in grids.iter().zip(&sol) {
            let s: Vec<u8> = s
                .as_deref()
                .unwrap()
                .split(' ')
                .map(|t| t.parse().unwrap())
                .collect();
            assert_valid(3, g, &s);
        }
        std::fs::remove_file(&out).unwrap();

        let o = solve(&[input, "-o", out.to_str().unwrap(), "--format", "line"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("81 numbers separated by spaces or commas, not a line of symbols"),
            "{}",
            stderr(&o)
        );
        assert!(!out.exists(), "no output after a refused run");

        for (cmd, layout) in [("solve", "grid"), ("count", "tdoku"), ("check", "csv")] {
            let mut args = vec![cmd, input, "--format", layout];
            if cmd != "check" {
                args.extend(["-o", out.to_str().unwrap()]);
            }
            let o = run(&args, b"");
            assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
            let want = format!("--format {layout} does not apply to a Parquet column");
            assert!(stderr(&o).contains(&want), "{cmd}: {}", stderr(&o));
            assert!(!out.exists(), "{cmd}: no output after a refused run");
        }

        let npy_path = dir.path().join("grids.npy");
        std::fs::write(&npy_path, npy("|u1", "(4, 81)", &grids)).unwrap();
        let npy_out = dir.path().join("out.npy");
        for format in ["digits", "numbers"] {
            let args = [npy_path.to_str().unwrap(), "-o", npy_out.to_str().unwrap()];
            let o = solve(&[&args[..], &["--format", format]].concat());
            assert_eq!(o.status.code(), Some(2), "{format}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("--format does not apply to a .npy array"),
                "{}",
                stderr(&o)
            );
            assert!(!npy_out.exists());
        }
    }

    /// Column names come from the file: in messages they are escaped and
    /// cut like any input bytes, never printed raw.
    #[test]
    fn column_names_in_messages_are_escaped_and_cut() {
        let evil = format!("\x1b[31m{}", "x".repeat(300));
        let input = batch(vec![
            (
                evil.as_str(),
                Arc::new(StringArray::from(vec!["a"])) as ArrayRef,
            ),
            ("note\n", Arc::new(StringArray::from(vec!["b"]))),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("names.parquet");
        write_parquet(&path, &input, 100, Compression::SNAPPY);
        let out = dir.path().join("out.parquet");
        for extra in [vec![], vec!["--column", "\x1b]0;title\x07"]] {
            let mut args = vec![path.to_str().unwrap(), "-o", out.to_str().unwrap()];
            args.extend(extra.iter().copied());
            let o = solve(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
            assert!(
                err.contains(
                    r#""\x1b[31mxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (305 bytes) (Utf8)"#
                ),
                "{err}"
            );
            assert!(err.contains(r#""note\n" (Utf8)"#), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.len() < 300, "{} bytes: {err}", err.len());
        }
    }

    /// A null puzzle is one bad row, named by its row and its format (it
    /// used to say `bad CSV row`).
    #[test]
    fn a_null_puzzle_names_its_row_and_format() {
        let set = fixtures(3, 5, 60, 23);
        let mut puzzles: Vec<Option<String>> = set.iter().map(|(p, _)| Some(digits(p))).collect();
        puzzles[0] = None;
        puzzles[3] = None;
        let input = batch(vec![(
            "puzzle",
            Arc::new(StringArray::from(puzzles.clone())) as ArrayRef,
        )]);
        let dir = tempfile::tempdir().unwrap();
        let pq = dir.path().join("n.parquet");
        write_parquet(&pq, &input, 100, Compression::SNAPPY);
        let ipc = dir.path().join("n.arrow");
        std::fs::write(&ipc, ipc_bytes(&[input], false)).unwrap();
        for (path, format) in [(&pq, "Parquet"), (&ipc, "Arrow")] {
            let out = dir.path().join("out.parquet");
            let o = solve(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{err}");
            for row in [0, 3] {
                assert!(
                    err.contains(&format!(
                        "{}:row {row}: bad {format} row: no puzzle (null)",
                        path.display()
                    )),
                    "{err}"
                );
            }
            assert!(!err.contains("CSV"), "{err}");
            let (got, _, _) = read_parquet(&out);
            for ((p, _), s) in set.iter().zip(strings(got.column(1))).skip(1) {
                if let Some(s) = s {
                    assert_valid(3, p, &cells(&s, "", "123456789"));
                }
            }
            assert_eq!(
                strings(got.column(1))
                    .iter()
                    .filter(|s| s.is_some())
                    .count(),
                3
            );
        }
    }

    /// A Parquet file truncated under the run: `FILE: the file shrank while
    /// being read` (as for text), exit 2, nothing left behind; never the
    /// parquet crate's `Failed to splice column data, expected
    /// {read_length} got {write_length}`.
    #[cfg(unix)]
    #[test]
    fn a_parquet_file_that_shrinks_is_a_clear_error() {
        let text = std::fs::read_to_string(data("17_clue_sub.txt")).unwrap();
        let lines: Vec<&str> = puzzle_lines(&text);
        let puzzles: Vec<&str> = lines
            .iter()
            .copied()
            .cycle()
            .take(lines.len() * 100)
            .collect();
        let input = batch(vec![(
            "puzzle",
            Arc::new(StringArray::from(puzzles)) as ArrayRef,
        )]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.parquet");
        write_parquet(&path, &input, 16384, Compression::SNAPPY);
        let size = std::fs::metadata(&path).unwrap().len();
        let out = dir.path().join("out.parquet");
        let child = Std::new(assert_cmd::cargo::cargo_bin("sudoku-bulk"))
            .args([
                "solve",
                "-j",
                "1",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let names = || -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            v.sort();
            v
        };
        let start = std::time::Instant::now();
        while !names().iter().any(|n| n.ends_with(".tmp")) {
            assert!(start.elapsed().as_secs() < 60, "no temporary file");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(size / 3)
            .unwrap();
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "{}: the file shrank while being read",
                path.display()
            )),
            "{err}"
        );
        assert!(!err.contains("_length}"), "{err}");
        assert_eq!(names(), vec!["big.parquet".to_string()]);
    }

    /// What pandas writes for `astype('category')` and `solution=None`, to
    /// Parquet and Feather, solved and read back by pandas: the puzzles as
    /// they were, every answer valid, every given label kept.
    #[test]
    fn pandas_category_and_none_columns() {
        let Some(py) = python_with("pandas, pyarrow") else {
            return;
        };
        let set = fixtures(3, 12, 62, 24);
        let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let labels: Vec<Option<String>> = set
            .iter()
            .enumerate()
            .map(|(k, (_, g))| (k % 3 == 0).then(|| digits(g)))
            .collect();
        let py_labels: Vec<String> = labels
            .iter()
            .map(|l| l.as_ref().map_or("None".into(), |s| format!("{s:?}")))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let script = format!(
            "import pandas as pd\n\
             q = {puzzles:?}\n\
             s = [{}]\n\
             cat = pd.DataFrame({{'puzzle': pd.Series(q).astype('category')}})\n\
             cat.to_parquet('cat.parquet')\n\
             cat.to_feather('cat.feather')\n\
             lab = pd.DataFrame({{'puzzle': pd.Series(q).astype('category'), 'solution': pd.Series(s).astype('category')}})\n\
             lab.to_parquet('catlab.parquet', row_group_size=5)\n\
             lab.to_feather('catlab.feather')\n\
             none = pd.DataFrame({{'puzzle': q, 'solution': None}})\n\
             none.to_parquet('none.parquet')\n\
             none.to_feather('none.feather')\n",
            py_labels.join(", ")
        );
        run_python(&py, &script, dir.path(), &[]);
        for (input, labelled) in [
            ("cat.parquet", false),
            ("cat.feather", false),
            ("catlab.parquet", true),
            ("catlab.feather", true),
            ("none.parquet", false),
            ("none.feather", false),
        ] {
            let out = dir.path().join(format!("out-{input}"));
            let o = solve(&[
                dir.path().join(input).to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ]);
            assert_eq!(o.status.code(), Some(0), "{input}: {}", stderr(&o));
            let stdout = run_python(
                &py,
                "import pandas as pd, sys\nf = sys.argv[1]\n\
                     d = pd.read_parquet(f) if f.endswith('.parquet') else pd.read_feather(f)\n\
                     for p, s in zip(d['puzzle'].astype(str), d['solution']): print(p, s)",
                dir.path(),
                &[out.as_ref()],
            );
            let text = String::from_utf8(stdout).unwrap();
            assert_eq!(text.lines().count(), puzzles.len(), "{input}");
            for (k, line) in text.lines().enumerate() {
                let (p, s) = line.split_once(' ').unwrap();
                assert_eq!(p, puzzles[k], "{input} row {k}");
                assert_valid(3, &set[k].0, &cells(s, "", "123456789"));
                if let (true, Some(l)) = (labelled, &labels[k]) {
                    assert_eq!(s, l, "{input} row {k}: label kept");
                }
            }
        }
    }

    /// pyarrow's DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY pages (their
    /// lengths checked once decompressed, see guard.rs), v1 and v2, in
    /// every codec the page checks read, ZSTD at its highest level too
    /// (split blocks, counted by decompressing), are read as written: the
    /// puzzles solved, a column with nulls copied.
    #[test]
    fn delta_pages_written_by_pyarrow() {
        let Some(py) = python_with("pyarrow, pyarrow.parquet") else {
            return;
        };
        let set = fixtures(3, 40, 60, 14);
        let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let dir = tempfile::tempdir().unwrap();
        let script = format!(
            "import pyarrow as pa, pyarrow.parquet as pq\n\
             q = ({puzzles:?} * 75)\n\
             t = pa.table({{'puzzle': q, 'note': [None if i % 5 == 0 else 'n' * (i % 37) + str(i) for i in range(len(q))]}})\n\
             for enc in ['DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY']:\n\
             \x20 for codec, level in [('none', None), ('snappy', None), ('gzip', None), ('lz4', None), ('zstd', None), ('zstd', 22)]:\n\
             \x20   for v in ['1.0', '2.0']:\n\
             \x20     pq.write_table(t, f'{{enc}}-{{codec}}{{level}}-{{v}}.parquet', use_dictionary=False, column_encoding={{'puzzle': enc, 'note': enc}}, compression=codec, compression_level=level, data_page_version=v, row_group_size=2000, data_page_size=100000)\n"
        );
        run_python(&py, &script, dir.path(), &[]);
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        inputs.sort();
        assert_eq!(inputs.len(), 24);
        let mut outs = Vec::new();
        for input in &inputs {
            let out = input.with_extension("out.parquet");
            let o = solve(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(0), "{input:?}: {}", stderr(&o));
            outs.push(out);
        }
        // Every row back, puzzle and note as written, then its solution.
        let mut args: Vec<&OsStr> = inputs.iter().map(|p| p.as_os_str()).collect();
        args.extend(outs.iter().map(|p| p.as_os_str()));
        let stdout = run_python(
            &py,
            "import pyarrow.parquet as pq, sys\n\
             n = (len(sys.argv) - 1) // 2\n\
             for a, b in zip(sys.argv[1:1 + n], sys.argv[1 + n:]):\n\
             \x20 i, o = pq.read_table(a), pq.read_table(b)\n\
             \x20 assert o['puzzle'].to_pylist() == i['puzzle'].to_pylist(), a\n\
             \x20 assert o['note'].to_pylist() == i['note'].to_pylist(), a\n\
             \x20 for p, s in zip(o['puzzle'].to_pylist(), o['solution'].to_pylist()): print(p, s)",
            dir.path(),
            &args,
        );
        let text = String::from_utf8(stdout).unwrap();
        assert_eq!(text.lines().count(), 24 * 3000);
        for (k, line) in text.lines().enumerate() {
            let (p, s) = line.split_once(' ').unwrap();
            assert_eq!(p, puzzles[k % 3000 % 40]);
            assert_valid(3, &set[k % 3000 % 40].0, &cells(s, "", "123456789"));
        }
    }

    #[test]
    fn files_written_by_pyarrow() {
        let Some(py) = python_with("pyarrow, pyarrow.parquet, pyarrow.feather") else {
            return;
        };
        let set = fixtures(3, 12, 60, 10);
        let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
        let dir = tempfile::tempdir().unwrap();
        let script = format!(
            "import pyarrow as pa, pyarrow.parquet as pq, pyarrow.feather as f\n\
             q = {puzzles:?}\n\
             t = pa.table({{'id': list(range(len(q))), 'quizzes': q,\n\
                 'grid': pa.array([[0 if c == '.' else int(c) for c in s] for s in q], pa.list_(pa.int8()))}})\n\
             pq.write_table(t, 'a.parquet', row_group_size=5, compression='zstd')\n\
             f.write_feather(t, 'b.feather')\n\
             t2 = t.cast(pa.schema([('id', pa.int64()), ('quizzes', pa.large_string()), ('grid', pa.list_(pa.int8()))]))\n\
             pq.write_table(t2, 'c.parquet')\n"
        );
        run_python(&py, &script, dir.path(), &[]);
        for (input, args) in [
            ("a.parquet", vec![]),
            ("b.feather", vec![]),
            ("c.parquet", vec![]),
            ("a.parquet", vec!["--column", "grid"]),
        ] {
            let out = dir.path().join(format!("out-{input}.txt"));
            let mut all = vec![
                dir.path().join(input).to_str().unwrap().to_string(),
                "-o".into(),
                out.to_str().unwrap().to_string(),
            ];
            all.extend(args.iter().map(|s| s.to_string()));
            let refs: Vec<&str> = all.iter().map(String::as_str).collect();
            let o = solve(&refs);
            assert_eq!(o.status.code(), Some(0), "{input}: {}", stderr(&o));
            let refs: Vec<&str> = puzzles.iter().map(String::as_str).collect();
            assert_answers_9x9(&refs, &std::fs::read_to_string(&out).unwrap());
        }
        // Our Parquet answer reads back in pyarrow with the puzzles intact.
        let out = dir.path().join("solved.parquet");
        let o = solve(&[
            dir.path().join("a.parquet").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let stdout = run_python(&py, "import pyarrow.parquet as pq, sys\nt = pq.read_table(sys.argv[1])\nprint(t.num_rows, pq.ParquetFile(sys.argv[1]).metadata.num_row_groups)\nfor q, s in zip(t['quizzes'].to_pylist(), t['solution'].to_pylist()): print(q, s)", dir.path(), &[out.as_ref()]);
        let text = String::from_utf8(stdout).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("12 3"));
        for (line, p) in lines.zip(&puzzles) {
            let (q, s) = line.split_once(' ').unwrap();
            assert_eq!(q, p);
            assert_valid(3, &cells(q, ".", "123456789"), &cells(s, "", "123456789"));
        }
    }
}

/// Inputs the fuzzers found (kept in fuzz/seeds), each bad input that once
/// panicked, aborted, ran for minutes or took gigabytes: now an error (exit
/// 2) naming the file, no output file, no panic, in bounded memory. Which
/// check refuses each (ours in src/columnar/guard.rs and ipc.rs, or the
/// parquet/arrow crates') and its wording are theirs: only the kind of
/// error (`bad Parquet file`, `bad Arrow IPC stream`, `.npy`) is asserted.
#[test]
fn fuzz_findings_are_clean_errors() {
    let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (file, says) in [
        // arrow-ipc 57 panicked on type NONE; a 20 TB body claim aborted.
        ("tables/regress-type-none.arrows", "bad Arrow IPC stream"),
        ("tables/regress-huge-body.arrows", "bad Arrow IPC stream"),
        ("npy/regress-multibyte-descr.npy", "is not understood"),
        // Footers claiming huge lists (parquet 57 aborted on the
        // allocation; parquet 60 bounds lists by the bytes left).
        (
            "tables/regress-parquet-huge-list.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-field-type.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-set-type.parquet",
            "bad Parquet file",
        ),
        // Minutes of CPU with parquet 57: a page header's list skipped
        // past the end.
        (
            "tables/regress-parquet-skip-past-end.parquet",
            "bad Parquet file",
        ),
        // 2.1 GB, even with parquet 60.1: a dictionary page claiming
        // 541098246 values in 0 bytes (its size field mistyped, then
        // well-formed).
        (
            "tables/regress-parquet-huge-dictionary.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-huge-dictionary-clean.parquet",
            "bad Parquet file",
        ),
        // A snappy page claiming 1 MiB from 2057 bytes (read, padded with
        // zeros, exit 0 with parquet 60.1).
        (
            "tables/regress-parquet-snappy-size.parquet",
            "bad Parquet file",
        ),
        // 2 GB and 986 MB made and filled with parquet 60.1: delta pages
        // of 4 values whose lengths claim 500 and 250 million.
        (
            "tables/regress-parquet-delta-length-count.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-delta-suffix-count.parquet",
            "bad Parquet file",
        ),
        // ZSTD pages of RLE blocks: 173 MB from 5.3 KB claiming 8004 bytes
        // (parquet 60 refuses it at the claim), and 237 MB from 7.3 KB
        // claiming as much (read whole by parquet 60.1, 241 MB).
        (
            "tables/regress-parquet-zstd-more-than-claimed.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-zstd-bomb.parquet",
            "bad Parquet file",
        ),
    ] {
        let path = seeds.join(file);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let o = run(
            &["solve", path.to_str().unwrap(), "-o", out.to_str().unwrap()],
            b"",
        );
        assert_eq!(o.status.code(), Some(2), "{file}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(says) && err.contains(file), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // `check` reads the same way.
        let o = run(&["check", path.to_str().unwrap()], b"");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "check {file}: {err}");
        assert!(err.contains(says) && err.contains(file), "{err}");
        // From stdin: the same error, the input named as such.
        let o = run(&["solve"], &std::fs::read(&path).unwrap());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{file} on stdin: {err}");
        assert!(err.contains(says) && err.contains("<stdin>"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
