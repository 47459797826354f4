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
//!   design). The *required* symbols of the cage are those in every viable subset; when a
//!   required symbol has one place in the cage, the exact support already leaves that cell with
//!   only that symbol, so the hidden-single-like placement falls out of the same filter.
//! * **Enumeration** (non-unique shapes of at most [`MAX_ENUM_CELLS`] cells, e.g. the small
//!   innies and outies of [`crate::geometry::partition`]): assignments are enumerated depth first,
//!   respecting candidates and the peer relation between the shape's cells; each cell keeps the
//!   symbols it takes in some assignment that reaches the total.
//! * **Bounds** (anything else, or when a shape has too many combinations): every candidate `v` of
//!   a cell must leave the other cells able to reach `total - v` between their smallest and
//!   largest possible values.
//!
//! The combinations and their exact supports live in [`combos`]; the rest here.
//!
//! Nothing here allocates in the hot path: combinations live in one flat array, scratch space is
//! on the stack. [`supports`] is the filter of one shape on its cells' candidates, side-effect
//! free, and [`feasible`] its feasibility half (the CDCL search explains the filter with it);
//! `cage_analysis` (in tests) adds the required symbols. To add a method, add a [`Method`]
//! variant, choose it in [`Tables::new`] and
//! dispatch in [`filter_all`]; the brute-force tests in this module check every method against a
//! naive enumeration.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

mod combos;
#[cfg(test)]
mod tests;

use super::{Engine, Mask, SumShape};
use combos::{cached_combos, combos_feasible, combos_support, ComboBudget};

