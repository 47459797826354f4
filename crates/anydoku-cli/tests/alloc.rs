//! No allocation per search node with the constraint kinds (issue 26, point 5).
//!
//! A counting global allocator (per thread) wraps the system one. For each model, a searcher
//! counts the puzzle twice to warm up, then is measured counting with two limits that take very
//! different numbers of nodes: the allocations must be the same for both (so none happens per
//! node), and few. The models: the first puzzles of the thermometer/arrow/kropki bench set
//! (`crates/anydoku/benches/kinds/kinds.jsonl`), and one model per puzzle of that set carrying
//! an instance of every other kind with a propagator or peers (whispers, renban, palindrome,
//! clone, parity, allowed, little killer, sandwich, skyscraper, quadruple, between, inequality,
//! XV, difference, ratio, indexer, slow thermometer, and the patterns on a few cells), each
//! placed where the puzzle's solution satisfies it, with every given removed so the search
//! branches a lot.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use anydoku::engine::{Engine, Searcher};
use anydoku::Limits;
use serde_json::{json, Value};

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn bump() {
    let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        bump();
        System.alloc(l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        bump();
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        bump();
        System.realloc(p, l, n)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(|n| n.get())
}

fn bench_set() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../anydoku/benches/kinds/kinds.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the kinds bench set");
    text.lines()
        .take(8)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The solution's value at row `r`, column `c` (1-based).
fn at(m: &Value, r: usize, c: usize) -> i64 {
    m["solution"][format!("r{r}c{c}")]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

fn name(r: usize, c: usize) -> String {
    format!("r{r}c{c}")
}

/// Adjacent pairs of the grid (right and down neighbours) whose values pass `ok`.
fn pair(m: &Value, ok: impl Fn(i64, i64) -> bool) -> Option<[String; 2]> {
    for r in 1..=9 {
        for c in 1..=9 {
            for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                if r2 <= 9 && c2 <= 9 && ok(at(m, r, c), at(m, r2, c2)) {
                    return Some([name(r, c), name(r2, c2)]);
                }
            }
        }
    }
    None
}

/// Shapes of every other kind on the solution of `m` (see the module docs).
fn every_kind(m: &Value) -> Vec<Value> {
    let mut shapes = Vec::new();
    let mut add = |mut v: Value| {
        v["name"] = json!(format!("Extra {}", shapes.len() + 1));
        shapes.push(v)
    };
    let row = |r: usize| (1..=9).map(|c| at(m, r, c)).collect::<Vec<_>>();
    let row_cells = |r: usize| (1..=9).map(|c| name(r, c)).collect::<Vec<_>>();
    if let Some(p) = pair(m, |a, b| (a - b).abs() >= 5) {
        add(json!({"rule": "whispers", "cells": p}));
    }
    if let Some(p) = pair(m, |a, b| (a - b).abs() == 1) {
        add(json!({"rule": "renban", "cells": p}));
    }
    if let Some(p) = pair(m, |a, b| a + b == 10 || a + b == 5) {
        let v: i64 = p.iter().map(|c| cell_value(m, c)).sum();
        add(json!({"rule": "xv", "cells": p, "sum": v}));
    }
    if let Some(p) = pair(m, |a, b| (a - b).abs() == 3) {
        add(json!({"rule": "difference", "cells": p, "difference": 3}));
    }
    if let Some(p) = pair(m, |a, b| a == 3 * b || b == 3 * a) {
        add(json!({"rule": "ratio", "cells": p, "ratio": 3}));
    }
    if let Some(p) = pair(m, |a, b| a < b) {
        add(json!({"rule": "inequality", "cells": p}));
        add(json!({"rule": "thermometer", "slow": true, "cells": p}));
    }
    // the same value in row 1 and in row 4 (another box): a palindrome and a clone
    let (a, b) = (row(1), row(4));
    let j = |v: i64| b.iter().position(|&x| x == v).unwrap() + 1;
    add(json!({"rule": "palindrome", "cells": [name(1, 1), name(5, 5), name(4, j(a[0]))]}));
    add(json!({"rule": "clone",
               "cells": [name(1, 1), name(1, 2), name(4, j(a[0])), name(4, j(a[1]))]}));
    let odd = if a[2] % 2 == 1 { "odd" } else { "even" };
    add(json!({"rule": "parity", "cells": [name(1, 3)], "parity": odd}));
    add(json!({"rule": "allowed", "cells": [name(1, 4)],
               "symbols": format!("{}{}", a[3], a[3] % 9 + 1)}));
    let diag: Vec<String> = (1..=9).map(|i| name(i, i)).collect();
    let diag_sum: i64 = (1..=9).map(|i| at(m, i, i)).sum();
    add(json!({"rule": "little-killer", "cells": diag, "sum": diag_sum}));
    let r5 = row(5);
    let (i, k) = (
        r5.iter().position(|&x| x == 1).unwrap(),
        r5.iter().position(|&x| x == 9).unwrap(),
    );
    let filling: i64 = r5[i.min(k) + 1..i.max(k)].iter().sum();
    add(json!({"rule": "sandwich", "cells": row_cells(5), "sum": filling}));
    let r6 = row(6);
    let seen = (0..9)
        .filter(|&i| r6[..i].iter().all(|&x| x < r6[i]))
        .count();
    add(json!({"rule": "skyscraper", "cells": row_cells(6), "count": seen}));
    add(
        json!({"rule": "quadruple", "cells": [name(8, 1), name(8, 2), name(9, 1), name(9, 2)],
               "values": [at(m, 8, 1), at(m, 9, 2)]}),
    );
    'between: for r in 1..=9 {
        for c in 1..=7 {
            let (x, y, z) = (at(m, r, c), at(m, r, c + 1), at(m, r, c + 2));
            if x.min(z) < y && y < x.max(z) {
                add(
                    json!({"rule": "between", "cells": [name(r, c), name(r, c + 1), name(r, c + 2)]}),
                );
                break 'between;
            }
        }
    }
    'indexer: for r in 1..=9 {
        let v = row(r);
        for k in 1..=9 {
            if v[v[k - 1] as usize - 1] == k as i64 {
                add(json!({"rule": "indexer", "cells": row_cells(r), "index": k}));
                break 'indexer;
            }
        }
    }
    // patterns on cells where the solution keeps them: a box's corner 2x3 for the distinct ones
    let corner = [
        name(1, 1),
        name(1, 2),
        name(1, 3),
        name(2, 1),
        name(2, 2),
        name(2, 3),
    ];
    add(json!({"rule": "anti-knight", "cells": corner}));
    add(json!({"rule": "anti-king", "cells": corner}));
    for (rule, bad) in [
        (
            "non-consecutive",
            (|a: i64, b: i64| (a - b).abs() == 1) as fn(i64, i64) -> bool,
        ),
        ("non-ratio", |a, b| a == 2 * b || b == 2 * a),
        ("non-xv", |a, b| a + b == 10 || a + b == 5),
    ] {
        if let Some(p) = pair(m, |a, b| !bad(a, b)) {
            add(json!({"rule": rule, "cells": p}));
        }
    }
    shapes
}

