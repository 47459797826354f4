//! CDCL against depth-first search, known counts, budgets and restarts.

use super::*;
use crate::engine::search::Searcher;
use crate::geometry::builtin;
use rand::{Rng, SeedableRng};

/// `count` cells of `grid` drawn at random (with repeats) as givens: a partial grid that keeps
/// `grid` as a solution.
pub(super) fn random_givens(grid: &[u8], count: usize, rng: &mut impl Rng) -> Vec<Option<u8>> {
    let mut givens = vec![None; grid.len()];
    for _ in 0..count {
        let c = rng.gen_range(0..grid.len());
        givens[c] = Some(grid[c]);
    }
    givens
}

/// The engine of the built-in layout `name` and one of its complete grids.
pub(super) fn engine_and_grid(name: &str) -> (Engine, Vec<u8>) {
    let e = Engine::new(&builtin::load(name).unwrap());
    let grid = e.count(&vec![None; e.n_cells], 1, Limits::none()).solutions[0].clone();
    (e, grid)
}

/// A CDCL solver from the searcher's root of `givens`, which come from a grid of a layout with
/// only unique shapes (so the root and the encoding exist).
pub(super) fn cdcl_of<'e>(e: &'e Engine, givens: &[Option<u8>]) -> Cdcl<'e> {
    let root = Searcher::new(e)
        .initial(givens)
        .expect("givens from a grid");
    Cdcl::new(e, &root).expect("unique shapes only")
}

/// CDCL's count of `givens` on engine `e`, up to `limit` solutions (from the searcher's root).
pub(super) fn cdcl_count(e: &Engine, givens: &[Option<u8>], limit: u64) -> Count {
    cdcl_count_deciding(e, givens, limit, false)
}

/// [`cdcl_count`], deciding by learning rate ([`Cdcl::rate_branching`]) when `rates`.
fn cdcl_count_deciding(e: &Engine, givens: &[Option<u8>], limit: u64, rates: bool) -> Count {
    let Some(root) = Searcher::new(e).initial(givens) else {
        return Count {
            count: 0,
            complete: true,
            solutions: Vec::new(),
            nodes: 0,
        };
    };
    let mut solver = Cdcl::new(e, &root).expect("an encoding");
    if rates {
        solver.rate_branching();
    }
    solver.count(limit, Limits::none())
}

/// Depth-first search's count of `givens` up to `limit` within `nodes` nodes; `None` when the
/// budget stopped it.
pub(super) fn dfs_count(
    e: &Engine,
    givens: &[Option<u8>],
    limit: u64,
    nodes: u64,
) -> Option<Count> {
    let limits = Limits {
        max_nodes: Some(nodes),
        max_time: None,
    };
    Some(e.count(givens, limit, limits)).filter(|c| c.complete)
}

/// That CDCL's count `got` is depth-first search's `want`: the same number, every solution
/// keeps the givens and `keeps`, and a unique solution is the same one.
pub(super) fn assert_agrees(
    got: &Count,
    want: &Count,
    givens: &[Option<u8>],
    keeps: &dyn Fn(&[u8]) -> bool,
    what: &str,
) {
    assert_eq!(got.count, want.count, "{what}: {givens:?}");
    for sol in &got.solutions {
        assert!(givens
            .iter()
            .zip(sol)
            .all(|(g, &s)| g.is_none_or(|g| g == s)));
        assert!(keeps(sol), "{what}: {sol:?}");
    }
    if want.count == 1 {
        assert_eq!(got.solutions, want.solutions, "{what}");
    }
}

/// A restart comes once recent distances run a quarter above the average, and not before
/// a full window.
#[test]
fn restarts_follow_recent_distances() {
    let mut r = Restarts::default();
    assert!(
        (0..200).all(|_| !r.learnt(4, 0)),
        "steady distances never restart"
    );
    let first = (0..Restarts::WINDOW).position(|_| r.learnt(8, 0));
    assert!(first.is_some_and(|k| k > 0), "{first:?}");
}

/// Past [`Restarts::BLOCK_AFTER`] conflicts, worse distances at a much longer trail than
/// usual postpone the restart until a whole window of them has come; at the usual trail the
/// restart comes as soon as they lift the window's average.
#[test]
fn a_long_trail_blocks_restarts() {
    let steady = Restarts::BLOCK_AFTER as usize + Restarts::TRAIL_WINDOW;
    let first_restart = |trail| {
        let mut r = Restarts::default();
        assert!((0..steady).all(|_| !r.learnt(4, 100)));
        (0..3 * Restarts::WINDOW).position(|_| r.learnt(8, trail))
    };
    let usual = first_restart(100);
    assert!(usual.is_some_and(|k| k < Restarts::WINDOW / 2), "{usual:?}");
    let long = first_restart(1000);
    assert!(long.is_some_and(|k| k >= Restarts::WINDOW - 1), "{long:?}");
}

