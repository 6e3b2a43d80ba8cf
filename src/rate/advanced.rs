//! The non-trivial implications serate's nested chaining adds to a forcing
//! net when its queues run dry (`Chaining.getAdvancedPotentials`), for
//! `Dynamic Forcing Chains (+)` and the nested levels of the forcing nets
//! (`dynamic.rs`, which runs the chains nested in them through `nested.rs`).
//!
//! On the net's working grid (the puzzle's candidates minus every "off" the
//! net has served) serate runs whole techniques, in this order, and takes
//! every hint of the first one that has a hint with rule parents:
//! pointing and claiming (`Locking(false)`), hidden pairs, naked pairs,
//! X-Wings (the rules of its default "vanilla" grid; its variants branch
//! uses generalised ones instead). A hint's rule parents are the
//! candidates the net removed that the pattern relies on (serate's
//! `getRuleParents` per hint class); each candidate the hint removes becomes
//! an "off" of the net with those parents. The order of the removals is
//! serate's, including the iteration order of its `HashMap<Cell, _>`
//! (see [`java_order`]), because the first parent set a candidate gets is
//! the one its chains are counted with.

use super::grid::{bits, box_of, col_of, region, row_of, Grid, REGION};
use super::singles::SCAN;
use super::subsets::combos;

/// Removals found on the working grid: `(cell, digit 0-8, parents start,
/// parents end, nested chain)`, the parents being `(cell, digit 0-8)`
/// "off"s in [`Found::parents`], the chain an id of the
/// nested chains' registry (`nested::Registry`; `u32::MAX` for a pattern
/// that is no chain).
#[derive(Default)]
pub(crate) struct Found {
    pub removals: Vec<(u8, u8, u32, u32, u32)>,
    pub parents: Vec<(u8, u8)>,
}

impl Found {
    pub fn clear(&mut self) {
        self.removals.clear();
        self.parents.clear();
    }

    /// One hint: its rule parents, then its removals (`(cell, digit mask)`
    /// per cell, in the order serate's map iterates them), each naming
    /// `chain` (a nested chain's id, or `u32::MAX`). A hint without rule
    /// parents is skipped, as serate skips it.
    pub fn add(
        &mut self,
        parents: impl IntoIterator<Item = (u8, u8)>,
        removals: &[(u8, u16)],
        chain: u32,
    ) {
        let start = self.parents.len() as u32;
        self.parents.extend(parents);
        let end = self.parents.len() as u32;
        if start == end {
            return;
        }
        for &(c, m) in removals {
            for d in bits(m as u128) {
                self.removals.push((c, d as u8, start, end, chain));
            }
        }
    }

    /// [`Found::add`] for a pattern (no nested chain).
    fn hint(&mut self, parents: impl Iterator<Item = (usize, usize)>, removals: &[(u8, u16)]) {
        self.add(parents.map(|(c, d)| (c as u8, d as u8)), removals, u32::MAX);
    }
}

/// How a chain's "on" follows from its parents (serate's `Potential.Cause`
/// for the links whose rule parents count): the cell's last digit, or the
/// last place of its digit in its box, row, column. 0 is none (an
/// assumption, an "off").
pub(crate) const CELL: u8 = 1;
pub(crate) const BOX: u8 = 2;
pub(crate) const ROW: u8 = 3;
pub(crate) const COL: u8 = 4;

/// serate's rule parents of one link of a chain nested in a net started on
/// `src` whose working grid is `cur` (`ChainingHint.collectRuleParents`):
/// what the net removed in the link's cell (cause [`CELL`]), or of its
/// digit in the link's region; added to `out` once each.
pub(crate) fn link_parents(
    src: &Grid,
    cur: &Grid,
    cell: usize,
    digit: usize,
    cause: u8,
    out: &mut Vec<(u8, u8)>,
) {
    let mut add = |pc: usize, pd: usize| {
        if !out.contains(&(pc as u8, pd as u8)) {
            out.push((pc as u8, pd as u8));
        }
    };
    match cause {
        0 => {}
        CELL => {
            for v in bits((src.cells[cell] & !cur.cells[cell]) as u128) {
                add(cell, v);
            }
        }
        _ => {
            let r = match cause {
                BOX => REGION[box_of(cell)],
                ROW => REGION[9 + row_of(cell)],
                _ => REGION[18 + col_of(cell)],
            };
            for rc in bits(src.digits[digit] & r & !cur.digits[digit]) {
                add(rc, digit);
            }
        }
    }
}

