//! Logical solving: human-style rules applied one step at a time, step-by-step explanations,
//! hints and a difficulty rating.
//!
//! Everything here works on the geometry-free [`Board`]: candidates per cell and shapes as cell
//! lists with their rule. The rules (internal module `rules`) follow Sudoku Explainer's ladder,
//! cheapest first: hidden single, naked single, cage combinations, overlap (pointing/claiming
//! between any two shapes), naked and hidden subsets of every size up to half a shape's empty
//! cells, fish of size 2–4 on any shapes, almost locked sets (the wings, ALS-XZ and ALS
//! chains), unique rectangles and the BUG,
//! forcing chains and cycles (grouped too), and forcing nets: Nishio, cell and region, dynamic
//! and nested. When no rule applies, the remaining puzzle is finished by the engine's search and
//! that is reported as one `Search` step.
//!
//! [`Logic::solve`] returns the whole path; [`Logic::next_step`] one step (a hint);
//! [`Path::rating`] turns a path into a score and a named [`Level`] (the scale is documented in
//! the internal `rate` module). A [`Budget`] (time, trial assumptions) bounds a solve: when it
//! runs out the steps found so far come back in [`LogicError::Stopped`].
//!
//! ```
//! use anydoku::logic::{Level, Logic};
//! use anydoku::{Geometry, Puzzle};
//! use std::sync::Arc;
//!
//! let g = Arc::new(Geometry::builtin("classic9").unwrap());
//! let p = Puzzle::from_text(g,
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..").unwrap();
//! let path = Logic::all(p.geometry.symbol_count()).solve(&p.geometry, &p.givens, None).unwrap();
//! assert!(path.solved && !path.search);
//! assert_eq!(path.rating().level, Level::Easy);
//! ```

internal_mod!(board);
internal_mod!(budget);
internal_mod!(rate);
internal_mod!(rules);
internal_mod!(step);

pub use board::{Board, Contradiction, LShape};
pub use budget::Budget;
pub(crate) use budget::Cx;
pub use rate::{Level, Rating};
pub use step::{Family, Step};

use crate::engine::{Engine, Limits, Status};
use crate::geometry::Geometry;
use rules::LogicRule;

/// Whether a family's rules assume the puzzle has exactly one solution.
pub(crate) fn assumes_uniqueness(f: Family) -> bool {
    f == Family::Uniqueness
}

impl Family {
    /// Whether the family's rules assume the puzzle has exactly one solution (so a hint on a
    /// puzzle that may have several must not use them).
    pub fn assumes_uniqueness(self) -> bool {
        assumes_uniqueness(self)
    }
}

/// Why a logical solution could not be produced.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LogicError {
    /// The givens break a rule or leave no solution.
    #[error("the puzzle cannot be solved: {0}")]
    Unsolvable(String),
    /// The puzzle has more than one solution, so not every step can be forced.
    #[error("the puzzle has more than one solution")]
    Multiple,
    /// The search budget ran out while finishing the puzzle.
    #[error("the search budget ran out")]
    Unknown,
    /// The budget ran out before the rules finished: the steps found so far.
    #[error("the budget ran out after {} steps", .0.steps.len())]
    Stopped(Box<Path>),
    /// A rule contradicted the known solution (a bug; only with a solution to check against).
    #[error("step {index} is wrong: {text}")]
    WrongStep {
        /// The step's position in the path.
        index: usize,
        /// The step, described.
        text: String,
    },
}

/// A logical solution path.
#[derive(Debug, Clone)]
pub struct Path {
    /// The board before the first step.
    pub start: Board,
    /// The board after the last step.
    pub end: Board,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Whether the rules alone solved it (no search step).
    pub solved: bool,
    /// Whether search was needed.
    pub search: bool,
}

impl Path {
    /// The difficulty of the path: a score and a named level.
    pub fn rating(&self) -> Rating {
        rate::rate(self)
    }

    /// A path that stopped before the grid was full; `search` says whether its last step is a
    /// search step.
    fn unfinished(start: Board, end: Board, steps: Vec<Step>, search: bool) -> Path {
        Path {
            start,
            end,
            steps,
            solved: false,
            search,
        }
    }
}

/// A rule set.
pub struct Logic {
    rules: Vec<Box<dyn LogicRule>>,
    /// The budget of a solve (the rules and the engine searches); unlimited by default.
    limits: Limits,
}

