//! Fuzz target for the table column converters (Arrow arrays -> cells,
//! existing labels, nulls; answers -> arrays), end to end: the bytes are a
//! recipe for a small table (a puzzle column of any type the converters
//! take: strings, binary, views, dictionaries, lists, large lists,
//! fixed-size and nested lists of every integer type; a solution column
//! or none; nulls and damage anywhere), which is written as an Arrow IPC
//! stream, run through a whole `solve` or `count` job in memory (Arrow out,
//! or text lines out) and read back. The answers are judged against this
//! file's own model of each row, by a checker that trusts no solver
//! (`common::valid`):
//!
//! - a row whose puzzle the model cannot read (a null value, a null cell or
//!   grid row, a short list, a value out of range, a stray character) gets
//!   no answer and no count;
//! - every answer written completes the puzzle the model wrote;
//! - under `--overwrite` no old label survives unless it is such an
//!   answer; without it, a label that held something comes back byte for
//!   byte (kept, wrong or on a bad row) and only an empty one is filled;
//! - the puzzle column comes back unchanged.
//!
//! Issue 35's "null cell read as a blank" and "stale label kept under
//! `--overwrite`" each fail these checks within seconds.

#![no_main]

mod common;

use std::sync::{Arc, Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::columnar::table::arrow::array::{
    self as arr, Array, ArrayRef, DictionaryArray, FixedSizeListArray, GenericListArray,
    PrimitiveArray, RecordBatch,
};
use sudoku_bulk::columnar::table::arrow::array::cast::AsArray;
use sudoku_bulk::columnar::table::arrow::array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use sudoku_bulk::columnar::table::arrow::buffer::{NullBuffer, OffsetBuffer};
use sudoku_bulk::columnar::table::arrow::ipc;
use sudoku_bulk::columnar::table::arrow::schema::{DataType, Field};
use sudoku_bulk::columnar::{table, Asked, Data, Job, Kind, Run, Target};
use sudoku_bulk::pipeline::{OnError, Task};
use sudoku_bulk::solver::Boxes;

/// The recipe's bytes, read front to back; zeros once they run out.
struct Recipe<'a>(&'a [u8]);

impl Recipe<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// True about once in `n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// A column's type, as the recipe picks it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Col {
    Utf8,
    LargeUtf8,
    Utf8View,
    Binary,
    Dictionary,
    /// A list of integers of the given leaf type (0..8, see `leaf`).
    List(u8),
    LargeList(u8),
    FixedList(u8),
    /// A list of grid-row lists.
    Nested(u8),
    FixedNested(u8),
}

impl Col {
    fn pick(r: &mut Recipe<'_>) -> Col {
        let leaf = r.below(8) as u8;
        match r.below(10) {
            0 => Col::Utf8,
            1 => Col::LargeUtf8,
            2 => Col::Utf8View,
            3 => Col::Binary,
            4 => Col::Dictionary,
            5 => Col::List(leaf),
            6 => Col::LargeList(leaf),
            7 => Col::FixedList(leaf),
            8 => Col::Nested(leaf),
            _ => Col::FixedNested(leaf),
        }
    }

    fn is_text(self) -> bool {
        matches!(
            self,
            Col::Utf8 | Col::LargeUtf8 | Col::Utf8View | Col::Binary | Col::Dictionary
        )
    }
}

/// One value of a column in the model: text bytes, or leaf integers in
/// grid rows (`None` a null cell, an inner `None` a null grid row).
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Text(Vec<u8>),
    Ints(Vec<Option<Vec<Option<i64>>>>),
}

impl Val {
    /// The cells the model reads in it (a grid of `side`), or `None` when
    /// it is no readable grid: a null cell or grid row, a wrong length, a
    /// number out of range, a character that is no digit or blank.
    fn cells(&self, side: usize) -> Option<Vec<u8>> {
        let cells: Vec<u8> = match self {
            Val::Text(t) => t
                .iter()
                .map(|&b| match b {
                    b'.' | b'0' => Some(0),
                    b'1'..=b'9' => Some(b - b'0'),
                    _ => None,
                })
                .collect::<Option<_>>()?,
            Val::Ints(rows) => rows
                .iter()
                .map(|row| row.clone())
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .flatten()
                .map(|c| c.and_then(|c| u8::try_from(c).ok()))
                .collect::<Option<_>>()?,
        };
        (cells.len() == side * side && cells.iter().all(|&c| usize::from(c) <= side))
            .then_some(cells)
    }

