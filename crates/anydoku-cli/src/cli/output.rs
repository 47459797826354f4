//! Where the commands write: standard output, output files, and what a failed write means.
//!
//! Every write error is an error: a full disk or a vanished file ends the command with exit 2
//! and `error: cannot write standard output: ...` (nothing is silently lost). The one exception
//! is a closed pipe (`anydoku generate --count 1000000 | head -2`): the reader has what it
//! wanted, so the run ends at once, quietly, with exit 0. Standard error is best effort (see
//! `errln!`): when it fails there is nowhere left to report anything.

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use anydoku::Error;

use super::input::CliError;

/// Writes to standard output (what [`outln!`] and [`out!`] expand to).
pub fn print(args: fmt::Arguments) -> Result<(), CliError> {
    io::stdout().lock().write_fmt(args).map_err(stdout_error)
}

/// Writes bytes to standard output.
pub fn print_bytes(bytes: &[u8]) -> Result<(), CliError> {
    io::stdout().lock().write_all(bytes).map_err(stdout_error)
}

/// Flushes standard output (its last line may still sit in the buffer).
pub fn flush() -> Result<(), CliError> {
    io::stdout().lock().flush().map_err(stdout_error)
}

/// The error for a failed write to standard output; a closed pipe ends the run here.
pub fn stdout_error(e: io::Error) -> CliError {
    write_error("standard output", &e)
}

/// The error for a failed write to `what` (a file name, or "standard output"); a closed pipe
/// ends the run here, quietly, with exit 0.
pub fn write_error(what: &str, e: &io::Error) -> CliError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    Error::puzzle(format!("cannot write {what}: {}", write_reason(e))).into()
}

/// Why a write failed, in the user's words rather than the system's (`os error 2`).
fn write_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "its folder does not exist".to_string(),
        io::ErrorKind::StorageFull => "no space left on the device".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::IsADirectory => "it is a folder, not a file".to_string(),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".to_string(),
        _ => e.to_string(),
    }
}

/// Writes a whole file (`-o FILE`), with a write error naming the file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    std::fs::write(path, bytes).map_err(|e| write_error(&path.display().to_string(), &e))
}
