//! Generic NxN solver (box size 2..=6, grids 4x4 to 36x36): the path every
//! non-9x9 puzzle takes. Pure: cells in, outcome out; one heap stack of
//! states per call, nothing else allocated.
//!
//! Layout, monomorphised per box size (`B`, side `N = B*B`, cells `C = N*N`):
//!
//! ```text
//!   cand[i]  u64, bit d-1 set while digit d may stand in cell i
//!   value[i] 0 while open, else the digit placed
//!   units    rows[N][N], cols[N][N], boxes[N][N]: cell indices
//! ```
//!
//! Placing a digit clears it from the cell's 3(N-1) peers; propagation runs
//! naked singles and hidden singles (bit-sliced once/twice/thrice per unit)
//! to a fixed point. The search then branches on the smallest choice among
//! every constraint, as Knuth's dancing links does: a cell with the fewest
//! candidates, or a (unit, digit) with only two places left. Branching on
//! cells alone is what makes judge-style solvers stall on sparse 16x16 and
//! 25x25 grids (hundreds of guesses per puzzle at 60% blanks).

use super::Search;

#[derive(Clone)]
struct State<const C: usize> {
    cand: [u64; C],
    value: [u8; C],
    open: usize,
    /// Units (rows, then columns, then boxes) whose cells changed since the
    /// hidden-single pass last looked at them; only those are rescanned.
    dirty: u128,
}

/// Marks the row, column and box of cell `i` dirty.
#[inline(always)]
fn units_of<const B: usize, const N: usize>(i: usize) -> u128 {
    let (r, c) = (i / N, i % N);
    (1u128 << r) | (1u128 << (N + c)) | (1u128 << (2 * N + (r / B) * B + c / B))
}

/// Cell indices of every unit.
struct Units<const N: usize> {
    all: Vec<[u16; N]>,
}

impl<const N: usize> Units<N> {
    fn new(b: usize) -> Units<N> {
        let mut all = Vec::with_capacity(3 * N);
        for r in 0..N {
            all.push(std::array::from_fn(|k| (r * N + k) as u16));
        }
        for c in 0..N {
            all.push(std::array::from_fn(|k| (k * N + c) as u16));
        }
        for bx in 0..N {
            all.push(std::array::from_fn(|k| {
                let r = (bx / b) * b + k / b;
                let c = (bx % b) * b + k % b;
                (r * N + c) as u16
            }));
        }
        Units { all }
    }
}

/// Where to branch: the alternatives, each a (cell, digit bit) placement.
enum Branch {
    Cell { cell: usize, digits: u64 },
    Unit { unit: usize, bit: u64 },
}

impl<const C: usize> State<C> {
    /// Places `bit` in cell `i` and clears it from the peers; peers left
    /// with one candidate go on `singles`. False when a peer is left with
    /// none.
    #[inline]
    fn place<const B: usize, const N: usize>(
        &mut self,
        i: usize,
        bit: u64,
        singles: &mut Vec<u16>,
    ) -> bool {
        debug_assert!(self.value[i] == 0 && self.cand[i] & bit != 0);
        self.value[i] = bit.trailing_zeros() as u8 + 1;
        self.cand[i] = bit;
        self.open -= 1;
        let (r, c) = (i / N, i % N);
        let mut ok = true;
        let mut dirty = units_of::<B, N>(i);
        let mut clear = |p: usize| {
            if p != i && self.cand[p] & bit != 0 {
                let left = self.cand[p] & !bit;
                self.cand[p] = left;
                dirty |= units_of::<B, N>(p);
                ok &= left != 0;
                if left & left.wrapping_sub(1) == 0 {
                    singles.push(p as u16);
                }
            }
        };
        for k in 0..N {
            clear(r * N + k);
            clear(k * N + c);
        }
        let (br, bc) = ((r / B) * B, (c / B) * B);
        for dr in 0..B {
            for dc in 0..B {
                clear((br + dr) * N + bc + dc);
            }
        }
        self.dirty |= dirty;
        ok
    }

