//! Almost locked sets: ALS-XZ, with the wings (XY, XYZ, WXYZ, VWXYZ, ...) as its smallest cases.
//!
//! An *almost locked set* (ALS) is n empty cells that all see each other (pairwise sharing a
//! unique shape) and hold n + 1 symbols between them: were one symbol taken out, the other n
//! would be locked in those cells. Two disjoint ALSs A and B with a *restricted common* symbol x
//! (every x of A sees every x of B, so x is in at most one of them) cannot both lose x, so one
//! of them is locked: every other symbol z they share is in A or in B, and z leaves every cell
//! that sees all the z's of both. With two restricted commons, both sets are locked: each of
//! their other symbols leaves the cells that see all of its places in its set, and each common
//! one the cells that see all of its places in both.
//!
//! A bivalue cell is an ALS of one cell: a pivot with wings is the ALS-XZ of the wings' cell
//! and the rest (the XY-Wing: {x, y} with {x, z} and {y, z}). Weights follow SE's wings by the
//! number of cells (XY/XYZ-Wing 4.2/4.4, WXYZ-Wing 5.5–5.6, VWXYZ 6.2–6.4, UVWXYZ 6.6,
//! TUVWXYZ 7.5), for any two sets.

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// ALS-XZ with `self.0` cells in both sets together (3 or more).
pub struct AlsXz(pub usize);

/// One almost locked set.
#[derive(Debug, Clone)]
pub(super) struct Als {
    pub(super) cells: Vec<usize>,
    pub(super) cand: Mask,
}

impl Als {
    /// The cells of the set holding symbol `v`.
    fn with(&self, b: &Board, v: usize) -> Vec<usize> {
        self.cells
            .iter()
            .copied()
            .filter(|&c| b.cand[c] & (1 << v) != 0)
            .collect()
    }
}

/// Every ALS of at most `max` cells: cliques of empty cells (each with two candidates or
/// more) holding one symbol more than they have cells. Each clique is grown from its lowest
/// cell through higher peers only, so it is found once.
pub(super) fn sets(b: &Board, max: usize) -> Vec<Als> {
    let mut out = Vec::new();
    let open = |c: usize| b.value[c].is_none() && b.cand[c].count_ones() >= 2;
    let mut cells = Vec::with_capacity(max);
    // the cells each set may still grow by, one list per depth, stacked
    let mut next = Vec::new();
    for c in 0..b.cell_count() {
        if !open(c) || b.cand[c].count_ones() as usize > max + 1 {
            continue;
        }
        next.clear();
        next.extend(
            b.peers[c]
                .iter()
                .map(|&p| p as usize)
                .filter(|&p| p > c && open(p) && b.cand[p].count_ones() as usize <= max + 1),
        );
        cells.push(c);
        grow(b, (&mut next, 0), b.cand[c], max, &mut cells, &mut out);
        cells.pop();
    }
    out
}

/// Grows the set `cells` (holding `cand`) by the cells `next[from..]`, each with the later
/// ones it sees pushed on top of `next` for the next depth.
fn grow(
    b: &Board,
    (next, from): (&mut Vec<usize>, usize),
    cand: Mask,
    max: usize,
    cells: &mut Vec<usize>,
    out: &mut Vec<Als>,
) {
    if cand.count_ones() as usize == cells.len() + 1 {
        out.push(Als {
            cells: cells.clone(),
            cand,
        });
    }
    if cells.len() == max {
        return;
    }
    let to = next.len();
    for i in from..to {
        let d = next[i];
        let union = cand | b.cand[d];
        if union.count_ones() as usize > max + 1 {
            continue;
        }
        let at = next.len();
        for k in i + 1..to {
            let e = next[k];
            if b.sees(d, e) {
                next.push(e);
            }
        }
        cells.push(d);
        grow(b, (next, at), union, max, cells, out);
        cells.pop();
        next.truncate(at);
    }
}

/// The weight of an ALS-XZ of `m` cells whose fullest cell holds `big` candidates.
pub fn weight(m: usize, big: usize) -> f64 {
    // SE's wings: a tenth more the closer the fullest cell is to three candidates
    let near3 = |most: f64| (most - (3.0 - big as f64).abs()).max(0.0) * 0.1;
    let w = match m {
        ..=3 if big <= 2 => rate::XY_WING,
        ..=3 => rate::XYZ_WING,
        4 => rate::WXYZ_WING + near3(1.0),
        5 => rate::VWXYZ_WING + near3(2.0),
        6 => rate::UVWXYZ_WING,
        _ => rate::TUVWXYZ_WING + 0.1 * (m - 7) as f64,
    };
    rate::tenths(w)
}

/// The weight of an ALS-XZ of `m` cells whose sets both have two cells or more (SE has no such
/// rule and needs chains for it).
pub fn general(m: usize) -> f64 {
    rate::tenths(rate::ALS_XZ + 0.1 * m.saturating_sub(4) as f64)
}

/// The name of an ALS-XZ step.
fn name(m: usize, wing: bool, big: usize) -> String {
    match (m, wing) {
        (3, _) if big <= 2 => "XY-Wing".into(),
        (3, _) => "XYZ-Wing".into(),
        (4, true) => "WXYZ-Wing".into(),
        (5, true) => "VWXYZ-Wing".into(),
        (6, true) => "UVWXYZ-Wing".into(),
        (7, true) => "TUVWXYZ-Wing".into(),
        _ => "ALS-XZ".into(),
    }
}

