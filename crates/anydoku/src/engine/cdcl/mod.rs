//! Conflict-driven clause learning (CDCL) on the direct encoding of a model: the search for
//! sparse wide puzzles (a 36x36 with 600 givens) and hard sum puzzles (Killers with few cages,
//! Little Killers), where depth-first search with propagation keeps making the same doomed
//! choices near the root.
//!
//! One boolean variable per (cell, symbol) the root allows: "the cell holds the symbol",
//! numbered densely over the root candidates ([`varmap`]). The model's rules become
//!
//! * *peer* constraints, kept implicit: when a variable becomes true, every other symbol of its
//!   cell and the same symbol in every peer become false (the reason is the two-literal clause
//!   "not both", never stored);
//! * *at least one* clauses, stored: each unplaced cell holds one of its candidates, and each
//!   complete shape holds each symbol in one of the cells that still allow it;
//! * sum shapes, as propagators that explain their deductions with clauses when conflict
//!   analysis asks (lazy clause generation, [`sums`]); shapes whose symbols may repeat reason
//!   on bounds, over *order* variables "the cell's value is at least `v`" added for their
//!   cells after the value variables ([`order`]) and channelled with them implicitly in
//!   propagation, like the peers ([`channel`]);
//! * the linear relaxation of those bounded shapes together, at propagation fixpoints near the
//!   root: when the shapes' rows cannot all be met within the cells' bounds, a Farkas
//!   certificate names the bounds to blame, and that clause is a conflict ([`linear`], [`lp`]).
//!
//! Unit propagation over these is naked and hidden singles. On a conflict the solver learns a
//! clause (first unique implication point, minimised recursively as in MiniSat: a literal goes when
//! its reasons lead only to the clause's other literals and root facts; on models without sum
//! shapes also shrunk, a lower level's literals replaced by one literal of that level, [`shrink`];
//! when every sum reasons on bounds, the literals one true literal forbade give way to its
//! negation), jumps back, and goes on; decisions follow variable activity (VSIDS; in a count
//! from nothing on a model without sum shapes, each variable's learning rate, [`rate`]) with
//! saved phases (on plain models the decided variable is, among the most active, one in a shortest
//! open clause: fewest candidates or places; on sum models every decision places a symbol
//! instead: a sum learns more from a placed digit than from a removed candidate), restarts come
//! when recent learnt clauses get worse than usual (as in Glucose; blocked while the trail is
//! much longer than usual), and learnt clauses are kept in tiers by literal-block distance, the
//! local tier halved every few thousand conflicts ([`clauses`]). Counting goes on after a
//! solution by adding the clause "differs from it somewhere" and solving again, keeping what was
//! learnt.
//!
//! The root is the engine's propagated candidate array ([`super::search::Searcher::initial`]
//! with the all-different filter), so the encoding holds only the candidates left after it.
//! Nothing here knows a geometry: cells, symbols, peers, complete shapes and sum shapes come
//! from the [`Engine`].
//!
//! The modules, one concern each: this one holds the solver's state, the encoding and the search
//! loop; [`clauses`] the clause store and its reduction, [`watches`] the watch lists, [`propagate`]
//! unit propagation, [`analysis`] conflict analysis, [`shrink`] the learnt clause's shrinking,
//! [`decide`] activity and decisions, [`rate`] activity as a learning rate, [`restarts`] when to
//! restart, [`sums`] the sum shapes' propagators and explanations, [`order`] the order variables
//! and the bounds rule, [`cliques`] the groups of a sum's cells that must differ and their bounds,
//! [`channel`] the order variables' ties to the value variables, [`assume`] solving under
//! assumptions with sum shapes that can be switched off (one solver for many puzzles that differ by
//! their sum shapes), [`vivify`] the shortening of learnt clauses by propagation at the root (on
//! models without sum shapes), [`linear`] the sums' linear relaxation and its explanations, [`lp`]
//! the dual simplex it runs on, [`varmap`] the numbering of the value variables (the only place
//! that turns a cell and a symbol into a variable and back), [`extra`] a caller's own clauses over
//! auxiliary variables (an at-most-one over many literals), [`first`] a caller's literals decided
//! before the decision rule's own.
//!
//! To add a rule, add its clauses in [`Cdcl::new`] (stored clauses propagate and explain
//! themselves), or, for a rule with many implied two-literal clauses like the peers, a
//! propagation loop in `propagate` with the true literal as the reason; for a rule with a
//! filter, a propagator like [`sums`] that explains its deductions on demand.

