//! `split`: after `dedupe`, a leak-free train/test(/val) split. The key pass
//! is dedupe's (the canonical form, or the cells, of every record through
//! [`Task::Analyse`](crate::record::Task::Analyse) on all cores, into
//! bounded-memory sorted runs); a merge walks the classes (records with one
//! key) and files each under a seeded hash of its key, so a second sort puts
//! the classes in a random order that only the seed and the keys decide;
//! walking that order, each class goes whole to the part whose share of its
//! stratum the class starts in; a third sort puts the test/val positions
//! back in input order, and a copy pass routes every record's bytes (rows)
//! to its part's file.
//!
//! ```text
//! input ──key pass (dedupe's)──> (key, pos) runs ──merge: classes──>
//!       (stratum, hash(seed, key), key, pos) runs ──walk: class → part──>
//!       (pos, part) runs ──copy pass──> train.EXT, test.EXT, val.EXT
//! ```

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use super::*;

/// Which part a record goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The training set (also every record without a key).
    Train = 0,
    /// The test set.
    Test = 1,
    /// The validation set.
    Val = 2,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Train => "train",
            Part::Test => "test",
            Part::Val => "val",
        }
    }
}

/// What the fractions hold within.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stratify {
    /// The whole set.
    None,
    /// Each clue count separately (isomorphs share their clue count).
    Clues,
    /// Each value of a column (CSV/TSV with a header, Parquet, Arrow): a
    /// class's stratum is its first record's value.
    Column(String),
    /// Each ER (serate's rating, in tenths): the input's `er` column when
    /// it has one (as [`Stratify::Column`]), else each class rated once
    /// on the pool from its key's cells (9x9; anything not rated, one
    /// stratum).
    Er,
}

/// A `split` run.
#[derive(Clone, Debug)]
pub struct SplitConfig {
    /// Input path; `None` or `-` for stdin.
    pub input: Option<PathBuf>,
    /// Share of the records in the test part.
    pub test: f64,
    /// Share of the records in the validation part (0: no val file).
    pub val: f64,
    /// Seed of the class order.
    pub seed: u64,
    /// What makes a class.
    pub by: By,
    /// The canonical form for `By::Iso`.
    pub form: Form,
    /// Strata the fractions hold in.
    pub stratify: Stratify,
    /// Directory of the outputs (`train.EXT`, ...); `None`: beside the
    /// input as `NAME.train.EXT`.
    pub output_dir: Option<PathBuf>,
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
    /// Blank symbol of the parts' puzzles (one-line and CSV/TSV text);
    /// `None`: each record as it is.
    pub blank: Option<u8>,
    /// `--compression`: the table output's codec (`None`: the input's).
    pub compression: Option<crate::columnar::TableCodec>,
}

/// Compression suffixes kept at the end of an output name.
const CODEC_EXTS: [&str; 5] = [".gz", ".zst", ".xz", ".bz2", ".zstd"];

/// The output path of `part`: `DIR/PART.EXT` with an output directory,
/// else `NAME.PART.EXT` beside the input (`EXT` the input's extension,
/// with its compression suffix: `a.csv.gz` → `a.train.csv.gz`).
pub fn part_path(input: Option<&Path>, dir: Option<&Path>, part: &str) -> anyhow::Result<PathBuf> {
    let file = input
        .filter(|p| p.as_os_str() != "-")
        .and_then(|p| p.file_name())
        .map(|f| f.to_string_lossy().into_owned());
    let (stem, ext) = match &file {
        Some(f) => split_ext(f),
        None => (String::new(), String::new()),
    };
    match dir {
        Some(d) => Ok(d.join(format!("{part}{ext}"))),
        None => {
            let Some(input) = input.filter(|p| p.as_os_str() != "-") else {
                anyhow::bail!("split of standard input needs --output-dir");
            };
            Ok(input.with_file_name(format!("{stem}.{part}{ext}")))
        }
    }
}

/// `a.csv.gz` → (`a`, `.csv.gz`); `a` → (`a`, ``).
fn split_ext(file: &str) -> (String, String) {
    let mut base = file;
    let mut codec = "";
    for c in CODEC_EXTS {
        if let Some(b) = file.strip_suffix(c) {
            base = b;
            codec = c;
            break;
        }
    }
    match base.rfind('.').filter(|&i| i > 0) {
        Some(i) => (base[..i].to_string(), format!("{}{codec}", &base[i..])),
        None => (base.to_string(), codec.to_string()),
    }
}

/// SplitMix64's finaliser: the seeded hash of a class.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seeded hash that orders the classes (`split`'s class order: classes
/// sort by stratum, then this number, then the key). Public for routes that
/// sort the classes themselves (the Spark glue).
pub fn class_hash(seed: u64, key: &[u8; KEY]) -> u64 {
    let mut h = mix(seed);
    for c in key.chunks(8) {
        let mut w = [0u8; 8];
        w[..c.len()].copy_from_slice(c);
        h = mix(h ^ u64::from_le_bytes(w));
    }
    h
}

