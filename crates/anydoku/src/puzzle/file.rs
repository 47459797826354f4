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
use crate::geometry::spec::{CageSpec, GeometrySpec, PatternSpec, ShapeSpec};
use crate::geometry::{build, builtin, Geometry};

/// The geometry of a puzzle file: a name/path, or inline.
#[derive(Debug, Clone)]
pub enum GeometryRef {
    Named(String),
    Inline(Box<GeometrySpec>),
}

/// A string is a name or path, a table an inline geometry. (Written out rather than derived
/// with `#[serde(untagged)]`, which buffers the table and so loses the positions its fields
/// need: an inline geometry never parsed.)
impl<'de> Deserialize<'de> for GeometryRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = GeometryRef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a geometry name or path, or a [geometry] table")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<GeometryRef, E> {
                Ok(GeometryRef::Named(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<GeometryRef, A::Error> {
                let spec =
                    GeometrySpec::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(GeometryRef::Inline(Box::new(spec)))
            }
        }
        d.deserialize_any(V)
    }
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
    /// Shapes of any kind added to the geometry (thermometers on a classic grid, ...).
    #[serde(default)]
    pub shape: Vec<Spanned<ShapeSpec>>,
    /// Patterns added to the geometry (`kind = "anti-knight"`).
    #[serde(default)]
    pub pattern: Vec<Spanned<PatternSpec>>,
}