/// With learnt clauses dropped as soon as there are any (the clause store compacted again
/// and again, watches and reasons renumbered), counts still agree with depth-first search.
/// (Run on a deep stack: its 16x16 searches go 120 levels deep in the bitboard kernel, see
/// [`crate::engine::with_deep_stack`].)
#[test]
fn counts_agree_when_learnt_clauses_are_dropped_at_once() {
    crate::engine::with_deep_stack(|| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut reductions, mut compactions) = (0, 0);
        for name in ["classic6", "classic9", "classic16"] {
            let (e, grid) = engine_and_grid(name);
            for _ in 0..12 {
                let givens = random_givens(&grid, e.n_cells / 5, &mut rng);
                let want = e.count(&givens, 300, Limits::none());
                let mut s = cdcl_of(&e, &givens);
                s.tiers = clauses::Tiers {
                    next_reduce: 0,
                    first: 0,
                    step: 0,
                    tier2_for: 0,
                };
                let got = s.count(300, Limits::none());
                assert_eq!((got.count, got.complete), (want.count, want.complete));
                reductions += s.reductions;
                compactions += s.compactions;
            }
        }
        assert!(reductions > 100, "only {reductions} reductions");
        assert!(compactions > 10, "only {compactions} compactions");
    })
}

/// Known exact counts, every solution excluded in turn: 288 grids of the empty 4x4 classic,
/// 576 of the empty 4x4 Latin square; deciding by VSIDS and by learning rate.
#[test]
fn known_counts() {
    let latin4 = "name = \"Latin 4\"\nsymbols = \"1234\"\n[[grid]]\nsize = 4\n";
    for (name, want) in [("classic4", 288), ("latin4", 576)] {
        let g = match name {
            "latin4" => crate::geometry::build::from_toml(latin4).unwrap(),
            _ => builtin::load(name).unwrap(),
        };
        let e = Engine::new(&g);
        for rates in [false, true] {
            let got = cdcl_count_deciding(&e, &vec![None; e.n_cells], 10_000, rates);
            assert_eq!((got.count, got.complete), (want, true), "{name} {rates}");
        }
    }
}

/// Random partial grids (some with a wrong given) on several layouts: the same counts as the
/// depth-first search, and every reported solution keeps the givens and breaks no rule (every
/// other case deciding by learning rate).
/// (On a deep stack, see [`crate::engine::with_deep_stack`].)
#[test]
fn counts_agree_with_depth_first_search() {
    crate::engine::with_deep_stack(|| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        // unique shapes smaller than the symbol set: their rule is only in the peer constraints
        let small_shapes = "name = \"6x6 with small unique shapes\"\nsymbols = \"123456\"\n\
            [[grid]]\nsize = 6\nboxes = [2, 3]\n\
            [[shape]]\ncells = \"r1c1 r3c4 r6c2\"\n[[shape]]\ncells = \"r2c6 r5c1 r4c3 r6c5\"\n";
        for (name, range) in [
            ("small shapes", 10..22),
            ("classic6", 14..26),
            ("classic9", 24..40),
            ("x", 20..34),
            ("jigsaw", 22..38),
            ("windoku", 20..34),
            ("classic16", 120..190),
        ] {
            let g = match name {
                "small shapes" => crate::geometry::build::from_toml(small_shapes).unwrap(),
                _ => builtin::load(name).unwrap(),
            };
            let e = Engine::new(&g);
            let n = e.n_cells;
            let grid = e.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            let (mut at_most_one, mut more) = (0, 0);
            for case in 0..40 {
                let mut givens = vec![None; n];
                for _ in 0..rng.gen_range(range.clone()) {
                    let c = rng.gen_range(0..n);
                    givens[c] = Some(if rng.gen_bool(0.01) {
                        rng.gen_range(0..e.n_symbols as u8)
                    } else {
                        grid[c]
                    });
                }
                let Some(want) = dfs_count(&e, &givens, 5, 100_000) else {
                    continue;
                };
                let got = cdcl_count_deciding(&e, &givens, 5, case % 2 == 1);
                let keeps = |sol: &[u8]| {
                    (0..n).all(|c| e.peers(c).iter().all(|&p| sol[p as usize] != sol[c]))
                };
                assert_agrees(&got, &want, &givens, &keeps, name);
                if want.count <= 1 {
                    at_most_one += 1;
                } else {
                    more += 1;
                }
            }
            assert!(
                at_most_one > 0 && more > 0,
                "{name}: {at_most_one} with at most one solution, {more} with more"
            );
        }
    })
}

