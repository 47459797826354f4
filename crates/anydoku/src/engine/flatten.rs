//! Flattening a [`Geometry`] into the engine's arrays: each cell's peers (CSR), the member lists
//! of complete shapes, the sum shapes (with the law-of-45 ones when asked), the constraint
//! kinds' propagators, each cell's complete shapes as a bitset, the sum filters' tables, and the
//! overlaps of complete shapes. This is the only place the engine reads a geometry: each shape's
//! kind adds itself to a [`Flat`] ([`crate::kinds::Kind::flatten`]).

use std::sync::Arc;

use super::constraint::Propagator;
use super::{sum, Engine, SumShape, PROP_WORDS};
use crate::geometry::{CellId, Geometry, Rule};

/// What the shapes' kinds add to the engine, as they are flattened one by one.
pub(crate) struct Flat {
    values: Vec<i64>,
    /// Members of complete shapes, `n_symbols` cells each, back to back.
    complete: Vec<u32>,
    sums: Vec<SumShape>,
    /// Pairs of cells that may not hold the same symbol, besides the cells of unique shapes.
    pairs: Vec<[u32; 2]>,
    props: Vec<Arc<dyn Propagator>>,
}

impl Flat {
    /// The symbols' values, by symbol index.
    pub(crate) fn values(&self) -> &[i64] {
        &self.values
    }

    /// A shape that holds every symbol exactly once (`cells` has one cell per symbol).
    pub(crate) fn complete(&mut self, cells: &[CellId]) {
        debug_assert_eq!(cells.len(), self.values.len());
        self.complete.extend(cells.iter().map(|c| c.0));
    }

    /// A sum shape.
    pub(crate) fn sum(&mut self, cells: &[CellId], total: i64, unique: bool) {
        self.sums.push(SumShape {
            cells: cells.iter().map(|c| c.0).collect(),
            total,
            unique,
        });
    }

    /// Two cells that may not hold the same symbol (they become peers).
    pub(crate) fn distinct(&mut self, a: CellId, b: CellId) {
        if a != b {
            self.pairs.push([a.0, b.0]);
        }
    }

    /// A propagator of the cell-major kernel.
    pub(crate) fn propagator(&mut self, p: impl Propagator + 'static) {
        self.props.push(Arc::new(p));
    }
}

/// What one shape's kind adds to the engine, for the logic layer (which reasons on each
/// shape's propagators apart, to explain them by shape).
pub(crate) struct ShapeParts {
    /// Cells that may not hold the same symbol.
    pub(crate) pairs: Vec<[u32; 2]>,
    /// Sum shapes: cells, total, whether no symbol repeats.
    pub(crate) sums: Vec<(Vec<u32>, i64, bool)>,
    /// Whether it added complete shapes (every symbol once in a list of cells).
    pub(crate) complete: bool,
    /// Its propagators.
    pub(crate) props: Vec<Arc<dyn Propagator>>,
}

/// What shape `s` of `g` adds to the engine's tables (see [`crate::kinds::Kind::flatten`]).
pub(crate) fn shape_parts(s: &crate::geometry::Shape, g: &Geometry) -> ShapeParts {
    let mut flat = Flat {
        values: g.symbols.values().to_vec(),
        complete: Vec::new(),
        sums: Vec::new(),
        pairs: Vec::new(),
        props: Vec::new(),
    };
    crate::kinds::flatten(s, g, &mut flat);
    ShapeParts {
        pairs: flat.pairs,
        sums: flat
            .sums
            .into_iter()
            .map(|s| (s.cells, s.total, s.unique))
            .collect(),
        complete: !flat.complete.is_empty(),
        props: flat.props,
    }
}

/// The branching bonus of a cell per propagator shape holding it (see `Engine::prop_weight`):
/// tuned on the thermometer/arrow/kropki bench set (docs/PERFORMANCE.md).
const PROP_WEIGHT: u32 = 8;

