//! The channelling between the order variables `[x ≥ v]` of a cell ([`super::order`]) and its
//! value variables "cell holds `t`", kept implicit in propagation as the peer constraints are,
//! instead of as stored clauses (whose watch visits dominated the sum searches).
//!
//! When a literal of a cell with order variables is propagated:
//!
//! * `x = t` true: `[x ≥ value(t)]` goes true and `[x ≥ next value]` false (reason: the literal);
//! * `x = t` false: when `t`'s value was the cell's lowest (highest) possible value and every
//!   symbol of that value is now out, the lower (upper) bound moves past it;
//! * `[x ≥ v]` true: `[x ≥ previous value]` goes true and the symbols of the previous value go
//!   false (reason: the literal), and the bound moves on if the symbols of `v` are all out;
//! * `[x ≥ v]` false: likewise upwards.
//!
//! A two-literal implication has the true literal as its reason (as a peer's). A moved bound has
//! the reason [`ORDER`]: its explanation follows from the variable and its value alone
//! ([`Cdcl::explain_order`]): the previous bound and the symbols that went out. A bound that
//! cannot move (every symbol of the cell out) is left to the cell's "holds one of its
//! candidates" clause, which then has every literal false.
//!
//! To channel another kind of auxiliary variable, give it its own reason tag and explanation
//! here.

use super::order::Order;
use super::{var, Cdcl, Conflict, Lit, FALSE, TRUE, UNDEF};

/// The `reason` of an order variable set because its cell's bound moved (see the module docs).
/// Literal reasons (peers, implications) lie below it.
pub(super) const ORDER: u32 = 1 << 29;

impl Cdcl<'_> {
    /// The channelling consequences of the literal `p` that just became true (when it belongs to
    /// a cell with order variables); the conflict, if one arises.
    #[inline(always)]
    pub(super) fn channel(&mut self, p: Lit) -> Option<Conflict> {
        let sums = self.sums.as_mut()?;
        if var(p) >= sums.guard_first {
            // a guard ([`super::assume`]): a shape's, switched on, runs
            if let Some(i) = sums.guarded_shape(var(p)).filter(|_| p & 1 == 0) {
                sums.touch_shape(i);
            }
            return None;
        }
        let order = sums.order.take()?;
        let conflict = self.channel_with(&order, p).err();
        if let Some(sums) = self.sums.as_mut() {
            sums.order = Some(order);
        }
        conflict
    }

    fn channel_with(&mut self, order: &Order, p: Lit) -> Result<(), Conflict> {
        let v = var(p);
        let top = order.levels.len();
        if v < order.first {
            // (`falsum`, just below the order variables, is never on the trail)
            let (c, t) = (self.map.cell(v), self.map.symbol(v));
            if order.start[c] == u32::MAX {
                return Ok(());
            }
            let r = order.rank[t] as usize;
            if p & 1 == 0 {
                if r >= 1 {
                    self.imply(2 * order.var(c as u32, r) as Lit, p)?;
                }
                if r + 1 < top {
                    self.imply(2 * order.var(c as u32, r + 1) as Lit + 1, p)?;
                }
            } else {
                self.move_bounds(order, c as u32, r);
            }
            return Ok(());
        }
        let c = order.cell_of[v - order.first];
        let k = v - order.start[c as usize] as usize + 1;
        if let Some(sums) = self.sums.as_mut() {
            sums.touch_bounded(c as usize);
        }
        if p & 1 == 0 {
            // [x ≥ levels[k]]
            if k >= 2 {
                self.imply(2 * order.var(c, k - 1) as Lit, p)?;
            }
            self.imply_out(order, c, k - 1, p)?;
            self.move_bounds(order, c, k);
        } else {
            // x < levels[k]
            if k + 1 < top {
                self.imply(2 * order.var(c, k + 1) as Lit + 1, p)?;
            }
            self.imply_out(order, c, k, p)?;
            self.move_bounds(order, c, k - 1);
        }
        Ok(())
    }

    /// Sets `l` true with the true literal `p` as reason; the conflict when `l` is false.
    #[inline(always)]
    fn imply(&mut self, l: Lit, p: Lit) -> Result<(), Conflict> {
        match self.lit_value(l) {
            UNDEF => self.enqueue(l, p),
            FALSE => return Err(Conflict::Peers(p, l ^ 1)),
            _ => {}
        }
        Ok(())
    }

    /// Rules out the symbols of rank `r` in cell `c` (reason `p`).
    #[inline(always)]
    fn imply_out(&mut self, order: &Order, c: u32, r: usize, p: Lit) -> Result<(), Conflict> {
        let (a, b) = (order.by_rank_start[r], order.by_rank_start[r + 1]);
        for &t in &order.by_rank[a as usize..b as usize] {
            // a candidate outside the root is out already
            if let Some(u) = self.map.var(c as usize, t as usize) {
                self.imply(2 * u as Lit + 1, p)?;
            }
        }
        Ok(())
    }

    /// Moves cell `c`'s bounds past rank `r` when every symbol of that rank is out and `r` is
    /// the lowest (highest) rank the cell may still take.
    #[inline]
    fn move_bounds(&mut self, order: &Order, c: u32, r: usize) {
        let (a, b) = (order.by_rank_start[r], order.by_rank_start[r + 1]);
        for &t in &order.by_rank[a as usize..b as usize] {
            // (a candidate outside the root is false)
            let v = self.map.var_or_false(c as usize, t as usize);
            if self.value[2 * v] != FALSE {
                return;
            }
        }
        let top = order.levels.len();
        let at_least = |s: &Self, k: usize| s.value[2 * order.var(c, k)];
        if r + 1 < top && (r == 0 || at_least(self, r) == TRUE) {
            let l = 2 * order.var(c, r + 1) as Lit;
            if self.value[l as usize] == UNDEF {
                self.enqueue(l, ORDER);
            }
        }
        if r >= 1 && (r + 1 == top || at_least(self, r + 1) == FALSE) {
            let l = 2 * order.var(c, r) as Lit + 1;
            if self.value[l as usize] == UNDEF {
                self.enqueue(l, ORDER);
            }
        }
    }

    /// Appends to `out` the explanation of order variable `v` set by a moved bound (all false
    /// literals): the previous bound and the symbols of the rank it moved past.
    pub(super) fn explain_order(&mut self, v: usize, out: &mut Vec<Lit>) {
        let Some(order) = self.sums.as_ref().and_then(|s| s.order.as_ref()) else {
            return;
        };
        let c = order.cell_of[v - order.first];
        let k = v - order.start[c as usize] as usize + 1;
        let r = if self.value[2 * v] == TRUE {
            // [x ≥ levels[k]]: it was at least levels[k - 1], which is out
            if k >= 2 {
                out.push(2 * order.var(c, k - 1) as Lit + 1);
            }
            k - 1
        } else {
            // x < levels[k]: it was below levels[k + 1], and levels[k] is out
            if k + 1 < order.levels.len() {
                out.push(2 * order.var(c, k + 1) as Lit);
            }
            k
        };
        let (a, b) = (order.by_rank_start[r], order.by_rank_start[r + 1]);
        for &t in &order.by_rank[a as usize..b as usize] {
            // a candidate outside the root is `falsum`, false at the root like any such
            out.push(2 * self.map.var_or_false(c as usize, t as usize) as Lit);
        }
    }
}
