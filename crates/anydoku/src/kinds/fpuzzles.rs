//! The kinds' side of f-puzzles import: a kind lists the f-puzzles keys it reads
//! ([`super::Kind::fpuzzles_keys`]) and turns each entry under them into instances
//! ([`super::Kind::read_fpuzzles`]) with the helpers of [`Fp`]. [`import`] runs every kind
//! over a puzzle's keys; `puzzle::fpuzzles` calls it after the board, cages and regions.
//!
//! A key is a top-level key of the f-puzzles JSON ("thermometer", "odd", …), or `cell:NAME`
//! for a key of the grid's cells (`cell:parity`), whose entry is `{"cell": "R1C1", "value":
//! …}`. A flag (`"nonconsecutive": true`) comes as one entry, `true`.

use serde_json::{json, Map, Value};

use super::{rule, KINDS};
use crate::geometry::{CellId, Shape, ShapeKind};

/// Instances of a kind read from one entry: each its cells and numbers.
pub(crate) type Instances = Vec<(Vec<CellId>, Vec<i64>)>;

/// An f-puzzles board of side `n` and its JSON, for reading entries.
pub(crate) struct Fp<'a> {
    pub(crate) n: usize,
    pub(crate) obj: &'a Map<String, Value>,
}

impl Fp<'_> {
    /// Row and column (1-based; 0 and n + 1 are the clue positions outside) of "R4C0".
    pub(crate) fn rc(&self, v: &Value) -> Result<(i64, i64), String> {
        let s = v.as_str().ok_or_else(|| format!("{v} is not a cell like \"R1C1\""))?;
        let bad = || format!("\"{s}\" is not a cell like \"R1C1\"");
        let rest = s.strip_prefix(['R', 'r']).ok_or_else(bad)?;
        let (r, c) = rest.split_once(['C', 'c']).ok_or_else(bad)?;
        let (r, c) = (r.parse::<i64>().map_err(|_| bad())?, c.parse::<i64>().map_err(|_| bad())?);
        let n = self.n as i64;
        if !(0..=n + 1).contains(&r) || !(0..=n + 1).contains(&c) {
            return Err(format!("\"{s}\" is off the {n}x{n} board"));
        }
        Ok((r, c))
    }

    /// The cell at row `r`, column `c` (1-based), if it is on the board.
    pub(crate) fn at(&self, r: i64, c: i64) -> Option<CellId> {
        let n = self.n as i64;
        ((1..=n).contains(&r) && (1..=n).contains(&c)).then(|| CellId(((r - 1) * n + c - 1) as u32))
    }

    /// A cell on the board.
    pub(crate) fn cell(&self, v: &Value) -> Result<CellId, String> {
        let (r, c) = self.rc(v)?;
        self.at(r, c).ok_or_else(|| format!("{v} is not on the board"))
    }

    /// The cells of a list under `key` of `entry`.
    pub(crate) fn cells(&self, entry: &Value, key: &str) -> Result<Vec<CellId>, String> {
        let list = entry
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("an entry has no list \"{key}\""))?;
        list.iter().map(|v| self.cell(v)).collect()
    }

    /// Each line of `entry["lines"]`.
    pub(crate) fn lines(&self, entry: &Value) -> Result<Vec<Vec<CellId>>, String> {
        let lines = entry
            .get("lines")
            .and_then(Value::as_array)
            .ok_or_else(|| "an entry has no \"lines\"".to_string())?;
        lines
            .iter()
            .map(|l| self.cells(&json!({ "l": l }), "l"))
            .collect()
    }

    /// A whole number under `key` (f-puzzles writes them as strings), if given.
    pub(crate) fn number(&self, entry: &Value, key: &str) -> Result<Option<i64>, String> {
        match entry.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => s
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("has value \"{s}\", which is not a whole number")),
            Some(v) => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| format!("has value {v}, which is not a whole number")),
        }
    }

    /// The line of cells from the clue at `(r, c)` outside the board inwards, if it is one.
    pub(crate) fn clue_line(&self, r: i64, c: i64) -> Option<Vec<CellId>> {
        let n = self.n as i64;
        let (start, step) = match (r, c) {
            (0, c) if (1..=n).contains(&c) => ((1, c), (1, 0)),
            (r, 0) if (1..=n).contains(&r) => ((r, 1), (0, 1)),
            (r, c) if r == n + 1 && (1..=n).contains(&c) => ((n, c), (-1, 0)),
            (r, c) if c == n + 1 && (1..=n).contains(&r) => ((r, n), (0, -1)),
            _ => return None,
        };
        Some(
            (0..n)
                .filter_map(|i| self.at(start.0 + step.0 * i, start.1 + step.1 * i))
                .collect(),
        )
    }
}

