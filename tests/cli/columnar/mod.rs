//! Columnar and array inputs: Parquet, Arrow IPC (file and stream) and NumPy
//! `.npy` files written here with the real crates (and with pyarrow/numpy
//! when a Python with them is at hand: `$SUDOKU_BULK_PYTHON` or `python3`),
//! solved by the real binary, every answer checked by `assert_valid`. One
//! file a format (`npy`, `parquet`, `ipc`; `tables` for what both table
//! formats share, `fuzz` for the fuzzers' findings); here the fixtures and
//! readers they share, and in `shared` the Parquet/Arrow writers and
//! readers, which hostile.rs and conventions.rs use too.

mod fuzz;
#[cfg(feature = "columnar")]
mod ipc;
mod npy;
#[cfg(feature = "columnar")]
mod parquet;
#[cfg(feature = "columnar")]
pub mod shared;
#[cfg(feature = "columnar")]
mod tables;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command as Std;

use crate::util::*;

/// `count` puzzles of box size `b`: (puzzle, its full grid) pairs; about
/// `blank`% of cells blanked, so some have several solutions.
fn fixtures(b: usize, count: usize, blank: usize, seed: u64) -> Vec<(Vec<u8>, Vec<u8>)> {
    (0..count as u64)
        .map(|k| {
            let grid = full_grid(b, seed * 1000 + k);
            (blank_out(&grid, blank, seed * 7919 + k), grid)
        })
        .collect()
}

/// A puzzle whose givens clash (two 5s in row 1).
pub fn clashing() -> Vec<u8> {
    let mut p = vec![0u8; 81];
    p[0] = 5;
    p[8] = 5;
    p
}

/// Reads back a `.npy` answer file: (descr, shape, elements as u64).
pub fn read_npy(path: impl AsRef<Path>) -> (String, String, Vec<u64>) {
    let bytes = &std::fs::read(path).unwrap()[..];
    assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "data aligned as NumPy aligns it");
    let dict = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    let field = |key: &str, close: char| {
        let at = dict.find(key).unwrap() + key.len();
        let rest = &dict[at..];
        rest[..=rest.find(close).unwrap()].trim().to_string()
    };
    let descr = field("'descr': ", ',');
    let descr = descr.trim_end_matches(',').trim_matches('\'').to_string();
    let shape = field("'shape': ", ')');
    let size: usize = descr[2..].parse().unwrap();
    let values = bytes[10 + len..]
        .chunks(size)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..size].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect();
    (descr, shape, values)
}

/// A Python that imports `modules`, or `None` (the test then skips).
pub fn python_with(modules: &str) -> Option<PathBuf> {
    let py = std::env::var_os("SUDOKU_BULK_PYTHON")
        .map_or_else(|| PathBuf::from("python3"), PathBuf::from);
    let ok = Std::new(&py)
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: no Python with {modules} (set SUDOKU_BULK_PYTHON)");
    }
    ok.then_some(py)
}

/// Runs a Python `script` in `dir` with `args` and returns its output,
/// asserting that it succeeded. The script ends with `os._exit(0)` once its
/// output is flushed: pyarrow 26 now and then aborts while the interpreter
/// shuts down (`terminate called without an active exception`, about one
/// Parquet-reading process in 400 here; apache/arrow#34314), after the work
/// is done. A script that raises still fails with its traceback.
pub fn run_python(py: &Path, script: &str, dir: &Path, args: &[&OsStr]) -> Vec<u8> {
    let o = Std::new(py)
        .arg("-c")
        .arg(format!(
            "{script}\nimport os as _os, sys as _sys\n\
             _sys.stdout.flush(); _sys.stderr.flush(); _os._exit(0)\n"
        ))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}
