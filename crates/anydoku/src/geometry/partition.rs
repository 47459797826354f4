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
//! disjoint complete shapes connected through "nearby" shapes (two shapes are nearby when a
//! cage touches both), each enumerated once by ESU (see `unions`). Unions with the same cells are tried once. The
//! cages lying wholly inside each complete shape are found once, so a union only looks at the
//! cages that cross its members' edges. Only cages that are disjoint from each other are used in
//! the subtraction (the first of two overlapping sum shapes wins), so overlapping sum shapes are
//! handled soundly.
//!
//! [`derive()`] returns the derived shapes (found once, at engine construction); [`check`] reports
//! cage totals that contradict a complete shape's total (a shape exactly tiled by cages with the
//! wrong total, or cages tiling the whole board with the wrong grand total). To try more unions,
//! grow them in `unions`; nothing else changes.

use rustc_hash::FxHashSet;

use super::{CellId, Geometry, GeometryError, Rule, Shape, ShapeKind};

/// Derived shapes with more cells than this are dropped.
pub const MAX_LEFTOVER: usize = 3;
/// Unions of at most this many complete shapes are tried.
pub const MAX_UNION: usize = 3;
/// At most this many unions are kept per union size.
const MAX_PER_LEVEL: usize = 3000;

/// Geometries with more cells than this get no derived shapes (bitsets stay on the stack).
pub const MAX_CELLS: usize = 64 * 16;

/// A set of cells as a fixed-size bitset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Bits<const W: usize>([u64; W]);

impl<const W: usize> Bits<W> {
    fn new(_n: usize) -> Self {
        Bits([0; W])
    }
    fn of(n: usize, cells: &[CellId]) -> Self {
        let mut b = Bits::new(n);
        for c in cells {
            b.0[c.index() / 64] |= 1 << (c.index() % 64);
        }
        b
    }
    fn union_with(&mut self, o: &Bits<W>) {
        self.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a |= b);
    }
    fn minus(&self, o: &Bits<W>) -> Bits<W> {
        let mut r = *self;
        r.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a &= !b);
        r
    }
    fn disjoint(&self, o: &Bits<W>) -> bool {
        self.0.iter().zip(&o.0).all(|(a, b)| a & b == 0)
    }
    fn subset_of(&self, o: &Bits<W>) -> bool {
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
struct Parts<'g, const W: usize> {
    g: &'g Geometry,
    /// Complete shapes: (shape index, cells).
    complete: Vec<(usize, Bits<W>)>,
    /// Pairwise disjoint sum shapes: (shape index, cells, total).
    cages: Vec<(usize, Bits<W>, i64)>,
    /// Sum of all symbol values (the total of one complete shape).
    full_total: i64,
    /// 64-bit words per set of cages.
    cage_words: usize,
    /// `cage_words` words per complete shape: the cages sharing a cell with it.
    touches: Vec<u64>,
    /// `cage_words` words per complete shape: the cages lying wholly inside it.
    within: Vec<u64>,
    /// Per complete shape, the cells and the total of the cages lying wholly inside it.
    within_sum: Vec<(Bits<W>, i64)>,
}

impl<'g, const W: usize> Parts<'g, W> {
    fn new(g: &'g Geometry) -> Self {
        let n = g.cell_count();
        let complete: Vec<(usize, Bits<W>)> = g
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
        let cage_words = cages.len().div_ceil(64);
        let mut touches = vec![0u64; complete.len() * cage_words];
        let mut within = vec![0u64; complete.len() * cage_words];
        let mut within_sum = vec![(Bits::new(n), 0); complete.len()];
        for (m, (_, shape)) in complete.iter().enumerate() {
            for (c, (_, cells, total)) in cages.iter().enumerate() {
                let bit = 1u64 << (c % 64);
                if cells.subset_of(shape) {
                    within[m * cage_words + c / 64] |= bit;
                    within_sum[m].0.union_with(cells);
                    within_sum[m].1 += total;
                }
                if !cells.disjoint(shape) {
                    touches[m * cage_words + c / 64] |= bit;
                }
            }
        }
        Parts {
            g,
            complete,
            cages,
            full_total: g.symbols.values().iter().sum(),
            cage_words,
            touches,
            within,
            within_sum,
        }
    }

