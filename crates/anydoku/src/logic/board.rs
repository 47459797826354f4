//! The geometry-free view the logical rules work on: candidates per cell and the shapes as cell
//! lists with their rule (unique / complete / sum).
//!
//! A [`Board`] is built once from a [`Geometry`] and givens. It keeps the names of cells, shapes
//! and symbols only so that steps can be written in the geometry's own terms; no rule looks at a
//! name. Besides the geometry's shapes it holds *derived* sum shapes (the innies of a complete
//! shape: what is left of it after the cages wholly inside), which the cage rule treats like any
//! other sum shape.
//!
//! Rules read the board and return a [`Step`](super::Step); only [`Board::apply`] changes it.

use crate::geometry::{Geometry, Rule as ShapeRule};

/// A candidate set: bit `s` set when symbol `s` is possible.
pub type Mask = u64;

/// One shape in the logic view.
#[derive(Debug, Clone)]
pub struct LShape {
    /// The geometry's name ("Box 5 of grid 3") or a derived name ("innies of Row 4").
    pub name: String,
    /// Cell indices.
    pub cells: Vec<usize>,
    /// No symbol twice.
    pub unique: bool,
    /// Unique with as many cells as symbols: every symbol exactly once.
    pub complete: bool,
    /// The total of a sum shape.
    pub sum: Option<i64>,
}

/// Candidates, placements and shapes.
#[derive(Debug, Clone)]
pub struct Board {
    /// Number of symbols.
    pub n_symbols: usize,
    /// The mask of all symbols.
    pub full: Mask,
    /// Numeric value of each symbol (for sums).
    pub values: Vec<i64>,
    /// Candidates per cell (a placed cell holds exactly its symbol).
    pub cand: Vec<Mask>,
    /// Placed symbol per cell.
    pub value: Vec<Option<u8>>,
    /// The geometry's shapes, then the derived ones.
    pub shapes: Vec<LShape>,
    /// Unique shapes each cell belongs to.
    pub unique_of: Vec<Vec<usize>>,
    /// All shapes each cell belongs to.
    pub shapes_of: Vec<Vec<usize>>,
    /// Cells sharing a unique shape with each cell, sorted.
    pub peers: Vec<Vec<u32>>,
    /// Symbols each shape must contain (all for a complete shape; for a unique sum shape, those
    /// in every combination still possible). Refreshed after every step.
    pub required: Vec<Mask>,
    /// The geometry's cell names.
    pub cell_names: Vec<String>,
    /// The geometry's symbols.
    pub symbol_names: Vec<String>,
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
        let mut shapes: Vec<LShape> = g
            .shapes
            .iter()
            .map(|s| LShape {
                name: s.name.clone(),
                cells: s.cells.iter().map(|c| c.index()).collect(),
                unique: s.is_unique(),
                complete: g.is_complete(s),
                sum: match s.rule {
                    ShapeRule::Sum { total, .. } => Some(total),
                    _ => None,
                },
            })
            .collect();
        shapes.extend(innies(&shapes, g.symbols.values(), n_cells));
        let mut unique_of = vec![Vec::new(); n_cells];
        let mut shapes_of = vec![Vec::new(); n_cells];
        for (i, s) in shapes.iter().enumerate() {
            for &c in &s.cells {
                shapes_of[c].push(i);
            }
            if s.unique {
                for &c in &s.cells {
                    unique_of[c].push(i);
                }
            }
        }
        let mut peers = vec![Vec::new(); n_cells];
        for (c, list) in peers.iter_mut().enumerate() {
            let mut p: Vec<u32> = unique_of[c]
                .iter()
                .flat_map(|&s| shapes[s].cells.iter().map(|&d| d as u32))
                .filter(|&d| d as usize != c)
                .collect();
            p.sort_unstable();
            p.dedup();
            *list = p;
        }
        let mut b = Board {
            n_symbols,
            full,
            values: g.symbols.values().to_vec(),
            cand: vec![full; n_cells],
            value: vec![None; n_cells],
            required: vec![0; shapes.len()],
            shapes,
            unique_of,
            shapes_of,
            peers,
            cell_names: g.cells.iter().map(|c| c.name.clone()).collect(),
            symbol_names: g.symbols.symbols().to_vec(),
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
        b.refresh();
        Ok(b)
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
        self.peers[a].binary_search(&(b as u32)).is_ok()
    }

