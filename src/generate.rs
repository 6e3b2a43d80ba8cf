//! Puzzle generation and grading, the engine of `generate` and `--stats`:
//! pure functions from (seed, index) to a puzzle with exactly one solution.
//! The command runs them on rayon workers and writes in index order, so the
//! output depends only on the seed, never on the thread count.
//!
//! Recipe per puzzle: a random full grid (the diagonal boxes filled at
//! random, the rest solved, then a random relabelling and row/column/band/
//! stack shuffle), then clues removed in random order, one symmetry orbit at
//! a time, keeping each removal only if the puzzle stays unique. A removed
//! cell whose digit is still a naked single among the remaining clues needs
//! no solver call (most early removals are free that way), and neither does
//! one that would empty a two-digit unavoidable set of the grid (see
//! `Unavoidable`); otherwise one search with the old digit forbidden there
//! decides it (no solution left = still unique), which fails fast where a
//! count to 2 would first have to find the solution.
//!
//! Cost per 9x9 puzzle (callgrind, `generate -n 1000 -j1`): 892k
//! instructions before the unavoidable sets, the cheaper clue loading in
//! `band` and the `band` solver for the seed grid; 774k after.

use crate::solver;
use crate::solver::cdcl::Ask;
use crate::solver::Boxes;

/// SplitMix64: seeds and the stream of one puzzle. Small, fast and good
/// enough for shuffling (Steele et al., "Fast splittable pseudorandom
/// number generators").
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream of puzzle `index` of run `seed`: independent of any other
    /// index, so workers may take indices in any order.
    pub fn for_puzzle(seed: u64, index: u64, attempt: u64) -> Rng {
        let mut r = Rng(seed);
        let a = r.next_u64();
        let mut r = Rng(a ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let b = r.next_u64();
        Rng(b ^ attempt.wrapping_mul(0xA076_1D64_78BD_642F))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n small; the modulo bias is below 2^-50).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// Which cells are removed together, so the clue pattern keeps a symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// Any pattern.
    None,
    /// Invariant under a half turn (the classic newspaper pattern).
    Rotate180,
    /// Invariant under a quarter turn.
    Rotate90,
    /// Invariant under a left-right mirror.
    Mirror,
    /// Invariant under transposition (main diagonal).
    Diagonal,
}

impl Symmetry {
    /// The cells that go with cell `i` of a `side`-wide grid.
    fn orbit(self, i: usize, side: usize) -> Vec<usize> {
        let (r, c) = (i / side, i % side);
        let m = side - 1;
        let mut cells = vec![i];
        let mut add = |r: usize, c: usize| {
            let j = r * side + c;
            if !cells.contains(&j) {
                cells.push(j);
            }
        };
        match self {
            Symmetry::None => {}
            Symmetry::Rotate180 => add(m - r, m - c),
            Symmetry::Rotate90 => {
                add(c, m - r);
                add(m - r, m - c);
                add(m - c, r);
            }
            Symmetry::Mirror => add(r, m - c),
            Symmetry::Diagonal => add(c, r),
        }
        cells
    }
}

/// Difficulty from the work our solver needs to prove uniqueness (count to
/// 2), in guesses. Thresholds: 0 / 1-4 / 5-29 / 30+. On the benchmark sets
/// this puts 76% of the 17-clue puzzles in `Easy` and every forum-hardest
/// puzzle in `Hard` or `Extreme`. Levels are relative to this solver's
/// deductions (singles, locked candidates, band configurations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Solved by propagation alone, no guess.
    Easy,
    /// A few guesses.
    Medium,
    /// Tens of guesses.
    Hard,
    /// Many guesses.
    Extreme,
}

impl Level {
    /// The level for a guess count.
    pub fn from_guesses(guesses: u64) -> Level {
        match guesses {
            0 => Level::Easy,
            1..=4 => Level::Medium,
            5..=29 => Level::Hard,
            _ => Level::Extreme,
        }
    }

    /// Lower-case name, as written in output.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Extreme => "extreme",
        }
    }
}

/// Guesses to prove the puzzle unique, and the level they give.
pub fn grade(boxes: Boxes, cells: &[u8]) -> (u64, Level) {
    let mut scratch = vec![0u8; cells.len()];
    let s = solver::solve(boxes, cells, 2, &mut scratch);
    (s.guesses, Level::from_guesses(s.guesses))
}

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// Box shape, hence the grid size (3x3 for 9x9, 2x3 for 6x6).
    pub boxes: Boxes,
    /// Stop removing clues at this many (if reachable while unique).
    pub clues: Option<usize>,
    /// Retry until the puzzle has this level (bounded, see [`ATTEMPTS`]).
    pub level: Option<Level>,
    /// Pattern symmetry.
    pub symmetry: Symmetry,
}

