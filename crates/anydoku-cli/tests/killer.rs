//! Killer: sum shapes and cages on any geometry, cage combinations, the law of 45, the Killer
//! importers and every bad-input case. Corpus tests (`corpus_killer_*`) read ../shared/data and
//! are `#[ignore]`d; every solution is checked by the independent checker in `common`.

mod common;

use std::time::Instant;

use anydoku::engine::search::Searcher;
use anydoku::engine::Options;
use anydoku::puzzle::import::{RawKiller, Source};
use anydoku::puzzle::{file, json, Puzzle};
use anydoku::{Engine, Limits, Status};
use common::{check_solution, run, shared_data, solve_and_check};
use serde_json::Value;

fn model(p: &Puzzle) -> Value {
    serde_json::to_value(json::to_model(p)).unwrap()
}

fn grid_map(p: &Puzzle, sol: &[u8]) -> serde_json::Map<String, Value> {
    let grid: Vec<Option<u8>> = sol.iter().map(|&v| Some(v)).collect();
    json::grid_map(&p.geometry, &grid)
}

/// Solves a corpus record with the law of 45 on and off; checks the published solution and the
/// independent checker. Returns false when the record is ambiguous, which is only accepted when
/// two different solutions both pass the independent checker and, read as an X-Killer (the
/// diagonals the source leaves out), it is unique with the published solution.
fn solve_record(raw: &RawKiller) -> bool {
    let p = raw
        .to_puzzle()
        .unwrap_or_else(|e| panic!("{}: {e}", raw.name));
    let m = model(&p);
    let published = raw.solution_indices(&p);
    if let Some(sol) = &published {
        check_solution(&m, &grid_map(&p, sol)).unwrap_or_else(|e| panic!("{}: {e}", raw.name));
    }
    let mut unique = true;
    for derived in [true, false] {
        let e = Engine::with_options(
            &p.geometry,
            Options {
                derived,
                ..Options::default()
            },
        );
        let r = e.solve(&p.givens, Limits::none());
        for sol in &r.solutions {
            check_solution(&m, &grid_map(&p, sol)).unwrap_or_else(|e| panic!("{}: {e}", raw.name));
        }
        match r.status() {
            Status::Unique => {
                if let Some(published) = &published {
                    assert_eq!(&r.solutions[0], published, "{}", raw.name);
                }
            }
            Status::Multiple => {
                assert_ne!(r.solutions[0], r.solutions[1]);
                unique = false;
                // janko's diagonal Killers are stored without their diagonals: as X-Killers they
                // must be unique with the published solution
                let x = raw.to_puzzle_on("x").unwrap();
                let r = Engine::new(&x.geometry).solve(&x.givens, Limits::none());
                assert_eq!(r.status(), Status::Unique, "{} as an X-Killer", raw.name);
                assert_eq!(Some(&r.solutions[0]), published.as_ref(), "{}", raw.name);
                check_solution(&model(&x), &grid_map(&x, &r.solutions[0])).unwrap();
            }
            other => panic!("{}: {other:?} (derived {derived})", raw.name),
        }
    }
    unique
}

fn corpus(file: &str) -> Vec<RawKiller> {
    let path = shared_data().join("variants/killer").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let source = Source::detect(file, &text).unwrap();
    source.read(&text).unwrap()
}

#[test]
#[ignore]
fn corpus_killer_puzzlekit() {
    let records = corpus("puzzlekit_KillerSudoku_dataset.json");
    assert_eq!(records.len(), 608);
    for size in [4, 6, 9] {
        assert!(records.iter().any(|r| r.size == size));
    }
    let ambiguous: Vec<&str> = records
        .iter()
        .filter(|r| !solve_record(r))
        .map(|r| r.name.as_str())
        .collect();
    eprintln!(
        "puzzlekit: {} records; ambiguous as plain Killers, unique as X-Killers: {ambiguous:?}",
        records.len()
    );
}

#[test]
#[ignore]
fn corpus_killer_constraintsolverjl() {
    for f in [
        "constraintsolverjl_killer_wikipedia.json",
        "constraintsolverjl_killer_niallsudoku_5500.json",
    ] {
        let records = corpus(f);
        assert_eq!(records.len(), 1);
        assert!(solve_record(&records[0]), "{f} is not unique");
    }
}