    /// Places `v` in `c` and removes it from the peers.
    fn place(&mut self, c: usize, v: u8) {
        self.value[c] = Some(v);
        self.cand[c] = 1 << v;
        for i in 0..self.peers[c].len() {
            let p = self.peers[c][i] as usize;
            self.cand[p] &= !(1u64 << v);
        }
    }

    /// Symbols already placed in a shape.
    pub fn placed_in(&self, shape: usize) -> Mask {
        self.shapes[shape]
            .cells
            .iter()
            .filter_map(|&c| self.value[c])
            .fold(0, |m, v| m | 1 << v)
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

    /// Required symbols of a shape that are not placed yet.
    pub fn open_required(&self, shape: usize) -> Mask {
        self.required[shape] & !self.placed_in(shape)
    }

    /// Applies a step's placements and eliminations, then refreshes the required symbols.
    pub fn apply(&mut self, step: &super::Step) {
        for &(c, v) in &step.eliminations {
            self.cand[c] &= !(1u64 << v);
        }
        for &(c, v) in &step.placements {
            if self.value[c].is_none() {
                self.place(c, v);
            }
        }
        self.refresh();
    }

    /// Recomputes the required symbols of every shape.
    pub fn refresh(&mut self) {
        for i in 0..self.shapes.len() {
            let s = &self.shapes[i];
            self.required[i] = if s.complete {
                self.full
            } else if let (Some(total), true) = (s.sum, s.unique) {
                let cands: Vec<Mask> = s.cells.iter().map(|&c| self.cand[c]).collect();
                let combos = super::rules::cages::unique_combinations(&self.values, &cands, total);
                combos
                    .iter()
                    .map(|(set, _)| *set)
                    .reduce(|a, b| a & b)
                    .unwrap_or(0)
            } else {
                0
            };
        }
    }

    /// The first sign that the puzzle cannot be solved from here, if any: an empty cell without
    /// candidates, or a required symbol with no place left in its shape.
    pub fn contradiction(&self) -> Option<Contradiction> {
        for (c, &m) in self.cand.iter().enumerate() {
            if m == 0 {
                return Some(Contradiction(format!(
                    "{} has no candidate left",
                    self.cell_names[c]
                )));
            }
        }
        for (i, s) in self.shapes.iter().enumerate() {
            let open = self.open_required(i);
            let possible = s
                .cells
                .iter()
                .filter(|&&c| self.value[c].is_none())
                .fold(0, |m, &c| m | self.cand[c]);
            if open & !possible != 0 {
                let v = (open & !possible).trailing_zeros() as usize;
                return Some(Contradiction(format!(
                    "{} has no place left for {}",
                    s.name, self.symbol_names[v]
                )));
            }
        }
        None
    }

    /// Cells of `cells` (empty ones) that still have symbol `v`.
    pub fn with_candidate(&self, cells: &[usize], v: usize) -> Vec<usize> {
        cells
            .iter()
            .copied()
            .filter(|&c| self.value[c].is_none() && self.cand[c] & (1 << v) != 0)
            .collect()
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

/// Derived sum shapes: for each complete shape, the cells not covered by sum shapes lying wholly
/// inside it must add up to the shape's total minus those sums ("the rule of 45"). Only added when
/// at least one sum shape lies inside and one to four cells are left.
fn innies(shapes: &[LShape], values: &[i64], n_cells: usize) -> Vec<LShape> {
    let total: i64 = values.iter().sum();
    let mut out = Vec::new();
    let mut inside = vec![false; n_cells];
    for s in shapes.iter().filter(|s| s.complete) {
        for &c in &s.cells {
            inside[c] = true;
        }
        let mut covered = vec![false; n_cells];
        let mut sum = 0;
        let mut any = false;
        for t in shapes.iter().filter(|t| t.sum.is_some()) {
            if t.cells.iter().all(|&c| inside[c]) && t.cells.iter().all(|&c| !covered[c]) {
                for &c in &t.cells {
                    covered[c] = true;
                }
                sum += t.sum.unwrap_or(0);
                any = true;
            }
        }
        let rest: Vec<usize> = s.cells.iter().copied().filter(|&c| !covered[c]).collect();
        if any && (1..=4).contains(&rest.len()) {
            out.push(LShape {
                name: format!("the innies of {}", s.name),
                cells: rest,
                unique: true,
                complete: false,
                sum: Some(total - sum),
            });
        }
        for &c in &s.cells {
            inside[c] = false;
        }
    }
    out
}
