//! Cells by position, for the kinds that read the layout's drawing (patterns, the paths of
//! planted lines): neighbours, pairs a given step apart, random walks.
//!
//! Positions are the cells' drawing positions (`Cell::pos`, one unit between neighbouring
//! centres); two cells are a step `(dx, dy)` apart when their centres are, to a thousandth.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use rustc_hash::FxHashMap;

use crate::geometry::{CellId, Geometry};

/// A position rounded to a thousandth of a unit.
pub(crate) fn key(p: [f64; 2]) -> (i64, i64) {
    (
        (p[0] * 1000.0).round() as i64,
        (p[1] * 1000.0).round() as i64,
    )
}

/// The cells of `g` by rounded position (several cells may be drawn at one position; they
/// are listed in the order of `cells`).
fn by_position(g: &Geometry, cells: &[CellId]) -> FxHashMap<(i64, i64), Vec<CellId>> {
    let mut at: FxHashMap<(i64, i64), Vec<CellId>> = FxHashMap::default();
    for &c in cells {
        at.entry(key(g.cell(c).pos)).or_default().push(c);
    }
    at
}

/// The first of the cells at rounded position `p`, if any.
fn first_at(at: &FxHashMap<(i64, i64), Vec<CellId>>, p: (i64, i64)) -> Option<CellId> {
    at.get(&p).and_then(|cells| cells.first().copied())
}

/// Every unordered pair of `cells` whose centres are one of `steps` apart (each step is
/// `(dx, dy)` in units; `(dx, dy)` and `(-dx, -dy)` give the same pairs, so list one of them).
/// In the order of `cells`, then of `steps`.
pub(crate) fn pairs_at(g: &Geometry, cells: &[CellId], steps: &[(i64, i64)]) -> Vec<[CellId; 2]> {
    let at = by_position(g, cells);
    let mut out = Vec::new();
    for &c in cells {
        let (x, y) = key(g.cell(c).pos);
        for &(dx, dy) in steps {
            if let Some(there) = at.get(&(x + dx * 1000, y + dy * 1000)) {
                out.extend(there.iter().map(|&d| [c, d]));
            }
        }
    }
    out
}

/// The steps of a king's move (each pair once).
pub(crate) const KING: &[(i64, i64)] = &[(1, 0), (0, 1), (1, 1), (1, -1)];
/// The steps between orthogonal neighbours (each pair once).
pub(crate) const ORTHOGONAL: &[(i64, i64)] = &[(1, 0), (0, 1)];
/// The steps of a knight's move (each pair once).
pub(crate) const KNIGHT: &[(i64, i64)] = &[(1, 2), (2, 1), (1, -2), (2, -1)];

/// The cells a step of `steps` (either way) away from `c`.
pub(crate) fn neighbours(g: &Geometry, c: CellId, steps: &[(i64, i64)]) -> Vec<CellId> {
    let (x, y) = key(g.cell(c).pos);
    let mut out = Vec::new();
    for (i, cell) in g.cells.iter().enumerate() {
        let (u, v) = key(cell.pos);
        let d = ((u - x) / 1000, (v - y) / 1000);
        let exact = (u - x) % 1000 == 0 && (v - y) % 1000 == 0;
        if exact && steps.iter().any(|&s| s == d || s == (-d.0, -d.1)) {
            out.push(CellId(i as u32));
        }
    }
    out
}

/// A random walk of up to `len` distinct cells, each a step of `steps` from the one before,
/// each step allowed by `ok(walk so far, next cell)`; it starts anywhere and stops early where
/// it cannot go on.
pub(crate) fn walk(
    g: &Geometry,
    rng: &mut dyn RngCore,
    len: usize,
    steps: &[(i64, i64)],
    ok: &dyn Fn(&[CellId], CellId) -> bool,
) -> Vec<CellId> {
    let mut path = vec![CellId(rng.gen_range(0..g.cell_count()) as u32)];
    while path.len() < len {
        let last = *path.last().expect("a start");
        let mut next: Vec<CellId> = neighbours(g, last, steps)
            .into_iter()
            .filter(|c| !path.contains(c) && ok(&path, *c))
            .collect();
        next.shuffle(rng);
        match next.first() {
            Some(&c) => path.push(c),
            None => break,
        }
    }
    path
}

