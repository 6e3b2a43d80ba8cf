//! Test-only reference: counts solutions by plain backtracking, with no
//! propagation and no shared code with the real solvers, so unit tests can
//! check solution counts independently.

use super::Boxes;

/// Solutions of `grid` (boxes `boxes`, 0 = blank), counted up to `limit`.
/// Filled cells are trusted not to clash (check with `find_conflict`).
pub fn count(boxes: Boxes, grid: &mut [u8], limit: u32) -> u32 {
    let (n, h, w) = (boxes.side(), boxes.rows(), boxes.cols());
    let Some(i) = grid.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (r, c) = (i / n, i % n);
    let (top, left) = (r - r % h, c - c % w);
    let mut total = 0;
    for d in 1..=n as u8 {
        let clash = (0..n).any(|k| {
            grid[r * n + k] == d
                || grid[k * n + c] == d
                || grid[(top + k / w) * n + left + k % w] == d
        });
        if !clash {
            grid[i] = d;
            total += count(boxes, grid, limit - total);
            grid[i] = 0;
            if total >= limit {
                break;
            }
        }
    }
    total
}

/// Solutions of a 9x9 pencilmark puzzle (`marks[i]` bit d: digit d + 1
/// allowed in cell i), counted up to `limit`, by backtracking on the open
/// cell with the fewest allowed digits that clash with nothing placed.
/// `grid` starts all 0 (it comes back so); the first solution found goes
/// into `first`.
pub fn count_marks(
    marks: &[u16; 81],
    grid: &mut [u8; 81],
    limit: u32,
    first: &mut Option<[u8; 81]>,
) -> u32 {
    let fits = |grid: &[u8; 81], i: usize, d: u8| {
        let (r, c) = (i / 9, i % 9);
        let (top, left) = (r - r % 3, c - c % 3);
        marks[i] >> (d - 1) & 1 == 1
            && (0..9).all(|k| {
                grid[r * 9 + k] != d
                    && grid[k * 9 + c] != d
                    && grid[(top + k / 3) * 9 + left + k % 3] != d
            })
    };
    let mut best: Option<(usize, usize)> = None;
    for i in (0..81).filter(|&i| grid[i] == 0) {
        let n = (1..=9).filter(|&d| fits(grid, i, d)).count();
        if best.is_none_or(|(_, m)| n < m) {
            best = Some((i, n));
        }
    }
    let Some((i, _)) = best else {
        first.get_or_insert(*grid);
        return 1;
    };
    let mut total = 0;
    for d in 1..=9u8 {
        if fits(grid, i, d) {
            grid[i] = d;
            total += count_marks(marks, grid, limit - total, first);
            grid[i] = 0;
            if total >= limit {
                break;
            }
        }
    }
    total
}
