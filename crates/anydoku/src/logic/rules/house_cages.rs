//! House combinations: the ways a complete house (a row, a column, a box: every symbol once)
//! can be filled under every cage that touches it, as a Killer solver reasons about one row
//! ("row 4 holds the 17/3 and the 10/2 and most of the 33/5, so the three cells left must
//! make 15, and only 1+5+9 or 2+4+9 fit ...").
//!
//! The house's cells are split into *groups*: the part inside the house of each unique sum
//! shape that meets it (taken in shape order, skipping one that overlaps a group already
//! taken), and every other cell alone. Each group has *options*: a symbol set its cells can
//! hold, with the per-cell symbols some assignment of the set uses. A cage wholly inside the
//! house gives its combinations; a cage that crosses the house gives, for each combination of
//! the whole cage and each way to split it, the part inside (its cells matched to the set) and
//! the part outside (matched to the rest). A lone cell's options are its candidates.
//!
//! The options fit together when their sets partition all the symbols. Walking the groups in
//! order over sets of used symbols (the sets reachable from the start, then the ones from which
//! the remaining groups can still use up every symbol) keeps exactly the options on some
//! complete filling, so a candidate no kept option uses, in the house or in a crossing cage's
//! cells outside it, is removed. The walk is exact for the house and the cages together (each
//! cage on its own outside the house), and costs sets × options per group.
//!
//! A candidate that the same walk with every cell alone removes too (a naked or hidden subset
//! of the house) is left to the subset rules, at their own weight; cage combinations and cage
//! pairs run first (they are lighter), so a step here removes what no single cage removes.
//!
//! Weight: [`crate::logic::rate::house`] of the number of cages in the house. Boards with more
//! than [`MAX_SYMBOLS`] symbols are not walked (the sets would not fit a small table). To
//! reason about larger regions (two houses sharing a cage, a band), give [`walk`] the groups
//! of the region and a target set per symbol count.

use super::cages::{matching_support, unique_combinations};
use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// Symbols at most: the walk's tables have `2^symbols` entries.
pub const MAX_SYMBOLS: usize = 12;

/// One option of a group: the symbol set it uses and the per-cell symbols of its assignments.
#[derive(Debug, Clone)]
struct Opt {
    set: Mask,
    /// Per cell of the group inside the house.
    inside: Vec<Mask>,
    /// Per cell of the group's cage outside the house.
    outside: Vec<Mask>,
}

/// A group: cells of the house (and its cage's cells outside it) with their options.
#[derive(Debug)]
struct Group {
    /// The sum shape, if any.
    shape: Option<usize>,
    inside: Vec<usize>,
    outside: Vec<usize>,
    opts: Vec<Opt>,
}

/// House combinations (see the module docs).
pub struct HouseCombinations;

impl LogicRule for HouseCombinations {
    fn name(&self) -> &str {
        "House combinations"
    }
    fn family(&self) -> Family {
        Family::Cages
    }
    fn min_weight(&self) -> f64 {
        rate::house(1)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        if b.n_symbols > MAX_SYMBOLS || !b.shapes.iter().any(|s| s.sum.is_some() && s.unique) {
            return None;
        }
        let mut best: Option<Step> = None;
        for h in 0..b.shapes.len() {
            let s = &b.shapes[h];
            if !s.complete || s.sum.is_some() || s.cells.iter().all(|&c| b.value[c].is_some()) {
                continue;
            }
            if cx.budget.is_out() {
                cx.exhaustive = false;
                return best;
            }
            let Ok(Some(groups)) = groups(b, &b.cand, h) else {
                continue;
            };
            let cages = groups.iter().filter(|g| g.shape.is_some()).count();
            let weight = rate::house(cages);
            if best.as_ref().is_some_and(|x| x.weight <= weight) || !cx.wants(weight) {
                continue;
            }
            let changed = groups.iter().any(|g| {
                g.inside
                    .iter()
                    .chain(&g.outside)
                    .any(|&c| b.changed_since(c, cx.since))
            });
            if !changed {
                continue;
            }
            if let Some(step) = house_step(b, h, &groups, weight) {
                best = Some(step);
            }
        }
        best
    }
}

