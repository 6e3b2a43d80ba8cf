//! Detection decides from many records: a bad first record is one bad
//! record, not the layout of the file; inputs that are not puzzle text say
//! what they are; bad tokens are quoted short.

use crate::util::*;

/// `n` distinct valid 9x9 puzzles, one per line.
fn puzzles(n: usize) -> Vec<Vec<u8>> {
    (0..n as u64)
        .map(|s| blank_out(&full_grid(3, s + 100), 60, s + 7))
        .collect()
}

fn lines_of(ps: &[Vec<u8>]) -> String {
    ps.iter()
        .map(|p| encode(p, "123456789", '.') + "\n")
        .collect()
}

/// First line `first`, then 1000 good puzzles: one bad record (line 1),
/// 1000 valid answers, each on the line of its puzzle.
fn bad_first_then_good(first: &str, args: &[&str]) {
    let ps = puzzles(1000);
    let input = format!("{first}\n{}", lines_of(&ps));
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    let o = sb(&all)
        .stdin(input.as_bytes())
        .note(format!("{first:?}"))
        .code(1);
    let err = o.stderr();
    assert!(err.contains("<stdin>:1: "), "{err}");
    assert!(err.contains("1001 records, 1000 solved, 1 bad"), "{err}");
    let out = o.stdout();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1001);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    for (p, a) in ps.iter().zip(&lines[1..]) {
        assert_valid(3, p, &cells(a, "", "123456789"));
    }
}

#[test]
fn a_short_number_first_is_a_bad_record_not_a_count_line() {
    for first in ["12345", "0", "123456789"] {
        bad_first_then_good(first, &[]);
    }
    bad_first_then_good("12345", &["--format", "line"]);
    bad_first_then_good("12345", &["--on-error", "mark", "-j", "2"]);
    // --on-error fail stops at it instead of dropping it.
    let input = format!("12345\n{}", lines_of(&puzzles(3)));
    let o = sb(["solve", "--on-error", "fail"])
        .stdin(input.as_bytes())
        .code(1);
    assert!(o.stderr().contains("<stdin>:1: expected 81 cells, found 5"));
}

#[test]
fn a_grid_row_sized_first_line_does_not_pick_a_grid_layout() {
    bad_first_then_good("12345678x", &[]);
    bad_first_then_good("ABCDEFGHIJKLMNOP", &[]);
    bad_first_then_good(&".".repeat(80), &[]);
}

