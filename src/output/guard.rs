//! The one gate between a command and what it writes. A command declares
//! its inputs and every output (`-o`, `--report`, `--steps`, each
//! `--output-dir` target, standard output) in a [`Plan`];
//! [`Plan::check`] refuses, before any work, an output that is an input (by
//! any path, symbolic or hard link, or as stdin/stdout: `(dev, inode)`), two
//! outputs that are one file or one stream, a name that promises another
//! format than the output gets, a directory, and a place that cannot be
//! written; then it opens them all ([`Outputs`]: temporary files made
//! beside each target). The command takes each [`Output`] and writes it;
//! [`Outputs::commit`] puts every file in place together at the end (all
//! flushed and synced first, then renamed), or none is: an `Output`
//! dropped without the commit deletes its temporary file.
//!
//! ```text
//! let mut plan = Plan::new();
//! plan.input(cfg.input.as_deref());                        // each input (None: stdin)
//! let out = plan.output(Role::OUTPUT, cfg.output.as_deref(), Writes::Later, Compress::Auto);
//! let rep = plan.output(Role::REPORT, cfg.report.as_deref(), Writes::Csv, Compress::Auto);
//! let mut outs = plan.check()?;                            // refusals, before any work
//! ... read the input, learn its layout ...
//! let mut o = outs.take(out, Writes::Rows(b','))?;         // the name is checked again
//! ... write ...
//! outs.commit(vec![r, o])?;                                // all in place, or none
//! ```
//!
//! `Output` has no other constructor: a new command cannot write a file
//! without going through here (`src/output/guard.rs`'s tests check that no
//! other file of the crate opens a file for writing or writes stdout).

use std::io;
use std::path::{Path, PathBuf};

use super::{Compress, Named, Output};
use crate::input::Kind;

/// What an output is, in messages: its flag and what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Role {
    /// The option that names it (`-o`, `--report`), or `stdout`.
    pub flag: &'static str,
    /// What it holds, in messages ("the output", "the report").
    pub what: &'static str,
}

impl Role {
    /// A command's main output (`-o`, stdout without it).
    pub const OUTPUT: Role = Role {
        flag: "-o",
        what: "the output",
    };
    /// `dedupe`'s and `overlap`'s `--report`.
    pub const REPORT: Role = Role {
        flag: "--report",
        what: "the report",
    };
    /// `rate --steps`.
    pub const STEPS: Role = Role {
        flag: "--steps",
        what: "the steps",
    };
    /// Lines a command prints on stdout besides data (`check`'s and
    /// `overlap`'s result lines, `bench`'s table, `man`).
    pub const RESULT: Role = Role {
        flag: "stdout",
        what: "the result lines",
    };
}

/// What an output will hold, for the check of its name's extension
/// ([`Named`]): a `.tsv` name for comma-separated rows, `.csv` for grids or
/// `.parquet` for text is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writes {
    /// Not known yet (it follows the input's layout); given to
    /// [`Outputs::take`].
    Later,
    /// Any text (a man page, a completion script, result lines): a
    /// table's or array's name is refused.
    Text,
    /// One record a line, not delimited rows: `.txt`, `.csv`, `.tsv`.
    Lines,
    /// Delimited rows with this delimiter: `.txt`, and `.csv` or `.tsv`
    /// as the delimiter is (a tab for `.tsv`).
    Rows(u8),
    /// Grids of several lines: `.txt` only.
    Grids,
    /// Comma-separated rows (a report): `.txt` or `.csv`.
    Csv,
    /// One JSON object a line: `.txt`, `.jsonl` and other names.
    Jsonl,
    /// A table or an array of this kind: that kind's names only.
    Table(Kind),
}

