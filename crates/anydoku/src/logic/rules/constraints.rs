//! Constraint kinds in the logic layer: each shape of a kind other than unique and sum (a
//! thermometer, an arrow, a kropki dot, a pattern such as non-consecutive, ...) narrows the
//! candidates with its kind's own propagator, the one the engine runs, and the narrowing is one
//! step, explained in the layout's names: "Thermometer 2: values increase along
//! r3c4→r2c4→r1c4 → remove 8, 9 from r3c4".
//!
//! [`Constraints::of`] builds, once per [`Board`] (it sits behind the board's `Arc`s), each
//! constraint shape's propagators ([`crate::kinds::Kind::flatten`]), the sentence of its rule
//! ([`crate::kinds::Kind::explain`]) and its step weight ([`crate::kinds::Kind::logic_weight`]).
//! Shapes a kind turns into plain sums over their own cells (little killers) become sum shapes
//! of the board instead, for the cage rules; the pairs of cells a kind keeps apart
//! (anti-knight, anti-king) become peers. The rule [`ConstraintRule`] runs each propagator to
//! its fixpoint on a copy of the candidates and reports the lightest shape that removes
//! something. A propagator only reads its own shape's cells, so a shape none of whose cells
//! changed since the rule last found nothing is skipped.
//!
//! Such shapes are *bound*: the rules that reason from the unique/sum flags alone (unique
//! rectangles, the BUG) must not assume that swapping symbols keeps them satisfied, and leave
//! their cells alone ([`crate::logic::LShape::constrained`]).
//!
//! [`Constraints::of`] also lists the groups of cells the constraint combinations rule
//! ([`super::combinations`]) searches: several shapes' kinds at once, on a line or a house.
//!
//! A new kind needs nothing here: its propagator, sentence and weight come from its module.

use std::sync::Arc;

use super::{LogicRule, Step};
use crate::engine::constraint::{Cands, Propagator};
use crate::geometry::{Geometry, Rule};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// One propagator of a constraint shape.
#[derive(Debug)]
pub struct LProp {
    /// The board shape it belongs to.
    pub shape: usize,
    /// The kind's title ("Thermometer"): the step's rule name.
    pub title: &'static str,
    /// The shape's rule as a sentence.
    pub text: String,
    /// The weight of its steps.
    pub weight: f64,
    prop: Arc<dyn Propagator>,
}

impl LProp {
    /// Runs the propagator on `cand` until it removes nothing more; false when it finds no way
    /// left to satisfy the shape.
    pub fn narrow(&self, cand: &mut [Mask], queue: &mut Vec<u32>) -> bool {
        fixpoint(&*self.prop, cand, queue)
    }

    /// Runs the propagator once on `c`; false on a contradiction.
    pub fn propagate(&self, c: &mut Cands) -> bool {
        self.prop.propagate(c)
    }
}

/// What the constraint kinds of a geometry bring to its board.
#[derive(Debug, Default)]
pub struct Constraints {
    /// The propagators, shape by shape.
    pub props: Vec<LProp>,
    /// Pairs of cells that may not hold the same symbol (they become peers).
    pub pairs: Vec<[u32; 2]>,
    /// Per geometry shape, the total of a constraint shape that is a plain sum of its cells.
    pub sums: Vec<Option<(i64, bool)>>,
    /// Per geometry shape, the kind's title ("Little killer") of a shape in `sums`.
    pub sum_titles: Vec<&'static str>,
    /// Per geometry shape, whether it carries a rule the unique/sum flags do not say.
    pub bound: Vec<bool>,
    /// The groups of cells the combinations rule searches.
    pub groups: Vec<super::combinations::Group>,
}

