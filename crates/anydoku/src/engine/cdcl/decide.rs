//! Decisions: variable activity (VSIDS, bumped in conflict analysis, decayed by growing the
//! increment) kept in a max-heap; its saved phase chooses the decided variable's value.
//!
//! On models with sum shapes the unassigned variable of highest activity is decided. On models
//! without, the decision is taken among the [`FEWEST_AMONG`] most active unassigned variables:
//! the most active of those in the shortest open clause, counting both sides of a candidate
//! "cell c holds t": the candidates left in c and, per complete shape holding c, the places
//! left for t (as depth-first search branches on the fewest choices), so decisions fall where
//! propagation follows at once and conflicts come sooner. To try another rule for plain models,
//! change [`Cdcl::pick_shortest`]; measure conflicts (seeded activities, several seeds) and
//! time on the 36x36 puzzles of docs/PERFORMANCE.md and on a 25x25 thinning (`thin_profile`).

use super::{Cdcl, TRUE, UNDEF};

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
            return self.pick_shortest();
        }
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[2 * v] == UNDEF {
                return Some(v);
            }
        }
        None
    }

    /// Among the [`FEWEST_AMONG`] most active unassigned variables, the first one in a shortest
    /// open clause ([`Cdcl::open_choices`]); the others go back into the heap. Popping stops at
    /// two choices: propagation leaves no unassigned variable in a clause with fewer.
    fn pick_shortest(&mut self) -> Option<usize> {
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
            let left = self.open_choices(v);
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

    /// The length of the shortest open clause holding unassigned value variable `v` ("cell c
    /// holds t"): the candidates left in c, or, per complete shape holding c (as far as the
    /// engine tracks them, `shape_words`), the places left there for t. At a propagation
    /// fixpoint no open clause has fewer than two, so a count of two ends the look.
    fn open_choices(&self, v: usize) -> u32 {
        let (e, n) = (self.e, self.n);
        let (c, t) = (v / n, v % n);
        let undef = |u: usize| self.value[2 * u] == UNDEF;
        let mut fewest: u32 = (c * n..(c + 1) * n).map(|u| undef(u) as u32).sum();
        let w = e.shape_words;
        for (i, &word) in e.cell_bits[c * w..(c + 1) * w].iter().enumerate() {
            let mut bits = word;
            while bits != 0 && fewest > 2 {
                let shape = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let cells = &e.complete[shape * n..(shape + 1) * n];
                // one pass: a shape where t is placed holds no open clause for t
                let mut places = 0;
                for &d in cells {
                    match self.value[2 * (d as usize * n + t)] {
                        TRUE => {
                            places = u32::MAX;
                            break;
                        }
                        UNDEF => places += 1,
                        _ => {}
                    }
                }
                fewest = fewest.min(places);
            }
        }
        fewest
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
