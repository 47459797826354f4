//! The watch lists: per literal, the stored clauses watching it, all in one array.
//!
//! A list is a block of [`WatchLists::items`] with a small head (start, length, capacity):
//! propagation reads the head of every literal that becomes false, so the heads are kept
//! small and together, the positive literals' first (a candidate ruled out is by far the most
//! common event, and its list is read then). A list that outgrows its block moves to a block
//! twice as big at the end of the array; the blocks left behind (and room lists no longer use)
//! are reclaimed when the lists are rebuilt ([`WatchLists::retain`], at each reduction of the
//! clause store) once the array is more than twice what a rebuild would leave.
//!
//! Everything outside this module goes through its methods, except the propagation loop,
//! which walks one list by position ([`WatchLists::head`], [`WatchLists::item`]) while it
//! pushes onto others: a push never moves the list being walked (its literal is false, and
//! only non-false literals get new watches).

use super::Lit;

#[derive(Clone, Copy)]
pub(super) struct Watch {
    /// Where the clause's literals start in `lits` (its saved search position, index and
    /// length are the words before, see [`super::clauses::HEADER`]).
    pub(super) start: u32,
    /// A literal of the clause: when it is true the clause need not be looked at.
    pub(super) blocker: Lit,
}

/// Where a literal's list lies in `items`.
#[derive(Clone, Copy, Default)]
pub(super) struct Head {
    pub(super) start: u32,
    pub(super) len: u32,
    cap: u32,
}

/// Every literal's watch list (see the module docs).
pub(super) struct WatchLists {
    heads: Vec<Head>,
    items: Vec<Watch>,
    /// The variable count: literal `2v + s` has head `s * vars + v`.
    vars: usize,
}

/// The smallest block a list gets.
const MIN_CAP: u32 = 4;

/// What fills the free part of a block.
const BLANK: Watch = Watch {
    start: 0,
    blocker: 0,
};

/// The block a rebuild gives a list of `len` watches: its length rounded up to a power of two,
/// at least [`MIN_CAP`] (none for an empty list).
fn block_for(len: u32) -> u32 {
    if len == 0 {
        0
    } else {
        len.next_power_of_two().max(MIN_CAP)
    }
}

impl WatchLists {
    /// Empty lists for the literals of `vars` variables.
    pub(super) fn new(vars: usize) -> Self {
        WatchLists {
            heads: vec![Head::default(); 2 * vars],
            items: Vec::new(),
            vars,
        }
    }

    #[inline(always)]
    fn slot(&self, l: Lit) -> usize {
        (l as usize & 1) * self.vars + (l as usize >> 1)
    }

    /// The head of `l`'s list.
    #[inline(always)]
    pub(super) fn head(&self, l: Lit) -> Head {
        debug_assert!(self.slot(l) < self.heads.len());
        // SAFETY: every literal handled here is of one of the `vars` variables
        unsafe { *self.heads.get_unchecked(self.slot(l)) }
    }

    /// Sets the length of `l`'s list (no longer than it was).
    #[inline(always)]
    pub(super) fn truncate(&mut self, l: Lit, len: u32) {
        let s = self.slot(l);
        debug_assert!(len <= self.heads[s].len);
        // SAFETY: as in `head`
        unsafe { self.heads.get_unchecked_mut(s).len = len };
    }

    /// The watch at position `k` of `items` (inside a list's block).
    #[inline(always)]
    pub(super) fn item(&self, k: usize) -> Watch {
        debug_assert!(k < self.items.len());
        // SAFETY: callers pass positions inside a list (from its head)
        unsafe { *self.items.get_unchecked(k) }
    }

    /// Overwrites the watch at position `k` of `items` (inside a list's block).
    #[inline(always)]
    pub(super) fn set_item(&mut self, k: usize, w: Watch) {
        debug_assert!(k < self.items.len());
        // SAFETY: as in `item`
        unsafe { *self.items.get_unchecked_mut(k) = w };
    }

    /// The address of the first watch of `l`'s list, for a prefetch.
    #[inline(always)]
    pub(super) fn list_ptr(&self, l: Lit) -> *const Watch {
        self.items
            .as_ptr()
            .wrapping_add(self.head(l).start as usize)
    }

    /// Appends `w` to `l`'s list, moving the list to a bigger block when its own is full.
    #[inline(always)]
    pub(super) fn push(&mut self, l: Lit, w: Watch) {
        let s = self.slot(l);
        // SAFETY: as in `head`
        let h = unsafe { *self.heads.get_unchecked(s) };
        if h.len == h.cap {
            self.grow(s);
        }
        // SAFETY: as in `head`; the list's block has room for one more (`grow`)
        unsafe {
            let h = self.heads.get_unchecked_mut(s);
            let at = (h.start + h.len) as usize;
            h.len += 1;
            *self.items.get_unchecked_mut(at) = w;
        }
    }