impl Constraints {
    /// The constraint shapes of `g`.
    pub fn of(g: &Geometry) -> Constraints {
        let mut out = Constraints {
            sums: vec![None; g.shapes.len()],
            sum_titles: vec![""; g.shapes.len()],
            bound: vec![false; g.shapes.len()],
            ..Constraints::default()
        };
        for (i, s) in g.shapes.iter().enumerate() {
            let Rule::Constraint(c) = &s.rule else {
                continue;
            };
            let parts = crate::engine::flatten::shape_parts(s, g);
            let own: Vec<u32> = s.cells.iter().map(|c| c.0).collect();
            match parts.sums.as_slice() {
                [(cells, total, unique)]
                    if *cells == own
                        && parts.props.is_empty()
                        && parts.pairs.is_empty()
                        && !parts.complete =>
                {
                    out.sums[i] = Some((*total, *unique));
                    out.sum_titles[i] = crate::kinds::by_id(c.kind).title();
                    continue;
                }
                _ => {}
            }
            out.bound[i] = true;
            out.pairs.extend(parts.pairs);
            let kind = crate::kinds::by_id(c.kind);
            let text = crate::kinds::explain(s, g);
            let weight = crate::kinds::logic_weight(s);
            for prop in parts.props {
                out.props.push(LProp {
                    shape: i,
                    title: kind.title(),
                    text: text.clone(),
                    weight,
                    prop,
                });
            }
        }
        out.groups = super::combinations::groups(g, &out);
        out
    }
}

/// A constraint shape's propagator removes candidates.
pub struct ConstraintRule;

impl LogicRule for ConstraintRule {
    fn name(&self) -> &str {
        "Constraint"
    }
    fn family(&self) -> Family {
        Family::Constraints
    }
    fn min_weight(&self) -> f64 {
        rate::CONSTRAINT_CELL
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let props = &b.constraints.props;
        if props.is_empty() {
            return None;
        }
        let mut work: Vec<Mask> = b.cand.clone();
        let mut queue: Vec<u32> = Vec::new();
        let mut best: Option<Step> = None;
        for p in props.iter() {
            let cap = best.as_ref().map_or(cx.cap, |s| s.weight.min(cx.cap));
            if p.weight >= cap {
                if best.is_none() {
                    cx.exhaustive = false;
                }
                continue;
            }
            if !b.shape_changed_since(p.shape, cx.since) {
                continue;
            }
            work.copy_from_slice(&b.cand);
            if !fixpoint(&*p.prop, &mut work, &mut queue) {
                // no way left to satisfy it: the board is wrong, which the solver sees once
                // a cell runs out of candidates; nothing to explain as a narrowing
                continue;
            }
            let eliminations: Vec<(usize, u8)> = (0..b.cell_count())
                .filter(|&c| b.value[c].is_none() && work[c] != b.cand[c])
                .flat_map(|c| bits(b.cand[c] & !work[c]).map(move |v| (c, v as u8)))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let mut cells: Vec<usize> = eliminations.iter().map(|e| e.0).collect();
            cells.dedup();
            best = Some(Step {
                rule: p.title.into(),
                family: Family::Constraints,
                size: 1,
                weight: p.weight,
                shapes: vec![p.shape],
                cells,
                eliminations,
                placements: vec![],
                reason: match &b.shapes[p.shape].name {
                    name if name == p.title => p.text.clone(),
                    name => format!("in {name}, {}", p.text),
                },
            });
        }
        best
    }
}

/// Runs `p` on `cand` until it removes nothing more; false on a contradiction.
fn fixpoint(p: &dyn Propagator, cand: &mut [Mask], queue: &mut Vec<u32>) -> bool {
    for _ in 0..64 * cand.len() {
        queue.clear();
        let mut c = Cands::new(cand, queue);
        if !p.propagate(&mut c) {
            return false;
        }
        if !c.changed() {
            break;
        }
    }
    true
}

