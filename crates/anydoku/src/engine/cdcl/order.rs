//! Order literals and bounds reasoning for the sum shapes whose symbols may repeat (Little
//! Killer diagonals, law-of-45 shapes) and the unique ones with too many combinations to list:
//! lazy clause generation as in Chuffed and CP-SAT.
//!
//! Every cell of such a shape gets, besides its "cell holds `t`" variables, one *order*
//! variable per symbol value above the smallest: `[x ≥ v]` ("the cell's value is at least
//! `v`"). Propagation keeps them equal to the bounds of the cell's candidates, implicitly
//! ([`super::channel`]: a placed symbol sets its cell's bounds, a bound rules out the symbols
//! beyond it, and a bound moves when every symbol at it is out), so no clause is stored for them.
//!
//! The shape's propagator is the bounds rule of `Σ x = total`: each cell must lie between
//! `total` minus the others' largest values and `total` minus their smallest, where cells of
//! the shape that are peers take distinct values ([`super::cliques`]). A tightened bound
//! is set as one order literal, and its explanation (made when conflict analysis asks, from the
//! bounds at the trail length when the propagator ran) is one order literal per other cell,
//! "this cell is at most / at least its bound then", instead of one literal per removed
//! candidate. The bounds in an explanation are loosened (latest literals first) as far as the
//! deduction still holds, so learnt clauses say as little as they must.
//!
//! Order variables come after the value variables, are never decided on (decisions place
//! symbols), and exist only for cells of bounded shapes. To reason on bounds for more shapes,
//! mark them in [`Order::new`].

use super::super::sum::Method;
use super::cliques::{bound_without, tighten, Groups};
use super::{Cdcl, Lit, FALSE, TRUE, UNDEF};
use crate::engine::{Engine, Mask, SumShape};

/// The order variables of a CDCL search.
pub(super) struct Order {
    /// The distinct symbol values, ascending.
    pub(super) levels: Vec<i64>,
    /// Per symbol: the index of its value in `levels`.
    pub(super) rank: Vec<u8>,
    /// CSR: the symbols of rank `r` are `by_rank[by_rank_start[r]..by_rank_start[r + 1]]`.
    pub(super) by_rank_start: Vec<u8>,
    pub(super) by_rank: Vec<u8>,
    /// Per cell: its first order variable (`[x ≥ levels[1]]`; `[x ≥ levels[k]]` is
    /// `start + k - 1`), or `u32::MAX` when the cell has none.
    pub(super) start: Vec<u32>,
    /// Per order variable (from the first one): its cell.
    pub(super) cell_of: Vec<u32>,
    /// Per sum shape: whether its propagator is the bounds rule over order literals.
    pub(super) bounded: Vec<bool>,
    /// The first order variable (after every value variable and `falsum`, [`super::varmap`]).
    pub(super) first: usize,
    /// Per bounded shape: its cells in groups of pairwise peers ([`super::cliques`]).
    pub(super) groups: Groups,
    /// Scratch for explanations: (trail position, cell index in the shape, rank).
    scratch: Vec<(u32, u8, u8)>,
}

impl Order {
    /// The order variables of `e`'s bounded sum shapes, numbered from `first`; `None` when no
    /// shape is filtered by bounds (or the values do not fit the encoding).
    pub(super) fn new(e: &Engine, first: usize) -> Option<Self> {
        // shapes where symbols may repeat (and unique ones with too many combinations): the
        // engine's enumeration of small ones explains itself with more literals than it saves
        let bounded: Vec<bool> = (0..e.sums.len())
            .map(|i| {
                !matches!(e.sum_tables.method[i], Method::Combos { .. })
                    && e.sums[i].cells.len() <= 64
            })
            .collect();
        if !bounded.iter().any(|&b| b) {
            return None;
        }
        let mut levels = e.values.clone();
        levels.sort_unstable();
        levels.dedup();
        if levels.len() < 2 || levels.len() > 255 {
            return None;
        }
        let rank: Vec<u8> = e
            .values
            .iter()
            .map(|v| levels.binary_search(v).expect("a value") as u8)
            .collect();
        let mut by_rank_start = vec![0u8];
        let mut by_rank = Vec::with_capacity(rank.len());
        for r in 0..levels.len() as u8 {
            by_rank.extend((0..rank.len() as u8).filter(|&t| rank[t as usize] == r));
            by_rank_start.push(by_rank.len() as u8);
        }
        let mut start = vec![u32::MAX; e.n_cells];
        let mut cell_of = Vec::new();
        for (i, s) in e.sums.iter().enumerate() {
            if !bounded[i] {
                continue;
            }
            for &c in &s.cells {
                if start[c as usize] == u32::MAX {
                    start[c as usize] = (first + cell_of.len()) as u32;
                    cell_of.extend(std::iter::repeat_n(c, levels.len() - 1));
                }
            }
        }
        // distinct symbols have distinct values: peers in a shape take distinct levels
        let groups = Groups::new(e, &bounded, levels.len() == e.values.len());
        Some(Order {
            groups,
            levels,
            rank,
            by_rank_start,
            by_rank,
            start,
            cell_of,
            bounded,
            first,
            scratch: Vec::new(),
        })
    }

