//! The puzzlekit-dataset JSON (janko.at Killer puzzles):
//! `{"data": {KEY: {"problem": str, "solution": str, ...}}}`.
//!
//! `problem` is `"R C"` then two R-line grids of space-separated tokens: the clue grid (each
//! cage's sum written in exactly one of its cells, `-` elsewhere) and the cage-id grid (cells with
//! the same id form a cage). `solution` is `"R C"` then the R-line digit grid. Boxes are those of
//! the built-in `classic{N}` geometry (2x2, 2x3, 3x3).

use std::collections::BTreeMap;

use super::{digits, RawCage, RawKiller};
use crate::error::Error;

/// Reads every record, in file order: the file's own errors as `Err`, then one result per
/// record (a record's error names its key).
pub fn read_each(text: &str) -> Result<Vec<Result<RawKiller, Error>>, Error> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| Error::from_json(&e))?;
    let data = v
        .get("data")
        .and_then(|d| d.as_object())
        .ok_or_else(|| Error::puzzle("the puzzlekit file has no \"data\" object"))?;
    Ok(data
        .iter()
        .map(|(key, rec)| {
            let problem = rec
                .get("problem")
                .and_then(|p| p.as_str())
                .ok_or_else(|| Error::puzzle(format!("{key}: no \"problem\" text")))?;
            let solution = rec.get("solution").and_then(|s| s.as_str());
            record(key, problem, solution)
        })
        .collect())
}

/// The (rows, cols) header and the token lines after it.
fn grid_lines<'a>(name: &str, text: &'a str) -> Result<(usize, usize, Vec<Vec<&'a str>>), Error> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let head: Vec<usize> = lines
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|t| t.parse().unwrap_or(0))
        .collect();
    let (r, c) = match head[..] {
        [r, c] if r > 0 && c > 0 => (r, c),
        _ => {
            return Err(Error::puzzle(format!(
                "{name}: the first line must be \"ROWS COLS\""
            )))
        }
    };
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split_whitespace().collect()).collect();
    if let Some(bad) = rows.iter().position(|row| row.len() != c) {
        return Err(Error::puzzle(format!(
            "{name}: grid line {} has {} entries, not {c}",
            bad + 2,
            rows[bad].len()
        )));
    }
    Ok((r, c, rows))
}

/// One record.
pub fn record(name: &str, problem: &str, solution: Option<&str>) -> Result<RawKiller, Error> {
    let (r, c, rows) = grid_lines(name, problem)?;
    if r != c {
        return Err(Error::puzzle(format!(
            "{name}: a {r}x{c} Killer is not square"
        )));
    }
    if rows.len() != 2 * r {
        return Err(Error::puzzle(format!(
            "{name}: expected a clue grid and a cage-id grid ({} lines), found {} lines",
            2 * r,
            rows.len()
        )));
    }
    let (clues, ids) = rows.split_at(r);
    // cage id -> cells, in order of first appearance
    let mut order: Vec<&str> = Vec::new();
    let mut cells: BTreeMap<&str, Vec<(i32, i32)>> = BTreeMap::new();
    let mut sums: BTreeMap<&str, i64> = BTreeMap::new();
    for (i, row) in ids.iter().enumerate() {
        for (j, &id) in row.iter().enumerate() {
            if id == "-" {
                return Err(Error::puzzle(format!(
                    "{name}: cell r{}c{} has no cage id",
                    i + 1,
                    j + 1
                )));
            }
            if !cells.contains_key(id) {
                order.push(id);
            }
            cells
                .entry(id)
                .or_default()
                .push((i as i32 + 1, j as i32 + 1));
            let clue = clues[i][j];
            if clue != "-" {
                let v: i64 = clue
                    .parse()
                    .map_err(|_| Error::puzzle(format!("{name}: clue '{clue}' is not a number")))?;
                if sums.insert(id, v).is_some() {
                    return Err(Error::puzzle(format!(
                        "{name}: cage {id} has two sums written in it"
                    )));
                }
            }
        }
    }
    let mut cages = Vec::with_capacity(order.len());
    for id in order {
        let sum = *sums
            .get(id)
            .ok_or_else(|| Error::puzzle(format!("{name}: cage {id} has no sum written in it")))?;
        cages.push(RawCage {
            sum,
            cells: cells.remove(id).unwrap_or_default(),
        });
    }
    let solution = match solution {
        Some(s) => {
            let (sr, sc, srows) = grid_lines(name, s)?;
            if (sr, sc) != (r, c) || srows.len() != r {
                return Err(Error::puzzle(format!(
                    "{name}: the solution is not a {r}x{c} grid"
                )));
            }
            let tokens: Vec<&str> = srows.into_iter().flatten().collect();
            Some(digits(&tokens, name)?)
        }
        None => None,
    };
    Ok(RawKiller {
        name: name.to_string(),
        size: r,
        cages,
        givens: vec![None; r * r],
        solution,
    })
}