impl Writes {
    /// Whether a name asking for `named` fits, and what would.
    fn fits(self, named: Named) -> Result<(), &'static str> {
        let ok = match (self, named) {
            (Writes::Later, _) => true,
            (Writes::Table(k), Named::Columnar(n)) => k == n,
            (Writes::Table(_), _) => false,
            (_, Named::Columnar(_)) => false,
            (Writes::Text | Writes::Lines, _) => true,
            (Writes::Rows(d), Named::Tsv) => d == b'\t',
            (Writes::Rows(d), Named::Csv) => d != b'\t',
            (Writes::Rows(_), Named::Text) => true,
            (Writes::Grids | Writes::Jsonl, n) => n == Named::Text,
            (Writes::Csv, n) => n != Named::Tsv,
        };
        if ok {
            return Ok(());
        }
        Err(match self {
            Writes::Later | Writes::Text | Writes::Lines => "text (.txt, .csv, .tsv)",
            Writes::Rows(b'\t') => "tab-separated rows (.tsv) or text (.txt)",
            Writes::Rows(_) => "delimited rows (.csv) or text (.txt)",
            Writes::Grids => "text (.txt): grids of several lines",
            Writes::Csv => "comma-separated rows (.csv) or text (.txt)",
            Writes::Jsonl => "JSON lines (.jsonl, .txt)",
            Writes::Table(Kind::Npy) => "NumPy (.npy), as the input",
            Writes::Table(Kind::Parquet) => "Parquet (.parquet), as the input",
            Writes::Table(_) => "Arrow IPC (.arrow, .arrows), as the input",
        })
    }
}

/// A declared output's place in its [`Plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(usize);

/// A file's identity: device and inode, as `stat` gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Id {
    dev: u64,
    ino: u64,
}

/// What a path or descriptor is, as far as aliasing goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    /// Nothing there yet (an output to create).
    Missing,
    /// A regular file.
    File,
    /// `/dev/null`: any number of inputs and outputs may be it.
    Null,
    /// Another character device (a terminal).
    CharDevice,
    /// A directory.
    Dir,
    /// A FIFO, socket, block device.
    Other,
}

/// Where a path or standard descriptor leads.
#[derive(Clone, Debug)]
struct Place {
    id: Option<Id>,
    what: What,
    /// The path with its symbolic links followed and its directory made
    /// absolute: two missing outputs with the same key are one file.
    key: Option<PathBuf>,
}

impl Place {
    fn of_meta(m: &std::fs::Metadata) -> (Option<Id>, What) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::{FileTypeExt, MetadataExt};
            let id = Some(Id {
                dev: m.dev(),
                ino: m.ino(),
            });
            let ft = m.file_type();
            let what = if ft.is_file() {
                What::File
            } else if ft.is_dir() {
                What::Dir
            } else if ft.is_char_device() {
                let null = std::fs::metadata("/dev/null").is_ok_and(|n| n.rdev() == m.rdev());
                if null {
                    What::Null
                } else {
                    What::CharDevice
                }
            } else {
                What::Other
            };
            (id, what)
        }
        #[cfg(not(unix))]
        {
            let what = if m.is_file() {
                What::File
            } else if m.is_dir() {
                What::Dir
            } else {
                What::Other
            };
            (None, what)
        }
    }

    /// Standard descriptor `fd` (0 or 1); a closed one is `Missing`.
    fn of_std(fd: i32) -> Place {
        let meta = std_meta(fd);
        let (id, what) = match &meta {
            Some(m) => Place::of_meta(m),
            None => (None, What::Missing),
        };
        Place {
            id,
            what,
            key: None,
        }
    }

    fn of_path(path: &Path) -> Place {
        let (id, what) = match std::fs::metadata(path) {
            Ok(m) => Place::of_meta(&m),
            Err(_) => (None, What::Missing),
        };
        Place {
            id,
            what,
            key: Some(resolved(path)),
        }
    }

    /// True when writing `self` would write into `other` (an input or
    /// another output): the same file, or the same stream; `/dev/null`
    /// never.
    fn same(&self, other: &Place) -> bool {
        if self.what == What::Null || other.what == What::Null {
            return false;
        }
        match (self.id, other.id) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self.key.is_some() && self.key == other.key,
            _ => false,
        }
    }
}

