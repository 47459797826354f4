//! Overlap (pointing / claiming between any two shapes): if every candidate cell of a required
//! symbol of shape A lies inside a unique shape B, the symbol leaves B's other cells. Box/line
//! interactions, Samurai overlaps, diagonals, jigsaw regions and cages are all this one rule.

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
                        cells,
                        placements: vec![],
                        eliminations: elim,
                    });
                }
            }
        }
        None
    }
}
