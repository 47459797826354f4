//! Chains over the link graph ([`super::links`]), found and rated as Sudoku Explainer does:
//!
//! * a **forcing chain** starts from one assumption and comes back to its opposite: "if A then
//!   … then not A" removes A, "if not A then … then A" places it;
//! * a **cycle** is a closed loop of alternating weak and strong links: exactly one of the two
//!   ends of every link is true, so a candidate that is weakly linked to a node of each
//!   parity is removed.
//!
//! X-chains and X-cycles use one symbol (strong links inside shapes), Y-cycles bivalue cells,
//! XY-chains both; the grouped versions also use group nodes. The weight is the kind's base
//! plus SE's length bonus on the chain's size (its number of nodes, [`rate::length_bonus`]).
//! The search goes up the weights one tenth at a time: for each kind it only follows links as
//! far as the size that weight allows, so short chains are found by small, local searches and
//! long ones only when nothing shorter exists.

mod bfs;

pub use bfs::Bfs;

use super::links::{Graph, Mode};
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Static chains: forcing chains and cycles, plain or with group nodes.
pub struct Chains {
    pub grouped: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Cycle,
    Forcing,
}

/// One kind of chain: which links, which shape, its base weight and name.
struct Task {
    mode: Mode,
    kind: Kind,
    base: f64,
    name: &'static str,
}

const fn mode(x: bool, y: bool, grouped: bool) -> Mode {
    Mode { x, y, grouped }
}

const PLAIN: [Task; 5] = [
    Task {
        mode: mode(true, false, false),
        kind: Kind::Cycle,
        base: rate::CYCLE,
        name: "X-cycle",
    },
    Task {
        mode: mode(false, true, false),
        kind: Kind::Cycle,
        base: rate::CYCLE,
        name: "Y-cycle",
    },
    Task {
        mode: mode(true, false, false),
        kind: Kind::Forcing,
        base: rate::FORCING_X_CHAIN,
        name: "Forcing X-chain",
    },
    Task {
        mode: mode(true, true, false),
        kind: Kind::Cycle,
        base: rate::FORCING_CHAIN,
        name: "XY-cycle",
    },
    Task {
        mode: mode(true, true, false),
        kind: Kind::Forcing,
        base: rate::FORCING_CHAIN,
        name: "Forcing chain",
    },
];

const GROUPED: [Task; 4] = [
    Task {
        mode: mode(true, false, true),
        kind: Kind::Cycle,
        base: rate::GROUPED_X_CYCLE,
        name: "Grouped X-cycle",
    },
    Task {
        mode: mode(true, false, true),
        kind: Kind::Forcing,
        base: rate::GROUPED_FORCING_X_CHAIN,
        name: "Grouped forcing X-chain",
    },
    Task {
        mode: mode(true, true, true),
        kind: Kind::Cycle,
        base: rate::GROUPED_FORCING_CHAIN,
        name: "Grouped XY-cycle",
    },
    Task {
        mode: mode(true, true, true),
        kind: Kind::Forcing,
        base: rate::GROUPED_FORCING_CHAIN,
        name: "Grouped forcing chain",
    },
];

