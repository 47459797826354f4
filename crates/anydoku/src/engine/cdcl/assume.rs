//! Solving under assumptions with guarded sum shapes: one solver kept across many checks of
//! puzzles that differ by which sum shapes are in them (a Killer generator dropping cages).
//!
//! Each sum shape gets a *guard* variable: the shape propagates only while its guard is true,
//! and every explanation it gives carries the guard's negation ([`Cdcl::explain_sum`]). Every
//! clause the solver learns is then a consequence of the stored clauses and the guarded
//! shapes, whichever shapes a check switches on, so learnt clauses stay valid from one check to
//! the next (as in MiniSat's solving under assumptions). A check lists its assumptions (the
//! guards of the shapes in its puzzle, and guards of its own clauses, [`Cdcl::add_guarded`]);
//! the search decides them first, one per level, and a check whose assumption goes false has
//! no solution. A guard fixed at the root ([`Cdcl::fix`]) switches its shape on (or off) for
//! good, and keeps its level out of the learnt clauses.
//!
//! Guards switch sum shapes only: peers and complete shapes stay. An engine whose sum shapes
//! must leave no trace when off is built by [`guarded_engine`] (the peer relation of the
//! geometry without them; each law-of-45 shape guarded too, and switched on only with every
//! cage it depends on).
//!
//! To guard another kind of propagator, give it a guard variable the same way: skip it while
//! the guard is not true, and add the guard's negation to its explanations.

use super::{Cdcl, Lit, FALSE, NO_REASON, TRUE, UNDEF};
use crate::engine::{sum, Engine, Mask, Options, SumShape};
use crate::geometry::{Geometry, Rule};

/// The engine of `with_sums` (a geometry: `base` plus cages, unique sum shapes) whose sum
/// shapes can be switched off without a trace, and what each of its sum shapes depends on.
/// The cages come first, in the geometry's order, then the law-of-45 shapes derived from them;
/// the peers are `base`'s (a cage's cells would otherwise stay peers while it is off; its own
/// filter keeps them different while it is on). Per sum shape, the cages that must be on for
/// it to hold: none for a cage, for a derived shape every cage meeting its union of complete
/// shapes or its cells.
pub(crate) fn guarded_engine(with_sums: &Geometry, base: &Geometry) -> (Engine, Vec<Vec<u32>>) {
    let options = Options {
        derived: false,
        ..Options::default()
    };
    let mut e = Engine::with_options(with_sums, options);
    let cages = e.sums.len();
    let mut cage_of = vec![u32::MAX; e.n_cells];
    for (k, s) in e.sums.iter().enumerate() {
        for &c in &s.cells {
            cage_of[c as usize] = k as u32;
        }
    }
    let mut deps = vec![Vec::new(); cages];
    for (shape, union) in crate::geometry::partition::derive_sourced(with_sums) {
        let Rule::Sum { total, unique } = shape.rule else {
            continue;
        };
        let cells: Vec<u32> = shape.cells.iter().map(|c| c.0).collect();
        let mut on: Vec<u32> = union
            .iter()
            .map(|c| c.0)
            .chain(cells.iter().copied())
            .map(|c| cage_of[c as usize])
            .filter(|&k| k != u32::MAX)
            .collect();
        on.sort_unstable();
        on.dedup();
        deps.push(on);
        e.sums.push(SumShape {
            cells,
            total,
            unique,
        });
    }
    e.derived = e.sums.len() - cages;
    // the cages' peers still count here: a derived shape holds only while its cages are on
    let is_peer = |a: u32, b: u32| e.peers(a as usize).binary_search(&b).is_ok();
    let tables = sum::Tables::new(&e.sums, &e.values, &is_peer);
    e.sum_tables = tables;
    let plain = Engine::with_options(base, options);
    e.peer_start = plain.peer_start;
    e.peers = plain.peers;
    (e, deps)
}

