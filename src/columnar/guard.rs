//! Parquet pages, between the file and the `parquet` crate's decoders: the
//! one guard left of the hand-written Parquet checks (footer.rs and
//! pages.rs before parquet 60). Before a row group is read, [`check`]
//! walks its page headers; once the crate has decompressed a data page,
//! [`check_values`] reads the counts inside it. Both refuse claims the
//! page's bytes cannot back, because parquet 60.1 still sizes buffers from
//! them before it looks at the data, and fills them:
//!
//! - a page's `uncompressed_page_size` for SNAPPY, LZ4 and LZ4_RAW: the
//!   output is made that long, zeroed, before decompressing (a 2 GiB claim
//!   is 2 GiB taken). Upstream: apache/arrow-rs#10734 ("SerializedPageReader
//!   allocates uncompressed_page_size bytes before validating it against
//!   the column chunk", open; fix proposed in apache/arrow-rs#10821).
//! - a dictionary page's `num_values`: a vector of that many values is made
//!   (`resize`) before the page is read (541,098,246 INT32 claimed in 0
//!   bytes: 2.1 GB taken with parquet 60.1, then `Not enough bytes`).
//! - the counts opening a DELTA_LENGTH_BYTE_ARRAY page's lengths (and
//!   DELTA_BYTE_ARRAY's two runs): a vector of that many i32 is made and
//!   filled first (500 million lengths in 519 bytes: 1.96 GB, 13 s, and
//!   the rows then read as nulls, exit 1, with parquet 60.1).
//! - pages that truly decompress to far more than they hold: ZSTD frames
//!   of RLE blocks give 237 MB from 7.3 KB, read whole (241 MB taken). A
//!   page over [`MOST_AT_ONCE`] (64 MiB) decompressing over [`MOST_RATIO`]
//!   (1024) times its bytes is refused: pyarrow and arrow-rs write pages
//!   of 1 MiB, and real values do not compress a thousand times.
//!
//! Each fuzz finding in `fuzz/seeds/tables/regress-*` was run against
//! parquet 60.1 with the guards off (peak RSS, exit status; see
//! docs/parquet-guards.md). What parquet 60 now refuses itself, cheaply,
//! is no longer checked here: footers (Thrift list sizes are bounded by
//! the bytes left, apache/arrow-rs#10979), ZSTD pages giving more than
//! they claim (refused at the claim), and page headers whose skipped
//! values run past the end of the file.
//!
//! When can it go: the first two bullets with a parquet release holding
//! apache/arrow-rs#10821 (or any fix of #10734) and a dictionary/delta
//! count bound (no upstream issue found for those; the seeds
//! `regress-parquet-huge-dictionary-clean` and
//! `regress-parquet-delta-length-count` show whether a release has one:
//! run them with this module's calls removed). Until then, page headers
//! are read here as the crate reads them (a Thrift compact walk that
//! refuses a known field named as another type, so both see the same
//! values).
//!
//! ```text
//!   column chunk = [dictionary page] data page ... (from the dictionary
//!                  page offset, else the data page offset; its compressed
//!                  size long)
//!   page = PageHeader (Thrift compact) | compressed_page_size bytes
//!   PageHeader: 1 type (0 data, 1 index, 2 dictionary, 3 data v2)
//!               2 uncompressed_page_size  3 compressed_page_size  4 crc
//!               5 data, 6 index, 7 dictionary {1 num_values ..},
//!               8 data v2 {.. 5 definition and 6 repetition levels'
//!                 lengths, 7 is_compressed}
//!   DELTA_LENGTH_BYTE_ARRAY values = lengths (a DELTA_BINARY_PACKED run)
//!                                    | the values' bytes
//!   DELTA_BYTE_ARRAY values = prefix lengths (a run) | suffix lengths (a
//!                             run) | the suffixes' bytes
//! ```

use parquet::basic::{Compression, Encoding, Type};
use parquet::column::page::Page;
use parquet::file::metadata::{ColumnChunkMetaData, RowGroupMetaData};
use parquet::schema::types::ColumnDescriptor;
use Ty::{Binary, Bool, Int, Struct};

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

