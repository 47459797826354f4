//! ALS chains (HoDoKu's ALS-XY-Chain; with three sets, the ALS-XY-Wing).
//!
//! Almost locked sets A1, A2, ..., An (n ≥ 3; see [`super::als`]) where each two consecutive
//! ones are disjoint and share a *restricted common* symbol r (every cell of the one holding r
//! sees every cell of the other holding r, so r is in at most one of them), and two
//! consecutive commons differ. If r1 is not in A1, A1 is locked. If it is, A2 loses r1 and is
//! locked, so r2 is in A2, A3 loses r2 and is locked, and so on: An is locked without its
//! common with An−1. Either way A1 or An is locked, so every symbol z both hold, other than
//! the first and the last common, is in one of them: z leaves every cell that sees all the z's
//! of both. Sets that are not consecutive may share cells: the argument never needs them
//! apart. (Two sets are ALS-XZ, in [`super::als`].)
//!
//! The search: the sets of at most [`MAX_CELLS`] cells; their restricted commons as a graph,
//! found through an index of each set's first cell holding a symbol (a partner's cells holding
//! the symbol must all see every such cell of the set); then from each set and first common a
//! breadth-first search over (set, common it was entered by) up to [`MAX_SETS`] sets. What a
//! chain removes depends only on its first set and common and its last set and common, so the
//! shortest way to each such state is the only one kept. After a search in vain, only chains
//! through a set with a cell changed since can remove something new: the states also say
//! whether the chain has one, and a state without is dropped once no changed set is near
//! enough. The buffers are made once per search; the breadth-first searches allocate only
//! for a chain that removes something. Weight: [`rate::ALS_CHAIN`] plus SE's length bonus on
//! the number of cells of the chain's sets.
//!
//! To extend: raise [`MAX_CELLS`] or [`MAX_SETS`] (the cost grows with the number of sets and
//! of links between them), or allow two linked sets to overlap where their common is absent.

use super::als::{sets, Als};
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// The most cells of one set of a chain.
pub const MAX_CELLS: usize = 4;
/// The most sets in a chain.
pub const MAX_SETS: usize = 5;

/// ALS chains of three sets or more.
pub struct AlsChain;

/// The weight of a chain whose sets hold `cells` cells together.
pub fn weight(cells: usize) -> f64 {
    rate::tenths(rate::ALS_CHAIN + rate::length_bonus(cells))
}

impl LogicRule for AlsChain {
    fn name(&self) -> &str {
        "ALS chain"
    }
    fn family(&self) -> Family {
        Family::Als
    }
    fn min_weight(&self) -> f64 {
        weight(3)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        if !cx.wants(self.min_weight()) {
            return None;
        }
        let sets = sets(b, MAX_CELLS);
        let changed: Vec<bool> = (sets.iter())
            .map(|a| a.cells.iter().any(|&c| b.changed_since(c, cx.since)))
            .collect();
        if !changed.contains(&true) {
            return None;
        }
        let net = Net::of(b, sets);
        Search::new(b, &net, changed, cx.cap).run(cx)
    }
}

/// The sets and the restricted commons between them.
struct Net {
    sets: Vec<Als>,
    /// Words of a cell bitset.
    words: usize,
    /// Per set and symbol it holds (at `at[i]` plus the symbol's rank among the set's), the
    /// cells that see every cell of the set holding the symbol.
    buddy: Vec<u64>,
    at: Vec<usize>,
    /// Per set, the symbols some cell outside it sees in all of the set's cells holding them.
    useful: Vec<Mask>,
    /// The links of set `i`: `to[first[i]..first[i + 1]]`, with their restricted commons.
    first: Vec<usize>,
    to: Vec<u32>,
    common: Vec<Mask>,
}

