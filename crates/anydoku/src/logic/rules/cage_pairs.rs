//! Cage pairs: the combinations of two sum shapes (cages, and the innies and outies the law of
//! 45 derives) that overlap or see each other must fit together. Every assignment of the two
//! shapes' cells is tried at once, with both totals and no symbol twice among cells that see
//! each other; a candidate no joint assignment uses is removed. "Cage 3 can only be 1+5 or
//! 2+4, and the innie of Row 1 that holds it with r1c2 sums to 6" is one such step.
//!
//! Cage combinations ([`super::cages`]) run first, so a pair only removes what neither shape
//! removes alone. The walk is bounded (cells per pair, nodes per walk), so a pair whose cells
//! still hold most symbols is left for later. After a search that found nothing, only pairs
//! with a cell changed since are walked again. To reason about more shapes at once, grow
//! [`pairs`]; the walk takes any list of sum shapes.

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Combination intersections of two sum shapes.
pub struct CagePairs;

/// Cells in the union of a pair at most.
const MAX_CELLS: usize = 9;
/// Cells in the union of a pair that only see each other (share no cell) at most.
const MAX_APART: usize = 6;
/// Nodes one walk may visit (past this the pair is skipped).
const MAX_NODES: u32 = 4_000;

impl LogicRule for CagePairs {
    fn name(&self) -> &str {
        "Cage pair"
    }
    fn family(&self) -> Family {
        Family::Cages
    }
    fn min_weight(&self) -> f64 {
        rate::cage(4)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let mut best: Option<Step> = None;
        for (x, y) in pairs(b) {
            if !b.shape_changed_since(x, cx.since) && !b.shape_changed_since(y, cx.since) {
                continue;
            }
            if cx.budget.is_out() {
                cx.exhaustive = false;
                return best;
            }
            let Some(step) = pair_step(b, x, y) else {
                continue;
            };
            if best.as_ref().is_none_or(|s| step.weight < s.weight) && cx.wants(step.weight) {
                let lightest = step.weight <= self.min_weight();
                best = Some(step);
                if lightest {
                    break;
                }
            }
        }
        best
    }
}

/// Pairs of sum shapes with empty cells that share a cell or see each other.
fn pairs(b: &Board) -> Vec<(usize, usize)> {
    let sums: Vec<usize> = (0..b.shapes.len())
        .filter(|&s| b.shapes[s].sum.is_some() && !b.free_cells(s).is_empty())
        .collect();
    let mut near = vec![0u64; b.words];
    let mut out = Vec::new();
    for (i, &x) in sums.iter().enumerate() {
        near.copy_from_slice(b.shape_set(x));
        for &c in &b.shapes[x].cells {
            for (w, p) in b.peer_set(c).iter().enumerate() {
                near[w] |= p;
            }
        }
        for &y in &sums[i + 1..] {
            let meets = b.shape_set(y).iter().zip(&near).any(|(a, n)| a & n != 0);
            if meets {
                out.push((x, y));
            }
        }
    }
    out
}

