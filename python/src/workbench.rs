//! `sudoku_bulk._native`'s dataset workbench: `split`, `augment` and
//! `stats` of the Python package. The rows come in as for the analyses
//! (`analysis.rs`'s `Puzzles`: a `uint8` array of cells or a list of
//! one-line strings), their keys are the commands' own (`dedupe::KeyJob`
//! through `batch::analyse_rows`, on a rayon pool with the GIL released),
//! and the library's in-memory twins of the commands do the rest:
//! `dedupe::split_keys` (the seeded class order and walk of `split`),
//! `dedupe::card_of_keys` (the walks of `stats`, its JSON) and
//! `augment::augment_rows` (`augment`'s disguises). Only reading, the
//! parallel run and the conversion back live here.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use sudoku_bulk::augment;
use sudoku_bulk::dedupe::{self, Key, KeyJob, Strata};
use sudoku_bulk::solver::Boxes;

use crate::analysis::{
    analyse, analyse_reporting, form_of, Analysed, Bad, Progress, Puzzles, Source, UNREAD,
};
use crate::pool;

/// A row's keys as [`KeyJob::keys`] reads them: `(iso, exact)` as asked,
/// `None` for a bad row.
type RowKeys = Option<(Option<Key>, Option<Key>)>;

/// The keys of every row: `(iso, exact)` as `job` asks, `None` for a bad row.
fn keys_of(
    py: Python<'_>,
    puzzles: &Puzzles,
    job: &KeyJob,
    threads: Option<usize>,
    progress: Progress<'_>,
) -> PyResult<(Analysed, Vec<RowKeys>)> {
    let done = analyse_reporting(py, puzzles, Some(job), threads, progress)?;
    let keys = (0..puzzles.rows)
        .map(|r| {
            done.bad[r]
                .is_none()
                .then(|| job.keys(&done.fields[r]))
                .flatten()
        })
        .collect();
    Ok((done, keys))
}

/// Split: `(parts, bad)`, the part of every row (`uint8`: 0 train, 1
/// test, 2 val) and the bad rows (train). `by`: `"iso"` (canonical forms
/// of `form`) or `"exact"`; `stratify`: `None`, `"clues"`, or
/// `"given"` with `strata` one number a row.
#[pyfunction]
#[pyo3(signature = (puzzles, test, val, seed, by="iso", form="pattern", stratify=None, strata=None, threads=None, pre_bad=Vec::new(), progress=None))]
#[allow(clippy::too_many_arguments)] // the keywords Python passes
fn split_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    test: f64,
    val: f64,
    seed: u64,
    by: &str,
    form: &str,
    stratify: Option<&str>,
    strata: Option<PyReadonlyArray1<'py, u32>>,
    threads: Option<usize>,
    pre_bad: Vec<(usize, String)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(Bound<'py, PyArray1<u8>>, Bad)> {
    dedupe::check_fractions(test, val).map_err(PyValueError::new_err)?;
    let iso = by_iso(by)?;
    let job = KeyJob {
        iso: iso.then(|| form_of(form)).transpose()?,
        exact: !iso,
    };
    let given: Option<Vec<u32>> = strata
        .map(|s| s.as_slice().map(<[u32]>::to_vec))
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let p = Puzzles::read(puzzles, pre_bad)?;
    let (done, keys) = keys_of(
        py,
        &p,
        &job,
        threads,
        progress.as_ref().map(|c| (c, 0, p.rows)),
    )?;
    let keys: Vec<Option<Key>> = keys
        .into_iter()
        .map(|k| k.and_then(|(i, e)| if iso { i } else { e }))
        .collect();
    let strata = match (stratify, &given) {
        (None, _) => Strata::None,
        (Some("clues"), _) => Strata::Clues,
        (Some("given"), Some(g)) => Strata::Given(g),
        (Some(other), _) => {
            return Err(PyValueError::new_err(format!(
                "stratify must be None, \"clues\" or one value a row, not {other:?}"
            )))
        }
    };
    let pool = pool(threads)?;
    let parts = py
        .detach(|| pool.install(|| dedupe::split_keys(&keys, strata, test, val, seed)))
        .map_err(PyValueError::new_err)?;
    let parts: Vec<u8> = parts.into_iter().map(|p| p as u8).collect();
    Ok((parts.into_pyarray(py), done.bad_list()))
}

