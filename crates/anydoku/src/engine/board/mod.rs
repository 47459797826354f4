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
//! * naked singles and dead cells ([`singles`]): the unplaced cells covered by exactly one / no
//!   symbol board, counted bit-parallel over all cells at once; each single's symbol is read off
//!   bit-sliced planes of the symbol index and placed at once;
//! * hidden singles and "no place for a symbol" ([`singles`]): a symbol whose board changed is
//!   looked at in the shapes marked for it ([`dirty`]) and whose flag is still set, each ANDed
//!   with the board: no cell left is a contradiction, one cell is a hidden single;
//! * overlaps (pointing / claiming, [`overlaps`]), in the root propagation only, once singles
//!   are exhausted: a symbol whose places in a shape all lie in one other complete shape leaves
//!   the rest of that shape. Below the root they are not looked for
//!   (`propagate::<.., OVERLAPS = false>`).
//!
//! The modules, one concern each: [`bits`] (word operations on boards), [`dispatch`] (which
//! compiled copy runs a board), [`search`] (the depth-first search, branching and placing),
//! [`givens`], [`dirty`] (what changed since the last look), [`propagate`] (the fixpoint loop),
//! [`singles`], [`overlaps`], and `avx512` (the vector state of the AVX-512 copy).
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
//! **The AVX-512 copy.** On a CPU with AVX-512 and its population count (`avx512vpopcntdq`) the
//! same kernel is compiled a second time for those instructions (the const parameter `V`;
//! `descend_vector` and `propagate_vector` carry the target features, every pass inlines into
//! them) and chosen at load time when the board has at most two words and 64 complete shapes
//! (every 9x9 layout and the smaller ones; [`super::Options::vector`] turns it off). There a
//! hidden-single look counts the symbol's places in every complete shape at once
//! ([`Tally`], eight shapes per instruction), so looks need no shape marks, only the symbol's;
//! and with at most eleven symbols the whole state is three 512-bit vectors, so naked singles
//! and placements work on all boards at once (`avx512`). The looks keep each symbol's counts per
//! shape in the root propagation ([`Counts`]), from which the overlap pass finds a symbol's
//! pointing and claiming over every overlap of two shapes at once ([`Overlaps`]). Same rules,
//! same fixpoints, same nodes and answers: the copies are tested against each other, nodes
//! included.
//!
//! To add a rule, add a pass to [`propagate`] that narrows symbol boards and marks what it
//! changed in [`dirty::Dirty`]; in the AVX-512 copy, write a vector state only through `avx512`
//! (see there why), and test the copies against each other.

// Loops over `0..W` index several boards at once; `W` is a compile-time constant, so they
// unroll into plain word operations.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
mod avx512;
mod bits;
mod dirty;
mod dispatch;
mod givens;
mod overlaps;
mod propagate;
mod search;
mod singles;
#[cfg(test)]
mod tests;

pub use search::BoardSearch;

#[cfg(doc)]
use super::tally::Counts;
use super::tally::{Overlaps, Tally};
use super::Engine;

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