/// Reorders `(cell, _)` entries given in insertion order as Java's
/// `HashMap<Cell, _>` iterates them: `Cell.hashCode` is the cell index, the
/// table has 16 buckets grown by doubling while more than 3/4 full, and a
/// bucket keeps insertion order.
pub(crate) fn java_order<T>(entries: &mut [(u8, T)]) {
    let mut n = 16;
    while entries.len() * 4 > n * 3 {
        n *= 2;
    }
    entries.sort_by_key(|e| e.0 as usize % n);
}

/// serate's advanced implications on `cur` (the working grid) for a net
/// started on `src`: the removals of the first of the four techniques
/// with a hint that has rule parents. (From level 2 on, chains come after
/// them: `dynamic.rs` runs those.)
pub(crate) fn potentials(src: &Grid, cur: &Grid, out: &mut Found) {
    out.clear();
    let mut rem: Vec<(u8, u16)> = Vec::with_capacity(16);
    locking(src, cur, out, &mut rem);
    if !out.removals.is_empty() {
        return;
    }
    hidden_pairs(src, cur, out, &mut rem);
    if !out.removals.is_empty() {
        return;
    }
    naked_pairs(src, cur, out, &mut rem);
    if !out.removals.is_empty() {
        return;
    }
    x_wings(src, cur, out, &mut rem);
}

/// Adds `(cell, digit)` to the removal map kept in insertion order.
fn put(rem: &mut Vec<(u8, u16)>, c: usize, d: usize) {
    match rem.iter_mut().find(|e| e.0 as usize == c) {
        Some(e) => e.1 |= 1 << d,
        None => rem.push((c as u8, 1 << d)),
    }
}

/// `Locking(false)`: a digit's places in a region all inside one crossing
/// region (box with column, box with row, column with box, row with box,
/// serate's order); the crossing region loses it elsewhere. Parents: the
/// first region's places of the digit the net removed outside the second.
fn locking(src: &Grid, cur: &Grid, out: &mut Found, rem: &mut Vec<(u8, u16)>) {
    for (t1, t2) in [(0usize, 2usize), (0, 1), (2, 0), (1, 0)] {
        for d in 0..9 {
            for i1 in 0..9 {
                let r1 = REGION[region(t1, i1)];
                let pos = cur.digits[d] & r1;
                if pos.count_ones() < 2 {
                    continue;
                }
                // Only the crossing region of the first place can hold them all.
                let first = pos.trailing_zeros() as usize;
                let i2 = match t2 {
                    0 => box_of(first),
                    1 => row_of(first),
                    _ => col_of(first),
                };
                let r2 = REGION[region(t2, i2)];
                if pos & !r2 != 0 {
                    continue;
                }
                let hit = cur.digits[d] & r2 & !r1;
                if hit == 0 {
                    continue;
                }
                rem.clear();
                for c in bits(hit) {
                    put(rem, c, d);
                }
                java_order(rem);
                let gone = src.digits[d] & r1 & !cur.digits[d] & !r2;
                out.hint(bits(gone).map(|c| (c, d)), rem);
            }
        }
    }
}

/// `HiddenSet(2, false)`: two digits with the same two places in a region
/// (boxes, columns, rows); the places lose their other digits. Parents:
/// the pair's digits the net removed elsewhere in the region.
fn hidden_pairs(src: &Grid, cur: &Grid, out: &mut Found, rem: &mut Vec<(u8, u16)>) {
    for t in SCAN {
        for i in 0..9 {
            let reg = REGION[region(t, i)];
            if (cur.empty & reg).count_ones() <= 4 {
                continue;
            }
            // A pair is two digits with the same two places: only digits
            // with exactly two places can be one (each needs two, and
            // their union two). In `combos(2)`'s order: by the higher
            // digit, then the lower.
            let mut two = [(0usize, 0u128); 9];
            let mut n = 0;
            for d in 0..9 {
                let p = cur.digits[d] & reg;
                if p.count_ones() == 2 {
                    two[n] = (d, p);
                    n += 1;
                }
            }
            for bi in 1..n {
                for ai in 0..bi {
                    let ((a, union), (b, pb)) = (two[ai], two[bi]);
                    if union != pb {
                        continue;
                    }
                    let m = (1u16 << a) | (1 << b);
                    rem.clear();
                    for c in bits(union) {
                        let other = cur.cells[c] & !m;
                        if other != 0 {
                            rem.push((c as u8, other));
                        }
                    }
                    if rem.is_empty() {
                        continue;
                    }
                    java_order(rem);
                    let parents = bits(reg & !union).flat_map(|c| {
                        [a, b]
                            .into_iter()
                            .filter(move |&d| src.cells[c] >> d & 1 != 0)
                            .map(move |d| (c, d))
                    });
                    out.hint(parents, rem);
                }
            }
        }
    }
}

