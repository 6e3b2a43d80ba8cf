//! Every layout `solve` recognises without flags, answered in the same
//! layout; ambiguous and unknown files give a clear error.

use crate::util::*;

fn solve_ok(args: &[&str], input: &str) -> String {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    let o = run(&all, input.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
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
    let o = run(&["solve"], format!("{unclear}\n").as_bytes());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("<stdin>:1: 16x16 cells written in hex digits"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--format hex0"));
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
    let o = run(
        &["solve"],
        format!("note,grid\n{}\n", rows.join("\n")).as_bytes(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--column"), "{}", stderr(&o));
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
    let o = run(&["solve"], input.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("<stdin>:11: row 4: expected 9 cells, found 8"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(
        out.ends_with("\n\nerror: row 4: expected 9 cells, found 8\n"),
        "{out}"
    );
    let input = format!("id,puzzle,solution\n1,{good},\n2,{},\n", &good[..80]);
    let o = run(&["solve"], input.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("<stdin>:3: expected 81 cells, found 80"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).ends_with(",error: expected 81 cells, found 80\n"));
}

#[test]
fn unknown_layout_is_a_clear_error() {
    let o = run(&["solve"], b"# notes\nhello world\n");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
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
            let o = run(
                &[
                    "solve",
                    "-j",
                    j,
                    "--chunk-size",
                    chunk,
                    path.to_str().unwrap(),
                ],
                b"",
            );
            assert_eq!(stdout(&o), reference, "chunk {chunk} -j {j}");
            let o = run(&["solve", "-j", j, "--chunk-size", chunk], input.as_bytes());
            assert_eq!(stdout(&o), reference, "stdin chunk {chunk} -j {j}");
        }
    }
}