/// Attempts (sub-seeds) per puzzle before settling for the closest result
/// when a clue count or level is asked for (3 for 25x25 and up).
pub const ATTEMPTS: u64 = 200;

/// From this side up, a minimal puzzle takes a minute or more on one core
/// (`generate --size N -n 1 --seed 3 -j 1`: 25x25 5-30 s, 26x26 4.5 s,
/// 27x27 49 s, 28x28, 30x30, 32x32, 33x33 and 35x35 unfinished after 90 s,
/// 36x36 to 64x64 after 300 s): once about half the cells are blank, each
/// uniqueness question takes long.
pub const SLOW_MINIMAL_SIDE: usize = 27;

/// The note `generate` gives (the command on stderr, Python as a warning)
/// when asked for minimal puzzles of a side where they take minutes:
/// which clue count makes one in seconds instead (62% of the cells: 0.01
/// to 0.2 s a puzzle from 27x27 to 35x35; 36x36 with 700 clues 0.14 s,
/// 49x49 with 1400 0.3-0.6 s, 64x64 with 2500 3 s, while 36x36 with 600
/// and 49x49 with 1200 ran past 200 s).
/// `clues_flag` is how the caller spells the option (`--clues `, `clues=`).
pub fn slow_minimal_note(side: usize, clues_flag: &str) -> Option<String> {
    (side >= SLOW_MINIMAL_SIDE).then(|| {
        format!(
            "minimal {side}x{side} puzzles take minutes each (once about half the cells \
             are blank, each uniqueness question does); {clues_flag}{} (62% of the cells) \
             makes one in seconds",
            side * side * 62 / 100
        )
    })
}

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Cells, 0 = blank.
    pub cells: Vec<u8>,
    /// Its only solution.
    pub solution: Vec<u8>,
    /// Guesses our solver needs to prove it unique.
    pub guesses: u64,
    /// The level those give.
    pub level: Level,
    /// False when the requested clue count or level was not reached within
    /// [`ATTEMPTS`]; the puzzle is still proper.
    pub on_target: bool,
}

/// Puzzle `index` of run `seed`. Same arguments, same puzzle.
pub fn generate(spec: &Spec, seed: u64, index: u64) -> Puzzle {
    let mut best: Option<(usize, Puzzle)> = None;
    // A 25x25 attempt takes about a minute on one core: a few, not 200.
    let attempts = if spec.boxes.side() >= 25 { 3 } else { ATTEMPTS };
    for attempt in 0..attempts {
        let mut rng = Rng::for_puzzle(seed, index, attempt);
        let solution = full_grid(spec.boxes, &mut rng);
        let cells = remove_clues(spec, &solution, &mut rng);
        let (guesses, level) = grade(spec.boxes, &cells);
        let clues = cells.iter().filter(|&&v| v != 0).count();
        // Distance from the target: clues above the asked count, or levels
        // away from the asked level.
        let miss = spec.clues.map_or(0, |k| clues.saturating_sub(k))
            + spec
                .level
                .map_or(0, |l| (l as usize).abs_diff(level as usize) * 100);
        let p = Puzzle {
            cells,
            solution,
            guesses,
            level,
            on_target: miss == 0,
        };
        if miss == 0 {
            return p;
        }
        if best.as_ref().is_none_or(|(m, _)| miss < *m) {
            best = Some((miss, p));
        }
    }
    best.expect("at least one attempt").1
}

/// Puzzles generated per parallel batch by [`Run`]: enough to keep every
/// core busy, small enough that memory stays flat for any count.
pub const BATCH: u64 = 4096;

/// A run of puzzles for one seed as `generate` writes them: index order,
/// repeats (by a 64-bit hash of the cells) replaced deterministically. The
/// command and the Python package both draw from it, so the same seed gives
/// the same puzzles in both, whatever the thread count.
#[derive(Debug)]
pub struct Run {
    spec: Spec,
    seed: u64,
    next: u64,
    seen: std::collections::HashSet<u64>,
    /// Repeats replaced so far.
    pub duplicates: u64,
}

impl Run {
    /// A run of `spec` puzzles from `seed`, starting at index 0.
    pub fn new(spec: Spec, seed: u64) -> Run {
        Run {
            spec,
            seed,
            next: 0,
            seen: Default::default(),
            duplicates: 0,
        }
    }

