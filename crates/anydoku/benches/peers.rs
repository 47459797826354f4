//! Throughput ratios of anydoku against peers, each measured in the same run.
//!
//! Run: `cargo bench --bench peers` (about a minute with the defaults, plus the first build of the
//! peer). Without `--bench` on the command line (e.g. `cargo test --all-targets`) it only prints
//! how to run it.
//!
//! # What it measures
//!
//! 1. **Classic 9x9 against the `sudoku` crate 0.8**, both single-threaded, both checking
//!    uniqueness (stop at the second solution) and keeping no solution: anydoku's
//!    `Searcher::count(givens, 2, ..)` after `keep_solutions(0)` in this process, the peer's
//!    `Sudoku::solutions_count_up_to(2)` in its own process. (Keeping the first solution, as
//!    `solve` does, costs anydoku two small allocations per puzzle.) On each side only
//!    the solving loop is timed (parsing is done before). Sets (from the tdoku benchmark files):
//!    the first 5000 lines of `tdoku_puzzles5_forum_hardest_1905_11plus.txt`, all of
//!    `tdoku_puzzles3_magictour_top1465.txt`, the first 20000 lines of `tdoku_puzzles2_17_clue.txt`.
//!    Lines shorter than 81 characters or starting with `#` are skipped; a missing file is skipped
//!    with a note. Runs are interleaved (anydoku, peer, anydoku, peer, ...) so that drift in the
//!    machine's load hits both sides alike; each side's puzzles/s is reported as min / median /
//!    max over the repeats, and the ratio anydoku/peer is computed per (anydoku, peer) pair and
//!    reported as min – median – max. The unique / multiple / none counts of both sides must agree
//!    (the bench panics if they do not). `/proc/loadavg` is printed at the start and at the end.
//!
//! 2. **Variants against OR-tools CP-SAT** (one worker): `benches/cpsat/compare.py` on the first
//!    100 puzzles of the Samurai (`samurai_puzzlekit`) and Killer (`killer_krazydad`) sets, and
//!    four sparse 36x36 minimal puzzles of michael404 (`SPARSE_SET`, settled by CDCL), and the
//!    two sets of 50 generated thermometer/arrow/kropki 9x9 puzzles in `benches/kinds/`, after
//!    converting the shared variant corpus with `tools/variants_to_jsonl.py`. It needs
//!    `python3` with `ortools` (`pip install ortools`; skipped with that hint otherwise) and builds
//!    the anydoku binary first (`cargo build --release --bin anydoku`), since compare.py times
//!    `anydoku batch --threads 1` (process start included, median of eleven runs) against CP-SAT on
//!    the same models (one run: each CP-SAT solve takes tens of milliseconds). Both sides here,
//!    and the peer above, are built with the project's `.cargo/config.toml` (x86-64-v2).
//!
//! # Why the peer is built in a scratch crate
//!
//! The `sudoku` crate is AGPL-3.0; this project is MIT OR Apache-2.0. It must never become a
//! dependency of this project (not even a dev-dependency: it would enter Cargo.lock), and none of
//! its code is copied here. So at run time this bench writes a tiny crate of its own into
//! `target/peer-sudoku/` (a Cargo.toml depending on `sudoku = "0.8"`, with its own `[workspace]`,
//! and a `main.rs` written for this bench), builds it with `cargo build --release --quiet`
//! (retrying `--offline` if the registry is unreachable) and runs the binary as a separate program
//! on a scratch copy of the selected lines. The peer prints one machine-readable line,
//! `unique U multiple M none Z seconds S`. If the peer cannot be built or run, a
//! `peer unavailable: ...` line is printed and anydoku's figures are still reported.
//! The peer is built with the same release settings as this project (`codegen-units = 4`, no LTO).
//!
//! # Environment
//!
//! * `PEER_REPEATS`: repeats per set and side (default 5).
//! * `ANYDOKU_SHARED`: the shared data directory holding `classic/` and `variants/` (default
//!   `<manifest dir>/../shared/data`).
//! * `CARGO_TARGET_DIR`: honoured for the location of `peer-sudoku/` (default `<manifest dir>/target`).
//! * `CARGO`: the cargo used to build the peer and the anydoku binary (set by `cargo bench`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use std::sync::Arc;

