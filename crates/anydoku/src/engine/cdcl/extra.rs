//! Clauses from outside the model over auxiliary variables: a caller adds a constraint on the
//! value variables that needs helper variables to encode (an at-most-one over many literals,
//! [`Cdcl::at_most_one`]) or plain clauses of its own ([`Cdcl::add_root_clause`]).
//!
//! The auxiliary variables come after every other variable ([`Cdcl::with_aux`]) and the decision
//! rule never decides them (a caller may, with [`Cdcl::decide_first`]): propagation sets them,
//! and a solution is read from the value variables only.
//! So an encoding added here must leave its auxiliary variables free to take some value once
//! every value variable is set without a conflict (the sequential counter does: with no literal
//! true its counter variables may all be false). To add another encoding, keep that property.

use super::{Cdcl, Lit, FALSE, NO_REASON, TRUE, UNDEF};
use crate::engine::{Engine, Mask};

impl<'e> Cdcl<'e> {
    /// [`Cdcl::new`] with `aux` auxiliary variables ([`Cdcl::aux`]), in no clause yet.
    pub(crate) fn with_aux(e: &'e Engine, root: &[Mask], aux: usize) -> Option<Self> {
        let mut s = Self::with_extra(e, root, aux)?;
        let first = s.value.len() / 2 - aux;
        for v in first..first + aux {
            s.value[2 * v] = UNDEF;
            s.value[2 * v + 1] = UNDEF;
        }
        s.aux_first = first;
        Some(s)
    }

    /// The literal "auxiliary variable `k` is true".
    pub(crate) fn aux(&self, k: usize) -> Lit {
        debug_assert!(2 * (self.aux_first + k) < self.value.len());
        2 * (self.aux_first + k) as Lit
    }

    /// Adds `clause` for good (its literals false at the root dropped; a clause already true
    /// there is left out; an empty one leaves the solver without solutions).
    pub(crate) fn add_root_clause(&mut self, clause: &[Lit]) {
        self.backtrack(0);
        if clause.iter().any(|&l| self.lit_value(l) == TRUE) {
            return;
        }
        let open: Vec<Lit> = clause
            .iter()
            .copied()
            .filter(|&l| self.lit_value(l) != FALSE)
            .collect();
        match open.len() {
            0 => self.ok = false,
            1 => self.enqueue(open[0], NO_REASON),
            _ => {
                self.add_clause(&open, false, 0);
            }
        }
    }

    /// Adds "at most one of `lits` is true" as a sequential counter (Sinz 2005), on the
    /// auxiliary variables `first..first + lits.len() - 1`: counter `k` is true once one of the
    /// first `k + 1` literals is.
    pub(crate) fn at_most_one(&mut self, lits: &[Lit], first: usize) {
        let Some((&last, rest)) = lits.split_last() else {
            return;
        };
        for (i, &l) in rest.iter().enumerate() {
            let s = self.aux(first + i);
            self.add_root_clause(&[l ^ 1, s]);
            if i > 0 {
                let prev = self.aux(first + i - 1);
                self.add_root_clause(&[prev ^ 1, s]);
                self.add_root_clause(&[l ^ 1, prev ^ 1]);
            }
        }
        if !rest.is_empty() {
            let s = self.aux(first + rest.len() - 1);
            self.add_root_clause(&[last ^ 1, s ^ 1]);
        }
    }
}
