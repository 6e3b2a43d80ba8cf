//! Forcing chains that follow every consequence of an assumption: serate's
//! `Chaining.doChaining` and the multiple-chain hints built on it, for
//! `Nishio Forcing Chains` (7.5), `Multiple Forcing Chains` (8.0) and
//! `Dynamic Forcing Chains` (8.5), as [`super::Technique::find`] calls them
//! on the rater's candidate grid.
//!
//! One [`Net`] is serate's `doChaining` from one assumption: a queue of
//! "on" potentials (each served before any "off"), and of "off" ones; an
//! "on" makes off the other digits of its cell (not for Nishio) and its
//! digit in its box, row, column; an "off" makes on the other digit of a
//! bivalue cell (not for Nishio) and the only other place of its digit in
//! a box, row, column. In the dynamic techniques (Nishio, Dynamic) each
//! "off" is also removed from a working copy of the grid once served, so
//! later cells and regions see fewer candidates; such an "on" then has, as
//! extra parents, the "off"s that emptied its cell or region (serate's
//! hidden parents). The first potential that would be both on and off
//! stops the net (a contradiction).
//!
//! Hints are rated by serate's `getComplexity`: the number of distinct
//! potentials among the ancestors of each chain's end, summed over the
//! chains. With one base rating per technique, serate's sort (difficulty,
//! complexity, kind, then its order) is complexity, kind, order: we keep
//! the first hint of the smallest (complexity, kind) in serate's order.

use super::advanced::{self, BOX, CELL, COL, ROW};
use super::chains::{hint_order, length_difficulty, to_tenths};
use super::grid::{bits, box_of, col_of, row_of, Grid, REGION};
use super::nested::{self, Registry};
use super::{Hint, InnerChain, Technique};
use std::collections::HashMap;

const NONE: u32 = u32::MAX;

/// A potential: candidate `digit` (0-8) of `cell`, on or off, with its
/// parents (`parents[start..start + len]` of its [`Net`]).
#[derive(Clone, Copy)]
struct Node {
    cell: u8,
    digit: u8,
    on: bool,
    start: u32,
    len: u32,
    /// The nested chain this "off" comes from ([`Registry`] id), or NONE.
    nested: u32,
    /// How an "on" follows from its parents: [`CELL`] (the cell's last
    /// digit), [`BOX`], [`ROW`], [`COL`] (the region's last place), or 0
    /// (the assumption; every "off").
    cause: u8,
}

impl Node {
    /// Potential id: candidate * 2 + on.
    #[inline]
    fn pid(&self) -> usize {
        (self.cell as usize * 9 + self.digit as usize) * 2 + self.on as usize
    }
}

#[inline]
fn pid(cell: usize, digit: usize, on: bool) -> usize {
    (cell * 9 + digit) * 2 + on as usize
}

/// The outcome of one assumption (serate's `toOn`/`toOff` sets after
/// `doChaining`).
struct Net {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    /// Node of each potential id in the sets, or NONE.
    idx: Vec<u32>,
    /// The "on" and "off" nodes in the order they were added.
    ons: Vec<u32>,
    offs: Vec<u32>,
    /// The contradiction that stopped the net: its "on" and "off" nodes.
    absurd: Option<(u32, u32)>,
    queue_on: Vec<u32>,
    queue_off: Vec<u32>,
    /// Scratch space of the advanced implications (levels above 0).
    found: advanced::Found,
}

impl Net {
    fn new() -> Net {
        Net {
            nodes: Vec::with_capacity(1500),
            parents: Vec::with_capacity(3000),
            idx: vec![NONE; 1458],
            ons: Vec::with_capacity(729),
            offs: Vec::with_capacity(729),
            absurd: None,
            queue_on: Vec::with_capacity(729),
            queue_off: Vec::with_capacity(729),
            found: advanced::Found::default(),
        }
    }

    fn clear(&mut self) {
        for &n in self.ons.iter().chain(self.offs.iter()) {
            let p = self.nodes[n as usize].pid();
            self.idx[p] = NONE;
        }
        self.nodes.clear();
        self.parents.clear();
        self.ons.clear();
        self.offs.clear();
        self.absurd = None;
        self.queue_on.clear();
        self.queue_off.clear();
    }

    /// Node of the potential, if in the sets.
    #[inline]
    fn get(&self, cell: usize, digit: usize, on: bool) -> Option<u32> {
        let i = self.idx[pid(cell, digit, on)];
        (i != NONE).then_some(i)
    }

