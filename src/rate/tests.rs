//! Tests of the rater: each technique on a hand-built candidate grid (its
//! removals checked exactly), serate's own numbers on real puzzles, and every
//! solving path replayed from the givens by an independent checker.

use super::grid::{Grid, ALL, REGION};
use super::*;

/// serate's ratings of real puzzles: `PUZZLE ER/EP/ED` per line (see the
/// file's header for where they come from).
const FIXTURES: &str = include_str!("../../tests/data/rate_serate.txt");

fn parse(line: &str) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for (i, b) in line.bytes().take(81).enumerate() {
        cells[i] = if b.is_ascii_digit() { b - b'0' } else { 0 };
    }
    cells
}

fn tenths(s: &str) -> u8 {
    let (a, b) = s.split_once('.').unwrap();
    a.parse::<u8>().unwrap() * 10 + b.parse::<u8>().unwrap()
}

fn fixtures() -> Vec<([u8; 81], Rating)> {
    FIXTURES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (p, r) = l.split_once(' ').unwrap();
            let v: Vec<u8> = r.trim().split('/').map(tenths).collect();
            (
                parse(p),
                Rating {
                    er: v[0],
                    ep: v[1],
                    ed: v[2],
                },
            )
        })
        .collect()
}

/// A grid with every candidate and no values.
fn open_grid() -> Grid {
    Grid::new(&[0u8; 81])
}

/// Cell index of row `r`, column `c` (both 1-based, as in r1c1).
fn rc(r: usize, c: usize) -> usize {
    (r - 1) * 9 + (c - 1)
}

fn mask(cells: &[usize]) -> u128 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

/// Keeps digit `d` only in `keep` inside `area`.
fn restrict(g: &mut Grid, d: u8, area: u128, keep: &[usize]) {
    g.eliminate(d, area & !mask(keep));
}

/// The hint's removals as a sorted (cell, digit) list.
fn removals(h: &Hint) -> Vec<(usize, u8)> {
    let mut v = Vec::new();
    for c in 0..81 {
        for d in 1..=9u8 {
            if h.elim[d as usize - 1] >> c & 1 != 0 {
                v.push((c, d));
            }
        }
    }
    v
}

fn cells_digit(cells: u128, d: u8) -> Vec<(usize, u8)> {
    grid::bits(cells).map(|c| (c, d)).collect()
}

#[test]
fn hidden_single_in_a_box_rates_1_2_and_in_a_line_1_5() {
    let mut g = open_grid();
    // 7 only at r2c2 in box 1.
    restrict(&mut g, 7, REGION[0], &[rc(2, 2)]);
    let h = singles::hidden_single(&g).unwrap();
    assert_eq!((h.place, h.rating), (Some((rc(2, 2) as u8, 7)), 12));
    let mut g = open_grid();
    // 4 only at r5c9 in row 5: a line, so 1.5 (no box has a single).
    restrict(&mut g, 4, REGION[9 + 4], &[rc(5, 9)]);
    let h = singles::hidden_single(&g).unwrap();
    assert_eq!((h.place, h.rating), (Some((rc(5, 9) as u8, 4)), 15));
}

#[test]
fn last_cell_of_a_region_rates_1_0() {
    let solved =
        parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179");
    let mut p = solved;
    p[rc(9, 9)] = 0;
    p[rc(1, 1)] = 0;
    let h = singles::hidden_single(&Grid::new(&p)).unwrap();
    assert_eq!((h.place, h.rating), (Some((0, 5)), 10));
}

#[test]
fn naked_single_rates_2_3() {
    let mut g = open_grid();
    g.cells[rc(3, 3)] = 1 << 5;
    for d in 1..=9u8 {
        if d != 6 {
            g.eliminate(d, 1 << rc(3, 3));
        }
    }
    let h = singles::naked_single(&g).unwrap();
    assert_eq!((h.place, h.rating), (Some((rc(3, 3) as u8, 6)), 23));
}

#[test]
fn pointing_removes_the_rest_of_the_line() {
    let mut g = open_grid();
    // In box 1, 3 only in row 1 (r1c1, r1c2): remove 3 from r1c4..r1c9.
    restrict(&mut g, 3, REGION[0], &[rc(1, 1), rc(1, 2)]);
    let h = intersections::locking(&g, false).unwrap();
    assert_eq!(h.rating, 26);
    let want: Vec<_> = (4..=9).map(|c| (rc(1, c), 3)).collect();
    assert_eq!(removals(&h), want);
}

#[test]
fn claiming_removes_the_rest_of_the_box() {
    let mut g = open_grid();
    // In row 1, 3 only in box 1 (r1c1..r1c3), everything else open: claiming.
    restrict(&mut g, 3, REGION[9], &[rc(1, 1), rc(1, 2), rc(1, 3)]);
    let h = intersections::locking(&g, false).unwrap();
    assert_eq!(h.rating, 28);
    let want: Vec<_> = [rc(2, 1), rc(2, 2), rc(2, 3), rc(3, 1), rc(3, 2), rc(3, 3)]
        .iter()
        .map(|&c| (c, 3))
        .collect();
    assert_eq!(removals(&h), want);
}

#[test]
fn direct_pointing_places_the_hidden_single_it_leaves() {
    let mut g = open_grid();
    // Box 1: 3 only in r1c1, r1c2. Box 2: 3 only in r1c5 and r2c5: after the
    // pointing removes r1c5, r2c5 is box 2's only 3.
    restrict(&mut g, 3, REGION[0], &[rc(1, 1), rc(1, 2)]);
    restrict(&mut g, 3, REGION[1], &[rc(1, 5), rc(2, 5)]);
    let h = intersections::locking(&g, true).unwrap();
    assert_eq!((h.place, h.rating), (Some((rc(2, 5) as u8, 3)), 17));
    // serate's direct hints place only; the pointing's removals are not applied.
    assert_eq!(removals(&h), vec![]);
}

