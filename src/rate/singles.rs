//! Singles: serate's Hidden Single (1.0 last cell of a region, 1.2 in a box,
//! 1.5 in a line) and Naked Single (2.3), in its scan order.

use super::grid::{bits, region, Grid, REGION};
use super::{Hint, Technique};

/// Region types in the order serate scans them: boxes, columns, rows.
pub(crate) const SCAN: [usize; 3] = [0, 2, 1];

/// First hidden single: "alone" ones (the region's only empty cell) first,
/// then the others; each pass over boxes, columns, rows and digits 1-9.
pub(crate) fn hidden_single(g: &Grid) -> Option<Hint> {
    for alone in [true, false] {
        for t in SCAN {
            for i in 0..9 {
                let reg = REGION[region(t, i)];
                let n_empty = (g.empty & reg).count_ones();
                if n_empty == 0 || (n_empty == 1) != alone {
                    continue;
                }
                for d in 1..=9 {
                    let p = g.pos(d, reg);
                    if p.count_ones() == 1 {
                        let rating = if alone {
                            10
                        } else if t == 0 {
                            12
                        } else {
                            15
                        };
                        let c = p.trailing_zeros() as u8;
                        return Some(Hint::place(Technique::HiddenSingle, rating, c, d as u8));
                    }
                }
            }
        }
    }
    None
}

/// First cell (row-major) with one candidate.
pub(crate) fn naked_single(g: &Grid) -> Option<Hint> {
    for c in bits(g.empty) {
        let m = g.cells[c];
        if m.count_ones() == 1 {
            let d = m.trailing_zeros() as u8 + 1;
            return Some(Hint::place(Technique::NakedSingle, 23, c as u8, d));
        }
    }
    None
}
