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
        // scratch: two sets of cells, on the stack when they fit (nets call this very often)
        let mut small = [0u64; 32];
        let mut large = Vec::new();
        let both = if 2 * b.words <= small.len() {
            &mut small[..2 * b.words]
        } else {
            large.resize(2 * b.words, 0u64);
            &mut large[..]
        };
        let (places, seen) = both.split_at_mut(b.words);
        for &a in b.requiring() {
            let (sa, open) = (&b.shapes[a], b.open_required(a));
            let since = cx.since_at(a);
            if open == 0 || !b.shape_changed_since(a, since) {
                continue;
            }
            // a shape's required symbols change only with its sum: without one, a symbol
            // whose places are as they were finds nothing new
            let fixed = sa.sum.is_none();
            for v in bits(open) {
                if fixed && !b.symbol_changed_since(a, v, since) {
                    continue;
                }
                // the places of v in a, as a bitset
                let mut count = 0;
                for ((p, x), h) in places.iter_mut().zip(b.shape_set(a)).zip(b.holds(v)) {
                    *p = x & h;
                    count += p.count_ones();
                }
                if count < 2 {
                    continue;
                }
                let step = by_shapes(b, a, v, places, cx.terse)
                    .or_else(|| seen_by_all(b, a, v, (places, seen), cx.terse));
                if step.is_some() {
                    cx.found_at = a;
                    return step;
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

/// The places of `v` in shape `a` (a bitset), as a list in the shape's order.
fn cells_of(b: &Board, a: usize, places: &[u64]) -> Vec<usize> {
    b.shapes[a]
        .cells
        .iter()
        .copied()
        .filter(|&c| has(places, c))
        .collect()
}

/// The step of a unique shape holding `places`, the places of `v` in shape `a` (a bitset);
/// `terse`: without a reason.
fn by_shapes(b: &Board, a: usize, v: usize, places: &[u64], terse: bool) -> Option<Step> {
    let sa = &b.shapes[a];
    let in_a = b.shape_set(a);
    let first = *sa.cells.iter().find(|&&c| has(places, c))?;
    for &sb in &b.unique_of[first] {
        let set_b = b.shape_set(sb);
        if sb == a || places.iter().zip(set_b).any(|(p, x)| p & !x != 0) {
            continue;
        }
        // v left in sb outside a
        let outside = set_b
            .iter()
            .zip(b.holds(v))
            .zip(in_a)
            .any(|((x, h), i)| x & h & !i != 0);
        if !outside {
            continue;
        }
        let cells = cells_of(b, a, places);
        let shape_b = &b.shapes[sb];
        let elim: Vec<(usize, u8)> = shape_b
            .cells
            .iter()
            .copied()
            .filter(|&c| b.value[c].is_none() && b.cand[c] & (1 << v) != 0 && !has(in_a, c))
            .map(|c| (c, v as u8))
            .collect();
        return Some(Step {
            rule: "Overlap".into(),
            family: Family::Overlap,
            size: 2,
            weight: weight(b, a),
            shapes: vec![a, sb],
            reason: if terse {
                String::new()
            } else {
                format!(
                    "in {}, {} can only go in {}, all inside {}",
                    sa.name,
                    b.sym(v),
                    b.cells_text(&cells),
                    shape_b.name
                )
            },
            cells,
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

/// The step of the cells outside shape `a` that see all of `places`, the places of `v` in `a`
/// (a bitset; `seen`: scratch of [`Board::words`] words); `terse`: without a reason.
fn seen_by_all(
    b: &Board,
    a: usize,
    v: usize,
    (places, seen): (&[u64], &mut [u64]),
    terse: bool,
) -> Option<Step> {
    // the empty cells outside a holding v, then only those seeing each place
    for ((s, x), h) in seen.iter_mut().zip(b.shape_set(a)).zip(b.holds(v)) {
        *s = h & !x;
    }
    for (w, &word) in places.iter().enumerate() {
        for i in bits(word) {
            let mut any = 0;
            for (s, x) in seen.iter_mut().zip(b.peer_set(w * 64 + i)) {
                *s &= x;
                any |= *s;
            }
            if any == 0 {
                return None;
            }
        }
    }
    let mut seeing = Vec::new();
    for (w, &word) in seen.iter().enumerate() {
        seeing.extend(bits(word).map(|i| w * 64 + i));
    }
    let cells = cells_of(b, a, places);
    let sa = &b.shapes[a];
    Some(Step {
        rule: "Overlap".into(),
        family: Family::Overlap,
        size: 2,
        weight: weight(b, a),
        shapes: vec![a],
        reason: if terse {
            String::new()
        } else {
            format!(
                "in {}, {} can only go in {}, which {} all see{}",
                sa.name,
                b.sym(v),
                b.cells_text(&cells),
                b.cells_text(&seeing),
                if seeing.len() == 1 { "s" } else { "" }
            )
        },
        cells,
        placements: vec![],
        eliminations: seeing.iter().map(|&d| (d, v as u8)).collect(),
    })
}
