//! Conflict-driven (CDCL) search for big grids: the pure solver core for the
//! hard tail. Cells in, outcome out; no I/O, no threads, one set of flat
//! `Vec`s allocated per call.
//!
//! The caller runs the cheap propagate-and-guess solver first and hands over
//! here after a guess budget: on 25x25 and 36x36 random puzzles a wrong guess
//! made deep leaves a grid with no solution that chronological backtracking
//! needs 30k-445k guesses to refute. Learning the reason of each conflict as
//! a clause (and jumping back past the guesses that did not matter) refutes
//! such a subtree in a few hundred conflicts.
//!
//! Model: one boolean variable per (cell, digit), grouped in exactly-one
//! constraints, each variable in four of them:
//!
//! ```text
//!   var  v = cell * N + (digit - 1)            N = box_rows * box_cols <= 64
//!   lit  2v (v true) | 2v + 1 (v false)
//!   group g = t * N*N + i, members k = 0..N:
//!     t = 0 cell i                 member k = digit k + 1
//!     t = 1 (row, digit)  i = r*N+d member k = column k
//!     t = 2 (col, digit)  i = c*N+d member k = row k
//!     t = 3 (box, digit)  i = b*N+d member k = k-th cell of the box
//!   member(g, k) = base[g] + offs[t * N + k]      (no table of N^3 entries;
//!                  base and t * N packed in one word of gbase)
//!   alive[g]  u64, bit k set while member k is not false
//!   groups(v) [g << 6 | k; 4]: the groups of v and its place in each,
//!             cellg[cell] plus the digit (a table per cell, not per
//!             variable: 20 KiB instead of 729 KiB at 36x36)
//!   arena     learned clauses: [len, lbd | KEEP, lit, lit, ...]
//! ```
//!
//! Propagation needs no clauses for the rules themselves: a variable set
//! true sets the other alive members of its four groups false (reason: that
//! variable), and a group left with one alive member sets it true (reason:
//! the group), with none it is a conflict. Learned clauses use two watched
//! literals. Decisions take the most active unassigned variable (EVSIDS)
//! and give it its value in the longest conflict-free trail met so far (the
//! "best" or target phase of CaDiCaL; before it was ever on such a trail,
//! its value in a solution the caller knows, [`Ask::near`], else true,
//! "this cell holds this digit"); restarts follow the Luby sequence
//! and keep the learned clauses and that phase. Always deciding true was
//! worse: 36x36 at 60% blanks, 20 varied grids, 68 s with 2 give-ups at
//! 200k conflicts against 28 s with none. The best-trail phase against the
//! value each variable last held (progress saving): 25x25 at 55% blanks,
//! 50 and 200 puzzles of two seeds, 87.7k and 322k conflicts down to 41.1k
//! and 156k; 36x36 at 60%, 5 and 5 puzzles, 115k and 561k down to 90k and
//! 150k.
//!
//! From 36x36 up, every so often, at a restart, a local search over the
//! blank cells' level-0 candidates (`walk.rs`) starts from that phase and
//! leaves the assignment with the fewest clashes it met as the new phase:
//! near full assignments (36x36 at 50% blanks conflicts come with 96% of
//! the variables set) the search then lands close to a solution.
//!
//! Counting is exact: after each solution a clause forbidding its decisions
//! (which imply it) is added and the search goes on until it runs out. A
//! walk's solution ends the search only when one solution is asked for.

use super::Search;

mod walk;
use walk::{Random, Walk};

/// Assignment of a variable.
const UNSET: i8 = 0;
const TRUE: i8 = 1;
const FALSE: i8 = -1;

/// Bits of a group's base member in `gbase`; `t * N` sits above.
const GSHIFT: u32 = 20;

/// Learned clause header: `[len, lbd | KEEP, pos]`, then the literals;
/// `pos` is where the last search for a new watch stopped.
const HDR: usize = 3;
/// Set in the lbd word of clauses that must never be deleted (the blocking
/// clauses of counted solutions: dropping one could count a solution twice).
const KEEP: u32 = 1 << 31;
/// Set in the lbd word of a learned clause that took part in a conflict's
/// analysis since the last reduction.
const USED: u32 = 1 << 30;

/// Learned clauses and shrunk blocks, recorded for tests when set.
#[cfg(test)]
#[derive(Default)]
struct Log {
    clauses: Vec<Vec<u32>>,
    shrunk: usize,
}

#[cfg(test)]
thread_local! {
    static LOG: std::cell::RefCell<Option<Log>> = const { std::cell::RefCell::new(None) };
}

thread_local! {
    /// The memory of this thread's last search, reused by its next one of
    /// the same shape (see [`Solver::take`]).
    static SPARE: std::cell::RefCell<Option<Solver>> = const { std::cell::RefCell::new(None) };
}

/// Learned-clause memory (in `u32`s) past which a finished search's solver
/// is dropped instead of kept for the next one: 16 MiB, a few hundred
/// thousand conflicts' worth, so a long search's clauses do not stay
/// with the thread.
const SPARE_MAX_ARENA: usize = 1 << 22;

/// Why a variable holds its value; what conflict analysis resolves on.
#[derive(Clone, Copy, Debug)]
enum Reason {
    /// Branch point, or a fact at level 0 (never analysed).
    Decision,
    /// False because this variable of a shared group is true.
    Peer(u32),
    /// True because every other member of this group is false.
    Group(u32),
    /// Implied by the learned clause at this arena offset (literal 0).
    Clause(u32),
}

/// A clause found with every literal false.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    /// Two true variables in one group: the clause (!a | !b).
    Pair(u32, u32),
    /// Every member of a group false: its at-least-one clause.
    Group(u32),
    /// A learned clause.
    Clause(u32),
}

#[derive(Clone, Copy)]
struct Watch {
    cref: u32,
    /// Another literal of the clause: when it is true the clause is skipped
    /// without touching the arena.
    blocker: u32,
}

/// Max-heap of variables by activity, with positions for decrease-key.
struct Heap {
    heap: Vec<u32>,
    pos: Vec<u32>,
}

const NOT_IN_HEAP: u32 = u32::MAX;

impl Heap {
    fn contains(&self, v: u32) -> bool {
        self.pos[v as usize] != NOT_IN_HEAP
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let p = (i - 1) / 2;
            let pv = self.heap[p];
            if act[pv as usize] >= act[v as usize] {
                break;
            }
            self.heap[i] = pv;
            self.pos[pv as usize] = i as u32;
            i = p;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.heap[i];
        let len = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= len {
                break;
            }
            let r = l + 1;
            let c = if r < len && act[self.heap[r] as usize] > act[self.heap[l] as usize] {
                r
            } else {
                l
            };
            let cv = self.heap[c];
            if act[cv as usize] <= act[v as usize] {
                break;
            }
            self.heap[i] = cv;
            self.pos[cv as usize] = i as u32;
            i = c;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }

    fn insert(&mut self, v: u32, act: &[f64]) {
        if self.contains(v) {
            return;
        }
        self.heap.push(v);
        let i = self.heap.len() - 1;
        self.up(i, act);
    }

    fn pop(&mut self, act: &[f64]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = NOT_IN_HEAP;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.down(0, act);
        }
        Some(top)
    }
}

/// The `i`-th term (0-based) of the Luby sequence 1 1 2 1 1 2 4 ...
fn luby(mut i: u64) -> u64 {
    // Find the finite subsequence that contains index i, and its size.
    let (mut size, mut seq) = (1u64, 0u32);
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        seq -= 1;
        i %= size;
    }
    1 << seq
}

/// Conflicts per Luby unit between restarts. Tried with the best-trail
/// phase, conflicts on 25x25 at 55% (50 and 200 puzzles, 41.1k and 156k
/// here): units 32 to 1024 within noise (35k-50k, 143k-177k); Glucose-style
/// LBD moving-average restarts (fast 1/32, slow 1/4096, margin 1.1 or 1.25)
/// 53k-61k and 155k-175k there and 2.6x to 10x the conflicts on 36x36 at
/// 60%; alternating those with Luby 1024 (CaDiCaL's focused and stable
/// modes) 62k and 235k. Reusing the trail at restarts (keeping the
/// decisions more active than the next one) and keeping used clauses of
/// LBD up to 6 or 8 at reductions did not help beyond noise either.
const RESTART_UNIT: u64 = 64;
/// Activity decay per conflict (EVSIDS): bumps grow by 1/0.95.
const VAR_DECAY: f64 = 0.95;
/// Local search for the phase ([`walk`]) at the first restart after
/// `WALK_UNIT * (1 + 2 + .. + k)` conflicts (k walks so far), for
/// `WALK_EFFORT` steps per conflict since the last walk (about a fifth of
/// the time at 36x36). 36x36 at 50% blanks, 10 puzzles capped at 300k
/// conflicts: 5 solved, 2.23M conflicts, 269 s without; 10 solved, 472k
/// conflicts, 33 s with. The walks themselves end at 2 to 10 clashes and
/// solved none; the searches often end a few dozen conflicts after one.
/// Clearing the best trail's length after a walk (the next conflicts then
/// overwrite its phase): 10 solved, 678k, 50 s, and 25x25 at 55% and
/// 36x36 at 60% slower. Those two sets with the walk (runs alternated):
/// 37.7k -> 33.7k and 27.4k -> 22.8k conflicts, but 0.87 -> 0.97 s and
/// 0.9 -> 1.08 s, the first walk (45 ms at 2000 conflicts) not paying on
/// puzzles that end soon after it.
const WALK_UNIT: u64 = 2000;
const WALK_EFFORT: u64 = 200;
/// Walks run from 36x36 up, where they were measured to pay. A 25x25
/// search that lasts 2000 conflicts is mostly a puzzle with one solution
/// (those `generate` makes), where a walk finds nothing and costs about as
/// much as the search: 15 unique 25x25 puzzles (`generate --size 25`,
/// seeds 1 to 3), learning search alone, first solution 15.1 -> 7.9 s
/// (303k -> 258k conflicts), counted to 2 32.1 -> 20.5 s. Random 25x25
/// sets at 50-60% blanks (seeds 1 and 2) run the same searches: none
/// reached a walk.
const WALK_MIN_SIDE: usize = 36;
/// Learned clauses kept before the first reduction in a count (`limit` 2
/// or more: the search goes on after a solution) of shrunk clauses; 2000
/// otherwise. Unique 25x25 puzzles counted to 2, learning search alone,
/// runs side by side: 40 puzzles 36.0 -> 33.2 s (1.17M -> 0.95M
/// conflicts), 45 others 53.7 -> 49.3 s (1.67M -> 1.36M); 4000 and 16000
/// were between. Not for one solution: 25x25 at 55% blanks went 0.57 ->
/// 0.70 s on one seed, 0.50 -> 0.47 on another, and a 36x36 set at 50%
/// 17 -> 91 s.
const COUNT_LEARNTS: usize = 8000;
/// Learned clauses are shrunk ([`Solver::shrink`]) up to this side.
/// Learning search alone, with and without, runs side by side: unique
/// 25x25 puzzles counted to 2, 40 of `generate` seed 21 49.5 -> 35.5 s
/// (1.43M -> 1.17M conflicts; clauses 60 -> 36 literals on the first
/// five); in a trial build of the same rule, 15 of seeds 1-3 20.8 -> 15.6 s; 25x25 at 55% blanks
/// (50) 0.86 -> 0.53 s; unique 16x16 (30) 61 -> 57 ms. At 36x36 it
/// helped at 60% blanks (20 puzzles, 1.06 -> 0.96 s) but not at 50%,
/// where the walks find the solutions: three sets of 10 capped at 300k
/// conflicts, 32 -> 45 s, 74 -> 61 s and 17 -> 95 s.
const SHRINK_MAX_SIDE: usize = 25;

