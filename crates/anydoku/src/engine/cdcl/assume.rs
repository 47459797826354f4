//! Solving under assumptions with guarded sum shapes: one solver kept across many checks of
//! puzzles that differ by which sum shapes are in them (a Killer generator dropping cages).
//!
//! Each sum shape gets a *guard* variable: the shape propagates only while its guard is true,
//! and every explanation it gives carries the guard's negation ([`Cdcl::explain_sum`]). Every
//! clause the solver learns is then a consequence of the stored clauses and the guarded
//! shapes, whichever shapes a check switches on, so learnt clauses stay valid from one check to
//! the next (as in MiniSat's solving under assumptions). A check lists its assumptions (the
//! guards of the shapes in its puzzle, and guards of its own clauses, [`Cdcl::add_guarded`]);
//! the search decides them first, one per level, and a check whose assumption goes false has
//! no solution. A guard fixed at the root ([`Cdcl::fix`]) switches its shape on (or off) for
//! good, and keeps its level out of the learnt clauses.
//!
//! Guards switch sum shapes only: peers and complete shapes stay. An engine whose sum shapes
//! must leave no trace when off is built by [`guarded_engine`] (the peer relation of the
//! geometry without them, no law-of-45 shapes, which depend on every cage).
//!
//! To guard another kind of propagator, give it a guard variable the same way: skip it while
//! the guard is not true, and add the guard's negation to its explanations.

use super::{Cdcl, Lit, FALSE, NO_REASON, TRUE, UNDEF};
use crate::engine::{Engine, Mask, Options};
use crate::geometry::Geometry;

/// The engine of `with_sums` (a geometry: `base` plus sum shapes) whose sum shapes can be
/// switched off without a trace: no law-of-45 shapes, and the peers of `base` (a unique sum
/// shape's cells would otherwise be peers whether it is on or not; its own filter keeps them
/// different while it is on).
pub(crate) fn guarded_engine(with_sums: &Geometry, base: &Geometry) -> Engine {
    let options = Options {
        derived: false,
        ..Options::default()
    };
    let mut e = Engine::with_options(with_sums, options);
    let plain = Engine::with_options(base, options);
    e.peer_start = plain.peer_start;
    e.peers = plain.peers;
    e
}

impl<'e> Cdcl<'e> {
    /// A solver of `e` below `root` whose sum shapes are guarded (each off until its guard,
    /// [`Cdcl::guard`], is assumed or fixed true), with `extra` more guards for clauses
    /// ([`Cdcl::extra`]). `None` when `root` is not one candidate set per cell or `e` has no
    /// sum shapes.
    pub(crate) fn guarded(e: &'e Engine, root: &[Mask], extra: usize) -> Option<Self> {
        if e.sums.is_empty() {
            return None;
        }
        let mut s = Self::with_extra(e, root, e.sums.len() + extra)?;
        let first = s.value.len() / 2 - e.sums.len() - extra;
        for v in first..first + e.sums.len() + extra {
            s.value[2 * v] = UNDEF;
            s.value[2 * v + 1] = UNDEF;
        }
        s.sums.as_mut()?.guard_first = first;
        Some(s)
    }

    /// The literal switching sum shape `i` on.
    pub(crate) fn guard(&self, i: usize) -> Lit {
        let first = self.sums.as_ref().map_or(0, |s| s.guard_first);
        2 * (first + i) as Lit
    }

    /// The literal "cell `c` holds symbol `t`" (to assume a cell's symbol).
    pub(crate) fn holds(&self, c: usize, t: u8) -> Lit {
        2 * (c * self.n + t as usize) as Lit
    }

    /// The `k`-th extra guard's literal (see [`Cdcl::guarded`]).
    pub(crate) fn extra(&self, k: usize) -> Lit {
        self.guard(self.e.sums.len() + k)
    }

    /// Adds the clause "`guard` is false, or one of `cells` holds another symbol than in
    /// `sol`": assuming `guard` asks for a solution that differs from `sol` there.
    pub(crate) fn add_guarded(&mut self, guard: Lit, cells: &[u32], sol: &[u8]) {
        self.backtrack(0);
        let n = self.n;
        let mut clause = vec![guard ^ 1];
        clause.extend(
            cells
                .iter()
                .map(|&c| 2 * (c as usize * n + sol[c as usize] as usize) as Lit + 1)
                .filter(|&l| self.lit_value(l) != FALSE),
        );
        if clause.len() == 1 {
            self.fix(clause[0]);
        } else {
            self.add_clause(&clause, false, 0);
        }
    }

    /// Makes `lit` true at the root for good (a shape kept or dropped for good). A literal
    /// already false there leaves the solver without solutions.
    pub(crate) fn fix(&mut self, lit: Lit) {
        self.backtrack(0);
        match self.lit_value(lit) {
            UNDEF => self.enqueue(lit, NO_REASON),
            FALSE => self.ok = false,
            _ => {}
        }
    }

    /// Sets the literals the next searches decide first (see the module docs).
    pub(crate) fn assume(&mut self, lits: &[Lit]) {
        self.backtrack(0);
        self.assumptions.clear();
        self.assumptions.extend_from_slice(lits);
    }

    /// The next assumption to decide: `Ok(None)` once all hold (an assumption already true
    /// gets an empty level of its own), `Err` when one is false (no solution under them).
    pub(super) fn next_assumption(&mut self) -> Result<Option<Lit>, ()> {
        while let Some(&p) = self.assumptions.get(self.trail_lim.len()) {
            match self.lit_value(p) {
                TRUE => self.trail_lim.push(self.trail.len()),
                FALSE => return Err(()),
                _ => return Ok(Some(p)),
            }
        }
        Ok(None)
    }
}
