//! Every layout `solve` recognises without flags, answered in the same
//! layout; ambiguous and unknown files give a clear error.

use crate::util::*;

fn solve_ok(args: &[&str], input: &str) -> String {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    let o = sb(&all).stdin(input.as_bytes()).ok();
    o.stdout()
}

/// Splits text into `side`-row blocks separated by one empty line.
fn blocks(text: &str, side: usize) -> Vec<Vec<&str>> {
    assert!(
        !text.ends_with("\n\n"),
        "no separator after the last answer"
    );
    text.split("\n\n")
        .map(|b| {
            let rows: Vec<&str> = b.lines().collect();
            assert_eq!(rows.len(), side, "{b}");
            rows
        })
        .collect()
}

#[test]
fn grid_with_count_line_from_the_issue() {
    let input = "1\n103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
    let out = solve_ok(&[], input);
    let puzzle = cells(&input[2..].replace('\n', ""), "0", "123456789");
    let answer = cells(&out.replace('\n', ""), "", "123456789");
    assert_valid(3, &puzzle, &answer);
    assert_eq!(out.lines().count(), 9);
    assert_eq!(out.lines().next(), Some("143628579"));
}

#[test]
fn spaced_grid_from_the_issue_and_several_puzzles() {
    let one = "8 0 0 0 0 0 0 0 0\n0 0 3 6 0 0 0 0 0\n0 7 0 0 9 0 2 0 0\n0 5 0 0 0 7 0 0 0\n0 0 0 0 4 5 7 0 0\n0 0 0 1 0 0 0 3 0\n0 0 1 0 0 0 0 6 8\n0 0 8 5 0 0 0 1 0\n0 9 0 0 0 0 4 0 0\n";
    let out = solve_ok(&[], one);
    assert_eq!(out.lines().next(), Some("8 1 2 7 5 3 6 4 9"));
    // Three puzzles back to back (no separators), one with an extra space.
    let input = format!("{one}{one}\n{}", one.replace("8 0 0", "8  0 0"));
    let out = solve_ok(&["-j", "2", "--chunk-size", "1"], &input);
    let p = cells(&one.replace([' ', '\n'], ""), "0", "123456789");
    for rows in blocks(&out, 9) {
        let a = cells(&rows.join("").replace(' ', ""), "", "123456789");
        assert_valid(3, &p, &a);
    }
}

/// 16x16 judge style (UVA 1309): letters A-P, `-` blank, puzzles separated
/// by empty lines; answers separated by one empty line, none after the last.
#[test]
fn judge_16x16_letters() {
    let mut input = String::new();
    let mut puzzles = Vec::new();
    for seed in 1..=3u64 {
        let p = blank_out(&full_grid(4, seed), 68, seed);
        for row in p.chunks(16) {
            input.push_str(&encode(row, LETTERS, '-'));
            input.push('\n');
        }
        input.push('\n');
        puzzles.push(p);
    }
    for threads in ["1", "2"] {
        let out = solve_ok(&["-j", threads, "--chunk-size", "300"], &input);
        let answers = blocks(&out, 16);
        assert_eq!(answers.len(), 3);
        for (p, rows) in puzzles.iter().zip(answers) {
            assert_valid(4, p, &cells(&rows.concat(), "", &LETTERS[..16]));
        }
    }
}

