//! Geometry: the cells of a puzzle and the shapes that constrain them.
//!
//! A [`Geometry`] is the validated cell–shape model every other part of anydoku works on: a list of
//! [`Cell`]s (name and drawing position) and a list of [`Shape`]s (a set of cells with a [`Rule`]).
//! It is built from a TOML geometry file ([`Geometry::from_toml`], [`Geometry::load`]; the
//! internal module `spec` is its serde model, `build` expands grids, regions, diagonals and
//! selectors into cells and shapes), taken from the built-in layouts ([`Geometry::builtin`],
//! kept in `builtin`), or read with a puzzle from the neutral JSON model. The internal `graph`
//! holds the cell–shape graph on petgraph, used for validation; `partition` derives the sum
//! shapes of the law of 45 ([`Geometry::with_derived_sums`]).
//!
//! To add a new kind of generator (say, a "windows" key on grids), add the field to
//! `spec::GridSpec` and expand it in `build`; nothing downstream changes, because every
//! generator ends up as plain shapes.

internal_mod!(build);
internal_mod!(builtin);
internal_mod!(graph);
internal_mod!(partition);
internal_mod!(selector);
internal_mod!(spec);

use serde_json::{Map, Value};

use crate::error::Error;
use crate::limits;
use crate::puzzle::CellValues;
use crate::symbols::SymbolSet;

/// Index of a cell in [`Geometry::cells`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId(pub u32);

/// Index of a shape in [`Geometry::shapes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeId(pub u32);

impl CellId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl ShapeId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A cell: a name (`r3c4`, or any name for explicit cells) and where to draw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The cell's name, unique in its geometry.
    pub name: String,
    /// Drawing position `[x, y]` of the cell's centre in cell units (x right, y down).
    pub pos: [f64; 2],
    /// Board coordinates `(row, col)` (1-based) for cells on the board.
    pub board: Option<(i32, i32)>,
    /// Optional outline polygon for drawing non-square cells (e.g. Tredoku rhombi).
    pub poly: Option<Vec<[f64; 2]>>,
}

/// What a shape demands of its cells: one of the constraint kinds of the registry (the
/// internal module `kinds`). Unique and sum shapes, which the engine's fastest paths know by
/// name, have variants of their own; every other kind is a [`Constraint`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Rule {
    /// No symbol twice; with as many cells as symbols, every symbol exactly once.
    Unique,
    /// The cells' values add up to `total`; with `unique`, also no symbol twice.
    Sum {
        /// What the values add up to.
        total: i64,
        /// Whether no symbol may repeat either.
        unique: bool,
    },
    /// A constraint of any other kind (thermometer, arrow, kropki dot, ...).
    Constraint(Constraint),
}

/// A constraint of a registered kind other than unique and sum: the kind and its numbers (what
/// they mean is the kind's business; see the kind's module).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub(crate) kind: u16,
    pub(crate) params: Vec<i64>,
}

impl Constraint {
    /// The kind's name, as written in files ("thermometer", "anti-knight", ...).
    pub fn kind(&self) -> &'static str {
        crate::kinds::by_id(self.kind).name()
    }

    /// The kind's numbers.
    pub fn params(&self) -> &[i64] {
        &self.params
    }
}

impl Rule {
    /// The name of the rule's kind, as written in files ("unique", "sum", "thermometer", ...).
    pub fn kind(&self) -> &'static str {
        crate::kinds::of(self).name()
    }
}

/// Where a shape came from. Used only for names and drawing, never by the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeKind {
    /// A row of a grid.
    Row,
    /// A column of a grid.
    Column,
    /// A box of a grid.
    Box,
    /// A jigsaw region.
    Region,
    /// A diagonal.
    Diagonal,
    /// Any other shape (windows, explicit shapes, shapes read from JSON).
    Extra,
    /// A Killer cage.
    Cage,
}

/// A set of cells with a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// A readable name ("Row 3", "Box 5 of grid 2", "Cage 12").
    pub name: String,
    /// What the shape demands.
    pub rule: Rule,
    /// Its cells, no cell twice.
    pub cells: Vec<CellId>,
    /// Where it came from (for names and drawing only).
    pub kind: ShapeKind,
}

impl Shape {
    /// Whether the shape forbids repeated symbols.
    pub fn is_unique(&self) -> bool {
        match &self.rule {
            Rule::Unique | Rule::Sum { unique: true, .. } => true,
            Rule::Sum { unique: false, .. } => false,
            Rule::Constraint(c) => crate::kinds::by_id(c.kind).distinct(&c.params),
        }
    }
}

