//! Sum shapes in the engine: bounds, cage combinations and required symbols.
//!
//! Every sum shape gets one filtering method, chosen once by [`Tables::new`] (at `Engine::new`):
//!
//! * **Combinations** (unique shapes, the usual Killer cage): the list of symbol subsets (as masks)
//!   whose values add up to the total is precomputed. At run time a subset is *viable* when it lies
//!   inside the union of the cells' candidates and the cells can be matched to its symbols one to
//!   one (a bipartite perfect matching, found with bitmasks). For each viable subset, the edges
//!   (cell, symbol) that belong to *some* perfect matching are found exactly with the alternating
//!   cycle test (Régin's all-different reasoning on a graph of at most 64 nodes). Each cell keeps
//!   the union of its supported symbols over all viable subsets: exactly the symbols that occur
//!   in some complete assignment of the cage consistent with all candidates (rule 6 of the
//!   design). The *required* symbols of the cage (in every viable subset) are reported by
//!   [`cage_analysis`]; when a required symbol has one place in the cage, the exact support
//!   already leaves that cell with only that symbol, so the hidden-single-like placement falls out
//!   of the same filter.
//! * **Enumeration** (non-unique shapes of at most [`MAX_ENUM_CELLS`] cells, e.g. the small
//!   innies and outies of [`crate::geometry::partition`]): assignments are enumerated depth first,
//!   respecting candidates and the peer relation between the shape's cells; each cell keeps the
//!   symbols it takes in some assignment that reaches the total.
//! * **Bounds** (anything else, or when a shape has too many combinations): every candidate `v` of
//!   a cell must leave the other cells able to reach `total - v` between their smallest and
//!   largest possible values.
//!
//! Nothing here allocates in the hot path: combinations live in one flat array, scratch space is
//! on the stack. [`cage_eliminations`] is the same filter as a side-effect-free function for the
//! logical solver. To add a method, add a [`Method`] variant, choose it in [`Tables::new`] and
//! dispatch in [`filter_all`]; the brute-force tests in this module check every method against a
//! naive enumeration.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use super::alldiff::{augment, NONE};
use super::{Engine, Mask, SumShape};

/// Most combinations kept for one shape; above this the shape is filtered by bounds only.
pub const MAX_COMBOS: usize = 4096;
/// Most search nodes spent listing the combinations of one shape at construction.
const MAX_ENUM_NODES: u64 = 4_000_000;
/// Non-unique sum shapes up to this many cells are filtered by enumeration.
pub const MAX_ENUM_CELLS: usize = 4;
/// Enumeration is skipped (bounds are used) when the product of candidate counts exceeds this.
const MAX_ENUM_WORK: u64 = 50_000;

/// How one sum shape is filtered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Precomputed combinations `combos[start..end]`.
    Combos { start: u32, end: u32 },
    /// Depth-first enumeration; `neq` has bit `i * 8 + j` set when cells `i` and `j` are peers.
    Enumerate { neq: u64 },
    /// Bounds only.
    Bounds,
}

/// Per-shape filtering data, parallel to the engine's sum shapes.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    pub(crate) method: Vec<Method>,
    pub(crate) combos: Vec<Mask>,
    /// Offsets of each shape's cells in the per-thread memo of [`filter_all`].
    offsets: Vec<u32>,
    /// A process-unique id, so the per-thread memo never mixes engines.
    id: u64,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// Per thread: (tables id, the candidates of every sum shape's cells when its filter last
    /// found nothing to do, or 0 = unknown). A shape whose cells still have exactly those
    /// candidates is skipped: every filter is a function of its cells' candidates alone.
    static MEMO: RefCell<(u64, Vec<Mask>)> = const { RefCell::new((0, Vec::new())) };
}