/// Through the searcher: CDCL from the start and depth-first search alone give the same
/// answers on random partial grids of wide layouts (16x16, 25x25).
/// (On a deep stack, see [`crate::engine::with_deep_stack`].)
#[test]
fn searcher_with_and_without_cdcl_agree() {
    crate::engine::with_deep_stack(|| {
        use crate::engine::Status;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for (name, range) in [("classic16", 120..200), ("classic25", 380..470)] {
            let g = builtin::load(name).unwrap();
            let (cdcl, dfs) = Engine::with_and_without_cdcl(&g);
            let n = dfs.n_cells;
            let grid = dfs.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            let mut statuses = Vec::new();
            for _ in 0..12 {
                let count = rng.gen_range(range.clone());
                let givens = random_givens(&grid, count, &mut rng);
                let Some(want) = dfs_count(&dfs, &givens, 2, 200_000) else {
                    continue;
                };
                let got = cdcl.count(&givens, 2, Limits::none());
                assert_eq!(got.status(), want.status(), "{name}");
                if want.status() == Status::Unique {
                    assert_eq!(got.solutions, want.solutions, "{name}");
                }
                statuses.push(want.status());
            }
            assert!(statuses.len() >= 8, "{name}: too many budget stops");
            assert!(statuses.contains(&Status::Multiple), "{name}: {statuses:?}");
        }
    })
}

/// A whole count on a wide layout (25x25) whose depth-first search meets the engine's
/// `cdcl_stall` dead ends goes on with CDCL before `cdcl_after` nodes and answers as depth-first
/// search alone does; some of the random partial grids take that path.
#[test]
fn a_stalled_search_hands_over_early_and_agrees() {
    crate::engine::with_deep_stack(|| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let g = builtin::load("classic25").unwrap();
        let auto = Engine::new(&g);
        let (_, dfs) = Engine::with_and_without_cdcl(&g);
        let stall = auto.cdcl_stall.expect("a stall threshold for 25 symbols");
        let n = dfs.n_cells;
        let grid = dfs.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
        let mut stalled = 0;
        for _ in 0..12 {
            let count = rng.gen_range(380..470);
            let givens = random_givens(&grid, count, &mut rng);
            let Some(want) = dfs_count(&dfs, &givens, 2, 200_000) else {
                continue;
            };
            let mut s = Searcher::new(&auto);
            let got = s.count(&givens, 2, Limits::none());
            assert_eq!(got.status(), want.status());
            if want.status() == crate::engine::Status::Unique {
                assert_eq!(got.solutions, want.solutions);
            }
            // a search that stalled stopped at its `stall`-th dead end
            stalled += (s.fails == stall) as u32;
            assert!(s.fails <= stall);
        }
        assert!(stalled >= 2, "only {stalled} searches stalled");
    })
}

/// A node budget stops CDCL with an unknown answer instead of running on.
#[test]
fn honours_the_node_budget() {
    let g = builtin::load("classic25").unwrap();
    let e = Engine::new(&g);
    let mut s = Searcher::new(&e);
    let root = s.initial(&vec![None; e.n_cells]).unwrap();
    let mut solver = Cdcl::new(&e, &root).unwrap();
    let limits = Limits {
        max_nodes: Some(50),
        max_time: None,
    };
    let got = solver.count(2, limits);
    assert!(!got.complete && got.nodes <= 50, "{got:?}");
    assert_eq!(got.status(), crate::engine::Status::Unknown);
}

/// Saved phases set to a solution lead straight to it: decisions that agree with a solution
/// never conflict. The preferred grid is the second one found, so the default phases do not
/// lead there by themselves.
#[test]
fn preferring_a_solution_finds_it_without_conflicts() {
    for name in ["classic9", "classic16"] {
        let g = builtin::load(name).unwrap();
        let e = Engine::new(&g);
        let root = Searcher::new(&e).initial(&vec![None; e.n_cells]).unwrap();
        let mut first = Cdcl::new(&e, &root).unwrap();
        let budget = Budget::from(Limits::none());
        let Outcome::Solution(a) = first.solve(&budget) else {
            panic!("{name}: no first grid");
        };
        first.exclude(&a);
        let Outcome::Solution(b) = first.solve(&budget) else {
            panic!("{name}: no second grid");
        };
        assert_ne!(a, b);
        let mut fresh = Cdcl::new(&e, &root).unwrap();
        fresh.prefer(&b);
        let Outcome::Solution(got) = fresh.solve(&budget) else {
            panic!("{name}: no grid with preferred phases");
        };
        assert_eq!(got, b, "{name}: the preferred grid is not the one found");
        assert_eq!(fresh.conflicts(), 0, "{name}");
    }
}

