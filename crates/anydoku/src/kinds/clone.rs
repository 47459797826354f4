//! Clones: two areas of the same shape hold the same symbols in the same places.
//!
//! File form: `rule = "clone"` with the first area's cells, then the second's, in matching
//! order (an even number of cells). Engine form: equal symbols on each matching pair
//! ([`Relation::equal`]).

use rand::RngCore;
use serde_json::{json, Value};

use super::draw::Pen;
use super::equal;
use super::fpuzzles::{Fp, Instances, Out};
use super::relation::Relation;
use super::{Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. No numbers.
pub(crate) struct Clones;

/// The matching pairs of the two halves.
fn matching(cells: &[CellId]) -> Vec<[CellId; 2]> {
    let h = cells.len() / 2;
    (0..h).map(|i| [cells[i], cells[h + i]]).collect()
}

impl Kind for Clones {
    fn explain(&self, s: &Shape, _params: &[i64], g: &Geometry) -> String {
        let half = s.cells.len() / 2;
        format!(
            "{} hold the same symbols as {}",
            super::path_text(g, &s.cells[..half]),
            super::path_text(g, &s.cells[half..])
        )
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "clone"
    }

    fn title(&self) -> &'static str {
        "Clone"
    }

    fn read(&self, _p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        if cells % 2 == 1 {
            return Err(format!(
                "has {cells} cells; a clone lists both areas' cells, an even number"
            ));
        }
        Ok(Vec::new())
    }

    fn flatten(&self, s: &Shape, _params: &[i64], _g: &Geometry, out: &mut Flat) {
        out.propagator(Relation::equal(out, &matching(&s.cells)));
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        equal::check(&matching(&s.cells), g, grid)
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["clone"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let mut cells = fp.cells(entry, "cells")?;
        let other = fp.cells(entry, "cloneCells")?;
        if other.len() != cells.len() {
            return Err("has areas of different sizes".into());
        }
        cells.extend(other);
        Ok(vec![(cells, Vec::new())])
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        let (first, second) = s.cells.split_at(s.cells.len() / 2);
        let entry = json!({ "cells": out.names(first), "cloneCells": out.names(second) });
        out.push("clone", entry);
        Ok(())
    }

    fn draw(&self, s: &Shape, _params: &[i64], g: &Geometry, pen: &mut Pen) {
        for &c in &s.cells {
            pen.square(Pen::centre(g, c), 0.45, "#fff0c0");
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let (mut first, second, _) = equal::plant(g, grid, rng)?;
        first.extend(second);
        Some((first, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Clones, 40);
    }
}
