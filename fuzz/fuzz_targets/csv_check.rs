//! Fuzz target for CSV rows and `check`: whatever the bytes, checking a
//! dataset or a pair of files never panics, and a file checked against
//! itself never has more good records than records.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::check::{check_csv, check_files};
use sudoku_bulk::text::detect::Forced;

fuzz_target!(|input: &[u8]| {
    let forced = Forced::default();
    if let Ok(report) = check_csv(input, &forced) {
        assert_eq!(report.good + report.bad, report.records);
    }
    let mid = input.len() / 2;
    if let Ok(report) = check_files(&input[..mid], &input[mid..], &forced) {
        assert_eq!(report.good + report.bad, report.records);
        assert!(report.shown.len() as u64 <= report.bad);
    }
});
