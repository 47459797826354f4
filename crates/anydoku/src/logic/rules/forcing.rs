//! Forcing nets: several chains at once, as Sudoku Explainer's Nishio, cell/region and dynamic
//! forcing chains (with nesting levels), on any layout.
//!
//! * **contradiction**: assuming a candidate (or its absence) leads to a potential and its
//!   opposite ([`super::net`]), so the assumption is false;
//! * **double forcing**: a candidate and its absence both lead to the same potential;
//! * **cell forcing**: every candidate of a cell leads to the same potential;
//! * **region forcing**: every place of a symbol in a shape that must hold it leads to the same
//!   potential.
//!
//! Nishio nets follow one symbol and only look for contradictions; static multiple nets (SE's
//! "cell / region forcing chains") read the board as it is; dynamic ones update it as they go
//! and, from level 1, also apply the nested rules. The weight is the kind's base plus the length
//! bonus on the net's size (all distinct potentials behind the conclusion, over all branches).
//!
//! The search goes up the weights one tenth at a time, each tier following the nets only as
//! deep as its weight allows, so small nets are found by small searches. Nets nested one level
//! deep ("(+)") are the exception: as in SE, each assumption is followed to its end once and the
//! smallest proof wins, because their nested rules go on working past any depth limit and a
//! tier cost as much as the whole search. A new nesting whose rules take no size bound belongs
//! there too (the function `whole`).

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::net::{Net, NetMode, Snapshot};
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};
use reach::{Reach, Useful};

mod reach;

/// Which forcing nets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetKind {
    /// One symbol, contradictions only.
    Nishio,
    /// Cell and region forcing chains on the board as it is.
    Multiple,
    /// Dynamic forcing chains nested this deep (0: plain, 1: "(+)").
    Dynamic(usize),
}

/// Forcing nets of one kind.
pub struct Forcing(pub NetKind);

/// What a net concluded, before its size is known.
#[derive(Debug, Clone)]
enum Proof {
    /// Assuming `pot` contradicts; `size` is the net's size, known from the propagation that
    /// found it.
    Contradiction { pot: u32, size: usize },
    /// `pot` on and off both give `target`.
    Double { pot: u32, target: u32 },
    /// Every candidate of `cell` gives `target`.
    Cell { cell: usize, target: u32 },
    /// Every place of `v` in shape `shape` gives `target`.
    Region { shape: usize, v: usize, target: u32 },
}

impl LogicRule for Forcing {
    fn name(&self) -> &str {
        match self.0 {
            NetKind::Nishio => "Nishio forcing chains",
            NetKind::Multiple => "Forcing chains",
            NetKind::Dynamic(_) => "Dynamic forcing chains",
        }
    }
    fn family(&self) -> Family {
        Family::Forcing
    }
    fn min_weight(&self) -> f64 {
        match self.0 {
            NetKind::Nishio => rate::NISHIO,
            NetKind::Multiple => rate::MULTIPLE,
            NetKind::Dynamic(l) => rate::dynamic(l),
        }
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        if !cx.wants(self.min_weight()) {
            return None;
        }
        let mode = NetMode {
            dynamic: self.0 != NetKind::Multiple,
            nishio: self.0 == NetKind::Nishio,
            level: match self.0 {
                NetKind::Dynamic(l) => l,
                _ => 0,
            },
        };
        let mut net = Net::new(b, mode);
        let mut done = Done::new(&net, self.min_weight(), cx);
        if whole(mode) {
            return self.whole(&mut net, cx, &mut done);
        }
        // up the weights one tenth at a time, following each net only as far as the size that
        // weight allows: small nets are found by small searches
        for level in 0.. {
            let w = rate::tenths(self.min_weight() + 0.1 * level as f64);
            if !cx.wants(w) {
                return None;
            }
            let bound = rate::size_bound(level);
            if bound > cx.max_size {
                cx.exhaustive = false;
                return None;
            }
            done.at_tier(level);
            set_tier(&mut net, level);
            let (proofs, cut) = self.proofs(&mut net, cx, &mut done)?;
            let sizes = self.sizes(&mut net, &proofs, cx, &mut done)?;
            if let Some((size, proof)) = smallest(proofs, &sizes, bound) {
                let w = rate::tenths(self.min_weight() + rate::length_bonus(size));
                return Some(self.step(&mut net, &proof, w, size, cx));
            }
            if !cut {
                return None;
            }
        }
        None
    }
}