/// The metadata of standard descriptor `fd` (fstat), `None` when closed.
#[cfg(unix)]
fn std_meta(fd: i32) -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let owned = match fd {
        0 => io::stdin().as_fd().try_clone_to_owned(),
        _ => io::stdout().as_fd().try_clone_to_owned(),
    }
    .ok()?;
    std::fs::File::from(owned).metadata().ok()
}

#[cfg(not(unix))]
fn std_meta(_fd: i32) -> Option<std::fs::Metadata> {
    None
}

/// `path` with its symbolic links followed (as [`Output`] follows them,
/// up to 40) and its directory made absolute.
fn resolved(path: &Path) -> PathBuf {
    let mut dest = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&dest) else {
            break;
        };
        dest = match dest.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), dest.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => dest,
    }
}

/// One input of a plan.
struct Seen {
    shown: String,
    place: Place,
}

/// One declared output.
struct Declared {
    role: Role,
    /// `None`: standard output.
    path: Option<PathBuf>,
    shown: String,
    writes: Writes,
    compress: Compress,
    /// Outputs of one job may not share a stream; jobs of one run
    /// (`solve a b > all`) write stdout one after the other.
    job: usize,
}

/// A run's inputs and outputs, declared before any work (see the module
/// doc).
#[derive(Default)]
pub struct Plan {
    inputs: Vec<Seen>,
    outputs: Vec<Declared>,
    job: usize,
}

impl Plan {
    /// An empty plan.
    pub fn new() -> Plan {
        Plan::default()
    }

    /// Declares an input: a path, or stdin for `None` or `-`. A path that
    /// does not exist is no input to protect (its open fails later, with
    /// its own message).
    pub fn input(&mut self, path: Option<&Path>) {
        let path = path.filter(|p| p.as_os_str() != "-");
        let place = match path {
            Some(p) => Place::of_path(p),
            None => Place::of_std(0),
        };
        self.inputs.push(Seen {
            shown: crate::input::display_name(path),
            place,
        });
    }

    /// Starts the outputs of another job of the same run (`solve a b`):
    /// its outputs may go to stdout after the previous job's.
    pub fn next_job(&mut self) {
        self.job += 1;
    }

    /// Declares an output: a path, or stdout for `None` or `-`, holding
    /// what `writes` says (or [`Writes::Later`]), compressed as `compress`
    /// resolves for its name.
    pub fn output(
        &mut self,
        role: Role,
        path: Option<&Path>,
        writes: Writes,
        compress: Compress,
    ) -> Slot {
        let path = path.filter(|p| p.as_os_str() != "-");
        self.outputs.push(Declared {
            role,
            path: path.map(Path::to_path_buf),
            shown: path.map_or_else(|| "<stdout>".to_string(), |p| crate::text::shown_path(&p)),
            writes,
            compress,
            job: self.job,
        });
        Slot(self.outputs.len() - 1)
    }

