//! The bitboard kernel's passes over all symbol boards at once, with AVX-512.
//!
//! On two-word boards (every 9x9 layout) with at most eleven symbols, a search state (the
//! symbol boards, then the unplaced-cells board) is at most twelve boards of 128 bits: three
//! 512-bit vectors, four boards to a vector, a board's two words in neighbouring 64-bit lanes.
//! The kernel compiled for AVX-512 (`V` in [`super`]) pads such states to 24 words and runs the
//! passes here, which read and write the state through those three vectors instead of looping
//! over the symbols:
//!
//! * [`naked_singles`]: the cells held by one board only, from an OR / majority tree over the
//!   boards ([`fold`]: the three vectors folded, then the four board slots of the result), and
//!   each single's symbol from one lane test of the vectors against the cell's bit; the state
//!   stays in registers until no single is left. The last fold of a pass also gives the cells
//!   with exactly two candidates; when one symbol only has lost cells since (a hidden single
//!   placed, an overlap), the next pass starts from the lost cells among them, which are then
//!   its singles, instead of from a fold;
//! * [`place`]: a symbol's board loses the peers of the cells it is placed in, and every other
//!   board the cells (two masked AND-NOTs per vector), telling which symbols lost any of them;
//! * [`narrow_board`]: one board loses some cells (the overlap pass);
//! * [`place_givens`]: one pass over the given cells ORs each one's peers and bit into the
//!   lanes of its symbol, then every board is narrowed at once.
//!
//! Every write to a vector state goes through these, as whole vectors: a 512-bit load right
//! after a narrower store to the same bytes waits for the store to retire.
//! Nothing here knows a geometry; the layout of a state is the kernel's. Every pass gives the
//! same boards and marks as the plain pass it replaces (the kernels are tested against each
//! other). The helpers are `#[inline(always)]` without target features of their own: they are
//! only called from the kernel compiled with them, into which they inline (a function with
//! `#[target_feature]` cannot be forced inline).

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

use super::Board;

/// Words of a padded state: twelve boards of two words.
pub(super) const STATE_WORDS: usize = 24;

/// Whether a state of `n` symbols on `words`-word boards fits the three vectors.
#[inline(always)]
pub(super) fn fits(words: usize, n: usize) -> bool {
    words == 2 && n < 12
}

/// The lanes (bit `l` for 64-bit lane `l` of the 24) holding symbol boards, for `n` symbols.
#[inline(always)]
fn symbol_lanes(n: usize) -> u32 {
    (1u32 << (2 * n)) - 1
}

/// The three vectors of a state.
///
/// # Safety
/// `state` holds at least [`STATE_WORDS`] words; the CPU has AVX-512F.
#[inline(always)]
unsafe fn load3(state: &[u64]) -> [__m512i; 3] {
    debug_assert!(state.len() >= STATE_WORDS);
    let p = state.as_ptr();
    [
        _mm512_loadu_si512(p.cast()),
        _mm512_loadu_si512(p.add(8).cast()),
        _mm512_loadu_si512(p.add(16).cast()),
    ]
}

/// The lanes of `z` (three vectors, 24 lanes) whose words share a bit with the two-word board
/// `x` repeated in every board slot, as a 24-bit mask.
#[inline(always)]
unsafe fn lanes_meeting(z: &[__m512i; 3], x: __m512i) -> u32 {
    _mm512_test_epi64_mask(z[0], x) as u32
        | (_mm512_test_epi64_mask(z[1], x) as u32) << 8
        | (_mm512_test_epi64_mask(z[2], x) as u32) << 16
}

/// The two-word board `[lo, hi]` in every board slot of a vector.
#[inline(always)]
unsafe fn repeat(lo: u64, hi: u64) -> __m512i {
    _mm512_set_epi64(
        hi as i64, lo as i64, hi as i64, lo as i64, hi as i64, lo as i64, hi as i64, lo as i64,
    )
}