impl<'e> Cdcl<'e> {
    /// A solver of `e` below `root` whose sum shapes are guarded (each off until its guard,
    /// [`Cdcl::guard`], is assumed or fixed true), with `extra` more guards for clauses
    /// ([`Cdcl::extra`]). `None` when `root` is not one candidate set per cell or `e` has no
    /// sum shapes.
    pub(crate) fn guarded(e: &'e Engine, root: &[Mask], extra: usize) -> Option<Self> {
        if e.sums.is_empty() {
            return None;
        }
        let mut s = Self::with_extra(e, root, e.sums.len() + extra)?;
        let first = s.value.len() / 2 - e.sums.len() - extra;
        for v in first..first + e.sums.len() + extra {
            s.value[2 * v] = UNDEF;
            s.value[2 * v + 1] = UNDEF;
        }
        s.sums.as_mut()?.guard_first = first;
        Some(s)
    }

    /// The literal switching sum shape `i` on.
    pub(crate) fn guard(&self, i: usize) -> Lit {
        let first = self.sums.as_ref().map_or(0, |s| s.guard_first);
        2 * (first + i) as Lit
    }

    /// The literal "cell `c` holds symbol `t`" (to assume a cell's symbol).
    pub(crate) fn holds(&self, c: usize, t: u8) -> Lit {
        // a candidate outside the root is `falsum`: false, as an assumption it fails
        2 * self.map.var_or_false(c, t as usize) as Lit
    }

    /// The `k`-th extra guard's literal (see [`Cdcl::guarded`]).
    pub(crate) fn extra(&self, k: usize) -> Lit {
        self.guard(self.e.sums.len() + k)
    }

    /// Adds the clause "`guard` is false, or one of `cells` holds another symbol than in
    /// `sol`": assuming `guard` asks for a solution that differs from `sol` there.
    pub(crate) fn add_guarded(&mut self, guard: Lit, cells: &[u32], sol: &[u8]) {
        self.backtrack(0);
        let map = &self.map;
        let mut clause = vec![guard ^ 1];
        clause.extend(
            cells
                .iter()
                .map(|&c| 2 * map.var_or_false(c as usize, sol[c as usize] as usize) as Lit + 1)
                .filter(|&l| self.lit_value(l) != FALSE),
        );
        if clause.len() == 1 {
            self.fix(clause[0]);
        } else {
            self.add_clause(&clause, false, 0);
        }
    }

    /// Makes `lit` true at the root for good (a shape kept or dropped for good). A literal
    /// already false there leaves the solver without solutions.
    pub(crate) fn fix(&mut self, lit: Lit) {
        self.backtrack(0);
        match self.lit_value(lit) {
            UNDEF => self.enqueue(lit, NO_REASON),
            FALSE => self.ok = false,
            _ => {}
        }
    }

    /// Sets the literals the next searches decide first (see the module docs).
    pub(crate) fn assume(&mut self, lits: &[Lit]) {
        self.backtrack(0);
        self.assumptions.clear();
        self.assumptions.extend_from_slice(lits);
    }

