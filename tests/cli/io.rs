//! Input and output plumbing end to end: compressed input recognised by
//! content on every path, compressed output, streaming filter use (answers
//! flushed while the input pauses), FIFOs streamed, overlong stream lines.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command as StdCommand, Stdio};

use crate::util::*;

/// A few hundred real puzzles with one unsolvable and one malformed record,
/// so error lines are ordered too.
fn mixed_input() -> String {
    let mut input = std::fs::read_to_string(data("sample.txt")).unwrap();
    input.push_str(
        "12345678....................................9....................................\n",
    );
    input.push_str("not a puzzle\n");
    input
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// bgzip-like: several gzip members, cut in the middle of lines.
fn gzip_members(data: &[u8]) -> Vec<u8> {
    data.chunks(1000).flat_map(gzip).collect()
}

fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(data, 3).unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), 6);
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// The plain bytes of gzip, zstd, xz or bzip2 `data`, told by its magic
/// bytes (also for `outputs.rs`).
pub fn decompress(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match data {
        [0x1f, 0x8b, ..] => flate2::read::MultiGzDecoder::new(data)
            .read_to_end(&mut out)
            .map(drop),
        [0x28, 0xb5, 0x2f, 0xfd, ..] => zstd::stream::read::Decoder::new(data)
            .unwrap()
            .read_to_end(&mut out)
            .map(drop),
        [0xfd, b'7', b'z', b'X', b'Z', 0, ..] => xz2::read::XzDecoder::new(data)
            .read_to_end(&mut out)
            .map(drop),
        [b'B', b'Z', b'h', ..] => bzip2::read::BzDecoder::new(data)
            .read_to_end(&mut out)
            .map(drop),
        _ => panic!("not compressed: {:?}", &data[..data.len().min(8)]),
    }
    .unwrap();
    out
}

