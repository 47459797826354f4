//! How the kinds draw themselves in the SVG picture ([`super::Kind::draw`]): a [`Pen`] in
//! layout units (one unit between neighbouring cell centres) that writes SVG elements. The
//! picture (`render::svg`) calls every non-pattern constraint shape's kind after the cells and
//! borders, before the symbols; patterns are named in the note under the picture.

use std::fmt::Write;

use crate::geometry::{CellId, Geometry};
use crate::render::svg::escape;

/// A point in layout units.
pub(crate) type Pt = [f64; 2];

/// Writes SVG elements at layout positions.
pub(crate) struct Pen<'a> {
    pub(crate) out: &'a mut String,
    /// Pixels per layout unit.
    pub(crate) scale: f64,
    /// The pixel position of a layout point.
    pub(crate) at: &'a dyn Fn(Pt) -> Pt,
    /// The shape's name, as each element's tooltip.
    pub(crate) title: String,
}

fn n(v: f64) -> String {
    format!("{:.1}", v)
}

impl Pen<'_> {
    /// The centre of a cell.
    pub(crate) fn centre(g: &Geometry, c: CellId) -> Pt {
        g.cell(c).pos
    }

    /// A polyline through `pts` (`width` in layout units).
    pub(crate) fn line(&mut self, pts: &[Pt], colour: &str, width: f64, opacity: f64) {
        let points: Vec<String> = pts
            .iter()
            .map(|&p| {
                let q = (self.at)(p);
                format!("{},{}", n(q[0]), n(q[1]))
            })
            .collect();
        let _ = writeln!(
            self.out,
            r#"<polyline class="kind" points="{}" fill="none" stroke="{colour}" stroke-opacity="{opacity}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"><title>{}</title></polyline>"#,
            points.join(" "),
            n(width * self.scale),
            escape(&self.title)
        );
    }

    /// A circle of radius `r` (layout units).
    pub(crate) fn circle(&mut self, p: Pt, r: f64, fill: &str, stroke: &str) {
        let q = (self.at)(p);
        let _ = writeln!(
            self.out,
            r#"<circle class="kind" cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="{}"><title>{}</title></circle>"#,
            n(q[0]),
            n(q[1]),
            n(r * self.scale),
            n(0.03 * self.scale),
            escape(&self.title)
        );
    }

    /// A square of side `2 r` centred on `p`.
    pub(crate) fn square(&mut self, p: Pt, r: f64, fill: &str) {
        let q = (self.at)([p[0] - r, p[1] - r]);
        let _ = writeln!(
            self.out,
            r#"<rect class="kind" x="{}" y="{}" width="{}" height="{}" fill="{fill}"><title>{}</title></rect>"#,
            n(q[0]),
            n(q[1]),
            n(2.0 * r * self.scale),
            n(2.0 * r * self.scale),
            escape(&self.title)
        );
    }

    /// Text centred on `p`, `size` layout units high.
    pub(crate) fn text(&mut self, p: Pt, size: f64, text: &str) {
        let q = (self.at)(p);
        let _ = writeln!(
            self.out,
            r##"<text class="kind" x="{}" y="{}" font-size="{}" text-anchor="middle" dominant-baseline="central" fill="#222222">{}<title>{}</title></text>"##,
            n(q[0]),
            n(q[1]),
            n(size * self.scale),
            escape(text),
            escape(&self.title)
        );
    }
}

/// The midpoint of two cells (where a dot or a letter between them goes).
pub(crate) fn between(g: &Geometry, a: CellId, b: CellId) -> Pt {
    let (p, q) = (g.cell(a).pos, g.cell(b).pos);
    [(p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0]
}

/// Where a line's clue is written: one step before its first cell, outside the grid, when no
/// cell is there; otherwise inside its first cell, at the edge away from the line. The picture
/// grows its canvas to hold what the kinds draw outside the cells.
pub(crate) fn before(g: &Geometry, cells: &[CellId]) -> Pt {
    let p = g.cell(cells[0]).pos;
    let Some(&next) = cells.get(1) else {
        return [p[0], p[1] - 0.34];
    };
    let q = g.cell(next).pos;
    let step = [p[0] - q[0], p[1] - q[1]];
    let outside = [p[0] + 0.8 * step[0], p[1] + 0.8 * step[1]];
    let taken = (0..g.cell_count() as u32).any(|c| {
        let r = g.cell(CellId(c)).pos;
        (r[0] - outside[0]).abs() < 0.5 && (r[1] - outside[1]).abs() < 0.5
    });
    if taken {
        [p[0] + 0.34 * step[0], p[1] + 0.34 * step[1]]
    } else {
        outside
    }
}

/// An arrowhead at `tip`, pointing away from `from` (`size` and the stroke's `width` in layout
/// units).
pub(crate) fn arrowhead(pen: &mut Pen, from: Pt, tip: Pt, size: f64, width: f64, colour: &str) {
    let (dx, dy) = (tip[0] - from[0], tip[1] - from[1]);
    let len = (dx * dx + dy * dy).sqrt();
    if len == 0.0 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let (cos, sin) = (0.819, 0.574); // 35 degrees either side of the shaft
    let wing = |s: f64| {
        let (rx, ry) = (ux * cos - s * uy * sin, s * ux * sin + uy * cos);
        [tip[0] - size * rx, tip[1] - size * ry]
    };
    pen.line(&[wing(1.0), tip, wing(-1.0)], colour, width, 0.9);
}

/// A line's clue, the number `clue`, written before its first cell (little killers,
/// sandwiches, skyscrapers).
pub(crate) fn clue(g: &Geometry, cells: &[CellId], clue: i64, pen: &mut Pen) {
    let (at, first) = (before(g, cells), g.cell(cells[0]).pos);
    let outside = (at[0] - first[0]).hypot(at[1] - first[1]) > 0.5;
    pen.text(at, if outside { 0.36 } else { 0.24 }, &clue.to_string());
}

/// The default drawing: a grey line through the cells in order.
pub(crate) fn path(g: &Geometry, cells: &[CellId], pen: &mut Pen) {
    let pts: Vec<Pt> = cells.iter().map(|&c| Pen::centre(g, c)).collect();
    if pts.len() == 1 {
        pen.circle(pts[0], 0.42, "none", "#777777");
    } else {
        pen.line(&pts, "#888888", 0.16, 0.55);
    }
}
