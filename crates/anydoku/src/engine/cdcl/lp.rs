//! A small dense dual simplex that decides whether `A x = b` has a solution with every `x_j`
//! in `[lo_j, hi_j]`, for one fixed `A` and `b` and boxes that change from call to call, and
//! when it has none, hands out a Farkas certificate: multipliers `y` such that the combined row
//! `(yᵀA) x = yᵀb` cannot be met by any `x` in the box.
//!
//! The tableau `B⁻¹ [A | I]` (one artificial column per row, fixed at zero) and its basis are
//! kept between calls: a basis does not depend on the boxes, so a call only sets the nonbasic
//! variables to their (new) bounds, recomputes the basic ones, and pivots while a basic variable
//! lies outside its box (dual simplex: with no objective every basis is dual feasible). When the
//! tableau row of such a variable has no column that can move it back, that row is the
//! certificate (`y` is its artificial part). The caller checks the certificate itself
//! ([`certificate_gap`]), so rounding can only cost a missed conflict, never a wrong one; the
//! tableau is rebuilt from the artificial basis every so many pivots so that rounding does not
//! build up.
//!
//! The problems it is meant for are small (tens of rows, up to a few hundred columns). To extend
//! it (bound propagation from the rows of the tableau), read the rows of `tab`.

/// Pivot and feasibility tolerance.
const EPS: f64 = 1e-9;
/// Pivots after which the tableau is rebuilt.
const REBUILD: u64 = 2000;

/// How a call of [`Simplex::check`] ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Answer {
    Feasible,
    /// No solution; the certificate is in `y`.
    Infeasible,
    /// The pivot budget ran out.
    Unknown,
}

/// The dual simplex of one system `A x = b` (kept between calls).
pub(super) struct Simplex {
    m: usize,
    n: usize,
    a: Vec<f64>,
    b: Vec<f64>,
    /// `m` rows of `n + m` entries: `B⁻¹ [A | I]`, and `B⁻¹ b`.
    tab: Vec<f64>,
    rhs: Vec<f64>,
    /// Per row: its basic variable; per row: that variable's value.
    basis: Vec<usize>,
    xb: Vec<f64>,
    /// Per variable: whether it is nonbasic at its upper bound, and whether it is basic.
    at_hi: Vec<bool>,
    is_basic: Vec<bool>,
    /// Per structural variable: the value it had in `xb` while nonbasic; whether `xb` must be
    /// computed in full (after a rebuild).
    val: Vec<f64>,
    fresh: bool,
    /// Pivots since the tableau was last rebuilt.
    since: u64,
    /// Pivots made so far (over every call).
    pub(super) pivots: u64,
}

impl Simplex {
    /// The simplex of `A x = b` (`a` row-major, `b.len()` rows of `n`).
    pub(super) fn new(a: &[f64], b: &[f64], n: usize) -> Self {
        let m = b.len();
        debug_assert_eq!(a.len(), m * n);
        let mut s = Simplex {
            m,
            n,
            a: a.to_vec(),
            b: b.to_vec(),
            tab: vec![0.0; m * (n + m)],
            rhs: vec![0.0; m],
            basis: vec![0; m],
            xb: vec![0.0; m],
            at_hi: vec![false; n + m],
            is_basic: vec![false; n + m],
            val: vec![0.0; n],
            fresh: true,
            since: 0,
            pivots: 0,
        };
        s.rebuild();
        s
    }

    /// The artificial basis: `tab = [A | I]`.
    fn rebuild(&mut self) {
        let (m, n) = (self.m, self.n);
        let w = n + m;
        self.tab.fill(0.0);
        for i in 0..m {
            self.tab[i * w..i * w + n].copy_from_slice(&self.a[i * n..(i + 1) * n]);
            self.tab[i * w + n + i] = 1.0;
            self.basis[i] = n + i;
        }
        self.rhs.copy_from_slice(&self.b);
        self.is_basic.fill(false);
        self.is_basic[n..].fill(true);
        self.at_hi.fill(false);
        self.since = 0;
        self.fresh = true;
    }

