//! The kinds' side of f-puzzles import and export. Import: a kind lists the f-puzzles keys it
//! reads ([`super::Kind::fpuzzles_keys`]) and turns each entry under them into instances
//! ([`super::Kind::read_fpuzzles`]) with the helpers of [`Fp`]. [`import`] runs every kind
//! over a puzzle's keys; `puzzle::fpuzzles` calls it after the board, cages and regions.
//!
//! Export: a kind writes each of its shapes back under the same keys
//! ([`super::Kind::write_fpuzzles`], or [`super::Kind::write_fpuzzles_all`] for a kind that
//! needs all its shapes at once) with the helpers of [`Out`]; a kind f-puzzles cannot express
//! keeps the default, which refuses it by name. [`export`] runs every kind over a puzzle's
//! constraint shapes. A kind's writer is the inverse of its reader: what it writes reads back
//! as the same constraints (the round-trip tests of `kinds::harness` check it for every kind).
//!
//! A key is a top-level key of the f-puzzles JSON ("thermometer", "odd", …), or `cell:NAME`
//! for a key of the grid's cells (`cell:parity`), whose entry is `{"cell": "R1C1", "value":
//! …}`. A flag (`"nonconsecutive": true`) comes as one entry, `true`.

use serde_json::{json, Map, Value};

use super::{id_of, rule, KINDS};
use crate::geometry::{CellId, Geometry, Shape, ShapeKind};

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
        let s = v
            .as_str()
            .ok_or_else(|| format!("{v} is not a cell like \"R1C1\""))?;
        let bad = || format!("\"{s}\" is not a cell like \"R1C1\"");
        let rest = s.strip_prefix(['R', 'r']).ok_or_else(bad)?;
        let (r, c) = rest.split_once(['C', 'c']).ok_or_else(bad)?;
        let (r, c) = (
            r.parse::<i64>().map_err(|_| bad())?,
            c.parse::<i64>().map_err(|_| bad())?,
        );
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
        self.at(r, c)
            .ok_or_else(|| format!("{v} is not on the board"))
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
    let mut keys: Vec<&str> = KINDS
        .iter()
        .flat_map(|k| k.fpuzzles_keys())
        .copied()
        .collect();
    keys.retain(|k| !k.starts_with("cell:"));
    keys.sort();
    keys.dedup();
    keys.join(", ")
}

/// The shapes of every key of `obj` (the f-puzzles JSON of an `n`x`n` board) some kind
/// reads, numbered per kind after the shapes already in `shapes`.
pub(crate) fn import(
    obj: &Map<String, Value>,
    n: usize,
    shapes: &mut Vec<Shape>,
) -> Result<(), String> {
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
        for (key, entry) in entries
            .iter()
            .filter(|e| kind.fpuzzles_keys().contains(&e.0.as_str()))
        {
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
    let line = fp
        .clue_line(r, c)
        .ok_or("its clue is not beside a row or column")?;
    Ok(vec![(line, vec![number])])
}

/// One instance per line of the entry, with no numbers (renban, palindromes, …).
pub(crate) fn each_line(entry: &Value, fp: &Fp, params: &[i64]) -> Result<Instances, String> {
    Ok(fp
        .lines(entry)?
        .into_iter()
        .map(|l| (l, params.to_vec()))
        .collect())
}

/// An f-puzzles puzzle being written: its top-level keys, for the kinds' writers.
pub(crate) struct Out<'a> {
    /// The board's side.
    pub(crate) n: usize,
    g: &'a Geometry,
    /// The top-level keys written so far.
    pub(crate) obj: &'a mut Map<String, Value>,
}

