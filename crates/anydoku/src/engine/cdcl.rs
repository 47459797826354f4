//! Conflict-driven clause learning (CDCL) on the direct encoding of a model of unique shapes:
//! the search for sparse wide puzzles (a 36x36 with 600 givens), where depth-first search with
//! propagation keeps making the same doomed choices near the root.
//!
//! One boolean variable per (cell, symbol): "the cell holds the symbol". The model's rules become
//!
//! * *peer* constraints, kept implicit: when a variable becomes true, every other symbol of its
//!   cell and the same symbol in every peer become false (the reason is the two-literal clause
//!   "not both", never stored);
//! * *at least one* clauses, stored: each unplaced cell holds one of its candidates, and each
//!   complete shape holds each symbol in one of the cells that still allow it.
//!
//! Unit propagation over these is naked and hidden singles. On a conflict the solver learns a
//! clause (first unique implication point, minimised recursively as in MiniSat: a literal goes
//! when its reasons lead only to the clause's other literals and root facts), jumps back, and
//! goes on; decisions follow variable activity (VSIDS) with saved phases, restarts come when
//! recent learnt clauses get worse than usual (as in Glucose), and learnt clauses with a high
//! literal-block distance are dropped as they pile up. Counting goes on after a solution by
//! adding the clause "differs from it somewhere" and solving again, keeping what was learnt.
//!
//! The root is the engine's propagated candidate array ([`super::search::Searcher::initial`]
//! with the all-different filter), so the encoding holds only the candidates left after it.
//! Nothing here knows a geometry: cells, symbols, peers and complete shapes come from the
//! [`Engine`]. Models with sum shapes are not encoded (the depth-first search handles them).
//!
//! To add a rule, add its clauses in [`Cdcl::new`] (stored clauses propagate and explain
//! themselves), or, for a rule with many implied two-literal clauses like the peers, a
//! propagation loop in `propagate` with the true literal as the reason.

use super::{Budget, Count, Engine, Limits, Mask};

/// A literal: `2 * var` for "var is true", `2 * var + 1` for "var is false".
type Lit = u32;

const FALSE: u8 = 0;
const TRUE: u8 = 1;
const UNDEF: u8 = 2;

/// `reason` of a decision or of a root fact.
const NO_REASON: u32 = u32::MAX;
/// Tag of a `reason` that is a stored clause (the rest of the bits: its index). A reason without
/// the tag is the true literal whose peer constraint implied the variable false.
const CLAUSE: u32 = 1 << 31;

#[inline(always)]
fn var(l: Lit) -> usize {
    (l >> 1) as usize
}

#[derive(Clone, Copy)]
struct Watch {
    /// Where the clause's literals start in `lits` (its index and length are the two words
    /// before).
    start: u32,
    /// A literal of the clause: when it is true the clause need not be looked at.
    blocker: Lit,
}

#[derive(Clone, Copy)]
struct Clause {
    start: u32,
    len: u32,
    lbd: u32,
    activity: f32,
    learnt: bool,
    deleted: bool,
}

/// What a conflict is made of: a stored clause with every literal false, or two true literals
/// that a peer constraint forbids together.
#[derive(Clone, Copy)]
enum Conflict {
    Clause(u32),
    Peers(Lit, Lit),
}