    /// Moves list `s` to a block twice its capacity at the end of `items`.
    #[cold]
    fn grow(&mut self, s: usize) {
        let h = self.heads[s];
        let cap = (2 * h.cap).max(MIN_CAP);
        let start = self.items.len();
        debug_assert!(start + cap as usize <= u32::MAX as usize);
        self.items.resize(start + cap as usize, BLANK);
        self.items
            .copy_within(h.start as usize..(h.start + h.len) as usize, start);
        self.heads[s] = Head {
            start: start as u32,
            len: h.len,
            cap,
        };
    }

    /// Removes the first watch of `l`'s list that `is_it` picks, if any (the last one takes its
    /// place).
    pub(super) fn remove(&mut self, l: Lit, is_it: impl Fn(&Watch) -> bool) {
        let h = self.head(l);
        let list = &mut self.items[h.start as usize..(h.start + h.len) as usize];
        if let Some(at) = list.iter().position(is_it) {
            list.swap(at, h.len as usize - 1);
            self.truncate(l, h.len - 1);
        }
    }

    /// Keeps, in every list, the watches `keep` accepts (in their order); the lists are
    /// rebuilt ([`WatchLists::compact`]) when the array is more than twice what a rebuild
    /// would leave.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Watch) -> bool) {
        let mut rebuilt = 0;
        for s in 0..self.heads.len() {
            let h = self.heads[s];
            let mut j = h.start;
            for k in h.start..h.start + h.len {
                let w = self.items[k as usize];
                if keep(&w) {
                    self.items[j as usize] = w;
                    j += 1;
                }
            }
            self.heads[s].len = j - h.start;
            rebuilt += block_for(j - h.start) as usize;
        }
        if self.items.len() > 2 * rebuilt {
            self.compact(rebuilt);
        }
    }

    /// Rebuilds `items` with each list in a block of [`block_for`] its length (`size` entries
    /// in all).
    fn compact(&mut self, size: usize) {
        let mut items = Vec::with_capacity(size);
        for h in &mut self.heads {
            let cap = block_for(h.len);
            let start = items.len();
            items.extend_from_slice(&self.items[h.start as usize..(h.start + h.len) as usize]);
            items.resize(start + cap as usize, BLANK);
            *h = Head {
                start: start as u32,
                len: h.len,
                cap,
            };
        }
        self.items = items;
    }

    /// Applies `f` to every watch of every list.
    pub(super) fn for_each_mut(&mut self, mut f: impl FnMut(&mut Watch)) {
        for h in &self.heads {
            for w in &mut self.items[h.start as usize..(h.start + h.len) as usize] {
                f(w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// `l`'s watches, in order.
    fn list(w: &WatchLists, l: Lit) -> Vec<(u32, Lit)> {
        let h = w.head(l);
        (h.start..h.start + h.len)
            .map(|k| {
                let x = w.item(k as usize);
                (x.start, x.blocker)
            })
            .collect()
    }

    /// Random pushes, removals, truncations and rebuilds keep every list equal to a plain
    /// `Vec` per literal doing the same (moves to bigger blocks and compactions included).
    #[test]
    fn lists_match_a_vec_per_literal() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let vars = 2;
        let mut w = WatchLists::new(vars);
        let mut model: Vec<Vec<(u32, Lit)>> = vec![Vec::new(); 2 * vars];
        let (mut grew, mut compacted) = (false, false);
        for step in 0..20_000u32 {
            let l = rng.gen_range(0..2 * vars as Lit);
            match rng.gen_range(0..40) {
                0..=29 => {
                    let x = (step, rng.gen_range(0..2 * vars as Lit));
                    let before = w.head(l).start;
                    w.push(
                        l,
                        Watch {
                            start: x.0,
                            blocker: x.1,
                        },
                    );
                    grew |=
                        model[l as usize].len() >= MIN_CAP as usize && w.head(l).start != before;
                    model[l as usize].push(x);
                }
                30..=34 => {
                    if let Some(&(s, _)) = model[l as usize].last() {
                        w.remove(l, |x| x.start == s);
                        let m = &mut model[l as usize];
                        let at = m.iter().position(|x| x.0 == s).expect("present");
                        m.swap_remove(at);
                    }
                }
                35..=37 => {
                    let len = rng.gen_range(0..=model[l as usize].len());
                    w.truncate(l, len as u32);
                    model[l as usize].truncate(len);
                }
                _ => {
                    let items_before = w.items.len();
                    let kept = |x: &Watch| !x.start.is_multiple_of(3);
                    w.retain(kept);
                    for m in &mut model {
                        m.retain(|x| !x.0.is_multiple_of(3));
                    }
                    compacted |= w.items.len() < items_before;
                }
            }
            for k in 0..2 * vars as Lit {
                assert_eq!(list(&w, k), model[k as usize], "literal {k}, step {step}");
            }
        }
        assert!(grew && compacted, "moved {grew}, compacted {compacted}");
    }
}
