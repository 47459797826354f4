//! Non-consecutive: orthogonal neighbours never hold consecutive values (values that differ by
//! 1), except where a difference-1 pair (a white kropki dot) joins them. So with white dots in
//! the layout it is the "all white dots are given" rule. A pattern: declared once for a layout
//! (`[[pattern]] kind = "non-consecutive"`), on every cell unless it lists its cells; the pairs
//! follow from the cells' positions.
//!
//! Engine form: the relation `|a - b| != 1` on every unmarked pair ([`Relation`]).

use rand::RngCore;
use serde_json::{Map, Value};

use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;
use super::fpuzzles::{Fp, Instances};

/// See the module docs. No numbers.
pub(crate) struct NonConsecutive;

/// The white dots: difference pairs of 1.
fn white(p: &[i64]) -> bool {
    p[0] == 1
}

impl Kind for NonConsecutive {
    fn explain(&self, _s: &Shape, _params: &[i64], _g: &Geometry) -> String {
        "orthogonal neighbours without a white dot never hold consecutive values".into()
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "non-consecutive"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["nonconsecutive"]
    }

    fn title(&self) -> &'static str {
        "Non-consecutive"
    }

    fn is_pattern(&self) -> bool {
        true
    }

    fn read(&self, _p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(Vec::new())
    }

    fn write(&self, _params: &[i64], _symbols: &SymbolSet, _out: &mut Map<String, Value>) {}

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        let marked = pick::marked_pairs(g, "difference", &white);
        let pairs = pick::unmarked_neighbours(g, &s.cells, &marked);
        if !pairs.is_empty() {
            out.propagator(Relation::new(out, &pairs, |a, b| (a - b).abs() != 1));
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let marked = pick::marked_pairs(g, "difference", &white);
        for [a, b] in pick::touching_sides(g, &s.cells) {
            let (x, y) = (pick::value(g, grid, a), pick::value(g, grid, b));
            if (x - y).abs() == 1 && !marked.contains(&(a.0.min(b.0), a.0.max(b.0))) {
                return Err(format!(
                    "{} and {} hold consecutive {x} and {y} without a white dot",
                    g.cell(a).name,
                    g.cell(b).name
                ));
            }
        }
        Ok(())
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["nonconsecutive", "negative"]
    }

    fn read_fpuzzles(&self, key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let on = key == "nonconsecutive" || entry == "difference";
        let all = (0..(fp.n * fp.n) as u32).map(CellId).collect();
        Ok(if on { vec![(all, Vec::new())] } else { Vec::new() })
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let marked = pick::marked_pairs(g, "difference", &white);
        let ok = |a: CellId, b: CellId| {
            let (x, y) = (pick::value(g, grid, a), pick::value(g, grid, b));
            (x - y).abs() != 1 || marked.contains(&(a.0.min(b.0), a.0.max(b.0)))
        };
        let cells = pick::pattern_cells(g, rng, pick::ORTHOGONAL, &ok)?;
        Some((cells, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::NonConsecutive, 40);
    }
}
