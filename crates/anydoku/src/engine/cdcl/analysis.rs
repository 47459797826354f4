//! Conflict analysis: the first-UIP learnt clause, minimised recursively (a literal goes when its
//! reasons lead only to the clause's other literals and root facts), on models whose sums all
//! reason on bounds with the literals that one true literal forbade resolved into its negation
//! ([`Cdcl::group_reasons`]),
//! the level to jump back to and the clause's literal-block distance.

use super::{channel, clauses, sums, var, Cdcl, Conflict, Lit, CLAUSE, NO_REASON};

impl Cdcl<'_> {
    /// Appends to `out` the literals of the reason of variable `v` other than its own (all
    /// false): a stored clause's, the true peer literal that forbade it, or a sum shape's
    /// explanation.
    #[inline(always)]
    pub(super) fn reason_into(&mut self, v: usize, out: &mut Vec<Lit>) {
        let reason = self.vars[v].reason;
        if reason & CLAUSE != 0 {
            let range = self.clause_range(reason);
            for &l in &self.lits[range] {
                if var(l) != v {
                    out.push(l);
                }
            }
        } else if sums::is_sum(reason) {
            let snap = self.sum_snap(v);
            self.explain_sum(reason & !sums::SUM, snap, Some(v), out);
        } else if reason == channel::ORDER {
            self.explain_order(v, out);
        } else {
            // a peer constraint or a channelling implication: the true literal `reason` forbade
            // or implied this one
            out.push(reason ^ 1);
        }
    }

    /// Where the literals of the stored clause that is `reason` lie in `lits`.
    #[inline(always)]
    pub(super) fn clause_range(&self, reason: u32) -> std::ops::Range<usize> {
        let start = (reason & !CLAUSE) as usize;
        start..start + self.lits[start - 1] as usize
    }

    /// The conflict's literals (all false) into `out`; `true` when a propagator explained it
    /// (its explanation may then lie below the level the conflict was found at).
    fn conflict_lits(&mut self, conflict: Conflict, out: &mut Vec<Lit>) -> bool {
        match conflict {
            Conflict::Clause(c) => {
                self.bump_clause(c);
                let meta = self.clauses[c as usize];
                out.extend_from_slice(
                    &self.lits[meta.start as usize..(meta.start + meta.len) as usize],
                );
                false
            }
            Conflict::Peers(a, b) => {
                out.extend_from_slice(&[a ^ 1, b ^ 1]);
                false
            }
            Conflict::Sum(i, snap) => {
                self.explain_sum(i, snap, None, out);
                true
            }
            Conflict::Linear => {
                if let Some(lin) = self.linear.as_ref() {
                    out.extend_from_slice(&lin.clause);
                }
                true
            }
        }
    }

    /// Backtracks to the highest level among a propagator's explanation `lits` (its conflict
    /// may have been found after deeper decisions); `false` when that level is the root.
    fn jump_to_highest(&mut self, lits: &[Lit]) -> bool {
        let top = lits
            .iter()
            .map(|&l| self.vars[var(l)].level)
            .max()
            .unwrap_or(0);
        if top == 0 {
            return false;
        }
        self.backtrack(top);
        true
    }

    /// First-UIP conflict analysis: the learnt clause (asserting literal first, then a literal
    /// of the level to jump back to), that level and the clause's literal-block distance; `None`
    /// when the conflict holds at the root (no solution). A sum shape's conflict whose
    /// explanation lies below the current level first jumps back to its highest level.
    pub(super) fn analyze(&mut self, conflict: Conflict) -> Option<(Vec<Lit>, u32, u32)> {
        if let Some(sums) = self.sums.as_mut() {
            sums.new_analysis();
        }
        let mut reason_lits: Vec<Lit> = std::mem::take(&mut self.reason_buf);
        reason_lits.clear();
        let explained = self.conflict_lits(conflict, &mut reason_lits);
        if explained && !self.jump_to_highest(&reason_lits) {
            self.reason_buf = reason_lits;
            return None;
        }
        let mut learnt: Vec<Lit> = std::mem::take(&mut self.learnt_buf);
        learnt.clear();
        learnt.push(0);
        let mut open = 0usize;
        let level_now = self.decision_level();
        let mut index = self.trail.len();
        let uip;
        loop {
            for &q in &reason_lits {
                let v = var(q);
                if !self.seen[v] && self.vars[v].level > 0 {
                    self.seen[v] = true;
                    self.to_clear.push(v);
                    self.bump_var(v);
                    if self.vars[v].level >= level_now {
                        open += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            // the next literal of this level on the trail that takes part
            let p = loop {
                index -= 1;
                let p = self.trail[index];
                if self.seen[var(p)] {
                    break p;
                }
            };
            open -= 1;
            if open == 0 {
                uip = p;
                break;
            }
            let v = var(p);
            let reason = self.vars[v].reason;
            if reason & CLAUSE != 0 {
                self.bump_clause(clauses::index_at(&self.lits, reason & !CLAUSE) as u32);
            }
            reason_lits.clear();
            self.reason_into(v, &mut reason_lits);
        }
        self.reason_buf = reason_lits;
        learnt[0] = uip ^ 1;
        // drop literals implied by the others: those whose reasons lead, step by step, only to
        // literals of the clause or of the root (recursive minimisation, as in MiniSat)
        let mut levels = 0u32;
        for &l in &learnt[1..] {
            let level = self.vars[var(l)].level;
            levels |= abstract_level(level);
            self.level_first[level as usize] = u32::MAX;
        }
        for &l in &learnt[1..] {
            let at = self.vars[var(l)];
            let first = &mut self.level_first[at.level as usize];
            *first = (*first).min(at.pos);
        }
        let mut keep = 1;
        for k in 1..learnt.len() {
            let l = learnt[k];
            let at = self.vars[var(l)];
            if at.reason == NO_REASON
                || at.pos <= self.level_first[at.level as usize]
                || !self.implied(l, levels)
            {
                learnt[keep] = l;
                keep += 1;
            }
        }
        learnt.truncate(keep);
        if self.shrink {
            self.shrink(&mut learnt);
        }
        if !self.shared.is_empty() {
            self.group_reasons(&mut learnt);
        }
        if !self.near {
            self.bump_reason_side(&learnt);
        }
        self.clear_marks();
        // the second literal: the highest level among the rest (the level to jump back to)
        let mut back_to = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.vars[var(learnt[k])].level > self.vars[var(learnt[best])].level {
                    best = k;
                }
            }
            learnt.swap(1, best);
            back_to = self.vars[var(learnt[1])].level;
        }
        self.stamp += 1;
        let mut lbd = 0;
        for &l in &learnt {
            let lv = self.vars[var(l)].level as usize;
            if self.level_stamp[lv] != self.stamp {
                self.level_stamp[lv] = self.stamp;
                lbd += 1;
            }
        }
        Some((learnt, back_to, lbd))
    }

    /// Undoes the analysis' marks: `seen` and `poison`.
    fn clear_marks(&mut self) {
        for v in self.to_clear.drain(..) {
            self.seen[v] = false;
        }
        for v in self.poisoned.drain(..) {
            self.poison[v] = false;
        }
    }

    /// Resolves the literals of a learnt clause (below its asserting one) that one true literal
    /// `p` forbade or implied (a binary reason: a peer, a placed cell, a bound), when at least
    /// two share it, with that reason: they give way to the one literal `¬p`. The clause stays
    /// implied (it is a resolvent) and false, its levels do not rise, and it is shorter: a
    /// Little Killer's clauses are mostly removed candidates, many removed by one placement.
    /// Only on models whose sum shapes all reason on bounds (`shared` is empty otherwise): a
    /// Killer's cages are explained by removed candidates, and there the weaker clauses cost
    /// more conflicts than the shorter ones save (docs/PERFORMANCE.md). To try it on other
    /// models, size `shared` for them in `Cdcl::with_extra`.
    fn group_reasons(&mut self, learnt: &mut Vec<Lit>) {
        let mut grouped = false;
        for &l in &learnt[1..] {
            let r = self.vars[var(l)].reason;
            if r < channel::ORDER {
                let p = var(r);
                self.shared[p] += 1;
                grouped |= self.shared[p] >= 2;
            }
        }
        if grouped {
            let mut keep = 1;
            for k in 1..learnt.len() {
                let l = learnt[k];
                let r = self.vars[var(l)].reason;
                // a true literal's consequences have its level or one above: never the root's
                if r < channel::ORDER && self.shared[var(r)] >= 2 && self.vars[var(r)].level > 0 {
                    // the first of the group stands for it, the others go
                    if self.shared[var(r)] != u32::MAX {
                        self.shared[var(r)] = u32::MAX;
                        learnt[keep] = r ^ 1;
                        keep += 1;
                        self.grouped += 1;
                    }
                } else {
                    learnt[keep] = l;
                    keep += 1;
                }
            }
            learnt.truncate(keep);
        }
        // every count set above belongs to a literal kept or to the reason of one
        for &l in &learnt[1..] {
            let v = var(l);
            self.shared[v] = 0;
            let r = self.vars[v].reason;
            if r < channel::ORDER {
                self.shared[var(r)] = 0;
            }
        }
    }

    /// Whether the false literal `lit` of a learnt clause is implied by the clause's other
    /// literals (those marked `seen`) and root facts, through the reasons of the literals it
    /// depends on. `levels`: the clause's levels as [`abstract_level`] bits (a literal of another
    /// level cannot be implied by the clause). The literals found implied stay marked, so later
    /// calls reuse them; on failure the marks of this call are undone, and the literals on the
    /// way from `lit` to the one that failed are marked `poison`: each depends on a literal
    /// that no later call can accept (one without a reason or of another level, never marked
    /// `seen` afterwards), so a later walk that meets one of them fails at once, as it would
    /// have after walking there.
    pub(super) fn implied(&mut self, lit: Lit, levels: u32) -> bool {
        if let Some(known) = self.implied_at_once(lit, levels) {
            return known;
        }
        let mut walk = std::mem::take(&mut self.implied_walk);
        let mut reason_lits = std::mem::take(&mut self.reason_buf);
        // each literal walked, in the order met: its variable and the walk entry of the
        // literal whose reason holds it (`u32::MAX` for `lit`); the entries from `next` on are
        // still to walk (the order changes no outcome)
        walk.clear();
        walk.push((var(lit) as u32, u32::MAX));
        let mut next = 0;
        let mut implied = true;
        while next < walk.len() {
            let at = next as u32;
            next += 1;
            // the reason's literals, read in place when it is a stored clause or a peer
            let v = walk[at as usize].0 as usize;
            let reason = self.vars[v].reason;
            let accepted = if reason & CLAUSE != 0 {
                let mut accepted = true;
                for k in self.clause_range(reason) {
                    let l = self.lits[k];
                    if var(l) != v && !self.walk_to(l, at, levels, &mut walk) {
                        accepted = false;
                        break;
                    }
                }
                accepted
            } else if reason < channel::ORDER {
                self.walk_to(reason ^ 1, at, levels, &mut walk)
            } else {
                reason_lits.clear();
                self.reason_into(v, &mut reason_lits);
                reason_lits
                    .iter()
                    .all(|&l| self.walk_to(l, at, levels, &mut walk))
            };
            if !accepted {
                let mut k = at;
                while k != u32::MAX {
                    let (u, from) = walk[k as usize];
                    if !self.poison[u as usize] {
                        self.poison[u as usize] = true;
                        self.poisoned.push(u as usize);
                    }
                    k = from;
                }
                implied = false;
                break;
            }
        }
        // the literals marked by this walk: kept when implied, unmarked otherwise
        if implied {
            self.to_clear
                .extend(walk[1..].iter().map(|&(u, _)| u as usize));
        } else {
            for &(u, _) in &walk[1..] {
                self.seen[u as usize] = false;
            }
        }
        self.implied_walk = walk;
        self.reason_buf = reason_lits;
        implied
    }

    /// [`Cdcl::implied`] when the reason of `lit` (a stored clause or a peer) settles it
    /// without a walk: every literal of it marked or a root fact (implied), or one the clause
    /// cannot accept (not implied); `None` when the walk must go further.
    #[inline(always)]
    fn implied_at_once(&self, lit: Lit, levels: u32) -> Option<bool> {
        let v = var(lit);
        let reason = self.vars[v].reason;
        let range = if reason & CLAUSE != 0 {
            self.clause_range(reason)
        } else if reason < channel::ORDER {
            // (the reason's one literal is `reason ^ 1`: the same variable)
            let u = var(reason);
            return match (
                self.seen[u] || self.vars[u].level == 0,
                self.acceptable(u, levels),
            ) {
                (true, _) => Some(true),
                (false, false) => Some(false),
                (false, true) => None,
            };
        } else {
            return None;
        };
        let mut settled = true;
        for k in range {
            let u = var(self.lits[k]);
            if u == v || self.seen[u] || self.vars[u].level == 0 {
                continue;
            }
            if !self.acceptable(u, levels) {
                return Some(false);
            }
            settled = false;
        }
        settled.then_some(true)
    }

    /// Whether variable `v`, neither marked nor a root fact, may be implied by the clause: it
    /// has a reason, is of one of the clause's `levels`, is not poisoned, and lies on the trail
    /// after the clause's first literal of its level (`level_first`). Of its level it depends
    /// only on literals before it, and every marked literal of that level (the clause's, or
    /// found implied by them) lies at or after that first one, so an earlier one cannot reach
    /// any (as Kissat's minimisation reasons).
    #[inline(always)]
    fn acceptable(&self, v: usize, levels: u32) -> bool {
        let at = self.vars[v];
        !self.poison[v]
            && at.reason != NO_REASON
            && abstract_level(at.level) & levels != 0
            && at.pos > self.level_first[at.level as usize]
    }

    /// One literal `l` of the reason of walk entry `at` in [`Cdcl::implied`]: nothing to do
    /// when it is marked or a root fact; marked and added to the walk when its own reason may
    /// imply it; `false` when the clause cannot accept it.
    #[inline(always)]
    fn walk_to(&mut self, l: Lit, at: u32, levels: u32, walk: &mut Vec<(u32, u32)>) -> bool {
        let v = var(l);
        if self.seen[v] || self.vars[v].level == 0 {
            return true;
        }
        if !self.acceptable(v, levels) {
            return false;
        }
        self.seen[v] = true;
        walk.push((v as u32, at));
        true
    }
}

/// A decision level as one of 32 bits, for a quick test that a level is not among a clause's.
#[inline(always)]
pub(super) fn abstract_level(level: u32) -> u32 {
    1 << (level & 31)
}