/// Literals decided first ([`first`]) steer the search: a grid's own literals, decided first,
/// lead to that grid without a conflict (the saved phases would lead elsewhere). And they are
/// decisions, not assumptions: with a random literal of every cell decided first (most of them
/// false in every solution), CDCL counts the same as depth-first search on random partial
/// grids. (On a deep stack, see [`crate::engine::with_deep_stack`].)
#[test]
fn literals_decided_first_steer_without_losing_solutions() {
    crate::engine::with_deep_stack(|| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for (name, range) in [("classic9", 30..60), ("classic16", 150..260)] {
            let (e, grid) = engine_and_grid(name);
            let n = e.n_cells;
            let mut steered = cdcl_of(&e, &vec![None; n]);
            let other: Vec<u8> = grid.iter().map(|&t| (t + 1) % e.n_symbols as u8).collect();
            steered.prefer(&other);
            let first = (0..n).map(|c| steered.holds(c, grid[c])).collect();
            steered.decide_first(first);
            let got = steered.solve(&Budget::from(Limits::none()));
            assert_eq!(got, Outcome::Solution(grid.clone()), "{name}: steered");
            assert_eq!(steered.conflicts(), 0, "{name}");
            let (mut compared, mut unique) = (0, 0);
            for _ in 0..30 {
                let givens = random_givens(&grid, rng.gen_range(range.clone()), &mut rng);
                let Some(want) = dfs_count(&e, &givens, 5, 100_000) else {
                    continue;
                };
                let mut s = cdcl_of(&e, &givens);
                let first = (0..n)
                    .map(|c| s.holds(c, rng.gen_range(0..e.n_symbols as u8)))
                    .collect();
                s.decide_first(first);
                let got = s.count(5, Limits::none());
                let keeps = |sol: &[u8]| {
                    (0..n).all(|c| e.peers(c).iter().all(|&p| sol[p as usize] != sol[c]))
                };
                assert_agrees(&got, &want, &givens, &keeps, name);
                compared += 1;
                unique += (want.count == 1) as usize;
            }
            assert!(
                compared > 10 && unique > 0,
                "{name}: {compared} compared, {unique} unique"
            );
        }
    })
}

/// The candidate (cell, symbol) `pick` decides on classic 9x9 from `root` (cells 0..5 with
/// every candidate) when those of cells 0..5 have activities 100, 99, ... and candidate `ct`
/// has `activity`.
fn pick_with(root: &[Mask], ct: (usize, usize), activity: f64) -> Option<(usize, usize)> {
    let g = builtin::load("classic9").unwrap();
    let e = Engine::new(&g);
    let mut s = Cdcl::new(&e, root).unwrap();
    for (k, u) in (0..5).flat_map(|c| s.map.of_cell(c)).enumerate() {
        s.activity[u] = 100.0 - k as f64;
        s.heap.increased(u, &s.activity);
    }
    let v = s.map.var(ct.0, ct.1).expect("a root candidate");
    s.activity[v] = activity;
    s.heap.increased(v, &s.activity);
    s.pick().map(|v| (s.map.cell(v), s.map.symbol(v)))
}

/// On a model without sum shapes a decision goes, among the most active variables, to one in
/// a shortest open clause (a cell with fewest candidates, or a shape with fewest places for a
/// symbol), and to the most active variable when those clauses are all alike.
#[test]
fn decisions_prefer_short_clauses_among_the_most_active() {
    // cell 80 holds 0 or 1: its variables sit in a two-candidate cell
    let mut root = vec![0x1ff as Mask; 81];
    root[80] = 0b11;
    let small = (80, 1);
    assert_eq!(
        pick_with(&root, small, 1.0),
        Some((0, 0)),
        "not among the most active"
    );
    assert_eq!(
        pick_with(&root, small, 80.0),
        Some(small),
        "among the most active"
    );
    assert_eq!(pick_with(&root, small, 200.0), Some(small));
    // in the bottom right box, symbol 0 has two places left (cells 79 and 80), each cell nine
    // or eight candidates; no cell of rows 0 and columns 0..5 loses a candidate
    let mut root = vec![0x1ff as Mask; 81];
    for c in [60, 61, 62, 69, 70, 71, 78] {
        root[c] = 0x1fe;
    }
    let place = (80, 0);
    assert_eq!(
        pick_with(&root, place, 1.0),
        Some((0, 0)),
        "not among the most active"
    );
    assert_eq!(
        pick_with(&root, place, 80.0),
        Some(place),
        "among the most active"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// Any givens on a 6x6, consistent or not: CDCL counts what depth-first search counts,
    /// up to 30, and finds the same solution when it is unique.
    #[test]
    fn agrees_on_any_6x6_givens(
        givens in proptest::collection::vec(proptest::option::weighted(0.15, 0u8..6), 36)
    ) {
        let g = builtin::load("classic6").unwrap();
        let e = Engine::new(&g);
        let want = e.count(&givens, 30, Limits::none());
        let got = cdcl_count(&e, &givens, 30);
        proptest::prop_assert_eq!(got.count, want.count);
        if want.count == 1 {
            proptest::prop_assert_eq!(&got.solutions, &want.solutions);
        }
    }
}