    /// Whether complete shapes `a` and `b` share a cage.
    fn share_a_cage(&self, a: usize, b: usize) -> bool {
        let w = self.cage_words;
        (0..w).any(|i| self.touches[a * w + i] & self.touches[b * w + i] != 0)
    }
}

/// Up to [`MAX_UNION`] indices into `Parts::complete`, sorted, packed 16 bits each (index + 1,
/// so 0 marks an unused slot): a cheap key for "this union was already tried".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Members(u64);

impl Members {
    fn one(a: usize) -> Self {
        Members(a as u64 + 1)
    }
    fn iter(self) -> impl Iterator<Item = usize> {
        (0..4)
            .map(move |i| (self.0 >> (16 * i)) & 0xffff)
            .take_while(|&m| m != 0)
            .map(|m| m as usize - 1)
    }
    /// The members plus `b`, still sorted.
    fn with(self, b: usize) -> Self {
        let b = b as u64 + 1;
        // slots below `b` stay, the rest move up one slot
        let mut below = 0;
        while below < 4
            && (self.0 >> (16 * below)) & 0xffff != 0
            && (self.0 >> (16 * below)) & 0xffff < b
        {
            below += 1;
        }
        debug_assert!(below < 4, "a union has at most four members");
        let low_mask = (1u64 << (16 * below.min(3))) - 1;
        Members((self.0 & low_mask) | b << (16 * below) | (self.0 & !low_mask) << 16)
    }
}

/// One union of complete shapes, with what the cages say about it.
struct Region<const W: usize> {
    members: Members,
    /// Cells not covered by cages wholly inside, and their total.
    innie: (Bits<W>, i64),
    /// Cells of the cages sticking out that lie outside, and their total, when the cages that
    /// touch the region cover it entirely.
    outie: Option<(Bits<W>, i64)>,
    /// The cells and the total of the cages that touch the union without lying inside it.
    touching: (Bits<W>, i64),
}

/// Innie and outie of the union `members` of complete shapes, whose cells are `cells`. The
/// cages wholly inside one member are known in advance; only the others that touch the union
/// are looked at one by one.
fn analyse<const W: usize>(p: &Parts<W>, members: Members, cells: Bits<W>) -> Region<W> {
    let n = p.g.cell_count();
    let total = members.iter().count() as i64 * p.full_total;
    let mut inside = Bits::new(n);
    let mut inside_total = 0;
    let mut touching = Bits::new(n);
    let mut touching_total = 0;
    let cw = p.cage_words;
    for word in 0..cw {
        let (mut touch, mut within) = (0, 0);
        for m in members.iter() {
            touch |= p.touches[m * cw + word];
            within |= p.within[m * cw + word];
        }
        // the cages touching the union and not inside one member: inside the union, or
        // sticking out of it
        let mut others = touch & !within;
        while others != 0 {
            let (_, b, t) = &p.cages[word * 64 + others.trailing_zeros() as usize];
            others &= others - 1;
            if b.subset_of(&cells) {
                inside.union_with(b);
                inside_total += t;
            } else {
                touching.union_with(b);
                touching_total += t;
            }
        }
    }
    for m in members.iter() {
        let (b, t) = &p.within_sum[m];
        inside.union_with(b);
        inside_total += t;
    }
    let innie = (cells.minus(&inside), total - inside_total);
    let mut covered = inside;
    covered.union_with(&touching);
    let outie = cells.subset_of(&covered).then(|| {
        (
            touching.minus(&cells),
            inside_total + touching_total - total,
        )
    });
    Region {
        members,
        innie,
        outie,
        touching: (touching, touching_total),
    }
}

