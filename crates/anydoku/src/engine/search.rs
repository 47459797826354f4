//! Depth-first search with solution counting.
//!
//! The search keeps its candidate arrays level by level in [`Levels`] (memory linear in the
//! cells); a branch copies the parent's array, fixes one symbol and propagates. The branching
//! cell is the one with the fewest candidates (ties: the first), or among two-candidate cells
//! the one whose branches narrow its peers most. Symbols are tried in ascending order. The
//! search is a loop over an explicit stack of [`Branch`]es, not a recursion, so however deep it
//! goes it needs no more native stack than a shallow one.
//!
//! [`Searcher::count`] is also where the kernels meet: plain counts go to the bitboard kernel
//! ([`super::board`]) when the engine has one, and a uniqueness check that depth-first search has
//! not settled within the engine's `cdcl_after` nodes (or that stalled: `cdcl_stall` dead ends)
//! goes on with [`super::cdcl`].

use super::board::BoardSearch;
use super::levels::Levels;
use super::propagate::{propagate, propagate_at, propagate_changed_at};
use super::{cdcl, Budget, Count, Engine, Limits, Mask};

/// The choice made at one node of the search, and how far its options have been tried.
#[derive(Debug, Clone, Copy)]
enum Branch {
    /// The symbols of a cell not tried yet (ascending).
    Cell { cell: u32, left: Mask },
    /// The two places of a symbol (`bit`) in complete shape `shape`: members from `next` on.
    Places { shape: u32, bit: Mask, next: u32 },
}

/// The most solutions a count excludes by clauses ([`Searcher::count_sparse`]): each clause
/// lists every open cell, so this bounds the memory a count by clause learning takes.
const CDCL_COUNT_CAP: u64 = 10_000;

/// Reusable search state for one engine: the candidate arrays and the propagation queue.
pub struct Searcher<'e> {
    e: &'e Engine,
    levels: Levels,
    /// The open choices: `branches[d]` is the one of level `d`.
    branches: Vec<Branch>,
    queue: Vec<u32>,
    nodes: u64,
    found: u64,
    limit: u64,
    stopped: bool,
    budget: Budget,
    solutions: Vec<Vec<u8>>,
    keep: usize,
    /// Whether the all-different filter runs at each node of the current search.
    strong: bool,
    /// The bitboard kernel, when the engine has one (used for plain counts).
    board: Option<BoardSearch<'e>>,
    /// Dead ends met by the current cell-major search, and how many stop it.
    pub(super) fails: u64,
    max_fails: u64,
}

impl<'e> Searcher<'e> {
    /// A searcher for `e`; reuse it across puzzles to avoid reallocating.
    pub fn new(e: &'e Engine) -> Self {
        Searcher {
            e,
            levels: Levels::new(e.n_cells, false),
            branches: Vec::new(),
            queue: Vec::with_capacity(e.n_cells),
            nodes: 0,
            found: 0,
            limit: 0,
            stopped: false,
            budget: Budget::from(Limits::none()),
            solutions: Vec::new(),
            keep: 2,
            strong: false,
            board: e.board.as_ref().map(BoardSearch::new),
            fails: 0,
            max_fails: u64::MAX,
        }
    }

    /// A searcher that keeps its levels with an undo trail whatever the model's size (see
    /// [`Levels`]): the same nodes as [`Searcher::new`] (tested), for tests and measurements.
    #[cfg(any(test, feature = "internals"))]
    #[doc(hidden)]
    pub fn with_trail(e: &'e Engine) -> Self {
        let mut s = Searcher::new(e);
        s.levels = Levels::new(e.n_cells, true);
        s
    }

    /// How many of the solutions it finds [`Searcher::count`] returns: 2 (the default and the
    /// most), 1, or 0 for checks that need only the count (uniqueness tests, throughput runs),
    /// which then allocate nothing per puzzle.
    pub fn keep_solutions(&mut self, keep: usize) {
        self.keep = keep.min(2);
        if let Some(board) = &mut self.board {
            board.keep = self.keep;
        }
    }

    /// The initial candidates for the givens (propagated), or `None` if they already clash.
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn initial_candidates(&mut self, givens: &[Option<u8>]) -> Option<Vec<Mask>> {
        self.initial(givens)
    }

