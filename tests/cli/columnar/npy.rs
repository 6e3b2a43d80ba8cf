//! NumPy `.npy` arrays: every dtype and shape, answers in kind, bad rows
//! as zeros, and arrays NumPy wrote and reads back.

use super::*;

#[test]
fn npy_every_dtype_and_shape_solved_in_kind() {
    let set = fixtures(3, 40, 60, 1);
    let puzzles: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    for (descr, shape) in [
        ("|u1", "(40, 81)"),
        ("|i1", "(40, 9, 9)"),
        ("<i2", "(40, 81)"),
        ("<i4", "(40, 9, 9)"),
        ("<i8", "(40, 81)"),
        ("<u2", "(40, 81)"),
    ] {
        let (dir, path) = temp_file("p.npy", &npy(descr, shape, &puzzles));
        let out = dir.path().join("a.npy");
        for j in ["1", "2"] {
            solve_to(&path, &out).args(["-j", j]).note(descr).ok();
            let (d, s, values) = read_npy(&out);
            assert_eq!((d.as_str(), s.as_str()), (descr, shape));
            for (k, p) in puzzles.iter().enumerate() {
                let a: Vec<u8> = values[k * 81..(k + 1) * 81]
                    .iter()
                    .map(|&v| v as u8)
                    .collect();
                assert_valid(3, p, &a);
            }
        }
        // The answers pass `check`; a broken one does not.
        let o = sb(["check"]).arg(&path).arg(&out).ok();
        assert!(o.stdout().contains("40 records checked, 40 good, 0 bad"));
    }
}

#[test]
fn npy_16x16_and_text_output() {
    let set = fixtures(4, 6, 45, 2);
    let puzzles: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let (dir, path) = temp_file("p.npy", &npy("<i4", "(6, 16, 16)", &puzzles));
    let out = dir.path().join("a.npy");
    solve_to(&path, &out).ok();
    let (_, shape, values) = read_npy(&out);
    assert_eq!(shape, "(6, 16, 16)");
    for (k, p) in puzzles.iter().enumerate() {
        let a: Vec<u8> = values[k * 256..(k + 1) * 256]
            .iter()
            .map(|&v| v as u8)
            .collect();
        assert_valid(4, p, &a);
    }
    // `-o x.txt` writes one answer line per row, in letters.
    let txt = dir.path().join("a.txt");
    solve_to(&path, &txt).ok();
    let text = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(text.lines().count(), 6);
    for (p, line) in puzzles.iter().zip(text.lines()) {
        assert_valid(4, p, &cells(line, "", LETTERS));
    }
}

#[test]
fn npy_bad_rows_are_zeros_and_reported_by_index() {
    let set = fixtures(3, 5, 55, 3);
    let mut rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    rows[1] = clashing();
    rows[3][10] = 12; // not a 9x9 value
    let (dir, path) = temp_file("p.npy", &npy("<i2", "(5, 81)", &rows));
    let out = dir.path().join("a.npy");
    let o = solve_to(&path, &out).code(1);
    let err = o.stderr();
    let name = path.display().to_string();
    assert!(
        err.contains(&format!("{name}:row 2: duplicate given 5")),
        "{err}"
    );
    assert!(
        err.contains(&format!("{name}:row 4: cell 11: invalid number 12")),
        "{err}"
    );
    let (_, _, values) = read_npy(&out);
    for k in [1, 3] {
        assert!(
            values[k * 81..(k + 1) * 81].iter().all(|&v| v == 0),
            "row {k}"
        );
    }
    for k in [0, 2, 4] {
        let a: Vec<u8> = values[k * 81..(k + 1) * 81]
            .iter()
            .map(|&v| v as u8)
            .collect();
        assert_valid(3, &rows[k], &a);
    }
    // `check` names the zero rows.
    let o = sb(["check"]).arg(&path).arg(&out).code(1);
    assert!(
        o.stdout().contains("5 records checked, 3 good, 2 bad"),
        "{}",
        o.stdout()
    );
    // --on-error fail leaves no output file.
    let fail = dir.path().join("f.npy");
    solve_to(&path, &fail).args(["--on-error", "fail"]).code(1);
    assert!(!fail.exists());
}

