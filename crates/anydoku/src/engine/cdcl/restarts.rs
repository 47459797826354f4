//! Restarts as in Glucose: when recent learnt clauses are worse than usual.

/// When to restart (as in Glucose): when the learnt clauses of the last [`Restarts::WINDOW`]
/// conflicts have a literal-block distance a quarter above the average of all so far, the
/// search has drifted into a poor region.
#[derive(Default)]
pub(super) struct Restarts {
    window: std::collections::VecDeque<u32>,
    window_sum: u64,
    total: u64,
    count: u64,
}

impl Restarts {
    pub(super) const WINDOW: usize = 50;

    /// Takes the distance of a new learnt clause; true when the search should restart.
    pub(super) fn learnt(&mut self, lbd: u32) -> bool {
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
