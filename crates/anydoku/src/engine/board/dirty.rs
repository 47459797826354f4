//! Dirty marks: which symbols changed since their last hidden-single look and, per symbol, the
//! complete shapes (as flag bits) where it may have lost a place, so a look visits only those
//! shapes; the same for the overlap pass. A new rule that narrows a symbol board marks here
//! what it changed.

use super::super::tally::Counts;
use super::bits::{for_each_bit, load, or_into, store, Bits};
use super::Board;

/// The symbols whose boards changed since their hidden singles were last looked for and, for
/// each, the complete shapes (as flag bits) where it may have lost a place: only those can hold
/// a new hidden single of it.
pub(super) struct Dirty {
    pub(super) symbols: u64,
    /// `W` words per symbol.
    pub(super) shapes: Vec<u64>,
    /// The same for overlaps, which are looked for once singles are exhausted: the shapes
    /// scanned for hidden singles since then.
    pub(super) overlap_symbols: u64,
    pub(super) overlap_shapes: Vec<u64>,
    /// AVX-512 kernel on vector states only: the unplaced cells with exactly two candidates
    /// at the end of the last naked-single pass, kept while one symbol at most has lost cells
    /// since (`lost`: those cells). A new naked single is then one of `lost & pairs`, so the
    /// next pass starts from them instead of from a fold over all boards.
    pub(super) pairs: Option<[u64; 2]>,
    pub(super) lost: [u64; 2],
    /// AVX-512 kernel: each symbol's counts of places per shape at its last look in the root
    /// propagation. The overlap pass over every overlap at once ([`Overlaps`](crate::engine::tally::Overlaps)) reads them;
    /// without it, only the shapes whose count changed since are marked for the shape-by-shape
    /// pass (a shape looked at for overlaps with the same places finds nothing new).
    pub(super) counts: Option<Counts>,
}

impl Dirty {
    pub(super) fn new(b: &Board) -> Self {
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
    pub(super) fn mark_overlaps<const W: usize>(&mut self, s: usize, shapes: &Bits<W>) {
        or_into(&mut self.overlap_shapes, s * W, shapes);
        self.overlap_symbols |= 1 << s;
    }

    /// Takes the shapes of symbol `s` to look at for overlaps.
    #[inline(always)]
    pub(super) fn take_overlaps<const W: usize>(&mut self, s: usize) -> Bits<W> {
        take_marks(&mut self.overlap_shapes, &mut self.overlap_symbols, s)
    }

    /// Symbol `s` may have lost places in `shapes`.
    #[inline(always)]
    pub(super) fn mark<const W: usize, const V: bool>(&mut self, s: usize, shapes: &Bits<W>) {
        if !V {
            or_into(&mut self.shapes, s * W, shapes);
        }
        self.symbols |= 1 << s;
    }

    /// Symbol `s` went from board `old` to board `new`: marks the shapes of the cells it lost.
    #[inline(always)]
    pub(super) fn mark_lost<const W: usize, const V: bool>(
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
    pub(super) fn mark_all<const W: usize>(&mut self, b: &Board, s: usize) {
        store(&mut self.shapes, s * W, load::<W>(&b.flag_mask, 0));
        self.symbols |= 1 << s;
    }

    /// Unmarks every symbol.
    pub(super) fn clear<const W: usize>(&mut self) {
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
    pub(super) fn take<const W: usize>(&mut self, s: usize) -> Bits<W> {
        take_marks(&mut self.shapes, &mut self.symbols, s)
    }
}

/// Takes symbol `s`'s marked shapes out of `shapes` (`W` words a symbol) and its bit out of
/// `symbols`.
#[inline(always)]
pub(super) fn take_marks<const W: usize>(
    shapes: &mut [u64],
    symbols: &mut u64,
    s: usize,
) -> Bits<W> {
    let d: Bits<W> = load(shapes, s * W);
    store(shapes, s * W, [0; W]);
    *symbols &= !(1 << s);
    d
}
