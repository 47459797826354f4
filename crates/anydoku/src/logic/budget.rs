//! Budgets for the logic: a deadline and a count of trial assumptions, shared by every rule of
//! one solve, and the context a rule is called with.
//!
//! The cheap rules never look at the budget; the expensive ones (forcing chains and nets, which
//! try one assumption after another) call [`Budget::tick`] for each assumption and give up,
//! leaving [`Cx::exhaustive`] false, once it says the budget ran out. The solver then stops
//! with the steps found so far.
//!
//! Time is wall time unless the budget is made [`on a clock`](Budget::on_clock) of the
//! caller's (the tuning tools pass the thread's CPU time, so that runs on a loaded machine get
//! as much work done as runs on an idle one).

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::engine::Limits;

/// A deadline and a limit on trial assumptions ("nodes"), with what was used so far.
#[derive(Debug)]
pub struct Budget {
    deadline: Option<Deadline>,
    max_nodes: Option<u64>,
    nodes: Cell<u64>,
    out: Cell<bool>,
    /// Calls to [`Budget::poll`] since it last read the clock.
    polls: Cell<u32>,
}

/// [`Budget::poll`] reads the clock once in this many calls.
const POLL_EVERY: u32 = 8;

/// When the time runs out: an instant of wall time, or a reading of a caller's clock.
#[derive(Debug, Clone, Copy)]
enum Deadline {
    Wall(Instant),
    Clock(fn() -> Duration, Duration),
}

impl Deadline {
    /// The time left (zero once passed).
    fn left(self) -> Duration {
        match self {
            Deadline::Wall(d) => d.saturating_duration_since(Instant::now()),
            Deadline::Clock(clock, d) => d.saturating_sub(clock()),
        }
    }

    fn passed(self) -> bool {
        match self {
            Deadline::Wall(d) => Instant::now() >= d,
            Deadline::Clock(clock, d) => clock() >= d,
        }
    }
}

impl Budget {
    /// A budget from the engine's limits, starting now (time is wall time).
    pub fn new(limits: Limits) -> Self {
        let deadline = limits.max_time.and_then(|t| Instant::now().checked_add(t));
        Budget::with_deadline(limits, deadline.map(Deadline::Wall))
    }

    /// A budget from the engine's limits whose time is measured on `clock` (the time passed
    /// since some fixed start, such as the calling thread's CPU time), starting now. A search
    /// the logic hands over to the engine gets what is left of it as wall time.
    pub fn on_clock(limits: Limits, clock: fn() -> Duration) -> Self {
        let deadline = limits.max_time.and_then(|t| clock().checked_add(t));
        Budget::with_deadline(limits, deadline.map(|d| Deadline::Clock(clock, d)))
    }

    fn with_deadline(limits: Limits, deadline: Option<Deadline>) -> Self {
        Budget {
            deadline,
            max_nodes: limits.max_nodes,
            nodes: Cell::new(0),
            out: Cell::new(false),
            polls: Cell::new(0),
        }
    }

    /// No limit.
    pub fn unlimited() -> Self {
        Budget::new(Limits::none())
    }

    /// Counts one trial assumption; true when the budget has run out.
    pub fn tick(&self) -> bool {
        let n = self.nodes.get() + 1;
        self.nodes.set(n);
        if self.max_nodes.is_some_and(|m| n > m) {
            self.out.set(true);
        }
        self.poll()
    }

    /// [`Budget::is_out`] for the hot loops (one call per trial assumption or so): reads the
    /// clock only once in [`POLL_EVERY`] calls, so a deadline is seen a few assumptions late.
    pub(crate) fn poll(&self) -> bool {
        let k = self.polls.get() + 1;
        if k < POLL_EVERY {
            self.polls.set(k);
            return self.out.get();
        }
        self.polls.set(0);
        self.is_out()
    }

    /// Whether the budget has run out (checks the clock).
    pub fn is_out(&self) -> bool {
        if !self.out.get() && self.deadline.is_some_and(Deadline::passed) {
            self.out.set(true);
        }
        self.out.get()
    }

    /// Trial assumptions counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.get()
    }

    /// What is left of the budget, as limits for an engine search.
    pub fn remaining(&self) -> Limits {
        Limits {
            max_nodes: self
                .max_nodes
                .map(|m| m.saturating_sub(self.nodes.get()).max(1)),
            max_time: self.deadline.map(Deadline::left),
        }
    }
}

