//! How many puzzles of a set the logical rater finishes without search (a tuning aid for
//! issue 23's coverage checks).
//!
//! `coverage [--budget SECONDS | --cpu-budget SECONDS] [--threads N] [--stuck FILE] [--no-nets]
//! SET...`, each SET one of:
//! - `lines:FILE:GEOMETRY:EVERY`: every EVERY-th line of a file of grid text (a rating or a
//!   solution may follow on the line; only the grid is read);
//! - `jsonl:FILE:EVERY`: every EVERY-th JSON model of a file (models with an `expect` are
//!   skipped, as in the corpus tests);
//! - `files:DIR`: every `.toml` puzzle file directly in DIR;
//! - `generate:GEOMETRY:FROM-TO` / `killer:GEOMETRY:FROM-TO`: the minimal puzzle (the Killer,
//!   cages of 2–5 cells) that `anydoku generate -g GEOMETRY [--killer] --seed S` makes, for each
//!   seed S in FROM..=TO (the generation is not timed; its solution checks every step).
//!
//! Each puzzle is solved by every rule with the per-puzzle budget (default 10 s of wall time;
//! `--cpu-budget` counts the thread's CPU time instead, so that runs on a loaded machine are
//! comparable with runs on an idle one); the answer is
//! "logic" (solved by the rules), "search" (the rules got stuck), "budget" (ran out) or
//! "skipped" (no unique solution, or unreadable). Per set: the counts, the share solved by
//! logic, the median and largest CPU time per puzzle (thread CPU time), and for every puzzle
//! not finished by logic its label, how many cells (and candidates) were still open where the
//! rules stopped and the hardest rule used before. `--stuck FILE` appends those puzzles as JSON models, with
//! the board where the rules stopped as givens (to look at with `solve --steps` or `hint`).
//! `--no-nets` leaves out the forcing family, to see where the cheaper rules stop (the empty
//! cells left say how far they got).

use std::io::Write;
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anydoku::generate::{Generator, KillerOptions, Options};
use anydoku::logic::{Budget as LogicBudget, Family, Logic, LogicError, Path};
use anydoku::puzzle::{json, text};
use anydoku::{Geometry, Limits, Puzzle};

/// One puzzle to rate, made on demand (generation takes time too).
type Job = Box<dyn Fn() -> Result<(Puzzle, Option<Vec<u8>>), String> + Send + Sync>;

/// How a puzzle ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    Logic,
    Search,
    Budget,
    Skipped,
}

struct Row {
    label: String,
    end: End,
    ms: f64,
    empty: usize,
    cands: usize,
    hardest: String,
    stuck: Option<String>,
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let wall = take(&mut args, "--budget").map(|s| s.parse::<f64>().expect("seconds"));
    let cpu = take(&mut args, "--cpu-budget").map(|s| s.parse::<f64>().expect("seconds"));
    let budget = match (wall, cpu) {
        (Some(_), Some(_)) => {
            eprintln!("coverage: --budget and --cpu-budget exclude each other");
            std::process::exit(2);
        }
        (_, Some(secs)) => Time { secs, cpu: true },
        (wall, None) => Time {
            secs: wall.unwrap_or(10.0),
            cpu: false,
        },
    };
    let threads: usize = take(&mut args, "--threads").map_or(1, |s| s.parse().expect("a count"));
    let stuck_file = take(&mut args, "--stuck");
    let no_nets = args
        .iter()
        .position(|a| a == "--no-nets")
        .map(|i| args.remove(i))
        .is_some();
    if args.is_empty() {
        eprintln!(
            "usage: coverage [--budget S | --cpu-budget S] [--threads N] [--stuck FILE] SET..."
        );
        std::process::exit(2);
    }
    println!(
        "{:<44} {:>5} {:>6} {:>6} {:>6} {:>4} {:>8} {:>9} {:>9}",
        "set", "n", "logic", "search", "budget", "skip", "logic %", "median ms", "max ms"
    );
    for set in &args {
        let jobs = jobs(set);
        let rows = run(&jobs, budget, threads, no_nets);
        report(set, &rows);
        if let Some(f) = &stuck_file {
            let mut out = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
                .expect("the --stuck file");
            for r in rows.iter().filter_map(|r| r.stuck.as_ref()) {
                writeln!(out, "{r}").unwrap();
            }
        }
    }
}

