//! Command line: the clap types live here and stop here. `parse` turns them
//! into the plain [`Command`] the rest of the program runs.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bench::Mode;
use crate::columnar::TableCodec;
use crate::generate::{Level, Spec, Symmetry};
use crate::input::Codec;
use crate::output::Compress;
use crate::pipeline::{OnError, Task};
use crate::solver::Boxes;
use crate::text::detect::{Forced, ShapeName};
use crate::text::Symbols;

/// Grid size options every command takes: detection reads the size from
/// the cell count, these settle what it cannot (a line of 36 numbers from 0
/// to 6 is a 6x6 puzzle unless `--size 36` says it is a row of a 36x36
/// grid) and pick
/// rectangular boxes other than the usual ones.
#[derive(Args, Debug, Default)]
struct GridArgs {
    /// Grid side N (4 to 64 with a box shape that tiles it: 6, 8, 9, 10,
    /// 12, 16, 25, 36, 49, 64 ...) [default: from the cell count; 9 for
    /// `generate`]. Boxes
    /// are square for square sides, else as square as possible and wider
    /// than tall: 6 → 2x3, 8 → 2x4, 10 → 2x5, 12 → 3x4, 14 → 2x7,
    /// 15 → 3x5, 18 → 3x6, 20 → 4x5.
    #[arg(long, value_name = "N", value_parser = parse_side)]
    size: Option<usize>,

    /// Box shape ROWSxCOLS (box height x width), such as 3x4 for 12x12
    /// grids whose boxes are 3 rows tall and 4 columns wide [default:
    /// see --size]. Fixes the grid size too.
    #[arg(long = "box", value_name = "RxC", value_parser = Boxes::parse)]
    boxes: Option<Boxes>,
}

fn parse_side(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: not a number"))?;
    match Boxes::for_side(n) {
        Some(_) => Ok(n),
        None => Err(format!(
            "no box of at least 2x2 cells tiles a {n}x{n} grid (sides 4 to 64 that are not prime)"
        )),
    }
}

impl GridArgs {
    /// The boxes the flags fix, if any; `--size` and `--box` must agree.
    fn boxes(&self) -> Result<Option<Boxes>, clap::Error> {
        match (self.size, self.boxes) {
            (Some(n), Some(b)) if b.side() != n => Err(clap::Error::raw(
                clap::error::ErrorKind::ArgumentConflict,
                format!("--box {b} makes {0}x{0} grids, not --size {n}\n", b.side()),
            )),
            (_, Some(b)) => Ok(Some(b)),
            (Some(n), None) => Ok(Boxes::for_side(n)),
            (None, None) => Ok(None),
        }
    }
}

/// Solve huge Sudoku puzzle files as fast as the hardware allows.
///
/// Puzzle files in any common layout (one per line, judge-style grids,
/// space-separated rows, letters up to 26x26, numbers up to 64x64 with any box
/// shape, CSV datasets) are solved on
/// all cores and answered in input order, in the input's own layout.
#[derive(Parser, Debug)]
#[command(name = "sudoku-bulk", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: CliCommand,

    /// Print errors only
    ///
    /// Print errors only: no progress bar, notes or summary.
    #[arg(short, long, global = true)]
    quiet: bool,

    /// Progress display on stderr
    ///
    /// Progress display: `auto` (a bar when stderr is a terminal), `plain`
    /// (a `progress` line a second on stderr, terminal or not: for logs),
    /// `never` (as --no-progress).
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ProgressWhen::Auto)]
    progress: ProgressWhen,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ProgressWhen {
    Auto,
    Plain,
    Never,
}

/// A subcommand's arguments, built only when that subcommand runs (or help,
/// completions or the manual need them): clap's derive builds every
/// subcommand's arguments up front, which was 0.30M of the 1.53M
/// instructions a one-puzzle `solve` took (callgrind, whole process).
#[derive(Debug)]
struct Lazy<T>(T);

impl<T: Args> Args for Lazy<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|c| keep_about(c, T::augment_args))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|c| keep_about(c, T::augment_args_for_update))
    }
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

/// Runs `add` on `cmd` and keeps the about texts `cmd` had: the variant's doc
/// comment is set before the deferred arguments are added, and a flattened
/// struct's doc comment (`RunArgs`') would replace it.
fn keep_about(cmd: clap::Command, add: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about = cmd.get_about().cloned();
    let long = cmd.get_long_about().cloned();
    let mut cmd = add(cmd).mut_args(short_help);
    if let Some(a) = about {
        cmd = cmd.about(a);
    }
    if let Some(a) = long {
        cmd = cmd.long_about(a);
    }
    cmd
}

/// `-h` one line an option, as rg and fd print it: an option whose doc
/// comment is one paragraph gets its first clause as `help` (up to the
/// first `. `, `; `, `: `, ` (` or ` [`) and the whole text as
/// `long_help`, which `--help` prints. An option with paragraphs of its
/// own keeps clap's split (the first paragraph short, all of it long).
fn short_help(arg: clap::Arg) -> clap::Arg {
    if arg.get_long_help().is_some() {
        return arg;
    }
    let Some(help) = arg.get_help().map(|h| h.to_string()) else {
        return arg;
    };
    // A clause shorter than 12 bytes before `. `, `; ` or `: ` says too
    // little (`CSV input: the column ...`): the cut goes further then.
    let cut = [". ", "; ", ": ", " (", " ["]
        .iter()
        .filter_map(|p| {
            let at = help.find(p)?;
            (at >= 12 || p.starts_with(' ')).then_some(at)
        })
        .min()
        .unwrap_or(help.len());
    let short = help[..cut].trim_end_matches('.');
    if short.len() == help.trim_end_matches('.').len() {
        return arg;
    }
    let short = short.to_string();
    arg.long_help(help).help(short)
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Lazy<T> {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(m).map(Lazy)
    }
    fn from_arg_matches_mut(m: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(m).map(Lazy)
    }
    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(m)
    }
    fn update_from_arg_matches_mut(&mut self, m: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(m)
    }
}

#[derive(Subcommand, Debug)]
enum CliCommand {
    /// Solve every puzzle: one answer per record, in order, in the input's layout
    ///
    /// Solve every puzzle of a file; write one answer per puzzle, in order:
    /// a line for one-line text, a grid for grids, the row with its
    /// solution column filled or added for CSV/TSV and tables.
    ///
    /// Exit status: 0 when every puzzle was solved, 1 when some records were bad
    /// or unsolvable (each gets an `error: REASON` output line and a
    /// `FILE:LINE: REASON` message on stderr, `FILE:LINE (row R): REASON`
    /// when the row differs from the line, `FILE:row R: REASON` for tables;
    /// rows count records from 1, a header not counted), 2 on usage or I/O
    /// errors.
    Solve(Lazy<SolveArgs>),

    /// Count each puzzle's solutions, up to a limit (default 2: a uniqueness check)
    ///
    /// Count the solutions of every puzzle, up to a limit: `0`, `1`, ... or
    /// `N+` when the limit N is reached (default 2: a uniqueness check). One
    /// line per record for text; CSV/TSV rows and tables keep their fields
    /// and get a `solutions` column (`solution_count` when they have a
    /// `solutions` column already).
    ///
    /// Exit status: 0 when every record could be read (whatever its count), 1
    /// when some were bad (malformed, or givens that clash), 2 on errors.
    Count(Lazy<CountArgs>),

    /// Time the solver alone on puzzle files, every answer verified
    ///
    /// Measure solver speed on puzzle files: puzzles/s, µs/puzzle, share
    /// solved without guessing, guesses/puzzle, and how many answers passed
    /// independent verification (exit status 1 if any puzzle was left
    /// unsolved).
    ///
    /// Puzzles are parsed before timing; only the solver is timed. Each file
    /// is solved repeatedly until --seconds have passed.
    Bench(Lazy<BenchArgs>),

    /// Verify answers: full valid grids that keep their puzzles' givens
    ///
    /// Verify an answer file record by record: each answer must be a full
    /// valid grid that keeps its puzzle's givens, and both files must have
    /// the same number of records. With one CSV file, checks its solution
    /// column against its puzzle column.
    ///
    /// Prints `ANSWERS:LINE: reason` (`ANSWERS:LINE (row R): reason` past a
    /// header, `ANSWERS:row R: reason` for tables) for the first 20 bad
    /// records, then a count. Exit status 0 when every answer is right, 1 if any is wrong or
    /// the record counts differ, 2 on errors.
    Check(Lazy<CheckArgs>),

    /// Generate distinct puzzles, each with exactly one solution
    ///
    /// Generate COUNT distinct puzzles, each with exactly one solution, one
    /// per line (`.` blanks; digits up to 9x9, letters `A`.. up to 26x26,
    /// `1`-`9` then letters up to 35x35, `0`-`9` then letters for 36x36,
    /// numbers beyond).
    ///
    /// The same seed gives byte-identical output whatever the thread count;
    /// puzzles are minimal unless --clues stops the removal earlier. Above
    /// 9x9 a uniqueness search that runs past 16,384 guesses and conflicts
    /// keeps its clue, so such puzzles may be a few clues above minimal;
    /// a 25x25 puzzle takes tens of seconds on one core, and minimal ones
    /// from 27x27 up minutes (from 36x36 up many): give those --clues (62%
    /// of the cells, 803 for 36x36, makes one in seconds; the command says
    /// so).
    Generate(Lazy<GenerateArgs>),