    /// A new node (not yet in the sets) with the given parents.
    fn node(&mut self, cell: usize, digit: usize, on: bool, parents: &[u32]) -> u32 {
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.nodes.push(Node {
            cell: cell as u8,
            digit: digit as u8,
            on,
            start,
            len: parents.len() as u32,
            nested: NONE,
            cause: 0,
        });
        (self.nodes.len() - 1) as u32
    }

    fn add(&mut self, n: u32) {
        let node = self.nodes[n as usize];
        self.idx[node.pid()] = n;
        if node.on {
            self.ons.push(n);
            self.queue_on.push(n);
        } else {
            self.offs.push(n);
            self.queue_off.push(n);
        }
    }

    /// serate's `doChaining` from one assumption on grid `g`: `y` is its
    /// cell rules (off for Nishio), `dynamic` its grid updates, `level`
    /// its nesting level (above 0, the [`advanced`] implications are added
    /// each time both queues are empty).
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        g: &Grid,
        cell: usize,
        digit: usize,
        on: bool,
        y: bool,
        dynamic: bool,
        level: u8,
        sh: &mut Shared,
    ) {
        self.clear();
        let n = self.node(cell, digit, on, &[]);
        self.add(n);
        let mut cells = g.cells;
        let mut digits = g.digits;
        let (mut hon, mut hoff) = (0usize, 0usize);
        let mut buf: Vec<u32> = Vec::with_capacity(16);
        let mut made: [(u8, u8, u32, u32, u8); 4] = [(0, 0, 0, 0, 0); 4];
        loop {
            if hon < self.queue_on.len() {
                let pi = self.queue_on[hon];
                hon += 1;
                let p = self.nodes[pi as usize];
                let (c, d) = (p.cell as usize, p.digit as usize);
                // Other digits of the cell, then the digit's other places.
                let gen = |s: &mut Net, oc: usize, od: usize| -> bool {
                    if let Some(on_node) = s.get(oc, od, true) {
                        let t = s.node(oc, od, false, &[pi]);
                        s.absurd = Some((on_node, t));
                        return true;
                    }
                    if s.get(oc, od, false).is_none() {
                        let t = s.node(oc, od, false, &[pi]);
                        s.add(t);
                    }
                    false
                };
                if y {
                    for od in bits(cells[c] as u128 & !(1 << d)) {
                        if gen(self, c, od) {
                            return;
                        }
                    }
                }
                let others = digits[d] & !(1u128 << c);
                let b = REGION[box_of(c)];
                for m in [
                    others & b,
                    others & REGION[9 + row_of(c)] & !b,
                    others & REGION[18 + col_of(c)] & !b,
                ] {
                    for oc in bits(m) {
                        if gen(self, oc, d) {
                            return;
                        }
                    }
                }
            } else if hoff < self.queue_off.len() {
                let pi = self.queue_off[hoff];
                hoff += 1;
                let p = self.nodes[pi as usize];
                let (c, d) = (p.cell as usize, p.digit as usize);
                // (cell, digit, parents start, parents end) in `buf`.
                let mut k = 0;
                buf.clear();
                if y && cells[c].count_ones() == 2 {
                    let od = (cells[c] & !(1 << d)).trailing_zeros() as usize;
                    let s = buf.len() as u32;
                    buf.push(pi);
                    for v in bits((g.cells[c] & !cells[c]) as u128) {
                        buf.push(self.hidden(c, v));
                    }
                    made[k] = (c as u8, od as u8, s, buf.len() as u32, CELL);
                    k += 1;
                }
                let others = digits[d] & !(1u128 << c);
                for (r, cause) in [
                    (box_of(c), BOX),
                    (9 + row_of(c), ROW),
                    (18 + col_of(c), COL),
                ] {
                    let pos = others & REGION[r];
                    if pos.count_ones() != 1 {
                        continue;
                    }
                    let t = pos.trailing_zeros() as u8;
                    if made[..k].iter().any(|m| m.0 == t && m.1 == d as u8) {
                        continue;
                    }
                    let s = buf.len() as u32;
                    buf.push(pi);
                    for hc in bits(g.digits[d] & REGION[r] & !digits[d]) {
                        buf.push(self.hidden(hc, d));
                    }
                    made[k] = (t, d as u8, s, buf.len() as u32, cause);
                    k += 1;
                }
                if dynamic {
                    cells[c] &= !(1 << d);
                    digits[d] &= !(1u128 << c);
                }
                for &(mc, md, s, e, cause) in &made[..k] {
                    let (mc, md) = (mc as usize, md as usize);
                    if let Some(off_node) = self.get(mc, md, false) {
                        let t = self.node(mc, md, true, &buf[s as usize..e as usize]);
                        self.nodes[t as usize].cause = cause;
                        self.absurd = Some((t, off_node));
                        return;
                    }
                    if self.get(mc, md, true).is_none() {
                        let t = self.node(mc, md, true, &buf[s as usize..e as usize]);
                        self.nodes[t as usize].cause = cause;
                        self.add(t);
                    }
                }
            } else if level > 0 {
                let cur = Grid {
                    values: g.values,
                    cells,
                    digits,
                    empty: g.empty,
                };
                let mut found = std::mem::take(&mut self.found);
                basic_rules(g, &cur, &mut found);
                if found.removals.is_empty() && level >= 2 {
                    nested_rules(g, &cur, level, &mut found, sh);
                }
                let mut any = false;
                for &(c, d, s, e, chain) in &found.removals {
                    let (c, d) = (c as usize, d as usize);
                    if self.get(c, d, false).is_some() {
                        continue;
                    }
                    buf.clear();
                    for &(pc, pd) in &found.parents[s as usize..e as usize] {
                        buf.push(self.hidden(pc as usize, pd as usize));
                    }
                    let t = self.node(c, d, false, &buf);
                    self.nodes[t as usize].nested = chain;
                    self.add(t);
                    any = true;
                }
                self.found = found;
                if !any {
                    return;
                }
            } else {
                return;
            }
        }
    }

    /// The "off" node of a candidate removed from the working grid.
    fn hidden(&self, cell: usize, digit: usize) -> u32 {
        self.get(cell, digit, false)
            .expect("a removed candidate is off in the net")
    }

    /// serate's `getAncestorCount`: distinct potentials among `n` and its
    /// ancestors (`seen` is scratch space, left clear).
    fn ancestors(&self, n: u32, seen: &mut Scratch) -> u32 {
        seen.stack.clear();
        seen.stack.push(n);
        seen.mark[self.nodes[n as usize].pid()] = true;
        seen.marked.clear();
        seen.marked.push(self.nodes[n as usize].pid() as u16);
        while let Some(i) = seen.stack.pop() {
            let node = self.nodes[i as usize];
            if node.nested != NONE && !seen.nested.contains(&node.nested) {
                seen.nested.push(node.nested);
            }
            for &p in &self.parents[node.start as usize..(node.start + node.len) as usize] {
                let id = self.nodes[p as usize].pid();
                if !seen.mark[id] {
                    seen.mark[id] = true;
                    seen.marked.push(id as u16);
                    seen.stack.push(p);
                }
            }
        }
        let count = seen.marked.len() as u32;
        for &id in &seen.marked {
            seen.mark[id as usize] = false;
        }
        count
    }

    /// serate's `collectRuleParents` for the chain ending at node `n`, as a
    /// hint nested in a net started on `src` whose working grid is `cur`:
    /// each "on" among `n` and its ancestors that follows from its cell or
    /// region (the assumption from `root`, 0 for none) gives the candidates
    /// of that cell, or of its digit in that region, `src` has and `cur`
    /// lacks. Also appends the chain's potentials to `sig` (sorted ids).
    #[allow(clippy::too_many_arguments)]
    fn rule_parents(
        &self,
        n: u32,
        root: u8,
        src: &Grid,
        cur: &Grid,
        out: &mut Vec<(u8, u8)>,
        sig: &mut Vec<u16>,
        seen: &mut Scratch,
    ) {
        let mut ids: Vec<u16> = Vec::new();
        let nodes: Vec<u32> = {
            let mut v = Vec::with_capacity(ids.len());
            seen.stack.clear();
            seen.stack.push(n);
            seen.mark[self.nodes[n as usize].pid()] = true;
            let mut marked = vec![self.nodes[n as usize].pid() as u16];
            while let Some(i) = seen.stack.pop() {
                v.push(i);
                let node = self.nodes[i as usize];
                for &p in &self.parents[node.start as usize..(node.start + node.len) as usize] {
                    let id = self.nodes[p as usize].pid();
                    if !seen.mark[id] {
                        seen.mark[id] = true;
                        marked.push(id as u16);
                        seen.stack.push(p);
                    }
                }
            }
            for &id in &marked {
                seen.mark[id as usize] = false;
            }
            ids = marked;
            ids.sort_unstable();
            v
        };
        for i in nodes {
            let node = self.nodes[i as usize];
            if !node.on {
                continue;
            }
            let cause = if node.cause == 0 && node.len == 0 {
                root
            } else {
                node.cause
            };
            let (c, d) = (node.cell as usize, node.digit as usize);
            advanced::link_parents(src, cur, c, d, cause, out);
        }
        sig.push(u16::MAX);
        sig.extend_from_slice(&ids);
    }
}

