//! Minimal puzzles built upward: givens are added to an empty puzzle until its solution is
//! unique, then the givens not proven necessary on the way are tested one by one.
//!
//! Every solution `S` of the puzzle so far other than the grid `G` is found by one CDCL solver,
//! kept across the whole build (givens only ever join, so everything it learnt stays true): the
//! clause "some cell differs from `G`", `G`'s symbols as phases (so `S` is close to `G`), and
//! each new given fixed at the root. `S` is kept in a *cache* as its difference set
//! `D(S) = {c : S[c] != G[c]}`, and one orbit of `D(S)` joins the givens: the one that spoils
//! the fewest certificates already cached. A cached `S` proves an orbit `o` necessary for free
//! whenever `D(S) ∩ givens` is not empty and lies inside `o`: `S` is then a solution of the
//! puzzle without `o` that differs from `G` there. Removing givens never breaks such a proof
//! (it only shrinks `D(S) ∩ givens` outside `o`).
//!
//! Once the puzzle is unique, each given orbit without such a proof gets the generator's own
//! check ([`Checker::other_solution`]): a certificate found joins the cache; a proof of
//! uniqueness removes the orbit (which may turn cached solutions into proofs for others).
//!
//! To change which orbit joins, or in which order the unproven orbits are tested, keep that
//! property: an orbit stays only with a certificate valid for the final puzzle.

use rand::seq::SliceRandom;
use rand::Rng;

use super::harvest::made_necessary;
use super::minimal::{other_without, Progress, Thinned};
use super::unique::{Checker, Other};
use super::GenerateError;
use crate::engine::cdcl::{Cdcl, Outcome};
use crate::engine::Searcher;

/// Cached solutions other than the grid, as difference sets (bitsets over the cells).
struct Cache {
    words: usize,
    /// Per cell: its orbit.
    orbit_of: Vec<u32>,
    /// Per cached solution: its difference set, and the solution.
    sets: Vec<(Vec<u64>, Vec<u8>)>,
    /// Per cell: the cached solutions that differ from the grid there.
    by_cell: Vec<Vec<u32>>,
    /// Per cached solution: the last walk ([`Cache::find_meeting`]) that met it.
    met: Vec<u32>,
    walk: u32,
}

impl Cache {
    fn new(orbit_of: Vec<u32>) -> Self {
        let cells = orbit_of.len();
        Cache {
            words: cells.div_ceil(64),
            orbit_of,
            sets: Vec::new(),
            by_cell: vec![Vec::new(); cells],
            met: Vec::new(),
            walk: 0,
        }
    }

    fn add(&mut self, other: Vec<u8>, solution: &[u8]) {
        let k = self.sets.len() as u32;
        let mut bits = vec![0u64; self.words];
        for (c, (a, b)) in other.iter().zip(solution).enumerate() {
            if a != b {
                bits[c / 64] |= 1 << (c % 64);
                self.by_cell[c].push(k);
            }
        }
        self.sets.push((bits, other));
        self.met.push(0);
    }

    /// The orbit that cached solution `k` proves necessary among `given` (a bitset): the one
    /// orbit its differences from the grid meet the givens in, if there is exactly one.
    fn proves(&self, k: u32, given: &[u64]) -> Option<u32> {
        let mut hit = None;
        for (w, (d, g)) in self.sets[k as usize].0.iter().zip(given).enumerate() {
            let mut m = d & g;
            while m != 0 {
                let o = self.orbit_of[w * 64 + m.trailing_zeros() as usize];
                m &= m - 1;
                if hit.is_some_and(|h| h != o) {
                    return None;
                }
                hit = Some(o);
            }
        }
        hit
    }

    /// The first cached solution differing from the grid inside `orbit` for which `stop`
    /// holds; each such solution is looked at once.
    fn find_meeting(
        &mut self,
        orbit: &[u32],
        mut stop: impl FnMut(&Self, u32) -> bool,
    ) -> Option<u32> {
        self.walk += 1;
        for &c in orbit {
            for i in 0..self.by_cell[c as usize].len() {
                let k = self.by_cell[c as usize][i];
                if self.met[k as usize] != self.walk {
                    self.met[k as usize] = self.walk;
                    if stop(self, k) {
                        return Some(k);
                    }
                }
            }
        }
        None
    }

