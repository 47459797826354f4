//! The link graph of the chain rules: candidates (and, for grouped chains, groups) as nodes,
//! with the links between them, built from the board's shapes and peers only.
//!
//! A node is *on* when it holds (a candidate: the cell is that symbol; a group: one of its cells
//! is) and *off* otherwise. Two kinds of implication link them, each either inside a cell or
//! inside a shape:
//!
//! * on ⇒ off ("weak": not both): the other candidates of a cell; a symbol's other candidates
//!   in the cell's peers; a group and the candidates or groups of its symbol that see all of it.
//! * off ⇒ on ("strong": at least one): the two candidates of a bivalue cell; the two places of
//!   a symbol a shape must hold, where a place is a cell or a group lying inside the shape.
//!
//! A *group* is the set of empty cells of one unique shape that hold a symbol and lie in one
//! other unique shape (a box–line intersection on a classic grid); it is on when the symbol is
//! in one of them. Following SE, the weak links between same-symbol peers are used in every
//! mode; a mode only chooses which strong links (cell, shape) a chain may use.

use std::sync::{Arc, Mutex};

use crate::logic::board::{bits, Board, Mask};

/// Which links a chain may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// Strong links inside shapes (X-links).
    pub x: bool,
    /// Strong and weak links inside cells (Y-links).
    pub y: bool,
    /// Group nodes.
    pub grouped: bool,
}

/// Where a strong link lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    Cell,
    Shape,
}

/// A group node: cells holding symbol `v`, all inside at least two unique shapes.
#[derive(Debug, Clone)]
pub struct Group {
    pub cells: Vec<usize>,
    pub v: usize,
}

/// The nodes and links of a board.
pub struct Graph {
    /// Symbols per cell: candidate (c, v) is node `c * n + v`.
    pub n: usize,
    /// Candidate node ids end here; group `i` is node `base + i`.
    pub base: usize,
    pub groups: Vec<Group>,
    strong_start: Vec<u32>,
    strong: Vec<(u32, Link)>,
    weak_start: Vec<u32>,
    weak: Vec<u32>,
}

/// The graphs last built from a board (a plain one and a grouped one), with the candidates
/// they were built from: the chain rules of one step share them. A copy of the board starts
/// without any.
#[derive(Default)]
pub struct GraphCache(Mutex<[Option<Cached>; 2]>);

/// A graph and what it was built from.
struct Cached {
    cand: Vec<Mask>,
    value: Vec<Option<u8>>,
    required: Vec<Mask>,
    graph: Arc<Graph>,
}

impl Clone for GraphCache {
    fn clone(&self) -> Self {
        GraphCache::default()
    }
}

impl std::fmt::Debug for GraphCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GraphCache")
    }
}

impl Graph {
    /// The graph of `b` ([`Graph::new`]), built once for the board's current candidates.
    pub fn of(b: &Board, grouped: bool) -> Arc<Graph> {
        let slot = grouped as usize;
        let same = |c: &Cached| c.cand == b.cand && c.value == b.value && c.required == b.required;
        if let Ok(cache) = b.graphs.0.lock() {
            if let Some(c) = cache[slot].as_ref().filter(|c| same(c)) {
                return c.graph.clone();
            }
        }
        let graph = Arc::new(Graph::new(b, grouped));
        if let Ok(mut cache) = b.graphs.0.lock() {
            cache[slot] = Some(Cached {
                cand: b.cand.clone(),
                value: b.value.clone(),
                required: b.required.clone(),
                graph: graph.clone(),
            });
        }
        graph
    }

