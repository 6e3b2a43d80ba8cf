//! The generator's seed-grid search (`solver::solve_first_cheap`: one
//! solution of a grid seeded with three random boxes) and, in tests, an
//! oracle beside `naive`; `solve`, `count` and the generator's exclusion
//! searches all use `fast9`. It stays because a generated puzzle is a
//! function of the grid this search finds first: `fast9` branches
//! differently and would find another one, changing `generate`'s output
//! for a seed. Pure, no allocation, all state on the stack. Band-oriented,
//! in the spirit of JCZSolve (ideas only; see ../shared/SOLVER-NOTES.md),
//! written from scratch; the band-word tables are `tables9`'s, shared with
//! `fast9`.
//!
//! Layout: one `u32` per (digit, band), 27 words. Bit `r*9 + c` is set while
//! the digit may still stand at row `r` (0..3) of the band, column `c`
//! (0..9). A band word is 3 rows × 9 columns, i.e. 9 "minirows" of 3 cells:
//!
//! ```text
//!   bit:  26..18        17..9         8..0
//!        [row 2      ] [row 1      ] [row 0      ]
//!         box2 box1 box0 ...          c8c7c6 c5c4c3 c2c1c0
//! ```
//!
//! Per (digit, band) the digit's three placements form a 3×3 permutation
//! matrix over (row, box), so only 6 configurations exist. The update of a
//! word keeps only minirows that some configuration still fits (pointing
//! and claiming along rows and boxes in one table lookup), kills columns
//! the band has claimed from the other two bands, claims columns only this
//! band can still serve (column hidden singles follow), and places row
//! singles. A bit-sliced pass finds naked singles and bivalue cells. The
//! search guesses on a bivalue cell, else on a digit with two
//! configurations left in the band with the fewest (tdoku's choice), else
//! on the first open cell; binary splits, depth first, state copied per
//! guess (228 bytes).
//!
//! Portable scalar code, no `unsafe`: the hot loops are written so LLVM
//! vectorises them (the change mask in `settle`); hand-written `std::arch`
//! paths are not there yet.

use super::tables9::{
    cols, occupancy_tables, row_singles, Ctx, BAND, CONFIG_CELLS, FITS, KEEP, PLACE,
};

/// Builds a table over 9-bit column sets (3 bits per box of the band) by
/// mapping each box's 3-bit part with `rule`, then replicating the result
/// over the band's 3 rows.
const fn column_table(rule: ColumnRule) -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut k = 0;
        while k < 3 {
            let part = (cols >> (3 * k)) & 7;
            let single = part != 0 && part & (part - 1) == 0;
            let out = match rule {
                ColumnRule::Pointed if single => part,
                ColumnRule::Pointed => 0,
                ColumnRule::Claimed if part == 0 => 0,
                ColumnRule::Claimed if single => 7 & !part,
                ColumnRule::Claimed => 7,
            };
            let c = (out << (3 * k)) as u32;
            t[cols] |= c | c << 9 | c << 18;
            k += 1;
        }
        cols += 1;
    }
    t
}

#[derive(Clone, Copy)]
enum ColumnRule {
    /// The box's only candidate column.
    Pointed,
    /// The box's other columns, given the claimed one.
    Claimed,
}

/// For the 9-bit column occupancy of a (digit, band) word: the columns that
/// are the only candidate column of their box, replicated over 3 rows. The
/// digit sits in those columns within this band, so the other two bands lose
/// them.
const CLAIMED: [u32; 512] = column_table(ColumnRule::Pointed);

/// For the columns a band must hold the digit in (it has no place in them in
/// the other two bands): the band's cells to drop, replicated over 3 rows.
/// The digit's box in that stack is then in the claimed column, so the box's
/// other two columns lose it (claiming along columns, which also yields
/// column hidden singles). Two claimed columns in one box cannot both be
/// served: the whole box goes, and the next update finds the contradiction.
const COLUMN_CLAIM: [u32; 512] = column_table(ColumnRule::Claimed);

/// The whole search state: 228 bytes, copied once per guess.
#[derive(Clone, Copy)]
struct State {
    /// Candidates per (digit, band): index `digit * 3 + band`.
    f: [u32; 27],
    /// `f` as last processed by `update`; a word that differs needs work.
    seen: [u32; 27],
    /// Solved cells per band.
    solved: [u32; 3],
}

/// Where the search splits next.
#[derive(Clone, Copy)]
enum Branch {
    /// A (digit, band) word with exactly two configurations left: keep the
    /// cells of one, then of the other.
    Config { s: usize, first: u32, second: u32 },
    /// A cell (band, bit) and its candidate digits.
    Cell { b: usize, i: u32, digits: u32 },
}