#[test]
fn one_line_16x16_and_25x25_letters() {
    for (b, blank, pct) in [(4, '-', 60), (4, '.', 55), (5, '-', 55)] {
        let side = b * b;
        let ps: Vec<Vec<u8>> = (10..13)
            .map(|s| blank_out(&full_grid(b, s), pct, s))
            .collect();
        let input: String = ps
            .iter()
            .map(|p| encode(p, LETTERS, blank) + "\n")
            .collect();
        let out = solve_ok(&[], &input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        for (p, a) in ps.iter().zip(lines) {
            assert_valid(b, p, &cells(a, "", &LETTERS[..side]));
        }
    }
}

#[test]
fn spaced_numbers_16x16_and_25x25() {
    for b in [4, 5] {
        let side = b * b;
        let p = blank_out(&full_grid(b, 7), 55, 7);
        let input: String = p
            .chunks(side)
            .map(|r| {
                r.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        let out = solve_ok(&[], &input);
        let a: Vec<u8> = out
            .split_whitespace()
            .map(|t| t.parse::<u8>().unwrap())
            .collect();
        assert_eq!(out.lines().count(), side);
        assert_valid(b, &p, &a);
    }
}

#[test]
fn hex_16x16_is_detected_when_safe_and_asks_otherwise() {
    let p = blank_out(&full_grid(4, 3), 55, 3);
    // 1-G with 0 blanks: the `0` and `G` make it safe.
    let hex1 = encode(&p, "123456789ABCDEFG", '0');
    assert!(hex1.contains('G'));
    let out = solve_ok(&[], &format!("{hex1}\n"));
    assert_valid(4, &p, &cells(out.trim(), "", "123456789ABCDEFG"));
    // 0-F with `.` blanks.
    let hex0 = encode(&p, "0123456789ABCDEF", '.');
    let out = solve_ok(&[], &format!("{hex0}\n"));
    assert_valid(4, &p, &cells(out.trim(), "", "0123456789ABCDEF"));
    // Without `0` or `G`, 0-F and 1-G cannot be told apart.
    let mut q = p.clone();
    for v in q.iter_mut() {
        if *v == 1 || *v == 16 {
            *v = 0;
        }
    }
    let unclear = encode(&q, "0123456789ABCDEF", '.');
    let o = sb(["solve"])
        .stdin(format!("{unclear}\n").as_bytes())
        .code(2);
    assert!(
        o.stderr()
            .contains("<stdin>:1: 16x16 cells written in hex digits"),
        "{}",
        o.stderr()
    );
    assert!(o.stderr().contains("--format hex0"));
    let out = solve_ok(&["--format", "hex0"], &format!("{unclear}\n"));
    assert_valid(4, &q, &cells(out.trim(), "", "0123456789ABCDEF"));
}

fn csv_case(header: &str, rows: &[String], args: &[&str]) -> Vec<Vec<String>> {
    let input = format!("{header}\n{}\n", rows.join("\n"));
    let out = solve_ok(args, &input);
    let mut r = csv::Reader::from_reader(out.as_bytes());
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut all = vec![head];
    all.extend(
        r.records()
            .map(|rec| rec.unwrap().iter().map(String::from).collect()),
    );
    assert_eq!(all.len(), rows.len() + 1);
    all
}

#[test]
fn csv_datasets_get_their_solution_column_filled() {
    let grids: Vec<Vec<u8>> = (20..23).map(|s| full_grid(3, s)).collect();
    let puzzles: Vec<Vec<u8>> = grids
        .iter()
        .enumerate()
        .map(|(i, g)| blank_out(g, 60, i as u64 + 5))
        .collect();
    let dig = |p: &[u8], blank| encode(p, "123456789", blank);
    // Kaggle 1M: quizzes,solutions with 0 blanks; solutions column empty here.
    let rows: Vec<String> = puzzles
        .iter()
        .map(|p| format!("{},", dig(p, '0')))
        .collect();
    let t = csv_case("quizzes,solutions", &rows, &[]);
    assert_eq!(t[0], ["quizzes", "solutions"]);
    for (p, row) in puzzles.iter().zip(&t[1..]) {
        assert_eq!(row[0], dig(p, '0'), "puzzle column untouched");
        assert_valid(3, p, &cells(&row[1], "", "123456789"));
    }
    // Kaggle 3M: id,puzzle,solution,clues,difficulty with `.` blanks.
    let rows: Vec<String> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{i},{},,{},{}.5",
                dig(p, '.'),
                p.iter().filter(|&&v| v > 0).count(),
                i
            )
        })
        .collect();
    let t = csv_case("id,puzzle,solution,clues,difficulty", &rows, &["-j", "2"]);
    for (i, (p, row)) in puzzles.iter().zip(&t[1..]).enumerate() {
        assert_eq!(row[0], i.to_string());
        assert_eq!(row[4], format!("{i}.5"));
        assert_valid(3, p, &cells(&row[2], "", "123456789"));
    }
    // sudoku-extreme: source,question,answer,rating; answer column replaced.
    let rows: Vec<String> = puzzles
        .iter()
        .map(|p| format!("hrm,{},,3", dig(p, '.')))
        .collect();
    let t = csv_case("source,question,answer,rating", &rows, &[]);
    for (p, row) in puzzles.iter().zip(&t[1..]) {
        assert_eq!((row[0].as_str(), row[3].as_str()), ("hrm", "3"));
        assert_valid(3, p, &cells(&row[2], "", "123456789"));
    }
    // Any other CSV: --column names the puzzle; `solution` is appended.
    let rows: Vec<String> = puzzles
        .iter()
        .map(|p| format!("\"a, b\",{}", dig(p, '.')))
        .collect();
    let o = sb(["solve"])
        .stdin(format!("note,grid\n{}\n", rows.join("\n")).as_bytes())
        .code(2);
    assert!(o.stderr().contains("--column"), "{}", o.stderr());
    let t = csv_case("note,grid", &rows, &["--column", "grid"]);
    assert_eq!(t[0], ["note", "grid", "solution"]);
    for (p, row) in puzzles.iter().zip(&t[1..]) {
        assert_eq!(row[0], "a, b");
        assert_valid(3, p, &cells(&row[2], "", "123456789"));
    }
}

