//! Sum shapes in the CDCL search: lazy clause generation over the engine's sum filters.
//!
//! Each sum shape of the engine (Killer cages, the law-of-45 shapes, Little Killer diagonals) is
//! a propagator. When one of its cells loses a candidate (a variable of the cell goes false) the
//! shape is marked dirty; once unit propagation has nothing left, the dirty shapes run the
//! engine's own filter ([`sum::supports`]: combinations with exact matching, enumeration or
//! bounds) on the cells' current candidates, and every candidate the filter rules out goes false
//! with the shape as its reason. The trail length when the filter began (its *snapshot*) is kept
//! with each such variable.
//!
//! Explanations are made only when conflict analysis asks for one (lazily, as Chuffed does):
//! the candidates a cell had at the snapshot are the variables not yet false then, so the filter's
//! deduction is implied by the literals "cell holds `t`" that were false before the snapshot. That
//! set is then shrunk greedily: each such literal, latest first, is given back while the
//! deduction still holds ([`sum::feasible`] on the candidates with the target cell narrowed to
//! the removed symbol, or on the candidates alone for a conflict). The clauses learnt from these
//! explanations are ordinary clauses: the rest of the solver does not know about sums.
//!
//! Shapes whose symbols may repeat (Little Killer diagonals, law-of-45 shapes) do not use the
//! filter here: their propagator is the bounds rule over order variables ([`super::order`]),
//! whose explanations take one literal per cell; they are marked dirty only when an order
//! variable of one of their cells is set (a bound moved), not for every lost candidate; [`Cdcl::propagate_sums`] and
//! [`Cdcl::explain_sum`] hand them over.
//!
//! A shape may be guarded ([`super::assume`]): it runs only while its guard variable is true,
//! and its explanations carry the guard.
//!
//! To give a new kind of sum shape stronger reasoning, extend [`sum::supports`] and
//! [`sum::feasible`] together (a candidate is ruled out exactly when the shape with that cell
//! narrowed to it is not feasible); the explanations follow.

use super::super::sum;
use super::order::Order;
use super::{Cdcl, Conflict, Lit, FALSE, TRUE, UNDEF};
use crate::engine::Mask;

/// Tag of a `reason` that is a sum shape (the rest of the bits: its index), as opposed to a
/// stored clause or a peer literal.
pub(super) const SUM: u32 = 1 << 30;

/// The sum shapes of a CDCL search and their propagation state.
pub(super) struct Sums {
    /// CSR: the sum shapes holding cell `c` are `of[of_start[c]..of_start[c + 1]]`.
    of_start: Vec<u32>,
    of: Vec<u32>,
    /// Per cell: where its shapes reasoned on by bounds begin in `of` (they come last).
    split: Vec<u32>,
    /// Shapes whose cells changed since their filter last ran, and the flag of each.
    queue: Vec<u32>,
    dirty: Vec<bool>,
    /// Per variable set false by a shape: the trail length when the shape's filter began.
    pub(super) snap: Vec<u32>,
    /// Scratch for explanations: (trail position, cell index in the shape, symbol).
    removed: Vec<(u32, u8, u8)>,
    /// Explanations made for variables still assigned: per variable, the stamp they were made
    /// under (0: none) and where they lie in `arena`.
    pub(super) cached: Vec<(u32, u32, u32)>,
    pub(super) arena: Vec<Lit>,
    pub(super) stamp: u32,
    /// Explanations made, and literals left in them after shrinking (statistics).
    pub(super) explained: u64,
    pub(super) explained_lits: u64,
    /// The order variables of the shapes reasoned on by bounds ([`super::order`]).
    pub(super) order: Option<Box<Order>>,
    /// The first variable that is not a value variable.
    value_vars: usize,
    /// The variable switching shape 0 on, the next shape 1's and so on, when the shapes are
    /// guarded ([`super::assume`]); `usize::MAX` when every shape is always on.
    pub(super) guard_first: usize,
}

impl Sums {
    /// Hands out the explanation built in the arena from `start`, counts it, and caches it for
    /// the variable `target` when there is one.
    pub(super) fn record(&mut self, start: usize, target: Option<usize>, out: &mut Vec<Lit>) {
        let lits = &self.arena[start..];
        out.extend_from_slice(lits);
        self.explained += 1;
        self.explained_lits += lits.len() as u64;
        if let Some(v) = target {
            self.cached[v] = (self.stamp, start as u32, lits.len() as u32);
        }
    }

