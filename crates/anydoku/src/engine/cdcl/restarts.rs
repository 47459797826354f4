//! Restarts as in Glucose: when recent learnt clauses are worse than usual, unless the trail is
//! much longer than usual (then the search may be close to a solution, and the restart is
//! blocked).

use std::collections::VecDeque;

/// When to restart (as in Glucose): when the learnt clauses of the last [`Restarts::WINDOW`]
/// conflicts have a literal-block distance a quarter above the average of all so far, the
/// search has drifted into a poor region. Restart blocking (Glucose 2.1): once
/// [`Restarts::BLOCK_AFTER`] conflicts have passed, a conflict whose trail is more than
/// [`Restarts::BLOCK_FACTOR`] times the average trail length of the last
/// [`Restarts::TRAIL_WINDOW`] conflicts empties the window, which postpones the next restart
/// by at least a window's conflicts: a long trail means many cells settled without a clash, and
/// a satisfiable search (the first solution, a uniqueness check's second one) often lies ahead.
#[derive(Default)]
pub(super) struct Restarts {
    window: VecDeque<u32>,
    window_sum: u64,
    total: u64,
    count: u64,
    trail: VecDeque<u32>,
    trail_sum: u64,
}

impl Restarts {
    pub(super) const WINDOW: usize = 50;
    pub(super) const TRAIL_WINDOW: usize = 5000;
    pub(super) const BLOCK_AFTER: u64 = 10_000;
    pub(super) const BLOCK_FACTOR: f64 = 1.4;

    /// Takes the distance of a new learnt clause and the trail's length at its conflict; true
    /// when the search should restart.
    pub(super) fn learnt(&mut self, lbd: u32, trail: usize) -> bool {
        self.trail.push_back(trail as u32);
        self.trail_sum += trail as u64;
        if self.trail.len() > Self::TRAIL_WINDOW {
            self.trail_sum -= self.trail.pop_front().expect("not empty") as u64;
        }
        if self.count > Self::BLOCK_AFTER
            && self.window.len() == Self::WINDOW
            && self.trail.len() == Self::TRAIL_WINDOW
            && trail as f64 > Self::BLOCK_FACTOR * self.trail_sum as f64 / Self::TRAIL_WINDOW as f64
        {
            self.window.clear();
            self.window_sum = 0;
        }
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
