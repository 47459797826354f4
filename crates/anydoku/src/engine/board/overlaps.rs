//! Overlaps (pointing and claiming): a symbol whose places in one complete shape all lie in
//! another leaves the rest of the other. Looked for in the root propagation only, once singles
//! are exhausted; the AVX-512 copy looks at every overlap of two shapes at once
//! ([`Overlaps`](super::super::tally::Overlaps)).

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::bits::{for_each_bit, load, places_in, store, Bits};
use super::dirty::Dirty;
#[cfg(target_arch = "x86_64")]
use super::dispatch::in_vectors;
use super::Board;

/// Pointing and claiming for symbol `s` in the shapes marked for it by [`hidden_singles`](super::singles::hidden_singles) (the
/// marks are taken), or in the AVX-512 kernel over every overlap of two shapes at once
/// ([`Overlaps`](crate::engine::tally::Overlaps)). True when its board narrowed.
#[inline(always)]
pub(super) fn overlaps<const W: usize, const N: usize, const F: usize, const V: bool>(
    b: &Board,
    state: &mut [u64],
    s: usize,
    dirty: &mut Dirty,
) -> bool {
    let mut c: Bits<W> = load(state, s * W);
    let mut gone = [0u64; W];
    match (V, &b.overlaps, &dirty.counts) {
        #[cfg(target_arch = "x86_64")]
        (true, Some(o), Some(counts)) => {
            // from the symbol's counts at its last look, which were of this board: overlaps
            // are looked for only once no symbol is marked for a look
            dirty.overlap_symbols &= !(1 << s);
            // SAFETY: `V` kernels run only on CPUs with the instructions; the counts were made
            // for the board's tally and symbols
            gone = unsafe { o.pointing::<W>(&c, counts, s) };
        }
        _ => {
            let marked: Bits<W> = dirty.take_overlaps::<W>(s);
            for i in W - F..W {
                let mut f = c[i] & marked[i];
                while f != 0 {
                    let h = i * 64 + f.trailing_zeros() as usize - b.n_cells;
                    f &= f - 1;
                    let (y, k) = places_in::<W>(b, h, &c);
                    if k <= b.pointing_max {
                        pointing::<W, F>(b, h, &y, &mut gone);
                    }
                }
            }
        }
    }
    let before = c;
    let mut lost = 0;
    for j in 0..W {
        lost |= c[j] & gone[j];
        c[j] &= !gone[j];
    }
    if lost == 0 {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if in_vectors::<W, N, V>(b) {
        // SAFETY: as in `place_hidden_singles`
        unsafe { avx512::narrow_board(state, s, [gone[0], gone[W - 1]]) };
        dirty.lost = [before[0] & gone[0], before[W - 1] & gone[W - 1]];
        dirty.symbols |= 1 << s;
        return true;
    }
    store(state, s * W, c);
    dirty.mark_lost::<W, V>(b, s, &before, &c);
    true
}

/// Pointing and claiming, for any two shapes: when every place `y` of a symbol in shape `h`
/// also lies in other complete shapes (the shapes all of `y`'s cells share), the symbol leaves
/// the rest of those shapes (added to `gone`).
#[inline(always)]
pub(super) fn pointing<const W: usize, const F: usize>(
    b: &Board,
    h: usize,
    y: &Bits<W>,
    gone: &mut Bits<W>,
) {
    let mut common = [!0u64; W];
    if W == 2 && b.pointing_max <= 3 {
        // two or three places: their shapes ANDed without a loop
        let mut x = (y[1] as u128) << 64 | y[0] as u128;
        let first = x.trailing_zeros() as usize;
        x &= x - 1;
        let second = x.trailing_zeros() as usize;
        x &= x - 1;
        let third = if x != 0 {
            x.trailing_zeros() as usize
        } else {
            first
        };
        let (f1, f2, f3): (Bits<F>, Bits<F>, Bits<F>) = (
            load(&b.flags_of, first * W + W - F),
            load(&b.flags_of, second * W + W - F),
            load(&b.flags_of, third * W + W - F),
        );
        for i in 0..F {
            common[W - F + i] = f1[i] & f2[i] & f3[i];
        }
    } else {
        for_each_bit(y, |cell| {
            let f: Bits<F> = load(&b.flags_of, cell * W + W - F);
            for i in 0..F {
                common[W - F + i] &= f[i];
            }
        });
    }
    let own = b.n_cells + h;
    common[own / 64] &= !(1 << (own % 64));
    let mut any = 0;
    for i in W - F..W {
        any |= common[i];
    }
    if any == 0 {
        return;
    }
    let shape: Bits<W> = load(&b.shapes, h * W);
    for i in W - F..W {
        let mut f = common[i];
        while f != 0 {
            let flag = i * 64 + f.trailing_zeros() as usize;
            f &= f - 1;
            let other: Bits<W> = load(&b.shapes, (flag - b.n_cells) * W);
            for j in 0..W {
                gone[j] |= other[j] & !shape[j];
            }
        }
    }
}
