//! The board's shared cache of sum shapes' supports: per sum shape and candidates of its
//! cells, the symbols some valid assignment of the shape uses.
//!
//! The forcing nets of one solve meet the same cases over and over, step after step, so the
//! table grows large and a look-up is mostly a wait for memory: the smaller an entry, the
//! more of the table stays in the caches. A shape whose cells' candidates fit in 112 bits
//! (one field of `n_symbols` bits per cell) is kept packed, key and support one `u128` each;
//! other shapes of up to [`INLINE`] cells keep key and support as arrays inside the table,
//! larger ones in a third table. What is kept never changes an answer, only how often
//! [`cages::support`](super::cages::support) works it out. To keep more, raise [`MAX`]. The
//! symbols every combination of a cage uses (the board's required symbols, worked out again
//! whenever a net's nested rules look at its working copy) are kept the same way, packed keys
//! only.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::logic::board::Mask;

/// Cells of a sum shape whose supports are kept as arrays.
const INLINE: usize = 9;

/// Entries kept at most per table (a table starts afresh past this).
const MAX: usize = 1 << 18;

/// Bits of a packed key left for the shape's index.
const SHAPE_BITS: u32 = 16;

/// The supports worked out so far (shared by the copies of a board).
#[derive(Debug, Default)]
pub(crate) struct SupportCache {
    packed: Mutex<FxHashMap<u128, u128>>,
    small: Mutex<FxHashMap<[Mask; INLINE + 1], [Mask; INLINE]>>,
    large: Mutex<FxHashMap<LongKey, Box<[Mask]>>>,
    /// Per packed key, the symbols every combination of a cage uses.
    required: Mutex<FxHashMap<u128, Mask>>,
}

/// The shape, then its cells' candidates.
type LongKey = Box<[Mask]>;

/// Puts `value` into `map`, emptying it first when full.
fn keep<K: std::hash::Hash + Eq, V>(map: &Mutex<FxHashMap<K, V>>, key: K, value: V) {
    if let Ok(mut m) = map.lock() {
        if m.len() >= MAX {
            m.clear();
        }
        m.insert(key, value);
    }
}

/// The packed key of sum shape `s` with cell candidates `cands` (symbols of `width` bits):
/// the candidates in fields of `width` bits, the shape above them; `None` when they do not fit.
pub(crate) fn packed_key(s: usize, cands: &[Mask], width: u32) -> Option<u128> {
    pack(cands, width, 128 - SHAPE_BITS)
        .filter(|_| (s as u128) < 1 << SHAPE_BITS)
        .map(|p| p | (s as u128) << (128 - SHAPE_BITS))
}

/// Writes the `k` masks of `packed` (fields of `width` bits) to `out`.
pub(crate) fn unpack(packed: u128, k: usize, width: u32, out: &mut Vec<Mask>) {
    let field = (1u128 << width) - 1;
    out.extend((0..k).map(|d| (packed >> (d as u32 * width) & field) as Mask));
}

/// `masks` packed in fields of `width` bits (`None` when a mask does not fit its field or the
/// fields do not fit `room` bits).
pub(crate) fn pack(masks: &[Mask], width: u32, room: u32) -> Option<u128> {
    if masks.len() as u32 * width > room {
        return None;
    }
    let mut out = 0u128;
    for (d, &m) in masks.iter().enumerate() {
        if m >> width != 0 {
            return None;
        }
        out |= (m as u128) << (d as u32 * width);
    }
    Some(out)
}

impl SupportCache {
    /// The symbols every combination of unique sum shape `s` uses (its cells holding `cands`,
    /// symbols of `width` bits): from the table when the candidates pack, or worked out by
    /// `work` (and kept when they pack).
    pub(crate) fn required(
        &self,
        s: usize,
        cands: &[Mask],
        width: u32,
        work: impl FnOnce() -> Mask,
    ) -> Mask {
        let Some(key) = packed_key(s, cands, width) else {
            return work();
        };
        if let Some(x) = self.required.lock().ok().and_then(|m| m.get(&key).copied()) {
            return x;
        }
        let x = work();
        keep(&self.required, key, x);
        x
    }

