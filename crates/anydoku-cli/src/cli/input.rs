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
            // a read error names its file itself
            (_, _) if matches!(self.error, Error::Io { .. }) => write!(f, "{}", self.error),
            (Some(file), Some(loc)) => {
                write!(f, "{file}:{}:{}: {}", loc.line, loc.column, self.error)
            }
            // an unknown name says which name itself
            (Some(_), None) if matches!(self.error, Error::UnknownGeometry { .. }) => {
                write!(f, "{}", self.error)
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
        errln!("warning: {}: {w}", g.name);
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
            let p = Puzzle::load(&args.puzzle).map_err(|e| {
                match super::layout_hint::grid_without_layout(&args.puzzle, &e) {
                    Some(message) => CliError::from(Error::puzzle(message)),
                    None => in_file(&args.puzzle)(e),
                }
            })?;
            warn(&p.geometry);
            p
        }
    };
    Ok(p)
}

/// Reads a text file as the library does (at most its file size limit, UTF-8, a byte-order
/// mark dropped), with the library's error (and message) when it cannot.
pub fn read_text(path: &Path) -> Result<String, Error> {
    anydoku::puzzle::read_text(path)
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

/// The longest `--timeout` taken, in seconds (eleven and a half days).
pub const MAX_TIMEOUT_SECS: f64 = 1e6;
/// The most worker threads `--threads` starts.
pub const MAX_THREADS: usize = 256;

/// The library's limits from the budget arguments: `--timeout` must be a positive number of
/// seconds up to [`MAX_TIMEOUT_SECS`], `--max-nodes` at least 1.
pub fn limits(b: BudgetArgs) -> Result<anydoku::Limits, CliError> {
    let max_time = match b.timeout {
        Some(t) if !(t.is_finite() && t > 0.0 && t <= MAX_TIMEOUT_SECS) => {
            return Err(Error::puzzle(format!(
                "--timeout must be a positive number of seconds up to {MAX_TIMEOUT_SECS}, not {t}"
            ))
            .into())
        }
        // in range, so the conversion cannot fail
        Some(t) => std::time::Duration::try_from_secs_f64(t).ok(),
        None => None,
    };
    if b.max_nodes == Some(0) {
        return Err(Error::puzzle("--max-nodes must be at least 1").into());
    }
    Ok(anydoku::Limits {
        max_nodes: b.max_nodes,
        max_time,
    })
}

/// The worker pool for `--threads` (default: one thread per core), at most [`MAX_THREADS`].
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    if let Some(t) = threads.filter(|&t| t == 0 || t > MAX_THREADS) {
        return Err(Error::puzzle(format!(
            "--threads must be between 1 and {MAX_THREADS}, not {t}"
        ))
        .into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::puzzle(format!("cannot start worker threads: {e}")).into())
}

/// The budget of a command that runs several searches (`hint`, `solve --steps`): one deadline
/// for all of them, and `--max-nodes` for each.
#[derive(Debug, Clone, Copy)]
pub struct RunBudget {
    max_nodes: Option<u64>,
    deadline: Option<std::time::Instant>,
}

impl RunBudget {
    /// Starts the clock.
    pub fn start(limits: anydoku::Limits) -> Self {
        RunBudget {
            max_nodes: limits.max_nodes,
            deadline: limits.max_time.map(|t| std::time::Instant::now() + t),
        }
    }

    /// The limits of the next search: what is left of the time.
    pub fn left(&self) -> anydoku::Limits {
        anydoku::Limits {
            max_nodes: self.max_nodes,
            max_time: self
                .deadline
                .map(|d| d.saturating_duration_since(std::time::Instant::now())),
        }
    }

    /// Whether the time has run out.
    pub fn spent(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    }
}
