//! The output guard (issue 41), through the real binary: every command that
//! writes refuses the same aliasing cases before any work (exit 2, every
//! file's bytes as they were, nothing left beside them), outputs of a run
//! go in place together or not at all, and the leak check and spills keep
//! their promises.

use std::ffi::OsString;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::util::{sb, temp_file};

fn bin_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoku-bulk")
}

/// `n` distinct 17-clue puzzles, one a line.
fn puzzles(n: usize) -> String {
    let text = fs::read_to_string(crate::util::data("17_clue_sub.txt")).unwrap();
    let mut out = String::new();
    for l in text.lines().take(n) {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Every file under `dir` with its bytes, sorted by name.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = match fs::symlink_metadata(&p) {
                Ok(m) if m.file_type().is_symlink() => {
                    format!("-> {}", fs::read_link(&p).unwrap().display()).into_bytes()
                }
                Ok(m) if m.is_dir() => b"<dir>".to_vec(),
                _ => fs::read(&p).unwrap(),
            };
            (name, bytes)
        })
        .collect();
    all.sort();
    all
}

/// A command that writes a file, as the table runs it: its arguments for
/// an input and the output under test (the other outputs, if any, named
/// apart), and whether its input may come from stdin.
struct Writer {
    name: &'static str,
    args: fn(input: &str, out: &str) -> Vec<String>,
    /// The same run with the output under test on stdout (`None`: `-`).
    stdout_args: fn(input: &str) -> Vec<String>,
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Every command that writes a file from an input. A new command that
/// writes files belongs here.
fn writers() -> Vec<Writer> {
    vec![
        Writer {
            name: "solve",
            args: |i, o| s(&["solve", i, "-o", o]),
            stdout_args: |i| s(&["solve", i]),
        },
        Writer {
            name: "count",
            args: |i, o| s(&["count", i, "-o", o]),
            stdout_args: |i| s(&["count", i]),
        },
        Writer {
            name: "canon",
            args: |i, o| s(&["canon", i, "-o", o]),
            stdout_args: |i| s(&["canon", i]),
        },
        Writer {
            name: "rate",
            args: |i, o| s(&["rate", i, "-o", o]),
            stdout_args: |i| s(&["rate", i]),
        },
        Writer {
            name: "rate --steps",
            args: |i, o| s(&["rate", i, "-o", "answers.txt", "--steps", o]),
            stdout_args: |i| s(&["rate", i, "-o", "answers.txt", "--steps", "-"]),
        },
        Writer {
            name: "dedupe",
            args: |i, o| s(&["dedupe", i, "-o", o]),
            stdout_args: |i| s(&["dedupe", i]),
        },
        Writer {
            name: "dedupe --report",
            args: |i, o| s(&["dedupe", i, "-o", "kept.txt", "--report", o]),
            stdout_args: |i| s(&["dedupe", i, "-o", "kept.txt", "--report", "-"]),
        },
        Writer {
            name: "convert",
            args: |i, o| s(&["convert", i, "-o", o]),
            // No standard output: the name picks the format.
            stdout_args: |i| s(&["convert", i, "-o", "-"]),
        },
        Writer {
            name: "overlap --report",
            args: |i, o| s(&["overlap", "train.txt", i, "--report", o]),
            stdout_args: |i| s(&["overlap", "train.txt", i, "--report", "-"]),
        },
    ]
}

/// Runs `args` in `dir` with the given stdin and stdout; returns the exit
/// code and stderr.
fn run_in(dir: &Path, args: &[String], stdin: Stdio, stdout: Stdio) -> (Option<i32>, String) {
    let out = Command::new(bin_path())
        .current_dir(dir)
        .args(args)
        .arg("--no-progress")
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh directory with the input `in.txt` (a repeat in it, for
/// `dedupe`), `train.txt` (for `overlap`) and links to the input.
fn scene() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzles(6);
    let input = format!("{p}{}", puzzles(2));
    fs::write(dir.path().join("in.txt"), input).unwrap();
    fs::write(dir.path().join("train.txt"), puzzles(3)).unwrap();
    fs::hard_link(dir.path().join("in.txt"), dir.path().join("hard.txt")).unwrap();
    std::os::unix::fs::symlink("in.txt", dir.path().join("soft.txt")).unwrap();
    dir
}

#[test]
fn every_command_refuses_the_same_aliasing_cases() {
    for w in writers() {
        // The output as the input by every name: itself, a hard link, a
        // symbolic link, another spelling.
        for out in ["in.txt", "hard.txt", "soft.txt", "./in.txt"] {
            let dir = scene();
            let before = snapshot(dir.path());
            let (code, err) = run_in(
                dir.path(),
                &(w.args)("in.txt", out),
                Stdio::null(),
                Stdio::null(),
            );
            assert_eq!(code, Some(2), "{} -> {out}: {err}", w.name);
            assert_eq!(snapshot(dir.path()), before, "{} -> {out}: {err}", w.name);
        }
        // The input on stdin and the output naming that file
        // (`dedupe -o F < F`).
        let dir = scene();
        let before = snapshot(dir.path());
        let stdin = File::open(dir.path().join("in.txt")).unwrap();
        let (code, err) = run_in(
            dir.path(),
            &(w.args)("-", "in.txt"),
            stdin.into(),
            Stdio::null(),
        );
        assert_eq!(code, Some(2), "{} -o F < F: {err}", w.name);
        assert_eq!(snapshot(dir.path()), before, "{} -o F < F: {err}", w.name);
        // Standard output opened on the input: appending (`F >> F`) and
        // read-write (`F 1<>F`).
        for append in [true, false] {
            let dir = scene();
            let before = snapshot(dir.path());
            let f = fs::OpenOptions::new()
                .read(!append)
                .write(true)
                .append(append)
                .open(dir.path().join("in.txt"))
                .unwrap();
            let (code, err) = run_in(
                dir.path(),
                &(w.stdout_args)("in.txt"),
                Stdio::null(),
                f.into(),
            );
            assert_eq!(code, Some(2), "{} F >> F (append {append}): {err}", w.name);
            assert_eq!(
                snapshot(dir.path()),
                before,
                "{} stdout on F: {err}",
                w.name
            );
        }
        // An output that is a directory, or in one that does not exist.
        for out in ["sub", "missing/out.txt"] {
            let dir = scene();
            fs::create_dir(dir.path().join("sub")).unwrap();
            let before = snapshot(dir.path());
            let (code, err) = run_in(
                dir.path(),
                &(w.args)("in.txt", out),
                Stdio::null(),
                Stdio::null(),
            );
            assert_eq!(code, Some(2), "{} -> {out}: {err}", w.name);
            assert_eq!(snapshot(dir.path()), before, "{} -> {out}: {err}", w.name);
            assert_eq!(snapshot(&dir.path().join("sub")), vec![], "{}", w.name);
        }
    }
}

/// Two outputs of one run on one file, or both on stdout, are refused
/// before any work; `/dev/null` takes both.
#[test]
fn two_outputs_of_a_run_never_share_a_file_or_a_stream() {
    let cases: &[&[&str]] = &[
        &["dedupe", "in.txt", "-o", "out.txt", "--report", "out.txt"],
        &["dedupe", "in.txt", "-o", "out.txt", "--report", "link.txt"],
        &["dedupe", "in.txt", "--report", "-"],
        &["dedupe", "in.txt", "-o", "/dev/stdout", "--report", "-"],
        &["rate", "in.txt", "--steps", "/dev/stdout"],
        &["rate", "in.txt", "-o", "/dev/stdout", "--steps", "-"],
        &["rate", "in.txt", "-o", "out.txt", "--steps", "link.txt"],
    ];
    for case in cases {
        let dir = scene();
        std::os::unix::fs::symlink("out.txt", dir.path().join("link.txt")).unwrap();
        let before = snapshot(dir.path());
        let out = Command::new(bin_path())
            .current_dir(dir.path())
            .args(*case)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{case:?}: {err}");
        assert!(out.stdout.is_empty(), "{case:?}");
        assert_eq!(snapshot(dir.path()), before, "{case:?}: {err}");
    }
    let dir = scene();
    let out = Command::new(bin_path())
        .current_dir(dir.path())
        .args([
            "dedupe",
            "in.txt",
            "-o",
            "/dev/null",
            "--report",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// A name that promises another format than the output gets is refused
/// before any work, for every output of `dedupe`, `overlap` and `rate`.
#[test]
fn names_that_promise_another_format_are_refused_for_every_output() {
    let dir = scene();
    let csv: String = std::iter::once("id,puzzle\n".to_string())
        .chain(
            puzzles(4)
                .lines()
                .enumerate()
                .map(|(i, p)| format!("{i},{p}\n")),
        )
        .collect();
    fs::write(dir.path().join("d.csv"), csv).unwrap();
    let grids: String = puzzles(2)
        .lines()
        .map(|p| {
            let rows: Vec<&str> = (0..9).map(|r| &p[r * 9..r * 9 + 9]).collect();
            format!("{}\n\n", rows.join("\n"))
        })
        .collect();
    fs::write(dir.path().join("g.txt"), grids).unwrap();
    let cases: &[&[&str]] = &[
        &["dedupe", "d.csv", "-o", "x.tsv"],
        &["dedupe", "g.txt", "-o", "x.csv"],
        &["dedupe", "in.txt", "-o", "x.parquet"],
        &["dedupe", "in.txt", "-o", "x.txt", "--report", "r.parquet"],
        &["dedupe", "in.txt", "-o", "x.txt", "--report", "r.tsv"],
        &["overlap", "train.txt", "in.txt", "--report", "r.npy"],
        &["rate", "in.txt", "-o", "x.txt", "--steps", "s.csv"],
    ];
    for case in cases {
        let before = snapshot(dir.path());
        let out = Command::new(bin_path())
            .current_dir(dir.path())
            .args(*case)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{case:?}: {out:?}");
        assert_eq!(snapshot(dir.path()), before, "{case:?}");
    }
}

/// `subprocess.run(..., stdout=DEVNULL, stdin=DEVNULL)`: Python opens
/// `/dev/null` read-write, which is what the caller asked for.
#[test]
fn a_read_write_dev_null_is_dev_null() {
    let (_d, input) = temp_file("in.txt", puzzles(3).as_bytes());
    let null = || {
        fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap()
    };
    let out = Command::new(bin_path())
        .args(["solve", input.to_str().unwrap()])
        .stdout(null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // stdin /dev/null read-write: no puzzles, an empty answer.
    let out = Command::new(bin_path())
        .args(["solve"])
        .stdin(null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
}

/// `dedupe`'s output is not left in place when its report then fails:
/// both go in place together, or neither (`/dev/full`: the disk full).
#[test]
fn dedupe_commits_output_and_report_together_or_neither() {
    let dir = scene();
    let before = snapshot(dir.path());
    let out = Command::new(bin_path())
        .current_dir(dir.path())
        .args([
            "dedupe",
            "in.txt",
            "-o",
            "kept.txt",
            "--report",
            "/dev/full",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("/dev/full: cannot write"), "{err}");
    assert!(!err.contains("cannot read"), "{err}");
    assert_eq!(snapshot(dir.path()), before, "{err}");
    // And with a report that can be written, both are there.
    sb(["dedupe"])
        .arg(dir.path().join("in.txt"))
        .arg("-o")
        .arg(dir.path().join("kept.txt"))
        .arg("--report")
        .arg(dir.path().join("r.csv"))
        .ok();
    assert_eq!(
        fs::read_to_string(dir.path().join("kept.txt")).unwrap(),
        puzzles(6)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("r.csv")).unwrap(),
        "dropped_row,first_row\n7,1\n8,2\n"
    );
}

/// Several inputs: an output reached through a symbolic link in
/// `--output-dir` never overwrites another input of the run (a later one,
/// read after, or an earlier one): refused before any work.
#[test]
fn output_dir_links_never_overwrite_an_input_of_the_run() {
    for cmd in ["solve", "count", "canon"] {
        for target in ["../b.txt", "../a.txt"] {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            fs::write(d.join("a.txt"), puzzles(2)).unwrap();
            fs::write(d.join("b.txt"), puzzles(3)).unwrap();
            fs::create_dir(d.join("out")).unwrap();
            std::os::unix::fs::symlink(target, d.join("out").join("a.txt")).unwrap();
            let before = (snapshot(d), snapshot(&d.join("out")));
            let out = Command::new(bin_path())
                .current_dir(d)
                .args([cmd, "a.txt", "b.txt", "--output-dir", "out"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{cmd} {target}: {out:?}");
            assert_eq!(
                (snapshot(d), snapshot(&d.join("out"))),
                before,
                "{cmd} {target}"
            );
        }
    }
}

/// A 0-byte table or array is an error for `dedupe` and `overlap`, not
/// empty text; a leak check with an empty side (whatever made it empty:
/// an empty file, a closed stdin) has compared nothing: exit 2.
#[test]
fn an_empty_side_is_no_pass_and_an_empty_table_no_text() {
    let dir = scene();
    let d = dir.path();
    for name in ["e.parquet", "e.npy", "e.arrow"] {
        fs::write(d.join(name), b"").unwrap();
        for args in [
            vec!["dedupe", name, "-o", "x.txt"],
            vec!["overlap", name, "in.txt"],
            vec!["overlap", "in.txt", name],
        ] {
            let out = Command::new(bin_path())
                .current_dir(d)
                .args(&args)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
            assert!(!d.join("x.txt").exists());
        }
    }
    fs::write(d.join("empty.txt"), b"").unwrap();
    for args in [
        vec!["overlap", "empty.txt", "in.txt"],
        vec!["overlap", "in.txt", "empty.txt"],
    ] {
        let out = Command::new(bin_path())
            .current_dir(d)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    }
    // A closed stdin.
    let out = Command::new("sh")
        .current_dir(d)
        .arg("-c")
        .arg(format!("'{}' overlap in.txt - <&-", bin_path().display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// `overlap`'s exit status is the answer a script reads: 1 when it found
/// leaks, also when the reader of `--report -` left early (`| head`).
#[test]
fn overlap_leak_status_survives_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = puzzles(1);
    fs::write(d.join("train.txt"), &p).unwrap();
    fs::write(d.join("test.txt"), p.repeat(100_000)).unwrap();
    let mut child = Command::new(bin_path())
        .current_dir(d)
        .args(["overlap", "train.txt", "test.txt", "--report", "-"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{status:?}");
    assert_eq!(&first, b"test_row,t");
}

/// `-q` means the exit status only for `check` and `overlap`, as `rg -q`.
#[test]
fn quiet_check_and_overlap_print_nothing() {
    let dir = scene();
    let d = dir.path();
    let solved = sb(["solve"]).arg(d.join("in.txt")).ok().stdout.clone();
    fs::write(d.join("answers.txt"), solved).unwrap();
    for (args, code) in [
        (vec!["-q", "overlap", "train.txt", "in.txt"], 1),
        (
            vec!["overlap", "-q", "in.txt", "in.txt", "--by", "exact"],
            1,
        ),
        (vec!["-q", "check", "in.txt", "answers.txt"], 0),
        (vec!["-q", "check", "in.txt", "train.txt"], 1),
    ] {
        let out = Command::new(bin_path())
            .current_dir(d)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
    }
}

/// Spilled runs are merged in rounds: `--memory 4K` on 60k records holds
/// a bounded number of files open (here under `ulimit -n 64`), and spill
/// files go to `$TMPDIR` or `--temp-dir` when the output is no file.
#[test]
fn spills_keep_few_files_open_and_go_where_they_may() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = puzzles(4000);
    let lines: Vec<&str> = text.lines().collect();
    // 60k records, each puzzle 15 times, interleaved.
    let mut input = String::new();
    for k in 0..60_000 {
        input.push_str(lines[(k * 7) % lines.len()]);
        input.push('\n');
    }
    fs::write(d.join("big.txt"), &input).unwrap();
    let out = Command::new("sh")
        .current_dir(d)
        .arg("-c")
        .arg(format!(
            "ulimit -n 64 && '{}' dedupe --by exact --memory 4K -j 2 big.txt -o kept.txt",
            bin_path().display()
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // The first of each record, in input order, computed here.
    let mut seen = std::collections::HashSet::new();
    let want: String = input
        .lines()
        .filter(|l| seen.insert(*l))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(fs::read_to_string(d.join("kept.txt")).unwrap(), want);
    // Output on stdout or /dev/null: spills in $TMPDIR (here one that
    // does not exist, so the run says where it tried), or --temp-dir.
    for out_args in [vec![], vec!["-o", "/dev/null"], vec!["-o", "/dev/stdout"]] {
        let out = Command::new(bin_path())
            .current_dir(d)
            .env("TMPDIR", d.join("no-such-tmp"))
            .args(["dedupe", "--memory", "4K", "big.txt"])
            .args(&out_args)
            .stdout(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{out_args:?}: {err}");
        assert!(err.contains("no-such-tmp"), "{out_args:?}: {err}");
        let out = Command::new(bin_path())
            .current_dir(d)
            .env("TMPDIR", d.join("no-such-tmp"))
            .args(["dedupe", "--memory", "4K", "--temp-dir", "."])
            .arg("big.txt")
            .args(&out_args)
            .stdout(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out_args:?}: {out:?}");
    }
}

/// Binary data on stdin is refused from its first bytes, before it is
/// copied to disk (the copy would go to `--temp-dir`, which does not
/// exist here: the refusal comes first).
#[test]
fn dedupe_sniffs_stdin_before_copying_it() {
    let out = sb(["dedupe", "--temp-dir", "/no-such-dir-for-spills"])
        .stdin(vec![0u8; 4 << 20])
        .code(2);
    assert!(out.stderr().contains("binary data"), "{out}");
    assert!(!out.stderr().contains("no-such-dir"), "{out}");
}

/// What follows an `end` line is not records: `dedupe` keeps the `end`
/// line and does not copy what follows unchecked.
#[test]
fn dedupe_does_not_copy_what_follows_an_end_line() {
    let p = puzzles(3);
    let l: Vec<&str> = p.lines().collect();
    let input = format!("{0}\n{1}\n{0}\nend\n{2}\n{2}\n", l[0], l[1], l[2]);
    let (dir, path) = temp_file("in.txt", input.as_bytes());
    let out_path = dir.path().join("out.txt");
    sb(["dedupe"]).arg(&path).arg("-o").arg(&out_path).ok();
    assert_eq!(
        fs::read_to_string(&out_path).unwrap(),
        format!("{}\n{}\nend\n", l[0], l[1])
    );
}

/// Messages name the path the user gave, escaped, and never the hidden
/// temporary file; a failed write says it was a write.
#[test]
fn messages_name_the_given_path_escaped_never_the_temporary() {
    let dir = scene();
    let d = dir.path();
    let weird = OsString::from("r\x1b[31m.parquet");
    let out = Command::new(bin_path())
        .current_dir(d)
        .args(["dedupe", "in.txt", "-o", "x.txt", "--report"])
        .arg(&weird)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.contains(&0x1b), "{out:?}");
    // A file-size limit: the write fails with EFBIG on the temporary.
    fs::write(d.join("big.txt"), puzzles(4000)).unwrap();
    for cmd in ["solve", "dedupe"] {
        let out = Command::new("sh")
            .current_dir(d)
            .arg("-c")
            .arg(format!(
                "ulimit -f 8 && '{}' {cmd} big.txt -o out.txt",
                bin_path().display()
            ))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.contains("out.txt: cannot write"), "{cmd}: {err}");
        assert!(!err.contains(".sudoku-bulk-"), "{cmd}: {err}");
        assert!(!err.contains("cannot read"), "{cmd}: {err}");
        assert!(!d.join("out.txt").exists());
        let left: Vec<_> = snapshot(d)
            .into_iter()
            .filter(|(n, _)| n.starts_with(".sudoku-bulk"))
            .collect();
        assert!(left.is_empty(), "{cmd}: {left:?}");
    }
}

/// The man page is plain ASCII roff: plain `groff` has nothing to warn
/// about (non-ASCII characters are `\[uXXXX]` escapes).
#[test]
fn the_man_page_is_ascii() {
    let out = sb(["man"]).ok();
    let raw: Vec<u8> = out
        .stdout
        .iter()
        .copied()
        .filter(|b| !b.is_ascii())
        .collect();
    assert!(raw.is_empty(), "{} non-ASCII bytes", raw.len());
    assert!(out.stdout.starts_with(b".ie") || out.stdout.starts_with(b".TH"));
}
