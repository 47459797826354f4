//! CDCL against depth-first search on a file of classic 9x9 lines (a tuning aid).
//!
//! `cdcl_lines FILE [N]`: per puzzle, the nodes of the depth-first search and the decisions and
//! time of the CDCL search; prints totals and the slowest puzzles of each.
use anydoku::engine::cdcl::Cdcl;
use anydoku::engine::search::Searcher;
use anydoku::geometry::builtin;
use anydoku::puzzle::text;
use anydoku::Limits;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let g = builtin::load("classic9").unwrap();
    let e = anydoku::engine::Engine::new(&g);
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let puzzles: Vec<Vec<Option<u8>>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(n)
        .map(|l| text::parse_line(&g, &l[..81]).unwrap())
        .collect();
    let mut s = Searcher::new(&e);
    let (mut t_dfs, mut t_cdcl) = (0.0, 0.0);
    let mut rows = Vec::new();
    for p in &puzzles {
        let t = Instant::now();
        let a = s.count(p, 2, Limits::none());
        let da = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let root = s.initial_candidates(p).unwrap();
        let mut c = Cdcl::new(&e, &root).unwrap();
        let b = c.count(2, Limits::none());
        let db = t.elapsed().as_secs_f64();
        assert_eq!(a.count, b.count);
        assert_eq!(a.solutions, b.solutions);
        t_dfs += da;
        t_cdcl += db;
        rows.push((a.nodes, da, c.decisions(), db));
    }
    println!(
        "{} puzzles: dfs {:.0} puzzles/s, cdcl {:.0} puzzles/s",
        puzzles.len(),
        puzzles.len() as f64 / t_dfs,
        puzzles.len() as f64 / t_cdcl
    );
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    for r in rows.iter().take(5) {
        println!(
            "dfs {} nodes {:.2} ms | cdcl {} decisions {:.2} ms",
            r.0,
            r.1 * 1e3,
            r.2,
            r.3 * 1e3
        );
    }
}
