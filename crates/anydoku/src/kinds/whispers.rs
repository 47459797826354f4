//! German whispers: neighbouring cells along the line differ by at least a given amount (5 by
//! default, the usual clue on 1–9).
//!
//! File form: `rule = "whispers"` with the line's cells and `difference = N` for another
//! amount. Engine form: the relation `|a − b| ≥ N` along the line ([`Relation::along`]).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{each_line, Fp, Instances, Out};
use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[difference]`.
pub(crate) struct Whispers;

impl Kind for Whispers {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        format!(
            "neighbours along {} differ by at least {}",
            super::path_text(g, &s.cells),
            params[0]
        )
    }

    fn name(&self) -> &'static str {
        "whispers"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["german-whispers"]
    }

    fn title(&self) -> &'static str {
        "Whispers"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["difference"]
    }

    fn read(&self, p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let d = p.int("difference")?.unwrap_or(5);
        if d < 0 {
            return Err(format!("has difference = {d}; a difference is 0 or more"));
        }
        Ok(vec![d])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        if params[0] != 5 {
            out.insert("difference".into(), json!(params[0]));
        }
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        if s.cells.len() >= 2 {
            let d = params[0];
            out.propagator(Relation::along(out, &s.cells, |a, b| (a - b).abs() >= d));
        }
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        for w in s.cells.windows(2) {
            let (a, b) = (pick::value(g, grid, w[0]), pick::value(g, grid, w[1]));
            if (a - b).abs() < params[0] {
                return Err(format!("{a} and {b} are closer than {}", params[0]));
            }
        }
        Ok(())
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["whispers"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let d = fp.number(entry, "value")?.unwrap_or(5);
        each_line(entry, fp, &[d])
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        out.line("whispers", &s.cells, (params[0] != 5).then_some(params[0]));
        Ok(())
    }

    fn draw(&self, s: &Shape, _params: &[i64], g: &Geometry, pen: &mut Pen) {
        let pts: Vec<draw::Pt> = s.cells.iter().map(|&c| Pen::centre(g, c)).collect();
        pen.line(&pts, "#3fbf5f", 0.22, 0.6);
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let d = rng.gen_range(1..=3);
        let len = rng.gen_range(2..=4);
        let far = |path: &[CellId], next: CellId| {
            let a = pick::value(g, grid, *path.last().expect("a cell"));
            (a - pick::value(g, grid, next)).abs() >= d
        };
        let cells = pick::walk(g, rng, len, pick::KING, &far);
        (cells.len() >= 2).then_some((cells, vec![d]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Whispers, 40);
    }
}
