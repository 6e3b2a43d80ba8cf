//! The `bench` subcommand's engine: loads a file's puzzles into memory, times
//! the solver alone over them (no parsing or output in the timed loop), then
//! verifies every answer outside the timed loop, so a run can never silently
//! measure nothing.

use crate::solver::Boxes;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::solver;
use crate::text::detect::{self, Forced};
use crate::text::{Item, Records};

/// First solution, or count to 2 (a uniqueness proof).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Stop at the first solution (what `solve` does).
    First,
    /// Count up to 2 solutions (what `count` and `solve --unique` do).
    Unique,
}

impl Mode {
    fn limit(self) -> u32 {
        match self {
            Mode::First => 1,
            Mode::Unique => 2,
        }
    }
}

/// Puzzles of one file, parsed.
pub struct Set {
    /// Box size shared by all puzzles.
    pub boxes: Boxes,
    /// Cells of all puzzles, back to back.
    pub cells: Vec<u8>,
    /// Records that could not be parsed (left out of the set).
    pub bad: usize,
    /// 9x9 pencilmark puzzles: `solver::MARK_FLAGS` flags each.
    pub marks: bool,
}

impl Set {
    /// Cells per puzzle.
    pub fn stride(&self) -> usize {
        if self.marks {
            return crate::solver::MARK_FLAGS;
        }
        let side = self.boxes.side();
        side * side
    }

    /// Number of puzzles.
    pub fn len(&self) -> usize {
        self.cells.len() / self.stride()
    }

    /// True when no puzzle parsed.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// Parses every record of `data` (any layout `solve` reads).
pub fn load(data: &[u8], forced: &Forced) -> Result<Set, String> {
    let data = crate::pipeline::strip_bom(data);
    let found = detect::detect(data, forced)?;
    let layout = &found.layout;
    let n = layout.cells();
    let mut set = Set {
        boxes: layout.boxes,
        cells: Vec::new(),
        bad: 0,
        marks: layout.is_pencilmarks(),
    };
    let mut cells = vec![0u8; n];
    for item in Records::new(layout, &data[found.skip_bytes..]) {
        match item {
            Item::End => break,
            Item::Record { raw, .. } => match layout.parse(raw, &mut cells) {
                Ok(()) => set.cells.extend_from_slice(&cells),
                Err(_) => set.bad += 1,
            },
        }
    }
    Ok(set)
}

/// Collects the puzzles of a table or array (Parquet, Arrow, `.npy`) as
/// the columnar readers decode them, through the record-analysis seam
/// (`Task::Analyse`): every format `solve` reads is loaded by the very
/// code `solve` uses, with its checks and messages. Rows arrive in order
/// when the job runs on one thread.
#[derive(Default)]
pub struct Collect {
    got: std::sync::Mutex<(Option<Boxes>, Vec<u8>, bool)>,
}

impl Collect {
    /// The puzzles collected, as a set with `bad` unreadable rows; an
    /// error when the rows hold grids of different sizes.
    pub fn into_set(&self, bad: usize) -> Result<Set, String> {
        let mut got = self.got.lock().map_err(|_| "a reader panicked")?;
        let (boxes, cells, mixed) = std::mem::take(&mut *got);
        if mixed {
            return Err(" rows hold grids of different sizes; bench one size at a time".into());
        }
        Ok(Set {
            boxes: boxes.unwrap_or(Boxes::NINE),
            cells,
            bad,
            // Tables and arrays hold no pencilmark puzzles.
            marks: false,
        })
    }
}

impl crate::record::Analysis for Collect {
    fn name(&self) -> &'static str {
        "bench"
    }
    fn grid_column(&self) -> Option<&'static str> {
        None
    }
    fn columns(&self) -> &[&'static str] {
        &[]
    }
    fn keeps_puzzle(&self) -> bool {
        true
    }
    fn analyse(
        &self,
        boxes: Boxes,
        cells: &[u8],
        _grid: &mut [u8],
        _fields: &mut Vec<String>,
    ) -> Result<(), crate::record::RecordError> {
        if let Ok(mut got) = self.got.lock() {
            match got.0 {
                Some(b) if b != boxes => got.2 = true,
                _ => got.0 = Some(boxes),
            }
            got.1.extend_from_slice(cells);
        }
        Ok(())
    }
}

/// What one timed run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measure {
    /// Puzzles in the set.
    pub puzzles: usize,
    /// Passes over the set inside the timed window.
    pub passes: usize,
    /// Wall time of all passes.
    pub elapsed: Duration,
    /// Search branch points, per pass.
    pub guesses: u64,
    /// Puzzles solved by propagation alone, per pass.
    pub no_guess: usize,
    /// Puzzles with at least one answer that passed independent verification.
    pub verified: usize,
    /// Count mode: puzzles with exactly one solution.
    pub unique: usize,
    /// Count mode: puzzles with two or more.
    pub multiple: usize,
    /// Per-puzzle solve times of the last pass, as percentiles: median,
    /// p90, p99 and the slowest. Big random grids have heavy tails that
    /// a mean hides.
    pub percentiles: [Duration; 4],
}

