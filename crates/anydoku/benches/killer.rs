//! Criterion bench of the KrazyDad Killer set (../shared/data; skipped with a message if absent):
//! engine construction plus solving, with the law of 45 on and off. Every answer is checked
//! against the published solution while benchmarking.

use std::path::PathBuf;

use anydoku::engine::Options;
use anydoku::puzzle::Source;
use anydoku::{Engine, Limits, Puzzle, Searcher, Status};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const FILE: &str = "variants/killer/krazydad_killer_bnatalha_dataset_killer_sudoku.csv";

fn load() -> Option<Vec<(Puzzle, Vec<u8>)>> {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("../shared/data")
        .join(FILE);
    let text = std::fs::read_to_string(&path).ok()?;
    let raws = Source::KrazyDad.read(&text).ok()?;
    Some(
        raws.iter()
            .take(500)
            .map(|r| {
                let p = r.to_puzzle().expect("valid record");
                let sol = r.solution_indices(&p).expect("published solution");
                (p, sol)
            })
            .collect(),
    )
}

fn bench(c: &mut Criterion) {
    let Some(set) = load() else {
        eprintln!("benches/killer: ../shared/data/{FILE} not found; skipping");
        return;
    };
    let mut group = c.benchmark_group("krazydad_killer_500");
    group.throughput(Throughput::Elements(set.len() as u64));
    group.sample_size(10);
    for derived in [true, false] {
        let name = if derived {
            "law_of_45_on"
        } else {
            "law_of_45_off"
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                for (p, sol) in &set {
                    let e = Engine::with_options(
                        &p.geometry,
                        Options {
                            derived,
                            ..Options::default()
                        },
                    );
                    let r = Searcher::new(&e).count(&p.givens, 2, Limits::none());
                    assert_eq!(r.status(), Status::Unique);
                    assert_eq!(&r.solutions[0], sol);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