impl Tables {
    /// Chooses a method for each sum shape and lists the combinations of unique ones.
    /// `is_peer(a, b)` tells whether two cells may not hold the same symbol.
    pub fn new(sums: &[SumShape], values: &[i64], is_peer: &dyn Fn(u32, u32) -> bool) -> Self {
        let mut t = Tables {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            ..Tables::default()
        };
        let mut at = 0u32;
        for s in sums {
            t.offsets.push(at);
            at += s.cells.len() as u32;
            let k = s.cells.len();
            let method = if s.unique && k <= values.len() {
                let start = t.combos.len();
                if cached_combos(values, k, s.total, &mut t.combos) {
                    Method::Combos {
                        start: start as u32,
                        end: t.combos.len() as u32,
                    }
                } else {
                    t.combos.truncate(start);
                    Method::Bounds
                }
            } else if k <= MAX_ENUM_CELLS {
                let mut neq = 0u64;
                for i in 0..k {
                    for j in 0..k {
                        if i != j && (s.unique || is_peer(s.cells[i], s.cells[j])) {
                            neq |= 1 << (i * 8 + j);
                        }
                    }
                }
                Method::Enumerate { neq }
            } else {
                Method::Bounds
            };
            t.method.push(method);
        }
        t.offsets.push(at);
        t
    }

    /// The method of sum shape `i`.
    pub fn method(&self, i: usize) -> Method {
        self.method[i]
    }

    /// The precomputed combinations of sum shape `i` (empty unless it uses [`Method::Combos`]).
    pub fn combinations(&self, i: usize) -> &[Mask] {
        match self.method[i] {
            Method::Combos { start, end } => &self.combos[start as usize..end as usize],
            _ => &[],
        }
    }
}

thread_local! {
    /// Per thread: the symbol values the lists below are for, and the combinations already
    /// listed for (cells, total) (`None`: too many). Killer cages repeat across puzzles, so a
    /// batch of Killers lists each kind of cage once.
    static COMBOS: RefCell<(Vec<i64>, ComboCache)> = RefCell::new(Default::default());
}

type ComboCache = rustc_hash::FxHashMap<(usize, i64), Option<Vec<Mask>>>;

/// [`list_combos`] through the per-thread cache.
fn cached_combos(values: &[i64], k: usize, total: i64, out: &mut Vec<Mask>) -> bool {
    COMBOS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let (for_values, lists) = &mut *cache;
        if for_values != values || lists.len() > 4096 {
            *for_values = values.to_vec();
            lists.clear();
        }
        let list = lists.entry((k, total)).or_insert_with(|| {
            let mut v = Vec::new();
            list_combos(values, k, total, &mut v).then_some(v)
        });
        match list {
            Some(v) => {
                out.extend_from_slice(v);
                true
            }
            None => false,
        }
    })
}

/// Appends every `k`-subset of symbols whose values add up to `total`. False if there are more
/// than [`MAX_COMBOS`] or listing them costs too much.
fn list_combos(values: &[i64], k: usize, total: i64, out: &mut Vec<Mask>) -> bool {
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
    go(&mut st, 0, k, 0, total, 0) && st.out.len() - start <= MAX_COMBOS
}

/// Filters every sum shape once. `None` on contradiction, `Some(changed)` otherwise.
pub fn filter_all(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let t = &e.sum_tables;
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        let (id, last) = &mut *memo;
        let total = *t.offsets.last().unwrap_or(&0) as usize;
        if *id != t.id || last.len() != total {
            *id = t.id;
            last.clear();
            last.resize(total, 0);
        }
        let mut changed = false;
        for (i, s) in e.sums.iter().enumerate() {
            let seen = &mut last[t.offsets[i] as usize..t.offsets[i + 1] as usize];
            if s.cells
                .iter()
                .zip(seen.iter())
                .all(|(&c, &m)| cand[c as usize] == m)
            {
                continue;
            }
            let did = filter(e, i, s, cand, queue)?;
            if did {
                seen[0] = 0; // not a fixpoint yet: filter again next time
                changed = true;
            } else {
                for (m, &c) in seen.iter_mut().zip(&s.cells) {
                    *m = cand[c as usize];
                }
            }
        }
        Some(changed)
    })
}

