//! The support of a sum whose values may repeat, except between cells that see each other
//! (a little killer's diagonal: it crosses boxes, so its cells inside one box differ while
//! cells in different boxes may repeat).
//!
//! [`support`] walks the shape's cells in order, keeping as state the running sum and the
//! values of the earlier cells that still have a peer further on (the *frontier*): a cell
//! takes a value none of its earlier peers holds, and the sum must stay within reach of the
//! total. Walking forward lists the reachable states, walking back keeps those that end on
//! the total, and a candidate is supported when it leads from a reachable state to one that
//! ends well: the result is exact (every candidate some valid filling uses, and no other).
//! Shapes whose frontier grows past [`MAX_FRONTIER`] cells are left to the plain repeat
//! support (`None`).
//!
//! Geometry-free: the peers come from the board's unique shapes and the kinds' pairs.

use std::collections::HashMap;

use crate::logic::board::{bits, Board, Mask};

/// Frontier cells at most (their values are packed into one 64-bit key, 6 bits each).
const MAX_FRONTIER: usize = 8;

/// States kept per cell at most (past it the support is left to the plain repeat support).
const MAX_STATES: usize = 1 << 16;

/// Whether cells `a` and `b` of the board see each other.
fn sees(b: &Board, a: usize, c: usize) -> bool {
    b.peer_set(a)[c / 64] >> (c % 64) & 1 != 0
}

/// Per cell of `cells` (with candidates `cands`), the symbols some filling uses that adds
/// up to `total` with peers distinct; `None` when the walk would be too large (see the module
/// docs).
pub fn support(b: &Board, cells: &[usize], cands: &[Mask], total: i64) -> Option<Vec<Mask>> {
    let k = cells.len();
    let values = &b.values;
    if cands.contains(&0) {
        return Some(vec![0; k]);
    }
    // per cell, its earlier peers; per step, the frontier (earlier cells with a later peer)
    let earlier: Vec<Vec<usize>> = (0..k)
        .map(|i| (0..i).filter(|&j| sees(b, cells[j], cells[i])).collect())
        .collect();
    let frontier: Vec<Vec<usize>> = (0..=k)
        .map(|i| {
            (0..i)
                .filter(|&j| (i..k).any(|l| earlier[l].contains(&j)))
                .collect()
        })
        .collect();
    if frontier.iter().any(|f| f.len() > MAX_FRONTIER) || b.n_symbols > 64 {
        return None;
    }
    let lo_of = |m: Mask| bits(m).map(|v| values[v]).min().unwrap_or(0);
    let hi_of = |m: Mask| bits(m).map(|v| values[v]).max().unwrap_or(0);
    // the least and most the cells from `i` on can add
    let mut rest = vec![(0i64, 0i64); k + 1];
    for i in (0..k).rev() {
        rest[i] = (
            rest[i + 1].0 + lo_of(cands[i]),
            rest[i + 1].1 + hi_of(cands[i]),
        );
    }
    let value_at = |key: u64, f: &[usize], j: usize| -> usize {
        let at = f.iter().position(|&x| x == j).expect("a frontier cell");
        (key >> (6 * at) & 63) as usize
    };
    // one move: from state (key, sum) before cell i, value v → the state before cell i + 1
    let next = |i: usize, key: u64, sum: i64, v: usize| -> Option<(u64, i64)> {
        if earlier[i]
            .iter()
            .any(|&j| value_at(key, &frontier[i], j) == v)
        {
            return None;
        }
        let s = sum + values[v];
        if s + rest[i + 1].0 > total || s + rest[i + 1].1 < total {
            return None;
        }
        let mut out = 0u64;
        for (at, &j) in frontier[i + 1].iter().enumerate() {
            let w = if j == i {
                v
            } else {
                value_at(key, &frontier[i], j)
            };
            out |= (w as u64) << (6 * at);
        }
        Some((out, s))
    };
    // forward: the reachable states before each cell
    let mut layers: Vec<Vec<(u64, i64)>> = vec![vec![(0, 0)]];
    for i in 0..k {
        let mut seen: HashMap<(u64, i64), ()> = HashMap::new();
        let mut layer = Vec::new();
        for &(key, sum) in &layers[i] {
            for v in bits(cands[i]) {
                if let Some(st) = next(i, key, sum, v) {
                    if seen.insert(st, ()).is_none() {
                        layer.push(st);
                    }
                }
            }
        }
        if layer.len() > MAX_STATES {
            return None;
        }
        layers.push(layer);
    }
    // backward: the states that end on the total, and the moves into them
    let mut good: std::collections::HashSet<(u64, i64)> = layers[k]
        .iter()
        .copied()
        .filter(|&(_, s)| s == total)
        .collect();
    let mut out = vec![0 as Mask; k];
    for i in (0..k).rev() {
        let mut before = std::collections::HashSet::new();
        for &(key, sum) in &layers[i] {
            for v in bits(cands[i]) {
                if next(i, key, sum, v).is_some_and(|st| good.contains(&st)) {
                    out[i] |= 1 << v;
                    before.insert((key, sum));
                }
            }
        }
        good = before;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use crate::geometry::Geometry;
    use crate::logic::board::{bits, Board, Mask};

    /// Brute force: every filling of the cells with peers distinct that adds up to `total`.
    fn brute(b: &Board, cells: &[usize], cands: &[Mask], total: i64) -> Vec<Mask> {
        fn go(
            b: &Board,
            cells: &[usize],
            cands: &[Mask],
            total: i64,
            at: &mut Vec<usize>,
            out: &mut [Mask],
        ) {
            let i = at.len();
            if i == cells.len() {
                if at.iter().map(|&v| b.values[v]).sum::<i64>() == total {
                    for (d, &v) in at.iter().enumerate() {
                        out[d] |= 1 << v;
                    }
                }
                return;
            }
            for v in bits(cands[i]) {
                if (0..i).any(|j| at[j] == v && super::sees(b, cells[j], cells[i])) {
                    continue;
                }
                at.push(v);
                go(b, cells, cands, total, at, out);
                at.pop();
            }
        }
        let mut out = vec![0; cells.len()];
        go(b, cells, cands, total, &mut Vec::new(), &mut out);
        out
    }

    /// The walk agrees with brute force on diagonals, broken lines and random cell sets.
    #[test]
    fn agrees_with_brute_force() {
        let g = Geometry::builtin("classic9").expect("classic9");
        let b = Board::new(&g, &[None; 81]).expect("a board");
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let mut next = || rng.gen::<u64>();
        for round in 0..400 {
            let k = 1 + (next() % 6) as usize;
            let cells: Vec<usize> = if round % 2 == 0 {
                let start = (next() % 4) as usize;
                (0..k).map(|i| (start + i) * 9 + start + i).collect()
            } else {
                let mut c: Vec<usize> = Vec::new();
                while c.len() < k {
                    let x = (next() % 81) as usize;
                    if !c.contains(&x) {
                        c.push(x);
                    }
                }
                c
            };
            let cands: Vec<Mask> = (0..k)
                .map(|_| (next() & 0x1ff) | 1 << (next() % 9))
                .collect();
            let total = (k as i64) + (next() % (8 * k as u64 + 1)) as i64;
            let got = super::support(&b, &cells, &cands, total).expect("small");
            assert_eq!(
                got,
                brute(&b, &cells, &cands, total),
                "{cells:?} {cands:?} {total}"
            );
        }
    }
}
