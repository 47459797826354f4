//! Minimal puzzles: thin a complete grid out until every remaining given is necessary.
//!
//! The givens are removed one orbit at a time (a single cell without symmetry) in a random order.
//! An orbit stays when some solution differs from the known one inside it; that solution is kept
//! as the orbit's *certificate*. One pass is enough: removing later givens only adds solutions, so
//! a certificate found early is still a solution of the final puzzle minus that orbit.
//!
//! Finding a certificate is the expensive part on large grids, and it gets dearer as the givens
//! thin out; so once most removals fail, one *sweep* tests every orbit not tested yet ahead of
//! its turn and settles those already necessary (they stay necessary: the same puzzle comes
//! out, only sooner). To change the order or the sweep, keep that property: an orbit is kept
//! only with a certificate valid for the final puzzle.

use rand::seq::SliceRandom;
use rand::Rng;

use super::unique::{Checker, Other};
use super::GenerateError;

/// The result of thinning a grid out.
#[derive(Debug, Clone)]
pub struct Thinned {
    pub givens: Vec<Option<u8>>,
    /// (orbit, another solution when the orbit's givens are removed), for every kept orbit whose
    /// necessity was proved.
    pub certificates: Vec<(Vec<u32>, Vec<u8>)>,
    /// True when every kept orbit has a certificate.
    pub minimal: bool,
}

/// How a thinning ended: with a puzzle, or at a check that needed CDCL while the checker was
/// told to stop before CDCL ([`Checker::stop_before_cdcl`]; the caller then builds the puzzle
/// another way).
#[derive(Debug, Clone)]
pub enum Thinning {
    /// The puzzle made.
    Made(Thinned),
    /// A check would have gone on with CDCL.
    NeedsCdcl,
}

/// How far the thinning of a grid has got: reported after every orbit (a given, or a
/// symmetry orbit of givens) it tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Orbits settled so far: tested (removed, or kept as necessary), or, in an upward build,
    /// never given.
    pub tested: usize,
    /// Orbits to test in all.
    pub orbits: usize,
    /// Givens left at this point.
    pub givens: usize,
    /// True while givens are being added to build the puzzle upward (see
    /// [`crate::generate`]'s upward build): then `tested` is 0 and `givens` grows.
    pub building: bool,
}

/// Removes givens from the full `solution`, orbit by orbit in random order, while the solution
/// stays unique; stops early once at most `target` givens remain (then checks the rest).
/// `progress` hears of every orbit tested.
pub fn thin<R: Rng>(
    checker: &mut Checker,
    solution: &[u8],
    orbits: &[Vec<u32>],
    target: Option<usize>,
    rng: &mut R,
    progress: &mut dyn FnMut(Progress),
) -> Result<Thinning, GenerateError> {
    thin_with(checker, solution, orbits, target, rng, progress, true)
}