/// A random line of 1 to `most` distinct cells of `g` in a random order (at most as many as
/// `g` has).
pub(crate) fn distinct_cells(g: &Geometry, rng: &mut dyn RngCore, most: usize) -> Vec<CellId> {
    let n = g.cell_count();
    let len = rng.gen_range(1..=n.min(most));
    let mut cells: Vec<CellId> = Vec::new();
    while cells.len() < len {
        let c = CellId(rng.gen_range(0..n) as u32);
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    cells
}

/// A random 2x2 block of cells (four cells whose centres form a unit square), or `None` when
/// a few tries find none.
pub(crate) fn square(g: &Geometry, rng: &mut dyn RngCore) -> Option<Vec<CellId>> {
    let all: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
    let at = by_position(g, &all);
    (0..20).find_map(|_| {
        let c = all[rng.gen_range(0..all.len())];
        let (x, y) = key(g.cell(c).pos);
        [(0, 0), (1000, 0), (0, 1000), (1000, 1000)]
            .iter()
            .map(|(dx, dy)| first_at(&at, (x + dx, y + dy)))
            .collect()
    })
}

/// A whole straight line of cells read from one end: a step of `steps` (either way, at
/// random), a cell with no cell one step behind it, and every cell ahead of it step by step
/// (a row, a column or a diagonal from the edge, on a grid). `None` when a few tries find none
/// of two cells or more.
pub(crate) fn edge_run(
    g: &Geometry,
    rng: &mut dyn RngCore,
    steps: &[(i64, i64)],
) -> Option<Vec<CellId>> {
    let all: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
    let at = by_position(g, &all);
    (0..10).find_map(|_| {
        let (dx, dy) = steps[rng.gen_range(0..steps.len())];
        let (dx, dy) = if rng.gen_bool(0.5) {
            (dx, dy)
        } else {
            (-dx, -dy)
        };
        let (dx, dy) = (dx * 1000, dy * 1000);
        let starts: Vec<CellId> = all
            .iter()
            .copied()
            .filter(|&c| {
                let (x, y) = key(g.cell(c).pos);
                !at.contains_key(&(x - dx, y - dy))
            })
            .collect();
        let mut c = *starts.get(rng.gen_range(0..starts.len().max(1)))?;
        let mut run = vec![c];
        loop {
            let (x, y) = key(g.cell(c).pos);
            match first_at(&at, (x + dx, y + dy)) {
                Some(d) if !run.contains(&d) => {
                    run.push(d);
                    c = d;
                }
                _ => break,
            }
        }
        (run.len() >= 2).then_some(run)
    })
}

/// The value of the symbol of cell `c` in a full grid.
pub(crate) fn value(g: &Geometry, grid: &[u8], c: CellId) -> i64 {
    g.symbols.value(grid[c.index()] as usize)
}

/// Cells for a pattern that the full grid `grid` satisfies: every cell of `g`, less a random
/// cell of each pair `steps` apart that `ok(cell, cell)` turns down, until none is left.
/// `None` when fewer than two cells remain.
pub(crate) fn pattern_cells(
    g: &Geometry,
    rng: &mut dyn RngCore,
    steps: &[(i64, i64)],
    ok: &dyn Fn(CellId, CellId) -> bool,
) -> Option<Vec<CellId>> {
    let mut cells: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
    loop {
        let bad = pairs_at(g, &cells, steps)
            .into_iter()
            .find(|&[a, b]| !ok(a, b));
        match bad {
            None => break,
            Some(pair) => {
                let gone = pair[rng.gen_range(0..2)];
                cells.retain(|&c| c != gone);
            }
        }
    }
    (cells.len() >= 2).then_some(cells)
}

/// A random pair of orthogonal neighbours whose values in `grid` satisfy `ok(first, second)`
/// (in that order), or `None` when there is none.
pub(crate) fn pair(
    g: &Geometry,
    grid: &[u8],
    rng: &mut dyn RngCore,
    ok: &dyn Fn(i64, i64) -> bool,
) -> Option<[CellId; 2]> {
    let all: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
    let mut pairs: Vec<[CellId; 2]> = pairs_at(g, &all, ORTHOGONAL)
        .into_iter()
        .flat_map(|[a, b]| [[a, b], [b, a]])
        .filter(|&[a, b]| ok(value(g, grid, a), value(g, grid, b)))
        .collect();
    pairs.shuffle(rng);
    pairs.first().copied()
}

/// The message for a pair kind given `cells` cells.
pub(crate) fn two_cells(cells: usize) -> Result<(), String> {
    if cells == 2 {
        Ok(())
    } else {
        Err(format!("has {cells} cells; it takes exactly 2"))
    }
}

/// The unordered pairs of cells that carry a two-cell shape of kind `kind` whose numbers pass
/// `which` (the dots a negative pattern leaves alone), as `(smaller id, larger id)`.
pub(crate) fn marked_pairs(
    g: &Geometry,
    kind: &str,
    which: &dyn Fn(&[i64]) -> bool,
) -> rustc_hash::FxHashSet<(u32, u32)> {
    g.shapes
        .iter()
        .filter_map(|s| match &s.rule {
            crate::geometry::Rule::Constraint(c)
                if c.kind() == kind && s.cells.len() == 2 && which(c.params()) =>
            {
                let (a, b) = (s.cells[0].0, s.cells[1].0);
                Some((a.min(b), a.max(b)))
            }
            _ => None,
        })
        .collect()
}

/// The orthogonal neighbours among `cells` that carry no mark of `marked`.
pub(crate) fn unmarked_neighbours(
    g: &Geometry,
    cells: &[CellId],
    marked: &rustc_hash::FxHashSet<(u32, u32)>,
) -> Vec<[CellId; 2]> {
    pairs_at(g, cells, ORTHOGONAL)
        .into_iter()
        .filter(|[a, b]| !marked.contains(&(a.0.min(b.0), a.0.max(b.0))))
        .collect()
}

/// Every two orthogonal neighbours among `cells`, found from positions alone (what the
/// negative patterns' checkers use instead of [`pairs_at`]).
pub(crate) fn touching_sides(g: &Geometry, cells: &[CellId]) -> Vec<[CellId; 2]> {
    pairs_apart(g, cells, &|dx, dy| {
        (is(dx, 1.0) && is(dy, 0.0)) || (is(dx, 0.0) && is(dy, 1.0))
    })
}

/// Every two of `cells` whose centres are `(|dx|, |dy|)` apart with `apart(|dx|, |dy|)`, each
/// pair compared on its own (the checkers' way, independent of [`pairs_at`]'s lookup). Each
/// centre is taken to a thousandth first, as everywhere in this module, so `dx` and `dy` are
/// whole thousandths: compare them with [`is`].
pub(crate) fn pairs_apart(
    g: &Geometry,
    cells: &[CellId],
    apart: &dyn Fn(f64, f64) -> bool,
) -> Vec<[CellId; 2]> {
    let thousandths = |v: f64| (v * 1000.0).round();
    let mut out = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            let (p, q) = (g.cell(a).pos, g.cell(b).pos);
            let dx = (thousandths(p[0]) - thousandths(q[0])).abs() / 1000.0;
            let dy = (thousandths(p[1]) - thousandths(q[1])).abs() / 1000.0;
            if apart(dx, dy) {
                out.push([a, b]);
            }
        }
    }
    out
}

