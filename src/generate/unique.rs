//! Fast uniqueness checks against a known solution.
//!
//! A generator always knows one solution `S` of the puzzle it is thinning out. "Is the puzzle
//! still unique after removing the givens of cells `R`?" is then the same as "is there a solution
//! that differs from `S` in some cell of `R`?" (a solution agreeing with `S` on `R` satisfies every
//! old given, and the old puzzle was unique). So instead of counting to two, the checker runs one
//! search per cell `r` of `R`, with `r`'s candidates minus `S[r]`, and stops at the first solution:
//! that solution is the certificate that the givens were necessary. Excluding the known solution
//! prunes most of the tree, and the searcher's buffers are reused between checks. A search that
//! the engine would hand to CDCL (see `Options::cdcl`) goes on with [`Cdcl`] below the same
//! candidates, its saved phases set to the known solution (an other solution mostly agrees with
//! it): sparse 25x25 grids leave checks that depth-first search cannot exhaust.

use crate::engine::cdcl::{Cdcl, Outcome};
use crate::engine::propagate::propagate;
use crate::engine::search::Searcher;
use crate::engine::{Budget, Engine, Limits, Mask, Status};

/// The answer to "is there another solution?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Other {
    /// Another solution (symbol per cell): the removed givens were necessary.
    Found(Vec<u8>),
    /// None: the known solution is still the only one.
    NoneExists,
    /// A budget ran out first.
    Unknown,
}

/// Reusable uniqueness checker for one engine.
pub struct Checker<'e> {
    e: &'e Engine,
    searcher: Searcher<'e>,
    queue: Vec<u32>,
    dfs: Dfs<'e>,
    limits: Limits,
    /// Searches run so far.
    pub searches: u64,
    /// Search nodes visited so far.
    pub nodes: u64,
}

impl<'e> Checker<'e> {
    /// A checker whose every search runs under `limits`.
    pub fn new(e: &'e Engine, limits: Limits) -> Self {
        Checker {
            e,
            searcher: Searcher::new(e),
            queue: Vec::with_capacity(e.cell_count()),
            dfs: Dfs::new(e),
            limits,
            searches: 0,
            nodes: 0,
        }
    }

    /// A solution of `givens` that differs from `solution` in at least one of `cells`, where
    /// `givens` agrees with `solution` and `givens ∪ solution[cells]` is known to be unique.
    pub fn other_solution(
        &mut self,
        givens: &[Option<u8>],
        cells: &[u32],
        solution: &[u8],
    ) -> Other {
        let Some(root) = self.searcher.initial(givens) else {
            return Other::NoneExists;
        };
        let mut unknown = false;
        let mut spent = 0u64;
        let mut cand = root.clone();
        for &c in cells {
            let c = c as usize;
            cand.copy_from_slice(&root);
            let m = cand[c] & !(1u64 << solution[c]);
            if m == 0 {
                continue;
            }
            cand[c] = m;
            self.queue.clear();
            if m & (m - 1) == 0 {
                self.queue.push(c as u32);
            }
            if !propagate(self.e, &mut cand, &mut self.queue) {
                continue;
            }
            self.searches += 1;
            // the node budget is shared by the searches of one call
            let limits = Limits {
                max_nodes: self.limits.max_nodes.map(|m| m.saturating_sub(spent)),
                ..self.limits
            };
            if limits.max_nodes == Some(0) {
                unknown = true;
                break;
            }
            // depth-first search first; one that has not settled within the engine's CDCL
            // threshold goes on with CDCL (models of unique shapes only)
            let switch = self
                .e
                .cdcl_after
                .filter(|&t| t > 0 && limits.max_nodes.is_none_or(|m| t < m));
            let capped = Limits {
                max_nodes: switch.or(limits.max_nodes),
                ..limits
            };
            let found = self.dfs.find(&cand, c, solution, capped);
            spent += self.dfs.nodes;
            self.nodes += self.dfs.nodes;
            let found = match (found, switch) {
                (None, Some(t)) if self.dfs.nodes >= t => {
                    let left = Limits {
                        max_nodes: limits.max_nodes.map(|m| m.saturating_sub(self.dfs.nodes)),
                        ..limits
                    };
                    let before = self.nodes;
                    let other = self.by_cdcl(&cand, solution, left);
                    spent += self.nodes - before;
                    match other {
                        Other::Found(s) => return Other::Found(s),
                        Other::NoneExists => Some(false),
                        Other::Unknown => None,
                    }
                }
                (Some(true), _) => return Other::Found(self.dfs.solution()),
                (found, _) => found,
            };
            if found.is_none() {
                unknown = true;
            }
        }
        if unknown {
            Other::Unknown
        } else {
            Other::NoneExists
        }
    }

