//! Parquet input, before the parquet crate decodes it: one walk over the
//! footer's Thrift bytes that refuses any length those bytes cannot hold.
//!
//! The parquet crate sizes a list's buffer from the count the file claims
//! (`Vec::with_capacity`), so a damaged or hostile footer claiming billions
//! of entries made it ask for tens of GB, and an allocation failure aborts
//! the process instead of returning an error. Every entry of a Thrift
//! compact-protocol list takes at least one byte, every map entry two, so a
//! count above the bytes left is a lie and the file is refused here, named,
//! before anything is allocated from it.
//!
//! The walk follows the types the bytes name; the parquet crate reads each
//! field it knows as the type the format gives it. In a well-formed footer
//! they agree. A damaged one where they do not mostly fails here too (a
//! value of no known type, a length past the end, or a struct that does not
//! end where the footer does; fuzz/tables found such a file), but a footer
//! made to pass both readings differently could still hide a claim from
//! this walk: the residual risk is that process aborting as before (exit
//! 134, the temporary output removed by the SIGABRT handler).
//!
//! ```text
//!   file  = "PAR1" .. column chunks .. footer | footer length (u32 LE) | "PAR1"
//!   footer = FileMetaData, a Thrift struct in the compact protocol:
//!     field header  byte: id delta (high nibble; 0 = an i16 varint follows)
//!                         | type (low nibble; 0 = end of struct)
//!     1, 2 bool (the value is the type)   3 byte   4, 5, 6 varint
//!     7 double (8 bytes)   8 binary (varint length, bytes)   13 uuid (16)
//!     9, 10 list, set: byte size << 4 | element type (size 15: varint)
//!     11 map: varint size, then (if any) byte key type << 4 | value type
//!     12 struct
//! ```

/// Deepest nesting of structs, lists and maps accepted; Parquet's metadata
/// nests a handful of levels (FileMetaData > RowGroup > ColumnChunk >
/// ColumnMetaData > Statistics ..).
const MAX_DEPTH: u32 = 64;

/// Checks the footer of the Parquet file `file`. Files that do not end in
/// `PAR1` (too short, encrypted footers) are left to the parquet crate,
/// which refuses them without sizing anything from their content.
pub fn check(file: &[u8]) -> Result<(), String> {
    let n = file.len();
    if n < 12 || !file.ends_with(b"PAR1") {
        return Ok(());
    }
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().expect("4 bytes")) as usize;
    if len > n - 12 {
        return Err(format!(
            "its footer claims {len} bytes, the file holds {} before it",
            n - 12
        ));
    }
    let mut walk = Walk {
        bytes: &file[n - 8 - len..n - 8],
        at: 0,
    };
    walk.fields(0)
        .map_err(|why| format!("its footer {why} (at byte {} of {len})", walk.at))?;
    // The parquet crate reads a known field by the type it expects, not by
    // the type the byte before it names; where the two differ the walks
    // part, and a list the decoder meets after that is one this walk never
    // saw. Such a footer mostly ends where this walk does not expect it.
    if walk.at != len {
        return Err(format!(
            "its footer ends after {} of its {len} bytes",
            walk.at
        ));
    }
    Ok(())
}

