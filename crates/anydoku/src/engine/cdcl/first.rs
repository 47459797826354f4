//! Literals decided first: a caller's list of literals that the search decides, in its order,
//! before any decision of its own rule ([`Cdcl::decide_first`]), skipping those already
//! assigned. Unlike assumptions ([`super::assume`]) they are ordinary decisions: a conflict may
//! flip one (by a learnt clause), and the search stays complete.
//!
//! A search for a solution near a known one that frees many cells (the generator's harvest of
//! certificates) decides each freed block back to the known solution with one literal from
//! here, instead of one pick of the decision rule per cell, each weighing many candidates. To
//! add another kind of first decision, keep the list's literals over the solver's own
//! variables.

use super::{Cdcl, Lit, UNDEF};

/// The list and where the next look starts.
#[derive(Default)]
pub(super) struct First {
    lits: Vec<Lit>,
    /// The literals of `lits` before this one were assigned at the last look.
    next: usize,
}

impl Cdcl<'_> {
    /// Decides `lits`, in order, before any other decision (see the module docs).
    pub(crate) fn decide_first(&mut self, lits: Vec<Lit>) {
        self.first = First { lits, next: 0 };
    }

    /// The next literal of the list that is unassigned, if any.
    pub(super) fn next_first(&mut self) -> Option<Lit> {
        while let Some(&l) = self.first.lits.get(self.first.next) {
            if self.lit_value(l) == UNDEF {
                return Some(l);
            }
            self.first.next += 1;
        }
        None
    }

    /// After a backtrack: literals before the cursor may be unassigned again.
    #[inline(always)]
    pub(super) fn first_backtracked(&mut self) {
        self.first.next = 0;
    }
}
