//! The watch lists: per literal, the stored clauses watching it, all in one array.
//!
//! A list is a block of [`WatchLists::items`] with a small head (start, length, capacity):
//! propagation reads the head of every literal that becomes false, so the heads are kept
//! small and together, the positive literals' first (a candidate ruled out is by far the most
//! common event, and its list is read then). A list that outgrows its block moves to a block
//! twice as big at the end of the array; the blocks left behind are reclaimed when the lists
//! are rebuilt ([`WatchLists::retain`], at each reduction of the clause store) once they are
//! as big as the live ones.
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
    /// Entries of `items` in blocks no list holds any more.
    garbage: usize,
}

/// The smallest block a list gets.
const MIN_CAP: u32 = 4;

impl WatchLists {
    /// Empty lists for the literals of `vars` variables.
    pub(super) fn new(vars: usize) -> Self {
        WatchLists {
            heads: vec![Head::default(); 2 * vars],
            items: Vec::new(),
            vars,
            garbage: 0,
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
        let blank = Watch {
            start: 0,
            blocker: 0,
        };
        self.items.resize(start + cap as usize, blank);
        self.items
            .copy_within(h.start as usize..(h.start + h.len) as usize, start);
        self.garbage += h.cap as usize;
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
    /// rebuilt without the blocks left behind when these are as big as the live ones.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Watch) -> bool) {
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
        }
        if self.garbage * 2 >= self.items.len() {
            self.compact();
        }
    }

    /// Rebuilds `items` with each list in a block of its own length rounded up to a power of
    /// two (none for an empty list).
    fn compact(&mut self) {
        let mut items = Vec::with_capacity(self.items.len() - self.garbage);
        for h in &mut self.heads {
            let cap = if h.len == 0 {
                0
            } else {
                h.len.next_power_of_two().max(MIN_CAP)
            };
            let start = items.len();
            items.extend_from_slice(&self.items[h.start as usize..(h.start + h.len) as usize]);
            items.resize(
                start + cap as usize,
                Watch {
                    start: 0,
                    blocker: 0,
                },
            );
            *h = Head {
                start: start as u32,
                len: h.len,
                cap,
            };
        }
        self.items = items;
        self.garbage = 0;
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
