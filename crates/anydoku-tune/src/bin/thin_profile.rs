//! Where the time of thinning a grid to a minimal puzzle goes (a tuning aid).
//!
//! `thin_profile GEOMETRY SEED`: a random complete grid of the geometry (a built-in name or a
//! TOML file), then the generator's thinning with the checker's counters read after every
//! removal check: per phase (tenths of the checks) the checks that kept a given and those that
//! removed one, their time, depth-first nodes and CDCL searches; then the totals.
//!
//! While it runs (the totals come only at the end, and a large grid may not get there):
//! `THIN_EVERY=N` prints every N-th check and every check over a second to stderr, with the
//! time so far split into the checks' root propagation, the depth-first probes and CDCL
//! (building the solvers apart), and every N-th orbit's progress (givens left);
//! `THIN_DUMP=FILE` writes every check over `THIN_DUMP_SECS` seconds (2 by default) as a line
//! that `check_replay` runs again under other engine options.
use anydoku::engine::{Engine, Limits};
use anydoku::generate::minimal::{thin, Progress, Thinning};
use anydoku::generate::unique::{Checked, Checker};
use anydoku::generate::{grid, Symmetry};
use anydoku::Geometry;
use rand::SeedableRng;
use std::io::Write;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let g = Geometry::load(&args[1]).expect("a geometry");
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let e = Engine::new(&g);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let t = Instant::now();
    let solution = grid::random_grid_until(&e, &mut rng, 1000, None).expect("a grid");
    println!("grid in {:.3} s", t.elapsed().as_secs_f64());
    let orbits = Symmetry::None.orbits(&g).expect("orbits");
    let mut checker = Checker::new(&e, Limits::none());
    let t = Instant::now();
    let every: u64 = std::env::var("THIN_EVERY").map_or(0, |v| v.parse().expect("a count"));
    watch(&mut checker, every, t);
    let mut log: Vec<Progress> = Vec::new();
    let mut times: Vec<f64> = Vec::new();
    let mut last = Instant::now();
    let thinned = thin(&mut checker, &solution, &orbits, None, &mut rng, &mut |p| {
        times.push(last.elapsed().as_secs_f64());
        last = Instant::now();
        log.push(p);
        if every > 0 && (p.tested as u64).is_multiple_of(every) {
            eprintln!("tested {} of {}, givens {}", p.tested, p.orbits, p.givens);
        }
    })
    .expect("no budget");
    let Thinning::Made(thinned) = thinned else {
        unreachable!("the checker was not told to stop before CDCL")
    };
    let total = t.elapsed().as_secs_f64();
    let mut diffs: Vec<usize> = thinned
        .certificates
        .iter()
        .map(|(_, o)| o.iter().zip(&solution).filter(|(a, b)| a != b).count())
        .collect();
    diffs.sort_unstable();
    if !diffs.is_empty() {
        let q = |f: f64| diffs[((diffs.len() - 1) as f64 * f) as usize];
        println!(
            "certificates differ from the grid in cells: min {} p25 {} median {} p75 {} max {}",
            q(0.0),
            q(0.25),
            q(0.5),
            q(0.75),
            q(1.0)
        );
    }
    let n = log.len();
    let mut prev = orbits.len();
    let (mut kept_t, mut rem_t, mut kept, mut rem) = (0.0, 0.0, 0, 0);
    for part in 0..10 {
        let (a, b) = (part * n / 10, (part + 1) * n / 10);
        let (mut kt, mut rt, mut k, mut r, mut kmax, mut rmax) = (0.0, 0.0, 0, 0, 0.0f64, 0.0f64);
        for i in a..b {
            if log[i].givens < prev {
                r += 1;
                rt += times[i];
                rmax = rmax.max(times[i]);
            } else {
                k += 1;
                kt += times[i];
                kmax = kmax.max(times[i]);
            }
            prev = log[i].givens;
        }
        println!(
            "checks {a}-{b}: kept {k} in {kt:.2} s (max {:.0} ms), removed {r} in {rt:.2} s (max {:.0} ms), givens {}",
            kmax * 1e3,
            rmax * 1e3,
            log[b - 1].givens
        );
        kept_t += kt;
        rem_t += rt;
        kept += k;
        rem += r;
    }
    println!(
        "{} givens, minimal {}, {total:.2} s: kept {kept} ({kept_t:.2} s), removed {rem} ({rem_t:.2} s); \
         searches {}, dfs nodes {}, cdcl searches {} ({:.2} s)",
        thinned.givens.iter().flatten().count(),
        thinned.minimal,
        checker.searches,
        checker.nodes,
        checker.cdcl.searches,
        checker.cdcl.time.as_secs_f64()
    );
    if args.get(3).is_some() {
        let k: usize = args[3].parse().expect("a symbol count");
        let reach = symbol_reach(&e, &thinned.givens, &solution, k);
        let mut hist = vec![0; k + 2];
        for r in &reach {
            hist[r.unwrap_or(k + 1)] += 1;
        }
        println!(
            "kept givens by the fewest symbols of a second solution (2.., then more): {:?}",
            &hist[2..]
        );
    }
    println!(
        "cdcl: {} decisions, {} conflicts",
        checker.cdcl.decisions, checker.cdcl.conflicts
    );
}