    /// The refusals, without opening anything (a run of several jobs
    /// checks them all first, then each job its own plan).
    pub fn verify(&self) -> anyhow::Result<()> {
        let places: Vec<Place> = self
            .outputs
            .iter()
            .map(|o| match &o.path {
                Some(p) => Place::of_path(p),
                None => Place::of_std(1),
            })
            .collect();
        for (o, place) in self.outputs.iter().zip(&places) {
            if place.what == What::Dir {
                anyhow::bail!(
                    "{}: is a directory ({} is written to a file)",
                    o.shown,
                    o.role.what
                );
            }
            for i in &self.inputs {
                // A terminal is read and written by design; a FIFO or a
                // file is not.
                let shared = matches!(i.place.what, What::File | What::Other);
                if shared && place.same(&i.place) {
                    let via = match (&o.path, i.shown.as_str()) {
                        (None, _) => format!(" (standard output is {})", i.shown),
                        (Some(_), "<stdin>") => " (standard input is that file)".to_string(),
                        (Some(_), other) if other != o.shown => format!(" ({other})"),
                        _ => String::new(),
                    };
                    anyhow::bail!(
                        "{}: refusing to write {} over the input{via}",
                        o.shown,
                        o.role.what
                    );
                }
            }
            if let (Some(path), Some(named)) = (&o.path, Named::of(o.path.as_deref())) {
                if let Err(allowed) = o.writes.fits(named) {
                    return Err(named.refuse(path, o.role.what, allowed));
                }
            }
        }
        for (a, (oa, pa)) in self.outputs.iter().zip(&places).enumerate() {
            for (ob, pb) in self.outputs.iter().zip(&places).skip(a + 1) {
                let both_stdout = oa.path.is_none() && ob.path.is_none();
                if both_stdout && oa.job != ob.job {
                    continue;
                }
                if both_stdout || pa.same(pb) {
                    let (fa, fb) = (flag_of(oa), flag_of(ob));
                    let (wa, wb) = (oa.role.what, ob.role.what);
                    if oa.path.is_none() || ob.path.is_none() {
                        anyhow::bail!(
                            "{wa} and {wb} would both go to standard output: name a file for \
                             one of them ({fa} and {fb})"
                        );
                    }
                    if matches!(pa.what, What::File | What::Missing) {
                        anyhow::bail!(
                            "{}: {wa} and {wb} cannot go to the same file ({fa} and {fb})",
                            ob.shown
                        );
                    }
                    anyhow::bail!(
                        "{}: {wa} and {wb} would both go to one stream ({fa} and {fb}); name \
                         another file for one of them",
                        ob.shown
                    );
                }
            }
        }
        Ok(())
    }

    /// [`Plan::verify`], then every output opened: a temporary file beside
    /// each target (so a directory that cannot be written fails here),
    /// a device or pipe in place, stdout.
    pub fn check(self) -> anyhow::Result<Outputs> {
        self.verify()?;
        let mut open = Vec::with_capacity(self.outputs.len());
        for (i, o) in self.outputs.iter().enumerate() {
            let mut out = Output::create(o.path.as_deref(), o.compress)?;
            out.slot = Some(i);
            open.push(Some(out));
        }
        Ok(Outputs {
            declared: self.outputs,
            open,
        })
    }
}

fn flag_of(o: &Declared) -> String {
    match &o.path {
        None if o.role.flag != "stdout" => format!("{} -", o.role.flag),
        None => "stdout".to_string(),
        Some(p) => format!("{} {}", o.role.flag, crate::text::shown_path(&p)),
    }
}

/// The outputs of a checked plan, open, until the command takes them
/// ([`Outputs::take`]) and gives them back to [`Outputs::commit`].
pub struct Outputs {
    declared: Vec<Declared>,
    open: Vec<Option<Output>>,
}

impl Outputs {
    /// The output of `slot`, for writing; `writes` says what it will hold
    /// when the declaration said [`Writes::Later`] (else pass
    /// `Writes::Later` again), checked against its name.
    pub fn take(&mut self, slot: Slot, writes: Writes) -> anyhow::Result<Output> {
        let d = &self.declared[slot.0];
        if let (Some(path), Some(named)) = (&d.path, Named::of(d.path.as_deref())) {
            if let Err(allowed) = writes.fits(named) {
                return Err(named.refuse(path, d.role.what, allowed));
            }
        }
        self.open[slot.0]
            .take()
            .ok_or_else(|| anyhow::anyhow!("internal error: output {} taken twice", d.shown))
    }

    /// The output of `slot` as messages name it (`<stdout>`, or the path
    /// given, escaped).
    pub fn name(&self, slot: Slot) -> &str {
        &self.declared[slot.0].shown
    }