impl LogicRule for Chains {
    fn name(&self) -> &str {
        if self.grouped {
            "Grouped chains"
        } else {
            "Chains"
        }
    }
    fn family(&self) -> Family {
        Family::Chains
    }
    fn min_weight(&self) -> f64 {
        self.tasks()
            .iter()
            .map(|t| t.base)
            .fold(f64::INFINITY, f64::min)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let tasks = self.tasks();
        let g = Graph::of(b, self.grouped);
        if self.grouped && g.groups.is_empty() {
            return None;
        }
        let mut bfs = Bfs::new(g.node_count());
        // chains with one kind of strong link live on small graphs (one symbol, or bivalue
        // cells): one search per source finds each kind's shortest chain
        let mut best: Option<(f64, Hit, &Task)> = None;
        for task in tasks.iter().filter(|t| !(t.mode.x && t.mode.y)) {
            let limit = best.as_ref().map_or(cx.cap, |x| x.0.min(cx.cap));
            let Some(bound) = largest_size(task.base, limit) else {
                cx.exhaustive &= limit < cx.cap;
                continue;
            };
            let bound = bound.min(cx.max_size);
            if cx.budget.is_out() {
                cx.exhaustive = false;
                return None;
            }
            let table = Table::new((b, &g, cx), &mut bfs, task, bound)?;
            let hit = table.at((b, &g), &mut bfs, task, bound);
            let whole = limit < cx.cap && bound < cx.max_size;
            if bound < usize::MAX && !whole && table.cut((b, &g), &mut bfs, task, bound) {
                cx.exhaustive = false;
            }
            if let Some(hit) = hit {
                let w = rate::tenths(task.base + rate::length_bonus(hit.path.len()));
                if w < limit {
                    best = Some((w, hit, task));
                }
            }
        }
        // both kinds: the search goes up one tenth at a time, below the best found so far; one
        // search per source, as deep as the last tier that could be wanted, tells every tier
        let xy: Vec<&Task> = tasks.iter().filter(|t| t.mode.x && t.mode.y).collect();
        let mut level: Vec<Option<usize>> = vec![Some(0); xy.len()];
        let mut tables: Vec<Option<Table>> = xy.iter().map(|_| None).collect();
        let best_w = best.as_ref().map_or(f64::INFINITY, |x| x.0);
        loop {
            let next = (0..xy.len())
                .filter_map(|t| level[t].map(|l| (t, rate::tenths(xy[t].base + 0.1 * l as f64))))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let Some((t, weight)) = next else { break };
            if best.as_ref().is_some_and(|x| x.0 <= weight) {
                break;
            }
            if !cx.wants(weight) {
                break;
            }
            if cx.budget.is_out() {
                cx.exhaustive = false;
                return None;
            }
            let l = level[t].unwrap_or(0);
            if rate::size_bound(l) > cx.max_size {
                cx.exhaustive = false;
                break;
            }
            if tables[t].is_none() {
                let top =
                    largest_size(xy[t].base, cx.cap.min(best_w)).map_or(0, |s| s.min(cx.max_size));
                tables[t] = Some(Table::new((b, &g, cx), &mut bfs, xy[t], top)?);
            }
            let table = tables[t].as_ref()?;
            let bound = rate::size_bound(l);
            if let Some(hit) = table.at((b, &g), &mut bfs, xy[t], bound) {
                return Some(hit.step(b, &g, xy[t], weight));
            }
            level[t] = table.cut((b, &g), &mut bfs, xy[t], bound).then_some(l + 1);
        }
        best.map(|(w, hit, task)| hit.step(b, &g, task, w))
    }
}

/// The largest chain size whose weight on `base` stays below `limit` (`usize::MAX`: any),
/// or `None` when even the shortest chain is too heavy.
fn largest_size(base: f64, limit: f64) -> Option<usize> {
    if limit == f64::INFINITY {
        return Some(usize::MAX);
    }
    let mut level = None;
    for l in 0..64 {
        if rate::tenths(base + 0.1 * l as f64) < limit {
            level = Some(l);
        } else {
            break;
        }
    }
    level.map(rate::size_bound)
}

impl Chains {
    fn tasks(&self) -> &'static [Task] {
        if self.grouped {
            &GROUPED
        } else {
            &PLAIN
        }
    }
}

