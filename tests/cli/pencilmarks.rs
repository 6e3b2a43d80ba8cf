//! Pencilmark (Sukaku) input: 729-character lines, detected without
//! flags, solved and counted by the 9x9 solver; answers checked on their
//! own terms (a valid grid whose every digit is one of its cell's marks).

use crate::util::{assert_valid, cells, data, puzzle_lines, sb, temp_file};

/// Panics unless `answer` (81 digits) is a valid grid that keeps to the
/// marks of `line` (729 characters, `.` where a candidate is eliminated).
fn assert_keeps_marks(line: &str, answer: &str) {
    let a = cells(answer, "", "123456789");
    assert_valid(3, &[0; 81], &a);
    let marks = line.as_bytes();
    for (i, &d) in a.iter().enumerate() {
        assert_eq!(
            marks[i * 9 + d as usize - 1],
            b'0' + d,
            "cell {i}: {d} was eliminated"
        );
    }
}

/// A vanilla 9x9 line written as pencilmarks: a given is its one mark, a
/// blank all nine.
fn as_marks(puzzle: &str) -> String {
    puzzle
        .bytes()
        .flat_map(|b| (b'1'..=b'9').map(move |d| if b == b'.' || b == d { d as char } else { '.' }))
        .collect()
}

#[test]
fn tdoku_pencilmark_lines_are_solved_and_counted_without_flags() {
    let path = data("pencilmark_tdoku.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzles = puzzle_lines(&text);
    assert_eq!(puzzles.len(), 40);
    let path = path.to_str().unwrap();
    let o = sb(["solve", path]).ok();
    let out = o.stdout();
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), puzzles.len());
    for (p, a) in puzzles.iter().zip(&answers) {
        assert_keeps_marks(p, a);
    }
    // tdoku's generator makes unique puzzles.
    let o = sb(["count", path]).ok();
    assert_eq!(o.stdout(), "1\n".repeat(40));
    // `check` reads the answers against the marks.
    let (_dir, answers_path) = temp_file("answers.txt", out.as_bytes());
    sb(["check", path]).arg(&answers_path).ok();
}

#[test]
fn marks_narrow_a_vanilla_puzzle() {
    // Serg's benchmark: a puzzle with several solutions. As marks it
    // counts the same; with one blank cell narrowed to the first
    // answer's digit there, the count can only drop, and every answer
    // keeps to the marks.
    let p = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let marks = as_marks(p);
    let alone = |input: &str, args: &[&str]| {
        let o = sb(args).stdin(format!("{input}\n").as_bytes()).output();
        (o.status.code(), o.stdout())
    };
    let (code, vanilla) = alone(p, &["count", "--limit", "9"]);
    assert_eq!(code, Some(0));
    let (code, marked) = alone(&marks, &["count", "--limit", "9"]);
    assert_eq!(code, Some(0));
    assert_eq!(marked, vanilla);
    let (_, answer) = alone(&marks, &["solve"]);
    let answer = answer.trim();
    assert_keeps_marks(&marks, answer);
    let blank = p.find('.').unwrap();
    let digit = answer.as_bytes()[blank];
    let mut narrowed = marks.into_bytes();
    for (k, b) in narrowed[blank * 9..blank * 9 + 9].iter_mut().enumerate() {
        if b'1' + k as u8 != digit {
            *b = b'.';
        }
    }
    let narrowed = String::from_utf8(narrowed).unwrap();
    let (code, fewer) = alone(&narrowed, &["count", "--limit", "9"]);
    assert_eq!(code, Some(0));
    let n = |s: &str| s.trim().trim_end_matches('+').parse::<u32>().unwrap();
    assert!(
        n(&fewer) >= 1 && n(&fewer) <= n(&vanilla),
        "{fewer} vs {vanilla}"
    );
    let (_, a) = alone(&narrowed, &["solve"]);
    assert_keeps_marks(&narrowed, a.trim());
}

#[test]
fn bad_pencilmark_records_are_named() {
    let text = std::fs::read_to_string(data("pencilmark_tdoku.txt")).unwrap();
    let good = puzzle_lines(&text)[0].to_string();
    // A digit in the wrong place of cell 3, a cell with every candidate
    // eliminated, and the good line.
    let mut wrong = good.clone().into_bytes();
    wrong[2 * 9] = b'5';
    let mut empty = good.clone().into_bytes();
    empty[9..18].fill(b'.');
    let input = format!(
        "{}\n{}\n{good}\n",
        String::from_utf8(wrong).unwrap(),
        String::from_utf8(empty).unwrap()
    );
    let o = sb(["solve"]).stdin(input.as_bytes()).code(1);
    let out = o.stdout();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].starts_with("error:") && lines[0].contains("cell 3"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("error:") && lines[1].contains("no solution"),
        "{out}"
    );
    assert_keeps_marks(&good, lines[2]);
    let o = sb(["count"]).stdin(input.as_bytes()).code(1);
    let out = o.stdout();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[1..], ["0", "1"], "{out}");
}
