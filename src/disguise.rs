//! Random validity-preserving transforms (disguises) behind `augment`: a pure
//! module beside `canon.rs`, cells in, cells out. Any size with square or
//! rectangular boxes: rows permuted within bands and bands among
//! themselves, columns within stacks and stacks among themselves, a
//! transposition when the boxes are square, and a relabelling of the
//! digits. The transform is written in `canon --transform`'s notation
//! (`N|T/ROWS/COLS/LABELS`, one digit an entry, for sides up to 9; past
//! 9 each list is comma-separated numbers). No I/O, no threads.

use std::fmt;

use crate::solver::Boxes;

/// A grid transform: `out[i][j] = labels[t[rows[i]][cols[j]]]`, where `t`
/// is the input, transposed first when `transpose` is set (the semantics
/// of [`crate::canon::Transform`], for any side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disguise {
    /// Transpose the input before permuting.
    pub transpose: bool,
    /// Source row of each target row.
    pub rows: Vec<u16>,
    /// Source column of each target column.
    pub cols: Vec<u16>,
    /// New label of each value; `labels[0] = 0` (blank stays blank).
    pub labels: Vec<u16>,
}

/// A small deterministic generator (SplitMix64): the same seed gives the
/// same disguises on every machine and thread count.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number below `n` (`n > 0`), by rejection.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// A permutation of `groups` groups of `size` lines each: the groups in a
/// random order, the lines of each group in a random order.
fn banded(rng: &mut Rng, groups: usize, size: usize) -> Vec<u16> {
    let mut order: Vec<usize> = (0..groups).collect();
    rng.shuffle(&mut order);
    let mut out = Vec::with_capacity(groups * size);
    for g in order {
        let mut lines: Vec<u16> = (0..size).map(|k| (g * size + k) as u16).collect();
        rng.shuffle(&mut lines);
        out.extend(lines);
    }
    out
}

impl Disguise {
    /// The identity of a grid of side `side`.
    pub fn identity(side: usize) -> Disguise {
        Disguise {
            transpose: false,
            rows: (0..side as u16).collect(),
            cols: (0..side as u16).collect(),
            labels: (0..=side as u16).collect(),
        }
    }

    /// A uniformly random disguise of grids with boxes `boxes` (box
    /// `rows x cols`: bands of `rows` rows, stacks of `cols` columns);
    /// transposed half the time when the boxes are square.
    pub fn random(boxes: Boxes, rng: &mut Rng) -> Disguise {
        let n = boxes.side();
        let (bh, bw) = (boxes.rows(), boxes.cols());
        let transpose = bh == bw && rng.below(2) == 1;
        let rows = banded(rng, n / bh, bh);
        let cols = banded(rng, n / bw, bw);
        let mut digits: Vec<u16> = (1..=n as u16).collect();
        rng.shuffle(&mut digits);
        let mut labels = vec![0u16];
        labels.extend(digits);
        Disguise {
            transpose,
            rows,
            cols,
            labels,
        }
    }

    /// Rows (and columns) of the grid it acts on.
    pub fn side(&self) -> usize {
        self.rows.len()
    }

    /// Writes the image of `cells` (row-major, `0` blank) into `out`.
    pub fn apply(&self, cells: &[u8], out: &mut [u8]) {
        let n = self.side();
        assert!(cells.len() == n * n && out.len() == n * n);
        for i in 0..n {
            for j in 0..n {
                let (r, c) = (usize::from(self.rows[i]), usize::from(self.cols[j]));
                let src = if self.transpose { c * n + r } else { r * n + c };
                out[i * n + j] = self.labels[usize::from(cells[src])] as u8;
            }
        }
    }
}

impl fmt::Display for Disguise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.side();
        let list = |v: &[u16]| -> String {
            if n <= 9 {
                v.iter().map(|d| char::from(b'0' + *d as u8)).collect()
            } else {
                v.iter().map(u16::to_string).collect::<Vec<_>>().join(",")
            }
        };
        write!(
            f,
            "{}/{}/{}/{}",
            if self.transpose { 'T' } else { 'N' },
            list(&self.rows),
            list(&self.cols),
            list(&self.labels[1..])
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid grid of any box shape by the usual pattern formula.
    fn grid(boxes: Boxes) -> Vec<u8> {
        let n = boxes.side();
        let (bh, bw) = (boxes.rows(), boxes.cols());
        let mut g = vec![0u8; n * n];
        for r in 0..n {
            for c in 0..n {
                g[r * n + c] = ((bw * (r % bh) + r / bh + c) % n) as u8 + 1;
            }
        }
        g
    }

    fn valid(boxes: Boxes, g: &[u8]) -> bool {
        let n = boxes.side();
        let (bh, bw) = (boxes.rows(), boxes.cols());
        let full = |cells: Vec<u8>| {
            let mut seen = vec![false; n + 1];
            cells.into_iter().all(|v| {
                let fresh = v != 0 && !seen[v as usize];
                seen[v as usize] = true;
                fresh
            })
        };
        (0..n).all(|i| {
            full((0..n).map(|j| g[i * n + j]).collect())
                && full((0..n).map(|j| g[j * n + i]).collect())
                && full(
                    (0..n)
                        .map(|k| {
                            let (r, c) =
                                ((i / (n / bw)) * bh + k / bw, (i % (n / bw)) * bw + k % bw);
                            g[r * n + c]
                        })
                        .collect(),
                )
        })
    }

    #[test]
    fn disguises_keep_grids_valid_for_square_and_rectangular_boxes() {
        let mut rng = Rng::new(42);
        for (h, w) in [(3, 3), (2, 2), (2, 3), (3, 2), (3, 4), (4, 4), (5, 5)] {
            let boxes = Boxes::new(h, w).unwrap();
            let g = grid(boxes);
            assert!(valid(boxes, &g), "{h}x{w} reference grid");
            let mut out = vec![0u8; g.len()];
            let mut transposed = false;
            for _ in 0..20 {
                let d = Disguise::random(boxes, &mut rng);
                transposed |= d.transpose;
                assert!(!d.transpose || h == w, "{h}x{w} boxes transposed");
                d.apply(&g, &mut out);
                assert!(valid(boxes, &out), "{h}x{w}: {d}");
            }
            assert_eq!(transposed, h == w, "{h}x{w}: transpose seen");
        }
    }

    #[test]
    fn nine_by_nine_matches_canon_transform_semantics() {
        let mut rng = Rng::new(7);
        let g = grid(Boxes::NINE);
        for _ in 0..50 {
            let d = Disguise::random(Boxes::NINE, &mut rng);
            let t = crate::canon::Transform::parse(&d.to_string()).unwrap();
            assert_eq!(t.to_string(), d.to_string());
            let (mut a, mut b) = ([0u8; 81], [0u8; 81]);
            d.apply(&g, &mut a);
            t.apply(&g, &mut b);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn big_sides_write_comma_lists() {
        let d = Disguise::identity(12);
        assert_eq!(
            d.to_string(),
            "N/0,1,2,3,4,5,6,7,8,9,10,11/0,1,2,3,4,5,6,7,8,9,10,11/1,2,3,4,5,6,7,8,9,10,11,12"
        );
    }
}
