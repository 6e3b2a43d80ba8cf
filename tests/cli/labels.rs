//! Labels (solutions a dataset already holds) are never silently changed:
//! valid ones survive byte for byte, wrong ones are reported and kept,
//! empty ones are filled, `--overwrite` replaces them all. For CSV with a
//! header, headerless `q,a` rows and tdoku lines.

use crate::util::*;

const DIGITS: &str = "123456789";

/// How a message names data row `row` of a file with `skip` header lines:
/// `LINE`, or `LINE (row ROW)` when they differ.
fn at(row: usize, skip: usize) -> String {
    match skip {
        0 => row.to_string(),
        _ => format!("{} (row {row})", row + skip),
    }
}

fn dig(cells: &[u8], blank: char) -> String {
    encode(cells, DIGITS, blank)
}

/// The empty grid has every full grid as a solution, so a shuffled full
/// grid is a valid label our solver would not pick by itself (checked in
/// the test with `--overwrite`).
fn ambiguous() -> (Vec<u8>, Vec<u8>) {
    (vec![0u8; 81], full_grid(3, 77))
}

#[test]
fn a_valid_label_of_a_multi_solution_puzzle_survives_byte_for_byte() {
    let (empty, label) = ambiguous();
    let unique_p = blank_out(&full_grid(3, 5), 45, 5);
    let unique_a = full_grid(3, 5);
    let input = format!(
        "id,puzzle,solution,note\n\
         1,{},{},plain\n\
         2,{},{},\"quoted, with a comma\"\n\
         3,{},,empty label\n",
        dig(&empty, '.'),
        dig(&label, '.'),
        dig(&unique_p, '.'),
        dig(&unique_a, '.'),
        dig(&unique_p, '0'),
    );
    for j in ["1", "2"] {
        let o = sb(["solve", "-j", j, "--chunk-size", "64"])
            .stdin(input.as_bytes())
            .ok();
        let out = o.stdout();
        let lines: Vec<&str> = out.lines().collect();
        let inp: Vec<&str> = input.lines().collect();
        // Header and both labelled rows are the input's bytes.
        assert_eq!(lines[..3], inp[..3]);
        // The empty label was filled with a valid answer, the rest kept.
        let row: Vec<&str> = lines[3].split(',').collect();
        assert_eq!(row[1], dig(&unique_p, '0'));
        assert_eq!(row[3], "empty label");
        assert_valid(3, &unique_p, &cells(row[2], "", DIGITS));
    }
    // The test means something: our own answer to row 1 differs.
    let o = sb(["solve", "--overwrite"]).stdin(input.as_bytes()).ok();
    let out = o.stdout();
    let row1: Vec<&str> = out.lines().nth(1).unwrap().split(',').collect();
    assert_ne!(row1[2], dig(&label, '.'));
    assert_valid(3, &empty, &cells(row1[2], "", DIGITS));
    // --unique: the label is valid but the puzzle is not unique.
    let o = sb(["solve", "--unique"]).stdin(input.as_bytes()).code(1);
    assert!(
        o.stderr().contains("<stdin>:2 (row 1): multiple solutions"),
        "{}",
        o.stderr()
    );
}

#[test]
fn a_wrong_label_is_reported_and_kept_unless_overwrite() {
    let grid = full_grid(3, 11);
    let puzzle = blank_out(&grid, 50, 11);
    let mut wrong = grid.clone();
    // Swap two cells of row 1: a changed given or a broken column.
    wrong.swap(0, 1);
    let rows = [
        format!("{},{}", dig(&puzzle, '.'), dig(&wrong, '.')),
        format!("{},12345", dig(&puzzle, '.')),
        format!("{},{}", dig(&puzzle, '.'), dig(&grid, '.')),
    ];
    let input = format!("puzzle,solution\n{}\n", rows.join("\n"));
    let o = sb(["solve"]).stdin(input.as_bytes()).code(1);
    let err = o.stderr();
    assert!(
        err.contains("<stdin>:2 (row 1): existing solution is wrong: "),
        "{err}"
    );
    assert!(
        err.contains("<stdin>:3 (row 2): existing solution is wrong: expected 81 cells, found 5"),
        "{err}"
    );
    assert!(err.contains("0 solved, 1 kept, 2 bad"), "{err}");
    // Every row, wrong labels included, is written back unchanged.
    assert_eq!(o.stdout(), input);
    let o = sb(["solve", "--overwrite"]).stdin(input.as_bytes()).ok();
    for row in o.stdout().lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[0], dig(&puzzle, '.'));
        assert_valid(3, &puzzle, &cells(f[1], "", DIGITS));
    }
}

