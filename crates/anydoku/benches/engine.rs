//! Engine throughput across sizes (geometry-free: the same code for every grid).
//!
//! * classic 9x9: the first 300 lines of the public-domain SE 5.0+ file in benches/data, each
//!   counted to two solutions (uniqueness check), every answer asserted unique;
//! * filling empty grids (first solution) of 16x16 and 25x25;
//! * counting every solution of the empty 4x4 (288, checked).
//!
//! Run: `cargo bench --bench engine`. For deterministic comparisons of engine variants, prefer
//! instruction counts: `valgrind --tool=callgrind target/release/nodes FILE` (`cargo build --release
//! -p anydoku-tune`).

use std::hint::black_box;

use std::sync::Arc;

use anydoku::puzzle::TextLines;
use anydoku::{Engine, Geometry, Limits, Searcher, Status};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn classic9(c: &mut Criterion) {
    let g = Geometry::builtin("classic9").unwrap();
    let engine = Engine::new(&g);
    let puzzles: Vec<Vec<Option<u8>>> =
        include_str!("data/sudoku_exchange_diabolical_SE5.0plus_first3000.txt")
            .lines()
            .take(300)
            .map(|l| {
                TextLines::new(Arc::new(g.clone()))
                    .givens(&l[..81])
                    .unwrap()
            })
            .collect();
    let mut group = c.benchmark_group("engine classic9 SE5.0+ (300)");
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("count to 2", |b| {
        let mut s = Searcher::new(&engine);
        b.iter(|| {
            for p in &puzzles {
                let r = s.count(black_box(p), 2, Limits::none());
                assert_eq!(r.status(), Status::Unique);
            }
        })
    });
    group.finish();
}

fn fill_empty(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine fill empty grid");
    group.sample_size(10);
    for name in ["classic16", "classic25"] {
        let g = Geometry::builtin(name).unwrap();
        let engine = Engine::new(&g);
        let givens = vec![None; g.cells.len()];
        group.bench_function(name, |b| {
            let mut s = Searcher::new(&engine);
            b.iter(|| {
                let r = s.count(black_box(&givens), 1, Limits::none());
                assert_eq!(r.count, 1);
            })
        });
    }
    group.finish();
}

fn count_empty4(c: &mut Criterion) {
    let g = Geometry::builtin("classic4").unwrap();
    let engine = Engine::new(&g);
    let givens = vec![None; g.cells.len()];
    c.bench_function("engine count empty classic4 (288)", |b| {
        let mut s = Searcher::new(&engine);
        b.iter(|| {
            let r = s.count(black_box(&givens), u64::MAX, Limits::none());
            assert_eq!(r.count, 288);
        })
    });
}

criterion_group!(benches, classic9, fill_empty, count_empty4);
criterion_main!(benches);