/// Givens in a packed key (nonzero cell nibbles; the last byte's low
/// nibble is the side): `--stratify clues`'s stratum.
pub fn key_clues(key: &[u8; KEY]) -> u8 {
    let mut n = 0;
    for (i, &b) in key.iter().enumerate() {
        n += u8::from(b >> 4 != 0);
        if i + 1 < KEY {
            n += u8::from(b & 15 != 0);
        }
    }
    n
}

/// `--test` and `--val` (or the Python package's `test` and `val`) as
/// fractions: each in `0..1`, their sum below 1; else why not.
pub fn check_fractions(test: f64, val: f64) -> Result<(), String> {
    if !(0.0..1.0).contains(&test) || !(0.0..1.0).contains(&val) || test + val >= 1.0 {
        return Err(format!(
            "test and --val are fractions from 0 to 1 with test + val below 1, not {test} and {val}"
        ));
    }
    Ok(())
}

/// The walk over the classes in their seeded order, shared by the command
/// (over sorted runs) and [`split_keys`] (in memory): each class goes
/// whole to the part that its first record's place in its stratum falls
/// in (test below the stratum's test target, val below test + val, else
/// train), so a part's size is within one class of its fraction.
struct Walk {
    /// Per stratum: the test target and the test + val target, in records.
    targets: Vec<(u64, u64)>,
    /// Per stratum: records walked so far.
    seen: Vec<u64>,
}

impl Walk {
    /// Targets for strata of `sizes` records each.
    fn new(sizes: &[u64], test: f64, val: f64) -> Walk {
        let targets = sizes
            .iter()
            .map(|&n| {
                let t = (n as f64 * test).round() as u64;
                let v = (n as f64 * (test + val)).round() as u64;
                (t, v)
            })
            .collect();
        Walk {
            targets,
            seen: vec![0; sizes.len()],
        }
    }

    /// The part of the class that starts now in `stratum`.
    fn class(&self, stratum: usize) -> Part {
        let at = self.seen[stratum];
        let (t, v) = self.targets[stratum];
        if at < t {
            Part::Test
        } else if at < v {
            Part::Val
        } else {
            Part::Train
        }
    }

    /// `n` records of the current class walked.
    fn records(&mut self, stratum: usize, n: u64) {
        self.seen[stratum] += n;
    }
}

/// What [`split_keys`] holds the fractions within.
#[derive(Clone, Copy, Debug)]
pub enum Strata<'a> {
    /// The whole set.
    None,
    /// Each clue count (read from the keys: isomorphs share it), as
    /// `split --stratify clues`.
    Clues,
    /// A stratum number per record (a label column's values as numbers):
    /// a class's stratum is its first record's.
    Given(&'a [u32]),
}

/// `split` in memory, for callers holding every record's key (the Python
/// package): the part of each record, in record order. `keys[i]` is
/// record `i`'s key ([`KeyJob`]'s iso key for `--by iso`, its exact key
/// for `--by exact`); a record without one (bad) goes to train. The same
/// seeded class order and the same walk as the command, so the same keys
/// give the same parts as `sudoku-bulk split` on the file, whatever the
/// threads (sorts run on the current rayon pool).
pub fn split_keys(
    keys: &[Option<Key>],
    strata: Strata<'_>,
    test: f64,
    val: f64,
    seed: u64,
) -> Result<Vec<Part>, String> {
    use rayon::prelude::*;
    check_fractions(test, val)?;
    if let Strata::Given(s) = strata {
        if s.len() != keys.len() {
            return Err(format!(
                "{} strata for {} records: one a record",
                s.len(),
                keys.len()
            ));
        }
    }
    let mut entries: Vec<(Key, usize)> = keys
        .iter()
        .enumerate()
        .filter_map(|(i, k)| k.map(|k| (k, i)))
        .collect();
    entries.par_sort_unstable();
    // Classes: (stratum, hash, key, first entry, records).
    let mut classes: Vec<(u32, u64, Key, usize, usize)> = Vec::new();
    let mut start = 0;
    while start < entries.len() {
        let key = entries[start].0;
        let mut end = start + 1;
        while end < entries.len() && entries[end].0 == key {
            end += 1;
        }
        let stratum = match strata {
            Strata::None => 0,
            Strata::Clues => u32::from(key_clues(&key)),
            Strata::Given(s) => s[entries[start].1],
        };
        classes.push((stratum, class_hash(seed, &key), key, start, end - start));
        start = end;
    }
    let top = classes.iter().map(|c| c.0 as usize + 1).max().unwrap_or(0);
    let mut sizes = vec![0u64; top];
    for c in &classes {
        sizes[c.0 as usize] += c.4 as u64;
    }
    classes.par_sort_unstable_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
    let mut walk = Walk::new(&sizes, test, val);
    let mut parts = vec![Part::Train; keys.len()];
    for &(stratum, _, _, first, n) in &classes {
        let part = walk.class(stratum as usize);
        walk.records(stratum as usize, n as u64);
        for &(_, row) in &entries[first..first + n] {
            parts[row] = part;
        }
    }
    Ok(parts)
}

