//! Helpers shared by the fuzz targets: an answer checker that trusts no
//! solver (full grid, every unit a permutation, givens kept).

#![allow(dead_code)]

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
