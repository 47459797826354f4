//! Constraint combinations: the ways a small group of cells can be filled under every
//! constraint kind on them at once, as a solver reasons about one line of a variant puzzle
//! ("the sandwich of row 1 sums to 18 with 1 and 9 three cells apart, so ...", "on this
//! diagonal the three cells of one box differ, so the 50 needs ...", "in this row no two
//! neighbours are consecutive, so 9 cannot sit between two dots").
//!
//! A *group* is a list of cells with the constraints that bear on them: a constraint shape
//! (a sandwich line, a thermometer, ...), a little killer's diagonal (a sum shape whose
//! values may repeat), a unique shape that holds two or more cells of a constraint shape or
//! of a pattern, and such a unique shape together with the other cells of a constraint shape
//! that crosses it (a box and the diagonal through it). [`groups`] builds them once per
//! board from the shapes alone (cells, kinds and parameters, never positions or names): the
//! propagators touching the group's cells, the constraint sums touching them, and the
//! complete shapes its cells lie in.
//!
//! [`Combinations`] finds, for every candidate of a group's cells, one filling of the group
//! that uses it: cells that see each other differ, every propagator in reach runs to its
//! fixpoint after each choice (on the cells outside the group too: a contradiction there
//! counts), a sum's cells must still reach its total, and each complete shape around keeps a
//! place for every symbol (a symbol with one place left goes there). A candidate no filling
//! uses is removed, unless the same search without the kinds (distinctness and the complete
//! shapes alone) removes it too: that is the plain rules' work (subsets, fish, ...), which
//! must keep their own weight. The search is bounded (a candidate whose search runs past the
//! bound counts as used), so the rule never proves by exhaustion more than a small look at
//! one group can.
//!
//! Weight: the heaviest kind in the group (a little killer's sum counts as a cage's 2.0) plus
//! 0.2 per empty cell, at most 8 (see [`crate::logic::rate`]). The step is named after the
//! group's heaviest kind ("Sandwich combinations").
//!
//! A new kind needs nothing here: its shapes and its propagator join the groups they touch.

use super::constraints::{Constraints, LProp};
use super::{LogicRule, Step};
use crate::engine::constraint::Cands;
use crate::geometry::Geometry;
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Groups with more cells than this are not searched.
const MAX_GROUP: usize = 18;

/// Search nodes for one candidate of a group.
const NODES: usize = 3000;

/// Search nodes for one group at one look (candidates past it count as used).
const GROUP_NODES: usize = 30000;

/// A group of cells searched together (see the module docs).
#[derive(Debug)]
pub struct Group {
    /// The shape it is named after.
    pub shape: usize,
    /// Its cells: the ones the search fills.
    pub cells: Vec<u32>,
    /// The propagators (indices into [`Constraints::props`]) that touch its cells.
    pub props: Vec<usize>,
    /// The constraint sum shapes touching its cells: (cells, total).
    pub sums: Vec<(Vec<u32>, i64)>,
    /// Cells whose candidates the search may change (restored after each choice).
    pub scope: Vec<u32>,
    /// Cells whose change calls for a new look.
    pub watch: Vec<u32>,
    /// The complete shapes holding its cells (each must keep a place for every symbol).
    pub houses: Vec<usize>,
    /// The step's rule name.
    pub title: String,
    /// The heaviest kind's weight.
    pub base: f64,
    /// The constraint shapes it uses, for the explanation.
    pub uses: Vec<usize>,
}

