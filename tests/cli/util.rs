//! Helpers shared by the integration tests: run the real binary, and check
//! answers on their own terms (valid grid, givens kept), never by asking the
//! solver again.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

/// A command for the built `sudoku-bulk` binary, progress bar off.
pub fn bin() -> Command {
    Command::cargo_bin("sudoku-bulk").unwrap()
}

/// A run of the real binary being set up: `sb(["solve"]).arg(&path)
/// .args(["-j", "2"]).stdin(bytes)`, then one finisher: `.ok()` (exit 0),
/// `.code(n)` (exit `n`) or `.output()` (no check). A failed check shows
/// the command line, the exit code, stderr and stdout, at the caller's line
/// (`#[track_caller]`).
#[must_use = "a run happens only in .ok(), .code(n) or .output()"]
pub struct Sb {
    cmd: Command,
    line: Vec<OsString>,
    stdin: Vec<u8>,
    note: String,
}

/// `sudoku-bulk ARGS`, empty stdin (see [`Sb`]).
pub fn sb<I, S>(args: I) -> Sb
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Sb {
        cmd: bin(),
        line: Vec::new(),
        stdin: Vec::new(),
        note: String::new(),
    }
    .args(args)
}

/// `sudoku-bulk solve INPUT -o OUT`, the run most file tests make (see
/// [`Sb`]).
pub fn solve_to(input: impl AsRef<OsStr>, out: impl AsRef<OsStr>) -> Sb {
    sb(["solve"]).arg(input).arg("-o").arg(out)
}

impl Sb {
    /// One more argument: a `&str`, a `Path`, a `PathBuf`, ...
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.cmd.arg(arg.as_ref());
        self.line.push(arg.as_ref().to_owned());
        self
    }

    /// More arguments.
    pub fn args<I, S>(self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        args.into_iter().fold(self, Sb::arg)
    }

    /// The bytes the run reads on stdin.
    pub fn stdin(mut self, bytes: impl AsRef<[u8]>) -> Self {
        self.stdin = bytes.as_ref().to_vec();
        self
    }

    /// Words shown first when a check fails (which case of a loop it was).
    pub fn note(mut self, note: impl std::fmt::Display) -> Self {
        self.note = format!("{note}: ");
        self
    }

    /// Runs it, checking nothing.
    pub fn output(mut self) -> Ran {
        let out = self.cmd.write_stdin(self.stdin).output().unwrap();
        let line = self
            .line
            .iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>();
        Ran {
            out,
            shown: format!("{}sudoku-bulk {}", self.note, line.join(" ")),
        }
    }

    /// Runs it and asserts exit 0.
    #[track_caller]
    pub fn ok(self) -> Ran {
        self.code(0)
    }

    /// Runs it and asserts exit `code`.
    #[track_caller]
    pub fn code(self, code: i32) -> Ran {
        let ran = self.output();
        assert_eq!(ran.status.code(), Some(code), "{ran}");
        ran
    }
}

/// What a run gave: its [`Output`] (through `Deref`: `.status`, `.stdout`
/// and `.stderr` bytes) and its streams as text.
pub struct Ran {
    out: Output,
    shown: String,
}

impl Ran {
    /// Stdout as UTF-8 text (panics on other bytes).
    pub fn stdout(&self) -> String {
        stdout(&self.out)
    }

    /// Stderr as UTF-8 text (panics on other bytes).
    pub fn stderr(&self) -> String {
        stderr(&self.out)
    }
}

impl std::ops::Deref for Ran {
    type Target = Output;
    fn deref(&self) -> &Output {
        &self.out
    }
}

/// The command line, exit code and both streams (each cut to its first
/// 4 KiB), for failure messages.
impl std::fmt::Display for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cut = |bytes: &[u8]| {
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).into_owned();
            match bytes.len() {
                n if n > 4096 => format!("{text}... ({n} bytes)"),
                _ => text,
            }
        };
        write!(
            f,
            "{}\nexit {:?}\n--- stderr\n{}\n--- stdout\n{}",
            self.shown,
            self.out.status.code(),
            cut(&self.out.stderr),
            cut(&self.out.stdout)
        )
    }
}

/// Runs `sudoku-bulk ARGS` with `stdin` and returns its output.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    bin()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap()
}

/// Runs `sudoku-bulk ARGS` with `first` on stdin, then, after a pause
/// (the writer of `(echo ...; cat FILE) | sudoku-bulk` when cat starts
/// late), `rest`; returns its output.
pub fn run_paused(args: &[&str], first: &[u8], rest: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bulk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(first).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    stdin.write_all(rest).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
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
    assert_valid_boxes(b, b, puzzle, answer);
}

