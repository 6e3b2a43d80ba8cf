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
//! The parquet crate reads each field it knows as the type the format gives
//! it, whatever type the field's header names, and skips the others by the
//! named type. A walk by the named types alone parted from it on damaged
//! footers (fuzz/tables found two that hid a huge list that way), so this
//! walk knows the metadata structs (`FILE_META` and below, format 2.12):
//! a known field named as another type is refused, and the rest is
//! skipped as the crate skips it, so both read the same bytes the same way.
//! A field the crate knows and this table does not (a newer format) is the
//! one place they could still part; such a run would abort as before (exit
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
    walk.fields(FILE_META, 0)
        .map_err(|why| format!("its footer {why} (at byte {} of {len})", walk.at))?;
    // Bytes after the struct: no writer leaves them; a footer that has
    // them was cut or patched.
    if walk.at != len {
        return Err(format!(
            "its footer ends after {} of its {len} bytes",
            walk.at
        ));
    }
    Ok(())
}

/// What the parquet crate expects of a field: it reads a field it knows
/// as this, whatever type its header names.
#[derive(Clone, Copy)]
pub(super) enum Ty {
    Bool,
    Byte,
    /// i16, i32 or i64: a zigzag varint each, read alike.
    Int,
    Double,
    Binary,
    List(&'static Ty),
    Struct(&'static [(i16, Ty)]),
}

use Ty::{Binary, Bool, Byte, Double, Int, List, Struct};

/// The metadata structs of `parquet.thrift` (format 2.12) that the
/// footer's decoder reads: field id and type. Unions are structs with one
/// field set; an empty struct is `&[]`.
const KEY_VALUE: &[(i16, Ty)] = &[(1, Binary), (2, Binary)];
const TIME_UNIT: &[(i16, Ty)] = &[(1, Struct(&[])), (2, Struct(&[])), (3, Struct(&[]))];
const TIME: &[(i16, Ty)] = &[(1, Bool), (2, Struct(TIME_UNIT))];
const LOGICAL_TYPE: &[(i16, Ty)] = &[
    (1, Struct(&[])),
    (2, Struct(&[])),
    (3, Struct(&[])),
    (4, Struct(&[])),
    (5, Struct(&[(1, Int), (2, Int)])),
    (6, Struct(&[])),
    (7, Struct(TIME)),
    (8, Struct(TIME)),
    (10, Struct(&[(1, Byte), (2, Bool)])),
    (11, Struct(&[])),
    (12, Struct(&[])),
    (13, Struct(&[])),
    (14, Struct(&[])),
    (15, Struct(&[])),
    (16, Struct(&[(1, Byte)])),
    (17, Struct(&[(1, Binary)])),
    (18, Struct(&[(1, Binary), (2, Int)])),
];
const SCHEMA_ELEMENT: &[(i16, Ty)] = &[
    (1, Int),
    (2, Int),
    (3, Int),
    (4, Binary),
    (5, Int),
    (6, Int),
    (7, Int),
    (8, Int),
    (9, Int),
    (10, Struct(LOGICAL_TYPE)),
];
pub(super) const STATISTICS: &[(i16, Ty)] = &[
    (1, Binary),
    (2, Binary),
    (3, Int),
    (4, Int),
    (5, Binary),
    (6, Binary),
    (7, Bool),
    (8, Bool),
];
const BOUNDING_BOX: &[(i16, Ty)] = &[
    (1, Double),
    (2, Double),
    (3, Double),
    (4, Double),
    (5, Double),
    (6, Double),
    (7, Double),
    (8, Double),
];
const COLUMN_META: &[(i16, Ty)] = &[
    (1, Int),
    (2, List(&Int)),
    (3, List(&Binary)),
    (4, Int),
    (5, Int),
    (6, Int),
    (7, Int),
    (8, List(&Struct(KEY_VALUE))),
    (9, Int),
    (10, Int),
    (11, Int),
    (12, Struct(STATISTICS)),
    (13, List(&Struct(&[(1, Int), (2, Int), (3, Int)]))),
    (14, Int),
    (15, Int),
    (16, Struct(&[(1, Int), (2, List(&Int)), (3, List(&Int))])),
    (17, Struct(&[(1, Struct(BOUNDING_BOX)), (2, List(&Int))])),
];
const COLUMN_CRYPTO: &[(i16, Ty)] = &[
    (1, Struct(&[])),
    (2, Struct(&[(1, List(&Binary)), (2, Binary)])),
];
const COLUMN_CHUNK: &[(i16, Ty)] = &[
    (1, Binary),
    (2, Int),
    (3, Struct(COLUMN_META)),
    (4, Int),
    (5, Int),
    (6, Int),
    (7, Int),
    (8, Struct(COLUMN_CRYPTO)),
    (9, Binary),
];
const ROW_GROUP: &[(i16, Ty)] = &[
    (1, List(&Struct(COLUMN_CHUNK))),
    (2, Int),
    (3, Int),
    (4, List(&Struct(&[(1, Int), (2, Bool), (3, Bool)]))),
    (5, Int),
    (6, Int),
    (7, Int),
];
const AES: &[(i16, Ty)] = &[(1, Binary), (2, Binary), (3, Bool)];
const FILE_META: &[(i16, Ty)] = &[
    (1, Int),
    (2, List(&Struct(SCHEMA_ELEMENT))),
    (3, Int),
    (4, List(&Struct(ROW_GROUP))),
    (5, List(&Struct(KEY_VALUE))),
    (6, Binary),
    (7, List(&Struct(&[(1, Struct(&[]))]))),
    (8, Struct(&[(1, Struct(AES)), (2, Struct(AES))])),
    (9, Binary),
];

impl Ty {
    /// Whether a header naming Thrift type `t` holds this, byte for byte.
    pub(super) fn named_by(self, t: u8) -> bool {
        matches!(
            (self, t),
            (Bool, 1 | 2)
                | (Byte, 3)
                | (Int, 4..=6)
                | (Double, 7)
                | (Binary, 8)
                | (List(_), 9 | 10)
                | (Struct(_), 12)
        )
    }
}

/// A walk over Thrift compact-protocol bytes (the footer here, page
/// headers in the `pages` module).
pub(super) struct Walk<'a> {
    bytes: &'a [u8],
    /// Bytes walked so far.
    pub(super) at: usize,
}

impl<'a> Walk<'a> {
    /// A walk from the start of `bytes`.
    pub(super) fn new(bytes: &'a [u8]) -> Walk<'a> {
        Walk { bytes, at: 0 }
    }

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

    /// An i32 field's value as the parquet crate reads it: a zigzag
    /// varint, cut to its low 32 bits.
    pub(super) fn int(&mut self) -> Result<i32, String> {
        let z = self.varint()?;
        Ok(((z >> 1) as i64 ^ -((z & 1) as i64)) as i32)
    }

    fn skip(&mut self, k: u64) -> Result<(), String> {
        if k > self.left() as u64 {
            return Err(format!("claims {k} bytes where {} are left", self.left()));
        }
        self.at += k as usize;
        Ok(())
    }

    /// A list header: its element type and count, refused when the count
    /// cannot fit in what is left (every entry takes a byte at least).
    fn list_header(&mut self) -> Result<(u8, u64), String> {
        let h = self.byte()?;
        let mut k = u64::from(h >> 4);
        if k == 15 {
            k = self.varint()?;
        }
        if k > self.left() as u64 {
            return Err(format!(
                "claims {k} entries where {} bytes are left",
                self.left()
            ));
        }
        Ok((h & 15, k))
    }

    /// The fields of a struct of the known `shape`, up to and with its end
    /// byte: a known field must be of the type the decoder reads it as;
    /// others are skipped as the decoder skips them.
    fn fields(&mut self, shape: &[(i16, Ty)], depth: u32) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("nests deeper than {MAX_DEPTH} levels"));
        }
        let mut id = 0i16;
        while let Some((next, t)) = self.field_header(id)? {
            id = next;
            self.field(shape, id, t, depth)?;
        }
        Ok(())
    }

    /// A field header after field `last`: the field's id and Thrift type,
    /// or `None` at the end of the struct.
    pub(super) fn field_header(&mut self, last: i16) -> Result<Option<(i16, u8)>, String> {
        let h = self.byte()?;
        if h == 0 {
            return Ok(None);
        }
        let id = if h >> 4 == 0 {
            let z = self.varint()?;
            ((z >> 1) as i64 ^ -((z & 1) as i64)) as i16
        } else {
            last.wrapping_add(i16::from(h >> 4))
        };
        Ok(Some((id, h & 15)))
    }

    /// The value of field `id`, named Thrift type `t`, of a struct of the
    /// known `shape`: a known field must be of the type the decoder reads
    /// it as; others are skipped as the decoder skips them.
    pub(super) fn field(
        &mut self,
        shape: &[(i16, Ty)],
        id: i16,
        t: u8,
        depth: u32,
    ) -> Result<(), String> {
        match shape.iter().find(|f| f.0 == id) {
            Some(&(_, Bool)) if Bool.named_by(t) => Ok(()), // the value is the type
            Some(&(_, ty)) if ty.named_by(t) => self.value(ty, depth),
            Some(_) => Err(format!(
                "names Thrift type {t} for field {id}, which is read as another"
            )),
            None => self.skipped(t, depth),
        }
    }

    /// A value the decoder reads as `ty`.
    fn value(&mut self, ty: Ty, depth: u32) -> Result<(), String> {
        match ty {
            Bool | Byte => self.skip(1),
            Int => self.varint().map(drop),
            Double => self.skip(8),
            Binary => {
                let k = self.varint()?;
                self.skip(k)
            }
            List(&elem) => {
                let (t, k) = self.list_header()?;
                if k > 0 && !elem.named_by(t) {
                    return Err(format!(
                        "names Thrift type {t} for a list's entries, which are read as another"
                    ));
                }
                (0..k).try_for_each(|_| self.value(elem, depth + 1))
            }
            Struct(shape) => self.fields(shape, depth + 1),
        }
    }

    /// A value of Thrift type `t` the decoder skips: as its skip does, a
    /// bool in a list takes no byte; maps and unknown types are errors.
    fn skipped(&mut self, t: u8, depth: u32) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(format!("nests deeper than {MAX_DEPTH} levels"));
        }
        match t {
            1 | 2 => Ok(()),
            3 => self.skip(1),
            4..=6 => self.varint().map(drop),
            7 => self.skip(8),
            8 => {
                let k = self.varint()?;
                self.skip(k)
            }
            9 => {
                let (elem, k) = self.list_header()?;
                (0..k).try_for_each(|_| self.skipped(elem, depth + 1))
            }
            12 => self.fields(&[], depth + 1),
            _ => Err(format!(
                "holds a value of Thrift type {t}, which is not skipped"
            )),
        }
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
    fn known_fields_of_their_type_and_skipped_ones_pass() {
        let meta = [
            0x15, 0x0e, // 1 version: i32 7
            0x19, 0x2c, // 2 schema: list of 2 SchemaElement
            0x15, 0x02, 0x38, 0x02, b'a', b'b', 0x00, // {1 type i32, 4 name "ab"}
            0x48, 0x02, b'c', b'd', 0x00, // {4 name "cd"}
            0x16, 0x0c, // 3 num_rows: i64 6
            0x29, 0x1c, 0x18, 0x01, b'k', 0x00, // 5 key_value_metadata: [{1 key "k"}]
            // unknown field 100, a list of 3 bools (no byte each when
            // skipped), then unknown 101 a struct {1 double, 2 byte}.
            0x09, 0xc8, 0x01, 0x31, //
            0x1c, 0x17, 1, 2, 3, 4, 5, 6, 7, 8, 0x13, 0x7f, 0x00, //
            0x00,
        ];
        assert_eq!(check(&file(&meta)), Ok(()));
    }

    #[test]
    fn a_known_field_of_another_type_is_refused() {
        // num_rows (field 3, read as an integer) named a binary: the
        // decoder would read its length as the value and go on from there.
        let e = check(&file(&[0x38, 0x02, b'a', b'b', 0x00])).unwrap_err();
        assert!(e.contains("Thrift type 8 for field 3"), "{e}");
        // A schema list whose entries are named integers.
        let e = check(&file(&[0x29, 0x15, 0x02, 0x00])).unwrap_err();
        assert!(e.contains("list's entries"), "{e}");
    }

    #[test]
    fn counts_and_lengths_past_the_footer_are_refused() {
        // A list claiming 2^31 - 1 structs in a few bytes.
        let huge = [0x29, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00, 0x00];
        let e = check(&file(&huge)).unwrap_err();
        assert!(e.contains("claims 2147483647 entries"), "{e}");
        // A binary (created_by) claiming more bytes than are left.
        let e = check(&file(&[0x68, 0x64, b'a', 0x00])).unwrap_err();
        assert!(e.contains("claims 100 bytes where 2 are left"), "{e}");
        // A skipped list whose entries cannot fit.
        let e = check(&file(&[0x09, 0xc8, 0x01, 0x35, 1, 0x00])).unwrap_err();
        assert!(e.contains("claims 3 entries where 2 bytes"), "{e}");
        // A footer length past the file.
        let mut f = file(&[0x00]);
        let n = f.len();
        f[n - 8..n - 4].copy_from_slice(&1000u32.to_le_bytes());
        assert!(check(&f).unwrap_err().contains("claims 1000 bytes"));
    }

    #[test]
    fn truncated_deep_and_unknown_values_are_refused() {
        assert!(check(&file(&[0x15])).unwrap_err().contains("ends inside"));
        assert!(check(&file(&[0x0e, 0xc8, 0x01, 0x00]))
            .unwrap_err()
            .contains("type 14"));
        // A map is no type the decoder skips.
        assert!(check(&file(&[0x0b, 0xc8, 0x01, 0x00]))
            .unwrap_err()
            .contains("type 11"));
        // Structs in unknown fields (id 100), one in the other.
        let deep: Vec<u8> = std::iter::repeat_n([0x0c, 0xc8, 0x01], 100)
            .flatten()
            .chain([0x00; 101])
            .collect();
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
