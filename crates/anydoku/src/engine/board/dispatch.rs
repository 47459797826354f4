//! Kernel dispatch: which compiled copy of the kernel runs a board. The board's width `W`, its
//! flag words `F` and (for common sizes) its symbol count `N` are compile-time constants of each
//! copy, chosen here once per search; `V` picks the copy compiled for AVX-512 (with a
//! [`Tally`](super::super::tally::Tally)) and the wrappers below enter it through functions that
//! carry the target features. To compile the kernel for a new size, add an arm to
//! [`BoardSearch::count_within`].

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::dirty::Dirty;
use super::propagate::propagate_checked;
use super::search::BoardSearch;
use super::Board;
use crate::engine::{Budget, Count};

/// The symbol count: `N` when the kernel was compiled for it, else the board's.
#[inline(always)]
pub(super) fn symbols<const N: usize>(b: &Board) -> usize {
    if N > 0 {
        debug_assert_eq!(N, b.n_symbols);
        N
    } else {
        b.n_symbols
    }
}

/// Whether the AVX-512 kernel (`V`) keeps this state in three vectors (`avx512`).
#[inline(always)]
pub(super) fn in_vectors<const W: usize, const N: usize, const V: bool>(b: &Board) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        V && avx512::fits(W, symbols::<N>(b))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The words of one search state: `n_symbols + 1` boards, padded for `avx512` when the state
/// lives in vectors.
#[inline(always)]
pub(super) fn stride<const W: usize, const N: usize, const V: bool>(b: &Board) -> usize {
    #[cfg(target_arch = "x86_64")]
    if in_vectors::<W, N, V>(b) {
        return avx512::STATE_WORDS;
    }
    (symbols::<N>(b) + 1) * W
}

impl BoardSearch<'_> {
    /// [`BoardSearch::count`] under a budget already started.
    pub(crate) fn count_within(
        &mut self,
        givens: &[Option<u8>],
        limit: u64,
        budget: Budget,
    ) -> Count {
        // F: the words holding shape flags (the last ones), or W when not specialised
        let f = self.b.words - self.b.n_cells / 64;
        let v = self.b.tally.is_some();
        match (self.b.words, self.b.n_symbols, f, v) {
            (2, 9, 1, true) => self.run::<2, 9, 1, true>(givens, limit, budget),
            (2, 9, 1, false) => self.run::<2, 9, 1, false>(givens, limit, budget),
            (1, 4, _, true) => self.run::<1, 4, 1, true>(givens, limit, budget),
            (1, 4, _, false) => self.run::<1, 4, 1, false>(givens, limit, budget),
            (1, 6, _, true) => self.run::<1, 6, 1, true>(givens, limit, budget),
            (1, 6, _, false) => self.run::<1, 6, 1, false>(givens, limit, budget),
            (1, _, _, true) => self.run::<1, 0, 1, true>(givens, limit, budget),
            (1, _, _, false) => self.run::<1, 0, 1, false>(givens, limit, budget),
            (2, _, _, true) => self.run::<2, 0, 2, true>(givens, limit, budget),
            (2, _, _, false) => self.run::<2, 0, 2, false>(givens, limit, budget),
            (3, ..) => self.run::<3, 0, 3, false>(givens, limit, budget),
            (4, ..) => self.run::<4, 0, 4, false>(givens, limit, budget),
            (6, 16, 2, _) => self.run::<6, 16, 2, false>(givens, limit, budget),
            (6, ..) => self.run::<6, 0, 6, false>(givens, limit, budget),
            (8, _, 3, _) => self.run::<8, 0, 3, false>(givens, limit, budget),
            (8, ..) => self.run::<8, 0, 8, false>(givens, limit, budget),
            (12, _, 4, _) => self.run::<12, 0, 4, false>(givens, limit, budget),
            (12, ..) => self.run::<12, 0, 12, false>(givens, limit, budget),
            (16, _, 5, _) => self.run::<16, 0, 5, false>(givens, limit, budget),
            (16, ..) => self.run::<16, 0, 16, false>(givens, limit, budget),
            (w, ..) => unreachable!("no kernel for {w}-word boards"),
        }
    }

    /// [`BoardSearch::descend_body`] in the kernel's instruction set: plain, or AVX-512 when `V`.
    #[inline(always)]
    pub(super) fn descend<const W: usize, const N: usize, const F: usize, const V: bool>(
        &mut self,
        depth: usize,
    ) {
        #[cfg(target_arch = "x86_64")]
        if V {
            // SAFETY: as in `propagate`
            return unsafe { self.descend_vector::<W, N, F>(depth) };
        }
        self.descend_plain::<W, N, F>(depth)
    }

    #[inline(never)]
    pub(super) fn descend_plain<const W: usize, const N: usize, const F: usize>(
        &mut self,
        depth: usize,
    ) {
        self.descend_body::<W, N, F, false>(depth)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,bmi1,bmi2,lzcnt")]
    pub(super) unsafe fn descend_vector<const W: usize, const N: usize, const F: usize>(
        &mut self,
        depth: usize,
    ) {
        self.descend_body::<W, N, F, true>(depth)
    }
}

/// [`propagate_checked`] in the kernel's instruction set: plain, or AVX-512 when `V`.
#[inline(always)]
pub(super) fn propagate<
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
    #[cfg(target_arch = "x86_64")]
    if V {
        // SAFETY: `V` kernels run only when the board has a `Tally`, which exists only on CPUs
        // with the instructions
        return unsafe { propagate_vector::<W, N, F, OVERLAPS>(b, state, dirty) };
    }
    propagate_plain::<W, N, F, OVERLAPS>(b, state, dirty)
}

#[inline(never)]
pub(super) fn propagate_plain<
    const W: usize,
    const N: usize,
    const F: usize,
    const OVERLAPS: bool,
>(
    b: &Board,
    state: &mut [u64],
    dirty: &mut Dirty,
) -> bool {
    propagate_checked::<W, N, F, OVERLAPS, false>(b, state, dirty)
}

/// [`propagate`] compiled for AVX-512, with hidden singles counted by [`Tally`](crate::engine::tally::Tally).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,bmi1,bmi2,lzcnt")]
pub(super) unsafe fn propagate_vector<
    const W: usize,
    const N: usize,
    const F: usize,
    const OVERLAPS: bool,
>(
    b: &Board,
    state: &mut [u64],
    dirty: &mut Dirty,
) -> bool {
    propagate_checked::<W, N, F, OVERLAPS, true>(b, state, dirty)
}
