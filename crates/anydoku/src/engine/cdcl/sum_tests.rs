//! CDCL with sum shapes against a brute-force count, against depth-first search, and on
//! planted solutions.

use super::tests::{assert_agrees, cdcl_count, dfs_count};
use super::*;
use crate::engine::{Options, Status, Switch};
use crate::geometry::{builtin, CellId, Geometry, Rule, Shape, ShapeKind};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn sum_shape(name: String, cells: Vec<u32>, total: i64, unique: bool) -> Shape {
    Shape {
        name,
        rule: Rule::Sum { total, unique },
        cells: cells.into_iter().map(CellId).collect(),
        kind: ShapeKind::Cage,
    }
}

/// Every grid of the classic 4x4, by brute force over rows that are permutations (no engine).
pub(super) fn all_4x4_grids() -> Vec<Vec<u8>> {
    let mut perms = Vec::new();
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let p = [a, b, c, d];
                    if (0..4).all(|i| (0..i).all(|j| p[i] != p[j])) {
                        perms.push(p);
                    }
                }
            }
        }
    }
    let mut grids = Vec::new();
    for r0 in &perms {
        for r1 in &perms {
            for r2 in &perms {
                for r3 in &perms {
                    let rows = [r0, r1, r2, r3];
                    let cols_ok =
                        (0..4).all(|c| (0..4).all(|i| (0..i).all(|j| rows[i][c] != rows[j][c])));
                    let boxes_ok = [(0, 0), (0, 2), (2, 0), (2, 2)].iter().all(|&(r, c)| {
                        let v = [
                            rows[r][c],
                            rows[r][c + 1],
                            rows[r + 1][c],
                            rows[r + 1][c + 1],
                        ];
                        (0..4).all(|i| (0..i).all(|j| v[i] != v[j]))
                    });
                    if cols_ok && boxes_ok {
                        grids.push(rows.iter().flat_map(|r| r.iter().copied()).collect());
                    }
                }
            }
        }
    }
    grids
}

/// Random sum shapes on the 4x4 (unique or not, any cells, totals near a real grid's), counted
/// by CDCL, by depth-first search and by filtering the 288 brute-force grids.
#[test]
fn counts_on_the_4x4_match_brute_force() {
    counts_on_the_4x4(None, 3, Switch::Off);
}

/// The same counted past two with the default search policy, which hands a count whose first
/// depth-first stretch finds fewer than two solutions over to clause learning.
#[test]
fn default_counts_on_the_4x4_match_brute_force() {
    counts_on_the_4x4(None, 7, Switch::Auto);
}

/// The same with symbol values that are out of order, repeat and go below zero (the order
/// literals of the shapes reasoned on by bounds rank values, not symbols).
#[test]
fn counts_on_the_4x4_with_odd_values_match_brute_force() {
    counts_on_the_4x4(Some(vec![3, -1, 3, 7]), 5, Switch::Off);
}

