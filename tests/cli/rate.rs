//! `sudoku-bulk rate`: serate's numbers for real puzzles in each layout,
//! bad records marked, technique subsets, and `--steps` paths.

use crate::util::{run, stderr, stdout, temp_file};

/// (puzzle, serate's `ER/EP/ED`) from tests/data/rate_serate.txt, which
/// holds serate's own output (see its header), not ours.
fn serate() -> Vec<(String, String)> {
    let text = include_str!("../data/rate_serate.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (p, r) = l.split_once(' ').unwrap();
            (p.to_string(), r.trim().to_string())
        })
        .collect()
}

/// Fixtures whose ER is at most 4.4 (every technique up to XYZ-Wing is
/// implemented; nothing rated there is left unrated). The first 40.
fn easy() -> Vec<(String, String)> {
    serate()
        .into_iter()
        .filter(|(_, r)| r.split('/').next().unwrap().parse::<f64>().unwrap() <= 4.4)
        .take(40)
        .collect()
}

#[test]
fn one_line_puzzles_get_serates_numbers() {
    let fx = easy();
    assert!(fx.len() >= 30);
    let input: String = fx.iter().map(|(p, _)| format!("{p}\n")).collect();
    let o = run(&["rate", "-j", "2"], input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let want: String = fx.iter().map(|(p, r)| format!("{p} {r}\n")).collect();
    assert_eq!(stdout(&o), want);
}

#[test]
fn csv_gets_er_ep_ed_columns_and_an_existing_one_is_refused() {
    let fx = easy();
    let mut csv = String::from("id,puzzle\n");
    for (i, (p, _)) in fx.iter().take(5).enumerate() {
        csv += &format!("{i},{p}\n");
    }
    let (_dir, path) = temp_file("in.csv", csv.as_bytes());
    let o = run(&["rate", path.to_str().unwrap()], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let mut want = String::from("id,puzzle,er,ep,ed\n");
    for (i, (p, r)) in fx.iter().take(5).enumerate() {
        want += &format!("{i},{p},{}\n", r.replace('/', ","));
    }
    assert_eq!(stdout(&o), want);

    let (_dir2, rated) = temp_file("rated.csv", want.as_bytes());
    let o = run(&["rate", rated.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("already has a column \"er\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn puzzles_without_one_solution_are_marked() {
    let (p, r) = &easy()[0];
    let empty = ".".repeat(81);
    let input = format!("{empty}\n{p}\n");
    let o = run(&["rate"], input.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("error: multiple solutions\n{p} {r}\n"));
    assert!(
        stderr(&o).contains("<stdin>:1: multiple solutions"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_technique_subset_leaves_harder_puzzles_unrated() {
    // Singles only: a puzzle serate rates above 2.3 cannot be finished.
    let (p, _) = serate()
        .into_iter()
        .find(|(_, r)| r.starts_with("2.6"))
        .unwrap();
    let o = run(
        &["rate", "--techniques", "HiddenSingle,NakedSingle"],
        format!("{p}\n").as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(&format!("{p} unrated/")),
        "{}",
        stdout(&o)
    );
    let o = run(&["rate", "--techniques", "Guessing"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown technique"), "{}", stderr(&o));
    let o = run(&["rate", "--techniques", "list"], b"");
    assert!(stdout(&o).contains("TurbotFish\tScraper, Kite, Turbot\tyes"));
}

#[test]
fn steps_lines_place_every_blank_once() {
    let fx = easy();
    let input: String = fx.iter().take(10).map(|(p, _)| format!("{p}\n")).collect();
    let (dir, path) = temp_file("in.txt", input.as_bytes());
    let steps = dir.path().join("steps.jsonl");
    let o = run(
        &[
            "rate",
            path.to_str().unwrap(),
            "--steps",
            steps.to_str().unwrap(),
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&steps).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10);
    for ((p, r), line) in fx.iter().zip(&lines) {
        assert!(line.starts_with(&format!("{{\"puzzle\":\"{p}\",\"status\":\"rated\"")));
        let er = r.split('/').next().unwrap();
        assert!(line.contains(&format!("\"er\":\"{er}\"")), "{line}");
        // Every blank is placed exactly once, each in its own cell.
        let blanks = p.bytes().filter(|&b| b == b'.' || b == b'0').count();
        assert_eq!(line.matches("\"placed\":{").count(), blanks);
        let mut seen = std::collections::HashSet::new();
        for part in line.split("\"placed\":{\"cell\":\"").skip(1) {
            let cell = &part[..part.find('"').unwrap()];
            assert!(seen.insert(cell.to_string()), "{cell} placed twice");
        }
    }
}

#[test]
fn overwrite_replaces_er_ep_ed_columns_where_they_are() {
    let fx = easy();
    // Old ratings in the middle and at the end, in another case, one row
    // quoted with the delimiter inside, one row short of its last field.
    let mut csv = String::from("id,ER,puzzle,\"note\",ep,ed\n");
    for (i, (p, _)) in fx.iter().take(4).enumerate() {
        match i {
            1 => csv += &format!("{i},9.9,{p},\"a, b\",1.0,1.0\n"),
            3 => csv += &format!("{i},old,{p},x,old\n"),
            _ => csv += &format!("{i},old,{p},note {i},old,old\n"),
        }
    }
    let (_dir, path) = temp_file("rated.csv", csv.as_bytes());
    let o = run(&["rate", path.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(2), "refused without --overwrite");
    assert!(
        stderr(&o).contains("already has a column"),
        "{}",
        stderr(&o)
    );

    let o = run(&["rate", "--overwrite", path.to_str().unwrap()], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let mut want = String::from("id,ER,puzzle,\"note\",ep,ed\n");
    for (i, (p, r)) in fx.iter().take(4).enumerate() {
        let v: Vec<&str> = r.split('/').collect();
        let (er, ep, ed) = (v[0], v[1], v[2]);
        match i {
            1 => want += &format!("{i},{er},{p},\"a, b\",{ep},{ed}\n"),
            3 => want += &format!("{i},{er},{p},x,{ep},{ed}\n"),
            _ => want += &format!("{i},{er},{p},note {i},{ep},{ed}\n"),
        }
    }
    assert_eq!(stdout(&o), want);

    // Only `er` present: it is replaced, `ep` and `ed` added; a bad row
    // gets its mark in `er`.
    let (p, r) = &fx[0];
    let tsv = format!("er\tpuzzle\nx\t{p}\nx\t{}\n", ".".repeat(81));
    let (_dir, path) = temp_file("part.tsv", tsv.as_bytes());
    let o = run(&["rate", "--overwrite", path.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Vec<&str> = r.split('/').collect();
    assert_eq!(
        stdout(&o),
        format!(
            "er\tpuzzle\tep\ted\n{}\t{p}\t{}\t{}\nerror: multiple solutions\t{}\t\t\n",
            v[0],
            v[1],
            v[2],
            ".".repeat(81)
        )
    );

    // A table without the columns: --overwrite adds them as without it.
    let (_dir, path) = temp_file("plain.csv", format!("puzzle\n{p}\n").as_bytes());
    let o = run(&["rate", "--overwrite", path.to_str().unwrap()], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("puzzle,er,ep,ed\n{p},{}\n", v.join(","))
    );
}

#[cfg(feature = "columnar")]
#[test]
fn overwrite_replaces_parquet_columns_in_place() {
    use arrow_array::cast::AsArray;
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;

    let fx: Vec<(String, String)> = easy().into_iter().take(6).collect();
    let n = fx.len() as i64;
    let puzzles: ArrayRef = Arc::new(StringArray::from_iter_values(fx.iter().map(|(p, _)| p)));
    let old: ArrayRef = Arc::new(Int64Array::from_iter_values(0..n));
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(100..100 + n));
    let batch = RecordBatch::try_from_iter(vec![
        ("ed", old.clone()),
        ("puzzle", puzzles),
        ("id", ids.clone()),
        ("er", old),
    ])
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.parquet");
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&input).unwrap(), batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();

    let out = dir.path().join("out.parquet");
    let args = ["rate", input.to_str().unwrap(), "-o", out.to_str().unwrap()];
    let o = run(&args, b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("already has a column"),
        "{}",
        stderr(&o)
    );
    let o = run(&[&args[..], &["--overwrite"]].concat(), b"");
    assert!(o.status.success(), "{}", stderr(&o));

    let r = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&out).unwrap())
        .unwrap()
        .build()
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let names: Vec<&str> = r
        .schema_ref()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, ["ed", "puzzle", "id", "er", "ep"]);
    assert_eq!(
        r.column(2).as_ref(),
        ids.as_ref(),
        "other columns untouched"
    );
    let col = |k: usize| -> Vec<String> {
        r.column(k)
            .as_string::<i32>()
            .iter()
            .map(|v| v.unwrap().to_string())
            .collect()
    };
    let want = |k: usize| -> Vec<String> {
        fx.iter()
            .map(|(_, rt)| rt.split('/').nth(k).unwrap().to_string())
            .collect()
    };
    assert_eq!(col(3), want(0));
    assert_eq!(col(4), want(1));
    assert_eq!(col(0), want(2));
}

#[test]
fn generate_rating_gives_unique_puzzles_rated_in_the_band() {
    let args = [
        "generate", "-n", "30", "--seed", "7", "--rating", "3.0..4.4", "-j", "1",
    ];
    let o = run(&args, b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("candidates generated and rated for 30 puzzles"),
        "{}",
        stderr(&o)
    );
    let text = stdout(&o);
    let puzzles: Vec<&str> = text.lines().collect();
    assert_eq!(puzzles.len(), 30);
    let distinct: std::collections::HashSet<&&str> = puzzles.iter().collect();
    assert_eq!(distinct.len(), 30);
    // The thread count does not change the output.
    let mut two = args.to_vec();
    two[8] = "2";
    assert_eq!(stdout(&run(&two, b"")), text);
    // Each is unique (count says 1) and rates inside the band.
    let o = run(&["count"], text.as_bytes());
    assert_eq!(stdout(&o), "1\n".repeat(30));
    let o = run(&["rate"], text.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    for (line, p) in stdout(&o).lines().zip(&puzzles) {
        let (puzzle, r) = line.split_once(' ').unwrap();
        assert_eq!(puzzle, *p);
        let er: f64 = r.split('/').next().unwrap().parse().unwrap();
        assert!((3.0..=4.4).contains(&er), "{line}");
    }
}

#[test]
fn generate_rating_beyond_the_rater_or_malformed_is_refused() {
    let o = run(&["generate", "-n", "1", "--rating", "4.0..11.0"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("exact ratings up to ER"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    let o = run(&["generate", "-n", "1", "--rating", "4.4..2.0"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("MIN..MAX"), "{}", stderr(&o));
    let o = run(
        &[
            "generate", "-n", "1", "--size", "16", "--rating", "2.0..3.0",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("9x9"), "{}", stderr(&o));
}

#[test]
fn steps_of_unique_loops_name_the_loop_cells() {
    let fx: Vec<(String, String)> = serate()
        .into_iter()
        .filter(|(_, r)| r.starts_with("4.5/") || r.starts_with("4.6/"))
        .collect();
    assert!(fx.len() >= 5);
    let input: String = fx.iter().map(|(p, _)| format!("{p}\n")).collect();
    let (dir, path) = temp_file("in.txt", input.as_bytes());
    let steps = dir.path().join("steps.jsonl");
    let o = run(
        &[
            "rate",
            path.to_str().unwrap(),
            "--steps",
            steps.to_str().unwrap(),
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let want: String = fx.iter().map(|(p, r)| format!("{p} {r}\n")).collect();
    assert_eq!(stdout(&o), want);
    let text = std::fs::read_to_string(&steps).unwrap();
    for ((_, r), line) in fx.iter().zip(text.lines()) {
        let step = line
            .split("{\"technique\":")
            .find(|s| s.contains("\"id\":\"UniqueLoop\""))
            .unwrap_or_else(|| panic!("no unique loop step: {line}"));
        let er = &r[..3];
        assert!(step.contains(&format!("\"rating\":\"{er}\"")), "{step}");
        let cells = step.split("\"cells\":[").nth(1).expect("loop cells");
        let cells = &cells[..cells.find(']').unwrap()];
        // A rectangle for 4.5, a loop of 6 for 4.6 (type 1, 2 or 4).
        let n = cells.split(',').count();
        assert_eq!(n, if er == "4.5" { 4 } else { 6 }, "{step}");
        assert!(step.contains("\"eliminated\":[{"), "{step}");
    }
}