    /// The puzzles from the next index up to `end` (exclusive), made in
    /// parallel on the current rayon pool (call it inside `pool.install`);
    /// repeats are then replaced in index order, on the calling thread.
    pub fn take_until(&mut self, end: u64) -> Vec<Puzzle> {
        use rayon::prelude::*;
        use std::hash::{Hash, Hasher};
        let (spec, seed, start) = (&self.spec, self.seed, self.next);
        let mut batch: Vec<Puzzle> = (start..end.max(start))
            .into_par_iter()
            .map(|i| generate(spec, seed, i))
            .collect();
        for (k, p) in batch.iter_mut().enumerate() {
            let mut retry = 0u64;
            loop {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                p.cells.hash(&mut h);
                if self.seen.insert(h.finish()) {
                    break;
                }
                // A repeat: the next sub-stream of this index, far from any
                // other index's.
                self.duplicates += 1;
                retry += 1;
                *p = generate(spec, seed, (start + k as u64) | retry << 48);
            }
        }
        self.next = end.max(start);
        batch
    }
}

/// An ER band for `generate --rating MIN..MAX`, in tenths, both ends in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingBand {
    /// Lowest ER kept.
    pub min: crate::rate::Tenths,
    /// Highest ER kept.
    pub max: crate::rate::Tenths,
}

impl RatingBand {
    /// Parses `MIN..MAX` (`2.0..4.4`; one decimal, as serate prints).
    pub fn parse(s: &str) -> Result<RatingBand, String> {
        let tenths = |t: &str| -> Option<crate::rate::Tenths> {
            let (a, b) = t.trim().split_once('.').unwrap_or((t.trim(), "0"));
            let (a, b): (u8, u8) = (a.parse().ok()?, b.parse().ok()?);
            (b < 10 && (1..=20).contains(&a)).then(|| a * 10 + b)
        };
        let band = s
            .split_once("..")
            .and_then(|(a, b)| Some((tenths(a)?, tenths(b)?)))
            .map(|(min, max)| RatingBand { min, max });
        match band {
            Some(b) if b.min <= b.max => Ok(b),
            _ => Err(format!(
                "{s:?}: give an ER band MIN..MAX with one decimal, MIN <= MAX, between 1.0 \
                 and 20.0 (`2.0..4.4`)"
            )),
        }
    }

    /// True when rating `r` falls in the band.
    pub fn holds(self, r: crate::rate::Tenths) -> bool {
        (self.min..=self.max).contains(&r)
    }

    /// Refuses, before any work, a band that no puzzle of `spec` can
    /// reach or that reaches above what `rater` rates exactly
    /// ([`crate::rate::Rater::covers`]: puzzles there would come out
    /// `unrated`, so the band could never be filled faithfully; the
    /// ceiling follows the rater as it gains techniques).
    ///
    /// Below 1.2 only 1.0 exists (a Hidden Single that is the last empty
    /// cell of its region; 1.2 is the next rating of any hint), and ER 1.0
    /// needs at least [`ER_ONE_CLUES`] clues: every step of such a path
    /// fills the last empty cell of a region, which it leaves full, so a
    /// path has at most 27 steps. A minimal puzzle (no `--clues`) has far
    /// fewer clues (the most known is 40).
    pub fn check(self, rater: &crate::rate::Rater, spec: &Spec) -> Result<(), String> {
        let t = crate::rate::tenths;
        let top = rater.covers();
        if self.max < 12 {
            let ones = self.min <= 10 && spec.clues.is_some_and(|c| c >= ER_ONE_CLUES);
            if !ones {
                let why = if self.min > 10 {
                    "no hint rates between 1.0 and 1.2".to_string()
                } else {
                    format!(
                        "ER 1.0 (last empty cells of regions only) needs at least {ER_ONE_CLUES} clues, and {} puzzles have fewer",
                        match spec.clues {
                            Some(c) => format!("--clues {c}"),
                            None => "minimal".to_string(),
                        }
                    )
                };
                return Err(format!(
                    "--rating {self}: no puzzle can have an ER in this band ({why}); give a band \
                     from 1.2 up"
                ));
            }
        }
        if self.max > top {
            return Err(format!(
                "--rating {self}: the rater gives exact ratings up to ER {} only (the \
                 techniques above are not implemented yet); give a band within 1.2..{}",
                t(top),
                t(top)
            ));
        }
        Ok(())
    }
}

/// The fewest clues a puzzle of ER 1.0 can have (81 less 27: see
/// [`RatingBand::check`]).
pub const ER_ONE_CLUES: usize = 81 - 27;

impl std::fmt::Display for RatingBand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = crate::rate::tenths;
        write!(f, "{}..{}", t(self.min), t(self.max))
    }
}

/// Candidates in a row without one in the band after which
/// [`RatedRun::take`] gives up (a band that generated puzzles (nearly)
/// never reach, such as 1.0..1.1, would otherwise run forever): about a
/// minute of one core.
pub const RATING_GIVE_UP: u64 = 200_000;

