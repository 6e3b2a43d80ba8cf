//! sudoku-bulk solves huge Sudoku puzzle files as fast as the hardware allows.
//!
//! Data flow: the input (a mapped file or a stream, decoded by its magic
//! bytes) is cut into record-aligned chunks solved on rayon workers; the
//! [`text`] wing parses each record and writes its answer in the record's
//! own layout (tables and arrays take the columnar wing, rows of cells
//! through [`batch`]); [`solver`] does the pure work; one writer emits the
//! answers in input order. [`cmd`] runs a whole command over an input.
//!
//! The library API is what a Rust program needs on its own: the solvers and
//! their cell encoding ([`solver`]), one record's layouts ([`text`]), the
//! record vocabulary ([`record`]), batches of rows ([`batch`]), canonical
//! forms ([`canon`]), human-style ratings ([`rate`]), generation
//! ([`generate`]) and the benchmark engine ([`bench`](mod@bench)). The rest is
//! crate-private (public only to the fuzz targets, through the `internals`
//! feature).
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

// The library API, public on purpose and documented: the solvers and the
// cell encoding, one record's text layouts (parse, write, detect), the record
// vocabulary and batches of rows, canonical forms, ratings, generation and
// the benchmark engine.
pub mod batch;
pub mod bench;
pub mod canon;
pub mod disguise;
pub mod generate;
pub mod rate;
pub mod record;
pub mod solver;
pub mod text;

// The command layer: what the binary runs (`cmd`), behind its clap front
// end (`args`). A program can run any command over an input through it.
pub mod args;
/// `augment`: random disguises of every record.
pub mod augment;
pub mod cmd;
/// `convert`: a dataset from one layout to another.
pub mod convert;
/// `dedupe`, `overlap` and `split`: repeats within a dataset, leaks between
/// two, and a split without them.
pub mod dedupe;

/// Declares modules that are the crate's internals: crate-private, and
/// public (hidden from the docs) only with the `internals` feature, which
/// the fuzz targets turn on to drive them directly. Items only the fuzz
/// targets call are compiled with that feature alone, so dead code in
/// these modules is still reported.
macro_rules! internals {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        $(#[$doc])*
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    )*};
}

internals! {
    /// Check of answer files against puzzle files (the `check` engine).
    check;
    /// Removal of temporary outputs on signals and panics.
    cleanup;
    /// Parquet, Arrow IPC and `.npy` readers and writers.
    columnar;
    /// A path or stdin as bytes; format sniffing.
    input;
    /// The atomic output file, progress bar and summary.
    output;
    /// The text run engine: chunks on rayon workers, one ordered writer.
    pipeline;
}

#[cfg(test)]
mod layering;
