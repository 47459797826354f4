//! Ratio pairs: one cell's value is a given multiple of the other's (2 by default: a black
//! kropki dot).
//!
//! File form: `rule = "ratio"` (or `"black"`, `"kropki-black"`) on exactly two cells, with
//! `ratio = N` for another multiple. Engine form: the relation `a = N * b or b = N * a`
//! between the two cells ([`Relation`]). With the `non-ratio` pattern, orthogonal neighbours
//! without a ratio-2 pair may not be in ratio 2 (all black dots given).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{Fp, Instances, Out};
use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[ratio]`.
pub(crate) struct Ratio;

/// Whether one of `a`, `b` is `r` times the other.
pub(crate) fn in_ratio(a: i64, b: i64, r: i64) -> bool {
    a == r * b || b == r * a
}

impl Kind for Ratio {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let (a, b) = (&g.cell(s.cells[0]).name, &g.cell(s.cells[1]).name);
        match params[0] {
            2 => format!("one of {a} and {b} is double the other"),
            r => format!("one of {a} and {b} is {r} times the other"),
        }
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "ratio"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["black", "kropki-black"]
    }

    fn title(&self) -> &'static str {
        "Ratio"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["ratio"]
    }

    fn read(&self, p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        pick::two_cells(cells)?;
        let r = p.int("ratio")?.unwrap_or(2);
        if r < 1 {
            return Err(format!("has ratio = {r}; a ratio is 1 or more"));
        }
        Ok(vec![r])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        if params[0] != 2 {
            out.insert("ratio".into(), json!(params[0]));
        }
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let r = params[0];
        let pair = [s.cells[0], s.cells[1]];
        out.propagator(Relation::new(out, &[pair], |a, b| in_ratio(a, b, r)));
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let (a, b) = (
            pick::value(g, grid, s.cells[0]),
            pick::value(g, grid, s.cells[1]),
        );
        let r = params[0];
        if a == r * b || b == r * a {
            Ok(())
        } else {
            Err(format!("neither of {a} and {b} is {r} times the other"))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["ratio"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let r = fp.number(entry, "value")?.unwrap_or(2);
        Ok(vec![(fp.cells(entry, "cells")?, vec![r])])
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let value = (params[0] != 2).then(|| params[0].to_string());
        out.dot("ratio", &s.cells, value)
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        let p = draw::between(g, s.cells[0], s.cells[1]);
        pen.circle(p, 0.13, "#222222", "#222222");
        if params[0] != 2 {
            pen.text([p[0], p[1] - 0.25], 0.18, &params[0].to_string());
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let r = if rng.gen_bool(0.7) {
            2
        } else {
            rng.gen_range(1..=4)
        };
        let [a, b] = pick::pair(g, grid, rng, &|a, b| in_ratio(a, b, r))?;
        Some((vec![a, b], vec![r]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Ratio, 50);
    }
}
