//! Cage combinations: each cell of a sum shape keeps only the symbols that occur in some complete
//! assignment of the shape consistent with every cell's candidates (and, for a unique shape, with
//! no repeats). Also used by the board to know which symbols a unique cage *must* contain.
//!
//! Unique shapes with few candidates try every assignment; others enumerate symbol sets with
//! the right total and check, by bipartite matching, which (cell, symbol) pairs lie on some
//! complete assignment. Non-unique sum shapes use the sums reachable before and after each cell
//! (exact), or only the cells' ranges when the sums span too wide a range.

use super::{LogicRule, Step};
use crate::logic::board::{bits, Board, Mask};
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// For a unique sum shape with cell candidates `cands`: every symbol set with the right total
/// that can be assigned to the cells, with the per-cell symbols used by some such assignment.
pub fn unique_combinations(values: &[i64], cands: &[Mask], total: i64) -> Vec<(Mask, Vec<Mask>)> {
    let product: usize = cands
        .iter()
        .map(|m| m.count_ones() as usize)
        .try_fold(1usize, |p, c| p.checked_mul(c).filter(|&x| x <= 4096))
        .unwrap_or(usize::MAX);
    if product <= 4096 {
        return by_cells(values, cands, total);
    }
    by_sets(values, cands, total)
}

/// [`unique_combinations`] by trying every assignment, cell by cell (few candidates).
fn by_cells(values: &[i64], cands: &[Mask], total: i64) -> Vec<(Mask, Vec<Mask>)> {
    let k = cands.len();
    let lo: Vec<i64> = cands
        .iter()
        .map(|&m| bits(m).map(|s| values[s]).min().unwrap_or(0))
        .collect();
    let hi: Vec<i64> = cands
        .iter()
        .map(|&m| bits(m).map(|s| values[s]).max().unwrap_or(0))
        .collect();
    let mut lo_rest = vec![0; k + 1];
    let mut hi_rest = vec![0; k + 1];
    for i in (0..k).rev() {
        lo_rest[i] = lo_rest[i + 1] + lo[i];
        hi_rest[i] = hi_rest[i + 1] + hi[i];
    }
    let mut out: Vec<(Mask, Vec<Mask>)> = Vec::new();
    let mut path = vec![0usize; k];
    struct Ctx<'a> {
        values: &'a [i64],
        cands: &'a [Mask],
        total: i64,
        lo: &'a [i64],
        hi: &'a [i64],
    }
    fn go(
        x: &Ctx,
        i: usize,
        sum: i64,
        used: Mask,
        path: &mut [usize],
        out: &mut Vec<(Mask, Vec<Mask>)>,
    ) {
        if i == x.cands.len() {
            if sum == x.total {
                let entry = match out.iter().position(|e| e.0 == used) {
                    Some(j) => &mut out[j],
                    None => {
                        out.push((used, vec![0; path.len()]));
                        out.last_mut().expect("just pushed")
                    }
                };
                for (d, &s) in path.iter().enumerate() {
                    entry.1[d] |= 1 << s;
                }
            }
            return;
        }
        if sum + x.lo[i] > x.total || sum + x.hi[i] < x.total {
            return;
        }
        for s in bits(x.cands[i] & !used) {
            path[i] = s;
            go(x, i + 1, sum + x.values[s], used | 1 << s, path, out);
        }
    }
    let x = Ctx {
        values,
        cands,
        total,
        lo: &lo_rest,
        hi: &hi_rest,
    };
    go(&x, 0, 0, 0, &mut path, &mut out);
    out
}

