//! Learning-rate branching (LRB, Liang, Ganesh, Poupart and Czarnecki 2016): the activity of a
//! variable as the share of the conflicts it took part in while it was assigned, averaged over
//! its assignments (an exponential moving average with weight [`ALPHA`]). It replaces VSIDS's
//! bumps and decay in a count from nothing on a model without sum shapes
//! ([`super::Cdcl::rate_branching`]), where it needs fewer conflicts on the sparse 36x36 counts;
//! the generator's searches near a solution and the sum models keep VSIDS.
//!
//! Each assignment records the conflict count; each variable conflict analysis bumps counts as
//! taking part; when backtracking unassigns a variable, its rate over that assignment moves its
//! average. A rate that rises moves the variable up the decision heap at once; one that falls is
//! left to the heap until the variable next leaves it (the heap's key then is a little high),
//! which saves most of the heap's work. The locality extension (anti-exploration) of the same
//! authors: a variable that stays unassigned decays by [`LOCALITY`] per conflict, applied when
//! it reaches the top of the heap ([`Rates::stale`]; it goes back in with its lower activity),
//! so decisions stay among the variables the latest conflicts unassigned. To retune [`ALPHA`]
//! or [`LOCALITY`], count conflicts on several symbol renamings of michael404's minimal4 and
//! minimal5 (docs/PERFORMANCE.md).

/// The weight of an assignment's rate in the variable's average.
pub(super) const ALPHA: f64 = 0.01;

/// The factor an unassigned variable's activity decays by per conflict while it stays
/// unassigned (the locality extension's 0.95).
pub(super) const LOCALITY: f64 = 0.95;

/// Per variable: when it was last assigned and how often it took part in a conflict since, and
/// when it was last unassigned.
pub(super) struct Rates {
    assigned_at: Vec<u64>,
    participated: Vec<u32>,
    /// When it was last unassigned, or since then last decayed for staying so.
    unassigned_at: Vec<u64>,
}

impl Rates {
    pub(super) fn new(n_vars: usize) -> Self {
        Rates {
            assigned_at: vec![0; n_vars],
            participated: vec![0; n_vars],
            unassigned_at: vec![0; n_vars],
        }
    }

    /// `v` is assigned after `conflicts` conflicts.
    #[inline(always)]
    pub(super) fn assigned(&mut self, v: usize, conflicts: u64) {
        self.assigned_at[v] = conflicts;
        self.participated[v] = 0;
    }

    /// `v` took part in the analysis of a conflict.
    #[inline(always)]
    pub(super) fn took_part(&mut self, v: usize) {
        self.participated[v] += 1;
    }

    /// `v`, of average `activity`, is unassigned after `conflicts` conflicts (recorded for
    /// [`Rates::stale`]): its new average, or `None` when no conflict happened while it was
    /// assigned (the average stays).
    #[inline(always)]
    pub(super) fn unassigned(&mut self, v: usize, conflicts: u64, activity: f64) -> Option<f64> {
        self.unassigned_at[v] = conflicts;
        let interval = conflicts - self.assigned_at[v];
        (interval > 0).then(|| {
            let rate = self.participated[v] as f64 / interval as f64;
            (1.0 - ALPHA) * activity + ALPHA * rate
        })
    }

    /// Unassigned `v`, taken from the top of the decision heap after `conflicts` conflicts:
    /// the factor its activity decays by for the conflicts it stayed unassigned since it was
    /// last unassigned or decayed ([`LOCALITY`] per conflict), or `None` when there were none.
    #[inline(always)]
    pub(super) fn stale(&mut self, v: usize, conflicts: u64) -> Option<f64> {
        let age = conflicts - self.unassigned_at[v];
        (age > 0).then(|| {
            self.unassigned_at[v] = conflicts;
            // (capped to fit the exponent: the factor is negligible long before)
            LOCALITY.powi(age.min(1 << 20) as i32)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_average_and_decay_while_unassigned() {
        let mut r = Rates::new(2);
        r.assigned(0, 10);
        r.took_part(0);
        // one conflict of the two while assigned: the average moves by ALPHA toward 1/2
        let a = r.unassigned(0, 12, 0.0).unwrap();
        assert!((a - ALPHA * 0.5).abs() < 1e-12);
        // no conflict since it was unassigned: no decay; three later: LOCALITY cubed, once
        assert_eq!(r.stale(0, 12), None);
        assert_eq!(r.stale(0, 15), Some(LOCALITY.powi(3)));
        assert_eq!(r.stale(0, 15), None);
        // assigned and unassigned with no conflict between: the average stays
        r.assigned(1, 20);
        assert_eq!(r.unassigned(1, 20, 0.3), None);
    }
}
