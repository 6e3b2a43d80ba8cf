//! Chains run inside chains: serate's `Forcing Chains & Cycles` in its
//! all-hints mode on a forcing net's working grid, for the nested levels
//! (2 and up) of the forcing nets (`dynamic.rs`).
//!
//! [`super::chains`] finds only the best hint of a grid, with shortcuts
//! that keep its result but not the others. Here every cycle and forcing
//! chain serate's `getLoopHintList` collects is built as serate builds it
//! (`doCycles`, `doForcingChains`, `createCycleHint`,
//! `createForcingChainHint`), sorted as its `getHintList` sorts them
//! (difficulty, complexity, kind; stable), kept once per set of removals,
//! and given its rule parents (`ChainingHint.getRuleParents`: the
//! candidates the outer net removed that a link of the chain relies on).
//! Each chain also gets an identity ([`Registry`]), as serate's
//! `FullChain`, so that a hint using nested chains counts each one's
//! complexity once.

use std::collections::{HashMap, HashSet};

use super::advanced::{self, java_order, Found, BOX, CELL, COL, ROW};
use super::chains::{hint_order, length_difficulty};
use super::grid::{bits, box_of, col_of, row_of, Grid, PEERS, REGION};

/// A link's cause (serate's `Potential.Cause`): none (a start), else the
/// cell (naked single) or the region of the link (hidden single in box,
/// row, column), [`advanced::CELL`] and on.
const START: u8 = 0;

const NONE: u32 = u32::MAX;

/// The nested chains of one outer search: each distinct chain (by its
/// targets and potentials, as serate's `FullChain`) once, with its
/// complexity.
#[derive(Default)]
pub(crate) struct Registry {
    ids: HashMap<Vec<u16>, u32>,
    complexity: Vec<u32>,
}

impl Registry {
    pub fn id(&mut self, signature: Vec<u16>, complexity: u32) -> u32 {
        let next = self.complexity.len() as u32;
        let id = *self.ids.entry(signature).or_insert(next);
        if id == next {
            self.complexity.push(complexity);
        }
        id
    }

    /// The complexity of nested chain `id`.
    pub fn complexity(&self, id: u32) -> u32 {
        self.complexity[id as usize]
    }
}

#[derive(Clone, Copy)]
struct P {
    cell: u8,
    digit: u8,
    on: bool,
    cause: u8,
    parent: u32,
}

impl P {
    fn same(&self, o: &P) -> bool {
        self.cell == o.cell && self.digit == o.digit && self.on == o.on
    }
    fn pid(&self) -> u16 {
        ((self.cell as u16 * 9 + self.digit as u16) << 1) | self.on as u16
    }
}

/// A hint before sorting.
struct H {
    diff: f64,
    complexity: u32,
    sort: u8,
    /// Removals `(cell, digit mask)` in serate's map order.
    removals: Vec<(u8, u16)>,
    /// The chain's end node, and for a cycle that it is one.
    end: u32,
    cycle: bool,
}

/// The search of one start, reused.
struct Loops<'a> {
    g: &'a Grid,
    nodes: Vec<P>,
    hints: Vec<H>,
    on_seen: [u128; 9],
    off_seen: [u128; 9],
    /// Per candidate (cell * 9 + digit), what its "off" makes on: the Y
    /// one (the other digit of a bivalue cell, or [`NO`]) and the X ones
    /// (`(cell, cause)`, count in `x_n`). Made once per grid: the searches
    /// ask for them again and again.
    y_on: Vec<u8>,
    x_on: Vec<[(u8, u8); 3]>,
    x_n: Vec<u8>,
}

/// No Y "on" ([`Loops::y_on`]).
const NO: u8 = u8::MAX;

