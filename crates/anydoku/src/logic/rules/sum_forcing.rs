//! Sum forcing: a region forcing chain whose branches are the ways to fill a sum shape (a
//! little killer's diagonal, a Killer cage, an innie of the law of 45), as a solver reasons
//! "this diagonal of 16 is 3+5+1+4+3, or 4+2+3+5+2, or ...; each way puts a 7 in r1c2's box
//! elsewhere, so r1c2 is not 7".
//!
//! For a shape that is a sum of its cells (a cage, whose cells differ, or a kind's plain sum,
//! whose values may repeat between cells that do not see each other), [`SumForcing`] lists its
//! fillings from the candidates: cells that see each other differ and the values add up to the
//! total (at most [`MAX_FILLINGS`]; a shape with more is left alone). Each filling is one
//! branch: all its cells assumed at once, followed by a dynamic forcing net (singles, the sums'
//! supports, every kind's propagator: [`super::net`]); that is stronger than branching on one
//! cell's candidates, since each net starts from many placements. A branch that meets a contradiction is dropped; whatever every
//! other branch reaches holds, since the solution fills the shape one of these ways. The step
//! removes each candidate that every surviving branch takes out.
//!
//! The branches' nets first follow singles, sums and kinds only (level 0); when no shape's
//! branches agree on anything that way, they also apply the nested rules of level 1 (overlap,
//! pairs, X-Wing), as a dynamic forcing chain (+) does.
//!
//! [`SumForcingCages`], the cage tier ("(++)"), nests the Killer rules that read several cells
//! of unique sum shapes at once as well: cage pairs, house combinations and hidden cage
//! combinations (the law of 45 with ranges is left out: inside the nets it costs much and,
//! on the boards looked at, added nothing the others did not). A branch that fills one cage
//! then narrows the cages next to it and the houses it crosses, which the plain nets only see
//! cell by cell; minimal Killers without givens get stuck for every lighter rule (dynamic
//! forcing chains up to level 4 included) where this tier still finds steps. Its branches are
//! costly, so it takes the first shape whose branches agree, fewest fillings first, rather
//! than the lightest step of all shapes.
//!
//! Weight: a dynamic forcing chain's 8.5 (9.0 at level 1) plus SE's length bonus of the net's
//! size, summed over the branches ([`crate::logic::rate`]). The cage tier weighs as a dynamic
//! forcing chain of level 2 (9.5): above the rules its nets apply (the cage rules weigh at most
//! 4.0, the level-1 rules less) and above the level-1 tier it follows; it is tried after the
//! dynamic forcing chains (+) and before those of level 2. Tried after the plain dynamic
//! forcing chains, which weigh as little and look at one assumption at a time; but once the
//! path has needed a step heavier than a dynamic forcing chain (+) at its lightest, it goes
//! first among the forcing rules ([`LogicRule::early_past`]): on such boards (minimal Killers
//! without givens) the lighter nets keep failing, step after step, before it finds one.
//!
//! Geometry-free: the shapes, peers and totals come from the board; a new kind whose shapes
//! are plain sums joins without a change here.

use super::net::{Net, NetMode};
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Fillings of one shape at most (a shape with more is not tried).
const MAX_FILLINGS: usize = 4000;

/// The deepest nesting of the branches' nets (level 1: overlap, pairs and X-Wing inside).
const MAX_LEVEL: usize = 1;

/// The tier past [`MAX_LEVEL`]: level-1 nets with the cage rules nested too.
const CAGE_TIER: usize = MAX_LEVEL + 1;

/// The rule: see the module docs.
pub struct SumForcing;

impl LogicRule for SumForcing {
    fn name(&self) -> &str {
        "Sum forcing chains"
    }
    fn family(&self) -> Family {
        Family::Forcing
    }
    fn min_weight(&self) -> f64 {
        rate::DYNAMIC
    }
    fn early_past(&self) -> Option<f64> {
        // past a dynamic forcing chain (+): a path that needed more branches on whole shapes
        Some(rate::dynamic(MAX_LEVEL))
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        if !cx.wants(self.min_weight()) {
            return None;
        }
        let shapes: Vec<usize> = (0..b.shapes.len())
            .filter(|&s| b.shapes[s].sum.is_some())
            .collect();
        if shapes.is_empty() {
            return None;
        }
        // level 0 first; nested rules inside the branches only when it finds nothing
        for level in 0..=MAX_LEVEL {
            if !cx.wants(rate::dynamic(level)) {
                return None;
            }
            match at_level(b, &shapes, level, cx) {
                Err(()) => {
                    cx.exhaustive = false;
                    return None;
                }
                Ok(Some(step)) => return Some(step),
                Ok(None) => {}
            }
        }
        None
    }
}