/// The engine's tables for `g`, with no search policy yet (see `Engine::apply`): no overlap
/// tables, no all-different filter, no CDCL, no bitboard kernel. `derived`: add the sum shapes
/// of [`crate::geometry::partition`].
pub(super) fn flatten(g: &Geometry, derived: bool) -> Engine {
    let n_cells = g.cells.len();
    let n_symbols = g.symbols.len();
    let full = if n_symbols == 64 {
        !0
    } else {
        (1u64 << n_symbols) - 1
    };
    let mut flat = Flat {
        values: g.symbols.values().to_vec(),
        complete: Vec::new(),
        sums: Vec::new(),
        pairs: Vec::new(),
        props: Vec::new(),
    };
    // how many propagator shapes hold each cell (a branching hint, see `Engine::prop_weight`)
    // and which propagators hold each cell (the propagation wakes them on its changes)
    let mut prop_weight = vec![0u32; n_cells];
    let mut prop_cells: Vec<(usize, &[CellId])> = Vec::new();
    for s in &g.shapes {
        let before = flat.props.len();
        crate::kinds::flatten(s, g, &mut flat);
        for k in before..flat.props.len() {
            prop_cells.push((k, &s.cells));
        }
        if flat.props.len() > before {
            for c in &s.cells {
                prop_weight[c.index()] += PROP_WEIGHT;
            }
        }
    }
    if flat.props.is_empty() {
        prop_weight = Vec::new();
    }
    let prop_words = match flat.props.len() {
        0 => 0,
        1..=64 => 1,
        n if n <= 64 * PROP_WORDS => PROP_WORDS,
        _ => 0,
    };
    let mut cell_prop_bits = vec![0u64; n_cells * prop_words];
    if prop_words > 0 {
        for &(k, cells) in &prop_cells {
            for c in cells {
                cell_prop_bits[c.index() * prop_words + k / 64] |= 1u64 << (k % 64);
            }
        }
    }
    let Flat {
        complete,
        mut sums,
        pairs,
        props,
        ..
    } = flat;
    let (peer_start, peers) = peers_of(g, &pairs);
    let mut n_derived = 0;
    if derived {
        for s in crate::geometry::partition::derive_unnamed(g) {
            if let Rule::Sum { total, unique } = s.rule {
                n_derived += 1;
                sums.push(SumShape {
                    cells: s.cells.iter().map(|c| c.0).collect(),
                    total,
                    unique,
                });
            }
        }
    }
    let n_complete = complete.len().checked_div(n_symbols).unwrap_or(0);
    let shape_words = [1usize, 2, 4, 8, 16]
        .into_iter()
        .find(|&w| n_complete <= 64 * w)
        .unwrap_or(0);
    let mut cell_bits = vec![0u64; n_cells * shape_words];
    if shape_words > 0 {
        for (i, shape) in complete.chunks_exact(n_symbols.max(1)).enumerate() {
            for &c in shape {
                cell_bits[c as usize * shape_words + i / 64] |= 1u64 << (i % 64);
            }
        }
    }
    let is_peer = |a: u32, b: u32| {
        let (x, y) = (
            peer_start[a as usize] as usize,
            peer_start[a as usize + 1] as usize,
        );
        peers[x..y].binary_search(&b).is_ok()
    };
    let values = g.symbols.values().to_vec();
    let sum_tables = sum::Tables::new(&sums, &values, &is_peer);
    Engine {
        board: None,
        cdcl_after: None,
        cdcl_stall: None,
        alldiff_after: None,
        overlaps: Vec::new(),
        overlap_cells: Vec::new(),
        n_cells,
        n_symbols,
        full,
        peer_start,
        peers,
        complete,
        n_complete,
        shape_words,
        cell_bits,
        sums,
        values,
        sum_tables,
        derived: n_derived,
        props,
        prop_weight,
        prop_words,
        cell_prop_bits,
    }
}