/// `generate --rating`: the puzzles of a [`Run`] (9x9) whose serate ER
/// falls in a band, in index order. Candidates are made and rated in
/// batches of [`BATCH`] on the current rayon pool and kept in order, so the
/// output is the in-band subsequence of the plain run's: it depends on the
/// seed only, never on the thread count.
#[derive(Debug)]
pub struct RatedRun {
    run: Run,
    band: RatingBand,
    rater: crate::rate::Rater,
    /// Candidates made and rated, not yet looked at, with whether they
    /// fall in the band.
    pending: std::collections::VecDeque<(Puzzle, bool)>,
    /// Candidates looked at so far (the last kept puzzle's included).
    pub candidates: u64,
    /// Candidates since the last one in the band.
    dry: u64,
}

impl RatedRun {
    /// A rated run of `spec` puzzles from `seed`, kept when their ER (with
    /// serate's default techniques) is in `band`.
    pub fn new(spec: Spec, seed: u64, band: RatingBand) -> RatedRun {
        RatedRun {
            run: Run::new(spec, seed),
            band,
            rater: crate::rate::Rater::new(),
            pending: Default::default(),
            candidates: 0,
            dry: 0,
        }
    }

    /// Repeats replaced among the candidates (see [`Run::duplicates`]).
    pub fn duplicates(&self) -> u64 {
        self.run.duplicates
    }

    /// The next `n` puzzles in the band (call inside `pool.install`), or an
    /// error after [`RATING_GIVE_UP`] candidates in a row outside it.
    pub fn take(&mut self, n: usize) -> Result<Vec<Puzzle>, String> {
        self.take_with(n, |_, _| true)
    }

