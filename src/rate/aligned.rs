//! Aligned exclusion: serate's Aligned Pair Exclusion (6.2) and Aligned
//! Triplet Exclusion (7.5), one technique of the rater's loop in
//! [`super`] each: a candidate grid in, the first hint serate takes out.
//!
//! Two (three) base cells share at least two "excluder" peers, cells of two
//! (two or three) candidates. A combination of digits for the base cells is
//! impossible when two base cells that see each other take the same digit,
//! or when it holds every candidate of an excluder; a base cell's digit in
//! no possible combination goes.

use super::grid::{bits, Grid, PEERS};
use super::{Hint, Technique};

/// serate's base cells, in cell order, and the excluders of each cell:
/// cells with at least two candidates, seeing no cell with one candidate
/// (serate's "naked singles remain" shortcut) and at least one peer of
/// 2..=`degree` candidates (its excluders).
fn bases(g: &Grid, degree: u32) -> (Vec<usize>, [u128; 81]) {
    let mut single = 0u128;
    let mut small = 0u128;
    for c in bits(g.empty) {
        match g.cells[c].count_ones() {
            1 => single |= 1 << c,
            k if k <= degree => small |= 1 << c,
            _ => {}
        }
    }
    let mut list = Vec::new();
    let mut excl = [0u128; 81];
    for c in bits(g.empty) {
        if g.cells[c].count_ones() < 2 || PEERS[c] & single != 0 || PEERS[c] & small == 0 {
            continue;
        }
        excl[c] = PEERS[c] & small;
        list.push(c);
    }
    (list, excl)
}

/// serate's `Twomutations(2, n)`: index pairs (0,1), (0,2), (1,2), (0,3), ...
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (1..n).flat_map(|b| (0..b).map(move |a| (a, b)))
}

/// The first Aligned Pair Exclusion: base pairs in serate's order, the
/// first one that removes something.
pub(crate) fn aligned_pair(g: &Grid) -> Option<Hint> {
    let (list, excl) = bases(g, 2);
    for (i, j) in pairs(list.len()) {
        let (c0, c1) = (list[i], list[j]);
        let common = excl[c0] & excl[c1];
        if common.count_ones() < 2 {
            continue;
        }
        let (v0, v1) = (g.cells[c0], g.cells[c1]);
        // forbidden[p]: digits (bits) c1 cannot take when c0 takes p + 1.
        let mut forbidden = [0u16; 9];
        if PEERS[c0] >> c1 & 1 != 0 {
            for p in bits(v0 as u128) {
                forbidden[p] |= 1 << p;
            }
        }
        for e in bits(common) {
            let m = g.cells[e];
            let a = m.trailing_zeros() as usize;
            let b = 15 - m.leading_zeros() as usize;
            forbidden[a] |= 1 << b;
            forbidden[b] |= 1 << a;
        }
        let (mut ok0, mut ok1) = (0u16, 0u16);
        for p in bits(v0 as u128) {
            let row = v1 & !forbidden[p];
            if row != 0 {
                ok0 |= 1 << p;
                ok1 |= row;
            }
        }
        if let Some(h) = hint(
            Technique::AlignedPairExclusion,
            62,
            g,
            &[c0, c1],
            &[ok0, ok1],
        ) {
            return Some(h);
        }
    }
    None
}

/// The hint removing from each base cell `cells[i]` its candidates not in
/// `ok[i]`, if any.
fn hint(tech: Technique, rating: u8, g: &Grid, cells: &[usize], ok: &[u16]) -> Option<Hint> {
    let mut h = Hint::new(tech, rating);
    let mut any = false;
    for (&c, &ok) in cells.iter().zip(ok) {
        for d in bits((g.cells[c] & !ok) as u128) {
            h.elim[d] |= 1 << c;
            any = true;
        }
    }
    any.then_some(h)
}

/// The first Aligned Triplet Exclusion: serate takes the first two base
/// cells as a pair in [`pairs`] order, then the third among the base cells
/// that are excluders of the first (in cell order) or else of the second
/// (in cell order); the first triplet that removes something.
pub(crate) fn aligned_triplet(g: &Grid) -> Option<Hint> {
    let (list, excl) = bases(g, 3);
    if list.len() < 3 {
        return None;
    }
    let base_mask = list.iter().fold(0u128, |m, &c| m | 1 << c);
    for (i, j) in pairs(list.len()) {
        let (c0, c1) = (list[i], list[j]);
        let pair_common = excl[c0] & excl[c1];
        if pair_common.count_ones() < 2 {
            // Every triplet's common excluders are among these.
            continue;
        }
        let not_pair = !(1u128 << c0 | 1u128 << c1);
        let first = excl[c0] & base_mask & not_pair;
        let second = excl[c1] & !excl[c0] & base_mask & not_pair;
        for c2 in bits(first).chain(bits(second)) {
            let common = pair_common & excl[c2];
            if common.count_ones() < 2 {
                continue;
            }
            if let Some(h) = triplet(g, [c0, c1, c2], common) {
                return Some(h);
            }
        }
    }
    None
}

/// The hint of the base cells `cells` with common excluders `common`, if
/// it removes something.
fn triplet(g: &Grid, cells: [usize; 3], common: u128) -> Option<Hint> {
    let [c0, c1, c2] = cells;
    let sees = |a: usize, b: usize| PEERS[a] >> b & 1 != 0;
    let (s01, s02, s12) = (sees(c0, c1), sees(c0, c2), sees(c1, c2));
    let mut locks = [0u16; 20];
    let mut n = 0;
    for e in bits(common) {
        locks[n] = g.cells[e];
        n += 1;
    }
    let locks = &locks[..n];
    let v = [g.cells[c0], g.cells[c1], g.cells[c2]];
    let mut ok = [0u16; 3];
    for p0 in bits(v[0] as u128) {
        for p1 in bits(v[1] as u128) {
            if p0 == p1 && s01 {
                continue;
            }
            // The digits the third cell cannot take beside these two: those
            // of the two it sees, and the last digit of an excluder they
            // hold all but one of (every digit when they hold all of one).
            let pair = 1u16 << p0 | 1 << p1;
            let mut forbidden = 0u16;
            if s02 {
                forbidden |= 1 << p0;
            }
            if s12 {
                forbidden |= 1 << p1;
            }
            for &m in locks {
                let rest = m & !pair;
                if rest == 0 {
                    forbidden = !0;
                    break;
                }
                if rest & (rest - 1) == 0 {
                    forbidden |= rest;
                }
            }
            let third = v[2] & !forbidden;
            if third != 0 {
                ok[0] |= 1 << p0;
                ok[1] |= 1 << p1;
                ok[2] |= third;
                // p0 fits, and every digit of the other two cells fits
                // some combination already: the rest of p0's adds nothing.
                if ok[1] == v[1] && ok[2] == v[2] {
                    break;
                }
            }
        }
    }
    hint(Technique::AlignedTripletExclusion, 75, g, &cells, &ok)
}
