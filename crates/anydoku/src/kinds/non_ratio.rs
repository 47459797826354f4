//! Non-ratio: no orthogonal neighbour holds twice the value of the other, except where a
//! ratio-2 pair (a black kropki dot) joins them: the "all black dots are given" rule. A pattern:
//! declared once for a layout (`[[pattern]] kind = "non-ratio"`), on every cell unless it
//! lists its cells; the pairs follow from the cells' positions. (With `non-consecutive` it is
//! the full kropki negative rule.)
//!
//! Engine form: the relation "neither is twice the other" on every unmarked pair (a negative
//! pattern of `pattern`).

use rand::RngCore;
use serde_json::Value;

use super::fpuzzles::{Fp, Instances, Out};
use super::pattern::{self, Exclusion};
use super::Kind;
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};

/// See the module docs. No numbers.
pub(crate) struct NonRatio;

/// No ratio of 2 without a black dot.
const RULES: &[Exclusion] = &[Exclusion {
    mark: "ratio",
    number: 2,
    forbidden: |x, y| x == 2 * y || y == 2 * x,
    says: |x, y| format!("hold {x} and {y}, one twice the other, without a black dot"),
}];

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

    fn flatten(&self, s: &Shape, _params: &[i64], g: &Geometry, out: &mut Flat) {
        pattern::flatten_negative(s, g, out, RULES);
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        pattern::check_negative(s, g, grid, RULES)
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["negative"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let all = (0..(fp.n * fp.n) as u32).map(CellId).collect();
        Ok(if entry == "ratio" {
            vec![(all, Vec::new())]
        } else {
            Vec::new()
        })
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.everywhere(s)?;
        out.push("negative", "ratio".into());
        Ok(())
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
        super::super::harness::conform(&super::NonRatio, 40);
    }
}
