//! The text wing: puzzle files as lines of text. Cuts a chunk of input into
//! records (`records.rs`), turns each record's bytes into solver cells and
//! writes answers back in the record's own layout ([`Layout`], delimited
//! rows in `csv.rs`), and finds a file's layout from its head ([`detect`]).
//! Sits between `pipeline` (which hands it chunks) and `solver` (which sees
//! only cells); the columnar wing (`columnar/`) is its sibling for tables
//! and arrays. Both speak `record`'s vocabulary.
//!
//! Shapes of a record ([`Shape`]; a new one is a variant here, its parse and
//! write arms in `layout.rs`, and its test in `detect.rs`'s candidates):
//!
//! ```text
//! Line     4.....8.5.3....     one puzzle per line (N*N cells: 36, 81, 256 ...)
//! Grid     103000509           `side` rows of `side` cells, one row per line
//!          002109400 ...
//! Spaced   8 0 0 0 0 0 0 0 0   `side` rows of `side` numbers (0 = blank)
//! Boxed     . 3 . | 6 4 . | .  `side` rows of cells between `|`/`!` marks,
//!          -------+-------     with rule lines (qqwing, Simple Sudoku .ss)
//! Numbers  8 0 0 0 ... 0       one puzzle per line as side*side numbers
//! Csv      id,puzzle,solution  a delimited row (CSV, TSV, tdoku `p:n:s`);
//!                              one field holds the puzzle, maybe one a label
//! ```

mod csv;
pub mod detect;
mod layout;
mod records;
mod symbols;
#[cfg(test)]
mod tests;

pub use crate::record::{quote, Analysis, CellName, Label, RecordError, Shown, MAX_QUOTED_LINES};
pub use csv::{
    cr_before_text, cr_ends_text, push_field, quote_open_after, row_fields, walk_quotes,
    CsvColumns, RowSplit,
};
pub use layout::{error_mark, is_marks_line, Layout, Shape};
pub use records::{classify_line, Item, Line, Records};
pub use symbols::{char_count, is_rule, shown_path, Symbols};
