//! The drop step of Killer generation with one solver for every check: each cage is checked
//! (can the puzzle without it have a second solution?) by one conflict-driven solver whose
//! cages are guarded sum shapes ([`crate::engine::cdcl`]'s solving under assumptions). A check
//! switches on the cages still in question but the one checked and asks for a solution that
//! differs from the known one inside that cage; what the solver learns about the rest of the
//! puzzle stays valid for the next checks, since dropping a cage only weakens the puzzle.
//!
//! A cage whose check finds a second solution is kept for good (its guard fixed true), with the
//! solution as its certificate, after an independent check that it solves the puzzle without
//! the cage; a cage whose check finds none is dropped for good (its guard fixed false). The
//! law-of-45 shapes derived from the first set of cages are guarded too, each switched on in
//! the checks where every cage it depends on is on. The checks run in passes of growing
//! budgets, as the per-check path of [`super::killer`] does; on a layout of several grids a
//! cage is first checked inside its window ([`super::killer::window`]), the cells outside it
//! assumed to hold the known solution (a solution found there is a certificate like any other).
//!
//! [`drop_with_one_solver`] returns `None` for models the solver cannot take (propagators other
//! than unique and sum shapes): [`super::killer`] then checks cage by cage. To change the
//! checks' order or budgets, change the passes here.

use super::killer::{build, window, Cages, Certs, WINDOW_DEPTH, WINDOW_SHARE};
use super::GenerateError;
use crate::engine::cdcl::{guarded_engine, Cdcl, Outcome};
use crate::engine::search::Searcher;
use crate::engine::{Budget, Engine, Limits, Options};
use crate::geometry::Geometry;

/// A cage's state in the drop step.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not settled yet: on in every other cage's check.
    Open,
    /// Kept for good, with a certificate (or for want of one: its check never ended).
    Kept,
    /// Dropped for good.
    Dropped,
}

/// Drops the cages the puzzle does not need (with `drop_cages`; else they stay, and the puzzle
/// is not minimal) and finds a certificate for every cage kept, checking the cages in `order`
/// in passes of the node budgets `passes` (the last pass's undecided cages stay, and the puzzle
/// is not marked minimal). `None` when the model has other propagators than unique and sum
/// shapes.
pub(super) fn drop_with_one_solver(
    cages: &mut Cages,
    base: &Geometry,
    solution: &[u8],
    order: &[usize],
    drop_cages: bool,
    passes: &[Limits],
    deadline: Option<std::time::Instant>,
) -> Result<Option<(Certs, bool)>, GenerateError> {
    let g = build(base, cages, solution)?;
    let (e, deps) = guarded_engine(&g, base);
    let n_cages = deps.iter().take_while(|d| d.is_empty()).count();
    let plain = Engine::with_options(base, no_derived());
    let Some(root) = Searcher::new(&plain).initial(&vec![None; solution.len()]) else {
        return Ok(None);
    };
    if !e.props.is_empty() || e.n_complete == 0 {
        return Ok(None);
    }
    // the engine's sum shapes are the cages, in the geometry's order: found by their cells
    let shape_of = |cells: &[u32]| e.sums[..n_cages].iter().position(|s| s.cells == cells);
    let mut shapes = vec![usize::MAX; cages.cells.len()];
    for (i, cells) in cages.live() {
        match shape_of(cells) {
            Some(k) => shapes[i] = k,
            None => return Ok(None),
        }
    }
    let Some(mut solver) = Cdcl::guarded(&e, &root, e.sums.len()) else {
        return Ok(None);
    };
    solver.exclude(solution);
    for (k, s) in e.sums[..n_cages].iter().enumerate() {
        let guard = solver.extra(k);
        solver.add_guarded(guard, &s.cells, solution);
    }
    let mut state = vec![State::Open; n_cages];
    // derived shapes switched on for good (every cage they depend on kept)
    let mut fixed = vec![false; e.sums.len()];
    let mut certs: Certs = Vec::new();
    let mut minimal = true;
    let mut pending = order.to_vec();
    let mut assumptions = Vec::new();
    for (pass, limits) in passes.iter().enumerate() {
        let last = pass + 1 == passes.len();
        let mut undecided = Vec::new();
        for i in std::mem::take(&mut pending) {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Err(GenerateError::Deadline);
            }
            let k = shapes[i];
            switched_on(&mut solver, &deps, &state, &mut fixed, k, &mut assumptions);
            assumptions.push(solver.extra(k));
            let mut budget = Budget::from(*limits);
            if let Some(d) = deadline {
                budget.deadline = Some(budget.deadline.map_or(d, |b| b.min(d)));
            }
            let mut out = Outcome::Unknown;
            // first inside the cage's window, the cells outside it fixed to the solution
            let inside = window(&plain, &e.sums[k].cells, WINDOW_DEPTH);
            if inside.len() < solution.len() {
                let guards = assumptions.len();
                for (c, &t) in solution.iter().enumerate() {
                    if inside.binary_search(&(c as u32)).is_err() {
                        assumptions.push(solver.holds(c, t));
                    }
                }
                solver.assume(&assumptions);
                let small = Budget {
                    max_nodes: (limits.max_nodes.unwrap_or(u64::MAX) / WINDOW_SHARE).max(1),
                    ..budget
                };
                out = solve_within(&mut solver, small);
                if !matches!(out, Outcome::Solution(_)) {
                    out = Outcome::Unknown;
                }
                assumptions.truncate(guards);
            }
            if !matches!(out, Outcome::Solution(_)) {
                solver.assume(&assumptions);
                out = solve_within(&mut solver, budget);
            }
            match out {
                Outcome::Solution(other) => {
                    state[k] = State::Kept;
                    solver.fix(solver.guard(k));
                    if solves_without(base, cages, i, solution, &other)? {
                        certs.push((i, other));
                    } else {
                        debug_assert!(false, "a certificate that is no solution");
                        minimal = false;
                    }
                }
                Outcome::Exhausted if drop_cages => {
                    state[k] = State::Dropped;
                    solver.fix(solver.guard(k) ^ 1);
                    cages.cells[i] = None;
                }
                Outcome::Exhausted => {
                    minimal = false;
                    state[k] = State::Kept;
                    solver.fix(solver.guard(k));
                }
                Outcome::Unknown if !last => undecided.push(i),
                Outcome::Unknown => minimal = false,
            }
        }
        pending = undecided;
    }
    Ok(Some((certs, minimal)))
}

