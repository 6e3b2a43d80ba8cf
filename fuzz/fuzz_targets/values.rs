//! Fuzz target for the one-puzzle-per-value reader (Parquet/Arrow string
//! cells, Python strings): whatever the values, `detect_values` and
//! `value_reason` never panic, their messages hold no raw control bytes,
//! and every value parses or fails cleanly under the layout chosen. Input:
//! a byte for the `--size`/`--box` flags (see `common::forced`), then the
//! values, separated by 0x1E (ASCII record separator).

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::text::detect::{detect_values, value_reason};

fuzz_target!(|input: &[u8]| {
    let [f, data @ ..] = input else {
        return;
    };
    let forced = common::forced(*f);
    let values: Vec<&[u8]> = data.split(|&b| b == 0x1e).collect();
    let clean = |msg: &str| !msg.chars().any(char::is_control);
    match detect_values(values.iter().copied(), &forced) {
        // At least one value (split gives one even of no bytes): a layout
        // or a reason, never none.
        Ok(None) => panic!("no layout and no reason for {} values", values.len()),
        Ok(Some(layout)) => {
            if let Some(side) = forced.side() {
                assert_eq!(layout.boxes.side(), side);
            }
            let mut cells = vec![0u8; layout.cells()];
            for v in &values {
                if let Err(e) = layout.parse_value(v, &mut cells) {
                    let msg = e.to_string();
                    assert!(clean(&msg), "{msg:?}");
                } else {
                    let side = layout.boxes.side() as u8;
                    assert!(cells.iter().all(|&c| c <= side));
                }
            }
        }
        Err(why) => assert!(clean(&why) && !why.is_empty(), "{why:?}"),
    }
    for v in values.iter().take(4) {
        let why = value_reason(v, &forced);
        assert!(clean(&why) && !why.is_empty(), "{why:?}");
    }
});
