//! `convert` and `generate -o TABLE` through the real binary: round trips
//! byte for byte (text → Parquet → text, CSV → Arrow → CSV, text → .npy →
//! text, gzip in and out), tables and arrays read back with arrow-rs and
//! a `.npy` parser of the tests' own (NumPy too when a Python has it),
//! `--blank`, generated puzzles checked (a valid solution that keeps the
//! givens, uniqueness by `count` on the tests' own text), and refusals
//! that leave nothing behind.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{ArrayRef, Int64Array, StringArray};

use crate::columnar::shared::{batch, read_arrow, read_parquet, strings, write_parquet_default};
use crate::columnar::{python_with, read_npy, run_python};
use crate::util::*;

/// `n` 9x9 puzzles of the tests' own (full grids with about half the
/// cells blanked), as (cells, line): odd ones with `0` blanks, even ones
/// with `.`, so a file holds both.
fn lines(n: usize, seed: u64) -> Vec<(Vec<u8>, String)> {
    (0..n as u64)
        .map(|k| {
            let p = blank_out(&full_grid(3, seed + k), 50, seed * 31 + k);
            let blank = if k % 2 == 1 { '0' } else { '.' };
            let line = encode(&p, "123456789", blank);
            (p, line)
        })
        .collect()
}

fn text_of(set: &[(Vec<u8>, String)]) -> String {
    set.iter().map(|(_, l)| format!("{l}\n")).collect()
}

/// Files in `dir` (names), sorted: nothing half-written may stay.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn text_to_parquet_to_text_is_byte_identical() {
    let set = lines(300, 1);
    let text = text_of(&set);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, &text).unwrap();
    let pq = dir.path().join("p.parquet");
    sb(["convert", "-q"]).arg(&input).arg("-o").arg(&pq).ok();
    // Read back with arrow-rs: one string column, each record's own bytes.
    let b = read_parquet(&pq);
    assert_eq!(b.num_columns(), 1);
    assert_eq!(b.schema().field(0).name(), "puzzle");
    let got = strings(b.column(0));
    let want: Vec<Option<String>> = set.iter().map(|(_, l)| Some(l.clone())).collect();
    assert_eq!(got, want);
    let back = dir.path().join("back.txt");
    sb(["convert", "-q"]).arg(&pq).arg("-o").arg(&back).ok();
    assert_eq!(std::fs::read_to_string(&back).unwrap(), text);
    // Arrow IPC streams and gzip on both ends: the same bytes.
    let gz = dir.path().join("in.txt.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let st = dir.path().join("s.arrows");
    sb(["convert", "-q"]).arg(&gz).arg("-o").arg(&st).ok();
    let out_gz = dir.path().join("back.txt.gz");
    sb(["convert", "-q"]).arg(&st).arg("-o").arg(&out_gz).ok();
    let mut d = flate2::read::GzDecoder::new(std::fs::File::open(&out_gz).unwrap());
    let mut s = String::new();
    std::io::Read::read_to_string(&mut d, &mut s).unwrap();
    assert_eq!(s, text);
    // Standard input too.
    let pq2 = dir.path().join("stdin.parquet");
    sb(["convert", "-q", "-o"])
        .arg(&pq2)
        .stdin(text.as_bytes())
        .ok();
    assert_eq!(strings(read_parquet(&pq2).column(0)), want);
}

#[test]
fn csv_to_arrow_to_csv_is_byte_identical() {
    let set = lines(50, 2);
    let mut csv = String::from("id,puzzle,solution,source\n");
    for (k, (p, l)) in set.iter().enumerate() {
        let grid = full_grid(3, 2 + k as u64);
        assert!(p.iter().zip(&grid).all(|(&a, &b)| a == 0 || a == b));
        // Some sources need quotes (a comma inside); some solutions are
        // empty (unsolved rows are carried as they are).
        let sol = if k % 5 == 0 {
            String::new()
        } else {
            encode(&grid, "123456789", '.')
        };
        let source = if k % 3 == 0 {
            "\"kaggle, part 2\"".to_string()
        } else {
            format!("set{k}")
        };
        csv.push_str(&format!("{k},{l},{sol},{source}\n"));
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.csv");
    std::fs::write(&input, &csv).unwrap();
    let arrow = dir.path().join("t.arrow");
    sb(["convert", "-q"]).arg(&input).arg("-o").arg(&arrow).ok();
    let b = read_arrow(&arrow);
    let names: Vec<String> = b
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["id", "puzzle", "solution", "source"]);
    assert_eq!(b.num_rows(), 50);
    assert_eq!(strings(b.column(3))[0].as_deref(), Some("kaggle, part 2"));
    assert_eq!(strings(b.column(2))[0].as_deref(), Some(""));
    assert_eq!(strings(b.column(1))[1].as_deref(), Some(set[1].1.as_str()));
    let back = dir.path().join("back.csv");
    sb(["convert", "-q"]).arg(&arrow).arg("-o").arg(&back).ok();
    assert_eq!(std::fs::read_to_string(&back).unwrap(), csv);
    // CSV to TSV and back.
    let tsv = dir.path().join("t.tsv");
    sb(["convert", "-q"]).arg(&input).arg("-o").arg(&tsv).ok();
    let t = std::fs::read_to_string(&tsv).unwrap();
    assert!(t.starts_with("id\tpuzzle\tsolution\tsource\n0\t"), "{t}");
    assert!(t.contains("\tkaggle, part 2\n"));
    let back2 = dir.path().join("back2.csv");
    sb(["convert", "-q"]).arg(&tsv).arg("-o").arg(&back2).ok();
    assert_eq!(std::fs::read_to_string(&back2).unwrap(), csv);
}