/// Scratch space of [`Net::ancestors`].
struct Scratch {
    mark: Vec<bool>,
    marked: Vec<u16>,
    stack: Vec<u32>,
    /// The nested chains met among the ancestors since the last
    /// [`Finder::offer`] (each once).
    nested: Vec<u32>,
}

/// Which technique: serate's `Chaining(isMultiple, isDynamic, isNishio)`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Nishio,
    Multiple,
    Dynamic,
    /// Dynamic chains with serate's nesting `level`: 1 Dynamic Forcing
    /// Chains (+), 2 and 3 Nested Forcing Chains, 4 + n level 4 with
    /// nesting limit n (its nets run Dynamic Forcing Chains of level n).
    Nested(u8),
}

/// A hint of the all-hints mode, before serate's sort.
struct Collected {
    diff: f64,
    complexity: u32,
    sort: u8,
    /// `(cell, digit mask)`: these hints remove from one cell.
    removals: Vec<(u8, u16)>,
    parents: Vec<(u8, u8)>,
    signature: Vec<u16>,
}

/// The all-hints mode: the grid the outer net started on (rule parents are
/// counted against it) and the hints found.
struct All<'a> {
    src: &'a Grid,
    hints: Vec<Collected>,
}

/// The best hint so far: (complexity, kind), and the hint; or, in the
/// all-hints mode, every hint.
struct Finder<'a> {
    g: &'a Grid,
    tech: Technique,
    base: f64,
    best: Option<((u32, u8), Hint)>,
    scratch: Scratch,
    sh: Shared,
    all: Option<All<'a>>,
}