struct Solver {
    nv: usize,
    /// Side of the grid.
    n: u32,
    box_rows: usize,
    box_cols: usize,
    /// `ceil(2^32 / n)`: `v / n` as a multiply and a shift.
    n_inv: u64,
    /// `groups(cell * n)`, the groups of the cell's first digit.
    cellg: Vec<[u32; 4]>,
    /// `base | (t * n) << GSHIFT` per group.
    gbase: Vec<u32>,
    offs: Vec<u32>,
    alive: Vec<u64>,
    /// `alive` as it was at level 0 when last saved: a superset of the
    /// members not false at level 0.
    root_alive: Vec<u64>,
    val: Vec<i8>,
    level: Vec<u32>,
    reason: Vec<Reason>,
    /// Assigned literals in order, `tlen` of them (`nv` long, never grown:
    /// the propagation loop works on it as a plain slice).
    trail: Vec<u32>,
    tlen: usize,
    trail_lim: Vec<usize>,
    qhead: usize,
    arena: Vec<u32>,
    learnts: Vec<u32>,
    watches: Vec<Vec<Watch>>,
    /// Bit `l` set when literal `l` may have watches (clear: it has none).
    /// Two thirds of the literals made false watch no clause, and this
    /// small bitset answers that without loading the list's header.
    watched: Vec<u64>,
    act: Vec<f64>,
    var_inc: f64,
    heap: Heap,
    seen: Vec<bool>,
    /// Value of each variable in the longest trail below a conflicting
    /// level met so far (`best_len` long), true before it was on one.
    /// Resetting the length at restarts (so the phase follows the longest
    /// trail since the restart) or every 1000 to 20000 conflicts doubled
    /// the conflicts or changed nothing beyond noise.
    best: Vec<bool>,
    best_len: usize,
    level_stamp: Vec<u64>,
    stamp: u64,
    /// Trail position of each assigned variable.
    tpos: Vec<u32>,
    /// Per level, while minimising: the earliest trail position of a
    /// literal of the clause at that level (valid where `first_stamp` is
    /// the current `stamp`).
    first_pos: Vec<u32>,
    first_stamp: Vec<u64>,
    /// Shrink learned clauses (sides up to [`SHRINK_MAX_SIDE`]).
    shrink: bool,
    /// Per variable, while shrinking: in the current block when it equals
    /// `block_stamp`.
    block_mark: Vec<u32>,
    block_stamp: u32,
    // Scratch buffers, kept to avoid allocating per conflict.
    buf: Vec<u32>,
    buf2: Vec<u32>,
    learnt: Vec<u32>,
    stack: Vec<u32>,
    toclear: Vec<u32>,
    conflicts: u64,
    decisions: u64,
    walk_state: Walk,
    /// A reduction keeps every learned clause that took part in an
    /// analysis (as the conflict or a reason) since the previous one, as
    /// CaDiCaL's middle tier keeps its recently used clauses; set in the
    /// counts that keep [`COUNT_LEARNTS`]. Unique 25x25 puzzles counted to
    /// 2, learning search alone, side by side: 45 puzzles 1.356M ->
    /// 1.252M conflicts, 49.9 -> 49.2 s and 48.6 s against 50.1 s (two
    /// runs), the slowest 3.56 -> 2.64 s (81k -> 58k conflicts); 40 others
    /// 949k -> 909k, 33.2 -> 33.6 s. Keeping only those of LBD up to 6 or
    /// 10, or lowering a used clause's LBD to its current one (Glucose),
    /// did less. Not for one solution: 25x25 at 55% blanks, 27.0k -> 30.9k
    /// and 23.9k -> 24.5k conflicts on two seeds.
    keep_used: bool,
}

/// `member(g, k)` of the module doc.
#[inline(always)]
fn member(gbase: &[u32], offs: &[u32], g: usize, k: u32) -> u32 {
    let b = gbase[g];
    (b & ((1 << GSHIFT) - 1)) + offs[(b >> GSHIFT) as usize + k as usize]
}

/// `groups(v)` of the module doc: the four groups of variable `v`, each
/// `g << 6 | k` (its place).
#[inline(always)]
fn groups(cellg: &[[u32; 4]], n: u32, n_inv: u64, v: u32) -> [u32; 4] {
    // Exact: v * (n_inv * n - 2^32) < 2^18 * 64 < 2^32.
    let cell = ((v as u64 * n_inv) >> 32) as u32;
    let d = v - cell * n;
    let [a, b, c, e] = cellg[cell as usize];
    [a + d, b + (d << 6), c + (d << 6), e + (d << 6)]
}

/// The value of literal `l` under the assignment `val`.
#[inline(always)]
fn lit_value(val: &[i8], l: u32) -> i8 {
    let v = val[(l >> 1) as usize];
    if l & 1 == 0 {
        v
    } else {
        -v
    }
}

/// Adds `w` to the watches of literal `l`.
#[inline(always)]
fn watch(watches: &mut [Vec<Watch>], watched: &mut [u64], l: u32, w: Watch) {
    watches[l as usize].push(w);
    watched[(l >> 6) as usize] |= 1 << (l & 63);
}

/// What propagation reads and writes, borrowed from the [`Solver`] as
/// slices. Through `&mut self` every store into one `Vec`'s buffer made the
/// compiler load the other `Vec`s' pointers and lengths again (a byte store
/// may alias them); slices held in a local view stay in registers.
struct Prop<'a> {
    n: u32,
    n_inv: u64,
    /// The current decision level.
    level_now: u32,
    cellg: &'a [[u32; 4]],
    gbase: &'a [u32],
    offs: &'a [u32],
    alive: &'a mut [u64],
    val: &'a mut [i8],
    level: &'a mut [u32],
    reason: &'a mut [Reason],
    tpos: &'a mut [u32],
    trail: &'a mut [u32],
    tlen: &'a mut usize,
    qhead: &'a mut usize,
    arena: &'a mut [u32],
    watches: &'a mut [Vec<Watch>],
    watched: &'a mut [u64],
}

impl Prop<'_> {
    #[inline(always)]
    fn lit_value(&self, l: u32) -> i8 {
        lit_value(&*self.val, l)
    }

    #[inline(always)]
    fn assign(&mut self, l: u32, why: Reason) {
        let v = (l >> 1) as usize;
        debug_assert_eq!(self.val[v], UNSET);
        let t = *self.tlen;
        self.level[v] = self.level_now;
        self.reason[v] = why;
        self.tpos[v] = t as u32;
        self.trail[t] = l;
        *self.tlen = t + 1;
        if l & 1 == 0 {
            self.val[v] = TRUE;
        } else {
            self.val[v] = FALSE;
            for gk in groups(self.cellg, self.n, self.n_inv, v as u32) {
                self.alive[(gk >> 6) as usize] &= !(1u64 << (gk & 63));
            }
        }
    }

    fn propagate(&mut self) -> Option<Conflict> {
        while *self.qhead < *self.tlen {
            let p = self.trail[*self.qhead];
            *self.qhead += 1;
            let v = p >> 1;
            if p & 1 == 0 {
                for gk in groups(self.cellg, self.n, self.n_inv, v) {
                    let g = (gk >> 6) as usize;
                    let mut m = self.alive[g] & !(1u64 << (gk & 63));
                    while m != 0 {
                        let w = member(self.gbase, self.offs, g, m.trailing_zeros());
                        m &= m - 1;
                        match self.val[w as usize] {
                            UNSET => self.assign(2 * w + 1, Reason::Peer(v)),
                            TRUE => return Some(Conflict::Pair(v, w)),
                            _ => {}
                        }
                    }
                }
            } else {
                for gk in groups(self.cellg, self.n, self.n_inv, v) {
                    let g = (gk >> 6) as usize;
                    let m = self.alive[g];
                    if m == 0 {
                        return Some(Conflict::Group(g as u32));
                    }
                    if m & (m - 1) == 0 {
                        let w = member(self.gbase, self.offs, g, m.trailing_zeros());
                        if self.val[w as usize] == UNSET {
                            self.assign(2 * w, Reason::Group(g as u32));
                        }
                    }
                }
            }
            if let Some(c) = self.propagate_watches(p ^ 1) {
                return Some(c);
            }
        }
        None
    }

    /// The first `k` in `from..to` whose literal `arena[lits + k]` is not
    /// false. One bounds check, no sign branch (the literal `2v` is false
    /// when `v` holds -1, `2v + 1` when it holds 1), two plain loops
    /// instead of a chained iterator: the same search, 2% less time on 45
    /// unique 25x25 puzzles counted to 2 (one run side by side, so within
    /// the noise; it is the hottest loop of the learning search there).
    #[inline(always)]
    fn not_false(&self, lits: usize, from: usize, to: usize) -> Option<usize> {
        self.arena[lits + from..lits + to]
            .iter()
            .position(|&l| self.val[(l >> 1) as usize] != (l & 1) as i8 * 2 - 1)
            .map(|k| k + from)
    }

    /// Visits the learned clauses watching `fl`, which just became false.
    fn propagate_watches(&mut self, fl: u32) -> Option<Conflict> {
        if self.watched[(fl >> 6) as usize] & (1 << (fl & 63)) == 0 {
            return None;
        }
        let mut ws = std::mem::take(&mut self.watches[fl as usize]);
        let (mut i, mut j) = (0, 0);
        let mut conflict = None;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if self.lit_value(w.blocker) == TRUE {
                ws[j] = w;
                j += 1;
                continue;
            }
            let c = w.cref as usize;
            let len = self.arena[c] as usize;
            let lits = c + HDR;
            if self.arena[lits] == fl {
                self.arena.swap(lits, lits + 1);
            }
            let first = self.arena[lits];
            let kept = Watch {
                cref: w.cref,
                blocker: first,
            };
            if first != w.blocker && self.lit_value(first) == TRUE {
                ws[j] = kept;
                j += 1;
                continue;
            }
            // Look for a literal not false from where the last search
            // stopped, then wrap around (Gent's circular search): learned
            // clauses here are long (130 literals on average at 36x36).
            let pos = self.arena[c + 2] as usize;
            let found = self
                .not_false(lits, pos, len)
                .or_else(|| self.not_false(lits, 2, pos));
            if let Some(k) = found {
                let l = self.arena[lits + k];
                self.arena[lits + 1] = l;
                self.arena[lits + k] = fl;
                self.arena[c + 2] = k as u32;
                watch(self.watches, self.watched, l, kept);
                continue;
            }
            ws[j] = kept;
            j += 1;
            if self.lit_value(first) == FALSE {
                conflict = Some(Conflict::Clause(w.cref));
                while i < ws.len() {
                    ws[j] = ws[i];
                    i += 1;
                    j += 1;
                }
                *self.qhead = *self.tlen;
            } else {
                self.assign(first, Reason::Clause(w.cref));
            }
        }
        ws.truncate(j);
        if j == 0 {
            self.watched[(fl >> 6) as usize] &= !(1 << (fl & 63));
        }
        self.watches[fl as usize] = ws;
        conflict
    }
}