use anydoku::puzzle::TextLines;
use anydoku::{Engine, Geometry, Limits, Searcher, Status};

/// Classic sets: file name and how many lines to take (`None` = all).
const CLASSIC_SETS: &[(&str, Option<usize>)] = &[
    ("tdoku_puzzles5_forum_hardest_1905_11plus.txt", Some(5000)),
    ("tdoku_puzzles3_magictour_top1465.txt", None),
    ("tdoku_puzzles2_17_clue.txt", Some(20000)),
];

/// Variant sets for CP-SAT (files written by tools/variants_to_jsonl.py) and puzzles per set.
const CPSAT_SETS: &[&str] = &["samurai_puzzlekit.jsonl", "killer_krazydad.jsonl"];
const CPSAT_LIMIT: usize = 100;
/// Written by the bench from `symbols_michael404.jsonl`: its 36x36 puzzel1, evil1, minimal1 and
/// minimal2 (606 to 666 givens), which anydoku settles with CDCL.
const SPARSE_SET: &str = "sparse36_michael404.jsonl";

const PEER_NAME: &str = "sudoku 0.8";

const PEER_CARGO_TOML: &str = r#"# Generated by anydoku's benches/peers.rs at run time; not part of anydoku.
# The `sudoku` crate is AGPL-3.0: it is only ever built here, as a separate program.
[package]
name = "peer-sudoku"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
sudoku = "0.8"

[profile.release]
codegen-units = 4
lto = false

[workspace]
"#;

const PEER_MAIN_RS: &str = r#"// Generated by anydoku's benches/peers.rs at run time; not part of anydoku.
// Usage: peer-sudoku FILE [N]. Takes the first N lines of FILE (skipping lines shorter than 81
// characters or starting with '#'), parses them, then times only the solving loop: each puzzle
// counted up to two solutions, one thread. Prints `unique U multiple M none Z seconds S`.
use std::time::Instant;

use sudoku::Sudoku;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: peer-sudoku FILE [N]");
    let n: usize = args.next().map_or(usize::MAX, |s| s.parse().expect("N must be a number"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let sudokus: Vec<Sudoku> = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .take(n)
        .map(|l| Sudoku::from_str_line(&l[..81]).unwrap_or_else(|e| panic!("{l}: {e:?}")))
        .collect();
    let t = Instant::now();
    let mut counts = Vec::with_capacity(sudokus.len());
    for s in &sudokus {
        counts.push(s.solutions_count_up_to(2));
    }
    let secs = t.elapsed().as_secs_f64();
    let (mut u, mut m, mut z) = (0usize, 0usize, 0usize);
    for c in counts {
        match c {
            0 => z += 1,
            1 => u += 1,
            _ => m += 1,
        }
    }
    println!("unique {u} multiple {m} none {z} seconds {secs:.9}");
}
"#;

/// Unique / multiple / none counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    unique: usize,
    multiple: usize,
    none: usize,
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unique {}, multiple {}, none {}",
            self.unique, self.multiple, self.none
        )
    }
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("benches/peers: run with `cargo bench --bench peers` (skipped)");
        return;
    }
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let shared = std::env::var_os("ANYDOKU_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/data"));
    let repeats = match std::env::var("PEER_REPEATS") {
        Ok(s) => s
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| panic!("PEER_REPEATS must be a positive number, not {s:?}")),
        Err(_) => 5,
    };
    println!("machine load at start (/proc/loadavg): {}", loadavg());
    classic(&root, &shared, repeats);
    println!();
    cpsat(&root, &shared);
    println!();
    println!("machine load at end (/proc/loadavg): {}", loadavg());
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|e| format!("unavailable ({e})"))
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
}

fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => root.join(d), // an absolute path replaces root
        None => root.join("target"),
    }
}

// ---------------------------------------------------------------------------------------------
// 1. classic 9x9 against the `sudoku` crate
// ---------------------------------------------------------------------------------------------