impl Finder<'_> {
    /// The largest complexity still worth computing for a hint of `sort`.
    fn limit(&self, sort: u8) -> u32 {
        if self.all.is_some() {
            return u32::MAX;
        }
        match &self.best {
            None => u32::MAX,
            Some(((c, s), _)) => {
                if sort < *s {
                    *c
                } else {
                    c.saturating_sub(1)
                }
            }
        }
    }

    /// Offers a hint of flat complexity `flat` (its chains' ancestors); the
    /// nested chains met among them add their own complexity, each once
    /// (serate's `getNestedComplexity`).
    /// In the all-hints mode the hint is kept with its chains' rule
    /// parents: `targets` are its chains' ends, `root` the cause of their
    /// assumptions (see [`Net::rule_parents`]).
    fn offer(
        &mut self,
        flat: u32,
        sort: u8,
        targets: &[(&Net, u32)],
        root: u8,
        make: impl FnOnce(Technique, u8) -> Hint,
    ) {
        let nested: u32 = self
            .scratch
            .nested
            .iter()
            .map(|&id| self.sh.reg.complexity(id))
            .sum();
        let complexity = flat + nested;
        let key = (complexity, sort);
        let better = self.all.is_none() && self.best.as_ref().is_none_or(|(b, _)| key < *b);
        let inner: Vec<InnerChain> = if better {
            let reg = &self.sh.reg;
            self.scratch
                .nested
                .iter()
                .map(|&id| reg.chain(id).clone())
                .collect()
        } else {
            Vec::new()
        };
        self.scratch.nested.clear();
        if let Some(all) = &mut self.all {
            let diff = self.base + length_difficulty(complexity);
            let h = make(self.tech, to_tenths(diff));
            let mut removals: Vec<(u8, u16)> = Vec::new();
            for (d, &m) in h.elim.iter().enumerate() {
                for c in bits(m) {
                    match removals.iter_mut().find(|e| e.0 as usize == c) {
                        Some(e) => e.1 |= 1 << d,
                        None => removals.push((c as u8, 1 << d)),
                    }
                }
            }
            if removals.is_empty() {
                return;
            }
            removals.sort_unstable();
            let mut parents = Vec::new();
            let mut signature = vec![sort as u16];
            for &(net, n) in targets {
                net.rule_parents(
                    n,
                    root,
                    all.src,
                    self.g,
                    &mut parents,
                    &mut signature,
                    &mut self.scratch,
                );
            }
            all.hints.push(Collected {
                diff,
                complexity,
                sort,
                removals,
                parents,
                signature,
            });
            return;
        }
        if better {
            let rating = to_tenths(self.base + length_difficulty(complexity));
            let mut h = make(self.tech, rating);
            h.inner = inner;
            self.best = Some((key, h));
        }
    }

    /// Sum of ancestor counts of the target potential in each net, stopping
    /// above `limit`.
    fn sum_ancestors(
        &mut self,
        nets: &[&Net],
        cell: usize,
        digit: usize,
        on: bool,
        limit: u32,
    ) -> Option<u32> {
        let mut total = 0;
        self.scratch.nested.clear();
        for net in nets {
            let n = net.get(cell, digit, on)?;
            total += net.ancestors(n, &mut self.scratch);
            if total > limit {
                return None;
            }
        }
        Some(total)
    }
}

