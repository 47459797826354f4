//! Overlap (pointing / claiming between any two shapes): if every candidate cell of a required
//! symbol of shape A lies inside a unique shape B, the symbol leaves B's other cells. Box/line
//! interactions, Samurai overlaps, diagonals, jigsaw regions and cages are all this one rule.
//!
//! When no one shape holds them, the symbol still leaves every cell outside A that sees all of
//! them ([`Board::peers`]: through different shapes, a cage, an anti-knight pair, ...). On a
//! plain Sudoku the cells seeing two or more cells of a shape all lie in one other shape, so
//! this only adds eliminations where peers come from more than rows, columns and boxes.

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Pointing / claiming for any pair of shapes.
pub struct Overlap;

impl LogicRule for Overlap {
    fn name(&self) -> &str {
        "Overlap"
    }
    fn family(&self) -> Family {
        Family::Overlap
    }
    fn min_weight(&self) -> f64 {
        rate::OVERLAP
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        for (a, sa) in b.shapes.iter().enumerate() {
            let open = b.open_required(a);
            if open == 0 || !b.shape_changed_since(a, cx.since) {
                continue;
            }
            for v in bits(open) {
                let cells = b.with_candidate(&sa.cells, v);
                if cells.len() < 2 {
                    continue;
                }
                if let Some(step) = self.by_shapes(b, a, v, &cells) {
                    return Some(step);
                }
                if let Some(step) = seen_by_all(b, a, v, cells) {
                    return Some(step);
                }
            }
        }
        None
    }
}

impl Overlap {
    /// The step of a unique shape holding `cells`, the places of `v` in shape `a`.
    fn by_shapes(&self, b: &Board, a: usize, v: usize, cells: &[usize]) -> Option<Step> {
        let sa = &b.shapes[a];
        for &sb in &b.unique_of[cells[0]] {
            if sb == a {
                continue;
            }
            let shape_b = &b.shapes[sb];
            if !cells.iter().all(|c| shape_b.cells.contains(c)) {
                continue;
            }
            let elim: Vec<(usize, u8)> = b
                .with_candidate(&shape_b.cells, v)
                .into_iter()
                .filter(|c| !sa.cells.contains(c))
                .map(|c| (c, v as u8))
                .collect();
            if elim.is_empty() {
                continue;
            }
            return Some(Step {
                rule: self.name().into(),
                family: Family::Overlap,
                size: 2,
                weight: if sa.sum.is_some() {
                    rate::OVERLAP_FROM_SUM
                } else {
                    rate::OVERLAP
                },
                shapes: vec![a, sb],
                reason: format!(
                    "in {}, {} can only go in {}, all inside {}",
                    sa.name,
                    b.sym(v),
                    b.cells_text(&cells),
                    shape_b.name
                ),
                cells: cells.to_vec(),
                placements: vec![],
                eliminations: elim,
            });
        }
        None
    }
}

/// The step of the cells outside shape `a` that see all of `cells`, the places of `v` in `a`.
fn seen_by_all(b: &Board, a: usize, v: usize, cells: Vec<usize>) -> Option<Step> {
    let sa = &b.shapes[a];
    let mut common: Vec<u32> = b.peers[cells[0]]
        .iter()
        .copied()
        .filter(|&d| {
            let d = d as usize;
            b.value[d].is_none() && b.cand[d] & (1 << v) != 0 && !sa.cells.contains(&d)
        })
        .collect();
    for &c in &cells[1..] {
        if common.is_empty() {
            return None;
        }
        common.retain(|d| b.peers[c].binary_search(d).is_ok());
    }
    if common.is_empty() {
        return None;
    }
    let elim: Vec<(usize, u8)> = common.iter().map(|&d| (d as usize, v as u8)).collect();
    let seeing: Vec<usize> = common.iter().map(|&d| d as usize).collect();
    Some(Step {
        rule: "Overlap".into(),
        family: Family::Overlap,
        size: 2,
        weight: if sa.sum.is_some() {
            rate::OVERLAP_FROM_SUM
        } else {
            rate::OVERLAP
        },
        shapes: vec![a],
        reason: format!(
            "in {}, {} can only go in {}, which {} all see{}",
            sa.name,
            b.sym(v),
            b.cells_text(&cells),
            b.cells_text(&seeing),
            if seeing.len() == 1 { "s" } else { "" }
        ),
        cells,
        placements: vec![],
        eliminations: elim,
    })
}
