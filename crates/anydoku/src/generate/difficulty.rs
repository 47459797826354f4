//! Generation by difficulty: puzzles thinned toward a level, instead of made minimal blindly and
//! thrown away when their rating misses.
//!
//! A level is a range of scores `[lo, hi)` ([`Level::range`]). To judge a puzzle against it the
//! [`LevelJudge`] runs only the rules lighter than `hi`, and stops at the first step that rates
//! `hi` or more ([`Logic::solve_until`]). While every step is lighter, that path is the full
//! rater's path (the rules are tried in the same order, and a heavier rule is only reached when
//! no lighter step exists), so a puzzle that finishes this way rates exactly as `anydoku rate`
//! rates it; one that does not is harder than the level, found without running the chain and
//! net searches that a full rating of a hard puzzle spends its time in.
//!
//! [`thin_to_level`] removes givens orbit by orbit in random order, as `minimal` does, but keeps
//! a removal only while the puzzle stays unique *and* finishes below `hi`. An orbit whose removal
//! leaves the solution unique but the puzzle too hard is *deferred*. At the end every deferred
//! orbit is tested again: one that now has a second solution without it gets its certificate;
//! one that does not is removed after all (the puzzle must be minimal), and the puzzle is judged
//! again. So every puzzle that comes out is unique and minimal with a certificate per orbit, and
//! its rating is checked, never assumed.
//!
//! To steer another target (a score range inside a level, say), give the judge that range: the
//! thinning only needs "too hard or not" and the final verdict.

use rand::seq::SliceRandom;
use rand::Rng;

use super::minimal::{Progress, Thinned};
use super::unique::{Checker, Other};
use super::GenerateError;
use crate::engine::Limits;
use crate::geometry::Geometry;
use crate::logic::rate::{self, Level, Rating};
use crate::logic::{Budget, Logic, LogicError, Until};

/// A puzzle against a level.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// It rates in the level (the full rating).
    Fits(Rating),
    /// It finishes below the level (the full rating).
    TooEasy(Rating),
    /// It needs a step of the level above or search; the level of the heaviest step seen
    /// (a lower bound of its rating).
    TooHard(Level),
}

/// Judges puzzles of one geometry against one level (see the module documentation).
pub struct LevelJudge {
    logic: Logic,
    level: Level,
    lo: f64,
    hi: f64,
}

impl LevelJudge {
    /// A judge for `level` on boards of `n_symbols` symbols.
    pub fn new(n_symbols: usize, level: Level) -> Self {
        let (lo, hi) = level.range();
        LevelJudge {
            logic: Logic::all(n_symbols).below(hi),
            level,
            lo,
            hi,
        }
    }

    /// The level judged against.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The verdict on a puzzle whose solution is known to be unique (`solution`, which checks
    /// every step), its rules stopped at `deadline`.
    pub fn judge(
        &self,
        g: &Geometry,
        givens: &[Option<u8>],
        solution: &[u8],
        deadline: Option<std::time::Instant>,
    ) -> Result<Verdict, GenerateError> {
        let budget = Budget::new(Limits {
            max_nodes: None,
            max_time: deadline.map(|d| d.saturating_duration_since(std::time::Instant::now())),
        });
        let until = match self.hi.is_finite() {
            true => Until::Weight(self.hi),
            false => Until::Solved,
        };
        let path = match self
            .logic
            .solve_until(g, givens, Some(solution), &budget, until)
        {
            Ok(path) => path,
            Err(LogicError::Stopped(_) | LogicError::Unknown) => return Err(GenerateError::Budget),
            Err(e) => return Err(GenerateError::Option(format!("the rater failed: {e}"))),
        };
        let r = rate::rate(&path);
        if !path.solved && !path.search {
            // stopped at a heavy step, or stuck (then the next step is at least `hi`)
            return Ok(Verdict::TooHard(Level::of(r.score.max(self.hi))));
        }
        Ok(match r.score < self.lo && !r.search {
            true => Verdict::TooEasy(r),
            false if r.level == self.level => Verdict::Fits(r),
            false => Verdict::TooHard(r.level),
        })
    }
}

/// What [`thin_to_level`] made.
#[derive(Debug, Clone)]
pub struct Leveled {
    /// The minimal puzzle, with a certificate per kept orbit.
    pub thinned: Thinned,
    /// Its verdict.
    pub verdict: Verdict,
}

/// Thins the full `solution` to a minimal puzzle, steering toward the judge's level (see the
/// module documentation). `progress` hears of every orbit tested.
pub fn thin_to_level<R: Rng>(
    checker: &mut Checker,
    judge: &LevelJudge,
    g: &Geometry,
    solution: &[u8],
    orbits: &[Vec<u32>],
    deadline: Option<std::time::Instant>,
    rng: &mut R,
    progress: &mut dyn FnMut(Progress),
) -> Result<Leveled, GenerateError> {
    let mut givens: Vec<Option<u8>> = solution.iter().map(|&v| Some(v)).collect();
    let mut remaining = givens.len();
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    order.shuffle(rng);
    let mut certificates = Vec::new();
    let mut deferred = Vec::new();
    for (k, &o) in order.iter().enumerate() {
        let orbit = &orbits[o];
        match other_without(checker, &mut givens, orbit, solution) {
            Other::Found(other) => certificates.push((orbit.clone(), other)),
            Other::Unknown => return Err(GenerateError::Budget),
            Other::NoneExists => {
                set(&mut givens, orbit, solution, false);
                match judge.judge(g, &givens, solution, deadline)? {
                    Verdict::TooHard(_) => {
                        set(&mut givens, orbit, solution, true);
                        deferred.push(o);
                    }
                    _ => remaining -= orbit.len(),
                }
            }
        }
        progress(Progress {
            tested: k + 1,
            orbits: order.len(),
            givens: remaining,
        });
    }
    // a deferred orbit that is necessary now stays necessary (removing others only adds
    // solutions, so every certificate found holds for the final puzzle); one that is not must
    // go for the puzzle to be minimal
    for &o in &deferred {
        let orbit = &orbits[o];
        match other_without(checker, &mut givens, orbit, solution) {
            Other::Found(other) => certificates.push((orbit.clone(), other)),
            Other::Unknown => return Err(GenerateError::Budget),
            Other::NoneExists => set(&mut givens, orbit, solution, false),
        }
    }
    let verdict = judge.judge(g, &givens, solution, deadline)?;
    certificates.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Leveled {
        thinned: Thinned {
            givens,
            certificates,
            minimal: true,
        },
        verdict,
    })
}

/// Gives (`on`) or removes the givens of `orbit`.
fn set(givens: &mut [Option<u8>], orbit: &[u32], solution: &[u8], on: bool) {
    for &c in orbit {
        givens[c as usize] = on.then_some(solution[c as usize]);
    }
}

/// The checker's answer for `givens` without the givens of `orbit` (put back afterwards).
fn other_without(
    checker: &mut Checker,
    givens: &mut [Option<u8>],
    orbit: &[u32],
    solution: &[u8],
) -> Other {
    set(givens, orbit, solution, false);
    let other = checker.other_solution(givens, orbit, solution);
    set(givens, orbit, solution, true);
    other
}
