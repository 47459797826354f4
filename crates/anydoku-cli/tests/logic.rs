//! Logical solving: every step of every rule is checked against the puzzle's solution (computed
//! by the engine, or read from the corpus), plus the `solve --steps`, `hint` and `rate` commands.
//!
//! `corpus_logic_*` tests need ../shared/data and print the figures of the issue (share solved
//! without search, median steps, Spearman correlation with Sudoku Explainer ratings):
//! `cargo test --release --test logic -- --ignored --nocapture`.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use anydoku::geometry::{builtin, Geometry, Rule, Shape, ShapeKind};
use anydoku::logic::{rate, Family, Logic, Path};
use anydoku::puzzle::{json, text, Puzzle};
use anydoku::{Engine, Limits, Status};
use common::{run, Scratch};
use serde_json::Value;

/// Public-domain puzzles (robyngraf/sudoku-exchange-puzzle-bank): easy, hard, diabolical.
const EASY: &str =
    ".5.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9...";
const HARD: &str =
    "...9.4...4.8.6.2.9.6.....3..5..4..2..8.2.9.4.2.......66..1.7..2.29.8.65.....9....";
const DIABOLICAL: &str =
    ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54.";

/// A small deterministic generator (no dependence on the crate's own randomness).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// A random full grid: a few random givens, completed by the engine.
fn random_grid(g: &Geometry, rng: &mut Lcg) -> Vec<u8> {
    let e = Engine::new(g);
    loop {
        let mut givens = vec![None; g.cell_count()];
        for _ in 0..g.symbol_count() {
            let c = rng.below(g.cell_count());
            givens[c] = Some(rng.below(g.symbol_count()) as u8);
        }
        let r = e.count(
            &givens,
            1,
            Limits {
                max_nodes: Some(100_000),
                max_time: None,
            },
        );
        if r.count == 1 {
            return r.solutions[0].clone();
        }
    }
}

/// Removes givens from a full grid in random order while the puzzle stays unique (trying at
/// most `tries` cells, to keep big layouts quick in debug builds).
fn dig(
    g: &Geometry,
    full: &[u8],
    start: Vec<Option<u8>>,
    rng: &mut Lcg,
    tries: usize,
) -> Vec<Option<u8>> {
    let e = Engine::new(g);
    let mut givens = start;
    let mut order: Vec<usize> = (0..full.len()).filter(|&c| givens[c].is_some()).collect();
    rng.shuffle(&mut order);
    order.truncate(tries);
    for c in order {
        let keep = givens[c];
        givens[c] = None;
        if e.solve(&givens, Limits::none()).status() != Status::Unique {
            givens[c] = keep;
        }
    }
    givens
}

/// A planted puzzle of a geometry: (givens, solution).
fn planted(g: &Geometry, seed: u64) -> (Vec<Option<u8>>, Vec<u8>) {
    let mut rng = Lcg(seed);
    let full = random_grid(g, &mut rng);
    let start = full.iter().map(|&v| Some(v)).collect();
    let tries = if g.cell_count() > 100 {
        g.cell_count() / 2
    } else {
        usize::MAX
    };
    (dig(g, &full, start, &mut rng, tries), full)
}

/// Solves logically with every step checked against the solution; the end must be the solution.
fn checked(g: &Geometry, givens: &[Option<u8>], solution: &[u8]) -> Path {
    let path = Logic::all(g.symbol_count())
        .solve(g, givens, Some(solution))
        .unwrap_or_else(|e| panic!("{}: {e}", g.name));
    let end: Vec<u8> = path.end.value.iter().map(|v| v.expect("filled")).collect();
    assert_eq!(end, solution, "{}: the path ends on the solution", g.name);
    path
}

fn engine_solution(g: &Geometry, givens: &[Option<u8>]) -> Vec<u8> {
    let r = Engine::new(g).solve(givens, Limits::none());
    assert_eq!(r.status(), Status::Unique);
    r.solutions[0].clone()
}

#[test]
fn every_step_is_true_on_classic_puzzles() {
    let g = builtin::load("classic9").unwrap();
    let mut families = std::collections::BTreeSet::new();
    for p in [EASY, HARD, DIABOLICAL] {
        let givens = text::parse_line(&g, p).unwrap();
        let sol = engine_solution(&g, &givens);
        let path = checked(&g, &givens, &sol);
        families.extend(path.steps.iter().map(|s| s.family));
    }
    for f in [
        Family::Singles,
        Family::Overlap,
        Family::Subsets,
        Family::Fish,
        Family::Chains,
    ] {
        assert!(families.contains(&f), "{f:?} is exercised");
    }
}