    /// The propagators of `e`'s sum shapes, every one dirty (so each runs once at the start).
    pub(super) fn new(
        e: &crate::engine::Engine,
        n_vars: usize,
        value_vars: usize,
        order: Option<Order>,
    ) -> Self {
        let n_cells = e.n_cells;
        let mut of_start = vec![0u32; n_cells + 1];
        for s in &e.sums {
            for &c in &s.cells {
                of_start[c as usize + 1] += 1;
            }
        }
        for c in 0..n_cells {
            of_start[c + 1] += of_start[c];
        }
        // per cell, the shapes filtered on candidates first, then those reasoned on by bounds
        let bounded = |i: usize| order.as_ref().is_some_and(|o| o.bounded[i]);
        let mut of = vec![0u32; of_start[n_cells] as usize];
        let mut fill = of_start.clone();
        let mut split = Vec::new();
        for pass in [false, true] {
            for (i, s) in e.sums.iter().enumerate() {
                if bounded(i) != pass {
                    continue;
                }
                for &c in &s.cells {
                    of[fill[c as usize] as usize] = i as u32;
                    fill[c as usize] += 1;
                }
            }
            if !pass {
                split.clone_from(&fill);
            }
        }
        Sums {
            of_start,
            split,
            of,
            queue: (0..e.sums.len() as u32).rev().collect(),
            dirty: vec![true; e.sums.len()],
            snap: vec![0; n_vars],
            removed: Vec::new(),
            cached: vec![(0, 0, 0); n_vars],
            arena: Vec::new(),
            stamp: 1,
            explained: 0,
            explained_lits: 0,
            order: order.map(Box::new),
            value_vars,
            guard_first: usize::MAX,
        }
    }

    /// The shape that variable `v` switches on, when it is a guard.
    #[inline(always)]
    pub(super) fn guarded_shape(&self, v: usize) -> Option<usize> {
        let i = v.wrapping_sub(self.guard_first);
        (i < self.dirty.len()).then_some(i)
    }

    /// Marks shape `i` dirty (it was just switched on).
    pub(super) fn touch_shape(&mut self, i: usize) {
        if !self.dirty[i] {
            self.dirty[i] = true;
            self.queue.push(i as u32);
        }
    }

    /// Marks the shapes of cell `c` that filter its candidates dirty (a candidate went).
    #[inline]
    pub(super) fn touch(&mut self, c: usize) {
        self.touch_range(self.of_start[c] as usize, self.split[c] as usize);
    }

    /// Marks the shapes of cell `c` reasoned on by bounds dirty (an order variable was set).
    #[inline]
    pub(super) fn touch_bounded(&mut self, c: usize) {
        self.touch_range(self.split[c] as usize, self.of_start[c + 1] as usize);
    }

    #[inline]
    fn touch_range(&mut self, from: usize, to: usize) {
        for k in from..to {
            let i = self.of[k];
            if !self.dirty[i as usize] {
                self.dirty[i as usize] = true;
                self.queue.push(i);
            }
        }
    }

    /// Forgets the dirty shapes (after a backtrack every shape is at its fixpoint again: the
    /// state it goes back to was fully propagated before the decision that followed it).
    pub(super) fn clear(&mut self) {
        for &i in &self.queue {
            self.dirty[i as usize] = false;
        }
        self.queue.clear();
    }

    /// Starts a new conflict analysis. Explanations are kept while their variable stays
    /// assigned ([`Sums::forget`]); when they pile up, they are all dropped at once.
    pub(super) fn new_analysis(&mut self) {
        if self.arena.len() > Self::MAX_ARENA {
            self.stamp = self.stamp.wrapping_add(1).max(1);
            self.arena.clear();
        }
    }

    /// Most literals of kept explanations before they are all dropped.
    const MAX_ARENA: usize = 1 << 20;

    /// Forgets the explanation of variable `v` (it was unassigned).
    #[inline]
    pub(super) fn forget(&mut self, v: usize) {
        self.cached[v].0 = 0;
    }
}