/// The cage tier: sum forcing chains whose branches' nets also apply the Killer rules that
/// read several cells of sum shapes at once (see the module docs).
pub struct SumForcingCages;

impl LogicRule for SumForcingCages {
    fn name(&self) -> &str {
        "Sum forcing chains (++)"
    }
    fn family(&self) -> Family {
        Family::Forcing
    }
    fn min_weight(&self) -> f64 {
        rate::dynamic(CAGE_TIER)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        // only unique sum shapes give the cage rules something to read
        if !cx.wants(self.min_weight()) || !b.shapes.iter().any(|s| s.sum.is_some() && s.unique) {
            return None;
        }
        let shapes: Vec<usize> = (0..b.shapes.len())
            .filter(|&s| b.shapes[s].sum.is_some())
            .collect();
        at_level(b, &shapes, CAGE_TIER, cx).unwrap_or_else(|()| {
            cx.exhaustive = false;
            None
        })
    }
}

/// The lightest step of `shapes` with nets nested `level` deep; `Err` when the budget ran out.
fn at_level(b: &Board, shapes: &[usize], level: usize, cx: &mut Cx) -> Result<Option<Step>, ()> {
    let mut net = Net::new(
        b,
        NetMode {
            dynamic: true,
            nishio: false,
            level: level.min(MAX_LEVEL),
        },
    );
    if level == CAGE_TIER {
        net = net.with_nested(cage_nested());
    }
    let mut best: Option<Step> = None;
    let mut todo: Vec<(usize, Vec<Vec<u8>>)> = Vec::new();
    for &s in shapes {
        let cells = &b.shapes[s].cells;
        if cells.iter().all(|&c| b.value[c].is_some()) {
            continue;
        }
        if let Some(fillings) = fillings(b, cells, b.shapes[s].sum.unwrap_or(0)) {
            todo.push((s, fillings));
        }
    }
    // the cage tier's branches are costly: the first shape that gives a step, fewest
    // fillings first
    let first = level == CAGE_TIER;
    if first {
        todo.sort_by_key(|t| t.1.len());
    }
    for (s, fillings) in &todo {
        let s = *s;
        let cells = &b.shapes[s].cells;
        let step = match branches(&mut net, cells, fillings, cx) {
            None => return Err(()),
            Some(None) => continue,
            Some(Some(found)) => step(b, s, level, fillings.len(), &found),
        };
        if best.as_ref().is_none_or(|x| step.weight < x.weight) && cx.wants(step.weight) {
            best = Some(step);
            if first {
                break;
            }
        }
    }
    Ok(best)
}

/// The nested rules of the cage tier: those of level 1 and the Killer rules that reason on
/// several cells of sum shapes at once, cheapest first.
fn cage_nested() -> Vec<Box<dyn LogicRule>> {
    use super::{cage_demands, cage_pairs, house_cages};
    let mut rules = super::nested_rules(MAX_LEVEL);
    rules.push(Box::new(cage_pairs::CagePairs));
    rules.push(Box::new(house_cages::HouseCombinations));
    rules.push(Box::new(cage_demands::HiddenCageCombinations));
    rules.sort_by(|a, b| a.min_weight().total_cmp(&b.min_weight()));
    rules
}

