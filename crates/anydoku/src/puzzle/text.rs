//! Givens written as text: one grapheme per cell in the geometry's cell order.
//!
//! `.` is an empty cell, and so is `0` when `0` is not a symbol. Grid text ignores whitespace, so
//! rows can be laid out on lines and aligned with spaces. One-line strings (as in `batch` files)
//! take the first N graphemes of the line and ignore the rest.

use unicode_segmentation::UnicodeSegmentation;

use crate::error::Error;
use crate::geometry::Geometry;

/// Reads grid text: every non-whitespace grapheme is one cell, and there must be exactly one per
/// cell. A grapheme that is not a symbol is reported at its line and column in `text`.
pub fn parse_grid(g: &Geometry, text: &str) -> Result<Vec<Option<u8>>, Error> {
    let graphemes: Vec<(usize, &str)> = text
        .grapheme_indices(true)
        .filter(|(_, s)| !s.trim().is_empty())
        .collect();
    if graphemes.len() != g.cell_count() {
        return Err(Error::puzzle(format!(
            "the givens have {} entries but the geometry '{}' has {} cells",
            graphemes.len(),
            g.name,
            g.cell_count()
        )));
    }
    graphemes
        .iter()
        .enumerate()
        .map(|(i, &(at, s))| cell_value(g, i, s).map_err(|e| e.at(text, Some(at..at))))
        .collect()
}

/// Reads a one-line string: the first N graphemes (N = cell count); the rest is ignored.
pub fn parse_line(g: &Geometry, line: &str) -> Result<Vec<Option<u8>>, Error> {
    let n = g.cell_count();
    let mut out = Vec::with_capacity(n);
    for (at, s) in line.grapheme_indices(true) {
        if out.len() == n {
            break;
        }
        out.push(cell_value(g, out.len(), s).map_err(|e| e.at(line, Some(at..at)))?);
    }
    if out.len() < n {
        return Err(Error::puzzle(format!(
            "the line has {} symbols but the geometry '{}' has {} cells",
            out.len(),
            g.name,
            n
        )));
    }
    Ok(out)
}

/// Fast path for `batch`: when every symbol and the empty markers are single bytes, a line can be
/// read byte by byte. Returns `None` when the fast path does not apply.
pub fn parse_line_bytes(
    table: &[u8; 256],
    n: usize,
    line: &[u8],
) -> Option<Result<Vec<Option<u8>>, usize>> {
    if line.len() < n {
        return Some(Err(line.len()));
    }
    let mut out = Vec::with_capacity(n);
    for &b in &line[..n] {
        match table[b as usize] {
            255 => return None,
            254 => out.push(None),
            v => out.push(Some(v)),
        }
    }
    Some(Ok(out))
}

/// The byte table for [`parse_line_bytes`]: symbol index, 254 for empty, 255 for anything else.
/// `None` if some symbol is not a single ASCII byte.
pub fn byte_table(g: &Geometry) -> Option<[u8; 256]> {
    let mut t = [255u8; 256];
    for (i, s) in g.symbols.symbols().iter().enumerate() {
        if s.len() != 1 || !s.is_ascii() {
            return None;
        }
        t[s.as_bytes()[0] as usize] = i as u8;
    }
    t[b'.' as usize] = 254;
    if g.symbols.index_of("0").is_none() {
        t[b'0' as usize] = 254;
    }
    Some(t)
}

fn cell_value(g: &Geometry, i: usize, s: &str) -> Result<Option<u8>, Error> {
    if g.symbols.is_empty_marker(s) {
        return Ok(None);
    }
    match g.symbols.index_of(s) {
        Some(v) => Ok(Some(v as u8)),
        None => Err(Error::puzzle(format!(
            "'{}' (for cell {}) is not in the symbol set {}",
            s.escape_debug(),
            g.cells[i].name,
            g.symbols.symbols().concat()
        ))),
    }
}

/// Writes a grid as a one-line string (`.` for empty cells).
pub fn to_line(g: &Geometry, grid: &[Option<u8>]) -> String {
    grid.iter()
        .map(|v| v.map_or(".", |v| g.symbols.symbol(v as usize)))
        .collect()
}
