//! Which potentials reach which, for every start at once: the closure of
//! serate's chain links on a grid that does not change (strongly connected
//! components and a reach set per component). Used by the chain searches
//! (`chains.rs` at the top level, `nested.rs` inside the nets) to skip the
//! starts whose search cannot find anything.

use super::grid::{bits, box_of, col_of, row_of, Grid, PEERS, REGION};

/// Reachability between the potentials of a grid for every start at once
/// ([`Loops::closure`]): the links as a graph, its strongly connected
/// components (Tarjan), and per component the bit set of the nodes it
/// reaches. Buffers are kept between grids.
#[derive(Default)]
pub(crate) struct Reach {
    /// Candidate number of `cell * 9 + digit`, and back.
    pub id: Vec<u16>,
    cand: Vec<(u8, u8)>,
    /// Successors of node v: `succ[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    succ: Vec<u32>,
    /// Component of each node; words of a bit set per component.
    pub comp: Vec<u32>,
    pub words: usize,
    pub sets: Vec<u64>,
    // Tarjan's state.
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    calls: Vec<(u32, u32)>,
    /// Per component, the last component that merged its set.
    merged: Vec<u32>,
}

impl Reach {
    /// Tarjan's components of nodes `0..n`, each component's reach set
    /// made as it is closed (every component it links to is closed first).
    fn components(&mut self, n: usize) {
        const UNSEEN: u32 = u32::MAX;
        self.words = n.div_ceil(64).max(1);
        self.comp.clear();
        self.comp.resize(n, UNSEEN);
        self.index.clear();
        self.index.resize(n, UNSEEN);
        self.low.clear();
        self.low.resize(n, 0);
        self.on_stack.clear();
        self.on_stack.resize(n, false);
        self.sets.clear();
        self.merged.clear();
        let mut next = 0u32;
        let mut comps = 0u32;
        for root in 0..n as u32 {
            if self.index[root as usize] != UNSEEN {
                continue;
            }
            self.calls.push((root, self.start[root as usize]));
            self.index[root as usize] = next;
            self.low[root as usize] = next;
            next += 1;
            self.stack.push(root);
            self.on_stack[root as usize] = true;
            while let Some(&(v, e)) = self.calls.last() {
                let vu = v as usize;
                if e < self.start[vu + 1] {
                    self.calls.last_mut().unwrap().1 += 1;
                    let w = self.succ[e as usize];
                    let wu = w as usize;
                    if self.index[wu] == UNSEEN {
                        self.index[wu] = next;
                        self.low[wu] = next;
                        next += 1;
                        self.stack.push(w);
                        self.on_stack[wu] = true;
                        self.calls.push((w, self.start[wu]));
                    } else if self.on_stack[wu] {
                        self.low[vu] = self.low[vu].min(self.index[wu]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&(p, _)) = self.calls.last() {
                    let pu = p as usize;
                    self.low[pu] = self.low[pu].min(self.low[vu]);
                }
                if self.low[vu] != self.index[vu] {
                    continue;
                }
                // v roots a component: pop it, then its reach set.
                let base = self.sets.len();
                self.sets.resize(base + self.words, 0);
                self.merged.push(u32::MAX);
                let top = self.stack.iter().rposition(|&x| x == v).unwrap();
                for i in top..self.stack.len() {
                    let x = self.stack[i] as usize;
                    self.on_stack[x] = false;
                    self.comp[x] = comps;
                    self.sets[base + x / 64] |= 1 << (x % 64);
                }
                for i in top..self.stack.len() {
                    let x = self.stack[i] as usize;
                    for j in self.start[x]..self.start[x + 1] {
                        let cw = self.comp[self.succ[j as usize] as usize];
                        // Each component linked to is merged once.
                        if cw != comps && self.merged[cw as usize] != comps {
                            self.merged[cw as usize] = comps;
                            // Components linked to are closed before: their
                            // sets lie below this one's.
                            let from = cw as usize * self.words;
                            let (done, this) = self.sets.split_at_mut(base);
                            for (t, &w) in this.iter_mut().zip(&done[from..from + self.words]) {
                                *t |= w;
                            }
                        }
                    }
                }
                self.stack.truncate(top);
                comps += 1;
            }
        }
    }

    /// The node of the "on" of candidate `digit` of `cell`.
    pub fn on(&self, cell: usize, digit: usize) -> usize {
        2 * self.id[cell * 9 + digit] as usize + 1
    }

    /// Whether node `from` reaches node `to`.
    pub fn reaches(&self, from: usize, to: usize) -> bool {
        let c = self.comp[from] as usize;
        self.sets[c * self.words + to / 64] >> (to % 64) & 1 != 0
    }

    /// The links of a grid as a graph, closed: node `2k` is candidate `k`
    /// ([`Reach::id`]) off, `2k + 1` on; an "on" makes off the digit's
    /// other places in its regions and, with `y`, the cell's other digits;
    /// an "off" makes on the digit's last place in a region (X) and, with
    /// `y`, a bivalue cell's other digit. Only the candidates of the digits
    /// in `only` are nodes (without Y links no link leaves a digit).
    /// Returns per digit the cells whose "on" reaches their "off" and
    /// whose "off" reaches their "on".
    pub fn links(&mut self, g: &Grid, y: bool, only: u16) -> ([u128; 9], [u128; 9]) {
        self.id.clear();
        self.id.resize(729, u16::MAX);
        self.cand.clear();
        for c in bits(g.empty) {
            for d in bits((g.cells[c] & only) as u128) {
                self.id[c * 9 + d] = self.cand.len() as u16;
                self.cand.push((c as u8, d as u8));
            }
        }
        let n = self.cand.len() * 2;
        self.start.clear();
        self.succ.clear();
        for v in 0..n {
            self.start.push(self.succ.len() as u32);
            let (c, d) = self.cand[v / 2];
            let (c, d) = (c as usize, d as usize);
            if v & 1 == 1 {
                for oc in bits(PEERS[c] & g.digits[d]) {
                    self.succ.push(2 * self.id[oc * 9 + d] as u32);
                }
                if y {
                    for od in bits(g.cells[c] as u128 & !(1 << d)) {
                        self.succ.push(2 * self.id[c * 9 + od] as u32);
                    }
                }
            } else {
                let m = g.cells[c];
                if y && m.count_ones() == 2 {
                    let od = (m & !(1 << d)).trailing_zeros() as usize;
                    self.succ.push(2 * self.id[c * 9 + od] as u32 + 1);
                }
                let others = g.digits[d] & !(1u128 << c);
                for r in [box_of(c), 9 + row_of(c), 18 + col_of(c)] {
                    let pos = others & REGION[r];
                    if pos.count_ones() == 1 {
                        let t = pos.trailing_zeros() as usize;
                        self.succ.push(2 * self.id[t * 9 + d] as u32 + 1);
                    }
                }
            }
        }
        self.start.push(self.succ.len() as u32);
        self.components(n);
        let (mut hit_on, mut hit_off) = ([0u128; 9], [0u128; 9]);
        for (k, &(c, d)) in self.cand.iter().enumerate() {
            let (on, off) = (2 * k + 1, 2 * k);
            if self.reaches(on, off) {
                hit_on[d as usize] |= 1 << c;
            }
            if self.reaches(off, on) {
                hit_off[d as usize] |= 1 << c;
            }
        }
        (hit_on, hit_off)
    }
}

/// The "on"s a cycle from the "on" of `(cell, d)` can close through: per
/// digit, the cells whose "on" makes off one of the `closing` potentials
/// (per digit, the cells whose "off" makes the start "on"), through an X
/// link (the digit's other places in the cell's regions) or, with `y`, a
/// Y link (the cell's other digits); the start itself left out.
pub(crate) fn cycle_closers(
    g: &Grid,
    closing: &[u128; 9],
    cell: usize,
    d: usize,
    y: bool,
) -> [u128; 9] {
    let mut wait = [0u128; 9];
    for (td, &m) in closing.iter().enumerate() {
        for tc in bits(m) {
            wait[td] |= PEERS[tc] & g.digits[td];
            if y {
                for od in bits(g.cells[tc] as u128 & !(1 << td)) {
                    wait[od] |= 1 << tc;
                }
            }
        }
    }
    wait[d] &= !(1 << cell);
    wait
}