impl State {
    /// Re-derives a changed (digit, band) word. False on a contradiction.
    #[inline(always)]
    fn update(&mut self, s: usize) -> bool {
        let (d, b) = (s / 3, s % 3);
        let mut w = self.f[s];
        w &= KEEP[occupancy_tables(w)];
        if w == 0 {
            return false;
        }
        self.f[s] = w;
        self.seen[s] = w;
        // Columns this band claims leave the digit's other two bands.
        let kill = CLAIMED[cols(w) as usize];
        let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
        let w1 = self.f[d * 3 + b1] & !kill;
        let w2 = self.f[d * 3 + b2] & !kill;
        // Columns only one band can still serve must be served there.
        let (c0, c1, c2) = (cols(w), cols(w1), cols(w2));
        self.f[d * 3 + b1] = w1 & !COLUMN_CLAIM[(c1 & !c0 & !c2) as usize];
        self.f[d * 3 + b2] = w2 & !COLUMN_CLAIM[(c2 & !c0 & !c1) as usize];
        let own = COLUMN_CLAIM[(c0 & !c1 & !c2) as usize];
        if w & own != 0 {
            // Leave `seen` behind so the word is updated again.
            self.f[s] = w & !own;
        }
        // A row with one cell left places the digit there: the cell leaves
        // the other eight digits of the band.
        let single = row_singles(w);
        let new = single & !self.solved[b];
        if new != 0 {
            self.solved[b] |= new;
            for e in 0..9 {
                if e != d {
                    self.f[e * 3 + b] &= !new;
                }
            }
        }
        true
    }

    /// Runs `update` on every changed word until nothing changes.
    #[inline(always)]
    fn settle(&mut self) -> bool {
        loop {
            // Branch-free change mask (LLVM makes it packed compares and a
            // movemask); walking its bits avoids one unpredictable branch
            // per word. Measured on forum_hardest_11+ counting to 2:
            // 10.2k → 14.1k puzzles/s (`bench`, back to back).
            let mut dirty = 0u32;
            for s in 0..27 {
                dirty |= ((self.f[s] != self.seen[s]) as u32) << s;
            }
            if dirty == 0 {
                return true;
            }
            while dirty != 0 {
                let s = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                if !self.update(s) {
                    return false;
                }
            }
        }
    }

    /// Places digit `d` at bit `i` of band `b`.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: u32) {
        let bit = 1u32 << i;
        self.f[d * 3 + b] &= PLACE[i as usize];
        self.solved[b] |= bit;
        for e in 0..9 {
            if e != d {
                self.f[e * 3 + b] &= !bit;
            }
        }
    }

    fn all_solved(&self) -> bool {
        self.solved[0] & self.solved[1] & self.solved[2] == BAND
    }

    /// Propagates to a fixed point: table updates, then naked singles,
    /// until neither finds anything. Returns `Err(())` on a contradiction,
    /// else where to branch, or `None` when solved.
    fn propagate(&mut self) -> Result<Option<Branch>, ()> {
        loop {
            if !self.settle() {
                return Err(());
            }
            if self.all_solved() {
                return Ok(None);
            }
            // Bit-sliced candidate counts per cell: ≥1, ≥2, ≥3.
            let mut placed = false;
            let mut pair: Option<(usize, u32)> = None;
            let mut any_open: Option<(usize, u32)> = None;
            for b in 0..3 {
                let (mut ge1, mut ge2, mut ge3) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let w = self.f[d * 3 + b];
                    ge3 |= ge2 & w;
                    ge2 |= ge1 & w;
                    ge1 |= w;
                }
                if ge1 != BAND {
                    return Err(()); // a cell with no candidate
                }
                let open = !self.solved[b] & BAND;
                let mut singles = open & !ge2;
                while singles != 0 {
                    let i = singles.trailing_zeros();
                    singles &= singles - 1;
                    let bit = 1u32 << i;
                    // The cell may have lost its last digit to a placement
                    // made earlier in this loop.
                    match (0..9).find(|&d| self.f[d * 3 + b] & bit != 0) {
                        Some(d) => self.place(d, b, i),
                        None => return Err(()),
                    }
                    placed = true;
                }
                let pairs = open & ge2 & !ge3;
                if pair.is_none() && pairs != 0 {
                    pair = Some((b, pairs.trailing_zeros()));
                }
                if any_open.is_none() && open != 0 {
                    any_open = Some((b, open.trailing_zeros()));
                }
            }
            if placed {
                continue;
            }
            if pair.is_none() {
                if let Some(branch) = self.config_branch() {
                    return Ok(Some(branch));
                }
            }
            let Some((b, i)) = pair.or(any_open) else {
                return Ok(None);
            };
            let mut digits = 0u32;
            for d in 0..9 {
                if self.f[d * 3 + b] & (1 << i) != 0 {
                    digits |= 1 << d;
                }
            }
            return Ok(Some(Branch::Cell { b, i, digits }));
        }
    }

    /// The (digit, band) with exactly two configurations in the band with
    /// the fewest configurations overall (tdoku's choice: one guess decides
    /// a digit's place in three rows and three boxes).
    fn config_branch(&self) -> Option<Branch> {
        let mut best: Option<(u32, usize)> = None;
        for b in 0..3 {
            let mut total = 0;
            let mut two = None;
            for d in 0..9 {
                let n = (FITS[occupancy_tables(self.f[d * 3 + b])] & 0xFF) as u32;
                total += n;
                if n == 2 && two.is_none() {
                    two = Some(d * 3 + b);
                }
            }
            if let Some(s) = two {
                if best.is_none_or(|(t, _)| total < t) {
                    best = Some((total, s));
                }
            }
        }
        let (_, s) = best?;
        // The two fitting configurations, lowest first.
        let configs = (FITS[occupancy_tables(self.f[s])] >> 8) as u32;
        Some(Branch::Config {
            s,
            first: CONFIG_CELLS[configs.trailing_zeros() as usize],
            second: CONFIG_CELLS[(31 - configs.leading_zeros()) as usize],
        })
    }

    fn write(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut w = self.f[d * 3 + b];
                while w != 0 {
                    let i = w.trailing_zeros() as usize;
                    w &= w - 1;
                    out[b * 27 + i] = d as u8 + 1;
                }
            }
        }
    }
}