/// Each cell's peers (the cells sharing a unique shape with it, and the other cell of each of
/// its `pairs`), in order, as CSR: those of cell `c` are `peers[peer_start[c]..peer_start[c + 1]]`.
fn peers_of(g: &Geometry, pairs: &[[u32; 2]]) -> (Vec<u32>, Vec<u32>) {
    let n_cells = g.cells.len();
    // the partners of each cell in `pairs`, flat: those of cell `c` are
    // `partners[pair_start[c]..pair_start[c + 1]]`
    let mut pair_start = vec![0u32; n_cells + 1];
    for &[a, b] in pairs {
        pair_start[a as usize + 1] += 1;
        pair_start[b as usize + 1] += 1;
    }
    for c in 0..n_cells {
        pair_start[c + 1] += pair_start[c];
    }
    let mut partners = vec![0u32; pair_start[n_cells] as usize];
    let mut next = pair_start.clone();
    for &[a, b] in pairs {
        for (x, y) in [(a, b), (b, a)] {
            partners[next[x as usize] as usize] = y;
            next[x as usize] += 1;
        }
    }
    // the unique shapes of each cell, flat: those of cell `c` are
    // `shapes_of[of_start[c]..of_start[c + 1]]`
    let mut of_start = vec![0u32; n_cells + 1];
    for s in g.shapes.iter().filter(|s| s.is_unique()) {
        for c in &s.cells {
            of_start[c.index() + 1] += 1;
        }
    }
    for c in 0..n_cells {
        of_start[c + 1] += of_start[c];
    }
    let mut shapes_of = vec![0u32; of_start[n_cells] as usize];
    let mut fill = of_start.clone();
    for (i, s) in g.shapes.iter().enumerate().filter(|(_, s)| s.is_unique()) {
        for c in &s.cells {
            shapes_of[fill[c.index()] as usize] = i as u32;
            fill[c.index()] += 1;
        }
    }
    // each cell's peers, in order: gathered as a bitset, read off word by word (only the
    // words its shapes touch)
    let mut peer_start = Vec::with_capacity(n_cells + 1);
    let mut peers = Vec::new();
    let mut seen = vec![0u64; n_cells.div_ceil(64)];
    for c in 0..n_cells {
        peer_start.push(peers.len() as u32);
        let (mut lo, mut hi) = (c / 64, c / 64);
        for &s in &shapes_of[of_start[c] as usize..of_start[c + 1] as usize] {
            for p in &g.shapes[s as usize].cells {
                let word = p.index() / 64;
                seen[word] |= 1 << (p.index() % 64);
                (lo, hi) = (lo.min(word), hi.max(word));
            }
        }
        for &p in &partners[pair_start[c] as usize..pair_start[c + 1] as usize] {
            let word = p as usize / 64;
            seen[word] |= 1 << (p % 64);
            (lo, hi) = (lo.min(word), hi.max(word));
        }
        seen[c / 64] &= !(1 << (c % 64));
        for (i, word) in seen.iter_mut().enumerate().take(hi + 1).skip(lo) {
            while *word != 0 {
                peers.push((i * 64) as u32 + word.trailing_zeros());
                *word &= *word - 1;
            }
        }
    }
    peer_start.push(peers.len() as u32);
    (peer_start, peers)
}

/// Most cells the overlap tables hold (far above any real layout: a 36x36 needs about
/// 31,000). A pathological layout of many heavily overlapping shapes gets only the overlaps
/// that fit: the pass is a shortcut, so the search stays sound, only less pruned.
const MAX_OVERLAP_CELLS: usize = 2_000_000;

