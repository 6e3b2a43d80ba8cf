//! Parquet pages, before the parquet crate decodes them: one walk over the
//! page headers of a row group's column chunks that refuses the counts and
//! sizes those pages cannot hold.
//!
//! The crate sizes buffers from two page-header claims before it looks at
//! what the page holds, and fills them, so the memory is really taken:
//!
//! - a dictionary page's `num_values`: the dictionary of a fixed-width
//!   column is a vector of that many values, made at once (`resize`), then
//!   filled from the page. fuzz/tables found a 614-byte file whose
//!   dictionary page claimed 541,098,246 INT32 values in a page of 0 bytes:
//!   2.1 GB, zeroed, for a read that then fails (`Not enough bytes`).
//! - a page's `uncompressed_page_size` for SNAPPY, LZ4 and LZ4_RAW: the
//!   crate makes the output that long (zeroed) before decompressing (and
//!   for SNAPPY keeps it so whatever comes out: a page claiming 1 MiB
//!   whose data gives 42 KB was read, the rest zeros).
//!
//! Neither can be more than the page's bytes allow. A dictionary page is
//! PLAIN-encoded: each value takes its physical type's width (a bit for a
//! BOOLEAN, 4 bytes at least for a BYTE_ARRAY, its length prefix), so
//! `num_values` values need that many bytes of page, and the page holds
//! its uncompressed size (its compressed size when the column is not
//! compressed; a page that decompresses to another size is an error
//! before the dictionary is made, but for SNAPPY, above). And a
//! decompressed page is large, but not without bound: a snappy element
//! gives at most 64 bytes for 3 (a 2-byte-offset copy), an LZ4 sequence
//! less than 255 bytes a byte (each extra length byte adds 255), whatever
//! is compressed (pyarrow's snappy and LZ4 of zeros: 21.3 and 254.9).
//! Claims above those are lies; they are refused here, before the row
//! group is read. (GZIP, ZSTD and BROTLI pages are decompressed by
//! streaming, so their memory follows what really comes out, not the
//! claim; the claim only reserves address space.)
//!
//! The headers are read as the crate reads them: [`super::footer`]'s walk,
//! which refuses a known field whose header names another type and a
//! varint the crate would read differently, so both see the same values.
//! Malformed headers the crate itself refuses (cut short, running past
//! their column chunk, negative sizes) are refused here too, with the byte
//! they are at.
//!
//! ```text
//!   column chunk = [dictionary page] data page ... (from the dictionary
//!                  page offset, else the data page offset; its compressed
//!                  size long)
//!   page = PageHeader (Thrift compact) | compressed_page_size bytes
//!   PageHeader: 1 type (0 data, 1 index, 2 dictionary, 3 data v2)
//!               2 uncompressed_page_size  3 compressed_page_size  4 crc
//!               5 data, 6 index, 7 dictionary {1 num_values ..}, 8 data v2
//! ```

use parquet::basic::{Compression, Type};
use parquet::file::metadata::{ColumnChunkMetaData, RowGroupMetaData};

use super::footer::{Ty, Walk, STATISTICS};
use Ty::{Bool, Int, Struct};

/// The page header structs (`parquet.thrift`, format 2.12), as the
/// crate reads them (page statistics: skipped, unless named another type).
const DATA_PAGE: &[(i16, Ty)] = &[
    (1, Int),
    (2, Int),
    (3, Int),
    (4, Int),
    (5, Struct(STATISTICS)),
];
const DICTIONARY_PAGE: &[(i16, Ty)] = &[(1, Int), (2, Int), (3, Bool)];
const DATA_PAGE_V2: &[(i16, Ty)] = &[
    (1, Int),
    (2, Int),
    (3, Int),
    (4, Int),
    (5, Int),
    (6, Int),
    (7, Bool),
    (8, Struct(STATISTICS)),
];
const PAGE_HEADER: &[(i16, Ty)] = &[
    (1, Int),
    (2, Int),
    (3, Int),
    (4, Int),
    (5, Struct(DATA_PAGE)),
    (6, Struct(&[])),
    (7, Struct(DICTIONARY_PAGE)),
    (8, Struct(DATA_PAGE_V2)),
];

/// `PageType::DICTIONARY_PAGE`.
const DICTIONARY: i32 = 2;

