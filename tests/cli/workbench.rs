//! The dataset workbench end to end (`split`, `augment`, `stats`,
//! `convert`), on files whose classes are known by construction: the
//! bases and disguises of `dedupe.rs` (this suite's own transform code,
//! not the crate's), so a record's class is the base it came from.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::dedupe::{bases, line_of, records, Rec};
use crate::util::*;

/// The lines of a text file.
fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Class of each line of a built file (a line is one record's bytes).
fn class_of(recs: &[Rec]) -> HashMap<String, usize> {
    recs.iter()
        .enumerate()
        .map(|(i, r)| (line_of(i, r), r.class))
        .collect()
}

/// The largest class's size.
fn biggest(recs: &[Rec]) -> usize {
    let mut n = HashMap::new();
    for r in recs {
        *n.entry(r.class).or_insert(0) += 1;
    }
    n.into_values().max().unwrap()
}

/// Checks the parts of `recs` (train, test, val lines): every record once,
/// no class in two parts, sizes within one class of the fractions.
fn check_parts(recs: &[Rec], parts: &[Vec<String>], fractions: &[f64]) {
    let classes = class_of(recs);
    let mut all: Vec<String> = parts.iter().flatten().cloned().collect();
    let mut want: Vec<String> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| line_of(i, r))
        .collect();
    all.sort();
    want.sort();
    assert_eq!(all, want, "every record in exactly one part");
    let mut owner: HashMap<usize, usize> = HashMap::new();
    for (k, part) in parts.iter().enumerate() {
        for l in part {
            let c = classes[l];
            assert_eq!(*owner.entry(c).or_insert(k), k, "class {c} in two parts");
        }
    }
    let slack = biggest(recs) as f64;
    for (k, f) in fractions.iter().enumerate() {
        let want = f * recs.len() as f64;
        let got = parts[k + 1].len() as f64;
        assert!(
            (got - want).abs() <= slack,
            "part {} has {got} records, asked {want} (one class is {slack})",
            k + 1
        );
    }
}

fn write_lines(path: &Path, recs: &[Rec]) {
    let text: String = recs
        .iter()
        .enumerate()
        .map(|(i, r)| line_of(i, r) + "\n")
        .collect();
    std::fs::write(path, text).unwrap();
}

#[test]
fn split_keeps_classes_whole_and_fractions_within_one_class() {
    let bases = bases(60);
    let recs = records(&bases, 0..60, 600, 11);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("set.txt");
    write_lines(&input, &recs);
    let out = |j: &str, seed: &str, sub: &str| {
        let d = dir.path().join(sub);
        sb(["split", "-q"])
            .arg(&input)
            .args(["--test", "0.2", "--val", "0.1", "--seed", seed, "-j", j])
            .arg("--output-dir")
            .arg(&d)
            .ok();
        ["train", "test", "val"].map(|p| std::fs::read(d.join(format!("{p}.txt"))).unwrap())
    };
    let one = out("1", "5", "a");
    let two = out("2", "5", "b");
    assert_eq!(one, two, "the same bytes whatever -j");
    // Spilled sorted runs (a 4 KiB budget) give the same bytes too.
    let d = dir.path().join("spilled");
    let o = sb(["split"])
        .arg(&input)
        .args([
            "--test", "0.2", "--val", "0.1", "--seed", "5", "--memory", "4K",
        ])
        .arg("--output-dir")
        .arg(&d)
        .ok();
    assert!(o.stderr().contains("spilled to disk"), "{}", o.stderr());
    for (k, p) in ["train", "test", "val"].iter().enumerate() {
        assert_eq!(
            std::fs::read(d.join(format!("{p}.txt"))).unwrap(),
            one[k],
            "{p}"
        );
    }
    let parts: Vec<Vec<String>> = one
        .iter()
        .map(|b| {
            String::from_utf8(b.clone())
                .unwrap()
                .lines()
                .map(String::from)
                .collect()
        })
        .collect();
    check_parts(&recs, &parts, &[0.2, 0.1]);
    let other = out("2", "6", "c");
    assert_ne!(one, other, "another seed, another split");
    // Beside the input without --output-dir.
    sb(["split", "-q"])
        .arg(&input)
        .args(["--seed", "5", "--test", "0.2", "--val", "0.1"])
        .ok();
    assert_eq!(
        std::fs::read(dir.path().join("set.test.txt")).unwrap(),
        one[1]
    );
}

#[test]
fn split_of_csv_repeats_the_header_and_keeps_rows_byte_for_byte() {
    let bases = bases(40);
    let recs = records(&bases, 0..40, 400, 12);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("set.csv");
    let mut text = String::from("id,puzzle,note\r\n");
    for (i, r) in recs.iter().enumerate() {
        text += &format!("{i},{},\"n, {i}\"\r\n", line_of(i, r));
    }
    std::fs::write(&input, &text).unwrap();
    sb(["split", "-q"])
        .arg(&input)
        .args(["--test", "0.25"])
        .ok();
    let mut ids = vec![];
    let mut parts = vec![];
    for p in ["train", "test"] {
        let t = std::fs::read_to_string(dir.path().join(format!("set.{p}.csv"))).unwrap();
        assert!(t.starts_with("id,puzzle,note\r\n"), "{p}: header");
        let rows: Vec<&str> = t.split_inclusive("\r\n").skip(1).collect();
        let mut part = vec![];
        for row in rows {
            let id: usize = row.split(',').next().unwrap().parse().unwrap();
            let want = format!("{id},{},\"n, {id}\"\r\n", line_of(id, &recs[id]));
            assert_eq!(row, want, "row {id} byte for byte");
            ids.push(id);
            part.push(line_of(id, &recs[id]));
        }
        parts.push(part);
    }
    ids.sort();
    assert_eq!(ids, (0..recs.len()).collect::<Vec<_>>());
    check_parts(&recs, &parts, &[0.25]);
}