/// Depth-first search from `st`. Returns true when the limit is reached.
fn search(mut st: State, ctx: &mut Ctx<'_>) -> bool {
    loop {
        let (b, i, mut digits) = match st.propagate() {
            Err(()) => return false,
            Ok(None) => return ctx.found(|out| st.write(out)),
            Ok(Some(Branch::Config { s, first, second })) => {
                ctx.guesses += 1;
                let mut next = st;
                next.f[s] &= first;
                if search(next, ctx) {
                    return true;
                }
                st.f[s] &= second;
                continue;
            }
            Ok(Some(Branch::Cell { b, i, digits })) => (b, i, digits),
        };
        // Try every candidate but the last on a copy; the last one continues
        // in place (it is what remains once the others are ruled out).
        let bit = 1u32 << i;
        while digits & (digits - 1) != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            ctx.guesses += 1;
            let mut next = st;
            next.place(d, b, i);
            if search(next, ctx) {
                return true;
            }
            st.f[d * 3 + b] &= !bit;
        }
    }
}

/// Searches a 9x9 puzzle (cells 0 = blank, 1..=9) for up to `limit`
/// solutions and writes the first into `out`. Clashing givens give 0.
///
/// Guess counting: every alternative tried on a copy of the state counts
/// once (a bivalue cell costs one guess, a cell with k candidates up to
/// k - 1), comparable to tdoku's binary splits.
pub fn solve(cells: &[u8; 81], limit: u32, out: &mut [u8; 81]) -> super::Search {
    let mut st = State {
        f: [BAND; 27],
        seen: [0; 27],
        solved: [0; 3],
    };
    // Givens first touch only their own digit's words (row, box, and the
    // column in the other bands), so a clash shows up as a given on a cell
    // its digit already lost; the given cells then leave the other digits
    // in one pass per word instead of 8 writes per given (setup and first
    // propagation: 3.1k -> 2.9k instructions per call, callgrind).
    let mut own = [0u32; 27];
    for (pos, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (d, b, i) = (v as usize - 1, pos / 27, pos % 27);
        let s = d * 3 + b;
        if st.f[s] & (1 << i) == 0 {
            return super::Search::default();
        }
        st.f[s] &= PLACE[i];
        own[s] |= 1 << i;
        st.solved[b] |= 1 << i;
        let col = 1u32 << (i % 9);
        let colmask = col | col << 9 | col << 18;
        st.f[d * 3 + (b + 1) % 3] &= !colmask;
        st.f[d * 3 + (b + 2) % 3] &= !colmask;
    }
    for (s, &own) in own.iter().enumerate() {
        st.f[s] &= !st.solved[s % 3] | own;
    }
    let mut ctx = Ctx::new(limit, out);
    if limit > 0 {
        search(st, &mut ctx);
    }
    ctx.outcome()
}

#[cfg(test)]
mod tests {
    use super::super::fixtures9::{parse, HARD, MULTI};
    use super::super::{fast9, verify, Boxes};
    use super::*;

    /// The shared fixtures: the count of `fast9` (itself checked against
    /// `generic` and `naive`), a verified answer, and no more guesses for
    /// the first solution than for counting to 2. (`fast9`'s random-puzzle
    /// test runs this solver on each of its puzzles too.)
    #[test]
    fn fixtures_count_as_fast9_with_verified_answers() {
        for p in HARD.iter().chain(MULTI) {
            let cells = parse(p);
            let (mut out, mut theirs) = ([0u8; 81], [0u8; 81]);
            let two = solve(&cells, 2, &mut out);
            assert_eq!(two.count, fast9::solve(&cells, 2, &mut theirs).count, "{p}");
            verify(Boxes::NINE, &cells, &out).unwrap();
            let one = solve(&cells, 1, &mut out);
            assert_eq!(one.count, 1, "{p}");
            assert!(one.guesses <= two.guesses, "{p}");
            verify(Boxes::NINE, &cells, &out).unwrap();
        }
    }
}
