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
use super::chains::{hint_order, length_difficulty, to_tenths};
use super::grid::{bits, box_of, col_of, row_of, Grid, PEERS, REGION};
use super::reach::{cycle_closers, Reach};
use super::{InnerChain, Technique};

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
    chains: Vec<InnerChain>,
}

impl Registry {
    /// The id of the chain of `signature`, registered with its complexity
    /// and what `describe` says of it when it is new.
    pub fn id(
        &mut self,
        signature: Vec<u16>,
        complexity: u32,
        describe: impl FnOnce() -> InnerChain,
    ) -> u32 {
        let next = self.complexity.len() as u32;
        let id = *self.ids.entry(signature).or_insert(next);
        if id == next {
            self.complexity.push(complexity);
            self.chains.push(describe());
        }
        id
    }

    /// The complexity of nested chain `id`.
    pub fn complexity(&self, id: u32) -> u32 {
        self.complexity[id as usize]
    }

    /// What nested chain `id` is ([`crate::rate::Step::inner`]).
    pub fn chain(&self, id: u32) -> &InnerChain {
        &self.chains[id as usize]
    }
}

/// `(cell, digit mask)` removals (bit `d` for digit `d + 1`) as (cell,
/// digit) pairs, by cell then digit.
pub(crate) fn removal_pairs(removals: &[(u8, u16)]) -> Vec<(u8, u8)> {
    let mut out: Vec<(u8, u8)> = removals
        .iter()
        .flat_map(|&(c, m)| bits(m as u128).map(move |d| (c, d as u8 + 1)))
        .collect();
    out.sort_unstable();
    out
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

/// Which potentials each "on" reaches through the links of a grid that
/// does not change: the nets of Multiple Forcing Chains are exactly these
/// sets (up to a contradiction, which stops a net early), so a cell or
/// region whose starts reach nothing in common has no reduction, and its
/// nets need not run.
pub(crate) struct Static {
    reach: Reach,
}

impl Static {
    pub fn new(g: &Grid) -> Static {
        let mut s = Loops::new(g);
        s.closure(true, 0x1ff);
        Static { reach: s.reach }
    }

    /// Whether some potential is reached from the "on" of every candidate
    /// `(cell, digit)` of `starts`.
    pub fn common(&self, starts: impl Iterator<Item = (usize, usize)>) -> bool {
        let r = &self.reach;
        let mut acc = [u64::MAX; 23];
        for (c, d) in starts {
            let comp = r.comp[r.on(c, d)] as usize;
            let set = &r.sets[comp * r.words..(comp + 1) * r.words];
            for (a, &w) in acc.iter_mut().zip(set) {
                *a &= w;
            }
        }
        acc[..r.words].iter().any(|&w| w != 0)
    }
}

/// A hint before sorting.
#[derive(Clone)]
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
    /// Scratch lists of a search, kept between starts.
    buf: Vec<(u8, u8, u8)>,
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    level: Vec<u32>,
    cycles: Vec<u32>,
    /// The starts whose `doForcingChains` reaches its opposite, from "on"
    /// and from "off", for the pass at hand ([`Loops::closure`]).
    hit_on: [u128; 9],
    hit_off: [u128; 9],
    reach: Reach,
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
            buf: Vec::with_capacity(32),
            pending_on: Vec::with_capacity(256),
            pending_off: Vec::with_capacity(256),
            level: Vec::with_capacity(256),
            cycles: Vec::new(),
            hit_on: [0; 9],
            hit_off: [0; 9],
            reach: Reach::default(),
        }
    }

    /// Sets [`Loops::hit_on`] and [`Loops::hit_off`] for a pass with
    /// X links and, when `y`, Y links: every start at once, from the
    /// strongly connected components of the links and the potentials each
    /// component reaches (a bit set per component, sinks first), instead
    /// of a search per start ([`Loops::reaches`], kept as the tests'
    /// oracle).
    ///
    /// Only the candidates of the digits in `only` are nodes: without Y
    /// links, no link leaves a digit.
    fn closure(&mut self, y: bool, only: u16) {
        (self.hit_on, self.hit_off) = self.reach.links(self.g, y, only);
    }

    /// Whether `doForcingChains` from `(cell, d)`, on or off, reaches its
    /// opposite: the closure of its links, as sets (every potential once,
    /// as that search keeps them), without the paths. Most starts reach
    /// nothing, and the search that builds the chain runs only on those
    /// that do.
    #[cfg(test)]
    fn reaches(&self, cell: usize, d: usize, start_on: bool, y: bool) -> bool {
        let g = self.g;
        let mut on = [0u128; 9];
        let mut off = [0u128; 9];
        let mut new_on = [0u128; 9];
        let mut new_off = [0u128; 9];
        if start_on {
            on[d] = 1 << cell;
            new_on[d] = 1 << cell;
        } else {
            off[d] = 1 << cell;
            new_off[d] = 1 << cell;
        }
        loop {
            let mut more = false;
            for dd in 0..9 {
                for c in bits(std::mem::take(&mut new_on[dd])) {
                    let m = PEERS[c] & g.digits[dd] & !off[dd];
                    off[dd] |= m;
                    new_off[dd] |= m;
                    more |= m != 0;
                    if y {
                        for od in bits(g.cells[c] as u128 & !(1 << dd)) {
                            if off[od] >> c & 1 == 0 {
                                off[od] |= 1 << c;
                                new_off[od] |= 1 << c;
                                more = true;
                            }
                        }
                    }
                }
            }
            if start_on && off[d] >> cell & 1 != 0 {
                return true;
            }
            for dd in 0..9 {
                for c in bits(std::mem::take(&mut new_off[dd])) {
                    let k = c * 9 + dd;
                    if y && self.y_on[k] != NO {
                        let od = self.y_on[k] as usize;
                        if on[od] >> c & 1 == 0 {
                            on[od] |= 1 << c;
                            new_on[od] |= 1 << c;
                            more = true;
                        }
                    }
                    for &(t, _) in &self.x_on[k][..self.x_n[k] as usize] {
                        if on[dd] >> t & 1 == 0 {
                            on[dd] |= 1 << t;
                            new_on[dd] |= 1 << t;
                            more = true;
                        }
                    }
                }
            }
            if !start_on && on[d] >> cell & 1 != 0 {
                return true;
            }
            if !more {
                return false;
            }
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
        let mut buf = std::mem::take(&mut self.buf);
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
        let mut cycles = std::mem::take(&mut self.cycles);
        cycles.clear();
        let mut pending_on = std::mem::take(&mut self.pending_on);
        let mut pending_off = std::mem::take(&mut self.pending_off);
        let mut level = std::mem::take(&mut self.level);
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
            // A cycle is an "on" past the start that makes a closing "off"
            // off its own path. With the pass's closure at hand (X
            // links), those "on"s the start reaches are known: once all
            // are expanded no cycle is left, and the search stops there.
            let mut wait = [0u128; 9];
            let mut left = u32::MAX;
            if x {
                wait = cycle_closers(self.g, &closing, cell, d, y);
                let r = &self.reach;
                let from = r.on(cell, d);
                left = 0;
                for (dd, w) in wait.iter_mut().enumerate() {
                    for c in bits(*w) {
                        if r.reaches(from, r.on(c, dd)) {
                            left += 1;
                        } else {
                            *w &= !(1 << c);
                        }
                    }
                }
            }
            self.off_seen = [0; 9];
            self.on_seen = [0; 9];
            self.on_seen[d] |= 1 << cell;
            pending_on.clear();
            pending_off.clear();
            pending_on.push(self.push(source));
            let mut length = 0;
            while left > 0 && (!pending_on.is_empty() || !pending_off.is_empty()) {
                length += 1;
                std::mem::swap(&mut level, &mut pending_on);
                pending_on.clear();
                for &i in &level {
                    let p = self.nodes[i as usize];
                    let (pc, pd) = (p.cell as usize, p.digit as usize);
                    if wait[pd] >> pc & 1 != 0 {
                        wait[pd] &= !(1 << pc);
                        left -= 1;
                    }
                    // getOnToOff's order: the cell's other digits, then the
                    // digit in the box, row, column. Offs seen before that
                    // close no cycle are skipped as sets (the three masks
                    // are disjoint, so none is made twice here).
                    if y {
                        for o in bits(self.g.cells[pc] as u128 & !(1 << pd)) {
                            self.cycle_off(i, pc as u8, o as u8, CELL, &closing, &mut pending_off);
                        }
                    }
                    let keep = !self.off_seen[pd] | closing[pd];
                    let others = self.g.digits[pd] & !(1u128 << pc) & keep;
                    let b = REGION[box_of(pc)];
                    for (m, cause) in [
                        (others & b, BOX),
                        (others & REGION[9 + row_of(pc)] & !b, ROW),
                        (others & REGION[18 + col_of(pc)] & !b, COL),
                    ] {
                        for oc in bits(m) {
                            self.cycle_off(
                                i,
                                oc as u8,
                                pd as u8,
                                cause,
                                &closing,
                                &mut pending_off,
                            );
                        }
                    }
                }
                length += 1;
                std::mem::swap(&mut level, &mut pending_off);
                pending_off.clear();
                for &i in &level {
                    let p = self.nodes[i as usize];
                    let k = p.cell as usize * 9 + p.digit as usize;
                    // getOffToOn's order: the cell's other digit, then the
                    // digit's other place in the box, row, column.
                    if y && self.y_on[k] != NO {
                        let q = P {
                            cell: p.cell,
                            digit: self.y_on[k],
                            on: true,
                            cause: CELL,
                            parent: i,
                        };
                        self.cycle_on(q, &source, length, &mut cycles, &mut pending_on);
                    }
                    if x {
                        let targets = self.x_on[k];
                        for &(t, cause) in &targets[..self.x_n[k] as usize] {
                            let q = P {
                                cell: t,
                                digit: p.digit,
                                on: true,
                                cause,
                                parent: i,
                            };
                            self.cycle_on(q, &source, length, &mut cycles, &mut pending_on);
                        }
                    }
                }
            }
        }
        for &end in &cycles {
            self.cycle_hint(end, y, x, sort);
        }
        self.cycles = cycles;
        if x {
            // doForcingChains from "on" (to the source off), then from "off"
            // (to the source on): at most one chain each.
            for start_on in [true, false] {
                let hits = if start_on {
                    &self.hit_on
                } else {
                    &self.hit_off
                };
                if hits[d] >> cell & 1 != 0 {
                    self.forcing_chain(
                        cell,
                        d,
                        start_on,
                        y,
                        sort,
                        &mut buf,
                        &mut pending_on,
                        &mut pending_off,
                        &mut level,
                    );
                }
            }
        }
        self.buf = buf;
        self.pending_on = pending_on;
        self.pending_off = pending_off;
        self.level = level;
    }

    /// `doForcingChains` from `(cell, d)`, on or off, up to the first time
    /// it reaches its opposite, whose chain becomes a hint.
    #[allow(clippy::too_many_arguments)]
    fn forcing_chain(
        &mut self,
        cell: usize,
        d: usize,
        start_on: bool,
        y: bool,
        sort: u8,
        buf: &mut Vec<(u8, u8, u8)>,
        pending_on: &mut Vec<u32>,
        pending_off: &mut Vec<u32>,
        level: &mut Vec<u32>,
    ) {
        {
            let s = self.push(P {
                cell: cell as u8,
                digit: d as u8,
                cause: START,
                parent: NONE,
                on: start_on,
            });
            self.on_seen = [0; 9];
            self.off_seen = [0; 9];
            if start_on {
                self.on_seen[d] |= 1 << cell;
            } else {
                self.off_seen[d] |= 1 << cell;
            }
            pending_on.clear();
            pending_off.clear();
            if start_on {
                pending_on.push(s);
            } else {
                pending_off.push(s);
            }
            let mut target = NONE;
            // The chain is the path to the first hit: the search stops there.
            while target == NONE && (!pending_on.is_empty() || !pending_off.is_empty()) {
                std::mem::swap(level, pending_on);
                pending_on.clear();
                for &i in level.iter() {
                    let p = self.nodes[i as usize];
                    self.on_to_off(&p, y, buf);
                    for &(c, o, cause) in buf.iter() {
                        let hit = start_on && c as usize == cell && o as usize == d;
                        self.reach(c, o, false, cause, i, hit, &mut target, pending_off);
                    }
                }
                std::mem::swap(level, pending_off);
                pending_off.clear();
                for &i in level.iter() {
                    let p = self.nodes[i as usize];
                    self.off_to_on(&p, y, true, buf);
                    for &(c, o, cause) in buf.iter() {
                        let hit = !start_on && c as usize == cell && o as usize == d;
                        self.reach(c, o, true, cause, i, hit, &mut target, pending_on);
                    }
                }
            }
            if target != NONE {
                self.chain_hint(target, y, true, sort);
            }
        }
    }

    /// doCycles making `(cell, digit)` off from "on" node `parent`: kept
    /// unless seen before and not closing, or on the parent's path.
    fn cycle_off(
        &mut self,
        parent: u32,
        cell: u8,
        digit: u8,
        cause: u8,
        closing: &[u128; 9],
        pending: &mut Vec<u32>,
    ) {
        let repeat = self.off_seen[digit as usize] >> cell & 1 != 0;
        if repeat && closing[digit as usize] >> cell & 1 == 0 {
            return;
        }
        // An "off" never seen is on no path.
        if !repeat || !self.is_parent(parent, cell, digit, false) {
            self.off_seen[digit as usize] |= 1 << cell;
            let n = self.push(P {
                cell,
                digit,
                on: false,
                cause,
                parent,
            });
            pending.push(n);
        }
    }

    /// doCycles making `q` on: a cycle when it is the source again (at
    /// `length` 4 or more), queued the first time.
    fn cycle_on(
        &mut self,
        q: P,
        source: &P,
        length: u32,
        cycles: &mut Vec<u32>,
        pending: &mut Vec<u32>,
    ) {
        if length >= 4 && q.same(source) {
            cycles.push(self.push(q));
        }
        let (c, o) = (q.cell, q.digit as usize);
        if self.on_seen[o] >> c & 1 == 0 {
            self.on_seen[o] |= 1 << c;
            let n = self.push(q);
            pending.push(n);
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

/// The hints of one digit's X cycles and X forcing chains on a grid, in
/// the order they are found, each with its start cell and path.
type XHints = Vec<XHint>;

/// One of [`XHints`]: start cell, path, hint.
type XHint = (u8, Vec<P>, H);

/// A digit's X pass depends only on its places and which of them are a
/// cell's last candidate (those start nothing): the key of [`X_MEMO`].
type XKey = (u8, u128, u128);

thread_local! {
    /// The X pass per digit, kept between grids on the thread: the nets
    /// of a step drain on many grids that share most digits' places.
    static X_MEMO: std::cell::RefCell<HashMap<XKey, std::rc::Rc<XHints>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// The X pass (sort 2: X cycles and X forcing chains) of `s`'s grid,
/// appended to `paths` in serate's order (starts by cell, then digit). A
/// digit whose places were seen before on the thread reuses its hints;
/// an "on" target's removals (the rest of its cell) are taken from this
/// grid.
fn x_pass(s: &mut Loops, paths: &mut Vec<(Vec<P>, H)>) {
    let g = s.g;
    let mut single = 0u128;
    for c in bits(g.empty) {
        if g.cells[c].count_ones() <= 1 {
            single |= 1 << c;
        }
    }
    let key = |d: usize| (d as u8, g.digits[d], g.digits[d] & single);
    let mut per: Vec<std::rc::Rc<XHints>> = Vec::with_capacity(9);
    let mut miss = 0u16;
    X_MEMO.with(|m| {
        let m = m.borrow();
        for d in 0..9 {
            match m.get(&key(d)) {
                Some(h) => per.push(h.clone()),
                None => {
                    miss |= 1 << d;
                    per.push(Default::default());
                }
            }
        }
    });
    if miss != 0 {
        s.closure(false, miss);
        let mut made: Vec<XHints> = (0..9).map(|_| Vec::new()).collect();
        for cell in bits(g.empty & !single) {
            for d in bits((g.cells[cell] & miss) as u128) {
                s.unary(cell, d, false, true, 2);
                for h in std::mem::take(&mut s.hints) {
                    made[d].push((cell as u8, s.path(h.end), h));
                }
            }
        }
        X_MEMO.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= 1 << 15 {
                m.clear();
            }
            for d in bits(miss as u128) {
                let h = std::rc::Rc::new(std::mem::take(&mut made[d]));
                m.insert(key(d), h.clone());
                per[d] = h;
            }
        });
    }
    let mut all: Vec<(u8, u8, &XHint)> = Vec::new();
    for (d, hints) in per.iter().enumerate() {
        all.extend(hints.iter().map(|e| (e.0, d as u8, e)));
    }
    // Stable: a start's hints keep their order.
    all.sort_by_key(|e| (e.0, e.1));
    for &(_, _, (_, path, h)) in &all {
        let mut h = h.clone();
        let t = path[0];
        if !h.cycle && t.on {
            h.removals = vec![(t.cell, g.cells[t.cell as usize] & !(1 << t.digit))];
        }
        paths.push((path.clone(), h));
    }
}

/// Every hint of serate's `Forcing Chains & Cycles` on `cur` that has rule
/// parents against `src`, in serate's order, appended to `out` with each
/// removal naming its chain in `reg`.
pub(crate) fn forcing_chains_cycles(src: &Grid, cur: &Grid, out: &mut Found, reg: &mut Registry) {
    let mut s = Loops::new(cur);
    // Per start its nodes are rebuilt, so each hint keeps its own path.
    let mut paths: Vec<(Vec<P>, H)> = Vec::new();
    x_pass(&mut s, &mut paths);
    for (y, x, sort) in [(true, false, 3), (true, true, 4)] {
        if x {
            s.closure(y, 0x1ff);
        }
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
        let id = reg.id(signature, h.complexity, || {
            let mut cells: Vec<u8> = Vec::new();
            for p in &path {
                if !cells.contains(&p.cell) {
                    cells.push(p.cell);
                }
            }
            InnerChain {
                technique: Technique::ForcingChainCycle,
                rating: to_tenths(h.diff),
                eliminated: removal_pairs(&h.removals),
                cells,
            }
        });
        out.add(parents, &h.removals, id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closure of every start at once agrees with a search per start,
    /// on hard puzzles' grids with random candidates taken away (as the
    /// working grids of nets are).
    #[test]
    fn closure_matches_a_search_per_start() {
        let puzzles = [
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
            "........1..2..3.4..5.24.67...53...8.6....5...9...8......7.3..5..1...2..7.9.7..4..",
            "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8",
        ];
        let mut rng = crate::disguise::Rng::new(44);
        let (mut hits, mut misses) = (0, 0);
        for p in puzzles {
            let cells: Vec<u8> = p.bytes().map(|b| b.saturating_sub(b'0') % 10).collect();
            for round in 0..12 {
                let mut g = Grid::new(&cells);
                // Round 0 keeps the grid whole; later ones drop up to a
                // quarter of the candidates.
                for _ in 0..round * 6 {
                    let c = rng.below(81) as usize;
                    let d = rng.below(9) as u8 + 1;
                    g.eliminate(d, 1 << c);
                }
                let mut s = Loops::new(&g);
                for y in [false, true] {
                    s.closure(y, 0x1ff);
                    for c in bits(g.empty) {
                        for d in bits(g.cells[c] as u128) {
                            for on in [true, false] {
                                let want = s.reaches(c, d, on, y);
                                let hit = if on { s.hit_on[d] } else { s.hit_off[d] };
                                assert_eq!(
                                    hit >> c & 1 != 0,
                                    want,
                                    "{p} round {round} y {y} r{}c{} {} on {on}",
                                    c / 9 + 1,
                                    c % 9 + 1,
                                    d + 1
                                );
                                if want {
                                    hits += 1;
                                } else {
                                    misses += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(hits > 0 && misses > 0, "{hits} hits, {misses} misses");
    }
}
