//! Skyscrapers: seen from the clue, a cell is visible when its value is higher than every
//! value before it on the line; the clue counts the visible cells.
//!
//! File form: `rule = "skyscraper"` with the line's cells from the clue outwards and
//! `count = N`. Engine form: [`Visible`], which keeps out of each cell the values too high
//! for its position (the visible cells rise, so a value with h values above it at position i
//! leaves at most i + 1 + h visible), and bounds the count from the candidates: the first
//! cell is always visible, a cell whose every candidate is below a value some earlier
//! cell surely reaches is hidden, and a cell whose every candidate is above every candidate
//! before it is visible; with every cell placed the count is exact.

use rand::RngCore;
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{outside_clue, Fp, Instances, Out};
use super::{pick, Kind, Params};
use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[count]`.
pub(crate) struct Skyscraper;

/// See the module docs.
#[derive(Debug)]
struct Visible {
    cells: Box<[u32]>,
    /// For each cell, the symbols it may hold at all: at position i a value with h distinct
    /// values above it leaves at most i + 1 + h visible cells (the visible ones rise).
    room: Box<[Mask]>,
    count: i64,
    values: Box<[i64]>,
}

impl Visible {
    fn bounds(&self, mut m: Mask) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        while m != 0 {
            let v = self.values[m.trailing_zeros() as usize];
            (lo, hi) = (lo.min(v), hi.max(v));
            m &= m - 1;
        }
        (lo, hi)
    }
}

impl Propagator for Visible {
    fn propagate(&self, c: &mut Cands) -> bool {
        // surely visible / possibly visible, from the running bounds of the maximum so far
        let (mut sure, mut maybe) = (0i64, 0i64);
        let (mut max_lo, mut max_hi) = (i64::MIN, i64::MIN);
        for (&x, &room) in self.cells.iter().zip(self.room.iter()) {
            if !c.keep(x, room) {
                return false;
            }
            let (lo, hi) = self.bounds(c.get(x));
            if lo > max_hi {
                sure += 1;
            }
            if hi > max_lo {
                maybe += 1;
            }
            (max_lo, max_hi) = (max_lo.max(lo), max_hi.max(hi));
        }
        sure <= self.count && self.count <= maybe
    }
}

/// How many values of `v` are higher than all before them.
fn visible(v: &[i64]) -> i64 {
    let mut seen = i64::MIN;
    let mut count = 0;
    for &x in v {
        if x > seen {
            count += 1;
            seen = x;
        }
    }
    count
}

impl Kind for Skyscraper {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        format!(
            "seen from before {}, {} cells of {} stand above all before them",
            g.cell(s.cells[0]).name,
            params[0],
            super::path_text(g, &s.cells)
        )
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_COUNT
    }

    fn name(&self) -> &'static str {
        "skyscraper"
    }

    fn title(&self) -> &'static str {
        "Skyscraper"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["count"]
    }

    fn read(&self, p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let k = p.need_int("count")?;
        if k < 1 || k as usize > cells {
            return Err(format!("has count = {k}; it sees 1 to {cells} cells"));
        }
        Ok(vec![k])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        out.insert("count".into(), json!(params[0]));
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let values = out.values();
        let mut distinct = values.to_vec();
        distinct.sort();
        distinct.dedup();
        let room = (0..s.cells.len() as i64)
            .map(|i| {
                let mut m: Mask = 0;
                for (sym, v) in values.iter().enumerate() {
                    let higher = distinct.iter().filter(|&w| w > v).count() as i64;
                    if i + 1 + higher >= params[0] {
                        m |= 1 << sym;
                    }
                }
                m
            })
            .collect();
        out.propagator(Visible {
            cells: s.cells.iter().map(|c| c.0).collect(),
            room,
            count: params[0],
            values: out.values().into(),
        });
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let v: Vec<i64> = s.cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        let k = visible(&v);
        if k == params[0] {
            Ok(())
        } else {
            Err(format!("{k} cells are visible, not {}", params[0]))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["skyscraper"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        outside_clue(entry, fp)
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let entry = json!({ "cell": out.clue_of(&s.cells)?, "value": params[0].to_string() });
        out.push("skyscraper", entry);
        Ok(())
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        draw::clue(g, &s.cells, params[0], pen);
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // a whole row or column from the edge, else any cells
        let cells = pick::edge_run(g, rng, pick::ORTHOGONAL)
            .unwrap_or_else(|| pick::distinct_cells(g, rng, 4));
        let v: Vec<i64> = cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        let k = visible(&v);
        Some((cells, vec![k]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Skyscraper, 40);
    }
}