/// Whether nets of this mode are followed to their end in one search instead of tier by tier
/// ([`Forcing::whole`]): dynamic nets nested one level deep, whose nested rules (overlap,
/// pairs, X-Wing) take no size bound. Nets that nest chains keep the tiers, which also bound
/// the nested chains' size.
fn whole(mode: NetMode) -> bool {
    mode.dynamic && !mode.nishio && mode.level == 1
}

/// The smallest proof no larger than `bound` (the first of equal ones), with its size.
fn smallest(proofs: Vec<Proof>, sizes: &[usize], bound: usize) -> Option<(usize, Proof)> {
    let mut best: Option<(usize, Proof)> = None;
    for (p, &size) in proofs.into_iter().zip(sizes) {
        if size <= bound && best.as_ref().is_none_or(|x| size < x.0) {
            best = Some((size, p));
        }
    }
    best
}

impl Forcing {
    /// Sudoku Explainer's own search for nested nets: each assumption is propagated once,
    /// with no depth limit, and the smallest proof of all wins (its weight from its size).
    /// Tier by tier, a "(+)" net's nested rules go on working after the net stopped at its
    /// limit, so every tier cost about as much as one whole propagation; and a tier's nets are
    /// measured in propagations cut short, not in the ones SE measures.
    fn whole(&self, net: &mut Net, cx: &mut Cx, done: &mut Done) -> Option<Step> {
        done.at_tier(0);
        set_tier(net, 0);
        let (proofs, _) = self.proofs(net, cx, done)?;
        let sizes = self.sizes(net, &proofs, cx, done)?;
        let (size, proof) = smallest(proofs, &sizes, usize::MAX)?;
        let w = rate::tenths(self.min_weight() + rate::length_bonus(size));
        if size > cx.max_size {
            cx.exhaustive = false;
            return None;
        }
        if !cx.wants(w) {
            return None;
        }
        Some(self.step(net, &proof, w, size, cx))
    }

    /// Every conclusion the nets reach (sizes not yet known) and whether some net stopped at
    /// its depth limit; `None` when the budget ran out.
    fn proofs(&self, net: &mut Net, cx: &mut Cx, done: &mut Done) -> Option<(Vec<Proof>, bool)> {
        let b = net.b;
        let n = b.n_symbols;
        let dynamic = self.0 != NetKind::Multiple;
        let nishio = self.0 == NetKind::Nishio;
        let mut out = Vec::new();
        let mut cut = false;
        // what each "on" assumption reaches, for the cell and region nets
        let mut reach: FxHashMap<u32, Reach> = FxHashMap::default();
        let mut common = vec![0u64; done.useful.words];
        let keep = !nishio && net.potentials() / 64 * b.cell_count() * n < 1 << 24;
        for c in 0..b.cell_count() {
            let k = b.cand[c].count_ones();
            if b.value[c].is_some() || k < 2 {
                continue;
            }
            let mut first = true;
            for v in bits(b.cand[c]) {
                let on = ((c * n + v) * 2 + 1) as u32;
                if cx.tick() {
                    return None;
                }
                let (contra, on_reach) = done.recall(net, on, cx, &mut cut);
                if let (true, Some(size)) = (dynamic, contra) {
                    out.push(Proof::Contradiction { pot: on, size });
                }
                if dynamic {
                    let (contra, off_reach) = done.recall(net, on ^ 1, cx, &mut cut);
                    if let Some(size) = contra {
                        out.push(Proof::Contradiction { pot: on ^ 1, size });
                    } else if !nishio && k >= 3 {
                        for t in done.useful.worth(&on_reach, Some(&off_reach)) {
                            out.push(Proof::Double { pot: on, target: t });
                        }
                    }
                }
                if !nishio && (dynamic || k >= 3) {
                    if first {
                        common.copy_from_slice(&on_reach);
                    } else {
                        and_in(&mut common, &on_reach);
                    }
                    first = false;
                }
                if keep {
                    reach.insert(on, on_reach);
                }
            }
            if !first {
                for t in done.useful.worth(&common, None) {
                    out.push(Proof::Cell { cell: c, target: t });
                }
            }
        }
        if !nishio {
            cut |= self.regions(net, cx, (&mut reach, done), &mut out)?;
        }
        Some((out, cut))
    }

