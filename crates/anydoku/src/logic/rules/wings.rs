//! XY-Wing and XYZ-Wing: a pivot cell and two bivalue peer *wings* sharing a symbol z.
//!
//! * XY-Wing: pivot {x, y}, wings {x, z} and {y, z}. Whatever the pivot holds, one wing is z,
//!   so z leaves every cell that sees both wings.
//! * XYZ-Wing: pivot {x, y, z}, wings {x, z} and {y, z}. One of the three cells is z, so z
//!   leaves every cell that sees all three.
//!
//! "Sees" is sharing a unique shape, so the wings work on any layout.

use super::{LogicRule, Step};
use crate::logic::board::{Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// The XY-Wing (`Wing(2)`) or the XYZ-Wing (`Wing(3)`).
pub struct Wing(pub u32);

impl LogicRule for Wing {
    fn name(&self) -> &str {
        if self.0 == 2 {
            "XY-Wing"
        } else {
            "XYZ-Wing"
        }
    }
    fn family(&self) -> Family {
        Family::Chains
    }
    fn min_weight(&self) -> f64 {
        if self.0 == 2 {
            rate::XY_WING
        } else {
            rate::XYZ_WING
        }
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        for p in 0..b.cell_count() {
            let pm = b.cand[p];
            if b.value[p].is_some() || pm.count_ones() != self.0 {
                continue;
            }
            let xy = self.0 == 2;
            let wings: Vec<usize> = b.peers[p]
                .iter()
                .map(|&w| w as usize)
                .filter(|&w| {
                    let m = b.cand[w];
                    b.value[w].is_none()
                        && m.count_ones() == 2
                        && if xy {
                            (m & pm).count_ones() == 1
                        } else {
                            m & !pm == 0
                        }
                })
                .collect();
            for (i, &w1) in wings.iter().enumerate() {
                for &w2 in &wings[i + 1..] {
                    if let Some(step) = self.at(b, cx, p, w1, w2) {
                        return Some(step);
                    }
                }
            }
        }
        None
    }
}

impl Wing {
    /// The wing with pivot `p` and wings `w1`, `w2`, if it removes anything.
    fn at(&self, b: &Board, cx: &Cx, p: usize, w1: usize, w2: usize) -> Option<Step> {
        let (pm, m1, m2) = (b.cand[p], b.cand[w1], b.cand[w2]);
        let zm: Mask = m1 & m2;
        if m1 == m2 || zm.count_ones() != 1 {
            return None;
        }
        if self.0 == 2 && (zm & pm != 0 || (m1 | m2) & pm != pm) {
            return None;
        }
        if ![p, w1, w2].iter().any(|&c| b.changed_since(c, cx.since)) {
            return None;
        }
        let z = zm.trailing_zeros() as usize;
        let elim: Vec<(usize, u8)> = b.peers[w1]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| {
                c != p
                    && c != w2
                    && b.value[c].is_none()
                    && b.cand[c] & zm != 0
                    && b.sees(c, w2)
                    && (self.0 == 2 || b.sees(c, p))
            })
            .map(|c| (c, z as u8))
            .collect();
        if elim.is_empty() {
            return None;
        }
        let who = if self.0 == 2 {
            "one of the wings"
        } else {
            "one of the three"
        };
        Some(Step {
            rule: self.name().into(),
            family: Family::Chains,
            size: 3,
            weight: self.min_weight(),
            shapes: vec![],
            cells: vec![p, w1, w2],
            placements: vec![],
            eliminations: elim,
            reason: format!(
                "{} holds {} and sees {} ({}) and {} ({}), so {who} is {}",
                b.cell(p),
                b.mask_text(pm),
                b.cell(w1),
                b.mask_text(m1),
                b.cell(w2),
                b.mask_text(m2),
                b.sym(z)
            ),
        })
    }
}
