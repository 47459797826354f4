//! Hidden cage combinations: a symbol that a unique shape still needs and can only place in
//! cells of one sum shape must be in that sum shape, so the sum shape keeps only the
//! combinations that hold it ("this row's 2 can only go in this cage, so the cage is 2+6+9").
//!
//! Geometry-free: any unique shape with required symbols (a complete shape, or a unique cage
//! whose every combination holds the symbol) makes the demand, on any unique sum shape (a
//! cage or a derived innie/outie). To make demands from other facts (a symbol that two sum
//! shapes together must hold), add them to `demands`; the combination filter stays as it is.

use super::cages::unique_combinations;
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Hidden cage combinations.
pub struct HiddenCageCombinations;

impl LogicRule for HiddenCageCombinations {
    fn name(&self) -> &str {
        "Hidden cage combination"
    }
    fn family(&self) -> Family {
        Family::Cages
    }
    fn min_weight(&self) -> f64 {
        rate::hidden_cage(1)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let mut best: Option<Step> = None;
        for (i, s) in b.shapes.iter().enumerate() {
            let Some(total) = s.sum else { continue };
            if !s.unique {
                continue;
            }
            let free = s.cells.iter().filter(|&&c| b.value[c].is_none()).count();
            let weight = rate::hidden_cage(free);
            if free < 2 || best.as_ref().is_some_and(|x| x.weight <= weight) || !cx.wants(weight) {
                continue;
            }
            let (must, from) = demands(b, i);
            if must == 0 {
                continue;
            }
            if let Some(step) = demand_step(b, i, total, must, &from, weight) {
                best = Some(step);
            }
        }
        best
    }
}

/// The symbols sum shape `i` must hold because some unique shape can place them only in its
/// cells (and not there yet), with the shapes that say so.
fn demands(b: &Board, i: usize) -> (Mask, Vec<usize>) {
    let inside = |c: usize| b.shape_set(i)[c / 64] >> (c % 64) & 1 == 1;
    let mut must: Mask = 0;
    let mut from = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for &c in &b.shapes[i].cells {
        for &h in b.unique_of[c].iter() {
            if h == i || seen.contains(&h) {
                continue;
            }
            seen.push(h);
            let mut found = false;
            for v in bits(b.open_required(h) & !must) {
                let mut places = b.shapes[h]
                    .cells
                    .iter()
                    .filter(|&&d| b.value[d].is_none() && b.cand[d] >> v & 1 == 1)
                    .peekable();
                if places.peek().is_some() && places.all(|&d| inside(d)) {
                    must |= 1 << v;
                    found = true;
                }
            }
            if found {
                from.push(h);
            }
        }
    }
    (must, from)
}

/// The step of sum shape `i` when it must hold the symbols `must`, if that removes anything.
fn demand_step(
    b: &Board,
    i: usize,
    total: i64,
    must: Mask,
    from: &[usize],
    weight: f64,
) -> Option<Step> {
    let s = &b.shapes[i];
    let cands: Vec<Mask> = s.cells.iter().map(|&c| b.cand[c]).collect();
    let combos: Vec<(Mask, Vec<Mask>)> = unique_combinations(&b.values, &cands, total)
        .into_iter()
        .filter(|(set, _)| set & must == must)
        .collect();
    // no combination left: the board is broken, which other rules will say
    if combos.is_empty() {
        return None;
    }
    let mut support = vec![0; cands.len()];
    for (_, sup) in &combos {
        for (d, m) in sup.iter().enumerate() {
            support[d] |= m;
        }
    }
    let mut elim = Vec::new();
    for (d, &c) in s.cells.iter().enumerate() {
        if b.value[c].is_none() {
            for v in bits(b.cand[c] & !support[d]) {
                elim.push((c, v as u8));
            }
        }
    }
    if elim.is_empty() {
        return None;
    }
    let names: Vec<&str> = from.iter().map(|&h| b.shapes[h].name.as_str()).collect();
    let written: Vec<String> = combos
        .iter()
        .take(4)
        .map(|(set, _)| bits(*set).map(|v| b.sym(v)).collect::<Vec<_>>().join("+"))
        .collect();
    let how = if combos.len() <= 4 {
        format!("can only be {}", written.join(" or "))
    } else {
        format!("has {} combinations left", combos.len())
    };
    let mut shapes = vec![i];
    shapes.extend_from_slice(from);
    Some(Step {
        rule: "Hidden cage combination".into(),
        family: Family::Cages,
        size: s.cells.iter().filter(|&&c| b.value[c].is_none()).count(),
        weight,
        shapes,
        cells: s.cells.clone(),
        placements: vec![],
        eliminations: elim,
        reason: format!(
            "{} can only place {} in {} (sum {total}), which then {how}",
            names.join(", "),
            b.mask_text(must),
            s.name
        ),
    })
}