    /// Region nets: for each shape and required symbol with two places or more. Returns
    /// whether a net stopped at its depth limit; `None` when the budget ran out.
    fn regions(
        &self,
        net: &mut Net,
        cx: &mut Cx,
        (reach, done): (&mut FxHashMap<u32, Reach>, &mut Done),
        out: &mut Vec<Proof>,
    ) -> Option<bool> {
        let mut cut = false;
        let b = net.b;
        let n = b.n_symbols;
        let mut common = vec![0u64; done.useful.words];
        let mut places: Vec<usize> = Vec::new();
        for s in 0..b.shapes.len() {
            for v in bits(b.open_required(s)) {
                places.clear();
                let has = |&&c: &&usize| b.value[c].is_none() && b.cand[c] & (1 << v) != 0;
                places.extend(b.shapes[s].cells.iter().filter(has));
                if places.len() < 2 {
                    continue;
                }
                for (i, &c) in places.iter().enumerate() {
                    let on = ((c * n + v) * 2 + 1) as u32;
                    let set = match reach.get(&on) {
                        Some(r) => r.clone(),
                        None => {
                            if cx.tick() {
                                return None;
                            }
                            let r = done.recall(net, on, cx, &mut cut).1;
                            reach.insert(on, r.clone());
                            r
                        }
                    };
                    if i == 0 {
                        common.copy_from_slice(&set);
                    } else {
                        and_in(&mut common, &set);
                    }
                }
                for t in done.useful.worth(&common, None) {
                    out.push(Proof::Region {
                        shape: s,
                        v,
                        target: t,
                    });
                }
            }
        }
        Some(cut)
    }

    /// The assumptions of a proof's branches: each with the potentials it ends on.
    fn branches(&self, net: &Net, p: &Proof) -> Vec<(u32, Vec<u32>)> {
        let b = net.b;
        let n = b.n_symbols;
        match *p {
            Proof::Contradiction { pot, .. } => vec![(pot, vec![])],
            Proof::Double { pot, target } => vec![(pot, vec![target]), (pot ^ 1, vec![target])],
            Proof::Cell { cell, target } => bits(b.cand[cell])
                .map(|v| (((cell * n + v) * 2 + 1) as u32, vec![target]))
                .collect(),
            Proof::Region { shape, v, target } => b
                .with_candidate(&b.shapes[shape].cells, v)
                .into_iter()
                .map(|c| (((c * n + v) * 2 + 1) as u32, vec![target]))
                .collect(),
        }
    }