/// Makes `checker` print the split so far every `every` checks (and every check over a second)
/// and write the slow checks to `THIN_DUMP` (see the module docs); `t`: when the thinning began.
fn watch(checker: &mut Checker, every: u64, t: Instant) {
    let mut dump = std::env::var("THIN_DUMP")
        .ok()
        .map(|p| std::fs::File::create(p).expect("a dump file"));
    let dump_secs: f64 =
        std::env::var("THIN_DUMP_SECS").map_or(2.0, |v| v.parse().expect("seconds"));
    if every > 0 || dump.is_some() {
        let mut k = 0u64;
        checker.observe(Box::new(move |ch: &Checked| {
            k += 1;
            let dt = ch.time.as_secs_f64();
            if every > 0 && (k.is_multiple_of(every) || dt > 1.0) {
                let c = ch.tally;
                eprintln!(
                    "check {k} ({}) {dt:.2} s; so far {:.1} s: root {:.1}, dfs {:.1} ({} nodes), \
                     cdcl {:.1} (build {:.1}; {} searches, {} conflicts)",
                    if ch.found { "kept" } else { "removed" },
                    t.elapsed().as_secs_f64(),
                    c.root.as_secs_f64(),
                    c.dfs.as_secs_f64(),
                    ch.dfs_nodes,
                    c.time.as_secs_f64(),
                    c.build.as_secs_f64(),
                    c.searches,
                    c.conflicts
                );
            }
            if let Some(f) = dump.as_mut().filter(|_| dt > dump_secs) {
                writeln!(f, "{}", check_line(ch)).expect("the dump is written");
            }
        }));
    }
}

/// One check as a line of `check_replay`'s input: seconds, found, removed cells, solution,
/// givens (`-` for none), the lists comma-separated and the fields by `|`.
fn check_line(ch: &Checked) -> String {
    let join = |v: Vec<String>| v.join(",");
    format!(
        "{:.3}|{}|{}|{}|{}",
        ch.time.as_secs_f64(),
        ch.found,
        join(ch.cells.iter().map(|c| c.to_string()).collect()),
        join(ch.solution.iter().map(|v| v.to_string()).collect()),
        join(
            ch.givens
                .iter()
                .map(|g| g.map_or("-".into(), |v| v.to_string()))
                .collect()
        )
    )
}

/// For every kept given of the thinned puzzle, the fewest symbols a second solution needs to
/// touch: the check run with every cell outside the symbols fixed to the grid, first pairs of
/// symbols, then triples, up to `max_k`.
pub fn symbol_reach(
    e: &Engine,
    givens: &[Option<u8>],
    solution: &[u8],
    max_k: usize,
) -> Vec<Option<usize>> {
    let n = e.symbol_count();
    let mut checker = Checker::new(e, Limits::none());
    let mut out = Vec::new();
    let t = Instant::now();
    let mut tries = 0;
    for c in 0..givens.len() {
        if givens[c].is_none() {
            continue;
        }
        let s = solution[c] as usize;
        let mut found = None;
        'k: for k in 2..=max_k {
            // all (k-1)-subsets of the other symbols
            let others: Vec<usize> = (0..n).filter(|&v| v != s).collect();
            let mut idx: Vec<usize> = (0..k - 1).collect();
            loop {
                let mut sigma = 1u64 << s;
                for &i in &idx {
                    sigma |= 1 << others[i];
                }
                let mut g2: Vec<Option<u8>> = (0..givens.len())
                    .map(|x| {
                        if givens[x].is_some() || sigma >> solution[x] & 1 == 0 {
                            Some(solution[x])
                        } else {
                            None
                        }
                    })
                    .collect();
                g2[c] = None;
                tries += 1;
                if let anydoku::generate::unique::Other::Found(_) =
                    checker.other_solution(&g2, &[c as u32], solution)
                {
                    found = Some(k);
                    break 'k;
                }
                // next combination
                let m = others.len();
                let mut i = k - 1;
                loop {
                    if i == 0 {
                        continue 'k;
                    }
                    i -= 1;
                    if idx[i] < m - (k - 1 - i) {
                        idx[i] += 1;
                        for j in i + 1..k - 1 {
                            idx[j] = idx[j - 1] + 1;
                        }
                        break;
                    }
                }
            }
        }
        out.push(found);
    }
    println!(
        "symbol reach: {tries} restricted checks in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    out
}
