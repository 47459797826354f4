//! Plain-text drawing of a grid.
//!
//! Board cells are drawn on their rows and columns, with `|` and `-` where neighbouring cells lie
//! in different boxes or regions; gaps of multi-grid layouts stay blank (a longer gap is one
//! blank line or column, so that the drawing costs a few times the cells, wherever they lie;
//! a board too sparse even for that is listed one cell per line, `r1c1 = 5`, which does not
//! read back in). Cells off the board
//! (Tredoku faces, a hexagon's cells) are drawn on their positions below: their distinct x and
//! y coordinates become the columns and lines of the drawing ([`off_board_spots`]), so the
//! picture keeps their arrangement. Every cell takes the display width of the widest symbol
//! (`16` and `🍎` take two columns), symbols right-aligned, so columns line up whatever the
//! symbols. `puzzle::text` reads every drawing made here back in; a change to the layout
//! needs the same change there.

use std::collections::HashMap;

use unicode_width::UnicodeWidthStr;

use crate::geometry::{Geometry, ShapeKind};
use crate::symbols::SymbolSet;

/// The display width every cell takes: the widest symbol (or `.`).
pub(crate) fn cell_width(symbols: &SymbolSet) -> usize {
    symbols
        .symbols()
        .iter()
        .map(|s| s.width())
        .max()
        .unwrap_or(1)
        .max(1)
}

/// `s` right-aligned in `width` display columns.
fn pad(s: &str, width: usize) -> String {
    let mut out = " ".repeat(width.saturating_sub(s.width()));
    out.push_str(s);
    out
}

