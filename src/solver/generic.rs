//! Generic NxN solver (box size 2..=6, grids 4x4 to 36x36): the path every
//! non-9x9 puzzle takes, and the 9x9 fallback.
//!
//! Layout: one `u64` candidate mask per digit set, bit `d - 1` = digit `d`.
//!
//! ```text
//!   rows[r] | cols[c] | boxes[b]   digits already placed in that unit
//!   candidates(i) = FULL & !(rows[r] | cols[c] | boxes[b])
//! ```
//!
//! Propagation repeats naked singles (a cell with one candidate) and hidden
//! singles (a digit with one place in a unit) to a fixed point, then the search
//! branches on the empty cell with the fewest candidates. The search keeps an
//! explicit stack so deep searches on big grids cannot overflow a thread stack.

use super::Search;

const MAX_SIDE: usize = super::MAX_BOX * super::MAX_BOX;
const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// The grid geometry, computed once per puzzle.
#[derive(Clone, Copy)]
struct Geo {
    b: usize,
    side: usize,
    full: u64,
}

impl Geo {
    #[inline]
    fn unit_of(&self, i: usize) -> (usize, usize, usize) {
        let (r, c) = (i / self.side, i % self.side);
        (r, c, (r / self.b) * self.b + c / self.b)
    }

    /// Cell index of the `k`-th cell of unit `u` (rows, then columns, then boxes).
    #[inline]
    fn cell_in_unit(&self, u: usize, k: usize) -> usize {
        let s = self.side;
        match u / s {
            0 => (u % s) * s + k,
            1 => k * s + u % s,
            _ => {
                let bx = u % s;
                let r = (bx / self.b) * self.b + k / self.b;
                let c = (bx % self.b) * self.b + k % self.b;
                r * s + c
            }
        }
    }
}

#[derive(Clone)]
struct State {
    cells: [u8; MAX_CELLS],
    rows: [u64; MAX_SIDE],
    cols: [u64; MAX_SIDE],
    boxes: [u64; MAX_SIDE],
    empty: usize,
}

impl State {
    #[inline]
    fn cand(&self, g: &Geo, i: usize) -> u64 {
        let (r, c, b) = g.unit_of(i);
        g.full & !(self.rows[r] | self.cols[c] | self.boxes[b])
    }

    /// Places digit `d` (1-based) in cell `i`; false if it clashes.
    #[inline]
    fn place(&mut self, g: &Geo, i: usize, d: u8) -> bool {
        let (r, c, b) = g.unit_of(i);
        let bit = 1u64 << (d - 1);
        if (self.rows[r] | self.cols[c] | self.boxes[b]) & bit != 0 {
            return false;
        }
        self.cells[i] = d;
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[b] |= bit;
        self.empty -= 1;
        true
    }

