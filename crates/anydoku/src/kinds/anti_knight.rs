//! Anti-knight: cells a knight's move apart (two cells one way, one the other) never hold the
//! same symbol. A pattern: declared once for a layout (`[[pattern]] kind = "anti-knight"`), on
//! every cell unless it lists its cells; the pairs follow from the cells' positions.
//!
//! Engine form: each pair becomes peers (so the bitboard kernels still search anti-knight
//! layouts made of unique shapes). Steps name it "Anti-knight"; pictures note it under the grid.

use rand::RngCore;

use super::pattern::{self, is};
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
        let knight =
            |dx: f64, dy: f64| (is(dx, 1.0) && is(dy, 2.0)) || (is(dx, 2.0) && is(dy, 1.0));
        pattern::check_distinct(s, g, grid, &knight, "a knight's move")
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
