//! Unique rectangle (type 1), geometry-free. It assumes the puzzle has exactly one solution.
//!
//! Four empty cells a, b, c, d with a–b, a–c, b–d and c–d each sharing a unique shape form a
//! *deadly pattern* for symbols {x, y} when every shape meets the four cells in nothing or in one
//! of those four pairs: then x and y could be swapped in a solution that used them there, giving a
//! second solution. So when a, b, c hold only {x, y}, the fourth cell d is neither x nor y.
//! Rows, columns and boxes give the classic rectangle spanning two boxes; any layout works.

use super::{LogicRule, Step};
use crate::logic::board::Board;
use crate::logic::Family;

/// Unique rectangle type 1.
pub struct UniqueRectangle;

/// Whether every shape meets {a, b, c, d} in nothing or in one of the pairs ab, cd, ac, bd.
fn deadly(b: &Board, cells: [usize; 4]) -> bool {
    let [a, bb, c, d] = cells;
    let pairs = [(a, bb), (c, d), (a, c), (bb, d)];
    let mut shapes: Vec<usize> = cells
        .iter()
        .flat_map(|&x| b.shapes_of[x].iter().copied())
        .collect();
    shapes.sort_unstable();
    shapes.dedup();
    shapes.iter().all(|&s| {
        let inside: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|x| b.shapes[s].cells.contains(x))
            .collect();
        inside.len() == 2
            && pairs.iter().any(|&(p, q)| {
                (inside[0] == p && inside[1] == q) || (inside[0] == q && inside[1] == p)
            })
    })
}

impl LogicRule for UniqueRectangle {
    fn name(&self) -> &str {
        "Unique rectangle"
    }
    fn family(&self) -> Family {
        Family::Uniqueness
    }
    fn min_weight(&self) -> f64 {
        4.5
    }
    fn find(&self, b: &Board) -> Option<Step> {
        let bivalue = |c: usize| b.value[c].is_none() && b.cand[c].count_ones() == 2;
        for a in 0..b.cell_count() {
            if !bivalue(a) {
                continue;
            }
            let xy = b.cand[a];
            let same: Vec<usize> = b.peers[a]
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| bivalue(p) && b.cand[p] == xy)
                .collect();
            for (i, &p) in same.iter().enumerate() {
                for &q in &same[i + 1..] {
                    if b.sees(p, q) {
                        continue;
                    }
                    for &d in &b.peers[p] {
                        let d = d as usize;
                        if d == a
                            || b.value[d].is_some()
                            || b.cand[d] & xy != xy
                            || b.cand[d] == xy
                            || !b.sees(d, q)
                            || b.sees(d, a)
                            || !deadly(b, [a, p, q, d])
                        {
                            continue;
                        }
                        let elim = crate::logic::board::bits(xy)
                            .map(|v| (d, v as u8))
                            .collect();
                        return Some(Step {
                            rule: self.name().into(),
                            family: Family::Uniqueness,
                            size: 4,
                            weight: 4.5,
                            shapes: vec![],
                            cells: vec![a, p, q, d],
                            placements: vec![],
                            eliminations: elim,
                            reason: format!(
                                "{}, {}, {} hold only {}; if {} were one of them too, the two symbols could be swapped in all four cells, giving a second solution",
                                b.cell(a),
                                b.cell(p),
                                b.cell(q),
                                b.mask_text(xy),
                                b.cell(d)
                            ),
                        });
                    }
                }
            }
        }
        None
    }
}