#[test]
fn a_count_line_counts_only_before_grids_and_only_when_it_matches() {
    let ps = puzzles(2);
    let grid: String = ps
        .iter()
        .map(|p| {
            p.chunks(9)
                .map(|r| encode(r, "123456789", '0') + "\n")
                .collect::<String>()
                + "\n"
        })
        .collect();
    // A run that answered both grids, each checked on its own.
    let answered_both = |o: &std::process::Output| {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
        let out = stdout(o);
        let blocks: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(blocks.len(), 2);
        for (p, b) in ps.iter().zip(blocks) {
            assert_valid(3, p, &cells(&b.replace('\n', ""), "", "123456789"));
        }
    };
    let o = sb(["solve"])
        .stdin(format!("2\n{grid}").as_bytes())
        .output();
    answered_both(&o);
    let o = sb(["solve"]).stdin(format!("3\n{grid}").as_bytes()).code(2);
    assert!(
        o.stderr()
            .contains("<stdin>:1: the count line says 3 puzzles but 2 follow"),
        "{}",
        o.stderr()
    );
    // A stream longer than the head detection reads (1 MiB): the count is
    // checked at the end, and `-o` leaves no file behind. A file of the
    // same bytes is refused up front.
    let many = grid.repeat(6000);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a.txt");
    let o_path = out.to_str().unwrap();
    for (said, ok) in [(12000, true), (11000, false), (13000, false)] {
        let input = format!("{said}\n{many}");
        let o = sb(["solve", "-o", o_path]).stdin(input.as_bytes()).output();
        let err = o.stderr();
        if ok {
            assert_eq!(o.status.code(), Some(0), "{err}");
            let answers = std::fs::read_to_string(&out).unwrap();
            assert_eq!(answers.split("\n\n").count(), 12000);
            std::fs::remove_file(&out).unwrap();
        } else {
            assert_eq!(o.status.code(), Some(2), "{said}: {err}");
            // Too small a count shows in the head already ("at least"),
            // too large one only at the end.
            let want = format!("<stdin>:1: the count line says {said} puzzles but ");
            assert!(err.contains(&want), "{err}");
            assert!(said < 12000 || err.contains("but 12000 follow"), "{err}");
            assert!(!out.exists(), "{said}");
            let (_d, path) = temp_file("g.txt", input.as_bytes());
            let o = sb(["solve"])
                .arg(&path)
                .args(["-o", o_path])
                .note(said)
                .code(2);
            assert!(o.stderr().contains("the count line says"), "{}", o.stderr());
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
    // The writer sends the count line, pauses, then the grids (`(echo N;
    // cat grids) | sudoku-bulk solve` when cat starts late): the layout is
    // told from the lines after the pause, not refused from the count line
    // alone.
    let o = run_paused(&["solve"], b"2\n", grid.as_bytes());
    answered_both(&o);
}

#[test]
fn non_text_inputs_say_what_they_are() {
    let text = lines_of(&puzzles(3));
    let mut utf16 = vec![0xFF, 0xFE];
    for b in text.bytes() {
        utf16.extend_from_slice(&[b, 0]);
    }
    let o = sb(["solve"]).stdin(&utf16).code(2);
    assert!(
        o.stderr()
            .contains("<stdin>: UTF-16 text: convert it to UTF-8"),
        "{}",
        o.stderr()
    );
    // Without a byte order mark too, and for `check`.
    let (_dir, path) = temp_file("u16.txt", &utf16[2..]);
    let o = sb(["check"]).arg(&path).arg(&path).code(2);
    assert!(o.stderr().contains("UTF-16 text"), "{}", o.stderr());
    let binary: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
    let o = sb(["solve"]).stdin(&binary).code(2);
    let err = o.stderr();
    assert!(err.contains("<stdin>: binary data, not text"), "{err}");
    assert!(err.len() < 200, "raw bytes are not echoed: {err}");
    assert!(!o.stderr.contains(&0), "no raw NUL on stderr");
}

#[test]
fn mixed_grid_sizes_are_named() {
    let mut input = lines_of(&puzzles(5));
    for s in 0..3 {
        input.push_str(&encode(&blank_out(&full_grid(4, s), 50, s), LETTERS, '-'));
        input.push('\n');
    }
    let o = sb(["solve"]).stdin(input.as_bytes()).code(2);
    let err = o.stderr();
    assert!(err.contains("mixed grid sizes"), "{err}");
    assert!(err.contains("9x9") && err.contains("16x16"), "{err}");
}

#[test]
fn bad_tokens_are_quoted_short_in_stderr_and_output() {
    let ps = puzzles(2);
    let huge = "7".repeat(100_000);
    let mut row: Vec<String> = ps[0].iter().map(|v| v.to_string()).collect();
    row[5] = huge.clone();
    let input = format!(
        "{}\n{}\n",
        row.join(" "),
        ps[1]
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let o = sb(["solve"]).stdin(input.as_bytes()).code(1);
    let err = o.stderr();
    assert!(
        err.contains("<stdin>:1: cell 6: invalid number \"77777"),
        "{err}"
    );
    assert!(err.contains("(100000 bytes)"), "{err}");
    assert!(err.len() < 400, "{} bytes of stderr", err.len());
    let out = o.stdout();
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("error: cell 6") && first.len() < 150,
        "{first}"
    );
    // An unknown layout quotes at most 40 characters of its first line.
    let o = sb(["solve"])
        .stdin(format!("{}\n", "x".repeat(10_000)).as_bytes())
        .code(2);
    assert!(o.stderr().len() < 600, "{}", o.stderr());
}

#[test]
fn an_unterminated_quote_is_one_bad_row_not_the_rest_of_the_file() {
    let ps = puzzles(4);
    let mut input = String::from("id,puzzle,note\n");
    for (i, p) in ps.iter().enumerate() {
        let note = if i == 1 { "\"open" } else { "ok" };
        input.push_str(&format!("{i},{},{note}\n", encode(p, "123456789", '.')));
    }
    for args in [&["-j", "1"][..], &["-j", "2", "--chunk-size", "1"]] {
        let mut all = vec!["solve"];
        all.extend_from_slice(args);
        let o = sb(&all).stdin(input.as_bytes()).code(1);
        let err = o.stderr();
        assert!(
            err.contains("<stdin>:3 (row 2): quoted field runs on from this line"),
            "{err}"
        );
        assert!(err.contains("4 records, 3 solved, 1 bad"), "{err}");
        let out = o.stdout();
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(rows.len(), 5);
        assert!(rows[2].starts_with("error: quoted field runs on"));
        for (i, p) in ps.iter().enumerate().filter(|(i, _)| *i != 1) {
            let f: Vec<&str> = rows[i + 1].split(',').collect();
            assert_valid(3, p, &cells(f[3], "", "123456789"));
        }
    }
}

#[test]
fn keep_lines_gives_one_output_line_per_input_line() {
    let ps = puzzles(3);
    let p: Vec<String> = ps.iter().map(|p| encode(p, "123456789", '.')).collect();
    let input = format!("# head\n{}\n\n{}\nend\n  \n{}\n", p[0], &p[1][..80], p[2]);
    for j in ["1", "2"] {
        let o = sb(["solve", "--keep-lines", "-j", j, "--chunk-size", "7"])
            .stdin(input.as_bytes())
            .code(1);
        let out = o.stdout();
        let got: Vec<&str> = out.lines().collect();
        let inp: Vec<&str> = input.lines().collect();
        assert_eq!(got.len(), inp.len());
        assert_eq!(got[0], "# head");
        assert_valid(3, &ps[0], &cells(got[1], "", "123456789"));
        assert_eq!(got[2], "");
        assert!(got[3].starts_with("error: expected 81 cells"));
        assert_eq!(got[4], "end");
        assert_eq!(got[5], "  ");
        assert_valid(3, &ps[2], &cells(got[6], "", "123456789"));
    }
    // Without it: only records get lines, and `end` ends the input.
    let o = sb(["solve"]).stdin(input.as_bytes()).output();
    assert_eq!(o.stdout().lines().count(), 2);
    // Other layouts refuse the flag.
    sb(["solve", "--keep-lines"]).stdin(b"puzzle\n.\n").code(2);
}
