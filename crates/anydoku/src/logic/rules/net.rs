//! Propagating assumptions: what follows when candidates are assumed on or off, with the
//! reasons (parents) of each consequence, as Sudoku Explainer's forcing chains do.
//!
//! A potential is a candidate node with a state: `(c * n + v) * 2 + on`. From an on potential
//! follow the off potentials of the cell's other candidates and of its peers holding the
//! symbol; from an off potential follow the on potential of a cell left with one candidate
//! (naked single) and of a symbol left with one place in a shape that must hold it (hidden
//! single). In a *static* net the cells and places are read on the board as it is; in a
//! *dynamic* net every off potential is taken out of a working copy first, so the singles it
//! creates count, and their parents include the earlier eliminations that made them (which
//! is what makes dynamic chains longer in SE's measure). A *Nishio* net only follows one
//! symbol (no links inside cells).
//!
//! On a board with sums, a dynamic net also keeps each sum shape whose cells lost candidates to
//! the symbols some valid assignment of it still uses (cage combinations), when nothing else
//! follows; then each constraint kind's shape (thermometer, arrow, ...) narrows the working
//! copy with its propagator (a shape it leaves unsatisfiable is a contradiction). From level 1 on, when nothing more follows, the net asks the simple rules (overlap, pairs,
//! X-Wing; from level 2 forcing chains, from level 3 cell and region forcing chains, from
//! level 4 dynamic forcing chains) for eliminations on the working copy: those are "nested"
//! reasoning. When the net meets a potential and its opposite, the assumptions contradict.
//!
//! This module holds the net's state and its propagation loop (singles); the whole-shape steps
//! are in `shapes`, nested reasoning in `nested`, the queues and going back in `queue`, reading
//! a finished propagation in `measure` and keeping one in `snapshot`.

use super::links::{Graph, Mode};
use super::sum_memo::SumMemo;
use super::LogicRule;
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;

mod measure;
mod nested;
mod queue;
mod shapes;
mod snapshot;
pub use queue::Mark;
pub use snapshot::Snapshot;

/// How a net propagates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetMode {
    pub dynamic: bool,
    pub nishio: bool,
    /// Nesting level (0: singles only).
    pub level: usize,
}

/// A propagation in progress, reused from one set of assumptions to the next.
pub struct Net<'a> {
    pub b: &'a Board,
    pub n: usize,
    pub mode: NetMode,
    /// Static nets follow these links.
    graph: Option<std::sync::Arc<Graph>>,
    /// The working candidates of a dynamic net.
    work: Vec<Mask>,
    gen: u32,
    /// Per potential, what the propagation knows of it.
    slot: Vec<Slot>,
    /// The parents of the potentials reached, each one's in a run ([`Slot::start`]).
    arena: Vec<u32>,
    /// The potentials reached, in order. The on potentials not yet followed are those of
    /// `order` from `on_next` on, the off ones those from `off_next` on: two queues in one.
    pub order: Vec<u32>,
    on_next: usize,
    off_next: usize,
    /// The off potentials whose candidates this propagation took out of `work`, in order.
    removed: Vec<u32>,
    /// Where the last propagation first stopped at `limit` ([`Net::rewind`] goes back there).
    pub stop: Option<Mark>,
    /// Potentials this far from the assumptions are not followed further.
    pub limit: u16,
    /// Nested chains larger than this are not looked for (they would make the net too large).
    pub inner_size: usize,
    /// Whether the last propagation stopped somewhere at `limit`.
    pub cut: bool,
    /// Whether the nested searches of the last propagation were complete (none cut short).
    pub complete: bool,
    /// Scratch for counting ancestors.
    mark: Vec<u32>,
    mark_gen: u32,
    stack: Vec<u32>,
    /// Rules for nested reasoning (level 1 and up), cheapest first.
    nested: Vec<Box<dyn LogicRule>>,
    /// The board the nested rules read (the working candidates), kept from one use to the next.
    inner: Option<Board>,
    /// Whether `inner` was brought back to the board since the last reset.
    synced: bool,
    /// The cells where `inner` may differ from the board, and how many of `removed` it
    /// has taken out.
    inner_cells: Vec<usize>,
    inner_at: usize,
    /// Per nested rule, the stamp of `inner` when it last found nothing in this propagation.
    since: Vec<u32>,
    /// Per nested rule, where its last search of this propagation found its step, and when
    /// (see [`Cx::resume`]).
    resume: Vec<(u32, usize)>,
    /// The stamp of `inner` when it last showed no contradiction in this propagation (0: not
    /// looked at yet).
    clean: u32,
    /// Whether the net keeps sum shapes to valid assignments (dynamic nets on boards with sums).
    sums: bool,
    /// Sum shapes whose cells lost candidates, to look at when nothing else follows.
    dirty: Vec<usize>,
    dirty_at: Vec<u32>,
    /// Per unique sum shape, its cells' candidates once its support was applied, in
    /// propagation `fixed_at` (cells at `fixed_start`): the same candidates again (only its
    /// own removals since) have the same support, so nothing more to remove.
    fixed: Vec<Mask>,
    fixed_start: Vec<u32>,
    fixed_at: Vec<u32>,
    /// Sum shapes' supports met by this net, and scratch for a shape's candidates and support.
    memo: SumMemo,
    cands: Vec<Mask>,
    support: Vec<Mask>,
    /// Per shape and symbol, the empty cells of the working copy holding it.
    count: Vec<u16>,
    base_count: Vec<u16>,
    /// Per symbol, the empty cells of the working copy holding it ([`Board::words`] words).
    holds: Vec<u64>,
    base_holds: Vec<u64>,
    out: Out,
    /// The potentials [`Net::run_until`] waits for, and how many of them (in order) are
    /// known to be reached.
    until: Vec<u32>,
    until_at: usize,
}

