//! The candidate arrays of a depth-first search, level by level, in memory linear in the cells.
//!
//! Each level of a search is its parent's candidates plus one decision, propagated. Keeping a
//! whole copy per level is the fastest way to go back up (nothing to undo), but costs cells ×
//! depth, and the depth can reach the number of cells: a 10,000-cell layout took 0.8 GB. So
//! [`Levels`] keeps whole copies only while that product is small (models of up to
//! [`COPY_CELLS`] cells: every 9x9, 16x16, 25x25 and multi-grid of the corpora), and beyond
//! that keeps one array and an undo trail: after a branch's propagation succeeds, the cells it
//! changed are recorded with their old candidates (each cell changes at most once per symbol
//! along a path, so the trail holds at most 64 entries per cell), and going back up restores
//! them. Both ways give the search the same arrays, so it visits the same nodes (tested).
//!
//! A search calls [`Levels::child`] to get the array of a new level (a copy of the current
//! one), narrows and propagates it, then [`Levels::keep`] when it is consistent or
//! [`Levels::drop_child`] when it is not; [`Levels::back_to`] returns to an earlier level.

use super::Mask;

/// Models with at most this many cells keep a whole copy of each level.
pub const COPY_CELLS: usize = 1024;

/// The levels of one search (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Levels {
    n: usize,
    trail_mode: bool,
    /// Copies: level `d` is `arrays[d * n..(d + 1) * n]`. Trail: `arrays[..n]` is the current
    /// level, `arrays[n..2n]` the state before the last [`Levels::child`].
    arrays: Vec<Mask>,
    /// Trail: (cell, candidates before) of every change kept since the root, oldest first.
    trail: Vec<(u32, Mask)>,
    /// Trail: where each level's changes start in `trail` (`marks[d]` for level `d + 1`).
    marks: Vec<usize>,
    /// The deepest level now held.
    depth: usize,
}

impl Levels {
    /// Levels for a model of `n` cells: whole copies up to [`COPY_CELLS`] cells, a trail
    /// beyond (or always, with `trail`).
    pub fn new(n: usize, trail: bool) -> Self {
        Levels {
            n,
            trail_mode: trail || n > COPY_CELLS,
            arrays: Vec::with_capacity(if trail || n > COPY_CELLS {
                2 * n
            } else {
                16 * n
            }),
            trail: Vec::new(),
            marks: Vec::new(),
            depth: 0,
        }
    }

    /// Starts from `root` as level 0.
    pub fn reset(&mut self, root: &[Mask]) {
        debug_assert_eq!(root.len(), self.n);
        self.arrays.clear();
        self.arrays.extend_from_slice(root);
        if self.trail_mode {
            self.arrays.extend_from_slice(root);
        }
        self.trail.clear();
        self.marks.clear();
        self.depth = 0;
    }

    /// The candidates of the deepest level.
    #[inline]
    pub fn top(&self) -> &[Mask] {
        let at = if self.trail_mode {
            0
        } else {
            self.depth * self.n
        };
        &self.arrays[at..at + self.n]
    }

    /// The deepest level's number (0 = the root).
    #[cfg(test)]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// A new level below the deepest: a copy of it, to be narrowed and propagated, then kept
    /// ([`Levels::keep`]) or dropped ([`Levels::drop_child`]).
    #[inline]
    pub fn child(&mut self) -> &mut [Mask] {
        let n = self.n;
        if self.trail_mode {
            let (cur, saved) = self.arrays.split_at_mut(n);
            saved.copy_from_slice(cur);
            return cur;
        }
        let (from, to) = (self.depth * n, (self.depth + 1) * n);
        if self.arrays.len() < to + n {
            self.arrays.resize(to + n, 0);
        }
        self.arrays.copy_within(from..to, to);
        &mut self.arrays[to..to + n]
    }

    /// Keeps the new level (its propagation succeeded): it becomes the deepest.
    #[inline]
    pub fn keep(&mut self) {
        if self.trail_mode {
            self.marks.push(self.trail.len());
            let (cur, saved) = self.arrays.split_at(self.n);
            for (c, (&now, &before)) in cur.iter().zip(saved).enumerate() {
                if now != before {
                    self.trail.push((c as u32, before));
                }
            }
        }
        self.depth += 1;
    }

    /// Drops the new level (its propagation failed): the deepest level is as before.
    #[inline]
    pub fn drop_child(&mut self) {
        if self.trail_mode {
            let (cur, saved) = self.arrays.split_at_mut(self.n);
            cur.copy_from_slice(saved);
        }
    }