/// A CDCL solver for one puzzle (built from the engine and the propagated root candidates).
pub struct Cdcl<'e> {
    e: &'e Engine,
    n: usize,
    /// Per literal: `FALSE`, `TRUE` or `UNDEF` (a variable's value is its positive literal's;
    /// one lookup per literal, without a branch on its sign).
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    qhead: usize,
    /// CSR: the variables a true variable `v` makes false (the other candidates of its cell,
    /// its symbol in its peers' candidates) are `excludes[excludes_start[v]..excludes_start[v + 1]]`.
    /// Variables outside the root candidates are false for good and never listed.
    excludes_start: Vec<u32>,
    excludes: Vec<u32>,
    /// Cells not fixed at the root (a solution's "differs somewhere" clause ranges over them).
    open: Vec<u32>,
    /// Every stored clause as its index, its length and its literals: propagation reads a
    /// watched clause from here alone (one place in memory).
    lits: Vec<Lit>,
    clauses: Vec<Clause>,
    /// Per literal: the clauses watching it (looked at when it becomes false).
    watches: Vec<Vec<Watch>>,
    activity: Vec<f64>,
    var_inc: f64,
    heap: Heap,
    phase: Vec<bool>,
    seen: Vec<bool>,
    to_clear: Vec<usize>,
    /// Scratch for `analyze`.
    learnt_buf: Vec<Lit>,
    reason_buf: Vec<Lit>,
    implied_stack: Vec<Lit>,
    level_stamp: Vec<u64>,
    stamp: u64,
    clause_inc: f32,
    learnt_count: usize,
    max_learnt: usize,
    deleted_lits: usize,
    decisions: u64,
    conflicts: u64,
    /// Times learnt clauses were dropped, and times the clause store was compacted.
    reductions: u64,
    compactions: u64,
    /// False once the clauses are known unsatisfiable.
    ok: bool,
    restarts: Restarts,
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
    /// The encoding of `e` below the root candidates `root` (a propagated candidate array with
    /// no empty cell). `None` when the engine has sum shapes, which are not encoded.
    pub fn new(e: &'e Engine, root: &[Mask]) -> Option<Self> {
        if !e.sums.is_empty() || root.len() != e.n_cells {
            return None;
        }
        let n = e.n_symbols;
        let n_vars = e.n_cells * n;
        let mut s = Cdcl {
            e,
            n,
            value: [FALSE, TRUE].repeat(n_vars),
            level: vec![0; n_vars],
            reason: vec![NO_REASON; n_vars],
            trail: Vec::with_capacity(n_vars),
            trail_lim: Vec::new(),
            qhead: 0,
            excludes_start: Vec::with_capacity(n_vars + 1),
            excludes: Vec::new(),
            open: Vec::new(),
            lits: Vec::new(),
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * n_vars],
            activity: vec![0.0; n_vars],
            var_inc: 1.0,
            heap: Heap::new(n_vars),
            phase: vec![false; n_vars],
            seen: vec![false; n_vars],
            to_clear: Vec::new(),
            learnt_buf: Vec::new(),
            reason_buf: Vec::new(),
            implied_stack: Vec::new(),
            level_stamp: vec![0; n_vars + 1],
            stamp: 0,
            clause_inc: 1.0,
            learnt_count: 0,
            max_learnt: 0,
            deleted_lits: 0,
            decisions: 0,
            conflicts: 0,
            reductions: 0,
            compactions: 0,
            ok: true,
            restarts: Restarts::default(),
        };
        for (c, &m) in root.iter().enumerate() {
            for_bits(m, |t| {
                s.value[2 * (c * n + t)] = UNDEF;
                s.value[2 * (c * n + t) + 1] = UNDEF;
            });
        }
        for v in 0..n_vars {
            s.excludes_start.push(s.excludes.len() as u32);
            let (c, t) = (v / n, v % n);
            if root[c] >> t & 1 == 0 {
                continue;
            }
            for_bits(root[c] & !(1 << t), |u| s.excludes.push((c * n + u) as u32));
            for &q in e.peers(c) {
                if root[q as usize] >> t & 1 == 1 {
                    s.excludes.push(q * n as u32 + t as u32);
                }
            }
        }
        s.excludes_start.push(s.excludes.len() as u32);
        // cells fixed at the root go on the trail, so their peers are checked against them
        for (c, &m) in root.iter().enumerate() {
            if m == 0 {
                s.ok = false;
            } else if m & (m - 1) == 0 {
                s.enqueue(2 * (c * n + m.trailing_zeros() as usize) as Lit, NO_REASON);
            } else {
                s.open.push(c as u32);
            }
        }
        let mut clause = Vec::with_capacity(n);
        for &c in &s.open.clone() {
            clause.clear();
            for_bits(root[c as usize], |t| {
                clause.push(2 * (c as usize * n + t) as Lit)
            });
            s.add_clause(&clause, false, 0);
        }
        for shape in e.complete.chunks_exact(n.max(1)) {
            for t in 0..n {
                clause.clear();
                let mut placed = false;
                for &c in shape {
                    let v = c as usize * n + t;
                    match s.value[2 * v] {
                        TRUE => placed = true,
                        UNDEF => clause.push(2 * v as Lit),
                        _ => {}
                    }
                }
                if placed {
                    continue;
                }
                match clause.len() {
                    0 => s.ok = false,
                    // a hidden single the root propagation left: assert it at the root
                    1 => s.enqueue(clause[0], NO_REASON),
                    _ => {
                        s.add_clause(&clause, false, 0);
                    }
                }
            }
        }
        for v in 0..n_vars {
            if s.value[2 * v] == UNDEF {
                s.heap.insert(v, &s.activity);
            }
        }
        s.max_learnt = (s.clauses.len() / 3).max(2000);
        Some(s)
    }

    /// Decisions made so far (over every call).
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Conflicts met so far (over every call).
    pub fn conflicts(&self) -> u64 {
        self.conflicts
    }

    /// Counts solutions up to `limit` (each one excluded once found), keeping the first two;
    /// `nodes` in the result are decisions.
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
        self.backtrack(0);
        let n = self.n;
        let clause: Vec<Lit> = self
            .open
            .iter()
            .map(|&c| 2 * (c as usize * n + sol[c as usize] as usize) as Lit + 1)
            .filter(|&l| self.lit_value(l) != FALSE)
            .collect();
        match clause.len() {
            0 => self.ok = false,
            1 => {
                if self.lit_value(clause[0]) == UNDEF {
                    self.enqueue(clause[0], NO_REASON);
                }
            }
            _ => {
                self.add_clause(&clause, false, 0);
            }
        }
    }

    /// Makes the search try `sol`'s symbol first in every cell (its saved phases), so a search
    /// for a solution near a known one (a uniqueness check that excludes only a few of its
    /// cells) starts from it instead of from nothing.
    pub(crate) fn prefer(&mut self, sol: &[u8]) {
        let n = self.n;
        for (c, &t) in sol.iter().enumerate() {
            self.phase[c * n..(c + 1) * n].fill(false);
            if (t as usize) < n {
                self.phase[c * n + t as usize] = true;
            }
        }
    }

    /// Looks for a solution of the clauses (the next one, after [`Cdcl::exclude`]).
    pub(crate) fn solve(&mut self, budget: &Budget) -> Outcome {
        loop {
            if !self.ok {
                return Outcome::Exhausted;
            }
            if let Some(outcome) = self.search(budget) {
                return outcome;
            }
        }
    }

    /// Searches until a solution, unsatisfiability, the budget, or a restart (then `None`).
    fn search(&mut self, budget: &Budget) -> Option<Outcome> {
        loop {
            if let Some(conflict) = self.propagate() {
                self.conflicts += 1;
                if self.trail_lim.is_empty() {
                    self.ok = false;
                    return Some(Outcome::Exhausted);
                }
                let (learnt, back_to, lbd) = self.analyze(conflict);
                self.backtrack(back_to);
                if learnt.len() == 1 {
                    self.enqueue(learnt[0], NO_REASON);
                } else {
                    let index = self.add_clause(&learnt, true, lbd);
                    self.enqueue(learnt[0], CLAUSE | index);
                }
                self.learnt_buf = learnt;
                self.var_inc /= 0.95;
                self.clause_inc /= 0.999;
                if self.restarts.learnt(lbd) {
                    self.backtrack(0);
                    return None;
                }
            } else {
                if budget.exhausted(self.decisions) {
                    self.backtrack(0);
                    return Some(Outcome::Unknown);
                }
                if self.learnt_count >= self.max_learnt + self.trail.len() {
                    self.reduce();
                }
                let Some(v) = self.pick() else {
                    let sol = self.solution();
                    self.backtrack(0);
                    return Some(Outcome::Solution(sol));
                };
                self.decisions += 1;
                self.trail_lim.push(self.trail.len());
                let lit = 2 * v as Lit + (!self.phase[v]) as Lit;
                self.enqueue(lit, NO_REASON);
            }
        }
    }

    /// The symbol of every cell, once every variable is assigned.
    fn solution(&self) -> Vec<u8> {
        let n = self.n;
        (0..self.e.n_cells)
            .map(|c| {
                (0..n)
                    .find(|&t| self.value[2 * (c * n + t)] == TRUE)
                    .expect("every cell holds a symbol") as u8
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
        // SAFETY: `v` is a variable of the encoding; `value` has two entries per variable, the
        // other arrays one
        unsafe {
            *self.value.get_unchecked_mut(l as usize) = TRUE;
            *self.value.get_unchecked_mut(l as usize ^ 1) = FALSE;
            *self.level.get_unchecked_mut(v) = level;
            *self.reason.get_unchecked_mut(v) = reason;
        }
        // the trail holds each variable at most once and was sized for all of them
        debug_assert!(self.trail.len() < self.trail.capacity());
        self.trail.push(l);
    }

    /// Stores a clause and watches its first two literals; returns its index.
    fn add_clause(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> u32 {
        debug_assert!(lits.len() >= 2);
        let index = self.clauses.len() as u32;
        self.lits.extend_from_slice(&[index, lits.len() as u32]);
        let start = self.lits.len() as u32;
        self.clauses.push(Clause {
            start,
            len: lits.len() as u32,
            lbd,
            activity: 0.0,
            learnt,
            deleted: false,
        });
        self.lits.extend_from_slice(lits);
        self.watches[lits[0] as usize].push(Watch {
            start,
            blocker: lits[1],
        });
        self.watches[lits[1] as usize].push(Watch {
            start,
            blocker: lits[0],
        });
        if learnt {
            self.learnt_count += 1;
        }
        index
    }

    /// Unit propagation of everything on the trail from `qhead`; the conflict if one arises.
    fn propagate(&mut self) -> Option<Conflict> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            let v = var(p);
            if p & 1 == 0 {
                // the cell holds the symbol: its other symbols and the symbol in its peers go
                let (from, to) = (self.excludes_start[v], self.excludes_start[v + 1]);
                for k in from as usize..to as usize {
                    // SAFETY: `k` lies inside `excludes`, whose entries are variables
                    let u = unsafe { *self.excludes.get_unchecked(k) } as usize;
                    match unsafe { *self.value.get_unchecked(2 * u) } {
                        UNDEF => self.enqueue(2 * u as Lit + 1, p),
                        TRUE => return Some(Conflict::Peers(p, 2 * u as Lit)),
                        _ => {}
                    }
                }
            }
            if let Some(conflict) = self.propagate_clauses(p ^ 1) {
                return Some(conflict);
            }
        }
        None
    }

    /// Visits the clauses watching `false_lit`, which just became false.
    fn propagate_clauses(&mut self, false_lit: Lit) -> Option<Conflict> {
        let mut ws = std::mem::take(&mut self.watches[false_lit as usize]);
        let (mut i, mut j) = (0, 0);
        let mut conflict = None;
        // SAFETY (all unchecked indexing below): `i` and `j` stay below `ws.len()` (`j <= i`),
        // watches point at stored clauses (never at deleted ones: `reduce` drops their
        // watches), whose index, length and literals lie inside `lits`.
        while i < ws.len() {
            let w = unsafe { *ws.get_unchecked(i) };
            i += 1;
            if self.lit_value(w.blocker) == TRUE {
                unsafe { *ws.get_unchecked_mut(j) = w };
                j += 1;
                continue;
            }
            let start = w.start as usize;
            let len = unsafe { *self.lits.get_unchecked(start - 1) } as usize;
            let clause = unsafe { self.lits.get_unchecked_mut(start..start + len) };
            if clause[0] == false_lit {
                clause.swap(0, 1);
            }
            let first = clause[0];
            let watch = Watch {
                start: w.start,
                blocker: first,
            };
            if first != w.blocker && self.lit_value(first) == TRUE {
                unsafe { *ws.get_unchecked_mut(j) = watch };
                j += 1;
                continue;
            }
            // a new literal to watch
            let mut moved = None;
            let clause = unsafe { self.lits.get_unchecked(start..start + len) };
            for (k, &l) in clause.iter().enumerate().skip(2) {
                if self.lit_value(l) != FALSE {
                    moved = Some((k, l));
                    break;
                }
            }
            if let Some((k, l)) = moved {
                self.lits.swap(start + 1, start + k);
                self.watches[l as usize].push(watch);
                continue;
            }
            unsafe { *ws.get_unchecked_mut(j) = watch };
            j += 1;
            let index = unsafe { *self.lits.get_unchecked(start - 2) };
            if self.lit_value(first) == FALSE {
                conflict = Some(Conflict::Clause(index));
                while i < ws.len() {
                    unsafe { *ws.get_unchecked_mut(j) = *ws.get_unchecked(i) };
                    i += 1;
                    j += 1;
                }
            } else {
                self.enqueue(first, CLAUSE | index);
            }
        }
        ws.truncate(j);
        self.watches[false_lit as usize] = ws;
        conflict
    }

    /// Calls `f` with the literals of the reason of variable `v` other than its own (all false).
    #[inline(always)]
    fn for_reason(&self, reason: u32, skip: usize, mut f: impl FnMut(Lit)) {
        if reason & CLAUSE != 0 {
            let meta = self.clauses[(reason & !CLAUSE) as usize];
            let start = meta.start as usize;
            for &l in &self.lits[start..start + meta.len as usize] {
                if var(l) != skip {
                    f(l);
                }
            }
        } else {
            // a peer constraint: the true literal `reason` forbade this one
            f(reason ^ 1);
        }
    }

    /// First-UIP conflict analysis: the learnt clause (asserting literal first, then a literal
    /// of the level to jump back to), that level and the clause's literal-block distance.
    fn analyze(&mut self, conflict: Conflict) -> (Vec<Lit>, u32, u32) {
        let mut learnt: Vec<Lit> = std::mem::take(&mut self.learnt_buf);
        learnt.clear();
        learnt.push(0);
        let mut open = 0usize;
        let level_now = self.decision_level();
        let mut index = self.trail.len();
        let mut reason_lits: Vec<Lit> = std::mem::take(&mut self.reason_buf);
        reason_lits.clear();
        match conflict {
            Conflict::Clause(c) => {
                self.bump_clause(c);
                let meta = self.clauses[c as usize];
                reason_lits.extend_from_slice(
                    &self.lits[meta.start as usize..(meta.start + meta.len) as usize],
                );
            }
            Conflict::Peers(a, b) => reason_lits.extend_from_slice(&[a ^ 1, b ^ 1]),
        }
        let uip;
        loop {
            for &q in &reason_lits {
                let v = var(q);
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    self.to_clear.push(v);
                    self.bump_var(v);
                    if self.level[v] >= level_now {
                        open += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            // the next literal of this level on the trail that takes part
            let p = loop {
                index -= 1;
                let p = self.trail[index];
                if self.seen[var(p)] {
                    break p;
                }
            };
            open -= 1;
            if open == 0 {
                uip = p;
                break;
            }
            let v = var(p);
            let reason = self.reason[v];
            if reason & CLAUSE != 0 {
                self.bump_clause(reason & !CLAUSE);
            }
            reason_lits.clear();
            self.for_reason(reason, v, |l| reason_lits.push(l));
        }
        self.reason_buf = reason_lits;
        learnt[0] = uip ^ 1;
        // drop literals implied by the others: those whose reasons lead, step by step, only to
        // literals of the clause or of the root (recursive minimisation, as in MiniSat)
        let levels = learnt[1..]
            .iter()
            .fold(0u32, |a, &l| a | abstract_level(self.level[var(l)]));
        let mut keep = 1;
        for k in 1..learnt.len() {
            let l = learnt[k];
            if self.reason[var(l)] == NO_REASON || !self.implied(l, levels) {
                learnt[keep] = l;
                keep += 1;
            }
        }
        learnt.truncate(keep);
        for v in self.to_clear.drain(..) {
            self.seen[v] = false;
        }
        // the second literal: the highest level among the rest (the level to jump back to)
        let mut back_to = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.level[var(learnt[k])] > self.level[var(learnt[best])] {
                    best = k;
                }
            }
            learnt.swap(1, best);
            back_to = self.level[var(learnt[1])];
        }
        self.stamp += 1;
        let mut lbd = 0;
        for &l in &learnt {
            let lv = self.level[var(l)] as usize;
            if self.level_stamp[lv] != self.stamp {
                self.level_stamp[lv] = self.stamp;
                lbd += 1;
            }
        }
        (learnt, back_to, lbd)
    }

    /// Whether the false literal `lit` of a learnt clause is implied by the clause's other
    /// literals (those marked `seen`) and root facts, through the reasons of the literals it
    /// depends on. `levels`: the clause's levels as [`abstract_level`] bits (a literal of another
    /// level cannot be implied by the clause). The literals found implied stay marked, so later
    /// calls reuse them; on failure the marks of this call are undone.
    fn implied(&mut self, lit: Lit, levels: u32) -> bool {
        let mut stack = std::mem::take(&mut self.implied_stack);
        let mut reason_lits = std::mem::take(&mut self.reason_buf);
        stack.clear();
        stack.push(lit);
        let top = self.to_clear.len();
        let mut implied = true;
        'walk: while let Some(q) = stack.pop() {
            reason_lits.clear();
            self.for_reason(self.reason[var(q)], var(q), |l| reason_lits.push(l));
            for &l in &reason_lits {
                let v = var(l);
                if self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != NO_REASON && abstract_level(self.level[v]) & levels != 0 {
                    self.seen[v] = true;
                    self.to_clear.push(v);
                    stack.push(l);
                } else {
                    for v in self.to_clear.drain(top..) {
                        self.seen[v] = false;
                    }
                    implied = false;
                    break 'walk;
                }
            }
        }
        self.implied_stack = stack;
        self.reason_buf = reason_lits;
        implied
    }

    fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.var_inc;
        if self.activity[v] > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    fn bump_clause(&mut self, c: u32) {
        let meta = &mut self.clauses[c as usize];
        if !meta.learnt {
            return;
        }
        meta.activity += self.clause_inc;
        if meta.activity > 1e20 {
            for m in self.clauses.iter_mut().filter(|m| m.learnt) {
                m.activity *= 1e-20;
            }
            self.clause_inc *= 1e-20;
        }
    }

    /// Undoes every assignment above `level`, saving the phases.
    fn backtrack(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let keep = self.trail_lim[level as usize];
        for k in (keep..self.trail.len()).rev() {
            let v = var(self.trail[k]);
            self.phase[v] = self.value[2 * v] == TRUE;
            self.value[2 * v] = UNDEF;
            self.value[2 * v + 1] = UNDEF;
            self.reason[v] = NO_REASON;
            self.heap.insert(v, &self.activity);
        }
        self.trail.truncate(keep);
        self.trail_lim.truncate(level as usize);
        self.qhead = keep;
    }

    /// The unassigned variable of highest activity.
    fn pick(&mut self) -> Option<usize> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[2 * v] == UNDEF {
                return Some(v);
            }
        }
        None
    }

    /// Drops about half the learnt clauses: the ones with the highest literal-block distance and
    /// the least activity, keeping those of distance two or less and those that are reasons.
    fn reduce(&mut self) {
        let mut candidates: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&c| {
                let m = self.clauses[c as usize];
                m.learnt && !m.deleted && m.lbd > 2 && !self.locked(c)
            })
            .collect();
        candidates.sort_by(|&a, &b| {
            let (x, y) = (self.clauses[a as usize], self.clauses[b as usize]);
            y.lbd.cmp(&x.lbd).then(x.activity.total_cmp(&y.activity))
        });
        for &c in &candidates[..candidates.len() / 2] {
            let m = &mut self.clauses[c as usize];
            m.deleted = true;
            self.deleted_lits += 2 + m.len as usize;
            self.learnt_count -= 1;
        }
        // propagation never looks at a deleted clause: its watches go now
        let (lits, clauses) = (&self.lits, &self.clauses);
        for ws in &mut self.watches {
            ws.retain(|w| !clauses[lits[w.start as usize - 2] as usize].deleted);
        }
        self.max_learnt += self.max_learnt / 10;
        self.reductions += 1;
        if self.deleted_lits > self.lits.len() / 2 {
            self.collect_garbage();
        }
    }

    /// Whether clause `c` is the reason of its first literal's assignment.
    fn locked(&self, c: u32) -> bool {
        let first = self.lits[self.clauses[c as usize].start as usize];
        self.reason[var(first)] == CLAUSE | c && self.lit_value(first) == TRUE
    }

    /// Compacts the clause store after deletions, renumbering clauses in watches and reasons.
    fn collect_garbage(&mut self) {
        let mut renumber = vec![u32::MAX; self.clauses.len()];
        let mut lits = Vec::with_capacity(self.lits.len() - self.deleted_lits);
        let mut clauses = Vec::with_capacity(self.clauses.len());
        for (i, m) in self.clauses.iter().enumerate() {
            if m.deleted {
                continue;
            }
            renumber[i] = clauses.len() as u32;
            lits.extend_from_slice(&[clauses.len() as u32, m.len]);
            let start = lits.len() as u32;
            lits.extend_from_slice(&self.lits[m.start as usize..(m.start + m.len) as usize]);
            clauses.push(Clause { start, ..*m });
        }
        // (watches of deleted clauses are gone already)
        for ws in &mut self.watches {
            for w in ws.iter_mut() {
                let old = self.lits[w.start as usize - 2] as usize;
                w.start = clauses[renumber[old] as usize].start;
            }
        }
        for r in &mut self.reason {
            if *r != NO_REASON && *r & CLAUSE != 0 {
                let to = renumber[(*r & !CLAUSE) as usize];
                debug_assert_ne!(to, u32::MAX, "a reason clause was deleted");
                *r = CLAUSE | to;
            }
        }
        self.lits = lits;
        self.clauses = clauses;
        self.deleted_lits = 0;
        self.compactions += 1;
    }
}

