//! The orbits a removal made necessary, found right after it: one search for all of them.
//!
//! When every orbit waiting for its check is known to be unnecessary and one orbit `r` is
//! removed, an orbit `u` of the waiting ones becomes necessary exactly when some solution `S`
//! other than the grid `G` keeps every given but `u`'s: `S` then differs from `G` in `u` (else
//! it would be a second solution of the unique puzzle) and in `r` (else it would have made `u`
//! necessary before). So one CDCL search over the puzzle with the waiting orbits' givens free,
//! asking for "`r` differs" and "exactly one waiting orbit differs", finds a certificate for
//! some orbit the removal made necessary; that orbit is fixed at the root and the search goes
//! on; once it finds none, every waiting orbit left is still unnecessary, and the next one can
//! be removed without a check of its own. A certificate found this way is as cheap as it will
//! ever be: later removals make them dearer.
//!
//! "Exactly one" is the clause "some waiting cell differs" and a sequential counter over one
//! literal per waiting orbit ("the cell differs", or for an orbit of several cells an auxiliary
//! variable that each of its differing cells forces). The search decides those literals first,
//! false, in the waiting order ([`Cdcl::decide_first`]): one decision puts an orbit back to the
//! grid's symbols, where the decision rule would weigh each of its cells against many others,
//! and so after every restart the hundreds of waiting cells cost one plain decision per orbit.
//!
//! To ask for other certificates, keep the property: every solution found proves its orbit
//! necessary, and "none" proves every waiting orbit unnecessary.

use super::unique::Checker;
use super::GenerateError;
use crate::engine::cdcl::{Cdcl, Outcome};
use crate::engine::Searcher;

/// Right after the givens of `removed` were taken out of `givens` (which agree with
/// `solution`), with every orbit of `waiting` unnecessary before: calls `found(i, other)` for
/// each orbit `waiting[i]` the removal made necessary, `other` a solution of `givens` without
/// that orbit that differs from `solution` there. Every orbit of `waiting` not found is
/// unnecessary on return. With `removed` empty, the orbits of `waiting` need not be
/// unnecessary before: every one necessary now is found.
pub(super) fn made_necessary(
    checker: &mut Checker,
    givens: &[Option<u8>],
    removed: &[u32],
    waiting: &[&[u32]],
    solution: &[u8],
    found: &mut dyn FnMut(usize, Vec<u8>),
) -> Result<(), GenerateError> {
    if waiting.is_empty() {
        return Ok(());
    }
    let e = checker.engine();
    let mut free = givens.to_vec();
    let mut cells = Vec::new();
    for orbit in waiting {
        for &c in *orbit {
            free[c as usize] = None;
            cells.push(c);
        }
    }
    let root = Searcher::new(e)
        .initial(&free)
        .ok_or(GenerateError::NoGrid)?;
    let wide = waiting.iter().filter(|o| o.len() > 1).count();
    let mut solver =
        Cdcl::with_aux(e, &root, wide + waiting.len() - 1).ok_or(GenerateError::NoGrid)?;
    let mut differs = Vec::with_capacity(waiting.len());
    let mut next = 0;
    for orbit in waiting {
        let same = |c: u32| solver.holds(c as usize, solution[c as usize]);
        if let [c] = orbit {
            differs.push(same(*c) ^ 1);
            continue;
        }
        let d = solver.aux(next);
        next += 1;
        let clauses: Vec<[u32; 2]> = orbit.iter().map(|&c| [same(c), d]).collect();
        for clause in clauses {
            solver.add_root_clause(&clause);
        }
        differs.push(d);
    }
    solver.at_most_one(&differs, next);
    solver.differ(&cells, solution);
    if !removed.is_empty() {
        solver.differ(removed, solution);
    }
    solver.prefer(solution);
    // each waiting orbit equal to the grid, one decision each, before the decision rule's own
    solver.decide_first(differs.iter().map(|&d| d ^ 1).collect());
    let (d0, c0) = (solver.decisions(), solver.conflicts());
    let outcome = loop {
        let budget = checker.budget_after(solver.decisions());
        match solver.solve(&budget) {
            Outcome::Solution(other) => {
                let i = waiting
                    .iter()
                    .position(|o| o.iter().any(|&c| other[c as usize] != solution[c as usize]))
                    .expect("one waiting orbit differs");
                for &c in waiting[i] {
                    solver.fix(solver.holds(c as usize, solution[c as usize]));
                }
                checker.searches += 1;
                found(i, other);
            }
            Outcome::Exhausted => break Ok(()),
            Outcome::Unknown => break Err(GenerateError::Budget),
        }
    };
    checker.searches += 1;
    checker.cdcl.searches += 1;
    checker.cdcl.decisions += solver.decisions() - d0;
    checker.cdcl.conflicts += solver.conflicts() - c0;
    checker.nodes += solver.decisions() - d0;
    outcome
}
