//! Boards of `W` 64-bit words and the word operations the kernel is made of: load and store
//! without bounds checks, counts, the first bit, a walk over the set bits, and a symbol's places
//! in one shape. Every loop runs over `0..W`, a compile-time constant, so it unrolls.

use super::Board;

/// One board of `W` words.
pub(super) type Bits<const W: usize> = [u64; W];

#[inline(always)]
pub(super) fn load<const W: usize>(words: &[u64], at: usize) -> Bits<W> {
    debug_assert!(at + W <= words.len());
    let mut b = [0; W];
    // SAFETY (bounds): every caller indexes a board inside a state or a table it sized itself
    // (states are `(n_symbols + 1) * W` words, tables `W` words per cell / shape).
    b.copy_from_slice(unsafe { words.get_unchecked(at..at + W) });
    b
}

#[inline(always)]
pub(super) fn store<const W: usize>(words: &mut [u64], at: usize, b: Bits<W>) {
    debug_assert!(at + W <= words.len());
    // SAFETY: as in `load`.
    unsafe { words.get_unchecked_mut(at..at + W) }.copy_from_slice(&b);
}

/// ORs board `b` into the board at `at`.
#[inline(always)]
pub(super) fn or_into<const W: usize>(words: &mut [u64], at: usize, b: &Bits<W>) {
    let mut d: Bits<W> = load(words, at);
    for i in 0..W {
        d[i] |= b[i];
    }
    store(words, at, d);
}

#[inline(always)]
pub(super) fn is_empty<const W: usize>(b: &Bits<W>) -> bool {
    b.iter().fold(0, |acc, &w| acc | w) == 0
}

/// The number of set bits of a board.
#[inline(always)]
pub(super) fn count<const W: usize>(b: &Bits<W>) -> u32 {
    b.iter().map(|w| w.count_ones()).sum::<u32>()
}

/// 0 for an empty board, 1 for a single cell, 2 for more.
#[inline(always)]
pub(super) fn size_class<const W: usize>(b: &Bits<W>) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return count(b).min(2);
    }
    let (mut words, mut multi) = (0u32, 0u64);
    for &w in b {
        words += (w != 0) as u32;
        multi |= w & w.wrapping_sub(1);
    }
    if words > 1 || multi != 0 {
        2
    } else {
        words
    }
}

#[inline(always)]
pub(super) fn first_bit<const W: usize>(b: &Bits<W>) -> Option<usize> {
    b.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map(|(i, &w)| i * 64 + w.trailing_zeros() as usize)
}

/// The cells of board `c` in complete shape `h`, and how many there are. Boards of up to four
/// words are ANDed whole; wider ones only over the shape's span.
#[inline(always)]
pub(super) fn places_in<const W: usize>(b: &Board, h: usize, c: &Bits<W>) -> (Bits<W>, u32) {
    let mut y = [0u64; W];
    if W <= 4 {
        let shape: Bits<W> = load(&b.shapes, h * W);
        for j in 0..W {
            y[j] = c[j] & shape[j];
        }
        return (y, count(&y));
    }
    // SAFETY: spans lie within the shape's `W` words
    let (lo, hi) = unsafe { *b.spans.get_unchecked(h) };
    let mut k = 0;
    for j in lo as usize..hi as usize {
        y[j] = c[j] & unsafe { *b.shapes.get_unchecked(h * W + j) };
        k += y[j].count_ones();
    }
    (y, k)
}

/// Calls `f` with the index of every set bit of `b`, lowest first.
#[inline(always)]
pub(super) fn for_each_bit<const W: usize>(b: &Bits<W>, mut f: impl FnMut(usize)) {
    if W == 2 {
        // one loop over both words: one hard-to-predict loop exit instead of two
        let mut x = (b[1] as u128) << 64 | b[0] as u128;
        while x != 0 {
            f(x.trailing_zeros() as usize);
            x &= x - 1;
        }
        return;
    }
    for (i, &w) in b.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            f(i * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}
