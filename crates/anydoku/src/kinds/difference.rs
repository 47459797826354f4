//! Difference pairs: the values of two cells differ by a given amount (1 by default: a white
//! kropki dot, the cells hold consecutive values).
//!
//! File form: `rule = "difference"` (or `"white"`, `"kropki-white"`) on exactly two cells, with
//! `difference = N` for another amount. Engine form: the relation `|a - b| = N` between the two
//! cells ([`Relation`]). With the `non-consecutive` pattern, orthogonal neighbours without a
//! difference-1 pair may not hold consecutive values (all white dots given).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{Fp, Instances, Out};
use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[difference]`.
pub(crate) struct Difference;

impl Kind for Difference {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let (a, b) = (&g.cell(s.cells[0]).name, &g.cell(s.cells[1]).name);
        match params[0] {
            1 => format!("{a} and {b} hold consecutive values"),
            d => format!("{a} and {b} differ by {d}"),
        }
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "difference"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["white", "kropki-white"]
    }

    fn title(&self) -> &'static str {
        "Difference"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["difference"]
    }

    fn read(&self, p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        pick::two_cells(cells)?;
        let d = p.int("difference")?.unwrap_or(1);
        if d < 0 {
            return Err(format!("has difference = {d}; a difference is 0 or more"));
        }
        Ok(vec![d])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        if params[0] != 1 {
            out.insert("difference".into(), json!(params[0]));
        }
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let d = params[0];
        let pair = [s.cells[0], s.cells[1]];
        out.propagator(Relation::new(out, &[pair], |a, b| (a - b).abs() == d));
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let (a, b) = (
            pick::value(g, grid, s.cells[0]),
            pick::value(g, grid, s.cells[1]),
        );
        if (a - b).abs() == params[0] {
            Ok(())
        } else {
            Err(format!("{a} and {b} do not differ by {}", params[0]))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["difference"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let d = fp.number(entry, "value")?.unwrap_or(1);
        Ok(vec![(fp.cells(entry, "cells")?, vec![d])])
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let value = (params[0] != 1).then(|| params[0].to_string());
        out.dot("difference", &s.cells, value)
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        let p = draw::between(g, s.cells[0], s.cells[1]);
        pen.circle(p, 0.13, "#ffffff", "#222222");
        if params[0] != 1 {
            pen.text(p, 0.18, &params[0].to_string());
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let white = rng.gen_bool(0.6);
        let [a, b] = pick::pair(g, grid, rng, &|a, b| !white || (a - b).abs() == 1)?;
        let d = (pick::value(g, grid, a) - pick::value(g, grid, b)).abs();
        Some((vec![a, b], vec![d]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Difference, 50);
    }
}
