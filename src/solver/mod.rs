//! Solvers: the pure core of the data flow. Cells in, outcome out: no I/O, no
//! threads, no allocation on the 9x9 path.
//!
//! Every solver speaks the same cell encoding: a slice of `side * side` bytes in
//! row-major order, `0` for a blank and `1..=side` for a given. Parsing text into
//! that encoding is `format`'s job; checking that givens do not clash is
//! [`find_conflict`]'s, so a solver may assume its input is well formed.

pub mod band;
pub mod cdcl;
pub mod fast9;
pub mod generic;
#[cfg(test)]
pub(crate) mod naive;

/// Smallest supported box size (4x4 grids).
pub const MIN_BOX: usize = 2;
/// Largest supported box size (36x36 grids).
pub const MAX_BOX: usize = 6;

/// What a search found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Search {
    /// Solutions found, never more than the limit the search was given.
    pub count: u32,
    /// Branch points taken (each alternative tried after propagation stalls
    /// counts once). A puzzle solved by propagation alone has 0.
    pub guesses: u64,
}

/// Two givens that share a row, column or box and hold the same digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// Index (row-major, 0-based) of the first cell of the pair.
    pub first: usize,
    /// Index of the second cell, `second > first`.
    pub second: usize,
    /// The repeated digit, `1..=side`.
    pub digit: u8,
}

/// Returns the first pair of givens that break the rules, scanning cells in
/// row-major order, or `None` when the givens are consistent.
///
/// `cells.len()` must be `side * side` with `side = box_size * box_size`, and
/// every value `<= side`.
pub fn find_conflict(box_size: usize, cells: &[u8]) -> Option<Conflict> {
    let side = box_size * box_size;
    debug_assert_eq!(cells.len(), side * side);
    // For each (unit, digit) remember the first cell that holds it: units are
    // rows 0..side, columns side..2side, boxes 2side..3side.
    let mut seen = vec![u16::MAX; 3 * side * (side + 1)];
    for (i, &d) in cells.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let (r, c) = (i / side, i % side);
        let b = (r / box_size) * box_size + c / box_size;
        for unit in [r, side + c, 2 * side + b] {
            let slot = &mut seen[unit * (side + 1) + d as usize];
            if *slot == u16::MAX {
                *slot = i as u16;
            } else {
                return Some(Conflict {
                    first: *slot as usize,
                    second: i,
                    digit: d,
                });
            }
        }
    }
    None
}

/// Searches a puzzle of any supported size for up to `limit` solutions and
/// writes the first one found into `out` (left unspecified when none is found).
///
/// 9x9 puzzles take the fast path; other sizes the generic solver.
/// Requires `cells.len() == out.len() == side * side`, values `<= side`, and
/// `MIN_BOX <= box_size <= MAX_BOX`. Givens that clash give `count == 0`.
pub fn solve(box_size: usize, cells: &[u8], limit: u32, out: &mut [u8]) -> Search {
    if let (3, Ok(cells), Ok(out)) = (box_size, cells.try_into(), out.try_into()) {
        return fast9::solve(cells, limit, out);
    }
    generic::solve(box_size, cells, limit, out)
}

/// Finds one solution of an easy, wide-open puzzle (such as a grid seeded
/// with a few random boxes): the `band` solver, whose nodes are cheaper
/// than `fast9`'s where deep deduction does not pay (generate's grids:
/// 68k -> 36k instructions each, callgrind). True when one was found.
pub fn solve_first_cheap(box_size: usize, cells: &[u8], out: &mut [u8]) -> bool {
    if let (3, Ok(cells), Ok(out)) = (box_size, cells.try_into(), out.try_into()) {
        return band::solve(cells, 1, out).count == 1;
    }
    generic::solve(box_size, cells, 1, out).count == 1
}

/// [`solve`] that may give up (`None`) on a puzzle bigger than 9x9 once
/// it has spent `max_guesses` guesses: random big grids have heavy-tailed
/// search times, and a caller that only needs "probably fast" answers (the
/// generator) can treat a give-up as "not proven". 9x9 searches always
/// finish (the hardest known puzzles take a few thousand guesses).
pub fn solve_within(
    box_size: usize,
    cells: &[u8],
    limit: u32,
    out: &mut [u8],
    max_guesses: u64,
) -> Option<Search> {
    if let (3, Ok(cells), Ok(out)) = (box_size, cells.try_into(), out.try_into()) {
        return Some(fast9::solve(cells, limit, out));
    }
    generic::solve_within(box_size, cells, None, limit, out, max_guesses)
}

