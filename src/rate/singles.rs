//! Singles: serate's Hidden Single (1.0 last cell of a region, 1.2 in a box,
//! 1.5 in a line) and Naked Single (2.3), in its scan order.

use super::grid::{bits, region, Grid, REGION};
use super::{Hint, Technique};

/// Region types in the order serate scans them: boxes, columns, rows.
pub(crate) const SCAN: [usize; 3] = [0, 2, 1];

/// First hidden single: "alone" ones (the region's only empty cell) first,
/// then the others; each pass over boxes, columns, rows and digits 1-9.
pub(crate) fn hidden_single(g: &Grid) -> Option<Hint> {
    let mut n_empty = [0u32; 27];
    for (n, reg) in n_empty.iter_mut().zip(REGION.iter()) {
        *n = (g.empty & reg).count_ones();
    }
    // Alone: the one empty cell's lowest candidate is the first digit with
    // a single position in the region.
    for t in SCAN {
        for i in 0..9 {
            let r = region(t, i);
            if n_empty[r] == 1 {
                let c = (g.empty & REGION[r]).trailing_zeros() as usize;
                if g.cells[c] != 0 {
                    let d = g.cells[c].trailing_zeros() as u8 + 1;
                    return Some(Hint::place(Technique::HiddenSingle, 10, c as u8, d));
                }
            }
        }
    }
    for t in SCAN {
        for i in 0..9 {
            let r = region(t, i);
            if n_empty[r] < 2 {
                continue;
            }
            // Digits seen exactly once among the region's cells.
            let (mut ones, mut twos) = (0u16, 0u16);
            for c in bits(g.empty & REGION[r]) {
                let m = g.cells[c];
                twos |= ones & m;
                ones |= m;
            }
            let once = ones & !twos;
            if once != 0 {
                let d = once.trailing_zeros() as usize + 1;
                let c = g.pos(d, REGION[r]).trailing_zeros() as u8;
                let rating = if t == 0 { 12 } else { 15 };
                return Some(Hint::place(Technique::HiddenSingle, rating, c, d as u8));
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
