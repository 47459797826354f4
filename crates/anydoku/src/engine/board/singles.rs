//! Naked and hidden singles as whole-board operations: the cells one symbol board alone holds
//! (counted bit-parallel over all cells), and a symbol's single place in a marked shape (or, in
//! the AVX-512 copy, in every complete shape at once with [`Tally`](super::super::tally::Tally)),
//! each placed in bulk.

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::bits::{for_each_bit, is_empty, load, places_in, size_class, store, Bits};
use super::dirty::Dirty;
#[cfg(target_arch = "x86_64")]
use super::dispatch::in_vectors;
use super::dispatch::symbols;
use super::Board;

/// Places every naked single (an unplaced cell that only one symbol board still holds), in
/// bulk, until there is none; marks the symbols whose boards changed. False on a contradiction:
/// an unplaced cell that no board holds, or two singles of one symbol that see each other.
#[inline(always)]
pub(super) fn naked_singles<const W: usize, const N: usize, const V: bool>(
    b: &Board,
    state: &mut [u64],
    dirty: &mut Dirty,
) -> bool {
    let n = symbols::<N>(b);
    #[cfg(target_arch = "x86_64")]
    if in_vectors::<W, N, V>(b) {
        // SAFETY: the state is padded (`stride`) and the CPU has the instructions (`V`)
        return unsafe {
            avx512::naked_singles(
                b,
                state,
                n,
                &mut dirty.symbols,
                &mut dirty.pairs,
                dirty.lost,
            )
        };
    }
    loop {
        let todo: Bits<W> = load(state, n * W);
        let (mut ones, mut twos) = ([0u64; W], [0u64; W]);
        for s in 0..n {
            let c: Bits<W> = load(state, s * W);
            for i in 0..W {
                twos[i] |= ones[i] & c[i];
                ones[i] |= c[i];
            }
        }
        let mut singles = [0u64; W];
        let (mut dead, mut any) = (0u64, 0u64);
        for i in 0..W {
            dead |= todo[i] & !ones[i];
            singles[i] = todo[i] & !twos[i];
            any |= singles[i];
        }
        if dead != 0 {
            return false;
        }
        if any == 0 {
            return true;
        }
        let mut rest = todo;
        for i in 0..W {
            rest[i] &= !singles[i];
        }
        store(state, n * W, rest);
        // each single's symbol, bit-sliced: plane `k` holds the cells of the symbols whose
        // index has bit `k` set, so a single's symbol is read off the planes without a loop
        // over the symbols
        let n_planes = (usize::BITS - (n - 1).leading_zeros()) as usize;
        let mut planes = [[0u64; W]; 6];
        for s in 0..n {
            let c: Bits<W> = load(state, s * W);
            for (k, plane) in planes.iter_mut().enumerate().take(n_planes) {
                let m = 0u64.wrapping_sub((s >> k) as u64 & 1);
                for i in 0..W {
                    plane[i] |= c[i] & m & singles[i];
                }
            }
        }
        // one single at a time; a single that lost its symbol to an earlier single of the same
        // symbol is a contradiction
        let mut failed = false;
        for_each_bit(&singles, |cell| {
            let (word, bit) = (cell / 64, cell % 64);
            let mut s = 0usize;
            for (k, plane) in planes.iter().enumerate().take(n_planes) {
                s |= ((plane[word] >> bit) as usize & 1) << k;
            }
            // SAFETY: `s < n` (it is a symbol holding the cell) and `word < W`
            let held = (unsafe { *state.get_unchecked(s * W + word) } >> bit) & 1;
            failed |= held == 0;
            let vis: Bits<W> = load(&b.vis, cell * W);
            let mut c: Bits<W> = load(state, s * W);
            for j in 0..W {
                c[j] &= !vis[j];
            }
            store(state, s * W, c);
            dirty.mark::<W, V>(s, &load(&b.reach, cell * W));
        });
        if failed {
            return false;
        }
    }
}
/// The hidden singles of symbol `s` in the shapes marked for it where it is not placed yet (the
/// marks are taken), or `None` when one of those shapes has no place left for it. Shapes whose
/// places are few enough to lie in an overlap of two shapes are marked for [`overlaps`](super::overlaps::overlaps).
#[inline(always)]
pub(super) fn hidden_singles<
    const W: usize,
    const N: usize,
    const F: usize,
    const OVERLAPS: bool,
    const V: bool,
