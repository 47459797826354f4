//! The depth-first search over bitboard states: one state per level on a stack, the branching
//! choice (a two-candidate cell scored by how much its branches narrow, else a symbol with two
//! places in a shape, else the cell with fewest candidates), placing a symbol in a cell, and
//! recording solutions. Every option but the last is tried on a copy one level down; the last one
//! is applied in place and the loop goes on at the same level.

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::bits::{first_bit, for_each_bit, is_empty, load, places_in, store, Bits};
use super::dirty::Dirty;
use super::dispatch::{in_vectors, propagate, stride, symbols};
use super::givens::place_givens;
#[cfg(target_arch = "x86_64")]
use super::givens::place_givens_vector;
use super::Board;
use crate::engine::{Budget, Count, Limits};

/// Reusable search state for one [`Board`].
pub struct BoardSearch<'b> {
    pub(super) b: &'b Board,
    /// One state per search level: `n_symbols` symbol boards, then the unplaced-cells board.
    pub(super) stack: Vec<u64>,
    /// Scratch for `propagate`.
    pub(super) dirty: Dirty,
    /// Scratch for the givens: one board per symbol and a spare one.
    pub(super) given_boards: Vec<u64>,
    /// How many solutions to keep (see `Searcher::keep_solutions`).
    pub(crate) keep: usize,
    pub(super) nodes: u64,
    pub(super) found: u64,
    pub(super) limit: u64,
    pub(super) stopped: bool,
    pub(super) budget: Budget,
    pub(super) solutions: Vec<Vec<u8>>,
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

    pub(super) fn run<const W: usize, const N: usize, const F: usize, const V: bool>(
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

    /// Searches below level `depth`, whose state is already propagated. The last option of each
    /// choice is applied in place, so the loop goes on at this level.
    #[inline(always)]
    pub(super) fn descend_body<const W: usize, const N: usize, const F: usize, const V: bool>(
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
    pub(super) fn record<const W: usize, const N: usize, const V: bool>(&mut self, base: usize) {
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
pub(super) fn options_of<const W: usize, const N: usize>(
    b: &Board,
    state: &[u64],
    cell: usize,
) -> u64 {
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
pub(super) enum Choice {
    /// A cell and its candidate symbols (as a mask).
    Cell(usize, u64),
    /// A symbol and its two places in some complete shape.
    Places(usize, [usize; 2]),
}

/// The branching choice: the cell with two candidates whose branches narrow its peers most (ties:
/// the first); else a symbol with two places in a complete shape; else the cell with the fewest
/// candidates.
pub(super) fn choose<const W: usize, const N: usize>(b: &Board, state: &[u64]) -> Choice {
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
pub(super) fn place<const W: usize, const N: usize, const V: bool>(
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
