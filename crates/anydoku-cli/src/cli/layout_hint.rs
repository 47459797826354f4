//! The message for grid text given without its layout: `solve 4.....8.5…` or `solve grid.txt`
//! with no `--geometry`. A puzzle file names its layout itself, so such text fails as a file;
//! instead of the TOML reader's complaint (or "no such file"), the user is told which built-in
//! layouts the text fits as givens, and to name one with `--geometry`.
//!
//! The fit is decided by the library's own grid reader on each built-in layout, so what the
//! message offers is exactly what `--geometry NAME` then accepts.

use std::io::Read as _;
use std::path::Path;
use std::sync::Arc;

use anydoku::{Error, Geometry, Puzzle};

/// The message replacing `error` when `arg` (a missing file read as the givens themselves, or
/// a file of text that is not a puzzle file) fits some built-in layout as grid text: the whole
/// text, or its first line for a file of one puzzle per line. `None` keeps `error` as it is.
pub fn grid_without_layout(arg: &str, error: &Error) -> Option<String> {
    let path = Path::new(arg);
    let (text, is_file) = match error {
        Error::Syntax { .. } if path.is_file() => (anydoku::puzzle::read_text(path).ok()?, true),
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            (arg.to_string(), false)
        }
        Error::UnknownGeometry { .. } => (arg.to_string(), false),
        _ => return None,
    };
    let mut fits = fitting_layouts(&text);
    let mut subject = "it";
    if fits.is_empty() {
        subject = "its first line";
        let first = first_line(&text)?;
        if first.len() == text.trim().len() {
            return None;
        }
        fits = fitting_layouts(first);
    }
    let what = if is_file {
        format!("{arg} holds grid text, not a puzzle file (TOML or JSON)")
    } else {
        format!("there is no file '{}'", shortened(arg))
    };
    Some(format!("{what}; {}", suggestion(subject, &fits)?))
}

/// For `batch` without `--geometry`: which built-in layouts the first line of the file at
/// `path` fits, and the `--geometry` to pass; `None` when it fits none or cannot be read.
pub fn for_lines_file(path: &Path) -> Option<String> {
    // a bounded read: a line longer than any built-in grid's text fits none of them anyway
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(1 << 16)
        .read_to_end(&mut head)
        .ok()?;
    let head = String::from_utf8_lossy(&head);
    let fits = fitting_layouts(first_line(head.trim_start_matches('\u{feff}'))?);
    suggestion("its first line", &fits)
}

/// The first line of `text` that is neither blank nor a `#` comment, trimmed.
fn first_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
}

/// "as givens SUBJECT fits the built-in layouts …: name the layout with --geometry, e.g. …",
/// or `None` when `fits` is empty.
fn suggestion(subject: &str, fits: &[&str]) -> Option<String> {
    let example = fits.first()?;
    Some(format!(
        "as givens {subject} fits the built-in layout{} {}: name the layout with --geometry, \
         e.g. `--geometry {example}`",
        if fits.len() == 1 { "" } else { "s" },
        fits.join(", ")
    ))
}

/// The built-in layouts on which `text` reads as givens.
fn fitting_layouts(text: &str) -> Vec<&'static str> {
    Geometry::builtin_names()
        .filter(|name| {
            Geometry::builtin(name).is_ok_and(|g| Puzzle::from_text(Arc::new(g), text).is_ok())
        })
        .collect()
}

/// `arg` cut to its first 24 characters (a givens string can run to hundreds).
fn shortened(arg: &str) -> String {
    match arg.char_indices().nth(24) {
        Some((end, _)) => format!("{}…", &arg[..end]),
        None => arg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn not_found(arg: &str) -> Error {
        Error::io(arg, std::io::Error::from(std::io::ErrorKind::NotFound))
    }

    #[test]
    fn a_givens_line_names_the_layouts_it_fits() {
        let m = grid_without_layout(LINE, &not_found(LINE)).unwrap();
        assert!(
            m.starts_with("there is no file '4.....8.5.3..........7..…'"),
            "{m}"
        );
        assert!(
            m.contains("layouts classic9, x, windoku, jigsaw, toroidal"),
            "{m}"
        );
        assert!(m.contains("`--geometry classic9`"), "{m}");
    }

    #[test]
    fn text_that_fits_no_layout_keeps_the_error() {
        assert_eq!(grid_without_layout("4....", &not_found("4....")), None);
        assert_eq!(
            grid_without_layout("puzzle.toml", &not_found("puzzle.toml")),
            None
        );
        let other = Error::puzzle("something else");
        assert_eq!(grid_without_layout(LINE, &other), None);
    }
}