/// The per-puzzle time budget: seconds of wall time, or of the thread's CPU time.
#[derive(Clone, Copy)]
struct Time {
    secs: f64,
    cpu: bool,
}

/// Removes `--name VALUE` from the arguments, returning VALUE.
fn take(args: &mut Vec<String>, name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.remove(i);
    Some(args.remove(i))
}

/// The puzzles of a set.
fn jobs(set: &str) -> Vec<(String, Job)> {
    let parts: Vec<&str> = set.split(':').collect();
    let mut out: Vec<(String, Job)> = Vec::new();
    match parts.as_slice() {
        ["lines", file, geometry, every] => {
            let g = Arc::new(Geometry::load(geometry).expect("a geometry"));
            let source = std::fs::read_to_string(file).expect("the file");
            for (i, line) in source.lines().enumerate().step_by(every.parse().unwrap()) {
                let grid = line.split_whitespace().next().unwrap_or("").to_string();
                if grid.is_empty() || grid.starts_with('#') {
                    continue;
                }
                let g = g.clone();
                let job: Job = Box::new(move || {
                    let givens = text::parse_line(&g, &grid).map_err(|e| e.to_string())?;
                    Ok((
                        Puzzle {
                            geometry: g.clone(),
                            givens,
                        },
                        None,
                    ))
                });
                out.push((format!("line {}", i + 1), job));
            }
        }
        ["jsonl", file, every] => {
            let source = std::fs::read_to_string(file).expect("the file");
            for (i, line) in source.lines().enumerate().step_by(every.parse().unwrap()) {
                if line.trim().is_empty() || line.contains("\"expect\"") {
                    continue;
                }
                let line = line.to_string();
                let job: Job = Box::new(move || {
                    Ok((json::from_json(&line).map_err(|e| e.to_string())?, None))
                });
                out.push((format!("line {}", i + 1), job));
            }
        }
        ["files", dir] => {
            let mut paths: Vec<_> = std::fs::read_dir(dir)
                .expect("the directory")
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "toml"))
                .collect();
            paths.sort();
            for p in paths {
                let label = p.file_name().unwrap().to_string_lossy().to_string();
                let job: Job =
                    Box::new(move || Ok((Puzzle::load(&p).map_err(|e| e.to_string())?, None)));
                out.push((label, job));
            }
        }
        [kind @ ("generate" | "killer"), geometry, seeds] => {
            let (from, to) = seeds.split_once('-').expect("FROM-TO");
            let g = Arc::new(Geometry::load(geometry).expect("a geometry"));
            let options = Options {
                attempts: 200,
                killer: (*kind == "killer").then_some(KillerOptions {
                    min_size: 2,
                    max_size: 5,
                    drop_cages: true,
                }),
                limits: Limits::none(),
                ..Options::default()
            };
            let generator = Arc::new(Generator::new(g, options).expect("the options"));
            for seed in from.parse::<u64>().unwrap()..=to.parse().unwrap() {
                let generator = generator.clone();
                let job: Job = Box::new(move || {
                    let made = generator
                        .generate_seeded(seed, 0)
                        .map_err(|e| e.to_string())?;
                    Ok((made.puzzle, Some(made.solution)))
                });
                out.push((format!("seed {seed}"), job));
            }
        }
        _ => panic!("unknown set '{set}' (see the module documentation)"),
    }
    out
}

/// Rates the jobs on `threads` threads, in job order.
fn run(jobs: &[(String, Job)], budget: Time, threads: usize, no_nets: bool) -> Vec<Row> {
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<Row>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((label, job)) = jobs.get(i) else {
                    break;
                };
                let row = rate_one(label, job, budget, no_nets);
                rows.lock().unwrap()[i] = Some(row);
            });
        }
    });
    rows.into_inner().unwrap().into_iter().flatten().collect()
}