/// Random 4x4 sum layouts counted to 300 (past the 288 grids, so every count is exact): by
/// CDCL and depth-first search alone (`cdcl` off), or by the engine's count with `cdcl` as
/// its policy; each against the brute-force count.
fn counts_on_the_4x4(values: Option<Vec<i64>>, seed: u64, cdcl: Switch) {
    let grids = all_4x4_grids();
    assert_eq!(grids.len(), 288);
    let mut base = builtin::load("classic4").unwrap();
    if let Some(v) = values {
        let symbols = crate::symbols::SymbolSet::from_graphemes("1234", Some(v)).unwrap();
        base = Geometry::new(base.name.clone(), symbols, base.cells.to_vec(), base.shapes).unwrap();
    }
    let value = |t: u8| base.symbols.values()[t as usize];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut seen = [0usize; 3];
    for round in 0..300 {
        let planted = &grids[rng.gen_range(0..grids.len())];
        let mut shapes = Vec::new();
        for k in 0..rng.gen_range(1..=4) {
            let size = rng.gen_range(1..=5);
            let mut cells: Vec<u32> = (0..16).collect();
            cells.shuffle(&mut rng);
            cells.truncate(size);
            cells.sort_unstable();
            let distinct = cells
                .iter()
                .map(|&c| planted[c as usize])
                .collect::<Vec<_>>();
            let unique = rng.gen_bool(0.5)
                && (0..distinct.len()).all(|i| (0..i).all(|j| distinct[i] != distinct[j]));
            let mut total: i64 = cells.iter().map(|&c| value(planted[c as usize])).sum();
            if rng.gen_bool(0.1) {
                total += 1; // sometimes no planted solution
            }
            shapes.push(sum_shape(format!("S{k}"), cells, total, unique));
        }
        let g = base.with_extra_shapes(shapes.clone()).unwrap();
        let want = grids
            .iter()
            .filter(|grid| {
                shapes.iter().all(|s| {
                    let Rule::Sum { total, unique } = s.rule else {
                        unreachable!()
                    };
                    let vals: Vec<u8> = s.cells.iter().map(|c| grid[c.index()]).collect();
                    let sum: i64 = vals.iter().map(|&v| value(v)).sum();
                    sum == total
                        && (!unique || (0..vals.len()).all(|i| (0..i).all(|j| vals[i] != vals[j])))
                })
            })
            .count() as u64;
        for derived in [true, false] {
            let e = Engine::with_options(
                &g,
                Options {
                    derived,
                    cdcl,
                    ..Default::default()
                },
            );
            let givens = vec![None; 16];
            if cdcl == Switch::Off {
                let got = cdcl_count(&e, &givens, 300);
                assert_eq!(got.count, want, "round {round}: CDCL");
                // clause learning up to 5 solutions, then depth-first search from the root
                let budget = crate::engine::Budget::from(Limits::none());
                let got = crate::engine::search::Searcher::new(&e)
                    .count_sparse(&givens, 300, budget, 0, 5);
                assert!(got.complete, "round {round}");
                assert_eq!(got.count, want, "round {round}: CDCL then DFS");
            }
            let dfs = e.count(&givens, 300, Limits::none());
            assert!(dfs.complete, "round {round}");
            assert_eq!(dfs.count, want, "round {round}: {cdcl:?}");
        }
        seen[(want as usize).min(2)] += 1;
    }
    // with two symbols of one value no sum makes a solution unique
    let unique_possible = {
        let v = base.symbols.values();
        (0..v.len()).all(|i| (0..i).all(|j| v[i] != v[j]))
    };
    assert!(
        seen[0] > 10 && seen[2] > 10 && (seen[1] > 10 || !unique_possible),
        "{seen:?}"
    );
}

/// A random Killer on `base` from a random grid: cages of 1 to 5 connected cells (by the
/// layout's drawing positions), a share of them left out, a few non-unique sum shapes along
/// the diagonals, and a few givens.
fn random_killer(base: &Geometry, rng: &mut impl Rng, drop: f64) -> (Geometry, Vec<Option<u8>>) {
    let e = Engine::new(base);
    let n = e.n_cells;
    let grid = crate::generate::grid::random_grid(&e, rng, 100).unwrap();
    let nbrs = crate::generate::killer::neighbours(base);
    let mut owner = vec![usize::MAX; n];
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(rng);
    let mut shapes = Vec::new();
    for &start in &order {
        if owner[start as usize] != usize::MAX {
            continue;
        }
        let id = shapes.len() + 1;
        let mut cage = vec![start];
        owner[start as usize] = id;
        let size = rng.gen_range(1..=5);
        while cage.len() < size {
            let next: Vec<u32> = cage
                .iter()
                .flat_map(|&c| nbrs[c as usize].iter().copied())
                .filter(|&d| {
                    owner[d as usize] == usize::MAX
                        && cage.iter().all(|&x| grid[x as usize] != grid[d as usize])
                })
                .collect();
            let Some(&d) = next.choose(rng) else { break };
            owner[d as usize] = id;
            cage.push(d);
        }
        cage.sort_unstable();
        let total = cage.iter().map(|&c| grid[c as usize] as i64 + 1).sum();
        shapes.push(sum_shape(format!("Cage {id}"), cage, total, true));
    }
    shapes.retain(|_| !rng.gen_bool(drop));
    let side = (n as f64).sqrt() as u32;
    for k in 0..rng.gen_range(0..3) {
        let start = rng.gen_range(0..side);
        let cells: Vec<u32> = (0..side - start).map(|i| i * side + start + i).collect();
        let total = cells.iter().map(|&c| grid[c as usize] as i64 + 1).sum();
        shapes.push(sum_shape(format!("Diagonal {k}"), cells, total, false));
    }
    let mut givens = vec![None; n];
    for _ in 0..rng.gen_range(0..4) {
        let c = rng.gen_range(0..n);
        givens[c] = Some(grid[c]);
    }
    (base.with_extra_shapes(shapes).unwrap(), givens)
}