mod analysis;
mod assume;
pub(crate) use assume::guarded_engine;
mod channel;
mod clauses;
mod cliques;
mod decide;
mod extra;
mod first;
mod linear;
mod lp;
mod order;
mod propagate;
mod rate;
mod restarts;
mod shrink;
#[cfg(test)]
mod sum_tests;
mod sums;
#[cfg(test)]
mod tests;
mod varmap;
mod vivify;
mod watches;
use varmap::VarMap;
use vivify::Vivify;

#[cfg(any(test, feature = "internals"))]
use super::Limits;
use super::{Budget, Count, Engine, Mask};
use clauses::Clause;
use decide::Heap;
use restarts::Restarts;
use sums::Sums;
use watches::WatchLists;

/// A literal: `2 * var` for "var is true", `2 * var + 1` for "var is false".
type Lit = u32;

const FALSE: u8 = 0;
const TRUE: u8 = 1;
const UNDEF: u8 = 2;

/// `reason` of a decision or of a root fact.
const NO_REASON: u32 = u32::MAX;
/// No clause (in [`Cdcl::places`]).
const NO_CLAUSE: u32 = u32::MAX;
/// Tag of a `reason` that is a stored clause (the rest of the bits: where its literals start in
/// `lits`, so the analysis reads a reason from one place). A reason without the tag is the true
/// literal whose peer constraint implied the variable false.
const CLAUSE: u32 = 1 << 31;

#[inline(always)]
fn var(l: Lit) -> usize {
    (l >> 1) as usize
}

/// What a conflict is made of: a stored clause with every literal false, two true literals
/// that a peer constraint forbids together, or a sum shape that cannot be completed (its index
/// and the trail length when its filter ran).
#[derive(Clone, Copy)]
enum Conflict {
    Clause(u32),
    Peers(Lit, Lit),
    Sum(u32, u32),
    /// The linear relaxation of the bounded sum shapes has no solution ([`linear`]; its
    /// explanation is `Linear::clause`).
    Linear,
}

