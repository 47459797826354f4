//! Non-XV: orthogonal neighbours without an X never add up to 10, and those without a V never
//! add up to 5: the "all X and V are given" rule. A pattern: declared once for a layout
//! (`[[pattern]] kind = "non-xv"`), on every cell unless it lists its cells; the pairs follow
//! from the cells' positions.
//!
//! Engine form: a relation on each neighbouring pair (a negative pattern of `pattern`): pairs
//! with neither mark add up to neither 10 nor 5, pairs with one mark only to not the other
//! total.

use rand::RngCore;
use serde_json::Value;

use super::fpuzzles::{Fp, Instances, Out};
use super::pattern::{self, Exclusion};
use super::Kind;
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};

/// See the module docs. No numbers.
pub(crate) struct NonXv;

/// No total of 10 without an X, no total of 5 without a V.
const RULES: &[Exclusion] = &[
    Exclusion {
        mark: "xv",
        number: 10,
        forbidden: |x, y| x + y == 10,
        says: |_, _| "add up to 10 without an X".into(),
    },
    Exclusion {
        mark: "xv",
        number: 5,
        forbidden: |x, y| x + y == 5,
        says: |_, _| "add up to 5 without a V".into(),
    },
];

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
        Ok(if entry == "xv" {
            vec![(all, Vec::new())]
        } else {
            Vec::new()
        })
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.everywhere(s)?;
        out.push("negative", "xv".into());
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
        super::super::harness::conform(&super::NonXv, 40);
    }
}
