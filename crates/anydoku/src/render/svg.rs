//! SVG drawing of any layout, from the cells' positions and outlines alone.
//!
//! Every cell is a polygon: its `poly` if it has one (Tredoku rhombi), else the unit square around
//! its `pos`. Cells that share an edge are neighbours. What each shape is drawn as is decided in
//! `roles` (so that every unique shape is visible, or is a row, column or region of a drawn
//! grid); the picture is, bottom to top:
//!
//! * a light grey ground under the givens (`class="given-cell"`);
//! * shaded shapes (`class="shade"`: windows, extra regions), diagonals (`class="diagonal"`) and
//!   subtle lines (`class="line"`: pairs of cells a knight's move apart, a hexagon's lines),
//!   which leave the cells' centres free for their symbols;
//! * thin outlines for every cell (`class="cell"`, one `<rect>` or `<polygon>` per cell, in cell
//!   order, carrying `data-cell` (the cell's index), `data-cx`/`data-cy` (its centre in pixels)
//!   and `data-fit` (the room it has for a symbol, 1 for a square) so that an interactive page can
//!   map clicks to cells and write into them);
//! * thick lines (`class="region-border"`) on the outer boundary and between cells of different
//!   regions;
//! * an outline in its own colour around each grid of a multi-grid layout (`class="subgrid"`);
//! * cages (`class="cage"`, one dashed `<path>` per sum shape or cage, inset inside its cells)
//!   with the sum (`class="cage-sum"`) in the top-left cell;
//! * givens in bold (`class="given"`), other filled cells in blue (`class="solved"`);
//! * a note under the picture (`class="note"`) saying what the lines mean and naming the shapes
//!   of scattered cells (the same place in every box), which no drawing shows well.
//!
//! The output is deterministic: numbers have fixed precision and nothing iterates a hash map.
//! To draw a new kind of shape, give it a role in `roles` and add a layer in [`draw`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::roles::{adjacency, roles, subgrids, Role, Square};
use crate::geometry::{Geometry, Rule, Shape};

/// Pixels per cell unit.
const SCALE: f64 = 40.0;
/// Margin around the drawing, in cell units.
const MARGIN: f64 = 0.35;
/// How far cage outlines sit inside their cells, in cell units.
const CAGE_INSET: f64 = 0.09;
const SOLVED_COLOUR: &str = "#1f5fbf";

use super::roles::Pt;
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