    /// Rate every puzzle as Sudoku Explainer does (ER/EP/ED)
    ///
    /// Rate every puzzle as Sudoku Explainer does (serate of Sukaku
    /// Explainer v1.18.1, default options): `PUZZLE ER/EP/ED` per line, or
    /// numeric `er`, `ep`, `ed` columns and a `rate_status` column added to
    /// a CSV/TSV or Parquet/Arrow table (Float64 in tables).
    ///
    /// ER is the hardest step, EP the hardest up to the first placement, ED
    /// the first step. A puzzle whose solving path needs a technique this
    /// rater does not implement yet gets `unrated` (never a guessed number;
    /// in tables an empty/null number and `rate_status` `unrated`);
    /// puzzles without exactly one solution are bad records (`error:
    /// multiple solutions`; in tables no numbers and the reason as
    /// `rate_status`). See docs/rating.md. Exit status as for `solve`; 2
    /// when a column it would write into holds a value (see --overwrite).
    Rate(Lazy<RateArgs>),

    /// Print a shell completion script
    ///
    /// Print a shell completion script on stdout, for example
    /// `sudoku-bulk completions bash > ~/.local/share/bash-completion/completions/sudoku-bulk`
    /// or `sudoku-bulk completions zsh > ~/.zfunc/_sudoku-bulk`
    /// or `sudoku-bulk completions fish > ~/.config/fish/completions/sudoku-bulk.fish`.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },

    /// Print the manual page (roff)
    ///
    /// Print the manual page (roff) on stdout, for example
    /// `sudoku-bulk man > ~/.local/share/man/man1/sudoku-bulk.1`, or
    /// `sudoku-bulk man | man -l -` to read it now.
    Man,

    /// Write each record's canonical form (equal for disguises of one puzzle)
    ///
    /// Write the canonical form of every record (9x9 puzzles and full grids;
    /// 4x4 and 6x6 too): the smallest string (blank = 0) over the 3,359,232
    /// transforms of the grid and every relabelling of the digits, so two
    /// records have the same form exactly when one is a disguise of the
    /// other. One-line text: one form per line, `.` blanks whatever the
    /// record's (`--blank 0` for `0`); CSV/TSV, Parquet, Arrow: a `canonical` column added, rows
    /// untouched; `.npy`: an array of the same shape. See docs/canon.md.
    ///
    /// Exit status: 0 when every record has a form, 1 when some were bad
    /// (each gets an `error: REASON` mark), 2 on usage or I/O errors.
    Canon(Lazy<CanonArgs>),

    /// Drop repeated records (isomorphs or exact copies), keeping the first of each
    ///
    /// Keep the first record of each class and drop its repeats, in the
    /// input's own layout: one-line text keeps the kept lines byte for byte
    /// (comments, header and line ends too), CSV/TSV the header and rows,
    /// Parquet/Arrow every column of the kept rows, `.npy` the kept rows in
    /// the same dtype. `--by iso` (default): records with the same
    /// canonical form (disguises of each other, see `canon`); `--by
    /// exact`: the same cells (`.` and `0` blanks are equal). A summary
    /// (records, kept, dropped) goes to stderr. Memory stays within
    /// --memory: past it, sorted runs spill to unnamed temporary files
    /// beside the output when it is a file, else in $TMPDIR or
    /// --temp-dir (gone on every exit). See docs/canon.md.
    ///
    /// Examples: `sudoku-bulk dedupe train.txt -o train.dedup.txt`,
    /// `sudoku-bulk dedupe --by exact data.csv --report dropped.csv -o
    /// clean.csv`, `zcat big.txt.gz | sudoku-bulk dedupe --memory 256M >
    /// out.txt`.
    ///
    /// Exit status: 0; 1 when some records were bad (kept in the output
    /// untouched, each reported as `FILE:LINE (row R): reason`); 2 on usage
    /// or I/O errors. `--report` rows count records from 1 (`dropped_row`,
    /// `first_row`), a header, comments and grid lines not counted.
    Dedupe(Lazy<DedupeArgs>),

    /// Count TEST records with an isomorph or a copy in TRAIN (split leaks)
    ///
    /// Check a train/test split for leaks: how many TEST records have an
    /// isomorph (a disguise, same canonical form) in TRAIN, and how many an
    /// exact copy. Prints the counts on stdout; --report FILE lists each
    /// leaking TEST record with its row (1-based among the records, a
    /// header not counted, as in every message) and that of its first
    /// match in TRAIN. Either side may be any layout
    /// (text, CSV, Parquet, Arrow, .npy), not necessarily the same.
    ///
    /// Example: `sudoku-bulk overlap train.parquet test.csv --report
    /// leaks.csv`.
    ///
    /// With `--report -` the counts go to stderr; with `-q` nowhere (the
    /// exit status is the answer, as for `rg -q`).
    ///
    /// Exit status: 1 when any TEST record matches (`--by iso`: an
    /// isomorph; `--by exact`: a copy), also when a reader of the report
    /// left early; 0 when none; 2 on errors (bad records included: the
    /// check would be incomplete) and when either side has no records
    /// (nothing was compared).
    Overlap(Lazy<OverlapArgs>),

    /// Split a set into train/test(/val) parts with no isomorph class in two parts.
    ///
    /// Every class (records with one canonical form, `--by iso`; the same
    /// cells, `--by exact`) goes whole to one part, chosen by a seeded
    /// random order of the classes: each part's size is within one class of
    /// its fraction (of each stratum with --stratify), and the same seed
    /// gives the same bytes whatever `-j`. The parts keep the input's
    /// format and layout, each record byte for byte as `dedupe` keeps it
    /// (text: with its comments and line ends; CSV: the header in every
    /// part; Parquet/Arrow: every column; `.npy`: the same dtype): beside
    /// the input as `NAME.train.EXT`, `NAME.test.EXT`, `NAME.val.EXT`, or
    /// `DIR/train.EXT`, ... with --output-dir. Records without a key (bad
    /// ones) stay in train and are reported. A summary (records and classes
    /// per part) goes to stderr. Memory stays within --memory as for
    /// `dedupe`.
    ///
    /// Example: `sudoku-bulk split puzzles.csv --test 0.1 --val 0.05 --seed 7`.
    ///
    /// Exit status: 0; 1 when some records were bad; 2 on usage or I/O errors.
    Split(Lazy<SplitArgs>),

    /// Write K random disguises of every record (a training-set multiplier).
    ///
    /// Each disguise permutes the rows within bands and the bands, the
    /// columns within stacks and the stacks, transposes half the time when
    /// the boxes are square, and relabels the digits: the puzzle keeps its
    /// solutions (transformed along) and its difficulty. Any size and box
    /// shape; one-line text, grids, CSV/TSV, Parquet/Arrow tables with a
    /// string puzzle column (the solution column, when there is one,
    /// transformed along; other columns kept; a table's output in its
    /// kind, `-o x.parquet`) and `.npy` arrays (the input's dtype). A record's
    /// disguises depend only on --seed and its cells, so every `-j` gives
    /// the same bytes. Bad records are copied once, unchanged, and
    /// reported.
    ///
    /// Example: `sudoku-bulk augment train.csv -n 8 --seed 1 -o train8.csv`.
    ///
    /// Exit status: 0; 1 when some records were bad; 2 on usage or I/O errors.
    Augment(Lazy<AugmentArgs>),

    /// Print a dataset card: records, sizes, blanks, clues, uniqueness, classes.
    ///
    /// For each INPUT (any layout): records and bad records, grid sizes,
    /// blank symbols (text), the clue-count histogram, how many records
    /// have 0, 1 and 2+ solutions, isomorph classes, isomorph repeats and
    /// exact duplicates, and with --against the records that have an
    /// isomorph (or a copy) in another set. A table on stdout, or JSON
    /// with --json; with a rating or level column (`er`, `rating`, `level`
    /// or `difficulty`, the first found) its histogram too; --plot
    /// FILE.svg or FILE.png draws the histograms. Grids up to 9x9.
    ///
    /// Example: `sudoku-bulk stats train.csv --against test.csv --plot card.svg`.
    ///
    /// Exit status: 0; 1 when some records were bad; 2 on usage or I/O errors.
    Stats(Lazy<StatsArgs>),

    /// Convert a dataset between text, CSV/TSV, Parquet, Arrow IPC and .npy.
    ///
    /// Reads any layout `solve` reads (compressed or on stdin too) and
    /// writes every record, in order, in the format the output's name asks
    /// for: `.txt` (one puzzle a line), `.csv`/`.tsv` (a header and every
    /// column), `.parquet`, `.arrow` (IPC file), `.arrows` (IPC stream),
    /// `.npy` (a `uint8` array of cells, 0 = blank). Puzzles keep their
    /// bytes (grids become one-line strings); other CSV columns become
    /// string columns and back; a table's columns are copied as they are.
    /// `.npy` and `.txt` hold the puzzles alone: an input with other
    /// columns is refused unless --column names the puzzle column. A bad
    /// record stops the run (`FILE:LINE (row R): reason`) and nothing is
    /// written.
    ///
    /// Example: `sudoku-bulk convert train.csv -o train.parquet`.
    ///
    /// Exit status: 0; 1 when a bad record stopped it; 2 on usage or I/O
    /// errors.
    Convert(Lazy<ConvertArgs>),
}

