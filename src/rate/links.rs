//! Two strong links on one digit (serate's "Scraper, Kite, Turbot": its
//! `StrongLinks(2)`): skyscrapers (4.0), 2-string kites and turbot fish
//! with a box link (4.1), and the grouped forms where a box link is an
//! empty rectangle or a line link spans two box segments (4.3).
//!
//! serate builds every such hint and keeps the first after sorting by
//! rating, then most removals, then its pattern "suffix", then the order it
//! built them in; this module enumerates the same candidates in the same
//! order and keeps the same one.

use super::grid::{bits, col_of, region, row_of, Grid, PEERS, REGION};
use super::{Hint, Technique};

/// Box configurations around a "heart" (cells 0-8 of the box) and the six
/// two-line forms (9-14): the cells that must be empty of the digit, and
/// the two blades that must both hold it. Local cell numbers 0-8, row-major.
const BOX_EMPTY: [u16; 15] = [
    m(&[4, 5, 7, 8]),
    m(&[3, 5, 6, 8]),
    m(&[3, 4, 6, 7]),
    m(&[1, 2, 7, 8]),
    m(&[0, 2, 6, 8]),
    m(&[0, 1, 6, 7]),
    m(&[1, 2, 4, 5]),
    m(&[0, 2, 3, 5]),
    m(&[0, 1, 3, 4]),
    m(&[6, 7, 8]),
    m(&[3, 4, 5]),
    m(&[0, 1, 2]),
    m(&[2, 5, 8]),
    m(&[1, 4, 7]),
    m(&[0, 3, 6]),
];
const BOX_BLADE1: [u16; 15] = [
    m(&[3, 6]),
    m(&[4, 7]),
    m(&[5, 8]),
    m(&[0, 6]),
    m(&[1, 7]),
    m(&[2, 8]),
    m(&[0, 3]),
    m(&[1, 4]),
    m(&[2, 5]),
    m(&[0, 1, 2]),
    m(&[0, 1, 2]),
    m(&[3, 4, 5]),
    m(&[0, 3, 6]),
    m(&[0, 3, 6]),
    m(&[1, 4, 7]),
];
const BOX_BLADE2: [u16; 15] = [
    m(&[1, 2]),
    m(&[0, 2]),
    m(&[0, 1]),
    m(&[4, 5]),
    m(&[3, 5]),
    m(&[3, 4]),
    m(&[7, 8]),
    m(&[6, 8]),
    m(&[6, 7]),
    m(&[3, 4, 5]),
    m(&[6, 7, 8]),
    m(&[6, 7, 8]),
    m(&[1, 4, 7]),
    m(&[2, 5, 8]),
    m(&[2, 5, 8]),
];
const LINE_EMPTY: [u16; 3] = [m(&[0, 1, 2]), m(&[3, 4, 5]), m(&[6, 7, 8])];
const LINE_BLADE1: [u16; 3] = [m(&[3, 4, 5]), m(&[0, 1, 2]), m(&[0, 1, 2])];
const LINE_BLADE2: [u16; 3] = [m(&[6, 7, 8]), m(&[6, 7, 8]), m(&[3, 4, 5])];

const fn m(cells: &[u16]) -> u16 {
    let mut r = 0;
    let mut i = 0;
    while i < cells.len() {
        r |= 1 << cells[i];
        i += 1;
    }
    r
}

/// One way a region is a (possibly grouped) strong link: its two ends
/// `e`, each end's extra group cells `s` and `t` (serate's supports).
#[derive(Clone, Copy)]
struct Link {
    region: usize,
    grouped: bool,
    /// Cells of the region holding the digit.
    cells: u128,
    e: [u8; 2],
    s: [Option<u8>; 2],
    t: [Option<u8>; 2],
    /// Per end: the column, row and box (in that order) holding all of the
    /// cells [`share_region`] looks at (the end, its `s`, and its `t` when
    /// it has an `s`), [`NONE`] where they differ.
    sig: [[u8; 3]; 2],
}

/// [`Link::sig`] of one end.
fn signature(e: u8, s: Option<u8>, t: Option<u8>) -> [u8; 3] {
    let keys: [Key; 3] = [col_of, row_of, super::grid::box_of];
    keys.map(|key| {
        let k = |c: u8| key(c as usize);
        let mut cells = [Some(e), s, s.and(t)].into_iter().flatten();
        let first = k(cells.next().unwrap_or(e));
        if cells.all(|c| k(c) == first) {
            first as u8
        } else {
            NONE
        }
    })
}