impl Out<'_> {
    /// The 1-based row and column of a board cell.
    pub(crate) fn rc(&self, c: CellId) -> (i64, i64) {
        let (r, col) = self.g.cell(c).board.expect("a board cell");
        (r as i64, col as i64)
    }

    /// The f-puzzles name of a cell ("R1C1").
    pub(crate) fn name(&self, c: CellId) -> String {
        let (r, col) = self.rc(c);
        format!("R{r}C{col}")
    }

    /// The names of `cells`, as a JSON list.
    pub(crate) fn names(&self, cells: &[CellId]) -> Value {
        cells.iter().map(|&c| self.name(c)).collect()
    }

    /// Adds `entry` to the list under `key`.
    pub(crate) fn push(&mut self, key: &str, entry: Value) {
        let list = self.obj.entry(key).or_insert_with(|| json!([]));
        if let Value::Array(list) = list {
            list.push(entry);
        }
    }

    /// Sets the flag `key` (`"antiknight": true`), for a pattern on every cell.
    pub(crate) fn flag(&mut self, key: &str, s: &Shape) -> Result<(), String> {
        self.everywhere(s)?;
        self.obj.insert(key.into(), Value::Bool(true));
        Ok(())
    }

    /// Whether pattern `s` covers every cell (f-puzzles' global constraints do).
    pub(crate) fn everywhere(&self, s: &Shape) -> Result<(), String> {
        let all = self.n * self.n;
        if s.cells.len() == all {
            Ok(())
        } else {
            Err(format!(
                "covers {} of the {all} cells; f-puzzles applies it to every cell",
                s.cells.len()
            ))
        }
    }

    /// Adds a line under `key` (`{"lines": [[...]]}`), with `value` when given.
    pub(crate) fn line(&mut self, key: &str, cells: &[CellId], value: Option<i64>) {
        let mut entry = json!({ "lines": [self.names(cells)] });
        if let Some(v) = value {
            entry["value"] = json!(v.to_string());
        }
        self.push(key, entry);
    }

    /// Adds a mark between two side-by-side cells under `key` (`{"cells": [a, b]}`), with
    /// `value` when given.
    pub(crate) fn dot(
        &mut self,
        key: &str,
        cells: &[CellId],
        value: Option<String>,
    ) -> Result<(), String> {
        let ((r1, c1), (r2, c2)) = (self.rc(cells[0]), self.rc(cells[1]));
        if (r1 - r2).abs() + (c1 - c2).abs() != 1 {
            return Err(
                "joins cells that are not side by side; f-puzzles draws it on a shared side".into(),
            );
        }
        let mut entry = json!({ "cells": self.names(cells) });
        if let Some(v) = value {
            entry["value"] = json!(v);
        }
        self.push(key, entry);
        Ok(())
    }

    /// Whether `cells` are the board cells from `(r, c)` (outside the board) one `(dr, dc)`
    /// step after another, up to the board's edge.
    fn runs_from(&self, cells: &[CellId], (r, c): (i64, i64), (dr, dc): (i64, i64)) -> bool {
        let n = self.n as i64;
        let on = |r: i64, c: i64| (1..=n).contains(&r) && (1..=n).contains(&c);
        if on(r, c) {
            return false;
        }
        let mut at = (r + dr, c + dc);
        let mut walk = Vec::new();
        while on(at.0, at.1) {
            walk.push(at);
            at = (at.0 + dr, at.1 + dc);
        }
        !walk.is_empty() && walk.iter().copied().eq(cells.iter().map(|&x| self.rc(x)))
    }

    /// The clue cell outside the board ("R0C3") whose row or column, read inwards, is `cells`.
    pub(crate) fn clue_of(&self, cells: &[CellId]) -> Result<String, String> {
        let n = self.n as i64;
        let sides = (1..=n).flat_map(|i| {
            [
                ((0, i), (1, 0)),
                ((i, 0), (0, 1)),
                ((n + 1, i), (-1, 0)),
                ((i, n + 1), (0, -1)),
            ]
        });
        for (clue, step) in sides {
            if self.runs_from(cells, clue, step) {
                return Ok(format!("R{}C{}", clue.0, clue.1));
            }
        }
        Err(
            "is not a whole row or column read from one end; f-puzzles writes its clue there"
                .into(),
        )
    }

    /// The clue cell outside the board and the direction ("UR", …) of a diagonal that runs
    /// from there to the board's edge as `cells` do.
    pub(crate) fn diagonal_clue(&self, cells: &[CellId]) -> Result<(String, &'static str), String> {
        let (r, c) = self.rc(cells[0]);
        let dirs = [
            ((-1, 1), "UR"),
            ((-1, -1), "UL"),
            ((1, 1), "DR"),
            ((1, -1), "DL"),
        ];
        for ((dr, dc), name) in dirs {
            let clue = (r - dr, c - dc);
            if self.runs_from(cells, clue, (dr, dc)) {
                return Ok((format!("R{}C{}", clue.0, clue.1), name));
            }
        }
        Err(
            "is not a whole diagonal from outside the board to its edge, as f-puzzles draws one"
                .into(),
        )
    }
}

/// Writes every constraint shape of `shapes` (of `g`, an `n`x`n` board) into `obj`, the
/// f-puzzles JSON, each by its kind. The message names the first shape f-puzzles cannot
/// express and why.
pub(crate) fn export(
    g: &Geometry,
    n: usize,
    shapes: &[&Shape],
    obj: &mut Map<String, Value>,
) -> Result<(), String> {
    let mut out = Out { n, g, obj };
    for (id, kind) in KINDS.iter().enumerate() {
        let mine: Vec<&Shape> = shapes
            .iter()
            .copied()
            .filter(|s| id_of(&s.rule) == id as u16)
            .collect();
        if !mine.is_empty() {
            kind.write_fpuzzles_all(&mine, &mut out)?;
        }
    }
    Ok(())
}