/// What a net knows of one potential, in one place (a visit reads one cache line).
#[derive(Clone, Copy)]
struct Slot {
    /// The propagation that last reached it (its `gen`).
    seen: u32,
    /// Its parents: where they start in `arena`, and how many.
    start: u32,
    len: u16,
    /// Its distance from the assumptions (the longest line of parents).
    depth: u16,
    /// Extra size it brings (the size of the nested chain that produced it).
    extra: u32,
    /// The constraint shape that produced it (`u32::MAX`: none).
    via: u32,
}

/// Potentials produced by one step of a net, with their parents.
#[derive(Default)]
struct Out {
    /// (potential, start in `par`, number of parents); a potential already reached when it
    /// is produced may come without the parents after the first (they are not read)
    pots: Vec<(u32, u32, u16)>,
    par: Vec<u32>,
}

impl Out {
    fn clear(&mut self) {
        self.pots.clear();
        self.par.clear();
    }
    fn one(&mut self, q: u32, parent: u32) {
        self.start(q, parent);
        self.close();
    }
    fn start(&mut self, q: u32, parent: u32) {
        self.pots.push((q, self.par.len() as u32, 0));
        self.par.push(parent);
    }
    fn close(&mut self) {
        let last = self.pots.last_mut().expect("a potential started");
        last.2 = (self.par.len() as u32 - last.1) as u16;
    }
}

