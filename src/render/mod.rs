//! Output: the grid drawn as text from the layout (and, later, SVG).
//!
//! Renderers read cell positions and shape kinds only; they never solve. To add an output
//! format, add a module with a function from a geometry and a grid to a string.

pub mod text;
