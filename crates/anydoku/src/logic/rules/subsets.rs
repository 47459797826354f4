//! Naked and hidden subsets of a given size k, in any unique shape, for k up to half the shape's
//! empty cells (a naked subset of k is a hidden subset of the other empty cells and vice versa).
//!
//! * Naked: k empty cells of a unique shape whose candidates together are k symbols; those
//!   symbols leave the shape's other cells.
//! * Hidden: k required symbols of a shape confined to k of its cells; those cells lose every
//!   other candidate.

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// "pair", "triple", "quad", or "subset of k".
pub fn subset_word(k: usize) -> String {
    match k {
        2 => "pair".into(),
        3 => "triple".into(),
        4 => "quad".into(),
        k => format!("subset of {k}"),
    }
}

/// Calls `f` with every k-combination of `items` (as indices into it) until it returns true.
pub fn combinations(n: usize, k: usize, f: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    fn go(
        start: usize,
        n: usize,
        k: usize,
        pick: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if pick.len() == k {
            return f(pick);
        }
        for i in start..n {
            if n - i < k - pick.len() {
                break;
            }
            pick.push(i);
            if go(i + 1, n, k, pick, f) {
                return true;
            }
            pick.pop();
        }
        false
    }
    go(0, n, k, &mut Vec::with_capacity(k), f)
}

/// Naked subsets of size `k`.
pub struct NakedSubset(pub usize);

impl LogicRule for NakedSubset {
    fn name(&self) -> &str {
        "Naked subset"
    }
    fn family(&self) -> Family {
        Family::Subsets
    }
    fn min_weight(&self) -> f64 {
        rate::naked(self.0)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let k = self.0;
        let (mut free, mut small) = (Vec::new(), Vec::new());
        // (a shape of fewer than four cells holds no naked subset)
        for &i in b.wide() {
            let s = &b.shapes[i];
            if !s.unique || !b.shape_changed_since(i, cx.since_at(i)) {
                continue;
            }
            free.clear();
            free.extend(s.cells.iter().copied().filter(|&c| b.value[c].is_none()));
            if 2 * k > free.len() {
                continue;
            }
            small.clear();
            small.extend(
                free.iter()
                    .copied()
                    .filter(|&c| (2..=k as u32).contains(&b.cand[c].count_ones())),
            );
            if small.len() < k {
                continue;
            }
            let mut found = None;
            combinations(small.len(), k, &mut |pick| {
                let union: Mask = pick.iter().fold(0, |m, &j| m | b.cand[small[j]]);
                if union.count_ones() as usize != k {
                    return false;
                }
                let picked = |c: usize| pick.iter().any(|&j| small[j] == c);
                if !free.iter().any(|&c| !picked(c) && b.cand[c] & union != 0) {
                    return false;
                }
                let cells: Vec<usize> = pick.iter().map(|&j| small[j]).collect();
                let mut elim = Vec::new();
                for &c in &free {
                    if !cells.contains(&c) {
                        for v in bits(b.cand[c] & union) {
                            elim.push((c, v as u8));
                        }
                    }
                }
                found = Some(Step {
                    rule: format!("Naked {}", subset_word(k)),
                    family: Family::Subsets,
                    size: k,
                    weight: rate::naked(k),
                    shapes: vec![i],
                    reason: cx.reason(|| {
                        format!(
                            "{} in {} hold only {}",
                            b.cells_text(&cells),
                            s.name,
                            b.mask_text(union)
                        )
                    }),
                    cells,
                    placements: vec![],
                    eliminations: elim,
                });
                true
            });
            if found.is_some() {
                cx.found_at = i;
                return found;
            }
        }
        None
    }
}

/// Hidden subsets of size `k`.
pub struct HiddenSubset(pub usize);

impl LogicRule for HiddenSubset {
    fn name(&self) -> &str {
        "Hidden subset"
    }
    fn family(&self) -> Family {
        Family::Subsets
    }
    fn min_weight(&self) -> f64 {
        rate::hidden(self.0)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let k = self.0;
        let (mut syms, mut free): (Vec<(usize, u64)>, Vec<usize>) = (Vec::new(), Vec::new());
        for &i in b.requiring() {
            let (s, open) = (&b.shapes[i], b.open_required(i));
            if open == 0 || !b.shape_changed_since(i, cx.since_at(i)) {
                continue;
            }
            if 2 * k > s.cells.iter().filter(|&&c| b.value[c].is_none()).count() {
                continue;
            }
            // the open required symbols with 2 to k places, counted on the board's bitsets
            syms.clear();
            let set = b.shape_set(i);
            for v in bits(open) {
                let places: u32 = set
                    .iter()
                    .zip(b.holds(v))
                    .map(|(x, h)| (x & h).count_ones())
                    .sum();
                if (2..=k as u32).contains(&places) {
                    syms.push((v, 0));
                }
            }
            if syms.len() < k {
                continue;
            }
            // their positions, as bit masks over `free`
            free.clear();
            free.extend(s.cells.iter().copied().filter(|&c| b.value[c].is_none()));
            for (v, pos) in syms.iter_mut() {
                *pos = free
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| b.cand[c] & (1 << *v) != 0)
                    .fold(0, |m, (j, _)| m | 1 << j);
            }
            let mut found = None;
            combinations(syms.len(), k, &mut |pick| {
                let union: u64 = pick.iter().fold(0, |m, &j| m | syms[j].1);
                if union.count_ones() as usize != k {
                    return false;
                }
                let set: Mask = pick.iter().fold(0, |m, &j| m | 1 << syms[j].0);
                if !bits(union).any(|j| b.cand[free[j]] & !set != 0) {
                    return false;
                }
                let cells: Vec<usize> = bits(union).map(|j| free[j]).collect();
                let mut elim = Vec::new();
                for &c in &cells {
                    for v in bits(b.cand[c] & !set) {
                        elim.push((c, v as u8));
                    }
                }
                found = Some(Step {
                    rule: format!("Hidden {}", subset_word(k)),
                    family: Family::Subsets,
                    size: k,
                    weight: rate::hidden(k),
                    shapes: vec![i],
                    reason: cx.reason(|| {
                        format!(
                            "in {}, {} can only go in {}",
                            s.name,
                            b.mask_text(set),
                            b.cells_text(&cells)
                        )
                    }),
                    cells,
                    placements: vec![],
                    eliminations: elim,
                });
                true
            });
            if found.is_some() {
                cx.found_at = i;
                return found;
            }
        }
        None
    }
}