/// `--box` and `--size` hold for arrays as for text: 6x6 grids with boxes
/// 3 tall and 2 wide are solved, counted and checked with those boxes, and
/// a flag the array's shape cannot hold is a usage error.
#[test]
fn npy_follows_box_and_size_flags() {
    let puzzles: Vec<Vec<u8>> = (0..6)
        .map(|i| blank_out(&full_grid_boxes(3, 2, 40 + i), 50, 90 + i))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for (name, descr, shape) in [
        ("flat.npy", "|u1", "(6, 36)"),
        ("square.npy", "<i4", "(6, 6, 6)"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, npy(descr, shape, &puzzles)).unwrap();
        let out = dir.path().join(format!("answers-{name}"));
        solve_to(&path, &out).args(["--box", "3x2"]).note(name).ok();
        let (d, s, values) = read_npy(&out);
        assert_eq!((d.as_str(), s.as_str()), (descr, shape));
        for (p, a) in puzzles.iter().zip(values.chunks(36)) {
            let a: Vec<u8> = a.iter().map(|&v| v as u8).collect();
            assert_valid_boxes(3, 2, p, &a);
        }
        let o = sb(["check", "--box", "3x2"])
            .arg(&path)
            .arg(&out)
            .note(name)
            .ok();
        assert!(o.stdout().contains("6 good, 0 bad"), "{}", o.stdout());
        let counts = dir.path().join(format!("counts-{name}"));
        sb(["count"])
            .arg(&path)
            .args(["--box", "3x2", "-o"])
            .arg(&counts)
            .note(name)
            .ok();
        let (_, _, n) = read_npy(&counts);
        assert!(n.iter().all(|&c| c >= 1), "{name}: {n:?}");
        for flags in [["--box", "2x5"], ["--size", "9"]] {
            let o = solve_to(&path, &out)
                .args(flags)
                .note(format!("{name} {flags:?}"))
                .code(2);
            assert!(
                o.stderr().contains("--box/--size ask for"),
                "{}",
                o.stderr()
            );
        }
    }
}

/// A lone `(16, 16)` array is sixteen 4x4 puzzles or one 16x16 puzzle:
/// without flags it is refused (it was read as one 16x16 grid, and sixteen
/// 4x4 puzzles came back as one 16x16 answer); `--size` picks the reading.
#[test]
fn npy_square_of_sixteen_needs_the_size() {
    let small: Vec<Vec<u8>> = (0..16)
        .map(|i| blank_out(&full_grid(2, 60 + i), 50, 70 + i))
        .collect();
    let big = blank_out(&full_grid(4, 61), 50, 71);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.npy");
    let out = dir.path().join("a.npy");
    std::fs::write(&path, npy("|u1", "(16, 16)", &small)).unwrap();
    let o = solve_to(&path, &out).code(2);
    let err = o.stderr();
    assert!(
        err.contains("(16, 16)") && err.contains("--size 4"),
        "{err}"
    );
    assert!(!out.exists());
    solve_to(&path, &out).args(["--size", "4"]).ok();
    let (d, s, values) = read_npy(&out);
    assert_eq!((d.as_str(), s.as_str()), ("|u1", "(16, 16)"));
    for (p, a) in small.iter().zip(values.chunks(16)) {
        let a: Vec<u8> = a.iter().map(|&v| v as u8).collect();
        assert_valid(2, p, &a);
    }
    // The same shape holding one 16x16 puzzle, read as one with --size 16.
    let rows: Vec<Vec<u8>> = big.chunks(16).map(<[u8]>::to_vec).collect();
    std::fs::write(&path, npy("|u1", "(16, 16)", &rows)).unwrap();
    solve_to(&path, &out).args(["--size", "16"]).ok();
    let (_, _, values) = read_npy(&out);
    let a: Vec<u8> = values.iter().map(|&v| v as u8).collect();
    assert_valid(4, &big, &a);
}

/// `check` with text puzzles and a `.npy` of answers says the kinds differ
/// (it used to read the binary answers as lines of text).
#[test]
fn check_refuses_text_puzzles_with_npy_answers() {
    let set = fixtures(3, 3, 60, 8);
    let rows: Vec<Vec<u8>> = set.iter().map(|(_, a)| a.clone()).collect();
    let text: String = set
        .iter()
        .map(|(p, _)| encode(p, "123456789", '.') + "\n")
        .collect();
    let (dir, puzzles) = temp_file("p.txt", text.as_bytes());
    let answers = dir.path().join("a.npy");
    std::fs::write(&answers, npy("|u1", "(3, 81)", &rows)).unwrap();
    let o = sb(["check"]).arg(&puzzles).arg(&answers).code(2);
    let err = o.stderr();
    assert!(err.contains("a.npy is a NumPy .npy file but"), "{err}");
    assert!(err.contains("p.txt is text"), "{err}");
}