    /// True when a label holds something: not what the label rule calls
    /// empty (null, blank text, a readable grid of zeros only).
    fn holds(&self, side: usize) -> bool {
        match self {
            Val::Text(t) if t.trim_ascii().is_empty() => false,
            v => v
                .cells(side)
                .is_none_or(|cells| cells.iter().any(|&c| c != 0)),
        }
    }

    /// The value as a column of type `col` stores it: a flat list holds
    /// its leaves in one run (a null grid row of a plain list is gone, of
    /// a fixed-size list its slots are zeros); nested lists keep rows.
    fn stored(self, col: Col, side: usize) -> Val {
        match (self, col) {
            (Val::Ints(rows), Col::List(_) | Col::LargeList(_)) => {
                Val::Ints(vec![Some(rows.into_iter().flatten().flatten().collect())])
            }
            (Val::Ints(rows), Col::FixedList(_)) => Val::Ints(vec![Some(
                rows.into_iter()
                    .flat_map(|r| r.unwrap_or(vec![Some(0); side]))
                    .collect(),
            )]),
            (v, _) => v,
        }
    }
}

/// A valid full grid of `boxes` from the shifted pattern, digits relabelled
/// by the recipe (no solver).
fn full_grid(boxes: Boxes, r: &mut Recipe<'_>) -> Vec<u8> {
    let (h, w, n) = (boxes.rows(), boxes.cols(), boxes.side());
    let mut relabel: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        relabel.swap(i, r.below(i + 1));
    }
    let mut grid = Vec::with_capacity(n * n);
    for row in 0..n {
        for col in 0..n {
            grid.push(relabel[((row % h) * w + row / h + col) % n]);
        }
    }
    grid
}

/// A value of type `col` for `cells`, damaged as the recipe says; `None`
/// for a null value.
fn value(col: Col, cells: &[u8], side: usize, r: &mut Recipe<'_>) -> Option<Val> {
    let damage = r.below(16);
    if damage == 0 {
        return None;
    }
    let mut v = if col.is_text() {
        Val::Text(
            cells
                .iter()
                .map(|&c| if c == 0 { b".0"[r.below(2)] } else { b'0' + c })
                .collect(),
        )
    } else {
        Val::Ints(
            cells
                .chunks(side)
                .map(|row| Some(row.iter().map(|&c| Some(i64::from(c))).collect()))
                .collect(),
        )
    };
    let at = r.below(cells.len());
    match (damage, &mut v) {
        // ASCII only: the model compares the bytes a string column holds.
        (1, Val::Text(t)) => t[at] = b"xZ\n,"[r.below(4)],
        (1, Val::Ints(rows)) => rows[at / side].as_mut().unwrap()[at % side] = None,
        (2, Val::Ints(rows)) => rows[at / side] = None,
        (3, Val::Ints(rows)) => {
            rows[at / side].as_mut().unwrap()[at % side] =
                // Out of range for the grid, in range for every leaf type.
                Some([side as i64 + 1, 100, 127][r.below(3)])
        }
        // A short value (lists of a fixed size cannot be).
        (4, Val::Text(t)) => {
            t.pop();
        }
        (4, Val::Ints(rows)) if matches!(col, Col::List(_) | Col::LargeList(_)) => {
            rows.last_mut().unwrap().as_mut().unwrap().pop();
        }
        _ => {}
    }
    Some(v.stored(col, side))
}

/// The leaf array of `kind` (0..8: i8, i16, i32, i64, u8, u16, u32, u64)
/// holding `leaves` (wrapped into the type, so 255 is -1 in i8).
fn leaf_array(kind: u8, leaves: &[Option<i64>]) -> ArrayRef {
    fn prim<T: arr::types::ArrowPrimitiveType>(
        leaves: &[Option<i64>],
        f: impl Fn(i64) -> T::Native,
    ) -> ArrayRef {
        Arc::new(PrimitiveArray::<T>::from_iter(
            leaves.iter().map(|v| v.map(&f)),
        ))
    }
    match kind {
        0 => prim::<Int8Type>(leaves, |v| v as i8),
        1 => prim::<Int16Type>(leaves, |v| v as i16),
        2 => prim::<Int32Type>(leaves, |v| v as i32),
        3 => prim::<Int64Type>(leaves, |v| v),
        4 => prim::<UInt8Type>(leaves, |v| v as u8),
        5 => prim::<UInt16Type>(leaves, |v| v as u16),
        6 => prim::<UInt32Type>(leaves, |v| v as u32),
        _ => prim::<UInt64Type>(leaves, |v| v as u64),
    }
}

