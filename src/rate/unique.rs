//! Uniqueness tests on a candidate grid, as serate (default options, with
//! lkSudoku's fix to unique rectangles and loops on) finds and rates them:
//! Unique Rectangles and Loops types 1-4 (4.5-5.0 by loop length and type,
//! see [`loop_rating`]).
//!
//! serate collects every hint of the technique, sorts them by rating (its
//! `double`), then by type, keeping the order it found them in among equals,
//! and applies the first. This module builds the same hints in the same
//! order (start cells in row-major order, each loop found by the same
//! depth-first search) and keeps the same one; ratings are computed in
//! `f64` exactly as serate adds them, so ties and near-ties sort alike.

use super::grid::{bits, box_of, col_of, region, row_of, Grid, PEERS, REGION};
use super::{Hint, Technique};

/// The region (0-26, as [`REGION`]) of serate's type `t` (0 block, 1 row,
/// 2 column) that holds cell `c`.
fn region_of(t: usize, c: usize) -> usize {
    match t {
        0 => region(0, box_of(c)),
        1 => region(1, row_of(c)),
        _ => region(2, col_of(c)),
    }
}

/// The cells of a region mask, lowest first (serate's order within it).
fn cells_of(reg: u128) -> Vec<usize> {
    bits(reg).collect()
}

/// The `k`-of-`n` combinations as bit masks in increasing numeric order,
/// as serate's `Permutations(k, n)` yields them (none when `n` is 0).
fn permutations(k: u32, n: u32) -> impl Iterator<Item = u32> {
    let top = if n == 0 { 0 } else { 1u32 << n };
    (0..top).filter(move |m| m.count_ones() == k)
}

/// serate's `UniqueLoopHint.getDifficulty` (default rating): 4.5 for a
/// rectangle, 4.6 for a loop of 6, 4.7 of 8, 5.0 of 10 or more.
fn loop_rating(len: usize) -> f64 {
    let mut r = 4.5;
    if len >= 10 {
        r += 0.3;
    }
    if len >= 8 {
        r += 0.2;
    } else if len >= 6 {
        r += 0.1;
    }
    r
}

/// A hint found, before sorting.
struct Found {
    rating: f64,
    kind: u8,
    elim: [u128; 9],
    cells: Vec<usize>,
}

impl Found {
    fn worth(&self) -> bool {
        self.elim.iter().any(|&m| m != 0)
    }
}

/// The depth-first search of serate's `checkForLoops` (lkSudoku's branch):
/// every closed walk from `path[0]` through cells holding both loop digits,
/// consecutive cells sharing a region of another type than the step before.
struct Search<'a> {
    g: &'a Grid,
    both: u16,
    path: Vec<usize>,
    on_path: u128,
    loops: Vec<Vec<usize>>,
}

impl Search<'_> {
    fn walk(&mut self, cell: usize, allowed_ex: i32, ex: u16, last: usize) {
        self.path.push(cell);
        self.on_path |= 1 << cell;
        for t in 0..3 {
            if t == last {
                continue;
            }
            for next in bits(REGION[region_of(t, cell)]) {
                if next == self.path[0] && self.path.len() >= 4 {
                    self.loops.push(self.path.clone());
                } else if self.on_path >> next & 1 == 0 {
                    let p = self.g.cells[next];
                    if p & self.both == self.both {
                        let ex = (ex | p) & !self.both;
                        let n = p.count_ones();
                        if n == 2 || ex.count_ones() == 1 || allowed_ex > 0 {
                            self.walk(next, allowed_ex - i32::from(n > 2), ex, t);
                        }
                    }
                }
            }
        }
        self.path.pop();
        self.on_path &= !(1 << cell);
    }
}

/// serate's `isValidLoop`: each region is visited by cells of both
/// parities along the loop, once each, or not at all.
fn valid_loop(lp: &[usize]) -> bool {
    let (mut odd, mut even) = (0u32, 0u32);
    for (k, &c) in lp.iter().enumerate() {
        let seen = if k % 2 == 1 { &mut odd } else { &mut even };
        for t in 0..3 {
            let r = 1u32 << region_of(t, c);
            if *seen & r != 0 {
                return false;
            }
            *seen |= r;
        }
    }
    odd == even
}

