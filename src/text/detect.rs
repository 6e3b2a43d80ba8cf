//! Layout detection: reads the head of the input once, before the pipeline
//! starts, and decides the [`Layout`] (shape, grid size, symbols), plus any
//! header or count line to skip. Every line of the head (up to 200) votes
//! for the shape it fits; the majority wins, so one odd record (a cut-off
//! first puzzle, a stray 9-character line) is a bad record later, not the
//! layout of the file. When nothing fits, it says what the data looks like
//! (binary, UTF-16, mixed grid sizes) and asks for `--format`.

use std::collections::HashMap;

use crate::solver::Boxes;
use crate::text::{
    char_count, classify_line, cr_ends_text, is_rule, quote, quote_open_after, walk_quotes,
    CsvColumns, Item, Layout, Line, RecordError, Records, Shape, Symbols,
};

/// What the user forced with `--format` and `--column`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forced {
    /// Record shape (`line`, `grid`, `spaced`, `boxed`, `numbers`, `csv`,
    /// `tsv`, `tdoku`).
    pub shape: Option<ShapeName>,
    /// Cell symbols (`digits`, `letters`, `hex0`, `hex1`).
    pub symbols: Option<Symbols>,
    /// CSV column holding the puzzles.
    pub column: Option<String>,
    /// Grid side from `--size` (boxes as [`Boxes::for_side`] makes them).
    pub side: Option<usize>,
    /// Box shape from `--box` (which fixes the side too).
    pub boxes: Option<Boxes>,
}

impl Forced {
    /// The side the flags fix, if any.
    pub fn side(&self) -> Option<usize> {
        self.boxes.map(Boxes::side).or(self.side)
    }

    fn sizes(&self) -> Sizes {
        Sizes {
            small: self.shape.is_some() || self.side().is_some(),
            side: self.side(),
        }
    }

    /// The boxes of a file whose records are `side` cells wide: `--box`
    /// when given, else the usual boxes of that side.
    pub fn boxes_for(&self, side: usize) -> Result<Boxes, String> {
        match self.boxes {
            Some(b) if b.side() == side => Ok(b),
            Some(b) => Err(format!(
                " --box {b} makes {0}x{0} grids, but the records are {side}x{side}",
                b.side()
            )),
            None => Boxes::for_side(side)
                .ok_or_else(|| format!(" no box shape tiles a {side}x{side} grid")),
        }
    }

    /// The boxes `--box` or `--size` fix, if any.
    pub fn boxes_or_side(&self) -> Option<Boxes> {
        self.boxes.or(self.side.and_then(Boxes::for_side))
    }

    /// The boxes the flags fix, else `default`.
    pub fn boxes_or(&self, default: Boxes) -> Boxes {
        match (self.boxes, self.side) {
            (Some(b), _) => b,
            (None, Some(s)) => Boxes::for_side(s).unwrap_or(default),
            (None, None) => default,
        }
    }

    /// What a record should hold, for messages.
    fn expected_cells(&self) -> String {
        match (self.boxes, self.side()) {
            (Some(b), _) => format!(
                "--box {b} means {0}x{0} grids: {1} cells a puzzle, rows of {0}",
                b.side(),
                b.cells()
            ),
            (None, Some(s)) => format!(
                "--size {s} means {s}x{s} grids: {} cells a puzzle, rows of {s}",
                s * s
            ),
            (None, None) => "expected N*N cells for a grid side N from 6 to 64 that boxes \
                 tile (36, 64, 81, 100, 144, 256, 625, 1296 ...; 16 with --format or --size 4)"
                .into(),
        }
    }
}

/// A shape named on the command line (the CSV columns come from the header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeName {
    /// One puzzle per line.
    Line,
    /// Rows of cells.
    Grid,
    /// Rows of space-separated numbers.
    Spaced,
    /// Rows of cells with `|` separators and rule lines (qqwing, .ss).
    Boxed,
    /// One puzzle per line as 81 (256, 625) numbers.
    Numbers,
    /// Comma-separated, with or without a header.
    Csv,
    /// Tab-separated, with or without a header.
    Tsv,
    /// tdoku's `puzzle:count:solution` lines.
    Tdoku,
}

impl ShapeName {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            ShapeName::Line => "line",
            ShapeName::Grid => "grid",
            ShapeName::Spaced => "spaced",
            ShapeName::Boxed => "boxed",
            ShapeName::Numbers => "numbers",
            ShapeName::Csv => "csv",
            ShapeName::Tsv => "tsv",
            ShapeName::Tdoku => "tdoku",
        }
    }
}

/// The outcome of detection.
#[derive(Clone, Debug)]
pub struct Detected {
    /// The layout of every record.
    pub layout: Layout,
    /// Bytes at the start that are not records (a CSV header, a count line).
    pub skip_bytes: usize,
    /// Lines in those bytes, so line numbers stay those of the file.
    pub skip_lines: u64,
    /// Bytes to write before the answers (the CSV header, with a
    /// `solution` column added when it has none).
    pub preamble: Vec<u8>,
    /// The CSV header line as the input has it (no line end; empty when
    /// there is none), for runs that add other columns.
    pub header: Vec<u8>,
    /// The puzzles a count line announced, when detection saw only the
    /// head of a stream: the run checks the number at its end.
    pub announced: Option<u64>,
}

/// CSV headers of known datasets: (puzzle column, solution column).
const KNOWN_COLUMNS: &[(&str, &str)] = &[
    ("quizzes", "solutions"), // Kaggle 1M
    ("puzzle", "solution"),   // Kaggle 3M and 9M
    ("question", "answer"),   // sudoku-extreme (HRM paper)
    ("quiz", "solution"),
    ("puzzles", "solutions"),
];

/// Content lines of the head that vote.
const HEAD_LINES: usize = 200;

/// True when the head's lines hold nothing but the symbols of 4x4 grids
/// (`0`-`4` or the letters `A`-`D`, `.`, `-`) and separators. A line of
/// 16 cells is then a 4x4 puzzle (as `generate --size 4` writes them), not
/// a row of a 16x16 grid: 16 rows of a 16x16 puzzle whose givens are all
/// 1 to 4 do not happen. Other text of 16 characters still needs
/// `--size 4` or `--format`.
fn only_small_symbols(lines: &[HeadLine<'_>]) -> bool {
    const SMALL: &[u8] = b"01234ABCDabcd.-+|!,;:\"";
    !lines.is_empty()
        && lines.iter().all(|l| {
            l.text
                .iter()
                .all(|b| SMALL.contains(b) || b.is_ascii_whitespace())
        })
}

/// Which grid sizes a line may be read as.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    /// 4x4 allowed: under a forced `--format` or `--size`, in a CSV column,
    /// or when every line holds only 4x4 symbols ([`only_small_symbols`]);
    /// else 16 characters are too easy to confuse with other text and
    /// with a row of a 16x16 grid.
    small: bool,
    /// The side `--size`/`--box` fixed, if any: then only it fits, and a
    /// line of 36 numbers is a row of a 36x36 grid, not a 6x6 puzzle.
    side: Option<usize>,
}

impl Sizes {
    /// Side of a grid whose one-line records hold `n` cells.
    fn of_cells(self, n: usize) -> Option<usize> {
        if let Some(s) = self.side {
            return (s * s == n).then_some(s);
        }
        let side = n.isqrt();
        (side * side == n && self.of_row(side).is_some()).then_some(side)
    }

    /// Side of a grid whose rows hold `n` cells.
    fn of_row(self, n: usize) -> Option<usize> {
        if let Some(s) = self.side {
            return (s == n).then_some(s);
        }
        (Boxes::for_side(n).is_some() && (self.small || n != 4)).then_some(n)
    }
}

/// A content line of the head: 1-based line number, byte range, trimmed text.
struct HeadLine<'a> {
    number: u64,
    end: usize,
    text: &'a [u8],
}

/// What one line of the head looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// A whole puzzle as one token.
    Line(usize),
    /// Delimited fields, the first a whole puzzle.
    Delim(u8, usize),
    /// A whole puzzle as numbers, with this separator.
    Numbers(u8, usize),
    /// A row of a boxed grid.
    Boxed(usize),
    /// A rule line of a boxed grid (votes for every boxed size).
    Rule,
    /// A row of space-separated numbers.
    Spaced(usize),
    /// A row of cells.
    Grid(usize),
}

