//! Quadruples: the listed values all appear among the shape's cells (a value listed twice
//! appears at least twice); the usual clue is a circle on the corner of four cells.
//!
//! File form: `rule = "quadruple"` with `values = [3, 4, 5]`. Engine form: [`Contains`],
//! which fails when too few cells can still hold a listed value, places it when exactly
//! enough can, and limits the cells to the listed symbols when they are as many as the cells.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::Pen;
use super::fpuzzles::{Fp, Instances, Out};
use super::{pick, Kind, Params};
use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: the values, in order.
pub(crate) struct Quadruple;

/// See the module docs.
#[derive(Debug)]
struct Contains {
    cells: Box<[u32]>,
    /// The symbols of each listed value and how many times it is listed.
    wants: Box<[(Mask, u8)]>,
    /// The listed symbols, when they fill every cell.
    only: Option<Mask>,
}

impl Propagator for Contains {
    fn propagate(&self, c: &mut Cands) -> bool {
        for &(bit, k) in self.wants.iter() {
            let can = self.cells.iter().filter(|&&x| c.get(x) & bit != 0).count();
            if can < k as usize {
                return false;
            }
            if can == k as usize {
                for &x in self.cells.iter() {
                    if c.get(x) & bit != 0 && !c.keep(x, bit) {
                        return false;
                    }
                }
            }
        }
        match self.only {
            Some(m) => self.cells.iter().all(|&x| c.keep(x, m)),
            None => true,
        }
    }
}

impl Kind for Quadruple {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let values: Vec<String> = params.iter().map(i64::to_string).collect();
        let cells: Vec<&str> = s.cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
        format!(
            "{} include the values {}",
            cells.join(", "),
            values.join(", ")
        )
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_SET
    }

    fn name(&self) -> &'static str {
        "quadruple"
    }

    fn title(&self) -> &'static str {
        "Quadruple"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["values"]
    }

    fn read(&self, p: &Params, cells: usize, symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let mut values = p
            .ints("values")?
            .ok_or_else(|| "has rule \"quadruple\" but no values".to_string())?;
        if values.is_empty() || values.len() > cells {
            return Err(format!(
                "lists {} values for {cells} cells; it takes 1 to {cells}",
                values.len()
            ));
        }
        if let Some(v) = values.iter().find(|v| !symbols.values().contains(v)) {
            return Err(format!("lists the value {v}, which no symbol has"));
        }
        values.sort();
        Ok(values)
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        out.insert("values".into(), json!(params));
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let values = out.values();
        let mut wants: Vec<(Mask, u8)> = Vec::new();
        let mut all: Mask = 0;
        for v in params {
            let mut bits: Mask = 0;
            for (s, x) in values.iter().enumerate() {
                if x == v {
                    bits |= 1 << s;
                }
            }
            all |= bits;
            match wants.iter_mut().find(|w| w.0 == bits) {
                Some(w) => w.1 += 1,
                None => wants.push((bits, 1)),
            }
        }
        let only = (params.len() == s.cells.len()).then_some(all);
        out.propagator(Contains {
            cells: s.cells.iter().map(|c| c.0).collect(),
            wants: wants.into(),
            only,
        });
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let mut left: Vec<i64> = s.cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        for v in params {
            match left.iter().position(|x| x == v) {
                Some(i) => {
                    left.remove(i);
                }
                None => return Err(format!("{v} is missing")),
            }
        }
        Ok(())
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["quadruple"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let values = entry
            .get("values")
            .and_then(Value::as_array)
            .ok_or("has no list \"values\"")?;
        let mut values = values
            .iter()
            .map(|v| v.as_i64().ok_or(format!("lists {v}, not a whole number")))
            .collect::<Result<Vec<i64>, String>>()?;
        values.sort();
        Ok(vec![(fp.cells(entry, "cells")?, values)])
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let mut rc: Vec<(i64, i64)> = s.cells.iter().map(|&c| out.rc(c)).collect();
        rc.sort();
        let (r, c) = rc[0];
        if rc != [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] {
            return Err("is not on a 2x2 block; f-puzzles puts a quadruple on one".into());
        }
        let entry = json!({ "cells": out.names(&s.cells), "values": params });
        out.push("quadruple", entry);
        Ok(())
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        let k = s.cells.len() as f64;
        let mut p = [0.0, 0.0];
        for &c in &s.cells {
            let q = Pen::centre(g, c);
            p = [p[0] + q[0] / k, p[1] + q[1] / k];
        }
        pen.circle(p, 0.3, "#ffffff", "#222222");
        let text: Vec<String> = params.iter().map(i64::to_string).collect();
        pen.text(p, 0.16, &text.join(""));
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // the four cells around a corner, where the layout has them
        let cells = match pick::square(g, rng) {
            Some(square) => square,
            None => {
                let mut all: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
                all.shuffle(rng);
                all[..rng.gen_range(1..=4.min(all.len()))].to_vec()
            }
        };
        let mut values: Vec<i64> = cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        values.shuffle(rng);
        values.truncate(rng.gen_range(2.min(values.len())..=values.len()));
        values.sort();
        Some((cells, values))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Quadruple, 40);
    }
}
