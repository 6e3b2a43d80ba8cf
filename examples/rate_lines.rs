//! Rates one-line puzzles from stdin with the library's rater (no pipeline):
//! `PUZZLE ER/EP/ED` per line, `unrated` or `not-unique` instead of the
//! numbers, then the puzzles/s on stderr. Used by scripts/rate_compare.sh.
//!
//! `cargo run --release --example rate_lines < puzzles.txt`

use std::io::{BufRead, Write};
use std::time::Instant;

use sudoku_bulk::rate::{Outcome, Rater};

fn main() {
    let rater = Rater::new();
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let start = Instant::now();
    let mut n = 0u64;
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        let p = line.trim();
        if p.len() < 81 || p.starts_with('#') {
            continue;
        }
        let mut cells = [0u8; 81];
        for (c, b) in cells.iter_mut().zip(p.bytes()) {
            *c = if (b'1'..=b'9').contains(&b) {
                b - b'0'
            } else {
                0
            };
        }
        n += 1;
        match rater.rate(&cells) {
            Outcome::Rated(r) => writeln!(out, "{} {r}", &p[..81]),
            Outcome::Unrated { next, so_far } => writeln!(
                out,
                "{} unrated({}; so far {so_far})",
                &p[..81],
                next.map_or("outside the set", |t| t.id())
            ),
            Outcome::NotUnique { .. } => writeln!(out, "{} not-unique", &p[..81]),
        }
        .expect("stdout");
    }
    out.flush().expect("stdout");
    let s = start.elapsed().as_secs_f64();
    eprintln!("{n} puzzles in {s:.3} s: {:.0}/s", n as f64 / s);
}