/// What a rule is told when it is asked for a step.
#[derive(Debug)]
pub struct Cx<'a> {
    /// The board stamp at which this rule last searched the whole board in vain (0: never).
    /// A rule may then look only at patterns that include a cell changed since.
    pub since: u32,
    /// (stamp S, position P): the rule's last search, at stamp S, found its step at position
    /// P of its scan (a shape, or a symbol), so every position before P found nothing at S
    /// and need only be looked at again if it changed since S. (0, 0): nothing known.
    pub resume: (u32, usize),
    /// Set by a rule that reads `resume`: the position of the step it returns.
    pub found_at: usize,
    /// Only steps lighter than this are wanted.
    pub cap: f64,
    /// Chain rules only look for chains (and nets) of at most this many nodes: a net that
    /// nests them adds their size to its own.
    pub max_size: usize,
    /// Cleared by a rule that cut its search short (a step heavier than `cap` skipped, or the
    /// budget ran out), so that "found nothing" does not mean "there is nothing".
    pub exhaustive: bool,
    /// Set for a rule used inside another rule's search, which reads only a step's
    /// eliminations, cells and shapes: the rule may leave the reason empty.
    pub terse: bool,
    pub budget: &'a Budget,
}

impl<'a> Cx<'a> {
    /// A full search for any step.
    pub fn new(budget: &'a Budget) -> Self {
        Cx {
            since: 0,
            resume: (0, 0),
            found_at: 0,
            cap: f64::INFINITY,
            max_size: usize::MAX,
            exhaustive: true,
            terse: false,
            budget,
        }
    }

    /// The stamp since which position `pos` of a rule's scan must have changed to be worth
    /// looking at (see `resume`).
    pub fn since_at(&self, pos: usize) -> u32 {
        if pos < self.resume.1 {
            self.resume.0.max(self.since)
        } else {
            self.since
        }
    }

    /// Whether a step of weight `w` is wanted; if not, the search is no longer exhaustive.
    pub fn wants(&mut self, w: f64) -> bool {
        if w < self.cap {
            true
        } else {
            self.exhaustive = false;
            false
        }
    }

    /// Counts a trial assumption; true (and the search no longer exhaustive) when out of budget.
    pub fn tick(&mut self) -> bool {
        if self.budget.tick() {
            self.exhaustive = false;
            true
        } else {
            false
        }
    }

    /// A context for a rule used inside another rule's search (no memory of earlier searches,
    /// the same budget, no reasons wanted).
    pub fn nested(&self) -> Cx<'a> {
        Cx {
            terse: true,
            ..Cx::new(self.budget)
        }
    }

    /// A step's reason, or nothing when the step is for another rule's search.
    pub fn reason(&self, text: impl FnOnce() -> String) -> String {
        if self.terse {
            String::new()
        } else {
            text()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A clock the test moves by hand (milliseconds).
    static NOW_MS: AtomicU64 = AtomicU64::new(1000);

    fn fake_clock() -> Duration {
        Duration::from_millis(NOW_MS.load(Ordering::SeqCst))
    }

    /// A budget on a caller's clock runs out when that clock passes it, whatever the wall
    /// clock says, and hands what is left of it to a search.
    #[test]
    fn a_budget_on_a_clock_follows_that_clock() {
        let limits = Limits {
            max_nodes: None,
            max_time: Some(Duration::from_millis(500)),
        };
        let b = Budget::on_clock(limits, fake_clock);
        assert!(!b.is_out());
        NOW_MS.fetch_add(200, Ordering::SeqCst);
        assert!(!b.tick());
        assert_eq!(b.remaining().max_time, Some(Duration::from_millis(300)));
        NOW_MS.fetch_add(300, Ordering::SeqCst);
        assert!(b.is_out());
        assert_eq!(b.remaining().max_time, Some(Duration::ZERO));
        // without a time limit the clock is never read as a deadline
        let free = Budget::on_clock(Limits::none(), fake_clock);
        NOW_MS.fetch_add(1_000_000, Ordering::SeqCst);
        assert!(!free.is_out());
        assert_eq!(free.remaining().max_time, None);
    }
}
