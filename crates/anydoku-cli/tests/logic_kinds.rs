//! `solve --steps`, `hint` and `rate` on 9x9 puzzles with planted constraint kinds (made by
//! `generate --plant`): the steps, replayed, give a grid the independent checker accepts, the
//! kind's own steps (family `constraints`) appear, and the hint is the first step.

mod common;

use common::run;
use serde_json::Value;

/// The kinds planted (one puzzle each), with how many instances.
const PLANTS: &[&str] = &[
    "thermometer:4",
    "arrow:4",
    "kropki-white:6",
    "kropki-black:6",
    "xv:6",
    "inequality:6",
    "whispers:3",
    "renban:3",
    "palindrome:2",
    "parity:4",
    "between:3",
    "sandwich:3",
    "skyscraper:3",
    "non-consecutive",
];

#[test]
fn steps_hints_and_ratings_on_planted_kinds() {
    let dir = std::env::temp_dir().join(format!("anydoku-logic-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut finished = 0;
    for plant in PLANTS {
        let file = dir.join(format!("{}.toml", plant.replace(':', "_")));
        let file = file.to_str().unwrap();
        let (code, _, err) = run(&[
            "generate", "-g", "classic9", "--plant", plant, "--seed", "1", "-o", file,
        ]);
        assert_eq!(code, 0, "{plant}: {err}");
        let (code, out, err) = run(&[
            "solve",
            file,
            "--steps",
            "--format",
            "json",
            "--timeout",
            "10",
        ]);
        if code == 1 {
            assert!(out.contains("budget ran out"), "{plant}: {out}{err}");
            eprintln!("{plant}: the budget ran out");
            continue;
        }
        assert_eq!(code, 0, "{plant}: {err}");
        finished += 1;
        let v: Value = serde_json::from_str(&out).unwrap();
        let steps = v["steps"].as_array().unwrap();
        assert!(
            steps.iter().any(|s| s["family"] == "constraints"),
            "{plant}: no step of the constraint kinds"
        );
        let (_, model, _) = run(&["export", file]);
        let model: Value = serde_json::from_str(&model).unwrap();
        let mut grid = model["givens"].as_object().cloned().unwrap_or_default();
        for s in steps {
            for p in s["placements"].as_array().unwrap() {
                grid.insert(p["cell"].as_str().unwrap().into(), p["symbol"].clone());
            }
        }
        common::check_solution(&model, &grid).unwrap_or_else(|e| panic!("{plant}: {e}"));
        assert_eq!(&grid, v["solution"].as_object().unwrap(), "{plant}");
        let (code, hint, err) = run(&["hint", file, "--format", "json"]);
        assert_eq!(code, 0, "{plant}: {err}");
        let hint: Value = serde_json::from_str(&hint).unwrap();
        assert_eq!(hint["step"]["text"], steps[0]["text"], "{plant}: {hint}");
        let (code, out, err) = run(&["rate", file, "--timeout", "10"]);
        assert_eq!(code, 0, "{plant}: {out}{err}");
        assert!(out.starts_with("score "), "{plant}: {out}");
    }
    assert!(
        finished >= PLANTS.len() - 3,
        "only {finished} solved in time"
    );
}