/// [`unique_combinations`] by symbol sets with the right total, each checked by matching.
fn by_sets(values: &[i64], cands: &[Mask], total: i64) -> Vec<(Mask, Vec<Mask>)> {
    let k = cands.len();
    let union = cands.iter().fold(0, |m, &c| m | c);
    let syms: Vec<usize> = bits(union).collect();
    let m = syms.len();
    // per start i and count j: the least and greatest sums of j symbols of syms[i..]
    let mut lo = vec![0i64; (m + 1) * (k + 1)];
    let mut hi = vec![0i64; (m + 1) * (k + 1)];
    for i in 0..=m {
        let mut rest: Vec<i64> = syms[i..].iter().map(|&s| values[s]).collect();
        rest.sort_unstable();
        for j in 1..=k.min(rest.len()) {
            lo[i * (k + 1) + j] = lo[i * (k + 1) + j - 1] + rest[j - 1];
            hi[i * (k + 1) + j] = hi[i * (k + 1) + j - 1] + rest[rest.len() - j];
        }
    }
    let mut out = Vec::new();
    let mut pick: Vec<usize> = Vec::with_capacity(k);
    struct Ctx<'a> {
        syms: &'a [usize],
        values: &'a [i64],
        k: usize,
        total: i64,
        lo: &'a [i64],
        hi: &'a [i64],
    }
    fn go(x: &Ctx, i: usize, sum: i64, pick: &mut Vec<usize>, found: &mut dyn FnMut(&[usize])) {
        let need = x.k - pick.len();
        if need == 0 {
            if sum == x.total {
                found(pick);
            }
            return;
        }
        if x.syms.len() - i < need {
            return;
        }
        let at = i * (x.k + 1) + need;
        if sum + x.lo[at] > x.total || sum + x.hi[at] < x.total {
            return;
        }
        pick.push(x.syms[i]);
        go(x, i + 1, sum + x.values[x.syms[i]], pick, found);
        pick.pop();
        go(x, i + 1, sum, pick, found);
    }
    let x = Ctx {
        syms: &syms,
        values,
        k,
        total,
        lo: &lo,
        hi: &hi,
    };
    go(&x, 0, 0, &mut pick, &mut |set| {
        let set_mask: Mask = set.iter().fold(0, |m, &s| m | 1 << s);
        let restricted: Vec<Mask> = cands.iter().map(|&c| c & set_mask).collect();
        let mut support = vec![0; k];
        for c in 0..k {
            for s in bits(restricted[c]) {
                if support[c] & (1 << s) != 0 {
                    continue;
                }
                if let Some(assign) = matching_with(&restricted, c, s) {
                    for (d, &t) in assign.iter().enumerate() {
                        support[d] |= 1 << t;
                    }
                }
            }
        }
        if support.iter().all(|&m| m != 0) {
            out.push((set_mask, support));
        }
    });
    out
}

/// Per cell, the symbols of `cands` that lie on some perfect matching of the cells to distinct
/// symbols, or `None` when there is no perfect matching.
pub(crate) fn matching_support(cands: &[Mask]) -> Option<Vec<Mask>> {
    let k = cands.len();
    let mut support = vec![0; k];
    for c in 0..k {
        for s in bits(cands[c] & !support[c]) {
            if let Some(assign) = matching_with(cands, c, s) {
                for (d, &t) in assign.iter().enumerate() {
                    support[d] |= 1 << t;
                }
            }
        }
        if support[c] == 0 {
            return None;
        }
    }
    Some(support)
}

/// A perfect matching of cells to distinct symbols with cell `c` fixed to `s` (Kuhn's algorithm).
fn matching_with(cands: &[Mask], c: usize, s: usize) -> Option<Vec<usize>> {
    let k = cands.len();
    let mut owner: [usize; 64] = [usize::MAX; 64];
    let mut assign = vec![usize::MAX; k];
    owner[s] = c;
    assign[c] = s;
    fn augment(
        d: usize,
        cands: &[Mask],
        owner: &mut [usize; 64],
        assign: &mut [usize],
        seen: &mut Mask,
        fixed: usize,
    ) -> bool {
        for t in bits(cands[d] & !*seen) {
            *seen |= 1 << t;
            let o = owner[t];
            if o == fixed {
                continue;
            }
            if o == usize::MAX || augment(o, cands, owner, assign, seen, fixed) {
                owner[t] = d;
                assign[d] = t;
                return true;
            }
        }
        false
    }
    for d in 0..k {
        if d == c {
            continue;
        }
        let mut seen: Mask = 1 << s;
        if !augment(d, cands, &mut owner, &mut assign, &mut seen, c) {
            return None;
        }
    }
    Some(assign)
}

