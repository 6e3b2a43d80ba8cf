//! Grids of every size and box shape (4x4 to 64x64, square and rectangular
//! boxes): `solve`, `count`, `generate` and layout detection end to end.
//! Answers are checked by `assert_valid_boxes`, and solution counts by the
//! naive counter below, never by asking the solver again.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::*;

/// A box shape under test: rows (box height), cols (box width), and whether
/// it is the usual shape of its side (read without `--box`).
struct Shape {
    rows: usize,
    cols: usize,
    usual: bool,
}

const fn shape(rows: usize, cols: usize, usual: bool) -> Shape {
    Shape { rows, cols, usual }
}

/// Every box shape of test 1: square 2x2 to 8x8 and rectangular ones both
/// ways round (the usual wide one and its tall transpose).
const SHAPES: &[Shape] = &[
    shape(2, 2, true),
    shape(2, 3, true),
    shape(3, 2, false),
    shape(2, 4, true),
    shape(4, 2, false),
    shape(3, 3, true),
    shape(2, 5, true),
    shape(3, 4, true),
    shape(4, 3, false),
    shape(4, 4, true),
    shape(2, 7, true),
    shape(3, 5, true),
    shape(3, 6, true),
    shape(4, 5, true),
    shape(5, 4, false),
    shape(5, 5, true),
    shape(5, 6, true),
    shape(6, 6, true),
    shape(7, 7, true),
    shape(8, 8, true),
];

/// `1`-`9` then letters: the symbols of sides 10 to 35 in `hex1` order.
const HEX1: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// `0`-`9` then letters: the symbols of side 36.
const HEX0: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Counts the solutions of `puzzle` (boxes `rows` x `cols`) up to `limit`
/// by plain backtracking on the cell with the fewest candidates; clashing
/// givens count as no solution. Shares nothing with the project's solver.
fn count_naive(rows: usize, cols: usize, puzzle: &[u8], limit: usize) -> usize {
    struct Search {
        rows: usize,
        cols: usize,
        side: usize,
        grid: Vec<u8>,
        used: Vec<u64>, // rows, then columns, then boxes
    }
    impl Search {
        fn units(&self, i: usize) -> [usize; 3] {
            let (r, c) = (i / self.side, i % self.side);
            let b = (r / self.rows) * self.rows + c / self.cols;
            [r, self.side + c, 2 * self.side + b]
        }
        fn free(&self, i: usize) -> u64 {
            let all = if self.side == 64 {
                u64::MAX
            } else {
                (1u64 << self.side) - 1
            };
            let [a, b, c] = self.units(i);
            all & !(self.used[a] | self.used[b] | self.used[c])
        }
        fn flip(&mut self, i: usize, bit: u64) {
            for u in self.units(i) {
                self.used[u] ^= bit;
            }
        }
        fn count(&mut self, limit: usize) -> usize {
            let mut best: Option<(usize, u64)> = None;
            for i in 0..self.grid.len() {
                if self.grid[i] == 0 {
                    let free = self.free(i);
                    if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                        best = Some((i, free));
                        if free.count_ones() <= 1 {
                            break;
                        }
                    }
                }
            }
            let Some((i, mut free)) = best else {
                return 1;
            };
            let mut found = 0;
            while free != 0 && found < limit {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                self.grid[i] = bit.trailing_zeros() as u8 + 1;
                self.flip(i, bit);
                found += self.count(limit - found);
                self.flip(i, bit);
                self.grid[i] = 0;
            }
            found
        }
    }
    let side = rows * cols;
    assert_eq!(puzzle.len(), side * side);
    let mut s = Search {
        rows,
        cols,
        side,
        grid: puzzle.to_vec(),
        used: vec![0; 3 * side],
    };
    for (i, &v) in puzzle.iter().enumerate() {
        if v != 0 {
            let bit = 1u64 << (v - 1);
            if s.free(i) & bit == 0 {
                return 0;
            }
            s.flip(i, bit);
        }
    }
    s.count(limit)
}