struct Walk<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Walk<'_> {
    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("ends inside a value")?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("holds a varint longer than 10 bytes".into())
    }

    fn skip(&mut self, k: u64) -> Result<(), String> {
        if k > self.left() as u64 {
            return Err(format!("claims {k} bytes where {} are left", self.left()));
        }
        self.at += k as usize;
        Ok(())
    }

    /// The fields of a struct, up to and with its end byte.
    fn fields(&mut self, depth: u32) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("nests deeper than {MAX_DEPTH} levels"));
        }
        loop {
            let h = self.byte()?;
            if h == 0 {
                return Ok(());
            }
            if h >> 4 == 0 {
                self.varint()?; // the field id, not a delta
            }
            match h & 15 {
                1 | 2 => {} // a bool field's value is its type
                t => self.value(t, depth)?,
            }
        }
    }

    /// One value of type `t` (as a list element or after a field header).
    fn value(&mut self, t: u8, depth: u32) -> Result<(), String> {
        match t {
            1..=3 => self.skip(1),
            4..=6 => self.varint().map(drop),
            7 => self.skip(8),
            8 => {
                let k = self.varint()?;
                self.skip(k)
            }
            9 | 10 => {
                let h = self.byte()?;
                let mut k = u64::from(h >> 4);
                if k == 15 {
                    k = self.varint()?;
                }
                self.entries(k, 1)?;
                (0..k).try_for_each(|_| self.value(h & 15, depth + 1))
            }
            11 => {
                let k = self.varint()?;
                if k == 0 {
                    return Ok(());
                }
                let kv = self.byte()?;
                self.entries(k, 2)?;
                (0..k).try_for_each(|_| {
                    self.value(kv >> 4, depth + 1)?;
                    self.value(kv & 15, depth + 1)
                })
            }
            12 => self.fields(depth + 1),
            13 => self.skip(16),
            _ => Err(format!("holds a value of unknown Thrift type {t}")),
        }
    }

    /// Refuses `k` entries of at least `each` bytes that cannot fit.
    fn entries(&self, k: u64, each: u64) -> Result<(), String> {
        if k.saturating_mul(each) > self.left() as u64 {
            return Err(format!(
                "claims {k} entries where {} bytes are left",
                self.left()
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A footer `meta` framed as a Parquet file.
    fn file(meta: &[u8]) -> Vec<u8> {
        let mut f = b"PAR1".to_vec();
        f.extend_from_slice(meta);
        f.extend_from_slice(&(meta.len() as u32).to_le_bytes());
        f.extend_from_slice(b"PAR1");
        f
    }

    #[test]
    fn well_formed_values_of_every_type_pass() {
        // i32 7; list of 2 structs each {binary "ab"}; bool true; double;
        // map {i32 -> binary} of one entry; set of 3 bools; field id by
        // varint (i16 100) of type i64; uuid; end.
        let meta = [
            0x15, 0x0e, // field 1 i32 7
            0x19, 0x2c, // field 2 list of 2 structs
            0x18, 0x02, b'a', b'b', 0x00, // {field 1 binary "ab"}
            0x00, // {}
            0x11, // field 3 bool true
            0x17, 1, 2, 3, 4, 5, 6, 7, 8, // field 4 double
            0x1b, 0x01, 0x58, 0x02, 0x01, b'x', // field 5 map i32 -> binary, 1 entry
            0x1a, 0x31, 1, 2, 1, // field 6 set of 3 bools
            0x06, 0xc8, 0x01, 0x80, 0x01, // field id 100 (zigzag), i64 64
            0x1d, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, // uuid
            0x00,
        ];
        assert_eq!(check(&file(&meta)), Ok(()));
    }

    #[test]
    fn counts_and_lengths_past_the_footer_are_refused() {
        // A list claiming 2^31 - 1 structs in a few bytes.
        let huge = [0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x00];
        let e = check(&file(&huge)).unwrap_err();
        assert!(e.contains("claims 2147483647 entries"), "{e}");
        // A binary claiming more bytes than are left.
        let e = check(&file(&[0x18, 0x64, b'a', 0x00])).unwrap_err();
        assert!(e.contains("claims 100 bytes where 2 are left"), "{e}");
        // A map whose entries cannot fit (two bytes each at least).
        let e = check(&file(&[0x1b, 0x03, 0x55, 1, 2, 0x00])).unwrap_err();
        assert!(e.contains("claims 3 entries where 3 bytes"), "{e}");
        // A footer length past the file.
        let mut f = file(&[0x00]);
        let n = f.len();
        f[n - 8..n - 4].copy_from_slice(&1000u32.to_le_bytes());
        assert!(check(&f).unwrap_err().contains("claims 1000 bytes"));
    }

    #[test]
    fn truncated_deep_and_unknown_values_are_refused() {
        assert!(check(&file(&[0x15])).unwrap_err().contains("ends inside"));
        assert!(check(&file(&[0x1e, 0x00])).unwrap_err().contains("type 14"));
        let deep: Vec<u8> = std::iter::repeat_n(0x1c, 100).chain([0x00; 101]).collect();
        assert!(check(&file(&deep)).unwrap_err().contains("deeper than 64"));
        let long = [
            0x15, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00,
        ];
        assert!(check(&file(&long)).unwrap_err().contains("longer than 10"));
    }

    #[test]
    fn a_footer_that_ends_early_is_refused() {
        let e = check(&file(&[0x15, 0x02, 0x00, 0x00])).unwrap_err();
        assert!(e.contains("ends after 3 of its 4 bytes"), "{e}");
    }

    #[test]
    fn files_without_the_end_magic_are_left_to_the_reader() {
        assert_eq!(check(b"PAR1"), Ok(()));
        assert_eq!(check(b"PAR1 some bytes PARE"), Ok(()));
    }
}
