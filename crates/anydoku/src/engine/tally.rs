//! A symbol's places in every complete shape, counted at once with AVX-512.
//!
//! The bitboard kernel ([`super::board`]) looks for hidden singles one shape at a time: AND the
//! symbol's board with the shape's cells, count, branch. On narrow boards (at most 128 bits:
//! every 9x9 layout and the smaller ones) and with at most 64 complete shapes, a CPU with
//! AVX-512 and its population-count extension (`avx512vpopcntdq`: Intel since Ice Lake, AMD
//! since Zen 4) can instead count the places of a symbol in eight shapes per instruction: the
//! shapes' cells are kept here as columns of words (the board's first and second word of each
//! shape), eight shapes to a 512-bit vector, and one pass over those vectors gives three masks
//! over the shapes: no place, one place, and few places (two up to the largest overlap of two
//! shapes, for pointing and claiming). The counts of two vectors (an even and an odd group of
//! eight shapes) are packed into sixteen 32-bit lanes in shape order, so each comparison covers
//! sixteen shapes. For a 9x9 that is two blocks of sixteen shapes, about thirty instructions for
//! all 27 shapes without a branch, where the shape-by-shape test costs about twenty a shape and
//! has to be told which shapes to look at.
//!
//! The same layout serves two more things. [`Counts`] keeps each symbol's last counts, so a
//! count can also tell which shapes changed since. [`Overlaps`] holds the overlaps of two
//! complete shapes (two cells or more) like shapes, sixteen to a block: with a symbol's counts
//! per shape in a 32-lane table, one pass over the overlap blocks (a count of the places in
//! each overlap, two table lookups, four comparisons) finds every pointing and claiming
//! deduction for the symbol at once, where the shape-by-shape pass takes the shapes with few
//! places one at a time and intersects their cells' shapes.
//!
//! Nothing here knows a geometry: a shape is a set of cell bits. [`Tally::new`] returns `None`
//! when the CPU lacks the instructions or the layout does not fit (wider boards, more than 64
//! complete shapes); the kernel then keeps its shape-by-shape test, which gives the same
//! answers (both are tested against each other).

/// Eight 64-bit words, aligned for one 512-bit load.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(64))]
struct Lane([u64; 8]);

/// Sixteen 32-bit numbers, aligned for one 512-bit load.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(64))]
struct Lane32([u32; 16]);

/// The complete shapes of a narrow board, laid out for counting sixteen at a time.
#[derive(Debug, Clone)]
pub struct Tally {
    /// Per block of sixteen shapes, four vectors: the cells in the board's first word of its
    /// even shapes, then in the second word; then the same for its odd shapes (second words all
    /// zero on one-word boards). Counts of an even and an odd vector interleave into sixteen
    /// 32-bit lanes in shape order.
    blocks: Vec<[Lane; 4]>,
    /// The bits of the real shapes (the last group is padded with empty ones).
    all: u64,
}

/// Which shapes hold no place, one place, or a few places (2 up to the limit given to
/// [`Tally::count`]) of a symbol, as masks with bit `h` for complete shape `h`; and the shapes
/// whose count changed since the symbol's last count ([`Tally::count_since`]; every shape
/// otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Places {
    pub none: u64,
    pub one: u64,
    pub few: u64,
    pub changed: u64,
}

/// Each symbol's last counts (see [`Tally::count_since`]): one vector of sixteen 32-bit counts
/// per block of shapes and symbol.
#[derive(Debug, Clone)]
pub struct Counts {
    lanes: Vec<Lane>,
    blocks: usize,
}

/// Where two complete shapes overlap in two cells or more (and less than either shape), laid
/// out like the tally's shapes, sixteen overlaps to a block, for pointing and claiming over all
/// of them at once ([`Overlaps::pointing`]). Only for tallies of at most 32 shapes, whose counts
/// fit one two-vector table.
#[derive(Debug, Clone)]
pub struct Overlaps {
    /// Per block of sixteen overlaps, their cells as in [`Tally`]'s blocks.
    cells: Vec<[Lane; 4]>,
    /// Per block, the two shapes of each overlap (lane `j`: overlap `16 * block + j`).
    first: Vec<Lane32>,
    second: Vec<Lane32>,
    /// Per overlap, the cells of its first shape outside it, then those of its second.
    rest: Vec<[[u64; 2]; 2]>,
}