/// The model's values (as [`Val::stored`] gives them) as an array of type
/// `col`: what a user's pyarrow or Spark would hand over.
fn array(col: Col, side: usize, values: &[Option<Val>]) -> ArrayRef {
    let texts: Vec<Option<Vec<u8>>> = values
        .iter()
        .map(|v| match v {
            Some(Val::Text(t)) => Some(t.clone()),
            _ => None,
        })
        .collect();
    let strings: Vec<Option<String>> = texts
        .iter()
        .map(|t| t.as_ref().map(|t| String::from_utf8(t.clone()).unwrap()))
        .collect();
    let valid = || Some(NullBuffer::from(values.iter().map(Option::is_some).collect::<Vec<_>>()));
    // A null value still has its slots: zeros, a full grid's worth.
    let rows_of = |v: &Option<Val>, nested: bool| match v {
        Some(Val::Ints(rows)) => rows.clone(),
        _ if nested => vec![Some(vec![Some(0); side]); side],
        _ => vec![Some(vec![Some(0); side * side])],
    };
    let field = |a: &ArrayRef| Arc::new(Field::new("item", a.data_type().clone(), true));
    match col {
        Col::Utf8 => Arc::new(arr::StringArray::from_iter(strings)),
        Col::LargeUtf8 => Arc::new(arr::LargeStringArray::from_iter(strings)),
        Col::Utf8View => Arc::new(arr::StringViewArray::from_iter(strings)),
        Col::Binary => Arc::new(arr::BinaryArray::from_iter(texts)),
        Col::Dictionary => Arc::new(
            strings
                .iter()
                .map(Option::as_deref)
                .collect::<DictionaryArray<Int32Type>>(),
        ),
        Col::List(k) | Col::LargeList(k) | Col::FixedList(k) => {
            let flat: Vec<Vec<Option<i64>>> = values
                .iter()
                .map(|v| rows_of(v, false).into_iter().flatten().flatten().collect())
                .collect();
            let leaves: Vec<Option<i64>> = flat.iter().flatten().copied().collect();
            let leaf = leaf_array(k, &leaves);
            let lengths = flat.iter().map(Vec::len);
            match col {
                Col::List(_) => Arc::new(
                    GenericListArray::<i32>::try_new(
                        field(&leaf),
                        OffsetBuffer::from_lengths(lengths),
                        leaf,
                        valid(),
                    )
                    .unwrap(),
                ),
                Col::LargeList(_) => Arc::new(
                    GenericListArray::<i64>::try_new(
                        field(&leaf),
                        OffsetBuffer::from_lengths(lengths),
                        leaf,
                        valid(),
                    )
                    .unwrap(),
                ),
                _ => Arc::new(
                    FixedSizeListArray::try_new(field(&leaf), (side * side) as i32, leaf, valid())
                        .unwrap(),
                ),
            }
        }
        Col::Nested(k) | Col::FixedNested(k) => {
            let fixed = matches!(col, Col::FixedNested(_));
            let rows: Vec<Option<Vec<Option<i64>>>> =
                values.iter().flat_map(|v| rows_of(v, true)).collect();
            let inner_valid: Vec<bool> = rows.iter().map(Option::is_some).collect();
            // A null grid row of a plain list is empty; of a fixed-size
            // one, `side` zeros (its slots exist).
            let inner_rows: Vec<Vec<Option<i64>>> = rows
                .into_iter()
                .map(|r| match r {
                    Some(r) => r,
                    None if fixed => vec![Some(0); side],
                    None => Vec::new(),
                })
                .collect();
            let leaves: Vec<Option<i64>> = inner_rows.iter().flatten().copied().collect();
            let leaf = leaf_array(k, &leaves);
            let inner_nulls = Some(NullBuffer::from(inner_valid));
            let inner: ArrayRef = if fixed {
                Arc::new(
                    FixedSizeListArray::try_new(field(&leaf), side as i32, leaf, inner_nulls)
                        .unwrap(),
                )
            } else {
                Arc::new(
                    GenericListArray::<i32>::try_new(
                        field(&leaf),
                        OffsetBuffer::from_lengths(inner_rows.iter().map(Vec::len)),
                        leaf,
                        inner_nulls,
                    )
                    .unwrap(),
                )
            };
            if fixed {
                Arc::new(
                    FixedSizeListArray::try_new(field(&inner), side as i32, inner, valid())
                        .unwrap(),
                )
            } else {
                let outer = values.iter().map(|v| rows_of(v, true).len());
                Arc::new(
                    GenericListArray::<i32>::try_new(
                        field(&inner),
                        OffsetBuffer::from_lengths(outer),
                        inner,
                        valid(),
                    )
                    .unwrap(),
                )
            }
        }
    }
}

