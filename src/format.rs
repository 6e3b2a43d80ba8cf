//! Puzzle text formats: cuts a chunk of input into records, turns each
//! record's bytes into solver cells, and writes answers back in the record's
//! own layout. Sits between `pipeline` (which hands it chunks) and `solver`
//! (which sees only cells). Which layout a file uses is `detect`'s business.
//!
//! Shapes of a record:
//!
//! ```text
//! Line     4.....8.5.3....     one puzzle per line (N*N cells: 36, 81, 256 ...)
//! Grid     103000509           `side` rows of `side` cells, one row per line
//!          002109400 ...
//! Spaced   8 0 0 0 0 0 0 0 0   `side` rows of `side` numbers (0 = blank)
//! Boxed     . 3 . | 6 4 . | .  `side` rows of cells between `|`/`!` marks,
//!          -------+-------     with rule lines (qqwing, Simple Sudoku .ss)
//! Numbers  8 0 0 0 ... 0       one puzzle per line as side*side numbers
//! Csv      id,puzzle,solution  a delimited row (CSV, TSV, tdoku `p:n:s`);
//!                              one field holds the puzzle, maybe one a label
//! ```

use std::borrow::Cow;
use std::io::Write;

pub use crate::record::{quote, Analysis, CellName, Label, RecordError, Shown, MAX_QUOTED_LINES};
use crate::solver::{self, Boxes};

/// Characters in `text` as a message counts them: UTF-8 characters, or
/// bytes when the text is not UTF-8.
pub fn char_count(text: &[u8]) -> usize {
    std::str::from_utf8(text).map_or(text.len(), |s| s.chars().count())
}

/// A path in a message: as `Path::display` shows it, with control
/// characters escaped (`\u{1b}`, `\n`), so a file name cannot move the
/// cursor or recolour the terminal, nor split a `FILE:LINE:` message.
pub fn shown_path<P: AsRef<std::path::Path> + ?Sized>(path: &P) -> String {
    let text = path.as_ref().display().to_string();
    if !text.chars().any(char::is_control) {
        return text;
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// How cell values are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbols {
    /// `1`-`9` (4x4: `1`-`4`); blanks `.` `0` `_` `*`.
    Digits,
    /// `A`, `B`, ... for 1, 2, ... (up to 26x26); blanks `-` `.` `_` `*` `0`.
    Letters,
    /// `0`-`9` then `A`-`Z` for 1, 2, ...: hex digits `0`-`F` for 16x16,
    /// up to 36x36; blanks `.` `-` `_` `*`.
    Hex0,
    /// `1`-`9` then `A`-`Z` for 1, 2, ... (`A`-`G` for 10-16 on 16x16), up
    /// to 35x35; blanks `.` `0` `-` `_` `*`.
    Hex1,
    /// Decimal numbers separated by whitespace, `0` (or `.`) blank.
    Numbers,
}

impl Symbols {
    /// The symbol written for value `v` (1-based).
    fn encode(self, v: u8) -> u8 {
        match self {
            Symbols::Digits | Symbols::Hex1 if v <= 9 => b'0' + v,
            Symbols::Hex1 => b'A' + v - 10,
            Symbols::Letters => b'A' + v - 1,
            Symbols::Hex0 if v <= 10 => b'0' + v - 1,
            Symbols::Hex0 => b'A' + v - 11,
            Symbols::Digits | Symbols::Numbers => b'0' + v,
        }
    }

    /// The bytes read as a blank, the usual one first.
    fn blanks(self) -> &'static [u8] {
        match self {
            Symbols::Digits | Symbols::Numbers => b".0_*",
            Symbols::Letters => b"-._*0",
            Symbols::Hex0 => b"-._*",
            Symbols::Hex1 => b".0-_*",
        }
    }

    /// The blank symbol `text` (a record's puzzle) uses, or the usual one.
    pub fn blank_in(self, text: &[u8]) -> u8 {
        let blanks = self.blanks();
        text.iter()
            .copied()
            .find(|b| blanks.contains(b))
            .unwrap_or(blanks[0])
    }

    /// Byte → value table: 0 blank, 1..=side a given, [`BAD`] otherwise.
    fn decode_table(self, side: usize) -> [u8; 256] {
        let mut t = [BAD; 256];
        let most = match self {
            Symbols::Digits | Symbols::Numbers => 9,
            Symbols::Letters => 26,
            Symbols::Hex1 => 35,
            Symbols::Hex0 => 36,
        };
        for v in 1..=side.min(most) as u8 {
            let s = self.encode(v);
            t[s as usize] = v;
            t[s.to_ascii_lowercase() as usize] = v;
        }
        for &b in self.blanks() {
            t[b as usize] = 0;
        }
        t
    }
}

const BAD: u8 = 0xFF;

/// How the records of a file are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One puzzle per line; text after the first whitespace is ignored.
    Line,
    /// `side` rows of `side` symbols, one row per line.
    Grid,
    /// `side` rows of `side` whitespace-separated numbers.
    Spaced,
    /// `side` rows of cells with decoration: `|` or `!` between boxes,
    /// spaces between cells, rule lines (`-------+-------`, `*-----*`)
    /// between bands. Answers reuse the record's own decoration.
    Boxed,
    /// One puzzle per line as `side * side` numbers separated by the byte
    /// held (space, tab or comma; runs of whitespace count as one).
    Numbers(u8),
    /// A delimited row (see [`CsvColumns`]).
    Csv(CsvColumns),
}

/// Where the puzzle and solution fields of one delimited row lie (byte
/// ranges of the row), from [`Layout::split_row`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowSplit {
    /// Fields in the row.
    fields: usize,
    /// The puzzle field's range, if the row reaches it.
    puzzle: Option<(usize, usize)>,
    /// The solution field's range, if the layout has one and the row
    /// reaches it.
    solution: Option<(usize, usize)>,
}

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

/// A file's layout: shape, grid size and symbols. Built by `detect`.
#[derive(Clone, Debug)]
pub struct Layout {
    /// How records are laid out.
    pub shape: Shape,
    /// Box shape (3x3 for 9x9, 4x4 for 16x16, 2x3 for 6x6), hence the size.
    pub boxes: Boxes,
    /// How cells are written.
    pub symbols: Symbols,
    decode: [u8; 256],
    /// 9x9 pencilmark lines (see [`Layout::pencilmarks`]).
    marks: bool,
}

/// One record of a chunk, not yet parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// A record starting at 1-based chunk line `line`; `raw` is its text (for
    /// grids, the rows with their newlines).
    Record {
        /// 1-based line within the chunk where the record starts.
        line: u64,
        /// The record's bytes.
        raw: &'a [u8],
    },
    /// An `end` line: nothing after it is read.
    End,
}

/// Iterates over the records of a chunk that starts at a record boundary.
pub struct Records<'a> {
    layout: &'a Layout,
    data: &'a [u8],
    pos: usize,
    line: u64,
    /// The last record ended because it was complete (row count reached, or a
    /// newline for one-line shapes), not because the data ran out.
    complete: bool,
    /// An `end` line was returned: nothing more.
    done: bool,
}

/// What one line holds, once line ending and surrounding whitespace are gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// Empty or a `#` comment: not a record.
    Skip,
    /// `end`: the judge-style end of input.
    End,
    /// Anything else, trimmed.
    Text(&'a [u8]),
}

/// Classifies one line (without its `\n`; a trailing `\r` is allowed).
pub fn classify_line(line: &[u8]) -> Line<'_> {
    let line = line.trim_ascii();
    if line.is_empty() || line[0] == b'#' {
        Line::Skip
    } else if line.eq_ignore_ascii_case(b"end") {
        Line::End
    } else {
        Line::Text(line)
    }
}