/// Panics unless `answer` is a complete valid grid of boxes `rows` cells tall
/// and `cols` cells wide (side `rows * cols`) that keeps every given of
/// `puzzle` (cells 0 = blank, 1..=side): each row, column and box holds each
/// digit once. Box `u` (row-major over the boxes) starts at row
/// `(u / rows) * rows`, column `(u % rows) * cols`.
pub fn assert_valid_boxes(rows: usize, cols: usize, puzzle: &[u8], answer: &[u8]) {
    let side = rows * cols;
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
            let (br, bc) = (
                (unit / rows) * rows + k / cols,
                (unit % rows) * cols + k % cols,
            );
            let x = answer[br * side + bc] as usize;
            assert!(!row[r], "row {unit} repeats {r}");
            assert!(!col[c], "column {unit} repeats {c}");
            assert!(!bx[x], "box {unit} ({rows}x{cols}) repeats {x}");
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

/// A small deterministic RNG for test fixtures (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A valid full grid of box size `b` built from the classic shifted pattern,
/// then shuffled (digits relabelled, rows moved within bands, bands moved)
/// so fixtures differ. Needs no solver.
pub fn full_grid(b: usize, seed: u64) -> Vec<u8> {
    let side = b * b;
    let mut rng = Rng(seed | 1);
    let mut relabel: Vec<u8> = (1..=side as u8).collect();
    for i in (1..side).rev() {
        relabel.swap(i, rng.below(i + 1));
    }
    let mut rows: Vec<usize> = Vec::new();
    let mut bands: Vec<usize> = (0..b).collect();
    for i in (1..b).rev() {
        bands.swap(i, rng.below(i + 1));
    }
    for &band in &bands {
        let mut within: Vec<usize> = (0..b).collect();
        for i in (1..b).rev() {
            within.swap(i, rng.below(i + 1));
        }
        rows.extend(within.iter().map(|r| band * b + r));
    }
    let mut grid = Vec::with_capacity(side * side);
    for &r in &rows {
        for c in 0..side {
            let v = (b * (r % b) + r / b + c) % side;
            grid.push(relabel[v]);
        }
    }
    grid
}

/// A random permutation of `0..n`.
pub fn shuffled(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, rng.below(i + 1));
    }
    v
}

/// A valid full grid of boxes `rows` x `cols` (side N = rows * cols) from
/// the pattern `((r % rows) * cols + r / rows + c) % N`, then shuffled in
/// ways that keep it valid: digits relabelled, rows moved within their band
/// of `rows` rows, bands moved, columns moved within their stack of `cols`
/// columns, stacks moved. Needs no solver.
pub fn full_grid_boxes(rows: usize, cols: usize, seed: u64) -> Vec<u8> {
    let side = rows * cols;
    let mut rng = Rng(seed | 1);
    let relabel = shuffled(side, &mut rng);
    // `cols` bands of `rows` rows; `rows` stacks of `cols` columns.
    let order = |groups: usize, size: usize, rng: &mut Rng| -> Vec<usize> {
        let mut out = Vec::with_capacity(groups * size);
        for g in shuffled(groups, rng) {
            out.extend(shuffled(size, rng).into_iter().map(|i| g * size + i));
        }
        out
    };
    let row_order = order(cols, rows, &mut rng);
    let col_order = order(rows, cols, &mut rng);
    let mut grid = Vec::with_capacity(side * side);
    for &r in &row_order {
        for &c in &col_order {
            let v = ((r % rows) * cols + r / rows + c) % side;
            grid.push(relabel[v] as u8 + 1);
        }
    }
    grid
}

/// `grid` with about `blank_percent`% of its cells blanked (0).
pub fn blank_out(grid: &[u8], blank_percent: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    grid.iter()
        .map(|&v| if rng.below(100) < blank_percent { 0 } else { v })
        .collect()
}

/// Writes cells with `alphabet[v - 1]`, `blank` for 0.
pub fn encode(cells: &[u8], alphabet: &str, blank: char) -> String {
    let symbols: Vec<char> = alphabet.chars().collect();
    cells
        .iter()
        .map(|&v| {
            if v == 0 {
                blank
            } else {
                symbols[v as usize - 1]
            }
        })
        .collect()
}

pub const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// A `.npy` header of `descr` and `shape` (NumPy's format 1.0, data
/// aligned to 64 bytes).
pub fn npy_header(descr: &str, shape: &str, fortran: bool) -> Vec<u8> {
    let dict = format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
        if fortran { "True" } else { "False" }
    );
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

/// A `.npy` of `rows` (cells as numbers) in `descr` (`|u1`, `<i8`, ...).
pub fn npy(descr: &str, shape: &str, rows: &[Vec<u8>]) -> Vec<u8> {
    let mut out = npy_header(descr, shape, false);
    let size: usize = descr[2..].parse().unwrap();
    for row in rows {
        for &v in row {
            out.extend_from_slice(&(v as u64).to_le_bytes()[..size]);
        }
    }
    out
}