#[test]
fn bad_records_in_grids_and_csv_name_their_line() {
    let good = encode(&blank_out(&full_grid(3, 9), 50, 9), "123456789", '0');
    let rows: Vec<&str> = (0..9).map(|r| &good[r * 9..r * 9 + 9]).collect();
    let mut bad = rows.clone();
    bad[3] = "12345678";
    let input = format!("2\n{}\n{}\n", rows.join("\n"), bad.join("\n"));
    let o = sb(["solve"]).stdin(input.as_bytes()).code(1);
    assert!(
        o.stderr()
            .contains("<stdin>:11 (row 2): row 4: expected 9 cells, found 8"),
        "{}",
        o.stderr()
    );
    let out = o.stdout();
    assert!(
        out.ends_with("\n\nerror: row 4: expected 9 cells, found 8\n"),
        "{out}"
    );
    let input = format!("id,puzzle,solution\n1,{good},\n2,{},\n", &good[..80]);
    let o = sb(["solve"]).stdin(input.as_bytes()).code(1);
    assert!(
        o.stderr()
            .contains("<stdin>:3 (row 2): expected 81 cells, found 80"),
        "{}",
        o.stderr()
    );
    assert!(o
        .stdout()
        .ends_with(",error: expected 81 cells, found 80\n"));
}

#[test]
fn unknown_layout_is_a_clear_error() {
    let o = sb(["solve"]).stdin(b"# notes\nhello world\n").code(2);
    let err = o.stderr();
    assert!(err.contains("<stdin>:2: cannot tell the layout"), "{err}");
    assert!(err.contains("--format"));
}

#[test]
fn csv_quoted_newlines_survive_every_chunking() {
    let puzzles: Vec<Vec<u8>> = (30..36)
        .map(|s| blank_out(&full_grid(3, s), 55, s))
        .collect();
    let mut input = String::from("id,puzzle,note\n");
    for (i, p) in puzzles.iter().enumerate() {
        input.push_str(&format!(
            "{i},{},\"line one\nline \"\"two\"\"\"\n",
            encode(p, "123456789", '.')
        ));
    }
    let reference = solve_ok(&["-j", "1"], &input);
    let mut r = csv::Reader::from_reader(reference.as_bytes());
    assert_eq!(
        r.headers().unwrap(),
        vec!["id", "puzzle", "note", "solution"]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), puzzles.len());
    for (p, row) in puzzles.iter().zip(&rows) {
        assert_eq!(&row[2], "line one\nline \"two\"");
        assert_valid(3, p, &cells(&row[3], "", "123456789"));
    }
    let (_dir, path) = temp_file("q.csv", input.as_bytes());
    for chunk in ["1", "50", "100000"] {
        for j in ["1", "2"] {
            let o = sb(["solve", "-j", j, "--chunk-size", chunk])
                .arg(&path)
                .output();
            assert_eq!(o.stdout(), reference, "chunk {chunk} -j {j}");
            let o = sb(["solve", "-j", j, "--chunk-size", chunk])
                .stdin(input.as_bytes())
                .output();
            assert_eq!(o.stdout(), reference, "stdin chunk {chunk} -j {j}");
        }
    }
}

