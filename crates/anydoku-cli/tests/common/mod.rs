//! Test helpers, deliberately independent of the engine.
//!
//! [`check_solution`] knows only the neutral JSON model (cells, shapes, givens) and a proposed
//! solution `{cell: symbol}`: it is the referee every solution the tool prints is checked by.
#![allow(dead_code)]

mod scratch;
#[allow(unused_imports)]
pub use scratch::{scratch_dir, scratch_file, Scratch};

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
    let extremes = (
        *values.iter().min().unwrap_or(&0),
        *values.iter().max().unwrap_or(&0),
    );
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
    let pos: HashMap<&str, (f64, f64)> = model["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let p = c["pos"].as_array().unwrap();
            (
                c["name"].as_str().unwrap(),
                (p[0].as_f64().unwrap(), p[1].as_f64().unwrap()),
            )
        })
        .collect();
    let shapes = model["shapes"].as_array().ok_or("no shapes")?;
    for shape in shapes {
        let name = shape["name"].as_str().unwrap_or("?");
        let members: Vec<&str> = shape["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        let syms: Vec<&str> = members.iter().map(|c| get(c)).collect::<Result<_, _>>()?;
        let vals: Vec<i64> = syms.iter().map(|s| value_of[s]).collect();
        let rule = shape["rule"].as_str().unwrap_or("unique");
        let int =
            |key: &str, default: i64| shape.get(key).and_then(Value::as_i64).unwrap_or(default);
        let distinct = |v: &[&str]| v.iter().collect::<HashSet<_>>().len() == v.len();
        let unique = rule == "unique"
            || rule == "renban"
            || shape.get("unique").and_then(Value::as_bool) == Some(true);
        if unique && !distinct(&syms) {
            return Err(format!(
                "shape '{name}' repeats a symbol: {}",
                syms.concat()
            ));
        }
        let ctx = Shape {
            name,
            rule,
            members: &members,
            syms: &syms,
            vals: &vals,
            shapes,
            pos: &pos,
            extremes,
            value: &|c: &str| value_of[get(c).unwrap()],
            symbol: &|c: &str| get(c).unwrap().to_string(),
        };
        check_rule(&ctx, &int, shape)?;
    }
    Ok(())
}

/// One shape of the model with its filled cells, for [`check_rule`].
struct Shape<'a> {
    name: &'a str,
    rule: &'a str,
    members: &'a [&'a str],
    syms: &'a [&'a str],
    vals: &'a [i64],
    shapes: &'a [Value],
    pos: &'a HashMap<&'a str, (f64, f64)>,
    /// The lowest and highest value of the symbol set.
    extremes: (i64, i64),
    value: &'a dyn Fn(&str) -> i64,
    symbol: &'a dyn Fn(&str) -> String,
}

/// The rule of one shape, written from the kinds' definitions in docs/FORMATS.md.
fn check_rule(s: &Shape, int: &dyn Fn(&str, i64) -> i64, shape: &Value) -> Result<(), String> {
    let (name, v) = (s.name, s.vals);
    let fail = |what: String| Err(format!("shape '{name}' ({}): {what}", s.rule));
    let ok = match s.rule {
        "unique" => true,
        "sum" | "little-killer" => v.iter().sum::<i64>() == int("sum", 0),
        "thermometer" => {
            let slow = shape.get("slow").and_then(Value::as_bool) == Some(true);
            v.windows(2).all(|w| w[0] < w[1] || (slow && w[0] == w[1]))
        }
        "arrow" => {
            let k = int("circle", 1) as usize;
            let circle = v[..k].iter().fold(0, |acc, d| acc * 10 + d);
            circle == v[k..].iter().sum::<i64>()
        }
        "difference" => (v[0] - v[1]).abs() == int("difference", 1),
        "ratio" => {
            let r = int("ratio", 2);
            v[0] == r * v[1] || v[1] == r * v[0]
        }
        "xv" => v[0] + v[1] == int("sum", 0),
        "inequality" => v[0] < v[1],
        "whispers" => {
            let d = int("difference", 5);
            v.windows(2).all(|w| (w[0] - w[1]).abs() >= d)
        }
        "renban" => {
            let mut sorted = v.to_vec();
            sorted.sort();
            sorted.windows(2).all(|w| w[1] == w[0] + 1)
        }
        "palindrome" => (0..v.len()).all(|i| s.syms[i] == s.syms[v.len() - 1 - i]),
        "clone" => {
            let h = v.len() / 2;
            v.len() % 2 == 0 && (0..h).all(|i| s.syms[i] == s.syms[h + i])
        }
        "parity" => {
            let odd = shape["parity"] == "odd";
            v.iter().all(|x| (x.rem_euclid(2) == 1) == odd)
        }
        "allowed" => {
            let allowed: Vec<String> = match &shape["symbols"] {
                Value::String(t) => t.chars().map(|c| c.to_string()).collect(),
                Value::Array(a) => a.iter().map(|x| x.as_str().unwrap().to_string()).collect(),
                _ => return fail("no symbols".into()),
            };
            s.syms.iter().all(|x| allowed.iter().any(|a| a == x))
        }
        "sandwich" => sandwich(s, v, int("sum", 0)),
        "skyscraper" => {
            let mut seen = i64::MIN;
            let visible = v.iter().filter(|&&x| {
                let higher = x > seen;
                seen = seen.max(x);
                higher
            });
            visible.count() as i64 == int("count", 0)
        }
        "quadruple" => {
            let mut left: Vec<i64> = v.to_vec();
            shape["values"].as_array().unwrap().iter().all(|want| {
                let want = want.as_i64().unwrap();
                match left.iter().position(|&x| x == want) {
                    Some(i) => {
                        left.remove(i);
                        true
                    }
                    None => false,
                }
            })
        }
        "indexer" => {
            let at = int("index", 1);
            let i = v[at as usize - 1];
            i >= 1 && (i as usize) <= v.len() && v[i as usize - 1] == at
        }
        "between" => {
            let (a, b) = (v[0], v[v.len() - 1]);
            let (lo, hi) = (a.min(b), a.max(b));
            v[1..v.len() - 1].iter().all(|&x| lo < x && x < hi)
        }
        "anti-knight" | "anti-king" | "non-consecutive" | "non-ratio" | "non-xv" => {
            return pattern(s);
        }
        other => return fail(format!("unknown rule {other}")),
    };
    if ok {
        Ok(())
    } else {
        fail(format!("broken by {:?}", s.syms))
    }
}

