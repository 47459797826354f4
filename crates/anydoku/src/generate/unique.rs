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
//! it; [`Checker::far`] turns this off for sparse Killers, whose second solutions mostly do
//! not): sparse 25x25 grids leave checks that depth-first search cannot exhaust. Once a few checks
//! in a row needed CDCL, the next ones start with it (thinning only makes checks harder), with a
//! depth-first probe now and then in case the checks got easy again.

use crate::engine::cdcl::{Cdcl, Outcome};
use crate::engine::levels::Levels;
use crate::engine::propagate::{propagate_at, propagate_changed_at, propagate_narrowed_at};
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
    /// When every check stops (answering [`Other::Unknown`]), whatever is left of `limits`.
    deadline: Option<std::time::Instant>,
    /// Searches run so far.
    pub searches: u64,
    /// Search nodes visited so far.
    pub nodes: u64,
    /// CDCL searches run so far, their decisions, conflicts and time (for the tuning tools).
    pub cdcl: CdclTally,
    /// Checks in a row whose depth-first searches ran out and went on with CDCL.
    deferred_run: u32,
    /// Checks in a row that went to CDCL without depth-first searches.
    skipped: u32,
    /// Whether CDCL searches start from the known solution's phases (see [`Checker::far`]).
    near: bool,
    /// Hears of every check (see [`Checker::observe`]).
    observer: Option<Observer<'e>>,
    /// Whether a check that would go on with CDCL answers [`Other::Unknown`] instead (see
    /// [`Checker::stop_before_cdcl`]), and whether one did.
    stop_before_cdcl: bool,
    stopped_before_cdcl: bool,
}

/// Hears of every check of a [`Checker`] (see [`Checker::observe`]).
pub type Observer<'e> = Box<dyn FnMut(&Checked) + 'e>;

/// One check as an [`Observer`] sees it: what was asked, what it cost, and the counters so far.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
pub struct Checked<'a> {
    /// The givens checked (without the removed cells' givens).
    pub givens: &'a [Option<u8>],
    /// The removed cells.
    pub cells: &'a [u32],
    /// The known solution.
    pub solution: &'a [u8],
    /// Whether another solution was found.
    pub found: bool,
    /// The check's time.
    pub time: std::time::Duration,
    /// Depth-first search nodes so far.
    pub dfs_nodes: u64,
    /// The CDCL searches so far, and where the time went.
    pub tally: &'a CdclTally,
}

/// After this many checks in a row that depth-first search left to CDCL, the next checks go to
/// CDCL at once (thinning only makes checks harder, so they would too) ...
const SKIP_AFTER: u32 = 2;
/// ... except every `PROBE_EVERY`-th, which tries depth-first search again.
const PROBE_EVERY: u32 = 16;