/// `count`'s word for a naive count limited to 2.
fn count_word(n: usize) -> &'static str {
    match n {
        0 => "0",
        1 => "1",
        _ => "2+",
    }
}

/// Cells as space-separated numbers, 0 blank.
fn numbers(cells: &[u8]) -> String {
    cells
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses whitespace-separated numbers.
fn parse_numbers(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap_or_else(|_| panic!("not a number: {t:?}")))
        .collect()
}

/// The one-character symbols a side is written in on one line, if any
/// (`1`-`9`, letters `A`.. up to 26, `hex1` up to 35, `hex0` for 36).
fn alphabet(side: usize) -> Option<&'static str> {
    match side {
        0..=9 => Some(&"123456789"[..side]),
        10..=26 => Some(&LETTERS[..side]),
        27..=35 => Some(&HEX1[..side]),
        36 => Some(HEX0),
        _ => None,
    }
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `puzzle` with one blank cell set to a digit that clashes with no given
/// but is not the solution's, so the puzzle (usually) has no solution;
/// `puzzle` itself when no cell allows one.
fn corrupt(rows: usize, cols: usize, puzzle: &[u8], solution: &[u8], rng: &mut Rng) -> Vec<u8> {
    let side = rows * cols;
    let mut p = puzzle.to_vec();
    for _ in 0..200 {
        let i = rng.below(side * side);
        if p[i] != 0 {
            continue;
        }
        let (r, c) = (i / side, i % side);
        let seen: Vec<u8> = (0..side * side)
            .filter(|&j| {
                let (jr, jc) = (j / side, j % side);
                jr == r || jc == c || (jr / rows == r / rows && jc / cols == c / cols)
            })
            .map(|j| p[j])
            .collect();
        let options: Vec<u8> = (1..=side as u8)
            .filter(|v| *v != solution[i] && !seen.contains(v))
            .collect();
        if !options.is_empty() {
            p[i] = options[rng.below(options.len())];
            return p;
        }
    }
    p
}

/// Runs `sudoku-bulk ARGS` and returns stdout, asserting exit status 0.
fn ok(args: &[&str]) -> String {
    let o = sb(args).note(format!("{args:?}")).ok();
    o.stdout()
}

/// Solves `text` (written to a file) with `flags` and checks every answer
/// line against its puzzle with `decode`.
fn solve_lines(
    rows: usize,
    cols: usize,
    puzzles: &[Vec<u8>],
    text: &str,
    flags: &[&str],
    decode: impl Fn(&str) -> Vec<u8>,
) -> Duration {
    let (_dir, path) = temp_file("p.txt", text.as_bytes());
    let mut args = vec!["solve"];
    args.extend_from_slice(flags);
    args.push(path_str(&path));
    let start = Instant::now();
    let out = ok(&args);
    let took = start.elapsed();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        puzzles.len(),
        "{args:?}: one answer per puzzle"
    );
    for (p, a) in puzzles.iter().zip(&lines) {
        assert_valid_boxes(rows, cols, p, &decode(a));
    }
    took
}

#[test]
fn every_box_shape_solves_as_numbers_and_symbols() {
    for (k, s) in SHAPES.iter().enumerate() {
        let (rows, cols) = (s.rows, s.cols);
        let side = rows * cols;
        let (count, blank) = match side {
            0..=20 => (4, 60),
            21..=36 => (2, 40),
            _ => (1, 35),
        };
        let puzzles: Vec<Vec<u8>> = (0..count)
            .map(|i| {
                let seed = 1000 * k as u64 + i;
                blank_out(&full_grid_boxes(rows, cols, seed), blank, seed + 7)
            })
            .collect();
        let boxes = format!("{rows}x{cols}");
        let what = format!("{boxes} boxes ({side}x{side})");

        // One line of space-separated numbers, any side.
        let text: String = puzzles.iter().map(|p| numbers(p) + "\n").collect();
        solve_lines(
            rows,
            cols,
            &puzzles,
            &text,
            &["--box", &boxes],
            parse_numbers,
        );
        // 4x4 too: its files hold only the symbols 0-4 (`.` blank).
        if s.usual {
            solve_lines(rows, cols, &puzzles, &text, &[], parse_numbers);
        }

        // One line of one-character symbols, where the side has them.
        if let Some(abc) = alphabet(side) {
            let text: String = puzzles.iter().map(|p| encode(p, abc, '.') + "\n").collect();
            let decode = |a: &str| {
                assert_eq!(a.len(), side * side, "{what}: answer {a:?}");
                cells(a, "", abc)
            };
            solve_lines(rows, cols, &puzzles, &text, &["--box", &boxes], decode);
            if s.usual {
                solve_lines(rows, cols, &puzzles, &text, &[], decode);
            }
        }
    }
}

