//! The breadth-first search under every chain rule: from one potential (a candidate on or
//! off), along the link graph's strong and weak links, as deep as a depth limit, remembering
//! for each potential reached its depth and parent so a chain can be read back. One search
//! object is reused from source to source (and its buffers from call to call on a thread).
//!
//! To follow another kind of link, add it where [`Bfs::run`] expands a potential; every rule
//! built on the search ([`super::Chains`], `xchains`) then sees it.

use crate::logic::board::{bits, Board};
use crate::logic::rules::links::{Graph, Link, Mode};

/// A breadth-first search over potentials (`node * 2 + on`), reused from source to source.
pub struct Bfs {
    /// Per potential, what the searches know of it (one place, so a visit reads one line).
    slot: Vec<Slot>,
    gen: u32,
    queue: Vec<u32>,
    /// Per symbol, the cells whose off potential the search reached ([`Board::words`] words
    /// each): a candidate's peers not reached yet are read in a few words.
    off: Vec<u64>,
    /// Whether the last search stopped somewhere at its depth limit.
    pub cut: bool,
    /// Scratch for [`Bfs::meetings`]: per depth, the best meeting (s, position, q).
    by_depth: Vec<(u32, u32, u32)>,
}

/// A potential in a [`Bfs`]: the search that last reached it (`seen`, its `gen`), and from
/// where and how deep.
#[derive(Clone, Copy)]
struct Slot {
    seen: u32,
    parent: u32,
    depth: u16,
}

/// The buffers of the last [`Bfs`] dropped on this thread: the chain rules make one per call,
/// and a fresh one costs a pass over every potential.
#[derive(Default)]
struct Spare {
    slot: Vec<Slot>,
    gen: u32,
    queue: Vec<u32>,
    off: Vec<u64>,
    by_depth: Vec<(u32, u32, u32)>,
}

thread_local! {
    static SPARE: std::cell::Cell<Option<Spare>> = const { std::cell::Cell::new(None) };
}

impl Drop for Bfs {
    fn drop(&mut self) {
        let spare = Spare {
            slot: std::mem::take(&mut self.slot),
            gen: self.gen,
            queue: std::mem::take(&mut self.queue),
            off: std::mem::take(&mut self.off),
            by_depth: std::mem::take(&mut self.by_depth),
        };
        let _ = SPARE.try_with(|s| s.set(Some(spare)));
    }
}

impl Bfs {
    pub fn new(nodes: usize) -> Self {
        // a spare's slots were all seen before its `gen`, so they read as unseen
        let mut m = SPARE
            .try_with(|s| s.take())
            .ok()
            .flatten()
            .unwrap_or_default();
        if m.slot.len() < 2 * nodes {
            m.slot.resize(
                2 * nodes,
                Slot {
                    seen: 0,
                    parent: u32::MAX,
                    depth: 0,
                },
            );
        }
        m.queue.clear();
        Bfs {
            slot: m.slot,
            gen: m.gen,
            queue: m.queue,
            off: m.off,
            cut: false,
            by_depth: m.by_depth,
        }
    }

    /// Searches from potential `start`, expanding potentials less than `limit` links away.
    /// With an `end` (an off potential), the search stops when a potential other than `start`
    /// produces it, with `(end, producer)`; `end` is never recorded when produced straight
    /// from `start`.
    pub fn run(
        &mut self,
        (b, g, m): (&Board, &Graph, Mode),
        start: u32,
        limit: u16,
        end: Option<u32>,
    ) -> Option<(u32, u32)> {
        if self.gen == u32::MAX {
            self.slot.iter_mut().for_each(|s| s.seen = 0);
            self.gen = 0;
        }
        self.gen += 1;
        self.cut = false;
        let gen = self.gen;
        self.queue.clear();
        let words = b.words;
        self.off.clear();
        self.off.resize(g.n * words, 0);
        self.record(
            g,
            start,
            Slot {
                seen: gen,
                parent: u32::MAX,
                depth: 0,
            },
        );
        let end = end.unwrap_or(u32::MAX);
        let mut head = 0;
        while head < self.queue.len() {
            let p = self.queue[head];
            head += 1;
            let d = self.slot[p as usize].depth;
            if d >= limit {
                self.cut = true;
                continue;
            }
            let u = (p / 2) as usize;
            let next = Slot {
                seen: gen,
                parent: p,
                depth: d + 1,
            };
            // `end` is met (the search stops) or skipped when produced by `p`
            let (meets, skips) = (p != start, p == start);
            if p % 2 != 1 {
                g.strong(u, m, &mut |w, _: Link| {
                    let q = (2 * w + 1) as u32;
                    if self.slot[q as usize].seen != gen {
                        self.push(q, next);
                    }
                });
                continue;
            }
            let visit = |this: &mut Bfs, q: u32| -> bool {
                if q == end {
                    if meets {
                        return true;
                    }
                    if skips {
                        return false;
                    }
                }
                if this.slot[q as usize].seen != gen {
                    this.record(g, q, next);
                }
                false
            };
            if !g.is_group(u) {
                let (c, v) = g.cand(u);
                if m.y {
                    for w in bits(b.cand[c] & !(1 << v)) {
                        let q = (2 * (c * g.n + w)) as u32;
                        if q == end && meets {
                            return Some((end, p));
                        }
                        if q != end && self.slot[q as usize].seen != gen {
                            self.push(q, next);
                            self.off[w * words + c / 64] |= 1 << (c % 64);
                        }
                    }
                }
                // the empty peers holding v, in order: only those not reached yet are new
                let end_at = (end != u32::MAX && !g.is_group((end / 2) as usize))
                    .then(|| g.cand((end / 2) as usize))
                    .filter(|&(_, x)| x == v)
                    .map_or((usize::MAX, 0), |(e, _)| (e / 64, 1u64 << (e % 64)));
                for (w, (&a, &h)) in b.peer_set(c).iter().zip(b.holds(v)).enumerate() {
                    let mut fresh = a & h & !self.off[v * words + w];
                    if end_at.0 == w && a & h & end_at.1 != 0 {
                        let bit = end_at.1;
                        if meets {
                            for i in bits(fresh & (bit - 1)) {
                                self.push((2 * ((w * 64 + i) * g.n + v)) as u32, next);
                            }
                            return Some((end, p));
                        }
                        fresh &= !bit;
                    }
                    self.off[v * words + w] |= fresh;
                    for i in bits(fresh) {
                        self.push((2 * ((w * 64 + i) * g.n + v)) as u32, next);
                    }
                }
            }
            if m.grouped && !g.groups.is_empty() {
                for &w in g.group_links(u) {
                    if visit(self, 2 * w) {
                        return Some((end, p));
                    }
                }
            }
        }
        None
    }

