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
