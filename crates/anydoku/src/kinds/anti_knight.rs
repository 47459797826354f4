//! Anti-knight: cells a knight's move apart (two cells one way, one the other) never hold the
//! same symbol. A pattern: declared once for a layout (`[[pattern]] kind = "anti-knight"`), on
//! every cell unless it lists its cells; the pairs follow from the cells' positions.
//!
//! Engine form: each pair becomes peers (so the bitboard kernels still search anti-knight
//! layouts made of unique shapes). Steps name it "Anti-knight"; pictures note it under the grid.

use rand::RngCore;

use super::fpuzzles::Out;
use super::pattern;
use super::pick::knight_move;
use super::pick::KNIGHT;
use super::Kind;
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};

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

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        pattern::flatten_distinct(s, g, out, KNIGHT);
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        pattern::check_distinct(s, g, grid, &knight_move, "a knight's move")
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.flag("antiknight", s)
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        pattern::plant_distinct(g, grid, rng, KNIGHT)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::AntiKnight, 40);
    }
}