/// A decision level as one of 32 bits, for a quick test that a level is not among a clause's.
#[inline(always)]
fn abstract_level(level: u32) -> u32 {
    1 << (level & 31)
}

/// Calls `f` with every set bit of `m`.
#[inline(always)]
fn for_bits(mut m: Mask, mut f: impl FnMut(usize)) {
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
    }
}

/// When to restart (as in Glucose): when the learnt clauses of the last [`Restarts::WINDOW`]
/// conflicts have a literal-block distance a quarter above the average of all so far, the
/// search has drifted into a poor region.
#[derive(Default)]
struct Restarts {
    window: std::collections::VecDeque<u32>,
    window_sum: u64,
    total: u64,
    count: u64,
}

impl Restarts {
    const WINDOW: usize = 50;

    /// Takes the distance of a new learnt clause; true when the search should restart.
    fn learnt(&mut self, lbd: u32) -> bool {
        self.total += lbd as u64;
        self.count += 1;
        self.window.push_back(lbd);
        self.window_sum += lbd as u64;
        if self.window.len() > Self::WINDOW {
            self.window_sum -= self.window.pop_front().expect("not empty") as u64;
        }
        let restart = self.window.len() == Self::WINDOW
            && self.window_sum as f64 / Self::WINDOW as f64 * 0.8
                > self.total as f64 / self.count as f64;
        if restart {
            self.window.clear();
            self.window_sum = 0;
        }
        restart
    }
}