/// The fillings of `cells` that add up to `total` with cells that see each other distinct
/// (symbol per cell, in order); `None` past [`MAX_FILLINGS`].
fn fillings(b: &Board, cells: &[usize], total: i64) -> Option<Vec<Vec<u8>>> {
    let values = &b.values;
    let k = cells.len();
    let mut rest = vec![(0i64, 0i64); k + 1];
    for i in (0..k).rev() {
        let m = b.cand[cells[i]];
        let lo = bits(m).map(|v| values[v]).min().unwrap_or(0);
        let hi = bits(m).map(|v| values[v]).max().unwrap_or(0);
        rest[i] = (rest[i + 1].0 + lo, rest[i + 1].1 + hi);
    }
    let mut out = Vec::new();
    let mut at: Vec<u8> = Vec::with_capacity(k);
    // iterative depth-first walk: `next[i]` the candidates of cell i still to try
    let mut next: Vec<Mask> = vec![0; k + 1];
    let mut sum = 0i64;
    next[0] = b.cand[cells[0]];
    loop {
        let i = at.len();
        if i == k {
            if sum == total {
                if out.len() == MAX_FILLINGS {
                    return None;
                }
                out.push(at.clone());
            }
        } else if next[i] != 0 {
            let v = next[i].trailing_zeros() as usize;
            next[i] &= next[i] - 1;
            let s = sum + values[v];
            let fits = s + rest[i + 1].0 <= total && s + rest[i + 1].1 >= total;
            let seen = (0..i).any(|j| {
                at[j] as usize == v && b.peers[cells[j]].binary_search(&(cells[i] as u32)).is_ok()
            });
            if fits && !seen {
                at.push(v as u8);
                sum = s;
                if i + 1 < k {
                    next[i + 1] = b.cand[cells[i + 1]];
                }
            }
            continue;
        }
        // back up
        let Some(v) = at.pop() else { break };
        sum -= values[v as usize];
    }
    Some(out)
}

/// Runs every filling as a branch: the off potentials of open candidates every surviving
/// branch reaches, with the nets' total size; `Some(None)` when they share none; `None` when
/// the budget ran out.
fn branches(
    net: &mut Net,
    cells: &[usize],
    fillings: &[Vec<u8>],
    cx: &mut Cx,
) -> Option<Option<Found>> {
    let b = net.b;
    let mut common: Option<Vec<u64>> = None;
    let mut alive = 0;
    for f in fillings {
        if cx.tick() {
            return None;
        }
        if assume(net, cells, f, cx)?.is_some() {
            continue;
        }
        alive += 1;
        let reached = net.reached();
        match &mut common {
            None => common = Some(reached),
            Some(c) => c.iter_mut().zip(&reached).for_each(|(a, r)| *a &= r),
        }
        if common
            .as_ref()
            .is_some_and(|c| c.iter().all(|&w| w & 0x5555_5555_5555_5555 == 0))
        {
            return Some(None);
        }
    }
    // no branch survives only on a board that is already wrong: nothing to explain
    let common = common?;
    let n = b.n_symbols;
    let targets: Vec<u32> = (0..b.cell_count() * n)
        .filter(|&node| {
            let (c, v) = (node / n, node % n);
            b.value[c].is_none()
                && b.cand[c] >> v & 1 != 0
                && common[node * 2 / 64] >> (node * 2 % 64) & 1 != 0
        })
        .map(|node| (node * 2) as u32)
        .collect();
    if targets.is_empty() {
        return Some(None);
    }
    // the size: what each branch needed for the targets, or for its contradiction
    let mut size = 0;
    for f in fillings {
        size += match assume(net, cells, f, cx)? {
            Some((on, off)) => net.size(&[on, off]),
            None => net.size(&targets),
        };
    }
    Some(Some(Found {
        targets,
        size,
        alive,
    }))
}

/// Assumes filling `f` of `cells` and propagates: the opposite potentials met, if any;
/// `None` when the budget ran out.
fn assume(net: &mut Net, cells: &[usize], f: &[u8], cx: &mut Cx) -> Option<Option<(u32, u32)>> {
    let b = net.b;
    let n = b.n_symbols;
    net.reset();
    for (&c, &v) in cells.iter().zip(f) {
        if b.value[c].is_none() {
            net.assume(((c * n + v as usize) * 2 + 1) as u32);
        }
    }
    let met = net.run(cx);
    if met.is_none() && cx.budget.is_out() {
        return None;
    }
    Some(met)
}

/// What the branches of one shape agree on.
struct Found {
    /// The off potentials of open candidates every surviving branch reaches.
    targets: Vec<u32>,
    /// The nets' size, summed over the branches.
    size: usize,
    /// The branches without a contradiction.
    alive: usize,
}

