//! Generation: random complete grids, minimal puzzles, symmetric patterns, Killer cages.
//!
//! Everything works on any [`Geometry`]: a complete grid comes from a randomised search on the
//! empty board (internal module `grid`); a puzzle is that grid thinned out while its solution stays
//! unique (`minimal`), with fast checks that look for a solution *other* than the known one
//! (`unique`). When a check of the thinning needs CDCL (depth-first search did not settle it) on a
//! model without sum shapes, the grid's puzzle is built again the other way: givens added to an
//! empty puzzle until it is unique, then the unproven ones tested (`upward`), which keeps those
//! checks cheap; given patterns can follow a [`Symmetry`] of the layout's drawing positions; Killer
//! puzzles partition the grid into cages instead (`killer`, [`KillerOptions`]). With a difficulty,
//! the givens are thinned toward the level (`difficulty`): a removal that makes the puzzle harder
//! than the level waits, and ratings stop as soon as a step is too hard. Instances of constraint
//! kinds (thermometers, kropki dots, ...) can be planted on the complete grid first ([`Plant`],
//! internal module `plant`): they join the puzzle's layout, and the givens are thinned on the
//! engine that knows them. Every necessary given (or cage) comes with a *certificate*: the second
//! solution that appears without it.
//!
//! Results depend only on the seed and the puzzle index ([`Generator::generate_seeded`] uses
//! ChaCha8 with one stream per index), never on hash order or timing.
//!
//! To add a generation option, add a field to [`Options`], apply it in `Generator::attempt`,
//! and record it in the `source` object of [`Generated::to_json`].

internal_mod!(difficulty);
internal_mod!(grid);
mod harvest;
internal_mod!(killer);
mod killer_drop;
internal_mod!(minimal);
internal_mod!(plant);
internal_mod!(symmetry);
internal_mod!(unique);
internal_mod!(upward);

use std::sync::Arc;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

use crate::engine::{Engine, Limits};
use crate::geometry::{CellId, Geometry};
use crate::logic::rate::{Level, Rating};
use crate::puzzle::json::{grid_map, ModelJson};
use crate::puzzle::Puzzle;
use difficulty::{LevelJudge, Verdict};
pub use killer::KillerOptions;
pub use minimal::Progress;
use minimal::Thinning;
pub use plant::Plant;
pub use symmetry::Symmetry;

/// Why generation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The layout has no such symmetry.
    #[error("the layout has no {symmetry} symmetry: {reason}")]
    NoSymmetry {
        /// The symmetry asked for.
        symmetry: &'static str,
        /// Why the layout does not have it.
        reason: String,
    },
    /// A bad option value.
    #[error("{0}")]
    Option(String),
    /// The geometry has no complete grid at all.
    #[error("the geometry has no complete grid: its shapes contradict each other")]
    NoGrid,
    /// No grid tried gave a puzzle meeting the targets.
    #[error("no puzzle met the target after {attempts} grid(s): {detail}")]
    TargetNotReached {
        /// Grids tried.
        attempts: u32,
        /// What the closest attempt missed.
        detail: String,
    },
    /// A uniqueness check ran out of its search budget.
    #[error("a uniqueness check ran out of its search budget")]
    Budget,
    /// The deadline of [`Options::deadline`] passed.
    #[error("the time budget ran out")]
    Deadline,
}

/// What to generate.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Symmetry of the given pattern (ignored for Killer, which has no givens).
    pub symmetry: Symmetry,
    /// Stop removing givens at this count; if a minimal puzzle still has more, try other grids.
    pub target_givens: Option<usize>,
    /// How many grids to try for a target before giving up (at least 1).
    pub attempts: u32,
    /// Make a Killer puzzle (cages, no givens) instead of a givens puzzle.
    pub killer: Option<KillerOptions>,
    /// Constraint instances to plant on each complete grid before its givens are thinned
    /// (they become part of the puzzle's layout).
    pub plant: Vec<Plant>,
    /// Difficulty level the puzzle must rate at ([`Level`]): solvable by the rules of
    /// that level and needing its hardest ones. Grids are tried until one gives such a puzzle.
    pub difficulty: Option<Level>,
    /// Budget of each uniqueness check.
    pub limits: Limits,
    /// The end of the whole generation's time: every grid, check and rating stops there, and
    /// the puzzle being made is given up with [`GenerateError::Deadline`].
    pub deadline: Option<Instant>,
}

