//! Unique shapes: no symbol twice among the cells; a shape with as many cells as there are
//! symbols (a row, a box, a jigsaw region) holds every symbol exactly once.
//!
//! File form: `rule = "unique"` (the default rule of a `[[shape]]`); grids write their rows,
//! columns, boxes, regions and diagonals as unique shapes. Engine form: the cells become each
//! other's peers, and a shape with one cell per symbol is a *complete* shape, which the
//! kernels scan for hidden singles (the bitboard kernels search models made of unique shapes
//! alone). Pictures draw unique shapes as the layout itself (region borders, diagonals, shaded
//! extra regions; see `render::svg`).

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

use super::{Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs.
pub(crate) struct Unique;

impl Kind for Unique {
    fn name(&self) -> &'static str {
        "unique"
    }

    fn title(&self) -> &'static str {
        "Shape"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["unique", "sum"]
    }

    fn read(&self, p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        if p.has("sum") {
            return Err("has a sum but rule = \"unique\"; write rule = \"sum\"".into());
        }
        if p.bool("unique")? == Some(false) {
            return Err("is a unique shape, so it cannot have unique = false".into());
        }
        Ok(Vec::new())
    }

    fn distinct(&self, _params: &[i64]) -> bool {
        true
    }

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        // the cells become peers through `Shape::is_unique`
        if s.cells.len() == g.symbol_count() {
            out.complete(&s.cells);
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        for (i, a) in s.cells.iter().enumerate() {
            for b in &s.cells[..i] {
                if grid[a.index()] == grid[b.index()] {
                    return Err(format!(
                        "{} and {} are both {}",
                        g.cell(*b).name,
                        g.cell(*a).name,
                        g.symbols.symbol(grid[a.index()] as usize)
                    ));
                }
            }
        }
        Ok(())
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // up to a random number of cells with distinct symbols, in random order
        let mut order: Vec<usize> = (0..g.cell_count()).collect();
        order.shuffle(rng);
        let want = rng.gen_range(2..=g.symbol_count().max(2));
        let mut seen = 0u64;
        let mut cells = Vec::new();
        for c in order {
            if seen & (1 << grid[c]) == 0 && cells.len() < want {
                seen |= 1 << grid[c];
                cells.push(CellId(c as u32));
            }
        }
        (cells.len() >= 2).then_some((cells, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Unique, 40);
    }
}
