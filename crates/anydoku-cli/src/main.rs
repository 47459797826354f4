//! The `anydoku` command line: parses arguments, calls the library, prints results.
//!
//! Exit codes: 0 ok (solved uniquely, check passed), 1 no solution, several solutions, unknown
//! (a budget ran out) or a failed check, 2 bad input (a clear message on stderr).

mod cli;
mod play;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
