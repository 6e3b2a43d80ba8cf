//! 16x16 and 25x25: our generic solver against a judge-style reference (the
//! classic UVA 1309 / SPOJ SUDOKU solution: per-cell candidate masks computed
//! from row/column/box masks, forced singles per cell and per unit, DFS on
//! the cell with the fewest candidates). Both solve the same fixed-seed
//! puzzles (shuffled pattern grids with 68% of cells blanked), every answer is
//! verified, and the bench asserts it. Run: `cargo bench --bench generic`.
//! The comparison is printed once, before criterion runs (one timed pass
//! each, per puzzle): the reference's times are heavy-tailed (most puzzles
//! take milliseconds, a few take many seconds), so it is not repeated
//! under criterion; the median per-puzzle ratio is the fair summary.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_bulk::generate::{pattern_grid, shuffle_grid, Rng};
use sudoku_bulk::solver;

/// Fixed-seed puzzles: shuffled pattern grids (independent of any solver,
/// so the set never changes with the solver) with `blank_percent`% of cells
/// blanked.
fn puzzles(b: usize, blank_percent: usize, count: u64, seed: u64) -> Vec<Vec<u8>> {
    let pattern = pattern_grid(solver::Boxes::square(b));
    (0..count)
        .map(|i| {
            let mut rng = Rng::for_puzzle(seed, i, 0);
            let g = shuffle_grid(solver::Boxes::square(b), &pattern, &mut rng);
            g.iter()
                .map(|&v| if rng.below(100) < blank_percent { 0 } else { v })
                .collect()
        })
        .collect()
}

/// The judge-style reference solver.
mod judge {
    pub struct Judge {
        b: usize,
        n: usize,
        cells: Vec<u8>,
        rows: Vec<u64>,
        cols: Vec<u64>,
        boxes: Vec<u64>,
        pub nodes: u64,
    }

    impl Judge {
        pub fn new(b: usize, puzzle: &[u8]) -> Option<Judge> {
            let n = b * b;
            let mut j = Judge {
                b,
                n,
                cells: vec![0; n * n],
                rows: vec![0; n],
                cols: vec![0; n],
                boxes: vec![0; n],
                nodes: 0,
            };
            for (i, &d) in puzzle.iter().enumerate() {
                if d != 0 && !j.set(i, d) {
                    return None;
                }
            }
            Some(j)
        }

        fn bx(&self, i: usize) -> usize {
            (i / self.n / self.b) * self.b + (i % self.n) / self.b
        }

        fn cand(&self, i: usize) -> u64 {
            let full = (1u64 << self.n) - 1;
            full & !(self.rows[i / self.n] | self.cols[i % self.n] | self.boxes[self.bx(i)])
        }

        fn set(&mut self, i: usize, d: u8) -> bool {
            let bit = 1u64 << (d - 1);
            if self.cand(i) & bit == 0 {
                return false;
            }
            self.cells[i] = d;
            self.rows[i / self.n] |= bit;
            self.cols[i % self.n] |= bit;
            let b = self.bx(i);
            self.boxes[b] |= bit;
            true
        }

        fn unset(&mut self, i: usize) {
            let bit = 1u64 << (self.cells[i] - 1);
            self.cells[i] = 0;
            self.rows[i / self.n] &= !bit;
            self.cols[i % self.n] &= !bit;
            let b = self.bx(i);
            self.boxes[b] &= !bit;
        }

        /// Forced moves: cells with one candidate, digits with one place in
        /// a unit. Returns the cells set (to undo), or None on a dead end.
        fn force(&mut self) -> Option<Vec<usize>> {
            let n = self.n;
            let mut done = Vec::new();
            loop {
                let before = done.len();
                for i in 0..n * n {
                    if self.cells[i] == 0 {
                        let c = self.cand(i);
                        if c == 0 {
                            self.undo(&done);
                            return None;
                        }
                        if c.count_ones() == 1 {
                            self.set(i, c.trailing_zeros() as u8 + 1);
                            done.push(i);
                        }
                    }
                }
                for u in 0..3 * n {
                    for d in 1..=n as u8 {
                        let bit = 1u64 << (d - 1);
                        let mut spot = None;
                        let mut count = 0;
                        let mut present = false;
                        for k in 0..n {
                            let i = match u / n {
                                0 => (u % n) * n + k,
                                1 => k * n + u % n,
                                _ => {
                                    let bx = u % n;
                                    ((bx / self.b) * self.b + k / self.b) * n
                                        + (bx % self.b) * self.b
                                        + k % self.b
                                }
                            };
                            if self.cells[i] == d {
                                present = true;
                                break;
                            }
                            if self.cells[i] == 0 && self.cand(i) & bit != 0 {
                                count += 1;
                                spot = Some(i);
                            }
                        }
                        if present {
                            continue;
                        }
                        match (count, spot) {
                            (0, _) => {
                                self.undo(&done);
                                return None;
                            }
                            (1, Some(i)) => {
                                self.set(i, d);
                                done.push(i);
                            }
                            _ => {}
                        }
                    }
                }
                if done.len() == before {
                    return Some(done);
                }
            }
        }

