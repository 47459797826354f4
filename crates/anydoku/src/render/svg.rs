//! SVG drawing of any layout, from the cells' positions and outlines alone.
//!
//! Every cell is a polygon: its `poly` if it has one (Tredoku rhombi), else the unit square around
//! its `pos`. Cells that share an edge are neighbours. From that and the shapes the picture is:
//!
//! * thin outlines for every cell (`class="cell"`, one `<rect>` or `<polygon>` per cell, in cell
//!   order, carrying `data-cell` (the cell's index), `data-cx`/`data-cy` (its centre in pixels)
//!   and `data-fit` (the room it has for a symbol, 1 for a square) so that an interactive page can
//!   map clicks to cells and write into them);
//! * thick lines (`class="region-border"`) on the outer boundary and between cells of different
//!   *regions*. Regions are chosen greedily, in shape order, among the shapes of kind box/region
//!   and then the complete unique shapes that are not lines (so geometries read from JSON, whose
//!   shapes all have kind `Extra`, still get their boxes), keeping only shapes disjoint from the
//!   regions already chosen. A *line* is a shape whose cell centres lie on one straight line or
//!   whose cells form a path of neighbours (Tredoku lines bend across faces);
//! * diagonals (`class="diagonal"`): shapes of kind diagonal, or straight slanted lines of 3+ cells
//!   no two of which share an edge;
//! * other connected, non-line unique shapes (windows, extra regions) shaded (`class="shade"`);
//! * cages (`class="cage"`, one dashed `<path>` per sum shape or cage, inset inside its cells)
//!   with the sum (`class="cage-sum"`) in the top-left cell;
//! * givens in bold (`class="given"`), other filled cells in blue (`class="solved"`).
//!
//! The output is deterministic: numbers have fixed precision and nothing iterates a hash map.
//! To draw a new kind of shape, pick it out in [`draw`] and add a layer.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::geometry::{Geometry, Rule, Shape, ShapeKind};

/// Pixels per cell unit.
const SCALE: f64 = 40.0;
/// Margin around the drawing, in cell units.
const MARGIN: f64 = 0.35;
/// How far cage outlines sit inside their cells, in cell units.
const CAGE_INSET: f64 = 0.09;
const SOLVED_COLOUR: &str = "#1f5fbf";

type Pt = [f64; 2];
/// A quantised point, for matching shared vertices.
type Key = (i64, i64);

fn key(p: Pt) -> Key {
    (
        (p[0] * 1000.0).round() as i64,
        (p[1] * 1000.0).round() as i64,
    )
}

