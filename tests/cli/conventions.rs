//! The command-line conventions users of rg and fd expect (issue 34):
//! completions and a man page from the tool itself, `-q`, `-j 0`, sizes
//! with units, `--progress plain`, `generate`'s dataset options and exit
//! status, and summaries that tell kept labels from solved ones.

use crate::util::*;

const DIGITS: &str = "123456789";

/// Each shell's script names the subcommands and their flags, and the
/// shell itself parses it (`bash -n`, `zsh -n`, `fish --no-execute`) when
/// that shell is installed.
#[test]
fn completions_for_bash_zsh_fish_parse() {
    for (shell, check) in [
        ("bash", &["bash", "-n"][..]),
        ("zsh", &["zsh", "-n"][..]),
        ("fish", &["fish", "--no-execute"][..]),
    ] {
        let o = sb(["completions", shell]).note(shell).ok();
        let script = o.stdout();
        assert!(script.len() > 1000, "{shell}: {script}");
        for word in ["solve", "generate", "chunk-size", "quiet"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
        let (_dir, path) = temp_file("completion", script.as_bytes());
        match std::process::Command::new(check[0])
            .args(&check[1..])
            .arg(&path)
            .output()
        {
            Ok(c) => assert!(
                c.status.success(),
                "{shell} rejects its script: {}",
                String::from_utf8_lossy(&c.stderr)
            ),
            Err(e) => eprintln!("{shell} not installed ({e}); script not parsed"),
        }
    }
    sb(["completions", "tcsh"]).code(2);
}

/// The man page is roff with the usual sections and a section per
/// subcommand holding its own flags; `man -l` renders it when installed.
#[test]
fn man_page_lists_every_subcommand_and_its_flags() {
    let o = sb(["man"]).ok();
    let page = o.stdout();
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{page}");
    assert!(page.contains(".TH sudoku-bulk 1"), "{page}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH VERSION"] {
        assert!(page.contains(section), "no {section}");
    }
    for (sub, flag) in [
        ("SOLVE", "chunk\\-size"),
        ("COUNT", "limit"),
        ("BENCH", "seconds"),
        ("CHECK", "column"),
        ("GENERATE", "best\\-effort"),
    ] {
        let at = page
            .find(&format!("COMMAND: {sub}"))
            .unwrap_or_else(|| panic!("no section for {sub}"));
        let next = page[at + 1..]
            .find("COMMAND: ")
            .map_or(page.len(), |n| at + 1 + n);
        assert!(page[at..next].contains(flag), "{sub} section lacks {flag}");
    }
    if let Ok(m) = std::process::Command::new("man")
        .env("MANWIDTH", "80")
        .args(["-l", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        let mut m = m;
        m.stdin.take().unwrap().write_all(page.as_bytes()).unwrap();
        let r = m.wait_with_output().unwrap();
        if r.status.success() {
            let text = String::from_utf8_lossy(&r.stdout);
            assert!(text.contains("--best-effort"), "{text}");
        }
    }
}

/// `-j 0` means all cores (as `xz -T0`), and answers like `-j 1`.
#[test]
fn threads_zero_means_all_cores() {
    let input = std::fs::read_to_string(data("sample.txt")).unwrap();
    let one = sb(["solve", "-j", "1"]).stdin(input.as_bytes()).output();
    let all = sb(["solve", "-j", "0"]).stdin(input.as_bytes()).ok();
    assert_answers_9x9(&puzzle_lines(&input), &all.stdout());
    assert_eq!(all.stdout, one.stdout);
    let g = sb(["generate", "-n", "30", "-j", "0"]).ok();
    assert_eq!(
        g.stdout,
        sb(["generate", "-n", "30", "-j", "1"]).output().stdout
    );
    let b = sb(["bench", "-j", "0", "--seconds", "0"])
        .arg(data("sample.txt"))
        .ok();
    let cores = std::thread::available_parallelism().unwrap().get();
    assert!(
        b.stdout().contains(&format!("{cores} thread(s)")),
        "{}",
        b.stdout()
    );
}

/// `--chunk-size` takes K/M units; odd ones are refused with a reason.
#[test]
fn chunk_size_takes_units() {
    let input = std::fs::read_to_string(data("sample.txt")).unwrap();
    let want = sb(["solve", "-j", "2"])
        .stdin(input.as_bytes())
        .output()
        .stdout
        .clone();
    for size in ["1K", "64k", "4KiB", "1M", "2000", "3KB"] {
        let o = sb(["solve", "-j", "2", "--chunk-size", size])
            .stdin(input.as_bytes())
            .note(size)
            .ok();
        assert_eq!(o.stdout, want, "{size}");
    }
    for (size, why) in [
        ("1.5M", "not a size"),
        ("65M", "64 MiB"),
        ("2X", "unknown unit"),
    ] {
        let o = sb(["solve", "--chunk-size", size])
            .stdin(input.as_bytes())
            .note(size)
            .code(2);
        assert!(o.stderr().contains(why), "{size}: {}", o.stderr());
    }
}

/// `-q`: nothing on stderr but errors; bad records still are.
#[test]
fn quiet_prints_errors_only() {
    let good = blank_out(&full_grid(3, 8), 50, 8);
    let input = format!("{}\n{}\n", encode(&good, DIGITS, '.'), "12345");
    let o = sb(["solve", "-q"]).stdin(input.as_bytes()).code(1);
    let err = o.stderr();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("<stdin>:2:"), "{err}");
    let o = sb(["-q", "solve", "-j", "60000"])
        .stdin(format!("{}\n", encode(&good, DIGITS, '.')).as_bytes())
        .ok();
    assert_eq!(o.stderr(), "");
    let o = sb(["generate", "-n", "5", "--quiet"]).ok();
    assert_eq!((o.stdout().lines().count(), o.stderr()), (5, String::new()));
    // Without -q the same runs say what they did.
    let o = sb(["solve"]).stdin(input.as_bytes()).output();
    assert!(
        o.stderr().contains("2 records, 1 solved, 1 bad"),
        "{}",
        o.stderr()
    );
}

/// `--progress plain` prints progress lines with the total and an ETA
/// where the total is known: generated puzzles, a file's bytes.
#[test]
fn plain_progress_has_total_and_eta() {
    let o = sb(["generate", "-n", "300", "--progress", "plain"]).ok();
    let err = o.stderr();
    let lines: Vec<&str> = err.lines().filter(|l| l.contains(": progress ")).collect();
    assert!(!lines.is_empty(), "{err}");
    assert!(
        lines
            .last()
            .unwrap()
            .contains("progress 300/300 puzzles (100%), ETA 0s"),
        "{err}"
    );
    let path = data("sample.txt");
    let size = std::fs::metadata(&path).unwrap().len();
    let o = sb(["solve", "--progress", "plain"]).arg(&path).output();
    let err = o.stderr();
    let last = err.lines().rfind(|l| l.contains(": progress ")).unwrap();
    assert!(
        last.contains(&format!(
            "progress {size}/{size} bytes (100%), ETA 0s, 354 puzzles"
        )),
        "{err}"
    );
    // -q wins over --progress.
    let o = sb(["solve", "-q", "--progress", "plain"])
        .arg(&path)
        .output();
    assert_eq!(o.stderr(), "");
}

/// Rows of a `generate --with-solution` CSV: (puzzle, solution) cells,
/// after checking that each solution is a valid grid keeping the givens.
fn generated_rows(csv: &str, blank: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    csv.lines()
        .skip(1)
        .map(|row| {
            let f: Vec<&str> = row.split(',').collect();
            let p = cells(f[0], blank, DIGITS);
            let s = cells(f[1], "", DIGITS);
            assert_valid(3, &p, &s);
            (p, s)
        })
        .collect()
}

/// A Kaggle-style file (`quizzes,solutions`, `0` blanks) straight from
/// `generate`, read back by `solve` and `check` without flags.
#[test]
fn generate_writes_kaggle_style_datasets() {
    let args = [
        "generate",
        "-n",
        "40",
        "--seed",
        "9",
        "--with-solution",
        "--blank",
        "0",
        "--header",
        "quizzes,solutions",
    ];
    let o = sb(args).ok();
    let csv = o.stdout();
    assert_eq!(csv.lines().next(), Some("quizzes,solutions"));
    assert!(!csv.contains('.'));
    let rows = generated_rows(&csv, "0");
    assert_eq!(rows.len(), 40);
    // The same puzzles as the default `.`-blank CSV.
    let dotted = sb(["generate", "-n", "40", "--seed", "9", "--with-solution"]).output();
    assert_eq!(generated_rows(&dotted.stdout(), "."), rows);
    let (_dir, path) = temp_file("kaggle.csv", csv.as_bytes());
    let c = sb(["check"]).arg(&path).ok();
    assert!(c.stdout().contains("40 good, 0 bad"), "{}", c.stdout());
    // Solving it keeps every label: the summary says so.
    let s = sb(["solve"]).arg(&path).output();
    assert_eq!(s.stdout, csv.as_bytes());
    assert!(
        s.stderr().contains("40 records, 0 solved, 40 kept, 0 bad"),
        "{}",
        s.stderr()
    );
    // Refused: a header without solutions, one name, `0` blanks in 36x36.
    for bad in [
        &["generate", "-n", "1", "--header", "a,b"][..],
        &[
            "generate",
            "-n",
            "1",
            "--with-solution",
            "--header",
            "quizzes",
        ][..],
        &["generate", "-n", "1", "--with-solution", "--header", "a,a"][..],
        &[
            "generate", "-n", "1", "--size", "36", "--blank", "0", "--clues", "803",
        ][..],
        &["generate", "-n", "1", "--blank", "_"][..],
    ] {
        sb(bad).note(format!("{bad:?}")).code(2);
    }
}

/// Puzzles that miss `--difficulty` are written, counted on stderr, and
/// make the exit status 1 unless `--best-effort`. The count matches the
/// levels `--stats` prints per puzzle.
#[test]
fn generate_off_target_exits_1_unless_best_effort() {
    let args = [
        "generate",
        "-n",
        "12",
        "--seed",
        "2",
        "--difficulty",
        "extreme",
        "--stats",
    ];
    let o = sb(args).output();
    let text = o.stdout();
    assert_eq!(text.lines().count(), 12);
    let missed = text.lines().filter(|l| !l.ends_with(" extreme")).count();
    assert!(
        missed > 0,
        "seed 2 gives 12 extreme puzzles now; pick another\n{text}"
    );
    assert_eq!(o.status.code(), Some(1), "{}", o.stderr());
    assert!(
        o.stderr().contains(&format!(
            "{missed} of 12 puzzles missed --difficulty extreme"
        )),
        "{}",
        o.stderr()
    );
    let b = sb([&args[..], &["--best-effort"]].concat()).ok();
    assert_eq!(b.stdout, o.stdout);
    // On target: exit 0 without the flag.
    let e = sb([
        "generate",
        "-n",
        "12",
        "--seed",
        "2",
        "--difficulty",
        "easy",
        "--stats",
    ])
    .ok();
    assert!(e.stdout().lines().all(|l| l.ends_with(" easy")));
}

/// Labels verified and written back are `kept` in the summary; empty ones
/// filled are `solved`.
#[test]
fn summary_counts_kept_labels() {
    let mut csv = String::from("puzzle,solution\n");
    for seed in 0..5 {
        let full = full_grid(3, seed);
        let p = encode(&blank_out(&full, 55, seed), DIGITS, '.');
        let label = if seed == 3 {
            String::new()
        } else {
            encode(&full, DIGITS, '.')
        };
        csv.push_str(&format!("{p},{label}\n"));
    }
    let o = sb(["solve"]).stdin(csv.as_bytes()).ok();
    assert!(
        o.stderr().contains("5 records, 1 solved, 4 kept, 0 bad"),
        "{}",
        o.stderr()
    );
    let o = sb(["solve", "--overwrite"]).stdin(csv.as_bytes()).output();
    assert!(
        o.stderr().contains("5 records, 5 solved, 0 bad"),
        "{}",
        o.stderr()
    );
}

/// `solve A B --output-dir DIR` writes DIR/A and DIR/B, each in its
/// input's layout; without it the answers follow each other on stdout.
/// Ambiguous combinations are refused before anything is written.
#[test]
fn several_inputs_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let grids: Vec<(Vec<u8>, Vec<u8>)> = (20..26)
        .map(|seed| {
            let full = full_grid(3, seed);
            (blank_out(&full, 50, seed), full)
        })
        .collect();
    let lines: String = grids[..3]
        .iter()
        .map(|(p, _)| encode(p, DIGITS, '.') + "\n")
        .collect();
    let mut csv = String::from("id,puzzle,solution\n");
    for (i, (p, _)) in grids[3..].iter().enumerate() {
        csv.push_str(&format!("{i},{},\n", encode(p, DIGITS, '0')));
    }
    std::fs::write(d("a.txt"), &lines).unwrap();
    std::fs::write(d("b.csv"), &csv).unwrap();
    let out = d("out");
    let o = sb([
        "solve",
        &s(&d("a.txt")),
        &s(&d("b.csv")),
        "--output-dir",
        &s(&out),
    ])
    .ok();
    assert!(
        o.stderr().contains("a.txt: 3 records, 3 solved"),
        "{}",
        o.stderr()
    );
    assert!(
        o.stderr().contains("b.csv: 3 records, 3 solved"),
        "{}",
        o.stderr()
    );
    let a = std::fs::read_to_string(out.join("a.txt")).unwrap();
    assert_answers_9x9(&puzzle_lines(&lines), &a);
    let b = std::fs::read_to_string(out.join("b.csv")).unwrap();
    let mut rows = b.lines();
    assert_eq!(rows.next(), Some("id,puzzle,solution"));
    for ((p, _), row) in grids[3..].iter().zip(rows) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[1], encode(p, DIGITS, '0'));
        assert_valid(3, p, &cells(f[2], "", DIGITS));
    }
    // To stdout: the same answers, one input after the other.
    let o = sb(["solve", &s(&d("a.txt")), &s(&d("b.csv"))]).ok();
    assert_eq!(o.stdout(), a + &b);
    // A missing input is reported; the others still run; exit 2.
    let o = sb([
        "count",
        &s(&d("nope.txt")),
        &s(&d("a.txt")),
        "--output-dir",
        &s(&d("c")),
    ])
    .code(2);
    assert!(o.stderr().contains("nope.txt"), "{}", o.stderr());
    let alone = sb(["count", &s(&d("a.txt"))]).output();
    assert_eq!(std::fs::read(d("c").join("a.txt")).unwrap(), alone.stdout);
    assert_eq!(alone.stdout().lines().count(), 3);
    // The input's own directory: each output would be its input.
    sb(["solve", &s(&d("a.txt")), "--output-dir", &s(dir.path())]).code(2);
    assert_eq!(std::fs::read_to_string(d("a.txt")).unwrap(), lines);
    std::fs::create_dir(d("x")).unwrap();
    std::fs::write(d("x").join("a.txt"), &lines).unwrap();
    for (args, why) in [
        (
            vec![s(&d("a.txt")), s(&d("b.csv")), "-o".into(), s(&d("o.txt"))],
            "--output-dir",
        ),
        (
            vec![s(&d("a.txt")), "--output-dir".into(), s(&d("o"))]
                .into_iter()
                .chain(["-".into()])
                .collect(),
            "stdin",
        ),
        (vec!["--output-dir".into(), s(&d("o"))], "stdin"),
        (
            vec![
                s(&d("a.txt")),
                s(&d("x").join("a.txt")),
                "--output-dir".into(),
                s(&d("o")),
            ],
            "both",
        ),
        (vec!["-".into(), "-".into()], "once"),
        (vec![s(&d("p.npy")), s(&d("q.npy"))], "--output-dir"),
    ] {
        let args: Vec<&str> = std::iter::once("solve")
            .chain(args.iter().map(|a| a.as_str()))
            .collect();
        let o = sb(&args)
            .stdin(lines.as_bytes())
            .note(format!("{args:?}"))
            .code(2);
        assert!(o.stderr().contains(why), "{args:?}: {}", o.stderr());
        assert!(!d("o").exists() && !d("o.txt").exists(), "{args:?}");
    }
}