/// The most a page may make the reader take at once whatever its bytes:
/// 64 MiB, 64 times the page size of the usual writers (see the module
/// doc).
const MOST_AT_ONCE: u64 = 64 << 20;

/// How much more than its compressed bytes a page over [`MOST_AT_ONCE`]
/// may decompress to.
const MOST_RATIO: u64 = 1024;

/// What a page header claims, as far as checked here.
#[derive(Debug, Default, PartialEq)]
struct Header {
    kind: Option<i32>,
    uncompressed: Option<i32>,
    compressed: Option<i32>,
    /// A dictionary page header's `num_values`.
    dictionary_values: Option<i32>,
    /// A data page v2 header's level lengths and `is_compressed`.
    v2: Option<V2>,
}

/// What a data page v2 header says of the page's bytes: its levels come
/// first, never compressed, `definition + repetition` bytes long; the rest
/// is compressed unless `is_compressed` is false.
#[derive(Debug, Default, PartialEq, Clone, Copy)]
struct V2 {
    definition: Option<i32>,
    repetition: Option<i32>,
    is_compressed: Option<bool>,
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
        let page = usize::try_from(len + compressed)
            .ok()
            .and_then(|end| bytes.get(len as usize..end));
        let decompresses = page
            .and_then(|p| decompressed(chunk.compression(), &h, p))
            .is_some();
        if decompresses && uncompressed > MOST_AT_ONCE && uncompressed > compressed * MOST_RATIO {
            return Err(format!(
                "the page at byte {at} claims {uncompressed} bytes once decompressed from \
                 {compressed}: a page over {MOST_AT_ONCE} bytes compressed over \
                 {MOST_RATIO} to 1 is refused"
            ));
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

/// Checks a data page as the crate is about to decode it (decompressed):
/// the reason a DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY page is
/// refused. Their lengths are DELTA_BINARY_PACKED runs, and the crate
/// makes a vector of each run's count (4 bytes a value), filled, before it
/// reads a value: the count may be no more than the values the page header
/// counts, nor take more than [`MOST_AT_ONCE`].
pub fn check_values(page: &Page, descr: &ColumnDescriptor) -> Result<(), String> {
    let Some((values, encoding, num_values)) = values_of(page, descr) else {
        return Ok(());
    };
    let runs = match encoding {
        Encoding::DELTA_LENGTH_BYTE_ARRAY => 1,
        // Prefix lengths, then suffix lengths.
        Encoding::DELTA_BYTE_ARRAY => 2,
        _ => return Ok(()),
    };
    let (mut at, mut taken) = (0, 0u64);
    for run in 0..runs {
        let bytes = &values[at..];
        let r = delta_header(bytes).map_err(|why| format!("its {encoding:?} lengths {why}"))?;
        if r.count > u64::from(num_values) {
            return Err(format!(
                "its {encoding:?} lengths claim {} values where its header counts {num_values}",
                r.count
            ));
        }
        taken += 4 * r.count;
        if taken > MOST_AT_ONCE {
            return Err(format!(
                "its {encoding:?} lengths claim {} values: {taken} bytes of lengths made at \
                 once, more than the {MOST_AT_ONCE} a page may take",
                r.count
            ));
        }
        if run + 1 < runs {
            at += delta_end(bytes, &r).map_err(|why| format!("its {encoding:?} lengths {why}"))?;
        }
    }
    Ok(())
}

/// A data page's values (after its levels), their encoding and the
/// page's `num_values`, as the crate hands them to its decoder; `None` for
/// a dictionary page, or levels the crate cannot split off (its to refuse).
fn values_of<'p>(page: &'p Page, descr: &ColumnDescriptor) -> Option<(&'p [u8], Encoding, u32)> {
    Some(match page {
        Page::DataPage {
            buf,
            num_values,
            encoding,
            def_level_encoding,
            rep_level_encoding,
            ..
        } => {
            // The levels first, repetition then definition, as the crate
            // splits them off (a page it cannot split is its to refuse).
            let mut at = 0;
            for (max, levels) in [
                (descr.max_rep_level(), *rep_level_encoding),
                (descr.max_def_level(), *def_level_encoding),
            ] {
                if max > 0 {
                    at += v1_levels(max, *num_values, levels, &buf[at..])?;
                }
            }
            (&buf[at..], *encoding, *num_values)
        }
        Page::DataPageV2 {
            buf,
            num_values,
            encoding,
            def_levels_byte_len,
            rep_levels_byte_len,
            ..
        } => {
            let at = u64::from(*def_levels_byte_len) + u64::from(*rep_levels_byte_len);
            (
                buf.get(usize::try_from(at).ok()?..)?,
                *encoding,
                *num_values,
            )
        }
        Page::DictionaryPage { .. } => return None,
    })
}

/// How many bytes a v1 data page's levels take (`max` the column's most
/// level, `num_values` the page's), as the crate splits them off: RLE
/// levels are 4 bytes of length and that many bytes, BIT_PACKED ones
/// `num_values` values of `max`'s bit width. `None` when the crate refuses
/// them.
fn v1_levels(max: i16, num_values: u32, encoding: Encoding, bytes: &[u8]) -> Option<usize> {
    #[allow(deprecated)]
    let len = match encoding {
        Encoding::RLE => {
            let len = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
            4usize.checked_add(len as usize)?
        }
        Encoding::BIT_PACKED => {
            let width = 64 - u64::from(max.unsigned_abs()).leading_zeros() as usize;
            (num_values as usize * width).div_ceil(8)
        }
        _ => return None,
    };
    (len <= bytes.len()).then_some(len)
}

/// The header of a DELTA_BINARY_PACKED run: its block size, miniblocks a
/// block, count of values, and length.
///
/// ```text
///   run    = header | block ...
///   header = ULEB128 block size (a multiple of 128) | miniblocks a block
///            (block size / miniblocks a multiple of 32) | count of values
///            | zigzag first value
///   block  = zigzag min delta | a bit width a miniblock (one byte each) |
///            the miniblocks, (block size / miniblocks) values each
/// ```
#[derive(Debug, PartialEq)]
struct DeltaRun {
    block: u64,
    minis: u64,
    count: u64,
    len: usize,
}

/// A run's header at the start of `bytes`, as the crate's decoder reads it
/// (the reason it refuses it otherwise).
fn delta_header(bytes: &[u8]) -> Result<DeltaRun, String> {
    let mut at = 0;
    let block = uleb(bytes, &mut at)?;
    let minis = uleb(bytes, &mut at)?;
    let count = uleb(bytes, &mut at)?;
    uleb(bytes, &mut at)?;
    if minis == 0 || block % 128 != 0 || block % minis != 0 || block / minis % 32 != 0 {
        return Err(format!(
            "have blocks of {block} values in {minis} miniblocks, not multiples of 128 and 32"
        ));
    }
    Ok(DeltaRun {
        block,
        minis,
        count,
        len: at,
    })
}

/// Where the run `r` at the start of `bytes` ends, as the crate's decoder
/// finds it once it has read the run's values (where DELTA_BYTE_ARRAY's
/// second run starts): after its last block, whose miniblocks no value
/// reaches count as empty.
fn delta_end(bytes: &[u8], r: &DeltaRun) -> Result<usize, String> {
    let per_mini = r.block / r.minis;
    let mut at = r.len;
    // The first value is the header's.
    let mut left = r.count.saturating_sub(1);
    while left > 0 {
        uleb(bytes, &mut at)?;
        let widths = usize::try_from(r.minis)
            .ok()
            .and_then(|minis| bytes.get(at..at.checked_add(minis)?))
            .ok_or("end inside a block header")?;
        let mut end = (at + widths.len()) as u64;
        let mut reach = left;
        for &width in widths {
            if reach == 0 {
                break;
            }
            if width > 32 {
                return Err(format!("have a miniblock of {width}-bit values"));
            }
            end = (u64::from(width) * per_mini / 8)
                .checked_add(end)
                .filter(|&end| end <= bytes.len() as u64)
                .ok_or("run past the end of the page")?;
            reach = reach.saturating_sub(per_mini);
        }
        at = end as usize;
        left -= left.min(r.block);
    }
    Ok(at)
}

/// A ULEB128 varint of a run's header, as the crate's bit reader reads
/// it: 10 bytes at most, the value cut to 64 bits, refused when negative
/// as an i64.
fn uleb(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut v = 0u64;
    for shift in (0..70).step_by(7) {
        let b = *bytes.get(*at).ok_or("end inside a header")?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return i64::try_from(v)
                .map(|_| v)
                .map_err(|_| format!("hold a varint of {v}, over 2^63"));
        }
    }
    Err("hold a varint longer than 10 bytes".into())
}

