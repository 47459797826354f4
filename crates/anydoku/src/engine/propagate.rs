//! Propagation to a fixpoint: naked singles, hidden singles, sum shapes, the other constraint
//! kinds' propagators, overlaps, all-different.
//!
//! The candidate array is the whole search state. A cell whose candidates shrink to one symbol is
//! pushed on a queue; popping it removes the symbol from every peer. Complete shapes are scanned
//! with two bitsets (`once`, `twice`) to find symbols with a single place (hidden singles) or none
//! (a contradiction). Only *dirty* shapes are scanned: a shape becomes dirty when one of its cells
//! changes and clean when it is scanned, so the pass that confirms a fixpoint costs only the shapes
//! touched since their last scan (a fully placed shape never changes, so it is never rescanned).
//! Sum shapes, the kinds' propagators ([`constraint`]), overlaps and (when the search asks for it)
//! the all-different filter run after that.
//! No allocation happens here: the queue is owned by the caller and the dirty set lives on the
//! stack. The two innermost loops index without bounds checks; `check_inputs` and the engine's
//! construction are what make that sound.

use super::{alldiff, constraint, sum, Engine, Mask, PROP_WORDS};

/// The set of complete shapes that changed since they were last scanned, `W` words (a
/// compile-time width chosen from the engine's shape count, so marking a cell is `W` ORs), and
/// the set of the kinds' propagators whose cells changed since they last ran, `P` words (0
/// when the engine has no propagators, or too many to track: then all of them run each pass).
struct Dirty<const W: usize, const P: usize> {
    words: [u64; W],
    props: [u64; P],
}

/// Sets the first `n` bits of `words`.
#[inline]
fn fill(words: &mut [u64], n: usize) {
    for (i, w) in words.iter_mut().enumerate() {
        let left = n.saturating_sub(i * 64);
        *w = if left >= 64 { !0 } else { (1u64 << left) - 1 };
    }
}

impl<const W: usize, const P: usize> Dirty<W, P> {
    fn none() -> Self {
        Dirty {
            words: [0; W],
            props: [0; P],
        }
    }

    fn all(e: &Engine) -> Self {
        let mut d = Self::none();
        d.mark_all(e);
        d
    }

    #[inline]
    fn mark_all(&mut self, e: &Engine) {
        fill(&mut self.words, e.n_complete);
        fill(&mut self.props, e.props.len());
    }

    /// Marks the shapes of cell `c`.
    #[inline(always)]
    fn mark(&mut self, e: &Engine, c: usize) {
        debug_assert!(c * W + W <= e.cell_bits.len());
        #[allow(clippy::needless_range_loop)] // W is a constant: an unrolled OR per word
        for i in 0..W {
            // SAFETY: `cell_bits` holds `W` words for each of the engine's `n_cells` cells
            // (`W == e.shape_words`, chosen by `propagate`), and every cell index reaching here
            // is below `n_cells` (see `check_inputs`).
            self.words[i] |= unsafe { *e.cell_bits.get_unchecked(c * W + i) };
        }
        #[allow(clippy::needless_range_loop)]
        for i in 0..P {
            self.props[i] |= e.cell_prop_bits[c * P + i];
        }
    }
}

/// Calls `$f::<W, P>($args)` with the engine's shape and propagator widths as constants.
macro_rules! widths {
    ($e:expr, $f:ident, $($arg:expr),*) => {
        match ($e.shape_words, $e.prop_words) {
            (1, 0) => $f::<1, 0>($($arg),*),
            (2, 0) => $f::<2, 0>($($arg),*),
            (4, 0) => $f::<4, 0>($($arg),*),
            (8, 0) => $f::<8, 0>($($arg),*),
            (16, 0) => $f::<16, 0>($($arg),*),
            (1, 1) => $f::<1, 1>($($arg),*),
            (2, 1) => $f::<2, 1>($($arg),*),
            (4, 1) => $f::<4, 1>($($arg),*),
            (8, 1) => $f::<8, 1>($($arg),*),
            (16, 1) => $f::<16, 1>($($arg),*),
            (1, _) => $f::<1, PROP_WORDS>($($arg),*),
            (2, _) => $f::<2, PROP_WORDS>($($arg),*),
            (4, _) => $f::<4, PROP_WORDS>($($arg),*),
            (8, _) => $f::<8, PROP_WORDS>($($arg),*),
            (16, _) => $f::<16, PROP_WORDS>($($arg),*),
            _ => $f::<0, 0>($($arg),*),
        }
    };
}