/// A max-heap of variables by activity.
struct Heap {
    items: Vec<usize>,
    /// Per variable, its position in `items` or `usize::MAX`.
    pos: Vec<usize>,
}

impl Heap {
    fn new(n: usize) -> Self {
        Heap {
            items: Vec::with_capacity(n),
            pos: vec![usize::MAX; n],
        }
    }

    fn insert(&mut self, v: usize, act: &[f64]) {
        if self.pos[v] != usize::MAX {
            return;
        }
        self.pos[v] = self.items.len();
        self.items.push(v);
        self.up(self.items.len() - 1, act);
    }

    fn increased(&mut self, v: usize, act: &[f64]) {
        if self.pos[v] != usize::MAX {
            self.up(self.pos[v], act);
        }
    }

    fn pop(&mut self, act: &[f64]) -> Option<usize> {
        let top = *self.items.first()?;
        let last = self.items.pop().expect("not empty");
        self.pos[top] = usize::MAX;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.pos[last] = 0;
            self.down(0, act);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let v = self.items[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.items[parent];
            if act[p] >= act[v] {
                break;
            }
            self.items[i] = p;
            self.pos[p] = i;
            i = parent;
        }
        self.items[i] = v;
        self.pos[v] = i;
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let v = self.items[i];
        let len = self.items.len();
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && act[self.items[right]] > act[self.items[left]] {
                right
            } else {
                left
            };
            let c = self.items[child];
            if act[c] <= act[v] {
                break;
            }
            self.items[i] = c;
            self.pos[c] = i;
            i = child;
        }
        self.items[i] = v;
        self.pos[v] = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::Searcher;
    use crate::geometry::builtin;
    use rand::{Rng, SeedableRng};

