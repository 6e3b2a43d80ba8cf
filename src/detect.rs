//! Layout detection: reads the head of the input once, before the pipeline
//! starts, and decides the [`Layout`] (shape, grid size, symbols), plus any
//! header or count line to skip. When it cannot tell, it says so and asks for
//! `--format`.

use crate::format::{classify_line, CsvColumns, Layout, Line, Shape, Symbols};

/// What the user forced with `--format` and `--column`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forced {
    /// Record shape (`line`, `grid`, `spaced`, `csv`).
    pub shape: Option<ShapeName>,
    /// Cell symbols (`digits`, `letters`, `hex0`, `hex1`).
    pub symbols: Option<Symbols>,
    /// CSV column holding the puzzles.
    pub column: Option<String>,
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
    /// CSV with a header.
    Csv,
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
    /// Bytes to write before the answers (the CSV header).
    pub preamble: Vec<u8>,
}

/// CSV headers of known datasets: (puzzle column, solution column).
const KNOWN_COLUMNS: &[(&str, &str)] = &[
    ("quizzes", "solutions"), // Kaggle 1M
    ("puzzle", "solution"),   // Kaggle 3M and 9M
    ("question", "answer"),   // sudoku-extreme (HRM paper)
    ("quiz", "solution"),
];

/// Cells per line of the one-per-line shape, by box size 2..=5.
fn box_of_cells(n: usize) -> Option<usize> {
    (2..=5).find(|b| b * b * b * b == n && n != 16)
}

/// Box size of a row of `n` cells (grids 9x9 to 25x25; 4x4 rows are too
/// easy to confuse with other text to guess).
fn box_of_row(n: usize) -> Option<usize> {
    (3..=5).find(|b| b * b == n)
}

/// A content line of the head: 1-based line number, byte range, trimmed text.
struct HeadLine<'a> {
    number: u64,
    end: usize,
    text: &'a [u8],
}

/// Detects the layout of `data` (the whole input, or for stdin its first
/// buffer). Errors name the line that could not be understood.
pub fn detect(data: &[u8], forced: &Forced) -> Result<Detected, String> {
    let lines = head_lines(data, 200);
    let Some(first) = lines.first() else {
        // Nothing but comments: any layout answers nothing.
        let layout = Layout::new(Shape::Line, 3, forced.symbols.unwrap_or(Symbols::Digits));
        return Ok(plain(layout));
    };
    let csv = match forced.shape {
        Some(s) => s == ShapeName::Csv,
        None => forced.column.is_some() || looks_like_csv_header(first.text),
    };
    if csv {
        return detect_csv(first, &lines[1..], forced);
    }
    if forced.column.is_some() {
        return Err("--column only applies to CSV input".into());
    }
    // An optional count line (judge style) before grids.
    let mut skip = None;
    if lines.len() > 1
        && first.text.len() <= 9
        && first.text.iter().all(u8::is_ascii_digit)
        && lines[1].text.len() != first.text.len()
    {
        skip = Some(first);
    }
    let recs = &lines[skip.map_or(0, |_| 1)..];
    let Some(rec) = recs.first() else {
        return Ok(plain(Layout::new(Shape::Line, 3, Symbols::Digits)));
    };
    let tokens: Vec<&[u8]> = rec
        .text
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .collect();
    let numeric = |t: &&[u8]| t.iter().all(u8::is_ascii_digit) || *t == b"." || *t == b"-";
    let shape = match forced.shape {
        Some(ShapeName::Line) => Shape::Line,
        Some(ShapeName::Grid) => Shape::Grid,
        Some(ShapeName::Spaced) => Shape::Spaced,
        Some(ShapeName::Csv) => unreachable!("handled above"),
        None if box_of_cells(tokens[0].len()).is_some() => Shape::Line,
        None if tokens.len() > 1
            && box_of_row(tokens.len()).is_some()
            && tokens.iter().all(numeric) =>
        {
            Shape::Spaced
        }
        None if box_of_row(tokens[0].len()).is_some() => Shape::Grid,
        None => {
            return Err(format!(
                "{}: cannot tell the layout from {:?}: expected 81, 256 or 625 cells per \
                 line, rows of 9, 16 or 25 cells, or a CSV header; use --format",
                rec.number,
                shorten(rec.text)
            ))
        }
    };
    let (box_size, found) = match shape {
        Shape::Line => (box_of_cells(tokens[0].len()), tokens[0].len()),
        Shape::Spaced => (box_of_row(tokens.len()), tokens.len()),
        _ => (box_of_row(tokens[0].len()), tokens[0].len()),
    };
    let Some(box_size) = box_size else {
        return Err(format!(
            "{}: {found} cells is no supported grid size for this layout",
            rec.number
        ));
    };
    let symbols = match (shape, forced.symbols) {
        (_, Some(s)) => s,
        (Shape::Spaced, None) => Symbols::Numbers,
        (_, None) => guess_symbols(box_size, recs).map_err(|e| format!("{}: {e}", rec.number))?,
    };
    let mut detected = plain(Layout::new(shape, box_size, symbols));
    if let Some(count) = skip {
        detected.skip_bytes = count.end;
        detected.skip_lines = count.number;
    }
    Ok(detected)
}