/// Draws `grid` (symbol indices, `None` = empty) on the geometry's layout.
pub fn draw(g: &Geometry, grid: &[Option<u8>]) -> String {
    let width = cell_width(&g.symbols);
    let sym = |c: usize| pad(grid[c].map_or(".", |v| g.symbols.symbol(v as usize)), width);
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
            // too sparse to draw: the cells one per line
            let mut cells: Vec<(&(i32, i32), &usize)> = board.iter().collect();
            cells.sort_unstable();
            for (_, &i) in cells {
                out.push_str(&format!("{} = {}\n", g.cells[i].name, sym(i).trim_start()));
            }
        } else {
            draw_board(&mut out, g, &board, (&rows, &cols), width, &sym);
        }
    }
    let off: Vec<usize> = (0..g.cell_count())
        .filter(|&i| g.cells[i].board.is_none())
        .collect();
    if off.is_empty() {
        return out;
    }
    if !out.is_empty() {
        out.push('\n');
    }
    match off_board_spots(g, width) {
        Some(spots) => {
            let mut line = String::new();
            let mut row = 0;
            for s in &spots {
                while row < s.row {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line.clear();
                    row += 1;
                }
                let used = line.width();
                line.push_str(&" ".repeat(s.col.saturating_sub(used)));
                line.push_str(&sym(s.cell));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        // positions too scattered to draw in little space: one cell per line
        None => {
            for i in off {
                out.push_str(&format!("{} = {}\n", g.cells[i].name, sym(i).trim_start()));
            }
        }
    }
    out
}

/// Draws the board cells on the rows and columns given (`None`: a blank line or column standing
/// for a gap), with `|` and `-` between neighbouring cells of different boxes or regions.
fn draw_board(
    out: &mut String,
    g: &Geometry,
    board: &HashMap<(i32, i32), usize>,
    (rows, cols): (&[Option<i32>], &[Option<i32>]),
    width: usize,
    sym: &dyn Fn(usize) -> String,
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
    let at = |r: Option<i32>, c: Option<i32>| board.get(&(r?, c?));
    // cells next to each other on the board (not across a gap) in different regions
    let split = |a: Option<&usize>, b: Option<&usize>| match (a, b) {
        (Some(&a), Some(&b)) => has_regions && region[a] != region[b],
        _ => false,
    };
    // box lines only of characters that are not symbols, so that the drawing reads back in
    let bars = !g.symbols.uses_char('|');
    let rules = !g.symbols.uses_char('-') && !g.symbols.uses_char('+');
    let last_col = cols.len().saturating_sub(1);
    for (ri, &r) in rows.iter().enumerate() {
        let mut line = String::new();
        for (ci, &c) in cols.iter().enumerate() {
            let here = at(r, c);
            match here {
                Some(&i) => line.push_str(&sym(i)),
                None => line.push_str(&" ".repeat(width)),
            }
            if ci < last_col {
                let right = at(r, c.map(|c| c + 1)).filter(|_| cols[ci + 1] == c.map(|c| c + 1));
                line.push(if bars && split(here, right) { '|' } else { ' ' });
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
            if any && rules {
                out.push_str(sep.trim_end());
                out.push('\n');
            }
        }
    }
}

/// Where a cell off the board stands in the text drawing: its line (from 0, counted from the
/// first line of the off-board part) and the display column its text starts at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spot {
    pub cell: usize,
    pub row: usize,
    pub col: usize,
}

/// The spots of the cells off the board for cells `width` columns wide, in drawing order (line
/// by line, left to right), or `None` when there are none or their positions are too scattered
/// to draw in a few times their number of characters.
///
/// Each distinct y coordinate is a line. The x coordinates are steps of a lattice when they
/// are (multiples of their smallest distance), else their ranks: step `k` is at column
/// `k * (width + 1)`. A staggered layout (hexagons, isometric faces: on the lattice, x + y of
/// every cell even, or every one odd) is drawn at half that spacing, so that neighbours on a
/// line stand one cell's width apart and the next line sits between them.
pub(crate) fn off_board_spots(g: &Geometry, width: usize) -> Option<Vec<Spot>> {
    let off: Vec<usize> = (0..g.cell_count())
        .filter(|&i| g.cells[i].board.is_none())
        .collect();
    if off.is_empty() {
        return None;
    }
    // coordinates closer than a quarter cell are one column (or line), unless that puts two
    // cells in one place
    for tolerance in [0.25, 1e-3] {
        let xs = Axis::new(off.iter().map(|&i| g.cells[i].pos[0]), tolerance, off.len())?;
        let ys = Axis::new(off.iter().map(|&i| g.cells[i].pos[1]), tolerance, off.len())?;
        let mut spots: Vec<(usize, usize, usize)> = off
            .iter()
            .map(|&i| {
                let [x, y] = g.cells[i].pos;
                (ys.rank(y), xs.step(x), i)
            })
            .collect();
        spots.sort_unstable();
        if spots
            .windows(2)
            .any(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
        {
            continue;
        }
        let parity = |&(row, x, _): &(usize, usize, usize)| (ys.steps[row] + x) % 2;
        let staggered =
            xs.lattice && ys.lattice && spots.iter().all(|s| parity(s) == parity(&spots[0]));
        let col = |x: usize| {
            if staggered {
                x / 2 * (width + 1) + x % 2 * (width + 2) / 2
            } else {
                x * (width + 1)
            }
        };
        return Some(
            spots
                .iter()
                .map(|&(row, x, cell)| Spot {
                    cell,
                    row,
                    col: col(x),
                })
                .collect(),
        );
    }
    None
}

/// The distinct values of one coordinate (merged where they lie within a tolerance), each
/// with its step: on a lattice when every value is a multiple of the smallest distance from
/// the lowest, else its rank.
struct Axis {
    /// The lowest value of each group, ascending.
    starts: Vec<f64>,
    /// The step of each group.
    steps: Vec<usize>,
    lattice: bool,
}

impl Axis {
    /// `None` when the lattice would be too wide to draw for `cells` cells.
    fn new(values: impl Iterator<Item = f64>, tolerance: f64, cells: usize) -> Option<Self> {
        let mut v: Vec<f64> = values.collect();
        v.sort_by(f64::total_cmp);
        let mut starts: Vec<f64> = Vec::new();
        let mut last = f64::NEG_INFINITY;
        for x in v {
            if x - last > tolerance {
                starts.push(x);
            }
            last = x;
        }
        let unit = starts
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::INFINITY, f64::min);
        let at = |x: f64| (x - starts[0]) / unit;
        let lattice = unit.is_finite()
            && starts.iter().all(|&x| (at(x) - at(x).round()).abs() < 0.05)
            && at(starts[starts.len() - 1]) <= (4 * cells + 4096) as f64;
        let steps = if lattice {
            starts.iter().map(|&x| at(x).round() as usize).collect()
        } else {
            (0..starts.len()).collect()
        };
        Some(Axis {
            starts,
            steps,
            lattice,
        })
    }

    /// The group of a value that was given to [`Axis::new`].
    fn rank(&self, x: f64) -> usize {
        self.starts.partition_point(|&s| s <= x).saturating_sub(1)
    }

    /// The step of a value that was given to [`Axis::new`].
    fn step(&self, x: f64) -> usize {
        self.steps[self.rank(x)]
    }
}