#[test]
fn naked_pair_removes_its_digits_from_the_region() {
    let mut g = open_grid();
    for c in [rc(1, 1), rc(1, 5)] {
        for d in 1..=9u8 {
            if d != 2 && d != 8 {
                g.eliminate(d, 1 << c);
            }
        }
    }
    // Rows are scanned after boxes and columns; nothing else qualifies.
    let h = subsets::naked_set(&g, 2).unwrap();
    assert_eq!(h.rating, 30);
    let row1 = REGION[9] & !mask(&[rc(1, 1), rc(1, 5)]);
    let mut want = cells_digit(row1, 2);
    want.extend(cells_digit(row1, 8));
    want.sort();
    assert_eq!(removals(&h), want);
}

#[test]
fn hidden_pair_removes_other_digits_from_its_cells() {
    let mut g = open_grid();
    let pair = [rc(4, 4), rc(6, 6)];
    restrict(&mut g, 1, REGION[4], &pair);
    restrict(&mut g, 9, REGION[4], &pair);
    let h = subsets::hidden_set(&g, 2, false).unwrap();
    assert_eq!(h.rating, 34);
    let mut want = Vec::new();
    for &c in &pair {
        for d in 2..=8 {
            want.push((c, d));
        }
    }
    assert_eq!(removals(&h), want);
}

#[test]
fn x_wing_on_columns_clears_the_rows() {
    let mut g = open_grid();
    // 5 in columns 2 and 7 only at rows 3 and 8.
    restrict(&mut g, 5, REGION[18 + 1], &[rc(3, 2), rc(8, 2)]);
    restrict(&mut g, 5, REGION[18 + 6], &[rc(3, 7), rc(8, 7)]);
    let h = subsets::fish(&g, 2).unwrap();
    assert_eq!(h.rating, 32);
    let rows = (REGION[9 + 2] | REGION[9 + 7]) & !(REGION[18 + 1] | REGION[18 + 6]);
    assert_eq!(removals(&h), cells_digit(rows & ALL, 5));
}

#[test]
fn swordfish_on_rows_clears_the_columns() {
    let mut g = open_grid();
    restrict(&mut g, 4, REGION[9], &[rc(1, 1), rc(1, 5)]);
    restrict(&mut g, 4, REGION[9 + 4], &[rc(5, 5), rc(5, 9)]);
    restrict(&mut g, 4, REGION[9 + 8], &[rc(9, 1), rc(9, 9)]);
    // No X-Wing exists (no two rows share two columns), so fish(3) is the test.
    assert!(subsets::fish(&g, 2).is_none());
    let h = subsets::fish(&g, 3).unwrap();
    assert_eq!(h.rating, 38);
    let cols =
        (REGION[18] | REGION[18 + 4] | REGION[18 + 8]) & !(REGION[9] | REGION[13] | REGION[17]);
    assert_eq!(removals(&h), cells_digit(cols, 4));
}

#[test]
fn xy_wing_removes_z_seen_by_both_wings() {
    let mut g = open_grid();
    let set = |g: &mut Grid, c: usize, ds: &[u8]| {
        for d in 1..=9u8 {
            if !ds.contains(&d) {
                g.eliminate(d, 1 << c);
            }
        }
    };
    // Pivot r1c1 {1,2}, wings r1c5 {1,3} and r5c1 {2,3}: r5c5 loses 3.
    set(&mut g, rc(1, 1), &[1, 2]);
    set(&mut g, rc(1, 5), &[1, 3]);
    set(&mut g, rc(5, 1), &[2, 3]);
    let h = wings::xy_wing(&g, false).unwrap();
    assert_eq!(h.rating, 42);
    assert_eq!(removals(&h), vec![(rc(5, 5), 3)]);
}

#[test]
fn xyz_wing_removes_z_seen_by_all_three() {
    let mut g = open_grid();
    let set = |g: &mut Grid, c: usize, ds: &[u8]| {
        for d in 1..=9u8 {
            if !ds.contains(&d) {
                g.eliminate(d, 1 << c);
            }
        }
    };
    // Pivot r1c1 {1,2,3}, wings r1c5 {1,3} and r2c2 {2,3}: r1c2, r1c3 lose 3.
    set(&mut g, rc(1, 1), &[1, 2, 3]);
    set(&mut g, rc(1, 5), &[1, 3]);
    set(&mut g, rc(2, 2), &[2, 3]);
    let h = wings::xy_wing(&g, true).unwrap();
    assert_eq!(h.rating, 44);
    assert_eq!(removals(&h), vec![(rc(1, 2), 3), (rc(1, 3), 3)]);
}

#[test]
fn ratings_match_serate_on_real_puzzles() {
    let fx = fixtures();
    assert!(fx.len() >= 100, "fixture file too small");
    let mut rated = 0;
    for (p, want) in &fx {
        match rate(p) {
            Outcome::Rated(got) => {
                assert_eq!(
                    got,
                    *want,
                    "{}",
                    p.iter().map(|d| (b'0' + d) as char).collect::<String>()
                );
                rated += 1;
            }
            Outcome::Unrated { next, .. } => {
                // Allowed only when the path needs a technique not implemented,
                // which serate rates above everything implemented before it.
                assert!(
                    next.is_some(),
                    "stuck without reaching an unimplemented technique"
                );
                assert!(
                    want.er > Rater::new().covers(),
                    "serate rated {want} but we stopped"
                );
            }
            Outcome::NotUnique { .. } => panic!("fixture is not unique"),
        }
    }
    assert!(rated * 2 > fx.len(), "most fixtures rated");
}