    /// Places every queued naked single (and those they create).
    fn drain<const B: usize, const N: usize>(&mut self, singles: &mut Vec<u16>) -> bool {
        while let Some(i) = singles.pop() {
            let i = i as usize;
            if self.value[i] != 0 {
                continue;
            }
            // A cell queued with one candidate may have lost it since.
            let c = self.cand[i];
            if c == 0 || !self.place::<B, N>(i, c, singles) {
                return false;
            }
        }
        true
    }

    /// Naked and hidden singles to a fixed point; then the branch with the
    /// fewest alternatives. `Err` on a contradiction, `Ok(None)` when solved.
    fn propagate<const B: usize, const N: usize>(
        &mut self,
        units: &Units<N>,
        start: usize,
        singles: &mut Vec<u16>,
    ) -> Result<Option<Branch>, ()> {
        let full: u64 = (1u64 << N) - 1;
        let lazy_locked = N <= 16;
        loop {
            if !self.drain::<B, N>(singles) {
                return Err(());
            }
            if self.open == 0 {
                return Ok(None);
            }
            let mut progress = false;
            // Hidden singles; remember the best (unit, digit) pair.
            let mut pair: Option<(usize, u64)> = None;
            let mut todo = std::mem::take(&mut self.dirty);
            while todo != 0 {
                let u = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let cells = &units.all[u];
                let (mut once, mut twice, mut thrice, mut placed) = (0u64, 0u64, 0u64, 0u64);
                for &i in cells {
                    let i = i as usize;
                    let c = self.cand[i];
                    if self.value[i] != 0 {
                        placed |= c;
                    } else {
                        thrice |= twice & c;
                        twice |= once & c;
                        once |= c;
                    }
                }
                if (once | placed) != full {
                    return Err(());
                }
                let hidden = once & !twice & !placed;
                if hidden != 0 {
                    let mut s = hidden;
                    while s != 0 {
                        let bit = s & s.wrapping_neg();
                        s ^= bit;
                        let spot = cells
                            .iter()
                            .map(|&i| i as usize)
                            .find(|&i| self.value[i] == 0 && self.cand[i] & bit != 0);
                        match spot {
                            Some(i) => {
                                if !self.place::<B, N>(i, bit, singles) {
                                    return Err(());
                                }
                            }
                            None => return Err(()),
                        }
                    }
                    progress = true;
                } else if pair.is_none() {
                    let two = twice & !thrice & !placed;
                    if two != 0 {
                        pair = Some((u, two & two.wrapping_neg()));
                    }
                }
            }
            if progress {
                continue;
            }
            // From 25x25 up, locked candidates run before every branch:
            // run lazily there, 25x25 at 50% blanks fell from 8.0 to 3.5/s.
            if !lazy_locked {
                match self.locked::<B, N>(singles) {
                    Err(()) => return Err(()),
                    Ok(true) => continue,
                    Ok(false) => {}
                }
            }
            // The open cell with the fewest candidates; ties go to the
            // first found from `start`, which restarts vary.
            let mut best = (usize::MAX, 0u64, u32::MAX);
            for j in 0..C {
                let i = (j + start) % C;
                if self.value[i] == 0 {
                    let k = self.cand[i].count_ones();
                    if k < best.2 {
                        best = (i, self.cand[i], k);
                        if k == 2 {
                            break;
                        }
                    }
                }
            }
            // Up to 16x16, locked candidates only when every branch would
            // be wider than two: a two-way split costs less than the pass
            // (16x16 at 68% blanks: 3.3k → 4.5-5.0k puzzles/s).
            if lazy_locked && best.2 > 2 && pair.is_none() {
                match self.locked::<B, N>(singles) {
                    Err(()) => return Err(()),
                    Ok(true) => continue,
                    Ok(false) => {}
                }
            }
            return Ok(Some(match pair {
                Some((unit, bit)) if best.2 > 2 => Branch::Unit { unit, bit },
                _ => Branch::Cell {
                    cell: best.0,
                    digits: best.1,
                },
            }));
        }
    }
}