#[test]
fn split_of_text_with_comments_and_blank_lines_routes_every_record() {
    // Comment and blank lines before and between records are no records:
    // the key pass numbers rows, the copy pass must meet the same rows
    // (a file that opens with comments, as data/magictour_top1465.txt).
    let bases = bases(30);
    let recs = records(&bases, 0..30, 300, 21);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("set.txt");
    let mut text = String::from("# a set\n#\n");
    for (i, r) in recs.iter().enumerate() {
        if i % 7 == 3 {
            text += "\n# more\n";
        }
        text += &format!("{}\n", line_of(i, r));
    }
    std::fs::write(&input, &text).unwrap();
    sb(["split", "-q"])
        .arg(&input)
        .args(["--test", "0.2", "--seed", "3"])
        .ok();
    let mut parts = vec![];
    let mut seen = 0;
    for p in ["train", "test"] {
        let t = std::fs::read_to_string(dir.path().join(format!("set.{p}.txt"))).unwrap();
        let part: Vec<String> = t
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        seen += part.len();
        parts.push(part);
    }
    assert_eq!(seen, recs.len(), "every record in exactly one part");
    check_parts(&recs, &parts, &[0.2]);
}

#[test]
fn split_stratified_by_clues_holds_the_fraction_in_each_stratum() {
    // Base i has 20 + i givens, so each base's records are one stratum;
    // `--by exact` makes each distinct cell string a class (known here
    // from the cells), so a stratum holds many classes.
    let bases = bases(10);
    let recs = records(&bases, 0..10, 600, 13);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("s.txt");
    write_lines(&input, &recs);
    sb(["split", "-q"])
        .arg(&input)
        .args([
            "--test",
            "0.3",
            "--stratify",
            "clues",
            "--by",
            "exact",
            "--seed",
            "2",
        ])
        .ok();
    let test = lines(&dir.path().join("s.test.txt"));
    let train = lines(&dir.path().join("s.train.txt"));
    let cells_of = |l: &str| cells(l, ".0", "123456789");
    // No exact class in both parts.
    let in_test: HashSet<Vec<u8>> = test.iter().map(|l| cells_of(l)).collect();
    assert!(train.iter().all(|l| !in_test.contains(&cells_of(l))));
    assert_eq!(train.len() + test.len(), recs.len());
    let clues = |l: &str| cells_of(l).iter().filter(|&&v| v != 0).count();
    for base in 0..10 {
        let stratum = |part: &[String]| part.iter().filter(|l| clues(l) == 20 + base).count();
        let (n_test, n) = (stratum(&test), stratum(&test) + stratum(&train));
        // The stratum's biggest exact class.
        let mut sizes: HashMap<Vec<u8>, usize> = HashMap::new();
        for r in recs.iter().filter(|r| r.class == base) {
            *sizes.entry(r.cells.clone()).or_insert(0) += 1;
        }
        let slack = *sizes.values().max().unwrap() as f64;
        let want = 0.3 * n as f64;
        assert!(
            (n_test as f64 - want).abs() <= slack,
            "stratum {base}: {n_test} of {n} in test, asked {want}"
        );
    }
}