/// Stores the three vectors of a state.
///
/// # Safety
/// As for [`load3`].
#[inline(always)]
unsafe fn store3(state: &mut [u64], z: &[__m512i; 3]) {
    debug_assert!(state.len() >= STATE_WORDS);
    let p = state.as_mut_ptr();
    for (i, v) in z.iter().enumerate() {
        _mm512_storeu_si512(p.add(8 * i).cast(), *v);
    }
}

/// Symbol `s`'s board loses `own`; every other board (the unplaced one included) loses `other`.
/// Returns the symbols other than `s` whose boards held any of `other`, one bit each.
#[inline(always)]
unsafe fn narrow(z: &mut [__m512i; 3], n: usize, s: usize, own: [u64; 2], other: [u64; 2]) -> u64 {
    let (own, other) = (repeat(own[0], own[1]), repeat(other[0], other[1]));
    let lanes = 3u32 << (2 * s);
    let hit = lanes_meeting(z, other) & symbol_lanes(n) & !lanes;
    for (i, v) in z.iter_mut().enumerate() {
        let mine = (lanes >> (8 * i)) as u8;
        *v = _mm512_mask_andnot_epi64(*v, !mine, other, *v);
        *v = _mm512_mask_andnot_epi64(*v, mine, own, *v);
    }
    // one bit per symbol: either of its two lanes
    _pext_u32(hit | hit >> 1, 0x55_5555) as u64
}

/// Board `k` (a symbol's, or the unplaced one for `k = n`) loses `own`.
#[inline(always)]
unsafe fn narrow_one(z: &mut [__m512i; 3], k: usize, own: [u64; 2]) {
    let own = repeat(own[0], own[1]);
    let lanes = 3u32 << (2 * k);
    for (i, v) in z.iter_mut().enumerate() {
        *v = _mm512_mask_andnot_epi64(*v, (lanes >> (8 * i)) as u8, own, *v);
    }
}

/// Places every naked single of a padded state of `n` symbols, until there is none, and marks
/// the symbols whose boards changed in `changed`. False on a contradiction: an unplaced cell no
/// board holds, or two singles of one symbol that see each other. (The plain kernel's
/// `naked_singles`, on three vectors held in registers throughout.)
///
/// `pairs`, when known, holds the unplaced cells with exactly two candidates at the end of the
/// previous pass, and `lost` the cells one symbol has lost since (nothing else changed): every
/// cell lost at most one candidate, so no cell is dead and the new singles are `pairs & lost`;
/// if there are none, the pass ends at once. It is taken either way, and set again when the
/// pass ends with a fold that found no single.
///
/// # Safety
/// `fits(2, n)`, `state` holds [`STATE_WORDS`] words whose lanes past the unplaced board are
/// zero; the CPU has AVX-512F, VL and BMI1/2.
#[inline(always)]
pub(super) unsafe fn naked_singles(
    b: &Board,
    state: &mut [u64],
    n: usize,
    changed: &mut u64,
    pairs: &mut Option<[u64; 2]>,
    lost: [u64; 2],
) -> bool {
    debug_assert!(fits(2, n) && state.len() >= STATE_WORDS);
    let symbols = symbol_lanes(n);
    let mut todo = [state[2 * n], state[2 * n + 1]];
    // known singles: the cells with two candidates at the end of the last pass that lost one
    let mut known = pairs
        .take()
        .map(|p| [p[0] & lost[0] & todo[0], p[1] & lost[1] & todo[1]]);
    if known == Some([0, 0]) {
        return true;
    }
    let mut z = load3(state);
    let mut placed = false;
    let ok = loop {
        let singles = match known.take() {
            Some(singles) => singles,
            None => {
                let (ones, twos, threes) = fold(&z, symbols);
                let dead = (todo[0] & !ones[0]) | (todo[1] & !ones[1]);
                if dead != 0 {
                    break false;
                }
                let singles = [todo[0] & !twos[0], todo[1] & !twos[1]];
                if singles[0] | singles[1] == 0 {
                    *pairs = Some([todo[0] & !threes[0], todo[1] & !threes[1]]);
                    break true;
                }
                singles
            }
        };
        placed = true;
        todo = [todo[0] & !singles[0], todo[1] & !singles[1]];
        // one single at a time, its symbol from the lanes holding its bit; a single that lost
        // its symbol to an earlier single of the same symbol is a contradiction
        let mut x = (singles[1] as u128) << 64 | singles[0] as u128;
        let mut failed = false;
        while x != 0 {
            let cell = x.trailing_zeros() as usize;
            x &= x - 1;
            let (word, bit) = (cell / 64, 1u64 << (cell % 64));
            let at = [
                bit & 0u64.wrapping_sub((word == 0) as u64),
                bit * word as u64,
            ];
            // the board holding the cell, as masks of both its lanes: a lane's word ANDed with
            // the cell's bit, ORed with its neighbour's (the board's other word)
            let (at, vis) = (
                repeat(at[0], at[1]),
                _mm512_broadcast_i32x4(_mm_loadu_si128(b.vis.as_ptr().add(cell * 2).cast())),
            );
            let mut lanes = 0u32;
            for (i, v) in z.iter_mut().enumerate() {
                let t = _mm512_and_si512(*v, at);
                let t = _mm512_or_si512(t, _mm512_shuffle_epi32::<0b01_00_11_10>(t));
                let k = _mm512_mask_test_epi64_mask((symbols >> (8 * i)) as u8, t, t);
                // its peers lose the symbol; the single was the only board holding the cell,
                // so the other boards (but the unplaced one) lose nothing
                *v = _mm512_mask_andnot_epi64(*v, k, vis, *v);
                lanes |= (k as u32) << (8 * i);
            }
            failed |= lanes == 0;
            *changed |= _pext_u32(lanes, 0x55_5555) as u64;
        }
        if failed {
            break false;
        }
        // the singles leave the unplaced board
        narrow_one(&mut z, n, [singles[0], singles[1]]);
    };
    if placed {
        store3(state, &z);
    }
    ok
}