/// A class entry of the second sort: stratum (4 bytes), hash, key,
/// position, all big-endian so byte order is numeric order.
const CLASS: usize = 4 + 8 + KEY + 8;
/// Where the hash, key and position start in a class entry.
const C_HASH: usize = 4;
const C_KEY: usize = C_HASH + 8;
const C_POS: usize = C_KEY + KEY;

/// Part sizes of one run, for the report.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    records: [u64; 3],
    classes: [u64; 3],
}

/// Runs `split`.
pub fn split(cfg: &SplitConfig) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    check_fractions(cfg.test, cfg.val).map_err(|e| anyhow::anyhow!("--{e}"))?;
    let parts: Vec<Part> = [Part::Train, Part::Test, Part::Val]
        .into_iter()
        .filter(|&p| p != Part::Val || cfg.val > 0.0)
        .collect();
    let paths = parts
        .iter()
        .map(|p| part_path(cfg.input.as_deref(), cfg.output_dir.as_deref(), p.name()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(d) = &cfg.output_dir {
        std::fs::create_dir_all(d).with_context(|| format!("{}: cannot create", d.display()))?;
    }
    // Every part is declared to the output guard: checked against the
    // input and each other before any work, put in place together.
    let mut plan = Plan::new();
    plan.input(cfg.input.as_deref());
    let role = Role {
        flag: "split",
        what: "a part",
    };
    let slots: Vec<Slot> = paths
        .iter()
        .map(|p| plan.output(role, Some(p), Writes::Later, Compress::Auto))
        .collect();
    let mut guard = plan.check()?;
    let dir = guard.scratch_dir(Some(slots[0]), cfg.temp_dir.as_deref());
    let input = load(cfg.input.as_deref(), &dir)?;
    columnar::TableCodec::check_copy(
        cfg.compression,
        &input.name,
        crate::input::sniff(input.bytes()),
    )?;
    let name = input.name.clone();
    let writes = writes_of(&input, &cfg.forced)?;
    let mut outs = slots
        .iter()
        .map(|&s| guard.take(s, writes))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let job = KeyJob {
        iso: (cfg.by == By::Iso).then_some(cfg.form),
        exact: cfg.by == By::Exact,
    };
    let budget = cfg.memory / 3;
    let mut pass = KeyPass::new(job, budget, &dir, cfg.threads, cfg.progress, &cfg.forced)?;
    let keyed = pass.keys(&input, 0)?;
    check_blank(&input, &keyed.shape, cfg.blank, &cfg.forced)?;
    let KeyPass {
        mut tables, pool, ..
    } = pass;
    let mut spilled = tables.spilled();
    let keys = match cfg.by {
        By::Iso => tables.iso.take(),
        By::Exact => tables.exact.take(),
    }
    .expect("the table of the asked key");
    let spill_err = |e: io::Error| anyhow::Error::new(e).context("spill files");
    // A column's value of every record, as stratum numbers (in memory: 4
    // bytes a record).
    let has_er = cfg.stratify == Stratify::Er
        && column_names(&input, &keyed.shape)?
            .iter()
            .any(|c| c == "er");
    let labels = match &cfg.stratify {
        Stratify::Column(column) => Some(column_strata(&input, &keyed.shape, column)?),
        Stratify::Er if has_er => Some(column_strata(&input, &keyed.shape, "er")?),
        _ => None,
    };
    // `--stratify er` without an `er` column: classes wait in batches for
    // their rating (4096 classes at a time, rated on the pool).
    let rate_classes = cfg.stratify == Stratify::Er && !has_er;
    let mut rating = rate_classes.then(|| {
        crate::output::Reporter::records(format!("{name}: rating classes"), None, cfg.progress)
    });
    let mut waiting: Waiting = Vec::new();
    let mut rated = 0u64;
    // Classes under their seeded hash; records per stratum.
    let by_class = Runs::<CLASS>::new(budget, &dir);
    let strata: Vec<u64> = Vec::new();
    let mut classes = 0u64;
    let mut last: Option<[u8; KEY]> = None;
    let mut stratum = 0u32;
    let mut filer = Filer {
        by_class,
        strata,
        seed: cfg.seed,
    };
    // Rates the waiting classes on the pool and files their records.
    let mut flush = |waiting: &mut Waiting, filer: &mut Filer| -> io::Result<()> {
        use rayon::prelude::*;
        let ers: Vec<u32> =
            pool.install(|| waiting.par_iter().map(|(k, _)| er_stratum(k)).collect());
        rated += waiting.len() as u64;
        if let Some(r) = &mut rating {
            crate::pipeline::Observer::progress(r, 0, rated);
        }
        for ((key, positions), er) in waiting.drain(..).zip(ers) {
            for pos in positions {
                filer.file(er, &key, pos)?;
            }
        }
        Ok(())
    };
    for e in pool.install(|| keys.sorted()).map_err(spill_err)? {
        let e = e.map_err(spill_err)?;
        let key: [u8; KEY] = e[..KEY].try_into().expect("key bytes");
        let new_class = last != Some(key);
        if new_class {
            classes += 1;
            last = Some(key);
            // Entries sort by key, then position: this is the class's
            // first record.
            stratum = match (&cfg.stratify, &labels) {
                (Stratify::Clues, _) => u32::from(key_clues(&key)),
                (Stratify::Column(_) | Stratify::Er, Some(l)) => *l
                    .get(entry_pos(&e) as usize)
                    .ok_or_else(|| mismatch("a record the column pass did not meet"))?,
                _ => 0,
            };
        }
        if rate_classes {
            if new_class {
                if waiting.len() == RATE_BATCH {
                    flush(&mut waiting, &mut filer).map_err(spill_err)?;
                }
                waiting.push((key, Vec::new()));
            }
            waiting.last_mut().expect("a class").1.push(entry_pos(&e));
        } else {
            filer
                .file(stratum, &key, entry_pos(&e))
                .map_err(spill_err)?;
        }
    }
    flush(&mut waiting, &mut filer).map_err(spill_err)?;
    let Filer {
        by_class, strata, ..
    } = filer;
    if let Some(r) = rating.take() {
        r.clear();
    }
    spilled += by_class.spilled();
    let mut walk = Walk::new(&strata, cfg.test, cfg.val);
    let mut routed = Runs::<9>::new(budget, &dir);
    let mut tally = Tally::default();
    let mut current: Option<(u32, [u8; KEY])> = None;
    let mut part = Part::Train;
    for c in pool.install(|| by_class.sorted()).map_err(spill_err)? {
        let c = c.map_err(spill_err)?;
        let stratum = u32::from_be_bytes(c[..C_HASH].try_into().expect("4 bytes"));
        let key: [u8; KEY] = c[C_KEY..C_POS].try_into().expect("key bytes");
        let pos = u64::from_be_bytes(c[C_POS..].try_into().expect("8 bytes"));
        if current != Some((stratum, key)) {
            // A class starts: it goes whole to the part its first record's
            // place in the stratum falls in.
            current = Some((stratum, key));
            part = walk.class(stratum as usize);
            tally.classes[part as usize] += 1;
        }
        walk.records(stratum as usize, 1);
        tally.records[part as usize] += 1;
        if part != Part::Train {
            let mut r = [0u8; 9];
            r[..8].copy_from_slice(&pos.to_be_bytes());
            r[8] = part as u8;
            routed.push(r).map_err(spill_err)?;
        }
    }
    debug_assert_eq!(classes, tally.classes.iter().sum::<u64>());
    spilled += routed.spilled();
    // Records without a key (bad ones) stay in train.
    let keyless = keyed.records - tally.records.iter().sum::<u64>();
    tally.records[0] += keyless;
    let routes = pool.install(|| routed.sorted()).map_err(spill_err)?;
    let routes = routes.map(|r| {
        r.map(|r| {
            let part = match r[8] {
                1 => Part::Test,
                _ => Part::Val,
            };
            (
                u64::from_be_bytes(r[..8].try_into().expect("8 bytes")),
                part,
            )
        })
    });
    let counts = tally.records;
    let written = {
        let mut writers: Vec<&mut dyn Write> = outs.iter_mut().map(|o| o.writer()).collect();
        // Without a val part, index 2 is never routed to.
        match &keyed.shape {
            Found::Text { found, body } => {
                let blank = cfg.blank;
                route_text(
                    input.bytes(),
                    *body,
                    found,
                    blank,
                    &counts,
                    routes,
                    &mut writers,
                )
            }
            Found::Columnar(Kind::Npy) => {
                route_npy(input.bytes(), &cfg.forced, &counts, routes, &mut writers)
            }
            Found::Columnar(kind) => route_table(
                &input,
                *kind,
                (cfg.blank, &cfg.forced, cfg.compression),
                routes,
                &mut writers,
            ),
        }
    };
    written.context("split: writing the parts")?;
    guard.commit(outs)?;
    if !quiet() {
        let by = match cfg.by {
            By::Exact => "exact",
            By::Iso => "iso",
        };
        let mut msg = format!(
            "sudoku-bulk: {name}: {} records in {classes} classes (by {by}), {} bad:",
            keyed.records, keyed.bad
        );
        for (k, p) in parts.iter().enumerate() {
            msg.push_str(&format!(
                " {} {} ({} classes) -> {}{}",
                p.name(),
                tally.records[*p as usize],
                tally.classes[*p as usize],
                crate::text::shown_path(&paths[k]),
                if k + 1 < parts.len() { "," } else { "" }
            ));
        }
        let spill = if spilled > 0 {
            format!(", {spilled} runs spilled to disk")
        } else {
            String::new()
        };
        eprintln!("{msg} in {:.2}s{spill}", start.elapsed().as_secs_f64());
    }
    Ok(ExitCode::from(if keyed.bad > 0 {
        EXIT_BAD_RECORDS
    } else {
        EXIT_OK
    }))
}

/// Classes waiting for their rating, each with its records' positions.
type Waiting = Vec<([u8; KEY], Vec<u64>)>;

/// The second sort's input: a class entry a record, filed under its
/// stratum and the class's seeded hash; records counted per stratum.
struct Filer {
    by_class: Runs<CLASS>,
    strata: Vec<u64>,
    seed: u64,
}

impl Filer {
    fn file(&mut self, stratum: u32, key: &[u8; KEY], pos: u64) -> io::Result<()> {
        let s = stratum as usize;
        if self.strata.len() <= s {
            self.strata.resize(s + 1, 0);
        }
        self.strata[s] += 1;
        let mut c = [0u8; CLASS];
        c[..C_HASH].copy_from_slice(&stratum.to_be_bytes());
        c[C_HASH..C_KEY].copy_from_slice(&class_hash(self.seed, key).to_be_bytes());
        c[C_KEY..C_POS].copy_from_slice(key);
        c[C_POS..].copy_from_slice(&pos.to_be_bytes());
        self.by_class.push(c)
    }
}

/// Classes rated together for `--stratify er`.
const RATE_BATCH: usize = 4096;

/// `--stratify er`'s stratum of a class: the ER in tenths of its key's
/// cells, 0 when not rated (unrated, not unique, not 9x9). With `--by
/// iso` the key is the canonical form: serate's ER (and so ours) changes
/// under a disguise for a few puzzles (3 of 901 measured: 8.5 → 8.6,
/// 7.1 → 5.5), so the class is rated once, on the form, which gives one
/// stratum whichever of its records comes first.
fn er_stratum(key: &[u8; KEY]) -> u32 {
    let (side, cells) = unpack(key);
    if side != 9 {
        return 0;
    }
    match crate::rate::rate(&cells) {
        crate::rate::Outcome::Rated(r) => u32::from(r.er),
        _ => 0,
    }
}

/// Stratum numbers of `column`'s values, one a record in record order
/// (numbered by first appearance; a missing value is one value).
fn column_strata(input: &Loaded, shape: &Found, column: &str) -> anyhow::Result<Vec<u32>> {
    use std::collections::HashMap;
    let mut ids: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut out = Vec::new();
    column_values(input, shape, column, "--stratify", &mut |v: &[u8]| {
        let next = ids.len() as u32;
        out.push(*ids.entry(v.to_vec()).or_insert(next));
    })?;
    Ok(out)
}

/// The column names of the input: a CSV/TSV header's fields or a table's
/// columns; empty for text without a header and `.npy` arrays.
pub(super) fn column_names(input: &Loaded, shape: &Found) -> anyhow::Result<Vec<String>> {
    match shape {
        Found::Text { found, .. } => {
            let Shape::Csv(cols) = found.layout.shape else {
                return Ok(Vec::new());
            };
            let header = crate::text::row_fields(&found.header, cols.delim)
                .map_err(|e| anyhow::anyhow!("{}: header: {e}", input.name))?;
            Ok(header
                .iter()
                .map(|h| String::from_utf8_lossy(h.trim_ascii()).into_owned())
                .collect())
        }
        Found::Columnar(Kind::Npy) => Ok(Vec::new()),
        Found::Columnar(kind) => table_names(input, *kind),
    }
}

/// `column`'s value of every record in record order, one call of `put` a
/// record (a missing value or null as empty): the field of a CSV/TSV row
/// named by the header, or a table's column. `flag` names the option in
/// errors.
pub(super) fn column_values(
    input: &Loaded,
    shape: &Found,
    column: &str,
    flag: &str,
    put: &mut dyn FnMut(&[u8]),
) -> anyhow::Result<()> {
    let name = &input.name;
    match shape {
        Found::Text { found, body } => {
            let Shape::Csv(cols) = found.layout.shape else {
                anyhow::bail!(
                    "{name}: {flag} {column}: a column needs CSV/TSV with a header or a table"
                );
            };
            let header = column_names(input, shape)?;
            let Some(k) = header.iter().position(|h| h == column) else {
                anyhow::bail!(
                    "{name}: {flag} {column}: no such column (the header has {})",
                    header.join(", ")
                );
            };
            for item in Records::new(&found.layout, &input.bytes()[*body..]) {
                let Item::Record { raw, .. } = item else {
                    break;
                };
                // A row that cannot be cut into fields (a bad record, kept
                // in train) gets the missing value.
                let fields = crate::text::row_fields(raw, cols.delim).unwrap_or_default();
                put(fields.get(k).map_or(&[][..], |f| &f[..]));
            }
        }
        Found::Columnar(Kind::Npy) => {
            anyhow::bail!("{name}: {flag} {column}: a .npy array has no columns")
        }
        Found::Columnar(kind) => table_values(input, *kind, column, flag, put)?,
    }
    Ok(())
}

/// A table's column names.
#[cfg(feature = "columnar")]
fn table_names(input: &Loaded, kind: Kind) -> anyhow::Result<Vec<String>> {
    let table = columnar::copy::open(&input.name, kind, input.data())?;
    Ok(table
        .schema
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect())
}

#[cfg(not(feature = "columnar"))]
fn table_names(input: &Loaded, kind: Kind) -> anyhow::Result<Vec<String>> {
    anyhow::bail!(
        "{}: {} input needs sudoku-bulk built with the `columnar` feature",
        input.name,
        kind.name()
    )
}

/// A table column's values as bytes (strings, integers, floats, booleans;
/// null as empty), one call of `put` a row.
#[cfg(feature = "columnar")]
fn table_values(
    input: &Loaded,
    kind: Kind,
    column: &str,
    flag: &str,
    put: &mut dyn FnMut(&[u8]),
) -> anyhow::Result<()> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::*;
    use arrow_array::Array;
    use arrow_schema::DataType as D;
    let name = &input.name;
    let table = columnar::copy::open(name, kind, input.data())?;
    let Ok(k) = table.schema.index_of(column) else {
        anyhow::bail!(
            "{name}: {flag} {column}: no such column (the table has {})",
            table
                .schema
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let dtype = table.schema.field(k).data_type().clone();
    for item in table.batches {
        let (batch, _) = item?;
        let a = batch.column(k);
        for r in 0..a.len() {
            if a.is_null(r) {
                put(b"");
                continue;
            }
            let text = match &dtype {
                D::Utf8 => a.as_string::<i32>().value(r).to_string(),
                D::LargeUtf8 => a.as_string::<i64>().value(r).to_string(),
                D::Utf8View => a.as_string_view().value(r).to_string(),
                D::Boolean => a.as_boolean().value(r).to_string(),
                D::Int8 => a.as_primitive::<Int8Type>().value(r).to_string(),
                D::Int16 => a.as_primitive::<Int16Type>().value(r).to_string(),
                D::Int32 => a.as_primitive::<Int32Type>().value(r).to_string(),
                D::Int64 => a.as_primitive::<Int64Type>().value(r).to_string(),
                D::UInt8 => a.as_primitive::<UInt8Type>().value(r).to_string(),
                D::UInt16 => a.as_primitive::<UInt16Type>().value(r).to_string(),
                D::UInt32 => a.as_primitive::<UInt32Type>().value(r).to_string(),
                D::UInt64 => a.as_primitive::<UInt64Type>().value(r).to_string(),
                D::Float32 => a.as_primitive::<Float32Type>().value(r).to_string(),
                D::Float64 => a.as_primitive::<Float64Type>().value(r).to_string(),
                other => anyhow::bail!(
                    "{name}: {flag} {column}: a {other} column (strings, integers, floats \
                     and booleans can be read)"
                ),
            };
            put(text.as_bytes());
        }
    }
    Ok(())
}

#[cfg(not(feature = "columnar"))]
fn table_values(
    input: &Loaded,
    kind: Kind,
    _: &str,
    _: &str,
    _: &mut dyn FnMut(&[u8]),
) -> anyhow::Result<()> {
    anyhow::bail!(
        "{}: {} input needs sudoku-bulk built with the `columnar` feature",
        input.name,
        kind.name()
    )
}

/// The copy pass over text: each output gets the input's head (BOM,
/// comments, header; a count line says that part's number of records),
/// then every record's bytes (with the comment and blank lines before it)
/// in its part's file; what follows the last record stays in train.
fn route_text(
    data: &[u8],
    body: usize,
    found: &Detected,
    blank: Option<u8>,
    counts: &[u64; 3],
    mut routes: impl Iterator<Item = io::Result<(u64, Part)>>,
    outs: &mut [&mut dyn Write],
) -> anyhow::Result<()> {
    let layout = &found.layout;
    let head = &data[..body];
    let bom = data.len() - pipeline::strip_bom(data).len();
    for (k, out) in outs.iter_mut().enumerate() {
        if matches!(layout.shape, Shape::Csv(_)) {
            out.write_all(head)?;
            continue;
        }
        out.write_all(&head[..bom])?;
        for l in head[bom..].split_inclusive(|&b| b == b'\n') {
            let t = l.trim_ascii();
            if !t.is_empty() && t.iter().all(u8::is_ascii_digit) {
                write!(out, "{}", counts[k])?;
                out.write_all(&l[l.trim_ascii_end().len()..])?;
            } else {
                out.write_all(l)?;
            }
        }
    }
    let rest = &data[body..];
    let mut next = routes.next().transpose()?;
    let mut records = Records::new(layout, rest);
    let mut copied = 0;
    // Positions are rows, as the key pass files them: the 0-based index of
    // a record among the input's records (comments, a header and the lines
    // of a grid not counted; see `dedupe`'s module doc).
    let mut row = 0u64;
    while let Some(item) = records.next() {
        let Item::Record { .. } = item else {
            break;
        };
        let pos = row;
        row += 1;
        let mut end = records.position();
        if layout.multiline() {
            while end < rest.len() {
                let line_end =
                    memchr::memchr(b'\n', &rest[end..]).map_or(rest.len(), |i| end + i + 1);
                if !rest[end..line_end].trim_ascii().is_empty() {
                    break;
                }
                end = line_end;
            }
        }
        let part = match next {
            Some((p, part)) if p == pos => {
                next = routes.next().transpose()?;
                part
            }
            _ => Part::Train,
        };
        let end = end.max(copied);
        let out = &mut outs[part as usize];
        if blank.is_some() {
            // Rewritten records end their lines (`write_records`).
            let mut rec = Vec::with_capacity(end - copied + 1);
            write_records(layout, blank, &rest[copied..end], &mut rec)?;
            if !rec.is_empty() && !rec.ends_with(b"\n") {
                rec.push(b'\n');
            }
            out.write_all(&rec)?;
            copied = end;
            continue;
        }
        out.write_all(&rest[copied..end])?;
        // A last record without a line end gets one, so the next record
        // of its part starts on a line of its own.
        if end == rest.len() && !rest[copied..end].ends_with(b"\n") && end > copied {
            out.write_all(b"\n")?;
        }
        copied = end;
    }
    if next.is_some() {
        return Err(mismatch("a routed record the copy pass did not meet").into());
    }
    write_records(layout, blank, &rest[copied..], &mut *outs[0])?;
    Ok(())
}

/// The copy pass over a `.npy` array: each part the same dtype and its rows.
fn route_npy(
    data: &[u8],
    forced: &Forced,
    counts: &[u64; 3],
    mut routes: impl Iterator<Item = io::Result<(u64, Part)>>,
    outs: &mut [&mut dyn Write],
) -> anyhow::Result<()> {
    let arr = columnar::npy::Array::open(data, Asked::of(forced).boxes)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for (k, out) in outs.iter_mut().enumerate() {
        let mut shape = vec![counts[k] as usize];
        shape.extend_from_slice(&arr.header.shape[arr.lead..]);
        out.write_all(&columnar::npy::write_header(arr.header.dtype, &shape))?;
    }
    let row_bytes = arr.cells * arr.header.dtype.size();
    let mut next = routes.next().transpose()?;
    for r in 0..arr.rows {
        let part = match next {
            Some((p, part)) if p == r as u64 => {
                next = routes.next().transpose()?;
                part
            }
            _ => Part::Train,
        };
        outs[part as usize].write_all(&arr.data[r * row_bytes..(r + 1) * row_bytes])?;
    }
    Ok(())
}

/// The copy pass over a Parquet or Arrow table: each part every column of
/// its rows (Parquet: the input's codecs and writer properties).
#[cfg(feature = "columnar")]
fn route_table(
    input: &Loaded,
    kind: Kind,
    (blank, forced, choice): CopyChoices<'_>,
    mut routes: impl Iterator<Item = io::Result<(u64, Part)>>,
    outs: &mut [&mut dyn Write],
) -> anyhow::Result<()> {
    use arrow_array::BooleanArray;
    let n_outs = outs.len();
    let table = columnar::copy::open(&input.name, kind, input.data())?;
    let mut reblank = Reblank::new(input, kind, blank, forced, &table.schema)?;
    let mut ws = columnar::copy::Writers::new(
        kind,
        outs.iter_mut().map(|o| &mut **o as &mut dyn Write),
        &reblank.schema,
        table.props.as_ref(),
        table.codec,
        choice,
    )?;
    let mut next = routes.next().transpose()?;
    let mut row = 0u64;
    for item in table.batches {
        let (batch, _) = item?;
        let n = batch.num_rows() as u64;
        let mut part = vec![Part::Train; n as usize];
        while let Some((p, which)) = next.filter(|&(p, _)| p < row + n) {
            part[(p - row) as usize] = which;
            next = routes.next().transpose()?;
        }
        row += n;
        for k in 0..n_outs {
            let keep: BooleanArray = part.iter().map(|&p| Some(p as usize == k)).collect();
            if keep.true_count() == 0 {
                continue;
            }
            let b = arrow_select::filter::filter_record_batch(&batch, &keep)?;
            ws.write(k, &reblank.batch(&b)?)?;
        }
    }
    if next.is_some() {
        return Err(mismatch("a routed row the copy pass did not meet").into());
    }
    ws.finish()
}

#[cfg(not(feature = "columnar"))]
fn route_table(
    input: &Loaded,
    kind: Kind,
    _: CopyChoices<'_>,
    _: impl Iterator<Item = io::Result<(u64, Part)>>,
    _: &mut [&mut dyn Write],
) -> anyhow::Result<()> {
    anyhow::bail!(
        "{}: {} input needs sudoku-bulk built with the `columnar` feature",
        input.name,
        kind.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names_keep_the_extension_and_codec() {
        let p = |i: &str, d: Option<&str>| {
            part_path(Some(Path::new(i)), d.map(Path::new), "train")
                .unwrap()
                .display()
                .to_string()
        };
        assert_eq!(p("data/a.csv.gz", None), "data/a.train.csv.gz");
        assert_eq!(p("a.parquet", None), "a.train.parquet");
        assert_eq!(p("plain", None), "plain.train");
        assert_eq!(p("x/a.txt", Some("out")), "out/train.txt");
        assert!(part_path(None, None, "test").is_err());
    }

    #[test]
    fn split_keys_keeps_classes_whole_within_one_class_of_the_fractions() {
        // 40 classes of 1..=12 records, shuffled; every 7th record bad.
        let mut keys = vec![];
        let mut class = vec![];
        for c in 0..40u8 {
            let mut k = [0u8; KEY];
            k[0] = c + 1;
            k[KEY - 1] = 9;
            for _ in 0..1 + c % 12 {
                keys.push(Some(k));
                class.push(c);
            }
        }
        let mut x = 11u64;
        for i in (1..keys.len()).rev() {
            x = mix(x);
            let j = (x % (i as u64 + 1)) as usize;
            keys.swap(i, j);
            class.swap(i, j);
        }
        for i in (0..keys.len()).step_by(7) {
            keys[i] = None;
        }
        // Labels that differ within a class: its first record's decides.
        let labels: Vec<u32> = (0..keys.len() as u32).map(|i| i % 3).collect();
        let pool = |t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
        };
        for strata in [Strata::None, Strata::Clues, Strata::Given(&labels)] {
            let one = pool(1).install(|| split_keys(&keys, strata, 0.2, 0.1, 5).unwrap());
            let two = pool(2).install(|| split_keys(&keys, strata, 0.2, 0.1, 5).unwrap());
            assert_eq!(one, two, "the same parts whatever the threads");
            let mut home = std::collections::HashMap::new();
            for (i, p) in one.iter().enumerate() {
                if keys[i].is_none() {
                    assert_eq!(*p, Part::Train, "a bad record stays in train");
                } else {
                    assert_eq!(
                        *home.entry(class[i]).or_insert(*p),
                        *p,
                        "class {}",
                        class[i]
                    );
                }
            }
        }
        let parts = split_keys(&keys, Strata::None, 0.2, 0.1, 5).unwrap();
        let keyed = keys.iter().filter(|k| k.is_some()).count() as f64;
        for (part, f) in [(Part::Test, 0.2), (Part::Val, 0.1)] {
            let n = parts.iter().filter(|&&p| p == part).count() as f64;
            assert!((n - keyed * f).abs() <= 12.0, "{part:?}: {n} of {keyed}");
        }
        assert!(split_keys(&keys, Strata::None, 0.6, 0.5, 0).is_err());
        assert!(split_keys(&keys, Strata::Given(&labels[1..]), 0.1, 0.0, 0).is_err());
    }

    #[test]
    fn clues_are_counted_from_a_key() {
        let mut cells = [0u8; 81];
        cells[0] = 5;
        cells[80] = 9;
        cells[41] = 1;
        let key = pack(Boxes::NINE, &cells).unwrap();
        assert_eq!(key_clues(&key), 3);
    }
}
