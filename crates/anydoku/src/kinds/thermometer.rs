//! Thermometers: values strictly increase from the bulb (the first cell) to the tip; a slow
//! thermometer's values never decrease (neighbours may be equal).
//!
//! File form: `rule = "thermometer"` (or `"thermo"`) with the cells from the bulb, and
//! `slow = true` for a slow one. Engine form: the relation `<` (or `<=`) between neighbouring
//! cells of the line ([`Relation::along`], arc consistent along the whole line in one pass).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{each_line, Fp, Instances, Out};
use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[slow (0 or 1)]`.
pub(crate) struct Thermometer;

impl Kind for Thermometer {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let how = if params[0] != 0 {
            "never decrease"
        } else {
            "increase"
        };
        format!("values {how} along {}", super::path_text(g, &s.cells))
    }

    fn name(&self) -> &'static str {
        "thermometer"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["thermo"]
    }

    fn title(&self) -> &'static str {
        "Thermometer"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["slow"]
    }

    fn read(&self, p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(vec![p.bool("slow")?.unwrap_or(false) as i64])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        if params[0] != 0 {
            out.insert("slow".into(), json!(true));
        }
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        if s.cells.len() < 2 {
            return;
        }
        let p = if params[0] != 0 {
            Relation::along(out, &s.cells, |a, b| a <= b)
        } else {
            Relation::along(out, &s.cells, |a, b| a < b)
        };
        out.propagator(p);
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        for w in s.cells.windows(2) {
            let (a, b) = (pick::value(g, grid, w[0]), pick::value(g, grid, w[1]));
            let rises = if params[0] != 0 { a <= b } else { a < b };
            if !rises {
                return Err(format!(
                    "{} ({a}) is not {} {} ({b})",
                    g.cell(w[1]).name,
                    if params[0] != 0 { "at least" } else { "above" },
                    g.cell(w[0]).name
                ));
            }
        }
        Ok(())
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["thermometer", "slowthermometer"]
    }

    fn read_fpuzzles(&self, key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        each_line(entry, fp, &[(key == "slowthermometer") as i64])
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let key = if params[0] != 0 {
            "slowthermometer"
        } else {
            "thermometer"
        };
        out.line(key, &s.cells, None);
        Ok(())
    }

    fn draw(&self, s: &Shape, _params: &[i64], g: &Geometry, pen: &mut Pen) {
        let pts: Vec<draw::Pt> = s.cells.iter().map(|&c| Pen::centre(g, c)).collect();
        pen.line(&pts, "#9a9a9a", 0.28, 0.8);
        pen.circle(pts[0], 0.36, "#9a9a9a", "none");
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let slow = rng.gen_bool(0.3);
        let len = rng.gen_range(2..=g.symbol_count().max(2));
        let rises = |path: &[CellId], next: CellId| {
            let (a, b) = (
                pick::value(g, grid, *path.last().expect("a cell")),
                pick::value(g, grid, next),
            );
            a < b || (slow && a == b)
        };
        let cells = pick::walk(g, rng, len, pick::KING, &rises);
        (cells.len() >= 2).then_some((cells, vec![slow as i64]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Thermometer, 60);
    }
}