/// The groups of `g`, given its constraint shapes `c` (see the module docs).
pub fn groups(g: &Geometry, c: &Constraints) -> Vec<Group> {
    let n = g.cell_count();
    let pattern: Vec<bool> = c
        .props
        .iter()
        .map(|p| crate::kinds::of(&g.shapes[p.shape].rule).is_pattern())
        .collect();
    // the constraint shapes, with their cells
    let mut bound: Vec<(usize, Vec<u32>)> = Vec::new();
    for (i, s) in g.shapes.iter().enumerate() {
        if c.props.iter().any(|p| p.shape == i) || c.sums[i].is_some() {
            bound.push((i, s.cells.iter().map(|x| x.0).collect()));
        }
    }
    let is_pattern = |i: usize| {
        c.props
            .iter()
            .zip(&pattern)
            .any(|(p, &pt)| p.shape == i && pt)
    };
    let mut candidates: Vec<(usize, Vec<u32>)> = Vec::new();
    for (i, cells) in &bound {
        if !is_pattern(*i) {
            candidates.push((*i, cells.clone()));
        }
    }
    for (i, s) in g.shapes.iter().enumerate() {
        if !s.is_unique() || s.cells.len() < 3 {
            continue;
        }
        let inside = |cells: &[u32]| {
            cells
                .iter()
                .filter(|&&x| s.cells.iter().any(|y| y.0 == x))
                .count()
        };
        if bound.iter().any(|(_, cells)| inside(cells) >= 2) {
            candidates.push((i, s.cells.iter().map(|x| x.0).collect()));
        }
        // with each constraint shape that crosses it: the house and the shape's other cells
        for (j, cells) in &bound {
            let k = inside(cells);
            if !is_pattern(*j) && k >= 2 && k < cells.len() {
                let mut all: Vec<u32> = s.cells.iter().map(|x| x.0).collect();
                all.extend(cells.iter().filter(|&&x| !s.cells.iter().any(|y| y.0 == x)));
                candidates.push((i, all));
            }
        }
    }
    let mut out: Vec<Group> = Vec::new();
    let mut seen: Vec<Vec<u32>> = Vec::new();
    for (shape, cells) in candidates {
        if !(3..=MAX_GROUP).contains(&cells.len()) {
            continue;
        }
        let mut key = cells.clone();
        key.sort_unstable();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let group = group(g, c, &pattern, shape, cells, n);
        if !group.props.is_empty() || !group.sums.is_empty() {
            out.push(group);
        }
    }
    out
}

/// The group of `cells`, named after `shape`.
fn group(
    g: &Geometry,
    c: &Constraints,
    pattern: &[bool],
    shape: usize,
    cells: Vec<u32>,
    n: usize,
) -> Group {
    let mut inside = vec![false; n];
    cells.iter().for_each(|&x| inside[x as usize] = true);
    let mut in_scope = inside.clone();
    let mut in_watch = inside.clone();
    let mut props = Vec::new();
    let mut uses: Vec<usize> = Vec::new();
    let (mut base, mut title) = (0.0f64, String::new());
    for (k, p) in c.props.iter().enumerate() {
        let own = &g.shapes[p.shape].cells;
        if !own.iter().any(|x| inside[x.index()]) {
            continue;
        }
        props.push(k);
        for x in own {
            in_scope[x.index()] = true;
            if !pattern[k] {
                in_watch[x.index()] = true;
            }
        }
        if !uses.contains(&p.shape) {
            uses.push(p.shape);
        }
        if p.weight > base {
            (base, title) = (p.weight, p.title.to_string());
        }
    }
    let mut sums = Vec::new();
    for (i, s) in g.shapes.iter().enumerate() {
        let Some((total, _)) = c.sums[i] else {
            continue;
        };
        if !s.cells.iter().any(|x| inside[x.index()]) {
            continue;
        }
        for x in &s.cells {
            in_scope[x.index()] = true;
            in_watch[x.index()] = true;
        }
        sums.push((s.cells.iter().map(|x| x.0).collect(), total));
        uses.push(i);
        let w = rate::cage(0);
        if w > base || title.is_empty() {
            let kind = crate::kinds::of(&s.rule);
            (base, title) = (base.max(w), kind.title().to_string());
        }
    }
    let mut houses = Vec::new();
    for (i, s) in g.shapes.iter().enumerate() {
        if s.is_unique() && g.is_complete(s) && s.cells.iter().any(|x| inside[x.index()]) {
            houses.push(i);
            s.cells.iter().for_each(|x| in_scope[x.index()] = true);
        }
    }
    let pick = |flags: &[bool]| (0..n as u32).filter(|&x| flags[x as usize]).collect();
    Group {
        shape,
        houses,
        scope: pick(&in_scope),
        watch: pick(&in_watch),
        cells,
        props,
        sums,
        title: format!("{title} combinations"),
        base,
        uses,
    }
}

/// The rule: see the module docs.
pub struct Combinations;

