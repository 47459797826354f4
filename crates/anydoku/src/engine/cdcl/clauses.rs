//! The clause store: clauses back to back in one array (before the literals: the position where
//! the last search for a new watch stopped, the index and the length), two watched literals each
//! with a blocker, clause activity, and the periodic reduction of
//! learnt clauses in tiers by literal-block distance (LBD), with compaction once half the store
//! is dead.
//!
//! The tiers, as in modern CDCL solvers (Glucose, MapleLCM, CaDiCaL): a learnt clause of LBD
//! [`Tiers::CORE`] or less is kept for good; one of LBD up to [`Tiers::TIER2`] is kept while it
//! took part in a conflict's analysis within the last [`Tiers::tier2_for`] conflicts (not on
//! models with sum shapes, see [`Tiers::for_sums`]); the rest
//! (the local tier) lose their worse half at each reduction. A clause's LBD is recomputed each
//! time it takes part in an analysis and kept when lower (Glucose's dynamic LBD), so clauses
//! that prove useful move up. Reductions come every [`Tiers::first`] conflicts plus
//! [`Tiers::step`] more each time. To tune the store, change these numbers (measure conflicts
//! and time on the 36x36 puzzles of docs/PERFORMANCE.md).

use super::watches::Watch;
use super::{var, Cdcl, Lit, CLAUSE, NO_CLAUSE, NO_REASON, TRUE, UNDEF};
use crate::engine::Mask;

/// Words before a clause's literals in `lits`: the position where the last search for a new
/// watch stopped (at `start - HEADER`), the clause's index and its length.
pub(super) const HEADER: usize = 3;

/// The index of the stored clause whose literals start at `start` in `lits` (a watch's or a
/// reason's way of naming it).
#[inline(always)]
pub(super) fn index_at(lits: &[Lit], start: u32) -> usize {
    lits[start as usize - 2] as usize
}

/// When learnt clauses are dropped and which are kept (see the module docs).
pub(super) struct Tiers {
    /// The conflict count at which the next reduction comes.
    pub(super) next_reduce: u64,
    /// Conflicts before the first reduction, and between the first two.
    pub(super) first: u64,
    /// Conflicts added to the gap between reductions at each one.
    pub(super) step: u64,
    /// Conflicts a tier-2 clause stays kept after it last took part in an analysis.
    pub(super) tier2_for: u64,
}

impl Tiers {
    /// LBD of clauses kept for good.
    pub(super) const CORE: u32 = 2;
    /// LBD of clauses kept while they are used.
    pub(super) const TIER2: u32 = 6;
}