/// Unions of pairwise disjoint complete shapes, connected through nearby shapes, deduplicated
/// by cells: `found` gets each one's region, all unions of one shape first, then of two, and so
/// on (so a derived shape is named after the smallest union that gives it).
///
/// Each size is enumerated with ESU (Wernicke, "Efficient detection of network motifs", 2006):
/// a union grows from its lowest member only through shapes of higher index that are nearby
/// to the newest member and to no earlier one, which reaches every connected set of shapes
/// exactly once, without remembering the sets already seen. Pairwise disjointness is checked
/// as a union grows; it holds for every part of a disjoint union, so no union is missed.
fn unions<const W: usize>(p: &Parts<W>, max_union: usize, mut found: impl FnMut(Region<W>)) {
    let k = p.complete.len();
    let mut esu = Esu {
        p,
        kw: k.div_ceil(64),
        nearby: Vec::new(),
        scratch: Vec::new(),
        seen_cells: FxHashSet::with_capacity_and_hasher(1024, Default::default()),
        kept: 0,
    };
    let kw = esu.kw;
    esu.nearby = vec![0u64; k * kw];
    for a in 0..k {
        for b in a + 1..k {
            if p.share_a_cage(a, b) && p.complete[a].1.disjoint(&p.complete[b].1) {
                esu.nearby[a * kw + b / 64] |= 1 << (b % 64);
                esu.nearby[b * kw + a / 64] |= 1 << (a % 64);
            }
        }
    }
    // `Members` holds four
    let max_union = max_union.clamp(1, 4);
    // per depth: the candidates to grow by, and the members with their nearby shapes
    esu.scratch = vec![0u64; 2 * kw * max_union];
    for size in 1..=max_union {
        esu.kept = 0;
        for v in 0..k {
            // the shapes nearby to `v` with a higher index, and `v` with its nearby shapes
            let (ext, closed) = esu.scratch[..2 * kw].split_at_mut(kw);
            for w in 0..kw {
                let near = esu.nearby[v * kw + w];
                ext[w] = near & above(v, w);
                closed[w] = near;
            }
            closed[v / 64] |= 1 << (v % 64);
            esu.grow(Members::one(v), p.complete[v].1, v, 1, size, &mut found);
            if esu.kept >= MAX_PER_LEVEL {
                break;
            }
        }
    }
}

/// Word `word` of the set of shapes with an index above `v`.
fn above(v: usize, word: usize) -> u64 {
    match word.cmp(&(v / 64)) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Equal => !0u64 << (v % 64) << 1,
        std::cmp::Ordering::Greater => !0,
    }
}

/// The state of the union enumeration in [`unions`].
struct Esu<'a, 'g, const W: usize> {
    p: &'a Parts<'g, W>,
    /// 64-bit words per set of complete shapes.
    kw: usize,
    /// `kw` words per complete shape: the shapes nearby to it.
    nearby: Vec<u64>,
    /// Per depth, two sets of `kw` words: the shapes a union may still grow by, and its members
    /// with every shape nearby to one of them.
    scratch: Vec<u64>,
    seen_cells: FxHashSet<Bits<W>>,
    /// Unions of the current size analysed so far.
    kept: usize,
}