impl Cdcl<'_> {
    /// The candidates of cell `c` now: its symbols whose variable is not false.
    #[inline]
    pub(super) fn candidates(&self, c: usize) -> Mask {
        let mut m = 0;
        for v in self.map.of_cell(c) {
            if self.value[2 * v] != FALSE {
                m |= 1 << self.map.symbol(v);
            }
        }
        m
    }

    /// Runs the dirty sum shapes' filters until one narrows something (then unit propagation
    /// goes first again) or none is dirty. The conflict, if a shape cannot be completed.
    pub(super) fn propagate_sums(&mut self) -> Option<Conflict> {
        let e = self.e;
        loop {
            let i = self.sums.as_mut().and_then(|s| s.queue.pop())?;
            let sums = self.sums.as_mut().expect("sum shapes");
            sums.dirty[i as usize] = false;
            let guard = sums.guard_first;
            if guard != usize::MAX && self.value[2 * (guard + i as usize)] != TRUE {
                continue; // switched off
            }
            if sums.order.as_ref().is_some_and(|o| o.bounded[i as usize]) {
                let snap = self.trail.len() as u32;
                match self.propagate_bounds(i, snap) {
                    Err(()) => return Some(Conflict::Sum(i, snap)),
                    Ok(true) => return None,
                    Ok(false) => continue,
                }
            }
            let cells = &e.sums[i as usize].cells;
            let k = cells.len();
            let mut masks = [0 as Mask; 64];
            for (j, &c) in cells.iter().enumerate() {
                masks[j] = self.candidates(c as usize);
            }
            let snap = self.trail.len() as u32;
            let mut keep = [0 as Mask; 64];
            if sum::supports(e, i as usize, &masks[..k], &mut keep).is_none() {
                return Some(Conflict::Sum(i, snap));
            }
            let mut narrowed = false;
            for (j, &c) in cells.iter().enumerate() {
                let mut gone = masks[j] & !keep[j];
                while gone != 0 {
                    let t = gone.trailing_zeros() as usize;
                    gone &= gone - 1;
                    // `masks` holds root candidates only
                    let v = self.map.var(c as usize, t).expect("a root candidate");
                    match self.value[2 * v] {
                        UNDEF => {
                            self.enqueue(2 * v as Lit + 1, SUM | i);
                            self.sums.as_mut().expect("sum shapes").snap[v] = snap;
                            narrowed = true;
                        }
                        TRUE => return Some(Conflict::Sum(i, snap)),
                        _ => {}
                    }
                }
            }
            if narrowed {
                return None;
            }
        }
    }

    /// Appends to `out` the explanation of sum shape `i`'s deduction made at trail length
    /// `snap`: literals "cell holds `t`", all false, that imply `target` (a variable the shape
    /// set false) or, with `None`, that the shape cannot be completed. Cached per variable
    /// while it stays assigned.
    pub(super) fn explain_sum(
        &mut self,
        i: u32,
        snap: u32,
        target: Option<usize>,
        out: &mut Vec<Lit>,
    ) {
        self.explain_shape(i, snap, target, out);
        // a guarded shape deduces only while it is switched on
        let guard = self.sums.as_ref().map_or(usize::MAX, |s| s.guard_first);
        if guard != usize::MAX {
            out.push(2 * (guard + i as usize) as Lit + 1);
        }
    }

    /// [`Cdcl::explain_sum`] without the shape's guard.
    fn explain_shape(&mut self, i: u32, snap: u32, target: Option<usize>, out: &mut Vec<Lit>) {
        let mut sums = self.sums.take().expect("sum shapes");
        if let Some(v) = target {
            let (stamp, start, len) = sums.cached[v];
            if stamp == sums.stamp {
                out.extend_from_slice(&sums.arena[start as usize..(start + len) as usize]);
                self.sums = Some(sums);
                return;
            }
        }
        if sums.order.as_ref().is_some_and(|o| o.bounded[i as usize]) {
            self.sums = Some(sums);
            self.explain_bounds(i, snap, target, out);
            return;
        }
        let e = self.e;
        let cells = &e.sums[i as usize].cells;
        let k = cells.len();
        let (target_j, target_t) = match target {
            Some(v) => {
                let (c, t) = (self.map.cell(v), self.map.symbol(v));
                let j = cells
                    .iter()
                    .position(|&x| x as usize == c)
                    .expect("a cell of the shape");
                (j, t)
            }
            None => (usize::MAX, 0),
        };
        let mut masks = [0 as Mask; 64];
        sums.removed.clear();
        for (j, &c) in cells.iter().enumerate() {
            if j == target_j {
                masks[j] = 1 << target_t;
                continue;
            }
            let mut m = 0;
            // (a candidate outside the root is false at the root: in neither branch)
            for v in self.map.of_cell(c as usize) {
                let t = self.map.symbol(v);
                if self.value[2 * v] != FALSE
                    || (self.vars[v].level > 0 && self.vars[v].pos >= snap)
                {
                    m |= 1 << t;
                } else if self.vars[v].level > 0 {
                    sums.removed.push((self.vars[v].pos, j as u8, t as u8));
                }
            }
            masks[j] = m;
        }
        debug_assert!(
            !sum::feasible(e, i as usize, &masks[..k]),
            "not a deduction"
        );
        // give back the latest removals first: the explanation keeps the older literals
        sums.removed
            .sort_unstable_by_key(|r| std::cmp::Reverse(r.0));
        let start = sums.arena.len();
        for &(_, j, t) in &sums.removed {
            let bit = 1 << t;
            masks[j as usize] |= bit;
            if sum::feasible(e, i as usize, &masks[..k]) {
                masks[j as usize] &= !bit;
                let v = self.map.var(cells[j as usize] as usize, t as usize);
                sums.arena.push(2 * v.expect("a removed candidate") as Lit);
            }
        }
        sums.record(start, target, out);
        self.sums = Some(sums);
    }

    /// Marks the sum shapes of the cell of the variable that just went false.
    #[inline]
    pub(super) fn touch_sums(&mut self, false_var: usize) {
        if let Some(sums) = self.sums.as_mut() {
            if false_var < sums.value_vars {
                sums.touch(self.map.cell(false_var));
            }
        }
    }

    /// The sum shape and snapshot behind the variable `v` a shape set false.
    #[inline]
    pub(super) fn sum_snap(&self, v: usize) -> u32 {
        self.sums.as_ref().expect("sum shapes").snap[v]
    }
}

/// Whether a reason is a sum shape's (a decision's `NO_REASON` has the clause tag too).
#[inline(always)]
pub(super) fn is_sum(reason: u32) -> bool {
    reason & (super::CLAUSE | SUM) == SUM
}
