//! `canon`: canonical forms end to end. Forms are checked on their own
//! terms: a random disguise of a record (made here, with this file's own
//! transform code) has the same form; `--transform`'s mapping, applied here,
//! takes the record to its form; `--form pattern` equals the output of
//! dobrichev's sudoku-minlexing-tool kept in data/canon_pattern_sample.txt.

use crate::util::*;

/// A transform as `canon --transform` writes it: `N|T/ROWS/COLS/LABELS`.
struct Tr {
    transpose: bool,
    rows: Vec<usize>,
    cols: Vec<usize>,
    labels: Vec<u8>,
}

impl Tr {
    fn parse(s: &str) -> Tr {
        let parts: Vec<&str> = s.split('/').collect();
        assert_eq!(parts.len(), 4, "{s}");
        let digits = |p: &str| p.bytes().map(|b| (b - b'0') as usize).collect::<Vec<_>>();
        Tr {
            transpose: parts[0] == "T",
            rows: digits(parts[1]),
            cols: digits(parts[2]),
            labels: digits(parts[3]).into_iter().map(|d| d as u8).collect(),
        }
    }

    /// A random transform of a 9x9 grid that keeps bands and stacks.
    fn random(rng: &mut Rng) -> Tr {
        let order = |rng: &mut Rng| -> Vec<usize> {
            let mut out = vec![];
            for band in shuffled(3, rng) {
                out.extend(shuffled(3, rng).into_iter().map(|i| 3 * band + i));
            }
            out
        };
        Tr {
            transpose: rng.below(2) == 1,
            rows: order(rng),
            cols: order(rng),
            labels: shuffled(9, rng).into_iter().map(|d| d as u8 + 1).collect(),
        }
    }

    fn apply(&self, cells: &[u8]) -> Vec<u8> {
        let n = self.rows.len();
        let mut out = vec![0u8; n * n];
        for i in 0..n {
            for j in 0..n {
                let (r, c) = (self.rows[i], self.cols[j]);
                let x = if self.transpose {
                    cells[c * n + r]
                } else {
                    cells[r * n + c]
                };
                out[i * n + j] = if x == 0 {
                    0
                } else {
                    self.labels[x as usize - 1]
                };
            }
        }
        out
    }
}

fn digits(line: &str) -> Vec<u8> {
    cells(line, ".0", "123456789")
}

fn canon(args: &[&str], input: &str) -> (Vec<String>, Ran) {
    let mut a = vec!["canon", "-j", "2"];
    a.extend_from_slice(args);
    let o = sb(&a).stdin(input.as_bytes()).output();
    let lines = o.stdout().lines().map(str::to_string).collect();
    (lines, o)
}

/// A few puzzles of each shipped set, and full grids.
fn records() -> Vec<String> {
    let mut v = vec![];
    for set in [
        "17_clue_sub.txt",
        "magictour_top1465.txt",
        "forum_hardest_11plus_sub.txt",
        "serg_benchmark_sub.txt",
    ] {
        let text = std::fs::read_to_string(data(set)).unwrap();
        v.extend(
            puzzle_lines(&text)
                .into_iter()
                .step_by(211)
                .take(6)
                .map(str::to_string),
        );
    }
    for seed in 1..4 {
        v.push(encode(&full_grid(3, seed), "123456789", '.'));
    }
    v
}

#[test]
fn disguised_records_get_the_same_form_and_the_transform_maps_to_it() {
    let recs = records();
    let mut rng = Rng(31);
    // Each record, then three disguises of each.
    let mut input = String::new();
    let mut disguised = vec![];
    for r in &recs {
        input.push_str(r);
        input.push('\n');
    }
    for r in &recs {
        for _ in 0..3 {
            let d = encode(&Tr::random(&mut rng).apply(&digits(r)), "123456789", '.');
            input.push_str(&d);
            input.push('\n');
            disguised.push(d);
        }
    }
    for form in ["string", "pattern"] {
        let (lines, o) = canon(&["--form", form, "--transform"], &input);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(lines.len(), recs.len() * 4);
        let all: Vec<&String> = recs.iter().chain(disguised.iter()).collect();
        for (i, (line, rec)) in lines.iter().zip(&all).enumerate() {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f.len(), 3, "{line}");
            // The transform takes the record to the form.
            let mapped = Tr::parse(f[1]).apply(&digits(rec));
            assert_eq!(encode(&mapped, "123456789", '.'), f[0], "{form} {rec}");
            assert!(f[2].parse::<u64>().unwrap() >= 1);
            if i >= recs.len() {
                // A disguise has the form (and group size) of its original.
                let orig = &lines[(i - recs.len()) / 3];
                let o: Vec<&str> = orig.split(' ').collect();
                assert_eq!((f[0], f[2]), (o[0], o[2]), "{form}: {rec}");
            }
        }
    }
}

