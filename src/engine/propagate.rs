//! Propagation to a fixpoint: naked singles, hidden singles, sum shapes.
//!
//! The candidate array is the whole search state. A cell whose candidates shrink to one symbol is
//! pushed on a queue; popping it removes the symbol from every peer. When the queue is empty, each
//! complete shape is scanned once with two bitsets (`once`, `twice`) to find symbols with a single
//! place (hidden singles) or none (a contradiction). Sum shapes are filtered last. No allocation
//! happens here: the queue is owned by the caller and reused.

use super::{sum, Engine, Mask};

/// Places the singletons on `queue` and propagates until nothing changes.
/// Returns false on a contradiction (some cell or required symbol has no place left).
pub fn propagate(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> bool {
    loop {
        while let Some(c) = queue.pop() {
            let m = cand[c as usize];
            let (a, b) = (
                e.peer_start[c as usize] as usize,
                e.peer_start[c as usize + 1] as usize,
            );
            for &p in &e.peers[a..b] {
                let p = p as usize;
                let old = cand[p];
                if old & m != 0 {
                    let new = old & !m;
                    if new == 0 {
                        return false;
                    }
                    cand[p] = new;
                    if new & (new - 1) == 0 {
                        queue.push(p as u32);
                    }
                }
            }
        }
        match hidden_singles(e, cand, queue) {
            None => return false,
            Some(true) => continue,
            Some(false) => {}
        }
        if e.sums.is_empty() {
            return true;
        }
        match sum::filter_all(e, cand, queue) {
            None => return false,
            Some(true) => continue,
            Some(false) => return true,
        }
    }
}

/// One pass over complete shapes. `None` on contradiction, `Some(changed)` otherwise.
#[inline]
fn hidden_singles(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let n = e.n_symbols;
    let mut changed = false;
    for shape in e.complete.chunks_exact(n) {
        let (mut once, mut twice, mut fixed) = (0 as Mask, 0 as Mask, 0 as Mask);
        for &c in shape {
            let m = cand[c as usize];
            twice |= once & m;
            once |= m;
            // branch-free: add m to `fixed` when it is a single symbol
            fixed |= m & (((m & m.wrapping_sub(1)) == 0) as Mask).wrapping_neg();
        }
        if once != e.full {
            return None;
        }
        let single = once & !twice & !fixed;
        if single == 0 {
            continue;
        }
        for &c in shape {
            let m = cand[c as usize];
            let hit = m & single;
            if hit == 0 || m & (m - 1) == 0 {
                continue;
            }
            if hit & (hit - 1) != 0 {
                return None;
            }
            cand[c as usize] = hit;
            queue.push(c);
            changed = true;
        }
    }
    Some(changed)
}
