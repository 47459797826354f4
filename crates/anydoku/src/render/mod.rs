//! Output: the grid drawn as text ([`text`]) or as an SVG picture ([`svg`]) from the layout.
//!
//! Renderers read cell positions and shape kinds only; they never solve. To add an output
//! format, add a module with a function from a geometry and a grid to a string.

pub mod svg;
pub mod text;