/// Most combinations kept for one shape; above this the shape is filtered by bounds only.
pub const MAX_COMBOS: usize = 4096;
/// Most search nodes spent listing the combinations of one shape at construction.
const MAX_ENUM_NODES: u64 = 4_000_000;
/// Most nodes all of one engine's shapes may spend listing combinations (a hostile model of
/// thousands of cages with different totals over wide symbol values would otherwise spend
/// minutes): the shapes after that are filtered by bounds.
const MAX_TABLE_NODES: u64 = 16_000_000;
/// Most combinations one engine keeps in all (a real Killer keeps a few hundred).
const MAX_TABLE_COMBOS: usize = 4_000_000;
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
    pub(crate) fn new(
        sums: &[SumShape],
        values: &[i64],
        is_peer: &dyn Fn(u32, u32) -> bool,
    ) -> Self {
        let mut t = Tables {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            ..Tables::default()
        };
        let mut at = 0u32;
        let mut budget = ComboBudget {
            nodes: MAX_TABLE_NODES,
            combos: MAX_TABLE_COMBOS,
        };
        for s in sums {
            t.offsets.push(at);
            at += s.cells.len() as u32;
            let k = s.cells.len();
            let method = if s.unique && k <= values.len() {
                let start = t.combos.len();
                if cached_combos(values, k, s.total, &mut t.combos, &mut budget) {
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
    #[cfg(test)]
    pub fn method(&self, i: usize) -> Method {
        self.method[i]
    }
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
    let mut masks = [0 as Mask; 64];
    for (j, &c) in s.cells.iter().enumerate() {
        masks[j] = cand[c as usize];
    }
    let mut keep = [0 as Mask; 64];
    supports(e, i, &masks[..k], &mut keep)?;
    let mut changed = false;
    for (j, &c) in s.cells.iter().enumerate() {
        let old = masks[j];
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

/// The supports of sum shape `i` of the engine given its cells' candidates `masks` (in the
/// shape's cell order), by the shape's method: `keep[j]` gets the symbols of cell `j` the
/// method cannot rule out (exactly the supported ones for combinations and enumeration).
/// `None` when the method finds the shape cannot be completed.
pub(crate) fn supports(e: &Engine, i: usize, masks: &[Mask], keep: &mut [Mask; 64]) -> Option<()> {
    let s = &e.sums[i];
    match e.sum_tables.method[i] {
        Method::Combos { start, end } => {
            let combos = &e.sum_tables.combos[start as usize..end as usize];
            combos_support(masks, combos, keep, false).map(|_| ())
        }
        Method::Enumerate { neq } => {
            match enumerate_support(&e.values, masks, s.total, neq, keep, false) {
                Some(true) => Some(()),
                Some(false) => bounds_keep(&e.values, masks, s.total, keep),
                None => None,
            }
        }
        Method::Bounds => bounds_keep(&e.values, masks, s.total, keep),
    }
}

/// Whether the method of sum shape `i` finds an assignment of its cells within `masks`: false
/// exactly when [`supports`] would be `None`, and cheaper (it stops at the first one). A
/// candidate `t` of cell `j` is ruled out by [`supports`] exactly when `masks` with cell `j`
/// narrowed to `t` is not feasible, which is how the CDCL search explains the filter.
pub(crate) fn feasible(e: &Engine, i: usize, masks: &[Mask]) -> bool {
    let s = &e.sums[i];
    match e.sum_tables.method[i] {
        Method::Combos { start, end } => {
            combos_feasible(masks, &e.sum_tables.combos[start as usize..end as usize])
        }
        Method::Enumerate { neq } => {
            let mut keep = [0 as Mask; 64];
            match enumerate_support(&e.values, masks, s.total, neq, &mut keep, true) {
                Some(true) => true,
                Some(false) => bounds_keep(&e.values, masks, s.total, &mut keep).is_some(),
                None => false,
            }
        }
        // the bounds filter's own test (a cell none of whose candidates fits the others'
        // range is a contradiction even when the whole shape's range holds the total)
        Method::Bounds => {
            let mut keep = [0 as Mask; 64];
            bounds_keep(&e.values, masks, s.total, &mut keep).is_some()
        }
    }
}

/// Supports of a small shape by enumeration (cells' candidates `masks`). `Some(false)` when it
/// would cost too much (the caller falls back to bounds), `None` when no assignment reaches the
/// total. With `first` it stops at the first assignment found (`keep` is then partial: for
/// a feasibility test).
fn enumerate_support(
    values: &[i64],
    masks: &[Mask],
    total: i64,
    neq: u64,
    keep: &mut [Mask; 64],
    first: bool,
) -> Option<bool> {
    let k = masks.len();
    let mut work: u64 = 1;
    let mut m = [0 as Mask; MAX_ENUM_CELLS];
    for (j, &x) in masks.iter().enumerate() {
        m[j] = x;
        work = work.saturating_mul(x.count_ones() as u64);
    }
    if work > MAX_ENUM_WORK {
        return Some(false);
    }
    let mut lo = [0i64; MAX_ENUM_CELLS + 1];
    let mut hi = [0i64; MAX_ENUM_CELLS + 1];
    for j in (0..k).rev() {
        if m[j] == 0 {
            return None;
        }
        let (a, b) = min_max(values, m[j]);
        lo[j] = lo[j + 1] + a;
        hi[j] = hi[j + 1] + b;
    }
    let mut chosen = [0u8; MAX_ENUM_CELLS];
    // (found one, stop at the first)
    let mut found = (false, first);
    enum_go(
        values,
        &m[..k],
        neq,
        &lo,
        &hi,
        total,
        0,
        0,
        &mut chosen,
        keep,
        &mut found,
    );
    if found.0 {
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
    found: &mut (bool, bool),
) {
    let k = m.len();
    if found.0 && found.1 {
        return;
    }
    if j == k {
        if sum == total {
            found.0 = true;
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

/// The smallest and largest totals the cells can reach (each cell on its own), or `None` when
/// a cell has no candidate.
#[inline]
fn totals(values: &[i64], masks: &[Mask]) -> Option<(i64, i64)> {
    let (mut lo_total, mut hi_total) = (0i64, 0i64);
    for &m in masks {
        if m == 0 {
            return None;
        }
        let (lo, hi) = min_max(values, m);
        lo_total += lo;
        hi_total += hi;
    }
    Some((lo_total, hi_total))
}

/// The bounds filter: every candidate `v` of a cell must leave the other cells able to reach
/// `total - v` between their smallest and largest totals. `keep[j]` gets the candidates of
/// cell `j` that pass; `None` when the total is out of reach, or some cell has no candidate
/// that passes.
fn bounds_keep(values: &[i64], masks: &[Mask], total: i64, keep: &mut [Mask; 64]) -> Option<()> {
    let (lo_total, hi_total) = totals(values, masks)?;
    if total < lo_total || total > hi_total {
        return None;
    }
    for (j, &m) in masks.iter().enumerate() {
        if m & (m - 1) == 0 {
            keep[j] = m;
            continue;
        }
        let (lo, hi) = min_max(values, m);
        // the others make between lo_total - lo and hi_total - hi
        let (others_lo, others_hi) = (lo_total - lo, hi_total - hi);
        let mut pass = 0;
        let mut bits = m;
        while bits != 0 {
            let b = bits.trailing_zeros();
            let v = values[b as usize];
            if v + others_lo <= total && v + others_hi >= total {
                pass |= 1 << b;
            }
            bits &= bits - 1;
        }
        if pass == 0 {
            return None;
        }
        keep[j] = pass;
    }
    Some(())
}

/// What the combination rule says about one sum shape, without changing anything.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CageAnalysis {
    /// `(cell, symbols to remove)` for every cell of the shape that loses candidates.
    pub eliminations: Vec<(u32, Mask)>,
    /// Symbols in every remaining combination (unique shapes with combinations only; else 0).
    pub required: Mask,
}

/// The cage-combination rule as a side-effect-free function (what the tests check the filters
/// with): given candidates, what sum shape `i` of the engine removes. `None` when the shape
/// cannot be completed at all.
#[cfg(test)]
pub fn cage_analysis(e: &Engine, i: usize, cand: &[Mask]) -> Option<CageAnalysis> {
    let s = &e.sums[i];
    if s.cells.iter().any(|&c| cand[c as usize] == 0) {
        return None;
    }
    let k = s.cells.len();
    let mut masks = [0 as Mask; 64];
    for (j, &c) in s.cells.iter().enumerate() {
        masks[j] = cand[c as usize];
    }
    let masks = &masks[..k];
    let mut keep = [0 as Mask; 64];
    let mut required = 0;
    match e.sum_tables.method[i] {
        Method::Combos { start, end } => {
            let combos = &e.sum_tables.combos[start as usize..end as usize];
            required = combos_support(masks, combos, &mut keep, true)?;
        }
        _ => supports(e, i, masks, &mut keep)?,
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