/// A sandwich: the line holds the lowest and the highest value of the symbol set once each,
/// and the values strictly between them add up to `total`.
fn sandwich(s: &Shape, v: &[i64], total: i64) -> bool {
    let (lo, hi) = s.extremes;
    let once = |x: i64| v.iter().filter(|&&y| y == x).count() == 1;
    if !once(lo) || !once(hi) {
        return false;
    }
    let i = v.iter().position(|&x| x == lo).unwrap();
    let j = v.iter().position(|&x| x == hi).unwrap();
    let (a, b) = (i.min(j), i.max(j));
    v[a + 1..b].iter().sum::<i64>() == total
}

/// The patterns: pairs of cells found from their positions.
fn pattern(s: &Shape) -> Result<(), String> {
    // the cells joined by two-cell shapes of a kind, with a number
    let marked = |kind: &str, key: &str, want: i64, default: i64| -> HashSet<(String, String)> {
        s.shapes
            .iter()
            .filter(|t| t["rule"] == kind)
            .filter(|t| t.get(key).and_then(Value::as_i64).unwrap_or(default) == want)
            .map(|t| {
                let c = t["cells"].as_array().unwrap();
                let (a, b) = (c[0].as_str().unwrap(), c[1].as_str().unwrap());
                (a.min(b).to_string(), a.max(b).to_string())
            })
            .collect()
    };
    let white = marked("difference", "difference", 1, 1);
    let black = marked("ratio", "ratio", 2, 2);
    let (x, v) = (marked("xv", "sum", 10, 0), marked("xv", "sum", 5, 0));
    for (i, a) in s.members.iter().enumerate() {
        for b in &s.members[i + 1..] {
            let (p, q) = (s.pos[a], s.pos[b]);
            let (dx, dy) = (
                (p.0 - q.0).abs().round() as i64,
                (p.1 - q.1).abs().round() as i64,
            );
            let key = ((*a).min(*b).to_string(), (*a).max(*b).to_string());
            let (va, vb) = ((s.value)(a), (s.value)(b));
            let side = dx + dy == 1;
            let broken = match s.rule {
                "anti-knight" => (dx, dy) == (1, 2) || (dx, dy) == (2, 1),
                "anti-king" => dx <= 1 && dy <= 1,
                "non-consecutive" => side && (va - vb).abs() == 1 && !white.contains(&key),
                "non-ratio" => side && (va == 2 * vb || vb == 2 * va) && !black.contains(&key),
                _ => {
                    side && ((va + vb == 10 && !x.contains(&key))
                        || (va + vb == 5 && !v.contains(&key)))
                }
            };
            let same = (s.symbol)(a) == (s.symbol)(b);
            let anti = matches!(s.rule, "anti-knight" | "anti-king");
            if broken && (!anti || same) {
                return Err(format!(
                    "shape '{}' ({}): broken by {a} and {b}",
                    s.name, s.rule
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
