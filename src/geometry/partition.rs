//! Partitions: the law of 45, generalised and geometry-free.
//!
//! A union of pairwise disjoint *complete* shapes (rows, columns, boxes, regions, a Samurai
//! sub-grid's rows, ...) holds every symbol once per shape, so its cells add up to
//! `shapes × (sum of all symbol values)`. Subtracting the sum shapes (cages) lying wholly inside
//! the union leaves the **innie** cells with a known total; adding the cages that stick out and
//! subtracting the union's total leaves the **outie** cells with a known total. Each innie or
//! outie with at most [`MAX_LEFTOVER`] cells becomes a derived sum shape; larger ones are useless
//! for propagation. A derived shape is unique only when its cells lie inside one unique shape.
//!
//! Which unions are tried: every complete shape, then unions of up to [`MAX_UNION`] pairwise
//! disjoint complete shapes grown one shape at a time through "nearby" shapes (two shapes are
//! nearby when a cage touches both). Unions with the same cells are tried once. Only cages that
//! are disjoint from each other are used in the subtraction (the first of two overlapping sum
//! shapes wins), so overlapping sum shapes are handled soundly.
//!
//! [`derive`] returns the derived shapes (found once, at engine construction); [`check`] reports
//! cage totals that contradict a complete shape's total (a shape exactly tiled by cages with the
//! wrong total, or cages tiling the whole board with the wrong grand total). To try more unions,
//! grow them in [`unions`]; nothing else changes.

use std::collections::{BTreeSet, HashSet};

use super::{CellId, Geometry, GeometryError, Rule, Shape, ShapeKind};

/// Derived shapes with more cells than this are dropped.
pub const MAX_LEFTOVER: usize = 3;
/// Unions of at most this many complete shapes are tried.
pub const MAX_UNION: usize = 4;
/// At most this many unions are kept per union size.
const MAX_PER_LEVEL: usize = 3000;

/// A set of cells as a bitset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn of(n: usize, cells: &[CellId]) -> Self {
        let mut b = Bits::new(n);
        for c in cells {
            b.0[c.index() / 64] |= 1 << (c.index() % 64);
        }
        b
    }
    fn union_with(&mut self, o: &Bits) {
        self.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a |= b);
    }
    fn minus(&self, o: &Bits) -> Bits {
        Bits(self.0.iter().zip(&o.0).map(|(a, b)| a & !b).collect())
    }
    fn disjoint(&self, o: &Bits) -> bool {
        self.0.iter().zip(&o.0).all(|(a, b)| a & b == 0)
    }
    fn subset_of(&self, o: &Bits) -> bool {
        self.0.iter().zip(&o.0).all(|(a, b)| a & !b == 0)
    }
    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    fn cells(&self) -> Vec<CellId> {
        let mut out = Vec::new();
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push(CellId((i * 64) as u32 + w.trailing_zeros()));
                w &= w - 1;
            }
        }
        out
    }
}

/// The pieces the derivation works on.
struct Parts<'g> {
    g: &'g Geometry,
    /// Complete shapes: (shape index, cells).
    complete: Vec<(usize, Bits)>,
    /// Pairwise disjoint sum shapes: (shape index, cells, total).
    cages: Vec<(usize, Bits, i64)>,
    /// Sum of all symbol values (the total of one complete shape).
    full_total: i64,
}

impl<'g> Parts<'g> {
    fn new(g: &'g Geometry) -> Self {
        let n = g.cell_count();
        let complete = g
            .shapes
            .iter()
            .enumerate()
            .filter(|(_, s)| g.is_complete(s))
            .map(|(i, s)| (i, Bits::of(n, &s.cells)))
            .collect();
        let mut used = Bits::new(n);
        let mut cages = Vec::new();
        for (i, s) in g.shapes.iter().enumerate() {
            if let Rule::Sum { total, .. } = s.rule {
                let b = Bits::of(n, &s.cells);
                if b.disjoint(&used) {
                    used.union_with(&b);
                    cages.push((i, b, total));
                }
            }
        }
        Parts {
            g,
            complete,
            cages,
            full_total: g.symbols.values().iter().sum(),
        }
    }
}

/// One union of complete shapes, with what the cages say about it.
struct Region {
    /// Indices into `Parts::complete`.
    members: Vec<usize>,
    /// Cells not covered by cages wholly inside, and their total.
    innie: (Bits, i64),
    /// Cells of the cages sticking out that lie outside, and their total, when the cages that
    /// touch the region cover it entirely.
    outie: Option<(Bits, i64)>,
}