type Codec = (&'static str, fn(&[u8]) -> Vec<u8>);

const CODECS: [Codec; 5] = [
    ("gz", gzip),
    ("bgz", gzip_members),
    ("zst", zstd),
    ("xz", xz),
    ("bz2", bzip2),
];

#[test]
fn compressed_input_gives_the_plain_bytes_on_every_path() {
    let input = mixed_input();
    let (dir, plain) = temp_file("in.txt", input.as_bytes());
    let reference = sb(["solve", "-j", "1"]).arg(&plain).code(1);
    let n = puzzle_lines(&input).len() - 2;
    let answers = reference.stdout();
    assert_answers_9x9(
        &puzzle_lines(&input)[..n],
        &answers.lines().take(n).collect::<Vec<_>>().join("\n"),
    );
    for (ext, compress) in CODECS {
        let packed = compress(input.as_bytes());
        // A misleading name: content decides, never the extension.
        let path = dir.path().join(format!("in.{ext}.txt"));
        std::fs::write(&path, &packed).unwrap();
        let p = path.to_str().unwrap();
        for threads in ["1", "2"] {
            for chunk in [None, Some("1"), Some("3000")] {
                for source in ["file", "no-mmap", "stdin"] {
                    let mut args = vec!["solve", "-j", threads];
                    if let Some(c) = chunk {
                        args.extend(["--chunk-size", c]);
                    }
                    let stdin = match source {
                        "file" => {
                            args.push(p);
                            &b""[..]
                        }
                        "no-mmap" => {
                            args.extend([p, "--no-mmap"]);
                            &b""[..]
                        }
                        _ => &packed[..],
                    };
                    let o = sb(&args)
                        .stdin(stdin)
                        .note(format!("{ext} {args:?}"))
                        .code(1);
                    assert!(
                        o.stdout == reference.stdout,
                        "{ext} {source} {args:?} differs"
                    );
                    assert!(o.stderr().contains("no solution"), "{}", o.stderr());
                }
            }
        }
        // count reads it too.
        let o = sb(["count", p]).code(1);
        assert_eq!(o.stdout().lines().count(), n + 2);
    }
}

#[test]
fn plain_text_input_stays_plain_on_every_path() {
    // The all-paths test of solve.rs, for the paths this module added:
    // plain files read front to back and plain stdin through the reader
    // thread, with tiny chunks, match the mapped run.
    let input = mixed_input();
    let (_dir, path) = temp_file("in.txt", input.as_bytes());
    let p = path.to_str().unwrap();
    let reference = sb(["solve", "-j", "1", p]).output();
    for threads in ["1", "2"] {
        for chunk in ["1", "100", "82", "65536"] {
            let a = sb([
                "solve",
                "-j",
                threads,
                "--chunk-size",
                chunk,
                p,
                "--no-mmap",
            ])
            .output();
            let b = sb(["solve", "-j", threads, "--chunk-size", chunk])
                .stdin(input.as_bytes())
                .output();
            assert!(
                a.stdout == reference.stdout,
                "no-mmap -j {threads} chunk {chunk}"
            );
            assert!(
                b.stdout == reference.stdout,
                "stdin -j {threads} chunk {chunk}"
            );
        }
    }
}

#[test]
fn data_that_does_not_decompress_is_named_not_printed() {
    let input = mixed_input();
    let mut broken = gzip(input.as_bytes());
    let cut = broken.len() / 2;
    broken.truncate(cut);
    let mut bad_header = vec![0x1f, 0x8b, 0xff, 0xff];
    bad_header.extend_from_slice(b"\x00\x01\x02 not really gzip\n");
    let mut bad_zstd = zstd(input.as_bytes());
    bad_zstd.truncate(bad_zstd.len() * 2 / 3);
    for (what, bytes) in [
        ("gzip", &broken),
        ("gzip", &bad_header),
        ("zstd", &bad_zstd),
    ] {
        let (dir, path) = temp_file("in.bin", bytes);
        let out = dir.path().join("answers.txt");
        let o = solve_to(&path, &out).code(2);
        let err = o.stderr();
        let want = format!("{}: {what} data that does not decompress", path.display());
        assert!(err.contains(&want), "missing {want:?} in {err:?}");
        assert!(err.is_ascii() && !err.contains('\u{1f}'), "{err:?}");
        // Nothing half-written is left: only the input remains.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // The same through stdin.
        let o = sb(["solve"]).stdin(bytes).code(2);
        assert!(o
            .stderr()
            .contains(&format!("<stdin>: {what} data that does not decompress")));
    }
}

fn have(tool: &str) -> bool {
    StdCommand::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn compressed_output_by_name_or_flag_decompresses_to_the_plain_run() {
    let input = mixed_input();
    let (dir, path) = temp_file("in.txt", input.as_bytes());
    let p = path.to_str().unwrap();
    let plain = sb(["solve", p]).output().stdout.clone();
    let cases: [(&str, &[&str], Option<&str>); 7] = [
        ("a.txt.gz", &[], Some("gzip")),
        ("a.txt.zst", &[], Some("zstd")),
        ("a.txt.xz", &[], Some("xz")),
        ("a.txt.bz2", &[], Some("bzip2")),
        ("a.txt", &["--compress", "zstd"], Some("zstd")),
        ("b.txt.gz", &["--compress", "none"], None),
        ("c.zst", &["--compress", "gzip", "-j", "1"], Some("gzip")),
    ];
    for (name, flags, codec) in cases {
        let out = dir.path().join(name);
        let mut args = vec!["solve", p, "-o", out.to_str().unwrap()];
        args.extend(flags);
        sb(&args).note(name).code(1);
        let written = std::fs::read(&out).unwrap();
        match codec {
            None => assert_eq!(written, plain, "{name}: plain text asked"),
            Some(tool) => {
                assert_ne!(written, plain, "{name}: plain text under a compressed name");
                assert_eq!(decompress(&written), plain, "{name}");
                if have(tool) {
                    let o = StdCommand::new(tool)
                        .args(["-d", "-c"])
                        .arg(&out)
                        .output()
                        .unwrap();
                    assert!(o.status.success(), "{tool} -dc {name}");
                    assert_eq!(o.stdout, plain, "{tool} -dc {name}");
                }
            }
        }
    }
    // Compressed answers to stdout when asked, and read back by `check`.
    let o = sb(["solve", "--compress", "xz", p]).output();
    assert_eq!(decompress(&o.stdout), plain);
    let answers = dir.path().join("answers.xz");
    std::fs::write(&answers, &o.stdout).unwrap();
    let packed = dir.path().join("puzzles.gz");
    std::fs::write(&packed, gzip(input.as_bytes())).unwrap();
    let c = sb(["check"]).arg(&packed).arg(&answers).output();
    // The two bad puzzles are counted bad; every real answer passes.
    assert!(c.stdout().contains("2 bad"), "{}", c.stdout());
    // generate -o too.
    let g = dir.path().join("gen.txt.gz");
    sb(["generate", "-n", "20", "-o"]).arg(&g).ok();
    let same = sb(["generate", "-n", "20"]).output().stdout.clone();
    assert_eq!(decompress(&std::fs::read(&g).unwrap()), same);
}

#[test]
fn check_and_bench_read_stdin_and_compressed_files() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let (dir, path) = temp_file("in.txt", text.as_bytes());
    let answers = sb(["solve"]).arg(&path).output().stdout.clone();
    let apath = dir.path().join("answers.txt.zst");
    std::fs::write(&apath, zstd(&answers)).unwrap();
    // Puzzles compressed on stdin, answers a compressed file.
    let o = sb(["check", "-"])
        .arg(&apath)
        .stdin(bzip2(text.as_bytes()))
        .ok();
    assert!(o.stdout().contains("0 bad"));
    // Answers on stdin; a wrong answer is caught.
    let mut wrong = answers.clone();
    let i = wrong.iter().position(|&b| b == b'1').unwrap();
    wrong[i] = b'2';
    sb(["check"])
        .arg(&path)
        .arg("-")
        .stdin(gzip(&wrong))
        .code(1);
    let o = sb(["bench", "-", "--seconds", "0"])
        .stdin(gzip(text.as_bytes()))
        .ok();
    let n = puzzle_lines(&text).len();
    assert!(o.stdout().contains(&format!("{n}/{n}")), "{}", o.stdout());
}

/// Spawns `sudoku-bulk ARGS` with piped stdin and stdout.
fn spawn(args: &[&str]) -> std::process::Child {
    StdCommand::new(assert_cmd::cargo::cargo_bin("sudoku-bulk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Reads one line, failing the test instead of hanging if none comes.
fn read_line_within(rx: &std::sync::mpsc::Receiver<String>, what: &str) -> String {
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("no answer for {what}: output not flushed while input paused"))
}

#[test]
fn a_coprocess_gets_each_answer_before_sending_the_next_puzzle() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let puzzles: Vec<&str> = puzzle_lines(&text).into_iter().take(4).collect();
    for threads in ["1", "2"] {
        let mut child = spawn(&["solve", "-j", threads]);
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        for p in &puzzles {
            writeln!(stdin, "{p}").unwrap();
            stdin.flush().unwrap();
            let answer = read_line_within(&rx, p);
            assert_answers_9x9(&[p], &answer);
        }
        drop(stdin);
        assert!(child.wait().unwrap().success());
        reader.join().unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_is_streamed_not_read_whole() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let puzzles: Vec<String> = puzzle_lines(&text)
        .into_iter()
        .take(3)
        .map(String::from)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.fifo");
    let status = StdCommand::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let mut child = spawn(&["solve", fifo.to_str().unwrap()]);
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // Answers come while the FIFO is still open for writing: the file is
    // streamed, never read to its end first.
    let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    for p in &puzzles {
        writeln!(w, "{p}").unwrap();
        w.flush().unwrap();
        let answer = read_line_within(&rx, p);
        assert_answers_9x9(&[p], &answer);
    }
    drop(w);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}

#[test]
fn overlong_stream_lines_are_cut_and_marked_bad() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let good = puzzle_lines(&text)[0];
    // A good puzzle, 3 MiB of digits on one line, a good puzzle, then 2 MiB
    // with no newline at all: every record gets one output line, in order.
    let mut input = format!("{good}\n");
    input.push_str(&"1".repeat(3 << 20));
    input.push('\n');
    input.push_str(good);
    input.push('\n');
    input.push_str(&"2".repeat(2 << 20));
    for chunk in ["1000", "262144"] {
        let start = std::time::Instant::now();
        let o = sb(["solve", "--chunk-size", chunk])
            .stdin(input.as_bytes())
            .code(1);
        let out = o.stdout();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{:?}", &out[..out.len().min(300)]);
        assert_answers_9x9(&[good], lines[0]);
        assert!(lines[1].starts_with("error: "));
        assert_answers_9x9(&[good], lines[2]);
        assert!(lines[3].starts_with("error: "));
        let err = o.stderr();
        // Both overlong lines were cut at 1 MiB on the way in (the memory
        // bound), whatever their length and whatever the chunk size.
        for line in [2, 4] {
            let want = format!("<stdin>:{line}: expected 81 cells, found {}", 1 << 20);
            assert!(err.contains(&want), "missing {want:?} in {err}");
        }
        // No output line carries the megabytes back.
        assert!(out.len() < 3 << 20);
        // Linear, not quadratic, in the line length (generous bound for a
        // shared machine; the quadratic rescan took minutes at 1 GB).
        assert!(start.elapsed().as_secs() < 60);
    }
}

#[test]
fn chunk_size_is_bounded_and_big_ones_do_not_preallocate() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let reference = sb(["solve"]).stdin(text.as_bytes()).output().stdout.clone();
    // The largest allowed chunk on a small stream: buffers grow with the
    // data, the run is as usual.
    let o = sb(["solve", "--chunk-size", "67108864", "-j", "2"])
        .stdin(text.as_bytes())
        .ok();
    assert_eq!(o.stdout, reference);
    for huge in ["67108865", "3000000000", "18446744073709551615"] {
        let o = sb(["solve", "--chunk-size", huge])
            .stdin(text.as_bytes())
            .note(huge)
            .code(2);
        assert!(o.stderr().contains("--chunk-size"), "{}", o.stderr());
    }
}

#[test]
fn thread_count_is_capped_at_a_multiple_of_the_cores() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let reference = sb(["solve"]).stdin(text.as_bytes()).output().stdout.clone();
    let start = std::time::Instant::now();
    let o = sb(["solve", "-j", "65535"]).stdin(text.as_bytes()).ok();
    assert_eq!(o.stdout, reference);
    assert!(o.stderr().contains("-j 65535 lowered to"), "{}", o.stderr());
    // 65535 threads took over 300 s before the cap.
    assert!(start.elapsed().as_secs() < 60);
}

/// File names come from the user's disk: in messages their control
/// characters are escaped (an ESC sequence would recolour the terminal, a
/// newline would split a `FILE:LINE:` message in two).
#[test]
fn control_characters_in_file_names_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ev\x1b[31mil\nname.txt");
    std::fs::write(&input, "x\n").unwrap();
    let out = dir.path().join("out\x07.txt");
    let o = solve_to(&input, &out).code(2);
    let err = o.stderr();
    assert!(
        err.contains("ev\\u{1b}[31mil\\nname.txt:1: cannot tell the layout"),
        "{err}"
    );
    assert!(!err.contains('\x1b') && err.lines().count() == 1, "{err:?}");
    // A directory as the output: its name escaped as well.
    let o = sb(["generate", "-n", "1", "-o"]).arg(dir.path()).output();
    let bell_dir = dir.path().join("d\x07");
    std::fs::create_dir(&bell_dir).unwrap();
    let o2 = sb(["generate", "-n", "1", "-o"]).arg(&bell_dir).output();
    assert_eq!(o.status.code(), Some(2));
    let err = o2.stderr();
    assert!(err.contains("d\\u{7}: is a directory"), "{err}");
    assert!(!err.contains('\x07'), "{err:?}");
}