/// Counts `givens` on `g` up to 5 by depth-first search alone (within `nodes`) and by CDCL,
/// asserts that they agree and that every solution keeps every shape; the count, or `None` when
/// depth-first search ran out of nodes.
fn counts_agree_up_to_5(
    g: &Geometry,
    givens: &[Option<u8>],
    nodes: u64,
    what: &str,
) -> Option<u64> {
    let dfs = Engine::with_options(
        g,
        Options {
            cdcl: Switch::Off,
            ..Default::default()
        },
    );
    let want = dfs_count(&dfs, givens, 5, nodes)?;
    let got = cdcl_count(&dfs, givens, 5);
    let keeps = |sol: &[u8]| {
        let full: Vec<Option<u8>> = sol.iter().map(|&v| Some(v)).collect();
        crate::puzzle::conflicts_of(g, &full).is_empty()
    };
    assert_agrees(&got, &want, givens, &keeps, what);
    Some(want.count)
}

/// Random Killers (and Little-Killer-like diagonals) on 6x6 and 9x9: CDCL counts what
/// depth-first search counts, up to 5, and every solution it reports keeps every rule.
#[test]
fn killer_counts_agree_with_depth_first_search() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    for (name, drop, rounds) in [("classic6", 0.6, 60), ("classic9", 0.2, 40)] {
        let base = builtin::load(name).unwrap();
        let mut statuses = [0usize; 3];
        for round in 0..rounds {
            let (g, givens) = random_killer(&base, &mut rng, drop);
            let what = format!("{name} round {round}");
            if let Some(count) = counts_agree_up_to_5(&g, &givens, 200_000, &what) {
                statuses[(count as usize).min(2)] += 1;
            }
        }
        assert!(
            statuses[1] > 0 && statuses[2] > 0,
            "{name}: {statuses:?} (none, one, more)"
        );
    }
}

/// Through the searcher: with CDCL from the start the answers of random 9x9 Killers are those
/// of depth-first search alone.
#[test]
fn searcher_on_killers_with_and_without_cdcl_agree() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let base = builtin::load("classic9").unwrap();
    let mut statuses = Vec::new();
    for _ in 0..30 {
        let (g, givens) = random_killer(&base, &mut rng, 0.25);
        let (cdcl, dfs) = Engine::with_and_without_cdcl(&g);
        let Some(want) = dfs_count(&dfs, &givens, 2, 200_000) else {
            continue;
        };
        let got = cdcl.count(&givens, 2, Limits::none());
        assert_eq!(got.status(), want.status());
        if want.status() == Status::Unique {
            assert_eq!(got.solutions, want.solutions);
        }
        statuses.push(want.status());
    }
    assert!(statuses.contains(&Status::Unique) && statuses.contains(&Status::Multiple));
}