    /// The graph of `b`, with group nodes when `grouped`.
    pub fn new(b: &Board, grouped: bool) -> Graph {
        let n = b.n_symbols;
        let base = b.cell_count() * n;
        let groups = if grouped { groups(b) } else { Vec::new() };
        let total = base + groups.len();
        // the strong links in the order made (a pair made again is dropped below)
        let mut made: Vec<(u32, u32, Link)> = Vec::new();
        let mut link = |u: usize, w: usize, l: Link| made.push((u as u32, w as u32, l));
        for c in 0..b.cell_count() {
            if b.value[c].is_none() && b.cand[c].count_ones() == 2 {
                let v = b.cand[c].trailing_zeros() as usize;
                let w = 63 - b.cand[c].leading_zeros() as usize;
                link(c * n + v, c * n + w, Link::Cell);
            }
        }
        // groups by symbol, to find the ones inside a shape
        let mut by_sym: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, g) in groups.iter().enumerate() {
            by_sym[g.v].push(i);
        }
        // (shape, group) for every shape holding the whole of a group, in order
        let inside = shapes_holding(b, &groups);
        for &s in b.requiring() {
            // the groups inside shape s, in order
            let at = inside.partition_point(|x| x.0 < s);
            let within = inside[at..].iter().take_while(|x| x.0 == s).map(|x| x.1);
            for v in bits(b.open_required(s)) {
                let (count, two) = b.places(s, v);
                if count == 2 {
                    link(two[0] * n + v, two[1] * n + v, Link::Shape);
                }
                let mut places = Vec::new();
                for gi in within.clone().filter(|&gi| groups[gi].v == v) {
                    let g = &groups[gi];
                    if places.is_empty() {
                        places = b.with_candidate(&b.shapes[s].cells, v);
                    }
                    let rest: Vec<usize> = places
                        .iter()
                        .copied()
                        .filter(|c| !g.cells.contains(c))
                        .collect();
                    if rest.len() == 1 {
                        link(base + gi, rest[0] * n + v, Link::Shape);
                    } else if let Some(&gj) = by_sym[v].iter().find(|&&gj| groups[gj].cells == rest)
                    {
                        link(base + gi, base + gj, Link::Shape);
                    }
                }
            }
        }
        let (strong_start, strong) = adjacency(total, &made);
        let (weak_start, weak) = group_weak(b, &groups, base);
        Graph {
            n,
            base,
            groups,
            strong_start,
            strong,
            weak_start,
            weak,
        }
    }

    /// Number of node ids.
    pub fn node_count(&self) -> usize {
        self.base + self.groups.len()
    }

    /// Whether node `u` is a group.
    pub fn is_group(&self, u: usize) -> bool {
        u >= self.base
    }

    /// The cell and symbol of a candidate node.
    pub fn cand(&self, u: usize) -> (usize, usize) {
        (u / self.n, u % self.n)
    }

    /// The symbol of any node.
    pub fn symbol(&self, u: usize) -> usize {
        if self.is_group(u) {
            self.groups[u - self.base].v
        } else {
            u % self.n
        }
    }

    /// The cells of any node.
    pub fn cells(&self, u: usize) -> Vec<usize> {
        if self.is_group(u) {
            self.groups[u - self.base].cells.clone()
        } else {
            vec![u / self.n]
        }
    }

    /// Whether some cell of node `u` passes `f` ([`Graph::cells`] without listing them).
    pub fn cells_any(&self, u: usize, f: impl Fn(usize) -> bool) -> bool {
        if self.is_group(u) {
            self.groups[u - self.base].cells.iter().any(|&c| f(c))
        } else {
            f(u / self.n)
        }
    }

    /// Calls `f` with every node made off by node `u` being on, in mode `m`.
    pub fn weak(&self, b: &Board, u: usize, m: Mode, f: &mut impl FnMut(usize)) {
        if !self.is_group(u) {
            let (c, v) = self.cand(u);
            if m.y {
                for w in bits(b.cand[c] & !(1 << v)) {
                    f(c * self.n + w);
                }
            }
            // the empty peers holding v, in ascending order (the order of the peer list)
            for (w, (&a, &h)) in b.peer_set(c).iter().zip(b.holds(v)).enumerate() {
                for i in bits(a & h) {
                    f((w * 64 + i) * self.n + v);
                }
            }
        }
        if m.grouped && !self.groups.is_empty() {
            for &w in self.range(&self.weak_start, &self.weak, u) {
                f(w as usize);
            }
        }
    }

    /// Calls `f` with every node made on by node `u` being off, in mode `m`, and the link.
    pub fn strong(&self, u: usize, m: Mode, f: &mut impl FnMut(usize, Link)) {
        for &(w, l) in self.range(&self.strong_start, &self.strong, u) {
            let ok = match l {
                Link::Cell => m.y,
                Link::Shape => m.x,
            };
            if ok && (m.grouped || !self.is_group(w as usize)) {
                f(w as usize, l);
            }
        }
    }

    /// The weak links of node `u` to and from groups (none without group nodes).
    pub fn group_links(&self, u: usize) -> &[u32] {
        self.range(&self.weak_start, &self.weak, u)
    }

    fn range<'a, T>(&self, start: &[u32], list: &'a [T], u: usize) -> &'a [T] {
        if u + 1 >= start.len() {
            return &[];
        }
        &list[start[u] as usize..start[u + 1] as usize]
    }

    /// A node written for a reason: "r1c2=7" / "r1c2≠7", or a group "{r1c2, r1c3}=7".
    pub fn text(&self, b: &Board, u: usize, on: bool) -> String {
        let v = self.symbol(u);
        if self.is_group(u) {
            let cells = &self.groups[u - self.base].cells;
            let word = if on { "in" } else { "not in" };
            format!("{} {word} {{{}}}", b.sym(v), b.cells_text(cells))
        } else {
            let sign = if on { "=" } else { "≠" };
            format!("{}{sign}{}", b.cell(u / self.n), b.sym(v))
        }
    }
}