/// Errors found while building or validating a geometry.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// The symbol set is invalid.
    #[error(transparent)]
    Symbols(#[from] crate::symbols::SymbolError),
    /// No cells at all.
    #[error("the geometry has no cells")]
    NoCells,
    /// Two cells with one name.
    #[error("cell name '{0}' is used twice")]
    DuplicateCellName(String),
    /// A shape or cage names a cell that does not exist.
    #[error("{} (in {context})", unknown_cell(cell))]
    UnknownCell {
        /// The cell as written.
        cell: String,
        /// Where it was named.
        context: String,
    },
    /// A shape lists a cell twice.
    #[error("shape '{shape}' lists cell {cell} twice")]
    DuplicateCellInShape {
        /// The shape.
        shape: String,
        /// The cell.
        cell: String,
    },
    /// A unique shape with more cells than there are symbols.
    #[error("shape '{shape}' has {cells} cells but there are only {symbols} symbols, so it cannot hold them without a repeat")]
    ShapeTooLarge {
        /// The shape.
        shape: String,
        /// Its cells.
        cells: usize,
        /// The symbols.
        symbols: usize,
    },
    /// A shape without cells.
    #[error("shape '{0}' has no cells")]
    EmptyShape(String),
    /// Anything else that makes the geometry inconsistent (an impossible sum, overlapping
    /// cages, ...).
    #[error("{0}")]
    Invalid(String),
    /// A number over one of the limits of [`crate::InputLimits`].
    #[error("{0}")]
    Limit(String),
}

/// What is wrong with a cell name that names no cell.
fn unknown_cell(cell: &str) -> String {
    if build::parse_board_name(cell).is_some() {
        format!("cell {cell} is outside every grid")
    } else {
        format!("there is no cell named '{cell}'")
    }
}

/// A validated geometry: symbols, cells and shapes.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The geometry's name (its title, or the built-in name).
    pub name: String,
    /// The symbols and their values.
    pub symbols: SymbolSet,
    /// The cells, shared by the geometries built on one grid ([`Geometry::with_shapes`]).
    pub cells: std::sync::Arc<[Cell]>,
    /// The shapes, in the order they were written (duplicates dropped).
    pub shapes: Vec<Shape>,
    /// Things worth telling the user that do not stop solving (cells in no shape, disconnected parts).
    pub warnings: Vec<String>,
    by_name: std::sync::Arc<rustc_hash::FxHashMap<String, CellId>>,
}

impl Geometry {
    /// Validates cells and shapes and builds a geometry.
    ///
    /// Shapes with exactly the same cells and rule as an earlier shape are dropped (the first name
    /// is kept), so overlapping multi-grids do not double their shared boxes.
    pub fn new(
        name: String,
        symbols: SymbolSet,
        cells: Vec<Cell>,
        shapes: Vec<Shape>,
    ) -> Result<Self, GeometryError> {
        if cells.is_empty() {
            return Err(GeometryError::NoCells);
        }
        limits::check_cells(cells.len())?;
        limits::check_name("geometry", &name)?;
        check_cells(&cells)?;
        let mut by_name =
            rustc_hash::FxHashMap::with_capacity_and_hasher(cells.len(), Default::default());
        for (i, c) in cells.iter().enumerate() {
            if by_name.insert(c.name.clone(), CellId(i as u32)).is_some() {
                return Err(GeometryError::DuplicateCellName(c.name.clone()));
            }
        }
        Geometry::assemble(name, symbols, cells.into(), by_name.into(), shapes)
    }

    /// A geometry with this one's symbols and cells and other shapes, validated as by
    /// [`Geometry::new`] (what a batch of Killers builds for each line: the grid repeats, the
    /// cages change).
    pub fn with_shapes(&self, name: String, shapes: Vec<Shape>) -> Result<Self, GeometryError> {
        Geometry::assemble(
            name,
            self.symbols.clone(),
            std::sync::Arc::clone(&self.cells),
            std::sync::Arc::clone(&self.by_name),
            shapes,
        )
    }

