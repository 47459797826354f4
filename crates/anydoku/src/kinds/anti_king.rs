//! Anti-king: cells a king's move apart (touching, diagonally included) never hold the same
//! symbol. A pattern: declared once for a layout (`[[pattern]] kind = "anti-king"`), on every
//! cell unless it lists its cells; the pairs follow from the cells' positions.
//!
//! Engine form: each pair becomes peers (so the bitboard kernels still search anti-king layouts
//! made of unique shapes). Steps name it "Anti-king"; pictures note it under the grid.

use rand::RngCore;

use super::fpuzzles::Out;
use super::pattern;
use super::pick::king_move;
use super::pick::KING;
use super::Kind;
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};

/// See the module docs. No numbers.
pub(crate) struct AntiKing;

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

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        pattern::flatten_distinct(s, g, out, KING);
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        pattern::check_distinct(s, g, grid, &king_move, "a king's move")
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.flag("antiking", s)
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        pattern::plant_distinct(g, grid, rng, KING)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::AntiKing, 40);
    }
}