/// The first hint serate's `UniqueLoops` would apply, if any.
pub(crate) fn unique_loop(g: &Grid) -> Option<Hint> {
    let mut found: Vec<Found> = Vec::new();
    for start in bits(g.empty) {
        let p = g.cells[start];
        if p.count_ones() != 2 {
            continue;
        }
        let mut s = Search {
            g,
            both: p,
            path: Vec::new(),
            on_path: 0,
            loops: Vec::new(),
        };
        s.walk(start, 2, 0, usize::MAX);
        for lp in s.loops {
            if valid_loop(&lp) {
                loop_hints(g, &lp, p, &mut found);
            }
        }
    }
    // A stable sort, as Java's `Collections.sort`.
    found.sort_by(|a, b| {
        a.rating
            .partial_cmp(&b.rating)
            .expect("ratings are finite")
            .then(a.kind.cmp(&b.kind))
    });
    let f = found.into_iter().next()?;
    let mut h = Hint::new(Technique::UniqueLoop, (f.rating * 10.0).round() as u8);
    h.elim = f.elim;
    h.cells = f.cells.iter().map(|&c| c as u8).collect();
    Some(h)
}

/// The hints of one valid loop on digits `both`, in serate's order: type 1,
/// 2 or 3 (several), then type 4.
fn loop_hints(g: &Grid, lp: &[usize], both: u16, out: &mut Vec<Found>) {
    let extra: Vec<usize> = lp
        .iter()
        .copied()
        .filter(|&c| g.cells[c].count_ones() > 2)
        .collect();
    let base = loop_rating(lp.len());
    let mut push = |f: Found| {
        if f.worth() {
            out.push(f);
        }
    };
    match extra.len() {
        1 => {
            // Type 1: the only cell with more candidates loses both digits.
            let mut elim = [0u128; 9];
            for d in bits(both as u128) {
                elim[d] = 1 << extra[0];
            }
            push(Found {
                rating: base,
                kind: 1,
                elim,
                cells: lp.to_vec(),
            });
        }
        0 => {}
        n => {
            let others = (g.cells[extra[0]] | g.cells[extra[1]]) & !both;
            if n > 2 || others.count_ones() == 1 {
                push(type2(g, lp, &extra, both, base));
            } else if others.count_ones() >= 2 {
                for f in type3(g, lp, extra[0], extra[1], both, base) {
                    push(f);
                }
            }
            if n == 2 {
                if let Some(f) = type4(g, lp, extra[0], extra[1], both, base) {
                    push(f);
                }
            }
        }
    }
}

/// Type 2: the extra cells share one extra digit (that of the first); every
/// cell seeing all of them loses it.
fn type2(g: &Grid, lp: &[usize], extra: &[usize], both: u16, base: f64) -> Found {
    let d = (g.cells[extra[0]] & !both).trailing_zeros() as usize;
    let mut seen = super::grid::ALL;
    let mut set = 0u128;
    for &c in extra {
        seen &= PEERS[c];
        set |= 1 << c;
    }
    let mut elim = [0u128; 9];
    elim[d] = g.digits[d] & seen & !set;
    Found {
        rating: base,
        kind: 2,
        elim,
        cells: lp.to_vec(),
    }
}

/// serate's `CommonTuples.searchCommonTuple`: the union of `sets` when none
/// has fewer than two members and it has `degree` members.
fn common_tuple(sets: &[u16], degree: u32) -> Option<u16> {
    let mut u = 0;
    for &s in sets {
        if s.count_ones() <= 1 {
            return None;
        }
        u |= s;
    }
    (u.count_ones() == degree).then_some(u)
}