/// Six 9x9 puzzles built without a solver (a shuffled full grid, blanked)
/// as cells, with their full grids.
fn six_puzzles() -> Vec<(Vec<u8>, Vec<u8>)> {
    (40..46)
        .map(|seed| {
            let full = full_grid(3, seed);
            (blank_out(&full, 45, seed), full)
        })
        .collect()
}

/// `bench` on a `.npy` array: the same puzzles as the text file give the
/// same count, all verified; a bad row is counted as bad.
#[test]
fn bench_reads_npy() {
    let p = six_puzzles();
    let dir = tempfile::tempdir().unwrap();
    let mut rows: Vec<Vec<u8>> = p.iter().map(|(c, _)| c.clone()).collect();
    let text: String = rows.iter().map(|c| encode(c, DIGITS, '.') + "\n").collect();
    std::fs::write(dir.path().join("p.txt"), &text).unwrap();
    std::fs::write(dir.path().join("p.npy"), npy("|u1", "(6, 81)", &rows)).unwrap();
    rows.push(vec![12; 81]);
    std::fs::write(dir.path().join("bad.npy"), npy("<i8", "(7, 9, 9)", &rows)).unwrap();
    for (file, bad) in [("p.txt", 0), ("p.npy", 0), ("bad.npy", 1)] {
        let path = dir.path().join(file);
        let o = sb(["bench", "--json", "--seconds", "0"])
            .arg(&path)
            .note(file)
            .code(bad);
        let out = o.stdout();
        for want in [
            "\"puzzles\": 6,".to_string(),
            "\"verified\": 6,".to_string(),
            format!("\"bad_records\": {bad},"),
        ] {
            assert!(out.contains(&want), "{file}: no {want} in {out}");
        }
    }
}

