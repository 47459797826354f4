//! Cage combinations: the symbol subsets whose values reach a total, listed once per (cells,
//! total) and cached per thread, and the exact supports they give a unique shape's cells
//! (a perfect matching per viable combination, then the alternating-cycle test).

use std::cell::RefCell;

use super::super::alldiff::{augment, NONE};
use super::super::Mask;
use super::{MAX_COMBOS, MAX_ENUM_NODES};

thread_local! {
    /// Per thread: the symbol values the lists below are for, and the combinations already
    /// listed for (cells, total) (`None`: too many). Killer cages repeat across puzzles, so a
    /// batch of Killers lists each kind of cage once.
    static COMBOS: RefCell<(Vec<i64>, ComboCache)> = RefCell::new(Default::default());
}

/// Per (cells, total): the nodes listing its combinations cost, and the list (`None`: too many).
pub(super) type ComboCache = rustc_hash::FxHashMap<(usize, i64), (u64, Option<Vec<Mask>>)>;

/// What one engine's tables may spend on combinations: nodes of listing, and combinations
/// kept. Each list is charged its own cost whether or not it was cached, so which shapes get
/// combinations depends only on the model, never on what a thread listed before.
#[derive(Debug, Clone, Copy)]
pub(super) struct ComboBudget {
    pub nodes: u64,
    pub combos: usize,
}

/// [`list_combos`] through the per-thread cache, under `budget`: false (the shape is filtered
/// by bounds) when the list is too long, or the budget is spent.
pub(super) fn cached_combos(
    values: &[i64],
    k: usize,
    total: i64,
    out: &mut Vec<Mask>,
    budget: &mut ComboBudget,
) -> bool {
    if budget.nodes == 0 {
        return false;
    }
    COMBOS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let (for_values, lists) = &mut *cache;
        if for_values != values || lists.len() > 4096 {
            *for_values = values.to_vec();
            lists.clear();
        }
        let (cost, list) = lists.entry((k, total)).or_insert_with(|| {
            let mut v = Vec::new();
            let (fits, nodes) = list_combos(values, k, total, &mut v);
            (nodes, fits.then_some(v))
        });
        budget.nodes = budget.nodes.saturating_sub(*cost);
        match list {
            Some(v) if v.len() <= budget.combos => {
                budget.combos -= v.len();
                out.extend_from_slice(v);
                true
            }
            _ => false,
        }
    })
}

/// Appends every `k`-subset of symbols whose values add up to `total`. False if there are more
/// than [`MAX_COMBOS`] or listing them costs too much; with the nodes it took.
pub(super) fn list_combos(
    values: &[i64],
    k: usize,
    total: i64,
    out: &mut Vec<Mask>,
) -> (bool, u64) {
    let n = values.len();
    // suffix bounds for pruning: smallest/largest sum of `r` values among symbols i.. is bounded
    // by r * min/max of the suffix (cheap and valid for any values)
    let mut suf_min = vec![i64::MAX; n + 1];
    let mut suf_max = vec![i64::MIN; n + 1];
    for i in (0..n).rev() {
        suf_min[i] = suf_min[i + 1].min(values[i]);
        suf_max[i] = suf_max[i + 1].max(values[i]);
    }
    struct St<'a> {
        values: &'a [i64],
        suf_min: &'a [i64],
        suf_max: &'a [i64],
        nodes: u64,
        out: &'a mut Vec<Mask>,
        start: usize,
    }
    fn go(st: &mut St, i: usize, left: usize, sum: i64, total: i64, mask: Mask) -> bool {
        st.nodes += 1;
        if st.nodes > MAX_ENUM_NODES || st.out.len() - st.start > MAX_COMBOS {
            return false;
        }
        if left == 0 {
            if sum == total {
                st.out.push(mask);
            }
            return true;
        }
        let n = st.values.len();
        if n - i < left {
            return true;
        }
        let r = left as i64;
        if sum + r * st.suf_min[i] > total || sum + r * st.suf_max[i] < total {
            return true;
        }
        go(
            st,
            i + 1,
            left - 1,
            sum + st.values[i],
            total,
            mask | (1 << i),
        ) && go(st, i + 1, left, sum, total, mask)
    }
    let start = out.len();
    let mut st = St {
        values,
        suf_min: &suf_min,
        suf_max: &suf_max,
        nodes: 0,
        out,
        start,
    };
    let fits = go(&mut st, 0, k, 0, total, 0) && st.out.len() - start <= MAX_COMBOS;
    (fits, st.nodes)
}