impl<'a> Net<'a> {
    pub fn new(b: &'a Board, mode: NetMode) -> Self {
        let n = b.n_symbols;
        let pots = 2 * b.cell_count() * n;
        let mut base_count = vec![0u16; b.shapes.len() * n];
        for (s, shape) in b.shapes.iter().enumerate() {
            for &c in &shape.cells {
                if b.value[c].is_none() {
                    for v in bits(b.cand[c]) {
                        base_count[s * n + v] += 1;
                    }
                }
            }
        }
        let mut base_holds = vec![0u64; n * b.words];
        for c in (0..b.cell_count()).filter(|&c| b.value[c].is_none()) {
            for v in bits(b.cand[c]) {
                base_holds[v * b.words + c / 64] |= 1 << (c % 64);
            }
        }
        let nested = if mode.dynamic && !mode.nishio {
            super::nested_rules(mode.level)
        } else {
            Vec::new()
        };
        let n_nested = nested.len();
        let sums = mode.dynamic && !mode.nishio && b.shapes.iter().any(|s| s.sum.is_some());
        let mut fixed_start = Vec::with_capacity(b.shapes.len() + 1);
        fixed_start.push(0u32);
        for shape in b.shapes.iter() {
            fixed_start.push(fixed_start[fixed_start.len() - 1] + shape.cells.len() as u32);
        }
        Net {
            b,
            n,
            mode,
            graph: (!mode.dynamic).then(|| Graph::of(b, false)),
            work: b.cand.clone(),
            gen: 0,
            slot: vec![
                Slot {
                    seen: 0,
                    start: 0,
                    len: 0,
                    depth: 0,
                    extra: 0,
                    via: u32::MAX
                };
                pots
            ],
            arena: Vec::new(),
            order: Vec::new(),
            on_next: 0,
            off_next: 0,
            removed: Vec::new(),
            stop: None,
            mark: vec![0; pots],
            mark_gen: 0,
            stack: Vec::new(),
            limit: u16::MAX,
            inner_size: usize::MAX,
            cut: false,
            complete: true,
            nested,
            inner: None,
            synced: false,
            inner_cells: Vec::new(),
            inner_at: 0,
            since: vec![0; n_nested],
            resume: vec![(0, 0); n_nested],
            clean: 0,
            sums,
            memo: SumMemo::new(b, sums),
            cands: Vec::new(),
            support: Vec::new(),
            dirty: Vec::new(),
            dirty_at: vec![0; b.shapes.len()],
            fixed: vec![0; fixed_start[b.shapes.len()] as usize],
            fixed_at: vec![0; b.shapes.len()],
            fixed_start,
            count: base_count.clone(),
            base_count,
            holds: base_holds.clone(),
            base_holds,
            out: Out::default(),
            until: Vec::new(),
            until_at: 0,
        }
    }

    /// The same net with `rules` as its nested reasoning (instead of the level's).
    pub fn with_nested(mut self, rules: Vec<Box<dyn LogicRule>>) -> Self {
        (self.since, self.resume) = (vec![0; rules.len()], vec![(0, 0); rules.len()]);
        self.nested = rules;
        self
    }

    /// Number of potentials.
    pub fn potentials(&self) -> usize {
        self.slot.len()
    }

    /// Starts a new propagation from nothing.
    pub fn reset(&mut self) {
        self.gen += 1;
        self.cut = false;
        self.complete = true;
        self.synced = false;
        self.dirty.clear();
        self.arena.clear();
        self.order.clear();
        self.on_next = 0;
        self.off_next = 0;
        self.removed.clear();
        self.stop = None;
        if self.mode.dynamic {
            self.work.copy_from_slice(&self.b.cand);
            self.count.copy_from_slice(&self.base_count);
            self.holds.copy_from_slice(&self.base_holds);
        }
    }

    /// Whether potential `p` was reached by the current propagation.
    #[inline]
    pub fn has(&self, p: u32) -> bool {
        self.slot[p as usize].seen == self.gen
    }

    fn add(&mut self, p: u32, parents: &[u32], extra: u32) {
        let depth = parents
            .iter()
            .map(|&q| self.slot[q as usize].depth + 1)
            .max()
            .unwrap_or(0);
        let (start, len) = (self.arena.len() as u32, parents.len() as u16);
        self.slot[p as usize] = Slot {
            seen: self.gen,
            start,
            len,
            depth,
            extra,
            via: u32::MAX,
        };
        self.arena.extend_from_slice(parents);
        self.order.push(p);
    }

    /// [`Net::add`] with one parent and no extra size: most potentials, kept light.
    #[inline]
    fn add_one(&mut self, p: u32, parent: u32) {
        let depth = self.slot[parent as usize].depth + 1;
        let start = self.arena.len() as u32;
        self.slot[p as usize] = Slot {
            seen: self.gen,
            start,
            len: 1,
            depth,
            extra: 0,
            via: u32::MAX,
        };
        self.arena.push(parent);
        self.order.push(p);
    }

