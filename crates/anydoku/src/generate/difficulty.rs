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

use rand::Rng;

use super::minimal::{self, other_without, Progress, Thinned};
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
    /// When every judgement stops ([`GenerateError::Budget`]).
    deadline: Option<std::time::Instant>,
}

impl LevelJudge {
    /// A judge for `level` on boards of `n_symbols` symbols, whose rules stop at `deadline`.
    pub fn new(n_symbols: usize, level: Level, deadline: Option<std::time::Instant>) -> Self {
        let (lo, hi) = level.range();
        LevelJudge {
            logic: Logic::all(n_symbols).below(hi),
            level,
            lo,
            hi,
            deadline,
        }
    }

    /// The level judged against.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The verdict on a puzzle whose solution is known to be unique (`solution`, which checks
    /// every step).
    pub fn judge(
        &self,
        g: &Geometry,
        givens: &[Option<u8>],
        solution: &[u8],
    ) -> Result<Verdict, GenerateError> {
        let left = |d: std::time::Instant| d.saturating_duration_since(std::time::Instant::now());
        let budget = Budget::new(Limits {
            max_nodes: None,
            max_time: self.deadline.map(left),
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
    rng: &mut R,
    progress: &mut dyn FnMut(Progress),
) -> Result<Leveled, GenerateError> {
    let (mut givens, order) = minimal::start(solution, orbits, rng);
    let mut remaining = givens.len();
    let mut certificates = Vec::new();
    let mut deferred = Vec::new();
    for (k, &o) in order.iter().enumerate() {
        let orbit = &orbits[o];
        match other_without(checker, &mut givens, orbit, solution) {
            Other::Found(other) => certificates.push((orbit.clone(), other)),
            Other::Unknown => return Err(GenerateError::Budget),
            Other::NoneExists => {
                set(&mut givens, orbit, solution, false);
                match judge.judge(g, &givens, solution)? {
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
            building: false,
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
    let verdict = judge.judge(g, &givens, solution)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::generate::{grid, minimal, Symmetry};
    use crate::geometry::builtin;
    use rand::SeedableRng;

    /// The judge's verdict agrees with the full rating (every rule, to the end) on minimal 9x9
    /// puzzles of every level: it fits exactly when the level is the rating's, and a "too hard"
    /// level is never above the rating's.
    #[test]
    fn the_judge_agrees_with_the_full_rating() {
        let g = builtin::load("classic9").unwrap();
        let e = Engine::new(&g);
        let orbits = Symmetry::None.orbits(&g).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..24 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let sol = grid::random_grid(&e, &mut rng, 100).unwrap();
            let mut checker = Checker::new(&e, Limits::none());
            let t = minimal::thin(&mut checker, &sol, &orbits, None, &mut rng, &mut |_| {});
            let Ok(minimal::Thinning::Made(t)) = t else {
                panic!("no budget, no stop before CDCL: the thinning ends with a puzzle");
            };
            let givens = t.givens;
            let full = Logic::all(9)
                .solve(&g, &givens, Some(&sol))
                .unwrap()
                .rating();
            seen.insert(full.level);
            for level in [
                Level::Easy,
                Level::Medium,
                Level::Hard,
                Level::Expert,
                Level::Master,
            ] {
                let v = LevelJudge::new(9, level, None)
                    .judge(&g, &givens, &sol)
                    .unwrap();
                match v {
                    Verdict::Fits(r) => assert_eq!(r, full, "seed {seed} {level:?}"),
                    Verdict::TooEasy(r) => {
                        assert_eq!(r, full, "seed {seed}");
                        assert!(full.level < level, "seed {seed} {level:?}");
                    }
                    Verdict::TooHard(l) => {
                        assert!(full.level > level, "seed {seed} {level:?}: {full:?}");
                        assert!(l > level && l <= full.level, "seed {seed} {level:?}: {l:?}");
                    }
                }
            }
        }
        assert!(
            seen.len() >= 3,
            "the puzzles cover several levels: {seen:?}"
        );
    }

    /// Thinning toward a level gives a unique puzzle, minimal with a valid certificate per kept
    /// given, whose full rating is the verdict's; on 9x9 and on a small Samurai-like layout.
    #[test]
    fn thinning_toward_a_level_is_unique_minimal_and_rated_right() {
        let mut fits = 0;
        for (name, level, seeds) in [
            ("classic9", Level::Hard, 0..6),
            ("classic9", Level::Medium, 0..3),
            ("x", Level::Expert, 0..3),
            ("butterfly", Level::Hard, 0..2),
        ] {
            let g = builtin::load(name).unwrap();
            let e = Engine::new(&g);
            let orbits = Symmetry::None.orbits(&g).unwrap();
            let judge = LevelJudge::new(g.symbol_count(), level, None);
            for seed in seeds {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let sol = grid::random_grid(&e, &mut rng, 100).unwrap();
                let mut checker = Checker::new(&e, Limits::none());
                let made = thin_to_level(
                    &mut checker,
                    &judge,
                    &g,
                    &sol,
                    &orbits,
                    &mut rng,
                    &mut |_| {},
                )
                .unwrap();
                let givens = &made.thinned.givens;
                assert_eq!(e.count(givens, 2, Limits::none()).count, 1, "{name} {seed}");
                let kept = givens.iter().filter(|v| v.is_some()).count();
                assert!(made.thinned.minimal);
                assert_eq!(made.thinned.certificates.len(), kept, "{name} {seed}");
                for (orbit, other) in &made.thinned.certificates {
                    let c = orbit[0] as usize;
                    assert!(givens[c].is_some() && other[c] != sol[c], "{name} {seed}");
                    let agrees = givens
                        .iter()
                        .enumerate()
                        .all(|(i, v)| i == c || v.is_none_or(|v| other[i] == v));
                    assert!(
                        agrees,
                        "{name} {seed}: the certificate keeps the other givens"
                    );
                    let full: Vec<Option<u8>> = other.iter().map(|&v| Some(v)).collect();
                    assert_eq!(e.count(&full, 2, Limits::none()).count, 1, "a solution");
                }
                let rating = Logic::all(g.symbol_count())
                    .solve(&g, givens, Some(&sol))
                    .unwrap()
                    .rating();
                match made.verdict {
                    Verdict::Fits(r) => {
                        assert_eq!(r, rating, "{name} {seed}");
                        assert_eq!(rating.level, level, "{name} {seed}");
                        fits += 1;
                    }
                    Verdict::TooEasy(_) => assert!(rating.level < level, "{name} {seed}"),
                    Verdict::TooHard(_) => assert!(rating.level > level, "{name} {seed}"),
                }
            }
        }
        // a thinning may miss (a deferred given that stays unnecessary must go at the end)
        assert!(fits >= 1, "no thinning reached its level");
    }
}