impl Tiers {
    /// The numbers for a model with sum shapes (`sums`) or without. With sum shapes there is no
    /// tier 2 (its clauses go with the local tier): kept tier-2 clauses made the hard Little
    /// Killers slower (the figures are in docs/PERFORMANCE.md).
    pub(super) fn for_sums(sums: bool) -> Self {
        Tiers {
            next_reduce: 2000,
            first: 2000,
            step: 300,
            tier2_for: if sums { 0 } else { 30_000 },
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct Clause {
    pub(super) start: u32,
    pub(super) len: u32,
    pub(super) lbd: u32,
    pub(super) activity: f32,
    pub(super) learnt: bool,
    pub(super) deleted: bool,
    /// Whether vivification tried the clause already ([`super::vivify`]).
    pub(super) vivified: bool,
    /// The conflict count when the clause last took part in a conflict's analysis.
    pub(super) used: u64,
}

impl Cdcl<'_> {
    /// Stores a clause and watches its first two literals; returns its index.
    pub(super) fn add_clause(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        debug_assert!(lits.len() >= 2);
        let index = self.clauses.len() as u32;
        // (a new watch is first sought at 2, after the two watched literals)
        self.lits.extend_from_slice(&[2, index, lits.len() as u32]);
        let start = self.lits.len() as u32;
        // (a reason names a clause by its start, below the tag bit)
        debug_assert!(start < CLAUSE);
        self.clauses.push(Clause {
            start,
            len: lits.len() as u32,
            lbd,
            activity: 0.0,
            learnt,
            deleted: false,
            vivified: false,
            used: self.conflicts,
        });
        self.lits.extend_from_slice(lits);
        self.watches.push(
            lits[0],
            Watch {
                start,
                blocker: lits[1],
            },
        );
        self.watches.push(
            lits[1],
            Watch {
                start,
                blocker: lits[0],
            },
        );
        index
    }

    /// The root's facts and clauses: a cell with one candidate goes on the trail (so its
    /// peers are checked against it), the others are open, each with the clause "holds one of
    /// its candidates"; per complete shape and symbol not placed yet, "holds it somewhere" (a
    /// hidden single the root propagation left is asserted, none at all is a contradiction).
    pub(super) fn add_root(&mut self, root: &[Mask]) {
        let n = self.n;
        // cells fixed at the root go on the trail, so their peers are checked against them
        for (c, &m) in root.iter().enumerate() {
            if m == 0 {
                self.ok = false;
            } else if m & (m - 1) == 0 {
                let v = self.map.of_cell(c).start;
                self.enqueue(2 * v as Lit, NO_REASON);
            } else {
                self.open.push(c as u32);
            }
        }
        let mut clause = Vec::with_capacity(n);
        for &c in &self.open.clone() {
            clause.clear();
            clause.extend(self.map.of_cell(c as usize).map(|v| 2 * v as Lit));
            self.add_clause(&clause, false, 0);
        }
        for (k, shape) in self.e.complete.chunks_exact(n.max(1)).enumerate() {
            for t in 0..n {
                clause.clear();
                let mut placed = false;
                for &c in shape {
                    // a candidate outside the root is false
                    let Some(v) = self.map.var(c as usize, t) else {
                        continue;
                    };
                    match self.value[2 * v] {
                        TRUE => placed = true,
                        UNDEF => clause.push(2 * v as Lit),
                        _ => {}
                    }
                }
                if placed {
                    continue;
                }
                match clause.len() {
                    0 => self.ok = false,
                    // a hidden single the root propagation left: assert it at the root
                    1 => self.enqueue(clause[0], NO_REASON),
                    _ => self.places[k * n + t] = self.add_clause(&clause, false, 0),
                }
            }
        }
    }

    /// A learnt clause `c` took part in a conflict's analysis: its activity grows, it is marked
    /// used now, and its LBD is recomputed (kept when lower).
    pub(super) fn bump_clause(&mut self, c: u32) {
        let meta = &mut self.clauses[c as usize];
        if !meta.learnt {
            return;
        }
        meta.used = self.conflicts;
        meta.activity += self.clause_inc;
        if meta.lbd > Tiers::CORE {
            let (start, len, old) = (meta.start as usize, meta.len as usize, meta.lbd);
            self.stamp += 1;
            let mut lbd = 0;
            for &l in &self.lits[start..start + len] {
                let lv = self.vars[var(l)].level as usize;
                if self.level_stamp[lv] != self.stamp {
                    self.level_stamp[lv] = self.stamp;
                    lbd += 1;
                    if lbd >= old {
                        break;
                    }
                }
            }
            let meta = &mut self.clauses[c as usize];
            meta.lbd = meta.lbd.min(lbd);
        }
        let meta = &self.clauses[c as usize];
        if meta.activity > 1e20 {
            for m in self.clauses.iter_mut().filter(|m| m.learnt) {
                m.activity *= 1e-20;
            }
            self.clause_inc *= 1e-20;
        }
    }

    /// Drops half the learnt clauses of the local tier (see the module docs): the ones with the
    /// highest LBD and the least activity, keeping those that are reasons; sets the next
    /// reduction.
    pub(super) fn reduce(&mut self) {
        let now = self.conflicts;
        let tier2_for = self.tiers.tier2_for;
        let mut candidates: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&c| {
                let m = self.clauses[c as usize];
                m.learnt
                    && !m.deleted
                    && m.lbd > Tiers::CORE
                    && !(m.lbd <= Tiers::TIER2 && now - m.used < tier2_for)
                    && !self.locked(c)
            })
            .collect();
        candidates.sort_by(|&a, &b| {
            let (x, y) = (self.clauses[a as usize], self.clauses[b as usize]);
            y.lbd.cmp(&x.lbd).then(x.activity.total_cmp(&y.activity))
        });
        for &c in &candidates[..candidates.len() / 2] {
            let m = &mut self.clauses[c as usize];
            m.deleted = true;
            self.deleted_lits += HEADER + m.len as usize;
        }
        // propagation never looks at a deleted clause: its watches go now
        let (lits, clauses) = (&self.lits, &self.clauses);
        self.watches
            .retain(|w| !clauses[index_at(lits, w.start)].deleted);
        let t = &mut self.tiers;
        t.next_reduce = now + t.first + t.step * self.reductions;
        self.reductions += 1;
        self.vivify.due = true;
        if self.deleted_lits > self.lits.len() / 2 {
            self.collect_garbage();
        }
    }

    /// Whether clause `c` is the reason of its first literal's assignment.
    pub(super) fn locked(&self, c: u32) -> bool {
        let start = self.clauses[c as usize].start;
        let first = self.lits[start as usize];
        self.vars[var(first)].reason == CLAUSE | start && self.lit_value(first) == TRUE
    }

    /// Compacts the clause store after deletions, renumbering clauses in watches and reasons.
    pub(super) fn collect_garbage(&mut self) {
        let mut renumber = vec![u32::MAX; self.clauses.len()];
        let mut lits = Vec::with_capacity(self.lits.len() - self.deleted_lits);
        let mut clauses = Vec::with_capacity(self.clauses.len());
        for (i, m) in self.clauses.iter().enumerate() {
            if m.deleted {
                continue;
            }
            renumber[i] = clauses.len() as u32;
            let saved = self.lits[m.start as usize - HEADER];
            lits.extend_from_slice(&[saved, clauses.len() as u32, m.len]);
            let start = lits.len() as u32;
            lits.extend_from_slice(&self.lits[m.start as usize..(m.start + m.len) as usize]);
            clauses.push(Clause { start, ..*m });
        }
        // (watches of deleted clauses are gone already)
        let old_lits = &self.lits;
        self.watches.for_each_mut(|w| {
            let old = index_at(old_lits, w.start);
            w.start = clauses[renumber[old] as usize].start;
        });
        // (an unassigned variable's reason is stale and never read: only assigned ones move)
        for (v, r) in self.vars.iter_mut().map(|a| &mut a.reason).enumerate() {
            if *r != NO_REASON && *r & CLAUSE != 0 && self.value[2 * v] != UNDEF {
                let to = renumber[index_at(&self.lits, *r & !CLAUSE)];
                debug_assert_ne!(to, u32::MAX, "a reason clause was deleted");
                *r = CLAUSE | clauses[to as usize].start;
            }
        }
        for p in self.places.iter_mut().filter(|p| **p != NO_CLAUSE) {
            // (a shape's clause comes from the root, and only learnt clauses are deleted)
            debug_assert_ne!(
                renumber[*p as usize],
                u32::MAX,
                "a shape's clause was deleted"
            );
            *p = renumber[*p as usize];
        }
        self.lits = lits;
        self.clauses = clauses;
        self.deleted_lits = 0;
        self.compactions += 1;
    }
}