impl<const C: usize> State<C> {
    /// Removes `digits` from open cell `i`: whether anything went, `Err`
    /// if nothing is left; a cell left with one candidate is queued.
    #[inline]
    fn remove<const B: usize, const N: usize>(
        &mut self,
        i: usize,
        digits: u64,
        singles: &mut Vec<u16>,
    ) -> Result<bool, ()> {
        if self.value[i] != 0 || self.cand[i] & digits == 0 {
            return Ok(false);
        }
        let left = self.cand[i] & !digits;
        self.cand[i] = left;
        self.dirty |= units_of::<B, N>(i);
        if left == 0 {
            return Err(());
        }
        if left & (left - 1) == 0 {
            singles.push(i as u16);
        }
        Ok(true)
    }

    /// Locked candidates over every box/line intersection ("minirow" or
    /// "minicolumn" of B cells): a digit of a box confined to one
    /// intersection leaves the rest of that line (pointing), and a digit of a
    /// line confined to one intersection leaves the rest of that box
    /// (claiming). Returns whether anything was removed.
    fn locked<const B: usize, const N: usize>(
        &mut self,
        singles: &mut Vec<u16>,
    ) -> Result<bool, ()> {
        let mut changed = false;
        for horizontal in [true, false] {
            // seg[line][stack]: union of open candidates in the intersection
            // of a line (row or column) with the box at position `stack`.
            let mut seg = [[0u64; B]; N];
            for (line, segs) in seg.iter_mut().enumerate() {
                for (k, s) in segs.iter_mut().enumerate() {
                    for j in 0..B {
                        let along = k * B + j;
                        let i = if horizontal {
                            line * N + along
                        } else {
                            along * N + line
                        };
                        if self.value[i] == 0 {
                            *s |= self.cand[i];
                        }
                    }
                }
            }
            let cell = |line: usize, along: usize| {
                if horizontal {
                    line * N + along
                } else {
                    along * N + line
                }
            };
            for band in 0..B {
                for k in 0..B {
                    // Box (band, k): its B intersections are lines band*B..+B.
                    let (mut once, mut twice) = (0u64, 0u64);
                    for j in 0..B {
                        let m = seg[band * B + j][k];
                        twice |= once & m;
                        once |= m;
                    }
                    let box_only = once & !twice;
                    for j in 0..B {
                        let line = band * B + j;
                        // Pointing: the box's digits only here leave the line.
                        let point = seg[line][k] & box_only;
                        // Claiming: the line's digits only in this box leave
                        // the box.
                        let (mut elsewhere, mut here) = (0u64, seg[line][k]);
                        for (k2, &m) in seg[line].iter().enumerate() {
                            if k2 != k {
                                elsewhere |= m;
                            }
                        }
                        here &= !elsewhere;
                        if point != 0 {
                            for along in (0..N).filter(|a| a / B != k) {
                                changed |=
                                    self.remove::<B, N>(cell(line, along), point, singles)?;
                            }
                        }
                        if here != 0 {
                            for j2 in (0..B).filter(|&j2| j2 != j) {
                                for a in 0..B {
                                    let i = cell(band * B + j2, k * B + a);
                                    changed |= self.remove::<B, N>(i, here, singles)?;
                                }
                            }
                        }
                    }
                }
            }
            if changed {
                // Segments are stale now; the caller loops back to singles.
                return Ok(true);
            }
        }
        Ok(changed)
    }
}

/// Searches for up to `limit` solutions; see [`super::solve`] for the contract.
pub fn solve(box_size: usize, cells: &[u8], limit: u32, out: &mut [u8]) -> Search {
    solve_excluding(box_size, cells, None, limit, out)
}