    /// Any solution below the propagated candidates `cand`, by conflict-driven clause learning.
    fn by_cdcl(&mut self, cand: &[Mask], solution: &[u8], limits: Limits) -> Other {
        let Some(mut solver) = Cdcl::new(self.e, cand) else {
            return Other::Unknown;
        };
        solver.prefer(solution);
        let outcome = solver.solve(&Budget::from(limits));
        self.nodes += solver.decisions();
        match outcome {
            Outcome::Solution(s) => Other::Found(s),
            Outcome::Exhausted => Other::NoneExists,
            Outcome::Unknown => Other::Unknown,
        }
    }

    /// A solution of `givens` other than `solution` (which must be one), by counting to two.
    /// Used when the change is not a removal of givens (e.g. a new set of cages).
    pub fn any_other(&mut self, givens: &[Option<u8>], solution: &[u8]) -> Other {
        self.searches += 1;
        let r = self.searcher.count(givens, 2, self.limits, None);
        self.nodes += r.nodes;
        match r.status() {
            Status::Multiple | Status::Unique | Status::None => r
                .solutions
                .into_iter()
                .find(|s| s.as_slice() != solution)
                .map_or(Other::NoneExists, Other::Found),
            Status::Unknown => match r.solutions.into_iter().find(|s| s.as_slice() != solution) {
                Some(s) => Other::Found(s),
                None => Other::Unknown,
            },
        }
    }
}

/// Depth-first search for any solution, trying the known solution's symbol first at every
/// branch: a second solution usually agrees with the first almost everywhere, so this finds it
/// without wandering through wrong guesses far from the removed givens.
/// Node budget of the first run; each restart doubles it.
const RESTART_NODES: u64 = 2000;

struct Dfs<'e> {
    e: &'e Engine,
    stack: Vec<Mask>,
    queue: Vec<u32>,
    nodes: u64,
    budget: Budget,
    found_at: usize,
    /// Peer-graph distance of each cell from the cell whose symbol is excluded (branching
    /// prefers near cells, so a contradiction there is found before far cells multiply the tree).
    dist: Vec<u32>,
    bfs: Vec<u32>,
    /// Tie-breaking noise of the current restart (all zero on the first run).
    noise: Vec<u32>,
}

impl<'e> Dfs<'e> {
    fn new(e: &'e Engine) -> Self {
        Dfs {
            e,
            stack: Vec::with_capacity(e.cell_count() * 16),
            queue: Vec::with_capacity(e.cell_count()),
            nodes: 0,
            budget: Budget::from(Limits::none()),
            found_at: 0,
            dist: vec![0; e.cell_count()],
            bfs: Vec::with_capacity(e.cell_count()),
            noise: vec![0; e.cell_count()],
        }
    }