/// Pairs of complete shapes that share at least two cells (box/line, overlapping grids, ...):
/// a symbol confined to the shared part of one must leave the rest of the other. Each shape
/// meets the others through its cells' lists of shapes (time linear in the memberships times
/// the shapes per cell, not quadratic in the shapes), in the order of the pairs (first shape,
/// then second).
pub(super) fn overlaps_of(complete: &[u32], n: usize, n_cells: usize) -> (Vec<[u32; 4]>, Vec<u32>) {
    let shapes: Vec<&[u32]> = complete.chunks_exact(n.max(1)).collect();
    // the complete shapes of each cell, in order, as CSR
    let mut of_start = vec![0u32; n_cells + 1];
    for &c in complete {
        of_start[c as usize + 1] += 1;
    }
    for c in 0..n_cells {
        of_start[c + 1] += of_start[c];
    }
    let mut shapes_of = vec![0u32; complete.len()];
    let mut fill = of_start.clone();
    for (i, a) in shapes.iter().enumerate() {
        for &c in *a {
            shapes_of[fill[c as usize] as usize] = i as u32;
            fill[c as usize] += 1;
        }
    }
    let mut member = vec![false; n_cells];
    let mut shared = vec![0u32; shapes.len()];
    let mut partners: Vec<u32> = Vec::new();
    let mut overlaps = Vec::new();
    let mut cells = Vec::new();
    for (i, a) in shapes.iter().enumerate() {
        partners.clear();
        for &c in *a {
            member[c as usize] = true;
            let of = &shapes_of[of_start[c as usize] as usize..of_start[c as usize + 1] as usize];
            for &b in of.iter().filter(|&&b| b as usize > i) {
                if shared[b as usize] == 0 {
                    partners.push(b);
                }
                shared[b as usize] += 1;
            }
        }
        partners.sort_unstable();
        for &j in &partners {
            let count = std::mem::take(&mut shared[j as usize]) as usize;
            if count < 2 || count == n || cells.len() + 2 * n > MAX_OVERLAP_CELLS {
                continue;
            }
            let b = shapes[j as usize];
            let start = cells.len() as u32;
            cells.extend(b.iter().filter(|&&c| member[c as usize]));
            let a_rest = cells.len() as u32;
            cells.extend(a.iter().filter(|&&c| !b.contains(&c)));
            let b_rest = cells.len() as u32;
            cells.extend(b.iter().filter(|&&c| !member[c as usize]));
            overlaps.push([start, a_rest, b_rest, cells.len() as u32]);
        }
        a.iter().for_each(|&c| member[c as usize] = false);
    }
    (overlaps, cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs, written straight from their definition: every two shapes, compared cell by
    /// cell.
    fn overlaps_plainly(complete: &[u32], n: usize) -> (Vec<[u32; 4]>, Vec<u32>) {
        let shapes: Vec<&[u32]> = complete.chunks_exact(n).collect();
        let (mut overlaps, mut cells) = (Vec::new(), Vec::new());
        for (i, a) in shapes.iter().enumerate() {
            for b in &shapes[i + 1..] {
                let shared = b.iter().filter(|c| a.contains(c)).count();
                if shared < 2 || shared == n {
                    continue;
                }
                let start = cells.len() as u32;
                cells.extend(b.iter().filter(|c| a.contains(c)));
                let a_rest = cells.len() as u32;
                cells.extend(a.iter().filter(|c| !b.contains(c)));
                let b_rest = cells.len() as u32;
                cells.extend(b.iter().filter(|c| !a.contains(c)));
                overlaps.push([start, a_rest, b_rest, cells.len() as u32]);
            }
        }
        (overlaps, cells)
    }

    /// The overlaps found through each cell's shapes are those of every pair compared, in the
    /// same order, on the built-in layouts.
    #[test]
    fn overlaps_are_every_pair_sharing_two_cells() {
        for name in crate::geometry::builtin::BUILTIN.iter().map(|(n, _)| *n) {
            let g = crate::geometry::builtin::load(name).unwrap();
            let e = flatten(&g, false);
            let n = e.n_symbols;
            let got = overlaps_of(&e.complete, n, e.n_cells);
            assert_eq!(got, overlaps_plainly(&e.complete, n), "{name}");
            if name == "samurai" {
                assert!(!got.0.is_empty());
            }
        }
    }
}