/// [`solve`] with one more rule: blank cell `exclude.0` may not hold digit
/// `exclude.1` (see [`super::solve_excluding`]).
pub fn solve_excluding(
    box_size: usize,
    cells: &[u8],
    exclude: Option<(usize, u8)>,
    limit: u32,
    out: &mut [u8],
) -> Search {
    solve_within(box_size, cells, exclude, limit, out, u64::MAX)
        .expect("an unbounded search always ends")
}

/// [`solve_excluding`] that gives up (`None`) once its attempts have spent
/// `max_guesses` guesses in all. Deterministic: the same puzzle gives up
/// at the same point every time.
pub fn solve_within(
    box_size: usize,
    cells: &[u8],
    exclude: Option<(usize, u8)>,
    limit: u32,
    out: &mut [u8],
    max_guesses: u64,
) -> Option<Search> {
    match box_size {
        2 => run::<2, 4, 16>(cells, exclude, limit, out, max_guesses),
        3 => run::<3, 9, 81>(cells, exclude, limit, out, max_guesses),
        4 => run::<4, 16, 256>(cells, exclude, limit, out, max_guesses),
        5 => run::<5, 25, 625>(cells, exclude, limit, out, max_guesses),
        6 => run::<6, 36, 1296>(cells, exclude, limit, out, max_guesses),
        _ => panic!("box size {box_size} is not supported (2..=6)"),
    }
}

/// Guesses allowed to the first attempt; each restart doubles it, and the
/// last attempt has no bound. Random blanking of big grids gives
/// heavy-tailed search times: most 16x16 puzzles at 68% blanks take about 60
/// guesses, a few take millions with one fixed branching order; a restart
/// with other tie-breaks finds them a short path (Gomes et al., "Heavy-tailed
/// phenomena in satisfiability and constraint satisfaction problems").
const FIRST_BUDGET: u64 = 256;
const ATTEMPTS: u32 = 16;

fn run<const B: usize, const N: usize, const C: usize>(
    cells: &[u8],
    exclude: Option<(usize, u8)>,
    limit: u32,
    out: &mut [u8],
    max_guesses: u64,
) -> Option<Search> {
    assert!(cells.len() == C && out.len() == C);
    let full: u64 = (1u64 << N) - 1;
    if limit == 0 {
        return Some(Search::default());
    }
    let units = Units::<N>::new(B);
    let mut root = State::<C> {
        cand: [full; C],
        value: [0; C],
        open: C,
        dirty: (1u128 << (3 * N)) - 1,
    };
    for (i, &d) in cells.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let bit = 1u64 << (d - 1);
        // A given its cell already lost (to a clashing given): no solution.
        if d as usize > N || root.cand[i] & bit == 0 || root.value[i] != 0 {
            return Some(Search::default());
        }
        // A peer emptied here is caught by the first propagation, which
        // sees a cell with no candidate.
        root.place::<B, N>(i, bit, &mut Vec::new());
    }
    if let Some((i, d)) = exclude {
        root.cand[i] &= !(1u64 << (d - 1));
    }
    let mut spent = 0u64;
    for attempt in 0..ATTEMPTS {
        let budget = if attempt + 1 == ATTEMPTS {
            u64::MAX
        } else {
            FIRST_BUDGET << attempt
        }
        .min(max_guesses - spent);
        if let Some(mut s) = attempt_search::<B, N, C>(&root, &units, limit, out, attempt, budget) {
            s.guesses += spent;
            return Some(s);
        }
        spent += budget;
        if spent >= max_guesses {
            return None;
        }
    }
    unreachable!("the last attempt has no budget of its own")
}

