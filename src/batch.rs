//! Batch: many puzzles held as fixed-size rows of cells (NumPy arrays,
//! Parquet and Arrow columns, the Python package's inputs) solved in
//! parallel on the current rayon pool, each through [`record::answer`],
//! results in row order. Text records go through `pipeline` instead, which
//! cuts them out of bytes first.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::solver::Boxes;
use rayon::prelude::*;

use crate::record::{self, Label, Outcome, Task};

/// The most worker threads worth starting here (4 per core): the CLI lowers
/// `-j` to it, the Python binding its `threads=`.
pub use crate::pipeline::max_threads;

/// Rows handed to a worker at a time: enough to make the split cost vanish
/// next to a 9x9 solve (about 2 µs), small enough to balance hard rows.
const MIN_ROWS_PER_JOB: usize = 256;

/// Runs `f(row, answer)` for every row of `answers` (rows of
/// `cells_per_row` cells) in parallel on the current rayon pool (call it
/// inside `pool.install` to pick the threads), and returns the outcomes in
/// row order. `f` writes the row's answer cells.
pub fn for_each_row<F>(cells_per_row: usize, answers: &mut [u8], f: F) -> Vec<Outcome>
where
    F: Fn(usize, &mut [u8]) -> Outcome + Sync,
{
    assert!(cells_per_row > 0 && answers.len().is_multiple_of(cells_per_row));
    answers
        .par_chunks_mut(cells_per_row)
        .with_min_len(MIN_ROWS_PER_JOB)
        .enumerate()
        .map(|(row, answer)| f(row, answer))
        .collect()
}