    /// A cached solution proving `orbit` necessary among `given`.
    fn proof(&mut self, orbit: &[u32], given: &[u64]) -> Option<&Vec<u8>> {
        let o = self.orbit_of[orbit[0] as usize];
        let k = self.find_meeting(orbit, |cache, k| cache.proves(k, given) == Some(o))?;
        Some(&self.sets[k as usize].1)
    }

    /// How many cached solutions that now prove some orbit necessary would stop doing so if
    /// `orbit` joined the givens.
    fn spoils(&mut self, orbit: &[u32], given: &[u64]) -> usize {
        let o = self.orbit_of[orbit[0] as usize];
        let mut spoiled = 0;
        self.find_meeting(orbit, |cache, k| {
            if cache.proves(k, given).is_some_and(|h| h != o) {
                spoiled += 1;
            }
            false
        });
        spoiled
    }
}

/// The conflicts of a certificate search from which the second pass finds certificates as soon
/// as they exist ([`Build::remove_rest`]).
const DEAR: u64 = 2000;

/// A puzzle being built: its givens (as options and as a bitset) and the orbits given.
struct Build<'a> {
    solution: &'a [u8],
    orbits: &'a [Vec<u32>],
    cache: Cache,
    givens: Vec<Option<u8>>,
    given: Vec<u64>,
    /// The orbits given, in the order they joined.
    kept: Vec<usize>,
    /// Givens now.
    left: usize,
    /// Orbits settled so far (for [`Progress`]).
    settled: usize,
    /// Searches of [`made_necessary`] run.
    harvests: usize,
}

/// Builds a minimal puzzle of `solution` upward (see the module docs). `progress` hears of
/// every orbit once it is settled: at once for those never given, then for each given one when
/// it is proven necessary or removed; the givens left never grow between reports.
pub fn build<R: Rng>(
    checker: &mut Checker,
    solution: &[u8],
    orbits: &[Vec<u32>],
    rng: &mut R,
    progress: &mut dyn FnMut(Progress),
) -> Result<Thinned, GenerateError> {
    Ok(build_with(checker, solution, orbits, rng, progress, DEAR)?.0)
}

/// [`build`], switching to [`made_necessary`] once a certificate costs `dear` conflicts (see
/// [`Build::remove_rest`]); also returns how many of its searches ran (the tests try both ways).
fn build_with<R: Rng>(
    checker: &mut Checker,
    solution: &[u8],
    orbits: &[Vec<u32>],
    rng: &mut R,
    progress: &mut dyn FnMut(Progress),
    dear: u64,
) -> Result<(Thinned, usize), GenerateError> {
    let n = solution.len();
    let mut orbit_of = vec![0u32; n];
    for (k, o) in orbits.iter().enumerate() {
        for &c in o {
            orbit_of[c as usize] = k as u32;
        }
    }
    let cache = Cache::new(orbit_of);
    let given = vec![0u64; cache.words];
    let mut b = Build {
        solution,
        orbits,
        cache,
        givens: vec![None; n],
        given,
        kept: Vec::new(),
        left: 0,
        settled: 0,
        harvests: 0,
    };
    b.add_until_unique(checker, rng, progress)?;
    let mut never = vec![true; orbits.len()];
    for &o in &b.kept {
        never[o] = false;
    }
    for _ in never.iter().filter(|&&x| x) {
        b.report(progress);
    }
    // the orbits without a proof, in random order: first a pass that only looks for
    // certificates (cheaper while every given is there), then one that removes the rest
    let mut order = b.kept.clone();
    order.shuffle(rng);
    let removable = b.certify(checker, &order, progress)?;
    b.remove_rest(checker, &removable, dear, progress)?;
    let mut certificates = Vec::new();
    for &o in &b.kept {
        if b.givens[orbits[o][0] as usize].is_some() {
            let proof = b
                .cache
                .proof(&orbits[o], &b.given)
                .expect("every kept orbit is proven");
            certificates.push((orbits[o].clone(), proof.clone()));
        }
    }
    certificates.sort_by(|a, b| a.0.cmp(&b.0));
    let thinned = Thinned {
        givens: b.givens,
        certificates,
        minimal: true,
    };
    Ok((thinned, b.harvests))
}

