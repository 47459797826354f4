//! Cage combinations: each cell of a sum shape keeps only the symbols that occur in some complete
//! assignment of the shape consistent with every cell's candidates (and, for a unique shape, with
//! no repeats). Also used by the board to know which symbols a unique cage *must* contain.
//!
//! Unique shapes enumerate symbol sets with the right total and check, by bipartite matching,
//! which (cell, symbol) pairs lie on some complete assignment. Non-unique sum shapes enumerate
//! assignments cell by cell with sum bounds, under a node budget (past it, nothing is removed).

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::Family;

/// For a unique sum shape with cell candidates `cands`: every symbol set with the right total
/// that can be assigned to the cells, with the per-cell symbols used by some such assignment.
pub fn unique_combinations(values: &[i64], cands: &[Mask], total: i64) -> Vec<(Mask, Vec<Mask>)> {
    let k = cands.len();
    let union = cands.iter().fold(0, |m, &c| m | c);
    let syms: Vec<usize> = bits(union).collect();
    let mut out = Vec::new();
    let mut pick: Vec<usize> = Vec::with_capacity(k);
    #[allow(clippy::too_many_arguments)]
    fn go(
        i: usize,
        sum: i64,
        syms: &[usize],
        values: &[i64],
        k: usize,
        total: i64,
        pick: &mut Vec<usize>,
        found: &mut dyn FnMut(&[usize]),
    ) {
        if pick.len() == k {
            if sum == total {
                found(pick);
            }
            return;
        }
        if syms.len() - i < k - pick.len() {
            return;
        }
        // bounds: the remaining picks come from syms[i..]
        let mut rest: Vec<i64> = syms[i..].iter().map(|&s| values[s]).collect();
        rest.sort_unstable();
        let need = k - pick.len();
        let lo: i64 = rest[..need].iter().sum();
        let hi: i64 = rest[rest.len() - need..].iter().sum();
        if sum + lo > total || sum + hi < total {
            return;
        }
        pick.push(syms[i]);
        go(
            i + 1,
            sum + values[syms[i]],
            syms,
            values,
            k,
            total,
            pick,
            found,
        );
        pick.pop();
        go(i + 1, sum, syms, values, k, total, pick, found);
    }
    go(0, 0, &syms, values, k, total, &mut pick, &mut |set| {
        let set_mask: Mask = set.iter().fold(0, |m, &s| m | 1 << s);
        let restricted: Vec<Mask> = cands.iter().map(|&c| c & set_mask).collect();
        let mut support = vec![0; k];
        for c in 0..k {
            for s in bits(restricted[c]) {
                if support[c] & (1 << s) != 0 {
                    continue;
                }
                if let Some(assign) = matching_with(&restricted, c, s) {
                    for (d, &t) in assign.iter().enumerate() {
                        support[d] |= 1 << t;
                    }
                }
            }
        }
        if support.iter().all(|&m| m != 0) {
            out.push((set_mask, support));
        }
    });
    out
}

/// A perfect matching of cells to distinct symbols with cell `c` fixed to `s` (Kuhn's algorithm).
fn matching_with(cands: &[Mask], c: usize, s: usize) -> Option<Vec<usize>> {
    let k = cands.len();
    let mut owner: [usize; 64] = [usize::MAX; 64];
    let mut assign = vec![usize::MAX; k];
    owner[s] = c;
    assign[c] = s;
    fn augment(
        d: usize,
        cands: &[Mask],
        owner: &mut [usize; 64],
        assign: &mut [usize],
        seen: &mut Mask,
        fixed: usize,
    ) -> bool {
        for t in bits(cands[d] & !*seen) {
            *seen |= 1 << t;
            let o = owner[t];
            if o == fixed {
                continue;
            }
            if o == usize::MAX || augment(o, cands, owner, assign, seen, fixed) {
                owner[t] = d;
                assign[d] = t;
                return true;
            }
        }
        false
    }
    for d in 0..k {
        if d == c {
            continue;
        }
        let mut seen: Mask = 1 << s;
        if !augment(d, cands, &mut owner, &mut assign, &mut seen, c) {
            return None;
        }
    }
    Some(assign)
}