impl<'a> Records<'a> {
    /// Records of `data`, which must start at a record boundary.
    pub fn new(layout: &'a Layout, data: &'a [u8]) -> Records<'a> {
        Records {
            layout,
            data,
            pos: 0,
            line: 0,
            complete: true,
            done: false,
        }
    }

    /// A delimited row whose first field starts with `#` (an id such as
    /// `#1`) and that reaches the puzzle column: a record, not a comment
    /// (as a comment it was dropped without a word, and `check` passed a
    /// file of such rows with 0 records). A `#` line that cannot hold the
    /// puzzle column stays a comment; so does any when the puzzle is the
    /// first field, which a `#` cannot start.
    fn is_hash_row(&self, line: &[u8]) -> bool {
        let Shape::Csv(cols) = self.layout.shape else {
            return false;
        };
        let line = line.trim_ascii();
        cols.puzzle > 0
            && line.first() == Some(&b'#')
            && memchr::memchr_iter(cols.delim, line)
                .nth(cols.puzzle - 1)
                .is_some()
    }

    /// Byte offset just after the last record returned.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Lines consumed so far.
    pub fn lines(&self) -> u64 {
        self.line
    }

    fn next_line(&mut self) -> Option<(&'a [u8], bool)> {
        if self.pos >= self.data.len() {
            return None;
        }
        let rest = &self.data[self.pos..];
        self.line += 1;
        Some(match memchr::memchr(b'\n', rest) {
            Some(i) => {
                self.pos += i + 1;
                (&rest[..i], true)
            }
            None => {
                self.pos = self.data.len();
                (rest, false)
            }
        })
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        if self.done {
            return None;
        }
        let side = self.layout.boxes.side();
        // Find the first line of a record.
        let (first, start, start_line, ended) = loop {
            let start = self.pos;
            let (line, ended) = self.next_line()?;
            match classify_line(line) {
                Line::Skip if self.is_hash_row(line) => {
                    break (line.trim_ascii(), start, self.line, ended)
                }
                Line::Skip => continue,
                Line::End => {
                    self.complete = ended;
                    self.done = true;
                    return Some(Item::End);
                }
                Line::Text(t) => break (t, start, self.line, ended),
            }
        };
        match self.layout.shape {
            Shape::Line | Shape::Numbers(_) => {
                self.complete = ended;
                Some(Item::Record {
                    line: start_line,
                    raw: first,
                })
            }
            Shape::Csv(cols) => {
                // A quoted field may hold newlines: while one is open (as
                // [`walk_quotes`] reads quotes), the record goes on. A
                // quote still open after MAX_QUOTED_LINES lines, or at the
                // end of the data, is unterminated: the record is its first
                // line alone (parse reports it) and reading resumes after it.
                let mut open = quote_open_after(first, cols.delim, false);
                let mut spanned = 0;
                self.complete = ended;
                let after_first = (self.pos, self.line);
                while open {
                    if spanned == MAX_QUOTED_LINES {
                        (self.pos, self.line) = after_first;
                        self.complete = true;
                        return Some(Item::Record {
                            line: start_line,
                            raw: first,
                        });
                    }
                    spanned += 1;
                    let Some((line, ended)) = self.next_line() else {
                        (self.pos, self.line) = after_first;
                        self.complete = false;
                        return Some(Item::Record {
                            line: start_line,
                            raw: first,
                        });
                    };
                    open = quote_open_after(line, cols.delim, true);
                    self.complete = ended;
                }
                let raw = if spanned > 0 {
                    self.data[start..self.pos].trim_ascii()
                } else {
                    first
                };
                Some(Item::Record {
                    line: start_line,
                    raw,
                })
            }
            Shape::Boxed => {
                // Rule lines belong to the record around them and do not
                // count as rows; after the last row, following rule lines
                // (a bottom border) are taken too, so the record is only
                // known complete once a later line or the end is seen.
                let mut rows = usize::from(!is_rule(first));
                let mut end = self.pos;
                let mut bottom = false;
                loop {
                    let save = (self.pos, self.line);
                    let Some((line, ended)) = self.next_line() else {
                        self.complete = false;
                        break;
                    };
                    match classify_line(line) {
                        // One rule after the last row (a bottom border);
                        // a second is the next record's top border.
                        Line::Text(t) if is_rule(t) && !(rows == side && bottom) => {
                            bottom = rows == side;
                            end = self.pos;
                        }
                        Line::Text(_) if rows < side => {
                            rows += 1;
                            end = self.pos;
                        }
                        Line::Skip if rows < side => {
                            self.complete = ended;
                            break;
                        }
                        _ => {
                            // A full record followed by something else:
                            // leave that line for the next call.
                            (self.pos, self.line) = save;
                            self.complete = true;
                            break;
                        }
                    }
                }
                Some(Item::Record {
                    line: start_line,
                    raw: &self.data[start..end],
                })
            }
            Shape::Grid | Shape::Spaced => {
                // A grid ends after `side` rows, or early at a blank line,
                // comment or `end` (then parsing reports the short record).
                let mut rows = 1;
                let mut end = self.pos;
                self.complete = ended;
                while rows < side {
                    let save = (self.pos, self.line);
                    let Some((line, ended)) = self.next_line() else {
                        self.complete = false;
                        break;
                    };
                    match classify_line(line) {
                        Line::Text(_) => {
                            rows += 1;
                            end = self.pos;
                            self.complete = ended;
                        }
                        Line::End => {
                            // Leave `end` for the next call.
                            (self.pos, self.line) = save;
                            self.complete = true;
                            break;
                        }
                        Line::Skip => {
                            self.complete = ended;
                            break;
                        }
                    }
                }
                Some(Item::Record {
                    line: start_line,
                    raw: &self.data[start..end],
                })
            }
        }
    }
}

/// A rule line of a boxed grid: only `-`, `=`, `+`, `*`, `|`, `!` and
/// spaces, with at least one `-` or `=`.
pub fn is_rule(line: &[u8]) -> bool {
    line.iter().any(|&b| b == b'-' || b == b'=')
        && line.iter().all(|&b| {
            matches!(
                b,
                b'-' | b'=' | b'+' | b'*' | b'|' | b'!' | b' ' | b'\t' | b'\r'
            )
        })
}

/// Bytes of a boxed row that are decoration, not cells.
fn is_decoration(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'|' | b'!' | b'\r')
}

impl Layout {
    /// A layout; `decode` tables are built here once per run.
    pub fn new(shape: Shape, boxes: Boxes, symbols: Symbols) -> Layout {
        let side = boxes.side();
        Layout {
            shape,
            boxes,
            symbols,
            decode: symbols.decode_table(side),
            marks: false,
        }
    }

    /// 9x9 pencilmark (Sukaku) puzzles, one a line: 729 characters, 9 per
    /// cell in row-major order, character `k` of a cell the digit `k + 1`
    /// where that candidate is possible and `.` (or `0`) where it is
    /// eliminated (tdoku's convention). Records parse to
    /// [`solver::MARK_FLAGS`] flags; answers are 81-digit solution lines.
    pub fn pencilmarks() -> Layout {
        Layout {
            marks: true,
            ..Layout::new(Shape::Line, Boxes::NINE, Symbols::Digits)
        }
    }

    /// True for [`Layout::pencilmarks`].
    pub fn is_pencilmarks(&self) -> bool {
        self.marks
    }

    /// The one-line layout answers and generated puzzles of `boxes` grids
    /// are written in when no input layout says otherwise: digits up to
    /// 9x9, letters `A`.. up to 26x26 (as judge files write 16x16 and
    /// 25x25), `1`-`9` then letters up to 35x35, `0`-`9` then letters for
    /// 36x36, and space-separated numbers beyond.
    pub fn one_line(boxes: Boxes) -> Layout {
        let (shape, symbols) = match boxes.side() {
            0..=9 => (Shape::Line, Symbols::Digits),
            10..=26 => (Shape::Line, Symbols::Letters),
            27..=35 => (Shape::Line, Symbols::Hex1),
            36 => (Shape::Line, Symbols::Hex0),
            _ => (Shape::Numbers(b' '), Symbols::Numbers),
        };
        Layout::new(shape, boxes, symbols)
    }

    /// The one-line layout of `boxes` grids in `symbols` when given (the
    /// user's `--format` or `format=`), else in [`one_line`](Self::one_line)'s.
    pub fn one_line_in(boxes: Boxes, symbols: Option<Symbols>) -> Layout {
        match symbols {
            Some(s) => Layout::new(Shape::Line, boxes, s),
            None => Layout::one_line(boxes),
        }
    }

    /// Cells per record (pencilmark records: [`solver::MARK_FLAGS`]
    /// candidate flags).
    pub fn cells(&self) -> usize {
        if self.marks {
            return solver::MARK_FLAGS;
        }
        self.boxes.cells()
    }

    /// True when answers span several lines, so records are separated by an
    /// empty line in the output (none before the first or after the last).
    pub fn multiline(&self) -> bool {
        matches!(self.shape, Shape::Grid | Shape::Spaced | Shape::Boxed)
    }