/// True when some end of `a` and some end of `b` share a region.
#[inline]
fn reaches(a: &Link, b: &Link) -> bool {
    a.sig
        .iter()
        .any(|x| b.sig.iter().any(|y| share_sig(x, y) != NONE))
}

/// [`share_region`] of two ends from their signatures: the column, else
/// row, else box holding all their cells.
#[inline]
fn share_sig(a: &[u8; 3], b: &[u8; 3]) -> u8 {
    const BASE: [u8; 3] = [18, 9, 0];
    for k in 0..3 {
        if a[k] != NONE && a[k] == b[k] {
            return BASE[k] + a[k];
        }
    }
    NONE
}

/// Local set bits of a 9-bit mask, lowest first.
fn nth(mask: u16, n: usize) -> Option<usize> {
    (0..9).filter(|k| mask >> k & 1 != 0).nth(n)
}

fn same_line(a: u8, b: u8) -> bool {
    let (a, b) = (a as usize, b as usize);
    row_of(a) == row_of(b) || col_of(a) == col_of(b)
}

/// The link variants of region type `t` number `i` for digit `d`, in
/// serate's order; `Err` where serate itself would fail (never seen).
fn variants(g: &Grid, t: usize, i: usize, d: usize, out: &mut Vec<Link>) -> Result<(), ()> {
    let reg_id = region(t, i);
    let reg = REGION[reg_id];
    let hold = g.digits[d - 1] & reg;
    let n = hold.count_ones();
    if n <= 1 || n > 6 {
        return Ok(());
    }
    // The region's cells in order (no allocation: this runs 243 times a call).
    let mut rc = [0usize; 9];
    let mut p = 0u16;
    for (k, c) in bits(reg).enumerate() {
        rc[k] = c;
        if hold >> c & 1 != 0 {
            p |= 1 << k;
        }
    }
    let cell = |k: usize| rc[k] as u8;
    let (mut grouped, mut b1, mut b2, mut heart, mut e_sel) = (false, 0u16, 0u16, 0u16, 0usize);
    if n > 2 {
        let configs = if t == 0 { 15 } else { 3 };
        for e in 0..configs {
            if e > 8 && n < 4 {
                continue;
            }
            let empty = if t == 0 { BOX_EMPTY[e] } else { LINE_EMPTY[e] };
            if p & empty == 0 {
                if t == 0 {
                    b1 = p & BOX_BLADE1[e];
                    b2 = p & BOX_BLADE2[e];
                    heart = if e < 9 { p & (1 << e) } else { 0 };
                } else {
                    b1 = p & LINE_BLADE1[e];
                    b2 = p & LINE_BLADE2[e];
                }
                grouped = b1 != 0 && b2 != 0;
                e_sel = e;
                break;
            }
        }
        if !grouped {
            return Ok(());
        }
    }
    let (c1, c2) = (b1.count_ones(), b2.count_ones());
    let heart_cell = || -> Result<Option<u8>, ()> {
        if e_sel < 9 {
            Ok(Some(cell(e_sel)))
        } else {
            Err(())
        }
    };
    let at = |mask: u16, n: usize| -> Result<u8, ()> { nth(mask, n).map(cell).ok_or(()) };
    let mut ordinal = 0;
    let mut e = [0u8; 2];
    while ordinal < 2 {
        let mut s = [None; 2];
        let mut tt = [None; 2];
        if grouped {
            if c1 == 1 || c2 == 1 {
                if ordinal == 0 {
                    if c1 == 1 {
                        if t == 0 {
                            e[0] = at(b1, 0)?;
                            s[1] = heart_cell()?;
                            e[1] = at(b2, 0)?;
                            if c2 > 1 {
                                tt[1] = Some(at(b2, 1)?);
                            }
                        } else {
                            e[0] = at(b1, 0)?;
                            e[1] = at(b2, 0)?;
                            s[1] = Some(at(b2, 1)?);
                            if c2 > 2 {
                                tt[1] = Some(at(b2, 2)?);
                            }
                        }
                        if c2 == 1 {
                            e[0] = at(b1, 0)?;
                            e[1] = at(b2, 0)?;
                            s = [None; 2];
                            tt = [None; 2];
                            ordinal = 1;
                        }
                    } else {
                        ordinal += 1;
                        continue;
                    }
                }
                if ordinal == 1 {
                    if c2 == 1 {
                        s = [None; 2];
                        tt = [None; 2];
                        if t == 0 {
                            e[0] = at(b2, 0)?;
                            s[1] = heart_cell()?;
                            e[1] = at(b1, 0)?;
                            if c1 > 1 {
                                tt[1] = Some(at(b1, 1)?);
                            }
                        } else {
                            e[0] = at(b2, 0)?;
                            e[1] = at(b1, 0)?;
                            s[1] = Some(at(b1, 1)?);
                            if c1 > 2 {
                                tt[1] = Some(at(b1, 2)?);
                            }
                        }
                    } else {
                        ordinal += 1;
                        continue;
                    }
                }
            } else {
                e[0] = at(b1, 0)?;
                s[0] = Some(at(b1, 1)?);
                if c1 > 2 {
                    tt[0] = Some(at(b1, 2)?);
                }
                e[1] = at(b2, 0)?;
                s[1] = Some(at(b2, 1)?);
                if c2 > 2 {
                    tt[1] = Some(at(b2, 2)?);
                }
                let eml = e_sel > 8
                    && n == 4
                    && same_line(s[0].unwrap(), s[1].unwrap())
                    && same_line(e[0], e[1]);
                if eml && ordinal == 1 && e[1] == at(b2, 0)? {
                    e[1] = at(b1, 1)?;
                    s[0] = Some(at(b2, 0)?);
                }
                if !eml {
                    ordinal = 1;
                    if e_sel < 9 && heart.count_ones() == 1 {
                        if c1 == 2 {
                            tt[0] = heart_cell()?;
                        }
                        if c2 == 2 {
                            tt[1] = heart_cell()?;
                        }
                    }
                }
            }
        } else {
            ordinal = 1;
            e = [at(p, 0)?, at(p, 1)?];
            if t == 0 && same_line(e[0], e[1]) {
                ordinal += 1;
                continue;
            }
        }
        out.push(Link {
            region: reg_id,
            grouped,
            cells: g.digits[d - 1] & reg,
            e,
            s,
            t: tt,
            sig: [signature(e[0], s[0], tt[0]), signature(e[1], s[1], tt[1])],
        });
        ordinal += 1;
    }
    Ok(())
}

