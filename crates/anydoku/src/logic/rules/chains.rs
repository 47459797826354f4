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

use super::links::{Graph, Link, Mode};
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board};
use crate::logic::budget::{Budget, Cx};
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
        let g = Graph::new(b, self.grouped);
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
            let (hit, cut) = search((b, &g, cx), &mut bfs, task, bound);
            if cut && bound < usize::MAX {
                cx.exhaustive &= limit < cx.cap && bound < cx.max_size;
            }
            if let Some(hit) = hit {
                let w = rate::tenths(task.base + rate::length_bonus(hit.path.len()));
                if w < limit {
                    best = Some((w, hit, task));
                }
            }
        }
        // both kinds: the search goes up one tenth at a time, below the best found so far
        let xy: Vec<&Task> = tasks.iter().filter(|t| t.mode.x && t.mode.y).collect();
        let mut level: Vec<Option<usize>> = vec![Some(0); xy.len()];
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
            let (hit, cut) = search((b, &g, cx), &mut bfs, xy[t], rate::size_bound(l));
            if let Some(hit) = hit {
                return Some(hit.step(b, &g, xy[t], weight));
            }
            level[t] = cut.then_some(l + 1);
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

/// The shortest chain of a task with at most `bound` nodes, and whether the search was cut.
fn search(
    (b, g, cx): (&Board, &Graph, &Cx),
    bfs: &mut Bfs,
    task: &Task,
    bound: usize,
) -> (Option<Hit>, bool) {
    match task.kind {
        Kind::Forcing => forcing((b, g, task.mode), bfs, bound, cx.budget),
        Kind::Cycle => cycle((b, g, task.mode), bfs, bound, cx.budget),
    }
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

/// A breadth-first search over potentials (`node * 2 + on`), reused from source to source.
pub struct Bfs {
    seen: Vec<u32>,
    gen: u32,
    parent: Vec<u32>,
    depth: Vec<u16>,
    queue: Vec<u32>,
    /// Whether the last search stopped somewhere at its depth limit.
    pub cut: bool,
}

impl Bfs {
    pub fn new(nodes: usize) -> Self {
        Bfs {
            seen: vec![0; 2 * nodes],
            gen: 0,
            parent: vec![u32::MAX; 2 * nodes],
            depth: vec![0; 2 * nodes],
            queue: Vec::new(),
            cut: false,
        }
    }

    /// Searches from potential `start`, expanding potentials less than `limit` links away.
    /// `hit(produced, from)` is asked about every potential produced (seen before or not) and
    /// ends the search with `(produced, from)` when it says yes. `skip` is never recorded when
    /// produced straight from `start`.
    pub fn run(
        &mut self,
        (b, g, m): (&Board, &Graph, Mode),
        start: u32,
        limit: u16,
        skip: Option<u32>,
        hit: &mut impl FnMut(u32, u32) -> bool,
    ) -> Option<(u32, u32)> {
        self.gen += 1;
        self.cut = false;
        let gen = self.gen;
        self.queue.clear();
        self.queue.push(start);
        self.seen[start as usize] = gen;
        self.depth[start as usize] = 0;
        self.parent[start as usize] = u32::MAX;
        let mut head = 0;
        let mut out = None;
        while head < self.queue.len() && out.is_none() {
            let p = self.queue[head];
            head += 1;
            let d = self.depth[p as usize];
            if d >= limit {
                self.cut = true;
                continue;
            }
            let u = (p / 2) as usize;
            let mut visit = |q: u32, this: &mut Bfs| -> bool {
                if hit(q, p) {
                    out = Some((q, p));
                    return true;
                }
                if this.seen[q as usize] != gen && !(p == start && Some(q) == skip) {
                    this.seen[q as usize] = gen;
                    this.parent[q as usize] = p;
                    this.depth[q as usize] = d + 1;
                    this.queue.push(q);
                }
                false
            };
            if p % 2 == 1 {
                let mut stop = false;
                g.weak(b, u, m, &mut |w| {
                    if !stop {
                        stop = visit(2 * w as u32, self);
                    }
                });
            } else {
                let mut stop = false;
                g.strong(u, m, &mut |w, _: Link| {
                    if !stop {
                        stop = visit(2 * w as u32 + 1, self);
                    }
                });
            }
        }
        out
    }

    /// The potential q reached by the last search whose opposite was reached too, with the
    /// least d(q) + d(¬q), and that sum.
    pub fn meeting(&self) -> Option<(u32, usize)> {
        let mut best: Option<(u32, usize)> = None;
        for &q in &self.queue {
            let o = (q ^ 1) as usize;
            if self.seen[o] == self.gen {
                let len = self.depth[q as usize] as usize + self.depth[o] as usize;
                if best.is_none_or(|b| len < b.1) {
                    best = Some((q, len));
                }
            }
        }
        best
    }

    /// The potentials the last search reached exactly `d` links from its start.
    pub fn reached_at(&self, d: u16) -> Vec<u32> {
        self.queue
            .iter()
            .copied()
            .filter(|&q| self.depth[q as usize] == d)
            .collect()
    }

    /// The potentials from the start to `p`.
    pub fn path(&self, mut p: u32) -> Vec<u32> {
        let mut out = vec![p];
        while self.parent[p as usize] != u32::MAX {
            p = self.parent[p as usize];
            out.push(p);
        }
        out.reverse();
        out
    }
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
            format!("{}, so {} is not {}", chain.join(" → "), b.cell(c), b.sym(v))
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

/// The shortest forcing chain of at most `bound` nodes over all sources, and whether some
/// search was cut at the bound.
///
/// A chain from a start S to its opposite ¬S meets itself in the middle: if S leads to q and
/// S also leads to ¬q, then (reading the second chain backwards, each link negated) q leads to
/// ¬S. So one search from S, half as deep, finds the shortest chain: the least d(q) + d(¬q).
fn forcing(
    (b, g, m): (&Board, &Graph, Mode),
    bfs: &mut Bfs,
    bound: usize,
    budget: &Budget,
) -> (Option<Hit>, bool) {
    let links = bound.saturating_sub(1);
    let limit = links.div_ceil(2).min(u16::MAX as usize) as u16;
    let mut best: Option<Hit> = None;
    let mut cut = false;
    for (i, u) in sources(b, g).enumerate() {
        if i % 64 == 63 && budget.is_out() {
            return (None, true);
        }
        for on in [true, false] {
            let start = (2 * u + on as usize) as u32;
            bfs.run((b, g, m), start, limit, None, &mut |_, _| false);
            cut |= bfs.cut;
            let Some((q, len)) = bfs.meeting() else {
                continue;
            };
            if len > links || best.as_ref().is_some_and(|h| h.path.len() <= len + 1) {
                continue;
            }
            let mut path = bfs.path(q);
            let back = bfs.path(q ^ 1);
            path.extend(back.iter().rev().skip(1).map(|&p| p ^ 1));
            let (c, v) = g.cand(u);
            let (placements, eliminations) = if on {
                (vec![], vec![(c, v as u8)])
            } else {
                (vec![(c, v as u8)], vec![])
            };
            best = Some(Hit {
                path,
                placements,
                eliminations,
                cycle: false,
            });
        }
    }
    (best, cut)
}

/// The shortest cycle of at most `bound` nodes with eliminations, and whether some search was
/// cut at the bound.
fn cycle(
    (b, g, m): (&Board, &Graph, Mode),
    bfs: &mut Bfs,
    bound: usize,
    budget: &Budget,
) -> (Option<Hit>, bool) {
    let limit = bound.saturating_sub(1).min(u16::MAX as usize) as u16;
    let mut best: Option<Hit> = None;
    let mut cut = false;
    for (i, u) in sources(b, g).enumerate() {
        if i % 64 == 63 && budget.is_out() {
            return (None, true);
        }
        let (c, _) = g.cand(u);
        if m.y && !m.x && b.cand[c].count_ones() != 2 {
            continue;
        }
        let mut partners = Vec::new();
        g.strong(u, m, &mut |x, _| partners.push(x));
        for x in partners {
            let start = (2 * u + 1) as u32;
            let end = (2 * x) as u32;
            let found = bfs.run((b, g, m), start, limit, Some(end), &mut |q, p| {
                q == end && p != start
            });
            cut |= bfs.cut;
            let Some((q, p)) = found else { continue };
            let mut path = bfs.path(p);
            path.push(q);
            if path.len() < 4 || best.as_ref().is_some_and(|h| h.path.len() <= path.len()) {
                continue;
            }
            let mut nodes: Vec<u32> = path.iter().map(|p| p / 2).collect();
            nodes.sort_unstable();
            nodes.dedup();
            if nodes.len() != path.len() {
                continue;
            }
            let eliminations = loop_eliminations(b, g, &path);
            if !eliminations.is_empty() {
                best = Some(Hit {
                    path,
                    placements: vec![],
                    eliminations,
                    cycle: true,
                });
            }
        }
    }
    (best, cut)
}

/// The candidates a closed loop removes: those weakly linked to a node of each parity.
fn loop_eliminations(b: &Board, g: &Graph, path: &[u32]) -> Vec<(usize, u8)> {
    let all = Mode {
        x: true,
        y: true,
        grouped: true,
    };
    let mut even: Vec<usize> = Vec::new();
    let mut odd: Vec<usize> = Vec::new();
    for (i, &p) in path.iter().enumerate() {
        let list = if i % 2 == 0 { &mut even } else { &mut odd };
        g.weak(b, (p / 2) as usize, all, &mut |w| list.push(w));
    }
    even.sort_unstable();
    even.dedup();
    odd.sort_unstable();
    odd.dedup();
    let in_loop: Vec<usize> = path.iter().map(|&p| (p / 2) as usize).collect();
    even.into_iter()
        .filter(|w| odd.binary_search(w).is_ok() && !g.is_group(*w) && !in_loop.contains(w))
        .map(|w| {
            let (c, v) = g.cand(w);
            (c, v as u8)
        })
        .collect()
}
