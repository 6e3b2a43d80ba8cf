//! Solvers: the pure core of the data flow. Cells in, outcome out: no I/O, no
//! threads, no allocation on the 9x9 path.
//!
//! Every solver speaks the same cell encoding: a slice of `side * side` bytes in
//! row-major order, `0` for a blank and `1..=side` for a given. Parsing text into
//! that encoding is the `text` wing's job; checking that givens do not clash is
//! [`find_conflict`]'s, so a solver may assume its input is well formed.

pub mod band;
pub mod cdcl;
pub mod fast9;
#[cfg(test)]
mod fixtures9;
pub mod generic;
#[cfg(test)]
pub(crate) mod naive;
mod tables9;

/// Largest supported side: candidates of a cell are one `u64`.
pub const MAX_SIDE: usize = 64;

/// The shape of a grid's boxes: `rows` cells tall and `cols` cells wide, so
/// the grid is `side = rows * cols` cells square (6x6 as 2x3 boxes, 9x9 as
/// 3x3, 12x12 as 3x4). Boxes are laid out `cols` box-rows ("bands") down
/// and `rows` box-columns ("stacks") across.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Boxes {
    rows: u8,
    cols: u8,
}

impl Boxes {
    /// 3x3 boxes: the classic 9x9 grid.
    pub const NINE: Boxes = Boxes { rows: 3, cols: 3 };

    /// Boxes of `rows` x `cols` cells, if supported: both at least 2 and a
    /// side of at most [`MAX_SIDE`].
    pub const fn new(rows: usize, cols: usize) -> Option<Boxes> {
        // Each factor is bounded first: `rows * cols` of two huge values
        // (`--box 4294967296x4294967296`) would wrap to 0.
        if rows >= 2 && cols >= 2 && rows <= MAX_SIDE && cols <= MAX_SIDE && rows * cols <= MAX_SIDE
        {
            Some(Boxes {
                rows: rows as u8,
                cols: cols as u8,
            })
        } else {
            None
        }
    }

    /// Square boxes of `b` x `b` cells (`2..=8`).
    ///
    /// # Panics
    /// If `b` is outside `2..=8`.
    pub const fn square(b: usize) -> Boxes {
        match Boxes::new(b, b) {
            Some(x) => x,
            None => panic!("square boxes are 2x2 to 8x8"),
        }
    }

    /// The usual boxes of a grid with `side` rows: square when `side` is a
    /// square (9 → 3x3, 16 → 4x4), else as square as the divisors allow,
    /// wider than tall (6 → 2x3, 8 → 2x4, 10 → 2x5, 12 → 3x4, 20 → 4x5).
    /// `None` when no box of at least 2x2 tiles it (primes, over 64).
    pub fn for_side(side: usize) -> Option<Boxes> {
        if !(4..=MAX_SIDE).contains(&side) {
            return None;
        }
        let rows = (2..=side)
            .take_while(|r| r * r <= side)
            .filter(|r| side.is_multiple_of(*r))
            .last()?;
        Boxes::new(rows, side / rows)
    }

    /// Parses `RxC` (`3x4`, `2X3`) as rows x columns of a box.
    pub fn parse(s: &str) -> Result<Boxes, String> {
        let (r, c) = s
            .split_once(['x', 'X'])
            .ok_or_else(|| format!("{s:?}: expected ROWSxCOLS, such as 3x4"))?;
        let num = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("{s:?}: expected ROWSxCOLS, such as 3x4"))
        };
        let (r, c) = (num(r)?, num(c)?);
        Boxes::new(r, c).ok_or_else(|| {
            format!("{s:?}: boxes must be at least 2x2 with at most {MAX_SIDE} cells")
        })
    }

    /// Cells a box is tall.
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Cells a box is wide.
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// Rows (and columns, and digits) of the grid.
    pub const fn side(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Cells of the grid.
    pub const fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// True for square boxes.
    pub const fn is_square(self) -> bool {
        self.rows == self.cols
    }

    /// Box index (row-major over the boxes) of the cell at row `r`, column `c`.
    #[inline]
    pub const fn box_of(self, r: usize, c: usize) -> usize {
        (r / self.rows()) * self.rows() + c / self.cols()
    }

    /// Row-major index of the `k`-th cell of box `b`.
    #[inline]
    pub const fn box_cell(self, b: usize, k: usize) -> usize {
        let r = (b / self.rows()) * self.rows() + k / self.cols();
        let c = (b % self.rows()) * self.cols() + k % self.cols();
        r * self.side() + c
    }
}