    /// A record boundary at or after `target` in `data` (which starts at a
    /// boundary), or `None` if the data ends before one is certain (the
    /// caller then needs more data, or is at the end of input).
    pub fn cut(&self, data: &[u8], target: usize) -> Option<usize> {
        if matches!(self.shape, Shape::Line | Shape::Numbers(_)) {
            let i = memchr::memchr(b'\n', data.get(target.max(1) - 1..)?)?;
            return Some(target.max(1) + i);
        }
        if let Shape::Csv(_) = self.shape {
            // Only a quoted field makes a delimited record span lines: with
            // no quote before it, every newline ends a record (or a blank,
            // comment or `end` line). One search instead of walking every
            // record, which the chunker does on the writer's thread (258
            // instructions a row, 1% of a CSV run, callgrind).
            let end = target.max(1) + memchr::memchr(b'\n', data.get(target.max(1) - 1..)?)?;
            if memchr::memchr(b'"', &data[..end]).is_none() {
                return Some(end);
            }
        }
        let mut records = Records::new(self, data);
        while records.next().is_some() {
            // A record cut short by the end of the data may be longer in
            // the whole input: no cut can be trusted from here on.
            if !records.complete {
                return None;
            }
            if records.position() >= target {
                return Some(records.position());
            }
        }
        None
    }

    /// Parses a value that holds one puzzle (a Parquet or Arrow cell, a
    /// Python string) into `cells`: as [`parse`](Self::parse) parses a
    /// line (a comment may follow the puzzle), but a second line is an
    /// error (`\r` alone ends a line too), where parsing the first line
    /// alone would drop the rest.
    pub fn parse_value(&self, raw: &[u8], cells: &mut [u8]) -> Result<(), RecordError> {
        let raw = raw.trim_ascii();
        // A value of exactly the cells holds no line break the parse lets
        // pass (it is no symbol): the scan is for the others.
        if raw.len() != self.cells() {
            if let Some(i) = memchr::memchr2(b'\n', b'\r', raw) {
                let at = char_count(&raw[..i]) + 1;
                return Err(RecordError::LineBreak { at });
            }
        }
        self.parse(raw, cells)
    }

    /// Parses a record's text into `cells` (`self.cells()` long).
    pub fn parse(&self, raw: &[u8], cells: &mut [u8]) -> Result<(), RecordError> {
        let n = self.cells();
        if self.marks {
            return parse_marks(first_token(raw), cells).and_then(|()| cr_line_end(raw, n));
        }
        match self.shape {
            Shape::Line => {
                // Fast path for the common record, exactly the cells and then
                // the end or whitespace: whitespace decodes to BAD, so one
                // clean decode proves the record needs no token scan (the
                // scan and decode together were 4% of `solve` on 17-clue
                // lines, callgrind). Anything else takes the checked path,
                // which also names the error.
                if let Some(head) = raw.get(..n) {
                    if raw.get(n).is_none_or(u8::is_ascii_whitespace)
                        && self.decode_run(head, cells)
                    {
                        return cr_line_end(raw, n);
                    }
                }
                let token = first_token(raw);
                self.parse_run(token, n, 0, cells)?;
                cr_line_end(raw, n)
            }
            Shape::Csv(cols) => {
                if let Some(split) = self.split_row(raw) {
                    return self.parse_split(raw, Some(&split), cells);
                }
                // A row that goes on after a bare `\r` is two rows (old Mac
                // line ends), whichever field the CR is in: a bad record
                // named so. Else the second row's puzzle was lost without a
                // word when the CR fell in a field beside the puzzle (or
                // the csv reader, which ends a record at a `\r`, read the
                // first row alone).
                if let Some(at) = csv_bare_cr(raw, cols.delim) {
                    return Err(RecordError::LineBreak { at });
                }
                let field = csv_field(raw, cols)?;
                self.parse_field(field.trim_ascii(), n, cells)
            }
            Shape::Numbers(_) => self.parse_numbers(raw, n, cells),
            Shape::Boxed => {
                let side = self.boxes.side();
                let mut rows = 0;
                for row in raw.split(|&b| b == b'\n').map(<[u8]>::trim_ascii) {
                    if row.is_empty() || is_rule(row) {
                        continue;
                    }
                    if rows == side {
                        return Err(RecordError::WrongRows {
                            expected: side,
                            found: rows + 1,
                        });
                    }
                    let mut k = 0;
                    for &b in row.iter().filter(|&&b| !is_decoration(b)) {
                        if k < side {
                            let v = self.decode[b as usize];
                            if v == BAD {
                                return Err(RecordError::BadChar {
                                    cell: rows * side + k + 1,
                                    ch: Shown(b),
                                });
                            }
                            cells[rows * side + k] = v;
                        }
                        k += 1;
                    }
                    if k != side {
                        return Err(RecordError::WrongRowLength {
                            row: rows + 1,
                            expected: side,
                            found: k,
                        });
                    }
                    rows += 1;
                }
                check_rows(rows, side)
            }
            Shape::Grid => {
                let side = self.boxes.side();
                let mut rows = 0;
                for row in raw.split(|&b| b == b'\n').map(<[u8]>::trim_ascii) {
                    if row.is_empty() {
                        continue;
                    }
                    let row = first_token(row);
                    if row.len() != side {
                        return Err(RecordError::WrongRowLength {
                            row: rows + 1,
                            expected: side,
                            found: row.len(),
                        });
                    }
                    self.parse_run(row, side, rows * side, &mut cells[rows * side..])?;
                    rows += 1;
                }
                check_rows(rows, side)
            }
            Shape::Spaced => {
                let side = self.boxes.side();
                let mut rows = 0;
                for row in raw.split(|&b| b == b'\n').map(<[u8]>::trim_ascii) {
                    if row.is_empty() {
                        continue;
                    }
                    let mut k = 0;
                    for token in row.split(u8::is_ascii_whitespace).filter(|t| !t.is_empty()) {
                        let cell = rows * side + k;
                        if k == side {
                            return Err(RecordError::WrongRowLength {
                                row: rows + 1,
                                expected: side,
                                found: row
                                    .split(u8::is_ascii_whitespace)
                                    .filter(|t| !t.is_empty())
                                    .count(),
                            });
                        }
                        cells[cell] =
                            parse_number(token, side).ok_or_else(|| RecordError::BadNumber {
                                cell: cell + 1,
                                token: quote(token),
                            })?;
                        k += 1;
                    }
                    if k != side {
                        return Err(RecordError::WrongRowLength {
                            row: rows + 1,
                            expected: side,
                            found: k,
                        });
                    }
                    rows += 1;
                }
                check_rows(rows, side)
            }
        }
    }

    /// The fields of record `raw` when it is a delimited row that holds no
    /// quote and no `\r` (the common row: the csv reader would read it as
    /// the byte slices between delimiters), found in one pass; `None` for
    /// other rows and shapes, which take the checked paths.
    #[inline]
    pub fn split_row(&self, raw: &[u8]) -> Option<RowSplit> {
        let Shape::Csv(cols) = self.shape else {
            return None;
        };
        let mut split = RowSplit {
            fields: 1,
            puzzle: None,
            solution: None,
        };
        let mut start = 0;
        let mut take = |split: &mut RowSplit, end: usize| {
            let k = split.fields - 1;
            if k == cols.puzzle {
                split.puzzle = Some((start, end));
            }
            if Some(k) == cols.solution {
                split.solution = Some((start, end));
            }
            start = end + 1;
        };
        // One search for all three bytes: parse, label and write each
        // searched the row two or three times (1,000 instructions a row
        // on Kaggle-style rows, callgrind).
        for i in memchr::memchr3_iter(cols.delim, b'"', b'\r', raw) {
            if raw[i] != cols.delim {
                return None;
            }
            take(&mut split, i);
            split.fields += 1;
        }
        take(&mut split, raw.len());
        Some(split)
    }

    /// [`parse`](Self::parse) of a record [`split_row`](Self::split_row)
    /// split (`None`: as `parse`).
    #[inline]
    pub fn parse_split(
        &self,
        raw: &[u8],
        split: Option<&RowSplit>,
        cells: &mut [u8],
    ) -> Result<(), RecordError> {
        let (Some(split), Shape::Csv(cols)) = (split, self.shape) else {
            return self.parse(raw, cells);
        };
        match split.puzzle {
            Some((a, b)) => self.parse_field(raw[a..b].trim_ascii(), self.cells(), cells),
            None => Err(RecordError::MissingField {
                column: cols.puzzle + 1,
                found: split.fields,
            }),
        }
    }

