//! sudoku-bulk solves huge Sudoku puzzle files as fast as the hardware allows.
//!
//! Data flow: [`input`] maps or streams the bytes → [`pipeline`] cuts them into
//! record-aligned chunks and solves them on rayon workers → [`text`] parses
//! each record and writes its answer → [`solver`] does the pure work → the
//! pipeline's single writer emits answers in input order into an
//! [`output::Output`].
//!
//! The solver can be used on its own:
//!
//! ```
//! use sudoku_bulk::text::{Layout, Shape, Symbols};
//! use sudoku_bulk::solver;
//!
//! let line = b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let layout = Layout::new(Shape::Line, solver::Boxes::NINE, Symbols::Digits);
//! let mut cells = [0u8; 81];
//! layout.parse(line, &mut cells).unwrap();
//! let mut answer = [0u8; 81];
//! let search = solver::solve(solver::Boxes::square(3), &cells, 2, &mut answer);
//! assert_eq!(search.count, 1); // unique
//! assert!(solver::verify(solver::Boxes::square(3), &cells, &answer).is_ok());
//! ```

#![deny(missing_docs)]

pub mod args;
pub mod batch;
pub mod bench;
pub mod canon;
pub mod check;
pub mod cleanup;
pub mod cmd;
pub mod columnar;
pub mod dedupe;
pub mod generate;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod rate;
pub mod record;
pub mod solver;
pub mod text;

#[cfg(test)]
mod layering;
