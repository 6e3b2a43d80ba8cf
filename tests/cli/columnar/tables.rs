//! What Parquet and Arrow IPC share: dictionary (pandas `category`) and
//! Null-typed columns, null puzzles, and files pandas and pyarrow wrote.

use std::sync::Arc;

use ::parquet::basic::Compression;
use arrow_array::cast::AsArray;
use arrow_array::types::{Int8Type, UInt16Type};
use arrow_array::{
    Array, ArrayRef, DictionaryArray, LargeStringArray, NullArray, RecordBatch, StringArray,
};
use arrow_schema::DataType;

use super::shared::*;
use super::*;

/// The strings of a Utf8 or LargeUtf8 column.
fn any_strings(col: &ArrayRef) -> Vec<Option<String>> {
    match col.data_type() {
        DataType::LargeUtf8 => col
            .as_string::<i64>()
            .iter()
            .map(|v| v.map(str::to_string))
            .collect(),
        _ => strings(col),
    }
}

/// The values of a dictionary-encoded string column, row by row.
fn dictionary_strings(col: &ArrayRef) -> Vec<Option<String>> {
    let d = col.as_any_dictionary();
    let values = any_strings(d.values());
    let keys = d.normalized_keys();
    (0..col.len())
        .map(|i| col.is_valid(i).then(|| values[keys[i]].clone().unwrap()))
        .collect()
}

/// pandas `category` columns are dictionary-encoded strings: read as
/// their values (here int8 keys over strings for the puzzles, uint16
/// keys over large strings for the labels), in Parquet and Arrow IPC.
/// The puzzle column comes back as it went in; the solution column as
/// plain strings of its values: valid labels byte for byte, null ones
/// filled, the wrong one kept and reported. A label column of type Null
/// is all null: filled with strings.
#[test]
fn dictionary_and_null_typed_columns() {
    let set = fixtures(3, 12, 65, 21);
    let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
    let mut labels: Vec<Option<String>> = set.iter().map(|(_, g)| Some(digits(g))).collect();
    for k in [1, 4, 7, 10] {
        labels[k] = None;
    }
    let mut wrong = set[2].1.clone();
    wrong.swap(0, 1);
    labels[2] = Some(digits(&wrong));
    let pz: DictionaryArray<Int8Type> = puzzles.iter().map(String::as_str).collect();
    let plain_labels: DictionaryArray<UInt16Type> = labels.iter().map(|l| l.as_deref()).collect();
    let large: ArrayRef = Arc::new(LargeStringArray::from(
        (0..plain_labels.values().len())
            .map(|i| plain_labels.values().as_string::<i32>().value(i))
            .collect::<Vec<_>>(),
    ));
    let lb = DictionaryArray::<UInt16Type>::try_new(plain_labels.keys().clone(), large).unwrap();
    // Nullable said outright: a dictionary's nulls are in its keys,
    // which arrow 60's `try_from_iter` does not count.
    let input = RecordBatch::try_from_iter_with_nullable(vec![
        ("puzzle", Arc::new(pz) as ArrayRef, true),
        ("solution", Arc::new(lb) as ArrayRef, true),
    ])
    .unwrap();
    let in_types: Vec<DataType> = input
        .schema()
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("cat.parquet");
    write_parquet(&pq, &input, 5, Compression::SNAPPY);
    let ipc = dir.path().join("cat.arrow");
    std::fs::write(&ipc, ipc_bytes(std::slice::from_ref(&input), false)).unwrap();
    for path in [&pq, &ipc] {
        let ext = path.extension().unwrap().to_str().unwrap();
        let out = dir.path().join(format!("out.{ext}"));
        let o = solve_to(path, &out).note(ext).code(1);
        let err = o.stderr();
        assert!(
            err.contains(&format!(
                "{}:row 3: existing solution is wrong",
                path.display()
            )),
            "{ext}: {err}"
        );
        // Labels verified and written back are `kept`, not `solved`.
        assert!(
            err.contains("12 records, 4 solved, 7 kept, 1 bad"),
            "{ext}: {err}"
        );
        let got = if ext == "parquet" {
            read_parquet(&out)
        } else {
            let b = read_ipc(&std::fs::read(&out).unwrap());
            arrow_select::concat::concat_batches(&b[0].schema(), &b).unwrap()
        };
        assert_eq!(
            got.column(0).data_type(),
            &in_types[0],
            "{ext}: puzzle kept"
        );
        assert_eq!(
            dictionary_strings(got.column(0)),
            puzzles.iter().cloned().map(Some).collect::<Vec<_>>(),
            "{ext}"
        );
        assert_eq!(got.column(1).data_type(), &DataType::LargeUtf8, "{ext}");
        let sol = any_strings(got.column(1));
        for (k, (p, _)) in set.iter().enumerate() {
            match &labels[k] {
                Some(l) => assert_eq!(sol[k].as_ref(), Some(l), "{ext} row {k}: label kept"),
                None => assert_valid(3, p, &cells(sol[k].as_ref().unwrap(), "", "123456789")),
            }
        }
        let o = sb(["check"]).arg(&out).output();
        assert!(
            o.stdout().contains("12 records checked, 11 good, 1 bad"),
            "{ext}: {}",
            o.stdout()
        );
    }
    // A `category` puzzle column without labels gets a plain `solution`.
    let alone = dir.path().join("alone.parquet");
    write_parquet(
        &alone,
        &input.project(&[0]).unwrap(),
        100,
        Compression::SNAPPY,
    );
    let out = dir.path().join("alone.out.parquet");
    solve_to(&alone, &out).ok();
    let got = read_parquet(&out);
    assert_eq!(got.column(1).data_type(), &DataType::Utf8);
    for ((p, _), s) in set.iter().zip(strings(got.column(1))) {
        assert_valid(3, p, &cells(&s.unwrap(), "", "123456789"));
    }
    // A solution column of type Null: every row filled, as strings.
    let nulls = batch(vec![
        (
            "puzzle",
            Arc::new(StringArray::from(puzzles.clone())) as ArrayRef,
        ),
        ("solution", Arc::new(NullArray::new(puzzles.len()))),
    ]);
    let npq = dir.path().join("null.parquet");
    write_parquet(&npq, &nulls, 100, Compression::SNAPPY);
    let nipc = dir.path().join("null.arrows");
    std::fs::write(&nipc, ipc_bytes(std::slice::from_ref(&nulls), true)).unwrap();
    for path in [&npq, &nipc] {
        let out = dir.path().join("null.out.parquet");
        solve_to(path, &out).ok();
        let got = read_parquet(&out);
        assert_eq!(got.column(1).data_type(), &DataType::Utf8);
        assert_eq!(strings(got.column(0)).len(), puzzles.len());
        for ((p, _), s) in set.iter().zip(strings(got.column(1))) {
            assert_valid(3, p, &cells(&s.unwrap(), "", "123456789"));
        }
    }
}