impl Overlaps {
    /// The overlaps of the tally's `n_shapes` shapes (`shapes[h * words..]`: cell bits), or
    /// `None` when there is none or the tally has more than 32 shapes.
    pub fn new(tally: &Tally, shapes: &[u64], words: usize, n_shapes: usize) -> Option<Overlaps> {
        if tally.blocks.len() > 2 || !(1..=2).contains(&words) {
            return None;
        }
        let cells_of = |h: usize| -> [u64; 2] {
            let c = &shapes[h * words..(h + 1) * words];
            [c[0], if words == 2 { c[1] } else { 0 }]
        };
        let mut found = Vec::new();
        for a in 0..n_shapes {
            for b in a + 1..n_shapes {
                let (ca, cb) = (cells_of(a), cells_of(b));
                let both = [ca[0] & cb[0], ca[1] & cb[1]];
                let size = both[0].count_ones() + both[1].count_ones();
                if size >= 2 && both != ca && both != cb {
                    found.push((
                        a,
                        b,
                        both,
                        [ca[0] & !cb[0], ca[1] & !cb[1]],
                        [cb[0] & !ca[0], cb[1] & !ca[1]],
                    ));
                }
            }
        }
        if found.is_empty() {
            return None;
        }
        let blocks = found.len().div_ceil(16);
        let mut o = Overlaps {
            cells: vec![[Lane::default(); 4]; blocks],
            first: vec![Lane32::default(); blocks],
            second: vec![Lane32::default(); blocks],
            rest: Vec::with_capacity(found.len()),
        };
        for (p, &(a, b, both, rest_a, rest_b)) in found.iter().enumerate() {
            let (g, j) = (p / 16, p % 16);
            let odd = 2 * (j % 2);
            o.cells[g][odd].0[j / 2] = both[0];
            o.cells[g][odd + 1].0[j / 2] = both[1];
            o.first[g].0[j] = a as u32;
            o.second[g].0[j] = b as u32;
            o.rest.push([rest_a, rest_b]);
        }
        Some(o)
    }

    /// The cells a symbol leaves by pointing and claiming: for every overlap of shapes A and B
    /// where all of its places in A lie in the overlap and B has places outside it, B's cells
    /// outside the overlap (and the same the other way round). `c` is its board (`W` words: 1
    /// or 2), and `counts` holds its counts per shape of this very board (its last
    /// [`Tally::count_since`] as symbol `s` was of `c`).
    ///
    /// # Safety
    /// The CPU must have `avx512f` and `avx512vpopcntdq`; `counts` was made for the tally these
    /// overlaps were made with, for more than `s` symbols.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    #[inline]
    pub unsafe fn pointing<const W: usize>(
        &self,
        c: &[u64; W],
        counts: &Counts,
        s: usize,
    ) -> [u64; W] {
        use std::arch::x86_64::*;
        debug_assert!((s + 1) * counts.blocks <= counts.lanes.len() && counts.blocks <= 2);
        let (first, second) = broadcast(c);
        // the symbol's count in every shape: a table of 32 lanes
        let table = counts.lanes.as_ptr().add(s * counts.blocks);
        let low = _mm512_load_si512(table.cast());
        let high = if counts.blocks > 1 {
            _mm512_load_si512(table.add(1).cast())
        } else {
            low
        };
        let zero = _mm512_setzero_si512();
        let mut gone = [0u64; W];
        for (g, block) in self.cells.iter().enumerate() {
            let inside = packed_counts::<W>(block, first, second);
            let in_a = _mm512_permutex2var_epi32(
                low,
                _mm512_load_si512(self.first.as_ptr().add(g).cast()),
                high,
            );
            let in_b = _mm512_permutex2var_epi32(
                low,
                _mm512_load_si512(self.second.as_ptr().add(g).cast()),
                high,
            );
            // all of A's places (at least one) in the overlap, and some of B's outside it
            let a_inside =
                _mm512_mask_cmpgt_epu32_mask(_mm512_cmpeq_epi32_mask(inside, in_a), in_a, zero);
            let b_leaves = _mm512_mask_cmpgt_epu32_mask(a_inside, in_b, inside);
            let b_inside =
                _mm512_mask_cmpgt_epu32_mask(_mm512_cmpeq_epi32_mask(inside, in_b), in_b, zero);
            let a_leaves = _mm512_mask_cmpgt_epu32_mask(b_inside, in_a, inside);
            for (mut fire, side) in [(b_leaves, 1), (a_leaves, 0)] {
                while fire != 0 {
                    let p = 16 * g + fire.trailing_zeros() as usize;
                    fire &= fire - 1;
                    let rest = self.rest.get_unchecked(p)[side];
                    gone[0] |= rest[0];
                    gone[W - 1] |= rest[W - 1];
                }
            }
        }
        gone
    }
}