/// `--progress plain` on an array counts rows out of its shape's count;
/// on a gzip file, the compressed bytes read out of the file's size.
#[test]
fn progress_totals_for_npy_and_gzip() {
    use std::io::Write;
    let p = six_puzzles();
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<Vec<u8>> = p.iter().map(|(c, _)| c.clone()).collect();
    let path = dir.path().join("p.npy");
    std::fs::write(&path, npy("|u1", "(6, 81)", &rows)).unwrap();
    let out = dir.path().join("a.npy");
    let o = sb(["solve", "--progress", "plain"])
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .ok();
    let last = o
        .stderr()
        .lines()
        .rfind(|l| l.contains(": progress "))
        .map(String::from);
    assert!(
        last.as_deref()
            .is_some_and(|l| l.ends_with("progress 6/6 puzzles (100%), ETA 0s")),
        "{}",
        o.stderr()
    );
    let text: String = rows.iter().map(|c| encode(c, DIGITS, '.') + "\n").collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.repeat(50).as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let path = dir.path().join("p.txt.gz");
    std::fs::write(&path, &gz).unwrap();
    let o = sb(["solve", "--progress", "plain"]).arg(&path).ok();
    let n = gz.len();
    assert!(
        o.stderr().contains(&format!(
            "progress {n}/{n} bytes (100%), ETA 0s, 300 puzzles"
        )),
        "{}",
        o.stderr()
    );
}