    /// Assumes potential `p` (an assumption has no parents).
    pub fn assume(&mut self, p: u32) {
        if !self.has(p) {
            self.add(p, &[], 0);
        }
    }

    /// The parents of a reached potential.
    pub fn parents(&self, p: u32) -> &[u32] {
        let slot = &self.slot[p as usize];
        &self.arena[slot.start as usize..slot.start as usize + slot.len as usize]
    }

    /// Propagates until nothing more follows. Returns the two opposite potentials met, if the
    /// assumptions contradict (the on one first); `None` also when the budget ran out (then
    /// `cx.exhaustive` is false).
    pub fn run(&mut self, cx: &mut Cx) -> Option<(u32, u32)> {
        let mut out = std::mem::take(&mut self.out);
        let met = self.drain(cx, &mut out);
        self.out = out;
        met
    }

    /// [`Net::run`] that stops as soon as every potential of `targets` is reached: what lies
    /// behind a potential is fixed once it is reached, so its [`Net::size`] is known then. It
    /// reports no contradiction when it stops early. A net with nested rules runs to the end
    /// (their searches tell `cx` whether they were complete).
    pub fn run_until(
        &mut self,
        cx: &mut Cx,
        targets: impl Iterator<Item = u32>,
    ) -> Option<(u32, u32)> {
        self.until.clear();
        if self.nested.is_empty() {
            self.until.extend(targets);
        }
        self.until_at = 0;
        let met = self.run(cx);
        self.until.clear();
        met
    }

    /// Whether every potential [`Net::run_until`] waits for is reached.
    fn all_reached(&mut self) -> bool {
        while self.until_at < self.until.len() && self.has(self.until[self.until_at]) {
            self.until_at += 1;
        }
        self.until_at == self.until.len()
    }

    fn drain(&mut self, cx: &mut Cx, out: &mut Out) -> Option<(u32, u32)> {
        loop {
            if !self.until.is_empty() && self.all_reached() {
                return None;
            }
            let on = if let Some((i, p)) = self.next(true) {
                out.clear();
                if self.slot[p as usize].depth < self.limit {
                    if self.graph.is_none() {
                        // (added as they come: the same order as through `out`)
                        match self.follow_on(p) {
                            Some(pair) => return Some(pair),
                            None => continue,
                        }
                    }
                    self.on_to_off(p, out);
                } else {
                    self.stopped(true, i);
                }
                true
            } else if let Some((i, p)) = self.next(false) {
                out.clear();
                if self.slot[p as usize].depth < self.limit {
                    self.off_to_on(p, out);
                } else {
                    self.stopped(false, i);
                }
                if self.mode.dynamic {
                    self.remove(p);
                }
                false
            } else {
                match self.sum_step() {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(pair) => return Some(pair),
                }
                match self.constraint_step() {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(pair) => return Some(pair),
                }
                if self.nested.is_empty() {
                    return None;
                }
                match self.nested_step(cx) {
                    Ok(true) => continue,
                    Ok(false) => return None,
                    Err(pair) => return Some(pair),
                }
            };
            for i in 0..out.pots.len() {
                let (q, s, l) = out.pots[i];
                if !self.has(q) {
                    let (s, l) = (s as usize, l as usize);
                    if l == 1 {
                        self.add_one(q, out.par[s]);
                    } else {
                        self.add(q, &out.par[s..s + l], 0);
                    }
                }
                if self.has(q ^ 1) {
                    return Some(if on { (q ^ 1, q) } else { (q, q ^ 1) });
                }
            }
        }
    }

    /// The cell and symbol of a potential.
    pub fn cand(&self, p: u32) -> (usize, usize) {
        let (node, n) = (p / 2, self.n as u32);
        ((node / n) as usize, (node % n) as usize)
    }

    fn pot(&self, c: usize, v: usize, on: bool) -> u32 {
        ((c * self.n + v) * 2 + on as usize) as u32
    }

    /// The off potentials an on potential makes in a static net (the links of its graph).
    fn on_to_off(&self, p: u32, out: &mut Out) {
        let Some(g) = &self.graph else { return };
        let m = Mode {
            x: true,
            y: !self.mode.nishio,
            grouped: false,
        };
        g.weak(self.b, (p / 2) as usize, m, &mut |w| {
            out.one((2 * w) as u32, p)
        });
    }