/// Three puzzles of box size `b` (valid by construction) and their text.
fn three(b: usize, seed: u64) -> Vec<Vec<u8>> {
    (0..3)
        .map(|k| blank_out(&full_grid(b, seed + k), 55, seed + k))
        .collect()
}

/// Solves `input` without flags (and with `-j 2` and tiny chunks: same
/// bytes) and returns the output.
fn solve_both(input: &str) -> String {
    let out = solve_ok(&["-j", "1"], input);
    let again = solve_ok(&["-j", "2", "--chunk-size", "5"], input);
    assert_eq!(out, again, "threads and chunking change nothing");
    out
}

/// qqwing's default readable grid, as qqwing prints it: ` . 3 . | 6 4 . |
/// ...` rows, `-------|-------|-------` rules, an empty line after each
/// puzzle. Answers keep every separator.
fn qqwing_readable(p: &[u8]) -> String {
    let mut s = String::new();
    for (r, row) in p.chunks(9).enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if c > 0 && c % 3 == 0 {
                s.push_str(" |");
            }
            s.push(' ');
            s.push(if v == 0 { '.' } else { (b'0' + v) as char });
        }
        s.push('\n');
        if r == 2 || r == 5 {
            s.push_str("-------|-------|-------\n");
        }
    }
    s
}

/// Simple Sudoku `.ss`: `|` between boxes and `-----------` rules, or the
/// bordered variant with `*-----------*` and `|---+---+---|`.
fn simple_sudoku(p: &[u8], bordered: bool, bar: char) -> String {
    let mut s = String::new();
    if bordered {
        s.push_str("*-----------*\n");
    }
    for (r, row) in p.chunks(9).enumerate() {
        let t = encode(row, "123456789", '.');
        let body = format!("{}{bar}{}{bar}{}", &t[..3], &t[3..6], &t[6..]);
        if bordered {
            s.push_str(&format!("{bar}{body}{bar}\n"));
        } else {
            s.push_str(&format!("{body}\n"));
        }
        if r == 2 || r == 5 {
            s.push_str(if bordered {
                "|---+---+---|\n"
            } else {
                "-----------\n"
            });
        }
    }
    if bordered {
        s.push_str("*-----------*\n");
    }
    s
}

/// The cells of a boxed answer, and its text with every digit blanked (to
/// compare the decoration with the input's).
fn boxed_answer(text: &str) -> (Vec<u8>, String) {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let skeleton: String = text
        .chars()
        .map(|c| if c.is_ascii_digit() { '.' } else { c })
        .collect();
    (cells(&digits, "", "123456789"), skeleton)
}

#[test]
fn qqwing_readable_and_compact_grids() {
    let ps = three(3, 40);
    let input: String = ps.iter().map(|p| qqwing_readable(p) + "\n").collect();
    let out = solve_both(&input);
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers.len(), 3);
    for (p, a) in ps.iter().zip(answers) {
        let a = a.trim_end_matches('\n');
        let (cells, skeleton) = boxed_answer(a);
        assert_valid(3, p, &cells);
        // The layout is kept: same separators, same rule lines.
        let blank: String = qqwing_readable(&[0; 81]);
        assert_eq!(skeleton + "\n", blank);
    }
    // --compact: 9 lines of 9 with `.`, an empty line after each puzzle.
    let input: String = ps
        .iter()
        .map(|p| {
            p.chunks(9)
                .map(|r| encode(r, "123456789", '.') + "\n")
                .collect::<String>()
                + "\n"
        })
        .collect();
    let out = solve_both(&input);
    for (p, b) in ps.iter().zip(blocks(&out, 9)) {
        assert_valid(3, p, &cells(&b.concat(), "", "123456789"));
    }
}