/// One complete depth-first search, or `None` if it needed more than
/// `budget` guesses. `attempt` varies the tie-breaks.
fn attempt_search<const B: usize, const N: usize, const C: usize>(
    root: &State<C>,
    units: &Units<N>,
    limit: u32,
    out: &mut [u8],
    attempt: u32,
    budget: u64,
) -> Option<Search> {
    let mut search = Search::default();
    let mut cur = root.clone();
    // Branch points: the state before the branch and the alternatives left:
    // digits of one cell, or places (bit k = k-th cell) of one unit's digit.
    let mut stack: Vec<(State<C>, Alts)> = Vec::new();
    let mut depth = 0usize;
    // Cells with one candidate left, not yet placed. The root may hold
    // some: queue every such open cell once.
    let mut singles: Vec<u16> = (0..C)
        .filter(|&i| cur.value[i] == 0 && cur.cand[i].count_ones() <= 1)
        .map(|i| i as u16)
        .collect();
    loop {
        let start = if attempt == 0 {
            0
        } else {
            (attempt as usize * 7919 + depth * 104_729) % C
        };
        match cur.propagate::<B, N>(units, start, &mut singles) {
            Err(()) => {}
            Ok(None) => {
                search.count += 1;
                if search.count == 1 {
                    out.copy_from_slice(&cur.value);
                }
                if search.count >= limit {
                    return Some(search);
                }
            }
            Ok(Some(branch)) => {
                let turn = attempt as usize + depth;
                let alts = match branch {
                    Branch::Cell { cell, digits } => {
                        Alts::new(AltKind::Cell { cell }, digits, turn)
                    }
                    Branch::Unit { unit, bit } => {
                        let mut places = 0u64;
                        for (k, &i) in units.all[unit].iter().enumerate() {
                            let i = i as usize;
                            if cur.value[i] == 0 && cur.cand[i] & bit != 0 {
                                places |= 1 << k;
                            }
                        }
                        Alts::new(AltKind::Unit { unit, bit }, places, turn)
                    }
                };
                stack.push((cur.clone(), alts));
            }
        }
        // The next alternative of the deepest branch point that has one.
        loop {
            let Some((state, alts)) = stack.last_mut() else {
                return Some(search);
            };
            let Some((cell, bit)) = alts.next(units) else {
                stack.pop();
                continue;
            };
            search.guesses += 1;
            if search.guesses > budget {
                return None;
            }
            if alts.is_empty() {
                // The last alternative reuses the saved state.
                let (state, _) = stack.pop().expect("just looked at it");
                cur = state;
            } else {
                cur.clone_from(state);
            }
            depth = stack.len();
            singles.clear();
            if cur.place::<B, N>(cell, bit, &mut singles) {
                break;
            }
        }
    }
}

/// The alternatives left at a branch point, as bit sets (no allocation):
/// `now` is tried first (lowest bit first), then `later`.
#[derive(Clone, Copy)]
struct Alts {
    kind: AltKind,
    now: u64,
    later: u64,
}

#[derive(Clone, Copy)]
enum AltKind {
    /// Bits are digits of `cell`.
    Cell { cell: usize },
    /// Bits are places (bit k = k-th cell of `unit`) for digit `bit`.
    Unit { unit: usize, bit: u64 },
}

impl Alts {
    /// Alternatives `set`, tried from the `k`-th (mod their number) on, so
    /// restarts explore in another order.
    fn new(kind: AltKind, set: u64, k: usize) -> Alts {
        let n = set.count_ones() as usize;
        let mut skip = if n == 0 { 0 } else { k % n };
        let (mut now, mut later) = (set, 0u64);
        while skip > 0 {
            let b = now & now.wrapping_neg();
            later |= b;
            now ^= b;
            skip -= 1;
        }
        Alts { kind, now, later }
    }

    fn is_empty(&self) -> bool {
        self.now | self.later == 0
    }

