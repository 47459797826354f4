//! Symbol-major bitboards: a second search kernel for models made only of unique shapes.
//!
//! The cell-major candidate array of [`super::propagate`] pays for every placement with a walk
//! over the placed cell's peers. Here the state is transposed: for each symbol, one bitboard of
//! the cells where it is still possible (its placed cells included), plus one bitboard of the
//! cells not yet placed. Each symbol board also carries one *flag* bit per complete shape, set
//! while the symbol is not yet placed in that shape: the board is `n_cells` cell bits followed
//! by `n_shapes` flag bits, `W` 64-bit words in all. A cell's *visibility* board holds its peers
//! and the flags of its complete shapes, so placing symbol `s` in cell `c` is one AND-NOT of
//! `s`'s board with `c`'s visibility board (its peers lose `s`, and `s` is done in `c`'s shapes)
//! plus one bit cleared in the other boards. The rules are whole-board operations:
//!
//! * naked singles and dead cells: the unplaced cells covered by exactly one / no symbol board,
//!   counted bit-parallel over all cells at once (`ones`, `twos`); each single's symbol is read
//!   off bit-sliced planes of the symbol index (plane `k`: the cells of the symbols with bit `k`
//!   set), a few shifts instead of a look at every board, and placed at once;
//! * hidden singles and "no place for a symbol": a symbol whose board changed is looked at in
//!   the shapes marked for it (`Dirty`: the shapes that meet the peers of a cell where it was
//!   placed, or that hold a cell it lost) and whose flag is still set, each ANDed with the
//!   board: no cell left is a contradiction, one cell is a hidden single (every single of the
//!   symbol is placed at once, and the symbols that lose those cells are marked for the cells'
//!   shapes);
//! * overlaps (pointing / claiming), in the root propagation only: once singles are exhausted,
//!   a symbol whose places in a shape are few enough to fit in an overlap of two shapes, and all
//!   lie in one other complete shape (the shapes all their cells share, one AND of per-cell flag
//!   words), leaves the rest of that shape. Only the shapes the hidden-single pass found with
//!   that few places are looked at. (The AVX-512 copy instead looks at every overlap of two
//!   shapes at once, from the symbol's counts per shape at its last look: [`Overlaps`].)
//!   Deferring overlaps until no single is left measured cheaper than looking at once (a
//!   single placed meanwhile often makes the look pointless). Below the
//!   root they are not looked for (`propagate::<.., OVERLAPS = false>`): on the hardest 9x9 set
//!   they cut the search from 92 to 72 nodes per puzzle but cost more per node than the nodes
//!   they save (15.8k puzzles/s with them at every level, 18.7k at the root only; magictour
//!   93k → 109k; the 17-clue set, solved almost wholly at the root, keeps its gain from them).
//!
//! Nothing here knows a geometry: shapes and peers are just cell sets, built from the engine's
//! tables. The width `W` (64-bit words per board, cells plus flags: up to [`MAX_WORDS`], 1024
//! bits), the words that hold the flags (`F`) and, for 4, 6, 9 and 16 symbols, the symbol count
//! (`N`) are compile-time constants of a kernel chosen at load time, so the loops over words
//! unroll; any other symbol count is read at run time. On wide boards a shape test only reads
//! the words the shape's cells lie in. Models with sum shapes, with more cells and shapes than
//! the widest board holds, or that ask for the all-different filter keep the cell-major kernel
//! ([`super::search::Searcher`] decides). Both kernels count the same solutions (tested against
//! each other).
//!
//! **The AVX-512 copy.** On a CPU with AVX-512 and its population count (`avx512vpopcntdq`:
//! Intel since Ice Lake, AMD since Zen 4) the same kernel is compiled a second time for those
//! instructions (the const parameter `V`; `descend_vector` and `propagate_vector` carry the
//! target features, every pass inlines into them) and chosen at load time when the board has
//! at most two words and 64 complete shapes (every 9x9 layout and the smaller ones;
//! [`super::Options::vector`] turns it off). There a hidden-single look counts the symbol's
//! places in every complete shape at once ([`Tally`], eight shapes per instruction), so looks
//! need no shape marks, only the symbol's; and with at most eleven symbols the whole state is
//! three 512-bit vectors, so naked singles and placements work on all boards at once
//! (`avx512`). The looks keep each symbol's counts per shape in the root propagation
//! ([`Counts`]), from which the overlap pass finds a symbol's pointing and claiming over every
//! overlap of two shapes at once ([`Overlaps`]; with at most 32 complete shapes, else the
//! shapes with few places are marked and looked at one by one, as in the plain copy). Same
//! rules, same fixpoints, same nodes and answers: the copies are tested against each other,
//! nodes included. Measured against the plain copy
//! (`examples/throughput`, 3 interleaved runs): 1.58× on 17-clue puzzles, 1.38× on magictour,
//! 1.26× on the hardest set.
//!
//! Search (`descend`): branch on the two-candidate cell whose two branches narrow its unplaced
//! peers most; else on a symbol with two places in a complete shape; else on the cell with
//! fewest candidates. Every option but the last is tried on a copy of the state one level down;
//! the last one is applied in place (the earlier options are exhausted, so the cell must take
//! it), and the loop goes on at the same level without a copy.
//!
//! To add a rule, add a pass to `propagate_inner` that narrows symbol boards and marks what it
//! changed in `Dirty`; in the AVX-512 copy, write a vector state only through `avx512` (see
//! there why), and test the copies against each other.

// Loops over `0..W` index several boards at once; `W` is a compile-time constant, so they
// unroll into plain word operations.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
mod avx512;

use super::tally::{Counts, Overlaps, Tally};
use super::{Budget, Count, Engine, Limits};

/// Board widths (64-bit words) the kernel is compiled for: up to 1024 cells and flags.
pub const WIDTHS: [usize; 8] = [1, 2, 3, 4, 6, 8, 12, 16];
/// The widest board the kernel is compiled for.
pub const MAX_WORDS: usize = 16;

