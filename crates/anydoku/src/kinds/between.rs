//! Between lines: the values on the line lie strictly between the values of its two ends (the
//! circles).
//!
//! File form: `rule = "between"` with the line's cells from one circle to the other. Engine
//! form: [`BetweenLine`]: a middle cell keeps the values some pair of end values brackets; an
//! end keeps the values for which some value of the other end leaves every middle cell a
//! candidate strictly between them.

use rand::{Rng, RngCore};
use serde_json::Value;

use super::draw::{self, Pen};
use super::fpuzzles::{each_line, Fp, Instances, Out};
use super::{pick, Kind, Params};
use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. No numbers.
pub(crate) struct Between;

/// See the module docs.
#[derive(Debug)]
struct BetweenLine {
    ends: [u32; 2],
    middle: Box<[u32]>,
    values: Box<[i64]>,
}

impl BetweenLine {
    fn bounds(&self, mut m: Mask) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        while m != 0 {
            let v = self.values[m.trailing_zeros() as usize];
            (lo, hi) = (lo.min(v), hi.max(v));
            m &= m - 1;
        }
        (lo, hi)
    }

    /// Whether some symbol of `m` has a value strictly between `lo` and `hi`.
    fn any_inside(&self, mut m: Mask, lo: i64, hi: i64) -> bool {
        while m != 0 {
            let v = self.values[m.trailing_zeros() as usize];
            if lo < v && v < hi {
                return true;
            }
            m &= m - 1;
        }
        false
    }

    /// The symbols of end `a` that some symbol of end `b` brackets the middle with.
    fn end_support(&self, c: &Cands, a: u32, b: u32) -> Mask {
        let mut keep = 0;
        let mut am = c.get(a);
        while am != 0 {
            let s = am.trailing_zeros() as usize;
            let x = self.values[s];
            let mut bm = c.get(b);
            while bm != 0 {
                let y = self.values[bm.trailing_zeros() as usize];
                let (lo, hi) = (x.min(y), x.max(y));
                if self
                    .middle
                    .iter()
                    .all(|&m| self.any_inside(c.get(m), lo, hi))
                {
                    keep |= 1 << s;
                    break;
                }
                bm &= bm - 1;
            }
            am &= am - 1;
        }
        keep
    }
}

impl Propagator for BetweenLine {
    fn propagate(&self, c: &mut Cands) -> bool {
        let [a, b] = self.ends;
        if !c.keep(a, self.end_support(c, a, b)) || !c.keep(b, self.end_support(c, b, a)) {
            return false;
        }
        let ((alo, ahi), (blo, bhi)) = (self.bounds(c.get(a)), self.bounds(c.get(b)));
        for &m in self.middle.iter() {
            let mut keep: Mask = 0;
            let mut bits = c.get(m);
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                let x = self.values[s];
                if (alo < x && x < bhi) || (blo < x && x < ahi) {
                    keep |= 1 << s;
                }
                bits &= bits - 1;
            }
            if !c.keep(m, keep) {
                return false;
            }
        }
        true
    }
}

impl Kind for Between {
    fn explain(&self, s: &Shape, _params: &[i64], g: &Geometry) -> String {
        let n = s.cells.len();
        format!(
            "the values of {} lie between those of {} and {}",
            super::path_text(g, &s.cells[1..n - 1]),
            g.cell(s.cells[0]).name,
            g.cell(s.cells[n - 1]).name
        )
    }

    fn name(&self) -> &'static str {
        "between"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["between-line"]
    }

    fn title(&self) -> &'static str {
        "Between line"
    }

    fn read(&self, _p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        if cells < 2 {
            return Err(format!("has {cells} cell; a between line has two ends"));
        }
        Ok(Vec::new())
    }

    fn flatten(&self, s: &Shape, _params: &[i64], _g: &Geometry, out: &mut Flat) {
        let n = s.cells.len();
        if n > 2 {
            out.propagator(BetweenLine {
                ends: [s.cells[0].0, s.cells[n - 1].0],
                middle: s.cells[1..n - 1].iter().map(|c| c.0).collect(),
                values: out.values().into(),
            });
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let v: Vec<i64> = s.cells.iter().map(|&c| pick::value(g, grid, c)).collect();
        let n = v.len();
        let (lo, hi) = (v[0].min(v[n - 1]), v[0].max(v[n - 1]));
        match v[1..n - 1].iter().find(|&&x| x <= lo || x >= hi) {
            Some(x) => Err(format!("{x} is not between {lo} and {hi}")),
            None => Ok(()),
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["betweenline"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        each_line(entry, fp, &[])
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.line("betweenline", &s.cells, None);
        Ok(())
    }

    fn draw(&self, s: &Shape, _params: &[i64], g: &Geometry, pen: &mut Pen) {
        let pts: Vec<draw::Pt> = s.cells.iter().map(|&c| Pen::centre(g, c)).collect();
        pen.line(&pts, "#888888", 0.1, 0.8);
        for p in [pts[0], pts[pts.len() - 1]] {
            pen.circle(p, 0.4, "#ffffff", "#888888");
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // a path of neighbouring cells
        for _ in 0..200 {
            let len = rng.gen_range(3..=5);
            let cells = pick::walk(g, rng, len, pick::KING, &|_, _| true);
            let v: Vec<i64> = cells.iter().map(|&c| pick::value(g, grid, c)).collect();
            let (lo, hi) = (v[0].min(v[v.len() - 1]), v[0].max(v[v.len() - 1]));
            if v.len() >= 2 && v[1..v.len() - 1].iter().all(|&x| lo < x && x < hi) {
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
        super::super::harness::conform(&super::Between, 40);
    }
}
