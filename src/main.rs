//! Entry point: parse arguments, run the command, map the outcome to an exit
//! status (0 all good, 1 bad records, 2 usage or I/O error, 101 a panic,
//! 128 + N killed by signal N).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use anyhow::Context;

use sudoku_bulk::{args, cleanup, cmd, output};

fn main() -> ExitCode {
    // Temporary output files are removed on Ctrl-C, SIGTERM, SIGHUP,
    // SIGPIPE, SIGBUS from a shrinking input, and panics.
    cleanup::install();
    match run() {
        Ok(code) => code,
        Err(err) if cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("sudoku-bulk: {err:#}");
            ExitCode::from(cmd::EXIT_ERROR)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    match args::parse() {
        args::Command::Bulk { jobs, output_dir } => {
            if let Some(dir) = output_dir.filter(|d| !d.is_dir()) {
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
            }
            bulk_all(&jobs)
        }
        args::Command::Bench(cfg) => cmd::bench(&cfg),
        args::Command::Check(cfg) => cmd::check(&cfg),
        args::Command::Generate(cfg) => cmd::generate(&cfg),
        args::Command::Rate(cfg) => cmd::rate(&cfg),
        args::Command::Dedupe(cfg) => sudoku_bulk::dedupe::dedupe(&cfg),
        args::Command::Overlap(cfg) => sudoku_bulk::dedupe::overlap(&cfg),
        args::Command::Completions(shell) => {
            let mut out = Vec::new();
            args::write_completions(shell, &mut out);
            print_all(&out)
        }
        args::Command::Man => {
            let mut out = Vec::new();
            args::write_man(&mut out)?;
            print_all(&out)
        }
    }
}

/// Writes `bytes` to stdout; a reader gone early (`| head`) is no error.
fn print_all(bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let mut w = std::io::stdout().lock();
    match w.write_all(bytes).and_then(|()| w.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("<stdout>: cannot write"))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Runs one bulk job per input, in order. A failing input (unreadable, a
/// usage error such as an output that is its input) is reported and the
/// others still run, as `rg` and `cat` go on; the exit status is the worst
/// (2 over 1 over 0). A reader gone early ends the whole run.
fn bulk_all(cfgs: &[args::BulkConfig]) -> anyhow::Result<ExitCode> {
    let several = cfgs.len() > 1;
    let mut worst = cmd::EXIT_OK;
    for cfg in cfgs {
        // `sudoku-bulk solve` typed alone would wait without a word.
        if cfg.input.is_none() && std::io::stdin().is_terminal() {
            output::note(format_args!(
                "reading puzzles from the terminal; end with Ctrl-D (or give a FILE, see --help)"
            ));
        }
        let code = match cmd::bulk(cfg) {
            Ok(code) if code == ExitCode::SUCCESS => cmd::EXIT_OK,
            Ok(code) if code == ExitCode::from(cmd::EXIT_BAD_RECORDS) => cmd::EXIT_BAD_RECORDS,
            Ok(_) => cmd::EXIT_ERROR,
            Err(err) if cmd::is_broken_pipe(&err) => return Ok(ExitCode::SUCCESS),
            Err(err) if !several => return Err(err),
            Err(err) => {
                eprintln!("sudoku-bulk: {err:#}");
                cmd::EXIT_ERROR
            }
        };
        worst = worst.max(code);
    }
    Ok(ExitCode::from(worst))
}
