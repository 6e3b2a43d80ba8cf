//! Canonical forms: the pure analysis beside `solver/` behind `canon` (and the
//! iso-dedupe built on it). Cells in (same encoding as the solvers: row-major,
//! `0` blank, `1..=side` given), canonical cells + one transform + the number
//! of automorphisms out. No I/O, no threads.
//!
//! # The group and the two forms
//!
//! A 9x9 puzzle keeps its essential properties under transposition, any
//! permutation of the bands, of the rows within each band, of the stacks and
//! of the columns within each stack (2 * 6^8 = 3,359,232 geometric
//! transforms), and any relabelling of the digits.
//!
//! - [`Form::String`] (the default): the lexicographically smallest 81-cell
//!   string (blank = 0) over the whole group. For a fixed geometric transform
//!   the best relabelling numbers the digits in order of first appearance, so
//!   the search is over geometric transforms only.
//! - [`Form::Pattern`]: the pattern-first minlex of Mladen Dobrichev's
//!   `sudoku-minlexing-tool` (`patminlex`): first the smallest given/blank
//!   pattern (given = 1, blank = 0, so blanks come first), then among the
//!   transforms that reach it the smallest string as above. Our output is
//!   byte-identical to the tool's on every shared data set (see
//!   `docs/canon.md` for the comparison run).
//!
//! For full grids the two forms coincide (the pattern is all ones).
//!
//! A puzzle's form never depends on whether it is solvable: clashing givens
//! (a digit twice in a row) are canonicalised like any other cells.
//!
//! # Search (9x9)
//!
//! Row by row, as the minlex tool does it. A candidate fixes the transposition,
//! the stack order, the source rows of the target rows placed so far, a 6-bit
//! mask per stack of the in-stack column orders still allowed, and (string
//! keys) the digit labels given so far. Extending a candidate by one target
//! row tries every source row the band structure allows; per stack (in target
//! order) it keeps only the column orders that give the smallest triplet, and
//! splits them into groups that give the same labels (two orders that place
//! two new digits differently tie on this row but label the digits
//! differently). Only candidates whose row equals the smallest row of this
//! step over all candidates survive. After row 9 every survivor maps the
//! input to the form, and every column order left in its masks does too, so
//! the number of automorphisms is the sum over survivors of the product of
//! the mask sizes.
//!
//! The pattern form runs the same search twice: rows with pattern keys
//! (given = 1) and no labels, then the label keys over the survivors with
//! their rows fixed, splitting the masks.
//!
//! # Measurements
//!
//! See `docs/canon.md` for the rates and the side-by-side against the tool.
//!
//! # Other sizes
//!
//! 4x4 (2x2 boxes) and 6x6 (2x3 boxes) are canonicalised exactly by brute
//! force over their groups (128 and 3,456 transforms; 6x6 has no
//! transposition since it would turn 2x3 boxes into 3x2). Other sizes return
//! [`CanonError::Size`].

use crate::record::{Analysis, RecordError};
use crate::solver::Boxes;
use std::fmt;

/// Which canonical form to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Form {
    /// Lexicographically smallest string over the whole group (blank = 0).
    #[default]
    String,
    /// Pattern first, then string: the form of dobrichev's `patminlex`.
    Pattern,
}

/// Why a record has no canonical form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// Only 9x9, 4x4 (2x2 boxes) and 6x6 (2x3 boxes) are supported.
    #[error("canonical forms are computed for 9x9, 4x4 and 6x6 (2x3 boxes) grids, not {side}x{side} ({0} boxes)", side = .0.side())]
    Size(Boxes),
    /// The cell slice does not hold `side * side` cells.
    #[error("expected {expected} cells, got {got}")]
    Length {
        /// Cells of the grid.
        expected: usize,
        /// Cells passed.
        got: usize,
    },
    /// A cell holds a value above the side.
    #[error("cell {index} holds {value}, above the grid's side")]
    Cell {
        /// Row-major index of the cell.
        index: usize,
        /// Its value.
        value: u8,
    },
}

/// A transform of the group: `out[i][j] = labels[t[rows[i]][cols[j]]]`,
/// where `t` is the input, transposed first when `transpose` is set.
///
/// Text encoding ([`fmt::Display`] / [`Transform::parse`]): `N` or `T`
/// (transposed), then `/` and the source row of each target row (0-based,
/// one digit each), `/` and the source column of each target column, `/`
/// and the new label of each digit `1..=side`. The identity of 9x9 is
/// `N/012345678/012345678/123456789`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    side: u8,
    /// Transpose the input before permuting.
    pub transpose: bool,
    /// Source row of each target row (first `side` entries used).
    pub rows: [u8; 9],
    /// Source column of each target column (first `side` entries used).
    pub cols: [u8; 9],
    /// New label of each digit; `labels[0] = 0` (blank stays blank).
    pub labels: [u8; 10],
}

impl Transform {
    /// The identity on a grid of `side` (at most 9) rows.
    pub fn identity(side: usize) -> Transform {
        assert!(side <= 9, "transforms are for grids of side 9 or less");
        let mut t = Transform {
            side: side as u8,
            transpose: false,
            rows: [0; 9],
            cols: [0; 9],
            labels: [0; 10],
        };
        for i in 0..side {
            t.rows[i] = i as u8;
            t.cols[i] = i as u8;
            t.labels[i + 1] = i as u8 + 1;
        }
        t
    }

    /// Rows (and columns) of the grid it acts on.
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// Writes the image of `cells` into `out` (both `side * side` long).
    pub fn apply(&self, cells: &[u8], out: &mut [u8]) {
        let n = self.side();
        assert!(cells.len() == n * n && out.len() == n * n);
        for i in 0..n {
            for j in 0..n {
                let (r, c) = (self.rows[i] as usize, self.cols[j] as usize);
                let src = if self.transpose { c * n + r } else { r * n + c };
                out[i * n + j] = self.labels[cells[src] as usize];
            }
        }
    }

    /// The transform that undoes this one.
    pub fn inverse(&self) -> Transform {
        let n = self.side();
        let mut inv = *self;
        let mut rinv = [0u8; 9];
        let mut cinv = [0u8; 9];
        for i in 0..n {
            rinv[self.rows[i] as usize] = i as u8;
            cinv[self.cols[i] as usize] = i as u8;
        }
        // Not transposed: src[r][c] = L^-1[out[rinv[r]][cinv[c]]]. Transposed:
        // src[a][b] = L^-1[out[rinv[b]][cinv[a]]], i.e. transpose the output,
        // then rows by cinv and columns by rinv.
        if self.transpose {
            inv.rows = cinv;
            inv.cols = rinv;
        } else {
            inv.rows = rinv;
            inv.cols = cinv;
        }
        inv.labels = [0; 10];
        for d in 1..=n {
            inv.labels[self.labels[d] as usize] = d as u8;
        }
        inv
    }