#[test]
fn simple_sudoku_ss_grids() {
    let ps = three(3, 50);
    for (bordered, bar) in [(false, '|'), (true, '|'), (false, '!')] {
        let input: String = ps.iter().map(|p| simple_sudoku(p, bordered, bar)).collect();
        let out = solve_both(&input);
        let answers: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(answers.len(), 3, "{out}");
        for (p, a) in ps.iter().zip(answers) {
            let (cells, skeleton) = boxed_answer(a.trim_end_matches('\n'));
            assert_valid(3, p, &cells);
            assert_eq!(skeleton + "\n", simple_sudoku(&[0; 81], bordered, bar));
        }
    }
}

#[test]
fn numbers_on_one_line_like_numpy_savetxt() {
    for (b, sep) in [(3, " "), (3, ","), (3, "\t"), (4, " "), (5, " ")] {
        let ps = three(b, 60 + b as u64);
        let input: String = ps
            .iter()
            .map(|p| {
                p.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(sep)
                    + "\n"
            })
            .collect();
        let out = solve_both(&input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        for (p, l) in ps.iter().zip(lines) {
            let a: Vec<u8> = l.split(sep).map(|t| t.parse().unwrap()).collect();
            assert_valid(b, p, &a);
        }
    }
}

#[test]
fn headerless_csv_tsv_and_tdoku_lines() {
    let ps = three(3, 70);
    let d = |p: &[u8]| encode(p, "123456789", '.');
    // (rows, separator between puzzle and answer in the output, answer field)
    let cases: Vec<(Vec<String>, &str)> = vec![
        (ps.iter().map(|p| d(p)).collect(), ""), // plain lines, for reference
        (ps.iter().map(|p| format!("{},", d(p))).collect(), ","),
        // (A lone trailing tab is whitespace after a one-line puzzle.)
        (ps.iter().map(|p| format!("{}\t7", d(p))).collect(), "\t7\t"),
        (
            ps.iter().map(|p| format!("{},3.5", d(p))).collect(),
            ",3.5,",
        ),
        (ps.iter().map(|p| format!("{}::", d(p))).collect(), "::"),
        (ps.iter().map(|p| format!("{}:1:", d(p))).collect(), ":1:"),
    ];
    for (rows, sep) in cases {
        let input = rows.join("\n") + "\n";
        let out = solve_both(&input);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{input}");
        for (p, l) in ps.iter().zip(lines) {
            let answer = if sep.is_empty() {
                l
            } else {
                let (head, a) = l.split_once(sep).unwrap_or_else(|| panic!("{l}"));
                assert_eq!(head, d(p), "puzzle field kept");
                a
            };
            assert_valid(3, p, &cells(answer, "", "123456789"));
        }
    }
}

#[test]
fn tsv_with_a_header() {
    let ps = three(3, 80);
    let input: String = std::iter::once("id\tquizzes\tsolutions\n".to_string())
        .chain(
            ps.iter()
                .enumerate()
                .map(|(i, p)| format!("{i}\t{}\t\n", encode(p, "123456789", '0'))),
        )
        .collect();
    let out = solve_both(&input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "id\tquizzes\tsolutions");
    for (i, (p, l)) in ps.iter().zip(&lines[1..]).enumerate() {
        let f: Vec<&str> = l.split('\t').collect();
        assert_eq!(f[0], i.to_string());
        assert_valid(3, p, &cells(f[2], "", "123456789"));
    }
}

#[test]
fn check_reads_csv_answers_as_solve_wrote_them() {
    let ps = three(3, 90);
    let d = |p: &[u8]| encode(p, "123456789", '.');
    for (name, header, row) in [
        ("kaggle", "id,puzzle,solution,clues\n", "{i},{p},,30"),
        ("appended", "id,puzzle\n", "{i},{p}"),
        (
            "ragged",
            "id,puzzle,solution,clues,extra,more\n",
            "{i},{p},,30",
        ),
        ("headerless", "", "{p},"),
        ("tdoku", "", "{p}::"),
    ] {
        let input: String = header.to_string()
            + &ps
                .iter()
                .enumerate()
                .map(|(i, p)| row.replace("{i}", &i.to_string()).replace("{p}", &d(p)) + "\n")
                .collect::<String>();
        let (dir, puzzles) = temp_file("p.csv", input.as_bytes());
        let answers = dir.path().join("a.csv");
        solve_to(&puzzles, &answers).note(name).ok();
        let o = sb(["check"]).arg(&puzzles).arg(&answers).note(name).ok();
        assert!(
            o.stdout().contains("3 records checked, 3 good, 0 bad"),
            "{name}: {}",
            o.stdout()
        );
    }
}

/// A bare CR past the head (where detection looks for one) inside a CSV
/// row: the row is a bad record named so, wherever the CR is, instead of
/// the second row's puzzle being dropped without a word (before, a CR in
/// the `id` field beside the puzzle lost the next row, exit 0).
#[test]
fn a_bare_cr_past_the_head_of_a_csv_is_a_bad_row() {
    let p = encode(&blank_out(&full_grid(3, 21), 55, 21), "123456789", '.');
    let q = encode(&blank_out(&full_grid(3, 22), 55, 22), "123456789", '.');
    let rows = 14_000; // past the first MiB
    let mut input = String::from("puzzle,id\n");
    for i in 0..rows {
        input.push_str(&format!("{p},{i}\n"));
    }
    input.push_str(&format!("{q},x\r{p},y\n{q},z\r\n"));
    assert!(input.len() > 1 << 20);
    let o = sb(["solve", "-j", "2"]).stdin(input.as_bytes()).code(1);
    let line = rows + 2;
    let want = format!(
        "<stdin>:{line} (row {}): a line break at character 84",
        line - 1
    );
    assert!(o.stderr().contains(&want), "{}", o.stderr());
    // One output line per input line (the bad one kept as it was, CR and
    // all, with the reason after it), then the rows after it answered.
    let out = o.stdout();
    let got: Vec<Vec<&str>> = out.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(got.len(), rows + 3);
    assert_eq!(got[0], ["puzzle", "id", "solution"]);
    let grid = |s: &str| cells(s, ".", "123456789");
    for (i, row) in got[1..=rows].iter().enumerate() {
        assert_eq!(row[1], i.to_string());
        assert_valid(3, &grid(&p), &cells(row[2], "", "123456789"));
    }
    let bad = format!("{q},x\r{p},y,error: a line break at character 84");
    assert!(
        got[rows + 1].join(",").starts_with(&bad),
        "{:?}",
        got[rows + 1]
    );
    assert_eq!(got[rows + 2][1], "z");
    assert_valid(
        3,
        &grid(&q),
        &cells(got[rows + 2][2].trim_end(), "", "123456789"),
    );
}

/// A quote inside an unquoted field (`5" tall`) is a character, as RFC 4180
/// and the csv crate read it; counting it as an opening quote joined the
/// rows after it into this record and lost them (4 rows in, 2 out, exit 0).
/// And a bare CR inside a quoted field is part of its value, in the head
/// where detection looks as well as past it.
#[test]
fn quotes_inside_unquoted_fields_and_crs_inside_quoted_ones_keep_every_row() {
    let puzzles: Vec<String> = (40..44)
        .map(|s| encode(&blank_out(&full_grid(3, s), 55, s), "123456789", '.'))
        .collect();
    let notes = ["5\" tall", "ok", "x\"y", "first\rsecond"];
    for delim in [",", "\t"] {
        let mut input = ["id", "puzzle", "solution", "note"].join(delim) + "\n";
        for (i, (p, note)) in puzzles.iter().zip(notes).enumerate() {
            let note = if note.contains('\r') {
                format!("\"{note}\"")
            } else {
                note.to_string()
            };
            input += &[i.to_string().as_str(), p, "", &note].join(delim);
            input.push('\n');
        }
        let o = sb(["solve", "-j", "2"]).stdin(input.as_bytes()).ok();
        let out = o.stdout();
        let mut r = csv::ReaderBuilder::new()
            .delimiter(delim.as_bytes()[0])
            .from_reader(out.as_bytes());
        let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
        assert_eq!(rows.len(), puzzles.len(), "{out}");
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(&row[0], i.to_string());
            assert_eq!(&row[3], notes[i], "the note comes back as it was");
            let p = cells(&puzzles[i], ".", "123456789");
            assert_valid(3, &p, &cells(&row[2], "", "123456789"));
        }
    }
}