/// All KrazyDad puzzles: solved to their published solutions, with the law of 45 on and off;
/// prints throughput and the share solved without branching (nodes == 1) for both settings.
#[test]
#[ignore]
fn corpus_killer_krazydad() {
    let records = corpus("krazydad_killer_bnatalha_dataset_killer_sudoku.csv");
    assert_eq!(records.len(), 6000);
    let puzzles: Vec<Puzzle> = records.iter().map(|r| r.to_puzzle().unwrap()).collect();
    let mut share = [0.0; 2];
    for (k, derived) in [true, false].into_iter().enumerate() {
        let start = Instant::now();
        let mut no_branch = 0;
        let mut nodes = 0;
        for (raw, p) in records.iter().zip(&puzzles) {
            let e = Engine::with_options(
                &p.geometry,
                Options {
                    derived,
                    ..Options::default()
                },
            );
            let mut s = Searcher::new(&e);
            let r = s.count(&p.givens, 2, Limits::none());
            assert_eq!(r.status(), Status::Unique, "{}", raw.name);
            assert_eq!(Some(&r.solutions[0]), raw.solution_indices(p).as_ref());
            no_branch += (r.nodes == 1) as usize;
            nodes += r.nodes;
        }
        let secs = start.elapsed().as_secs_f64();
        share[k] = no_branch as f64 / records.len() as f64;
        eprintln!(
            "krazydad, law of 45 {}: {} puzzles in {secs:.2} s ({:.0}/s, engine built per puzzle, 1 thread), \
             {no_branch} ({:.1}%) solved by propagation alone, {:.1} nodes per puzzle",
            if derived { "on " } else { "off" },
            records.len(),
            records.len() as f64 / secs,
            100.0 * share[k],
            nodes as f64 / records.len() as f64
        );
    }
    assert!(
        share[0] > share[1] + 0.05,
        "the law of 45 should raise the propagation-only share: {share:?}"
    );
    // the independent checker on every published-and-found solution
    for (raw, p) in records.iter().zip(&puzzles) {
        let sol = raw.solution_indices(p).unwrap();
        check_solution(&model(p), &grid_map(p, &sol)).unwrap_or_else(|e| panic!("{e}"));
    }
}

// ---------------------------------------------------------------- example puzzles and the CLI

const EXAMPLES: [&str; 3] = [
    "puzzles/killer.toml",
    "puzzles/killer6.toml",
    "puzzles/samurai_killer.toml",
];

fn path(rel: &str) -> String {
    common::root().join(rel).display().to_string()
}

#[test]
fn example_killers_solve_uniquely_and_satisfy_the_derived_shapes() {
    for rel in EXAMPLES {
        let f = path(rel);
        let (status, sol) = solve_and_check(&f, None);
        assert_eq!(status, "unique", "{rel}");
        // the derived innies/outies are implied: the solution must satisfy them too
        let (code, out, err) = run(&["export", &f, "--derived"]);
        assert_eq!(code, 0, "{err}");
        let m: Value = serde_json::from_str(&out).unwrap();
        let derived = m["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| {
                let n = s["name"].as_str().unwrap();
                n.starts_with("Innie of ") || n.starts_with("Outie of ")
            })
            .count();
        assert!(derived > 0, "{rel}: no derived shapes");
        check_solution(&m, &sol.unwrap()).unwrap();
    }
}

