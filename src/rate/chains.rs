//! Chains: serate's `Chaining` producer for `Forcing Chains & Cycles`
//! (bidirectional X-, Y- and XY-cycles, forcing X-chains and XY-chains), as
//! [`super::Technique::find`] calls it on the rater's candidate grid.
//!
//! serate (`Chaining.getLoopHintList`) runs three passes over the grid, X
//! links only, Y links only (from bivalue cells), then both; in each pass it
//! starts from every candidate of every unsolved cell (cells in row-major
//! order, digits ascending), searches the implications of "this candidate
//! is on" (cycles back to it, and a chain to "it is off") and of "it is
//! off" (a chain to "it is on"), and collects one hint per cycle and chain
//! found. Then it sorts them by difficulty, chain length (its
//! `getComplexity`: the distinct potentials of the chain) and kind
//! (`getSortKey`), stably, and applies the first. We keep only the best so
//! far, in serate's order (a later hint replaces it only when strictly
//! better), and stop each search at the depth where it could no longer be
//! better: the rating grows with the length.
//!
//! The searches are serate's breadth-first ones, level by level in its
//! queue order: an "on" candidate makes off, in order, the other digits of
//! its cell (Y links), then its digit in its box, row, column (ascending
//! cells, each cell once); an "off" candidate makes on the other digit of
//! a bivalue cell (Y), then the only other place of its digit in its box,
//! row, column (X). Each potential is reached once (the first time), so
//! a forcing chain's length is the depth it is found at; a cycle is found
//! from an "on" p whose "off" consequence q implies the start again, q not
//! already on p's path, and its removals depend on that path, so the path
//! is serate's (first discovery in queue order).

use super::grid::{bits, box_of, col_of, row_of, Grid, PEERS, REGION};
use super::reach::{cycle_closers, Reach};
use super::{Hint, Technique, Tenths};

/// No parent (the start of a search).
const ROOT: u32 = u32::MAX;

/// A potential reached by a search: candidate `digit` (0-8) of `cell`,
/// on or off, and the node it was reached from.
#[derive(Clone, Copy)]
struct Node {
    cell: u8,
    digit: u8,
    on: bool,
    parent: u32,
}

/// serate's `getLengthDifficulty`: 0.1 for each step of 4, 6, 8, 12, 16,
/// 24, ... the chain's length (complexity less 2) exceeds, added as serate
/// adds it (doubles compared exactly as serate compares them).
pub(crate) fn length_difficulty(complexity: u32) -> f64 {
    let mut added = 0.0;
    let mut ceil = 4i64;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// serate's printed rating of a difficulty (`ratingToString`).
pub(crate) fn to_tenths(d: f64) -> Tenths {
    ((d + 0.05) * 10.0) as Tenths
}

/// serate's `getHintList` order of two chaining hints given as
/// (difficulty, complexity, kind): stable sorts with it keep ties in the
/// order found.
pub(crate) fn hint_order(a: (f64, u32, u8), b: (f64, u32, u8)) -> std::cmp::Ordering {
    a.0.partial_cmp(&b.0)
        .unwrap()
        .then(a.1.cmp(&b.1))
        .then(a.2.cmp(&b.2))
}

/// serate's sort key of a chaining hint: difficulty, complexity, kind.
#[derive(Clone, Copy, Debug)]
struct Key {
    diff: f64,
    complexity: u32,
    sort: u8,
}

impl Key {
    fn new(base: f64, complexity: u32, sort: u8) -> Key {
        Key {
            diff: base + length_difficulty(complexity),
            complexity,
            sort,
        }
    }

    /// serate's comparator: strictly before `other`.
    fn before(&self, other: &Key) -> bool {
        if self.diff != other.diff {
            return self.diff < other.diff;
        }
        if self.complexity != other.complexity {
            return self.complexity < other.complexity;
        }
        self.sort < other.sort
    }
}

/// One of serate's three passes.
#[derive(Clone, Copy)]
struct Mode {
    /// Y links (within a cell).
    y: bool,
    /// X links (within a region).
    x: bool,
    cycle_base: f64,
    chain_base: f64,
    sort: u8,
}

const X_MODE: Mode = Mode {
    y: false,
    x: true,
    cycle_base: 6.5,
    chain_base: 6.6,
    sort: 2,
};
const Y_MODE: Mode = Mode {
    y: true,
    x: false,
    cycle_base: 6.5,
    chain_base: 0.0,
    sort: 3,
};
const XY_MODE: Mode = Mode {
    y: true,
    x: true,
    cycle_base: 7.0,
    chain_base: 7.0,
    sort: 4,
};

/// The closure of an X pass's links ([`Reach::links`]) and what it says:
/// per digit, the cells whose "on" reaches their "off", and the reverse.
struct Hits {
    reach: Reach,
    on: [u128; 9],
    off: [u128; 9],
}

/// The best hint so far: its key and what it does.
struct Best {
    key: Key,
    hint: Hint,
}

/// The search state, reused from one start to the next (no allocation in
/// the searches once the node list has grown).
struct Search<'a> {
    g: &'a Grid,
    nodes: Vec<Node>,
    seen_on: [u128; 9],
    seen_off: [u128; 9],
    best: Option<Best>,
    /// Per candidate (cell * 9 + digit): the X "on"s its "off" makes
    /// (cells, deduplicated, count in the last byte), and the Y one (the
    /// other digit of a bivalue cell, or NO): made once per grid, as the
    /// searches ask for them about 20 times per candidate.
    x_on: Vec<[u8; 4]>,
    y_on: Vec<u8>,
}