#[test]
fn split_stratified_by_er_rates_classes_and_agrees_with_an_er_column() {
    // Classes known by construction: 40 shipped puzzles of several ERs,
    // each with disguises made here.
    let text = std::fs::read_to_string(data("sudoku_exchange_diabolical_sub.txt")).unwrap();
    let mut bases: Vec<Vec<u8>> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().find(|f| f.len() == 81))
        .take(24)
        .map(|p| cells(p, ".0", "123456789"))
        .collect();
    let easy = std::fs::read_to_string(data("sample.txt")).unwrap();
    bases.extend(
        puzzle_lines(&easy)
            .into_iter()
            .take(16)
            .map(|p| cells(p, ".0", "123456789")),
    );
    let n = bases.len();
    let recs = records(&bases, 0..n, 240, 17);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("e.txt");
    write_lines(&input, &recs);
    // Each class's ER, by rating its canonical form as the command does.
    let canon_in = dir.path().join("bases.txt");
    let base_text: String = bases
        .iter()
        .map(|b| encode(b, "123456789", '.') + "\n")
        .collect();
    std::fs::write(&canon_in, base_text).unwrap();
    let forms = sb(["canon", "-q", "--form", "pattern"])
        .arg(&canon_in)
        .ok()
        .stdout();
    let rated = sb(["rate", "-q"]).stdin(forms.as_bytes()).ok().stdout();
    let er: Vec<String> = rated
        .lines()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .unwrap()
                .split('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(er.len(), n);
    let strata: HashSet<&String> = er.iter().collect();
    assert!(strata.len() >= 4, "several ERs: {er:?}");
    sb([
        "split",
        "-q",
        "--test",
        "0.25",
        "--stratify",
        "er",
        "--seed",
        "9",
    ])
    .arg(&input)
    .ok();
    let train = lines(&dir.path().join("e.train.txt"));
    let test = lines(&dir.path().join("e.test.txt"));
    let classes = class_of(&recs);
    let check_parts_by_er = |train: &[String], test: &[String]| {
        let in_test: HashSet<usize> = test.iter().map(|l| classes[l]).collect();
        assert!(
            train.iter().all(|l| !in_test.contains(&classes[l])),
            "a class in both parts"
        );
        assert_eq!(train.len() + test.len(), recs.len());
        for e in &strata {
            let of = |part: &[String]| part.iter().filter(|l| &er[classes[*l]] == *e).count();
            let (t, all) = (of(test), of(test) + of(train));
            let biggest = recs
                .iter()
                .filter(|r| &er[r.class] == *e)
                .fold(HashMap::new(), |mut m, r| {
                    *m.entry(r.class).or_insert(0) += 1;
                    m
                })
                .into_values()
                .max()
                .unwrap();
            let want = 0.25 * all as f64;
            assert!(
                (t as f64 - want).abs() <= biggest as f64,
                "ER {e}: {t} of {all} in test, asked {want}"
            );
        }
    };
    check_parts_by_er(&train, &test);
    // The same rows with an `er` column holding those ERs: the column is
    // used, and the parts are the same records.
    let csv = dir.path().join("e.csv");
    let mut text = String::from("puzzle,er\n");
    for (i, r) in recs.iter().enumerate() {
        text += &format!("{},{}\n", line_of(i, r), er[r.class]);
    }
    std::fs::write(&csv, text).unwrap();
    sb([
        "split",
        "-q",
        "--test",
        "0.25",
        "--stratify",
        "er",
        "--seed",
        "9",
    ])
    .arg(&csv)
    .ok();
    let puzzles = |p: &str| -> Vec<String> {
        lines(&dir.path().join(p))[1..]
            .iter()
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(puzzles("e.test.csv"), test);
    assert_eq!(puzzles("e.train.csv"), train);
}

/// The CSV of `recs` with a `level` column (from `level(i, rec)`).
fn write_csv(path: &Path, recs: &[Rec], level: impl Fn(usize, &Rec) -> String) {
    let mut text = String::from("puzzle,level\n");
    for (i, r) in recs.iter().enumerate() {
        text += &format!("{},{}\n", line_of(i, r), level(i, r));
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn split_stratified_by_a_column_holds_each_value_and_keeps_classes_whole() {
    let bases = bases(40);
    let recs = records(&bases, 0..40, 500, 15);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("c.csv");
    // One level a class, except every 50th record (a class's stratum is
    // its first record's level, so classes stay whole regardless).
    let level = |i: usize, r: &Rec| {
        if i % 50 == 49 {
            "odd".to_string()
        } else if r.class.is_multiple_of(3) {
            "hard".to_string()
        } else {
            "easy".to_string()
        }
    };
    write_csv(&input, &recs, level);
    sb(["split", "-q"])
        .arg(&input)
        .args(["--test", "0.25", "--stratify", "level", "--seed", "4"])
        .ok();
    let part = |p: &str| -> Vec<String> {
        let l = lines(&dir.path().join(format!("c.{p}.csv")));
        assert_eq!(l[0], "puzzle,level", "the header in every part");
        l[1..].to_vec()
    };
    let (train, test) = (part("train"), part("test"));
    let puzzle = |l: &String| l.split(',').next().unwrap().to_string();
    let parts: Vec<Vec<String>> = [&train, &test]
        .iter()
        .map(|p| p.iter().map(puzzle).collect())
        .collect();
    check_parts(&recs, &parts, &[0.25]);
    // Each level's share, within the largest class of that level.
    for lv in ["hard", "easy"] {
        let of = |p: &[String]| p.iter().filter(|l| l.ends_with(&format!(",{lv}"))).count();
        let (t, n) = (of(&test), of(&test) + of(&train));
        let mut sizes: HashMap<usize, usize> = HashMap::new();
        for (i, r) in recs.iter().enumerate() {
            if level(i, r) == lv {
                *sizes.entry(r.class).or_insert(0) += 1;
            }
        }
        let slack = *sizes.values().max().unwrap() as f64 + 1.0;
        assert!(
            (t as f64 - 0.25 * n as f64).abs() <= slack,
            "{lv}: {t} of {n} in test"
        );
    }
    // A column the file does not have, and a layout without columns.
    let o = sb(["split", "-q"])
        .arg(&input)
        .args(["--stratify", "rating"])
        .code(2);
    assert!(o.stderr().contains("no such column"), "{}", o.stderr());
    let txt = dir.path().join("p.txt");
    write_lines(&txt, &recs);
    let o = sb(["split", "-q"])
        .arg(&txt)
        .args(["--stratify", "level"])
        .code(2);
    assert!(o.stderr().contains("a column needs"), "{}", o.stderr());
}

#[cfg(feature = "columnar")]
#[test]
fn split_of_parquet_keeps_every_column() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int64Type;
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;
    let bases = bases(30);
    let recs = records(&bases, 0..30, 300, 14);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("t.parquet");
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..recs.len() as i64)) as ArrayRef,
        ),
        (
            "puzzle",
            Arc::new(StringArray::from_iter_values(
                recs.iter().enumerate().map(|(i, r)| line_of(i, r)),
            )) as ArrayRef,
        ),
    ])
    .unwrap();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&input).unwrap(), batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    sb(["split", "-q"]).arg(&input).args(["--test", "0.2"]).ok();
    let mut parts = vec![];
    for p in ["train", "test"] {
        let f = std::fs::File::open(dir.path().join(format!("t.{p}.parquet"))).unwrap();
        let mut part = vec![];
        for b in ParquetRecordBatchReaderBuilder::try_new(f)
            .unwrap()
            .build()
            .unwrap()
        {
            let b = b.unwrap();
            let ids = b.column(0).as_primitive::<Int64Type>();
            let puz = b.column(1).as_string::<i32>();
            for k in 0..b.num_rows() {
                let id = ids.value(k) as usize;
                assert_eq!(puz.value(k), line_of(id, &recs[id]), "row {id}");
                part.push(puz.value(k).to_string());
            }
        }
        parts.push(part);
    }
    check_parts(&recs, &parts, &[0.2]);
}

#[test]
fn split_refuses_bad_fractions_and_stdin_without_a_directory() {
    let (_d, input) = temp_file("x.txt", b"");
    let o = sb(["split", "-q"])
        .arg(&input)
        .args(["--test", "0.7", "--val", "0.4"])
        .code(2);
    assert!(o.stderr().contains("fractions"), "{}", o.stderr());
    let o = sb(["split", "-q", "-"]).code(2);
    assert!(o.stderr().contains("--output-dir"), "{}", o.stderr());
}