    /// `self` after `first`: applying the result equals applying `first`,
    /// then `self`.
    pub fn after(&self, first: &Transform) -> Transform {
        let n = self.side();
        assert_eq!(n, first.side());
        // Compose on cell indices: image cell (i, j) of self reads source
        // cell s(i, j) of its input, which is first's output cell, which
        // reads first's input cell.
        let mut out = Transform::identity(n);
        out.transpose = self.transpose != first.transpose;
        let f = |t: &Transform, i: usize, j: usize| -> (usize, usize) {
            let (r, c) = (t.rows[i] as usize, t.cols[j] as usize);
            if t.transpose {
                (c, r)
            } else {
                (r, c)
            }
        };
        // The composite is determined by where target rows/cols come from;
        // derive them from cells (0, j) and (i, 0) of the composite map.
        for i in 0..n {
            let (a, b) = f(self, i, 0);
            let (r, c) = f(first, a, b);
            // source cell (r, c) of the composite for target (i, 0).
            out.rows[i] = if out.transpose { c as u8 } else { r as u8 };
        }
        for j in 0..n {
            let (a, b) = f(self, 0, j);
            let (r, c) = f(first, a, b);
            out.cols[j] = if out.transpose { r as u8 } else { c as u8 };
        }
        for d in 0..=n {
            out.labels[d] = self.labels[first.labels[d] as usize];
        }
        out
    }

    /// Parses the text encoding written by [`fmt::Display`].
    pub fn parse(s: &str) -> Result<Transform, String> {
        let bad = || format!("{s:?}: expected a transform such as N/012345678/012345678/123456789");
        let mut parts = s.trim().split('/');
        let t = match parts.next() {
            Some("N") => false,
            Some("T") => true,
            _ => return Err(bad()),
        };
        let (rows, cols, labels) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some(r), Some(c), Some(l), None) => (r.as_bytes(), c.as_bytes(), l.as_bytes()),
            _ => return Err(bad()),
        };
        let n = rows.len();
        if !(1..=9).contains(&n) || cols.len() != n || labels.len() != n {
            return Err(bad());
        }
        let mut x = Transform::identity(n);
        x.transpose = t;
        let perm = |v: &[u8], base: u8, out: &mut [u8]| -> bool {
            let mut seen = 0u16;
            for (i, &b) in v.iter().enumerate() {
                let d = b.wrapping_sub(b'0');
                if d < base || (d - base) as usize >= n || seen & (1 << d) != 0 {
                    return false;
                }
                seen |= 1 << d;
                out[i] = d;
            }
            true
        };
        let mut lab = [0u8; 9];
        if !perm(rows, 0, &mut x.rows) || !perm(cols, 0, &mut x.cols) || !perm(labels, 1, &mut lab)
        {
            return Err(bad());
        }
        x.labels[1..=n].copy_from_slice(&lab[..n]);
        Ok(x)
    }
}

impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.side();
        let digits = |v: &[u8]| v.iter().map(|&d| (b'0' + d) as char).collect::<String>();
        write!(
            f,
            "{}/{}/{}/{}",
            if self.transpose { 'T' } else { 'N' },
            digits(&self.rows[..n]),
            digits(&self.cols[..n]),
            digits(&self.labels[1..=n])
        )
    }
}

/// The canonical form of one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    side: u8,
    cells: [u8; 81],
    /// A transform that maps the input to [`Canonical::cells`].
    pub transform: Transform,
    /// How many geometric transforms (of the 3,359,232 for 9x9) map the input
    /// to its form, each with its relabelling of the digits present: the
    /// order of the automorphism group. For a full grid this is the usual
    /// count (648 for the most symmetric full grid); for a puzzle, transforms that
    /// differ only on blank cells count separately (so an empty 9x9 has
    /// 3,359,232), which is not what `patminlex` prints: it counts distinct
    /// maps of the givens.
    pub automorphisms: u64,
}

impl Canonical {
    /// The canonical cells (`side * side`, same encoding as the input).
    pub fn cells(&self) -> &[u8] {
        let n = self.side as usize;
        &self.cells[..n * n]
    }
}

/// Canonical form of `cells` (a grid with boxes `boxes`).
pub fn canonicalize(boxes: Boxes, cells: &[u8], form: Form) -> Result<Canonical, CanonError> {
    let n = boxes.side();
    if !(boxes == Boxes::NINE || boxes == Boxes::square(2) || boxes == Boxes::new(2, 3).unwrap()) {
        return Err(CanonError::Size(boxes));
    }
    if cells.len() != n * n {
        return Err(CanonError::Length {
            expected: n * n,
            got: cells.len(),
        });
    }
    if let Some((index, &value)) = cells.iter().enumerate().find(|(_, &v)| v as usize > n) {
        return Err(CanonError::Cell { index, value });
    }
    if n == 9 {
        let mut c = [0u8; 81];
        c.copy_from_slice(cells);
        Ok(canon9(&c, form))
    } else {
        Ok(small::canon(boxes, cells, form))
    }
}

/// The `canon` command's per-record job: the form as the grid, and with
/// `transform` the transform and automorphism count as two fields.
#[derive(Clone, Copy, Debug)]
pub struct CanonJob {
    /// Which form.
    pub form: Form,
    /// Add the `transform` and `automorphisms` fields.
    pub transform: bool,
    /// The blank the forms are written with (`--blank`); `None`: the
    /// symbols' usual one (`.` for digits), whatever the record used.
    pub blank: Option<u8>,
}

impl Analysis for CanonJob {
    fn name(&self) -> &'static str {
        "canon"
    }

    fn grid_column(&self) -> Option<&'static str> {
        Some("canonical")
    }

    fn columns(&self) -> &[&'static str] {
        if self.transform {
            &["transform", "automorphisms"]
        } else {
            &[]
        }
    }

    fn keeps_puzzle(&self) -> bool {
        false
    }

    fn blank(&self) -> Option<u8> {
        self.blank
    }

    fn analyse(
        &self,
        boxes: Boxes,
        cells: &[u8],
        grid: &mut [u8],
        fields: &mut Vec<String>,
    ) -> Result<(), RecordError> {
        let c = canonicalize(boxes, cells, self.form)
            .map_err(|e| RecordError::Unsupported(e.to_string()))?;
        grid.copy_from_slice(c.cells());
        if self.transform {
            fields.push(c.transform.to_string());
            fields.push(c.automorphisms.to_string());
        }
        Ok(())
    }
}

/// In-stack column orders: target column `j` of a stack reads source column
/// `PERM[p][j]` of its stack (the order of `patminlex`'s table).
const PERM: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// A partial transform of the row-by-row search.
#[derive(Clone, Copy, Debug)]
struct Cand {
    t: u8,
    /// Next free label.
    next: u8,
    /// Source rows used so far.
    used: u16,
    /// Source row of each target row placed so far.
    rows: [u8; 9],
    /// Source stack of each target stack.
    stacks: [u8; 3],
    /// Allowed in-stack orders per target stack.
    masks: [u8; 3],
    /// Label of each source digit, 0 while unlabelled.
    label: [u8; 10],
}

/// Key of one triplet (4 bits a cell, first cell highest) and the digits it
/// labels for the first time (4 bits each, in target order).
#[inline(always)]
fn triplet(d: [u8; 3], p: &[u8; 3], label: &[u8; 10], next: u8) -> (u16, u16) {
    let mut key = 0u16;
    let mut sig = 0u16;
    let mut fresh = [0u8; 3];
    let mut nf = 0u8;
    for &pj in p {
        let x = d[pj as usize];
        let v = if x == 0 {
            0
        } else if label[x as usize] != 0 {
            label[x as usize]
        } else {
            let mut v = 0;
            for (i, &f) in fresh[..nf as usize].iter().enumerate() {
                if f == x {
                    v = next + i as u8;
                }
            }
            if v == 0 {
                fresh[nf as usize] = x;
                v = next + nf;
                nf += 1;
                sig = sig << 4 | x as u16;
            }
            v
        };
        key = key << 4 | v as u16;
    }
    (key, sig)
}

