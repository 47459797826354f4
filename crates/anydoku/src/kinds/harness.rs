//! The conformance tests every kind runs: one shared harness, called from the bottom of each
//! kind's module (`harness::conform(&MyKind, cases)`).
//!
//! Each case builds a small random layout (a few rows and columns of cells, three or four
//! symbols with random values, some rows and columns unique or none at all), plants one to three
//! random instances of the kind that a random grid satisfies ([`Kind::plant`]), and then checks:
//!
//! * **count**: the engine's solution count equals a brute-force count that knows nothing but
//!   the kinds' checkers ([`Kind::check`]): every assignment of symbols to cells is tried, a
//!   shape being checked as soon as its cells are filled (patterns, which read every cell, at
//!   the end);
//! * **planted solutions survive**: for every brute-force solution and random candidate sets
//!   that contain its symbols, the kind's propagators (one pass, and the whole propagation to a
//!   fixpoint from random givens of that solution) never remove one of its symbols.
//!
//! Half the cases plant instances from a grid that breaks the layout's unique shapes, so
//! layouts without any solution are tried too; about a third draw some cells off the unit grid
//! or two at one place, for the kinds that read positions.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{rule, Kind};
use crate::engine::constraint::pass;
use crate::engine::propagate::propagate;
use crate::engine::{Engine, Limits, Mask};
use crate::geometry::{Cell, CellId, Geometry, Rule, Shape, ShapeKind};
use crate::symbols::SymbolSet;

/// A small random layout: `rows` x `cols` board cells, unique rows and/or columns.
fn layout(rng: &mut ChaCha8Rng) -> (Vec<Cell>, Vec<Shape>, SymbolSet) {
    let k = rng.gen_range(3..=4usize);
    // (rows, cols, unique rows, unique columns): small enough to count by brute force
    let (rows, cols, by_row, by_col) = match rng.gen_range(0..5) {
        0 => (k, k, true, true),
        1 => (2, k, true, rng.gen_bool(0.5)),
        2 => (3, 3, true, rng.gen_bool(0.5)),
        3 => (1, k, rng.gen_bool(0.5), false),
        _ => (2, 3, false, false),
    };
    let values: Vec<i64> = if rng.gen_bool(0.5) {
        (1..=k as i64).collect()
    } else {
        // distinct values, not necessarily in order, possibly zero or negative
        let mut pool: Vec<i64> = (-2..=12).collect();
        pool.shuffle(rng);
        pool.truncate(k);
        pool
    };
    let names: Vec<String> = (1..=k).map(|i| i.to_string()).collect();
    let symbols = SymbolSet::from_list(names, Some(values)).expect("a symbol set");
    let mut cells = Vec::new();
    for r in 1..=rows as i32 {
        for c in 1..=cols as i32 {
            cells.push(Cell {
                name: format!("r{r}c{c}"),
                pos: [(c - 1) as f64, (r - 1) as f64],
                board: Some((r, c)),
                poly: None,
            });
        }
    }
    if rng.gen_bool(0.3) {
        awkward_positions(&mut cells, rng);
    }
    let id = |r: usize, c: usize| CellId((r * cols + c) as u32);
    let mut shapes = Vec::new();
    let unique = |name: String, cells: Vec<CellId>| Shape {
        name,
        rule: Rule::Unique,
        cells,
        kind: ShapeKind::Extra,
    };
    if by_row {
        for r in 0..rows {
            shapes.push(unique(
                format!("Row {r}"),
                (0..cols).map(|c| id(r, c)).collect(),
            ));
        }
    }
    if by_col {
        for c in 0..cols {
            shapes.push(unique(
                format!("Col {c}"),
                (0..rows).map(|r| id(r, c)).collect(),
            ));
        }
    }
    (cells, shapes, symbols)
}

/// Moves some cells' drawing positions off the unit grid: by a hair that rounds away to the
/// same thousandth or to the next one, and sometimes one cell onto another's place. The kinds
/// that read positions (patterns, planted lines) must then agree with their checkers too.
fn awkward_positions(cells: &mut [Cell], rng: &mut ChaCha8Rng) {
    const NUDGES: [f64; 6] = [0.0004, -0.0004, 0.0006, -0.0006, 0.0009, -0.0009];
    for cell in cells.iter_mut() {
        if rng.gen_bool(0.3) {
            cell.pos[rng.gen_range(0..2)] += NUDGES[rng.gen_range(0..NUDGES.len())];
        }
    }
    if cells.len() > 1 && rng.gen_bool(0.5) {
        let (a, b) = (rng.gen_range(0..cells.len()), rng.gen_range(0..cells.len()));
        cells[a].pos = cells[b].pos;
    }
}

/// Every solution of `g`, by brute force over the kinds' checkers alone.
pub(crate) fn brute_force(g: &Geometry) -> Vec<Vec<u8>> {
    let n = g.cell_count();
    // shapes to check once cell `c` is filled (the last of their cells), and at the end
    let mut due: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, s) in g.shapes.iter().enumerate() {
        let last = if super::of(&s.rule).is_pattern() {
            n - 1
        } else {
            s.cells.iter().map(|c| c.index()).max().unwrap_or(0)
        };
        due[last].push(i);
    }
    let mut grid = vec![0u8; n];
    let mut out = Vec::new();
    fn go(g: &Geometry, due: &[Vec<usize>], c: usize, grid: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if c == grid.len() {
            out.push(grid.clone());
            return;
        }
        for v in 0..g.symbol_count() as u8 {
            grid[c] = v;
            if due[c]
                .iter()
                .all(|&i| super::check(&g.shapes[i], g, grid).is_ok())
            {
                go(g, due, c + 1, grid, out);
            }
        }
    }
    go(g, &due, 0, &mut grid, &mut out);
    out
}

