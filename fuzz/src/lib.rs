//! What every fuzz target does with a puzzle it managed to read, and the budget it does it in.
//!
//! A target turns its bytes into a [`Puzzle`] through one input path (or gets an error, which is
//! fine: the point is that nothing panics, hangs or eats memory); [`exercise`] then drives the
//! puzzle through what the program does with any puzzle it read — drawing it as text and SVG,
//! writing it back as the JSON model (which must read back to the same givens), as a line and as
//! an f-puzzles link, and a search bounded by a node budget whose every claimed solution must
//! keep the givens and break no rule. libFuzzer's `-timeout` and `-rss_limit_mb` bound each
//! input's time and memory (see `fuzz/README.md`). To add a target, add a file to
//! `fuzz_targets/`, a `[[bin]]` to `Cargo.toml`, and seeds to `corpus/NAME/` (`fuzz/seed.sh`).

use anydoku::{render, Limits, Puzzle};

/// The search budget per input: enough to solve small puzzles, small enough to stay fast.
pub const MAX_NODES: u64 = 300;

/// The text of `data`, or `None` when it is not UTF-8 (the readers take `&str`; the byte-level
/// paths, where non-UTF-8 input must be reported, are the CLI's and tested there).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Everything the program does with a puzzle it has read; panics when an invariant breaks.
pub fn exercise(p: &Puzzle) {
    let g = &p.geometry;
    assert_eq!(p.givens.len(), g.cell_count(), "one given slot per cell");
    assert!(p
        .givens
        .iter()
        .flatten()
        .all(|&s| (s as usize) < g.symbol_count()));
    let _ = render::text(g, &p.givens[..]);
    let _ = render::svg(g, &p.givens[..], &p.givens[..]);
    let _ = p.to_line();
    let _ = p.to_fpuzzles_url();

    let json = p.to_json().to_string();
    let back = Puzzle::from_json(&json)
        .unwrap_or_else(|e| panic!("the JSON model written does not read back: {e}\n{json}"));
    assert_eq!(back.geometry.cell_count(), g.cell_count());
    assert_eq!(back.givens, p.givens, "the givens read back differ");

    let limits = Limits {
        max_nodes: Some(MAX_NODES),
        max_time: None,
    };
    let count = p.solve(limits);
    for sol in &count.solutions {
        assert_eq!(sol.len(), g.cell_count());
        assert!(
            p.givens
                .iter()
                .zip(sol)
                .all(|(given, &s)| given.is_none_or(|v| v == s)),
            "a solution that drops a given"
        );
        let solved = Puzzle {
            geometry: g.clone(),
            givens: sol.iter().map(|&s| Some(s)).collect(),
        };
        assert!(
            solved.conflicts().is_empty(),
            "a solution that breaks a rule: {:?}",
            solved.conflicts()
        );
    }
}
