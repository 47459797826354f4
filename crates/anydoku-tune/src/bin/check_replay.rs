//! One slow uniqueness check of a thinning, run again under other engine options (a tuning aid).
//!
//! `check_replay GEOMETRY DUMP [SECONDS] [WAYS]`: every line of DUMP (written by
//! `THIN_DUMP=DUMP thin_profile ...`) is a check of the generator's thinning, "another solution
//! that differs from the known one in one of these cells?"; each is answered again in each of
//! WAYS (comma-separated, all by default) under a time limit of SECONDS (60):
//! `cdcl` the default engine (as the generator), `dfs` depth-first search only, `dfs-strong`
//! depth-first search with the all-different filter at every node, `cdcl-far` CDCL phases
//! by activity instead of the known solution ([`Checker::far`]), `count` a plain count to two
//! of the givens. To compare another policy, add a way here.
//!
//! Each answer comes with its wall and CPU time (CPU: this process's user time, which a loaded
//! machine inflates less), and each check with its removed cells' candidates at the root (the
//! other givens propagated). The first two fields may also be separated by spaces.
use anydoku::engine::{Engine, Limits, Options, Searcher, Switch};
use anydoku::generate::unique::{Checker, Other};
use anydoku::Geometry;
use std::time::{Duration, Instant};

const WAYS: &str = "cdcl,dfs,dfs-strong,cdcl-far,count";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let g = Geometry::load(&args[1]).expect("a geometry");
    let text = std::fs::read_to_string(&args[2]).expect("a dump");
    let secs: u64 = args.get(3).map_or(60, |s| s.parse().expect("seconds"));
    let ways = args.get(4).map_or(WAYS, |s| s.as_str());
    let limits = Limits {
        max_nodes: None,
        max_time: Some(Duration::from_secs(secs)),
    };
    for (i, line) in text.lines().enumerate() {
        let line = if line.split('|').count() < 5 {
            line.replacen(' ', "|", 2)
        } else {
            line.to_string()
        };
        let f: Vec<&str> = line.split('|').collect();
        let list = |s: &str| -> Vec<Option<u32>> { s.split(',').map(|x| x.parse().ok()).collect() };
        let cells: Vec<u32> = list(f[2]).into_iter().flatten().collect();
        let sol: Vec<u8> = list(f[3])
            .into_iter()
            .map(|v| v.expect("a symbol") as u8)
            .collect();
        let givens: Vec<Option<u8>> = list(f[4]).into_iter().map(|v| v.map(|v| v as u8)).collect();
        // the removed cells' candidates at the root: the other givens propagated
        let root = Searcher::new(&Engine::new(&g)).initial_candidates(&givens);
        let open: Vec<u32> = root.map_or(Vec::new(), |r| {
            cells.iter().map(|&c| r[c as usize].count_ones()).collect()
        });
        println!(
            "check {i}: {} s when dumped (found {}), {} givens, cells {cells:?}, root candidates \
             {open:?}",
            f[0],
            f[1],
            givens.iter().flatten().count()
        );
        for way in ways.split(',') {
            let options = match way {
                "cdcl" | "cdcl-far" | "count" => Options::default(),
                "dfs" => Options {
                    cdcl: Switch::Off,
                    ..Default::default()
                },
                "dfs-strong" => Options {
                    cdcl: Switch::Off,
                    alldiff: Switch::On,
                    ..Default::default()
                },
                _ => panic!("unknown way {way}"),
            };
            let e = Engine::with_options(&g, options);
            let t = Instant::now();
            let cpu0 = cpu_secs();
            if way == "count" {
                let r = e.count(&givens, 2, limits);
                println!(
                    "  count: {} solutions ({:?}) in {:.2} s ({:.2} s CPU), {} nodes",
                    r.count,
                    r.status(),
                    t.elapsed().as_secs_f64(),
                    cpu_secs() - cpu0,
                    r.nodes
                );
                continue;
            }
            let mut checker = Checker::new(&e, limits);
            if way == "cdcl-far" {
                checker.far();
            }
            let answer = match checker.other_solution(&givens, &cells, &sol) {
                Other::Found(_) => "found",
                Other::NoneExists => "none",
                Other::Unknown => "unknown",
            };
            println!(
                "  {way}: {answer} in {:.2} s ({:.2} s CPU), {} nodes, {} CDCL conflicts",
                t.elapsed().as_secs_f64(),
                cpu_secs() - cpu0,
                checker.nodes,
                checker.cdcl.conflicts
            );
        }
    }
}

/// This process's user CPU seconds so far (Linux `/proc/self/stat`, in clock ticks of 1/100 s;
/// 0 where that is not readable).
fn cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = &s[s.rfind(')')? + 2..];
            rest.split(' ').nth(11)?.parse::<f64>().ok()
        })
        .map_or(0.0, |t| t / 100.0)
}