/// Per rule, the board stamp of its last search that found nothing (0: none yet).
struct Memo(Vec<u32>);

impl Logic {
    /// Every rule, for a geometry with `n_symbols` symbols.
    pub fn all(n_symbols: usize) -> Self {
        Self::with_families(n_symbols, &Family::ALL)
    }

    /// Only the given families (singles are always included).
    pub fn with_families(n_symbols: usize, families: &[Family]) -> Self {
        Logic {
            rules: rules::standard(n_symbols, families),
            limits: Limits::none(),
        }
    }

    /// Only the rules lighter than `max_weight`.
    pub fn below(mut self, max_weight: f64) -> Self {
        self.rules.retain(|r| r.min_weight() < max_weight);
        self
    }

    /// The same rules with a budget for each solve (rules and engine searches together).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The budget of each solve.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The next step (a hint): the lightest step of the rules tried in order of their smallest
    /// weight, stopping once no later rule can be lighter than the best step found, or once a
    /// chain is found (as Sudoku Explainer does: a heavier kind of chain is not searched for a
    /// lighter step).
    pub fn next_step(&self, b: &Board) -> Option<Step> {
        self.next_step_within(b, &Budget::new(self.limits))
    }

    /// [`Logic::next_step`] within a budget (`None` also when it ran out: see
    /// [`Budget::is_out`]).
    pub fn next_step_within(&self, b: &Board, budget: &Budget) -> Option<Step> {
        let mut memo = Memo(vec![0; self.rules.len()]);
        self.step(b, budget, &mut memo, 0.0)
    }

    /// The step after a path whose hardest step weighs `hardest`: the lightest one, except
    /// that on a board with sum shapes a rule whose [`LogicRule::early_past`] is below
    /// `hardest` goes first among its family, and its step, if any, is taken. Such a path
    /// already needed a heavy net, and the family's lighter rules mostly fail on its boards
    /// one after another before that rule finds a step.
    fn step(&self, b: &Board, budget: &Budget, memo: &mut Memo, hardest: f64) -> Option<Step> {
        let mut best: Option<Step> = None;
        // as in SE, a step of the chain rules ends the search: a heavier kind of chain is not
        // tried in the hope of a lighter step
        let mut chained = false;
        let sums = b.shapes.iter().any(|s| s.sum.is_some());
        let mut early =
            (self.rules.iter()).position(|r| sums && r.early_past().is_some_and(|w| hardest > w));
        // the early rule, once it found nothing on the whole board
        let mut skip = None;
        for (i, r) in self.rules.iter().enumerate() {
            let cap = best.as_ref().map_or(f64::INFINITY, |s| s.weight);
            if r.min_weight() >= cap || chained || budget.is_out() {
                break;
            }
            if let Some(j) = early.filter(|&j| self.rules[j].family() == r.family()) {
                early = None;
                let mut cx = Cx::new(budget);
                cx.cap = cap;
                if let Some(s) = self.rules[j].find(b, &mut cx).filter(Step::is_progress) {
                    return Some(s);
                }
                skip = cx.exhaustive.then_some(j);
            }
            if skip == Some(i) {
                continue;
            }
            let mut cx = Cx::new(budget);
            cx.since = memo.0[i];
            cx.cap = cap;
            match r.find(b, &mut cx).filter(Step::is_progress) {
                Some(s) if s.weight < cap => {
                    chained = r.min_weight() >= rate::CYCLE;
                    best = Some(s);
                }
                Some(_) => {}
                None if cx.exhaustive => memo.0[i] = b.stamp(),
                None => {}
            }
        }
        best
    }

    /// Solves step by step; when the rules are stuck, the engine finishes (a `Search` step).
    /// With `solution`, every step is checked against it (a wrong step is an error).
    pub fn solve(
        &self,
        g: &Geometry,
        givens: &[Option<u8>],
        solution: Option<&[u8]>,
    ) -> Result<Path, LogicError> {
        self.solve_within(g, givens, solution, &Budget::new(self.limits))
    }

    /// [`Logic::solve`] within a budget shared with the caller.
    pub fn solve_within(
        &self,
        g: &Geometry,
        givens: &[Option<u8>],
        solution: Option<&[u8]>,
        budget: &Budget,
    ) -> Result<Path, LogicError> {
        self.solve_until(g, givens, solution, budget, Until::Solved)
    }