struct Search {
    /// Input and its transpose, by row.
    g: [[[u8; 9]; 9]; 2],
    /// Givens of each source triplet as bits (bit `j` = column `j` of the
    /// stack), by orientation, row and stack.
    tri: [[[u8; 3]; 9]; 2],
    best: u64,
    out: Vec<Cand>,
}

impl Search {
    /// Extends `c` by source row `r` as target row `k`, stack by stack from
    /// stack `p`, `prefix` holding the keys of the earlier stacks of this
    /// row; a survivor of the whole row goes to `out`. Digit labels.
    fn stack(&mut self, c: &Cand, k: usize, r: usize, p: usize, prefix: u64) {
        if p == 3 {
            if prefix < self.best {
                self.best = prefix;
                self.out.clear();
            }
            let mut child = *c;
            child.rows[k] = r as u8;
            child.used |= 1 << r;
            self.out.push(child);
            return;
        }
        let bound = self.best >> (12 * (2 - p));
        let row = &self.g[c.t as usize][r];
        let base = 3 * c.stacks[p] as usize;
        let d = [row[base], row[base + 1], row[base + 2]];
        let m = c.masks[p];
        let given = (d[0] != 0) as u8 | ((d[1] != 0) as u8) << 1 | ((d[2] != 0) as u8) << 2;
        // Fast paths (most triplets of a sparse puzzle): no given keeps the
        // masks and labels; one given goes as far right as the mask allows.
        if given == 0 {
            let kp = prefix << 12;
            if kp <= bound {
                self.stack(c, k, r, p + 1, kp);
            }
            return;
        }
        if given.is_power_of_two() {
            let s = given.trailing_zeros() as usize;
            let x = d[s] as usize;
            let mut j = 2;
            while m & AT[s][j] == 0 {
                j -= 1;
            }
            let fresh = c.label[x] == 0;
            let v = if fresh { c.next } else { c.label[x] };
            let kp = prefix << 12 | (v as u64) << (4 * (2 - j));
            if kp > bound {
                return;
            }
            let mut child = *c;
            child.masks[p] = m & AT[s][j];
            if fresh {
                child.label[x] = child.next;
                child.next += 1;
            }
            self.stack(&child, k, r, p + 1, kp);
            return;
        }
        let mut keys = [u16::MAX; 6];
        let mut sigs = [0u16; 6];
        let mut min = u16::MAX;
        let mut mm = m;
        while mm != 0 {
            let i = mm.trailing_zeros() as usize;
            mm &= mm - 1;
            let (key, sig) = triplet(d, &PERM[i], &c.label, c.next);
            keys[i] = key;
            sigs[i] = sig;
            min = min.min(key);
        }
        let kp = prefix << 12 | min as u64;
        if kp > bound {
            return;
        }
        let mut tied = 0u8;
        for (i, &key) in keys.iter().enumerate() {
            if key == min {
                tied |= 1 << i;
            }
        }
        while tied != 0 {
            let i = tied.trailing_zeros() as usize;
            let mut group = 0u8;
            let mut rest = tied;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if sigs[j] == sigs[i] {
                    group |= 1 << j;
                }
            }
            tied &= !group;
            let mut child = *c;
            child.masks[p] = group;
            let mut sg = sigs[i];
            // The fresh digits, in target order, packed highest first.
            let mut fresh = [0u8; 3];
            let mut nf = 0;
            while sg != 0 {
                fresh[nf] = (sg & 15) as u8;
                sg >>= 4;
                nf += 1;
            }
            for f in 0..nf {
                child.label[fresh[nf - 1 - f] as usize] = child.next;
                child.next += 1;
            }
            self.stack(&child, k, r, p + 1, kp);
        }
    }

    /// Pattern keys (given = 1, no labels): the whole row by three table
    /// look-ups, as `patminlex` does it.
    #[inline]
    fn row_pattern(&mut self, c: &Cand, k: usize, r: usize) {
        let tri = &self.tri[c.t as usize][r];
        let (k0, m0) = PAT[tri[c.stacks[0] as usize] as usize][c.masks[0] as usize];
        let b = self.best;
        if k0 as u64 > b >> 24 {
            return;
        }
        let (k1, m1) = PAT[tri[c.stacks[1] as usize] as usize][c.masks[1] as usize];
        let kp = (k0 as u64) << 12 | k1 as u64;
        if kp > b >> 12 {
            return;
        }
        let (k2, m2) = PAT[tri[c.stacks[2] as usize] as usize][c.masks[2] as usize];
        let key = kp << 12 | k2 as u64;
        if key > b {
            return;
        }
        if key < b {
            self.best = key;
            self.out.clear();
        }
        let mut child = *c;
        child.rows[k] = r as u8;
        child.used |= 1 << r;
        child.masks = [m0, m1, m2];
        self.out.push(child);
    }

    /// Extends every candidate of `cur` by target row `k`, keeping those
    /// whose row is the smallest. `fixed`: the rows are already chosen.
    /// Row 0 takes the rows of `top` (its candidates have no row yet).
    fn step(&mut self, cur: &mut Vec<Cand>, k: usize, labels: bool, fixed: bool, top: [u16; 2]) {
        self.best = u64::MAX;
        self.out.clear();
        for c in cur.iter() {
            let allowed: u16 = if fixed {
                1 << c.rows[k]
            } else if k == 0 {
                top[c.t as usize]
            } else if k.is_multiple_of(3) {
                let mut a = 0u16;
                for b in 0..3 {
                    if c.used & (7 << (3 * b)) == 0 {
                        a |= 7 << (3 * b);
                    }
                }
                a
            } else {
                (7u16 << (3 * (c.rows[k - 1] / 3))) & !c.used
            };
            let mut a = allowed;
            while a != 0 {
                let r = a.trailing_zeros() as usize;
                a &= a - 1;
                if labels {
                    self.stack(c, k, r, 0, 0);
                } else {
                    self.row_pattern(c, k, r);
                }
            }
        }
        std::mem::swap(cur, &mut self.out);
    }
}

/// `AT[s][j]`: the in-stack orders that put source column `s` at target
/// column `j`.
const AT: [[u8; 3]; 3] = {
    let mut t = [[0u8; 3]; 3];
    let mut i = 0;
    while i < 6 {
        let mut j = 0;
        while j < 3 {
            t[PERM[i][j] as usize][j] |= 1 << i;
            j += 1;
        }
        i += 1;
    }
    t
};

/// `PAT[g][m]`: for a triplet whose givens are the bits of `g` (bit `s` =
/// source column `s`) and the allowed orders `m`, the smallest pattern key
/// (a nibble a cell, 1 = given) and the orders that reach it.
static PAT: [[(u16, u8); 64]; 8] = {
    let mut t = [[(u16::MAX, 0u8); 64]; 8];
    let mut g = 0;
    while g < 8 {
        let mut m = 1;
        while m < 64 {
            let mut best = u16::MAX;
            let mut tied = 0u8;
            let mut i = 0;
            while i < 6 {
                if m & (1 << i) != 0 {
                    let mut key = 0u16;
                    let mut j = 0;
                    while j < 3 {
                        key = key << 4 | ((g >> PERM[i][j]) & 1) as u16;
                        j += 1;
                    }
                    if key < best {
                        best = key;
                        tied = 0;
                    }
                    if key == best {
                        tied |= 1 << i;
                    }
                }
                i += 1;
            }
            t[g][m] = (best, tied);
            m += 1;
        }
        g += 1;
    }
    t
};

