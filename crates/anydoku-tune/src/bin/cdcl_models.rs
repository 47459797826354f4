//! CDCL's search nodes and cost per node on a file of JSON models (a tuning aid), so that a hard
//! set (sum shapes, explained on demand) can be set against a unique-only one.
//!
//! `cdcl_models FILE.jsonl [N] [strong]`: the first N models (default all), each counted to two
//! solutions by CDCL alone below the propagated givens (with `strong`, propagated once more with
//! the all-different filter, as a count's hand-over to CDCL does: the CLI's root); per puzzle
//! its decisions, conflicts, propagated literals, sum explanations and time, then the set's
//! totals: decisions per puzzle and microseconds per decision and per conflict.
use anydoku::engine::cdcl::Cdcl;
use anydoku::engine::propagate::propagate_at;
use anydoku::engine::search::Searcher;
use anydoku::engine::Engine;
use anydoku::Limits;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("a .jsonl file of models");
    let n: usize = args
        .get(2)
        .map_or(usize::MAX, |s| s.parse().expect("a count"));
    let strong = args.get(3).is_some_and(|s| s == "strong");
    let (mut puzzles, mut decisions, mut conflicts, mut secs) = (0u64, 0u64, 0u64, 0.0f64);
    for (i, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .enumerate()
    {
        let p = anydoku::puzzle::json::from_json(line).expect("a valid model");
        let e = Engine::new(&p.geometry);
        let t = Instant::now();
        let mut root = Searcher::new(&e)
            .initial_candidates(&p.givens)
            .expect("givens without contradiction");
        if strong {
            assert!(
                propagate_at(&e, &mut root, &mut Vec::new(), true),
                "givens without contradiction"
            );
        }
        let mut c = Cdcl::new(&e, &root).expect("a CDCL form");
        let r = c.count(2, Limits::none());
        let dt = t.elapsed().as_secs_f64();
        println!(
            "{i}: count {} decisions {} conflicts {} propagations {} explanations {:?} vivified {:?} \
             linear (runs, conflicts, literals) {:?} {dt:.3} s",
            r.count,
            c.decisions(),
            c.conflicts(),
            c.propagations(),
            c.explanations(),
            c.vivified(),
            c.linear()
        );
        puzzles += 1;
        decisions += c.decisions();
        conflicts += c.conflicts();
        secs += dt;
    }
    let per = |k: u64| 1e6 * secs / k.max(1) as f64;
    println!(
        "{puzzles} puzzles in {secs:.2} s: {} decisions and {} conflicts per puzzle; \
         {:.1} us per decision, {:.1} us per conflict",
        decisions / puzzles.max(1),
        conflicts / puzzles.max(1),
        per(decisions),
        per(conflicts)
    );
}
