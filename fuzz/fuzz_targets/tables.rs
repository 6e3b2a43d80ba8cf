//! Fuzz target for the Parquet and Arrow IPC readers behind `check`: bytes
//! that start like a table (the fuzzer is seeded with real files) never
//! panic, and a report that comes back adds up.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::columnar::{table, Asked, Data, Kind};
use sudoku_bulk::input::sniff;

fuzz_target!(|data: &[u8]| {
    // The CLI's panic hook: a panic the readers contain (a malformed file
    // that arrow-ipc or parquet panics on) is an error, not a finding; any
    // other panic still reaches libFuzzer's hook. Not the CLI's signal
    // handlers: an abort must reach libFuzzer to be saved as a finding.
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(sudoku_bulk::cleanup::install_panic_hook);
    let Some(kind) = sniff(data) else {
        return;
    };
    if kind == Kind::Npy {
        return;
    }
    let spec = Asked {
        column: None,
        symbols: None,
        shape: None,
        boxes: None,
    };
    if let Ok(report) = table::check(&spec, "fuzz", kind, Data::Owned(data.to_vec()), None) {
        assert_eq!(report.good + report.bad, report.records);
    }
});
