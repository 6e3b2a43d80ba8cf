//! Subsets and fish: serate's naked sets (3.0/3.6/5.0), hidden sets
//! (3.4/4.0/5.4), direct hidden pair/triplet (2.0/2.5, only when the removal
//! leaves a hidden single, which they place) and X-Wing, Swordfish,
//! Jellyfish (3.2/3.8/5.2).

use super::grid::{bits, col_of, region, row_of, Grid, REGION};
use super::singles::SCAN;
use super::{Hint, Technique};

/// The `k`-subsets of 0..9 as 9-bit masks in increasing numeric order, the
/// order serate's `Permutations` walks them (k = 2, 3, 4: 36, 84, 126 masks).
pub(crate) fn combos(k: u32) -> &'static [u16] {
    match k {
        2 => &COMBOS.0,
        3 => &COMBOS.1,
        _ => &COMBOS.2,
    }
}

#[allow(clippy::type_complexity)]
static COMBOS: ([u16; 36], [u16; 84], [u16; 126]) =
    (build::<36>(2), build::<84>(3), build::<126>(4));

const fn build<const N: usize>(k: u32) -> [u16; N] {
    let mut out = [0u16; N];
    let (mut m, mut n) = (0u16, 0);
    while m < 512 {
        if m.count_ones() == k {
            out[n] = m;
            n += 1;
        }
        m += 1;
    }
    out
}

/// The cells of a region mask, lowest first (serate's in-region order).
fn cells_of(reg: u128) -> [usize; 9] {
    let mut out = [0usize; 9];
    for (i, c) in bits(reg).enumerate() {
        out[i] = c;
    }
    out
}

/// Naked pair/triplet/quad.
// `k` is both the combination's bit and the region's cell number.
#[allow(clippy::needless_range_loop)]
pub(crate) fn naked_set(g: &Grid, deg: u32) -> Option<Hint> {
    let tech = match deg {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriplet,
        _ => Technique::NakedQuad,
    };
    let rating = [30, 36, 50][deg as usize - 2];
    for t in SCAN {
        for i in 0..9 {
            let reg = REGION[region(t, i)];
            if (g.empty & reg).count_ones() < 2 * deg {
                continue;
            }
            let rc = cells_of(reg);
            // Cells with 2..=deg candidates are the only ones a set can use
            // (serate rejects the others inside each combination).
            let mut usable = 0u16;
            for (k, &c) in rc.iter().enumerate() {
                let n = g.cells[c].count_ones();
                if (2..=deg).contains(&n) {
                    usable |= 1 << k;
                }
            }
            if usable.count_ones() < deg {
                continue;
            }
            'combo: for &m in combos(deg) {
                if m & !usable != 0 {
                    continue;
                }
                let mut union = 0u16;
                let mut set = 0u128;
                for k in 0..9 {
                    if m >> k & 1 != 0 {
                        let cm = g.cells[rc[k]];
                        if cm.count_ones() <= 1 {
                            continue 'combo;
                        }
                        union |= cm;
                        set |= 1 << rc[k];
                    }
                }
                if union.count_ones() != deg {
                    continue;
                }
                let mut h = Hint::new(tech, rating);
                let mut any = false;
                for d in 1..=9usize {
                    if union >> (d - 1) & 1 != 0 {
                        let e = g.pos(d, reg & !set);
                        h.elim[d - 1] = e;
                        any |= e != 0;
                    }
                }
                if any {
                    return Some(h);
                }
            }
        }
    }
    None
}