impl Counts {
    /// Room for the counts of `n_symbols` symbols over the tally's shapes.
    pub fn new(tally: &Tally, n_symbols: usize) -> Counts {
        let blocks = tally.blocks.len();
        let mut counts = Counts {
            lanes: vec![Lane::default(); blocks * n_symbols],
            blocks,
        };
        counts.forget();
        counts
    }

    /// Forgets every count: the next count of each symbol finds every shape changed.
    pub fn forget(&mut self) {
        self.lanes.fill(Lane([u64::MAX; 8]));
    }
}

impl Tally {
    /// The tally of `n_shapes` complete shapes given as `words` words each (`shapes[h * words
    /// ..]`: cell bits), or `None` when the CPU lacks AVX-512 population counts, the boards are
    /// wider than two words, or there are more than 64 shapes.
    pub fn new(shapes: &[u64], words: usize, n_shapes: usize) -> Option<Tally> {
        if !(1..=2).contains(&words) || n_shapes == 0 || n_shapes > 64 || !Self::supported() {
            return None;
        }
        let mut blocks = vec![[Lane::default(); 4]; n_shapes.div_ceil(16)];
        for (h, cells) in shapes.chunks_exact(words).take(n_shapes).enumerate() {
            let (block, j) = (&mut blocks[h / 16], h % 16);
            let odd = 2 * (j % 2);
            block[odd].0[j / 2] = cells[0];
            if words == 2 {
                block[odd + 1].0[j / 2] = cells[1];
            }
        }
        Some(Tally {
            blocks,
            all: u64::MAX >> (64 - n_shapes),
        })
    }

    /// Whether this CPU has the instructions [`Tally::count`] needs.
    pub fn supported() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512dq")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The places of the symbol whose board is `c` (`W` words: 1 or 2) in every shape; `few`
    /// counts 2 up to `few_max` places (empty when `few_max` is below 2).
    ///
    /// # Safety
    /// The CPU must have `avx512f` and `avx512vpopcntdq` (a `Tally` exists only then).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    #[inline]
    pub unsafe fn count<const W: usize>(&self, c: &[u64; W], few_max: u32) -> Places {
        self.count_into::<W, false>(c, few_max, &mut [])
    }

    /// [`Tally::count`] of symbol `s`, with the shapes whose count differs from the symbol's
    /// last count in `counts` (which then holds these) in [`Places::changed`].
    ///
    /// # Safety
    /// As for [`Tally::count`]; `counts` was made for this tally and more than `s` symbols.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    #[inline]
    pub unsafe fn count_since<const W: usize>(
        &self,
        c: &[u64; W],
        few_max: u32,
        counts: &mut Counts,
        s: usize,
    ) -> Places {
        debug_assert!(
            counts.blocks == self.blocks.len() && (s + 1) * counts.blocks <= counts.lanes.len()
        );
        let last = counts
            .lanes
            .get_unchecked_mut(s * counts.blocks..(s + 1) * counts.blocks);
        self.count_into::<W, true>(c, few_max, last)
    }

