//! Sandwiches: the line holds the lowest and the highest value of the symbol set once each,
//! and the values strictly between those two cells add up to the clue.
//!
//! File form: `rule = "sandwich"` with the line's cells (a row or column, from the clue) and
//! `sum = N`. Engine form: the cells are peers, and [`Bread`] keeps the lowest symbol only in
//! cells that some placement of both crusts with a feasible filling allows (and so for the
//! highest), from bounds on the cells between.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{outside_clue, Fp, Instances, Out};
use super::{pick, Kind, Params};
use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[sum]`.
pub(crate) struct Sandwich;

/// The most cells a sandwich line may have (positions are bits of a word).
const MAX_CELLS: usize = 64;

/// The symbols with the lowest and the highest value.
fn crusts(values: &[i64]) -> (usize, usize) {
    let lo = (0..values.len()).min_by_key(|&s| values[s]).unwrap_or(0);
    let hi = (0..values.len()).max_by_key(|&s| values[s]).unwrap_or(0);
    (lo, hi)
}

/// See the module docs.
#[derive(Debug)]
struct Bread {
    cells: Box<[u32]>,
    lo: usize,
    hi: usize,
    total: i64,
    values: Box<[i64]>,
}

/// Far above any sum of values: a cell that cannot be filling.
const NONE: i64 = i64::MAX / 1024;

impl Propagator for Bread {
    fn propagate(&self, c: &mut Cands) -> bool {
        let n = self.cells.len();
        let crusts: Mask = (1 << self.lo) | (1 << self.hi);
        // prefix sums of the smallest and largest filling values
        let (mut mn, mut mx) = ([0i64; MAX_CELLS + 1], [0i64; MAX_CELLS + 1]);
        for (i, &x) in self.cells.iter().enumerate() {
            let mut m = c.get(x) & !crusts;
            let (mut a, mut b) = (NONE, -NONE);
            while m != 0 {
                let v = self.values[m.trailing_zeros() as usize];
                (a, b) = (a.min(v), b.max(v));
                m &= m - 1;
            }
            mn[i + 1] = mn[i] + a;
            mx[i + 1] = mx[i] + b;
        }
        let (mut lo_ok, mut hi_ok) = (0u64, 0u64);
        for i in 0..n {
            if c.get(self.cells[i]) & (1 << self.lo) == 0 {
                continue;
            }
            for j in 0..n {
                if i == j || c.get(self.cells[j]) & (1 << self.hi) == 0 {
                    continue;
                }
                let (a, b) = (i.min(j), i.max(j));
                let (low, high) = (mn[b] - mn[a + 1], mx[b] - mx[a + 1]);
                if low <= self.total && self.total <= high {
                    lo_ok |= 1 << i;
                    hi_ok |= 1 << j;
                }
            }
        }
        if lo_ok == 0 {
            return false;
        }
        for (i, &x) in self.cells.iter().enumerate() {
            let mut keep = !0;
            if lo_ok >> i & 1 == 0 {
                keep &= !(1 << self.lo);
            }
            if hi_ok >> i & 1 == 0 {
                keep &= !(1 << self.hi);
            }
            if !c.keep(x, keep) {
                return false;
            }
        }
        true
    }
}

impl Kind for Sandwich {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        format!(
            "the values between the lowest and the highest symbol on {} add up to {}",
            super::path_text(g, &s.cells),
            params[0]
        )
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_COUNT
    }

    fn name(&self) -> &'static str {
        "sandwich"
    }

    fn title(&self) -> &'static str {
        "Sandwich"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["sum"]
    }

    fn read(&self, p: &Params, cells: usize, symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        let total = p.need_int("sum")?;
        if !(2..=MAX_CELLS).contains(&cells) {
            return Err(format!(
                "has {cells} cells; a sandwich takes 2 to {MAX_CELLS}"
            ));
        }
        let values = symbols.values();
        let (lo, hi) = crusts(values);
        let count = |v: i64| values.iter().filter(|&&x| x == v).count();
        if count(values[lo]) > 1 || count(values[hi]) > 1 {
            return Err("needs one symbol with the lowest value and one with the highest".into());
        }
        Ok(vec![total])
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        out.insert("sum".into(), json!(params[0]));
    }

    fn distinct(&self, _params: &[i64]) -> bool {
        true
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let (lo, hi) = crusts(out.values());
        out.propagator(Bread {
            cells: s.cells.iter().map(|c| c.0).collect(),
            lo,
            hi,
            total: params[0],
            values: out.values().into(),
        });
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let (lo, hi) = crusts(g.symbols.values());
        let at = |sym: usize| s.cells.iter().position(|c| grid[c.index()] as usize == sym);
        let (Some(i), Some(j)) = (at(lo), at(hi)) else {
            return Err("the line lacks the lowest or the highest value".into());
        };
        super::unique::Unique.check(s, &[], g, grid)?;
        let (a, b) = (i.min(j), i.max(j));
        let filling: i64 = s.cells[a + 1..b]
            .iter()
            .map(|&c| pick::value(g, grid, c))
            .sum();
        if filling == params[0] {
            Ok(())
        } else {
            Err(format!(
                "the filling adds up to {filling}, not {}",
                params[0]
            ))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["sandwichsum"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        outside_clue(entry, fp)
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let entry = json!({ "cell": out.clue_of(&s.cells)?, "value": params[0].to_string() });
        out.push("sandwichsum", entry);
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
        let (lo, hi) = crusts(g.symbols.values());
        let mut all: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
        for t in 0..50 {
            // whole rows or columns from the edge first, then any cells
            let run = if t < 10 {
                pick::edge_run(g, rng, pick::ORTHOGONAL)
            } else {
                None
            };
            let len = rng.gen_range(2..=4.min(all.len()).max(2)).min(all.len());
            all.shuffle(rng);
            let cells = run.as_deref().unwrap_or(&all[..len]);
            let len = cells.len();
            let syms: Vec<u8> = cells.iter().map(|c| grid[c.index()]).collect();
            let distinct = (0..len).all(|i| !syms[..i].contains(&syms[i]));
            let i = syms.iter().position(|&s| s as usize == lo);
            let j = syms.iter().position(|&s| s as usize == hi);
            if let (true, Some(i), Some(j)) = (distinct, i, j) {
                let (a, b) = (i.min(j), i.max(j));
                let total = cells[a + 1..b]
                    .iter()
                    .map(|&c| pick::value(g, grid, c))
                    .sum();
                return Some((cells.to_vec(), vec![total]));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Sandwich, 40);
    }
}