/// Type 3: the extra digits of `c1` and `c2` form a naked set with other
/// cells of a region they share (or the loop digits a hidden set with
/// other digits). serate's degrees 2-7, region types block, row, column.
fn type3(g: &Grid, lp: &[usize], c1: usize, c2: usize, both: u16, base: f64) -> Vec<Found> {
    let mut out = Vec::new();
    let extra = (g.cells[c1] | g.cells[c2]) & !both;
    let (v1, v2) = (
        both.trailing_zeros() as usize + 1,
        16 - both.leading_zeros() as usize,
    );
    for degree in 2..=7u32 {
        for t in 0..3 {
            let r = region_of(t, c1);
            if r != region_of(t, c2) {
                continue;
            }
            let reg = REGION[r];
            let rc = cells_of(reg);
            let empty = (g.empty & reg).count_ones();
            let i1 = rc.iter().position(|&c| c == c1).expect("c1 in its region") as u32;
            let i2 = rc.iter().position(|&c| c == c2).expect("c2 in its region") as u32;
            if degree * 2 <= empty && degree >= extra.count_ones() {
                for m in permutations(degree, 9) {
                    if m >> i1 & 1 == 0 || m >> i2 & 1 != 0 {
                        continue;
                    }
                    let mut naked = extra & g.cells[c1] & g.cells[c2];
                    let mut pots = Vec::with_capacity(degree as usize);
                    let mut others = Vec::new();
                    for i in bits(m as u128) {
                        if i as u32 == i1 {
                            pots.push(extra);
                        } else {
                            let p = g.cells[rc[i]];
                            pots.push(p);
                            naked |= p;
                            others.push(rc[i]);
                        }
                    }
                    if naked.count_ones() != degree {
                        continue;
                    }
                    let Some(common) = common_tuple(&pots, degree) else {
                        continue;
                    };
                    // The set's digits leave the region's other cells
                    // (serate's branch for plain Sudoku, `isVLatin`, on by
                    // default: not the cells outside the region that see
                    // every holder).
                    let rest = reg & !mask_of(&others) & !(1u128 << c1 | 1u128 << c2);
                    let mut elim = [0u128; 9];
                    for d in bits(common as u128) {
                        elim[d] = g.digits[d] & rest;
                    }
                    out.push(Found {
                        rating: base + (degree as f64 - 1.0) * 0.1,
                        kind: 3,
                        elim,
                        cells: lp.to_vec(),
                    });
                }
            }
            if degree * 2 < empty {
                let rem: Vec<usize> = (1..=9)
                    .filter(|&v| v != v1 && v != v2 && extra >> (v - 1) & 1 == 0)
                    .collect();
                if degree - 2 > rem.len() as u32 {
                    continue;
                }
                for pm in permutations(degree - 2, rem.len() as u32) {
                    let mut values: Vec<usize> = bits(pm as u128).map(|i| rem[i]).collect();
                    values.extend([v1, v2]);
                    // Positions (in the region) of each digit, c2 left out.
                    let (mut union, mut any_empty) = (0u32, false);
                    let mut hidden = 0u16;
                    for &v in &values {
                        let mut pos = 0u32;
                        for (i, &c) in rc.iter().enumerate() {
                            if g.cells[c] >> (v - 1) & 1 != 0 {
                                pos |= 1 << i;
                            }
                        }
                        pos &= !(1 << i2);
                        union |= pos;
                        any_empty |= pos == 0;
                        hidden |= 1 << (v - 1);
                    }
                    if any_empty || union.count_ones() != degree {
                        continue;
                    }
                    let set = union & !(1 << i1) & !(1 << i2);
                    let mut elim = [0u128; 9];
                    for i in bits(set as u128) {
                        let c = rc[i];
                        for d in bits((g.cells[c] & !hidden) as u128) {
                            elim[d] |= 1 << c;
                        }
                    }
                    out.push(Found {
                        rating: base + (set.count_ones() as f64 - 1.0) * 0.1,
                        kind: 3,
                        elim,
                        cells: lp.to_vec(),
                    });
                }
            }
        }
    }
    out
}

