//! Placing the givens on fresh boards: all at once, one pass over the cells to sort them into a
//! board per symbol, then one per symbol, with no branch per cell.

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::bits::{for_each_bit, load, store, Bits};
use super::dispatch::{in_vectors, symbols};
use super::Board;

/// Places the givens on fresh boards, all at once and without marking anything (the search
/// marks every symbol for every shape afterwards); `scratch` holds `n_symbols + 1` boards.
/// False when a given is not a symbol or two givens of one symbol see each other. (One pass
/// over the cells without branching on them, then one per symbol: a branch per cell on whether
/// it has a given mispredicts about every other given.)
#[inline(always)]
pub(super) fn place_givens<const W: usize, const N: usize, const V: bool>(
    b: &Board,
    state: &mut [u64],
    givens: &[Option<u8>],
    scratch: &mut [u64],
) -> bool {
    let n = symbols::<N>(b);
    #[cfg(target_arch = "x86_64")]
    if in_vectors::<W, N, V>(b) {
        // SAFETY: the state is padded (`stride`) and the CPU has the instructions (`V`)
        return unsafe { avx512::place_givens(b, state, n, givens) };
    }
    // the givens of each symbol as a board (cells without a given go to the spare board `n`)
    #[cfg(target_arch = "x86_64")]
    let read = if V && W <= 2 {
        // SAFETY: `V` kernels run only on CPUs with AVX-512; `scratch` holds `n + 1` boards
        unsafe { avx512::given_boards::<W>(givens, n, scratch) }
    } else {
        given_boards::<W>(givens, n, scratch)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let read = given_boards::<W>(givens, n, scratch);
    read && place_given_boards::<W, N>(b, state, scratch)
}

/// [`place_givens`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,bmi1,bmi2,lzcnt")]
pub(super) unsafe fn place_givens_vector<const W: usize, const N: usize>(
    b: &Board,
    state: &mut [u64],
    givens: &[Option<u8>],
    scratch: &mut [u64],
) -> bool {
    place_givens::<W, N, true>(b, state, givens, scratch)
}

/// The givens of each symbol as a board in `scratch` (`n + 1` boards: the cells without a given
/// go to board `n`); false when a given is not a symbol.
#[inline(always)]
pub(super) fn given_boards<const W: usize>(
    givens: &[Option<u8>],
    n: usize,
    scratch: &mut [u64],
) -> bool {
    scratch.iter_mut().for_each(|w| *w = 0);
    let mut bad = 0u8;
    for (c, g) in givens.iter().enumerate() {
        let s = g.map_or(n, |s| s as usize);
        bad |= (s > n) as u8 | (g.is_some() && s == n) as u8;
        // SAFETY: the index is below `(n + 1) * W`: `min` keeps the board index at most `n`,
        // and `c / 64 < W` since `givens` has one entry per cell (checked by the caller)
        unsafe { *scratch.get_unchecked_mut(s.min(n) * W + c / 64) |= 1 << (c % 64) };
    }
    bad == 0
}

/// [`place_givens`] once the givens are boards (`given_boards`).
#[inline(always)]
pub(super) fn place_given_boards<const W: usize, const N: usize>(
    b: &Board,
    state: &mut [u64],
    scratch: &[u64],
) -> bool {
    let n = symbols::<N>(b);
    let mut all = [0u64; W];
    let mut clash = 0;
    for s in 0..n {
        let given: Bits<W> = load(scratch, s * W);
        let mut seen = [0u64; W];
        for_each_bit(&given, |cell| {
            let vis: Bits<W> = load(&b.vis, cell * W);
            for i in 0..W {
                seen[i] |= vis[i];
            }
        });
        let mut own: Bits<W> = load(state, s * W);
        for i in 0..W {
            clash |= given[i] & seen[i];
            own[i] &= !seen[i];
            all[i] |= given[i];
        }
        store(state, s * W, own);
    }
    // the given cells leave the other symbols and the unplaced cells
    for t in 0..=n {
        let given: Bits<W> = load(scratch, t * W);
        let mut board: Bits<W> = load(state, t * W);
        for i in 0..W {
            board[i] &= !(all[i] & !given[i]);
        }
        store(state, t * W, board);
    }
    clash == 0
}