    /// SE's complexity of each proof: the potentials behind its conclusion, over all branches.
    /// Branches are grouped by their assumption, so each assumption is propagated once however
    /// many proofs start from it (a contradiction was sized when found). `None` when the
    /// budget ran out.
    /// A branch whose propagation is kept in `done` (complete, so the same at every larger
    /// limit) keeps its size there too, for the next tiers.
    fn sizes(
        &self,
        net: &mut Net,
        proofs: &[Proof],
        cx: &mut Cx,
        done: &mut Done,
    ) -> Option<Vec<usize>> {
        let mut total = vec![0; proofs.len()];
        // (assumption, proof, target)
        let mut todo: Vec<(u32, u32, u32)> = Vec::new();
        for (i, p) in proofs.iter().enumerate() {
            if let Proof::Contradiction { size, .. } = *p {
                total[i] = size;
                continue;
            }
            for (start, targets) in self.branches(net, p) {
                todo.push((
                    start,
                    i as u32,
                    targets.first().copied().unwrap_or(u32::MAX),
                ));
            }
        }
        todo.sort_unstable();
        let mut i = 0;
        while i < todo.len() {
            if cx.budget.is_out() {
                cx.exhaustive = false;
                return None;
            }
            let start = todo[i].0;
            let end = i + todo[i..].iter().take_while(|x| x.0 == start).count();
            let kept = done.kept(start);
            if kept
                && todo[i..end]
                    .iter()
                    .all(|x| done.sizes.contains_key(&(start, x.2)))
            {
                for &(_, p, t) in &todo[i..end] {
                    total[p as usize] += done.sizes[&(start, t)];
                }
                i = end;
                continue;
            }
            let met = match done.snapshot(start) {
                // the same propagation, kept when it was done
                Some(s) if todo[i..end].iter().all(|x| x.2 != u32::MAX) => {
                    net.restore(&s);
                    None
                }
                _ => {
                    net.reset();
                    net.assume(start);
                    // propagated only as far as the targets, whose sizes are then known
                    // (not when a branch ends on a contradiction)
                    let group = &todo[i..end];
                    let whole = group.iter().any(|x| x.2 == u32::MAX);
                    net.run_until(cx, group.iter().map(|x| x.2).filter(|_| !whole))
                }
            };
            while i < end {
                let (_, p, t) = todo[i];
                let ends: Vec<u32> = match met {
                    Some((on, off)) if t == u32::MAX => vec![on, off],
                    _ => [t]
                        .into_iter()
                        .filter(|&t| t != u32::MAX && net.has(t))
                        .collect(),
                };
                let size = if ends.is_empty() { 1 } else { net.size(&ends) };
                total[p as usize] += size;
                if kept {
                    done.sizes.insert((start, t), size);
                }
                i += 1;
            }
        }
        Some(total)
    }

    /// The step of a proof, with its chains written out.
    fn step(&self, net: &mut Net, p: &Proof, weight: f64, size: usize, cx: &mut Cx) -> Step {
        let b = net.b;
        let (target, conclusion) = match *p {
            Proof::Contradiction { pot, .. } => (pot ^ 1, None),
            Proof::Double { target, .. }
            | Proof::Cell { target, .. }
            | Proof::Region { target, .. } => (target, Some(target)),
        };
        let mut lines = Vec::new();
        let mut cells = Vec::new();
        for (start, targets) in self.branches(net, p) {
            net.reset();
            net.assume(start);
            let met = net.run(cx);
            let ends: Vec<u32> = match (met, conclusion) {
                (Some((on, off)), None) => vec![on, off],
                _ => targets,
            };
            let chains: Vec<String> = ends
                .iter()
                .filter(|&&t| net.has(t))
                .map(|&t| {
                    let path = net.path(t);
                    cells.extend(path.iter().map(|&q| net.cand(q).0));
                    path.iter()
                        .map(|&q| net.text(q))
                        .collect::<Vec<_>>()
                        .join(" → ")
                })
                .collect();
            lines.push(chains.join(" and "));
        }
        cells.sort_unstable();
        cells.dedup();
        let (c, v) = net.cand(target);
        let on = target % 2 == 1;
        let result = if on {
            format!("{} is {}", b.cell(c), b.sym(v))
        } else {
            format!("{} is not {}", b.cell(c), b.sym(v))
        };
        let (kind, reason) = match *p {
            Proof::Contradiction { .. } => (
                "Contradiction",
                format!("{}: a contradiction, so {result}", lines.join("")),
            ),
            Proof::Double { .. } => ("Double", format!("{}, so {result}", lines.join("; "))),
            Proof::Cell { cell, .. } => (
                "Cell",
                format!(
                    "whatever {} holds ({}): {}, so {result}",
                    b.cell(cell),
                    b.mask_text(b.cand[cell]),
                    lines.join("; ")
                ),
            ),
            Proof::Region { shape, v: s, .. } => (
                "Region",
                format!(
                    "wherever {} goes in {}: {}, so {result}",
                    b.sym(s),
                    b.shapes[shape].name,
                    lines.join("; ")
                ),
            ),
        };
        let (placements, eliminations) = if on {
            (vec![(c, v as u8)], vec![])
        } else {
            (vec![], vec![(c, v as u8)])
        };
        Step {
            rule: self.rule_name(kind),
            family: Family::Forcing,
            size,
            weight,
            shapes: match *p {
                Proof::Region { shape, .. } => vec![shape],
                _ => vec![],
            },
            cells,
            placements,
            eliminations,
            reason,
        }
    }