#[test]
fn count_matches_a_naive_counter_on_small_rectangular_grids() {
    // (rows, cols, flags): 2x3 and 2x4 are the usual boxes of 6x6 and 8x8.
    let cases: &[(usize, usize, &[&str])] = &[
        (2, 3, &[]),
        (3, 2, &["--box", "3x2"]),
        (2, 4, &[]),
        (4, 2, &["--box", "4x2"]),
        (2, 2, &["--size", "4"]),
        (2, 2, &[]),
    ];
    for &(rows, cols, flags) in cases {
        let side = rows * cols;
        let abc = alphabet(side).unwrap();
        let mut rng = Rng(side as u64 * 31 + rows as u64);
        let mut puzzles = Vec::new();
        for i in 0..60u64 {
            let seed = 7000 + 100 * rows as u64 + 10 * cols as u64 + i;
            let grid = full_grid_boxes(rows, cols, seed);
            let blank = 30 + (i as usize % 11) * 5; // 30% to 80%
            let p = blank_out(&grid, blank, seed * 3);
            puzzles.push(if i % 4 == 3 {
                corrupt(rows, cols, &p, &grid, &mut rng)
            } else {
                p
            });
        }
        let text: String = puzzles.iter().map(|p| encode(p, abc, '.') + "\n").collect();
        let (_dir, path) = temp_file("p.txt", text.as_bytes());
        let mut args = vec!["count"];
        args.extend_from_slice(flags);
        args.push(path_str(&path));
        let out = ok(&args);
        let got: Vec<&str> = out.lines().collect();
        let want: Vec<&str> = puzzles
            .iter()
            .map(|p| count_word(count_naive(rows, cols, p, 2)))
            .collect();
        assert_eq!(
            got, want,
            "{rows}x{cols} boxes: count against the naive counter"
        );
        for w in ["0", "1", "2+"] {
            assert!(
                want.contains(&w),
                "{rows}x{cols}: the fixture has no puzzle with {w} solutions"
            );
        }
    }
}

#[test]
fn letters_only_files_take_0_blanks_on_every_side() {
    // `0` is no letter: a blank in letters-only judge files, 16x16 (whose
    // hex forms also use `0`) included, one puzzle a line or in rows.
    for (rows, cols) in [(2, 5), (3, 4), (4, 4), (4, 5), (5, 5)] {
        let side = rows * cols;
        let abc = &LETTERS[..side];
        let puzzles: Vec<Vec<u8>> = (0..3)
            .map(|i| blank_out(&full_grid_boxes(rows, cols, 40 + i), 50, 60 + i))
            .collect();
        let text: String = puzzles.iter().map(|p| encode(p, abc, '0') + "\n").collect();
        solve_lines(rows, cols, &puzzles, &text, &[], |a: &str| {
            cells(a, "", abc)
        });
        let grids: Vec<String> = puzzles
            .iter()
            .map(|p| {
                let line = encode(p, abc, '0');
                let rows: Vec<&str> = (0..side).map(|r| &line[r * side..][..side]).collect();
                rows.join("\n") + "\n"
            })
            .collect();
        let answers = solve_multiline(&grids.join("\n"), side);
        assert_eq!(answers.len(), puzzles.len());
        for (p, a) in puzzles.iter().zip(&answers) {
            assert_valid_boxes(rows, cols, p, &cells(&a.replace('\n', ""), "", abc));
        }
    }
}