fn classic(root: &Path, shared: &Path, repeats: usize) {
    println!(
        "== classic 9x9: anydoku vs {PEER_NAME} (count to 2 solutions keeping none, one thread, \
         {repeats} repeats interleaved anydoku/peer)"
    );
    let dir = shared.join("classic");
    let scratch = target_dir(root).join("peer-sudoku");
    let mut peer = build_peer(&scratch);
    if let Err(e) = &peer {
        println!("peer unavailable: {e}");
    }
    let g = Geometry::builtin("classic9").expect("builtin classic9");
    let engine = Engine::new(&g);
    let mut searcher = Searcher::new(&engine);
    // like the peer's `solutions_count_up_to`: count, keep nothing
    searcher.keep_solutions(0);

    for &(file, limit) in CLASSIC_SETS {
        let path = dir.join(file);
        let Ok(content) = std::fs::read_to_string(&path) else {
            println!("{file}: skipped, not found at {}", path.display());
            continue;
        };
        let lines: Vec<&str> = content
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.get(..81))
            .take(limit.unwrap_or(usize::MAX))
            .collect();
        if lines.is_empty() {
            println!("{file}: skipped, no puzzle lines");
            continue;
        }
        let puzzles: Vec<Vec<Option<u8>>> = lines
            .iter()
            .map(|l| {
                TextLines::new(Arc::new(g.clone()))
                    .givens(l)
                    .unwrap_or_else(|e| panic!("{file}: {l}: {e}"))
            })
            .collect();
        // the peer reads exactly these lines from a scratch copy
        let input = scratch.join(format!("input-{file}"));
        if peer.is_ok() {
            let mut s = lines.join("\n");
            s.push('\n');
            if let Err(e) = std::fs::write(&input, s) {
                let e = format!("writing {}: {e}", input.display());
                println!("peer unavailable: {e}");
                peer = Err(e);
            }
        }

        let n = puzzles.len();
        let mut ours = Vec::with_capacity(repeats);
        let mut theirs = Vec::with_capacity(repeats);
        let mut ratios = Vec::with_capacity(repeats);
        let mut tally_ours: Option<Tally> = None;
        let mut peer_failed = None;
        for _ in 0..repeats {
            let (tally, secs) = run_anydoku(&mut searcher, &puzzles, file);
            match tally_ours {
                None => tally_ours = Some(tally),
                Some(t) => assert_eq!(t, tally, "{file}: anydoku's statuses changed between runs"),
            }
            let a_rate = n as f64 / secs;
            ours.push(a_rate);
            if let (Ok(bin), None) = (&peer, &peer_failed) {
                match run_peer(bin, &input, n) {
                    Ok((ptally, psecs)) => {
                        assert_eq!(
                            tally, ptally,
                            "{file}: anydoku ({tally}) and {PEER_NAME} ({ptally}) disagree"
                        );
                        let p_rate = n as f64 / psecs;
                        theirs.push(p_rate);
                        ratios.push(a_rate / p_rate);
                    }
                    Err(e) => {
                        println!("peer unavailable: {e}");
                        peer_failed = Some(e);
                    }
                }
            }
        }
        let tally = tally_ours.expect("at least one repeat");
        let agreement = if theirs.len() == repeats {
            "the peer agrees"
        } else {
            "not checked against the peer"
        };
        println!("{file}: {n} puzzles ({tally}; {agreement})");
        println!("  {:<22} {}", "anydoku puzzles/s", min_med_max_rates(&ours));
        if !theirs.is_empty() {
            println!(
                "  {:<22} {}",
                format!("{PEER_NAME} puzzles/s"),
                min_med_max_rates(&theirs)
            );
            let (lo, med, hi) = min_med_max(&ratios);
            println!(
                "  {:<22} {lo:.2} – {med:.2} – {hi:.2}  (min – median – max over {} pairs)",
                "ratio anydoku/peer",
                ratios.len()
            );
        }
    }
}

