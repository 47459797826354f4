//! The numbering of the value variables "cell `c` holds symbol `t`": one variable per root
//! candidate, numbered densely in the order of `(c, t)`, so that every per-variable array of
//! the solver (values, assignment records, watch lists, activities, phases, marks) holds only
//! the candidates the root leaves (on a sparse wide puzzle a tenth of `cells × symbols`) and
//! stays small enough for the caches. The order is that of `c × n + t`, so the search (every
//! tie broken by variable order) is the same as over the full numbering.
//!
//! A cell's variables are consecutive, by ascending symbol ([`VarMap::of_cell`]). A candidate
//! outside the root is not a variable: [`VarMap::var`] says so with `None`, and where a literal
//! is needed anyway (a solution's "differs here" literal, an assumption, an explanation) it
//! stands as the one variable [`VarMap::falsum`], false at the root for good, never on the
//! trail, as every such candidate was in the full numbering. It comes right after the value
//! variables; order and guard variables follow it.
//!
//! This is the only place that turns a cell and a symbol into a variable or back; to add
//! another per-candidate variable kind, number it after [`VarMap::falsum`] as the order
//! variables are.

use crate::engine::Mask;
use std::ops::Range;

/// The value variables of one CDCL solver (built from its root candidates).
pub(super) struct VarMap {
    /// Per cell: its root candidates.
    root: Vec<Mask>,
    /// Per cell: its first variable; cell `c`'s are `start[c]..start[c + 1]`.
    start: Vec<u32>,
    /// Per variable: its cell.
    cell: Vec<u32>,
    /// Per variable: its symbol.
    symbol: Vec<u8>,
}

impl VarMap {
    /// The variables of the candidates `root` (one candidate set per cell).
    pub(super) fn new(root: &[Mask]) -> Self {
        let total: usize = root.iter().map(|m| m.count_ones() as usize).sum();
        let mut start = Vec::with_capacity(root.len() + 1);
        let mut cell = Vec::with_capacity(total);
        let mut symbol = Vec::with_capacity(total);
        for (c, &m) in root.iter().enumerate() {
            start.push(cell.len() as u32);
            let mut bits = m;
            while bits != 0 {
                cell.push(c as u32);
                symbol.push(bits.trailing_zeros() as u8);
                bits &= bits - 1;
            }
        }
        start.push(cell.len() as u32);
        VarMap {
            root: root.to_vec(),
            start,
            cell,
            symbol,
        }
    }

    /// How many value variables there are (the variables below [`VarMap::falsum`]).
    #[inline(always)]
    pub(super) fn count(&self) -> usize {
        self.cell.len()
    }

    /// The variable false for good that stands for every candidate outside the root.
    #[inline(always)]
    pub(super) fn falsum(&self) -> usize {
        self.cell.len()
    }

    /// The variable "cell `c` holds `t`", `None` when `t` is not a root candidate of `c`.
    #[inline(always)]
    pub(super) fn var(&self, c: usize, t: usize) -> Option<usize> {
        let m = self.root[c];
        (t < Mask::BITS as usize && m >> t & 1 == 1).then(|| {
            let below = m & ((1 as Mask) << t).wrapping_sub(1);
            self.start[c] as usize + below.count_ones() as usize
        })
    }

    /// [`VarMap::var`], or [`VarMap::falsum`] for a candidate outside the root.
    #[inline(always)]
    pub(super) fn var_or_false(&self, c: usize, t: usize) -> usize {
        self.var(c, t).unwrap_or(self.falsum())
    }

    /// The variables of cell `c`, by ascending symbol.
    #[inline(always)]
    pub(super) fn of_cell(&self, c: usize) -> Range<usize> {
        self.start[c] as usize..self.start[c + 1] as usize
    }

    /// The cell of value variable `v`.
    #[inline(always)]
    pub(super) fn cell(&self, v: usize) -> usize {
        debug_assert!(v < self.count());
        // SAFETY: `v` is a value variable (below `count`), so inside `cell`
        unsafe { *self.cell.get_unchecked(v) as usize }
    }

