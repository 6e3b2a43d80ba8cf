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
    let o = sb(["solve", "--no-progress"])
        .stdin(EXAMPLE_IN.as_bytes())
        .ok();
    assert_eq!(o.stdout(), EXAMPLE_OUT);
    assert_answers_9x9(&puzzle_lines(EXAMPLE_IN)[..2], &o.stdout());
    assert!(
        o.stderr().contains("2 records, 2 solved, 0 bad"),
        "{}",
        o.stderr()
    );
}

#[test]
fn sample_data_all_valid() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let o = sb(["solve"]).arg(data("sample.txt")).ok();
    assert_answers_9x9(&puzzle_lines(&text), &o.stdout());
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
    let o = sb(["solve", p]).code(1);
    let out = o.stdout();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7, "one output line per record:\n{out}");
    assert_answers_9x9(&[good], lines[0]);
    assert_answers_9x9(&[good], lines[6]);
    for l in &lines[1..6] {
        assert!(l.starts_with("error: "), "{l}");
    }
    let err = o.stderr();
    for want in [
        // The comment line is not a row, the blank line neither.
        format!("{p}:3 (row 2): expected 81 cells, found 80"),
        format!("{p}:5 (row 3): cell 17: invalid character 'x'"),
        format!("{p}:6 (row 4): duplicate given 4 at r1c1 and r1c2"),
        format!("{p}:7 (row 5): no solution"),
        format!("{p}:8 (row 6): expected 81 cells, found 82"),
    ] {
        assert!(err.contains(&want), "missing {want:?} in\n{err}");
    }
    assert!(err.contains("7 records, 2 solved, 5 bad"), "{err}");
}

#[test]
fn crlf_bom_and_missing_final_newline() {
    let lines = puzzle_lines(EXAMPLE_IN);
    let input = format!("\u{feff}{}\r\n{}", lines[0], lines[1]);
    let o = sb(["solve"]).stdin(input.as_bytes()).ok();
    assert_eq!(o.stdout(), EXAMPLE_OUT);
    let (_dir, path) = temp_file("crlf.txt", input.as_bytes());
    for extra in [&[][..], &["--no-mmap"][..]] {
        let mut args = vec!["solve", path.to_str().unwrap()];
        args.extend_from_slice(extra);
        assert_eq!(sb(&args).output().stdout(), EXAMPLE_OUT);
    }
}

#[test]
fn empty_input_gives_empty_output() {
    for input in ["", "\n\n# only comments\n", "end\n12345"] {
        let o = sb(["solve"]).stdin(input.as_bytes()).ok();
        assert_eq!(o.stdout(), "");
        assert!(o.stderr().contains("0 records"));
    }
    let (_dir, path) = temp_file("empty.txt", b"");
    let o = sb(["solve"]).arg(&path).ok();
    assert_eq!(o.stdout(), "");
}

#[test]
fn all_paths_give_identical_bytes() {
    // Good and bad records mixed, so error lines are ordered too.
    let mut input = std::fs::read_to_string(data("sample.txt")).unwrap();
    input.push_str(&format!("{UNSOLVABLE}\nnot a puzzle\n"));
    let (_dir, path) = temp_file("in.txt", input.as_bytes());
    let p = path.to_str().unwrap();
    let reference = sb(["solve", "-j", "1", p]).code(1);
    assert_answers_9x9(
        &puzzle_lines(&input)[..354],
        &reference
            .stdout()
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
                let o = sb(&args).stdin(stdin).note(format!("{args:?}")).code(1);
                assert!(o.stdout == reference.stdout, "{args:?} {source} differs");
                assert!(o.stderr.ends_with(b"\n") && o.stderr().contains("no solution"));
            }
        }
    }
}

#[test]
fn output_file_is_written_atomically() {
    let (dir, path) = temp_file("in.txt", EXAMPLE_IN.as_bytes());
    let out = dir.path().join("answers.txt");
    let o = solve_to(&path, &out).ok();
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
    solve_to(&path, &fifo).ok();
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
    solve_to(&path, &link).ok();
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
        let o = solve_to(&path, &out)
            .args(["--on-error", "fail", "-j", threads, "--chunk-size", "10"])
            .code(1);
        assert!(
            o.stderr()
                .contains(&format!("{}:3: no solution", path.display())),
            "{}",
            o.stderr()
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
        let o = sb(["solve", p, "-o", out]).code(2);
        assert!(o.stderr().contains("refusing"), "{}", o.stderr());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), EXAMPLE_IN);
    }
}

#[test]
fn usage_and_io_errors_exit_2() {
    let o = sb(["solve", "/nonexistent/puzzles.txt"]).code(2);
    assert!(o.stderr().contains("/nonexistent/puzzles.txt: cannot open"));
    sb(["solve", "--bogus"]).code(2);
    // (`-j 0` is all cores: conventions::threads_zero_means_all_cores.)
    sb(["solve", "-j", "x"]).code(2);
    let (_dir, path) = temp_file("in.txt", EXAMPLE_IN.as_bytes());
    sb(["solve"])
        .arg(&path)
        .args(["-o", "/nonexistent/dir/out.txt"])
        .code(2);
}

#[test]
fn unique_marks_puzzles_with_several_solutions() {
    let empty = ".".repeat(81);
    let lines = puzzle_lines(EXAMPLE_IN);
    let input = format!("{}\n{empty}\n", lines[0]);
    let o = sb(["solve", "--unique"]).stdin(input.as_bytes()).code(1);
    let out = o.stdout();
    let out: Vec<&str> = out.lines().collect();
    assert_answers_9x9(&[lines[0]], out[0]);
    assert_eq!(out[1], "error: multiple solutions");
    // Without --unique any one of the solutions is a correct answer.
    let o = sb(["solve"]).stdin(input.as_bytes()).ok();
    assert_answers_9x9(&[lines[0], &empty], &o.stdout());
}
