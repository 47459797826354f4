//! A net's queues and going back in a propagation.
//!
//! The potentials still to follow are those of [`Net::order`] after two cursors, one for the
//! on potentials and one for the off ones (on first, each in the order reached). A
//! propagation with a larger depth limit does exactly what a smaller one did up to the first
//! potential that reaches the smaller limit: [`Mark`] is that point (the lengths of the order,
//! the parents and the removal log, and the cursors), and [`Net::rewind`] undoes what came
//! after it, so a forcing search can go on with a larger limit instead of starting again.
//! A new piece of a net's state that a propagation changes must be put back there too.

use super::Net;

/// A point of a propagation to come back to: the state before it first stopped at its depth
/// limit. Up to there, a propagation with a larger limit does exactly the same.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    order: usize,
    arena: usize,
    on_next: usize,
    off_next: usize,
    removed: usize,
    complete: bool,
}

impl Net<'_> {
    /// Whether [`Net::rewind`] can take a propagation back: not when sum shapes are kept (their
    /// dirty list is not logged) nor with nested rules (their board is not rewound).
    pub fn rewinds(&self) -> bool {
        !self.sums && self.nested.is_empty()
    }

    /// The next potential of one state (on or off) to follow, taken off its queue.
    /// Also returns its place in `order`.
    pub(super) fn next(&mut self, on: bool) -> Option<(usize, u32)> {
        let at = if on {
            &mut self.on_next
        } else {
            &mut self.off_next
        };
        // the potentials passed over are of the other state: no need to look at them again
        let Some(k) = self.order[*at..].iter().position(|&p| (p % 2 == 1) == on) else {
            *at = self.order.len();
            return None;
        };
        let i = *at + k;
        *at = i + 1;
        Some((i, self.order[i]))
    }

    /// Notes the first potential that reaches the depth limit (at place `i` of `order`, just
    /// taken off its queue): a larger limit does the same up to there.
    pub(super) fn stopped(&mut self, on: bool, i: usize) {
        if !self.cut {
            let (on_next, off_next) = if on {
                (i, self.off_next)
            } else {
                (self.on_next, i)
            };
            self.stop = Some(Mark {
                order: self.order.len(),
                arena: self.arena.len(),
                on_next,
                off_next,
                removed: self.removed.len(),
                complete: self.complete,
            });
        }
        self.cut = true;
    }

    /// Goes back to where the last propagation first stopped at its depth limit, to go on
    /// with a larger limit (only on nets that [`Net::rewinds`]).
    pub fn rewind(&mut self) {
        let m = self
            .stop
            .take()
            .expect("the propagation stopped at its limit");
        debug_assert!(self.rewinds());
        for &p in &self.order[m.order..] {
            self.slot[p as usize].seen = 0;
        }
        self.order.truncate(m.order);
        self.arena.truncate(m.arena);
        let words = self.b.words;
        while self.removed.len() > m.removed {
            let p = self.removed.pop().expect("a removal");
            let (c, v) = self.cand(p);
            self.work[c] |= 1 << v;
            self.holds[v * words + c / 64] |= 1u64 << (c % 64);
            for &s in self.b.unique_of[c].iter() {
                self.count[s * self.n + v] += 1;
            }
        }
        self.on_next = m.on_next;
        self.off_next = m.off_next;
        self.cut = false;
        self.complete = m.complete;
    }
}
