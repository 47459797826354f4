//! Criterion benches of published variant puzzles from `../shared/data` (skipped with a message
//! when it or `python3` is missing): Samurai (puzzlekit, 204 puzzles), 16x16 (puzzlekit, 93),
//! 25x25 (michael404's `minimal2`, the one of the four minimal 25x25 that solves in
//! milliseconds) and Killer (KrazyDad, the first 500; engine construction included, as each
//! Killer has its own cages). Each puzzle is counted to two solutions and must come out unique
//! with its published solution where the set has one.
//!
//! The sets are converted to JSON models by `tools/variants_to_jsonl.py` into a temporary
//! directory first, as `benches/peers.rs` does. Run: `cargo bench --bench variants`.

use std::path::PathBuf;
use std::process::Command;

use anydoku::{Engine, Limits, Puzzle, Searcher, Status};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The JSON models of one converted set: (puzzle, published solution if any).
fn models(dir: &std::path::Path, file: &str, take: usize) -> Vec<(Puzzle, Option<Vec<u8>>)> {
    let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(take)
        .map(|line| {
            let p = Puzzle::from_json(line).expect("a converted model");
            let model: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let solution = model["solution"].as_object().and_then(|map| {
                let g = &p.geometry;
                let mut grid = vec![0u8; g.cell_count()];
                for (cell, symbol) in map {
                    let s = g.symbols.index_of(symbol.as_str()?)?;
                    grid[g.cell_id(cell)?.index()] = s as u8;
                }
                (map.len() == grid.len()).then_some(grid)
            });
            (p, solution)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let shared = std::env::var_os("ANYDOKU_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/data"));
    if !shared.join("variants").is_dir() {
        eprintln!("benches/variants: {} not found; skipping", shared.display());
        return;
    }
    let tmp = std::env::temp_dir().join(format!("anydoku-variants-{}", std::process::id()));
    let converted = Command::new("python3")
        .arg(root.join("tools/variants_to_jsonl.py"))
        .arg(shared.join("variants"))
        .arg(&tmp)
        .output();
    if !converted.is_ok_and(|o| o.status.success()) {
        eprintln!("benches/variants: tools/variants_to_jsonl.py could not run; skipping");
        let _ = std::fs::remove_dir_all(&tmp);
        return;
    }
    let sets = [
        (
            "samurai puzzlekit (204)",
            "samurai_puzzlekit.jsonl",
            usize::MAX,
            false,
        ),
        (
            "16x16 puzzlekit (93)",
            "sizes_puzzlekit.jsonl",
            usize::MAX,
            false,
        ),
        (
            "25x25 michael404 minimal2",
            "symbols_michael404.jsonl",
            usize::MAX,
            false,
        ),
        ("killer krazydad (500)", "killer_krazydad.jsonl", 500, true),
    ];
    let mut group = c.benchmark_group("variants");
    group.sample_size(10);
    for (label, file, take, build_engine) in sets {
        let mut set = models(&tmp, file, take);
        match file {
            "sizes_puzzlekit.jsonl" => set.retain(|(p, _)| p.geometry.cell_count() == 256),
            "symbols_michael404.jsonl" => {
                set.retain(|(p, _)| p.geometry.name.contains("25x25 minimal2"))
            }
            _ => {}
        }
        if set.is_empty() {
            eprintln!("benches/variants: {file} has no puzzles; skipping {label}");
            continue;
        }
        group.throughput(Throughput::Elements(set.len() as u64));
        // one engine per layout when the layout repeats (it is built once, outside the loop);
        // a Killer's engine is part of solving it
        let engines: Vec<Option<Engine>> = set
            .iter()
            .map(|(p, _)| (!build_engine).then(|| Engine::new(&p.geometry)))
            .collect();
        group.bench_function(label, |b| {
            b.iter(|| {
                for ((p, solution), engine) in set.iter().zip(&engines) {
                    let built;
                    let e = match engine {
                        Some(e) => e,
                        None => {
                            built = Engine::new(&p.geometry);
                            &built
                        }
                    };
                    let r = Searcher::new(e).count(&p.givens, 2, Limits::none());
                    assert_eq!(r.status(), Status::Unique, "{}", p.geometry.name);
                    if let Some(s) = solution {
                        assert_eq!(&r.solutions[0], s, "{}", p.geometry.name);
                    }
                }
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&tmp);
}

criterion_group!(benches, bench);
criterion_main!(benches);
