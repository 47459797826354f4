//! Allowed symbols: each cell of the shape holds one of the listed symbols (givens with a
//! candidate set, shaded cells that take only some digits).
//!
//! File form: `rule = "allowed"` with `symbols = "1379"` (or a list, `["1", "3"]`). Engine
//! form: [`Unary`], which keeps only those symbols in the shape's cells.

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::{Kind, Params};
use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[mask of the allowed symbols]`.
pub(crate) struct Allowed;

/// Keeps only the symbols of `mask` in `cells`.
#[derive(Debug)]
pub(crate) struct Unary {
    pub(crate) cells: Box<[u32]>,
    pub(crate) mask: Mask,
}

impl Propagator for Unary {
    fn propagate(&self, c: &mut Cands) -> bool {
        self.cells.iter().all(|&cell| c.keep(cell, self.mask))
    }
}

/// A random cell set and the symbols its cells hold in `grid`, plus some others.
pub(crate) fn plant_cells(g: &Geometry, grid: &[u8], rng: &mut dyn RngCore) -> Vec<CellId> {
    let k = rng.gen_range(1..=3.min(g.cell_count()));
    let mut cells: Vec<CellId> = Vec::new();
    while cells.len() < k {
        let c = CellId(rng.gen_range(0..grid.len()) as u32);
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    cells
}

impl Kind for Allowed {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let list: Vec<&str> = (0..g.symbols.len())
            .filter(|&v| params[0] >> v & 1 == 1)
            .map(|v| g.symbols.symbol(v))
            .collect();
        let cells: Vec<&str> = s.cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
        format!("{} hold only {}", cells.join(", "), list.join(", "))
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_CELL
    }

    fn name(&self) -> &'static str {
        "allowed"
    }

    fn title(&self) -> &'static str {
        "Allowed"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["symbols"]
    }

    fn read(&self, p: &Params, _cells: usize, symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let mask = p
            .symbols("symbols", symbols)?
            .ok_or_else(|| "has rule \"allowed\" but no symbols".to_string())?;
        if mask == 0 {
            return Err("allows no symbol at all".into());
        }
        Ok(vec![mask as i64])
    }

    fn write(&self, params: &[i64], symbols: &SymbolSet, out: &mut Map<String, Value>) {
        let list: Vec<&str> = (0..symbols.len())
            .filter(|&s| params[0] >> s & 1 == 1)
            .map(|s| symbols.symbol(s))
            .collect();
        out.insert("symbols".into(), json!(list));
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        out.propagator(Unary {
            cells: s.cells.iter().map(|c| c.0).collect(),
            mask: params[0] as Mask,
        });
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        for &c in &s.cells {
            if params[0] >> grid[c.index()] & 1 == 0 {
                return Err(format!(
                    "{} holds {}, which is not allowed there",
                    g.cell(c).name,
                    g.symbols.symbol(grid[c.index()] as usize)
                ));
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
        let cells = plant_cells(g, grid, rng);
        let mut mask = (rng.gen::<u64>() & ((1u64 << g.symbol_count()) - 1)) as i64;
        for c in &cells {
            mask |= 1 << grid[c.index()];
        }
        Some((cells, vec![mask]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Allowed, 40);
    }
}
