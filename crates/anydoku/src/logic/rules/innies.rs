//! Innies and outies with ranges: the law of 45 on unions of complete shapes as equations
//! `sum(plus) − sum(minus) = total`, each cell keeping only the values that some choice of the
//! other cells' candidates completes.
//!
//! A union of complete shapes adds up to a known total; the cages wholly inside it leave the
//! *innies* (the union's other cells) with a known total, and the cages that stick out of it
//! turn that into "innies minus outies = constant" (the outies being those cages' cells
//! outside). The derived sum shapes of [`crate::geometry::partition`] cover the small pure
//! cases (at most a few cells); this rule takes every other innie and every mixed equation of
//! the same unions, of any size up to [`crate::geometry::partition::Linear`]'s bound, and
//! narrows them by the sums still reachable: the cells are split into groups of cells that
//! see each other (so take distinct symbols), each group's sums are walked exactly, and the
//! groups' sums are added up as sets, so a value stays only when the other groups can make up
//! the rest. The equations are found once, with the board. The sum shapes whose cells may repeat
//! (derived innies and outies across shapes) are equations too: their cells that see each other
//! must still differ, which the cage combinations do not look at.
//!
//! To reason about more equations, add them where the board collects them (unions of more
//! shapes, or sums of cages of other kinds); the rule takes any list of cells with signs.