/// Formats a number with two decimals, without trailing zeros or `-0`.
fn num(v: f64) -> String {
    let mut s = format!("{v:.2}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// Escapes text for XML content and attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

fn signed_area(p: &[Pt]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
        / 2.0
}

/// The cell outlines, each with positive signed area (interior to the left of every edge, in the
/// sense of the formula `(-dy, dx)`).
fn outlines(g: &Geometry) -> Vec<Vec<Pt>> {
    g.cells
        .iter()
        .map(|c| {
            let mut p = match &c.poly {
                Some(poly) if poly.len() >= 3 => poly.clone(),
                _ => {
                    let [x, y] = c.pos;
                    vec![
                        [x - 0.5, y - 0.5],
                        [x + 0.5, y - 0.5],
                        [x + 0.5, y + 0.5],
                        [x - 0.5, y + 0.5],
                    ]
                }
            };
            if signed_area(&p) < 0.0 {
                p.reverse();
            }
            p
        })
        .collect()
}

/// Undirected edges (by quantised end points) and the cells that have them.
fn edge_map(polys: &[Vec<Pt>]) -> BTreeMap<(Key, Key), Vec<usize>> {
    let mut edges: BTreeMap<(Key, Key), Vec<usize>> = BTreeMap::new();
    for (i, p) in polys.iter().enumerate() {
        for k in 0..p.len() {
            let (a, b) = (key(p[k]), key(p[(k + 1) % p.len()]));
            let e = if a <= b { (a, b) } else { (b, a) };
            edges.entry(e).or_default().push(i);
        }
    }
    edges
}

/// Whether the shape's cells are a straight line or a path of neighbours.
fn is_line(g: &Geometry, s: &Shape, adjacent: &BTreeSet<(usize, usize)>) -> bool {
    straight(g, s) || is_path(s, adjacent)
}

fn straight(g: &Geometry, s: &Shape) -> bool {
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

fn is_path(s: &Shape, adjacent: &BTreeSet<(usize, usize)>) -> bool {
    let cells: Vec<usize> = s.cells.iter().map(|c| c.index()).collect();
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

fn connected(cells: &[usize], adjacent: &BTreeSet<(usize, usize)>) -> bool {
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

fn is_cage(s: &Shape) -> bool {
    s.kind == ShapeKind::Cage || matches!(s.rule, Rule::Sum { .. })
}

/// What each shape is drawn as.
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
    /// Not drawn (rows, columns, bent lines, pairs).
    None,
}

fn adjacency(edges: &BTreeMap<(Key, Key), Vec<usize>>) -> BTreeSet<(usize, usize)> {
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

fn roles_with(g: &Geometry, adjacent: &BTreeSet<(usize, usize)>) -> Vec<Role> {
    let mut roles = vec![Role::None; g.shapes.len()];
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
        if roles[i] != Role::None {
            continue;
        }
        roles[i] = if is_cage(s) {
            Role::Cage
        } else if s.kind == ShapeKind::Diagonal
            || (s.kind == ShapeKind::Extra
                && s.cells.len() >= 3
                && slanted(g, s)
                && !touching(s, adjacent))
        {
            Role::Diagonal
        } else if s.kind == ShapeKind::Extra
            && s.cells.len() >= 2
            && !is_line(g, s, adjacent)
            && connected(
                &s.cells.iter().map(|c| c.index()).collect::<Vec<_>>(),
                adjacent,
            )
        {
            Role::Shaded
        } else {
            Role::None
        };
    }
    roles
}

/// Whether two cells of the shape share an edge (a diagonal's cells only meet at corners).
fn touching(s: &Shape, adjacent: &BTreeSet<(usize, usize)>) -> bool {
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

/// Draws the geometry with `grid` (symbol indices; `None` = empty); `givens` marks which filled
/// cells are givens (drawn bold) — the rest are drawn as solved. Pass the givens as `grid` to draw
/// the puzzle, or a solution to draw it solved.
pub fn draw(g: &Geometry, givens: &[Option<u8>], grid: &[Option<u8>]) -> String {
    let polys = outlines(g);
    let edges = edge_map(&polys);
    let adjacent = adjacency(&edges);
    let roles = roles_with(g, &adjacent);
    let c = Canvas::new(&polys);
    let (width, height) = (c.width.clone(), c.height.clone());
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&g.name));
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    shades(&mut out, g, &roles, &c, &polys);
    diagonals(&mut out, g, &roles, &c);
    cells(&mut out, g, &c, &polys);
    borders(&mut out, g, &roles, &c, &edges);
    for (i, s) in g.shapes.iter().enumerate() {
        if roles[i] == Role::Cage {
            cage(&mut out, g, s, &c, &polys, &edges);
        }
    }
    symbols(&mut out, g, givens, grid, &c, &polys);
    out.push_str("</svg>\n");
    out
}

/// The picture's coordinates: layout units (cell centres one apart) to pixels, with a margin.
struct Canvas {
    x0: f64,
    y0: f64,
    width: String,
    height: String,
}

impl Canvas {
    /// The canvas that holds every cell outline.
    fn new(polys: &[Vec<Pt>]) -> Self {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in polys.iter().flatten() {
            x0 = x0.min(p[0]);
            y0 = y0.min(p[1]);
            x1 = x1.max(p[0]);
            y1 = y1.max(p[1]);
        }
        Canvas {
            x0,
            y0,
            width: num((x1 - x0 + 2.0 * MARGIN) * SCALE),
            height: num((y1 - y0 + 2.0 * MARGIN) * SCALE),
        }
    }

    fn tx(&self, x: f64) -> String {
        num((x - self.x0 + MARGIN) * SCALE)
    }

    fn ty(&self, y: f64) -> String {
        num((y - self.y0 + MARGIN) * SCALE)
    }

    fn pt(&self, p: Pt) -> String {
        format!("{},{}", self.tx(p[0]), self.ty(p[1]))
    }

    fn points(&self, p: &[Pt]) -> String {
        p.iter().map(|&q| self.pt(q)).collect::<Vec<_>>().join(" ")
    }
}

/// The shaded shapes (windows, extra regions), one group each.
fn shades(out: &mut String, g: &Geometry, roles: &[Role], c: &Canvas, polys: &[Vec<Pt>]) {
    for (i, s) in g.shapes.iter().enumerate() {
        if roles[i] == Role::Shaded {
            let _ = writeln!(
                out,
                r#"<g class="shade"><title>{}</title>"#,
                escape(&s.name)
            );
            for cell in &s.cells {
                let _ = writeln!(
                    out,
                    r##"<polygon points="{}" fill="#8fa8d8" fill-opacity="0.3"/>"##,
                    c.points(&polys[cell.index()])
                );
            }
            let _ = writeln!(out, "</g>");
        }
    }
}

/// The diagonals: a line through each, from edge to edge of its end cells.
fn diagonals(out: &mut String, g: &Geometry, roles: &[Role], c: &Canvas) {
    for (i, s) in g.shapes.iter().enumerate() {
        if roles[i] != Role::Diagonal {
            continue;
        }
        let pos: Vec<Pt> = s.cells.iter().map(|cell| g.cell(*cell).pos).collect();
        let (a, b) = extremes(&pos);
        let d = [b[0] - a[0], b[1] - a[1]];
        let len = (d[0] * d[0] + d[1] * d[1]).sqrt().max(1e-9);
        let u = [d[0] / len, d[1] / len];
        let t = 0.5 / u[0].abs().max(u[1].abs()).max(1e-9);
        let (p, q) = (
            [a[0] - u[0] * t, a[1] - u[1] * t],
            [b[0] + u[0] * t, b[1] + u[1] * t],
        );
        let _ = writeln!(
            out,
            r##"<line class="diagonal" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#9aa9c4" stroke-width="{}"><title>{}</title></line>"##,
            c.tx(p[0]),
            c.ty(p[1]),
            c.tx(q[0]),
            c.ty(q[1]),
            num(0.06 * SCALE),
            escape(&s.name)
        );
    }
}

/// The cell outlines, in cell order, with the data attributes an interactive page reads.
fn cells(out: &mut String, g: &Geometry, c: &Canvas, polys: &[Vec<Pt>]) {
    for (i, cell) in g.cells.iter().enumerate() {
        let data = format!(
            r#"data-cell="{i}" data-cx="{}" data-cy="{}" data-fit="{}""#,
            c.tx(cell.pos[0]),
            c.ty(cell.pos[1]),
            num(fit(&polys[i], cell.pos))
        );
        match &cell.poly {
            Some(_) => {
                let _ = writeln!(
                    out,
                    r##"<polygon class="cell" {data} points="{}" fill="none" stroke="#888888" stroke-width="1"><title>{}</title></polygon>"##,
                    c.points(&polys[i]),
                    escape(&cell.name)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    r##"<rect class="cell" {data} x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#888888" stroke-width="1"><title>{}</title></rect>"##,
                    c.tx(cell.pos[0] - 0.5),
                    c.ty(cell.pos[1] - 0.5),
                    num(SCALE),
                    num(SCALE),
                    escape(&cell.name)
                );
            }
        }
    }
}

/// The thick borders: the outer boundary and the edges between cells of different regions, as
/// one path.
fn borders(
    out: &mut String,
    g: &Geometry,
    roles: &[Role],
    c: &Canvas,
    edges: &BTreeMap<(Key, Key), Vec<usize>>,
) {
    let mut region_of = vec![usize::MAX; g.cells.len()];
    for (i, s) in g.shapes.iter().enumerate() {
        if roles[i] == Role::Region {
            for cell in &s.cells {
                region_of[cell.index()] = i;
            }
        }
    }
    let mut d = String::new();
    for (&(a, b), cells) in edges {
        let thick = cells.len() == 1 || cells.iter().any(|&k| region_of[k] != region_of[cells[0]]);
        if thick {
            let p = |k: Key| {
                format!(
                    "{},{}",
                    c.tx(k.0 as f64 / 1000.0),
                    c.ty(k.1 as f64 / 1000.0)
                )
            };
            let _ = write!(d, "M{}L{}", p(a), p(b));
        }
    }
    let _ = writeln!(
        out,
        r##"<path class="region-border" d="{d}" fill="none" stroke="#000000" stroke-width="{}" stroke-linecap="round"/>"##,
        num(0.09 * SCALE)
    );
}

/// A cage: its dashed outline inset inside its cells, and its sum in its top-left cell.
fn cage(
    out: &mut String,
    g: &Geometry,
    s: &Shape,
    c: &Canvas,
    polys: &[Vec<Pt>],
    edges: &BTreeMap<(Key, Key), Vec<usize>>,
) {
    let loops = cage_outline(s, polys, edges);
    let mut d = String::new();
    for l in &loops {
        for (k, p) in l.iter().enumerate() {
            let _ = write!(d, "{}{}", if k == 0 { "M" } else { "L" }, c.pt(*p));
        }
        d.push('Z');
    }
    let _ = writeln!(
        out,
        r##"<path class="cage" d="{d}" fill="none" stroke="#333333" stroke-width="1.2" stroke-dasharray="4,3"><title>{}</title></path>"##,
        escape(&s.name)
    );
    let Rule::Sum { total, .. } = s.rule else {
        return;
    };
    let first = s
        .cells
        .iter()
        .copied()
        .min_by(|a, b| {
            let (p, q) = (g.cell(*a).pos, g.cell(*b).pos);
            (p[1], p[0]).partial_cmp(&(q[1], q[0])).unwrap()
        })
        .expect("cages have cells");
    let poly = &polys[first.index()];
    let centre = g.cell(first).pos;
    let corner = poly
        .iter()
        .copied()
        .min_by(|a, b| (a[0] + a[1]).partial_cmp(&(b[0] + b[1])).unwrap())
        .unwrap();
    let v = [centre[0] - corner[0], centre[1] - corner[1]];
    let vl = (v[0] * v[0] + v[1] * v[1]).sqrt().max(1e-9);
    let at = [corner[0] + v[0] / vl * 0.05, corner[1] + v[1] / vl * 0.05];
    let label = total.to_string();
    let font = 0.26;
    let w = 0.02 + 0.16 * label.chars().count() as f64;
    let _ = writeln!(
        out,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#ffffff"/>"##,
        c.tx(at[0]),
        c.ty(at[1]),
        num(w * SCALE),
        num(font * SCALE)
    );
    let _ = writeln!(
        out,
        r##"<text class="cage-sum" x="{}" y="{}" font-size="{}" fill="#000000">{}</text>"##,
        c.tx(at[0] + 0.01),
        c.ty(at[1] + font * 0.85),
        num(font * SCALE),
        escape(&label)
    );
}

/// The filled cells' symbols: givens bold, the others blue.
fn symbols(
    out: &mut String,
    g: &Geometry,
    givens: &[Option<u8>],
    grid: &[Option<u8>],
    c: &Canvas,
    polys: &[Vec<Pt>],
) {
    for (i, cell) in g.cells.iter().enumerate() {
        let Some(v) = grid[i] else { continue };
        let symbol = g.symbols.symbol(v as usize);
        let given = givens[i] == Some(v);
        let fit = fit(&polys[i], cell.pos);
        let font = 0.62 * fit / (symbol.chars().count().max(1) as f64).sqrt();
        let (class, style) = if given {
            (
                "given",
                r##"font-weight="bold" fill="#000000""##.to_string(),
            )
        } else {
            ("solved", format!(r#"fill="{SOLVED_COLOUR}""#))
        };
        let _ = writeln!(
            out,
            r#"<text class="{class}" x="{}" y="{}" font-size="{}" text-anchor="middle" {style}>{}</text>"#,
            c.tx(cell.pos[0]),
            c.ty(cell.pos[1] + font * 0.36),
            num(font * SCALE),
            escape(symbol)
        );
    }
}

/// The two points of a straight set that are farthest apart (its ends).
fn extremes(p: &[Pt]) -> (Pt, Pt) {
    let mut best = (p[0], p[0], -1.0);
    for a in p {
        for b in p {
            let d = (a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2);
            if d > best.2 {
                best = (*a, *b, d);
            }
        }
    }
    // order ends deterministically: left-most (then top-most) first
    if (best.0[0], best.0[1]) <= (best.1[0], best.1[1]) {
        (best.0, best.1)
    } else {
        (best.1, best.0)
    }
}

/// How much of a unit square's room a cell has for its symbol (1 for squares).
fn fit(poly: &[Pt], centre: Pt) -> f64 {
    let mut best = f64::MAX;
    for k in 0..poly.len() {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        let d = [b[0] - a[0], b[1] - a[1]];
        let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
        if len > 1e-9 {
            let dist = ((centre[0] - a[0]) * d[1] - (centre[1] - a[1]) * d[0]).abs() / len;
            best = best.min(dist);
        }
    }
    (best / 0.5).clamp(0.3, 1.0)
}

/// The cage's outline as closed loops, each moved [`CAGE_INSET`] into the cage.
fn cage_outline(
    s: &Shape,
    polys: &[Vec<Pt>],
    edges: &BTreeMap<(Key, Key), Vec<usize>>,
) -> Vec<Vec<Pt>> {
    let inside: BTreeSet<usize> = s.cells.iter().map(|c| c.index()).collect();
    // directed boundary edges, interior on the left
    let mut out: BTreeMap<Key, Vec<(Key, Pt, Pt)>> = BTreeMap::new();
    for &c in &inside {
        let p = &polys[c];
        for k in 0..p.len() {
            let (a, b) = (p[k], p[(k + 1) % p.len()]);
            let (ka, kb) = (key(a), key(b));
            let e = if ka <= kb { (ka, kb) } else { (kb, ka) };
            let shared = edges
                .get(&e)
                .is_some_and(|cells| cells.iter().any(|o| *o != c && inside.contains(o)));
            if !shared {
                out.entry(ka).or_default().push((kb, a, b));
            }
        }
    }
    let mut loops = Vec::new();
    while let Some((&start, _)) = out.iter().find(|(_, v)| !v.is_empty()) {
        let mut points: Vec<Pt> = Vec::new();
        let mut at = start;
        while let Some(list) = out.get_mut(&at) {
            if list.is_empty() {
                break;
            }
            let (next, a, _) = list.remove(0);
            points.push(a);
            at = next;
            if at == start {
                break;
            }
        }
        // drop points where the outline runs straight on
        let n = points.len();
        let corners: Vec<Pt> = (0..n)
            .filter(|&i| {
                let (p, q, r) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
                let cross = (q[0] - p[0]) * (r[1] - q[1]) - (q[1] - p[1]) * (r[0] - q[0]);
                cross.abs() > 1e-6
            })
            .map(|i| points[i])
            .collect();
        if corners.len() >= 3 {
            loops.push(inset(&corners, CAGE_INSET));
        }
    }
    loops
}

/// Moves every vertex of a loop (interior on the left) `d` towards the interior.
fn inset(p: &[Pt], d: f64) -> Vec<Pt> {
    let n = p.len();
    let normal = |a: Pt, b: Pt| {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt().max(1e-12);
        [-dy / len, dx / len]
    };
    (0..n)
        .map(|i| {
            let (prev, here, next) = (p[(i + n - 1) % n], p[i], p[(i + 1) % n]);
            let (n1, n2) = (normal(prev, here), normal(here, next));
            let dot = n1[0] * n2[0] + n1[1] * n2[1];
            let k = d / (1.0 + dot).max(0.1);
            [here[0] + (n1[0] + n2[0]) * k, here[1] + (n1[1] + n2[1]) * k]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_fixed_and_trimmed() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.2345), "1.23");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(40.5), "40.5");
    }

    #[test]
    fn escapes_xml() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
    }

    #[test]
    fn inset_square_moves_inwards() {
        let sq = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert!(signed_area(&sq) > 0.0);
        let r = inset(&sq, 0.1);
        for (p, q) in r
            .iter()
            .zip([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]])
        {
            assert!(
                (p[0] - q[0]).abs() < 1e-9 && (p[1] - q[1]).abs() < 1e-9,
                "{p:?}"
            );
        }
    }
}