    /// [`RatedRun::take`], calling `each(candidates, found)` after every
    /// batch of candidates is rated ([`RatedRun::candidates`] so far, the
    /// puzzles found by this call so far): a band that few candidates reach
    /// rates thousands between two finds, so this is where progress is
    /// shown and an interrupt is seen. When `each` gives false the call
    /// ends with what it found (fewer than `n`); the candidates not looked
    /// at yet stay for the next call, so the puzzles do not change.
    pub fn take_with(
        &mut self,
        n: usize,
        mut each: impl FnMut(u64, usize) -> bool,
    ) -> Result<Vec<Puzzle>, String> {
        use rayon::prelude::*;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let Some((p, keep)) = self.pending.pop_front() else {
                // Small asks make small batches (the output does not depend
                // on the batch size: candidates are looked at in order).
                let need = (n - out.len()) as u64;
                let end = self.run.next + (need * 8).clamp(256, BATCH);
                let batch = self.run.take_until(end);
                let rater = self.rater;
                let band = self.band;
                let keep: Vec<bool> = batch
                    .par_iter()
                    .map(|p| match rater.rate(&p.cells) {
                        crate::rate::Outcome::Rated(r) => band.holds(r.er),
                        _ => false,
                    })
                    .collect();
                // Counted as looked at: the batch's candidates and finds.
                let found = out.len() + keep.iter().filter(|&&k| k).count();
                let seen = self.candidates + self.pending.len() as u64 + keep.len() as u64;
                self.pending.extend(batch.into_iter().zip(keep));
                if !each(seen, found.min(n)) {
                    break;
                }
                continue;
            };
            self.candidates += 1;
            if keep {
                self.dry = 0;
                out.push(p);
            } else {
                self.dry += 1;
                if self.dry >= RATING_GIVE_UP {
                    return Err(format!(
                        "--rating {}: none of {} candidates in a row has an ER in the band; \
                         widen it",
                        self.band, self.dry
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// A random valid grid with boxes `b`.
pub fn full_grid(b: Boxes, rng: &mut Rng) -> Vec<u8> {
    let n = b.side();
    loop {
        // The diagonal boxes share no row, column or box: any fill is valid.
        let mut cells = vec![0u8; n * n];
        for k in 0..b.rows().min(b.cols()) {
            let mut digits: Vec<u8> = (1..=n as u8).collect();
            rng.shuffle(&mut digits);
            for (j, &d) in digits.iter().enumerate() {
                cells[b.box_cell(k * b.rows() + k, j)] = d;
            }
        }
        let mut grid = vec![0u8; n * n];
        if solver::solve_first_cheap(b, &cells, &mut grid) {
            return shuffle_grid(b, &grid, rng);
        }
    }
}

/// The classic shifted-pattern valid grid with boxes `b` of R x C cells
/// (row `r`, column `c` holds `(C*(r%R) + r/R + c) % n + 1`). Shuffled with
/// [`shuffle_grid`] it gives solver-independent random grids, for fixed
/// benchmark sets.
pub fn pattern_grid(b: Boxes) -> Vec<u8> {
    let n = b.side();
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            ((b.cols() * (r % b.rows()) + r / b.rows() + c) % n) as u8 + 1
        })
        .collect()
}

/// A random symmetry of a valid grid: digits relabelled, rows permuted
/// within bands and bands permuted, the same for columns, maybe transposed
/// (square boxes only).
pub fn shuffle_grid(b: Boxes, grid: &[u8], rng: &mut Rng) -> Vec<u8> {
    let n = b.side();
    let mut relabel: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut relabel);
    // Groups of `size` lines (a band of box-height rows, a stack of
    // box-width columns), shuffled as groups and within each.
    let order = |rng: &mut Rng, size: usize| {
        let mut groups: Vec<usize> = (0..n / size).collect();
        rng.shuffle(&mut groups);
        let mut out = Vec::with_capacity(n);
        for g in groups {
            let mut inner: Vec<usize> = (0..size).collect();
            rng.shuffle(&mut inner);
            out.extend(inner.iter().map(|i| g * size + i));
        }
        out
    };
    let (rows, cols) = (order(rng, b.rows()), order(rng, b.cols()));
    let transpose = b.is_square() && rng.below(2) == 1;
    let mut out = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let (sr, sc) = if transpose {
                (cols[c], rows[r])
            } else {
                (rows[r], cols[c])
            };
            out[r * n + c] = relabel[grid[sr * n + sc] as usize - 1];
        }
    }
    out
}

/// Guesses after which a uniqueness search on a grid bigger than 9x9 gives
/// up and the clue stays. Without it, one heavy-tailed search could hold a
/// 25x25 puzzle for many minutes (seen: `--size 25 --clues 250` unfinished
/// after 2 minutes); with it the puzzle is still unique, only perhaps not
/// minimal.
const GIVE_UP: u64 = 1 << 14;

/// Removes clues from a full grid while the puzzle stays unique.
fn remove_clues(spec: &Spec, solution: &[u8], rng: &mut Rng) -> Vec<u8> {
    let b = spec.boxes;
    let n = b.side();
    let mut cells = solution.to_vec();
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    let mut clues = n * n;
    let mut scratch = vec![0u8; n * n];
    let target = spec.clues.unwrap_or(0);
    let mut sets = Unavoidable::new(b, solution);
    for &i in &order {
        if clues <= target {
            break;
        }
        if cells[i] == 0 {
            continue;
        }
        let orbit = spec.symmetry.orbit(i, n);
        if orbit.iter().any(|&j| cells[j] == 0) {
            continue; // a partner went already; orbits go whole
        }
        if clues - orbit.len() < target {
            continue; // would overshoot the asked clue count
        }
        if !sets.can_remove(&orbit) {
            continue; // an unavoidable set would lose its last clue
        }
        for &j in &orbit {
            cells[j] = 0;
        }
        // A search that gives up proves nothing: the clue stays.
        // The puzzle was unique with the orbit's clues, so a second
        // solution now must differ from the known one in one of the
        // orbit's cells: unique still iff, for each of them, no solution
        // avoids its old digit. One such question per cell instead of a
        // count to 2 for the orbit (a count must also prove that no other
        // solution exists anywhere, from a clause against the whole known
        // one). The searches start near the known solution (see
        // `solver::solve_asking`).
        let unique = orbit.iter().all(|&j| {
            let ask = Ask {
                exclude: Some((j, solution[j])),
                near: Some(solution),
            };
            forced(b, &cells, j, solution[j])
                || solver::solve_asking(b, &cells, ask, 1, &mut scratch, GIVE_UP)
                    .is_some_and(|s| s.count == 0)
        });
        if unique {
            clues -= orbit.len();
            sets.remove(&orbit);
        } else {
            for &j in &orbit {
                cells[j] = solution[j];
            }
        }
    }
    cells
}

/// The two-digit unavoidable sets of a full grid, with how many clues each
/// still holds. For digits `a`, `b`, a set of cells holding only `a` and
/// `b` whose every row, column and box has both or neither can swap `a` and
/// `b` and stay a valid grid; so a puzzle without a clue in such a set has
/// a second solution. The smallest such sets are the connected components
/// of "the other digit in my row, column or box" over the `2n` cells of a
/// pair. Refusing a removal that would empty one saves the search that
/// would find the second solution: on 9x9, 27% of the searches that fail
/// (the `a b / b a` rectangles alone), with the same output.
struct Unavoidable {
    /// Digits per side: each cell is in `n - 1` sets, one per pair with
    /// its digit, at `of_cell[i * (n - 1)..]`.
    n: usize,
    of_cell: Vec<u32>,
    /// Clues left per set.
    left: Vec<u32>,
}

impl Unavoidable {
    fn new(b: Boxes, grid: &[u8]) -> Unavoidable {
        let n = b.side();
        let box_of = |i: usize| b.box_of(i / n, i % n);
        // The cell holding digit d in row / column / box u, at `d * n + u`.
        let mut in_row = vec![0usize; n * n];
        let mut in_col = vec![0usize; n * n];
        let mut in_box = vec![0usize; n * n];
        for (i, &v) in grid.iter().enumerate() {
            let d = v as usize - 1;
            in_row[d * n + i / n] = i;
            in_col[d * n + i % n] = i;
            in_box[d * n + box_of(i)] = i;
        }
        // Union-find over cells, reset per pair for the pair's 2n cells.
        let mut parent: Vec<usize> = (0..n * n).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut of_cell = vec![0u32; n * n * (n - 1)];
        let mut filled = vec![0usize; n * n];
        let mut left = Vec::new();
        let mut id = vec![u32::MAX; n * n];
        for a in 0..n {
            for c in a + 1..n {
                for u in 0..n {
                    for i in [in_row[a * n + u], in_row[c * n + u]] {
                        parent[i] = i;
                        id[i] = u32::MAX;
                    }
                }
                for u in 0..n {
                    let x = in_row[a * n + u];
                    for y in [
                        in_row[c * n + x / n],
                        in_col[c * n + x % n],
                        in_box[c * n + box_of(x)],
                    ] {
                        let (rx, ry) = (root(&mut parent, x), root(&mut parent, y));
                        parent[rx] = ry;
                    }
                }
                for u in 0..n {
                    for i in [in_row[a * n + u], in_row[c * n + u]] {
                        let r = root(&mut parent, i);
                        if id[r] == u32::MAX {
                            id[r] = left.len() as u32;
                            left.push(0);
                        }
                        left[id[r] as usize] += 1;
                        of_cell[i * (n - 1) + filled[i]] = id[r];
                        filled[i] += 1;
                    }
                }
            }
        }
        Unavoidable { n, of_cell, left }
    }