    fn next<const N: usize>(&mut self, units: &Units<N>) -> Option<(usize, u64)> {
        if self.now == 0 {
            self.now = std::mem::take(&mut self.later);
        }
        if self.now == 0 {
            return None;
        }
        let b = self.now & self.now.wrapping_neg();
        self.now ^= b;
        Some(match self.kind {
            AltKind::Cell { cell } => (cell, b),
            AltKind::Unit { unit, bit } => {
                (units.all[unit][b.trailing_zeros() as usize] as usize, bit)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::verify;
    use super::*;

    fn parse(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    /// A valid grid from the shifted pattern, digits relabelled by `seed`.
    fn pattern(b: usize, seed: u64) -> Vec<u8> {
        let n = b * b;
        let mut perm: Vec<u8> = (1..=n as u8).collect();
        let mut x = seed | 1;
        for i in (1..n).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            perm.swap(i, (x % (i as u64 + 1)) as usize);
        }
        (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                perm[(b * (r % b) + r / b + c) % n]
            })
            .collect()
    }

    fn blank(grid: &[u8], percent: u64, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        grid.iter()
            .map(|&v| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 100 < percent {
                    0
                } else {
                    v
                }
            })
            .collect()
    }

    #[test]
    fn solves_a_hard_9x9_and_keeps_givens() {
        let p = parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let mut out = [0u8; 81];
        let s = solve(3, &p, 2, &mut out);
        assert_eq!(s.count, 1);
        verify(3, &p, &out).unwrap();
    }

    #[test]
    fn counts_multiple_solutions_on_an_empty_grid() {
        for b in 2..=6 {
            let n = b * b * b * b;
            let p = vec![0u8; n];
            let mut out = vec![0u8; n];
            let s = solve(b, &p, 2, &mut out);
            assert_eq!(s.count, 2, "box {b}");
            verify(b, &p, &out).unwrap();
        }
    }

    #[test]
    fn sparse_big_grids_are_solved() {
        for (b, pct) in [(4, 68), (4, 75), (5, 60), (5, 68)] {
            for seed in 1..4 {
                let p = blank(&pattern(b, seed), pct, seed * 7);
                let mut out = vec![0u8; p.len()];
                let s = solve(b, &p, 1, &mut out);
                assert_eq!(s.count, 1, "box {b} {pct}% seed {seed}");
                verify(b, &p, &out).unwrap();
            }
        }
    }

    #[test]
    fn clashing_givens_and_dead_ends_have_no_solution() {
        let mut p = vec![0u8; 81];
        p[0] = 1;
        p[1] = 1;
        let mut out = [0u8; 81];
        assert_eq!(solve(3, &p, 2, &mut out).count, 0);
        // Row 0 holds 1..8 in cells 0..8; cell 8 must be 9, but column 8 has a 9.
        let mut p = vec![0u8; 81];
        for (i, v) in p.iter_mut().take(8).enumerate() {
            *v = i as u8 + 1;
        }
        p[9 * 5 + 8] = 9;
        assert_eq!(solve(3, &p, 2, &mut out).count, 0);
    }

    #[test]
    fn counts_agree_with_naive_backtracking_on_4x4() {
        for seed in 1..300u64 {
            let mut p = blank(&pattern(2, seed), 40 + seed % 50, seed);
            if seed % 5 == 0 {
                p[(seed % 16) as usize] = (seed % 4) as u8 + 1;
            }
            let mut out = vec![0u8; 16];
            let ours = solve(2, &p, 3, &mut out);
            let clash = super::super::find_conflict(2, &p).is_some();
            let naive = if clash {
                0
            } else {
                super::super::naive::count(2, &mut p.clone(), 3)
            };
            assert_eq!(ours.count, naive, "seed {seed}: {p:?}");
            if ours.count > 0 {
                verify(2, &p, &out).unwrap();
            }
        }
    }

    /// A capped search gives up instead of answering; uncapped, the same
    /// search answers (an empty 16x16 grid needs guesses to find two
    /// solutions).
    #[test]
    fn solve_within_gives_up_past_its_cap() {
        let empty = [0u8; 256];
        let mut out = [0u8; 256];
        assert_eq!(solve_within(4, &empty, None, 2, &mut out, 1), None);
        let s = solve_within(4, &empty, None, 2, &mut out, u64::MAX).unwrap();
        assert_eq!(s.count, 2);
        assert!(s.guesses > 1);
        verify(4, &empty, &out).unwrap();
    }
}
