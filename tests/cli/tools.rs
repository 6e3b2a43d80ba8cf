//! Dataset tools end to end: `count`, `check`, `bench`.

use crate::util::*;

fn first_lines(name: &str, n: usize) -> String {
    let text = std::fs::read_to_string(data(name)).unwrap();
    puzzle_lines(&text)[..n].join("\n") + "\n"
}

#[test]
fn count_reports_multiple_unique_and_none() {
    // serg's benchmark puzzles all have several solutions.
    let serg = first_lines("serg_benchmark_sub.txt", 300);
    let o = sb(["count", "-j", "2"]).stdin(serg.as_bytes()).ok();
    assert!(o.stdout().lines().all(|l| l == "2+"));
    assert_eq!(o.stdout().lines().count(), 300);
    assert!(
        o.stderr()
            .contains("0 with 0 solutions, 0 with 1, 300 with 2+"),
        "{}",
        o.stderr()
    );
    // 17-clue puzzles are all proper.
    let o = sb(["count"])
        .stdin(first_lines("17_clue_sub.txt", 300).as_bytes())
        .ok();
    assert!(o.stdout().lines().all(|l| l == "1"));
    assert_eq!(o.stdout().lines().count(), 300);
    // No solution, a clash (bad record), and a custom limit on an empty grid.
    let dead = format!("12345678{}9{}", ".".repeat(36), ".".repeat(36));
    let clash = format!("11{}", ".".repeat(79));
    let input = format!("{dead}\n{clash}\n{}\n", ".".repeat(81));
    let o = sb(["count", "--limit", "10"])
        .stdin(input.as_bytes())
        .code(1);
    assert_eq!(
        o.stdout(),
        "0\nerror: duplicate given 1 at r1c1 and r1c2\n10+\n"
    );
    assert!(o.stderr().contains("<stdin>:2: duplicate given 1"));
}

#[test]
fn check_names_the_line_of_a_swapped_pair() {
    let puzzles = first_lines("sample.txt", 50);
    let (dir, p) = temp_file("p.txt", puzzles.as_bytes());
    let o = sb(["solve"]).arg(&p).output();
    let answers = o.stdout();
    let a = dir.path().join("a.txt");
    std::fs::write(&a, &answers).unwrap();
    let o = sb(["check"]).arg(&p).arg(&a).ok();
    assert!(o.stdout().contains("50 records checked, 50 good, 0 bad"));

    // Swap two different digits of answer 7 in cells that are not givens.
    let mut lines: Vec<String> = answers.lines().map(String::from).collect();
    let given: Vec<bool> = puzzle_lines(&puzzles)[6]
        .bytes()
        .map(|b| b != b'.')
        .collect();
    let row = &mut lines[6];
    let (i, j) = (0..81)
        .flat_map(|i| (i + 1..81).map(move |j| (i, j)))
        .find(|&(i, j)| !given[i] && !given[j] && row.as_bytes()[i] != row.as_bytes()[j])
        .unwrap();
    let mut bytes = row.clone().into_bytes();
    bytes.swap(i, j);
    *row = String::from_utf8(bytes).unwrap();
    std::fs::write(&a, lines.join("\n") + "\n").unwrap();
    let o = sb(["check"]).arg(&p).arg(&a).code(1);
    let out = o.stdout();
    assert!(out.contains(&format!("{}:7: cells ", a.display())), "{out}");
    assert!(out.contains("50 records checked, 49 good, 1 bad"), "{out}");

    // A missing answer is a count mismatch.
    std::fs::write(&a, lines[..49].join("\n") + "\n").unwrap();
    let o = sb(["check"]).arg(&p).arg(&a).code(1);
    assert!(
        o.stdout().contains("49 answer records for 50 puzzles"),
        "{}",
        o.stdout()
    );
}