    /// Naked and hidden singles to a fixed point. Err on a contradiction.
    fn propagate(&mut self, g: &Geo) -> Result<(), ()> {
        let n = g.side * g.side;
        loop {
            let mut progress = false;
            for i in 0..n {
                if self.cells[i] != 0 {
                    continue;
                }
                let cand = self.cand(g, i);
                if cand == 0 {
                    return Err(());
                }
                if cand & (cand - 1) == 0 {
                    self.place(g, i, cand.trailing_zeros() as u8 + 1);
                    progress = true;
                }
            }
            if self.empty == 0 {
                return Ok(());
            }
            for u in 0..3 * g.side {
                let (mut once, mut twice) = (0u64, 0u64);
                let mut placed = 0u64;
                for k in 0..g.side {
                    let i = g.cell_in_unit(u, k);
                    if self.cells[i] != 0 {
                        placed |= 1 << (self.cells[i] - 1);
                        continue;
                    }
                    let cand = self.cand(g, i);
                    twice |= once & cand;
                    once |= cand;
                }
                if (once | placed) != g.full {
                    return Err(()); // some digit has no place left in this unit
                }
                let mut singles = once & !twice;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles ^= bit;
                    let d = bit.trailing_zeros() as u8 + 1;
                    let spot = (0..g.side)
                        .map(|k| g.cell_in_unit(u, k))
                        .find(|&i| self.cells[i] == 0 && self.cand(g, i) & bit != 0);
                    match spot {
                        Some(i) => {
                            self.place(g, i, d);
                            progress = true;
                        }
                        // An earlier single in this unit took the only place.
                        None => return Err(()),
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// The empty cell with the fewest candidates, and those candidates.
    fn pick(&self, g: &Geo) -> (usize, u64) {
        let mut best = (usize::MAX, 0u64, u32::MAX);
        for i in 0..g.side * g.side {
            if self.cells[i] == 0 {
                let cand = self.cand(g, i);
                let k = cand.count_ones();
                if k < best.2 {
                    best = (i, cand, k);
                    if k <= 2 {
                        break;
                    }
                }
            }
        }
        (best.0, best.1)
    }
}

/// Searches for up to `limit` solutions; see [`super::solve`] for the contract.
pub fn solve(box_size: usize, cells: &[u8], limit: u32, out: &mut [u8]) -> Search {
    assert!((super::MIN_BOX..=super::MAX_BOX).contains(&box_size));
    let side = box_size * box_size;
    let n = side * side;
    assert!(cells.len() == n && out.len() == n);
    let g = Geo {
        b: box_size,
        side,
        full: if side == 64 { !0 } else { (1u64 << side) - 1 },
    };
    let mut search = Search::default();
    if limit == 0 {
        return search;
    }
    let mut cur = State {
        cells: [0; MAX_CELLS],
        rows: [0; MAX_SIDE],
        cols: [0; MAX_SIDE],
        boxes: [0; MAX_SIDE],
        empty: n,
    };
    for (i, &d) in cells.iter().enumerate() {
        if d != 0 && (d as usize > side || !cur.place(&g, i, d)) {
            return search;
        }
    }
    // Branch points: the state before the guess, the cell, digits left to try.
    let mut stack: Vec<(State, usize, u64)> = Vec::new();
    loop {
        if cur.propagate(&g).is_ok() {
            if cur.empty == 0 {
                search.count += 1;
                if search.count == 1 {
                    out.copy_from_slice(&cur.cells[..n]);
                }
                if search.count >= limit {
                    return search;
                }
            } else {
                let (i, cand) = cur.pick(&g);
                stack.push((cur.clone(), i, cand));
            }
        }
        // Next alternative of the deepest branch point that has one left.
        loop {
            let Some(top) = stack.last_mut() else {
                return search;
            };
            if top.2 == 0 {
                stack.pop();
                continue;
            }
            let d = top.2.trailing_zeros() as u8 + 1;
            top.2 &= top.2 - 1;
            cur.clone_from(&top.0);
            cur.place(&g, top.1, d);
            search.guesses += 1;
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::verify;
    use super::*;

    fn parse(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn solves_a_hard_9x9_and_keeps_givens() {
        let p = parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let mut out = [0u8; 81];
        let s = solve(3, &p, 2, &mut out);
        assert_eq!(s.count, 1);
        verify(3, &p, &out).unwrap();
    }

    #[test]
    fn counts_multiple_solutions_on_an_empty_grid() {
        for b in 2..=5 {
            let n = b * b * b * b;
            let p = vec![0u8; n];
            let mut out = vec![0u8; n];
            let s = solve(b, &p, 2, &mut out);
            assert_eq!(s.count, 2, "box {b}");
            verify(b, &p, &out).unwrap();
        }
    }

    #[test]
    fn clashing_givens_and_dead_ends_have_no_solution() {
        let mut p = vec![0u8; 81];
        p[0] = 1;
        p[1] = 1;
        let mut out = [0u8; 81];
        assert_eq!(solve(3, &p, 2, &mut out).count, 0);
        // Row 0 holds 1..8 in cells 0..8; cell 8 must be 9, but column 8 has a 9.
        let mut p = vec![0u8; 81];
        for (i, v) in p.iter_mut().take(8).enumerate() {
            *v = i as u8 + 1;
        }
        p[9 * 5 + 8] = 9;
        assert_eq!(solve(3, &p, 2, &mut out).count, 0);
    }
}