    /// [`label`](Self::label) of a record [`split_row`](Self::split_row)
    /// split (`None`: as `label`).
    #[inline]
    pub fn label_split<'c>(
        &self,
        raw: &[u8],
        split: Option<&RowSplit>,
        cells: &'c mut [u8],
    ) -> Label<'c> {
        let (
            Some(split),
            Shape::Csv(CsvColumns {
                solution: Some(_), ..
            }),
        ) = (split, self.shape)
        else {
            return self.label(raw, cells);
        };
        match split.solution {
            Some((a, b)) => self.label_field(&raw[a..b], cells),
            // A short row has no label yet: it gets one.
            None => Label::Empty,
        }
    }

    /// The label a solution field's text gives.
    fn label_field<'c>(&self, field: &[u8], cells: &'c mut [u8]) -> Label<'c> {
        let field = field.trim_ascii();
        if field.is_empty() || field.eq_ignore_ascii_case(b"null") {
            return Label::Empty;
        }
        let n = self.cells();
        match self.parse_field(field, n, cells) {
            Ok(()) if cells[..n].iter().all(|&c| c == 0) => Label::Empty,
            Ok(()) => Label::Cells(&cells[..n]),
            Err(e) => Label::Unreadable(e.to_string()),
        }
    }

    /// [`write_answer`](Self::write_answer) for a record
    /// [`split_row`](Self::split_row) split (`None`: as `write_answer`).
    #[inline]
    pub fn write_answer_split(
        &self,
        raw: &[u8],
        split: Option<&RowSplit>,
        answer: &[u8],
        out: &mut Vec<u8>,
    ) {
        let (Some(split), Shape::Csv(cols)) = (split, self.shape) else {
            return self.write_answer(raw, answer, out);
        };
        let d = cols.delim;
        match (cols.solution, split.solution) {
            (None, _) => {
                out.extend_from_slice(raw);
                out.push(d);
            }
            (Some(_), Some((a, _))) => out.extend_from_slice(&raw[..a]),
            (Some(s), None) => {
                // Empty fields up to the solution's.
                out.extend_from_slice(raw);
                out.extend(std::iter::repeat_n(d, s + 1 - split.fields));
            }
        }
        self.put_answer(answer, out);
        if let (Some(_), Some((_, b))) = (cols.solution, split.solution) {
            out.extend_from_slice(&raw[b..]);
        }
        out.push(b'\n');
    }

    /// Appends an answer as a CSV field holds it: numbers, space-separated,
    /// as the puzzle field holds them; else one symbol a cell.
    fn put_answer(&self, answer: &[u8], out: &mut Vec<u8>) {
        if self.symbols == Symbols::Numbers {
            write_numbers(answer, b' ', out);
        } else {
            self.write_symbols(answer, out);
        }
    }

    /// Decodes N*N numbers separated by spaces or commas (`0` blank).
    fn parse_numbers(&self, raw: &[u8], n: usize, cells: &mut [u8]) -> Result<(), RecordError> {
        let mut k = 0;
        for token in raw
            .split(|&b| b == b',' || b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
        {
            if k == n {
                return Err(RecordError::WrongLength {
                    expected: n,
                    found: count_numbers(raw),
                });
            }
            cells[k] =
                parse_number(token, self.boxes.side()).ok_or_else(|| RecordError::BadNumber {
                    cell: k + 1,
                    token: quote(token),
                })?;
            k += 1;
        }
        if k == n {
            Ok(())
        } else {
            Err(RecordError::WrongLength {
                expected: n,
                found: k,
            })
        }
    }

    /// Decodes a whole puzzle held in one CSV field: numbers when the
    /// layout's symbols are numbers (grids past 36x36 have no
    /// one-character form), else one symbol a cell.
    fn parse_field(&self, field: &[u8], n: usize, cells: &mut [u8]) -> Result<(), RecordError> {
        if self.symbols == Symbols::Numbers {
            self.parse_numbers(field, n, cells)
        } else {
            self.parse_run(field, n, 0, cells)
        }
    }

    fn parse_run(
        &self,
        token: &[u8],
        expected: usize,
        offset: usize,
        cells: &mut [u8],
    ) -> Result<(), RecordError> {
        if token.len() != expected {
            // Bytes are not characters past ASCII (`é` is two): the first
            // such byte is the error, not a length it distorts.
            if let Some(i) = token.iter().position(|b| !b.is_ascii()) {
                return Err(RecordError::BadChar {
                    cell: offset + i + 1,
                    ch: Shown(token[i]),
                });
            }
            return Err(RecordError::WrongLength {
                expected,
                found: token.len(),
            });
        }
        if !self.decode_run(token, cells) {
            let i = cells[..expected]
                .iter()
                .position(|&c| c == BAD)
                .unwrap_or(0);
            return Err(RecordError::BadChar {
                cell: offset + i + 1,
                ch: Shown(token[i]),
            });
        }
        Ok(())
    }

    /// Decodes `token` into the first `token.len()` cells; false when some
    /// symbol is not a cell (those cells then hold `BAD`).
    #[inline]
    fn decode_run(&self, token: &[u8], cells: &mut [u8]) -> bool {
        let mut bad = 0u8;
        for (c, &b) in cells.iter_mut().zip(token) {
            *c = self.decode[b as usize];
            bad |= *c;
        }
        // Only BAD (0xFF) has the top bit set: one test covers the run.
        bad & 0x80 == 0
    }

    /// The error for a puzzle the solver found no solution to: clashing
    /// givens (named by cell) or a plain dead end.
    pub fn no_solution(&self, cells: &[u8]) -> RecordError {
        let side = self.boxes.side();
        match solver::find_conflict(self.boxes, cells) {
            Some(c) => RecordError::Duplicate {
                digit: match self.symbols {
                    Symbols::Numbers => c.digit.to_string(),
                    s => char::from(s.encode(c.digit)).to_string(),
                },
                first: CellName::new(c.first, side),
                second: CellName::new(c.second, side),
            },
            None => RecordError::NoSolution,
        }
    }

    /// Appends the answer to record `raw` in the record's layout.
    pub fn write_answer(&self, raw: &[u8], answer: &[u8], out: &mut Vec<u8>) {
        let side = self.boxes.side();
        // A pencilmark puzzle's answer is its solution grid.
        let answer = if self.marks { &answer[..81] } else { answer };
        match self.shape {
            Shape::Line => self.write_run(answer, out),
            Shape::Grid => {
                for row in answer.chunks(side) {
                    self.write_run(row, out);
                }
            }
            Shape::Spaced => {
                for row in answer.chunks(side) {
                    write_numbers(row, b' ', out);
                    out.push(b'\n');
                }
            }
            Shape::Numbers(delim) => {
                write_numbers(answer, delim, out);
                out.push(b'\n');
            }
            Shape::Boxed => {
                // The record's own text with each cell symbol replaced in
                // order: separators, rules and indentation stay as they were.
                let mut cells = answer.iter();
                for row in raw.split_inclusive(|&b| b == b'\n') {
                    let row = row.strip_suffix(b"\n").unwrap_or(row);
                    let row = row.strip_suffix(b"\r").unwrap_or(row);
                    let keep = row.trim_ascii().is_empty() || is_rule(row.trim_ascii());
                    for &b in row {
                        if keep || is_decoration(b) {
                            out.push(b);
                        } else {
                            out.push(cells.next().map_or(b, |&v| self.symbols.encode(v)));
                        }
                    }
                    out.push(b'\n');
                }
            }
            Shape::Csv(cols) => {
                // An answer holds no quote, so a row without quotes is
                // spliced in place, with no copy of the answer (a Vec a row
                // and a branch a cell were 1,900 instructions a row, 8% of
                // a CSV run, callgrind).
                let put = |out: &mut Vec<u8>| self.put_answer(answer, out);
                let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                if memchr::memchr(b'"', line).is_none() {
                    splice_csv_field(line, cols, out, put);
                } else {
                    let mut text = Vec::with_capacity(answer.len() * 3);
                    put(&mut text);
                    write_csv_row(raw, cols, &text, out);
                }
            }
        }
    }

    /// Appends record `raw` unchanged (its existing label was kept), with
    /// the line end the other answers get.
    pub fn write_kept(&self, raw: &[u8], out: &mut Vec<u8>) {
        out.extend_from_slice(raw.strip_suffix(b"\r").unwrap_or(raw));
        out.push(b'\n');
    }

    /// True when records may hold a label (a delimited solution field).
    #[inline]
    pub fn has_labels(&self) -> bool {
        matches!(
            self.shape,
            Shape::Csv(CsvColumns {
                solution: Some(_),
                ..
            })
        )
    }

    /// The label (existing solution) of record `raw`, decoded into `cells`
    /// when there is one. Only delimited rows with a solution field have
    /// labels.
    pub fn label<'c>(&self, raw: &[u8], cells: &'c mut [u8]) -> Label<'c> {
        let Shape::Csv(cols) = self.shape else {
            return Label::Absent;
        };
        let Some(sol) = cols.solution else {
            return Label::Absent;
        };
        let field = match csv_field(
            raw,
            CsvColumns {
                puzzle: sol,
                ..cols
            },
        ) {
            Ok(f) => f,
            // A short row has no label yet: it gets one.
            Err(RecordError::MissingField { .. }) => return Label::Empty,
            Err(e) => return Label::Unreadable(e.to_string()),
        };
        self.label_field(&field, cells)
    }

    /// Appends `cells` in this layout's symbols, `blank` for 0, no line end
    /// (one-line form; used to write generated puzzles). A numbers layout
    /// (sides past 36) writes space-separated numbers, `0` for a blank.
    pub fn write_cells(&self, cells: &[u8], blank: u8, out: &mut Vec<u8>) {
        if self.symbols == Symbols::Numbers {
            // Sides past 36 have no symbol per value: numbers, `0` blank.
            write_numbers(cells, b' ', out);
            return;
        }
        out.extend(cells.iter().map(|&v| {
            if v == 0 {
                blank
            } else {
                self.symbols.encode(v)
            }
        }));
    }

    fn write_run(&self, cells: &[u8], out: &mut Vec<u8>) {
        self.write_symbols(cells, out);
        out.push(b'\n');
    }

    /// Appends `cells` (values 1 and up) in this layout's symbols, no
    /// line end.
    #[inline]
    fn write_symbols(&self, cells: &[u8], out: &mut Vec<u8>) {
        if self.symbols == Symbols::Digits {
            // One add per byte, which LLVM vectorises; the general encode
            // below branches per cell (3% of `solve` on 17-clue lines).
            let start = out.len();
            out.extend_from_slice(cells);
            for b in &mut out[start..] {
                *b += b'0';
            }
        } else {
            out.extend(cells.iter().map(|&v| self.symbols.encode(v)));
        }
    }

    /// Appends what an [`Analysis`] gave for record `raw`: the output
    /// `grid` (when it makes one) and its `fields`. One-line text writes the
    /// puzzle's line (when the analysis keeps it) or the grid, then the
    /// fields joined by [`Analysis::line_join`]; grids of several lines
    /// write the grid, or the fields on one line; delimited rows get the
    /// grid (in the puzzle's symbols) and the fields as added columns.
    pub fn write_analysed(
        &self,
        raw: &[u8],
        analysis: &dyn Analysis,
        grid: &[u8],
        fields: &[String],
        out: &mut Vec<u8>,
    ) {
        let has_grid = analysis.grid_column().is_some();
        match self.shape {
            Shape::Csv(cols) => {
                let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                out.extend_from_slice(line);
                if has_grid {
                    out.push(cols.delim);
                    let field = csv_field(line, cols).unwrap_or(Cow::Borrowed(b""));
                    let mut text = Vec::with_capacity(grid.len());
                    self.write_cells(grid, self.symbols.blank_in(&field), &mut text);
                    push_field(&text, cols.delim, out);
                }
                for f in fields {
                    out.push(cols.delim);
                    push_field(f.as_bytes(), cols.delim, out);
                }
                out.push(b'\n');
            }
            _ => {
                let joined = fields.join(analysis.line_join());
                if analysis.keeps_puzzle() && !self.multiline() {
                    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                    out.extend_from_slice(line);
                } else if has_grid && self.shape == Shape::Line {
                    self.write_cells(grid, self.symbols.blank_in(raw), out);
                } else if has_grid {
                    // Grids of several lines: written as the puzzle was
                    // (fields are refused for them before the run).
                    let start = out.len();
                    self.write_answer(raw, grid, out);
                    let blank = self.symbols.blank_in(raw);
                    let zero = self.symbols.encode(0);
                    if matches!(self.shape, Shape::Grid | Shape::Boxed) && blank != zero {
                        // `write_answer` encodes a blank as value 0's
                        // byte, never a symbol of a given.
                        for b in &mut out[start..] {
                            if *b == zero {
                                *b = blank;
                            }
                        }
                    }
                    return;
                }
                if !joined.is_empty() {
                    if !out.is_empty() && out.last() != Some(&b'\n') {
                        out.push(b' ');
                    }
                    out.extend_from_slice(joined.as_bytes());
                }
                out.push(b'\n');
            }
        }
    }

    /// Appends the marked record of a bad record under an [`Analysis`]:
    /// `error: REASON` on its own line, or, for delimited rows, the row
    /// with the mark in the first added column and the others empty.
    pub fn write_analysis_error(
        &self,
        raw: &[u8],
        analysis: &dyn Analysis,
        err: &RecordError,
        out: &mut Vec<u8>,
    ) {
        match self.shape {
            Shape::Csv(cols) if *err != RecordError::RunOnQuote => {
                let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                out.extend_from_slice(line);
                let added =
                    analysis.columns().len() + usize::from(analysis.grid_column().is_some());
                let mark = format!("error: {err}");
                for k in 0..added {
                    out.push(cols.delim);
                    if k == 0 {
                        push_field(mark.as_bytes(), cols.delim, out);
                    }
                }
                out.push(b'\n');
            }
            _ => {
                let _ = writeln!(out, "error: {err}");
            }
        }
    }

    /// Appends the marked line of a bad record. It starts with `error:`, so it
    /// can never be read as a solution. For CSV, the row is kept and the
    /// solution field holds the mark.
    pub fn write_error(&self, raw: &[u8], err: &RecordError, out: &mut Vec<u8>) {
        match self.shape {
            // An unterminated quote would make the row unparseable again.
            Shape::Csv(_) if *err == RecordError::RunOnQuote => {
                let _ = writeln!(out, "error: {err}");
            }
            Shape::Csv(cols) => {
                let mark = format!("error: {err}");
                write_csv_row(raw, cols, mark.as_bytes(), out)
            }
            _ => {
                let _ = writeln!(out, "error: {err}");
            }
        }
    }
}