#[test]
fn solve_reports_derived_shapes_and_can_switch_them_off() {
    let f = path("puzzles/killer.toml");
    let (code, _, err) = run(&["solve", &f, "--verbose"]);
    assert_eq!(code, 0);
    let n: usize = err
        .split("law of 45): ")
        .nth(1)
        .and_then(|t| t.split(';').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(n > 0);
    let (code, out, _) = run(&["solve", &f, "--format", "json", "--no-derived"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["derived"], 0);
    let (_, out, _) = run(&["solve", &f, "--format", "json"]);
    let w: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(w["derived"].as_u64().unwrap() as usize, n);
    assert_eq!(v["solution"], w["solution"]);
    assert!(w["nodes"].as_u64().unwrap() <= v["nodes"].as_u64().unwrap());
}

#[test]
fn derived_shapes_never_change_the_solution_count() {
    // drop every fifth cage of the 9x9 example: many solutions; counts must agree exactly
    let p = file::load_path(std::path::Path::new(&path("puzzles/killer.toml"))).unwrap();
    let g = &p.geometry;
    let kept: Vec<_> = g
        .shapes
        .iter()
        .enumerate()
        .filter(|(i, s)| !matches!(s.rule, anydoku::Rule::Sum { .. }) || i % 5 != 0)
        .map(|(_, s)| s.clone())
        .collect();
    let g2 =
        anydoku::Geometry::new(g.name.clone(), g.symbols.clone(), g.cells.to_vec(), kept).unwrap();
    let count = |derived| {
        let e = Engine::with_options(
            &g2,
            Options {
                derived,
                ..Options::default()
            },
        );
        (
            e.count(&p.givens, 30, Limits::none()).count,
            e.derived_count(),
        )
    };
    let (with, d) = count(true);
    let (without, _) = count(false);
    assert!(d > 0);
    assert_eq!(with, without);
    assert!(with > 1);
}

/// A geometry TOML with the 9x9 example's cages, symbols and values replaced.
fn killer9_with(symbols: &str, values: Option<&[i64]>, planted: &[u8]) -> String {
    let p = file::load_path(std::path::Path::new(&path("puzzles/killer.toml"))).unwrap();
    let v: Vec<i64> = values.map(<[i64]>::to_vec).unwrap_or((1..=9).collect());
    let mut t = format!("name = \"custom\"\nsymbols = \"{symbols}\"\nvalues = {v:?}\n[[grid]]\nsize = 9\nboxes = [3, 3]\n");
    for s in &p.geometry.shapes {
        if let anydoku::Rule::Sum { .. } = s.rule {
            let names: Vec<&str> = s
                .cells
                .iter()
                .map(|c| p.geometry.cell(*c).name.as_str())
                .collect();
            let sum: i64 = s.cells.iter().map(|c| v[planted[c.index()] as usize]).sum();
            t += &format!("[[cage]]\ncells = \"{}\"\nsum = {sum}\n", names.join(" "));
        }
    }
    t
}

fn planted9() -> Vec<u8> {
    let p = file::load_path(std::path::Path::new(&path("puzzles/killer.toml"))).unwrap();
    Engine::new(&p.geometry)
        .solve(&p.givens, Limits::none())
        .solutions[0]
        .clone()
}

#[test]
fn custom_symbols_and_values_are_summed_by_value() {
    let planted = planted9();
    let dir = common::scratch_dir();
    for (symbols, values) in [
        ("ABCDEFGHI", None),
        ("123456789", Some(&[2i64, 3, 5, 7, 11, 13, 17, 19, 23][..])),
        (
            "αβγδεζηθι",
            Some(&[0i64, 10, 20, 30, 40, 50, 60, 70, 80][..]),
        ),
    ] {
        let f = dir.join("custom.toml");
        std::fs::write(&f, killer9_with(symbols, values, &planted)).unwrap();
        let (status, sol) = solve_and_check(&f.display().to_string(), None);
        assert_ne!(status, "none", "{symbols}");
        if status == "unique" {
            let sol = sol.unwrap();
            let syms: Vec<String> = symbols.chars().map(String::from).collect();
            for (i, &v) in planted.iter().enumerate() {
                let cell = format!("r{}c{}", i / 9 + 1, i % 9 + 1);
                assert_eq!(sol[&cell], syms[v as usize], "{symbols} {cell}");
            }
        }
    }
}

#[test]
fn cages_on_other_geometries_x_jigsaw_16x16() {
    for geo in ["x", "jigsaw", "classic16", "windoku"] {
        let g = anydoku::geometry::builtin::load(geo).unwrap();
        let empty = vec![None; g.cell_count()];
        let sol = Engine::new(&g).count(&empty, 1, Limits::none()).solutions[0].clone();
        // horizontal two-cell cages over the whole board
        let mut cages = Vec::new();
        for (i, c) in g.cells.iter().enumerate() {
            let (r, col) = c.board.unwrap();
            if col % 2 == 1 {
                if let Some(j) = g.cell_id(&format!("r{r}c{}", col + 1)) {
                    let total =
                        g.symbols.value(sol[i] as usize) + g.symbols.value(sol[j.index()] as usize);
                    cages.push(anydoku::Shape {
                        name: format!("Cage r{r}c{col}"),
                        rule: anydoku::Rule::Sum {
                            total,
                            unique: true,
                        },
                        cells: vec![anydoku::geometry::CellId(i as u32), j],
                        kind: anydoku::geometry::ShapeKind::Cage,
                    });
                }
            }
        }
        let g = std::sync::Arc::new(g.with_extra_shapes(cages).unwrap());
        let p = Puzzle {
            geometry: g.clone(),
            givens: empty.clone(),
        };
        let r = Engine::new(&g).count(&empty, 2, Limits::none());
        assert!(r.count >= 1, "{geo}");
        for s in &r.solutions {
            check_solution(&model(&p), &grid_map(&p, s)).unwrap_or_else(|e| panic!("{geo}: {e}"));
        }
    }
}

// ---------------------------------------------------------------- bad input: message and exit 2

fn bad(toml: &str, needles: &[&str]) {
    let dir = common::scratch_dir();
    let f = dir.join(format!("bad{}.toml", needles[0].len()));
    std::fs::write(&f, toml).unwrap();
    let (code, out, err) = run(&["solve", &f.display().to_string()]);
    assert_eq!(code, 2, "{toml}\nstdout: {out}\nstderr: {err}");
    for n in needles {
        assert!(err.contains(n), "expected '{n}' in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

const HEAD: &str = "geometry = \"classic9\"\n";

#[test]
fn bad_impossible_cage_sum() {
    bad(
        &format!("{HEAD}[[cage]]\nname = \"Top\"\ncells = \"r1c1 r1c2\"\nsum = 18\n"),
        &[
            "'Top' has sum 18",
            "impossible for 2 distinct cells",
            "3 to 17",
        ],
    );
}

#[test]
fn bad_overlapping_cages_name_both() {
    bad(
        &format!("{HEAD}[[cage]]\ncells = \"r1c1 r1c2\"\nsum = 5\n[[cage]]\ncells = \"r1c2 r1c3\"\nsum = 7\n"),
        &["cages 'Cage 1' and 'Cage 2' overlap at r1c2"],
    );
}

#[test]
fn bad_cage_cell_outside_the_grid() {
    bad(
        &format!("{HEAD}[[cage]]\ncells = \"r9c9 r10c9\"\nsum = 5\n"),
        &["r10c9", "outside", "Cage 1"],
    );
}

#[test]
fn bad_cages_tiling_a_row_with_the_wrong_total() {
    bad(
        &format!("{HEAD}[[cage]]\ncells = \"r1c1-5\"\nsum = 20\n[[cage]]\ncells = \"r1c6-9\"\nsum = 26\n"),
        &["exactly cover 'Row 1'", "add up to 46", "must add up to 45"],
    );
}

#[test]
fn bad_grand_total_when_cages_tile_the_grid() {
    // a 4x4 geometry file whose cages cover every cell and no single row, column or box,
    // adding up to 41 instead of 4 x 10
    let text = "name = \"g\"\nsymbols = \"1234\"\n[[grid]]\nsize = 4\nboxes = [2, 2]\n\
                [[cage]]\ncells = \"r1c1-4 r2c1-2\"\nsum = 16\nunique = false\n\
                [[cage]]\ncells = \"r2c3-4 r3c1-4 r4c1\"\nsum = 18\nunique = false\n\
                [[cage]]\ncells = \"r4c2-4\"\nsum = 7\n";
    bad(
        text,
        &["cover every cell and add up to 41", "must add up to 40"],
    );
}

#[test]
fn bad_unique_cage_larger_than_the_symbol_set() {
    bad(
        "geometry = \"classic4\"\n[[cage]]\nname = \"Big\"\ncells = \"r1c1-4 r2c1\"\nsum = 12\n",
        &["'Big' has 5 cells", "4 symbols"],
    );
}
