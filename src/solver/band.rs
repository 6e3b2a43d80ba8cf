//! The generator's cheap 9x9 searches (`solver::solve_first_cheap` for seed
//! grids, `solver::solve_excluding` / `solve_asking` with an exclusion) and,
//! in tests, an oracle beside `naive`; `solver::solve` itself uses `fast9`.
//! Pure, no allocation, all state on the stack. Band-oriented, in the
//! spirit of JCZSolve (ideas only; see ../shared/SOLVER-NOTES.md), written
//! from scratch; the band-word tables are `tables9`'s, shared with `fast9`.
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
    cols, occupancy_tables, perm_bits, row_singles, BAND, CONFIG_CELLS, KEEP, PLACE,
};

/// For a minirow occupancy: how many of the 6 permutations fit, and (in
/// bits 8.. and 16..) the indices of the first two that do.
const FITS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut occ = 0;
    while occ < 512 {
        let mut n = 0u32;
        let mut p = 0;
        while p < 6 {
            if occ as u32 & perm_bits(p) == perm_bits(p) {
                if n < 2 {
                    t[occ] |= (p as u32) << (8 + 8 * n);
                }
                n += 1;
            }
            p += 1;
        }
        t[occ] |= n;
        occ += 1;
    }
    t
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

/// Search bookkeeping shared by all branches.
struct Ctx<'a> {
    limit: u32,
    count: u32,
    guesses: u64,
    out: &'a mut [u8; 81],
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
                let n = FITS[occupancy_tables(self.f[d * 3 + b])] & 0xFF;
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
        let fits = FITS[occupancy_tables(self.f[s])];
        Some(Branch::Config {
            s,
            first: CONFIG_CELLS[((fits >> 8) & 0xFF) as usize],
            second: CONFIG_CELLS[((fits >> 16) & 0xFF) as usize],
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
            Ok(None) => {
                ctx.count += 1;
                if ctx.count == 1 {
                    st.write(ctx.out);
                }
                return ctx.count >= ctx.limit;
            }
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
    solve_excluding(cells, None, limit, out)
}

/// [`solve`] with one more rule: blank cell `exclude.0` may not hold digit
/// `exclude.1` (see [`super::solve_excluding`]).
pub fn solve_excluding(
    cells: &[u8; 81],
    exclude: Option<(usize, u8)>,
    limit: u32,
    out: &mut [u8; 81],
) -> super::Search {
    let mut st = State {
        f: [BAND; 27],
        seen: [0; 27],
        solved: [0; 3],
    };
    // Givens first touch only their own digit's words (row, box, and the
    // column in the other bands), so a clash shows up as a given on a cell
    // its digit already lost; the given cells then leave the other digits
    // in one pass per word instead of 8 writes per given (generate's
    // exclusion searches, setup and first propagation: 3.1k -> 2.9k
    // instructions per call, callgrind).
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
    if let Some((pos, v)) = exclude {
        st.f[(v as usize - 1) * 3 + pos / 27] &= !(1 << (pos % 27));
    }
    let mut ctx = Ctx {
        limit,
        count: 0,
        guesses: 0,
        out,
    };
    if limit > 0 {
        search(st, &mut ctx);
    }
    super::Search {
        count: ctx.count,
        guesses: ctx.guesses,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{find_conflict, generic, verify};
    use super::*;

    fn parse(s: &str) -> [u8; 81] {
        let mut c = [0u8; 81];
        for (i, b) in s.bytes().enumerate() {
            c[i] = if b.is_ascii_digit() { b - b'0' } else { 0 };
        }
        c
    }

    /// Hard puzzles from the shipped benchmark sets (data/).
    const HARD: &[&str] = &[
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.",
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ];

    #[test]
    fn solves_hard_puzzles_uniquely() {
        for p in HARD {
            let cells = parse(p);
            let mut out = [0u8; 81];
            let s = solve(&cells, 2, &mut out);
            assert_eq!(s.count, 1, "{p}");
            verify(crate::solver::Boxes::NINE, &cells, &out).unwrap();
            let s1 = solve(&cells, 1, &mut out);
            assert_eq!(s1.count, 1);
            assert!(s1.guesses <= s.guesses);
            verify(crate::solver::Boxes::NINE, &cells, &out).unwrap();
        }
    }

    #[test]
    fn empty_grid_and_clashes() {
        let mut out = [0u8; 81];
        let s = solve(&[0; 81], 2, &mut out);
        assert_eq!(s.count, 2);
        verify(crate::solver::Boxes::NINE, &[0; 81], &out).unwrap();
        for (a, b) in [(0, 8), (0, 72), (0, 20), (40, 44)] {
            let mut c = [0u8; 81];
            c[a] = 5;
            c[b] = 5;
            assert!(find_conflict(crate::solver::Boxes::NINE, &c).is_some());
            assert_eq!(solve(&c, 2, &mut out).count, 0, "{a} {b}");
        }
        // Consistent givens, no solution: r1c9 must be 9, column 9 has one.
        let mut c = [0u8; 81];
        for (i, v) in c.iter_mut().take(8).enumerate() {
            *v = i as u8 + 1;
        }
        c[44] = 9;
        assert_eq!(solve(&c, 2, &mut out).count, 0);
    }

    /// Random puzzles (a solved grid with cells blanked, some with a clash
    /// added) must get the same solution count as the generic solver, and
    /// every answer must verify.
    #[test]
    fn agrees_with_the_generic_solver_on_random_puzzles() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let base = parse(
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
        );
        for round in 0..400 {
            // Relabel digits so the grids differ.
            let mut perm: Vec<u8> = (1..=9).collect();
            for i in (1..9).rev() {
                perm.swap(i, (rnd() % (i as u64 + 1)) as usize);
            }
            let keep = 20 + (round % 40) as u64;
            let mut p = [0u8; 81];
            for i in 0..81 {
                if rnd() % 81 < keep {
                    p[i] = perm[base[i] as usize - 1];
                }
            }
            if round % 7 == 0 {
                p[(rnd() % 81) as usize] = (rnd() % 9) as u8 + 1;
            }
            let (mut a, mut g) = ([0u8; 81], [0u8; 81]);
            let ours = solve(&p, 2, &mut a);
            let theirs = generic::solve(super::super::Boxes::NINE, &p, 2, &mut g);
            assert_eq!(ours.count, theirs.count, "round {round}");
            if ours.count > 0 {
                verify(super::super::Boxes::NINE, &p, &a).unwrap();
            }
        }
    }
}