/// Candidates of `cells` computed from scratch (not with [`Grid`]).
#[allow(clippy::needless_range_loop)]
fn naive_candidates(cells: &[u8; 81]) -> [u16; 81] {
    let mut out = [0u16; 81];
    for i in 0..81 {
        if cells[i] != 0 {
            continue;
        }
        let mut m = 0x1ffu16;
        for j in 0..81 {
            let same = i / 9 == j / 9
                || i % 9 == j % 9
                || (i / 27 == j / 27 && (i % 9) / 3 == (j % 9) / 3);
            if same && cells[j] != 0 {
                m &= !(1 << (cells[j] - 1));
            }
        }
        out[i] = m;
    }
    out
}

#[test]
fn every_path_replays_from_the_givens_to_the_solution() {
    let mut steps = Vec::new();
    for (p, _) in fixtures() {
        let outcome = Rater::new().rate_steps(&p, &mut steps);
        let mut solution = [0u8; 81];
        assert_eq!(
            crate::solver::solve(crate::solver::Boxes::NINE, &p, 2, &mut solution).count,
            1
        );
        let mut values = p;
        let mut cand = naive_candidates(&values);
        let mut er = 0;
        for s in &steps {
            er = er.max(s.rating);
            assert!(
                !s.eliminated.is_empty() || s.placed.is_some(),
                "step does nothing"
            );
            for &(c, d) in &s.eliminated {
                let c = c as usize;
                assert_eq!(values[c], 0, "removal from a filled cell");
                assert!(
                    cand[c] >> (d - 1) & 1 != 0,
                    "removal of an absent candidate"
                );
                assert_ne!(solution[c], d, "removed the solution's digit");
                cand[c] &= !(1 << (d - 1));
            }
            if let Some((c, d)) = s.placed {
                let c = c as usize;
                assert_eq!(solution[c], d, "placement differs from the solution");
                assert!(cand[c] >> (d - 1) & 1 != 0, "placed a removed candidate");
                if s.technique == Technique::NakedSingle {
                    assert_eq!(cand[c], 1 << (d - 1), "naked single with other candidates");
                }
                values[c] = d;
                let fresh = naive_candidates(&values);
                for i in 0..81 {
                    cand[i] &= fresh[i];
                }
            }
        }
        if let Outcome::Rated(r) = outcome {
            assert_eq!(values, solution, "path does not end solved");
            assert_eq!(er, r.er);
        }
    }
}

#[test]
fn not_unique_and_invalid_are_reported() {
    assert_eq!(rate(&[0u8; 81]), Outcome::NotUnique { solutions: 2 });
    let mut p = [0u8; 81];
    p[0] = 1;
    p[1] = 1;
    assert_eq!(rate(&p), Outcome::NotUnique { solutions: 0 });
}

#[test]
fn a_smaller_technique_set_leaves_harder_puzzles_unrated() {
    let singles = Techniques::none()
        .with(Technique::HiddenSingle)
        .with(Technique::NakedSingle);
    let rater = Rater::with_techniques(singles);
    let mut some_unrated = false;
    for (p, want) in fixtures() {
        match rater.rate(&p) {
            Outcome::Rated(r) => {
                assert!(r.er <= 23);
                if want.er <= 15 {
                    assert_eq!(r, want);
                }
            }
            Outcome::Unrated { next, .. } => {
                assert_eq!(next, None);
                some_unrated = true;
            }
            Outcome::NotUnique { .. } => unreachable!(),
        }
    }
    assert!(some_unrated);
    assert_eq!(
        Techniques::parse("hiddensingle, NakedSingle").unwrap(),
        singles
    );
    assert!(Techniques::parse("Guessing").is_err());
    // A list naming no technique would leave every puzzle unrated.
    for empty in ["", " ", ",", " , "] {
        assert!(Techniques::parse(empty).is_err(), "{empty:?}");
    }
}

#[test]
fn skyscraper_removes_what_both_tops_see() {
    let mut g = open_grid();
    // 6 in column 1 only at r2c1, r7c1; in column 5 only at r3c5, r7c5:
    // the bases share row 7, so cells seeing both r2c1 and r3c5 lose 6.
    restrict(&mut g, 6, REGION[18], &[rc(2, 1), rc(7, 1)]);
    restrict(&mut g, 6, REGION[18 + 4], &[rc(3, 5), rc(7, 5)]);
    let h = links::two_links(&g).unwrap().unwrap();
    assert_eq!(h.rating, 40);
    let want = vec![(rc(2, 4), 6), (rc(2, 6), 6), (rc(3, 2), 6), (rc(3, 3), 6)];
    assert_eq!(removals(&h), want);
}

#[test]
fn two_string_kite_rates_4_1() {
    let mut g = open_grid();
    // 2 in row 1 only at r1c2, r1c8; in column 3 only at r2c3, r8c3. The
    // ends r1c2 and r2c3 share box 1, so r8c8 (seeing r1c8 and r8c3) loses 2.
    restrict(&mut g, 2, REGION[9], &[rc(1, 2), rc(1, 8)]);
    restrict(&mut g, 2, REGION[18 + 2], &[rc(2, 3), rc(8, 3)]);
    let h = links::two_links(&g).unwrap().unwrap();
    assert_eq!(h.rating, 41);
    assert_eq!(removals(&h), vec![(rc(8, 8), 2)]);
}

/// A grid of no values whose candidates are serate's 729-character
/// pencilmark string (`12.......` per cell).
fn pencilmarks(pm: &str) -> Grid {
    assert_eq!(pm.len(), 729);
    let mut g = open_grid();
    for (i, b) in pm.bytes().enumerate() {
        if b == b'.' {
            g.eliminate((i % 9) as u8 + 1, 1 << (i / 9));
        }
    }
    g
}