/// Per-cell supported symbols of a non-unique sum shape, or `None` when its possible sums
/// span too wide a range. Exact: the sums reachable by the cells before and after each cell,
/// as bitsets over the range of possible totals, tell which of its values complete the total.
pub fn repeat_support(values: &[i64], cands: &[Mask], total: i64) -> Option<Vec<Mask>> {
    const MAX_RANGE: i64 = 1 << 14;
    let k = cands.len();
    if cands.contains(&0) {
        return Some(vec![0; k]);
    }
    let lo_of = |m: Mask| bits(m).map(|s| values[s]).min().unwrap_or(0);
    let hi_of = |m: Mask| bits(m).map(|s| values[s]).max().unwrap_or(0);
    let lo: i64 = cands.iter().map(|&m| lo_of(m)).sum();
    let hi: i64 = cands.iter().map(|&m| hi_of(m)).sum();
    if total < lo || total > hi {
        return Some(vec![0; k]);
    }
    let range = hi - lo;
    if range >= MAX_RANGE {
        return None;
    }
    // sums are shifted so that each cell's smallest value counts 0
    let words = (range as usize + 1).div_ceil(64);
    let shifted = |i: usize, s: usize| (values[s] - lo_of(cands[i])) as usize;
    let step = |from: &[u64], i: usize| -> Vec<u64> {
        let mut to = vec![0u64; words];
        for s in bits(cands[i]) {
            shift_or(&mut to, from, shifted(i, s));
        }
        to
    };
    let mut before = vec![vec![0u64; words]; k + 1];
    before[0][0] = 1;
    for i in 0..k {
        before[i + 1] = step(&before[i], i);
    }
    let mut after = vec![vec![0u64; words]; k + 1];
    after[k][0] = 1;
    for i in (0..k).rev() {
        after[i] = step(&after[i + 1], i);
    }
    let target = (total - lo) as usize;
    let support = (0..k)
        .map(|i| {
            bits(cands[i])
                .filter(|&s| {
                    let need = target.checked_sub(shifted(i, s));
                    need.is_some_and(|need| {
                        (0..=need).any(|a| get(&before[i], a) && get(&after[i + 1], need - a))
                    })
                })
                .fold(0, |m, s| m | 1 << s)
        })
        .collect();
    Some(support)
}