#[derive(Args, Debug)]
struct ConvertArgs {
    /// Dataset file (any layout `solve` reads). `-` or nothing reads
    /// standard input.
    input: Option<PathBuf>,

    /// Write to FILE (atomically); its name picks the format (.txt, .csv,
    /// .tsv, .parquet, .arrow, .arrows, .npy; a text name may end in .gz,
    /// .zst, .xz or .bz2).
    #[arg(short, long, value_name = "FILE", required = true)]
    output: PathBuf,

    /// Blank symbol of the written puzzles: `.` or `0` [default: each
    /// record's own; `.` for a .npy input].
    #[arg(long, value_name = "SYMBOL", value_parser = ["0", "."])]
    blank: Option<String>,

    /// Compress a text output with this codec whatever its name.
    #[arg(long, value_enum, value_name = "CODEC")]
    compress: Option<CompressName>,

    /// Codec of a Parquet or Arrow output's columns [default: the input's;
    /// zstd for Parquet from text]. Arrow IPC takes zstd, lz4 or none.
    /// (`--compress` compresses the whole file's bytes instead.)
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<TableCodecName>,

    /// Directory for the copy of a streamed input [default: beside the
    /// output].
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,

    /// Input layout and cell symbols, as for `solve`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMAT")]
    format: Vec<FormatName>,

    /// CSV or table input: the column holding the puzzles (for .npy and
    /// .txt outputs: write it alone).
    #[arg(long, value_name = "NAME")]
    column: Option<String>,

    #[command(flatten)]
    grid: GridArgs,
}

/// `--by` of dedupe and overlap.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ByName {
    Exact,
    Iso,
}

/// Options dedupe and overlap share.
#[derive(Args, Debug)]
struct MatchArgs {
    /// `iso`: the same canonical form (one record is a relabelled,
    /// transposed or row/column-permuted copy of the other); `exact`: the
    /// same cells after parsing.
    #[arg(long, value_enum, default_value_t = ByName::Iso, value_name = "BY")]
    by: ByName,

    /// The canonical form `--by iso` compares. Both give the same classes;
    /// `pattern` took about 0.7x the CPU time of `string` on 10M generated
    /// puzzles (see docs/canon.md).
    #[arg(long, value_enum, default_value_t = CanonFormName::Pattern, value_name = "FORM")]
    form: CanonFormName,

    /// Memory for the key table before it spills sorted runs to disk
    /// (K, M, G as for --chunk-size). About 49 bytes a
    /// record (98 for overlap's two keys).
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "1G")]
    memory: u64,

    /// Directory for spill files (sorted runs, a copy of a streamed
    /// input) [default: beside the output (dedupe) or report (overlap)
    /// when it is a file, else $TMPDIR].
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,

    /// Worker threads [default: all cores; 0: all cores].
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<u16>,

    /// Do not draw the progress bar.
    #[arg(long)]
    no_progress: bool,

    /// Input layout and cell symbols, as for `solve`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMAT")]
    format: Vec<FormatName>,

    /// CSV or table input: the column holding the puzzles.
    #[arg(long, value_name = "NAME")]
    column: Option<String>,

    #[command(flatten)]
    grid: GridArgs,
}

#[derive(Args, Debug)]
struct DedupeArgs {
    /// Puzzle file (any layout `solve` reads). `-` or nothing reads
    /// standard input (copied to a temporary file: the copy pass reads it
    /// twice).
    input: Option<PathBuf>,

    /// Write the kept records to FILE (atomically) instead of standard
    /// output; compressed by its name as for `solve -o`.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Write a CSV of the dropped records: `dropped_line,first_line` (the
    /// record dropped and the first record of its class; `_row`, from 0,
    /// for tables and arrays).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,

    /// Blank symbol of the kept puzzles: `.` or `0` (one-line and CSV/TSV
    /// text, each record rewritten as `augment` writes it, the rest of its
    /// line kept; a Parquet/Arrow string puzzle column, other columns
    /// kept) [default: each record byte for byte].
    #[arg(long, value_name = "SYMBOL", value_parser = ["0", "."])]
    blank: Option<String>,

    /// Codec of a Parquet or Arrow output's columns [default: the
    /// input's]. Arrow IPC takes zstd, lz4 or none.
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<TableCodecName>,

    #[command(flatten)]
    with: MatchArgs,
}

#[derive(Args, Debug)]
struct OverlapArgs {
    /// The training set (any layout).
    train: PathBuf,

    /// The test set (any layout; `-` reads standard input).
    test: PathBuf,

    /// Write a CSV of the leaking TEST records: `test_line,train_line,match`
    /// (`match`: `exact` with the first exact copy in TRAIN, else
    /// `isomorph` with the first isomorph; `_row`, from 0, for tables and
    /// arrays).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,

    #[command(flatten)]
    with: MatchArgs,
}

#[derive(Args, Debug)]
struct SplitArgs {
    /// Puzzle file (any layout `solve` reads). `-` or nothing reads
    /// standard input (then --output-dir is needed).
    input: Option<PathBuf>,

    /// Share of the records in the test part (0 to 1).
    #[arg(long, value_name = "FRACTION", default_value_t = 0.1)]
    test: f64,

    /// Share of the records in a validation part (none by default).
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0)]
    val: f64,

    /// Seed of the random order of the classes.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,

    /// Hold the fractions within each stratum: `clues`, each clue count;
    /// `er`, each ER (the input's `er` column, or every class rated as
    /// `rate` does, 9x9; slow on hard sets: see `rate`'s speeds); or a
    /// COLUMN's values (CSV/TSV with a header, Parquet, Arrow: a rating,
    /// level or source column), a class's stratum being its first record's
    /// value (the values are held in memory, 4 bytes a record).
    #[arg(long, value_name = "clues|er|COLUMN")]
    stratify: Option<String>,

    /// Write the parts as DIR/train.EXT, DIR/test.EXT, DIR/val.EXT (made
    /// when missing) instead of beside the input.
    #[arg(long, value_name = "DIR")]
    output_dir: Option<PathBuf>,

    /// Blank symbol of the parts' puzzles: `.` or `0` (one-line and
    /// CSV/TSV text, Parquet/Arrow string puzzle columns, as for `dedupe
    /// --blank`) [default: each record byte for byte].
    #[arg(long, value_name = "SYMBOL", value_parser = ["0", "."])]
    blank: Option<String>,

    /// Codec of a Parquet or Arrow output's columns [default: the
    /// input's]. Arrow IPC takes zstd, lz4 or none.
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<TableCodecName>,

    #[command(flatten)]
    with: MatchArgs,
}

#[derive(Args, Debug)]
struct AugmentArgs {
    /// Puzzle file (text layouts, Parquet, Arrow IPC, `.npy`). `-` or
    /// nothing reads standard input.
    input: Option<PathBuf>,

    /// Write to FILE (atomically) instead of standard output; compressed
    /// by its name as for `solve -o`.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Disguises per record.
    #[arg(short = 'n', long = "count", value_name = "K", default_value_t = 1)]
    count: u32,

    /// Seed of the disguises.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,

    /// Write each record itself before its disguises.
    #[arg(long)]
    keep_original: bool,

    /// Add each record's transform (`N|T/ROWS/COLS/LABELS`, as `canon
    /// --transform` writes it; comma-separated lists past 9x9): a
    /// `transform` column for CSV and tables, a field after the puzzle for
    /// text.
    #[arg(long)]
    transform_column: bool,

    /// Blank symbol of the written puzzles: `.` or `0` [default: each
    /// record's own].
    #[arg(long, value_name = "SYMBOL", value_parser = ["0", "."])]
    blank: Option<String>,

    /// Codec of a Parquet or Arrow output's columns [default: the
    /// input's]. Arrow IPC takes zstd, lz4 or none.
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<TableCodecName>,

    /// Worker threads [default: all cores; 0: all cores].
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<u16>,

    /// Input layout and cell symbols, as for `solve`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMAT")]
    format: Vec<FormatName>,

    /// CSV input: the column holding the puzzles.
    #[arg(long, value_name = "NAME")]
    column: Option<String>,

    #[command(flatten)]
    grid: GridArgs,
}

#[derive(Args, Debug)]
struct StatsArgs {
    /// Puzzle files (any layout); `-` reads standard input.
    #[arg(value_name = "INPUT", required = true)]
    inputs: Vec<PathBuf>,

    /// JSON (one object per input, in a list) instead of the table.
    #[arg(long)]
    json: bool,

    /// Draw the histograms (clues, the rating or level column when there
    /// is one, solution counts) to FILE.svg or FILE.png (by the name).
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    plot: Option<PathBuf>,

