//! `sudoku-bulk rate`: serate's numbers for real puzzles in each layout,
//! bad records marked, technique subsets, and `--steps` paths from every
//! input `rate` takes, each replayed to the solution by a checker of this
//! file's own.

use crate::util::{assert_valid, cells, sb, temp_file};

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
    let o = sb(["rate", "-j", "2"]).stdin(&input).ok();
    let want: String = fx.iter().map(|(p, r)| format!("{p} {r}\n")).collect();
    assert_eq!(o.stdout(), want);
}

#[test]
fn csv_gets_er_ep_ed_columns_and_an_existing_one_is_refused() {
    let fx = easy();
    let mut csv = String::from("id,puzzle\n");
    for (i, (p, _)) in fx.iter().take(5).enumerate() {
        csv += &format!("{i},{p}\n");
    }
    let (_dir, path) = temp_file("in.csv", csv.as_bytes());
    let o = sb(["rate"]).arg(&path).ok();
    let mut want = String::from("id,puzzle,er,ep,ed,rate_status\n");
    for (i, (p, r)) in fx.iter().take(5).enumerate() {
        want += &format!("{i},{p},{},ok\n", r.replace('/', ","));
    }
    assert_eq!(o.stdout(), want);

    // Its own output again: the `er` column holds values from row 1.
    let (_dir2, rated) = temp_file("rated.csv", want.as_bytes());
    let o = sb(["rate"]).arg(&rated).code(2);
    let er = fx[0].1.split('/').next().unwrap();
    assert!(
        o.stderr().contains(&format!(
            "rated.csv:2 (row 1): column \"er\" already holds a value (\"{er}\")"
        )),
        "{}",
        o.stderr()
    );
}

#[test]
fn puzzles_without_one_solution_are_marked() {
    let (p, r) = &easy()[0];
    let empty = ".".repeat(81);
    let input = format!("{empty}\n{p}\n");
    let o = sb(["rate"]).stdin(&input).code(1);
    assert_eq!(o.stdout(), format!("error: multiple solutions\n{p} {r}\n"));
    assert!(
        o.stderr().contains("<stdin>:1: multiple solutions"),
        "{}",
        o.stderr()
    );
}

#[test]
fn a_technique_subset_leaves_harder_puzzles_unrated() {
    // Singles only: a puzzle serate rates above 2.3 cannot be finished.
    let (p, _) = serate()
        .into_iter()
        .find(|(_, r)| r.starts_with("2.6"))
        .unwrap();
    let o = sb(["rate", "--techniques", "HiddenSingle,NakedSingle"])
        .stdin(format!("{p}\n"))
        .ok();
    assert!(
        o.stdout().starts_with(&format!("{p} unrated/")),
        "{}",
        o.stdout()
    );
    let o = sb(["rate", "--techniques", "Guessing"]).code(2);
    assert!(o.stderr().contains("unknown technique"), "{}", o.stderr());
    let o = sb(["rate", "--techniques", "list"]).output();
    assert!(o
        .stdout()
        .contains("TurbotFish\tScraper, Kite, Turbot\tyes"));
}

