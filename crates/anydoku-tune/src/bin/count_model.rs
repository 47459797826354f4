//! Counts a JSON model's solutions up to two under a node budget, with the all-different filter
//! switched on or off, or with CDCL alone (a tuning aid for large sparse puzzles).
//!
//! `count_model MODEL.json [alldiff=on|off|auto|cdcl] [MAX_NODES]`
use anydoku::engine::{Engine, Options, Switch};
use anydoku::Limits;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("a JSON model file");
    let model = anydoku::puzzle::json::parse_model(&text).expect("a valid model");
    let puzzle = anydoku::puzzle::json::from_model(&model).expect("a valid puzzle");
    let alldiff = match args.get(2).map(|s| s.trim_start_matches("alldiff=")) {
        Some("on") => Switch::On,
        Some("off") => Switch::Off,
        _ => Switch::Auto,
    };
    let nodes: u64 = args
        .get(3)
        .map_or(100_000, |s| s.parse().expect("a node count"));
    let e = Engine::with_options(
        &puzzle.geometry,
        Options {
            alldiff,
            // `on` and `off` compare depth-first searches: no switch to CDCL
            cdcl: if alldiff == Switch::Auto {
                Switch::Auto
            } else {
                Switch::Off
            },
            ..Default::default()
        },
    );
    let t = std::time::Instant::now();
    if args.get(2).map(String::as_str) == Some("cdcl") {
        let mut s = anydoku::engine::search::Searcher::new(&e);
        let mut root = s
            .initial_candidates(&puzzle.givens)
            .expect("consistent givens");
        let mut queue = Vec::new();
        assert!(anydoku::engine::propagate::propagate_at(
            &e, &mut root, &mut queue, true
        ));
        let mut cdcl = anydoku::engine::cdcl::Cdcl::new(&e, &root).expect("unique shapes");
        let c = cdcl.count(
            2,
            Limits {
                max_nodes: Some(nodes),
                ..Limits::none()
            },
        );
        println!(
            "{}: {} solution(s), {} decisions, {} conflicts, {:?}",
            c.status().as_str(),
            c.count,
            cdcl.decisions(),
            cdcl.conflicts(),
            t.elapsed()
        );
        return;
    }
    let c = e.count(
        &puzzle.givens,
        2,
        Limits {
            max_nodes: Some(nodes),
            ..Limits::none()
        },
    );
    println!(
        "{}: {} solution(s) found, {} nodes, {:?}",
        c.status().as_str(),
        c.count,
        c.nodes,
        t.elapsed()
    );
}
