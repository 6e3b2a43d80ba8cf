//! Fuzz target for the record parsers: whatever the bytes, detection and
//! parsing never panic, and the records of the whole input are exactly the
//! records of the two pieces a chunk cut makes of it. Input: a byte for the
//! cut, a byte for the `--size`/`--box` flags (see `common::forced`), then
//! the file.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::text::detect::detect;
use sudoku_bulk::text::{Item, Records};

fuzz_target!(|input: &[u8]| {
    let [k, f, data @ ..] = input else {
        return;
    };
    let k = *k;
    let Ok(found) = detect(data, &common::forced(*f)) else {
        return;
    };
    let layout = &found.layout;
    let data = &data[found.skip_bytes.min(data.len())..];
    let whole: Vec<Item> = Records::new(layout, data).collect();
    let mut cells = vec![0u8; layout.cells()];
    for item in &whole {
        if let Item::Record { raw, .. } = item {
            let _ = layout.parse(raw, &mut cells);
        }
    }
    // A cut at or after `target` ends a record, so the records of the two
    // halves (lines renumbered) are the records of the whole.
    let target = usize::from(k) * data.len() / 256;
    if let Some(cut) = layout.cut(data, target.max(1)) {
        assert!(cut <= data.len());
        let head: Vec<Item> = Records::new(layout, &data[..cut]).collect();
        let lines = memchr_count(&data[..cut]);
        let tail = Records::new(layout, &data[cut..]).map(|item| match item {
            Item::Record { line, raw } => Item::Record {
                line: line + lines,
                raw,
            },
            end => end,
        });
        let mut joined = head.clone();
        if !matches!(head.last(), Some(Item::End)) {
            joined.extend(tail);
        }
        assert_eq!(joined, whole, "cut at {cut} of {}", data.len());
    }
});

fn memchr_count(data: &[u8]) -> u64 {
    data.iter().filter(|&&b| b == b'\n').count() as u64
}
