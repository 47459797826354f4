//! Limits on what an input may ask for: checked before anything that depends on them is
//! allocated, so a small hostile file can neither exhaust memory nor keep the program busy for
//! hours, and refused with a message that names the limit.
//!
//! Every limit is far above every real puzzle: the largest in the test corpora are a 49x49
//! classic (2,401 cells), sparse 36x36 puzzles, and Gattai-8 Killers (about 600 cells).
//! `docs/LIMITS.md` lists them with what they protect. Each check is a function here, called by
//! every reader at the point the number becomes known (a grid's size before its cells exist, a
//! selector's range before it is expanded); [`crate::geometry::Geometry::new`] checks the
//! totals again for geometries built in code. To add a limit, add its constant and its check
//! here, call the check where the number is first known, give it to [`InputLimits`], and
//! document it.

use crate::geometry::GeometryError;

pub(crate) use crate::symbols::MAX_SYMBOLS;

/// Most cells in a geometry (a 64x64 grid has 4,096; the largest real layouts about 2,400).
pub(crate) const MAX_CELLS: usize = 20_000;
/// Most shapes in a geometry, derived shapes not counted.
pub(crate) const MAX_SHAPES: usize = 200_000;
/// Most shapes a cell may belong to (a Killer cell of a Samurai overlap with anti-knight and
/// anti-king pairs is in about 25).
pub(crate) const MAX_SHAPES_PER_CELL: usize = 128;
/// Most pairs of cells that see each other through unique shapes, counted with repeats as the
/// sum over unique shapes of (cells)² (what the engine's peer lists may cost): a 64x64 Killer
/// has about 800,000, a 49x49 one about 360,000.
pub(crate) const MAX_PEER_PAIRS: usize = 8_000_000;
/// The largest row or column of a board cell (`r{row}c{col}`), and of a grid's far corner.
pub(crate) const MAX_COORDINATE: i64 = 10_000;
/// The largest drawing coordinate of an explicit cell or polygon point, in cell units.
pub(crate) const MAX_POSITION: f64 = 1e6;
/// Most points of one cell's drawing polygon.
pub(crate) const MAX_POLYGON_POINTS: usize = 64;
/// The largest magnitude of a symbol's value.
pub(crate) const MAX_VALUE: i64 = 1_000_000_000;
/// The largest magnitude of a sum shape's total.
pub(crate) const MAX_TOTAL: i64 = 1_000_000_000_000_000;
/// Longest cell, shape or geometry name, in bytes.
pub(crate) const MAX_NAME_BYTES: usize = 256;
/// Largest file read (geometry, puzzle, JSON model, grid text, import).
pub(crate) const MAX_FILE_BYTES: u64 = 64 << 20;
/// Largest f-puzzles JSON a link may decompress to, in UTF-16 code units (a 16x16 with every
/// constraint is well under 200,000).
pub(crate) const MAX_FPUZZLES_TEXT: usize = 4 << 20;

/// How large an input may be: each limit as an associated constant, for programs that want to
/// check an input before handing it over or to state the limits to their own users.
///
/// ```
/// assert!(anydoku::InputLimits::MAX_CELLS >= 4_096); // a 64x64 grid
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct InputLimits;

impl InputLimits {
    /// Most distinct symbols of a geometry.
    pub const MAX_SYMBOLS: usize = MAX_SYMBOLS;
    /// Most cells in a geometry.
    pub const MAX_CELLS: usize = MAX_CELLS;
    /// Most shapes in a geometry, derived shapes not counted.
    pub const MAX_SHAPES: usize = MAX_SHAPES;
    /// Most shapes a cell may belong to.
    pub const MAX_SHAPES_PER_CELL: usize = MAX_SHAPES_PER_CELL;
    /// Most pairs of cells seeing each other through unique shapes (the sum over unique shapes of their cells squared).
    pub const MAX_PEER_PAIRS: usize = MAX_PEER_PAIRS;
    /// The largest row or column of a board cell.
    pub const MAX_COORDINATE: i64 = MAX_COORDINATE;
    /// The largest drawing coordinate of an explicit cell or polygon point, in cell units.
    pub const MAX_POSITION: f64 = MAX_POSITION;
    /// Most points of one cell's drawing polygon.
    pub const MAX_POLYGON_POINTS: usize = MAX_POLYGON_POINTS;
    /// The largest magnitude of a symbol's value.
    pub const MAX_VALUE: i64 = MAX_VALUE;
    /// The largest magnitude of a sum shape's total.
    pub const MAX_TOTAL: i64 = MAX_TOTAL;
    /// Longest cell, shape or geometry name, in bytes.
    pub const MAX_NAME_BYTES: usize = MAX_NAME_BYTES;
    /// Largest file read.
    pub const MAX_FILE_BYTES: u64 = MAX_FILE_BYTES;
    /// Largest f-puzzles JSON a link may decompress to, in UTF-16 code units.
    pub const MAX_FPUZZLES_TEXT: usize = MAX_FPUZZLES_TEXT;
}

