//! Linear reasoning over several sum shapes together: the LP relaxation of the bounded sum
//! shapes ([`super::order`]) over the cells' values, as CP-SAT's linear relaxation does.
//!
//! The relaxation has one real column per cell of a bounded shape, its box the cell's current
//! bounds (read from the order literals), and one row `Σ x = total` per bounded shape. Each
//! shape's own propagator already makes every row feasible alone; the relaxation finds the
//! boxes in which the rows cannot all be met together (shapes that cross or share cells). Then
//! the simplex ([`super::lp`]) hands out a Farkas certificate `y`: the combined row
//! `Σ_j d_j x_j = yᵀtotals` (`d = yᵀA`) falls short of its right side even with every `x_j` at
//! the bound that helps it most. The conflict's explanation is "some cell lies beyond the bound
//! the certificate used": for `d_j > 0`, the order literal `[x_j ≥ u_j + 1]`, for `d_j < 0`,
//! `¬[x_j ≥ l_j]`, every one false now. It is shortened as the bounds rule's explanations are:
//! the latest bounds are loosened first, one value at a time, while the combined row still
//! falls short, so a clause names only the bounds the certificate needs. The certificate is
//! checked on the full relaxation before it is used, so rounding in the simplex can only miss
//! a conflict.
//!
//! It runs at propagation fixpoints at low decision levels (at most [`MAX_LEVEL`]), when
//! anything was propagated since its last run, and only on models with at least two bounded
//! shapes that are not guarded ([`super::assume`]); where it finds few conflicts (judged after
//! [`TRIAL`] runs) only at one due fixpoint in [`SPARSE`]. To make it stronger, add rows here
//! (every row must be implied by the model) or propagate bounds from the simplex's reduced
//! costs; the explanations follow from the certificate.

use super::lp::{certificate_gap, Answer, Simplex};
use super::order::Order;
use super::{var, Cdcl, Conflict, Lit, FALSE, TRUE};
use crate::engine::Engine;

/// The deepest decision level the relaxation runs at.
const MAX_LEVEL: u32 = 8;

/// Runs before the relaxation's yield is judged; below one conflict found in `RATE` runs it
/// runs only at one due fixpoint in `SPARSE`.
const TRIAL: u64 = 4096;
const RATE: u64 = 256;
const SPARSE: u64 = 16;

/// The smallest shortfall a certificate must show to be used (the data are small integers).
const MARGIN: f64 = 1e-6;

/// The linear relaxation of a CDCL search's bounded sum shapes and its scratch.
pub(super) struct Linear {
    /// The rows: per bounded shape, its total; `a` row-major over the columns (0 or 1).
    totals: Vec<f64>,
    a: Vec<f64>,
    /// The columns: the cells of the bounded shapes.
    cells: Vec<u32>,
    /// Per column: its current bounds' ranks and values.
    lo_rank: Vec<u8>,
    hi_rank: Vec<u8>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    y: Vec<f64>,
    d: Vec<f64>,
    /// Scratch for explanations: (trail position, column, upper bound).
    loosen: Vec<(u32, u32, bool)>,
    simplex: Simplex,
    /// The explanation of the last conflict found (literals all false).
    pub(super) clause: Vec<Lit>,
    /// `propagated` at the last run that found no conflict (nothing new: no run).
    last: u64,
    /// Fixpoints at which a run was due (thinned by [`RATE`]).
    due: u64,
    /// Runs, conflicts found and their literals (statistics).
    pub(super) runs: u64,
    pub(super) found: u64,
    pub(super) lits: u64,
    /// Every explanation made (tests only).
    #[cfg(test)]
    pub(super) log: Vec<Vec<Lit>>,
}

impl Linear {
    /// The relaxation of `e`'s bounded shapes, `None` when fewer than two are bounded.
    pub(super) fn new(e: &Engine, order: &Order) -> Option<Self> {
        let shapes: Vec<usize> = (0..e.sums.len()).filter(|&i| order.bounded[i]).collect();
        if shapes.len() < 2 {
            return None;
        }
        let mut col_of = vec![u32::MAX; e.n_cells];
        let mut cells = Vec::new();
        for &i in &shapes {
            for &c in &e.sums[i].cells {
                if col_of[c as usize] == u32::MAX {
                    col_of[c as usize] = cells.len() as u32;
                    cells.push(c);
                }
            }
        }
        let n = cells.len();
        let mut a = vec![0.0; shapes.len() * n];
        for (r, &i) in shapes.iter().enumerate() {
            for &c in &e.sums[i].cells {
                a[r * n + col_of[c as usize] as usize] += 1.0;
            }
        }
        let totals: Vec<f64> = shapes.iter().map(|&i| e.sums[i].total as f64).collect();
        Some(Linear {
            simplex: Simplex::new(&a, &totals, n),
            totals,
            a,
            lo_rank: vec![0; n],
            hi_rank: vec![0; n],
            lo: vec![0.0; n],
            hi: vec![0.0; n],
            cells,
            y: Vec::new(),
            d: Vec::new(),
            loosen: Vec::new(),
            clause: Vec::new(),
            last: u64::MAX,
            due: 0,
            runs: 0,
            found: 0,
            lits: 0,
            #[cfg(test)]
            log: Vec::new(),
        })
    }
}

