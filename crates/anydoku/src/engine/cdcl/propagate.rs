//! Propagation: the implicit peer constraints of a true literal (its cell's other symbols and
//! its symbol in the peers go false), then the stored clauses watching the literal that became
//! false; once that reaches a fixpoint, the sum shapes' filters ([`super::sums`]).

use super::clauses::Watch;
use super::{var, Cdcl, Conflict, Lit, CLAUSE, FALSE, TRUE, UNDEF};

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
            if !self.watches[(p ^ 1) as usize].is_empty() {
                if let Some(conflict) = self.propagate_clauses(p ^ 1) {
                    return Some(conflict);
                }
            }
        }
        None
    }

    /// Visits the clauses watching `false_lit`, which just became false.
    pub(super) fn propagate_clauses(&mut self, false_lit: Lit) -> Option<Conflict> {
        let mut ws = std::mem::take(&mut self.watches[false_lit as usize]);
        let (mut i, mut j) = (0, 0);
        let mut conflict = None;
        // SAFETY (all unchecked indexing below): `i` and `j` stay below `ws.len()` (`j <= i`),
        // watches point at stored clauses (never at deleted ones: `reduce` drops their
        // watches), whose index, length and literals lie inside `lits`.
        while i < ws.len() {
            let w = unsafe { *ws.get_unchecked(i) };
            i += 1;
            if self.lit_value(w.blocker) == TRUE {
                unsafe { *ws.get_unchecked_mut(j) = w };
                j += 1;
                continue;
            }
            let start = w.start as usize;
            let len = unsafe { *self.lits.get_unchecked(start - 1) } as usize;
            let clause = unsafe { self.lits.get_unchecked_mut(start..start + len) };
            if clause[0] == false_lit {
                clause.swap(0, 1);
            }
            let first = clause[0];
            let watch = Watch {
                start: w.start,
                blocker: first,
            };
            if first != w.blocker && self.lit_value(first) == TRUE {
                unsafe { *ws.get_unchecked_mut(j) = watch };
                j += 1;
                continue;
            }
            // a new literal to watch
            let mut moved = None;
            let clause = unsafe { self.lits.get_unchecked(start..start + len) };
            for (k, &l) in clause.iter().enumerate().skip(2) {
                if self.lit_value(l) != FALSE {
                    moved = Some((k, l));
                    break;
                }
            }
            if let Some((k, l)) = moved {
                self.lits.swap(start + 1, start + k);
                self.watches[l as usize].push(watch);
                continue;
            }
            unsafe { *ws.get_unchecked_mut(j) = watch };
            j += 1;
            let index = unsafe { *self.lits.get_unchecked(start - 2) };
            if self.lit_value(first) == FALSE {
                conflict = Some(Conflict::Clause(index));
                while i < ws.len() {
                    unsafe { *ws.get_unchecked_mut(j) = *ws.get_unchecked(i) };
                    i += 1;
                    j += 1;
                }
            } else {
                self.enqueue(first, CLAUSE | index);
            }
        }
        ws.truncate(j);
        self.watches[false_lit as usize] = ws;
        conflict
    }
}