/// Smallest pattern of a row under column moves: triplets sorted by their
/// number of givens, fewest first, givens right-aligned in each.
fn min_row_pattern(row: &[u8; 9]) -> u16 {
    let mut c = [0u8; 3];
    for (s, cs) in c.iter_mut().enumerate() {
        *cs = row[3 * s..3 * s + 3].iter().filter(|&&x| x != 0).count() as u8;
    }
    c.sort_unstable();
    c.iter().fold(0u16, |a, &n| a << 3 | ((1u16 << n) - 1))
}

fn has_repeat(row: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for &x in row {
        if x != 0 {
            if seen & (1 << x) != 0 {
                return true;
            }
            seen |= 1 << x;
        }
    }
    false
}

/// The 9x9 canonical form.
pub fn canon9(cells: &[u8; 81], form: Form) -> Canonical {
    let mut g = [[[0u8; 9]; 9]; 2];
    for r in 0..9 {
        for c in 0..9 {
            let x = cells[r * 9 + c];
            debug_assert!(x <= 9);
            g[0][r][c] = x;
            g[1][c][r] = x;
        }
    }
    // A Latin square (every row and column a permutation) has the same
    // pattern under every transform, so both forms are the string form. A
    // valid full grid (boxes too) has its own search (`grid`, which relies
    // on the boxes); a Latin square whose boxes clash takes the generic one
    // with labels.
    let latin = is_latin(&g);
    if latin && boxes_are_permutations(cells) {
        return grid::canon(cells, g);
    }
    let labels = form == Form::String || latin;
    // Top-row filter: a row whose smallest pattern is not the smallest of
    // all rows cannot be the top row (with distinct digits the smallest
    // string of a row is its smallest pattern with labels 1, 2, ... in
    // order, so string order equals pattern order). A repeated digit breaks
    // that, so then every row is tried.
    let mut top = [0u16; 2];
    let mut minp = u16::MAX;
    let mut repeat = false;
    let mut pats = [[0u16; 9]; 2];
    for t in 0..2 {
        for r in 0..9 {
            pats[t][r] = min_row_pattern(&g[t][r]);
            minp = minp.min(pats[t][r]);
            repeat |= has_repeat(&g[t][r]);
        }
    }
    for (t, ps) in pats.iter().enumerate() {
        for (r, &pr) in ps.iter().enumerate() {
            if repeat || pr == minp {
                top[t] |= 1 << r;
            }
        }
    }
    // Pattern triplets are read by the pattern rows only (~650 instructions
    // a puzzle the string form does not need).
    let mut tri = [[[0u8; 3]; 9]; 2];
    for t in 0..2 {
        if labels {
            break;
        }
        for r in 0..9 {
            for st in 0..3 {
                for j in 0..3 {
                    tri[t][r][st] |= ((g[t][r][3 * st + j] != 0) as u8) << j;
                }
            }
        }
    }
    let mut s = Search {
        g,
        tri,
        best: u64::MAX,
        out: Vec::with_capacity(256),
    };
    let mut cur: Vec<Cand> = Vec::with_capacity(256);
    // Roots: (transpose, stack order); row 0 takes the rows of `top`.
    for t in 0..2u8 {
        if top[t as usize] == 0 {
            continue;
        }
        for sp in PERM.iter() {
            cur.push(Cand {
                t,
                next: 1,
                used: 0,
                rows: [0; 9],
                stacks: *sp,
                masks: [63; 3],
                label: [0; 10],
            });
        }
    }
    for k in 0..9 {
        s.step(&mut cur, k, labels, false, top);
    }
    if !labels {
        for k in 0..9 {
            s.step(&mut cur, k, true, true, top);
        }
    }
    finish(cells, &cur)
}

/// The form, a transform and the automorphism count from the survivors of
/// the search.
fn finish(cells: &[u8; 81], cur: &[Cand]) -> Canonical {
    let automorphisms = cur
        .iter()
        .map(|c| {
            c.masks
                .iter()
                .map(|m| m.count_ones() as u64)
                .product::<u64>()
        })
        .sum();
    let c = &cur[0];
    let mut tr = Transform::identity(9);
    tr.transpose = c.t == 1;
    tr.rows = c.rows;
    for p in 0..3 {
        let perm = &PERM[c.masks[p].trailing_zeros() as usize];
        for (j, &pj) in perm.iter().enumerate() {
            tr.cols[3 * p + j] = 3 * c.stacks[p] + pj;
        }
    }
    tr.labels = complete_labels(&c.label, 9);
    let mut out = [0u8; 81];
    tr.apply(cells, &mut out);
    Canonical {
        side: 9,
        cells: out,
        transform: tr,
        automorphisms,
    }
}

/// True when every box holds nine distinct digits.
fn boxes_are_permutations(cells: &[u8; 81]) -> bool {
    (0..9).all(|b| {
        let mut seen = 0u16;
        for i in 0..9 {
            seen |= 1 << cells[(3 * (b / 3) + i / 3) * 9 + 3 * (b % 3) + i % 3];
        }
        seen == 0x3FE
    })
}

/// True when every row of both orientations holds nine distinct digits.
fn is_latin(g: &[[[u8; 9]; 9]; 2]) -> bool {
    g.iter().all(|o| {
        o.iter().all(|row| {
            let mut seen = 0u16;
            for &x in row {
                seen |= 1 << x;
            }
            seen == 0x3FE
        })
    })
}

/// Full grids (Latin squares). Row 0 always reads 123456789 (labels are
/// the target columns of its digits), so the generic search would split
/// into 6 * 6^3 label groups per top row (23,328 candidates) before row 1
/// tells them apart. Instead row 1 is built directly for each (transposition,
/// top row, second row) pair and each order of target stack 0: target column
/// `j` reads `1 + target of f(source column at j)`, where `f(c)` is the
/// column of row 0 holding row 1's digit at `c`, and the best place for an
/// unplaced `f(c)` is the first free column of its stack's target (or of the
/// next target stack when its stack has none yet), so once target stack 0
/// is ordered the whole column order follows (see `pure_row1`, `mixed_row1`).
/// After rows 0-1 every column and label is fixed and rows 2-8 are chosen
/// row by row by direct look-ups (`rest_row`), ties kept.
///
/// Cost (callgrind, marginal, 100 of the 100k random grids of
/// `scripts/canon_compare.sh`): ~229k instructions a grid with a
/// column-by-column branch-and-bound over all 36 pairs and the generic row
/// search for rows 2-8; 44k with a greedy walk per start, the pure/mixed
/// filters below and `rest_row`; 30k with row 1 built directly and pure
/// pairs filtered by the cycle type of f^3 (docs/canon.md has the table).
mod grid {
    use super::{finish, Cand, Canonical, Search, PERM};

    /// The form of a Latin square `cells` (`g`: by row, and transposed).
    pub(super) fn canon(cells: &[u8; 81], g: [[[u8; 9]; 9]; 2]) -> Canonical {
        let mut s = Search {
            g,
            tri: [[[0; 3]; 9]; 2],
            best: u64::MAX,
            out: Vec::with_capacity(256),
        };
        first_two_rows(&mut s);
        let mut cur = std::mem::take(&mut s.out);
        let mut next = Vec::with_capacity(cur.len());
        for k in 2..9 {
            rest_row(&s.g, &mut cur, &mut next, k);
        }
        finish(cells, &cur)
    }

