//! Inequality signs: the first of two cells holds a smaller value than the second.
//!
//! File form: `rule = "inequality"` (or `"less"`) on exactly two cells, the smaller first.
//! Engine form: the relation `a < b` ([`Relation`]). f-puzzles' minimum and maximum cells
//! (a cell below or above all its orthogonal neighbours) read as inequalities.

use rand::RngCore;
use serde_json::{json, Value};

use super::draw::{self, Pen};
use super::fpuzzles::{Fp, Instances, Out};
use super::relation::Relation;
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. No numbers.
pub(crate) struct Inequality;

impl Kind for Inequality {
    fn explain(&self, s: &Shape, _params: &[i64], g: &Geometry) -> String {
        format!("{} < {}", g.cell(s.cells[0]).name, g.cell(s.cells[1]).name)
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_PAIR
    }

    fn name(&self) -> &'static str {
        "inequality"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["less"]
    }

    fn title(&self) -> &'static str {
        "Inequality"
    }

    fn read(&self, _p: &Params, cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        pick::two_cells(cells)?;
        Ok(Vec::new())
    }

    fn flatten(&self, s: &Shape, _params: &[i64], _g: &Geometry, out: &mut Flat) {
        let pair = [s.cells[0], s.cells[1]];
        out.propagator(Relation::new(out, &[pair], |a, b| a < b));
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        let (a, b) = (
            pick::value(g, grid, s.cells[0]),
            pick::value(g, grid, s.cells[1]),
        );
        if a < b {
            Ok(())
        } else {
            Err(format!("{a} is not less than {b}"))
        }
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["minimum", "maximum"]
    }

    /// A minimum cell is less than each orthogonal neighbour, a maximum one more; neighbours
    /// that are minimum (maximum) cells too are left alone, as f-puzzles solvers read them.
    fn read_fpuzzles(&self, key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let (r, c) = fp.rc(entry.get("cell").unwrap_or(&Value::Null))?;
        let me = fp.at(r, c).ok_or("its cell is not on the board")?;
        let same: Vec<Value> = fp.obj[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e.get("cell").cloned())
            .collect();
        let mut out = Vec::new();
        for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let name = Value::from(format!("R{}C{}", r + dr, c + dc));
            if same.contains(&name) {
                continue;
            }
            if let Some(other) = fp.at(r + dr, c + dc) {
                let pair = if key == "minimum" {
                    vec![me, other]
                } else {
                    vec![other, me]
                };
                out.push((pair, Vec::new()));
            }
        }
        Ok(out)
    }

    /// f-puzzles has no sign between two cells, only minimum and maximum cells (below or above
    /// every neighbour that is not one too): the signs are written as such cells when each
    /// of them is part of one, and refused otherwise.
    fn write_fpuzzles_all(&self, shapes: &[&Shape], out: &mut Out) -> Result<(), String> {
        let pairs: Vec<[(i64, i64); 2]> = shapes
            .iter()
            .map(|s| [out.rc(s.cells[0]), out.rc(s.cells[1])])
            .collect();
        let n = out.n as i64;
        let around = |(r, c): (i64, i64)| {
            [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
                .into_iter()
                .filter(|&(r, c)| (1..=n).contains(&r) && (1..=n).contains(&c))
        };
        // the cells below (`low` = 0) or above (1) every neighbour not of their own sort:
        // the largest such set, from the cells below (above) some neighbour
        let ends = |low: usize| {
            let mut set: Vec<(i64, i64)> = pairs.iter().map(|p| p[low]).collect();
            set.sort();
            set.dedup();
            loop {
                let keep: Vec<(i64, i64)> = set
                    .iter()
                    .copied()
                    .filter(|&m| {
                        around(m).all(|o| {
                            let pair = if low == 0 { [m, o] } else { [o, m] };
                            set.contains(&o) || pairs.contains(&pair)
                        })
                    })
                    .collect();
                if keep.len() == set.len() {
                    return set;
                }
                set = keep;
            }
        };
        let (min, max) = (ends(0), ends(1));
        for (s, [a, b]) in shapes.iter().zip(&pairs) {
            let by_min = min.contains(a) && !min.contains(b);
            let by_max = max.contains(b) && !max.contains(a);
            if !by_min && !by_max {
                return Err(format!(
                    "'{}' (rule \"inequality\") is not part of a cell below or above all its \
                     neighbours; f-puzzles has such minimum and maximum cells only",
                    s.name
                ));
            }
        }
        for (key, cells) in [("minimum", min), ("maximum", max)] {
            for (r, c) in cells {
                out.push(key, json!({ "cell": format!("R{r}C{c}") }));
            }
        }
        Ok(())
    }

    fn draw(&self, s: &Shape, _params: &[i64], g: &Geometry, pen: &mut Pen) {
        let (a, b) = (Pen::centre(g, s.cells[0]), Pen::centre(g, s.cells[1]));
        let sign = if (a[0] - b[0]).abs() >= (a[1] - b[1]).abs() {
            if a[0] < b[0] {
                "<"
            } else {
                ">"
            }
        } else if a[1] < b[1] {
            "∧"
        } else {
            "∨"
        };
        pen.text(draw::between(g, s.cells[0], s.cells[1]), 0.3, sign);
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let [a, b] = pick::pair(g, grid, rng, &|a, b| a < b)?;
        Some((vec![a, b], Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Inequality, 50);
    }
}