/// A null puzzle is one bad row, named by its row and its format (it
/// used to say `bad CSV row`).
#[test]
fn a_null_puzzle_names_its_row_and_format() {
    let set = fixtures(3, 5, 60, 23);
    let mut puzzles: Vec<Option<String>> = set.iter().map(|(p, _)| Some(digits(p))).collect();
    puzzles[0] = None;
    puzzles[3] = None;
    let input = batch(vec![(
        "puzzle",
        Arc::new(StringArray::from(puzzles.clone())) as ArrayRef,
    )]);
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("n.parquet");
    write_parquet(&pq, &input, 100, Compression::SNAPPY);
    let ipc = dir.path().join("n.arrow");
    std::fs::write(&ipc, ipc_bytes(&[input], false)).unwrap();
    for (path, format) in [(&pq, "Parquet"), (&ipc, "Arrow")] {
        let out = dir.path().join("out.parquet");
        let o = solve_to(path, &out).code(1);
        let err = o.stderr();
        for row in [1, 4] {
            assert!(
                err.contains(&format!(
                    "{}:row {row}: bad {format} row: no puzzle (null)",
                    path.display()
                )),
                "{err}"
            );
        }
        assert!(!err.contains("CSV"), "{err}");
        let got = read_parquet(&out);
        for ((p, _), s) in set.iter().zip(strings(got.column(1))).skip(1) {
            if let Some(s) = s {
                assert_valid(3, p, &cells(&s, "", "123456789"));
            }
        }
        assert_eq!(
            strings(got.column(1))
                .iter()
                .filter(|s| s.is_some())
                .count(),
            3
        );
    }
}

