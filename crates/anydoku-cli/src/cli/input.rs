//! Reading the puzzle argument, and errors with the file name added.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use anydoku::{Error, Geometry, Puzzle};

use super::{BudgetArgs, PuzzleArgs};

/// An error with the file it came from, printed as `file:line:column: message`.
#[derive(Debug)]
pub struct CliError {
    pub file: Option<String>,
    pub error: Error,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.error.location()) {
            (Some(file), Some(loc)) => {
                write!(f, "{file}:{}:{}: {}", loc.line, loc.column, self.error)
            }
            (Some(file), None) => write!(f, "{file}: {}", self.error),
            (None, _) => write!(f, "{}", self.error),
        }
    }
}

impl From<Error> for CliError {
    fn from(error: Error) -> Self {
        CliError { file: None, error }
    }
}

/// Attaches a file name to a library error.
pub fn in_file(file: &str) -> impl Fn(Error) -> CliError + '_ {
    move |error| CliError {
        file: Some(file.to_string()),
        error,
    }
}

/// Loads a geometry by built-in name or path.
pub fn geometry(name: &str) -> Result<Arc<Geometry>, CliError> {
    let g = Geometry::load(name).map_err(in_file(name))?;
    warn(&g);
    Ok(Arc::new(g))
}

/// Prints a geometry's warnings on stderr.
pub fn warn(g: &Geometry) {
    for w in &g.warnings {
        eprintln!("warning: {}: {w}", g.name);
    }
}

/// Loads the puzzle named by the arguments.
pub fn puzzle(args: &PuzzleArgs) -> Result<Puzzle, CliError> {
    let p = match &args.geometry {
        Some(g) => {
            let g = geometry(g)?;
            let label = if Path::new(&args.puzzle).is_file() {
                args.puzzle.clone()
            } else {
                "givens".to_string()
            };
            Puzzle::load_on(g, &args.puzzle).map_err(in_file(&label))?
        }
        None => {
            let p = Puzzle::load(&args.puzzle).map_err(in_file(&args.puzzle))?;
            warn(&p.geometry);
            p
        }
    };
    Ok(p)
}

/// Reads a text file, with the library's error (and message) when it cannot.
pub fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path.display(), e))?;
    String::from_utf8(bytes).map_err(|_| {
        let e = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the file is not UTF-8 text",
        );
        Error::io(path.display(), e)
    })
}

/// Loads a puzzle and refuses givens that already break a rule.
pub fn solvable_puzzle(args: &PuzzleArgs) -> Result<Puzzle, CliError> {
    let p = puzzle(args)?;
    let conflicts = p.conflicts();
    if let Some(c) = conflicts.first() {
        return Err(in_file(&args.puzzle)(Error::puzzle(format!(
            "the givens break a rule: {}",
            p.describe(c)
        ))));
    }
    Ok(p)
}

/// The library's limits from the budget arguments.
pub fn limits(b: BudgetArgs) -> Result<anydoku::Limits, CliError> {
    let max_time = match b.timeout {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(Error::puzzle(format!(
                "--timeout must be a positive number of seconds, not {t}"
            ))
            .into())
        }
        Some(t) => Some(std::time::Duration::from_secs_f64(t)),
        None => None,
    };
    Ok(anydoku::Limits {
        max_nodes: b.max_nodes,
        max_time,
    })
}
