//! f-puzzles import and export: links, base64 and JSON in; supported constraints solve, the others
//! are named in the error; export → import gives the same puzzle and solution.

mod common;

use std::sync::Arc;

use anydoku::geometry::builtin;
use anydoku::puzzle::{fpuzzles, json, lzstring, Puzzle};
use anydoku::{Engine, Limits, Status};
use common::{check_solution, run, shared_data, Scratch};
use serde_json::{json, Value};

fn temp(name: &str, text: &str) -> Scratch {
    common::scratch_file(name, text)
}

/// Solves a puzzle argument with the CLI; checks the solution against the exported model with
/// the independent checker and returns it.
fn solve_checked(arg: &str) -> serde_json::Map<String, Value> {
    let (code, model, err) = run(&["export", arg]);
    assert_eq!(code, 0, "export: {err}");
    let model: Value = serde_json::from_str(&model).unwrap();
    let (code, out, err) = run(&["solve", arg, "--format", "json"]);
    assert_eq!(code, 0, "solve: {err} {out}");
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["status"], "unique");
    let sol = out["solution"].as_object().unwrap().clone();
    check_solution(&model, &sol).unwrap();
    sol
}

/// Blanks givens (in a scrambled order) as long as the puzzle stays uniquely solvable.
fn thin_out(p: &mut Puzzle, tries: usize) {
    let n = p.geometry.cell_count();
    let engine = Engine::new(&p.geometry);
    let limits = Limits {
        max_nodes: Some(20_000),
        max_time: None,
    };
    for k in 0..tries.min(n) {
        let i = (k * 37 + 11) % n;
        let Some(v) = p.givens[i] else { continue };
        p.givens[i] = None;
        if engine.solve(&p.givens, limits).status() != Status::Unique {
            p.givens[i] = Some(v);
        }
    }
}

/// A uniquely solvable puzzle of a geometry, planted from its first grid.
fn planted(name: &str) -> Puzzle {
    let g = Arc::new(builtin::load(name).unwrap());
    let n = g.cell_count();
    let grid = Engine::new(&g)
        .count(&vec![None; n], 1, Limits::none())
        .solutions[0]
        .clone();
    let mut p = Puzzle {
        geometry: g,
        givens: grid.iter().map(|&v| Some(v)).collect(),
    };
    thin_out(&mut p, n / 2);
    assert!(p.given_count() < n);
    p
}

fn model_file(p: &Puzzle, name: &str) -> Scratch {
    temp(name, &serde_json::to_string(&json::to_model(p)).unwrap())
}

