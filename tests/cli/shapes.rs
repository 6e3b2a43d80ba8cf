//! One numbering and one shape whatever the route: every message and report
//! names a record by its row (1-based among the records, a header and
//! comments not counted) and, for text, the file line when it differs;
//! `count` adds a column to CSV/TSV rows as it does to tables; `-h` is one
//! line an item, `--help` the whole text.

use crate::util::*;

const P: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// A disguise of `P`: transposed, digits relabelled.
const Q: &str = "6......59.7.8.............6..3...48.....29.........7..2...6.......4..3..5........";

#[test]
fn bad_records_are_named_by_line_and_row_in_every_command() {
    // Header on line 1, a bad row on line 3 = data row 2.
    let csv = format!("quizzes,solutions\n{P},\nxx,\n{P},\n");
    let (_d, path) = temp_file("in.csv", csv.as_bytes());
    for cmd in ["solve", "count", "canon", "rate"] {
        let ran = sb([cmd]).arg(&path).args(["-o", "/dev/null"]).code(1);
        assert!(
            ran.stderr()
                .contains("in.csv:3 (row 2): expected 81 cells, found 2"),
            "{cmd}: {}",
            ran.stderr()
        );
    }
    let ran = sb(["dedupe"]).arg(&path).args(["-o", "/dev/null"]).code(1);
    assert!(
        ran.stderr().contains("in.csv:3 (row 2): "),
        "{}",
        ran.stderr()
    );
    // `--on-error fail` names it the same way.
    let ran = sb(["solve", "--on-error", "fail"])
        .arg(&path)
        .args(["-o", "/dev/null"])
        .code(1);
    assert!(
        ran.stderr().contains("in.csv:3 (row 2): "),
        "{}",
        ran.stderr()
    );
    // Comments before a record of plain text: line 4 is row 2.
    let txt = format!("# a comment\n{P}\n# another\nxx\n{P}\n");
    let (_d, path) = temp_file("in.txt", txt.as_bytes());
    let ran = sb(["solve"]).arg(&path).args(["-o", "/dev/null"]).code(1);
    assert!(
        ran.stderr().contains("in.txt:4 (row 2): "),
        "{}",
        ran.stderr()
    );
    // Without a header or comment the two agree, and only one is shown.
    let (_d, path) = temp_file("plain.txt", format!("{P}\nxx\n").as_bytes());
    let ran = sb(["count"]).arg(&path).code(1);
    assert!(
        ran.stderr().contains("plain.txt:2: expected 81"),
        "{}",
        ran.stderr()
    );
}

#[test]
fn check_numbers_rows_past_the_header() {
    let grid = sb(["solve", "-q"]).stdin(format!("{P}\n")).ok().stdout();
    let answer = grid.trim();
    let mut wrong = answer.as_bytes().to_vec();
    wrong.swap(1, 2);
    let wrong = String::from_utf8(wrong).unwrap();
    let csv = format!("quizzes,solutions\n{P},{answer}\n{P},{wrong}\n");
    let (_d, path) = temp_file("set.csv", csv.as_bytes());
    let ran = sb(["check"]).arg(&path).code(1);
    assert!(
        ran.stdout().contains("set.csv:3 (row 2): "),
        "{}",
        ran.stdout()
    );
}

#[test]
fn dedupe_and_overlap_reports_list_rows_not_lines() {
    // Two comment lines, P, a third, a bad record: P's disguise Q is row 3
    // (line 6), dropped for row 1 (line 3).
    let text = format!("# one\n# two\n{P}\n# three\nxx\n{Q}\n");
    let (d, path) = temp_file("set.txt", text.as_bytes());
    let report = d.path().join("dropped.csv");
    sb(["dedupe", "-q"])
        .arg(&path)
        .args(["-o", "/dev/null", "--report"])
        .arg(&report)
        .code(1);
    assert_eq!(
        std::fs::read_to_string(&report).unwrap(),
        "dropped_row,first_row\n3,1\n"
    );
    let (_t, train) = temp_file("train.txt", format!("{Q}\n").as_bytes());
    let leaks = d.path().join("leaks.csv");
    let test = d.path().join("test.txt");
    std::fs::write(&test, format!("# head\n{P}\n{P}\n")).unwrap();
    sb(["overlap", "-q"])
        .arg(&train)
        .arg(&test)
        .arg("--report")
        .arg(&leaks)
        .code(1);
    assert_eq!(
        std::fs::read_to_string(&leaks).unwrap(),
        "test_row,train_row,match\n1,1,isomorph\n2,1,isomorph\n"
    );
}

