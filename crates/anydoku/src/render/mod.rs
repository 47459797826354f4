//! Output: a grid drawn as text ([`text()`]) or as an SVG picture ([`svg()`]) from the layout.
//!
//! Renderers read cell positions and shape kinds only; they never solve. Each output format is
//! an internal module (`text`, `svg`) with a function from a geometry and a grid to a string; to
//! add a format, add such a module and a function here.

use crate::geometry::Geometry;
use crate::puzzle::CellValues;

internal_mod!(svg);
internal_mod!(text);

/// Draws `grid` as text on the geometry's layout: board cells on their rows and columns, with
/// `|` and `-` between cells of different boxes or regions; cells off the board (Tredoku faces)
/// listed per shape. `.` marks an empty cell.
pub fn text(g: &Geometry, grid: &(impl CellValues + ?Sized)) -> String {
    text::draw(g, &grid.to_grid())
}

/// Draws `grid` on the geometry's layout as an SVG picture: cells, region borders, diagonals,
/// shaded extra regions, cages with their sums. Cells filled in `givens` are drawn bold, the
/// other filled cells of `grid` blue: pass the givens as both to draw the puzzle, or a
/// solution as `grid` to draw it solved.
pub fn svg(
    g: &Geometry,
    givens: &(impl CellValues + ?Sized),
    grid: &(impl CellValues + ?Sized),
) -> String {
    svg::draw(g, &givens.to_grid(), &grid.to_grid())
}