    /// The count, and with `SINCE` the comparison with (and update of) `last`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    #[inline]
    unsafe fn count_into<const W: usize, const SINCE: bool>(
        &self,
        c: &[u64; W],
        few_max: u32,
        last: &mut [Lane],
    ) -> Places {
        use std::arch::x86_64::*;
        let (first, second) = broadcast(c);
        let (zero, one, two) = (
            _mm512_setzero_si512(),
            _mm512_set1_epi32(1),
            _mm512_set1_epi32(2),
        );
        let span = _mm512_set1_epi32(few_max.saturating_sub(2) as i32);
        let few_on = few_max >= 2;
        let mut places = Places {
            none: 0,
            one: 0,
            few: 0,
            changed: 0,
        };
        for (g, block) in self.blocks.iter().enumerate() {
            let k = packed_counts::<W>(block, first, second);
            let at = 16 * g;
            if SINCE {
                // SAFETY: `last` holds one aligned vector per block
                let p = last.as_mut_ptr().add(g).cast::<__m512i>();
                let before = _mm512_load_si512(p.cast());
                _mm512_store_si512(p.cast(), k);
                places.changed |= (_mm512_cmpneq_epi32_mask(k, before) as u64) << at;
            }
            places.none |= (_mm512_cmpeq_epi32_mask(k, zero) as u64) << at;
            places.one |= (_mm512_cmpeq_epi32_mask(k, one) as u64) << at;
            if few_on {
                places.few |=
                    (_mm512_cmple_epu32_mask(_mm512_sub_epi32(k, two), span) as u64) << at;
            }
        }
        places.none &= self.all;
        if !SINCE {
            // nothing to compare with: every shape may have changed
            places.changed = u64::MAX;
        }
        places
    }

    /// The same count shape by shape, without vector instructions (the reference the vector
    /// count is tested against).
    #[cfg(test)]
    pub fn count_plainly<const W: usize>(&self, c: &[u64; W], few_max: u32) -> Places {
        let mut places = Places {
            none: 0,
            one: 0,
            few: 0,
            changed: u64::MAX,
        };
        for h in 0..self.all.count_ones() as usize {
            let (block, j) = (&self.blocks[h / 16], h % 16);
            let odd = 2 * (j % 2);
            let mut k = (block[odd].0[j / 2] & c[0]).count_ones();
            if W > 1 {
                k += (block[odd + 1].0[j / 2] & c[W - 1]).count_ones();
            }
            places.none |= ((k == 0) as u64) << h;
            places.one |= ((k == 1) as u64) << h;
            places.few |= ((k >= 2 && k <= few_max) as u64) << h;
        }
        places
    }
}

/// The two words of a board (1 or 2 words), each repeated in every 64-bit lane.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn broadcast<const W: usize>(
    c: &[u64; W],
) -> (std::arch::x86_64::__m512i, std::arch::x86_64::__m512i) {
    use std::arch::x86_64::*;
    (
        _mm512_set1_epi64(c[0] as i64),
        _mm512_set1_epi64(if W > 1 { c[W - 1] as i64 } else { 0 }),
    )
}