    /// Whether `A x = b` has a solution with `lo <= x <= hi` (at most `max_pivots` pivots);
    /// when it has none, `y` holds the certificate's `m` multipliers.
    pub(super) fn check(
        &mut self,
        lo: &[f64],
        hi: &[f64],
        max_pivots: usize,
        y: &mut Vec<f64>,
    ) -> Answer {
        let (m, n) = (self.m, self.n);
        let w = n + m;
        if self.since >= REBUILD {
            self.rebuild();
        }
        let lower = |j: usize| if j < n { lo[j] } else { 0.0 };
        let upper = |j: usize| if j < n { hi[j] } else { 0.0 };
        // the basic variables' values with the nonbasic ones at their (new) bounds: in full
        // after a rebuild, else moved by the nonbasic values that changed
        if self.fresh {
            for i in 0..m {
                let row = &self.tab[i * w..i * w + n];
                let mut v = self.rhs[i];
                for j in 0..n {
                    if !self.is_basic[j] && row[j] != 0.0 {
                        v -= row[j] * if self.at_hi[j] { hi[j] } else { lo[j] };
                    }
                }
                self.xb[i] = v;
            }
            for j in 0..n {
                self.val[j] = if self.at_hi[j] { hi[j] } else { lo[j] };
            }
            self.fresh = false;
        } else {
            for j in 0..n {
                let now = if self.at_hi[j] { hi[j] } else { lo[j] };
                if self.is_basic[j] || now == self.val[j] {
                    continue;
                }
                let delta = now - self.val[j];
                self.val[j] = now;
                for i in 0..m {
                    self.xb[i] -= self.tab[i * w + j] * delta;
                }
            }
        }
        for _ in 0..max_pivots {
            // leaving: the basic variable furthest outside its box
            let mut worst = 1e-7;
            let mut leave = None;
            for i in 0..m {
                let k = self.basis[i];
                let out = (lower(k) - self.xb[i]).max(self.xb[i] - upper(k));
                if out > worst {
                    worst = out;
                    leave = Some(i);
                }
            }
            let Some(r) = leave else {
                return Answer::Feasible;
            };
            let k = self.basis[r];
            let raise = self.xb[r] < lower(k);
            // entering: a nonbasic column that can move x_k back (x_k + Σ t_j x_j = const),
            // the one with the largest entry
            let row = &self.tab[r * w..(r + 1) * w];
            let mut best = EPS;
            let mut enter = None;
            for j in 0..n {
                let t = row[j];
                if self.is_basic[j] || t.abs() <= best || lo[j] == hi[j] {
                    continue;
                }
                // raising x_k: t > 0 needs x_j to fall (at its upper bound), t < 0 to rise
                let can = if raise == (t > 0.0) {
                    self.at_hi[j]
                } else {
                    !self.at_hi[j]
                };
                if can {
                    best = t.abs();
                    enter = Some(j);
                }
            }
            let Some(j) = enter else {
                // x_k's row cannot bring it into its box: the row is the certificate
                y.clear();
                y.extend_from_slice(&row[n..]);
                return Answer::Infeasible;
            };
            self.pivot(r, j, if raise { lower(k) } else { upper(k) }, lo, hi);
        }
        Answer::Unknown
    }

    /// Basic variable of row `r` leaves at the bound `to`; nonbasic `j` enters.
    fn pivot(&mut self, r: usize, j: usize, to: f64, lo: &[f64], hi: &[f64]) {
        let (m, n) = (self.m, self.n);
        let w = n + m;
        let k = self.basis[r];
        let p = self.tab[r * w + j];
        // x_j moves by delta so that x_k reaches `to`: t_j * delta = -(to - x_k)
        let delta = (self.xb[r] - to) / p;
        let xj = if self.at_hi[j] { hi[j] } else { lo[j] } + delta;
        for i in 0..m {
            if i != r {
                self.xb[i] -= self.tab[i * w + j] * delta;
            }
        }
        self.is_basic[k] = false;
        self.at_hi[k] = k < n && to == hi[k] && to != lo[k];
        if k < n {
            self.val[k] = to;
        }
        self.is_basic[j] = true;
        self.at_hi[j] = false;
        self.basis[r] = j;
        self.xb[r] = xj;
        for x in &mut self.tab[r * w..(r + 1) * w] {
            *x /= p;
        }
        self.rhs[r] /= p;
        let (before, rest) = self.tab.split_at_mut(r * w);
        let (pivot_row, after) = rest.split_at_mut(w);
        let rhs_r = self.rhs[r];
        for (i, row) in before
            .chunks_exact_mut(w)
            .chain(after.chunks_exact_mut(w))
            .enumerate()
        {
            let f = row[j];
            if f != 0.0 {
                for (x, &q) in row.iter_mut().zip(pivot_row.iter()) {
                    *x -= f * q;
                }
                let i = if i < r { i } else { i + 1 };
                self.rhs[i] -= f * rhs_r;
            }
        }
        self.pivots += 1;
        self.since += 1;
    }
}

