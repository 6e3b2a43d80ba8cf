//! Local search for the learning search's phase (rephasing by a walk, as
//! Kissat and CaDiCaL do on satisfiable instances): the blank cells each
//! take one of their candidates at level 0, and a min-conflicts walk with
//! noise and a tabu list moves one cell at a time to cut the number of
//! clashes (a digit more than once in a row, column or box). The fewest
//! clashes met become the phase of later decisions; none is a solution.
//!
//! Only the cells' values are searched: with one digit per cell and no
//! digit twice in a unit, every row, column and box holds each digit once,
//! so every exactly-one group holds. The cells fixed at level 0 take no
//! part: their digits are already gone from their peers' candidates.

use super::Solver;

/// xorshift64*, seeded from the puzzle: the search stays deterministic.
pub(super) struct Random(pub(super) u64);

impl Random {
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// A random set bit of non-zero `m`.
    fn bit(&mut self, mut m: u64) -> u32 {
        for _ in 0..self.below(m.count_ones() as usize) {
            m &= m - 1;
        }
        m.trailing_zeros()
    }
}

/// Per mille of steps that move a random cell of the clash (to its least
/// clashing digit) instead of making the best move.
const NOISE: usize = 20;
/// Steps a cell may not take back the digit it left (plus 0..=tenure):
/// `TABU`, or with k free cells `k^3 / TABU_SCALE` when more and the
/// candidates are tight (see [`TIGHT`]). 36x36 at 50% blanks has about 620
/// free cells, at 60% 775, 49x49 at 40% 720-800: all keep 10; 64x64 at 40%
/// has about 1530: tenure 59-60. A walk alone of 20M steps from level 0 on
/// lines 2-5 of 64x64 at 40% (seed 1) ends at 73, 78, 78, 84 clashes with
/// tenure 10, 66, 55, 68, 66 with 25, 71, 58, 70, 64 with 30, 0, 0, 74, 74
/// with 40, 0, 4, 0, 2 with 50 and 9, 6, 6, 8 with 60: the long tenure
/// takes the walk through a plateau near 100 clashes, after which it may
/// fall to 0 within a few million steps. Whole search on the five lines,
/// 300k conflicts cap: 1 solved with tenure 10; 4 (503k conflicts) with 40;
/// 5 with 50 (324k), 55 (238k), 60 (199k) and 70 (505k); 3 with 80. But the
/// tenure where a puzzle gives up is ragged: line 4 gave up with 48, 51 and
/// 52. With this rule: 5 of 5, 152k conflicts, 10 s; on five puzzles made
/// the same way with seed 2 (not tuned on): 5 of 5, 167k conflicts, 12 s,
/// against 0 of 5 with tenure 10 (176 s). Long tenures do not suit the
/// smaller grids: 2M steps on 36x36 at 50% end at 52 clashes over the 10
/// puzzles with 10 (58 without noise), 73 with 15, 363 with 40 (no noise),
/// and tenure 13 at 36x36 at 60% took 19.0k conflicts against 13.2k.
/// Swapping two free cells of a row (rows kept permutations of their
/// missing digits from a matching) ended 5M-step walks at 197-208 column
/// and box clashes (boxes kept: 134-161), the free walk at 82-96: with
/// about 6 candidates per free cell few swaps keep both cells within their
/// candidates. Weighting clashes (raising a chosen clash's weight when no
/// move improves, or every clash's) ended at 90-109.
const TABU: u64 = 10;
/// See [`TABU`].
const TABU_SCALE: u64 = 60_000_000;
/// Candidates per free cell below which the tenure grows with k. 64x64 at
/// 40% has 6.1 (at 36x36 at 50% 6.3, the tenure stays 10 there anyway),
/// 64x64 at 45% 8.1-8.4 (k 1810, tenure 98 by the rule): 40M-step walks
/// on its lines 1-2 end at 47, 41 clashes with tenure 10, 38, 41 with 30,
/// 94, 94 with 60 and 160, 162 with 98 (whole search, 300k cap: 0 of 5
/// solved with 10 and 98 alike). 49x49 at 50% has 8.4-8.7 (k about 1190).
const TIGHT: u64 = 7;

/// The walk's state, rebuilt at each walk from the level-0 candidates.
#[derive(Default)]
pub(super) struct Walk {
    /// Grid cell of each free cell (two or more candidates at level 0).
    cells: Vec<u32>,
    /// Candidate digits (bit d = digit d + 1) of each free cell.
    cand: Vec<u64>,
    /// Row, `n + column` and `2n + box` of each free cell.
    units: Vec<[u32; 3]>,
    /// Free cells of each unit: `ucells[ustart[u]..ustart[u + 1]]`.
    ucells: Vec<u32>,
    ustart: Vec<u32>,
    /// Digit of each free cell now, and in the best assignment met.
    val: Vec<u8>,
    best: Vec<u8>,
    /// Free cells holding digit d in unit u: `cnt[u * n + d]`.
    cnt: Vec<u16>,
    /// `u * n + d` with `cnt` 2 or more (a clash), and their places.
    bad: Vec<u32>,
    bad_pos: Vec<u32>,
    /// Step until which a free cell may not take a digit back.
    tabu: Vec<u64>,
    /// Sum over units and digits of `cnt - 1` where above 1.
    total: u32,
}

