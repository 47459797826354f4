//! The geometry-free view the logical rules work on: candidates per cell and the shapes as cell
//! lists with their rule (unique / complete / sum).
//!
//! A [`Board`] is built once from a [`Geometry`] and givens. Its fixed part (shapes, peers,
//! names) sits behind `Arc`s, so a copy made to try something out costs only the candidates. It
//! keeps the names of cells, shapes and symbols only so that steps can be written in the
//! geometry's own terms; no rule looks at a name. Besides the geometry's shapes it holds the
//! *derived* sum shapes of the law of 45 ([`crate::geometry::partition`]: the innies and outies
//! of unions of complete shapes), which the cage rules treat like any other sum shape.
//!
//! Rules read the board and return a [`Step`](super::Step); only [`Board::apply`] changes it.
//! Every change is stamped: [`Board::stamp`] counts the steps applied and
//! [`Board::changed_since`] tells whether a cell's candidates changed after a given stamp, which
//! lets a rule that found nothing before look only where something changed since.

use std::sync::Arc;

use super::rules::constraints::Constraints;
use super::rules::innies::{equations, Equation};
use super::rules::links::GraphCache;
use super::rules::sum_cache::SupportCache;
use crate::geometry::{Geometry, Rule as ShapeRule};

/// A candidate set: bit `s` set when symbol `s` is possible.
pub type Mask = u64;

/// Derived sum shapes with more cells than this are not kept (their sums still bound the cells
/// they cover, but the rules only use derived shapes up to this size).
const MAX_DERIVED: usize = 5;

/// Law-of-45 equations with more cells than this are not kept for the innie/outie rule.
const MAX_EQUATION: usize = 18;

/// One shape in the logic view.
#[derive(Debug, Clone)]
pub struct LShape {
    /// The geometry's name ("Box 5 of grid 3") or a derived name ("Innie of Row 4").
    pub name: String,
    /// Cell indices.
    pub cells: Vec<usize>,
    /// No symbol twice.
    pub unique: bool,
    /// Unique with as many cells as symbols: every symbol exactly once.
    pub complete: bool,
    /// The total of a sum shape.
    pub sum: Option<i64>,
    /// It carries a constraint kind's rule that `unique`, `complete` and `sum` do not say (a
    /// thermometer, an arrow, a pattern, ...): its propagators narrow its cells (the
    /// constraint rules), and rules that assume swapping symbols keeps a shape satisfied
    /// (unique rectangles, the BUG) leave its cells alone.
    pub constrained: bool,
}

/// Candidates, placements and shapes.
#[derive(Debug, Clone)]
pub struct Board {
    /// Number of symbols.
    pub n_symbols: usize,
    /// The mask of all symbols.
    pub full: Mask,
    /// Numeric value of each symbol (for sums).
    pub values: Arc<[i64]>,
    /// Candidates per cell (a placed cell holds exactly its symbol).
    pub cand: Vec<Mask>,
    /// Placed symbol per cell.
    pub value: Vec<Option<u8>>,
    /// The geometry's shapes, then the derived ones.
    pub shapes: Arc<[LShape]>,
    /// Unique shapes each cell belongs to, except the *pair* shapes: two
    /// cells that only may not be equal are a peer relation ([`Board::peers`]) and give the
    /// rules that look for shapes (covers, overlaps, groups) nothing more.
    pub unique_of: Arc<[Vec<usize>]>,
    /// All shapes each cell belongs to.
    pub shapes_of: Arc<[Vec<usize>]>,
    /// Cells sharing a unique shape with each cell, sorted.
    pub peers: Arc<[Vec<u32>]>,
    /// Each shape's cells as a bitset of [`Board::words`] words, shape after shape.
    pub shape_sets: Arc<[u64]>,
    /// Each cell's peers as a bitset of [`Board::words`] words, cell after cell.
    pub(crate) peer_sets: Arc<[u64]>,
    /// 64-bit words in a set of cells.
    pub words: usize,
    /// Symbols each shape must contain (all for a complete shape; for a unique sum shape, those
    /// in every combination still possible). Refreshed after every step.
    pub required: Vec<Mask>,
    /// The shapes that can require symbols (complete ones and unique sum shapes), in order:
    /// the others' `required` stays empty.
    requiring: Arc<[usize]>,
    /// The unique shapes of four cells or more (where a naked subset can lie), in order.
    wide: Arc<[usize]>,
    /// The constraint kinds' propagators, pairs and sums.
    pub(crate) constraints: Arc<Constraints>,
    /// The law-of-45 equations besides the derived sum shapes (innies and outies by ranges).
    pub(crate) equations: Arc<[Equation]>,
    /// The geometry's cell names.
    pub cell_names: Arc<[String]>,
    /// The geometry's symbols.
    pub symbol_names: Arc<[String]>,
    /// Symbols placed in each shape.
    placed: Vec<Mask>,
    /// Per symbol, the empty cells holding it ([`Board::words`] words each).
    holds: Vec<u64>,
    /// Steps applied so far.
    stamp: u32,
    /// Per cell, the stamp of the last step that changed its candidates.
    changed: Vec<u32>,
    /// Per cell and symbol (`c * n_symbols + v`), the stamp of the last step that removed the
    /// candidate or placed the cell.
    changed_sym: Vec<u32>,
    /// Per shape, the last stamp of its cells in `changed` (so that a rule asks in one look).
    shape_changed: Vec<u32>,
    /// Per shape and symbol (`s * n_symbols + v`), the last stamp of its cells in `changed_sym`.
    shape_sym_changed: Vec<u32>,
    /// Per symbol, the last stamp of any cell in `changed_sym`.
    sym_changed: Vec<u32>,
    /// Sum shapes' supports already worked out (shared by the copies of a board).
    supports: Arc<SupportCache>,
    /// The chain rules' link graphs of the current candidates.
    pub(crate) graphs: GraphCache,
}