impl Kind {
    fn side(self) -> usize {
        match self {
            Kind::Line(b)
            | Kind::Delim(_, b)
            | Kind::Numbers(_, b)
            | Kind::Boxed(b)
            | Kind::Spaced(b)
            | Kind::Grid(b) => b,
            Kind::Rule => 0,
        }
    }

    /// The same shape, ignoring the size.
    fn same_shape(self, other: Kind) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
            && match (self, other) {
                (Kind::Delim(a, _), Kind::Delim(b, _)) => a == b,
                _ => true,
            }
    }

    fn fits(self, forced: ShapeName) -> bool {
        matches!(
            (self, forced),
            (Kind::Line(_), ShapeName::Line)
                | (Kind::Grid(_), ShapeName::Grid)
                | (Kind::Spaced(_), ShapeName::Spaced)
                | (Kind::Boxed(_) | Kind::Rule, ShapeName::Boxed)
                | (Kind::Numbers(..), ShapeName::Numbers)
                | (Kind::Delim(b',', _), ShapeName::Csv)
                | (Kind::Delim(b'\t', _), ShapeName::Tsv)
                | (Kind::Delim(b':', _), ShapeName::Tdoku)
        )
    }
}

fn is_number(t: &[u8]) -> bool {
    t == b"." || t == b"-" || (!t.is_empty() && t.len() <= 2 && t.iter().all(u8::is_ascii_digit))
}

/// The first field of a delimited line, unquoted.
fn first_field(text: &[u8], d: u8) -> &[u8] {
    unquote(text.split(|&b| b == d).next().unwrap_or(b""))
}

/// The cells of a boxed row: everything but spaces and `|` `!`.
fn boxed_cells(text: &[u8]) -> impl Iterator<Item = u8> + '_ {
    text.iter()
        .copied()
        .filter(|&b| !matches!(b, b' ' | b'\t' | b'|' | b'!'))
}

/// True when every symbol of `token` can be a cell of a side-`b` puzzle
/// (`b` up to 9): a blank, a digit up to `b`, or one of the first `b`
/// letters (letters-only files).
fn symbols_fit(token: &[u8], b: usize) -> bool {
    token.iter().all(|&c| match c {
        b'.' | b'-' => true,
        b'0'..=b'9' => usize::from(c - b'0') <= b,
        _ if c.is_ascii_alphabetic() => usize::from(c.to_ascii_uppercase() - b'A') < b,
        _ => false,
    })
}

/// How many numbers `text` holds when it is two or more numbers separated
/// by spaces or commas (a puzzle or a row written as numbers), else `None`.
fn number_count(text: &[u8]) -> Option<usize> {
    let mut count = 0;
    let all = text
        .split(|&b| b == b',' || b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .all(|t| {
            count += 1;
            is_number(t)
        });
    (all && count > 1).then_some(count)
}

fn kind_of(text: &[u8], sizes: Sizes) -> Option<Kind> {
    let counted = number_count(text);
    if let Some(numbers) = counted {
        // A number past the side rules out a whole puzzle (36 numbers up
        // to 36 are a row of a 36x36 grid, not a 6x6 puzzle).
        let whole = sizes.of_cells(numbers).filter(|&b| {
            sizes.side.is_some()
                || sizes.of_row(numbers).is_none()
                || text
                    .split(|&b| b == b',' || b.is_ascii_whitespace())
                    .all(|t| t.parse_ascii().is_none_or(|v| v <= b as u64))
        });
        if let Some(b) = whole {
            let d = if text.contains(&b',') {
                b','
            } else if text.contains(&b'\t') {
                b'\t'
            } else {
                b' '
            };
            return Some(Kind::Numbers(d, b));
        }
    }
    if is_rule(text) {
        return Some(Kind::Rule);
    }
    if text.iter().any(|&b| b == b'|' || b == b'!') {
        return sizes.of_row(boxed_cells(text).count()).map(Kind::Boxed);
    }
    for d in [b',', b'\t', b':', b';'] {
        if text.contains(&d) {
            if let Some(b) = sizes.of_cells(first_field(text, d).len()) {
                return Some(Kind::Delim(d, b));
            }
        }
    }
    let token = text.split(u8::is_ascii_whitespace).next().unwrap_or(b"");
    // A symbol no puzzle of that side holds (a letter past F in 36
    // characters) makes the line a row of the bigger grid.
    let whole = sizes.of_cells(token.len()).filter(|&b| {
        sizes.side.is_some() || sizes.of_row(token.len()).is_none() || symbols_fit(token, b)
    });
    if let Some(b) = whole {
        return Some(Kind::Line(b));
    }
    let tokens = text
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .count();
    if counted.is_some() && tokens > 1 {
        if let Some(b) = sizes.of_row(tokens) {
            return Some(Kind::Spaced(b));
        }
    }
    sizes.of_row(token.len()).map(Kind::Grid)
}

/// The layout of puzzles held one per value (Parquet and Arrow cells, Python
/// strings), from a sample of the values: one puzzle per line, in symbols or
/// as numbers. Unlike the lines of a file, each value is a record of its own:
/// one that is not text, holds a line break or has no grid's size is that
/// row's problem, left out of the vote (its row is bad later). The size most
/// values have wins; the symbols are guessed from all values of that size
/// together (a 16x16 value whose givens are only `A`-`G` reads as letters
/// when the others show `H`-`P`). `Ok(None)` when there are no values;
/// `Err` with the first value's reason ([`value_reason`]) when none is a
/// puzzle.
pub fn detect_values<'a>(
    values: impl IntoIterator<Item = &'a [u8]>,
    forced: &Forced,
) -> Result<Option<Layout>, String> {
    // (first layout of the group, its values)
    let mut groups: Vec<(Layout, Vec<&[u8]>)> = Vec::new();
    let mut first_bad: Option<&[u8]> = None;
    for v in values {
        match detect_value(v, forced) {
            Some(l) => match groups
                .iter_mut()
                .find(|(g, _)| g.shape == l.shape && g.boxes == l.boxes)
            {
                Some((_, members)) => members.push(v),
                None => groups.push((l, vec![v])),
            },
            None => {
                first_bad.get_or_insert(v);
            }
        }
    }
    // The biggest group; the first one seen among equals.
    let best = groups
        .into_iter()
        .rev()
        .max_by_key(|(_, members)| members.len());
    let Some((first, members)) = best else {
        return match first_bad {
            Some(v) => Err(value_reason(v, forced)),
            None => Ok(None),
        };
    };
    if forced.symbols.is_some() || members.len() == 1 || first.shape != Shape::Line {
        return Ok(Some(first));
    }
    let together = members.join(&b'\n');
    let line = Forced {
        shape: Some(ShapeName::Line),
        ..forced.clone()
    };
    let joint = match detect(&together, &line) {
        Ok(d) if d.layout.boxes == first.boxes && d.layout.shape == Shape::Line => d.layout,
        // Symbols no one set reads (a `0` in one value, `Q` in another):
        // the first value's reading, and the others are bad rows.
        _ => first,
    };
    Ok(Some(most_read(joint, &members)))
}

/// `joint`, or the layout of another symbol set for its side that reads
/// more of `values` as puzzles (ties keep `joint`). The symbols of all
/// values together are a guess the odd value can sway: ten 16x16 values
/// in `0`-`F` and one with a `G` read as `1`-`G` together, where `0`
/// would be a blank and every `0` given lost; counted one by one, ten
/// values are `0`-`F` and the one with `G` is the bad row.
fn most_read(joint: Layout, values: &[&[u8]]) -> Layout {
    let side = joint.boxes.side();
    if !(10..=36).contains(&side) {
        return joint;
    }
    let mut cells = vec![0u8; joint.cells()];
    let mut reads = |symbols: Symbols| -> usize {
        let layout = Layout::new(Shape::Line, joint.boxes, symbols);
        values
            .iter()
            .filter(|v| {
                let v = v.trim_ascii();
                // Where `0` is a blank, a value with a few of them (one
                // per row at most: a near-full grid) more likely holds
                // the digit 0, as `guess_symbols` reads them together.
                let zeros = v.iter().filter(|&&b| b == b'0').count();
                let zero_blank = symbols != Symbols::Hex0;
                !(zero_blank && (1..=side).contains(&zeros))
                    && layout.parse_value(v, &mut cells).is_ok()
            })
            .count()
    };
    let mut best = (reads(joint.symbols), joint.symbols);
    for symbols in [Symbols::Letters, Symbols::Hex0, Symbols::Hex1] {
        let most = match symbols {
            Symbols::Letters => 26,
            Symbols::Hex1 => 35,
            _ => 36,
        };
        if symbols != joint.symbols && side <= most {
            let n = reads(symbols);
            if n > best.0 {
                best = (n, symbols);
            }
        }
    }
    if best.1 == joint.symbols {
        joint
    } else {
        Layout::new(Shape::Line, joint.boxes, best.1)
    }
}

