//! Indexers: the value in the line's indexing cell says where along the line the indexing
//! cell's own position appears ("159" Sudoku: a digit in column 1 of a row is the column of
//! that row's 1).
//!
//! File form: `rule = "indexer"` with the line's cells (positions 1, 2, … in that order) and
//! `index = K`, the position of the indexing cell (1 by default). The rule: if the cell at
//! position K holds value v, the cell at position v holds value K. Engine form: [`Index`],
//! which keeps a value v in the indexing cell only while the cell at position v can hold K,
//! and fixes that cell once v is placed.

use rand::RngCore;
use serde_json::{json, Map, Value};

use super::fpuzzles::{Fp, Instances, Out};
use super::{pick, Kind, Params};
use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[index]`.
pub(crate) struct Indexer;

/// See the module docs.
#[derive(Debug)]
struct Index {
    cells: Box<[u32]>,
    at: usize,
    /// For each symbol, the position its value points at (`u8::MAX`: outside the line).
    points: Box<[u8]>,
    /// The symbols whose value is the indexing cell's position.
    target: Mask,
}

impl Propagator for Index {
    fn propagate(&self, c: &mut Cands) -> bool {
        let me = self.cells[self.at];
        let mut keep: Mask = 0;
        let mut bits = c.get(me);
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            let p = self.points[s];
            if p != u8::MAX && c.get(self.cells[p as usize]) & self.target != 0 {
                keep |= 1 << s;
            }
            bits &= bits - 1;
        }
        if !c.keep(me, keep) {
            return false;
        }
        let m = c.get(me);
        if m & (m - 1) == 0 {
            let p = self.points[m.trailing_zeros() as usize] as usize;
            return c.keep(self.cells[p], self.target);
        }
        true
    }
}

impl Kind for Indexer {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let k = params[0];
        format!(
            "along {}, the cell at position {k} holds the position of the value {k}",
            super::path_text(g, &s.cells)
        )
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_SUM
    }

    fn name(&self) -> &'static str {
        "indexer"
    }

    fn title(&self) -> &'static str {
        "Indexer"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["index"]
    }

    fn read(&self, p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let k = p.int("index")?.unwrap_or(1);
        if k < 1 || k as usize > cells || cells > 255 {
            return Err(format!(
                "has index = {k}; it is a position along the line's {cells} cells"
            ));
        }
        Ok(vec![k])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        out.insert("index".into(), json!(params[0]));
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let n = s.cells.len() as i64;
        let values = out.values();
        let points = values
            .iter()
            .map(|&v| {
                if (1..=n).contains(&v) {
                    (v - 1) as u8
                } else {
                    u8::MAX
                }
            })
            .collect();
        let target = (0..values.len())
            .filter(|&s| values[s] == params[0])
            .fold(0, |m, s| m | (1 << s));
        out.propagator(Index {
            cells: s.cells.iter().map(|c| c.0).collect(),
            at: params[0] as usize - 1,
            points,
            target,
        });
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let k = params[0];
        let v = pick::value(g, grid, s.cells[k as usize - 1]);
        if v < 1 || v as usize > s.cells.len() {
            return Err(format!("position {k} holds {v}, which is off the line"));
        }
        let w = pick::value(g, grid, s.cells[v as usize - 1]);
        if w == k {
            Ok(())
        } else {
            Err(format!(
                "position {k} holds {v}, but position {v} holds {w}, not {k}"
            ))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["columnindexer"]
    }

    /// Each listed cell indexes its row: its value is the column of its own column number.
    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let mut out = Vec::new();
        for v in entry
            .get("cells")
            .and_then(Value::as_array)
            .ok_or("has no cells")?
        {
            let (r, c) = fp.rc(v)?;
            fp.at(r, c).ok_or("a cell is not on the board")?;
            let row = (1..=fp.n as i64).filter_map(|k| fp.at(r, k)).collect();
            out.push((row, vec![c]));
        }
        Ok(out)
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let (r, _) = out.rc(s.cells[0]);
        if out.clue_of(&s.cells)? != format!("R{r}C0") {
            return Err("is not a row read left to right; f-puzzles indexes rows only".into());
        }
        let entry = json!({ "cells": [out.name(s.cells[params[0] as usize - 1])] });
        out.push("columnindexer", entry);
        Ok(())
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // a line in a random order; any position whose rule holds
        // a whole row or column from the edge, else any cells
        let cells = pick::edge_run(g, rng, pick::ORTHOGONAL)
            .unwrap_or_else(|| pick::distinct_cells(g, rng, 4));
        let len = cells.len();
        let v: Vec<i64> = cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        let ok = |k: usize| {
            let x = v[k - 1];
            x >= 1 && x as usize <= len && v[x as usize - 1] == k as i64
        };
        let k = (1..=len).find(|&k| ok(k))?;
        Some((cells, vec![k as i64]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Indexer, 40);
    }
}