/// A disguise as `augment --transform-column` writes it, applied by this
/// file's own reading of the notation: `out[i][j] = labels[t[rows[i]][cols[j]]]`,
/// `t` the input, transposed first for `T`.
fn apply_notation(t: &str, side: usize, cells: &[u8]) -> Vec<u8> {
    let parts: Vec<&str> = t.split('/').collect();
    assert_eq!(parts.len(), 4, "{t}");
    let list = |s: &str| -> Vec<usize> {
        if side <= 9 {
            s.bytes().map(|b| (b - b'0') as usize).collect()
        } else {
            s.split(',').map(|x| x.parse().unwrap()).collect()
        }
    };
    let (rows, cols, labels) = (list(parts[1]), list(parts[2]), list(parts[3]));
    let transpose = parts[0] == "T";
    let mut out = vec![0u8; side * side];
    for i in 0..side {
        for j in 0..side {
            let (r, c) = (rows[i], cols[j]);
            let v = if transpose {
                cells[c * side + r]
            } else {
                cells[r * side + c]
            };
            out[i * side + j] = if v == 0 {
                0
            } else {
                labels[v as usize - 1] as u8
            };
        }
    }
    out
}

#[test]
fn augment_disguises_keep_the_class_and_the_solution() {
    let bases = bases(20);
    let recs = records(&bases, 0..20, 60, 21);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("a.csv");
    // Solutions: each base is a cut of a known full grid; a disguise of
    // the cut is not a cut of that grid, so here solutions are full
    // grids made by this suite and disguised with the puzzle.
    let mut text = String::from("puzzle,solution,source\n");
    let mut grids = vec![];
    for i in 0..recs.len() {
        let g = full_grid(3, 500 + i as u64);
        let mut rng = Rng(9 + i as u64);
        let p: Vec<u8> = g
            .iter()
            .map(|&v| if rng.below(2) == 0 { 0 } else { v })
            .collect();
        text += &format!(
            "{},{},src{i}\n",
            encode(&p, "123456789", '.'),
            encode(&g, "123456789", '0')
        );
        grids.push((p, g));
    }
    std::fs::write(&input, &text).unwrap();
    let run_j = |j: &str| {
        sb([
            "augment",
            "-q",
            "-n",
            "3",
            "--seed",
            "4",
            "--keep-original",
            "--transform-column",
            "-j",
            j,
        ])
        .arg(&input)
        .ok()
        .stdout()
    };
    let out = run_j("1");
    assert_eq!(out, run_j("2"), "the same bytes whatever -j");
    let mut rows = out.lines();
    assert_eq!(rows.next(), Some("puzzle,solution,source,transform"));
    let rows: Vec<&str> = rows.collect();
    assert_eq!(rows.len(), grids.len() * 4);
    for (i, (p, g)) in grids.iter().enumerate() {
        for k in 0..4 {
            let f: Vec<&str> = rows[i * 4 + k].split(',').collect();
            assert_eq!(f[2], format!("src{i}"), "other columns kept");
            let puzzle = cells(f[0], ".0", "123456789");
            let sol = cells(f[1], ".0", "123456789");
            if k == 0 {
                assert_eq!(f[3], "N/012345678/012345678/123456789");
            }
            assert_eq!(
                puzzle,
                apply_notation(f[3], 9, p),
                "row {i}.{k}: the transform written"
            );
            assert_eq!(
                sol,
                apply_notation(f[3], 9, g),
                "solution transformed along"
            );
            assert_valid(3, &puzzle, &sol);
            assert!(!f[0].contains('0'), "the record's own blank");
        }
    }
    // Every disguise of a line has the canonical form of its original.
    let lines_in = dir.path().join("l.txt");
    write_lines(&lines_in, &recs);
    let aug = sb(["augment", "-q", "-n", "2", "--blank", "0"])
        .arg(&lines_in)
        .ok()
        .stdout();
    let aug_lines: Vec<&str> = aug.lines().collect();
    assert_eq!(aug_lines.len(), recs.len() * 2);
    assert!(aug_lines.iter().all(|l| !l.contains('.')), "--blank 0");
    let canon = |text: &str| {
        sb(["canon", "-q"])
            .stdin(text.as_bytes())
            .ok()
            .stdout()
            .lines()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let forms_in = canon(&std::fs::read_to_string(&lines_in).unwrap());
    let forms_out = canon(&aug);
    for (k, f) in forms_out.iter().enumerate() {
        assert_eq!(
            f.replace('.', "0"),
            forms_in[k / 2].replace('.', "0"),
            "disguise {k} canonicalises to its original's form"
        );
    }
    // Disguises differ from the original (61 records, 2 each: a repeat of
    // the original would be a broken generator).
    let same = aug_lines
        .iter()
        .enumerate()
        .filter(|(k, l)| cells(l, ".0", "123456789") == recs[k / 2].cells);
    assert!(same.count() <= 2);
}

#[cfg(feature = "columnar")]
#[test]
fn augment_of_parquet_carries_every_column_and_matches_the_csv_route() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int64Type;
    use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let mut grids: Vec<(String, String)> = vec![];
    for i in 0..40u64 {
        let g = full_grid(3, 700 + i);
        let mut rng = Rng(3 + i);
        let p: Vec<u8> = g
            .iter()
            .map(|&v| if rng.below(2) == 0 { 0 } else { v })
            .collect();
        grids.push((encode(&p, "123456789", '.'), encode(&g, "123456789", '0')));
    }
    // Row 7 is bad: copied once, unchanged.
    grids[7].0 = "x".repeat(81);
    let input = dir.path().join("t.parquet");
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..40)) as ArrayRef,
        ),
        (
            "puzzle",
            Arc::new(StringArray::from_iter_values(grids.iter().map(|g| &g.0))) as ArrayRef,
        ),
        (
            "solution",
            Arc::new(StringArray::from_iter_values(grids.iter().map(|g| &g.1))) as ArrayRef,
        ),
    ])
    .unwrap();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&input).unwrap(), batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let out = dir.path().join("o.parquet");
    let args = ["-n", "3", "--seed", "8", "--transform-column"];
    let o = sb(["augment"])
        .arg(&input)
        .args(args)
        .arg("-o")
        .arg(&out)
        .code(1);
    assert!(o.stderr().contains("row 8:"), "{}", o.stderr());
    let f = std::fs::File::open(&out).unwrap();
    let mut rows = vec![];
    for b in ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap()
    {
        let b = b.unwrap();
        assert_eq!(b.num_columns(), 4, "id, puzzle, solution, transform");
        let id = b.column(0).as_primitive::<Int64Type>();
        let (p, s, t) = (
            b.column(1).as_string::<i32>(),
            b.column(2).as_string::<i32>(),
            b.column(3).as_string::<i32>(),
        );
        for k in 0..b.num_rows() {
            rows.push((
                id.value(k) as usize,
                p.value(k).to_string(),
                s.value(k).to_string(),
                t.is_valid(k).then(|| t.value(k).to_string()),
            ));
        }
    }
    assert_eq!(rows.len(), 39 * 3 + 1);
    let ids: Vec<usize> = rows.iter().map(|r| r.0).collect();
    let want: Vec<usize> = (0..40)
        .flat_map(|i| std::iter::repeat_n(i, if i == 7 { 1 } else { 3 }))
        .collect();
    assert_eq!(ids, want, "rows in order, other columns carried");
    for (i, p, s, t) in &rows {
        if *i == 7 {
            assert_eq!((p, s), (&grids[7].0, &grids[7].1));
            assert!(t.is_none(), "a copied row has no transform");
            continue;
        }
        let t = t.as_ref().unwrap();
        let (puzzle, sol) = (cells(p, ".0", "123456789"), cells(s, ".0", "123456789"));
        let (p0, g0) = (
            cells(&grids[*i].0, ".0", "123456789"),
            cells(&grids[*i].1, ".0", "123456789"),
        );
        assert_eq!(puzzle, apply_notation(t, 9, &p0), "row {i}: {t}");
        assert_eq!(sol, apply_notation(t, 9, &g0), "row {i}: solution along");
        assert_valid(3, &puzzle, &sol);
    }
    // The CSV of the same rows gets the same disguises.
    let csv = dir.path().join("t.csv");
    let mut text = String::from("id,puzzle,solution\n");
    for (i, g) in grids.iter().enumerate() {
        text += &format!("{i},{},{}\n", g.0, g.1);
    }
    std::fs::write(&csv, text).unwrap();
    let o = sb(["augment", "-q"]).arg(&csv).args(args).code(1).stdout();
    let from_csv: Vec<String> = o.lines().skip(1).map(String::from).collect();
    let from_parquet: Vec<String> = rows
        .iter()
        .filter(|r| r.0 != 7)
        .map(|(i, p, s, t)| format!("{i},{p},{s},{}", t.as_ref().unwrap()))
        .collect();
    let csv_good: Vec<String> = from_csv
        .into_iter()
        .filter(|l| !l.starts_with("7,"))
        .collect();
    assert_eq!(csv_good, from_parquet);
}

