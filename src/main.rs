//! Entry point: parse arguments, run the command, map the outcome to an exit
//! status (0 all good, 1 bad records, 2 usage or I/O error, 101 a panic,
//! 128 + N killed by signal N).

use std::process::ExitCode;

use sudoku_bulk::{args, cleanup, cmd};

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
        args::Command::Bulk(cfg) => cmd::bulk(&cfg),
        args::Command::Bench(cfg) => cmd::bench(&cfg),
        args::Command::Check(cfg) => cmd::check(&cfg),
        args::Command::Generate(cfg) => cmd::generate(&cfg),
        args::Command::Rate(cfg) => cmd::rate(&cfg),
    }
}