/// A board whose candidates show the puzzle cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contradiction(pub String);

impl Board {
    /// Builds the view of a geometry with givens (symbol indices). Fails when the givens already
    /// clash (two equal symbols in a unique shape).
    pub fn new(g: &Geometry, givens: &[Option<u8>]) -> Result<Board, Contradiction> {
        let n_cells = g.cell_count();
        let n_symbols = g.symbol_count();
        let full = if n_symbols == 64 {
            !0
        } else {
            (1u64 << n_symbols) - 1
        };
        let (derived, linear) =
            crate::geometry::partition::derive_with_linear(g, MAX_DERIVED, MAX_EQUATION);
        let constraints = Constraints::of(g);
        let shapes: Vec<LShape> = g
            .shapes
            .iter()
            .chain(&derived)
            .enumerate()
            .map(|(i, s)| {
                let as_sum = constraints.sums.get(i).copied().flatten();
                LShape {
                    name: s.name.clone(),
                    cells: s.cells.iter().map(|c| c.index()).collect(),
                    unique: s.is_unique() || as_sum.is_some_and(|(_, u)| u),
                    complete: g.is_complete(s),
                    sum: match s.rule {
                        ShapeRule::Sum { total, .. } => Some(total),
                        _ => as_sum.map(|(t, _)| t),
                    },
                    constrained: constraints.bound.get(i).copied().unwrap_or(false),
                }
            })
            .collect();
        let equations = equations(&shapes, linear);
        let mut unique_of = vec![Vec::new(); n_cells];
        let mut shapes_of = vec![Vec::new(); n_cells];
        for (i, s) in shapes.iter().enumerate() {
            for &c in &s.cells {
                shapes_of[c].push(i);
                if s.unique && !pair_shape(s) {
                    unique_of[c].push(i);
                }
            }
        }
        let peers = peers_of(&shapes, &unique_of, &constraints);
        let n_shapes = shapes.len();
        let words = n_cells.div_ceil(64);
        let shape_sets = shape_bitsets(&shapes, words);
        let mut peer_sets = vec![0u64; n_cells * words];
        for (c, list) in peers.iter().enumerate() {
            for &d in list {
                peer_sets[c * words + d as usize / 64] |= 1 << (d % 64);
            }
        }
        let requiring = (0..n_shapes)
            .filter(|&i| shapes[i].complete || shapes[i].unique && shapes[i].sum.is_some());
        let wide = (0..n_shapes).filter(|&i| shapes[i].unique && shapes[i].cells.len() >= 4);
        let mut b = Board {
            requiring: requiring.collect(),
            wide: wide.collect(),
            n_symbols,
            full,
            values: g.symbols.values().into(),
            cand: vec![full; n_cells],
            value: vec![None; n_cells],
            required: vec![0; n_shapes],
            shapes: shapes.into(),
            unique_of: unique_of.into(),
            shapes_of: shapes_of.into(),
            peers: peers.into(),
            shape_sets: shape_sets.into(),
            peer_sets: peer_sets.into(),
            words,
            constraints: Arc::new(constraints),
            equations: equations.into(),
            cell_names: g.cells.iter().map(|c| c.name.clone()).collect(),
            symbol_names: g.symbols.symbols().to_vec().into(),
            placed: vec![0; n_shapes],
            holds: all_cells(n_cells, words).repeat(n_symbols),
            stamp: 0,
            changed: vec![0; n_cells],
            changed_sym: vec![0; n_cells * n_symbols],
            shape_changed: vec![0; n_shapes],
            shape_sym_changed: vec![0; n_shapes * n_symbols],
            sym_changed: vec![0; n_symbols],
            supports: Arc::default(),
            graphs: GraphCache::default(),
        };
        for (c, v) in givens.iter().enumerate() {
            if let Some(v) = *v {
                if b.cand[c] & (1 << v) == 0 {
                    return Err(Contradiction(format!(
                        "{} = {} repeats a symbol one of its shapes already has",
                        b.cell_names[c], b.symbol_names[v as usize]
                    )));
                }
                b.place(c, v);
            }
        }
        b.refresh(&(0..b.shapes.len()).collect::<Vec<_>>());
        Ok(b)
    }

