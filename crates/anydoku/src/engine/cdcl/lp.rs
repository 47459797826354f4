//! A small dense simplex that decides whether `A x = b` has a solution with every `x_j` in
//! `[lo_j, hi_j]`, and when it has none, hands out a Farkas certificate: multipliers `y` such
//! that the combined row `(yᵀA) x = yᵀb` cannot be met by any `x` in the box.
//!
//! It is phase 1 of the bounded-variable primal simplex: one artificial variable per row (its
//! sign chosen so that it starts non-negative), nonbasic variables at one of their bounds, the
//! sum of the artificials minimised with Bland's rule (no cycling), on a dense tableau. At an
//! optimum with a positive sum, the artificials' reduced costs give `y`. The caller checks the
//! certificate itself ([`certificate_gap`]), so a wrong `y` (rounding) can only cost a missed
//! conflict, never a wrong one.
//!
//! The problems it is meant for are small (tens of rows, up to a few hundred columns) and solved
//! from scratch each time. To extend it (warm starts, bound propagation from reduced costs),
//! keep the tableau and basis between calls in [`Simplex`].

/// Pivot and feasibility tolerance.
const EPS: f64 = 1e-9;

/// The scratch of the simplex (kept between calls, so a call allocates only when a problem is
/// larger than every earlier one).
#[derive(Default)]
pub(super) struct Simplex {
    /// `m` rows of `n + m` entries: `B⁻¹ [A | S]`.
    tab: Vec<f64>,
    /// Reduced costs of the `n + m` columns.
    cost: Vec<f64>,
    /// Per row: its basic variable; per row: that variable's value.
    basis: Vec<usize>,
    xb: Vec<f64>,
    /// Per variable: whether it is nonbasic at its upper bound, and whether it is basic.
    at_hi: Vec<bool>,
    is_basic: Vec<bool>,
    /// Per row: the sign of its artificial's column.
    sign: Vec<f64>,
    /// Whether the last call found a solution ([`Simplex::point`]).
    pub(super) solved: bool,
    /// Pivots made so far (over every call).
    pub(super) pivots: u64,
}

impl Simplex {
    /// Whether `A x = b`, `lo <= x <= hi` (`a` row-major, `m` rows of `n`) has no solution; then
    /// `y` holds the certificate's `m` multipliers. `false` when it has one or when `max_pivots`
    /// ran out first.
    pub(super) fn infeasible(
        &mut self,
        a: &[f64],
        b: &[f64],
        lo: &[f64],
        hi: &[f64],
        max_pivots: usize,
        y: &mut Vec<f64>,
    ) -> bool {
        let m = b.len();
        let n = lo.len();
        let w = n + m;
        self.solved = false;
        debug_assert_eq!(a.len(), m * n);
        self.tab.clear();
        self.tab.resize(m * w, 0.0);
        self.cost.clear();
        self.cost.resize(w, 0.0);
        self.basis.clear();
        self.xb.clear();
        self.sign.clear();
        self.at_hi.clear();
        self.at_hi.resize(w, false);
        for i in 0..m {
            let row = &a[i * n..(i + 1) * n];
            let r = b[i] - row.iter().zip(lo).map(|(x, l)| x * l).sum::<f64>();
            let s = if r >= 0.0 { 1.0 } else { -1.0 };
            self.sign.push(s);
            self.basis.push(n + i);
            self.xb.push(r.abs());
            let t = &mut self.tab[i * w..(i + 1) * w];
            for j in 0..n {
                t[j] = s * row[j];
                self.cost[j] -= t[j];
            }
            t[n + i] = 1.0;
        }
        let value_of = |at_hi: &[bool], j: usize| -> f64 {
            if j >= n {
                0.0
            } else if at_hi[j] {
                hi[j]
            } else {
                lo[j]
            }
        };
        let upper = |j: usize| if j >= n { f64::INFINITY } else { hi[j] };
        let lower = |j: usize| if j >= n { 0.0 } else { lo[j] };
        self.is_basic.clear();
        self.is_basic.resize(w, false);
        for &k in &self.basis {
            self.is_basic[k] = true;
        }
        let mut stalled = 0;
        for _ in 0..max_pivots {
            // entering: the nonbasic column whose move lowers the sum fastest (Dantzig), or
            // after a few pivots that did not lower it, the first such column (Bland: no
            // cycling)
            let gain = |j: usize| -> f64 {
                if self.is_basic[j] {
                    0.0
                } else if !self.at_hi[j] && upper(j) > lower(j) {
                    -self.cost[j]
                } else if self.at_hi[j] {
                    self.cost[j]
                } else {
                    0.0
                }
            };
            let entering = if stalled > 5 {
                (0..w).find(|&j| gain(j) > EPS)
            } else {
                let mut best = None;
                let mut most = EPS;
                for j in 0..w {
                    let g = gain(j);
                    if g > most {
                        most = g;
                        best = Some(j);
                    }
                }
                best
            };
            let Some(j) = entering else {
                let sum: f64 = (0..m).filter(|&i| self.basis[i] >= n).map(|i| self.xb[i]).sum();
                if sum <= 1e-7 {
                    self.solved = true;
                    return false;
                }
                y.clear();
                y.extend((0..m).map(|i| self.sign[i] * (1.0 - self.cost[n + i])));
                return true;
            };
            let dir = if self.at_hi[j] { -1.0 } else { 1.0 };
            // ratio test: the entering variable's own range, then each basic variable's
            let mut step = upper(j) - lower(j);
            let mut leave: Option<usize> = None;
            for i in 0..m {
                let t = self.tab[i * w + j];
                if t.abs() <= EPS {
                    continue;
                }
                let k = self.basis[i];
                let delta = -dir * t;
                let room = if delta < 0.0 {
                    (self.xb[i] - lower(k)) / -delta
                } else {
                    (upper(k) - self.xb[i]) / delta
                };
                let room = room.max(0.0);
                let tie = leave.is_some_and(|l| room <= step + EPS && k < self.basis[l]);
                if room < step - EPS || tie {
                    step = room;
                    leave = Some(i);
                }
            }
            if step > EPS {
                stalled = 0;
            } else {
                stalled += 1;
            }
            if !step.is_finite() {
                return false; // unbounded: cannot happen in phase 1 (the sum is at least 0)
            }
            for i in 0..m {
                self.xb[i] -= dir * self.tab[i * w + j] * step;
            }
            let Some(r) = leave else {
                self.at_hi[j] = !self.at_hi[j];
                continue;
            };
            self.pivots += 1;
            let entering_value = value_of(&self.at_hi, j) + dir * step;
            let k = self.basis[r];
            let delta = -dir * self.tab[r * w + j];
            self.at_hi[k] = delta > 0.0;
            self.is_basic[k] = false;
            self.is_basic[j] = true;
            self.at_hi[j] = false;
            self.basis[r] = j;
            self.xb[r] = entering_value;
            let p = self.tab[r * w + j];
            for x in &mut self.tab[r * w..(r + 1) * w] {
                *x /= p;
            }
            let (before, rest) = self.tab.split_at_mut(r * w);
            let (pivot_row, after) = rest.split_at_mut(w);
            for row in before.chunks_exact_mut(w).chain(after.chunks_exact_mut(w)) {
                let f = row[j];
                if f != 0.0 {
                    for (x, &q) in row.iter_mut().zip(pivot_row.iter()) {
                        *x -= f * q;
                    }
                }
            }
            let f = self.cost[j];
            for (x, &q) in self.cost.iter_mut().zip(pivot_row.iter()) {
                *x -= f * q;
            }
        }
        false
    }
}