    /// Count each input's records with an isomorph or a copy in OTHER.
    #[arg(long, value_name = "OTHER")]
    against: Option<PathBuf>,

    #[command(flatten)]
    with: MatchArgs,
}

#[derive(Args, Debug)]
struct CanonArgs {
    /// Puzzle files, one after the other (see --output-dir). `-` or nothing
    /// reads standard input (streamed).
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,

    /// Write the forms to FILE (atomically) instead of standard output;
    /// compressed and formatted by its name as for `solve -o`.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// `string`: the smallest string over the whole group. `pattern`: the
    /// smallest given/blank pattern first, then the smallest string among
    /// the transforms that reach it (the form of dobrichev's
    /// sudoku-minlexing-tool, byte for byte).
    #[arg(long, value_enum, default_value_t = CanonFormName::String, value_name = "FORM")]
    form: CanonFormName,

    /// Add two fields: the transform that maps the record to its form
    /// (`N|T/ROWS/COLS/LABELS`, see docs/canon.md) and the number of
    /// automorphisms (transforms that map the record to itself).
    #[arg(long)]
    transform: bool,

    /// Blank symbol of the forms: `.` or `0` [default: `.`, the usual
    /// blank of digits, whatever blank the record used: one form per class].
    #[arg(long, value_name = "SYMBOL", value_parser = ["0", "."])]
    blank: Option<String>,

    #[command(flatten)]
    run: RunArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum CanonFormName {
    String,
    Pattern,
}

#[derive(Args, Debug)]
struct RateArgs {
    /// Puzzle file. `-` or nothing reads standard input (streamed).
    input: Option<PathBuf>,

    /// Write the ratings to FILE (atomically) instead of standard output;
    /// compressed and formatted by its name as for `solve -o`.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Rate with these techniques only (serate's `--techs`): a comma-separated
    /// list of technique ids (`HiddenSingle,NakedSingle`); a puzzle that
    /// needs another is `unrated`; a list naming none is refused.
    /// `--techniques list` prints the ids in
    /// serate's order, with their ratings and whether they are implemented.
    #[arg(long, value_name = "LIST")]
    techniques: Option<String>,

    /// Also write each puzzle's solving path to FILE, one JSON object per
    /// input record in order (JSON Lines; bad records get a status line):
    /// every step's technique, rating, placement and removals. Any input
    /// (stdin, CSV, tables); FILE.gz etc. is compressed.
    #[arg(long, value_name = "FILE")]
    steps: Option<PathBuf>,

    /// Write ER into column NAME instead of `er` (a CSV/TSV with a header,
    /// or a table): a new column, or one the input has (in any case), e.g.
    /// a dataset's own `rating`. An existing column is filled only where
    /// it is empty; a value there refuses the run (see --overwrite).
    #[arg(long, value_name = "NAME")]
    er_column: Option<String>,

    /// Write EP into column NAME instead of `ep` (as --er-column).
    #[arg(long, value_name = "NAME")]
    ep_column: Option<String>,

    /// Write ED into column NAME instead of `ed` (as --er-column).
    #[arg(long, value_name = "NAME")]
    ed_column: Option<String>,

    /// Replace the values of the columns `rate` writes (`er`, `ep`, `ed`,
    /// `rate_status`, or those --er-column etc. name) when the CSV/TSV or
    /// Parquet/Arrow table has them already, in place (same position and
    /// name; the other columns untouched). Without it, a column that
    /// exists is filled only where empty, and the first row holding a
    /// value there refuses the run (no output kept).
    #[arg(long)]
    overwrite: bool,

    #[command(flatten)]
    run: RunArgs,
}

/// The `rate` command: a bulk run with the rating analysis, and optionally
/// the solving paths.
#[derive(Clone, Debug)]
pub struct RateConfig {
    /// The bulk run (its task is the rating analysis).
    pub bulk: BulkConfig,
    /// The rater used (also for `--steps`).
    pub rater: crate::rate::Rater,
    /// Where the solving paths go.
    pub steps: Option<PathBuf>,
    /// `--techniques list`: print the techniques and stop.
    pub list: bool,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// How many puzzles.
    #[arg(short = 'n', long = "count", value_name = "COUNT")]
    count: u64,

    /// Seed; each puzzle is derived from (seed, index).
    #[arg(long, default_value_t = 1)]
    seed: u64,

    #[command(flatten)]
    grid: GridArgs,

    /// Stop removing clues at K clues (when the puzzle can stay unique that
    /// far; otherwise the closest of 200 attempts (3 for 25x25) is written
    /// and counted as off target).
    #[arg(long, value_name = "K", conflicts_with = "difficulty")]
    clues: Option<usize>,

    /// Only puzzles of this level (see --stats of `solve`); bounded retries
    /// as for --clues.
    #[arg(long, value_enum, value_name = "LEVEL")]
    difficulty: Option<LevelName>,

    /// Symmetry of the clue pattern.
    #[arg(long, value_enum, default_value_t = SymmetryName::None)]
    symmetry: SymmetryName,

    /// Only 9x9 puzzles whose Sudoku Explainer ER (as `rate` gives it) is
    /// in MIN..MAX, e.g. `2.0..4.4`: candidates are generated from the seed
    /// and rated, those outside the band skipped (the summary says how
    /// many it took). A band above what `rate` rates exactly, or one no
    /// puzzle can reach (`1.0..1.1`), is refused before any work; what each
    /// band costs is in docs/rating.md.
    #[arg(long, value_name = "MIN..MAX", value_parser = crate::generate::RatingBand::parse)]
    rating: Option<crate::generate::RatingBand>,

    /// Write `puzzle,solution` CSV (with a header) instead of puzzles only.
    #[arg(long)]
    with_solution: bool,

    /// The CSV header's two column names (with --with-solution), for
    /// example `quizzes,solutions` as in the Kaggle "1 million Sudoku
    /// games" dataset [default: puzzle,solution].
    #[arg(long, value_name = "NAME,NAME", requires = "with_solution", value_parser = parse_header)]
    header: Option<Header>,

    /// The blank cell symbol: `.` or `0` (as in Kaggle-style datasets;
    /// grids up to 35x35, whose symbols have no 0).
    #[arg(long, value_name = "CHAR", default_value = ".", value_parser = ["." , "0"])]
    blank: String,

    /// Exit 0 even when some puzzles missed --difficulty or --clues (they
    /// are written either way; without this flag the exit status is 1
    /// and stderr says how many).
    #[arg(long)]
    best_effort: bool,

    /// Append guesses and level to each puzzle.
    #[arg(long)]
    stats: bool,

    /// Write to FILE (atomically) instead of standard output; compressed
    /// when its name ends in .gz, .zst, .xz or .bz2. `.parquet`, `.arrow`,
    /// `.arrows` write a table (`puzzle`, and `solution`, `guesses`,
    /// `level` as asked), `.npy` a uint8 array of the puzzles (no
    /// --with-solution or --stats there); .csv needs --with-solution.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Compress the output with this codec whatever its name (`none`: plain
    /// text even for a name ending in .gz).
    #[arg(long, value_enum, value_name = "CODEC")]
    compress: Option<CompressName>,

    /// Codec of a Parquet or Arrow output's columns [default: the input's;
    /// zstd for Parquet from text]. Arrow IPC takes zstd, lz4 or none.
    /// (`--compress` compresses the whole file's bytes instead.)
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<TableCodecName>,

    /// Worker threads [default: all cores; 0: all cores]; the output does
    /// not depend on it.
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<u16>,

