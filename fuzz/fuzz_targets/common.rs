//! Helpers shared by the fuzz targets: an answer checker that trusts no
//! solver (full grid, every unit a permutation, givens kept).

#![allow(dead_code)]

/// True when `answer` completes `puzzle` (box size `b`, `0` blank).
pub fn valid(b: usize, puzzle: &[u8], answer: &[u8]) -> bool {
    let n = b * b;
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
            let (r, c) = ((u / b) * b + k / b, (u % b) * b + k % b);
            bx |= 1 << answer[r * n + c];
        }
        let full = ((1u128 << n) - 1) << 1;
        if row != full || col != full || bx != full {
            return false;
        }
    }
    true
}
