//! Decisions: variable activity (VSIDS, bumped in conflict analysis, decayed by growing the
//! increment) kept in a max-heap; its saved phase chooses the decided variable's value.
//!
//! On models with sum shapes the unassigned variable of highest activity is decided. On models
//! without, the decision is taken among the [`FEWEST_AMONG`] most active unassigned variables:
//! the most active of those whose cell has the fewest candidates left (as depth-first search
//! branches on the cell with fewest candidates), so decisions fall where propagation follows
//! at once and conflicts come sooner. To try another rule for plain models, change
//! [`Cdcl::pick_fewest`]; measure conflicts and time on the 36x36 puzzles of
//! docs/PERFORMANCE.md and on a 25x25 thinning (`thin_profile`).

use super::{Cdcl, UNDEF};

/// How many of the most active unassigned variables a decision on a model without sum shapes
/// looks at.
const FEWEST_AMONG: usize = 32;

impl Cdcl<'_> {
    pub(super) fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.var_inc;
        if self.activity[v] > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// The variable to decide next (see the module docs), `None` when every one is assigned.
    pub(super) fn pick(&mut self) -> Option<usize> {
        if self.sums.is_none() {
            return self.pick_fewest();
        }
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[2 * v] == UNDEF {
                return Some(v);
            }
        }
        None
    }

    /// Among the [`FEWEST_AMONG`] most active unassigned variables, the first of a cell with
    /// fewest candidates left; the others go back into the heap. Popping stops at a cell with
    /// two candidates: propagation leaves no unassigned variable in a cell with fewer.
    fn pick_fewest(&mut self) -> Option<usize> {
        let mut top = [0usize; FEWEST_AMONG];
        let mut taken = 0;
        let mut best: Option<(u32, usize)> = None;
        while taken < FEWEST_AMONG {
            let Some(v) = self.heap.pop(&self.activity) else {
                break;
            };
            if self.value[2 * v] != UNDEF {
                continue;
            }
            top[taken] = v;
            let left = self.candidates_left(v);
            if best.is_none_or(|(fewest, _)| left < fewest) {
                best = Some((left, taken));
            }
            taken += 1;
            if left <= 2 {
                break;
            }
        }
        let (_, chosen) = best?;
        for (i, &v) in top[..taken].iter().enumerate() {
            if i != chosen {
                self.heap.insert(v, &self.activity);
            }
        }
        Some(top[chosen])
    }

    /// The unassigned candidates of value variable `v`'s cell.
    fn candidates_left(&self, v: usize) -> u32 {
        let c = v / self.n;
        (c * self.n..(c + 1) * self.n)
            .filter(|&u| self.value[2 * u] == UNDEF)
            .count() as u32
    }
}

/// A max-heap of variables by activity.
pub(super) struct Heap {
    items: Vec<usize>,
    /// Per variable, its position in `items` or `usize::MAX`.
    pos: Vec<usize>,
}

impl Heap {
    pub(super) fn new(n: usize) -> Self {
        Heap {
            items: Vec::with_capacity(n),
            pos: vec![usize::MAX; n],
        }
    }

    #[inline]
    pub(super) fn insert(&mut self, v: usize, act: &[f64]) {
        if self.pos[v] != usize::MAX {
            return;
        }
        self.pos[v] = self.items.len();
        self.items.push(v);
        self.up(self.items.len() - 1, act);
    }

    pub(super) fn increased(&mut self, v: usize, act: &[f64]) {
        if self.pos[v] != usize::MAX {
            self.up(self.pos[v], act);
        }
    }

    pub(super) fn pop(&mut self, act: &[f64]) -> Option<usize> {
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

    pub(super) fn up(&mut self, mut i: usize, act: &[f64]) {
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

    pub(super) fn down(&mut self, mut i: usize, act: &[f64]) {
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
