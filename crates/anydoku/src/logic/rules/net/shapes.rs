//! What a dynamic net deduces from whole shapes when no single follows: sum shapes kept to
//! the symbols some valid assignment of them still uses (cage combinations), and each
//! constraint kind's propagator (thermometer, arrow, ...) narrowing the working copy.
//!
//! Each step adds the eliminations of the first shape that removes something, their parents
//! every elimination of the net in the shape's cells. A new kind of whole-shape deduction
//! goes here as one more step, called from the net's drain loop after these.

use std::mem::take;

use super::Net;
use crate::logic::board::bits;

impl Net<'_> {
    /// Sum shapes whose cells lost candidates keep only what some valid assignment uses: the
    /// first one that removes something adds those eliminations (their parents: every
    /// elimination of the net in the shape's cells). `Ok(false)` when none removes anything.
    pub(super) fn sum_step(&mut self) -> Result<bool, (u32, u32)> {
        while let Some(s) = self.dirty.pop() {
            self.dirty_at[s] = 0;
            let b = self.b;
            let cells = &b.shapes[s].cells;
            let (mut cands, mut support) = (take(&mut self.cands), take(&mut self.support));
            cands.clear();
            cands.extend(cells.iter().map(|&c| self.work[c]));
            let keep = b.shapes[s].unique;
            let at = self.fixed_start[s] as usize..self.fixed_start[s + 1] as usize;
            if cands.contains(&0)
                || keep && self.fixed_at[s] == self.gen && self.fixed[at.clone()] == cands[..]
            {
                (self.cands, self.support) = (cands, support);
                continue;
            }
            self.memo.support(b, s, &cands, &mut support);
            if keep {
                // a unique shape's support is exact: every valid assignment stays, so the
                // candidates cut down to it have the same support
                for (d, f) in self.fixed[at].iter_mut().enumerate() {
                    *f = if b.value[cells[d]].is_none() {
                        cands[d] & support[d]
                    } else {
                        cands[d]
                    };
                }
                self.fixed_at[s] = self.gen;
            }
            let mut fresh = Vec::new();
            for (d, &c) in cells.iter().enumerate() {
                if b.value[c].is_none() {
                    for v in bits(cands[d] & !support[d]) {
                        fresh.push(self.pot(c, v, false));
                    }
                }
            }
            (self.cands, self.support) = (cands, support);
            if fresh.is_empty() {
                continue;
            }
            let parents = self.eliminated_in(cells);
            for q in fresh {
                if !self.has(q) {
                    self.add(q, &parents, 0);
                }
                if self.has(q ^ 1) {
                    return Err((q ^ 1, q));
                }
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// The net's eliminations in `cells`: the parents of what a shape deduces from them.
    pub(super) fn eliminated_in(&self, cells: &[usize]) -> Vec<u32> {
        let b = self.b;
        let mut parents = Vec::new();
        for &c in cells {
            for v in bits(b.cand[c] & !self.work[c]) {
                let q = self.pot(c, v, false);
                if self.has(q) {
                    parents.push(q);
                }
            }
        }
        parents
    }

    /// The constraint kinds' propagators narrow the working copy (dynamic nets): the first
    /// shape that removes something adds those eliminations, their parents every elimination
    /// of the net in the shape's cells. A shape left with no way to be satisfied is a
    /// contradiction: one of its open candidates is then both on and off. `Ok(false)` when no
    /// shape removes anything.
    pub(super) fn constraint_step(&mut self) -> Result<bool, (u32, u32)> {
        let b = self.b;
        if !self.mode.dynamic || self.mode.nishio || b.constraints.props.is_empty() {
            return Ok(false);
        }
        let mut scratch = self.work.clone();
        let mut queue = Vec::new();
        for p in &b.constraints.props {
            scratch.copy_from_slice(&self.work);
            let ok = p.narrow(&mut scratch, &mut queue);
            let cells = &b.shapes[p.shape].cells;
            let mut fresh = Vec::new();
            if ok {
                for c in (0..b.cell_count()).filter(|&c| b.value[c].is_none()) {
                    for v in bits(self.work[c] & !scratch[c]) {
                        fresh.push(self.pot(c, v, false));
                    }
                }
                if fresh.is_empty() {
                    continue;
                }
            }
            let parents = self.eliminated_in(cells);
            if !ok {
                // the shape cannot be satisfied: anything follows, so an open candidate of
                // it is both on and off
                let Some((c, v)) = cells
                    .iter()
                    .find(|&&c| b.value[c].is_none() && self.work[c] != 0)
                    .map(|&c| (c, self.work[c].trailing_zeros() as usize))
                else {
                    continue;
                };
                let (on, off) = (self.pot(c, v, true), self.pot(c, v, false));
                for q in [on, off] {
                    if !self.has(q) {
                        self.add(q, &parents, 0);
                        self.slot[q as usize].via = p.shape as u32;
                    }
                }
                return Err((on, off));
            }
            for q in fresh {
                if !self.has(q) {
                    self.add(q, &parents, 0);
                    self.slot[q as usize].via = p.shape as u32;
                }
                if self.has(q ^ 1) {
                    return Err((q ^ 1, q));
                }
            }
            return Ok(true);
        }
        Ok(false)
    }
}
