//! Per-puzzle solving times of a `.jsonl` file of JSON models, in process (a benchmarking aid:
//! `benches/cpsat/compare.py --per-puzzle` compares them with CP-SAT's puzzle by puzzle).
//!
//! `model_times FILE.jsonl [REPEATS]`: for each line, the engine is built from the model and the
//! puzzle counted to two solutions (uniqueness proved), `REPEATS` times (default 5); prints one
//! line per puzzle: `status nodes best_seconds`, where the time is the thread's CPU time for
//! building the engine and counting (reading the JSON excluded), the best of the repeats.
use anydoku::engine::Engine;
use anydoku::Limits;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("a .jsonl file of JSON models");
    let repeats: usize = args
        .get(2)
        .map_or(5, |s| s.parse().expect("a repeat count"));
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let model = anydoku::puzzle::json::parse_model(line).expect("a valid model");
        let puzzle = anydoku::puzzle::json::from_model(&model).expect("a valid puzzle");
        let mut best = f64::INFINITY;
        let mut answer = None;
        for _ in 0..repeats.max(1) {
            let t = anydoku_tune::thread_cpu_ms() / 1000.0;
            let e = Engine::new(&puzzle.geometry);
            let c = e.count(&puzzle.givens, 2, Limits::none());
            best = best.min(anydoku_tune::thread_cpu_ms() / 1000.0 - t);
            answer = Some((c.status().as_str(), c.nodes));
        }
        let (status, nodes) = answer.expect("one run");
        println!("{status} {nodes} {best:.9}");
    }
}