/// A CDCL solver for one puzzle (built from the engine and the propagated root candidates).
pub struct Cdcl<'e> {
    e: &'e Engine,
    n: usize,
    /// The value variables: one per root candidate ([`varmap`]).
    map: VarMap,
    /// Per literal: `FALSE`, `TRUE` or `UNDEF` (a variable's value is its positive literal's;
    /// one lookup per literal, without a branch on its sign).
    value: Vec<u8>,
    /// Per variable: its level, reason and trail position while it is assigned (one record, so
    /// that an assignment writes, and conflict analysis reads, one cache line per variable).
    vars: Vec<Assigned>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    qhead: usize,
    /// CSR: the variables a true variable `v` makes false (the other candidates of its cell,
    /// its symbol in its peers' candidates) are `excludes[excludes_start[v]..excludes_start[v + 1]]`.
    /// (Candidates outside the root are no variables, [`varmap`], and never listed.)
    excludes_start: Vec<u32>,
    excludes: Vec<u32>,
    /// Cells not fixed at the root (a solution's "differs somewhere" clause ranges over them).
    open: Vec<u32>,
    /// Every stored clause as the position where the last search for a new watch stopped
    /// (Gent's saved position, from 2), its index, its length and its literals: propagation
    /// reads a watched clause from here alone (one place in memory).
    lits: Vec<Lit>,
    clauses: Vec<Clause>,
    /// Per complete shape and symbol (`shape * n + t`): the index of its clause "holds `t` in
    /// one of the cells that still allow it", or [`NO_CLAUSE`] when there is none (`t` placed
    /// there at the root).
    places: Vec<u32>,
    /// Per literal: the clauses watching it (looked at when it becomes false).
    watches: WatchLists,
    activity: Vec<f64>,
    var_inc: f64,
    /// With learning-rate branching ([`Cdcl::rate_branching`]), the activities are rates.
    rates: Option<rate::Rates>,
    /// The activity decay per conflict ([`decide::decay_for`]).
    var_decay: f64,
    /// Whether the search looks near a preferred solution ([`Cdcl::prefer`]). Such searches
    /// (the generator's) keep a plainer policy: no reason-side bumping
    /// ([`Cdcl::bump_reason_side`]), and a new watch is sought from a clause's start, moved
    /// even onto a true literal (why: docs/PERFORMANCE.md).
    near: bool,
    heap: Heap,
    phase: Vec<bool>,
    seen: Vec<bool>,
    to_clear: Vec<usize>,
    /// Scratch for [`shrink`]: the variables of the level block being shrunk, marked.
    in_block: Vec<bool>,
    block_vars: Vec<usize>,
    block_reason: Vec<Lit>,
    /// Whether learnt clauses are shrunk ([`shrink`]): on models without sum shapes.
    shrink: bool,
    /// Blocks of learnt clause literals replaced by one literal so far.
    shrunk: u64,
    /// Scratch for `analyze`.
    learnt_buf: Vec<Lit>,
    reason_buf: Vec<Lit>,
    /// Scratch for `implied`: the literals walked, and the variables found to depend on a
    /// literal the clause cannot accept, marked until the analysis ends.
    implied_walk: Vec<(u32, u32)>,
    poison: Vec<bool>,
    poisoned: Vec<usize>,
    level_stamp: Vec<u64>,
    /// Scratch for the minimisation ([`Cdcl::implied`]): per decision level of the learnt
    /// clause, the earliest trail position among its literals of that level.
    level_first: Vec<u32>,
    stamp: u64,
    /// Scratch for `analyze` on models whose sums all reason on bounds (empty otherwise): per
    /// variable, how many literals of the learnt clause it is the binary reason of.
    shared: Vec<u32>,
    /// Literals of learnt clauses that stand for a group resolved with their shared reason.
    grouped: u64,
    clause_inc: f32,
    /// When learnt clauses are dropped, and which are kept ([`clauses::Tiers`]).
    tiers: clauses::Tiers,
    deleted_lits: usize,
    decisions: u64,
    conflicts: u64,
    /// Times learnt clauses were dropped, and times the clause store was compacted.
    reductions: u64,
    compactions: u64,
    /// False once the clauses are known unsatisfiable.
    ok: bool,
    restarts: Restarts,
    /// The sum shapes' propagators, when the engine has sum shapes.
    sums: Option<Sums>,
    /// The linear relaxation of the bounded sum shapes, when there are two or more.
    linear: Option<Box<linear::Linear>>,
    /// Every decision places a symbol (its variable true) instead of following the saved
    /// phase: on sum models, until [`Cdcl::prefer`] asks for a known solution's phases.
    place: bool,
    /// Literals decided first, one per level, before any other decision ([`assume`]).
    assumptions: Vec<Lit>,
    /// The first auxiliary variable ([`extra`]; the variable count when there are none).
    aux_first: usize,
    /// Literals decided before the decision rule's own ([`first`]).
    first: first::First,
    /// Literals propagated so far (over every call, vivification's among them).
    propagated: u64,
    /// Vivification of learnt clauses: when, its budget, its scratch ([`vivify`]).
    vivify: Vivify,
}

/// What the solver knows of an assigned variable.
#[derive(Clone, Copy)]
#[repr(align(16))]
struct Assigned {
    /// Its decision level.
    level: u32,
    /// Why it is assigned: [`NO_REASON`], a stored clause (tagged [`CLAUSE`]), the true literal
    /// whose peer constraint implied it, or a propagator's tag ([`sums`], [`channel`]). Stale
    /// once the variable is unassigned (backtracking leaves it): read only while assigned.
    reason: u32,
    /// Its position on the trail.
    pos: u32,
}

/// How a search for the next solution ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A solution: the symbol of every cell.
    Solution(Vec<u8>),
    /// No (further) solution.
    Exhausted,
    /// The budget ran out.
    Unknown,
}

impl<'e> Cdcl<'e> {
    /// The encoding of `e` below the root candidates `root` (a propagated candidate array), its
    /// sum shapes as propagators ([`sums`]). `None` when `root` is not one candidate set per
    /// cell.
    pub fn new(e: &'e Engine, root: &[Mask]) -> Option<Self> {
        Self::with_extra(e, root, 0)
    }

