//! Shrinking a learnt clause (as CaDiCaL's "shrink", Fleury and Biere, "Efficient All-UIP
//! Learned Clause Minimization", 2021): the clause's literals of one lower decision level are
//! replaced by a single literal, the level's unique implication point for them (the last
//! literal of the level that every path from the level's decision to them goes through), when
//! the resolutions that reach it meet, below that level, only literals of the clause or
//! literals the minimisation found implied by it (so the clause never grows).
//!
//! On the direct encoding a block shrinks when its literals are candidates that placements of
//! the level ruled out through the peer constraints, and the walk back to a common placement
//! meets no at-least-one clause with literals of lower levels outside the clause. The sort by
//! level that finds the blocks also leaves every learnt clause's literals in level order,
//! highest first, so a watch that moves meets the literals assigned last (and undone first)
//! first.
//!
//! Only models without sum shapes shrink their clauses: a sum shape's explanation is built
//! anew each time it is asked for, and each block walk would ask for more of them.
//!
//! To change what counts as a block, or to let a block's walk accept more literals below its
//! level (running the minimisation's `implied` on them), change [`Cdcl::block_uip`].

use super::analysis::abstract_level;
use super::{var, Cdcl, Lit, NO_REASON};

impl Cdcl<'_> {
    /// Shrinks the minimised learnt clause `learnt` (asserting literal first): its other
    /// literals sorted by level, highest first, and each level with two or more of them
    /// replaced by its unique implication point where [`Cdcl::block_uip`] finds one. The
    /// variables of the clause and of the literals found implied by it must still be marked
    /// `seen`.
    pub(super) fn shrink(&mut self, learnt: &mut Vec<Lit>) {
        if learnt.len() < 3 {
            return;
        }
        let levels = learnt[1..]
            .iter()
            .fold(0u32, |a, &l| a | abstract_level(self.vars[var(l)].level));
        let vars = &self.vars;
        learnt[1..].sort_unstable_by_key(|&l| std::cmp::Reverse(vars[var(l)].level));
        let (mut out, mut k) = (1, 1);
        while k < learnt.len() {
            let lv = self.vars[var(learnt[k])].level;
            let mut end = k + 1;
            while end < learnt.len() && self.vars[var(learnt[end])].level == lv {
                end += 1;
            }
            let uip = if end - k >= 2 {
                self.block_uip(k..end, learnt, lv, levels)
            } else {
                None
            };
            if let Some(u) = uip {
                learnt[out] = u;
                out += 1;
                self.shrunk += 1;
            } else {
                learnt.copy_within(k..end, out);
                out += end - k;
            }
            k = end;
        }
        learnt.truncate(out);
    }

    /// The literal that can stand for the clause literals `learnt[block]`, all of decision
    /// level `level` (the negation of the level's last true literal that each of them depends
    /// on), or `None` when the walk back over the level's trail meets a literal of a lower
    /// level that is neither in the clause nor implied by it (marked `seen`), or the level's
    /// decision before the literals meet.
    fn block_uip(
        &mut self,
        block: std::ops::Range<usize>,
        learnt: &[Lit],
        level: u32,
        levels: u32,
    ) -> Option<Lit> {
        let mut open = 0usize;
        let mut index = 0usize;
        for &l in &learnt[block] {
            let v = var(l);
            self.in_block[v] = true;
            self.block_vars.push(v);
            open += 1;
            index = index.max(self.vars[v].pos as usize + 1);
        }
        let bottom = self.trail_lim[level as usize - 1];
        let mut reason_lits = std::mem::take(&mut self.block_reason);
        let uip = 'walk: loop {
            if index <= bottom {
                break None;
            }
            index -= 1;
            let p = self.trail[index];
            let v = var(p);
            if !self.in_block[v] {
                continue;
            }
            open -= 1;
            if open == 0 {
                break Some(p ^ 1);
            }
            if self.vars[v].reason == NO_REASON {
                break None;
            }
            reason_lits.clear();
            self.reason_into(v, &mut reason_lits);
            for &q in &reason_lits {
                let u = var(q);
                let lu = self.vars[u].level;
                if lu == level {
                    if !self.in_block[u] {
                        self.in_block[u] = true;
                        self.block_vars.push(u);
                        open += 1;
                    }
                } else if lu != 0
                    && !self.seen[u]
                    && !(self.vars[u].reason != NO_REASON
                        && abstract_level(lu) & levels != 0
                        && self.implied(q, levels))
                {
                    break 'walk None;
                }
            }
        };
        self.block_reason = reason_lits;
        for v in self.block_vars.drain(..) {
            self.in_block[v] = false;
        }
        uip
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cdcl_of, engine_and_grid, random_givens};
    use super::super::*;
    use rand::SeedableRng;

    /// Random partial grids of wide layouts, counted to 300 with shrinking on: the counts of
    /// depth-first search, and blocks were replaced (so a wrong replacement would show).
    #[test]
    fn counts_agree_when_clauses_shrink() {
        crate::engine::with_deep_stack(|| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
            let mut shrunk = 0;
            for (name, givens_count) in [("classic9", 22), ("jigsaw", 22), ("classic16", 100)] {
                let (e, grid) = engine_and_grid(name);
                for _ in 0..12 {
                    let givens = random_givens(&grid, givens_count, &mut rng);
                    let want = e.count(&givens, 300, Limits::none());
                    let mut s = cdcl_of(&e, &givens);
                    assert!(s.shrink, "{name} has no sum shapes");
                    let got = s.count(300, Limits::none());
                    assert_eq!(
                        (got.count, got.complete),
                        (want.count, want.complete),
                        "{name}"
                    );
                    shrunk += s.shrunk;
                }
            }
            assert!(shrunk > 100, "only {shrunk} blocks replaced");
        })
    }
}