/// The first line of `head` (1-based) where a CR is followed by more text
/// on the same line, and the character of that CR: a file whose lines end
/// with CR alone would be read as one line of several puzzles (or one
/// comment hiding them all). CRLF ends and a CR before the line end pass,
/// and so does one inside a quoted CSV/TSV field (a value's; quotes read
/// as the record reader reads them, with any of `,` tab `;` `:` ending a
/// field, since the layout is not known yet).
fn bare_cr(head: &[u8]) -> Option<(usize, usize)> {
    memchr::memchr(b'\r', head)?;
    let at = if memchr::memchr(b'"', head).is_none() {
        memchr::memchr_iter(b'\r', head).find(|&i| cr_ends_text(head, i))?
    } else {
        let delim = |b| matches!(b, b',' | b'\t' | b';' | b':');
        walk_quotes(head, delim, false, |i| cr_ends_text(head, i)).1?
    };
    let line_start = memchr::memrchr(b'\n', &head[..at]).map_or(0, |k| k + 1);
    let line = memchr::memchr_iter(b'\n', &head[..at]).count() + 1;
    Some((line, char_count(&head[line_start..at]) + 1))
}

/// True when value `v` holds no text but whitespace or a comment: no
/// puzzle, and no vote for a layout (a null in all but name).
pub fn is_no_value(v: &[u8]) -> bool {
    head_lines(v.trim_ascii(), 1).is_empty()
}

/// The layout of one value read alone (see [`detect_values`]), if it is a
/// puzzle: one line of symbols, or one line of numbers.
fn detect_value(v: &[u8], forced: &Forced) -> Option<Layout> {
    let v = v.trim_ascii();
    // Two lines (`\r` alone ends one too), or nothing but a comment: no
    // puzzle, though detection would answer a default layout for the
    // latter.
    if memchr::memchr2(b'\n', b'\r', v).is_some() || is_no_value(v) {
        return None;
    }
    let try_shape = |shape| {
        let f = Forced {
            shape: Some(shape),
            column: None,
            ..forced.clone()
        };
        detect(v, &f).ok().map(|d| d.layout)
    };
    match forced.shape {
        Some(s) => try_shape(s),
        None => try_shape(ShapeName::Line).or_else(|| try_shape(ShapeName::Numbers)),
    }
    .filter(|l| matches!(l.shape, Shape::Line | Shape::Numbers(_)))
}

/// Why value `v` is no puzzle (see [`detect_values`]), in words for its
/// row: a line break, binary bytes, or a length that is no grid's.
pub fn value_reason(v: &[u8], forced: &Forced) -> String {
    let v = v.trim_ascii();
    if let Some(i) = memchr::memchr2(b'\n', b'\r', v) {
        let at = char_count(&v[..i]) + 1;
        return RecordError::LineBreak { at }.to_string();
    }
    if head_lines(v, 1).is_empty() {
        return if v.is_empty() {
            "empty: no puzzle".into()
        } else {
            "only a comment: no puzzle".into()
        };
    }
    if let Some(what) = not_text(v) {
        return what.replace(" on line 1, column", " at character");
    }
    let chars = char_count(v);
    let numbers = number_count(v);
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if forced.shape == Some(ShapeName::Numbers) && numbers.is_none() {
        return format!(
            "{chars} character{}, not numbers separated by spaces or commas as the format \
             given asks",
            plural(chars)
        );
    }
    if let (Some(ShapeName::Line), Some(numbers)) = (forced.shape, numbers) {
        return format!(
            "{numbers} numbers separated by spaces or commas, not a line of symbols as the \
             format given asks"
        );
    }
    let cells = numbers.unwrap_or(chars);
    let side = cells.isqrt();
    if side * side == cells
        && Boxes::for_side(side).is_some()
        && forced.side().is_none_or(|s| s == side)
    {
        // A grid's size, so its symbols are what no set reads: detection
        // says which (its message without the line number).
        let line = Forced {
            shape: Some(if numbers.is_some() {
                ShapeName::Numbers
            } else {
                ShapeName::Line
            }),
            column: None,
            ..forced.clone()
        };
        if let Err(e) = detect(v, &line) {
            let e = e.trim_start();
            return e.strip_prefix("1: ").unwrap_or(e).to_string();
        }
    }
    let found = match numbers {
        Some(n) => format!("{n} number{}", plural(n)),
        None => format!("{chars} character{}", plural(chars)),
    };
    match forced.side() {
        Some(side) => format!(
            "{found}: expected {} cells for {side}x{side} grids",
            side * side
        ),
        None => format!(
            "{found}: expected N*N cells for a grid side N from 4 to 64 \
             (81 for 9x9, 36 for 6x6, 256 for 16x16, ...)"
        ),
    }
}

/// Detects the layout of `data`, the whole input.
pub fn detect(data: &[u8], forced: &Forced) -> Result<Detected, String> {
    detect_head(data, forced, true)
}