>(
    b: &Board,
    state: &[u64],
    s: usize,
    dirty: &mut Dirty,
) -> Option<Bits<W>> {
    #[cfg(target_arch = "x86_64")]
    if V {
        return hidden_singles_by_tally::<W, OVERLAPS>(b, state, s, dirty);
    }
    let marked: Bits<W> = dirty.take::<W>(s);
    let c: Bits<W> = load(state, s * W);
    let mut found = [0u64; W];
    let mut small = [0u64; W];
    for i in W - F..W {
        let mut f = c[i] & marked[i];
        while f != 0 {
            let bit = f.trailing_zeros();
            let h = i * 64 + bit as usize - b.n_cells;
            f &= f - 1;
            if W <= 4 && (!OVERLAPS || b.pointing_max == 0) {
                // without overlaps only 0, 1 or more matters
                let shape: Bits<W> = load(&b.shapes, h * W);
                let mut y = [0u64; W];
                for j in 0..W {
                    y[j] = c[j] & shape[j];
                }
                match size_class(&y) {
                    0 => return None,
                    1 => {
                        for j in 0..W {
                            found[j] |= y[j];
                        }
                    }
                    _ => {}
                }
                continue;
            }
            let (y, k) = places_in::<W>(b, h, &c);
            match k {
                0 => return None,
                1 => {
                    for j in 0..W {
                        found[j] |= y[j];
                    }
                }
                k => small[i] |= ((OVERLAPS && k <= b.pointing_max) as u64) << bit,
            }
        }
    }
    if !is_empty(&small) {
        dirty.mark_overlaps::<W>(s, &small);
    }
    Some(found)
}

/// [`hidden_singles`] in the AVX-512 kernel: the places of symbol `s` in every complete shape
/// counted at once by [`Tally`](crate::engine::tally::Tally) (so no shape marks are needed, only the symbol's), on boards of
/// one or two words.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn hidden_singles_by_tally<const W: usize, const OVERLAPS: bool>(
    b: &Board,
    state: &[u64],
    s: usize,
    dirty: &mut Dirty,
) -> Option<Bits<W>> {
    debug_assert!(W <= 2);
    dirty.symbols &= !(1 << s);
    let c: Bits<W> = load(state, s * W);
    // SAFETY: the `V` kernels run only when the board has a tally
    let tally = unsafe { b.tally.as_ref().unwrap_unchecked() };
    // shapes with few places are marked for the overlap pass, unless it looks at every
    // overlap at once
    let few_max = if OVERLAPS && b.overlaps.is_none() {
        b.pointing_max
    } else {
        0
    };
    // SAFETY: a `Tally` exists only on CPUs with the instructions, and `counts` with it
    let places = unsafe {
        match &mut dirty.counts {
            Some(counts) if OVERLAPS => tally.count_since::<W>(&c, few_max, counts, s),
            _ => tally.count::<W>(&c, few_max),
        }
    };
    // the shapes where `s` is not placed yet: the board's flag bits, shifted to shape indices
    let board = if W == 1 {
        c[0] as u128
    } else {
        (c[W - 1] as u128) << 64 | c[0] as u128
    };
    let live = (board >> b.n_cells) as u64;
    if places.none & live != 0 {
        return None;
    }
    let mut found = [0u64; W];
    let mut singles = places.one & live;
    while singles != 0 {
        let h = singles.trailing_zeros() as usize;
        singles &= singles - 1;
        let shape: Bits<W> = load(&b.shapes, h * W);
        for j in 0..W {
            found[j] |= c[j] & shape[j];
        }
    }
    if OVERLAPS && b.overlaps.is_some() {
        // the overlap pass counts from the symbol's last counts, these
        dirty.overlap_symbols |= 1 << s;
    } else if OVERLAPS {
        // shapes with few places whose places changed since the symbol's last look (the
        // others were marked then, or looked at for overlaps with these same places)
        let few = places.few & live & places.changed;
        if few != 0 {
            let flags = (few as u128) << b.n_cells;
            let mut small = [0u64; W];
            small[0] = flags as u64;
            small[W - 1] |= (flags >> (64 * (W - 1))) as u64;
            dirty.mark_overlaps::<W>(s, &small);
        }
    }
    Some(found)
}

