//! Symbol-major bitboards: a second search kernel for models made only of unique shapes.
//!
//! The cell-major candidate array of [`super::propagate`] pays for every placement with a walk
//! over the placed cell's peers. Here the state is transposed: for each symbol, one bitboard of
//! the cells where it is still possible (placed cells included), plus one bitboard of the cells
//! not yet placed. Placing a symbol is then `W` AND-NOTs with the cell's peer board (plus one bit
//! cleared in the other symbols' boards), and the rules become whole-board operations:
//!
//! * naked singles and dead cells: the cells covered by exactly one / no symbol board, counted
//!   bit-parallel over all cells at once (`ones`, `twos`);
//! * hidden singles and "no place for a symbol": a complete shape's board ANDed with the symbol's
//!   board, only for the shapes that lost one of the symbol's places since the symbol was last
//!   checked (the parent's boards are the reference in search);
//! * overlaps (pointing / claiming) when the engine has them: a symbol confined to the shared part
//!   of two shapes inside one of them leaves the rest of the other (checked with the shape's
//!   hidden singles).
//!
//! Nothing here knows a geometry either: shapes and peers are just cell sets, built from the
//! engine's tables. The width `W` (64-bit words per board) is chosen at load time from the cell
//! count, and the symbol count is a compile-time constant too for 4, 6, 9 and 16 symbols (any
//! other count is read at run time); the kernel is compiled for each width in [`WIDTHS`]. Models
//! with sum shapes, with more cells than the widest board (by default [`AUTO_WORDS`]), or that ask
//! for the all-different filter keep the cell-major kernel ([`super::search::Searcher`] decides).
//! Both kernels count the same solutions (tested against each other); they branch by the same
//! rule, so where they reach the same fixpoints they also visit the same nodes.
//!
//! Branching (`choose`): the two-candidate cell whose branches narrow its unplaced peers most;
//! else a symbol with two places in a complete shape; else the cell with fewest candidates.
//!
//! To add a rule, add a pass to `propagate` that narrows symbol boards and adds the symbols it
//! changed to `changed`.

use super::{Budget, Count, Engine, Limits};

/// Board widths (64-bit words) the kernel is compiled for: up to 512 cells.
pub const WIDTHS: [usize; 6] = [1, 2, 3, 4, 6, 8];
/// The widest board the kernel is compiled for.
pub const MAX_WORDS: usize = 8;
/// The widest board used by default (128 cells): on wider models (Samurai and other multi-grids,
/// 16x16) the two kernels were measured about even or the cell-major one faster
/// (`examples/kernels.rs`).
pub const AUTO_WORDS: usize = 2;

/// Cells keep the set of their complete shapes in at most this many words (256 shapes).
const MAX_SHAPE_WORDS: usize = 4;

/// The bitboard form of an engine's unique shapes.
#[derive(Debug, Clone)]
pub struct Board {
    /// 64-bit words per board.
    pub(crate) words: usize,
    n_cells: usize,
    n_symbols: usize,
    /// `words` words per cell: the cell's peers.
    peers: Vec<u64>,
    /// `words` words per complete shape: its cells.
    shapes: Vec<u64>,
    /// Words per cell in `cell_shapes` (the shape count over 64, rounded up), or 0 when there
    /// are more than `64 * MAX_SHAPE_WORDS` complete shapes (every shape is then checked).
    shape_words: usize,
    /// `shape_words` words per cell: the complete shapes holding it, as a bitset.
    cell_shapes: Vec<u64>,
    /// Whether to apply pointing / claiming (when the engine runs its overlap pass, and the
    /// cells know their shapes).
    pointing: bool,
}