#[test]
fn a_stream_that_sends_its_comment_lines_first_keeps_its_grid_size() {
    // `(echo '# 12x12'; cat puzzles.txt) | sudoku-bulk solve`: the comment
    // (and a blank line) may arrive alone, before any puzzle shows the
    // size; the puzzles after the pause are still read as 12x12, not
    // each refused as a 9x9 puzzle of the wrong length.
    let (rows, cols) = (3, 4);
    let abc = &HEX1[..12];
    let puzzles: Vec<Vec<u8>> = (0..3)
        .map(|i| blank_out(&full_grid_boxes(rows, cols, 70 + i), 50, 80 + i))
        .collect();
    let text: String = puzzles.iter().map(|p| encode(p, abc, '.') + "\n").collect();
    let o = run_paused(
        &["solve", "--no-progress"],
        b"\n# 12x12 puzzles\n",
        text.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), puzzles.len(), "{out}");
    for (p, a) in puzzles.iter().zip(&answers) {
        assert_valid_boxes(rows, cols, p, &cells(a, "", abc));
    }
}

/// Solves a file of multi-line grids (`side` rows each) without flags;
/// asserts the answer keeps the file's layout (its empty lines in the same
/// places) and returns the answer's records, `side` non-empty lines each.
fn solve_multiline(text: &str, side: usize) -> Vec<String> {
    let (_dir, path) = temp_file("grids.txt", text.as_bytes());
    let out = ok(&["solve", path_str(&path)]);
    let empty_lines = |t: &str| -> Vec<bool> { t.lines().map(|l| l.trim().is_empty()).collect() };
    assert_eq!(empty_lines(&out), empty_lines(text), "layout kept:\n{out}");
    let rows: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(rows.len() % side, 0, "whole grids: {out}");
    rows.chunks(side).map(|r| r.join("\n")).collect()
}