/// The searches of one task from every source, run once as deep as the last tier that could be
/// wanted, and what they tell at each smaller bound: a breadth-first search meets every
/// potential at the same depth, from the same parent and in the same order whatever its depth
/// limit, so a deeper search holds all shallower ones.
///
/// Once a chain is found, the later sources are searched only as deep as a shorter chain could
/// lie: a chain as long or longer from a later source never wins (the first in search order
/// does), at any bound where it counts. Such a search is *truncated*: what it tells at deeper
/// bounds (only whether it was cut there) is worked out again when asked ([`Table::cut`]).
struct Table {
    /// Forcing chains: per start potential (in search order), its range in `meets`.
    starts: Vec<(u32, u32, u32)>,
    /// Forcing chains: (m, s, q): from depth limit m on, the start's best meeting is q, with
    /// d(q) + d(¬q) = s (the least s, first in search order).
    meets: Vec<(u16, u32, u32)>,
    /// Cycles: per loop that closes and removes something (in search order), the depth of
    /// the node it closes from, and the loop.
    loops: Vec<(u16, Hit)>,
    /// The deepest node any search reached (or closed a loop from): a bound whose depth
    /// limit is at most this cut some search.
    deepest: u16,
    /// The truncated searches that reached their depth limit: (start, end or `u32::MAX`,
    /// depth limit), in search order.
    truncated: Vec<(u32, u32, u16)>,
}

impl Table {
    /// The searches of `task` for chains of at most `top` nodes; `None` when the budget ran out.
    fn new(
        cx3: (&Board, &Graph, &mut Cx),
        bfs: &mut Bfs,
        task: &Task,
        top: usize,
    ) -> Option<Table> {
        Table::build(cx3, bfs, task, (top, true))
    }

    /// [`Table::new`], with the searches after the first chain found truncated when `prune`.
    fn build(
        (b, g, cx): (&Board, &Graph, &mut Cx),
        bfs: &mut Bfs,
        task: &Task,
        (top, prune): (usize, bool),
    ) -> Option<Table> {
        let limit = depth_limit(task, top);
        let links = top.saturating_sub(1);
        let mut t = Table {
            starts: Vec::new(),
            meets: Vec::new(),
            loops: Vec::new(),
            deepest: 0,
            truncated: Vec::new(),
        };
        let m = task.mode;
        let mut scratch = Scratch::default();
        // how deep the next search goes: below the shortest chain found so far
        let mut reach = limit;
        for (i, u) in sources(b, g).enumerate() {
            if i % 64 == 63 && cx.budget.is_out() {
                cx.exhaustive = false;
                return None;
            }
            match task.kind {
                Kind::Forcing => {
                    for on in [true, false] {
                        let start = (2 * u + on as usize) as u32;
                        let from = t.meets.len() as u32;
                        // an off start without strong links leads nowhere: no search needed
                        let mut alone = !on;
                        g.strong(u, m, &mut |_, _| alone = false);
                        if alone {
                            t.reached(0, (start, u32::MAX), (reach, limit));
                            t.starts.push((start, from, from));
                            continue;
                        }
                        bfs.run((b, g, m), start, reach, None);
                        t.reached(bfs.deepest(), (start, u32::MAX), (reach, limit));
                        bfs.meetings(&mut t.meets);
                        t.starts.push((start, from, t.meets.len() as u32));
                        // a later start matters only with a meeting of a smaller sum s, which
                        // lies no deeper than s - 1
                        match t.meets[from as usize..].last() {
                            Some(&(_, s, _)) if prune && s as usize <= links => {
                                reach = reach.min(s.saturating_sub(1).min(u16::MAX as u32) as u16);
                            }
                            _ => {}
                        }
                    }
                }
                Kind::Cycle => t.cycles(
                    (b, g, m),
                    bfs,
                    (u, &mut scratch),
                    (&mut reach, limit, prune),
                ),
            }
        }
        Some(t)
    }

    /// Notes a search from `start` (to `end`) run to depth limit `reach` (the table's being
    /// `limit`) that reached depth `d` and closed no loop.
    fn reached(&mut self, d: u16, (start, end): (u32, u32), (reach, limit): (u16, u16)) {
        self.deepest = self.deepest.max(d);
        if d >= reach && reach < limit {
            self.truncated.push((start, end, reach));
        }
    }