/// What a page header claims, as far as checked here.
#[derive(Debug, Default, PartialEq)]
struct Header {
    kind: Option<i32>,
    uncompressed: Option<i32>,
    compressed: Option<i32>,
    /// A dictionary page header's `num_values`.
    dictionary_values: Option<i32>,
}

/// Checks the page headers of every column chunk of row group `rg` of the
/// Parquet file `file` (its whole bytes): the reason for the first chunk
/// whose pages claim more than they hold.
pub fn check(file: &[u8], rg: &RowGroupMetaData) -> Result<(), String> {
    for chunk in rg.columns() {
        check_chunk(file, chunk).map_err(|why| format!("column {}: {why}", chunk.column_path()))?;
    }
    Ok(())
}

/// Checks the page headers of the column chunk `chunk`, walked as the
/// crate walks them (from the dictionary page, if any, for the chunk's
/// compressed size).
fn check_chunk(file: &[u8], chunk: &ColumnChunkMetaData) -> Result<(), String> {
    let start = chunk
        .dictionary_page_offset()
        .unwrap_or(chunk.data_page_offset());
    // A negative place or size is the crate's to refuse.
    let (Ok(mut at), Ok(mut left)) = (u64::try_from(start), u64::try_from(chunk.compressed_size()))
    else {
        return Ok(());
    };
    let descr = chunk.column_descr();
    let width = value_bits(descr.physical_type(), descr.type_length());
    while left > 0 {
        let bytes = usize::try_from(at)
            .ok()
            .and_then(|at| file.get(at..))
            .ok_or_else(|| format!("the page at byte {at} is past the end of the file"))?;
        let mut walk = Walk::new(bytes);
        let h = header(&mut walk).map_err(|why| {
            format!(
                "the page header at byte {at} {why} (at byte {} of it)",
                walk.at
            )
        })?;
        let (Some(kind), Some(uncompressed), Some(compressed)) =
            (h.kind, h.uncompressed, h.compressed)
        else {
            return Err(format!(
                "the page header at byte {at} lacks its type or sizes"
            ));
        };
        let len = walk.at as u64;
        if len > left || compressed < 0 || compressed as u64 > left - len || uncompressed < 0 {
            return Err(format!(
                "the page at byte {at} ({len} bytes of header, {compressed} of data) does not fit \
                 in the {left} bytes left of its column chunk"
            ));
        }
        let (compressed, uncompressed) = (compressed as u64, uncompressed as u64);
        if let Some(most) = most_decompressed(chunk.compression(), compressed) {
            if uncompressed > most {
                return Err(format!(
                    "the page at byte {at} claims {uncompressed} bytes once decompressed, more \
                     than {compressed} bytes of {} can give ({most})",
                    chunk.compression()
                ));
            }
        }
        if let (DICTIONARY, Some(values), Some(bits)) = (kind, h.dictionary_values, width) {
            // What the decoder gets: the decompressed page, or the page
            // itself when the column is not compressed.
            let held = match chunk.compression() {
                Compression::UNCOMPRESSED => compressed,
                _ => uncompressed,
            };
            let values = u64::try_from(values).unwrap_or(0);
            if values.saturating_mul(bits) > held * 8 {
                return Err(format!(
                    "the dictionary page at byte {at} claims {values} {} values in {held} bytes \
                     (they take {} bytes at least)",
                    descr.physical_type(),
                    values.saturating_mul(bits).div_ceil(8)
                ));
            }
        }
        at += len + compressed;
        left -= len + compressed;
    }
    Ok(())
}

/// The fewest bits a PLAIN-encoded value of a column takes; `None` when
/// it can take none (a zero-length FIXED_LEN_BYTE_ARRAY).
fn value_bits(physical: Type, type_length: i32) -> Option<u64> {
    let bits = match physical {
        Type::BOOLEAN => 1,
        Type::INT32 | Type::FLOAT => 32,
        Type::INT64 | Type::DOUBLE => 64,
        Type::INT96 => 96,
        // The 4-byte length in front of each value.
        Type::BYTE_ARRAY => 32,
        Type::FIXED_LEN_BYTE_ARRAY => 8 * u64::try_from(type_length).unwrap_or(0),
    };
    (bits > 0).then_some(bits)
}