/// The part of a page the crate decompresses and how long it claims to be
/// once decompressed: all of it, or a v2 page's bytes after its levels;
/// `None` when the crate decompresses nothing (no codec, a v2 page saying
/// it is not compressed, or one whose level lengths it refuses first).
fn decompressed<'p>(codec: Compression, h: &Header, page: &'p [u8]) -> Option<(&'p [u8], u64)> {
    let uncompressed = u64::try_from(h.uncompressed?).ok()?;
    if codec == Compression::UNCOMPRESSED {
        return None;
    }
    let Some(v2) = h.v2 else {
        return Some((page, uncompressed));
    };
    if !v2.is_compressed.unwrap_or(true) {
        return None;
    }
    let (definition, repetition) = (v2.definition?, v2.repetition?);
    let levels = u64::try_from(definition)
        .ok()
        .zip(u64::try_from(repetition).ok())
        .map(|(d, r)| d + r)
        .filter(|&levels| levels <= uncompressed)?;
    Some((page.get(levels as usize..)?, uncompressed - levels))
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
            8 if Struct(DATA_PAGE_V2).named_by(t) => {
                // A second one replaces the first, as in the crate.
                let mut v2 = V2::default();
                let mut id = 0;
                while let Some((next, t)) = walk.field_header(id)? {
                    id = next;
                    match id {
                        5 if Int.named_by(t) => v2.definition = Some(walk.int()?),
                        6 if Int.named_by(t) => v2.repetition = Some(walk.int()?),
                        // A bool's value is its type: 1 true, 2 false.
                        7 if Bool.named_by(t) => v2.is_compressed = Some(t == 1),
                        _ => walk.field(DATA_PAGE_V2, id, t, 1)?,
                    }
                }
                h.v2 = Some(v2);
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

/// Page statistics (skipped, unless a field is named another type).
const STATISTICS: &[(i16, Ty)] = &[
    (1, Binary),
    (2, Binary),
    (3, Int),
    (4, Int),
    (5, Binary),
    (6, Binary),
    (7, Bool),
    (8, Bool),
];

/// Deepest nesting of structs accepted (a page header nests three).
const MAX_DEPTH: u32 = 64;

/// What the parquet crate expects of a field: it reads a field it knows
/// as this, whatever type its header names.
#[derive(Clone, Copy)]
enum Ty {
    Bool,
    /// i16, i32 or i64: a zigzag varint each, read alike.
    Int,
    Binary,
    Struct(&'static [(i16, Ty)]),
}

impl Ty {
    /// Whether a header naming Thrift type `t` holds this, byte for byte.
    fn named_by(self, t: u8) -> bool {
        matches!(
            (self, t),
            (Bool, 1 | 2) | (Int, 4..=6) | (Binary, 8) | (Struct(_), 12)
        )
    }
}

/// A walk over Thrift compact-protocol bytes (page headers).
struct Walk<'a> {
    bytes: &'a [u8],
    /// Bytes walked so far.
    at: usize,
}

impl<'a> Walk<'a> {
    /// A walk from the start of `bytes`.
    fn new(bytes: &'a [u8]) -> Walk<'a> {
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
    fn int(&mut self) -> Result<i32, String> {
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
    fn field_header(&mut self, last: i16) -> Result<Option<(i16, u8)>, String> {
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
    fn field(&mut self, shape: &[(i16, Ty)], id: i16, t: u8, depth: u32) -> Result<(), String> {
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
            Bool => self.skip(1),
            Int => self.varint().map(drop),
            Binary => {
                let k = self.varint()?;
                self.skip(k)
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
                v2: None,
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
            Compression::GZIP(Default::default()),
            Compression::ZSTD(Default::default()),
        ] {
            for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
                let props = WriterProperties::builder()
                    .set_compression(codec)
                    .set_writer_version(version)
                    .set_max_row_group_row_count(Some(2000))
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
    fn a_page_decompressing_far_past_its_bytes_is_refused() {
        // ZSTD frames of RLE blocks truly giving 237 MB from 7250 bytes:
        // parquet 60 reads them (241 MB taken, the row then null).
        let e = check_seed("regress-parquet-zstd-bomb.parquet").unwrap_err();
        assert!(
            e.contains("claims 237109248 bytes once decompressed from 7250: a page over 67108864"),
            "{e}"
        );
        // The same frames claiming 8004 bytes are parquet 60's to refuse
        // ("Destination buffer is too small", 10 MB): not refused here.
        assert_eq!(
            check_seed("regress-parquet-zstd-more-than-claimed.parquet"),
            Ok(())
        );
    }

    /// A DELTA_BINARY_PACKED run of `count` zeros: one block, one
    /// miniblock of 0-bit values.
    fn zeros(count: u64) -> Vec<u8> {
        let mut run = Vec::new();
        for mut v in [count.div_ceil(128).max(1) * 128, 1, count, 0] {
            while v >= 0x80 {
                run.push(v as u8 | 0x80);
                v >>= 7;
            }
            run.push(v as u8);
        }
        if count > 1 {
            run.extend([0, 0]);
        }
        run
    }

    /// An optional BYTE_ARRAY column's descriptor.
    fn optional_strings() -> ColumnDescriptor {
        let t = parquet::schema::types::Type::primitive_type_builder("s", Type::BYTE_ARRAY)
            .with_repetition(parquet::basic::Repetition::OPTIONAL)
            .build()
            .unwrap();
        ColumnDescriptor::new(std::sync::Arc::new(t), 1, 0, "s".into())
    }

    /// A v1 data page of `num_values` values (all defined, RLE levels).
    fn v1(encoding: Encoding, num_values: u32, values: &[u8]) -> Page {
        let mut buf = vec![2, 0, 0, 0];
        buf.extend([(num_values.min(63) << 1) as u8, 1]);
        buf.extend_from_slice(values);
        Page::DataPage {
            buf: buf.into(),
            num_values,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        }
    }

    #[test]
    fn delta_lengths_the_page_cannot_hold_are_refused() {
        let descr = optional_strings();
        let dlba = Encoding::DELTA_LENGTH_BYTE_ARRAY;
        // The fuzz gap as crafted: 500 million lengths in a page of 4
        // values (the crate made and filled 2 GB of them).
        let e = check_values(&v1(dlba, 4, &zeros(500_000_000)), &descr).unwrap_err();
        assert_eq!(
            e,
            "its DELTA_LENGTH_BYTE_ARRAY lengths claim 500000000 values where its header counts 4"
        );
        // As many as the page counts pass, empty or not.
        assert_eq!(check_values(&v1(dlba, 4, &zeros(4)), &descr), Ok(()));
        assert_eq!(check_values(&v1(dlba, 0, &zeros(0)), &descr), Ok(()));
        // A header claiming as many: 80 MB of lengths at once.
        let e = check_values(&v1(dlba, 20_000_000, &zeros(20_000_000)), &descr).unwrap_err();
        assert!(e.ends_with("claim 20000000 values: 80000000 bytes of lengths made at once, more than the 67108864 a page may take"), "{e}");
        // DELTA_BYTE_ARRAY: suffix lengths after the prefix lengths, and
        // both count toward what is made.
        let dba = Encoding::DELTA_BYTE_ARRAY;
        let two = |a, b| [zeros(a), zeros(b)].concat();
        assert_eq!(check_values(&v1(dba, 4, &two(4, 4)), &descr), Ok(()));
        let e = check_values(&v1(dba, 4, &two(4, 250_000_000)), &descr).unwrap_err();
        assert!(
            e.ends_with("lengths claim 250000000 values where its header counts 4"),
            "{e}"
        );
        let e = check_values(&v1(dba, 9_000_000, &two(9_000_000, 9_000_000)), &descr).unwrap_err();
        assert!(e.contains("72000000 bytes of lengths"), "{e}");
        // A v2 page: its levels' lengths in the header.
        let v2 = |values: &[u8]| Page::DataPageV2 {
            buf: [&[8, 1][..], values].concat().into(),
            num_values: 4,
            encoding: dlba,
            num_nulls: 0,
            num_rows: 4,
            def_levels_byte_len: 2,
            rep_levels_byte_len: 0,
            is_compressed: true,
            statistics: None,
        };
        assert_eq!(check_values(&v2(&zeros(4)), &descr), Ok(()));
        let e = check_values(&v2(&zeros(5)), &descr).unwrap_err();
        assert!(
            e.ends_with("claim 5 values where its header counts 4"),
            "{e}"
        );
        // BIT_PACKED levels: 4 values of 1 bit, a byte.
        let mut bits = v1(dlba, 4, &[]);
        if let Page::DataPage {
            buf,
            def_level_encoding,
            ..
        } = &mut bits
        {
            *buf = [&[0x0f][..], &zeros(5)].concat().into();
            #[allow(deprecated)]
            let packed = Encoding::BIT_PACKED;
            *def_level_encoding = packed;
        }
        let e = check_values(&bits, &descr).unwrap_err();
        assert!(
            e.ends_with("claim 5 values where its header counts 4"),
            "{e}"
        );
        // Headers the crate refuses are refused.
        let e = check_values(&v1(dlba, 4, &[0x80, 0x01, 0x03, 0x04, 0x00]), &descr).unwrap_err();
        assert!(e.contains("blocks of 128 values in 3 miniblocks"), "{e}");
        let e = check_values(&v1(dlba, 4, &[0x80, 0x01]), &descr).unwrap_err();
        assert!(e.ends_with("lengths end inside a header"), "{e}");
        let e = check_values(&v1(dlba, 4, &[0xff; 12]), &descr).unwrap_err();
        assert!(e.ends_with("longer than 10 bytes"), "{e}");
        // Other encodings, and pages whose levels the crate cannot split,
        // are left to it.
        assert_eq!(
            check_values(&v1(Encoding::PLAIN, 4, &zeros(9)), &descr),
            Ok(())
        );
        let mut short = v1(dlba, 4, &[]);
        if let Page::DataPage { buf, .. } = &mut short {
            *buf = vec![9, 0, 0, 0, 1].into();
        }
        assert_eq!(check_values(&short, &descr), Ok(()));
    }

    #[test]
    fn delta_runs_end_where_the_crate_ends_them() {
        // 300 values, the first in the header, in blocks of 128 in 4
        // miniblocks of 32: widths 8, 0, 3, 1 (32, 0, 12, 4 bytes); 2, 9,
        // 0, 0 (8, 36 bytes); then the 43 values left in a miniblock of 5
        // bits (20 bytes) and one of 1 bit (4 bytes), the two no value
        // reaches taking none (nor checked: 200 bits).
        let mut run = vec![0x80, 0x01, 0x04, 0xac, 0x02, 0x00];
        for (widths, bytes) in [
            ([8, 0, 3, 1], 48),
            ([2, 9, 0, 0], 44),
            ([5, 1, 200, 200], 24),
        ] {
            run.push(0x01);
            run.extend(widths);
            run.extend(std::iter::repeat_n(0x55, bytes));
        }
        let r = delta_header(&run).unwrap();
        assert_eq!(
            r,
            DeltaRun {
                block: 128,
                minis: 4,
                count: 300,
                len: 6
            }
        );
        assert_eq!(delta_end(&run, &r), Ok(run.len()));
        assert_eq!(
            delta_end(&run[..run.len() - 1], &r),
            Err("run past the end of the page".into())
        );
        // A miniblock of 33-bit values.
        run[6 + 1] = 33;
        assert_eq!(
            delta_end(&run, &r),
            Err("have a miniblock of 33-bit values".into())
        );
    }

    #[test]
    fn what_arrow_rs_writes_in_delta_encodings_passes() {
        use arrow_array::builder::{ListBuilder, StringBuilder};
        use arrow_array::{ArrayRef, RecordBatch, StringArray};
        use parquet::file::properties::{WriterProperties, WriterVersion};
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use std::sync::Arc;
        let n = 5000;
        // Shared prefixes of any length, lengths from 0 up: varied widths.
        let text = |i: usize| format!("{}{}", &"4.....8.5.3.......".repeat(3)[..i % 50], i * 7919);
        let mut lists = ListBuilder::new(StringBuilder::new());
        for i in 0..n {
            for k in 0..i % 4 {
                lists.values().append_value(text(i + k));
            }
            lists.append(i % 7 != 0);
        }
        let batch = RecordBatch::try_from_iter([
            (
                "r",
                Arc::new(StringArray::from_iter_values((0..n).map(text))) as ArrayRef,
            ),
            (
                "o",
                Arc::new(StringArray::from_iter(
                    (0..n).map(|i| (i % 3 != 0).then(|| text(i))),
                )),
            ),
            ("l", Arc::new(lists.finish())),
        ])
        .unwrap();
        for encoding in [
            Encoding::DELTA_LENGTH_BYTE_ARRAY,
            Encoding::DELTA_BYTE_ARRAY,
        ] {
            for codec in [
                Compression::UNCOMPRESSED,
                Compression::SNAPPY,
                Compression::GZIP(Default::default()),
                Compression::ZSTD(Default::default()),
            ] {
                for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
                    let props = WriterProperties::builder()
                        .set_dictionary_enabled(false)
                        .set_encoding(encoding)
                        .set_compression(codec)
                        .set_writer_version(version)
                        .set_data_page_row_count_limit(1500)
                        .set_write_batch_size(500)
                        .build();
                    let mut out = Vec::new();
                    let mut w =
                        parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), Some(props))
                            .unwrap();
                    w.write(&batch).unwrap();
                    w.close().unwrap();
                    let reader = SerializedFileReader::new(bytes::Bytes::from(out)).unwrap();
                    let schema = reader.metadata().file_metadata().schema_descr_ptr();
                    let mut delta = 0;
                    for c in 0..3 {
                        let descr = schema.column(c);
                        let group = reader.get_row_group(0).unwrap();
                        let mut pages = group.get_column_page_reader(c).unwrap();
                        while let Some(page) = pages.get_next_page().unwrap() {
                            let place = format!("{encoding:?} {codec} {version:?} column {c}");
                            assert_eq!(check_values(&page, &descr), Ok(()), "{place}");
                            if page.encoding() != encoding {
                                continue;
                            }
                            delta += 1;
                            // The second run found where the crate finds
                            // it: as many suffixes as prefixes.
                            let (values, ..) = values_of(&page, &descr).unwrap();
                            let first = delta_header(values).unwrap();
                            assert!(first.count > 0, "{place}");
                            if encoding == Encoding::DELTA_BYTE_ARRAY {
                                let at = delta_end(values, &first).unwrap();
                                let second = delta_header(&values[at..]).unwrap();
                                assert_eq!(second.count, first.count, "{place}");
                            }
                        }
                    }
                    // Several pages a column.
                    assert!(delta >= 9, "{encoding:?} {codec} {version:?}: {delta}");
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