/// The step of sum shapes `x` and `y` together, if they remove anything.
fn pair_step(b: &Board, x: usize, y: usize) -> Option<Step> {
    let mut cells: Vec<usize> = b.shapes[x].cells.clone();
    for &c in &b.shapes[y].cells {
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    let apart = cells.len() == b.shapes[x].cells.len() + b.shapes[y].cells.len();
    if cells.len() > MAX_CELLS || (apart && cells.len() > MAX_APART) {
        return None;
    }
    let support = joint_support(b, &cells, &[x, y])?;
    let mut elim = Vec::new();
    for (d, &c) in cells.iter().enumerate() {
        if b.value[c].is_none() {
            for v in bits(b.cand[c] & !support[d]) {
                elim.push((c, v as u8));
            }
        }
    }
    if elim.is_empty() {
        return None;
    }
    let (sx, sy) = (&b.shapes[x], &b.shapes[y]);
    let free = cells.iter().filter(|&&c| b.value[c].is_none()).count();
    Some(Step {
        rule: "Cage pair".into(),
        family: Family::Cages,
        size: free,
        // one cell heavier than a cage of the same size: two totals at once
        weight: rate::cage(free.max(3) + 1),
        shapes: vec![x, y],
        cells,
        placements: vec![],
        eliminations: elim,
        reason: format!(
            "{} (sum {}) and {} (sum {}) must fit together",
            sx.name,
            sx.sum.unwrap_or(0),
            sy.name,
            sy.sum.unwrap_or(0)
        ),
    })
}

/// Per cell of `cells`, the symbols some assignment uses that gives every sum shape of
/// `shapes` (whose cells are all among `cells`) its total and no two cells that see each
/// other the same symbol. `None` when the walk is cut by [`MAX_NODES`].
pub fn joint_support(b: &Board, cells: &[usize], shapes: &[usize]) -> Option<Vec<Mask>> {
    let k = cells.len();
    let cands: Vec<Mask> = cells.iter().map(|&c| b.cand[c]).collect();
    // per cell, the earlier cells it sees (a bitmask of positions)
    let sees: Vec<u32> = (0..k)
        .map(|i| {
            (0..i)
                .filter(|&j| b.sees(cells[i], cells[j]))
                .fold(0, |m, j| m | 1 << j)
        })
        .collect();
    // per shape: its total, and per position the least and greatest sums of its cells from
    // that position on
    let bound = |m: Mask| -> (i64, i64) {
        bits(m).fold((i64::MAX, i64::MIN), |(lo, hi), v| {
            (lo.min(b.values[v]), hi.max(b.values[v]))
        })
    };
    let mut sums = Vec::with_capacity(shapes.len());
    for &s in shapes {
        let inside: Vec<bool> = cells
            .iter()
            .map(|c| b.shapes[s].cells.contains(c))
            .collect();
        let (mut lo, mut hi) = (vec![0i64; k + 1], vec![0i64; k + 1]);
        for i in (0..k).rev() {
            let (l, h) = if inside[i] { bound(cands[i]) } else { (0, 0) };
            lo[i] = lo[i + 1] + l;
            hi[i] = hi[i + 1] + h;
        }
        sums.push(Sum {
            total: b.shapes[s].sum.unwrap_or(0),
            inside,
            lo,
            hi,
        });
    }
    let mut w = Walk {
        values: &b.values,
        cands: &cands,
        sees: &sees,
        sums: &sums,
        path: vec![0; k],
        acc: vec![0; sums.len()],
        support: vec![0; k],
        nodes: 0,
    };
    if cands.contains(&0) || !w.go(0) {
        return if cands.contains(&0) {
            Some(vec![0; k])
        } else {
            None
        };
    }
    Some(w.support)
}

/// One sum shape in a joint walk.
struct Sum {
    total: i64,
    /// Per position, whether the cell is in the shape.
    inside: Vec<bool>,
    lo: Vec<i64>,
    hi: Vec<i64>,
}

/// The state of a joint walk.
struct Walk<'a> {
    values: &'a [i64],
    cands: &'a [Mask],
    sees: &'a [u32],
    sums: &'a [Sum],
    path: Vec<u8>,
    /// Per shape, the sum of its cells placed so far.
    acc: Vec<i64>,
    support: Vec<Mask>,
    nodes: u32,
}

impl Walk<'_> {
    /// Tries every assignment from position `i` on; false when the node budget ran out.
    fn go(&mut self, i: usize) -> bool {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return false;
        }
        for (s, sum) in self.sums.iter().enumerate() {
            let acc = self.acc[s];
            if acc + sum.lo[i] > sum.total || acc + sum.hi[i] < sum.total {
                return true;
            }
        }
        if i == self.cands.len() {
            for (d, &v) in self.path.iter().enumerate() {
                self.support[d] |= 1 << v;
            }
            return true;
        }
        let mut used: Mask = 0;
        let mut seen = self.sees[i];
        while seen != 0 {
            used |= 1 << self.path[seen.trailing_zeros() as usize];
            seen &= seen - 1;
        }
        for v in bits(self.cands[i] & !used) {
            self.path[i] = v as u8;
            for (s, sum) in self.sums.iter().enumerate() {
                if sum.inside[i] {
                    self.acc[s] += self.values[v];
                }
            }
            let ok = self.go(i + 1);
            for (s, sum) in self.sums.iter().enumerate() {
                if sum.inside[i] {
                    self.acc[s] -= self.values[v];
                }
            }
            if !ok {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use std::sync::Arc;

    /// On a single cage the joint walk agrees with the cage's own combinations; two cages
    /// that see each other keep only the combinations that fit together.
    #[test]
    fn joint_walk_matches_cages_and_fits_pairs() {
        let g = Arc::new(
            Geometry::from_toml(
                "name = \"k\"\nsymbols = \"123456789\"\n[[grid]]\nsize = 9\nboxes = [3, 3]\n\
                 [[cage]]\nsum = 4\ncells = \"r1c1 r1c2\"\n\
                 [[cage]]\nsum = 6\ncells = \"r1c3 r2c3\"\n",
            )
            .expect("geometry"),
        );
        let b = Board::new(&g, &[None; 81]).expect("board");
        let cage = |t: i64| {
            (0..b.shapes.len())
                .find(|&s| b.shapes[s].sum == Some(t) && b.shapes[s].cells.len() == 2)
                .expect("cage")
        };
        let (x, y) = (cage(4), cage(6));
        for s in [x, y] {
            let cells = b.shapes[s].cells.clone();
            let cands: Vec<Mask> = cells.iter().map(|&c| b.cand[c]).collect();
            let mut want = Vec::new();
            crate::logic::rules::cages::support(&b, s, &cands, &mut want);
            assert_eq!(joint_support(&b, &cells, &[s]), Some(want));
        }
        // r1c1, r1c2 hold 1 and 3, which r1c3 (same row) and r2c3 (same box) then cannot:
        // 1+5 is out, 2+4 is left
        let mut all = b.shapes[x].cells.clone();
        all.extend(&b.shapes[y].cells);
        let joint = joint_support(&b, &all, &[x, y]).expect("small walk");
        assert_eq!(joint, vec![0b101, 0b101, 0b1010, 0b1010]);
    }
}