impl LogicRule for Combinations {
    fn name(&self) -> &str {
        "Constraint combinations"
    }
    fn family(&self) -> Family {
        Family::Constraints
    }
    fn min_weight(&self) -> f64 {
        rate::combinations(rate::CONSTRAINT_CELL, 3)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let groups = &b.constraints.groups;
        if groups.is_empty() {
            return None;
        }
        let mut search = Search::new(b);
        let mut best: Option<Step> = None;
        for g in groups.iter() {
            let open = g
                .cells
                .iter()
                .filter(|&&x| b.value[x as usize].is_none())
                .count();
            if open < 2 {
                continue;
            }
            let weight = rate::combinations(g.base, open);
            let cap = best.as_ref().map_or(cx.cap, |s| s.weight.min(cx.cap));
            if weight >= cap {
                if best.is_none() {
                    cx.exhaustive = false;
                }
                continue;
            }
            if !g
                .watch
                .iter()
                .any(|&x| b.changed_since(x as usize, cx.since))
            {
                continue;
            }
            if cx.budget.is_out() {
                cx.exhaustive = false;
                break;
            }
            let eliminations = search.run(g);
            if eliminations.is_empty() {
                continue;
            }
            let mut cells: Vec<usize> = eliminations.iter().map(|e| e.0).collect();
            cells.dedup();
            best = Some(Step {
                rule: g.title.clone(),
                family: Family::Constraints,
                size: open,
                weight,
                shapes: std::iter::once(g.shape)
                    .chain(g.uses.iter().copied())
                    .collect(),
                cells,
                eliminations,
                placements: vec![],
                reason: reason(b, g),
            });
        }
        best
    }
}

/// "of the ways to fill Row 7 that keep Difference 24, Non-consecutive, none uses".
fn reason(b: &Board, g: &Group) -> String {
    let mut names: Vec<&str> = Vec::new();
    for &s in &g.uses {
        let name = b.shapes[s].name.as_str();
        if s != g.shape && !names.contains(&name) {
            names.push(name);
        }
    }
    let cells: Vec<usize> = g.cells.iter().map(|&x| x as usize).collect();
    let what = if names.is_empty() {
        String::new()
    } else {
        format!(" under {}", names.join(", "))
    };
    format!(
        "{} ({}): no way to fill its cells{what} uses these candidates",
        b.shapes[g.shape].name,
        b.cells_text(&cells)
    )
}

/// The search of one group at a time, reusing its buffers.
struct Search<'a> {
    b: &'a Board,
    props: &'a [LProp],
    work: Vec<Mask>,
    in_scope: Vec<bool>,
    saved: Vec<Mask>,
    queue: Vec<u32>,
    singles: Vec<u32>,
    found: Vec<Mask>,
    nodes: usize,
    /// Search nodes spent on the group at this look.
    spent: usize,
    /// Only the cells' distinctness and a complete shape's symbols count (not the kinds).
    plain: bool,
}

impl<'a> Search<'a> {
    fn new(b: &'a Board) -> Self {
        Search {
            b,
            props: &b.constraints.props,
            work: b.cand.clone(),
            in_scope: vec![false; b.cell_count()],
            saved: Vec::new(),
            queue: Vec::new(),
            singles: Vec::new(),
            found: Vec::new(),
            nodes: 0,
            spent: 0,
            plain: false,
        }
    }

    /// The candidates of `g`'s cells no filling uses.
    fn run(&mut self, g: &Group) -> Vec<(usize, u8)> {
        let b = self.b;
        for &x in &g.scope {
            self.work[x as usize] = b.cand[x as usize];
            self.in_scope[x as usize] = true;
        }
        self.spent = 0;
        let mut out = Vec::new();
        let mut sup = vec![0 as Mask; g.cells.len()];
        for i in 0..g.cells.len() {
            let x = g.cells[i] as usize;
            if b.value[x].is_some() {
                continue;
            }
            for v in bits(self.work[x] & !sup[i]) {
                match self.try_value(g, x, v) {
                    Some(true) => sup.iter_mut().zip(&self.found).for_each(|(s, f)| *s |= f),
                    Some(false) => {
                        // what the cells' distinctness alone rules out is the subsets' work
                        self.plain = true;
                        let plain = self.try_value(g, x, v);
                        self.plain = false;
                        self.work[x] &= !(1 << v);
                        if plain != Some(false) {
                            out.push((x, v as u8));
                        }
                    }
                    None => sup[i] |= 1 << v,
                }
            }
        }
        for &x in &g.scope {
            self.in_scope[x as usize] = false;
        }
        out
    }

