//! What a new user meets (issue 27): symbols of several characters (`10` to `25`) in every
//! format, every printed grid read back in, generated puzzles written as files `solve` takes,
//! built-in layouts printed, and messages in the user's terms for the usual mistakes.
//!
//! `corpus_numeric_16x16_and_25x25` (ignored; it needs ../shared/data) solves published
//! puzzles written with numbers as TOML, JSON and batch lines.

mod common;

use std::path::Path;

use common::{check_solution, root, run, solve_and_check};
use serde_json::Value;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs the binary and expects exit 0; returns stdout.
fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}\n{out}");
    out
}

/// Runs the binary and expects exit 2; returns stderr.
fn bad(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}\n{err}");
    err
}

fn shipped_puzzles() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join("puzzles"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml" || e == "json"))
        .map(|p| format!("puzzles/{}", p.file_name().unwrap().to_str().unwrap()))
        .collect();
    v.sort();
    assert!(v.len() >= 20, "{v:?}");
    v
}

/// `solve P > out.txt`, then `hint P --entries out.txt` says the grid is complete and right,
/// and `check --geometry MODEL out.txt` reads the drawing as givens; one wrong cell is caught.
#[test]
fn every_printed_solution_reads_back_in() {
    let dir = common::scratch_dir();
    for p in shipped_puzzles() {
        let drawing = ok(&["solve", &p]);
        let out = write(&dir, "out.txt", &drawing);
        let said = ok(&["hint", &p, "--entries", &out]);
        assert_eq!(
            said.trim(),
            "the grid is complete and right: every rule holds",
            "{p}"
        );
        // the same drawing as the givens of the puzzle's layout (cages included)
        let model = write(&dir, "model.json", &ok(&["export", &p]));
        let said = ok(&["check", "--geometry", &model, &out]);
        assert!(said.starts_with("complete and valid"), "{p}: {said}");
        // a wrong symbol in the first line is refused, so the drawing was really read
        let first = drawing.lines().next().unwrap();
        let token = first.split([' ', '|']).find(|t| !t.is_empty()).unwrap();
        let other = ok(&["export", &p]);
        let model_json: Value = serde_json::from_str(&other).unwrap();
        let swap = model_json["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .find(|s| *s != token && s.chars().count() == token.chars().count())
            .unwrap();
        let wrong = drawing.replacen(token, swap, 1);
        let out = write(&dir, "wrong.txt", &wrong);
        let (code, said, err) = run(&["hint", &p, "--entries", &out]);
        assert_eq!(code, 1, "{p}: a wrong entry must fail: {said}{err}");
    }
}

/// `generate -g G --seed 1 -o p.toml` writes a file that `solve` takes as it is, with the
/// solution `generate --format json` prints; the same for `-o p.json`.
#[test]
fn generated_puzzle_files_solve_to_the_printed_solution() {
    let dir = common::scratch_dir();
    for args in [
        &["-g", "classic9"][..],
        &["-g", "samurai"],
        &["-g", "tredoku"],
        &["-g", "classic9", "--killer"],
        &["-g", "classic16n"],
    ] {
        let mut base = vec!["generate"];
        base.extend_from_slice(args);
        base.extend_from_slice(&["--seed", "1"]);
        let mut json_args = base.clone();
        json_args.extend_from_slice(&["--format", "json"]);
        let made: Value = serde_json::from_str(&ok(&json_args)).unwrap();
        for name in ["p.toml", "p.json"] {
            let file = dir.join(name);
            let mut file_args = base.clone();
            file_args.extend_from_slice(&["-o", file.to_str().unwrap()]);
            assert_eq!(ok(&file_args), "", "{args:?}: nothing on standard output");
            let solved: Value =
                serde_json::from_str(&ok(&["solve", file.to_str().unwrap(), "--format", "json"]))
                    .unwrap();
            assert_eq!(solved["status"], "unique", "{args:?} {name}");
            assert_eq!(solved["solution"], made["solution"], "{args:?} {name}");
        }
        let toml = std::fs::read_to_string(dir.join("p.toml")).unwrap();
        if args.contains(&"--killer") {
            let cages = made["shapes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|s| s["rule"] == "sum")
                .count();
            assert_eq!(toml.matches("[[cage]]").count(), cages, "{toml}");
        }
    }
    // a layout file is named by its path from the puzzle file
    let layout = write(
        &dir,
        "tiny.toml",
        &ok(&["geometries", "--show", "classic4"]),
    );
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let out = sub.join("p.toml");
    ok(&[
        "generate",
        "-g",
        &layout,
        "--seed",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("geometry = \"../tiny.toml\""), "{text}");
    ok(&["solve", out.to_str().unwrap()]);
    // one puzzle per TOML file
    let err = bad(&[
        "generate", "-g", "classic4", "--count", "2", "--format", "toml",
    ]);
    assert!(err.contains("a TOML puzzle file holds one puzzle"), "{err}");
}

/// The text output of `generate` reads back in as grid text: comments and all.
#[test]
fn generate_text_output_reads_back_as_givens() {
    let dir = common::scratch_dir();
    let text = ok(&["generate", "-g", "classic9", "--seed", "3"]);
    let file = write(&dir, "g.txt", &text);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("# one line: "))
        .unwrap();
    let from_file: Value =
        serde_json::from_str(&ok(&["solve", "-g", "classic9", &file, "--format", "json"])).unwrap();
    let from_line: Value =
        serde_json::from_str(&ok(&["solve", "-g", "classic9", line, "--format", "json"])).unwrap();
    assert_eq!(from_file["status"], "unique");
    assert_eq!(from_file["solution"], from_line["solution"]);
}

/// Symbols of several characters: a 16x16 with 1..16 as TOML, JSON, batch lines and an
/// f-puzzles link, each solved to the same (independently checked) solution.
#[test]
fn numbers_as_symbols_in_every_format() {
    let dir = common::scratch_dir();
    let p = "puzzles/classic16n.toml";
    let (status, sol) = solve_and_check(p, None);
    assert_eq!(status, "unique");
    let sol = Value::Object(sol.unwrap());
    assert_eq!(sol["r1c3"], "8", "{sol}");
    assert!(sol.as_object().unwrap().values().any(|v| v == "16"));
    // JSON model
    let model = write(&dir, "m.json", &ok(&["export", p]));
    let (status, from_json) = solve_and_check(&model, None);
    assert_eq!(
        (status.as_str(), Value::Object(from_json.unwrap())),
        ("unique", sol.clone())
    );
    // batch lines, symbols separated by spaces (the givens of the file, one line)
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let cells: Vec<&str> = m["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let line: Vec<&str> = cells
        .iter()
        .map(|c| m["givens"].get(*c).and_then(Value::as_str).unwrap_or("."))
        .collect();
    let lines = write(
        &dir,
        "l.txt",
        &format!("{}\n{}\n", line.join(" "), line.join(",")),
    );
    let answers = ok(&["batch", &lines, "-g", "classic16n"]);
    let want: Vec<&str> = cells.iter().map(|c| sol[*c].as_str().unwrap()).collect();
    for answer in answers.lines() {
        assert_eq!(answer, want.join(" "));
    }
    // the line `batch` prints reads back as a full grid
    let full = write(&dir, "full.txt", answers.lines().next().unwrap());
    assert!(ok(&["check", "-g", "classic16n", &full]).starts_with("complete and valid"));
    // an f-puzzles link keeps the numbers
    let url = ok(&["export", p, "--format", "fpuzzles"]);
    let (status, from_link) = solve_and_check(url.trim(), None);
    assert_eq!(
        (status.as_str(), Value::Object(from_link.unwrap())),
        ("unique", sol)
    );
}

/// A 25x25 written with 1..25: the shipped letter puzzle relabelled, as TOML and JSON.
#[test]
fn a_25x25_with_numbers_solves_like_its_letters() {
    let dir = common::scratch_dir();
    let letters: Value = serde_json::from_str(&ok(&["export", "puzzles/classic25.toml"])).unwrap();
    let number = |s: &str| (s.chars().next().unwrap() as u8 - b'A' + 1).to_string();
    let cells: Vec<&str> = letters["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let givens: Vec<String> = cells
        .iter()
        .map(|c| {
            letters["givens"]
                .get(*c)
                .and_then(Value::as_str)
                .map_or(".".into(), number)
        })
        .collect();
    let rows: Vec<String> = givens.chunks(25).map(|r| r.join(" ")).collect();
    let toml = format!(
        "geometry = \"classic25n\"\ngivens = \"\"\"\n{}\n\"\"\"\n",
        rows.join("\n")
    );
    let file = write(&dir, "n25.toml", &toml);
    let (status, sol) = solve_and_check(&file, None);
    assert_eq!(status, "unique");
    let sol = sol.unwrap();
    let (_, by_letters) = solve_and_check("puzzles/classic25.toml", None);
    for (cell, v) in by_letters.unwrap() {
        assert_eq!(
            sol[&cell],
            Value::String(number(v.as_str().unwrap())),
            "{cell}"
        );
    }
    let model = write(&dir, "n25.json", &ok(&["export", &file]));
    let (_, from_json) = solve_and_check(&model, None);
    assert_eq!(from_json.unwrap(), sol);
}

/// `geometries --show NAME` prints each built-in's file, which loads as that layout.
#[test]
fn every_builtin_layout_can_be_printed_and_reloaded() {
    let dir = common::scratch_dir();
    let list = ok(&["geometries"]);
    let names: Vec<&str> = list
        .lines()
        .skip(1)
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert!(
        names.contains(&"classic16n") && names.contains(&"classic25n"),
        "{list}"
    );
    for name in names {
        let text = ok(&["geometries", "--show", name]);
        let shipped = std::fs::read_to_string(root().join(format!("geometries/{name}.toml")));
        assert_eq!(Some(&text), shipped.as_ref().ok(), "{name}");
        let file = write(&dir, &format!("{name}.toml"), &text);
        assert_eq!(ok(&["export", &file]), ok(&["export", name]), "{name}");
    }
    let err = bad(&["geometries", "--show", "samuri"]);
    assert!(err.contains("did you mean 'samurai'?"), "{err}");
}

/// The usual mistakes, each told in the file's terms at its line and column.
#[test]
fn mistakes_get_messages_in_the_users_terms() {
    let dir = common::scratch_dir();
    let head = "name = \"t\"\nsymbols = \"123456789\"\n[[grid]]\nsize = 9\nboxes = [3, 3]\n";
    let cases: &[(&str, String, &[&str])] = &[
        (
            "range.toml",
            format!("{head}[[shape]]\ncells = \"r1c1-r2c3\"\n"),
            &["range.toml:7:9: bad cell selector 'r1c1-r2c3'", "r1-2c1-3"],
        ),
        (
            "twice.toml",
            format!("{head}[[shape]]\nname = \"W\"\ncells = \"r1c1 r1c2 r1c1\"\n"),
            &["twice.toml:8:9: shape 'W' names cell r1c1 twice"],
        ),
        (
            "cell.toml",
            "name = \"t\"\nsymbols = \"12\"\n[[cell]]\nname = \"a\"\npos = [0, 0]\n\
             [[cell]]\nname = \"a\"\npos = [1, 0]\n"
                .into(),
            &["cell.toml:6:1: cell name 'a' is used twice"],
        ),
        (
            "noname.toml",
            "name = \"t\"\nsymbols = \"12\"\n[[cell]]\nname = \"a\"\npos = [0, 0]\n\
             [[shape]]\ncells = \"a b\"\n"
                .into(),
            &["noname.toml:7:9: there is no cell named 'b'"],
        ),
        (
            "origin.toml",
            "name = \"t\"\nsymbols = \"123456789\"\n[[grid]]\norigin = [7, 4, 1]\nsize = 9\n"
                .into(),
            &["origin.toml:4:10: origin has 3 numbers; write origin = [row, column]"],
        ),
        (
            "grids.toml",
            "name = \"t\"\nsymbols = \"123456789\"\n[[grid]]\nname = \"A\"\nsize = 9\n\
             [[grid]]\nname = \"A\"\norigin = [7, 7]\nsize = 9\n"
                .into(),
            &["grids.toml:6:1: two grids are named 'A'"],
        ),
        (
            "table.toml",
            "name = \"t\"\nsymbols = \"123456789\"\n[grid]\nsize = 9\n".into(),
            &["table.toml:3:1: [grid] is one table", "write [[grid]]"],
        ),
        (
            "symbols.toml",
            "name = \"t\"\nsymbols = [\"1\", \"2 3\"]\n[[grid]]\nsize = 2\n".into(),
            &["symbols.toml:2:11: symbol '2 3' contains whitespace"],
        ),
    ];
    for (name, text, want) in cases {
        let file = write(&dir, name, text);
        let err = bad(&["count", &file]);
        for w in *want {
            assert!(err.contains(w), "{name}: want {w:?} in {err}");
        }
    }
    let err = bad(&["count", "classic10"]);
    assert!(
        err.starts_with("error: unknown geometry 'classic10'")
            && err.contains("did you mean 'classic12' or 'classic16'?")
            && err.contains("classic4, classic6, classic9"),
        "{err}"
    );
    let err = bad(&["generate", "-g", "samuray"]);
    assert!(err.contains("did you mean 'samurai'?"), "{err}");
    // a list of cages given to solve points to import
    let cages = root().join("puzzles/import/killer_cages.json");
    let err = bad(&["solve", cages.to_str().unwrap()]);
    assert!(
        err.contains("killer_cages.json:1:1: a JSON array is not a puzzle model")
            && err.contains("`anydoku import`"),
        "{err}"
    );
    // a file name that does not exist is still a missing file
    let err = bad(&["count", "nope.toml"]);
    assert!(err.contains("cannot read nope.toml: no such file"), "{err}");
}

/// Emoji take two columns: the drawing's box lines stay aligned.
#[test]
fn symbols_of_any_width_line_up() {
    let dir = common::scratch_dir();
    let layout = write(
        &dir,
        "fruit.toml",
        "name = \"fruit\"\nsymbols = [\"🍎\", \"🍐\", \"🍊\", \"🍋\"]\n[[grid]]\nsize = 4\n\
         boxes = [2, 2]\n",
    );
    // a generated puzzle: emoji and empty cells side by side
    let drawing = ok(&["generate", "-g", &layout, "--seed", "1"]);
    assert!(drawing.contains('.') && drawing.contains('🍎'), "{drawing}");
    let width = |s: &str| -> usize {
        s.chars()
            .map(|c| if (c as u32) >= 0x1F000 { 2 } else { 1 })
            .sum()
    };
    let bars: Vec<Vec<usize>> = drawing
        .lines()
        .filter(|l| l.contains('|') && !l.starts_with('#'))
        .map(|l| l.match_indices('|').map(|(i, _)| width(&l[..i])).collect())
        .collect();
    assert!(
        bars.len() == 4 && bars.iter().all(|b| *b == bars[0]),
        "{drawing}"
    );
    assert_eq!(bars[0], vec![5], "{drawing}");
    let rule = drawing.lines().find(|l| l.starts_with('-')).unwrap();
    assert_eq!(rule, "-----+-----", "{drawing}");
}

/// Cells off the board are drawn on their positions (a hexagon), and read back by position.
#[test]
fn explicit_cells_draw_on_their_positions() {
    let layout = "puzzles/layouts/hexagon.toml";
    let model: Value = serde_json::from_str(&ok(&["export", layout])).unwrap();
    let out = ok(&["solve", "puzzles/hexagon.toml"]);
    assert!(!out.contains(" = "), "not a list of cells: {out}");
    let widths: Vec<usize> = out.lines().map(|r| r.split_whitespace().count()).collect();
    assert_eq!(widths, vec![3, 4, 5, 4, 3], "{out}");
    let indent: Vec<usize> = out
        .lines()
        .map(|r| r.len() - r.trim_start().len())
        .collect();
    assert_eq!(indent, vec![2, 1, 0, 1, 2], "{out}");
    // read back as the givens of the bare layout: a complete valid grid
    let dir = common::scratch_dir();
    let file = write(&dir, "hex.txt", &out);
    let said = ok(&["check", "--geometry", layout, &file]);
    assert!(said.starts_with("complete and valid"), "{said}");
    let solved: Value = serde_json::from_str(&ok(&[
        "solve",
        "--geometry",
        layout,
        &file,
        "--format",
        "json",
    ]))
    .unwrap();
    check_solution(&model, solved["solution"].as_object().unwrap()).unwrap();
}

/// One published numeric puzzle: the givens and the solution, row by row, as numbers
/// (`.` for an empty cell).
struct Published {
    what: String,
    size: usize,
    givens: Vec<String>,
    solution: Vec<String>,
}

/// puzzlekit's 16x16 classics (janko.at), written with the numbers 1-16.
fn puzzlekit_16x16(take: usize) -> Vec<Published> {
    let path = common::shared_data().join("variants/sizes/puzzlekit_Sudoku_dataset.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tokens = |grid: &str| -> Vec<String> {
        grid.lines()
            .skip(1)
            .flat_map(|l| l.split_whitespace())
            .map(|t| if t == "-" { ".".into() } else { t.to_string() })
            .collect()
    };
    let mut out: Vec<Published> = data["data"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(key, _)| key.ends_with("_16x16"))
        .map(|(key, r)| Published {
            what: format!("puzzlekit {key}"),
            size: 16,
            givens: tokens(r["problem"].as_str().unwrap()),
            solution: tokens(r["solution"].as_str().unwrap()),
        })
        .collect();
    out.truncate(take);
    out
}

/// michael404's 25x25 `puzzel1` (letters A-Y), relabelled 1-25 (A = 1).
fn michael404_25x25() -> Published {
    let path = common::shared_data()
        .join("variants/symbols/michael404_TestData_16_25_36_excerpt.swift.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("static let puzzel1").unwrap();
    let block = &text[start..start + text[start..].find(")\n").unwrap()];
    let (givens, solution) = block.split_once("solution:").unwrap();
    let letters = |s: &str| -> Vec<String> {
        s.split('"')
            .skip(1)
            .step_by(2)
            .flat_map(|part| part.chars())
            .map(|c| match c {
                '.' => ".".to_string(),
                _ => (c as u8 - b'A' + 1).to_string(),
            })
            .collect()
    };
    Published {
        what: "michael404 puzzel1".into(),
        size: 25,
        givens: letters(givens),
        solution: letters(solution),
    }
}

/// Published 16x16 and 25x25 puzzles written with numbers, as a TOML puzzle, as the JSON
/// model it exports, as `batch` lines (spaces, commas) and as an f-puzzles link (16x16): each
/// solves to the published solution, checked cell by cell and by the independent checker.
#[test]
#[ignore = "needs ../shared/data"]
fn corpus_numeric_16x16_and_25x25() {
    let dir = common::scratch_dir();
    let mut puzzles = puzzlekit_16x16(5);
    assert_eq!(puzzles.len(), 5);
    puzzles.push(michael404_25x25());
    for p in &puzzles {
        let n = p.size;
        assert_eq!(
            (p.givens.len(), p.solution.len()),
            (n * n, n * n),
            "{}",
            p.what
        );
        let geometry = format!("classic{n}n");
        let rows: Vec<String> = p.givens.chunks(n).map(|r| r.join(" ")).collect();
        let toml = format!(
            "geometry = \"{geometry}\"\ngivens = \"\"\"\n{}\n\"\"\"\n",
            rows.join("\n")
        );
        let file = write(&dir, &format!("p{n}.toml"), &toml);
        let want = |sol: &serde_json::Map<String, Value>| {
            for (i, v) in p.solution.iter().enumerate() {
                let cell = format!("r{}c{}", i / n + 1, i % n + 1);
                assert_eq!(sol[&cell], Value::String(v.clone()), "{}: {cell}", p.what);
            }
        };
        let (status, sol) = solve_and_check(&file, None);
        assert_eq!(status, "unique", "{}", p.what);
        want(&sol.unwrap());
        // export -> import: the JSON model
        let model = write(&dir, &format!("p{n}.json"), &ok(&["export", &file]));
        let (status, sol) = solve_and_check(&model, None);
        assert_eq!(status, "unique", "{} (JSON)", p.what);
        want(&sol.unwrap());
        // batch lines: the answer is the published solution, symbols separated by spaces
        let lines = format!("{}\n{}\n", p.givens.join(" "), p.givens.join(","));
        let lines = write(&dir, &format!("p{n}.txt"), &lines);
        let answers = ok(&["batch", &lines, "-g", &geometry]);
        assert_eq!(answers.lines().count(), 2, "{}", p.what);
        for answer in answers.lines() {
            assert_eq!(answer, p.solution.join(" "), "{} (batch)", p.what);
        }
        // export -> import: an f-puzzles link (the format has numbers up to 16)
        if n == 16 {
            let url = ok(&["export", &file, "--format", "fpuzzles"]);
            let (status, sol) = solve_and_check(url.trim(), None);
            assert_eq!(status, "unique", "{} (f-puzzles)", p.what);
            want(&sol.unwrap());
        }
    }
}