/// Per-cell supported symbols of a non-unique sum shape, or `None` past the node budget.
fn repeat_support(values: &[i64], cands: &[Mask], total: i64) -> Option<Vec<Mask>> {
    let k = cands.len();
    let bounds: Vec<(i64, i64)> = cands
        .iter()
        .map(|&m| {
            let vs: Vec<i64> = bits(m).map(|s| values[s]).collect();
            (
                vs.iter().copied().min().unwrap_or(0),
                vs.iter().copied().max().unwrap_or(0),
            )
        })
        .collect();
    // suffix bounds
    let mut lo_rest = vec![0; k + 1];
    let mut hi_rest = vec![0; k + 1];
    for i in (0..k).rev() {
        lo_rest[i] = lo_rest[i + 1] + bounds[i].0;
        hi_rest[i] = hi_rest[i + 1] + bounds[i].1;
    }
    let mut support = vec![0; k];
    let mut path = vec![0usize; k];
    let mut nodes = 0u64;
    #[allow(clippy::too_many_arguments)]
    fn go(
        i: usize,
        sum: i64,
        cands: &[Mask],
        values: &[i64],
        total: i64,
        lo: &[i64],
        hi: &[i64],
        path: &mut [usize],
        support: &mut [Mask],
        nodes: &mut u64,
    ) -> bool {
        *nodes += 1;
        if *nodes > 200_000 {
            return false;
        }
        if i == cands.len() {
            if sum == total {
                for (d, &s) in path.iter().enumerate() {
                    support[d] |= 1 << s;
                }
            }
            return true;
        }
        if sum + lo[i] > total || sum + hi[i] < total {
            return true;
        }
        for s in bits(cands[i]) {
            path[i] = s;
            if !go(
                i + 1,
                sum + values[s],
                cands,
                values,
                total,
                lo,
                hi,
                path,
                support,
                nodes,
            ) {
                return false;
            }
        }
        true
    }
    go(
        0,
        0,
        cands,
        values,
        total,
        &lo_rest,
        &hi_rest,
        &mut path,
        &mut support,
        &mut nodes,
    )
    .then_some(support)
}

/// Sum shapes keep only candidates that occur in a valid assignment.
pub struct CageCombinations;

impl LogicRule for CageCombinations {
    fn name(&self) -> &str {
        "Cage combinations"
    }
    fn family(&self) -> Family {
        Family::Cages
    }
    fn min_weight(&self) -> f64 {
        2.2
    }
    fn find(&self, b: &Board) -> Option<Step> {
        for (i, s) in b.shapes.iter().enumerate() {
            let Some(total) = s.sum else { continue };
            if s.cells.iter().all(|&c| b.value[c].is_some()) {
                continue;
            }
            let cands: Vec<Mask> = s.cells.iter().map(|&c| b.cand[c]).collect();
            let (support, combos) = if s.unique {
                let combos = unique_combinations(&b.values, &cands, total);
                let mut support = vec![0; cands.len()];
                for (_, sup) in &combos {
                    for (d, m) in sup.iter().enumerate() {
                        support[d] |= m;
                    }
                }
                (support, Some(combos))
            } else {
                match repeat_support(&b.values, &cands, total) {
                    Some(s) => (s, None),
                    None => continue,
                }
            };
            let mut elim = Vec::new();
            for (d, &c) in s.cells.iter().enumerate() {
                if b.value[c].is_none() {
                    for v in bits(b.cand[c] & !support[d]) {
                        elim.push((c, v as u8));
                    }
                }
            }
            if elim.is_empty() {
                continue;
            }
            let how = match &combos {
                Some(list) if !list.is_empty() && list.len() <= 4 => {
                    let written: Vec<String> = list
                        .iter()
                        .map(|(set, _)| bits(*set).map(|v| b.sym(v)).collect::<Vec<_>>().join("+"))
                        .collect();
                    format!("can only be {}", written.join(" or "))
                }
                Some(list) => format!("has {} possible combinations", list.len()),
                None => "allows only some values per cell".into(),
            };
            let free: Vec<usize> = s
                .cells
                .iter()
                .copied()
                .filter(|&c| b.value[c].is_none())
                .collect();
            return Some(Step {
                rule: self.name().into(),
                family: Family::Cages,
                size: free.len(),
                weight: 2.0 + 0.2 * free.len().min(8) as f64,
                shapes: vec![i],
                cells: s.cells.clone(),
                placements: vec![],
                eliminations: elim,
                reason: format!("{} (sum {total}, {} cells) {how}", s.name, s.cells.len()),
            });
        }
        None
    }
}
