//! Wings: serate's XY-Wing (4.2), XYZ-Wing (4.4) and the ALS wings that
//! generalise it, WXYZ- (5.5-5.6), VWXYZ- (6.2-6.4), UVWXYZ- (6.6) and
//! TUVWXYZ-Wing (7.5).

use super::grid::{bits, Grid, PEERS};
use super::{Hint, Technique};

/// First XY-Wing (`xyz` false) or XYZ-Wing, pivot cells in row-major order,
/// then wing cells among the pivot's peers in row-major order.
pub(crate) fn xy_wing(g: &Grid, xyz: bool) -> Option<Hint> {
    let target = if xyz { 3 } else { 2 };
    for pivot in bits(g.empty) {
        let xy = g.cells[pivot];
        if xy.count_ones() != target {
            continue;
        }
        for xz_cell in bits(PEERS[pivot]) {
            let xz = g.cells[xz_cell];
            if xz.count_ones() != 2 || (xy & !xz).count_ones() != 1 {
                continue;
            }
            for yz_cell in bits(PEERS[pivot]) {
                let yz = g.cells[yz_cell];
                if yz.count_ones() != 2 || (xy | xz | yz).count_ones() != 3 {
                    continue;
                }
                let common = (xy & xz & yz).count_ones();
                if common != if xyz { 1 } else { 0 } {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as usize + 1;
                let mut victims = PEERS[xz_cell] & PEERS[yz_cell];
                if xyz {
                    victims &= PEERS[pivot];
                }
                victims &= !(1u128 << pivot | 1u128 << xz_cell | 1u128 << yz_cell);
                let e = g.pos(z, victims);
                if e != 0 {
                    let tech = if xyz {
                        Technique::XYZWing
                    } else {
                        Technique::XYWing
                    };
                    let mut h = Hint::new(tech, if xyz { 44 } else { 42 });
                    h.elim[z - 1] = e;
                    return Some(h);
                }
            }
        }
    }
    None
}

/// serate's sort key of an ALS wing (WXYZ- to TUVWXYZ-Wing): rating, most
/// removals, suffix descending.
type WKey = (u8, std::cmp::Reverse<u32>, std::cmp::Reverse<String>);

/// The technique and rating of an ALS wing whose almost locked set has `n`
/// cells, the biggest holding `biggest` digits (serate's hint classes'
/// `getDifficulty`): WXYZ 5.5 + (1 - |3 - biggest|) / 10, VWXYZ 6.2 +
/// (2 - |3 - biggest|) / 10, UVWXYZ 6.6, TUVWXYZ 7.5.
fn wing_rating(n: usize, biggest: u32) -> (Technique, u8) {
    let off = (3i32 - biggest as i32).unsigned_abs() as u8;
    match n {
        3 => (Technique::WXYZWing, 55 + 1 - off),
        4 => (Technique::VWXYZWing, 62 + 2 - off),
        5 => (Technique::UVWXYZWing, 66),
        _ => (Technique::TUVWXYZWing, 75),
    }
}

/// The first WXYZ-Wing (`n` = 3), VWXYZ- (4), UVWXYZ- (5) or TUVWXYZ-Wing
/// (6) serate applies: an almost locked set of `n` mutually visible cells
/// on `n + 1` digits and a bivalue cell, linked by a restricted common
/// digit (or two: "doubly linked"). serate's four classes are one algorithm
/// copied out per size: collect every wing (set cells in increasing order,
/// each among the "forward" peers of the ones before; the bivalue cell
/// among their peers, increasingly), sort by rating, most removals, then
/// the suffix (doubly linked, biggest cell, wing size) descending, and
/// apply the first.
pub(crate) fn als_wing(g: &Grid, n: usize) -> Option<Hint> {
    // (rating, removals, suffix) and the removals of the best so far.
    let mut best: Option<(WKey, [u128; 9], Technique)> = None;
    let mut set = [0usize; 6];
    for c0 in bits(g.empty) {
        let k = g.cells[c0].count_ones() as usize;
        if k < 2 || k > n + 1 {
            continue;
        }
        set[0] = c0;
        grow(g, n, &mut set, 1, after(c0), g.cells[c0], &mut best);
    }
    best.map(|((rating, _, _), elim, tech)| {
        let mut h = Hint::new(tech, rating);
        h.elim = elim;
        h
    })
}

/// serate's "forward" peers of `c`: the ones after it.
#[inline]
fn after(c: usize) -> u128 {
    PEERS[c] & !((2u128 << c) - 1)
}

/// Adds set cell `depth` (among `next`, the forward peers of every cell so
/// far) to the `depth` cells of `set` (digits `union`), then, once the set
/// has `n` cells on `n + 1` digits, tries every bivalue cell with it.
fn grow(
    g: &Grid,
    n: usize,
    set: &mut [usize; 6],
    depth: usize,
    next: u128,
    union: u16,
    best: &mut Option<(WKey, [u128; 9], Technique)>,
) {
    for c in bits(next & g.empty) {
        let m = g.cells[c];
        let u = union | m;
        if m.count_ones() <= 1 || u.count_ones() as usize > n + 1 {
            continue;
        }
        set[depth] = c;
        if depth + 1 < n {
            grow(g, n, set, depth + 1, next & after(c), u, best);
        } else if u.count_ones() as usize == n + 1 {
            wings_of(g, &set[..n], u, best);
        }
    }
}

/// Every wing of the almost locked set `als` (digits `union`) with a
/// bivalue cell, kept in `best` when serate would sort it first.
fn wings_of(g: &Grid, als: &[usize], union: u16, best: &mut Option<(WKey, [u128; 9], Technique)>) {
    let set_mask = als.iter().fold(0u128, |m, &c| m | 1 << c);
    let range = als.iter().fold(0u128, |m, &c| m | PEERS[c]) & !set_mask;
    let mut biggest = 0;
    let mut size = 0;
    for &c in als {
        biggest = biggest.max(g.cells[c].count_ones());
        size += g.cells[c].count_ones();
    }
    let (tech, rating) = wing_rating(als.len(), biggest);
    if best.as_ref().is_some_and(|(k, _, _)| k.0 < rating) {
        // Every wing of this set rates higher than the best so far.
        return;
    }
    for yz in bits(range & g.empty) {
        let y = g.cells[yz];
        if y.count_ones() != 2 || y & !union != 0 {
            continue;
        }
        let x = y.trailing_zeros() as usize;
        let z = 15 - y.leading_zeros() as usize;
        let z_linked = restricted(g, als, yz, z);
        let x_linked = restricted(g, als, yz, x);
        let (elim, count, double) = if x_linked && !z_linked {
            one_link(g, als, yz, z)
        } else if !x_linked && z_linked {
            one_link(g, als, yz, x)
        } else if x_linked && z_linked {
            double_link(g, als, yz, union & !y, x, z)
        } else {
            continue;
        };
        if count == 0 {
            continue;
        }
        let suffix = format!("{}{biggest}{size}", if double { 2 } else { 1 });
        let key = (rating, std::cmp::Reverse(count), std::cmp::Reverse(suffix));
        if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
            *best = Some((key, elim, tech));
        }
    }
}

