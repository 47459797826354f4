//! A propagator for a binary relation between the cells of pairs: kropki dots, XV, inequality
//! signs, palindromes and clones (pairs that may be far apart), and lines whose neighbouring
//! cells must be related (thermometers, German whispers).
//!
//! The relation is a table made once: for each symbol of the first cell, the symbols the second
//! may hold, and the other way round. A pass keeps the symbols of each cell that some candidate
//! of the other supports (arc consistency for each pair). On a *path* (each pair's second cell
//! is the next pair's first) a backward sweep and then a forward sweep make the whole line arc
//! consistent in one pass (a path is a tree: every symbol left has a support all along it).
//!
//! A table that is an order of the symbol indices (`<` or `<=` on values that rise with the
//! index: thermometers, inequality signs) is recognised when it is made, and its supports are
//! then bit operations on the lowest or highest candidate instead of a walk over the symbols.

use crate::engine::constraint::{Cands, Propagator};
use crate::engine::flatten::Flat;
use crate::engine::Mask;
use crate::geometry::CellId;

/// See the module docs.
#[derive(Debug)]
pub(crate) struct Relation {
    pairs: Vec<[u32; 2]>,
    /// `fwd[s]`: the symbols the second cell of a pair may hold when the first holds `s`.
    fwd: Box<[Mask]>,
    /// `bwd[t]`: the symbols the first cell may hold when the second holds `t`.
    bwd: Box<[Mask]>,
    path: bool,
    order: Order,
    /// Every symbol.
    full: Mask,
}

/// Whether the table is an order of the symbol indices (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Order {
    /// Any other table.
    Table,
    /// The first's symbol index is below the second's.
    Less,
    /// The first's symbol index is at most the second's.
    LessEq,
}

/// The symbols below index `i` (`i <= 64`).
#[inline]
fn below(i: u32) -> Mask {
    if i >= Mask::BITS {
        !0
    } else {
        (1 << i) - 1
    }
}

/// Which order `fwd` is, if any.
fn order_of(fwd: &[Mask]) -> Order {
    let n = fwd.len() as u32;
    let full = below(n);
    let is = |strict: bool| (0..n).all(|s| fwd[s as usize] == full & !below(s + strict as u32));
    if is(true) {
        Order::Less
    } else if is(false) {
        Order::LessEq
    } else {
        Order::Table
    }
}

/// The symbols `table` allows for some symbol of `m`.
#[inline]
fn support(mut m: Mask, table: &[Mask]) -> Mask {
    let mut out = 0;
    while m != 0 {
        out |= table[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    out
}

impl Relation {
    /// The relation `rel(value of the first, value of the second)` on `pairs`.
    pub(crate) fn new(flat: &Flat, pairs: &[[CellId; 2]], rel: impl Fn(i64, i64) -> bool) -> Self {
        let values = flat.values();
        let n = values.len();
        let mut fwd = vec![0 as Mask; n];
        let mut bwd = vec![0 as Mask; n];
        for s in 0..n {
            for t in 0..n {
                if rel(values[s], values[t]) {
                    fwd[s] |= 1 << t;
                    bwd[t] |= 1 << s;
                }
            }
        }
        Relation {
            pairs: pairs.iter().map(|[a, b]| [a.0, b.0]).collect(),
            order: order_of(&fwd),
            full: below(n as u32),
            fwd: fwd.into(),
            bwd: bwd.into(),
            path: false,
        }
    }

    /// The same symbol in both cells of each pair (palindromes, clones).
    pub(crate) fn equal(flat: &Flat, pairs: &[[CellId; 2]]) -> Self {
        let same: Box<[Mask]> = (0..flat.values().len()).map(|s| 1 << s).collect();
        Relation {
            pairs: pairs.iter().map(|[a, b]| [a.0, b.0]).collect(),
            order: Order::Table,
            full: below(same.len() as u32),
            fwd: same.clone(),
            bwd: same,
            path: false,
        }
    }

    /// The relation between each cell of `cells` and the next (a path).
    pub(crate) fn along(flat: &Flat, cells: &[CellId], rel: impl Fn(i64, i64) -> bool) -> Self {
        let pairs: Vec<[CellId; 2]> = cells.windows(2).map(|w| [w[0], w[1]]).collect();
        Relation {
            path: true,
            ..Relation::new(flat, &pairs, rel)
        }
    }
}

impl Relation {
    /// The symbols the second cell of a pair may hold when the first holds one of `m`.
    #[inline]
    fn forward(&self, m: Mask) -> Mask {
        if m == 0 {
            return 0;
        }
        match self.order {
            Order::Less => self.full & !below(m.trailing_zeros() + 1),
            Order::LessEq => self.full & !below(m.trailing_zeros()),
            Order::Table => support(m, &self.fwd),
        }
    }

    /// The symbols the first cell of a pair may hold when the second holds one of `m`.
    #[inline]
    fn backward(&self, m: Mask) -> Mask {
        if m == 0 {
            return 0;
        }
        let top = Mask::BITS - 1 - m.leading_zeros();
        match self.order {
            Order::Less => below(top),
            Order::LessEq => below(top + 1),
            Order::Table => support(m, &self.bwd),
        }
    }
}

impl Propagator for Relation {
    fn propagate(&self, c: &mut Cands) -> bool {
        if self.path {
            for &[a, b] in self.pairs.iter().rev() {
                if !c.keep(a, self.backward(c.get(b))) {
                    return false;
                }
            }
            for &[a, b] in &self.pairs {
                if !c.keep(b, self.forward(c.get(a))) {
                    return false;
                }
            }
        } else {
            for &[a, b] in &self.pairs {
                if !c.keep(b, self.forward(c.get(a))) || !c.keep(a, self.backward(c.get(b))) {
                    return false;
                }
            }
        }
        true
    }
}