    /// Row `k` (2..9) for every candidate. After rows 0 and 1 a candidate
    /// of a Latin square has every column and every label fixed (one
    /// order per stack, nine labels), so a source row's image is nine
    /// look-ups: no per-stack search. The generic `Search::step` did the
    /// same work at ~60 instructions a (candidate, row) more.
    fn rest_row(g: &[[[u8; 9]; 9]; 2], cur: &mut Vec<Cand>, next: &mut Vec<Cand>, k: usize) {
        let mut best = u64::MAX;
        next.clear();
        for c in cur.iter() {
            let mut cols = [0u8; 9];
            for p in 0..3 {
                let perm = &PERM[c.masks[p].trailing_zeros() as usize];
                for j in 0..3 {
                    cols[3 * p + j] = 3 * c.stacks[p] + perm[j];
                }
            }
            let mut allowed: u16 = if k.is_multiple_of(3) {
                let mut a = 0u16;
                for b in 0..3 {
                    if c.used & (7 << (3 * b)) == 0 {
                        a |= 7 << (3 * b);
                    }
                }
                a
            } else {
                (7u16 << (3 * (c.rows[k - 1] / 3))) & !c.used
            };
            while allowed != 0 {
                let r = allowed.trailing_zeros() as usize;
                allowed &= allowed - 1;
                let row = &g[c.t as usize][r];
                let mut key = 0u64;
                for &col in &cols {
                    key = key << 4 | c.label[row[col as usize] as usize] as u64;
                }
                if key > best {
                    continue;
                }
                if key < best {
                    best = key;
                    next.clear();
                }
                let mut child = *c;
                child.rows[k] = r as u8;
                child.used |= 1 << r;
                next.push(child);
            }
        }
        std::mem::swap(cur, next);
    }

    /// One (transposition, top row, second row) pair; `f[c]` is the column
    /// of row 0 holding row 1's digit at column `c`.
    struct Pair {
        t: u8,
        r0: u8,
        r1: u8,
        f: [u8; 9],
    }

    pub(super) fn first_two_rows(s: &mut Search) {
        s.best = u64::MAX;
        s.out.clear();
        // The 36 pairs. A pair is pure when row 1's first triplet holds the
        // digits of one stack of row 0; then all three triplets do (each
        // box of row 1 takes the digits of row 0's other stacks, so once
        // one stack's digits fill one box the other two boxes are forced
        // to be pure too), and row 1 can start 456789, which no mixed pair
        // reaches (its first triplet takes two digits of one stack and one
        // of another: 457 at best). So when any pair is pure only the pure
        // ones are tried (439 of 2,000 random grids have one: their form's
        // row 1 starts 456).
        let mut pairs: [Pair; 36] = std::array::from_fn(|_| Pair {
            t: 0,
            r0: 0,
            r1: 0,
            f: [0; 9],
        });
        let mut pure = [false; 36];
        let mut n = 0;
        for t in 0..2u8 {
            for r0 in 0..9u8 {
                let row0 = s.g[t as usize][r0 as usize];
                let mut col_of = [0u8; 10];
                for (c, &x) in row0.iter().enumerate() {
                    col_of[x as usize] = c as u8;
                }
                for r1 in (3 * (r0 / 3)..3 * (r0 / 3) + 3).filter(|&r| r != r0) {
                    let row1 = s.g[t as usize][r1 as usize];
                    let p = &mut pairs[n];
                    for c in 0..9 {
                        p.f[c] = col_of[row1[c] as usize];
                    }
                    (p.t, p.r0, p.r1) = (t, r0, r1);
                    pure[n] = p.f[0] / 3 == p.f[1] / 3 && p.f[1] / 3 == p.f[2] / 3;
                    n += 1;
                }
            }
        }
        if pure.iter().any(|&p| p) {
            // Row 1 of a pure pair reads 456789 and then, for target stack 0
            // in order a0 a1 a2, 1 + the index of f^3(a_i) in that order:
            // 123 when f^3 fixes the stack's columns, 132 when it swaps two
            // (a0 its fixed point), 231 when it rotates them (a1 = f^3(a0)).
            // The cycle type is the same for every stack (f conjugates
            // them), so only the pairs of the best type are built, and of
            // their 18 orders only those reading its triplet: before this
            // filter a grid with a pure band built 108 or more rows 1 at
            // ~185 instructions each.
            let f3 = |f: &[u8; 9], c: u8| f[f[f[c as usize] as usize] as usize];
            let fixed = |f: &[u8; 9]| (0..3u8).filter(|&c| f3(f, c) == c).count();
            let best_fixed = (0..36)
                .filter(|&i| pure[i])
                .map(|i| fixed(&pairs[i].f))
                .max()
                .unwrap_or(0);
            let want = match best_fixed {
                3 => [1, 2, 3],
                1 => [1, 3, 2],
                _ => [2, 3, 1],
            };
            for (pair, _) in pairs.iter().zip(pure).filter(|(_, p)| *p) {
                if fixed(&pair.f) != best_fixed {
                    continue;
                }
                for a in 0..3u8 {
                    for p in PERM.iter() {
                        let order = [3 * a + p[0], 3 * a + p[1], 3 * a + p[2]];
                        let reads = order.map(|c| {
                            1 + order.iter().position(|&x| x == f3(&pair.f, c)).unwrap_or(3) as u8
                        });
                        if reads == want {
                            leaf(s, pair, pure_row1(&pair.f, order));
                        }
                    }
                }
            }
            return;
        }
        // All pairs mixed. With source stack `a` at target stack 0, its two
        // columns whose f lies in one stack M go first (row 1 reads 4 5:
        // M becomes target stack 1), the odd one third (7: its stack is
        // target stack 2); any other order reads 4 7 and loses. Target
        // column 3 then holds f(a0), and row 1 reads there 1 + the target
        // of f(f(a0)): 1, 2 or 3 when it is a0, a1 or a2, 8 when it lies
        // in the third stack. Only the starts with the smallest such value
        // are built (~27 of the 216 in a random grid).
        let mut starts = [(0u8, [0u8; 3], 0u8); 216];
        let mut ns = 0;
        let mut min_x3 = u8::MAX;
        for (i, pair) in pairs.iter().enumerate() {
            let f = &pair.f;
            for a in 0..3u8 {
                let c = [3 * a, 3 * a + 1, 3 * a + 2];
                let sf = [
                    f[c[0] as usize] / 3,
                    f[c[1] as usize] / 3,
                    f[c[2] as usize] / 3,
                ];
                let (a0, a1, a2) = if sf[0] == sf[1] {
                    (c[0], c[1], c[2])
                } else if sf[0] == sf[2] {
                    (c[0], c[2], c[1])
                } else {
                    (c[1], c[2], c[0])
                };
                for (a0, a1) in [(a0, a1), (a1, a0)] {
                    let ff = f[f[a0 as usize] as usize];
                    let x3 = if ff == a0 {
                        1
                    } else if ff == a1 {
                        2
                    } else if ff == a2 {
                        3
                    } else {
                        8
                    };
                    min_x3 = min_x3.min(x3);
                    starts[ns] = (i as u8, [a0, a1, a2], x3);
                    ns += 1;
                }
            }
        }
        for &(i, order, x3) in &starts[..ns] {
            if x3 == min_x3 {
                let pair = &pairs[i as usize];
                leaf(s, pair, mixed_row1(&pair.f, order));
            }
        }
    }