/// The shipped examples whose steps use sums, cage pairs, two-cell shapes or overlaps through
/// peers (Killer, Samurai Killer, anti-knight, jigsaw, windoku, tredoku, X with letters): every
/// step is checked against the engine's solution and the path ends solved without search.
#[test]
fn every_step_is_true_on_the_shipped_sum_and_peer_examples() {
    use rayon::prelude::*;
    let names = [
        "killer",
        "samurai_killer",
        "antiknight",
        "jigsaw",
        "windoku",
        "tredoku",
        "x6_letters",
        "killer6",
    ];
    names.par_iter().for_each(|name| {
        let file = common::root().join("puzzles").join(format!("{name}.toml"));
        let p = Puzzle::load(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let sol = engine_solution(&p.geometry, &p.givens);
        let path = checked(&p.geometry, &p.givens, &sol);
        assert!(!path.search, "{name}: solved without search");
    });
}

/// Puzzles whose logical path takes a unique rectangle of the type in front: public-domain
/// classic ones (robyngraf/sudoku-exchange-puzzle-bank, the SE 2.5–4.8 file), three per type
/// so that a change of a lighter rule that takes one away does not leave a type untested, and
/// jigsaw ones.
const UNIQUE_RECTANGLES: [(&str, u8, &str); 16] = [
    (
        "classic9",
        1,
        "6.......5.5.....3...9...2..5..6.2..7...9.1...7.3.4.6.2...8.3...81..6..23.72...96.",
    ),
    (
        "classic9",
        1,
        "..5.3.4..1.......527.....83.1.3.9.2.8..5.1..45.2...1.8...4.7....4.....5.3..912..7",
    ),
    (
        "classic9",
        1,
        ".2.8.5.1....3.9.....96.14...4..9..8.7...5...16.8.3.5.2.64...13.58.....64.7.....5.",
    ),
    (
        "classic9",
        2,
        ".2...1.....3...4.8..4.6.39..6.8..1..8...7...9..9..2.7..87.2.9..1.6...2.....1...3.",
    ),
    (
        "classic9",
        2,
        "..........4...8.9...34218...956.71....6...3....72.946...18639...2.9...8..........",
    ),
    (
        "classic9",
        2,
        "68.....19..1...7..9.......8.6.394.7...25.89..4...7...38.4.3.1.2..6.4.5.....7.6...",
    ),
    (
        "classic9",
        3,
        "..793.1.8....2..4......76.5.......76.5.781.3.78.......3.18......9..7....6.8.423..",
    ),
    (
        "classic9",
        3,
        "8.......3.157.342..73.4.96..8.6.1.5.....3....6.......2..6.1.8...2..8..3.3.......4",
    ),
    (
        "classic9",
        3,
        "2...1....1....6....64.897...7..5.1....2...5....8.9..7...142.96....8....4....7...2",
    ),
    (
        "classic9",
        4,
        "....1....4.8.6.5.1.2..5..4..91...38...........451.372...9.2.8..8..9.5..2.3.....6.",
    ),
    (
        "classic9",
        4,
        ".........8.......7...165...6...2...53..9.8..6..9.5.2..9.8.4.6.1.1..9..2..26.8.75.",
    ),
    (
        "classic9",
        4,
        "...1.275.....4...6..2..6.8.3......9.1.5...8.3.4......2.7.2..3..5...9.....967.4...",
    ),
    // the project's own generator (`generate --geometry jigsaw --seed 6, 8, 59, 148`): the
    // rectangles run through irregular pieces
    (
        "jigsaw",
        3,
        "5....8...........9.....4...8..2..............29...7....6...........6.....1.85..9.",
    ),
    (
        "jigsaw",
        1,
        "93........4..................3.76.........827.................5.....7....149....6",
    ),
    (
        "jigsaw",
        4,
        "....3.....8.94....2.....7.3.......8......7....6.......7.......4......1......93.2.",
    ),
    (
        "jigsaw",
        4,
        "....5...........56....89...6.7....1......27......2.....1.....37..6......4..9.....",
    ),
];

/// Unique rectangles of types 1 to 4 each fire on real puzzles, every elimination is checked
/// against the solution (the engine's, which also proves the puzzle unique), and the step reads
/// in the layout's names with SE's weight (4.5; type 3 adds 0.1 per symbol of its subset above
/// one).
#[test]
fn unique_rectangles_of_every_type_are_true() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, kind, p) in UNIQUE_RECTANGLES {
        let g = builtin::load(name).unwrap();
        let givens = text::parse_line(&g, p).unwrap();
        let sol = engine_solution(&g, &givens);
        let path = checked(&g, &givens, &sol);
        let mut board = path.start.clone();
        for s in &path.steps {
            if let Some(t) = s.rule.strip_prefix("Unique rectangle type ") {
                let t: u8 = t.parse().unwrap();
                seen.insert((name, t));
                assert_eq!(s.family, Family::Uniqueness);
                assert_eq!(s.cells.len(), 4, "{p}: {}", s.reason);
                // the four corners: empty, two rows and two columns apart, sharing two symbols
                let common = s.cells.iter().fold(!0u64, |m, &c| m & board.cand[c]);
                assert!(common.count_ones() >= 2, "{p}: {}", s.reason);
                assert!(s.cells.iter().all(|&c| board.value[c].is_none()));
                for &c in &s.cells {
                    assert!(s.reason.contains(g.cells[c].name.as_str()), "{}", s.reason);
                }
                assert!(!s.eliminations.is_empty() && s.placements.is_empty());
                let base = rate::UNIQUE_RECTANGLE;
                match t {
                    3 => assert!(s.weight > base && s.weight <= base + 0.35, "{}", s.weight),
                    _ => assert_eq!(s.weight, base),
                }
            }
            board.apply(s);
        }
        let rule = format!("Unique rectangle type {kind}");
        if !path.steps.iter().any(|s| s.rule == rule) {
            eprintln!("note: {p} no longer takes a {rule}");
        }
    }
    for t in 1..=4 {
        assert!(
            seen.contains(&("classic9", t)),
            "type {t} fires on classic9"
        );
    }
    assert!(
        seen.iter().any(|s| s.0 == "jigsaw"),
        "a rectangle fires on jigsaw"
    );
}