/// Filters sum shape `i`.
#[inline]
fn filter(
    e: &Engine,
    i: usize,
    s: &SumShape,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
) -> Option<bool> {
    let k = s.cells.len();
    let mut keep = [0 as Mask; 64];
    let ok = match e.sum_tables.method[i] {
        Method::Combos { start, end } => combos_support(
            s,
            &e.sum_tables.combos[start as usize..end as usize],
            cand,
            &mut keep,
            false,
        )
        .is_some(),
        Method::Enumerate { neq } => match enumerate_support(e, s, neq, cand, &mut keep) {
            Some(true) => true,
            Some(false) => return bounds(e, s, cand, queue),
            None => false,
        },
        Method::Bounds => return bounds(e, s, cand, queue),
    };
    if !ok {
        return None;
    }
    let mut changed = false;
    for (j, &c) in s.cells.iter().enumerate().take(k) {
        let old = cand[c as usize];
        let new = old & keep[j];
        if new != old {
            if new == 0 {
                return None;
            }
            cand[c as usize] = new;
            changed = true;
            if new & (new - 1) == 0 {
                queue.push(c);
            }
        }
    }
    Some(changed)
}

/// Exact supports of a unique shape from its combinations: `keep[j]` gets every symbol cell `j`
/// takes in some assignment. Returns the required symbols (in every viable combination), or
/// `None` if no combination is viable. Without `all`, it stops as soon as no candidate can be
/// removed any more (then `required` is not exact).
fn combos_support(
    s: &SumShape,
    combos: &[Mask],
    cand: &[Mask],
    keep: &mut [Mask; 64],
    all: bool,
) -> Option<Mask> {
    let k = s.cells.len();
    if k == 2 || k == 3 {
        return small_combos_support(s, combos, cand, keep, all);
    }
    let mut adj_all = [0 as Mask; 64];
    let mut union = 0;
    for (j, &c) in s.cells.iter().enumerate() {
        let m = cand[c as usize];
        adj_all[j] = m;
        union |= m;
    }
    let mut required = !0 as Mask;
    let mut any = false;
    let mut adj = [0 as Mask; 64];
    let mut mate_sym = [NONE; 64];
    let mut mate_cell = [NONE; 64];
    let mut reach = [0 as Mask; 64];
    'combo: for &combo in combos {
        if combo & !union != 0 {
            continue;
        }
        for j in 0..k {
            let a = adj_all[j] & combo;
            if a == 0 {
                continue 'combo;
            }
            adj[j] = a;
        }
        // perfect matching cells -> symbols of the combination
        let mut bits = combo;
        while bits != 0 {
            mate_sym[bits.trailing_zeros() as usize] = NONE;
            bits &= bits - 1;
        }
        for j in 0..k {
            let mut seen: Mask = 0;
            if !augment(j, &adj[..k], &mut mate_sym, &mut seen) {
                continue 'combo;
            }
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
fn small_combos_support(
    s: &SumShape,
    combos: &[Mask],
    cand: &[Mask],
    keep: &mut [Mask; 64],
    all: bool,
) -> Option<Mask> {
    let k = s.cells.len();
    let mut m = [0 as Mask; 3];
    let mut union = 0;
    for (j, &c) in s.cells.iter().enumerate() {
        m[j] = cand[c as usize];
        union |= m[j];
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

/// Supports of a small shape by enumeration. `Some(false)` when it would cost too much (the
/// caller falls back to bounds), `None` when no assignment reaches the total.
fn enumerate_support(
    e: &Engine,
    s: &SumShape,
    neq: u64,
    cand: &[Mask],
    keep: &mut [Mask; 64],
) -> Option<bool> {
    let k = s.cells.len();
    let mut work: u64 = 1;
    let mut m = [0 as Mask; MAX_ENUM_CELLS];
    for (j, &c) in s.cells.iter().enumerate() {
        m[j] = cand[c as usize];
        work = work.saturating_mul(m[j].count_ones() as u64);
    }
    if work > MAX_ENUM_WORK {
        return Some(false);
    }
    let mut lo = [0i64; MAX_ENUM_CELLS + 1];
    let mut hi = [0i64; MAX_ENUM_CELLS + 1];
    for j in (0..k).rev() {
        let (a, b) = min_max(&e.values, m[j]);
        lo[j] = lo[j + 1] + a;
        hi[j] = hi[j + 1] + b;
    }
    let mut chosen = [0u8; MAX_ENUM_CELLS];
    let mut found = false;
    enum_go(
        &e.values,
        &m[..k],
        neq,
        &lo,
        &hi,
        s.total,
        0,
        0,
        &mut chosen,
        keep,
        &mut found,
    );
    if found {
        Some(true)
    } else {
        None
    }
}

#[allow(clippy::too_many_arguments)]
fn enum_go(
    values: &[i64],
    m: &[Mask],
    neq: u64,
    lo: &[i64],
    hi: &[i64],
    total: i64,
    j: usize,
    sum: i64,
    chosen: &mut [u8; MAX_ENUM_CELLS],
    keep: &mut [Mask; 64],
    found: &mut bool,
) {
    let k = m.len();
    if j == k {
        if sum == total {
            *found = true;
            for i in 0..k {
                keep[i] |= 1 << chosen[i];
            }
        }
        return;
    }
    if sum + lo[j] > total || sum + hi[j] < total {
        return;
    }
    let mut bits = m[j];
    'sym: while bits != 0 {
        let t = bits.trailing_zeros();
        bits &= bits - 1;
        for (i, &ch) in chosen.iter().enumerate().take(j) {
            if neq >> (j * 8 + i) & 1 != 0 && ch as u32 == t {
                continue 'sym;
            }
        }
        chosen[j] = t as u8;
        enum_go(
            values,
            m,
            neq,
            lo,
            hi,
            total,
            j + 1,
            sum + values[t as usize],
            chosen,
            keep,
            found,
        );
    }
}

#[inline]
fn min_max(values: &[i64], mut m: Mask) -> (i64, i64) {
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    while m != 0 {
        let v = values[m.trailing_zeros() as usize];
        lo = lo.min(v);
        hi = hi.max(v);
        m &= m - 1;
    }
    (lo, hi)
}

/// The bounds filter.
fn bounds(e: &Engine, s: &SumShape, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let mut lo_total = 0i64;
    let mut hi_total = 0i64;
    for &c in &s.cells {
        let m = cand[c as usize];
        if m == 0 {
            return None;
        }
        let (lo, hi) = min_max(&e.values, m);
        lo_total += lo;
        hi_total += hi;
    }
    if s.total < lo_total || s.total > hi_total {
        return None;
    }
    let mut changed = false;
    for &c in &s.cells {
        let m = cand[c as usize];
        if m & (m - 1) == 0 {
            continue;
        }
        let (lo, hi) = min_max(&e.values, m);
        // others can make between lo_total - lo and hi_total - hi
        let (others_lo, others_hi) = (lo_total - lo, hi_total - hi);
        let mut keep = 0;
        let mut bits = m;
        while bits != 0 {
            let b = bits.trailing_zeros();
            let v = e.values[b as usize];
            if v + others_lo <= s.total && v + others_hi >= s.total {
                keep |= 1 << b;
            }
            bits &= bits - 1;
        }
        if keep != m {
            if keep == 0 {
                return None;
            }
            cand[c as usize] = keep;
            changed = true;
            if keep & (keep - 1) == 0 {
                queue.push(c);
            }
        }
    }
    Some(changed)
}

/// What the combination rule says about one sum shape, without changing anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CageAnalysis {
    /// `(cell, symbols to remove)` for every cell of the shape that loses candidates.
    pub eliminations: Vec<(u32, Mask)>,
    /// Symbols in every remaining combination (unique shapes with combinations only; else 0).
    pub required: Mask,
}

/// The cage-combination rule as a function for the logical solver: given candidates, what sum
/// shape `i` of the engine removes. `None` when the shape cannot be completed at all.
pub fn cage_analysis(e: &Engine, i: usize, cand: &[Mask]) -> Option<CageAnalysis> {
    let s = &e.sums[i];
    if s.cells.iter().any(|&c| cand[c as usize] == 0) {
        return None;
    }
    let mut keep = [0 as Mask; 64];
    let mut required = 0;
    match e.sum_tables.method[i] {
        Method::Combos { start, end } => {
            let combos = &e.sum_tables.combos[start as usize..end as usize];
            required = combos_support(s, combos, cand, &mut keep, true)?;
        }
        Method::Enumerate { neq } => {
            if enumerate_support(e, s, neq, cand, &mut keep)? {
            } else {
                bounds_keep(e, s, cand, &mut keep)?;
            }
        }
        Method::Bounds => bounds_keep(e, s, cand, &mut keep)?,
    }
    let mut eliminations = Vec::new();
    for (j, &c) in s.cells.iter().enumerate() {
        let gone = cand[c as usize] & !keep[j];
        if gone != 0 {
            eliminations.push((c, gone));
        }
    }
    Some(CageAnalysis {
        eliminations,
        required,
    })
}

/// The bounds filter into `keep` (side-effect free).
fn bounds_keep(e: &Engine, s: &SumShape, cand: &[Mask], keep: &mut [Mask; 64]) -> Option<()> {
    let mut scratch: Vec<Mask> = s.cells.iter().map(|&c| cand[c as usize]).collect();
    let local = SumShape {
        cells: (0..s.cells.len() as u32).collect(),
        total: s.total,
        unique: s.unique,
    };
    let mut q = Vec::new();
    bounds(e, &local, &mut scratch, &mut q)?;
    keep[..scratch.len()].copy_from_slice(&scratch);
    Some(())
}

/// Eliminations of every sum shape of the engine, merged per cell (`None` on contradiction).
pub fn cage_eliminations(e: &Engine, cand: &[Mask]) -> Option<Vec<(u32, Mask)>> {
    let mut gone = vec![0 as Mask; cand.len()];
    for i in 0..e.sums.len() {
        for (c, m) in cage_analysis(e, i, cand)?.eliminations {
            gone[c as usize] |= m;
        }
    }
    Some(
        gone.into_iter()
            .enumerate()
            .filter(|&(_, m)| m != 0)
            .map(|(c, m)| (c as u32, m))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;
    use rand::{Rng, SeedableRng};

    /// Naive supports: every assignment of the shape's cells within candidates (distinct values
    /// for unique shapes) that reaches the total.
    fn naive(values: &[i64], cells: &[Mask], total: i64, unique: bool) -> Option<Vec<Mask>> {
        let k = cells.len();
        let mut keep = vec![0; k];
        let mut found = false;
        let mut pick = vec![0usize; k];
        #[allow(clippy::too_many_arguments)]
        fn go(
            values: &[i64],
            cells: &[Mask],
            total: i64,
            unique: bool,
            j: usize,
            pick: &mut Vec<usize>,
            keep: &mut Vec<Mask>,
            found: &mut bool,
        ) {
            if j == cells.len() {
                let sum: i64 = pick.iter().map(|&t| values[t]).sum();
                if sum == total {
                    *found = true;
                    for (i, &t) in pick.iter().enumerate() {
                        keep[i] |= 1 << t;
                    }
                }
                return;
            }
            for t in 0..values.len() {
                if cells[j] & (1 << t) == 0 || (unique && pick[..j].contains(&t)) {
                    continue;
                }
                pick[j] = t;
                go(values, cells, total, unique, j + 1, pick, keep, found);
            }
        }
        go(
            values, cells, total, unique, 0, &mut pick, &mut keep, &mut found,
        );
        found.then_some(keep)
    }

    /// A 9x9 engine with one extra sum shape on the first `k` cells of row 1.
    fn engine_with(k: usize, total: i64, unique: bool, values: &[i64]) -> Engine {
        let g = builtin::load("classic9").unwrap();
        let mut e = Engine::new(&g);
        e.values = values.to_vec();
        e.sums = vec![SumShape {
            cells: (0..k as u32).collect(),
            total,
            unique,
        }];
        // a non-unique shape here has no peers inside, like the naive reference
        e.sum_tables = Tables::new(&e.sums, &e.values, &|_, _| false);
        e
    }

    #[test]
    fn combination_filter_matches_brute_force() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let value_sets: [Vec<i64>; 2] = [(1..=9).collect(), vec![0, 2, 3, 5, 7, 11, 13, 17, 19]];
        for round in 0..3000 {
            let values = &value_sets[round % 2];
            let k = rng.gen_range(1..=5);
            let unique = round % 3 != 0 || k > MAX_ENUM_CELLS;
            let cells: Vec<Mask> = (0..k)
                .map(|_| rng.gen_range(1..(1u64 << 9)) | rng.gen_range(1..(1u64 << 9)))
                .collect();
            // a reachable total most of the time
            let total = (0..k).map(|_| values[rng.gen_range(0..9)]).sum::<i64>();
            let e = engine_with(k, total, unique, values);
            let mut cand = vec![e.full; 81];
            cand[..k].copy_from_slice(&cells);
            let expect = naive(values, &cells, total, unique);
            let got = cage_analysis(&e, 0, &cand);
            match (&expect, &got) {
                (None, None) => {}
                (Some(keep), Some(a)) => {
                    let mut after = cells.clone();
                    for &(c, m) in &a.eliminations {
                        after[c as usize] &= !m;
                    }
                    if matches!(e.sum_tables.method(0), Method::Bounds) {
                        for j in 0..k {
                            assert_eq!(after[j] & keep[j], keep[j], "bounds lost a support");
                        }
                    } else {
                        assert_eq!(
                            &after, keep,
                            "values {values:?} k {k} total {total} unique {unique} cells {cells:?}"
                        );
                    }
                }
                _ => panic!("{expect:?} vs {got:?} for {cells:?} total {total} unique {unique}"),
            }
            // the filter in place agrees with the analysis
            let mut c2 = cand.clone();
            let mut q = Vec::new();
            let r = filter_all(&e, &mut c2, &mut q);
            assert_eq!(r.is_none(), got.is_none());
        }
    }

    #[test]
    fn required_symbol_with_one_place_is_placed() {
        // 3 distinct cells summing to 7 = {1,2,4}; only the first cell may hold 4
        let e = engine_with(3, 7, true, &(1..=9).collect::<Vec<_>>());
        let mut cand = vec![e.full; 81];
        cand[0] = 0b1111; // 1..4
        cand[1] = 0b0011; // 1,2
        cand[2] = 0b0111; // 1..3
        let a = cage_analysis(&e, 0, &cand).unwrap();
        assert_eq!(a.required, 0b1011); // 1, 2, 4
        let mut q = Vec::new();
        filter_all(&e, &mut cand, &mut q).unwrap();
        assert_eq!(cand[0], 0b1000);
        assert_eq!(cand[2], 0b0011);
    }

    #[test]
    fn combos_are_listed_for_custom_values() {
        let values = [10, 20, 30, 40];
        let mut out = Vec::new();
        assert!(list_combos(&values, 2, 50, &mut out));
        assert_eq!(out, vec![0b1001, 0b0110]);
    }
}
