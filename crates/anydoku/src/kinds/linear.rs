//! A propagator for a linear equation over the values of cells: `Σ coef[i] · value(cell[i])
//! = 0` (an arrow: the circle's number minus the arrow's cells).
//!
//! Bounds consistency: each pass sums the smallest and largest terms of every cell, then keeps
//! the symbols of each cell whose term still fits between what the others can make up. On a
//! full assignment the bounds meet, so a wrong total is a contradiction.

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
}

impl Linear {
    /// `Σ coefs[i] · value(cells[i]) = 0`.
    pub(crate) fn new(flat: &Flat, cells: &[CellId], coefs: &[i64]) -> Self {
        Linear {
            cells: cells.iter().map(|c| c.0).collect(),
            coefs: coefs.into(),
            values: flat.values().into(),
        }
    }

    /// The smallest and largest term `coef · value` over the symbols of `m`.
    #[inline]
    fn range(&self, coef: i64, mut m: Mask) -> (i64, i64) {
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        while m != 0 {
            let t = coef.saturating_mul(self.values[m.trailing_zeros() as usize]);
            (lo, hi) = (lo.min(t), hi.max(t));
            m &= m - 1;
        }
        (lo, hi)
    }
}

impl Propagator for Linear {
    fn propagate(&self, c: &mut Cands) -> bool {
        let (mut lo, mut hi) = (0i64, 0i64);
        for (&cell, &coef) in self.cells.iter().zip(self.coefs.iter()) {
            let (a, b) = self.range(coef, c.get(cell));
            lo = lo.saturating_add(a);
            hi = hi.saturating_add(b);
        }
        if lo > 0 || hi < 0 {
            return false;
        }
        for (&cell, &coef) in self.cells.iter().zip(self.coefs.iter()) {
            let m = c.get(cell);
            let (a, b) = self.range(coef, m);
            // the others make up between `lo - a` and `hi - b`; this term must cancel that
            let (rest_lo, rest_hi) = (lo.saturating_sub(a), hi.saturating_sub(b));
            let mut keep: Mask = 0;
            let mut bits = m;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                let t = coef.saturating_mul(self.values[s]);
                if t.saturating_add(rest_lo) <= 0 && t.saturating_add(rest_hi) >= 0 {
                    keep |= 1 << s;
                }
                bits &= bits - 1;
            }
            if !c.keep(cell, keep) {
                return false;
            }
        }
        true
    }
}