impl Board {
    /// The bitboard form of `e` on boards of at most `max_words` words, or `None` when the model
    /// needs the cell-major kernel (sum shapes, no complete shape, too many cells).
    pub(crate) fn new(e: &Engine, max_words: usize) -> Option<Board> {
        if !e.sums.is_empty() || e.n_symbols == 0 || e.n_complete == 0 {
            return None;
        }
        let words = WIDTHS
            .into_iter()
            .find(|&w| e.n_cells <= 64 * w && w <= max_words)?;
        let set = |board: &mut [u64], c: u32| board[c as usize / 64] |= 1 << (c % 64);
        let mut peers = vec![0u64; e.n_cells * words];
        for c in 0..e.n_cells {
            for &p in e.peers(c) {
                set(&mut peers[c * words..(c + 1) * words], p);
            }
        }
        let mut shapes = vec![0u64; e.n_complete * words];
        for (i, shape) in e.complete.chunks_exact(e.n_symbols).enumerate() {
            for &c in shape {
                set(&mut shapes[i * words..(i + 1) * words], c);
            }
        }
        let shape_words = e.n_complete.div_ceil(64);
        let shape_words = if shape_words <= MAX_SHAPE_WORDS {
            shape_words
        } else {
            0
        };
        let mut cell_shapes = vec![0u64; e.n_cells * shape_words];
        if shape_words > 0 {
            for (i, shape) in e.complete.chunks_exact(e.n_symbols).enumerate() {
                for &c in shape {
                    cell_shapes[c as usize * shape_words + i / 64] |= 1 << (i % 64);
                }
            }
        }
        Some(Board {
            pointing: !e.overlaps.is_empty() && shape_words > 0,
            words,
            n_cells: e.n_cells,
            n_symbols: e.n_symbols,
            peers,
            shapes,
            shape_words,
            cell_shapes,
        })
    }
}

/// Reusable search state for one [`Board`].
pub struct BoardSearch<'b> {
    b: &'b Board,
    /// One state per search level: `n_symbols` symbol boards, then the unplaced-cells board.
    stack: Vec<u64>,
    /// Scratch for `propagate`: the symbol boards as last checked for hidden singles.
    seen: Vec<u64>,
    /// Scratch for `choose`: a score per cell.
    score: Vec<u32>,
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

/// One board of `W` words.
type Bits<const W: usize> = [u64; W];

#[inline(always)]
fn load<const W: usize>(words: &[u64], at: usize) -> Bits<W> {
    debug_assert!(at + W <= words.len());
    let mut b = [0; W];
    // SAFETY (bounds): every caller indexes a board inside a state or a table it sized itself
    // (states are `(n_symbols + 1) * W` words, tables `W` words per cell / shape / part).
    b.copy_from_slice(unsafe { words.get_unchecked(at..at + W) });
    b
}

#[inline(always)]
fn store<const W: usize>(words: &mut [u64], at: usize, b: Bits<W>) {
    debug_assert!(at + W <= words.len());
    // SAFETY: as in `load`.
    unsafe { words.get_unchecked_mut(at..at + W) }.copy_from_slice(&b);
}

#[inline(always)]
fn is_empty<const W: usize>(b: &Bits<W>) -> bool {
    b.iter().fold(0, |acc, &w| acc | w) == 0
}

/// 0 for an empty board, 1 for a single cell, 2 for more.
#[inline(always)]
fn size_class<const W: usize>(b: &Bits<W>) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return b.iter().map(|w| w.count_ones()).sum::<u32>().min(2);
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
fn first_cell<const W: usize>(b: &Bits<W>) -> Option<usize> {
    b.iter()
        .enumerate()
        .find(|(_, &w)| w != 0)
        .map(|(i, &w)| i * 64 + w.trailing_zeros() as usize)
}

impl<'b> BoardSearch<'b> {
    /// A searcher for `b`; reuse it across puzzles.
    pub fn new(b: &'b Board) -> Self {
        BoardSearch {
            b,
            stack: Vec::new(),
            seen: Vec::new(),
            score: vec![0; b.n_cells],
            nodes: 0,
            found: 0,
            limit: 0,
            stopped: false,
            budget: Budget::from(Limits::none()),
            solutions: Vec::new(),
        }
    }