        fn undo(&mut self, done: &[usize]) {
            for &i in done.iter().rev() {
                self.unset(i);
            }
        }

        pub fn solve(&mut self) -> bool {
            self.nodes += 1;
            let Some(forced) = self.force() else {
                return false;
            };
            let mut best = None;
            let mut best_k = u32::MAX;
            for i in 0..self.n * self.n {
                if self.cells[i] == 0 {
                    let k = self.cand(i).count_ones();
                    if k < best_k {
                        best_k = k;
                        best = Some(i);
                    }
                }
            }
            let Some(i) = best else {
                return true;
            };
            let mut c = self.cand(i);
            while c != 0 {
                let d = c.trailing_zeros() as u8 + 1;
                c &= c - 1;
                self.set(i, d);
                if self.solve() {
                    return true;
                }
                self.unset(i);
            }
            self.undo(&forced);
            false
        }

        pub fn cells(&self) -> &[u8] {
            &self.cells
        }
    }
}

fn generic(c: &mut Criterion) {
    let set16 = puzzles(4, 68, 20, 0x5EED_0016);
    // Correctness gate: both solvers solve every puzzle, answers verified.
    // Per-puzzle times too: the reference's are heavy-tailed, so the median
    // ratio says more than the total.
    let mut ratios = Vec::new();
    let (mut ours_total, mut ref_total) = (0f64, 0f64);
    for p in &set16 {
        let mut out = vec![0u8; 256];
        let t = std::time::Instant::now();
        assert_eq!(
            solver::solve(solver::Boxes::square(4), p, 1, &mut out).count,
            1
        );
        let ours = t.elapsed().as_secs_f64();
        solver::verify(solver::Boxes::square(4), p, &out).expect("ours: valid answer");
        let t = std::time::Instant::now();
        let mut j = judge::Judge::new(4, p).expect("consistent givens");
        assert!(j.solve());
        let reference = t.elapsed().as_secs_f64();
        solver::verify(solver::Boxes::square(4), p, j.cells()).expect("reference: valid answer");
        ratios.push(reference / ours);
        ours_total += ours;
        ref_total += reference;
    }
    ratios.sort_by(f64::total_cmp);
    eprintln!(
        "16x16 68% blank, {} puzzles: ours {:.0}/s, reference {:.1}/s; \
         reference/ours: total {:.0}x, median {:.0}x, min {:.0}x",
        set16.len(),
        set16.len() as f64 / ours_total,
        set16.len() as f64 / ref_total,
        ref_total / ours_total,
        ratios[ratios.len() / 2],
        ratios[0]
    );
    let mut group = c.benchmark_group("16x16_68pct_blank");
    group.throughput(Throughput::Elements(set16.len() as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function(BenchmarkId::new("ours", "first"), |b| {
        let mut out = vec![0u8; 256];
        b.iter(|| {
            for p in &set16 {
                assert_eq!(
                    solver::solve(solver::Boxes::square(4), p, 1, &mut out).count,
                    1
                );
            }
        })
    });
    group.finish();

    let set25 = puzzles(5, 50, 10, 0x5EED_0025);
    for p in &set25 {
        let mut out = vec![0u8; 625];
        assert_eq!(
            solver::solve(solver::Boxes::square(5), p, 1, &mut out).count,
            1
        );
        solver::verify(solver::Boxes::square(5), p, &out).expect("ours: valid answer");
    }
    let mut group = c.benchmark_group("25x25_50pct_blank");
    group.throughput(Throughput::Elements(set25.len() as u64));
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("ours", "first"), |b| {
        let mut out = vec![0u8; 625];
        b.iter(|| {
            for p in &set25 {
                assert_eq!(
                    solver::solve(solver::Boxes::square(5), p, 1, &mut out).count,
                    1
                );
            }
        })
    });
    group.finish();
}

criterion_group!(benches, generic);
criterion_main!(benches);
