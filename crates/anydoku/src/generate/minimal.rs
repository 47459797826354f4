//! Minimal puzzles: thin a complete grid out until every remaining given is necessary.
//!
//! The givens are removed one orbit at a time (a single cell without symmetry) in a random order.
//! An orbit stays when some solution differs from the known one inside it; that solution is kept
//! as the orbit's *certificate*. One pass is enough: removing later givens only adds solutions, so
//! a certificate found early is still a solution of the final puzzle minus that orbit.

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

/// How far the thinning of a grid has got: reported after every orbit (a given, or a
/// symmetry orbit of givens) it tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Orbits tested so far.
    pub tested: usize,
    /// Orbits to test in all.
    pub orbits: usize,
    /// Givens left at this point.
    pub givens: usize,
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
) -> Result<Thinned, GenerateError> {
    let mut givens: Vec<Option<u8>> = solution.iter().map(|&v| Some(v)).collect();
    let mut remaining = givens.len();
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    order.shuffle(rng);
    let mut certificates = Vec::new();
    let mut untested = Vec::new();
    for (k, &o) in order.iter().enumerate() {
        if target.is_some_and(|t| remaining <= t) {
            untested.extend_from_slice(&order[k..]);
            break;
        }
        let orbit = &orbits[o];
        for &c in orbit {
            givens[c as usize] = None;
        }
        match checker.other_solution(&givens, orbit, solution) {
            Other::NoneExists => remaining -= orbit.len(),
            Other::Found(other) => {
                for &c in orbit {
                    givens[c as usize] = Some(solution[c as usize]);
                }
                certificates.push((orbit.clone(), other));
            }
            Other::Unknown => return Err(GenerateError::Budget),
        }
        progress(Progress {
            tested: k + 1,
            orbits: order.len(),
            givens: remaining,
        });
    }
    let tested = order.len() - untested.len();
    let mut minimal = true;
    for (k, &o) in untested.iter().enumerate() {
        let orbit = &orbits[o];
        for &c in orbit {
            givens[c as usize] = None;
        }
        match checker.other_solution(&givens, orbit, solution) {
            Other::Found(other) => certificates.push((orbit.clone(), other)),
            Other::NoneExists => minimal = false,
            Other::Unknown => return Err(GenerateError::Budget),
        }
        for &c in orbit {
            givens[c as usize] = Some(solution[c as usize]);
        }
        progress(Progress {
            tested: tested + k + 1,
            orbits: order.len(),
            givens: remaining,
        });
    }
    certificates.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Thinned {
        givens,
        certificates,
        minimal,
    })
}