    /// Counts solutions up to `limit`, keeping the first two.
    pub fn count(&mut self, givens: &[Option<u8>], limit: u64, limits: Limits) -> Count {
        match (self.b.words, self.b.n_symbols) {
            (2, 9) => self.run::<2, 9>(givens, limit, limits),
            (1, 4) => self.run::<1, 4>(givens, limit, limits),
            (1, 6) => self.run::<1, 6>(givens, limit, limits),
            (1, _) => self.run::<1, 0>(givens, limit, limits),
            (2, _) => self.run::<2, 0>(givens, limit, limits),
            (3, _) => self.run::<3, 0>(givens, limit, limits),
            (4, 16) => self.run::<4, 16>(givens, limit, limits),
            (4, _) => self.run::<4, 0>(givens, limit, limits),
            (6, _) => self.run::<6, 0>(givens, limit, limits),
            (8, _) => self.run::<8, 0>(givens, limit, limits),
            (w, _) => unreachable!("no kernel for {w}-word boards"),
        }
    }

    fn run<const W: usize, const N: usize>(
        &mut self,
        givens: &[Option<u8>],
        limit: u64,
        limits: Limits,
    ) -> Count {
        let b = self.b;
        assert_eq!(givens.len(), b.n_cells, "givens of the wrong length");
        self.nodes = 0;
        self.found = 0;
        self.limit = limit.max(1);
        self.stopped = false;
        self.budget = Budget::from(limits);
        self.solutions.clear();
        let n = symbols::<N>(b);
        let stride = (n + 1) * W;
        self.stack.clear();
        self.stack.resize(2 * stride, 0);
        let mut all = [0u64; W];
        for (i, w) in all.iter_mut().enumerate() {
            let left = b.n_cells.saturating_sub(i * 64);
            *w = if left >= 64 { !0 } else { (1u64 << left) - 1 };
        }
        for s in 0..=n {
            store(&mut self.stack, s * W, all);
        }
        let mut ok = true;
        for (c, g) in givens.iter().enumerate() {
            if let Some(s) = *g {
                let s = s as usize;
                if s >= n || self.stack[s * W + c / 64] & (1 << (c % 64)) == 0 {
                    ok = false;
                    break;
                }
                place::<W, N>(b, &mut self.stack[..stride], s, c);
            }
        }
        let every = if n == 64 { !0 } else { (1u64 << n) - 1 };
        self.seen.clear();
        for _ in 0..n {
            self.seen.extend_from_slice(&all);
        }
        if ok && propagate::<W, N>(b, &mut self.stack[..stride], &mut self.seen, every, true) {
            self.descend::<W, N>(0);
        }
        Count {
            count: self.found,
            complete: !self.stopped || self.found >= self.limit,
            solutions: std::mem::take(&mut self.solutions),
            nodes: self.nodes,
        }
    }

    /// Searches below level `depth`, whose state is already propagated.
    fn descend<const W: usize, const N: usize>(&mut self, depth: usize) {
        let b = self.b;
        let n = symbols::<N>(b);
        let stride = (n + 1) * W;
        self.nodes += 1;
        if self.budget.exhausted(self.nodes) {
            self.stopped = true;
            return;
        }
        let base = depth * stride;
        let next = base + stride;
        if self.stack.len() < next + stride {
            self.stack.resize(next + stride, 0);
        }
        let todo: Bits<W> = load(&self.stack, base + n * W);
        if is_empty(&todo) {
            self.record::<W, N>(base);
            return;
        }
        match choose::<W, N>(b, &self.stack[base..base + stride], &mut self.score) {
            Choice::Cell(cell, options) => {
                let mut bits = options;
                while bits != 0 {
                    let s = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.stack.copy_within(base..next, next);
                    self.seen.copy_from_slice(&self.stack[base..base + n * W]);
                    let state = &mut self.stack[next..next + stride];
                    place::<W, N>(b, state, s, cell);
                    if propagate::<W, N>(b, state, &mut self.seen, options, false) {
                        self.descend::<W, N>(depth + 1);
                    }
                    if self.stopped {
                        return;
                    }
                }
            }
            Choice::Places(s, places) => {
                for cell in places {
                    self.stack.copy_within(base..next, next);
                    self.seen.copy_from_slice(&self.stack[base..base + n * W]);
                    let state = &mut self.stack[next..next + stride];
                    let word = cell / 64;
                    let bit = 1u64 << (cell % 64);
                    let mut had = 0u64;
                    for t in 0..n {
                        had |= (((state[t * W + word] & bit) != 0) as u64) << t;
                    }
                    place::<W, N>(b, state, s, cell);
                    if propagate::<W, N>(b, state, &mut self.seen, had, false) {
                        self.descend::<W, N>(depth + 1);
                    }
                    if self.stopped {
                        return;
                    }
                }
            }
        }
    }