impl Loops<'_> {
    fn new(g: &Grid) -> Loops<'_> {
        let mut y_on = vec![NO; 729];
        let mut x_on = vec![[(0u8, 0u8); 3]; 729];
        let mut x_n = vec![0u8; 729];
        for c in bits(g.empty) {
            let m = g.cells[c];
            for d in bits(m as u128) {
                let k = c * 9 + d;
                if m.count_ones() == 2 {
                    y_on[k] = (m & !(1 << d)).trailing_zeros() as u8;
                }
                let others = g.digits[d] & !(1u128 << c);
                for (r, cause) in [
                    (box_of(c), BOX),
                    (9 + row_of(c), ROW),
                    (18 + col_of(c), COL),
                ] {
                    let pos = others & REGION[r];
                    if pos.count_ones() == 1 {
                        let t = pos.trailing_zeros() as u8;
                        let n = x_n[k] as usize;
                        if !x_on[k][..n].iter().any(|e| e.0 == t) {
                            x_on[k][n] = (t, cause);
                            x_n[k] += 1;
                        }
                    }
                }
            }
        }
        Loops {
            g,
            nodes: Vec::with_capacity(4096),
            hints: Vec::new(),
            on_seen: [0; 9],
            off_seen: [0; 9],
            y_on,
            x_on,
            x_n,
        }
    }

    fn push(&mut self, p: P) -> u32 {
        self.nodes.push(p);
        (self.nodes.len() - 1) as u32
    }

    /// serate's `getOnToOff`.
    fn on_to_off(&self, p: &P, y: bool, out: &mut Vec<(u8, u8, u8)>) {
        out.clear();
        let (c, d) = (p.cell as usize, p.digit as usize);
        if y {
            for o in bits(self.g.cells[c] as u128 & !(1 << d)) {
                out.push((c as u8, o as u8, CELL));
            }
        }
        let others = self.g.digits[d] & !(1u128 << c);
        let b = REGION[box_of(c)];
        let r = REGION[9 + row_of(c)] & !b;
        let k = REGION[18 + col_of(c)] & !b;
        for (m, cause) in [(others & b, BOX), (others & r, ROW), (others & k, COL)] {
            for oc in bits(m) {
                out.push((oc as u8, d as u8, cause));
            }
        }
    }

    /// serate's `getOffToOn` on a grid that does not change (no hidden
    /// parents).
    fn off_to_on(&self, p: &P, y: bool, x: bool, out: &mut Vec<(u8, u8, u8)>) {
        out.clear();
        let k = p.cell as usize * 9 + p.digit as usize;
        if y && self.y_on[k] != NO {
            out.push((p.cell, self.y_on[k], CELL));
        }
        if x {
            for &(t, cause) in &self.x_on[k][..self.x_n[k] as usize] {
                out.push((t, p.digit, cause));
            }
        }
    }

    /// serate's `isParent`: `(cell, digit, on)` is on the path above node `i`.
    fn is_parent(&self, i: u32, cell: u8, digit: u8, on: bool) -> bool {
        let mut p = self.nodes[i as usize].parent;
        while p != NONE {
            let n = &self.nodes[p as usize];
            if n.cell == cell && n.digit == digit && n.on == on {
                return true;
            }
            p = n.parent;
        }
        false
    }

    /// serate's `doUnaryChaining` from candidate `d` of `cell`.
    fn unary(&mut self, cell: usize, d: usize, y: bool, x: bool, sort: u8) {
        if !x && self.g.cells[cell].count_ones() > 2 {
            return;
        }
        let mut buf = Vec::with_capacity(32);
        let source = P {
            cell: cell as u8,
            digit: d as u8,
            on: true,
            cause: START,
            parent: NONE,
        };
        // doCycles. Its "off"s are not deduplicated (only kept off their own
        // path), but a repeat of an "off" already queued makes only "on"s
        // already made, so it can matter only by closing a cycle: repeats
        // are queued only for the candidates whose "off" makes the start
        // "on" (`closing`), which yields the same cycles in the same order.
        self.nodes.clear();
        let mut cycles: Vec<u32> = Vec::new();
        {
            // The links are symmetric: the "off"s that make the start "on"
            // are the start's own off-to-on targets.
            let mut closing = [0u128; 9];
            let k = cell * 9 + d;
            if y && self.y_on[k] != NO {
                closing[self.y_on[k] as usize] |= 1 << cell;
            }
            if x {
                for &(t, _) in &self.x_on[k][..self.x_n[k] as usize] {
                    closing[d] |= 1 << t;
                }
            }
            self.off_seen = [0; 9];
            self.on_seen = [0; 9];
            self.on_seen[d] |= 1 << cell;
            let mut pending_on = vec![self.push(source)];
            let mut pending_off: Vec<u32> = Vec::new();
            let mut length = 0;
            while !pending_on.is_empty() || !pending_off.is_empty() {
                length += 1;
                for &i in &std::mem::take(&mut pending_on) {
                    let p = self.nodes[i as usize];
                    self.on_to_off(&p, y, &mut buf);
                    for &(c, o, cause) in &buf {
                        let repeat = self.off_seen[o as usize] >> c & 1 != 0;
                        if repeat && closing[o as usize] >> c & 1 == 0 {
                            continue;
                        }
                        if !self.is_parent(i, c, o, false) {
                            self.off_seen[o as usize] |= 1 << c;
                            let n = self.push(P {
                                cell: c,
                                digit: o,
                                on: false,
                                cause,
                                parent: i,
                            });
                            pending_off.push(n);
                        }
                    }
                }
                length += 1;
                for &i in &std::mem::take(&mut pending_off) {
                    let p = self.nodes[i as usize];
                    self.off_to_on(&p, y, x, &mut buf);
                    for &(c, o, cause) in &buf {
                        let q = P {
                            cell: c,
                            digit: o,
                            on: true,
                            cause,
                            parent: i,
                        };
                        let is_source = q.same(&source);
                        if length >= 4 && is_source {
                            cycles.push(self.push(q));
                        }
                        if self.on_seen[o as usize] >> c & 1 == 0 {
                            self.on_seen[o as usize] |= 1 << c;
                            let n = self.push(q);
                            pending_on.push(n);
                        }
                    }
                }
            }
        }
        for &end in &cycles {
            self.cycle_hint(end, y, x, sort);
        }
        if !x {
            return;
        }
        // doForcingChains from "on" (to the source off), then from "off"
        // (to the source on): at most one chain each.
        for start_on in [true, false] {
            let s = self.push(P {
                on: start_on,
                ..source
            });
            self.on_seen = [0; 9];
            self.off_seen = [0; 9];
            if start_on {
                self.on_seen[d] |= 1 << cell;
            } else {
                self.off_seen[d] |= 1 << cell;
            }
            let (mut pending_on, mut pending_off) = if start_on {
                (vec![s], Vec::new())
            } else {
                (Vec::new(), vec![s])
            };
            let mut target = NONE;
            while !pending_on.is_empty() || !pending_off.is_empty() {
                for &i in &std::mem::take(&mut pending_on) {
                    let p = self.nodes[i as usize];
                    self.on_to_off(&p, y, &mut buf);
                    for &(c, o, cause) in &buf {
                        let hit = start_on && c as usize == cell && o as usize == d;
                        self.reach(c, o, false, cause, i, hit, &mut target, &mut pending_off);
                    }
                }
                for &i in &std::mem::take(&mut pending_off) {
                    let p = self.nodes[i as usize];
                    self.off_to_on(&p, y, true, &mut buf);
                    for &(c, o, cause) in &buf {
                        let hit = !start_on && c as usize == cell && o as usize == d;
                        self.reach(c, o, true, cause, i, hit, &mut target, &mut pending_on);
                    }
                }
            }
            if target != NONE {
                self.chain_hint(target, y, x, sort);
            }
        }
    }

    /// `doForcingChains` reaching `(cell, digit)`, on or off, from node
    /// `parent`: the chain's end if it is the first `hit` (the start's
    /// opposite), and queued in `pending` the first time it is reached.
    #[allow(clippy::too_many_arguments)]
    fn reach(
        &mut self,
        cell: u8,
        digit: u8,
        on: bool,
        cause: u8,
        parent: u32,
        hit: bool,
        target: &mut u32,
        pending: &mut Vec<u32>,
    ) {
        let q = P {
            cell,
            digit,
            on,
            cause,
            parent,
        };
        if hit && *target == NONE {
            *target = self.push(q);
        }
        let seen = if on {
            &mut self.on_seen
        } else {
            &mut self.off_seen
        };
        if seen[digit as usize] >> cell & 1 == 0 {
            seen[digit as usize] |= 1 << cell;
            let n = self.push(q);
            pending.push(n);
        }
    }

    /// The path from node `i` up to its start.
    fn path(&self, mut i: u32) -> Vec<P> {
        let mut out = Vec::new();
        while i != NONE {
            let n = self.nodes[i as usize];
            out.push(n);
            i = n.parent;
        }
        out
    }

    /// serate's `createCycleHint` for the cycle ending (back at its start)
    /// at node `end`.
    fn cycle_hint(&mut self, end: u32, y: bool, x: bool, sort: u8) {
        let g = self.g;
        let path = self.path(end);
        // The cells of every potential but the start.
        let body = &path[..path.len() - 1];
        let mut cells = 0u128;
        for p in body {
            cells |= 1 << p.cell;
        }
        let mut forw: Vec<(u8, u8)> = Vec::new();
        let mut back = [0u128; 9];
        for p in body {
            let d = p.digit as usize;
            let m = PEERS[p.cell as usize] & !cells & g.digits[d];
            if p.on {
                for c in bits(m) {
                    if !forw.contains(&(c as u8, d as u8)) {
                        forw.push((c as u8, d as u8));
                    }
                }
            } else {
                back[d] |= m;
            }
        }
        let mut removals: Vec<(u8, u16)> = Vec::new();
        for &(c, d) in &forw {
            if back[d as usize] >> c & 1 != 0 {
                match removals.iter_mut().find(|e| e.0 == c) {
                    Some(e) => e.1 |= 1 << d,
                    None => removals.push((c, 1 << d)),
                }
            }
        }
        if removals.is_empty() {
            return;
        }
        java_order(&mut removals);
        // getAncestorCount(dstOn): the end equals the start.
        let complexity = body.len() as u32;
        let base = if x && y { 7.0 } else { 6.5 };
        self.hints.push(H {
            diff: base + length_difficulty(complexity),
            complexity,
            sort,
            removals,
            end,
            cycle: true,
        });
    }

    /// serate's `createForcingChainHint` for the chain ending at `target`
    /// (the start's opposite).
    fn chain_hint(&mut self, target: u32, y: bool, x: bool, sort: u8) {
        let t = self.nodes[target as usize];
        let (c, d) = (t.cell as usize, t.digit as usize);
        let mask = if t.on {
            self.g.cells[c] & !(1 << d)
        } else {
            1 << d
        };
        if mask == 0 {
            return;
        }
        let complexity = self.path(target).len() as u32;
        let base = if x && y { 7.0 } else { 6.6 };
        self.hints.push(H {
            diff: base + length_difficulty(complexity),
            complexity,
            sort,
            removals: vec![(c as u8, mask)],
            end: target,
            cycle: false,
        });
    }
}