fn plain(layout: Layout) -> Detected {
    Detected {
        layout,
        skip_bytes: 0,
        skip_lines: 0,
        preamble: Vec::new(),
    }
}

fn shorten(text: &[u8]) -> String {
    let s = String::from_utf8_lossy(&text[..text.len().min(40)]).into_owned();
    if text.len() > 40 {
        s + "..."
    } else {
        s
    }
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

/// A first line with a comma and a field that starts with a letter.
fn looks_like_csv_header(line: &[u8]) -> bool {
    memchr::memchr(b',', line).is_some()
        && line
            .split(|&b| b == b',')
            .any(|f| unquote(f).first().is_some_and(u8::is_ascii_alphabetic))
}

/// A CSV field without surrounding whitespace and quotes (detection only
/// needs a rough look; records are parsed properly by `format`).
fn unquote(field: &[u8]) -> &[u8] {
    let f = field.trim_ascii();
    let f = f.strip_prefix(b"\"").unwrap_or(f);
    f.strip_suffix(b"\"").unwrap_or(f)
}

fn detect_csv(
    header: &HeadLine<'_>,
    rows: &[HeadLine<'_>],
    forced: &Forced,
) -> Result<Detected, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(header.text);
    let mut record = csv::StringRecord::new();
    reader
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
                    "{}: no CSV column {col:?} (columns: {})",
                    header.number,
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
                    names.join(", ")
                )
            })?,
    };
    let cols = CsvColumns { puzzle, solution };
    // Grid size and symbols from the first rows' puzzle fields.
    let layout = Layout::new(
        Shape::Csv(cols),
        3,
        forced.symbols.unwrap_or(Symbols::Digits),
    );
    let fields: Vec<(u64, Vec<u8>)> = rows
        .iter()
        .filter_map(|r| {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(r.text);
            let mut rec = csv::ByteRecord::new();
            reader.read_byte_record(&mut rec).ok()?;
            Some((r.number, rec.get(puzzle)?.trim_ascii().to_vec()))
        })
        .collect();
    let sample: Vec<HeadLine<'_>> = fields
        .iter()
        .map(|(number, text)| HeadLine {
            number: *number,
            end: 0,
            text,
        })
        .collect();
    let (box_size, symbols) = match sample.first() {
        None => (3, layout.symbols),
        Some(f) => {
            let len = f.text.len();
            let b = box_of_cells(len).ok_or_else(|| {
                format!(
                    "{}: the puzzle field has {len} cells; expected 81, 256 or 625",
                    f.number
                )
            })?;
            let s = match forced.symbols {
                Some(s) => s,
                None => guess_symbols(b, &sample).map_err(|e| format!("{}: {e}", f.number))?,
            };
            (b, s)
        }
    };
    let mut preamble = header.text.to_vec();
    if solution.is_none() {
        preamble.extend_from_slice(b",solution");
    }
    preamble.push(b'\n');
    Ok(Detected {
        layout: Layout::new(Shape::Csv(cols), box_size, symbols),
        skip_bytes: header.end,
        skip_lines: header.number,
        preamble,
    })
}

/// Symbols of a grid with `box_size` from the characters of sample records.
/// Only 16x16 is ambiguous: letters `A`-`P`, or hex digits `0`-`F` / `1`-`G`.
fn guess_symbols(box_size: usize, sample: &[HeadLine<'_>]) -> Result<Symbols, String> {
    match box_size {
        2 | 3 => return Ok(Symbols::Digits),
        5 => return Ok(Symbols::Letters),
        4 => {}
        _ => {
            return Err(format!(
                "no text symbols for {0}x{0} grids; use space-separated numbers",
                box_size * box_size
            ))
        }
    }
    let mut seen = [false; 256];
    for line in sample {
        for &b in line
            .text
            .split(u8::is_ascii_whitespace)
            .next()
            .unwrap_or(b"")
        {
            seen[b.to_ascii_uppercase() as usize] = true;
        }
    }
    let any = |range: std::ops::RangeInclusive<u8>| range.into_iter().any(|b| seen[b as usize]);
    let has_digits = any(b'0'..=b'9');
    Ok(if any(b'H'..=b'P') {
        if has_digits {
            return Err("16x16 cells mix digits and letters beyond G; use --format".into());
        }
        Symbols::Letters
    } else if seen[b'G' as usize] {
        Symbols::Hex1
    } else if !has_digits {
        Symbols::Letters
    } else if seen[b'0' as usize] && (seen[b'.' as usize] || seen[b'-' as usize]) {
        Symbols::Hex0
    } else if seen[b'0' as usize] {
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
            d.layout.box_size,
            d.layout.symbols,
            d.skip_bytes,
        )
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
                solution: Some(2)
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
}