impl Net {
    fn of(b: &Board, sets: Vec<Als>) -> Net {
        let words = b.words;
        let mut at = Vec::with_capacity(sets.len() + 1);
        let (mut buddy, mut useful) = (Vec::new(), Vec::with_capacity(sets.len()));
        for a in &sets {
            let mut u: Mask = 0;
            at.push(buddy.len() / words);
            for v in bits(a.cand) {
                let from = buddy.len();
                buddy.extend(std::iter::repeat_n(!0u64, words));
                for &c in a.cells.iter().filter(|&&c| b.cand[c] & (1 << v) != 0) {
                    for (w, p) in buddy[from..].iter_mut().zip(b.peer_set(c)) {
                        *w &= p;
                    }
                }
                if buddy[from..]
                    .iter()
                    .zip(b.holds(v))
                    .any(|(w, h)| w & h != 0)
                {
                    u |= 1 << v;
                }
            }
            useful.push(u);
        }
        at.push(buddy.len() / words);
        let mut net = Net {
            sets,
            words,
            buddy,
            at,
            useful,
            first: Vec::new(),
            to: Vec::new(),
            common: Vec::new(),
        };
        net.link(b);
        net
    }

    /// The cells that see every cell of set `i` holding `v` (which the set holds).
    fn buddy(&self, i: usize, v: usize) -> &[u64] {
        let rank = (self.sets[i].cand & ((1 << v) - 1)).count_ones() as usize;
        let k = self.at[i] + rank;
        &self.buddy[k * self.words..(k + 1) * self.words]
    }

    /// Finds the restricted commons of every two disjoint sets.
    fn link(&mut self, b: &Board) {
        let (n, ns, cells) = (self.sets.len(), b.n_symbols, b.cell_count());
        // the sets by their first cell holding each symbol: key v * cells + cell
        let mut start = vec![0usize; ns * cells + 1];
        for a in &self.sets {
            for v in bits(a.cand) {
                start[v * cells + first_with(b, a, v) + 1] += 1;
            }
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut fill = start.clone();
        let mut index = vec![0u32; *start.last().unwrap()];
        for (j, a) in self.sets.iter().enumerate() {
            for v in bits(a.cand) {
                let key = v * cells + first_with(b, a, v);
                index[fill[key]] = j as u32;
                fill[key] += 1;
            }
        }
        let mut acc = vec![0 as Mask; n];
        let mut touched: Vec<usize> = Vec::new();
        self.first.push(0);
        for i in 0..n {
            for v in bits(self.sets[i].cand) {
                let bud = self.buddy(i, v);
                for (w, (&x, &h)) in bud.iter().zip(b.holds(v)).enumerate() {
                    let mut m = x & h;
                    while m != 0 {
                        let f = w * 64 + m.trailing_zeros() as usize;
                        m &= m - 1;
                        for &j in &index[start[v * cells + f]..start[v * cells + f + 1]] {
                            let j = j as usize;
                            if acc[j] & (1 << v) == 0 && self.restricted(b, i, j, v) {
                                if acc[j] == 0 {
                                    touched.push(j);
                                }
                                acc[j] |= 1 << v;
                            }
                        }
                    }
                }
            }
            for &j in &touched {
                self.to.push(j as u32);
                self.common.push(acc[j]);
                acc[j] = 0;
            }
            touched.clear();
            self.first.push(self.to.len());
        }
    }

    /// Whether `v` is a restricted common of sets `i` and `j`, disjoint.
    fn restricted(&self, b: &Board, i: usize, j: usize, v: usize) -> bool {
        let bud = self.buddy(i, v);
        let (a, c) = (&self.sets[i], &self.sets[j]);
        c.cells
            .iter()
            .all(|&d| b.cand[d] & (1 << v) == 0 || bud[d / 64] >> (d % 64) & 1 == 1)
            && !c.cells.iter().any(|d| a.cells.contains(d))
    }
}

/// The first cell of set `a` holding `v` (which it holds).
fn first_with(b: &Board, a: &Als, v: usize) -> usize {
    a.cells
        .iter()
        .copied()
        .find(|&c| b.cand[c] & (1 << v) != 0)
        .unwrap_or(0)
}

/// No parent: the state follows the first set.
const ROOT: u32 = u32::MAX;

/// The breadth-first search over states (set, common it was entered by, whether the chain so
/// far has a set changed since the rule last searched in vain), with its buffers. Only a chain
/// with a changed set can remove something that search did not, so only such chains are
/// checked, and a state without one is not followed further than a changed set can be reached.
struct Search<'a> {
    b: &'a Board,
    net: &'a Net,
    /// Per set, whether a cell of it changed since the last search in vain (all: none yet).
    changed: Vec<bool>,
    /// Per set, the fewest links to a changed set.
    dist: Vec<usize>,
    /// Per state `(set * n_symbols + common) * 2 + changed`: the number of sets up to it (0:
    /// not reached), and the state before it.
    depth: Vec<u8>,
    parent: Vec<u32>,
    queue: Vec<u32>,
    /// The weight a step must stay under (the best one's, or the cap), and the lightest
    /// weight of a chain of each number of sets.
    bar: f64,
    least: [f64; MAX_SETS + 2],
    best: Option<Step>,
}