#[test]
fn text_to_npy_to_text_is_byte_identical() {
    // `.npy` has no blank symbol: `.` comes back (the `0` lines need
    // `--blank 0`, below).
    let set: Vec<(Vec<u8>, String)> = lines(200, 3)
        .into_iter()
        .map(|(p, _)| {
            let l = encode(&p, "123456789", '.');
            (p, l)
        })
        .collect();
    let text = text_of(&set);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, &text).unwrap();
    let npy = dir.path().join("a.npy");
    sb(["convert", "-q"]).arg(&input).arg("-o").arg(&npy).ok();
    let (descr, shape, values) = read_npy(&npy);
    assert_eq!((descr.as_str(), shape.as_str()), ("|u1", "(200, 81)"));
    let want: Vec<u64> = set
        .iter()
        .flat_map(|(p, _)| p.iter().map(|&v| u64::from(v)))
        .collect();
    assert_eq!(values, want);
    let back = dir.path().join("back.txt");
    sb(["convert", "-q"]).arg(&npy).arg("-o").arg(&back).ok();
    assert_eq!(std::fs::read_to_string(&back).unwrap(), text);
    let zeros = dir.path().join("zeros.txt");
    sb(["convert", "-q", "--blank", "0"])
        .arg(&npy)
        .arg("-o")
        .arg(&zeros)
        .ok();
    assert_eq!(
        std::fs::read_to_string(&zeros).unwrap(),
        text.replace('.', "0")
    );
    // NumPy reads it as the same array (when a Python has NumPy).
    if let Some(py) = python_with("numpy") {
        let out = run_python(
            &py,
            "import numpy as np, sys\na = np.load(sys.argv[1])\nprint(a.dtype, a.shape)\n\
             for r in a: print(''.join(str(v) if v else '.' for v in r))",
            dir.path(),
            &[npy.as_ref()],
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("uint8 (200, 81)\n{text}")
        );
    }
}

#[test]
fn blank_normalises_the_puzzles_and_nothing_else() {
    let set = lines(40, 4);
    let text = text_of(&set);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, &text).unwrap();
    for (blank, other) in [("0", "."), (".", "0")] {
        let out = dir.path().join(format!("b{blank}.txt"));
        sb(["convert", "-q", "--blank", blank])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .ok();
        let got = std::fs::read_to_string(&out).unwrap();
        assert_eq!(got, text.replace(other, blank), "--blank {blank}");
    }
    // A CSV's puzzle column only: a solution of digits and the other
    // columns stay as they are.
    let mut csv = String::from("quizzes,solutions,note\n");
    for (k, (_, l)) in set.iter().enumerate() {
        let grid = encode(&full_grid(3, 4 + k as u64), "123456789", '.');
        csv.push_str(&format!("{l},{grid},n.0.{k}\n"));
    }
    let input = dir.path().join("k.csv");
    std::fs::write(&input, &csv).unwrap();
    let pq = dir.path().join("k.parquet");
    sb(["convert", "-q", "--blank", "0"])
        .arg(&input)
        .arg("-o")
        .arg(&pq)
        .ok();
    let b = read_parquet(&pq);
    let puzzles = strings(b.column(0));
    for ((_, l), got) in set.iter().zip(&puzzles) {
        assert_eq!(got.as_deref(), Some(l.replace('.', "0").as_str()));
    }
    assert_eq!(strings(b.column(2))[3].as_deref(), Some("n.0.3"));
    // And from a table: `--blank .` rewrites its puzzle column.
    let back = dir.path().join("dots.csv");
    sb(["convert", "-q", "--blank", "."])
        .arg(&pq)
        .arg("-o")
        .arg(&back)
        .ok();
    let got = std::fs::read_to_string(&back).unwrap();
    let want: String = csv
        .lines()
        .enumerate()
        .map(|(i, row)| match i {
            0 => format!("{row}\n"),
            _ => {
                let (p, rest) = row.split_once(',').unwrap();
                format!("{},{rest}\n", p.replace('0', "."))
            }
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn tables_keep_their_columns_and_types() {
    let set = lines(30, 5);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("t.parquet");
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(100..130));
    let puz: ArrayRef = Arc::new(StringArray::from_iter_values(
        set.iter().map(|(_, l)| l.clone()),
    ));
    write_parquet_default(&input, &batch(vec![("id", ids), ("puzzle", puz)]));
    let arrow = dir.path().join("t.arrow");
    sb(["convert", "-q"]).arg(&input).arg("-o").arg(&arrow).ok();
    let b = read_arrow(&arrow);
    assert_eq!(
        b.column(0).as_primitive::<Int64Type>().values().to_vec(),
        (100..130).collect::<Vec<i64>>()
    );
    let csv = dir.path().join("t.csv");
    sb(["convert", "-q"]).arg(&arrow).arg("-o").arg(&csv).ok();
    let want: String = std::iter::once("id,puzzle\n".to_string())
        .chain(
            set.iter()
                .enumerate()
                .map(|(k, (_, l))| format!("{},{l}\n", 100 + k)),
        )
        .collect();
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), want);
    // The puzzle column alone, when asked for by name.
    let npy = dir.path().join("t.npy");
    sb(["convert", "-q", "--column", "puzzle"])
        .arg(&input)
        .arg("-o")
        .arg(&npy)
        .ok();
    let (_, shape, values) = read_npy(&npy);
    assert_eq!(shape, "(30, 81)");
    let cells: Vec<u64> = set
        .iter()
        .flat_map(|(p, _)| p.iter().map(|&v| u64::from(v)))
        .collect();
    assert_eq!(values, cells);
}