/// The bitboard form of an engine's unique shapes.
#[derive(Debug, Clone)]
pub struct Board {
    /// 64-bit words per board.
    pub(crate) words: usize,
    n_cells: usize,
    n_symbols: usize,
    /// `words` words per cell: its peers and the flag bits of its complete shapes.
    vis: Vec<u64>,
    /// `words` words per complete shape: its cells.
    shapes: Vec<u64>,
    /// Per complete shape, the first and one past the last word holding its cells (on wide
    /// boards a shape's cells lie in a few words, and only those are looked at).
    spans: Vec<(u8, u8)>,
    /// `words` words per cell: the flag bits of its complete shapes.
    flags_of: Vec<u64>,
    /// `words` words per cell: the flag bits of the complete shapes that meet its peers (where
    /// placing a symbol in the cell can take places of the symbol away).
    reach: Vec<u64>,
    /// `words` words: the cell bits.
    cell_mask: Vec<u64>,
    /// `words` words: the flag bits.
    flag_mask: Vec<u64>,
    /// Pointing / claiming is tried on a shape's places only when there are at most this many
    /// (the largest overlap of two complete shapes), or never when 0.
    pointing_max: u32,
    /// The complete shapes laid out for counting a symbol's places in all of them at once, when
    /// the board is narrow and the CPU has AVX-512 population counts; the search then runs the
    /// kernel compiled for AVX-512 (`V`), which finds hidden singles with it.
    tally: Option<Tally>,
    /// With the tally, when complete shapes overlap: the overlaps laid out for pointing and
    /// claiming over all of them at once (the AVX-512 kernel's overlap pass).
    overlaps: Option<Overlaps>,
}

impl Board {
    /// The bitboard form of `e` on boards of at most `max_words` words, or `None` when the model
    /// needs the cell-major kernel (sum shapes, no complete shape, too many cells and shapes,
    /// more than 64 symbols). `pointing`: look for overlaps (pointing / claiming) too; `vector`:
    /// count hidden singles with [`Tally`] where it can.
    pub(crate) fn new(e: &Engine, max_words: usize, pointing: bool, vector: bool) -> Option<Board> {
        if !e.sums.is_empty() || e.n_symbols == 0 || e.n_symbols > 64 || e.n_complete == 0 {
            return None;
        }
        let n_bits = e.n_cells + e.n_complete;
        let words = WIDTHS
            .into_iter()
            .find(|&w| n_bits <= 64 * w && w <= max_words)?;
        let set = |board: &mut [u64], bit: usize| board[bit / 64] |= 1 << (bit % 64);
        let mut vis = vec![0u64; e.n_cells * words];
        let mut flags_of = vec![0u64; e.n_cells * words];
        let shapes_of: Vec<Vec<u32>> = {
            let mut of = vec![Vec::new(); e.n_cells];
            for (i, shape) in e.complete.chunks_exact(e.n_symbols).enumerate() {
                for &c in shape {
                    of[c as usize].push(i as u32);
                }
            }
            of
        };
        for c in 0..e.n_cells {
            let board = &mut vis[c * words..(c + 1) * words];
            for &p in e.peers(c) {
                set(board, p as usize);
            }
            for &h in &shapes_of[c] {
                set(board, e.n_cells + h as usize);
                set(
                    &mut flags_of[c * words..(c + 1) * words],
                    e.n_cells + h as usize,
                );
            }
        }
        let mut reach = vec![0u64; e.n_cells * words];
        for c in 0..e.n_cells {
            for &p in e.peers(c) {
                for &h in &shapes_of[p as usize] {
                    set(
                        &mut reach[c * words..(c + 1) * words],
                        e.n_cells + h as usize,
                    );
                }
            }
        }
        let mut shapes = vec![0u64; e.n_complete * words];
        for (i, shape) in e.complete.chunks_exact(e.n_symbols).enumerate() {
            for &c in shape {
                set(&mut shapes[i * words..(i + 1) * words], c as usize);
            }
        }
        let spans = shapes
            .chunks_exact(words)
            .map(|w| {
                let lo = w.iter().position(|&x| x != 0).unwrap_or(0);
                let hi = w.iter().rposition(|&x| x != 0).map_or(lo, |p| p + 1);
                (lo as u8, hi as u8)
            })
            .collect();
        let mut cell_mask = vec![0u64; words];
        let mut flag_mask = vec![0u64; words];
        (0..e.n_cells).for_each(|c| set(&mut cell_mask, c));
        (e.n_cells..n_bits).for_each(|f| set(&mut flag_mask, f));
        // the largest overlap of two complete shapes (of two cells or more)
        let mut pointing_max = 0;
        if pointing {
            let mut shared = vec![0u32; e.n_complete];
            for (h, shape) in e.complete.chunks_exact(e.n_symbols).enumerate() {
                shared.iter_mut().for_each(|k| *k = 0);
                for &c in shape {
                    for &other in &shapes_of[c as usize] {
                        shared[other as usize] += 1;
                    }
                }
                shared[h] = 0;
                let most = shared.iter().copied().max().unwrap_or(0);
                if most >= 2 && (most as usize) < e.n_symbols {
                    pointing_max = pointing_max.max(most);
                }
            }
        }
        let tally = if vector {
            Tally::new(&shapes, words, e.n_complete)
        } else {
            None
        };
        let overlaps = tally
            .as_ref()
            .filter(|_| pointing_max > 0)
            .and_then(|t| Overlaps::new(t, &shapes, words, e.n_complete));
        Some(Board {
            tally,
            overlaps,
            words,
            n_cells: e.n_cells,
            n_symbols: e.n_symbols,
            vis,
            shapes,
            spans,
            flags_of,
            reach,
            cell_mask,
            flag_mask,
            pointing_max,
        })
    }
}