/// Per node, its strong links in the order made, a pair made again left out: start offsets
/// and one flat list.
fn adjacency(total: usize, made: &[(u32, u32, Link)]) -> (Vec<u32>, Vec<(u32, Link)>) {
    let mut start = vec![0u32; total + 1];
    for &(u, w, _) in made {
        start[u as usize + 1] += 1;
        start[w as usize + 1] += 1;
    }
    for i in 0..total {
        start[i + 1] += start[i];
    }
    let mut end = start.clone();
    let mut room = vec![(0u32, Link::Cell); 2 * made.len()];
    for &(u, w, l) in made {
        let (u, w) = (u as usize, w as usize);
        if room[start[u] as usize..end[u] as usize]
            .iter()
            .any(|&(x, _)| x as usize == w)
        {
            continue;
        }
        room[end[u] as usize] = (w as u32, l);
        end[u] += 1;
        room[end[w] as usize] = (u as u32, l);
        end[w] += 1;
    }
    let mut flat = Vec::with_capacity(room.len());
    let mut out = Vec::with_capacity(total + 1);
    for u in 0..total {
        out.push(flat.len() as u32);
        flat.extend_from_slice(&room[start[u] as usize..end[u] as usize]);
    }
    out.push(flat.len() as u32);
    (out, flat)
}

/// The group nodes of a board: per pair of unique shapes and symbol, the empty cells of both
/// that hold the symbol, when there are at least two.
fn groups(b: &Board) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    for a in 0..b.shapes.len() {
        if !b.shapes[a].unique || b.is_pair(a) {
            continue;
        }
        let free = b.free_cells(a);
        // the other unique shapes meeting `a` in two or more empty cells
        let mut others: Vec<usize> = free
            .iter()
            .flat_map(|&c| b.unique_of[c].iter().copied())
            .filter(|&s| s > a)
            .collect();
        others.sort_unstable();
        others.dedup();
        for s in others {
            let common: Vec<usize> = free
                .iter()
                .copied()
                .filter(|c| b.unique_of[*c].contains(&s))
                .collect();
            if common.len() < 2 {
                continue;
            }
            let union = common.iter().fold(0, |m, &c| m | b.cand[c]);
            for v in bits(union) {
                let cells: Vec<usize> = common
                    .iter()
                    .copied()
                    .filter(|&c| b.cand[c] & (1 << v) != 0)
                    .collect();
                if cells.len() >= 2 && seen.insert((cells.clone(), v)) {
                    out.push(Group { cells, v });
                }
            }
        }
    }
    out
}

/// Per group, the shapes holding all of its cells: (shape, group), sorted.
fn shapes_holding(b: &Board, groups: &[Group]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        for &s in b.shapes_of[g.cells[0]].iter() {
            if g.cells[1..].iter().all(|&c| b.shapes_of[c].contains(&s)) {
                out.push((s, gi));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The weak links of groups: per node id, the nodes it makes off when on (only groups and the
/// candidates of their symbol that see a whole group have any), as start offsets and one flat
/// list, each node's links in the order found.
fn group_weak(b: &Board, groups: &[Group], base: usize) -> (Vec<u32>, Vec<u32>) {
    let n = b.n_symbols;
    if groups.is_empty() {
        return (vec![0], Vec::new());
    }
    // the groups of each symbol, in order: only those can be linked to each other
    let mut by_sym: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, g) in groups.iter().enumerate() {
        by_sym[g.v].push(i);
    }
    let words = b.words;
    // per group, its cells and the cells that see all of them, as bitsets
    let mut sets = vec![0u64; 2 * words * groups.len()];
    for (i, g) in groups.iter().enumerate() {
        let (cells, common) = sets[2 * words * i..2 * words * (i + 1)].split_at_mut(words);
        common.copy_from_slice(b.peer_set(g.cells[0]));
        for &c in &g.cells {
            cells[c / 64] |= 1 << (c % 64);
            for (x, &p) in common.iter_mut().zip(b.peer_set(c)) {
                *x &= p;
            }
        }
        // a cell of the group is no peer of itself, so none of them is left
        for (x, &own) in common.iter_mut().zip(cells.iter()) {
            *x &= !own;
        }
    }
    let cells_of = |i: usize| &sets[2 * words * i..2 * words * i + words];
    let common_of = |i: usize| &sets[2 * words * i + words..2 * words * (i + 1)];
    // (node, node it makes off) in the order found
    let mut made: Vec<(u32, u32)> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let gid = (base + i) as u32;
        // the empty cells holding the symbol that see the whole group, in order
        for (w, (&a, &h)) in common_of(i).iter().zip(b.holds(g.v)).enumerate() {
            for k in bits(a & h) {
                let q = ((w * 64 + k) * n + g.v) as u32;
                made.extend([(gid, q), (q, gid)]);
            }
        }
        for &j in by_sym[g.v].iter().filter(|&&j| j > i) {
            let inside = cells_of(j)
                .iter()
                .zip(common_of(i))
                .all(|(&h, &a)| h & !a == 0);
            if inside {
                made.extend([(gid, (base + j) as u32), ((base + j) as u32, gid)]);
            }
        }
    }
    let total = base + groups.len();
    let mut start = vec![0u32; total + 1];
    for &(u, _) in &made {
        start[u as usize + 1] += 1;
    }
    for i in 0..total {
        start[i + 1] += start[i];
    }
    let mut at = start.clone();
    let mut flat = vec![0u32; made.len()];
    for &(u, w) in &made {
        flat[at[u as usize] as usize] = w;
        at[u as usize] += 1;
    }
    (start, flat)
}
