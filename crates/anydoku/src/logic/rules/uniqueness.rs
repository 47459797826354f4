//! Uniqueness rules: unique rectangles (types 1–4) and the bivalue universal grave (BUG + 1),
//! geometry-free. They assume the puzzle has exactly one solution.
//!
//! **Deadly pattern.** Four empty cells a, b, c, d with a–b, c–d, a–c and b–d each sharing a
//! unique shape are deadly for symbols {x, y} when every shape meets the four cells in nothing,
//! in one of those four pairs, or (a shape that allows repeats) in all four, and none of them
//! is in a constraint kind's shape (a thermometer or a pattern may tell x from y): then x and y could
//! be swapped in a solution that used only them there, giving a second solution (a sum shape
//! keeps its total, since it meets the cells in pairs holding x and y). So the four cells never
//! all end up in {x, y}. With the cells not holding extra candidates (the *floor*) exactly
//! {x, y}, the cells with extras (the *roof*) must use one:
//!
//! * type 1: one roof cell — it loses x and y;
//! * type 2: the roof cells share one extra z — one of them is z, so z leaves every cell seeing
//!   all of them;
//! * type 3: two roof cells in one unique shape act as one cell holding their extras; with
//!   k − 1 other cells of that shape they may form a naked subset of k symbols;
//! * type 4: two roof cells in one unique shape where x has no other place — one of them is x,
//!   so neither is y.
//!
//! Everything is found through shapes and peers: "the four cells see each other in pairs" and
//! "a shape holds both roof cells" mean unique shapes of any kind (a row, a box, a jigsaw piece,
//! a diagonal, a grid's row on a Samurai), so the same code finds rectangles on every layout,
//! and the steps name the layout's own cells and shapes.
//!
//! **Weights** are Sudoku Explainer's (the rules `UniqueLoopHint` and
//! `UniqueLoopType3NakedHint` of SE 1.2.1; SE's published list puts unique rectangles and loops
//! at 4.5–5.0): 4.5 for types 1, 2 and 4 alike, and for type 3 0.1 more per symbol of its naked
//! subset above one (4.6 with a pair, 4.7 a triple, 4.8 a quad). SE's longer unique loops (6
//! cells or more) are not searched.
//!
//! To add a type: write a function from the board and a `Rect` to an optional step (see
//! `type2`), and call it from `UniqueRectangle::find` with the others.
//!
//! **BUG + 1.** When every empty cell but one has two candidates and, in every unique shape,
//! each symbol not yet placed has two places if the shape must hold it and at most one if not,
//! the puzzle restricted to those candidates has no solution or several: turning every cell to
//! its other candidate keeps every shape valid (so it is not used while a sum or a constraint
//! kind's shape has empty cells). So the one cell with three candidates takes the
//! symbol whose removal would leave such a state.

use super::subsets::{combinations, subset_word};
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Unique rectangles, types 1 to 4.
pub struct UniqueRectangle;

/// Bivalue universal grave + 1.
pub struct Bug;

/// Whether every shape meets {a, b, c, d} in nothing, one of the pairs ab, cd, ac, bd, or (a
/// shape allowing repeats) all four.
pub fn deadly(b: &Board, cells: [usize; 4]) -> bool {
    let [a, bb, c, d] = cells;
    let pairs = [(a, bb), (c, d), (a, c), (bb, d)];
    let mut shapes: Vec<usize> = cells
        .iter()
        .flat_map(|&x| b.shapes_of[x].iter().copied())
        .collect();
    shapes.sort_unstable();
    shapes.dedup();
    shapes.iter().all(|&s| {
        if b.shapes[s].constrained {
            // a thermometer, arrow, pattern, ... may tell x from y: swapping them need not
            // keep it satisfied
            return false;
        }
        let inside: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|x| b.shapes_of[*x].contains(&s))
            .collect();
        match inside.len() {
            2 => pairs.iter().any(|&(p, q)| {
                (inside[0] == p && inside[1] == q) || (inside[0] == q && inside[1] == p)
            }),
            4 => !b.shapes[s].unique,
            _ => false,
        }
    })
}

/// A rectangle found: corners (a, b, c, d with a–d and b–c diagonal) and its symbols.
struct Rect {
    cells: [usize; 4],
    xy: Mask,
}

impl LogicRule for UniqueRectangle {
    fn name(&self) -> &str {
        "Unique rectangle"
    }
    fn family(&self) -> Family {
        Family::Uniqueness
    }
    fn min_weight(&self) -> f64 {
        rate::UNIQUE_RECTANGLE
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let mut best: Option<Step> = None;
        let consider = |best: &mut Option<Step>, s: Step| {
            if best.as_ref().is_none_or(|t| s.weight < t.weight) {
                *best = Some(s);
            }
        };
        for r in rectangles(b, cx.since) {
            for s in [type1(b, &r), type2(b, &r), type4(b, &r)]
                .into_iter()
                .flatten()
            {
                consider(&mut best, s);
            }
            if best
                .as_ref()
                .is_some_and(|s| s.weight <= rate::UNIQUE_RECTANGLE)
            {
                break;
            }
            if let Some(s) = type3(b, &r) {
                consider(&mut best, s);
            }
        }
        best
    }
}