/// [`solve_within`] with one more rule: the blank cell `cell` may not hold
/// `digit`.
///
/// The cheap way to ask "is this solution the only one?" after blanking a
/// cell of a unique puzzle: the puzzle stays unique exactly when no solution
/// avoids the cell's old digit, so a search for one (limit 1) that fails
/// fast replaces a count to 2 that must find the solution first.
pub fn solve_excluding(
    box_size: usize,
    cells: &[u8],
    cell: usize,
    digit: u8,
    limit: u32,
    out: &mut [u8],
    max_guesses: u64,
) -> Option<Search> {
    debug_assert_eq!(cells[cell], 0, "the excluded cell must be blank");
    if let (3, Ok(cells), Ok(out)) = (box_size, cells.try_into(), out.try_into()) {
        return Some(band::solve_excluding(
            cells,
            Some((cell, digit)),
            limit,
            out,
        ));
    }
    generic::solve_within(
        box_size,
        cells,
        Some((cell, digit)),
        limit,
        out,
        max_guesses,
    )
}

/// Checks a candidate answer on its own terms, without trusting any solver:
/// every cell filled with `1..=side`, each row, column and box a permutation,
/// and every given of `puzzle` kept. Returns the reason it is not, if any.
pub fn verify(box_size: usize, puzzle: &[u8], answer: &[u8]) -> Result<(), String> {
    let side = box_size * box_size;
    if puzzle.len() != side * side || answer.len() != side * side {
        return Err(format!("expected {} cells", side * side));
    }
    for (i, (&p, &a)) in puzzle.iter().zip(answer).enumerate() {
        if a == 0 || a as usize > side {
            return Err(format!("cell {}: not filled with 1..={side}", i + 1));
        }
        if p != 0 && p != a {
            return Err(format!("cell {}: given {p} changed to {a}", i + 1));
        }
    }
    match find_conflict(box_size, answer) {
        None => Ok(()),
        Some(c) => Err(format!(
            "cells {} and {} both hold {}",
            c.first + 1,
            c.second + 1,
            c.digit
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflict_in_row_column_and_box() {
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[8] = 5; // same row
        assert_eq!(
            find_conflict(3, &cells),
            Some(Conflict {
                first: 0,
                second: 8,
                digit: 5
            })
        );
        let mut cells = [0u8; 81];
        cells[4] = 7;
        cells[76] = 7; // same column
        assert_eq!(find_conflict(3, &cells).map(|c| c.second), Some(76));
        let mut cells = [0u8; 81];
        cells[0] = 2;
        cells[20] = 2; // same box, other row and column
        assert_eq!(find_conflict(3, &cells).map(|c| c.second), Some(20));
        let mut cells = [0u8; 81];
        cells[0] = 2;
        cells[40] = 2;
        assert_eq!(find_conflict(3, &cells), None);
    }

    #[test]
    fn excluding_the_only_solution_leaves_none() {
        let p: Vec<u8> =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .bytes()
                .map(|b| if b == b'.' { 0 } else { b - b'0' })
                .collect();
        let mut sol = vec![0u8; 81];
        assert_eq!(solve(3, &p, 2, &mut sol).count, 1);
        verify(3, &p, &sol).unwrap();
        let blank = p.iter().position(|&v| v == 0).unwrap();
        let mut out = vec![0u8; 81];
        // Unique: no solution avoids the solution's digit in a blank cell.
        assert_eq!(
            solve_excluding(3, &p, blank, sol[blank], 2, &mut out, u64::MAX)
                .unwrap()
                .count,
            0
        );
        // Forbidding another digit there keeps the one solution.
        let other = if sol[blank] == 1 { 2 } else { 1 };
        assert_eq!(
            solve_excluding(3, &p, blank, other, 2, &mut out, u64::MAX)
                .unwrap()
                .count,
            1
        );
        assert_eq!(out, sol);
        // Same through the generic solver (4x4 grid with two solutions).
        let g = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut q = g;
        for i in [0, 1, 4, 5] {
            q[i] = 0; // 1 2 / 3 4 can swap with 2 1 / 4 3? only with columns too
        }
        let mut o = [0u8; 16];
        let total = generic::solve(2, &q, 3, &mut o).count;
        let without = solve_excluding(2, &q, 0, 1, 3, &mut o, u64::MAX)
            .unwrap()
            .count;
        let with_only = {
            let mut r = q;
            r[0] = 1;
            generic::solve(2, &r, 3, &mut o).count
        };
        assert_eq!(without + with_only, total);
    }

    #[test]
    fn verify_rejects_changed_given_and_repeats() {
        // A valid 4x4 grid.
        let good = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut puzzle = [0u8; 16];
        puzzle[0] = 1;
        assert_eq!(verify(2, &puzzle, &good), Ok(()));
        puzzle[0] = 2;
        assert!(verify(2, &puzzle, &good).unwrap_err().contains("given"));
        let mut bad = good;
        bad.swap(0, 1);
        assert!(verify(2, &[0; 16], &bad).is_err());
        let mut blank = good;
        blank[5] = 0;
        assert!(verify(2, &[0; 16], &blank).is_err());
    }
}
