//! TOML puzzle files and the loader that accepts every puzzle input.
//!
//! A puzzle file names its geometry (a built-in name or a path relative to the file) or holds it
//! inline as a `[geometry]` table, and gives the givens as grid text; `[[cage]]` entries add
//! Killer cages. A geometry file on its own is read as the empty puzzle of that geometry.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use super::{json, text, Puzzle};
use crate::error::Error;
use crate::geometry::spec::{CageSpec, GeometrySpec};
use crate::geometry::{build, builtin, Geometry};

/// The geometry of a puzzle file: a name/path, or inline.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum GeometryRef {
    Named(String),
    Inline(Box<GeometrySpec>),
}

/// A puzzle file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleSpec {
    /// Accepted and not used (the geometry's name is the puzzle's).
    #[serde(default)]
    #[allow(dead_code)]
    pub name: Option<String>,
    pub geometry: Spanned<GeometryRef>,
    #[serde(default)]
    pub givens: Option<Spanned<String>>,
    #[serde(default)]
    pub cage: Vec<Spanned<CageSpec>>,
}

/// Reads a file from disk with a message in the user's terms.
pub fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path.display(), e))?;
    String::from_utf8(bytes).map_err(|_| {
        let e = std::io::Error::new(std::io::ErrorKind::InvalidData, "the file is not UTF-8 text");
        Error::io(path.display(), e)
    })
}

/// Resolves a geometry given by name or path (`base` is the directory paths are relative to).
pub fn resolve_geometry(name: &str, base: Option<&Path>) -> Result<Geometry, Error> {
    if let Some(text) = builtin::text(name) {
        return build::from_toml(text);
    }
    let path: PathBuf = match base {
        Some(b) if Path::new(name).is_relative() => b.join(name),
        _ => PathBuf::from(name),
    };
    if !path.is_file() {
        return Err(crate::error::unknown_geometry(name));
    }
    let text = read_text(&path)?;
    if path.extension().is_some_and(|e| e == "json") {
        return Ok(Arc::unwrap_or_clone(json::from_json(&text)?.geometry));
    }
    build::from_toml(&text)
}

/// Parses a TOML puzzle file (or a geometry file, read as its empty puzzle).
pub fn from_toml(text: &str, base: Option<&Path>) -> Result<Puzzle, Error> {
    if text.trim().is_empty() {
        return Err(Error::Syntax {
            message: "the file is empty".into(),
            location: None,
        });
    }
    let table: toml::Table = toml::from_str(text).map_err(|e| Error::from_toml(&e, text))?;
    if !table.contains_key("geometry") {
        let g = build::from_toml(text)?;
        return Ok(Puzzle::empty(Arc::new(g)));
    }
    let spec: PuzzleSpec = toml::from_str(text).map_err(|e| Error::from_toml(&e, text))?;
    let span = spec.geometry.span();
    let geometry = match spec.geometry.get_ref() {
        GeometryRef::Named(name) => {
            resolve_geometry(name, base).map_err(|e| e.at(text, Some(span.clone())))?
        }
        GeometryRef::Inline(g) => build::from_spec(g, text)?,
    };
    let geometry = if spec.cage.is_empty() {
        geometry
    } else {
        let index = geometry
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), crate::geometry::CellId(i as u32)))
            .collect();
        let mut cages = Vec::new();
        for (i, c) in spec.cage.iter().enumerate() {
            cages.push(build::cage_shape(c, i, &index).map_err(|e| e.at(text, Some(c.span())))?);
        }
        build::check_disjoint_cages(&cages, &geometry.cells)?;
        let g = geometry
            .with_extra_shapes(cages)
            .map_err(|e| Error::from(e).at(text, Some(span.clone())))?;
        build::check_sums(&g)?;
        g
    };
    let geometry = Arc::new(geometry);
    let givens = match &spec.givens {
        Some(g) => text::parse_grid(&geometry, g.get_ref())
            .map_err(|e| in_string(e, text, g.span(), g.get_ref()))?,
        None => vec![None; geometry.cell_count()],
    };
    Ok(Puzzle { geometry, givens })
}

/// `e`, found at a location inside the string `value` written at `span` of `text`, placed in
/// `text`: exactly when the string is written without escapes (as grid text always is), else at
/// the string's start.
fn in_string(e: Error, text: &str, span: std::ops::Range<usize>, value: &str) -> Error {
    let Some(inner) = e.location() else {
        return e.at(text, Some(span));
    };
    let raw = text.get(span.clone()).unwrap_or("");
    let open = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        // a newline right after the opening quotes is not part of the string
        let rest = &raw[3..];
        3 + [("\r\n", 2), ("\n", 1)]
            .iter()
            .find(|(nl, _)| rest.starts_with(nl))
            .map_or(0, |(_, n)| *n)
    } else {
        1
    };
    let body = raw.get(open..).unwrap_or("");
    let at = if body.starts_with(value) {
        span.start + open + inner.offset_in(value)
    } else {
        span.start
    };
    e.with_location(Some(crate::error::Location::of_offset(text, at)))
}

/// Loads a puzzle from a path: `.json` is the neutral model, anything else TOML. A bare built-in
/// geometry name that is not a file gives the empty puzzle of that geometry. An f-puzzles link,
/// base64 string or JSON (as the argument or the file's content) is read by [`super::fpuzzles`].
pub fn load_path(path: &Path) -> Result<Puzzle, Error> {
    if !path.exists() {
        if let Some(name) = path.to_str() {
            if builtin::text(name).is_some() {
                return Ok(Puzzle::empty(Arc::new(builtin::load(name)?)));
            }
            if super::fpuzzles::looks_like(name) {
                return super::fpuzzles::parse(name);
            }
        }
    }
    let text = read_text(path)?;
    if super::fpuzzles::looks_like(&text) {
        return super::fpuzzles::parse(&text);
    }
    let base = path.parent();
    let is_json =
        path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    if is_json {
        json::from_json(&text)
    } else {
        from_toml(&text, base)
    }
}

/// Loads givens for a known geometry from a file of grid text or from the string itself.
pub fn load_with_geometry(arg: &str, geometry: Arc<Geometry>) -> Result<Puzzle, Error> {
    let path = Path::new(arg);
    let text = if path.is_file() {
        read_text(path)?
    } else {
        arg.to_string()
    };
    let givens = text::parse_grid(&geometry, &text)?;
    Ok(Puzzle { geometry, givens })
}