/// Places the singletons on `queue` and propagates until nothing changes.
/// Returns false on a contradiction (some cell or required symbol has no place left).
///
/// Works from any candidate array: every complete shape is scanned at least once.
pub fn propagate(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> bool {
    propagate_at(e, cand, queue, e.alldiff_always())
}

/// [`propagate`] with the all-different filter on or off (`strong`) whatever the engine's
/// default.
pub fn propagate_at(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>, strong: bool) -> bool {
    fn go<const W: usize, const P: usize>(
        e: &Engine,
        cand: &mut [Mask],
        queue: &mut Vec<u32>,
        strong: bool,
    ) -> bool {
        run(e, cand, queue, &mut Dirty::<W, P>::all(e), strong)
    }
    check_inputs(e, cand, queue);
    widths!(e, go, e, cand, queue, strong)
}

/// Like [`propagate`], for a candidate array that was at a fixpoint before the cells on `queue`
/// were narrowed (the usual case in search: a parent's propagated state plus one decision):
/// only the shapes of those cells, and of the cells that change after them, are scanned.
/// Calling it on any other array may miss deductions (never produces wrong ones). `strong`:
/// whether the all-different filter runs (the adaptive search restarts with it on, see
/// [`super::Options::alldiff`]).
pub fn propagate_changed_at(
    e: &Engine,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    strong: bool,
) -> bool {
    propagate_narrowed_at(e, cand, queue, &[], strong)
}

/// Like [`propagate_changed_at`], for a fixpoint whose cells `narrowed` lost candidates
/// without (necessarily) becoming single symbols: their shapes are scanned as well as those of
/// the cells on `queue` and of the cells that change after them.
pub fn propagate_narrowed_at(
    e: &Engine,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    narrowed: &[u32],
    strong: bool,
) -> bool {
    fn go<const W: usize, const P: usize>(
        e: &Engine,
        cand: &mut [Mask],
        queue: &mut Vec<u32>,
        narrowed: &[u32],
        strong: bool,
    ) -> bool {
        let mut d = Dirty::<W, P>::none();
        for &c in queue.iter().chain(narrowed) {
            d.mark(e, c as usize);
        }
        run(e, cand, queue, &mut d, strong)
    }
    check_inputs(e, cand, queue);
    check_inputs(e, cand, narrowed);
    widths!(e, go, e, cand, queue, narrowed, strong)
}

/// The hot loops index `cand` and the engine's tables without bounds checks; this is what makes
/// that sound: the candidate array has one entry per cell, and every queued cell is a cell. (The
/// engine's own tables — peers, shape members, `cell_bits` — hold only cell indices below
/// `n_cells` by construction in [`Engine::with_options`].)
#[inline]
fn check_inputs(e: &Engine, cand: &[Mask], queue: &[u32]) {
    assert_eq!(cand.len(), e.n_cells, "candidate array of the wrong length");
    assert!(
        queue.iter().all(|&c| (c as usize) < e.n_cells),
        "queued cell out of range"
    );
}

fn run<const W: usize, const P: usize>(
    e: &Engine,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    dirty: &mut Dirty<W, P>,
    strong: bool,
) -> bool {
    loop {
        if !drain(e, cand, queue, dirty) {
            return false;
        }
        if !hidden_singles(e, cand, queue, dirty) {
            return false;
        }
        if !e.sums.is_empty() {
            match sum::filter_all(e, cand, queue) {
                None => return false,
                Some(true) => {
                    // sums may narrow cells without making them singletons: rescan everything
                    dirty.mark_all(e);
                    continue;
                }
                Some(false) => {}
            }
        }
        if !e.props.is_empty() {
            // propagators may narrow cells without making them singletons: `Cands` marks the
            // shapes of each cell they narrow
            match constraint::pass_marking(e, cand, queue, &mut dirty.words, &mut dirty.props) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
        }
        if !e.overlaps.is_empty() {
            match overlaps(e, cand, queue, dirty) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
        }
        if !strong {
            return true;
        }
        match alldiff::filter_all(e, cand, queue) {
            None => return false,
            Some(true) => dirty.mark_all(e),
            Some(false) => return true,
        }
    }
}

/// Naked singles: removes each queued cell's symbol from its peers, queueing new singletons.
#[inline]
fn drain<const W: usize, const P: usize>(
    e: &Engine,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    dirty: &mut Dirty<W, P>,
) -> bool {
    while let Some(c) = queue.pop() {
        let c = c as usize;
        debug_assert!(c < cand.len() && c + 1 < e.peer_start.len());
        // SAFETY: `c` is a cell (see `check_inputs`), `peer_start` has `n_cells + 1` entries
        // and its ranges lie inside `peers`.
        let (m, peers) = unsafe {
            let a = *e.peer_start.get_unchecked(c) as usize;
            let b = *e.peer_start.get_unchecked(c + 1) as usize;
            (*cand.get_unchecked(c), e.peers.get_unchecked(a..b))
        };
        for &p in peers {
            let p = p as usize;
            debug_assert!(p < cand.len());
            // SAFETY: peers are cells of the engine, and `cand` has one entry per cell.
            let slot = unsafe { cand.get_unchecked_mut(p) };
            let old = *slot;
            if old & m != 0 {
                let new = old & !m;
                if new == 0 {
                    return false;
                }
                *slot = new;
                dirty.mark(e, p);
                if new & (new - 1) == 0 {
                    queue.push(p as u32);
                }
            }
        }
    }
    true
}

/// Scans one complete shape. `None` on contradiction, `Some(changed)` otherwise.
///
/// `N` is the shape size when it is known at compile time (the first loop is then unrolled), or
/// 0 for any size; [`hidden_singles`] picks it from the symbol-set width.
#[inline(always)]
fn scan_shape<const W: usize, const P: usize, const N: usize>(
    e: &Engine,
    shape: &[u32],
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    dirty: &mut Dirty<W, P>,
) -> Option<bool> {
    let shape: &[u32] = if N > 0 {
        let fixed_size: &[u32; N] = shape.try_into().expect("a complete shape has N cells");
        fixed_size
    } else {
        shape
    };
    let (mut once, mut twice, mut fixed) = (0 as Mask, 0 as Mask, 0 as Mask);
    for &c in shape {
        debug_assert!((c as usize) < cand.len());
        // SAFETY: shape members are cells of the engine, and `cand` has one entry per cell.
        let m = unsafe { *cand.get_unchecked(c as usize) };
        twice |= once & m;
        once |= m;
        // branch-free: add m to `fixed` when it is a single symbol
        fixed |= m & (((m & m.wrapping_sub(1)) == 0) as Mask).wrapping_neg();
    }
    if once != e.full {
        return None;
    }
    let single = once & !twice & !fixed;
    if single == 0 {
        return Some(false);
    }
    for &c in shape {
        let m = cand[c as usize];
        let hit = m & single;
        if hit == 0 || m & (m - 1) == 0 {
            continue;
        }
        if hit & (hit - 1) != 0 {
            return None;
        }
        cand[c as usize] = hit;
        dirty.mark(e, c as usize);
        queue.push(c);
    }
    if !drain(e, cand, queue, dirty) {
        return None;
    }
    Some(true)
}

/// Hidden singles over the dirty shapes until none is dirty (with naked singles drained as they
/// appear). Returns false on a contradiction.
#[inline]
fn hidden_singles<const W: usize, const P: usize>(
    e: &Engine,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    dirty: &mut Dirty<W, P>,
) -> bool {
    let n = e.n_symbols;
    if W == 0 {
        // untracked: full passes until nothing changes
        loop {
            let mut changed = false;
            for shape in e.complete.chunks_exact(n) {
                match scan_shape::<W, P, 0>(e, shape, cand, queue, dirty) {
                    None => return false,
                    Some(c) => changed |= c,
                }
            }
            if !changed {
                return true;
            }
        }
    }
    loop {
        let mut any = false;
        for i in 0..W {
            loop {
                let bits = dirty.words[i];
                if bits == 0 {
                    break;
                }
                any = true;
                let s = i * 64 + bits.trailing_zeros() as usize;
                dirty.words[i] = bits & (bits - 1);
                let shape = &e.complete[s * n..s * n + n];
                let scanned = match n {
                    9 => scan_shape::<W, P, 9>(e, shape, cand, queue, dirty),
                    16 => scan_shape::<W, P, 16>(e, shape, cand, queue, dirty),
                    _ => scan_shape::<W, P, 0>(e, shape, cand, queue, dirty),
                };
                if scanned.is_none() {
                    return false;
                }
            }
        }
        if !any {
            return true;
        }
    }
}

/// Overlap of two complete shapes: a symbol whose candidates in one shape all lie in the shared
/// part must be there, so it leaves the rest of the other shape.
fn overlaps<const W: usize, const P: usize>(
    e: &Engine,
    cand: &mut [Mask],
    queue: &mut Vec<u32>,
    dirty: &mut Dirty<W, P>,
) -> Option<bool> {
    let mut changed = false;
    let cells = &e.overlap_cells;
    let or = |cand: &[Mask], from: u32, to: u32| {
        cells[from as usize..to as usize]
            .iter()
            .fold(0, |acc, &c| acc | cand[c as usize])
    };
    for &[i, a, b, end] in &e.overlaps {
        let inter = or(cand, i, a);
        let a_rest = or(cand, a, b);
        let b_rest = or(cand, b, end);
        let from_a = inter & !a_rest & b_rest;
        let from_b = inter & !b_rest & a_rest;
        if from_a | from_b == 0 {
            continue;
        }
        for (lo, hi, gone) in [(b, end, from_a), (a, b, from_b)] {
            if gone == 0 {
                continue;
            }
            for &c in &cells[lo as usize..hi as usize] {
                let m = cand[c as usize];
                if m & gone != 0 {
                    let new = m & !gone;
                    if new == 0 {
                        return None;
                    }
                    cand[c as usize] = new;
                    dirty.mark(e, c as usize);
                    if new & (new - 1) == 0 {
                        queue.push(c);
                    }
                }
            }
        }
        changed = true;
    }
    Some(changed)
}