    /// The source column at each target column for a pure pair whose
    /// target stack 0 reads source columns `a`: stack 1 is then f(a) in
    /// that order (row 1 reads 456) and stack 2 is f(f(a)) (789), and the
    /// last triplet reads the targets of f^3(a).
    #[inline]
    fn pure_row1(f: &[u8; 9], a: [u8; 3]) -> [u8; 9] {
        let mut at = [0u8; 9];
        for i in 0..3 {
            at[i] = a[i];
            at[3 + i] = f[a[i] as usize];
            at[6 + i] = f[at[3 + i] as usize];
        }
        at
    }

    /// The same for a mixed pair and the start `a0 a1 a2` (f(a0), f(a1) in
    /// stack M, f(a2) in stack N): stack 1 is f(a0) f(a1) and M's third
    /// column (row 1 reads 457 in stack 0), stack 2 starts with f(a2), then
    /// takes N's other two columns as row 1 meets them in stack 1 (exactly
    /// two of f(M) lie in N: each box of row 1 takes two digits of one
    /// stack of row 0 and one of the other, and the majors go round the
    /// stacks in one direction).
    #[inline]
    fn mixed_row1(f: &[u8; 9], a: [u8; 3]) -> [u8; 9] {
        let (m3, m4) = (f[a[0] as usize], f[a[1] as usize]);
        let m = m3 / 3;
        let m5 = 3 * m + 3 - m3 % 3 - m4 % 3;
        let n6 = f[a[2] as usize];
        let nst = n6 / 3;
        let mut at = [a[0], a[1], a[2], m3, m4, m5, n6, 0, 0];
        let mut j = 7;
        for &mc in &[m3, m4, m5] {
            let x = f[mc as usize];
            if x / 3 == nst && x != n6 {
                at[j] = x;
                j += 1;
            }
        }
        debug_assert_eq!(j, 9, "two of f(M) in N");
        at
    }

    /// Row 1 under the column order `at` (source column at each target
    /// column); a candidate when it ties with the best so far.
    #[inline]
    fn leaf(s: &mut Search, pair: &Pair, at: [u8; 9]) {
        let mut pos = [0u8; 9];
        for (j, &c) in at.iter().enumerate() {
            pos[c as usize] = j as u8;
        }
        let mut key = 0u64;
        for &c in &at {
            key = key << 4 | (pos[pair.f[c as usize] as usize] + 1) as u64;
        }
        if key > s.best {
            return;
        }
        if key < s.best {
            s.best = key;
            s.out.clear();
        }
        s.out.push(to_cand(s, pair, &at));
    }

    fn to_cand(s: &Search, pair: &Pair, at: &[u8; 9]) -> Cand {
        let row0 = s.g[pair.t as usize][pair.r0 as usize];
        let mut c = Cand {
            t: pair.t,
            next: 10,
            used: 1 << pair.r0 | 1 << pair.r1,
            rows: [0; 9],
            stacks: [0; 3],
            masks: [0; 3],
            label: [0; 10],
        };
        c.rows[0] = pair.r0;
        c.rows[1] = pair.r1;
        for p in 0..3 {
            c.stacks[p] = at[3 * p] / 3;
            // PERM is in lexicographic order: index = 2 * first + (second >
            // third).
            let o = [at[3 * p] % 3, at[3 * p + 1] % 3, at[3 * p + 2] % 3];
            let i = 2 * o[0] + (o[1] > o[2]) as u8;
            debug_assert_eq!(PERM[i as usize], o);
            c.masks[p] = 1 << i;
        }
        for j in 0..9 {
            c.label[row0[at[j] as usize] as usize] = j as u8 + 1;
        }
        c
    }
}

/// A full relabelling from the labels given so far: the digits never seen
/// take the unused labels in increasing order.
fn complete_labels(label: &[u8; 10], n: usize) -> [u8; 10] {
    let mut out = *label;
    let mut used = 0u16;
    for &o in &out[1..=n] {
        used |= 1 << o;
    }
    let mut next = 1;
    for o in out[1..=n].iter_mut() {
        if *o == 0 {
            while used & (1 << next) != 0 {
                next += 1;
            }
            *o = next;
            used |= 1 << next;
        }
    }
    out[0] = 0;
    out
}

/// Exact forms of the small grids by trying every transform.
mod small {
    use super::{complete_labels, Canonical, Form, Transform};
    use crate::solver::Boxes;

    /// Every order of `0..n` as blocks of `size`: blocks permuted, then
    /// the members of each block permuted.
    fn block_perms(blocks: usize, size: usize) -> Vec<Vec<u8>> {
        fn perms(n: usize) -> Vec<Vec<usize>> {
            if n == 0 {
                return vec![vec![]];
            }
            let mut out = vec![];
            for p in perms(n - 1) {
                for i in 0..=p.len() {
                    let mut q = p.clone();
                    q.insert(i, n - 1);
                    out.push(q);
                }
            }
            out
        }
        let mut out: Vec<Vec<u8>> = vec![vec![]];
        let outer = perms(blocks);
        let inner = perms(size);
        for bo in &outer {
            let mut acc: Vec<Vec<u8>> = vec![vec![]];
            for &b in bo {
                let mut next = vec![];
                for a in &acc {
                    for q in &inner {
                        let mut v = a.clone();
                        v.extend(q.iter().map(|&i| (b * size + i) as u8));
                        next.push(v);
                    }
                }
                acc = next;
            }
            out.extend(acc);
        }
        out.retain(|v| v.len() == blocks * size);
        out
    }