/// CSV rows whose first field starts with `#` (ids such as `#1`) are rows,
/// not comments: they were dropped without a word (3 rows in, 1 out, exit
/// 0), and `check` passed a file of wrong labels with 0 records checked.
/// A `#` line without the puzzle column is still a comment.
#[test]
fn csv_rows_whose_id_starts_with_a_hash_are_rows() {
    let p = encode(&blank_out(&full_grid(3, 50), 55, 50), "123456789", '.');
    let input = format!("id,puzzle,solution\n# made by hand\n#1,{p},\n#2,{p},\n3,{p},\n");
    let o = sb(["solve"]).stdin(input.as_bytes()).ok();
    let out = o.stdout();
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(
        rows.iter().map(|r| r[0]).collect::<Vec<_>>(),
        ["#1", "#2", "3"]
    );
    for row in &rows {
        assert_valid(
            3,
            &cells(&p, ".", "123456789"),
            &cells(row[2], "", "123456789"),
        );
    }
    let wrong = "1".repeat(81);
    let input = format!("id,puzzle,solution\n#1,{p},{wrong}\n#2,{p},{wrong}\n");
    let o = sb(["check", "-"]).stdin(input.as_bytes()).code(1);
    let said = o.stdout() + &o.stderr();
    assert!(said.contains("2 records checked, 0 good, 2 bad"), "{said}");
}