    fn rule_name(&self, kind: &str) -> String {
        match self.0 {
            NetKind::Nishio => "Nishio forcing chain".into(),
            NetKind::Multiple => format!("{kind} forcing chains"),
            NetKind::Dynamic(0) => format!("Dynamic {} forcing chains", kind.to_lowercase()),
            NetKind::Dynamic(1) => format!("Dynamic {} forcing chains (+)", kind.to_lowercase()),
            NetKind::Dynamic(l) => {
                format!("Nested {} forcing chains (level {l})", kind.to_lowercase())
            }
        }
    }
}

/// The depth limit of tier `level` (nets of the size its weight allows) and the size of the
/// nested chains it may use.
/// Nets followed whole ([`whole`]) have neither.
fn set_tier(net: &mut Net, level: usize) {
    if whole(net.mode) {
        net.limit = u16::MAX;
        net.inner_size = usize::MAX;
        return;
    }
    let bound = rate::size_bound(level);
    net.limit = (bound - 1).min(u16::MAX as usize) as u16;
    net.inner_size = bound;
}

/// One assumption's propagation at the depth limits of tiers `first`, `first + 1`, ...: per
/// tier, the size of the contradiction it meets (if it does), the potentials it reached, and
/// whether it stopped somewhere at the limit. The last one, when it did not stop and its
/// nested searches were complete, is the same at every larger limit.
struct Tiers {
    first: usize,
    at: Vec<(Option<usize>, Reach, bool)>,
    /// Per tier, the propagation itself, to measure proofs' sizes in (while memory allows;
    /// the tiers past its end have none).
    snaps: Vec<Option<Rc<Snapshot>>>,
}

/// The most words of [`Snapshot`]s one search keeps.
const SNAP_WORDS: usize = 1 << 22;

/// Propagations already done in earlier tiers of one search, by assumption.
struct Done {
    /// Whether to keep them (not on boards where that takes too much memory).
    keep: bool,
    /// Whether an assumption is propagated for every later tier at once: up to where a
    /// propagation first stops at its depth limit, a larger limit does the same, so each
    /// further tier goes on from there ([`Net::rewind`]) instead of starting again. Only for
    /// nets without nested rules, where what follows that point is little.
    ahead: bool,
    /// The tier being searched.
    tier: usize,
    /// The tiers a search can reach: while lighter than the cap and within the size wanted.
    last: usize,
    map: FxHashMap<u32, Tiers>,
    /// The size of each (kept assumption, target) a proof's branch needed.
    sizes: FxHashMap<(u32, u32), usize>,
    /// The words of the snapshots kept so far.
    snap_words: usize,
    /// This tier's propagations that are not kept for the next tiers, to measure sizes in.
    current: FxHashMap<u32, Rc<Snapshot>>,
    current_words: usize,
    /// The potentials a reach set holds.
    useful: Useful,
}

impl Done {
    fn new(net: &Net, min_weight: f64, cx: &Cx) -> Self {
        let words = net.potentials().div_ceil(64);
        let keep = words * net.potentials() < 1 << 22;
        let mut last = 0;
        while last < 64
            && rate::tenths(min_weight + 0.1 * (last + 1) as f64) < cx.cap
            && rate::size_bound(last + 1) <= cx.max_size
        {
            last += 1;
        }
        Done {
            keep,
            ahead: keep && net.rewinds(),
            tier: 0,
            last,
            map: FxHashMap::default(),
            sizes: FxHashMap::default(),
            snap_words: 0,
            current: FxHashMap::default(),
            current_words: 0,
            useful: Useful::new(net.b, net.potentials()),
        }
    }