#[test]
fn headerless_pairs_and_tdoku_lines_follow_the_same_rule() {
    let (empty, label) = ambiguous();
    let grid = full_grid(3, 21);
    let puzzle = blank_out(&grid, 55, 21);
    let mut wrong = grid.clone();
    wrong[80] = if wrong[80] == 9 { 1 } else { wrong[80] + 1 };
    for (sep, mid) in [(",", ""), (":", ":1")] {
        let input = format!(
            "{e}{mid}{sep}{l}\n{p}{mid}{sep}\n{p}{mid}{sep}{w}\n",
            e = dig(&empty, '.'),
            l = dig(&label, '.'),
            p = dig(&puzzle, '.'),
            w = dig(&wrong, '.'),
        );
        let sep_mid = format!("{mid}{sep}");
        let o = sb(["solve"]).stdin(input.as_bytes()).code(1);
        assert!(
            o.stderr()
                .contains("<stdin>:3: existing solution is wrong: "),
            "{}",
            o.stderr()
        );
        let out = o.stdout();
        let lines: Vec<&str> = out.lines().collect();
        let inp: Vec<&str> = input.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], inp[0], "valid label kept");
        assert_eq!(lines[2], inp[2], "wrong label kept");
        let (p, a) = lines[1].split_once(&sep_mid).unwrap();
        assert_eq!(p, dig(&puzzle, '.'));
        assert_valid(3, &puzzle, &cells(a, "", DIGITS));
        // `check FILE` checks the file's own labels.
        let (_dir, path) = temp_file("labels.txt", input.as_bytes());
        let o = sb(["check"]).arg(&path).code(1);
        let report = o.stdout();
        assert!(report.contains("labels.txt:3: "), "{report}");
        assert!(
            report.contains("3 records checked, 1 good, 2 bad"),
            "{report}"
        );
    }
}

/// A row whose puzzle is bad (several solutions under `--unique`, clashing
/// givens, the wrong length) keeps the label it holds: only an empty field
/// gets the error mark, and `--overwrite` marks them all. Every layout with
/// a solution field.
#[test]
fn a_bad_puzzle_keeps_the_label_it_holds() {
    let (empty, label) = ambiguous();
    let grid = full_grid(3, 31);
    let mut clash = blank_out(&grid, 50, 31);
    // A blank of some row takes the digit of a given in the same row: the
    // givens clash.
    let (blank, given) = (0..81)
        .find_map(|i| {
            let row = i / 9 * 9..i / 9 * 9 + 9;
            let g = row.clone().find(|&j| clash[j] != 0)?;
            (clash[i] == 0).then_some((i, clash[g]))
        })
        .unwrap();
    clash[blank] = given;
    let short = &dig(&blank_out(&grid, 50, 31), '.')[..80];
    // (header, row template): `{p}` puzzle, `{a}` answer field.
    let layouts = [
        ("puzzle,solution\n", "{p},{a}"),
        ("", "{p},{a}"),
        ("", "{p}:1:{a}"),
    ];
    for (header, row) in layouts {
        let mk = |p: &str, a: &str| row.replace("{p}", p).replace("{a}", a);
        let rows = [
            mk(&dig(&empty, '.'), &dig(&label, '.')),
            mk(&dig(&clash, '.'), &dig(&grid, '.')),
            mk(short, "not a grid"),
            mk(&dig(&clash, '.'), ""),
        ];
        let input = format!("{header}{}\n", rows.join("\n"));
        let o = sb(["solve", "--unique"]).stdin(input.as_bytes()).code(1);
        let skip = usize::from(!header.is_empty());
        let err = o.stderr();
        assert!(
            err.contains(&format!("<stdin>:{}: multiple solutions", at(1, skip))),
            "{err}"
        );
        assert!(
            err.contains(&format!("<stdin>:{}: duplicate given", at(2, skip))),
            "{err}"
        );
        assert!(err.contains("0 solved, 4 bad"), "{err}");
        let out = o.stdout();
        let lines: Vec<&str> = out.lines().skip(skip).collect();
        assert_eq!(lines.len(), 4, "{out}");
        // The three labelled rows are the input's bytes.
        assert_eq!(lines[..3], rows[..3], "{header:?} {row}");
        // The empty field gets the mark, the puzzle stays.
        assert!(lines[3].starts_with(&dig(&clash, '.')), "{}", lines[3]);
        assert!(lines[3].contains("error: duplicate given"), "{}", lines[3]);
        // --overwrite asks for ours: every field gets the mark.
        let o = sb(["solve", "--unique", "--overwrite"])
            .stdin(input.as_bytes())
            .code(1);
        for l in o.stdout().lines().skip(skip) {
            assert!(l.contains("error: "), "{l}");
        }
    }
}