impl Simplex {
    /// The solution found by the last call of [`Simplex::infeasible`] that returned `false`
    /// with the sum of the artificials at zero, written to `x` (`lo`, `hi`: that call's).
    pub(super) fn point(&self, lo: &[f64], hi: &[f64], x: &mut [f64]) {
        for j in 0..lo.len() {
            x[j] = if self.at_hi[j] { hi[j] } else { lo[j] };
        }
        for (i, &k) in self.basis.iter().enumerate() {
            if k < lo.len() {
                x[k] = self.xb[i];
            }
        }
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

    /// Random small systems: an infeasible answer comes with a certificate that holds, and
    /// when the integer box has a point meeting the rows, the answer is "feasible".
    #[test]
    fn certificates_hold_and_feasible_systems_pass() {
        let mut seed = 12345u64;
        let mut next = |k: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
        let mut simplex = Simplex::default();
        let (mut infeasible, mut feasible) = (0, 0);
        for _ in 0..3000 {
            let m = 1 + next(4) as usize;
            let n = 1 + next(5) as usize;
            let a: Vec<f64> = (0..m * n).map(|_| next(2) as f64).collect();
            let lo: Vec<f64> = (0..n).map(|_| 1.0 + next(5) as f64).collect();
            let hi: Vec<f64> = lo.iter().map(|&l| l + next(4) as f64).collect();
            // half the time the rows of a point of the box, moved by at most one
            let point: Vec<f64> = (0..n).map(|j| lo[j] + next(hi[j] as u64 - lo[j] as u64 + 1) as f64).collect();
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
            let mut integer_point = false;
            each_point(&lo, &hi, &mut |x| {
                let meets = (0..m).all(|i| {
                    (0..n).map(|j| a[i * n + j] * x[j]).sum::<f64>() == b[i]
                });
                integer_point |= meets;
            });
            let mut y = Vec::new();
            let mut d = Vec::new();
            if simplex.infeasible(&a, &b, &lo, &hi, 1000, &mut y) {
                assert!(!integer_point, "a solvable system called infeasible");
                let gap = certificate_gap(&a, &b, &lo, &hi, &y, &mut d);
                assert!(gap > 1e-7, "certificate does not hold: gap {gap}");
                infeasible += 1;
            } else {
                feasible += 1;
            }
        }
        assert!(infeasible > 300 && feasible > 300, "{infeasible} / {feasible}");
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
        assert!(Simplex::default().infeasible(&a, &b, &lo, &hi, 100, &mut y));
        assert!(certificate_gap(&a, &b, &lo, &hi, &y, &mut d) > 0.5);
        let hi = [9.0, 9.0, 9.0];
        assert!(!Simplex::default().infeasible(&a, &b, &lo, &hi, 100, &mut y));
    }
}
