//! Output: a grid drawn as text ([`text()`]) or as an SVG picture ([`svg()`]) from the layout,
//! or written as one line ([`line()`]).
//!
//! Renderers read cell positions and shape kinds only; they never solve. Each output format is
//! an internal module (`text`, `svg`) with a function from a geometry and a grid to a string; to
//! add a format, add such a module and a function here.

use crate::geometry::Geometry;
use crate::puzzle::CellValues;

mod roles;
internal_mod!(svg);
internal_mod!(text);

/// Draws `grid` as text on the geometry's layout: board cells on their rows and columns, with
/// `|` and `-` between cells of different boxes or regions; cells off the board (Tredoku faces,
/// hexagons) on their positions below. Symbols are right-aligned in the display width of the
/// widest, and `.` marks an empty cell. Every drawing reads back in as grid text
/// ([`crate::Puzzle::from_text`], a puzzle file's `givens`).
pub fn text(g: &Geometry, grid: &(impl CellValues + ?Sized)) -> String {
    text::draw(g, &grid.to_grid())
}

/// Writes `grid` as one line in cell order (what `batch` prints and reads): the symbols run
/// together when every symbol is one grapheme, else separated by spaces; `.` marks an empty
/// cell.
pub fn line(g: &Geometry, grid: &(impl CellValues + ?Sized)) -> String {
    let sep = if g.symbols.all_graphemes() { "" } else { " " };
    let mut out = String::with_capacity(grid.cell_count() * (1 + sep.len()));
    for c in 0..grid.cell_count() {
        if c > 0 {
            out.push_str(sep);
        }
        out.push_str(grid.value(c).map_or(".", |v| g.symbols.symbol(v as usize)));
    }
    out
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
