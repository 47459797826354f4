//! Fish of size k (generalised X-Wing k=2, Swordfish k=3, Jellyfish k=4) on any shapes.
//!
//! For a symbol s, take k pairwise disjoint *base* shapes in which s is required (so each holds s
//! exactly once: k placements of s in all). If their s-candidates are covered by k unique *cover*
//! shapes (each holds s at most once), those k placements fill the covers' quota, so s leaves
//! every cover cell outside the bases. Nothing here knows rows from boxes: rows/columns give the
//! classic fish, boxes and diagonals give "franken" fish, for free.

use super::subsets::combinations;
use super::{LogicRule, Step};
use crate::logic::board::Board;
use crate::logic::Family;

/// Fish with `k` base and `k` cover shapes.
pub struct Fish(pub usize);

/// "X-Wing", "Swordfish", "Jellyfish", or "Fish of size k".
pub fn fish_name(k: usize) -> String {
    match k {
        2 => "X-Wing".into(),
        3 => "Swordfish".into(),
        4 => "Jellyfish".into(),
        k => format!("Fish of size {k}"),
    }
}

/// Difficulty of a fish (X-Wing 3.2, Swordfish 3.8, Jellyfish 5.2, then +0.6 per size).
pub fn fish_weight(k: usize) -> f64 {
    match k {
        2 => 3.2,
        3 => 3.8,
        _ => 5.2 + 0.6 * (k as f64 - 4.0),
    }
}

impl LogicRule for Fish {
    fn name(&self) -> &str {
        "Fish"
    }
    fn family(&self) -> Family {
        Family::Fish
    }
    fn min_weight(&self) -> f64 {
        fish_weight(self.0)
    }
    fn find(&self, b: &Board) -> Option<Step> {
        let k = self.0;
        let n = b.cell_count();
        let mut in_base = vec![false; n];
        for v in 0..b.n_symbols {
            // candidate bases: required, not placed, at least two places, not too spread out
            let bases: Vec<(usize, Vec<usize>)> = (0..b.shapes.len())
                .filter(|&i| b.open_required(i) & (1 << v) != 0)
                .map(|i| (i, b.with_candidate(&b.shapes[i].cells, v)))
                .filter(|(_, cells)| cells.len() >= 2 && cells.len() <= 2 * k)
                .collect();
            if bases.len() < k {
                continue;
            }
            let mut found = None;
            combinations(bases.len(), k, &mut |pick| {
                // pairwise disjoint
                let mut ok = true;
                for &j in pick {
                    for &c in &b.shapes[bases[j].0].cells {
                        if in_base[c] {
                            ok = false;
                        }
                        in_base[c] = true;
                    }
                }
                let result = if ok {
                    let cells: Vec<usize> = pick
                        .iter()
                        .flat_map(|&j| bases[j].1.iter().copied())
                        .collect();
                    let base_ids: Vec<usize> = pick.iter().map(|&j| bases[j].0).collect();
                    let mut covers = Vec::with_capacity(k);
                    cover(b, &cells, &base_ids, k, &mut covers, &in_base, v)
                        .map(|(covers, elim)| (base_ids, covers, cells, elim))
                } else {
                    None
                };
                for &j in pick {
                    for &c in &b.shapes[bases[j].0].cells {
                        in_base[c] = false;
                    }
                }
                match result {
                    Some((base_ids, covers, cells, elim)) => {
                        let names = |ids: &[usize]| {
                            ids.iter()
                                .map(|&s| b.shapes[s].name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        };
                        found = Some(Step {
                            rule: fish_name(k),
                            family: Family::Fish,
                            size: k,
                            weight: fish_weight(k),
                            reason: format!(
                                "{} must appear once in each of {}, and there it can only go in {}, all inside {}",
                                b.sym(v),
                                names(&base_ids),
                                b.cells_text(&cells),
                                names(&covers)
                            ),
                            shapes: base_ids.into_iter().chain(covers).collect(),
                            cells,
                            placements: vec![],
                            eliminations: elim.into_iter().map(|c| (c, v as u8)).collect(),
                        });
                        true
                    }
                    None => false,
                }
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

/// Finds up to `k` unique cover shapes (not bases) containing every cell of `cells`, such that the
/// covers have s-candidates outside the bases. Depth-first on the first uncovered cell.
fn cover(
    b: &Board,
    cells: &[usize],
    bases: &[usize],
    k: usize,
    covers: &mut Vec<usize>,
    in_base: &[bool],
    v: usize,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let uncovered = cells
        .iter()
        .find(|c| !covers.iter().any(|&s| b.shapes[s].cells.contains(c)));
    let Some(&c) = uncovered else {
        let mut elim: Vec<usize> = covers
            .iter()
            .flat_map(|&s| b.with_candidate(&b.shapes[s].cells, v))
            .filter(|&d| !in_base[d])
            .collect();
        elim.sort_unstable();
        elim.dedup();
        return (!elim.is_empty()).then(|| (covers.clone(), elim));
    };
    if covers.len() == k {
        return None;
    }
    for &s in &b.unique_of[c] {
        if bases.contains(&s) || covers.contains(&s) {
            continue;
        }
        covers.push(s);
        if let Some(r) = cover(b, cells, bases, k, covers, in_base, v) {
            return Some(r);
        }
        covers.pop();
    }
    None
}