    /// Searches from propagated candidates `root`: `Some(found)`, or `None` when the budget ran out.
    fn find(&mut self, root: &[Mask], from: usize, prefer: &[u8], limits: Limits) -> Option<bool> {
        self.dist.fill(255);
        self.dist[from] = 0;
        self.bfs.clear();
        self.bfs.push(from as u32);
        let mut k = 0;
        while k < self.bfs.len() {
            let c = self.bfs[k] as usize;
            k += 1;
            for &p in self.e.peers(c) {
                if self.dist[p as usize] == 255 {
                    self.dist[p as usize] = (self.dist[c] + 1).min(254);
                    self.bfs.push(p);
                }
            }
        }
        // Restarts with doubling node budgets and fresh tie-breaking noise cut the heavy tail of
        // search times; the noise is a fixed function of the restart number, so results repeat.
        let total = Budget::from(limits);
        let mut spent = 0u64;
        let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ from as u64;
        for restart in 0u32.. {
            if restart > 0 {
                for x in self.noise.iter_mut() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    *x = (state >> 56) as u32;
                }
            }
            let cap = RESTART_NODES << restart.min(40);
            self.nodes = 0;
            self.budget = Budget {
                max_nodes: cap.min(total.max_nodes.saturating_sub(spent)),
                deadline: total.deadline,
            };
            self.stack.clear();
            self.stack.extend_from_slice(root);
            let r = self.descend(0, prefer);
            spent += self.nodes;
            match r {
                Some(found) => {
                    self.nodes = spent;
                    return Some(found);
                }
                None if spent >= total.max_nodes || self.nodes < cap => {
                    self.nodes = spent;
                    return None;
                }
                None => {}
            }
        }
        unreachable!("the restart loop returns")
    }

    /// The solution found by the last successful [`Dfs::find`].
    fn solution(&self) -> Vec<u8> {
        let n = self.e.cell_count();
        let base = self.found_at * n;
        self.stack[base..base + n]
            .iter()
            .map(|m| m.trailing_zeros() as u8)
            .collect()
    }

    fn descend(&mut self, depth: usize, prefer: &[u8]) -> Option<bool> {
        let n = self.e.cell_count();
        self.nodes += 1;
        if self.budget.exhausted(self.nodes) {
            return None;
        }
        let base = depth * n;
        let mut best = usize::MAX;
        let mut best_score = u32::MAX;
        for (c, &m) in self.stack[base..base + n].iter().enumerate() {
            let k = m.count_ones();
            if k > 1 {
                let score = k << 16 | self.dist[c] << 8 | self.noise[c];
                if score < best_score {
                    best_score = score;
                    best = c;
                }
            }
        }
        if best == usize::MAX {
            self.found_at = depth;
            return Some(true);
        }
        let options = self.stack[base + best];
        let next = base + n;
        if self.stack.len() < next + n {
            self.stack.resize(next + n, 0);
        }
        let first = 1u64 << prefer[best];
        let mut bits = options & !first;
        let mut pick = if options & first != 0 { first } else { 0 };
        loop {
            if pick == 0 {
                if bits == 0 {
                    return Some(false);
                }
                pick = bits & bits.wrapping_neg();
                bits &= bits - 1;
            }
            self.stack.copy_within(base..base + n, next);
            self.stack[next + best] = pick;
            self.queue.clear();
            self.queue.push(best as u32);
            if propagate(self.e, &mut self.stack[next..next + n], &mut self.queue)
                && self.descend(depth + 1, prefer)?
            {
                return Some(true);
            }
            pick = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;

    #[test]
    fn finds_the_other_solution_of_a_deadly_pattern() {
        // a classic 4x4 grid; removing the four corners of a swappable rectangle gives two solutions
        let g = builtin::load("classic4").unwrap();
        let e = Engine::new(&g);
        let sol: Vec<u8> = [0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0].to_vec();
        let mut givens: Vec<Option<u8>> = sol.iter().map(|&v| Some(v)).collect();
        let mut checker = Checker::new(&e, Limits::none());
        // one cell alone is always implied by the rest
        givens[0] = None;
        assert_eq!(
            checker.other_solution(&givens, &[0], &sol),
            Other::NoneExists
        );
        // r1c1 r1c2 r3c1 r3c2 hold 1 2 / 2 1: a swappable rectangle across boxes 1 and 3
        for c in [1, 8, 9] {
            givens[c] = None;
        }
        match checker.other_solution(&givens, &[0, 1, 8, 9], &sol) {
            Other::Found(s) => {
                assert_ne!(s, sol);
                for (c, g) in givens.iter().enumerate() {
                    if let Some(v) = g {
                        assert_eq!(s[c], *v);
                    }
                }
            }
            other => panic!("expected a second solution, got {other:?}"),
        }
    }
}
