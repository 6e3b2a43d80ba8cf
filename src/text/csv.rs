//! Delimited rows (CSV, TSV, tdoku `p:n:s`) of the text wing: field splitting, quotes and bare CRs, and writing a row back with its answer field.

use std::borrow::Cow;

use super::symbols::*;
use crate::record::RecordError;

/// Where the puzzle and solution live in a delimited row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CsvColumns {
    /// 0-based index of the puzzle column.
    pub puzzle: usize,
    /// 0-based index of the solution column; `None` appends one.
    pub solution: Option<usize>,
    /// Field separator: `,` (CSV), tab (TSV), `:` (tdoku).
    pub delim: u8,
}

/// Where the puzzle and solution fields of one delimited row lie (byte
/// ranges of the row), from [`Layout::split_row`](super::Layout::split_row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowSplit {
    /// Fields in the row.
    pub(super) fields: usize,
    /// The puzzle field's range, if the row reaches it.
    pub(super) puzzle: Option<(usize, usize)>,
    /// The solution field's range, if the layout has one and the row
    /// reaches it.
    pub(super) solution: Option<(usize, usize)>,
}

/// The 1-based character of the first `\r` in `line` when more text
/// follows it on the line (a line break by a bare CR, old Mac line ends);
/// `None` for none, or for CRs before the line's end (CRLF).
pub fn cr_before_text(line: &[u8]) -> Option<usize> {
    let i = memchr::memchr(b'\r', line)?;
    cr_ends_text(line, i).then(|| char_count(&line[..i]) + 1)
}

/// [`cr_before_text`] for a delimited row: a `\r` inside quotes is part
/// of a value (a CRLF in a quoted note), not a line break.
pub(super) fn csv_bare_cr(row: &[u8], delim: u8) -> Option<usize> {
    let first = memchr::memchr(b'\r', row)?;
    // The common case, a CRLF row (or none): one search, no walk.
    if row[first + 1..].trim_ascii().is_empty() {
        return None;
    }
    let (_, at) = walk_quotes(row, |b| b == delim, false, |i| cr_ends_text(row, i));
    at.map(|i| char_count(&row[..i]) + 1)
}

/// True when `text[i]` is a `\r` that more text follows on its line.
pub fn cr_ends_text(text: &[u8], i: usize) -> bool {
    if text[i] != b'\r' {
        return false;
    }
    let rest = &text[i + 1..];
    let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    !rest[..end].trim_ascii().is_empty()
}

/// Whether a quoted field is open at the end of delimited `text` (one was
/// at its start when `open`), as [`walk_quotes`] reads quotes; text without
/// a quote, the common line, takes one search.
pub fn quote_open_after(text: &[u8], delim: u8, open: bool) -> bool {
    if memchr::memchr(b'"', text).is_none() {
        return open;
    }
    walk_quotes(text, |b| b == delim, open, |_| false).0
}

/// Reads the quotes of delimited `text` as RFC 4180 and the csv crate read
/// them: a `"` opens a quoted field only at the start of a field (one
/// inside an unquoted field, as in `5" tall`, is a character: counting
/// every quote joined the rows after it to this one, and lost them), `""`
/// inside a quoted field is a quote, and a lone `"` closes it. `open`: a
/// quoted field is open where `text` starts. Calls `outside(i)` at each
/// byte outside quotes until it answers true; returns whether a quoted
/// field is open at the end (or at that stop) and the stop's index.
pub fn walk_quotes(
    text: &[u8],
    is_delim: impl Fn(u8) -> bool,
    open: bool,
    mut outside: impl FnMut(usize) -> bool,
) -> (bool, Option<usize>) {
    let (mut quoted, mut start) = (open, !open);
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if quoted {
            if b == b'"' {
                if text.get(i + 1) == Some(&b'"') {
                    i += 2;
                    continue;
                }
                quoted = false;
            }
        } else if b == b'"' && start {
            quoted = true;
        } else if outside(i) {
            return (false, Some(i));
        }
        start = !quoted && (is_delim(b) || b == b'\n');
        i += 1;
    }
    (quoted, None)
}

/// The puzzle field (`cols.puzzle`) of a delimited line. Plain fields are
/// sliced directly; a line with quotes goes through the csv reader (rare,
/// and slower).
pub(super) fn csv_field(line: &[u8], cols: CsvColumns) -> Result<Cow<'_, [u8]>, RecordError> {
    let index = cols.puzzle;
    if memchr::memchr(b'"', line).is_none() {
        // Field boundaries by memchr: the byte-by-byte split cost 225
        // instructions a row on Kaggle-style rows (callgrind).
        let mut start = 0;
        let mut ends = memchr::memchr_iter(cols.delim, line);
        for _ in 0..index {
            match ends.next() {
                Some(i) => start = i + 1,
                None => {
                    return Err(RecordError::MissingField {
                        column: index + 1,
                        found: memchr::memchr_iter(cols.delim, line).count() + 1,
                    })
                }
            }
        }
        let end = ends.next().unwrap_or(line.len());
        return Ok(Cow::Borrowed(&line[start..end]));
    }
    if quote_open_after(line, cols.delim, false) {
        return Err(RecordError::RunOnQuote);
    }
    let record = parse_csv_record(line, cols.delim)?;
    record
        .get(index)
        .map(|f| Cow::Owned(f.to_vec()))
        .ok_or(RecordError::MissingField {
            column: index + 1,
            found: record.len(),
        })
}

