//! What an assumption reaches, as the forcing search compares it: a bitset over the potentials
//! that would change the board (an "on" for an empty cell with other candidates, an "off" for
//! a candidate still there), numbered densely in increasing order so the sets are as short as
//! the board's open candidates allow and two of them meet in a few words.
//!
//! The numbering is fixed for one board (one search); a conclusion is any potential of such a
//! set. A new kind of proof that compares reaches reads them through [`Useful::worth`].

use std::rc::Rc;

use crate::logic::board::{bits, Board};

/// A set of potentials that change the board, shared by the searches that compare it.
pub(super) type Reach = Rc<[u64]>;

/// The potentials that change the board, numbered in increasing order.
pub(super) struct Useful {
    /// Per potential, its number (`u32::MAX`: not one that changes the board).
    index: Vec<u32>,
    /// Per number, the potential.
    pots: Vec<u32>,
    /// Words of a set.
    pub words: usize,
    /// Scratch for building a set.
    scratch: Vec<u64>,
}

impl Useful {
    /// The numbering of the potentials of board `b` (`pots` of them) that change it.
    pub fn new(b: &Board, pots: usize) -> Self {
        let n = b.n_symbols;
        let mut index = vec![u32::MAX; pots];
        let mut list = Vec::new();
        for c in (0..b.cell_count()).filter(|&c| b.value[c].is_none()) {
            for v in bits(b.cand[c]) {
                let p = (c * n + v) * 2;
                index[p] = list.len() as u32;
                list.push(p as u32);
                if b.cand[c] != 1 << v {
                    index[p + 1] = list.len() as u32;
                    list.push(p as u32 + 1);
                }
            }
        }
        let words = list.len().div_ceil(64);
        Useful {
            index,
            pots: list,
            words,
            scratch: vec![0; words],
        }
    }

    /// The set of the potentials of `order` that change the board.
    pub fn set(&mut self, order: &[u32]) -> Reach {
        let out = &mut self.scratch;
        out.fill(0);
        for &p in order {
            let i = self.index[p as usize];
            if i != u32::MAX {
                out[i as usize / 64] |= 1 << (i % 64);
            }
        }
        Rc::from(&out[..])
    }

    /// The potentials of `set` (and of `also`, when given), in increasing order.
    pub fn worth(&self, set: &[u64], also: Option<&[u64]>) -> Vec<u32> {
        let mut out = Vec::new();
        let also = also.unwrap_or(set);
        for (i, (&x, &y)) in set.iter().zip(also).enumerate() {
            let mut w = x & y;
            while w != 0 {
                out.push(self.pots[i * 64 + w.trailing_zeros() as usize]);
                w &= w - 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::budget::{Budget, Cx};
    use crate::logic::rules::net::{Net, NetMode};
    use crate::{Geometry, Puzzle};
    use std::sync::Arc;

    /// Whether a potential changes the board, read from its definition.
    fn changes(b: &Board, p: u32) -> bool {
        let n = b.n_symbols;
        let (c, v) = ((p / 2) as usize / n, (p / 2) as usize % n);
        let open = b.value[c].is_none() && b.cand[c] & (1 << v) != 0;
        open && (p.is_multiple_of(2) || b.cand[c].count_ones() > 1)
    }

    /// A reach set holds exactly the potentials of a propagation that change the board, and
    /// two sets meet in exactly the ones both propagations reached, in increasing order.
    #[test]
    fn reach_sets_hold_the_potentials_that_change_the_board() {
        let g = Arc::new(Geometry::builtin("classic9").expect("classic9"));
        let text =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let p = Puzzle::from_text(g.clone(), text).expect("a puzzle");
        let b = Board::new(&g, &p.givens).expect("a board");
        let mode = NetMode {
            dynamic: true,
            nishio: false,
            level: 0,
        };
        let mut net = Net::new(&b, mode);
        let mut useful = Useful::new(&b, net.potentials());
        let budget = Budget::unlimited();
        let mut cx = Cx::new(&budget);
        let mut reached = |start: u32| {
            net.reset();
            net.assume(start);
            net.run(&mut cx);
            let mut list: Vec<u32> = net
                .order
                .iter()
                .copied()
                .filter(|&p| changes(&b, p))
                .collect();
            list.sort_unstable();
            (useful.set(&net.order), list)
        };
        let mut starts = (0..b.cell_count())
            .filter(|&c| b.value[c].is_none())
            .flat_map(|c| bits(b.cand[c]).map(move |v| ((c * 9 + v) * 2) as u32));
        let (a, b0) = (
            starts.next().expect("a candidate"),
            starts.nth(5).expect("another"),
        );
        let (set_a, list_a) = reached(a + 1);
        let (set_b, list_b) = reached(b0 + 1);
        assert!(
            list_a.len() > 3 && list_b.len() > 3,
            "propagations that reach something"
        );
        let shown = Useful::new(&b, 2 * 81 * 9);
        assert_eq!(shown.worth(&set_a, None), list_a);
        assert_eq!(shown.worth(&set_b, None), list_b);
        let both: Vec<u32> = list_a
            .iter()
            .copied()
            .filter(|p| list_b.contains(p))
            .collect();
        assert_eq!(shown.worth(&set_a, Some(&set_b)), both);
    }
}