    /// Whether some filling of `g` puts `v` in `x` (`None`: past the node bound).
    fn try_value(&mut self, g: &Group, x: usize, v: usize) -> Option<bool> {
        if self.spent > GROUP_NODES {
            return None;
        }
        self.nodes = 0;
        let r = self.branch(g, x, v);
        self.spent += self.nodes;
        r
    }

    /// Puts `v` in `x`, propagates and fills the rest of the group, then undoes it all.
    fn branch(&mut self, g: &Group, x: usize, v: usize) -> Option<bool> {
        let depth = self.save(g);
        self.work[x] = 1 << v;
        self.singles.clear();
        self.singles.push(x as u32);
        let r = if self.propagate(g) {
            self.dfs(g)
        } else {
            Some(false)
        };
        self.restore(g, depth);
        r
    }

    /// Saves the scope's candidates; returns where they start.
    fn save(&mut self, g: &Group) -> usize {
        let at = self.saved.len();
        self.saved
            .extend(g.scope.iter().map(|&x| self.work[x as usize]));
        at
    }

    fn restore(&mut self, g: &Group, at: usize) {
        for (k, &x) in g.scope.iter().enumerate() {
            self.work[x as usize] = self.saved[at + k];
        }
        self.saved.truncate(at);
    }

    /// Fills the rest of the group: `Some(true)` with a filling in `found`, `Some(false)` when
    /// there is none, `None` past the node bound.
    fn dfs(&mut self, g: &Group) -> Option<bool> {
        let next = g
            .cells
            .iter()
            .map(|&x| x as usize)
            .filter(|&x| self.work[x].count_ones() > 1)
            .min_by_key(|&x| self.work[x].count_ones());
        let Some(x) = next else {
            self.found.clear();
            self.found
                .extend(g.cells.iter().map(|&x| self.work[x as usize]));
            return Some(true);
        };
        for v in bits(self.work[x]) {
            self.nodes += 1;
            if self.nodes > NODES {
                return None;
            }
            match self.branch(g, x, v) {
                Some(false) => continue,
                other => return other,
            }
        }
        Some(false)
    }

    /// Narrows the scope after a choice; false on a contradiction.
    fn propagate(&mut self, g: &Group) -> bool {
        loop {
            while let Some(x) = self.singles.pop() {
                let m = self.work[x as usize];
                for &y in self.b.peers[x as usize].iter() {
                    let y = y as usize;
                    if !self.in_scope[y] || self.work[y] & m == 0 {
                        continue;
                    }
                    self.work[y] &= !m;
                    match self.work[y].count_ones() {
                        0 => return false,
                        1 => self.singles.push(y as u32),
                        _ => {}
                    }
                }
            }
            let mut changed = false;
            match self.houses(g) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if self.plain {
                return true;
            }
            for &k in &g.props {
                self.queue.clear();
                let mut c = Cands::new(&mut self.work, &mut self.queue);
                if !self.props[k].propagate(&mut c) {
                    return false;
                }
                changed |= c.changed();
                self.singles.extend_from_slice(&self.queue);
            }
            for (cells, total) in &g.sums {
                match self.bound_sum(cells, *total) {
                    None => return false,
                    Some(c) => changed |= c,
                }
            }
            if !changed && self.singles.is_empty() {
                return true;
            }
        }
    }

    /// Each house keeps a place for every symbol, and a symbol with one place left there goes
    /// there: `Some(true)` when that placed something, `None` on a contradiction.
    fn houses(&mut self, g: &Group) -> Option<bool> {
        let mut placed = false;
        for &h in &g.houses {
            let cells = &self.b.shapes[h].cells;
            let (mut once, mut twice) = (0 as Mask, 0 as Mask);
            for &x in cells {
                let m = self.work[x];
                twice |= once & m;
                once |= m;
            }
            if once != self.b.full {
                return None;
            }
            for v in bits(once & !twice) {
                let Some(&x) = cells.iter().find(|&&x| self.work[x] >> v & 1 != 0) else {
                    continue;
                };
                if self.work[x] != 1 << v {
                    self.work[x] = 1 << v;
                    self.singles.push(x as u32);
                    placed = true;
                }
            }
        }
        Some(placed)
    }

