//! Non-consecutive: orthogonal neighbours never hold consecutive values (values that differ by
//! 1), except where a difference-1 pair (a white kropki dot) joins them. So with white dots in
//! the layout it is the "all white dots are given" rule. A pattern: declared once for a layout
//! (`[[pattern]] kind = "non-consecutive"`), on every cell unless it lists its cells; the pairs
//! follow from the cells' positions.
//!
//! Engine form: the relation `|a - b| != 1` on every unmarked pair (a negative pattern of
//! `pattern`).

use rand::RngCore;
use serde_json::Value;

use super::fpuzzles::{Fp, Instances, Out};
use super::pattern::{self, Exclusion};
use super::Kind;
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};

/// See the module docs. No numbers.
pub(crate) struct NonConsecutive;

/// No difference of 1 without a white dot.
const RULES: &[Exclusion] = &[Exclusion {
    mark: "difference",
    number: 1,
    forbidden: |x, y| (x - y).abs() == 1,
    says: |x, y| format!("hold consecutive {x} and {y} without a white dot"),
}];

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

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        pattern::flatten_negative(s, g, out, RULES);
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        pattern::check_negative(s, g, grid, RULES)
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["nonconsecutive", "negative"]
    }

    fn read_fpuzzles(&self, key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let on = key == "nonconsecutive" || entry == "difference";
        let all = (0..(fp.n * fp.n) as u32).map(CellId).collect();
        Ok(if on {
            vec![(all, Vec::new())]
        } else {
            Vec::new()
        })
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.flag("nonconsecutive", s)
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        pattern::plant_negative(g, grid, rng, RULES)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::NonConsecutive, 40);
    }
}
