//! Vivification of learnt clauses (as in CaDiCaL and Kissat; for learnt clauses Luo et al.,
//! IJCAI 2017): at the root, now and then, the learnt clauses worth keeping are shortened by
//! propagation.
//!
//! For a clause `C = (l1 ∨ … ∨ lk)`, detached from the watches so it cannot propagate, the
//! solver decides `¬l1`, `¬l2`, … one level each, with full propagation (peers, clauses, sum
//! shapes). Then:
//!
//! * a conflict: the clause becomes the negations of the decisions that the conflict depends
//!   on (walked back through the reasons, sum explanations made on demand as in conflict
//!   analysis);
//! * a later `li` true by propagation: the clause becomes `li` and the decisions its reason
//!   depends on;
//! * an `li` false by propagation is not decided: with every literal handled and no conflict,
//!   the clause becomes the decided literals.
//!
//! Each result is a subset of `C` derived from the formula (the last rule uses `C` itself, a
//! resolution step), so it subsumes `C` and replaces it without changing any solution; the
//! results are attached at the end of the round, back at the root. Literals false at the root
//! go, and a clause true at the root is dropped. Explanations asked for on a temporary level
//! are forgotten with it ([`Cdcl::backtrack`]). Consecutive clauses that start with the same
//! literals share those levels ([`Cdcl::vivify_within`]); the saved phases are restored after
//! a round.
//!
//! Only on models without sum shapes ([`Vivify::for_sums`]).
//!
//! When: a round is due after each reduction of the clause store and runs at the next restart,
//! once the search has run [`Vivify::AFTER`] conflicts.
//! Candidates are the learnt clauses of LBD up to [`Tiers::TIER2`] not vivified yet. Budget:
//! [`Vivify::EFFORT`] times the literals the search propagated since the last round, so
//! vivification cannot take over the search. To tune it, change `EFFORT` or the candidate
//! filter in `Cdcl::vivify_candidates` and measure conflicts and CPU on the puzzles of
//! docs/PERFORMANCE.md.

use super::clauses::{Tiers, HEADER};
use super::{var, Cdcl, Conflict, Lit, FALSE, NO_REASON, TRUE};

/// When vivification runs, what it may spend, and what it did.
#[derive(Default)]
pub(super) struct Vivify {
    /// A round is due at the next restart.
    pub(super) due: bool,
    /// Off: no rounds at all.
    pub(super) off: bool,
    /// Literals the search (not vivification) had propagated at the end of the last round.
    search_at_last: u64,
    /// Literals propagated by vivification, over every round.
    pub(super) propagated: u64,
    /// Clauses tried, clauses shortened, literals removed, clauses dropped as true at the root.
    pub(super) tried: u64,
    pub(super) shortened: u64,
    pub(super) removed: u64,
    pub(super) dropped: u64,
    /// Scratch: the candidates (clause, start and length in `lits`), their literals, per
    /// literal the candidates holding it, the shortened clauses, per clause the length of its
    /// shortened form, a clause to attach, the saved phases.
    candidates: Vec<(u32, u32, u32)>,
    lits: Vec<Lit>,
    occ: Vec<u32>,
    out: Vec<Lit>,
    lens: Vec<u32>,
    attach: Vec<Lit>,
    phases: Vec<bool>,
}

impl Vivify {
    /// Literals vivification may propagate per literal the search propagated since the last
    /// round.
    pub(super) const EFFORT: f64 = 0.1;

    /// Conflicts a search runs before its first round: a short search (most of the
    /// generator's checks) ends before shorter clauses would pay for a round.
    pub(super) const AFTER: u64 = 50_000;

    /// Vivification for a model with sum shapes (`sums`: off) or without (on). With sum
    /// shapes it made the hard Little Killers slower: their propagation runs the sum filters,
    /// and the shorter clauses did not save as much (the figures are in docs/PERFORMANCE.md).
    pub(super) fn for_sums(sums: bool) -> Self {
        Vivify {
            off: sums,
            ..Vivify::default()
        }
    }
}

/// How propagating a clause's negated literals ended.
enum Ended {
    /// A conflict.
    Conflict(Conflict),
    /// The clause's literal became true.
    True(Lit),
    /// Every literal decided or false, no conflict.
    Open,
}