/// Reads a text file from disk with a message in the user's terms: at most
/// [`crate::InputLimits::MAX_FILE_BYTES`] (checked before reading, and while reading for files
/// whose size is not known, like `/dev/zero`), UTF-8, a byte-order mark at the start dropped.
pub fn read_text(path: &Path) -> Result<String, Error> {
    use std::io::Read;
    let io = |message: String| {
        Error::io(
            path.display(),
            std::io::Error::new(std::io::ErrorKind::InvalidData, message),
        )
    };
    let describe = |e: std::io::Error| Error::io(path.display(), e);
    let limit = crate::limits::MAX_FILE_BYTES;
    let too_big = |size: u64| {
        io(format!(
            "the file has {size} bytes or more, over the limit of {limit} (see docs/LIMITS.md)"
        ))
    };
    let file = std::fs::File::open(path).map_err(describe)?;
    let size = file.metadata().map_err(describe)?.len();
    if size > limit {
        return Err(too_big(size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(describe)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = crate::error::Location::of_offset(
            std::str::from_utf8(&e.as_bytes()[..e.utf8_error().valid_up_to()]).unwrap_or(""),
            e.utf8_error().valid_up_to(),
        );
        io(format!(
            "the file is not UTF-8 text (a bad byte at line {}, column {})",
            at.line, at.column
        ))
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
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
    let spec: PuzzleSpec = toml::from_str(text).map_err(|e| build::table_error(&e, text))?;
    let span = spec.geometry.span();
    let geometry = match spec.geometry.get_ref() {
        GeometryRef::Named(name) => resolve_geometry(name, base).map_err(|e| {
            // an error inside another file: say where in it, and point here at the reference
            let inner = match e.location() {
                Some(at) if builtin::text(name).is_none() => Error::puzzle(format!(
                    "in the geometry file {name}, line {}, column {}: {e}",
                    at.line, at.column
                )),
                _ => e,
            };
            inner.with_location(None).at(text, Some(span.clone()))
        })?,
        GeometryRef::Inline(g) => build::from_spec(g, text)?,
    };
    let geometry = if spec.cage.is_empty() && spec.shape.is_empty() && spec.pattern.is_empty() {
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
            // each cage is checked on its own first, so a message points at it
            let cage = build::cage_shape(c, i, &index, text).and_then(|cage| {
                build::check_shape(&cage, &geometry.symbols, &geometry.cells)?;
                Ok(cage)
            });
            cages.push(cage.map_err(|e| e.at(text, Some(c.span())))?);
        }
        build::overlapping_cage(&cages, &geometry.cells)
            .map_err(|(i, e)| Error::from(e).at(text, Some(spec.cage[i].span())))?;
        let (symbols, all) = (&geometry.symbols, &geometry.cells);
        let mut extra = build::extra_shapes(&spec.shape, &index, symbols, all, text)?;
        let n = geometry.cell_count();
        extra.extend(build::pattern_shapes(
            &spec.pattern,
            &index,
            n,
            symbols,
            text,
        )?);
        extra.extend(cages);
        let g = geometry
            .with_extra_shapes(extra)
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
            // a bare word is meant as a built-in name, not a file
            if !name.contains(['/', '\\', '.']) {
                return Err(crate::error::unknown_geometry(name));
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

/// A TOML puzzle file of `p` that [`from_toml`] reads back as the same puzzle: `geometry =
/// "<geometry>"` (how the file names the layout: a built-in name, or a path relative to the
/// file), the givens as the text drawing, and a `[[cage]]` for each shape after the first
/// `base` shapes of the geometry (what a Killer adds to its layout). Each line of `comment`
/// goes first, after `# `. An added shape that is not a sum cannot be written as a cage.
pub fn to_toml(p: &Puzzle, geometry: &str, base: usize, comment: &str) -> Result<String, Error> {
    use std::fmt::Write as _;
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let g = &p.geometry;
    let mut out = String::new();
    for line in comment.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "geometry = {}", quote(geometry));
    let drawing = crate::render::text(g, &p.givens);
    if drawing.contains("'''") {
        let _ = writeln!(out, "givens = {}", quote(&drawing));
    } else {
        let _ = writeln!(out, "givens = '''\n{drawing}'''");
    }
    for s in g.shapes.iter().skip(base) {
        write_shape(&mut out, s, g)?;
    }
    Ok(out)
}

/// Writes shape `s` of `g` as a puzzle file entry: a sum as a `[[cage]]`, a pattern as a
/// `[[pattern]]` (its cells only when it does not cover them all), any other kind as a
/// `[[shape]]` with its rule and keys.
fn write_shape(out: &mut String, s: &crate::geometry::Shape, g: &Geometry) -> Result<(), Error> {
    use std::fmt::Write as _;
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let cells: Vec<&str> = s.cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
    let cells = quote(&cells.join(" "));
    if let crate::geometry::Rule::Sum { total, unique } = s.rule {
        let _ = writeln!(out, "\n[[cage]]\nname = {}", quote(&s.name));
        let _ = writeln!(out, "cells = {cells}\nsum = {total}");
        if !unique {
            let _ = writeln!(out, "unique = false");
        }
        return Ok(());
    }
    let kind = crate::kinds::of(&s.rule);
    if kind.is_pattern() {
        let _ = writeln!(out, "\n[[pattern]]\nkind = {}", quote(kind.name()));
        if s.name != kind.title() {
            let _ = writeln!(out, "name = {}", quote(&s.name));
        }
        if s.cells.len() != g.cell_count() {
            let _ = writeln!(out, "cells = {cells}");
        }
    } else {
        let _ = writeln!(out, "\n[[shape]]\nname = {}", quote(&s.name));
        let _ = writeln!(out, "rule = {}\ncells = {cells}", quote(kind.name()));
    }
    for (key, value) in crate::kinds::write(&s.rule, &g.symbols) {
        let v = toml::Value::try_from(&value).map_err(|e| {
            Error::puzzle(format!(
                "shape '{}': its key {key} = {value} has no TOML form ({e})",
                s.name
            ))
        })?;
        let _ = writeln!(out, "{key} = {v}");
    }
    Ok(())
}

/// Loads givens for a known geometry from a file of grid text or from the string itself.
pub fn load_with_geometry(arg: &str, geometry: Arc<Geometry>) -> Result<Puzzle, Error> {
    let givens = grid_arg(&geometry, arg)?;
    Ok(Puzzle { geometry, givens })
}

/// Grid text given as an argument: the file of that name, or the text itself. Text that is not
/// a grid but looks like a file name (it has a `/` or an extension) is taken for a file that is
/// missing, and said so, rather than read as a grid of the wrong size.
pub fn grid_arg(geometry: &Geometry, arg: &str) -> Result<Vec<Option<u8>>, Error> {
    let path = Path::new(arg);
    if path.is_file() {
        return text::parse_grid(geometry, &read_text(path)?);
    }
    text::parse_grid(geometry, arg).map_err(|e| {
        let extension = path.extension().and_then(|x| x.to_str()).is_some_and(|x| {
            (1..=8).contains(&x.len())
                && x.chars().all(|c| c.is_ascii_alphanumeric())
                && x.starts_with(|c: char| c.is_ascii_alphabetic())
        });
        if arg.contains(['/', '\\']) || extension {
            Error::io(
                arg,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            )
        } else {
            e
        }
    })
}