/// The cells of `als` holding digit index `d`.
fn holders<'a>(g: &'a Grid, als: &'a [usize], d: usize) -> impl Iterator<Item = usize> + 'a {
    als.iter()
        .copied()
        .filter(move |&c| g.cells[c] >> d & 1 != 0)
}

/// serate's `isWXYZWing` (and its copies): every cell of the set holding
/// digit index `d` sees the bivalue cell `yz`.
fn restricted(g: &Grid, als: &[usize], yz: usize, d: usize) -> bool {
    holders(g, als, d).all(|c| PEERS[yz] >> c & 1 != 0)
}

/// Cells seeing every cell of `als` holding `d` (and `yz` when given),
/// outside the wing's cells: where `d` goes.
fn seen_by_holders(g: &Grid, als: &[usize], yz: Option<usize>, d: usize) -> u128 {
    let mut v = yz.map_or(super::grid::ALL, |c| PEERS[c]);
    for c in holders(g, als, d) {
        v &= PEERS[c];
    }
    let wing = als.iter().chain(yz.iter()).fold(0u128, |m, &c| m | 1 << c);
    v & !wing
}

/// Removals of a singly linked wing: `d` (the non-restricted digit of the
/// bivalue cell) from the cells seeing it and every set cell holding it.
fn one_link(g: &Grid, als: &[usize], yz: usize, d: usize) -> ([u128; 9], u32, bool) {
    let mut elim = [0u128; 9];
    elim[d] = g.digits[d] & seen_by_holders(g, als, Some(yz), d);
    (elim, elim[d].count_ones(), false)
}

/// Removals of a doubly linked wing (serate's order: the other digits
/// `rest` from the cells seeing their set cells, then `x` and `z` from the
/// cells seeing the bivalue cell and their set cells), and whether serate
/// still calls it doubly linked (not when the other digits removed nothing
/// and one of `x`, `z` nothing either).
fn double_link(
    g: &Grid,
    als: &[usize],
    yz: usize,
    rest: u16,
    x: usize,
    z: usize,
) -> ([u128; 9], u32, bool) {
    let mut elim = [0u128; 9];
    let mut count = 0;
    let mut weak = false;
    for w in bits(rest as u128) {
        let e = g.digits[w] & seen_by_holders(g, als, None, w);
        elim[w] |= e;
        count += e.count_ones();
        weak |= e != 0;
    }
    let ex = g.digits[x] & seen_by_holders(g, als, Some(yz), x);
    elim[x] |= ex;
    count += ex.count_ones();
    let ez = g.digits[z] & seen_by_holders(g, als, Some(yz), z);
    elim[z] |= ez;
    count += ez.count_ones();
    let double = weak || (ez != 0 && ex != 0);
    (elim, count, double)
}