#[test]
fn string_form_is_no_larger_than_any_disguise_and_pattern_form_is_patminlex() {
    let text = std::fs::read_to_string(data("sample.txt")).unwrap();
    let (lines, o) = canon(&["--form", "pattern"], &text);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = std::fs::read_to_string(data("canon_pattern_sample.txt")).unwrap();
    assert_eq!(lines, puzzle_lines(&want));

    // The string form is the smallest string (blank = 0) of the class: no
    // random disguise, relabelled by first appearance, is smaller.
    let (lines, o) = canon(&[], &text);
    assert!(o.status.success());
    let mut rng = Rng(7);
    for (p, form) in puzzle_lines(&text).iter().zip(&lines).step_by(7) {
        let key = |c: &[u8]| -> Vec<u8> {
            let mut label = [0u8; 10];
            let mut next = 1;
            c.iter()
                .map(|&x| {
                    if x != 0 && label[x as usize] == 0 {
                        label[x as usize] = next;
                        next += 1;
                    }
                    label[x as usize]
                })
                .collect()
        };
        let f = digits(form);
        assert_eq!(key(&f), f, "a form is labelled by first appearance");
        for _ in 0..200 {
            let d = key(&Tr::random(&mut rng).apply(&digits(p)));
            assert!(f <= d, "{p}: {form} above a disguise");
        }
    }
}

#[test]
fn blank_symbol_order_and_bad_records_kept() {
    let recs = records();
    let zeros = recs[0].replace('.', "0");
    let input = format!("{zeros}\n123\n{}\n", recs[1]);
    let (lines, o) = canon(&[], &input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(lines.len(), 3);
    // One form whatever the record's blank (issue 42): `.`, the usual
    // blank of digits.
    let (dots, _) = canon(&[], &format!("{}\n", recs[0]));
    assert_eq!(lines[0], dots[0], "`0` and `.` blanks give one form");
    assert!(
        lines[0].contains('.') && !lines[0].contains('0'),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("error: "), "{}", lines[1]);
    assert!(stderr(&o).contains("<stdin>:2: "), "{}", stderr(&o));
    let (alone, _) = canon(&[], &format!("{}\n", recs[1]));
    assert_eq!(lines[2], alone[0]);
    // `--blank 0` writes them with `0`, for either input blank.
    let (z, _) = canon(&["--blank", "0"], &format!("{zeros}\n{}\n", recs[0]));
    assert_eq!(z[0], dots[0].replace('.', "0"));
    assert_eq!(z[1], z[0]);
}

#[test]
fn csv_forms_are_blank_independent() {
    let recs = records();
    let zeros = recs[0].replace('.', "0");
    let input = format!("puzzle\n{zeros}\n{}\n", recs[0]);
    let o = run(&["canon", "-q"], input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let forms: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(
        forms[0], forms[1],
        "a Kaggle-style and a dotted row: one form"
    );
}

#[test]
fn clashing_givens_get_a_form() {
    // Two 5s in row 1: not solvable, still a record with a form.
    let mut p = records()[0].clone().into_bytes();
    p[0] = b'5';
    p[1] = b'5';
    let p = String::from_utf8(p).unwrap();
    let (lines, o) = canon(&["--transform"], &format!("{p}\n"));
    assert!(o.status.success(), "{}", stderr(&o));
    let f: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(
        encode(&Tr::parse(f[1]).apply(&digits(&p)), "123456789", '.'),
        f[0]
    );
}

#[test]
fn csv_gets_a_canonical_column_and_keeps_its_rows() {
    let recs = records();
    let mut csv = String::from("id,quizzes,note\n");
    for (i, r) in recs.iter().take(5).enumerate() {
        csv.push_str(&format!("{i},{r},\"a, b\"\n"));
    }
    let (dir, path) = temp_file("in.csv", csv.as_bytes());
    let out = dir.path().join("out.csv");
    sb(["canon"]).arg(&path).arg("-o").arg(&out).ok();
    let text = std::fs::read_to_string(&out).unwrap();
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        rd.headers().unwrap().iter().collect::<Vec<_>>(),
        ["id", "quizzes", "note", "canonical"]
    );
    let (forms, _) = canon(&[], &recs[..5].join("\n"));
    for (i, row) in rd.records().enumerate() {
        let row = row.unwrap();
        assert_eq!(&row[0], i.to_string());
        assert_eq!(&row[1], recs[i]);
        assert_eq!(&row[2], "a, b");
        assert_eq!(&row[3], forms[i]);
    }
}

#[test]
fn small_grids_and_big_ones_refused() {
    // 4x4: every disguise of a grid and of a puzzle has one form.
    let g = full_grid(2, 3);
    let p = blank_out(&g, 50, 5);
    let (a, o) = canon(
        &[],
        &format!("{}\n{}\n", encode(&g, "1234", '.'), encode(&p, "1234", '.')),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut rng = Rng(11);
    for _ in 0..20 {
        let t = Tr {
            transpose: rng.below(2) == 1,
            rows: if rng.below(2) == 1 {
                vec![2, 3, 0, 1]
            } else {
                vec![1, 0, 3, 2]
            },
            cols: if rng.below(2) == 1 {
                vec![0, 1, 3, 2]
            } else {
                vec![3, 2, 1, 0]
            },
            labels: shuffled(4, &mut rng)
                .into_iter()
                .map(|d| d as u8 + 1)
                .collect(),
        };
        let input = format!(
            "{}\n{}\n",
            encode(&t.apply(&g), "1234", '.'),
            encode(&t.apply(&p), "1234", '.')
        );
        let (b, _) = canon(&[], &input);
        assert_eq!(a, b);
    }
    // 16x16 is refused per record with the reason.
    let (lines, o) = canon(&[], &format!("{}\n", ".".repeat(256)));
    assert_eq!(o.status.code(), Some(1));
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    assert!(stderr(&o).contains("not 16x16"), "{}", stderr(&o));
}
