//! Inequality signs: the first of two cells holds a smaller value than the second.
//!
//! File form: `rule = "inequality"` (or `"less"`) on exactly two cells, the smaller first.
//! Engine form: the relation `a < b` ([`Relation`]). f-puzzles' minimum and maximum cells
//! (a cell below or above all its orthogonal neighbours) read as inequalities.

use rand::RngCore;
use serde_json::{Map, Value};

use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. No numbers.
pub(crate) struct Inequality;

impl Kind for Inequality {
    fn name(&self) -> &'static str {
        "inequality"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["less"]
    }

    fn title(&self) -> &'static str {
        "Inequality"
    }

    fn read(&self, _p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        pick::two_cells(cells)?;
        Ok(Vec::new())
    }

    fn write(&self, _params: &[i64], _symbols: &SymbolSet, _out: &mut Map<String, Value>) {}

    fn flatten(&self, s: &Shape, _params: &[i64], _g: &Geometry, out: &mut Flat) {
        let pair = [s.cells[0], s.cells[1]];
        out.propagator(Relation::new(out, &[pair], |a, b| a < b));
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let (a, b) = (
            pick::value(g, grid, s.cells[0]),
            pick::value(g, grid, s.cells[1]),
        );
        if a < b {
            Ok(())
        } else {
            Err(format!("{a} is not less than {b}"))
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let [a, b] = pick::pair(g, grid, rng, &|a, b| a < b)?;
        Some((vec![a, b], Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Inequality, 50);
    }
}
