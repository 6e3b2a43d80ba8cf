//! The text wing's layouts: one record's bytes into solver cells and an answer back in the record's own shape.

use std::borrow::Cow;
use std::io::Write;

use super::csv::*;

use super::symbols::*;
use crate::record::{quote, Analysis, CellName, Label, RecordError, Shown};
use crate::solver::{self, Boxes};

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

/// A file's layout: shape, grid size and symbols. Built by `detect`.
#[derive(Clone, Debug)]
pub struct Layout {
    /// How records are laid out.
    pub shape: Shape,
    /// Box shape (3x3 for 9x9, 4x4 for 16x16, 2x3 for 6x6), hence the size.
    pub boxes: Boxes,
    /// How cells are written.
    pub symbols: Symbols,
    pub(super) decode: [u8; 256],
    /// 9x9 pencilmark lines (see [`Layout::pencilmarks`]).
    pub(super) marks: bool,
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
}

impl Layout {
    /// Decodes N*N numbers separated by spaces or commas (`0` blank).
    pub(super) fn parse_numbers(
        &self,
        raw: &[u8],
        n: usize,
        cells: &mut [u8],
    ) -> Result<(), RecordError> {
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
    pub(super) fn parse_field(
        &self,
        field: &[u8],
        n: usize,
        cells: &mut [u8],
    ) -> Result<(), RecordError> {
        if self.symbols == Symbols::Numbers {
            self.parse_numbers(field, n, cells)
        } else {
            self.parse_run(field, n, 0, cells)
        }
    }

    pub(super) fn parse_run(
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
    pub(super) fn decode_run(&self, token: &[u8], cells: &mut [u8]) -> bool {
        // Digit grids (up to 9x9) first try the arithmetic decode, which
        // LLVM vectorises (16 bytes a step with SSE2); it only takes `0`,
        // `.` and the digits, and anything else (`_`, `*`, a bad byte)
        // falls to the table, which also leaves the `BAD` marks the error
        // report needs.
        if self.symbols == Symbols::Digits {
            let side = self.boxes.side();
            if side <= 9 && decode_digits(token, cells, side as u8) {
                return true;
            }
        }
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
        // A full grid (every answer) takes the run writer's vectorised
        // path: the per-cell blank test below was 1,370 instructions a 9x9
        // answer of a table's solution column (callgrind, Arrow IPC in and
        // out), three quarters of what the table path spent beyond text.
        if cells.iter().fold(u8::MAX, |m, &v| m.min(v)) != 0 {
            self.write_symbols(cells, out);
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

    pub(super) fn write_run(&self, cells: &[u8], out: &mut Vec<u8>) {
        self.write_symbols(cells, out);
        out.push(b'\n');
    }

    /// Appends `cells` (values 1 and up) in this layout's symbols, no
    /// line end.
    #[inline]
    pub(super) fn write_symbols(&self, cells: &[u8], out: &mut Vec<u8>) {
        if self.symbols == Symbols::Digits {
            // One add per byte, which LLVM vectorises; the general encode
            // below branches per cell (3% of `solve` on 17-clue lines).
            // The add in whole 16-byte blocks (one SSE2 add each): over
            // the whole run it left 17 of 81 bytes to a scalar epilogue.
            let start = out.len();
            out.extend_from_slice(cells);
            let mut blocks = out[start..].chunks_exact_mut(16);
            for block in &mut blocks {
                for b in block {
                    *b = b.wrapping_add(b'0');
                }
            }
            for b in blocks.into_remainder() {
                *b = b.wrapping_add(b'0');
            }
        } else {
            out.extend(cells.iter().map(|&v| self.symbols.encode(v)));
        }
    }

    /// Appends what an [`Analysis`] gave for record `raw`: the output
    /// `grid` (when it makes one) and its `fields`. One-line text writes the
    /// puzzle's line (when the analysis keeps it) or the grid, then the
    /// fields as [`Analysis::line`] writes them; grids of several lines
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
                    let mut text = Vec::with_capacity(grid.len());
                    self.write_cells(grid, self.grid_blank(analysis), &mut text);
                    push_field(&text, cols.delim, out);
                }
                for f in fields {
                    out.push(cols.delim);
                    push_field(f.as_bytes(), cols.delim, out);
                }
                out.push(b'\n');
            }
            _ => {
                let joined = analysis.line(fields);
                if analysis.keeps_puzzle() && !self.multiline() {
                    let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                    out.extend_from_slice(line);
                } else if has_grid && self.shape == Shape::Line {
                    self.write_cells(grid, self.grid_blank(analysis), out);
                } else if has_grid {
                    // Grids of several lines: written as the puzzle was
                    // (fields are refused for them before the run).
                    let start = out.len();
                    self.write_answer(raw, grid, out);
                    let blank = self.grid_blank(analysis);
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

    /// Appends record `raw` with its puzzle replaced by `puzzle` (blanks
    /// written as `blank`), for `augment`: one-line text keeps what follows
    /// the puzzle on its line and adds `extra` after a space; delimited
    /// rows get `solution` in their solution field (when given) and
    /// `extra` as an added last field, every other field's text kept (a
    /// field is quoted only when it must be); grids of several lines are
    /// written as the puzzle was (`extra` is refused for them before the
    /// run).
    pub fn write_disguised(
        &self,
        raw: &[u8],
        puzzle: &[u8],
        blank: u8,
        solution: Option<&[u8]>,
        extra: Option<&str>,
        out: &mut Vec<u8>,
    ) {
        match self.shape {
            Shape::Csv(cols) => {
                let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                let mut fields: Vec<Vec<u8>> = match parse_csv_record(line, cols.delim) {
                    Ok(r) => r.iter().map(<[u8]>::to_vec).collect(),
                    Err(_) => vec![line.to_vec()],
                };
                let need = cols.puzzle.max(cols.solution.unwrap_or(0)) + 1;
                if fields.len() < need {
                    fields.resize(need, Vec::new());
                }
                let mut text = Vec::with_capacity(puzzle.len());
                self.write_cells(puzzle, blank, &mut text);
                fields[cols.puzzle] = text;
                if let (Some(s), Some(sol)) = (cols.solution, solution) {
                    let mut text = Vec::with_capacity(sol.len());
                    self.put_answer(sol, &mut text);
                    fields[s] = text;
                }
                if let Some(e) = extra {
                    fields.push(e.as_bytes().to_vec());
                }
                for (k, f) in fields.iter().enumerate() {
                    if k > 0 {
                        out.push(cols.delim);
                    }
                    push_field(f, cols.delim, out);
                }
                out.push(b'\n');
            }
            Shape::Line => {
                let line = raw.strip_suffix(b"\r").unwrap_or(raw);
                let start = line
                    .iter()
                    .position(|b| !b.is_ascii_whitespace())
                    .unwrap_or(0);
                let end = line[start..]
                    .iter()
                    .position(u8::is_ascii_whitespace)
                    .map_or(line.len(), |i| start + i);
                out.extend_from_slice(&line[..start]);
                self.write_cells(puzzle, blank, out);
                out.extend_from_slice(&line[end..]);
                if let Some(e) = extra {
                    out.push(b' ');
                    out.extend_from_slice(e.as_bytes());
                }
                out.push(b'\n');
            }
            Shape::Numbers(delim) => {
                write_numbers(puzzle, delim, out);
                if let Some(e) = extra {
                    out.push(b' ');
                    out.extend_from_slice(e.as_bytes());
                }
                out.push(b'\n');
            }
            _ => {
                let start = out.len();
                self.write_answer(raw, puzzle, out);
                let zero = self.symbols.encode(0);
                if matches!(self.shape, Shape::Grid | Shape::Boxed) && blank != zero {
                    for b in &mut out[start..] {
                        if *b == zero {
                            *b = blank;
                        }
                    }
                }
            }
        }
    }

    /// The blank an analysis's grid is written with: its own
    /// ([`Analysis::blank`]), else the symbols' usual one, never the
    /// record's (a canonical form must not depend on it).
    fn grid_blank(&self, analysis: &dyn Analysis) -> u8 {
        match analysis.blank() {
            Some(b) if self.symbols.blanks().contains(&b) => b,
            _ => self.usual_blank(),
        }
    }

    /// The blank symbol record `raw`'s puzzle uses (its layout's usual one
    /// when it has none).
    pub fn blank_of(&self, raw: &[u8]) -> u8 {
        match self.shape {
            Shape::Csv(cols) => {
                let field = csv_field(raw, cols).unwrap_or(Cow::Borrowed(b""));
                self.symbols.blank_in(&field)
            }
            _ => self.symbols.blank_in(raw),
        }
    }

    /// The usual blank of this layout's symbols.
    pub fn usual_blank(&self) -> u8 {
        self.symbols.blanks()[0]
    }

    /// For delimited rows, appends row `raw` with `field` as one more
    /// column (quoted when it must be) and true: `count`'s column, as a
    /// table gets it. Other layouts write nothing and return false.
    pub fn write_added_field(&self, raw: &[u8], field: &[u8], out: &mut Vec<u8>) -> bool {
        let Shape::Csv(cols) = self.shape else {
            return false;
        };
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        out.extend_from_slice(line);
        out.push(cols.delim);
        push_field(field, cols.delim, out);
        out.push(b'\n');
        true
    }

    /// Appends the marked record of a bad record under an [`Analysis`]:
    /// `error: REASON` on its own line, or, for delimited rows, the row
    /// with the mark in the first added column and the others empty (the
    /// reason alone in the analysis's [`Analysis::status`] column, when it
    /// has one).
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
                let grid = usize::from(analysis.grid_column().is_some());
                let added = analysis.columns().len() + grid;
                let at = analysis.status().map_or(0, |k| k + grid);
                let mark = error_mark(analysis, err);
                for k in 0..added {
                    out.push(cols.delim);
                    if k == at {
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

/// The mark of a bad record in an [`Analysis`]'s columns of a delimited
/// row: the reason alone in its [`Analysis::status`] column, else
/// `error: REASON` (in the first added column).
pub fn error_mark(analysis: &dyn Analysis, err: &RecordError) -> String {
    match analysis.status() {
        Some(_) => err.to_string(),
        None => format!("error: {err}"),
    }
}

/// Decodes a run of digit symbols into the first `token.len()` cells:
/// `0` and `.` blank, `1`..=`side` givens; false (cells then undefined) at
/// any other byte, including the other blanks the table takes (`_`, `*`).
/// Branch-free per byte so that it vectorises: the table lookup it
/// replaces for the common record was ~460 instructions per 81-cell line
/// (callgrind, `count` of the 17-clue set).
#[inline]
pub(super) fn decode_digits(token: &[u8], cells: &mut [u8], side: u8) -> bool {
    let n = token.len().min(cells.len());
    let (token, cells) = (&token[..n], &mut cells[..n]);
    // Whole 16-byte blocks, each one SSE2 step with no scalar epilogue
    // (a plain loop over 81 bytes left 17 of them scalar), the flags
    // OR-ed lane by lane and reduced once.
    let mut acc = [0u8; 16];
    let mut blocks = token.chunks_exact(16);
    let mut out = cells.chunks_exact_mut(16);
    for (t, c) in (&mut blocks).zip(&mut out) {
        for i in 0..16 {
            let d = t[i].wrapping_sub(b'0');
            let dot = t[i] == b'.';
            c[i] = if dot { 0 } else { d };
            acc[i] |= u8::from(!dot & (d > side));
        }
    }
    let mut bad = acc.iter().fold(0, |a, &x| a | x);
    for (c, &b) in out.into_remainder().iter_mut().zip(blocks.remainder()) {
        let d = b.wrapping_sub(b'0');
        let dot = b == b'.';
        *c = if dot { 0 } else { d };
        bad |= u8::from(!dot & (d > side));
    }
    bad == 0
}

/// Appends `cells` as decimal numbers with `sep` between them.
pub(super) fn write_numbers(cells: &[u8], sep: u8, out: &mut Vec<u8>) {
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
pub(super) fn cr_line_end(raw: &[u8], n: usize) -> Result<(), RecordError> {
    // The length first: the common record (the cells, maybe `\r`) never
    // scans.
    if raw.len() > n + 1 {
        if let Some(at) = cr_before_text(raw) {
            return Err(RecordError::LineBreak { at });
        }
    }
    Ok(())
}

/// A pencilmark line ([`Layout::pencilmarks`]) into [`solver::MARK_FLAGS`]
/// flags; a character other than `.`, `0` or its own digit is an error
/// naming the cell.
pub(super) fn parse_marks(token: &[u8], flags: &mut [u8]) -> Result<(), RecordError> {
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

pub(super) fn check_rows(rows: usize, side: usize) -> Result<(), RecordError> {
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
pub(super) fn first_token(line: &[u8]) -> &[u8] {
    let line = line.trim_ascii_start();
    let end = line
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(line.len());
    &line[..end]
}

/// A decimal number in `0..=side` (`.` and `-` also mean blank).
pub(super) fn parse_number(token: &[u8], side: usize) -> Option<u8> {
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
pub(super) fn count_numbers(raw: &[u8]) -> usize {
    raw.split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .count()
}

impl Layout {
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
    pub(super) fn label_field<'c>(&self, field: &[u8], cells: &'c mut [u8]) -> Label<'c> {
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
    pub(super) fn put_answer(&self, answer: &[u8], out: &mut Vec<u8>) {
        if self.symbols == Symbols::Numbers {
            write_numbers(answer, b' ', out);
        } else {
            self.write_symbols(answer, out);
        }
    }
}