/// A cell's column, row or box number.
type Key = fn(usize) -> usize;

/// The sort key serate orders two-link hints by: rating, then most
/// removals, then its pattern suffix.
type SortKey = (u8, std::cmp::Reverse<u32>, [u8; 3]);

/// serate's `shareRegionOf`: the column, else row, else box holding both
/// bridge cells and their group cells.
fn share_region(
    b1: u8,
    b1s: Option<u8>,
    b2: u8,
    b2s: Option<u8>,
    b1s2: Option<u8>,
    b2s2: Option<u8>,
) -> Option<usize> {
    let keys: [(Key, usize); 3] = [(col_of, 18), (row_of, 9), (super::grid::box_of, 0)];
    for (key, base) in keys {
        let k = |c: u8| key(c as usize);
        let mut same = k(b1) == k(b2);
        if same {
            if let Some(x) = b1s {
                same = k(x) == k(b1);
                if let (Some(y), true) = (b1s2, same) {
                    same = k(y) == k(b1);
                }
            }
            if let (Some(x), true) = (b2s, same) {
                same = k(x) == k(b1);
                if let (Some(y), true) = (b2s2, same) {
                    same = k(y) == k(b1);
                }
            }
            if same {
                return Some(base + k(b1));
            }
        }
    }
    None
}

fn peers_of(c: Option<u8>) -> u128 {
    c.map_or(!0, |c| PEERS[c as usize])
}