/// The difficulty levels by name, easiest first.
pub(crate) const LEVELS: &[Level] = &[
    Level::Easy,
    Level::Medium,
    Level::Hard,
    Level::Expert,
    Level::Master,
    Level::Search,
];

/// Parses a difficulty level name.
pub(crate) fn parse_level(name: &str) -> Result<Level, GenerateError> {
    LEVELS
        .iter()
        .copied()
        .find(|l| l.as_str().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            GenerateError::Option(format!(
                "unknown difficulty '{name}'; expected one of {}",
                LEVELS
                    .iter()
                    .map(|l| l.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

/// What a certificate proves necessary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removed {
    /// These givens (one cell, or a symmetry orbit).
    Givens(Vec<CellId>),
    /// This cage (a shape of the puzzle's geometry, by name).
    Cage(String),
}

/// A second solution that appears when something is removed from the puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    /// What was removed.
    pub removed: Removed,
    /// A solution of the puzzle without it that differs from the puzzle's own.
    pub solution: Vec<u8>,
}

/// A generated puzzle with its solution and certificates.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The puzzle (for Killer, its geometry holds the cages).
    pub puzzle: Puzzle,
    /// Its unique solution (symbol indices per cell).
    pub solution: Vec<u8>,
    /// One certificate per given (or symmetry orbit of givens) or cage.
    pub certificates: Vec<Certificate>,
    /// True when nothing more can be removed (every given or cage has a certificate).
    pub minimal: bool,
    /// Complete grids tried to reach the targets.
    pub grids: u32,
    /// The rating, when a difficulty was asked for.
    pub rating: Option<Rating>,
}

/// A generator for one geometry and set of options.
pub struct Generator {
    geometry: Arc<Geometry>,
    engine: Engine,
    orbits: Vec<Vec<u32>>,
    options: Options,
    neighbours: Vec<Vec<u32>>,
    /// The judge of [`Options::difficulty`].
    judge: Option<LevelJudge>,
}

impl Generator {
    /// Prepares a generator; fails when the options do not fit the geometry.
    pub fn new(geometry: Arc<Geometry>, options: Options) -> Result<Self, GenerateError> {
        let orbits = if options.killer.is_some() {
            Symmetry::None.orbits(&geometry)?
        } else {
            options.symmetry.orbits(&geometry)?
        };
        plant::validate(&options.plant)?;
        if options.killer.is_some() && !options.plant.is_empty() {
            return Err(GenerateError::Option(
                "planted constraints go with givens; a Killer puzzle has none".into(),
            ));
        }
        let neighbours = match &options.killer {
            Some(k) => {
                k.validate(&geometry)?;
                killer::neighbours(&geometry)
            }
            None => Vec::new(),
        };
        let judge = options
            .difficulty
            .map(|l| LevelJudge::new(geometry.symbol_count(), l, options.deadline));
        Ok(Generator {
            judge,
            engine: Engine::new(&geometry),
            geometry,
            orbits,
            options,
            neighbours,
        })
    }

    /// The random stream of puzzle number `index` for `seed`.
    pub(crate) fn rng(seed: u64, index: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(index);
        rng
    }

    /// Puzzle number `index` of `seed`: the same on every run and machine.
    pub fn generate_seeded(&self, seed: u64, index: u64) -> Result<Generated, GenerateError> {
        self.generate(&mut Self::rng(seed, index))
    }

    /// [`Generator::generate_seeded`], telling `progress` how the thinning of each grid goes
    /// (a minimal 25x25 takes minutes).
    pub fn generate_seeded_with_progress(
        &self,
        seed: u64,
        index: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Generated, GenerateError> {
        self.generate_with_progress(&mut Self::rng(seed, index), progress)
    }

    /// Generates one puzzle, trying new grids until the targets are met.
    pub fn generate<R: Rng>(&self, rng: &mut R) -> Result<Generated, GenerateError> {
        self.generate_with_progress(rng, &mut |_| {})
    }

    /// [`Generator::generate`], telling `progress` how the thinning of each grid goes.
    pub fn generate_with_progress<R: Rng>(
        &self,
        rng: &mut R,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Generated, GenerateError> {
        let attempts = self.options.attempts.max(1);
        let mut best: Option<usize> = None;
        let mut levels: Vec<Level> = Vec::new();
        for k in 1..=attempts {
            let (mut g, verdict) = self.attempt(rng, progress).map_err(|e| self.late(e))?;
            g.grids = k;
            let givens = g.puzzle.given_count();
            if let Some(t) = self.options.target_givens {
                if givens > t && self.options.killer.is_none() {
                    best = Some(best.map_or(givens, |b| b.min(givens)));
                    continue;
                }
            }
            if let Some(judge) = &self.judge {
                let verdict = match verdict {
                    Some(v) => v,
                    None => judge
                        .judge(&g.puzzle.geometry, &g.puzzle.givens, &g.solution)
                        .map_err(|e| self.late(e))?,
                };
                match verdict {
                    Verdict::Fits(r) => g.rating = Some(r),
                    Verdict::TooEasy(r) => {
                        levels.push(r.level);
                        continue;
                    }
                    Verdict::TooHard(l) => {
                        levels.push(l);
                        continue;
                    }
                }
            }
            return Ok(g);
        }
        let mut detail = Vec::new();
        if let (Some(t), Some(b)) = (self.options.target_givens, best) {
            detail.push(format!("the fewest givens reached was {b} (target {t})"));
        }
        if let Some(target) = self.options.difficulty {
            levels.sort();
            levels.dedup();
            let seen: Vec<&str> = levels.iter().map(|l| l.as_str()).collect();
            detail.push(format!(
                "no puzzle rated {} (seen: {})",
                target.as_str(),
                seen.join(", ")
            ));
        }
        Err(GenerateError::TargetNotReached {
            attempts,
            detail: detail.join("; "),
        })
    }

    /// One grid, one puzzle.
    /// `e`, or [`GenerateError::Deadline`] when the deadline has passed (whatever stopped
    /// first then, the deadline is why).
    fn late(&self, e: GenerateError) -> GenerateError {
        match self.options.deadline {
            Some(d) if Instant::now() >= d => GenerateError::Deadline,
            _ => e,
        }
    }

    /// One grid, one puzzle, with its verdict when it was thinned toward a level.
    fn attempt<R: Rng>(
        &self,
        rng: &mut R,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(Generated, Option<Verdict>), GenerateError> {
        let deadline = self.options.deadline;
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(GenerateError::Deadline);
        }
        let solution = grid::random_grid_until(&self.engine, rng, 1000, deadline)
            .ok_or(GenerateError::NoGrid)?;
        if let Some(k) = &self.options.killer {
            let made = killer::make(
                &self.geometry,
                &self.neighbours,
                &solution,
                k,
                self.options.limits,
                deadline,
                rng,
            )?;
            return Ok((made, None));
        }
        let planted = match self.options.plant.is_empty() {
            true => None,
            false => {
                let g = plant::plant(&self.geometry, &solution, &self.options.plant, rng)?;
                Some((Engine::new(&g), Arc::new(g)))
            }
        };
        let (engine, geometry) = match &planted {
            Some((e, g)) => (e, g),
            None => (&self.engine, &self.geometry),
        };
        let mut checker = unique::Checker::new(engine, self.options.limits);
        checker.set_deadline(deadline);
        // steer toward a level below search (search puzzles are what is left when no rule
        // applies: nothing to steer by); a target count of givens thins blindly
        let steer = self
            .judge
            .as_ref()
            .filter(|j| j.level() != Level::Search && self.options.target_givens.is_none());
        let (thinned, verdict) = match steer {
            Some(judge) => {
                let leveled = difficulty::thin_to_level(
                    &mut checker,
                    judge,
                    geometry,
                    &solution,
                    &self.orbits,
                    rng,
                    progress,
                )?;
                (leveled.thinned, Some(leveled.verdict))
            }
            None => {
                // thinned from the full grid until a check needs CDCL; then built upward (on
                // plain models: the upward build is not measured on planted sums)
                let plain = engine.sum_shapes().is_empty();
                checker.stop_before_cdcl(plain && self.options.target_givens.is_none());
                let thinned = match minimal::thin(
                    &mut checker,
                    &solution,
                    &self.orbits,
                    self.options.target_givens,
                    rng,
                    progress,
                )? {
                    Thinning::Made(thinned) => thinned,
                    Thinning::NeedsCdcl => {
                        checker.stop_before_cdcl(false);
                        upward::build(&mut checker, &solution, &self.orbits, rng, progress)?
                    }
                };
                (thinned, None)
            }
        };
        let certificates = thinned
            .certificates
            .into_iter()
            .map(|(orbit, s)| Certificate {
                removed: Removed::Givens(orbit.into_iter().map(CellId).collect()),
                solution: s,
            })
            .collect();
        let made = Generated {
            puzzle: Puzzle {
                geometry: geometry.clone(),
                givens: thinned.givens,
            },
            solution,
            certificates,
            minimal: thinned.minimal,
            grids: 1,
            rating: None,
        };
        Ok((made, verdict))
    }
}

/// The neutral JSON model of a generated puzzle, with `solution`, `certificates` (removed
/// givens or cage → second solution) and a `source` object recording how it was made.
pub(crate) fn to_model(g: &Generated, source: Map<String, Value>) -> ModelJson {
    let geom = &g.puzzle.geometry;
    let full = |s: &[u8]| -> Vec<Option<u8>> { s.iter().map(|&v| Some(v)).collect() };
    let mut model = crate::puzzle::json::to_model(&g.puzzle);
    model.solution = Some(Value::Object(grid_map(geom, &full(&g.solution))));
    let mut certs = Map::new();
    for c in &g.certificates {
        let key = match &c.removed {
            Removed::Givens(cells) => cells
                .iter()
                .map(|&id| geom.cell(id).name.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            Removed::Cage(name) => name.clone(),
        };
        certs.insert(key, Value::Object(grid_map(geom, &full(&c.solution))));
    }
    model.certificates = Some(Value::Object(certs));
    let mut source = source;
    source.insert("generator".into(), json!("anydoku"));
    source.insert("givens".into(), json!(g.puzzle.given_count()));
    source.insert("minimal".into(), json!(g.minimal));
    if let Some(r) = &g.rating {
        source.insert("rating".into(), r.to_json());
    }
    model.source = Some(Value::Object(source));
    model
}

impl Generated {
    /// The neutral JSON model of the puzzle (as [`Puzzle::to_json`]) with its `solution`, its
    /// `certificates` (each removed given or cage with the second solution it lets in) and
    /// `source`, an object recording how it was made (the caller's keys, then the options').
    pub fn to_json(&self, source: Map<String, Value>) -> Value {
        serde_json::to_value(to_model(self, source)).expect("the model serialises")
    }
}

impl std::str::FromStr for Level {
    type Err = GenerateError;

    /// A level by name (`easy`, `medium`, `hard`, `expert`, `master`, `search`; any case).
    fn from_str(name: &str) -> Result<Level, GenerateError> {
        parse_level(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;

    /// The progress callback hears of every removal once, in order, the last report giving the
    /// puzzle's given count; listening changes nothing about the puzzle made.
    #[test]
    fn progress_reports_every_removal_and_changes_nothing() {
        for (name, symmetry) in [
            ("classic9", Symmetry::None),
            ("classic6", Symmetry::None),
            ("classic9", Symmetry::Rotate180),
        ] {
            let g = Arc::new(builtin::load(name).unwrap());
            let options = Options {
                symmetry,
                ..Options::default()
            };
            let generator = Generator::new(g.clone(), options).unwrap();
            let mut seen: Vec<Progress> = Vec::new();
            let made = generator
                .generate_seeded_with_progress(3, 1, &mut |p| seen.push(p))
                .unwrap();
            let orbits = symmetry.orbits(&g).unwrap().len();
            let tested: Vec<usize> = seen.iter().map(|p| p.tested).collect();
            assert_eq!(tested, (1..=orbits).collect::<Vec<_>>(), "{name}");
            assert!(seen.iter().all(|p| p.orbits == orbits), "{name}");
            assert!(
                seen.windows(2).all(|w| w[1].givens <= w[0].givens),
                "{name}: givens left never grow"
            );
            assert_eq!(seen.last().unwrap().givens, made.puzzle.given_count());
            let quiet = generator.generate_seeded(3, 1).unwrap();
            assert_eq!(quiet.puzzle.givens, made.puzzle.givens, "{name}");
        }
    }
}
