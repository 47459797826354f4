//! A propagator for a linear equation over the values of cells: `Σ coef[i] · value(cell[i])
//! = 0` (an arrow: the circle's number minus the arrow's cells).
//!
//! Bounds consistency: each pass sums the smallest and largest terms of every cell, then keeps
//! the symbols of each cell whose term still fits between what the others can make up. On a
//! full assignment the bounds meet, so a wrong total is a contradiction.
//!
//! When the symbols' values rise with their index (the usual 1..N), a mask's smallest and
//! largest value are those of its lowest and highest symbol, and the symbols a cell keeps are
//! a run of indices found by two binary searches, so a pass costs a few operations per cell
//! whatever the candidates; other values are read symbol by symbol. A pass that cannot remove
//! anything (no cell's term spans more than the slack on either side) stops after the sums.

use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::CellId;

/// See the module docs.
#[derive(Debug)]
pub(crate) struct Linear {
    cells: Box<[u32]>,
    coefs: Box<[i64]>,
    values: Box<[i64]>,
    /// Whether the values strictly rise with the symbol index.
    rising: bool,
}

/// `a / b` rounded down (`b != 0`).
fn div_floor(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `a / b` rounded up (`b != 0`).
fn div_ceil(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

impl Linear {
    /// `Σ coefs[i] · value(cells[i]) = 0`.
    pub(crate) fn new(flat: &Flat, cells: &[CellId], coefs: &[i64]) -> Self {
        let values: Box<[i64]> = flat.values().into();
        Linear {
            cells: cells.iter().map(|c| c.0).collect(),
            coefs: coefs.into(),
            rising: values.windows(2).all(|w| w[0] < w[1]),
            values,
        }
    }

    /// The smallest and largest term `coef · value` over the symbols of `m`.
    #[inline]
    fn range(&self, coef: i64, mut m: Mask) -> (i64, i64) {
        if self.rising && m != 0 {
            let low = self.values[m.trailing_zeros() as usize];
            let high = self.values[(Mask::BITS - 1 - m.leading_zeros()) as usize];
            let (a, b) = (coef.saturating_mul(low), coef.saturating_mul(high));
            return if coef >= 0 { (a, b) } else { (b, a) };
        }
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        while m != 0 {
            let t = coef.saturating_mul(self.values[m.trailing_zeros() as usize]);
            (lo, hi) = (lo.min(t), hi.max(t));
            m &= m - 1;
        }
        (lo, hi)
    }
}

impl Linear {
    /// The symbols of `m` whose term `coef · value` lies in `from..=to`.
    #[inline]
    fn terms_within(&self, coef: i64, m: Mask, from: i64, to: i64) -> Mask {
        if self.rising && coef != 0 {
            // the values v with from <= coef · v <= to, then the symbols holding them
            let (v_lo, v_hi) = if coef > 0 {
                (div_ceil(from, coef), div_floor(to, coef))
            } else {
                (div_ceil(to, coef), div_floor(from, coef))
            };
            let i0 = self.values.partition_point(|&v| v < v_lo);
            let i1 = self.values.partition_point(|&v| v <= v_hi);
            if i0 >= i1 {
                return 0;
            }
            let below = |i: usize| if i >= 64 { !0 } else { ((1 as Mask) << i) - 1 };
            return m & below(i1) & !below(i0);
        }
        let mut keep: Mask = 0;
        let mut bits = m;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            let t = coef.saturating_mul(self.values[s]);
            if from <= t && t <= to {
                keep |= 1 << s;
            }
            bits &= bits - 1;
        }
        keep
    }
}

impl Propagator for Linear {
    fn propagate(&self, c: &mut Cands) -> bool {
        let (mut lo, mut hi, mut span) = (0i64, 0i64, 0i64);
        for (&cell, &coef) in self.cells.iter().zip(self.coefs.iter()) {
            let (a, b) = self.range(coef, c.get(cell));
            lo = lo.saturating_add(a);
            hi = hi.saturating_add(b);
            span = span.max(b.saturating_sub(a));
        }
        if lo > 0 || hi < 0 {
            return false;
        }
        // a cell loses a symbol only when its term spans more than -lo or hi
        if span <= hi.min(lo.saturating_neg()) {
            return true;
        }
        for (&cell, &coef) in self.cells.iter().zip(self.coefs.iter()) {
            let m = c.get(cell);
            let (a, b) = self.range(coef, m);
            // the others make up between `lo - a` and `hi - b`; this term must cancel that
            let (rest_lo, rest_hi) = (lo.saturating_sub(a), hi.saturating_sub(b));
            let keep =
                self.terms_within(coef, m, rest_hi.saturating_neg(), rest_lo.saturating_neg());
            if !c.keep(cell, keep) {
                return false;
            }
        }
        true
    }
}