/// The chains serate's `getAdvancedPotentials` runs on a net's working
/// grid `cur` (the net started on `src`) at nesting `level` 2 and up, once
/// the four techniques of [`advanced::potentials`] found nothing: levels 2
/// and 3 forcing chains and cycles, then (level 3) multiple forcing
/// chains; level 4 + n Dynamic Forcing Chains of level n.
///
/// Each rule's result on a working grid is kept in `sh` (the grids repeat:
/// level 3 meets every grid of level 2 again, and nets of one search meet
/// the same grid), so it is computed once per step.
fn nested_rules(src: &Grid, cur: &Grid, level: u8, out: &mut advanced::Found, sh: &mut Shared) {
    let mut rule = |which: u8, out: &mut advanced::Found| {
        if let Some(hit) = sh.memo.get(&(cur.cells, which)) {
            out.removals.extend_from_slice(&hit.removals);
            out.parents.extend_from_slice(&hit.parents);
            return;
        }
        let mut found = advanced::Found::default();
        match which {
            0 => nested::forcing_chains_cycles(src, cur, &mut found, &mut sh.reg),
            1 => forcing_chains_all(src, cur, Kind::Multiple, &mut found, &mut sh.reg),
            4 => forcing_chains_all(src, cur, Kind::Dynamic, &mut found, &mut sh.reg),
            n => forcing_chains_all(src, cur, Kind::Nested(n - 4), &mut found, &mut sh.reg),
        }
        out.removals.extend_from_slice(&found.removals);
        out.parents.extend_from_slice(&found.parents);
        sh.memo.insert((cur.cells, which), found);
    };
    // `out` is empty here: the four techniques found nothing.
    if level >= 4 {
        rule(level, out);
        return;
    }
    rule(0, out);
    if out.removals.is_empty() && level >= 3 {
        rule(1, out);
    }
}

/// What the searches of one step share: the nested chains' identities and
/// the chain rules' results per working grid ([`nested_rules`]).
#[derive(Default)]
pub(crate) struct Shared {
    reg: Registry,
    memo: HashMap<([u16; 81], u8), advanced::Found>,
}

/// The hint serate's Nishio, Multiple, Dynamic Forcing Chains or Dynamic
/// Forcing Chains (+) applies on `g`, if any.
pub(crate) fn forcing_chains(g: &Grid, kind: Kind) -> Option<Hint> {
    search(g, kind, None, Shared::default())
        .best
        .map(|(_, h)| h)
}

/// The hint serate's Nested Forcing Chains apply on `g`: levels 2 and 3,
/// then level 4 with nesting limits 0-3, the first that has one.
pub(crate) fn nested_forcing_chains(g: &Grid) -> Option<Hint> {
    let mut sh = Shared::default();
    for level in 2..=7 {
        let f = search(g, Kind::Nested(level), None, sh);
        if let Some((_, h)) = f.best {
            return Some(h);
        }
        sh = f.sh;
    }
    None
}