/// The classes of every row, for routes that walk them themselves (the
/// Spark glue): `(keys, order, clues, bad)`, each row's key as hex (None
/// for a bad row), its class's place in `split`'s seeded order (the hash
/// with its top bit flipped, so signed order is the command's unsigned
/// order; 0 for a bad row) and its clue count (-1 for a bad row).
#[pyfunction]
#[pyo3(signature = (puzzles, seed, by="iso", threads=None, pre_bad=Vec::new()))]
#[allow(clippy::type_complexity)] // the tuple Python unpacks
fn class_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    seed: u64,
    by: &str,
    threads: Option<usize>,
    pre_bad: Vec<(usize, String)>,
) -> PyResult<(
    Vec<Option<String>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bad,
)> {
    let iso = by_iso(by)?;
    let job = KeyJob {
        iso: iso.then_some(sudoku_bulk::canon::Form::Pattern),
        exact: !iso,
    };
    let p = Puzzles::read(puzzles, pre_bad)?;
    let (done, keys) = keys_of(py, &p, &job, threads, None)?;
    let mut hex = Vec::with_capacity(p.rows);
    let mut order = Vec::with_capacity(p.rows);
    let mut clues = Vec::with_capacity(p.rows);
    for k in keys {
        match k.and_then(|(i, e)| if iso { i } else { e }) {
            Some(key) => {
                hex.push(Some(key.iter().map(|b| format!("{b:02x}")).collect()));
                order.push((dedupe::class_hash(seed, &key) ^ (1 << 63)) as i64);
                clues.push(i64::from(dedupe::key_clues(&key)));
            }
            None => {
                hex.push(None);
                order.push(0);
                clues.push(-1);
            }
        }
    }
    Ok((
        hex,
        order.into_pyarray(py),
        clues.into_pyarray(py),
        done.bad_list(),
    ))
}

fn by_iso(by: &str) -> PyResult<bool> {
    match by {
        "iso" => Ok(true),
        "exact" => Ok(false),
        other => Err(PyValueError::new_err(format!(
            "by must be \"iso\" or \"exact\", not {other:?}"
        ))),
    }
}

/// The card of a set: `(json, bad, against_bad)`, the object `sudoku-bulk
/// stats --json` writes for it (named `name`), and the bad rows of it and
/// of `against`.
#[pyfunction]
#[pyo3(signature = (puzzles, name, against=None, against_name="against", threads=None, pre_bad=Vec::new(), against_bad=Vec::new(), ratings=None, progress=None))]
#[allow(clippy::too_many_arguments)] // the keywords Python passes
fn stats_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    name: &str,
    against: Option<&Bound<'py, PyAny>>,
    against_name: &str,
    threads: Option<usize>,
    pre_bad: Vec<(usize, String)>,
    against_bad: Vec<(usize, String)>,
    ratings: Option<(String, Vec<String>)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, Bad, Bad)> {
    // stats compares by the pattern form, as the command does.
    let job = KeyJob {
        iso: Some(sudoku_bulk::canon::Form::Pattern),
        exact: true,
    };
    let both = |keys: Vec<RowKeys>| -> Vec<Option<(Key, Key)>> {
        keys.into_iter()
            .map(|k| k.and_then(|(i, e)| Some((i?, e?))))
            .collect()
    };
    let p = Puzzles::read(puzzles, pre_bad)?;
    let q = against.map(|a| Puzzles::read(a, against_bad)).transpose()?;
    let all = p.rows + q.as_ref().map_or(0, |q| q.rows);
    let cb = progress.as_ref();
    let (done, keys) = keys_of(py, &p, &job, threads, cb.map(|c| (c, 0, all)))?;
    let keys = both(keys);
    let other = match &q {
        Some(q) => {
            let (d, k) = keys_of(py, q, &job, threads, cb.map(|c| (c, p.rows, all)))?;
            Some((d.bad_list(), both(k)))
        }
        None => None,
    };
    // Blank symbols of the string rows read whole that have a blank (the
    // command counts them for text records the same way).
    let n = p.cells();
    let mut blanks = Vec::new();
    if let Source::Text {
        data,
        ends,
        layout: Some(layout),
        ..
    } = &p.source
    {
        for r in 0..p.rows {
            let cells = &done.cells[r * n..(r + 1) * n];
            if cells[0] != UNREAD && cells.contains(&0) {
                blanks.push(layout.blank_of(&data[ends[r]..ends[r + 1]]));
            }
        }
    }
    let boxes = p.boxes;
    let boxes_for = move |side: usize| {
        if side == boxes.side() {
            Some(boxes)
        } else {
            Boxes::for_side(side)
        }
    };
    let pool = pool(threads)?;
    let mut card = py.detach(|| {
        pool.install(|| {
            dedupe::card_of_keys(
                name,
                &keys,
                blanks,
                other.as_ref().map(|(_, k)| (against_name, &k[..])),
                &boxes_for,
            )
        })
    });
    // A rating or level column's values, as text (the command's cards
    // count them the same way).
    card.ratings = ratings.map(|(column, values)| {
        let mut counts: std::collections::HashMap<String, u64> = Default::default();
        for v in values {
            *counts.entry(v.trim().to_string()).or_insert(0) += 1;
        }
        dedupe::Ratings::new(&column, counts)
    });
    Ok((
        dedupe::cards_json(&[card]),
        done.bad_list(),
        other.map(|(b, _)| b).unwrap_or_default(),
    ))
}

