//! Prints the average search nodes per puzzle for a line file (a tuning aid).
//!
//! `nodes FILE [GEOMETRY] [overlaps=on|off] [board=on|off] [vector=on|off]`: the first 5000 lines, each counted
//! to two solutions, with the overlap pass and the bitboard kernel chosen by the engine unless
//! given.
use anydoku::engine::search::Searcher;
use anydoku::engine::Switch;
use anydoku::geometry::builtin;
use anydoku::puzzle::text;
use anydoku::Limits;
use std::io::BufRead;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let g = builtin::load(
        args.get(2)
            .filter(|a| !a.contains('='))
            .map_or("classic9", |s| s.as_str()),
    )
    .unwrap();
    let switch = |name: &str| {
        args.iter()
            .skip(2)
            .find_map(|a| a.strip_prefix(name)?.strip_prefix('='))
            .map_or(Switch::Auto, |v| {
                if v == "on" {
                    Switch::On
                } else {
                    Switch::Off
                }
            })
    };
    let overlaps = switch("overlaps");
    let board = switch("board");
    let e = anydoku::engine::Engine::with_options(
        &g,
        anydoku::engine::Options {
            overlaps,
            board,
            vector: switch("vector"),
            ..Default::default()
        },
    );
    let mut s = Searcher::new(&e);
    let f = std::io::BufReader::new(std::fs::File::open(&args[1]).unwrap());
    let (mut n, mut nodes) = (0u64, 0u64);
    let t = std::time::Instant::now();
    for line in f.lines().take(5000) {
        let givens = text::parse_line(&g, &line.unwrap()).unwrap();
        let c = s.count(&givens, 2, Limits::none());
        nodes += c.nodes;
        n += 1;
    }
    println!(
        "{n} puzzles, {:.1} nodes/puzzle, {:.1} us/puzzle",
        nodes as f64 / n as f64,
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
