//! Arrows: the values along an arrow add up to the number in its circle. The circle is one
//! cell, or several (a pill) read as one number, digit by digit (`10 · first + second`).
//!
//! File form: `rule = "arrow"` with the circle's cells first, then the arrow's, and
//! `circle = K` when the circle has K cells (1 by default). Engine form: the linear equation
//! `Σ 10^… · circle − Σ arrow = 0` ([`Linear`], bounds consistent).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{Fp, Instances, Out};
use super::linear::Linear;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[circle cells]`.
pub(crate) struct Arrow;

/// The most cells a circle may have.
const MAX_CIRCLE: i64 = 4;

/// The number the circle's values make.
fn circle_number(values: &[i64]) -> i64 {
    values.iter().fold(0, |acc, d| acc * 10 + d)
}

impl Kind for Arrow {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let k = params[0] as usize;
        let circle: Vec<&str> = s.cells[..k]
            .iter()
            .map(|&c| g.cell(c).name.as_str())
            .collect();
        let what = if k == 1 { "the value" } else { "the number" };
        format!(
            "{what} in {} is the sum of {}",
            circle.join(" and "),
            super::path_text(g, &s.cells[k..])
        )
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_SUM
    }

    fn name(&self) -> &'static str {
        "arrow"
    }

    fn title(&self) -> &'static str {
        "Arrow"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["circle"]
    }

    fn read(&self, p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let k = p.int("circle")?.unwrap_or(1);
        if !(1..=MAX_CIRCLE).contains(&k) {
            return Err(format!(
                "has circle = {k}; a circle has 1 to {MAX_CIRCLE} cells"
            ));
        }
        if cells as i64 <= k {
            return Err(format!(
                "has {cells} cells and a circle of {k}; an arrow needs a cell past its circle"
            ));
        }
        Ok(vec![k])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        if params[0] != 1 {
            out.insert("circle".into(), json!(params[0]));
        }
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let k = params[0] as usize;
        let coefs: Vec<i64> = (0..s.cells.len())
            .map(|i| {
                if i < k {
                    10i64.pow((k - 1 - i) as u32)
                } else {
                    -1
                }
            })
            .collect();
        out.propagator(Linear::new(out, &s.cells, &coefs));
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let k = params[0] as usize;
        let v: Vec<i64> = s.cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        let (circle, arrow) = (circle_number(&v[..k]), v[k..].iter().sum::<i64>());
        if circle == arrow {
            Ok(())
        } else {
            Err(format!(
                "the arrow adds up to {arrow}, the circle says {circle}"
            ))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["arrow"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        // each line is an arrow of its own: the circle's cells in reading order, then the
        // line's cells past the circle
        let mut circle = fp.cells(entry, "cells")?;
        circle.sort();
        let mut out = Vec::new();
        for line in fp.lines(entry)? {
            let mut cells = circle.clone();
            cells.extend(line.into_iter().filter(|c| !circle.contains(c)));
            if !circle.is_empty() && cells.len() > circle.len() {
                out.push((cells, vec![circle.len() as i64]));
            }
        }
        Ok(out)
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let k = params[0] as usize;
        let (circle, shaft) = s.cells.split_at(k);
        if !circle.windows(2).all(|w| out.rc(w[0]) < out.rc(w[1])) {
            return Err(
                "has a circle not in reading order; f-puzzles reads a pill that way".into(),
            );
        }
        let mut line = vec![circle[k - 1]];
        line.extend_from_slice(shaft);
        let entry = json!({ "cells": out.names(circle), "lines": [out.names(&line)] });
        out.push("arrow", entry);
        Ok(())
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        let k = params[0] as usize;
        let pts: Vec<draw::Pt> = s.cells.iter().map(|&c| Pen::centre(g, c)).collect();
        pen.line(&pts[k - 1..], "#777777", 0.06, 0.9);
        for &p in &pts[..k] {
            pen.circle(p, 0.4, "#ffffff", "#777777");
        }
        if let [.., from, tip] = pts[..] {
            draw::arrowhead(pen, from, tip, 0.28, 0.06, "#777777");
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // the circle, then the arrow's body, one path of neighbouring cells
        for _ in 0..200 {
            let k = if rng.gen_bool(0.2) { 2 } else { 1 };
            let len = rng.gen_range(k + 1..=k + 3);
            let cells = pick::walk(g, rng, len, pick::KING, &|_, _| true);
            if cells.len() <= k {
                continue;
            }
            let v: Vec<i64> = cells.iter().map(|&c| pick::value(g, grid, c)).collect();
            if circle_number(&v[..k]) == v[k..].iter().sum::<i64>() {
                return Some((cells, vec![k as i64]));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Arrow, 40);
    }
}