/// Places the hidden singles `found` of symbol `s` at once: their peers lose `s`, the other
/// symbols lose the cells. False when two of them see each other.
#[inline(always)]
pub(super) fn place_hidden_singles<const W: usize, const N: usize, const V: bool>(
    b: &Board,
    state: &mut [u64],
    s: usize,
    found: &Bits<W>,
    dirty: &mut Dirty,
) -> bool {
    let n = symbols::<N>(b);
    #[cfg(target_arch = "x86_64")]
    if in_vectors::<W, N, V>(b) {
        // the cells' peers (and the flags of their shapes); a found cell among them, or no
        // longer on the board, is a contradiction
        let mut peers = [0u64; W];
        for_each_bit(found, |cell| {
            let vis: Bits<W> = load(&b.vis, cell * W);
            for j in 0..W {
                peers[j] |= vis[j];
            }
        });
        let c: Bits<W> = load(state, s * W);
        let mut lost = 0;
        for j in 0..W {
            lost |= found[j] & (peers[j] | !c[j]);
        }
        if lost != 0 {
            return false;
        }
        dirty.lost = [c[0] & peers[0], c[W - 1] & peers[W - 1]];
        // SAFETY: the state is padded (`stride`), the boards have two words (`in_vectors`) and
        // the CPU has the instructions (`V`)
        let hit = unsafe {
            avx512::place(
                state,
                n,
                s,
                [found[0], found[W - 1]],
                [peers[0], peers[W - 1]],
            )
        };
        dirty.symbols |= hit | 1 << s;
        return true;
    }
    let mut c: Bits<W> = load(state, s * W);
    let mut todo: Bits<W> = load(state, n * W);
    let mut shapes_of_found = [0u64; W];
    let mut reach = [0u64; W];
    for_each_bit(found, |cell| {
        let vis: Bits<W> = load(&b.vis, cell * W);
        let r: Bits<W> = load(&b.reach, cell * W);
        for j in 0..W {
            c[j] &= !vis[j];
            shapes_of_found[j] |= vis[j];
            reach[j] |= r[j];
        }
    });
    let mut lost = 0;
    for j in 0..W {
        lost |= found[j] & !c[j];
        todo[j] &= !found[j];
        shapes_of_found[j] &= b.flag_mask[j];
    }
    if lost != 0 {
        return false;
    }
    store(state, s * W, c);
    store(state, n * W, todo);
    dirty.mark::<W, V>(s, &reach);
    // the other symbols lose the cells, without branching (`s` keeps its board)
    let mut hit_symbols = 0u64;
    for t in 0..n {
        let mut other: Bits<W> = load(state, t * W);
        let mut hit = 0;
        let keep = if t == s { !0u64 } else { 0 };
        for j in 0..W {
            hit |= other[j] & found[j] & !keep;
            other[j] &= !found[j] | keep;
        }
        store(state, t * W, other);
        hit_symbols |= ((hit != 0) as u64) << t;
    }
    while hit_symbols != 0 {
        let t = hit_symbols.trailing_zeros() as usize;
        hit_symbols &= hit_symbols - 1;
        dirty.mark::<W, V>(t, &shapes_of_found);
    }
    true
}