/// The groups of complete shape `h` under candidates `cand` (see the module docs): `None` when
/// no sum shape with an empty cell meets it, `Err` when a cage has no option left.
fn groups(b: &Board, cand: &[Mask], h: usize) -> Result<Option<Vec<Group>>, ()> {
    let house = &b.shapes[h].cells;
    let mut taken = vec![false; house.len()];
    let mut out: Vec<Group> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for &c in house {
        for &s in &b.shapes_of[c] {
            let shape = &b.shapes[s];
            if shape.sum.is_none() || !shape.unique || shape.complete || seen.contains(&s) {
                continue;
            }
            seen.push(s);
        }
    }
    seen.sort_unstable();
    for s in seen {
        let shape = &b.shapes[s];
        let at: Vec<usize> = shape
            .cells
            .iter()
            .filter_map(|c| house.iter().position(|x| x == c))
            .collect();
        if at.iter().any(|&i| taken[i]) || at.iter().all(|&i| cand[house[i]].count_ones() == 1) {
            continue;
        }
        at.iter().for_each(|&i| taken[i] = true);
        out.push(cage_group(b, cand, s, house).ok_or(())?);
    }
    if out.is_empty() {
        return Ok(None);
    }
    for (i, &c) in house.iter().enumerate() {
        if !taken[i] {
            out.push(cell_group(cand, c));
        }
    }
    Ok(Some(out))
}

/// A lone cell: one option per candidate.
fn cell_group(cand: &[Mask], c: usize) -> Group {
    let opts = bits(cand[c])
        .map(|v| Opt {
            set: 1 << v,
            inside: vec![1 << v],
            outside: vec![],
        })
        .collect();
    Group {
        shape: None,
        inside: vec![c],
        outside: vec![],
        opts,
    }
}

/// The group of sum shape `s` in the house `house`.
fn cage_group(b: &Board, cand: &[Mask], s: usize, house: &[usize]) -> Option<Group> {
    let shape = &b.shapes[s];
    let total = shape.sum.unwrap_or(0);
    let (inside, outside): (Vec<usize>, Vec<usize>) =
        shape.cells.iter().partition(|c| house.contains(c));
    let cells: Vec<usize> = inside.iter().chain(&outside).copied().collect();
    let cands: Vec<Mask> = cells.iter().map(|&c| cand[c]).collect();
    let k = inside.len();
    let mut opts: Vec<Opt> = Vec::new();
    for (whole, support) in unique_combinations(&b.values, &cands, total) {
        if outside.is_empty() {
            opts.push(Opt {
                set: whole,
                inside: support,
                outside: vec![],
            });
            continue;
        }
        // every split of the combination: `k` symbols inside, the rest outside
        let mut part = whole;
        loop {
            if part.count_ones() as usize == k {
                let ins: Vec<Mask> = support[..k].iter().map(|m| m & part).collect();
                let outs: Vec<Mask> = support[k..].iter().map(|m| m & whole & !part).collect();
                if let (Some(ins), Some(outs)) = (matching_support(&ins), matching_support(&outs)) {
                    match opts.iter_mut().find(|o| o.set == part) {
                        Some(o) => {
                            o.inside.iter_mut().zip(&ins).for_each(|(a, m)| *a |= m);
                            o.outside.iter_mut().zip(&outs).for_each(|(a, m)| *a |= m);
                        }
                        None => opts.push(Opt {
                            set: part,
                            inside: ins,
                            outside: outs,
                        }),
                    }
                }
            }
            if part == 0 {
                break;
            }
            part = (part - 1) & whole;
        }
    }
    if opts.is_empty() {
        return None;
    }
    Some(Group {
        shape: Some(s),
        inside,
        outside,
        opts,
    })
}

