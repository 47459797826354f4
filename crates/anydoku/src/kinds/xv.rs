//! XV pairs: the values of two cells add up to a given total (an X is 10, a V is 5).
//!
//! File form: `rule = "xv"` on exactly two cells with `sum = 10` or `sum = 5` (any total is
//! accepted; pictures draw 10 as X and 5 as V). Engine form: the relation `a + b = sum`
//! between the two cells ([`Relation`]). With the `non-xv` pattern, orthogonal neighbours
//! without an X may not add up to 10, nor those without a V to 5 (all X and V given).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{Fp, Instances, Out};
use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[sum]`.
pub(crate) struct Xv;

impl Kind for Xv {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let (a, b) = (&g.cell(s.cells[0]).name, &g.cell(s.cells[1]).name);
        format!("{a} + {b} = {}", params[0])
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "xv"
    }

    fn title(&self) -> &'static str {
        "XV"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["sum"]
    }

    fn read(&self, p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        pick::two_cells(cells)?;
        Ok(vec![p.need_int("sum")?])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        out.insert("sum".into(), json!(params[0]));
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let total = params[0];
        let pair = [s.cells[0], s.cells[1]];
        out.propagator(Relation::new(out, &[pair], |a, b| a + b == total));
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let (a, b) = (
            pick::value(g, grid, s.cells[0]),
            pick::value(g, grid, s.cells[1]),
        );
        if a + b == params[0] {
            Ok(())
        } else {
            Err(format!("{a} + {b} is not {}", params[0]))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["xv"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let total = match entry.get("value").and_then(Value::as_str) {
            Some("X" | "x") => 10,
            Some("V" | "v") => 5,
            _ => return Err("has no value \"X\" or \"V\"".into()),
        };
        Ok(vec![(fp.cells(entry, "cells")?, vec![total])])
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let value = match params[0] {
            10 => "X",
            5 => "V",
            t => {
                return Err(format!(
                    "adds up to {t}; f-puzzles has X (10) and V (5) only"
                ))
            }
        };
        out.dot("xv", &s.cells, Some(value.into()))
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        let p = draw::between(g, s.cells[0], s.cells[1]);
        let label = match params[0] {
            10 => "X".to_string(),
            5 => "V".to_string(),
            t => t.to_string(),
        };
        pen.circle(p, 0.16, "#ffffff", "none");
        pen.text(p, 0.3, &label);
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let classic = rng.gen_bool(0.5);
        let [a, b] = pick::pair(g, grid, rng, &|a, b| !classic || a + b == 10 || a + b == 5)?;
        let total = pick::value(g, grid, a) + pick::value(g, grid, b);
        Some((vec![a, b], vec![total]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Xv, 50);
    }
}