    /// [`Geometry::new`] once the cells are known to be well-formed.
    fn assemble(
        name: String,
        symbols: SymbolSet,
        cells: std::sync::Arc<[Cell]>,
        by_name: std::sync::Arc<rustc_hash::FxHashMap<String, CellId>>,
        shapes: Vec<Shape>,
    ) -> Result<Self, GeometryError> {
        let n = symbols.len();
        limits::check_shapes(shapes.len())?;
        for s in &shapes {
            limits::check_name("shape", &s.name)?;
            if let Some(c) = s.cells.iter().find(|c| c.index() >= cells.len()) {
                return Err(GeometryError::Invalid(format!(
                    "shape '{}' holds cell number {}, but there are {} cells",
                    s.name,
                    c.0,
                    cells.len()
                )));
            }
            if let Rule::Sum { total, .. } = s.rule {
                limits::check_total(total, &s.name)?;
            }
        }
        limits::check_memberships(
            cells.len(),
            shapes.iter().map(|s| (&s.cells[..], s.is_unique())),
            |c| cells[c].name.clone(),
        )?;
        let mut kept: Vec<Shape> = Vec::with_capacity(shapes.len());
        // per cell, the last shape it was seen in (a cell listed twice is seen twice)
        let mut seen_in = vec![u32::MAX; cells.len()];
        let mut unique_sets = CellSets::new(cells.len(), mix);
        for (i, shape) in shapes.into_iter().enumerate() {
            if shape.cells.is_empty() {
                return Err(GeometryError::EmptyShape(shape.name));
            }
            let mut repeated = false;
            for c in &shape.cells {
                repeated |= std::mem::replace(&mut seen_in[c.index()], i as u32) == i as u32;
            }
            if repeated {
                let mut sorted = shape.cells.clone();
                sorted.sort_unstable();
                let w = sorted.windows(2).find(|w| w[0] == w[1]).expect("a repeat");
                return Err(GeometryError::DuplicateCellInShape {
                    shape: shape.name,
                    cell: cells[w[0].index()].name.clone(),
                });
            }
            if shape.is_unique() && shape.cells.len() > n {
                return Err(GeometryError::ShapeTooLarge {
                    shape: shape.name,
                    cells: shape.cells.len(),
                    symbols: n,
                });
            }
            if shape.rule == Rule::Unique && !unique_sets.insert(&shape.cells) {
                continue;
            }
            kept.push(shape);
        }
        let mut geometry = Geometry {
            name,
            symbols,
            cells,
            shapes: kept,
            warnings: Vec::new(),
            by_name,
        };
        geometry.warnings = graph::CellShapeGraph::new(&geometry).warnings(&geometry);
        geometry.warnings.extend(geometry.same_place_warning());
        Ok(geometry)
    }

    /// A warning when two cells are drawn at one place (to a thousandth of a unit): pictures
    /// overlap them, and patterns that read positions see two cells on one spot.
    fn same_place_warning(&self) -> Option<String> {
        let mut at = rustc_hash::FxHashMap::default();
        let key = crate::kinds::pick::key;
        let mut pairs = 0;
        let mut first = None;
        for c in self.cells.iter() {
            if let Some(other) = at.insert(key(c.pos), c.name.as_str()) {
                pairs += 1;
                first.get_or_insert((other, c.name.as_str(), c.pos));
            }
        }
        let (a, b, p) = first?;
        Some(format!(
            "cells {a} and {b} are drawn at the same place [{}, {}]{}: pictures overlap them",
            p[0],
            p[1],
            match pairs {
                1 => String::new(),
                n => format!(" ({n} cells in all are drawn on another's place)"),
            }
        ))
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Number of symbols.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// Looks a cell up by name.
    pub fn cell_id(&self, name: &str) -> Option<CellId> {
        self.by_name.get(name).copied()
    }

    /// The cell with this id.
    pub fn cell(&self, id: CellId) -> &Cell {
        &self.cells[id.index()]
    }

    /// The shape with this id.
    pub fn shape(&self, id: ShapeId) -> &Shape {
        &self.shapes[id.index()]
    }

    /// Whether a shape must hold every symbol exactly once.
    pub fn is_complete(&self, shape: &Shape) -> bool {
        shape.rule == Rule::Unique && shape.cells.len() == self.symbols.len()
    }

    /// Appends shapes (e.g. a puzzle's cages) and re-validates.
    pub fn with_extra_shapes(&self, extra: Vec<Shape>) -> Result<Self, GeometryError> {
        if extra.is_empty() {
            return Ok(self.clone());
        }
        let mut shapes = self.shapes.clone();
        shapes.extend(extra);
        self.with_shapes(self.name.clone(), shapes)
    }

    /// Reads a TOML geometry file's text: symbols, grids (rows, columns, boxes, regions,
    /// diagonals, windows), explicit cells and shapes, cages.
    pub fn from_toml(text: &str) -> Result<Geometry, Error> {
        build::from_toml(text)
    }

    /// A built-in geometry by name (see [`Geometry::builtin_names`]).
    pub fn builtin(name: &str) -> Result<Geometry, Error> {
        builtin::load(name)
    }

    /// The TOML file of a built-in geometry (name case ignored), to start a layout from.
    pub fn builtin_text(name: &str) -> Option<&'static str> {
        builtin::text(name)
    }