    /// How many order variables there are.
    pub(super) fn count(&self) -> usize {
        self.cell_of.len()
    }

    /// The variable `[x ≥ levels[k]]` of cell `c` (`1 <= k < levels.len()`).
    #[inline(always)]
    pub(super) fn var(&self, c: u32, k: usize) -> usize {
        self.start[c as usize] as usize + k - 1
    }
}

impl Cdcl<'_> {
    /// Gives the order variables their root values (from the root candidates `root`); the
    /// channelling is implicit ([`Cdcl::channel`]).
    pub(super) fn set_order_roots(&mut self, root: &[Mask]) {
        let Some(order) = self.sums.as_mut().and_then(|s| s.order.take()) else {
            return;
        };
        let top = order.levels.len();
        for c in 0..root.len() as u32 {
            if order.start[c as usize] == u32::MAX {
                continue;
            }
            let m = root[c as usize];
            let (lo, hi) = rank_bounds(&order.rank, m);
            for k in 1..top {
                let v = order.var(c, k);
                let val = if k <= lo {
                    TRUE
                } else if k > hi {
                    FALSE
                } else {
                    UNDEF
                };
                self.value[2 * v] = val;
                self.value[2 * v + 1] = match val {
                    TRUE => FALSE,
                    FALSE => TRUE,
                    _ => UNDEF,
                };
            }
        }
        self.sums.as_mut().expect("sum shapes").order = Some(order);
    }

    /// The bounds rule of bounded sum shape `i` on the current candidates: tightened bounds go
    /// on the trail as order literals with the shape as reason (`Ok(true)`); `Err(())` when the
    /// total is out of the cells' reach.
    pub(super) fn propagate_bounds(&mut self, i: u32, snap: u32) -> Result<bool, ()> {
        let e = self.e;
        let s = &e.sums[i as usize];
        let sums = self.sums.take().expect("sum shapes");
        let order = sums.order.as_ref().expect("order variables");
        let k = s.cells.len();
        let mut lo = [0u8; 64];
        let mut hi = [0u8; 64];
        for (j, &c) in s.cells.iter().enumerate() {
            let (a, b) = rank_bounds(&order.rank, self.candidates(c as usize));
            lo[j] = a as u8;
            hi[j] = b as u8;
        }
        let mut new_lo = [0u8; 64];
        let mut new_hi = [0u8; 64];
        let mut result = tighten(
            &order.levels,
            s.total,
            order.groups.of(i as usize),
            &lo[..k],
            &hi[..k],
            &mut new_lo[..k],
            &mut new_hi[..k],
        )
        .map(|()| false);
        if result.is_ok() {
            for (j, &c) in s.cells.iter().enumerate() {
                if new_lo[j] > lo[j] {
                    let v = order.var(c, new_lo[j] as usize);
                    debug_assert_eq!(self.value[2 * v], UNDEF);
                    if self.value[2 * v] == UNDEF {
                        self.enqueue(2 * v as Lit, super::sums::SUM | i);
                        result = Ok(true);
                    }
                }
                if new_hi[j] < hi[j] {
                    let v = order.var(c, new_hi[j] as usize + 1);
                    // true when no value lies between the two bounds (values with gaps) and
                    // the lower one was just set: then, once that propagates, the cells'
                    // smallest values exceed the total, a conflict of the next run
                    debug_assert_ne!(self.value[2 * v], FALSE);
                    if self.value[2 * v] == UNDEF {
                        self.enqueue(2 * v as Lit + 1, super::sums::SUM | i);
                        result = Ok(true);
                    }
                }
            }
        }
        self.sums = Some(sums);
        if result == Ok(true) {
            // every literal just set was deduced from the bounds at `snap`
            let sums = self.sums.as_mut().expect("sum shapes");
            for &l in &self.trail[snap as usize..] {
                sums.snap[(l >> 1) as usize] = snap;
            }
        }
        result
    }

    /// The rank of cell `c`'s smallest (`low`) or largest value when the trail had length
    /// `snap` (literals at the root count as always there), and the order literal stating that
    /// bound (false; `None` when the bound is the root's).
    pub(super) fn bound_at(
        &self,
        order: &Order,
        c: u32,
        snap: u32,
        low: bool,
    ) -> (usize, Option<Lit>) {
        let top = order.levels.len();
        let before = |v: usize| self.vars[v].level == 0 || self.vars[v].pos < snap;
        if low {
            // the largest k with [x ≥ levels[k]] true then
            let mut r = 0;
            let mut lit = None;
            for k in 1..top {
                let v = order.var(c, k);
                if self.value[2 * v] == TRUE && before(v) {
                    r = k;
                    lit = (self.vars[v].level > 0).then_some(2 * v as Lit + 1);
                } else {
                    break;
                }
            }
            (r, lit)
        } else {
            // the smallest k with [x ≥ levels[k]] false then, less one
            for k in 1..top {
                let v = order.var(c, k);
                if self.value[2 * v] == FALSE && before(v) {
                    return (k - 1, (self.vars[v].level > 0).then_some(2 * v as Lit));
                }
            }
            (top - 1, None)
        }
    }

    /// What bounded shape `s` deduced of its order variable `v`: the position of `v`'s cell in
    /// the shape, whether the others' least total (`low`) or their largest explains it, and
    /// the threshold that total must pass.
    fn deduced(&self, order: &Order, s: &SumShape, v: usize) -> (usize, bool, i64) {
        let c = order.cell_of[v - order.first];
        let r = v - order.start[c as usize] as usize + 1;
        let j = s
            .cells
            .iter()
            .position(|&x| x == c)
            .expect("a cell of the shape");
        let low = self.value[2 * v] == FALSE;
        let threshold = if low {
            s.total - order.levels[r]
        } else {
            s.total - order.levels[r - 1]
        };
        (j, low, threshold)
    }

    /// Appends to `out` the explanation of bounded shape `i`'s deduction at trail length
    /// `snap`: of the order variable `target`, or with `None` of the shape's conflict.
    pub(super) fn explain_bounds(
        &mut self,
        i: u32,
        snap: u32,
        target: Option<usize>,
        out: &mut Vec<Lit>,
    ) {
        let e = self.e;
        let s = &e.sums[i as usize];
        let mut sums = self.sums.take().expect("sum shapes");
        let mut order = sums.order.take().expect("order variables");
        let (members, ends) = order.groups.of(i as usize);
        let top = order.levels.len();
        // per position: its rank at the snapshot, by the bounds that explain (low: the
        // others' smallest values, or their largest)
        let mut rank = [0u8; 64];
        let bounds_at = |this: &Self, low: bool, rank: &mut [u8; 64]| {
            for (q, &d) in s.cells.iter().enumerate() {
                rank[q] = this.bound_at(&order, d, snap, low).0 as u8;
            }
        };
        // the target's position (skipped), which bounds explain, and the deduction's
        // threshold: low, the others' least total must exceed it; else their largest be below
        let (skip, low, threshold) = match target {
            Some(v) => self.deduced(&order, s, v),
            None => {
                bounds_at(self, true, &mut rank);
                let mut per_group = [None; 64];
                let least = group_sums(
                    &order.levels,
                    members,
                    ends,
                    &rank,
                    usize::MAX,
                    true,
                    &mut per_group,
                );
                let low = holds(least, true, s.total);
                (usize::MAX, low, s.total)
            }
        };
        bounds_at(self, low, &mut rank);
        let mut per_group = [None; 64];
        let mut sum = group_sums(
            &order.levels,
            members,
            ends,
            &rank,
            skip,
            low,
            &mut per_group,
        );
        debug_assert!(holds(sum, low, threshold), "not a deduction");
        order.scratch.clear();
        for (q, &d) in s.cells.iter().enumerate() {
            if q == skip {
                continue;
            }
            let (r, lit) = self.bound_at(&order, d, snap, low);
            if let Some(l) = lit {
                order
                    .scratch
                    .push((self.vars[(l >> 1) as usize].pos, q as u8, r as u8));
            }
        }
        // loosen the latest bounds first, one rank at a time while the deduction holds
        order
            .scratch
            .sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let start = sums.arena.len();
        for &(_, q, _) in &order.scratch {
            let q = q as usize;
            let (g, group) = group_of(members, ends, q);
            loop {
                let old = rank[q];
                if (low && old == 0) || (!low && old as usize + 1 == top) {
                    break;
                }
                rank[q] = if low { old - 1 } else { old + 1 };
                let part = bound_without(&order.levels, group, &rank, skip, low);
                let tried = match (sum, per_group[g], part) {
                    (Some(t), Some(was), Some(now)) => Some(t - was + now),
                    _ => group_sums(
                        &order.levels,
                        members,
                        ends,
                        &rank,
                        skip,
                        low,
                        &mut [None; 64],
                    ),
                };
                if holds(tried, low, threshold) {
                    sum = tried;
                    per_group[g] = part;
                } else {
                    rank[q] = old;
                    break;
                }
            }
            let (c, r) = (s.cells[q], rank[q] as usize);
            if low && r > 0 {
                sums.arena.push(2 * order.var(c, r) as Lit + 1);
            } else if !low && r + 1 < top {
                sums.arena.push(2 * order.var(c, r + 1) as Lit);
            }
        }
        sums.record(start, target, out);
        sums.order = Some(order);
        self.sums = Some(sums);
    }
}