impl<'a> Search<'a> {
    fn new(b: &'a Board, net: &'a Net, changed: Vec<bool>, cap: f64) -> Self {
        let states = net.sets.len() * b.n_symbols * 2;
        let dist = distances(net, &changed);
        Search {
            b,
            net,
            changed,
            dist,
            depth: vec![0; states],
            parent: vec![ROOT; states],
            queue: Vec::with_capacity(states),
            bar: cap,
            least: std::array::from_fn(weight),
            best: None,
        }
    }

    /// The lightest step over every first set and first common.
    fn run(&mut self, cx: &mut Cx) -> Option<Step> {
        for a in 0..self.net.sets.len() {
            if cx.budget.poll() {
                cx.exhaustive = false;
                break;
            }
            if self.dist[a] < MAX_SETS {
                for r1 in bits(self.net.sets[a].cand) {
                    if self.net.useful[a] & !(1 << r1) == 0 {
                        continue;
                    }
                    self.from(a, r1, cx);
                }
            }
        }
        self.best.take()
    }

    /// Whether a state of `d` sets ending at set `k` is worth following (`f`: with a changed
    /// set already).
    fn open(&self, d: usize, k: usize, f: bool) -> bool {
        f || d.saturating_add(self.dist[k]) <= MAX_SETS
    }

