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
            let in_a = b.shape_set(a);
            for v in bits(open) {
                let has = |c: usize| b.value[c].is_none() && b.cand[c] & (1 << v) != 0;
                // the first place of v in A, and whether there is another, without listing them
                let mut places = sa.cells.iter().copied().filter(|&c| has(c));
                let (Some(first), Some(_)) = (places.next(), places.next()) else {
                    continue;
                };
                for &sb in &b.unique_of[first] {
                    if sb == a {
                        continue;
                    }
                    let shape_b = &b.shapes[sb];
                    let in_b = b.shape_set(sb);
                    if !sa.cells.iter().all(|&c| !has(c) || member(in_b, c)) {
                        continue;
                    }
                    if !shape_b.cells.iter().any(|&c| has(c) && !member(in_a, c)) {
                        continue;
                    }
                    let cells = b.with_candidate(&sa.cells, v);
                    let elim: Vec<(usize, u8)> = b
                        .with_candidate(&shape_b.cells, v)
                        .into_iter()
                        .filter(|c| !sa.cells.contains(c))
                        .map(|c| (c, v as u8))
                        .collect();
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

/// Whether cell `c` is in a set of cells.
fn member(set: &[u64], c: usize) -> bool {
    set[c / 64] >> (c % 64) & 1 == 1
}