#[test]
fn augment_rectangular_and_big_boxes_stay_valid() {
    for (h, w) in [(2, 3), (3, 4), (4, 4)] {
        let side = h * w;
        let alphabet: String = "123456789ABCDEFG".chars().take(side).collect();
        let g = full_grid_boxes(h, w, 31);
        let p = blank_out(&g, 50, 5);
        let text = format!(
            "puzzle,solution\n{},{}\n",
            encode(&p, &alphabet, '.'),
            encode(&g, &alphabet, '.')
        );
        let (_d, input) = temp_file("r.csv", text.as_bytes());
        let box_arg = format!("{h}x{w}");
        let out = sb([
            "augment",
            "-q",
            "-n",
            "5",
            "--transform-column",
            "--box",
            &box_arg,
        ])
        .arg(&input)
        .ok()
        .stdout();
        let mut reader = csv::Reader::from_reader(out.as_bytes());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 5);
        for r in rows {
            let f: Vec<&str> = r.iter().collect();
            let puzzle = cells(f[0], ".", &alphabet);
            let sol = cells(f[1], ".", &alphabet);
            assert_valid_boxes(h, w, &puzzle, &sol);
            assert_eq!(puzzle, apply_notation(f[2], side, &p), "{h}x{w}: {}", f[2]);
            assert_eq!(sol, apply_notation(f[2], side, &g));
            if h != w {
                assert!(f[2].starts_with('N'), "{h}x{w} boxes are never transposed");
            }
        }
    }
}

#[test]
fn stats_counts_clues_classes_and_duplicates_as_computed_here() {
    let bases = bases(20);
    let recs = records(&bases, 0..20, 200, 31);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("s.txt");
    write_lines(&input, &recs);
    let other = dir.path().join("o.txt");
    let others = records(&bases, 15..20, 10, 32);
    write_lines(&other, &others);
    let plot = dir.path().join("card.svg");
    let o = sb(["stats", "-q", "--json"])
        .arg(&input)
        .arg("--against")
        .arg(&other)
        .arg("--plot")
        .arg(&plot)
        .ok();
    let json = o.stdout();
    // Numbers computed here, from the construction.
    let mut clues: std::collections::BTreeMap<usize, u64> = Default::default();
    for r in &recs {
        *clues
            .entry(r.cells.iter().filter(|&&v| v != 0).count())
            .or_insert(0) += 1;
    }
    let classes: HashSet<usize> = recs.iter().map(|r| r.class).collect();
    let distinct: HashSet<&Vec<u8>> = recs.iter().map(|r| &r.cells).collect();
    let other_classes: HashSet<usize> = others.iter().map(|r| r.class).collect();
    let other_cells: HashSet<&Vec<u8>> = others.iter().map(|r| &r.cells).collect();
    let iso_overlap = recs
        .iter()
        .filter(|r| other_classes.contains(&r.class))
        .count();
    let exact_overlap = recs
        .iter()
        .filter(|r| other_cells.contains(&r.cells))
        .count();
    let dots = recs
        .iter()
        .enumerate()
        .filter(|(i, _)| !i.is_multiple_of(3))
        .count();
    let clue_json: Vec<String> = clues.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    for want in [
        format!("\"records\": {}", recs.len()),
        "\"bad\": 0".to_string(),
        format!("\"sizes\": {{\"9\": {}}}", recs.len()),
        format!(
            "\"blanks\": {{\".\": {dots}, \"0\": {}}}",
            recs.len() - dots
        ),
        format!("\"clues\": {{{}}}", clue_json.join(", ")),
        format!("\"classes\": {}", classes.len()),
        format!("\"iso_repeats\": {}", recs.len() - classes.len()),
        format!("\"exact_duplicates\": {}", recs.len() - distinct.len()),
        format!("\"isomorphs\": {iso_overlap}, \"copies\": {exact_overlap}"),
    ] {
        assert!(json.contains(&want), "{want} in {json}");
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "an SVG document"
    );
    assert!(
        svg.contains("clues") && svg.contains("<rect"),
        "bars and captions"
    );
    // The table names the same numbers.
    let table = sb(["stats", "-q"]).arg(&input).ok().stdout();
    assert!(
        table.contains(&format!("isomorph classes       {}", classes.len())),
        "{table}"
    );
}

