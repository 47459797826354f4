//! Solving throughput on a file of classic 9x9 lines, parsing excluded (a tuning aid).
//!
//! `throughput FILE [N] [overlaps=on|off] [board=on|off] [vector=on|off] [solutions=on|off]`: the
//! first N lines (default 5000), each counted to two solutions (keeping none, as in the peers
//! bench, unless `solutions=on`), `PASSES` timed passes (default 3); prints nodes per puzzle and
//! the best pass's puzzles per second.
use anydoku::engine::search::Searcher;
use anydoku::engine::Switch;
use anydoku::geometry::builtin;
use anydoku::puzzle::text;
use anydoku::Limits;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5000);
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
    let g = builtin::load("classic9").unwrap();
    let e = anydoku::engine::Engine::with_options(
        &g,
        anydoku::engine::Options {
            overlaps: switch("overlaps"),
            board: switch("board"),
            vector: switch("vector"),
            ..Default::default()
        },
    );
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let puzzles: Vec<Vec<Option<u8>>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(n)
        .map(|l| text::parse_line(&g, &l[..81]).unwrap())
        .collect();
    let mut s = Searcher::new(&e);
    if switch("solutions") != Switch::On {
        s.keep_solutions(0);
    }
    let mut best = f64::MAX;
    let mut nodes = 0;
    let passes: usize = std::env::var("PASSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    for _ in 0..passes {
        nodes = 0;
        let t = std::time::Instant::now();
        for p in &puzzles {
            nodes += s.count(p, 2, Limits::none()).nodes;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} puzzles, {:.1} nodes/puzzle, {:.0} puzzles/s",
        puzzles.len(),
        nodes as f64 / puzzles.len() as f64,
        puzzles.len() as f64 / best
    );
}