    /// Keeps each cell of a sum to values the others' ranges can complete to `total`:
    /// `Some(changed)`, `None` when the total is out of reach.
    fn bound_sum(&mut self, cells: &[u32], total: i64) -> Option<bool> {
        let values = &self.b.values;
        let (mut lo, mut hi) = (0i64, 0i64);
        for &x in cells {
            let m = self.work[x as usize];
            if m == 0 {
                return None;
            }
            let (a, z) = bits(m).fold((i64::MAX, i64::MIN), |(a, z), v| {
                (a.min(values[v]), z.max(values[v]))
            });
            lo += a;
            hi += z;
        }
        if total < lo || total > hi {
            return None;
        }
        let mut changed = false;
        for &x in cells {
            let m = self.work[x as usize];
            let (a, z) = bits(m).fold((i64::MAX, i64::MIN), |(a, z), v| {
                (a.min(values[v]), z.max(values[v]))
            });
            let (rest_lo, rest_hi) = (lo - a, hi - z);
            let mut keep = m;
            for v in bits(m) {
                let t = values[v];
                if t + rest_lo > total || t + rest_hi < total {
                    keep &= !(1 << v);
                }
            }
            if keep != m {
                if keep == 0 {
                    return None;
                }
                self.work[x as usize] = keep;
                changed = true;
                if keep.count_ones() == 1 {
                    self.singles.push(x);
                }
            }
        }
        Some(changed)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::engine::{Engine, Limits};
    use crate::logic::{Family, Logic, LogicError};
    use crate::puzzle::Puzzle;

    /// The shipped examples of the kinds this rule was made for: every step agrees with the
    /// solution (the solver checks each against it), the sandwich and non-consecutive examples
    /// finish without search, and each of the three gets combination steps.
    #[test]
    fn kind_examples_agree_with_the_solution() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/kinds/");
        let logic = Logic::all(9).with_limits(Limits {
            max_nodes: None,
            max_time: Some(Duration::from_secs(5)),
        });
        for (name, finishes) in [
            ("sandwich", true),
            ("non-consecutive", true),
            ("little-killer", true),
        ] {
            let p = Puzzle::load(format!("{root}{name}.toml")).expect("an example");
            let sol = Engine::new(&p.geometry).solve(&p.givens, Limits::none());
            assert_eq!(sol.count, 1, "{name}");
            let steps = match logic.solve(&p.geometry, &p.givens, Some(&sol.solutions[0])) {
                Ok(path) => {
                    assert!(
                        path.steps.iter().all(|s| s.family != Family::Search),
                        "{name}"
                    );
                    path.steps
                }
                Err(LogicError::Stopped(path)) => {
                    assert!(!finishes, "{name}: stopped");
                    path.steps
                }
                Err(e) => panic!("{name}: {e}"),
            };
            let own = steps
                .iter()
                .filter(|s| s.rule.ends_with(" combinations"))
                .count();
            assert!(own > 0, "{name}: no combination step");
        }
    }

    /// A little killer of 24 on three cells of one box: repeats would allow 6 + 9 + 9, but
    /// the cells see each other, so only 7, 8 and 9 remain (the cage rule, which lets a
    /// little killer's values repeat, keeps the 6).
    #[test]
    fn a_little_killer_in_one_box_takes_distinct_values() {
        use super::super::LogicRule;
        use crate::geometry::{Geometry, Shape, ShapeKind};
        use crate::logic::Board;
        use crate::logic::{Budget, Cx};
        let base = Geometry::builtin("classic9").expect("classic9");
        let cells: Vec<_> = ["r1c1", "r2c2", "r3c3"]
            .map(|n| base.cell_id(n).expect("a cell"))
            .to_vec();
        let mut shapes = base.shapes.clone();
        shapes.push(Shape {
            name: "Little killer 1".into(),
            rule: crate::kinds::rule(
                crate::kinds::by_name("little-killer").expect("a kind").0,
                vec![24],
            ),
            cells: cells.clone(),
            kind: ShapeKind::Extra,
        });
        let g = base.with_shapes("lk".into(), shapes).expect("a layout");
        let b = Board::new(&g, &[None; 81]).expect("a board");
        let budget = Budget::unlimited();
        let step = super::Combinations
            .find(&b, &mut Cx::new(&budget))
            .expect("a step");
        assert_eq!(step.rule, "Little killer combinations");
        let mut want: Vec<(usize, u8)> = cells
            .iter()
            .flat_map(|c| (0..6u8).map(move |v| (c.index(), v)))
            .collect();
        let mut got = step.eliminations.clone();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want);
    }
}