#[test]
fn round_trip_classic_jigsaw_and_x_through_link_and_json() {
    // (f-puzzles writes values 1..N, read back as the numbers 1..N: a 16x16 with numbers keeps
    // its symbols)
    for name in ["classic9", "jigsaw", "x", "classic6", "classic16n"] {
        let p = planted(name);
        let file = model_file(&p, &format!("{name}.json"));
        let original = solve_checked(file.to_str().unwrap());

        let (code, url, err) = run(&["export", file.to_str().unwrap(), "--format", "fpuzzles"]);
        assert_eq!(code, 0, "{name}: {err}");
        let url = url.trim();
        assert!(url.starts_with("https://www.f-puzzles.com/?load="), "{url}");
        // the link itself is accepted as the puzzle argument
        assert_eq!(solve_checked(url), original, "{name} via link");

        let (code, text, err) = run(&[
            "export",
            file.to_str().unwrap(),
            "--format",
            "fpuzzles-json",
        ]);
        assert_eq!(code, 0, "{name}: {err}");
        let f = temp(&format!("{name}.fpuzzles.json"), &text);
        assert_eq!(
            solve_checked(f.to_str().unwrap()),
            original,
            "{name} via JSON"
        );
        // and the same shapes come back
        let q = fpuzzles::parse(&text).unwrap();
        let mut a: Vec<Vec<u32>> = p.geometry.shapes.iter().map(|s| sorted(&s.cells)).collect();
        let mut b: Vec<Vec<u32>> = q.geometry.shapes.iter().map(|s| sorted(&s.cells)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{name}: shapes");
        assert_eq!(p.givens, q.givens, "{name}: givens");
    }
}

fn sorted(cells: &[anydoku::geometry::CellId]) -> Vec<u32> {
    let mut v: Vec<u32> = cells.iter().map(|c| c.0).collect();
    v.sort();
    v
}

/// A Killer planted from a known grid: dominoes with their sums, no givens.
#[test]
fn round_trip_killer() {
    let g = builtin::load("classic9").unwrap();
    let grid = Engine::new(&g)
        .count(&[None; 81], 1, Limits::none())
        .solutions[0]
        .clone();
    let v = |r: usize, c: usize| g.symbols.value(grid[r * 9 + c] as usize);
    let mut cages = Vec::new();
    for r in 0..9 {
        for c in (0..8).step_by(2) {
            cages.push(
                json!({"cells": [format!("R{}C{}", r + 1, c + 1), format!("R{}C{}", r + 1, c + 2)],
                              "value": (v(r, c) + v(r, c + 1)).to_string()}),
            );
        }
    }
    let mut rows = Vec::new();
    for r in 0..9 {
        let mut row = Vec::new();
        for c in 0..9 {
            row.push(json!({"value": grid[r * 9 + c] + 1, "given": true}));
        }
        rows.push(row);
    }
    let mut fp = json!({"size": 9, "grid": rows, "killercage": cages});
    // keep only the givens a unique solution needs (found with the library, then written back)
    let mut p = fpuzzles::parse(&fp.to_string()).unwrap();
    thin_out(&mut p, 81);
    assert!(p.given_count() < 60, "{}", p.given_count());
    for i in 0..81 {
        if p.givens[i].is_none() {
            fp["grid"][i / 9][i % 9] = json!({});
        }
    }
    let text = fp.to_string();
    let f = temp("killer.json", &text);
    let sol = solve_checked(f.to_str().unwrap());
    for (i, cell) in g.cells.iter().enumerate() {
        assert_eq!(sol[&cell.name], g.symbols.symbol(grid[i] as usize));
    }
    let (code, url, err) = run(&["export", f.to_str().unwrap(), "--format", "fpuzzles"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(solve_checked(url.trim()), sol);
    // the base64 string alone is accepted too, as a file's content
    let b64 = url.trim().split("load=").nth(1).unwrap();
    let f2 = temp("killer.txt", b64);
    assert_eq!(solve_checked(f2.to_str().unwrap()), sol);
    assert_eq!(
        lzstring::decompress_from_base64(b64)
            .map(|s| serde_json::from_str::<Value>(&s).unwrap()["killercage"].clone()),
        Some(fp["killercage"].clone())
    );
}

fn fp_json(extra: Value) -> String {
    let mut v = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4]});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v.to_string()
}

#[test]
fn constraints_become_shapes() {
    let p = fpuzzles::parse(&fp_json(json!({
        "diagonal+": true,
        "diagonal-": false,
        "killercage": [{"cells": ["R1C1", "R1C2"], "value": "7"}, {"cells": ["R3C3", "R4C4"]}],
        "extraregion": [{"cells": ["R1C1", "R2C2", "R3C3"]}],
        "antiknight": true,
        "thermometer": [],
    })))
    .unwrap();
    let g = &p.geometry;
    let names: Vec<&str> = g.shapes.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"Diagonal ↗"));
    assert!(!names.contains(&"Diagonal ↘"));
    let anti = names
        .iter()
        .filter(|n| n.starts_with("Anti-knight"))
        .count();
    let mut expected = 0;
    for r in 0..4i32 {
        for c in 0..4i32 {
            for (dr, dc) in [(1, 2), (2, 1), (1, -2), (2, -1)] {
                if (0..4).contains(&(r + dr)) && (0..4).contains(&(c + dc)) {
                    expected += 1;
                }
            }
        }
    }
    assert_eq!(anti, expected);
    let cage = g.shapes.iter().find(|s| s.name == "Cage 1").unwrap();
    assert_eq!(
        cage.rule,
        anydoku::Rule::Sum {
            total: 7,
            unique: true
        }
    );
    let plain = g.shapes.iter().find(|s| s.name == "Cage 2").unwrap();
    assert_eq!(plain.rule, anydoku::Rule::Unique);
    assert_eq!(
        g.shapes
            .iter()
            .filter(|s| s.name.starts_with("Box"))
            .count(),
        4
    );
}