/// A PNG's width and height from its IHDR chunk, after checking the
/// signature and that the image decodes; also how many distinct colours
/// its pixels hold.
fn png_facts(bytes: &[u8]) -> (u32, u32, usize) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "the PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR", "IHDR first");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (w, h));
    let px = info.color_type.samples();
    let colours: HashSet<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    (w, h, colours.len())
}

#[test]
fn stats_tables_and_draws_a_rating_column() {
    // A sudoku-extreme style table: a rating a record, one empty.
    let bases = bases(12);
    let recs = records(&bases, 0..12, 120, 41);
    let rating = |i: usize| {
        if i == 5 {
            String::new()
        } else {
            ((i * 7) % 11).to_string()
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.csv");
    let mut text = String::from("source,question,rating\n");
    for (i, r) in recs.iter().enumerate() {
        text += &format!("s{},{},{}\n", i % 2, line_of(i, r), rating(i));
    }
    std::fs::write(&input, text).unwrap();
    let png_path = dir.path().join("card.png");
    let json = sb(["stats", "-q", "--json", "--plot"])
        .arg(&png_path)
        .arg(&input)
        .ok()
        .stdout();
    // Counts per value computed here, in numeric order.
    let mut want: std::collections::BTreeMap<usize, u64> = Default::default();
    for i in (0..recs.len()).filter(|&i| i != 5) {
        *want.entry((i * 7) % 11).or_insert(0) += 1;
    }
    let values: Vec<String> = want
        .iter()
        .map(|(v, n)| format!("[\"{v}\", {n}]"))
        .collect();
    let expect = format!(
        "\"ratings\": {{\"column\": \"rating\", \"values\": [{}], \"missing\": 1}}",
        values.join(", ")
    );
    assert!(json.contains(&expect), "{expect} in {json}");
    // The PNG: real, wider with the rating panel, bars in colour.
    let (w, h, colours) = png_facts(&std::fs::read(&png_path).unwrap());
    assert_eq!((w, h), (1300, 420));
    assert!(colours > 3, "{colours} colours: text, grid and bars");
    // The table: a line per value with its count.
    let table = sb(["stats", "-q"]).arg(&input).ok().stdout();
    assert!(
        table.contains("  rating (records: count, 1 without a value)"),
        "{table}"
    );
    let at = table.find("  rating (").unwrap();
    for (v, n) in &want {
        let line = table[at..]
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&v.to_string()) && l.contains('#'))
            .unwrap_or_else(|| panic!("a line for {v} in {table}"));
        assert_eq!(
            line.split_whitespace().nth(1),
            Some(&*n.to_string()),
            "{line}"
        );
    }
    // The SVG names the panel; without a rating column the picture is
    // narrower and has no such panel.
    let svg_path = dir.path().join("card.svg");
    sb(["stats", "-q", "--plot"])
        .arg(&svg_path)
        .arg(&input)
        .ok();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.lines().any(|l| l.trim() == "rating"),
        "the panel's caption: {svg:.300}"
    );
    let plain = dir.path().join("p.txt");
    write_lines(&plain, &recs);
    let plain_png = dir.path().join("p.png");
    sb(["stats", "-q", "--plot"])
        .arg(&plain_png)
        .arg(&plain)
        .ok();
    assert_eq!(png_facts(&std::fs::read(&plain_png).unwrap()).0, 900);
    // Any other picture name is refused before any work, nothing written.
    let bad = dir.path().join("card.jpg");
    let err = sb(["stats", "-q", "--plot"])
        .arg(&bad)
        .arg(&input)
        .code(2)
        .stderr();
    assert!(err.contains("SVG or PNG"), "{err}");
    assert!(!bad.exists());
}

#[test]
fn stats_bins_a_rating_column_of_many_values() {
    // 300 distinct backtrack counts: binned, every record in the bin its
    // label's range holds.
    let bases = bases(10);
    let recs = records(&bases, 0..10, 300, 43);
    let value = |i: usize| (i * 37) % 1000;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("b.csv");
    let mut text = String::from("puzzle,rating\n");
    for (i, r) in recs.iter().enumerate() {
        text += &format!("{},{}\n", line_of(i, r), value(i));
    }
    std::fs::write(&input, text).unwrap();
    let table = sb(["stats", "-q"]).arg(&input).ok().stdout();
    let at = table
        .find("  rating (records: count)")
        .expect("the rating section");
    let mut bins = 0;
    let mut total = 0;
    for line in table[at..].lines().skip(1) {
        let mut f = line.split_whitespace();
        let (Some(label), Some(n)) = (f.next(), f.next()) else {
            break;
        };
        let Some((a, b)) = label.split_once('-') else {
            panic!("an integer bin a-b: {line}")
        };
        let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
        let here = (0..recs.len())
            .filter(|&i| (a..=b).contains(&value(i)))
            .count();
        assert_eq!(n.parse::<usize>().unwrap(), here, "{line}");
        bins += 1;
        total += here;
    }
    assert!((2..=21).contains(&bins), "{bins} bins in {table}");
    assert_eq!(total, recs.len());
    // JSON keeps every value exactly.
    let json = sb(["stats", "-q", "--json"]).arg(&input).ok().stdout();
    let distinct: HashSet<usize> = (0..recs.len()).map(value).collect();
    let at = json.find("\"values\": [").unwrap();
    assert_eq!(json[at..].matches("[\"").count(), distinct.len());
}