pub(super) fn parse_csv_record(line: &[u8], delim: u8) -> Result<csv::ByteRecord, RecordError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .from_reader(line);
    let mut record = csv::ByteRecord::new();
    match reader.read_byte_record(&mut record) {
        // The record splitter and the reader read quotes alike, so the
        // reader takes the whole record; were it to stop short, the rest
        // would be lost without a word: an error instead.
        Ok(_)
            if !line[(reader.position().byte() as usize).min(line.len())..]
                .trim_ascii()
                .is_empty() =>
        {
            Err(RecordError::Csv(format!(
                "the row ends at byte {} of {}, before its text does",
                reader.position().byte(),
                line.len()
            )))
        }
        Ok(_) => Ok(record),
        Err(e) => Err(RecordError::Csv(e.to_string())),
    }
}

/// Every field of delimited row `line` (no line end), unquoted: sliced
/// at the delimiters when the row has no quote, else read by the csv
/// reader as `csv_field` reads a quoted row.
pub fn row_fields(line: &[u8], delim: u8) -> Result<Vec<Vec<u8>>, RecordError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if memchr::memchr(b'"', line).is_none() {
        return Ok(line.split(|&b| b == delim).map(<[u8]>::to_vec).collect());
    }
    if quote_open_after(line, delim, false) {
        return Err(RecordError::RunOnQuote);
    }
    Ok(parse_csv_record(line, delim)?
        .iter()
        .map(<[u8]>::to_vec)
        .collect())
}

/// Appends one CSV field, quoted when it must be (delimiter, quote, CR or
/// LF inside), quotes doubled. Linear in the field: the csv crate's writer
/// took 61 s on a 200 MB quoted multi-line field (issue 14).
pub fn push_field(field: &[u8], delim: u8, out: &mut Vec<u8>) {
    let needs = field
        .iter()
        .any(|&b| b == delim || b == b'"' || b == b'\n' || b == b'\r');
    if !needs {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    let mut rest = field;
    while let Some(i) = memchr::memchr(b'"', rest) {
        out.extend_from_slice(&rest[..=i]);
        out.push(b'"');
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// Appends delimited row `line` (no quotes, no line end) with the solution
/// field's bytes replaced by what `put` appends (a field added after the
/// others when the layout has none; empty fields added up to it when the
/// row is short), then a line end. The other fields keep their exact bytes.
pub(super) fn splice_csv_field(
    line: &[u8],
    cols: CsvColumns,
    out: &mut Vec<u8>,
    put: impl FnOnce(&mut Vec<u8>),
) {
    let d = cols.delim;
    match cols.solution {
        None => {
            out.extend_from_slice(line);
            out.push(d);
            put(out);
        }
        Some(s) => {
            // Field boundaries by memchr, as `csv_field` finds them.
            let mut ends = memchr::memchr_iter(d, line);
            let mut start = 0;
            let mut found = 0;
            while found < s {
                match ends.next() {
                    Some(i) => {
                        start = i + 1;
                        found += 1;
                    }
                    None => break,
                }
            }
            if found < s {
                // Fields 0..=found exist: empty ones up to the solution's.
                out.extend_from_slice(line);
                out.extend(std::iter::repeat_n(d, s - found));
                put(out);
            } else {
                let end = ends.next().unwrap_or(line.len());
                out.extend_from_slice(&line[..start]);
                put(out);
                out.extend_from_slice(&line[end..]);
            }
        }
    }
    out.push(b'\n');
}

/// Writes delimited row `line` again with the solution field set to `value`
/// (replacing the existing column, or appended). Other fields keep their
/// exact bytes when the row has no quotes.
pub(super) fn write_csv_row(line: &[u8], cols: CsvColumns, value: &[u8], out: &mut Vec<u8>) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let d = cols.delim;
    if memchr::memchr(b'"', line).is_none() && memchr::memchr(b'"', value).is_none() {
        splice_csv_field(line, cols, out, |out| out.extend_from_slice(value));
        return;
    }
    // Quoted fields: re-emit field by field so quoting stays valid.
    let mut fields: Vec<Vec<u8>> = match parse_csv_record(line, d) {
        Ok(r) => r.iter().map(<[u8]>::to_vec).collect(),
        Err(_) => vec![line.to_vec()],
    };
    match cols.solution {
        None => fields.push(value.to_vec()),
        Some(s) => {
            if fields.len() <= s {
                fields.resize(s + 1, Vec::new());
            }
            fields[s] = value.to_vec();
        }
    }
    for (k, f) in fields.iter().enumerate() {
        if k > 0 {
            out.push(d);
        }
        push_field(f, d, out);
    }
    out.push(b'\n');
}