#[test]
fn unsupported_constraints_are_named_with_exit_2() {
    let f = temp(
        "thermo.json",
        &fp_json(
            json!({"entropicline": [{"lines": [["R1C1", "R1C2"]]}], "antiking": false,
                        "zipperline": [{"lines": [["R2C2", "R2C3"]]}], "title": "T"}),
        ),
    );
    let (code, out, err) = run(&["solve", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("entropicline") && err.contains("zipperline"),
        "{err}"
    );
    assert!(
        !err.contains("antiking") || err.contains("supported: "),
        "{err}"
    );
    assert!(err.contains("not support"), "{err}");
    // a cell-level constraint too
    let mut v: Value = serde_json::from_str(&fp_json(json!({}))).unwrap();
    v["grid"][0][0] = json!({"givenPencilMarks": [1, 2]});
    // (a cell's parity is read by the parity kind)
    let f = temp("pm.json", &v.to_string());
    let (code, _, err) = run(&["solve", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("givenPencilMarks"), "{err}");
}

#[test]
fn bad_inputs_are_clear_errors() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "corrupt",
            "https://www.f-puzzles.com/?load=N4IgzglgXg".into(),
            "corrupt",
        ),
        (
            "nogrid",
            r#"{"size": 4, "grid": [[{}]]}"#.into(),
            "4 rows of 4",
        ),
        ("bigsize", r#"{"size": 20, "grid": []}"#.into(), "size 20"),
        (
            "badcell",
            fp_json(json!({"killercage": [{"cells": ["R5C1"], "value": "3"}]})),
            "R5C1",
        ),
        (
            "badsum",
            fp_json(json!({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "x"}]})),
            "not a number",
        ),
        (
            "impossible",
            fp_json(json!({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "30"}]})),
            "impossible",
        ),
    ];
    for (name, text, needle) in cases {
        let f = temp(&format!("{name}.txt"), &text);
        let (code, out, err) = run(&["solve", f.to_str().unwrap()]);
        assert_eq!(code, 2, "{name}: {out}");
        assert!(err.contains(needle), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
    // a given outside 1..N
    let mut v: Value = serde_json::from_str(&fp_json(json!({}))).unwrap();
    v["grid"][1][1] = json!({"value": 7, "given": true});
    let f = temp("badgiven.json", &v.to_string());
    let (code, _, err) = run(&["solve", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("R2C2 = 7"), "{err}");
    // a link without a puzzle in it
    let (code, _, err) = run(&["solve", "https://www.f-puzzles.com/?load="]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn export_refuses_what_f_puzzles_cannot_show() {
    for name in ["samurai", "tredoku", "classic25"] {
        let (code, _, err) = run(&["export", name, "--format", "fpuzzles"]);
        assert_eq!(code, 2, "{name}");
        assert!(err.contains("f-puzzles"), "{name}: {err}");
    }
}

/// The corpus of f-puzzles strings (SOURCES.md section 7): the ones that use only supported
/// constraints solve to their published solutions, and written back to f-puzzles solve to the
/// same; the others name what is unsupported.
#[test]
#[ignore]
fn corpus_fpuzzles() {
    let file = shared_data()
        .join("variants/fpuzzles/dclamage_SudokuSolver_Puzzles_fpuzzles_excerpt.cs.txt");
    let text = std::fs::read_to_string(file).unwrap();
    let (mut solved, mut refused, mut recompressed, mut exported) = (0, 0, 0, 0);
    let mut total = 0;
    for line in text.lines() {
        let Some(i) = line.find("(@\"") else { continue };
        total += 1;
        let rest = &line[i + 3..];
        let b64 = &rest[..rest.find('"').unwrap()];
        let published = rest.split('"').nth(2).unwrap();
        let json_text = lzstring::decompress_from_base64(b64).expect("decompresses");
        if lzstring::compress_to_base64(&json_text) == b64 {
            recompressed += 1;
        }
        let v: Value = serde_json::from_str(&json_text).unwrap();
        let f = temp(&format!("corpus{total}.txt"), b64);
        let arg = f.to_str().unwrap();
        // what this entry uses beyond the supported keys, read straight from its JSON
        let known = [
            "size",
            "grid",
            "title",
            "author",
            "ruleset",
            "solution",
            "disabledlogic",
            "truecandidatesoptions",
            "highlightConflicts",
            // cosmetic drawings, no rule
            "line",
            "cage",
            "text",
            "circle",
            "rectangle",
        ];
        let mut extra: Vec<String> = v
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, x)| {
                !known.contains(&k.as_str())
                    && !fpuzzles::is_supported(k)
                    && !matches!(x, Value::Bool(false) | Value::Null)
                    && x.as_array().is_none_or(|a| !a.is_empty())
            })
            .map(|(k, _)| k.clone())
            .collect();
        for row in v["grid"].as_array().unwrap() {
            for cell in row.as_array().unwrap() {
                for (k, x) in cell.as_object().unwrap() {
                    let meaningful = match x {
                        Value::Null | Value::Bool(false) => false,
                        Value::Array(a) => !a.is_empty(),
                        _ => true,
                    };
                    if ![
                        "value",
                        "given",
                        "region",
                        "c",
                        "centerPencilMarks",
                        "cornerPencilMarks",
                        "highlight",
                        "parity",
                    ]
                    .contains(&k.as_str())
                        && meaningful
                        && !extra.contains(k)
                    {
                        extra.push(k.clone());
                    }
                }
            }
        }
        if extra.is_empty() {
            let sol = solve_checked(arg);
            let (_, model, _) = run(&["export", arg]);
            let model: Value = serde_json::from_str(&model).unwrap();
            let digits: String = model["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let s = sol[c["name"].as_str().unwrap()].as_str().unwrap();
                    let i = model["symbols"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .position(|x| x == s)
                        .unwrap();
                    model["values"][i].to_string()
                })
                .collect();
            assert_eq!(digits, published, "entry {total}");
            solved += 1;
            // written back to f-puzzles, it reads as the same puzzle: the same one solution
            let (code, url, err) = run(&["export", arg, "--format", "fpuzzles"]);
            assert_eq!(code, 0, "entry {total}: export: {err}");
            let back = temp(&format!("corpus{total}-back.txt"), url.trim());
            assert_eq!(
                solve_checked(back.to_str().unwrap()),
                sol,
                "entry {total}: written back"
            );
            exported += 1;
        } else {
            let (code, _, err) = run(&["solve", arg]);
            assert_eq!(code, 2, "entry {total} uses {extra:?}");
            for k in &extra {
                assert!(
                    err.contains(k.as_str()),
                    "entry {total}: {k} not named in {err}"
                );
            }
            refused += 1;
        }
    }
    eprintln!(
        "f-puzzles corpus: {total} entries, {solved} solved to the published solution, \
         {refused} refused naming their unsupported constraints, {recompressed} recompressed byte-for-byte, \
         {exported} written back to f-puzzles and solved to the same solution"
    );
    assert_eq!(exported, solved);
    assert_eq!(solved + refused, total);
    // the constraint kinds (thermometers, arrows, kropki, sandwiches, ...) unlock most of them
    assert!(solved >= 25, "only {solved} of {total} solved");
    assert_eq!(recompressed, total);
    assert!(total >= 30);
}
