//! Non-XV: orthogonal neighbours without an X never add up to 10, and those without a V never
//! add up to 5: the "all X and V are given" rule. A pattern: declared once for a layout
//! (`[[pattern]] kind = "non-xv"`), on every cell unless it lists its cells; the pairs follow
//! from the cells' positions.
//!
//! Engine form: a relation on each neighbouring pair ([`Relation`]): pairs with neither mark
//! add up to neither 10 nor 5, pairs with one mark only to not the other total.

use rand::RngCore;
use serde_json::{Map, Value};

use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;
use super::fpuzzles::{Fp, Instances};

/// See the module docs. No numbers.
pub(crate) struct NonXv;

/// The totals an unmarked pair may not add up to.
const TOTALS: [i64; 2] = [10, 5];

impl Kind for NonXv {
    fn explain(&self, _s: &Shape, _params: &[i64], _g: &Geometry) -> String {
        "orthogonal neighbours without an X never add up to 10, nor without a V to 5".into()
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "non-xv"
    }

    fn title(&self) -> &'static str {
        "Non-XV"
    }

    fn is_pattern(&self) -> bool {
        true
    }

    fn read(&self, _p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(Vec::new())
    }

    fn write(&self, _params: &[i64], _symbols: &SymbolSet, _out: &mut Map<String, Value>) {}

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        for total in TOTALS {
            let marked = pick::marked_pairs(g, "xv", &|p| p[0] == total);
            let pairs = pick::unmarked_neighbours(g, &s.cells, &marked);
            if !pairs.is_empty() {
                out.propagator(Relation::new(out, &pairs, |a, b| a + b != total));
            }
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        for total in TOTALS {
            let marked = pick::marked_pairs(g, "xv", &|p| p[0] == total);
            for [a, b] in pick::touching_sides(g, &s.cells) {
                let (x, y) = (pick::value(g, grid, a), pick::value(g, grid, b));
                if x + y == total && !marked.contains(&(a.0.min(b.0), a.0.max(b.0))) {
                    return Err(format!(
                        "{} and {} add up to {total} without {}",
                        g.cell(a).name,
                        g.cell(b).name,
                        if total == 10 { "an X" } else { "a V" }
                    ));
                }
            }
        }
        Ok(())
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["negative"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let all = (0..(fp.n * fp.n) as u32).map(CellId).collect();
        Ok(if entry == "xv" { vec![(all, Vec::new())] } else { Vec::new() })
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let marks = TOTALS.map(|total| pick::marked_pairs(g, "xv", &|p| p[0] == total));
        let ok = |a: CellId, b: CellId| {
            let sum = pick::value(g, grid, a) + pick::value(g, grid, b);
            let key = (a.0.min(b.0), a.0.max(b.0));
            (0..2).all(|i| sum != TOTALS[i] || marks[i].contains(&key))
        };
        let cells = pick::pattern_cells(g, rng, pick::ORTHOGONAL, &ok)?;
        Some((cells, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::NonXv, 40);
    }
}