#[test]
fn steps_lines_place_every_blank_once() {
    let fx = easy();
    let input: String = fx.iter().take(10).map(|(p, _)| format!("{p}\n")).collect();
    let (dir, path) = temp_file("in.txt", input.as_bytes());
    let steps = dir.path().join("steps.jsonl");
    sb(["rate"]).arg(&path).arg("--steps").arg(&steps).ok();
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
    let o = sb(["rate"])
        .arg(&path)
        .note("refused without --overwrite")
        .code(2);
    assert!(
        o.stderr()
            .contains("rated.csv:2 (row 1): column \"er\" already holds a value (\"old\")"),
        "{}",
        o.stderr()
    );

    let o = sb(["rate", "--overwrite"]).arg(&path).ok();
    let mut want = String::from("id,ER,puzzle,\"note\",ep,ed,rate_status\n");
    for (i, (p, r)) in fx.iter().take(4).enumerate() {
        let v: Vec<&str> = r.split('/').collect();
        let (er, ep, ed) = (v[0], v[1], v[2]);
        match i {
            1 => want += &format!("{i},{er},{p},\"a, b\",{ep},{ed},ok\n"),
            3 => want += &format!("{i},{er},{p},x,{ep},{ed},ok\n"),
            _ => want += &format!("{i},{er},{p},note {i},{ep},{ed},ok\n"),
        }
    }
    assert_eq!(o.stdout(), want);

    // Only `er` present: it is replaced, `ep`, `ed` and `rate_status`
    // added; a bad row gets empty numbers and its reason as the status.
    let (p, r) = &fx[0];
    let tsv = format!("er\tpuzzle\nx\t{p}\nx\t{}\n", ".".repeat(81));
    let (_dir, path) = temp_file("part.tsv", tsv.as_bytes());
    let o = sb(["rate", "--overwrite"]).arg(&path).code(1);
    let v: Vec<&str> = r.split('/').collect();
    assert_eq!(
        o.stdout(),
        format!(
            "er\tpuzzle\tep\ted\trate_status\n{}\t{p}\t{}\t{}\tok\n\t{}\t\t\tmultiple solutions\n",
            v[0],
            v[1],
            v[2],
            ".".repeat(81)
        )
    );

    // A table without the columns: --overwrite adds them as without it.
    let (_dir, path) = temp_file("plain.csv", format!("puzzle\n{p}\n").as_bytes());
    let o = sb(["rate", "--overwrite"]).arg(&path).ok();
    assert_eq!(
        o.stdout(),
        format!("puzzle,er,ep,ed,rate_status\n{p},{},ok\n", v.join(","))
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
    let o = sb(["rate"]).arg(&input).arg("-o").arg(&out).code(2);
    assert!(
        o.stderr()
            .contains("in.parquet:row 1: column \"er\" already holds a value (0)"),
        "{}",
        o.stderr()
    );
    assert!(!out.exists(), "no output kept");
    sb(["rate"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--overwrite")
        .ok();

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
    assert_eq!(names, ["ed", "puzzle", "id", "er", "ep", "rate_status"]);
    assert_eq!(
        r.column(2).as_ref(),
        ids.as_ref(),
        "other columns untouched"
    );
    let col = |k: usize| -> Vec<f64> {
        r.column(k)
            .as_primitive::<arrow_array::types::Float64Type>()
            .iter()
            .map(|v| v.unwrap())
            .collect()
    };
    let want = |k: usize| -> Vec<f64> {
        fx.iter()
            .map(|(_, rt)| rt.split('/').nth(k).unwrap().parse().unwrap())
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
    let o = sb(args).ok();
    assert!(
        o.stderr()
            .contains("candidates generated and rated for 30 puzzles"),
        "{}",
        o.stderr()
    );
    let text = o.stdout();
    let puzzles: Vec<&str> = text.lines().collect();
    assert_eq!(puzzles.len(), 30);
    let distinct: std::collections::HashSet<&&str> = puzzles.iter().collect();
    assert_eq!(distinct.len(), 30);
    // The thread count does not change the output.
    let mut two = args.to_vec();
    two[8] = "2";
    assert_eq!(sb(two).output().stdout(), text);
    // Each is unique (count says 1) and rates inside the band.
    let o = sb(["count"]).stdin(&text).output();
    assert_eq!(o.stdout(), "1\n".repeat(30));
    let o = sb(["rate"]).stdin(&text).ok();
    for (line, p) in o.stdout().lines().zip(&puzzles) {
        let (puzzle, r) = line.split_once(' ').unwrap();
        assert_eq!(puzzle, *p);
        let er: f64 = r.split('/').next().unwrap().parse().unwrap();
        assert!((3.0..=4.4).contains(&er), "{line}");
    }
}

#[test]
fn generate_rating_malformed_or_not_9x9_is_refused() {
    let o = sb(["generate", "-n", "1", "--rating", "4.4..2.0"]).code(2);
    assert!(o.stderr().contains("MIN..MAX"), "{}", o.stderr());
    let o = sb([
        "generate", "-n", "1", "--size", "16", "--rating", "2.0..3.0",
    ])
    .code(2);
    assert!(o.stderr().contains("9x9"), "{}", o.stderr());
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
    let o = sb(["rate"]).arg(&path).arg("--steps").arg(&steps).ok();
    let want: String = fx.iter().map(|(p, r)| format!("{p} {r}\n")).collect();
    assert_eq!(o.stdout(), want);
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

/// A JSON value, as the `--steps` lines are read back here (a parser of
/// this file's own, so the lines are checked to be JSON too).
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parses one whole JSON text (panics on anything else).
    fn parse(text: &str) -> Json {
        let b = text.as_bytes();
        let mut at = 0;
        let v = Json::value(b, &mut at);
        Json::space(b, &mut at);
        assert_eq!(at, b.len(), "trailing text after the JSON value: {text}");
        v
    }

    fn space(b: &[u8], at: &mut usize) {
        while *at < b.len() && b" \t\r\n".contains(&b[*at]) {
            *at += 1;
        }
    }

    fn value(b: &[u8], at: &mut usize) -> Json {
        Json::space(b, at);
        let rest = &b[*at..];
        let word = |w: &str, v: Json, at: &mut usize| {
            assert!(rest.starts_with(w.as_bytes()), "bad JSON at {at}");
            *at += w.len();
            v
        };
        match rest.first().copied() {
            Some(b'n') => word("null", Json::Null, at),
            Some(b't') => word("true", Json::Bool(true), at),
            Some(b'f') => word("false", Json::Bool(false), at),
            Some(b'"') => Json::Str(Json::string(b, at)),
            Some(b'[') => {
                *at += 1;
                let mut items = Vec::new();
                Json::space(b, at);
                if b[*at] == b']' {
                    *at += 1;
                    return Json::List(items);
                }
                loop {
                    items.push(Json::value(b, at));
                    Json::space(b, at);
                    *at += 1;
                    match b[*at - 1] {
                        b',' => {}
                        b']' => return Json::List(items),
                        c => panic!("bad JSON list at {at}: {:?}", c as char),
                    }
                }
            }
            Some(b'{') => {
                *at += 1;
                let mut fields = Vec::new();
                Json::space(b, at);
                if b[*at] == b'}' {
                    *at += 1;
                    return Json::Object(fields);
                }
                loop {
                    Json::space(b, at);
                    let key = Json::string(b, at);
                    Json::space(b, at);
                    assert_eq!(b[*at], b':', "bad JSON object at {at}");
                    *at += 1;
                    fields.push((key, Json::value(b, at)));
                    Json::space(b, at);
                    *at += 1;
                    match b[*at - 1] {
                        b',' => {}
                        b'}' => return Json::Object(fields),
                        c => panic!("bad JSON object at {at}: {:?}", c as char),
                    }
                }
            }
            _ => {
                let end = rest
                    .iter()
                    .position(|c| !b"+-.eE0123456789".contains(c))
                    .unwrap_or(rest.len());
                let n = std::str::from_utf8(&rest[..end]).unwrap();
                *at += end;
                Json::Num(
                    n.parse()
                        .unwrap_or_else(|_| panic!("bad JSON number {n:?}")),
                )
            }
        }
    }

    fn string(b: &[u8], at: &mut usize) -> String {
        assert_eq!(b[*at], b'"', "a JSON string expected at {at}");
        *at += 1;
        let mut out = Vec::new();
        loop {
            let c = b[*at];
            *at += 1;
            match c {
                b'"' => return String::from_utf8(out).unwrap(),
                b'\\' => {
                    let e = b[*at];
                    *at += 1;
                    match e {
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let hex = std::str::from_utf8(&b[*at..*at + 4]).unwrap();
                            *at += 4;
                            let ch = char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap();
                            out.extend_from_slice(ch.to_string().as_bytes());
                        }
                        _ => panic!("bad JSON escape \\{}", e as char),
                    }
                }
                c => {
                    assert!(c >= 0x20, "a raw control byte in a JSON string");
                    out.push(c);
                }
            }
        }
    }

    /// The value of field `key` of an object (panics when absent).
    fn get(&self, key: &str) -> &Json {
        let Json::Object(fields) = self else {
            panic!("not an object: {self:?}")
        };
        &fields
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("no field {key:?} in {self:?}"))
            .1
    }

    /// The value of `key`, if the object has it.
    fn field(&self, key: &str) -> Option<&Json> {
        let Json::Object(fields) = self else {
            panic!("not an object: {self:?}")
        };
        fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    fn list(&self) -> &[Json] {
        match self {
            Json::List(v) => v,
            other => panic!("not a list: {other:?}"),
        }
    }
}

/// The 20 cells that share a row, column or box with cell `i`.
fn peers(i: usize) -> Vec<usize> {
    (0..81)
        .filter(|&j| {
            j != i
                && (j / 9 == i / 9
                    || j % 9 == i % 9
                    || (j / 27 == i / 27 && j % 9 / 3 == i % 9 / 3))
        })
        .collect()
}

/// The candidates of each cell of `values` (bit `d - 1` for digit `d`;
/// none for a filled cell).
fn candidates(values: &[u8]) -> Vec<u16> {
    (0..81)
        .map(|i| {
            if values[i] != 0 {
                return 0;
            }
            peers(i).iter().fold(0x1ff, |m, &j| {
                if values[j] == 0 {
                    m
                } else {
                    m & !(1 << (values[j] - 1))
                }
            })
        })
        .collect()
}

/// Every solution of a 9x9 puzzle, up to `limit`, by a plain backtracking
/// search on the cell with the fewest candidates (the digits its row,
/// column and box do not hold yet): the test's own reference, not the
/// program's solver.
fn brute_force(values: &mut [u8], limit: usize, found: &mut Vec<Vec<u8>>) {
    // Digits used per row, column and box, as bit masks.
    let mut used = [[0u16; 9]; 3];
    let units = |i: usize| [i / 9, i % 9, i / 27 * 3 + i % 9 / 3];
    for (i, &v) in values.iter().enumerate() {
        if v != 0 {
            for (k, u) in units(i).into_iter().enumerate() {
                used[k][u] |= 1 << (v - 1);
            }
        }
    }
    fn search(
        values: &mut [u8],
        used: &mut [[u16; 9]; 3],
        units: &dyn Fn(usize) -> [usize; 3],
        limit: usize,
        found: &mut Vec<Vec<u8>>,
    ) {
        if found.len() >= limit {
            return;
        }
        let free = |used: &[[u16; 9]; 3], i: usize| {
            let [r, c, b] = units(i);
            !(used[0][r] | used[1][c] | used[2][b]) & 0x1ff
        };
        let Some(cell) = (0..81)
            .filter(|&i| values[i] == 0)
            .min_by_key(|&i| free(used, i).count_ones())
        else {
            found.push(values.to_vec());
            return;
        };
        let can = free(used, cell);
        let [r, c, b] = units(cell);
        for d in 1..=9u8 {
            let bit = 1 << (d - 1);
            if can & bit != 0 {
                values[cell] = d;
                (used[0][r], used[1][c], used[2][b]) =
                    (used[0][r] | bit, used[1][c] | bit, used[2][b] | bit);
                search(values, used, units, limit, found);
                (used[0][r], used[1][c], used[2][b]) =
                    (used[0][r] & !bit, used[1][c] & !bit, used[2][b] & !bit);
                values[cell] = 0;
            }
        }
    }
    search(values, &mut used, &units, limit, found);
}

/// `r4c7` as a cell index.
fn cell_of(name: &str) -> usize {
    let b = name.as_bytes();
    assert!(
        b.len() == 4 && b[0] == b'r' && b[2] == b'c',
        "cell name {name:?}"
    );
    ((b[1] - b'1') * 9 + (b[3] - b'1')) as usize
}

/// Plays `path`'s steps on `puzzle` (a one-line 9x9 puzzle): each removal
/// takes away a candidate that is there and is not `solution`'s digit,
/// each placement puts `solution`'s digit where it is still a candidate
/// (the only one for a naked single). Returns the grid at the end and the
/// highest step rating, the first and the highest up to the first
/// placement, in tenths.
fn replay(puzzle: &str, solution: &[u8], path: &Json) -> (Vec<u8>, [u32; 3]) {
    let mut values = cells(puzzle, ".0", "123456789");
    let mut cand = candidates(&values);
    let (mut er, mut ep, mut ed, mut placed) = (0, 0, 0, false);
    for (k, step) in path.get("steps").list().iter().enumerate() {
        let r: f64 = step.get("rating").str().parse().unwrap();
        let r = (r * 10.0).round() as u32;
        er = er.max(r);
        if k == 0 {
            ed = r;
        }
        check_inner(step, r, &values, &cand);
        let eliminated = step.get("eliminated").list();
        let place = step.get("placed");
        assert!(
            !eliminated.is_empty() || *place != Json::Null,
            "a step that does nothing: {step:?}"
        );
        for e in eliminated {
            let c = cell_of(e.get("cell").str());
            let Json::Num(d) = e.get("digit") else {
                panic!("digit {e:?}")
            };
            let d = *d as u8;
            assert!(values[c] == 0 && cand[c] >> (d - 1) & 1 == 1, "{step:?}");
            assert_ne!(solution[c], d, "removed the solution's digit: {step:?}");
            cand[c] &= !(1 << (d - 1));
        }
        if *place != Json::Null {
            let c = cell_of(place.get("cell").str());
            let Json::Num(d) = place.get("digit") else {
                panic!("digit {place:?}")
            };
            let d = *d as u8;
            assert!(values[c] == 0 && cand[c] >> (d - 1) & 1 == 1, "{step:?}");
            assert_eq!(solution[c], d, "placed a wrong digit: {step:?}");
            if step.get("id").str() == "NakedSingle" {
                assert_eq!(cand[c], 1 << (d - 1), "not a naked single: {step:?}");
            }
            values[c] = d;
            cand[c] = 0;
            for j in peers(c) {
                cand[j] &= !(1 << (d - 1));
            }
            if !placed {
                ep = er;
                placed = true;
            }
        }
    }
    (values, [er, ep, ed])
}

/// A Nested Forcing Chains step names the chains nested in its chains
/// (`"inner"`), and no other step has any. Each ran on the working grid of
/// a net started on this step's grid, so what it removes is a candidate
/// here and its cells are empty here; it rates below the step it is in.
fn check_inner(step: &Json, rating: u32, values: &[u8], cand: &[u16]) {
    let inner = step.field("inner");
    if step.get("id").str() != "NestedForcingChain" {
        assert!(
            inner.is_none(),
            "only nested chains have inner chains: {step:?}"
        );
        return;
    }
    let inner = inner
        .unwrap_or_else(|| panic!("a nested step names its inner chains: {step:?}"))
        .list();
    assert!(!inner.is_empty(), "{step:?}");
    for chain in inner {
        let id = chain.get("id").str();
        assert!(
            [
                "ForcingChainCycle",
                "MultipleForcingChain",
                "DynamicForcingChain",
                "DynamicForcingChainPlus",
                "NestedForcingChain"
            ]
            .contains(&id),
            "{chain:?}"
        );
        let r = (chain.get("rating").str().parse::<f64>().unwrap() * 10.0).round() as u32;
        assert!(r < rating, "an inner chain rates below its step: {step:?}");
        let eliminated = chain.get("eliminated").list();
        assert!(!eliminated.is_empty(), "{chain:?}");
        for e in eliminated {
            let c = cell_of(e.get("cell").str());
            let Json::Num(d) = e.get("digit") else {
                panic!("digit {e:?}")
            };
            let d = *d as u8;
            assert!(values[c] == 0 && cand[c] >> (d - 1) & 1 == 1, "{chain:?}");
        }
        if let Some(cells) = chain.field("cells") {
            assert_eq!(id, "ForcingChainCycle", "{chain:?}");
            for name in cells.list() {
                assert_eq!(values[cell_of(name.str())], 0, "{chain:?}");
            }
        }
    }
}

/// A rating field (`"4.2"`) in tenths, or `None` for null.
fn tenths(v: &Json) -> Option<u32> {
    match v {
        Json::Null => None,
        v => Some((v.str().parse::<f64>().unwrap() * 10.0).round() as u32),
    }
}

/// Puzzles for the steps tests: every 7th fixture and every one serate
/// rates above 6.1 (where the rater's techniques end, some are unrated),
/// in file order.
fn steps_set() -> Vec<(String, String)> {
    let all = serate();
    let er = |r: &str| r.split('/').next().unwrap().parse::<f64>().unwrap();
    all.iter()
        .enumerate()
        .filter(|(i, (_, r))| i % 7 == 0 || er(r) > 6.1)
        .map(|(_, f)| f.clone())
        .collect()
}

/// Checks the steps file `text` against `records`: one line per record,
/// in order; a puzzle's line names it, replays from its givens (the
/// brute-force solution as reference) and, when rated, ends at the
/// solution with serate's ER/EP/ED; a bad record's line says why.
fn check_steps(text: &str, records: &[Record]) {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), records.len(), "one line per record:\n{text}");
    for (line, record) in lines.iter().zip(records) {
        let path = Json::parse(line);
        let status = path.get("status").str();
        match record {
            Record::Puzzle(p, r) => {
                assert_eq!(path.get("puzzle").str(), p, "{line}");
                let mut grid = cells(p, ".0", "123456789");
                let mut found = Vec::new();
                brute_force(&mut grid, 2, &mut found);
                assert_eq!(found.len(), 1, "{p} has one solution");
                let solution = &found[0];
                assert_valid(3, &cells(p, ".0", "123456789"), solution);
                let (end, [er, ep, ed]) = replay(p, solution, &path);
                let want: Vec<u32> = r
                    .split('/')
                    .map(|x| (x.parse::<f64>().unwrap() * 10.0).round() as u32)
                    .collect();
                if status == "rated" {
                    assert_eq!(&end, solution, "the path ends at the solution: {line}");
                    assert_eq!(vec![er, ep, ed], want, "serate's numbers: {line}");
                    assert_eq!(tenths(path.get("er")), Some(er), "{line}");
                    assert_eq!(tenths(path.get("ep")), Some(ep), "{line}");
                    assert_eq!(tenths(path.get("ed")), Some(ed), "{line}");
                } else {
                    // Unrated: the path stops before the technique serate's
                    // harder step needs; what it did is still sound.
                    assert_eq!(status, "unrated", "{line}");
                    assert!(want[0] > 61, "serate rates it {r}: {line}");
                    assert_eq!(*path.get("er"), Json::Null, "{line}");
                    assert!(end.contains(&0), "{line}");
                    assert!(matches!(path.get("next"), Json::Str(_)), "{line}");
                }
            }
            Record::Bad(status_want, puzzle) => {
                assert_eq!(status, *status_want, "{line}");
                match puzzle {
                    Some(p) => assert_eq!(path.get("puzzle").str(), p, "{line}"),
                    None => assert_eq!(*path.get("puzzle"), Json::Null, "{line}"),
                }
                if status == "error" {
                    assert!(!path.get("error").str().is_empty(), "{line}");
                }
                assert!(path.get("steps").list().is_empty(), "{line}");
            }
        }
    }
}

/// One record of a steps test's input.
enum Record {
    /// A puzzle and serate's `ER/EP/ED`.
    Puzzle(String, String),
    /// A bad record: the status its line gives, and the puzzle it names.
    Bad(&'static str, Option<String>),
}

/// The steps test's records: the fixture puzzles with three bad records
/// among them (several solutions, none, too short), and their text for a
/// one-puzzle-per-line input.
fn steps_records() -> Vec<(Record, String)> {
    let mut out: Vec<(Record, String)> = steps_set()
        .into_iter()
        .map(|(p, r)| (Record::Puzzle(p.clone(), r), p))
        .collect();
    let empty = ".".repeat(81);
    let clash = format!("11{}", ".".repeat(79));
    out.insert(
        3,
        (
            Record::Bad("multiple solutions", Some(empty.clone())),
            empty,
        ),
    );
    // Clashing givens are a malformed record, named as `solve` names them.
    out.insert(7, (Record::Bad("error", Some(clash.clone())), clash));
    out.insert(11, (Record::Bad("error", None), "123456789".to_string()));
    out
}

#[test]
fn steps_from_stdin_files_csv_and_compressed_input_replay_to_the_solution() {
    let records = steps_records();
    let list: Vec<Record> = records.iter().map(|(r, _)| r.clone_record()).collect();
    assert!(list.len() >= 40);
    let text: String = records.iter().map(|(_, t)| format!("{t}\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();

    // Standard input, on two threads in small chunks (order across chunks).
    let steps = dir.path().join("stdin.jsonl");
    let o = sb(["rate", "-j", "2", "--chunk-size", "1K", "--steps"])
        .arg(&steps)
        .stdin(&text)
        .code(1);
    assert_eq!(o.stdout().lines().count(), list.len(), "{o}");
    let stdin_steps = read("stdin.jsonl");
    check_steps(&stdin_steps, &list);

    // The same puzzles as a file, and gzip-compressed: the same lines.
    let plain = dir.path().join("in.txt");
    std::fs::write(&plain, &text).unwrap();
    sb(["rate", "-o", "/dev/null", "--steps"])
        .arg(dir.path().join("file.jsonl"))
        .arg(&plain)
        .code(1);
    same_lines(&read("file.jsonl"), &stdin_steps);
    let gz = dir.path().join("in.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, text.as_bytes()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    sb(["rate", "-o", "/dev/null", "--steps"])
        .arg(dir.path().join("gz.jsonl.gz"))
        .arg(&gz)
        .code(1);
    // `--steps NAME.gz` is compressed as its name says.
    let mut unzipped = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(
            std::fs::File::open(dir.path().join("gz.jsonl.gz")).unwrap(),
        ),
        &mut unzipped,
    )
    .unwrap();
    same_lines(&unzipped, &stdin_steps);

    // CSV with an id column and a quoted field: line N is row N.
    let mut csv = String::from("id,note,puzzle\n");
    for (i, (_, t)) in records.iter().enumerate() {
        csv += &format!("{i},\"a, {i}\",{t}\n");
    }
    let path = dir.path().join("in.csv");
    std::fs::write(&path, &csv).unwrap();
    let out = dir.path().join("out.csv");
    sb(["rate", "--steps"])
        .arg(dir.path().join("csv.jsonl"))
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .code(1);
    same_lines(&read("csv.jsonl"), &stdin_steps);
    assert_eq!(read("out.csv").lines().count(), list.len() + 1);
}

#[test]
fn steps_are_never_left_half_written() {
    let records = steps_records();
    let text: String = records.iter().map(|(_, t)| format!("{t}\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, &text).unwrap();
    let steps = dir.path().join("steps.jsonl");
    let out = dir.path().join("out.txt");
    // --on-error fail stops at the first bad record: neither file is made.
    let o = sb(["rate", "--on-error", "fail", "--steps"])
        .arg(&steps)
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .code(1);
    assert!(o.stderr().contains("multiple solutions"), "{o}");
    assert_eq!(dir_names(dir.path()), ["in.txt"]);
    // Refused before any work: the steps over the input, or beside the
    // answers on stdout, or into the answers' file.
    let o = sb(["rate", "--steps"]).arg(&input).arg(&input).code(2);
    assert!(
        o.stderr()
            .contains("refusing to write the steps over the input"),
        "{o}"
    );
    let o = sb(["rate", "--steps", "-"]).arg(&input).code(2);
    assert!(o.stderr().contains("both go to standard output"), "{o}");
    let o = sb(["rate", "--steps"])
        .arg(&out)
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .code(2);
    assert!(o.stderr().contains("the same file"), "{o}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
    assert_eq!(dir_names(dir.path()), ["in.txt"]);
}

#[cfg(unix)]
#[test]
fn ctrl_c_leaves_no_steps_file() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps.jsonl");
    let out = dir.path().join("out.txt");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bulk"))
        .arg("rate")
        .arg("--steps")
        .arg(&steps)
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Some input, and the input stays open: the run is under way, both
    // temporary files exist.
    let mut stdin = child.stdin.take().unwrap();
    for (p, _) in easy().iter().take(5) {
        writeln!(stdin, "{p}").unwrap();
    }
    stdin.flush().unwrap();
    let start = std::time::Instant::now();
    while dir_names(dir.path())
        .iter()
        .filter(|n| n.ends_with(".tmp"))
        .count()
        < 2
    {
        assert!(
            start.elapsed().as_secs() < 60,
            "{:?}",
            dir_names(dir.path())
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // SAFETY: signalling our own child by its pid.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(dir_names(dir.path()), Vec::<String>::new());
    drop(stdin);
}

#[cfg(feature = "columnar")]
#[test]
fn steps_from_parquet_and_arrow_rows_replay_to_the_solution() {
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;

    let records = steps_records();
    // A null puzzle among the rows: its line is an error too.
    let mut list: Vec<Record> = records.iter().map(|(r, _)| r.clone_record()).collect();
    let mut values: Vec<Option<String>> = records.iter().map(|(_, t)| Some(t.clone())).collect();
    values.insert(5, None);
    list.insert(5, Record::Bad("error", None));
    let n = values.len() as i64;
    let puzzles: ArrayRef = Arc::new(StringArray::from(values));
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..n));
    let batch = RecordBatch::try_from_iter(vec![("id", ids), ("puzzle", puzzles)]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.parquet");
    // Row groups of 7 rows: the rows come in several steps.
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&input).unwrap(), batch.schema(), None).unwrap();
    for first in (0..batch.num_rows()).step_by(7) {
        w.write(&batch.slice(first, 7.min(batch.num_rows() - first)))
            .unwrap();
        w.flush().unwrap();
    }
    w.close().unwrap();
    let steps = dir.path().join("steps.jsonl");
    sb(["rate", "-j", "2", "--steps"])
        .arg(&steps)
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("out.parquet"))
        .code(1);
    let parquet_steps = std::fs::read_to_string(&steps).unwrap();
    check_steps(&parquet_steps, &list);

    // An Arrow IPC stream on standard input: the same lines.
    let mut ipc = Vec::new();
    let mut sw = arrow_ipc::writer::StreamWriter::try_new(&mut ipc, &batch.schema()).unwrap();
    sw.write(&batch).unwrap();
    sw.finish().unwrap();
    drop(sw);
    let steps2 = dir.path().join("steps2.jsonl");
    sb(["rate", "-o", "/dev/null", "--steps"])
        .arg(&steps2)
        .stdin(&ipc)
        .code(1);
    // (The null row's reason names the format it came in.)
    let arrow = std::fs::read_to_string(&steps2).unwrap();
    assert!(arrow.contains("bad Arrow row: no puzzle (null)"), "{arrow}");
    same_lines(
        &arrow.replace("bad Arrow row", "bad Parquet row"),
        &parquet_steps,
    );
}

impl Record {
    fn clone_record(&self) -> Record {
        match self {
            Record::Puzzle(p, r) => Record::Puzzle(p.clone(), r.clone()),
            Record::Bad(s, p) => Record::Bad(s, p.clone()),
        }
    }
}

/// Panics unless `a` and `b` hold the same lines, naming the first that
/// differs (whole files would fill the screen).
#[track_caller]
fn same_lines(a: &str, b: &str) {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x, y, "line {} differs", k + 1);
    }
    assert_eq!(a.len(), b.len(), "line counts");
}

/// The sorted names in `dir`.
fn dir_names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// An already solved grid is rated (no step needed): the numbers of the
/// text output and of its `--steps` line are the same (issue 41: the line
/// had `null` where the text had `0.0`).
#[test]
fn a_solved_grid_has_the_same_numbers_in_text_and_steps() {
    let (p, _) = &easy()[0];
    let solved = sb(["solve"]).stdin(format!("{p}\n")).ok().stdout();
    let grid = solved.trim().to_string();
    assert_valid(
        3,
        &cells(p, ".0", "123456789"),
        &cells(&grid, ".0", "123456789"),
    );
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps.jsonl");
    let o = sb(["rate", "--steps"])
        .arg(&steps)
        .stdin(format!("{grid}\n"))
        .ok();
    let line = o.stdout();
    let (puzzle, numbers) = line.trim().split_once(' ').unwrap();
    assert_eq!(puzzle, grid);
    let text: Vec<u32> = numbers
        .split('/')
        .map(|x| (x.parse::<f64>().unwrap() * 10.0).round() as u32)
        .collect();
    let path = Json::parse(std::fs::read_to_string(&steps).unwrap().trim());
    assert_eq!(path.get("status").str(), "rated");
    let json: Vec<Option<u32>> = ["er", "ep", "ed"]
        .iter()
        .map(|k| tenths(path.get(k)))
        .collect();
    assert_eq!(
        json,
        text.iter().map(|&t| Some(t)).collect::<Vec<_>>(),
        "{line}"
    );
    assert!(path.get("steps").list().is_empty());
}

/// Clashing givens: `rate` reports the record with the reason `solve`
/// gives it (naming the cells), not a bare "no solution" (issue 41).
#[test]
fn clashing_givens_get_the_reason_solve_gives() {
    let (p, _) = &easy()[0];
    let clash = format!("11{}", ".".repeat(79));
    let input = format!("{p}\n{clash}\n");
    let reason = |stderr: String| -> String {
        stderr
            .lines()
            .find_map(|l| {
                l.strip_prefix("sudoku-bulk: <stdin>:2: ")
                    .map(str::to_string)
            })
            .unwrap_or_else(|| panic!("no line for record 2: {stderr}"))
    };
    let solve = reason(sb(["solve"]).stdin(&input).code(1).stderr());
    let rate = sb(["rate"]).stdin(&input).code(1);
    assert_eq!(reason(rate.stderr()), solve);
    assert_eq!(
        rate.stdout().lines().nth(1),
        Some(format!("error: {solve}").as_str())
    );
}

/// `--techniques` naming no technique would leave every puzzle unrated:
/// refused before any work, nothing written (issue 41).
#[test]
fn techniques_naming_none_are_refused() {
    let (p, _) = &easy()[0];
    for empty in ["", ",", " "] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        let o = sb(["rate", "--techniques", empty, "-o"])
            .arg(&out)
            .stdin(format!("{p}\n"))
            .code(2);
        assert!(o.stdout().is_empty(), "{empty:?}");
        assert!(!out.exists(), "{empty:?}");
    }
}

/// A band no generated puzzle can reach (nothing rates between 1.0 and
/// 1.2, and 1.0 needs 54 clues) is refused before any work: exit 2 at
/// once, no output file (issue 41: it searched for minutes).
#[test]
fn generate_rating_unreachable_band_is_refused_before_work() {
    for band in ["1.0..1.1", "1.1..1.1", "1.0..1.0"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        let start = std::time::Instant::now();
        let o = sb(["generate", "-n", "1", "--rating", band, "-o"])
            .arg(&out)
            .code(2);
        assert!(start.elapsed().as_secs_f64() < 5.0, "{band}");
        assert!(o.stdout().is_empty() && !out.exists(), "{band}");
        assert!(o.stderr().contains(band), "{band}: {}", o.stderr());
    }
    // The lowest reachable band is accepted.
    let o = sb(["generate", "-n", "2", "--seed", "1", "--rating", "1.0..1.2"]).ok();
    assert_eq!(o.stdout().lines().count(), 2);
}

/// Serate's ER/EP/ED of a fixture as numbers.
fn numbers(r: &str) -> Vec<f64> {
    r.split('/').map(|v| v.parse().unwrap()).collect()
}

/// Fixtures for a run with singles only (`--techniques
/// HiddenSingle,NakedSingle`): two serate rates 1.5 (rated the same with
/// singles), and one it rates 2.6/1.5/1.5, whose path needs more than
/// singles: unrated, with serate's EP and ED (its path reached them).
/// Unrated by the technique subset, so whatever the rater gains later.
fn singles_set() -> (Vec<(String, String)>, (String, String)) {
    let fx = serate();
    let rated: Vec<(String, String)> = fx
        .iter()
        .filter(|(_, r)| r.starts_with("1.5/"))
        .take(2)
        .cloned()
        .collect();
    let unrated = fx.into_iter().find(|(_, r)| r == "2.6/1.5/1.5").unwrap();
    (rated, unrated)
}

const SINGLES: &str = "HiddenSingle,NakedSingle";

/// magictour top1465's puzzle serate rates 9.5/1.2/1.2 (docs/rating.md):
/// unrated today (its path needs nested forcing chains), rated once the
/// rater has them; either way EP and ED are serate's.
const TOP_9_5: &str =
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";

#[test]
fn csv_and_tsv_ratings_are_plain_numbers_with_a_rate_status() {
    let (rated, (u, ur)) = singles_set();
    let dots = ".".repeat(81);
    let mut csv = String::from("id,puzzle\n");
    for (i, (p, _)) in rated.iter().enumerate() {
        csv += &format!("{i},{p}\n");
    }
    csv += &format!("2,{u}\n3,{dots}\n4,12x\n");
    let (_dir, path) = temp_file("in.csv", csv.as_bytes());
    let o = sb(["rate", "--techniques", SINGLES]).arg(&path).code(1);
    // The bad rows' reasons as `solve --unique` marks them.
    let solved = sb(["solve", "--unique"]).arg(&path).code(1);
    // (`3,PUZZLE,error: multiple solutions`; solve writes a mark holding
    // a comma unquoted, rate's CSV quotes it.)
    let marks: Vec<String> = solved
        .stdout()
        .lines()
        .skip(4)
        .map(|l| {
            let m = l.splitn(3, ',').nth(2).unwrap().trim_matches('"');
            let m = m.strip_prefix("error: ").unwrap();
            if m.contains(',') {
                format!("\"{m}\"")
            } else {
                m.to_string()
            }
        })
        .collect();
    assert_eq!(marks.len(), 2, "{}", solved.stdout());
    let mut want = String::from("id,puzzle,er,ep,ed,rate_status\n");
    for (i, (p, r)) in rated.iter().enumerate() {
        want += &format!("{i},{p},{},ok\n", r.replace('/', ","));
    }
    let v: Vec<&str> = ur.split('/').collect();
    want += &format!("2,{u},,{},{},unrated\n", v[1], v[2]);
    want += &format!("3,{dots},,,,{}\n4,12x,,,,{}\n", marks[0], marks[1]);
    assert_eq!(o.stdout(), want);
    assert!(want.contains(",,,,multiple solutions\n"), "{want}");
    assert!(
        want.contains(",,,,\"expected 81 cells, found 3\"\n"),
        "{want}"
    );

    // TSV: the same fields, no quotes needed.
    let tsv = csv.replace(',', "\t");
    let (_dir, path) = temp_file("in.tsv", tsv.as_bytes());
    let o = sb(["rate", "--techniques", SINGLES]).arg(&path).code(1);
    let want_tsv = want.replace(',', "\t").replace(
        "\"expected 81 cells\t found 3\"",
        "expected 81 cells, found 3",
    );
    assert_eq!(o.stdout(), want_tsv);

    // Plain text keeps `unrated` in place of a missing number.
    let text = format!("{}\n{u}\n", rated[0].0);
    let o = sb(["rate", "--techniques", SINGLES]).stdin(&text).ok();
    assert_eq!(
        o.stdout(),
        format!(
            "{} {}\n{u} unrated/{}/{}\n",
            rated[0].0, rated[0].1, v[1], v[2]
        )
    );
}

#[test]
fn a_puzzle_beyond_the_rater_is_unrated_or_serates_number_in_every_shape() {
    let o = sb(["rate"]).stdin(format!("{TOP_9_5}\n")).ok();
    let text = o.stdout();
    assert!(
        text == format!("{TOP_9_5} unrated/1.2/1.2\n")
            || text == format!("{TOP_9_5} 9.5/1.2/1.2\n"),
        "{text}"
    );
    let (_dir, path) = temp_file("in.csv", format!("puzzle\n{TOP_9_5}\n").as_bytes());
    let o = sb(["rate"]).arg(&path).ok();
    let row = if text.contains("unrated") {
        format!("{TOP_9_5},,1.2,1.2,unrated\n")
    } else {
        format!("{TOP_9_5},9.5,1.2,1.2,ok\n")
    };
    assert_eq!(o.stdout(), format!("puzzle,er,ep,ed,rate_status\n{row}"));
}

/// Reads every batch of a Parquet or Arrow IPC file, joined.
#[cfg(feature = "columnar")]
fn read_table(path: &std::path::Path) -> arrow_array::RecordBatch {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = std::fs::File::open(path).unwrap();
    let batches: Vec<arrow_array::RecordBatch> = if path.extension().is_some_and(|e| e == "parquet")
    {
        ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap()
            .map(Result::unwrap)
            .collect()
    } else {
        arrow_ipc::reader::FileReader::try_new(file, None)
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap()
}

/// Writes `batch` as Parquet, in row groups of `group` rows.
#[cfg(feature = "columnar")]
fn write_parquet(path: &std::path::Path, batch: &arrow_array::RecordBatch, group: usize) {
    let file = std::fs::File::create(path).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    for first in (0..batch.num_rows()).step_by(group) {
        w.write(&batch.slice(first, group.min(batch.num_rows() - first)))
            .unwrap();
        w.flush().unwrap();
    }
    w.close().unwrap();
}

#[cfg(feature = "columnar")]
#[test]
fn tables_get_nullable_float64_ratings_and_a_rate_status() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Float64Type;
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    use arrow_schema::DataType;
    use std::sync::Arc;

    let (rated, (u, ur)) = singles_set();
    let dots = ".".repeat(81);
    let mut puzzles: Vec<Option<&str>> = rated.iter().map(|(p, _)| Some(p.as_str())).collect();
    puzzles.extend([Some(u.as_str()), Some(dots.as_str()), None]);
    let n = puzzles.len() as i64;
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..n));
    let batch = RecordBatch::try_from_iter(vec![
        ("puzzle", Arc::new(StringArray::from(puzzles)) as ArrayRef),
        ("id", ids.clone()),
    ])
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.parquet");
    write_parquet(&input, &batch, 3);
    for out in ["out.parquet", "out.arrow"] {
        let out = dir.path().join(out);
        let o = sb(["rate", "-j", "2", "--techniques", SINGLES])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .code(1);
        let t = read_table(&out);
        let schema = t.schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names, ["puzzle", "id", "er", "ep", "ed", "rate_status"]);
        for k in 2..5 {
            let f = schema.field(k);
            assert_eq!(f.data_type(), &DataType::Float64, "{}", f.name());
            assert!(f.is_nullable(), "{}", f.name());
        }
        assert_eq!(schema.field(5).data_type(), &DataType::Utf8);
        assert_eq!(t.column(1).as_ref(), ids.as_ref());
        let num = |k: usize| -> Vec<Option<f64>> {
            t.column(k).as_primitive::<Float64Type>().iter().collect()
        };
        let (er, ep, ed) = (num(2), num(3), num(4));
        let status: Vec<Option<&str>> = t.column(5).as_string::<i32>().iter().collect();
        for (i, (_, r)) in rated.iter().enumerate() {
            let want = numbers(r);
            assert_eq!(
                [er[i], ep[i], ed[i]],
                [Some(want[0]), Some(want[1]), Some(want[2])]
            );
            assert_eq!(status[i], Some("ok"));
        }
        let k = rated.len();
        let want = numbers(&ur);
        assert_eq!([er[k], ep[k], ed[k]], [None, Some(want[1]), Some(want[2])]);
        assert_eq!(status[k], Some("unrated"));
        // Bad rows: no numbers, the reason stderr gives.
        for b in [k + 1, k + 2] {
            assert_eq!([er[b], ep[b], ed[b]], [None, None, None], "row {}", b + 1);
        }
        assert_eq!(status[k + 1], Some("multiple solutions"));
        let null = status[k + 2].unwrap();
        assert!(null.ends_with("no puzzle (null)"), "{null}");
        assert!(
            o.stderr()
                .contains(&format!("in.parquet:row {}: {null}", k + 3)),
            "{}",
            o.stderr()
        );
    }
}

