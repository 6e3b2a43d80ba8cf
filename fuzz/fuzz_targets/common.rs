//! Helpers shared by the fuzz targets: an answer checker that trusts no
//! solver (full grid, every unit a permutation, givens kept), and the
//! `--size`/`--box` flags a control byte stands for.

#![allow(dead_code)]

use sudoku_bulk::text::detect::Forced;
use sudoku_bulk::solver::Boxes;

/// The flags control byte `f` stands for: none for half the values, else
/// a `--size` (square and rectangular defaults) or a `--box` (both ways
/// round), so detection and parsing run under every kind of forced size.
pub fn forced(f: u8) -> Forced {
    let mut forced = Forced::default();
    match f % 16 {
        8 => forced.side = Some(4),
        9 => forced.side = Some(6),
        10 => forced.side = Some(8),
        11 => forced.side = Some(9),
        12 => forced.side = Some(12),
        13 => forced.boxes = Boxes::new(3, 2),
        14 => forced.boxes = Boxes::new(4, 2),
        15 => forced.boxes = Boxes::new(2, 5),
        _ => {}
    }
    forced
}

/// True when `answer` completes `puzzle` (boxes `h` rows by `w` columns,
/// `0` blank).
pub fn valid(h: usize, w: usize, puzzle: &[u8], answer: &[u8]) -> bool {
    let n = h * w;
    if puzzle.len() != n * n || answer.len() != n * n {
        return false;
    }
    if puzzle
        .iter()
        .zip(answer)
        .any(|(&p, &a)| a == 0 || a as usize > n || (p != 0 && p != a))
    {
        return false;
    }
    for u in 0..n {
        let (mut row, mut col, mut bx) = (0u128, 0u128, 0u128);
        for k in 0..n {
            row |= 1 << answer[u * n + k];
            col |= 1 << answer[k * n + u];
            // Box u: boxes run `h` across (n / w of them), each `w` wide.
            let (r, c) = ((u / h) * h + k / w, (u % h) * w + k % w);
            bx |= 1 << answer[r * n + c];
        }
        let full = ((1u128 << n) - 1) << 1;
        if row != full || col != full || bx != full {
            return false;
        }
    }
    true
}
