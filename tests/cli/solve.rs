//! `solve` end to end: layouts of the one-per-line format, bad records, every
//! input and threading path, output safety.

use crate::util::*;

const EXAMPLE_IN: &str = "\
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.
end
";
// The expected output given in the issue text.
const EXAMPLE_OUT: &str = "\
417369825632158947958724316825437169791586432346912758289643571573291684164875293
416837529982465371735129468571298643293746185864351297647913852359682714128574936
";

/// Consistent givens (no repeats), but r1c9 can only be 9 and column 9 has a 9.
const UNSOLVABLE: &str =
    "12345678....................................9....................................";

#[test]
fn example_from_the_issue() {
    let o = run(&["solve", "--no-progress"], EXAMPLE_IN.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), EXAMPLE_OUT);
    assert_answers_9x9(&puzzle_lines(EXAMPLE_IN)[..2], &stdout(&o));
    assert!(
        stderr(&o).contains("2 records, 2 solved, 0 bad"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sample_data_all_valid() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let o = run(&["solve", data("sample.txt").to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0));
    assert_answers_9x9(&puzzle_lines(&text), &stdout(&o));
}

#[test]
fn every_kind_of_bad_record_is_marked_in_place() {
    let good = puzzle_lines(EXAMPLE_IN)[0];
    let mut bad_char = good.to_string();
    bad_char.replace_range(16..17, "x");
    let mut dup = good.to_string();
    dup.replace_range(1..2, "4"); // r1c1 is already 4
    let input = format!(
        "# a comment\n{good}\n{}\n\n{bad_char}\n{dup}\n{UNSOLVABLE}\n{good}0\n{good}  rating 1.2\n",
        &good[..80]
    );
    let (_dir, path) = temp_file("mixed.txt", input.as_bytes());
    let p = path.to_str().unwrap();
    let o = run(&["solve", p], b"");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "one output line per record:\n{out}");
    assert_answers_9x9(&[good], lines[0]);
    assert_answers_9x9(&[good], lines[6]);
    for l in &lines[1..6] {
        assert!(l.starts_with("error: "), "{l}");
    }
    let err = stderr(&o);
    for want in [
        format!("{p}:3: expected 81 cells, found 80"),
        format!("{p}:5: cell 17: invalid character 'x'"),
        format!("{p}:6: duplicate given 4 at r1c1 and r1c2"),
        format!("{p}:7: no solution"),
        format!("{p}:8: expected 81 cells, found 82"),
    ] {
        assert!(err.contains(&want), "missing {want:?} in\n{err}");
    }
    assert!(err.contains("7 records, 2 solved, 5 bad"), "{err}");
}

#[test]
fn crlf_bom_and_missing_final_newline() {
    let lines = puzzle_lines(EXAMPLE_IN);
    let input = format!("\u{feff}{}\r\n{}", lines[0], lines[1]);
    let o = run(&["solve"], input.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), EXAMPLE_OUT);
    let (_dir, path) = temp_file("crlf.txt", input.as_bytes());
    for extra in [&[][..], &["--no-mmap"][..]] {
        let mut args = vec!["solve", path.to_str().unwrap()];
        args.extend_from_slice(extra);
        assert_eq!(stdout(&run(&args, b"")), EXAMPLE_OUT);
    }
}