#[test]
fn er_column_fills_an_empty_dataset_column_and_refuses_a_held_one() {
    let fx: Vec<(String, String)> = easy().into_iter().take(4).collect();
    let dots = ".".repeat(81);
    // sudoku-extreme's columns: `rating` is tdoku's backtrack count.
    let table = |ratings: [&str; 5]| -> String {
        let mut csv = String::from("question,answer,rating,source\n");
        for (i, (p, _)) in fx.iter().enumerate() {
            csv += &format!("{p},,{},set {i}\n", ratings[i]);
        }
        csv += &format!("{dots},,{},x\n", ratings[4]);
        csv
    };
    let rows = |bad_rating: &str| -> String {
        let mut want = String::from("question,answer,rating,source,ep,ed,rate_status\n");
        for (i, (p, r)) in fx.iter().enumerate() {
            let v: Vec<&str> = r.split('/').collect();
            want += &format!("{p},,{},set {i},{},{},ok\n", v[0], v[1], v[2]);
        }
        want += &format!("{dots},,{bad_rating},x,,,multiple solutions\n");
        want
    };
    // Empty (blank) ratings are filled.
    let (_dir, path) = temp_file("empty.csv", table(["", " ", "", "\"\"", ""]).as_bytes());
    let o = sb(["rate", "--er-column", "rating"]).arg(&path).code(1);
    let want = rows("");
    assert_eq!(o.stdout(), want);

    // A value in row 3 only: refused, naming the file, row, column and
    // value; no output file, no temporary file left.
    let (dir, path) = temp_file("extreme.csv", table(["", "", "7", "", ""]).as_bytes());
    let out = dir.path().join("rated.csv");
    let o = sb(["rate", "-j", "2", "--er-column", "Rating"])
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .code(2);
    assert!(
        o.stderr().contains(
            "extreme.csv:4 (row 3): column \"Rating\" already holds a value (\"7\"), which rate \
             would write over; give --overwrite"
        ),
        "{}",
        o.stderr()
    );
    assert_eq!(dir_names(dir.path()), ["extreme.csv"]);

    // --overwrite replaces every row's value (a bad row's with nothing).
    let (_dir, path) = temp_file("held.csv", table(["12", "0", "7", "3", "99"]).as_bytes());
    let o = sb(["rate", "--er-column", "rating", "--overwrite"])
        .arg(&path)
        .code(1);
    assert_eq!(o.stdout(), want);

    // The puzzle column, or two columns of one name: refused.
    let o = sb(["rate", "--er-column", "question", "--overwrite"])
        .arg(&path)
        .code(2);
    assert!(
        o.stderr().contains("is the puzzle column"),
        "{}",
        o.stderr()
    );
    let o = sb(["rate", "--er-column", "x", "--ed-column", "X"])
        .arg(&path)
        .code(2);
    assert!(o.stderr().contains("two columns named"), "{}", o.stderr());
}