/// The candidates of a test position as serate's pencilmark string: every
/// cell open except `cells` (r, c, digits), then `gone` (cells, digit)
/// removed.
fn position(cells: &[(usize, usize, &[u8])], gone: &[(Vec<usize>, u8)]) -> String {
    let mut cand = [0x1ffu16; 81];
    for &(r, c, ds) in cells {
        cand[rc(r, c)] = ds.iter().fold(0, |m, &d| m | 1 << (d - 1));
    }
    for (cs, d) in gone {
        for &c in cs {
            cand[c] &= !(1 << (d - 1));
        }
    }
    let mut s = String::new();
    for m in cand {
        for d in 1..=9u8 {
            s.push(if m >> (d - 1) & 1 != 0 {
                (b'0' + d) as char
            } else {
                '.'
            });
        }
    }
    s
}

/// `r2c4-1` style names of a hint's removals (as the expected lists below
/// were read off serate's pencilmarks before and after its step).
fn removal_names(h: &Hint) -> Vec<String> {
    removals(h)
        .into_iter()
        .map(|(c, d)| format!("r{}c{}-{d}", c / 9 + 1, c % 9 + 1))
        .collect()
}

fn row2_but(keep: &[usize]) -> Vec<usize> {
    (1..=9)
        .filter(|c| !keep.contains(c))
        .map(|c| rc(2, c))
        .collect()
}

/// Each unique-loop position, rated by serate alone on it: `serate
/// --techs=` with only `Unique Rectangle / Loop` (24th) on, the position
/// as a 729-character pencilmark line, `--after='%s|%r|%m'`. Its step,
/// rating and removals (the pencilmarks that went) are the expected ones.
#[test]
fn unique_rectangles_and_loops_match_serates_steps() {
    let pair: &[u8] = &[1, 2];
    // (name, pencilmarks, rating, removals, loop cells)
    type Case<'a> = (&'a str, String, u8, Vec<&'a str>, Vec<(usize, usize)>);
    let cases: Vec<Case> = vec![
        (
            "type 1",
            position(
                &[(1, 1, pair), (1, 4, pair), (2, 1, pair), (2, 4, &[1, 2, 3])],
                &[],
            ),
            45,
            vec!["r2c4-1", "r2c4-2"],
            vec![(1, 1), (2, 1), (2, 4), (1, 4)],
        ),
        (
            "type 2",
            position(
                &[
                    (1, 1, pair),
                    (1, 4, pair),
                    (2, 1, &[1, 2, 3]),
                    (2, 4, &[1, 2, 3]),
                ],
                &[],
            ),
            45,
            vec![
                "r2c2-3", "r2c3-3", "r2c5-3", "r2c6-3", "r2c7-3", "r2c8-3", "r2c9-3",
            ],
            vec![(1, 1), (2, 1), (2, 4), (1, 4)],
        ),
        (
            "type 4",
            position(
                &[
                    (1, 1, pair),
                    (1, 4, pair),
                    (2, 1, &[1, 2, 5]),
                    (2, 4, &[1, 2, 6]),
                ],
                &[(row2_but(&[1, 4]), 1)],
            ),
            45,
            vec!["r2c1-2", "r2c4-2"],
            vec![(1, 1), (2, 1), (2, 4), (1, 4)],
        ),
        (
            "type 3, naked pair",
            position(
                &[
                    (1, 1, pair),
                    (1, 4, pair),
                    (2, 1, &[1, 2, 5]),
                    (2, 4, &[1, 2, 6]),
                    (2, 7, &[5, 6]),
                ],
                &[],
            ),
            46,
            vec![
                "r2c2-5", "r2c2-6", "r2c3-5", "r2c3-6", "r2c5-5", "r2c5-6", "r2c6-5", "r2c6-6",
                "r2c8-5", "r2c8-6", "r2c9-5", "r2c9-6",
            ],
            vec![(1, 1), (2, 1), (2, 4), (1, 4)],
        ),
        (
            "type 3, hidden pair",
            position(
                &[
                    (1, 1, pair),
                    (1, 4, pair),
                    (2, 1, &[1, 2, 5]),
                    (2, 4, &[1, 2, 6]),
                ],
                &[(row2_but(&[1, 4, 7]), 1), (row2_but(&[1, 4, 7]), 2)],
            ),
            45,
            vec![
                "r2c7-3", "r2c7-4", "r2c7-5", "r2c7-6", "r2c7-7", "r2c7-8", "r2c7-9",
            ],
            vec![(1, 1), (2, 1), (2, 4), (1, 4)],
        ),
        (
            "loop of 6, type 1",
            position(
                &[
                    (1, 1, pair),
                    (1, 2, pair),
                    (4, 2, pair),
                    (4, 4, pair),
                    (5, 4, pair),
                    (5, 1, &[1, 2, 3]),
                ],
                &[(vec![rc(4, 1), rc(1, 4), rc(5, 2)], 1)],
            ),
            46,
            vec!["r5c1-1", "r5c1-2"],
            vec![(1, 1), (1, 2), (4, 2), (4, 4), (5, 4), (5, 1)],
        ),
    ];
    for (name, pm, rating, want, lp) in cases {
        let g = pencilmarks(&pm);
        let h = unique::unique_loop(&g).unwrap_or_else(|| panic!("{name}: no hint"));
        assert_eq!(h.rating, rating, "{name}");
        assert_eq!(removal_names(&h), want, "{name}");
        let mut cells: Vec<u8> = h.cells.clone();
        cells.sort();
        let mut want_cells: Vec<u8> = lp.iter().map(|&(r, c)| rc(r, c) as u8).collect();
        want_cells.sort();
        assert_eq!(cells, want_cells, "{name}: the loop's cells");
    }
    // Three corners of a rectangle on {1, 2} and no fourth cell with both:
    // no loop.
    let g = pencilmarks(&position(
        &[(1, 1, pair), (1, 4, pair), (2, 1, pair)],
        &[(vec![rc(2, 4)], 2)],
    ));
    assert!(unique::unique_loop(&g).is_none());
}