fn get(set: &[u64], i: usize) -> bool {
    set.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

/// `to |= from << by`, within `to`'s length.
fn shift_or(to: &mut [u64], from: &[u64], by: usize) {
    let (w, b) = (by / 64, by % 64);
    for i in (w..to.len()).rev() {
        let lo = from[i - w] << b;
        let hi = if b > 0 && i > w {
            from[i - w - 1] >> (64 - b)
        } else {
            0
        };
        to[i] |= lo | hi;
    }
}

/// Sum shapes keep only candidates that occur in a valid assignment.
pub struct CageCombinations;

impl LogicRule for CageCombinations {
    fn name(&self) -> &str {
        "Cage combinations"
    }
    fn family(&self) -> Family {
        Family::Cages
    }
    fn min_weight(&self) -> f64 {
        rate::cage(1)
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let mut best: Option<Step> = None;
        for (i, s) in b.shapes.iter().enumerate() {
            let Some(total) = s.sum else { continue };
            let free = s.cells.iter().filter(|&&c| b.value[c].is_none()).count();
            let weight = rate::cage(free);
            if free == 0
                || !b.shape_changed_since(i, cx.since)
                || best.as_ref().is_some_and(|x| x.weight <= weight)
                || !cx.wants(weight)
            {
                continue;
            }
            if let Some(step) = cage_step(b, i, total, weight) {
                let lightest = free == 1;
                best = Some(step);
                if lightest {
                    break;
                }
            }
        }
        best
    }
}

/// The step of sum shape `i` (total `total`), if its combinations remove anything.
fn cage_step(b: &Board, i: usize, total: i64, weight: f64) -> Option<Step> {
    let s = &b.shapes[i];
    let cands: Vec<Mask> = s.cells.iter().map(|&c| b.cand[c]).collect();
    let (support, combos) = if s.unique {
        let combos = unique_combinations(&b.values, &cands, total);
        let mut support = vec![0; cands.len()];
        for (_, sup) in &combos {
            for (d, m) in sup.iter().enumerate() {
                support[d] |= m;
            }
        }
        (support, Some(combos))
    } else {
        match repeat_support(&b.values, &cands, total) {
            Some(s) => (s, None),
            None => (range_support(&b.values, &cands, total), None),
        }
    };
    let mut elim = Vec::new();
    for (d, &c) in s.cells.iter().enumerate() {
        if b.value[c].is_none() {
            for v in bits(b.cand[c] & !support[d]) {
                elim.push((c, v as u8));
            }
        }
    }
    if elim.is_empty() {
        return None;
    }
    let how = match &combos {
        Some(list) if !list.is_empty() && list.len() <= 4 => {
            let written: Vec<String> = list
                .iter()
                .map(|(set, _)| bits(*set).map(|v| b.sym(v)).collect::<Vec<_>>().join("+"))
                .collect();
            format!("can only be {}", written.join(" or "))
        }
        Some(list) => format!("has {} possible combinations", list.len()),
        None => "allows only some values per cell".into(),
    };
    let free = s.cells.iter().filter(|&&c| b.value[c].is_none()).count();
    Some(Step {
        rule: "Cage combinations".into(),
        family: Family::Cages,
        size: free,
        weight,
        shapes: vec![i],
        cells: s.cells.clone(),
        placements: vec![],
        eliminations: elim,
        reason: format!("{} (sum {total}, {} cells) {how}", s.name, s.cells.len()),
    })
}

/// Per-cell symbols of a sum shape allowed by the ranges alone: a value is kept when the other
/// cells' smallest and largest candidates can still make up the rest of the total.
pub fn range_support(values: &[i64], cands: &[Mask], total: i64) -> Vec<Mask> {
    if cands.contains(&0) {
        return cands.to_vec();
    }
    let bound = |m: Mask| -> (i64, i64) {
        bits(m).fold((i64::MAX, i64::MIN), |(lo, hi), v| {
            (lo.min(values[v]), hi.max(values[v]))
        })
    };
    let bounds: Vec<(i64, i64)> = cands.iter().map(|&m| bound(m)).collect();
    let lo: i64 = bounds.iter().map(|b| b.0).sum();
    let hi: i64 = bounds.iter().map(|b| b.1).sum();
    cands
        .iter()
        .zip(&bounds)
        .map(|(&m, &(clo, chi))| {
            let (rest_lo, rest_hi) = (lo - clo, hi - chi);
            bits(m)
                .filter(|&v| {
                    let need = total - values[v];
                    need >= rest_lo && need <= rest_hi
                })
                .fold(0, |acc, v| acc | 1 << v)
        })
        .collect()
}

/// Per-cell symbols of sum shape `s` that some valid assignment of it uses, given the cells'
/// candidates `cands`, written to `out` (exact for unique shapes and small others, by ranges
/// past a budget). A unique shape of few symbols allocates nothing.
pub fn support(b: &Board, s: usize, cands: &[Mask], out: &mut Vec<Mask>) {
    let shape = &b.shapes[s];
    let total = shape.sum.unwrap_or(0);
    out.clear();
    if shape.unique {
        if unique_support(&b.values, cands, total, out) {
            return;
        }
        out.resize(cands.len(), 0);
        for (_, sup) in unique_combinations(&b.values, cands, total) {
            for (d, m) in sup.iter().enumerate() {
                out[d] |= m;
            }
        }
    } else {
        // a kind's sum (a little killer): its cells that see each other still differ
        let kind_sum = b.constraints.sums.get(s).is_some_and(Option::is_some);
        let found = kind_sum
            .then(|| super::peer_sums::support(b, &shape.cells, cands, total))
            .flatten()
            .or_else(|| repeat_support(&b.values, cands, total))
            .unwrap_or_else(|| range_support(&b.values, cands, total));
        out.extend(found);
    }
}

/// Symbols up to this many: [`unique_support`] walks the sets of used symbols.
const SET_WALK_SYMBOLS: usize = 12;

/// Words of a bitset over every set of [`SET_WALK_SYMBOLS`] symbols.
const SET_WORDS: usize = (1 << SET_WALK_SYMBOLS) / 64;

/// The per-cell support of a unique sum shape by walking sets of used symbols: filling the
/// cells in order, the set used by the first `i` cells says which cell comes next and what
/// the sum is, so the sets reachable from the start (layer by layer, one layer per cell) and
/// those that can still end on `total` decide every candidate. Written to `out` (empty on
/// entry); false, with nothing written, when a candidate is past [`SET_WALK_SYMBOLS`]. Only
/// reachable sets are visited, and they live in arrays on the stack.
fn unique_support(values: &[i64], cands: &[Mask], total: i64, out: &mut Vec<Mask>) -> bool {
    let union = cands.iter().fold(0, |m, &c| m | c);
    if union >> SET_WALK_SYMBOLS != 0 {
        return false;
    }
    let k = cands.len();
    out.resize(k, 0);
    if k == 0 || k > union.count_ones() as usize {
        return true;
    }
    let has = |set: &[u64; SET_WORDS], m: usize| set[m / 64] >> (m % 64) & 1 == 1;
    // the reachable sets, layer after layer: layer i (the sets the first i cells can use)
    // is sets[ends[i - 1]..ends[i]] (ends[-1] = 0)
    let mut sets = [0u16; 1 << SET_WALK_SYMBOLS];
    let mut ends = [0usize; SET_WALK_SYMBOLS + 2];
    let mut reached = [0u64; SET_WORDS];
    let mut len = 1;
    ends[0] = 1;
    for i in 0..k {
        let from = if i == 0 { 0 } else { ends[i - 1] };
        for at in from..ends[i] {
            let m = sets[at] as usize;
            for v in bits(cands[i] & !(m as Mask)) {
                let to = m | 1 << v;
                if !has(&reached, to) {
                    reached[to / 64] |= 1 << (to % 64);
                    sets[len] = to as u16;
                    len += 1;
                }
            }
        }
        ends[i + 1] = len;
    }
    // backward: the reachable sets from which the remaining cells can complete the sum; a
    // symbol completing one of them is supported in its cell
    let mut good = [0u64; SET_WORDS];
    for &m in &sets[ends[k - 1]..ends[k]] {
        let m = m as usize;
        if bits(m as Mask).map(|v| values[v]).sum::<i64>() == total {
            good[m / 64] |= 1 << (m % 64);
        }
    }
    for i in (0..k).rev() {
        let from = if i == 0 { 0 } else { ends[i - 1] };
        for &m in &sets[from..ends[i]] {
            let m = m as usize;
            let mut ok = false;
            for v in bits(cands[i] & !(m as Mask)) {
                if has(&good, m | 1 << v) {
                    out[i] |= 1 << v;
                    ok = true;
                }
            }
            good[m / 64] |= (ok as u64) << (m % 64);
        }
    }
    true
}

#[cfg(test)]
mod support_tests {
    use super::*;

    /// The set walk agrees with the combinations on every small case tried (9 and 12
    /// symbols, up to 8 cells, sparse and dense candidates).
    #[test]
    fn set_walk_agrees_with_combinations() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12345);
        for n in [9usize, 12] {
            let values: Vec<i64> = (1..=n as i64).collect();
            for round in 0..3000 {
                let k = rng.gen_range(0..=if n == 9 { 6 } else { 8 });
                let full: Mask = (1 << n) - 1;
                let cands: Vec<Mask> = (0..k)
                    .map(|_| {
                        let m = rng.gen::<u64>() & full;
                        if round % 2 == 0 {
                            m
                        } else {
                            m & rng.gen::<u64>()
                        }
                    })
                    .collect();
                let total = rng.gen_range(1..=(n * (n + 1) / 2) as i64);
                let mut want = vec![0; k];
                for (_, sup) in unique_combinations(&values, &cands, total) {
                    for (d, m) in sup.iter().enumerate() {
                        want[d] |= m;
                    }
                }
                let mut got = Vec::new();
                assert!(unique_support(&values, &cands, total, &mut got));
                assert_eq!(got, want, "{cands:?} {total}");
            }
        }
        // past the walk's symbols it declines
        let mut got = Vec::new();
        assert!(!unique_support(
            &(1..=13).collect::<Vec<_>>(),
            &[1 << 12],
            13,
            &mut got
        ));
        assert!(got.is_empty());
    }
}