fn over(
    subject: impl std::fmt::Display,
    found: impl std::fmt::Display,
    limit: impl std::fmt::Display,
) -> GeometryError {
    GeometryError::Limit(format!(
        "{subject} is {found}, over the limit of {limit} (see docs/LIMITS.md)"
    ))
}

/// Checks a number of cells.
pub(crate) fn check_cells(cells: usize) -> Result<(), GeometryError> {
    if cells > MAX_CELLS {
        return Err(over("the number of cells", cells, MAX_CELLS));
    }
    Ok(())
}

/// Checks a number of shapes.
pub(crate) fn check_shapes(shapes: usize) -> Result<(), GeometryError> {
    if shapes > MAX_SHAPES {
        return Err(over("the number of shapes", shapes, MAX_SHAPES));
    }
    Ok(())
}

/// Checks a board coordinate (`what` is "row" or "column", of cell `name`).
pub(crate) fn check_coordinate(what: &str, value: i64, name: &str) -> Result<(), GeometryError> {
    if !(1..=MAX_COORDINATE).contains(&value) {
        return Err(GeometryError::Limit(format!(
            "the {what} of {name} is {value}, outside 1 to {MAX_COORDINATE} (see docs/LIMITS.md)"
        )));
    }
    Ok(())
}

/// Checks a drawing position (of a cell or a polygon point of cell `name`).
pub(crate) fn check_position(pos: [f64; 2], name: &str) -> Result<(), GeometryError> {
    if !pos.iter().all(|v| v.is_finite() && v.abs() <= MAX_POSITION) {
        return Err(GeometryError::Limit(format!(
            "cell '{name}' is drawn at [{:?}, {:?}]; positions must be finite numbers from -{MAX_POSITION} to {MAX_POSITION} (see docs/LIMITS.md)",
            pos[0], pos[1]
        )));
    }
    Ok(())
}

/// Checks a cell's drawing polygon.
pub(crate) fn check_polygon(poly: &[[f64; 2]], name: &str) -> Result<(), GeometryError> {
    if poly.len() > MAX_POLYGON_POINTS {
        return Err(over(
            format_args!("the number of points of cell '{name}''s polygon"),
            poly.len(),
            MAX_POLYGON_POINTS,
        ));
    }
    poly.iter().try_for_each(|&p| check_position(p, name))
}

/// Checks a sum shape's total.
pub(crate) fn check_total(total: i64, shape: &str) -> Result<(), GeometryError> {
    if total.unsigned_abs() > MAX_TOTAL as u64 {
        return Err(GeometryError::Limit(format!(
            "the sum of '{shape}' is {total}, outside -{MAX_TOTAL} to {MAX_TOTAL} (see docs/LIMITS.md)"
        )));
    }
    Ok(())
}

/// Checks a name (`what`: "cell", "shape", "geometry"): not too long, and for cells usable in a
/// selector (not empty, no whitespace, no comma, no control character).
pub(crate) fn check_name(what: &str, name: &str) -> Result<(), GeometryError> {
    if name.len() > MAX_NAME_BYTES {
        let start: String = name.chars().take(20).collect();
        return Err(over(
            format_args!("the length of {what} name '{start}...'"),
            format_args!("{} bytes", name.len()),
            MAX_NAME_BYTES,
        ));
    }
    if what == "cell"
        && (name.is_empty()
            || name
                .chars()
                .any(|c| c.is_whitespace() || c == ',' || c.is_control()))
    {
        return Err(GeometryError::Invalid(format!(
            "cell name '{}' cannot be used in a selector: a cell name must be non-empty, without spaces, commas or control characters",
            name.escape_debug()
        )));
    }
    Ok(())
}

/// Checks how the shapes use the cells: the number of shapes each cell is in, and the pairs of
/// cells seeing each other through unique shapes (see [`MAX_PEER_PAIRS`]). `shapes` yields
/// (cells, unique) per shape; `cell_name` names a cell for the message.
pub(crate) fn check_memberships<'a>(
    n_cells: usize,
    shapes: impl Iterator<Item = (&'a [crate::geometry::CellId], bool)>,
    cell_name: impl Fn(usize) -> String,
) -> Result<(), GeometryError> {
    let mut per_cell = vec![0u32; n_cells];
    let mut pairs = 0usize;
    for (cells, unique) in shapes {
        if unique {
            pairs = pairs.saturating_add(cells.len().saturating_mul(cells.len()));
        }
        for c in cells {
            let k = &mut per_cell[c.index()];
            *k += 1;
            if *k as usize > MAX_SHAPES_PER_CELL {
                return Err(over(
                    format_args!("the number of shapes holding cell {}", cell_name(c.index())),
                    format_args!("more than {MAX_SHAPES_PER_CELL}"),
                    MAX_SHAPES_PER_CELL,
                ));
            }
        }
    }
    if pairs > MAX_PEER_PAIRS {
        return Err(over(
            "the sum over unique shapes of their cells squared",
            pairs,
            MAX_PEER_PAIRS,
        ));
    }
    Ok(())
}