/// The counts of `P` (unique) and of an empty grid (2+), checked against
/// the rows they came from.
#[test]
fn count_adds_a_column_to_delimited_rows_as_to_tables() {
    let empty = ".".repeat(81);
    let csv = format!("id,puzzle\r\n1,{P}\r\n2,{empty}\r\n3,\"x,y\"\r\n");
    let (d, path) = temp_file("in.csv", csv.as_bytes());
    let out = d.path().join("counts.csv");
    let ran = sb(["count", "-q"]).arg(&path).arg("-o").arg(&out).code(1);
    assert!(
        ran.stderr().contains("in.csv:4 (row 3): "),
        "{}",
        ran.stderr()
    );
    // Every row kept, CRLF kept, the count one more column.
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        format!(
            "id,puzzle,solutions\r\n1,{P},1\r\n2,{empty},2+\r\n3,\"x,y\",\"error: expected 81 cells, found 3\"\r\n"
        )
    );
    // A Kaggle set has a `solutions` column already: `solution_count`, as a
    // table gets it.
    let kaggle = format!("quizzes,solutions\n{P},\n");
    let (_k, kpath) = temp_file("k.csv", kaggle.as_bytes());
    let got = sb(["count", "-q"]).arg(&kpath).ok().stdout();
    assert_eq!(got, format!("quizzes,solutions,solution_count\n{P},,1\n"));
    // TSV keeps its tabs; a .csv name for tab rows is refused.
    let (_t, tpath) = temp_file("in.tsv", format!("id\tpuzzle\n7\t{P}\n").as_bytes());
    let got = sb(["count", "-q"]).arg(&tpath).ok().stdout();
    assert_eq!(got, format!("id\tpuzzle\tsolutions\n7\t{P}\t1\n"));
    let ran = sb(["count"])
        .arg(&tpath)
        .arg("-o")
        .arg(d.path().join("x.csv"))
        .code(2);
    assert!(ran.stderr().contains("the counts of"), "{}", ran.stderr());
    // Text stays one count per line.
    let got = sb(["count", "-q"])
        .stdin(format!("{P}\n{empty}\n"))
        .ok()
        .stdout();
    assert_eq!(got, "1\n2+\n");
}

#[test]
fn short_help_is_one_line_an_item_and_long_help_has_the_text() {
    let short = sb(["-h"]).ok().stdout();
    let commands: Vec<&str> = short
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(commands.len() >= 10, "{short}");
    for line in &commands {
        // `  name  about`: every item one line, none a continuation.
        assert!(
            line.starts_with("  ") && !line.starts_with("   "),
            "a wrapped item: {line:?}\n{short}"
        );
    }
    assert!(short.lines().count() < 30, "{short}");
    let long = sb(["--help"]).ok().stdout();
    assert!(long.lines().count() > short.lines().count(), "{long}");
    let dedupe = sb(["dedupe", "--help"]).ok().stdout();
    assert!(dedupe.contains("Memory stays within"), "{dedupe}");
    // A subcommand's options: one line each in `-h` (their values lists
    // aside), the whole text in `--help`.
    let solve = sb(["solve", "-h"]).ok().stdout();
    let output = solve
        .lines()
        .find(|l| l.contains("--output <FILE>"))
        .unwrap();
    assert!(
        output.trim_end().ends_with("Write answers to FILE"),
        "{solve}"
    );
    assert!(solve.lines().count() < 40, "{solve}");
    let long = sb(["solve", "--help"]).ok().stdout();
    assert!(
        long.contains("atomically: a temporary file renamed"),
        "{long}"
    );
}
