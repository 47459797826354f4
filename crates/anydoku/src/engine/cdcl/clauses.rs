//! The clause store: clauses back to back in one array (index and length before the literals),
//! two watched literals each with a blocker, clause activity, and the periodic reduction of
//! learnt clauses by literal-block distance, with compaction once half the store is dead.

use super::{var, Cdcl, Lit, CLAUSE, NO_REASON, TRUE};

#[derive(Clone, Copy)]
pub(super) struct Watch {
    /// Where the clause's literals start in `lits` (its index and length are the two words
    /// before).
    pub(super) start: u32,
    /// A literal of the clause: when it is true the clause need not be looked at.
    pub(super) blocker: Lit,
}

#[derive(Clone, Copy)]
pub(super) struct Clause {
    pub(super) start: u32,
    pub(super) len: u32,
    pub(super) lbd: u32,
    pub(super) activity: f32,
    pub(super) learnt: bool,
    pub(super) deleted: bool,
}

impl Cdcl<'_> {
    /// Stores a clause and watches its first two literals; returns its index.
    pub(super) fn add_clause(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        debug_assert!(lits.len() >= 2);
        let index = self.clauses.len() as u32;
        self.lits.extend_from_slice(&[index, lits.len() as u32]);
        let start = self.lits.len() as u32;
        self.clauses.push(Clause {
            start,
            len: lits.len() as u32,
            lbd,
            activity: 0.0,
            learnt,
            deleted: false,
        });
        self.lits.extend_from_slice(lits);
        self.watches[lits[0] as usize].push(Watch {
            start,
            blocker: lits[1],
        });
        self.watches[lits[1] as usize].push(Watch {
            start,
            blocker: lits[0],
        });
        if learnt {
            self.learnt_count += 1;
        }
        index
    }

    pub(super) fn bump_clause(&mut self, c: u32) {
        let meta = &mut self.clauses[c as usize];
        if !meta.learnt {
            return;
        }
        meta.activity += self.clause_inc;
        if meta.activity > 1e20 {
            for m in self.clauses.iter_mut().filter(|m| m.learnt) {
                m.activity *= 1e-20;
            }
            self.clause_inc *= 1e-20;
        }
    }

    /// Drops about half the learnt clauses: the ones with the highest literal-block distance and
    /// the least activity, keeping those of distance two or less and those that are reasons.
    pub(super) fn reduce(&mut self) {
        let mut candidates: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&c| {
                let m = self.clauses[c as usize];
                m.learnt && !m.deleted && m.lbd > 2 && !self.locked(c)
            })
            .collect();
        candidates.sort_by(|&a, &b| {
            let (x, y) = (self.clauses[a as usize], self.clauses[b as usize]);
            y.lbd.cmp(&x.lbd).then(x.activity.total_cmp(&y.activity))
        });
        for &c in &candidates[..candidates.len() / 2] {
            let m = &mut self.clauses[c as usize];
            m.deleted = true;
            self.deleted_lits += 2 + m.len as usize;
            self.learnt_count -= 1;
        }
        // propagation never looks at a deleted clause: its watches go now
        let (lits, clauses) = (&self.lits, &self.clauses);
        for ws in &mut self.watches {
            ws.retain(|w| !clauses[lits[w.start as usize - 2] as usize].deleted);
        }
        self.max_learnt += self.max_learnt / 10;
        self.reductions += 1;
        if self.deleted_lits > self.lits.len() / 2 {
            self.collect_garbage();
        }
    }

    /// Whether clause `c` is the reason of its first literal's assignment.
    pub(super) fn locked(&self, c: u32) -> bool {
        let first = self.lits[self.clauses[c as usize].start as usize];
        self.reason[var(first)] == CLAUSE | c && self.lit_value(first) == TRUE
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
            lits.extend_from_slice(&[clauses.len() as u32, m.len]);
            let start = lits.len() as u32;
            lits.extend_from_slice(&self.lits[m.start as usize..(m.start + m.len) as usize]);
            clauses.push(Clause { start, ..*m });
        }
        // (watches of deleted clauses are gone already)
        for ws in &mut self.watches {
            for w in ws.iter_mut() {
                let old = self.lits[w.start as usize - 2] as usize;
                w.start = clauses[renumber[old] as usize].start;
            }
        }
        for r in &mut self.reason {
            if *r != NO_REASON && *r & CLAUSE != 0 {
                let to = renumber[(*r & !CLAUSE) as usize];
                debug_assert_ne!(to, u32::MAX, "a reason clause was deleted");
                *r = CLAUSE | to;
            }
        }
        self.lits = lits;
        self.clauses = clauses;
        self.deleted_lits = 0;
        self.compactions += 1;
    }
}
