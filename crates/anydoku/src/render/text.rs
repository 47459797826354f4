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
        // the rows and columns that hold cells, a longer gap between them drawn as one blank
        // line or column: the picture costs at most a few times the cells, wherever they are
        let lines = |pick: fn(&(i32, i32)) -> i32| {
            let mut v: Vec<i32> = board.keys().map(pick).collect();
            v.sort_unstable();
            v.dedup();
            let mut out: Vec<Option<i32>> = Vec::with_capacity(v.len());
            for (i, &x) in v.iter().enumerate() {
                if i > 0 && x > v[i - 1] + 1 {
                    out.push(if x == v[i - 1] + 2 { Some(x - 1) } else { None });
                }
                out.push(Some(x));
            }
            out
        };
        let (rows, cols) = (lines(|k| k.0), lines(|k| k.1));
        if rows.len().saturating_mul(cols.len()) > 4 * board.len() + 4096 {
            // too sparse to draw: the cells one per line, as for cells off the board
            let mut cells: Vec<(&(i32, i32), &usize)> = board.iter().collect();
            cells.sort_unstable();
            for (_, &i) in cells {
                out.push_str(&format!("{} = {}\n", g.cells[i].name, sym(i)));
            }
        } else {
            draw_board(&mut out, g, &board, &rows, &cols, &sym);
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

/// Draws the board cells on the rows and columns given (`None`: a blank line or column standing
/// for a gap), with `|` and `-` between neighbouring cells of different boxes or regions.
fn draw_board<'g>(
    out: &mut String,
    g: &'g Geometry,
    board: &HashMap<(i32, i32), usize>,
    rows: &[Option<i32>],
    cols: &[Option<i32>],
    sym: &dyn Fn(usize) -> &'g str,
) {
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
    let width = g
        .symbols
        .symbols()
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(1);
    let at = |r: Option<i32>, c: Option<i32>| board.get(&(r?, c?));
    // cells next to each other on the board (not across a gap) in different regions
    let split = |a: Option<&usize>, b: Option<&usize>| match (a, b) {
        (Some(&a), Some(&b)) => has_regions && region[a] != region[b],
        _ => false,
    };
    let last_col = cols.len().saturating_sub(1);
    for (ri, &r) in rows.iter().enumerate() {
        let mut line = String::new();
        for (ci, &c) in cols.iter().enumerate() {
            let here = at(r, c);
            match here {
                Some(&i) => line.push_str(&format!("{:>width$}", sym(i))),
                None => line.push_str(&" ".repeat(width)),
            }
            if ci < last_col {
                let right = at(r, c.map(|c| c + 1)).filter(|_| cols[ci + 1] == c.map(|c| c + 1));
                line.push(if split(here, right) { '|' } else { ' ' });
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if ri + 1 < rows.len() && rows[ri + 1] == r.map(|r| r + 1) {
            let down = rows[ri + 1];
            let mut sep = String::new();
            let mut any = false;
            for (ci, &c) in cols.iter().enumerate() {
                let cut = split(at(r, c), at(down, c));
                any |= cut;
                sep.push_str(&(if cut { "-" } else { " " }).repeat(width));
                if ci < last_col {
                    let next_c = cols[ci + 1].filter(|&n| Some(n) == c.map(|c| c + 1));
                    let next = split(at(r, next_c), at(down, next_c));
                    let wall =
                        split(at(r, c), at(r, next_c)) || split(at(down, c), at(down, next_c));
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