#[test]
fn npy_count_empty_and_refusals() {
    let set = fixtures(3, 4, 75, 4);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let (dir, path) = temp_file("p.npy", &npy("|u1", "(4, 81)", &rows));
    let out = dir.path().join("c.npy");
    sb(["count"])
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .args(["--limit", "3"])
        .ok();
    let (descr, shape, values) = read_npy(&out);
    assert_eq!((descr.as_str(), shape.as_str()), ("<i8", "(4,)"));
    // 75% blanks: far more than three solutions each.
    assert_eq!(values, vec![3, 3, 3, 3]);

    let empty = dir.path().join("e.npy");
    std::fs::write(&empty, npy("<i8", "(0, 9, 9)", &[])).unwrap();
    let eout = dir.path().join("ea.npy");
    solve_to(&empty, &eout).ok();
    let (_, shape, values) = read_npy(&eout);
    assert_eq!((shape.as_str(), values.len()), ("(0, 9, 9)", 0));

    let refuse = |bytes: Vec<u8>, want: &str| {
        let (d, p) = temp_file("x.npy", &bytes);
        let o = solve_to(&p, d.path().join("o.npy")).note(want).code(2);
        let err = o.stderr();
        assert!(
            err.contains(&p.display().to_string()) && err.contains(want),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(!d.path().join("o.npy").exists());
    };
    let mut fortran = npy_header("|u1", "(1, 81)", true);
    fortran.extend_from_slice(&[0u8; 81]);
    refuse(fortran, "Fortran order");
    let mut big = npy_header(">i4", "(1, 81)", false);
    big.extend_from_slice(&[0u8; 324]);
    refuse(big, "big-endian");
    let whole = npy("<i4", "(4, 81)", &rows);
    refuse(whole[..whole.len() - 7].to_vec(), "truncated");
    refuse(npy_header("<f8", "(1, 81)", false), "integer");
    refuse(npy("|u1", "(1, 80)", &[vec![0; 80]]), "(1, 80)");
    refuse(b"\x93NUMPY\x01".to_vec(), "truncated");
    // A shape whose size wraps around to 2 rows of 81, with those 2 rows of
    // data: refused, not answered under the lying shape.
    refuse(
        npy("|u1", "(9223372036854775809, 2, 81)", &rows[..2]),
        "too large",
    );
}

#[test]
fn arrays_written_and_read_by_numpy() {
    let Some(py) = python_with("numpy") else {
        return;
    };
    let set = fixtures(3, 10, 60, 11);
    let rows: Vec<Vec<u8>> = set.iter().map(|(p, _)| p.clone()).collect();
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "import numpy as np\nq = np.array({rows:?})\n\
         np.save('a.npy', q.astype(np.int64))\n\
         np.save('b.npy', q.reshape(-1, 9, 9).astype(np.uint8))\n\
         np.save('c.npy', q.astype(np.int16)[::2])\n"
    );
    run_python(&py, &script, dir.path(), &[]);
    for (input, step) in [("a.npy", 1), ("b.npy", 1), ("c.npy", 2)] {
        let out = dir.path().join(format!("out-{input}"));
        solve_to(dir.path().join(input), &out).note(input).ok();
        // NumPy reads the answer back with the input's dtype and shape.
        let stdout = run_python(&py, "import numpy as np, sys\na = np.load(sys.argv[1]); b = np.load(sys.argv[2])\nassert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)\nfor r in b.reshape(len(b), -1): print(''.join(map(str, r)))", dir.path(), &[dir.path().join(input).as_ref(), out.as_ref()]);
        let text = String::from_utf8(stdout).unwrap();
        let puzzles: Vec<&Vec<u8>> = rows.iter().step_by(step).collect();
        assert_eq!(text.lines().count(), puzzles.len());
        for (line, p) in text.lines().zip(puzzles) {
            assert_valid(3, p, &cells(line, "", "123456789"));
        }
    }
}