#[test]
fn check_lists_twenty_then_counts() {
    let puzzles = first_lines("sample.txt", 30);
    let (dir, p) = temp_file("p.txt", puzzles.as_bytes());
    let a = dir.path().join("a.txt");
    std::fs::write(&a, "error: no solution\n".repeat(30)).unwrap();
    let o = sb(["check"]).arg(&p).arg(&a).code(1);
    let out = o.stdout();
    assert_eq!(
        out.lines().filter(|l| l.contains(": no answer")).count(),
        20
    );
    assert!(out.contains("... and 10 more bad records"), "{out}");
}

#[test]
fn check_a_csv_dataset_against_itself() {
    let puzzles = first_lines("sample.txt", 20);
    let o = sb(["solve"]).stdin(puzzles.as_bytes()).output();
    let rows: Vec<String> = puzzle_lines(&puzzles)
        .iter()
        .zip(o.stdout().lines())
        .map(|(p, a)| format!("{},{a}", p.replace('.', "0")))
        .collect();
    let mut csv = format!("quizzes,solutions\n{}\n", rows.join("\n"));
    let (_dir, path) = temp_file("k.csv", csv.as_bytes());
    sb(["check"]).arg(&path).ok();
    // Break row 5's solution: a given changes.
    let line = csv.lines().nth(5).unwrap().to_string();
    let (p, s) = line.split_once(',').unwrap();
    let k = p.bytes().position(|b| b != b'0').unwrap();
    let mut s = s.as_bytes().to_vec();
    s[k] = if s[k] == b'9' { b'1' } else { s[k] + 1 };
    csv = csv.replace(&line, &format!("{p},{}", String::from_utf8(s).unwrap()));
    std::fs::write(&path, &csv).unwrap();
    let o = sb(["check"]).arg(&path).code(1);
    assert!(
        o.stdout().contains(&format!(
            "{}:6 (row 5): cell {}: given",
            path.display(),
            k + 1
        )),
        "{}",
        o.stdout()
    );
}

#[test]
fn bench_reports_verified_counts() {
    let f = data("sample.txt");
    let o = sb(["bench", "--seconds", "0"]).arg(&f).ok();
    assert!(o.stdout().contains("354/354"), "{}", o.stdout());
    let o = sb([
        "bench",
        "--seconds",
        "0",
        "--json",
        "--mode",
        "unique",
        "-j",
        "2",
    ])
    .arg(&f)
    .ok();
    let out = o.stdout();
    for want in [
        "\"puzzles\": 354",
        "\"verified\": 354",
        "\"unique\": 354",
        "\"multiple\": 0",
    ] {
        assert!(out.contains(want), "{want} in {out}");
    }
    // A set with an unsolvable puzzle cannot pass as fully solved.
    let (_dir, p) = temp_file(
        "x.txt",
        format!("12345678{}9{}\n", ".".repeat(36), ".".repeat(36)).as_bytes(),
    );
    let o = sb(["bench", "--seconds", "0"]).arg(&p).code(1);
    assert!(o.stdout().contains("0/1"));
}

/// Counts solutions by plain backtracking (no propagation), independent of
/// the crate's solvers.
fn naive_count(g: &mut [u8], limit: u32) -> u32 {
    let Some(i) = g.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (r, c) = (i / 9, i % 9);
    let mut total = 0;
    for d in 1..=9u8 {
        let clash = (0..9).any(|k| {
            g[r * 9 + k] == d
                || g[k * 9 + c] == d
                || g[((r / 3) * 3 + k / 3) * 9 + (c / 3) * 3 + k % 3] == d
        });
        if !clash {
            g[i] = d;
            total += naive_count(g, limit - total);
            g[i] = 0;
            if total >= limit {
                break;
            }
        }
    }
    total
}

#[test]
fn generate_is_unique_distinct_and_reproducible() {
    let a = sb(["generate", "-n", "60", "--seed", "5", "-j", "1"]).ok();
    let b = sb(["generate", "-n", "60", "--seed", "5", "-j", "2"]).output();
    assert_eq!(
        a.stdout, b.stdout,
        "same seed, any thread count: same bytes"
    );
    let c = sb(["generate", "-n", "60", "--seed", "6"]).output();
    assert_ne!(a.stdout, c.stdout);
    let text = a.stdout();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 60);
    let distinct: std::collections::HashSet<&&str> = lines.iter().collect();
    assert_eq!(distinct.len(), 60);
    for l in &lines {
        let mut g = cells(l, ".", "123456789");
        assert_eq!(
            naive_count(&mut g, 2),
            1,
            "{l} must have exactly one solution"
        );
    }
}