/// What [`augment_rows`] returns: puzzles, solutions (or None), transforms
/// (or None), source rows, copied rows, bad rows.
type AugmentOut<'py> = (
    Bound<'py, PyAny>,
    Option<Bound<'py, PyAny>>,
    Option<Vec<Option<String>>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<bool>>,
    Bad,
);

/// Output rows as the input's kind: a flat `uint8` array for cells, else
/// one string a row in the strings' own symbols (`blank`, or each row's
/// own blank for `None`); a `copied` row of strings is its input string.
fn rows_out<'py>(
    py: Python<'py>,
    p: &Puzzles,
    cells: Vec<u8>,
    source: &[usize],
    copied: &[bool],
    blank: Option<u8>,
) -> PyResult<Bound<'py, PyAny>> {
    let Source::Text {
        data,
        ends,
        null,
        layout,
    } = &p.source
    else {
        return Ok(cells.into_pyarray(py).into_any());
    };
    let n = p.cells();
    let mut buf = Vec::new();
    let mut out: Vec<Option<Bound<'py, PyString>>> = Vec::with_capacity(source.len());
    for (k, &row) in source.iter().enumerate() {
        let raw = &data[ends[row]..ends[row + 1]];
        let text = match layout {
            _ if copied[k] && null[row] => None,
            _ if copied[k] => Some(String::from_utf8_lossy(raw).into_owned()),
            None => None,
            Some(l) => {
                buf.clear();
                let b = blank.unwrap_or_else(|| l.blank_of(raw));
                l.write_cells(&cells[k * n..(k + 1) * n], b, &mut buf);
                Some(String::from_utf8_lossy(&buf).into_owned())
            }
        };
        out.push(text.map(|t| PyString::new(py, &t)));
    }
    Ok(out.into_pyobject(py)?.into_any())
}