    /// The chains from set `a` entering the next set by `r1`.
    fn from(&mut self, a: usize, r1: usize, cx: &mut Cx) {
        let (net, ns) = (self.net, self.b.n_symbols);
        self.queue.clear();
        for e in net.first[a]..net.first[a + 1] {
            let k = net.to[e] as usize;
            let f = self.changed[a] || self.changed[k];
            if net.common[e] & (1 << r1) != 0 && self.open(2, k, f) {
                let s = (k * ns + r1) * 2 + f as usize;
                self.depth[s] = 2;
                self.parent[s] = ROOT;
                self.queue.push(s as u32);
            }
        }
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head] as usize;
            head += 1;
            let (j, r, f, d) = (s / 2 / ns, s / 2 % ns, s % 2 == 1, self.depth[s] as usize);
            if d >= 3 && f {
                self.end(a, r1, s, cx);
            }
            if d == MAX_SETS || self.least[d + 1] >= self.bar {
                if self.least[d + 1] >= cx.cap {
                    cx.exhaustive = false;
                }
                continue;
            }
            for e in net.first[j]..net.first[j + 1] {
                let k = net.to[e] as usize;
                let g = f || self.changed[k];
                if k == a || !self.open(d + 1, k, g) {
                    continue;
                }
                for r2 in bits(net.common[e] & !(1 << r)) {
                    let t = (k * ns + r2) * 2 + g as usize;
                    if self.depth[t] == 0 {
                        self.depth[t] = d as u8 + 1;
                        self.parent[t] = s as u32;
                        self.queue.push(t as u32);
                    }
                }
            }
        }
        for &s in &self.queue {
            self.depth[s as usize] = 0;
        }
    }

    /// A chain from set `a` (entered next by `r1`) to the state `s`: its step, if it removes
    /// something and is lighter than the best.
    fn end(&mut self, a: usize, r1: usize, s: usize, cx: &mut Cx) {
        let (b, net, ns) = (self.b, self.net, self.b.n_symbols);
        let (j, r) = (s / 2 / ns, s / 2 % ns);
        let zs = net.useful[a] & net.useful[j] & !(1 << r1) & !(1 << r);
        if zs == 0 {
            return;
        }
        let mut elim: Vec<(usize, u8)> = Vec::new();
        for z in bits(zs) {
            let (x, y, h) = (net.buddy(a, z), net.buddy(j, z), b.holds(z));
            for w in 0..net.words {
                let mut m = x[w] & y[w] & h[w];
                while m != 0 {
                    elim.push((w * 64 + m.trailing_zeros() as usize, z as u8));
                    m &= m - 1;
                }
            }
        }
        if elim.is_empty() {
            return;
        }
        // the chain, last state first
        let mut chain = vec![(j, r)];
        let mut p = self.parent[s];
        while p != ROOT {
            let q = p as usize / 2;
            chain.push((q / ns, q % ns));
            p = self.parent[p as usize];
        }
        chain.reverse();
        let size: usize = net.sets[a].cells.len()
            + chain
                .iter()
                .map(|&(k, _)| net.sets[k].cells.len())
                .sum::<usize>();
        let w = weight(size);
        if !cx.wants(w) || w >= self.bar {
            return;
        }
        elim.sort_unstable();
        self.bar = w;
        self.best = Some(step(b, net, a, &chain, elim, w, cx));
    }
}

/// Per set, the fewest links to a changed set (`usize::MAX`: none reachable).
fn distances(net: &Net, changed: &[bool]) -> Vec<usize> {
    let mut dist: Vec<usize> = changed
        .iter()
        .map(|&c| if c { 0 } else { usize::MAX })
        .collect();
    let mut queue: Vec<usize> = (0..changed.len()).filter(|&i| changed[i]).collect();
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head];
        head += 1;
        for &k in &net.to[net.first[i]..net.first[i + 1]] {
            if dist[k as usize] == usize::MAX {
                dist[k as usize] = dist[i] + 1;
                queue.push(k as usize);
            }
        }
    }
    dist
}

/// The step of the chain from set `a` through `chain` (each set with the common it was
/// entered by).
fn step(
    b: &Board,
    net: &Net,
    a: usize,
    chain: &[(usize, usize)],
    eliminations: Vec<(usize, u8)>,
    weight: f64,
    cx: &Cx,
) -> Step {
    let mut cells: Vec<usize> = net.sets[a].cells.clone();
    for &(k, _) in chain {
        cells.extend(&net.sets[k].cells);
    }
    let size = cells.len();
    cells.sort_unstable();
    cells.dedup();
    let reason = cx.reason(|| {
        let set = |k: usize| {
            let s = &net.sets[k];
            format!("{} ({})", b.cells_text(&s.cells), b.mask_text(s.cand))
        };
        let mut text = set(a);
        for &(k, r) in chain {
            text += &format!(" -{}- {}", b.sym(r), set(k));
        }
        let zs: Mask = eliminations.iter().fold(0, |m, &(_, z)| m | 1 << z);
        format!(
            "{text}: each linking symbol is in at most one of the two sets it links, so the \
             first or the last set is locked and {} is in one of them",
            b.mask_text(zs)
        )
    });
    Step {
        rule: if chain.len() == 2 {
            "ALS-XY-Wing"
        } else {
            "ALS-XY-Chain"
        }
        .into(),
        family: Family::Als,
        size,
        weight,
        shapes: vec![],
        cells,
        placements: vec![],
        eliminations,
        reason,
    }
}