    /// [`Logic::solve_within`], or less: with [`Until::Weight`], the solve stops after the
    /// first step that rates at least that weight (rounded to tenths), and when the rules are
    /// stuck it does not search; either way the path comes back unsolved and without search.
    /// While every step is lighter, the steps are those of a full solve: the rules are tried
    /// in the same order, so generation can stop rating a puzzle that is harder than it wants.
    pub(crate) fn solve_until(
        &self,
        g: &Geometry,
        givens: &[Option<u8>],
        solution: Option<&[u8]>,
        budget: &Budget,
        until: Until,
    ) -> Result<Path, LogicError> {
        let mut b = Board::new(g, givens).map_err(|c| LogicError::Unsolvable(c.0))?;
        let start = b.clone();
        let mut steps = Vec::new();
        let mut memo = Memo(vec![0; self.rules.len()]);
        let mut hardest = 0.0f64;
        // a partial solve against a known solution checks every step against it, so the board
        // always holds that solution: no contradiction to look for (generation judges many
        // puzzles this way, and the scan is a fifth of its time)
        let checked = solution.is_some() && until != Until::Solved;
        loop {
            if !checked {
                if let Some(c) = b.contradiction() {
                    return Err(LogicError::Unsolvable(c.0));
                }
            }
            if b.is_solved() {
                let grid: Vec<Option<u8>> = b.value.clone();
                if !crate::puzzle::conflicts_of(g, &grid).is_empty() {
                    return Err(LogicError::Unsolvable(
                        "the filled grid breaks a sum".into(),
                    ));
                }
                return Ok(Path {
                    start,
                    end: b,
                    steps,
                    solved: true,
                    search: false,
                });
            }
            let next = self.step(&b, budget, &mut memo, hardest);
            if budget.is_out() {
                return Err(LogicError::Stopped(Box::new(Path::unfinished(
                    start, b, steps, false,
                ))));
            }
            let step = match next {
                Some(s) => s,
                None if until != Until::Solved => {
                    return Ok(Path::unfinished(start, b, steps, false));
                }
                None => {
                    let step = search_step(g, &b, budget.remaining())?;
                    if let Some(sol) = solution {
                        check(&b, &step, sol, steps.len())?;
                    }
                    b.apply(&step);
                    steps.push(step);
                    return Ok(Path::unfinished(start, b, steps, true));
                }
            };
            if let Some(sol) = solution {
                check(&b, &step, sol, steps.len())?;
            }
            b.apply(&step);
            hardest = hardest.max(step.weight);
            let heavy = matches!(until, Until::Weight(w) if rate::tenths(step.weight) >= w);
            steps.push(step);
            if heavy {
                return Ok(Path::unfinished(start, b, steps, false));
            }
        }
    }
}

/// How far [`Logic::solve_until`] goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Until {
    /// To the end, searching when the rules are stuck.
    Solved,
    /// Until a step rates at least this weight, or the rules are stuck (no search).
    Weight(f64),
}

/// Checks a step against a known solution.
fn check(b: &Board, step: &Step, sol: &[u8], index: usize) -> Result<(), LogicError> {
    let bad = step.placements.iter().any(|&(c, v)| sol[c] != v)
        || step.eliminations.iter().any(|&(c, v)| sol[c] == v);
    if bad {
        return Err(LogicError::WrongStep {
            index,
            text: step.describe(b),
        });
    }
    Ok(())
}

/// The engine finishes the puzzle from the current placements.
fn search_step(g: &Geometry, b: &Board, limits: Limits) -> Result<Step, LogicError> {
    let result = Engine::new(g).solve(&b.value, limits);
    match result.status() {
        Status::Unique => {}
        Status::Multiple => return Err(LogicError::Multiple),
        Status::NoSolution => return Err(LogicError::Unsolvable("no solution from here".into())),
        Status::Unknown => return Err(LogicError::Unknown),
    }
    let sol = &result.solutions[0];
    let placements: Vec<(usize, u8)> = (0..b.cell_count())
        .filter(|&c| b.value[c].is_none())
        .map(|c| (c, sol[c]))
        .collect();
    Ok(Step {
        rule: "Search".into(),
        family: Family::Search,
        size: placements.len(),
        weight: rate::SEARCH_WEIGHT,
        shapes: vec![],
        cells: placements.iter().map(|p| p.0).collect(),
        reason: format!(
            "no rule applies to the remaining {} empty cells; trial and error (the engine) completes them",
            placements.len()
        ),
        placements,
        eliminations: vec![],
    })
}
