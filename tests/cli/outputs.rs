//! What lands in `-o`: the name's extension picks the format (after a
//! compression extension) or the run is refused before any output exists;
//! `--on-error fail` leaves exactly the answers before the bad record on
//! stdout; output errors name the path the user gave.

use std::path::Path;

use crate::io::decompress;
use crate::util::*;

fn sample_lines() -> Vec<String> {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    puzzle_lines(&text)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// Runs `args` (`OUT` replaced by `dir/out`), expects the refusal of the
/// output `out` naming it and `allowed`, and checks that nothing was
/// written: `dir` holds what it held, the input `input` is unchanged.
fn assert_refused(args: &[&str], dir: &Path, out: &str, allowed: &str, input: &Path) {
    let before = names(dir);
    let bytes = std::fs::read(input).unwrap();
    let target = dir.join(out);
    let args: Vec<&str> = args
        .iter()
        .map(|&a| {
            if a == "OUT" {
                target.to_str().unwrap()
            } else {
                a
            }
        })
        .collect();
    let o = sb(&args).note(format!("{args:?}")).code(2);
    let err = o.stderr();
    let named = format!("{}: the name asks for ", target.display());
    assert!(err.contains(&named), "{args:?}: {err}");
    assert!(err.contains(allowed), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert_eq!(names(dir), before, "{args:?}: nothing written");
    assert_eq!(std::fs::read(input).unwrap(), bytes, "{args:?}: input kept");
}

/// Text input: answers are text in the input's layout. A columnar name is
/// refused (no writer turns text into a table or an array); `.csv`/`.tsv`
/// fit delimited rows and one answer or count per line, not grids; names
/// without a format extension keep today's behaviour.
#[test]
fn text_input_is_written_as_text_or_refused() {
    let lines = sample_lines();
    let puzzles: Vec<&str> = lines[..40].iter().map(String::as_str).collect();
    let input = puzzles.join("\n") + "\n";
    let (dir, path) = temp_file("p.txt", input.as_bytes());
    let p = path.to_str().unwrap();
    let plain = sb(["solve", p]).output().stdout.clone();
    assert_answers_9x9(&puzzles, std::str::from_utf8(&plain).unwrap());
    let solve = ["solve", p, "-o", "OUT"];
    let per_line = "text (.txt, .csv, .tsv), one answer per line in the input's layout";
    for out in [
        "a.parquet",
        "a.PQ",
        "a.arrow",
        "a.feather",
        "a.arrows.gz",
        "a.npy",
        "a.npy.zst",
    ] {
        assert_refused(&solve, dir.path(), out, per_line, &path);
    }
    // Grids of several lines are no CSV rows.
    let grid: String = puzzles[0]
        .as_bytes()
        .chunks(9)
        .map(|r| String::from_utf8(r.to_vec()).unwrap() + "\n")
        .collect();
    let (gdir, gpath) = temp_file("g.txt", grid.as_bytes());
    let gsolve = ["solve", gpath.to_str().unwrap(), "-o", "OUT"];
    let text_only = "text (.txt) in the input's layout";
    for out in ["a.csv", "a.tsv.xz"] {
        assert_refused(&gsolve, gdir.path(), out, text_only, &gpath);
    }
    // Standard input is refused alike, after its head was read.
    let pq = dir.path().join("s.parquet");
    let o = sb(["solve", "-o"]).arg(&pq).stdin(input.as_bytes()).code(2);
    assert!(o.stderr().contains("the answers of <stdin> (text input)"));
    assert!(!pq.exists());
    let count = ["count", p, "-o", "OUT"];
    assert_refused(&count, dir.path(), "c.parquet", "one count per line", &path);
    for out in [
        "a.txt", "a.TXT.gz", "a.sudoku", "a.out", "answers", "a.gz", "a.csv", "a.tsv.xz",
    ] {
        let target = dir.path().join(out);
        sb(["solve", p, "-o"]).arg(&target).note(out).ok();
        let written = std::fs::read(&target).unwrap();
        let lower = out.to_ascii_lowercase();
        let text = if lower.ends_with(".gz") || lower.ends_with(".xz") {
            decompress(&written)
        } else {
            written
        };
        assert_eq!(text, plain, "{out}");
    }

    // Delimited input: `.csv`, `.tsv` and `.txt` all get its rows.
    let csv: String = String::from("id,puzzle\n")
        + &puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{i},{p}\n"))
            .collect::<String>();
    let (cdir, cpath) = temp_file("p.csv", csv.as_bytes());
    let c = cpath.to_str().unwrap();
    let rows = sb(["solve", c]).output().stdout.clone();
    let text = String::from_utf8(rows.clone()).unwrap();
    assert!(text.starts_with("id,puzzle,solution\n"), "{text}");
    let answers: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_answers_9x9(&puzzles, &(answers.join("\n") + "\n"));
    // Comma-separated rows are refused a `.tsv` name (issue 35 item 6:
    // they were written there with their commas).
    let tsv = cdir.path().join("a.tsv");
    let o = sb(["solve", c, "-o"]).arg(&tsv).code(2);
    assert!(
        o.stderr().contains("the input's own delimiter"),
        "{}",
        o.stderr()
    );
    assert!(!tsv.exists());
    for out in ["a.csv", "a.txt", "a.csv.bz2"] {
        let target = cdir.path().join(out);
        sb(["solve", c, "-o"]).arg(&target).note(out).ok();
        let written = std::fs::read(&target).unwrap();
        let written = if out.ends_with(".bz2") {
            decompress(&written)
        } else {
            written
        };
        assert_eq!(written, rows, "{out}");
    }
    let delimited = "delimited rows (.csv, .tsv, with the input's delimiter) or text (.txt)";
    assert_refused(
        &["solve", c, "-o", "OUT"],
        cdir.path(),
        "a.arrow",
        delimited,
        &cpath,
    );
    // `count` of delimited rows writes rows too (a `solutions` column).
    assert_refused(
        &["count", c, "-o", "OUT"],
        cdir.path(),
        "c.npy",
        delimited,
        &cpath,
    );
}

/// `generate` writes lines of puzzles (CSV with `--with-solution`), tables
/// and `.npy` arrays (puzzles only: issue 42; read back in convert.rs).
#[test]
fn generate_refuses_names_of_formats_it_does_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("keep.txt");
    std::fs::write(&marker, b"x").unwrap();
    let gen = ["generate", "-n", "3", "-o", "OUT"];
    for out in ["g.csv", "g.tsv"] {
        assert_refused(&gen, dir.path(), out, "one puzzle per line", &marker);
    }
    let with = ["generate", "-n", "3", "--with-solution", "-o", "OUT"];
    assert_refused(
        &with,
        dir.path(),
        "g.tsv",
        "CSV (.csv), text (.txt), Parquet (.parquet) or Arrow IPC (.arrow, .arrows)",
        &marker,
    );
    assert_refused(
        &with,
        dir.path(),
        "g.npy",
        "a .npy array holds only puzzles",
        &marker,
    );
    let g = dir.path().join("g.csv.gz");
    sb(["generate", "-n", "3", "--with-solution", "-o"])
        .arg(&g)
        .ok();
    let text = String::from_utf8(decompress(&std::fs::read(&g).unwrap())).unwrap();
    assert!(text.starts_with("puzzle,solution\n"), "{text}");
    for row in text.lines().skip(1) {
        let (p, a) = row.split_once(',').unwrap();
        assert_answers_9x9(&[p], &format!("{a}\n"));
    }
}

/// `.npy` input: `.npy` or text lines, each possibly compressed; every
/// other format name refused.
#[test]
fn npy_input_is_written_as_npy_or_text_or_refused() {
    let lines = sample_lines();
    let puzzles: Vec<&str> = lines[..12].iter().map(String::as_str).collect();
    let rows: Vec<Vec<u8>> = puzzles
        .iter()
        .map(|p| cells(p, ".0", "123456789"))
        .collect();
    let (dir, path) = temp_file(
        "p.npy",
        &npy("|u1", &format!("({}, 81)", rows.len()), &rows),
    );
    let p = path.to_str().unwrap();
    let allowed = "NumPy (.npy) or answer lines (.txt)";
    for out in [
        "a.csv",
        "a.tsv",
        "a.parquet",
        "a.arrow",
        "a.arrows.gz",
        "a.csv.zst",
    ] {
        assert_refused(&["solve", p, "-o", "OUT"], dir.path(), out, allowed, &path);
    }
    assert_refused(
        &["count", p, "-o", "OUT"],
        dir.path(),
        "c.csv",
        allowed,
        &path,
    );

    let txt = dir.path().join("a.txt.zst");
    sb(["solve", p, "-o"]).arg(&txt).ok();
    let text = String::from_utf8(decompress(&std::fs::read(&txt).unwrap())).unwrap();
    assert_answers_9x9(&puzzles, &text);

    let arr = dir.path().join("a.npy.gz");
    sb(["solve", p, "-o"]).arg(&arr).ok();
    let bytes = decompress(&std::fs::read(&arr).unwrap());
    let head = npy_header("|u1", &format!("({}, 81)", rows.len()), false).len();
    assert!(bytes.starts_with(b"\x93NUMPY"));
    assert_eq!(bytes.len(), head + 81 * rows.len());
    for (r, a) in rows.iter().zip(bytes[head..].chunks(81)) {
        assert_valid(3, r, a);
    }

    let counts = dir.path().join("c.txt");
    sb(["count", p, "-o"]).arg(&counts).ok();
    // Sample puzzles are unique.
    assert_eq!(std::fs::read_to_string(&counts).unwrap(), "1\n".repeat(12));
}

#[cfg(feature = "columnar")]
mod tables {
    use super::*;
    use std::sync::Arc;

    use arrow_array::cast::AsArray;
    use arrow_array::{ArrayRef, StringArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use crate::columnar::shared::{batch, write_parquet_default};

    /// A Parquet file of one string column `puzzle`.
    fn write_parquet(path: &Path, puzzles: &[&str]) {
        let column = Arc::new(StringArray::from(puzzles.to_vec())) as ArrayRef;
        write_parquet_default(path, &batch(vec![("puzzle", column)]));
    }

    /// Copying a column chunk reads the input and writes the output in one
    /// call: when the write fails (a full disk), the output is named, not
    /// the input called a bad Parquet file.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_under_a_copied_parquet_column_names_the_output() {
        let lines = sample_lines();
        let puzzles: Vec<&str> = lines[..30].iter().map(String::as_str).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        write_parquet(&path, &puzzles);
        let o = sb(["solve"]).arg(&path).args(["-o", "/dev/full"]).code(2);
        let err = o.stderr();
        // A write error, named as one, the reason once (issue 35).
        assert!(
            err.contains("/dev/full: cannot write: No space left on device"),
            "{err}"
        );
        assert_eq!(err.matches("No space left").count(), 1, "{err}");
        assert!(!err.contains("bad Parquet file"), "{err}");
        assert_eq!(names(dir.path()), ["p.parquet"]);
    }

    /// The QA cases: `x.parquet -o answers.txt.gz` wrote a gzipped
    /// Parquet file, `-o a.csv` Parquet bytes. Now `.txt` under a codec is
    /// answer lines, a table name under a codec that table, and names of
    /// formats a table is not written in are refused.
    #[test]
    fn parquet_input_is_written_as_named_or_refused() {
        let lines = sample_lines();
        let puzzles: Vec<&str> = lines[..30].iter().map(String::as_str).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        write_parquet(&path, &puzzles);
        let p = path.to_str().unwrap();
        let allowed = "Parquet (.parquet), Arrow IPC (.arrow, .arrows) or answer lines (.txt)";
        for out in ["a.csv", "a.tsv", "a.npy", "a.csv.gz", "a.npy.xz"] {
            assert_refused(&["solve", p, "-o", "OUT"], dir.path(), out, allowed, &path);
        }
        assert_refused(
            &["count", p, "-o", "OUT"],
            dir.path(),
            "c.tsv",
            allowed,
            &path,
        );

        let txt = dir.path().join("answers.txt.gz");
        solve_to(&path, &txt).ok();
        let text = String::from_utf8(decompress(&std::fs::read(&txt).unwrap())).unwrap();
        assert_answers_9x9(&puzzles, &text);

        let pq = dir.path().join("solved.parquet.zst");
        solve_to(&path, &pq).ok();
        let bytes = bytes::Bytes::from(decompress(&std::fs::read(&pq).unwrap()));
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes)
            .unwrap()
            .build()
            .unwrap();
        let mut answers = String::new();
        for batch in reader {
            let batch = batch.unwrap();
            let sol = batch.column_by_name("solution").unwrap().as_string::<i32>();
            for v in sol.iter() {
                answers.push_str(v.unwrap());
                answers.push('\n');
            }
        }
        assert_answers_9x9(&puzzles, &answers);
    }
}

