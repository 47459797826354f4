//! Nested reasoning inside a dynamic net (level 1 and up): when nothing more follows, the
//! simple rules (and, at higher levels, forcing chains) run on a board brought up to the net's
//! working candidates, and the first that removes something adds those eliminations, with the
//! net's eliminations in its cells and shapes as their parents.
//!
//! The nested board is kept from one use to the next and only the cells changed since are
//! brought up to date. Which rules run at which level is [`super::super::nested_rules`].

use super::Net;
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::rules::Step;

impl Net<'_> {
    /// The first nested rule that removes something from the working copy adds those
    /// eliminations: `Ok(true)`; `Ok(false)` when none does; the opposite potentials met when
    /// an elimination contradicts the net.
    pub(super) fn nested_step(&mut self, cx: &mut Cx) -> Result<bool, (u32, u32)> {
        if !self.mode.dynamic || cx.budget.is_out() {
            return Ok(false);
        }
        // one copy of the board per net, brought up to the working candidates: the cells
        // this propagation changed are those stamped after `since_start`
        let mut t = self.inner.take().unwrap_or_else(|| self.b.clone());
        if !self.synced {
            t.set_cells(&self.b.cand, self.inner_cells.drain(..));
            self.inner_at = 0;
            let start = t.stamp();
            self.since.iter_mut().for_each(|s| *s = start);
            self.resume.iter_mut().for_each(|r| *r = (0, 0));
            self.clean = 0;
            self.synced = true;
        }
        if self.inner_at <= self.removed.len() {
            // only the removals since the last time changed the working candidates
            let n = self.n;
            let fresh = self.removed[self.inner_at..]
                .iter()
                .map(|&p| p as usize / 2 / n);
            let at = self.inner_cells.len();
            self.inner_cells.extend(fresh);
            t.set_cells(&self.work, self.inner_cells[at..].iter().copied());
        } else {
            t.set_candidates(&self.work);
            self.inner_cells.clear();
            self.inner_cells.extend(0..self.work.len());
        }
        self.inner_at = self.removed.len();
        let result = self.nested_on(&t, cx);
        self.inner = Some(t);
        result
    }

    pub(super) fn nested_on(&mut self, t: &Board, cx: &mut Cx) -> Result<bool, (u32, u32)> {
        if t.broken_since(self.clean) {
            return Ok(false);
        }
        self.clean = t.stamp();
        for (i, r) in self.nested.iter().enumerate() {
            // the rules found nothing on the board itself (they are lighter and were tried
            // first), so only patterns with a cell this net changed can be new; and nothing
            // with only cells unchanged since their last search of this propagation
            let mut inner = cx.nested();
            inner.since = self.since[i];
            inner.resume = self.resume[i];
            inner.max_size = self.inner_size;
            let Some(step) = r.find(t, &mut inner) else {
                if !inner.exhaustive {
                    cx.exhaustive = false;
                    self.complete = false;
                } else {
                    self.since[i] = t.stamp();
                    self.resume[i] = (0, 0);
                }
                continue;
            };
            self.resume[i] = (t.stamp(), inner.found_at);
            let fresh: Vec<(usize, u8)> = step
                .eliminations
                .iter()
                .copied()
                .filter(|&(c, v)| !self.has(self.pot(c, v as usize, false)))
                .collect();
            if fresh.is_empty() {
                continue;
            }
            let parents = self.rule_parents(&step);
            let extra = if step.family == crate::logic::Family::Chains
                || step.family == crate::logic::Family::Forcing
            {
                step.size as u32
            } else {
                0
            };
            for (c, v) in fresh {
                let q = self.pot(c, v as usize, false);
                self.add(q, &parents, extra);
                if self.has(q ^ 1) {
                    return Err((q ^ 1, q));
                }
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The eliminations of this net that a nested step relied on: those in its cells and
    /// shapes (of its symbol, when it removes only one).
    pub(super) fn rule_parents(&self, step: &Step) -> Vec<u32> {
        let b = self.b;
        let mut syms: Mask = 0;
        for &(_, v) in &step.eliminations {
            syms |= 1 << v;
        }
        if syms.count_ones() != 1 {
            syms = b.full;
        }
        // the step's cells and its shapes' cells, as a bitset read in cell order
        let mut set = vec![0u64; b.words];
        for &c in &step.cells {
            set[c / 64] |= 1 << (c % 64);
        }
        for &s in &step.shapes {
            set.iter_mut()
                .zip(b.shape_set(s))
                .for_each(|(x, y)| *x |= y);
        }
        let mut out = Vec::new();
        for c in set
            .iter()
            .enumerate()
            .flat_map(|(w, &x)| bits(x).map(move |i| w * 64 + i))
        {
            for v in bits(b.cand[c] & !self.work[c] & syms) {
                let q = self.pot(c, v, false);
                if self.has(q) {
                    out.push(q);
                }
            }
        }
        out
    }
}
