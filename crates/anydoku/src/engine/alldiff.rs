//! All-different filtering on complete shapes (generalised arc consistency, Régin's method).
//!
//! A complete shape holds every symbol exactly once, so its cells and symbols form a bipartite
//! graph (cell — candidate symbol) in which every solution is a perfect matching. A candidate is
//! kept only when it lies on *some* perfect matching: it is in one found matching, or on an
//! alternating cycle through it. This subsumes hidden and naked subsets of every size inside the
//! shape, which is what sparse puzzles on wide symbol sets (25x25 and up) need at each search
//! node; on 9x9 the cheaper singles already do nearly as well, so [`super::Options::alldiff`]
//! chooses it by symbol-set width at load time.
//!
//! Only the free part of a shape is matched: its cells with more than one candidate and the
//! symbols not yet placed in it. Matching uses Kuhn's augmenting paths on bitmasks; the symbols
//! reachable from each symbol along alternating paths (symbol → its matched cell → another
//! candidate of that cell) are closed transitively with bitmasks, and an unmatched edge
//! cell `j` — symbol `t` is supported when `t` reaches the symbol matched to `j`. Nothing here
//! allocates: scratch space is on the stack (at most 64 symbols, the width of [`Mask`]).

use super::{Engine, Mask};

/// No match yet, in the `mate` arrays of [`augment`].
pub(crate) const NONE: u8 = u8::MAX;

/// Filters every complete shape. `None` on a contradiction, `Some(changed)` otherwise; cells
/// narrowed to one symbol are pushed on `queue`.
pub fn filter_all(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let n = e.n_symbols;
    let mut changed = false;
    for shape in e.complete.chunks_exact(n) {
        changed |= filter_shape(e, shape, cand, queue)?;
    }
    Some(changed)
}

/// Filters one complete shape.
pub fn filter_shape(
    e: &Engine,
    shape: &[u32],
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
) -> Option<bool> {
    // the free cells (local index -> cell) and the symbols placed in the shape
    let mut cells = [0u32; 64];
    let mut adj = [0 as Mask; 64];
    let mut k = 0;
    let mut placed: Mask = 0;
    let mut union: Mask = 0;
    for &c in shape {
        let m = cand[c as usize];
        if m & m.wrapping_sub(1) == 0 {
            if placed & m != 0 {
                return None;
            }
            placed |= m;
        } else {
            cells[k] = c;
            adj[k] = m;
            union |= m;
            k += 1;
        }
    }
    if k == 0 {
        return Some(false);
    }
    let free = e.full & !placed;
    if union & free != free {
        return None; // a symbol has no place left
    }
    for a in adj.iter_mut().take(k) {
        *a &= free;
        if *a == 0 {
            return None;
        }
    }
    // perfect matching of the free cells onto the free symbols
    let mut mate_cell = [NONE; 64]; // symbol -> local cell
    for j in 0..k {
        let mut seen: Mask = 0;
        if !augment(j, &adj[..k], &mut mate_cell, &mut seen) {
            return None;
        }
    }
    let mut mate_sym = [NONE; 64]; // local cell -> symbol
    let mut syms = free;
    while syms != 0 {
        let t = syms.trailing_zeros() as usize;
        syms &= syms - 1;
        mate_sym[mate_cell[t] as usize] = t as u8;
    }
    // reach[t]: symbols reachable from t along alternating paths, closed transitively
    let mut reach = [0 as Mask; 64];
    let mut syms = free;
    while syms != 0 {
        let t = syms.trailing_zeros() as usize;
        syms &= syms - 1;
        reach[t] = adj[mate_cell[t] as usize];
    }
    let mut us = free;
    while us != 0 {
        let u = us.trailing_zeros() as usize;
        us &= us - 1;
        let bu: Mask = 1 << u;
        let ru = reach[u];
        let mut ts = free;
        while ts != 0 {
            let t = ts.trailing_zeros() as usize;
            ts &= ts - 1;
            if reach[t] & bu != 0 {
                reach[t] |= ru;
            }
        }
    }
    let mut changed = false;
    for j in 0..k {
        let home = mate_sym[j] as usize;
        let bh: Mask = 1 << home;
        let mut keep = bh;
        let mut ts = adj[j] & !bh;
        while ts != 0 {
            let t = ts.trailing_zeros() as usize;
            ts &= ts - 1;
            if reach[t] & bh != 0 {
                keep |= 1 << t;
            }
        }
        let c = cells[j] as usize;
        if keep != cand[c] {
            cand[c] = keep;
            changed = true;
            if keep & (keep - 1) == 0 {
                queue.push(c as u32);
            }
        }
    }
    Some(changed)
}