/// Three skyscrapers on 1 (columns 1, 5, 9 linked through rows 5 and 8),
/// checked as the unique loops above: serate with only `3 Strong-linked
/// Fishes` (29th) on says `3 Skyscrapers 0111: Cell r1c1,r5c1,r5c5,r8c5,
/// r8c9,r2c9 on value 1`, 5.4, and removes exactly these.
#[test]
fn three_skyscrapers_match_serates_step() {
    let col = |c: usize, keep: &[usize]| -> Vec<usize> {
        (1..=9)
            .filter(|r| !keep.contains(r))
            .map(|r| rc(r, c))
            .collect()
    };
    let g = pencilmarks(&position(
        &[],
        &[
            (col(1, &[1, 5]), 1),
            (col(5, &[5, 8]), 1),
            (col(9, &[8, 2]), 1),
        ],
    ));
    let h = links::n_links(&g, 3).unwrap().unwrap();
    assert_eq!(h.rating, 54);
    assert_eq!(removal_names(&h), ["r1c7-1", "r1c8-1", "r2c2-1", "r2c3-1"]);
    // Two of the three columns make no 3-link pattern.
    let g = pencilmarks(&position(
        &[],
        &[(col(1, &[1, 5]), 1), (col(5, &[5, 8]), 1)],
    ));
    assert!(links::n_links(&g, 3).unwrap().is_none());
}

/// The general n-link search with n = 2 takes the very hint of the
/// two-link one (checked against serate on every set) at every step of
/// every fixture's path.
#[test]
fn n_links_of_two_is_the_two_link_search() {
    let mut steps = Vec::new();
    let mut checked = 0;
    for (p, _) in fixtures() {
        Rater::new().rate_steps(&p, &mut steps);
        let mut g = Grid::new(&p);
        for s in &steps {
            let want = links::two_links(&g).unwrap();
            let got = links::n_links(&g, 2).unwrap();
            assert_eq!(
                got.as_ref().map(|h| (h.rating, h.elim)),
                want.as_ref().map(|h| (h.rating, h.elim))
            );
            checked += usize::from(want.is_some());
            for &(c, d) in &s.eliminated {
                g.eliminate(d, 1 << c);
            }
            if let Some((c, d)) = s.placed {
                g.place(c as usize, d);
            }
        }
    }
    assert!(checked > 100, "{checked} grids with a two-link hint");
}

