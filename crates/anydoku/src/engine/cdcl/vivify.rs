//! Vivification of learnt clauses (as in CaDiCaL and Kissat): at the root, after a restart, a
//! learnt clause's literals are made false one by one, each as a decision followed by full
//! propagation (peers, clauses, sum shapes). When that leads to a conflict, the literals made
//! false so far are a clause on their own; when a later literal of the clause comes out true,
//! the literals made false so far and that one are; a literal that comes out false on its own
//! is left out. The shorter clause replaces the learnt one (every step is a consequence of the
//! formula, the learnt clause included, which is itself one).
//!
//! Shorter learnt clauses mean fewer watch visits and shorter reasons in conflict analysis.
//! Each learnt clause is vivified once, the clauses of lowest literal-block distance first, and
//! a round takes at most [`Vivify::EFFORT`] propagated literals per conflict since the last
//! round. To tune it, change the effort or the choice of clauses (measure CPU time and
//! conflicts on the hard-sum set and the 36x36 puzzles of docs/PERFORMANCE.md).

use super::{Cdcl, Lit, FALSE, NO_REASON, TRUE, UNDEF};

/// When the next round comes, and the rounds' scratch.
pub(super) struct Vivify {
    /// The conflict count of the last round, and the conflicts between two rounds, at least.
    last: u64,
    pub(super) gap: u64,
    /// Learnt clauses shortened or dropped so far.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) shortened: u64,
    /// Scratch: the candidates of a round, the literals of a clause, the kept ones, and the
    /// saved phases (a round leaves them as they were).
    candidates: Vec<u32>,
    lits: Vec<Lit>,
    kept: Vec<Lit>,
    phase: Vec<bool>,
}

impl Vivify {
    /// Propagated literals a round may spend per conflict since the last round.
    const EFFORT: u64 = 20;
    /// Conflicts between two rounds, at least, by default.
    const GAP: u64 = 1000;

    pub(super) fn new() -> Self {
        Vivify {
            last: 0,
            gap: Self::GAP,
            shortened: 0,
            candidates: Vec::new(),
            lits: Vec::new(),
            kept: Vec::new(),
            phase: Vec::new(),
            tried: 0,
            shortened: 0,
            removed: 0,
        }
    }
}

impl Cdcl<'_> {
    /// A round of vivification at the root when enough conflicts have passed since the last:
    /// the learnt clauses not vivified yet, lowest literal-block distance first, until the
    /// round's effort is spent. Sets `ok` to false when the root turns out unsatisfiable.
    pub(super) fn vivify(&mut self) {
        if self.conflicts < self.viv.last + self.viv.gap || !self.ok {
            return;
        }
        debug_assert_eq!(self.decision_level(), 0);
        let budget = Vivify::EFFORT * (self.conflicts - self.viv.last);
        self.viv.last = self.conflicts;
        if self.propagate().is_some() {
            self.ok = false;
            return;
        }
        let mut candidates = std::mem::take(&mut self.viv.candidates);
        candidates.clear();
        candidates.extend((0..self.clauses.len() as u32).filter(|&c| {
            let m = &self.clauses[c as usize];
            m.learnt && !m.deleted && !m.vivified
        }));
        candidates.sort_by(|&a, &b| {
            let (x, y) = (&self.clauses[a as usize], &self.clauses[b as usize]);
            x.lbd.cmp(&y.lbd).then(y.activity.total_cmp(&x.activity))
        });
        // the rounds' decisions leave the saved phases as they were
        let mut phase = std::mem::take(&mut self.viv.phase);
        phase.clone_from(&self.phase);
        let root = self.trail.len();
        let mut spent = 0u64;
        for &c in &candidates {
            if spent > budget || !self.ok {
                break;
            }
            if self.clauses[c as usize].deleted || self.locked(c) {
                continue;
            }
            spent += self.vivify_clause(c, root) as u64;
            self.backtrack(0);
        }
        self.viv.candidates = candidates;
        std::mem::swap(&mut self.phase, &mut phase);
        self.viv.phase = phase;
    }

    /// Vivifies learnt clause `c` (see the module docs); returns the literals it propagated
    /// above the `root` trail length (it may leave them on the trail: the caller backtracks).
    fn vivify_clause(&mut self, c: u32, root: usize) -> usize {
        let meta = self.clauses[c as usize];
        let mut lits = std::mem::take(&mut self.viv.lits);
        let mut kept = std::mem::take(&mut self.viv.kept);
        lits.clear();
        kept.clear();
        lits.extend_from_slice(&self.lits[meta.start as usize..(meta.start + meta.len) as usize]);
        self.clauses[c as usize].vivified = true;
        let mut satisfied = false;
        for &l in &lits {
            match self.lit_value(l) {
                TRUE => {
                    // true at the root: the clause is satisfied for good; else implied by the
                    // literals made false so far
                    if self.level[super::var(l)] == 0 {
                        satisfied = true;
                    } else {
                        kept.push(l);
                    }
                    break;
                }
                FALSE => {}
                _ => {
                    debug_assert_eq!(self.lit_value(l), UNDEF);
                    kept.push(l);
                    self.trail_lim.push(self.trail.len());
                    self.enqueue(l ^ 1, NO_REASON);
                    if self.propagate().is_some() {
                        break;
                    }
                }
            }
        }
        let spent = self.trail.len() - root;
        if satisfied || kept.len() < lits.len() {
            self.replace(c, &kept, satisfied);
        }
        self.viv.lits = lits;
        self.viv.kept = kept;
        spent
    }

    /// Replaces learnt clause `c` by the clause `kept` (a subset of its literals), or drops it
    /// when it is `satisfied` at the root.
    fn replace(&mut self, c: u32, kept: &[Lit], satisfied: bool) {
        self.backtrack(0);
        let meta = self.clauses[c as usize];
        let first = self.lits[meta.start as usize];
        let second = self.lits[meta.start as usize + 1];
        for w in [first, second] {
            self.watches[w as usize].retain(|w| w.start != meta.start);
        }
        self.clauses[c as usize].deleted = true;
        self.deleted_lits += 2 + meta.len as usize;
        self.viv.shortened += 1;
        if satisfied {
            return;
        }
        // every literal kept was unassigned at the root when it was decided on (or found true)
        debug_assert!(kept.iter().all(|&l| self.lit_value(l) == UNDEF));
        match kept.len() {
            0 => self.ok = false,
            1 => {
                if self.lit_value(kept[0]) == UNDEF {
                    self.enqueue(kept[0], NO_REASON);
                }
                if self.propagate().is_some() {
                    self.ok = false;
                }
            }
            _ => {
                let lbd = meta.lbd.min(kept.len() as u32);
                let index = self.add_clause(kept, true, lbd);
                let new = &mut self.clauses[index as usize];
                new.vivified = true;
                new.activity = meta.activity;
                new.used = meta.used;
            }
        }
    }
}