    /// The names of the built-in geometries.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        builtin::BUILTIN.iter().map(|(name, _)| *name)
    }

    /// A built-in geometry by name, or a TOML or JSON geometry file by path.
    pub fn load(name_or_path: &str) -> Result<Geometry, Error> {
        crate::puzzle::file::resolve_geometry(name_or_path, None)
    }

    /// This geometry with the sum shapes the law of 45 derives from its cages (innies and
    /// outies) added as shapes of their own.
    pub fn with_derived_sums(&self) -> Result<Geometry, Error> {
        Ok(self.with_extra_shapes(partition::derive(self))?)
    }

    /// A full or partial grid as a JSON object `{cell name: symbol}`, in cell order.
    pub fn grid_json(&self, grid: &(impl CellValues + ?Sized)) -> Map<String, Value> {
        crate::puzzle::json::grid_map(self, &grid.to_grid())
    }
}

/// Checks the cells of a new geometry against [`limits`]: names, drawing positions, board
/// coordinates, and no two cells on one board square (`r1c1` and `R1C1` in a JSON model).
fn check_cells(cells: &[Cell]) -> Result<(), GeometryError> {
    let mut squares =
        rustc_hash::FxHashMap::with_capacity_and_hasher(cells.len(), Default::default());
    for c in cells {
        limits::check_name("cell", &c.name)?;
        limits::check_position(c.pos, &c.name)?;
        if let Some(poly) = &c.poly {
            limits::check_polygon(poly, &c.name)?;
        }
        if let Some((r, col)) = c.board {
            limits::check_coordinate("row", r as i64, &c.name)?;
            limits::check_coordinate("column", col as i64, &c.name)?;
            if let Some(other) = squares.insert((r, col), c.name.as_str()) {
                return Err(GeometryError::Invalid(format!(
                    "cells '{other}' and '{}' are both at row {r}, column {col} of the board",
                    c.name
                )));
            }
        }
    }
    Ok(())
}

/// A 64-bit mixing function (splitmix64's finaliser): summed over a shape's cells, a hash of the
/// cell set that ignores their order.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Sets of cells seen so far, told apart without allocating per set: a set is found by a hash
/// of its cells that ignores their order (the sum of `mix` over them), and sets with equal
/// hashes are compared cell by cell.
struct CellSets {
    mix: fn(u64) -> u64,
    /// The sets inserted, flat (`cells[start[k]..start[k + 1]]`).
    cells: Vec<CellId>,
    start: Vec<usize>,
    /// The last set inserted with each hash; earlier ones are chained through `same_hash`.
    by_hash: rustc_hash::FxHashMap<u64, usize>,
    same_hash: Vec<Option<usize>>,
    /// Per cell, the last set it was compared against.
    compared: Vec<usize>,
}

impl CellSets {
    fn new(n_cells: usize, mix: fn(u64) -> u64) -> Self {
        CellSets {
            mix,
            cells: Vec::new(),
            start: vec![0],
            by_hash: Default::default(),
            same_hash: Vec::new(),
            compared: vec![usize::MAX; n_cells],
        }
    }

    /// Adds the set of `cells` (no cell twice); false when an equal set was added before.
    fn insert(&mut self, cells: &[CellId]) -> bool {
        let hash = cells.iter().fold(cells.len() as u64, |h, c| {
            h.wrapping_add((self.mix)(c.0 as u64))
        });
        let mut at = self.by_hash.get(&hash).copied();
        while let Some(k) = at {
            let other = &self.cells[self.start[k]..self.start[k + 1]];
            if other.len() == cells.len() {
                other.iter().for_each(|c| self.compared[c.index()] = k);
                if cells.iter().all(|c| self.compared[c.index()] == k) {
                    return false;
                }
            }
            at = self.same_hash[k];
        }
        let k = self.same_hash.len();
        self.same_hash.push(self.by_hash.insert(hash, k));
        self.cells.extend_from_slice(cells);
        self.start.push(self.cells.len());
        true
    }
}

#[cfg(test)]
mod cell_set_tests {
    use super::*;

    /// Equal sets in any order are found again, different ones are not, also when every hash
    /// is the same (the chain of sets sharing a hash).
    #[test]
    fn cell_sets_tell_equal_sets_from_different_ones() {
        let ids = |v: &[u32]| v.iter().map(|&c| CellId(c)).collect::<Vec<_>>();
        for mix in [mix as fn(u64) -> u64, |_| 0] {
            let mut sets = CellSets::new(10, mix);
            assert!(sets.insert(&ids(&[0, 1, 2])));
            assert!(sets.insert(&ids(&[3, 4, 5])));
            assert!(sets.insert(&ids(&[0, 1])));
            assert!(sets.insert(&ids(&[0, 1, 3])));
            assert!(!sets.insert(&ids(&[2, 0, 1])));
            assert!(!sets.insert(&ids(&[5, 4, 3])));
            assert!(!sets.insert(&ids(&[1, 0])));
            assert!(!sets.insert(&ids(&[3, 1, 0])));
            assert!(sets.insert(&ids(&[1, 2, 3])));
            assert!(!sets.insert(&ids(&[3, 2, 1])));
        }
    }
}
