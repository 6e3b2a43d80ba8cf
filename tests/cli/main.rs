//! Integration tests: the real `sudoku-bulk` binary on real files.

mod solve;
mod util;