/// Public-domain classic puzzles (robyngraf/sudoku-exchange-puzzle-bank, the SE 5.0+ file) whose
/// logical path takes ALS chains (SE rates them 8.3 and 8.4 by forcing chains).
const ALS_CHAINS: [&str; 3] = [
    "5...6...9...2.......2..13....3.2..1.1..436..5.8..1.9....58..1.......7...9...4...6",
    ".9.2.6....38......7...3...536.7...8...9...4...5...4.969...7...8......13....5.1.4.",
    "6...1.9...5.8..1....3..2..73......7...17.92...6......45..2..7....6..1.2...7.4...6",
];

/// The ALS chain steps of a checked path: each names three sets or more, removes something,
/// weighs at least the rule's base weight and reads in the layout's cell names.
fn als_chain_steps(g: &Geometry, path: &Path) -> usize {
    let mut n = 0;
    for s in path.steps.iter().filter(|s| s.rule.starts_with("ALS-XY-")) {
        n += 1;
        assert_eq!(s.family, Family::Als);
        assert!(s.weight >= rate::ALS_CHAIN, "{}", s.weight);
        assert!(!s.eliminations.is_empty() && s.placements.is_empty());
        assert!(s.reason.matches(" -").count() >= 2, "{}", s.reason);
        for &c in &s.cells {
            assert!(s.reason.contains(g.cells[c].name.as_str()), "{}", s.reason);
        }
    }
    n
}

/// ALS chains (ALS-XY-Wing and ALS-XY-Chain) fire on classic puzzles and on the shipped
/// Samurai example, and every elimination of every step is checked against the engine's
/// solution; with only the set-based families (no chains or nets before them) they fire more
/// often, still checked.
#[test]
fn als_chains_are_true_on_classic_and_samurai() {
    let g = builtin::load("classic9").unwrap();
    let (mut wings, mut chains) = (0, 0);
    let few = [Family::Overlap, Family::Subsets, Family::Fish, Family::Als];
    let mut restricted = 0;
    for p in ALS_CHAINS {
        let givens = text::parse_line(&g, p).unwrap();
        let sol = engine_solution(&g, &givens);
        let path = checked(&g, &givens, &sol);
        als_chain_steps(&g, &path);
        wings += path
            .steps
            .iter()
            .filter(|s| s.rule == "ALS-XY-Wing")
            .count();
        chains += path
            .steps
            .iter()
            .filter(|s| s.rule == "ALS-XY-Chain")
            .count();
        let path = Logic::with_families(9, &few)
            .solve(&g, &givens, Some(&sol))
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        restricted += als_chain_steps(&g, &path);
    }
    assert!(wings > 0 && chains > 0, "wings {wings}, chains {chains}");
    assert!(restricted > wings + chains, "{restricted}");
    let file = common::root().join("puzzles/samurai.toml");
    let p = Puzzle::load(&file).unwrap();
    let sol = engine_solution(&p.geometry, &p.givens);
    let path = checked(&p.geometry, &p.givens, &sol);
    assert!(
        als_chain_steps(&p.geometry, &path) > 0,
        "an ALS chain on samurai"
    );
}

#[test]
fn every_step_is_true_on_planted_puzzles_of_many_geometries() {
    for (name, seeds) in [
        ("classic4", 6),
        ("classic6", 6),
        ("classic9", 6),
        ("x", 4),
        ("windoku", 4),
        ("jigsaw", 4),
        ("toroidal", 4),
        ("samurai", 1),
    ] {
        let g = builtin::load(name).unwrap();
        for seed in 0..seeds {
            let (givens, sol) = planted(&g, seed * 7919 + 13);
            checked(&g, &givens, &sol);
        }
    }
}

/// A Killer puzzle planted on a full grid: random cages of 2–4 cells, givens only as needed.
fn planted_killer(seed: u64) -> (Geometry, Vec<Option<u8>>, Vec<u8>) {
    let base = builtin::load("classic9").unwrap();
    let mut rng = Lcg(seed);
    let full = random_grid(&base, &mut rng);
    let n = base.cell_count();
    let mut caged = vec![false; n];
    let mut cages = Vec::new();
    let neighbours = |c: usize| -> Vec<usize> {
        let (r, k) = (c / 9, c % 9);
        let mut v = Vec::new();
        if r > 0 {
            v.push(c - 9)
        }
        if r < 8 {
            v.push(c + 9)
        }
        if k > 0 {
            v.push(c - 1)
        }
        if k < 8 {
            v.push(c + 1)
        }
        v
    };
    for c in 0..n {
        if caged[c] {
            continue;
        }
        let size = 2 + rng.below(3);
        let mut cells = vec![c];
        caged[c] = true;
        while cells.len() < size {
            let options: Vec<usize> = cells
                .iter()
                .flat_map(|&d| neighbours(d))
                .filter(|&d| !caged[d] && cells.iter().all(|&x| full[x] != full[d]))
                .collect();
            if options.is_empty() {
                break;
            }
            let d = options[rng.below(options.len())];
            caged[d] = true;
            cells.push(d);
        }
        let total: i64 = cells.iter().map(|&d| full[d] as i64 + 1).sum();
        cages.push(Shape {
            name: format!("Cage {}", cages.len() + 1),
            rule: Rule::Sum {
                total,
                unique: true,
            },
            cells: cells
                .into_iter()
                .map(|d| anydoku::geometry::CellId(d as u32))
                .collect(),
            kind: ShapeKind::Cage,
        });
    }
    let g = base.with_extra_shapes(cages).unwrap();
    // add givens from the solution until unique
    let e = Engine::new(&g);
    let mut givens = vec![None; n];
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let mut i = 0;
    while e.solve(&givens, Limits::none()).status() != Status::Unique {
        givens[order[i]] = Some(full[order[i]]);
        i += 1;
    }
    let givens = dig(&g, &full, givens, &mut rng, usize::MAX);
    (g, givens, full)
}