impl<const W: usize> Esu<'_, '_, W> {
    /// Grows the union `members` (with cells `cells`, lowest member `v`, `depth` members; its
    /// candidates and neighbourhood at depth `depth` of the scratch space) to `size` members,
    /// analysing each union of that size once.
    fn grow(
        &mut self,
        members: Members,
        cells: Bits<W>,
        v: usize,
        depth: usize,
        size: usize,
        found: &mut impl FnMut(Region<W>),
    ) {
        if depth == size {
            if self.seen_cells.insert(cells) {
                found(analyse(self.p, members, cells));
                self.kept += 1;
            }
            return;
        }
        let kw = self.kw;
        let (at, next) = (2 * kw * (depth - 1), 2 * kw * depth);
        for word in 0..kw {
            loop {
                let bits = self.scratch[at + word];
                if bits == 0 || self.kept >= MAX_PER_LEVEL {
                    break;
                }
                let w = word * 64 + bits.trailing_zeros() as usize;
                self.scratch[at + word] = bits & (bits - 1);
                let shape = self.p.complete[w].1;
                if !shape.disjoint(&cells) {
                    continue;
                }
                // candidates: the rest, plus the shapes nearby to `w` above `v` that are not
                // members or nearby to one
                for i in 0..kw {
                    let near = self.nearby[w * kw + i];
                    let closed = self.scratch[at + kw + i];
                    self.scratch[next + i] = self.scratch[at + i] | (near & above(v, i) & !closed);
                    self.scratch[next + kw + i] = closed | near;
                }
                let mut grown = cells;
                grown.union_with(&shape);
                self.grow(members.with(w), grown, v, depth + 1, size, found);
            }
        }
    }
}

/// The name of a union: its shapes' names joined.
fn region_name<const W: usize>(p: &Parts<W>, r: &Region<W>) -> String {
    let names: Vec<&str> = r
        .members
        .iter()
        .map(|m| p.g.shapes[p.complete[m].0].name.as_str())
        .collect();
    names.join(" + ")
}

/// The derived innie and outie sum shapes of a geometry (empty when it has no sum shapes).
pub fn derive(g: &Geometry) -> Vec<Shape> {
    derive_with(g, MAX_UNION)
}

/// [`derive()`] with unions of at most `max_union` complete shapes.
pub fn derive_with(g: &Geometry, max_union: usize) -> Vec<Shape> {
    derive_named(g, max_union, MAX_LEFTOVER, true)
}

/// [`derive()`] with the shapes' names left empty: what the engine uses (it never shows a name,
/// and naming every derived shape was a measurable part of building a Killer's engine).
pub fn derive_unnamed(g: &Geometry) -> Vec<Shape> {
    derive_named(g, MAX_UNION, MAX_LEFTOVER, false)
}

fn derive_named(g: &Geometry, max_union: usize, max_leftover: usize, named: bool) -> Vec<Shape> {
    derive_any(g, max_union, max_leftover, named, None, None)
}

/// [`derive_unnamed`], each shape with the cells of the union of complete shapes it comes
/// from: it holds while every cage meeting those cells or its own is there.
pub fn derive_sourced(g: &Geometry) -> Vec<(Shape, Vec<CellId>)> {
    let mut sources = Vec::new();
    let shapes = derive_any(g, MAX_UNION, MAX_LEFTOVER, false, None, Some(&mut sources));
    shapes.into_iter().zip(sources).collect()
}

/// A law-of-45 equation that the logic reasons about by ranges: the `plus` cells add up to
/// `total` more than the `minus` cells (an innie of any size, or innies minus outies).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Linear {
    /// "Rows 1 + 2" style: the union's shapes' names joined.
    pub name: String,
    /// The complete shapes of the union (geometry shape indices).
    pub members: Vec<usize>,
    /// Cells counted positively.
    pub plus: Vec<CellId>,
    /// Cells counted negatively.
    pub minus: Vec<CellId>,
    /// `sum(plus) - sum(minus)`.
    pub total: i64,
}

/// The derived sum shapes of up to `max_leftover` cells (the logical rules reason about larger
/// innies and outies by their sums' ranges), and besides them
/// every other innie and every "innies minus outies" equation of the same unions with at most
/// `max_linear` cells (for the logic's range reasoning).
pub fn derive_with_linear(
    g: &Geometry,
    max_leftover: usize,
    max_linear: usize,
) -> (Vec<Shape>, Vec<Linear>) {
    let mut linear = Vec::new();
    let linear_out = Some((&mut linear, max_linear));
    let shapes = derive_any(g, MAX_UNION, max_leftover, true, linear_out, None);
    (shapes, linear)
}

