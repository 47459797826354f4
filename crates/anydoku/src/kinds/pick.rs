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
fn key(p: [f64; 2]) -> (i64, i64) {
    (
        (p[0] * 1000.0).round() as i64,
        (p[1] * 1000.0).round() as i64,
    )
}

/// The cells of `g` by rounded position.
fn by_position(g: &Geometry, cells: &[CellId]) -> FxHashMap<(i64, i64), CellId> {
    cells.iter().map(|&c| (key(g.cell(c).pos), c)).collect()
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
            if let Some(&d) = at.get(&(x + dx * 1000, y + dy * 1000)) {
                out.push([c, d]);
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
            .map(|(dx, dy)| at.get(&(x + dx, y + dy)).copied())
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
            match at.get(&(x + dx, y + dy)) {
                Some(&d) if !run.contains(&d) => {
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
    let mut out = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            let (p, q) = (g.cell(a).pos, g.cell(b).pos);
            let d = (p[0] - q[0]).abs() + (p[1] - q[1]).abs();
            let straight = (p[0] - q[0]).abs() < 1e-3 || (p[1] - q[1]).abs() < 1e-3;
            if straight && (d - 1.0).abs() < 1e-3 {
                out.push([a, b]);
            }
        }
    }
    out
}
