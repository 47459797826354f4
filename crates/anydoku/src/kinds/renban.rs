//! Renban lines: the line's cells hold a set of consecutive values, in any order, none twice.
//!
//! File form: `rule = "renban"` with the line's cells. Engine form: the cells are peers, and
//! [`Run`] keeps in each cell the symbols of the runs of values (`m, m + 1, …`) that can still
//! fill the line: every cell has a candidate in the run and every value of the run is a
//! candidate of some cell.

use rand::{Rng, RngCore};
use serde_json::Value;

use super::draw::{self, Pen};
use super::fpuzzles::{each_line, Fp, Instances, Out};
use super::{pick, Kind};
use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};

/// See the module docs. No numbers.
pub(crate) struct Renban;

/// See the module docs.
#[derive(Debug)]
struct Run {
    cells: Box<[u32]>,
    /// For each possible run, the symbols of each of its values: `cells.len()` masks a run.
    runs: Box<[Mask]>,
}

impl Propagator for Run {
    fn propagate(&self, c: &mut Cands) -> bool {
        let n = self.cells.len();
        let mut union: Mask = 0;
        for &x in self.cells.iter() {
            union |= c.get(x);
        }
        let mut keep: Mask = 0;
        for run in self.runs.chunks_exact(n) {
            let all = run.iter().fold(0, |a, m| a | m);
            let filled = run.iter().all(|&m| union & m != 0);
            if filled && self.cells.iter().all(|&x| c.get(x) & all != 0) {
                keep |= all;
            }
        }
        self.cells.iter().all(|&x| c.keep(x, keep))
    }
}

impl Kind for Renban {
    fn explain(&self, s: &Shape, _params: &[i64], g: &Geometry) -> String {
        format!(
            "{} hold consecutive values in some order",
            super::path_text(g, &s.cells)
        )
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_SET
    }

    fn name(&self) -> &'static str {
        "renban"
    }

    fn title(&self) -> &'static str {
        "Renban"
    }

    fn distinct(&self, _params: &[i64]) -> bool {
        true
    }

    fn flatten(&self, s: &Shape, _params: &[i64], _g: &Geometry, out: &mut Flat) {
        let values = out.values();
        let n = s.cells.len();
        let symbols_of = |v: i64| -> Mask {
            let mut m = 0;
            for (s, &x) in values.iter().enumerate() {
                if x == v {
                    m |= 1 << s;
                }
            }
            m
        };
        let mut starts: Vec<i64> = values.to_vec();
        starts.sort();
        starts.dedup();
        let mut runs = Vec::new();
        for m in starts {
            let run: Vec<Mask> = (0..n as i64).map(|j| symbols_of(m + j)).collect();
            if run.iter().all(|&x| x != 0) {
                runs.extend(run);
            }
        }
        out.propagator(Run {
            cells: s.cells.iter().map(|c| c.0).collect(),
            runs: runs.into(),
        });
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let mut v: Vec<i64> = s.cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        v.sort();
        if v.windows(2).all(|w| w[1] == w[0] + 1) {
            Ok(())
        } else {
            Err(format!("{v:?} is not a run of consecutive values"))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["renban"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        each_line(entry, fp, &[])
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.line("renban", &s.cells, None);
        Ok(())
    }

    fn draw(&self, s: &Shape, _params: &[i64], g: &Geometry, pen: &mut Pen) {
        let pts: Vec<draw::Pt> = s.cells.iter().map(|&c| Pen::centre(g, c)).collect();
        pen.line(&pts, "#b061d6", 0.22, 0.6);
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // a path of neighbouring cells
        for _ in 0..200 {
            let len = rng.gen_range(2..=4);
            let cells = pick::walk(g, rng, len, pick::KING, &|_, _| true);
            let mut v: Vec<i64> = cells.iter().map(|&c| pick::value(g, grid, c)).collect();
            v.sort();
            if v.windows(2).all(|w| w[1] == w[0] + 1) {
                return Some((cells, Vec::new()));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Renban, 40);
    }
}