/// The most bytes `compressed` bytes of `codec` can decompress to, for the
/// codecs whose output the crate makes as long as the header claims before
/// decompressing; `None` for the others.
fn most_decompressed(codec: Compression, compressed: u64) -> Option<u64> {
    match codec {
        // A 3-byte copy element gives 64 bytes, no element more per byte.
        Compression::SNAPPY => Some(compressed * 64 / 3),
        // A sequence of k match-length bytes (and 3 more) gives less
        // than 255 * (k + 3); the Hadoop framing adds only headers.
        Compression::LZ4 | Compression::LZ4_RAW => Some(compressed * 255),
        _ => None,
    }
}

/// A page header, read as the crate reads it.
fn header(walk: &mut Walk<'_>) -> Result<Header, String> {
    let mut h = Header::default();
    let mut id = 0;
    while let Some((next, t)) = walk.field_header(id)? {
        id = next;
        match id {
            1..=3 if Int.named_by(t) => {
                let v = Some(walk.int()?);
                match id {
                    1 => h.kind = v,
                    2 => h.uncompressed = v,
                    _ => h.compressed = v,
                }
            }
            7 if Struct(DICTIONARY_PAGE).named_by(t) => {
                // A second one replaces the first, as in the crate.
                h.dictionary_values = None;
                let mut id = 0;
                while let Some((next, t)) = walk.field_header(id)? {
                    id = next;
                    match id {
                        1 if Int.named_by(t) => h.dictionary_values = Some(walk.int()?),
                        _ => walk.field(DICTIONARY_PAGE, id, t, 1)?,
                    }
                }
            }
            _ => walk.field(PAGE_HEADER, id, t, 0)?,
        }
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_as_the_crate_reads_them() {
        // A dictionary page: type 2, 32 bytes, 20 compressed, crc, then
        // {1 num_values 8, 2 encoding PLAIN, 3 is_sorted true}; an unknown
        // field 9 (a binary) is skipped.
        let bytes = [
            0x15, 0x04, 0x15, 0x40, 0x15, 0x28, 0x15, 0x07, 0x3c, 0x15, 0x10, 0x15, 0x00, 0x11,
            0x00, 0x28, 0x01, b'x', 0x00,
        ];
        let mut walk = Walk::new(&bytes);
        let h = header(&mut walk).unwrap();
        assert_eq!(
            h,
            Header {
                kind: Some(2),
                uncompressed: Some(32),
                compressed: Some(20),
                dictionary_values: Some(8),
            }
        );
        assert_eq!(walk.at, bytes.len());
        // A data page with statistics {1 max "z"} in its header.
        let bytes = [
            0x15, 0x00, 0x15, 0x08, 0x15, 0x08, 0x2c, 0x15, 0x02, 0x15, 0x00, 0x15, 0x06, 0x15,
            0x06, 0x1c, 0x18, 0x01, b'z', 0x00, 0x00, 0x00,
        ];
        let h = header(&mut Walk::new(&bytes)).unwrap();
        assert_eq!((h.kind, h.dictionary_values), (Some(0), None));
    }

    #[test]
    fn a_header_the_crate_would_read_otherwise_is_refused() {
        // The fuzz finding's header: uncompressed_page_size named a map (the
        // crate reads its varint 0 as the size).
        let e = header(&mut Walk::new(&[0x15, 0x04, 0x1b, 0x00, 0x00])).unwrap_err();
        assert!(e.contains("Thrift type 11 for field 2"), "{e}");
        // A dictionary page's num_values as a varint of 35 bytes (the crate
        // wraps its shifts around).
        let mut bytes = vec![0x7c, 0x15];
        bytes.extend([0xc3; 34]);
        bytes.extend([0x14, 0x00, 0x00]);
        let e = header(&mut Walk::new(&bytes)).unwrap_err();
        assert!(e.contains("longer than 10"), "{e}");
        // is_sorted named an i32.
        let e = header(&mut Walk::new(&[0x7c, 0x15, 0x02, 0x25, 0x00, 0x00, 0x00])).unwrap_err();
        assert!(e.contains("Thrift type 5 for field 3"), "{e}");
    }

    /// [`check`] on every row group of the seed file `name`.
    fn check_seed(name: &str) -> Result<(), String> {
        let path = format!("{}/fuzz/seeds/tables/{name}", env!("CARGO_MANIFEST_DIR"));
        let file = bytes::Bytes::from(std::fs::read(path).unwrap());
        let meta = parquet::file::metadata::ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap();
        meta.row_groups().iter().try_for_each(|rg| check(&file, rg))
    }

    #[test]
    fn claims_a_page_cannot_hold_are_refused_from_its_header() {
        // The fuzz finding as found: its dictionary page claims 541098246
        // INT32 values, and its size field, named a map, reads as 0. The
        // crate made the 2.1 GB dictionary before it failed.
        let e = check_seed("regress-parquet-huge-dictionary.parquet").unwrap_err();
        assert!(e.contains("byte 4 names Thrift type 11 for field 2"), "{e}");
        // The same claim in a well-formed header.
        let e = check_seed("regress-parquet-huge-dictionary-clean.parquet").unwrap_err();
        assert!(
            e.contains("dictionary page at byte 4 claims 541098246 INT32 values in 0 bytes"),
            "{e}"
        );
        // A pyarrow file whose snappy page claims 1 MiB from 2057 bytes (the
        // crate made the output 1 MiB before decompressing).
        let e = check_seed("regress-parquet-snappy-size.parquet").unwrap_err();
        assert!(
            e.contains("claims 1048575 bytes once decompressed, more than 2057 bytes"),
            "{e}"
        );
        // Files written by pyarrow (dictionary pages, zstd and snappy) pass.
        assert_eq!(check_seed("lists.parquet"), Ok(()));
        assert_eq!(check_seed("strings.parquet"), Ok(()));
    }

    #[test]
    fn what_arrow_rs_writes_passes() {
        use arrow_array::{ArrayRef, BooleanArray, Int32Array, RecordBatch, StringArray};
        use parquet::file::properties::{WriterProperties, WriterVersion};
        use std::sync::Arc;
        let n = 5000;
        let batch = RecordBatch::try_from_iter([
            (
                "i",
                Arc::new(Int32Array::from_iter_values((0..n).map(|i| i % 7))) as ArrayRef,
            ),
            (
                "s",
                Arc::new(StringArray::from_iter_values(
                    (0..n).map(|i| format!("{}", i % 100).repeat(40)),
                )),
            ),
            (
                "b",
                Arc::new(BooleanArray::from_iter((0..n).map(|i| Some(i % 3 == 0)))),
            ),
        ])
        .unwrap();
        for codec in [
            Compression::UNCOMPRESSED,
            Compression::SNAPPY,
            Compression::LZ4,
            Compression::LZ4_RAW,
            Compression::ZSTD(Default::default()),
        ] {
            for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
                let props = WriterProperties::builder()
                    .set_compression(codec)
                    .set_writer_version(version)
                    .set_max_row_group_size(2000)
                    .build();
                let mut out = Vec::new();
                let mut w =
                    parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props))
                        .unwrap();
                w.write(&batch).unwrap();
                w.close().unwrap();
                let file = bytes::Bytes::from(out);
                let meta = parquet::file::metadata::ParquetMetaDataReader::new()
                    .parse_and_finish(&file)
                    .unwrap();
                for rg in meta.row_groups() {
                    assert_eq!(check(&file, rg), Ok(()), "{codec} {version:?}");
                }
            }
        }
    }

    #[test]
    fn bounds_follow_the_type_and_the_codec() {
        assert_eq!(value_bits(Type::BOOLEAN, 0), Some(1));
        assert_eq!(value_bits(Type::INT96, 0), Some(96));
        assert_eq!(value_bits(Type::BYTE_ARRAY, 0), Some(32));
        assert_eq!(value_bits(Type::FIXED_LEN_BYTE_ARRAY, 16), Some(128));
        assert_eq!(value_bits(Type::FIXED_LEN_BYTE_ARRAY, 0), None);
        assert_eq!(most_decompressed(Compression::SNAPPY, 3), Some(64));
        assert_eq!(most_decompressed(Compression::LZ4_RAW, 2), Some(510));
        assert_eq!(most_decompressed(Compression::UNCOMPRESSED, 2), None);
        assert_eq!(
            most_decompressed(Compression::ZSTD(Default::default()), 2),
            None
        );
    }
}
