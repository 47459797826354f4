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
        if !drain(e, cand, queue) {
            return false;
        }
        match hidden_singles(e, cand, queue) {
            None => return false,
            Some(true) => continue,
            Some(false) => {}
        }
        if !e.sums.is_empty() {
            match sum::filter_all(e, cand, queue) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
        }
        if e.overlaps.is_empty() {
            return true;
        }
        match overlaps(e, cand, queue) {
            None => return false,
            Some(true) => continue,
            Some(false) => return true,
        }
    }
}

/// Naked singles: removes each queued cell's symbol from its peers, queueing new singletons.
#[inline]
fn drain(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> bool {
    while let Some(c) = queue.pop() {
        let m = cand[c as usize];
        let (a, b) = (e.peer_start[c as usize] as usize, e.peer_start[c as usize + 1] as usize);
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
    true
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
        if !queue.is_empty() && !drain(e, cand, queue) {
            return None;
        }
    }
    Some(changed)
}

/// Overlap of two complete shapes: a symbol whose candidates in one shape all lie in the shared
/// part must be there, so it leaves the rest of the other shape.
fn overlaps(e: &Engine, cand: &mut [Mask], queue: &mut Vec<u32>) -> Option<bool> {
    let mut changed = false;
    let cells = &e.overlap_cells;
    let or = |cand: &[Mask], from: u32, to: u32| {
        cells[from as usize..to as usize]
            .iter()
            .fold(0, |acc, &c| acc | cand[c as usize])
    };
    for &[i, a, b, end] in &e.overlaps {
        let inter = or(cand, i, a);
        let a_rest = or(cand, a, b);
        let b_rest = or(cand, b, end);
        let from_a = inter & !a_rest & b_rest;
        let from_b = inter & !b_rest & a_rest;
        if from_a | from_b == 0 {
            continue;
        }
        for (lo, hi, gone) in [(b, end, from_a), (a, b, from_b)] {
            if gone == 0 {
                continue;
            }
            for &c in &cells[lo as usize..hi as usize] {
                let m = cand[c as usize];
                if m & gone != 0 {
                    let new = m & !gone;
                    if new == 0 {
                        return None;
                    }
                    cand[c as usize] = new;
                    if new & (new - 1) == 0 {
                        queue.push(c);
                    }
                }
            }
        }
        changed = true;
    }
    Some(changed)
}