/// Every hint of serate's `Forcing Chains & Cycles` on `cur` that has rule
/// parents against `src`, in serate's order, appended to `out` with each
/// removal naming its chain in `reg`.
pub(crate) fn forcing_chains_cycles(src: &Grid, cur: &Grid, out: &mut Found, reg: &mut Registry) {
    let mut s = Loops::new(cur);
    // Per start its nodes are rebuilt, so each hint keeps its own path.
    let mut paths: Vec<(Vec<P>, H)> = Vec::new();
    for (y, x, sort) in [(false, true, 2u8), (true, false, 3), (true, true, 4)] {
        for cell in bits(cur.empty) {
            if cur.cells[cell].count_ones() <= 1 {
                continue;
            }
            for d in bits(cur.cells[cell] as u128) {
                s.unary(cell, d, y, x, sort);
                for h in std::mem::take(&mut s.hints) {
                    paths.push((s.path(h.end), h));
                }
            }
        }
    }
    // getHintList's stable sort, then its LinkedHashSet by removals.
    paths.sort_by(|(_, a), (_, b)| {
        hint_order(
            (a.diff, a.complexity, a.sort),
            (b.diff, b.complexity, b.sort),
        )
    });
    let mut seen: HashSet<Vec<(u8, u16)>> = HashSet::new();
    for (path, h) in paths {
        let mut key = h.removals.clone();
        key.sort_unstable();
        if !seen.insert(key) {
            continue;
        }
        // Rule parents: each link of the chain whose cause is a cell or a
        // region, on its side "on" (for a cycle both directions are
        // chains, so every link but the start), gives the candidates the
        // outer net removed there.
        let mut parents: Vec<(u8, u8)> = Vec::new();
        for p in &path {
            if p.cause == START || (!h.cycle && !p.on) {
                continue;
            }
            advanced::link_parents(
                src,
                cur,
                p.cell as usize,
                p.digit as usize,
                p.cause,
                &mut parents,
            );
        }
        if parents.is_empty() {
            continue;
        }
        let mut signature: Vec<u16> = vec![h.cycle as u16];
        signature.extend(path.iter().map(|p| p.pid()));
        let id = reg.id(signature, h.complexity);
        out.add(parents, &h.removals, id);
    }
}
