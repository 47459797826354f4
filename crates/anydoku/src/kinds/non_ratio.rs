//! Non-ratio: no orthogonal neighbour holds twice the value of the other, except where a
//! ratio-2 pair (a black kropki dot) joins them: the "all black dots are given" rule. A pattern:
//! declared once for a layout (`[[pattern]] kind = "non-ratio"`), on every cell unless it
//! lists its cells; the pairs follow from the cells' positions. (With `non-consecutive` it is
//! the full kropki negative rule.)
//!
//! Engine form: the relation "neither is twice the other" on every unmarked pair
//! ([`Relation`]).

use rand::RngCore;
use serde_json::{Map, Value};

use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;
use super::fpuzzles::{Fp, Instances};

/// See the module docs. No numbers.
pub(crate) struct NonRatio;

/// The black dots: ratio pairs of 2.
fn black(p: &[i64]) -> bool {
    p[0] == 2
}

impl Kind for NonRatio {
    fn explain(&self, _s: &Shape, _params: &[i64], _g: &Geometry) -> String {
        "no orthogonal neighbour without a black dot holds twice the other's value".into()
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "non-ratio"
    }

    fn title(&self) -> &'static str {
        "Non-ratio"
    }

    fn is_pattern(&self) -> bool {
        true
    }

    fn read(&self, _p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(Vec::new())
    }

    fn write(&self, _params: &[i64], _symbols: &SymbolSet, _out: &mut Map<String, Value>) {}

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        let marked = pick::marked_pairs(g, "ratio", &black);
        let pairs = pick::unmarked_neighbours(g, &s.cells, &marked);
        if !pairs.is_empty() {
            out.propagator(Relation::new(out, &pairs, |a, b| a != 2 * b && b != 2 * a));
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let marked = pick::marked_pairs(g, "ratio", &black);
        for [a, b] in pick::touching_sides(g, &s.cells) {
            let (x, y) = (pick::value(g, grid, a), pick::value(g, grid, b));
            if (x == 2 * y || y == 2 * x) && !marked.contains(&(a.0.min(b.0), a.0.max(b.0))) {
                return Err(format!(
                    "{} and {} hold {x} and {y}, one twice the other, without a black dot",
                    g.cell(a).name,
                    g.cell(b).name
                ));
            }
        }
        Ok(())
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["negative"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let all = (0..(fp.n * fp.n) as u32).map(CellId).collect();
        Ok(if entry == "ratio" { vec![(all, Vec::new())] } else { Vec::new() })
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let marked = pick::marked_pairs(g, "ratio", &black);
        let ok = |a: CellId, b: CellId| {
            let (x, y) = (pick::value(g, grid, a), pick::value(g, grid, b));
            (x != 2 * y && y != 2 * x) || marked.contains(&(a.0.min(b.0), a.0.max(b.0)))
        };
        let cells = pick::pattern_cells(g, rng, pick::ORTHOGONAL, &ok)?;
        Some((cells, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::NonRatio, 40);
    }
}