/// A grid for planting: a solution of the layout's unique shapes, or (`broken`) any grid.
fn planting_grid(g: &Geometry, rng: &mut ChaCha8Rng, broken: bool) -> Option<Vec<u8>> {
    if broken {
        let k = g.symbol_count() as u8;
        return Some((0..g.cell_count()).map(|_| rng.gen_range(0..k)).collect());
    }
    brute_force(g).choose(rng).cloned()
}

/// Runs `cases` conformance cases of `kind` (see the module docs).
pub(crate) fn conform(kind: &dyn Kind, cases: usize) {
    let id = super::by_name(kind.name())
        .expect("the kind is registered")
        .0;
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed ^ id as u64);
    let mut tried = 0;
    let mut solutions_seen = 0;
    for case in 0..cases * 20 {
        if tried == cases {
            break;
        }
        let (cells, mut shapes, symbols) = layout(&mut rng);
        let base = Geometry::new(
            "base".into(),
            symbols.clone(),
            cells.clone(),
            shapes.clone(),
        )
        .expect("a base layout");
        let Some(grid) = planting_grid(&base, &mut rng, case % 2 == 1) else {
            continue;
        };
        // sometimes other kinds' shapes too (the negative patterns leave their pairs alone)
        let (odds, most) = if kind.is_pattern() {
            (0.8, 3)
        } else {
            (0.4, 2)
        };
        if rng.gen_bool(odds) {
            for _ in 0..rng.gen_range(1..=most) {
                let other = super::KINDS[rng.gen_range(0..super::KINDS.len())];
                if other.is_pattern() {
                    continue;
                }
                let other_id = super::by_name(other.name()).expect("registered").0;
                if let Some((cells, params)) = other.plant(&base, &grid, &mut rng) {
                    shapes.push(Shape {
                        name: format!("{} (companion)", other.title()),
                        rule: rule(other_id, params),
                        cells,
                        kind: ShapeKind::Extra,
                    });
                }
            }
        }
        let before = shapes.len();
        // the kind is planted on the layout with its companions (a negative pattern sees their
        // pairs)
        let Ok(base) = Geometry::new(
            "base".into(),
            symbols.clone(),
            cells.clone(),
            shapes.clone(),
        ) else {
            continue;
        };
        let instances = if kind.is_pattern() {
            1
        } else {
            rng.gen_range(1..=3)
        };
        for i in 0..instances {
            if let Some((cells, params)) = kind.plant(&base, &grid, &mut rng) {
                shapes.push(Shape {
                    name: format!("{} {}", kind.title(), i + 1),
                    rule: rule(id, params),
                    cells,
                    kind: ShapeKind::Extra,
                });
            }
        }
        if shapes.len() == before {
            continue;
        }
        let g = match Geometry::new("case".into(), symbols, cells, shapes) {
            Ok(g) => g,
            // a planted instance the layout turns down (e.g. a repeat in a unique shape)
            Err(_) => continue,
        };
        tried += 1;
        let all = brute_force(&g);
        solutions_seen += all.len();
        let e = Engine::new(&g);
        let n = g.cell_count();
        let count = e.count(&vec![None; n], 100_000, Limits::none());
        assert!(count.complete);
        assert_eq!(
            count.count,
            all.len() as u64,
            "{}: case {case}: the engine counts {} solutions, brute force {}\n{:#?}",
            kind.name(),
            count.count,
            all.len(),
            g.shapes
        );
        for sol in &all {
            planted_survives(kind, &e, &g, sol, &mut rng, case);
        }
    }
    assert_eq!(
        tried,
        cases,
        "{}: too few cases could be planted",
        kind.name()
    );
    assert!(
        solutions_seen > 0,
        "{}: no case had a solution",
        kind.name()
    );
}

/// The kind's propagators, alone and in the whole propagation, keep every symbol of `sol`.
fn planted_survives(
    kind: &dyn Kind,
    e: &Engine,
    g: &Geometry,
    sol: &[u8],
    rng: &mut ChaCha8Rng,
    case: usize,
) {
    let n = g.cell_count();
    let full = e.full();
    for _ in 0..4 {
        // random candidates holding the solution's symbols
        let mut cand: Vec<Mask> = sol
            .iter()
            .map(|&v| (rng.gen::<u64>() & full) | (1 << v))
            .collect();
        let mut queue = Vec::new();
        let kept = pass(e, &mut cand, &mut queue);
        assert!(
            kept.is_some(),
            "{}: case {case}: a pass failed on {sol:?}",
            kind.name()
        );
        for c in 0..n {
            assert!(
                cand[c] & (1 << sol[c]) != 0,
                "{}: case {case}: one pass removed {} from {} of the solution {sol:?}\n{:#?}",
                kind.name(),
                sol[c],
                g.cells[c].name,
                g.shapes
            );
        }
        // givens of the solution, propagated to a fixpoint
        let mut cand = vec![full; n];
        let mut queue = Vec::new();
        for c in 0..n {
            if rng.gen_bool(0.3) {
                cand[c] = 1 << sol[c];
                queue.push(c as u32);
            }
        }
        assert!(
            propagate(e, &mut cand, &mut queue),
            "{}: case {case}: propagation failed under givens of {sol:?}",
            kind.name()
        );
        for c in 0..n {
            assert!(
                cand[c] & (1 << sol[c]) != 0,
                "{}: case {case}: propagation removed {} from {} of the solution {sol:?}",
                kind.name(),
                sol[c],
                g.cells[c].name
            );
        }
    }
}
