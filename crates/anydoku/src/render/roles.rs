//! What each shape of a layout is drawn as, decided from cells and shapes alone (names and
//! geometry files play no part, so a layout read from JSON gets the same picture).
//!
//! Cells that share an edge of their outlines are *neighbours*. A shape is a *line* when its
//! cell centres lie on one straight line or its cells form a path of neighbours (Tredoku lines
//! bend across faces). Every unique shape ends up visible, or is a row, column or region of a
//! drawn grid:
//!
//! * [`Role::Region`]: boxes and jigsaw regions, then complete unique shapes that are not lines
//!   (a toroidal region may wrap around the edges), chosen greedily in shape order among those
//!   disjoint from the regions chosen — thick borders;
//! * [`Role::Cage`]: sum shapes — a dashed outline with the sum;
//! * [`Role::Diagonal`]: diagonals, and straight slanted lines of 3+ cells no two of which are
//!   neighbours — a stroke through the cells;
//! * [`Role::Shaded`]: other connected unique shapes that are not lines (windows) — shading;
//! * [`Role::Grid`]: rows and columns of grids (a straight run of neighbouring board cells on one
//!   board row or column), and bent paths of neighbours (Tredoku lines), which the drawn cells
//!   show — nothing more;
//! * [`Role::Line`]: any other straight shape (a pair of cells a knight's move apart, a
//!   hexagon's slanted lines) — a subtle line from cell to cell;
//! * [`Role::Pattern`]: the rest (scattered cells, such as the same place in every box) — named
//!   in a note under the picture.
//!
//! [`subgrids`] finds the square grids of a multi-grid layout (Samurai, Flower), so that each
//! can be outlined. To draw a new kind of shape, give it a role here and a layer in `svg`.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::geometry::{Geometry, Rule, Shape, ShapeKind};

/// A point in layout units.
pub(crate) type Pt = [f64; 2];

/// What a shape is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Thick borders around it.
    Region,
    /// A line through its cells.
    Diagonal,
    /// Its cells shaded.
    Shaded,
    /// A dashed cage outline.
    Cage,
    /// A subtle line from cell to cell.
    Line,
    /// Named in a note.
    Pattern,
    /// Shown by the drawn cells themselves (rows, columns, bent lines), or a single cell.
    Grid,
}

/// Pairs of neighbouring cells `(a, b)` with `a < b`.
pub(crate) type Adjacent = BTreeSet<(usize, usize)>;

/// Neighbours from the map of outline edges to the cells that have them.
pub(crate) fn adjacency<K>(edges: &BTreeMap<K, Vec<usize>>) -> Adjacent {
    let mut adjacent = BTreeSet::new();
    for cells in edges.values() {
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                let (a, b) = (cells[i].min(cells[j]), cells[i].max(cells[j]));
                if a != b {
                    adjacent.insert((a, b));
                }
            }
        }
    }
    adjacent
}

/// The role of every shape (see the module docs).
pub(crate) fn roles(g: &Geometry, adjacent: &Adjacent) -> Vec<Role> {
    let mut roles = vec![Role::Grid; g.shapes.len()];
    let mut taken = vec![false; g.cells.len()];
    let mut take = |i: usize, s: &Shape, roles: &mut Vec<Role>| {
        if s.cells.iter().all(|c| !taken[c.index()]) {
            for c in &s.cells {
                taken[c.index()] = true;
            }
            roles[i] = Role::Region;
        }
    };
    for (i, s) in g.shapes.iter().enumerate() {
        if matches!(s.kind, ShapeKind::Box | ShapeKind::Region) && !is_cage(s) {
            take(i, s, &mut roles);
        }
    }
    for (i, s) in g.shapes.iter().enumerate() {
        if s.kind == ShapeKind::Extra
            && g.is_complete(s)
            && s.cells.len() >= 2
            && !is_line(g, s, adjacent)
        {
            take(i, s, &mut roles);
        }
    }
    for (i, s) in g.shapes.iter().enumerate() {
        if roles[i] == Role::Grid {
            roles[i] = role_of(g, s, adjacent);
        }
    }
    roles
}

/// The role of a shape that is not a region.
fn role_of(g: &Geometry, s: &Shape, adjacent: &Adjacent) -> Role {
    let extra = s.kind == ShapeKind::Extra;
    if is_cage(s) {
        Role::Cage
    } else if s.kind == ShapeKind::Diagonal
        || (extra && s.cells.len() >= 3 && slanted(g, s) && !touching(s, adjacent))
    {
        Role::Diagonal
    } else if !extra || s.cells.len() < 2 || grid_line(g, s, adjacent) {
        Role::Grid
    } else if straight(g, s) {
        Role::Line
    } else if is_path(s, adjacent) {
        Role::Grid
    } else if connected(&indices(s), adjacent) {
        Role::Shaded
    } else {
        Role::Pattern
    }
}

