//! `stats`: the dataset card. Dedupe's key pass (both keys of every record
//! through [`Task::Analyse`](crate::record::Task::Analyse) on all cores, into
//! bounded-memory sorted runs) gives the classes and repeats; the merge of
//! the exact keys walks each distinct puzzle once, and batches of them are
//! counted (0, 1, 2+ solutions) by the solver on the pool; clue counts and
//! sizes come from the packed keys, blank symbols from the text records.
//! A rating or level column (the first of [`RATING_COLUMNS`] the input
//! has) is read in a second pass over the input. A table goes to stdout
//! (or JSON), and `--plot` draws the histograms as one SVG or PNG
//! (plotters, compiled into this command only, with DejaVu Sans for the
//! PNG's text).
//!
//! ```text
//! input ──key pass (dedupe's)──> iso runs ──merge──> classes
//!                             └─> exact runs ──merge──> distinct puzzles
//!                                   ──(pool: count ≤ 2)──> uniqueness, clues
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use rayon::prelude::*;

use super::*;

/// A `stats` run.
#[derive(Clone, Debug)]
pub struct StatsConfig {
    /// Input paths (`-` for stdin, once).
    pub inputs: Vec<PathBuf>,
    /// JSON instead of the table.
    pub json: bool,
    /// Draw the histograms to this SVG or PNG file (by its extension).
    pub plot: Option<PathBuf>,
    /// Count each input's records with an isomorph (and a copy) in this set.
    pub against: Option<PathBuf>,
    /// Directory for spill files (`--temp-dir`).
    pub temp_dir: Option<PathBuf>,
    /// Memory for keys before spilling to disk, in bytes.
    pub memory: u64,
    /// Worker threads.
    pub threads: usize,
    /// Draw a progress bar.
    pub progress: bool,
    /// Layout choices the user forced.
    pub forced: Forced,
}

/// One input's card.
#[derive(Clone, Debug, Default)]
pub struct Card {
    /// The input as messages name it.
    pub name: String,
    /// Records read.
    pub records: u64,
    /// Records without a key (unreadable, or past 9x9).
    pub bad: u64,
    /// Records per grid side.
    pub sizes: BTreeMap<usize, u64>,
    /// Records per blank symbol (text records with a blank).
    pub blanks: BTreeMap<char, u64>,
    /// Records per clue count.
    pub clues: BTreeMap<usize, u64>,
    /// Records with 0, 1 and 2 or more solutions.
    pub solutions: [u64; 3],
    /// Isomorph classes.
    pub classes: u64,
    /// Records that repeat an earlier record's class.
    pub iso_repeats: u64,
    /// Records that repeat an earlier record's cells exactly.
    pub exact_repeats: u64,
    /// With `--against`: (records with an isomorph there, with a copy).
    pub against: Option<(String, u64, u64)>,
    /// The histogram of a rating or level column, when the input has one.
    pub ratings: Option<Ratings>,
}

/// Columns that hold a rating or a level, in the order `stats` looks for
/// them: `er` (what `rate` writes), `rating` (sudoku-extreme's backtrack
/// counts), `level`, `difficulty`.
pub const RATING_COLUMNS: [&str; 4] = ["er", "rating", "level", "difficulty"];

/// Records per value of a rating or level column.
#[derive(Clone, Debug, Default)]
pub struct Ratings {
    /// The column's name.
    pub column: String,
    /// Records per value (trimmed text), numbers first in numeric order,
    /// then the other values in text order.
    pub values: Vec<(String, u64)>,
    /// Records with no value (an empty field or a null).
    pub missing: u64,
}

/// More distinct numeric values than this are drawn and tabled in bins.
const MAX_BARS: usize = 24;

impl Ratings {
    /// Counts per value (any order) into a column's histogram. A number
    /// is written as the shortest text of its value (`13.0` and `13` are
    /// one value, `13`), whatever the column's type or text.
    pub fn new(column: &str, counts: impl IntoIterator<Item = (String, u64)>) -> Ratings {
        let mut missing = 0;
        let mut merged: BTreeMap<String, u64> = BTreeMap::new();
        for (v, n) in counts {
            if v.is_empty() {
                missing += n;
                continue;
            }
            let v = match v.parse::<f64>() {
                Ok(x) if x.is_finite() => format!("{x}"),
                _ => v,
            };
            *merged.entry(v).or_insert(0) += n;
        }
        let mut values: Vec<(String, u64)> = merged.into_iter().collect();
        values.sort_by(|(a, _), (b, _)| value_order(a, b));
        Ratings {
            column: column.to_string(),
            values,
            missing,
        }
    }
}