/// What the CDCL searches of a [`Checker`] cost.
#[derive(Debug, Clone, Copy, Default)]
pub struct CdclTally {
    /// Searches run.
    pub searches: u64,
    /// Their decisions.
    pub decisions: u64,
    /// Their conflicts.
    pub conflicts: u64,
    /// Their time (building the solvers included).
    pub time: std::time::Duration,
    /// Of that time, building the solvers (the root's propagation with the equal cells fixed
    /// and [`Cdcl::new`]).
    pub build: std::time::Duration,
    /// Time in the checks' root propagation (the givens' candidates, once per check).
    pub root: std::time::Duration,
    /// Time in the depth-first probes (the removed cells' narrowed propagation included).
    pub dfs: std::time::Duration,
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
            deadline: None,
            searches: 0,
            nodes: 0,
            cdcl: CdclTally::default(),
            deferred_run: 0,
            skipped: 0,
            near: true,
            observer: None,
            stop_before_cdcl: false,
            stopped_before_cdcl: false,
        }
    }

    /// Makes every later check that would go on with CDCL answer [`Other::Unknown`] instead
    /// (`stop`), for a caller that then builds its puzzle another way ([`super::upward`]);
    /// [`Checker::stopped_before_cdcl`] tells whether one did since.
    pub(super) fn stop_before_cdcl(&mut self, stop: bool) {
        self.stop_before_cdcl = stop;
        self.stopped_before_cdcl = false;
    }

    /// Whether a check answered [`Other::Unknown`] because of [`Checker::stop_before_cdcl`].
    pub(super) fn stopped_before_cdcl(&self) -> bool {
        self.stopped_before_cdcl
    }

    /// Calls `observer` after every check (for the tuning tools: where the time goes while a
    /// long thinning runs).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn observe(&mut self, observer: Observer<'e>) {
        self.observer = Some(observer);
    }

    /// Makes the CDCL searches place symbols by activity instead of starting from the known
    /// solution's phases: for puzzles whose second solutions differ from the first in most
    /// cells (sparse Killers), where the known solution leads the search astray.
    pub fn far(&mut self) {
        self.near = false;
    }

    /// Stops every later check at `deadline` (the end of a whole generation's budget) as well.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    /// The engine the checks run on.
    pub(super) fn engine(&self) -> &'e Engine {
        self.e
    }

    /// `self.limits`, with the time cut to what is left before the deadline.
    pub(super) fn limits_now(&self) -> Limits {
        let Some(deadline) = self.deadline else {
            return self.limits;
        };
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        Limits {
            max_time: Some(self.limits.max_time.map_or(left, |t| t.min(left))),
            ..self.limits
        }
    }

    /// The budget of one more search on a solver kept across searches that has made
    /// `decisions` decisions so far: [`Checker::limits_now`], its node limit counted from
    /// there.
    pub(super) fn budget_after(&self, decisions: u64) -> Budget {
        let limits = self.limits_now();
        Budget {
            max_nodes: decisions.saturating_add(limits.max_nodes.unwrap_or(u64::MAX)),
            ..Budget::from(limits)
        }
    }

    /// A solution of `givens` that differs from `solution` in at least one of `cells`, where
    /// `givens` agrees with `solution` and `givens ∪ solution[cells]` is known to be unique.
    ///
    /// Each cell gets its own depth-first search first (the cell's symbol in `solution`
    /// excluded); the cells it does not settle within the engine's threshold
    /// ([`Engine::cdcl_switch`]) go together to one CDCL search, with the clause "one of them
    /// differs from `solution`", the cells found to agree with `solution` in every solution
    /// fixed, and the phases set to `solution`.
    pub fn other_solution(
        &mut self,
        givens: &[Option<u8>],
        cells: &[u32],
        solution: &[u8],
    ) -> Other {
        if self.observer.is_none() {
            return self.check(givens, cells, solution);
        }
        let t = std::time::Instant::now();
        let other = self.check(givens, cells, solution);
        let checked = Checked {
            givens,
            cells,
            solution,
            found: matches!(other, Other::Found(_)),
            time: t.elapsed(),
            dfs_nodes: self.nodes - self.cdcl.decisions,
            tally: &self.cdcl,
        };
        if let Some(observer) = self.observer.as_mut() {
            observer(&checked);
        }
        other
    }

    /// [`Checker::other_solution`], unobserved.
    fn check(&mut self, givens: &[Option<u8>], cells: &[u32], solution: &[u8]) -> Other {
        let t0 = std::time::Instant::now();
        let root = self.searcher.initial(givens);
        self.cdcl.root += t0.elapsed();
        let Some(root) = root else {
            return Other::NoneExists;
        };
        let t0 = std::time::Instant::now();
        let max_nodes = self.limits.max_nodes.unwrap_or(u64::MAX);
        let out_of_time = |l: &Limits| l.max_time.is_some_and(|t| t.is_zero());
        let mut switch = self.e.cdcl_switch(max_nodes);
        // a run of checks that depth-first search could not settle: skip it, probing now and then
        let skip =
            switch.is_some() && self.deferred_run >= SKIP_AFTER && self.skipped < PROBE_EVERY;
        if skip {
            switch = Some(0);
            self.skipped += 1;
        } else {
            self.skipped = 0;
        }
        let mut unknown = false;
        let mut spent = 0u64;
        // cells left to CDCL, and cells that agree with `solution` in every solution
        let (mut deferred, mut equal) = (Vec::new(), Vec::new());
        let mut cand = root.clone();
        for &c in cells {
            let c = c as usize;
            cand.copy_from_slice(&root);
            let m = cand[c] & !(1u64 << solution[c]);
            self.queue.clear();
            // (a single symbol left is placed; none left is no other solution here)
            if m != 0 && m & (m - 1) == 0 {
                self.queue.push(c as u32);
            }
            cand[c] = m;
            // `root` is a fixpoint: only the shapes of `c` and of the cells that change rescan
            if m == 0
                || !propagate_narrowed_at(
                    self.e,
                    &mut cand,
                    &mut self.queue,
                    &[c as u32],
                    self.e.alldiff_always(),
                )
            {
                equal.push(c as u32);
                continue;
            }
            if switch == Some(0) {
                deferred.push(c as u32);
                continue;
            }
            self.searches += 1;
            // the node budget is shared by the searches of one call
            let left = max_nodes.saturating_sub(spent);
            let now = self.limits_now();
            if left == 0 || out_of_time(&now) {
                unknown = true;
                break;
            }
            let cap = switch.map_or(left, |t| t.min(left));
            let limits = Limits {
                max_nodes: Some(cap),
                ..now
            };
            let found = self.dfs.find(&cand, c, solution, limits);
            spent += self.dfs.nodes;
            self.nodes += self.dfs.nodes;
            match found {
                Some(true) => {
                    self.deferred_run = 0;
                    self.cdcl.dfs += t0.elapsed();
                    return Other::Found(self.dfs.solution());
                }
                Some(false) => equal.push(c as u32),
                None if switch == Some(cap) && self.dfs.nodes >= cap => deferred.push(c as u32),
                None => unknown = true,
            }
        }
        if !skip {
            self.deferred_run = if deferred.is_empty() {
                0
            } else {
                self.deferred_run + 1
            };
        }
        self.cdcl.dfs += t0.elapsed();
        if !deferred.is_empty() && self.stop_before_cdcl {
            self.stopped_before_cdcl = true;
            return Other::Unknown;
        }
        if !deferred.is_empty() {
            let left = max_nodes.saturating_sub(spent);
            let t = std::time::Instant::now();
            let cdcl = self.cdcl_other(&root, &equal, &deferred, solution, left);
            self.cdcl.searches += 1;
            self.cdcl.time += t.elapsed();
            match cdcl {
                Other::Found(s) => return Other::Found(s),
                Other::NoneExists => {}
                Other::Unknown => unknown = true,
            }
        }
        if unknown {
            Other::Unknown
        } else {
            Other::NoneExists
        }
    }

    /// The CDCL half of [`Checker::other_solution`]: below the propagated candidates `root`
    /// with the cells of `equal` fixed to their symbol in `solution`, a solution that differs
    /// from `solution` in one of `cells`, under `max_nodes` decisions.
    fn cdcl_other(
        &mut self,
        root: &[Mask],
        equal: &[u32],
        cells: &[u32],
        solution: &[u8],
        max_nodes: u64,
    ) -> Other {
        let limits = Limits {
            max_nodes: Some(max_nodes),
            ..self.limits_now()
        };
        if max_nodes == 0 || limits.max_time.is_some_and(|t| t.is_zero()) {
            return Other::Unknown;
        }
        let budget = Budget::from(limits);
        let t0 = std::time::Instant::now();
        let mut cand = root.to_vec();
        self.queue.clear();
        for &c in equal {
            cand[c as usize] = 1 << solution[c as usize];
            self.queue.push(c);
        }
        if !propagate_at(self.e, &mut cand, &mut self.queue, true) {
            return Other::NoneExists;
        }
        let Some(mut solver) = Cdcl::new(self.e, &cand) else {
            return Other::Unknown;
        };
        self.cdcl.build += t0.elapsed();
        self.searches += 1;
        solver.differ(cells, solution);
        if self.near {
            solver.prefer(solution);
        }
        let outcome = solver.solve(&budget);
        self.nodes += solver.decisions();
        self.cdcl.decisions += solver.decisions();
        self.cdcl.conflicts += solver.conflicts();
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
        let r = self.searcher.count(givens, 2, self.limits_now());
        self.nodes += r.nodes;
        match r.status() {
            Status::Multiple | Status::Unique | Status::NoSolution => r
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

/// The open choice of one level: a cell, the known solution's symbol for it (`first`, tried
/// first; 0 once tried or when it is not a candidate), and its other symbols not tried yet.
struct Frame {
    cell: u32,
    first: Mask,
    left: Mask,
}

/// A depth-first search for any solution, as a loop over [`Frame`]s (no recursion) on
/// [`Levels`] (memory linear in the cells).
struct Dfs<'e> {
    e: &'e Engine,
    levels: Levels,
    frames: Vec<Frame>,
    queue: Vec<u32>,
    nodes: u64,
    budget: Budget,
    /// The solution found by the last successful [`Dfs::find`].
    found: Vec<u8>,
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
            levels: Levels::new(e.cell_count(), false),
            frames: Vec::new(),
            queue: Vec::with_capacity(e.cell_count()),
            nodes: 0,
            budget: Budget::from(Limits::none()),
            found: Vec::new(),
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
            let r = self.descend(root, prefer);
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
        self.found.clone()
    }

    /// Searches from `root` (propagated) for a solution, trying `prefer`'s symbol first at
    /// every branch: `Some(found)`, or `None` when the budget ran out. Each child is its
    /// parent's fixpoint with one cell narrowed, so propagation rescans only the shapes of the
    /// cells that change.
    fn descend(&mut self, root: &[Mask], prefer: &[u8]) -> Option<bool> {
        self.levels.reset(root);
        self.frames.clear();
        if let Some(done) = self.enter(prefer) {
            return done;
        }
        while let Some(level) = self.frames.len().checked_sub(1) {
            self.levels.back_to(level);
            let f = &mut self.frames[level];
            let pick = if f.first != 0 {
                std::mem::take(&mut f.first)
            } else if f.left != 0 {
                let bit = f.left & f.left.wrapping_neg();
                f.left &= f.left - 1;
                bit
            } else {
                self.frames.pop();
                continue;
            };
            let cell = f.cell;
            let cand = self.levels.child();
            cand[cell as usize] = pick;
            self.queue.clear();
            self.queue.push(cell);
            if propagate_changed_at(self.e, cand, &mut self.queue, self.e.alldiff_always()) {
                self.levels.keep();
                if let Some(done) = self.enter(prefer) {
                    return done;
                }
            } else {
                self.levels.drop_child();
            }
        }
        Some(false)
    }

    /// Visits the deepest level: `Some` when the search ends there (a solution found, or the
    /// budget spent), else its choice is opened.
    fn enter(&mut self, prefer: &[u8]) -> Option<Option<bool>> {
        self.nodes += 1;
        if self.budget.exhausted(self.nodes) {
            return Some(None);
        }
        let cand = self.levels.top();
        let mut best = usize::MAX;
        let mut best_score = u32::MAX;
        for (c, &m) in cand.iter().enumerate() {
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
            self.found.clear();
            self.found
                .extend(cand.iter().map(|m| m.trailing_zeros() as u8));
            return Some(Some(true));
        }
        let options = cand[best];
        let first = 1u64 << prefer[best];
        self.frames.push(Frame {
            cell: best as u32,
            first: options & first,
            left: options & !first,
        });
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;

    /// The checker with CDCL from the start and without CDCL gives the same answers on random
    /// removals from random 9x9 and 16x16 grids; every other solution either finds keeps the
    /// givens, differs from the grid in a removed cell and is a complete solution (counted by
    /// the depth-first searcher with it as givens).
    #[test]
    fn cdcl_and_depth_first_checks_agree() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for (name, keep) in [("classic9", 40..70), ("classic16", 170..240)] {
            let g = builtin::load(name).unwrap();
            let (with, without) = Engine::with_and_without_cdcl(&g);
            let mut checks = (0, 0);
            for _ in 0..12 {
                let sol = super::super::grid::random_grid(&without, &mut rng, 100).unwrap();
                let n = sol.len();
                let mut givens: Vec<Option<u8>> = vec![None; n];
                for _ in 0..rng.gen_range(keep.clone()) {
                    let c = rng.gen_range(0..n);
                    givens[c] = Some(sol[c]);
                }
                let cells: Vec<u32> = (0..n as u32)
                    .filter(|&c| givens[c as usize].is_none())
                    .take(3)
                    .collect();
                let a = Checker::new(&with, Limits::none()).other_solution(&givens, &cells, &sol);
                let b =
                    Checker::new(&without, Limits::none()).other_solution(&givens, &cells, &sol);
                assert_eq!(
                    matches!(a, Other::Found(_)),
                    matches!(b, Other::Found(_)),
                    "{name}: {a:?} against {b:?}"
                );
                for other in [a, b] {
                    match other {
                        Other::Found(o) => {
                            checks.0 += 1;
                            assert!(givens
                                .iter()
                                .zip(&o)
                                .all(|(g, v)| g.is_none_or(|g| g == *v)));
                            assert!(cells.iter().any(|&c| o[c as usize] != sol[c as usize]));
                            let full: Vec<Option<u8>> = o.iter().map(|&v| Some(v)).collect();
                            assert_eq!(without.count(&full, 2, Limits::none()).count, 1);
                        }
                        Other::NoneExists => checks.1 += 1,
                        Other::Unknown => panic!("{name}: unknown without a budget"),
                    }
                }
            }
            assert!(
                checks.0 > 0 && checks.1 > 0,
                "{name}: both answers seen: {checks:?}"
            );
        }
    }

    /// A checker that skips depth-first search (after a run of checks left to CDCL) answers as
    /// a checker without CDCL does, and then probes depth-first search again: on random removals
    /// from random 16x16 grids, the same answers, every other solution valid.
    #[test]
    fn checks_that_skip_depth_first_search_agree() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let g = builtin::load("classic16").unwrap();
        let (with, without) = (Engine::new(&g), Engine::with_and_without_cdcl(&g).1);
        assert!(with.cdcl_switch(u64::MAX).is_some_and(|t| t > 0));
        let mut skipping = Checker::new(&with, Limits::none());
        let (mut skipped, mut probed, mut found) = (0, 0, 0);
        for _ in 0..40 {
            let sol = super::super::grid::random_grid(&without, &mut rng, 100).unwrap();
            let n = sol.len();
            let mut givens: Vec<Option<u8>> = vec![None; n];
            for _ in 0..rng.gen_range(150..230) {
                let c = rng.gen_range(0..n);
                givens[c] = Some(sol[c]);
            }
            let cells: Vec<u32> = (0..n as u32)
                .filter(|&c| givens[c as usize].is_none())
                .take(2)
                .collect();
            // as after a run of checks that depth-first search left to CDCL
            skipping.deferred_run = skipping.deferred_run.max(SKIP_AFTER);
            let cdcl_before = skipping.cdcl.searches;
            let a = skipping.other_solution(&givens, &cells, &sol);
            match skipping.skipped {
                0 => probed += 1,
                _ => skipped += 1,
            }
            let b = Checker::new(&without, Limits::none()).other_solution(&givens, &cells, &sol);
            assert_eq!(matches!(a, Other::Found(_)), matches!(b, Other::Found(_)));
            if let Other::Found(o) = a {
                found += 1;
                assert!(givens
                    .iter()
                    .zip(&o)
                    .all(|(g, v)| g.is_none_or(|g| g == *v)));
                assert!(cells.iter().any(|&c| o[c as usize] != sol[c as usize]));
                let full: Vec<Option<u8>> = o.iter().map(|&v| Some(v)).collect();
                assert_eq!(without.count(&full, 2, Limits::none()).count, 1);
            }
            assert!(skipping.skipped == 0 || skipping.cdcl.searches >= cdcl_before);
        }
        assert!(
            skipped > 0 && probed > 0 && found > 0,
            "{skipped} {probed} {found}"
        );
    }

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
