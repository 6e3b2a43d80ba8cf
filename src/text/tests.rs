//! Unit tests of the text wing's layouts, records and CSV rows.

use super::csv::*;
use super::layout::*;
use super::*;
use crate::solver::Boxes;

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
                    for (puzzle, solution) in [(0, None), (0, Some(1)), (1, Some(0)), (2, Some(3))]
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
                        assert_eq!(wf.escape_ascii().to_string(), ws.escape_ascii().to_string());
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

/// Digit layouts whose runs take the arithmetic fast path of
/// `decode_run`: 4x4, 6x6 (2x3 boxes) and 9x9.
fn digit_layouts() -> Vec<Layout> {
    [
        Boxes::square(2),
        Boxes::new(2, 3).unwrap(),
        Boxes::square(3),
    ]
    .into_iter()
    .map(|b| Layout::new(Shape::Line, b, Symbols::Digits))
    .collect()
}

/// `layout` with the digit fast path off: the same decode table, under
/// another symbol set's name (the line parse reads only the table).
fn table_only(layout: &Layout) -> Layout {
    Layout {
        symbols: Symbols::Hex1,
        ..layout.clone()
    }
}

/// `decode_run` (fast path, then table) against the table alone: the same
/// verdict and the same cells (a bad run's cells are the table's, which
/// the error report reads); and the line parse of `token` gives the same
/// cells or the same error.
fn assert_decodes_as_table(layout: &Layout, token: &[u8]) {
    let reference = table_only(layout);
    let n = token.len();
    let (mut fast, mut table) = (vec![7u8; n], vec![7u8; n]);
    let ok = layout.decode_run(token, &mut fast);
    assert_eq!(ok, reference.decode_run(token, &mut table), "{token:?}");
    assert_eq!(fast, table, "{token:?}");
    let (mut a, mut b) = (vec![0u8; layout.cells()], vec![0u8; layout.cells()]);
    let parsed = layout.parse(token, &mut a);
    assert_eq!(parsed, reference.parse(token, &mut b), "{token:?}");
    if parsed.is_ok() {
        assert_eq!(a, b, "{token:?}");
    }
}

#[test]
fn digit_fast_path_matches_the_table_on_every_single_byte_change() {
    let line = b"8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let l = line9();
    let mut decoded = [0u8; 81];
    assert!(decode_digits(line, &mut decoded, 9));
    // Independent reading of the line: `.` blank, digits their value.
    for (&b, &v) in line.iter().zip(&decoded) {
        assert_eq!(v, if b == b'.' { 0 } else { b - b'0' });
    }
    let mut bad = 0;
    for i in 0..line.len() {
        for b in 0..=255u8 {
            let mut t = line.to_vec();
            t[i] = b;
            assert_decodes_as_table(&l, &t);
            let mut cells = [0u8; 81];
            bad += usize::from(!l.decode_run(&t, &mut cells));
        }
    }
    // Of 256 bytes, `0`-`9` and the blanks `.`, `_`, `*` decode.
    assert_eq!(bad, 81 * (256 - 13));
    // 4x4 and 6x6: digits past the side are bad on both paths.
    for layout in digit_layouts() {
        let side = layout.boxes.side();
        let good: Vec<u8> = (0..layout.cells())
            .map(|k| b"0.123456789"[k % (side + 2)])
            .collect();
        for i in 0..good.len() {
            for b in 0..=255u8 {
                let mut t = good.clone();
                t[i] = b;
                assert_decodes_as_table(&layout, &t);
            }
        }
    }
}

proptest! {
    /// Random runs, of bytes drawn mostly from the symbols so that good
    /// runs are common, decode on the fast path as on the table.
    #[test]
    fn digit_fast_path_matches_the_table_on_random_runs(
        runs in proptest::collection::vec(
            prop_oneof![
                4 => proptest::sample::select(b"0123456789.".to_vec()),
                1 => any::<u8>(),
            ],
            0..100,
        ),
        which in 0usize..3,
    ) {
        let layout = &digit_layouts()[which];
        assert_decodes_as_table(layout, &runs);
        // Full-length runs of good symbols most of the time.
        let n = layout.cells();
        let run: Vec<u8> = runs.iter().cycle().take(n).copied().collect();
        if run.len() == n {
            assert_decodes_as_table(layout, &run);
        }
    }
}
