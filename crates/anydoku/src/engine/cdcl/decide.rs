//! Decisions: variable activity (VSIDS, bumped in conflict analysis, decayed by growing the
//! increment) kept in a max-heap, and the unassigned variable of highest activity picked next
//! (its saved phase chooses the value).

use super::{Cdcl, UNDEF};

impl Cdcl<'_> {
    pub(super) fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.var_inc;
        if self.activity[v] > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// The unassigned variable of highest activity.
    pub(super) fn pick(&mut self) -> Option<usize> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[2 * v] == UNDEF {
                return Some(v);
            }
        }
        None
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