impl Walk {
    fn add(&mut self, i: usize, d: usize, n: usize) {
        for u in self.units[i] {
            let k = u as usize * n + d;
            self.cnt[k] += 1;
            if self.cnt[k] == 2 {
                self.bad_pos[k] = self.bad.len() as u32;
                self.bad.push(k as u32);
            }
            if self.cnt[k] >= 2 {
                self.total += 1;
            }
        }
        self.val[i] = d as u8;
    }

    fn remove(&mut self, i: usize, d: usize, n: usize) {
        for u in self.units[i] {
            let k = u as usize * n + d;
            if self.cnt[k] >= 2 {
                self.total -= 1;
            }
            if self.cnt[k] == 2 {
                let p = self.bad_pos[k] as usize;
                let last = self.bad.pop().expect("listed");
                if last as usize != k {
                    self.bad[p] = last;
                    self.bad_pos[last as usize] = p as u32;
                }
            }
            self.cnt[k] -= 1;
        }
    }

    /// The move of one of the cells `picks` (all holding digit `d`) to
    /// another candidate that leaves the fewest clashes (ties at random),
    /// not to a digit the cell left within the tabu steps unless it gets
    /// below the best by more than `room` clashes less than now.
    fn best_move(
        &self,
        picks: &[usize],
        d: usize,
        n: usize,
        step: u64,
        room: i64,
        rng: &mut Random,
    ) -> Option<(usize, usize)> {
        let (mut pick, mut low, mut ties) = (None, i64::MAX, 0);
        for &i in picks {
            let gone: i64 = self.units[i]
                .iter()
                .map(|&u| (self.cnt[u as usize * n + d] >= 2) as i64)
                .sum();
            let mut bits = self.cand[i] & !(1 << d);
            while bits != 0 {
                let e = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let delta = self.clashes(i, e, n) as i64 - gone;
                if self.tabu[i * n + e] > step && delta >= room {
                    continue;
                }
                if delta < low {
                    (pick, low, ties) = (Some((i, e)), delta, 1);
                } else if delta == low {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        pick = Some((i, e));
                    }
                }
            }
        }
        pick
    }

    /// Units of free cell `i` already holding digit `d`.
    fn clashes(&self, i: usize, d: usize, n: usize) -> u32 {
        self.units[i]
            .iter()
            .map(|&u| (self.cnt[u as usize * n + d] > 0) as u32)
            .sum()
    }
}

