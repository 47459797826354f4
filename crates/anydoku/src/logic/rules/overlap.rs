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
        let mut cells: Vec<usize> = Vec::new();
        let mut seen = vec![0u64; b.words];
        for (a, sa) in b.shapes.iter().enumerate() {
            let open = b.open_required(a);
            if open == 0 || !b.shape_changed_since(a, cx.since) {
                continue;
            }
            // a shape's required symbols change only with its sum: without one, a symbol
            // whose places are as they were finds nothing new
            let fixed = sa.sum.is_none();
            for v in bits(open) {
                if fixed && !b.symbol_changed_since(a, v, cx.since) {
                    continue;
                }
                cells.clear();
                cells.extend(
                    sa.cells
                        .iter()
                        .copied()
                        .filter(|&c| b.value[c].is_none() && b.cand[c] & (1 << v) != 0),
                );
                if cells.len() < 2 {
                    continue;
                }
                if let Some(step) = by_shapes(b, a, v, &cells) {
                    return Some(step);
                }
                if let Some(step) = seen_by_all(b, a, v, &cells, &mut seen) {
                    return Some(step);
                }
            }
        }
        None
    }
}

/// Whether cell `c` is in the bitset `set`.
fn has(set: &[u64], c: usize) -> bool {
    set[c / 64] >> (c % 64) & 1 == 1
}

/// The step of a unique shape holding `cells`, the places of `v` in shape `a`.
fn by_shapes(b: &Board, a: usize, v: usize, cells: &[usize]) -> Option<Step> {
    let sa = &b.shapes[a];
    let in_a = b.shape_set(a);
    for &sb in &b.unique_of[cells[0]] {
        let set_b = b.shape_set(sb);
        if sb == a || !cells.iter().all(|&c| has(set_b, c)) {
            continue;
        }
        let shape_b = &b.shapes[sb];
        let elim: Vec<(usize, u8)> = shape_b
            .cells
            .iter()
            .copied()
            .filter(|&c| b.value[c].is_none() && b.cand[c] & (1 << v) != 0 && !has(in_a, c))
            .map(|c| (c, v as u8))
            .collect();
        if elim.is_empty() {
            continue;
        }
        return Some(Step {
            rule: "Overlap".into(),
            family: Family::Overlap,
            size: 2,
            weight: weight(b, a),
            shapes: vec![a, sb],
            reason: format!(
                "in {}, {} can only go in {}, all inside {}",
                sa.name,
                b.sym(v),
                b.cells_text(cells),
                shape_b.name
            ),
            cells: cells.to_vec(),
            placements: vec![],
            eliminations: elim,
        });
    }
    None
}

/// A step from shape `a`: heavier when `a` is a sum shape.
fn weight(b: &Board, a: usize) -> f64 {
    if b.shapes[a].sum.is_some() {
        rate::OVERLAP_FROM_SUM
    } else {
        rate::OVERLAP
    }
}

/// The step of the cells outside shape `a` that see all of `cells`, the places of `v` in `a`
/// (`seen`: scratch of [`Board::words`] words).
fn seen_by_all(
    b: &Board,
    a: usize,
    v: usize,
    cells: &[usize],
    seen: &mut [u64],
) -> Option<Step> {
    seen.copy_from_slice(b.peer_set(cells[0]));
    for (w, x) in b.shape_set(a).iter().enumerate() {
        seen[w] &= !x;
    }
    for &c in &cells[1..] {
        let mut any = 0;
        for (w, x) in b.peer_set(c).iter().enumerate() {
            seen[w] &= x;
            any |= seen[w];
        }
        if any == 0 {
            return None;
        }
    }
    let mut seeing = Vec::new();
    for (w, &word) in seen.iter().enumerate() {
        for i in bits(word) {
            let d = w * 64 + i;
            if b.value[d].is_none() && b.cand[d] & (1 << v) != 0 {
                seeing.push(d);
            }
        }
    }
    if seeing.is_empty() {
        return None;
    }
    let sa = &b.shapes[a];
    Some(Step {
        rule: "Overlap".into(),
        family: Family::Overlap,
        size: 2,
        weight: weight(b, a),
        shapes: vec![a],
        reason: format!(
            "in {}, {} can only go in {}, which {} all see{}",
            sa.name,
            b.sym(v),
            b.cells_text(cells),
            b.cells_text(&seeing),
            if seeing.len() == 1 { "s" } else { "" }
        ),
        cells: cells.to_vec(),
        placements: vec![],
        eliminations: seeing.iter().map(|&d| (d, v as u8)).collect(),
    })
}