/// No Y "on" ([`Search::y_on`]).
const NO: u8 = u8::MAX;

/// Candidate `(cell, digit 0-8)` pairs, at most 28 (an "on" makes off 8
/// digits and 20 peers).
type Buf = [(u8, u8); 28];

impl<'a> Search<'a> {
    fn new(g: &'a Grid) -> Search<'a> {
        let mut x_on = vec![[0u8; 4]; 729];
        let mut y_on = vec![NO; 729];
        for cell in bits(g.empty) {
            let m = g.cells[cell];
            for d in bits(m as u128) {
                let k = cell * 9 + d;
                if m.count_ones() == 2 {
                    y_on[k] = (m & !(1 << d)).trailing_zeros() as u8;
                }
                let others = g.digits[d] & !(1u128 << cell);
                let x = &mut x_on[k];
                for r in [box_of(cell), 9 + row_of(cell), 18 + col_of(cell)] {
                    let pos = others & REGION[r];
                    if pos.count_ones() == 1 {
                        let t = pos.trailing_zeros() as u8;
                        let n = x[3] as usize;
                        if !x[..n].contains(&t) {
                            x[n] = t;
                            x[3] += 1;
                        }
                    }
                }
            }
        }
        Search {
            g,
            nodes: Vec::with_capacity(1600),
            seen_on: [0; 9],
            seen_off: [0; 9],
            best: None,
            x_on,
            y_on,
        }
    }

    /// serate's `getOnToOff`: what an "on" candidate makes off, in order,
    /// less the potentials already off in this search (`seen_off`) and
    /// not in `interest`: the search would only skip those, and the others
    /// come in the same order. (Most of a search's "off"s are seen again
    /// and again; on Forcing Chains & Cycles this filter took a third of
    /// the search's instructions.)
    #[inline]
    fn on_to_off_kept(
        &self,
        cell: usize,
        d: usize,
        y: bool,
        interest: &[u128; 9],
        out: &mut Buf,
    ) -> usize {
        let mut n = 0;
        if y {
            for o in bits(self.g.cells[cell] as u128 & !(1 << d)) {
                if (!self.seen_off[o] | interest[o]) >> cell & 1 != 0 {
                    out[n] = (cell as u8, o as u8);
                    n += 1;
                }
            }
        }
        let others = self.g.digits[d] & !(1u128 << cell) & (!self.seen_off[d] | interest[d]);
        let b = REGION[box_of(cell)];
        for m in [
            others & b,
            others & REGION[9 + row_of(cell)] & !b,
            others & REGION[18 + col_of(cell)] & !b,
        ] {
            for c in bits(m) {
                out[n] = (c as u8, d as u8);
                n += 1;
            }
        }
        n
    }

    /// serate's `getOffToOn`: what an "off" candidate makes on, in order
    /// (no repeats).
    #[inline]
    fn off_to_on(&self, cell: usize, d: usize, mode: Mode, out: &mut [(u8, u8); 4]) -> usize {
        let k = cell * 9 + d;
        let mut n = 0;
        if mode.y && self.y_on[k] != NO {
            out[0] = (cell as u8, self.y_on[k]);
            n = 1;
        }
        if mode.x {
            let x = self.x_on[k];
            for &t in &x[..x[3] as usize] {
                out[n] = (t, d as u8);
                n += 1;
            }
        }
        n
    }

    /// serate's `isParent`: `(cell, d)` off is on the path to node `i`.
    fn off_on_path(&self, i: usize, cell: u8, d: u8) -> bool {
        let mut p = self.nodes[i].parent;
        while p != ROOT {
            let n = self.nodes[p as usize];
            if !n.on && n.cell == cell && n.digit == d {
                return true;
            }
            p = n.parent;
        }
        false
    }

    /// The cells of the path ending at node `i`, from it back to the start.
    fn path_cells(&self, mut i: u32, out: &mut Vec<u8>) {
        while i != ROOT {
            let n = self.nodes[i as usize];
            if !out.contains(&n.cell) {
                out.push(n.cell);
            }
            i = n.parent;
        }
    }

    /// serate's `createCycleHint` for the cycle start → ... → node `i` →
    /// `(qc, qd)` off → start: the candidates seeing an "on" and an "off"
    /// of their digit on the cycle, outside its cells.
    fn cycle_removals(&self, i: usize, qc: u8, qd: u8) -> [u128; 9] {
        let g = self.g;
        let mut forw = [0u128; 9];
        let mut back = [0u128; 9];
        let mut cells = 1u128 << qc;
        back[qd as usize] |= PEERS[qc as usize] & g.digits[qd as usize];
        let mut p = i as u32;
        while p != ROOT {
            let n = self.nodes[p as usize];
            let m = PEERS[n.cell as usize] & g.digits[n.digit as usize];
            if n.on {
                forw[n.digit as usize] |= m;
            } else {
                back[n.digit as usize] |= m;
            }
            cells |= 1 << n.cell;
            p = n.parent;
        }
        let mut e = [0u128; 9];
        for d in 0..9 {
            e[d] = forw[d] & back[d] & !cells;
        }
        e
    }

    /// The largest complexity a hint of base `base` and kind `sort` may
    /// have to be strictly before the best so far (`u32::MAX` when there
    /// is none).
    fn max_complexity(&self, base: f64, sort: u8) -> u32 {
        let Some(best) = &self.best else {
            return u32::MAX;
        };
        let mut c = 1;
        while Key::new(base, c + 1, sort).before(&best.key) {
            c += 1;
        }
        if Key::new(base, c, sort).before(&best.key) {
            c
        } else {
            0
        }
    }

    fn offer(&mut self, key: Key, hint: impl FnOnce() -> Hint) {
        if self.best.as_ref().is_none_or(|b| key.before(&b.key)) {
            self.best = Some(Best { key, hint: hint() });
        }
    }

    /// Whether the "on" of `(cell, d)` reaches, through the pass's links
    /// ([`Reach::links`]), an "on" other than itself that makes off a
    /// potential whose "off" makes the start "on": without one the search
    /// from "on" finds no cycle.
    fn may_cycle(&self, reach: &Reach, cell: usize, d: usize, y: bool) -> bool {
        let k = cell * 9 + d;
        let mut closing = [0u128; 9];
        if y && self.y_on[k] != NO {
            closing[self.y_on[k] as usize] |= 1 << cell;
        }
        let x = self.x_on[k];
        for &t in &x[..x[3] as usize] {
            closing[d] |= 1 << t;
        }
        let from = reach.on(cell, d);
        cycle_closers(self.g, &closing, cell, d, y)
            .iter()
            .enumerate()
            .any(|(wd, &w)| bits(w).any(|c| reach.reaches(from, reach.on(c, wd))))
    }

    /// serate's `doUnaryChaining` from candidate `d` of `cell`. With the
    /// closure of the pass's links (`reach`, X passes), the searches that
    /// cannot find anything are skipped: a chain needs the start to reach
    /// its opposite, a cycle a closing "on" ([`Search::may_cycle`]).
    fn unary(&mut self, cell: usize, d: usize, mode: Mode, reach: Option<&Hits>) {
        let (cycle_ok, on_ok, off_ok) = match reach {
            None => (true, true, true),
            Some(h) => (
                self.may_cycle(&h.reach, cell, d, mode.y),
                h.on[d] >> cell & 1 != 0,
                h.off[d] >> cell & 1 != 0,
            ),
        };
        // Cycles, and the forcing chain "on implies off", from "on".
        let cyc_max = if cycle_ok {
            self.max_complexity(mode.cycle_base, mode.sort)
        } else {
            0
        };
        let chain_max = if mode.x && on_ok {
            self.max_complexity(mode.chain_base, mode.sort)
        } else {
            0
        };
        let (cycle, chain) = self.bfs(cell, d, true, mode, cyc_max, chain_max);
        if let Some((c, e, cells)) = cycle {
            let key = Key::new(mode.cycle_base, c, mode.sort);
            self.offer(key, || {
                let mut h = Hint::new(Technique::ForcingChainCycle, to_tenths(key.diff));
                h.elim = e;
                h.cells = cells;
                h
            });
        }
        if !mode.x {
            return;
        }
        if let Some((c, cells)) = chain {
            let key = Key::new(mode.chain_base, c, mode.sort);
            self.offer(key, || {
                let mut h = Hint::new(Technique::ForcingChainCycle, to_tenths(key.diff));
                h.elim[d] = 1 << cell;
                h.cells = cells;
                h
            });
        }
        // The forcing chain "off implies on", from "off".
        if !off_ok {
            return;
        }
        let chain_max = self.max_complexity(mode.chain_base, mode.sort);
        let (_, chain) = self.bfs(cell, d, false, mode, 0, chain_max);
        if let Some((c, cells)) = chain {
            let key = Key::new(mode.chain_base, c, mode.sort);
            let g = self.g;
            self.offer(key, || {
                let mut h = Hint::place(
                    Technique::ForcingChainCycle,
                    to_tenths(key.diff),
                    cell as u8,
                    d as u8 + 1,
                );
                for o in bits(g.cells[cell] as u128 & !(1 << d)) {
                    h.elim[o] = 1 << cell;
                }
                h.cells = cells;
                h
            });
        }
    }

    /// One breadth-first search from candidate `d` of `cell`, on or off,
    /// looking for the first worthwhile cycle back to it (from "on", of
    /// complexity up to `cyc_max`) and the first chain to its opposite
    /// (up to `chain_max`; 0 turns either off). Returns the cycle's
    /// complexity, removals and cells, and the chain's complexity and cells.
    #[allow(clippy::type_complexity)]
    fn bfs(
        &mut self,
        cell: usize,
        d: usize,
        on: bool,
        mode: Mode,
        cyc_max: u32,
        chain_max: u32,
    ) -> (Option<(u32, [u128; 9], Vec<u8>)>, Option<(u32, Vec<u8>)>) {
        let (sc, sd) = (cell as u8, d as u8);
        self.nodes.clear();
        self.nodes.push(Node {
            cell: sc,
            digit: sd,
            on,
            parent: ROOT,
        });
        self.seen_on = [0; 9];
        self.seen_off = [0; 9];
        if on {
            self.seen_on[d] |= 1 << cell;
        } else {
            self.seen_off[d] |= 1 << cell;
        }
        let mut cycle = None;
        let mut chain = None;
        let (mut lo, mut hi) = (0usize, 1usize);
        let mut depth = 0u32;
        let mut level_on = on;
        let mut buf: Buf = [(0, 0); 28];
        let mut ons = [(0u8, 0u8); 4];
        // The "off"s the checks below may act on although already seen:
        // the start's cell, and its digit's peers (cycles, chains).
        let mut interest = [1u128 << cell; 9];
        interest[d] |= PEERS[cell];
        loop {
            // Hints found while expanding this level have depth + 2 potentials.
            let c = depth + 2;
            let mut want_cycle = on && cycle.is_none() && c <= cyc_max;
            let mut want_chain = chain.is_none() && c <= chain_max;
            if (!want_cycle && !want_chain) || lo == hi {
                break;
            }
            for i in lo..hi {
                let p = self.nodes[i];
                if level_on {
                    let n = self.on_to_off_kept(
                        p.cell as usize,
                        p.digit as usize,
                        mode.y,
                        &interest,
                        &mut buf,
                    );
                    for &(qc, qd) in &buf[..n] {
                        if want_cycle
                            && depth >= 2
                            && (qc == sc || (qd == sd && PEERS[cell] >> qc & 1 != 0))
                        {
                            let k = self.off_to_on(qc as usize, qd as usize, mode, &mut ons);
                            if ons[..k].contains(&(sc, sd)) && !self.off_on_path(i, qc, qd) {
                                let e = self.cycle_removals(i, qc, qd);
                                if e.iter().any(|&m| m != 0) {
                                    let mut cells = vec![sc];
                                    if qc != sc {
                                        cells.push(qc);
                                    }
                                    self.path_cells(i as u32, &mut cells);
                                    cycle = Some((c, e, cells));
                                    want_cycle = false;
                                }
                            }
                        }
                        if want_chain && on && qc == sc && qd == sd {
                            let mut cells = vec![qc];
                            self.path_cells(i as u32, &mut cells);
                            chain = Some((c, cells));
                            want_chain = false;
                        }
                        if self.seen_off[qd as usize] >> qc & 1 == 0 {
                            self.seen_off[qd as usize] |= 1 << qc;
                            self.nodes.push(Node {
                                cell: qc,
                                digit: qd,
                                on: false,
                                parent: i as u32,
                            });
                        }
                    }
                } else {
                    let k = self.off_to_on(p.cell as usize, p.digit as usize, mode, &mut ons);
                    for &(rc, rd) in &ons[..k] {
                        if want_chain && !on && rc == sc && rd == sd {
                            let mut cells = vec![rc];
                            self.path_cells(i as u32, &mut cells);
                            chain = Some((c, cells));
                            want_chain = false;
                        }
                        if self.seen_on[rd as usize] >> rc & 1 == 0 {
                            self.seen_on[rd as usize] |= 1 << rc;
                            self.nodes.push(Node {
                                cell: rc,
                                digit: rd,
                                on: true,
                                parent: i as u32,
                            });
                        }
                    }
                }
            }
            lo = hi;
            hi = self.nodes.len();
            depth += 1;
            level_on = !level_on;
        }
        (cycle, chain)
    }
}

/// The hint serate's `Forcing Chains & Cycles` applies on `g`, if any.
pub(crate) fn forcing_chains_cycles(g: &Grid) -> Option<Hint> {
    search(g, true)
}

/// [`forcing_chains_cycles`], with or without the closure's skips (the
/// tests' oracle runs every search).
fn search(g: &Grid, skip: bool) -> Option<Hint> {
    let mut s = Search::new(g);
    let mut h = Hits {
        reach: Reach::default(),
        on: [0; 9],
        off: [0; 9],
    };
    for mode in [X_MODE, Y_MODE, XY_MODE] {
        let skips = skip && mode.x;
        if skips {
            (h.on, h.off) = h.reach.links(g, mode.y, 0x1ff);
        }
        let reach = skips.then_some(&h);
        for cell in bits(g.empty) {
            let n = g.cells[cell].count_ones();
            if n < 2 || (!mode.x && n > 2) {
                continue;
            }
            for d in bits(g.cells[cell] as u128) {
                s.unary(cell, d, mode, reach);
            }
        }
    }
    s.best.map(|b| b.hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The searches the closure skips find nothing: the same hint (kind,
    /// rating, placement, removals, cells) with and without the skips, on
    /// hard puzzles' grids with random candidates taken away, as the
    /// rater's later steps see them.
    #[test]
    fn skips_keep_the_hint() {
        let puzzles = [
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6",
            "........1..2..3.4..5.24.67...53...8.6....5...9...8......7.3..5..1...2..7.9.7..4..",
            "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ];
        let mut rng = crate::disguise::Rng::new(7);
        let mut found = 0;
        for p in puzzles {
            let cells: Vec<u8> = p.bytes().map(|b| b.saturating_sub(b'0') % 10).collect();
            for round in 0..10 {
                let mut g = Grid::new(&cells);
                for _ in 0..round * 5 {
                    let c = rng.below(81) as usize;
                    let d = rng.below(9) as u8 + 1;
                    // Keep at least one candidate in the cell.
                    if g.cells[c].count_ones() > 1 {
                        g.eliminate(d, 1 << c);
                    }
                }
                let fast = search(&g, true);
                let all = search(&g, false);
                let key = |h: &Option<Hint>| {
                    h.as_ref()
                        .map(|h| (h.tech, h.rating, h.place, h.elim, h.cells.clone()))
                };
                assert_eq!(key(&fast), key(&all), "{p} round {round}");
                found += fast.is_some() as u32;
            }
        }
        // The grids are hard enough that most have a chain or cycle.
        assert!(found >= 20, "{found} of 40 grids have a hint");
    }
}