/// Detects the layout from `data`, the whole input when `whole`, otherwise
/// only its head (stdin). Errors start with the line they are about
/// (`12: ...`), or with a space when about the whole input.
pub fn detect_head(data: &[u8], forced: &Forced, whole: bool) -> Result<Detected, String> {
    if let Some(what) = not_text(data) {
        return Err(format!(" {what}"));
    }
    if let Some((line, at)) = bare_cr(&data[..data.len().min(1 << 20)]) {
        return Err(format!(
            "{line}: a line break by a bare CR at character {at}: lines ended by CR alone (old \
             Mac line ends) are one record each to this reader; convert them (tr '\\r' '\\n')"
        ));
    }
    let lines = head_lines(data, HEAD_LINES);
    let Some(first) = lines.first() else {
        // Nothing but comments: any layout answers nothing.
        let layout = Layout::new(
            Shape::Line,
            forced.boxes_or(Boxes::NINE),
            forced.symbols.unwrap_or(Symbols::Digits),
        );
        return Ok(plain(layout));
    };
    let forced_delim = match forced.shape {
        Some(ShapeName::Csv) => Some(b','),
        Some(ShapeName::Tsv) => Some(b'\t'),
        _ => None,
    };
    let header_delim = match forced_delim {
        Some(d) => looks_like_header(first.text, d).then_some(d),
        None if forced.shape.is_some() => None,
        // `;`: the CSV of locales whose decimal mark is a comma.
        None => [b',', b'\t', b';']
            .into_iter()
            .find(|&d| looks_like_header(first.text, d)),
    };
    if let Some(d) = header_delim.or(forced
        .column
        .as_ref()
        .and(Some(forced_delim.unwrap_or(b','))))
    {
        return detect_csv(first, &lines[1..], forced, d);
    }
    if forced.column.is_some() {
        return Err("--column only applies to CSV input".into());
    }
    let mut sizes = forced.sizes();
    sizes.small |= only_small_symbols(&lines);
    // The vote: lines per kind, and the first line of each.
    let mut votes: HashMap<Kind, (usize, u64)> = HashMap::new();
    let mut rules = 0;
    // Under a forced delimited layout, a lone puzzle is a one-field row
    // (its empty trailing fields were trimmed with the line's whitespace).
    let kind_in = |text: &[u8]| match (kind_of(text, sizes), forced.shape) {
        (Some(Kind::Line(b)), Some(ShapeName::Csv)) => Some(Kind::Delim(b',', b)),
        (Some(Kind::Line(b)), Some(ShapeName::Tsv)) => Some(Kind::Delim(b'\t', b)),
        (Some(Kind::Line(b)), Some(ShapeName::Tdoku)) => Some(Kind::Delim(b':', b)),
        (k, _) => k,
    };
    let mut unread = 0;
    for l in &lines {
        match kind_in(l.text) {
            Some(Kind::Rule) => rules += 1,
            Some(k) if forced.shape.is_none_or(|f| k.fits(f)) => {
                votes.entry(k).or_insert((0, l.number)).0 += 1
            }
            Some(_) => {}
            None => unread += 1,
        }
    }
    for (k, v) in votes.iter_mut() {
        if matches!(k, Kind::Boxed(_)) {
            v.0 += rules;
        }
    }
    let Some((&kind, &(count, _))) = votes
        .iter()
        .max_by_key(|(_, &(count, first))| (count, std::cmp::Reverse(first)))
    else {
        return Err(unknown(first, forced));
    };
    // A grid layout that fewer lines fit than one grid has rows, while
    // more lines fit nothing, is no layout of the file: a header alone
    // (`puzzle|solution`, 15 cells of a boxed row) above rows no layout
    // reads made every row a bad record of 15x15 grids.
    let rows = matches!(kind, Kind::Boxed(_) | Kind::Spaced(_) | Kind::Grid(_));
    if rows && count < kind.side() && unread > count {
        return Err(unknown(first, forced));
    }
    // Another grid size of the same shape, more than a stray line or two:
    // a mixed file, which one layout cannot answer.
    if let Some((&other, &(n, at))) = votes
        .iter()
        .filter(|(k, _)| k.same_shape(kind) && k.side() != kind.side())
        .max_by_key(|(_, &(n, _))| n)
    {
        if n >= 2 && n * 10 >= count {
            let name = |n: usize| format!("{n}x{n}");
            return Err(format!(
                "{at}: mixed grid sizes: {count} lines of {} puzzles (from line {}) and {n} of {} \
                 (from line {at}); solve each size on its own",
                name(kind.side()),
                votes[&kind].1,
                name(other.side()),
            ));
        }
    }
    let side = kind.side();
    let boxes = forced.boxes_for(side)?;
    let sample: Vec<&[u8]> = lines
        .iter()
        .filter(|l| kind_in(l.text) == Some(kind))
        .map(|l| l.text)
        .collect();
    let at = votes[&kind].1;
    let guess = |cells: Vec<Vec<u8>>| -> Result<Symbols, String> {
        match forced.symbols {
            Some(s) => Ok(s),
            None => guess_symbols(side, cells.iter().map(Vec::as_slice))
                .map_err(|e| format!("{at}: {e}")),
        }
    };
    let token = |t: &[u8]| {
        t.split(u8::is_ascii_whitespace)
            .next()
            .unwrap_or(b"")
            .to_vec()
    };
    let (shape, symbols) = match kind {
        Kind::Line(_) => {
            let tokens: Vec<Vec<u8>> = sample.iter().map(|t| token(t)).collect();
            // 729 characters, each `.` or its own candidate digit: 9x9
            // pencilmark lines, not 27x27 puzzles (which would need
            // symbols past 9, and digits in no such pattern). The
            // majority decides, as for the shape: an odd line is a bad
            // record later.
            let marks = tokens
                .iter()
                .filter(|t| crate::text::is_marks_line(t))
                .count();
            if side == 27
                && forced.symbols.is_none()
                && forced.side().is_none()
                && marks * 2 > tokens.len()
            {
                return Ok(plain(Layout::pencilmarks()));
            }
            let mut symbols = guess(tokens.clone())?;
            if forced.symbols.is_none() {
                // Line by line, as values are (see [`most_read`]).
                let values: Vec<&[u8]> = tokens.iter().map(Vec::as_slice).collect();
                symbols = most_read(Layout::new(Shape::Line, boxes, symbols), &values).symbols;
            }
            (Shape::Line, symbols)
        }
        Kind::Grid(_) => (
            Shape::Grid,
            guess(sample.iter().map(|t| token(t)).collect())?,
        ),
        Kind::Boxed(_) => (
            Shape::Boxed,
            guess(sample.iter().map(|t| boxed_cells(t).collect()).collect())?,
        ),
        Kind::Spaced(_) => (Shape::Spaced, forced.symbols.unwrap_or(Symbols::Numbers)),
        Kind::Numbers(d, _) => (
            Shape::Numbers(d),
            forced.symbols.unwrap_or(Symbols::Numbers),
        ),
        Kind::Delim(d, _) => {
            let fields: Vec<Vec<&[u8]>> = sample
                .iter()
                .map(|t| t.split(|&b| b == d).map(unquote).collect())
                .collect();
            let n = side * side;
            let solution = if d == b':' && fields.iter().all(|f| f.len() >= 3) {
                // tdoku: puzzle:count:solution.
                Some(2)
            } else {
                // The first later field that is empty or a whole grid in
                // every row holds the label; with none, one is appended.
                let width = fields.iter().map(Vec::len).min().unwrap_or(1);
                (1..width).find(|&j| fields.iter().all(|f| f[j].is_empty() || f[j].len() == n))
            };
            let cols = CsvColumns {
                puzzle: 0,
                solution,
                delim: d,
            };
            (
                Shape::Csv(cols),
                guess(fields.iter().map(|f| f[0].to_vec()).collect())?,
            )
        }
        Kind::Rule => unreachable!("rules do not vote on their own"),
    };
    let mut detected = plain(Layout::new(shape, boxes, symbols));
    // A count line (judge style) comes only before grids, and only when it
    // matches the records that follow; anywhere else a short number is a
    // record, reported as bad.
    if matches!(shape, Shape::Grid | Shape::Spaced | Shape::Boxed)
        && first.text.len() <= 9
        && first.text.iter().all(u8::is_ascii_digit)
        && kind_of(first.text, sizes) != Some(kind)
    {
        let said: u64 = first.text.parse_ascii().unwrap_or(u64::MAX);
        let found = Records::new(&detected.layout, &data[first.end..])
            .take_while(|i| *i != Item::End)
            .count() as u64;
        if said == found || (!whole && said >= found) {
            detected.skip_bytes = first.end;
            detected.skip_lines = first.number;
            detected.announced = (!whole).then_some(said);
        } else {
            return Err(format!(
                "{}: the count line says {said} puzzles but {}{found} follow; fix the count or \
                 delete the line",
                first.number,
                if whole { "" } else { "at least " }
            ));
        }
    }
    Ok(detected)
}

trait ParseAscii {
    fn parse_ascii(&self) -> Option<u64>;
}

impl ParseAscii for [u8] {
    fn parse_ascii(&self) -> Option<u64> {
        std::str::from_utf8(self).ok()?.parse().ok()
    }
}

fn unknown(first: &HeadLine<'_>, forced: &Forced) -> String {
    let what = match (forced.shape, forced.side()) {
        (Some(_), _) => "no line of the head fits the --format given",
        (None, Some(_)) => "no line of the head fits the grid size given",
        (None, None) => "cannot tell the layout",
    };
    if forced.side().is_some() {
        return format!(
            "{}: {what} ({}): {}; the line holds {} characters",
            first.number,
            forced.expected_cells(),
            quote(first.text),
            first.text.len()
        );
    }
    format!(
        "{}: {what} from {}: expected N*N cells per line for a grid side N (81 for 9x9, \
         36 for 6x6, 256 for 16x16, ...: alone, as the first field of a CSV/TSV/tdoku row, \
         or as numbers), rows of N cells (plain, space-separated, or boxed with `|`), or a \
         CSV header; use --format, --size or --box",
        first.number,
        quote(first.text)
    )
}

