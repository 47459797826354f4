//! Palindromes: a line reads the same from both ends (its first and last cells hold the same
//! symbol, and so on inwards).
//!
//! File form: `rule = "palindrome"` with the line's cells in order. Engine form: equal
//! symbols on each mirrored pair ([`Relation::equal`]).

use rand::{Rng, RngCore};
use serde_json::Value;

use super::equal;
use super::fpuzzles::{each_line, Fp, Instances, Out};
use super::relation::Relation;
use super::Kind;
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};

/// See the module docs. No numbers.
pub(crate) struct Palindrome;

/// The mirrored pairs of a line.
fn mirrored(cells: &[CellId]) -> Vec<[CellId; 2]> {
    let n = cells.len();
    (0..n / 2).map(|i| [cells[i], cells[n - 1 - i]]).collect()
}

impl Kind for Palindrome {
    fn explain(&self, s: &Shape, _params: &[i64], g: &Geometry) -> String {
        format!(
            "{} reads the same from both ends",
            super::path_text(g, &s.cells)
        )
    }

    fn name(&self) -> &'static str {
        "palindrome"
    }

    fn title(&self) -> &'static str {
        "Palindrome"
    }

    fn flatten(&self, s: &Shape, _params: &[i64], _g: &Geometry, out: &mut Flat) {
        let pairs = mirrored(&s.cells);
        if !pairs.is_empty() {
            out.propagator(Relation::equal(out, &pairs));
        }
    }

    fn check(&self, s: &Shape, _params: &[i64], g: &Geometry, grid: &[u8]) -> Result<(), String> {
        equal::check(&mirrored(&s.cells), g, grid)
    }

    fn fpuzzles_keys(&self) -> &'static [&'static str] {
        &["palindrome"]
    }

    fn read_fpuzzles(&self, _key: &str, entry: &Value, fp: &Fp) -> Result<Instances, String> {
        each_line(entry, fp, &[])
    }

    fn write_fpuzzles(&self, s: &Shape, _params: &[i64], out: &mut Out) -> Result<(), String> {
        out.line("palindrome", &s.cells, None);
        Ok(())
    }

    fn plant(
        &self,
        g: &Geometry,
        grid: &[u8],
        rng: &mut dyn RngCore,
    ) -> Option<(Vec<CellId>, Vec<i64>)> {
        // pairs of equal cells around an optional middle
        let (left, right, used) = equal::plant(g, grid, rng)?;
        let n = g.cell_count();
        let mut cells = left;
        if let Some(m) = (0..n).find(|&m| !used[m] && rng.gen_bool(0.3)) {
            cells.push(CellId(m as u32));
        }
        cells.extend(right.into_iter().rev());
        Some((cells, Vec::new()))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conformance() {
        super::super::harness::conform(&super::Palindrome, 40);
    }
}
