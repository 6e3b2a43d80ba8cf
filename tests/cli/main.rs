//! Integration tests: the real `sudoku-bulk` binary on real files.

mod formats;
mod io;
mod reliability;
mod solve;
mod tools;
mod util;