impl Cdcl<'_> {
    /// A round of vivification at the root (see the module docs), within the budget.
    pub(super) fn vivify(&mut self) {
        self.vivify.due = false;
        debug_assert_eq!(self.decision_level(), 0);
        if !self.ok || self.propagate().is_some() {
            self.ok = false;
            return;
        }
        let search = self.propagated - self.vivify.propagated;
        let budget = ((search - self.vivify.search_at_last) as f64 * Vivify::EFFORT) as u64;
        self.vivify_within(budget);
        self.vivify.search_at_last = self.propagated - self.vivify.propagated;
    }

    /// The round itself: the candidates until `budget` literals were propagated. Each
    /// candidate's literals are sorted by how many candidates hold them (most first) and the
    /// candidates by their literals in that order, so that consecutive clauses share their
    /// first decisions: the levels of a clause's first literals are kept for the next clause
    /// that starts with them (as CaDiCaL does). The shortened clauses are attached at the end,
    /// back at the root.
    pub(super) fn vivify_within(&mut self, budget: u64) {
        let mut cands = std::mem::take(&mut self.vivify.candidates);
        let mut flat = std::mem::take(&mut self.vivify.lits);
        let mut occ = std::mem::take(&mut self.vivify.occ);
        self.vivify_candidates(&mut cands, &mut flat, &mut occ);
        let mut phases = std::mem::take(&mut self.vivify.phases);
        phases.clone_from(&self.phase);
        let mut out = std::mem::take(&mut self.vivify.out);
        out.clear();
        let mut done = 0;
        let start = self.propagated;
        for &(c, from, len) in &cands {
            if self.propagated - start > budget || !self.ok {
                break;
            }
            let at = out.len();
            self.vivify_clause(c, &flat[from as usize..(from + len) as usize], &mut out);
            // (the clause and its result: `flat` is free where the clause was)
            flat[from as usize..from as usize + out.len() - at].copy_from_slice(&out[at..]);
            out.truncate(at);
            done += 1;
        }
        self.backtrack(0);
        self.vivify.propagated += self.propagated - start;
        for &(c, from, _) in &cands[..done] {
            let len = self.vivify.lens[c as usize] as usize;
            if !self.ok {
                break;
            }
            self.attach_vivified(c, &flat[from as usize..from as usize + len]);
        }
        // (not during the round: compaction renumbers the candidates)
        if self.deleted_lits > self.lits.len() / 2 {
            self.collect_garbage();
        }
        self.phase.clone_from(&phases);
        self.vivify.phases = phases;
        self.vivify.candidates = cands;
        self.vivify.lits = flat;
        self.vivify.occ = occ;
        self.vivify.out = out;
    }

    /// The round's candidates (see the module docs) as (clause, start in `flat`, length), their
    /// literals not false at the root in `flat`, sorted for shared decisions; clauses true at
    /// the root are dropped on the way.
    fn vivify_candidates(
        &mut self,
        cands: &mut Vec<(u32, u32, u32)>,
        flat: &mut Vec<Lit>,
        occ: &mut Vec<u32>,
    ) {
        cands.clear();
        flat.clear();
        occ.clear();
        occ.resize(self.value.len(), 0);
        for c in 0..self.clauses.len() as u32 {
            let m = self.clauses[c as usize];
            if !m.learnt || m.deleted || m.vivified || m.lbd > Tiers::TIER2 || self.locked(c) {
                continue;
            }
            let lits = m.start as usize..(m.start + m.len) as usize;
            if self.lits[lits.clone()]
                .iter()
                .any(|&l| self.lit_value(l) == TRUE)
            {
                // true at the root: never needed again
                self.detach(c);
                self.vivify.dropped += 1;
                continue;
            }
            let from = flat.len();
            for &l in &self.lits[lits] {
                if self.lit_value(l) != FALSE {
                    flat.push(l);
                    occ[l as usize] += 1;
                }
            }
            cands.push((c, from as u32, (flat.len() - from) as u32));
        }
        let key = |l: &Lit| (std::cmp::Reverse(occ[*l as usize]), *l);
        for &(_, from, len) in cands.iter() {
            flat[from as usize..(from + len) as usize].sort_unstable_by_key(key);
        }
        let slice = |&(_, from, len): &(u32, u32, u32)| &flat[from as usize..(from + len) as usize];
        cands.sort_unstable_by(|x, y| slice(x).iter().map(key).cmp(slice(y).iter().map(key)));
        if self.vivify.lens.len() < self.clauses.len() {
            self.vivify.lens.resize(self.clauses.len(), 0);
        }
    }

    /// Vivifies clause `c` of literals `lits` (none fixed at the root), keeping the levels of
    /// its first literals that the clause before decided; appends the shortened clause to
    /// `out` (its length in `lens`). Leaves the levels it decided that are at a fixpoint.
    fn vivify_clause(&mut self, c: u32, lits: &[Lit], out: &mut Vec<Lit>) {
        let old_len = self.clauses[c as usize].len as usize;
        self.vivify.tried += 1;
        self.clauses[c as usize].vivified = true;
        self.detach(c);
        let mut keep = 0;
        while keep < self.trail_lim.len()
            && keep < lits.len()
            && self.trail[self.trail_lim[keep]] == lits[keep] ^ 1
        {
            keep += 1;
        }
        self.backtrack(keep as u32);
        let mut ended = Ended::Open;
        for &l in lits {
            match self.lit_value(l) {
                TRUE => {
                    ended = Ended::True(l);
                    break;
                }
                FALSE => continue,
                _ => {}
            }
            self.trail_lim.push(self.trail.len());
            self.enqueue(l ^ 1, NO_REASON);
            if let Some(conflict) = self.propagate() {
                ended = Ended::Conflict(conflict);
                break;
            }
        }
        let at = out.len();
        match ended {
            Ended::Conflict(conflict) => {
                self.decisions_behind(Some(conflict), None, out);
                // the level of the conflict is not at a fixpoint
                self.backtrack(self.decision_level() - 1);
            }
            Ended::True(l) => {
                out.push(l);
                self.decisions_behind(None, Some(var(l)), out);
            }
            Ended::Open => out.extend(self.trail_lim.iter().map(|&k| self.trail[k] ^ 1)),
        }
        let len = out.len() - at;
        self.vivify.lens[c as usize] = len as u32;
        if len < old_len {
            self.vivify.shortened += 1;
            self.vivify.removed += (old_len - len) as u64;
        }
    }

    /// Appends to `out` the clause literals whose negations were decided and that the conflict
    /// (or the assignment of variable `implied`) depends on, through the reasons.
    fn decisions_behind(
        &mut self,
        conflict: Option<Conflict>,
        implied: Option<usize>,
        out: &mut Vec<Lit>,
    ) {
        if let Some(sums) = self.sums.as_mut() {
            sums.new_analysis();
        }
        let mut reason_lits = std::mem::take(&mut self.reason_buf);
        reason_lits.clear();
        match conflict {
            Some(Conflict::Clause(i)) => {
                let m = self.clauses[i as usize];
                reason_lits
                    .extend_from_slice(&self.lits[m.start as usize..(m.start + m.len) as usize]);
            }
            Some(Conflict::Peers(a, b)) => reason_lits.extend_from_slice(&[a ^ 1, b ^ 1]),
            Some(Conflict::Sum(i, snap)) => self.explain_sum(i, snap, None, &mut reason_lits),
            Some(Conflict::Linear) => {
                let lin = self.linear.as_ref().expect("a relaxation");
                reason_lits.extend_from_slice(&lin.clause);
            }
            None => {}
        }
        if let Some(v) = implied {
            reason_lits.push(2 * v as Lit);
        }
        let first = self.trail_lim[0];
        let mut k = self.trail.len();
        loop {
            for &q in &reason_lits {
                let v = var(q);
                if !self.seen[v] && self.vars[v].level > 0 {
                    self.seen[v] = true;
                    self.to_clear.push(v);
                }
            }
            reason_lits.clear();
            // the next marked literal on the trail, latest first
            let p = loop {
                if k == first {
                    break None;
                }
                k -= 1;
                if self.seen[var(self.trail[k])] {
                    break Some(self.trail[k]);
                }
            };
            let Some(p) = p else { break };
            let v = var(p);
            if self.vars[v].reason == NO_REASON {
                out.push(p ^ 1);
            } else {
                self.reason_into(v, &mut reason_lits);
            }
        }
        for v in self.to_clear.drain(..) {
            self.seen[v] = false;
        }
        self.reason_buf = reason_lits;
    }

    /// Removes clause `c` from the watches and marks it deleted.
    fn detach(&mut self, c: u32) {
        let m = self.clauses[c as usize];
        for k in 0..2 {
            let l = self.lits[m.start as usize + k];
            self.watches.remove(l, |w| w.start == m.start);
        }
        self.clauses[c as usize].deleted = true;
        self.deleted_lits += HEADER + m.len as usize;
    }

    /// Puts the vivified form `lits` of clause `c` in its place, at the root: a clause
    /// (nothing when it is true at the root now), or a root fact.
    fn attach_vivified(&mut self, c: u32, lits: &[Lit]) {
        if lits.iter().any(|&l| self.lit_value(l) == TRUE) {
            return;
        }
        let mut out = std::mem::take(&mut self.vivify.attach);
        out.clear();
        out.extend(lits.iter().copied().filter(|&l| self.lit_value(l) != FALSE));
        match out.len() {
            0 => self.ok = false,
            1 => {
                self.enqueue(out[0], NO_REASON);
                if self.propagate().is_some() {
                    self.ok = false;
                }
            }
            len => {
                let m = self.clauses[c as usize];
                let index = self.add_clause(&out, true, m.lbd.min(len as u32));
                let new = &mut self.clauses[index as usize];
                new.activity = m.activity;
                new.used = m.used;
                new.vivified = true;
            }
        }
        self.vivify.attach = out;
    }
}

