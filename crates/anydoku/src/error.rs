//! The library's error type: what went wrong, in the user's terms, and where in the input.
//!
//! Every error that comes from a text carries the [`Location`] (line and column) it was found
//! at, when known; an error that comes from another library's error keeps it as its `source`.

use std::sync::Arc;

use crate::geometry::GeometryError;
use crate::symbols::SymbolError;

/// A 1-based line and column in an input text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
}

impl Location {
    /// The byte offset of this location in `text` (the end of `text` when it lies beyond).
    pub fn offset_in(self, text: &str) -> usize {
        let mut start = 0;
        for _ in 1..self.line {
            match text[start..].find('\n') {
                Some(i) => start += i + 1,
                None => return text.len(),
            }
        }
        text[start..]
            .char_indices()
            .nth(self.column.saturating_sub(1))
            .map_or(text.len(), |(i, _)| start + i)
    }

    /// The line and column of byte offset `offset` in `text`.
    pub fn of_offset(text: &str, offset: usize) -> Self {
        let offset = offset.min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = text[line_start..offset].chars().count() + 1;
        Location { line, column }
    }
}

/// Everything that can go wrong when reading geometries and puzzles.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// The text is not valid TOML/JSON, or has unknown or missing keys.
    #[error("{message}")]
    Syntax {
        /// What is wrong, in the reader's words.
        message: String,
        /// Where.
        location: Option<Location>,
    },
    /// The geometry is inconsistent.
    #[error("{source}")]
    Geometry {
        /// What is inconsistent.
        source: GeometryError,
        /// Where it was written, when known.
        location: Option<Location>,
    },
    /// The puzzle's givens do not fit its geometry.
    #[error("{message}")]
    Puzzle {
        /// What does not fit.
        message: String,
        /// Where, when known.
        location: Option<Location>,
    },
    /// A geometry name that is neither built in nor a file.
    #[error(
        "unknown geometry '{name}': no such file, and no built-in layout has that name{}",
        builtin_hint(name)
    )]
    UnknownGeometry {
        /// The name as written.
        name: String,
        /// Where it was written, when known.
        location: Option<Location>,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {}", io_message(source))]
    Io {
        /// The file.
        path: String,
        /// Why it could not be read (shared, so that errors can be cloned).
        source: Arc<std::io::Error>,
    },
}

/// An I/O error in the user's terms ("no such file" rather than the system's wording).
fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::IsADirectory => "it is a folder, not a file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

impl Error {
    /// Where in the input the problem is, if known.
    pub fn location(&self) -> Option<Location> {
        match self {
            Error::Syntax { location, .. }
            | Error::Geometry { location, .. }
            | Error::Puzzle { location, .. }
            | Error::UnknownGeometry { location, .. } => *location,
            _ => None,
        }
    }

    /// A puzzle error without a location.
    pub fn puzzle(message: impl Into<String>) -> Self {
        Error::Puzzle {
            message: message.into(),
            location: None,
        }
    }

    /// A file that could not be read (or is not UTF-8 text, as [`std::io::ErrorKind::InvalidData`]).
    pub fn io(path: impl std::fmt::Display, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_string(),
            source: Arc::new(source),
        }
    }

    /// The same error at `location` (replacing the one it had).
    pub fn with_location(self, location: Option<Location>) -> Self {
        match self {
            Error::Syntax { message, .. } => Error::Syntax { message, location },
            Error::Geometry { source, .. } => Error::Geometry { source, location },
            Error::Puzzle { message, .. } => Error::Puzzle { message, location },
            Error::UnknownGeometry { name, .. } => Error::UnknownGeometry { name, location },
            other => other,
        }
    }

    /// Attaches a location (from a byte span in `text`) if the error has none yet.
    pub fn at(self, text: &str, span: Option<std::ops::Range<usize>>) -> Self {
        let Some(span) = span else { return self };
        let here = Some(Location::of_offset(text, span.start));
        match self {
            Error::Syntax { message, location } => Error::Syntax {
                message,
                location: location.or(here),
            },
            Error::Geometry { source, location } => Error::Geometry {
                source,
                location: location.or(here),
            },
            Error::Puzzle { message, location } => Error::Puzzle {
                message,
                location: location.or(here),
            },
            Error::UnknownGeometry { name, location } => Error::UnknownGeometry {
                name,
                location: location.or(here),
            },
            other => other,
        }
    }

    /// Converts a toml parse error, keeping its position.
    pub fn from_toml(err: &toml::de::Error, text: &str) -> Self {
        Error::Syntax {
            message: err.message().trim_end().to_string(),
            location: err.span().map(|s| Location::of_offset(text, s.start)),
        }
    }

    /// Converts a serde_json error, keeping its position.
    pub fn from_json(err: &serde_json::Error) -> Self {
        let location = (err.line() > 0).then(|| Location {
            line: err.line(),
            column: err.column(),
        });
        let mut message = err.to_string();
        if let Some(i) = message.find(" at line ") {
            message.truncate(i);
        }
        Error::Syntax { message, location }
    }
}

/// "; did you mean 'x'? The built-in layouts are ..." for a name that is not built in.
fn builtin_hint(name: &str) -> String {
    let names: Vec<&str> = crate::geometry::Geometry::builtin_names().collect();
    let close = did_you_mean(name, &names);
    format!(
        "{}; the built-in layouts are {} (`anydoku geometries`)",
        if close.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {close}?)")
        },
        names.join(", ")
    )
}

/// The candidates closest to `name` (at most two edits away, or three for long names), quoted
/// and joined with "or"; empty when none is close. Case is ignored.
pub fn did_you_mean(name: &str, candidates: &[&str]) -> String {
    let name = name.to_lowercase();
    let most = if name.chars().count() > 8 { 3 } else { 2 };
    let mut close: Vec<(usize, &str)> = candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(&name, &c.to_lowercase()), *c))
        .filter(|&(d, _)| d <= most)
        .collect();
    close.sort();
    let best = close.first().map_or(0, |c| c.0);
    let quoted: Vec<String> = close
        .iter()
        .filter(|c| c.0 == best)
        .take(3)
        .map(|c| format!("'{}'", c.1))
        .collect();
    quoted.join(" or ")
}

/// An unknown geometry name, without a location.
pub fn unknown_geometry(name: &str) -> Error {
    Error::UnknownGeometry {
        name: name.to_string(),
        location: None,
    }
}

impl From<GeometryError> for Error {
    fn from(source: GeometryError) -> Self {
        Error::Geometry {
            source,
            location: None,
        }
    }
}

impl From<SymbolError> for Error {
    fn from(source: SymbolError) -> Self {
        Error::Geometry {
            source: source.into(),
            location: None,
        }
    }
}
