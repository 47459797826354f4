//! Puzzles: a geometry plus givens, and the ways to read and write them.
//!
//! * [`text`] — one-line strings and grid text (one grapheme per cell in cell order).
//! * [`mod@file`] — TOML puzzle files (geometry by name, path or inline; givens; cages) and the
//!   loader that accepts any supported input.
//! * [`json`] — the neutral JSON model, both ways.
//! * [`scan`] — fast reading of one-line JSON models (what `batch` does with `.jsonl` files).
//! * [`fpuzzles`] — f-puzzles links and JSON, both ways ([`lzstring`] is their compression).
//!
//! To add an input format, write a reader that returns a [`Puzzle`] and hook it into
//! [`file::load_path`].

pub mod file;
pub mod fpuzzles;
pub mod import;
pub mod json;
pub mod lzstring;
pub mod scan;
pub mod text;

use std::sync::Arc;

use crate::geometry::{CellId, Geometry, Rule, ShapeId};

/// A geometry with givens (symbol indices; `None` = empty).
#[derive(Debug, Clone)]
pub struct Puzzle {
    pub geometry: Arc<Geometry>,
    pub givens: Vec<Option<u8>>,
}

/// A rule broken by the filled cells of a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// Two cells of a unique shape hold the same symbol.
    Repeat {
        shape: ShapeId,
        cells: (CellId, CellId),
        symbol: u8,
    },
    /// A sum shape's filled cells add up wrong (or already exceed what is reachable).
    Sum { shape: ShapeId, filled: i64 },
}

impl Puzzle {
    /// An empty puzzle of a geometry.
    pub fn empty(geometry: Arc<Geometry>) -> Self {
        let n = geometry.cell_count();
        Puzzle {
            geometry,
            givens: vec![None; n],
        }
    }

    /// Number of givens.
    pub fn given_count(&self) -> usize {
        self.givens.iter().filter(|g| g.is_some()).count()
    }

    /// Every rule the filled cells break.
    pub fn conflicts(&self) -> Vec<Conflict> {
        conflicts_of(&self.geometry, &self.givens)
    }

    /// Describes a conflict with the geometry's own names.
    pub fn describe(&self, c: &Conflict) -> String {
        let g = &self.geometry;
        match c {
            Conflict::Repeat {
                shape,
                cells: (a, b),
                symbol,
            } => format!(
                "{} and {} are both '{}' in {}",
                g.cell(*a).name,
                g.cell(*b).name,
                g.symbols.symbol(*symbol as usize),
                g.shape(*shape).name
            ),
            Conflict::Sum { shape, filled } => {
                let s = g.shape(*shape);
                let total = match s.rule {
                    Rule::Sum { total, .. } => total,
                    Rule::Unique => 0,
                };
                format!(
                    "{} must add up to {total} but its cells make {filled}",
                    s.name
                )
            }
        }
    }
}

/// Conflicts of a (partial) assignment in a geometry.
pub fn conflicts_of(g: &Geometry, grid: &[Option<u8>]) -> Vec<Conflict> {
    let mut out = Vec::new();
    let mut seen: Vec<Option<CellId>> = vec![None; g.symbol_count()];
    for (i, s) in g.shapes.iter().enumerate() {
        let shape = ShapeId(i as u32);
        if s.is_unique() {
            seen.iter_mut().for_each(|x| *x = None);
            for &c in &s.cells {
                if let Some(v) = grid[c.index()] {
                    match seen[v as usize] {
                        Some(first) => out.push(Conflict::Repeat {
                            shape,
                            cells: (first, c),
                            symbol: v,
                        }),
                        None => seen[v as usize] = Some(c),
                    }
                }
            }
        }
        if let Rule::Sum { total, .. } = s.rule {
            let filled: Vec<i64> = s
                .cells
                .iter()
                .filter_map(|c| grid[c.index()].map(|v| g.symbols.value(v as usize)))
                .collect();
            let sum: i64 = filled.iter().sum();
            let min_value = g.symbols.values().iter().copied().min().unwrap_or(0);
            let all = filled.len() == s.cells.len();
            let rest_min = (s.cells.len() - filled.len()) as i64 * min_value;
            if (all && sum != total) || (!all && min_value >= 0 && sum + rest_min > total) {
                out.push(Conflict::Sum { shape, filled: sum });
            }
        }
    }
    out
}