#[test]
fn layouts_of_every_size_are_detected_without_flags() {
    let grids = |rows: usize, cols: usize, n: u64, blank: usize, seed: u64| -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| blank_out(&full_grid_boxes(rows, cols, seed + i), blank, seed + 50 + i))
            .collect()
    };
    let digits = |side: usize| {
        move |a: &str| {
            assert_eq!(a.len(), side * side, "answer {a:?}");
            cells(a, "", &"123456789"[..side])
        }
    };
    let numbers_of = |side: usize| {
        move |a: &str| {
            // Same separator as the input: single spaces.
            assert_eq!(a.split(' ').count(), side * side, "answer {a:?}");
            parse_numbers(a)
        }
    };

    // 6x6 and 8x8 lines of digits (blanks `.` and `0`).
    let six = grids(2, 3, 6, 55, 100);
    let text: String = six
        .iter()
        .map(|p| encode(p, "123456", '.') + "\n")
        .collect();
    solve_lines(2, 3, &six, &text, &[], digits(6));
    let eight = grids(2, 4, 6, 55, 200);
    let text: String = eight
        .iter()
        .map(|p| encode(p, "12345678", '0') + "\n")
        .collect();
    solve_lines(2, 4, &eight, &text, &[], digits(8));

    // 36 numbers on a line are a 6x6 puzzle.
    let text: String = six.iter().map(|p| numbers(p) + "\n").collect();
    solve_lines(2, 3, &six, &text, &[], numbers_of(6));

    // 12x12 in letters as `generate` writes them, one a line and as grids.
    let gen = ok(&[
        "generate", "-n", "3", "--size", "12", "--seed", "5", "-j", "2",
    ]);
    let abc = &LETTERS[..12];
    let twelve: Vec<Vec<u8>> = gen.lines().map(|l| cells(l, ".", abc)).collect();
    assert_eq!(twelve.len(), 3, "{gen}");
    solve_lines(3, 4, &twelve, &gen, &[], |a: &str| {
        assert_eq!(a.len(), 144, "answer {a:?}");
        cells(a, "", abc)
    });
    let text: String = gen
        .lines()
        .map(|l| {
            let rows: Vec<&str> = (0..12).map(|r| &l[12 * r..12 * r + 12]).collect();
            rows.join("\n") + "\n"
        })
        .collect::<Vec<_>>()
        .join("\n");
    let answers = solve_multiline(&text, 12);
    assert_eq!(answers.len(), 3);
    for (p, a) in twelve.iter().zip(&answers) {
        assert!(a.lines().all(|r| r.len() == 12), "{a}");
        assert_valid_boxes(3, 4, p, &cells(&a.replace('\n', ""), "", abc));
    }

    // A spaced 10x10 grid: 10 rows of 10 numbers, an empty line between.
    let ten = grids(2, 5, 3, 55, 300);
    let text = ten
        .iter()
        .map(|p| {
            p.chunks(10)
                .map(|row| numbers(row) + "\n")
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let answers = solve_multiline(&text, 10);
    assert_eq!(answers.len(), 3);
    for (p, a) in ten.iter().zip(&answers) {
        assert!(a.lines().all(|r| r.split(' ').count() == 10), "{a}");
        assert_valid_boxes(2, 5, p, &parse_numbers(a));
    }

    // 25x25, 49x49 and 64x64 as one line of numbers each; big grids must
    // not take long.
    for (b, n, blank, seed) in [(5, 2, 50, 400), (7, 1, 35, 500), (8, 1, 35, 600)] {
        let puzzles = grids(b, b, n, blank, seed);
        let text: String = puzzles.iter().map(|p| numbers(p) + "\n").collect();
        let took = solve_lines(b, b, &puzzles, &text, &[], numbers_of(b * b));
        eprintln!("{0}x{0}: {n} puzzle(s) solved in {took:?}", b * b);
        assert!(
            took < Duration::from_secs(20),
            "{0}x{0} at {blank}% blanks took {took:?}",
            b * b
        );
    }
}

#[test]
fn box_flags_that_do_not_fit_are_usage_errors() {
    let six = encode(&blank_out(&full_grid_boxes(2, 3, 9), 50, 10), "123456", '.');
    let (_dir, path) = temp_file("six.txt", format!("# six\n{six}\n").as_bytes());
    for cmd in ["solve", "count"] {
        let o = sb([cmd, "--box", "2x5", path_str(&path)]).note(cmd).code(2);
        assert!(o.stdout.is_empty(), "{}", o.stdout());
        let err = o.stderr();
        assert!(err.contains(&format!("{}:2", path.display())), "{err}");
        assert!(err.contains("100 cells"), "{err}");
    }
    let o = sb(["solve", "--box", "2x5"])
        .stdin(format!("{six}\n").as_bytes())
        .code(2);
    assert!(o.stderr().contains("<stdin>:1"), "{}", o.stderr());
    assert!(o.stderr().contains("100 cells"), "{}", o.stderr());

    let bad: &[(&[&str], &str)] = &[
        (&["solve", "--box", "2x3", "--size", "9"], "2x3"),
        (&["solve", "--size", "7"], "7"),
        (&["solve", "--size", "65"], "65"),
        (&["solve", "--size", "3"], "3"),
        (&["solve", "--box", "1x9"], "1x9"),
        (&["solve", "--box", "8x9"], "8x9"),
        (&["solve", "--box", "3"], "3"),
        // Factors whose product wraps to 0 in 64 bits.
        (
            &["solve", "--box", "4294967296x4294967296"],
            "4294967296x4294967296",
        ),
        (&["count", "--size", "11"], "11"),
        (&["generate", "-n", "1", "--size", "7"], "7"),
        (
            &["generate", "-n", "1", "--box", "2x3", "--size", "8"],
            "2x3",
        ),
    ];
    for &(args, named) in bad {
        let o = sb(args)
            .stdin(format!("{six}\n").as_bytes())
            .note(format!("{args:?}"))
            .code(2);
        assert!(o.stdout.is_empty(), "{args:?}: {}", o.stdout());
        assert!(o.stderr().contains(named), "{args:?}: {}", o.stderr());
    }
}

#[test]
fn generated_puzzles_of_other_sizes_are_unique_and_solve() {
    // (rows, cols, generate flags, count, solve also without flags)
    let cases: &[(usize, usize, &[&str], usize, bool)] = &[
        (2, 2, &["--size", "4"], 20, true),
        (2, 3, &["--size", "6"], 30, true),
        (2, 5, &["--size", "10"], 4, true),
        (4, 3, &["--size", "12", "--box", "4x3"], 3, false),
    ];
    for &(rows, cols, flags, n, usual) in cases {
        let side = rows * cols;
        let abc = alphabet(side).unwrap();
        let count = n.to_string();
        let mut args = vec!["generate", "-n", &count, "--seed", "11", "-j", "2"];
        args.extend_from_slice(flags);
        let gen = ok(&args);
        let puzzles: Vec<Vec<u8>> = gen
            .lines()
            .map(|l| {
                assert_eq!(l.len(), side * side, "{flags:?}: {l:?}");
                cells(l, ".", abc)
            })
            .collect();
        assert_eq!(puzzles.len(), n, "{flags:?}: {gen}");
        let mut distinct = puzzles.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), n, "{flags:?}: repeated puzzles");
        for p in &puzzles {
            assert_eq!(count_naive(rows, cols, p, 2), 1, "{flags:?}: {p:?}");
        }
        let boxes = format!("{rows}x{cols}");
        let decode = |a: &str| cells(a, "", abc);
        solve_lines(rows, cols, &puzzles, &gen, &["--box", &boxes], decode);
        if usual {
            solve_lines(rows, cols, &puzzles, &gen, &[], decode);
        }
    }
}

