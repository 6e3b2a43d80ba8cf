//! Fuzz target for the `.npy` reader: whatever the bytes, opening the array
//! and decoding its rows never panics, every decoded cell is in range, and a
//! header the writer makes for the parsed dtype and shape parses back to the
//! same header.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::columnar::npy::{parse_header, write_header, Array};

fuzz_target!(|data: &[u8]| {
    if let Ok(h) = parse_header(data) {
        let again = write_header(h.dtype, &h.shape);
        let back = parse_header(&again).expect("our own header parses");
        assert_eq!((back.dtype, &back.shape), (h.dtype, &h.shape));
        assert_eq!(back.data_offset % 64, 0);
    }
    let Ok(array) = Array::open(data, None) else {
        return;
    };
    let side = array.boxes.side();
    let mut cells = vec![0u8; array.cells];
    for row in 0..array.rows.min(64) {
        if array.row(row, &mut cells).is_ok() {
            assert!(cells.iter().all(|&c| usize::from(c) <= side));
        }
    }
});