impl Cdcl<'_> {
    /// The relaxation's conflict at this propagation fixpoint, when it is due and finds one
    /// (its explanation in `Linear::clause`).
    pub(super) fn check_linear(&mut self) -> Option<Conflict> {
        let lin = self.linear.as_deref()?;
        if self.decision_level() > MAX_LEVEL || lin.last == self.propagated {
            return None;
        }
        // past a first stretch, a relaxation that finds few conflicts runs at one fixpoint in
        // `SPARSE` only
        let lin = self.linear.as_deref_mut()?;
        lin.due += 1;
        if lin.runs >= TRIAL && lin.found * RATE < lin.runs && lin.due % SPARSE != 0 {
            return None;
        }
        let mut lin = self.linear.take().expect("a relaxation");
        let sums = self.sums.take().expect("sum shapes");
        let found = sums.guard_first == usize::MAX && self.relaxation_fails(&mut lin, &sums);
        self.sums = Some(sums);
        if !found {
            lin.last = self.propagated;
        }
        self.linear = Some(lin);
        found.then_some(Conflict::Linear)
    }

    /// Reads the bounds, solves the relaxation and, when it fails, explains it.
    fn relaxation_fails(&self, lin: &mut Linear, sums: &super::sums::Sums) -> bool {
        let order = sums.order.as_deref().expect("order variables");
        let top = order.levels.len();
        for j in 0..lin.cells.len() {
            // the bounds are the order literals now: the true ones from the start, up to the
            // first false one
            let first = order.var(lin.cells[j], 1);
            let (mut lo, mut hi) = (0, top - 1);
            for k in 1..top {
                match self.value[2 * (first + k - 1)] {
                    TRUE => lo = k,
                    FALSE => {
                        hi = k - 1;
                        break;
                    }
                    _ => {}
                }
            }
            lin.lo_rank[j] = lo as u8;
            lin.hi_rank[j] = hi as u8;
            lin.lo[j] = order.levels[lo] as f64;
            lin.hi[j] = order.levels[hi] as f64;
        }
        lin.runs += 1;
        let max_pivots = 4 * lin.totals.len() + 20;
        if lin.simplex.check(&lin.lo, &lin.hi, max_pivots, &mut lin.y) != Answer::Infeasible {
            return false;
        }
        let gap = certificate_gap(&lin.a, &lin.totals, &lin.lo, &lin.hi, &lin.y, &mut lin.d);
        if gap <= MARGIN {
            return false;
        }
        self.explain_linear(lin, order, gap);
        lin.found += 1;
        lin.lits += lin.clause.len() as u64;
        #[cfg(test)]
        lin.log.push(lin.clause.clone());
        true
    }

    /// The clause of a failed relaxation with certificate `lin.d` falling short by `gap`: one
    /// false order literal per bound the certificate needs, the latest loosened first.
    fn explain_linear(&self, lin: &mut Linear, order: &Order, mut gap: f64) {
        let top = order.levels.len();
        lin.loosen.clear();
        for j in 0..lin.cells.len() {
            let c = lin.cells[j];
            let d = lin.d[j];
            if d > 0.0 && (lin.hi_rank[j] as usize) + 1 < top {
                let v = order.var(c, lin.hi_rank[j] as usize + 1);
                lin.loosen.push((self.vars[v].pos, j as u32, true));
            } else if d < 0.0 && lin.lo_rank[j] > 0 {
                let v = order.var(c, lin.lo_rank[j] as usize);
                lin.loosen.push((self.vars[v].pos, j as u32, false));
            }
        }
        lin.loosen.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        lin.clause.clear();
        for &(_, j, upper) in &lin.loosen {
            let j = j as usize;
            let (c, w) = (lin.cells[j], lin.d[j].abs());
            let mut r = if upper {
                lin.hi_rank[j]
            } else {
                lin.lo_rank[j]
            } as usize;
            loop {
                // a bound the root already holds costs no literal: keep it
                let held = if upper {
                    r + 1 < top && self.vars[order.var(c, r + 1)].level == 0
                } else {
                    r > 0 && self.vars[order.var(c, r)].level == 0
                };
                if held {
                    break;
                }
                let (beyond, step) = if upper {
                    (
                        r + 1 < top,
                        order.levels.get(r + 1).map(|&x| x - order.levels[r]),
                    )
                } else {
                    (
                        r > 0,
                        r.checked_sub(1).map(|q| order.levels[r] - order.levels[q]),
                    )
                };
                let Some(step) = step.filter(|_| beyond) else {
                    break;
                };
                let cost = w * step as f64;
                if gap - cost <= MARGIN {
                    break;
                }
                gap -= cost;
                r = if upper { r + 1 } else { r - 1 };
            }
            let lit = if upper && r + 1 < top {
                Some(2 * order.var(c, r + 1) as Lit)
            } else if !upper && r > 0 {
                Some(2 * order.var(c, r) as Lit + 1)
            } else {
                None
            };
            if let Some(l) = lit {
                debug_assert_eq!(self.value[l as usize], FALSE);
                debug_assert_ne!(self.value[l as usize ^ 1], FALSE);
                if self.vars[var(l)].level > 0 {
                    lin.clause.push(l);
                }
            }
        }
        debug_assert!(lin
            .clause
            .iter()
            .all(|&l| self.value[l as usize ^ 1] == TRUE));
    }
}