#[test]
fn one_and_two_threads_write_the_same_bytes() {
    let (rows, cols) = (3, 4);
    let abc = &LETTERS[..12];
    // Minimal (harder) puzzles, blanked grids from easy to many solutions,
    // puzzles without a solution, and a clash, shuffled together.
    let gen = ok(&["generate", "-n", "8", "--size", "12", "--seed", "21"]);
    let mut puzzles: Vec<Vec<u8>> = gen.lines().map(|l| cells(l, ".", abc)).collect();
    let mut rng = Rng(77);
    for i in 0..60u64 {
        let grid = full_grid_boxes(rows, cols, 900 + i);
        let p = blank_out(&grid, 20 + (i as usize % 14) * 5, 950 + i);
        puzzles.push(if i % 10 == 9 {
            corrupt(rows, cols, &p, &grid, &mut rng)
        } else {
            p
        });
    }
    let mut clash = full_grid_boxes(rows, cols, 5);
    clash[1] = clash[0];
    puzzles.push(clash);
    let order = shuffled(puzzles.len(), &mut rng);
    let puzzles: Vec<Vec<u8>> = order.into_iter().map(|i| puzzles[i].clone()).collect();
    let text: String = puzzles.iter().map(|p| encode(p, abc, '.') + "\n").collect();
    let (_dir, path) = temp_file("mixed.txt", text.as_bytes());

    for extra in [&[][..], &["--stats"][..]] {
        let outs: Vec<_> = ["1", "2"]
            .iter()
            .map(|j| {
                let mut args = vec!["solve", "-j", j, "--chunk-size", "1024"];
                args.extend_from_slice(extra);
                args.push(path_str(&path));
                sb(&args).output()
            })
            .collect();
        assert_eq!(outs[0].status.code(), Some(1), "{}", stderr(&outs[0]));
        assert_eq!(outs[1].status.code(), outs[0].status.code());
        assert!(
            outs[0].stdout == outs[1].stdout,
            "{extra:?}: -j 1 and -j 2 differ"
        );
        let out = stdout(&outs[0]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), puzzles.len());
        let mut errors = 0;
        for (p, a) in puzzles.iter().zip(&lines) {
            if a.starts_with("error:") {
                errors += 1;
                assert_eq!(count_naive(rows, cols, p, 1), 0, "{a}");
            } else {
                let fields: Vec<&str> = a.split_whitespace().collect();
                assert_eq!(fields.len(), 1 + 2 * extra.len(), "{a}");
                let a = fields[0];
                assert_valid_boxes(rows, cols, p, &cells(a, "", abc));
            }
        }
        assert!(errors >= 2, "{errors} error lines");
    }
}

