//! Decisions: variable activity (VSIDS, bumped in conflict analysis, decayed by growing the
//! increment by `1 / decay` per conflict, [`decay_for`]; or, in a count from nothing on a model
//! without sum shapes, a learning rate that the bumps feed, [`super::rate`]) kept in a
//! max-heap; its saved phase chooses the decided variable's value. In a search from nothing
//! (not near a preferred solution), besides the variables the analysis resolves on, those in
//! the stored clauses that forced the learnt clause's literals are bumped too (reason-side
//! bumping, as in CaDiCaL: [`Cdcl::bump_reason_side`]).
//!
//! On models with sum shapes the unassigned variable of highest activity is decided. On models
//! without, the decision is taken among the [`FEWEST_AMONG`] most active unassigned variables:
//! the most active of those in the shortest open clause, counting both sides of a candidate
//! "cell c holds t": the candidates left in c and, per complete shape holding c, the places
//! left for t (as depth-first search branches on the fewest choices), so decisions fall where
//! propagation follows at once and conflicts come sooner. To try another rule for plain models,
//! change [`Cdcl::pick_shortest`]; measure conflicts (seeded activities, several seeds) and
//! time on the 36x36 puzzles of docs/PERFORMANCE.md and on a 25x25 thinning (`thin_profile`).

use super::{var, Cdcl, Lit, CLAUSE, NO_CLAUSE, NO_REASON, TRUE, UNDEF};

/// The activity decay per conflict (each conflict's bumps weigh `1 / decay` times the last
/// one's) of a search on a model with sum shapes, or near a preferred solution.
const FAST_DECAY: f64 = 0.95;
/// The activity decay of a search from nothing on a model without sum shapes (a count or a
/// solve: mostly the proof that no other solution exists), where remembering more conflicts
/// leaves fewer of them to find.
const SLOW_DECAY: f64 = 0.995;

/// The activity decay for a model with (`sums`) or without sum shapes, searching `near` a
/// preferred solution ([`Cdcl::prefer`]) or not. To retune it, measure conflicts on the plain
/// 36x36 counts (several symbol renamings) and whole `generate` runs on 25x25 and 36x36.
pub(super) fn decay_for(sums: bool, near: bool) -> f64 {
    if sums || near {
        FAST_DECAY
    } else {
        SLOW_DECAY
    }
}

/// How many of the most active unassigned variables a decision on a model without sum shapes
/// looks at.
const FEWEST_AMONG: usize = 32;

/// Reason-side bumping stops once it has bumped this many variables per literal of the learnt
/// clause (CaDiCaL's limit).
const REASON_SIDE_LIMIT: usize = 10;