#[test]
fn generate_with_solution_symmetry_and_clues() {
    let o = sb([
        "generate",
        "-n",
        "10",
        "--with-solution",
        "--symmetry",
        "rotate180",
        "--clues",
        "30",
        "--stats",
    ])
    .ok();
    let text = o.stdout();
    let mut rows = text.lines();
    assert_eq!(rows.next(), Some("puzzle,solution,guesses,level"));
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f.len(), 4);
        let p = cells(f[0], ".", "123456789");
        assert_valid(3, &p, &cells(f[1], "", "123456789"));
        assert_eq!(p.iter().filter(|&&v| v != 0).count(), 30);
        for i in 0..81 {
            assert_eq!(p[i] == 0, p[80 - i] == 0, "rotate180 pattern");
        }
        assert!(["easy", "medium", "hard", "extreme"].contains(&f[3]));
        assert_eq!(naive_count(&mut p.clone(), 2), 1);
    }
    // The answers check out with `check` on the CSV itself.
    let (_dir, path) = temp_file("g.csv", text.as_bytes());
    sb(["check", "--column", "puzzle"]).arg(&path).ok();
}

#[test]
fn generate_16x16_letters() {
    let o = sb(["generate", "-n", "2", "--size", "16", "--clues", "150"]).ok();
    let text = o.stdout();
    // Solve them back and check independently.
    let s = sb(["solve", "--unique"]).stdin(text.as_bytes()).ok();
    for (p, a) in text.lines().zip(s.stdout().lines()) {
        assert_valid(
            4,
            &cells(p, ".", &LETTERS[..16]),
            &cells(a, "", &LETTERS[..16]),
        );
    }
}

/// A CSV that already has a `guesses` or `level` column is refused with
/// --stats, as a table is (it got a second one, read back as `guesses.1`),
/// and the file named by -o is not made.
#[test]
fn stats_refuse_a_csv_that_has_their_columns() {
    let p = first_lines("sample.txt", 1);
    let dir = tempfile::tempdir().unwrap();
    let p = p.trim();
    for (input, column, name) in [
        (
            format!("puzzle,solution,guesses\n{p},,\n"),
            "guesses",
            "out.csv",
        ),
        (
            format!("id\tpuzzle\t\"Level\"\n1\t{p}\t\n"),
            "level",
            "out.tsv",
        ),
    ] {
        let out = dir.path().join(name);
        let (_d, path) = temp_file("in.csv", input.as_bytes());
        let args = [
            "solve",
            path.to_str().unwrap(),
            "--stats",
            "-o",
            out.to_str().unwrap(),
        ];
        let o = sb(args).note(input).code(2);
        let want = format!("the header already has a column \"{column}\", which --stats would add");
        assert!(o.stderr().contains(&want), "{}", o.stderr());
        assert!(!out.exists());
    }
    // Without those columns the two are added.
    let input = format!("puzzle,solution\n{p},\n");
    let o = sb(["solve", "--stats"]).stdin(input.as_bytes()).ok();
    assert!(o.stdout().starts_with("puzzle,solution,guesses,level\n"));
}

#[test]
fn stats_append_guesses_and_level() {
    let input = first_lines("sample.txt", 5);
    let o = sb(["count", "--stats"]).stdin(input.as_bytes()).ok();
    for line in o.stdout().lines() {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[0], "1");
        let g: u64 = f[1].parse().unwrap();
        let want = match g {
            0 => "easy",
            1..=4 => "medium",
            5..=29 => "hard",
            _ => "extreme",
        };
        assert_eq!(f[2], want);
    }
    let grid = "1\n103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    let o = sb(["solve", "--stats"]).stdin(grid.as_bytes()).code(2);
    assert!(o.stderr().contains("--stats needs"));
}
