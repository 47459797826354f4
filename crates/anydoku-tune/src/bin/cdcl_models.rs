//! CDCL's search nodes and cost per node on a file of JSON models (a tuning aid), so that a hard
//! set (sum shapes, explained on demand) can be set against a unique-only one.
//!
//! `cdcl_models FILE.jsonl [N] [strong]`: the first N models (default all), each counted to two
//! solutions by CDCL alone below the propagated givens (with `strong`, propagated once more with
//! the all-different filter, as a count's hand-over to CDCL does: the CLI's root); per puzzle
//! the conflicts, decisions and time when its first solution was found (what comes after proves
//! it the only one, or finds a second), its decisions, conflicts, propagated literals, sum
//! explanations and time, then the set's totals: decisions per puzzle and microseconds per
//! decision and per conflict. With `CDCL_PREFER_SOLUTION` set, the solver starts from the
//! solution's phases (found first by another solver, not timed): it then finds the solution
//! without a conflict, and what it counts is the proof alone.
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
    let prefer = std::env::var_os("CDCL_PREFER_SOLUTION").is_some();
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
        // as the CLI's count from the root decides
        c.rate_branching();
        // with the solution as the first phases, what is left is the proof that it is the only
        // one (the scout that finds it is not timed)
        let mut scouting = 0.0;
        if prefer {
            let s = Instant::now();
            let mut scout = Cdcl::new(&e, &root).expect("a CDCL form");
            if let Some(sol) = scout.count(1, Limits::none()).solutions.pop() {
                c.prefer(&sol);
            }
            scouting = s.elapsed().as_secs_f64();
        }
        // one solution, then the search for another (the proof, or a second solution)
        let first = c.count(1, Limits::none());
        let (found_at, found_decisions) = (c.conflicts(), c.decisions());
        let found_secs = t.elapsed().as_secs_f64() - scouting;
        let mut r = c.count(1, Limits::none());
        r.count += first.count;
        let dt = t.elapsed().as_secs_f64() - scouting;
        println!(
            "{i}: first solution after {found_at} conflicts, {found_decisions} decisions, \
             {found_secs:.3} s; count {} decisions {} conflicts {} propagations {} explanations {:?} vivified {:?} \
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