/// Counts every puzzle to two solutions; returns the statuses and the seconds of the loop.
fn run_anydoku(s: &mut Searcher, puzzles: &[Vec<Option<u8>>], file: &str) -> (Tally, f64) {
    let t = Instant::now();
    let statuses: Vec<Status> = puzzles
        .iter()
        .map(|p| s.count(std::hint::black_box(p), 2, Limits::none()).status())
        .collect();
    let secs = t.elapsed().as_secs_f64();
    let mut tally = Tally::default();
    for (i, st) in statuses.into_iter().enumerate() {
        match st {
            Status::Unique => tally.unique += 1,
            Status::Multiple => tally.multiple += 1,
            Status::NoSolution => tally.none += 1,
            Status::Unknown => panic!("{file}: puzzle {} unknown without limits", i + 1),
        }
    }
    (tally, secs)
}

/// Writes the peer crate into `dir` (only files whose content changed, so cargo does not rebuild
/// needlessly), builds it and returns the binary's path.
fn build_peer(dir: &Path) -> Result<PathBuf, String> {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).map_err(|e| format!("creating {}: {e}", src.display()))?;
    for (path, content) in [
        (dir.join("Cargo.toml"), PEER_CARGO_TOML),
        (src.join("main.rs"), PEER_MAIN_RS),
    ] {
        if std::fs::read_to_string(&path).ok().as_deref() != Some(content) {
            std::fs::write(&path, content)
                .map_err(|e| format!("writing {}: {e}", path.display()))?;
        }
    }
    let manifest = dir.join("Cargo.toml");
    let target = dir.join("target");
    println!(
        "building the peer ({PEER_NAME}, AGPL-3.0) in {} ...",
        dir.display()
    );
    let build = |offline: bool| {
        let mut c = Command::new(cargo());
        c.arg("build")
            .arg("--release")
            .arg("--quiet")
            .arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&target);
        if offline {
            c.arg("--offline");
        }
        c.output()
    };
    let out = build(false).map_err(|e| format!("cannot run {}: {e}", cargo()))?;
    if !out.status.success() {
        let first = String::from_utf8_lossy(&out.stderr).trim().to_string();
        let retry = build(true).map_err(|e| format!("cannot run {}: {e}", cargo()))?;
        if !retry.status.success() {
            return Err(format!(
                "`cargo build` of {} failed (no registry access?): {}",
                manifest.display(),
                last_lines(&first, 6)
            ));
        }
    }
    let bin = target
        .join("release")
        .join(format!("peer-sudoku{}", std::env::consts::EXE_SUFFIX));
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!("built, but {} is missing", bin.display()))
    }
}

/// Runs the peer on the first `n` lines of `input`; returns its statuses and solving seconds.
fn run_peer(bin: &Path, input: &Path, n: usize) -> Result<(Tally, f64), String> {
    let out = Command::new(bin)
        .arg(input)
        .arg(n.to_string())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            bin.display(),
            out.status,
            last_lines(&String::from_utf8_lossy(&out.stderr), 6)
        ));
    }
    parse_peer_line(&stdout).ok_or_else(|| format!("unexpected peer output {stdout:?}"))
}