    /// The loops from candidate `u` through each of its strong links; `reach`: the depth
    /// limit of the next search, lowered to the shortest loop's when `prune`.
    fn cycles(
        &mut self,
        (b, g, m): (&Board, &Graph, Mode),
        bfs: &mut Bfs,
        (u, sc): (usize, &mut Scratch),
        (reach, limit, prune): (&mut u16, u16, bool),
    ) {
        let (c, _) = g.cand(u);
        if m.y && !m.x && b.cand[c].count_ones() != 2 {
            return;
        }
        let Scratch {
            partners,
            path,
            nodes,
            even,
            odd,
        } = sc;
        partners.clear();
        g.strong(u, m, &mut |x, _| partners.push(x));
        for &x in partners.iter() {
            let start = (2 * u + 1) as u32;
            let end = (2 * x) as u32;
            let found = bfs.run((b, g, m), start, *reach, Some(end));
            let Some((q, p)) = found else {
                self.reached(bfs.deepest(), (start, end), (*reach, limit));
                continue;
            };
            let d = bfs.depth(p);
            self.deepest = self.deepest.max(d);
            path.clear();
            bfs.walk(p, &mut |x| path.push(x));
            path.reverse();
            path.push(q);
            if path.len() < 4 {
                continue;
            }
            nodes.clear();
            nodes.extend(path.iter().map(|p| p / 2));
            nodes.sort_unstable();
            nodes.dedup();
            if nodes.len() != path.len() {
                continue;
            }
            let eliminations = loop_eliminations(b, g, path, (even, odd));
            if !eliminations.is_empty() {
                // a later loop matters only if shorter: closed from a node less deep than d
                if prune {
                    *reach = (*reach).min(d);
                }
                self.loops.push((
                    d,
                    Hit {
                        path: path.clone(),
                        placements: vec![],
                        eliminations,
                        cycle: true,
                    },
                ));
            }
        }
    }

    /// Whether a search of `task` for chains of at most `bound` nodes from some source would
    /// have been cut at its depth limit (the truncated searches that could tell are run again).
    fn cut(&self, (b, g): (&Board, &Graph), bfs: &mut Bfs, task: &Task, bound: usize) -> bool {
        let limit = depth_limit(task, bound);
        if self.deepest >= limit {
            return true;
        }
        self.truncated
            .iter()
            .filter(|x| x.2 < limit)
            .any(|&(start, end, _)| {
                let found = bfs.run(
                    (b, g, task.mode),
                    start,
                    limit,
                    (end != u32::MAX).then_some(end),
                );
                found.is_none() && bfs.deepest() >= limit
            })
    }

    /// The shortest chain of at most `bound` nodes (the first one found in search order).
    fn at(
        &self,
        (b, g): (&Board, &Graph),
        bfs: &mut Bfs,
        task: &Task,
        bound: usize,
    ) -> Option<Hit> {
        let limit = depth_limit(task, bound);
        match task.kind {
            Kind::Cycle => {
                let mut best: Option<&Hit> = None;
                for (d, hit) in &self.loops {
                    if *d < limit && best.is_none_or(|h| h.path.len() > hit.path.len()) {
                        best = Some(hit);
                    }
                }
                best.map(|h| Hit {
                    path: h.path.clone(),
                    placements: vec![],
                    eliminations: h.eliminations.clone(),
                    cycle: true,
                })
            }
            Kind::Forcing => {
                let links = bound.saturating_sub(1);
                let mut best: Option<(u32, u32, u32)> = None;
                for &(start, from, to) in &self.starts {
                    let Some(&(_, len, q)) = self.meets[from as usize..to as usize]
                        .iter()
                        .take_while(|x| x.0 <= limit)
                        .last()
                    else {
                        continue;
                    };
                    if len as usize > links || best.is_some_and(|x| x.1 <= len) {
                        continue;
                    }
                    best = Some((start, len, q));
                }
                let (start, _, q) = best?;
                bfs.run((b, g, task.mode), start, limit, None);
                let mut path = bfs.path(q);
                let back = bfs.path(q ^ 1);
                path.extend(back.iter().rev().skip(1).map(|&p| p ^ 1));
                let u = (start / 2) as usize;
                let (c, v) = g.cand(u);
                let (placements, eliminations) = if start % 2 == 1 {
                    (vec![], vec![(c, v as u8)])
                } else {
                    (vec![(c, v as u8)], vec![])
                };
                Some(Hit {
                    path,
                    placements,
                    eliminations,
                    cycle: false,
                })
            }
        }
    }
}