    /// Counts the solution at `base` and keeps it if it is one of the first two.
    fn record<const W: usize, const N: usize>(&mut self, base: usize) {
        self.found += 1;
        if self.solutions.len() < 2 {
            let b = self.b;
            let mut sol = vec![0u8; b.n_cells];
            for s in 0..b.n_symbols {
                let board: Bits<W> = load(&self.stack, base + s * W);
                for (i, &w) in board.iter().enumerate() {
                    let mut w = w;
                    while w != 0 {
                        sol[i * 64 + w.trailing_zeros() as usize] = s as u8;
                        w &= w - 1;
                    }
                }
            }
            self.solutions.push(sol);
        }
        if self.found >= self.limit {
            self.stopped = true;
        }
    }
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
fn choose<const W: usize, const N: usize>(b: &Board, state: &[u64], score: &mut [u32]) -> Choice {
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
    let cell_options = |cell: usize| {
        let (word, bit) = (cell / 64, 1u64 << (cell % 64));
        (0..n).fold(0u64, |acc, s| {
            acc | ((((state[s * W + word] & bit) != 0) as u64) << s)
        })
    };
    if !is_empty(&pairs) {
        // score each two-candidate cell by what its two branches remove from unplaced peers:
        // one per peer losing the symbol, three when that peer has two candidates (it becomes
        // a single). The symbols are the outer loop, so no cell's candidates are gathered.
        for (i, &w) in pairs.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                score[i * 64 + w.trailing_zeros() as usize] = 0;
                w &= w - 1;
            }
        }
        for s in 0..n {
            let c: Bits<W> = load(state, s * W);
            for i in 0..W {
                let mut w = pairs[i] & c[i];
                while w != 0 {
                    let cell = i * 64 + w.trailing_zeros() as usize;
                    w &= w - 1;
                    let peers: Bits<W> = load(&b.peers, cell * W);
                    let (mut losing, mut to_single) = (0, 0);
                    for j in 0..W {
                        losing += (peers[j] & c[j] & todo[j]).count_ones();
                        to_single += (peers[j] & c[j] & pairs[j]).count_ones();
                    }
                    score[cell] += losing + 2 * to_single;
                }
            }
        }
        let mut best = (0, usize::MAX);
        for (i, &w) in pairs.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let cell = i * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                if best.1 == usize::MAX || score[cell] > best.0 {
                    best = (score[cell], cell);
                }
            }
        }
        return Choice::Cell(best.1, cell_options(best.1));
    }
    for h in 0..b.shapes.len() / W {
        let shape: Bits<W> = load(&b.shapes, h * W);
        for s in 0..n {
            let c: Bits<W> = load(state, s * W);
            let mut y = [0u64; W];
            let mut placed = 0;
            for i in 0..W {
                y[i] = c[i] & shape[i] & todo[i];
                placed |= c[i] & shape[i] & !todo[i];
            }
            if placed != 0 {
                continue;
            }
            if let Some(a) = first_cell(&y) {
                y[a / 64] &= !(1 << (a % 64));
                if let Some(z) = first_cell(&y) {
                    y[z / 64] &= !(1 << (z % 64));
                    if is_empty(&y) {
                        return Choice::Places(s, [a, z]);
                    }
                }
            }
        }
    }
    let mut best = (u32::MAX, 0usize, 0u64);
    for (i, &w) in todo.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let cell = i * 64 + w.trailing_zeros() as usize;
            w &= w - 1;
            let options = cell_options(cell);
            let k = options.count_ones();
            if k < best.0 {
                best = (k, cell, options);
            }
        }
    }
    Choice::Cell(best.1, best.2)
}