impl Solver {
    fn new(box_rows: usize, box_cols: usize) -> Solver {
        let n = box_rows * box_cols;
        let nn = n * n;
        let nv = nn * n;
        let stacks = n / box_cols;
        let mut offs = vec![0u32; 4 * n];
        for k in 0..n {
            offs[k] = k as u32;
            offs[n + k] = (k * n) as u32;
            offs[2 * n + k] = (k * nn) as u32;
            offs[3 * n + k] = (((k / box_cols) * n + k % box_cols) * n) as u32;
        }
        let mut gbase = vec![0u32; 4 * nn];
        for i in 0..nn {
            let (a, d) = (i / n, i % n);
            let (band, stack) = (a / stacks, a % stacks);
            let corner = band * box_rows * n + stack * box_cols;
            let bases = [i * n, a * nn + d, a * n + d, corner * n + d];
            for (t, base) in bases.into_iter().enumerate() {
                debug_assert!(base < 1 << GSHIFT);
                gbase[t * nn + i] = (base | (t * n) << GSHIFT) as u32;
            }
        }
        let mut cellg = vec![[0u32; 4]; nn];
        for (cell, slot) in cellg.iter_mut().enumerate() {
            let d = 0;
            let (r, c) = (cell / n, cell % n);
            let b = (r / box_rows) * stacks + c / box_cols;
            let kb = (r % box_rows) * box_cols + c % box_cols;
            let g = |t: usize, i: usize, k: usize| (((t * nn + i) << 6) | k) as u32;
            *slot = [
                g(0, cell, d),
                g(1, r * n + d, c),
                g(2, c * n + d, r),
                g(3, b * n + d, kb),
            ];
        }
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        Solver {
            nv,
            n: n as u32,
            box_rows,
            box_cols,
            n_inv: (1u64 << 32) / n as u64 + 1,
            cellg,
            gbase,
            offs,
            alive: vec![full; 4 * nn],
            root_alive: vec![full; 4 * nn],
            val: vec![UNSET; nv],
            level: vec![0; nv],
            reason: vec![Reason::Decision; nv],
            trail: vec![0; nv],
            tlen: 0,
            trail_lim: Vec::new(),
            qhead: 0,
            arena: Vec::new(),
            learnts: Vec::new(),
            watches: vec![Vec::new(); 2 * nv],
            watched: vec![0; (2 * nv).div_ceil(64)],
            act: vec![0.0; nv],
            var_inc: 1.0,
            heap: Heap {
                heap: Vec::with_capacity(nv),
                pos: vec![NOT_IN_HEAP; nv],
            },
            seen: vec![false; nv],
            best: vec![true; nv],
            best_len: 0,
            level_stamp: vec![0; nv + 1],
            stamp: 0,
            tpos: vec![0; nv],
            first_pos: vec![0; nv + 1],
            first_stamp: vec![0; nv + 1],
            shrink: n <= SHRINK_MAX_SIDE,
            block_mark: vec![0; nv],
            block_stamp: 0,
            buf: Vec::new(),
            buf2: Vec::new(),
            learnt: Vec::new(),
            stack: Vec::new(),
            toclear: Vec::new(),
            conflicts: 0,
            decisions: 0,
            walk_state: Walk::default(),
            keep_used: false,
        }
    }

    /// A solver for boxes `box_rows` x `box_cols`, as [`Solver::new`]
    /// makes it: this thread's spare one when it has that shape (reset),
    /// else a new one. A search touches every per-variable array (117k
    /// variables at 49x49, 262k at 64x64, about 80 bytes each), and where
    /// the allocator hands that memory back to the kernel, the next search
    /// pays page faults and zeroing again: 100 puzzles at 49x49 with 40%
    /// blanks (one in ten comes here), `bench -j 1`, five runs alternated:
    /// 94.6 -> 87.4 ms of CPU (median), 5,368 -> 3,341 page faults; a
    /// 49x49 puzzle solved here without a conflict, ten times in a test
    /// thread: 5.7 -> 0.6 ms each. 25x25 (2 MB a search, which glibc
    /// keeps anyway) is unchanged.
    fn take(box_rows: usize, box_cols: usize) -> Solver {
        let spare = SPARE.with(|spare| spare.borrow_mut().take());
        match spare {
            Some(mut s) if (s.box_rows, s.box_cols) == (box_rows, box_cols) => {
                s.reset();
                s
            }
            _ => Solver::new(box_rows, box_cols),
        }
    }

    /// Keeps this solver for the thread's next search, unless its learned
    /// clauses took more than [`SPARE_MAX_ARENA`].
    fn give_back(self) {
        if self.arena.capacity() <= SPARE_MAX_ARENA {
            SPARE.with(|spare| *spare.borrow_mut() = Some(self));
        }
    }

    /// Back to the state [`Solver::new`] leaves, keeping the memory. What
    /// a search writes before it reads it (a variable's level, reason and
    /// trail position are set when it is assigned) is left as it is; the
    /// stamps go on counting up, so earlier marks never equal a new one.
    fn reset(&mut self) {
        let n = self.n as usize;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        self.alive.fill(full);
        self.root_alive.fill(full);
        self.val.fill(UNSET);
        self.tlen = 0;
        self.trail_lim.clear();
        self.qhead = 0;
        self.arena.clear();
        self.learnts.clear();
        for (w, &bits) in self.watched.iter().enumerate() {
            let mut m = bits;
            while m != 0 {
                self.watches[w * 64 + m.trailing_zeros() as usize].clear();
                m &= m - 1;
            }
        }
        self.watched.fill(0);
        self.act.fill(0.0);
        self.var_inc = 1.0;
        self.heap.heap.clear();
        self.heap.pos.fill(NOT_IN_HEAP);
        self.seen.fill(false);
        self.best.fill(true);
        self.best_len = 0;
        for buf in [
            &mut self.buf,
            &mut self.buf2,
            &mut self.learnt,
            &mut self.stack,
            &mut self.toclear,
        ] {
            buf.clear();
        }
        self.conflicts = 0;
        self.decisions = 0;
        self.keep_used = false;
    }

    #[inline(always)]
    fn member(&self, g: usize, k: u32) -> u32 {
        member(&self.gbase, &self.offs, g, k)
    }

    /// The four groups of variable `v`, each `g << 6 | k` (its place).
    #[inline(always)]
    fn groups(&self, v: u32) -> [u32; 4] {
        groups(&self.cellg, self.n, self.n_inv, v)
    }

    #[inline(always)]
    /// Box index (row-major over the boxes) of `cell`.
    fn box_of(&self, cell: usize) -> usize {
        let n = self.n as usize;
        (cell / n / self.box_rows) * (n / self.box_cols) + cell % n / self.box_cols
    }

    /// The digit `cell` holds (the digit of its true variable), if any.
    fn placed(&self, cell: usize) -> Option<u8> {
        let n = self.n as usize;
        (0..n)
            .find(|&d| self.val[cell * n + d] == TRUE)
            .map(|d| d as u8 + 1)
    }

    fn lit_value(&self, l: u32) -> i8 {
        lit_value(&self.val, l)
    }

    fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    #[inline(always)]
    fn assign(&mut self, l: u32, why: Reason) {
        self.prop().assign(l, why);
    }