    /// Whether the propagation of `start` at this tier is kept, complete and the same at
    /// every larger limit.
    fn kept(&self, start: u32) -> bool {
        self.map.get(&start).is_some_and(|t| {
            let last = t.at.len() - 1;
            self.tier - t.first >= last && !t.at[last].2
        })
    }

    /// Goes on to tier `level`.
    fn at_tier(&mut self, level: usize) {
        self.tier = level;
        self.current.clear();
        self.current_words = 0;
    }

    /// The propagation of `start` at this tier, when it is kept.
    fn snapshot(&self, start: u32) -> Option<Rc<Snapshot>> {
        if let Some(s) = self.current.get(&start) {
            return Some(s.clone());
        }
        let t = self.map.get(&start)?;
        let (i, last) = (self.tier.checked_sub(t.first)?, t.at.len() - 1);
        if i <= last || !t.at[last].2 {
            t.snaps.get(i.min(last)).cloned().flatten()
        } else {
            None
        }
    }

    /// Propagates one assumption, or recalls it: the size of the contradiction it meets (if
    /// it does) and what it reached. A propagation that stopped nowhere at the depth limit
    /// (and whose nested searches were complete) is the same at every larger limit, so it is
    /// kept for the next tiers.
    fn recall(
        &mut self,
        net: &mut Net,
        start: u32,
        cx: &mut Cx,
        cut: &mut bool,
    ) -> (Option<usize>, Reach) {
        if let Some(t) = self.map.get(&start) {
            let i = self.tier - t.first;
            let last = t.at.len() - 1;
            if i <= last || !t.at[last].2 {
                let (contra, reach, stopped) = &t.at[i.min(last)];
                *cut |= stopped;
                return (*contra, reach.clone());
            }
        }
        net.reset();
        net.assume(start);
        // (`snaps` stays empty while no snapshot is kept: a missing one is none)
        let (mut at, mut snaps) = (Vec::new(), Vec::new());
        let mut level = self.tier;
        loop {
            let met = net.run(cx);
            // the size a contradiction proof has: the potentials behind the two it met
            let contra = met.map(|(on, off)| net.size(&[on, off]));
            at.push((contra, self.useful.set(&net.order), net.cut));
            // (not for nets propagated ahead: there a snapshot per tier costs more than the
            // few propagations the sizes need)
            let room = self.snap_words.min(self.current_words) < SNAP_WORDS;
            if self.keep && !self.ahead && room {
                snaps.resize(at.len() - 1, None);
                snaps.push(Some(Rc::new(net.snapshot())));
            }
            if !self.ahead || !net.cut || level >= self.last || cx.budget.poll() {
                break;
            }
            level += 1;
            net.rewind();
            set_tier(net, level);
        }
        set_tier(net, self.tier);
        let (contra, reach, stopped) = at[0].clone();
        *cut |= stopped;
        let keep = if self.ahead {
            !cx.budget.poll()
        } else {
            !stopped && net.complete && !cx.budget.poll()
        };
        if self.keep && keep {
            let words: usize = snaps.iter().flatten().map(|s| s.words()).sum();
            if self.snap_words >= SNAP_WORDS {
                snaps.iter_mut().for_each(|s| *s = None);
            }
            self.snap_words += words;
            self.map.insert(
                start,
                Tiers {
                    first: self.tier,
                    at,
                    snaps,
                },
            );
        } else if let Some(s) = snaps
            .first_mut()
            .and_then(Option::take)
            .filter(|_| self.current_words < SNAP_WORDS)
        {
            self.current_words += s.words();
            self.current.insert(start, s);
        }
        (contra, reach)
    }
}

/// `a` becomes `a & b`.
fn and_in(a: &mut [u64], b: &[u64]) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x &= y);
}
