//! Record cutting of the text wing: a chunk of bytes into records (one line, or the rows of a grid), before any cell is parsed.

use super::csv::quote_open_after;
use super::layout::{Layout, Shape};
use super::symbols::is_rule;
use crate::record::MAX_QUOTED_LINES;

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
    pub(super) layout: &'a Layout,
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    line: u64,
    /// The last record ended because it was complete (row count reached, or a
    /// newline for one-line shapes), not because the data ran out.
    pub(super) complete: bool,
    /// An `end` line was returned: nothing more.
    pub(super) done: bool,
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
    pub(super) fn is_hash_row(&self, line: &[u8]) -> bool {
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

    pub(super) fn next_line(&mut self) -> Option<(&'a [u8], bool)> {
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

impl Layout {
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
}