/// Solves (or counts) every row of `puzzles` (cells, `0` blank, boxes
/// `boxes`) with the label rule: `labels` gives each row's existing
/// solution (`None`: all absent). Rows answered or kept get their solution in
/// `answers`; bad rows are all zeros.
pub fn solve_rows(
    boxes: Boxes,
    task: Task,
    puzzles: &[u8],
    labels: Option<&[Label<'_>]>,
    overwrite: bool,
    answers: &mut [u8],
) -> Vec<Outcome> {
    let side = boxes.side();
    let n = side * side;
    assert_eq!(
        puzzles.len(),
        answers.len(),
        "one answer row per puzzle row"
    );
    if let Some(l) = labels {
        assert_eq!(l.len() * n, puzzles.len(), "one label per puzzle row");
    }
    for_each_row(n, answers, |row, answer| {
        let label = labels.map_or(Label::Absent, |l| l[row].clone());
        let cells = &puzzles[row * n..(row + 1) * n];
        record::answer(boxes, task, label, overwrite, cells, answer)
    })
}

/// Runs `analysis` on every row of `puzzles` (cells, `0` blank, boxes
/// `boxes`) in parallel on the current rayon pool: each row's grid goes to
/// the same row of `grids` (zeros for a bad row), its text fields to
/// `fields[row]` (empty for a bad row). Outcomes in row order.
pub fn analyse_rows(
    boxes: Boxes,
    analysis: &dyn record::Analysis,
    puzzles: &[u8],
    grids: &mut [u8],
    fields: &mut [Vec<String>],
) -> Vec<Outcome> {
    let n = boxes.side() * boxes.side();
    assert_eq!(puzzles.len(), grids.len(), "one grid row per puzzle row");
    assert_eq!(fields.len() * n, puzzles.len(), "one field list per row");
    grids
        .par_chunks_mut(n)
        .zip(fields.par_iter_mut())
        .enumerate()
        .with_min_len(MIN_ROWS_PER_JOB)
        .map(|(row, (grid, fields))| {
            let cells = &puzzles[row * n..(row + 1) * n];
            record::analyse(boxes, analysis, cells, grid, fields)
        })
        .collect()
}

/// The rows to keep when deduplicating by `keys` (one per row; rows with
/// equal keys are one class): the index of the first row of each class, in
/// ascending order. A `None` key (a bad row: no key could be made) is a
/// class of its own, so it is kept and never merged with anything. In
/// memory (one hash entry per class); the Python package's `dedupe` and any
/// caller whose keys fit in memory share it.
pub fn first_of_each<K: Hash + Eq>(keys: impl IntoIterator<Item = Option<K>>) -> Vec<usize> {
    let mut seen = HashSet::new();
    keys.into_iter()
        .enumerate()
        .filter_map(|(i, key)| match key {
            None => Some(i),
            Some(k) => seen.insert(k).then_some(i),
        })
        .collect()
}

/// For each key of `probes`, the index of the first row of `reference`
/// with an equal key (`None` when there is none). `None` keys (bad rows)
/// never match and are never matched. The Python package's `overlap`
/// (train/test leakage) uses it.
pub fn first_matches<K: Hash + Eq>(
    reference: impl IntoIterator<Item = Option<K>>,
    probes: impl IntoIterator<Item = Option<K>>,
) -> Vec<Option<usize>> {
    let mut first = HashMap::new();
    for (i, key) in reference.into_iter().enumerate() {
        if let Some(k) = key {
            first.entry(k).or_insert(i);
        }
    }
    probes
        .into_iter()
        .map(|key| key.and_then(|k| first.get(&k).copied()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Verdict;

    fn parse(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn rows_come_back_in_order_with_labels_applied() {
        let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.txt"))
            .unwrap();
        let rows: Vec<Vec<u8>> = data
            .lines()
            .filter(|l| l.len() == 81)
            .take(600)
            .map(parse)
            .collect();
        let puzzles = rows.concat();
        let mut answers = vec![0u8; puzzles.len()];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let task = Task::Solve { unique: false };
        let out =
            pool.install(|| solve_rows(Boxes::NINE, task, &puzzles, None, false, &mut answers));
        assert_eq!(out.len(), rows.len());
        for (k, row) in rows.iter().enumerate() {
            assert_eq!(out[k].verdict, Verdict::Answered(1), "row {k}");
            crate::solver::verify(
                crate::solver::Boxes::NINE,
                row,
                &answers[k * 81..(k + 1) * 81],
            )
            .unwrap();
        }
        // Every other row labelled with the answer, one with a broken one.
        let mut broken = answers[81..162].to_vec();
        broken.swap(0, 1);
        let labels: Vec<Label> = (0..rows.len())
            .map(|k| match k {
                1 => Label::Cells(&broken),
                k if k % 2 == 0 => Label::Cells(&answers[k * 81..(k + 1) * 81]),
                _ => Label::Empty,
            })
            .collect();
        let mut again = vec![0u8; puzzles.len()];
        let out = pool.install(|| {
            solve_rows(
                Boxes::NINE,
                task,
                &puzzles,
                Some(&labels),
                false,
                &mut again,
            )
        });
        assert!(matches!(out[1].verdict, Verdict::Bad(_)));
        assert_eq!(&again[81..162], &[0u8; 81][..]);
        for k in (0..rows.len()).filter(|&k| k != 1) {
            let want = if k % 2 == 0 {
                Verdict::Kept
            } else {
                Verdict::Answered(1)
            };
            assert_eq!(out[k].verdict, want, "row {k}");
            crate::solver::verify(
                crate::solver::Boxes::NINE,
                &rows[k],
                &again[k * 81..(k + 1) * 81],
            )
            .unwrap();
        }
    }

    #[test]
    fn first_of_each_keeps_the_first_row_of_every_class_and_every_bad_row() {
        let keys = [
            Some("a"),
            Some("b"),
            None,
            Some("a"),
            None,
            Some("c"),
            Some("b"),
        ];
        assert_eq!(first_of_each(keys), vec![0, 1, 2, 4, 5]);
        assert_eq!(first_of_each(Vec::<Option<u8>>::new()), Vec::<usize>::new());
        // Brute force on random keys: a row is kept exactly when no earlier
        // row has its key.
        let mut x = 7u64;
        let keys: Vec<Option<u64>> = (0..2000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 60 != 0).then_some(x >> 55)
            })
            .collect();
        let want: Vec<usize> = (0..keys.len())
            .filter(|&i| keys[i].is_none() || !keys[..i].contains(&keys[i]))
            .collect();
        assert_eq!(first_of_each(keys.iter().copied()), want);
    }

    #[test]
    fn first_matches_points_at_the_first_equal_reference_row() {
        let reference = [Some(&b"x"[..]), None, Some(b"y"), Some(b"x")];
        let probes = [Some(&b"x"[..]), Some(b"z"), None, Some(b"y")];
        assert_eq!(
            first_matches(reference, probes),
            vec![Some(0), None, None, Some(2)]
        );
    }

    /// Relabels digit d as 10 - d; the field is the number of givens, and
    /// a puzzle without givens is bad.
    struct Mirror;

    impl record::Analysis for Mirror {
        fn name(&self) -> &'static str {
            "mirror"
        }
        fn grid_column(&self) -> Option<&'static str> {
            Some("mirrored")
        }
        fn columns(&self) -> &[&'static str] {
            &["givens"]
        }
        fn keeps_puzzle(&self) -> bool {
            false
        }
        fn analyse(
            &self,
            _: Boxes,
            cells: &[u8],
            grid: &mut [u8],
            fields: &mut Vec<String>,
        ) -> Result<(), crate::text::RecordError> {
            let givens = cells.iter().filter(|&&v| v != 0).count();
            if givens == 0 {
                return Err(crate::text::RecordError::NoSolution);
            }
            for (g, &v) in grid.iter_mut().zip(cells) {
                *g = if v == 0 { 0 } else { 10 - v };
            }
            fields.push(givens.to_string());
            Ok(())
        }
    }

    #[test]
    fn analysed_rows_keep_their_order_and_bad_rows_are_empty() {
        let mut puzzles = Vec::new();
        for k in 0..1000u32 {
            // Row k has k % 81 givens (row 0, 81, ... none: bad).
            let mut row = [0u8; 81];
            for (i, c) in row.iter_mut().enumerate().take((k % 81) as usize) {
                *c = 1 + ((i as u32 + k) % 9) as u8;
            }
            puzzles.extend_from_slice(&row);
        }
        let mut grids = vec![7u8; puzzles.len()];
        let mut fields = vec![Vec::new(); 1000];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let out =
            pool.install(|| analyse_rows(Boxes::NINE, &Mirror, &puzzles, &mut grids, &mut fields));
        for k in 0..1000 {
            let p = &puzzles[k * 81..(k + 1) * 81];
            let g = &grids[k * 81..(k + 1) * 81];
            if k % 81 == 0 {
                assert!(matches!(out[k].verdict, Verdict::Bad(_)), "row {k}");
                assert!(g.iter().all(|&v| v == 0) && fields[k].is_empty(), "row {k}");
                continue;
            }
            assert_eq!(out[k].verdict, Verdict::Answered(1), "row {k}");
            assert_eq!(fields[k], vec![(k % 81).to_string()], "row {k}");
            for (&a, &b) in p.iter().zip(g) {
                assert_eq!(b, if a == 0 { 0 } else { 10 - a }, "row {k}");
            }
        }
    }
}