/// Augment: `count` disguises of every good row (after the row itself
/// with `keep_original`), solutions transformed along; a bad row once,
/// unchanged. `(puzzles, solutions, transforms, source, copied, bad)`.
#[pyfunction]
#[pyo3(signature = (puzzles, count, seed, keep_original=false, transform=false, solutions=None, blank=None, threads=None, pre_bad=Vec::new(), solution_bad=Vec::new()))]
#[allow(clippy::too_many_arguments)] // the keywords Python passes
fn augment_rows<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    count: u32,
    seed: u64,
    keep_original: bool,
    transform: bool,
    solutions: Option<&Bound<'py, PyAny>>,
    blank: Option<&str>,
    threads: Option<usize>,
    pre_bad: Vec<(usize, String)>,
    solution_bad: Vec<(usize, String)>,
) -> PyResult<AugmentOut<'py>> {
    let blank = match blank {
        None => None,
        Some(b @ ("0" | ".")) => Some(b.as_bytes()[0]),
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "blank must be \"0\", \".\" or None, not {other:?}"
            )))
        }
    };
    let p = Puzzles::read(puzzles, pre_bad)?;
    let done = analyse(py, &p, None, threads)?;
    let n = p.cells();
    let mut bad = done.bad.clone();
    // Pencilmark-free rows only: the cells of a grid.
    let sol = match solutions {
        None => None,
        Some(s) => {
            let q = Puzzles::read(s, solution_bad)?;
            if q.rows != p.rows {
                return Err(PyValueError::new_err(format!(
                    "{} solutions for {} puzzles: one a puzzle",
                    q.rows, p.rows
                )));
            }
            let d = analyse(py, &q, None, threads)?;
            let null = |r: usize| match &q.source {
                Source::Text { null, .. } => null[r],
                Source::Cells(_) => false,
            };
            let mut has = vec![false; q.rows];
            for r in 0..q.rows {
                let cells = &d.cells[r * q.cells()..(r + 1) * q.cells()];
                match &d.bad[r] {
                    None if q.cells() != n && cells.iter().any(|&v| v != 0) => {
                        bad[r].get_or_insert_with(|| {
                            format!(
                                "solution: a {0}x{0} grid for a {1}x{1} puzzle",
                                q.boxes.side(),
                                p.boxes.side()
                            )
                        });
                    }
                    None => has[r] = cells.iter().any(|&v| v != 0),
                    Some(_) if null(r) => {}
                    Some(why) => {
                        bad[r].get_or_insert_with(|| format!("solution: {why}"));
                    }
                }
            }
            Some((q, d, has))
        }
    };
    let good: Vec<bool> = (0..p.rows).map(|r| done.bad[r].is_none()).collect();
    let pool = pool(threads)?;
    let boxes = p.boxes;
    let sol_cells = sol.as_ref().map(|(q, d, has)| {
        if q.cells() == n {
            (d.cells.clone(), has.clone())
        } else {
            (vec![0u8; p.rows * n], vec![false; p.rows])
        }
    });
    let a = py.detach(|| {
        pool.install(|| {
            augment::augment_rows(
                boxes,
                &done.cells,
                &good,
                sol_cells.as_ref().map(|(c, h)| (&c[..], &h[..])),
                count,
                seed,
                keep_original,
                transform,
            )
        })
    });
    let puzzles_out = rows_out(py, &p, a.puzzles, &a.source, &a.copied, blank)?;
    let solutions_out = match &sol {
        None => None,
        Some((q, _, _)) => Some(match &q.source {
            Source::Cells(_) => a.solutions.into_pyarray(py).into_any(),
            // A row without a solution: None (zeros for cells).
            Source::Text { layout, .. } => {
                let mut buf = Vec::new();
                let list: Vec<Option<String>> = (0..a.source.len())
                    .map(|k| {
                        let l = layout.as_ref().filter(|_| a.solved[k])?;
                        buf.clear();
                        l.write_cells(&a.solutions[k * n..(k + 1) * n], l.usual_blank(), &mut buf);
                        Some(String::from_utf8_lossy(&buf).into_owned())
                    })
                    .collect();
                list.into_pyobject(py)?.into_any()
            }
        }),
    };
    finish(
        py,
        puzzles_out,
        solutions_out,
        a.transforms,
        transform,
        a.source,
        a.copied,
        bad,
    )
}

#[allow(clippy::too_many_arguments)] // the tuple's parts
fn finish<'py>(
    py: Python<'py>,
    puzzles: Bound<'py, PyAny>,
    solutions: Option<Bound<'py, PyAny>>,
    transforms: Vec<Option<String>>,
    transform: bool,
    source: Vec<usize>,
    copied: Vec<bool>,
    bad: Vec<Option<String>>,
) -> PyResult<AugmentOut<'py>> {
    let source: Vec<i64> = source.into_iter().map(|s| s as i64).collect();
    let bad = bad
        .into_iter()
        .enumerate()
        .filter_map(|(i, b)| b.map(|b| (i, b)))
        .collect();
    Ok((
        puzzles,
        solutions,
        transform.then_some(transforms),
        source.into_pyarray(py),
        copied.into_pyarray(py),
        bad,
    ))
}

/// Adds this file's functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(split_rows, m)?)?;
    m.add_function(wrap_pyfunction!(class_rows, m)?)?;
    m.add_function(wrap_pyfunction!(stats_rows, m)?)?;
    m.add_function(wrap_pyfunction!(augment_rows, m)?)?;
    Ok(())
}