#[test]
fn the_checker_and_the_counter_know_their_boxes() {
    // 288 is the known number of 4x4 Sudoku grids.
    assert_eq!(count_naive(2, 2, &[0; 16], 1000), 288);
    for (rows, cols) in [(2, 3), (3, 2), (2, 4), (3, 4), (4, 3), (5, 4)] {
        let grid = full_grid_boxes(rows, cols, 42);
        assert_valid_boxes(rows, cols, &grid, &grid);
        assert_eq!(count_naive(rows, cols, &grid, 2), 1);
        // The transposed shape is wrong for this grid: its boxes repeat.
        let wrong = std::panic::catch_unwind(|| assert_valid_boxes(cols, rows, &grid, &grid));
        assert!(wrong.is_err(), "{rows}x{cols} grid passed as {cols}x{rows}");
        assert_eq!(count_naive(cols, rows, &grid, 2), 0);
    }
}

/// A CSV column may hold each puzzle as numbers (the only one-field form
/// of 49x49 and 64x64 grids): detected without flags, answered as numbers
/// in the solution column, checked, and an existing label kept.
#[test]
fn csv_number_fields_hold_every_size() {
    let cases: &[(usize, usize, usize, &[&str])] = &[
        (3, 3, 55, &[]),
        (3, 4, 55, &[]),
        (3, 2, 50, &["--box", "3x2"]),
        (7, 7, 35, &[]),
    ];
    for &(rows, cols, blank, flags) in cases {
        let side = rows * cols;
        let puzzles: Vec<Vec<u8>> = (0..3u64)
            .map(|i| blank_out(&full_grid_boxes(rows, cols, 500 + i), blank, 600 + i))
            .collect();
        let mut text = String::from("id,puzzle\n");
        for (i, p) in puzzles.iter().enumerate() {
            // Commas inside a quoted field are separators too.
            let field = if i == 1 {
                format!("\"{}\"", numbers(p).replace(' ', ","))
            } else {
                numbers(p)
            };
            text.push_str(&format!("{i},{field}\n"));
        }
        let (dir, path) = temp_file("p.csv", text.as_bytes());
        let out = dir.path().join("a.csv");
        let mut args = vec!["solve", path_str(&path), "-o", path_str(&out)];
        args.extend_from_slice(flags);
        ok(&args);
        let answered = std::fs::read_to_string(&out).unwrap();
        let mut lines = answered.lines();
        assert_eq!(lines.next(), Some("id,puzzle,solution"), "{side}x{side}");
        for (p, line) in puzzles.iter().zip(lines) {
            let answer = line.rsplit(',').next().unwrap();
            assert_valid_boxes(rows, cols, p, &parse_numbers(answer));
        }
        // The answered file checks good; a label changed in one cell is bad.
        let mut args = vec!["check", path_str(&out)];
        args.extend_from_slice(flags);
        assert!(ok(&args).contains("3 good, 0 bad"), "{side}x{side}");
        let last = answered.trim_end().rsplit_once(' ').unwrap();
        let swapped = if last.1 == "1" { "2" } else { "1" };
        let bad = format!("{} {swapped}\n", last.0);
        let (_d2, bad_path) = temp_file("bad.csv", bad.as_bytes());
        let mut args = vec!["check", path_str(&bad_path)];
        args.extend_from_slice(flags);
        sb(&args).note(format!("{side}x{side}")).code(1);
        // Solving the answered file keeps its labels, byte for byte.
        let again = dir.path().join("b.csv");
        let mut args = vec!["solve", path_str(&out), "-o", path_str(&again)];
        args.extend_from_slice(flags);
        ok(&args);
        assert_eq!(std::fs::read_to_string(&again).unwrap(), answered);
    }
}

