//! Puzzles one per line, read fast: one-line grid text on a known geometry ([`TextLines`]) and
//! one-line JSON models ([`JsonLines`], what a `.jsonl` file holds), each reusing what the
//! previous lines built.

use std::sync::Arc;

use super::json;
use super::scan;
use super::text;
use super::Puzzle;
use crate::error::Error;
use crate::geometry::Geometry;

/// Reads one-line puzzles on one geometry: the first cells' worth of symbols of each line (as
/// grid text: single graphemes may run together, longer symbols are separated by spaces or
/// commas), `.` (or `0` when it is not a symbol) for an empty cell. Lines of single-byte
/// symbols are read through a byte table.
#[derive(Debug, Clone)]
pub struct TextLines {
    geometry: Arc<Geometry>,
    table: Option<[u8; 256]>,
}

impl TextLines {
    /// A reader for lines on `geometry`.
    pub fn new(geometry: Arc<Geometry>) -> Self {
        let table = text::byte_table(&geometry);
        TextLines { geometry, table }
    }

    /// The geometry the lines are read on.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// The givens of one line (symbol indices per cell, `None` for an empty cell).
    pub fn givens(&self, line: &str) -> Result<Vec<Option<u8>>, Error> {
        let g = &self.geometry;
        match self
            .table
            .as_ref()
            .and_then(|t| text::parse_line_bytes(t, g.cell_count(), line.as_bytes()))
        {
            Some(Ok(givens)) => Ok(givens),
            _ => text::parse_line(g, line),
        }
    }

    /// The puzzle of one line.
    pub fn read(&self, line: &str) -> Result<Puzzle, Error> {
        Ok(Puzzle {
            geometry: Arc::clone(&self.geometry),
            givens: self.givens(line)?,
        })
    }
}

/// Reads one-line JSON models (the lines of a `.jsonl` file), reusing the previous line's
/// geometry while the layout repeats: a file of Samurai puzzles builds one geometry, not one per
/// line, and a file of Killers on one grid reads only each line's cages. A line whose layout is
/// the previous line's gets the very same `Arc<Geometry>`, so a caller can keep per-geometry
/// state (an [`Engine`](crate::Engine)) while [`Arc::ptr_eq`] holds.
#[derive(Debug, Default)]
pub struct JsonLines {
    last: Option<(Box<[String; 4]>, Arc<Geometry>)>,
}

impl JsonLines {
    /// A reader with nothing cached.
    pub fn new() -> Self {
        Self::default()
    }

    /// The puzzle of one line.
    pub fn read(&mut self, line: &str) -> Result<Puzzle, Error> {
        // The line's members are found by a byte scan that checks the JSON and compares a known
        // layout's text instead of scanning it; in a file of one layout (a Samurai set) that is
        // all a line costs besides its givens.
        let known = self.last.as_ref().map(|(text, _)| &**text);
        let members = scan::split_members(line, known)
            .filter(|m| m.name.is_some() && m.layout_text().is_some());
        let Some(m) = members else {
            // not a plain model line: the full parser reports what is wrong (or, for a model the
            // scan leaves to it, reads it; such a line's layout is not cached)
            return json::from_model(&json::parse_model(line)?);
        };
        let text = m.layout_text().expect("checked above");
        let cached = self
            .last
            .as_ref()
            .filter(|(t, _)| t.each_ref().map(String::as_str) == text);
        let geometry = match cached {
            Some((_, g)) => Arc::clone(g),
            None => {
                // a line on the cached grid with other shapes (a Killer's cages) reads only its
                // shapes
                let same_grid = self
                    .last
                    .as_ref()
                    .filter(|(t, _)| t[..3].iter().zip(&text[..3]).all(|(a, b)| a == b));
                let geometry = match same_grid {
                    Some((_, g)) => scan::geometry_on_members(g, &m),
                    None => scan::geometry_from_members(&m),
                };
                // a member that does not parse gets the full parser's message (line and column)
                let geometry = Arc::new(geometry.map_err(|e| match e {
                    Error::Syntax { .. } => json::parse_model(line).err().unwrap_or(e),
                    e => e,
                })?);
                self.last = Some((Box::new(text.map(str::to_string)), Arc::clone(&geometry)));
                geometry
            }
        };
        let givens = scan::givens_from_text(&geometry, m.givens.unwrap_or("{}"))?;
        Ok(Puzzle { geometry, givens })
    }
}
