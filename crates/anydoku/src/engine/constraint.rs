//! The propagators of the constraint kinds in the cell-major kernel.
//!
//! A kind other than unique and sum (see [`crate::kinds`]) turns each of its shapes into a
//! [`Propagator`] when the engine is built: a small struct holding the shape's cells and the
//! tables it filters with (which symbols may follow which, the symbols' values, ...), made
//! once. [`pass`] runs every propagator once over the candidate array; the propagation loop
//! (`propagate::run`) repeats its passes until nothing changes, so a propagator only has to
//! narrow what it can from the candidates it sees (bounds or domain filtering) and report
//! contradictions. Propagators narrow through [`Cands`], which queues cells that become
//! singletons (their symbol then leaves their peers) and remembers that something changed.
//! Nothing here allocates: a propagator's scratch space is on the stack.
//!
//! To add a propagator, implement [`Propagator`] next to its kind and add it in the kind's
//! `flatten` with [`super::flatten::Flat::propagator`].

use super::{Engine, Mask};

/// A constraint's filter on the candidates of its cells.
pub trait Propagator: Send + Sync + std::fmt::Debug {
    /// Removes candidates no solution of the constraint can use, given the others; false on a
    /// contradiction (some cell of the constraint left without a candidate, or no way left to
    /// satisfy it).
    fn propagate(&self, c: &mut Cands) -> bool;
}

/// The candidate array as a propagator sees it.
pub struct Cands<'a> {
    cand: &'a mut [Mask],
    queue: &'a mut Vec<u32>,
    changed: bool,
}

impl<'a> Cands<'a> {
    /// A view of `cand` that queues new singletons on `queue`.
    pub fn new(cand: &'a mut [Mask], queue: &'a mut Vec<u32>) -> Self {
        Cands {
            cand,
            queue,
            changed: false,
        }
    }

    /// Whether a candidate was removed since this view was made.
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// The candidates of cell `c`.
    #[inline]
    pub fn get(&self, c: u32) -> Mask {
        self.cand[c as usize]
    }

    /// Keeps only the candidates of cell `c` that are in `keep`; false when none is left.
    #[inline]
    pub fn keep(&mut self, c: u32, keep: Mask) -> bool {
        let old = self.cand[c as usize];
        let new = old & keep;
        if new != old {
            if new == 0 {
                return false;
            }
            self.cand[c as usize] = new;
            self.changed = true;
            if new & (new - 1) == 0 {
                self.queue.push(c);
            }
        }
        true
    }
}

/// Runs every propagator of `e` once. `None` on a contradiction, `Some(changed)` otherwise.
pub fn pass(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let mut c = Cands::new(cand, queue);
    for p in &e.props {
        if !p.propagate(&mut c) {
            return None;
        }
    }
    Some(c.changed)
}