/// Which options of `groups` lie on a filling that uses every symbol of `full` once, or `None`
/// when there is no such filling. Groups are walked in the given order.
fn walk(groups: &[&Group], full: Mask, n_symbols: usize) -> Option<Vec<Vec<bool>>> {
    let size = 1usize << n_symbols;
    let m = groups.len();
    // forward: the sets the first k groups can use
    let mut fwd: Vec<Vec<Mask>> = vec![vec![0]];
    let mut mark = vec![u32::MAX; size];
    for (k, g) in groups.iter().enumerate() {
        let mut next = Vec::new();
        for &used in &fwd[k] {
            for o in &g.opts {
                let to = used | o.set;
                if used & o.set == 0 && mark[to as usize] != k as u32 {
                    mark[to as usize] = k as u32;
                    next.push(to);
                }
            }
        }
        fwd.push(next);
    }
    // backward: keep the sets that can still end on `full`, and the options between them
    let mut good = vec![false; size];
    let mut good_next = vec![false; size];
    if !fwd[m].contains(&full) {
        return None;
    }
    good_next[full as usize] = true;
    let mut live: Vec<Vec<bool>> = groups.iter().map(|g| vec![false; g.opts.len()]).collect();
    for k in (0..m).rev() {
        for &used in &fwd[k] {
            for (j, o) in groups[k].opts.iter().enumerate() {
                if used & o.set == 0 && good_next[(used | o.set) as usize] {
                    live[k][j] = true;
                    good[used as usize] = true;
                }
            }
        }
        std::mem::swap(&mut good, &mut good_next);
        good.iter_mut().for_each(|x| *x = false);
    }
    Some(live)
}

/// Per cell of `groups` (in the house or in a crossing cage), the symbols some complete
/// filling uses, or `None` when there is no filling.
fn kept(b: &Board, groups: &[Group]) -> Option<Vec<(usize, Mask)>> {
    let mut order: Vec<&Group> = groups.iter().collect();
    order.sort_by_key(|g| g.opts.len());
    let live = walk(&order, b.full, b.n_symbols)?;
    let mut keep: Vec<(usize, Mask)> = Vec::new();
    let mut add = |c: usize, m: Mask| match keep.iter_mut().find(|e| e.0 == c) {
        Some(e) => e.1 |= m,
        None => keep.push((c, m)),
    };
    for (g, live) in order.iter().zip(&live) {
        g.inside.iter().chain(&g.outside).for_each(|&c| add(c, 0));
        for (o, _) in g.opts.iter().zip(live).filter(|x| *x.1) {
            g.inside
                .iter()
                .zip(&o.inside)
                .for_each(|(&c, &m)| add(c, m));
            g.outside
                .iter()
                .zip(&o.outside)
                .for_each(|(&c, &m)| add(c, m));
        }
    }
    Some(keep)
}