/// Every hint of `kind` on `cur` (a net's working grid, the net started on
/// `src`) that has rule parents, in serate's order (`getHintList`'s sort,
/// then one hint per set of removals), appended to `out`, each removal
/// naming its hint in `reg` (with the hint's complexity, nested chains
/// included).
pub(crate) fn forcing_chains_all(
    src: &Grid,
    cur: &Grid,
    kind: Kind,
    out: &mut advanced::Found,
    reg: &mut Registry,
) {
    let f = search(
        cur,
        kind,
        Some(All {
            src,
            hints: Vec::new(),
        }),
        Shared::default(),
    );
    let mut hints = f.all.map(|a| a.hints).unwrap_or_default();
    hints.sort_by(|a, b| {
        hint_order(
            (a.diff, a.complexity, a.sort),
            (b.diff, b.complexity, b.sort),
        )
    });
    let mut seen: std::collections::HashSet<&[(u8, u16)]> = Default::default();
    for h in &hints {
        if !seen.insert(&h.removals) {
            continue;
        }
        if h.parents.is_empty() {
            continue;
        }
        let id = reg.id(h.signature.clone(), h.complexity, || InnerChain {
            technique: f.tech,
            rating: to_tenths(h.diff),
            eliminated: nested::removal_pairs(&h.removals),
            cells: Vec::new(),
        });
        out.add(h.parents.iter().copied(), &h.removals, id);
    }
}

fn search<'a>(g: &'a Grid, kind: Kind, all: Option<All<'a>>, sh: Shared) -> Finder<'a> {
    let (tech, base) = match kind {
        Kind::Nishio => (Technique::NishioForcingChain, 7.5),
        Kind::Multiple => (Technique::MultipleForcingChain, 8.0),
        Kind::Dynamic => (Technique::DynamicForcingChain, 8.5),
        Kind::Nested(1) => (Technique::DynamicForcingChainPlus, 9.0),
        Kind::Nested(l) => (Technique::NestedForcingChain, 8.5 + 0.5 * l.min(4) as f64),
    };
    let level = match kind {
        Kind::Nested(l) => l,
        _ => 0,
    };
    let nishio = kind == Kind::Nishio;
    let dynamic = kind != Kind::Multiple;
    let multiple = kind != Kind::Nishio;
    let mut f = Finder {
        g,
        tech,
        base,
        best: None,
        scratch: Scratch {
            mark: vec![false; 1458],
            marked: Vec::with_capacity(1458),
            stack: Vec::with_capacity(1458),
            nested: Vec::new(),
        },
        sh,
        all,
    };
    // The "on" net of each candidate, made once: a candidate's own binary
    // chaining, its cell's reductions and the region chainings of its
    // region's first place all use it. The "off" net of the candidate at
    // hand. From the thread's pool: nested levels start a search per
    // working grid.
    let mut on_nets = OnNets::new(g, !nishio, dynamic, level);
    // Multiple Forcing Chains' nets do not change the grid: what every
    // start of a cell or region reaches is known before any net runs.
    let reach = (!dynamic).then(|| nested::Static::new(g));
    let mut off_net = pooled_net();
    let y = !nishio;
    for cell in bits(g.empty) {
        let card = g.cells[cell].count_ones();
        if !(card > 2 || (card > 1 && dynamic)) {
            continue;
        }
        let digits: Vec<usize> = bits(g.cells[cell] as u128).collect();
        for &d in &digits {
            // doBinaryChaining (none for Multiple Forcing Chains)
            let contradiction = dynamic;
            let double = card >= 3 && !nishio && dynamic;
            if !(contradiction || double) {
                if !nishio {
                    region_chains(&mut f, &mut on_nets, cell, d, multiple, reach.as_ref());
                }
                continue;
            }
            on_nets.make(cell, d, &mut f.sh);
            off_net.run(g, cell, d, false, y, dynamic, level, &mut f.sh);
            let on_net = on_nets.get(cell, d);
            if contradiction {
                if let Some((a, b)) = on_net.absurd {
                    let lim = f.limit(7);
                    f.scratch.nested.clear();
                    let c = on_net.ancestors(a, &mut f.scratch);
                    if c <= lim {
                        let c = c + on_net.ancestors(b, &mut f.scratch);
                        let ts = [(on_net, a), (on_net, b)];
                        f.offer(c, 7, &ts, 0, |t, r| {
                            f_target(g, t, r, cell, d, false, false)
                        });
                    }
                }
                if let Some((a, b)) = off_net.absurd {
                    let lim = f.limit(7);
                    f.scratch.nested.clear();
                    let c = off_net.ancestors(a, &mut f.scratch);
                    if c <= lim {
                        let c = c + off_net.ancestors(b, &mut f.scratch);
                        let ts = [(&off_net, a), (&off_net, b)];
                        f.offer(c, 7, &ts, 0, |t, r| f_target(g, t, r, cell, d, true, true));
                    }
                }
            }
            if double {
                for &n in &on_net.ons {
                    let p = on_net.nodes[n as usize];
                    let (pc, pd) = (p.cell as usize, p.digit as usize);
                    if g.cells[pc] & !(1 << pd) == 0 {
                        continue; // nothing to remove: not worth
                    }
                    if let Some(m) = off_net.get(pc, pd, true) {
                        let lim = f.limit(1);
                        f.scratch.nested.clear();
                        let c = on_net.ancestors(n, &mut f.scratch);
                        if c <= lim {
                            let c = c + off_net.ancestors(m, &mut f.scratch);
                            let ts = [(on_net, n), (&off_net, m)];
                            f.offer(c, 1, &ts, 0, |t, r| f_target(g, t, r, pc, pd, true, true));
                        }
                    }
                }
                for &n in &on_net.offs {
                    let p = on_net.nodes[n as usize];
                    let (pc, pd) = (p.cell as usize, p.digit as usize);
                    if let Some(m) = off_net.get(pc, pd, false) {
                        let lim = f.limit(1);
                        f.scratch.nested.clear();
                        let c = on_net.ancestors(n, &mut f.scratch);
                        if c <= lim {
                            let c = c + off_net.ancestors(m, &mut f.scratch);
                            let ts = [(on_net, n), (&off_net, m)];
                            f.offer(c, 1, &ts, 0, |t, r| f_target(g, t, r, pc, pd, false, false));
                        }
                    }
                }
            }
            if !nishio {
                region_chains(&mut f, &mut on_nets, cell, d, multiple, reach.as_ref());
            }
        }
        if !nishio && (card == 2 || (multiple && card > 2)) {
            if let Some(r) = &reach {
                if !r.common(digits.iter().map(|&d| (cell, d))) {
                    continue;
                }
            }
            for &d in &digits {
                on_nets.make(cell, d, &mut f.sh);
            }
            let nets: Vec<&Net> = digits.iter().map(|&d| on_nets.get(cell, d)).collect();
            reductions(&mut f, &nets, 5, CELL);
        }
    }
    NETS.with(|p| {
        let mut p = p.borrow_mut();
        p.extend(on_nets.nets);
        p.push(off_net);
    });
    f
}