/// Delimited rows keep the input's own text: its UTF-8 BOM, its CRLF line
/// ends (header and every row, bad ones included), and its delimiter: an
/// output named for the other delimiter is refused before any file exists
/// (a `.tsv` of commas was written before).
#[test]
fn csv_rows_keep_the_bom_crlf_and_delimiter_of_the_input() {
    let p = encode(&blank_out(&full_grid(3, 31), 50, 31), "123456789", '.');
    let q = encode(&blank_out(&full_grid(3, 32), 50, 32), "123456789", '.');
    let input = format!("\u{feff}id,puzzle\r\n1,{p}\r\n2,{}\r\n3,{q}\r\n", &q[..80]);
    let (dir, path) = temp_file("bom.csv", input.as_bytes());
    for args in [
        vec!["solve"],
        vec!["solve", "-j", "2", "--chunk-size", "4096"],
    ] {
        let o = sb(&args).stdin(input.as_bytes()).code(1);
        let out = o.stdout.clone();
        assert!(
            out.starts_with(b"\xEF\xBB\xBFid,puzzle,solution\r\n"),
            "{out:?}"
        );
        let text = String::from_utf8(out[3..].to_vec()).unwrap();
        assert!(text.ends_with("\r\n"));
        let rows: Vec<&str> = text.split_terminator("\r\n").collect();
        assert_eq!(rows.len(), 4, "{text:?}");
        assert!(rows.iter().all(|r| !r.contains('\n')), "{text:?}");
        for (row, puzzle) in [(rows[1], &p), (rows[3], &q)] {
            let f: Vec<&str> = row.split(',').collect();
            assert_eq!(f[1], puzzle.as_str());
            let grid = cells(puzzle, ".", "123456789");
            assert_valid(3, &grid, &cells(f[2], "", "123456789"));
        }
        assert!(rows[2].starts_with("2,"), "{}", rows[2]);
        assert!(rows[2].contains(",error: expected 81 cells"), "{}", rows[2]);
    }
    // The delimiter follows the input, so a name for the other is refused.
    let tsv = input.replace(',', "\t");
    let (_d2, tpath) = temp_file("in.tsv", tsv.as_bytes());
    for (inp, name) in [(&path, "out.tsv"), (&tpath, "out.csv")] {
        let out = dir.path().join(name);
        let o = solve_to(inp, &out).note(name).code(2);
        assert!(
            o.stderr().contains("the input's own delimiter"),
            "{}",
            o.stderr()
        );
        assert!(!out.exists(), "{name} was written");
    }
    // Named for its own delimiter, a TSV keeps tabs, BOM and CRLF.
    let out = dir.path().join("out.tsv");
    solve_to(&tpath, &out).code(1);
    let written = std::fs::read(&out).unwrap();
    assert!(written.starts_with(b"\xEF\xBB\xBFid\tpuzzle\tsolution\r\n"));
}