type LinearOut<'a> = Option<(&'a mut Vec<Linear>, usize)>;

/// Where [`derive_sourced`] collects each derived shape's union cells.
type Sources<'a> = Option<&'a mut Vec<Vec<CellId>>>;

fn derive_any(
    g: &Geometry,
    max_union: usize,
    max_leftover: usize,
    named: bool,
    linear: LinearOut,
    sources: Sources,
) -> Vec<Shape> {
    match g.cell_count() {
        0..=128 => derive_in::<2>(g, max_union, max_leftover, named, linear, sources),
        129..=256 => derive_in::<4>(g, max_union, max_leftover, named, linear, sources),
        257..=512 => derive_in::<8>(g, max_union, max_leftover, named, linear, sources),
        513..=MAX_CELLS => derive_in::<16>(g, max_union, max_leftover, named, linear, sources),
        _ => Vec::new(),
    }
}

fn derive_in<const W: usize>(
    g: &Geometry,
    max_union: usize,
    max_leftover: usize,
    named: bool,
    mut linear: LinearOut,
    mut sources: Sources,
) -> Vec<Shape> {
    if !g.shapes.iter().any(|s| matches!(s.rule, Rule::Sum { .. })) {
        return Vec::new();
    }
    let p = Parts::<W>::new(g);
    if p.complete.is_empty() || p.cages.is_empty() {
        return Vec::new();
    }
    let n = g.cell_count();
    // sum shapes already there (by cells and total), and the cells of every unique shape (a
    // derived shape inside one is unique too)
    let mut existing: FxHashSet<(Bits<W>, i64)> = g
        .shapes
        .iter()
        .filter_map(|s| match s.rule {
            Rule::Sum { total, .. } => Some((Bits::of(n, &s.cells), total)),
            _ => None,
        })
        .collect();
    let unique: Vec<Bits<W>> = g
        .shapes
        .iter()
        .filter(|s| s.is_unique())
        .map(|s| Bits::of(n, &s.cells))
        .collect();
    let mut out = Vec::new();
    let mut seen_linear: FxHashSet<(Bits<W>, Bits<W>, i64)> = FxHashSet::default();
    unions(&p, max_union, |r| {
        if let Some((list, max_linear)) = linear.as_mut() {
            add_linear(&p, &r, *max_linear, max_leftover, &mut seen_linear, list);
        }
        let outie = r
            .outie
            .as_ref()
            .map(|(cells, total)| ("Outie", cells, *total));
        for (what, cells, total) in [Some(("Innie", &r.innie.0, r.innie.1)), outie]
            .into_iter()
            .flatten()
        {
            let size = cells.count();
            if size == 0 || size > max_leftover || !existing.insert((*cells, total)) {
                continue;
            }
            if let Some(list) = sources.as_mut() {
                let mut union = Bits::<W>::new(n);
                for m in r.members.iter() {
                    union.union_with(&p.complete[m].1);
                }
                list.push(union.cells());
            }
            out.push(Shape {
                name: if named {
                    format!("{what} of {}", region_name(&p, &r))
                } else {
                    String::new()
                },
                rule: Rule::Sum {
                    total,
                    unique: unique.iter().any(|u| cells.subset_of(u)),
                },
                cells: cells.cells(),
                kind: ShapeKind::Cage,
            });
        }
    });
    out
}