    /// The initial candidates for the givens, or `None` if they already clash.
    pub(crate) fn initial(&mut self, givens: &[Option<u8>]) -> Option<Vec<Mask>> {
        let e = self.e;
        let mut cand = vec![e.full; e.n_cells];
        self.queue.clear();
        for (c, g) in givens.iter().enumerate() {
            if let Some(s) = g {
                let bit = 1 << *s;
                if cand[c] & bit == 0 {
                    return None;
                }
                cand[c] = bit;
                self.queue.push(c as u32);
            }
        }
        for (c, &m) in cand.iter().enumerate() {
            if m & (m - 1) == 0 && givens[c].is_none() {
                self.queue.push(c as u32);
            }
        }
        propagate(e, &mut cand, &mut self.queue).then_some(cand)
    }

    /// Counts solutions of `givens` (symbol indices per cell, `None` for an empty cell) up to
    /// `limit` under the budget `limits`, keeping the first two (or as many as
    /// [`Searcher::keep_solutions`] says).
    ///
    /// A plain uniqueness check (`limit` at most 2) of a model that has a CDCL
    /// form ([`Engine`]'s `cdcl_after`) that the depth-first search has not settled within
    /// that many nodes, or that met the engine's `cdcl_stall` dead ends first, goes on with
    /// conflict-driven clause learning from the root, under what is left of the budget. A
    /// larger count does so only when that first stretch found fewer than two solutions
    /// (see `count_many`).
    pub fn count(&mut self, givens: &[Option<u8>], limit: u64, limits: Limits) -> Count {
        let budget = Budget::from(limits);
        let switch = self.e.cdcl_switch(budget.max_nodes);
        if limit > 2 {
            return match switch.filter(|&t| t > 0) {
                Some(t) => self.count_many(givens, limit, budget, t),
                None => self.count_dfs(givens, limit, budget, true),
            };
        }
        if switch == Some(0) {
            return self.count_cdcl(givens, limit, budget, 0);
        }
        let capped = Budget {
            max_nodes: switch.unwrap_or(budget.max_nodes),
            ..budget
        };
        self.fails = 0;
        self.max_fails = switch.and(self.e.cdcl_stall).unwrap_or(u64::MAX);
        let dfs = self.count_dfs(givens, limit, capped, switch.is_none());
        let stalled = self.fails >= self.max_fails;
        self.max_fails = u64::MAX;
        match switch {
            Some(t)
                if !dfs.complete && (dfs.nodes >= t || stalled) && !budget.deadline_passed() =>
            {
                self.count_cdcl(givens, limit, budget, dfs.nodes)
            }
            _ => dfs,
        }
    }

    /// A count past 2 on a model with a CDCL form that switches after `switch` nodes: a first
    /// depth-first search of that many nodes (or the engine's `cdcl_stall` dead ends) tells
    /// whether it finds solutions readily. If it found two, the whole count is depth-first
    /// (from the root again); if it found fewer, the solutions are sparse and depth-first
    /// search may wander for ages before the next one, so clause learning counts them from
    /// the root (each solution found is excluded by a clause, until none is left, the limit is
    /// reached or the budget runs out).
    fn count_many(
        &mut self,
        givens: &[Option<u8>],
        limit: u64,
        budget: Budget,
        switch: u64,
    ) -> Count {
        self.fails = 0;
        self.max_fails = self.e.cdcl_stall.unwrap_or(u64::MAX);
        let capped = Budget {
            max_nodes: switch,
            ..budget
        };
        let probe = self.count_dfs(givens, limit, capped, false);
        let stalled = self.fails >= self.max_fails;
        self.max_fails = u64::MAX;
        if probe.complete || budget.deadline_passed() || !(probe.nodes >= switch || stalled) {
            return probe;
        }
        if probe.count < 2 {
            return self.count_sparse(givens, limit, budget, probe.nodes, CDCL_COUNT_CAP);
        }
        let left = Budget {
            max_nodes: budget.max_nodes.saturating_sub(probe.nodes),
            ..budget
        };
        let mut count = self.count_dfs(givens, limit, left, true);
        count.nodes += probe.nodes;
        count
    }