/// Appends `cells` as decimal numbers with `sep` between them.
fn write_numbers(cells: &[u8], sep: u8, out: &mut Vec<u8>) {
    for (k, &v) in cells.iter().enumerate() {
        if k > 0 {
            out.push(sep);
        }
        let _ = write!(out, "{v}");
    }
}

/// `Ok` unless the one-line record `raw` (whose puzzle of `n` cells
/// parsed) goes on after a `\r`: lines ended by `\r` alone (old Mac
/// files) are one record to the `\n` cut, and reading its first puzzle
/// would drop the others without a word. Text after the puzzle on its own
/// line (a comment, a rating) stays allowed; only longer records scan.
fn cr_line_end(raw: &[u8], n: usize) -> Result<(), RecordError> {
    // The length first: the common record (the cells, maybe `\r`) never
    // scans.
    if raw.len() > n + 1 {
        if let Some(at) = cr_before_text(raw) {
            return Err(RecordError::LineBreak { at });
        }
    }
    Ok(())
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
fn csv_bare_cr(row: &[u8], delim: u8) -> Option<usize> {
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

/// A pencilmark line ([`Layout::pencilmarks`]) into [`solver::MARK_FLAGS`]
/// flags; a character other than `.`, `0` or its own digit is an error
/// naming the cell.
fn parse_marks(token: &[u8], flags: &mut [u8]) -> Result<(), RecordError> {
    if token.len() != solver::MARK_FLAGS {
        return Err(RecordError::WrongLength {
            expected: solver::MARK_FLAGS,
            found: char_count(token),
        });
    }
    for (j, (&b, f)) in token.iter().zip(flags.iter_mut()).enumerate() {
        *f = match b {
            b'.' | b'0' => 0,
            _ if b == b'1' + (j % 9) as u8 => 1,
            _ => {
                return Err(RecordError::BadChar {
                    cell: j / 9 + 1,
                    ch: Shown(b),
                })
            }
        };
    }
    Ok(())
}

/// True when `token` is a pencilmark line ([`Layout::pencilmarks`]).
pub fn is_marks_line(token: &[u8]) -> bool {
    token.len() == solver::MARK_FLAGS
        && token
            .iter()
            .enumerate()
            .all(|(j, &b)| b == b'.' || b == b'0' || b == b'1' + (j % 9) as u8)
}

fn check_rows(rows: usize, side: usize) -> Result<(), RecordError> {
    if rows == side {
        Ok(())
    } else {
        Err(RecordError::WrongRows {
            expected: side,
            found: rows,
        })
    }
}

/// The text up to the first whitespace.
fn first_token(line: &[u8]) -> &[u8] {
    let line = line.trim_ascii_start();
    let end = line
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(line.len());
    &line[..end]
}

/// A decimal number in `0..=side` (`.` and `-` also mean blank).
fn parse_number(token: &[u8], side: usize) -> Option<u8> {
    if token == b"." || token == b"-" {
        return Some(0);
    }
    if token.is_empty() || token.len() > 2 || !token.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v = token
        .iter()
        .fold(0usize, |a, &d| a * 10 + (d - b'0') as usize);
    (v <= side).then_some(v as u8)
}

/// Numbers in a line, separated by whitespace or commas.
fn count_numbers(raw: &[u8]) -> usize {
    raw.split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .count()
}

/// The puzzle field (`cols.puzzle`) of a delimited line. Plain fields are
/// sliced directly; a line with quotes goes through the csv reader (rare,
/// and slower).
fn csv_field(line: &[u8], cols: CsvColumns) -> Result<Cow<'_, [u8]>, RecordError> {
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

fn parse_csv_record(line: &[u8], delim: u8) -> Result<csv::ByteRecord, RecordError> {
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

/// Appends one CSV field, quoted when it must be (delimiter, quote, CR or
/// LF inside), quotes doubled. Linear in the field: the csv crate's writer
/// took 61 s on a 200 MB quoted multi-line field (issue 14).
fn push_field(field: &[u8], delim: u8, out: &mut Vec<u8>) {
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
fn splice_csv_field(
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
fn write_csv_row(line: &[u8], cols: CsvColumns, value: &[u8], out: &mut Vec<u8>) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line9() -> Layout {
        Layout::new(Shape::Line, Boxes::square(3), Symbols::Digits)
    }

    #[test]
    fn classify_handles_comments_end_and_crlf() {
        assert_eq!(classify_line(b""), Line::Skip);
        assert_eq!(classify_line(b"  \r"), Line::Skip);
        assert_eq!(classify_line(b"# rated 11.2"), Line::Skip);
        assert_eq!(classify_line(b"end\r"), Line::End);
        assert_eq!(classify_line(b"END"), Line::End);
        assert_eq!(classify_line(b" 12.3 x\r"), Line::Text(b"12.3 x"));
    }

    #[test]
    fn line_parse_accepts_blank_markers_and_names_bad_cells() {
        let l = line9();
        let mut line = [b'.'; 81];
        line[0] = b'0';
        line[1] = b'_';
        line[2] = b'*';
        line[3] = b'9';
        let mut cells = [7u8; 81];
        l.parse(&line, &mut cells).unwrap();
        assert_eq!(&cells[..5], &[0, 0, 0, 9, 0]);
        assert_eq!(cells.iter().filter(|&&c| c != 0).count(), 1);
        line[16] = b'x';
        assert_eq!(
            l.parse(&line, &mut cells).unwrap_err().to_string(),
            "cell 17: invalid character 'x'"
        );
        line[16] = 0xC3;
        assert_eq!(
            l.parse(&line, &mut cells).unwrap_err().to_string(),
            "cell 17: invalid character '\\xc3'"
        );
        // Of the wrong length too: bytes past ASCII are no count of cells.
        assert_eq!(
            l.parse(&line[..80], &mut cells).unwrap_err().to_string(),
            "cell 17: invalid character '\\xc3'"
        );
        line[16] = b'.';
        assert_eq!(
            l.parse(&line[..80], &mut cells).unwrap_err().to_string(),
            "expected 81 cells, found 80"
        );
    }

    /// The fast path for clean 81-cell lines and the checked path agree on
    /// every neighbour of the common case.
    #[test]
    fn line_parse_edges_around_the_fast_path() {
        let l = line9();
        let digits: Vec<u8> = (0..81).map(|i| b'1' + (i % 9) as u8).collect();
        let mut cells = [0u8; 81];
        let with = |tail: &[u8]| [&digits[..], tail].concat();
        for ok in [with(b""), with(b"\r"), with(b" rated 9.1"), with(b"\t#c")] {
            cells.fill(0);
            l.parse(&ok, &mut cells).unwrap();
            assert!(cells.iter().zip(&digits).all(|(&c, &d)| c == d - b'0'));
        }
        let lead = [b"  ".as_slice(), &digits].concat();
        cells.fill(0);
        l.parse(&lead, &mut cells).unwrap();
        assert_eq!(cells[80], 9);
        assert_eq!(
            l.parse(&with(b"5"), &mut cells).unwrap_err().to_string(),
            "expected 81 cells, found 82"
        );
        assert_eq!(
            l.parse(&with(b"x y"), &mut cells).unwrap_err().to_string(),
            "expected 81 cells, found 82"
        );
        let mut bad = digits.clone();
        bad[80] = b' ';
        assert_eq!(
            l.parse(&bad, &mut cells).unwrap_err().to_string(),
            "expected 81 cells, found 80"
        );
        bad[80] = b'a';
        assert_eq!(
            l.parse(&bad, &mut cells).unwrap_err().to_string(),
            "cell 81: invalid character 'a'"
        );
    }

    #[test]
    fn symbols_round_trip() {
        for (sym, side) in [
            (Symbols::Digits, 9),
            (Symbols::Letters, 16),
            (Symbols::Letters, 25),
            (Symbols::Hex0, 16),
            (Symbols::Hex1, 16),
        ] {
            let t = sym.decode_table(side);
            for v in 1..=side as u8 {
                assert_eq!(t[sym.encode(v) as usize], v, "{sym:?} {v}");
            }
            let symbols: std::collections::HashSet<u8> =
                (1..=side as u8).map(|v| sym.encode(v)).collect();
            assert_eq!(symbols.len(), side);
        }
        assert_eq!(Symbols::Hex0.encode(1), b'0');
        assert_eq!(Symbols::Hex0.encode(16), b'F');
        assert_eq!(Symbols::Hex1.encode(16), b'G');
        assert_eq!(Symbols::Letters.encode(16), b'P');
    }

    #[test]
    fn grid_records_end_after_side_rows_or_at_a_blank_line() {
        let l = Layout::new(Shape::Grid, Boxes::square(2), Symbols::Digits);
        let data = b"1234\n3412\n2143\n4321\n1...\n\n# c\n.2..\n..3.\n...4\n4...\nend\n12";
        let items: Vec<Item> = Records::new(&l, data).collect();
        assert_eq!(items.len(), 4);
        assert_eq!(
            items[0],
            Item::Record {
                line: 1,
                raw: b"1234\n3412\n2143\n4321\n"
            }
        );
        assert_eq!(
            items[1],
            Item::Record {
                line: 5,
                raw: b"1...\n"
            }
        );
        assert_eq!(
            items[2],
            Item::Record {
                line: 8,
                raw: b".2..\n..3.\n...4\n4...\n"
            }
        );
        assert_eq!(items[3], Item::End);
        let mut cells = [0u8; 16];
        if let Item::Record { raw, .. } = items[1] {
            assert_eq!(
                l.parse(raw, &mut cells).unwrap_err().to_string(),
                "expected 4 rows, found 1"
            );
        }
        // Cuts fall only after whole records.
        assert_eq!(l.cut(data, 1), Some(20));
        assert_eq!(l.cut(data, 21), Some(26));
        assert_eq!(l.cut(&data[..18], 1), None);
    }

    #[test]
    fn spaced_rows_parse_numbers_and_write_back() {
        let l = Layout::new(Shape::Spaced, Boxes::square(2), Symbols::Numbers);
        let raw = b"1 0 3 4\n3 4 1 2\n2 . 4 3\n4 3 2 1\n";
        let mut cells = [0u8; 16];
        l.parse(raw, &mut cells).unwrap();
        assert_eq!(&cells[..4], &[1, 0, 3, 4]);
        assert_eq!(cells[9], 0);
        let answer = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut out = Vec::new();
        l.write_answer(raw, &answer, &mut out);
        assert_eq!(out, b"1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n");
        let bad = b"1 0 3 4\n3 4 1 2\n2 . 9 3\n4 3 2 1\n";
        assert_eq!(
            l.parse(bad, &mut cells).unwrap_err().to_string(),
            "cell 11: invalid number \"9\""
        );
        let short = b"1 0 3 4\n3 4 1\n2 . 4 3\n4 3 2 1\n";
        assert_eq!(
            l.parse(short, &mut cells).unwrap_err().to_string(),
            "row 2: expected 4 cells, found 3"
        );
    }

    #[test]
    fn csv_rows_keep_other_fields() {
        let cols = CsvColumns {
            puzzle: 1,
            solution: Some(2),
            delim: b',',
        };
        let mut out = Vec::new();
        write_csv_row(b"7,12.4,,3,easy\r", cols, b"1234", &mut out);
        assert_eq!(out, b"7,12.4,1234,3,easy\n");
        out.clear();
        let append = CsvColumns {
            puzzle: 0,
            solution: None,
            delim: b',',
        };
        write_csv_row(b"12.4,\"a, b\"", append, b"1234", &mut out);
        assert_eq!(out, b"12.4,\"a, b\",1234\n");
        assert_eq!(
            &*csv_field(
                b"x,\"12.4\",y",
                CsvColumns {
                    puzzle: 1,
                    solution: None,
                    delim: b','
                }
            )
            .unwrap(),
            b"12.4"
        );
        assert_eq!(
            csv_field(
                b"x",
                CsvColumns {
                    puzzle: 1,
                    solution: None,
                    delim: b','
                }
            )
            .unwrap_err()
            .to_string(),
            "CSV row has 1 fields, the puzzle is in field 2"
        );
    }

    #[test]
    fn csv_records_span_quoted_newlines() {
        let cols = CsvColumns {
            puzzle: 1,
            solution: None,
            delim: b',',
        };
        let l = Layout::new(Shape::Csv(cols), Boxes::square(2), Symbols::Digits);
        let data = b"1,12.4............,\"a\nb \"\"c\"\"\"\n2,43.1,x\n";
        let items: Vec<Item> = Records::new(&l, data).collect();
        assert_eq!(
            items,
            vec![
                Item::Record {
                    line: 1,
                    raw: b"1,12.4............,\"a\nb \"\"c\"\"\""
                },
                Item::Record {
                    line: 3,
                    raw: b"2,43.1,x"
                }
            ]
        );
        assert_eq!(l.cut(data, 1), Some(31));
        let mut cells = [0u8; 16];
        let Item::Record { raw, .. } = items[0] else {
            unreachable!()
        };
        l.parse(raw, &mut cells).unwrap();
        assert_eq!(&cells[..4], &[1, 2, 0, 4]);
        let mut out = Vec::new();
        let answer = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        l.write_answer(raw, &answer, &mut out);
        assert_eq!(
            out,
            b"1,12.4............,\"a\nb \"\"c\"\"\",1234341221434321\n"
        );
    }

    #[test]
    fn duplicate_names_cells_by_row_and_column() {
        let l = line9();
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[80] = 5;
        cells[8] = 5;
        assert_eq!(
            l.no_solution(&cells).to_string(),
            "duplicate given 5 at r1c1 and r1c9"
        );
        let mut out = Vec::new();
        l.write_error(b"", &RecordError::NoSolution, &mut out);
        assert_eq!(out, b"error: no solution\n");
    }

    #[test]
    fn one_line_cells_of_every_side_read_back() {
        // Past 36x36 there is one symbol per value no longer: numbers.
        for side in [4, 6, 9, 16, 25, 35, 36, 38, 49, 64] {
            let layout = Layout::one_line(Boxes::for_side(side).unwrap());
            let cells: Vec<u8> = (0..side * side).map(|i| (i % (side + 1)) as u8).collect();
            let mut text = Vec::new();
            layout.write_cells(&cells, b'.', &mut text);
            let mut back = vec![0u8; side * side];
            layout.parse_value(&text, &mut back).unwrap();
            assert_eq!(back, cells, "{side}: {}", text.escape_ascii());
            if side > 36 {
                assert!(text.starts_with(b"0 1 2 3 "), "{side}");
            }
        }
    }

    #[test]
    fn quotes_open_only_at_a_field_start() {
        let open = |t: &str, o| quote_open_after(t.as_bytes(), b',', o);
        // A quote inside an unquoted field is a character.
        assert!(!open(r#"1,5" tall"#, false));
        assert!(!open(r#"1,x"y,"a,b""#, false));
        // At a field start it opens one; "" inside keeps it open.
        assert!(open(r#"1,"two"#, false));
        assert!(open(r#"1,"a""b"#, false));
        assert!(!open(r#"1,"a""b""#, false));
        assert!(!open(r#""a"b"c,d"#, false));
        // Carried over a line: a lone quote closes it, a field may follow.
        assert!(!open(r#"lines",3"#, true));
        assert!(open(r#"still "" open"#, true));
        // The CR outside quotes that text follows, and only that one.
        let row = b"1,\"a\rb\",c\r\n";
        assert_eq!(
            walk_quotes(row, |b| b == b',', false, |i| cr_ends_text(row, i)).1,
            None
        );
        let row = b"1,\"a\rb\",c\rd";
        assert_eq!(
            walk_quotes(row, |b| b == b',', false, |i| cr_ends_text(row, i)).1,
            Some(9)
        );
    }

    #[test]
    fn a_value_holds_one_line() {
        let l = line9();
        let mut cells = [0u8; 81];
        let p = ".".repeat(81);
        assert!(l
            .parse_value(format!(" {p}\r\n").as_bytes(), &mut cells)
            .is_ok());
        // A comment may follow, as on a line of a file.
        assert!(l
            .parse_value(format!("{p} # x").as_bytes(), &mut cells)
            .is_ok());
        let two = format!("{p}\n{p}");
        assert_eq!(
            l.parse_value(two.as_bytes(), &mut cells).unwrap_err(),
            RecordError::LineBreak { at: 82 }
        );
        // The first line alone is a puzzle: parse (a file's line) reads it.
        assert!(l.parse(two.as_bytes(), &mut cells).is_ok());
        // But a line of a file that goes on after a bare `\r` (old Mac line
        // ends: the `\n` cut sees one record) is an error, not its first
        // puzzle alone; a `\r` ending the line or a comment is fine.
        let cr = format!("{p}\r{p}\r");
        assert_eq!(
            l.parse(cr.as_bytes(), &mut cells).unwrap_err(),
            RecordError::LineBreak { at: 82 }
        );
        for ok in [format!("{p}\r"), format!("{p} # c\r"), format!("{p}\r \r")] {
            assert!(l.parse(ok.as_bytes(), &mut cells).is_ok(), "{ok:?}");
        }
        // So is a CSV row, whichever field the CR is in (beside the puzzle,
        // the second row was dropped); inside quotes it is a value's.
        let csv = Layout {
            shape: Shape::Csv(CsvColumns {
                puzzle: 0,
                solution: Some(1),
                delim: b',',
            }),
            ..l.clone()
        };
        for (row, at) in [
            (format!("{p},1\r{p},2"), 84),
            (format!("{p},\"a\"\r{p},\"b\""), 86),
            (format!("{p},\"x\"\"\r\"\r{p},2\r\n"), 89),
        ] {
            assert_eq!(
                csv.parse(row.as_bytes(), &mut cells).unwrap_err(),
                RecordError::LineBreak { at },
                "{row:?}"
            );
        }
        for ok in [
            format!("{p},1\r"),
            format!("{p},1\r\n"),
            format!("{p},\"line one\r\nline two\"\r\n"),
            format!("{p},\"a\rb\""),
        ] {
            assert!(csv.parse(ok.as_bytes(), &mut cells).is_ok(), "{ok:?}");
        }
        // Characters, not bytes: a non-ASCII one is named where it is.
        let accent = format!("{}é{}", &p[..40], &p[..40]);
        assert_eq!(
            l.parse_value(accent.as_bytes(), &mut cells)
                .unwrap_err()
                .to_string(),
            "cell 41: invalid character '\\xc3'"
        );
    }

    /// The one-pass split of a delimited row reads what the checked paths
    /// (`csv_field`, `label`, `write_answer`) read, on rows mixing quotes,
    /// CRs, short rows, empty and `null` fields, spaces and delimiters in
    /// every column position; rows with quotes or a CR are not split.
    #[test]
    fn split_rows_read_as_the_checked_paths_do() {
        const PIECES: [&str; 10] = [
            "12.4341221433412",
            "2143341212344321",
            "",
            ",",
            "\"",
            "\r",
            " ",
            "null",
            "x",
            "1234",
        ];
        let answer: Vec<u8> = b"2143341212344321".iter().map(|b| b - b'0').collect();
        let mut rows = 0;
        for a in PIECES {
            for b in PIECES {
                for c in PIECES {
                    for d in [",", ""] {
                        let row = format!("{a}{d}{b}{d}{c}");
                        let raw = row.as_bytes();
                        for (puzzle, solution) in
                            [(0, None), (0, Some(1)), (1, Some(0)), (2, Some(3))]
                        {
                            let cols = CsvColumns {
                                puzzle,
                                solution,
                                delim: b',',
                            };
                            let layout =
                                Layout::new(Shape::Csv(cols), Boxes::square(2), Symbols::Digits);
                            let Some(split) = layout.split_row(raw) else {
                                assert!(raw.contains(&b'"') || raw.contains(&b'\r'), "{row:?}");
                                continue;
                            };
                            rows += 1;
                            let mut fast = [0u8; 16];
                            let mut slow = [0u8; 16];
                            let checked = csv_field(raw, cols)
                                .and_then(|f| layout.parse_field(f.trim_ascii(), 16, &mut slow));
                            assert_eq!(
                                layout.parse_split(raw, Some(&split), &mut fast),
                                checked,
                                "{row:?} {cols:?}"
                            );
                            if checked.is_ok() {
                                assert_eq!(fast, slow, "{row:?}");
                            }
                            let (mut lf, mut ls) = ([0u8; 16], [0u8; 16]);
                            assert_eq!(
                                layout.label_split(raw, Some(&split), &mut lf),
                                layout.label(raw, &mut ls),
                                "{row:?} {cols:?}"
                            );
                            let (mut wf, mut ws) = (Vec::new(), Vec::new());
                            layout.write_answer_split(raw, Some(&split), &answer, &mut wf);
                            layout.write_answer(raw, &answer, &mut ws);
                            assert_eq!(
                                wf.escape_ascii().to_string(),
                                ws.escape_ascii().to_string()
                            );
                        }
                    }
                }
            }
        }
        assert!(rows > 1000, "{rows} rows split");
    }

    use proptest::prelude::*;

    /// Every layout of box size `b` (with the symbol sets that fit it).
    fn layouts(b: usize) -> Vec<Layout> {
        let syms: &[Symbols] = match b {
            4 => &[Symbols::Letters, Symbols::Hex0, Symbols::Hex1],
            5 => &[Symbols::Letters],
            _ => &[Symbols::Digits],
        };
        let mut out = Vec::new();
        for &sym in syms {
            for shape in [Shape::Line, Shape::Grid, Shape::Boxed] {
                out.push(Layout::new(shape, Boxes::square(b), sym));
            }
            for delim in [b',', b'\t', b':'] {
                let cols = CsvColumns {
                    puzzle: 1,
                    solution: Some(1),
                    delim,
                };
                out.push(Layout::new(Shape::Csv(cols), Boxes::square(b), sym));
            }
        }
        out.push(Layout::new(
            Shape::Spaced,
            Boxes::square(b),
            Symbols::Numbers,
        ));
        for d in [b' ', b',', b'\t'] {
            out.push(Layout::new(
                Shape::Numbers(d),
                Boxes::square(b),
                Symbols::Numbers,
            ));
        }
        out
    }

    /// A record of `layout` to write an answer over (boxed grids and CSV
    /// rows keep their decoration and other fields).
    fn template(layout: &Layout) -> Vec<u8> {
        let side = layout.boxes.side();
        match layout.shape {
            Shape::Boxed => {
                let mut t = Vec::new();
                for r in 0..side {
                    if r > 0 && r % layout.boxes.rows() == 0 {
                        t.extend_from_slice(b"---+---\n");
                    }
                    for c in 0..side {
                        if c > 0 && c % layout.boxes.cols() == 0 {
                            t.extend_from_slice(b" |");
                        }
                        t.extend_from_slice(b" .");
                    }
                    t.push(b'\n');
                }
                t
            }
            Shape::Csv(c) => {
                let d = char::from(c.delim);
                format!("\"a{d}\"\"b\"{d}x{d}\"c\nd\"").into_bytes()
            }
            _ => Vec::new(),
        }
    }

    proptest! {
        /// Random cell values written in every layout parse back to the
        /// same cells (4x4, 9x9, 16x16).
        #[test]
        fn every_layout_round_trips(b in 2usize..=4, seed in any::<u64>()) {
            let side = b * b;
            let mut x = seed | 1;
            let cells: Vec<u8> = (0..side * side)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % side as u64) as u8 + 1
                })
                .collect();
            for layout in layouts(b) {
                let raw = template(&layout);
                let mut out = Vec::new();
                layout.write_answer(&raw, &cells, &mut out);
                let items: Vec<Item> = Records::new(&layout, &out).collect();
                prop_assert_eq!(items.len(), 1, "{:?}: {}", layout.shape, out.escape_ascii());
                let Item::Record { raw, .. } = items[0] else { unreachable!() };
                let mut back = vec![0u8; side * side];
                layout.parse(raw, &mut back).map_err(|e| {
                    TestCaseError::fail(format!("{:?}: {e}: {}", layout.shape, out.escape_ascii()))
                })?;
                prop_assert_eq!(&back, &cells, "{:?}", layout.shape);
                // Blanks too, in the one-line form.
                if layout.shape == Shape::Line {
                    let mut holes = cells.clone();
                    for v in holes.iter_mut().step_by(3) {
                        *v = 0;
                    }
                    let mut text = Vec::new();
                    layout.write_cells(&holes, b'.', &mut text);
                    layout.parse(&text, &mut back).unwrap();
                    prop_assert_eq!(&back, &holes);
                }
            }
        }

        /// Cutting a chunk anywhere `cut` allows gives the records of the
        /// whole, split in two: for every shape, on text mixing records,
        /// blanks, comments, quotes and junk.
        #[test]
        fn the_cut_of_a_whole_chunk_equals_the_cuts_of_two_halves(
            pieces in proptest::collection::vec(0usize..12, 0..40),
            target in 0usize..400,
        ) {
            const PIECES: [&str; 12] = [
                "1234\n", "12.4,3\n", "\n", "# c\n", "\"q\n", "x,\"a\nb\",1\n",
                "1 2 |3 4\n", "---+---\n", "1 2 3 4\n", "end\n", "12\r\n", "\"\"\n",
            ];
            let data: String = pieces.iter().map(|&i| PIECES[i]).collect();
            let data = data.as_bytes();
            let csv = CsvColumns { puzzle: 0, solution: None, delim: b',' };
            for shape in [Shape::Line, Shape::Grid, Shape::Spaced, Shape::Boxed, Shape::Numbers(b' '), Shape::Csv(csv)] {
                let layout = Layout::new(shape, Boxes::square(2), Symbols::Digits);
                let Some(c) = layout.cut(data, target) else { continue };
                prop_assert!(c >= target.min(data.len()) && c <= data.len());
                let raws = |d: &[u8]| -> Vec<Option<Vec<u8>>> {
                    Records::new(&layout, d)
                        .map(|i| match i {
                            Item::Record { raw, .. } => Some(raw.to_vec()),
                            Item::End => None,
                        })
                        .collect()
                };
                let whole = raws(data);
                let mut halves = raws(&data[..c]);
                if !halves.contains(&None) {
                    halves.extend(raws(&data[c..]));
                }
                prop_assert_eq!(whole, halves, "{:?} cut at {}", shape, c);
            }
        }
    }
}