/// Kuhn's augmenting path from local cell `j` on bitmasks: `adj[j]` are the symbols cell `j`
/// may take, `mate_cell[t]` the cell symbol `t` is matched to (or [`NONE`]), `seen` the symbols
/// visited in this search. Shared with the cage filter in [`super::sum`].
pub(crate) fn augment(j: usize, adj: &[Mask], mate_cell: &mut [u8; 64], seen: &mut Mask) -> bool {
    let mut opts = adj[j] & !*seen;
    while opts != 0 {
        let t = opts.trailing_zeros() as usize;
        opts &= opts - 1;
        if *seen & (1 << t) != 0 {
            continue;
        }
        *seen |= 1 << t;
        let m = mate_cell[t];
        if m == NONE || augment(m as usize, adj, mate_cell, seen) {
            mate_cell[t] = j as u8;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;

    /// Brute force: the symbols each free cell takes in some assignment of the whole shape.
    fn brute(cands: &[Mask], n: usize) -> Option<Vec<Mask>> {
        fn go(i: usize, cands: &[Mask], used: Mask, support: &mut [Mask], pick: &mut Vec<usize>) {
            if i == cands.len() {
                for (j, &t) in pick.iter().enumerate() {
                    support[j] |= 1 << t;
                }
                return;
            }
            let mut bits = cands[i] & !used;
            while bits != 0 {
                let t = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                pick.push(t);
                go(i + 1, cands, used | 1 << t, support, pick);
                pick.pop();
            }
        }
        let mut support = vec![0; n];
        go(0, cands, 0, &mut support, &mut Vec::new());
        support.iter().all(|&s| s != 0).then_some(support)
    }

    #[test]
    fn matches_brute_force_on_random_rows() {
        use rand::{Rng, SeedableRng};
        let g = builtin::load("classic6").unwrap();
        let e = Engine::new(&g);
        let row: Vec<u32> = e.complete[..6].to_vec();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..20_000 {
            let mut cand = vec![e.full; e.n_cells];
            for &c in &row {
                // mostly two or three candidates, sometimes one
                let mut m: Mask = 0;
                for _ in 0..rng.gen_range(1..=3) {
                    m |= 1 << rng.gen_range(0..6);
                }
                cand[c as usize] = m;
            }
            let before: Vec<Mask> = row.iter().map(|&c| cand[c as usize]).collect();
            let expected = brute(&before, 6);
            let mut queue = Vec::new();
            let got = filter_shape(&e, &row, &mut cand, &mut queue);
            match expected {
                None => assert_eq!(got, None, "{before:?}"),
                Some(support) => {
                    checked += 1;
                    let after: Vec<Mask> = row.iter().map(|&c| cand[c as usize]).collect();
                    assert_eq!(after, support, "{before:?}");
                    assert_eq!(got, Some(after != before));
                }
            }
        }
        assert!(checked > 500, "only {checked} satisfiable rows");
    }

    /// The filter never changes what a search counts: the same puzzles counted with it at every
    /// node, never, and adaptively (a cheap first search, then a restart with it) agree.
    #[test]
    fn counts_agree_with_and_without_the_filter() {
        use crate::engine::{Limits, Options, Switch};
        use rand::{Rng, SeedableRng};
        let g = builtin::load("classic6").unwrap();
        let engines: Vec<Engine> = [Switch::On, Switch::Off]
            .into_iter()
            .map(|alldiff| {
                Engine::with_options(
                    &g,
                    Options {
                        alldiff,
                        board: Switch::Off, // the cell-major kernel, where the filter lives
                        ..Default::default()
                    },
                )
            })
            .collect();
        let mut adaptive = engines[1].clone();
        adaptive.alldiff_after = Some(3); // restart after three nodes
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let grid = engines[1].count(&[None; 36], 1, Limits::none()).solutions[0].clone();
        let mut restarts_seen = 0;
        for _ in 0..300 {
            // a few givens from the grid, and sometimes a wrong one
            let mut givens = vec![None; 36];
            for _ in 0..rng.gen_range(3..12) {
                let c = rng.gen_range(0..36);
                givens[c] = Some(if rng.gen_bool(0.1) {
                    rng.gen_range(0..6)
                } else {
                    grid[c]
                });
            }
            let counts: Vec<u64> = engines
                .iter()
                .chain([&adaptive])
                .map(|e| e.count(&givens, 5_000, Limits::none()).count)
                .collect();
            assert_eq!(counts[0], counts[1], "{givens:?}");
            assert_eq!(counts[0], counts[2], "{givens:?}");
            // four solutions need more than three nodes: that search restarted
            restarts_seen += (counts[0] > 3) as u32;
        }
        assert!(
            restarts_seen > 10,
            "too few searches long enough to restart"
        );
    }
}
