//! Entry point: parse arguments, run the command, map the outcome to an exit
//! status (0 all good, 1 bad records, 2 usage or I/O error, 101 a panic,
//! 128 + N killed by signal N).

use std::process::ExitCode;

use sudoku_bulk::{args, cmd};

fn main() -> ExitCode {
    // Temporary output files are removed on Ctrl-C, SIGTERM, SIGHUP,
    // SIGPIPE, SIGBUS from a shrinking input, and panics.
    cmd::install_cleanup();
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
        args::Command::Bulk { jobs, output_dir } => cmd::bulk_all(&jobs, output_dir.as_deref()),
        args::Command::Bench(cfg) => cmd::bench(&cfg),
        args::Command::Check(cfg) => cmd::check(&cfg),
        args::Command::Generate(cfg) => cmd::generate(&cfg),
        args::Command::Rate(cfg) => cmd::rate(&cfg),
        args::Command::Dedupe(cfg) => sudoku_bulk::dedupe::dedupe(&cfg),
        args::Command::Overlap(cfg) => sudoku_bulk::dedupe::overlap(&cfg),
        args::Command::Split(cfg) => sudoku_bulk::dedupe::split(&cfg),
        args::Command::Augment(cfg) => sudoku_bulk::augment::augment(&cfg),
        args::Command::Stats(cfg) => sudoku_bulk::dedupe::stats(&cfg),
        args::Command::Convert(cfg) => sudoku_bulk::convert::convert(&cfg),
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

/// Writes `bytes` to stdout through the output guard; a reader gone
/// early (`| head`) is no error.
fn print_all(bytes: &[u8]) -> anyhow::Result<ExitCode> {
    cmd::print_all(bytes).map(|()| ExitCode::SUCCESS)
}