impl LogicRule for AlsXz {
    fn name(&self) -> &str {
        "ALS-XZ"
    }
    fn family(&self) -> Family {
        Family::Als
    }
    fn min_weight(&self) -> f64 {
        (2..=self.0.min(7))
            .map(|big| weight(self.0, big))
            .fold(general(self.0), f64::min)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let m = self.0;
        let all = sets(b, m - 1);
        // per set: whether a cell changed since the last search, and its fullest cell
        let changed: Vec<bool> = all
            .iter()
            .map(|a| a.cells.iter().any(|&c| b.changed_since(c, cx.since)))
            .collect();
        let big: Vec<usize> = all
            .iter()
            .map(|a| {
                a.cells
                    .iter()
                    .map(|&c| b.cand[c].count_ones() as usize)
                    .max()
                    .unwrap_or(2)
            })
            .collect();
        // the sets of each size, in order (pairs are still taken in the order (i, j > i))
        let mut by_size: Vec<Vec<usize>> = vec![Vec::new(); m];
        for (i, a) in all.iter().enumerate() {
            by_size[a.cells.len()].push(i);
        }
        let mut best: Option<Step> = None;
        for (i, a) in all.iter().enumerate() {
            let Some(partners) = by_size.get(m.wrapping_sub(a.cells.len())) else {
                continue;
            };
            let from = partners.partition_point(|&j| j <= i);
            for &j in &partners[from..] {
                let bset = &all[j];
                if a.cand & bset.cand == 0
                    || !(changed[i] || changed[j])
                    || a.cells.iter().any(|c| bset.cells.contains(c))
                {
                    continue;
                }
                let wing = a.cells.len() == 1 || bset.cells.len() == 1;
                let w = if wing {
                    weight(m, big[i].max(big[j]))
                } else {
                    general(m)
                };
                if best.as_ref().is_some_and(|s| s.weight <= w) || !cx.wants(w) {
                    continue;
                }
                if let Some(step) = xz(b, a, bset, w) {
                    best = Some(step);
                }
            }
        }
        best
    }
}

/// Empty cells outside `skip` and `of` holding `v` that see every cell of `of`.
fn seeing_all<'a>(
    b: &'a Board,
    v: usize,
    of: &'a [usize],
    skip: &'a [usize],
) -> impl Iterator<Item = usize> + 'a {
    let around: &[u32] = of.first().map_or(&[], |&first| &b.peers[first]);
    around
        .iter()
        .map(|&p| p as usize)
        .filter(move |&p| b.value[p].is_none() && b.cand[p] & (1 << v) != 0)
        .filter(move |&p| !skip.contains(&p) && !of.contains(&p))
        .filter(move |&p| of.iter().all(|&c| b.sees(c, p)))
}

/// The ALS-XZ of sets `a` and `b2`, if it removes anything.
fn xz(b: &Board, a: &Als, b2: &Als, w: f64) -> Option<Step> {
    let common = a.cand & b2.cand;
    let has = |c: usize, x: usize| b.cand[c] & (1 << x) != 0;
    let is_restricted = |x: usize| {
        a.cells.iter().filter(|&&c| has(c, x)).all(|&c| {
            b2.cells
                .iter()
                .filter(|&&d| has(d, x))
                .all(|&d| b.sees(c, d))
        })
    };
    if !bits(common).any(is_restricted) {
        return None;
    }
    let restricted: Vec<usize> = bits(common).filter(|&x| is_restricted(x)).collect();
    let cells: Vec<usize> = a.cells.iter().chain(&b2.cells).copied().collect();
    let mut elim: Vec<(usize, u8)> = Vec::new();
    let mut remove = |v: usize, of: &[usize]| {
        elim.extend(seeing_all(b, v, of, &cells).map(|c| (c, v as u8)));
    };
    let double = restricted.len() >= 2;
    for z in bits(common) {
        if !double && z == restricted[0] {
            continue;
        }
        let mut of = a.with(b, z);
        of.extend(b2.with(b, z));
        remove(z, &of);
    }
    if double {
        for set in [a, b2] {
            for v in bits(set.cand & !common) {
                remove(v, &set.with(b, v));
            }
        }
    }
    elim.sort_unstable();
    elim.dedup();
    if elim.is_empty() {
        return None;
    }
    let m = cells.len();
    let big = cells
        .iter()
        .map(|&c| b.cand[c].count_ones() as usize)
        .max()
        .unwrap_or(2);
    let wing = a.cells.len() == 1 || b2.cells.len() == 1;
    let x = restricted[0];
    let why = if double {
        format!(
            "{} and {} are both restricted common, so both sets are locked",
            b.sym(x),
            b.sym(restricted[1])
        )
    } else {
        format!(
            "{} is a restricted common (in at most one set), so the other set is locked",
            b.sym(x)
        )
    };
    Some(Step {
        rule: name(m, wing, big),
        family: Family::Als,
        size: m,
        weight: w,
        shapes: vec![],
        cells,
        placements: vec![],
        eliminations: elim,
        reason: format!(
            "{} hold {} and {} hold {}; {why}",
            b.cells_text(&a.cells),
            b.mask_text(a.cand),
            b.cells_text(&b2.cells),
            b.mask_text(b2.cand)
        ),
    })
}