    /// What an on potential makes in a dynamic net: the off potentials of the cell's other
    /// candidates and of its peers holding the symbol, in order, each added as it comes (one
    /// parent: `p`); the two opposite potentials met, if any.
    fn follow_on(&mut self, p: u32) -> Option<(u32, u32)> {
        let (c, v) = self.cand(p);
        if !self.mode.nishio {
            for w in bits(self.work[c] & !(1 << v)) {
                let q = self.pot(c, w, false);
                if self.reach_from(q, p) {
                    return Some((q ^ 1, q));
                }
            }
        }
        let (words, peers) = (self.b.words, self.b.peer_set(c));
        for (w, &peer) in peers.iter().enumerate() {
            for i in bits(peer & self.holds[v * words + w]) {
                let q = self.pot(w * 64 + i, v, false);
                if self.reach_from(q, p) {
                    return Some((q ^ 1, q));
                }
            }
        }
        None
    }

    /// Reaches `q` from `p` (its one parent) unless it was reached; whether its opposite was.
    #[inline(always)]
    fn reach_from(&mut self, q: u32, p: u32) -> bool {
        if !self.has(q) {
            self.add_one(q, p);
        }
        self.has(q ^ 1)
    }

    fn off_to_on(&self, p: u32, out: &mut Out) {
        if let Some(g) = &self.graph {
            let m = Mode {
                x: true,
                y: !self.mode.nishio,
                grouped: false,
            };
            g.strong((p / 2) as usize, m, &mut |w, _| {
                out.one((2 * w + 1) as u32, p)
            });
            return;
        }
        let b = self.b;
        let n = self.n;
        let (c, v) = self.cand(p);
        if !self.mode.nishio && self.work[c].count_ones() == 2 && b.value[c].is_none() {
            let w = (self.work[c] & !(1 << v)).trailing_zeros() as usize;
            let q = self.pot(c, w, true);
            out.start(q, p);
            // (the parents of a potential already reached are not read)
            if !self.has(q) {
                for x in bits(b.cand[c] & !self.work[c]) {
                    out.par.push(self.pot(c, x, false));
                }
            }
            out.close();
        }
        for &s in b.unique_of[c].iter() {
            if self.count[s * n + v] != 2 || b.open_required(s) & (1 << v) == 0 {
                continue;
            }
            // the other place left, and the places the net took away (the parents after `p`)
            let (words, set) = (b.words, b.shape_set(s));
            let (holds, base) = (&self.holds[v * words..], &self.base_holds[v * words..]);
            let not_c = |w: usize| if w == c / 64 { !(1u64 << (c % 64)) } else { !0 };
            let Some(other) = (0..words).find_map(|w| {
                bits(set[w] & holds[w] & not_c(w))
                    .next()
                    .map(|i| w * 64 + i)
            }) else {
                continue;
            };
            let q = self.pot(other, v, true);
            out.start(q, p);
            if !self.has(q) {
                for w in 0..words {
                    for i in bits(set[w] & base[w] & !holds[w] & not_c(w)) {
                        out.par.push(self.pot(w * 64 + i, v, false));
                    }
                }
            }
            out.close();
        }
    }

    /// Takes `p`'s candidate out of the working copy (dynamic nets).
    fn remove(&mut self, p: u32) {
        let (c, v) = self.cand(p);
        if self.work[c] & (1 << v) != 0 {
            self.removed.push(p);
            self.work[c] &= !(1 << v);
            self.holds[v * self.b.words + c / 64] &= !(1u64 << (c % 64));
            for &s in self.b.unique_of[c].iter() {
                self.count[s * self.n + v] -= 1;
            }
            if self.sums {
                for &s in self.b.shapes_of[c].iter() {
                    if self.b.shapes[s].sum.is_some() && self.dirty_at[s] != self.gen {
                        self.dirty_at[s] = self.gen;
                        self.dirty.push(s);
                    }
                }
            }
        }
    }
}
