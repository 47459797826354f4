//! Puzzles: a geometry plus givens, and the ways to read and write them.
//!
//! A [`Puzzle`] is read from a TOML puzzle file ([`Puzzle::from_toml`], [`Puzzle::load`]), the
//! neutral JSON model ([`Puzzle::from_json`]), grid text on a known geometry
//! ([`Puzzle::from_text`]), an f-puzzles link ([`Puzzle::load`] takes those too), or one line at a
//! time ([`TextLines`], [`JsonLines`]); Killer puzzles published in other formats are read with
//! [`Source`]. It is written back as the JSON model ([`Puzzle::to_json`]), a line of text
//! ([`Puzzle::to_line`]) or an f-puzzles link ([`Puzzle::to_fpuzzles_url`]).
//!
//! The formats live in internal modules: `text` (one-line strings and grid text), `file` (TOML
//! puzzle files and the loader that accepts any supported input), `json` (the neutral model),
//! `scan` (fast reading of one-line JSON models), `fpuzzles` and `lzstring` (f-puzzles links),
//! `import` (Killer formats) and `lines` (the line readers). To add an input format, write a
//! reader that returns a [`Puzzle`] and hook it into `file::load_path`.

internal_mod!(file);
internal_mod!(fpuzzles);
internal_mod!(import);
internal_mod!(json);
mod lines;
internal_mod!(lzstring);
internal_mod!(scan);
internal_mod!(text);

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::engine::{Count, Engine, Limits};
use crate::error::Error;
use crate::geometry::{CellId, Geometry, Rule, ShapeId};
pub use file::read_text;
pub use import::{RawCage, RawKiller, Source};
pub use lines::{JsonLines, TextLines};

/// The values of a grid's cells, as symbol indices: what the renderers and
/// [`Geometry::grid_json`] take. Implemented for full grids (`[u8]`, as in
/// [`Count::solutions`]) and partial ones (`[Option<u8>]`, as in [`Puzzle::givens`]).
pub trait CellValues {
    /// The number of cells.
    fn cell_count(&self) -> usize;
    /// The symbol of a cell, `None` when it is empty.
    fn value(&self, cell: usize) -> Option<u8>;
    /// Every cell's value.
    fn to_grid(&self) -> Vec<Option<u8>> {
        (0..self.cell_count()).map(|c| self.value(c)).collect()
    }
}

impl CellValues for [u8] {
    fn cell_count(&self) -> usize {
        self.len()
    }
    fn value(&self, cell: usize) -> Option<u8> {
        Some(self[cell])
    }
}

impl CellValues for [Option<u8>] {
    fn cell_count(&self) -> usize {
        self.len()
    }
    fn value(&self, cell: usize) -> Option<u8> {
        self[cell]
    }
    fn to_grid(&self) -> Vec<Option<u8>> {
        self.to_vec()
    }
}

impl CellValues for Vec<u8> {
    fn cell_count(&self) -> usize {
        self.len()
    }
    fn value(&self, cell: usize) -> Option<u8> {
        Some(self[cell])
    }
}

impl CellValues for Vec<Option<u8>> {
    fn cell_count(&self) -> usize {
        self.len()
    }
    fn value(&self, cell: usize) -> Option<u8> {
        self[cell]
    }
    fn to_grid(&self) -> Vec<Option<u8>> {
        self.clone()
    }
}

/// A geometry with givens (symbol indices; `None` = empty).
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// The layout: cells, shapes and symbols.
    pub geometry: Arc<Geometry>,
    /// The givens, one per cell in the geometry's cell order, as symbol indices.
    pub givens: Vec<Option<u8>>,
}

/// A rule broken by the filled cells of a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// Two cells of a unique shape hold the same symbol.
    Repeat {
        /// The shape.
        shape: ShapeId,
        /// The two cells.
        cells: (CellId, CellId),
        /// The symbol (an index into the geometry's symbols).
        symbol: u8,
    },
    /// A sum shape's filled cells add up wrong (or already exceed what is reachable).
    Sum {
        /// The shape.
        shape: ShapeId,
        /// What its filled cells add up to.
        filled: i64,
    },
    /// A shape of another kind (a thermometer, an arrow, ...) whose cells are all filled breaks
    /// its rule.
    Broken {
        /// The shape.
        shape: ShapeId,
        /// How it is broken, in the geometry's names.
        why: String,
    },
}

impl Puzzle {
    /// Reads a TOML puzzle file's text: its geometry (a built-in name, or inline as a
    /// `[geometry]` table), its givens as grid text and any `[[cage]]`s. A geometry file on its
    /// own reads as the empty puzzle of that geometry. (A geometry named by a path is looked up
    /// from the working directory; [`Puzzle::load`] looks it up next to the file.)
    pub fn from_toml(text: &str) -> Result<Puzzle, Error> {
        file::from_toml(text, None)
    }

    /// Reads the neutral JSON model (symbols, cells, shapes, givens).
    pub fn from_json(text: &str) -> Result<Puzzle, Error> {
        json::from_json(text)
    }

    /// Reads givens written as grid text on `geometry`, one cell per geometry cell in cell
    /// order: a symbol, or `.` (or `0` when it is not a symbol) for an empty cell. Single
    /// graphemes may run together (`53..7....`); longer symbols stand apart, separated by
    /// spaces or commas (`5 3 . . 16`). The box lines of a text drawing (`|`, `-`, `+`) and
    /// lines starting with `#` are skipped, so every drawing [`crate::render::text`] makes
    /// reads back in.
    pub fn from_text(geometry: Arc<Geometry>, text: &str) -> Result<Puzzle, Error> {
        let givens = text::parse_grid(&geometry, text)?;
        Ok(Puzzle { geometry, givens })
    }

