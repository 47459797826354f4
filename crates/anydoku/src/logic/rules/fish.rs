//! Fish of size k (generalised X-Wing k=2, Swordfish k=3, Jellyfish k=4) on any shapes.
//!
//! For a symbol s, take k *base* shapes in which s is required and whose s-candidates are
//! pairwise disjoint (so they hold k different placements of s). If those candidates are covered
//! by k unique *cover* shapes (each holds s at most once), every cover holds exactly one of the
//! placements: s leaves every cover cell outside the bases, and every base cell lying in two
//! covers. Nothing here knows rows from boxes: rows/columns give the classic fish, boxes and
//! diagonals give "franken" fish, for free.
//!
//! The search stays local: a fish that is not connected (some bases share no possible cover
//! with the others) splits into smaller fish, so only connected sets of bases are enumerated,
//! each once (ESU, as in [`crate::geometry::partition`]), and a partial set is dropped as soon
//! as its candidates need more than k covers. After a search found nothing, the next one only
//! grows sets from bases whose places for the symbol changed since.

use std::mem::take;

use super::{LogicRule, Step};
use crate::logic::board::Board;
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Fish with `k` base and `k` cover shapes.
pub struct Fish(pub usize);

/// "X-Wing", "Swordfish", "Jellyfish", or "Fish of size k".
pub fn fish_name(k: usize) -> String {
    match k {
        2 => "X-Wing".into(),
        3 => "Swordfish".into(),
        4 => "Jellyfish".into(),
        k => format!("Fish of size {k}"),
    }
}

/// One possible base: a shape and whether its places changed since the last search (its
/// s-candidates are in [`Buffers::sets`]).
#[derive(Clone, Copy)]
struct Base {
    shape: usize,
    dirty: bool,
}

/// The search for one symbol (its buffers are reused from one symbol to the next).
struct Search<'a> {
    b: &'a Board,
    v: usize,
    k: usize,
    /// `words` words per base in [`Buffers::near`].
    words: usize,
    /// The search's buffers, kept between searches of one thread.
    buf: Buffers,
    found: Option<Step>,
    /// Whether the step's reason may be left empty (see [`Cx::terse`]).
    terse: bool,
    /// Sets grown (the budget is polled every so often).
    work: u64,
}

impl LogicRule for Fish {
    fn name(&self) -> &str {
        "Fish"
    }
    fn family(&self) -> Family {
        Family::Fish
    }
    fn min_weight(&self) -> f64 {
        rate::fish(self.0)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        // a fish needs a base whose places changed since the last search
        let changed = b.symbols_changed_since(cx.since);
        let mut s = Search::new(b, self.0);
        s.terse = cx.terse;
        for v in (0..b.n_symbols).filter(|&v| changed & (1 << v) != 0) {
            // changed bases first: a set is grown from its first base, so only sets with a
            // changed base are ever grown
            if !s.load(v, cx.since) {
                continue;
            }
            if s.run(cx) {
                return None;
            }
            if s.found.is_some() {
                return s.found.take();
            }
        }
        None
    }
}

/// The buffers of a [`Search`], kept between searches of one thread: a net asks for fish
/// at every step of every branch, and fresh buffers each time cost more than the search.
#[derive(Default)]
struct Buffers {
    bases: Vec<Base>,
    /// Per base, its s-candidates as a bitset of cells ([`Board::words`] words each).
    sets: Vec<u64>,
    /// `words` words per base: the bases it may share a cover with.
    near: Vec<u64>,
    /// The chosen bases and the union of their candidates (a bitset of cells).
    chosen: Vec<usize>,
    union: Vec<u64>,
    /// All cells of the chosen base shapes.
    cells: Vec<u64>,
    /// Per shape, whether it is a chosen base.
    base_shape: Vec<bool>,
    /// Scratch for the cover search: k + 1 sets of cells, and the covers chosen.
    stack: Vec<u64>,
    chosen_covers: Vec<usize>,
    /// Scratch for the set enumeration: per number of chosen bases d (1 to k − 1), the bases
    /// the set may grow by and the bases already considered (`words` words each).
    levels: Vec<u64>,
    /// The empty cells holding the symbol.
    holds: Vec<u64>,
    /// Scratch: the cells a base's candidates see.
    seen: Vec<u64>,
}

thread_local! {
    static BUFFERS: std::cell::Cell<Option<Buffers>> = const { std::cell::Cell::new(None) };
}