    fn sets(&self, i: usize) -> std::ops::Range<usize> {
        i * (self.n - 1)..(i + 1) * (self.n - 1)
    }

    /// False when removing these clues would leave a set with none.
    fn can_remove(&mut self, cells: &[usize]) -> bool {
        if let [i] = cells {
            // The common case, without the write-and-restore.
            return self.of_cell[self.sets(*i)]
                .iter()
                .all(|&s| self.left[s as usize] > 1);
        }
        self.remove(cells);
        let ok = cells.iter().all(|&i| {
            self.of_cell[self.sets(i)]
                .iter()
                .all(|&s| self.left[s as usize] > 0)
        });
        for &i in cells {
            for k in self.sets(i) {
                self.left[self.of_cell[k] as usize] += 1;
            }
        }
        ok
    }

    /// Records that these clues are gone.
    fn remove(&mut self, cells: &[usize]) {
        for &i in cells {
            for k in self.sets(i) {
                self.left[self.of_cell[k] as usize] -= 1;
            }
        }
    }
}

/// True when digit `d` is forced into blank cell `i` by the clues alone, as
/// a naked single (every other digit is among its peers): then any solution
/// puts `d` there, so a unique puzzle stays unique without this clue. (A
/// hidden-single test as well cost more than the solver calls it saved:
/// 8.75k → 9.2k puzzles/s without it, same output.)
fn forced(b: Boxes, cells: &[u8], i: usize, d: u8) -> bool {
    let n = b.side();
    let (r, c) = (i / n, i % n);
    let bx = b.box_of(r, c);
    let mut seen = 0u64;
    for k in 0..n {
        seen |= bit(cells[r * n + k]) | bit(cells[k * n + c]) | bit(cells[b.box_cell(bx, k)]);
    }
    let all = u64::MAX >> (64 - n);
    seen & bit(d) == 0 && seen | bit(d) == all
}

fn bit(v: u8) -> u64 {
    if v == 0 {
        0
    } else {
        1 << (v - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::naive;

    fn spec(symmetry: Symmetry) -> Spec {
        Spec {
            boxes: Boxes::NINE,
            clues: None,
            level: None,
            symmetry,
        }
    }

    #[test]
    fn puzzles_are_unique_keep_their_solution_and_are_reproducible() {
        for index in 0..12 {
            let p = generate(&spec(Symmetry::None), 42, index);
            let mut g = p.cells.clone();
            assert_eq!(naive::count(Boxes::NINE, &mut g, 2), 1, "index {index}");
            solver::verify(crate::solver::Boxes::NINE, &p.cells, &p.solution).unwrap();
            assert_eq!(generate(&spec(Symmetry::None), 42, index), p);
            assert_ne!(generate(&spec(Symmetry::None), 43, index).cells, p.cells);
            // Minimal puzzles have few clues.
            let clues = p.cells.iter().filter(|&&v| v != 0).count();
            assert!((17..=32).contains(&clues), "{clues} clues");
        }
    }

    #[test]
    fn symmetry_and_clue_targets_are_kept() {
        for index in 0..5 {
            let p = generate(&spec(Symmetry::Rotate180), 7, index);
            for i in 0..81 {
                assert_eq!(p.cells[i] == 0, p.cells[80 - i] == 0);
            }
            let mut g = p.cells.clone();
            assert_eq!(naive::count(Boxes::NINE, &mut g, 2), 1);
            let s = Spec {
                clues: Some(36),
                ..spec(Symmetry::None)
            };
            let p = generate(&s, 7, index);
            assert!(p.on_target);
            assert_eq!(p.cells.iter().filter(|&&v| v != 0).count(), 36);
        }
    }

    /// Symmetric puzzles are unique and minimal as patterns: putting back
    /// nothing, every orbit of clues still there is needed (the removal
    /// questions ask, per cell of the orbit, whether a solution avoids its
    /// old digit). Counted by the naive solver, on 9x9 and 6x6 (2x3).
    #[test]
    fn symmetric_puzzles_are_unique_and_orbit_minimal() {
        let six = Boxes::new(2, 3).expect("2x3 boxes");
        for (boxes, symmetry) in [
            (Boxes::NINE, Symmetry::Rotate180),
            (Boxes::NINE, Symmetry::Rotate90),
            (Boxes::NINE, Symmetry::Mirror),
            (six, Symmetry::Rotate180),
            (six, Symmetry::Mirror),
        ] {
            let n = boxes.side();
            let s = Spec {
                boxes,
                ..spec(symmetry)
            };
            for index in 0..3 {
                let p = generate(&s, 5, index);
                solver::verify(boxes, &p.cells, &p.solution).unwrap();
                let mut g = p.cells.clone();
                assert_eq!(naive::count(boxes, &mut g, 2), 1, "{symmetry:?} {index}");
                for i in (0..n * n).filter(|&i| p.cells[i] != 0) {
                    let orbit = symmetry.orbit(i, n);
                    let mut g = p.cells.clone();
                    for &j in &orbit {
                        assert_ne!(g[j], 0, "{symmetry:?}: the pattern is not symmetric");
                        g[j] = 0;
                    }
                    assert_eq!(
                        naive::count(boxes, &mut g, 2),
                        2,
                        "{symmetry:?} {n}x{n} index {index}: orbit {orbit:?} could go"
                    );
                }
            }
        }
    }

    #[test]
    fn levels_follow_guesses_and_targets_are_met() {
        assert!(Level::from_guesses(0) < Level::from_guesses(3));
        assert!(Level::from_guesses(3) < Level::from_guesses(10));
        assert!(Level::from_guesses(10) < Level::from_guesses(100));
        for level in [Level::Easy, Level::Medium] {
            let s = Spec {
                level: Some(level),
                ..spec(Symmetry::None)
            };
            let p = generate(&s, 3, 0);
            assert!(p.on_target);
            assert_eq!(grade(Boxes::NINE, &p.cells).1, level);
        }
    }

    #[test]
    fn sixteen_by_sixteen() {
        let s = Spec {
            boxes: Boxes::square(4),
            clues: Some(140),
            level: None,
            symmetry: Symmetry::None,
        };
        let p = generate(&s, 1, 0);
        solver::verify(crate::solver::Boxes::square(4), &p.cells, &p.solution).unwrap();
        let mut out = vec![0u8; 256];
        assert_eq!(
            solver::solve(crate::solver::Boxes::square(4), &p.cells, 2, &mut out).count,
            1
        );
    }

    /// Without a symmetry or clue target the puzzles are minimal: every
    /// clue is needed (the unavoidable-set shortcut only ever refuses
    /// removals that would really break uniqueness). Counted by the naive
    /// solver.
    #[test]
    fn puzzles_are_minimal() {
        for index in 0..6 {
            let p = generate(&spec(Symmetry::None), 11, index);
            for i in (0..81).filter(|&i| p.cells[i] != 0) {
                let mut g = p.cells.clone();
                g[i] = 0;
                assert_eq!(
                    naive::count(Boxes::NINE, &mut g, 2),
                    2,
                    "index {index} cell {i}"
                );
            }
        }
    }

    /// Every set `Unavoidable` builds is one: swapping its two digits on
    /// its cells gives another valid grid.
    #[test]
    fn unavoidable_sets_swap_into_valid_grids() {
        for (r, c, seed) in [(3, 3, 5), (3, 3, 6), (4, 4, 7), (2, 3, 8), (3, 4, 9)] {
            let b = Boxes::new(r, c).unwrap();
            let grid = full_grid(b, &mut Rng(seed));
            let n = b.side();
            let sets = Unavoidable::new(b, &grid);
            assert!(sets.left.len() >= n * (n - 1) / 2);
            for id in 0..sets.left.len() as u32 {
                let cells: Vec<usize> = (0..n * n)
                    .filter(|&i| sets.of_cell[sets.sets(i)].contains(&id))
                    .collect();
                assert_eq!(cells.len(), sets.left[id as usize] as usize);
                let digits: Vec<u8> = cells.iter().map(|&i| grid[i]).collect();
                let a = digits[0];
                let c = *digits.iter().find(|&&d| d != a).expect("two digits");
                assert!(digits.iter().all(|&d| d == a || d == c));
                let mut swapped = grid.clone();
                for &i in &cells {
                    swapped[i] = if grid[i] == a { c } else { a };
                }
                assert_ne!(swapped, grid);
                solver::verify(b, &vec![0; n * n], &swapped)
                    .unwrap_or_else(|e| panic!("set {id} of {cells:?}: {e}"));
            }
        }
    }

    #[test]
    fn rating_bands_parse_and_every_band_is_rated_exactly() {
        let b = RatingBand::parse("2.0..4.4").unwrap();
        assert_eq!((b.min, b.max), (20, 44));
        assert_eq!(RatingBand::parse("3..3").unwrap().max, 30);
        for bad in ["4.4..2.0", "2.0", "x..4.4", "0.5..1.0", "2.0..4.45"] {
            assert!(RatingBand::parse(bad).is_err(), "{bad}");
        }
        // Every serate technique is implemented: any band is exact, the
        // nested chains' 9.5-11+ included.
        let rater = crate::rate::Rater::new();
        let minimal = spec(Symmetry::None);
        assert_eq!(rater.covers(), crate::rate::Tenths::MAX);
        for band in ["1.2..12.0", "9.0..9.4", "10.5..11.9"] {
            assert!(RatingBand::parse(band)
                .unwrap()
                .check(&rater, &minimal)
                .is_ok());
        }
    }

    /// Bands below 1.2 are refused before any work unless the clues asked
    /// for leave room for ER 1.0.
    #[test]
    fn bands_no_puzzle_reaches_are_refused() {
        let rater = crate::rate::Rater::new();
        let minimal = spec(Symmetry::None);
        let band = |s: &str| RatingBand::parse(s).unwrap();
        for s in ["1.0..1.1", "1.0..1.0", "1.1..1.1"] {
            assert!(band(s).check(&rater, &minimal).is_err(), "{s}");
        }
        assert!(band("1.0..1.2").check(&rater, &minimal).is_ok());
        let many = Spec {
            clues: Some(ER_ONE_CLUES),
            ..minimal
        };
        assert!(band("1.0..1.1").check(&rater, &many).is_ok());
        assert!(band("1.1..1.1").check(&rater, &many).is_err());
        let few = Spec {
            clues: Some(ER_ONE_CLUES - 1),
            ..minimal
        };
        assert!(band("1.0..1.1").check(&rater, &few).is_err());
    }

    /// `take_with` reports every rated batch and, told to stop, returns
    /// early without losing a candidate: the puzzles are those of an
    /// uninterrupted run.
    #[test]
    fn a_rated_run_stopped_between_batches_gives_the_same_puzzles() {
        let spec = spec(Symmetry::None);
        let band = RatingBand { min: 20, max: 30 };
        let mut stopped = RatedRun::new(spec, 11, band);
        let mut calls = Vec::new();
        let first = stopped
            .take_with(1000, |seen, found| {
                calls.push((seen, found));
                false
            })
            .unwrap();
        assert_eq!(calls.len(), 1);
        assert!(calls[0].0 >= 256 && first.is_empty(), "{calls:?}");
        let rest = stopped.take(5).unwrap();
        let whole = RatedRun::new(spec, 11, band).take(5).unwrap();
        assert_eq!(rest, whole);
    }

    /// `RatedRun` keeps exactly the candidates of the plain run whose ER
    /// (rated again here) is in the band, in order, whatever the batches.
    #[test]
    fn a_rated_run_is_the_in_band_subsequence_of_the_plain_run() {
        let spec = spec(Symmetry::None);
        let band = RatingBand { min: 20, max: 30 };
        let mut rated = RatedRun::new(spec, 11, band);
        let mut got = rated.take(3).unwrap();
        got.extend(rated.take(4).unwrap());
        let plain = Run::new(spec, 11).take_until(rated.candidates);
        let want: Vec<Puzzle> = plain
            .into_iter()
            .filter(|p| {
                matches!(crate::rate::rate(&p.cells),
                    crate::rate::Outcome::Rated(r) if (20..=30).contains(&r.er))
            })
            .collect();
        assert_eq!(got.len(), 7);
        assert_eq!(got, want, "the last candidate looked at is the last kept");
    }
}