/// Parses `unique U multiple M none Z seconds S`.
fn parse_peer_line(s: &str) -> Option<(Tally, f64)> {
    let line = s.lines().find(|l| l.starts_with("unique "))?;
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["unique", u, "multiple", m, "none", z, "seconds", secs] => {
            let tally = Tally {
                unique: u.parse().ok()?,
                multiple: m.parse().ok()?,
                none: z.parse().ok()?,
            };
            let secs: f64 = secs.parse().ok()?;
            (secs > 0.0).then_some((tally, secs))
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// 2. variants against OR-tools CP-SAT
// ---------------------------------------------------------------------------------------------

fn cpsat(root: &Path, shared: &Path) {
    println!(
        "== variants: anydoku vs OR-tools CP-SAT (benches/cpsat/compare.py --limit {CPSAT_LIMIT}, \
         one thread/worker, uniqueness on both sides)"
    );
    let has_ortools = Command::new("python3")
        .args(["-c", "import ortools"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_ortools {
        println!(
            "cp-sat skipped: python3 with OR-tools not found; install it with `pip install ortools`"
        );
        return;
    }
    let variants = shared.join("variants");
    if !variants.is_dir() {
        println!("cp-sat skipped: {} not found", variants.display());
        return;
    }
    println!("building target/release/anydoku (cargo build --release --bin anydoku) ...");
    let built = Command::new(cargo())
        .current_dir(root)
        .args(["build", "--release", "--bin", "anydoku", "--quiet"])
        .output();
    match built {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            println!(
                "cp-sat skipped: building the anydoku binary failed: {}",
                last_lines(&String::from_utf8_lossy(&o.stderr), 6)
            );
            return;
        }
        Err(e) => {
            println!("cp-sat skipped: cannot run {}: {e}", cargo());
            return;
        }
    }
    let bin = target_dir(root)
        .join("release")
        .join(format!("anydoku{}", std::env::consts::EXE_SUFFIX));

    let tmp = std::env::temp_dir().join(format!("anydoku-peers-{}", std::process::id()));
    let result = cpsat_in(root, &variants, &tmp, &bin);
    let _ = std::fs::remove_dir_all(&tmp);
    if let Err(e) = result {
        println!("cp-sat skipped: {e}");
    }
}

fn cpsat_in(root: &Path, variants: &Path, tmp: &Path, bin: &Path) -> Result<(), String> {
    let conv = Command::new("python3")
        .arg(root.join("tools/variants_to_jsonl.py"))
        .arg(variants)
        .arg(tmp)
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if !conv.status.success() {
        return Err(format!(
            "tools/variants_to_jsonl.py failed: {}",
            last_lines(&String::from_utf8_lossy(&conv.stderr), 6)
        ));
    }
    let mut inputs = Vec::new();
    for set in CPSAT_SETS {
        let p = tmp.join(set);
        if p.is_file() {
            inputs.push(p);
        } else {
            println!("{set}: skipped, not produced by tools/variants_to_jsonl.py");
        }
    }
    // the sparse 36x36 minimal puzzles of michael404 that both sides settle in seconds (its
    // minimal4 and minimal5 take each side half a minute or more: left out of the bench)
    let symbols = tmp.join("symbols_michael404.jsonl");
    if let Ok(text) = std::fs::read_to_string(&symbols) {
        let sparse: Vec<&str> = text
            .lines()
            .filter(|l| {
                l.contains("\"michael404 36x36 ")
                    && !l.contains(" 36x36 minimal4\"")
                    && !l.contains(" 36x36 minimal5\"")
            })
            .collect();
        let p = tmp.join(SPARSE_SET);
        if !sparse.is_empty() && std::fs::write(&p, sparse.join("\n") + "\n").is_ok() {
            inputs.push(p);
        }
    }
    // the generated 9x9 puzzles with thermometers, arrows and kropki dots (issue 26)
    for set in ["kinds.jsonl", "kinds_long.jsonl"] {
        let kinds = root.join("crates/anydoku/benches/kinds").join(set);
        if kinds.is_file() {
            inputs.push(kinds);
        }
    }
    if inputs.is_empty() {
        return Err("no input sets".to_string());
    }
    let out = Command::new("python3")
        .current_dir(root)
        .arg(root.join("crates/anydoku/benches/cpsat/compare.py"))
        .arg("--anydoku")
        .arg(bin)
        .arg("--limit")
        .arg(CPSAT_LIMIT.to_string())
        .args(&inputs)
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    print!("{}", String::from_utf8_lossy(&out.stdout));
    if !out.status.success() {
        return Err(format!(
            "compare.py failed ({}): {}",
            out.status,
            last_lines(&String::from_utf8_lossy(&out.stderr), 6)
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

/// (min, median, max) of a non-empty slice; the median of an even count is the mean of the two
/// middle values.
fn min_med_max(v: &[f64]) -> (f64, f64, f64) {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    let med = if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    };
    (s[0], med, s[n - 1])
}

fn min_med_max_rates(v: &[f64]) -> String {
    let (lo, med, hi) = min_med_max(v);
    format!(
        "{} / {} / {}  (min / median / max)",
        thousands(lo),
        thousands(med),
        thousands(hi)
    )
}

/// A rate rounded to an integer with thousands separators: 12,345.
fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn last_lines(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = String::new();
    for l in &lines[lines.len().saturating_sub(n)..] {
        let _ = write!(out, "{} | ", l.trim());
    }
    let out = out.trim_end_matches(" | ").to_string();
    if out.is_empty() {
        "(no message)".to_string()
    } else {
        out
    }
}