/// Hidden pair/triplet/quad, or with `direct` serate's direct hidden
/// pair/triplet.
pub(crate) fn hidden_set(g: &Grid, deg: u32, direct: bool) -> Option<Hint> {
    let tech = match (deg, direct) {
        (2, true) => Technique::DirectHiddenPair,
        (3, true) => Technique::DirectHiddenTriplet,
        (2, false) => Technique::HiddenPair,
        (3, false) => Technique::HiddenTriplet,
        _ => Technique::HiddenQuad,
    };
    let rating = match (deg, direct) {
        (2, true) => 20,
        (3, true) => 25,
        (2, false) => 34,
        (3, false) => 40,
        _ => 54,
    };
    for t in SCAN {
        for i in 0..9 {
            let reg = REGION[region(t, i)];
            let n_empty = (g.empty & reg).count_ones();
            if !(n_empty > 2 * deg || (direct && n_empty > deg)) {
                continue;
            }
            let mut usable = 0u16;
            for d in 1..=9 {
                let n = g.pos(d, reg).count_ones();
                if (2..=deg).contains(&n) {
                    usable |= 1 << (d - 1);
                }
            }
            if usable.count_ones() < deg {
                continue;
            }
            'combo: for &m in combos(deg) {
                if m & !usable != 0 {
                    continue;
                }
                let mut union = 0u128;
                for k in 0..9 {
                    if m >> k & 1 != 0 {
                        let p = g.pos(k + 1, reg);
                        if p.count_ones() <= 1 {
                            continue 'combo;
                        }
                        union |= p;
                    }
                }
                if union.count_ones() != deg {
                    continue;
                }
                let values = m; // bit d-1 for digit d
                let mut h = Hint::new(tech, rating);
                let mut any = false;
                for d in 1..=9usize {
                    if values >> (d - 1) & 1 == 0 {
                        let e = g.pos(d, union);
                        h.elim[d - 1] = e;
                        any |= e != 0;
                    }
                }
                if direct {
                    for d in 1..=9usize {
                        if values >> (d - 1) & 1 != 0 {
                            continue;
                        }
                        let p = g.pos(d, reg);
                        if p.count_ones() > 1 {
                            let rest = p & !union;
                            if rest.count_ones() == 1 {
                                // serate applies only the placement of a
                                // direct hint, not the set's removals.
                                let c = rest.trailing_zeros() as u8;
                                return Some(Hint::place(tech, rating, c, d as u8));
                            }
                        }
                    }
                } else if any {
                    return Some(h);
                }
            }
        }
    }
    None
}

/// X-Wing, Swordfish, Jellyfish: columns as base lines first, then rows.
pub(crate) fn fish(g: &Grid, deg: u32) -> Option<Hint> {
    let tech = match deg {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    let rating = [32, 38, 52][deg as usize - 2];
    let mut placed = [0u32; 10];
    for &v in g.values.iter() {
        placed[v as usize] += 1;
    }
    for (t1, t2) in [(2usize, 1usize), (1, 2)] {
        // Lines holding each digit 2..=deg times: the only ones a fish uses.
        let mut usable = [0u16; 10];
        for (d, u) in usable.iter_mut().enumerate().skip(1) {
            for k in 0..9 {
                let n = g.pos(d, REGION[region(t1, k)]).count_ones();
                if (2..=deg).contains(&n) {
                    *u |= 1 << k;
                }
            }
        }
        for &m in combos(deg) {
            for d in 1..=9usize {
                if placed[d] + deg * 2 > 9 || m & !usable[d] != 0 {
                    continue;
                }
                let mut idx = 0u16;
                let mut base = 0u128;
                let mut ok = true;
                for k in 0..9 {
                    if m >> k & 1 != 0 {
                        let line = REGION[region(t1, k)];
                        let p = g.pos(d, line);
                        if p.count_ones() <= 1 {
                            ok = false;
                            break;
                        }
                        base |= line;
                        for c in bits(p) {
                            idx |= 1 << if t1 == 2 { row_of(c) } else { col_of(c) };
                        }
                    }
                }
                if !ok || idx.count_ones() != deg {
                    continue;
                }
                let mut cover = 0u128;
                for k in 0..9 {
                    if idx >> k & 1 != 0 {
                        cover |= REGION[region(t2, k)];
                    }
                }
                let e = g.pos(d, cover & !base);
                if e != 0 {
                    let mut h = Hint::new(tech, rating);
                    h.elim[d - 1] = e;
                    return Some(h);
                }
            }
        }
    }
    None
}
