//! Nothing lost, nothing left behind: the input is never overwritten, the
//! temporary answer file goes away on signals, panics and a shrinking input,
//! replaced files keep their mode and links, and messages stay readable.

use std::path::Path;
use std::process::{Child, Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::util::*;

fn sample() -> String {
    std::fs::read_to_string(data("sample.txt")).unwrap()
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

fn has_temp(dir: &Path) -> bool {
    names(dir).iter().any(|n| n.ends_with(".tmp"))
}

/// Waits until `cond` holds, failing after a minute.
fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits for `child` to end, killing it and failing if it hangs.
fn wait_or_fail(child: &mut Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("{what}: the run hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn bin_path() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("sudoku-bulk")
}

#[test]
fn output_over_stdin_is_refused() {
    let text = sample();
    let (_dir, path) = temp_file("in.txt", text.as_bytes());
    let o = StdCommand::new(bin_path())
        .args(["solve", "-o", path.to_str().unwrap()])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("refusing to write the output over the input"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // Another file on stdin is fine.
    let (_d2, other) = temp_file("other.txt", text.as_bytes());
    let out = other.with_extension("out");
    let o = StdCommand::new(bin_path())
        .args(["solve", "-o", out.to_str().unwrap()])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Standard output opened on the input itself (`solve F 1<>F`, `solve F >>
/// F`) is refused as `-o F` is: the answers would go into the file being
/// read.
#[test]
fn standard_output_on_the_input_is_refused() {
    let text = sample();
    let (_dir, path) = temp_file("in.txt", text.as_bytes());
    let opens = [
        std::fs::File::options().read(true).write(true).open(&path),
        std::fs::File::options().append(true).open(&path),
    ];
    for (i, f) in opens.into_iter().enumerate() {
        for cmd in ["solve", "count"] {
            let o = StdCommand::new(bin_path())
                .args([cmd, path.to_str().unwrap()])
                .stdin(Stdio::null())
                .stdout(f.as_ref().unwrap().try_clone().unwrap())
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "{i} {cmd}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("<stdout>: refusing to write the output over the input"),
                "{}",
                stderr(&o)
            );
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
    }
}

/// `-o /dev/stdout` (`/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) on a
/// regular file is written through the descriptor, as stdout is: `>> log`
/// appends to the log instead of the log being replaced by the answers,
/// and a file opened only for reading (`-o /dev/stdin < notes.txt`) is
/// refused, never replaced.
#[cfg(target_os = "linux")]
#[test]
fn an_output_naming_our_own_descriptor_writes_through_it() {
    let text = sample();
    let first: Vec<&str> = puzzle_lines(&text).into_iter().take(3).collect();
    let (dir, input) = temp_file("in.txt", format!("{}\n", first.join("\n")).as_bytes());
    let alone = sb(["solve"]).arg(&input).ok();
    let log = dir.path().join("log.txt");
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        std::fs::write(&log, "kept line\n").unwrap();
        let o = StdCommand::new(bin_path())
            .args(["solve", input.to_str().unwrap(), "-o", name])
            .stdin(Stdio::null())
            .stdout(std::fs::File::options().append(true).open(&log).unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let want = format!("kept line\n{}", alone.stdout());
        assert_eq!(std::fs::read_to_string(&log).unwrap(), want, "{name}");
    }
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let o = StdCommand::new(bin_path())
        .args(["solve", input.to_str().unwrap(), "-o", "/dev/stdin"])
        .stdin(std::fs::File::open(&notes).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("/dev/stdin: cannot write: descriptor 0 is open for reading only"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    assert!(!has_temp(dir.path()), "{:?}", names(dir.path()));
}

#[cfg(unix)]
#[test]
fn signals_remove_the_temporary_file_and_exit_128_plus_n() {
    use std::io::Write;
    let text = sample();
    let first: Vec<&str> = puzzle_lines(&text).into_iter().take(5).collect();
    for (sig, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
        (libc::SIGPIPE, 141),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("answers.txt");
        let mut child = StdCommand::new(bin_path())
            .args(["solve", "-o", out.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Some input, and the input stays open: the run is under way.
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{}", first.join("\n")).unwrap();
        stdin.flush().unwrap();
        wait_for("the temporary file", || has_temp(dir.path()));
        // SAFETY: signalling our own child by its pid.
        unsafe {
            libc::kill(child.id() as libc::pid_t, sig);
        }
        let status = wait_or_fail(&mut child, "signal");
        assert_eq!(status.code(), Some(code), "signal {sig}");
        assert_eq!(names(dir.path()), Vec::<String>::new(), "signal {sig}");
        drop(stdin);
    }
}

/// A file big enough that a run on one thread takes a while.
fn big_file(dir: &Path, mib: usize) -> std::path::PathBuf {
    let text = std::fs::read_to_string(data("17_clue_sub.txt")).unwrap();
    let path = dir.join("big.txt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut written = 0;
    while written < mib << 20 {
        std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
        written += text.len();
    }
    drop(f);
    path
}

#[cfg(unix)]
#[test]
fn a_mapped_input_that_shrinks_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = big_file(dir.path(), 48);
    let out = dir.path().join("answers.txt");
    let child = StdCommand::new(bin_path())
        .args([
            "solve",
            "-j",
            "1",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for("the temporary file", || has_temp(dir.path()));
    std::fs::OpenOptions::new()
        .write(true)
        .open(&input)
        .unwrap()
        .set_len(0)
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "{}: the file shrank while being read",
            input.display()
        )),
        "{}",
        stderr(&o)
    );
    assert_eq!(names(dir.path()), vec!["big.txt".to_string()]);
}

#[test]
fn a_worker_panic_ends_the_run_without_hanging_or_leftovers() {
    let text = sample();
    for threads in ["1", "2", "4"] {
        for source in ["file", "stdin"] {
            let (dir, path) = temp_file("in.txt", text.as_bytes());
            let out = dir.path().join("answers.txt");
            let mut args = vec!["solve", "-j", threads, "--chunk-size", "500"];
            args.extend(["-o", out.to_str().unwrap()]);
            if source == "file" {
                args.push(path.to_str().unwrap());
            }
            let mut child = StdCommand::new(bin_path())
                .args(&args)
                .env("SUDOKU_BULK_PANIC_AT_CHUNK", "3")
                .env("RUST_BACKTRACE", "0")
                .stdin(if source == "stdin" {
                    Stdio::from(std::fs::File::open(&path).unwrap())
                } else {
                    Stdio::null()
                })
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let status = wait_or_fail(&mut child, &format!("{args:?}"));
            assert_eq!(status.code(), Some(101), "{args:?}");
            assert_eq!(names(dir.path()), vec!["in.txt".to_string()], "{args:?}");
        }
    }
}

#[test]
fn only_the_first_hundred_bad_records_are_reported_on_stderr() {
    let text = sample();
    let good = puzzle_lines(&text)[0];
    let mut input = format!("{good}\n");
    for i in 0..150 {
        input.push_str(&format!("{}x{i}\n", &good[..70]));
    }
    let (dir, path) = temp_file("in.txt", input.as_bytes());
    let out = dir.path().join("answers.txt");
    let p = path.to_str().unwrap();
    let o = sb(["solve", p, "-o"]).arg(&out).code(1);
    let err = o.stderr();
    let reported: Vec<&str> = err
        .lines()
        .filter(|l| {
            l.strip_prefix(&format!("sudoku-bulk: {p}:"))
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect();
    assert_eq!(reported.len(), 100, "{err}");
    assert!(reported[0].starts_with(&format!("sudoku-bulk: {p}:2: ")));
    assert!(reported[99].starts_with(&format!("sudoku-bulk: {p}:101: ")));
    assert!(err.contains("151 records, 1 solved, 150 bad"), "{err}");
    assert!(err.contains("50 more not shown"), "{err}");
    // The output still marks every record.
    let answers = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), 151);
    assert_answers_9x9(&[good], lines[0]);
    assert!(lines[1..].iter().all(|l| l.starts_with("error: ")));
}

#[cfg(unix)]
#[test]
fn replacing_an_output_keeps_its_mode_and_follows_a_dangling_link() {
    use std::os::unix::fs::PermissionsExt;
    let text = sample();
    let (dir, path) = temp_file("in.txt", text.as_bytes());
    let p = path.to_str().unwrap();
    let out = dir.path().join("answers.txt");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    sb(["solve", p, "-o"]).arg(&out).ok();
    let meta = std::fs::metadata(&out).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o640);
    assert_answers_9x9(
        &puzzle_lines(&text),
        &std::fs::read_to_string(&out).unwrap(),
    );
    // A link whose target does not exist yet: the target is created, the
    // link stays a link.
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("target.txt", &link).unwrap();
    sb(["solve", p, "-o"]).arg(&link).ok();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let target = dir.path().join("target.txt");
    assert_answers_9x9(
        &puzzle_lines(&text),
        &std::fs::read_to_string(&target).unwrap(),
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_reported_as_a_write_error_on_the_output() {
    let text = sample();
    let (_dir, path) = temp_file("in.txt", text.as_bytes());
    let o = sb(["solve"]).arg(&path).args(["-o", "/dev/full"]).code(2);
    let err = o.stderr();
    assert!(
        err.contains("/dev/full: cannot write: No space left on device"),
        "{err}"
    );
    assert!(!err.contains("(reading"), "{err}");
    // Short runs whose answers all wait in a buffer (or a compressor)
    // until the end: the last write still names the output.
    let runs: [&[&str]; 3] = [
        &["generate", "-n", "3"],
        &["generate", "-n", "3", "--compress", "xz"],
        &["solve", path.to_str().unwrap(), "--compress", "bzip2"],
    ];
    for args in runs {
        let mut args = args.to_vec();
        args.extend(["-o", "/dev/full"]);
        let o = sb(&args).note(format!("{args:?}")).code(2);
        let err = o.stderr();
        assert!(
            err.contains("sudoku-bulk: /dev/full: cannot write: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

/// Standard output on a pipe whose reader is already gone: every command
/// that writes there stops quietly with success, as `… | head` expects,
/// and none panics.
#[cfg(unix)]
#[test]
fn every_command_stops_quietly_when_its_reader_is_gone() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let sample = data("sample.txt");
    let s = sample.to_str().unwrap();
    let runs: [&[&str]; 6] = [
        &["solve", s],
        &["count", s],
        &["generate", "-n", "50", "--seed", "1"],
        &["bench", s, "--seconds", "0"],
        &["bench", s, s, "--seconds", "0", "--json"],
        &["bench", s, "--seconds", "0", "--mode", "unique"],
    ];
    for args in runs {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors `pipe` writes.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: both descriptors are fresh from `pipe` and owned here
        // alone; the reading end is closed at once.
        let (reader, writer) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        drop(reader);
        let o = StdCommand::new(bin_path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(writer))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn bench_on_a_full_disk_names_standard_output() {
    let o = StdCommand::new(bin_path())
        .args([
            "bench",
            data("sample.txt").to_str().unwrap(),
            "--seconds",
            "0",
        ])
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("<stdout>: cannot write: No space left on device"),
        "{err}"
    );
}

#[test]
fn bench_on_an_empty_file_and_generate_with_impossible_clues_are_errors() {
    let (dir, path) = temp_file("empty.txt", b"");
    let binary = dir.path().join("bin.dat");
    std::fs::write(&binary, b"\x7fELF\x02\x01\x01\0\0\0\n").unwrap();
    for (file, want) in [(&path, "no puzzles to measure"), (&binary, "binary data")] {
        for json in [&[][..], &["--json"]] {
            let mut args = vec!["bench", file.to_str().unwrap(), "--seconds", "0"];
            args.extend(json);
            let o = sb(&args).code(2);
            assert!(o.stderr().contains(want), "{}", o.stderr());
            // Nothing measured, nothing on stdout (not even the header).
            assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout());
        }
    }
    for (size, clues) in [
        ("9", "5"),
        ("9", "0"),
        ("9", "1000"),
        ("16", "20"),
        ("25", "626"),
    ] {
        let o = sb(["generate", "-n", "1", "--size", size, "--clues", clues])
            .note(format!("--size {size} --clues {clues}"))
            .code(2);
        assert!(o.stderr().contains("--clues"), "{}", o.stderr());
        assert!(o.stdout.is_empty());
    }
    sb(["generate", "-n", "1", "--clues", "30"]).ok();
}

/// A file-size limit (`ulimit -f`) makes the write fail like a full disk:
/// a clear error naming the output, exit 2, and no temporary file left
/// (SIGXFSZ used to kill the run and leave `.sudoku-bulk-*.tmp` behind).
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_a_write_error_without_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    sb(["generate", "-n", "3000", "--seed", "4", "-o"])
        .arg(&input)
        .ok();
    let i = input.to_str().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = |name: &str| out_dir.path().join(name).to_str().unwrap().to_owned();
    let runs: [Vec<String>; 3] = [
        vec!["solve".into(), i.into(), "-o".into(), out("a.txt")],
        vec!["solve".into(), i.into(), "-o".into(), out("a.txt.gz")],
        vec![
            "generate".into(),
            "-n".into(),
            "3000".into(),
            "-o".into(),
            out("g.txt"),
        ],
    ];
    for args in runs {
        // 64 blocks (32-64 KiB, by the shell's unit); the answers of 3000
        // puzzles take 246 KB, compressed about 100 KB.
        let o = StdCommand::new("sh")
            .arg("-c")
            .arg("ulimit -f 64 && exec \"$0\" \"$@\"")
            .arg(bin_path())
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot write: File too large"),
            "{args:?}: {err}"
        );
        assert!(err.contains(&args[args.len() - 1]), "{args:?}: {err}");
        assert_eq!(names(out_dir.path()), Vec::<String>::new(), "{args:?}");
    }
}