/// What pandas writes for `astype('category')` and `solution=None`, to
/// Parquet and Feather, solved and read back by pandas: the puzzles as
/// they were, every answer valid, every given label kept.
#[test]
fn pandas_category_and_none_columns() {
    let Some(py) = python_with("pandas, pyarrow") else {
        return;
    };
    let set = fixtures(3, 12, 62, 24);
    let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
    let labels: Vec<Option<String>> = set
        .iter()
        .enumerate()
        .map(|(k, (_, g))| (k % 3 == 0).then(|| digits(g)))
        .collect();
    let py_labels: Vec<String> = labels
        .iter()
        .map(|l| l.as_ref().map_or("None".into(), |s| format!("{s:?}")))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "import pandas as pd\n\
         q = {puzzles:?}\n\
         s = [{}]\n\
         cat = pd.DataFrame({{'puzzle': pd.Series(q).astype('category')}})\n\
         cat.to_parquet('cat.parquet')\n\
         cat.to_feather('cat.feather')\n\
         lab = pd.DataFrame({{'puzzle': pd.Series(q).astype('category'), 'solution': pd.Series(s).astype('category')}})\n\
         lab.to_parquet('catlab.parquet', row_group_size=5)\n\
         lab.to_feather('catlab.feather')\n\
         none = pd.DataFrame({{'puzzle': q, 'solution': None}})\n\
         none.to_parquet('none.parquet')\n\
         none.to_feather('none.feather')\n",
        py_labels.join(", ")
    );
    run_python(&py, &script, dir.path(), &[]);
    for (input, labelled) in [
        ("cat.parquet", false),
        ("cat.feather", false),
        ("catlab.parquet", true),
        ("catlab.feather", true),
        ("none.parquet", false),
        ("none.feather", false),
    ] {
        let out = dir.path().join(format!("out-{input}"));
        solve_to(dir.path().join(input), &out).note(input).ok();
        let stdout = run_python(
            &py,
            "import pandas as pd, sys\nf = sys.argv[1]\n\
                 d = pd.read_parquet(f) if f.endswith('.parquet') else pd.read_feather(f)\n\
                 for p, s in zip(d['puzzle'].astype(str), d['solution']): print(p, s)",
            dir.path(),
            &[out.as_ref()],
        );
        let text = String::from_utf8(stdout).unwrap();
        assert_eq!(text.lines().count(), puzzles.len(), "{input}");
        for (k, line) in text.lines().enumerate() {
            let (p, s) = line.split_once(' ').unwrap();
            assert_eq!(p, puzzles[k], "{input} row {k}");
            assert_valid(3, &set[k].0, &cells(s, "", "123456789"));
            if let (true, Some(l)) = (labelled, &labels[k]) {
                assert_eq!(s, l, "{input} row {k}: label kept");
            }
        }
    }
}

#[test]
fn files_written_by_pyarrow() {
    let Some(py) = python_with("pyarrow, pyarrow.parquet, pyarrow.feather") else {
        return;
    };
    let set = fixtures(3, 12, 60, 10);
    let puzzles: Vec<String> = set.iter().map(|(p, _)| digits(p)).collect();
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "import pyarrow as pa, pyarrow.parquet as pq, pyarrow.feather as f\n\
         q = {puzzles:?}\n\
         t = pa.table({{'id': list(range(len(q))), 'quizzes': q,\n\
             'grid': pa.array([[0 if c == '.' else int(c) for c in s] for s in q], pa.list_(pa.int8()))}})\n\
         pq.write_table(t, 'a.parquet', row_group_size=5, compression='zstd')\n\
         f.write_feather(t, 'b.feather')\n\
         t2 = t.cast(pa.schema([('id', pa.int64()), ('quizzes', pa.large_string()), ('grid', pa.list_(pa.int8()))]))\n\
         pq.write_table(t2, 'c.parquet')\n"
    );
    run_python(&py, &script, dir.path(), &[]);
    for (input, args) in [
        ("a.parquet", vec![]),
        ("b.feather", vec![]),
        ("c.parquet", vec![]),
        ("a.parquet", vec!["--column", "grid"]),
    ] {
        let out = dir.path().join(format!("out-{input}.txt"));
        solve_to(dir.path().join(input), &out)
            .args(args)
            .note(input)
            .ok();
        let refs: Vec<&str> = puzzles.iter().map(String::as_str).collect();
        assert_answers_9x9(&refs, &std::fs::read_to_string(&out).unwrap());
    }
    // Our Parquet answer reads back in pyarrow with the puzzles intact.
    let out = dir.path().join("solved.parquet");
    solve_to(dir.path().join("a.parquet"), &out).ok();
    let stdout = run_python(&py, "import pyarrow.parquet as pq, sys\nt = pq.read_table(sys.argv[1])\nprint(t.num_rows, pq.ParquetFile(sys.argv[1]).metadata.num_row_groups)\nfor q, s in zip(t['quizzes'].to_pylist(), t['solution'].to_pylist()): print(q, s)", dir.path(), &[out.as_ref()]);
    let text = String::from_utf8(stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("12 3"));
    for (line, p) in lines.zip(&puzzles) {
        let (q, s) = line.split_once(' ').unwrap();
        assert_eq!(q, p);
        assert_valid(3, &cells(q, ".", "123456789"), &cells(s, "", "123456789"));
    }
}

