//! Patterns of pair relations: what the pattern kinds share. A pattern relates pairs of cells
//! that stand a given step apart (a knight's move, a king's move, orthogonal neighbours):
//!
//! * a *distinct* pattern (anti-knight, anti-king) makes each pair differ: [`flatten_distinct`]
//!   turns the pairs into peers, [`check_distinct`] checks them from positions alone,
//!   [`plant_distinct`] drops cells of a grid until no pair repeats a symbol;
//! * a *negative* pattern (non-consecutive, non-ratio, non-XV) forbids, on every pair of
//!   orthogonal neighbours that carries no mark of a kind, what that mark would say: one
//!   [`Exclusion`] per mark ("no difference of 1 without a white dot"), and [`flatten_negative`],
//!   [`check_negative`] and [`plant_negative`] for a list of them.
//!
//! A new pattern of either sort is a kind whose `flatten`, `check` and `plant` call these with
//! its steps or exclusions.

use rand::RngCore;
use rustc_hash::FxHashSet;

use super::pick;
use super::relation::Relation;
use crate::engine::flatten::Flat;
use crate::geometry::{CellId, Geometry, Shape};

/// The cells and numbers a kind's `plant` returns.
type Planted = Option<(Vec<CellId>, Vec<i64>)>;

/// Makes every two cells of `s` one of `steps` apart peers.
pub(crate) fn flatten_distinct(s: &Shape, g: &Geometry, out: &mut Flat, steps: &[(i64, i64)]) {
    for [a, b] in pick::pairs_at(g, &s.cells, steps) {
        out.distinct(a, b);
    }
}

/// The check of a pattern of pairs that must differ: every two cells of `s` whose centres are
/// `(|dx|, |dy|)` apart with `apart(|dx|, |dy|)` (written straight from the positions with
/// [`pick::pairs_apart`], not with the pair finder the engine uses).
pub(crate) fn check_distinct(
    s: &Shape,
    g: &Geometry,
    grid: &[u8],
    apart: &dyn Fn(f64, f64) -> bool,
    what: &str,
) -> Result<(), String> {
    for [a, b] in pick::pairs_apart(g, &s.cells, apart) {
        if grid[a.index()] == grid[b.index()] {
            return Err(format!(
                "{} and {}, {what} apart, are both {}",
                g.cell(a).name,
                g.cell(b).name,
                g.symbols.symbol(grid[a.index()] as usize)
            ));
        }
    }
    Ok(())
}

/// Cells of a distinct pattern with `steps` that the full grid `grid` satisfies.
pub(crate) fn plant_distinct(
    g: &Geometry,
    grid: &[u8],
    rng: &mut dyn RngCore,
    steps: &[(i64, i64)],
) -> Planted {
    let cells = pick::pattern_cells(g, rng, steps, &|a, b| grid[a.index()] != grid[b.index()])?;
    Some((cells, Vec::new()))
}

/// What a negative pattern forbids for one kind of mark: neighbours without a two-cell shape
/// of kind `mark` whose first number is `number` may not hold values with `forbidden`.
pub(crate) struct Exclusion {
    /// The mark's kind ("difference", "ratio", "xv").
    pub(crate) mark: &'static str,
    /// The mark's first number (1 for a white dot, 10 for an X, …).
    pub(crate) number: i64,
    /// Whether two values are what the mark would say.
    pub(crate) forbidden: fn(i64, i64) -> bool,
    /// The end of the checker's message about two such values, after "r1c1 and r1c2 ".
    pub(crate) says: fn(i64, i64) -> String,
}

impl Exclusion {
    /// The pairs that carry the mark, as `(smaller id, larger id)`.
    fn marked(&self, g: &Geometry) -> FxHashSet<(u32, u32)> {
        pick::marked_pairs(g, self.mark, &|p| p[0] == self.number)
    }
}

/// The pair `[a, b]` as the marked sets key it.
fn key(a: CellId, b: CellId) -> (u32, u32) {
    (a.0.min(b.0), a.0.max(b.0))
}

/// Adds, for each exclusion, its relation on the unmarked orthogonal neighbours among the
/// cells of `s`.
pub(crate) fn flatten_negative(s: &Shape, g: &Geometry, out: &mut Flat, rules: &[Exclusion]) {
    for rule in rules {
        let pairs = pick::unmarked_neighbours(g, &s.cells, &rule.marked(g));
        if !pairs.is_empty() {
            let forbidden = rule.forbidden;
            out.propagator(Relation::new(out, &pairs, move |a, b| !forbidden(a, b)));
        }
    }
}

/// Whether no two orthogonal neighbours among the cells of `s` hold what an exclusion forbids
/// without its mark (neighbours found from positions alone).
pub(crate) fn check_negative(
    s: &Shape,
    g: &Geometry,
    grid: &[u8],
    rules: &[Exclusion],
) -> Result<(), String> {
    for rule in rules {
        let marked = rule.marked(g);
        for [a, b] in pick::touching_sides(g, &s.cells) {
            let (x, y) = (pick::value(g, grid, a), pick::value(g, grid, b));
            if (rule.forbidden)(x, y) && !marked.contains(&key(a, b)) {
                let (na, nb) = (&g.cell(a).name, &g.cell(b).name);
                return Err(format!("{na} and {nb} {}", (rule.says)(x, y)));
            }
        }
    }
    Ok(())
}

/// Cells of a negative pattern with `rules` that the full grid `grid` satisfies.
pub(crate) fn plant_negative(
    g: &Geometry,
    grid: &[u8],
    rng: &mut dyn RngCore,
    rules: &[Exclusion],
) -> Planted {
    let marks: Vec<_> = rules.iter().map(|r| r.marked(g)).collect();
    let ok = |a: CellId, b: CellId| {
        let (x, y) = (pick::value(g, grid, a), pick::value(g, grid, b));
        rules
            .iter()
            .zip(&marks)
            .all(|(r, m)| !(r.forbidden)(x, y) || m.contains(&key(a, b)))
    };
    let cells = pick::pattern_cells(g, rng, pick::ORTHOGONAL, &ok)?;
    Some((cells, Vec::new()))
}