/// Whether a bound on the cells' total makes the deduction: `low`, the least total exceeds
/// `threshold` (or cannot be reached: `None`); else the largest is below it.
#[inline]
fn holds(sum: Option<i64>, low: bool, threshold: i64) -> bool {
    sum.is_none_or(|t| if low { t > threshold } else { t < threshold })
}

/// The least (`low`) or largest total of a shape's groups on the ranks `rank`, leaving out
/// position `skip`, with each group's in `per_group`; `None` when a group cannot be filled.
fn group_sums(
    levels: &[i64],
    members: &[u8],
    ends: &[u8],
    rank: &[u8],
    skip: usize,
    low: bool,
    per_group: &mut [Option<i64>; 64],
) -> Option<i64> {
    let mut from = 0;
    let mut sum = Some(0);
    for (g, &end) in ends.iter().enumerate() {
        per_group[g] = bound_without(levels, &members[from..end as usize], rank, skip, low);
        sum = sum.zip(per_group[g]).map(|(a, b)| a + b);
        from = end as usize;
    }
    sum
}

/// The group of position `q` of a shape: its index and its positions.
fn group_of<'a>(members: &'a [u8], ends: &[u8], q: usize) -> (usize, &'a [u8]) {
    let at = members
        .iter()
        .position(|&m| m as usize == q)
        .expect("a member");
    let g = ends
        .iter()
        .position(|&end| at < end as usize)
        .expect("a group");
    let from = if g == 0 { 0 } else { ends[g - 1] as usize };
    (g, &members[from..ends[g] as usize])
}

/// The ranks of the smallest and largest values among the symbols of `m` (not empty).
#[inline]
fn rank_bounds(rank: &[u8], mut m: Mask) -> (usize, usize) {
    let (mut lo, mut hi) = (u8::MAX, 0u8);
    while m != 0 {
        let r = rank[m.trailing_zeros() as usize];
        lo = lo.min(r);
        hi = hi.max(r);
        m &= m - 1;
    }
    (lo as usize, hi as usize)
}
