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
//! It runs at propagation fixpoints at low decision levels (at most `max_level`), when
//! anything was propagated since its last run, and only on models with at least two bounded
//! shapes that are not guarded ([`super::assume`]). To make it stronger, add rows here
//! (every row must be implied by the model) or propagate bounds from the simplex's reduced
//! costs; the explanations follow from the certificate.

use super::lp::{certificate_gap, Simplex};
use super::order::Order;
use super::{var, Cdcl, Conflict, Lit, FALSE, TRUE};
use crate::engine::Engine;

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
    /// The reduced problem: its rows, its (free) columns, and per column the rows holding it
    /// while free and whether a kept row holds it.
    rows: Vec<usize>,
    free: Vec<usize>,
    shared: Vec<u32>,
    in_kept: Vec<bool>,
    red_x: Vec<f64>,
    /// The last solution found, over every column, while `has_point`.
    point: Vec<f64>,
    has_point: bool,
    red_a: Vec<f64>,
    red_b: Vec<f64>,
    red_lo: Vec<f64>,
    red_hi: Vec<f64>,
    y: Vec<f64>,
    y_full: Vec<f64>,
    d: Vec<f64>,
    /// Scratch for explanations: (trail position, column, upper bound).
    loosen: Vec<(u32, u32, bool)>,
    simplex: Simplex,
    /// The explanation of the last conflict found (literals all false).
    pub(super) clause: Vec<Lit>,
    /// Runs at decision levels up to this one.
    max_level: u32,
    /// `propagated` at the last run that found no conflict (nothing new: no run).
    last: u64,
    /// Runs, conflicts found and their literals (statistics).
    pub(super) runs: u64,
    pub(super) found: u64,
    pub(super) lits: u64,
    solves: u64,
    nanos: u64,
}

impl Linear {
    /// The relaxation of `e`'s bounded shapes, `None` when fewer than two are bounded.
    pub(super) fn new(e: &Engine, order: &Order) -> Option<Self> {
        let shapes: Vec<usize> = (0..e.sums.len()).filter(|&i| order.bounded[i]).collect();
        if shapes.len() < 2 || std::env::var("LPOFF").is_ok() {
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
        let max_level = std::env::var("LPLEVEL")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(4);
        Some(Linear {
            totals: shapes.iter().map(|&i| e.sums[i].total as f64).collect(),
            a,
            lo_rank: vec![0; n],
            hi_rank: vec![0; n],
            lo: vec![0.0; n],
            hi: vec![0.0; n],
            cells,
            rows: Vec::new(),
            free: Vec::new(),
            shared: Vec::new(),
            in_kept: Vec::new(),
            red_x: Vec::new(),
            point: Vec::new(),
            has_point: false,
            red_a: Vec::new(),
            red_b: Vec::new(),
            red_lo: Vec::new(),
            red_hi: Vec::new(),
            y: Vec::new(),
            y_full: Vec::new(),
            d: Vec::new(),
            loosen: Vec::new(),
            simplex: Simplex::default(),
            clause: Vec::new(),
            max_level,
            last: u64::MAX,
            runs: 0,
            found: 0,
            lits: 0,
            solves: 0,
            nanos: 0,
        })
    }

    /// Moves the fixed columns to the right side and leaves out the rows whose free columns are
    /// in no other row (each row alone is feasible, its shape's propagator saw to that): the
    /// reduced problem over the rest. The left-out rows keep a multiplier of zero.
    fn reduce(&mut self) {
        let n = self.cells.len();
        let m = self.totals.len();
        self.shared.clear();
        self.shared.resize(n, 0);
        for r in 0..m {
            let row = &self.a[r * n..(r + 1) * n];
            for j in 0..n {
                if row[j] != 0.0 && self.lo[j] < self.hi[j] {
                    self.shared[j] += 1;
                }
            }
        }
        self.rows.clear();
        for r in 0..m {
            let row = &self.a[r * n..(r + 1) * n];
            if (0..n).any(|j| row[j] != 0.0 && self.shared[j] > 1) {
                self.rows.push(r);
            }
        }
        // the free columns of the rows kept (a column of one row only stays a column there)
        self.in_kept.clear();
        self.in_kept.resize(n, false);
        for &r in &self.rows {
            for j in 0..n {
                self.in_kept[j] |= self.a[r * n + j] != 0.0;
            }
        }
        self.free.clear();
        self.free
            .extend((0..n).filter(|&j| self.in_kept[j] && self.lo[j] < self.hi[j]));
        self.red_a.clear();
        self.red_b.clear();
        for &r in &self.rows {
            let row = &self.a[r * n..(r + 1) * n];
            let mut rhs = self.totals[r];
            for j in 0..n {
                if self.lo[j] == self.hi[j] {
                    rhs -= row[j] * self.lo[j];
                }
            }
            self.red_b.push(rhs);
            self.red_a.extend(self.free.iter().map(|&j| row[j]));
        }
        self.red_lo.clear();
        self.red_lo.extend(self.free.iter().map(|&j| self.lo[j]));
        self.red_hi.clear();
        self.red_hi.extend(self.free.iter().map(|&j| self.hi[j]));
    }

    /// Keeps the simplex's solution as a point of the full relaxation (the rows left out are
    /// met by filling their own columns from their lower bounds up), so that the next run can
    /// skip the simplex while the boxes still hold it.
    fn keep_point(&mut self) {
        let n = self.cells.len();
        self.red_x.clear();
        self.red_x.resize(self.free.len(), 0.0);
        self.simplex.point(&self.red_lo, &self.red_hi, &mut self.red_x);
        self.point.clear();
        self.point.extend_from_slice(&self.lo);
        for (k, &j) in self.free.iter().enumerate() {
            self.point[j] = self.red_x[k];
        }
        self.has_point = true;
        for r in 0..self.totals.len() {
            let row = &self.a[r * n..(r + 1) * n];
            if (0..n).any(|j| row[j] != 0.0 && self.in_kept[j]) {
                continue;
            }
            let mut left = self.totals[r] - (0..n).map(|j| row[j] * self.lo[j]).sum::<f64>();
            for j in 0..n {
                if row[j] != 0.0 && left > 0.0 {
                    let add = left.min(self.hi[j] - self.lo[j]);
                    self.point[j] += add;
                    left -= add;
                }
            }
            if left.abs() > 1e-9 {
                self.has_point = false;
            }
        }
    }

    /// Whether the last solution found still lies in the current boxes.
    fn point_holds(&self) -> bool {
        self.has_point
            && (0..self.cells.len()).all(|j| self.point[j] >= self.lo[j] && self.point[j] <= self.hi[j])
    }
}

impl Cdcl<'_> {
    /// The relaxation's conflict at this propagation fixpoint, when it is due and finds one
    /// (its explanation in `Linear::clause`).
    pub(super) fn check_linear(&mut self) -> Option<Conflict> {
        let lin = self.linear.as_deref()?;
        if self.decision_level() > lin.max_level || lin.last == self.propagated {
            return None;
        }
        let mut lin = self.linear.take().expect("a relaxation");
        let t0 = std::time::Instant::now();
        let sums = self.sums.take().expect("sum shapes");
        let found = sums.guard_first == usize::MAX && self.relaxation_fails(&mut lin, &sums);
        self.sums = Some(sums);
        if !found {
            lin.last = self.propagated;
        }
        lin.nanos += t0.elapsed().as_nanos() as u64;
        self.linear = Some(lin);
        found.then_some(Conflict::Linear)
    }