// Index loops mirror serate's (digit, region type, region number) walk.
#[allow(clippy::needless_range_loop)]
/// The hint serate applies for two strong links, if any; `Err` when the
/// position needs a case this module does not reproduce.
pub(crate) fn two_links(g: &Grid) -> Result<Option<Hint>, ()> {
    // serate's link-type pairs in the order its permutation yields them:
    // box-box, box-row, row-row, box-column, row-column, column-column.
    const SETS: [(usize, usize); 6] = [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)];
    // (rating, removals, suffix) of the best so far, and its removals.
    let mut best: Option<(SortKey, usize, u128)> = None;
    // Every region's link variants, per digit, built once: (digit, type, index) -> span.
    let mut all = Vec::new();
    let mut span = [[[(0usize, 0usize); 9]; 3]; 10];
    for d in 1..=9usize {
        for t in 0..3 {
            for i in 0..9 {
                let from = all.len();
                variants(g, t, i, d, &mut all)?;
                span[d][t][i] = (from, all.len());
            }
        }
    }
    for (t0, t1) in SETS {
        for d in 1..=9usize {
            for i0 in 0..9 {
                let (f0, e0) = span[d][t0][i0];
                for a in &all[f0..e0] {
                    let from = if t0 == t1 { i0 + 1 } else { 0 };
                    for i1 in from..9 {
                        let (f1, e1) = span[d][t1][i1];
                        for b in &all[f1..e1] {
                            if a.cells & b.cells != 0 {
                                continue;
                            }
                            let grouped = a.grouped as u8 + b.grouped as u8;
                            let line = rline(t0, t1);
                            let rating = if grouped > 0 {
                                43
                            } else if line == *b"11" {
                                40
                            } else {
                                41
                            };
                            // Only a hint rating no higher than the best
                            // so far can be taken.
                            if best.as_ref().is_some_and(|(k, _, _)| k.0 < rating) {
                                continue;
                            }
                            let suffix = [b'0' + grouped, line[0], line[1]];
                            for (u0, u1) in [(0usize, 0usize), (0, 1), (1, 0), (1, 1)] {
                                let (b1, b1s, b1s2) = (a.e[1 - u0], a.s[1 - u0], a.t[1 - u0]);
                                let (b2, b2s, b2s2) = (b.e[u1], b.s[u1], b.t[u1]);
                                let share = share_sig(&a.sig[1 - u0], &b.sig[u1]);
                                debug_assert_eq!(
                                    share,
                                    share_region(b1, b1s, b2, b2s, b1s2, b2s2)
                                        .map_or(NONE, |r| r as u8)
                                );
                                if share == NONE {
                                    continue;
                                }
                                let share = share as usize;
                                let (st, sts, sts2) = (a.e[u0], a.s[u0], a.t[u0]);
                                let (en, ens, ens2) = (b.e[1 - u1], b.s[1 - u1], b.t[1 - u1]);
                                let ring = share_sig(&a.sig[u0], &b.sig[1 - u1]);
                                debug_assert_eq!(
                                    ring,
                                    share_region(st, sts, en, ens, sts2, ens2)
                                        .map_or(NONE, |r| r as u8)
                                );
                                let ring = (ring != NONE).then_some(());
                                if ring.is_some() && u0 != 0 {
                                    continue;
                                }
                                let mut v = PEERS[st as usize] & PEERS[en as usize];
                                if a.grouped && sts.is_some() {
                                    v &= peers_of(sts) & peers_of(sts2);
                                }
                                if b.grouped && ens.is_some() {
                                    v &= peers_of(ens) & peers_of(ens2);
                                }
                                v &= !(1u128 << st | 1u128 << en);
                                let bases = REGION[a.region] | REGION[b.region];
                                v &= !bases;
                                if ring.is_none() {
                                    v &= !REGION[share];
                                }
                                let e1 = g.pos(d, v);
                                let mut count = e1.count_ones();
                                let mut elim = e1;
                                if ring.is_some() {
                                    let mut w = PEERS[b1 as usize] & PEERS[b2 as usize];
                                    if b1s.is_some() {
                                        w &= peers_of(b1s) & peers_of(b1s2);
                                    }
                                    if b2s.is_some() {
                                        w &= peers_of(b2s) & peers_of(b2s2);
                                    }
                                    w &= !(1u128 << b1 | 1u128 << b2);
                                    w &= !bases;
                                    let e2 = g.pos(d, w);
                                    count += e2.count_ones();
                                    elim |= e2;
                                }
                                if elim == 0 {
                                    continue;
                                }
                                let key = (rating, std::cmp::Reverse(count), suffix);
                                if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                                    best = Some((key, d, elim));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(best.map(|((rating, _, _), d, elim)| {
        let mut h = Hint::new(Technique::TurbotFish, rating);
        h.elim[d - 1] = elim;
        h
    }))
}

/// serate's `rLineName` for two links of types `t0 <= t1`.
fn rline(t0: usize, t1: usize) -> [u8; 2] {
    match (t0, t1) {
        (0, 0) => *b"00",
        (0, 1) | (0, 2) => *b"01",
        (1, 2) => *b"12",
        _ => *b"11",
    }
}

/// serate's `rLineName` for any number of links: the region types (0
/// block, 1 row, 2 column) as the smallest of the names under swapping rows
/// and columns and reversing, columns written `1` when there is no row.
fn rline_name(set: &[usize]) -> String {
    let mut original = String::new();
    let mut lines = String::new();
    let mut reverse_swap = String::new();
    let mut current_swap = String::new();
    let mut any_row = false;
    for &t in set {
        match t {
            1 => {
                any_row = true;
                reverse_swap.insert(0, '2');
                current_swap.push('2');
                lines.push('1');
            }
            2 => {
                reverse_swap.insert(0, '1');
                current_swap.push('1');
                lines.push('1');
            }
            _ => {
                reverse_swap.insert(0, '0');
                current_swap.push('0');
                lines.push('0');
            }
        }
        original.push((b'0' + t as u8) as char);
    }
    if reverse_swap > current_swap {
        reverse_swap = current_swap;
    }
    if any_row {
        return if original > reverse_swap {
            reverse_swap
        } else {
            original
        };
    }
    lines
}

/// serate's `isLex`: the sequence is not above its reverse (as digits).
fn is_lex(q: &[usize]) -> bool {
    let f: String = q.iter().map(|&x| (b'0' + x as u8) as char).collect();
    let r: String = q.iter().rev().map(|&x| (b'0' + x as u8) as char).collect();
    f <= r
}

/// The permutations of `0..n` in the order of serate's QuickPerm
/// (Phillip Paul Fuchs's countdown version), identity first.
fn quick_perm(n: usize) -> Vec<Vec<usize>> {
    let mut q: Vec<usize> = (0..n).collect();
    let mut r: Vec<usize> = (0..=n).collect();
    let mut out = vec![q.clone()];
    let mut s = 1;
    while s < n {
        r[s] -= 1;
        let t = s % 2 * r[s];
        q.swap(t, s);
        out.push(q.clone());
        s = 1;
        while r[s] == 0 {
            r[s] = s;
            s += 1;
        }
    }
    out
}

/// The link-type sets serate's `Permutations(n, 3n)` walk gives for `n`
/// links: non-decreasing sequences of region types, in its order.
fn link_sets(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for m in 0u32..1 << (3 * n) {
        if m.count_ones() as usize != n {
            continue;
        }
        let idx: Vec<usize> = (0..3 * n).filter(|b| m >> b & 1 != 0).collect();
        if idx.iter().enumerate().all(|(i, &x)| x % n == i) {
            out.push(idx.iter().map(|&x| x / n).collect());
        }
    }
    out
}

/// One admitted order of a link-type set (a QuickPerm order not above its
/// reverse), with what depends on the order only.
struct Order {
    /// Positions in the chosen links, in chain order.
    q: Vec<usize>,
    /// serate's `rLineName` of the order (the suffix after the grouped count).
    tail: [u8; 7],
    /// Rating above the base when no link is grouped (0-2).
    lift: u8,
}

/// A link-type set and its admitted orders, in serate's order.
struct Plan {
    set: Vec<usize>,
    orders: Vec<Order>,
    /// The lowest `lift` of the orders: no hint of the set rates below
    /// base + this.
    min_lift: u8,
}

/// serate's link-type sets and orders for `n` links, built once per `n`
/// (2-6): [`link_sets`] with every [`quick_perm`] order that [`is_lex`]
/// admits.
fn plans(n: usize) -> &'static [Plan] {
    static PLANS: [std::sync::OnceLock<Vec<Plan>>; 7] = [const { std::sync::OnceLock::new() }; 7];
    PLANS[n].get_or_init(|| {
        let perms: Vec<Vec<usize>> = quick_perm(n).into_iter().filter(|q| is_lex(q)).collect();
        link_sets(n)
            .into_iter()
            .map(|set| {
                let orders: Vec<Order> = perms
                    .iter()
                    .map(|q| {
                        let actual: Vec<usize> = q.iter().map(|&k| set[k]).collect();
                        let rev: Vec<usize> = actual.iter().rev().copied().collect();
                        let name = rline_name(if is_lex(&actual) { &actual } else { &rev });
                        let mut tail = [0u8; 7];
                        tail[..name.len()].copy_from_slice(name.as_bytes());
                        let (zero, two) = (name.contains('0'), name.contains('2'));
                        let lift = match (zero, two) {
                            (false, false) => 0,
                            (true, true) => 2,
                            _ => 1,
                        };
                        Order {
                            q: q.clone(),
                            tail,
                            lift,
                        }
                    })
                    .collect();
                let min_lift = orders.iter().map(|o| o.lift).min().unwrap_or(0);
                Plan {
                    set,
                    orders,
                    min_lift,
                }
            })
            .collect()
    })
}

/// The hint serate applies for `n` strong links on one digit (its
/// `StrongLinks(n)`; `n` = 3 is "3 Strong-linked Fishes", 5.4 + 0.1-0.3),
/// if any; `Err` when the position needs a case this module does not
/// reproduce. Generalises [`two_links`]: links chosen per region type set
/// and digit as serate's `buildLinks` does, every QuickPerm order of them
/// that is not above its reverse and every orientation, then serate's sort
/// (rating, most removals, pattern suffix; first found among equals).
///
/// Pruned without changing the hint: only a hint rating no higher than
/// the best so far can be taken, and the rating depends on the order and
/// on whether a link is grouped only, so link sets, grouped links and
/// orders that rate higher are skipped; which ends of two links share a
/// region is computed once per chosen set of links, not per order and
/// orientation.
// Index loops mirror serate's (digit, region type, region number) walk.
#[allow(clippy::needless_range_loop)]
pub(crate) fn n_links(g: &Grid, n: usize) -> Result<Option<Hint>, ()> {
    let base: u8 = [0, 40, 54, 58, 62, 66, 70, 74][n - 1];
    let mut all = Vec::new();
    let mut ranges = Vec::with_capacity(9);
    for d in 1..=9usize {
        let start = all.len();
        let mut from = [[0u64; 10]; 3];
        for t in 0..3 {
            for i in 0..9 {
                let first = all.len() - start;
                variants(g, t, i, d, &mut all)?;
                // Bits first.. of this region type's links so far.
                from[t][i] = ((1u64 << (all.len() - start)) - 1) & !((1u64 << first) - 1);
            }
            for i in (0..8).rev() {
                from[t][i] |= from[t][i + 1];
            }
        }
        debug_assert!(all.len() - start <= 54, "at most 2 links per region");
        ranges.push((start, all.len(), from));
    }
    let digits: Vec<DigitLinks> = ranges
        .into_iter()
        .map(|(start, end, from)| DigitLinks::new(&all[start..end], from))
        .collect();
    let mut best: Best = None;
    for plan in plans(n) {
        for (di, links) in digits.iter().enumerate() {
            if beaten(&best, base + plan.min_lift) {
                break;
            }
            let mut ctx = Ctx {
                g,
                n,
                d: di + 1,
                plan,
                base,
                links,
                best: &mut best,
            };
            ctx.choose(0, 0, u64::MAX, &mut [0; 6]);
        }
    }
    Ok(best.map(|((rating, _, _), d, elim)| {
        let tech = match n {
            2 => Technique::TurbotFish,
            3 => Technique::ThreeStrongLinks,
            _ => Technique::FourStrongLinks,
        };
        let mut h = Hint::new(tech, rating);
        h.elim[d - 1] = elim;
        h
    }))
}

/// One digit's links (at most 2 per region, so at most 54) in serate's
/// order (region type, region number, variant), with what the search asks
/// of pairs of them as bit masks over their positions.
struct DigitLinks<'a> {
    links: &'a [Link],
    /// The links sharing no digit cell with link `k`.
    disjoint: [u64; 54],
    /// The links some end of which shares a region with some end of link `k`.
    reach: [u64; 54],
    /// The links of region type `t` in regions `i` and after.
    from: [[u64; 10]; 3],
    /// The grouped links.
    grouped: u64,
}

impl<'a> DigitLinks<'a> {
    fn new(links: &'a [Link], from: [[u64; 10]; 3]) -> DigitLinks<'a> {
        let mut dl = DigitLinks {
            links,
            disjoint: [0; 54],
            reach: [0; 54],
            from,
            grouped: 0,
        };
        for (a, la) in links.iter().enumerate() {
            dl.grouped |= u64::from(la.grouped) << a;
            for (b, lb) in links.iter().enumerate().skip(a + 1) {
                if la.cells & lb.cells == 0 {
                    dl.disjoint[a] |= 1 << b;
                    dl.disjoint[b] |= 1 << a;
                }
                if reaches(la, lb) {
                    dl.reach[a] |= 1 << b;
                    dl.reach[b] |= 1 << a;
                }
            }
        }
        dl
    }
}

/// serate's sort key of an n-link hint (rating, most removals, suffix:
/// the grouped count then the `rLineName`, all of one length for one `n`).
type NKey = (u8, std::cmp::Reverse<u32>, [u8; 8]);

/// The best n-link hint so far: its key, digit and removals.
type Best = Option<(NKey, usize, u128)>;

/// True when the best hint so far rates below `rating`: no hint rating
/// `rating` can be taken any more.
#[inline]
fn beaten(best: &Best, rating: u8) -> bool {
    best.as_ref().is_some_and(|(k, _, _)| k.0 < rating)
}

/// A link end as [`share_region`] takes it: the end cell and its group cells.
type End = (u8, Option<u8>, Option<u8>);

/// No shared region ([`Ctx::arrange`]'s table).
const NONE: u8 = u8::MAX;

/// The search state of [`n_links`] for one type set and digit.
struct Ctx<'a> {
    g: &'a Grid,
    n: usize,
    d: usize,
    plan: &'a Plan,
    base: u8,
    links: &'a DigitLinks<'a>,
    best: &'a mut Best,
}

impl Ctx<'_> {
    /// serate's `buildLinks`: link `depth` in a region of type
    /// `set[depth]` (after the previous one's region when of the same
    /// type), sharing no digit cell with the links before (`allowed`: the
    /// links disjoint from all of them). `chosen` holds the positions of
    /// the links chosen so far.
    fn choose(&mut self, depth: usize, prev: usize, allowed: u64, chosen: &mut [usize; 6]) {
        if depth == self.n {
            let mut l = [self.links.links[chosen[0]]; 6];
            for (k, &c) in chosen[..self.n].iter().enumerate() {
                l[k] = self.links.links[c];
            }
            self.arrange(&l[..self.n]);
            return;
        }
        let t = self.plan.set[depth];
        let from = if depth > 0 && self.plan.set[depth - 1] == t {
            prev + 1
        } else {
            0
        };
        let mut cand = allowed & self.links.from[t][from];
        // A grouped link makes every order rate base + 0.3.
        if beaten(self.best, self.base + 3) {
            cand &= !self.links.grouped;
        }
        if depth + 1 == self.n && depth > 0 {
            // A hint needs an order whose consecutive links share a region
            // (a path through all of them): the last link chosen is the
            // only neighbour left for the links sharing none with the
            // others yet, and a link has at most two neighbours in a path.
            let set = chosen[..depth].iter().fold(0u64, |m, &c| m | 1 << c);
            let mut need = u64::MAX;
            let mut any = 0u64;
            let mut n_lonely = 0;
            for &c in &chosen[..depth] {
                any |= self.links.reach[c];
                if self.links.reach[c] & set == 0 {
                    n_lonely += 1;
                    need &= self.links.reach[c];
                }
            }
            if n_lonely > 2 {
                return;
            }
            cand &= if n_lonely == 0 { any } else { need };
        }
        while cand != 0 {
            let k = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            chosen[depth] = k;
            let region = self.links.links[k].region % 9;
            self.choose(depth + 1, region, allowed & self.links.disjoint[k], chosen);
        }
    }

    /// Every admitted order and orientation of the chosen links.
    // The symmetric fill below writes `share[i][j][s1][s2]` and its mirror
    // `share[j][i][s2][s1]` in one step: indices, not iterators, say that.
    #[allow(clippy::needless_range_loop)]
    fn arrange(&mut self, l: &[Link]) {
        let n = self.n;
        let grouped = l.iter().filter(|x| x.grouped).count();
        let bases = l.iter().fold(0u128, |m, x| m | REGION[x.region]);
        let end = |i: usize, s: usize| -> End { (l[i].e[s], l[i].s[s], l[i].t[s]) };
        // share[i][j][s1][s2]: the region shared by end s1 of link i and
        // end s2 of link j (serate's `shareRegionOf`), NONE if none.
        let mut share = [[[[NONE; 2]; 2]; 6]; 6];
        // reach[i][j]: some ends of links i and j share a region.
        let mut reach = [[false; 6]; 6];
        // share_sig is symmetric: each pair is computed once (this table
        // was a sixth of the four-link search's instructions).
        for i in 0..n {
            for j in i + 1..n {
                for s1 in 0..2 {
                    for s2 in 0..2 {
                        let r = share_sig(&l[i].sig[s1], &l[j].sig[s2]);
                        debug_assert_eq!(r, {
                            let (a, b) = (end(i, s1), end(j, s2));
                            share_region(a.0, a.1, b.0, b.1, a.2, b.2).map_or(NONE, |r| r as u8)
                        });
                        debug_assert_eq!(r, share_sig(&l[j].sig[s2], &l[i].sig[s1]));
                        share[i][j][s1][s2] = r;
                        share[j][i][s2][s1] = r;
                        reach[i][j] |= r != NONE;
                    }
                }
                reach[j][i] = reach[i][j];
            }
        }
        for o in &self.plan.orders {
            let q = &o.q;
            let rating = if grouped > 0 {
                self.base + 3
            } else {
                self.base + o.lift
            };
            if beaten(self.best, rating) || (0..n - 1).any(|w| !reach[q[w]][q[w + 1]]) {
                continue;
            }
            let mut suffix = [0u8; 8];
            suffix[0] = b'0' + grouped as u8;
            suffix[1..].copy_from_slice(&o.tail);
            for u in 0..1u32 << n {
                // u[0] is the most significant bit, as serate's odometer.
                let side = |k: usize| (u >> (n - 1 - k) & 1) as usize;
                let mut shares = 0u128;
                let mut bridges = [((0u8, None, None), (0u8, None, None)); 5];
                let mut ok = true;
                for w in 0..n - 1 {
                    let (s1, s2) = (1 - side(w), side(w + 1));
                    let r = share[q[w]][q[w + 1]][s1][s2];
                    if r == NONE {
                        ok = false;
                        break;
                    }
                    shares |= REGION[r as usize];
                    bridges[w] = (end(q[w], s1), end(q[w + 1], s2));
                }
                if !ok {
                    continue;
                }
                let (a, z) = (&l[q[0]], &l[q[n - 1]]);
                let (u0, un) = (side(0), 1 - side(n - 1));
                let (st, sts, sts2) = (a.e[u0], a.s[u0], a.t[u0]);
                let (en, ens, ens2) = (z.e[un], z.s[un], z.t[un]);
                let ring = share[q[0]][q[n - 1]][u0][un] != NONE;
                // A ring is taken once: from its smallest region (the
                // first chosen), first orientation.
                if ring && (q[0] != 0 || u0 != 0) {
                    continue;
                }
                let mut v = PEERS[st as usize] & PEERS[en as usize];
                if a.grouped && sts.is_some() {
                    v &= peers_of(sts) & peers_of(sts2);
                }
                if z.grouped && ens.is_some() {
                    v &= peers_of(ens) & peers_of(ens2);
                }
                v &= !(1u128 << st | 1u128 << en) & !bases;
                if !ring {
                    v &= !shares;
                }
                let e1 = self.g.pos(self.d, v);
                let mut count = e1.count_ones();
                let mut elim = e1;
                if ring {
                    for &((b1, b1s, b1s2), (b2, b2s, b2s2)) in &bridges[..n - 1] {
                        let mut w = PEERS[b1 as usize] & PEERS[b2 as usize];
                        if b1s.is_some() {
                            w &= peers_of(b1s) & peers_of(b1s2);
                        }
                        if b2s.is_some() {
                            w &= peers_of(b2s) & peers_of(b2s2);
                        }
                        w &= !(1u128 << b1 | 1u128 << b2) & !bases;
                        let e2 = self.g.pos(self.d, w);
                        count += e2.count_ones();
                        elim |= e2;
                    }
                }
                if elim == 0 {
                    continue;
                }
                let key = (rating, std::cmp::Reverse(count), suffix);
                if self.best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                    *self.best = Some((key, self.d, elim));
                }
            }
        }
    }
}
