//! Parity: every cell of the shape holds an odd value, or every cell an even one (the grey
//! circles and squares of odd/even Sudoku).
//!
//! File form: `rule = "parity"` with `parity = "odd"` or `"even"`. Engine form: the allowed
//! set of those symbols ([`Unary`]).

use rand::{Rng, RngCore};
use serde_json::{json, Map, Value};

use super::allowed::{plant_cells, Unary};
use super::draw::Pen;
use super::fpuzzles::{Fp, Instances, Out};
use super::{pick, Kind, Params};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::{CellId, Geometry, Shape};
use crate::symbols::SymbolSet;

/// See the module docs. Numbers: `[1 for odd, 0 for even]`.
pub(crate) struct Parity;

impl Kind for Parity {
    fn explain(&self, s: &Shape, params: &[i64], g: &Geometry) -> String {
        let which = if params[0] != 0 { "odd" } else { "even" };
        let cells: Vec<&str> = s.cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
        format!("{} hold {which} values", cells.join(", "))
    }

    fn logic_weight(&self, _params: &[i64]) -> f64 {
        crate::logic::rate::CONSTRAINT_CELL
    }

    fn name(&self) -> &'static str {
        "parity"
    }

    fn title(&self) -> &'static str {
        "Parity"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["parity"]
    }

    fn read(&self, p: &Params, _cells: usize, _symbols: &SymbolSet) -> Result<Vec<i64>, String> {
        match p.str("parity")? {
            Some("odd") => Ok(vec![1]),
            Some("even") => Ok(vec![0]),
            Some(other) => Err(format!(
                "has parity = \"{other}\"; expected \"odd\" or \"even\""
            )),
            None => Err("has rule \"parity\" but no parity (\"odd\" or \"even\")".into()),
        }
    }

    fn write(&self, params: &[i64], _symbols: &SymbolSet, out: &mut Map<String, Value>) {
        let word = if params[0] == 1 { "odd" } else { "even" };
        out.insert("parity".into(), json!(word));
    }

    fn flatten(&self, s: &Shape, params: &[i64], _g: &Geometry, out: &mut Flat) {
        let mut mask: Mask = 0;
        for (i, v) in out.values().iter().enumerate() {
            if v.rem_euclid(2) == params[0] {
                mask |= 1 << i;
            }
        }
        out.propagator(Unary {
            cells: s.cells.iter().map(|c| c.0).collect(),
            mask,
        });
    }

    fn check(&self, s: &Shape, params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        for &c in &s.cells {
            let v = pick::value(g, grid, c);
            if v.rem_euclid(2) != params[0] {
                let word = if params[0] == 1 { "odd" } else { "even" };
                return Err(format!("{} holds {v}, which is not {word}", g.cell(c).name));
            }
        }
        Ok(())
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["odd", "even", "cell:parity"]
    }

    fn read_fpuzzles(&self, key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        let cell = fp.cell(entry.get("cell").unwrap_or(&Value::Null))?;
        let odd = match (key, entry.get("value").and_then(Value::as_str)) {
            ("odd", _) => 1,
            ("even", _) => 0,
            (_, Some(p)) if p.eq_ignore_ascii_case("odd") => 1,
            (_, Some(p)) if p.eq_ignore_ascii_case("even") => 0,
            _ => return Err("has a parity other than \"Odd\" or \"Even\"".into()),
        };
        Ok(vec![(vec![cell], vec![odd])])
    }

    fn write_fpuzzles(&self, s: &Shape, params: &[i64], out: &mut Out) -> Result<(), String> {
        let key = if params[0] == 1 { "odd" } else { "even" };
        for &c in &s.cells {
            let entry = json!({ "cell": out.name(c) });
            out.push(key, entry);
        }
        Ok(())
    }

    fn draw(&self, s: &Shape, params: &[i64], g: &Geometry, pen: &mut Pen) {
        for &c in &s.cells {
            if params[0] == 1 {
                pen.circle(Pen::centre(g, c), 0.38, "#d6d6d6", "none");
            } else {
                pen.square(Pen::centre(g, c), 0.36, "#d6d6d6");
            }
        }
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        let odd = rng.gen_range(0..2i64);
        let cells: Vec<CellId> = plant_cells(g, grid, rng)
            .into_iter()
            .filter(|&c| pick::value(g, grid, c).rem_euclid(2) == odd)
            .collect();
        (!cells.is_empty()).then_some((cells, vec![odd]))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Parity, 40);
    }
}
