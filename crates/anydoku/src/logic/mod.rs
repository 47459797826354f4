//! Logical solving: human-style rules applied one step at a time, step-by-step explanations,
//! hints and a difficulty rating.
//!
//! Everything here works on the geometry-free [`Board`]: candidates per cell and shapes as cell
//! lists with their rule. The rules (internal module `rules`) are, cheapest first: hidden single, naked single,
//! cage combinations, overlap (pointing/claiming between any two shapes), naked and hidden
//! subsets of every size up to half a shape's empty cells, fish of size 2–4 on any shapes, and
//! alternating inference chains (X-chains, XY-chains, AIC). When no rule applies, the remaining
//! puzzle is finished by the engine's search and that is reported as one `Search` step.
//!
//! [`Logic::solve`] returns the whole path; [`Logic::next_step`] one step (a hint);
//! [`Path::rating`] turns a path into a score and a named [`Level`] (the scale is documented in
//! the internal `rate` module).
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
internal_mod!(rate);
internal_mod!(rules);
internal_mod!(step);

pub use board::{Board, Contradiction, LShape};
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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
}

/// A rule set.
pub struct Logic {
    rules: Vec<Box<dyn LogicRule>>,
    /// The budget of each engine search (the `Search` step); unlimited by default.
    limits: Limits,
}

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

    /// The same rules with a budget for each engine search (checks and the `Search` step).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The budget of each engine search.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The next step: the lightest step of the rules tried in order of their smallest weight,
    /// stopping once no later rule can be lighter than the best step found.
    pub fn next_step(&self, b: &Board) -> Option<Step> {
        let mut best: Option<Step> = None;
        for r in &self.rules {
            if best.as_ref().is_some_and(|s| r.min_weight() >= s.weight) {
                break;
            }
            if let Some(s) = r.find(b).filter(Step::is_progress) {
                if best.as_ref().is_none_or(|t| s.weight < t.weight) {
                    best = Some(s);
                }
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
        let mut b = Board::new(g, givens).map_err(|c| LogicError::Unsolvable(c.0))?;
        let start = b.clone();
        let mut steps = Vec::new();
        loop {
            if let Some(c) = b.contradiction() {
                return Err(LogicError::Unsolvable(c.0));
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
            let step = match self.next_step(&b) {
                Some(s) => s,
                None => {
                    let step = search_step(g, &b, self.limits)?;
                    if let Some(sol) = solution {
                        check(&b, &step, sol, steps.len())?;
                    }
                    b.apply(&step);
                    steps.push(step);
                    return Ok(Path {
                        start,
                        end: b,
                        steps,
                        solved: false,
                        search: true,
                    });
                }
            };
            if let Some(sol) = solution {
                check(&b, &step, sol, steps.len())?;
            }
            b.apply(&step);
            steps.push(step);
        }
    }
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