    /// The support of sum shape `s` (its cells holding `cands`, symbols of `width` bits)
    /// written to `out`: from the table, or worked out by `work` and kept.
    pub(crate) fn support(
        &self,
        s: usize,
        cands: &[Mask],
        width: u32,
        out: &mut Vec<Mask>,
        work: impl FnOnce(&mut Vec<Mask>),
    ) {
        let k = cands.len();
        out.clear();
        if let Some(key) = packed_key(s, cands, width) {
            if let Some(x) = self.packed.lock().ok().and_then(|m| m.get(&key).copied()) {
                unpack(x, k, width, out);
                return;
            }
            work(out);
            // a support is a part of the candidates, so it fits where they fit
            if let Some(value) = pack(out, width, 128) {
                keep(&self.packed, key, value);
            }
            return;
        }
        if k <= INLINE {
            // the key: the shape, then the candidates (the shape says how many)
            let mut key = [0 as Mask; INLINE + 1];
            key[0] = s as Mask;
            key[1..=k].copy_from_slice(cands);
            if let Some(x) = self.small.lock().ok().and_then(|m| m.get(&key).copied()) {
                out.extend_from_slice(&x[..k]);
                return;
            }
            work(out);
            let mut value = [0 as Mask; INLINE];
            value[..k].copy_from_slice(out);
            keep(&self.small, key, value);
            return;
        }
        let key: LongKey = std::iter::once(s as Mask)
            .chain(cands.iter().copied())
            .collect();
        if let Some(x) = self.large.lock().ok().and_then(|m| m.get(&key).cloned()) {
            out.extend_from_slice(&x);
            return;
        }
        work(out);
        keep(&self.large, key, out.as_slice().into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table gives back what was kept, for the right shape and candidates only.
    #[test]
    fn each_table_gives_back_what_it_kept() {
        let cache = SupportCache::default();
        let mut out = Vec::new();
        // packed (3 cells of 9 bits, two shapes), arrays (8 cells of 16 bits: 128 bits do not
        // pack), large (12 cells)
        let cases: [(usize, Vec<Mask>, u32); 4] = [
            (3, vec![0b1_0110_0001, 0b11, 0b100], 9),
            (4, vec![0b1_0110_0001, 0b11, 0b100], 9),
            (5, (0..8).map(|i| 0xffff >> i).collect(), 16),
            (6, (0..12).map(|i| 0xffff >> i).collect(), 16),
        ];
        let halve = |c: &[Mask]| c.iter().map(|&m| m & (m >> 1 | 1)).collect::<Vec<_>>();
        for (s, cands, width) in &cases {
            cache.support(*s, cands, *width, &mut out, |o| o.extend(halve(cands)));
            assert_eq!(out, halve(cands));
        }
        for (s, cands, width) in &cases {
            cache.support(*s, cands, *width, &mut out, |_| panic!("worked out twice"));
            assert_eq!(out, halve(cands), "shape {s}");
        }
        // another shape with the same candidates is not a hit
        let mut worked = false;
        cache.support(7, &cases[0].1, 9, &mut out, |o| {
            worked = true;
            o.extend([0; 3]);
        });
        assert!(worked && out == vec![0; 3]);
        assert_eq!(
            pack(&[0b10_0000_0000], 9, 112),
            None,
            "a mask wider than its field"
        );
        // required symbols: kept per shape and candidates, worked out once
        assert_eq!(cache.required(3, &cases[0].1, 9, || 0b100), 0b100);
        assert_eq!(
            cache.required(3, &cases[0].1, 9, || panic!("worked out twice")),
            0b100
        );
        assert_eq!(cache.required(4, &cases[0].1, 9, || 0b10), 0b10);
    }
}