    /// Reads the bounds, solves the relaxation and, when it fails, explains it.
    fn relaxation_fails(&self, lin: &mut Linear, sums: &super::sums::Sums) -> bool {
        let order = sums.order.as_deref().expect("order variables");
        let now = self.trail.len() as u32;
        for j in 0..lin.cells.len() {
            let c = lin.cells[j];
            let lo = self.bound_at(order, c, now, true).0;
            let hi = self.bound_at(order, c, now, false).0;
            lin.lo_rank[j] = lo as u8;
            lin.hi_rank[j] = hi as u8;
            lin.lo[j] = order.levels[lo] as f64;
            lin.hi[j] = order.levels[hi] as f64;
        }
        lin.runs += 1;
        if lin.point_holds() {
            return false;
        }
        lin.solves += 1;
        lin.reduce();
        let max_pivots = 20 * (lin.totals.len() + lin.free.len());
        let Linear {
            red_a,
            red_b,
            red_lo,
            red_hi,
            y,
            simplex,
            ..
        } = lin;
        if !simplex.infeasible(red_a, red_b, red_lo, red_hi, max_pivots, y) {
            if lin.simplex.solved {
                lin.keep_point();
            }
            return false;
        }
        // y over the reduced rows, spread over the full ones (zero for those left out)
        lin.y_full.clear();
        lin.y_full.resize(lin.totals.len(), 0.0);
        for (k, &r) in lin.rows.iter().enumerate() {
            lin.y_full[r] = lin.y[k];
        }
        let gap = certificate_gap(&lin.a, &lin.totals, &lin.lo, &lin.hi, &lin.y_full, &mut lin.d);
        if gap <= MARGIN {
            return false;
        }
        self.explain_linear(lin, order, gap);
        lin.found += 1;
        lin.lits += lin.clause.len() as u64;
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
                lin.loosen.push((self.pos[v], j as u32, true));
            } else if d < 0.0 && lin.lo_rank[j] > 0 {
                let v = order.var(c, lin.lo_rank[j] as usize);
                lin.loosen.push((self.pos[v], j as u32, false));
            }
        }
        lin.loosen.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        lin.clause.clear();
        for &(_, j, upper) in &lin.loosen {
            let j = j as usize;
            let (c, w) = (lin.cells[j], lin.d[j].abs());
            let mut r = if upper { lin.hi_rank[j] } else { lin.lo_rank[j] } as usize;
            loop {
                // a bound the root already holds costs no literal: keep it
                let held = if upper {
                    r + 1 < top && self.level[order.var(c, r + 1)] == 0
                } else {
                    r > 0 && self.level[order.var(c, r)] == 0
                };
                if held {
                    break;
                }
                let (beyond, step) = if upper {
                    (r + 1 < top, order.levels.get(r + 1).map(|&x| x - order.levels[r]))
                } else {
                    (r > 0, r.checked_sub(1).map(|q| order.levels[r] - order.levels[q]))
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
                if self.level[var(l)] > 0 {
                    lin.clause.push(l);
                }
            }
        }
        debug_assert!(lin.clause.iter().all(|&l| self.value[l as usize ^ 1] == TRUE));
    }
}

impl Drop for Linear {
    fn drop(&mut self) {
        if std::env::var("LPSTAT").is_ok() {
            eprintln!(
                "lp: runs {} solves {} found {} lits {} pivots {} ms {}",
                self.runs, self.solves, self.found, self.lits, self.simplex.pivots, self.nanos / 1_000_000
            );
        }
    }
}
