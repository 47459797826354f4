//! Compares the two search kernels on a `.jsonl` file of JSON models: the symbol-major bitboard
//! kernel (`engine::board`) and the cell-major one, same engine options otherwise.
//!
//! `kernels FILE [N]`: the first N lines (default 300); each puzzle counted to two solutions by
//! both kernels, statuses compared, solving time summed per kernel (engine construction and
//! parsing excluded).
use anydoku::engine::{Engine, Options, Switch};
use anydoku::puzzle::json;
use anydoku::Limits;
use std::io::BufRead;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args
        .get(2)
        .map_or(300, |s| s.parse().expect("N must be a number"));
    let f = std::io::BufReader::new(std::fs::File::open(&args[1]).expect("cannot open FILE"));
    let (mut times, mut nodes, mut count) = ([Duration::ZERO; 2], [0u64; 2], 0);
    let limits = Limits {
        max_nodes: Some(2_000_000),
        max_time: None,
    };
    for line in f.lines().take(n) {
        let p = json::from_json(&line.unwrap()).expect("a JSON model");
        let mut statuses = Vec::new();
        for (k, board) in [true, false].into_iter().enumerate() {
            let e = Engine::with_options(
                &p.geometry,
                Options {
                    board: if board { Switch::On } else { Switch::Off },
                    ..Default::default()
                },
            );
            let t = Instant::now();
            let c = e.solve(&p.givens, limits);
            times[k] += t.elapsed();
            nodes[k] += c.nodes;
            statuses.push(c.status());
        }
        assert_eq!(statuses[0], statuses[1], "line {}", count + 1);
        count += 1;
    }
    let per = |t: Duration| t.as_secs_f64() * 1e6 / count as f64;
    println!(
        "{count} puzzles: bitboard {:.1} us/puzzle ({:.1} nodes), cell-major {:.1} us/puzzle ({:.1} nodes), speed-up {:.2}x",
        per(times[0]),
        nodes[0] as f64 / count as f64,
        per(times[1]),
        nodes[1] as f64 / count as f64,
        times[1].as_secs_f64() / times[0].as_secs_f64()
    );
}