impl Solver {
    /// Walks `steps` steps from the best phase over the level-0 candidates
    /// (only at level 0). Returns the clashes of the best assignment met;
    /// with none, `out` holds the solved grid (verified), otherwise the
    /// best phase is that assignment.
    pub(super) fn walk(&mut self, steps: u64, rng: &mut Random, out: &mut [u8]) -> u32 {
        debug_assert_eq!(self.decision_level(), 0);
        let n = self.n as usize;
        let nn = n * n;
        let mut w = std::mem::take(&mut self.walk_state);
        w.cells.clear();
        w.cand.clear();
        w.units.clear();
        w.val.clear();
        for cell in 0..nn {
            let m = self.alive[cell];
            if m.count_ones() < 2 {
                continue;
            }
            let (r, c, b) = (cell / n, cell % n, self.box_of(cell));
            w.cells.push(cell as u32);
            w.cand.push(m);
            w.units.push([r as u32, (n + c) as u32, (2 * n + b) as u32]);
            w.val.push(0);
        }
        let k = w.cells.len();
        w.ustart.clear();
        w.ustart.resize(3 * n + 2, 0);
        for us in &w.units {
            for &u in us {
                w.ustart[u as usize + 2] += 1;
            }
        }
        for u in 2..w.ustart.len() {
            w.ustart[u] += w.ustart[u - 1];
        }
        w.ucells.clear();
        w.ucells.resize(3 * k, 0);
        for i in 0..k {
            for u in w.units[i] {
                let at = &mut w.ustart[u as usize + 1];
                w.ucells[*at as usize] = i as u32;
                *at += 1;
            }
        }
        w.cnt.clear();
        w.cnt.resize(3 * nn, 0);
        w.bad_pos.resize(3 * nn, 0);
        w.bad.clear();
        w.tabu.clear();
        w.tabu.resize(k * n, 0);
        w.total = 0;
        // Start: the digit of the best phase when it names one candidate,
        // else the candidate (of those it names, or all) clashing least.
        for i in 0..k {
            let base = w.cells[i] as usize * n;
            let mut m = w.cand[i];
            let mut named = 0u64;
            let mut bits = m;
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.best[base + d] {
                    named |= 1 << d;
                }
            }
            if named != 0 {
                m = named;
            }
            let d = if m.count_ones() == 1 {
                m.trailing_zeros() as usize
            } else {
                self.least(&w, i, m, rng, None)
            };
            w.add(i, d, n);
        }
        w.best.clone_from(&w.val);
        let mut best_total = w.total;
        let mut picks = Vec::with_capacity(n);
        let cands: u64 = w.cand.iter().map(|c| c.count_ones() as u64).sum();
        let tenure = if cands < TIGHT * k as u64 {
            TABU.max((k as u64).pow(3) / TABU_SCALE)
        } else {
            TABU
        };
        for step in 0..steps {
            if best_total == 0 {
                break;
            }
            // A clash at random, and the cells holding its digit there.
            let kd = w.bad[rng.below(w.bad.len())] as usize;
            let (u, d) = (kd / n, kd % n);
            picks.clear();
            for &i in &w.ucells[w.ustart[u] as usize..w.ustart[u + 1] as usize] {
                if w.val[i as usize] as usize == d {
                    picks.push(i as usize);
                }
            }
            let room = best_total as i64 - w.total as i64;
            let (i, e) = match w.best_move(&picks, d, n, step, room, rng) {
                Some(ie) if rng.below(1000) >= NOISE => ie,
                _ => {
                    let i = picks[rng.below(picks.len())];
                    (
                        i,
                        self.least(&w, i, w.cand[i] & !(1 << d), rng, Some((step, room))),
                    )
                }
            };
            w.remove(i, d, n);
            w.add(i, e, n);
            w.tabu[i * n + d] = step + tenure + rng.below(tenure as usize + 1) as u64;
            if w.total < best_total {
                best_total = w.total;
                w.best.clone_from(&w.val);
            }
        }
        if best_total == 0 && self.fill(&w, out) {
            self.walk_state = w;
            return 0;
        }
        for (i, &cell) in w.cells.iter().enumerate() {
            let base = cell as usize * n;
            let mut bits = w.cand[i];
            while bits != 0 {
                let d = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.best[base + d] = d == w.best[i] as usize;
            }
        }
        self.walk_state = w;
        best_total.max(1)
    }

    /// The digit of mask `m` whose units hold it least often for free cell
    /// `i` (ties at random). `tabu`: the step, and the clashes below which
    /// a tabu digit is taken anyway (it then beats the best).
    fn least(
        &self,
        w: &Walk,
        i: usize,
        m: u64,
        rng: &mut Random,
        tabu: Option<(u64, i64)>,
    ) -> usize {
        let n = self.n as usize;
        let (mut pick, mut low, mut ties) = (usize::MAX, u32::MAX, 0);
        let mut bits = m;
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = w.clashes(i, d, n);
            if let Some((step, room)) = tabu {
                if w.tabu[i * n + d] > step && c as i64 >= room {
                    continue;
                }
            }
            if c < low {
                (pick, low, ties) = (d, c, 1);
            } else if c == low {
                ties += 1;
                if rng.below(ties) == 0 {
                    pick = d;
                }
            }
        }
        if pick == usize::MAX {
            rng.bit(m) as usize
        } else {
            pick
        }
    }

    /// Writes the grid of the fixed cells and the walk's best assignment to
    /// `out`; whether every group then holds exactly one true member (on
    /// the level-0 candidates, so the givens and any excluded digit hold).
    fn fill(&self, w: &Walk, out: &mut [u8]) -> bool {
        let n = self.n as usize;
        let nn = n * n;
        for (cell, o) in out.iter_mut().enumerate() {
            *o = self.placed(cell).unwrap_or(0);
        }
        for (i, &cell) in w.cells.iter().enumerate() {
            let d = w.best[i] as usize;
            if w.cand[i] & (1 << d) == 0 {
                return false;
            }
            out[cell as usize] = d as u8 + 1;
        }
        // Each group: the members whose value is taken, exactly one.
        for g in 0..4 * nn {
            let mut found = 0;
            for k in 0..n as u32 {
                let v = self.member(g, k) as usize;
                let (cell, d) = (v / n, v % n);
                if out[cell] as usize == d + 1 {
                    found += 1;
                    if self.root_alive[g] & (1 << k) == 0 {
                        return false;
                    }
                }
            }
            if found != 1 {
                return false;
            }
        }
        true
    }
}