    /// Where scratch files of a run writing `slot` go: `temp_dir` when
    /// given (`--temp-dir`), else the output's own directory when it is a
    /// file (one file system: its space is what the output needs), else
    /// (`stdout`, `/dev/null`, a pipe) the system's temporary directory.
    pub fn scratch_dir(&self, slot: Option<Slot>, temp_dir: Option<&Path>) -> PathBuf {
        if let Some(t) = temp_dir {
            return t.to_path_buf();
        }
        let path = slot.and_then(|s| self.declared[s.0].path.as_deref());
        match path.map(|p| (p, Place::of_path(p))) {
            Some((p, place)) if matches!(place.what, What::File | What::Missing) => {
                let dest = place.key.unwrap_or_else(|| p.to_path_buf());
                match dest.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                }
            }
            _ => std::env::temp_dir(),
        }
    }

    /// Ends every output in `outs` and puts every file in place: all are
    /// finished (compressed streams ended, flushed, synced) first, and
    /// only when every one succeeded are the files renamed, in the order
    /// given. On an error none is renamed and every temporary file is
    /// deleted. Every output this plan opened must be given back (one
    /// still held is an internal error: it would be lost).
    pub fn commit(self, outs: Vec<Output>) -> anyhow::Result<()> {
        let given: Vec<usize> = outs.iter().filter_map(|o| o.slot).collect();
        let lost: Vec<&str> = (0..self.declared.len())
            .filter(|&i| self.open[i].is_none() && !given.contains(&i))
            .map(|i| self.declared[i].shown.as_str())
            .collect();
        if !lost.is_empty() {
            anyhow::bail!(
                "internal error: {} not committed with the others",
                lost.join(", ")
            );
        }
        // Outputs never taken were not written: their temporary files go.
        drop(self.open);
        let mut ready = Vec::with_capacity(outs.len());
        // A reader of stdout or a pipe gone early (`| head`) took what it
        // wanted: the files still go in place, and the caller learns of
        // the closed pipe after.
        let mut gone = None;
        for out in outs {
            match out.prepare() {
                Ok(r) => ready.push(r),
                Err(e) if crate::output::is_broken_pipe(&e) => gone = Some(e),
                Err(e) => return Err(e),
            }
        }
        for r in ready {
            r.place()?;
        }
        gone.map_or(Ok(()), Err)
    }
}

/// An output that throws its bytes away (`bench` loading a table through
/// the writers `solve` uses).
pub fn discard() -> Output {
    Output::discard()
}