#[test]
fn refusals_name_the_reason_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let set = lines(5, 6);
    let csv = dir.path().join("in.csv");
    let body: String = set.iter().map(|(_, l)| format!("{l},x\n")).collect();
    std::fs::write(&csv, format!("puzzle,tag\n{body}")).unwrap();
    let before = names(dir.path());
    // `.npy` and `.txt` hold puzzles alone.
    for out in ["a.npy", "a.txt"] {
        let r = sb(["convert"])
            .arg(&csv)
            .arg("-o")
            .arg(dir.path().join(out))
            .code(2);
        assert!(
            r.stderr().contains("\"tag\"") && r.stderr().contains("--column"),
            "{}",
            r.stderr()
        );
    }
    // A name that picks no format.
    let r = sb(["convert"])
        .arg(&csv)
        .arg("-o")
        .arg(dir.path().join("a.dat"))
        .code(2);
    assert!(
        r.stderr().contains("name picks the format"),
        "{}",
        r.stderr()
    );
    // A bad record: named by file, line and row; exit 1; no output.
    let bad = dir.path().join("bad.csv");
    let text = format!("# a comment\npuzzle,tag\n{}{}", body, "12345,y\n");
    std::fs::write(&bad, &text).unwrap();
    let before_bad = names(dir.path());
    let r = sb(["convert"])
        .arg(&bad)
        .arg("-o")
        .arg(dir.path().join("b.parquet"))
        .code(1);
    assert!(
        r.stderr()
            .contains("bad.csv:8 (row 6): expected 81 cells, found 5"),
        "{}",
        r.stderr()
    );
    assert_eq!(names(dir.path()), before_bad);
    // A bad table row: `FILE:row R`.
    let pq = dir.path().join("t.parquet");
    let mut vals: Vec<String> = set.iter().map(|(_, l)| l.clone()).collect();
    vals[3] = "x".repeat(81);
    write_parquet_default(
        &pq,
        &batch(vec![(
            "puzzle",
            Arc::new(StringArray::from_iter_values(vals)) as ArrayRef,
        )]),
    );
    let before_pq = names(dir.path());
    let r = sb(["convert"])
        .arg(&pq)
        .arg("-o")
        .arg(dir.path().join("t.txt"))
        .code(1);
    assert!(
        r.stderr()
            .contains("t.parquet:row 4: cell 1: invalid character"),
        "{}",
        r.stderr()
    );
    assert_eq!(names(dir.path()), before_pq);
    std::fs::remove_file(&bad).unwrap();
    std::fs::remove_file(&pq).unwrap();
    assert_eq!(names(dir.path()), before);
    // generate: `.npy` holds puzzles alone.
    let r = sb(["generate", "-n", "3", "--with-solution", "-o"])
        .arg(dir.path().join("g.npy"))
        .code(2);
    assert!(r.stderr().contains("only puzzles"), "{}", r.stderr());
    assert_eq!(names(dir.path()), before);
}