    /// Goes back up to level `depth` (at most the deepest).
    #[inline]
    pub fn back_to(&mut self, depth: usize) {
        debug_assert!(depth <= self.depth);
        if self.trail_mode && depth < self.depth {
            let mark = self.marks[depth];
            for &(c, before) in self.trail[mark..].iter().rev() {
                self.arrays[c as usize] = before;
            }
            self.trail.truncate(mark);
            self.marks.truncate(depth);
        }
        self.depth = depth;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways hold the same arrays through a sequence of children kept, dropped and left.
    #[test]
    fn copies_and_trail_agree() {
        let n = 5;
        let root: Vec<Mask> = vec![0b1111; n];
        let mut a = Levels::new(n, false);
        let mut b = Levels::new(n, true);
        a.reset(&root);
        b.reset(&root);
        let mut x = 12345u64;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..2000 {
            match rand() % 3 {
                0 | 1 => {
                    let (c, keep_it) = ((rand() % n as u64) as usize, rand() % 4 != 0);
                    let bit = rand() & 0b1111;
                    for l in [&mut a, &mut b] {
                        let arr = l.child();
                        arr[c] &= bit;
                        arr[(c + 1) % n] &= bit | 1;
                        if keep_it {
                            l.keep();
                        } else {
                            l.drop_child();
                        }
                    }
                }
                _ => {
                    let d = (rand() as usize) % (a.depth() + 1);
                    a.back_to(d);
                    b.back_to(d);
                }
            }
            assert_eq!(a.depth(), b.depth());
            assert_eq!(a.top(), b.top());
        }
    }

    /// A search keeping its levels as copies and one keeping them with the trail visit the same
    /// nodes and find the same solutions, on random givens of the cell-major kernel's models
    /// (plain grids with the bitboard kernel off, Killers, a Samurai, a jigsaw).
    #[test]
    fn searches_with_copies_and_with_the_trail_agree() {
        use crate::engine::search::Searcher;
        use crate::engine::{Engine, Limits, Options, Switch};
        use rand::{Rng, SeedableRng};
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/");
        let load = |name: &str| {
            crate::puzzle::file::load_path(std::path::Path::new(&format!("{root}{name}.toml")))
                .unwrap()
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(24);
        for name in [
            "classic9",
            "killer6",
            "killer",
            "samurai",
            "jigsaw",
            "classic16",
        ] {
            let p = load(name);
            let e = Engine::with_options(
                &p.geometry,
                Options {
                    board: Switch::Off,
                    ..Default::default()
                },
            );
            let n = e.cell_count();
            let grid = Searcher::new(&e)
                .count(&p.givens, 1, Limits::none())
                .solutions
                .remove(0);
            for round in 0..12 {
                let mut givens = p.givens.clone();
                for _ in 0..n * round / 40 {
                    let c = rng.gen_range(0..n);
                    givens[c] = Some(grid[c]);
                }
                let limits = Limits {
                    max_nodes: Some(20_000),
                    max_time: None,
                };
                let a = Searcher::new(&e).count(&givens, 5, limits);
                let b = Searcher::with_trail(&e).count(&givens, 5, limits);
                assert_eq!(a, b, "{name}, round {round}");
            }
        }
    }

    /// The trail never holds more than one entry per cell and symbol of the path.
    #[test]
    fn the_trail_stays_linear() {
        let n = 3000;
        let mut l = Levels::new(n, false);
        assert!(l.trail_mode);
        l.reset(&vec![!0; n]);
        // a path as deep as the cells, each level narrowing every cell by one symbol
        for d in 0..64 {
            let arr = l.child();
            arr.iter_mut().for_each(|m| *m &= !(1 << d));
            l.keep();
        }
        assert!(l.trail.len() <= 64 * n);
        assert!(l.arrays.len() == 2 * n);
        l.back_to(0);
        assert!(l.top().iter().all(|&m| m == !0));
        // a path as deep as the cells, each level fixing one more cell
        for c in 0..n {
            let arr = l.child();
            arr[c] = 1;
            l.keep();
        }
        assert_eq!(l.depth(), n);
        assert_eq!((l.trail.len(), l.arrays.len()), (n, 2 * n));
        l.back_to(1);
        assert_eq!(l.top()[0], 1);
        assert!(l.top()[1..].iter().all(|&m| m == !0));
    }
}