fn cell_value(m: &Value, cell: &str) -> i64 {
    m["solution"][cell].as_str().unwrap().parse().unwrap()
}

/// (nodes, allocations) of counting `model` up to `limit` solutions, after two warm-up counts.
fn measure(model: &Value, limit: u64) -> (u64, u64) {
    let text = model.to_string();
    let parsed = anydoku::puzzle::json::parse_model(&text).expect("a valid model");
    let puzzle = anydoku::puzzle::json::from_model(&parsed).expect("a valid puzzle");
    let e = Engine::new(&puzzle.geometry);
    let mut s = Searcher::new(&e);
    s.keep_solutions(0);
    for _ in 0..2 {
        s.count(&puzzle.givens, limit, Limits::none());
    }
    let before = allocs();
    let c = s.count(&puzzle.givens, limit, Limits::none());
    let used = allocs() - before;
    assert!(c.count >= 1, "{}: no solution", model["name"]);
    (c.nodes, used)
}

/// Checks that counting `model` to `small` and to `large` solutions allocates the same (and
/// little); returns how many more nodes the larger count took.
fn check(model: &Value, small: u64, large: u64) -> u64 {
    let (n1, a1) = measure(model, small);
    let (n2, a2) = measure(model, large);
    assert_eq!(
        a1, a2,
        "{}: {a1} allocations in {n1} nodes, {a2} in {n2}",
        model["name"]
    );
    assert!(a2 <= 4, "{}: {a2} allocations in a count", model["name"]);
    n2.saturating_sub(n1)
}

#[test]
fn no_allocation_per_node_with_kinds() {
    let (mut plain, mut every) = (0, 0);
    for m in bench_set() {
        // the bench puzzle without its givens: many solutions, many nodes
        let mut open = m.clone();
        open["givens"] = json!({});
        plain += check(&open, 1, 200);
        let mut all = open.clone();
        all["name"] = json!(format!("{} with every kind", m["name"].as_str().unwrap()));
        let shapes = all["shapes"].as_array_mut().unwrap();
        shapes.extend(every_kind(&m));
        every += check(&all, 1, 1000);
    }
    // the measured counts differ by many nodes, so an allocation per node would show
    assert!(
        plain >= 1000 && every >= 200,
        "too few extra nodes: {plain}, {every}"
    );
}