/// Row `i` of an output column, read by this file's own code (not the
/// converters under test): text bytes, or leaf integers by grid row.
fn read_back(col: &dyn Array, i: usize) -> Option<Val> {
    if col.is_null(i) {
        return None;
    }
    let ints = |a: &dyn Array| -> Vec<Option<i64>> {
        (0..a.len())
            .map(|k| {
                if a.is_null(k) {
                    return None;
                }
                Some(match a.data_type() {
                    DataType::Int8 => i64::from(a.as_primitive::<Int8Type>().value(k)),
                    DataType::Int16 => i64::from(a.as_primitive::<Int16Type>().value(k)),
                    DataType::Int32 => i64::from(a.as_primitive::<Int32Type>().value(k)),
                    DataType::Int64 => a.as_primitive::<Int64Type>().value(k),
                    DataType::UInt8 => i64::from(a.as_primitive::<UInt8Type>().value(k)),
                    DataType::UInt16 => i64::from(a.as_primitive::<UInt16Type>().value(k)),
                    DataType::UInt32 => i64::from(a.as_primitive::<UInt32Type>().value(k)),
                    DataType::UInt64 => a.as_primitive::<UInt64Type>().value(k) as i64,
                    dt => panic!("answers written as a list of {dt}"),
                })
            })
            .collect()
    };
    let list = |a: &dyn Array, k: usize| -> ArrayRef {
        match a.data_type() {
            DataType::List(_) => a.as_list::<i32>().value(k),
            DataType::LargeList(_) => a.as_list::<i64>().value(k),
            DataType::FixedSizeList(..) => a.as_fixed_size_list().value(k),
            dt => panic!("not a list: {dt}"),
        }
    };
    Some(match col.data_type() {
        DataType::Utf8 => Val::Text(col.as_string::<i32>().value(i).into()),
        DataType::LargeUtf8 => Val::Text(col.as_string::<i64>().value(i).into()),
        DataType::Utf8View => Val::Text(col.as_string_view().value(i).into()),
        DataType::Binary => Val::Text(col.as_binary::<i32>().value(i).into()),
        _ => {
            let v = list(col, i);
            if matches!(
                v.data_type(),
                DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..)
            ) {
                Val::Ints(
                    (0..v.len())
                        .map(|k| v.is_valid(k).then(|| ints(list(v.as_ref(), k).as_ref())))
                        .collect(),
                )
            } else {
                Val::Ints(vec![Some(ints(v.as_ref()))])
            }
        }
    })
}

fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap())
}