/// The buffers of a table's loop searches, reused from loop to loop.
#[derive(Default)]
struct Scratch {
    partners: Vec<usize>,
    path: Vec<u32>,
    nodes: Vec<u32>,
    even: Vec<usize>,
    odd: Vec<usize>,
}

/// The depth limit of a task's searches for chains of at most `bound` nodes: a forcing chain
/// is found by meeting itself halfway, a loop by coming back round.
fn depth_limit(task: &Task, bound: usize) -> u16 {
    let links = bound.saturating_sub(1);
    let d = match task.kind {
        Kind::Forcing => links.div_ceil(2),
        Kind::Cycle => links,
    };
    d.min(u16::MAX as usize) as u16
}

/// A chain found: its potentials in order and what it proves.
struct Hit {
    path: Vec<u32>,
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
    cycle: bool,
}

impl Hit {
    fn step(&self, b: &Board, g: &Graph, task: &Task, weight: f64) -> Step {
        let chain: Vec<String> = self
            .path
            .iter()
            .map(|&p| g.text(b, (p / 2) as usize, p % 2 == 1))
            .collect();
        let (c, v) = g.cand((self.path[0] / 2) as usize);
        let reason = if self.cycle {
            format!(
                "{} → {} closes a loop: one of the two ends of every link holds",
                chain.join(" → "),
                chain[0]
            )
        } else if self.placements.is_empty() {
            format!(
                "{}, so {} is not {}",
                chain.join(" → "),
                b.cell(c),
                b.sym(v)
            )
        } else {
            format!("{}, so {} is {}", chain.join(" → "), b.cell(c), b.sym(v))
        };
        let mut cells: Vec<usize> = self
            .path
            .iter()
            .flat_map(|&p| g.cells((p / 2) as usize))
            .collect();
        cells.dedup();
        Step {
            rule: task.name.into(),
            family: Family::Chains,
            size: self.path.len(),
            weight,
            shapes: vec![],
            cells,
            placements: self.placements.clone(),
            eliminations: self.eliminations.clone(),
            reason,
        }
    }
}

/// The empty candidate nodes of the board.
fn sources<'a>(b: &'a Board, g: &'a Graph) -> impl Iterator<Item = usize> + 'a {
    (0..b.cell_count())
        .filter(|&c| b.value[c].is_none())
        .flat_map(move |c| bits(b.cand[c]).map(move |v| c * g.n + v))
}