/// Looks at symbol board `c` in complete shape `h`: false when the symbol has no place there;
/// a single place still to fill joins `found`; with pointing on, what it rules out joins `gone`.
#[inline(always)]
fn test_shape<const W: usize>(
    b: &Board,
    h: usize,
    c: &Bits<W>,
    todo: &Bits<W>,
    found: &mut Bits<W>,
    gone: &mut Bits<W>,
) -> bool {
    let shape: Bits<W> = load(&b.shapes, h * W);
    let mut y = [0u64; W];
    for i in 0..W {
        y[i] = c[i] & shape[i];
    }
    match size_class(&y) {
        0 => false,
        1 => {
            for i in 0..W {
                found[i] |= y[i] & todo[i];
            }
            true
        }
        _ => {
            if b.pointing {
                pointing::<W>(b, h, &y, gone);
            }
            true
        }
    }
}

/// Pointing and claiming, for any two shapes: when every place `y` of a symbol in shape `h`
/// also lies in another complete shape, the symbol leaves the rest of that shape (added to
/// `gone`). The other shapes are those of `y`'s first cell.
#[inline]
fn pointing<const W: usize>(b: &Board, h: usize, y: &Bits<W>, gone: &mut Bits<W>) {
    let Some(first) = first_cell(y) else {
        return;
    };
    let sw = b.shape_words;
    let own: Bits<W> = load(&b.shapes, h * W);
    for k in 0..sw {
        let mut others = b.cell_shapes[first * sw + k];
        if k == h / 64 {
            others &= !(1u64 << (h % 64));
        }
        while others != 0 {
            let other = k * 64 + others.trailing_zeros() as usize;
            others &= others - 1;
            let shape: Bits<W> = load(&b.shapes, other * W);
            let mut outside = 0;
            for i in 0..W {
                outside |= y[i] & !shape[i];
            }
            if outside == 0 {
                for i in 0..W {
                    gone[i] |= shape[i] & !own[i];
                }
            }
        }
    }
}

/// Places symbol `s` in `cell` (which must still allow it): the cell leaves the other symbols'
/// boards and the unplaced board, its peers leave `s`'s board.
#[inline(always)]
fn place<const W: usize, const N: usize>(b: &Board, state: &mut [u64], s: usize, cell: usize) {
    let n = symbols::<N>(b);
    let (word, bit) = (cell / 64, 1u64 << (cell % 64));
    for t in 0..=n {
        state[t * W + word] &= !bit;
    }
    let peers: Bits<W> = load(&b.peers, cell * W);
    let mut own: Bits<W> = load(state, s * W);
    for i in 0..W {
        own[i] &= !peers[i];
    }
    own[word] |= bit;
    store(state, s * W, own);
}

