//! Puzzle text formats: turns the bytes of one record into solver cells and
//! writes answers back in the record's layout. Sits between `pipeline` (which
//! hands it lines) and `solver` (which sees only cells).

use std::fmt;

/// Why a record could not be turned into an answer. Bad records are data, not
/// crashes: the pipeline counts them, marks their output line, and reports
/// them as `FILE:LINE: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The record does not have the number of cells of any supported grid.
    #[error("expected 81 cells, found {found}")]
    WrongLength {
        /// Cells found in the record.
        found: usize,
    },
    /// A byte that is neither a digit nor a blank marker.
    #[error("cell {cell}: invalid character {ch}")]
    BadChar {
        /// 1-based cell number.
        cell: usize,
        /// The offending character, quoted and escaped for display.
        ch: Shown,
    },
    /// Two givens clash in a row, column or box.
    #[error("duplicate given {digit} at {first} and {second}")]
    Duplicate {
        /// The repeated digit.
        digit: u8,
        /// First cell, as `rNcM`.
        first: CellName,
        /// Second cell, as `rNcM`.
        second: CellName,
    },
    /// The givens are consistent but no grid completes them.
    #[error("no solution")]
    NoSolution,
    /// More than one grid completes the givens (reported only when asked to
    /// check uniqueness).
    #[error("multiple solutions")]
    MultipleSolutions,
}

/// A character of bad input, printed the way a user can read it back:
/// `'x'`, or `'\x07'` for control and non-ASCII bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown(pub u8);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", self.0.escape_ascii())
    }
}

/// A cell named by 1-based row and column, `r3c7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellName {
    /// 1-based row.
    pub row: usize,
    /// 1-based column.
    pub col: usize,
}

impl CellName {
    /// Names cell `index` (row-major, 0-based) of a grid `side` cells wide.
    pub fn new(index: usize, side: usize) -> CellName {
        CellName {
            row: index / side + 1,
            col: index % side + 1,
        }
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.col)
    }
}

/// Byte → cell value for 9x9 lines: `1`-`9` are givens, `.` `0` `_` `*` are
/// blanks, anything else is [`BAD`].
static DIGIT9: [u8; 256] = {
    let mut t = [BAD; 256];
    let mut d = 1;
    while d <= 9 {
        t[b'0' as usize + d] = d as u8;
        d += 1;
    }
    t[b'.' as usize] = 0;
    t[b'0' as usize] = 0;
    t[b'_' as usize] = 0;
    t[b'*' as usize] = 0;
    t
};
const BAD: u8 = 0xFF;

/// What one line of a one-puzzle-per-line file holds, once line endings and
/// surrounding whitespace are gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// Empty or a `#` comment: not a record.
    Skip,
    /// `end`: the judge-style end of input; nothing after it is read.
    End,
    /// A puzzle: the first whitespace-separated token (ratings or comments may
    /// follow it).
    Puzzle(&'a [u8]),
}

/// Classifies one line (without its `\n`; a trailing `\r` is allowed).
pub fn classify_line(line: &[u8]) -> Line<'_> {
    let line = line.trim_ascii();
    if line.is_empty() || line[0] == b'#' {
        return Line::Skip;
    }
    if line.eq_ignore_ascii_case(b"end") {
        return Line::End;
    }
    let end = line
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(line.len());
    Line::Puzzle(&line[..end])
}

/// Parses an 81-cell 9x9 token into `cells` (0 = blank).
pub fn parse_9x9(token: &[u8], cells: &mut [u8; 81]) -> Result<(), RecordError> {
    if token.len() != 81 {
        return Err(RecordError::WrongLength { found: token.len() });
    }
    let mut bad = 0u8;
    for (c, &b) in cells.iter_mut().zip(token) {
        *c = DIGIT9[b as usize];
        bad |= *c;
    }
    // Only BAD (0xFF) has the top bit set, so one test covers all 81 cells.
    if bad & 0x80 != 0 {
        let cell = cells.iter().position(|&c| c == BAD).unwrap_or(0);
        return Err(RecordError::BadChar {
            cell: cell + 1,
            ch: Shown(token[cell]),
        });
    }
    Ok(())
}

/// Appends an 81-digit answer line (with `\n`) to `out`.
pub fn write_9x9(cells: &[u8; 81], out: &mut Vec<u8>) {
    out.extend(cells.iter().map(|&d| b'0' + d));
    out.push(b'\n');
}

/// Appends the marked output line of a bad record: it starts with `error:`,
/// so it can never be read as a solution, and names the reason.
pub fn write_error(err: &RecordError, out: &mut Vec<u8>) {
    use std::io::Write;
    // Writing into a Vec cannot fail.
    let _ = writeln!(out, "error: {err}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_handles_comments_end_crlf_and_trailing_text() {
        assert_eq!(classify_line(b""), Line::Skip);
        assert_eq!(classify_line(b"  \r"), Line::Skip);
        assert_eq!(classify_line(b"# rated 11.2"), Line::Skip);
        assert_eq!(classify_line(b"end\r"), Line::End);
        assert_eq!(classify_line(b"END"), Line::End);
        assert_eq!(classify_line(b"12.3\r"), Line::Puzzle(b"12.3"));
        assert_eq!(classify_line(b"12.3 ;11.9/1.2"), Line::Puzzle(b"12.3"));
        assert_eq!(classify_line(b"12.3\t# x"), Line::Puzzle(b"12.3"));
    }

    #[test]
    fn parse_accepts_all_blank_markers_and_names_bad_cells() {
        let mut line = [b'.'; 81];
        line[0] = b'0';
        line[1] = b'_';
        line[2] = b'*';
        line[3] = b'9';
        let mut cells = [7u8; 81];
        parse_9x9(&line, &mut cells).unwrap();
        assert_eq!(&cells[..5], &[0, 0, 0, 9, 0]);
        assert_eq!(cells.iter().filter(|&&c| c != 0).count(), 1);

        line[16] = b'x';
        assert_eq!(
            parse_9x9(&line, &mut cells).unwrap_err().to_string(),
            "cell 17: invalid character 'x'"
        );
        line[16] = 0xC3;
        assert_eq!(
            parse_9x9(&line, &mut cells).unwrap_err().to_string(),
            "cell 17: invalid character '\\xc3'"
        );
        assert_eq!(
            parse_9x9(&line[..80], &mut cells).unwrap_err(),
            RecordError::WrongLength { found: 80 }
        );
    }

    #[test]
    fn duplicate_names_cells_by_row_and_column() {
        let e = RecordError::Duplicate {
            digit: 5,
            first: CellName::new(0, 9),
            second: CellName::new(80, 9),
        };
        assert_eq!(e.to_string(), "duplicate given 5 at r1c1 and r9c9");
        let mut out = Vec::new();
        write_error(&e, &mut out);
        assert_eq!(out, b"error: duplicate given 5 at r1c1 and r9c9\n");
    }
}