/// The union's innie and its "innies minus outies" equation, when they have at most
/// `max_linear` cells and are not derived sum shapes already (pure, at most `max_leftover`).
fn add_linear<const W: usize>(
    p: &Parts<W>,
    r: &Region<W>,
    max_linear: usize,
    max_leftover: usize,
    seen: &mut FxHashSet<(Bits<W>, Bits<W>, i64)>,
    list: &mut Vec<Linear>,
) {
    let mut cells = Bits::<W>::new(0);
    for m in r.members.iter() {
        cells.union_with(&p.complete[m].1);
    }
    let none = Bits::<W>::new(0);
    let (innie, innie_total) = r.innie;
    let (touching, touching_total) = r.touching;
    let mixed = (
        innie.minus(&touching),
        touching.minus(&cells),
        innie_total - touching_total,
    );
    for (plus, minus, total) in [(innie, none, innie_total), mixed] {
        let size = plus.count() + minus.count();
        let pure = plus.count() == 0 || minus.count() == 0;
        if size == 0 || size > max_linear || (pure && size <= max_leftover) {
            continue;
        }
        if !seen.insert((plus, minus, total)) {
            continue;
        }
        list.push(Linear {
            name: region_name(p, r),
            members: r.members.iter().map(|m| p.complete[m].0).collect(),
            plus: plus.cells(),
            minus: minus.cells(),
            total,
        });
    }
}

/// Rejects cage totals that contradict complete shapes: a complete shape exactly tiled by
/// (disjoint) sum shapes whose totals do not add up to the shape's total, and sum shapes tiling
/// a union of disjoint complete shapes that covers every cell with the wrong grand total.
pub fn check(g: &Geometry) -> Result<(), GeometryError> {
    match g.cell_count() {
        0..=128 => check_in::<2>(g),
        129..=256 => check_in::<4>(g),
        257..=512 => check_in::<8>(g),
        513..=MAX_CELLS => check_in::<16>(g),
        _ => Ok(()),
    }
}