/// Draws the geometry with `grid` (symbol indices; `None` = empty); `givens` marks which filled
/// cells are givens (drawn bold) — the rest are drawn as solved. Pass the givens as `grid` to draw
/// the puzzle, or a solution to draw it solved.
pub fn draw(g: &Geometry, givens: &[Option<u8>], grid: &[Option<u8>]) -> String {
    let polys = outlines(g);
    let edges = edge_map(&polys);
    let adjacent = adjacency(&edges);
    let roles = roles(g, &adjacent);
    let mut c = Canvas::new(&polys, &kinds_extent(g, &roles));
    let note = note_lines(g, &roles, &c);
    c.add_lines(note.len());
    let (width, height) = (c.width.clone(), c.height.clone());
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif, Noto Color Emoji, Apple Color Emoji, Segoe UI Emoji">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&g.name));
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    given_cells(&mut out, givens, &c, &polys);
    shades(&mut out, g, &roles, &c, &polys);
    diagonals(&mut out, g, &roles, &c);
    lines(&mut out, g, &roles, &c);
    cells(&mut out, g, &c, &polys);
    borders(&mut out, g, &roles, &c, &edges);
    outline_subgrids(&mut out, &subgrids(g), &c);
    kinds(&mut out, g, &roles, &c);
    for (i, s) in g.shapes.iter().enumerate() {
        if roles[i] == Role::Cage {
            cage(&mut out, g, s, &c, &polys, &edges);
        }
    }
    symbols(&mut out, g, givens, grid, &c, &polys);
    for (k, line) in note.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text class="note" x="{}" y="{}" font-size="{}" fill="#333333">{}</text>"##,
            num(MARGIN * SCALE),
            num(c.bottom + (k as f64 + 1.0) * NOTE_LINE * SCALE),
            num(NOTE_FONT * SCALE),
            escape(line)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The shapes the constraint kinds draw (each kind's `Kind::draw`).
fn kinds(out: &mut String, g: &Geometry, roles: &[Role], c: &Canvas) {
    let at = |p: Pt| {
        [
            (p[0] - c.x0 + MARGIN) * SCALE,
            (p[1] - c.y0 + MARGIN) * SCALE,
        ]
    };
    for (s, _) in g
        .shapes
        .iter()
        .zip(roles)
        .filter(|(_, r)| **r == Role::Kind)
    {
        let title = s.name.clone();
        let mut pen = crate::kinds::draw::Pen {
            out: &mut *out,
            scale: SCALE,
            at: &at,
            title,
        };
        crate::kinds::draw(s, g, &mut pen);
    }
}

/// The layout points the kinds draw at (clues outside the grid among them), so that the
/// canvas holds them: a dry run of [`kinds`] that records where it draws.
fn kinds_extent(g: &Geometry, roles: &[Role]) -> Vec<Pt> {
    let seen = std::cell::RefCell::new(Vec::new());
    let at = |p: Pt| {
        seen.borrow_mut().push(p);
        p
    };
    let mut scratch = String::new();
    for (s, _) in g
        .shapes
        .iter()
        .zip(roles)
        .filter(|(_, r)| **r == Role::Kind)
    {
        let title = String::new();
        let mut pen = crate::kinds::draw::Pen {
            out: &mut scratch,
            scale: 1.0,
            at: &at,
            title,
        };
        crate::kinds::draw(s, g, &mut pen);
        scratch.clear();
    }
    seen.into_inner()
}

/// The font size of the note under a picture, and its line height, in cell units.
const NOTE_FONT: f64 = 0.34;
const NOTE_LINE: f64 = 0.5;

/// The note under the picture naming the unique shapes that are not drawn (scattered cells,
/// such as the same place in every box), wrapped to the picture's width.
fn note_lines(g: &Geometry, roles: &[Role], c: &Canvas) -> Vec<String> {
    let names: Vec<&str> = g
        .shapes
        .iter()
        .zip(roles)
        .filter(|(_, r)| **r == Role::Pattern)
        .map(|(s, _)| s.name.as_str())
        .collect();
    let mut text = String::new();
    let patterns: Vec<&str> = (g.shapes.iter().zip(roles))
        .filter(|(s, r)| **r == Role::Kind && crate::kinds::of(&s.rule).is_pattern())
        .map(|(s, _)| s.name.as_str())
        .collect();
    if !patterns.is_empty() {
        text.push_str(&format!("Also: {}. ", patterns.join(", ")));
    }
    if roles.contains(&Role::Line) {
        text.push_str("Cells joined by a thin line hold different symbols. ");
    }
    if !names.is_empty() {
        text.push_str(&format!(
            "No symbol twice either in {} shape{} of scattered cells: {}.",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        ));
    }
    if text.is_empty() {
        return Vec::new();
    }
    // about 0.6 of the font size per character
    let per_line = ((c.span_x / (NOTE_FONT * 0.6)) as usize).max(20);
    let mut out: Vec<String> = vec![String::new()];
    for word in text.trim_end().split(' ') {
        let last = out.last_mut().expect("one line at least");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > per_line {
            out.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    out
}

/// The subtle lines of line shapes (pairs of cells, a hexagon's lines): from cell to cell in
/// order along the line, leaving out a circle around each cell's centre where its symbol is.
fn lines(out: &mut String, g: &Geometry, roles: &[Role], c: &Canvas) {
    /// The radius left free around a centre, in cell units.
    const GAP: f64 = 0.3;
    for (i, s) in g.shapes.iter().enumerate() {
        if roles[i] != Role::Line {
            continue;
        }
        let mut pos: Vec<Pt> = s.cells.iter().map(|cell| g.cell(*cell).pos).collect();
        let (a, b) = extremes(&pos);
        let along = |p: &Pt| (p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1]);
        pos.sort_by(|p, q| along(p).total_cmp(&along(q)));
        let mut d = String::new();
        for w in pos.windows(2) {
            let (p, q) = (w[0], w[1]);
            let len = ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)).sqrt();
            if len <= 2.0 * GAP {
                continue;
            }
            let u = [(q[0] - p[0]) / len, (q[1] - p[1]) / len];
            let from = [p[0] + u[0] * GAP, p[1] + u[1] * GAP];
            let to = [q[0] - u[0] * GAP, q[1] - u[1] * GAP];
            let _ = write!(d, "M{}L{}", c.pt(from), c.pt(to));
        }
        let _ = writeln!(
            out,
            r##"<path class="line" d="{d}" fill="none" stroke="#5f82c4" stroke-opacity="0.6" stroke-width="{}" stroke-linecap="round"><title>{}</title></path>"##,
            num(0.045 * SCALE),
            escape(&s.name)
        );
    }
}

/// Colours of the sub-grid outlines, in turn.
const GRID_COLOURS: [&str; 6] = [
    "#d1495b", "#2e8b57", "#3066be", "#d08c00", "#8e44ad", "#0e8a96",
];

/// An outline in its own colour around each square grid of a multi-grid layout, set in from
/// the grid's edge (further for a grid whose edge runs along an outlined one), so that a
/// person can tell where each grid ends.
fn outline_subgrids(out: &mut String, grids: &[Square], c: &Canvas) {
    if grids.len() < 2 {
        return;
    }
    // the edges drawn so far: (horizontal?, the line's coordinate, from, to, level)
    let mut drawn: Vec<(bool, i32, i32, i32, usize)> = Vec::new();
    for (k, q) in grids.iter().enumerate() {
        let (r0, c0, r1, c1) = (q.row, q.col, q.row + q.size, q.col + q.size);
        let sides = [
            (true, r0, c0, c1),
            (true, r1, c0, c1),
            (false, c0, r0, r1),
            (false, c1, r0, r1),
        ];
        let level = (0..)
            .find(|&l| {
                !drawn.iter().any(|&(h, at, a, b, used)| {
                    used == l
                        && sides
                            .iter()
                            .any(|&(h2, at2, a2, b2)| h == h2 && at == at2 && a < b2 && a2 < b)
                })
            })
            .expect("a free level");
        drawn.extend(sides.iter().map(|&(h, at, a, b)| (h, at, a, b, level)));
        let inset = 0.05 + 0.06 * level as f64;
        // board row r, column c is centred at (c - 1, r - 1)
        let (x0, y0) = (c0 as f64 - 1.5 + inset, r0 as f64 - 1.5 + inset);
        let side = q.size as f64 - 2.0 * inset;
        let _ = writeln!(
            out,
            r##"<rect class="subgrid" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="{}" stroke-opacity="0.85"><title>Grid of rows {}-{}, columns {}-{}</title></rect>"##,
            c.tx(x0),
            c.ty(y0),
            num(side * SCALE),
            num(side * SCALE),
            GRID_COLOURS[k % GRID_COLOURS.len()],
            num(0.07 * SCALE),
            r0,
            r1 - 1,
            c0,
            c1 - 1
        );
    }
}

/// The picture's coordinates: layout units (cell centres one apart) to pixels, with a margin.
struct Canvas {
    x0: f64,
    y0: f64,
    /// The layout's width in cell units, and where its drawing ends, in pixels.
    span_x: f64,
    bottom: f64,
    width: String,
    height: String,
}

impl Canvas {
    /// The canvas that holds every cell outline, and room around each of the `extra` points
    /// (where the kinds draw).
    fn new(polys: &[Vec<Pt>], extra: &[Pt]) -> Self {
        /// Room around an extra point, for a clue's text.
        const ROOM: f64 = 0.2;
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in polys.iter().flatten() {
            x0 = x0.min(p[0]);
            y0 = y0.min(p[1]);
            x1 = x1.max(p[0]);
            y1 = y1.max(p[1]);
        }
        for p in extra {
            x0 = x0.min(p[0] - ROOM);
            y0 = y0.min(p[1] - ROOM);
            x1 = x1.max(p[0] + ROOM);
            y1 = y1.max(p[1] + ROOM);
        }
        Canvas {
            x0,
            y0,
            span_x: x1 - x0,
            bottom: (y1 - y0 + MARGIN) * SCALE,
            width: num((x1 - x0 + 2.0 * MARGIN) * SCALE),
            height: num((y1 - y0 + 2.0 * MARGIN) * SCALE),
        }
    }

    /// Makes room for `n` lines of a note under the drawing.
    fn add_lines(&mut self, n: usize) {
        if n > 0 {
            let height = self.bottom + (n as f64 * NOTE_LINE + MARGIN + 0.15) * SCALE;
            self.height = num(height);
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

/// A light grey ground under the givens, so that they stand out whatever the symbols (emoji
/// are drawn in their own colours, neither bold nor blue).
fn given_cells(out: &mut String, givens: &[Option<u8>], c: &Canvas, polys: &[Vec<Pt>]) {
    for (i, v) in givens.iter().enumerate() {
        if v.is_some() {
            let _ = writeln!(
                out,
                r##"<polygon class="given-cell" points="{}" fill="#ececec"/>"##,
                c.points(&polys[i])
            );
        }
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
