//! Sum shapes in the engine: bounds filtering.
//!
//! For each sum shape, every candidate `v` of a cell must leave the other cells able to reach the
//! total: `total - v` must lie between the other cells' smallest and largest possible values
//! (for a unique shape, the k smallest/largest distinct values still possible). Complete checks at
//! full assignment fall out of the same test.

use super::{Engine, Mask, SumShape};

/// Filters every sum shape once. `None` on contradiction, `Some(changed)` otherwise.
pub fn filter_all(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let mut changed = false;
    for s in &e.sums {
        changed |= filter(e, s, cand, queue)?;
    }
    Some(changed)
}

#[inline]
fn min_max(values: &[i64], mut m: Mask) -> (i64, i64) {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    while m != 0 {
        let v = values[m.trailing_zeros() as usize];
        lo = lo.min(v);
        hi = hi.max(v);
        m &= m - 1;
    }
    (lo, hi)
}

fn filter(e: &Engine, s: &SumShape, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let mut lo_total = 0i64;
    let mut hi_total = 0i64;
    for &c in &s.cells {
        let m = cand[c as usize];
        if m == 0 {
            return None;
        }
        let (lo, hi) = min_max(&e.values, m);
        lo_total += lo;
        hi_total += hi;
    }
    if s.total < lo_total || s.total > hi_total {
        return None;
    }
    let mut changed = false;
    for &c in &s.cells {
        let m = cand[c as usize];
        if m & (m - 1) == 0 {
            continue;
        }
        let (lo, hi) = min_max(&e.values, m);
        // others can make between lo_total - lo and hi_total - hi
        let (others_lo, others_hi) = (lo_total - lo, hi_total - hi);
        let mut keep = 0;
        let mut bits = m;
        while bits != 0 {
            let b = bits.trailing_zeros();
            let v = e.values[b as usize];
            if v + others_lo <= s.total && v + others_hi >= s.total {
                keep |= 1 << b;
            }
            bits &= bits - 1;
        }
        if keep != m {
            if keep == 0 {
                return None;
            }
            cand[c as usize] = keep;
            changed = true;
            if keep & (keep - 1) == 0 {
                queue.push(c);
            }
        }
    }
    Some(changed)
}