/// The step of shape `s` (`ways` fillings, nets nested `level` deep) removing what its
/// branches agree on.
fn step(b: &Board, s: usize, level: usize, ways: usize, found: &Found) -> Step {
    let (targets, size) = (&found.targets, found.size);
    let n = b.n_symbols;
    let eliminations: Vec<(usize, u8)> = targets
        .iter()
        .map(|&p| ((p / 2) as usize / n, ((p / 2) as usize % n) as u8))
        .collect();
    let mut cells: Vec<usize> = eliminations.iter().map(|e| e.0).collect();
    cells.dedup();
    let shape = &b.shapes[s];
    let title = match b.constraints.sum_titles.get(s).copied().unwrap_or("") {
        "" => "Cage",
        t => t,
    };
    let free = shape
        .cells
        .iter()
        .filter(|&&c| b.value[c].is_none())
        .count();
    Step {
        rule: match level {
            0 => format!("{title} forcing chains"),
            CAGE_TIER => format!("{title} forcing chains (++)"),
            _ => format!("{title} forcing chains (+)"),
        },
        family: Family::Forcing,
        size,
        weight: rate::tenths(rate::dynamic(level) + rate::length_bonus(size)),
        shapes: vec![s],
        cells,
        eliminations,
        placements: vec![],
        reason: format!(
            "{} (sum {}, {free} empty cells) can be filled {ways} ways: {}",
            shape.name,
            shape.sum.unwrap_or(0),
            branch_outcome(ways - found.alive, found.alive)
        ),
    }
}

