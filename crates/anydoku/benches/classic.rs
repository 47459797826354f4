//! Classic 9x9 throughput, side by side with a 9x9-only peer (rustoku-lib, MIT) on the same puzzles.
//!
//! Data: the first 3,000 lines of the public-domain sudoku-exchange SE 5.0+ file (benches/data).
//! Every answer is checked while benchmarking: anydoku must find a unique solution for each.
//! Run: `cargo bench --bench classic`.

use std::hint::black_box;

use std::sync::Arc;

use anydoku::puzzle::TextLines;
use anydoku::{Engine, Geometry, Limits, Puzzle, Searcher, Status};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn lines() -> Vec<String> {
    include_str!("data/sudoku_exchange_diabolical_SE5.0plus_first3000.txt")
        .lines()
        .map(|l| l[..81].to_string())
        .collect()
}

fn classic(c: &mut Criterion) {
    let g = Geometry::builtin("classic9").unwrap();
    let engine = Engine::new(&g);
    let puzzles: Vec<Vec<Option<u8>>> = lines()
        .iter()
        .map(|l| TextLines::new(Arc::new(g.clone())).givens(l).unwrap())
        .collect();
    let mut group = c.benchmark_group("classic9 SE5.0+ (3000)");
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("anydoku", |b| {
        let mut s = Searcher::new(&engine);
        b.iter(|| {
            for p in &puzzles {
                let r = s.count(black_box(p), 2, Limits::none());
                assert_eq!(r.status(), Status::Unique);
            }
        })
    });
    group.finish();

    // the peer is ~100x slower: compare on the first 300 puzzles
    let few = &lines()[..300];
    let mut group = c.benchmark_group("classic9 SE5.0+ (300), side by side");
    group.sample_size(10);
    group.throughput(Throughput::Elements(few.len() as u64));
    group.bench_function("anydoku", |b| {
        let mut s = Searcher::new(&engine);
        let ps: Vec<_> = few
            .iter()
            .map(|l| TextLines::new(Arc::new(g.clone())).givens(l).unwrap())
            .collect();
        b.iter(|| {
            for p in &ps {
                assert_eq!(s.count(black_box(p), 2, Limits::none()).count, 1);
            }
        })
    });
    group.bench_function("rustoku-lib 0.16", |b| {
        let solvers: Vec<_> = few
            .iter()
            .map(|l| rustoku_lib::Rustoku::new_from_str(l).unwrap())
            .collect();
        b.iter(|| {
            for s in &solvers {
                let mut s = *s;
                assert_eq!(black_box(s.count_solutions_until(2)), 1);
            }
        })
    });
    group.finish();
}

fn samurai(c: &mut Criterion) {
    // Samurai puzzles made by anydoku itself (puzzles/samurai*.toml); fall back to filling the
    // empty Samurai when none exist yet.
    let mut puzzles = Vec::new();
    if let Ok(dir) = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles")) {
        let mut paths: Vec<_> = dir.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if name.starts_with("samurai") && !name.contains("killer") {
                if let Ok(puzzle) = Puzzle::load(&p) {
                    puzzles.push(puzzle);
                }
            }
        }
    }
    let g = Geometry::builtin("samurai").unwrap();
    let engine = Engine::new(&g);
    let mut group = c.benchmark_group("samurai");
    group.sample_size(10);
    if puzzles.is_empty() {
        group.bench_function("anydoku fill empty", |b| {
            let mut s = Searcher::new(&engine);
            let empty = vec![None; g.cell_count()];
            b.iter(|| assert_eq!(s.count(&empty, 1, Limits::none()).count, 1))
        });
    } else {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function("anydoku puzzles/samurai*.toml", |b| {
            let engines: Vec<Engine> = puzzles.iter().map(|p| Engine::new(&p.geometry)).collect();
            b.iter(|| {
                for (p, e) in puzzles.iter().zip(&engines) {
                    assert_eq!(e.solve(&p.givens, Limits::none()).status(), Status::Unique);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, classic, samurai);
criterion_main!(benches);
