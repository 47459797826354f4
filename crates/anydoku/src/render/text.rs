//! Plain-text drawing of a grid.
//!
//! Board cells are drawn on their rows and columns, with `|` and `-` where neighbouring cells lie
//! in different boxes or regions; gaps of multi-grid layouts stay blank. Cells off the board
//! (e.g. Tredoku faces) are listed per complete shape, then one by one.

use std::collections::HashMap;

use crate::geometry::{Geometry, ShapeKind};

/// Draws `grid` (symbol indices, `None` = empty) on the geometry's layout.
pub fn draw(g: &Geometry, grid: &[Option<u8>]) -> String {
    let sym = |c: usize| grid[c].map_or(".", |v| g.symbols.symbol(v as usize));
    let mut out = String::new();
    let board: HashMap<(i32, i32), usize> = g
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.board.map(|b| (b, i)))
        .collect();
    if !board.is_empty() {
        // region of each cell: the first box/region shape holding it
        let mut region = vec![usize::MAX; g.cells.len()];
        let mut has_regions = false;
        for (si, s) in g.shapes.iter().enumerate() {
            if matches!(s.kind, ShapeKind::Box | ShapeKind::Region) {
                has_regions = true;
                for c in &s.cells {
                    if region[c.index()] == usize::MAX {
                        region[c.index()] = si;
                    }
                }
            }
        }
        let rows = board.keys().map(|k| k.0);
        let (r0, r1) = (rows.clone().min().unwrap(), rows.max().unwrap());
        let cols = board.keys().map(|k| k.1);
        let (c0, c1) = (cols.clone().min().unwrap(), cols.max().unwrap());
        let width = g
            .symbols
            .symbols()
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(1);
        let split = |a: Option<&usize>, b: Option<&usize>| match (a, b) {
            (Some(&a), Some(&b)) => has_regions && region[a] != region[b],
            _ => false,
        };
        for r in r0..=r1 {
            let mut line = String::new();
            for c in c0..=c1 {
                let here = board.get(&(r, c));
                match here {
                    Some(&i) => line.push_str(&format!("{:>width$}", sym(i))),
                    None => line.push_str(&" ".repeat(width)),
                }
                if c < c1 {
                    let sep = if split(here, board.get(&(r, c + 1))) {
                        '|'
                    } else {
                        ' '
                    };
                    line.push(sep);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
            if r < r1 {
                let mut sep = String::new();
                let mut any = false;
                for c in c0..=c1 {
                    let cut = split(board.get(&(r, c)), board.get(&(r + 1, c)));
                    any |= cut;
                    sep.push_str(&(if cut { "-" } else { " " }).repeat(width));
                    if c < c1 {
                        let next = split(board.get(&(r, c + 1)), board.get(&(r + 1, c + 1)));
                        let wall = split(board.get(&(r, c)), board.get(&(r, c + 1)))
                            || split(board.get(&(r + 1, c)), board.get(&(r + 1, c + 1)));
                        sep.push(match (cut || next, wall) {
                            (true, true) => '+',
                            (true, false) => '-',
                            _ => ' ',
                        });
                    }
                }
                if any {
                    out.push_str(sep.trim_end());
                    out.push('\n');
                }
            }
        }
    }
    let mut shown = vec![false; g.cells.len()];
    for (i, c) in g.cells.iter().enumerate() {
        shown[i] = c.board.is_some();
    }
    for s in &g.shapes {
        if g.is_complete(s) && s.cells.iter().all(|c| !shown[c.index()]) {
            let text: Vec<&str> = s.cells.iter().map(|c| sym(c.index())).collect();
            out.push_str(&format!("{}: {}\n", s.name, text.join("")));
            for c in &s.cells {
                shown[c.index()] = true;
            }
        }
    }
    for (i, c) in g.cells.iter().enumerate() {
        if !shown[i] {
            out.push_str(&format!("{} = {}\n", c.name, sym(i)));
        }
    }
    out
}