impl std::fmt::Display for Boxes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

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
/// `cells.len()` must be `boxes.cells()`, and every value `<= side`.
pub fn find_conflict(boxes: Boxes, cells: &[u8]) -> Option<Conflict> {
    let side = boxes.side();
    debug_assert_eq!(cells.len(), side * side);
    // For each (unit, digit) remember the first cell that holds it: units are
    // rows 0..side, columns side..2side, boxes 2side..3side.
    let mut seen = vec![u16::MAX; 3 * side * (side + 1)];
    for (i, &d) in cells.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let (r, c) = (i / side, i % side);
        let b = boxes.box_of(r, c);
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

/// Cells of a 9x9 pencilmark (Sukaku) puzzle as the record layer holds it:
/// 9 flags per cell, cell-major, flag `k` of cell `i` (index `9 * i + k`)
/// 1 where digit `k + 1` may stand in the cell, 0 where it is eliminated.
pub const MARK_FLAGS: usize = 729;

/// Searches a puzzle of any supported size for up to `limit` solutions and
/// writes the first one found into `out` (left unspecified when none is found).
///
/// 9x9 puzzles take the fast path; other sizes the generic solver.
/// Requires `cells.len() == out.len() == boxes.cells()` and values `<= side`.
/// Givens that clash give `count == 0`.
///
/// A 9x9 pencilmark puzzle comes as [`MARK_FLAGS`] flags with
/// `boxes == Boxes::NINE` (see [`solve_marks`]); its answer goes into
/// `out[..81]` (`out` at least 81 long).
pub fn solve(boxes: Boxes, cells: &[u8], limit: u32, out: &mut [u8]) -> Search {
    if let (Boxes::NINE, Ok(cells), Ok(out)) = (boxes, cells.try_into(), out.try_into()) {
        return fast9::solve(cells, limit, out);
    }
    if boxes == Boxes::NINE && cells.len() == MARK_FLAGS {
        if let Some(out) = out.get_mut(..81).and_then(|o| o.try_into().ok()) {
            return fast9::solve_marks(&marks_of_flags(cells), limit, out);
        }
    }
    generic::solve(boxes, cells, limit, out)
}

/// Per-cell candidate masks (bit `k`: digit `k + 1`) of [`MARK_FLAGS`]
/// flags.
pub fn marks_of_flags(flags: &[u8]) -> [u16; 81] {
    debug_assert_eq!(flags.len(), MARK_FLAGS);
    std::array::from_fn(|i| {
        flags[9 * i..9 * i + 9]
            .iter()
            .enumerate()
            .fold(0, |m, (k, &f)| m | u16::from(f != 0) << k)
    })
}

/// Searches a 9x9 pencilmark puzzle (`marks[i]` bit `k` set while digit
/// `k + 1` may stand in cell `i`) for up to `limit` solutions and writes
/// the first one found into `out`. A cell with one mark acts as a given,
/// one with none makes the count 0.
pub fn solve_marks(marks: &[u16; 81], limit: u32, out: &mut [u8; 81]) -> Search {
    fast9::solve_marks(marks, limit, out)
}

/// Finds one solution of an easy, wide-open puzzle (such as a grid seeded
/// with a few random boxes): the `band` solver, whose first solution is
/// the one `generate`'s output for a seed has always been built on
/// (`fast9` branches differently and finds another). True when one was
/// found.
pub fn solve_first_cheap(boxes: Boxes, cells: &[u8], out: &mut [u8]) -> bool {
    if let (Boxes::NINE, Ok(cells), Ok(out)) = (boxes, cells.try_into(), out.try_into()) {
        return band::solve(cells, 1, out).count == 1;
    }
    generic::solve(boxes, cells, 1, out).count == 1
}

/// [`solve_asking`] with only an exclusion: the blank cell `cell` may not
/// hold `digit`.
///
/// The cheap way to ask "is this solution the only one?" after blanking a
/// cell of a unique puzzle: the puzzle stays unique exactly when no solution
/// avoids the cell's old digit, so a search for one (limit 1) that fails
/// fast replaces a count to 2 that must find the solution first.
pub fn solve_excluding(
    boxes: Boxes,
    cells: &[u8],
    cell: usize,
    digit: u8,
    limit: u32,
    out: &mut [u8],
    max_guesses: u64,
) -> Option<Search> {
    let ask = cdcl::Ask::exclude(Some((cell, digit)));
    solve_asking(boxes, cells, ask, limit, out, max_guesses)
}

/// [`solve`] that may give up (`None`) on a puzzle bigger than 9x9 once
/// it has spent `max_guesses` guesses (depth-first guesses plus
/// learning-search conflicts): random big grids have heavy-tailed search
/// times, and a caller that only needs "probably fast" answers (the
/// generator) can treat a give-up as "not proven". 9x9 searches always
/// finish (the hardest known puzzles take a few thousand guesses).
///
/// With what `ask` adds (see [`cdcl::Ask`]): a digit a blank cell may not
/// hold (as [`solve_excluding`]) and a known solution to look near first.
/// The generator asks this after removing clues of a unique puzzle, whose
/// solution it knows: is there another solution (one avoiding a removed
/// clue's digit)? A second solution differs from the known one in a few
/// cells, and the learning search starting from the known one finds it
/// sooner. The same answer of
/// how many solutions there are (up to `limit`); which one comes back,
/// and so when a capped search gives up, may differ. (`generate --size
/// 25`, one puzzle, seed 11: 19.0 -> 12.3 s of CPU, the same puzzle; seed
/// 12: 8.8 -> 5.8 s.) 9x9 searches ignore the hint.
pub fn solve_asking(
    boxes: Boxes,
    cells: &[u8],
    ask: cdcl::Ask<'_>,
    limit: u32,
    out: &mut [u8],
    max_guesses: u64,
) -> Option<Search> {
    debug_assert!(ask.near.is_none_or(|near| near.len() == cells.len()));
    debug_assert!(
        ask.exclude.is_none_or(|(cell, _)| cells[cell] == 0),
        "the excluded cell must be blank"
    );
    if let (Boxes::NINE, Ok(cells), Ok(out)) = (boxes, cells.try_into(), out.try_into()) {
        return Some(match ask.exclude {
            None => fast9::solve(cells, limit, out),
            Some(exclude) => fast9::solve_excluding(cells, exclude, limit, out),
        });
    }
    generic::solve_within(boxes, cells, ask, limit, out, max_guesses)
}

/// Checks a candidate answer on its own terms, without trusting any solver:
/// every cell filled with `1..=side`, each row, column and box a permutation,
/// and every given of `puzzle` kept. Returns the reason it is not, if any.
///
/// A 9x9 pencilmark puzzle ([`MARK_FLAGS`] flags, see [`solve`]) is kept
/// when every cell of `answer[..81]` holds one of its marks.
pub fn verify(boxes: Boxes, puzzle: &[u8], answer: &[u8]) -> Result<(), String> {
    if boxes == Boxes::NINE && puzzle.len() == MARK_FLAGS && answer.len() >= 81 {
        let answer = &answer[..81];
        verify(boxes, &[0; 81], answer)?;
        return match (0..81).find(|&i| puzzle[9 * i + answer[i] as usize - 1] == 0) {
            Some(i) => Err(format!("cell {}: {} is not marked", i + 1, answer[i])),
            None => Ok(()),
        };
    }
    let side = boxes.side();
    if puzzle.len() != side * side || answer.len() != side * side {
        return Err(format!("expected {} cells", side * side));
    }
    for (i, (&p, &a)) in puzzle.iter().zip(answer).enumerate() {
        if a == 0 || a as usize > side {
            return Err(format!("cell {}: not filled with 1-{side}", i + 1));
        }
        if p != 0 && p != a {
            return Err(format!("cell {}: given {p} changed to {a}", i + 1));
        }
    }
    match find_conflict(boxes, answer) {
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
    fn box_shapes_past_the_largest_side_are_refused() {
        assert_eq!(Boxes::parse("2x32").map(Boxes::side), Ok(64));
        for s in [
            "2x33",
            "9x9",
            "1x16",
            "4294967296x4294967296",
            "65536x65536",
        ] {
            assert!(Boxes::parse(s).is_err(), "{s}");
        }
        assert_eq!(Boxes::new(1 << 32, 1 << 32), None);
    }

    #[test]
    fn conflict_in_row_column_and_box() {
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[8] = 5; // same row
        assert_eq!(
            find_conflict(Boxes::NINE, &cells),
            Some(Conflict {
                first: 0,
                second: 8,
                digit: 5
            })
        );
        let mut cells = [0u8; 81];
        cells[4] = 7;
        cells[76] = 7; // same column
        assert_eq!(
            find_conflict(Boxes::NINE, &cells).map(|c| c.second),
            Some(76)
        );
        let mut cells = [0u8; 81];
        cells[0] = 2;
        cells[20] = 2; // same box, other row and column
        assert_eq!(
            find_conflict(Boxes::NINE, &cells).map(|c| c.second),
            Some(20)
        );
        let mut cells = [0u8; 81];
        cells[0] = 2;
        cells[40] = 2;
        assert_eq!(find_conflict(Boxes::NINE, &cells), None);
    }

    #[test]
    fn excluding_the_only_solution_leaves_none() {
        let p: Vec<u8> =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .bytes()
                .map(|b| if b == b'.' { 0 } else { b - b'0' })
                .collect();
        let mut sol = vec![0u8; 81];
        assert_eq!(solve(Boxes::NINE, &p, 2, &mut sol).count, 1);
        verify(Boxes::NINE, &p, &sol).unwrap();
        let blank = p.iter().position(|&v| v == 0).unwrap();
        let mut out = vec![0u8; 81];
        // Unique: no solution avoids the solution's digit in a blank cell.
        assert_eq!(
            solve_excluding(Boxes::NINE, &p, blank, sol[blank], 2, &mut out, u64::MAX)
                .unwrap()
                .count,
            0
        );
        // Forbidding another digit there keeps the one solution.
        let other = if sol[blank] == 1 { 2 } else { 1 };
        assert_eq!(
            solve_excluding(Boxes::NINE, &p, blank, other, 2, &mut out, u64::MAX)
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
        let total = generic::solve(Boxes::square(2), &q, 3, &mut o).count;
        let without = solve_excluding(Boxes::square(2), &q, 0, 1, 3, &mut o, u64::MAX)
            .unwrap()
            .count;
        let with_only = {
            let mut r = q;
            r[0] = 1;
            generic::solve(Boxes::square(2), &r, 3, &mut o).count
        };
        assert_eq!(without + with_only, total);
    }

    #[test]
    fn verify_rejects_changed_given_and_repeats() {
        // A valid 4x4 grid.
        let good = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut puzzle = [0u8; 16];
        puzzle[0] = 1;
        assert_eq!(verify(Boxes::square(2), &puzzle, &good), Ok(()));
        puzzle[0] = 2;
        assert!(verify(Boxes::square(2), &puzzle, &good)
            .unwrap_err()
            .contains("given"));
        let mut bad = good;
        bad.swap(0, 1);
        assert!(verify(Boxes::square(2), &[0; 16], &bad).is_err());
        let mut blank = good;
        blank[5] = 0;
        assert!(verify(Boxes::square(2), &[0; 16], &blank).is_err());
    }
}