#[test]
fn every_step_is_true_on_planted_killer_puzzles() {
    let mut used_cages = false;
    for seed in 0..3 {
        let (g, givens, sol) = planted_killer(seed + 101);
        let path = checked(&g, &givens, &sol);
        used_cages |= path.steps.iter().any(|s| s.family == Family::Cages);
    }
    assert!(used_cages, "cage combinations are used on Killer puzzles");
}

/// Minimal 9x9 Killers as `generate --killer` makes them by default: cages of 2 to 5 cells,
/// every cage that is not needed dropped.
fn killer_generator() -> anydoku::generate::Generator {
    use anydoku::generate::{Generator, KillerOptions, Options};
    let options = Options {
        attempts: 200,
        killer: Some(KillerOptions {
            min_size: 2,
            max_size: 5,
            drop_cages: true,
        }),
        limits: Limits::none(),
        ..Options::default()
    };
    Generator::new(Arc::new(builtin::load("classic9").unwrap()), options).unwrap()
}

/// Freshly generated minimal Killers (cage-only, `generate --killer --seed S`): every rule below
/// the forcing nets, each step checked against the solution, and the innie/outie equations,
/// the hidden cage combinations and the house combinations all take steps.
#[test]
fn every_cage_step_is_true_on_generated_killers() {
    use rayon::prelude::*;
    let generator = killer_generator();
    let families: Vec<Family> = Family::ALL
        .into_iter()
        .filter(|&f| f != Family::Forcing)
        .collect();
    let rules: Vec<String> = (1..=16u64)
        .into_par_iter()
        .flat_map(|seed| {
            let made = generator.generate_seeded(seed, 0).unwrap();
            let p = &made.puzzle;
            let path = Logic::with_families(9, &families)
                .solve(&p.geometry, &p.givens, Some(&made.solution))
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            path.steps.into_iter().map(|s| s.rule).collect::<Vec<_>>()
        })
        .collect();
    for rule in [
        "Innies and outies",
        "Hidden cage combination",
        "House combinations",
    ] {
        assert!(rules.iter().any(|r| r == rule), "{rule} takes a step");
    }
}

/// The logic path of the minimal Killer `generate --killer --seed SEED` makes, every step
/// checked against its solution; it must finish without search.
fn generated_killer_by_logic(seed: u64) -> Path {
    let made = killer_generator().generate_seeded(seed, 0).unwrap();
    let p = &made.puzzle;
    let path = Logic::all(9)
        .solve(&p.geometry, &p.givens, Some(&made.solution))
        .unwrap();
    assert!(path.solved && !path.search);
    path
}

/// A generated minimal Killer that the lighter rules and the one-assumption forcing nets do
/// not finish: the cages' fillings as branches (cage forcing chains) take it to the end, every
/// step checked against the solution.
#[test]
fn cage_forcing_chains_finish_a_generated_killer() {
    let path = generated_killer_by_logic(4);
    let cage_steps = path
        .steps
        .iter()
        .filter(|s| s.rule.starts_with("Cage forcing chains"));
    assert!(cage_steps.count() >= 1, "cage forcing chains take a step");
}

/// Generated minimal Killers where every lighter rule, the dynamic forcing chains up to level
/// 4 and the cage forcing chains (+) included, gets stuck (seed 6 after 24 steps with every
/// cell empty): the cage tier, whose branches' nets apply the cage rules, takes them to the
/// end, every step checked against the solution.
#[test]
fn the_cage_tier_finishes_generated_killers_the_lighter_nets_leave() {
    let path = generated_killer_by_logic(6);
    let tier = path
        .steps
        .iter()
        .filter(|s| s.rule.ends_with("forcing chains (++)"));
    assert!(tier.count() >= 1, "the cage tier takes a step");
}

#[test]
fn fewer_rules_never_rate_easier() {
    let g = builtin::load("classic9").unwrap();
    for p in [EASY, HARD, DIABOLICAL] {
        let givens = text::parse_line(&g, p).unwrap();
        let all = rate::rate(&Logic::all(9).solve(&g, &givens, None).unwrap());
        let singles = rate::rate(
            &Logic::with_families(9, &[Family::Singles])
                .solve(&g, &givens, None)
                .unwrap(),
        );
        assert!(singles.score >= all.score, "{p}: {singles:?} vs {all:?}");
        assert!(all.score >= 1.5 && !all.search);
    }
    let givens = text::parse_line(&g, DIABOLICAL).unwrap();
    let singles = Logic::with_families(9, &[Family::Singles])
        .solve(&g, &givens, None)
        .unwrap();
    assert!(singles.search && singles.steps.last().unwrap().family == Family::Search);
    assert!(singles
        .steps
        .iter()
        .all(|s| matches!(s.family, Family::Singles | Family::Search)));
}