/// The step of complete shape `h` with groups `groups`, if the walk removes anything the plain
/// walk (every cell alone) does not.
fn house_step(b: &Board, h: usize, groups: &[Group], weight: f64) -> Option<Step> {
    let keep = kept(b, groups)?;
    // the plain walk: every cell of the house alone
    let lone: Vec<Group> = b.shapes[h]
        .cells
        .iter()
        .map(|&c| cell_group(&b.cand, c))
        .collect();
    let mut lone_order: Vec<&Group> = lone.iter().collect();
    lone_order.sort_by_key(|g| g.opts.len());
    let plain = walk(&lone_order, b.full, b.n_symbols)?;
    let mut plain_keep: Vec<(usize, Mask)> = Vec::new();
    for (g, live) in lone_order.iter().zip(&plain) {
        let m = g
            .opts
            .iter()
            .zip(live)
            .filter(|x| *x.1)
            .fold(0, |m, (o, _)| m | o.set);
        plain_keep.push((g.inside[0], m));
    }
    let mut elim = Vec::new();
    for &(c, m) in &keep {
        if b.value[c].is_some() {
            continue;
        }
        let plain = plain_keep
            .iter()
            .find(|e| e.0 == c)
            .map_or(b.cand[c], |e| e.1);
        for v in bits(b.cand[c] & !m & plain) {
            elim.push((c, v as u8));
        }
    }
    if elim.is_empty() {
        return None;
    }
    elim.sort_unstable();
    let cages: Vec<&Group> = groups.iter().filter(|g| g.shape.is_some()).collect();
    let named: Vec<String> = cages
        .iter()
        .map(|g| {
            let s = g.shape.unwrap_or(0);
            let shape = &b.shapes[s];
            let total = shape.sum.unwrap_or(0);
            if g.outside.is_empty() {
                format!("{} (sum {total})", shape.name)
            } else {
                format!(
                    "{} (sum {total}, {} of {} cells)",
                    shape.name,
                    g.inside.len(),
                    shape.cells.len()
                )
            }
        })
        .collect();
    let mut shapes = vec![h];
    shapes.extend(cages.iter().filter_map(|g| g.shape));
    let mut cells = b.shapes[h].cells.clone();
    cages.iter().for_each(|g| cells.extend(&g.outside));
    Some(Step {
        rule: "House combinations".into(),
        family: Family::Cages,
        size: cages.len(),
        weight,
        shapes,
        cells,
        placements: vec![],
        eliminations: elim,
        reason: format!(
            "{} with {}: no filling of its cells uses these candidates",
            b.shapes[h].name,
            named.join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::build;

    /// Row 1 holds two cages, meets two more that cross into row 2, and has two cells alone.
    fn board() -> Board {
        let g = build::from_toml(
            "name = \"k\"\nsymbols = \"123456789\"\n[[grid]]\nsize = 9\nboxes = [3, 3]\n\
             [[cage]]\ncells = \"r1c1 r1c2\"\nsum = 7\n\
             [[cage]]\ncells = \"r1c3 r2c3\"\nsum = 12\n\
             [[cage]]\ncells = \"r1c4 r1c5 r1c6\"\nsum = 15\n\
             [[cage]]\ncells = \"r1c7 r2c7 r2c8\"\nsum = 14\n",
        )
        .unwrap();
        Board::new(&g, &[None; 81]).unwrap()
    }

    /// A row with its cages, filled in every way.
    struct Brute<'a> {
        b: &'a Board,
        cand: &'a [Mask],
        cages: Vec<&'a crate::logic::board::LShape>,
        /// The row's cells, then the cages' cells outside it.
        cells: Vec<usize>,
        row: usize,
    }

    impl Brute<'_> {
        fn go(&self, i: usize, val: &mut [usize], out: &mut [(usize, Mask)]) {
            // every cage whose cells are all filled must be distinct and meet its total
            for c in &self.cages {
                if c.cells.iter().all(|&x| val[x] != usize::MAX) {
                    let sum: i64 = c.cells.iter().map(|&x| self.b.values[val[x]]).sum();
                    let used = c.cells.iter().fold(0u64, |m, &x| m | 1 << val[x]);
                    if sum != c.sum.unwrap() || used.count_ones() as usize != c.cells.len() {
                        return;
                    }
                }
            }
            if i == self.cells.len() {
                for (k, &x) in self.cells.iter().enumerate() {
                    out[k].1 |= 1 << val[x];
                }
                return;
            }
            let x = self.cells[i];
            for v in bits(self.cand[x]) {
                if i < self.row && self.cells[..i].iter().any(|&y| val[y] == v) {
                    continue;
                }
                val[x] = v;
                self.go(i + 1, val, out);
                val[x] = usize::MAX;
            }
        }
    }

    /// Per cell of the row and of the crossing cages, the symbols of every filling of the row
    /// (each symbol once) whose cages (the puzzle's four, not the derived sum shapes) can be
    /// completed, each cage's cells outside the row filled on their own (the cage's cells
    /// distinct, its total met).
    fn brute(b: &Board, cand: &[Mask], row: &[usize]) -> Vec<(usize, Mask)> {
        let cages: Vec<&crate::logic::board::LShape> = b
            .shapes
            .iter()
            .filter(|s| s.sum.is_some() && !s.complete)
            .take(4)
            .collect();
        let mut cells: Vec<usize> = row.to_vec();
        for c in &cages {
            cells.extend(c.cells.iter().filter(|x| !row.contains(x)));
        }
        let mut out: Vec<(usize, Mask)> = cells.iter().map(|&c| (c, 0)).collect();
        let mut val = vec![usize::MAX; b.cell_count()];
        let brute = Brute {
            b,
            cand,
            cages,
            cells,
            row: row.len(),
        };
        brute.go(0, &mut val, &mut out);
        out
    }

    /// What the walk keeps is exactly what some filling of the row and its cages uses.
    #[test]
    fn keeps_what_some_filling_uses() {
        let b = board();
        let h = (0..b.shapes.len())
            .find(|&s| b.shapes[s].complete && b.shapes[s].cells == (0..9).collect::<Vec<_>>())
            .unwrap();
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut next = || rng.gen::<u64>();
        let (mut found, mut none) = (0, 0);
        for _ in 0..300 {
            let mut cand = b.cand.clone();
            for m in cand.iter_mut() {
                while {
                    *m = next() & next() & 0x1ff | next() & 0x1ff & (next() >> 9);
                    m.count_ones() < 2
                } {}
            }
            let want = brute(&b, &cand, &b.shapes[h].cells);
            let kept =
                groups(&b, &cand, h).and_then(|g| g.map(|g| kept(&b, &g).ok_or(())).transpose());
            match kept {
                Ok(Some(mut got)) => {
                    got.sort_unstable();
                    let mut want = want;
                    want.sort_unstable();
                    assert_eq!(got, want);
                    found += 1;
                }
                Err(()) => {
                    assert!(want.iter().all(|e| e.1 == 0), "{want:?}");
                    none += 1;
                }
                Ok(None) => panic!("the row meets cages"),
            }
        }
        assert!(found > 20 && none > 20, "{found} {none}");
    }

    fn group(opts: &[Mask]) -> Group {
        Group {
            shape: None,
            inside: vec![0],
            outside: vec![],
            opts: opts
                .iter()
                .map(|&set| Opt {
                    set,
                    inside: vec![set],
                    outside: vec![],
                })
                .collect(),
        }
    }

    /// The walk keeps exactly the options on some partition of the symbols, checked against
    /// trying every choice of one option per group.
    #[test]
    fn walk_keeps_the_options_of_some_partition() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
        let mut next = || rng.gen::<u64>();
        let n = 6;
        let full: Mask = (1 << n) - 1;
        for _ in 0..500 {
            // random groups of sizes adding up to n, options random sets of that size
            let mut sizes = Vec::new();
            let mut left = n;
            while left > 0 {
                let s = 1 + (next() % left.min(3) as u64) as usize;
                sizes.push(s);
                left -= s;
            }
            let groups: Vec<Group> = sizes
                .iter()
                .map(|&s| {
                    let opts: Vec<Mask> = (0..4)
                        .map(|_| next() & full)
                        .filter(|m| m.count_ones() as usize == s)
                        .collect();
                    group(&opts)
                })
                .collect();
            let refs: Vec<&Group> = groups.iter().collect();
            let mut want: Vec<Vec<bool>> =
                groups.iter().map(|g| vec![false; g.opts.len()]).collect();
            let mut any = false;
            let mut pick = vec![0usize; groups.len()];
            fn all(
                g: &[Group],
                i: usize,
                used: Mask,
                pick: &mut [usize],
                want: &mut [Vec<bool>],
                any: &mut bool,
            ) {
                if i == g.len() {
                    *any = true;
                    pick.iter()
                        .enumerate()
                        .for_each(|(k, &j)| want[k][j] = true);
                    return;
                }
                for (j, o) in g[i].opts.iter().enumerate() {
                    if used & o.set == 0 {
                        pick[i] = j;
                        all(g, i + 1, used | o.set, pick, want, any);
                    }
                }
            }
            all(&groups, 0, 0, &mut pick, &mut want, &mut any);
            let got = walk(&refs, full, n);
            if any {
                assert_eq!(got, Some(want), "{sizes:?}");
            } else {
                assert_eq!(got, None);
            }
        }
    }
}
