//! The `anydoku` command line: parses arguments, calls the library, prints results.
//!
//! Exit codes: 0 ok, 1 no solution, several solutions, unknown (a budget ran out) or a failed
//! check, 2 bad input or an I/O error (a clear message on stderr); `anydoku --help` and each
//! command's `--help` say what they mean for that command.

mod cli;
mod play;

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            // help and version go to standard output, and a failed write is an error there too
            let shown = cli::output::print(format_args!("{}", e.render()))
                .and_then(|()| cli::output::flush());
            return report(shown.map(|()| 0));
        }
        Err(e) => {
            let _ = write!(std::io::stderr(), "{}", e.render());
            return ExitCode::from(2);
        }
    };
    let result = cli::run(args);
    // the last line written may still sit in the buffer: a failed flush is a failed write
    let flushed = cli::output::flush();
    report(result.and_then(|code| flushed.map(|()| code)))
}

/// The exit code of a run, with its error (if any) on stderr.
fn report(result: Result<u8, cli::CliError>) -> ExitCode {
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        }
    }
}