fuzz_target!(|data: &[u8]| {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(sudoku_bulk::cleanup::install_panic_hook);
    let mut r = Recipe(data);
    let boxes = [Boxes::square(2), Boxes::NINE, Boxes::new(2, 3).unwrap()][r.below(3)];
    let side = boxes.side();
    let pcol = Col::pick(&mut r);
    // Strings are judged in 9x9 only: a 16-character value of digits may
    // as well be read as another layout, which the model does not follow.
    let boxes = if pcol.is_text() { Boxes::NINE } else { boxes };
    let side = if pcol.is_text() { 9 } else { side };
    let scol = match r.below(4) {
        0 => None,
        1 => Some(pcol),
        _ => Some(Col::pick(&mut r)),
    };
    let task = match r.below(8) {
        0 => Task::Count { limit: 2 },
        1 | 2 => Task::Solve { unique: true },
        _ => Task::Solve { unique: false },
    };
    let overwrite = r.one_in(2);
    let text_out = r.one_in(4);
    let rows = 1 + r.below(10);
    let mut puzzles = Vec::new();
    let mut labels = Vec::new();
    for _ in 0..rows {
        let grid = full_grid(boxes, &mut r);
        let blanks = r.below(side * side);
        let mut cells = grid.clone();
        for _ in 0..blanks {
            cells[r.below(side * side)] = 0;
        }
        puzzles.push(value(pcol, &cells, side, &mut r));
        labels.push(scol.and_then(|s| {
            let mut label = grid.clone();
            match r.below(4) {
                0 => label.fill(0),
                1 => label.swap(0, 1 + r.below(side * side - 1)),
                _ => {}
            }
            value(s, &label, side, &mut r)
        }));
    }
    let mut columns = vec![("puzzle", array(pcol, side, &puzzles))];
    if let Some(s) = scol {
        columns.push(("solution", array(s, side, &labels)));
    }
    let input_batch = RecordBatch::try_from_iter(columns).unwrap();
    let mut input = Vec::new();
    {
        let mut w =
            ipc::writer::StreamWriter::try_new(&mut input, &input_batch.schema()).unwrap();
        w.write(&input_batch).unwrap();
        w.finish().unwrap();
    }
    let job = Job {
        name: "fuzz",
        task,
        threads: 1,
        on_error: OnError::Mark,
        stats: false,
        overwrite,
        asked: Asked {
            column: None,
            symbols: None,
            shape: None,
            boxes: None,
        },
        output: None,
        compression: None,
        pool: pool(),
        reporter: Mutex::new(sudoku_bulk::output::Reporter::new("fuzz".into(), None, false)),
        side: None,
    };
    let target = if text_out {
        Target::Text
    } else {
        Target::Columnar(Kind::ArrowStream)
    };
    let mut out = Vec::new();
    let run = table::run_to(&job, Kind::ArrowStream, Data::Owned(input), target, &mut out);
    let Ok(Run::Done(tally)) = run else {
        // A refusal (no grid size to tell, a layout not found) is a clean
        // end; the readers' fuzz target covers errors.
        return;
    };
    assert_eq!(tally.records, rows as u64);
    assert_eq!(tally.solved + tally.bad, tally.records);
    let model: Vec<Option<Vec<u8>>> = puzzles
        .iter()
        .map(|p| p.as_ref().and_then(|p| p.cells(side)))
        .collect();
    let completes = |k: usize, answer: &[u8]| {
        model[k]
            .as_ref()
            .is_some_and(|p| common::valid(boxes.rows(), boxes.cols(), p, answer))
    };
    if text_out {
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), rows, "{text:?}");
        for (k, line) in lines.iter().enumerate() {
            if line.starts_with("error: ") {
                continue;
            }
            match task {
                Task::Count { .. } => assert!(model[k].is_some(), "row {k} counted: {line}"),
                // Solve (this target makes no other task).
                _ => {
                    let answer: Vec<u8> = line.bytes().map(|b| b.wrapping_sub(b'0')).collect();
                    assert!(completes(k, &answer), "row {k}: {line} for {:?}", puzzles[k]);
                }
            }
        }
        return;
    }
    let back: Vec<RecordBatch> = ipc::reader::StreamReader::try_new(std::io::Cursor::new(out), None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    // (batch, row) of each output row: the output is cut in steps.
    let at: Vec<(usize, usize)> = back
        .iter()
        .enumerate()
        .flat_map(|(b, batch)| (0..batch.num_rows()).map(move |i| (b, i)))
        .collect();
    assert_eq!(at.len(), rows);
    let answers = match task {
        Task::Count { .. } => "solutions",
        _ => "solution",
    };
    let column = back.first().map(|b| b.schema().index_of(answers).unwrap());
    for (k, &(b, i)) in at.iter().enumerate() {
        let batch = &back[b];
        assert_eq!(
            batch.column(0).slice(i, 1).to_data(),
            input_batch.column(0).slice(k, 1).to_data(),
            "row {k}: puzzle unchanged"
        );
        let col = batch.column(column.unwrap());
        if let Task::Count { .. } = task {
            if col.is_valid(i) {
                assert!(model[k].is_some(), "row {k} counted: {:?}", puzzles[k]);
            }
            continue;
        }
        let out = read_back(col.as_ref(), i);
        if !overwrite {
            if let Some(old) = labels[k].as_ref().filter(|l| l.holds(side)) {
                // A label that held something: kept, wrong or on a bad row,
                // it comes back as it was (bytes, or the same numbers).
                assert_eq!(out.as_ref(), Some(old), "row {k}: label changed");
                continue;
            }
            // Without `--overwrite` a label that comes back exactly as it
            // was is never a change of the user's data. Whether an
            // all-blank label reads as empty (null) depends on the grid
            // size the table's puzzles give; a table whose puzzles are all
            // bad gives none, and its blank 16-cell label was kept as an
            // unreadable one (seed `bad_only_blank_label`).
            if out.is_some() && out.as_ref() == labels[k].as_ref() {
                continue;
            }
        }
        if let Some(v) = &out {
            let answer = v.cells(side);
            assert!(
                answer.as_ref().is_some_and(|a| completes(k, a)),
                "row {k}: {v:?} written for {:?} (overwrite {overwrite}, old {:?})",
                puzzles[k],
                labels[k]
            );
        }
    }
});