    /// Do not draw the progress bar.
    #[arg(long)]
    no_progress: bool,
}

/// `--header`'s two column names.
#[derive(Clone, Debug)]
struct Header(String, String);

fn parse_header(s: &str) -> Result<Header, String> {
    let names: Vec<&str> = s.split(',').map(str::trim).collect();
    let [p, a] = names[..] else {
        return Err(format!(
            "{s:?}: give two column names, puzzles then solutions (`quizzes,solutions`)"
        ));
    };
    for n in [p, a] {
        if n.is_empty() || n.contains(['"', '\n', '\r']) {
            return Err(format!(
                "{s:?}: column names must be non-empty, without quotes or line breaks"
            ));
        }
    }
    if p == a {
        return Err(format!("{s:?}: the two column names must differ"));
    }
    Ok(Header(p.to_string(), a.to_string()))
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum LevelName {
    Easy,
    Medium,
    Hard,
    Extreme,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum SymmetryName {
    None,
    Rotate180,
    Rotate90,
    Mirror,
    Diagonal,
}

/// A `generate` run.
#[derive(Clone, Debug)]
pub struct GenerateConfig {
    /// Puzzles to write.
    pub count: u64,
    /// Run seed.
    pub seed: u64,
    /// What to generate.
    pub spec: Spec,
    /// CSV with solutions.
    pub with_solution: bool,
    /// The CSV header's puzzle and solution column names.
    pub header: (String, String),
    /// Blank cell symbol (`.` or `0`).
    pub blank: u8,
    /// Off-target puzzles are no error.
    pub best_effort: bool,
    /// Append guesses and level.
    pub stats: bool,
    /// Output path; `None` for stdout.
    pub output: Option<PathBuf>,
    /// Output compression.
    pub compress: Compress,
    /// `--compression`: a table output's codec (`None`: the default).
    pub compression: Option<TableCodec>,
    /// Worker threads.
    pub threads: usize,
    /// Draw a progress bar.
    pub progress: bool,
    /// `--rating`: keep only puzzles whose ER is in this band.
    pub rating: Option<crate::generate::RatingBand>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// Puzzle file (or a CSV dataset with puzzle and solution columns).
    puzzles: PathBuf,

    /// Answer file, in the puzzles' layout (as `solve` writes it).
    answers: Option<PathBuf>,

    /// Input layout and symbols, as for `solve`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMAT")]
    format: Vec<FormatName>,

    /// CSV input: the column holding the puzzles.
    #[arg(long, value_name = "NAME")]
    column: Option<String>,

    #[command(flatten)]
    grid: GridArgs,
}

/// A `check` run.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Puzzles (or the CSV dataset).
    pub puzzles: PathBuf,
    /// Answers, unless the puzzles file is a CSV with solutions.
    pub answers: Option<PathBuf>,
    /// Forced layout.
    pub forced: Forced,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Puzzle files (any layout `solve` reads).
    #[arg(required = true)]
    files: Vec<PathBuf>,

    /// Worker threads; 1 measures the per-core speed, 0 uses all cores.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1)]
    threads: u16,

    /// `first`: stop at the first solution (as `solve`); `unique`: count to
    /// 2 solutions (as `count`, a uniqueness proof).
    #[arg(long, value_enum, default_value_t = BenchMode::First)]
    mode: BenchMode,

    /// Minimum timed seconds per file.
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    seconds: f64,

    /// Print JSON (one object per file) instead of a table.
    #[arg(long)]
    json: bool,

    /// Input layout and symbols, as for `solve`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMAT")]
    format: Vec<FormatName>,

    #[command(flatten)]
    grid: GridArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum BenchMode {
    First,
    Unique,
}

/// A `bench` run.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Files to measure, in order.
    pub files: Vec<PathBuf>,
    /// Worker threads.
    pub threads: usize,
    /// Solve mode.
    pub mode: Mode,
    /// Minimum timed duration per file.
    pub min_time: Duration,
    /// JSON output.
    pub json: bool,
    /// Forced layout.
    pub forced: Forced,
}

#[derive(Args, Debug)]
struct CountArgs {
    /// Puzzle files, counted one after the other (see --output-dir). `-`
    /// or nothing reads standard input (streamed).
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,

    /// Write counts to FILE (atomically) instead of standard output;
    /// compressed and formatted by its name as for `solve -o` (counts of
    /// text input are text: .txt).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Stop counting a puzzle's solutions at N.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    limit: u32,

    #[command(flatten)]
    run: RunArgs,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Puzzle files, solved one after the other: answers of each follow
    /// the previous ones on stdout (text inputs), or go to a file of the
    /// same name with --output-dir. `-` or nothing reads standard input
    /// (streamed).
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,

    /// Write answers to FILE (atomically: a temporary file renamed into place
    /// on success; a device or FIFO such as /dev/null is written directly, a
    /// symbolic link's target is replaced and the link kept) instead of
    /// standard output; compressed when FILE ends in .gz, .zst, .xz or .bz2.
    /// The extension (inside those) picks the format: .txt, .csv/.tsv (CSV
    /// input), .parquet, .arrow, .arrows, .npy (the same kind of input);
    /// one this input cannot be written as is refused, any other name keeps
    /// the input's format. Must not be the input.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Answer only puzzles with exactly one solution; mark the others
    /// `multiple solutions`.
    #[arg(long)]
    unique: bool,

    /// Replace every existing solution (label) in the input with ours.
    /// Without it, a valid existing solution is kept byte for byte, and a
    /// wrong one is reported (`existing solution is wrong: ...`, exit 1) and
    /// kept; empty solution fields are filled.
    #[arg(long)]
    overwrite: bool,

    #[command(flatten)]
    run: RunArgs,
}

/// Options shared by every bulk command.
#[derive(Args, Debug)]
struct RunArgs {
    /// Write the output of each input to DIR/NAME, NAME the input's file
    /// name (created if missing; two inputs of the same name, stdin and
    /// an output that is its own input are refused). Instead of -o.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    output_dir: Option<PathBuf>,

    /// Worker threads [default: all cores; 0: all cores]. `-j 1` runs
    /// sequentially; the output is byte-identical for every value.
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<u16>,

    /// Do not draw the progress bar (it is only drawn when stderr is a terminal).
    #[arg(long)]
    no_progress: bool,

    /// Read the input file front to back instead of memory-mapping it.
    /// (Compressed files, stdin, FIFOs and devices are always read so.)
    #[arg(long)]
    no_mmap: bool,

    /// Compress the output with this codec whatever its name (`none`: plain
    /// text even for a name ending in .gz). Input compression (gzip, zstd,
    /// xz, bzip2) is recognised from the data itself.
    #[arg(long, value_enum, value_name = "CODEC")]
    compress: Option<CompressName>,

    /// Codec of a Parquet or Arrow output's columns [default: the input's;
    /// zstd for Parquet from text]. Arrow IPC takes zstd, lz4 or none.
    /// (`--compress` compresses the whole file's bytes instead.)
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<TableCodecName>,

    /// What to do with a bad record: `mark` writes an `error: REASON` line for
    /// it and goes on; `fail` stops at the first one and leaves no output file.
    #[arg(long, value_enum, default_value_t = ErrorPolicy::Mark, value_name = "POLICY")]
    on_error: ErrorPolicy,

    /// Input layout and cell symbols, detected by default. Layouts: `line` (one
    /// puzzle per line), `grid` (rows of cells), `spaced` (rows of
    /// space-separated numbers), `boxed` (rows with `|` separators and rule
    /// lines: qqwing's readable grid, Simple Sudoku .ss; aliases `qqwing`,
    /// `ss`), `numbers` (81 numbers on one line, NumPy savetxt), `csv`, `tsv`
    /// (with a header or headerless), `tdoku` (`puzzle:count:solution`).
    /// Symbols: `digits`, `letters` (A-P, A-Y), `hex0` (0-F), `hex1` (1-G).
    /// Combine with a comma: `grid,hex1`. A Parquet/Arrow string column
    /// takes `line` or `numbers` and the symbols; a `.npy` array takes none.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMAT")]
    format: Vec<FormatName>,

    /// CSV input: the column holding the puzzles (known dataset headers are
    /// recognised without it).
    #[arg(long, value_name = "NAME")]
    column: Option<String>,

    #[command(flatten)]
    grid: GridArgs,

    /// Append each answered puzzle's guess count and difficulty level
    /// (easy: no guess, medium: 1-4, hard: 5-29, extreme: 30+ guesses to
    /// prove it unique) to its output line; CSV output gets `guesses,level`
    /// columns. One-line and CSV layouts only.
    #[arg(long)]
    stats: bool,

    /// Work unit size, up to 64 MiB: bytes, or with a unit, `64K`, `1M`
    /// (K, M, G and KiB, MiB, GiB are powers of 1024; KB, MB, GB of 1000)
    /// [default: picked from the input size, at most 1 MiB; 256 KiB for
    /// streams]. Chunks end on record boundaries; the output never depends
    /// on it.
    #[arg(long, value_name = "SIZE", value_parser = parse_chunk_size)]
    chunk_size: Option<u64>,

    /// One output line per input line (one-puzzle-per-line input)
    ///
    /// One-puzzle-per-line input: write exactly one output line per input
    /// line, echoing empty lines, `#` comments and `end` as they are (and
    /// reading on after `end`), so a caller can zip input and output lines
    /// (Hadoop streaming, Spark RDD.pipe). Without it, those lines are
    /// dropped and only puzzle records get an output line.
    #[arg(long)]
    keep_lines: bool,
}

/// Largest `--chunk-size`: bigger ones only cost memory.
const MAX_CHUNK_SIZE: u64 = 64 << 20;

/// A byte count with an optional unit, as `split -b`, `dd` and `head -c`
/// read them: `K`/`KiB` 1024, `KB` 1000, and so on for M and G; `B` or
/// nothing for bytes; upper or lower case.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (num, unit) = t.split_at(digits);
    if unit.starts_with(['.', ',']) {
        return Err(format!(
            "{s:?}: not a size: whole numbers only (1536K, not 1.5M)"
        ));
    }
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{s:?}: not a size (a number, optionally with K, M or G)"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "kb" => 1_000,
        "m" | "mib" => 1 << 20,
        "mb" => 1_000_000,
        "g" | "gib" => 1 << 30,
        "gb" => 1_000_000_000,
        u => {
            return Err(format!(
                "{s:?}: unknown unit {u:?} (K, M, G: powers of 1024; KB, MB, GB: of 1000)"
            ))
        }
    };
    n.checked_mul(mult)
        .ok_or_else(|| format!("{s:?}: too large"))
}