/// Every deadly rectangle with at least two floor cells ({x, y} exactly), one cell changed
/// since `since`.
fn rectangles(b: &Board, since: u32) -> Vec<Rect> {
    let empty = |c: usize| b.value[c].is_none();
    let mut out = Vec::new();
    for a in 0..b.cell_count() {
        if !empty(a) || b.cand[a].count_ones() != 2 {
            continue;
        }
        let xy = b.cand[a];
        let has = |c: usize| empty(c) && b.cand[c] & xy == xy;
        let near: Vec<usize> = b.peers[a]
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| has(p))
            .collect();
        for (i, &p) in near.iter().enumerate() {
            for &q in &near[i + 1..] {
                if b.sees(p, q) {
                    continue;
                }
                for &d in b.peers[p].iter() {
                    let d = d as usize;
                    if d == a || !has(d) || !b.sees(d, q) || b.sees(d, a) {
                        continue;
                    }
                    let cells = [a, p, q, d];
                    let floor = cells.iter().filter(|&&c| b.cand[c] == xy).count();
                    // each rectangle once: from its lowest floor cell
                    let lowest = cells.iter().filter(|&&c| b.cand[c] == xy).min();
                    if floor < 2
                        || lowest != Some(&a)
                        || !cells.iter().any(|&c| b.changed_since(c, since))
                        || !deadly(b, cells)
                    {
                        continue;
                    }
                    out.push(Rect { cells, xy });
                }
            }
        }
    }
    out
}

fn roof(b: &Board, r: &Rect) -> Vec<usize> {
    r.cells
        .iter()
        .copied()
        .filter(|&c| b.cand[c] != r.xy)
        .collect()
}

fn ur_step(
    b: &Board,
    r: &Rect,
    kind: u8,
    weight: f64,
    elim: Vec<(usize, u8)>,
    why: String,
) -> Step {
    Step {
        rule: format!("Unique rectangle type {kind}"),
        family: Family::Uniqueness,
        size: 4,
        weight,
        shapes: vec![],
        cells: r.cells.to_vec(),
        placements: vec![],
        eliminations: elim,
        reason: format!(
            "{} would be a deadly pattern on {} (the two symbols could be swapped, giving a second solution); {why}",
            b.cells_text(&r.cells),
            b.mask_text(r.xy),
        ),
    }
}

fn type1(b: &Board, r: &Rect) -> Option<Step> {
    let roof = roof(b, r);
    if roof.len() != 1 {
        return None;
    }
    let d = roof[0];
    let elim = bits(r.xy).map(|v| (d, v as u8)).collect();
    let why = format!("so {} is neither", b.cell(d));
    Some(ur_step(b, r, 1, rate::UNIQUE_RECTANGLE, elim, why))
}

fn type2(b: &Board, r: &Rect) -> Option<Step> {
    let roof = roof(b, r);
    let extra = b.cand[roof[0]] & !r.xy;
    if roof.len() < 2 || extra.count_ones() != 1 || roof.iter().any(|&c| b.cand[c] & !r.xy != extra)
    {
        return None;
    }
    let z = extra.trailing_zeros() as usize;
    let elim: Vec<(usize, u8)> = b.peers[roof[0]]
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| {
            b.value[c].is_none()
                && b.cand[c] & extra != 0
                && !roof.contains(&c)
                && roof.iter().all(|&t| b.sees(c, t))
        })
        .map(|c| (c, z as u8))
        .collect();
    if elim.is_empty() {
        return None;
    }
    let why = format!("so one of {} is {}", b.cells_text(&roof), b.sym(z));
    Some(ur_step(b, r, 2, rate::UNIQUE_RECTANGLE, elim, why))
}

/// The unique shapes holding both roof cells.
fn roof_shapes(b: &Board, roof: &[usize]) -> Vec<usize> {
    b.unique_of[roof[0]]
        .iter()
        .copied()
        .filter(|s| b.unique_of[roof[1]].contains(s))
        .collect()
}

