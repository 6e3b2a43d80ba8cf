//! Rate of the canonical-form engine alone (no I/O in the timed loop): reads
//! one-line 9x9 records, canonicalises them all `ROUNDS` times on one thread
//! and prints records per second. Used while tuning `src/canon.rs`; the
//! whole-process comparison with patminlex is `scripts/canon_compare.sh`.
//!
//! `cargo run --release --example canon_rate -- FILE [string|pattern] [ROUNDS]`

use std::time::Instant;
use sudoku_bulk::canon::{canon9, Form};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: canon_rate FILE [string|pattern] [ROUNDS]");
    let form = match args.get(2).map(String::as_str) {
        Some("pattern") => Form::Pattern,
        _ => Form::String,
    };
    let rounds: usize = args.get(3).map_or(1, |s| s.parse().expect("ROUNDS"));
    let text = std::fs::read_to_string(path).expect("read FILE");
    let records: Vec<[u8; 81]> = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .map(|l| {
            let mut c = [0u8; 81];
            for (i, b) in l.bytes().take(81).enumerate() {
                c[i] = if (b'1'..=b'9').contains(&b) {
                    b - b'0'
                } else {
                    0
                };
            }
            c
        })
        .collect();
    let start = Instant::now();
    let mut check = 0u64;
    for _ in 0..rounds {
        for r in &records {
            let c = canon9(r, form);
            check = check.wrapping_add(c.automorphisms + c.cells()[80] as u64);
        }
    }
    let s = start.elapsed().as_secs_f64();
    let n = records.len() * rounds;
    println!(
        "{path} {form:?}: {n} records in {s:.3} s = {:.0}/s (checksum {check})",
        n as f64 / s
    );
}