/// What the data is when it is clearly not puzzle text (a compressed,
/// archive or binary head), from its first 4 KiB.
pub fn not_text(data: &[u8]) -> Option<String> {
    let head = &data[..data.len().min(4096)];
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\x1f\x8b", "gzip-compressed data"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
        (b"\xfd7zXZ\x00", "xz-compressed data"),
        (b"BZh", "bzip2-compressed data"),
        (b"PK\x03\x04", "a zip archive"),
        (b"PAR1", "a Parquet file"),
        (b"\x93NUMPY", "a NumPy .npy file"),
        (b"ARROW1", "an Arrow file"),
    ];
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        return Some("UTF-16 text: convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)".into());
    }
    let zeros = |parity: usize| {
        head.iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let half = head.len() / 2;
    if half >= 2
        && (zeros(0) * 4 >= half * 3 || zeros(1) * 4 >= half * 3)
        && zeros(0).min(zeros(1)) == 0
    {
        return Some("UTF-16 text: convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)".into());
    }
    for (magic, name) in MAGIC {
        if head.starts_with(magic) && (magic.len() > 2 || head.contains(&0) || head.len() < 3) {
            return Some(format!("{name}, not text"));
        }
    }
    let is_control = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) || b == 0x7f;
    let control = head.iter().filter(|&&b| is_control(b)).count();
    if head.contains(&0) || control * 100 > head.len() {
        // Where the first such byte is: text with one stray NUL starts
        // like text, so its start says nothing.
        let at = head
            .iter()
            .position(|&b| b == 0)
            .or_else(|| head.iter().position(|&b| is_control(b)))
            .unwrap_or(0);
        let line = head[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = head[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        return Some(format!(
            "binary data, not text: byte {} on line {line}, column {}",
            quote(&head[at..at + 1]),
            at - line_start + 1
        ));
    }
    None
}

fn plain(layout: Layout) -> Detected {
    Detected {
        layout,
        skip_bytes: 0,
        skip_lines: 0,
        preamble: Vec::new(),
        header: Vec::new(),
        announced: None,
    }
}

/// True when `data` is blank and comment lines only (no record, no `end`):
/// the head of a stream that has not shown its layout yet.
pub fn only_comments(data: &[u8]) -> bool {
    data.split(|&b| b == b'\n')
        .all(|l| matches!(classify_line(l), Line::Skip))
}

/// The first `max` content lines (no blanks or comments), stopping at `end`.
fn head_lines(data: &[u8], max: usize) -> Vec<HeadLine<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut number = 0;
    while pos < data.len() && out.len() < max {
        let end = memchr::memchr(b'\n', &data[pos..]).map_or(data.len(), |i| pos + i + 1);
        number += 1;
        match classify_line(&data[pos..end]) {
            Line::Skip => {}
            Line::End => break,
            Line::Text(text) => out.push(HeadLine { number, end, text }),
        }
        pos = end;
    }
    out
}

/// A first line that names columns: a known puzzle column alone, or
/// delimited fields where none is a puzzle and one starts with a letter.
fn looks_like_header(line: &[u8], d: u8) -> bool {
    let fields: Vec<&[u8]> = line.split(|&b| b == d).map(unquote).collect();
    if fields.len() == 1 {
        return KNOWN_COLUMNS
            .iter()
            .any(|(p, _)| fields[0].eq_ignore_ascii_case(p.as_bytes()));
    }
    fields.iter().all(|f| {
        Sizes {
            small: false,
            side: None,
        }
        .of_cells(f.len())
        .is_none()
    }) && fields
        .iter()
        .any(|f| f.first().is_some_and(u8::is_ascii_alphabetic))
}

/// A CSV field without surrounding whitespace and quotes (detection only
/// needs a rough look; records are parsed properly by `layout`).
fn unquote(field: &[u8]) -> &[u8] {
    let f = field.trim_ascii();
    let f = f.strip_prefix(b"\"").unwrap_or(f);
    f.strip_suffix(b"\"").unwrap_or(f)
}