impl Cdcl<'_> {
    /// Bumps the variables of the stored clauses that are the reasons of `learnt`'s literals,
    /// those not bumped by the analysis already (marked `seen`; they are marked too, until the
    /// analysis' marks are cleared), up to [`REASON_SIDE_LIMIT`] per literal of `learnt`. Peer
    /// constraints and sum shapes' explanations are not followed: bumping the placements behind
    /// the removed candidates cost conflicts on the 36x36 counts (docs/PERFORMANCE.md).
    pub(super) fn bump_reason_side(&mut self, learnt: &[Lit]) {
        let limit = REASON_SIDE_LIMIT * learnt.len();
        let mut bumped = 0;
        for &l in learnt {
            let reason = self.vars[var(l)].reason;
            if reason == NO_REASON || reason & CLAUSE == 0 {
                continue;
            }
            for k in self.clause_range(reason) {
                let u = var(self.lits[k]);
                if !self.seen[u] && self.vars[u].level > 0 {
                    self.seen[u] = true;
                    self.to_clear.push(u);
                    self.bump_var(u);
                    bumped += 1;
                }
            }
            if bumped > limit {
                break;
            }
        }
    }

    pub(super) fn bump_var(&mut self, v: usize) {
        if let Some(rates) = self.rates.as_mut() {
            rates.took_part(v);
            return;
        }
        self.activity[v] += self.var_inc;
        if self.activity[v] > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.heap.scale(1e-100);
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// The literal to decide next: a caller's first ones ([`super::first`]), then the rule's
    /// variable (see the module docs) with its saved phase, or true when decisions place
    /// symbols; `None` when every variable is assigned.
    pub(super) fn decision(&mut self) -> Option<Lit> {
        if let Some(l) = self.next_first() {
            return Some(l);
        }
        let v = self.pick()?;
        Some(2 * v as Lit + (!self.place && !self.phase[v]) as Lit)
    }

    /// The variable to decide next (see the module docs), `None` when every one is assigned.
    pub(super) fn pick(&mut self) -> Option<usize> {
        if self.sums.is_none() {
            return self.pick_shortest();
        }
        while let Some(v) = self.heap.pop() {
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
            let Some(v) = self.heap.pop() else {
                break;
            };
            if self.value[2 * v] != UNDEF {
                continue;
            }
            // by learning rate, a variable unassigned for a while decays first and goes back
            if let Some(r) = self.rates.as_mut() {
                if let Some(f) = r.stale(v, self.conflicts) {
                    self.activity[v] *= f;
                    self.heap.insert(v, &self.activity);
                    continue;
                }
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
    /// fixpoint no open clause has fewer than two, so a count of two ends the look. A shape's
    /// places are read from its stored clause for t ([`Cdcl::places`]), which lists only the
    /// cells that allowed t at the root, instead of from all its cells.
    fn open_choices(&self, v: usize) -> u32 {
        let (e, n) = (self.e, self.n);
        let (c, t) = (self.map.cell(v), self.map.symbol(v));
        let undef = |u: usize| self.value[2 * u] == UNDEF;
        let mut fewest: u32 = self.map.of_cell(c).map(|u| undef(u) as u32).sum();
        let w = e.shape_words;
        for (i, &word) in e.cell_bits[c * w..(c + 1) * w].iter().enumerate() {
            let mut bits = word;
            while bits != 0 && fewest > 2 {
                let shape = i * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // the shape's clause for t lists its places left at the root; one pass: a
                // shape where t is placed holds no open clause for t
                let c = self.places[shape * n + t];
                if c == NO_CLAUSE {
                    continue;
                }
                let m = &self.clauses[c as usize];
                let mut places = 0;
                for &l in &self.lits[m.start as usize..(m.start + m.len) as usize] {
                    match self.lit_value(l) {
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

/// A max-heap of variables by activity. Each entry holds a copy of its variable's activity
/// ([`Heap::increased`] and [`Heap::scale`] keep it equal to the solver's), so that sifting reads
/// the heap alone instead of the activity array at scattered variables.
pub(super) struct Heap {
    items: Vec<Entry>,
    /// Per variable, its position in `items` or [`Heap::OUT`].
    pos: Vec<u32>,
}

/// A variable in the heap, with its activity.
#[derive(Clone, Copy)]
struct Entry {
    act: f64,
    v: u32,
}

impl Heap {
    const OUT: u32 = u32::MAX;

    pub(super) fn new(n: usize) -> Self {
        Heap {
            items: Vec::with_capacity(n),
            pos: vec![Self::OUT; n],
        }
    }

    #[inline]
    pub(super) fn insert(&mut self, v: usize, act: &[f64]) {
        if self.pos[v] != Self::OUT {
            return;
        }
        self.pos[v] = self.items.len() as u32;
        self.items.push(Entry {
            act: act[v],
            v: v as u32,
        });
        self.up(self.items.len() - 1);
    }

    /// `v`'s activity grew to `act[v]`.
    pub(super) fn increased(&mut self, v: usize, act: &[f64]) {
        let i = self.pos[v];
        if i != Self::OUT {
            self.items[i as usize].act = act[v];
            self.up(i as usize);
        }
    }

    /// Every activity was multiplied by `factor` (as the solver's are: the same products).
    pub(super) fn scale(&mut self, factor: f64) {
        for e in &mut self.items {
            e.act *= factor;
        }
    }

    pub(super) fn pop(&mut self) -> Option<usize> {
        let top = self.items.first()?.v as usize;
        let last = self.items.pop().expect("not empty");
        self.pos[top] = Self::OUT;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.pos[last.v as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize) {
        let e = self.items[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.items[parent];
            if p.act >= e.act {
                break;
            }
            self.items[i] = p;
            self.pos[p.v as usize] = i as u32;
            i = parent;
        }
        self.items[i] = e;
        self.pos[e.v as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize) {
        let e = self.items[i];
        let len = self.items.len();
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.items[right].act > self.items[left].act {
                right
            } else {
                left
            };
            let c = self.items[child];
            if c.act <= e.act {
                break;
            }
            self.items[i] = c;
            self.pos[c.v as usize] = i as u32;
            i = child;
        }
        self.items[i] = e;
        self.pos[e.v as usize] = i as u32;
    }
}