/// The cells held by at least one, two and three symbol boards of the three vectors `z` (the
/// lanes past the symbols' masked out by `symbols`): an OR / majority tree over the vectors,
/// then over the four board slots of the result (256-bit halves, then 128-bit quarters).
#[inline(always)]
unsafe fn fold(z: &[__m512i; 3], symbols: u32) -> ([u64; 2], [u64; 2], [u64; 2]) {
    // a | (b & c)
    const OR_AND: i32 = 0xF8;
    // boards of symbols only (the unplaced board and the padding masked out)
    let z2 = _mm512_maskz_mov_epi64((symbols >> 16) as u8, z[2]);
    let ones = _mm512_or_si512(z[0], z[1]);
    let twos = _mm512_and_si512(z[0], z[1]);
    let threes = _mm512_and_si512(twos, z2);
    let twos = _mm512_ternarylogic_epi64(twos, ones, z2, OR_AND);
    let ones = _mm512_or_si512(ones, z2);
    // the two halves, then the two quarters
    let counts = merge::<0b01_00_11_10>([ones, twos, threes]);
    let [ones, twos, threes] = merge::<0b10_11_00_01>(counts);
    let words = |v: __m512i| {
        let v = _mm512_castsi512_si128(v);
        [
            _mm_cvtsi128_si64(v) as u64,
            _mm_extract_epi64::<1>(v) as u64,
        ]
    };
    (words(ones), words(twos), words(threes))
}

