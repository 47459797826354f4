//! CPU time per generated Killer puzzle (a tuning aid for Killer generation).
//!
//! `killer_times GEOMETRY SEED FROM TO [SECONDS]`: puzzles `FROM..TO` of `SEED` (as `generate
//! --killer --seed SEED --count TO` numbers them; `--seed S` with `--count 1` is puzzle 0 of `S`),
//! each timed on the thread's CPU clock, one line per puzzle (CPU ms, cages, minimal, kept cages
//! without a certificate), then the median, min, max and total. With `SECONDS`, each puzzle
//! stops at that wall-clock budget (reported as `deadline`).
use anydoku::generate::{Generator, KillerOptions, Options};
use anydoku::Geometry;
use anydoku_tune::thread_cpu_ms;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let g = Arc::new(Geometry::load(&args[1]).expect("a geometry"));
    let seed: u64 = args[2].parse().expect("a seed");
    let from: u64 = args[3].parse().expect("FROM");
    let to: u64 = args[4].parse().expect("TO");
    let budget: Option<f64> = args.get(5).map(|s| s.parse().expect("seconds"));
    let mut times = Vec::new();
    let mut minimal = 0;
    for index in from..to {
        let options = Options {
            killer: Some(KillerOptions::default()),
            attempts: 200,
            deadline: budget.map(|s| Instant::now() + Duration::from_secs_f64(s)),
            ..Options::default()
        };
        let generator = Generator::new(g.clone(), options).expect("a generator");
        let t = thread_cpu_ms();
        let made = generator.generate_seeded(seed, index);
        let ms = thread_cpu_ms() - t;
        times.push(ms);
        match made {
            Ok(p) => {
                let cages = p.puzzle.geometry.shapes.len() - g.shapes.len();
                minimal += p.minimal as usize;
                println!(
                    "{index}\t{ms:.0} ms\tcages {cages}\tminimal {}\tcertificates {}",
                    p.minimal,
                    p.certificates.len()
                );
            }
            Err(e) => println!("{index}\t{ms:.0} ms\t{e}"),
        }
    }
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    let n = times.len();
    println!(
        "{n} puzzles, {minimal} minimal: CPU median {:.0} ms (mean of the middle two when even), min {:.0}, max {:.0}, total {:.1} s",
        if n % 2 == 1 { times[n / 2] } else { (times[n / 2 - 1] + times[n / 2]) / 2.0 },
        times[0],
        times[n - 1],
        total / 1000.0
    );
}