/// `NakedSet(2)`: two cells of a region holding the same two digits; the
/// region's other cells lose them. Parents: the pair cells' other digits
/// the net removed.
fn naked_pairs(src: &Grid, cur: &Grid, out: &mut Found, rem: &mut Vec<(u8, u16)>) {
    for t in SCAN {
        for i in 0..9 {
            let reg = REGION[region(t, i)];
            if (cur.empty & reg).count_ones() < 4 {
                continue;
            }
            // Only cells with exactly two digits can make a pair; in
            // `combos(2)`'s order over the region's cells: by the later
            // cell, then the earlier.
            let mut two = [0usize; 9];
            let mut n = 0;
            for c in bits(reg) {
                if cur.cells[c].count_ones() == 2 {
                    two[n] = c;
                    n += 1;
                }
            }
            for bi in 1..n {
                for ai in 0..bi {
                    let (ca, cb) = (two[ai], two[bi]);
                    let union = cur.cells[ca];
                    if union != cur.cells[cb] {
                        continue;
                    }
                    rem.clear();
                    for c in bits(reg & !(1u128 << ca) & !(1u128 << cb)) {
                        let m = cur.cells[c] & union;
                        if m != 0 {
                            rem.push((c as u8, m));
                        }
                    }
                    if rem.is_empty() {
                        continue;
                    }
                    java_order(rem);
                    let parents = [ca, cb]
                        .into_iter()
                        .flat_map(|c| bits((src.cells[c] & !union) as u128).map(move |d| (c, d)));
                    out.hint(parents, rem);
                }
            }
        }
    }
}

/// `Fisherman(2)`: a digit in two columns (then two rows) confined to the
/// same two rows (columns); the cover lines lose it elsewhere. Parents:
/// the base lines' places of the digit the net removed outside the cover
/// lines.
fn x_wings(src: &Grid, cur: &Grid, out: &mut Found, rem: &mut Vec<(u8, u16)>) {
    let mut placed = [0u32; 9];
    for &v in cur.values.iter() {
        if v != 0 {
            placed[v as usize - 1] += 1;
        }
    }
    for (t1, t2) in [(2usize, 1usize), (1, 2)] {
        // A base line needs two places of the digit, and the union of the
        // two lines' places two indices across: so each line has exactly
        // two places, at the same indices. Per digit and line of type t1,
        // those indices (a row's columns), or 0.
        let mut at = [[0u16; 9]; 9];
        let mut count = [[0u8; 9]; 9];
        for (d, &n) in placed.iter().enumerate() {
            if n + 4 > 9 {
                continue;
            }
            for c in bits(cur.digits[d]) {
                let (line, along) = if t1 == 1 {
                    (row_of(c), col_of(c))
                } else {
                    (col_of(c), row_of(c))
                };
                at[d][line] |= 1 << along;
                count[d][line] += 1;
            }
            for line in 0..9 {
                if count[d][line] != 2 {
                    at[d][line] = 0;
                }
            }
        }
        for &m in combos(2) {
            let (i, j) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
            let (li, lj) = (REGION[region(t1, i)], REGION[region(t1, j)]);
            for (d, at) in at.iter().enumerate() {
                let idx = at[i];
                if idx == 0 || idx != at[j] {
                    continue;
                }
                let mut cover = 0u128;
                rem.clear();
                for k in bits(idx as u128) {
                    let line = REGION[region(t2, k)];
                    cover |= line;
                    for c in bits(cur.digits[d] & line & !(li | lj)) {
                        put(rem, c, d);
                    }
                }
                if rem.is_empty() {
                    continue;
                }
                java_order(rem);
                let parents = [li, lj].into_iter().flat_map(|l| {
                    bits(src.digits[d] & l & !cur.digits[d] & !cover).map(move |c| (c, d))
                });
                out.hint(parents, rem);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_order_follows_hash_buckets() {
        // 3 entries, 16 buckets: 17 (bucket 1) comes before 5 and 20 (4).
        let mut e = vec![(5u8, ()), (17, ()), (20, ())];
        java_order(&mut e);
        assert_eq!(e.iter().map(|e| e.0).collect::<Vec<_>>(), [17, 20, 5]);
        // One bucket keeps insertion order.
        let mut e = vec![(33u8, ()), (1, ())];
        java_order(&mut e);
        assert_eq!(e.iter().map(|e| e.0).collect::<Vec<_>>(), [33, 1]);
        // 13 entries grow the table to 32 buckets: 32 (bucket 0) first.
        let mut e: Vec<(u8, ())> = (20..33).map(|c| (c, ())).collect();
        java_order(&mut e);
        let order: Vec<u8> = e.iter().map(|e| e.0).collect();
        assert_eq!(order[0], 32);
        assert_eq!(&order[1..], (20..32).collect::<Vec<u8>>());
    }
}