/// Merges the cells held by at least one, two and three boards of each 128-bit part of a
/// vector with those of the part that `SWAP` (a `_mm512_shuffle_i64x2` pattern) puts in its
/// place: three or more is three in one part, or two in one and one in the other; two or more,
/// two in one or one in each.
#[inline(always)]
unsafe fn merge<const SWAP: i32>([ones, twos, threes]: [__m512i; 3]) -> [__m512i; 3] {
    // a | (b & c)
    const OR_AND: i32 = 0xF8;
    let other = _mm512_shuffle_i64x2::<SWAP>(ones, ones);
    let threes = _mm512_ternarylogic_epi64(threes, twos, other, OR_AND);
    let twos = _mm512_ternarylogic_epi64(twos, ones, other, OR_AND);
    [
        _mm512_or_si512(ones, other),
        _mm512_or_si512(twos, _mm512_shuffle_i64x2::<SWAP>(twos, twos)),
        _mm512_or_si512(threes, _mm512_shuffle_i64x2::<SWAP>(threes, threes)),
    ]
}

/// Places symbol `s` in the cells `found` of a padded state of `n` symbols: its board loses
/// `peers` (the cells' peers and the flags of their shapes), the other boards and the unplaced
/// board lose the cells. Returns the symbols other than `s` that held any of the cells.
///
/// # Safety
/// As for [`naked_singles`].
#[inline(always)]
pub(super) unsafe fn place(
    state: &mut [u64],
    n: usize,
    s: usize,
    found: [u64; 2],
    peers: [u64; 2],
) -> u64 {
    debug_assert!(fits(2, n) && state.len() >= STATE_WORDS);
    let mut z = load3(state);
    let hit = narrow(&mut z, n, s, peers, found);
    store3(state, &z);
    hit
}

/// Board `k` of a padded state loses `cells`.
///
/// # Safety
/// As for [`naked_singles`].
#[inline(always)]
pub(super) unsafe fn narrow_board(state: &mut [u64], k: usize, cells: [u64; 2]) {
    debug_assert!(state.len() >= STATE_WORDS);
    let mut z = load3(state);
    narrow_one(&mut z, k, cells);
    store3(state, &z);
}

/// Writes the solution held by a state of `n` symbol boards of `W` words (1 or 2) into `sol`
/// (one symbol index per cell): per word of cells, every symbol's cells blended into 64 bytes.
///
/// # Safety
/// `state` holds `n * W` words, `sol` has one byte per cell and at most `64 * W` cells, each
/// placed on exactly one board; the CPU has AVX-512F and BW.
#[inline(always)]
pub(super) unsafe fn solution<const W: usize>(state: &[u64], n: usize, sol: &mut [u8]) {
    debug_assert!(W <= 2 && state.len() >= n * W && sol.len() <= 64 * W);
    for i in 0..W {
        let len = sol.len().saturating_sub(64 * i).min(64);
        let mut bytes = _mm512_setzero_si512();
        for s in 0..n {
            bytes = _mm512_mask_blend_epi8(
                *state.get_unchecked(s * W + i),
                bytes,
                _mm512_set1_epi8(s as i8),
            );
        }
        let keep = if len == 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        };
        _mm512_mask_storeu_epi8(sol.as_mut_ptr().add(64 * i).cast(), keep, bytes);
    }
}

/// The givens of each symbol as a board of `W` words (1 or 2) in `boards[s * W..]`, and the
/// cells without a given in board `n`: the givens as bytes, then one byte comparison per symbol
/// and word. False when a given is not one of the `n` symbols.
///
/// # Safety
/// `givens` has at most `64 * W` cells and `boards` holds `(n + 1) * W` words; the CPU has
/// AVX-512F and BW.
#[inline(always)]
pub(super) unsafe fn given_boards<const W: usize>(
    givens: &[Option<u8>],
    n: usize,
    boards: &mut [u64],
) -> bool {
    debug_assert!(W <= 2 && givens.len() <= 64 * W && boards.len() >= (n + 1) * W);
    let mut bytes = [u8::MAX; 128];
    given_bytes(givens, &mut bytes);
    let (none, bound) = (_mm512_set1_epi8(-1), _mm512_set1_epi8(n as i8));
    let mut bad = 0;
    for i in 0..W {
        let v = _mm512_loadu_si512(bytes.as_ptr().add(64 * i).cast());
        let cells = if givens.len() >= 64 * (i + 1) {
            u64::MAX
        } else {
            (1u64 << (givens.len() - 64 * i)) - 1
        };
        let open = _mm512_cmpeq_epi8_mask(v, none) & cells;
        bad |= _mm512_cmpge_epu8_mask(v, bound) & cells & !open;
        for s in 0..n {
            *boards.get_unchecked_mut(s * W + i) =
                _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(s as i8)) & cells;
        }
        *boards.get_unchecked_mut(n * W + i) = open;
    }
    bad == 0
}