impl Cdcl<'_> {
    /// Vivification's clauses tried, shortened, literals removed, clauses dropped and literals
    /// propagated, and literals propagated in all (for the tuning tools).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn vivified(&self) -> [u64; 6] {
        let v = &self.vivify;
        [
            v.tried,
            v.shortened,
            v.removed,
            v.dropped,
            v.propagated,
            self.propagated,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cdcl_of, engine_and_grid, random_givens};
    use super::super::{clauses, Outcome};
    use crate::engine::{Budget, Limits};
    use rand::SeedableRng;

    /// Counts of random partial grids on plain layouts (no sum shapes) with a round of
    /// vivification without budget before every search and a due round at every restart:
    /// the same counts as depth-first search, and clauses really shortened on the way.
    /// (On a deep stack, see [`crate::engine::with_deep_stack`].)
    #[test]
    fn counts_agree_when_learnt_clauses_are_vivified() {
        crate::engine::with_deep_stack(|| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
            let mut shortened = 0;
            for name in ["classic6", "classic9", "classic16"] {
                let (e, grid) = engine_and_grid(name);
                let n = e.n_cells;
                for _ in 0..12 {
                    let givens = random_givens(&grid, n / 5, &mut rng);
                    let want = e.count(&givens, 40, Limits::none());
                    let mut s = cdcl_of(&e, &givens);
                    // a reduction at every conflict: a round is due at every restart
                    s.tiers = clauses::Tiers {
                        next_reduce: 0,
                        first: 0,
                        step: 0,
                        tier2_for: u64::MAX,
                    };
                    let budget = Budget::from(Limits::none());
                    let mut count = 0;
                    while count < 40 {
                        s.vivify_within(u64::MAX);
                        match s.solve(&budget) {
                            Outcome::Solution(sol) => {
                                let keeps = (0..n).all(|c| {
                                    givens[c].is_none_or(|g| g == sol[c])
                                        && e.peers(c).iter().all(|&q| sol[q as usize] != sol[c])
                                });
                                assert!(keeps, "{name}: {sol:?}");
                                count += 1;
                                s.exclude(&sol);
                            }
                            Outcome::Exhausted => break,
                            Outcome::Unknown => unreachable!("no budget"),
                        }
                    }
                    assert_eq!(count, want.count, "{name}: {givens:?}");
                    shortened += s.vivify.shortened;
                }
            }
            // (how many depends on the search: enough to show that rounds shorten clauses)
            assert!(shortened >= 20, "only {shortened} clauses shortened");
        })
    }
}
