//! sudoku-bulk: solve huge Sudoku files.
pub mod solver;