/// The places of a board (its words repeated, [`broadcast`]) in the sixteen cell sets of a
/// block: the even sets' counts in the low halves of the 64-bit lanes, the odd ones' in the
/// high halves, so sixteen 32-bit counts in order.
///
/// # Safety
/// The CPU must have `avx512f` and `avx512vpopcntdq` (callers carry the target features).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn packed_counts<const W: usize>(
    block: &[Lane; 4],
    first: std::arch::x86_64::__m512i,
    second: std::arch::x86_64::__m512i,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    // SAFETY: `Lane` is 64 bytes, aligned to 64
    let count = |at: usize| {
        let mut k = _mm512_popcnt_epi64(_mm512_and_si512(
            _mm512_load_si512(block[at].0.as_ptr().cast()),
            first,
        ));
        if W > 1 {
            k = _mm512_add_epi64(
                k,
                _mm512_popcnt_epi64(_mm512_and_si512(
                    _mm512_load_si512(block[at + 1].0.as_ptr().cast()),
                    second,
                )),
            );
        }
        k
    };
    _mm512_or_si512(count(0), _mm512_slli_epi64::<32>(count(2)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The vector count equals the plain one on random boards, for one- and two-word boards and
    /// shape counts that do and do not fill the last group of eight.
    #[test]
    fn vector_count_equals_the_plain_count() {
        if !Tally::supported() {
            eprintln!("no AVX-512 population count on this CPU: nothing to compare");
            return;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (words, n_shapes) in [(2usize, 27usize), (2, 29), (2, 64), (1, 12), (1, 8), (2, 3)] {
            let shapes: Vec<u64> = (0..words * n_shapes)
                .map(|_| rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>())
                .collect();
            let t = Tally::new(&shapes, words, n_shapes).expect("fits");
            for _ in 0..2000 {
                let few_max = rng.gen_range(0..6);
                let board = [rng.gen::<u64>() & rng.gen::<u64>(), rng.gen::<u64>()];
                let (got, want) = if words == 2 {
                    (
                        unsafe { t.count(&board, few_max) },
                        t.count_plainly(&board, few_max),
                    )
                } else {
                    let b = [board[0]];
                    (
                        unsafe { t.count(&b, few_max) },
                        t.count_plainly(&b, few_max),
                    )
                };
                assert_eq!(
                    got, want,
                    "{words} words, {n_shapes} shapes, few_max {few_max}"
                );
                // and the plain count is what it says: shape by shape
                for h in 0..n_shapes {
                    let k: u32 = (0..words)
                        .map(|j| (shapes[h * words + j] & board[j]).count_ones())
                        .sum();
                    assert_eq!(want.one >> h & 1 == 1, k == 1);
                    assert_eq!(want.none >> h & 1 == 1, k == 0);
                }
            }
        }
    }

    /// `count_since` flags exactly the shapes whose count differs from the symbol's previous
    /// count (every shape after `forget`), and counts like `count`; symbols keep their own.
    #[test]
    fn count_since_flags_the_shapes_whose_count_changed() {
        if !Tally::supported() {
            eprintln!("no AVX-512 population count on this CPU: nothing to compare");
            return;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
        let n_shapes = 27;
        let shapes: Vec<u64> = (0..2 * n_shapes)
            .map(|_| rng.gen::<u64>() & rng.gen::<u64>())
            .collect();
        let t = Tally::new(&shapes, 2, n_shapes).expect("fits");
        let count_of = |board: &[u64; 2]| -> Vec<u32> {
            (0..n_shapes)
                .map(|h| {
                    (0..2)
                        .map(|j| (shapes[h * 2 + j] & board[j]).count_ones())
                        .sum()
                })
                .collect()
        };
        let mut counts = Counts::new(&t, 3);
        let mut changes = 0;
        for round in 0..50 {
            // what the symbols' last counts were (none: forgotten)
            let mut last: [Option<Vec<u32>>; 3] = [None, None, None];
            counts.forget();
            let mut boards = [[u64::MAX; 2]; 3];
            for _ in 0..12 {
                let s = rng.gen_range(0..3);
                // a board only loses cells, a few at a time (or none)
                let lose = [
                    rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
                    rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
                ];
                boards[s] = [boards[s][0] & !lose[0], boards[s][1] & !lose[1]];
                let got = unsafe { t.count_since(&boards[s], 3, &mut counts, s) };
                let plain = t.count_plainly(&boards[s], 3);
                assert_eq!(
                    (got.none, got.one, got.few),
                    (plain.none, plain.one, plain.few)
                );
                let now = count_of(&boards[s]);
                let want = match &last[s] {
                    None => u64::MAX,
                    Some(before) => (0..n_shapes)
                        .filter(|&h| before[h] != now[h])
                        .fold(0, |m, h| m | 1 << h),
                };
                assert_eq!(
                    got.changed & ((1 << n_shapes) - 1),
                    want & ((1 << n_shapes) - 1),
                    "round {round}"
                );
                changes += (want != u64::MAX && want != 0) as u32;
                last[s] = Some(now);
            }
        }
        assert!(changes > 0, "the test never saw a partial change");
    }

    /// Pointing and claiming straight from the shapes, pair by pair (the reference, which knows
    /// nothing of `Overlaps`' layout): where shapes A and B share two cells or more (and neither
    /// holds the other), the symbol's places in A (at least one) all lie in B, and B has places
    /// outside A, it leaves B's cells outside A.
    fn pointing_from_shapes(shapes: &[u64], words: usize, n: usize, board: [u64; 2]) -> [u64; 2] {
        let cells = |h: usize| {
            [
                shapes[h * words],
                if words == 2 { shapes[h * words + 1] } else { 0 },
            ]
        };
        let count = |x: [u64; 2]| x[0].count_ones() + x[1].count_ones();
        let and = |x: [u64; 2], y: [u64; 2]| [x[0] & y[0], x[1] & y[1]];
        let mut gone = [0u64; 2];
        for a in 0..n {
            for b in 0..n {
                let (ca, cb) = (cells(a), cells(b));
                let both = and(ca, cb);
                if a == b || count(both) < 2 || both == ca || both == cb {
                    continue;
                }
                let (in_a, in_b) = (count(and(board, ca)), count(and(board, cb)));
                let inside = count(and(board, both));
                if in_a > 0 && inside == in_a && in_b > inside {
                    gone[0] |= cb[0] & !ca[0];
                    gone[1] |= cb[1] & !ca[1];
                }
            }
        }
        gone
    }

    /// Pointing over every overlap at once equals the reference straight from the shapes, on
    /// the rows, columns and boxes of a 9x9 and on random shapes, one and two words.
    #[test]
    fn vector_pointing_equals_pointing_from_shapes() {
        if !Tally::supported() {
            eprintln!("no AVX-512 population count on this CPU: nothing to compare");
            return;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let mut grid = vec![0u64; 2 * 27];
        for cell in 0..81 {
            let (row, col) = (cell / 9, cell % 9);
            for h in [row, 9 + col, 18 + 3 * (row / 3) + col / 3] {
                grid[2 * h + cell / 64] |= 1 << (cell % 64);
            }
        }
        let random: Vec<u64> = (0..2 * 20)
            .map(|_| rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>())
            .collect();
        let narrow: Vec<u64> = (0..12)
            .map(|_| rng.gen::<u64>() & rng.gen::<u64>())
            .collect();
        let mut fired = 0;
        for (shapes, words, n_shapes) in [(&grid, 2, 27), (&random, 2, 20), (&narrow, 1, 12)] {
            let t = Tally::new(shapes, words, n_shapes).expect("fits");
            let o = Overlaps::new(&t, shapes, words, n_shapes).expect("shapes overlap");
            let mut counts = Counts::new(&t, 2);
            for _ in 0..3000 {
                let s = rng.gen_range(0..2);
                let board = [
                    rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
                    rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
                ];
                let got = if words == 2 {
                    unsafe { t.count_since(&board, 0, &mut counts, s) };
                    unsafe { o.pointing(&board, &counts, s) }
                } else {
                    let b = [board[0]];
                    unsafe { t.count_since(&b, 0, &mut counts, s) };
                    [unsafe { o.pointing(&b, &counts, s) }[0], 0]
                };
                let board = if words == 2 { board } else { [board[0], 0] };
                let want = pointing_from_shapes(shapes, words, n_shapes, board);
                assert_eq!(
                    got, want,
                    "{n_shapes} shapes of {words} words, board {board:x?}"
                );
                fired += (want != [0, 0]) as u32;
            }
        }
        assert!(fired > 100, "pointing fired only {fired} times");
    }
}
