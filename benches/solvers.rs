//! Criterion benches of the 9x9 solver over the shipped `data/` sets, in both
//! modes. Each bench first solves its whole set once and asserts the number
//! of verified answers (and the known uniqueness), so it can never silently
//! measure nothing. Run: `cargo bench --bench solvers`.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_bulk::bench::{load, measure, Mode, Set};
use sudoku_bulk::solver;
use sudoku_bulk::text::detect::Forced;

/// (file in data/, puzzles, every puzzle has exactly one solution)
const SETS: &[(&str, usize, bool)] = &[
    ("17_clue_sub.txt", 4916, true),
    ("magictour_top1465.txt", 1465, true),
    ("forum_hardest_11plus_sub.txt", 2439, true),
    ("forum_hardest_1106.txt", 375, true),
    ("serg_benchmark_sub.txt", 2000, false),
];

fn load_set(name: &str) -> Set {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    load(&data, &Forced::default()).unwrap()
}

fn solvers(c: &mut Criterion) {
    for &(name, puzzles, unique) in SETS {
        let set = load_set(name);
        assert_eq!((set.len(), set.bad), (puzzles, 0), "{name}");
        // Correctness gate before any timing.
        let m = measure(&set, Mode::Unique, 1, Duration::ZERO);
        assert_eq!(m.verified, puzzles, "{name}: every answer verified");
        if unique {
            assert_eq!(m.unique, puzzles, "{name}: all unique");
        } else {
            assert_eq!(m.multiple, puzzles, "{name}: all have 2+ solutions");
        }
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(puzzles as u64));
        group.sample_size(10);
        for (mode, limit) in [("first", 1u32), ("count2", 2)] {
            group.bench_function(BenchmarkId::new("fast9", mode), |b| {
                let mut out = vec![0u8; 81];
                b.iter(|| {
                    let mut solved = 0;
                    for p in set.cells.chunks_exact(81) {
                        solved += (solver::solve(solver::Boxes::square(3), p, limit, &mut out)
                            .count
                            > 0) as usize;
                    }
                    assert_eq!(solved, puzzles);
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);