/// `v` cleared and filled with `n` copies of `x`.
fn reset<T: Clone>(mut v: Vec<T>, n: usize, x: T) -> Vec<T> {
    v.clear();
    v.resize(n, x);
    v
}

impl Drop for Search<'_> {
    fn drop(&mut self) {
        let bufs = take(&mut self.buf);
        BUFFERS.with(|c| c.set(Some(bufs)));
    }
}

impl<'a> Search<'a> {
    fn new(b: &'a Board, k: usize) -> Self {
        let m = BUFFERS.with(|c| c.take()).unwrap_or_default();
        let w = b.words;
        Search {
            b,
            v: 0,
            k,
            words: 0,
            buf: Buffers {
                bases: reset(
                    m.bases,
                    0,
                    Base {
                        shape: 0,
                        dirty: false,
                    },
                ),
                sets: reset(m.sets, 0, 0),
                near: reset(m.near, 0, 0),
                chosen: reset(m.chosen, 0, 0),
                union: reset(m.union, w, 0),
                cells: reset(m.cells, w, 0),
                base_shape: reset(m.base_shape, b.shapes.len(), false),
                stack: reset(m.stack, (k + 1) * w, 0),
                chosen_covers: reset(m.chosen_covers, 0, 0),
                levels: reset(m.levels, 0, 0),
                holds: reset(m.holds, w, 0),
                seen: reset(m.seen, w, 0),
            },
            found: None,
            terse: false,
            work: 0,
        }
    }

    /// The bases of symbol `v`: the shapes requiring it with 2 to k places, changed ones
    /// first (each group in shape order), and which may share a cover. False when no set of
    /// k bases has a changed one.
    fn load(&mut self, v: usize, since: u32) -> bool {
        let (b, k) = (self.b, self.k);
        self.v = v;
        // the empty cells holding v, and each shape's places of v counted from them
        self.buf.holds.copy_from_slice(b.holds(v));
        let holds = &self.buf.holds;
        let places = |i: usize| -> usize {
            b.shape_set(i)
                .iter()
                .zip(holds)
                .map(|(a, h)| (a & h).count_ones() as usize)
                .sum()
        };
        let base_like =
            |i: usize| b.open_required(i) & (1 << v) != 0 && (2..=k).contains(&places(i));
        // only a changed base can start a set: none, no fish
        // (a base requires v)
        let requiring = b.requiring();
        if !requiring
            .iter()
            .any(|&i| b.symbol_changed_since(i, v, since) && base_like(i))
        {
            return false;
        }
        self.buf.bases.clear();
        self.buf.sets.clear();
        for dirty in [true, false] {
            for &i in requiring
                .iter()
                .filter(|&&i| b.symbol_changed_since(i, v, since) == dirty)
            {
                if base_like(i) {
                    self.buf.bases.push(Base { shape: i, dirty });
                    self.buf
                        .sets
                        .extend(b.shape_set(i).iter().zip(holds).map(|(a, h)| a & h));
                }
            }
        }
        if self.buf.bases.len() < k {
            return false;
        }
        self.link();
        true
    }

    /// Two bases are near when a candidate of one sees (or is) a candidate of the other: per
    /// base, the cells its candidates see, met with the other bases' candidates. For k = 2
    /// only the rows of changed bases are read (a set grows once, from its changed first
    /// base), so only they are made.
    fn link(&mut self) {
        let (b, w) = (self.b, self.b.words);
        let n = self.buf.bases.len();
        self.words = n.div_ceil(64);
        let words = self.words;
        self.buf.near.clear();
        self.buf.near.resize(n * words, 0);
        self.buf.levels.clear();
        self.buf.levels.resize(2 * words * (self.k + 1), 0);
        for i in 0..n {
            if self.k == 2 && !self.buf.bases[i].dirty {
                break;
            }
            let set = &self.buf.sets[i * w..(i + 1) * w];
            self.buf.seen.copy_from_slice(set);
            for (x, &word) in set.iter().enumerate() {
                for bit in crate::logic::board::bits(word) {
                    for (s, p) in self.buf.seen.iter_mut().zip(b.peer_set(x * 64 + bit)) {
                        *s |= p;
                    }
                }
            }
            for j in (0..n).filter(|&j| j != i) {
                let other = &self.buf.sets[j * w..(j + 1) * w];
                if other.iter().zip(&self.buf.seen).any(|(a, x)| a & x != 0) {
                    self.buf.near[i * words + j / 64] |= 1 << (j % 64);
                }
            }
        }
    }

