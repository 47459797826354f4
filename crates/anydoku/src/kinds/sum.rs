//! Sum shapes: the cells' values add up to a total; with `unique`, no symbol repeats either
//! (a Killer cage).
//!
//! File form: `rule = "sum"` with `sum = N` and optionally `unique = true` (a `[[cage]]` is a
//! sum shape that is unique unless it says otherwise). Engine form: a sum shape of the engine
//! (`engine::sum` filters it by cage combinations, enumeration or bounds, and the law of 45
//! derives innies and outies from cages); unique ones also make their cells peers. Pictures
//! draw sums as dashed cages with the total in the top-left cell (see `render::svg`).

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::{Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[total, unique (0 or 1)]`.
pub(crate) struct Sum;

impl Kind for Sum {
    fn name(&self) -> &'static str {
        "sum"
    }

    fn title(&self) -> &'static str {
        "Sum"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["sum", "unique"]
    }

    fn read(&self, p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let total = p
            .int("sum")?
            .ok_or_else(|| "has rule \"sum\" but no sum".to_string())?;
        let unique = p.bool("unique")?.unwrap_or(false);
        Ok(vec![total, unique as i64])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        out.insert("sum".into(), json!(params[0]));
        out.insert("unique".into(), json!(params[1] != 0));
    }

    fn distinct(&self, params: &[i64]) -> bool {
        params[1] != 0
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        out.sum(&s.cells, params[0], params[1] != 0);
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let total: i64 = s
            .cells
            .iter()
            .map(|c| g.symbols.value(grid[c.index()] as usize))
            .sum();
        if total != params[0] {
            return Err(format!("adds up to {total}, not {}", params[0]));
        }
        if params[1] != 0 {
            super::unique::Unique.check(s, &[], g, grid)?;
        }
        Ok(())
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let mut order: Vec<usize> = (0..g.cell_count()).collect();
        order.shuffle(rng);
        let k = rng.gen_range(1..=4.min(order.len()));
        let cells: Vec<CellId> = order[..k].iter().map(|&c| CellId(c as u32)).collect();
        let total = cells
            .iter()
            .map(|c| g.symbols.value(grid[c.index()] as usize))
            .sum();
        let mut seen = 0u64;
        let distinct = cells.iter().all(|c| {
            let bit = 1u64 << grid[c.index()];
            let new = seen & bit == 0;
            seen |= bit;
            new
        });
        let unique = distinct && rng.gen_bool(0.5);
        Some((cells, vec![total, unique as i64]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Sum, 40);
    }
}