/// How far the combined row of `y` misses: `yᵀb` less the largest `(yᵀA) x` over the box, or
/// the smallest such value less `yᵀb`, whichever is larger (positive: no `x` in the box meets
/// the rows); `d` receives `yᵀA`, with its sign flipped in the second case so that the gap
/// always reads as "the largest value falls short".
pub(super) fn certificate_gap(
    a: &[f64],
    b: &[f64],
    lo: &[f64],
    hi: &[f64],
    y: &[f64],
    d: &mut Vec<f64>,
) -> f64 {
    let n = lo.len();
    d.clear();
    d.resize(n, 0.0);
    let mut rhs = 0.0;
    for (i, &yi) in y.iter().enumerate() {
        if yi == 0.0 {
            continue;
        }
        rhs += yi * b[i];
        for (dj, &aij) in d.iter_mut().zip(&a[i * n..(i + 1) * n]) {
            *dj += yi * aij;
        }
    }
    let (mut max, mut min) = (0.0, 0.0);
    for j in 0..n {
        max += (d[j] * lo[j]).max(d[j] * hi[j]);
        min += (d[j] * lo[j]).min(d[j] * hi[j]);
    }
    if rhs - max >= min - rhs {
        rhs - max
    } else {
        for x in d.iter_mut() {
            *x = -*x;
        }
        min - rhs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `x` of the integer box, `f` on each.
    fn each_point(lo: &[f64], hi: &[f64], f: &mut impl FnMut(&[f64])) {
        let mut x: Vec<f64> = lo.to_vec();
        loop {
            f(&x);
            let mut j = 0;
            loop {
                if j == x.len() {
                    return;
                }
                if x[j] < hi[j] {
                    x[j] += 1.0;
                    break;
                }
                x[j] = lo[j];
                j += 1;
            }
        }
    }

    /// Random small systems, each checked in several boxes with one simplex (warm starts): an
    /// infeasible answer comes with a certificate that holds, and when the integer box has a
    /// point meeting the rows, the answer is "feasible".
    #[test]
    fn certificates_hold_and_feasible_systems_pass() {
        let mut seed = 12345u64;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
        let (mut infeasible, mut feasible, mut unknown) = (0, 0, 0);
        for _ in 0..600 {
            let m = 1 + next(4) as usize;
            let n = 1 + next(5) as usize;
            let a: Vec<f64> = (0..m * n).map(|_| next(2) as f64).collect();
            // the rows of a point of [1, 9]^n, moved by at most one half the time
            let point: Vec<f64> = (0..n).map(|_| 1.0 + next(9) as f64).collect();
            let b: Vec<f64> = (0..m)
                .map(|i| {
                    let at: f64 = (0..n).map(|j| a[i * n + j] * point[j]).sum();
                    if next(2) == 0 {
                        at
                    } else {
                        at + next(3) as f64 - 1.0
                    }
                })
                .collect();
            let mut simplex = Simplex::new(&a, &b, n);
            for _ in 0..6 {
                let lo: Vec<f64> = (0..n).map(|_| 1.0 + next(6) as f64).collect();
                let hi: Vec<f64> = lo.iter().map(|&l| (l + next(5) as f64).min(9.0)).collect();
                let mut integer_point = false;
                each_point(&lo, &hi, &mut |x| {
                    let meets =
                        (0..m).all(|i| (0..n).map(|j| a[i * n + j] * x[j]).sum::<f64>() == b[i]);
                    integer_point |= meets;
                });
                let mut y = Vec::new();
                let mut d = Vec::new();
                match simplex.check(&lo, &hi, 200, &mut y) {
                    Answer::Infeasible => {
                        assert!(!integer_point, "a solvable system called infeasible");
                        let gap = certificate_gap(&a, &b, &lo, &hi, &y, &mut d);
                        assert!(gap > 1e-7, "certificate does not hold: gap {gap}");
                        infeasible += 1;
                    }
                    Answer::Feasible => feasible += 1,
                    Answer::Unknown => unknown += 1,
                }
            }
        }
        assert!(
            infeasible > 300 && feasible > 300,
            "{infeasible} / {feasible}"
        );
        assert!(unknown < 10, "{unknown} runs out of pivots");
    }

    /// A system that is infeasible only over two rows together (each alone can be met).
    #[test]
    fn joint_infeasibility_is_found() {
        // x0 + x1 = 10, x1 + x2 = 2, x0 <= 7, x1, x2 in [1, 9]: x1 >= 3 and x1 <= 1
        let a = [1.0, 1.0, 0.0, 0.0, 1.0, 1.0];
        let b = [10.0, 2.0];
        let lo = [1.0, 1.0, 1.0];
        let hi = [7.0, 9.0, 9.0];
        let mut y = Vec::new();
        let mut d = Vec::new();
        let mut simplex = Simplex::new(&a, &b, 3);
        assert_eq!(simplex.check(&lo, &hi, 100, &mut y), Answer::Infeasible);
        assert!(certificate_gap(&a, &b, &lo, &hi, &y, &mut d) > 0.5);
        // x0 = 9, x1 = 1, x2 = 1
        let hi = [9.0, 9.0, 9.0];
        assert_eq!(simplex.check(&lo, &hi, 100, &mut y), Answer::Feasible);
    }
}
