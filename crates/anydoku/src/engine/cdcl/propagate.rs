//! Propagation: the implicit peer constraints of a true literal (its cell's other symbols and
//! its symbol in the peers go false), then the stored clauses watching the literal that became
//! false; once that reaches a fixpoint, the sum shapes' filters ([`super::sums`]). While one
//! literal is handled, the watch list of a literal further on the trail is prefetched.

use super::clauses::HEADER;
use super::watches::Watch;
use super::{var, Cdcl, Conflict, Lit, CLAUSE, FALSE, TRUE, UNDEF};

/// How far past the literal being handled the trail's literal lies whose watch list is
/// prefetched: the one after next (the next one's would arrive too late).
const PREFETCH_AHEAD: usize = 1;

/// Asks the processor to load the cache line at `p` (a hint only, never a fault).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and never faults, whatever the address
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl Cdcl<'_> {
    /// Propagation of everything on the trail from `qhead`, units first, then the sum shapes;
    /// the conflict if one arises.
    pub(super) fn propagate(&mut self) -> Option<Conflict> {
        loop {
            if let Some(conflict) = self.propagate_units() {
                return Some(conflict);
            }
            self.sums.as_ref()?;
            if let Some(conflict) = self.propagate_sums() {
                return Some(conflict);
            }
            if self.qhead == self.trail.len() {
                return None;
            }
        }
    }

    /// Unit propagation of the peer constraints, the order variables' channelling
    /// ([`super::channel`]) and stored clauses (sum shapes whose cells
    /// change are marked dirty for [`Cdcl::propagate_sums`]).
    fn propagate_units(&mut self) -> Option<Conflict> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            // the watch list of a literal further on is loaded while this one is handled
            if let Some(&ahead) = self.trail.get(self.qhead + PREFETCH_AHEAD) {
                prefetch(self.watches.list_ptr(ahead ^ 1));
            }
            self.propagated += 1;
            let v = var(p);
            if p & 1 == 1 {
                self.touch_sums(v);
            } else {
                // the cell holds the symbol: its other symbols and the symbol in its peers go
                let (from, to) = (self.excludes_start[v], self.excludes_start[v + 1]);
                for k in from as usize..to as usize {
                    // SAFETY: `k` lies inside `excludes`, whose entries are variables
                    let u = unsafe { *self.excludes.get_unchecked(k) } as usize;
                    match unsafe { *self.value.get_unchecked(2 * u) } {
                        UNDEF => self.enqueue(2 * u as Lit + 1, p),
                        TRUE => return Some(Conflict::Peers(p, 2 * u as Lit)),
                        _ => {}
                    }
                }
            }
            if let Some(conflict) = self.channel(p) {
                return Some(conflict);
            }
            // (most literals that become false watch no clause)
            if self.watches.head(p ^ 1).len != 0 {
                if let Some(conflict) = self.propagate_clauses(p ^ 1) {
                    return Some(conflict);
                }
            }
        }
        None
    }

    /// Visits the clauses watching `false_lit`, which just became false.
    pub(super) fn propagate_clauses(&mut self, false_lit: Lit) -> Option<Conflict> {
        // SAFETY (all unchecked indexing below): literals index `value` (two entries per
        // variable); `i` and `j` stay inside `false_lit`'s list (`j <= i`), which pushes onto
        // other lists never move; watches point at stored clauses (never at deleted ones:
        // `reduce` drops their watches), whose saved position, index, length and literals lie
        // inside `lits`.
        let head = self.watches.head(false_lit);
        let (base, end) = (head.start as usize, (head.start + head.len) as usize);
        let (mut i, mut j) = (base, base);
        let mut conflict = None;
        while i < end {
            let w = self.watches.item(i);
            i += 1;
            if self.lit_value(w.blocker) == TRUE {
                self.watches.set_item(j, w);
                j += 1;
                continue;
            }
            let start = w.start as usize;
            let len = unsafe { *self.lits.get_unchecked(start - 1) } as usize;
            // the clause's second literal becomes `false_lit`
            let mut first = unsafe { *self.lits.get_unchecked(start) };
            if first == false_lit {
                first = unsafe { *self.lits.get_unchecked(start + 1) };
                unsafe {
                    *self.lits.get_unchecked_mut(start) = first;
                    *self.lits.get_unchecked_mut(start + 1) = false_lit;
                }
            }
            let watch = Watch {
                start: w.start,
                blocker: first,
            };
            if first != w.blocker && self.lit_value(first) == TRUE {
                self.watches.set_item(j, watch);
                j += 1;
                continue;
            }
            // a new literal to watch; in a search from nothing, the search for it goes on from
            // where the last one stopped (Gent's saved position: long clauses are not scanned
            // from their start each time)
            let saved = unsafe { *self.lits.get_unchecked(start - HEADER) } as usize;
            let saved = if saved < len && !self.near { saved } else { 2 };
            let found = self
                .non_false_in(start, saved, len)
                .or_else(|| self.non_false_in(start, 2, saved));
            if let Some(k) = found {
                let l = unsafe { *self.lits.get_unchecked(start + k) };
                unsafe { *self.lits.get_unchecked_mut(start - HEADER) = k as u32 };
                if self.lit_value(l) == TRUE && !self.near {
                    // (from nothing) the clause is satisfied: `l` becomes the blocker and the
                    // watch stays; `false_lit` is of the current level, so it is undone no
                    // later than `l`
                    debug_assert_eq!(self.vars[var(false_lit)].level, self.decision_level());
                    let watch = Watch {
                        start: w.start,
                        blocker: l,
                    };
                    self.watches.set_item(j, watch);
                    j += 1;
                    continue;
                }
                unsafe {
                    *self.lits.get_unchecked_mut(start + 1) = l;
                    *self.lits.get_unchecked_mut(start + k) = false_lit;
                }
                self.watches.push(l, watch);
                continue;
            }
            self.watches.set_item(j, watch);
            j += 1;
            if self.lit_value(first) == FALSE {
                let index = unsafe { *self.lits.get_unchecked(start - 2) };
                conflict = Some(Conflict::Clause(index));
                while i < end {
                    let w = self.watches.item(i);
                    self.watches.set_item(j, w);
                    i += 1;
                    j += 1;
                }
            } else {
                self.enqueue(first, CLAUSE | w.start);
            }
        }
        self.watches.truncate(false_lit, (j - base) as u32);
        conflict
    }

    /// The first position `k` in `from..to` of the clause whose literals start at `start`
    /// that holds a literal not false.
    #[inline(always)]
    fn non_false_in(&self, start: usize, from: usize, to: usize) -> Option<usize> {
        // SAFETY: `start + to` lies inside `lits` (the caller's clause)
        (from..to)
            .find(|&k| self.lit_value(unsafe { *self.lits.get_unchecked(start + k) }) != FALSE)
    }
}
