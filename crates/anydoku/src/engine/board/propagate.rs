//! The propagation loop of the bitboard kernel: naked singles, then hidden singles of one marked
//! symbol at a time, then (at the root only) overlaps once singles are exhausted, to a fixpoint.
//! To add a rule, add a pass here that narrows symbol boards and marks what it changed in
//! [`Dirty`].

use super::bits::is_empty;
use super::dirty::Dirty;
use super::overlaps::overlaps;
use super::singles::{hidden_singles, naked_singles, place_hidden_singles};
use super::Board;

/// Propagates to a fixpoint after the changes marked in `dirty`. False on a contradiction: a
/// cell with no symbol, a symbol with no place in a complete shape where it is not placed, or
/// two singles that see each other. Leaves `dirty` clean either way.
#[inline(always)]
pub(super) fn propagate_checked<
    const W: usize,
    const N: usize,
    const F: usize,
    const OVERLAPS: bool,
    const V: bool,
>(
    b: &Board,
    state: &mut [u64],
    dirty: &mut Dirty,
) -> bool {
    let ok = propagate_inner::<W, N, F, OVERLAPS, V>(b, state, dirty);
    if !ok {
        dirty.clear::<W>();
    }
    ok
}

#[inline(always)]
pub(super) fn propagate_inner<
    const W: usize,
    const N: usize,
    const F: usize,
    const OVERLAPS: bool,
    const V: bool,
>(
    b: &Board,
    state: &mut [u64],
    dirty: &mut Dirty,
) -> bool {
    debug_assert!(W - F <= b.n_cells / 64);
    // whether a cell was placed or lost a symbol since the last naked-single pass
    let mut narrowed = true;
    dirty.pairs = None;
    loop {
        if std::mem::take(&mut narrowed) && !naked_singles::<W, N, V>(b, state, dirty) {
            return false;
        }
        if dirty.symbols != 0 {
            // hidden singles of the lowest changed symbol
            let s = dirty.symbols.trailing_zeros() as usize;
            let Some(found) = hidden_singles::<W, N, F, OVERLAPS, V>(b, state, s, dirty) else {
                return false;
            };
            if !is_empty(&found) {
                if !place_hidden_singles::<W, N, V>(b, state, s, &found, dirty) {
                    return false;
                }
                narrowed = true;
            }
        } else if OVERLAPS && dirty.overlap_symbols != 0 {
            // singles are exhausted: overlaps of the lowest symbol that has some to look at
            let s = dirty.overlap_symbols.trailing_zeros() as usize;
            narrowed = overlaps::<W, N, F, V>(b, state, s, dirty);
        } else {
            return true;
        }
    }
}
