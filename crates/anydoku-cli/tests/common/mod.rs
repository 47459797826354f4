//! Test helpers, deliberately independent of the engine.
//!
//! [`check_solution`] knows only the neutral JSON model (cells, shapes, givens) and a proposed
//! solution `{cell: symbol}`: it is the referee every solution the tool prints is checked by.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// Checks `solution` against the model: every cell filled with a symbol, givens kept, unique
/// shapes without repeats, sum shapes adding up. Returns a description of the first problem.
pub fn check_solution(
    model: &Value,
    solution: &serde_json::Map<String, Value>,
) -> Result<(), String> {
    let symbols: Vec<&str> = model["symbols"]
        .as_array()
        .ok_or("no symbols")?
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let values: Vec<i64> = match model.get("values").and_then(Value::as_array) {
        Some(v) => v.iter().map(|x| x.as_i64().unwrap()).collect(),
        None => (1..=symbols.len() as i64).collect(),
    };
    let value_of: HashMap<&str, i64> = symbols.iter().copied().zip(values).collect();
    let cells: Vec<&str> = model["cells"]
        .as_array()
        .ok_or("no cells")?
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let get = |cell: &str| -> Result<&str, String> {
        let s = solution
            .get(cell)
            .and_then(Value::as_str)
            .ok_or(format!("cell {cell} is not filled"))?;
        if !value_of.contains_key(s) {
            return Err(format!("cell {cell} holds '{s}', not a symbol"));
        }
        Ok(s)
    };
    for c in &cells {
        get(c)?;
    }
    if solution.len() != cells.len() {
        return Err(format!(
            "solution has {} cells, model {}",
            solution.len(),
            cells.len()
        ));
    }
    if let Some(givens) = model.get("givens").and_then(Value::as_object) {
        for (cell, v) in givens {
            if get(cell)? != v.as_str().unwrap() {
                return Err(format!("given {cell}={} not kept", v));
            }
        }
    }
    for shape in model["shapes"].as_array().ok_or("no shapes")? {
        let name = shape["name"].as_str().unwrap_or("?");
        let members: Vec<&str> = shape["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let syms: Vec<&str> = members.iter().map(|c| get(c)).collect::<Result<_, _>>()?;
        let unique =
            shape["rule"] == "unique" || shape.get("unique").and_then(Value::as_bool) == Some(true);
        if unique {
            let set: HashSet<&str> = syms.iter().copied().collect();
            if set.len() != syms.len() {
                return Err(format!(
                    "shape '{name}' repeats a symbol: {}",
                    syms.concat()
                ));
            }
        }
        if shape["rule"] == "sum" {
            let total: i64 = syms.iter().map(|s| value_of[s]).sum();
            if total != shape["sum"].as_i64().unwrap() {
                return Err(format!(
                    "shape '{name}' adds up to {total}, not {}",
                    shape["sum"]
                ));
            }
        }
    }
    Ok(())
}

/// Path of the built binary.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_anydoku"))
}

/// Runs the binary; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin())
        .args(args)
        .current_dir(root())
        .output()
        .expect("run anydoku");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The project root.
pub fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// `../shared/data` if present (corpus tests are `#[ignore]`d and fail loudly without it).
pub fn shared_data() -> PathBuf {
    let p = root().join("../shared/data");
    assert!(
        p.is_dir(),
        "corpus tests need ../shared/data beside the project"
    );
    p
}

/// Solves a puzzle file with the CLI and checks the printed JSON solution independently.
pub fn solve_and_check(
    puzzle: &str,
    geometry: Option<&str>,
) -> (String, Option<serde_json::Map<String, Value>>) {
    let mut args = vec!["export", puzzle];
    if let Some(g) = geometry {
        args.extend(["--geometry", g]);
    }
    let (code, model, err) = run(&args);
    assert_eq!(code, 0, "export {puzzle}: {err}");
    let model: Value = serde_json::from_str(&model).unwrap();
    let mut args = vec!["solve", puzzle, "--format", "json"];
    if let Some(g) = geometry {
        args.extend(["--geometry", g]);
    }
    let (_, out, err) = run(&args);
    let out: Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("solve {puzzle}: {e}: {err}"));
    let status = out["status"].as_str().unwrap().to_string();
    let sol = out.get("solution").and_then(Value::as_object).cloned();
    if let Some(s) = &sol {
        check_solution(&model, s).unwrap_or_else(|e| panic!("{puzzle}: {e}"));
    }
    if let Some(s) = out.get("other_solution").and_then(Value::as_object) {
        check_solution(&model, s).unwrap_or_else(|e| panic!("{puzzle} (second solution): {e}"));
    }
    (status, sol)
}