/// Whether two centres `(|dx|, |dy|)` apart are a king's move apart (checkers' form).
pub(crate) fn king_move(dx: f64, dy: f64) -> bool {
    let near = |d| is(d, 0.0) || is(d, 1.0);
    near(dx) && near(dy) && !(is(dx, 0.0) && is(dy, 0.0))
}

/// Whether two centres `(|dx|, |dy|)` apart are a knight's move apart (checkers' form).
pub(crate) fn knight_move(dx: f64, dy: f64) -> bool {
    (is(dx, 1.0) && is(dy, 2.0)) || (is(dx, 2.0) && is(dy, 1.0))
}

/// Whether `x`, a whole number of thousandths, is `n` (half a thousandth of slack for the
/// division's rounding).
pub(crate) fn is(x: f64, n: f64) -> bool {
    (x - n).abs() < 5e-4
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use super::*;
    use crate::Puzzle;

    /// Nine cells at awkward positions: two drawn at one place, offsets a hair under and over
    /// a whole unit either side of the rounding to thousandths.
    fn awkward() -> Geometry {
        let cells = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 0.0],
            [2.0009, 0.0],
            [0.9996, 1.0004],
            [2.0, 2.0006],
            [1.9994, 1.0],
            [1.0, 2.0],
            [3.0004, 1.0],
        ];
        let json = serde_json::json!({
            "name": "awkward",
            "symbols": ["1", "2", "3", "4", "5", "6", "7", "8", "9"],
            "cells": cells.iter().enumerate()
                .map(|(i, p)| serde_json::json!({"name": format!("c{i}"), "pos": p}))
                .collect::<Vec<_>>(),
            "shapes": [],
            "givens": {},
        });
        let p = Puzzle::from_json(&json.to_string()).unwrap();
        Arc::try_unwrap(p.geometry).unwrap()
    }

    fn set(pairs: Vec<[CellId; 2]>) -> BTreeSet<(u32, u32)> {
        pairs
            .into_iter()
            .map(|[a, b]| (a.0.min(b.0), a.0.max(b.0)))
            .collect()
    }

    /// The engine's pair finder and the checkers' pair test agree wherever cells are drawn,
    /// several at one place included (a fuzzed model once had the engine miss such a pair).
    #[test]
    fn engine_and_checker_pairs_agree_on_awkward_positions() {
        let g = awkward();
        // (the layout warns of its two cells at one place)
        assert!(
            g.warnings
                .iter()
                .any(|w| w.starts_with("cells c1 and c2 are drawn at the same place [1, 0]")),
            "{:?}",
            g.warnings
        );
        let all: Vec<CellId> = (0..g.cell_count() as u32).map(CellId).collect();
        let orthogonal = set(pairs_at(&g, &all, ORTHOGONAL));
        assert_eq!(orthogonal, set(touching_sides(&g, &all)));
        assert!(orthogonal.contains(&(0, 1)) && orthogonal.contains(&(0, 2)));
        let king = set(pairs_at(&g, &all, KING));
        assert_eq!(king, set(pairs_apart(&g, &all, &king_move)));
        assert!(
            !king.contains(&(1, 2)),
            "cells at one place are no king's move apart"
        );
        let knight = set(pairs_at(&g, &all, KNIGHT));
        assert_eq!(knight, set(pairs_apart(&g, &all, &knight_move)));
        assert!(
            knight.contains(&(0, 7)) && knight.contains(&(2, 8)),
            "{knight:?}"
        );
        assert!(king.len() > orthogonal.len());
    }
}
