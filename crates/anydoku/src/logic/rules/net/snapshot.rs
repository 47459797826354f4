//! A finished propagation kept to be measured again.
//!
//! A forcing search propagates each assumption to find what it reaches, then, for the cell,
//! region and double proofs found among those reaches, needs the size of some potentials in
//! the same propagation. [`Snapshot`] keeps what [`Net::size`] and [`Net::has`] read (the
//! potentials reached, their parents and extra sizes), so the search restores it instead of
//! propagating the assumption again. A new piece of state that `size` reads must be kept here
//! too.

use super::Net;

/// The potentials of a finished propagation with their parents and extra sizes.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// (potential, start in `arena`, number of parents, extra size)
    pots: Vec<(u32, u32, u16, u32)>,
    arena: Vec<u32>,
}

impl Snapshot {
    /// The number of words it holds (to bound what a search keeps).
    pub fn words(&self) -> usize {
        self.pots.len() * 3 + self.arena.len()
    }
}

impl Net<'_> {
    /// What the current propagation reached, for [`Net::restore`].
    pub fn snapshot(&self) -> Snapshot {
        let pots = self
            .order
            .iter()
            .map(|&p| {
                let s = &self.slot[p as usize];
                (p, s.start, s.len, s.extra)
            })
            .collect();
        Snapshot {
            pots,
            arena: self.arena.clone(),
        }
    }

    /// Brings back a kept propagation, to be measured ([`Net::size`], [`Net::has`]); the net
    /// must be [`Net::reset`] before it propagates again.
    pub fn restore(&mut self, s: &Snapshot) {
        self.gen += 1;
        self.order.clear();
        self.arena.clear();
        self.arena.extend_from_slice(&s.arena);
        for &(p, start, len, extra) in &s.pots {
            let slot = &mut self.slot[p as usize];
            (slot.seen, slot.start, slot.len, slot.extra) = (self.gen, start, len, extra);
            self.order.push(p);
        }
    }
}