use super::{LogicRule, Step};
use crate::geometry::partition::Linear;
use crate::logic::board::{bits, Board, LShape, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// One law-of-45 equation: the `plus` cells add up to `total` more than the `minus` cells.
#[derive(Debug, Clone)]
pub struct Equation {
    /// The union's name ("Row 1 + Row 2").
    pub name: String,
    /// The complete shapes of the union (board shape indices).
    pub members: Vec<usize>,
    /// Cells counted positively.
    pub plus: Vec<usize>,
    /// Cells counted negatively.
    pub minus: Vec<usize>,
    /// `sum(plus) − sum(minus)`.
    pub total: i64,
}

/// Innies and outies with ranges.
pub struct InniesOuties;

impl LogicRule for InniesOuties {
    fn name(&self) -> &str {
        "Innies and outies"
    }
    fn family(&self) -> Family {
        Family::Cages
    }
    fn min_weight(&self) -> f64 {
        rate::innies(1, false)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let mut best: Option<Step> = None;
        for e in b.equations.iter() {
            let cells = || e.plus.iter().chain(&e.minus);
            let free = cells().filter(|&&c| b.value[c].is_none()).count();
            let mixed = !e.plus.is_empty() && !e.minus.is_empty();
            let weight = rate::innies(free, mixed);
            if free == 0
                || best.as_ref().is_some_and(|x| x.weight <= weight)
                || !cells().any(|&c| b.changed_since(c, cx.since))
                || !cx.wants(weight)
            {
                continue;
            }
            if let Some(step) = equation_step(b, e, free, weight) {
                best = Some(step);
            }
        }
        best
    }
}

/// The equations of a board: the law of 45's (`linear`, cells by index) and every sum shape
/// whose cells may repeat (its cells that see each other must still differ).
pub(crate) fn equations(shapes: &[LShape], linear: Vec<Linear>) -> Vec<Equation> {
    let mut out: Vec<Equation> = linear
        .into_iter()
        .map(|l| Equation {
            name: l.name,
            members: l.members,
            plus: l.plus.iter().map(|c| c.index()).collect(),
            minus: l.minus.iter().map(|c| c.index()).collect(),
            total: l.total,
        })
        .collect();
    for (i, s) in shapes.iter().enumerate() {
        if let (Some(total), false) = (s.sum, s.unique) {
            out.push(Equation {
                name: s.name.clone(),
                members: vec![i],
                plus: s.cells.clone(),
                minus: Vec::new(),
                total,
            });
        }
    }
    out
}

/// Assignments tried at most per group of cells that see each other.
const MAX_GROUP_PRODUCT: usize = 4096;

/// Cells that all see each other (so take distinct symbols), with one sign: every sum their
/// distinct assignments reach, and per cell and symbol the sums with that symbol there. Sums
/// are shifted by `lo` and kept as bits of a `u64`.
struct Group {
    cells: Vec<usize>,
    lo: i64,
    sums: u64,
    /// `n_symbols` masks per cell.
    with: Vec<u64>,
}

/// Splits the cells of `e` into groups of cells that see each other, of one sign, with few
/// assignments and a sum range under 64, and works out each group's sums (`None` when a cell
/// has no candidate or too wide a range).
fn groups(b: &Board, e: &Equation) -> Option<Vec<Group>> {
    let value = |s: usize, neg: bool| if neg { -b.values[s] } else { b.values[s] };
    let bounds = |c: usize, neg: bool| {
        bits(b.cand[c]).fold((i64::MAX, i64::MIN), |(lo, hi), s| {
            (lo.min(value(s, neg)), hi.max(value(s, neg)))
        })
    };
    let mut out: Vec<(Vec<usize>, bool, usize, i64)> = Vec::new();
    for (neg, side) in [(false, &e.plus), (true, &e.minus)] {
        for &c in side {
            let (lo, hi) = bounds(c, neg);
            if b.cand[c] == 0 || hi - lo >= 64 {
                return None;
            }
            let count = b.cand[c].count_ones() as usize;
            let fits = out.iter().position(|(cells, n, product, range)| {
                *n == neg
                    && product * count <= MAX_GROUP_PRODUCT
                    && range + (hi - lo) < 64
                    && cells.iter().all(|&d| b.sees(c, d))
            });
            match fits {
                Some(i) => {
                    out[i].0.push(c);
                    out[i].2 *= count;
                    out[i].3 += hi - lo;
                }
                None => out.push((vec![c], neg, count, hi - lo)),
            }
        }
    }
    let groups = out
        .into_iter()
        .map(|(cells, neg, _, _)| {
            let lo: i64 = cells.iter().map(|&c| bounds(c, neg).0).sum();
            let mut g = Group {
                with: vec![0; cells.len() * b.n_symbols],
                cells,
                lo,
                sums: 0,
            };
            let mut path = vec![0usize; g.cells.len()];
            walk(b, &mut g, neg, 0, 0, 0, &mut path);
            g
        })
        .collect();
    Some(groups)
}

/// Every distinct assignment of the group's cells from `i` on (`used` symbols, `sum` so far).
fn walk(b: &Board, g: &mut Group, neg: bool, i: usize, used: Mask, sum: i64, path: &mut [usize]) {
    if i == g.cells.len() {
        let bit = 1u64 << (sum - g.lo);
        g.sums |= bit;
        for (d, &s) in path.iter().enumerate() {
            g.with[d * b.n_symbols + s] |= bit;
        }
        return;
    }
    for s in bits(b.cand[g.cells[i]] & !used) {
        path[i] = s;
        let v = if neg { -b.values[s] } else { b.values[s] };
        walk(b, g, neg, i + 1, used | 1 << s, sum + v, path);
    }
}

/// `to |= from << by` on sets of sums as words.
fn shift_or(to: &mut [u64], from: &[u64], by: usize) {
    let (w, r) = (by / 64, by % 64);
    for i in (w..to.len()).rev() {
        let lo = from[i - w] << r;
        let hi = if r > 0 && i > w {
            from[i - w - 1] >> (64 - r)
        } else {
            0
        };
        to[i] |= lo | hi;
    }
}

/// The sums of one from `a` and one from `b` (sets of `words` words).
fn add_sets(a: &[u64], b: &[u64], words: usize) -> Vec<u64> {
    let mut out = vec![0u64; words];
    for (i, &w) in a.iter().enumerate() {
        for k in bits(w) {
            shift_or(&mut out, b, i * 64 + k);
        }
    }
    out
}

/// Per cell of `e` (plus cells first, then minus cells), the symbols some assignment of the
/// equation uses, with cells that see each other distinct within a group. `None` when the
/// sums span too wide a range.
pub fn equation_support(b: &Board, e: &Equation) -> Option<Vec<Mask>> {
    const MAX_RANGE: usize = 1 << 12;
    let groups = groups(b, e)?;
    let range: usize = groups
        .iter()
        .map(|g| 64 - g.sums.leading_zeros() as usize)
        .sum();
    if range >= MAX_RANGE {
        return None;
    }
    let words = range / 64 + 1;
    let lo: i64 = groups.iter().map(|g| g.lo).sum();
    let Ok(target) = usize::try_from(e.total - lo) else {
        return Some(vec![0; e.plus.len() + e.minus.len()]);
    };
    let k = groups.len();
    let set = |g: &Group| {
        let mut v = vec![0u64; words];
        v[0] = g.sums;
        v
    };
    let mut unit = vec![0u64; words];
    unit[0] = 1;
    let mut before = vec![unit.clone()];
    for g in &groups {
        let next = add_sets(before.last().expect("one"), &set(g), words);
        before.push(next);
    }
    let mut after = vec![unit; k + 1];
    for i in (0..k).rev() {
        after[i] = add_sets(&after[i + 1], &set(&groups[i]), words);
    }
    let get = |v: &[u64], i: usize| v.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
    let mut support: Vec<(usize, Mask)> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let others = add_sets(&before[i], &after[i + 1], words);
        let fits: u64 = bits(g.sums)
            .filter(|&t| target >= t && get(&others, target - t))
            .fold(0, |m, t| m | 1 << t);
        for (d, &c) in g.cells.iter().enumerate() {
            let keep = bits(b.cand[c])
                .filter(|&s| g.with[d * b.n_symbols + s] & fits != 0)
                .fold(0, |m, s| m | 1 << s);
            support.push((c, keep));
        }
    }
    Some(
        e.plus
            .iter()
            .chain(&e.minus)
            .map(|&c| support.iter().find(|x| x.0 == c).map_or(0, |x| x.1))
            .collect(),
    )
}

