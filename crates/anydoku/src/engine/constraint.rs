//! The propagators of the constraint kinds in the cell-major kernel.
//!
//! A kind other than unique and sum (see [`crate::kinds`]) turns each of its shapes into a
//! [`Propagator`] when the engine is built: a small struct holding the shape's cells and the
//! tables it filters with (which symbols may follow which, the symbols' values, ...), made
//! once. [`pass_marking`] runs the propagators whose cells changed since they last ran (the
//! propagation marks them, like the complete shapes to scan, whenever it narrows a cell) until
//! none is left; the propagation loop (`propagate::run`) alternates its passes with singles
//! until nothing changes, so a propagator only has to narrow what it can from the candidates
//! it sees (bounds or domain filtering) and report contradictions. A propagator reads and
//! narrows only the cells of its shape (the engine wakes it on those). Propagators narrow through [`Cands`], which queues cells that become
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
    /// The propagation's dirty set of complete shapes (`dirty.len()` words per cell in
    /// `cell_bits`), or empty when it is not tracked.
    dirty: &'a mut [u64],
    cell_bits: &'a [u64],
    /// The propagators to run (their cells changed since they last ran; `props.len()` words
    /// per cell in `cell_prop_bits`), or empty when every propagator runs each pass.
    props: &'a mut [u64],
    cell_prop_bits: &'a [u64],
}

impl<'a> Cands<'a> {
    /// A view of `cand` that queues new singletons on `queue` (marking no shapes).
    pub fn new(cand: &'a mut [Mask], queue: &'a mut Vec<u32>) -> Self {
        Cands {
            cand,
            queue,
            changed: false,
            dirty: &mut [],
            cell_bits: &[],
            props: &mut [],
            cell_prop_bits: &[],
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
    #[inline(always)]
    pub fn keep(&mut self, c: u32, keep: Mask) -> bool {
        let old = self.cand[c as usize];
        let new = old & keep;
        new == old || self.narrow(c, new)
    }

    /// Narrows cell `c` to `new` (a strict subset of its candidates): queues it when it
    /// becomes a single, marks its shapes and propagators; false when `new` is empty.
    fn narrow(&mut self, c: u32, new: Mask) -> bool {
        if new == 0 {
            return false;
        }
        self.cand[c as usize] = new;
        self.changed = true;
        if new & (new - 1) == 0 {
            self.queue.push(c);
        }
        let w = self.dirty.len();
        if w > 0 {
            let bits = &self.cell_bits[c as usize * w..c as usize * w + w];
            for (d, b) in self.dirty.iter_mut().zip(bits) {
                *d |= b;
            }
        }
        let w = self.props.len();
        if w > 0 {
            let bits = &self.cell_prop_bits[c as usize * w..c as usize * w + w];
            for (d, b) in self.props.iter_mut().zip(bits) {
                *d |= b;
            }
        }
        true
    }
}

/// Runs every propagator of `e` once. `None` on a contradiction, `Some(changed)` otherwise.
#[cfg(test)]
pub fn pass(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    pass_marking(e, cand, queue, &mut [], &mut [])
}

/// Runs the propagators of `e` whose bit is set in `props` (every propagator when `props` is
/// empty), until none is left to run, clearing their bits; a propagator that narrows a cell
/// sets the bits of the propagators holding it (itself too: bounds filtering may need a second
/// run) and marks in `dirty` (the propagation's set of complete shapes to scan, one word per
/// 64 shapes, or empty) the complete shapes holding it. `None` on a contradiction,
/// `Some(changed)` otherwise.
pub(crate) fn pass_marking(
    e: &Engine,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    dirty: &mut [u64],
    props: &mut [u64],
) -> Option<bool> {
    debug_assert!(dirty.is_empty() || dirty.len() == e.shape_words);
    debug_assert!(props.is_empty() || props.len() == e.prop_words);
    let mut c = Cands {
        cand,
        queue,
        changed: false,
        dirty,
        cell_bits: &e.cell_bits,
        props,
        cell_prop_bits: &e.cell_prop_bits,
    };
    if c.props.is_empty() {
        for p in &e.props {
            if !p.propagate(&mut c) {
                return None;
            }
        }
        return Some(c.changed);
    }
    let mut i = 0;
    while i < c.props.len() {
        let bits = c.props[i];
        if bits == 0 {
            i += 1;
            continue;
        }
        let k = i * 64 + bits.trailing_zeros() as usize;
        c.props[i] = bits & (bits - 1);
        if !e.props[k].propagate(&mut c) {
            return None;
        }
        // it may have woken a propagator of an earlier word
        i = 0;
    }
    Some(c.changed)
}