/// "40 contradict, each of the other 10 takes these candidates out", in good English for
/// any counts.
fn branch_outcome(dead: usize, alive: usize) -> String {
    let takes = "takes these candidates out";
    match (dead, alive) {
        (0, _) => format!("each of them {takes}"),
        (1, 1) => format!("1 contradicts, the other one {takes}"),
        (1, n) => format!("1 contradicts, each of the other {n} {takes}"),
        (d, 1) => format!("{d} contradict, the other one {takes}"),
        (d, n) => format!("{d} contradict, each of the other {n} {takes}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn branch_counts_read_in_good_english() {
        assert_eq!(
            super::branch_outcome(40, 10),
            "40 contradict, each of the other 10 takes these candidates out"
        );
        assert_eq!(
            super::branch_outcome(1, 1),
            "1 contradicts, the other one takes these candidates out"
        );
        assert_eq!(
            super::branch_outcome(0, 2),
            "each of them takes these candidates out"
        );
        assert_eq!(
            super::branch_outcome(3, 1),
            "3 contradict, the other one takes these candidates out"
        );
    }

    /// The minimal 9x9 Killer `generate --killer --seed SEED` makes.
    fn generated_killer(seed: u64) -> crate::generate::Generated {
        use crate::generate::{Generator, KillerOptions, Options};
        let options = Options {
            attempts: 200,
            killer: Some(KillerOptions {
                min_size: 2,
                max_size: 5,
                drop_cages: true,
            }),
            limits: Limits::none(),
            ..Options::default()
        };
        let g = std::sync::Arc::new(crate::Geometry::builtin("classic9").expect("built in"));
        Generator::new(g, options)
            .expect("options")
            .generate_seeded(seed, 0)
            .expect("made")
    }

    /// On a generated minimal Killer (seed 4, as `generate --killer --seed 4` makes it), once
    /// the path has needed a step heavier than a dynamic forcing chain (+), cage forcing
    /// chains go first among the forcing rules: the path takes such a step where the
    /// lightest-first order would take a plain forcing net; before that point both orders
    /// take the same steps. Every step is checked against the solution.
    #[test]
    fn cage_forcing_goes_first_once_the_path_is_hard() {
        use crate::logic::{rate, Memo};
        let made = generated_killer(4);
        let p = &made.puzzle;
        let logic = Logic::all(9);
        let path = logic
            .solve(&p.geometry, &p.givens, Some(&made.solution))
            .expect("a path");
        assert!(path.solved && !path.search);
        let budget = Budget::unlimited();
        let (mut b, mut hardest, mut went_first) = (path.start.clone(), 0.0f64, 0);
        let key = |s: &Step| (s.rule.clone(), s.eliminations.clone(), s.placements.clone());
        for step in &path.steps {
            let mut memo = Memo(vec![0; logic.rules.len()]);
            if hardest <= rate::dynamic(super::MAX_LEVEL) {
                let lightest = logic.step(&b, &budget, &mut memo, 0.0).expect("a step");
                assert_eq!(key(&lightest), key(step));
            } else if step.rule.starts_with("Cage forcing chains") {
                let lightest = logic.step(&b, &budget, &mut memo, 0.0).expect("a step");
                went_first += usize::from(!lightest.rule.starts_with("Cage forcing chains"));
            }
            b.apply(step);
            hardest = hardest.max(step.weight);
        }
        assert!(hardest > rate::dynamic(super::MAX_LEVEL));
        assert!(went_first > 0, "no cage forcing step went first");
    }

    /// On a generated minimal Killer (seed 2) the lighter rules get stuck after 22 steps with
    /// 78 cells empty; the cage tier takes it on to the end. Every step is checked against the
    /// solution, and where the cage tier takes its first step the lighter tiers of sum forcing
    /// find nothing, and the tier's step there removes only candidates the solution does not use.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "about a minute of release-build solving")]
    fn the_cage_tier_goes_on_where_the_lighter_tiers_stop() {
        use crate::logic::rate;
        let made = generated_killer(2);
        let p = &made.puzzle;
        let sol = &made.solution;
        let path = Logic::all(9)
            .solve(&p.geometry, &p.givens, Some(sol))
            .expect("a path");
        assert!(path.solved && !path.search);
        let first = path
            .steps
            .iter()
            .position(|s| s.rule.ends_with("(++)"))
            .expect("a cage tier step");
        let mut b = path.start.clone();
        for step in &path.steps[..first] {
            b.apply(step);
        }
        let budget = Budget::unlimited();
        assert!(super::SumForcing.find(&b, &mut Cx::new(&budget)).is_none());
        let step = super::SumForcingCages
            .find(&b, &mut Cx::new(&budget))
            .expect("a step");
        assert!(!step.eliminations.is_empty());
        for &(c, v) in &step.eliminations {
            assert_ne!(sol[c], v, "{}", b.cell(c));
            assert!(b.cand[c] >> v & 1 != 0);
        }
        assert!(step.weight >= rate::dynamic(super::CAGE_TIER));
    }

    use crate::engine::{Engine, Limits};
    use crate::logic::rules::forcing::{Forcing, NetKind};
    use crate::logic::rules::LogicRule;
    use crate::logic::Step;
    use crate::logic::{Budget, Cx, Logic, Until};
    use crate::puzzle::Puzzle;

    /// On the little-killer example, once the rules lighter than the dynamic forcing chains
    /// are stuck (and those chains find nothing either), the diagonals' fillings as branches
    /// remove candidates, each of them wrong in the solution, and the rule lists every
    /// filling of the shape it names.
    #[test]
    fn the_fillings_of_a_diagonal_force_what_one_assumption_cannot() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/kinds/");
        let p = Puzzle::load(format!("{root}little-killer.toml")).expect("an example");
        let sol = Engine::new(&p.geometry).solve(&p.givens, Limits::none());
        let sol = &sol.solutions[0];
        let budget = Budget::unlimited();
        let below = Logic::all(9).below(crate::logic::rate::DYNAMIC);
        let path = below
            .solve_until(
                &p.geometry,
                &p.givens,
                Some(sol),
                &budget,
                Until::Weight(100.0),
            )
            .expect("a path");
        assert!(!path.solved);
        let b = path.end;
        assert!(Forcing(NetKind::Dynamic(0))
            .find(&b, &mut Cx::new(&budget))
            .is_none());
        let step = super::SumForcing
            .find(&b, &mut Cx::new(&budget))
            .expect("a step");
        assert_eq!(step.rule, "Little killer forcing chains");
        assert!(!step.eliminations.is_empty());
        for &(c, v) in &step.eliminations {
            assert_ne!(sol[c], v, "{}", b.cell(c));
            assert!(b.cand[c] >> v & 1 != 0);
        }
        // the fillings are every way to add up to the total with peers distinct
        let s = step.shapes[0];
        let cells = &b.shapes[s].cells;
        let total = b.shapes[s].sum.expect("a sum");
        let fillings = super::fillings(&b, cells, total).expect("few");
        let mut count = 0;
        let mut walk = vec![0usize; cells.len()];
        'all: loop {
            let ok = walk
                .iter()
                .enumerate()
                .all(|(i, &v)| b.cand[cells[i]] >> v & 1 != 0)
                && walk.iter().map(|&v| b.values[v]).sum::<i64>() == total
                && (0..cells.len()).all(|i| {
                    (0..i).all(|j| {
                        walk[i] != walk[j] || !b.peers[cells[i]].contains(&(cells[j] as u32))
                    })
                });
            if ok {
                count += 1;
                let f: Vec<u8> = walk.iter().map(|&v| v as u8).collect();
                assert!(fillings.contains(&f));
            }
            for w in walk.iter_mut() {
                *w += 1;
                if *w < 9 {
                    continue 'all;
                }
                *w = 0;
            }
            break;
        }
        assert_eq!(count, fillings.len());
    }
}