fn indices(s: &Shape) -> Vec<usize> {
    s.cells.iter().map(|c| c.index()).collect()
}

fn is_cage(s: &Shape) -> bool {
    s.kind == ShapeKind::Cage || matches!(s.rule, Rule::Sum { .. })
}

/// Whether the shape's cells are a straight line or a path of neighbours.
fn is_line(g: &Geometry, s: &Shape, adjacent: &Adjacent) -> bool {
    straight(g, s) || is_path(s, adjacent)
}

/// Whether the shape is a row or column of a grid: board cells on one board row (or column),
/// each next to the one before.
fn grid_line(g: &Geometry, s: &Shape, adjacent: &Adjacent) -> bool {
    let Some(at): Option<Vec<(i32, i32)>> = s.cells.iter().map(|c| g.cell(*c).board).collect()
    else {
        return false;
    };
    let row = at.iter().all(|p| p.0 == at[0].0);
    let col = at.iter().all(|p| p.1 == at[0].1);
    (row || col) && is_path(s, adjacent)
}

pub(crate) fn straight(g: &Geometry, s: &Shape) -> bool {
    let p: Vec<Pt> = s.cells.iter().map(|c| g.cell(*c).pos).collect();
    if p.len() < 2 {
        return false;
    }
    let d = [p[1][0] - p[0][0], p[1][1] - p[0][1]];
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    len > 1e-9
        && p.iter().all(|q| {
            let e = [q[0] - p[0][0], q[1] - p[0][1]];
            ((d[0] * e[1] - d[1] * e[0]) / len).abs() < 1e-3
        })
}

fn is_path(s: &Shape, adjacent: &Adjacent) -> bool {
    let cells = indices(s);
    let mut degree = vec![0usize; cells.len()];
    let mut links = 0;
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            let (a, b) = (cells[i].min(cells[j]), cells[i].max(cells[j]));
            if adjacent.contains(&(a, b)) {
                degree[i] += 1;
                degree[j] += 1;
                links += 1;
            }
        }
    }
    links + 1 == cells.len() && degree.iter().all(|&d| d <= 2) && connected(&cells, adjacent)
}

fn connected(cells: &[usize], adjacent: &Adjacent) -> bool {
    if cells.is_empty() {
        return false;
    }
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..cells.len() {
            let (a, b) = (cells[i].min(cells[j]), cells[i].max(cells[j]));
            if !seen[j] && adjacent.contains(&(a, b)) {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}

/// Whether two cells of the shape share an edge (a diagonal's cells only meet at corners).
fn touching(s: &Shape, adjacent: &Adjacent) -> bool {
    s.cells.iter().any(|a| {
        s.cells.iter().any(|b| {
            let (a, b) = (a.index(), b.index());
            a < b && adjacent.contains(&(a, b))
        })
    })
}

fn slanted(g: &Geometry, s: &Shape) -> bool {
    if !straight(g, s) {
        return false;
    }
    let (a, b) = (g.cell(s.cells[0]).pos, g.cell(s.cells[1]).pos);
    (a[0] - b[0]).abs() > 1e-3 && (a[1] - b[1]).abs() > 1e-3
}

/// A square grid on the board: its top-left board row and column and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Square {
    pub row: i32,
    pub col: i32,
    pub size: i32,
}

/// The square grids of the layout: blocks of board cells whose every row and every column is a
/// shape of its own (what a `[[grid]]` makes, wherever it came from). Sorted.
pub(crate) fn subgrids(g: &Geometry) -> Vec<Square> {
    // straight runs of board cells: (board row, first column, length) and (column, first row,
    // length)
    let mut across: HashSet<(i32, i32, i32)> = HashSet::new();
    let mut down: HashSet<(i32, i32, i32)> = HashSet::new();
    for s in &g.shapes {
        let Some(mut at): Option<Vec<(i32, i32)>> =
            s.cells.iter().map(|c| g.cell(*c).board).collect()
        else {
            continue;
        };
        let n = at.len() as i32;
        if n < 2 || !s.is_unique() {
            continue;
        }
        at.sort_unstable();
        if at.iter().all(|p| p.0 == at[0].0) && at[n as usize - 1].1 - at[0].1 == n - 1 {
            across.insert((at[0].0, at[0].1, n));
        } else if at.iter().all(|p| p.1 == at[0].1) && at[n as usize - 1].0 - at[0].0 == n - 1 {
            down.insert((at[0].1, at[0].0, n));
        }
    }
    let mut out: Vec<Square> = across
        .iter()
        .filter(|&&(r, c, n)| {
            (0..n).all(|k| across.contains(&(r + k, c, n)) && down.contains(&(c + k, r, n)))
        })
        .map(|&(row, col, size)| Square { row, col, size })
        .collect();
    out.sort_unstable();
    out
}