fn check_in<const W: usize>(g: &Geometry) -> Result<(), GeometryError> {
    if !g.shapes.iter().any(|s| matches!(s.rule, Rule::Sum { .. })) {
        return Ok(());
    }
    let p = Parts::<W>::new(g);
    let n = g.cell_count();
    for (i, (s, cells)) in p.complete.iter().enumerate() {
        let r = analyse(&p, Members::one(i), *cells);
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
    #[test]
    fn members_stay_sorted() {
        let m = super::Members::one(7).with(2).with(9).with(5);
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![2, 5, 7, 9]);
        let m = super::Members::one(0).with(1);
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![0, 1]);
    }

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

    /// `g` with random cages of one to four cells (consecutive cell indices, pairwise disjoint),
    /// covering every cell for odd seeds.
    fn with_random_cages(mut g: Geometry, seed: u64) -> Geometry {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let n = g.cell_count();
        let mut c = 0;
        while c < n {
            let len = rng.gen_range(1..=4).min(n - c);
            if rng.gen_bool(if seed % 2 == 1 { 1.0 } else { 0.7 }) {
                g.shapes.push(Shape {
                    name: format!("cage {c}"),
                    rule: Rule::Sum {
                        total: 10,
                        unique: false,
                    },
                    cells: (c..c + len).map(|i| CellId(i as u32)).collect(),
                    kind: ShapeKind::Cage,
                });
            }
            c += len;
        }
        g
    }

    #[test]
    fn unions_are_every_connected_disjoint_set_of_up_to_three_shapes() {
        // brute force: every set of one to three complete shapes that are pairwise disjoint and
        // connected through "nearby" (disjoint and touching a common cage), deduplicated by cells
        // (Samurai with every cell caged has over MAX_PER_LEVEL unions of three)
        let cases: [(&str, &[u64]); 3] = [
            ("classic9", &[0, 1, 2, 3, 4, 5]),
            ("jigsaw", &[0, 1]),
            ("samurai", &[0, 2]),
        ];
        for (name, seeds) in cases {
            for &seed in seeds {
                let g = with_random_cages(crate::geometry::builtin::load(name).unwrap(), seed);
                let p = Parts::<8>::new(&g);
                let k = p.complete.len();
                let disjoint = |a: usize, b: usize| p.complete[a].1.disjoint(&p.complete[b].1);
                let near = |a: usize, b: usize| {
                    disjoint(a, b)
                        && p.cages.iter().any(|(_, c, _)| {
                            !c.disjoint(&p.complete[a].1) && !c.disjoint(&p.complete[b].1)
                        })
                };
                let cells_of = |m: &[usize]| {
                    let mut c = Bits::<8>::new(0);
                    m.iter().for_each(|&i| c.union_with(&p.complete[i].1));
                    c
                };
                let mut want = FxHashSet::default();
                for a in 0..k {
                    want.insert(cells_of(&[a]));
                    for b in a + 1..k {
                        if near(a, b) {
                            want.insert(cells_of(&[a, b]));
                        }
                        for c in b + 1..k {
                            let connected = [near(a, b), near(a, c), near(b, c)]
                                .iter()
                                .filter(|&&x| x)
                                .count()
                                >= 2;
                            if connected && disjoint(a, b) && disjoint(a, c) && disjoint(b, c) {
                                want.insert(cells_of(&[a, b, c]));
                            }
                        }
                    }
                }
                let mut got = Vec::new();
                let mut sizes = Vec::new();
                unions(&p, 3, |r| {
                    let m: Vec<usize> = r.members.iter().collect();
                    let naive = naive_region(&p, &cells_of(&m), m.len());
                    assert_eq!(r.innie, naive.innie, "{name} {seed}: innie of {m:?}");
                    assert_eq!(r.outie, naive.outie, "{name} {seed}: outie of {m:?}");
                    assert_eq!(r.touching, naive.touching, "{name} {seed}: touching {m:?}");
                    sizes.push(m.len());
                    got.push(cells_of(&m));
                });
                let got_set: FxHashSet<Bits<8>> = got.iter().copied().collect();
                assert_eq!(got.len(), got_set.len(), "{name} {seed}: a union twice");
                for size in 1..=3 {
                    let kept = sizes.iter().filter(|&&s| s == size).count();
                    assert!(kept < MAX_PER_LEVEL, "{name} {seed}: capped");
                }
                assert_eq!(got_set, want, "{name} {seed}");
                assert!(
                    sizes.windows(2).all(|w| w[0] <= w[1]),
                    "smaller unions first"
                );
                assert!(sizes.contains(&3), "{name} {seed}: no union of three");
            }
        }
    }

    /// The innie and outie of a union worked out plainly from every cage.
    fn naive_region<const W: usize>(p: &Parts<W>, cells: &Bits<W>, size: usize) -> Region<W> {
        let total = size as i64 * p.full_total;
        let (mut inside, mut inside_total) = (Bits::new(0), 0);
        let (mut touching, mut touching_total) = (Bits::new(0), 0);
        for (_, b, t) in &p.cages {
            if b.subset_of(cells) {
                inside.union_with(b);
                inside_total += t;
            } else if !b.disjoint(cells) {
                touching.union_with(b);
                touching_total += t;
            }
        }
        let mut covered = inside;
        covered.union_with(&touching);
        Region {
            members: Members(0),
            innie: (cells.minus(&inside), total - inside_total),
            outie: cells
                .subset_of(&covered)
                .then(|| (touching.minus(cells), inside_total + touching_total - total)),
            touching: (touching, touching_total),
        }
    }

    #[test]
    fn check_rejects_a_row_tiled_with_the_wrong_total() {
        let text = "name = \"k\"\nsymbols = \"123456789\"\n[[grid]]\nsize = 9\n\
                    [[cage]]\ncells = \"r1c1-5\"\nsum = 20\n[[cage]]\ncells = \"r1c6-9\"\nsum = 26\n";
        let e = build::from_toml(text).unwrap_err().to_string();
        assert!(e.contains("'Row 1'") && e.contains("46"), "{e}");
    }
}