#[test]
fn empty_input_gives_empty_output() {
    for input in ["", "\n\n# only comments\n", "end\n12345"] {
        let o = run(&["solve"], input.as_bytes());
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o), "");
        assert!(stderr(&o).contains("0 records"));
    }
    let (_dir, path) = temp_file("empty.txt", b"");
    let o = run(&["solve", path.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn all_paths_give_identical_bytes() {
    // Good and bad records mixed, so error lines are ordered too.
    let mut input = std::fs::read_to_string(data("sample.txt")).unwrap();
    input.push_str(&format!("{UNSOLVABLE}\nnot a puzzle\n"));
    let (_dir, path) = temp_file("in.txt", input.as_bytes());
    let p = path.to_str().unwrap();
    let reference = run(&["solve", "-j", "1", p], b"");
    assert_eq!(reference.status.code(), Some(1));
    assert_answers_9x9(
        &puzzle_lines(&input)[..354],
        &stdout(&reference)
            .lines()
            .take(354)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    for threads in ["1", "2", "4"] {
        for chunk in [None, Some("1"), Some("200"), Some("5000")] {
            for source in ["mmap", "read", "stdin"] {
                let mut args = vec!["solve", "-j", threads];
                if let Some(c) = chunk {
                    args.extend(["--chunk-size", c]);
                }
                let stdin = match source {
                    "mmap" => {
                        args.push(p);
                        &b""[..]
                    }
                    "read" => {
                        args.extend([p, "--no-mmap"]);
                        &b""[..]
                    }
                    _ => input.as_bytes(),
                };
                let o = run(&args, stdin);
                assert_eq!(o.status.code(), Some(1), "{args:?}");
                assert!(o.stdout == reference.stdout, "{args:?} {source} differs");
                assert!(o.stderr.ends_with(b"\n") && stderr(&o).contains("no solution"));
            }
        }
    }
}

#[test]
fn output_file_is_written_atomically() {
    let (dir, path) = temp_file("in.txt", EXAMPLE_IN.as_bytes());
    let out = dir.path().join("answers.txt");
    let o = run(
        &["solve", path.to_str().unwrap(), "-o", out.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(o.stdout, b"");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), EXAMPLE_OUT);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}

/// `-o` naming a pipe (or `/dev/null`) must write into it, not rename a
/// temporary file over it: that would replace the device with a plain file.
#[cfg(unix)]
#[test]
fn output_to_a_fifo_writes_through_it() {
    use std::os::unix::fs::FileTypeExt;
    let (dir, path) = temp_file("in.txt", EXAMPLE_IN.as_bytes());
    let fifo = dir.path().join("answers.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = run(
        &[
            "solve",
            path.to_str().unwrap(),
            "-o",
            fifo.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(reader.join().unwrap(), EXAMPLE_OUT);
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO is still a FIFO: {kind:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// `-o` naming a symbolic link writes the link's target and keeps the link.
#[cfg(unix)]
#[test]
fn output_through_a_symlink_keeps_the_link() {
    let (dir, path) = temp_file("in.txt", EXAMPLE_IN.as_bytes());
    let target = dir.path().join("real.txt");
    std::fs::write(&target, "old contents\n").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = run(
        &[
            "solve",
            path.to_str().unwrap(),
            "-o",
            link.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), EXAMPLE_OUT);
}

#[test]
fn on_error_fail_stops_and_leaves_no_file() {
    let input = format!("{}{UNSOLVABLE}\n", EXAMPLE_IN.replace("end\n", ""));
    let (dir, path) = temp_file("in.txt", input.as_bytes());
    let out = dir.path().join("answers.txt");
    for threads in ["1", "2"] {
        let o = run(
            &[
                "solve",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--on-error",
                "fail",
                "-j",
                threads,
                "--chunk-size",
                "10",
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).contains(&format!("{}:3: no solution", path.display())),
            "{}",
            stderr(&o)
        );
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}

#[test]
fn refuses_to_overwrite_the_input() {
    let (dir, path) = temp_file("in.txt", EXAMPLE_IN.as_bytes());
    let p = path.to_str().unwrap();
    let other_spelling = dir.path().join(".").join("in.txt");
    for out in [p, other_spelling.to_str().unwrap()] {
        let o = run(&["solve", p, "-o", out], b"");
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("refusing"), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), EXAMPLE_IN);
    }
}

#[test]
fn usage_and_io_errors_exit_2() {
    let o = run(&["solve", "/nonexistent/puzzles.txt"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/puzzles.txt: cannot open"));
    assert_eq!(run(&["solve", "--bogus"], b"").status.code(), Some(2));
    // (`-j 0` is all cores: conventions::threads_zero_means_all_cores.)
    assert_eq!(run(&["solve", "-j", "x"], b"").status.code(), Some(2));
    let (_dir, path) = temp_file("in.txt", EXAMPLE_IN.as_bytes());
    let o = run(
        &[
            "solve",
            path.to_str().unwrap(),
            "-o",
            "/nonexistent/dir/out.txt",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn unique_marks_puzzles_with_several_solutions() {
    let empty = ".".repeat(81);
    let lines = puzzle_lines(EXAMPLE_IN);
    let input = format!("{}\n{empty}\n", lines[0]);
    let o = run(&["solve", "--unique"], input.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let out: Vec<&str> = out.lines().collect();
    assert_answers_9x9(&[lines[0]], out[0]);
    assert_eq!(out[1], "error: multiple solutions");
    // Without --unique any one of the solutions is a correct answer.
    let o = run(&["solve"], input.as_bytes());
    assert_eq!(o.status.code(), Some(0));
    assert_answers_9x9(&[lines[0], &empty], &stdout(&o));
}
