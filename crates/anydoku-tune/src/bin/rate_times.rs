//! Times the logical rater puzzle by puzzle, on one thread (a tuning aid).
//!
//! `rate_times FILE [GEOMETRY] [EVERY]`: FILE holds one puzzle per line (grid text, optionally
//! followed by a rating, for GEOMETRY), or JSON models (`.jsonl`, no GEOMETRY); every EVERY-th
//! line is rated (default 1). Prints the median, 90th percentile and largest time per puzzle,
//! how many needed search, and the slowest puzzles. Times are the thread's CPU time, so that
//! other work on the machine does not count.

use anydoku::logic::Logic;
use anydoku::puzzle::{json, text};
use anydoku::Geometry;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = &args[1];
    let jsonl = file.ends_with(".jsonl");
    let geometry: Option<Geometry> = (!jsonl).then(|| {
        anydoku::geometry::builtin::load(args.get(2).map_or("classic9", String::as_str))
            .expect("a built-in geometry")
    });
    let every: usize = args
        .get(if jsonl { 2 } else { 3 })
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let source = std::fs::read_to_string(file).expect("the file");
    let mut rows: Vec<(f64, bool, f64, String)> = Vec::new();
    for line in source.lines().step_by(every) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (g, givens) = match &geometry {
            Some(g) => {
                let grid = line.split_whitespace().next().unwrap_or("");
                (g.clone(), text::parse_line(g, grid).expect("a puzzle line"))
            }
            None => {
                let p = json::from_json(line).expect("a JSON model");
                ((*p.geometry).clone(), p.givens)
            }
        };
        let t = anydoku_tune::thread_cpu_ms();
        let path = Logic::all(g.symbol_count()).solve(&g, &givens, None);
        let ms = anydoku_tune::thread_cpu_ms() - t;
        let (search, score) = match &path {
            Ok(p) => (p.search, p.rating().score),
            Err(_) => (true, f64::NAN),
        };
        rows.push((ms, search, score, line.chars().take(90).collect()));
    }
    let mut times: Vec<f64> = rows.iter().map(|r| r.0).collect();
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let at = |q: f64| times[((n as f64 - 1.0) * q).round() as usize];
    println!(
        "{n} puzzles: median {:.2} ms, p90 {:.2} ms, max {:.2} ms, total {:.2} s; search needed: {}",
        at(0.5),
        at(0.9),
        at(1.0),
        times.iter().sum::<f64>() / 1000.0,
        rows.iter().filter(|r| r.1).count()
    );
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    for r in rows.iter().take(5) {
        println!("  {:9.2} ms  score {:.1}  {}", r.0, r.2, r.3);
    }
}