#[test]
fn harder_puzzles_rate_higher() {
    let g = builtin::load("classic9").unwrap();
    let score = |p: &str| {
        let givens = text::parse_line(&g, p).unwrap();
        rate::rate(&Logic::all(9).solve(&g, &givens, None).unwrap())
    };
    let (e, h, d) = (score(EASY), score(HARD), score(DIABOLICAL));
    assert_eq!(e.level, rate::Level::Easy);
    assert!(e.score < h.score && h.score < d.score, "{e:?} {h:?} {d:?}");
}

#[test]
fn a_wrong_board_is_reported_not_solved() {
    let g = builtin::load("classic9").unwrap();
    let mut givens = text::parse_line(&g, EASY).unwrap();
    // a legal-looking but wrong entry: the solution's symbol at r1c1 is 1 (index 0); put another
    let sol = engine_solution(&g, &givens);
    let wrong = (0..9u8).find(|&v| {
        v != sol[0] && {
            let mut t = givens.clone();
            t[0] = Some(v);
            Puzzle {
                geometry: Arc::new(g.clone()),
                givens: t,
            }
            .conflicts()
            .is_empty()
        }
    });
    givens[0] = wrong;
    assert!(Logic::all(9).solve(&g, &givens, None).is_err());
}

fn write_temp(name: &str, text: &str) -> Scratch {
    common::scratch_file(name, text)
}