/// Numbers (as `f64`) before text, numbers by value, text by bytes.
fn value_order(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<f64>().ok(), b.parse::<f64>().ok()) {
        (Some(x), Some(y)) => x.total_cmp(&y).then_with(|| a.cmp(b)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// The bars of one histogram over several inputs' rating columns: a label
/// and each input's records. The values themselves, or, with more than
/// 24 (`MAX_BARS`) distinct numbers, equal bins of a round width (`lo-hi`,
/// both ends in the bin for integers; `lo..hi`, `hi` excluded, otherwise);
/// values that are not numbers keep a bar each, after the numbers.
pub fn rating_bars(columns: &[&Ratings]) -> Vec<(String, Vec<u64>)> {
    let mut all: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (k, r) in columns.iter().enumerate() {
        for (v, n) in &r.values {
            all.entry(v.clone())
                .or_insert_with(|| vec![0; columns.len()])[k] += n;
        }
    }
    let mut values: Vec<(String, Vec<u64>)> = all.into_iter().collect();
    values.sort_by(|(a, _), (b, _)| value_order(a, b));
    let numbers: Vec<f64> = values
        .iter()
        .map_while(|(v, _)| v.parse::<f64>().ok())
        .collect();
    if numbers.len() <= MAX_BARS {
        return values;
    }
    let (lo, hi) = (numbers[0], numbers[numbers.len() - 1]);
    let integers = numbers.iter().all(|x| x.fract() == 0.0);
    // A round width (1, 2 or 5 times a power of ten) giving at most 20 bins.
    let raw = (hi - lo) / 20.0;
    let mut width = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if width * m >= raw {
            width *= m;
            break;
        }
    }
    if integers {
        width = width.max(1.0);
    }
    let start = (lo / width).floor() * width;
    let bins = (((hi - start) / width).floor() as usize) + 1;
    let mut out: Vec<(String, Vec<u64>)> = (0..bins)
        .map(|b| {
            let a = start + b as f64 * width;
            let label = if integers {
                if width == 1.0 {
                    format!("{a}")
                } else {
                    format!("{a}-{}", a + width - 1.0)
                }
            } else {
                format!("{}..{}", round(a), round(a + width))
            };
            (label, vec![0; columns.len()])
        })
        .collect();
    for (v, counts) in values.drain(..numbers.len()) {
        let x: f64 = v.parse().expect("a number");
        let b = (((x - start) / width).floor() as usize).min(bins - 1);
        for (o, n) in out[b].1.iter_mut().zip(counts) {
            *o += n;
        }
    }
    out.extend(values);
    out
}

/// A bin edge without float noise (`0.30000000000000004` → `0.3`).
fn round(x: f64) -> String {
    let s = format!("{:.6}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Distinct puzzles counted in one batch on the pool.
const BATCH: usize = 4096;

/// Runs `stats`.
pub fn stats(cfg: &StatsConfig) -> anyhow::Result<ExitCode> {
    let mut plan = Plan::new();
    for i in &cfg.inputs {
        plan.input(Some(i));
    }
    if let Some(a) = &cfg.against {
        plan.input(Some(a));
    }
    let result = plan.output(Role::RESULT, None, Writes::Text, Compress::None);
    let plot_role = Role {
        flag: "--plot",
        what: "the picture",
    };
    let plot = cfg
        .plot
        .as_deref()
        .map(|p| plan.output(plot_role, Some(p), Writes::Text, Compress::None));
    let picture = match &cfg.plot {
        Some(p) => Some(plot_kind(p)?),
        None => None,
    };
    let mut outs = plan.check()?;
    let dir = outs.scratch_dir(Some(result), cfg.temp_dir.as_deref());
    let against = match &cfg.against {
        Some(a) => Some(load(Some(a), &dir)?),
        None => None,
    };
    let mut cards = Vec::new();
    let mut bad = false;
    for path in &cfg.inputs {
        let input = load(Some(path), &dir)?;
        let card = card(cfg, &input, against.as_ref(), &dir)?;
        bad |= card.bad > 0;
        cards.push(card);
    }
    let text = if cfg.json {
        json(&cards)
    } else {
        table(&cards)
    };
    let mut all = Vec::new();
    let mut o = outs.take(result, Writes::Text)?;
    o.writer().write_all(text.as_bytes())?;
    all.push(o);
    if let Some(slot) = plot {
        let mut o = outs.take(slot, Writes::Text)?;
        let bytes = match picture.expect("a plot kind with a plot") {
            Picture::Svg => svg(&cards)?.into_bytes(),
            Picture::Png => png(&cards)?,
        };
        o.writer().write_all(&bytes)?;
        all.push(o);
    }
    match outs.commit(all) {
        Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::SUCCESS),
        r => r?,
    }
    Ok(ExitCode::from(if bad { EXIT_BAD_RECORDS } else { EXIT_OK }))
}

/// One input's card: the key pass, the merges, the counts.
fn card(
    cfg: &StatsConfig,
    input: &Loaded,
    against: Option<&Loaded>,
    dir: &Path,
) -> anyhow::Result<Card> {
    let job = KeyJob {
        iso: Some(Form::Pattern),
        exact: true,
    };
    let spill_err = |e: io::Error| anyhow::Error::new(e).context("spill files");
    let mut pass = KeyPass::new(
        job,
        cfg.memory / 2,
        dir,
        cfg.threads,
        cfg.progress,
        &cfg.forced,
    )?;
    let keyed = pass.keys(input, 0)?;
    // The other set's keys, tagged, into the same tables: a class or a
    // cell string that holds both counts as a match.
    if let Some(other) = against {
        pass.keys(other, TEST)?;
    }
    let KeyPass {
        mut tables, pool, ..
    } = pass;
    let mut card = Card {
        name: input.name.clone(),
        records: keyed.records,
        bad: keyed.bad,
        ..Card::default()
    };
    let iso = tables.iso.take().expect("iso keys");
    let exact = tables.exact.take().expect("exact keys");
    let boxes_for = |side: usize| cfg.forced.boxes_for(side).ok();
    let (iso_matched, exact_matched) = pool
        .install(|| -> io::Result<(u64, u64)> {
            let i = walk_classes(iso.sorted()?, &mut card)?;
            let e = walk_puzzles(exact.sorted()?, &mut card, &boxes_for)?;
            Ok((i, e))
        })
        .map_err(spill_err)?;
    if let Some(other) = against {
        card.against = Some((other.name.clone(), iso_matched, exact_matched));
    }
    card.ratings = ratings_of(input, &keyed.shape)?;
    if let Found::Text { found, body } = &keyed.shape {
        for item in Records::new(&found.layout, &input.bytes()[*body..]) {
            let Item::Record { raw, .. } = item else {
                break;
            };
            let mut cells = vec![0u8; found.layout.cells()];
            if found.layout.parse(raw, &mut cells).is_ok() && cells.contains(&0) {
                *card
                    .blanks
                    .entry(char::from(found.layout.blank_of(raw)))
                    .or_insert(0) += 1;
            }
        }
    }
    Ok(card)
}

/// The histogram of the first of [`RATING_COLUMNS`] the input has.
fn ratings_of(input: &Loaded, shape: &Found) -> anyhow::Result<Option<Ratings>> {
    let names = split::column_names(input, shape)?;
    let Some(column) = RATING_COLUMNS
        .iter()
        .find(|c| names.iter().any(|n| n == *c))
    else {
        return Ok(None);
    };
    let mut counts: std::collections::HashMap<Vec<u8>, u64> = Default::default();
    split::column_values(input, shape, column, "stats: the column", &mut |v| {
        *counts.entry(v.trim_ascii().to_vec()).or_insert(0) += 1;
    })?;
    Ok(Some(Ratings::new(
        column,
        counts
            .into_iter()
            .map(|(v, n)| (String::from_utf8_lossy(&v).into_owned(), n)),
    )))
}

/// Classes and isomorph repeats from the iso entries in key order (the
/// other set's, tagged, sort after ours within a key); returns how many of
/// our records have an isomorph in the other set.
fn walk_classes(
    entries: impl Iterator<Item = io::Result<[u8; ENTRY]>>,
    card: &mut Card,
) -> io::Result<u64> {
    let mut matched = 0u64;
    let mut last: Option<[u8; KEY]> = None;
    let mut ours_in_class = 0u64;
    for e in entries {
        let e = e?;
        let key: [u8; KEY] = e[..KEY].try_into().expect("key bytes");
        let theirs = entry_pos(&e) & TEST != 0;
        if last != Some(key) {
            last = Some(key);
            ours_in_class = 0;
            if !theirs {
                card.classes += 1;
            }
        }
        if theirs {
            matched += std::mem::take(&mut ours_in_class);
        } else {
            if ours_in_class > 0 {
                card.iso_repeats += 1;
            }
            ours_in_class += 1;
        }
    }
    Ok(matched)
}

/// Distinct puzzles from the exact entries in key order: their records,
/// clues, sizes and solution counts (counted in batches on the current
/// rayon pool, boxes of each side from `boxes_for`), the exact
/// duplicates; returns how many of our records have a copy in the other
/// set.
fn walk_puzzles(
    entries: impl Iterator<Item = io::Result<[u8; ENTRY]>>,
    card: &mut Card,
    boxes_for: &(dyn Fn(usize) -> Option<Boxes> + Sync),
) -> io::Result<u64> {
    let mut exact_matched = 0u64;
    let mut batch: Vec<([u8; KEY], u64)> = Vec::with_capacity(BATCH);
    let mut last: Option<[u8; KEY]> = None;
    let mut ours = 0u64;
    let mut matched = false;
    let flush = |batch: &mut Vec<([u8; KEY], u64)>, card: &mut Card| {
        let counted: Vec<(usize, usize, u32)> = batch
            .par_iter()
            .map(|(key, _)| {
                let (side, cells) = unpack(key);
                let clues = cells.iter().filter(|&&v| v != 0).count();
                let count = boxes_for(side).map_or(0, |b| {
                    let mut out = vec![0u8; cells.len()];
                    crate::solver::solve(b, &cells, 2, &mut out).count
                });
                (side, clues, count)
            })
            .collect();
        for ((_, n), (side, clues, count)) in batch.iter().zip(counted) {
            *card.sizes.entry(side).or_insert(0) += n;
            *card.clues.entry(clues).or_insert(0) += n;
            card.solutions[count.min(2) as usize] += n;
        }
        batch.clear();
    };
    for e in entries {
        let e = e?;
        let key: [u8; KEY] = e[..KEY].try_into().expect("key bytes");
        let theirs = entry_pos(&e) & TEST != 0;
        if last != Some(key) {
            if let (Some(k), true) = (last, ours > 0) {
                batch.push((k, ours));
                if batch.len() == BATCH {
                    flush(&mut batch, card);
                }
            }
            last = Some(key);
            ours = 0;
            matched = false;
        }
        if theirs {
            if !matched {
                exact_matched += ours;
                matched = true;
            }
        } else {
            if ours > 0 {
                card.exact_repeats += 1;
            }
            ours += 1;
        }
    }
    if let (Some(k), true) = (last, ours > 0) {
        batch.push((k, ours));
    }
    flush(&mut batch, card);
    Ok(exact_matched)
}

/// The keys of one set for [`card_of_keys`]: per record, its iso and exact
/// keys ([`KeyJob`] with both), `None` for a bad record.
pub type KeyRows<'a> = &'a [Option<(Key, Key)>];

/// `stats` in memory, for callers holding every record's keys (the Python
/// package): the card of a set named `name` from its records' keys, the
/// blank symbols of its text records that have a blank (`blanks`), and
/// with `against` another set's name and keys. The same walks as the
/// command, so the same keys give the same numbers as `sudoku-bulk stats`
/// on the file. Solutions are counted on the current rayon pool, boxes of
/// each side from `boxes_for`.
pub fn card_of_keys(
    name: &str,
    keys: KeyRows<'_>,
    blanks: impl IntoIterator<Item = u8>,
    against: Option<(&str, KeyRows<'_>)>,
    boxes_for: &(dyn Fn(usize) -> Option<Boxes> + Sync),
) -> Card {
    use rayon::prelude::*;
    let mut card = Card {
        name: name.to_string(),
        records: keys.len() as u64,
        bad: keys.iter().filter(|k| k.is_none()).count() as u64,
        ..Card::default()
    };
    let entries = |pick: fn(&(Key, Key)) -> Key| {
        let ours = keys
            .iter()
            .enumerate()
            .filter_map(|(i, k)| k.as_ref().map(|k| entry(&pick(k), i as u64)));
        let theirs = against.into_iter().flat_map(move |(_, other)| {
            other
                .iter()
                .enumerate()
                .filter_map(move |(i, k)| k.as_ref().map(|k| entry(&pick(k), i as u64 | TEST)))
        });
        let mut all: Vec<[u8; ENTRY]> = ours.chain(theirs).collect();
        all.par_sort_unstable();
        all
    };
    let iso = entries(|k| k.0);
    let iso_matched = walk_classes(iso.into_iter().map(Ok), &mut card).expect("in memory");
    let exact = entries(|k| k.1);
    let exact_matched =
        walk_puzzles(exact.into_iter().map(Ok), &mut card, boxes_for).expect("in memory");
    if let Some((other, _)) = against {
        card.against = Some((other.to_string(), iso_matched, exact_matched));
    }
    for b in blanks {
        *card.blanks.entry(char::from(b)).or_insert(0) += 1;
    }
    card
}

fn table(cards: &[Card]) -> String {
    let mut s = String::new();
    for c in cards {
        let keyed = c.records - c.bad;
        let _ = writeln!(s, "{}", c.name);
        let row = |s: &mut String, k: &str, v: String| {
            let _ = writeln!(s, "  {k:<22} {v}");
        };
        row(&mut s, "records", c.records.to_string());
        row(&mut s, "bad", c.bad.to_string());
        let list = |m: &BTreeMap<String, u64>| {
            m.iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let sizes = c
            .sizes
            .iter()
            .map(|(k, v)| (format!("{k}x{k}"), *v))
            .collect();
        row(&mut s, "sizes", list(&sizes));
        let blanks = c
            .blanks
            .iter()
            .map(|(k, v)| (format!("'{k}'"), *v))
            .collect();
        row(&mut s, "blank symbols", list(&blanks));
        row(
            &mut s,
            "solutions 0/1/2+",
            format!(
                "{} / {} / {}",
                c.solutions[0], c.solutions[1], c.solutions[2]
            ),
        );
        row(&mut s, "isomorph classes", c.classes.to_string());
        row(&mut s, "isomorph repeats", c.iso_repeats.to_string());
        row(&mut s, "exact duplicates", c.exact_repeats.to_string());
        if let Some((o, iso, exact)) = &c.against {
            row(
                &mut s,
                "overlap",
                format!("{iso} with an isomorph in {o}, {exact} with a copy"),
            );
        }
        let _ = writeln!(s, "  clues (records: count)");
        let most = c.clues.values().copied().max().unwrap_or(1).max(1);
        for (k, v) in &c.clues {
            let bar = "#".repeat(((v * 40).div_ceil(most)) as usize);
            let _ = writeln!(s, "    {k:>3} {v:>9}  {bar}");
        }
        if let Some(r) = &c.ratings {
            let bars = rating_bars(&[r]);
            let missing = if r.missing > 0 {
                format!(", {} without a value", r.missing)
            } else {
                String::new()
            };
            let _ = writeln!(s, "  {} (records: count{missing})", r.column);
            let most = bars.iter().map(|(_, n)| n[0]).max().unwrap_or(1).max(1);
            let wide = bars.iter().map(|(l, _)| l.len()).max().unwrap_or(0).max(3);
            for (label, n) in &bars {
                let bar = "#".repeat(((n[0] * 40).div_ceil(most)) as usize);
                let _ = writeln!(s, "    {label:>wide$} {:>9}  {bar}", n[0]);
            }
        }
        let _ = keyed;
    }
    s
}

/// The cards as `stats --json` writes them: a list of one object per card.
pub fn cards_json(cards: &[Card]) -> String {
    json(cards)
}

fn json(cards: &[Card]) -> String {
    let map = |m: &BTreeMap<String, u64>| {
        let inner: Vec<String> = m
            .iter()
            .map(|(k, v)| format!("{}: {v}", quote_json(k)))
            .collect();
        format!("{{{}}}", inner.join(", "))
    };
    let items: Vec<String> = cards
        .iter()
        .map(|c| {
            let sizes = c.sizes.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            let blanks = c.blanks.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            let clues = c.clues.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            let against = match &c.against {
                Some((o, iso, exact)) => format!(
                    ", \"against\": {{\"name\": {}, \"isomorphs\": {iso}, \"copies\": {exact}}}",
                    quote_json(o)
                ),
                None => String::new(),
            };
            let ratings = match &c.ratings {
                Some(r) => {
                    let values: Vec<String> = r
                        .values
                        .iter()
                        .map(|(v, n)| format!("[{}, {n}]", quote_json(v)))
                        .collect();
                    format!(
                        ", \"ratings\": {{\"column\": {}, \"values\": [{}], \"missing\": {}}}",
                        quote_json(&r.column),
                        values.join(", "),
                        r.missing
                    )
                }
                None => String::new(),
            };
            format!(
                "{{\"name\": {}, \"records\": {}, \"bad\": {}, \"sizes\": {}, \"blanks\": {}, \
                 \"clues\": {}, \"solutions\": {{\"0\": {}, \"1\": {}, \"2+\": {}}}, \
                 \"classes\": {}, \"iso_repeats\": {}, \"exact_duplicates\": {}{against}{ratings}}}",
                quote_json(&c.name),
                c.records,
                c.bad,
                map(&sizes),
                map(&blanks),
                map(&clues),
                c.solutions[0],
                c.solutions[1],
                c.solutions[2],
                c.classes,
                c.iso_repeats,
                c.exact_repeats
            )
        })
        .collect();
    format!("[{}]\n", items.join(",\n "))
}

fn quote_json(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What `--plot` writes, chosen by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Picture {
    Svg,
    Png,
}

fn plot_kind(path: &Path) -> anyhow::Result<Picture> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Picture::Svg),
        Some("png") => Ok(Picture::Png),
        _ => anyhow::bail!(
            "{}: --plot draws SVG or PNG: name the file FILE.svg or FILE.png",
            path.display()
        ),
    }
}

/// The picture's size in pixels: wider with a rating panel.
fn plot_size(cards: &[Card]) -> (u32, u32) {
    if cards.iter().any(|c| c.ratings.is_some()) {
        (1300, 420)
    } else {
        (900, 420)
    }
}

/// DejaVu Sans as plotters' `sans-serif`, once: text is measured with it
/// (both backends) and drawn with it (PNG).
fn font() -> anyhow::Result<()> {
    use std::sync::OnceLock;
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        plotters::style::register_font(
            "sans-serif",
            plotters::style::FontStyle::Normal,
            dejavu::sans::regular(),
        )
        .is_ok()
    });
    anyhow::ensure!(ok, "plot: the built-in font did not load");
    Ok(())
}