    /// Counts solutions that depth-first search finds too rarely, by clause learning: each
    /// solution found is excluded by a clause, up to `cap` of them. Past that the blocking
    /// clauses would grow with the count, and solutions are no longer rare, so depth-first
    /// search (in fixed memory) counts from the root again under what is left of the budget.
    pub(crate) fn count_sparse(
        &mut self,
        givens: &[Option<u8>],
        limit: u64,
        budget: Budget,
        spent: u64,
        cap: u64,
    ) -> Count {
        let first = self.count_cdcl(givens, limit.min(cap), budget, spent);
        if first.count < cap || limit <= cap || budget.deadline_passed() {
            return first;
        }
        let left = Budget {
            max_nodes: budget.max_nodes.saturating_sub(first.nodes),
            ..budget
        };
        let mut count = self.count_dfs(givens, limit, left, true);
        count.nodes += first.nodes;
        if !count.complete && count.count < first.count {
            count.count = first.count;
            count.solutions = first.solutions;
        }
        count
    }

    /// Depth-first search, on the bitboard kernel when the engine has one and the count is
    /// plain. `adaptive`: with the engine's adaptive all-different filter, a search that hits
    /// its cheap cap starts again from the root with the filter.
    fn count_dfs(
        &mut self,
        givens: &[Option<u8>],
        limit: u64,
        budget: Budget,
        adaptive: bool,
    ) -> Count {
        let plain = self.e.alldiff_after.is_none();
        if let (Some(board), true) = (&mut self.board, plain) {
            return board.count_within(givens, limit, budget);
        }
        self.nodes = 0;
        self.fails = 0;
        self.found = 0;
        self.limit = limit.max(1);
        self.stopped = false;
        self.budget = budget;
        self.solutions.clear();
        if let Some(root) = self.initial(givens) {
            // Adaptive all-different: a first, cheap search under a node cap; if it hits the
            // cap, start again from the root with the filter at every node (decisions made
            // without it near the root are what make sparse wide puzzles hard, so switching it
            // on midway is not enough).
            let cheap_cap = self
                .e
                .alldiff_after
                .filter(|&t| adaptive && t > 0 && t < budget.max_nodes);
            self.strong = self.e.alldiff_always();
            if let Some(cap) = cheap_cap {
                self.budget.max_nodes = cap;
            }
            self.levels.reset(&root);
            self.descend();
            let capped = cheap_cap.is_some_and(|cap| self.stopped && self.nodes >= cap);
            if capped && self.found < self.limit && !budget.deadline_passed() {
                self.found = 0;
                self.solutions.clear();
                self.stopped = false;
                self.strong = true;
                self.budget = budget;
                let mut root = root;
                self.queue.clear();
                if propagate_at(self.e, &mut root, &mut self.queue, true) {
                    self.levels.reset(&root);
                    self.descend();
                }
            }
        }
        Count {
            count: self.found,
            complete: !self.stopped || self.found >= self.limit,
            solutions: std::mem::take(&mut self.solutions),
            nodes: self.nodes,
        }
    }

    /// Counts with [`cdcl::Cdcl`] from the root (propagated with the all-different filter once),
    /// after `spent` nodes of the budget went to the depth-first search.
    fn count_cdcl(
        &mut self,
        givens: &[Option<u8>],
        limit: u64,
        budget: Budget,
        spent: u64,
    ) -> Count {
        let none = Count {
            count: 0,
            complete: true,
            solutions: Vec::new(),
            nodes: spent,
        };
        let Some(mut root) = self.initial(givens) else {
            return none;
        };
        self.queue.clear();
        if !propagate_at(self.e, &mut root, &mut self.queue, true) {
            return none;
        }
        let mut solver = cdcl::Cdcl::new(self.e, &root).expect("the engine has a CDCL form");
        solver.rate_branching();
        let left = Budget {
            max_nodes: budget.max_nodes.saturating_sub(spent),
            ..budget
        };
        let mut count = solver.count_within(limit, &left);
        count.nodes += spent;
        count.solutions.truncate(self.keep);
        count
    }

    /// Searches below the levels' root, whose candidates are already propagated: a loop over
    /// the open [`Branch`]es, each level's next option tried in turn.
    fn descend(&mut self) {
        self.branches.clear();
        if !self.enter() {
            return;
        }
        // the open branch of level `level` is `branches[level]`
        while let Some(level) = self.branches.len().checked_sub(1) {
            self.levels.back_to(level);
            let branch = &mut self.branches[level];
            let Some((cell, bit)) = next_option(self.e, self.levels.top(), branch) else {
                self.branches.pop();
                continue;
            };
            let cand = self.levels.child();
            cand[cell] = bit;
            self.queue.clear();
            self.queue.push(cell as u32);
            if propagate_changed_at(self.e, cand, &mut self.queue, self.strong) {
                self.levels.keep();
                if !self.enter() {
                    return;
                }
            } else {
                self.levels.drop_child();
                self.fails += 1;
                if self.fails >= self.max_fails {
                    self.stopped = true;
                    return;
                }
            }
        }
    }