fn detect_csv(
    header: &HeadLine<'_>,
    rows: &[HeadLine<'_>],
    forced: &Forced,
    delim: u8,
) -> Result<Detected, String> {
    let reader = || {
        let mut b = csv::ReaderBuilder::new();
        b.has_headers(false).flexible(true).delimiter(delim);
        b
    };
    let mut record = csv::StringRecord::new();
    reader()
        .from_reader(header.text)
        .read_record(&mut record)
        .map_err(|e| format!("{}: cannot read the CSV header: {e}", header.number))?;
    let names: Vec<String> = record
        .iter()
        .map(|f| f.trim().to_ascii_lowercase())
        .collect();
    let find = |name: &str| names.iter().position(|n| n == name);
    let (puzzle, solution) = match &forced.column {
        Some(col) => {
            let p = find(&col.to_ascii_lowercase()).ok_or_else(|| {
                format!(
                    "{}: no CSV column {} (columns: {})",
                    header.number,
                    quote(col.as_bytes()),
                    names.join(", ")
                )
            })?;
            let s = KNOWN_COLUMNS
                .iter()
                .find(|(pz, _)| names[p] == *pz)
                .and_then(|(_, s)| find(s))
                .or_else(|| find("solution"));
            (p, s)
        }
        None => KNOWN_COLUMNS
            .iter()
            .find_map(|(p, s)| find(p).map(|p| (p, find(s))))
            .ok_or_else(|| {
                format!(
                    "{}: CSV header has no known puzzle column (columns: {}); \
                     name it with --column NAME",
                    header.number,
                    quote(names.join(", ").as_bytes())
                )
            })?,
    };
    let cols = CsvColumns {
        puzzle,
        solution,
        delim,
    };
    // Grid size and symbols from the puzzle fields of the head: the most
    // common size wins (a bad row is reported later, not here).
    // A row whose quoted field goes on over lines is one record: its
    // lines joined (blank and comment lines inside it are not among the
    // head's lines; the puzzle field is what is read here).
    let mut records: Vec<(u64, Vec<u8>)> = Vec::new();
    let mut open = false;
    for r in rows {
        match records.last_mut() {
            Some((_, text)) if open => {
                text.push(b'\n');
                text.extend_from_slice(r.text);
            }
            _ => records.push((r.number, r.text.to_vec())),
        }
        open = quote_open_after(r.text, delim, open);
    }
    let fields: Vec<(u64, Vec<u8>)> = records
        .iter()
        .filter_map(|(number, text)| {
            // A row without quotes or CR is read by the csv reader as the
            // slices between delimiters: split it so (building a reader a
            // row was 270,000 instructions, 57M for the 200-line head).
            let t = text.strip_suffix(b"\r").unwrap_or(text);
            if !t.is_empty() && memchr::memchr2(b'"', b'\r', t).is_none() {
                let field = t.split(|&b| b == delim).nth(puzzle)?;
                return Some((*number, field.trim_ascii().to_vec()));
            }
            let mut rec = csv::ByteRecord::new();
            reader()
                .from_reader(&text[..])
                .read_byte_record(&mut rec)
                .ok()?;
            Some((*number, rec.get(puzzle)?.trim_ascii().to_vec()))
        })
        .collect();
    // Cells of a field: its characters, or its numbers when it holds
    // numbers separated by spaces or commas (grids past 36x36 have no
    // one-character form; any size may be written so). A whole column
    // holds whole puzzles: 16 cells are a 4x4 one.
    let column = Sizes {
        small: true,
        ..forced.sizes()
    };
    let mut sizes: HashMap<(usize, bool), (usize, u64)> = HashMap::new();
    for (number, f) in &fields {
        let (cells, numeric) = number_count(f).map_or((f.len(), false), |n| (n, true));
        if let Some(b) = column.of_cells(cells) {
            sizes.entry((b, numeric)).or_insert((0, *number)).0 += 1;
        }
    }
    let (side, symbols) = match sizes
        .iter()
        .max_by_key(|(_, &(n, at))| (n, std::cmp::Reverse(at)))
    {
        None if fields.is_empty() => (
            forced.boxes_or(Boxes::NINE).side(),
            forced.symbols.unwrap_or(Symbols::Digits),
        ),
        None => {
            let (number, f) = &fields[0];
            let (cells, what) = match number_count(f) {
                Some(n) => (n, "numbers"),
                None => (f.len(), "cells"),
            };
            return Err(format!(
                "{number}: the puzzle field has {cells} {what}; {}",
                forced.expected_cells()
            ));
        }
        Some((&(b, true), _)) => (b, Symbols::Numbers),
        Some((&(b, false), &(_, at))) => {
            let s = match forced.symbols {
                Some(s) => s,
                None => guess_symbols(
                    b,
                    fields
                        .iter()
                        .filter(|(_, f)| f.len() == b * b)
                        .map(|(_, f)| f.as_slice()),
                )
                .map_err(|e| format!("{at}: {e}"))?,
            };
            (b, s)
        }
    };
    let header_line = header.text.to_vec();
    let mut preamble = header.text.to_vec();
    if solution.is_none() {
        preamble.push(delim);
        preamble.extend_from_slice(b"solution");
    }
    preamble.push(b'\n');
    Ok(Detected {
        layout: Layout::new(Shape::Csv(cols), forced.boxes_for(side)?, symbols),
        skip_bytes: header.end,
        skip_lines: header.number,
        preamble,
        header: header_line,
        announced: None,
    })
}

/// Symbols of a grid `side` cells wide from the cell text of sample
/// records. Up to 9 they are digits; 16x16 may be letters `A`-`P` or hex
/// digits `0`-`F` / `1`-`G`; other sides up to 35 are `1`-`9` then letters
/// or, up to 26, letters alone (judge files); 36x36 is `0`-`9` then `A`-`Z`.
fn guess_symbols<'a>(
    side: usize,
    sample: impl Iterator<Item = &'a [u8]>,
) -> Result<Symbols, String> {
    if side <= 9 {
        // Letters and no digit: a letters-only judge file (`A`.. for 1..).
        let (mut letters, mut digits) = (false, false);
        for text in sample {
            letters |= text.iter().any(u8::is_ascii_alphabetic);
            digits |= text.iter().any(|b| (b'1'..=b'9').contains(b));
        }
        return Ok(if letters && !digits {
            Symbols::Letters
        } else {
            Symbols::Digits
        });
    }
    if side > 36 {
        return Err(format!(
            "no one-character symbols for {side}x{side} grids; use space-separated numbers"
        ));
    }
    let mut seen = [false; 256];
    // Some text holds more `0`s than a digit can hold in its cells (once
    // per row of 16): there `0` is a blank, not the digit 0.
    let mut zeros_are_blanks = false;
    for text in sample {
        for &b in text {
            seen[b.to_ascii_uppercase() as usize] = true;
        }
        let zeros = text.iter().filter(|&&b| b == b'0').count();
        zeros_are_blanks |= zeros > text.len().div_ceil(16);
    }
    let any = |range: std::ops::RangeInclusive<u8>| range.into_iter().any(|b| seen[b as usize]);
    let has_digits = any(b'1'..=b'9');
    let letters_from = |v: usize| b'A' + (v - 1) as u8;
    if side == 36 {
        return Ok(Symbols::Hex0);
    }
    if side != 16 {
        // Letters past the last one of `1`-`9`-then-letters mean letters only.
        let beyond_hex1 = side < 35 && any(letters_from(side - 8)..=b'Z');
        return Ok(if side > 26 || (has_digits && !beyond_hex1) {
            if beyond_hex1 {
                return Err(format!(
                    "{side}x{side} cells mix digits and letters beyond {}; use --format",
                    char::from(letters_from(side - 9))
                ));
            }
            Symbols::Hex1
        } else {
            Symbols::Letters
        });
    }
    Ok(if any(b'H'..=b'P') {
        // Letters past `G` are letters only, where `0` is no symbol but a
        // blank (as on other sides); only a digit 1-9 contradicts them.
        if has_digits {
            return Err("16x16 cells mix digits and letters beyond G; use --format".into());
        }
        Symbols::Letters
    } else if seen[b'G' as usize] {
        Symbols::Hex1
    } else if !has_digits && !seen[b'0' as usize] {
        Symbols::Letters
    } else if seen[b'0' as usize] && [b'.', b'-', b'_', b'*'].iter().any(|&b| seen[b as usize]) {
        Symbols::Hex0
    } else if seen[b'0' as usize] && zeros_are_blanks {
        Symbols::Hex1
    } else {
        return Err(
            "16x16 cells written in hex digits: cannot tell 0-F from 1-G; \
                    use --format hex0 or --format hex1"
                .into(),
        );
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(data: &str) -> (Shape, usize, Symbols, usize) {
        let d = detect(data.as_bytes(), &Forced::default()).unwrap();
        (
            d.layout.shape,
            d.layout.boxes.rows(),
            d.layout.symbols,
            d.skip_bytes,
        )
    }

    #[test]
    fn lines_of_sixteen_small_symbols_are_4x4_puzzles() {
        // As `generate --size 4` writes them, and as numbers or CSV.
        for text in [
            "1.3.....2...4...\n..2.3.....1.4...\n",
            "1030000020004000\n",
            "quizzes,solutions\n1.3.....2...4...,\n",
        ] {
            let d = detect(text.as_bytes(), &Forced::default()).unwrap();
            assert_eq!(d.layout.boxes.side(), 4, "{text:?}");
        }
        let (shape, rows, ..) = shape_of("1 0 3 0 0 0 0 0 2 0 0 0 4 0 0 0\n");
        assert_eq!((shape, rows), (Shape::Numbers(b' '), 2));
        let (shape, rows, ..) = shape_of("1.3.\n....\n2...\n4...\n");
        assert_eq!((shape, rows), (Shape::Grid, 2));
        // A symbol past 4 makes the line a row of a 16x16 grid again.
        let row = "1.3.....2...4..G\n".repeat(16);
        assert_eq!(shape_of(&row).1, 4);
    }

    #[test]
    fn symbols_a_small_puzzle_cannot_hold_make_rows_of_a_big_grid() {
        // Letters-only judge files of 4x4, 6x6 and 9x9 puzzles.
        for (text, side) in [
            ("DA...C...D.A....\n.B..C.....D.A...\n", 4),
            (".D.......E.....F....A....A.D.F.F..AB\n", 6),
            (&format!("{}\n", "I.B...FA.".repeat(9)), 9),
        ] {
            let d = detect(text.as_bytes(), &Forced::default()).unwrap();
            assert_eq!(d.layout.boxes.side(), side, "{text:?}");
            assert_eq!(d.layout.symbols, Symbols::Letters, "{text:?}");
        }
        // 36 characters with letters past F: a row of a 36x36 grid.
        let row = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\n".repeat(36);
        let (shape, rows, ..) = shape_of(&row);
        assert_eq!((shape, rows), (Shape::Grid, 6));
        // 36 numbers, some past 6: a row of a spaced 36x36 grid.
        let numbers: Vec<String> = (0..36).map(|k| (k % 37).to_string()).collect();
        let row = format!("{}\n", numbers.join(" ")).repeat(36);
        let (shape, rows, ..) = shape_of(&row);
        assert_eq!((shape, rows), (Shape::Spaced, 6));
        // Within 0-6 they stay one 6x6 puzzle a line.
        let small: Vec<String> = (0..36).map(|k| (k % 7).to_string()).collect();
        let (shape, rows, ..) = shape_of(&format!("{}\n", small.join(" ")));
        assert_eq!((shape, rows), (Shape::Numbers(b' '), 2));
    }

    #[test]
    fn recognises_each_layout() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        assert_eq!(
            shape_of(&format!("# c\n{line}\n")),
            (Shape::Line, 3, Symbols::Digits, 0)
        );
        assert_eq!(
            shape_of("1\n103000509\n002109400\n"),
            (Shape::Grid, 3, Symbols::Digits, 2)
        );
        assert_eq!(
            shape_of("103000509\n002109400\n"),
            (Shape::Grid, 3, Symbols::Digits, 0)
        );
        assert_eq!(
            shape_of("8 0 0 0 0 0 0 0 0\n0 0 3 6 0 0 0 0 0\n"),
            (Shape::Spaced, 3, Symbols::Numbers, 0)
        );
        assert_eq!(
            shape_of("--A----C-----O-I\n-J--A-B-P-CGF-H-\n"),
            (Shape::Grid, 4, Symbols::Letters, 0)
        );
        let hex1 = format!("{}G\n", "1.".repeat(127) + "0");
        assert_eq!(shape_of(&hex1).2, Symbols::Hex1);
        let hex0 = format!("{}\n", "0.".repeat(128));
        assert_eq!(shape_of(&hex0).2, Symbols::Hex0);
        let unclear = format!("{}\n", "1.".repeat(128));
        let err = detect(unclear.as_bytes(), &Forced::default()).unwrap_err();
        assert!(err.contains("hex0"), "{err}");
        // `0` blanks without a `G`: 1-G when there are more `0`s than the
        // digit 0 could fill (16 in a grid); a full 0-F grid has just 16,
        // and could be either.
        let blanks0 = format!("{}\n", "10".repeat(128));
        assert_eq!(shape_of(&blanks0).2, Symbols::Hex1);
        let full: String = (0..16)
            .flat_map(|r| {
                (0..16).map(move |c| b"0123456789ABCDEF"[(r * 4 + r / 4 + c) % 16] as char)
            })
            .collect();
        let err = detect(format!("{full}\n").as_bytes(), &Forced::default()).unwrap_err();
        assert!(err.contains("hex0"), "{err}");
        let under = format!("{}0\n", "_1".repeat(127) + "0");
        assert_eq!(shape_of(&under).2, Symbols::Hex0);
        let forced = Forced {
            symbols: Some(Symbols::Hex1),
            ..Forced::default()
        };
        assert_eq!(
            detect(unclear.as_bytes(), &forced).unwrap().layout.symbols,
            Symbols::Hex1
        );
    }

    #[test]
    fn semicolon_csv_and_a_header_alone_above_unread_rows() {
        let p = ".".repeat(81);
        let rows: String = (0..5).map(|i| format!("{i};{p};\n")).collect();
        let d = detect(
            format!("id;puzzle;solution\n{rows}").as_bytes(),
            &Forced::default(),
        );
        match d.unwrap().layout.shape {
            Shape::Csv(c) => assert_eq!((c.delim, c.puzzle, c.solution), (b';', 1, Some(2))),
            s => panic!("{s:?}"),
        }
        // `puzzle|solution` reads as one row of a 15x15 boxed grid, and no
        // row under it as anything: no layout, not 15x15 grids.
        let rows: String = (0..5).map(|_| format!("{p}|\n")).collect();
        let err = detect(
            format!("puzzle|solution\n{rows}").as_bytes(),
            &Forced::default(),
        );
        assert!(err.unwrap_err().starts_with("1: cannot tell the layout"));
    }

    #[test]
    fn a_quoted_field_over_lines_before_the_puzzle_is_one_row() {
        // The only row's note spans two lines: its puzzle field is on the
        // second, third field of the record (before: of the line, empty).
        let p = ".".repeat(81);
        let text = format!("id,note,puzzle,solution\n1,\"line a\nline b\",{p},\n");
        let d = detect(text.as_bytes(), &Forced::default()).unwrap();
        assert_eq!(d.layout.boxes.side(), 9);
        match d.layout.shape {
            Shape::Csv(c) => assert_eq!(c.puzzle, 2),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn csv_headers_pick_the_puzzle_column() {
        let d = detect(b"quizzes,solutions\n0043,1234\n", &Forced::default());
        // 4 cells is no supported size: the error names the line.
        assert!(d.unwrap_err().starts_with("2: "));
        let p = ".".repeat(81);
        let d = detect(
            format!("id,puzzle,solution,clues,difficulty\n1,{p},,0,0.0\n").as_bytes(),
            &Forced::default(),
        )
        .unwrap();
        assert_eq!(
            d.layout.shape,
            Shape::Csv(CsvColumns {
                puzzle: 1,
                solution: Some(2),
                delim: b',',
            })
        );
        assert_eq!(d.skip_lines, 1);
        let d = detect(format!("a,b\n{p},x\n").as_bytes(), &Forced::default());
        assert!(d.unwrap_err().contains("--column"));
        let forced = Forced {
            column: Some("A".into()),
            ..Forced::default()
        };
        let d = detect(format!("a,b\n{p},x\n").as_bytes(), &forced).unwrap();
        assert_eq!(d.preamble, b"a,b,solution\n");
    }

    #[test]
    fn unknown_layouts_ask_for_format() {
        let err = detect(b"# x\n12345\n", &Forced::default()).unwrap_err();
        assert!(err.starts_with("2: cannot tell the layout"), "{err}");
        assert!(err.contains("--format"));
    }

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn lines(first: &str, n: usize, row: &str) -> String {
        std::iter::once(first.to_string())
            .chain(std::iter::repeat_n(row.to_string(), n))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    }

    #[test]
    fn the_majority_decides_not_the_first_line() {
        for first in [
            "12345678x",
            "ABCDEFGHIJKLMNOP",
            "12345",
            "1 2 3 4 5 6 7 8 9",
        ] {
            let (shape, b, _, skip) = shape_of(&lines(first, 20, P));
            assert_eq!((shape, b, skip), (Shape::Line, 3, 0), "{first}");
        }
        // A forced line layout never takes a count line either.
        let forced = Forced {
            shape: Some(ShapeName::Line),
            ..Forced::default()
        };
        let d = detect(lines("3", 3, P).as_bytes(), &forced).unwrap();
        assert_eq!(d.skip_bytes, 0);
    }

    /// `n` values of 16x16 letters: the first `A`-`G` only, the others
    /// with `H`-`P` too.
    fn letters16(n: usize) -> Vec<Vec<u8>> {
        let row: Vec<u8> = (0..256u32).map(|i| b'A' + (i % 16) as u8).collect();
        let mut few = row.clone();
        for c in few.iter_mut().filter(|c| **c > b'G') {
            *c = b'.';
        }
        std::iter::once(few)
            .chain(std::iter::repeat_n(row, n - 1))
            .collect()
    }

    #[test]
    fn values_are_each_their_own_record() {
        let v = |values: &[&[u8]]| detect_values(values.iter().copied(), &Forced::default());
        let p = P.as_bytes();
        let mut nul = p.to_vec();
        nul[40] = 0;
        // A bad value anywhere, even first, is left out; the size most
        // values have wins over a first value of another size.
        for bad in [
            &nul[..],
            &p[..80],
            b"x",
            b"",
            b"a\nb",
            &P.repeat(2).into_bytes(),
        ] {
            let l = v(&[bad, p, p]).unwrap().unwrap();
            assert_eq!(
                (l.shape, l.cells()),
                (Shape::Line, 81),
                "{}",
                bad.escape_ascii()
            );
        }
        let sixteen = letters16(2);
        let l = v(&[&sixteen[0], p, p]).unwrap().unwrap();
        assert_eq!(l.cells(), 81);
        let l = v(&[p, &sixteen[0], &sixteen[1]]).unwrap().unwrap();
        assert_eq!(l.cells(), 256);
        // No values: no layout; none a puzzle: the first one's reason.
        assert!(v(&[]).unwrap().is_none());
        let err = v(&[&p[..80], b"x"]).unwrap_err();
        assert!(
            err.starts_with("80 characters: expected N*N cells"),
            "{err}"
        );
        assert_eq!(
            v(&[&nul]).unwrap_err(),
            "binary data, not text: byte \"\\x00\" at character 41"
        );
        // A trailing line end is no second line, nor a leading one; a bare
        // `\r` inside is.
        let ends = format!("\n{P}\r\n");
        assert_eq!(v(&[ends.as_bytes()]).unwrap().unwrap().cells(), 81);
        let cr = format!("{P}\r{P}");
        assert_eq!(v(&[cr.as_bytes(), p, p]).unwrap().unwrap().cells(), 81);
        assert!(v(&[cr.as_bytes()])
            .unwrap_err()
            .starts_with("a line break at character 82"));
        // Empty and comment-only values are no votes (detection alone
        // would give them the default 9x9 layout).
        let (a, b) = (&sixteen[0][..], &sixteen[1][..]);
        let l = v(&[b"", b"  ", b"# note", b"", a, b]).unwrap().unwrap();
        assert_eq!(l.cells(), 256);
        assert_eq!(v(&[b" "]).unwrap_err(), "empty: no puzzle");
        assert_eq!(v(&[b"# x"]).unwrap_err(), "only a comment: no puzzle");
    }

    #[test]
    fn lines_ended_by_a_bare_cr_are_refused_whole() {
        // A comment ahead would hide every puzzle (one comment line to the
        // newline cut); CSV rows would be glued together.
        for (text, line, at) in [
            (format!("# mine\r{P}\r{P}\n"), 1, 7),
            (format!("id,puzzle\n1,{P}\r2,{P}\n"), 2, 84),
            (format!("{P}\n{P}\r{P}"), 2, 82),
        ] {
            let err = detect(text.as_bytes(), &Forced::default()).unwrap_err();
            let want = format!("{line}: a line break by a bare CR at character {at}:");
            assert!(err.starts_with(&want), "{err}");
        }
        // CRLF, a CR before the line end, a blank line of CRs: fine.
        for text in [format!("{P}\r\n{P}\r\n"), format!("{P} # c\r\n\r\r\n{P}\r")] {
            assert_eq!(shape_of(&text).0, Shape::Line, "{text:?}");
        }
    }

    #[test]
    fn symbols_are_counted_value_by_value() {
        // Ten 16x16 values in 0-F (each with a few `0` givens) and one in
        // 1-G: together they read as 1-G (`0` a blank, the givens lost);
        // value by value ten read as 0-F, and the `G` one is the bad row.
        let hex0 = b"0123456789ABCDEF";
        let mut values: Vec<Vec<u8>> = (0..10)
            .map(|k| {
                (0..256)
                    .map(|i| {
                        if (i + k) % 3 == 0 {
                            b'.'
                        } else {
                            hex0[(i * 7 + i / 16) % 16]
                        }
                    })
                    .collect()
            })
            .collect();
        let g: Vec<u8> = (0..256)
            .map(|i| if i % 2 == 0 { b'.' } else { b'G' })
            .collect();
        values.push(g);
        let refs: Vec<&[u8]> = values.iter().map(Vec::as_slice).collect();
        let l = detect_values(refs.iter().copied(), &Forced::default())
            .unwrap()
            .unwrap();
        assert_eq!(l.symbols, Symbols::Hex0);
        // Lines of a file the same.
        let text = refs.join(&b'\n');
        assert_eq!(
            detect(&text, &Forced::default()).unwrap().layout.symbols,
            Symbols::Hex0
        );
        // Without the `0`s, 1-G reads them all.
        let no_zeros: Vec<Vec<u8>> = values
            .iter()
            .map(|v| {
                v.iter()
                    .map(|&b| if b == b'0' { b'.' } else { b })
                    .collect()
            })
            .collect();
        let refs: Vec<&[u8]> = no_zeros.iter().map(Vec::as_slice).collect();
        let l = detect_values(refs.iter().copied(), &Forced::default())
            .unwrap()
            .unwrap();
        assert_eq!(l.symbols, Symbols::Hex1);
    }

    #[test]
    fn values_read_their_symbols_together() {
        // Alone, a 16x16 value with givens A-G reads as 1-9 then A-G.
        let values = letters16(3);
        let alone = detect_values([&values[0][..]], &Forced::default())
            .unwrap()
            .unwrap();
        assert_eq!(alone.symbols, Symbols::Hex1);
        let all = detect_values(values.iter().map(Vec::as_slice), &Forced::default());
        assert_eq!(all.unwrap().unwrap().symbols, Symbols::Letters);
        let forced = Forced {
            symbols: Some(Symbols::Letters),
            ..Forced::default()
        };
        let l = detect_values([&values[0][..]], &forced).unwrap().unwrap();
        assert_eq!(l.symbols, Symbols::Letters);
    }

    #[test]
    fn values_past_36x36_are_numbers() {
        let numbers: Vec<String> = (0..38 * 38).map(|i| ((i % 38) + 1).to_string()).collect();
        let value = numbers.join(" ");
        let l = detect_values([value.as_bytes()], &Forced::default())
            .unwrap()
            .unwrap();
        assert_eq!((l.shape, l.boxes.side()), (Shape::Numbers(b' '), 38));
        let mut cells = vec![0; l.cells()];
        l.parse_value(value.as_bytes(), &mut cells).unwrap();
        assert_eq!(cells[..3], [1, 2, 3]);
        let short = numbers[1..].join(" ");
        let err = detect_values([short.as_bytes()], &Forced::default()).unwrap_err();
        assert!(err.starts_with("1443 numbers: expected N*N cells"), "{err}");
    }

    #[test]
    fn delimited_rows_find_their_label_field() {
        let cols = |data: String| match detect(data.as_bytes(), &Forced::default())
            .unwrap()
            .layout
            .shape
        {
            Shape::Csv(c) => (c.delim, c.puzzle, c.solution),
            s => panic!("{s:?}"),
        };
        let a = "1".repeat(81);
        assert_eq!(
            cols(lines(&format!("{P},{a}"), 3, &format!("{P},"))),
            (b',', 0, Some(1))
        );
        assert_eq!(
            cols(lines(&format!("{P},x"), 3, &format!("{P},y"))),
            (b',', 0, None)
        );
        assert_eq!(
            cols(lines(&format!("{P},x,"), 1, &format!("{P},y,{a}"))),
            (b',', 0, Some(2))
        );
        assert_eq!(
            cols(lines(&format!("{P}::"), 2, &format!("{P}:1:{a}"))),
            (b':', 0, Some(2))
        );
        assert_eq!(
            cols(lines(&format!("{P}\t{a}"), 2, &format!("{P}\tx"))),
            (b'\t', 0, None)
        );
        // Forced: a lone puzzle is a one-field row (trailing tab trimmed).
        let forced = Forced {
            shape: Some(ShapeName::Tsv),
            ..Forced::default()
        };
        let d = detect(format!("{P}\t\n{P}\n").as_bytes(), &forced).unwrap();
        assert_eq!(
            d.layout.shape,
            Shape::Csv(CsvColumns {
                puzzle: 0,
                solution: None,
                delim: b'\t'
            })
        );
        // A TSV header with known names.
        let d = detect(
            format!("quizzes\tsolutions\n{P}\t\n").as_bytes(),
            &Forced::default(),
        )
        .unwrap();
        assert_eq!(
            d.layout.shape,
            Shape::Csv(CsvColumns {
                puzzle: 0,
                solution: Some(1),
                delim: b'\t'
            })
        );
        assert_eq!(d.skip_lines, 1);
    }

    #[test]
    fn boxed_and_number_lines() {
        let row = " . 3 . | 6 4 . | . . .";
        let (shape, b, ..) = shape_of(&format!("{row}\n-------|-------|-------\n{row}\n"));
        assert_eq!((shape, b), (Shape::Boxed, 3));
        let (shape, b, ..) = shape_of("*-----------*\n|..3|...|...|\n|---+---+---|\n");
        assert_eq!((shape, b), (Shape::Boxed, 3));
        let nums = vec!["0"; 81].join(" ");
        assert_eq!(shape_of(&format!("{nums}\n")).0, Shape::Numbers(b' '));
        let nums = vec!["16"; 256].join(",");
        let (shape, b, ..) = shape_of(&format!("{nums}\n"));
        assert_eq!((shape, b), (Shape::Numbers(b','), 4));
    }

    #[test]
    fn non_text_is_named() {
        let err = |data: &[u8]| detect(data, &Forced::default()).unwrap_err();
        assert!(err(b"\xff\xfe4\x00.\x00").contains("UTF-16"));
        let le: Vec<u8> = P.bytes().flat_map(|b| [b, 0]).collect();
        assert!(err(&le).contains("UTF-16"));
        assert!(err(b"\x1f\x8b\x08\x00\x00\x00").contains("gzip"));
        let e = err(b"\x00\x01\x02\x03garbage\x00\n");
        assert!(
            e.contains("binary data, not text: byte \"\\x00\" on line 1, column 1"),
            "{e}"
        );
        // One stray NUL in text: where it is, not how the text starts.
        let stray = format!("{P}\n{}\x00{}\n", &P[..26], &P[27..]);
        let e = err(stray.as_bytes());
        assert!(
            e.contains("binary data, not text: byte \"\\x00\" on line 2, column 27"),
            "{e}"
        );
        // Latin-1 in a comment is still text.
        let latin1 = [b"# caf\xe9\n".as_slice(), P.as_bytes()].concat();
        assert!(detect(&latin1, &Forced::default()).is_ok());
    }

    #[test]
    fn count_lines_must_match() {
        let grid = "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
        assert_eq!(shape_of(&format!("1\n{grid}")).3, 2);
        let e = detect(format!("2\n{grid}").as_bytes(), &Forced::default()).unwrap_err();
        assert!(e.starts_with("1: the count line says 2"), "{e}");
        // Only the head of stdin: more may follow.
        let d = detect_head(format!("2\n{grid}").as_bytes(), &Forced::default(), false).unwrap();
        assert_eq!(d.skip_lines, 1);
    }
}