/// Median, p90, p99 and maximum of `times` (nearest rank), zero when empty.
pub fn percentiles(times: &mut [Duration]) -> [Duration; 4] {
    if times.is_empty() {
        return [Duration::ZERO; 4];
    }
    times.sort_unstable();
    let rank = |p: f64| times[((p * times.len() as f64).ceil() as usize).clamp(1, times.len()) - 1];
    [rank(0.5), rank(0.9), rank(0.99), times[times.len() - 1]]
}

impl Measure {
    /// Puzzles per second over all passes.
    pub fn rate(&self) -> f64 {
        (self.puzzles * self.passes) as f64 / self.elapsed.as_secs_f64().max(1e-12)
    }
}

/// Times the solver on `set` in `mode` with `threads` workers, repeating the
/// set until `min_time` has passed (at least once); then verifies answers.
pub fn measure(set: &Set, mode: Mode, threads: usize, min_time: Duration) -> Measure {
    let stride = set.stride();
    let b = set.boxes;
    let limit = mode.limit();
    let mut answers = vec![0u8; set.cells.len()];
    let mut counts = vec![0u32; set.len()];
    let mut guesses = vec![0u64; set.len()];
    let mut times = vec![Duration::ZERO; set.len()];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("thread pool");
    // Each puzzle is timed on its own (two clock reads, ~40 ns: under 2%
    // of the fastest 9x9 puzzles) for the percentiles.
    let one = |p: &[u8], a: &mut [u8], c: &mut u32, g: &mut u64, t: &mut Duration| {
        let start = Instant::now();
        let s = solver::solve(b, p, limit, a);
        *t = start.elapsed();
        (*c, *g) = (s.count, s.guesses);
    };
    let pass =
        |answers: &mut [u8], counts: &mut [u32], guesses: &mut [u64], times: &mut [Duration]| {
            if threads <= 1 {
                for ((((p, a), c), g), t) in set
                    .cells
                    .chunks_exact(stride)
                    .zip(answers.chunks_exact_mut(stride))
                    .zip(counts.iter_mut())
                    .zip(guesses.iter_mut())
                    .zip(times.iter_mut())
                {
                    one(p, a, c, g, t);
                }
            } else {
                pool.install(|| {
                    set.cells
                        .par_chunks_exact(stride)
                        .zip(answers.par_chunks_exact_mut(stride))
                        .zip(counts.par_iter_mut())
                        .zip(guesses.par_iter_mut())
                        .zip(times.par_iter_mut())
                        .with_min_len(64)
                        .for_each(|((((p, a), c), g), t)| one(p, a, c, g, t));
                });
            }
        };
    // Untimed warm-up on a slice of the set: caches, tables, branch
    // predictors. Only a few of the big grids, where one puzzle may take
    // a second: with `--seconds 0` a set of them is measured in one pass.
    let warm = set.len().min(if set.boxes.side() > 16 { 2 } else { 2000 }) * stride;
    let mut scratch = vec![0u8; stride];
    for p in set.cells[..warm].chunks_exact(stride) {
        solver::solve(b, p, limit, &mut scratch);
    }
    let start = Instant::now();
    let mut passes = 0;
    while passes == 0 || start.elapsed() < min_time {
        pass(&mut answers, &mut counts, &mut guesses, &mut times);
        passes += 1;
    }
    let elapsed = start.elapsed();
    let mut m = Measure {
        puzzles: set.len(),
        passes,
        elapsed,
        guesses: guesses.iter().sum(),
        no_guess: guesses.iter().filter(|&&g| g == 0).count(),
        percentiles: percentiles(&mut times),
        ..Measure::default()
    };
    for ((p, a), &c) in set
        .cells
        .chunks_exact(stride)
        .zip(answers.chunks_exact(stride))
        .zip(&counts)
    {
        if c >= 1 && solver::verify(b, p, a).is_ok() {
            m.verified += 1;
        }
        match c {
            1 => m.unique += 1,
            2.. => m.multiple += 1,
            _ => {}
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_and_verifies_a_small_set() {
        let data =
            b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
            .................................................................................\n\
            bad\n";
        // The last line makes the file's layout unclear only if it comes
        // first; here it is just a bad record.
        let set = load(data, &Forced::default()).unwrap();
        assert_eq!((set.len(), set.bad), (2, 1));
        for threads in [1, 2] {
            let m = measure(&set, Mode::Unique, threads, Duration::ZERO);
            assert_eq!((m.puzzles, m.passes, m.verified), (2, 1, 2));
            assert_eq!((m.unique, m.multiple), (1, 1));
            let m = measure(&set, Mode::First, threads, Duration::ZERO);
            assert_eq!((m.verified, m.unique, m.multiple), (2, 2, 0));
        }
    }
}