#[test]
fn solve_steps_prints_named_steps_and_the_solution() {
    let (code, out, err) = run(&["solve", HARD, "-g", "classic9", "--steps"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Hidden single:") && out.contains(" in Box ") || out.contains(" in Row "));
    assert!(out.contains("Solved by logic"), "{out}");
    let (code, out, _) = run(&[
        "solve", HARD, "-g", "classic9", "--steps", "--format", "json",
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    for s in steps {
        for key in [
            "rule",
            "family",
            "shapes",
            "cells",
            "placements",
            "eliminations",
            "text",
        ] {
            assert!(s.get(key).is_some(), "step has {key}");
        }
    }
    // the placements of the steps, replayed, give the printed solution, which the independent
    // checker accepts
    let (_, model, _) = run(&["export", HARD, "-g", "classic9"]);
    let model: Value = serde_json::from_str(&model).unwrap();
    let mut grid = model["givens"].as_object().cloned().unwrap_or_default();
    for s in steps {
        for p in s["placements"].as_array().unwrap() {
            grid.insert(p["cell"].as_str().unwrap().into(), p["symbol"].clone());
        }
    }
    common::check_solution(&model, &grid).unwrap();
    assert_eq!(&grid, v["solution"].as_object().unwrap());
}

#[test]
fn solve_steps_on_samurai_names_the_grids() {
    let g = builtin::load("samurai").unwrap();
    let (givens, sol) = planted(&g, 5);
    let line = text::to_line(&g, &givens);
    let (code, out, err) = run(&["solve", &line, "-g", "samurai", "--steps"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" of grid "), "{out}");
    let (_, out, _) = run(&[
        "solve", &line, "-g", "samurai", "--steps", "--format", "json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let solution = v["solution"].as_object().unwrap();
    for (c, cell) in g.cells.iter().enumerate() {
        assert_eq!(solution[&cell.name], g.symbols.symbol(sol[c] as usize));
    }
}

#[test]
fn solve_steps_on_killer_names_the_cages() {
    let (g, givens, _) = planted_killer(7);
    let p = Puzzle {
        geometry: Arc::new(g),
        givens,
    };
    let model = serde_json::to_string(&json::to_model(&p)).unwrap();
    let file = write_temp("killer.json", &model);
    let (code, out, err) = run(&["solve", file.to_str().unwrap(), "--steps"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Cage combinations: Cage "), "{out}");
}

#[test]
fn solve_steps_refuses_multiple_solutions() {
    let (code, out, _) = run(&["solve", "classic4", "--steps"]);
    assert_eq!(code, 1);
    assert!(out.contains("more than one solution"), "{out}");
}

#[test]
fn hint_gives_the_first_step_and_accepts_entries() {
    let (code, hint, err) = run(&["hint", HARD, "-g", "classic9"]);
    assert_eq!(code, 0, "{err}");
    let (_, steps, _) = run(&["solve", HARD, "-g", "classic9", "--steps"]);
    let first = steps.lines().next().unwrap();
    assert_eq!(
        first.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' '),
        hint.trim()
    );

    let g = builtin::load("classic9").unwrap();
    let givens = text::parse_line(&g, HARD).unwrap();
    let sol = engine_solution(&g, &givens);
    // right entries: the hint is about the rest
    let mut entries: Vec<Option<u8>> = vec![None; 81];
    let empty: Vec<usize> = (0..81).filter(|&c| givens[c].is_none()).collect();
    for &c in empty.iter().take(20) {
        entries[c] = Some(sol[c]);
    }
    let (code, out, err) = run(&[
        "hint",
        HARD,
        "-g",
        "classic9",
        "--entries",
        &text::to_line(&g, &entries),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let step = &v["step"];
    for p in step["placements"].as_array().unwrap() {
        let cell = g.cell_id(p["cell"].as_str().unwrap()).unwrap().index();
        assert!(entries[cell].is_none() && givens[cell].is_none());
        assert_eq!(
            p["symbol"].as_str().unwrap(),
            g.symbols.symbol(sol[cell] as usize)
        );
    }

    // a wrong entry that breaks no rule yet: named, exit 1
    let c = empty[0];
    let wrong = (0..9u8).find(|&v| {
        let mut t = givens.clone();
        t[c] = Some(v);
        v != sol[c]
            && Puzzle {
                geometry: Arc::new(g.clone()),
                givens: t,
            }
            .conflicts()
            .is_empty()
    });
    let mut bad = vec![None; 81];
    bad[c] = wrong;
    let (code, _, err) = run(&[
        "hint",
        HARD,
        "-g",
        "classic9",
        "--entries",
        &text::to_line(&g, &bad),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("wrong") && err.contains(&g.cells[c].name),
        "{err}"
    );

    // an entry that repeats a symbol in a row
    let given_cell = (0..9).find(|&k| givens[k].is_some()).unwrap();
    let free_cell = (0..9).find(|&k| givens[k].is_none()).unwrap();
    let mut clash = vec![None; 81];
    clash[free_cell] = givens[given_cell];
    let (code, _, err) = run(&[
        "hint",
        HARD,
        "-g",
        "classic9",
        "--entries",
        &text::to_line(&g, &clash),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("breaks a rule") && err.contains("Row 1"),
        "{err}"
    );

    // a malformed entries string is bad input
    let (code, _, err) = run(&["hint", HARD, "-g", "classic9", "--entries", "12x"]);
    assert_eq!(code, 2);
    assert!(err.contains("entries"), "{err}");
}

#[test]
fn rate_prints_score_level_and_search() {
    let (code, out, err) = run(&["rate", DIABOLICAL, "-g", "classic9", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["score", "level", "search"]);
    assert!(v["score"].as_f64().unwrap() > 4.0);
    assert_eq!(v["search"], false);
    let (_, out, _) = run(&[
        "rate", DIABOLICAL, "-g", "classic9", "--format", "json", "--rules", "singles",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["search"], true);
    assert_eq!(v["level"], "search");
    let (code, _, err) = run(&[
        "rate",
        DIABOLICAL,
        "-g",
        "classic9",
        "--rules",
        "singles,magic",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown rule family 'magic'"), "{err}");
}

#[test]
fn rate_a_file_gives_one_line_per_puzzle() {
    let file = write_temp(
        "lines.txt",
        &format!("{EASY} 1.2\n# comment\n{HARD} 3.4\nnot a puzzle\n{DIABOLICAL}\n"),
    );
    let (code, out, err) = run(&["rate", file.to_str().unwrap(), "-g", "classic9"]);
    // every good line is rated, the bad one is answered in its place, and the exit code says
    // that the file had a bad line
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("lines.txt:4:1: 'n' (for cell r1c1)"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].ends_with(" easy"));
    assert!(
        lines[2].starts_with("invalid: line 4, column 1: 'n' (for cell r1c1)"),
        "{}",
        lines[2]
    );
    let score = |l: &str| l.split(' ').next().unwrap().parse::<f64>().unwrap();
    assert!(score(lines[0]) < score(lines[1]) && score(lines[1]) < score(lines[3]));
}

// ---------------------------------------------------------------------------------------------
// Corpus tests (need ../shared/data)

/// Spearman rank correlation (average ranks for ties).
fn spearman(x: &[f64], y: &[f64]) -> f64 {
    fn ranks(v: &[f64]) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
        let mut r = vec![0.0; v.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
                j += 1;
            }
            for &k in &idx[i..=j] {
                r[k] = (i + j) as f64 / 2.0 + 1.0;
            }
            i = j + 1;
        }
        r
    }
    let (rx, ry) = (ranks(x), ranks(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

fn median(v: &mut [usize]) -> usize {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Rates every line of a classic file, checking every step against the solution.
/// Returns (scores, SE ratings if any, steps, search flags).
fn rate_classic_file(name: &str, every: usize) -> (Vec<f64>, Vec<f64>, Vec<usize>, Vec<bool>) {
    use rayon::prelude::*;
    let path = common::shared_data().join("classic").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let g = builtin::load("classic9").unwrap();
    let logic = Logic::with_families(9, &corpus_families());
    let lines: Vec<&str> = text.lines().step_by(every).collect();
    let rows: Vec<(f64, f64, usize, bool)> = lines
        .par_iter()
        .map(|line| {
            let mut parts = line.split_whitespace();
            let givens = text::parse_line(&g, parts.next().unwrap()).unwrap();
            let extra = parts.next().unwrap_or("");
            let (se, sol) = if extra.len() == 81 {
                (
                    f64::NAN,
                    text::parse_line(&g, extra)
                        .unwrap()
                        .into_iter()
                        .map(|v| v.unwrap())
                        .collect(),
                )
            } else {
                (
                    extra.parse().unwrap_or(f64::NAN),
                    engine_solution(&g, &givens),
                )
            };
            let path = logic
                .solve(&g, &givens, Some(&sol))
                .unwrap_or_else(|e| panic!("{name}: {line}: {e}"));
            let r = rate::rate(&path);
            (r.score, se, path.steps.len(), path.search)
        })
        .collect();
    (
        rows.iter().map(|r| r.0).collect(),
        rows.iter().map(|r| r.1).collect(),
        rows.iter().map(|r| r.2).collect(),
        rows.iter().map(|r| r.3).collect(),
    )
}

/// The rule families for corpus runs: all, or `ANYDOKU_RULES=singles,subsets,...` to compare.
fn corpus_families() -> Vec<Family> {
    match std::env::var("ANYDOKU_RULES") {
        Ok(list) => list
            .split(',')
            .map(|f| Family::parse(f).expect("a family name"))
            .collect(),
        Err(_) => Family::ALL.to_vec(),
    }
}

#[test]
#[ignore]
fn corpus_logic_classic() {
    let scale: usize = std::env::var("ANYDOKU_SAMPLE").map_or(1, |s| s.parse().unwrap());
    let files = [
        ("sudoku_exchange_easy_500_with_solutions.txt", 1, 0.0),
        ("sudoku_exchange_medium_500_with_solutions.txt", 1, 1.0),
        ("sudoku_exchange_hard_500_with_solutions.txt", 1, 2.0),
        ("sudoku_exchange_diabolical_500_with_solutions.txt", 1, 3.0),
        ("sudoku_exchange_hard_SE2.5-4.8_sample50k.txt", 10, f64::NAN),
        ("sudoku_exchange_diabolical_SE5.0plus.txt", 240, f64::NAN),
    ];
    let (mut bucket_scores, mut buckets) = (Vec::new(), Vec::new());
    let mut problems = Vec::new();
    println!(
        "{:<52} {:>6} {:>9} {:>7} {:>9}",
        "file", "n", "no search", "median", "spearman"
    );
    for (name, every, bucket) in files {
        let every = every * scale;
        let (scores, se, mut steps, search) = rate_classic_file(name, every);
        let n = scores.len();
        let logic_only = search.iter().filter(|s| !**s).count() as f64 / n as f64;
        let rho = if se.iter().all(|s| s.is_finite()) {
            format!("{:.3}", spearman(&scores, &se))
        } else {
            "-".into()
        };
        println!(
            "{name:<52} {n:>6} {:>8.1}% {:>7} {rho:>9}",
            100.0 * logic_only,
            median(&mut steps)
        );
        if bucket.is_finite() {
            bucket_scores.extend(scores.iter().copied());
            buckets.extend(std::iter::repeat_n(bucket, n));
        }
        if (name.contains("easy") || name.contains("medium") || name.contains("hard_500"))
            && logic_only < 1.0
        {
            problems.push(format!("{name}: search was needed"));
        }
        // issue 23's bars: ranked like Sudoku Explainer, and finished by logic
        let (min_rho, min_logic) = match name {
            n if n.contains("SE2.5") => (0.95, 0.99),
            n if n.contains("SE5.0") => (0.90, 0.99),
            _ => (f64::NAN, 0.0),
        };
        if min_rho.is_finite() && spearman(&scores, &se) < min_rho {
            problems.push(format!("{name}: spearman below {min_rho}"));
        }
        if logic_only < min_logic {
            problems.push(format!(
                "{name}: {:.1} % without search",
                100.0 * logic_only
            ));
        }
    }
    println!(
        "the four 500-puzzle buckets together (easy < medium < hard < diabolical): spearman {:.3}",
        spearman(&bucket_scores, &buckets)
    );
    assert!(problems.is_empty(), "{problems:?}");
}

/// The variant corpus as JSON lines, made by tools/variants_to_jsonl.py into a temp directory.
fn variant_jsonl() -> PathBuf {
    let out = std::env::temp_dir().join("anydoku-logic-variants");
    if !out.join("samurai_puzzlekit.jsonl").is_file() {
        let status = std::process::Command::new("python3")
            .arg(common::root().join("tools/variants_to_jsonl.py"))
            .arg(common::shared_data().join("variants"))
            .arg(&out)
            .status()
            .expect("python3 runs");
        assert!(status.success());
    }
    out
}

#[test]
#[ignore]
fn corpus_logic_variants() {
    use rayon::prelude::*;
    let dir = variant_jsonl();
    let sets: &[(&str, &[&str], usize)] = &[
        (
            "Samurai",
            &["samurai_puzzlekit.jsonl", "samurai_sudoq.jsonl"],
            1,
        ),
        (
            "jigsaw",
            &[
                "jigsaw_puzzlekit.jsonl",
                "jigsaw_sudoq.jsonl",
                "jigsaw_andoku.jsonl",
            ],
            1,
        ),
        ("X", &["x_sudoq.jsonl", "x_andoku.jsonl"], 1),
        (
            "windoku",
            &["windoku_sudoq.jsonl", "windoku_andoku.jsonl"],
            1,
        ),
        (
            "Killer",
            &["killer_puzzlekit.jsonl", "killer_krazydad.jsonl"],
            10,
        ),
        (
            "other gattai",
            &[
                "gattai_butterfly.jsonl",
                "gattai_sohei.jsonl",
                "gattai_windmill.jsonl",
                "gattai_gattai8.jsonl",
            ],
            1,
        ),
    ];
    println!(
        "{:<14} {:>6} {:>9} {:>7} {:>10}",
        "set", "n", "no search", "median", "mean score"
    );
    for (label, files, every) in sets {
        let mut lines = Vec::new();
        for f in *files {
            let text = std::fs::read_to_string(dir.join(f)).unwrap();
            lines.extend(
                text.lines()
                    .step_by(*every)
                    .map(str::to_string)
                    .collect::<Vec<_>>(),
            );
        }
        let rows: Vec<Option<(bool, usize, f64)>> = lines
            .par_iter()
            .map(|line| {
                let v: Value = serde_json::from_str(line).unwrap();
                if v.get("expect").is_some() {
                    return None;
                }
                let p = json::from_json(line).unwrap();
                let g = &p.geometry;
                // a few corpus puzzles are not unique although no "expect" says so: skip them
                let limits = Limits {
                    max_nodes: Some(2_000_000),
                    max_time: None,
                };
                if Engine::new(g).solve(&p.givens, limits).status() != Status::Unique {
                    return None;
                }
                let sol: Vec<u8> = match v.get("solution").and_then(Value::as_object) {
                    Some(map) => g
                        .cells
                        .iter()
                        .map(|c| g.symbols.index_of(map[&c.name].as_str().unwrap()).unwrap() as u8)
                        .collect(),
                    None => {
                        let r = Engine::new(g).solve(
                            &p.givens,
                            Limits {
                                max_nodes: Some(2_000_000),
                                max_time: None,
                            },
                        );
                        if r.status() != Status::Unique {
                            return None;
                        }
                        r.solutions[0].clone()
                    }
                };
                let path = Logic::all(g.symbol_count())
                    .solve(g, &p.givens, Some(&sol))
                    .unwrap_or_else(|e| panic!("{label}: {}: {e}", v["source"]));
                Some((path.search, path.steps.len(), rate::rate(&path).score))
            })
            .collect();
        let rows: Vec<(bool, usize, f64)> = rows.into_iter().flatten().collect();
        let n = rows.len();
        let logic_only = rows.iter().filter(|r| !r.0).count() as f64 / n as f64;
        let mut steps: Vec<usize> = rows.iter().map(|r| r.1).collect();
        let mean = rows.iter().map(|r| r.2).sum::<f64>() / n as f64;
        println!(
            "{label:<14} {n:>6} {:>8.1}% {:>7} {mean:>10.2}",
            100.0 * logic_only,
            median(&mut steps)
        );
        assert!(n > 0);
    }
}

/// `rate` and `solve --steps` run the engine (to check uniqueness, and when the rules are stuck):
/// both honour --max-nodes and answer `unknown` instead of searching on.
#[test]
fn rating_and_steps_honour_the_search_budget() {
    let (code, out, err) = run(&["rate", DIABOLICAL, "-g", "classic9", "--max-nodes", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("unknown: "), "{out}");
    let file = write_temp("budget.txt", &format!("{DIABOLICAL}\n{EASY}\n"));
    let (_, out, _) = run(&[
        "rate",
        file.to_str().unwrap(),
        "-g",
        "classic9",
        "--max-nodes",
        "1",
    ]);
    assert!(
        out.lines().all(|l| l.starts_with("unknown: ")),
        "every line needs the engine: {out}"
    );
    let (_, out, _) = run(&["rate", file.to_str().unwrap(), "-g", "classic9"]);
    assert!(!out.contains("unknown"), "{out}");
    let (code, out, _) = run(&[
        "solve",
        DIABOLICAL,
        "-g",
        "classic9",
        "--steps",
        "--max-nodes",
        "1",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("budget ran out"), "{out}");
}

/// `--timeout 2` stops every logic command (`rate`, `solve --steps`, `hint`, and `generate
/// --difficulty` on the example's geometry) within 3 s on every shipped example, answering
/// with what it found so far: exit 0 when it finished, else exit 1 and "budget ran out" (or,
/// for `generate`, a target the layout cannot meet).
#[test]
fn a_timeout_stops_the_logic_on_every_shipped_example() {
    // the examples and the constraint-kind examples beside them
    let mut files: Vec<PathBuf> = ["puzzles", "puzzles/kinds"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(common::root().join(dir)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(files.len() >= 45, "{files:?}");
    let mut slow = Vec::new();
    for file in &files {
        let path = file.to_str().unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        let geometry = text
            .lines()
            .find_map(|l| l.strip_prefix("geometry = \""))
            .and_then(|l| l.strip_suffix('"'));
        let mut commands: Vec<Vec<&str>> = vec![
            vec!["rate", path],
            vec!["solve", "--steps", path],
            vec!["hint", path],
        ];
        let killer = text.contains("[[cage]]");
        // a layout file is named relative to the puzzle's folder
        let layout = geometry.map(|g| match g.ends_with(".toml") || g.ends_with(".json") {
            true => file.parent().unwrap().join(g).to_str().unwrap().to_string(),
            false => g.to_string(),
        });
        if let Some(g) = layout.as_deref() {
            let mut c = vec!["generate", "-g", g, "--difficulty", "master", "--seed", "1"];
            if killer {
                c.push("--killer");
            }
            commands.push(c);
        }
        for mut c in commands {
            c.extend(["--timeout", "2"]);
            let t = std::time::Instant::now();
            let (code, out, err) = run(&c);
            let secs = t.elapsed().as_secs_f64();
            assert!(code == 0 || code == 1, "{c:?}: exit {code}: {err}");
            if code == 1 && c[0] != "generate" {
                assert!(out.contains("budget ran out"), "{c:?}: {out}{err}");
            }
            if code == 1 && c[0] == "generate" {
                // a small layout may have no master puzzle at all: then the target is not met
                let why = ["budget ran out", "no puzzle met the target"];
                assert!(why.iter().any(|w| err.contains(w)), "{c:?}: {err}");
            }
            if secs >= 3.0 {
                slow.push(format!("{c:?}: {secs:.2} s"));
            }
        }
    }
    assert!(slow.is_empty(), "not stopped within 3 s: {slow:#?}");
}