    /// The s-candidates of base `i`.
    fn set(&self, i: usize) -> &[u64] {
        let w = self.b.words;
        &self.buf.sets[i * w..(i + 1) * w]
    }

    /// Enumerates connected sets of k bases with a changed one; true when the budget ran out.
    fn run(&mut self, cx: &mut Cx) -> bool {
        let n = self.buf.bases.len();
        let w = self.words;
        for root in 0..n {
            // every set is grown from its first base, which must have changed
            if !self.buf.bases[root].dirty {
                break;
            }
            // level 1: the bases the set may grow by, and those already considered
            for i in 0..w {
                let near = self.buf.near[root * w + i];
                self.buf.levels[2 * w + i] = near & above(root, i);
                self.buf.levels[3 * w + i] = near;
            }
            self.buf.levels[3 * w + root / 64] |= 1 << (root % 64);
            self.push(root);
            let out = self.grow(root, cx);
            self.pop(root);
            if out {
                return true;
            }
            if self.found.is_some() {
                return false;
            }
        }
        false
    }

    fn push(&mut self, i: usize) {
        self.buf.chosen.push(i);
        self.buf.base_shape[self.buf.bases[i].shape] = true;
        let w = self.b.words;
        for (u, s) in self
            .buf
            .union
            .iter_mut()
            .zip(&self.buf.sets[i * w..(i + 1) * w])
        {
            *u |= s;
        }
        let shape = self.b.shape_set(self.buf.bases[i].shape);
        for (u, s) in self.buf.cells.iter_mut().zip(shape) {
            *u |= s;
        }
    }

    fn pop(&mut self, i: usize) {
        self.buf.chosen.pop();
        self.buf.base_shape[self.buf.bases[i].shape] = false;
        let w = self.b.words;
        for (u, s) in self
            .buf
            .union
            .iter_mut()
            .zip(&self.buf.sets[i * w..(i + 1) * w])
        {
            *u &= !s;
        }
        let shape = self.b.shape_set(self.buf.bases[i].shape);
        for (u, s) in self.buf.cells.iter_mut().zip(shape) {
            *u &= !s;
        }
    }

    /// ESU: extends the chosen set of d bases by the bases of level d's extension set (the
    /// first `words` words of `levels` from `2 * words * d`; the closed set follows it); true
    /// when the budget ran out.
    fn grow(&mut self, root: usize, cx: &mut Cx) -> bool {
        let w = self.words;
        let at = 2 * w * self.buf.chosen.len();
        for word in 0..w {
            while self.buf.levels[at + word] != 0 {
                let bits = self.buf.levels[at + word];
                let j = word * 64 + bits.trailing_zeros() as usize;
                self.buf.levels[at + word] = bits & (bits - 1);
                // the base shapes pairwise disjoint
                let shape = self.b.shape_set(self.buf.bases[j].shape);
                if shape.iter().zip(&self.buf.cells).any(|(a, u)| a & u != 0) {
                    continue;
                }
                self.push(j);
                self.work += 1;
                if self.work.is_multiple_of(4096) && cx.budget.is_out() {
                    cx.exhaustive = false;
                    self.pop(j);
                    return true;
                }
                let mut out = false;
                // a full set goes straight to the cover search for eliminations
                if self.buf.chosen.len() == self.k {
                    self.try_covers();
                } else if self.coverable() {
                    let next = at + 2 * w;
                    for i in 0..w {
                        let near = self.buf.near[j * w + i];
                        let closed = self.buf.levels[at + w + i];
                        self.buf.levels[next + i] =
                            self.buf.levels[at + i] | (near & above(root, i) & !closed);
                        self.buf.levels[next + w + i] = closed | near;
                    }
                    out = self.grow(root, cx);
                }
                self.pop(j);
                if out {
                    return true;
                }
                if self.found.is_some() {
                    return false;
                }
            }
        }
        false
    }

    /// Whether the chosen bases' candidates fit in at most k covers.
    fn coverable(&mut self) -> bool {
        let mut covers = take(&mut self.buf.chosen_covers);
        covers.clear();
        let mut stack = take(&mut self.buf.stack);
        stack.iter_mut().for_each(|x| *x = 0);
        let ok = self.covers(&mut covers, &mut stack, &mut |_, _| true);
        self.buf.stack = stack;
        self.buf.chosen_covers = covers;
        ok
    }