    /// The arrays propagation reads and writes, as plain slices (see [`Prop`]).
    #[inline(always)]
    fn prop(&mut self) -> Prop<'_> {
        Prop {
            n: self.n,
            n_inv: self.n_inv,
            level_now: self.trail_lim.len() as u32,
            cellg: &self.cellg,
            gbase: &self.gbase,
            offs: &self.offs,
            alive: &mut self.alive,
            val: &mut self.val,
            level: &mut self.level,
            reason: &mut self.reason,
            tpos: &mut self.tpos,
            trail: &mut self.trail,
            tlen: &mut self.tlen,
            qhead: &mut self.qhead,
            arena: &mut self.arena,
            watches: &mut self.watches,
            watched: &mut self.watched,
        }
    }

    fn backtrack(&mut self, lvl: u32) {
        if self.decision_level() <= lvl {
            return;
        }
        let start = self.trail_lim[lvl as usize];
        for i in (start..self.tlen).rev() {
            let l = self.trail[i];
            let v = (l >> 1) as usize;
            if l & 1 == 1 {
                for gk in self.groups(v as u32) {
                    self.alive[(gk >> 6) as usize] |= 1u64 << (gk & 63);
                }
            }
            self.val[v] = UNSET;
            self.heap.insert(v as u32, &self.act);
        }
        self.tlen = start;
        self.trail_lim.truncate(lvl as usize);
        self.qhead = start;
    }

    /// Runs every implication of the trail to a fixed point; the first
    /// clause found all false, if any.
    ///
    /// Tried (before the walk): all-different per unit at this fixed point
    /// (units changed since their last check; matching of open cells to
    /// digits, Hall-set conflict "a cell of S holds a digit outside D";
    /// Régin pruning by components of the cell graph, reasons kept per
    /// level). Conflicts at
    /// 300k cap, r36-50 (10): 2.23M, 5 solved, 198 s -> 1.71M, 6 solved,
    /// 257 s; r25-55 (50) 37.7k -> 16.3k and 0.9 -> 1.3 s, r36-60 (20)
    /// 27.4k -> 10.8k and 0.9 -> 2.0 s (1.7x the time per conflict).
    /// Hall conflicts alone: 1% of conflicts, no gain. Turned on only after
    /// 10k conflicts: r36-50 5 solved, 283 s.
    fn propagate(&mut self) -> Option<Conflict> {
        self.prop().propagate()
    }

    /// The literals of the reason of `v` other than `v`'s own (all false),
    /// appended to `out`.
    fn reason_lits(&self, v: u32, out: &mut Vec<u32>) {
        match self.reason[v as usize] {
            Reason::Decision => {}
            Reason::Peer(u) => out.push(2 * u + 1),
            Reason::Group(g) => self.group_lits(g as usize, Some(v), out),
            Reason::Clause(c) => {
                let c = c as usize;
                let len = self.arena[c] as usize;
                out.extend_from_slice(&self.arena[c + HDR + 1..c + HDR + len]);
            }
        }
    }

    /// Positive literals of the members of group `g`, but `skip` and those
    /// false at level 0 (which analysis passes over anyway): at 50-60%
    /// blanks half the members or more. Skipping them: 25x25 at 55%, 200
    /// puzzles, same conflicts, 3.4-4.5 s against 3.9-5.1 s (three runs
    /// alternated); 36x36 at 60%, 5 puzzles, about 4% less time.
    fn group_lits(&self, g: usize, skip: Option<u32>, out: &mut Vec<u32>) {
        let mut m = self.root_alive[g];
        while m != 0 {
            let w = self.member(g, m.trailing_zeros());
            m &= m - 1;
            if Some(w) != skip {
                out.push(2 * w);
            }
        }
    }

    /// Records which group members are not false at level 0; only valid
    /// at level 0.
    fn save_root_alive(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        self.root_alive.copy_from_slice(&self.alive);
    }

    fn conflict_lits(&self, c: Conflict, out: &mut Vec<u32>) {
        match c {
            Conflict::Pair(a, b) => out.extend([2 * a + 1, 2 * b + 1]),
            Conflict::Group(g) => self.group_lits(g as usize, None, out),
            Conflict::Clause(c) => {
                let c = c as usize;
                let len = self.arena[c] as usize;
                out.extend_from_slice(&self.arena[c + HDR..c + HDR + len]);
            }
        }
    }

    fn bump(&mut self, v: u32) {
        let v = v as usize;
        self.act[v] += self.var_inc;
        if self.act[v] > 1e100 {
            for a in &mut self.act {
                *a *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        if self.heap.contains(v as u32) {
            let i = self.heap.pos[v] as usize;
            self.heap.up(i, &self.act);
        }
    }

    /// First-UIP analysis of `confl` into `self.learnt` (asserting literal
    /// first, one of the highest remaining level second); returns the level
    /// to jump back to and the clause's LBD.
    fn analyze(&mut self, confl: Conflict) -> (u32, u32) {
        let cur = self.decision_level();
        let mut learnt = std::mem::take(&mut self.learnt);
        let mut buf = std::mem::take(&mut self.buf);
        learnt.clear();
        learnt.push(0);
        buf.clear();
        if let Conflict::Clause(c) = confl {
            self.touch(c as usize);
        }
        self.conflict_lits(confl, &mut buf);
        let mut path = 0usize;
        let mut idx = self.tlen;
        let p = loop {
            for &q in &buf {
                let v = (q >> 1) as usize;
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    self.bump(v as u32);
                    if self.level[v] == cur {
                        path += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            let p = loop {
                idx -= 1;
                let p = self.trail[idx];
                if self.seen[(p >> 1) as usize] {
                    break p;
                }
            };
            self.seen[(p >> 1) as usize] = false;
            path -= 1;
            if path == 0 {
                break p;
            }
            buf.clear();
            if let Reason::Clause(c) = self.reason[(p >> 1) as usize] {
                self.touch(c as usize);
            }
            self.reason_lits(p >> 1, &mut buf);
        };
        learnt[0] = p ^ 1;

        // Minimise: drop literals implied by the others (MiniSat's
        // recursive test, bounded by the levels present in the clause).
        let mut abstract_levels = 0u32;
        self.stamp += 1;
        for &q in &learnt[1..] {
            let v = (q >> 1) as usize;
            let l = self.level[v] as usize;
            abstract_levels |= 1 << (l & 31);
            if self.first_stamp[l] != self.stamp {
                self.first_stamp[l] = self.stamp;
                self.first_pos[l] = self.tpos[v];
            } else {
                self.first_pos[l] = self.first_pos[l].min(self.tpos[v]);
            }
        }
        self.toclear.clear();
        self.toclear.extend_from_slice(&learnt);
        let mut j = 1;
        for i in 1..learnt.len() {
            let q = learnt[i];
            if !self.implied(q, abstract_levels) {
                learnt[j] = q;
                j += 1;
            }
        }
        learnt.truncate(j);
        if self.shrink {
            self.shrink(&mut learnt, abstract_levels, &mut buf);
        }
        for &q in &self.toclear {
            self.seen[(q >> 1) as usize] = false;
        }

        // Jump back to the highest level below the conflict's.
        let mut bt = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for i in 2..learnt.len() {
                if self.level[(learnt[i] >> 1) as usize] > self.level[(learnt[best] >> 1) as usize]
                {
                    best = i;
                }
            }
            learnt.swap(1, best);
            bt = self.level[(learnt[1] >> 1) as usize];
        }
        self.stamp += 1;
        let mut lbd = 0;
        for &q in &learnt {
            let l = self.level[(q >> 1) as usize] as usize;
            if self.level_stamp[l] != self.stamp {
                self.level_stamp[l] = self.stamp;
                lbd += 1;
            }
        }
        self.bump_reasons(&learnt, &mut buf);
        self.learnt = learnt;
        self.buf = buf;
        (bt, lbd)
    }

    /// Marks learned clause `c` as used by the analysis under way (see
    /// [`Solver::keep_used`]).
    fn touch(&mut self, c: usize) {
        self.arena[c + 1] |= USED;
    }

    /// Shrinking (CaDiCaL's, after Fleury and Biere, "Efficient All-UIP
    /// Learned Clause Minimization", 2021): at each level below the
    /// conflict's with two or more literals in the minimised clause, those
    /// literals give way to their block UIP, the one trail literal of that
    /// level every implication path from the level's decision to them
    /// passes through. It is found as the first UIP is for the conflict's
    /// level, resolving the block's literals on the trail, and exists when
    /// the reasons met name no literal of a lower level but those in the
    /// clause or implied by it (marked `seen`, or shown by
    /// [`Solver::redundant`]). In this grid's clauses a decision "cell c
    /// holds d" falsifies up to 4 (N - 1) members of c's groups, and a
    /// clause names several of them where the decision alone would do:
    /// 25x25 clauses came down from 60 literals to 36 on average.
    fn shrink(&mut self, learnt: &mut Vec<u32>, abstract_levels: u32, buf: &mut Vec<u32>) {
        if learnt.len() < 3 {
            return;
        }
        learnt[1..].sort_unstable_by_key(|&q| self.level[(q >> 1) as usize]);
        let (mut out, mut i) = (1, 1);
        while i < learnt.len() {
            let l = self.level[(learnt[i] >> 1) as usize];
            let mut j = i + 1;
            while j < learnt.len() && self.level[(learnt[j] >> 1) as usize] == l {
                j += 1;
            }
            let uip = if j - i >= 2 {
                self.block_uip(&learnt[i..j], l, abstract_levels, buf)
            } else {
                None
            };
            if let Some(u) = uip {
                #[cfg(test)]
                LOG.with_borrow_mut(|log| {
                    if let Some(log) = log {
                        log.shrunk += 1;
                    }
                });
                learnt[out] = u ^ 1;
                out += 1;
                let v = (u >> 1) as usize;
                if !self.seen[v] {
                    self.seen[v] = true;
                    self.toclear.push(u ^ 1);
                }
            } else {
                learnt.copy_within(i..j, out);
                out += j - i;
            }
            i = j;
        }
        learnt.truncate(out);
    }

    /// The block UIP (a true trail literal) of the clause literals `block`,
    /// all at level `l`, or None (see [`Solver::shrink`]).
    fn block_uip(
        &mut self,
        block: &[u32],
        l: u32,
        abstract_levels: u32,
        buf: &mut Vec<u32>,
    ) -> Option<u32> {
        if self.block_stamp == u32::MAX {
            self.block_mark.fill(0);
            self.block_stamp = 0;
        }
        self.block_stamp += 1;
        let st = self.block_stamp;
        let mut open = block.len();
        let mut i = 0;
        for &q in block {
            let v = (q >> 1) as usize;
            self.block_mark[v] = st;
            i = i.max(self.tpos[v] as usize);
        }
        // Every marked literal is at level `l`, so at or after its decision
        // on the trail: the walk meets the last open one there at the latest.
        loop {
            let p = self.trail[i];
            let v = (p >> 1) as usize;
            if self.block_mark[v] == st {
                open -= 1;
                if open == 0 {
                    return Some(p);
                }
                buf.clear();
                self.reason_lits(v as u32, buf);
                for &r in buf.iter() {
                    let rv = (r >> 1) as usize;
                    let rl = self.level[rv];
                    if rl == l {
                        if self.block_mark[rv] != st {
                            self.block_mark[rv] = st;
                            open += 1;
                        }
                    } else if rl != 0 && !self.seen[rv] && !self.implied(r, abstract_levels) {
                        return None;
                    }
                }
            }
            i -= 1;
        }
    }

    /// Whether false literal `r` follows from the learned clause: not a
    /// decision, and [`Solver::redundant`] (with its own scratch buffer, so
    /// callers may hold theirs). Minimisation and shrinking both ask.
    fn implied(&mut self, r: u32, abstract_levels: u32) -> bool {
        if matches!(self.reason[(r >> 1) as usize], Reason::Decision) {
            return false;
        }
        let mut b = std::mem::take(&mut self.buf2);
        let implied = self.redundant(r, abstract_levels, &mut b);
        self.buf2 = b;
        implied
    }

    /// Reason-side bumping (as in CaDiCaL, but for every clause and with
    /// the full increment): the variables in the reasons of the learned
    /// clause's literals (but the asserting one) that are not in it. Its
    /// literals are mostly implied false, and their reasons name the
    /// cells and digits that crowded them out. Conflicts, 25x25 at 55%
    /// (50 and 200 puzzles) 43.8k and 148k -> 37.7k and 112k, at 50% (200)
    /// 21.2k -> 19.6k; 36x36 at 60% (two seeds of 20) 254k and 440k -> 27k
    /// and 28k. Only for clauses of up to 30 literals (CaDiCaL bounds it
    /// at 10): 49.9k, 156k, 19.8k, 208k, 184k. Also the asserting
    /// literal's reason: 41.5k, 117k, 22.2k, 85k, 57k. Half the increment:
    /// 46.9k, 151k, 24.5k, 80k, 144k; twice: 47.9k, 113k, 26.9k, 17.4k,
    /// 25.0k.
    fn bump_reasons(&mut self, learnt: &[u32], buf: &mut Vec<u32>) {
        self.toclear.clear();
        for &q in learnt {
            self.seen[(q >> 1) as usize] = true;
            self.toclear.push(q);
        }
        for &q in &learnt[1..] {
            buf.clear();
            self.reason_lits(q >> 1, buf);
            for &r in buf.iter() {
                let v = (r >> 1) as usize;
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    self.toclear.push(r);
                    self.bump(v as u32);
                }
            }
        }
        for &q in &self.toclear {
            self.seen[(q >> 1) as usize] = false;
        }
    }

    /// Whether the variable of a literal at a level of the learned clause
    /// could follow from the clause's literals: not when it is on the trail
    /// before every literal of the clause at its level (or at a level with
    /// none). Reasons point to earlier literals, and each implied literal
    /// has one of its own level in its reason, so its chains at that level
    /// only reach earlier literals and end at the level's decision. The
    /// answer of the search below is the same; it stops sooner (CaDiCaL's
    /// test): 25x25 and 36x36, 99% of the candidates fail.
    fn may_follow(&self, v: usize) -> bool {
        let l = self.level[v] as usize;
        self.first_stamp[l] == self.stamp && self.tpos[v] > self.first_pos[l]
    }

    /// Whether false literal `p` follows from literals already in the
    /// learned clause (marked `seen`) through reasons at levels present in
    /// the clause.
    fn redundant(&mut self, p: u32, abstract_levels: u32, buf: &mut Vec<u32>) -> bool {
        if !self.may_follow((p >> 1) as usize) {
            return false;
        }
        self.stack.clear();
        self.stack.push(p);
        let top = self.toclear.len();
        while let Some(q) = self.stack.pop() {
            buf.clear();
            self.reason_lits(q >> 1, buf);
            for &r in buf.iter() {
                let v = (r >> 1) as usize;
                if self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                if !matches!(self.reason[v], Reason::Decision)
                    && abstract_levels & (1 << (self.level[v] & 31)) != 0
                    && self.may_follow(v)
                {
                    self.seen[v] = true;
                    self.stack.push(r);
                    self.toclear.push(r);
                } else {
                    for &c in &self.toclear[top..] {
                        self.seen[(c >> 1) as usize] = false;
                    }
                    self.toclear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// Adds `w` to the watches of literal `l`.
    fn watch(&mut self, l: u32, w: Watch) {
        watch(&mut self.watches, &mut self.watched, l, w);
    }

    /// Stores clause `lits` (asserting literal first, a literal of the
    /// highest other level second) and watches its first two literals.
    fn add_clause(&mut self, lits: &[u32], lbd: u32) -> u32 {
        let cref = self.arena.len() as u32;
        self.arena.push(lits.len() as u32);
        self.arena.push(lbd);
        self.arena.push(2);
        self.arena.extend_from_slice(lits);
        self.watch(
            lits[0],
            Watch {
                cref,
                blocker: lits[1],
            },
        );
        self.watch(
            lits[1],
            Watch {
                cref,
                blocker: lits[0],
            },
        );
        self.learnts.push(cref);
        cref
    }

    /// Learns `lits` at the current (already backtracked) level: a unit
    /// becomes a level-0 fact, a longer clause is stored and its first
    /// literal implied.
    fn learn(&mut self, lits: &[u32], lbd: u32) {
        #[cfg(test)]
        LOG.with_borrow_mut(|log| {
            if let Some(log) = log {
                log.clauses.push(lits.to_vec());
            }
        });
        if lits.len() == 1 {
            self.assign(lits[0], Reason::Decision);
        } else {
            let cref = self.add_clause(lits, lbd);
            self.assign(lits[0], Reason::Clause(cref));
        }
    }

    /// Deletes the worse half of the deletable learned clauses (by LBD,
    /// then length; with [`Solver::keep_used`] those used since the last
    /// reduction are not deletable) and every clause satisfied at level 0,
    /// then compacts the arena and rebuilds the watch lists. Only called at level 0, where
    /// no reason that analysis can reach points into the arena.
    fn reduce(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let mut order: Vec<(u32, u32, u32)> = Vec::with_capacity(self.learnts.len());
        let mut keep = vec![false; self.learnts.len()];
        for (i, &c) in self.learnts.iter().enumerate() {
            let c = c as usize;
            let len = self.arena[c] as usize;
            let satisfied = self.arena[c + HDR..c + HDR + len]
                .iter()
                .any(|&l| self.lit_value(l) == TRUE);
            if satisfied {
                continue;
            }
            let w = self.arena[c + 1];
            let lbd = w & !USED;
            self.arena[c + 1] = lbd;
            if lbd & KEEP != 0 || lbd <= 2 || (w & USED != 0 && self.keep_used) {
                keep[i] = true;
            } else {
                order.push((lbd, len as u32, i as u32));
            }
        }
        // Newer first among equals: the later index wins the tie.
        order.sort_unstable_by_key(|&(lbd, len, i)| (lbd, len, u32::MAX - i));
        for &(_, _, i) in &order[..order.len() / 2] {
            keep[i as usize] = true;
        }
        let old = std::mem::take(&mut self.arena);
        let learnts = std::mem::take(&mut self.learnts);
        for w in &mut self.watches {
            w.clear();
        }
        self.watched.fill(0);
        for (i, &c) in learnts.iter().enumerate() {
            if !keep[i] {
                continue;
            }
            let c = c as usize;
            let len = old[c] as usize;
            let cref = self.arena.len() as u32;
            self.arena.extend_from_slice(&old[c..c + HDR + len]);
            let (a, b) = (old[c + HDR], old[c + HDR + 1]);
            self.watch(a, Watch { cref, blocker: b });
            self.watch(b, Watch { cref, blocker: a });
            self.learnts.push(cref);
        }
        for r in &mut self.reason {
            if matches!(r, Reason::Clause(_)) {
                *r = Reason::Decision;
            }
        }
    }

    /// Sets the givens and every candidate their units rule out at level 0
    /// in one pass over the grid, with no propagation queue: what
    /// propagating the givens one by one would set, but for the singles
    /// that follow ([`Solver::singles`]). At 49x49 with 60% givens that
    /// propagation took 2.9 ms of a 6.7 ms search; this and the singles
    /// 0.6 ms, the same search after (61 conflicts; 25x25 at 55% and 36x36
    /// at 60% keep their conflict counts too). False when the givens clash
    /// or one is above the side (no solution).
    fn load_givens(&mut self, cells: &[u8]) -> bool {
        let n = self.n as usize;
        let (mut rows, mut cols, mut boxes) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
        for (cell, &d) in cells.iter().enumerate() {
            if d == 0 {
                continue;
            }
            if d as usize > n {
                return false;
            }
            let bit = 1u64 << (d - 1);
            let (r, c, b) = (cell / n, cell % n, self.box_of(cell));
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return false;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        for (cell, &d) in cells.iter().enumerate() {
            let base = cell * n;
            let gone = if d == 0 {
                rows[cell / n] | cols[cell % n] | boxes[self.box_of(cell)]
            } else {
                self.assign(2 * (base + d as usize - 1) as u32, Reason::Decision);
                !(1u64 << (d - 1))
            };
            let mut m = gone & (u64::MAX >> (64 - n));
            while m != 0 {
                let v = base + m.trailing_zeros() as usize;
                m &= m - 1;
                self.assign(2 * v as u32 + 1, Reason::Decision);
            }
        }
        true
    }

    /// After [`Solver::load_givens`] (and any other level-0 facts): every
    /// group with no member left is a contradiction (false), one with a
    /// single unset member sets it; the trail so far needs no propagation
    /// (each true member's peers are false already), what this sets does.
    fn singles(&mut self) -> bool {
        self.qhead = self.tlen;
        for g in 0..self.alive.len() {
            let m = self.alive[g];
            if m == 0 {
                return false;
            }
            if m & (m - 1) == 0 {
                let w = self.member(g, m.trailing_zeros());
                if self.val[w as usize] == UNSET {
                    self.assign(2 * w, Reason::Group(g as u32));
                }
            }
        }
        true
    }

    /// Remembers the values of the trail below the conflicting level when
    /// it is the longest such trail so far: the phase of later decisions.
    fn save_best(&mut self) {
        let Some(&end) = self.trail_lim.last() else {
            return;
        };
        if end > self.best_len {
            self.best_len = end;
            for &l in &self.trail[..end] {
                self.best[(l >> 1) as usize] = l & 1 == 0;
            }
        }
    }

    /// Activity before any conflict: variables in groups with few alive
    /// members first, the "fewest candidates" rule, too small to matter once
    /// conflicts start bumping.
    fn init_heap(&mut self) {
        for v in 0..self.nv {
            if self.val[v] != UNSET {
                continue;
            }
            let mut a = 0.0;
            for gk in self.groups(v as u32) {
                a += 1.0 / self.alive[(gk >> 6) as usize].count_ones() as f64;
            }
            self.act[v] = a * 1e-3;
        }
        for v in 0..self.nv as u32 {
            if self.val[v as usize] == UNSET {
                self.heap.pos[v as usize] = self.heap.heap.len() as u32;
                self.heap.heap.push(v);
            }
        }
        for i in (0..self.heap.heap.len() / 2).rev() {
            self.heap.down(i, &self.act);
        }
    }
}

/// What a search is asked beyond the puzzle itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ask<'a> {
    /// Blank cell `.0` may not hold digit `.1`.
    pub exclude: Option<(usize, u8)>,
    /// A known solution of the puzzle (without `exclude`), `N * N` values:
    /// the first decisions take its values (the initial phase). Answers
    /// and counts stay the same; a solution that differs from it in a few
    /// cells (the second solution `generate` asks about) is found sooner.
    pub near: Option<&'a [u8]>,
}

impl Ask<'_> {
    /// Only the exclusion.
    pub fn exclude(exclude: Option<(usize, u8)>) -> Ask<'static> {
        Ask {
            exclude,
            near: None,
        }
    }
}

/// Searches for up to `limit` solutions; writes the first found into `out`.
/// `ask.exclude`: blank cell `.0` may not hold digit `.1`; `ask.near`: see [`Ask`].
/// Gives up (None) after `max_conflicts` conflicts. `guesses` in the result = decisions made.
/// Clashing givens or no solution -> Some(Search { count: 0, .. }). limit == 0 -> count 0.
///
/// Grid: boxes `box_rows` tall and `box_cols` wide, side
/// `N = box_rows * box_cols <= 64`, `cells` and `out` hold `N * N` values
/// row-major, 0 for a blank. A value above `N` cannot be satisfied (count
/// 0); an `exclude` outside the grid or digit range is ignored. The count is
/// exact up to `limit`, and the same input always gives the same result.
pub fn solve(
    box_rows: usize,
    box_cols: usize,
    cells: &[u8],
    ask: Ask<'_>,
    limit: u32,
    out: &mut [u8],
    max_conflicts: u64,
) -> Option<Search> {
    run(box_rows, box_cols, cells, ask, limit, out, max_conflicts).0
}

/// [`solve`], also returning the conflicts it met (for measurements).
fn run(
    box_rows: usize,
    box_cols: usize,
    cells: &[u8],
    ask: Ask<'_>,
    limit: u32,
    out: &mut [u8],
    max_conflicts: u64,
) -> (Option<Search>, u64) {
    let n = box_rows * box_cols;
    assert!((1..=64).contains(&n), "side {n} is not supported (1..=64)");
    assert_eq!(cells.len(), n * n, "expected {} cells", n * n);
    assert_eq!(out.len(), n * n, "expected room for {} cells", n * n);
    if limit == 0 {
        return (Some(Search::default()), 0);
    }
    let mut s = Solver::take(box_rows, box_cols);
    let outcome = search(&mut s, cells, ask, limit, out, max_conflicts);
    s.give_back();
    outcome
}

/// The search of [`run`] on a solver as [`Solver::new`] leaves it.
fn search(
    s: &mut Solver,
    cells: &[u8],
    ask: Ask<'_>,
    limit: u32,
    out: &mut [u8],
    max_conflicts: u64,
) -> (Option<Search>, u64) {
    let n = s.n as usize;
    let mut result = Search::default();
    if !s.load_givens(cells) {
        return (Some(result), 0);
    }
    let exclude = ask.exclude;
    if let Some((cell, d)) = exclude {
        if cell < n * n && (1..=n).contains(&(d as usize)) {
            let v = cell * n + d as usize - 1;
            match s.val[v] {
                TRUE => return (Some(result), 0),
                UNSET => s.assign(2 * v as u32 + 1, Reason::Decision),
                _ => {}
            }
        }
    }
    if !s.singles() || s.propagate().is_some() {
        return (Some(result), 0);
    }
    s.init_heap();
    s.save_root_alive();
    if let Some(near) = ask.near.filter(|near| near.len() == n * n) {
        for (cell, &d) in near.iter().enumerate() {
            for k in 0..n {
                s.best[cell * n + k] = d as usize == k + 1;
            }
        }
    }

    let mut rng = Random(seed(cells, exclude));
    let mut grid = vec![0u8; n * n];
    let (mut walks, mut walk_from, mut next_walk) = (0u64, 0u64, WALK_UNIT);
    // No walks in searches with an excluded digit: `generate` asks those
    // whether a second solution exists, and mostly none does, so a walk
    // has nothing to find (generate --size 25, one puzzle, seed 11: 19.3 s
    // of CPU without walks, 23.1 s with them there, same output). Nor
    // below `WALK_MIN_SIDE`.
    let walking = exclude.is_none() && n >= WALK_MIN_SIDE;

    let mut restarts = 0u64;
    let mut restart_at = RESTART_UNIT * luby(0);
    let mut since_restart = 0u64;
    s.keep_used = limit >= 2 && n <= SHRINK_MAX_SIDE;
    let mut max_learnts = if s.keep_used { COUNT_LEARNTS } else { 2000 };
    let mut learnt = Vec::new();
    loop {
        if let Some(confl) = s.propagate() {
            s.conflicts += 1;
            if s.decision_level() == 0 {
                break;
            }
            if s.conflicts > max_conflicts {
                return (None, s.conflicts);
            }
            since_restart += 1;
            let (bt, lbd) = s.analyze(confl);
            s.save_best();
            s.backtrack(bt);
            learnt.clear();
            learnt.extend_from_slice(&s.learnt);
            s.learn(&learnt, lbd);
            s.var_inc /= VAR_DECAY;
            continue;
        }
        if s.tlen == s.nv {
            // Every variable set without conflict: each group has exactly
            // one true member, a solution.
            result.count += 1;
            if result.count == 1 {
                for (cell, o) in out.iter_mut().enumerate() {
                    *o = s
                        .placed(cell)
                        .expect("a full assignment sets one digit per cell");
                }
            }
            let level = s.decision_level() as usize;
            if result.count >= limit || level == 0 {
                break;
            }
            // Forbid this solution: not all of its decisions again. The
            // latest decision is the one flipped after jumping back.
            learnt.clear();
            for l in (0..level).rev() {
                learnt.push(s.trail[s.trail_lim[l]] ^ 1);
            }
            s.backtrack(level as u32 - 1);
            if learnt.len() == 1 {
                s.assign(learnt[0], Reason::Decision);
            } else {
                let cref = s.add_clause(&learnt, level as u32 | KEEP);
                s.assign(learnt[0], Reason::Clause(cref));
            }
            continue;
        }
        if since_restart >= restart_at && s.decision_level() > 0 {
            restarts += 1;
            since_restart = 0;
            restart_at = RESTART_UNIT * luby(restarts);
            s.backtrack(0);
            s.save_root_alive();
            if s.learnts.len() >= max_learnts {
                s.reduce();
                max_learnts += max_learnts / 10;
            }
            if walking && s.conflicts >= next_walk {
                walks += 1;
                let steps = WALK_EFFORT * (s.conflicts - walk_from);
                walk_from = s.conflicts;
                next_walk = s.conflicts + WALK_UNIT * walks;
                // A solution is the answer only when one is asked for: a
                // count goes on with the learning search alone.
                if s.walk(steps, &mut rng, &mut grid) == 0 && limit == 1 {
                    out.copy_from_slice(&grid);
                    result.count = 1;
                    result.guesses = s.decisions;
                    return (Some(result), s.conflicts);
                }
            }
            continue;
        }
        let v = loop {
            match s.heap.pop(&s.act) {
                Some(v) if s.val[v as usize] == UNSET => break v,
                Some(_) => {}
                None => unreachable!("unassigned variables are in the heap"),
            }
        };
        s.decisions += 1;
        s.trail_lim.push(s.tlen);
        s.assign(2 * v + !s.best[v as usize] as u32, Reason::Decision);
    }
    result.guesses = s.decisions;
    (Some(result), s.conflicts)
}

/// FNV-1a of the puzzle: the walk's random seed.
fn seed(cells: &[u8], exclude: Option<(usize, u8)>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let ex = exclude.map_or([0; 9], |(c, d)| {
        let mut b = [0; 9];
        b[..8].copy_from_slice(&(c as u64).to_le_bytes());
        b[8] = d;
        b
    });
    for &b in cells.iter().chain(&ex) {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h | 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: small, seedable, and the same on every machine.
    pub(super) struct Rng(pub(super) u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        pub(super) fn shuffle<T>(&mut self, xs: &mut [T]) {
            for i in (1..xs.len()).rev() {
                xs.swap(i, self.below(i + 1));
            }
        }
    }

    fn box_of(r: usize, c: usize, br: usize, bc: usize) -> usize {
        let n = br * bc;
        (r / br) * (n / bc) + c / bc
    }

    /// Plain backtracking count for rectangular boxes, sharing nothing with
    /// the solver. Givens are trusted not to clash.
    fn naive_count(br: usize, bc: usize, grid: &mut [u8], limit: u32) -> u32 {
        let n = br * bc;
        let Some(i) = grid.iter().position(|&v| v == 0) else {
            return 1;
        };
        let (r, c) = (i / n, i % n);
        let mut total = 0;
        for d in 1..=n as u8 {
            let clash = (0..n * n).any(|j| {
                let (r2, c2) = (j / n, j % n);
                grid[j] == d
                    && (r2 == r || c2 == c || box_of(r, c, br, bc) == box_of(r2, c2, br, bc))
            });
            if !clash {
                grid[i] = d;
                total += naive_count(br, bc, grid, limit - total);
                grid[i] = 0;
                if total >= limit {
                    break;
                }
            }
        }
        total
    }

    /// Whether two givens share a row, column or box and a digit.
    fn clashes(br: usize, bc: usize, grid: &[u8]) -> bool {
        let n = br * bc;
        (0..n * n).any(|i| {
            (i + 1..n * n).any(|j| {
                let (r, c, r2, c2) = (i / n, i % n, j / n, j % n);
                grid[i] != 0
                    && grid[i] == grid[j]
                    && (r == r2 || c == c2 || box_of(r, c, br, bc) == box_of(r2, c2, br, bc))
            })
        })
    }

    /// Every row, column and box a permutation of 1..=N, givens kept.
    pub(super) fn check(br: usize, bc: usize, puzzle: &[u8], answer: &[u8]) {
        let n = br * bc;
        let full: u128 = ((1u128 << n) - 1) << 1;
        let (mut rows, mut cols, mut boxes) = (vec![0u128; n], vec![0u128; n], vec![0u128; n]);
        for i in 0..n * n {
            let (r, c, a) = (i / n, i % n, answer[i]);
            assert!(a >= 1 && a as usize <= n, "cell {i} holds {a}");
            assert!(puzzle[i] == 0 || puzzle[i] == a, "given {i} changed");
            rows[r] |= 1 << a;
            cols[c] |= 1 << a;
            boxes[box_of(r, c, br, bc)] |= 1 << a;
        }
        for u in rows.iter().chain(&cols).chain(&boxes) {
            assert_eq!(*u, full, "a unit is not a permutation");
        }
    }

    /// A random valid full grid: the pattern grid, then digit, row-in-band,
    /// band, column-in-stack and stack shuffles (all keep it valid).
    pub(super) fn pattern_grid(br: usize, bc: usize, rng: &mut Rng) -> Vec<u8> {
        let n = br * bc;
        let mut digits: Vec<u8> = (1..=n as u8).collect();
        rng.shuffle(&mut digits);
        // Row order: bands (n/br of them, br rows each) shuffled, rows in
        // each band shuffled; columns the same with stacks of bc.
        let order = |rng: &mut Rng, size: usize| {
            let mut blocks: Vec<usize> = (0..n / size).collect();
            rng.shuffle(&mut blocks);
            let mut out = Vec::with_capacity(n);
            for b in blocks {
                let mut inner: Vec<usize> = (0..size).collect();
                rng.shuffle(&mut inner);
                out.extend(inner.iter().map(|k| b * size + k));
            }
            out
        };
        let rows = order(rng, br);
        let cols = order(rng, bc);
        let mut g = vec![0u8; n * n];
        for r in 0..n {
            for c in 0..n {
                let (pr, pc) = (rows[r], cols[c]);
                let v = ((pr % br) * bc + pr / br + pc) % n;
                g[r * n + c] = digits[v];
            }
        }
        check(br, bc, &g, &g);
        g
    }

    pub(super) fn blank(grid: &[u8], percent: usize, rng: &mut Rng) -> Vec<u8> {
        grid.iter()
            .map(|&v| if rng.below(100) < percent { 0 } else { v })
            .collect()
    }

    pub(super) fn count(br: usize, bc: usize, cells: &[u8], limit: u32) -> (u32, Vec<u8>) {
        let mut out = vec![0u8; cells.len()];
        let s = solve(br, bc, cells, Ask::default(), limit, &mut out, u64::MAX).expect("unbounded");
        (s.count, out)
    }

    #[test]
    fn counts_match_naive_on_small_grids() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for &(br, bc) in &[
            (1, 1),
            (1, 2),
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (4, 2),
            (3, 3),
        ] {
            let n = br * bc;
            for round in 0..60 {
                let grid = pattern_grid(br, bc, &mut rng);
                let mut p = blank(&grid, 30 + rng.below(60), &mut rng);
                // Corrupt some: random givens that may clash or leave no
                // solution.
                if round % 3 == 0 {
                    for _ in 0..1 + rng.below(3) {
                        let i = rng.below(n * n);
                        p[i] = 1 + rng.below(n) as u8;
                    }
                }
                let (got, out) = count(br, bc, &p, 3);
                let want = if clashes(br, bc, &p) {
                    0
                } else {
                    naive_count(br, bc, &mut p.clone(), 3)
                };
                assert_eq!(got, want, "{br}x{br} boxes, puzzle {p:?}");
                if got > 0 {
                    check(br, bc, &p, &out);
                }
                // Exact for every limit below the count too.
                for limit in 1..=want {
                    assert_eq!(count(br, bc, &p, limit).0, limit);
                }
            }
        }
    }

    /// Every clause learned before the first solution holds in every
    /// solution, among them the full grid the puzzle was blanked from: a
    /// clause it breaks would be unsound (shrinking and minimisation drop
    /// and swap literals). Sides up to 25, where clauses are shrunk.
    #[test]
    fn learned_clauses_hold_in_the_source_grid() {
        let mut rng = Rng(0x05EE_D0FC_1A5E);
        let (mut clauses, mut shrunk, mut literals) = (0, 0, 0);
        for &(br, bc, pct, k) in &[
            (3, 3, 70, 40),
            (3, 4, 65, 30),
            (4, 4, 62, 30),
            (5, 5, 55, 8),
        ] {
            let n = br * bc;
            for _ in 0..k {
                let grid = solved_grid(br, bc, &mut rng);
                let p = blank(&grid, pct, &mut rng);
                LOG.set(Some(Log::default()));
                let mut out = vec![0u8; n * n];
                let s = solve(br, bc, &p, Ask::default(), 1, &mut out, 5_000);
                let log = LOG.take().expect("logging");
                if s.is_some_and(|s| s.count == 1) {
                    check(br, bc, &p, &out);
                }
                for c in &log.clauses {
                    let holds = c.iter().any(|&l| {
                        let v = (l >> 1) as usize;
                        let here = grid[v / n] as usize == v % n + 1;
                        here == (l & 1 == 0)
                    });
                    assert!(holds, "{br}x{bc}: learned {c:?} breaks the source grid");
                    literals += c.len();
                }
                clauses += log.clauses.len();
                shrunk += log.shrunk;
            }
        }
        eprintln!("{clauses} clauses, {literals} literals, {shrunk} blocks shrunk");
        assert!(
            clauses > 1000 && shrunk > 1000,
            "{clauses} clauses, {shrunk} shrunk"
        );
    }

    /// A reduction deletes the worse half of the deletable clauses, never
    /// a blocking clause, and with `keep_used` none used since the last
    /// one; it clears the marks it read.
    #[test]
    fn reduce_keeps_used_and_blocking_clauses() {
        for keep_used in [false, true] {
            let mut s = Solver::new(3, 3);
            s.keep_used = keep_used;
            // Ten unsatisfied clauses of LBD 5 and three literals, then a
            // blocking clause; among equals the newer win, so without
            // marks the first five go. The first two are marked used.
            for i in 0..10u32 {
                s.add_clause(&[6 * i, 6 * i + 2, 6 * i + 4], 5);
            }
            s.add_clause(&[1, 3, 5], 9 | KEEP);
            let used = [s.learnts[0], s.learnts[1]];
            for c in used {
                s.touch(c as usize);
            }
            s.reduce();
            let firsts: Vec<u32> = s
                .learnts
                .iter()
                .map(|&c| s.arena[c as usize + HDR])
                .collect();
            // With the marks only eight are deletable and four stay.
            let mut expect: Vec<u32> = if keep_used {
                [0, 1, 6, 7, 8, 9].iter().map(|i| 6 * i).collect()
            } else {
                (5..10).map(|i| 6 * i).collect()
            };
            expect.push(1);
            assert_eq!(firsts, expect, "keep_used {keep_used}");
            for &c in &s.learnts {
                assert_eq!(s.arena[c as usize + 1] & USED, 0, "a mark survived");
            }
            // The kept clauses are watched again: making a clause's other
            // two literals false implies its first.
            s.trail_lim.push(s.tlen);
            s.assign(6 * 9 + 3, Reason::Decision);
            s.assign(6 * 9 + 5, Reason::Decision);
            assert!(s.propagate().is_none());
            assert_eq!(s.val[(6 * 9 / 2) as usize], TRUE);
        }
    }

    #[test]
    fn exclude_splits_the_count() {
        let mut rng = Rng(7);
        for &(br, bc) in &[(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
            let n = br * bc;
            for _ in 0..40 {
                let grid = pattern_grid(br, bc, &mut rng);
                let p = blank(&grid, 40 + rng.below(25), &mut rng);
                let Some(cell) = (0..n * n).find(|&i| p[i] == 0) else {
                    continue;
                };
                let d = 1 + rng.below(n) as u8;
                let mut out = vec![0u8; n * n];
                let without = solve(
                    br,
                    bc,
                    &p,
                    Ask::exclude(Some((cell, d))),
                    20,
                    &mut out,
                    u64::MAX,
                )
                .unwrap()
                .count;
                if without > 0 {
                    check(br, bc, &p, &out);
                    assert_ne!(out[cell], d, "excluded digit used");
                }
                // Starting near a solution (the grid the puzzle was made
                // from) changes no count.
                let ask = Ask {
                    exclude: Some((cell, d)),
                    near: Some(&grid),
                };
                let mut o2 = vec![0u8; n * n];
                let near = solve(br, bc, &p, ask, 20, &mut o2, u64::MAX).unwrap();
                assert_eq!(near.count, without, "{br}x{bc}");
                if near.count > 0 {
                    check(br, bc, &p, &o2);
                    assert_ne!(o2[cell], d, "excluded digit used");
                }
                let mut q = p.clone();
                q[cell] = d;
                let with = if clashes(br, bc, &q) {
                    0
                } else {
                    naive_count(br, bc, &mut q, 20)
                };
                let total = naive_count(br, bc, &mut p.clone(), 20);
                if total < 20 {
                    assert_eq!(without + with, total);
                }
            }
        }
    }

    #[test]
    fn edge_cases() {
        let mut out = [0u8; 16];
        let empty = [0u8; 16];
        assert_eq!(
            solve(2, 2, &empty, Ask::default(), 0, &mut out, 0)
                .unwrap()
                .count,
            0
        );
        // The empty 4x4 grid has 288 solutions.
        assert_eq!(count(2, 2, &empty, 1000).0, 288);
        // Clash in a box only.
        let mut p = [0u8; 16];
        p[0] = 1;
        p[5] = 1;
        assert_eq!(count(2, 2, &p, 3).0, 0);
        // A digit out of range cannot stand.
        p[5] = 5;
        assert_eq!(count(2, 2, &p, 3).0, 0);
        // Excluding a given's own digit leaves nothing.
        let mut p = [0u8; 16];
        p[3] = 2;
        let s = solve(2, 2, &p, Ask::exclude(Some((3, 2))), 3, &mut out, u64::MAX).unwrap();
        assert_eq!(s.count, 0);
        // 6x6 empty grids: 28200960 solutions; count to a limit.
        let e = [0u8; 36];
        assert_eq!(count(2, 3, &e, 500).0, 500);
        assert_eq!(count(3, 2, &e, 500).0, 500);
    }

    #[test]
    fn big_grids_solve_and_verify() {
        let mut rng = Rng(42);
        for &(br, bc, pct, reps) in &[
            (4, 4, 60, 6),
            (3, 4, 50, 6),
            (4, 3, 55, 4),
            (5, 5, 50, 4),
            (4, 5, 50, 3),
            (6, 6, 60, 2),
            (7, 7, 40, 1),
            (8, 8, 30, 1),
        ] {
            for _ in 0..reps {
                let grid = pattern_grid(br, bc, &mut rng);
                let p = blank(&grid, pct, &mut rng);
                let (c, out) = count(br, bc, &p, 1);
                assert_eq!(c, 1, "{br}x{bc}");
                check(br, bc, &p, &out);
                // Exclude the found digit of a blank: any other solution
                // must avoid it.
                let cell = p.iter().position(|&v| v == 0).unwrap();
                let mut o2 = vec![0u8; p.len()];
                let s = solve(
                    br,
                    bc,
                    &p,
                    Ask::exclude(Some((cell, out[cell]))),
                    1,
                    &mut o2,
                    u64::MAX,
                )
                .unwrap();
                if s.count == 1 {
                    check(br, bc, &p, &o2);
                    assert_ne!(o2[cell], out[cell]);
                }
            }
        }
    }

    /// A full grid from the solver itself: a random first row, a few random
    /// consistent givens, solved. Varied unlike the pattern grids.
    pub(super) fn solved_grid(br: usize, bc: usize, rng: &mut Rng) -> Vec<u8> {
        let n = br * bc;
        let mut p = vec![0u8; n * n];
        let mut row: Vec<u8> = (1..=n as u8).collect();
        rng.shuffle(&mut row);
        p[..n].copy_from_slice(&row);
        for _ in 0..n {
            let i = n + rng.below(n * n - n);
            let d = 1 + rng.below(n) as u8;
            let old = p[i];
            p[i] = d;
            if clashes_at(br, bc, &p, i) {
                p[i] = old;
            }
        }
        loop {
            let (c, out) = count(br, bc, &p, 1);
            if c == 1 {
                return out;
            }
            // The extra givens made it unsolvable: drop one and retry.
            let i = (n..n * n).rev().find(|&i| p[i] != 0).unwrap();
            p[i] = 0;
        }
    }

    fn clashes_at(br: usize, bc: usize, g: &[u8], i: usize) -> bool {
        let n = br * bc;
        let (r, c) = (i / n, i % n);
        (0..n * n).any(|j| {
            let (r2, c2) = (j / n, j % n);
            j != i
                && g[j] == g[i]
                && (r2 == r || c2 == c || box_of(r, c, br, bc) == box_of(r2, c2, br, bc))
        })
    }

    /// The walk alone, at level 0 after propagation: a grid it calls solved
    /// is one (givens kept, excluded digit avoided); otherwise its phase
    /// names one level-0 candidate per blank cell.
    #[test]
    fn walk_solves_or_leaves_a_phase() {
        let mut rng = Rng(5);
        let mut solved = 0;
        for &(br, bc, pct) in &[(3, 3, 60), (4, 4, 55), (3, 4, 50), (5, 5, 50), (6, 6, 50)] {
            for round in 0..4 {
                let n = br * bc;
                let grid = solved_grid(br, bc, &mut rng);
                let p = blank(&grid, pct, &mut rng);
                let mut s = Solver::new(br, bc);
                assert!(s.load_givens(&p), "givens of a solved grid clash");
                let blank_cell = p.iter().position(|&d| d == 0).unwrap();
                let ex = (round % 2 == 1).then_some((blank_cell, grid[blank_cell]));
                if let Some((cell, d)) = ex {
                    s.assign(2 * (cell * n + d as usize - 1) as u32 + 1, Reason::Decision);
                }
                if !s.singles() || s.propagate().is_some() {
                    continue;
                }
                s.save_root_alive();
                let mut out = vec![0u8; n * n];
                let mut r = walk::Random(round + 1);
                if s.walk(200_000, &mut r, &mut out) == 0 {
                    solved += 1;
                    check(br, bc, &p, &out);
                    if let Some((cell, d)) = ex {
                        assert_ne!(out[cell], d, "excluded digit used");
                    }
                    continue;
                }
                for cell in 0..n * n {
                    let named = (0..n)
                        .filter(|&d| s.val[cell * n + d] != FALSE && s.best[cell * n + d])
                        .count();
                    assert!(named >= 1, "cell {cell} has no phase");
                    if s.alive[cell].count_ones() > 1 {
                        assert_eq!(named, 1, "cell {cell}");
                    }
                }
            }
        }
        assert!(solved > 0, "no walk reached a solution");
    }

    #[test]
    fn deterministic_and_bounded() {
        let mut rng = Rng(99);
        let grid = solved_grid(5, 5, &mut rng);
        check(5, 5, &grid, &grid);
        let p = blank(&grid, 60, &mut rng);
        let mut a = vec![0u8; 625];
        let mut b = vec![0u8; 625];
        let sa = solve(5, 5, &p, Ask::default(), 2, &mut a, u64::MAX).unwrap();
        let sb = solve(5, 5, &p, Ask::default(), 2, &mut b, u64::MAX).unwrap();
        assert_eq!(sa, sb);
        assert_eq!(a, b);
        check(5, 5, &p, &a);
        // A puzzle that needs conflicts: no budget gives up, none solves.
        let hard = find_hard(&grid, &mut rng);
        let mut o = vec![0u8; 625];
        assert_eq!(solve(5, 5, &hard, Ask::default(), 1, &mut o, 0), None);
        assert!(solve(5, 5, &hard, Ask::default(), 1, &mut o, u64::MAX).is_some());
    }

    /// A thread's spare solver, reset, searches exactly as a new one: the
    /// same answers, counts and conflicts, puzzle after puzzle, with the
    /// shapes interleaved (a spare of another shape is not reused) and
    /// searches that learned clauses, excluded digits and stopped early
    /// before them.
    #[test]
    fn a_reused_solver_searches_as_a_new_one() {
        let mut rng = Rng(7);
        let mut cases = Vec::new();
        for &(br, bc, pct) in &[(5, 5, 0), (3, 4, 60), (5, 5, 0), (2, 3, 70), (4, 4, 65)] {
            let grid = solved_grid(br, bc, &mut rng);
            // pct 0: a 25x25 puzzle that needs conflicts.
            let p = if pct == 0 {
                find_hard(&grid, &mut rng)
            } else {
                blank(&grid, pct, &mut rng)
            };
            let cell = p.iter().position(|&d| d == 0).unwrap();
            for (limit, exclude) in [(1, None), (2, None), (2, Some((cell, grid[cell])))] {
                cases.push((br, bc, p.clone(), limit, exclude));
            }
        }
        let mut conflicts = 0;
        for (br, bc, p, limit, exclude) in &cases {
            let (br, bc, limit, exclude) = (*br, *bc, *limit, *exclude);
            let n = br * bc;
            let ask = Ask::exclude(exclude);
            let (mut fresh, mut reused) = (vec![0u8; n * n], vec![0u8; n * n]);
            let mut s = Solver::new(br, bc);
            let want = search(&mut s, p, ask, limit, &mut fresh, u64::MAX);
            let got = run(br, bc, p, ask, limit, &mut reused, u64::MAX);
            assert_eq!(got, want, "{br}x{bc} limit {limit} exclude {exclude:?}");
            assert_eq!(reused, fresh);
            let found = got.0.unwrap().count;
            assert!(found >= 1 || exclude.is_some());
            if found >= 1 {
                check(br, bc, p, &reused);
            }
            conflicts += got.1;
            // And after a search that gave up midway.
            run(br, bc, p, ask, limit, &mut reused, 1);
        }
        assert!(conflicts > 0, "no case needed the learned clauses");
    }

    /// A 25x25 puzzle that needs at least one conflict: blank more and more
    /// of `grid` until an unbounded search reports a conflict-free run is
    /// not enough.
    fn find_hard(grid: &[u8], rng: &mut Rng) -> Vec<u8> {
        let mut out = vec![0u8; grid.len()];
        for pct in (50..95).step_by(5) {
            for _ in 0..20 {
                let p = blank(grid, pct, rng);
                if solve(5, 5, &p, Ask::default(), 2, &mut out, 0).is_none() {
                    return p;
                }
            }
        }
        panic!("no puzzle needed a conflict");
    }
}

#[cfg(test)]
mod bench {
    //! Measurements, not checks: `cargo test --release --no-default-features
    //! --lib solver::cdcl::bench -- --ignored --nocapture`.
    use super::tests::*;
    use super::*;

    use std::time::{Duration, Instant};

    /// Solves each puzzle with `limit`, prints total, median, p99 and max
    /// time, and mean conflicts and decisions; with `generic`, the same for
    /// the existing generic solver.
    fn measure(name: &str, br: usize, bc: usize, puzzles: &[Vec<u8>], limit: u32, generic: bool) {
        let mut times = Vec::new();
        let (mut confl, mut dec, mut counts) = (0u64, 0u64, [0usize; 3]);
        for p in puzzles {
            let mut out = vec![0u8; p.len()];
            let t = Instant::now();
            let (s, c) = run(br, bc, p, Ask::default(), limit, &mut out, 200_000);
            times.push(t.elapsed());
            let Some(s) = s else {
                eprintln!("    gave up after {c} conflicts");
                confl += c;
                continue;
            };
            if s.count > 0 {
                check(br, bc, p, &out);
            }
            counts[s.count.min(2) as usize] += 1;
            confl += c;
            dec += s.guesses;
        }
        let k = puzzles.len() as u64;
        report(name, &mut times);
        eprintln!(
            "    counts 0/1/2+: {counts:?}, mean conflicts {}, mean decisions {}",
            confl / k,
            dec / k
        );
        if generic && br == bc && (2..=6).contains(&br) {
            let mut times = Vec::new();
            let mut guesses = 0;
            for p in puzzles {
                let mut out = vec![0u8; p.len()];
                let t = Instant::now();
                let g = crate::solver::generic::solve_within(
                    crate::solver::Boxes::square(br),
                    p,
                    Ask::default(),
                    limit,
                    &mut out,
                    20_000_000,
                );
                times.push(t.elapsed());
                guesses += g.map_or(u64::MAX / 2 / k, |g| g.guesses);
            }
            report(&format!("{name} generic"), &mut times);
            eprintln!("    generic mean guesses {}", guesses / k);
        }
    }

    fn report(name: &str, times: &mut [Duration]) {
        times.sort();
        let total: Duration = times.iter().sum();
        let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
        eprintln!(
            "{name}: n={} total {total:.2?} median {:.2?} p99 {:.2?} max {:.2?}",
            times.len(),
            q(0.5),
            q(0.99),
            times[times.len() - 1]
        );
    }

    fn puzzles(
        br: usize,
        bc: usize,
        pct: usize,
        k: usize,
        varied: bool,
        seed: u64,
    ) -> Vec<Vec<u8>> {
        let mut rng = Rng(seed);
        (0..k)
            .map(|_| {
                let g = if varied {
                    solved_grid(br, bc, &mut rng)
                } else {
                    pattern_grid(br, bc, &mut rng)
                };
                blank(&g, pct, &mut rng)
            })
            .collect()
    }

    #[test]
    #[ignore]
    fn sets() {
        let generic = std::env::var_os("GENERIC").is_some();
        if std::env::var_os("ONLY36").is_none() {
            let p = puzzles(5, 5, 50, 50, true, 1);
            measure("25x25 50% varied", 5, 5, &p, 1, generic);
            let p = puzzles(5, 5, 50, 50, false, 2);
            measure("25x25 50% pattern", 5, 5, &p, 1, generic);
        }
        let p = puzzles(6, 6, 60, 20, true, 3);
        measure("36x36 60% varied", 6, 6, &p, 1, generic);
        let p = puzzles(6, 6, 60, 20, false, 4);
        measure("36x36 60% pattern", 6, 6, &p, 1, generic);
    }

    /// Unique 25x25 puzzles: blank cells of a varied full grid in random
    /// order while no solution avoids the removed digit.
    #[test]
    #[ignore]
    fn unique() {
        let mut rng = Rng(11);
        let mut set = Vec::new();
        let t = Instant::now();
        for _ in 0..10 {
            let g = solved_grid(5, 5, &mut rng);
            let mut p = g.clone();
            let mut order: Vec<usize> = (0..625).collect();
            rng.shuffle(&mut order);
            let mut out = vec![0u8; 625];
            for i in order {
                p[i] = 0;
                let s = solve(5, 5, &p, Ask::exclude(Some((i, g[i]))), 1, &mut out, 20_000);
                if s.is_none_or(|s| s.count != 0) {
                    p[i] = g[i];
                }
            }
            set.push(p);
        }
        let clues: usize = set
            .iter()
            .map(|p| p.iter().filter(|&&v| v != 0).count())
            .sum();
        eprintln!(
            "made 10 unique 25x25 puzzles in {:.2?}, mean clues {}",
            t.elapsed(),
            clues / 10
        );
        measure(
            "25x25 unique, count to 2",
            5,
            5,
            &set,
            2,
            std::env::var_os("GENERIC").is_some(),
        );
    }

    /// The puzzles of a set file (`CDCL_SET=path`, one puzzle a line, N*N
    /// numbers, 0 blank; square boxes), counted to `CDCL_LIMIT` (default 1)
    /// by this solver alone, giving up after `CDCL_MAX` conflicts (default
    /// none): times and conflicts of the slowest puzzles too (of each with
    /// `CDCL_ALL`).
    #[test]
    #[ignore]
    fn file() {
        let Some(path) = std::env::var_os("CDCL_SET") else {
            eprintln!("set CDCL_SET to a puzzle file");
            return;
        };
        let limit = std::env::var("CDCL_LIMIT").map_or(1, |v| v.parse().unwrap());
        let max = std::env::var("CDCL_MAX").map_or(u64::MAX, |v| v.parse().unwrap());
        let text = std::fs::read_to_string(path).unwrap();
        let set: Vec<Vec<u8>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
            .collect();
        let (mut times, mut rows, mut total) = (Vec::new(), Vec::new(), 0u64);
        for (i, p) in set.iter().enumerate() {
            let b = (p.len() as f64).sqrt().sqrt().round() as usize;
            let mut out = vec![0u8; p.len()];
            let t = Instant::now();
            let (s, c) = run(b, b, p, Ask::default(), limit, &mut out, max);
            let e = t.elapsed();
            match s {
                None => eprintln!("    line {} gave up after {c} conflicts", i + 1),
                Some(s) if s.count > 0 => check(b, b, p, &out),
                Some(_) => {}
            }
            times.push(e);
            rows.push((e, c, i));
            total += c;
        }
        report("file", &mut times);
        // `CDCL_ALL`: every puzzle, in file order.
        let all = std::env::var_os("CDCL_ALL").is_some();
        if !all {
            rows.sort();
            rows.reverse();
            rows.truncate(5);
        }
        let which = if all { "each" } else { "slowest" };
        eprintln!("    total conflicts {total}; {which} (time, conflicts, line):");
        for r in &rows {
            eprintln!("    {:.2?} {} {}", r.0, r.1, r.2 + 1);
        }
    }

    #[test]
    #[ignore]
    fn huge() {
        let p = puzzles(7, 7, 40, 5, false, 5);
        measure("49x49 40% pattern", 7, 7, &p, 1, false);
        let p = puzzles(8, 8, 40, 5, false, 6);
        measure("64x64 40% pattern", 8, 8, &p, 1, false);
        let p = puzzles(8, 8, 30, 5, false, 6);
        measure("64x64 30% pattern", 8, 8, &p, 1, false);
    }

    #[test]
    #[ignore]
    fn probe() {
        let mut rng = Rng(42);
        for &(br, bc, pct) in &[(5, 5, 50), (6, 6, 60)] {
            for _ in 0..6 {
                let grid = pattern_grid(br, bc, &mut rng);
                let p = blank(&grid, pct, &mut rng);
                let mut out = vec![0u8; p.len()];
                let t = std::time::Instant::now();
                let s = solve(br, bc, &p, Ask::default(), 1, &mut out, 20000);
                let e = t.elapsed();
                let t = std::time::Instant::now();
                let g = crate::solver::generic::solve(
                    crate::solver::Boxes::square(br),
                    &p,
                    1,
                    &mut out,
                );
                eprintln!(
                    "{br}x{bc} {pct}% {e:?} {s:?} generic {:?} {g:?}",
                    t.elapsed()
                );
            }
        }
    }
}
