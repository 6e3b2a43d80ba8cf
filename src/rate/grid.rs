//! The rater's working state: a 9x9 candidate grid (values plus pencil marks)
//! that the techniques in [`super`] read and the solving loop updates.
//!
//! Candidates are kept twice, per cell (`u16`, bit `d - 1` for digit `d`) and
//! per digit (`u128`, bit `cell`), so "where can 5 go in this row" and "what
//! can go in this cell" are both one mask operation.

/// Bit of every cell of the grid.
pub(crate) const ALL: u128 = (1u128 << 81) - 1;

/// Region masks: boxes 0-8 (row-major), rows 9-17, columns 18-26.
pub(crate) static REGION: [u128; 27] = build_regions();

/// The 20 peers of each cell, as a mask.
pub(crate) static PEERS: [u128; 81] = build_peers();

const fn build_regions() -> [u128; 27] {
    let mut r = [0u128; 27];
    let mut c = 0;
    while c < 81 {
        let (row, col) = (c / 9, c % 9);
        let b = (row / 3) * 3 + col / 3;
        r[b] |= 1 << c;
        r[9 + row] |= 1 << c;
        r[18 + col] |= 1 << c;
        c += 1;
    }
    r
}

const fn build_peers() -> [u128; 81] {
    let regions = build_regions();
    let mut p = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let (row, col) = (c / 9, c % 9);
        let b = (row / 3) * 3 + col / 3;
        p[c] = (regions[b] | regions[9 + row] | regions[18 + col]) & !(1u128 << c);
        c += 1;
    }
    p
}

/// Region index of serate's region type `t` (0 box, 1 row, 2 column) number `i`.
#[inline]
pub(crate) const fn region(t: usize, i: usize) -> usize {
    match t {
        0 => i,
        1 => 9 + i,
        _ => 18 + i,
    }
}

/// Row, column and box of a cell.
#[inline]
pub(crate) const fn row_of(c: usize) -> usize {
    c / 9
}
#[inline]
pub(crate) const fn col_of(c: usize) -> usize {
    c % 9
}
#[inline]
pub(crate) const fn box_of(c: usize) -> usize {
    (c / 27) * 3 + (c % 9) / 3
}

/// Iterates the set bits of a mask, lowest first.
#[inline]
pub(crate) fn bits(mut m: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// Values and candidates of a grid being solved.
#[derive(Clone)]
pub(crate) struct Grid {
    /// Placed digit per cell, 0 when empty.
    pub values: [u8; 81],
    /// Candidates per cell (bit `d - 1`); 0 for placed cells.
    pub cells: [u16; 81],
    /// Candidate cells per digit (index `d - 1`).
    pub digits: [u128; 9],
    /// Empty cells.
    pub empty: u128,
}

impl Grid {
    /// The grid of a puzzle's givens with every candidate the givens allow
    /// (serate's `rebuildPotentialValues`).
    pub fn new(puzzle: &[u8]) -> Grid {
        let mut g = Grid {
            values: [0; 81],
            cells: [0x1ff; 81],
            digits: [ALL; 9],
            empty: ALL,
        };
        for (c, &v) in puzzle.iter().enumerate().take(81) {
            if v != 0 {
                g.place(c, v);
            }
        }
        g
    }

    /// Places `d` in cell `c` and removes `d` from its peers.
    pub fn place(&mut self, c: usize, d: u8) {
        let bit = 1u128 << c;
        self.values[c] = d;
        self.cells[c] = 0;
        self.empty &= !bit;
        for m in self.digits.iter_mut() {
            *m &= !bit;
        }
        let di = (d - 1) as usize;
        let hit = self.digits[di] & PEERS[c];
        self.digits[di] &= !hit;
        for p in bits(hit) {
            self.cells[p] &= !(1 << di);
        }
    }

    /// Removes digit `d` from the cells of `mask`.
    pub fn eliminate(&mut self, d: u8, mask: u128) {
        let di = (d - 1) as usize;
        let hit = self.digits[di] & mask;
        self.digits[di] &= !hit;
        for p in bits(hit) {
            self.cells[p] &= !(1 << di);
        }
    }

    /// Candidate cells of digit `d` (1-9) inside `mask`.
    #[inline]
    pub fn pos(&self, d: usize, mask: u128) -> u128 {
        self.digits[d - 1] & mask
    }
}