/// The "on" nets of one search, each run the first time it is asked for
/// (a net depends only on its start and the search): the net of
/// candidate `cell * 9 + d` is `nets[slot[cell * 9 + d]]`.
struct OnNets<'a> {
    g: &'a Grid,
    y: bool,
    dynamic: bool,
    level: u8,
    slot: [u16; 729],
    nets: Vec<Net>,
}

impl<'a> OnNets<'a> {
    fn new(g: &'a Grid, y: bool, dynamic: bool, level: u8) -> OnNets<'a> {
        OnNets {
            g,
            y,
            dynamic,
            level,
            slot: [u16::MAX; 729],
            nets: Vec::new(),
        }
    }

    /// Runs the net of candidate `d` of `cell` unless it has been.
    fn make(&mut self, cell: usize, d: usize, sh: &mut Shared) {
        let k = cell * 9 + d;
        if self.slot[k] == u16::MAX {
            let mut net = pooled_net();
            net.run(self.g, cell, d, true, self.y, self.dynamic, self.level, sh);
            self.slot[k] = self.nets.len() as u16;
            self.nets.push(net);
        }
    }

    /// The net of candidate `d` of `cell`, made before.
    fn get(&self, cell: usize, d: usize) -> &Net {
        &self.nets[self.slot[cell * 9 + d] as usize]
    }
}

/// [`advanced::potentials`], memoised per (start grid, working grid) on
/// the thread: the nets of every level of a step (Dynamic Forcing Chains
/// (+) and each nested level) first drain on the same grids, and the
/// result holds no nested chain, so it does not depend on the search.
fn basic_rules(src: &Grid, cur: &Grid, out: &mut advanced::Found) {
    BASIC.with(|m| {
        let mut m = m.borrow_mut();
        let key = (src.cells, cur.cells);
        if let Some(hit) = m.get(&key) {
            out.clear();
            out.removals.extend_from_slice(&hit.removals);
            out.parents.extend_from_slice(&hit.parents);
            return;
        }
        advanced::potentials(src, cur, out);
        if m.len() >= 1 << 16 {
            m.clear();
        }
        let mut keep = advanced::Found::default();
        keep.removals.extend_from_slice(&out.removals);
        keep.parents.extend_from_slice(&out.parents);
        m.insert(key, keep);
    })
}

type BasicMemo = HashMap<([u16; 81], [u16; 81]), advanced::Found>;

thread_local! {
    static BASIC: std::cell::RefCell<BasicMemo> = std::cell::RefCell::new(HashMap::new());
    /// Nets no search is using, kept for the next (each holds a few
    /// buffers of a potential per candidate).
    static NETS: std::cell::RefCell<Vec<Net>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A net from the thread's pool, or a new one.
fn pooled_net() -> Net {
    NETS.with(|p| p.borrow_mut().pop()).unwrap_or_else(Net::new)
}

/// A hint on the target `(cell, digit)`: off removes it; on removes the
/// cell's other digits, and places it when `place`.
fn f_target(
    g: &Grid,
    t: Technique,
    rating: u8,
    cell: usize,
    digit: usize,
    on: bool,
    place: bool,
) -> Hint {
    let mut h = if place {
        Hint::place(t, rating, cell as u8, digit as u8 + 1)
    } else {
        Hint::new(t, rating)
    };
    if on {
        for o in bits(g.cells[cell] as u128 & !(1 << digit)) {
            h.elim[o] = 1 << cell;
        }
    } else {
        h.elim[digit] = 1 << cell;
    }
    h
}

/// serate's cell or region reductions over `nets` (the first holds the
/// candidates' order): each potential on (then off) in every net, `sort`
/// 5 (cell) or 6 (region).
fn reductions(f: &mut Finder, nets: &[&Net], sort: u8, root: u8) {
    let g = f.g;
    let first = nets[0];
    for on in [true, false] {
        let list = if on { &first.ons } else { &first.offs };
        for &n in list {
            let p = first.nodes[n as usize];
            let (pc, pd) = (p.cell as usize, p.digit as usize);
            if nets[1..].iter().any(|net| net.get(pc, pd, on).is_none()) {
                continue;
            }
            if on && g.cells[pc] & !(1 << pd) == 0 {
                continue; // nothing to remove: not worth
            }
            let lim = f.limit(sort);
            if let Some(c) = f.sum_ancestors(nets, pc, pd, on, lim) {
                let ts: Vec<(&Net, u32)> = nets
                    .iter()
                    .map(|net| (*net, net.get(pc, pd, on).unwrap()))
                    .collect();
                f.offer(c, sort, &ts, root, |t, r| f_target(g, t, r, pc, pd, on, on));
            }
        }
    }
}

/// serate's `doRegionChainings` for digit index `d` of `cell`, with the
/// "on" nets of the search in `nets`: each box, row, column where the cell
/// is the digit's first place (and the digit has 2 places, or more for
/// multiple chains).
fn region_chains(
    f: &mut Finder,
    nets: &mut OnNets,
    cell: usize,
    d: usize,
    multiple: bool,
    reach: Option<&nested::Static>,
) {
    let g = f.g;
    for (r, root) in [
        (box_of(cell), BOX),
        (9 + row_of(cell), ROW),
        (18 + col_of(cell), COL),
    ] {
        let pos = g.digits[d] & REGION[r];
        let n = pos.count_ones();
        if !(n == 2 || (multiple && n > 2)) || pos.trailing_zeros() as usize != cell {
            continue;
        }
        if reach.is_some_and(|r| !r.common(bits(pos).map(|oc| (oc, d)))) {
            continue;
        }
        // Region cells in serate's order: a box row by row, a line along
        // it; both are ascending cell numbers.
        for oc in bits(pos) {
            nets.make(oc, d, &mut f.sh);
        }
        // The cell's own net first: it holds the candidates' order.
        let mut all: Vec<&Net> = Vec::with_capacity(9);
        all.push(nets.get(cell, d));
        for oc in bits(pos) {
            if oc != cell {
                all.push(nets.get(oc, d));
            }
        }
        // serate's posToOn keeps region order; the sum does not depend on it.
        reductions(f, &all, 6, root);
    }
}