/// Reusable search state for one [`Board`].
pub struct BoardSearch<'b> {
    b: &'b Board,
    /// One state per search level: `n_symbols` symbol boards, then the unplaced-cells board.
    stack: Vec<u64>,
    /// Scratch for `propagate`.
    dirty: Dirty,
    /// Scratch for the givens: one board per symbol and a spare one.
    given_boards: Vec<u64>,
    /// How many solutions to keep (see `Searcher::keep_solutions`).
    pub(crate) keep: usize,
    nodes: u64,
    found: u64,
    limit: u64,
    stopped: bool,
    budget: Budget,
    solutions: Vec<Vec<u8>>,
}

/// The symbol count: `N` when the kernel was compiled for it, else the board's.
#[inline(always)]
fn symbols<const N: usize>(b: &Board) -> usize {
    if N > 0 {
        debug_assert_eq!(N, b.n_symbols);
        N
    } else {
        b.n_symbols
    }
}

/// Whether the AVX-512 kernel (`V`) keeps this state in three vectors (`avx512`).
#[inline(always)]
fn in_vectors<const W: usize, const N: usize, const V: bool>(b: &Board) -> bool {
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
fn stride<const W: usize, const N: usize, const V: bool>(b: &Board) -> usize {
    #[cfg(target_arch = "x86_64")]
    if in_vectors::<W, N, V>(b) {
        return avx512::STATE_WORDS;
    }
    (symbols::<N>(b) + 1) * W
}

/// One board of `W` words.
type Bits<const W: usize> = [u64; W];

#[inline(always)]
fn load<const W: usize>(words: &[u64], at: usize) -> Bits<W> {
    debug_assert!(at + W <= words.len());
    let mut b = [0; W];
    // SAFETY (bounds): every caller indexes a board inside a state or a table it sized itself
    // (states are `(n_symbols + 1) * W` words, tables `W` words per cell / shape).
    b.copy_from_slice(unsafe { words.get_unchecked(at..at + W) });
    b
}

#[inline(always)]
fn store<const W: usize>(words: &mut [u64], at: usize, b: Bits<W>) {
    debug_assert!(at + W <= words.len());
    // SAFETY: as in `load`.
    unsafe { words.get_unchecked_mut(at..at + W) }.copy_from_slice(&b);
}

/// ORs board `b` into the board at `at`.
#[inline(always)]
fn or_into<const W: usize>(words: &mut [u64], at: usize, b: &Bits<W>) {
    let mut d: Bits<W> = load(words, at);
    for i in 0..W {
        d[i] |= b[i];
    }
    store(words, at, d);
}

#[inline(always)]
fn is_empty<const W: usize>(b: &Bits<W>) -> bool {
    b.iter().fold(0, |acc, &w| acc | w) == 0
}

/// The number of set bits of a board.
#[inline(always)]
fn count<const W: usize>(b: &Bits<W>) -> u32 {
    b.iter().map(|w| w.count_ones()).sum::<u32>()
}

/// 0 for an empty board, 1 for a single cell, 2 for more.
#[inline(always)]
fn size_class<const W: usize>(b: &Bits<W>) -> u32 {
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
fn first_bit<const W: usize>(b: &Bits<W>) -> Option<usize> {
    b.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map(|(i, &w)| i * 64 + w.trailing_zeros() as usize)
}

/// The cells of board `c` in complete shape `h`, and how many there are. Boards of up to four
/// words are ANDed whole; wider ones only over the shape's span.
#[inline(always)]
fn places_in<const W: usize>(b: &Board, h: usize, c: &Bits<W>) -> (Bits<W>, u32) {
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
fn for_each_bit<const W: usize>(b: &Bits<W>, mut f: impl FnMut(usize)) {
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

impl<'b> BoardSearch<'b> {
    /// A searcher for `b`; reuse it across puzzles.
    pub fn new(b: &'b Board) -> Self {
        BoardSearch {
            b,
            stack: Vec::new(),
            dirty: Dirty::new(b),
            given_boards: vec![0; (b.n_symbols + 1) * b.words],
            keep: 2,
            nodes: 0,
            found: 0,
            limit: 0,
            stopped: false,
            budget: Budget::from(Limits::none()),
            solutions: Vec::new(),
        }
    }

    /// Counts solutions up to `limit`, keeping the first two (or `keep`).
    pub fn count(&mut self, givens: &[Option<u8>], limit: u64, limits: Limits) -> Count {
        self.count_within(givens, limit, Budget::from(limits))
    }

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

    fn run<const W: usize, const N: usize, const F: usize, const V: bool>(
        &mut self,
        givens: &[Option<u8>],
        limit: u64,
        budget: Budget,
    ) -> Count {
        let b = self.b;
        assert_eq!(givens.len(), b.n_cells, "givens of the wrong length");
        self.nodes = 0;
        self.found = 0;
        self.limit = limit.max(1);
        self.stopped = false;
        self.budget = budget;
        self.solutions.clear();
        let n = symbols::<N>(b);
        let stride = stride::<W, N, V>(b);
        self.stack.clear();
        self.stack.resize(2 * stride, 0);
        let cells: Bits<W> = load(&b.cell_mask, 0);
        let flags: Bits<W> = load(&b.flag_mask, 0);
        let mut fresh = cells;
        for i in 0..W {
            fresh[i] |= flags[i];
        }
        for s in 0..n {
            store(&mut self.stack, s * W, fresh);
        }
        store(&mut self.stack, n * W, cells);
        let root = &mut self.stack[..stride];
        let scratch = &mut self.given_boards;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `V` kernels run only on CPUs with the instructions
        let ok = if V {
            unsafe { place_givens_vector::<W, N>(b, root, givens, scratch) }
        } else {
            place_givens::<W, N, false>(b, root, givens, scratch)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let ok = place_givens::<W, N, false>(b, root, givens, scratch);
        if V {
            // the AVX-512 kernel's looks need no shape marks; every shape is new to the root
            self.dirty.symbols = u64::MAX >> (64 - n);
            if let Some(counts) = &mut self.dirty.counts {
                counts.forget();
            }
        } else {
            for s in 0..n {
                self.dirty.mark_all::<W>(b, s);
            }
        }
        if !ok {
            self.dirty.clear::<W>();
        } else if propagate::<W, N, F, true, V>(b, root, &mut self.dirty) {
            self.descend::<W, N, F, V>(0);
        }
        Count {
            count: self.found,
            complete: !self.stopped || self.found >= self.limit,
            solutions: std::mem::take(&mut self.solutions),
            nodes: self.nodes,
        }
    }

    /// [`BoardSearch::descend_body`] in the kernel's instruction set: plain, or AVX-512 when `V`.
    #[inline(always)]
    fn descend<const W: usize, const N: usize, const F: usize, const V: bool>(
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
    fn descend_plain<const W: usize, const N: usize, const F: usize>(&mut self, depth: usize) {
        self.descend_body::<W, N, F, false>(depth)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,bmi1,bmi2,lzcnt")]
    unsafe fn descend_vector<const W: usize, const N: usize, const F: usize>(
        &mut self,
        depth: usize,
    ) {
        self.descend_body::<W, N, F, true>(depth)
    }

    /// Searches below level `depth`, whose state is already propagated. The last option of each
    /// choice is applied in place, so the loop goes on at this level.
    #[inline(always)]
    fn descend_body<const W: usize, const N: usize, const F: usize, const V: bool>(
        &mut self,
        depth: usize,
    ) {
        let b = self.b;
        let n = symbols::<N>(b);
        let stride = stride::<W, N, V>(b);
        let base = depth * stride;
        let next = base + stride;
        if self.stack.len() < next + stride {
            self.stack.resize(next + stride, 0);
        }
        loop {
            self.nodes += 1;
            if self.budget.exhausted(self.nodes) {
                self.stopped = true;
                return;
            }
            let todo: Bits<W> = load(&self.stack, base + n * W);
            if is_empty(&todo) {
                self.record::<W, N, V>(base);
                return;
            }
            let (s_last, cell_last, dirty_last) = match choose::<W, N>(b, &self.stack[base..next]) {
                Choice::Cell(cell, options) => {
                    let mut bits = options;
                    while bits & (bits - 1) != 0 {
                        let s = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        self.stack.copy_within(base..next, next);
                        let state = &mut self.stack[next..next + stride];
                        place::<W, N, V>(b, state, s, cell, options, &mut self.dirty);
                        if propagate::<W, N, F, false, V>(b, state, &mut self.dirty) {
                            self.descend::<W, N, F, V>(depth + 1);
                        }
                        if self.stopped {
                            return;
                        }
                    }
                    (bits.trailing_zeros() as usize, cell, options)
                }
                Choice::Places(s, [first, second]) => {
                    self.stack.copy_within(base..next, next);
                    let state = &mut self.stack[next..next + stride];
                    let had = options_of::<W, N>(b, state, first);
                    place::<W, N, V>(b, state, s, first, had, &mut self.dirty);
                    if propagate::<W, N, F, false, V>(b, state, &mut self.dirty) {
                        self.descend::<W, N, F, V>(depth + 1);
                    }
                    if self.stopped {
                        return;
                    }
                    let had = options_of::<W, N>(b, &self.stack[base..next], second);
                    (s, second, had)
                }
            };
            let state = &mut self.stack[base..next];
            place::<W, N, V>(b, state, s_last, cell_last, dirty_last, &mut self.dirty);
            if !propagate::<W, N, F, false, V>(b, state, &mut self.dirty) {
                return;
            }
        }
    }

    /// Counts the solution at `base` and keeps it if it is one of the first `keep`.
    fn record<const W: usize, const N: usize, const V: bool>(&mut self, base: usize) {
        self.found += 1;
        if self.solutions.len() < self.keep {
            let b = self.b;
            let mut sol = vec![0u8; b.n_cells];
            #[cfg(target_arch = "x86_64")]
            if V && W <= 2 {
                // SAFETY: the state at `base` holds the symbol boards, every cell is placed, on
                // at most two words of cells; `V` kernels run only on CPUs with AVX-512
                unsafe { avx512::solution::<W>(&self.stack[base..], symbols::<N>(b), &mut sol) };
                self.solutions.push(sol);
                if self.found >= self.limit {
                    self.stopped = true;
                }
                return;
            }
            let cells: Bits<W> = load(&b.cell_mask, 0);
            for s in 0..symbols::<N>(b) {
                let mut board: Bits<W> = load(&self.stack, base + s * W);
                for i in 0..W {
                    board[i] &= cells[i];
                }
                // SAFETY: `board` holds only cell bits, each below `n_cells`
                for_each_bit(&board, |c| unsafe { *sol.get_unchecked_mut(c) = s as u8 });
            }
            self.solutions.push(sol);
        }
        if self.found >= self.limit {
            self.stopped = true;
        }
    }
}

/// The symbols still possible in `cell`, as a mask.
#[inline(always)]
fn options_of<const W: usize, const N: usize>(b: &Board, state: &[u64], cell: usize) -> u64 {
    let (word, bit) = (cell / 64, cell % 64);
    let n = symbols::<N>(b);
    debug_assert!(n * W <= state.len() && word < W);
    let mut options = 0;
    for s in 0..n {
        // SAFETY: `s < n` and `word < W`: inside the state's `n` symbol boards
        options |= ((unsafe { *state.get_unchecked(s * W + word) } >> bit) & 1) << s;
    }
    options
}

/// What to branch on.
enum Choice {
    /// A cell and its candidate symbols (as a mask).
    Cell(usize, u64),
    /// A symbol and its two places in some complete shape.
    Places(usize, [usize; 2]),
}

/// The branching choice: the cell with two candidates whose branches narrow its peers most (ties:
/// the first); else a symbol with two places in a complete shape; else the cell with the fewest
/// candidates. (Scoring the two-candidate cells cut the search on the hardest 9x9 set from 168 to
/// 98 nodes per puzzle, for about as many instructions per node.)
fn choose<const W: usize, const N: usize>(b: &Board, state: &[u64]) -> Choice {
    let n = symbols::<N>(b);
    let todo: Bits<W> = load(state, n * W);
    let (mut ones, mut twos, mut more) = ([0u64; W], [0u64; W], [0u64; W]);
    for s in 0..n {
        let c: Bits<W> = load(state, s * W);
        for i in 0..W {
            let m = c[i] & todo[i];
            more[i] |= twos[i] & m;
            twos[i] |= ones[i] & m;
            ones[i] |= m;
        }
    }
    let mut pairs = [0u64; W];
    for i in 0..W {
        pairs[i] = twos[i] & !more[i];
    }
    if !is_empty(&pairs) {
        // score each two-candidate cell by what each of its two branches removes from unplaced
        // peers (one per peer losing the symbol, three when that peer has two candidates and
        // becomes a single), as the product of the two branches' scores plus one, so a cell
        // whose branches both narrow a lot wins; the first best cell wins. Branch-free inside
        // the loop over the cells.
        let (mut best, mut best_score) = (0usize, 0u32);
        for_each_bit(&pairs, |cell| {
            let options = options_of::<W, N>(b, state, cell);
            let first = options.trailing_zeros() as usize;
            let second = (options & (options - 1)).trailing_zeros() as usize;
            let peers: Bits<W> = load(&b.vis, cell * W);
            let c1: Bits<W> = load(state, first * W);
            let c2: Bits<W> = load(state, second * W);
            let (mut a1, mut a2) = (0u32, 0u32);
            for j in 0..W {
                let either = (peers[j] & c1[j], peers[j] & c2[j]);
                a1 += (either.0 & todo[j]).count_ones() + 2 * (either.0 & pairs[j]).count_ones();
                a2 += (either.1 & todo[j]).count_ones() + 2 * (either.1 & pairs[j]).count_ones();
            }
            let score = (a1 + 1) * (a2 + 1);
            let better = score > best_score;
            best = if better { cell } else { best };
            best_score = if better { score } else { best_score };
        });
        return Choice::Cell(best, options_of::<W, N>(b, state, best));
    }
    // a symbol with two places in a shape where it is not placed yet
    for s in 0..n {
        let c: Bits<W> = load(state, s * W);
        for i in b.n_cells / 64..W {
            let mut f = c[i] & b.flag_mask[i];
            while f != 0 {
                let h = i * 64 + f.trailing_zeros() as usize - b.n_cells;
                f &= f - 1;
                let (mut y, k) = places_in::<W>(b, h, &c);
                if k == 2 {
                    let first = first_bit(&y).expect("two places");
                    y[first / 64] &= !(1 << (first % 64));
                    let second = first_bit(&y).expect("two places");
                    return Choice::Places(s, [first, second]);
                }
            }
        }
    }
    let mut best = (u32::MAX, 0usize, 0u64);
    for_each_bit(&todo, |cell| {
        let options = options_of::<W, N>(b, state, cell);
        let k = options.count_ones();
        if k < best.0 {
            best = (k, cell, options);
        }
    });
    Choice::Cell(best.1, best.2)
}

/// Places symbol `s` in `cell`, which must still allow it; `options` are the symbols the cell
/// still allows. The cell leaves the other symbols' boards and the unplaced board; its peers and
/// the flags of its shapes leave `s`'s board. Marks what changed in `dirty`.
#[inline(always)]
fn place<const W: usize, const N: usize, const V: bool>(
    b: &Board,
    state: &mut [u64],
    s: usize,
    cell: usize,
    options: u64,
    dirty: &mut Dirty,
) {
    let n = symbols::<N>(b);
    #[cfg(target_arch = "x86_64")]
    if in_vectors::<W, N, V>(b) {
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        let mut at = [0u64; 2];
        at[word] = bit;
        let vis: Bits<W> = load(&b.vis, cell * W);
        // SAFETY: as in `place_hidden_singles`
        unsafe { avx512::place(state, n, s, at, [vis[0], vis[W - 1]]) };
        dirty.symbols |= options | 1 << s;
        return;
    }
    let (word, bit) = (cell / 64, 1u64 << (cell % 64));
    let vis: Bits<W> = load(&b.vis, cell * W);
    let mut shapes_of_cell = vis;
    for i in 0..W {
        shapes_of_cell[i] &= b.flag_mask[i];
    }
    let mut others = options & !(1 << s);
    while others != 0 {
        let t = others.trailing_zeros() as usize;
        others &= others - 1;
        state[t * W + word] &= !bit;
        dirty.mark::<W, V>(t, &shapes_of_cell);
    }
    state[n * W + word] &= !bit;
    let mut own: Bits<W> = load(state, s * W);
    for i in 0..W {
        own[i] &= !vis[i];
    }
    store(state, s * W, own);
    dirty.mark::<W, V>(s, &load(&b.reach, cell * W));
}

/// Places the givens on fresh boards, all at once and without marking anything (the search
/// marks every symbol for every shape afterwards); `scratch` holds `n_symbols + 1` boards.
/// False when a given is not a symbol or two givens of one symbol see each other. (One pass
/// over the cells without branching on them, then one per symbol: a branch per cell on whether
/// it has a given mispredicts about every other given.)
#[inline(always)]
fn place_givens<const W: usize, const N: usize, const V: bool>(
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
unsafe fn place_givens_vector<const W: usize, const N: usize>(
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
fn given_boards<const W: usize>(givens: &[Option<u8>], n: usize, scratch: &mut [u64]) -> bool {
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
fn place_given_boards<const W: usize, const N: usize>(
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

/// The symbols whose boards changed since their hidden singles were last looked for and, for
/// each, the complete shapes (as flag bits) where it may have lost a place: only those can hold
/// a new hidden single of it.
pub(crate) struct Dirty {
    symbols: u64,
    /// `W` words per symbol.
    shapes: Vec<u64>,
    /// The same for overlaps, which are looked for once singles are exhausted: the shapes
    /// scanned for hidden singles since then.
    overlap_symbols: u64,
    overlap_shapes: Vec<u64>,
    /// AVX-512 kernel on vector states only: the unplaced cells with exactly two candidates
    /// at the end of the last naked-single pass, kept while one symbol at most has lost cells
    /// since (`lost`: those cells). A new naked single is then one of `lost & pairs`, so the
    /// next pass starts from them instead of from a fold over all boards.
    pairs: Option<[u64; 2]>,
    lost: [u64; 2],
    /// AVX-512 kernel: each symbol's counts of places per shape at its last look in the root
    /// propagation. The overlap pass over every overlap at once ([`Overlaps`]) reads them;
    /// without it, only the shapes whose count changed since are marked for the shape-by-shape
    /// pass (a shape looked at for overlaps with the same places finds nothing new).
    counts: Option<Counts>,
}

impl Dirty {
    fn new(b: &Board) -> Self {
        Dirty {
            symbols: 0,
            shapes: vec![0; b.n_symbols * b.words],
            overlap_symbols: 0,
            overlap_shapes: vec![0; b.n_symbols * b.words],
            pairs: None,
            lost: [0; 2],
            counts: b.tally.as_ref().map(|t| Counts::new(t, b.n_symbols)),
        }
    }

    /// Symbol `s` was scanned for hidden singles in `shapes`: look there for overlaps later.
    #[inline(always)]
    fn mark_overlaps<const W: usize>(&mut self, s: usize, shapes: &Bits<W>) {
        or_into(&mut self.overlap_shapes, s * W, shapes);
        self.overlap_symbols |= 1 << s;
    }

    /// Takes the shapes of symbol `s` to look at for overlaps.
    #[inline(always)]
    fn take_overlaps<const W: usize>(&mut self, s: usize) -> Bits<W> {
        take_marks(&mut self.overlap_shapes, &mut self.overlap_symbols, s)
    }

    /// Symbol `s` may have lost places in `shapes`.
    #[inline(always)]
    fn mark<const W: usize, const V: bool>(&mut self, s: usize, shapes: &Bits<W>) {
        if !V {
            or_into(&mut self.shapes, s * W, shapes);
        }
        self.symbols |= 1 << s;
    }

    /// Symbol `s` went from board `old` to board `new`: marks the shapes of the cells it lost.
    #[inline(always)]
    fn mark_lost<const W: usize, const V: bool>(
        &mut self,
        b: &Board,
        s: usize,
        old: &Bits<W>,
        new: &Bits<W>,
    ) {
        if V {
            self.symbols |= 1 << s;
            return;
        }
        let mut lost = [0u64; W];
        for i in 0..W {
            lost[i] = old[i] & !new[i] & b.cell_mask[i];
        }
        let mut shapes = [0u64; W];
        for_each_bit(&lost, |cell| {
            let f: Bits<W> = load(&b.flags_of, cell * W);
            for i in 0..W {
                shapes[i] |= f[i];
            }
        });
        self.mark::<W, V>(s, &shapes);
    }

    /// Symbol `s` may have lost places in any shape.
    #[inline(always)]
    fn mark_all<const W: usize>(&mut self, b: &Board, s: usize) {
        store(&mut self.shapes, s * W, load::<W>(&b.flag_mask, 0));
        self.symbols |= 1 << s;
    }

    /// Unmarks every symbol.
    fn clear<const W: usize>(&mut self) {
        self.pairs = None;
        while self.symbols != 0 {
            let s = self.symbols.trailing_zeros() as usize;
            self.take::<W>(s);
        }
        while self.overlap_symbols != 0 {
            let s = self.overlap_symbols.trailing_zeros() as usize;
            self.take_overlaps::<W>(s);
        }
    }

    /// Takes the marked shapes of symbol `s`.
    #[inline(always)]
    fn take<const W: usize>(&mut self, s: usize) -> Bits<W> {
        take_marks(&mut self.shapes, &mut self.symbols, s)
    }
}

/// Takes symbol `s`'s marked shapes out of `shapes` (`W` words a symbol) and its bit out of
/// `symbols`.
#[inline(always)]
fn take_marks<const W: usize>(shapes: &mut [u64], symbols: &mut u64, s: usize) -> Bits<W> {
    let d: Bits<W> = load(shapes, s * W);
    store(shapes, s * W, [0; W]);
    *symbols &= !(1 << s);
    d
}

/// Places every naked single (an unplaced cell that only one symbol board still holds), in
/// bulk, until there is none; marks the symbols whose boards changed. False on a contradiction:
/// an unplaced cell that no board holds, or two singles of one symbol that see each other.
#[inline(always)]
fn naked_singles<const W: usize, const N: usize, const V: bool>(
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

/// [`propagate_checked`] in the kernel's instruction set: plain, or AVX-512 when `V`.
#[inline(always)]
fn propagate<
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
fn propagate_plain<const W: usize, const N: usize, const F: usize, const OVERLAPS: bool>(
    b: &Board,
    state: &mut [u64],
    dirty: &mut Dirty,
) -> bool {
    propagate_checked::<W, N, F, OVERLAPS, false>(b, state, dirty)
}

/// [`propagate`] compiled for AVX-512, with hidden singles counted by [`Tally`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,bmi1,bmi2,lzcnt")]
unsafe fn propagate_vector<const W: usize, const N: usize, const F: usize, const OVERLAPS: bool>(
    b: &Board,
    state: &mut [u64],
    dirty: &mut Dirty,
) -> bool {
    propagate_checked::<W, N, F, OVERLAPS, true>(b, state, dirty)
}

/// Propagates to a fixpoint after the changes marked in `dirty`. False on a contradiction: a
/// cell with no symbol, a symbol with no place in a complete shape where it is not placed, or
/// two singles that see each other. Leaves `dirty` clean either way.
#[inline(always)]
fn propagate_checked<
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
fn propagate_inner<
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

/// The hidden singles of symbol `s` in the shapes marked for it where it is not placed yet (the
/// marks are taken), or `None` when one of those shapes has no place left for it. Shapes whose
/// places are few enough to lie in an overlap of two shapes are marked for [`overlaps`].
#[inline(always)]
fn hidden_singles<
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
/// counted at once by [`Tally`] (so no shape marks are needed, only the symbol's), on boards of
/// one or two words.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn hidden_singles_by_tally<const W: usize, const OVERLAPS: bool>(
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
fn place_hidden_singles<const W: usize, const N: usize, const V: bool>(
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

/// Pointing and claiming for symbol `s` in the shapes marked for it by [`hidden_singles`] (the
/// marks are taken), or in the AVX-512 kernel over every overlap of two shapes at once
/// ([`Overlaps`]). True when its board narrowed.
#[inline(always)]
fn overlaps<const W: usize, const N: usize, const F: usize, const V: bool>(
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
fn pointing<const W: usize, const F: usize>(b: &Board, h: usize, y: &Bits<W>, gone: &mut Bits<W>) {
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

#[cfg(test)]
mod tests {
    use crate::engine::{Engine, Limits, Options};
    use crate::geometry::builtin;
    use rand::{Rng, SeedableRng};

    fn engines(name: &str, overlaps: Option<bool>) -> (Engine, Engine) {
        let g = builtin::load(name).unwrap();
        let with = |board| {
            Engine::with_options(
                &g,
                Options {
                    board: Some(board),
                    overlaps,
                    ..Default::default()
                },
            )
        };
        (with(true), with(false))
    }

    /// Random givens taken from `grid`, how many drawn from `range`, about one in twenty of
    /// them a random symbol instead (often a wrong given).
    fn random_givens(
        rng: &mut impl Rng,
        grid: &[u8],
        range: std::ops::Range<i32>,
        n_symbols: usize,
    ) -> Vec<Option<u8>> {
        let mut givens = vec![None; grid.len()];
        for _ in 0..rng.gen_range(range) {
            let c = rng.gen_range(0..grid.len());
            givens[c] = Some(if rng.gen_bool(0.05) {
                rng.gen_range(0..n_symbols as u8)
            } else {
                grid[c]
            });
        }
        givens
    }

    /// Whether `sol` fills every cell and no two peers share a symbol.
    fn valid(e: &Engine, givens: &[Option<u8>], sol: &[u8]) -> bool {
        sol.len() == e.n_cells
            && sol.iter().all(|&s| (s as usize) < e.n_symbols)
            && givens
                .iter()
                .zip(sol)
                .all(|(g, &s)| g.is_none_or(|g| g == s))
            && (0..e.n_cells).all(|c| e.peers(c).iter().all(|&p| sol[p as usize] != sol[c]))
    }

    /// The bitboard kernel counts what the cell-major kernel counts, on random partial grids of
    /// several layouts (some with a wrong given), and every solution it reports is valid.
    #[test]
    fn counts_agree_with_the_cell_major_kernel() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let layouts = [
            ("classic4", 1..6, None),
            ("classic6", 3..14, None),
            ("classic9", 14..30, None),
            ("classic9", 14..30, Some(true)),
            ("x", 10..24, None),
            ("jigsaw", 12..26, None),
            ("toroidal", 12..26, None),
            ("windoku", 10..24, None),
            ("classic16", 90..140, None),
            ("samurai", 110..160, None),
            ("gattai8", 170..240, None),
        ];
        for (name, range, overlaps) in layouts {
            let (board, cells) = engines(name, overlaps);
            assert!(board.board.is_some(), "{name}: no bitboard form");
            let n = board.n_cells;
            let grid = cells.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            let (mut unique, mut multiple, mut none) = (0, 0, 0);
            for _ in 0..60 {
                let givens = random_givens(&mut rng, &grid, range.clone(), board.n_symbols);
                let limits = Limits {
                    max_nodes: Some(200_000),
                    max_time: None,
                };
                let a = board.count(&givens, 20, limits);
                let b = cells.count(&givens, 20, limits);
                if !a.complete || !b.complete {
                    continue;
                }
                assert_eq!(a.count, b.count, "{name}: {givens:?}");
                for sol in &a.solutions {
                    assert!(valid(&board, &givens, sol), "{name}: {sol:?}");
                }
                if a.count == 1 {
                    assert_eq!(a.solutions, b.solutions, "{name}");
                }
                match a.count {
                    0 => none += 1,
                    1 => unique += 1,
                    _ => multiple += 1,
                }
            }
            assert!(
                unique + multiple + none >= 40,
                "{name}: too many budget stops"
            );
            assert!(
                multiple > 0 && unique + none > 0,
                "{name}: {unique} {multiple} {none}"
            );
        }
    }

    /// The kernel compiled for AVX-512, which counts hidden singles with [`super::Tally`],
    /// counts what the plain kernel counts, and finds the same solutions, on random partial
    /// grids of every narrow layout (some with a wrong given). On a CPU without the instructions
    /// both engines run the plain kernel and the test says so.
    #[test]
    fn vector_and_plain_kernels_agree() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
        // a 9x9 with the nine disjoint groups (the same place in every box) as well: 36
        // complete shapes, more than `Overlaps` takes, so overlaps go shape by shape there
        let mut disjoint = String::from("name = \"Disjoint\"\nsymbols = \"123456789\"\n");
        disjoint.push_str("[[grid]]\nsize = 9\nboxes = [3, 3]\n");
        for k in 0..9 {
            let cells: Vec<String> = (0..81)
                .filter(|c| (c / 9 % 3) * 3 + c % 3 == k)
                .map(|c| format!("r{}c{}", c / 9 + 1, c % 9 + 1))
                .collect();
            disjoint.push_str(&format!("[[shape]]\ncells = \"{}\"\n", cells.join(" ")));
        }
        let layouts = [
            ("classic4", 3..9),
            ("classic6", 8..20),
            ("classic9", 30..44),
            ("x", 26..40),
            ("jigsaw", 30..44),
            ("toroidal", 30..44),
            ("windoku", 26..40),
            ("disjoint", 26..40),
        ];
        for (name, range) in layouts {
            let g = match name {
                "disjoint" => crate::geometry::build::from_toml(&disjoint).unwrap(),
                _ => builtin::load(name).unwrap(),
            };
            let with = |vector| {
                Engine::with_options(
                    &g,
                    Options {
                        vector: Some(vector),
                        ..Default::default()
                    },
                )
            };
            let (vector, plain) = (with(true), with(false));
            let board = vector.board.as_ref().expect("narrow layouts fit a board");
            assert!(plain.board.as_ref().unwrap().tally.is_none());
            if board.tally.is_none() {
                assert!(
                    !super::Tally::supported(),
                    "{name}: no tally on a capable CPU"
                );
                eprintln!("no AVX-512 population count here: only the plain kernel ran");
                return;
            }
            // the overlap pass over every overlap at once where it fits, else shape by shape
            assert_eq!(board.overlaps.is_some(), name != "disjoint", "{name}");
            let n = vector.n_cells;
            let grid = plain.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            let mut seen = [0; 3];
            for _ in 0..200 {
                let givens = random_givens(&mut rng, &grid, range.clone(), vector.n_symbols);
                let limits = Limits {
                    max_nodes: Some(100_000),
                    max_time: None,
                };
                let a = vector.count(&givens, 10, limits);
                let b = plain.count(&givens, 10, limits);
                if !a.complete || !b.complete {
                    continue;
                }
                assert_eq!((a.count, &a.solutions), (b.count, &b.solutions), "{name}");
                // the same rules to the same fixpoint: the same search, node for node (a pass
                // of the AVX-512 copy that missed a deduction would cost nodes, not answers)
                assert_eq!(a.nodes, b.nodes, "{name}: nodes of the two copies");
                for sol in &a.solutions {
                    assert!(valid(&vector, &givens, sol), "{name}: {sol:?}");
                }
                seen[a.count.min(2) as usize] += 1;
            }
            assert!(seen.iter().all(|&k| k > 0), "{name}: {seen:?}");
        }
    }

    /// A given that is not a symbol, or two equal givens that see each other, leave no
    /// solution in every copy of the kernel (the AVX-512 one reads givens as bytes).
    #[test]
    fn bad_givens_have_no_solution_in_either_copy() {
        for name in ["classic4", "classic9", "windoku"] {
            let g = builtin::load(name).unwrap();
            for vector in [true, false] {
                let e = Engine::with_options(
                    &g,
                    Options {
                        vector: Some(vector),
                        ..Default::default()
                    },
                );
                let n = e.n_cells;
                let mut givens = vec![None; n];
                assert_eq!(e.count(&givens, 1, Limits::none()).count, 1, "{name}");
                givens[n - 1] = Some(e.n_symbols as u8);
                assert_eq!(e.count(&givens, 1, Limits::none()).count, 0, "{name}");
                givens[n - 1] = Some(u8::MAX);
                assert_eq!(e.count(&givens, 1, Limits::none()).count, 0, "{name}");
                givens[n - 1] = None;
                givens[0] = Some(1);
                givens[e.peers(0)[0] as usize] = Some(1);
                assert_eq!(e.count(&givens, 1, Limits::none()).count, 0, "{name}");
            }
        }
    }

    /// `keep_solutions` changes what is returned, not what is counted, in both kernels (and on
    /// the empty 4x4 classic, whose 288 grids are counted either way).
    #[test]
    fn kept_solutions_do_not_change_counts() {
        let (board, plain) = engines("classic4", None);
        for e in [&board, &plain] {
            let mut s = crate::engine::search::Searcher::new(e);
            let givens = [None; 16];
            let all = s.count(&givens, 1_000, Limits::none(), None);
            assert_eq!((all.count, all.solutions.len()), (288, 2));
            for keep in [0, 1, 2, 5] {
                s.keep_solutions(keep);
                let got = s.count(&givens, 1_000, Limits::none(), None);
                assert_eq!(got.count, 288, "keep {keep}");
                assert_eq!(got.solutions.len(), keep.min(2), "keep {keep}");
                assert_eq!(
                    got.solutions[..],
                    all.solutions[..keep.min(2)],
                    "keep {keep}"
                );
                let unique = s.count(
                    &all.solutions[0]
                        .iter()
                        .map(|&v| Some(v))
                        .collect::<Vec<_>>(),
                    2,
                    Limits::none(),
                    None,
                );
                assert_eq!((unique.count, unique.solutions.len()), (1, keep.min(1)));
            }
        }
    }

    /// A known exact count through the bitboard kernel: the empty 4x4 classic has 288 grids.
    #[test]
    fn empty_4x4_has_288_grids() {
        let (board, _) = engines("classic4", None);
        let got = board.count(&[None; 16], 1_000, Limits::none());
        assert_eq!((got.count, got.complete), (288, true));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Any givens on a 6x6 (consistent or not): both kernels count the same solutions, up
        /// to 50, and agree on the first one when it is unique.
        #[test]
        fn kernels_agree_on_any_6x6_givens(
            givens in proptest::collection::vec(proptest::option::weighted(0.12, 0u8..6), 36)
        ) {
            let (board, cells) = engines("classic6", None);
            let a = board.count(&givens, 50, Limits::none());
            let b = cells.count(&givens, 50, Limits::none());
            proptest::prop_assert_eq!(a.count, b.count);
            if a.count == 1 {
                proptest::prop_assert_eq!(&a.solutions, &b.solutions);
            }
        }
    }
}