    /// The symbol of value variable `v`.
    #[inline(always)]
    pub(super) fn symbol(&self, v: usize) -> usize {
        debug_assert!(v < self.count());
        // SAFETY: as in `cell`
        unsafe { *self.symbol.get_unchecked(v) as usize }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{engine_and_grid, random_givens};
    use super::super::{Cdcl, Outcome};
    use super::*;
    use crate::engine::search::Searcher;
    use crate::engine::{Budget, Limits};
    use rand::SeedableRng;

    /// Roots of random 9x9 puzzles from one grid, each with a given cell (one candidate) and an
    /// open cell with a symbol outside its candidates: (root, given cell, open cell, symbol out).
    fn roots_with_fixed_candidates() -> Vec<(Vec<Mask>, usize, usize, usize)> {
        let (e, grid) = engine_and_grid("classic9");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(181);
        let mut found = Vec::new();
        while found.len() < 20 {
            let givens = random_givens(&grid, 28, &mut rng);
            let root = Searcher::new(&e)
                .initial(&givens)
                .expect("givens from a grid");
            let given = (0..81).find(|&c| root[c].count_ones() == 1);
            let open = (0..81).find(|&c| root[c].count_ones() > 1 && root[c] != e.full);
            if let (Some(g), Some(o)) = (given, open) {
                let out = (!root[o] & e.full).trailing_zeros() as usize;
                found.push((root, g, o, out));
            }
        }
        found
    }

    fn solve(s: &mut Cdcl) -> Outcome {
        s.solve(&Budget::from(Limits::none()))
    }

    /// An assumption or a fixed literal on a candidate outside the root is false (no
    /// solution under it), on a given cell's candidate true (a solution keeps it); on an open
    /// candidate it holds in the solution found exactly when some solution has it.
    #[test]
    fn assumptions_on_fixed_candidates_behave_as_their_root_values() {
        let (e, grid) = engine_and_grid("classic9");
        for (root, given, open, out) in roots_with_fixed_candidates() {
            let t = root[given].trailing_zeros() as u8;
            let mut s = Cdcl::new(&e, &root).unwrap();
            s.assume(&[s.holds(open, out as u8)]);
            assert_eq!(solve(&mut s), Outcome::Exhausted);
            s.assume(&[s.holds(given, t) ^ 1]);
            assert_eq!(solve(&mut s), Outcome::Exhausted);
            s.assume(&[s.holds(given, t), s.holds(open, out as u8) ^ 1]);
            let Outcome::Solution(sol) = solve(&mut s) else {
                panic!("the grid keeps the given");
            };
            assert_eq!(sol[given], t);
            assert_ne!(sol[open] as usize, out);
            // the grid's symbol of the open cell is a candidate and holds in what is found
            s.assume(&[s.holds(open, grid[open])]);
            let Outcome::Solution(sol) = solve(&mut s) else {
                panic!("the grid has it");
            };
            assert_eq!(sol[open], grid[open]);
            s.assume(&[]);
            s.fix(s.holds(open, out as u8));
            assert_eq!(solve(&mut s), Outcome::Exhausted);
        }
    }

    /// A solution's "differs here" clause is satisfied for good where the solution's symbol is
    /// outside the root, and empty (no solution) when it names given cells only; preferred
    /// phases may name symbols outside the root or none at all.
    #[test]
    fn differing_and_preferring_on_fixed_candidates() {
        let (e, grid) = engine_and_grid("classic9");
        for (root, given, open, out) in roots_with_fixed_candidates() {
            let mut s = Cdcl::new(&e, &root).unwrap();
            let mut other = grid.clone();
            other[open] = out as u8;
            s.differ(&[open as u32], &other);
            other[given] = (root[given].trailing_zeros() as u8 + 1) % 9;
            s.differ(&[given as u32], &other);
            s.differ(&[open as u32, given as u32], &other);
            let mut prefer = grid.clone();
            prefer[open] = out as u8;
            prefer[given] = u8::MAX;
            s.prefer(&prefer);
            let Outcome::Solution(sol) = solve(&mut s) else {
                panic!("both clauses hold in the grid");
            };
            assert!((0..81).all(|c| root[c] >> sol[c] & 1 == 1));
            s.differ(&[given as u32], &grid);
            assert_eq!(solve(&mut s), Outcome::Exhausted);
        }
    }

    /// Every root candidate gets one variable, in the order of `(cell, symbol)`, and the map
    /// goes both ways; candidates outside the root have none and stand as `falsum`.
    #[test]
    fn numbers_root_candidates_densely_in_cell_symbol_order() {
        let root: Vec<Mask> = vec![0b1011, 0b0100, 0, 0b1111, 1 << 63];
        let m = VarMap::new(&root);
        assert_eq!(m.count(), 3 + 1 + 4 + 1);
        assert_eq!(m.falsum(), m.count());
        let mut next = 0;
        for (c, &mask) in root.iter().enumerate() {
            assert_eq!(m.of_cell(c).start, next);
            for t in 0..64 {
                match m.var(c, t) {
                    Some(v) => {
                        assert_eq!(mask >> t & 1, 1);
                        assert_eq!(v, next, "cell {c} symbol {t}");
                        assert_eq!((m.cell(v), m.symbol(v)), (c, t));
                        assert_eq!(m.var_or_false(c, t), v);
                        next += 1;
                    }
                    None => {
                        assert_eq!(mask >> t & 1, 0);
                        assert_eq!(m.var_or_false(c, t), m.falsum());
                    }
                }
            }
            assert_eq!(m.of_cell(c).end, next);
        }
        assert_eq!(m.var(0, 64), None);
        assert_eq!(m.var_or_false(0, 200), m.falsum());
    }
}