/// Propagates to a fixpoint after the boards of the symbols in `changed` changed. False on a
/// contradiction: a cell with no symbol, a symbol with no place in a complete shape, or two
/// singles that see each other.
///
/// `seen` holds each symbol's board as it was when its hidden singles were last looked for (the
/// parent's boards in search; all cells at the root): only shapes that lost a place of a symbol
/// since then can hold a new hidden single of it. `every_shape` checks all shapes in the first
/// round instead (at the root, where most places are gone and listing them costs more).
fn propagate<const W: usize, const N: usize>(
    b: &Board,
    state: &mut [u64],
    seen: &mut [u64],
    mut changed: u64,
    mut every_shape: bool,
) -> bool {
    let n = symbols::<N>(b);
    let n_shapes = b.shapes.len() / W;
    loop {
        // naked singles, placed in bulk: a single's symbol is the only board holding the cell,
        // so only that board changes (its peers go)
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
                break;
            }
            let mut rest = todo;
            for i in 0..W {
                rest[i] &= !singles[i];
            }
            store(state, n * W, rest);
            for s in 0..n {
                let mut c: Bits<W> = load(state, s * W);
                let mut mine = [0u64; W];
                let mut hit = 0;
                for i in 0..W {
                    mine[i] = c[i] & singles[i];
                    hit |= mine[i];
                }
                if hit == 0 {
                    continue;
                }
                changed |= 1 << s;
                for (i, &m) in mine.iter().enumerate() {
                    let mut m = m;
                    while m != 0 {
                        let cell = i * 64 + m.trailing_zeros() as usize;
                        m &= m - 1;
                        let peers: Bits<W> = load(&b.peers, cell * W);
                        for j in 0..W {
                            c[j] &= !peers[j];
                        }
                    }
                }
                let mut lost = 0;
                for i in 0..W {
                    lost |= mine[i] & !c[i];
                }
                if lost != 0 {
                    return false;
                }
                store(state, s * W, c);
            }
        }
        if changed == 0 {
            return true;
        }
        // hidden singles for the symbols whose boards changed, in the shapes that lost one of
        // the symbol's places since it was last checked
        let mut symbols = changed;
        changed = 0;
        let full_round = std::mem::replace(&mut every_shape, false);
        while symbols != 0 {
            let s = symbols.trailing_zeros() as usize;
            symbols &= symbols - 1;
            let c: Bits<W> = load(state, s * W);
            let todo: Bits<W> = load(state, n * W);
            let old: Bits<W> = load(seen, s * W);
            store(seen, s * W, c);
            let mut found = [0u64; W];
            let mut gone = [0u64; W];
            let sw = b.shape_words;
            if sw == 0 || full_round {
                for h in 0..n_shapes {
                    if !test_shape::<W>(b, h, &c, &todo, &mut found, &mut gone) {
                        return false;
                    }
                }
            } else {
                // the shapes of the lost places
                let mut touched = [0u64; MAX_SHAPE_WORDS];
                for i in 0..W {
                    let mut r = old[i] & !c[i];
                    while r != 0 {
                        let cell = i * 64 + r.trailing_zeros() as usize;
                        r &= r - 1;
                        let at = cell * sw;
                        for (k, t) in touched[..sw].iter_mut().enumerate() {
                            *t |= b.cell_shapes[at + k];
                        }
                    }
                }
                for (k, &t) in touched[..sw].iter().enumerate() {
                    let mut t = t;
                    while t != 0 {
                        let h = k * 64 + t.trailing_zeros() as usize;
                        t &= t - 1;
                        if !test_shape::<W>(b, h, &c, &todo, &mut found, &mut gone) {
                            return false;
                        }
                    }
                }
            }
            let mut narrowed = c;
            for i in 0..W {
                narrowed[i] &= !gone[i];
            }
            if b.pointing && narrowed != c {
                // an overlap narrowed the board: look again from the old board next round
                // (hidden singles found on the wider board are not placed)
                store(state, s * W, narrowed);
                store(seen, s * W, old);
                changed |= 1 << s;
                continue;
            }
            if is_empty(&found) {
                continue;
            }
            // place every hidden single of `s` at once
            let mut own = c;
            let mut rest = todo;
            for (i, &f) in found.iter().enumerate() {
                rest[i] &= !f;
                let mut f = f;
                while f != 0 {
                    let cell = i * 64 + f.trailing_zeros() as usize;
                    f &= f - 1;
                    let peers: Bits<W> = load(&b.peers, cell * W);
                    for j in 0..W {
                        own[j] &= !peers[j];
                    }
                }
            }
            let mut lost = 0;
            for i in 0..W {
                lost |= found[i] & !own[i];
            }
            if lost != 0 {
                return false;
            }
            store(state, s * W, own);
            store(state, n * W, rest);
            changed |= 1 << s;
            for t in (0..n).filter(|&t| t != s) {
                let mut other: Bits<W> = load(state, t * W);
                let mut hit = 0;
                for i in 0..W {
                    hit |= other[i] & found[i];
                    other[i] &= !found[i];
                }
                if hit != 0 {
                    store(state, t * W, other);
                    changed |= 1 << t;
                }
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
        ];
        for (name, range, overlaps) in layouts {
            let (board, cells) = engines(name, overlaps);
            assert!(board.board.is_some(), "{name}: no bitboard form");
            let n = board.n_cells;
            let grid = cells.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
            let (mut unique, mut multiple, mut none) = (0, 0, 0);
            for _ in 0..60 {
                let mut givens = vec![None; n];
                for _ in 0..rng.gen_range(range.clone()) {
                    let c = rng.gen_range(0..n);
                    givens[c] = Some(if rng.gen_bool(0.05) {
                        rng.gen_range(0..board.n_symbols as u8)
                    } else {
                        grid[c]
                    });
                }
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