fn analyse(p: &Parts, members: Vec<usize>, cells: Bits) -> Region {
    let n = p.g.cell_count();
    let total = members.len() as i64 * p.full_total;
    let mut inside = Bits::new(n);
    let mut inside_total = 0;
    let mut touching = Bits::new(n);
    let mut touching_total = 0;
    for (_, b, t) in &p.cages {
        if b.subset_of(&cells) {
            inside.union_with(b);
            inside_total += t;
        } else if !b.disjoint(&cells) {
            touching.union_with(b);
            touching_total += t;
        }
    }
    let innie = (cells.minus(&inside), total - inside_total);
    let mut covered = inside.clone();
    covered.union_with(&touching);
    let outie = cells
        .subset_of(&covered)
        .then(|| (touching.minus(&cells), inside_total + touching_total - total));
    Region {
        members,
        innie,
        outie,
    }
}

/// Unions of pairwise disjoint complete shapes, grown through nearby shapes, deduplicated by cells.
fn unions(p: &Parts) -> Vec<Region> {
    let k = p.complete.len();
    // nearby[a]: complete shapes sharing a cage with a, and disjoint from a
    let touches: Vec<Vec<usize>> = p
        .complete
        .iter()
        .map(|(_, b)| {
            p.cages
                .iter()
                .enumerate()
                .filter(|(_, (_, c, _))| !c.disjoint(b))
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let nearby: Vec<Vec<usize>> = (0..k)
        .map(|a| {
            (0..k)
                .filter(|&b| {
                    b != a
                        && p.complete[a].1.disjoint(&p.complete[b].1)
                        && touches[a].iter().any(|c| touches[b].contains(c))
                })
                .collect()
        })
        .collect();
    let mut seen: HashSet<Bits> = HashSet::new();
    let mut out = Vec::new();
    let mut level: BTreeSet<Vec<usize>> = (0..k).map(|a| vec![a]).collect();
    for size in 1..=MAX_UNION {
        let mut next: BTreeSet<Vec<usize>> = BTreeSet::new();
        for members in &level {
            let mut cells = Bits::new(p.g.cell_count());
            for &m in members {
                cells.union_with(&p.complete[m].1);
            }
            if size < MAX_UNION && next.len() < MAX_PER_LEVEL {
                for &m in members {
                    for &b in &nearby[m] {
                        if !members.contains(&b) && p.complete[b].1.disjoint(&cells) {
                            let mut grown = members.clone();
                            grown.push(b);
                            grown.sort_unstable();
                            next.insert(grown);
                        }
                    }
                }
            }
            if seen.insert(cells.clone()) {
                out.push(analyse(p, members.clone(), cells));
            }
        }
        level = next;
        if level.is_empty() {
            break;
        }
    }
    out
}

/// The name of a union: its shapes' names joined.
fn region_name(p: &Parts, r: &Region) -> String {
    let names: Vec<&str> = r
        .members
        .iter()
        .map(|&m| p.g.shapes[p.complete[m].0].name.as_str())
        .collect();
    names.join(" + ")
}

/// Whether some unique shape of `g` holds all of `cells`.
fn inside_one_unique(g: &Geometry, cells: &[CellId]) -> bool {
    g.shapes
        .iter()
        .any(|s| s.is_unique() && cells.iter().all(|c| s.cells.contains(c)))
}

/// The derived innie and outie sum shapes of a geometry (empty when it has no sum shapes).
pub fn derive(g: &Geometry) -> Vec<Shape> {
    if !g.shapes.iter().any(|s| matches!(s.rule, Rule::Sum { .. })) {
        return Vec::new();
    }
    let p = Parts::new(g);
    if p.complete.is_empty() || p.cages.is_empty() {
        return Vec::new();
    }
    let mut existing: HashSet<(Vec<CellId>, i64)> = g
        .shapes
        .iter()
        .filter_map(|s| match s.rule {
            Rule::Sum { total, .. } => {
                let mut c = s.cells.clone();
                c.sort_unstable();
                Some((c, total))
            }
            Rule::Unique => None,
        })
        .collect();
    let mut out = Vec::new();
    for r in unions(&p) {
        let mut candidates = vec![("Innie", &r.innie.0, r.innie.1)];
        if let Some((cells, total)) = &r.outie {
            candidates.push(("Outie", cells, *total));
        }
        for (what, cells, total) in candidates {
            let size = cells.count();
            if size == 0 || size > MAX_LEFTOVER {
                continue;
            }
            let cells = cells.cells();
            if !existing.insert((cells.clone(), total)) {
                continue;
            }
            let unique = inside_one_unique(g, &cells);
            out.push(Shape {
                name: format!("{what} of {}", region_name(&p, &r)),
                rule: Rule::Sum { total, unique },
                cells,
                kind: ShapeKind::Cage,
            });
        }
    }
    out
}

/// Rejects cage totals that contradict complete shapes: a complete shape exactly tiled by
/// (disjoint) sum shapes whose totals do not add up to the shape's total, and sum shapes tiling
/// a union of disjoint complete shapes that covers every cell with the wrong grand total.
pub fn check(g: &Geometry) -> Result<(), GeometryError> {
    if !g.shapes.iter().any(|s| matches!(s.rule, Rule::Sum { .. })) {
        return Ok(());
    }
    let p = Parts::new(g);
    let n = g.cell_count();
    for (i, (s, cells)) in p.complete.iter().enumerate() {
        let r = analyse(&p, vec![i], cells.clone());
        if r.innie.0.count() == 0 && r.innie.1 != 0 {
            let shape = &g.shapes[*s];
            let names: Vec<&str> = p
                .cages
                .iter()
                .filter(|(_, b, _)| b.subset_of(cells))
                .map(|(j, _, _)| g.shapes[*j].name.as_str())
                .collect();
            return Err(GeometryError::Invalid(format!(
                "the sum shapes {} exactly cover '{}' and add up to {}, but its cells must add up to {}",
                names.join(", "),
                shape.name,
                p.full_total - r.innie.1,
                p.full_total
            )));
        }
    }
    // grand total: sum shapes covering every cell, and a greedy tiling by complete shapes
    let mut covered = Bits::new(n);
    let mut cage_total = 0;
    for (_, b, t) in &p.cages {
        covered.union_with(b);
        cage_total += t;
    }
    if covered.count() == n {
        let mut tiled = Bits::new(n);
        let mut m = 0i64;
        for (_, b) in &p.complete {
            if b.disjoint(&tiled) {
                tiled.union_with(b);
                m += 1;
            }
        }
        if tiled.count() == n && cage_total != m * p.full_total {
            return Err(GeometryError::Invalid(format!(
                "the sum shapes cover every cell and add up to {cage_total}, but the whole grid must add up to {}",
                m * p.full_total
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::build;

    fn killer(cages: &str) -> Geometry {
        build::from_toml(&format!(
            "name = \"k\"\nsymbols = \"123456789\"\n[[grid]]\nsize = 9\nboxes = [3, 3]\n{cages}"
        ))
        .unwrap()
    }

    #[test]
    fn innie_of_a_row() {
        // row 1: cages cover r1c1-8, leaving r1c9 = 45 - (3 + 7 + 12 + 17) = 6
        let g = killer(
            "[[cage]]\ncells = \"r1c1-2\"\nsum = 3\n[[cage]]\ncells = \"r1c3-4\"\nsum = 7\n\
             [[cage]]\ncells = \"r1c5-6\"\nsum = 12\n[[cage]]\ncells = \"r1c7-8\"\nsum = 17\n",
        );
        let d = derive(&g);
        let innie = d
            .iter()
            .find(|s| s.name == "Innie of Row 1")
            .expect("innie of row 1");
        assert_eq!(innie.cells, vec![g.cell_id("r1c9").unwrap()]);
        assert_eq!(
            innie.rule,
            Rule::Sum {
                total: 6,
                unique: true
            }
        );
    }

    #[test]
    fn outie_of_a_row() {
        // cages cover row 1 and stick out into r2c1 and r2c9
        let g = killer(
            "[[cage]]\ncells = \"r1c1-4 r2c1\"\nsum = 20\n[[cage]]\ncells = \"r1c5-9 r2c9\"\nsum = 34\n",
        );
        let d = derive(&g);
        let outie = d
            .iter()
            .find(|s| s.name == "Outie of Row 1")
            .expect("outie");
        let want: Vec<CellId> = ["r2c1", "r2c9"]
            .iter()
            .map(|c| g.cell_id(c).unwrap())
            .collect();
        assert_eq!(outie.cells, want);
        assert_eq!(
            outie.rule,
            Rule::Sum {
                total: 9,
                unique: true
            }
        );
    }

    #[test]
    fn overlapping_sum_shapes_use_the_first() {
        let g = killer(
            "[[shape]]\ncells = \"r1c1-8\"\nrule = \"sum\"\nsum = 40\nunique = true\n\
             [[shape]]\ncells = \"r1c8-9\"\nrule = \"sum\"\nsum = 10\n",
        );
        let d = derive(&g);
        let innie = d.iter().find(|s| s.name == "Innie of Row 1").unwrap();
        assert_eq!(innie.cells, vec![g.cell_id("r1c9").unwrap()]);
        assert_eq!(
            innie.rule,
            Rule::Sum {
                total: 5,
                unique: true
            }
        );
    }

    #[test]
    fn check_rejects_a_row_tiled_with_the_wrong_total() {
        let text = "name = \"k\"\nsymbols = \"123456789\"\n[[grid]]\nsize = 9\n\
                    [[cage]]\ncells = \"r1c1-5\"\nsum = 20\n[[cage]]\ncells = \"r1c6-9\"\nsum = 26\n";
        let e = build::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("'Row 1'") && e.contains("46"), "{e}");
    }
}