#[cfg(feature = "columnar")]
#[test]
fn er_column_of_a_parquet_dataset_is_refused_when_held_and_replaced_with_overwrite() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Float64Type;
    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    use arrow_schema::DataType;
    use std::sync::Arc;

    let fx: Vec<(String, String)> = easy().into_iter().take(6).collect();
    let puzzles: ArrayRef = Arc::new(StringArray::from_iter_values(fx.iter().map(|(p, _)| p)));
    let source: ArrayRef = Arc::new(StringArray::from_iter_values(fx.iter().map(|_| "s")));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.parquet");
    // Ratings null but for row 5 (of groups of 2 rows: the third group).
    let ratings = |held: Option<i64>| -> ArrayRef {
        Arc::new(Int64Array::from(
            (0..fx.len())
                .map(|i| if i == 4 { held } else { None })
                .collect::<Vec<_>>(),
        ))
    };
    let batch = |held| {
        RecordBatch::try_from_iter(vec![
            ("question", puzzles.clone()),
            ("rating", ratings(held)),
            ("source", source.clone()),
        ])
        .unwrap()
    };
    let held = dir.path().join("held.parquet");
    write_parquet(&held, &batch(Some(5_000)), 2);
    let o = sb(["rate", "--er-column", "rating"])
        .arg(&held)
        .arg("-o")
        .arg(&out)
        .code(2);
    assert!(
        o.stderr().contains(
            "held.parquet:row 5: column \"rating\" already holds a value (5000), which rate \
             would write over"
        ),
        "{}",
        o.stderr()
    );
    assert!(!out.exists());

    let check = |input: &std::path::Path, flags: &[&str]| {
        sb(["rate", "--er-column", "rating"])
            .args(flags)
            .arg(input)
            .arg("-o")
            .arg(&out)
            .ok();
        let t = read_table(&out);
        let names: Vec<String> = t
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        assert_eq!(
            names,
            ["question", "rating", "source", "ep", "ed", "rate_status"]
        );
        assert_eq!(t.schema().field(1).data_type(), &DataType::Float64);
        assert_eq!(t.column(0).as_ref(), puzzles.as_ref());
        assert_eq!(t.column(2).as_ref(), source.as_ref());
        let er: Vec<Option<f64>> = t.column(1).as_primitive::<Float64Type>().iter().collect();
        let want: Vec<Option<f64>> = fx.iter().map(|(_, r)| Some(numbers(r)[0])).collect();
        assert_eq!(er, want);
    };
    check(&held, &["--overwrite"]);
    // A column of nulls only is filled without --overwrite.
    let empty = dir.path().join("empty.parquet");
    write_parquet(&empty, &batch(None), 2);
    check(&empty, &[]);
}