/// WXYZ-Wings, checked as the loops above: serate with only `WXYZ-Wing`
/// (23rd) on says `WXYZ-Wing 137: Cells r1c1,r1c2,r1c7,r2c1 on value 4`,
/// 5.6, then (a four-digit cell) `WXYZ-Wing 148: Cells r1c1,r1c2,r2c1,
/// r5c1 on value 4`, 5.5, with exactly these removals.
#[test]
fn wxyz_wings_match_serates_steps() {
    // (cells with their candidates, rating, removals)
    type Case<'a> = (&'a [(usize, usize, &'a [u8])], u8, &'a [&'a str]);
    let cases: [Case; 2] = [
        (
            &[
                (1, 1, &[1, 2, 3]),
                (1, 2, &[1, 4]),
                (2, 1, &[2, 4]),
                (1, 7, &[3, 4]),
            ],
            56,
            &["r1c3-4"],
        ),
        (
            &[
                (1, 1, &[1, 2, 3, 4]),
                (1, 2, &[1, 4]),
                (2, 1, &[2, 4]),
                (5, 1, &[3, 4]),
            ],
            55,
            &["r3c1-4"],
        ),
    ];
    for (cells, rating, want) in cases {
        let g = pencilmarks(&position(cells, &[]));
        let h = wings::als_wing(&g, 3).unwrap();
        assert_eq!(
            (h.rating, removal_names(&h)),
            (rating, want.iter().map(|s| s.to_string()).collect())
        );
    }
    // The bivalue cell sees none of the set's 4s or 3s: no wing.
    let g = pencilmarks(&position(
        &[
            (1, 1, &[1, 2, 3]),
            (1, 2, &[1, 4]),
            (2, 1, &[2, 4]),
            (9, 9, &[3, 4]),
        ],
        &[],
    ));
    assert!(wings::als_wing(&g, 3).is_none());
}

/// BUG positions: the grid a real puzzle's path reaches before its BUG
/// step (type 1), and two such grids of other puzzles with one candidate
/// added so that two cells carry the BUG value (type 2), as 729-character
/// pencilmarks (81 a line here; a cell with one candidate is a value, as
/// serate loads it). serate, with only `Bivalue Universal Grave` (33rd) on, takes
/// exactly these steps: `BUG type 1: r6c6` (5.6), `BUG type 2: r8c2,r8c7
/// on 8` and `BUG type 2: r1c9,r5c9 on 8` (5.7).
#[test]
fn bugs_match_serates_steps() {
    let cases: [(&[&str], u8, &[&str]); 3] = [
        (
            &[
                "....56.......5.7.....4............8......67...2.......1..........3..............9",
                ".....67.........8.1..........3..............9.....67.....4.........5.....2.......",
                "..3.....9.2.........3.....9...4.........5....1.............6.8......6.8.......7..",
                "1...........4..........6...........9.2...........5......3............7.........8.",
                "....5...9..3............7..1...............8....4.6....2............6..9...45....",
                ".......8.....5...9.2.............7....3..6.....34.6........6..91...........45....",
                "...4..........6..........8.....5....1................9......7...2.........3......",
                ".2.............7.9..3.....9.....6.....3...7.........8.....5.......4.....1........",
                "..3...7..1............5.....2..........4.......3...7.........89.......89.....6...",
            ],
            56,
            &["r6c6-3", "r6c6-4"],
        ),
        (
            &[
                "1.........2.4.......3.............8.....5.....2....7.....4..7..........9.....6...",
                "....56.........7...2..5.......4......2...6...........9..3......1...............8.",
                ".......8......6..9...4....9..3......1.............67.....4..7......5.....2.......",
                "..3.........4...8..2.4...........7...2...6.......5............9.....6.8.1........",
                "........9....5.........6...1..........3.............8..2..........4...........7..",
                "......7...2.....8.1................9...4......2...6........6.8...3..........5....",
                "...4.......3............7.......6..........8.1............5.....2...............9",
                ".2.......1......89.......89....5..........7.....4.....1....6.8......6.8...3......",
                "....56...1....6.......5..8..2...............9..3......1......8.......7.....4.....",
            ],
            57,
            &["r8c3-8", "r8c8-8"],
        ),
        (
            &[
                "......78......6...1.........2...........5.......4.............9..3....8...3...78.",
                "...4.......3...7....3....8......6..91.............6..9.2...........5..........78.",
                "....5.....2...............9.......8.......7....3......1...........4..........6...",
                "1......8....4......2.............7.9.....6.......5...9....5.7....3....8.1.3......",
                ".....6...1.......9....5..8...3.......2...........5.7.....4...8.......7.91..4...8.",
                "......7.9..3...7....3.5.......4............8.1.............6....2......9.2..5....",
                "..3.............8......6...1................9.2....7.....45.....2....7.....45....",
                ".2...........5.......4..........67....3...........6.8.......78.1................9",
                "1.......91.......9......7......5.......4......2.....8...3...........6....2.....8.",
            ],
            57,
            &["r2c9-8", "r9c9-8"],
        ),
    ];
    for (pm, rating, want) in cases {
        let g = pencilmarks_placed(&pm.concat());
        let h = unique::bug(&g).unwrap();
        assert_eq!(h.rating, rating);
        assert_eq!(
            removal_names(&h),
            want.iter().map(|s| s.to_string()).collect::<Vec<_>>()
        );
    }
    // No BUG (serate finds none either): the first position with r1c1's
    // candidates 5, 6 widened by 7 (no 7 is placed among its peers).
    let mut pm: Vec<u8> = cases[0].0.concat().into_bytes();
    pm[6] = b'7';
    assert!(unique::bug(&pencilmarks_placed(std::str::from_utf8(&pm).unwrap())).is_none());
}

/// [`pencilmarks`], then each cell with one candidate placed.
fn pencilmarks_placed(pm: &str) -> Grid {
    let mut g = pencilmarks(pm);
    for c in 0..81 {
        if g.cells[c].count_ones() == 1 {
            g.place(c, g.cells[c].trailing_zeros() as u8 + 1);
        }
    }
    g
}

/// Four strong links on the grid the path of ................12....34...........5..316......78..4.......9.3..9...5...51....... reaches before its
/// 4-link step (a cell with one candidate is a value): serate, with only
/// `4 Strong-Linked Fishes` (34th) on, takes `4 Strong links 01112` (5.9) with exactly
/// these removals.
#[test]
fn four_strong_links_match_serates_step() {
    let pm: &[&str] = &[
        ".2...6.8..2...67......5.....2...67.9.2.....8.1.............67.9...4.......3......",
        ".....6.8...3.........4.........5..........7.9.....6.8.......7.91.........2.......",
        "1.........2...67..........9.2...67....3.........4..........678.....5.........678.",
        ".2...6..........8.1...........4....9...4....9.2....7....3.......2...67......5....",
        "...4.........5......3......1.............6....2....7...2....78..2....789......789",
        "........9.2...6.........7.........8.....5......3.........4......2...6...1........",
        "......7.....4......2...6.8..2...6...1................9....5......3...........6.8.",
        "..3..............9.2...6.8....4..7...2.4..78.....5....1.........2....78....4.678.",
        "....5....1.........2...6.8...3.......2.4..78......6.8..2...678..2....789...4.6789",
    ];
    let h = links::n_links(&pencilmarks_placed(&pm.concat()), 4)
        .unwrap()
        .unwrap();
    assert_eq!(h.rating, 59);
    assert_eq!(removal_names(&h), ["r9c3-2"]);
}

/// A unique rectangle's type 3 on a real grid (the path of
/// `..84....9........227..9.1.8....4...6...3..82.89.......7..26..4...57......6.....1.`,
/// a cell with one candidate is a value): the extra digits 5, 6 of r1c1,
/// r1c2 make a naked triple with r1c7 and r1c8, whose 7 leaves only the
/// rest of row 1, not box 3 (serate's plain-Sudoku branch): serate says
/// `Unique Rectangle type 3: Cells r4c1,r4c2,r1c2,r1c1 on 1, 3`, 4.7,
/// removing r1c6's 7 alone.
#[test]
fn a_unique_rectangle_naked_set_clears_its_region_only() {
    let pm: &[&str] = &[
        "1.3..6...1.3.5...........8....4......23......12....7......5.7......567..........9",
        "1.3..6...1.3.5............91......8...3....8.1.....78....4.........567...2.......",
        ".2.............7.....4.........56...........9....56...1..........3.............8.",
        "1.3......1.3.......2....7......5..8....4......2..5..8.....5.7..........9.....6...",
        "....5.......4..........6.....3............7..........9.......8..2.......1........",
        ".......8.........9.2....7..1....6....2..5....1....6.....3..........5.7.....4.....",
        "......7.........8.1.........2............6.....3..............9...4.........5....",
        "........9.2...........5..........7..1...........4..........6..........8...3......",
        "...4..........6.....3..............9....5..8.....5..8..2.......1..............7..",
    ];
    let h = unique::unique_loop(&pencilmarks_placed(&pm.concat())).unwrap();
    assert_eq!(
        (h.rating, removal_names(&h)),
        (47, vec!["r1c6-7".to_string()])
    );
}

/// Checks the technique of each line (`ID PENCILMARKS RATING REMOVALS`,
/// or `ID PENCILMARKS -` when serate finds nothing; written by
/// scripts/rate_stop_check.py from serate's own first step with that
/// technique alone) on the line's grid; returns how many lines and how
/// many with a step.
fn check_serate_step_lines(text: &str) -> (usize, usize) {
    let (mut lines, mut steps) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let tech = Technique::from_id(f[0]).unwrap();
        let g = pencilmarks_placed(f[1]);
        let got = tech.find(&g).expect("implemented");
        let what = format!("{} on {}", f[0], f[1]);
        if f[2] == "-" {
            assert!(got.is_none(), "{what}: serate finds nothing");
        } else {
            let h = got.unwrap_or_else(|| panic!("{what}: no hint"));
            assert_eq!(h.tech, tech, "{what}");
            assert_eq!(h.rating, tenths(f[2]), "{what}");
            assert_eq!(removal_names(&h).join(","), f[3], "{what}");
            steps += 1;
        }
        lines += 1;
    }
    (lines, steps)
}

/// [`check_serate_step_lines`] on a file of any size: run with
/// `RATE_STEP_LINES=FILE cargo test --release --lib rate::tests::serate_step_lines_file -- --ignored`.
#[test]
#[ignore = "needs RATE_STEP_LINES=FILE from scripts/rate_stop_check.py"]
fn serate_step_lines_file() {
    let path = std::env::var("RATE_STEP_LINES").expect("RATE_STEP_LINES");
    let (lines, steps) = check_serate_step_lines(&std::fs::read_to_string(path).unwrap());
    eprintln!("{lines} lines, {steps} with a step: all equal");
}

/// The ALS wings past WXYZ on hand-built positions, checked as the loops
/// above: a set of 4 (5, 6) cells of row 1 on 5 (6, 7) digits, each cell
/// holding the set's last digit and one of its own, and r5c1 {1, 2}. 1 is
/// restricted (only r1c1 holds it, and sees r5c1), so 2 goes from the
/// cells seeing r5c1 and r1c2. serate, with only `VWXYZ-Wing` (32nd),
/// `UVWXYZ-Wing` (38th) or `TUVWXYZ-Wing` (40th) on, removes exactly
/// these, rating 6.3 (biggest cell of 2), 6.6 and 7.5.
#[test]
fn vwxyz_to_tuvwxyz_wings_match_serates_steps() {
    let want = ["r2c1-2", "r3c1-2", "r4c2-2", "r5c2-2", "r6c2-2"];
    for (n, tech, rating) in [
        (4, Technique::VWXYZWing, 63),
        (5, Technique::UVWXYZWing, 66),
        (6, Technique::TUVWXYZWing, 75),
    ] {
        let last = n as u8 + 1;
        let digits: Vec<[u8; 2]> = (1..=n as u8).map(|d| [d, last]).collect();
        let mut cells: Vec<(usize, usize, &[u8])> =
            (0..n).map(|k| (1, k + 1, &digits[k][..])).collect();
        cells.push((5, 1, &[1, 2]));
        let g = pencilmarks(&position(&cells, &[]));
        let h = wings::als_wing(&g, n).unwrap();
        assert_eq!(
            (h.tech, h.rating, removal_names(&h)),
            (tech, rating, want.map(String::from).to_vec())
        );
    }
}

/// Aligned exclusions on hand-built positions, each checked against
/// serate with only `Aligned Pair Exclusion` (35th) or `Aligned Triplet
/// Exclusion` (41st) on:
/// - r1c1, r1c2 {1, 2, 3} with r1c5 {1, 2} and r1c6 {1, 3}: 1 in either
///   cell leaves the other only digits an excluder would lose both of;
/// - r1c1 {1, 2, 3} and r2c5 {1, 2, 3} (not aligned) with r1c5 {1, 2} and
///   r2c1 {1, 3}: serate's first pair is r1c1 and r1c2 (all nine digits),
///   whose common excluders are the same two cells: r1c2 loses 1;
/// - r1c1 {1, 2, 3}, r1c2 {1, 2, 4}, r1c3 {1, 3, 4} with r1c7 {1, 2, 3} and
///   r1c8 {3, 4}: only 1, 2, 4 fit, so r1c1 and r1c3 lose 3.
#[test]
fn aligned_exclusions_match_serates_steps() {
    let g = pencilmarks(&position(
        &[
            (1, 1, &[1, 2, 3]),
            (1, 2, &[1, 2, 3]),
            (1, 5, &[1, 2]),
            (1, 6, &[1, 3]),
        ],
        &[],
    ));
    let h = aligned::aligned_pair(&g).unwrap();
    assert_eq!(
        (h.rating, removal_names(&h)),
        (62, vec!["r1c1-1".to_string(), "r1c2-1".to_string()])
    );
    let g = pencilmarks(&position(
        &[
            (1, 1, &[1, 2, 3]),
            (2, 5, &[1, 2, 3]),
            (1, 5, &[1, 2]),
            (2, 1, &[1, 3]),
        ],
        &[],
    ));
    let h = aligned::aligned_pair(&g).unwrap();
    assert_eq!(
        (h.rating, removal_names(&h)),
        (62, vec!["r1c2-1".to_string()])
    );
    let g = pencilmarks(&position(
        &[
            (1, 1, &[1, 2, 3]),
            (1, 2, &[1, 2, 4]),
            (1, 3, &[1, 3, 4]),
            (1, 7, &[1, 2, 3]),
            (1, 8, &[3, 4]),
        ],
        &[],
    ));
    let h = aligned::aligned_triplet(&g).unwrap();
    assert_eq!(
        (h.rating, removal_names(&h)),
        (75, vec!["r1c1-3".to_string(), "r1c3-3".to_string()])
    );
    // A grid with no bivalue cell has no excluder for a pair.
    assert!(aligned::aligned_pair(&open_grid()).is_none());
}

/// serate's own steps on real grids (tests/data/rate_serate_steps.txt):
/// every technique added past 6.1 on the grid before one of our paths'
/// steps, and TUVWXYZ-Wing and triplet exclusion (after the chains in
/// serate's order, so never on our paths yet) where our paths stop.
#[test]
fn serate_steps_on_real_grids() {
    let (lines, steps) =
        check_serate_step_lines(include_str!("../../tests/data/rate_serate_steps.txt"));
    assert_eq!((lines, steps), (42, 37));
}

/// serate's chain length rating as its source's comment tabulates it (an
/// earlier form of `getLengthDifficulty`): 0.1 for each of 4, 6, 8, 12, 16,
/// 24, 32, ... (x1.5, x4/3 in turn) the length (complexity less 2) is over.
#[test]
fn chain_length_rating_is_serates_table() {
    let steps = [4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512];
    for complexity in 2..500u32 {
        let over = steps.iter().filter(|&&s| complexity - 2 > s).count() as u8;
        let d = chains::length_difficulty(complexity);
        assert_eq!(
            chains::to_tenths(7.0 + d),
            70 + over,
            "complexity {complexity}"
        );
        assert_eq!(
            chains::to_tenths(6.5 + d),
            65 + over,
            "complexity {complexity}"
        );
    }
}

/// Digit 1 only at r1c1 and r1c2 in row 1 (every other candidate open): "if
/// r2c1 is 1, r1c1 is not, so r1c2 is, so r2c1 is not". serate, with only
/// `Forcing Chains & Cycles` (39th) on, says `Forcing X-Chain: r2c1.1 off`,
/// 6.6. With 1 only in columns 1 and 5 of rows 1 and 5 instead, the cycle
/// r1c1-r5c1-r5c5-r1c5 clears both columns as an X-Wing would: serate's
/// `Generalized X-Wing: r5c1,r5c5,r1c5,r1c1`, 6.5, removing exactly these.
#[test]
fn forcing_x_chain_and_x_cycle_match_serates_steps() {
    let row1: Vec<usize> = (3..=9).map(|c| rc(1, c)).collect();
    let g = pencilmarks(&position(&[], &[(row1, 1)]));
    let h = chains::forcing_chains_cycles(&g).unwrap();
    assert_eq!(
        (h.tech, h.rating, h.place, removal_names(&h)),
        (
            Technique::ForcingChainCycle,
            66,
            None,
            vec!["r2c1-1".to_string()]
        )
    );
    let rows15: Vec<usize> = [1, 5]
        .iter()
        .flat_map(|&r| [2, 3, 4, 6, 7, 8, 9].map(|c| rc(r, c)))
        .collect();
    let g = pencilmarks(&position(&[], &[(rows15, 1)]));
    let h = chains::forcing_chains_cycles(&g).unwrap();
    let want: Vec<String> = [2, 3, 4, 6, 7, 8, 9]
        .iter()
        .flat_map(|&r| [format!("r{r}c1-1"), format!("r{r}c5-1")])
        .collect();
    assert_eq!((h.rating, h.place, removal_names(&h)), (65, None, want));
}

/// A forcing chain that places (its end is "on"): the grid the path of
/// `.....2.....7.1...6...4.9..23..8.4.91..2...3..9.....8....3..1..8.6.......24..95.3.`
/// reaches (wings and aligned exclusion off) before its first chain step.
/// serate, with only `Forcing Chains & Cycles` on, says `Forcing Chain:
/// r6c5.3 on`, 7.1: r6c5's 2 goes and 3 is placed.
#[test]
fn a_forcing_chain_places_its_end() {
    let pm: &[&str] = &[
        "...456...1......8.........9....5.7.......678..2..........45....1..45..8...3......",
        "...4...8..2.............7....3.5....1..........3....8.........9...45..8......6...",
        "1...56.8...3......1...5.......4..........6.8.........9....5.7..1.....78..2.......",
        "..3..........5.........6..........8..2....7.....4......2....7..........91........",
        "1......8.1......8..2...............9....5.........67....3...........67.....4.....",
        "........9......7.....4.....1.........23........3..6..........8..2...6.......5....",
        "....5.7..........9..3.......2....7.....4..7..1.............6....2.45...........8.",
        "1...5.7.......6...1...5.....23...7....34..78...3...78..2.45.....2.45............9",
        ".2..........4............8......6...........9....5....1..........3............7..",
    ];
    let h = chains::forcing_chains_cycles(&pencilmarks_placed(&pm.concat())).unwrap();
    assert_eq!(
        (h.rating, h.place, removal_names(&h)),
        (71, Some((rc(6, 5) as u8, 3)), vec!["r6c5-2".to_string()])
    );
}

/// serate's own chain steps on real grids (tests/data/rate_serate_chain_steps.txt,
/// the grid before a step of our paths on the compare sets, serate with
/// only that technique on): forcing chains and cycles, Nishio, multiple and
/// dynamic forcing chains, each the same hint.
#[test]
fn chain_steps_match_serates_own() {
    let (lines, steps) =
        check_serate_step_lines(include_str!("../../tests/data/rate_serate_chain_steps.txt"));
    assert_eq!(lines, steps);
    assert!(lines >= 30, "{lines} lines");
}

/// serate's own Dynamic Forcing Chains (+) and Nested Forcing Chains steps
/// on real grids of the hardest list (tests/data/rate_serate_nested_steps.txt:
/// the grid before a step of our paths on forum hardest 1106, serate with
/// only that technique on, stopped after its first step), each the same
/// hint: rating and removals.
#[test]
fn nested_steps_match_serates_own() {
    let (lines, steps) = check_serate_step_lines(include_str!(
        "../../tests/data/rate_serate_nested_steps.txt"
    ));
    assert_eq!(lines, steps);
    assert!(lines >= 100, "{lines} lines");
}