/// The guards a check of cage `k` assumes, into `out`: the open cages but `k`, and the
/// derived shapes none of whose cages is `k` or dropped (switched on for good, in `fixed`,
/// once all their cages are kept).
fn switched_on(
    solver: &mut Cdcl,
    deps: &[Vec<u32>],
    state: &[State],
    fixed: &mut [bool],
    k: usize,
    out: &mut Vec<u32>,
) {
    out.clear();
    out.extend(
        (0..state.len())
            .filter(|&j| j != k && state[j] == State::Open)
            .map(|j| solver.guard(j)),
    );
    for d in state.len()..deps.len() {
        if fixed[d] {
            continue;
        }
        let on = |j: &u32| state[*j as usize];
        if deps[d].iter().all(|j| on(j) == State::Kept) {
            fixed[d] = true;
            solver.fix(solver.guard(d));
        } else if deps[d]
            .iter()
            .all(|j| *j as usize != k && on(j) != State::Dropped)
        {
            out.push(solver.guard(d));
        }
    }
}

fn no_derived() -> Options {
    Options {
        derived: false,
        ..Options::default()
    }
}

/// Whether `other` differs from `solution` in cage `i` and solves the puzzle of `cages`
/// without cage `i` (checked on its own engine, every cell given).
fn solves_without(
    base: &Geometry,
    cages: &mut Cages,
    i: usize,
    solution: &[u8],
    other: &[u8],
) -> Result<bool, GenerateError> {
    let Some(cells) = cages.cells[i].take() else {
        return Ok(false);
    };
    let differs = cells
        .iter()
        .any(|&c| other[c as usize] != solution[c as usize]);
    let g = build(base, cages, solution);
    cages.cells[i] = Some(cells);
    let e = Engine::with_options(&g?, no_derived());
    let full: Vec<Option<u8>> = other.iter().map(|&v| Some(v)).collect();
    let count = e.count(&full, 2, Limits::none());
    Ok(differs && count.count == 1 && count.complete)
}

/// Runs `solver` under `budget`, its node budget counted from the decisions made so far.
fn solve_within(solver: &mut Cdcl, mut budget: Budget) -> Outcome {
    budget.max_nodes = budget.max_nodes.saturating_add(solver.decisions());
    solver.solve(&budget)
}