    /// Visits the deepest level: counts the node, records a solution or opens its branch.
    /// False when the search stops (budget spent or enough solutions).
    fn enter(&mut self) -> bool {
        self.nodes += 1;
        if self.budget.exhausted(self.nodes) {
            self.stopped = true;
            return false;
        }
        let cand = self.levels.top();
        // choose the unfixed cell with the fewest candidates. Among cells with two: for a plain
        // count, the one whose two branches narrow its peers most (a peer losing a candidate
        // counts one, three when it has two and so becomes a single), plus the engine's bonus
        // for cells of the kinds' propagators (`prop_weight`).
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        let mut best_score = 0u32;
        for (c, &m) in cand.iter().enumerate() {
            let rest = m & m.wrapping_sub(1);
            if rest != 0 && rest & rest.wrapping_sub(1) == 0 {
                let mut score = 0;
                for &p in self.e.peers(c) {
                    let pm = cand[p as usize];
                    let shared = (pm & m).count_ones();
                    let pair = pm.count_ones() == 2;
                    score += shared * (1 + 2 * pair as u32);
                }
                // cells of thermometers, arrows, dots, ... first (their branches wake the
                // propagators too): fewer nodes on such puzzles
                if let Some(&w) = self.e.prop_weight.get(c) {
                    score += w;
                }
                if best == usize::MAX || score > best_score {
                    best = c;
                    best_count = 2;
                    best_score = score;
                }
            }
        }
        if best == usize::MAX {
            for (c, &m) in cand.iter().enumerate() {
                let k = m.count_ones();
                if k > 1 && k < best_count {
                    best_count = k;
                    best = c;
                }
            }
        }
        if best == usize::MAX {
            self.found += 1;
            if self.solutions.len() < self.keep {
                let sol = cand.iter().map(|m| m.trailing_zeros() as u8).collect();
                self.solutions.push(sol);
            }
            if self.found >= self.limit {
                self.stopped = true;
                return false;
            }
            // a leaf: the loop goes on with the parent's next option
            return true;
        }
        let places = (best_count > 2)
            .then(|| self.two_place_symbol(cand))
            .flatten();
        // branch on the two places of a symbol instead of a cell's many candidates
        self.branches.push(match places {
            Some((shape, bit)) => Branch::Places {
                shape: shape as u32,
                bit,
                next: 0,
            },
            None => Branch::Cell {
                cell: best as u32,
                left: cand[best],
            },
        });
        true
    }

    /// A complete shape and a symbol (as a bit) with exactly two possible places in it, if any.
    fn two_place_symbol(&self, cand: &[Mask]) -> Option<(usize, Mask)> {
        let k = self.e.n_symbols;
        for (i, shape) in self.e.complete.chunks_exact(k).enumerate() {
            let (mut once, mut twice, mut more, mut fixed) =
                (0 as Mask, 0 as Mask, 0 as Mask, 0 as Mask);
            for &c in shape {
                let m = cand[c as usize];
                more |= twice & m;
                twice |= once & m;
                once |= m;
                fixed |= m & (((m & m.wrapping_sub(1)) == 0) as Mask).wrapping_neg();
            }
            let two = twice & !more & !fixed;
            if two != 0 {
                return Some((i, two & two.wrapping_neg()));
            }
        }
        None
    }
}

/// The next option of `branch` at candidates `cand` (the branch's own level), as (cell, the
/// symbol's bit), advancing the branch past it; `None` when every option has been tried.
#[inline]
fn next_option(e: &Engine, cand: &[Mask], branch: &mut Branch) -> Option<(usize, Mask)> {
    match branch {
        Branch::Places { shape, bit, next } => {
            let k = e.n_symbols;
            let members = &e.complete[*shape as usize * k..(*shape as usize + 1) * k];
            while (*next as usize) < k {
                let c = members[*next as usize] as usize;
                *next += 1;
                if cand[c] & *bit != 0 {
                    return Some((c, *bit));
                }
            }
            None
        }
        Branch::Cell { cell, left } => {
            if *left == 0 {
                return None;
            }
            let bit = *left & left.wrapping_neg();
            *left &= *left - 1;
            Some((*cell as usize, bit))
        }
    }
}