#[cfg(feature = "columnar")]
mod tables {
    use super::*;
    use std::sync::Arc;

    use arrow_array::{ArrayRef, StringArray};

    use crate::columnar::shared::{batch, read_parquet, strings, write_parquet_default};

    /// A Parquet file of one string column `puzzle`.
    fn write_parquet(path: &std::path::Path, puzzles: Vec<Option<String>>) {
        let column = Arc::new(StringArray::from(puzzles)) as ArrayRef;
        write_parquet_default(path, &batch(vec![("puzzle", column)]));
    }

    /// `bench` on Parquet (written by the parquet crate): all puzzles
    /// loaded and verified, a bad row counted; and a Parquet run's
    /// progress counts rows out of the footer's total.
    #[test]
    fn bench_and_progress_on_parquet() {
        let p = six_puzzles();
        let dir = tempfile::tempdir().unwrap();
        let mut puzzles: Vec<Option<String>> = p
            .iter()
            .map(|(c, _)| Some(encode(c, DIGITS, '.')))
            .collect();
        let good = dir.path().join("p.parquet");
        write_parquet(&good, puzzles.clone());
        puzzles.push(Some("123".into()));
        let bad = dir.path().join("bad.parquet");
        write_parquet(&bad, puzzles);
        for (path, code) in [(&good, 0), (&bad, 1)] {
            let o = sb(["bench", "--json", "--seconds", "0"])
                .arg(path)
                .code(code);
            let out = o.stdout();
            for want in [
                "\"puzzles\": 6,".to_string(),
                "\"verified\": 6,".to_string(),
                format!("\"bad_records\": {code},"),
            ] {
                assert!(out.contains(&want), "no {want} in {out}");
            }
        }
        let out = dir.path().join("a.parquet");
        let o = sb(["solve", "--progress", "plain"])
            .arg(&bad)
            .arg("-o")
            .arg(&out)
            .code(1);
        assert!(
            o.stderr().contains("progress 7/7 puzzles (100%), ETA 0s"),
            "{}",
            o.stderr()
        );
        // The answers: valid grids keeping the givens, in row order.
        let answers = strings(read_parquet(&out).column_by_name("solution").unwrap());
        assert_eq!(answers.len(), 7);
        for (k, (puzzle, _)) in p.iter().enumerate() {
            assert_valid(3, puzzle, &cells(answers[k].as_ref().unwrap(), "", DIGITS));
        }
    }
}

/// With stdin on a terminal and no input named, `solve` says it reads the
/// terminal (`script` runs it on a pseudo-terminal; `timeout` ends the
/// wait, since nothing types). Not with `-q`, and never for a pipe.
#[cfg(target_os = "linux")]
#[test]
fn terminal_stdin_gets_a_hint() {
    let bin = assert_cmd::cargo::cargo_bin("sudoku-bulk");
    let on_tty = |args: &str| -> Option<String> {
        let o = std::process::Command::new("script")
            .args([
                "-qec",
                &format!("timeout 2 {} {args}", bin.display()),
                "/dev/null",
            ])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .ok()?;
        let out = o.wait_with_output().ok()?;
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let Some(said) = on_tty("solve") else {
        eprintln!("no `script` command; hint not tested");
        return;
    };
    assert!(
        said.contains("reading puzzles from the terminal"),
        "{said:?}"
    );
    let said = on_tty("solve -q").unwrap();
    assert!(!said.contains("reading puzzles"), "{said:?}");
    let o = sb(["solve"]).output();
    assert!(!o.stderr().contains("reading puzzles"), "{}", o.stderr());
}