#[test]
fn generate_writes_tables_and_arrays_of_unique_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("g.parquet");
    sb([
        "generate",
        "-q",
        "-n",
        "60",
        "--seed",
        "9",
        "--with-solution",
        "--stats",
        "-o",
    ])
    .arg(&pq)
    .ok();
    let b = read_parquet(&pq);
    let names: Vec<String> = b
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["puzzle", "solution", "guesses", "level"]);
    let puzzles = strings(b.column(0));
    let solutions = strings(b.column(1));
    assert_eq!(puzzles.len(), 60);
    let mut text = String::new();
    for (p, s) in puzzles.iter().zip(&solutions) {
        let (p, s) = (p.as_deref().unwrap(), s.as_deref().unwrap());
        let pc = cells(p, ".", "123456789");
        assert_valid(3, &pc, &cells(s, "", "123456789"));
        text.push_str(p);
        text.push('\n');
    }
    // Unique: `count` of the puzzles as text the test wrote.
    let txt = dir.path().join("p.txt");
    std::fs::write(&txt, &text).unwrap();
    let counts = sb(["count", "-q"]).arg(&txt).ok().stdout();
    assert_eq!(counts, "1\n".repeat(60));
    // The same puzzles as the text output of the same seed.
    let lines = sb(["generate", "-q", "-n", "60", "--seed", "9"])
        .ok()
        .stdout();
    assert_eq!(lines, text);
    // `.npy` and Arrow streams: the same cells.
    let npy = dir.path().join("g.npy");
    sb(["generate", "-q", "-n", "60", "--seed", "9", "-o"])
        .arg(&npy)
        .ok();
    let (descr, shape, values) = read_npy(&npy);
    assert_eq!((descr.as_str(), shape.as_str()), ("|u1", "(60, 81)"));
    let want: Vec<u64> = text
        .lines()
        .flat_map(|l| cells(l, ".", "123456789"))
        .map(u64::from)
        .collect();
    assert_eq!(values, want);
    let st = dir.path().join("g.arrows");
    sb([
        "generate", "-q", "-n", "60", "--seed", "9", "--blank", "0", "-o",
    ])
    .arg(&st)
    .ok();
    let back = dir.path().join("g.txt");
    sb(["convert", "-q"]).arg(&st).arg("-o").arg(&back).ok();
    assert_eq!(
        std::fs::read_to_string(&back).unwrap(),
        text.replace('.', "0")
    );
}

#[test]
fn grids_and_number_rows_become_one_line_puzzles() {
    let set = lines(3, 7);
    // Grids of digits (`0` blanks) and of space-separated numbers, as the
    // text layouts have them: each record one line, in its own blank.
    let mut grids = String::new();
    let mut spaced = String::new();
    for (k, (p, _)) in set.iter().enumerate() {
        if k > 0 {
            grids.push('\n');
            spaced.push('\n');
        }
        for row in p.chunks(9) {
            grids.push_str(&encode(row, "123456789", '0'));
            grids.push('\n');
            let nums: Vec<String> = row.iter().map(u8::to_string).collect();
            spaced.push_str(&nums.join(" "));
            spaced.push('\n');
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let want: String = set
        .iter()
        .map(|(p, _)| format!("{}\n", encode(p, "123456789", '0')))
        .collect();
    for (name, text) in [("g.txt", &grids), ("s.txt", &spaced)] {
        let input = dir.path().join(name);
        std::fs::write(&input, text).unwrap();
        let pq = dir.path().join(format!("{name}.parquet"));
        sb(["convert", "-q"]).arg(&input).arg("-o").arg(&pq).ok();
        let back = dir.path().join(format!("{name}.back.txt"));
        sb(["convert", "-q"]).arg(&pq).arg("-o").arg(&back).ok();
        assert_eq!(std::fs::read_to_string(&back).unwrap(), want, "{name}");
    }
    // Pencilmark records: kept as text, refused as .npy before any output.
    let marks = std::fs::read_to_string(data("pencilmark_tdoku.txt")).unwrap();
    let pm = dir.path().join("pm.txt");
    std::fs::write(&pm, &marks).unwrap();
    let before = names(dir.path());
    let r = sb(["convert"])
        .arg(&pm)
        .arg("-o")
        .arg(dir.path().join("pm.npy"))
        .code(2);
    assert!(
        r.stderr().contains("pencilmark records have no .npy form"),
        "{}",
        r.stderr()
    );
    assert_eq!(names(dir.path()), before);
    let arrow = dir.path().join("pm.arrow");
    sb(["convert", "-q"]).arg(&pm).arg("-o").arg(&arrow).ok();
    let back = dir.path().join("pm.back.txt");
    sb(["convert", "-q"]).arg(&arrow).arg("-o").arg(&back).ok();
    let records: String = marks
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(std::fs::read_to_string(&back).unwrap(), records);
}