fn parse_chunk_size(s: &str) -> Result<u64, String> {
    let n = parse_size(s)?;
    if n == 0 || n > MAX_CHUNK_SIZE {
        return Err(format!("{s:?}: must be 1 byte to 64 MiB"));
    }
    Ok(n)
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum CompressName {
    Gzip,
    Zstd,
    Xz,
    Bzip2,
    None,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum TableCodecName {
    None,
    Snappy,
    Zstd,
    Gzip,
    Lz4,
}

fn table_codec(name: Option<TableCodecName>) -> Option<TableCodec> {
    name.map(|n| match n {
        TableCodecName::None => TableCodec::None,
        TableCodecName::Snappy => TableCodec::Snappy,
        TableCodecName::Zstd => TableCodec::Zstd,
        TableCodecName::Gzip => TableCodec::Gzip,
        TableCodecName::Lz4 => TableCodec::Lz4,
    })
}

fn compress(name: Option<CompressName>) -> Compress {
    match name {
        None => Compress::Auto,
        Some(CompressName::None) => Compress::None,
        Some(CompressName::Gzip) => Compress::With(Codec::Gzip),
        Some(CompressName::Zstd) => Compress::With(Codec::Zstd),
        Some(CompressName::Xz) => Compress::With(Codec::Xz),
        Some(CompressName::Bzip2) => Compress::With(Codec::Bzip2),
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FormatName {
    Line,
    Grid,
    Spaced,
    #[value(alias = "qqwing", alias = "ss")]
    Boxed,
    #[value(alias = "savetxt")]
    Numbers,
    Csv,
    Tsv,
    Tdoku,
    Digits,
    Letters,
    Hex0,
    Hex1,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum ErrorPolicy {
    Mark,
    Fail,
}

/// A bulk job, as the rest of the program sees it.
#[derive(Clone, Debug)]
pub struct BulkConfig {
    /// Input path; `None` for stdin.
    pub input: Option<PathBuf>,
    /// Output path; `None` for stdout.
    pub output: Option<PathBuf>,
    /// Output compression.
    pub compress: Compress,
    /// `--compression`: a table output's codec (`None`: the input's).
    pub compression: Option<TableCodec>,
    /// What to do per puzzle.
    pub task: Task,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Chunk size in bytes, if the user fixed it.
    pub chunk_bytes: Option<usize>,
    /// Bad-record policy.
    pub on_error: OnError,
    /// Draw a progress bar (when stderr is a terminal).
    pub progress: bool,
    /// Never memory-map the input.
    pub no_mmap: bool,
    /// Layout choices the user forced.
    pub forced: Forced,
    /// Append guesses and level per puzzle.
    pub stats: bool,
    /// Replace existing labels instead of keeping valid ones.
    pub overwrite: bool,
    /// One output line per input line (one-per-line layout).
    pub keep_lines: bool,
}

/// What the user asked for.
#[derive(Clone, Debug)]
pub enum Command {
    /// Bulk jobs (`solve`, `count`), one per input, run in order.
    Bulk {
        /// The jobs.
        jobs: Vec<BulkConfig>,
        /// `--output-dir`, made before the first job when missing.
        output_dir: Option<PathBuf>,
    },
    /// Measure solver speed.
    Bench(BenchConfig),
    /// Verify answers.
    Check(CheckConfig),
    /// Make puzzles.
    Generate(GenerateConfig),
    /// Rate puzzles.
    Rate(RateConfig),
    /// Print a shell completion script.
    Completions(clap_complete::Shell),
    /// Print the man page.
    Man,
    /// Drop repeated records.
    Dedupe(crate::dedupe::DedupeConfig),
    /// Check a split for leaks.
    Overlap(crate::dedupe::OverlapConfig),
    /// Split a set by class.
    Split(crate::dedupe::SplitConfig),
    /// Disguise every record.
    Augment(crate::augment::AugmentConfig),
    /// Print a dataset card.
    Stats(crate::dedupe::StatsConfig),
    /// Convert between layouts.
    Convert(crate::convert::ConvertConfig),
}

/// Writes the completion script for `shell` (all subcommands and flags).
pub fn write_completions(shell: clap_complete::Shell, w: &mut dyn std::io::Write) {
    use clap::CommandFactory;
    clap_complete::generate(shell, &mut Cli::command(), "sudoku-bulk", w);
}

/// Writes the man page, `sudoku-bulk(1)`, with a section per subcommand.
pub fn write_man(w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut roff = Vec::new();
    render_man(&mut roff)?;
    w.write_all(ascii_roff(&String::from_utf8_lossy(&roff)).as_bytes())
}

/// `roff` with every non-ASCII character written as groff's `\[uXXXX]`
/// escape: plain `groff` (no `-k`/preconv) warns on raw UTF-8 and prints
/// it as mojibake; `man` and `groff -k` show the escape as the character.
fn ascii_roff(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    for c in roff.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", c as u32));
        }
    }
    out
}

fn render_man(w: &mut dyn std::io::Write) -> std::io::Result<()> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(w)?;
    man.render_name_section(w)?;
    man.render_synopsis_section(w)?;
    man.render_description_section(w)?;
    man.render_options_section(w)?;
    man.render_subcommands_section(w)?;
    // The subcommands' own options are where the work is: one section
    // each, as `git help` pages list them, rather than one page per
    // subcommand that `man sudoku-bulk` would not show.
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        let page = clap_mangen::Man::new(sub.clone().bin_name(format!("sudoku-bulk {name}")));
        let mut roff = Vec::new();
        page.render_synopsis_section(&mut roff)?;
        page.render_description_section(&mut roff)?;
        page.render_options_section(&mut roff)?;
        let text = String::from_utf8_lossy(&roff)
            .replace(
                ".SH SYNOPSIS",
                &format!(".SH \"COMMAND: {}\"", name.to_uppercase()),
            )
            .replace(".SH DESCRIPTION\n", "")
            .replace(".SH OPTIONS", &format!(".SS \"{name} options\""));
        w.write_all(text.as_bytes())?;
    }
    man.render_version_section(w)?;
    Ok(())
}

/// Parses the process arguments; exits with status 2 and a usage message on
/// errors (clap's behaviour), 0 for `--help` and `--version`.
pub fn parse() -> Command {
    let cli = Cli::parse();
    crate::output::set_chatter(if cli.quiet {
        crate::output::Chatter::Quiet
    } else if cli.progress == ProgressWhen::Plain {
        crate::output::Chatter::Plain
    } else {
        crate::output::Chatter::Normal
    });
    match convert(cli) {
        Ok(c) => c,
        Err(e) => e.exit(),
    }
}

fn convert(cli: Cli) -> Result<Command, clap::Error> {
    let show = !cli.quiet && cli.progress != ProgressWhen::Never;
    Ok(match cli.command {
        CliCommand::Solve(Lazy(a)) => Command::Bulk {
            output_dir: a.run.output_dir.clone(),
            jobs: bulk(
                a.inputs,
                a.output,
                Task::Solve { unique: a.unique },
                a.run,
                show,
            )?
            .into_iter()
            .map(|c| BulkConfig {
                overwrite: a.overwrite,
                ..c
            })
            .collect(),
        },
        CliCommand::Count(Lazy(a)) => Command::Bulk {
            output_dir: a.run.output_dir.clone(),
            jobs: bulk(
                a.inputs,
                a.output,
                Task::Count { limit: a.limit },
                a.run,
                show,
            )?,
        },
        CliCommand::Completions { shell } => Command::Completions(shell),
        CliCommand::Man => Command::Man,
        CliCommand::Canon(Lazy(a)) => {
            let job = crate::canon::CanonJob {
                form: match a.form {
                    CanonFormName::String => crate::canon::Form::String,
                    CanonFormName::Pattern => crate::canon::Form::Pattern,
                },
                transform: a.transform,
                blank: a.blank.map(|b| b.as_bytes()[0]),
            };
            // One small value per run, alive for the whole process.
            let task = Task::Analyse(Box::leak(Box::new(job)));
            Command::Bulk {
                output_dir: a.run.output_dir.clone(),
                jobs: bulk(a.inputs, a.output, task, a.run, show)?,
            }
        }
        CliCommand::Dedupe(Lazy(a)) => Command::Dedupe(crate::dedupe::DedupeConfig {
            compression: table_codec(a.compression),
            input: a.input,
            output: a.output,
            report: a.report,
            blank: a.blank.map(|b| b.as_bytes()[0]),
            by: by(a.with.by),
            form: form(a.with.form),
            memory: a.with.memory,
            temp_dir: a.with.temp_dir.clone(),
            threads: threads(a.with.threads),
            progress: show && !a.with.no_progress,
            forced: forced(&a.with.format, a.with.column, &a.with.grid)?,
        }),
        CliCommand::Overlap(Lazy(a)) => Command::Overlap(crate::dedupe::OverlapConfig {
            train: a.train,
            test: a.test,
            report: a.report,
            by: by(a.with.by),
            form: form(a.with.form),
            memory: a.with.memory,
            temp_dir: a.with.temp_dir.clone(),
            threads: threads(a.with.threads),
            progress: show && !a.with.no_progress,
            forced: forced(&a.with.format, a.with.column, &a.with.grid)?,
        }),
        CliCommand::Stats(Lazy(a)) => Command::Stats(crate::dedupe::StatsConfig {
            inputs: a.inputs,
            json: a.json,
            plot: a.plot,
            against: a.against,
            temp_dir: a.with.temp_dir.clone(),
            memory: a.with.memory,
            threads: threads(a.with.threads),
            progress: show && !a.with.no_progress,
            forced: forced(&a.with.format, a.with.column, &a.with.grid)?,
        }),
        CliCommand::Convert(Lazy(a)) => Command::Convert(crate::convert::ConvertConfig {
            input: a.input,
            output: a.output,
            blank: a.blank.map(|b| b.as_bytes()[0]),
            compress: compress(a.compress),
            compression: table_codec(a.compression),
            temp_dir: a.temp_dir,
            forced: forced(&a.format, a.column, &a.grid)?,
        }),
        CliCommand::Augment(Lazy(a)) => Command::Augment(crate::augment::AugmentConfig {
            compression: table_codec(a.compression),
            input: a.input,
            output: a.output,
            count: a.count,
            seed: a.seed,
            keep_original: a.keep_original,
            transform_column: a.transform_column,
            blank: a.blank.map(|b| b.as_bytes()[0]),
            threads: threads(a.threads),
            forced: forced(&a.format, a.column, &a.grid)?,
        }),
        CliCommand::Split(Lazy(a)) => Command::Split(crate::dedupe::SplitConfig {
            compression: table_codec(a.compression),
            input: a.input,
            test: a.test,
            val: a.val,
            seed: a.seed,
            by: by(a.with.by),
            form: form(a.with.form),
            stratify: match a.stratify.as_deref() {
                None => crate::dedupe::Stratify::None,
                Some("clues") => crate::dedupe::Stratify::Clues,
                Some("er") => crate::dedupe::Stratify::Er,
                Some(column) => crate::dedupe::Stratify::Column(column.to_string()),
            },
            output_dir: a.output_dir,
            blank: a.blank.map(|b| b.as_bytes()[0]),
            temp_dir: a.with.temp_dir.clone(),
            memory: a.with.memory,
            threads: threads(a.with.threads),
            progress: show && !a.with.no_progress,
            forced: forced(&a.with.format, a.with.column, &a.with.grid)?,
        }),
        CliCommand::Bench(Lazy(a)) => Command::Bench(BenchConfig {
            files: a.files,
            threads: threads(Some(a.threads)),
            mode: match a.mode {
                BenchMode::First => Mode::First,
                BenchMode::Unique => Mode::Unique,
            },
            min_time: Duration::from_secs_f64(a.seconds.clamp(0.0, 3600.0)),
            json: a.json,
            forced: forced(&a.format, None, &a.grid)?,
        }),
        CliCommand::Generate(Lazy(a)) => Command::Generate(GenerateConfig {
            compress: compress(a.compress),
            compression: table_codec(a.compression),
            count: a.count,
            seed: a.seed,
            spec: Spec {
                boxes: a.grid.boxes()?.unwrap_or(Boxes::NINE),
                clues: clues(a.clues, a.grid.boxes()?.unwrap_or(Boxes::NINE).side())?,
                level: a.difficulty.map(|l| match l {
                    LevelName::Easy => Level::Easy,
                    LevelName::Medium => Level::Medium,
                    LevelName::Hard => Level::Hard,
                    LevelName::Extreme => Level::Extreme,
                }),
                symmetry: match a.symmetry {
                    SymmetryName::None => Symmetry::None,
                    SymmetryName::Rotate180 => Symmetry::Rotate180,
                    SymmetryName::Rotate90 => Symmetry::Rotate90,
                    SymmetryName::Mirror => Symmetry::Mirror,
                    SymmetryName::Diagonal => Symmetry::Diagonal,
                },
            },
            with_solution: a.with_solution,
            header: a
                .header
                .map_or(("puzzle".into(), "solution".into()), |h| (h.0, h.1)),
            blank: generate_blank(&a.blank, a.grid.boxes()?.unwrap_or(Boxes::NINE).side())?,
            best_effort: a.best_effort,
            stats: a.stats,
            output: a.output.filter(|p| p.as_os_str() != "-"),
            threads: threads(a.threads),
            progress: show && !a.no_progress,
            rating: a.rating,
        }),
        CliCommand::Rate(Lazy(a)) => {
            let list = a.techniques.as_deref() == Some("list");
            let set = match a.techniques.as_deref() {
                None | Some("list") => crate::rate::Techniques::all(),
                Some(l) => crate::rate::Techniques::parse(l).map_err(|e| {
                    clap::Error::raw(
                        clap::error::ErrorKind::InvalidValue,
                        format!("--techniques: {e}\n"),
                    )
                })?,
            };
            let rater = crate::rate::Rater::with_techniques(set);
            // The pipeline takes a `'static` analysis: one per run, leaked.
            let columns = rate_columns([a.er_column, a.ep_column, a.ed_column])?;
            let analysis: &'static crate::rate::RateAnalysis =
                Box::leak(Box::new(crate::rate::RateAnalysis {
                    steps: a.steps.is_some(),
                    columns,
                    ..crate::rate::RateAnalysis::new(rater)
                }));
            if a.run.stats {
                return Err(clap::Error::raw(
                    clap::error::ErrorKind::ArgumentConflict,
                    "--stats applies to solve and count, not to rate\n",
                ));
            }
            if a.run.output_dir.is_some() {
                return Err(usage(
                    "rate reads one input; --output-dir is for solve and count".into(),
                ));
            }
            let inputs: Vec<PathBuf> = a.input.into_iter().collect();
            let mut jobs = bulk(inputs, a.output, Task::Analyse(analysis), a.run, show)?;
            Command::Rate(RateConfig {
                bulk: BulkConfig {
                    overwrite: a.overwrite,
                    ..jobs.remove(0)
                },
                rater,
                steps: a.steps,
                list,
            })
        }
        CliCommand::Check(Lazy(a)) => Command::Check(CheckConfig {
            puzzles: a.puzzles,
            answers: a.answers,
            forced: forced(&a.format, a.column, &a.grid)?,
        }),
    })
}

fn by(b: ByName) -> crate::dedupe::By {
    match b {
        ByName::Exact => crate::dedupe::By::Exact,
        ByName::Iso => crate::dedupe::By::Iso,
    }
}

fn form(f: CanonFormName) -> crate::canon::Form {
    match f {
        CanonFormName::String => crate::canon::Form::String,
        CanonFormName::Pattern => crate::canon::Form::Pattern,
    }
}

fn forced(
    formats: &[FormatName],
    column: Option<String>,
    grid: &GridArgs,
) -> Result<Forced, clap::Error> {
    let mut f = Forced {
        column,
        side: grid.size,
        // Checked against --size here; kept only when given, so messages
        // name the flag the user wrote.
        boxes: grid.boxes()?.and(grid.boxes),
        ..Forced::default()
    };
    for &name in formats {
        let (shape, symbols) = match name {
            FormatName::Line => (Some(ShapeName::Line), None),
            FormatName::Grid => (Some(ShapeName::Grid), None),
            FormatName::Spaced => (Some(ShapeName::Spaced), None),
            FormatName::Boxed => (Some(ShapeName::Boxed), None),
            FormatName::Numbers => (Some(ShapeName::Numbers), None),
            FormatName::Csv => (Some(ShapeName::Csv), None),
            FormatName::Tsv => (Some(ShapeName::Tsv), None),
            FormatName::Tdoku => (Some(ShapeName::Tdoku), None),
            FormatName::Digits => (None, Some(Symbols::Digits)),
            FormatName::Letters => (None, Some(Symbols::Letters)),
            FormatName::Hex0 => (None, Some(Symbols::Hex0)),
            FormatName::Hex1 => (None, Some(Symbols::Hex1)),
        };
        if (shape.is_some() && f.shape.is_some()) || (symbols.is_some() && f.symbols.is_some()) {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ArgumentConflict,
                "--format takes at most one layout and one symbol set\n",
            ));
        }
        f.shape = f.shape.or(shape);
        f.symbols = f.symbols.or(symbols);
    }
    Ok(f)
}

