//! Intersections: serate's Direct Pointing/Claiming (1.7/1.9, only when the
//! removal leaves a hidden single) and Pointing/Claiming (2.6/2.8).

use super::grid::{region, Grid, REGION};
use super::{Hint, Technique};

/// (region type of the locked candidates, region type cleared), serate's order.
const PAIRS: [(usize, usize); 4] = [(0, 2), (0, 1), (2, 0), (1, 0)];

/// The regions of type `t2` that cross region `i1` of type `t1` (one of
/// them a box), in ascending order.
fn crossing(t1: usize, i1: usize, t2: usize) -> [usize; 3] {
    let base = match (t1, t2) {
        (0, 1) => 3 * (i1 / 3),
        (0, 2) => 3 * (i1 % 3),
        (1, 0) => 3 * (i1 / 3),
        _ => i1 / 3,
    };
    if (t1, t2) == (2, 0) {
        [base, base + 3, base + 6]
    } else {
        [base, base + 1, base + 2]
    }
}

/// Locked candidates; `direct` asks for serate's direct variant, which must
/// leave a hidden single in another region of the first type and places it.
pub(crate) fn locking(g: &Grid, direct: bool) -> Option<Hint> {
    for (t1, t2) in PAIRS {
        for d in 1..=9 {
            for i1 in 0..9 {
                let r1 = REGION[region(t1, i1)];
                let p = g.pos(d, r1);
                if p.count_ones() < 2 {
                    continue;
                }
                for i2 in crossing(t1, i1, t2) {
                    let r2 = REGION[region(t2, i2)];
                    if p & !r2 != 0 {
                        continue;
                    }
                    let elim = g.pos(d, r2 & !r1);
                    if !direct {
                        if elim != 0 {
                            let rating = if t2 != 0 { 26 } else { 28 };
                            let mut h = Hint::new(Technique::PointingClaiming, rating);
                            h.elim[d - 1] = elim;
                            return Some(h);
                        }
                        continue;
                    }
                    for i3 in crossing(t2, i2, t1) {
                        if i3 == i1 {
                            continue;
                        }
                        let r3 = REGION[region(t1, i3)];
                        let p3 = g.pos(d, r3);
                        if p3.count_ones() > 1 {
                            let rest = p3 & !r2;
                            if rest.count_ones() == 1 {
                                // serate's direct hints only place: the
                                // removals are shown, not applied.
                                let rating = if t1 == 0 { 17 } else { 19 };
                                let c = rest.trailing_zeros() as u8;
                                return Some(Hint::place(
                                    Technique::DirectPointing,
                                    rating,
                                    c,
                                    d as u8,
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    None
}