/// Little Killers on the 9x9 (diagonal sums in both directions, digits may repeat, the short
/// corner diagonals among them, whose holes the enumeration rules out) with a few givens: CDCL
/// counts what depth-first search counts, up to 5.
#[test]
fn little_killer_counts_agree_with_depth_first_search() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
    let base = builtin::load("classic9").unwrap();
    let e = Engine::new(&base);
    let mut statuses = [0usize; 3];
    for round in 0..30 {
        let grid = crate::generate::grid::random_grid(&e, &mut rng, 100).unwrap();
        let mut shapes = Vec::new();
        for d in 1..9u32 {
            // the down-right diagonals from the top row and the down-left ones from the top row
            let right: Vec<u32> = (0..9 - d).map(|i| i * 9 + d + i).collect();
            let left: Vec<u32> = (0..=d).map(|i| i * 9 + d - i).collect();
            for (k, cells) in [right, left].into_iter().enumerate() {
                if cells.len() < 2 || (cells.len() > 4 && rng.gen_bool(0.6)) {
                    continue;
                }
                let mut total: i64 = cells.iter().map(|&c| grid[c as usize] as i64 + 1).sum();
                if rng.gen_bool(0.03) {
                    total += 1; // sometimes no planted solution
                }
                shapes.push(sum_shape(
                    format!("Little killer {d} {k}"),
                    cells,
                    total,
                    false,
                ));
            }
        }
        let mut givens = vec![None; 81];
        for _ in 0..rng.gen_range(8..20) {
            let c = rng.gen_range(0..81);
            givens[c] = Some(grid[c]);
        }
        let g = base.with_extra_shapes(shapes).unwrap();
        if let Some(count) = counts_agree_up_to_5(&g, &givens, 400_000, &format!("round {round}")) {
            statuses[(count as usize).min(2)] += 1;
        }
    }
    assert!(
        statuses[1] > 0 && statuses[2] > 0,
        "{statuses:?} (none, one, more)"
    );
}

/// Whether literal `l` of `s`'s encoding holds in the grid `grid` (a symbol index per cell).
fn holds_in(s: &Cdcl, l: Lit, grid: &[u8]) -> bool {
    let v = var(l);
    let truth = if v < s.map.count() {
        grid[s.map.cell(v)] as usize == s.map.symbol(v)
    } else if v == s.map.falsum() {
        false
    } else {
        let order = s
            .sums
            .as_ref()
            .and_then(|x| x.order.as_deref())
            .expect("order variables");
        let c = order.cell_of[v - order.first];
        let k = v - order.start[c as usize] as usize + 1;
        order.rank[grid[c as usize] as usize] as usize >= k
    };
    truth == (l & 1 == 0)
}

/// Every clause CDCL stores on a model with sum shapes (learnt ones with the literals one true
/// literal forbade resolved into its negation among them) and every root fact holds in every
/// solution not yet found: checked after each solution and at the end against the brute-force
/// grids of random 4x4 sum models (symbols may repeat in half of the shapes).
#[test]
fn learnt_clauses_hold_in_every_solution_not_yet_found() {
    learnt_clauses_hold(false);
}

/// [`learnt_clauses_hold_in_every_solution_not_yet_found`] with a round of vivification
/// without budget before each search ([`super::vivify`]): the shortened clauses hold too.
#[test]
fn vivified_clauses_hold_in_every_solution_not_yet_found() {
    learnt_clauses_hold(true);
}