    pub(super) fn canon(boxes: Boxes, cells: &[u8], form: Form) -> Canonical {
        let n = boxes.side();
        let (br, bc) = (boxes.rows(), boxes.cols());
        // Bands are br rows tall (n / br of them), stacks bc columns wide.
        let rows = block_perms(n / br, br);
        let cols = block_perms(n / bc, bc);
        let ts: &[bool] = if br == bc { &[false, true] } else { &[false] };
        let key = |v: &[u8]| -> Vec<u8> {
            match form {
                Form::String => v.to_vec(),
                Form::Pattern => v
                    .iter()
                    .map(|&x| (x != 0) as u8)
                    .chain(v.iter().copied())
                    .collect(),
            }
        };
        let mut best: Option<(Vec<u8>, Transform, Vec<u8>)> = None;
        let mut count = 0u64;
        let mut img = vec![0u8; n * n];
        for &t in ts {
            for r in &rows {
                for c in &cols {
                    let mut tr = Transform::identity(n);
                    tr.transpose = t;
                    tr.rows[..n].copy_from_slice(r);
                    tr.cols[..n].copy_from_slice(c);
                    // Labels by first appearance in the image.
                    let mut label = [0u8; 10];
                    let mut next = 1;
                    for &ri in r.iter() {
                        for &cj in c.iter() {
                            let (a, b) = (ri as usize, cj as usize);
                            let x = if t {
                                cells[b * n + a]
                            } else {
                                cells[a * n + b]
                            };
                            if x != 0 && label[x as usize] == 0 {
                                label[x as usize] = next;
                                next += 1;
                            }
                        }
                    }
                    tr.labels = complete_labels(&label, n);
                    tr.apply(cells, &mut img);
                    let k = key(&img);
                    match &best {
                        Some((bk, _, _)) if k > *bk => {}
                        Some((bk, _, _)) if k == *bk => count += 1,
                        _ => {
                            best = Some((k, tr, img.clone()));
                            count = 1;
                        }
                    }
                }
            }
        }
        let (_, transform, img) = best.expect("the group is not empty");
        let mut out = [0u8; 81];
        out[..n * n].copy_from_slice(&img);
        Canonical {
            side: n as u8,
            cells: out,
            transform,
            automorphisms: count,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{full_grid, Rng};

    /// The 1296 row orders of a 9x9 grid that keep bands: band order, then
    /// the order inside each band.
    fn row_orders() -> Vec<[u8; 9]> {
        let p3: [[u8; 3]; 6] = PERM;
        let mut out = vec![];
        for b in &p3 {
            for r0 in &p3 {
                for r1 in &p3 {
                    for r2 in &p3 {
                        let inner = [r0, r1, r2];
                        let mut v = [0u8; 9];
                        for i in 0..3 {
                            for j in 0..3 {
                                v[3 * i + j] = 3 * b[i] + inner[i][j];
                            }
                        }
                        out.push(v);
                    }
                }
            }
        }
        out
    }

    struct Brute {
        string: [u8; 81],
        string_count: u64,
        pattern: [u8; 81],
        pattern_count: u64,
    }

    /// The naive reference: every one of the 3,359,232 geometric transforms,
    /// digits relabelled by first appearance, the smallest image kept by
    /// string order and by (pattern, string) order.
    fn brute(cells: &[u8; 81]) -> Brute {
        let orders = row_orders();
        let mut b = Brute {
            string: [u8::MAX; 81],
            string_count: 0,
            pattern: [u8::MAX; 81],
            pattern_count: 0,
        };
        let mut best_pat = [u8::MAX; 81];
        for t in 0..2 {
            for rows in &orders {
                for cols in &orders {
                    let mut img = [0u8; 81];
                    let mut label = [0u8; 10];
                    let mut next = 1;
                    let mut pat = [0u8; 81];
                    for i in 0..9 {
                        for j in 0..9 {
                            let (r, c) = (rows[i] as usize, cols[j] as usize);
                            let x = if t == 1 {
                                cells[c * 9 + r]
                            } else {
                                cells[r * 9 + c]
                            };
                            if x != 0 && label[x as usize] == 0 {
                                label[x as usize] = next;
                                next += 1;
                            }
                            img[i * 9 + j] = label[x as usize];
                            pat[i * 9 + j] = (x != 0) as u8;
                        }
                    }
                    match img.cmp(&b.string) {
                        std::cmp::Ordering::Less => {
                            b.string = img;
                            b.string_count = 1;
                        }
                        std::cmp::Ordering::Equal => b.string_count += 1,
                        _ => {}
                    }
                    match (pat, img).cmp(&(best_pat, b.pattern)) {
                        std::cmp::Ordering::Less => {
                            best_pat = pat;
                            b.pattern = img;
                            b.pattern_count = 1;
                        }
                        std::cmp::Ordering::Equal => b.pattern_count += 1,
                        _ => {}
                    }
                }
            }
        }
        b
    }

    fn parse(line: &str) -> [u8; 81] {
        let mut c = [0u8; 81];
        for (i, ch) in line.bytes().take(81).enumerate() {
            c[i] = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
        }
        c
    }

    fn show(c: &[u8]) -> String {
        c.iter()
            .map(|&x| if x == 0 { '.' } else { (b'0' + x) as char })
            .collect()
    }

    fn data(name: &str) -> Vec<[u8; 81]> {
        let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .map(parse)
            .collect()
    }

    /// A uniformly random geometric transform with a random relabelling.
    fn random_transform(rng: &mut Rng) -> Transform {
        let mut t = Transform::identity(9);
        t.transpose = rng.below(2) == 1;
        let shuffle = |rng: &mut Rng, v: &mut [u8]| {
            for i in (1..v.len()).rev() {
                v.swap(i, rng.below(i + 1));
            }
        };
        for v in [&mut t.rows, &mut t.cols] {
            let mut bands = [0u8, 1, 2];
            shuffle(rng, &mut bands);
            let mut out = [0u8; 9];
            for (i, &b) in bands.iter().enumerate() {
                let mut inner = [0u8, 1, 2];
                shuffle(rng, &mut inner);
                for j in 0..3 {
                    out[3 * i + j] = 3 * b + inner[j];
                }
            }
            *v = out;
        }
        shuffle(rng, &mut t.labels[1..=9]);
        t
    }

    fn apply9(t: &Transform, c: &[u8; 81]) -> [u8; 81] {
        let mut o = [0u8; 81];
        t.apply(c, &mut o);
        o
    }

    /// Puzzles with known character: clashing givens, an empty grid, a
    /// symmetric one.
    fn odd_puzzles() -> Vec<[u8; 81]> {
        let mut v = vec![[0u8; 81]];
        let mut clash = data("sample.txt")[5];
        clash[0] = 7;
        clash[1] = 7;
        clash[9] = 7;
        v.push(clash);
        // Twice the same digit in one triplet of a row, the rest empty.
        let mut row = [0u8; 81];
        row[3] = 4;
        row[4] = 4;
        row[40] = 2;
        v.push(row);
        // A Latin square whose boxes clash (row r reads r+1, r+2, ...):
        // not a valid grid, so it must not take the full-grid search, which
        // relies on the boxes.
        let mut cyclic = [0u8; 81];
        for (i, x) in cyclic.iter_mut().enumerate() {
            *x = ((i / 9 + i % 9) % 9) as u8 + 1;
        }
        v.push(cyclic);
        v
    }

    fn check_against_brute(cells: &[u8; 81]) {
        let b = brute(cells);
        for (form, want, count) in [
            (Form::String, b.string, b.string_count),
            (Form::Pattern, b.pattern, b.pattern_count),
        ] {
            let got = canon9(cells, form);
            assert_eq!(
                show(got.cells()),
                show(&want),
                "{form:?} form of {}",
                show(cells)
            );
            assert_eq!(
                got.automorphisms,
                count,
                "{form:?} automorphisms of {}",
                show(cells)
            );
            assert_eq!(apply9(&got.transform, cells), want);
        }
        // The automorphism group does not depend on the order used.
        assert_eq!(b.string_count, b.pattern_count);
    }

    fn brute_sample(n_puzzles: usize, n_grids: usize) -> Vec<[u8; 81]> {
        let mut v = odd_puzzles();
        for set in [
            "17_clue_sub.txt",
            "magictour_top1465.txt",
            "forum_hardest_11plus_sub.txt",
            "serg_benchmark_sub.txt",
        ] {
            let d = data(set);
            let step = d.len() / n_puzzles.max(1);
            v.extend(d.iter().step_by(step.max(1)).take(n_puzzles));
        }
        let mut rng = Rng::for_puzzle(31, 0, 0);
        for _ in 0..n_grids {
            let g = full_grid(Boxes::NINE, &mut rng);
            v.push(g.try_into().unwrap());
        }
        v.push(parse(MOST_CANONICAL));
        v
    }

    const MOST_CANONICAL: &str =
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

    #[test]
    fn agrees_with_brute_force() {
        // About 0.4 s per record at opt-level 3 on one core.
        for c in brute_sample(1, 1) {
            check_against_brute(&c);
        }
    }

    /// The bigger run: `cargo test --lib canon::tests::brute_force_many --
    /// --ignored` (about three minutes on one core).
    #[test]
    #[ignore]
    fn brute_force_many() {
        for c in brute_sample(60, 40) {
            check_against_brute(&c);
        }
    }

    #[test]
    fn most_canonical_grid_is_its_own_form() {
        let g = parse(MOST_CANONICAL);
        for form in [Form::String, Form::Pattern] {
            let c = canon9(&g, form);
            assert_eq!(show(c.cells()), MOST_CANONICAL);
        }
    }

    #[test]
    fn random_transforms_give_one_form() {
        random_transforms(12, 3);
    }

    /// 1,000 transforms of each of 200 records (160 puzzles of the four
    /// sets, the odd ones, 10 grids): `cargo test --lib
    /// canon::tests::random_transforms_many -- --ignored`.
    #[test]
    #[ignore]
    fn random_transforms_many() {
        random_transforms(40, 10);
    }

    fn random_transforms(per_set: usize, grids: usize) {
        let mut rng = Rng::for_puzzle(31, 1, 0);
        let mut records = odd_puzzles();
        for set in [
            "17_clue_sub.txt",
            "magictour_top1465.txt",
            "forum_hardest_11plus_sub.txt",
            "serg_benchmark_sub.txt",
        ] {
            records.extend(data(set).into_iter().step_by(97).take(per_set));
        }
        for _ in 0..grids {
            records.push(full_grid(Boxes::NINE, &mut rng).try_into().unwrap());
        }
        for (i, r) in records.iter().enumerate() {
            let tries = if i < records.len() - grids { 1000 } else { 100 };
            for form in [Form::String, Form::Pattern] {
                let want = canon9(r, form);
                for _ in 0..tries {
                    let t = random_transform(&mut rng);
                    let x = apply9(&t, r);
                    let got = canon9(&x, form);
                    assert_eq!(got.cells(), want.cells(), "{form:?} of {} via {t}", show(r));
                    assert_eq!(got.automorphisms, want.automorphisms);
                    // The transform maps the record to its form and back.
                    assert_eq!(apply9(&got.transform, &x)[..], *got.cells());
                    assert_eq!(
                        apply9(&got.transform.inverse(), &apply9(&got.transform, &x)),
                        x
                    );
                }
            }
        }
    }

    #[test]
    fn pattern_form_matches_patminlex() {
        let ours = data("sample.txt");
        let theirs = data("canon_pattern_sample.txt");
        assert_eq!(ours.len(), theirs.len());
        for (p, want) in ours.iter().zip(&theirs) {
            assert_eq!(show(canon9(p, Form::Pattern).cells()), show(want));
        }
    }

    #[test]
    fn transform_text_round_trips_and_composes() {
        let mut rng = Rng::for_puzzle(31, 2, 0);
        let p = data("sample.txt")[17];
        for _ in 0..200 {
            let a = random_transform(&mut rng);
            let b = random_transform(&mut rng);
            assert_eq!(Transform::parse(&a.to_string()).unwrap(), a);
            assert_eq!(apply9(&b.after(&a), &p), apply9(&b, &apply9(&a, &p)));
            assert_eq!(apply9(&a.inverse(), &apply9(&a, &p)), p);
        }
        assert_eq!(
            Transform::identity(9).to_string(),
            "N/012345678/012345678/123456789"
        );
        for bad in [
            "",
            "X/0/0/1",
            "N/012345678/012345678/12345678",
            "N/012345677/012345678/123456789",
        ] {
            assert!(Transform::parse(bad).is_err(), "{bad}");
        }
    }

    /// Brute force of the small sizes, written independently of `small`:
    /// every permutation of rows and columns (and transposition), kept when
    /// it is a symmetry (maps every box onto a box), relabelled by first
    /// appearance.
    fn brute_small(boxes: Boxes, cells: &[u8], pattern: bool) -> (Vec<u8>, u64) {
        let n = boxes.side();
        fn perms(n: usize) -> Vec<Vec<usize>> {
            if n == 1 {
                return vec![vec![0]];
            }
            let mut out = vec![];
            for p in perms(n - 1) {
                for i in 0..n {
                    let mut q = p.clone();
                    q.insert(i, n - 1);
                    out.push(q);
                }
            }
            out
        }
        // A row order is allowed when it keeps every band together.
        let keeps =
            |p: &[usize], size: usize| (0..n).all(|i| p[i] / size == p[i - i % size] / size);
        let all = perms(n);
        let rows: Vec<_> = all.iter().filter(|p| keeps(p, boxes.rows())).collect();
        let cols: Vec<_> = all.iter().filter(|p| keeps(p, boxes.cols())).collect();
        let mut best: Option<(Vec<u8>, Vec<u8>)> = None;
        let mut count = 0;
        for t in [false, true] {
            if t && !boxes.is_square() {
                continue;
            }
            for r in &rows {
                for c in &cols {
                    let mut label = [0u8; 10];
                    let mut next = 1;
                    let mut img = vec![0u8; n * n];
                    for i in 0..n {
                        for j in 0..n {
                            let x = if t {
                                cells[c[j] * n + r[i]]
                            } else {
                                cells[r[i] * n + c[j]]
                            };
                            if x != 0 && label[x as usize] == 0 {
                                label[x as usize] = next;
                                next += 1;
                            }
                            img[i * n + j] = label[x as usize];
                        }
                    }
                    let pat: Vec<u8> = if pattern {
                        img.iter().map(|&x| (x != 0) as u8).collect()
                    } else {
                        vec![]
                    };
                    let k = (pat, img);
                    match &best {
                        Some(b) if k > *b => {}
                        Some(b) if k == *b => count += 1,
                        _ => {
                            best = Some(k);
                            count = 1;
                        }
                    }
                }
            }
        }
        (best.unwrap().1, count)
    }

    #[test]
    fn small_sizes_agree_with_brute_force() {
        let mut rng = Rng::for_puzzle(31, 3, 0);
        for boxes in [Boxes::square(2), Boxes::new(2, 3).unwrap()] {
            let n = boxes.cells();
            for k in 0..30 {
                let grid = full_grid(boxes, &mut rng);
                let mut cells = grid.clone();
                // Blank a random share of the cells (none for the first).
                for c in cells.iter_mut() {
                    if k > 0 && rng.below(10) < k % 10 {
                        *c = 0;
                    }
                }
                for (form, pattern) in [(Form::String, false), (Form::Pattern, true)] {
                    let got = canonicalize(boxes, &cells, form).unwrap();
                    let (want, count) = brute_small(boxes, &cells, pattern);
                    assert_eq!(got.cells(), &want[..], "{boxes} {cells:?}");
                    assert_eq!(got.automorphisms, count);
                    let mut img = vec![0u8; n];
                    got.transform.apply(&cells, &mut img);
                    assert_eq!(img, want);
                }
            }
        }
    }

    #[test]
    fn other_sizes_are_refused() {
        let b = Boxes::square(4);
        assert_eq!(
            canonicalize(b, &[0u8; 256], Form::String),
            Err(CanonError::Size(b))
        );
        assert!(matches!(
            canonicalize(Boxes::NINE, &[0u8; 80], Form::String),
            Err(CanonError::Length { .. })
        ));
        let mut c = [0u8; 81];
        c[5] = 10;
        assert_eq!(
            canonicalize(Boxes::NINE, &c, Form::String),
            Err(CanonError::Cell {
                index: 5,
                value: 10
            })
        );
    }
}