fn rate_one(label: &str, job: &Job, budget: Time, no_nets: bool) -> Row {
    let mut row = Row {
        label: label.to_string(),
        end: End::Skipped,
        ms: 0.0,
        empty: 0,
        cands: 0,
        hardest: String::new(),
        stuck: None,
    };
    let (p, solution) = match job() {
        Ok(x) => x,
        Err(e) => {
            row.hardest = e;
            return row;
        }
    };
    let g = &p.geometry;
    let limits = Limits {
        max_nodes: None,
        max_time: Some(Duration::from_secs_f64(budget.secs)),
    };
    let logic_budget = if budget.cpu {
        LogicBudget::on_clock(limits, anydoku_tune::thread_cpu)
    } else {
        LogicBudget::new(limits)
    };
    let t = anydoku_tune::thread_cpu_ms();
    let families: Vec<Family> = Family::ALL
        .into_iter()
        .filter(|&f| !(no_nets && f == Family::Forcing))
        .collect();
    let result = Logic::with_families(g.symbol_count(), &families)
        .with_limits(limits)
        .solve_within(g, &p.givens, solution.as_deref(), &logic_budget);
    row.ms = anydoku_tune::thread_cpu_ms() - t;
    let path: Path = match result {
        Ok(path) => path,
        Err(LogicError::Stopped(path)) => {
            row.end = End::Budget;
            *path
        }
        Err(LogicError::WrongStep { index, text }) => {
            panic!("{label}: step {index} is wrong: {text}")
        }
        Err(e) => {
            row.hardest = e.to_string();
            return row;
        }
    };
    if row.end != End::Budget {
        row.end = if path.search { End::Search } else { End::Logic };
    }
    let rules: Vec<_> = path.steps.iter().filter(|s| s.rule != "Search").collect();
    if let Some(s) = rules.iter().max_by(|a, b| a.weight.total_cmp(&b.weight)) {
        row.hardest = format!("{} ({:.1})", s.rule, s.weight);
    }
    if row.end != End::Logic {
        // the board where the rules stopped: the start with every rule step applied
        let mut b = path.start.clone();
        for s in &rules {
            b.apply(s);
        }
        row.empty = b.value.iter().filter(|v| v.is_none()).count();
        row.cands = b.cand.iter().map(|m| m.count_ones() as usize).sum();
        let mut stopped = p.clone();
        stopped.givens = b.value.clone();
        let mut model = stopped.to_json();
        model["source"] = serde_json::json!({ "coverage": label });
        row.stuck = Some(model.to_string());
    }
    row
}

fn report(set: &str, rows: &[Row]) {
    let count = |e: End| rows.iter().filter(|r| r.end == e).count();
    let rated = rows.len() - count(End::Skipped);
    let mut times: Vec<f64> = rows
        .iter()
        .filter(|r| r.end != End::Skipped)
        .map(|r| r.ms)
        .collect();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let name = FsPath::new(set)
        .file_name()
        .map_or(set.to_string(), |n| n.to_string_lossy().to_string());
    println!(
        "{:<44} {:>5} {:>6} {:>6} {:>6} {:>4} {:>7.1}% {:>9.1} {:>9.1}",
        name,
        rows.len(),
        count(End::Logic),
        count(End::Search),
        count(End::Budget),
        count(End::Skipped),
        100.0 * count(End::Logic) as f64 / rated.max(1) as f64,
        median,
        times.last().copied().unwrap_or(0.0)
    );
    for r in rows.iter().filter(|r| r.end != End::Logic) {
        println!(
            "    {:?} {}: {} empty cells ({} candidates) left, {:.0} ms; {}",
            r.end, r.label, r.empty, r.cands, r.ms, r.hardest
        );
    }
    std::io::stdout().flush().unwrap();
}