/// Exact supports of a unique shape from its combinations, given its cells' candidates
/// `masks`: `keep[j]` gets every symbol cell `j` takes in some assignment. Returns the required
/// symbols (in every viable combination), or `None` if no combination is viable. Without `all`,
/// it stops as soon as no candidate can be removed any more (then `required` is not exact).
pub(super) fn combos_support(
    masks: &[Mask],
    combos: &[Mask],
    keep: &mut [Mask; 64],
    all: bool,
) -> Option<Mask> {
    let k = masks.len();
    if k == 2 || k == 3 {
        return small_combos_support(masks, combos, keep, all);
    }
    let mut adj_all = [0 as Mask; 64];
    let mut union = 0;
    for (j, &m) in masks.iter().enumerate() {
        adj_all[j] = m;
        union |= m;
    }
    let mut required = !0 as Mask;
    let mut any = false;
    let mut adj = [0 as Mask; 64];
    let mut mate_sym = [NONE; 64];
    let mut mate_cell = [NONE; 64];
    let mut reach = [0 as Mask; 64];
    for &combo in combos {
        // perfect matching cells -> symbols of the combination
        if !matches(&adj_all[..k], combo, union, &mut adj, &mut mate_sym) {
            continue;
        }
        any = true;
        required &= combo;
        let mut bits = combo;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            mate_cell[mate_sym[t] as usize] = t as u8;
            bits &= bits - 1;
        }
        // reach[t]: symbols reachable from t along alternating paths (t -> its cell -> a candidate)
        let mut bits = combo;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            reach[t] = adj[mate_sym[t] as usize] | (1 << t);
            bits &= bits - 1;
        }
        let mut us = combo;
        while us != 0 {
            let u = us.trailing_zeros() as usize;
            us &= us - 1;
            let bu: Mask = 1 << u;
            let mut ts = combo;
            while ts != 0 {
                let t = ts.trailing_zeros() as usize;
                ts &= ts - 1;
                if reach[t] & bu != 0 {
                    reach[t] |= reach[u];
                }
            }
        }
        let mut saturated = true;
        for j in 0..k {
            let home: Mask = 1 << mate_cell[j];
            let mut ss = adj[j];
            let mut sup = 0;
            while ss != 0 {
                let t = ss.trailing_zeros() as usize;
                ss &= ss - 1;
                if reach[t] & home != 0 {
                    sup |= 1 << t;
                }
            }
            keep[j] |= sup;
            saturated &= keep[j] == adj_all[j];
        }
        if saturated && !all {
            return Some(required);
        }
    }
    any.then_some(required)
}

/// [`combos_support`] for two or three cells: the assignments of a combination are its two or
/// six orders, tried directly (the matching machinery costs more than that). Same results.
pub(super) fn small_combos_support(
    masks: &[Mask],
    combos: &[Mask],
    keep: &mut [Mask; 64],
    all: bool,
) -> Option<Mask> {
    let k = masks.len();
    let mut m = [0 as Mask; 3];
    let mut union = 0;
    for (j, &x) in masks.iter().enumerate() {
        m[j] = x;
        union |= x;
    }
    let full = [m[0], m[1], m[2]];
    let mut required = !0 as Mask;
    let mut any = false;
    for &combo in combos {
        if combo & !union != 0 {
            continue;
        }
        let x = combo & combo.wrapping_neg();
        let rest = combo & !x;
        let y = rest & rest.wrapping_neg();
        let z = rest & !y;
        let mut sup = [0 as Mask; 3];
        if k == 2 {
            for (a, b) in [(x, y), (y, x)] {
                if m[0] & a != 0 && m[1] & b != 0 {
                    sup[0] |= a;
                    sup[1] |= b;
                }
            }
        } else {
            for (a, b, c) in [
                (x, y, z),
                (x, z, y),
                (y, x, z),
                (y, z, x),
                (z, x, y),
                (z, y, x),
            ] {
                if m[0] & a != 0 && m[1] & b != 0 && m[2] & c != 0 {
                    sup[0] |= a;
                    sup[1] |= b;
                    sup[2] |= c;
                }
            }
        }
        if sup[0] == 0 {
            continue;
        }
        any = true;
        required &= combo;
        let mut saturated = true;
        for j in 0..k {
            keep[j] |= sup[j];
            saturated &= keep[j] == full[j];
        }
        if saturated && !all {
            return Some(required);
        }
    }
    any.then_some(required)
}

/// Whether some combination can be placed in the cells (candidates `masks`, one symbol of the
/// combination per cell, all different): the feasibility half of [`combos_support`], which
/// stops at the first combination that fits.
pub(super) fn combos_feasible(masks: &[Mask], combos: &[Mask]) -> bool {
    let union = masks.iter().fold(0, |u, &m| u | m);
    let mut adj = [0 as Mask; 64];
    let mut mate_sym = [NONE; 64];
    combos
        .iter()
        .any(|&combo| matches(masks, combo, union, &mut adj, &mut mate_sym))
}

/// Whether the cells (candidates `masks`, `union` of them) can take the symbols of `combo`
/// one each: a perfect matching cells -> symbols, left in `mate_sym` (the cell of each symbol
/// of `combo`), with `adj` the candidates restricted to `combo`. Shared by
/// [`combos_support`] and [`combos_feasible`]; inlined into both loops.
#[inline(always)]
fn matches(
    masks: &[Mask],
    combo: Mask,
    union: Mask,
    adj: &mut [Mask; 64],
    mate_sym: &mut [u8; 64],
) -> bool {
    if combo & !union != 0 {
        return false;
    }
    let k = masks.len();
    for j in 0..k {
        let a = masks[j] & combo;
        if a == 0 {
            return false;
        }
        adj[j] = a;
    }
    let mut bits = combo;
    while bits != 0 {
        mate_sym[bits.trailing_zeros() as usize] = NONE;
        bits &= bits - 1;
    }
    (0..k).all(|j| {
        let mut seen: Mask = 0;
        augment(j, &adj[..k], mate_sym, &mut seen)
    })
}