fn type4(b: &Board, r: &Rect) -> Option<Step> {
    let roof = roof(b, r);
    if roof.len() != 2 {
        return None;
    }
    for s in roof_shapes(b, &roof) {
        for x in bits(r.xy & b.open_required(s)) {
            let places = b.with_candidate(&b.shapes[s].cells, x);
            if places.len() != 2 || !roof.iter().all(|c| places.contains(c)) {
                continue;
            }
            let y = (r.xy & !(1 << x)).trailing_zeros() as usize;
            let elim: Vec<(usize, u8)> = roof.iter().map(|&c| (c, y as u8)).collect();
            let why = format!(
                "in {}, {} can only go in {}, so neither is {}",
                b.shapes[s].name,
                b.sym(x),
                b.cells_text(&roof),
                b.sym(y)
            );
            return Some(ur_step(b, r, 4, rate::UNIQUE_RECTANGLE, elim, why));
        }
    }
    None
}

fn type3(b: &Board, r: &Rect) -> Option<Step> {
    let roof = roof(b, r);
    if roof.len() != 2 {
        return None;
    }
    let extra = (b.cand[roof[0]] | b.cand[roof[1]]) & !r.xy;
    if extra.count_ones() < 2 {
        return None;
    }
    for s in roof_shapes(b, &roof) {
        let others: Vec<usize> = b
            .free_cells(s)
            .into_iter()
            .filter(|c| !roof.contains(c) && b.cand[*c].count_ones() >= 2)
            .collect();
        for k in extra.count_ones() as usize..=others.len().min(7) {
            let mut found = None;
            combinations(others.len(), k - 1, &mut |pick| {
                let set = pick.iter().fold(extra, |m, &j| m | b.cand[others[j]]);
                if set.count_ones() as usize != k {
                    return false;
                }
                let cells: Vec<usize> = pick.iter().map(|&j| others[j]).collect();
                let elim: Vec<(usize, u8)> = b
                    .free_cells(s)
                    .into_iter()
                    .filter(|c| !roof.contains(c) && !cells.contains(c))
                    .flat_map(|c| bits(b.cand[c] & set).map(move |v| (c, v as u8)))
                    .collect();
                if elim.is_empty() {
                    return false;
                }
                found = Some((cells, set, elim));
                true
            });
            if let Some((cells, set, elim)) = found {
                let why = format!(
                    "so {} hold one of {}, which with {} makes a naked {} of {} in {}",
                    b.cells_text(&roof),
                    b.mask_text(extra),
                    b.cells_text(&cells),
                    subset_word(k),
                    b.mask_text(set),
                    b.shapes[s].name
                );
                let w = rate::UNIQUE_RECTANGLE + 0.1 * (k - 1) as f64;
                return Some(ur_step(b, r, 3, w, elim, why));
            }
        }
    }
    None
}

impl LogicRule for Bug {
    fn name(&self) -> &str {
        "Bivalue universal grave"
    }
    fn family(&self) -> Family {
        Family::Uniqueness
    }
    fn min_weight(&self) -> f64 {
        rate::BUG
    }
    fn find(&self, b: &Board, _cx: &mut Cx) -> Option<Step> {
        let mut odd = None;
        for c in 0..b.cell_count() {
            if b.value[c].is_some() {
                continue;
            }
            match b.cand[c].count_ones() {
                2 => {}
                3 if odd.is_none() => odd = Some(c),
                _ => return None,
            }
        }
        let t = odd?;
        let sums_open = b.shapes.iter().any(|s| {
            (s.sum.is_some() || s.constrained) && s.cells.iter().any(|&c| b.value[c].is_none())
        });
        if sums_open {
            return None;
        }
        let mut keys = bits(b.cand[t]).filter(|&v| grave_without(b, t, v));
        let v = keys.next()?;
        if keys.next().is_some() {
            return None;
        }
        Some(Step {
            rule: "Bivalue universal grave".into(),
            family: Family::Uniqueness,
            size: 1,
            weight: rate::BUG,
            shapes: vec![],
            cells: vec![t],
            placements: vec![(t, v as u8)],
            eliminations: vec![],
            reason: format!(
                "every other empty cell has two candidates; without {} in {} every symbol would have two places in each shape that needs it, and swapping all cells would give a second solution",
                b.sym(v),
                b.cell(t)
            ),
        })
    }
}

/// Whether the board with `v` removed from cell `t` is a bivalue universal grave.
fn grave_without(b: &Board, t: usize, v: usize) -> bool {
    let cand = |c: usize| {
        if c == t {
            b.cand[c] & !(1 << v)
        } else {
            b.cand[c]
        }
    };
    (0..b.shapes.len()).all(|s| {
        if !b.shapes[s].unique {
            return true;
        }
        let required = b.open_required(s);
        let free = b.free_cells(s);
        bits(b.full & !b.placed_in(s)).all(|x| {
            let m = free.iter().filter(|&&c| cand(c) & (1 << x) != 0).count();
            if required & (1 << x) != 0 {
                m == 2
            } else {
                m <= 1
            }
        })
    })
}