    fn cdcl_count(e: &Engine, givens: &[Option<u8>], limit: u64) -> Count {
        let mut s = Searcher::new(e);
        let Some(root) = s.initial(givens) else {
            return Count {
                count: 0,
                complete: true,
                solutions: Vec::new(),
                nodes: 0,
            };
        };
        Cdcl::new(e, &root)
            .expect("unique shapes only")
            .count(limit, Limits::none())
    }

    /// A restart comes once recent distances run a quarter above the average, and not before
    /// a full window.
    #[test]
    fn restarts_follow_recent_distances() {
        let mut r = Restarts::default();
        assert!(
            (0..200).all(|_| !r.learnt(4)),
            "steady distances never restart"
        );
        let first = (0..Restarts::WINDOW).position(|_| r.learnt(8));
        assert!(first.is_some_and(|k| k > 0), "{first:?}");
    }

    /// With learnt clauses dropped as soon as there are any (the clause store compacted again
    /// and again, watches and reasons renumbered), counts still agree with depth-first search.
    #[test]
    fn counts_agree_when_learnt_clauses_are_dropped_at_once() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut reductions, mut compactions) = (0, 0);
        for name in ["classic6", "classic9", "classic16"] {
            let e = Engine::new(&builtin::load(name).unwrap());
            let n = e.n_cells;
            let grid = e.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            for _ in 0..12 {
                let mut givens = vec![None; n];
                for _ in 0..n / 5 {
                    let c = rng.gen_range(0..n);
                    givens[c] = Some(grid[c]);
                }
                let want = e.count(&givens, 300, Limits::none());
                let root = Searcher::new(&e)
                    .initial(&givens)
                    .expect("givens from a grid");
                let mut s = Cdcl::new(&e, &root).expect("unique shapes only");
                s.max_learnt = 0;
                let got = s.count(300, Limits::none());
                assert_eq!((got.count, got.complete), (want.count, want.complete));
                reductions += s.reductions;
                compactions += s.compactions;
            }
        }
        assert!(reductions > 100, "only {reductions} reductions");
        assert!(compactions > 10, "only {compactions} compactions");
    }

    /// Known exact counts, every solution excluded in turn: 288 grids of the empty 4x4 classic,
    /// 576 of the empty 4x4 Latin square.
    #[test]
    fn known_counts() {
        let latin4 = "name = \"Latin 4\"\nsymbols = \"1234\"\n[[grid]]\nsize = 4\n";
        for (name, want) in [("classic4", 288), ("latin4", 576)] {
            let g = match name {
                "latin4" => crate::geometry::build::from_toml(latin4).unwrap(),
                _ => builtin::load(name).unwrap(),
            };
            let e = Engine::new(&g);
            let got = cdcl_count(&e, &vec![None; e.n_cells], 10_000);
            assert_eq!((got.count, got.complete), (want, true), "{name}");
        }
    }

    /// Random partial grids (some with a wrong given) on several layouts: the same counts as the
    /// depth-first search, and every reported solution keeps the givens and breaks no rule.
    #[test]
    fn counts_agree_with_depth_first_search() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        // unique shapes smaller than the symbol set: their rule is only in the peer constraints
        let small_shapes = "name = \"6x6 with small unique shapes\"\nsymbols = \"123456\"\n\
            [[grid]]\nsize = 6\nboxes = [2, 3]\n\
            [[shape]]\ncells = \"r1c1 r3c4 r6c2\"\n[[shape]]\ncells = \"r2c6 r5c1 r4c3 r6c5\"\n";
        for (name, range) in [
            ("small shapes", 10..22),
            ("classic6", 14..26),
            ("classic9", 24..40),
            ("x", 20..34),
            ("jigsaw", 22..38),
            ("windoku", 20..34),
            ("classic16", 120..190),
        ] {
            let g = match name {
                "small shapes" => crate::geometry::build::from_toml(small_shapes).unwrap(),
                _ => builtin::load(name).unwrap(),
            };
            let e = Engine::new(&g);
            let n = e.n_cells;
            let grid = e.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            let (mut at_most_one, mut more) = (0, 0);
            for _ in 0..40 {
                let mut givens = vec![None; n];
                for _ in 0..rng.gen_range(range.clone()) {
                    let c = rng.gen_range(0..n);
                    givens[c] = Some(if rng.gen_bool(0.01) {
                        rng.gen_range(0..e.n_symbols as u8)
                    } else {
                        grid[c]
                    });
                }
                let limits = Limits {
                    max_nodes: Some(100_000),
                    max_time: None,
                };
                let want = e.count(&givens, 5, limits);
                if !want.complete {
                    continue;
                }
                let got = cdcl_count(&e, &givens, 5);
                assert_eq!(got.count, want.count, "{name}: {givens:?}");
                for sol in &got.solutions {
                    assert!(givens
                        .iter()
                        .zip(sol)
                        .all(|(g, &s)| g.is_none_or(|g| g == s)));
                    assert!((0..n).all(|c| e.peers(c).iter().all(|&p| sol[p as usize] != sol[c])));
                }
                if want.count == 1 {
                    assert_eq!(got.solutions, want.solutions, "{name}");
                }
                if want.count <= 1 {
                    at_most_one += 1;
                } else {
                    more += 1;
                }
            }
            assert!(
                at_most_one > 0 && more > 0,
                "{name}: {at_most_one} with at most one solution, {more} with more"
            );
        }
    }

    /// Through the searcher: CDCL from the start and depth-first search alone give the same
    /// answers on random partial grids of wide layouts (16x16, 25x25).
    #[test]
    fn searcher_with_and_without_cdcl_agree() {
        use crate::engine::Status;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for (name, range) in [("classic16", 120..200), ("classic25", 380..470)] {
            let g = builtin::load(name).unwrap();
            let (cdcl, dfs) = Engine::with_and_without_cdcl(&g);
            let n = dfs.n_cells;
            let grid = dfs.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            let mut statuses = Vec::new();
            for _ in 0..12 {
                let mut givens = vec![None; n];
                for _ in 0..rng.gen_range(range.clone()) {
                    let c = rng.gen_range(0..n);
                    givens[c] = Some(grid[c]);
                }
                let limits = Limits {
                    max_nodes: Some(200_000),
                    max_time: None,
                };
                let want = dfs.count(&givens, 2, limits);
                if !want.complete {
                    continue;
                }
                let got = cdcl.count(&givens, 2, Limits::none());
                assert_eq!(got.status(), want.status(), "{name}");
                if want.status() == Status::Unique {
                    assert_eq!(got.solutions, want.solutions, "{name}");
                }
                statuses.push(want.status());
            }
            assert!(statuses.len() >= 8, "{name}: too many budget stops");
            assert!(statuses.contains(&Status::Multiple), "{name}: {statuses:?}");
        }
    }

    /// A node budget stops CDCL with an unknown answer instead of running on.
    #[test]
    fn honours_the_node_budget() {
        let g = builtin::load("classic25").unwrap();
        let e = Engine::new(&g);
        let mut s = Searcher::new(&e);
        let root = s.initial(&vec![None; e.n_cells]).unwrap();
        let mut solver = Cdcl::new(&e, &root).unwrap();
        let limits = Limits {
            max_nodes: Some(50),
            max_time: None,
        };
        let got = solver.count(2, limits);
        assert!(!got.complete && got.nodes <= 50, "{got:?}");
        assert_eq!(got.status(), crate::engine::Status::Unknown);
    }

    /// Saved phases set to a solution lead straight to it: decisions that agree with a solution
    /// never conflict. The preferred grid is the second one found, so the default phases do not
    /// lead there by themselves.
    #[test]
    fn preferring_a_solution_finds_it_without_conflicts() {
        for name in ["classic9", "classic16"] {
            let g = builtin::load(name).unwrap();
            let e = Engine::new(&g);
            let root = Searcher::new(&e).initial(&vec![None; e.n_cells]).unwrap();
            let mut first = Cdcl::new(&e, &root).unwrap();
            let budget = Budget::from(Limits::none());
            let Outcome::Solution(a) = first.solve(&budget) else {
                panic!("{name}: no first grid");
            };
            first.exclude(&a);
            let Outcome::Solution(b) = first.solve(&budget) else {
                panic!("{name}: no second grid");
            };
            assert_ne!(a, b);
            let mut fresh = Cdcl::new(&e, &root).unwrap();
            fresh.prefer(&b);
            let Outcome::Solution(got) = fresh.solve(&budget) else {
                panic!("{name}: no grid with preferred phases");
            };
            assert_eq!(got, b, "{name}: the preferred grid is not the one found");
            assert_eq!(fresh.conflicts(), 0, "{name}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Any givens on a 6x6, consistent or not: CDCL counts what depth-first search counts,
        /// up to 30, and finds the same solution when it is unique.
        #[test]
        fn agrees_on_any_6x6_givens(
            givens in proptest::collection::vec(proptest::option::weighted(0.15, 0u8..6), 36)
        ) {
            let g = builtin::load("classic6").unwrap();
            let e = Engine::new(&g);
            let want = e.count(&givens, 30, Limits::none());
            let got = cdcl_count(&e, &givens, 30);
            proptest::prop_assert_eq!(got.count, want.count);
            if want.count == 1 {
                proptest::prop_assert_eq!(&got.solutions, &want.solutions);
            }
        }
    }
}
