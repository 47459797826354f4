//! Anti-knight: cells a knight's move apart (two cells one way, one the other) never hold the
//! same symbol. A pattern: declared once for a layout (`[[pattern]] kind = "anti-knight"`), on
//! every cell unless it lists its cells; the pairs follow from the cells' positions.
//!
//! Engine form: each pair becomes peers (so the bitboard kernels still search anti-knight
//! layouts made of unique shapes). Steps name it "Anti-knight"; pictures note it under the grid.

use rand::RngCore;
use serde_json::{Map, Value};

use super::pick::{self, KNIGHT};
use super::{Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. No numbers.
pub(crate) struct AntiKnight;

impl Kind for AntiKnight {
    fn name(&self) -> &'static str {
        "anti-knight"
    }

    fn title(&self) -> &'static str {
        "Anti-knight"
    }

    fn is_pattern(&self) -> bool {
        true
    }

    fn read(&self, _p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(Vec::new())
    }

    fn write(&self, _params: &[i64], _symbols: &SymbolSet, _out: &mut Map<String, Value>) {}

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        for [a, b] in pick::pairs_at(g, &s.cells, KNIGHT) {
            out.distinct(a, b);
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        use super::anti_king::{distinct_pairs, is};
        let knight =
            |dx: f64, dy: f64| (is(dx, 1.0) && is(dy, 2.0)) || (is(dx, 2.0) && is(dy, 1.0));
        distinct_pairs(s, g, grid, &knight, "a knight's move")
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let cells = pick::pattern_cells(g, rng, KNIGHT, &|a, b| grid[a.index()] != grid[b.index()])?;
        Some((cells, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::AntiKnight, 40);
    }
}
