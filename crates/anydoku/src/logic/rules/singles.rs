//! Naked single (a cell with one candidate) and hidden single (a required symbol with one place
//! left in a shape).

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// A cell with one candidate left takes it.
pub struct NakedSingle;

impl LogicRule for NakedSingle {
    fn name(&self) -> &str {
        "Naked single"
    }
    fn family(&self) -> Family {
        Family::Singles
    }
    fn min_weight(&self) -> f64 {
        rate::NAKED_SINGLE
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let c = (0..b.cell_count()).find(|&c| {
            b.value[c].is_none() && b.cand[c].count_ones() == 1 && b.changed_since(c, cx.since)
        })?;
        let v = b.cand[c].trailing_zeros() as u8;
        Some(Step {
            rule: self.name().into(),
            family: Family::Singles,
            size: 1,
            weight: rate::NAKED_SINGLE,
            shapes: vec![],
            cells: vec![c],
            placements: vec![(c, v)],
            eliminations: vec![],
            reason: format!("{} can only be {}", b.cell(c), b.sym(v as usize)),
        })
    }
}

/// A symbol a shape must hold, with one possible cell left there, goes in that cell.
pub struct HiddenSingle;

impl LogicRule for HiddenSingle {
    fn name(&self) -> &str {
        "Hidden single"
    }
    fn family(&self) -> Family {
        Family::Singles
    }
    fn min_weight(&self) -> f64 {
        rate::HIDDEN_SINGLE
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        for &i in b.requiring() {
            let (s, open) = (&b.shapes[i], b.open_required(i));
            if open == 0 || !b.shape_changed_since(i, cx.since) {
                continue;
            }
            for v in bits(open) {
                let cells = b.with_candidate(&s.cells, v);
                if cells.len() == 1 {
                    return Some(Step {
                        rule: self.name().into(),
                        family: Family::Singles,
                        size: 1,
                        weight: rate::HIDDEN_SINGLE,
                        shapes: vec![i],
                        cells: cells.clone(),
                        placements: vec![(cells[0], v as u8)],
                        eliminations: vec![],
                        reason: if s.complete {
                            format!("{} in {}", b.sym(v), s.name)
                        } else {
                            format!(
                                "{} in {} (every combination left there has {})",
                                b.sym(v),
                                s.name,
                                b.sym(v)
                            )
                        },
                    });
                }
            }
        }
        None
    }
}