/// The peak resident set (KiB) of `sudoku-bulk ARGS`: its `VmHWM` (the
/// kernel's high-water mark of the process's own memory since its exec),
/// read every 10 ms until it exits. Not `ru_maxrss`: a child spawned from
/// this test process inherits the test's own high-water mark through the
/// exec.
#[cfg(target_os = "linux")]
fn peak_rss_kib(args: &[&OsStr]) -> i64 {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bulk"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status) {
            let hwm = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        if let Some(exit) = child.try_wait().unwrap() {
            assert!(exit.success(), "{args:?} failed");
            return peak;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Streaming in bounded memory (issue 43): 10,000,000 rows (or
/// `SUDOKU_BULK_BIG_ROWS`) as one Parquet row group of strings, one of
/// `list<uint8>`, and an Arrow IPC file of 65,536-row batches, each solved
/// into its own format at -j 2, peak no more resident memory than the same
/// layout at a tenth of the rows plus 48 MiB. Run by
/// `scripts/formats_columnar.sh` (BIG=1); minutes, hence ignored.
#[test]
#[ignore]
#[cfg(target_os = "linux")]
fn ten_million_rows_stream_in_bounded_memory() {
    let big: usize =
        std::env::var("SUDOKU_BULK_BIG_ROWS").map_or(10_000_000, |v| v.parse().unwrap());
    let set = fixtures(3, 1000, 55, 43);
    let dir = tempfile::tempdir().unwrap();
    let chunk = 1 << 16;
    let write = |rows: usize, tag: &str| {
        let strs: Vec<String> = (0..chunk).map(|k| digits(&set[k % set.len()].0)).collect();
        let lists: Vec<Vec<u8>> = (0..chunk).map(|k| set[k % set.len()].0.clone()).collect();
        let s = batch(vec![(
            "puzzle",
            Arc::new(StringArray::from(strs)) as ArrayRef,
        )]);
        let l = batch(vec![("puzzle", u8_lists(&lists))]);
        let props = || {
            ::parquet::file::properties::WriterProperties::builder()
                .set_compression(Compression::SNAPPY)
                .set_max_row_group_row_count(Some(rows + 1))
                .build()
        };
        let pq = |name: &str, b: &RecordBatch| {
            let f = std::fs::File::create(dir.path().join(format!("{tag}.{name}"))).unwrap();
            ::parquet::arrow::ArrowWriter::try_new(f, b.schema(), Some(props())).unwrap()
        };
        let mut ws = pq("str.parquet", &s);
        let mut wl = pq("list.parquet", &l);
        let f = std::fs::File::create(dir.path().join(format!("{tag}.arrow"))).unwrap();
        let mut wa =
            arrow_ipc::writer::FileWriter::try_new(std::io::BufWriter::new(f), &s.schema())
                .unwrap();
        let mut at = 0;
        while at < rows {
            let n = chunk.min(rows - at);
            ws.write(&s.slice(0, n)).unwrap();
            wl.write(&l.slice(0, n)).unwrap();
            wa.write(&s.slice(0, n)).unwrap();
            at += n;
        }
        ws.close().unwrap();
        wl.close().unwrap();
        wa.finish().unwrap();
    };
    write(big / 10, "small");
    write(big, "big");
    for form in ["str.parquet", "list.parquet", "arrow"] {
        let peak = |tag: &str| {
            let input = dir.path().join(format!("{tag}.{form}"));
            let out = dir.path().join(format!("out.{form}"));
            let kib = peak_rss_kib(&[
                "solve".as_ref(),
                input.as_os_str(),
                "-o".as_ref(),
                out.as_os_str(),
                "-j".as_ref(),
                "2".as_ref(),
                "--no-progress".as_ref(),
            ]);
            std::fs::remove_file(&out).unwrap();
            kib
        };
        let (small, large) = (peak("small"), peak("big"));
        eprintln!(
            "{form}: peak RSS {small} KiB at {} rows, {large} KiB at {big}",
            big / 10
        );
        assert!(
            large <= small + 48 * 1024,
            "{form}: {large} KiB at {big} rows against {small} KiB at {}",
            big / 10
        );
    }
}

/// A table answers the same however its writer cut it (issue 43): one
/// record batch or one row group longer than a solving step (32,768 rows,
/// so it is sliced) against many small ones, for string, `list<uint8>`
/// and `fixed_size_list<uint8>[81]` puzzle columns (the last two read
/// straight from their leaf buffer), Arrow IPC and Parquet. Every good row
/// gets an answer that completes its own puzzle (checked here, not by the
/// solver), every layout gives the same cells, the bad rows (a cell of
/// 10 or an `x`, a null, a short value; before, at and after the step's
/// edge) are the same rows with the same reasons, and each input's output
/// file is byte for byte the same at -j 1 and -j 2.
#[test]
fn one_batch_or_row_group_answers_as_many_at_every_j() {
    use arrow_array::builder::{FixedSizeListBuilder, ListBuilder, UInt8Builder};
    const ROWS: usize = 33_500;
    let set = fixtures(3, 300, 45, 29);
    let good = |k: usize| set[k % set.len()].0.clone();
    // Row -> what is wrong with it (bad rows only).
    let bad: [(usize, &str); 5] = [
        (5, "cell"),
        (20_000, "null"),
        (32_767, "cell"),
        (32_768, "short"),
        (ROWS - 1, "null"),
    ];
    let what = |k: usize| bad.iter().find(|(r, _)| *r == k).map(|(_, w)| *w);
    let strs: StringArray = (0..ROWS)
        .map(|k| match what(k) {
            Some("null") => None,
            Some("short") => Some(digits(&good(k)[..80])),
            Some(_) => {
                let mut s = digits(&good(k)).into_bytes();
                s[40] = b'x';
                Some(String::from_utf8(s).unwrap())
            }
            None => Some(digits(&good(k))),
        })
        .collect();
    let (mut list, mut fixed) = (
        ListBuilder::new(UInt8Builder::new()),
        FixedSizeListBuilder::new(UInt8Builder::new(), 81),
    );
    for k in 0..ROWS {
        let mut cells = good(k);
        match what(k) {
            Some("null") => {
                list.append(false);
                fixed.values().append_slice(&cells);
                fixed.append(false);
                continue;
            }
            // A fixed-size list cannot be short: a cell of 10 there.
            Some("short") => {
                list.values().append_slice(&cells[..80]);
                list.append(true);
                cells[40] = 10;
            }
            Some(_) => {
                cells[40] = 10;
                list.values().append_slice(&cells);
                list.append(true);
            }
            None => {
                list.values().append_slice(&cells);
                list.append(true);
            }
        }
        fixed.values().append_slice(&cells);
        fixed.append(true);
    }
    let tables = [
        ("str", Arc::new(strs) as ArrayRef),
        ("list", Arc::new(list.finish()) as ArrayRef),
        ("fixed", Arc::new(fixed.finish()) as ArrayRef),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    for (kind, col) in &tables {
        let b = batch(vec![("puzzle", col.clone())]);
        let many: Vec<RecordBatch> = (0..ROWS)
            .step_by(4096)
            .map(|at| b.slice(at, 4096.min(ROWS - at)))
            .collect();
        let path = |name: &str| dir.path().join(format!("{kind}-{name}"));
        std::fs::write(
            path("one.arrow"),
            ipc_bytes(std::slice::from_ref(&b), false),
        )
        .unwrap();
        if *kind == "str" {
            std::fs::write(path("many.arrow"), ipc_bytes(&many, false)).unwrap();
        }
        write_parquet(&path("one.parquet"), &b, ROWS, Compression::SNAPPY);
        write_parquet(&path("many.parquet"), &b, 4096, Compression::SNAPPY);
        // Many small batches as Arrow for strings only (the Parquet
        // groups cover the list readers), to keep the test short.
        for name in ["one.arrow", "many.arrow", "one.parquet", "many.parquet"] {
            if *kind == "str" || name != "many.arrow" {
                inputs.push((*kind, path(name)));
            }
        }
    }
    assert_eq!(
        parquet_layout(&dir.path().join("str-one.parquet")).0,
        [ROWS as i64]
    );
    // The answer column's cells, row by row (None for a null).
    let answers = |out: &Path| -> Vec<Option<Vec<u8>>> {
        let b = if out.extension().unwrap() == "parquet" {
            read_parquet(out)
        } else {
            read_arrow(out)
        };
        let col = b.column_by_name("solution").unwrap();
        match col.data_type() {
            DataType::Utf8 => strings(col)
                .into_iter()
                .map(|s| s.map(|s| cells(&s, "", "123456789")))
                .collect(),
            DataType::List(_) => list_rows(col),
            DataType::FixedSizeList(..) => {
                let l = col.as_fixed_size_list();
                (0..l.len())
                    .map(|i| {
                        l.is_valid(i).then(|| {
                            l.value(i)
                                .as_primitive::<arrow_array::types::UInt8Type>()
                                .values()
                                .to_vec()
                        })
                    })
                    .collect()
            }
            dt => panic!("{}: solution column is {dt}", out.display()),
        }
    };
    let mut first: Option<Vec<Option<Vec<u8>>>> = None;
    let mut reasons: std::collections::HashMap<&str, Vec<String>> = Default::default();
    for (kind, input) in &inputs {
        let name = input.file_name().unwrap().to_str().unwrap();
        let mut outputs = Vec::new();
        for j in ["1", "2"] {
            let out = dir.path().join(format!("out-{j}-{name}"));
            let o = solve_to(input, &out).args(["-j", j]).code(1);
            // Bad rows as `row R: reason` (1-based), the file's name and
            // the format's word (Parquet or Arrow IPC row) left out.
            let said: Vec<String> = o
                .stderr()
                .lines()
                .filter_map(|l| l.split_once(":row ").map(|(_, r)| r.to_string()))
                .map(|r| {
                    r.replace("bad Parquet row: ", "")
                        .replace("bad Arrow row: ", "")
                })
                .collect();
            let rows: Vec<usize> = said
                .iter()
                .map(|r| r.split(':').next().unwrap().parse().unwrap())
                .collect();
            assert_eq!(
                rows,
                bad.iter().map(|(r, _)| r + 1).collect::<Vec<_>>(),
                "{name} -j {j}: {said:?}"
            );
            match reasons.get(kind) {
                Some(seen) => assert_eq!(*seen, said, "{name} -j {j}"),
                None => {
                    reasons.insert(kind, said);
                }
            }
            outputs.push(std::fs::read(&out).unwrap());
            let got = answers(&out);
            assert_eq!(got.len(), ROWS, "{name}: one row per input row");
            for (k, a) in got.iter().enumerate() {
                match (what(k), a) {
                    (None, Some(a)) => assert_valid(3, &good(k), a),
                    (Some(_), None) => {}
                    (w, a) => panic!("{name} -j {j}: row {k} ({w:?}) answered {a:?}"),
                }
            }
            match &first {
                None => first = Some(got),
                Some(f) => assert!(*f == got, "{name} -j {j}: answers differ"),
            }
        }
        assert!(
            outputs[0] == outputs[1],
            "{name}: -j 1 and -j 2 outputs differ"
        );
    }
    assert!(
        reasons["list"].contains(&"6: cell 41: invalid number 10".to_string())
            && reasons["list"].contains(&"32769: expected 81 cells, found 80".to_string())
            && reasons["list"].contains(&"20001: no puzzle (null)".to_string()),
        "{:?}",
        reasons["list"]
    );
}

/// A one-batch Arrow IPC file is checked slice by slice as it is read
/// (issue 43): a string that is not UTF-8 past the first slice (32,768
/// rows) still stops the run as a bad file, with no output left.
#[test]
fn bad_utf8_deep_in_one_arrow_batch_is_a_bad_file() {
    const ROWS: usize = 33_000;
    let set = fixtures(3, 50, 45, 31);
    let mut strs: Vec<String> = (0..ROWS).map(|k| digits(&set[k % set.len()].0)).collect();
    // A marker only this row holds, replaced by a byte UTF-8 never has.
    strs[32_900] = format!("{}ZQZQZ", &strs[32_900][..76]);
    let b = batch(vec![(
        "puzzle",
        Arc::new(StringArray::from(strs)) as ArrayRef,
    )]);
    let mut bytes = ipc_bytes(std::slice::from_ref(&b), false);
    let at = bytes.windows(5).position(|w| w == b"ZQZQZ").unwrap();
    bytes[at] = 0xFF;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.arrow");
    std::fs::write(&path, &bytes).unwrap();
    let out = dir.path().join("out.arrow");
    let err = solve_to(&path, &out).code(2).stderr();
    assert!(
        err.contains(&format!("{}: bad Arrow IPC file", path.display())) && err.contains("utf"),
        "{err}"
    );
    assert!(!out.exists());
}
