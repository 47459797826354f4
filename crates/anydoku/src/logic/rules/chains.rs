//! Alternating inference chains (AIC) over the geometry's peer graph; X-chains and XY-chains are
//! the special cases with one symbol, or with bivalue cells only.
//!
//! Nodes are candidates (cell, symbol). A *strong* link says "at least one of the two is true":
//! the two candidates of a bivalue cell, or the only two places of a required symbol in a shape.
//! A *weak* link says "not both": two candidates of one cell, or one symbol in two peer cells.
//! Following "A false ⇒ B true ⇒ C false ⇒ D true ..." from a start A to any Z reached "true"
//! proves A or Z; every candidate weakly linked to both A and Z is removed (and if Z is A
//! itself, A is placed). Chains are found breadth first, so the shortest one is reported.

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board};
use crate::logic::Family;

/// Chains of one kind with at most `max_links` strong links.
pub struct Chains {
    pub kind: ChainKind,
    pub max_links: usize,
}

/// Which links a chain may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainKind {
    /// One symbol: strong and weak links inside shapes only.
    X,
    /// Bivalue cells: strong links inside cells, weak links between peer cells.
    Xy,
    /// Any links.
    Aic,
}

impl ChainKind {
    fn strong_ok(self, l: Link) -> bool {
        match self {
            ChainKind::X => l == Link::Shape,
            ChainKind::Xy => l == Link::Cell,
            ChainKind::Aic => true,
        }
    }
    fn weak_ok(self, l: Link) -> bool {
        self == ChainKind::Aic || l == Link::Shape
    }
    /// The weight of a chain of this kind with `n` strong links.
    pub fn weight(self, n: usize) -> f64 {
        let n = n as f64;
        match self {
            ChainKind::X => 4.1 + 0.3 * (n - 2.0),
            ChainKind::Xy => 4.2 + 0.3 * (n - 3.0).max(0.0),
            ChainKind::Aic => 4.5 + 0.3 * (n - 2.0),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Link {
    Cell,
    Shape,
}

struct Graph {
    nodes: Vec<(usize, usize)>,
    id: Vec<u32>,
    strong: Vec<Vec<(u32, Link)>>,
    n_symbols: usize,
}

impl Graph {
    fn new(b: &Board) -> Graph {
        let n = b.n_symbols;
        let mut nodes = Vec::new();
        let mut id = vec![u32::MAX; b.cell_count() * n];
        for c in 0..b.cell_count() {
            if b.value[c].is_none() {
                for s in bits(b.cand[c]) {
                    id[c * n + s] = nodes.len() as u32;
                    nodes.push((c, s));
                }
            }
        }
        let mut strong: Vec<Vec<(u32, Link)>> = vec![Vec::new(); nodes.len()];
        for (i, &(c, s)) in nodes.iter().enumerate() {
            if b.cand[c].count_ones() == 2 {
                let t = (b.cand[c] & !(1 << s)).trailing_zeros() as usize;
                strong[i].push((id[c * n + t], Link::Cell));
            }
            for &sh in &b.unique_of[c] {
                if b.open_required(sh) & (1 << s) == 0 {
                    continue;
                }
                let places = b.with_candidate(&b.shapes[sh].cells, s);
                if places.len() == 2 {
                    let d = if places[0] == c { places[1] } else { places[0] };
                    let j = id[d * n + s];
                    if !strong[i].iter().any(|&(x, _)| x == j) {
                        strong[i].push((j, Link::Shape));
                    }
                }
            }
        }
        Graph {
            nodes,
            id,
            strong,
            n_symbols: n,
        }
    }

    fn node(&self, c: usize, s: usize) -> Option<usize> {
        let i = self.id[c * self.n_symbols + s];
        (i != u32::MAX).then_some(i as usize)
    }
}

/// (cell, symbol) pairs.
type Candidates = Vec<(usize, u8)>;

/// What a chain from A to Z proves: (placements, eliminations).
fn conclusions(b: &Board, g: &Graph, a: usize, z: usize) -> (Candidates, Candidates) {
    let (ac, as_) = g.nodes[a];
    let (zc, zs) = g.nodes[z];
    let mut elim = Vec::new();
    if a == z {
        return (vec![(ac, as_ as u8)], elim);
    }
    if ac == zc {
        for v in bits(b.cand[ac] & !(1 << as_) & !(1 << zs)) {
            elim.push((ac, v as u8));
        }
    } else if as_ == zs {
        for &p in &b.peers[ac] {
            let p = p as usize;
            if p != zc && b.value[p].is_none() && b.cand[p] & (1 << as_) != 0 && b.sees(p, zc) {
                elim.push((p, as_ as u8));
            }
        }
    } else if b.sees(ac, zc) {
        if b.cand[zc] & (1 << as_) != 0 {
            elim.push((zc, as_ as u8));
        }
        if b.cand[ac] & (1 << zs) != 0 {
            elim.push((ac, zs as u8));
        }
    }
    (vec![], elim)
}

impl LogicRule for Chains {
    fn name(&self) -> &str {
        "Chain"
    }
    fn family(&self) -> Family {
        Family::Chains
    }
    fn min_weight(&self) -> f64 {
        self.kind.weight(if self.max_links <= 3 { 2 } else { 4 })
    }
    fn find(&self, b: &Board) -> Option<Step> {
        let g = Graph::new(b);
        let m = g.nodes.len();
        if m == 0 {
            return None;
        }
        // state = node * 2 + on
        let mut dist = vec![u32::MAX; 2 * m];
        let mut parent = vec![(u32::MAX, Link::Cell); 2 * m];
        let mut queue = Vec::with_capacity(2 * m);
        #[allow(clippy::type_complexity)]
        let mut best: Option<(u32, usize, usize, Vec<usize>, Vec<Link>)> = None;
        let max_depth = (2 * self.max_links) as u32;
        for a in 0..m {
            if g.strong[a].is_empty() {
                continue;
            }
            let limit = best.as_ref().map_or(max_depth, |b| b.0.saturating_sub(1));
            if limit < 3 {
                break;
            }
            dist.iter_mut().for_each(|d| *d = u32::MAX);
            queue.clear();
            dist[2 * a] = 0;
            queue.push(2 * a as u32);
            let mut head = 0;
            let mut hit = None;
            while head < queue.len() {
                let st = queue[head] as usize;
                head += 1;
                let (x, on) = (st / 2, st % 2 == 1);
                let d = dist[st];
                if on && d >= 3 {
                    let (place, elim) = conclusions(b, &g, a, x);
                    if !place.is_empty() || !elim.is_empty() {
                        hit = Some(st);
                        break;
                    }
                }
                if d >= limit {
                    continue;
                }
                let mut visit = |y: usize, on: bool, link: Link, queue: &mut Vec<u32>| {
                    let t = 2 * y + on as usize;
                    if dist[t] == u32::MAX {
                        dist[t] = d + 1;
                        parent[t] = (st as u32, link);
                        queue.push(t as u32);
                    }
                };
                let kind = self.kind;
                if !on {
                    for &(y, link) in &g.strong[x] {
                        if kind.strong_ok(link) {
                            visit(y as usize, true, link, &mut queue);
                        }
                    }
                } else {
                    let (c, s) = g.nodes[x];
                    if kind.weak_ok(Link::Cell) {
                        for t in bits(b.cand[c] & !(1 << s)) {
                            if let Some(y) = g.node(c, t) {
                                visit(y, false, Link::Cell, &mut queue);
                            }
                        }
                    }
                    for &p in &b.peers[c] {
                        if let Some(y) = g.node(p as usize, s) {
                            visit(y, false, Link::Shape, &mut queue);
                        }
                    }
                }
            }
            if let Some(st) = hit {
                let mut states = vec![st];
                let mut links = Vec::new();
                let mut cur = st;
                while cur != 2 * a {
                    let (p, link) = parent[cur];
                    links.push(link);
                    states.push(p as usize);
                    cur = p as usize;
                }
                states.reverse();
                links.reverse();
                if best.as_ref().is_none_or(|b| dist[st] < b.0) {
                    best = Some((dist[st], a, st / 2, states, links));
                }
            }
        }
        let (_, a, z, states, _links) = best?;
        let (placements, eliminations) = conclusions(b, &g, a, z);
        // links[i] joins states[i] and states[i + 1]
        let nodes: Vec<usize> = states.iter().map(|&st| st / 2).collect();
        let strong_links = nodes.len() / 2;
        let weight = self.kind.weight(strong_links);
        let rule = match self.kind {
            ChainKind::X => "X-chain",
            ChainKind::Xy if strong_links == 3 && placements.is_empty() => "XY-Wing",
            ChainKind::Xy => "XY-chain",
            ChainKind::Aic => "AIC",
        }
        .to_string();
        let mut text = String::new();
        for (i, &n) in nodes.iter().enumerate() {
            let (c, s) = g.nodes[n];
            if i > 0 {
                text.push_str(if i % 2 == 1 { " = " } else { " − " });
            }
            text.push_str(&format!("{}({})", b.cell(c), b.sym(s)));
        }
        let (ac, as_) = g.nodes[a];
        let (zc, zs) = g.nodes[z];
        let conclusion = if a == z {
            format!(
                "assuming {} is not {} leads back to it being {}",
                b.cell(ac),
                b.sym(as_),
                b.sym(as_)
            )
        } else {
            format!(
                "{} is {} or {} is {}",
                b.cell(ac),
                b.sym(as_),
                b.cell(zc),
                b.sym(zs)
            )
        };
        let mut cells: Vec<usize> = nodes.iter().map(|&n| g.nodes[n].0).collect();
        cells.dedup();
        Some(Step {
            rule,
            family: Family::Chains,
            size: strong_links,
            weight,
            shapes: vec![],
            cells,
            placements,
            eliminations,
            reason: format!("{text}, so {conclusion}"),
        })
    }
}