    /// [`Cdcl::new`] with `extra` variables after the others, in no clause yet (see [`assume`]).
    fn with_extra(e: &'e Engine, root: &[Mask], extra: usize) -> Option<Self> {
        if root.len() != e.n_cells {
            return None;
        }
        let n = e.n_symbols;
        let map = VarMap::new(root);
        let value_vars = map.count();
        // the order variables come after the value variables and `falsum`
        let order = (!e.sums.is_empty())
            .then(|| order::Order::new(e, value_vars + 1))
            .flatten();
        let n_vars = value_vars + 1 + order.as_ref().map_or(0, |o| o.count()) + extra;
        // learnt literals sharing a binary reason are grouped when every sum reasons on bounds
        let group = order.as_ref().is_some_and(|o| o.bounded.iter().all(|&b| b));
        let mut s = Cdcl {
            e,
            n,
            map,
            value: [FALSE, TRUE].repeat(n_vars),
            vars: vec![
                Assigned {
                    level: 0,
                    reason: NO_REASON,
                    pos: 0
                };
                n_vars
            ],
            trail: Vec::with_capacity(n_vars),
            trail_lim: Vec::new(),
            qhead: 0,
            excludes_start: Vec::with_capacity(n_vars + 1),
            excludes: Vec::new(),
            open: Vec::new(),
            lits: Vec::new(),
            clauses: Vec::new(),
            places: vec![NO_CLAUSE; e.complete.len()],
            watches: WatchLists::new(n_vars),
            activity: vec![0.0; n_vars],
            var_inc: 1.0,
            rates: None,
            var_decay: decide::decay_for(!e.sums.is_empty(), false),
            near: false,
            heap: Heap::new(n_vars),
            phase: vec![false; n_vars],
            seen: vec![false; n_vars],
            to_clear: Vec::new(),
            in_block: vec![false; n_vars],
            block_vars: Vec::new(),
            block_reason: Vec::new(),
            shrink: e.sums.is_empty(),
            shrunk: 0,
            learnt_buf: Vec::new(),
            reason_buf: Vec::new(),
            implied_walk: Vec::new(),
            poison: vec![false; n_vars],
            poisoned: Vec::new(),
            level_stamp: vec![0; n_vars + 1],
            level_first: vec![0; n_vars + 1],
            stamp: 0,
            shared: if group { vec![0; n_vars] } else { Vec::new() },
            grouped: 0,
            clause_inc: 1.0,
            tiers: clauses::Tiers::for_sums(!e.sums.is_empty()),
            deleted_lits: 0,
            decisions: 0,
            conflicts: 0,
            reductions: 0,
            compactions: 0,
            ok: true,
            restarts: Restarts::default(),
            linear: order
                .as_ref()
                .and_then(|o| linear::Linear::new(e, o))
                .map(Box::new),
            sums: (!e.sums.is_empty()).then(|| Sums::new(e, n_vars, value_vars, order)),
            place: !e.sums.is_empty(),
            assumptions: Vec::new(),
            aux_first: n_vars,
            first: first::First::default(),
            propagated: 0,
            vivify: Vivify::for_sums(!e.sums.is_empty()),
        };
        s.value[..2 * value_vars].fill(UNDEF);
        s.add_excludes(n_vars);
        s.add_root(root);
        s.set_order_roots(root);
        s.fill_heap(value_vars);
        Some(s)
    }

    /// Puts the unassigned value variables (the first `value_vars`) in the decision heap:
    /// decisions place symbols, order variables are never decided on.
    fn fill_heap(&mut self, value_vars: usize) {
        for v in 0..value_vars {
            if self.value[2 * v] == UNDEF {
                self.heap.insert(v, &self.activity);
            }
        }
    }

    /// The variables each value variable makes false when true (`excludes`); `falsum`, order
    /// and guard variables (up to `n_vars`) exclude nothing.
    fn add_excludes(&mut self, n_vars: usize) {
        let (e, map) = (self.e, &self.map);
        for v in 0..map.count() {
            self.excludes_start.push(self.excludes.len() as u32);
            let (c, t) = (map.cell(v), map.symbol(v));
            self.excludes
                .extend(map.of_cell(c).filter(|&u| u != v).map(|u| u as u32));
            for &q in e.peers(c) {
                if let Some(u) = map.var(q as usize, t) {
                    self.excludes.push(u as u32);
                }
            }
        }
        let end = self.excludes.len() as u32;
        self.excludes_start.resize(n_vars + 1, end);
    }

