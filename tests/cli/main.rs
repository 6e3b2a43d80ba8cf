//! Integration tests: the real `sudoku-bulk` binary on real files.

mod columnar;
mod detect;
mod formats;
mod labels;
mod solve;
mod tools;
mod util;