/// The first constraint shape whose propagator finds no way left to satisfy it from `cand`
/// (narrowed on the way): for the solver and the rules that try assumptions out.
pub fn broken(b: &Board, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<usize> {
    b.constraints
        .props
        .iter()
        .find(|p| !fixpoint(&*p.prop, cand, queue))
        .map(|p| p.shape)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::engine::{Engine, Limits};
    use crate::geometry::{Geometry, Shape, ShapeKind};
    use crate::kinds::{rule, KINDS};
    use crate::logic::{Board, Family, Logic, LogicError};

    /// A classic 9x9 with instances of kind `id` planted on a random grid, and givens thinned
    /// while the grid stays the only solution: (geometry, givens, solution).
    fn planted(id: u16, seed: u64) -> Option<(Geometry, Vec<Option<u8>>, Vec<u8>)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let base = Geometry::builtin("classic9").expect("classic9");
        let grid = crate::generate::grid::random_grid(&Engine::new(&base), &mut rng, 50)?;
        let kind = crate::kinds::by_id(id);
        let mut shapes = base.shapes.clone();
        let instances = if kind.is_pattern() { 1 } else { 8 };
        for i in 0..instances {
            if let Some((cells, params)) = kind.plant(&base, &grid, &mut rng) {
                shapes.push(Shape {
                    name: format!("{} {}", kind.title(), i + 1),
                    rule: rule(id, params),
                    cells,
                    kind: ShapeKind::Extra,
                });
            }
        }
        let g = base.with_shapes("planted".into(), shapes).ok()?;
        let e = Engine::new(&g);
        let mut givens: Vec<Option<u8>> = grid.iter().map(|&v| Some(v)).collect();
        let mut order: Vec<usize> = (0..givens.len()).collect();
        order.shuffle(&mut rng);
        for c in order {
            givens[c] = None;
            let n = e.count(&givens, 2, Limits::none());
            if n.count != 1 {
                givens[c] = Some(grid[c]);
            }
        }
        Some((g, givens, grid))
    }

    /// On minimal puzzles with planted instances of every kind, every step of the logical
    /// solution (the constraint steps, the chains and nets, the uniqueness rules) agrees with
    /// the solution, and every kind with a propagator gets steps of its own.
    #[test]
    fn every_kind_steps_agree_with_the_solution() {
        let logic = Logic::all(9).with_limits(Limits {
            max_nodes: None,
            max_time: Some(Duration::from_secs(1)),
        });
        for (id, kind) in KINDS.iter().enumerate().skip(2) {
            let mut own_steps = 0;
            let mut has_props = false;
            for seed in 0..2 {
                let Some((g, givens, sol)) = planted(id as u16, 7 * id as u64 + seed) else {
                    continue;
                };
                let b = Board::new(&g, &givens).expect("the givens agree");
                has_props |= !b.constraints.props.is_empty();
                let t = std::time::Instant::now();
                let (steps, how) = match logic.solve(&g, &givens, Some(&sol)) {
                    Ok(path) => {
                        let r = path.rating();
                        (path.steps, format!("{} {}", r.score, r.hardest))
                    }
                    Err(LogicError::Stopped(path)) => (path.steps, "stopped".into()),
                    Err(e) => panic!("{}: seed {seed}: {e}", kind.name()),
                };
                eprintln!(
                    "{}: seed {seed}: {} steps, {how}, {:?}",
                    kind.name(),
                    steps.len(),
                    t.elapsed()
                );
                own_steps += steps
                    .iter()
                    .filter(|s| s.family == Family::Constraints && s.rule == kind.title())
                    .count();
            }
            if has_props {
                assert!(own_steps > 0, "{}: no step of its own", kind.name());
            }
        }
    }

    /// A thermometer through two corners of a would-be unique rectangle tells its symbols
    /// apart, so the rectangle is not deadly (swapping the symbols would break it).
    #[test]
    fn a_constraint_through_a_rectangle_keeps_it_from_being_deadly() {
        let base = Geometry::builtin("classic9").expect("classic9");
        let at = |name: &str| base.cell_id(name).expect("a cell");
        let corners = ["r1c1", "r1c4", "r2c1", "r2c4"].map(|n| at(n).index());
        let plain = Board::new(&base, &[None; 81]).expect("a board");
        assert!(super::super::uniqueness::deadly(&plain, corners));
        let mut shapes = base.shapes.clone();
        shapes.push(Shape {
            name: "Thermometer 1".into(),
            rule: rule(
                crate::kinds::by_name("thermometer").expect("a kind").0,
                vec![0],
            ),
            cells: ["r1c1", "r1c2", "r1c3", "r1c4"].map(at).to_vec(),
            kind: ShapeKind::Extra,
        });
        let g = Arc::new(base.with_shapes("thermo".into(), shapes).expect("a layout"));
        let b = Board::new(&g, &[None; 81]).expect("a board");
        assert!(!super::super::uniqueness::deadly(&b, corners));
    }
}