    /// Decisions made so far (over every call).
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Sum shapes' explanations made so far, and the literals in them (for the tuning tools).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn explanations(&self) -> (u64, u64) {
        self.sums
            .as_ref()
            .map_or((0, 0), |s| (s.explained, s.explained_lits))
    }

    /// The linear relaxation's runs, the conflicts it found and their literals so far (for the
    /// tuning tools; zeros without one).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn linear(&self) -> (u64, u64, u64) {
        self.linear
            .as_ref()
            .map_or((0, 0, 0), |l| (l.runs, l.found, l.lits))
    }

    /// Conflicts met so far (over every call).
    pub fn conflicts(&self) -> u64 {
        self.conflicts
    }

    /// Literals propagated so far (over every call, for the tuning tools).
    #[cfg_attr(not(feature = "internals"), allow(dead_code))]
    pub fn propagations(&self) -> u64 {
        self.propagated
    }

    /// Counts solutions up to `limit` (each one excluded once found), keeping the first two;
    /// `nodes` in the result are decisions.
    #[cfg(any(test, feature = "internals"))]
    pub fn count(&mut self, limit: u64, limits: Limits) -> Count {
        self.count_within(limit, &Budget::from(limits))
    }

    /// [`Cdcl::count`] under a budget already started.
    pub(crate) fn count_within(&mut self, limit: u64, budget: &Budget) -> Count {
        let mut solutions = Vec::new();
        let mut found = 0;
        let mut complete = true;
        while found < limit.max(1) {
            match self.solve(budget) {
                Outcome::Solution(sol) => {
                    found += 1;
                    self.exclude(&sol);
                    if solutions.len() < 2 {
                        solutions.push(sol);
                    }
                }
                Outcome::Exhausted => break,
                Outcome::Unknown => {
                    complete = false;
                    break;
                }
            }
        }
        Count {
            count: found,
            complete: complete || found >= limit.max(1),
            solutions,
            nodes: self.decisions,
        }
    }

    /// Adds the clause "some open cell holds another symbol than in `sol`".
    pub(crate) fn exclude(&mut self, sol: &[u8]) {
        let open = std::mem::take(&mut self.open);
        self.differ(&open, sol);
        self.open = open;
    }

    /// Adds the clause "one of `cells` holds another symbol than in `sol`" (for a search of a
    /// solution other than a known one that must differ from it there).
    pub fn differ(&mut self, cells: &[u32], sol: &[u8]) {
        let map = &self.map;
        let clause: Vec<Lit> = cells
            .iter()
            .map(|&c| 2 * map.var_or_false(c as usize, sol[c as usize] as usize) as Lit + 1)
            .collect();
        self.add_root_clause(&clause);
    }

    /// Decides by learning rate ([`rate`]) instead of VSIDS, on a model without sum shapes in a
    /// search from nothing (not [`Cdcl::prefer`]); call it before the search starts. A count
    /// of a sparse 36x36 from its root takes it ([`super::search::Searcher`]).
    pub fn rate_branching(&mut self) {
        if self.sums.is_none() && !self.near && self.conflicts == 0 {
            self.rates = Some(rate::Rates::new(self.activity.len()));
        }
    }

    /// Makes the search try `sol`'s symbol first in every cell (its saved phases), so a search
    /// for a solution near a known one (a uniqueness check that excludes only a few of its
    /// cells) starts from it instead of from nothing. Such a search decides by VSIDS.
    pub fn prefer(&mut self, sol: &[u8]) {
        self.rates = None;
        self.place = false;
        self.var_decay = decide::decay_for(self.sums.is_some(), true);
        self.near = true;
        for (c, &t) in sol.iter().enumerate() {
            self.phase[self.map.of_cell(c)].fill(false);
            if let Some(v) = self.map.var(c, t as usize) {
                self.phase[v] = true;
            }
        }
    }

    /// Looks for a solution of the clauses (the next one, after [`Cdcl::exclude`]).
    pub(crate) fn solve(&mut self, budget: &Budget) -> Outcome {
        loop {
            if !self.ok {
                return Outcome::Exhausted;
            }
            if self.vivify.due && !self.vivify.off && self.conflicts >= Vivify::AFTER {
                self.vivify();
                continue;
            }
            if let Some(outcome) = self.search(budget) {
                return outcome;
            }
        }
    }

    /// Searches until a solution, unsatisfiability, the budget, or a restart (then `None`).
    fn search(&mut self, budget: &Budget) -> Option<Outcome> {
        loop {
            if let Some(conflict) = self.propagate().or_else(|| self.check_linear()) {
                self.conflicts += 1;
                if self.trail_lim.is_empty() {
                    self.ok = false;
                    return Some(Outcome::Exhausted);
                }
                let Some((learnt, back_to, lbd)) = self.analyze(conflict) else {
                    self.ok = false;
                    return Some(Outcome::Exhausted);
                };
                self.backtrack(back_to);
                if learnt.len() == 1 {
                    self.enqueue(learnt[0], NO_REASON);
                } else {
                    let index = self.add_clause(&learnt, true, lbd);
                    self.enqueue(learnt[0], CLAUSE | self.clauses[index as usize].start);
                }
                self.learnt_buf = learnt;
                if self.rates.is_none() {
                    self.var_inc /= self.var_decay;
                }
                self.clause_inc /= 0.999;
                if self.restarts.learnt(lbd, self.trail.len()) {
                    self.backtrack(0);
                    return None;
                }
            } else {
                if budget.exhausted(self.decisions) {
                    self.backtrack(0);
                    return Some(Outcome::Unknown);
                }
                if self.conflicts >= self.tiers.next_reduce {
                    self.reduce();
                }
                let lit = match self.next_assumption() {
                    Err(()) => {
                        self.backtrack(0);
                        return Some(Outcome::Exhausted);
                    }
                    Ok(Some(lit)) => lit,
                    Ok(None) => {
                        let Some(lit) = self.decision() else {
                            let sol = self.solution();
                            self.backtrack(0);
                            return Some(Outcome::Solution(sol));
                        };
                        self.decisions += 1;
                        lit
                    }
                };
                self.trail_lim.push(self.trail.len());
                self.enqueue(lit, NO_REASON);
            }
        }
    }

    /// The symbol of every cell, once every variable is assigned.
    fn solution(&self) -> Vec<u8> {
        let map = &self.map;
        (0..self.e.n_cells)
            .map(|c| {
                let v = map
                    .of_cell(c)
                    .find(|&v| self.value[2 * v] == TRUE)
                    .expect("every cell holds a symbol");
                map.symbol(v) as u8
            })
            .collect()
    }

    #[inline(always)]
    fn lit_value(&self, l: Lit) -> u8 {
        debug_assert!((l as usize) < self.value.len());
        // SAFETY: every literal handled here is of a variable of the encoding
        unsafe { *self.value.get_unchecked(l as usize) }
    }

    #[inline(always)]
    fn decision_level(&self) -> u32 {
        self.trail_lim.len() as u32
    }

    #[inline(always)]
    fn enqueue(&mut self, l: Lit, reason: u32) {
        let v = var(l);
        debug_assert_eq!(self.value[l as usize], UNDEF);
        let level = self.decision_level();
        if let Some(rates) = self.rates.as_mut() {
            rates.assigned(v, self.conflicts);
        }
        // SAFETY: `v` is a variable of the encoding; `value` has two entries per variable, the
        // other arrays one
        unsafe {
            *self.value.get_unchecked_mut(l as usize) = TRUE;
            *self.value.get_unchecked_mut(l as usize ^ 1) = FALSE;
            *self.vars.get_unchecked_mut(v) = Assigned {
                level,
                reason,
                pos: self.trail.len() as u32,
            };
        }
        // the trail holds each variable at most once and was sized for all of them
        debug_assert!(self.trail.len() < self.trail.capacity());
        self.trail.push(l);
    }

    /// Undoes every assignment above `level`, saving the phases.
    fn backtrack(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let keep = self.trail_lim[level as usize];
        if let Some(sums) = self.sums.as_mut() {
            for k in keep..self.trail.len() {
                let v = var(self.trail[k]);
                if sums::is_sum(self.vars[v].reason) {
                    sums.forget(v);
                }
            }
        }
        let value_vars = self.map.count();
        for k in (keep..self.trail.len()).rev() {
            let l = self.trail[k];
            let v = var(l);
            // SAFETY: `v` is a variable of the encoding; `value` has two entries per variable,
            // `phase` and `reason` one
            unsafe {
                // (the literal on the trail is the true one)
                *self.phase.get_unchecked_mut(v) = l & 1 == 0;
                *self.value.get_unchecked_mut(2 * v) = UNDEF;
                *self.value.get_unchecked_mut(2 * v + 1) = UNDEF;
            }
            if v < value_vars {
                if let Some(rates) = self.rates.as_mut() {
                    if let Some(a) = rates.unassigned(v, self.conflicts, self.activity[v]) {
                        let rose = a > self.activity[v];
                        self.activity[v] = a;
                        if rose {
                            self.heap.increased(v, &self.activity);
                        }
                    }
                }
                self.heap.insert(v, &self.activity);
            }
        }
        self.trail.truncate(keep);
        self.trail_lim.truncate(level as usize);
        self.first_backtracked();
        self.qhead = keep;
        if let Some(sums) = self.sums.as_mut() {
            sums.clear();
        }
    }
}
