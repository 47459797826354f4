//! A forcing net's memo of sum shapes' supports: cases whose candidates pack into one `u128`
//! ([`sum_cache::packed_key`]) in a small direct-mapped table, others per shape as the last
//! few candidate lists it met and their support, kept inline in one flat array.
//!
//! The nets of one search propagate thousands of assumptions from the same board, and a sum
//! shape keeps meeting the same few reductions of its cells; looking them up here costs a
//! hash and one comparison (or a few), where the board's shared cache
//! ([`Board::sum_support`]) takes a lock and probes a table too large for the near caches. A
//! miss falls back to that cache. To keep more cases, raise [`PACKED`] or [`WAYS`].

use super::sum_cache::{self, packed_key, unpack};
use crate::logic::board::{Board, Mask};

/// Entries of the direct-mapped table of packed cases (a power of two).
const PACKED: usize = 1 << 12;

/// Cases kept per shape (replaced in turn).
const WAYS: usize = 4;

/// Per sum shape, up to [`WAYS`] pairs (candidates, support) of its cells.
pub struct SumMemo {
    /// Per shape, where its cases start in `data` (each case: the candidates, then the
    /// support, one word per cell).
    start: Vec<usize>,
    data: Vec<Mask>,
    /// Per shape, the cases filled and the next one to replace.
    filled: Vec<u8>,
    next: Vec<u8>,
    /// Packed cases (key, support) by a hash of the key; key 0: none (no sum shape is met
    /// with all candidates gone).
    packed: Vec<(u128, u128)>,
    /// Bits per cell in a packed case (the board's symbols).
    width: u32,
}

/// The slot of a packed key.
fn slot(key: u128) -> usize {
    let h =
        ((key as u64) ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - PACKED.trailing_zeros())) as usize
}

impl SumMemo {
    /// A memo for the sum shapes of `b` (empty when `sums` is false).
    pub fn new(b: &Board, sums: bool) -> Self {
        let mut start = Vec::with_capacity(b.shapes.len() + 1);
        let mut at = 0;
        for shape in b.shapes.iter() {
            start.push(at);
            if sums && shape.sum.is_some() {
                at += 2 * WAYS * shape.cells.len();
            }
        }
        start.push(at);
        SumMemo {
            start,
            data: vec![0; at],
            filled: vec![0; b.shapes.len()],
            next: vec![0; b.shapes.len()],
            packed: if sums {
                vec![(0, 0); PACKED]
            } else {
                Vec::new()
            },
            width: b.n_symbols as u32,
        }
    }

    /// The support of sum shape `s` with cell candidates `cands`, written to `out`.
    pub fn support(&mut self, b: &Board, s: usize, cands: &[Mask], out: &mut Vec<Mask>) {
        let k = cands.len();
        let base = self.start[s];
        out.clear();
        if let Some(key) = packed_key(s, cands, self.width).filter(|&x| x != 0) {
            let i = slot(key);
            match self.packed.get(i) {
                Some(&(at, support)) if at == key => unpack(support, k, self.width, out),
                Some(_) => {
                    b.sum_support(s, cands, out);
                    if let Some(support) = sum_cache::pack(out, self.width, 128) {
                        self.packed[i] = (key, support);
                    }
                }
                None => b.sum_support(s, cands, out),
            }
            return;
        }
        for j in 0..self.filled[s] as usize {
            let case = &self.data[base + 2 * k * j..base + 2 * k * (j + 1)];
            if case[..k] == *cands {
                out.extend_from_slice(&case[k..]);
                return;
            }
        }
        b.sum_support(s, cands, out);
        if self.start[s + 1] - base < 2 * WAYS * k {
            return;
        }
        let j = self.next[s] as usize;
        self.next[s] = ((j + 1) % WAYS) as u8;
        self.filled[s] = self.filled[s].max(j as u8 + 1);
        let case = &mut self.data[base + 2 * k * j..base + 2 * k * (j + 1)];
        case[..k].copy_from_slice(cands);
        case[k..].copy_from_slice(out);
    }
}
