//! Anti-king: cells a king's move apart (touching, diagonally included) never hold the same
//! symbol. A pattern: declared once for a layout (`[[pattern]] kind = "anti-king"`), on every
//! cell unless it lists its cells; the pairs follow from the cells' positions.
//!
//! Engine form: each pair becomes peers (so the bitboard kernels still search anti-king layouts
//! made of unique shapes). Steps name it "Anti-king"; pictures note it under the grid.

use rand::RngCore;
use serde_json::{Map, Value};

use super::pick::{self, KING};
use super::{Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. No numbers.
pub(crate) struct AntiKing;

/// The check of a pattern of pairs that must differ: every two cells of `s` whose centres are
/// `(|dx|, |dy|)` apart with `apart(|dx|, |dy|)` (written straight from the positions, not with
/// the pair finder the engine uses).
pub(crate) fn distinct_pairs(
    s: &Shape,
    g: &Geometry,
    grid: &[u8],
    apart: &dyn Fn(f64, f64) -> bool,
    what: &str,
) -> Result<(), String> {
    for (i, &a) in s.cells.iter().enumerate() {
        for &b in &s.cells[i + 1..] {
            let (p, q) = (g.cell(a).pos, g.cell(b).pos);
            let (dx, dy) = ((p[0] - q[0]).abs(), (p[1] - q[1]).abs());
            if apart(dx, dy) && grid[a.index()] == grid[b.index()] {
                return Err(format!(
                    "{} and {}, {what} apart, are both {}",
                    g.cell(a).name,
                    g.cell(b).name,
                    g.symbols.symbol(grid[a.index()] as usize)
                ));
            }
        }
    }
    Ok(())
}

/// Whether `x` is `n` to a thousandth.
pub(crate) fn is(x: f64, n: f64) -> bool {
    (x - n).abs() < 1e-3
}

impl Kind for AntiKing {
    fn name(&self) -> &'static str {
        "anti-king"
    }

    fn title(&self) -> &'static str {
        "Anti-king"
    }

    fn is_pattern(&self) -> bool {
        true
    }

    fn read(&self, _p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(Vec::new())
    }

    fn write(&self, _params: &[i64], _symbols: &SymbolSet, _out: &mut Map<String, Value>) {}

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        for [a, b] in pick::pairs_at(g, &s.cells, KING) {
            out.distinct(a, b);
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let king = |dx: f64, dy: f64| {
            let near = |d| is(d, 0.0) || is(d, 1.0);
            near(dx) && near(dy) && !(is(dx, 0.0) && is(dy, 0.0))
        };
        distinct_pairs(s, g, grid, &king, "a king's move")
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let cells = pick::pattern_cells(g, rng, KING, &|a, b| grid[a.index()] != grid[b.index()])?;
        Some((cells, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::AntiKing, 40);
    }
}
