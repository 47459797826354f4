//! A JSON array of cages, as in ConstraintSolver.jl's Killer test data:
//! `[{"result": sum, "indices": [[row, col], ...], "color": ...}, ...]` with 1-based rows and
//! columns. The grid size is the largest row or column index (9 for a classic Killer); there is
//! no solution.

use super::{RawCage, RawKiller};
use crate::error::Error;

/// Reads the one puzzle of the file.
pub fn read(text: &str) -> Result<Vec<RawKiller>, Error> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| Error::from_json(&e))?;
    let list = v
        .as_array()
        .ok_or_else(|| Error::puzzle("a cage JSON file must be an array of cages"))?;
    let mut cages = Vec::with_capacity(list.len());
    let mut size = 0;
    for (i, c) in list.iter().enumerate() {
        let what = format!("cage {} (entry {})", i + 1, i);
        let sum = c
            .get("result")
            .and_then(|r| r.as_i64())
            .ok_or_else(|| Error::puzzle(format!("{what} has no integer \"result\"")))?;
        let idx = c
            .get("indices")
            .and_then(|x| x.as_array())
            .ok_or_else(|| Error::puzzle(format!("{what} has no \"indices\" list")))?;
        let mut cells = Vec::with_capacity(idx.len());
        for p in idx {
            let rc: Vec<i64> = p
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_i64()).collect())
                .unwrap_or_default();
            match rc[..] {
                [r, c] if r >= 1 && c >= 1 && r <= 64 && c <= 64 => {
                    size = size.max(r.max(c) as usize);
                    cells.push((r as i32, c as i32));
                }
                _ => {
                    return Err(Error::puzzle(format!(
                        "{what}: {p} is not a [row, col] pair of 1-based indices"
                    )))
                }
            }
        }
        cages.push(RawCage { sum, cells });
    }
    Ok(vec![RawKiller {
        name: "cages".into(),
        size,
        cages,
        givens: vec![None; size * size],
        solution: None,
    }])
}