/// `--on-error fail` on stdout writes the answers of every record before
/// the bad one, nothing more, for every `-j`, chunk size, read path and
/// compression (before, a chunk-aligned prefix that changed with `-j`:
/// 140,640 and 145,328 lines for a bad record at line 150,001); to a file
/// it leaves no file.
#[test]
fn on_error_fail_writes_exactly_the_answers_before_the_bad_record() {
    let lines = sample_lines();
    let good: Vec<&str> = lines
        .iter()
        .cycle()
        .take(3001)
        .map(String::as_str)
        .collect();
    let mut input = good.join("\n") + "\n";
    input.push_str("1234\n");
    input.push_str(&good[..50].join("\n"));
    input.push('\n');
    let (dir, path) = temp_file("p.txt", input.as_bytes());
    let p = path.to_str().unwrap();
    let mut want: Option<Vec<u8>> = None;
    let cases: [&[&str]; 7] = [
        &["-j", "1"],
        &["-j", "2"],
        &["-j", "2", "--chunk-size", "1000"],
        &["-j", "1", "--chunk-size", "5000"],
        &["-j", "2", "--no-mmap"],
        &["-j", "2", "-"],
        &["-j", "2", "--compress", "zstd"],
    ];
    for flags in cases {
        let mut args = vec!["solve", "--on-error", "fail"];
        let stdin = flags.contains(&"-");
        if !stdin {
            args.push(p);
        }
        args.extend(flags);
        let o = sb(&args)
            .stdin(if stdin { input.as_bytes() } else { b"" })
            .note(format!("{flags:?}"))
            .code(1);
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let err = o.stderr();
        assert!(
            err.contains(&format!("{name}:3002: expected 81 cells, found 4")),
            "{err}"
        );
        let out = if flags.contains(&"--compress") {
            decompress(&o.stdout)
        } else {
            o.stdout.clone()
        };
        match &want {
            None => {
                assert_answers_9x9(&good, std::str::from_utf8(&out).unwrap());
                want = Some(out);
            }
            Some(w) => assert!(&out == w, "{flags:?}: {} bytes", out.len()),
        }
    }
    // To a file: nothing left behind, whatever the chunking.
    let out = dir.path().join("a.txt");
    for j in ["1", "2"] {
        sb(["solve", p, "--on-error", "fail", "-j", j, "-o"])
            .arg(&out)
            .code(1);
        assert_eq!(names(dir.path()), ["p.txt"]);
    }
}

/// An output in a directory that does not exist names the path given and
/// the reason, not the hidden temporary file.
#[test]
fn an_output_that_cannot_be_created_names_the_path_given() {
    let (dir, path) = temp_file("p.txt", (sample_lines()[0].clone() + "\n").as_bytes());
    let p = path.to_str().unwrap();
    for (out, reason) in [
        (
            dir.path().join("nodir").join("x.txt"),
            "No such file or directory",
        ),
        (path.join("x.txt"), "Not a directory"),
    ] {
        for cmd in [&["solve", p][..], &["count", p], &["generate", "-n", "1"]] {
            let mut args = cmd.to_vec();
            args.extend(["-o", out.to_str().unwrap()]);
            let o = sb(&args).note(format!("{args:?}")).code(2);
            let err = o.stderr();
            let want = format!("{}: cannot create: {reason}", out.display());
            assert!(err.contains(&want), "{args:?}: {err}");
            assert!(!err.contains(".sudoku-bulk-"), "{err}");
        }
    }
    assert_eq!(names(dir.path()), ["p.txt"]);
}