/// Whether some kind reads the f-puzzles key `key` (`cell:NAME` for a cell's key).
pub(crate) fn reads(key: &str) -> bool {
    KINDS.iter().any(|k| k.fpuzzles_keys().contains(&key))
}

/// Every top-level key some kind reads, for messages.
pub(crate) fn keys() -> String {
    let mut keys: Vec<&str> = KINDS.iter().flat_map(|k| k.fpuzzles_keys()).copied().collect();
    keys.retain(|k| !k.starts_with("cell:"));
    keys.sort();
    keys.dedup();
    keys.join(", ")
}

/// The shapes of every key of `obj` (the f-puzzles JSON of an `n`x`n` board) some kind
/// reads, numbered per kind after the shapes already in `shapes`.
pub(crate) fn import(obj: &Map<String, Value>, n: usize, shapes: &mut Vec<Shape>) -> Result<(), String> {
    let fp = Fp { n, obj };
    let mut entries: Vec<(String, Value)> = Vec::new();
    for (key, v) in obj {
        match v {
            Value::Array(list) => entries.extend(list.iter().map(|e| (key.clone(), e.clone()))),
            Value::Bool(true) => entries.push((key.clone(), Value::Bool(true))),
            _ => {}
        }
    }
    if let Some(grid) = obj.get("grid").and_then(Value::as_array) {
        for (r, row) in grid.iter().enumerate() {
            for (c, cell) in row.as_array().into_iter().flatten().enumerate() {
                for (k, v) in cell.as_object().into_iter().flatten() {
                    let name = format!("R{}C{}", r + 1, c + 1);
                    entries.push((format!("cell:{k}"), json!({"cell": name, "value": v})));
                }
            }
        }
    }
    for (id, kind) in KINDS.iter().enumerate() {
        let mut number = 0;
        for (key, entry) in entries.iter().filter(|e| kind.fpuzzles_keys().contains(&e.0.as_str())) {
            let found = kind
                .read_fpuzzles(key, entry, &fp)
                .map_err(|m| format!("f-puzzles \"{key}\" {entry}: {m}"))?;
            for (cells, params) in found {
                number += 1;
                let name = match kind.is_pattern() {
                    true => kind.title().to_string(),
                    false => format!("{} {number}", kind.title()),
                };
                shapes.push(Shape {
                    name,
                    rule: rule(id as u16, params),
                    cells,
                    kind: ShapeKind::Extra,
                });
            }
        }
    }
    Ok(())
}

/// The line of an entry's clue outside the board (`cell` "R0C3", …) with its number (`value`)
/// as the instance's one number; none when the clue has no number (sandwiches, skyscrapers).
pub(crate) fn outside_clue(entry: &Value, fp: &Fp) -> Result<Instances, String> {
    let Some(number) = fp.number(entry, "value")? else {
        return Ok(Vec::new());
    };
    let (r, c) = fp.rc(entry.get("cell").unwrap_or(&Value::Null))?;
    let line = fp.clue_line(r, c).ok_or("its clue is not beside a row or column")?;
    Ok(vec![(line, vec![number])])
}

/// One instance per line of the entry, with no numbers (renban, palindromes, …).
pub(crate) fn each_line(entry: &Value, fp: &Fp, params: &[i64]) -> Result<Instances, String> {
    Ok(fp.lines(entry)?.into_iter().map(|l| (l, params.to_vec())).collect())
}