    /// Whether shape `s` is a *pair*: two cells that only may not hold the same symbol (an
    /// anti-knight layout's shapes). It is left out of [`Board::unique_of`].
    pub(crate) fn is_pair(&self, s: usize) -> bool {
        pair_shape(&self.shapes[s])
    }

    /// The cells of shape `s` as a bitset.
    pub fn shape_set(&self, s: usize) -> &[u64] {
        &self.shape_sets[s * self.words..(s + 1) * self.words]
    }

    /// The peers of cell `c` as a bitset.
    pub(crate) fn peer_set(&self, c: usize) -> &[u64] {
        &self.peer_sets[c * self.words..(c + 1) * self.words]
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cand.len()
    }

    /// Whether every cell is placed.
    pub fn is_solved(&self) -> bool {
        self.value.iter().all(Option::is_some)
    }

    /// Number of cells still empty.
    pub fn free_count(&self) -> usize {
        self.value.iter().filter(|v| v.is_none()).count()
    }

    /// Whether two different cells share a unique shape.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.peer_sets[a * self.words + b / 64] >> (b % 64) & 1 == 1
    }

    /// The number of steps applied to this board.
    pub fn stamp(&self) -> u32 {
        self.stamp
    }

    /// Whether cell `c`'s candidates changed after stamp `since` (always true for `since` 0).
    pub fn changed_since(&self, c: usize, since: u32) -> bool {
        since == 0 || self.changed[c] > since
    }

    /// Whether symbol `v` of some cell of shape `s` changed after stamp `since` (removed, or
    /// the cell placed).
    pub fn symbol_changed_since(&self, s: usize, v: usize, since: u32) -> bool {
        since == 0 || self.shape_sym_changed[s * self.n_symbols + v] > since
    }

    /// The symbols removed from some cell (or some cell placed) after stamp `since`: a rule
    /// that found nothing at `since` need not look at the other symbols again.
    pub fn symbols_changed_since(&self, since: u32) -> Mask {
        if since == 0 {
            return self.full;
        }
        let mut out = 0;
        for (v, &at) in self.sym_changed.iter().enumerate() {
            if at > since {
                out |= 1 << v;
            }
        }
        out
    }

    /// Whether any cell of shape `s` changed after stamp `since`.
    pub fn shape_changed_since(&self, s: usize, since: u32) -> bool {
        since == 0 || self.shape_changed[s] > since
    }

    /// Stamps symbol `v` of cell `c` changed now (and its shapes and the symbol).
    fn mark(&mut self, c: usize, v: usize) {
        let (n, stamp) = (self.n_symbols, self.stamp);
        self.changed[c] = stamp;
        self.changed_sym[c * n + v] = stamp;
        self.sym_changed[v] = stamp;
        for &s in self.shapes_of[c].iter() {
            self.shape_changed[s] = stamp;
            self.shape_sym_changed[s * n + v] = stamp;
        }
    }

    /// The empty cells holding symbol `v`, as a bitset of [`Board::words`] words.
    pub(crate) fn holds(&self, v: usize) -> &[u64] {
        &self.holds[v * self.words..(v + 1) * self.words]
    }

    /// Sets whether cell `c` (empty) holds symbol `v` in [`Board::holds`].
    fn set_holds(&mut self, c: usize, v: usize, on: bool) {
        let (i, bit) = (v * self.words + c / 64, 1u64 << (c % 64));
        if on {
            self.holds[i] |= bit;
        } else {
            self.holds[i] &= !bit;
        }
    }

    /// Places `v` in `c` and removes it from the peers.
    fn place(&mut self, c: usize, v: u8) {
        for w in 0..self.n_symbols {
            self.mark(c, w);
            self.set_holds(c, w, false);
        }
        self.value[c] = Some(v);
        self.cand[c] = 1 << v;
        for &s in self.shapes_of[c].iter() {
            self.placed[s] |= 1 << v;
        }
        for i in 0..self.peers[c].len() {
            let p = self.peers[c][i] as usize;
            if self.cand[p] & (1 << v) != 0 {
                self.cand[p] &= !(1u64 << v);
                self.mark(p, v as usize);
                self.set_holds(p, v as usize, false);
            }
        }
    }

    /// Per cell of sum shape `s`, the symbols some valid assignment of the shape uses when its
    /// cells hold `cands`, written to `out` (worked out once per solve).
    pub fn sum_support(&self, s: usize, cands: &[Mask], out: &mut Vec<Mask>) {
        let width = self.n_symbols as u32;
        let work = |out: &mut Vec<Mask>| super::rules::cages::support(self, s, cands, out);
        self.supports.support(s, cands, width, out, work);
    }

    /// Symbols already placed in a shape.
    pub fn placed_in(&self, shape: usize) -> Mask {
        self.placed[shape]
    }

    /// Empty cells of a shape.
    pub fn free_cells(&self, shape: usize) -> Vec<usize> {
        self.shapes[shape]
            .cells
            .iter()
            .copied()
            .filter(|&c| self.value[c].is_none())
            .collect()
    }

    /// The shapes whose [`Board::open_required`] can be other than empty, in order.
    pub(crate) fn requiring(&self) -> &[usize] {
        &self.requiring
    }

    /// The unique shapes of four cells or more, in order.
    pub(crate) fn wide(&self) -> &[usize] {
        &self.wide
    }

    /// Required symbols of a shape that are not placed yet.
    pub fn open_required(&self, shape: usize) -> Mask {
        self.required[shape] & !self.placed[shape]
    }

    /// Applies a step's placements and eliminations, then refreshes the required symbols of the
    /// sum shapes whose cells changed.
    pub fn apply(&mut self, step: &super::Step) {
        self.stamp += 1;
        let mut touched: Vec<usize> = Vec::new();
        for &(c, v) in &step.eliminations {
            if self.cand[c] & (1 << v) != 0 {
                self.cand[c] &= !(1u64 << v);
                self.mark(c, v as usize);
                self.set_holds(c, v as usize, false);
                touched.push(c);
            }
        }
        for &(c, v) in &step.placements {
            if self.value[c].is_none() {
                self.place(c, v);
                touched.push(c);
                touched.extend(self.peers[c].iter().map(|&p| p as usize));
            }
        }
        let mut dirty: Vec<usize> = touched
            .iter()
            .flat_map(|&c| self.shapes_of[c].iter().copied())
            .filter(|&s| self.shapes[s].sum.is_some() && self.shapes[s].unique)
            .collect();
        dirty.sort_unstable();
        dirty.dedup();
        self.refresh(&dirty);
    }

    /// Replaces the candidates (a board derived from this one while trying something out):
    /// cells whose candidates differ are stamped changed and the sum shapes refreshed.
    pub fn set_candidates(&mut self, cand: &[Mask]) {
        self.set_cells(cand, 0..cand.len());
    }

    /// [`Board::set_candidates`] when only the cells listed may differ from `cand`.
    pub(crate) fn set_cells(&mut self, cand: &[Mask], cells: impl IntoIterator<Item = usize>) {
        self.stamp += 1;
        let mut dirty = Vec::new();
        for c in cells {
            let m = cand[c];
            if self.cand[c] != m {
                let empty = self.value[c].is_none();
                for v in bits(self.cand[c] ^ m) {
                    self.mark(c, v);
                    self.set_holds(c, v, empty && m & (1 << v) != 0);
                }
                self.cand[c] = m;
                dirty.extend(
                    self.shapes_of[c]
                        .iter()
                        .copied()
                        .filter(|&s| self.shapes[s].sum.is_some()),
                );
            }
        }
        dirty.sort_unstable();
        dirty.dedup();
        self.refresh(&dirty);
    }

    /// Recomputes the required symbols of the given shapes.
    fn refresh(&mut self, shapes: &[usize]) {
        for &i in shapes {
            let s = &self.shapes[i];
            self.required[i] = if s.complete {
                self.full
            } else if let (Some(total), true) = (s.sum, s.unique) {
                let cands: Vec<Mask> = s.cells.iter().map(|&c| self.cand[c]).collect();
                let values = &self.values;
                self.supports
                    .required(i, &cands, self.n_symbols as u32, || {
                        super::rules::cages::unique_combinations(values, &cands, total)
                            .iter()
                            .map(|(set, _)| *set)
                            .reduce(|a, b| a & b)
                            .unwrap_or(0)
                    })
            } else {
                0
            };
        }
    }

    /// The first sign that the puzzle cannot be solved from here, if any: an empty cell without
    /// candidates, a required symbol with no place left in its shape, or a constraint shape
    /// whose propagator finds no way left to satisfy it.
    pub fn contradiction(&self) -> Option<Contradiction> {
        for (c, &m) in self.cand.iter().enumerate() {
            if m == 0 {
                return Some(Contradiction(format!(
                    "{} has no candidate left",
                    self.cell_names[c]
                )));
            }
        }
        for &i in self.requiring.iter() {
            let (s, open) = (&self.shapes[i], self.open_required(i));
            if open == 0 {
                continue;
            }
            let possible = self.open_candidates(s);
            if open & !possible != 0 {
                let v = (open & !possible).trailing_zeros() as usize;
                return Some(Contradiction(format!(
                    "{} has no place left for {}",
                    s.name, self.symbol_names[v]
                )));
            }
        }
        if !self.constraints.props.is_empty() {
            let (mut cand, mut queue) = (self.cand.clone(), Vec::new());
            if let Some(s) = super::rules::constraints::broken(self, &mut cand, &mut queue) {
                return Some(Contradiction(format!(
                    "{} can no longer be satisfied",
                    self.shapes[s].name
                )));
            }
        }
        None
    }

    /// The symbols `shape`'s empty cells can still take.
    fn open_candidates(&self, shape: &LShape) -> Mask {
        shape
            .cells
            .iter()
            .filter(|&&c| self.value[c].is_none())
            .fold(0, |m, &c| m | self.cand[c])
    }

    /// Whether [`Board::contradiction`] finds something, knowing it found nothing at stamp
    /// `since` and that candidates were only removed after it: only the cells and shapes
    /// changed since can show a new one (`since` 0: look everywhere).
    pub(crate) fn broken_since(&self, since: u32) -> bool {
        if since == 0 {
            return self.contradiction().is_some();
        }
        let empty = |c: usize| self.cand[c] == 0 && self.changed[c] > since;
        if (0..self.cell_count()).any(empty) {
            return true;
        }
        for &i in self.requiring.iter() {
            let (s, open) = (&self.shapes[i], self.open_required(i));
            if open == 0 || self.shape_changed[i] <= since {
                continue;
            }
            let possible = self.open_candidates(s);
            if open & !possible != 0 {
                return true;
            }
        }
        if !self.constraints.props.is_empty() {
            let (mut cand, mut queue) = (self.cand.clone(), Vec::new());
            return super::rules::constraints::broken(self, &mut cand, &mut queue).is_some();
        }
        false
    }

    /// Cells of `cells` (empty ones) that still have symbol `v`.
    pub fn with_candidate(&self, cells: &[usize], v: usize) -> Vec<usize> {
        cells
            .iter()
            .copied()
            .filter(|&c| self.value[c].is_none() && self.cand[c] & (1 << v) != 0)
            .collect()
    }

    /// How many empty cells of shape `s` still have symbol `v`, and the first two of them.
    pub fn places(&self, s: usize, v: usize) -> (usize, [usize; 2]) {
        let mut n = 0;
        let mut first = [usize::MAX; 2];
        for &c in &self.shapes[s].cells {
            if self.value[c].is_none() && self.cand[c] & (1 << v) != 0 {
                if n < 2 {
                    first[n] = c;
                }
                n += 1;
            }
        }
        (n, first)
    }

    /// A symbol's name.
    pub fn sym(&self, v: usize) -> &str {
        &self.symbol_names[v]
    }

    /// A cell's name.
    pub fn cell(&self, c: usize) -> &str {
        &self.cell_names[c]
    }

    /// Names of a list of cells, comma separated.
    pub fn cells_text(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&c| self.cell(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A candidate set written as symbols ("3, 7").
    pub fn mask_text(&self, m: Mask) -> String {
        bits(m).map(|v| self.sym(v)).collect::<Vec<_>>().join(", ")
    }
}

/// A unique shape of two cells with no other rule and not every symbol to hold.
fn pair_shape(s: &LShape) -> bool {
    s.unique && s.cells.len() == 2 && !s.complete && s.sum.is_none() && !s.constrained
}

/// Each shape's cells as a bitset of `words` words, shape after shape.
fn shape_bitsets(shapes: &[LShape], words: usize) -> Vec<u64> {
    let mut sets = vec![0u64; shapes.len() * words];
    for (i, s) in shapes.iter().enumerate() {
        for &c in &s.cells {
            sets[i * words + c / 64] |= 1 << (c % 64);
        }
    }
    sets
}

/// The bitset of `n_cells` cells in `words` words, all set.
fn all_cells(n_cells: usize, words: usize) -> Vec<u64> {
    (0..words)
        .map(|w| match n_cells - 64 * w {
            r if r >= 64 => !0,
            r => (1u64 << r) - 1,
        })
        .collect()
}

/// The symbols of a mask, lowest first.
pub fn bits(mut m: Mask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// Per cell, its peers (sorted): the other cells of its unique shapes, and the cells the
/// constraints' pairs and the pair shapes tie it to.
fn peers_of(
    shapes: &[LShape],
    unique_of: &[Vec<usize>],
    constraints: &Constraints,
) -> Vec<Vec<u32>> {
    let mut peers = vec![Vec::new(); unique_of.len()];
    let pair_shapes = shapes
        .iter()
        .filter(|s| pair_shape(s))
        .map(|s| [s.cells[0], s.cells[1]]);
    for [a, b] in constraints
        .pairs
        .iter()
        .map(|&[a, b]| [a as usize, b as usize])
        .chain(pair_shapes)
    {
        peers[a].push(b as u32);
        peers[b].push(a as u32);
    }
    for (c, list) in peers.iter_mut().enumerate() {
        let mut p: Vec<u32> = unique_of[c]
            .iter()
            .flat_map(|&s| shapes[s].cells.iter().map(|&d| d as u32))
            .chain(list.iter().copied())
            .filter(|&d| d as usize != c)
            .collect();
        p.sort_unstable();
        p.dedup();
        *list = p;
    }
    peers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{Family, Step};

    /// `holds` is the empty cells holding each symbol, after placements, eliminations and
    /// candidates set back and forth.
    #[test]
    fn holds_follows_the_candidates() {
        let g = Geometry::builtin("classic9").unwrap();
        let text =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let givens: Vec<Option<u8>> = text
            .bytes()
            .map(|x| (x != b'.').then(|| x - b'1'))
            .collect();
        let mut b = Board::new(&g, &givens).unwrap();
        let check = |b: &Board| {
            for v in 0..b.n_symbols {
                for c in 0..b.cell_count() {
                    let want = b.value[c].is_none() && b.cand[c] & (1 << v) != 0;
                    assert_eq!(
                        b.holds(v)[c / 64] >> (c % 64) & 1 == 1,
                        want,
                        "cell {c} symbol {v}"
                    );
                }
            }
        };
        check(&b);
        let before = b.cand.clone();
        let empty: Vec<usize> = (0..b.cell_count())
            .filter(|&c| b.value[c].is_none())
            .collect();
        let v = b.cand[empty[0]].trailing_zeros() as usize;
        let step = Step {
            rule: "test".into(),
            family: Family::Singles,
            size: 1,
            weight: 1.0,
            shapes: vec![],
            cells: vec![],
            placements: vec![(empty[0], v as u8)],
            eliminations: vec![(empty[1], b.cand[empty[1]].trailing_zeros() as u8)],
            reason: String::new(),
        };
        b.apply(&step);
        check(&b);
        let after = b.cand.clone();
        b.set_candidates(&before);
        check(&b);
        b.set_candidates(&after);
        check(&b);
    }
}
