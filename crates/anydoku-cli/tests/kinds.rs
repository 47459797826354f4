//! The example puzzle of every constraint kind (`puzzles/kinds/<kind>.toml`, made by
//! `anydoku generate`): each holds its kind, solves back unique to the solution its header's
//! command prints (checked by the independent checker in `tests/common` and by
//! `tools/check_batch.py`), has a certificate for every given, draws as SVG, and is what its
//! header's command makes again.

mod common;

use std::path::PathBuf;

use common::{check_solution, root, run};
use serde_json::Value;

/// Every kind but unique and sum (whose examples are the classic and Killer puzzles).
const KINDS: &[&str] = &[
    "thermometer",
    "anti-knight",
    "anti-king",
    "difference",
    "ratio",
    "xv",
    "inequality",
    "non-consecutive",
    "non-ratio",
    "non-xv",
    "arrow",
    "little-killer",
    "allowed",
    "parity",
    "palindrome",
    "clone",
    "quadruple",
    "renban",
    "whispers",
    "between",
    "sandwich",
    "indexer",
    "skyscraper",
];

/// The example files, by kind.
fn examples() -> Vec<(String, PathBuf)> {
    let dir = root().join("puzzles/kinds");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| (p.file_stem().unwrap().to_str().unwrap().to_string(), p))
        .collect();
    out.sort();
    out
}

/// The arguments of the command in the file's header (`# made by anydoku generate ...: ...`).
fn header_command(text: &str) -> Vec<String> {
    let line = text.lines().next().unwrap();
    let command = line
        .strip_prefix("# made by anydoku ")
        .and_then(|l| l.split_once(": seed").map(|(c, _)| c))
        .unwrap_or_else(|| panic!("no command in the header: {line}"));
    command.split_whitespace().map(str::to_string).collect()
}

/// The puzzle's lines but the geometry reference (which depends on where it is written).
fn without_geometry(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with("geometry = "))
        .collect()
}

#[test]
fn every_kind_has_an_example() {
    let have: Vec<String> = examples().into_iter().map(|(k, _)| k).collect();
    let mut want: Vec<String> = KINDS.iter().map(|k| k.to_string()).collect();
    want.sort();
    assert_eq!(have, want);
}

#[test]
fn examples_are_unique_checked_minimal_drawn_and_remade() {
    let tmp = common::scratch_dir();
    let mut models = String::new();
    let mut results = String::new();
    for (kind, path) in examples() {
        let file = path.to_str().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // made again by the header's command: the same file, and its solution and certificates
        let args = header_command(&text);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, again, err) = run(&[&args[..], &["--format", "toml"]].concat());
        assert_eq!(code, 0, "{kind}: {err}");
        assert_eq!(
            without_geometry(&again),
            without_geometry(&text),
            "{kind}: not remade"
        );
        let (code, made, err) = run(&[&args[..], &["--format", "json"]].concat());
        assert_eq!(code, 0, "{kind}: {err}");
        let made: Value = serde_json::from_str(&made).unwrap();
        let published = made["solution"].as_object().unwrap();
        // the file alone, as a model: it holds its kind, and the generated puzzle's givens
        let (code, model, err) = run(&["export", file]);
        assert_eq!(code, 0, "{kind}: {err}");
        let mut model: Value = serde_json::from_str(&model).unwrap();
        let rules: Vec<&str> = model["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["rule"].as_str().unwrap())
            .collect();
        assert!(
            rules.contains(&kind.as_str()),
            "{kind}: no shape of its kind"
        );
        assert_eq!(model["givens"], made["givens"], "{kind}");
        assert_eq!(model["shapes"], made["shapes"], "{kind}");
        // solved back unique, to the published solution, checked independently
        let (status, sol) = common::solve_and_check(file, None);
        assert_eq!(status, "unique", "{kind}");
        assert_eq!(sol.as_ref(), Some(published), "{kind}");
        check_solution(&model, published).unwrap_or_else(|e| panic!("{kind}: {e}"));
        // minimal: each given's certificate solves the puzzle without it
        let certs = made["certificates"].as_object().unwrap();
        assert_eq!(made["source"]["minimal"], true, "{kind}");
        assert_eq!(
            certs.len(),
            model["givens"].as_object().unwrap().len(),
            "{kind}"
        );
        for (cell, cert) in certs {
            let mut reduced = model.clone();
            reduced["givens"]
                .as_object_mut()
                .unwrap()
                .remove(cell)
                .unwrap();
            let cert = cert.as_object().unwrap();
            assert_ne!(cert, published, "{kind}: certificate for {cell}");
            check_solution(&reduced, cert).unwrap_or_else(|e| panic!("{kind}: {cell}: {e}"));
        }
        // drawn
        let svg = tmp.join(format!("{kind}.svg"));
        let (code, _, err) = run(&["render", file, "-o", svg.to_str().unwrap()]);
        assert_eq!(code, 0, "{kind}: {err}");
        assert!(
            std::fs::read_to_string(&svg).unwrap().contains("</svg>"),
            "{kind}"
        );
        // for the python checker: the model with its published solution, the answer as a line
        model["solution"] = Value::Object(published.clone());
        models.push_str(&serde_json::to_string(&model).unwrap());
        models.push('\n');
        let cells = model["cells"].as_array().unwrap();
        let line: String = cells
            .iter()
            .map(|c| published[c["name"].as_str().unwrap()].as_str().unwrap())
            .collect();
        results.push_str(&line);
        results.push('\n');
    }
    let (jsonl, answers) = (tmp.join("kinds.jsonl"), tmp.join("answers.txt"));
    std::fs::write(&jsonl, &models).unwrap();
    std::fs::write(&answers, &results).unwrap();
    let (code, batch, err) = run(&["batch", jsonl.to_str().unwrap(), "--threads", "1"]);
    assert_eq!(code, 0, "batch: {err}");
    assert_eq!(
        batch, results,
        "batch answers differ from the published solutions"
    );
    let out = std::process::Command::new("python3")
        .arg(root().join("tools/check_batch.py"))
        .args([&jsonl, &answers])
        .output()
        .expect("python3 runs tools/check_batch.py");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "check_batch.py: {said}");
    assert!(
        said.contains(&format!("{} ok, 0 failed", KINDS.len())),
        "{said}"
    );
}