/// Type 4: in a region `c1` and `c2` share, one loop digit lives only in
/// them; the other loop digit leaves both (the first digit wins, and
/// among regions the last of block, row, column).
fn type4(g: &Grid, lp: &[usize], c1: usize, c2: usize, both: u16, base: f64) -> Option<Found> {
    let d1 = both.trailing_zeros() as usize;
    let d2 = 15 - both.leading_zeros() as usize;
    let (mut r1, mut r2) = (false, false);
    for t in 0..3 {
        let r = region_of(t, c1);
        if r != region_of(t, c2) {
            continue;
        }
        let rest = REGION[r] & !(1u128 << c1) & !(1u128 << c2);
        if g.digits[d1] & rest == 0 {
            r1 = true;
        }
        if g.digits[d2] & rest == 0 {
            r2 = true;
        }
    }
    let gone = if r1 {
        d2
    } else if r2 {
        d1
    } else {
        return None;
    };
    let mut elim = [0u128; 9];
    elim[gone] = 1 << c1 | 1 << c2;
    Some(Found {
        rating: base,
        kind: 4,
        elim,
        cells: lp.to_vec(),
    })
}

/// The cells of `cells` as a mask.
fn mask_of(cells: &[usize]) -> u128 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

/// The hint serate's `BivalueUniversalGrave` (lkSudoku's fix on) applies,
/// if any: BUG type 1 (5.6), types 2 and 4 (5.7), type 3 (5.7 + 0.1 per
/// naked-set cell beyond one). serate adds its hints unsorted and takes
/// the first: type 1; else type 2, then type 4; else type 4, then type 3
/// by degree, region type (block, row, column) and cell combination.
pub(crate) fn bug(g: &Grid) -> Option<Hint> {
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut common: Option<u128> = None;
    // lkSudoku: the cells of every region and digit off the pattern, while
    // they are all of one digit (a type 2 with extra cells everywhere).
    let mut all_extra: Option<u128> = None;
    let (mut only_value, mut one_value) = (0usize, true);
    let add = |c: usize, common: &mut Option<u128>, bug_cells: &[usize], values: u16| {
        let seen = common.map_or(PEERS[c], |m| m & PEERS[c]) & !mask_of(bug_cells);
        *common = Some(seen);
        bug_cells.len() > 1 && values.count_ones() > 1 && seen == 0
    };
    for t in 0..3 {
        for i in 0..9 {
            let reg = REGION[region(t, i)];
            for v in 1..=9usize {
                let pos = g.digits[v - 1] & reg;
                let n = pos.count_ones();
                if n == 0 || n == 2 {
                    continue;
                }
                let fresh: Vec<usize> = bits(pos)
                    .filter(|&c| g.cells[c].count_ones() >= 3)
                    .collect();
                match all_extra.as_mut() {
                    None => {
                        all_extra = Some(mask_of(&fresh));
                        only_value = v;
                    }
                    Some(m) if one_value => {
                        if only_value == v {
                            *m |= mask_of(&fresh);
                        } else {
                            one_value = false;
                        }
                    }
                    _ => {}
                }
                if fresh.len() == 1 {
                    let c = fresh[0];
                    if !bug_cells.contains(&c) {
                        bug_cells.push(c);
                    }
                    bug_values[c] |= 1 << (v - 1);
                    all_values |= 1 << (v - 1);
                    if add(c, &mut common, &bug_cells, all_values) {
                        return None;
                    }
                }
                if fresh.is_empty() {
                    return None;
                }
            }
        }
    }
    if let (true, Some(m)) = (one_value, all_extra) {
        if m.count_ones() as usize > bug_cells.len() {
            for c in bits(m & !mask_of(&bug_cells)) {
                bug_cells.push(c);
                bug_values[c] = 1 << (only_value - 1);
                if add(c, &mut common, &bug_cells, all_values) {
                    return None;
                }
            }
        }
    }
    // Without the BUG values, every empty cell holds two candidates and
    // every digit two places (or none) in every region.
    let mut temp = g.cells;
    for &c in &bug_cells {
        temp[c] &= !bug_values[c];
    }
    if bits(g.empty).any(|c| temp[c].count_ones() != 2) {
        return None;
    }
    for reg in REGION.iter() {
        for v in 0..9 {
            let n = bits(*reg).filter(|&c| temp[c] >> v & 1 != 0).count();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or(0);
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let mut h = Hint::new(Technique::BivalueUniversalGrave, 56);
        for d in bits((g.cells[c] & !all_values) as u128) {
            h.elim[d] = 1 << c;
        }
        h.cells = vec![c as u8];
        return Some(h);
    }
    if all_values.count_ones() == 1 {
        let d = all_values.trailing_zeros() as usize;
        let e = g.digits[d] & common;
        if e != 0 {
            let mut h = Hint::new(Technique::BivalueUniversalGrave, 57);
            h.elim[d] = e;
            h.cells = bug_cells.iter().map(|&c| c as u8).collect();
            return Some(h);
        }
        if bug_cells.len() == 2 {
            return bug4(g, &bug_cells, &bug_values, all_values);
        }
        return None;
    }
    if common == 0 {
        return None;
    }
    if bug_cells.len() == 2 {
        if let Some(h) = bug4(g, &bug_cells, &bug_values, all_values) {
            return Some(h);
        }
    }
    bug3(g, &bug_cells, common, all_values)
}

/// The region of type `t` all of `cells` share, if any.
fn shared(t: usize, cells: &[usize]) -> Option<usize> {
    let r = region_of(t, cells[0]);
    cells.iter().all(|&c| region_of(t, c) == r).then_some(r)
}

/// BUG type 4: two BUG cells in one region share one other digit, which
/// must be in one of them; each loses its remaining candidate.
fn bug4(g: &Grid, cells: &[usize], values: &[u16; 81], all: u16) -> Option<Hint> {
    let (c1, c2) = (cells[0], cells[1]);
    let both = g.cells[c1] & g.cells[c2] & !all;
    if both.count_ones() != 1 {
        return None;
    }
    (0..3).find_map(|t| shared(t, cells))?;
    let mut h = Hint::new(Technique::BivalueUniversalGrave, 57);
    for c in [c1, c2] {
        for d in bits((g.cells[c] & !values[c] & !both) as u128) {
            h.elim[d] |= 1 << c;
        }
    }
    h.cells = vec![c1 as u8, c2 as u8];
    Some(h)
}

/// BUG type 3: the BUG values form a naked set with other cells of a
/// region all BUG cells share.
fn bug3(g: &Grid, cells: &[usize], common: u128, all: u16) -> Option<Hint> {
    for degree in 2..=6u32 {
        for t in 0..3 {
            let Some(r) = shared(t, cells) else {
                continue;
            };
            let others: Vec<usize> = bits(common & REGION[r]).collect();
            if (others.len() as u32) < degree {
                continue;
            }
            for m in permutations(degree - 1, others.len() as u32) {
                let naked: Vec<usize> = bits(m as u128).map(|k| others[k]).collect();
                let mut pots: Vec<u16> = naked.iter().map(|&c| g.cells[c]).collect();
                let union = pots.iter().fold(0u16, |u, &p| u | p);
                if union.count_ones() != degree {
                    continue;
                }
                pots.push(all);
                let Some(set) = common_tuple(&pots, degree) else {
                    continue;
                };
                // The set's digits leave the other cells of the region
                // that see every BUG cell (serate's `isVLatin` branch, on
                // for plain Sudoku).
                let rest = common & REGION[r] & !mask_of(&naked) & !mask_of(cells);
                let mut elim = [0u128; 9];
                for d in bits(set as u128) {
                    elim[d] = g.digits[d] & rest;
                }
                if elim.iter().any(|&e| e != 0) {
                    let mut h = Hint::new(Technique::BivalueUniversalGrave, 57 + degree as u8 - 1);
                    h.elim = elim;
                    h.cells = cells.iter().map(|&c| c as u8).collect();
                    return Some(h);
                }
            }
        }
    }
    None
}