    /// Loads a puzzle from a path: a `.json` model, a TOML puzzle or geometry file, a file
    /// holding an f-puzzles link; or, when no such file exists, a built-in geometry name (the
    /// empty puzzle) or an f-puzzles link itself.
    pub fn load(path: impl AsRef<Path>) -> Result<Puzzle, Error> {
        file::load_path(path.as_ref())
    }

    /// Givens on a known geometry from `arg`: a file of grid text, or the grid text itself.
    pub fn load_on(geometry: Arc<Geometry>, arg: &str) -> Result<Puzzle, Error> {
        file::load_with_geometry(arg, geometry)
    }

    /// The neutral JSON model of the puzzle (what [`Puzzle::from_json`] reads).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(json::to_model(self)).expect("the model serialises")
    }

    /// The puzzle as a TOML puzzle file, read back by [`Puzzle::from_toml`] and
    /// [`Puzzle::load`] as the same puzzle: `geometry = "<geometry>"` (how the file names its
    /// layout: a built-in name, or a path relative to the file), the givens drawn as text, and
    /// a `[[cage]]` for each sum after the first `base` shapes of the puzzle's geometry (the
    /// cages a Killer adds to its layout; pass the layout's shape count) and a `[[shape]]` or
    /// `[[pattern]]` for each other added shape. `comment` lines go first, each after `# `.
    pub fn to_toml(&self, geometry: &str, base: usize, comment: &str) -> Result<String, Error> {
        file::to_toml(self, geometry, base, comment)
    }

    /// The givens as one line of text (`.` for an empty cell; see [`crate::render::line`]).
    pub fn to_line(&self) -> String {
        text::to_line(&self.geometry, &self.givens)
    }

    /// The puzzle as an f-puzzles link (classic, jigsaw, X and Killer layouts).
    pub fn to_fpuzzles_url(&self) -> Result<String, Error> {
        fpuzzles::to_url(self)
    }

    /// The f-puzzles JSON behind such a link.
    pub fn to_fpuzzles_json(&self) -> Result<Value, Error> {
        fpuzzles::to_json(self)
    }

    /// Counts solutions up to 2 (see [`Count::status`]) with a default [`Engine`].
    pub fn solve(&self, limits: Limits) -> Count {
        Engine::new(&self.geometry).solve(&self.givens, limits)
    }

    /// Counts solutions up to `limit` with a default [`Engine`].
    pub fn count(&self, limit: u64, limits: Limits) -> Count {
        Engine::new(&self.geometry).count(&self.givens, limit, limits)
    }

    /// An empty puzzle of a geometry.
    pub fn empty(geometry: Arc<Geometry>) -> Self {
        let n = geometry.cell_count();
        Puzzle {
            geometry,
            givens: vec![None; n],
        }
    }

    /// Number of givens.
    pub fn given_count(&self) -> usize {
        self.givens.iter().filter(|g| g.is_some()).count()
    }

    /// Every rule the filled cells break.
    pub fn conflicts(&self) -> Vec<Conflict> {
        conflicts_of(&self.geometry, &self.givens)
    }

    /// Describes a conflict with the geometry's own names.
    pub fn describe(&self, c: &Conflict) -> String {
        let g = &self.geometry;
        match c {
            Conflict::Repeat {
                shape,
                cells: (a, b),
                symbol,
            } => format!(
                "{} and {} are both '{}' in {}",
                g.cell(*a).name,
                g.cell(*b).name,
                g.symbols.symbol(*symbol as usize),
                g.shape(*shape).name
            ),
            Conflict::Sum { shape, filled } => {
                let s = g.shape(*shape);
                let total = match s.rule {
                    Rule::Sum { total, .. } => total,
                    _ => 0,
                };
                format!(
                    "{} must add up to {total} but its cells make {filled}",
                    s.name
                )
            }
            Conflict::Broken { shape, why } => format!("{}: {why}", g.shape(*shape).name),
        }
    }
}

/// Conflicts of a (partial) assignment in a geometry.
pub(crate) fn conflicts_of(g: &Geometry, grid: &[Option<u8>]) -> Vec<Conflict> {
    let mut out = Vec::new();
    let mut seen: Vec<Option<CellId>> = vec![None; g.symbol_count()];
    for (i, s) in g.shapes.iter().enumerate() {
        let shape = ShapeId(i as u32);
        if s.is_unique() {
            seen.iter_mut().for_each(|x| *x = None);
            for &c in &s.cells {
                if let Some(v) = grid[c.index()] {
                    match seen[v as usize] {
                        Some(first) => out.push(Conflict::Repeat {
                            shape,
                            cells: (first, c),
                            symbol: v,
                        }),
                        None => seen[v as usize] = Some(c),
                    }
                }
            }
        }
        if let Rule::Sum { total, .. } = s.rule {
            let filled: Vec<i64> = s
                .cells
                .iter()
                .filter_map(|c| grid[c.index()].map(|v| g.symbols.value(v as usize)))
                .collect();
            let sum: i64 = filled.iter().sum();
            let min_value = g.symbols.values().iter().copied().min().unwrap_or(0);
            let all = filled.len() == s.cells.len();
            let rest_min = (s.cells.len() - filled.len()) as i64 * min_value;
            if (all && sum != total) || (!all && min_value >= 0 && sum + rest_min > total) {
                out.push(Conflict::Sum { shape, filled: sum });
            }
        }
        if let Rule::Constraint(_) = s.rule {
            if let Some(why) = crate::kinds::broken(s, g, grid) {
                out.push(Conflict::Broken { shape, why });
            }
        }
    }
    out
}