impl Build<'_> {
    /// Puts orbit `o`'s givens in (`on`) or takes them out.
    fn set(&mut self, o: usize, on: bool) {
        for &c in &self.orbits[o] {
            let c = c as usize;
            self.givens[c] = on.then_some(self.solution[c]);
            match on {
                true => self.given[c / 64] |= 1 << (c % 64),
                false => self.given[c / 64] &= !(1 << (c % 64)),
            }
        }
        match on {
            true => self.left += self.orbits[o].len(),
            false => self.left -= self.orbits[o].len(),
        }
    }

    fn report(&mut self, progress: &mut dyn FnMut(Progress)) {
        self.settled += 1;
        progress(Progress {
            tested: self.settled,
            orbits: self.orbits.len(),
            givens: self.left,
            building: false,
        });
    }

    /// The first pass: tests each orbit of `order` without a proof; a certificate found joins
    /// the cache; the orbits without one are returned, in order, for [`Build::remove_rest`].
    fn certify(
        &mut self,
        checker: &mut Checker,
        order: &[usize],
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Vec<usize>, GenerateError> {
        let mut unsettled = Vec::new();
        for &o in order {
            if self.cache.proof(&self.orbits[o], &self.given).is_none() {
                match other_without(checker, &mut self.givens, &self.orbits[o], self.solution) {
                    Other::Found(other) => self.cache.add(other, self.solution),
                    Other::NoneExists => {
                        unsettled.push(o);
                        continue;
                    }
                    Other::Unknown => return Err(GenerateError::Budget),
                }
            }
            self.report(progress);
        }
        Ok(unsettled)
    }

    /// The second pass: removes each orbit of `order` (every one tested by [`Build::certify`]
    /// unnecessary) that is still unnecessary at its turn, and proves the others necessary.
    /// First each gets a check of its own (none with `dear` 0); once a certificate costs `dear`
    /// conflicts or more (they get dearer with every removal), [`made_necessary`] finds every
    /// waiting orbit necessary now, and from then on, after each removal, the orbits it made
    /// necessary: its "none left" shows every other waiting orbit unnecessary, so no orbit
    /// needs a check of its own any more, and each certificate is found as soon as it exists.
    fn remove_rest(
        &mut self,
        checker: &mut Checker,
        order: &[usize],
        dear: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), GenerateError> {
        let mut necessary = vec![false; self.orbits.len()];
        // (every orbit of `order` is unnecessary now, as harvesting needs)
        let mut harvesting = dear == 0;
        for (k, &o) in order.iter().enumerate() {
            let remove = match harvesting {
                true => !necessary[o],
                false if self.cache.proof(&self.orbits[o], &self.given).is_some() => false,
                false => {
                    let before = checker.cdcl.conflicts;
                    match other_without(checker, &mut self.givens, &self.orbits[o], self.solution) {
                        Other::Found(other) => {
                            self.cache.add(other, self.solution);
                            if checker.cdcl.conflicts - before >= dear {
                                harvesting = true;
                                self.harvest(checker, &order[k + 1..], &[], &mut necessary)?;
                            }
                            false
                        }
                        Other::NoneExists => true,
                        Other::Unknown => return Err(GenerateError::Budget),
                    }
                }
            };
            if remove {
                self.set(o, false);
                if harvesting {
                    let removed = self.orbits[o].clone();
                    self.harvest(checker, &order[k + 1..], &removed, &mut necessary)?;
                }
            }
            self.report(progress);
        }
        Ok(())
    }

    /// [`made_necessary`] over the orbits of `order` not known `necessary` yet, after the
    /// removal of `removed` (none: every one necessary now); marks those it finds.
    fn harvest(
        &mut self,
        checker: &mut Checker,
        order: &[usize],
        removed: &[u32],
        necessary: &mut [bool],
    ) -> Result<(), GenerateError> {
        let waiting: Vec<usize> = order.iter().copied().filter(|&x| !necessary[x]).collect();
        let cells: Vec<&[u32]> = waiting.iter().map(|&x| &self.orbits[x][..]).collect();
        let (cache, solution) = (&mut self.cache, self.solution);
        self.harvests += 1;
        made_necessary(
            checker,
            &self.givens,
            removed,
            &cells,
            solution,
            &mut |i, other| {
                necessary[waiting[i]] = true;
                cache.add(other, solution);
            },
        )
    }

    /// The upward half: adds orbits until `solution` is the puzzle's only solution, caching
    /// every other solution met. One solver serves every search: givens only join (fixed at
    /// its root), so what it learns stays true.
    fn add_until_unique<R: Rng>(
        &mut self,
        checker: &mut Checker,
        rng: &mut R,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(), GenerateError> {
        let e = checker.engine();
        let root = Searcher::new(e)
            .initial(&self.givens)
            .ok_or(GenerateError::NoGrid)?;
        let mut solver = Cdcl::new(e, &root).ok_or(GenerateError::NoGrid)?;
        let all: Vec<u32> = (0..self.solution.len() as u32).collect();
        solver.differ(&all, self.solution);
        loop {
            let budget = checker.budget_after(solver.decisions());
            solver.prefer(self.solution);
            let other = match solver.solve(&budget) {
                Outcome::Solution(s) => s,
                Outcome::Exhausted => return Ok(()),
                Outcome::Unknown => return Err(GenerateError::Budget),
            };
            // the orbit of the differences that spoils the fewest proofs (ties at random)
            let mut best = (usize::MAX, u32::MAX, usize::MAX);
            for (c, (a, b)) in other.iter().zip(self.solution).enumerate() {
                if a != b {
                    let o = self.cache.orbit_of[c] as usize;
                    let spoils = self.cache.spoils(&self.orbits[o], &self.given);
                    best = best.min((spoils, rng.gen::<u32>(), o));
                }
            }
            let o = best.2;
            self.cache.add(other, self.solution);
            self.set(o, true);
            for &c in &self.orbits[o] {
                solver.fix(solver.holds(c as usize, self.solution[c as usize]));
            }
            self.kept.push(o);
            progress(Progress {
                tested: 0,
                orbits: self.orbits.len(),
                givens: self.left,
                building: true,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, Limits};
    use crate::generate::{grid, Symmetry};
    use crate::geometry::builtin;
    use rand::SeedableRng;

    /// Puzzles built upward from random 9x9 and 16x16 grids (with and without a symmetry) are
    /// unique and minimal, checked by counting with the depth-first engine (no CDCL): the
    /// puzzle has one solution, and without any one given orbit it has two; every certificate
    /// is a complete solution that keeps every other given and differs inside its orbit. Each
    /// grid is built twice: with the second pass's own checks only, and finding what each
    /// removal made necessary ([`made_necessary`]) from the first certificate on; the same
    /// givens stay.
    #[test]
    fn built_puzzles_are_unique_and_minimal_by_an_independent_count() {
        let (mut proven, mut harvested) = (0, 0);
        for (name, symmetry, seeds) in [
            ("classic9", Symmetry::None, 0..6),
            ("classic9", Symmetry::Rotate180, 0..3),
            ("classic16", Symmetry::None, 0..2),
        ] {
            let g = builtin::load(name).unwrap();
            let (with, without) = Engine::with_and_without_cdcl(&g);
            let orbits = symmetry.orbits(&g).unwrap();
            let mut same = std::collections::HashMap::new();
            for (seed, dear) in seeds.flat_map(|s| [(s, u64::MAX), (s, 0)]) {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let sol = grid::random_grid(&without, &mut rng, 100).unwrap();
                let mut checker = Checker::new(&with, Limits::none());
                let mut reports = Vec::new();
                let (built, harvests) = build_with(
                    &mut checker,
                    &sol,
                    &orbits,
                    &mut rng,
                    &mut |p| reports.push(p),
                    dear,
                )
                .unwrap();
                match dear {
                    u64::MAX => {
                        assert_eq!(harvests, 0);
                        same.insert(seed, built.givens.clone());
                    }
                    _ => {
                        harvested += harvests;
                        assert_eq!(same[&seed], built.givens, "{name} seed {seed}: same givens");
                    }
                }
                let count = |givens: &[Option<u8>]| without.count(givens, 2, Limits::none()).count;
                assert_eq!(count(&built.givens), 1, "{name} seed {seed}: unique");
                let given: Vec<&Vec<u32>> = orbits
                    .iter()
                    .filter(|o| built.givens[o[0] as usize].is_some())
                    .collect();
                assert_eq!(built.certificates.len(), given.len(), "{name} seed {seed}");
                for o in given {
                    let mut without_o = built.givens.clone();
                    for &c in o {
                        without_o[c as usize] = None;
                    }
                    assert_eq!(count(&without_o), 2, "{name} seed {seed}: {o:?} necessary");
                }
                for (orbit, other) in &built.certificates {
                    assert!(built.givens.iter().enumerate().all(|(c, g)| {
                        orbit.contains(&(c as u32)) || g.is_none_or(|g| g == other[c])
                    }));
                    assert!(orbit.iter().any(|&c| other[c as usize] != sol[c as usize]));
                    let full: Vec<Option<u8>> = other.iter().map(|&v| Some(v)).collect();
                    assert_eq!(count(&full), 1, "a solution");
                    proven += 1;
                }
                let (building, reports): (Vec<Progress>, Vec<Progress>) =
                    reports.into_iter().partition(|p| p.building);
                assert!(
                    !building.is_empty(),
                    "{name} seed {seed}: no building reports"
                );
                assert!(building.windows(2).all(|w| w[1].givens > w[0].givens));
                assert!(building.iter().all(|p| p.tested == 0));
                let tested: Vec<usize> = reports.iter().map(|p| p.tested).collect();
                assert_eq!(tested, (1..=orbits.len()).collect::<Vec<_>>());
                assert!(reports.windows(2).all(|w| w[1].givens <= w[0].givens));
                assert_eq!(reports.last().unwrap().givens, count_givens(&built.givens));
            }
        }
        assert!(proven > 0);
        assert!(
            harvested > 20,
            "{harvested} searches for what a removal made necessary"
        );
    }

    fn count_givens(givens: &[Option<u8>]) -> usize {
        givens.iter().filter(|g| g.is_some()).count()
    }

    /// A generator whose engine goes to CDCL at once (so the first check that depth-first search
    /// leaves stops the thinning from the full grid) starts again upward (its progress starts
    /// over) and makes a unique puzzle, minimal by the depth-first count.
    #[test]
    fn the_generator_switches_to_building_upward_when_a_check_needs_cdcl() {
        use crate::generate::{Generator, Options};
        let g = std::sync::Arc::new(builtin::load("classic16").unwrap());
        let (with, without) = Engine::with_and_without_cdcl(&g);
        let mut generator = Generator::new(g.clone(), Options::default()).unwrap();
        generator.engine = with;
        let mut reports = Vec::new();
        let made = generator
            .generate_seeded_with_progress(4, 0, &mut |p| reports.push(p))
            .unwrap();
        assert!(
            reports.windows(2).any(|w| w[1].tested < w[0].tested),
            "started over"
        );
        assert!(made.minimal);
        let count = |givens: &[Option<u8>]| without.count(givens, 2, Limits::none()).count;
        assert_eq!(count(&made.puzzle.givens), 1);
        assert_eq!(made.certificates.len(), made.puzzle.given_count());
        for c in 0..made.puzzle.givens.len() {
            if made.puzzle.givens[c].is_some() {
                let mut less = made.puzzle.givens.clone();
                less[c] = None;
                assert_eq!(count(&less), 2, "given {c} necessary");
            }
        }
    }
}
