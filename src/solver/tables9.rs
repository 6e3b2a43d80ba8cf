//! The 9x9 band-word vocabulary shared by the two 9x9 searches (`fast9`,
//! the one `solve`, `count` and the generator's exclusion searches use,
//! and `band`, the generator's seed-grid search): the band word layout,
//! its configurations, the closure tables both updates look up, and the
//! bookkeeping a search keeps across its branches ([`Ctx`]).
//!
//! A band word holds one digit's candidates in one band: bit `r*9 + c` for
//! row `r` (0..3) of the band, column `c` (0..9). Its minirow occupancy is
//! a 3x3 matrix, bit `3r + k` set while row `r` has a candidate in box
//! `k`; the digit's three places in the band form one of the 6 permutation
//! matrices ("configurations") over it.

/// Rows `0..3` of a band word: 27 bits.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// The 6 permutations of a 3x3 matrix: `PERMS[p][r]` is the column of row r.
pub(super) const PERMS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Bit `3r + k` for each row r of permutation p.
pub(super) const fn perm_bits(p: usize) -> u32 {
    (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]))
}

/// For a 3x3 occupancy matrix (bit `3r + k`): the union of the permutation
/// matrices it contains, 0 when none fits (a contradiction).
pub(super) const SUPPORT: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = perm_bits(p);
            if m as u32 & bits == bits {
                t[m] |= bits as u16;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// Minirow occupancy of a 9-bit row: bit k set if box k has a candidate.
pub(super) const ROW_OCC: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// Expands a (row, box) matrix to band cells: bit `3r + k` → the 3 cells of
/// minirow (r, k).
pub(super) const fn expand_minirows(m: u32) -> u32 {
    let mut cells = 0;
    let mut i = 0;
    while i < 9 {
        if m & (1 << i) != 0 {
            cells |= 7 << ((i / 3) * 9 + (i % 3) * 3);
        }
        i += 1;
    }
    cells
}

/// Horizontal closure: minirow occupancy → the band cells some fitting
/// configuration still uses (pointing and claiming along rows and boxes,
/// row and box hidden singles); 0 when none fits.
pub(super) const KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = expand_minirows(SUPPORT[m] as u32);
        m += 1;
    }
    t
};

/// For a 3x3 occupancy matrix: bits 0..8 the number of fitting
/// permutations, bits 8..16 a bit set of them.
pub(super) const FITS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = perm_bits(p);
            if m as u32 & bits == bits {
                t[m] += 1;
                t[m] |= 1 << (8 + p);
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// The cells of configuration p of a band (minirow (r, PERMS[p][r])).
pub(super) const CONFIG_CELLS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        t[p] = expand_minirows(perm_bits(p));
        p += 1;
    }
    t
};

/// For a cell (bit `r*9 + c`): the band cells that stay candidates for the
/// digit placed there: all but the rest of its row and box.
pub(super) const PLACE: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        let row = 0x1FFu32 << (r * 9);
        let k = c / 3;
        let bx = (7u32 << (3 * k)) | (7u32 << (9 + 3 * k)) | (7u32 << (18 + 3 * k));
        t[i] = (!(row | bx) & BAND) | (1 << i);
        i += 1;
    }
    t
};

/// Minirow occupancy (bit `3r + k`) of a band word, by table.
#[inline(always)]
pub(super) fn occupancy_tables(w: u32) -> usize {
    // Masked indices let LLVM drop the bounds checks.
    (ROW_OCC[(w & 0x1FF) as usize] as usize
        | (ROW_OCC[((w >> 9) & 0x1FF) as usize] as usize) << 3
        | (ROW_OCC[((w >> 18) & 0x1FF) as usize] as usize) << 6)
        & 0x1FF
}

/// The 9 columns a band word uses.
#[inline(always)]
pub(super) fn cols(w: u32) -> u32 {
    (w | w >> 9 | w >> 18) & 0x1FF
}

/// A 9-bit column set replicated over the 3 rows of a band.
#[inline(always)]
pub(super) const fn rep(x: u32) -> u32 {
    x * 0x40201
}

/// Cells of a band word that are alone in their row.
#[inline(always)]
pub(super) fn row_singles(w: u32) -> u32 {
    let mut out = 0;
    let mut r = 0;
    while r < 3 {
        let x = (w >> (9 * r)) & 0x1FF;
        if x & x.wrapping_sub(1) == 0 {
            out |= x << (9 * r);
        }
        r += 1;
    }
    out
}

/// A 9x9 search's bookkeeping, shared by all its branches.
pub(super) struct Ctx<'a> {
    pub limit: u32,
    pub count: u32,
    pub guesses: u64,
    pub out: &'a mut [u8; 81],
}

impl<'a> Ctx<'a> {
    pub fn new(limit: u32, out: &'a mut [u8; 81]) -> Self {
        Ctx {
            limit,
            count: 0,
            guesses: 0,
            out,
        }
    }

    /// Counts a solution, the first one written into `out` by `write`.
    /// True once the limit is reached (the search stops).
    #[inline(always)]
    pub fn found(&mut self, write: impl FnOnce(&mut [u8; 81])) -> bool {
        self.count += 1;
        if self.count == 1 {
            write(self.out);
        }
        self.count >= self.limit
    }

    /// What the search found.
    pub fn outcome(&self) -> super::Search {
        super::Search {
            count: self.count,
            guesses: self.guesses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closure table against its definition, configuration by
    /// configuration: a cell is kept exactly when some configuration whose
    /// three minirows all hold a candidate uses it.
    #[test]
    fn keep_is_the_union_of_fitting_configurations() {
        for (m, &keep) in KEEP.iter().enumerate() {
            let w = expand_minirows(m as u32);
            let want = CONFIG_CELLS
                .iter()
                .filter(|&&c| (0..3).all(|r| w & c & (0x1FF << (9 * r)) != 0))
                .fold(0, |a, &c| a | c);
            assert_eq!(keep, want, "occupancy {m:09b}");
            assert_eq!(occupancy_tables(w), m);
        }
        // Every configuration takes one minirow per row and per box.
        for c in CONFIG_CELLS {
            assert_eq!(c.count_ones(), 9);
            assert_eq!(cols(c), 0x1FF);
        }
    }
}
