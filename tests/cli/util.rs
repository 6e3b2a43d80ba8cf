//! Helpers shared by the integration tests: run the real binary, and check
//! answers on their own terms (valid grid, givens kept), never by asking the
//! solver again.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

/// A command for the built `sudoku-bulk` binary, progress bar off.
pub fn bin() -> Command {
    Command::cargo_bin("sudoku-bulk").unwrap()
}

/// Runs `sudoku-bulk ARGS` with `stdin` and returns its output.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    bin()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap()
}

/// The data/ folder of the repository.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// A fresh temporary directory holding `name` with `content`.
pub fn temp_file(name: &str, content: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    (dir, path)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Parses a row-major grid written with `alphabet[0]` as blank (and `.` too)
/// and `alphabet[d]` for digit `d`.
pub fn cells(text: &str, blanks: &str, alphabet: &str) -> Vec<u8> {
    text.chars()
        .map(|ch| {
            if blanks.contains(ch) {
                0
            } else {
                alphabet
                    .find(ch)
                    .unwrap_or_else(|| panic!("unexpected {ch:?} in {text:?}"))
                    as u8
                    + 1
            }
        })
        .collect()
}

/// Panics unless `answer` is a complete valid grid of box size `b` that keeps
/// every given of `puzzle` (cells 0 = blank, 1..=side).
pub fn assert_valid(b: usize, puzzle: &[u8], answer: &[u8]) {
    let side = b * b;
    assert_eq!(answer.len(), side * side, "answer size");
    assert_eq!(puzzle.len(), side * side, "puzzle size");
    for (i, (&p, &a)) in puzzle.iter().zip(answer).enumerate() {
        assert!(a >= 1 && a as usize <= side, "cell {i} holds {a}");
        assert!(p == 0 || p == a, "cell {i}: given {p} became {a}");
    }
    for unit in 0..side {
        let (mut row, mut col, mut bx) = (
            vec![false; side + 1],
            vec![false; side + 1],
            vec![false; side + 1],
        );
        for k in 0..side {
            let r = answer[unit * side + k] as usize;
            let c = answer[k * side + unit] as usize;
            let (br, bc) = ((unit / b) * b + k / b, (unit % b) * b + k % b);
            let x = answer[br * side + bc] as usize;
            assert!(!row[r] && !col[c] && !bx[x], "unit {unit} repeats a digit");
            row[r] = true;
            col[c] = true;
            bx[x] = true;
        }
    }
}

/// Checks a one-per-line 9x9 answer file against its puzzle lines.
pub fn assert_answers_9x9(puzzles: &[&str], answers: &str) {
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), puzzles.len(), "one answer per puzzle");
    for (p, a) in puzzles.iter().zip(&lines) {
        let p = cells(p, ".0_*", "123456789");
        let a = cells(a, "", "123456789");
        assert_valid(3, &p, &a);
    }
}

/// The puzzle lines of a one-per-line file (comments and blanks skipped).
pub fn puzzle_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect()
}