/// A usage error (exit 2) with clap's look.
/// `rate`'s column names: `er`, `ep`, `ed` unless `named` (`--er-column`,
/// `--ep-column`, `--ed-column`) says otherwise, then `rate_status`. Names
/// are leaked: one analysis per run. Refused: an empty name, or two
/// columns of one name (in any case, as headers are matched).
fn rate_columns(named: [Option<String>; 3]) -> Result<[&'static str; 4], clap::Error> {
    let mut columns = crate::rate::RateAnalysis::COLUMNS;
    for (k, name) in named.into_iter().enumerate() {
        let Some(name) = name else { continue };
        if name.trim().is_empty() {
            return Err(usage(format!(
                "--{}-column: give a column name",
                columns[k]
            )));
        }
        columns[k] = Box::leak(name.into_boxed_str());
    }
    for (i, a) in columns.iter().enumerate() {
        if let Some(b) = columns[i + 1..].iter().find(|b| b.eq_ignore_ascii_case(a)) {
            return Err(usage(format!(
                "rate would write two columns named {b:?}: give --er-column, --ep-column and \
                 --ed-column different names (rate_status is taken too)"
            )));
        }
    }
    Ok(columns)
}

fn usage(msg: String) -> clap::Error {
    clap::Error::raw(clap::error::ErrorKind::ArgumentConflict, msg + "\n")
}