/// [`thin`], with or without the [`Sweep`] (the tests compare them).
fn thin_with<R: Rng>(
    checker: &mut Checker,
    solution: &[u8],
    orbits: &[Vec<u32>],
    target: Option<usize>,
    rng: &mut R,
    progress: &mut dyn FnMut(Progress),
    sweep_on: bool,
) -> Result<Thinning, GenerateError> {
    let (mut givens, order) = start(solution, orbits, rng);
    let mut remaining = givens.len();
    let mut certificates = Vec::new();
    let mut untested = Vec::new();
    // orbits a sweep proved necessary ahead of their turn
    let mut known = vec![false; orbits.len()];
    let mut sweep = Sweep::default();
    for (k, &o) in order.iter().enumerate() {
        if target.is_some_and(|t| remaining <= t) {
            untested.extend_from_slice(&order[k..]);
            break;
        }
        if !known[o] {
            let orbit = &orbits[o];
            let kept = match other_without(checker, &mut givens, orbit, solution) {
                Other::NoneExists => {
                    for &c in orbit {
                        givens[c as usize] = None;
                    }
                    remaining -= orbit.len();
                    false
                }
                Other::Found(other) => {
                    certificates.push((orbit.clone(), other));
                    true
                }
                Other::Unknown => return undecided(checker),
            };
            if sweep_on && sweep.due(kept) {
                for &x in &order[k + 1..] {
                    if known[x] {
                        continue;
                    }
                    match other_without(checker, &mut givens, &orbits[x], solution) {
                        Other::Found(other) => {
                            known[x] = true;
                            certificates.push((orbits[x].clone(), other));
                        }
                        Other::NoneExists => {}
                        // the budget ran out: stop now, not after every orbit left
                        Other::Unknown => return undecided(checker),
                    }
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
    let tested = order.len() - untested.len();
    let mut minimal = true;
    for (k, &o) in untested.iter().enumerate() {
        let orbit = &orbits[o];
        match known[o] {
            true => {}
            false => match other_without(checker, &mut givens, orbit, solution) {
                Other::Found(other) => certificates.push((orbit.clone(), other)),
                Other::NoneExists => minimal = false,
                Other::Unknown => return undecided(checker),
            },
        }
        progress(Progress {
            tested: tested + k + 1,
            orbits: order.len(),
            givens: remaining,
            building: false,
        });
    }
    certificates.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Thinning::Made(Thinned {
        givens,
        certificates,
        minimal,
    }))
}

/// The end of a thinning at a check left undecided: the checker stopped before CDCL as told,
/// or a budget ran out.
fn undecided(checker: &Checker) -> Result<Thinning, GenerateError> {
    match checker.stopped_before_cdcl() {
        true => Ok(Thinning::NeedsCdcl),
        false => Err(GenerateError::Budget),
    }
}

/// Where every thinning starts: all of `solution` given, and the orbits in a random order to
/// test them in.
pub(super) fn start<R: Rng>(
    solution: &[u8],
    orbits: &[Vec<u32>],
    rng: &mut R,
) -> (Vec<Option<u8>>, Vec<usize>) {
    let givens = solution.iter().map(|&v| Some(v)).collect();
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    order.shuffle(rng);
    (givens, order)
}

/// The checker's answer for `givens` without the givens of `orbit` (put back afterwards).
pub(super) fn other_without(
    checker: &mut Checker,
    givens: &mut [Option<u8>],
    orbit: &[u32],
    solution: &[u8],
) -> Other {
    for &c in orbit {
        givens[c as usize] = None;
    }
    let other = checker.other_solution(givens, orbit, solution);
    for &c in orbit {
        givens[c as usize] = Some(solution[c as usize]);
    }
    other
}

/// When to sweep: once half of the last [`Sweep::WINDOW`] removals failed (the puzzle is
/// nearly minimal), every orbit not tested yet is tested ahead of its turn, and those found
/// necessary are settled then. A given necessary now stays necessary (removing others only adds
/// solutions), so the puzzle made is the same; but a second solution is cheaper to find while
/// more givens are left, and most orbits left are necessary by then. One sweep: a later one
/// would test again the orbits the first found unnecessary.
#[derive(Default)]
struct Sweep {
    /// The outcomes of the last [`Sweep::WINDOW`] checks as bits (1: kept).
    recent: u32,
    seen: u32,
    done: bool,
}

impl Sweep {
    const WINDOW: u32 = 16;

    /// Records one check (whether its orbit was kept); true when the sweep is due.
    fn due(&mut self, kept: bool) -> bool {
        self.recent = (self.recent << 1 | kept as u32) & ((1 << Self::WINDOW) - 1);
        self.seen += 1;
        if self.done || self.seen < Self::WINDOW || self.recent.count_ones() < Self::WINDOW / 2 {
            return false;
        }
        self.done = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, Limits};
    use crate::generate::{grid, Symmetry};
    use crate::geometry::builtin;
    use rand::SeedableRng;

    /// The sweep changes when orbits are found necessary, not which: with and without it the
    /// same givens stay, and every certificate is a solution of the final puzzle without its
    /// orbit (checked by counting with the certificate as givens) that differs there.
    #[test]
    fn the_sweep_keeps_the_same_givens_with_valid_certificates() {
        let mut swept = 0;
        for (name, symmetry, seeds) in [
            ("classic9", Symmetry::None, 0..6),
            ("classic9", Symmetry::Rotate180, 0..3),
            ("classic16", Symmetry::None, 0..3),
        ] {
            let g = builtin::load(name).unwrap();
            let e = Engine::new(&g);
            let orbits = symmetry.orbits(&g).unwrap();
            for seed in seeds {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let sol = grid::random_grid(&e, &mut rng, 100).unwrap();
                let run = |sweep: bool| {
                    let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(seed + 100);
                    let mut checker = Checker::new(&e, Limits::none());
                    let t = thin_with(
                        &mut checker,
                        &sol,
                        &orbits,
                        None,
                        &mut r,
                        &mut |_| {},
                        sweep,
                    );
                    let Ok(Thinning::Made(t)) = t else {
                        panic!("no budget, no stop before CDCL: the thinning ends with a puzzle");
                    };
                    (t, checker.searches)
                };
                let ((with, searches_with), (without, searches_without)) = (run(true), run(false));
                assert_eq!(with.givens, without.givens, "{name} seed {seed}");
                assert!(with.minimal && without.minimal);
                swept += usize::from(searches_with != searches_without);
                let kept = orbits
                    .iter()
                    .filter(|o| with.givens[o[0] as usize].is_some())
                    .count();
                assert_eq!(with.certificates.len(), kept, "{name} seed {seed}");
                for (orbit, other) in &with.certificates {
                    let mut puzzle = with.givens.clone();
                    for &c in orbit {
                        puzzle[c as usize] = None;
                    }
                    assert!(puzzle
                        .iter()
                        .zip(other)
                        .all(|(g, v)| g.is_none_or(|g| g == *v)));
                    assert!(orbit.iter().any(|&c| other[c as usize] != sol[c as usize]));
                    let full: Vec<Option<u8>> = other.iter().map(|&v| Some(v)).collect();
                    assert_eq!(e.count(&full, 2, Limits::none()).count, 1, "a solution");
                }
            }
        }
        assert!(swept > 0, "the sweep ran at least once");
    }
}