/// The candidates a closed loop removes: those weakly linked to a node of each parity
/// (`even`, `odd`: scratch).
fn loop_eliminations(
    b: &Board,
    g: &Graph,
    path: &[u32],
    (even, odd): (&mut Vec<usize>, &mut Vec<usize>),
) -> Vec<(usize, u8)> {
    let all = Mode {
        x: true,
        y: true,
        grouped: true,
    };
    even.clear();
    odd.clear();
    for (i, &p) in path.iter().enumerate() {
        let list = if i % 2 == 0 { &mut *even } else { &mut *odd };
        g.weak(b, (p / 2) as usize, all, &mut |w| list.push(w));
    }
    even.sort_unstable();
    even.dedup();
    odd.sort_unstable();
    odd.dedup();
    let in_loop = |w: usize| path.iter().any(|&p| (p / 2) as usize == w);
    even.iter()
        .copied()
        .filter(|&w| odd.binary_search(&w).is_ok() && !g.is_group(w) && !in_loop(w))
        .map(|w| {
            let (c, v) = g.cand(w);
            (c, v as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Geometry, Puzzle};
    use std::sync::Arc;

    /// One deep search tells, at every smaller depth limit, the meeting and the cut that a
    /// search of that limit finds (the tier tables rely on it).
    #[test]
    fn a_deep_search_holds_every_shallower_one() {
        let g = Arc::new(Geometry::builtin("classic9").expect("classic9"));
        // a hard puzzle (SE 9+): many candidates, long chains
        let p = Puzzle::from_text(
            g.clone(),
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .expect("a puzzle");
        let b = Board::new(&g, &p.givens).expect("a board");
        let m = Mode {
            x: true,
            y: true,
            grouped: false,
        };
        let graph = Graph::new(&b, false);
        let mut deep = Bfs::new(graph.node_count());
        let mut shallow = Bfs::new(graph.node_count());
        let mut checked = 0;
        for u in sources(&b, &graph) {
            for start in [2 * u as u32, 2 * u as u32 + 1] {
                deep.run((&b, &graph, m), start, u16::MAX, None);
                let mut meets = Vec::new();
                deep.meetings(&mut meets);
                for limit in 0..=deep.deepest() + 1 {
                    shallow.run((&b, &graph, m), start, limit, None);
                    let want = shallow.meeting();
                    let got = meets.iter().take_while(|x| x.0 <= limit).last();
                    assert_eq!(
                        got.map(|x| (x.2, x.1 as usize)),
                        want,
                        "start {start} limit {limit}"
                    );
                    assert_eq!(shallow.cut, deep.deepest() >= limit);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }

    /// A table whose later searches are truncated once a chain is found answers every bound
    /// as one that searches every source to the full depth: the same chain, the same cut.
    #[test]
    fn truncated_searches_tell_what_full_ones_do() {
        let g = Arc::new(Geometry::builtin("classic9").expect("classic9"));
        let budget = crate::logic::budget::Budget::unlimited();
        let mut truncated = 0;
        for text in [
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        ] {
            let p = Puzzle::from_text(g.clone(), text).expect("a puzzle");
            let b = Board::new(&g, &p.givens).expect("a board");
            for task in PLAIN.iter().chain(GROUPED.iter()) {
                let graph = Graph::new(&b, task.mode.grouped);
                let mut bfs = Bfs::new(graph.node_count());
                for top in [usize::MAX, 6, 8, 10, 13] {
                    let mut cx = Cx::new(&budget);
                    let full = Table::build((&b, &graph, &mut cx), &mut bfs, task, (top, false))
                        .expect("no budget");
                    let cut = Table::build((&b, &graph, &mut cx), &mut bfs, task, (top, true))
                        .expect("no budget");
                    assert!(full.truncated.is_empty());
                    truncated += cut.truncated.len();
                    let bounds = (0..8)
                        .map(rate::size_bound)
                        .filter(|&x| x <= top)
                        .chain([top]);
                    for bound in bounds {
                        let (a, z) = (
                            full.at((&b, &graph), &mut bfs, task, bound),
                            cut.at((&b, &graph), &mut bfs, task, bound),
                        );
                        let key = |h: &Hit| {
                            (h.path.clone(), h.placements.clone(), h.eliminations.clone())
                        };
                        assert_eq!(
                            a.as_ref().map(key),
                            z.as_ref().map(key),
                            "{} top {top} bound {bound}",
                            task.name
                        );
                        let (a, z) = (
                            full.cut((&b, &graph), &mut bfs, task, bound),
                            cut.cut((&b, &graph), &mut bfs, task, bound),
                        );
                        assert_eq!(a, z, "{} top {top} bound {bound}: cut", task.name);
                    }
                }
            }
        }
        assert!(truncated > 100, "the tables truncated {truncated} searches");
    }
}