/// The step of equation `e`, if its ranges remove anything.
fn equation_step(b: &Board, e: &Equation, free: usize, weight: f64) -> Option<Step> {
    let support = equation_support(b, e)?;
    // no value fits at all: the board is already broken, which other rules will say
    if support.contains(&0) {
        return None;
    }
    let mut elim = Vec::new();
    for (&c, &keep) in e.plus.iter().chain(&e.minus).zip(&support) {
        if b.value[c].is_none() {
            for v in bits(b.cand[c] & !keep) {
                elim.push((c, v as u8));
            }
        }
    }
    if elim.is_empty() {
        return None;
    }
    let side = |cells: &[usize]| {
        if cells.len() == 1 {
            b.cells_text(cells)
        } else {
            format!("({})", b.cells_text(cells).replace(", ", " + "))
        }
    };
    let equation = match (e.plus.is_empty(), e.minus.is_empty()) {
        (false, true) => format!("{} = {}", side(&e.plus), e.total),
        (true, false) => format!("{} = {}", side(&e.minus), -e.total),
        _ => format!("{} − {} = {}", side(&e.plus), side(&e.minus), e.total),
    };
    Some(Step {
        rule: "Innies and outies".into(),
        family: Family::Cages,
        size: free,
        weight,
        shapes: e.members.clone(),
        cells: e.plus.iter().chain(&e.minus).copied().collect(),
        placements: vec![],
        eliminations: elim,
        reason: if e.members.len() == 1 && b.shapes[e.members[0]].sum.is_some() {
            format!(
                "{}: with the cells that see each other distinct, {equation}",
                e.name
            )
        } else {
            format!("the law of 45 on {} gives {equation}", e.name)
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::build;

    fn board() -> Board {
        let g = build::from_toml(
            "name = \"k\"\nsymbols = \"123456789\"\n[[grid]]\nsize = 9\nboxes = [3, 3]\n\
             [[cage]]\ncells = \"r1c1-2\"\nsum = 3\n",
        )
        .unwrap();
        Board::new(&g, &[None; 81]).unwrap()
    }

    /// Per cell, the symbols of every assignment that fits the equation, with cells that see
    /// each other distinct (`distinct`) or not.
    fn brute(b: &Board, e: &Equation, distinct: bool) -> Vec<Mask> {
        let cells: Vec<usize> = e.plus.iter().chain(&e.minus).copied().collect();
        let mut out = vec![0; cells.len()];
        let mut path = vec![0usize; cells.len()];
        fn go(
            b: &Board,
            e: &Equation,
            cells: &[usize],
            d: bool,
            i: usize,
            p: &mut [usize],
            out: &mut [Mask],
        ) {
            if i == cells.len() {
                let sum: i64 = p
                    .iter()
                    .enumerate()
                    .map(|(j, &s)| {
                        if j < e.plus.len() {
                            b.values[s]
                        } else {
                            -b.values[s]
                        }
                    })
                    .sum();
                if sum == e.total {
                    p.iter().enumerate().for_each(|(j, &s)| out[j] |= 1 << s);
                }
                return;
            }
            for s in bits(b.cand[cells[i]]) {
                if d && (0..i).any(|j| p[j] == s && b.sees(cells[i], cells[j])) {
                    continue;
                }
                p[i] = s;
                go(b, e, cells, d, i + 1, p, out);
            }
        }
        go(b, e, &cells, distinct, 0, &mut path, &mut out);
        out
    }

    /// The support keeps every value of a valid assignment, and only values that some
    /// assignment without the distinctness uses; distinct cells matter within a group.
    #[test]
    fn support_lies_between_the_exact_and_the_plain_one() {
        let mut b = board();
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let mut next = || rng.gen::<u64>();
        let mut narrowed = 0;
        for _ in 0..400 {
            let k = 2 + (next() % 5) as usize;
            let mut cells: Vec<usize> = Vec::new();
            while cells.len() < k {
                // cells of the first three rows, so that many see each other
                let c = (next() % 27) as usize;
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
            for &c in &cells {
                b.cand[c] = (next() & 0x1ff) | 1 << (next() % 9);
            }
            let split = (next() % (k as u64 + 1)) as usize;
            let e = Equation {
                name: "test".into(),
                members: vec![],
                plus: cells[..split].to_vec(),
                minus: cells[split..].to_vec(),
                total: (next() % 30) as i64 - 12,
            };
            let got = equation_support(&b, &e).unwrap();
            let exact = brute(&b, &e, true);
            let plain = brute(&b, &e, false);
            for j in 0..k {
                assert_eq!(exact[j] & !got[j], 0, "{e:?} lost a value");
                assert_eq!(got[j] & !plain[j], 0, "{e:?} kept a value no sum allows");
            }
            narrowed += usize::from(got != plain);
        }
        assert!(narrowed > 0, "distinct cells never narrowed anything");
        // r1c1 + r1c2 = 4 with 1, 2, 3: not 2 + 2
        b.cand[0] = 0b111;
        b.cand[1] = 0b111;
        let e = Equation {
            name: "row".into(),
            members: vec![],
            plus: vec![0, 1],
            minus: vec![],
            total: 4,
        };
        assert_eq!(equation_support(&b, &e).unwrap(), vec![0b101, 0b101]);
    }
}
