//! Wings: serate's XY-Wing (4.2) and XYZ-Wing (4.4).

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

/// The cells of `als` (three cells) holding digit index `d`.
fn holders(g: &Grid, als: [usize; 3], d: usize) -> impl Iterator<Item = usize> + '_ {
    als.into_iter().filter(move |&c| g.cells[c] >> d & 1 != 0)
}

/// serate's `isWXYZWing`: every cell of the three-cell set holding digit
/// index `d` sees the bivalue cell `yz`.
fn restricted(g: &Grid, als: [usize; 3], yz: usize, d: usize) -> bool {
    holders(g, als, d).all(|c| PEERS[yz] >> c & 1 != 0)
}

/// Cells seeing every cell of `als` holding `d` (and `yz` when given),
/// outside the four wing cells: where `d` goes.
fn seen_by_holders(g: &Grid, als: [usize; 3], yz: Option<usize>, d: usize) -> u128 {
    let mut v = yz.map_or(super::grid::ALL, |c| PEERS[c]);
    for c in holders(g, als, d) {
        v &= PEERS[c];
    }
    let wing = als.iter().chain(yz.iter()).fold(0u128, |m, &c| m | 1 << c);
    v & !wing
}

/// serate's sort key of a WXYZ-Wing: rating, most removals, suffix
/// descending.
type WKey = (u8, std::cmp::Reverse<u32>, std::cmp::Reverse<String>);

/// The first WXYZ-Wing serate applies (5.5, 5.6 when the biggest cell of
/// the three-cell set holds 3 digits): a three-cell almost locked set on 4
/// digits and a bivalue cell, linked by a restricted common digit (or two:
/// "doubly linked"). serate collects every one, sorts them by rating, most
/// removals, then its suffix (doubly linked, biggest cell, wing size)
/// descending, and applies the first.
pub(crate) fn wxyz_wing(g: &Grid) -> Option<Hint> {
    // (rating, removals, suffix) and the removals of the best so far.
    let mut best: Option<(WKey, [u128; 9])> = None;
    for (wxyz, &a) in g.cells.iter().enumerate() {
        if !(2..=4).contains(&a.count_ones()) {
            continue;
        }
        // serate's "forward" peers: the ones after the cell.
        let after = |c: usize| PEERS[c] & !((2u128 << c) - 1);
        for wz in bits(after(wxyz)) {
            let b = g.cells[wz];
            if b.count_ones() <= 1 || (a | b).count_ones() >= 5 {
                continue;
            }
            for xz in bits(after(wxyz) & after(wz)) {
                let c = g.cells[xz];
                let union = a | b | c;
                if c.count_ones() <= 1 || union.count_ones() != 4 {
                    continue;
                }
                let biggest = a.count_ones().max(b.count_ones()).max(c.count_ones());
                let size = a.count_ones() + b.count_ones() + c.count_ones();
                let als = [wxyz, wz, xz];
                let range = (PEERS[wxyz] | PEERS[wz] | PEERS[xz])
                    & !(1u128 << wxyz | 1u128 << wz | 1u128 << xz);
                for yz in bits(range) {
                    let y = g.cells[yz];
                    if y.count_ones() != 2 || (y & union).count_ones() != 2 {
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
                    if elim.iter().all(|&m| m == 0) {
                        continue;
                    }
                    let rating = 55 + 1 - (3i32 - biggest as i32).unsigned_abs() as u8;
                    let suffix = format!("{}{biggest}{size}", if double { 2 } else { 1 });
                    let key = (rating, std::cmp::Reverse(count), std::cmp::Reverse(suffix));
                    if best.as_ref().is_none_or(|(k, _)| key < *k) {
                        best = Some((key, elim));
                    }
                }
            }
        }
    }
    best.map(|((rating, _, _), elim)| {
        let mut h = Hint::new(Technique::WXYZWing, rating);
        h.elim = elim;
        h
    })
}

/// Removals of a singly linked wing: `d` (the non-restricted digit of the
/// bivalue cell) from the cells seeing it and every set cell holding it.
fn one_link(g: &Grid, als: [usize; 3], yz: usize, d: usize) -> ([u128; 9], u32, bool) {
    let mut elim = [0u128; 9];
    elim[d] = g.digits[d] & seen_by_holders(g, als, Some(yz), d);
    (elim, elim[d].count_ones(), false)
}

/// Removals of a doubly linked wing (serate's order: the two other digits
/// `rest` from the cells seeing their set cells, then `x` and `z` from the
/// cells seeing the bivalue cell and their set cells), and whether serate
/// still calls it doubly linked (not when the other digits removed nothing
/// and one of `x`, `z` nothing either).
fn double_link(
    g: &Grid,
    als: [usize; 3],
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