#[test]
fn stats_counts_solutions_zero_one_and_more() {
    // Known by construction: full grids have one solution; a grid cut to
    // five givens has several (four digits absent can be swapped); two
    // equal givens in a row have none.
    let mut text = String::new();
    for s in 0..4 {
        text += &encode(&full_grid(3, 40 + s), "123456789", '.');
        text += "\n";
    }
    for s in 0..3 {
        let g = full_grid(3, 50 + s);
        let few: Vec<u8> = (0..81)
            .map(|i| if i % 17 == 0 { g[i] } else { 0 })
            .collect();
        text += &encode(&few, "123456789", '.');
        text += "\n";
    }
    let mut clash = vec![0u8; 81];
    clash[0] = 5;
    clash[1] = 5;
    text += &encode(&clash, "123456789", '.');
    text += "\n";
    let (_d, input) = temp_file("u.txt", text.as_bytes());
    let json = sb(["stats", "-q", "--json"]).arg(&input).ok().stdout();
    assert!(
        json.contains("\"solutions\": {\"0\": 1, \"1\": 4, \"2+\": 3}"),
        "{json}"
    );
}

#[test]
fn blank_rewrites_the_puzzles_of_dedupe_and_split_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let p1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let p2 = "6......59.7.8.............6..3...48.....29.........7..2...6.......4..3..5........";
    let p3 = ".................1....23..4........5..2....63.7.89.......7..8....59.....1.3......";
    let zero = |p: &str| p.replace('.', "0");
    // A comment, a CRLF line, a blank line, text after a puzzle, a bad line.
    let text = format!("# c\n{p1}\n{p2}\r\n\n{p3} note\nnot a puzzle\n");
    let input = dir.path().join("a.txt");
    std::fs::write(&input, &text).unwrap();
    let out = sb(["dedupe", "-q", "--by", "exact", "--blank", "0"])
        .arg(&input)
        .code(1)
        .stdout();
    let want = format!(
        "# c\n{}\n{}\r\n\n{} note\nnot a puzzle\n",
        zero(p1),
        zero(p2),
        zero(p3)
    );
    assert_eq!(out, want, "blanks rewritten, every other byte kept");
    // By iso p2 (a disguise of p1) is dropped; `.` back from `0`.
    let zin = dir.path().join("z.txt");
    std::fs::write(&zin, &want).unwrap();
    let out = sb(["dedupe", "-q", "--blank", "."])
        .arg(&zin)
        .code(1)
        .stdout();
    assert_eq!(out, format!("# c\n{p1}\n\n{p3} note\nnot a puzzle\n"));
    // split: every part rewritten, the header of a CSV in each, quoted
    // fields kept.
    let csv = dir.path().join("s.csv");
    let rows: Vec<String> = (0..40)
        .map(|i| {
            let p = [p1, p3][i % 2];
            // Distinct exact classes: one given moved per row.
            let mut c: Vec<u8> = p.bytes().collect();
            c[80 - i] = if c[80 - i] == b'.' { b'9' } else { c[80 - i] };
            format!("{},\"x,{i}\"", String::from_utf8(c).unwrap())
        })
        .collect();
    std::fs::write(&csv, format!("puzzle,note\n{}\n", rows.join("\n"))).unwrap();
    let d = dir.path().join("parts");
    sb([
        "split", "-q", "--by", "exact", "--test", "0.3", "--blank", "0",
    ])
    .arg(&csv)
    .arg("--output-dir")
    .arg(&d)
    .ok();
    let mut all = vec![];
    for p in ["train", "test"] {
        let l = lines(&d.join(format!("{p}.csv")));
        assert_eq!(l[0], "puzzle,note");
        all.extend(l[1..].to_vec());
    }
    let mut want: Vec<String> = rows.iter().map(|r| r.replace('.', "0")).collect();
    all.sort();
    want.sort();
    assert_eq!(all, want);
    // Grids and pencilmarks are refused, with the way to normalise them.
    let o = sb(["dedupe", "-q", "--blank", "0"])
        .arg(data("pencilmark_tdoku.txt"))
        .code(2);
    assert!(o.stderr().contains("--blank"), "{}", o.stderr());
}