    /// Depth-first on the first uncovered candidate: calls `found` with each set of at most k
    /// covers (unique shapes that are not bases) and their union until it returns true.
    /// `stack` holds k + 1 sets of covered cells: the current one first.
    fn covers(
        &self,
        covers: &mut Vec<usize>,
        stack: &mut [u64],
        found: &mut dyn FnMut(&[usize], &[u64]) -> bool,
    ) -> bool {
        let b = self.b;
        let w = b.words;
        let (covered, rest) = stack.split_at_mut(w);
        let (covered, union) = (&covered[..w], &self.buf.union[..w]);
        let mut first = None;
        for (i, (u, c)) in union.iter().zip(covered).enumerate() {
            let open = u & !c;
            if open != 0 {
                first = Some(i * 64 + open.trailing_zeros() as usize);
                break;
            }
        }
        let Some(c) = first else {
            return found(covers, covered);
        };
        if covers.len() == self.k {
            return false;
        }
        // a cover already chosen holds c, so only the shapes of c that are not bases
        for &s in b.unique_of[c].iter() {
            if self.buf.base_shape[s] {
                continue;
            }
            for ((x, y), z) in rest[..w].iter_mut().zip(&b.shape_set(s)[..w]).zip(covered) {
                *x = y | z;
            }
            covers.push(s);
            if self.covers(covers, rest, found) {
                return true;
            }
            covers.pop();
        }
        false
    }

    /// Looks for k covers with eliminations for the chosen bases.
    fn try_covers(&mut self) {
        let b = self.b;
        let v = self.v;
        let mut result = None;
        let mut covers = take(&mut self.buf.chosen_covers);
        covers.clear();
        let mut stack = take(&mut self.buf.stack);
        stack.iter_mut().for_each(|x| *x = 0);
        let holds = &self.buf.holds;
        self.covers(&mut covers, &mut stack, &mut |covers, _| {
            // v leaves the cover cells outside the bases and the base cells in two covers
            let any = (0..b.words).any(|i| {
                let (mut once, mut twice) = (0u64, 0u64);
                for &s in covers {
                    let x = b.shape_set(s)[i];
                    twice |= once & x;
                    once |= x;
                }
                holds[i] & ((once & !self.buf.union[i]) | twice) != 0
            });
            if !any {
                return false;
            }
            let mut elim: Vec<usize> = Vec::new();
            for &s in covers {
                for c in b.with_candidate(&b.shapes[s].cells, v) {
                    let in_base = self.buf.union[c / 64] >> (c % 64) & 1 == 1;
                    let in_covers = covers
                        .iter()
                        .filter(|&&t| b.shape_set(t)[c / 64] >> (c % 64) & 1 == 1)
                        .count();
                    if !in_base || in_covers > 1 {
                        elim.push(c);
                    }
                }
            }
            elim.sort_unstable();
            elim.dedup();
            if elim.is_empty() {
                return false;
            }
            result = Some((covers.to_vec(), elim));
            true
        });
        self.buf.stack = stack;
        self.buf.chosen_covers = covers;
        let Some((covers, elim)) = result else {
            return;
        };
        let k = self.k;
        let cells: Vec<usize> = self
            .buf
            .chosen
            .iter()
            .flat_map(|&i| {
                let set = self.set(i);
                b.shapes[self.buf.bases[i].shape]
                    .cells
                    .iter()
                    .copied()
                    .filter(move |&c| set[c / 64] >> (c % 64) & 1 == 1)
            })
            .collect();
        let base_ids: Vec<usize> = self
            .buf
            .chosen
            .iter()
            .map(|&i| self.buf.bases[i].shape)
            .collect();
        let names = |ids: &[usize]| {
            ids.iter()
                .map(|&s| b.shapes[s].name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        self.found = Some(Step {
            rule: fish_name(k),
            family: Family::Fish,
            size: k,
            weight: rate::fish(k),
            reason: if self.terse {
                String::new()
            } else {
                format!(
                    "{} must appear once in each of {}, and there it can only go in {}, all inside {}",
                    b.sym(v),
                    names(&base_ids),
                    b.cells_text(&cells),
                    names(&covers)
                )
            },
            shapes: base_ids.into_iter().chain(covers).collect(),
            cells,
            placements: vec![],
            eliminations: elim.into_iter().map(|c| (c, v as u8)).collect(),
        });
    }
}

/// Word `word` of the set of indices above `v`.
fn above(v: usize, word: usize) -> u64 {
    match word.cmp(&(v / 64)) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Equal => !0u64 << (v % 64) << 1,
        std::cmp::Ordering::Greater => !0,
    }
}