/// From 27x27 up, `generate` without `--clues` says that minimal puzzles
/// take minutes and which `--clues` is quick; that clue count does make a
/// 36x36 puzzle, unique and valid.
#[test]
fn generate_of_big_grids_points_to_clues() {
    let o = sb(["generate", "--size", "36", "-n", "0"]).ok();
    let err = o.stderr();
    assert!(
        err.contains("note: minimal 36x36 puzzles take minutes"),
        "{err}"
    );
    assert!(err.contains("--clues 803"), "{err}");
    // 35x35 (5x7 boxes) and 27x27 too; 26x26 (a minimal one: 4.5 s) not.
    for (flags, want) in [
        (["--box", "5x7"], "minimal 35x35 puzzles take minutes each"),
        (["--size", "27"], "--clues 451 (62% of the cells)"),
    ] {
        let o = sb([&["generate", "-n", "0"][..], &flags].concat()).output();
        assert!(o.stderr().contains(want), "{}", o.stderr());
    }
    let o = sb(["generate", "--size", "26", "-n", "0"]).output();
    assert!(!o.stderr().contains("note:"), "{}", o.stderr());
    let o = sb(["generate", "--size", "36", "-n", "1", "--clues", "803"]).ok();
    assert!(!o.stderr().contains("note:"), "{}", o.stderr());
    let line = o.stdout();
    let puzzle = cells(line.trim(), ".", HEX0);
    assert_eq!(puzzle.iter().filter(|&&c| c != 0).count(), 803);
    let o = sb(["count", "--size", "36"])
        .stdin(line.as_bytes())
        .output();
    assert_eq!(o.stdout().trim(), "1", "{}", o.stderr());
    let o = sb(["solve", "--size", "36"])
        .stdin(line.as_bytes())
        .output();
    assert_valid(6, &puzzle, &cells(o.stdout().trim(), "", HEX0));
}

/// Past 36x36 no symbol set has a character per value: `generate` writes
/// space-separated numbers (0 blank), which `solve`, `count` and `check`
/// read back without flags, alone and in a `--with-solution` CSV.
#[test]
fn generated_grids_past_36_are_numbers_read_back() {
    let clues = 38 * 38 - 40;
    let clues_arg = clues.to_string();
    let gen = &["generate", "--size", "38", "-n", "2", "--seed", "3"];
    let o = sb([&gen[..], &["--clues", &clues_arg]].concat()).ok();
    let text = o.stdout();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let numbers =
        |line: &str| -> Vec<u8> { line.split(' ').map(|t| t.parse::<u8>().unwrap()).collect() };
    for line in &lines {
        let p = numbers(line);
        assert_eq!(p.len(), 38 * 38, "{line}");
        assert_eq!(p.iter().filter(|&&v| v != 0).count(), clues);
        assert!(p.iter().all(|&v| v <= 38));
    }
    let o = sb(["solve"]).stdin(text.as_bytes()).ok();
    let answers = o.stdout();
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), 2);
    for (p, a) in lines.iter().zip(&answers) {
        assert_valid_boxes(2, 19, &numbers(p), &numbers(a));
    }
    let o = sb(["count"]).stdin(text.as_bytes()).output();
    assert_eq!(o.stdout(), "1\n1\n", "{}", o.stderr());
    let o = sb([
        &gen[..],
        &["--clues", &clues_arg, "--with-solution", "--stats"],
    ]
    .concat())
    .output();
    let csv = o.stdout();
    let (_dir, path) = temp_file("g38.csv", csv.as_bytes());
    let o = sb(["check"]).arg(&path).ok();
    assert!(o.stdout().contains("2 good, 0 bad"), "{}", o.stdout());
}