/// Writes `bytes` to stdout as the one output of a command without
/// inputs (`man`, `completions`, `rate --techniques list`); a reader gone
/// early (`| head`) is no error.
pub fn print_all(bytes: &[u8]) -> anyhow::Result<()> {
    let mut plan = Plan::new();
    let slot = plan.output(Role::RESULT, None, Writes::Text, Compress::None);
    let mut outs = plan.check()?;
    let mut out = outs.take(slot, Writes::Text)?;
    match io::Write::write_all(out.writer(), bytes) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        r => r.map_err(|e| anyhow::Error::new(e).context("<stdout>: cannot write"))?,
    }
    match outs.commit(vec![out]) {
        Err(e) if crate::output::is_broken_pipe(&e) => Ok(()),
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_with(input: &Path, outs: &[(Role, &Path, Writes)]) -> Plan {
        let mut plan = Plan::new();
        plan.input(Some(input));
        for &(role, path, writes) in outs {
            plan.output(role, Some(path), writes, Compress::Auto);
        }
        plan
    }

    #[test]
    fn an_output_that_is_an_input_by_any_name_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "x\n").unwrap();
        let hard = dir.path().join("hard.txt");
        std::fs::hard_link(&input, &hard).unwrap();
        #[cfg(unix)]
        let soft = {
            let soft = dir.path().join("soft.txt");
            std::os::unix::fs::symlink(&input, &soft).unwrap();
            soft
        };
        #[cfg(not(unix))]
        let soft = input.clone();
        let dotted = dir.path().join(".").join("in.txt");
        for out in [&input, &hard, &soft, &dotted] {
            let e = plan_with(&input, &[(Role::OUTPUT, out, Writes::Later)])
                .verify()
                .unwrap_err()
                .to_string();
            assert!(e.contains("refusing to write the output over the input"), "{e}");
        }
        let other = dir.path().join("out.txt");
        plan_with(&input, &[(Role::OUTPUT, &other, Writes::Later)])
            .verify()
            .unwrap();
        assert_eq!(std::fs::read(&input).unwrap(), b"x\n");
    }

    #[test]
    fn two_outputs_of_one_file_are_refused_whether_it_exists_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "x\n").unwrap();
        let a = dir.path().join("a.txt");
        let e = plan_with(
            &input,
            &[
                (Role::OUTPUT, &a, Writes::Later),
                (Role::REPORT, &a, Writes::Csv),
            ],
        )
        .verify()
        .unwrap_err()
        .to_string();
        assert!(e.contains("cannot go to the same file"), "{e}");
        std::fs::write(&a, "").unwrap();
        let b = dir.path().join("b.txt");
        std::fs::hard_link(&a, &b).unwrap();
        assert!(plan_with(
            &input,
            &[
                (Role::OUTPUT, &a, Writes::Later),
                (Role::REPORT, &b, Writes::Csv),
            ],
        )
        .verify()
        .is_err());
        // /dev/null takes any number of outputs.
        #[cfg(unix)]
        plan_with(
            &input,
            &[
                (Role::OUTPUT, Path::new("/dev/null"), Writes::Later),
                (Role::REPORT, Path::new("/dev/null"), Writes::Csv),
            ],
        )
        .verify()
        .unwrap();
    }

    #[test]
    fn names_that_promise_another_format_are_refused() {
        let cases = [
            (Writes::Rows(b','), "x.tsv", false),
            (Writes::Rows(b','), "x.csv", true),
            (Writes::Rows(b'\t'), "x.tsv", true),
            (Writes::Rows(b'\t'), "x.csv", false),
            (Writes::Grids, "x.csv", false),
            (Writes::Grids, "x.txt", true),
            (Writes::Csv, "x.parquet", false),
            (Writes::Csv, "x.tsv", false),
            (Writes::Csv, "x.csv.gz", true),
            (Writes::Lines, "x.npy", false),
            (Writes::Table(Kind::Parquet), "x.parquet", true),
            (Writes::Table(Kind::Parquet), "x.txt", false),
            (Writes::Table(Kind::Npy), "x.arrow", false),
            (Writes::Jsonl, "x.csv", false),
            (Writes::Jsonl, "x.jsonl", true),
            (Writes::Text, "x.parquet", false),
        ];
        for (writes, name, ok) in cases {
            let fits = Named::of(Some(Path::new(name))).is_none_or(|n| writes.fits(n).is_ok());
            assert_eq!(fits, ok, "{writes:?} {name}");
        }
    }

    /// The guard is the only way to an output: no other file of the crate
    /// opens a file for writing, makes a temporary file or writes stdout
    /// itself (only `output.rs`, this file, and `cleanup.rs`'s unnamed
    /// spill files, which are scratch space, not outputs).
    #[test]
    fn no_file_but_the_output_module_writes_files_or_stdout() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let allowed = ["output.rs", "output/guard.rs", "cleanup.rs", "layering.rs"];
        let banned = [
            "File::create",
            "OpenOptions",
            "fs::write(",
            "io::stdout(",
            "stdout().lock",
            "tempfile::",
            "NamedTempFile",
            "println!(",
            "print!(",
        ];
        let mut found = Vec::new();
        let mut stack = vec![src.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                let rel = p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
                if !rel.ends_with(".rs") || allowed.contains(&rel.as_str()) {
                    continue;
                }
                let text = std::fs::read_to_string(&p).unwrap();
                // The unit tests at the end may write their fixtures.
                let code = match text.find("#[cfg(test)]\nmod tests") {
                    Some(i) => &text[..i],
                    None => &text,
                };
                for (n, line) in code.lines().enumerate() {
                    let line = line.split("//").next().unwrap_or("");
                    for b in banned {
                        if line.contains(b) && !line.contains("eprint") {
                            found.push(format!("src/{rel}:{}: {b}", n + 1));
                        }
                    }
                }
            }
        }
        assert!(
            found.is_empty(),
            "outputs must go through src/output/guard.rs:\n{}",
            found.join("\n")
        );
    }
}