/// One job per input (stdin when none). Several inputs write one after the
/// other to stdout, or each to `--output-dir`/its file name; refused where
/// that is ambiguous: `-o` (one file for several answers), stdin twice or
/// into a directory (no name), two inputs of one name into a directory,
/// and binary tables or arrays one after the other on stdout.
fn bulk(
    inputs: Vec<PathBuf>,
    output: Option<PathBuf>,
    task: Task,
    run: RunArgs,
    show: bool,
) -> Result<Vec<BulkConfig>, clap::Error> {
    let is_stdin = |p: &PathBuf| p.as_os_str() == "-";
    if inputs.iter().filter(|p| is_stdin(p)).count() > 1 {
        return Err(usage("`-` (stdin) can be read once per run".into()));
    }
    if inputs.len() > 1 && output.is_some() {
        return Err(usage(format!(
            "-o names one output, but {} inputs are given: use --output-dir DIR (a file \
             per input), or leave -o out (answers one after the other on stdout)",
            inputs.len()
        )));
    }
    if let Some(dir) = &run.output_dir {
        if inputs.is_empty() || inputs.iter().any(is_stdin) {
            return Err(usage(
                "--output-dir names each output after its input; stdin has no name: use -o".into(),
            ));
        }
        let mut seen = std::collections::HashMap::new();
        for i in &inputs {
            let Some(name) = i.file_name() else {
                return Err(usage(format!("{}: no file name", i.display())));
            };
            if let Some(other) = seen.insert(name.to_owned(), i) {
                return Err(usage(format!(
                    "{} and {} would both be written to {}",
                    other.display(),
                    i.display(),
                    dir.join(name).display()
                )));
            }
        }
    } else if inputs.len() > 1 {
        let binary = inputs.iter().find(|p| {
            matches!(
                crate::output::Named::of(Some(p)),
                Some(crate::output::Named::Columnar(_))
            )
        });
        if let Some(p) = binary {
            return Err(usage(format!(
                "{}: a table or array input writes a binary output; with several inputs \
                 give --output-dir DIR",
                p.display()
            )));
        }
    }
    let base = one_bulk(output, task, &run, show)?;
    if inputs.is_empty() {
        return Ok(vec![base]);
    }
    Ok(inputs
        .into_iter()
        .map(|i| BulkConfig {
            output: match &run.output_dir {
                Some(dir) => Some(dir.join(i.file_name().expect("checked above"))),
                None => base.output.clone(),
            },
            input: Some(i).filter(|p| !is_stdin(p)),
            ..base.clone()
        })
        .collect())
}

fn one_bulk(
    output: Option<PathBuf>,
    task: Task,
    run: &RunArgs,
    show: bool,
) -> Result<BulkConfig, clap::Error> {
    Ok(BulkConfig {
        input: None,
        output: output.filter(|p| p.as_os_str() != "-"),
        compress: compress(run.compress),
        compression: table_codec(run.compression),
        task,
        threads: threads(run.threads),
        chunk_bytes: run.chunk_size.map(|n| n as usize),
        on_error: match run.on_error {
            ErrorPolicy::Mark => OnError::Mark,
            ErrorPolicy::Fail => OnError::Fail,
        },
        progress: show && !run.no_progress,
        no_mmap: run.no_mmap,
        forced: forced(&run.format, run.column.clone(), &run.grid)?,
        stats: run.stats,
        overwrite: false,
        keep_lines: run.keep_lines,
    })
}

/// All cores, as fd does.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `-j N`, or all cores (no `-j`, or `-j 0` as in `make`-like tools and
/// `xz -T0`); capped at [`crate::pipeline::max_threads`] with a note.
fn threads(asked: Option<u16>) -> usize {
    let cores = default_threads();
    let Some(n) = asked.map(usize::from).filter(|&n| n > 0) else {
        return cores;
    };
    let cap = crate::pipeline::max_threads();
    if n > cap {
        crate::output::note(format_args!(
            "-j {n} lowered to {cap} ({} per core on {cores} cores)",
            crate::pipeline::THREADS_PER_CORE
        ));
        return cap;
    }
    n
}

/// `--blank`: `0` is refused where `0` is a symbol (36x36 grids, `0`-`9`
/// then letters) or cells are numbers (sides past 36, where a blank is
/// written `0` already).
fn generate_blank(blank: &str, side: usize) -> Result<u8, clap::Error> {
    if blank == "0" && side >= 36 {
        return Err(clap::Error::raw(
            clap::error::ErrorKind::ValueValidation,
            format!(
                "--blank 0: {side}x{side} grids use 0 as a symbol or write blanks as 0 already; \
                 leave --blank out\n"
            ),
        ));
    }
    Ok(blank.as_bytes()[0])
}

/// `--clues K` for a grid of `size` rows, refused when no unique puzzle can
/// have K clues: fewer than the known minimum (17 for 9x9, 55 for 16x16;
/// for 25x25 none is known, and fewer than side - 1 clues leave two
/// symbols interchangeable) or more than the cells.
fn clues(k: Option<usize>, size: usize) -> Result<Option<usize>, clap::Error> {
    let Some(k) = k else { return Ok(None) };
    let min = match size {
        9 => 17,
        16 => 55,
        _ => size - 1,
    };
    let max = size * size;
    if k < min || k > max {
        return Err(clap::Error::raw(
            clap::error::ErrorKind::ValueValidation,
            format!("--clues {k}: a unique {size}x{size} puzzle has {min} to {max} clues\n"),
        ));
    }
    Ok(Some(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The subcommands' arguments are added late (`Lazy`); a flattened
    /// struct's doc comment must not replace the subcommand's own about
    /// texts (it did: every bulk command's help began "Options shared by
    /// every bulk command").
    #[test]
    fn deferred_subcommands_keep_their_own_help() {
        let mut cmd = Cli::command();
        cmd.build();
        let mut seen = std::collections::HashMap::new();
        for sub in cmd.get_subcommands() {
            let name = sub.get_name().to_string();
            let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
            assert!(!about.is_empty(), "{name} has no about text");
            if let Some(other) = seen.insert(about.clone(), name.clone()) {
                panic!("{name} and {other} share the about text {about:?}");
            }
        }
        let solve = cmd.find_subcommand("solve").unwrap();
        let long = solve.get_long_about().unwrap().to_string();
        assert!(long.contains("Exit status"), "{long}");
        assert!(solve.get_arguments().any(|a| a.get_id() == "unique"));
        // A parse builds the arguments of the subcommand it runs.
        let cli = Cli::try_parse_from(["sudoku-bulk", "count", "--limit", "5", "x.txt"]).unwrap();
        assert!(matches!(cli.command, CliCommand::Count(Lazy(ref a)) if a.limit == 5));
    }

    #[test]
    fn dash_means_stdin_and_stdout() {
        let cli = Cli::try_parse_from(["sudoku-bulk", "solve", "-", "-o", "-", "-j", "3"]).unwrap();
        let Ok(Command::Bulk { jobs: mut c, .. }) = convert(cli) else {
            panic!("solve is a bulk command")
        };
        let c = c.pop().unwrap();
        assert_eq!(c.input, None);
        assert_eq!(c.output, None);
        assert_eq!(c.threads, 3);
        let cli = Cli::try_parse_from(["sudoku-bulk", "solve", "-j", "0"]).unwrap();
        let Ok(Command::Bulk { jobs: mut c, .. }) = convert(cli) else {
            panic!("solve is a bulk command")
        };
        let c = c.pop().unwrap();
        assert_eq!(c.threads, default_threads());
        let cli = Cli::try_parse_from(["sudoku-bulk", "count", "--format", "grid,hex1"]).unwrap();
        let Ok(Command::Bulk { jobs: mut c, .. }) = convert(cli) else {
            panic!("count is a bulk command")
        };
        let c = c.pop().unwrap();
        assert_eq!(c.task, Task::Count { limit: 2 });
        assert_eq!(c.forced.shape, Some(ShapeName::Grid));
        assert_eq!(c.forced.symbols, Some(Symbols::Hex1));
        let cli = Cli::try_parse_from(["sudoku-bulk", "count", "--format", "grid,line"]).unwrap();
        assert!(convert(cli).is_err());
    }

    #[test]
    fn sizes_take_units() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64K"), Ok(64 * 1024));
        assert_eq!(parse_size("64kib"), Ok(64 * 1024));
        assert_eq!(parse_size("1M"), Ok(1 << 20));
        assert_eq!(parse_size("1MB"), Ok(1_000_000));
        assert_eq!(parse_size("2 KB"), Ok(2000));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert!(parse_size("1.5M").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("12Q").is_err());
        assert!(parse_size("99999999999999999999").is_err());
        assert!(parse_chunk_size("0").is_err());
        assert!(parse_chunk_size("65M").is_err());
        assert_eq!(parse_chunk_size("64M"), Ok(64 << 20));
    }
}