/// The refusal names the first row holding a value in input order,
/// whatever the threads and chunks (and from a stream), and leaves no
/// output file.
#[test]
fn a_held_value_deep_in_a_csv_is_found_in_input_order_whatever_the_chunking() {
    let fx = easy();
    let mut csv = String::from("question,rating\n");
    for i in 1..=300 {
        let held = match i {
            120 => "5",
            260 => "9",
            _ => "",
        };
        csv += &format!("{},{held}\n", fx[i % fx.len()].0);
    }
    let (dir, path) = temp_file("deep.csv", csv.as_bytes());
    let out = dir.path().join("out.csv");
    let want = "column \"rating\" already holds a value (\"5\")";
    for flags in [&["-j", "1"][..], &["-j", "2", "--chunk-size", "300"]] {
        let o = sb(["rate", "--er-column", "rating"])
            .args(flags)
            .arg(&path)
            .arg("-o")
            .arg(&out)
            .code(2);
        assert!(
            o.stderr()
                .contains(&format!("deep.csv:121 (row 120): {want}")),
            "{flags:?}: {}",
            o.stderr()
        );
        assert_eq!(dir_names(dir.path()), ["deep.csv"], "{flags:?}");
    }
    let o = sb([
        "rate",
        "-j",
        "2",
        "--chunk-size",
        "500",
        "--er-column",
        "rating",
    ])
    .stdin(&csv)
    .code(2);
    assert!(
        o.stderr()
            .contains(&format!("<stdin>:121 (row 120): {want}")),
        "{}",
        o.stderr()
    );
    // Standard output keeps the rows before it, as with --on-error fail.
    assert_eq!(o.stdout().lines().count(), 1 + 119, "{}", o.stdout());
}

/// A pencilmark record (729 characters) is a bad record with its reason,
/// not a crash: serate rates puzzles from their givens.
#[test]
fn a_pencilmark_record_is_a_bad_record_not_a_crash() {
    // Every candidate of every cell open: a valid pencilmark line.
    let marks = "123456789".repeat(81);
    let o = sb(["rate"]).stdin(format!("{marks}\n{marks}\n")).code(1);
    assert!(
        o.stderr()
            .contains("<stdin>:1: a pencilmark record cannot be rated"),
        "{}",
        o.stderr()
    );
    assert!(!o.stderr().contains("panicked"), "{}", o.stderr());
    let out = o.stdout();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "one line per record: {out}");
    for l in lines {
        assert!(
            l.ends_with(
                "error: a pencilmark record cannot be rated: rate takes puzzles (givens only)"
            ),
            "{l}"
        );
    }
}