    /// Records potential `q` as reached, with its slot, when the caller keeps `off` up to date.
    #[inline]
    fn push(&mut self, q: u32, slot: Slot) {
        self.slot[q as usize] = slot;
        self.queue.push(q);
    }

    /// Records potential `q` as reached, with its slot.
    fn record(&mut self, g: &Graph, q: u32, slot: Slot) {
        self.slot[q as usize] = slot;
        self.queue.push(q);
        let u = (q / 2) as usize;
        if q % 2 != 1 && !g.is_group(u) {
            let (c, v) = g.cand(u);
            let words = self.off.len() / g.n;
            self.off[v * words + c / 64] |= 1 << (c % 64);
        }
    }

    /// The potential q reached by the last search whose opposite was reached too, with the
    /// least d(q) + d(¬q), and that sum (the reference [`Bfs::meetings`] is tested against).
    #[cfg(test)]
    pub(super) fn meeting(&self) -> Option<(u32, usize)> {
        let mut best: Option<(u32, usize)> = None;
        for &q in &self.queue {
            let o = (q ^ 1) as usize;
            if self.slot[o].seen == self.gen {
                let len = self.slot[q as usize].depth as usize + self.slot[o].depth as usize;
                if best.is_none_or(|b| len < b.1) {
                    best = Some((q, len));
                }
            }
        }
        best
    }

    /// The depth of a potential reached by the last search.
    pub fn depth(&self, p: u32) -> u16 {
        self.slot[p as usize].depth
    }

    /// The depth of the deepest potential the last search reached.
    pub fn deepest(&self) -> u16 {
        self.queue
            .last()
            .map_or(0, |&q| self.slot[q as usize].depth)
    }

    /// Where the last search met itself, for every depth limit up to its own: pushes (m, s,
    /// q) each time the best meeting changes as the limit m grows, the best being the
    /// potential q whose opposite was reached too, with both no deeper than m and the least
    /// d(q) + d(¬q) = s (the first in search order), as [`Bfs::meeting`] finds it at limit m.
    pub fn meetings(&mut self, out: &mut Vec<(u16, u32, u32)>) {
        let deepest = self.deepest() as usize;
        self.by_depth.clear();
        self.by_depth.resize(deepest + 1, (u32::MAX, u32::MAX, 0));
        for (i, &q) in self.queue.iter().enumerate() {
            let o = (q ^ 1) as usize;
            if self.slot[o].seen == self.gen {
                let (dq, dn) = (
                    self.slot[q as usize].depth as u32,
                    self.slot[o].depth as u32,
                );
                let m = dq.max(dn) as usize;
                if (dq + dn, i as u32) < (self.by_depth[m].0, self.by_depth[m].1) {
                    self.by_depth[m] = (dq + dn, i as u32, q);
                }
            }
        }
        let mut cur = (u32::MAX, u32::MAX);
        for (m, &(s, i, q)) in self.by_depth.iter().enumerate() {
            if (s, i) < cur {
                cur = (s, i);
                out.push((m as u16, s, q));
            }
        }
    }

    /// The potentials the last search reached exactly `d` links from its start, in order.
    pub fn reached_at(&self, d: u16) -> impl Iterator<Item = u32> + '_ {
        self.queue
            .iter()
            .copied()
            .filter(move |&q| self.slot[q as usize].depth == d)
    }

    /// Calls `f` with the potentials from `p` back to the start ([`Bfs::path`] reversed).
    pub fn walk(&self, mut p: u32, f: &mut impl FnMut(u32)) {
        f(p);
        while self.slot[p as usize].parent != u32::MAX {
            p = self.slot[p as usize].parent;
            f(p);
        }
    }

    /// The potentials from the start to `p`.
    pub fn path(&self, mut p: u32) -> Vec<u32> {
        let mut out = vec![p];
        while self.slot[p as usize].parent != u32::MAX {
            p = self.slot[p as usize].parent;
            out.push(p);
        }
        out.reverse();
        out
    }
}