#[test]
fn blank_rewrites_the_puzzle_column_of_parquet_and_arrow_tables() {
    use crate::columnar::shared::*;
    use arrow_array::{Array, ArrayRef, Int64Array, StringArray};
    use std::sync::Arc;
    // Rows of mixed blanks, a copy (dropped by dedupe), a null and a bad
    // puzzle (kept as they are), an id column that must not change.
    let bases = bases(6);
    let recs = records(&bases, 0..6, 30, 51);
    let mut puzzles: Vec<Option<String>> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| Some(line_of(i, r)))
        .collect();
    puzzles[7] = None;
    puzzles[11] = Some("not a puzzle".to_string());
    let ids: Vec<i64> = (0..puzzles.len() as i64).map(|i| 1000 + i).collect();
    let table = batch(vec![
        ("id", Arc::new(Int64Array::from(ids.clone())) as ArrayRef),
        (
            "puzzle",
            Arc::new(StringArray::from(puzzles.clone())) as ArrayRef,
        ),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("t.parquet");
    write_parquet_default(&pq, &table);
    let arrow = dir.path().join("t.arrow");
    write_arrow(&arrow, &table);
    // Each kept row: its id, and its puzzle with '.' where a blank was.
    let want = |id: i64| -> Option<String> {
        let p = puzzles[(id - 1000) as usize].clone()?;
        Some(if p.len() == 81 {
            p.replace('0', ".")
        } else {
            p
        })
    };
    for (input, ext) in [(&pq, "parquet"), (&arrow, "arrow")] {
        let out = dir.path().join(format!("d.{ext}"));
        // The bad row and the null make exit status 1; the output is whole.
        sb(["dedupe", "-q", "--by", "exact", "--blank", "."])
            .arg(input)
            .arg("-o")
            .arg(&out)
            .code(1);
        let got = if ext == "parquet" {
            read_parquet(&out)
        } else {
            read_arrow(&out)
        };
        let id = got.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
        let p = strings(got.column(1));
        // Exact copies dropped (the first kept), counted here.
        let mut seen = HashSet::new();
        let kept: Vec<i64> = ids
            .iter()
            .copied()
            .filter(|&i| match &puzzles[(i - 1000) as usize] {
                Some(s) if s.len() == 81 => seen.insert(s.replace('0', ".")),
                _ => true,
            })
            .collect();
        assert_eq!(id.values().to_vec(), kept, "{ext}: the kept rows, in order");
        for (k, &i) in kept.iter().enumerate() {
            assert_eq!(p[k], want(i), "{ext}: row of id {i}");
        }
        // split: the parts hold every row once, each rewritten.
        let parts = dir.path().join(format!("parts-{ext}"));
        sb(["split", "-q", "--test", "0.3", "--blank", "0"])
            .arg(input)
            .arg("--output-dir")
            .arg(&parts)
            .code(1);
        let mut all: Vec<(i64, Option<String>)> = Vec::new();
        for part in ["train", "test"] {
            let path = parts.join(format!("{part}.{ext}"));
            let b = if ext == "parquet" {
                read_parquet(&path)
            } else {
                read_arrow(&path)
            };
            let id = b.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
            let p = strings(b.column(1));
            all.extend(id.values().iter().copied().zip(p));
        }
        all.sort();
        let expect: Vec<(i64, Option<String>)> = ids
            .iter()
            .map(|&i| {
                let p = puzzles[(i - 1000) as usize].clone();
                (
                    i,
                    p.map(|p| {
                        if p.len() == 81 {
                            p.replace('.', "0")
                        } else {
                            p
                        }
                    }),
                )
            })
            .collect();
        assert_eq!(all, expect, "{ext}: split's parts");
    }
    // A list<uint8> puzzle column has no blank symbol: refused, nothing
    // written.
    let lists = batch(vec![(
        "puzzle",
        u8_lists(&recs.iter().map(|r| r.cells.clone()).collect::<Vec<_>>()),
    )]);
    let lq = dir.path().join("l.parquet");
    write_parquet_default(&lq, &lists);
    let out = dir.path().join("l.out.parquet");
    let err = sb(["dedupe", "-q", "--blank", "0"])
        .arg(&lq)
        .arg("-o")
        .arg(&out)
        .code(2)
        .stderr();
    assert!(err.contains("--blank rewrites string puzzles"), "{err}");
    assert!(!out.exists());
}

#[test]
fn compression_names_the_codec_of_dedupe_split_and_augment_tables() {
    use crate::columnar::shared::*;
    use arrow_array::{ArrayRef, StringArray};
    use parquet::basic::Compression;
    use std::sync::Arc;
    let bases = bases(6);
    let recs = records(&bases, 0..6, 40, 61);
    let puzzles: Vec<String> = recs
        .iter()
        .enumerate()
        .map(|(i, r)| line_of(i, r))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("c.parquet");
    // Snappy in, as pyarrow writes by default.
    write_puzzles(&input, StringArray::from(puzzles.clone()), 1000);
    assert_eq!(parquet_layout(&input).1, Compression::SNAPPY);
    let out = dir.path().join("d.parquet");
    sb(["dedupe", "-q", "--compression", "zstd"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .ok();
    assert!(matches!(parquet_layout(&out).1, Compression::ZSTD(_)));
    // Without it the input's codec is kept.
    let same = dir.path().join("s.parquet");
    sb(["dedupe", "-q"]).arg(&input).arg("-o").arg(&same).ok();
    assert_eq!(parquet_layout(&same).1, Compression::SNAPPY);
    // The rows are the same either way.
    assert_eq!(
        strings(read_parquet(&out).column(0)),
        strings(read_parquet(&same).column(0))
    );
    let parts = dir.path().join("parts");
    sb(["split", "-q", "--test", "0.3", "--compression", "none"])
        .arg(&input)
        .arg("--output-dir")
        .arg(&parts)
        .ok();
    for p in ["train", "test"] {
        let path = parts.join(format!("{p}.parquet"));
        assert_eq!(parquet_layout(&path).1, Compression::UNCOMPRESSED, "{p}");
    }
    let aug = dir.path().join("a.parquet");
    sb(["augment", "-q", "-n", "2", "--compression", "gzip"])
        .arg(&input)
        .arg("-o")
        .arg(&aug)
        .ok();
    assert!(matches!(parquet_layout(&aug).1, Compression::GZIP(_)));
    assert_eq!(read_parquet(&aug).num_rows(), 2 * puzzles.len());
    // Text inputs and codecs Arrow lacks are refused before any work.
    let text = dir.path().join("c.txt");
    write_lines(&text, &recs);
    let t_out = dir.path().join("t.out.txt");
    let err = sb(["dedupe", "-q", "--compression", "zstd"])
        .arg(&text)
        .arg("-o")
        .arg(&t_out)
        .code(2)
        .stderr();
    assert!(
        err.contains("applies to Parquet and Arrow outputs"),
        "{err}"
    );
    assert!(!t_out.exists());
    let arrow = dir.path().join("c.arrow");
    write_arrow(
        &arrow,
        &batch(vec![(
            "puzzle",
            Arc::new(StringArray::from(puzzles)) as ArrayRef,
        )]),
    );
    let err = sb(["augment", "-q", "--compression", "snappy"])
        .arg(&arrow)
        .arg("-o")
        .arg(dir.path().join("x.arrow"))
        .code(2)
        .stderr();
    assert!(err.contains("zstd or lz4"), "{err}");
}