/// The histograms as one SVG document.
fn svg(cards: &[Card]) -> anyhow::Result<String> {
    use plotters::prelude::*;
    font()?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, plot_size(cards)).into_drawing_area();
        draw(&root, cards)?;
    }
    Ok(text)
}

/// The histograms as one PNG image (8-bit RGB).
fn png(cards: &[Card]) -> anyhow::Result<Vec<u8>> {
    use plotters::prelude::*;
    font()?;
    let (w, h) = plot_size(cards);
    let mut pixels = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
        draw(&root, cards)?;
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
    writer
        .write_image_data(&pixels)
        .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
    writer.finish().map_err(|e| anyhow::anyhow!("plot: {e}"))?;
    Ok(out)
}

/// The panels on any backend: clue counts of each input, the rating
/// column's histogram (when an input has one), the solution counts.
fn draw<DB: plotters::prelude::DrawingBackend>(
    root: &plotters::prelude::DrawingArea<DB, plotters::coord::Shift>,
    cards: &[Card],
) -> anyhow::Result<()> {
    use plotters::prelude::*;
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("plot: {e}");
    root.fill(&WHITE).map_err(e)?;
    let rated: Vec<&Ratings> = cards.iter().filter_map(|c| c.ratings.as_ref()).collect();
    let (clues_area, rest) = root.split_horizontally(if rated.is_empty() { 620 } else { 560 });
    let (rating_area, sol_area) = if rated.is_empty() {
        (None, rest)
    } else {
        let (a, b) = rest.split_horizontally(460);
        (Some(a), b)
    };
    let lo = cards
        .iter()
        .flat_map(|c| c.clues.keys().copied())
        .min()
        .unwrap_or(0);
    let hi = cards
        .iter()
        .flat_map(|c| c.clues.keys().copied())
        .max()
        .unwrap_or(0);
    let top = cards
        .iter()
        .flat_map(|c| c.clues.values().copied())
        .max()
        .unwrap_or(1);
    let mut chart = ChartBuilder::on(&clues_area)
        .caption("clues", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (lo as u32..hi as u32 + 1).into_segmented(),
            0u64..top + top / 10 + 1,
        )
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("givens")
        .y_desc("records")
        .draw()
        .map_err(e)?;
    for (k, c) in cards.iter().enumerate() {
        let color = Palette99::pick(k).mix(0.6);
        chart
            .draw_series(
                Histogram::vertical(&chart)
                    .style(color.filled())
                    .data(c.clues.iter().map(|(&x, &y)| (x as u32, y))),
            )
            .map_err(e)?
            .label(c.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(e)?;
    if let Some(area) = rating_area {
        let bars = rating_bars(&rated);
        let labels: Vec<String> = bars.iter().map(|(l, _)| l.clone()).collect();
        let most = bars
            .iter()
            .flat_map(|(_, n)| n.iter().copied())
            .max()
            .unwrap_or(1)
            .max(1);
        let mut columns: Vec<&str> = rated.iter().map(|r| r.column.as_str()).collect();
        columns.dedup();
        let mut chart = ChartBuilder::on(&area)
            .caption(columns.join(", "), ("sans-serif", 20))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(
                (0u32..bars.len().max(1) as u32).into_segmented(),
                0u64..most + most / 10 + 1,
            )
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_labels(bars.len().clamp(1, 12))
            .x_label_formatter(&|v| {
                let i = match v {
                    SegmentValue::Exact(i) | SegmentValue::CenterOf(i) => *i as usize,
                    SegmentValue::Last => return String::new(),
                };
                labels.get(i).cloned().unwrap_or_default()
            })
            .y_desc("records")
            .draw()
            .map_err(e)?;
        // Each rated input's bars, in its colour among all the cards.
        let mut k_rated = 0;
        for (k, c) in cards.iter().enumerate() {
            if c.ratings.is_none() {
                continue;
            }
            let color = Palette99::pick(k).mix(0.6);
            let j = k_rated;
            k_rated += 1;
            chart
                .draw_series(
                    Histogram::vertical(&chart)
                        .style(color.filled())
                        .data(bars.iter().enumerate().map(|(i, (_, n))| (i as u32, n[j]))),
                )
                .map_err(e)?;
        }
    }
    let most = cards
        .iter()
        .flat_map(|c| c.solutions)
        .max()
        .unwrap_or(1)
        .max(1);
    let mut sol = ChartBuilder::on(&sol_area)
        .caption("solutions", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d((0u32..3u32).into_segmented(), 0u64..most + most / 10 + 1)
        .map_err(e)?;
    sol.configure_mesh()
        .x_labels(3)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(0) => "0".to_string(),
            SegmentValue::CenterOf(1) => "1".to_string(),
            SegmentValue::CenterOf(2) => "2+".to_string(),
            _ => String::new(),
        })
        .y_desc("records")
        .draw()
        .map_err(e)?;
    for (k, c) in cards.iter().enumerate() {
        let color = Palette99::pick(k).mix(0.6);
        sol.draw_series(
            Histogram::vertical(&sol)
                .style(color.filled())
                .data((0..3).map(|i| (i as u32, c.solutions[i]))),
        )
        .map_err(e)?;
    }
    root.present().map_err(e)?;
    Ok(())
}