/// The check of the two tests above, with or without vivification rounds.
fn learnt_clauses_hold(vivify: bool) {
    let grids = all_4x4_grids();
    let base = builtin::load("classic4").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let (mut learnt, mut grouped, mut shortened) = (0usize, 0u64, 0u64);
    for round in 0..300 {
        let planted = &grids[rng.gen_range(0..grids.len())];
        let mut shapes = Vec::new();
        for k in 0..rng.gen_range(2..=5) {
            let mut cells: Vec<u32> = (0..16).collect();
            cells.shuffle(&mut rng);
            cells.truncate(rng.gen_range(2..=6));
            cells.sort_unstable();
            let total: i64 = cells.iter().map(|&c| planted[c as usize] as i64 + 1).sum();
            shapes.push(sum_shape(format!("S{k}"), cells, total, false));
        }
        let sums: Vec<(Vec<usize>, i64)> = shapes
            .iter()
            .map(|s| {
                let Rule::Sum { total, .. } = s.rule else {
                    unreachable!()
                };
                (s.cells.iter().map(|c| c.index()).collect(), total)
            })
            .collect();
        let mut left: Vec<&Vec<u8>> = grids
            .iter()
            .filter(|g| {
                sums.iter().all(|(cells, total)| {
                    cells.iter().map(|&c| g[c] as i64 + 1).sum::<i64>() == *total
                })
            })
            .collect();
        let g = base.with_extra_shapes(shapes).unwrap();
        let e = Engine::new(&g);
        let root = crate::engine::search::Searcher::new(&e)
            .initial(&[None; 16])
            .expect("a planted solution");
        let mut s = Cdcl::new(&e, &root).expect("an encoding");
        let budget = crate::engine::Budget::from(Limits::none());
        loop {
            for meta in s.clauses.iter().filter(|m| !m.deleted) {
                let lits = &s.lits[meta.start as usize..(meta.start + meta.len) as usize];
                for grid in &left {
                    assert!(
                        lits.iter().any(|&l| holds_in(&s, l, grid)),
                        "round {round}: {lits:?}"
                    );
                }
            }
            for &l in &s.trail {
                assert!(
                    left.iter().all(|grid| holds_in(&s, l, grid)),
                    "round {round}: root {l}"
                );
            }
            if vivify {
                s.vivify_within(u64::MAX);
                if !s.ok {
                    break;
                }
            }
            match s.solve(&budget) {
                Outcome::Solution(sol) => {
                    let at = left
                        .iter()
                        .position(|g| **g == sol)
                        .expect("a solution of the model");
                    left.swap_remove(at);
                    s.exclude(&sol);
                }
                Outcome::Exhausted => break,
                Outcome::Unknown => unreachable!("no budget"),
            }
        }
        assert!(
            left.is_empty(),
            "round {round}: {} solutions missed",
            left.len()
        );
        learnt += s.clauses.iter().filter(|m| m.learnt).count();
        grouped += s.grouped;
        shortened += s.vivify.shortened;
    }
    assert!(
        learnt > 100 && grouped > 100,
        "{learnt} learnt clauses, {grouped} grouped literals"
    );
    assert!(!vivify || shortened > 100, "{shortened} clauses shortened");
}

/// Every explanation the linear relaxation of the sums gives ([`super::linear`]) holds in the
/// solution of Little Killers whose search uses it (seeds 6 and 27 of the hard-sum bench set:
/// unique, so a clause that holds in the solution is implied by the model); the solution keeps
/// every rule and the count is one.
#[test]
fn linear_explanations_hold_in_the_solution() {
    let set = include_str!("../../../benches/hardsums/little_killers.jsonl");
    let mut explained = 0;
    for line in set
        .lines()
        .filter(|l| l.contains("(seed 6)") || l.contains("(seed 27)"))
    {
        let p = crate::puzzle::json::from_json(line).expect("a model");
        let e = Engine::new(&p.geometry);
        let root = crate::engine::search::Searcher::new(&e)
            .initial(&p.givens)
            .expect("a root");
        let mut s = Cdcl::new(&e, &root).expect("an encoding");
        let count = s.count(2, Limits::none());
        assert_eq!(count.count, 1);
        let sol = &count.solutions[0];
        let full: Vec<Option<u8>> = sol.iter().map(|&v| Some(v)).collect();
        assert!(crate::puzzle::conflicts_of(&p.geometry, &full).is_empty());
        let lin = s.linear.as_ref().expect("a relaxation");
        for clause in &lin.log {
            assert!(clause.iter().any(|&l| holds_in(&s, l, sol)), "{clause:?}");
        }
        explained += lin.log.len();
    }
    assert!(explained > 100, "{explained} explanations");
}
