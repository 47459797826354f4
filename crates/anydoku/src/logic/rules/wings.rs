//! XYZ-Wing: a pivot cell with candidates {x, y, z} and two peer wings {x, z} and {y, z}. Whatever
//! the pivot holds, one of the three cells is z, so z leaves every cell that sees all three.
//! (The XY-Wing is the three-cell XY-chain of [`super::chains`].)

use super::{LogicRule, Step};
use crate::logic::board::Board;
use crate::logic::Family;

/// The XYZ-Wing.
pub struct XyzWing;

impl LogicRule for XyzWing {
    fn name(&self) -> &str {
        "XYZ-Wing"
    }
    fn family(&self) -> Family {
        Family::Chains
    }
    fn min_weight(&self) -> f64 {
        4.4
    }
    fn find(&self, b: &Board) -> Option<Step> {
        for p in 0..b.cell_count() {
            let pm = b.cand[p];
            if b.value[p].is_some() || pm.count_ones() != 3 {
                continue;
            }
            let wings: Vec<usize> = b.peers[p]
                .iter()
                .map(|&w| w as usize)
                .filter(|&w| {
                    b.value[w].is_none() && b.cand[w].count_ones() == 2 && b.cand[w] & !pm == 0
                })
                .collect();
            for (i, &w1) in wings.iter().enumerate() {
                for &w2 in &wings[i + 1..] {
                    let (m1, m2) = (b.cand[w1], b.cand[w2]);
                    let zm = m1 & m2;
                    if m1 == m2 || zm.count_ones() != 1 {
                        continue;
                    }
                    let z = zm.trailing_zeros() as usize;
                    let elim: Vec<(usize, u8)> = b.peers[p]
                        .iter()
                        .map(|&c| c as usize)
                        .filter(|&c| {
                            c != w1
                                && c != w2
                                && b.value[c].is_none()
                                && b.cand[c] & zm != 0
                                && b.sees(c, w1)
                                && b.sees(c, w2)
                        })
                        .map(|c| (c, z as u8))
                        .collect();
                    if elim.is_empty() {
                        continue;
                    }
                    return Some(Step {
                        rule: self.name().into(),
                        family: Family::Chains,
                        size: 3,
                        weight: 4.4,
                        shapes: vec![],
                        cells: vec![p, w1, w2],
                        placements: vec![],
                        eliminations: elim,
                        reason: format!(
                            "{} holds {} and sees {} ({}) and {} ({}), so one of the three is {}",
                            b.cell(p),
                            b.mask_text(pm),
                            b.cell(w1),
                            b.mask_text(m1),
                            b.cell(w2),
                            b.mask_text(m2),
                            b.sym(z)
                        ),
                    });
                }
            }
        }
        None
    }
}
