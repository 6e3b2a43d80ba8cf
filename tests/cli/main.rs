//! Integration tests: the real `sudoku-bulk` binary on real files.

mod columnar;
mod formats;
mod solve;
mod tools;
mod util;
