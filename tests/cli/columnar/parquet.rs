//! Parquet inputs and outputs: string, list and nested columns, labels,
//! row groups and codecs kept, bad rows and bad files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use ::parquet::basic::Compression;
use arrow_array::builder::{FixedSizeListBuilder, ListBuilder, UInt8Builder};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, UInt8Type};
use arrow_array::{Array, ArrayRef, Int64Array, StringArray};

use super::shared::*;
use super::*;

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
        solve_to(&path, &out).args(["-j", j]).ok();
        let got = read_parquet(&out);
        let (groups, codec) = parquet_layout(&out);
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
    solve_to(&path, &txt).ok();
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
        solve_to(&path, &out).note(kind).ok();
        let got = read_parquet(&out);
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
                        .flat_map(|r| inner.value(r).as_primitive::<UInt8Type>().values().to_vec())
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
    let o = solve_to(&path, &out).code(1);
    let err = o.stderr();
    let name = path.display().to_string();
    assert!(
        err.contains(&format!("{name}:row 4: existing solution is wrong")),
        "{err}"
    );
    assert!(
        err.contains(&format!("{name}:row 5: duplicate given")),
        "{err}"
    );
    let got = read_parquet(&out);
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
    let o = solve_to(&path, &over)
        .arg("--overwrite")
        .note("row 4 is still bad")
        .code(1);
    assert!(!o.stderr().contains("existing solution is wrong"));
    let got = read_parquet(&over);
    let sol = strings(got.column(1));
    for k in [0, 1, 2, 3, 5] {
        let p = cells(&puzzles[k], ".", "123456789");
        assert_valid(3, &p, &cells(sol[k].as_ref().unwrap(), "", "123456789"));
    }
    // `check` finds exactly the wrong label and the missing answer.
    let o = sb(["check"]).arg(&out).code(1);
    let report = o.stdout();
    assert!(
        report.contains("6 records checked, 4 good, 2 bad"),
        "{report}"
    );
    assert!(
        report.contains(":row 4: ") && report.contains(":row 5: "),
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
    sb(["count"])
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .args(["--limit", "4"])
        .ok();
    let got = read_parquet(&out);
    let (groups, _) = parquet_layout(&out);
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
    solve_to(&path, &s).arg("--stats").ok();
    let got = read_parquet(&s);
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
    solve_to(&empty, &eout).ok();
    let got = read_parquet(&eout);
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
        let o = solve_to(&bad, &bout).note(what).code(2);
        let err = o.stderr();
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
    let o = solve_to(&path, &out).code(1);
    let err = o.stderr();
    let name = path.display().to_string();
    assert!(
        err.contains(&format!("{name}:row 1: expected 81 cells, found 3")),
        "{err}"
    );
    assert!(
        err.contains(&format!("{name}:row 7: expected 81 cells, found 82")),
        "{err}"
    );
    assert!(err.contains("10 records, 8 solved, 2 bad"), "{err}");
    let got = read_parquet(&out);
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
    let o = solve_to(&odd, &oout).code(2);
    let err = o.stderr();
    assert!(
        err.contains(&format!(
            "{}: column \"quiz\": cannot tell the grid size: its first 3 puzzles have 3, 80 cells",
            odd.display()
        )),
        "{err}"
    );
    assert!(!oout.exists());
    // A size that --box rules out is the same error.
    let o = solve_to(&path, &oout).args(["--box", "4x4"]).code(2);
    let err = o.stderr();
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
        let o = solve_to(&path, &out).code(1);
        let err = o.stderr();
        let name = path.display().to_string();
        for reason in [
            "row 1: cell 41: invalid character '\\x00'",
            "row 2: expected 81 cells, found 80",
            "row 3: a line break at character 82: a record holds one puzzle on one line",
        ] {
            assert!(err.contains(&format!("{name}:{reason}")), "{reason}: {err}");
        }
        assert!(err.contains("8 records, 5 solved, 3 bad"), "{err}");
        let got = read_parquet(&out);
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
    let o = solve_to(&odd, &oout).code(2);
    let err = o.stderr();
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
    let o = sb(["check", "-"]).stdin(std::fs::read(&path).unwrap()).ok();
    assert!(
        o.stdout()
            .contains("<stdin>: 5 records checked, 5 good, 0 bad"),
        "{}",
        o.stdout()
    );
    let nulls = batch(vec![
        ("puzzle", column_of(&|_| None)),
        ("solution", column_of(&|(_, s)| Some(digits(s)))),
    ]);
    let null_path = dir.path().join("nulls.parquet");
    write_parquet(&null_path, &nulls, 100, Compression::SNAPPY);
    let o = sb(["check"]).arg(&null_path).code(1);
    assert!(
        o.stdout().contains("5 records checked, 0 good, 5 bad"),
        "{}",
        o.stdout()
    );
    let mut values: Vec<String> = vec![String::new(); 120];
    values[7] = "   ".into();
    values[9] = "# later".into();
    values.extend(set.iter().map(|(p, _)| digits(p)));
    let blank_path = dir.path().join("blank.parquet");
    write_puzzles(&blank_path, StringArray::from(values), 10);
    let out = dir.path().join("blank.out.parquet");
    let o = solve_to(&blank_path, &out).code(1);
    let err = o.stderr();
    assert!(err.contains("125 records, 5 solved, 120 bad"), "{err}");
    // As for text, the first 100 bad rows are named, the rest counted.
    assert_eq!(err.matches(":row ").count(), 100, "{err}");
    assert!(
        err.contains("(messages for the first 100 shown, 20 more not shown"),
        "{err}"
    );
    let got = read_parquet(&out);
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
    let o = sb([
        "generate", "--size", "38", "-n", "3", "--seed", "4", "--clues", "1404",
    ])
    .ok();
    let text = o.stdout();
    let puzzles: Vec<&str> = text.lines().collect();
    let numbers =
        |line: &str| -> Vec<u8> { line.split(' ').map(|t| t.parse::<u8>().unwrap()).collect() };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n38.parquet");
    write_puzzles(&path, StringArray::from(puzzles.clone()), 2);
    let out = dir.path().join("out.parquet");
    solve_to(&path, &out).ok();
    let got = read_parquet(&out);
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
    let o = solve_to(&path, &out).code(2);
    let err = o.stderr();
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
    let o = sb(["generate", "-n", "4", "--seed", "9"]).ok();
    let text = o.stdout();
    let grids: Vec<Vec<u8>> = text.lines().map(|l| cells(l, ".0", "123456789")).collect();
    let as_numbers = |g: &[u8]| g.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
    let numbers: Vec<String> = grids.iter().map(|g| as_numbers(g)).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("numbers.parquet");
    write_puzzles(&path, StringArray::from(numbers.clone()), 100);
    let out = dir.path().join("out.parquet");

    solve_to(&path, &out).args(["--format", "numbers"]).ok();
    let got = read_parquet(&out);
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

    let o = solve_to(&path, &out).args(["--format", "line"]).code(2);
    assert!(
        o.stderr()
            .contains("81 numbers separated by spaces or commas, not a line of symbols"),
        "{}",
        o.stderr()
    );
    assert!(!out.exists(), "no output after a refused run");

    for (cmd, layout) in [("solve", "grid"), ("count", "tdoku"), ("check", "csv")] {
        let mut run = sb([cmd]).arg(&path).args(["--format", layout]);
        if cmd != "check" {
            run = run.arg("-o").arg(&out);
        }
        let o = run.note(cmd).code(2);
        let want = format!("--format {layout} does not apply to a Parquet column");
        assert!(o.stderr().contains(&want), "{cmd}: {}", o.stderr());
        assert!(!out.exists(), "{cmd}: no output after a refused run");
    }

    let npy_path = dir.path().join("grids.npy");
    std::fs::write(&npy_path, npy("|u1", "(4, 81)", &grids)).unwrap();
    let npy_out = dir.path().join("out.npy");
    for format in ["digits", "numbers"] {
        let o = solve_to(&npy_path, &npy_out)
            .args(["--format", format])
            .note(format)
            .code(2);
        assert!(
            o.stderr()
                .contains("--format does not apply to a .npy array"),
            "{}",
            o.stderr()
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
        let o = solve_to(&path, &out).args(extra).code(2);
        let err = o.stderr();
        assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
        assert!(
            err.contains(r#""\x1b[31mxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (305 bytes) (Utf8)"#),
            "{err}"
        );
        assert!(err.contains(r#""note\n" (Utf8)"#), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.len() < 300, "{} bytes: {err}", err.len());
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
        solve_to(input, &out).note(format!("{input:?}")).ok();
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

/// List puzzles beside a text `solution` column of empty labels (`0`/`.`
/// only), one of them with a stray `Z`: the empty ones are filled in
/// digits, as the puzzles would be written, and the `Z` one is a wrong
/// label, kept. The stray letter made the label detector write every
/// answer of the column in letters (`DAGCFIHBE...`; a table_columns fuzz
/// finding).
#[test]
fn blank_text_labels_beside_list_puzzles_are_filled_in_digits() {
    let set = fixtures(3, 12, 55, 31);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let stray = "0".repeat(40) + "Z" + &"0".repeat(40);
    let blanks: Vec<String> = (0..rows.len())
        .map(|k| match k {
            5 => stray.clone(),
            k if k % 2 == 0 => "0".repeat(81),
            _ => ".0".repeat(40) + ".",
        })
        .collect();
    let labels = StringArray::from(blanks.iter().map(|s| Some(s.as_str())).collect::<Vec<_>>());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blank_labels.parquet");
    write_parquet(
        &path,
        &batch(vec![
            ("puzzle", u8_lists(&rows)),
            ("solution", Arc::new(labels)),
        ]),
        100,
        Compression::SNAPPY,
    );
    let out = dir.path().join("out.parquet");
    let o = solve_to(&path, &out).code(1);
    assert!(
        o.stderr().contains(":row 6: existing solution is wrong"),
        "{}",
        o.stderr()
    );
    let got = read_parquet(&out);
    let sol = strings(got.column(1));
    for (k, p) in rows.iter().enumerate() {
        let s = sol[k]
            .as_deref()
            .unwrap_or_else(|| panic!("row {k}: no answer"));
        if k == 5 {
            assert_eq!(s, stray, "the wrong label is kept");
            continue;
        }
        assert!(s.bytes().all(|b| b.is_ascii_digit()), "row {k}: {s}");
        let cells: Vec<u8> = s.bytes().map(|b| b - b'0').collect();
        assert_valid(3, p, &cells);
    }
}

/// `rate` over a Parquet file pyarrow wrote as sudoku-extreme is laid out
/// (`question,answer,rating,source`, `rating` an int64 backtrack count),
/// and over one whose `rating` column pandas left empty (float64 NaN):
/// read back by pyarrow and pandas, `er`/`ep`/`ed` (or the `rating` column
/// ER goes into) are nullable float64, `rate_status` strings, with
/// serate's numbers (tests/data/rate_serate.txt), null and `unrated` for a
/// puzzle the singles-only technique set cannot finish, null and the
/// reason for bad rows. The int64 `rating` is refused without
/// `--overwrite`; the NaN one is filled.
#[test]
fn rate_columns_read_back_by_pyarrow_and_pandas_are_float64_with_a_status() {
    let Some(py) = python_with("pyarrow, pyarrow.parquet, pandas") else {
        return;
    };
    let serate: Vec<(String, String)> = include_str!("../../data/rate_serate.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (p, r) = l.split_once(' ').unwrap();
            (p.to_string(), r.trim().to_string())
        })
        .collect();
    // Two that singles finish (serate 1.5), one they cannot (2.6/1.5/1.5).
    let mut set: Vec<(String, String)> = serate
        .iter()
        .filter(|(_, r)| r.starts_with("1.5/"))
        .take(2)
        .cloned()
        .collect();
    set.push(
        serate
            .iter()
            .find(|(_, r)| r == "2.6/1.5/1.5")
            .unwrap()
            .clone(),
    );
    let mut puzzles: Vec<Option<String>> = set.iter().map(|(p, _)| Some(p.clone())).collect();
    puzzles.push(Some(".".repeat(81)));
    puzzles.push(None);
    let py_list: Vec<String> = puzzles
        .iter()
        .map(|p| p.as_ref().map_or("None".into(), |p| format!("'{p}'")))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "import pyarrow as pa, pyarrow.parquet as pq, pandas as pd\n\
         q = [{}]\n\
         pq.write_table(pa.table({{'question': q, 'answer': [''] * len(q), 'rating': pa.array(range(10, 10 + len(q)), pa.int64()), 'source': ['s'] * len(q)}}), 'extreme.parquet')\n\
         pd.DataFrame({{'puzzle': q, 'rating': [float('nan')] * len(q)}}).to_parquet('empty.parquet')\n",
        py_list.join(", ")
    );
    run_python(&py, &script, dir.path(), &[]);
    let rate = |input: &str, out: &str, flags: &[&str]| {
        sb(["rate", "--techniques", "HiddenSingle,NakedSingle"])
            .args(flags)
            .arg(dir.path().join(input))
            .arg("-o")
            .arg(dir.path().join(out))
    };
    let o = rate(
        "extreme.parquet",
        "refused.parquet",
        &["--er-column", "rating"],
    )
    .code(2);
    assert!(
        o.stderr()
            .contains("extreme.parquet:row 1: column \"rating\" already holds a value (10)"),
        "{}",
        o.stderr()
    );
    assert!(!dir.path().join("refused.parquet").exists());
    rate("extreme.parquet", "plain.parquet", &[]).code(1);
    rate("extreme.parquet", "plain.arrow", &[]).code(1);
    rate(
        "extreme.parquet",
        "over.parquet",
        &["--er-column", "rating", "--overwrite"],
    )
    .code(1);
    rate(
        "empty.parquet",
        "filled.parquet",
        &["--er-column", "rating"],
    )
    .code(1);
    // One line per row: file, then er ep ed status ("-" for null).
    let stdout = run_python(
        &py,
        "import pyarrow as pa, pyarrow.parquet as pq, pyarrow.ipc as ipc, pandas as pd, math\n\
         for name, er in [('plain.parquet', 'er'), ('plain.arrow', 'er'), ('over.parquet', 'rating'), ('filled.parquet', 'rating')]:\n\
         \x20 t = ipc.open_file(name).read_all() if name.endswith('.arrow') else pq.read_table(name)\n\
         \x20 for c in [er, 'ep', 'ed']:\n\
         \x20   f = t.schema.field(c)\n\
         \x20   assert f.type == pa.float64() and f.nullable, (name, c, f)\n\
         \x20 assert t.schema.field('rate_status').type == pa.string(), name\n\
         \x20 df = t.to_pandas()\n\
         \x20 assert [str(df[c].dtype) for c in [er, 'ep', 'ed']] == ['float64'] * 3, df.dtypes\n\
         \x20 for r in t.select([er, 'ep', 'ed', 'rate_status']).to_pylist():\n\
         \x20   print(name, *('-' if v is None else v for v in r.values()), sep='|')",
        dir.path(),
        &[],
    );
    let text = String::from_utf8(stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4 * puzzles.len(), "{text}");
    for (k, line) in lines.iter().enumerate() {
        let f: Vec<&str> = line.split('|').collect();
        let row = k % puzzles.len();
        let got = &f[1..];
        match row {
            0..=2 => {
                let want: Vec<f64> = set[row].1.split('/').map(|v| v.parse().unwrap()).collect();
                let num = |v: &str| v.parse::<f64>().ok();
                // The unrated one: no ER, serate's EP and ED.
                let er = if row == 2 { None } else { Some(want[0]) };
                assert_eq!(
                    [num(got[0]), num(got[1]), num(got[2])],
                    [er, Some(want[1]), Some(want[2])],
                    "{line}"
                );
                assert_eq!(got[3], if row == 2 { "unrated" } else { "ok" }, "{line}");
            }
            3 => assert_eq!(got, ["-", "-", "-", "multiple solutions"], "{line}"),
            _ => {
                assert_eq!(got[..3], ["-", "-", "-"], "{line}");
                assert!(got[3].ends_with("no puzzle (null)"), "{line}");
            }
        }
    }
}