/// Places the givens on a padded state of `n` symbols (fresh boards): each symbol's board
/// loses the peers (and shape flags) of its given cells and the cells given to other symbols;
/// the unplaced board loses every given cell. One pass over the given cells ORs each one's
/// peers and bit into the lanes of its symbol. False when a given is not one of the `n`
/// symbols or two givens of one symbol see each other.
///
/// # Safety
/// As for [`naked_singles`]; `givens` has at most 128 cells.
#[inline(always)]
pub(super) unsafe fn place_givens(
    b: &Board,
    state: &mut [u64],
    n: usize,
    givens: &[Option<u8>],
) -> bool {
    debug_assert!(fits(2, n) && state.len() >= STATE_WORDS && givens.len() <= 128);
    let mut bytes = [u8::MAX; 128];
    given_bytes(givens, &mut bytes);
    let (none, bound) = (_mm512_set1_epi8(-1), _mm512_set1_epi8(n as i8));
    let (mut given, mut bad) = ([0u64; 2], 0);
    for (i, word) in given.iter_mut().enumerate() {
        let v = _mm512_loadu_si512(bytes.as_ptr().add(64 * i).cast());
        let cells = givens.len().saturating_sub(64 * i).min(64);
        let in_grid = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        *word = !_mm512_cmpeq_epi8_mask(v, none) & in_grid;
        bad |= _mm512_cmpge_epu8_mask(v, bound) & *word;
    }
    if bad != 0 {
        return false;
    }
    // per symbol lane: the peers of its given cells, and the cells themselves
    let mut seen = [_mm512_setzero_si512(); 3];
    let mut own = [_mm512_setzero_si512(); 3];
    let mut x = (given[1] as u128) << 64 | given[0] as u128;
    while x != 0 {
        let cell = x.trailing_zeros() as usize;
        x &= x - 1;
        let lanes = 3u32 << (2 * *bytes.get_unchecked(cell) as usize);
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        let at = repeat(
            bit & 0u64.wrapping_sub((word == 0) as u64),
            bit * word as u64,
        );
        let vis = _mm512_broadcast_i32x4(_mm_loadu_si128(b.vis.as_ptr().add(cell * 2).cast()));
        for i in 0..3 {
            let k = (lanes >> (8 * i)) as u8;
            seen[i] = _mm512_mask_or_epi64(seen[i], k, seen[i], vis);
            own[i] = _mm512_mask_or_epi64(own[i], k, own[i], at);
        }
    }
    let all = repeat(given[0], given[1]);
    let mut z = load3(state);
    let mut clash = 0;
    for i in 0..3 {
        clash |= _mm512_test_epi64_mask(own[i], seen[i]);
        // a board loses the peers of its givens and the cells given to others (0xF4: a | (b & !c))
        let gone = _mm512_ternarylogic_epi64(seen[i], all, own[i], 0xF4);
        z[i] = _mm512_andnot_si512(gone, z[i]);
    }
    store3(state, &z);
    clash == 0
}

/// The givens as bytes: no given is 255, and a given 255 (not a symbol either) must not read as
/// none. Out of line and compiled without AVX-512: vectorised for it, this loop of byte pairs
/// became a long run of mask shuffles, slower than the plain loop.
#[inline(never)]
fn given_bytes(givens: &[Option<u8>], bytes: &mut [u8; 128]) {
    for (b, g) in bytes.iter_mut().zip(givens) {
        *b = g.map_or(u8::MAX, |s| s.min(u8::MAX - 1));
    }
}
