//! Little killers: the values along a diagonal add up to the clue written outside the grid;
//! values may repeat (the diagonal crosses boxes). A sum, drawn and named as a little killer.
//!
//! File form: `rule = "little-killer"` with the diagonal's cells (from the clue inwards) and
//! `sum = N`. Engine form: a sum shape that allows repeats (the sum kernel's filters).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{Fp, Instances, Out};
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[sum]`.
pub(crate) struct LittleKiller;

impl Kind for LittleKiller {
    fn name(&self) -> &'static str {
        "little-killer"
    }

    fn title(&self) -> &'static str {
        "Little killer"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["sum"]
    }

    fn read(&self, p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        Ok(vec![p.need_int("sum")?])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        out.insert("sum".into(), json!(params[0]));
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        out.sum(&s.cells, params[0], false);
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let total: i64 = s.cells.iter().map(|&c| pick::value(g, grid, c)).sum();
        if total == params[0] {
            Ok(())
        } else {
            Err(format!(
                "the diagonal adds up to {total}, not {}",
                params[0]
            ))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["littlekillersum"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        match fp.number(entry, "value")? {
            Some(total) => Ok(vec![(fp.cells(entry, "cells")?, vec![total])]),
            None => Ok(Vec::new()),
        }
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let (clue, direction) = out.diagonal_clue(&s.cells)?;
        let entry = json!({
            "cell": clue,
            "cells": out.names(&s.cells),
            "direction": direction,
            "value": params[0].to_string(),
        });
        out.push("littlekillersum", entry);
        Ok(())
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        draw::clue(g, &s.cells, params[0], pen);
        // a small arrow from a clue outside the grid along its diagonal
        let (at, first) = (draw::before(g, &s.cells), Pen::centre(g, s.cells[0]));
        let (dx, dy) = (first[0] - at[0], first[1] - at[1]);
        let len = (dx * dx + dy * dy).sqrt();
        if len > 0.5 {
            let (ux, uy) = (dx / len, dy / len);
            let from = [at[0] + 0.24 * ux, at[1] + 0.24 * uy];
            let tip = [at[0] + 0.48 * ux, at[1] + 0.48 * uy];
            pen.line(&[from, tip], "#555555", 0.035, 0.9);
            draw::arrowhead(pen, from, tip, 0.1, 0.035, "#555555");
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // a whole diagonal from the edge, else a short diagonal walk
        let cells = match pick::edge_run(g, rng, &[(1, 1), (1, -1)]) {
            Some(run) => run,
            None => {
                let len = rng.gen_range(1..=4);
                let step: &[(i64, i64)] = if rng.gen_bool(0.5) {
                    &[(1, 1)]
                } else {
                    &[(1, -1)]
                };
                pick::walk(g, rng, len, step, &|_, _| true)
            }
        };
        let total = cells.iter().map(|&c| pick::value(g, grid, c)).sum();
        Some((cells, vec![total]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::LittleKiller, 40);
    }
}
