//! Integration tests: the real `sudoku-bulk` binary on real files.

mod canon;
mod columnar;
mod conventions;
#[cfg(feature = "columnar")]
mod convert;
mod dedupe;
mod detect;
mod docs;
mod formats;
mod grids;
mod guard;
mod hostile;
mod io;
mod labels;
mod outputs;
mod pencilmarks;
mod rate;
mod reliability;
mod shapes;
mod solve;
mod tools;
mod util;
mod workbench;