    /// The next assumption to decide: `Ok(None)` once all hold (an assumption already true
    /// gets an empty level of its own), `Err` when one is false (no solution under them).
    pub(super) fn next_assumption(&mut self) -> Result<Option<Lit>, ()> {
        while let Some(&p) = self.assumptions.get(self.trail_lim.len()) {
            match self.lit_value(p) {
                TRUE => self.trail_lim.push(self.trail.len()),
                FALSE => return Err(()),
                _ => return Ok(Some(p)),
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sum_tests::all_4x4_grids;
    use super::super::Outcome;
    use super::*;
    use crate::engine::Budget;
    use crate::geometry::{builtin, CellId, Shape, ShapeKind};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// Whether `grid` keeps cage `cells` different and adding up as in `sol`.
    fn keeps(grid: &[u8], sol: &[u8], cells: &[u32]) -> bool {
        let sum = |g: &[u8]| cells.iter().map(|&c| g[c as usize] as i64 + 1).sum::<i64>();
        let mut seen = 0u32;
        cells.iter().all(|&c| {
            let bit = 1 << grid[c as usize];
            let fresh = seen & bit == 0;
            seen |= bit;
            fresh
        }) && sum(grid) == sum(sol)
    }

    /// One guarded solver, kept across the drop checks of random 4x4 Killers (cages of one to
    /// three cells anywhere, so a cage's cells need not be peers), answers every check as brute
    /// force over all 288 grids does: is there a grid other than the known one, keeping every
    /// cage still on but the one checked, that differs from it in the checked cage? Found
    /// grids are checked the same way.
    #[test]
    fn one_guarded_solver_answers_every_drop_check_like_brute_force() {
        let grids = all_4x4_grids();
        let base = builtin::load("classic4").unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let (mut found, mut none) = (0, 0);
        for _ in 0..60 {
            let sol = grids.choose(&mut rng).unwrap().clone();
            // random cages of distinct symbols
            let mut cells: Vec<u32> = (0..16).collect();
            cells.shuffle(&mut rng);
            let mut cages: Vec<Vec<u32>> = Vec::new();
            for c in cells {
                let size = rng.gen_range(1..=3);
                match cages.iter_mut().find(|k| {
                    k.len() < size && k.iter().all(|&d| sol[d as usize] != sol[c as usize])
                }) {
                    Some(k) => k.push(c),
                    None => cages.push(vec![c]),
                }
            }
            for k in &mut cages {
                k.sort_unstable();
            }
            let shapes = cages.iter().enumerate().map(|(i, k)| Shape {
                name: format!("Cage {i}"),
                rule: Rule::Sum {
                    total: k.iter().map(|&c| sol[c as usize] as i64 + 1).sum(),
                    unique: true,
                },
                cells: k.iter().map(|&c| CellId(c)).collect(),
                kind: ShapeKind::Cage,
            });
            let g = base.with_extra_shapes(shapes.collect()).unwrap();
            let (e, deps) = guarded_engine(&g, &base);
            let n_cages = cages.len();
            assert!(deps[..n_cages].iter().all(|d| d.is_empty()));
            assert!(deps[n_cages..].iter().all(|d| !d.is_empty()));
            let root = vec![e.full; 16];
            let mut s = Cdcl::guarded(&e, &root, n_cages).unwrap();
            s.exclude(&sol);
            for (k, cage) in cages.iter().enumerate() {
                assert_eq!(e.sums[k].cells, *cage);
                s.add_guarded(s.extra(k), cage, &sol);
            }
            let mut on = vec![true; n_cages];
            let mut order: Vec<usize> = (0..n_cages).collect();
            order.shuffle(&mut rng);
            for k in order {
                let mut assume: Vec<Lit> = (0..n_cages)
                    .filter(|&j| j != k && on[j])
                    .map(|j| s.guard(j))
                    .collect();
                for (d, dep) in deps.iter().enumerate().skip(n_cages) {
                    if dep.iter().all(|&j| j as usize != k && on[j as usize]) {
                        assume.push(s.guard(d));
                    }
                }
                assume.push(s.extra(k));
                s.assume(&assume);
                let kept = |grid: &[u8]| {
                    grid != sol.as_slice()
                        && cages[k]
                            .iter()
                            .any(|&c| grid[c as usize] != sol[c as usize])
                        && (0..n_cages).all(|j| j == k || !on[j] || keeps(grid, &sol, &cages[j]))
                };
                let exists = grids.iter().any(|g| kept(g));
                match s.solve(&Budget::from(crate::engine::Limits::none())) {
                    Outcome::Solution(other) => {
                        assert!(exists && kept(&other) && grids.contains(&other));
                        found += 1;
                    }
                    Outcome::Exhausted => {
                        assert!(!exists, "a second solution was missed");
                        none += 1;
                        // dropped for good, as the generator does
                        on[k] = false;
                        s.fix(s.guard(k) ^ 1);
                    }
                    Outcome::Unknown => panic!("unknown without a budget"),
                }
            }
        }
        assert!(found > 20 && none > 20, "{found} {none}");
    }
}
