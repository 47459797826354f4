//! Random complete grids for any geometry.
//!
//! A randomised depth-first search on the empty board: the branching cell is one with the fewest
//! candidates (ties broken at random) and its symbols are tried in a fresh random order at every
//! node, so the whole solution space is reachable (a single fixed value order would only produce
//! relabellings of one grid). Propagation is the engine's own ([`crate::engine::propagate`]).
//! A search that runs past its node budget restarts with the random stream where it stands, so
//! the result depends only on the seed.

use rand::seq::SliceRandom;
use rand::Rng;

use std::time::Instant;

use crate::engine::levels::Levels;
use crate::engine::propagate::propagate;
use crate::engine::{Engine, Mask};

/// Nodes one attempt may visit before it restarts.
const NODES_PER_ATTEMPT: u64 = 20_000;

/// A random complete grid (symbol index per cell), or `None` if the geometry has no solution
/// (or none was found within `attempts` restarts).
#[cfg(test)]
pub fn random_grid<R: Rng>(e: &Engine, rng: &mut R, attempts: u32) -> Option<Vec<u8>> {
    random_grid_until(e, rng, attempts, None)
}

/// A random complete grid (symbol index per cell), or `None` if the geometry has no solution
/// (or none was found within `attempts` restarts, or once `deadline` passes).
pub fn random_grid_until<R: Rng>(
    e: &Engine,
    rng: &mut R,
    attempts: u32,
    deadline: Option<Instant>,
) -> Option<Vec<u8>> {
    let n = e.cell_count();
    let mut queue = Vec::with_capacity(n);
    let mut root = vec![e.full(); n];
    if !propagate(e, &mut root, &mut queue) {
        return None;
    }
    let mut state = Dfs {
        e,
        levels: Levels::new(n, false),
        frames: Vec::new(),
        orders: Vec::new(),
        queue: Vec::with_capacity(n),
        nodes: 0,
        ties: Vec::with_capacity(n),
        deadline,
    };
    for _ in 0..attempts.max(1) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        match state.run(&root, rng) {
            Outcome::Found(grid) => return Some(grid),
            Outcome::Dead => return None,
            Outcome::Budget => continue,
        }
    }
    None
}

enum Outcome {
    Found(Vec<u8>),
    Dead,
    Budget,
}

/// The open choice of one level: a cell and its symbols in the order drawn for it
/// (`orders[start..start + len]`), `next` the first not tried yet.
struct Frame {
    cell: u32,
    start: u32,
    len: u8,
    next: u8,
}

/// A randomised depth-first search, as a loop over [`Frame`]s (no recursion, so its depth
/// costs no native stack) on [`Levels`] (memory linear in the cells).
struct Dfs<'e> {
    e: &'e Engine,
    levels: Levels,
    frames: Vec<Frame>,
    orders: Vec<u8>,
    queue: Vec<u32>,
    nodes: u64,
    ties: Vec<u32>,
    deadline: Option<Instant>,
}

impl Dfs<'_> {
    /// One attempt from the propagated `root`, under [`NODES_PER_ATTEMPT`] nodes.
    fn run<R: Rng>(&mut self, root: &[Mask], rng: &mut R) -> Outcome {
        self.nodes = 0;
        self.levels.reset(root);
        self.frames.clear();
        self.orders.clear();
        if let Some(done) = self.enter(rng) {
            return done;
        }
        while let Some(level) = self.frames.len().checked_sub(1) {
            self.levels.back_to(level);
            let f = &mut self.frames[level];
            if f.next == f.len {
                self.orders.truncate(f.start as usize);
                self.frames.pop();
                continue;
            }
            let s = self.orders[(f.start + f.next as u32) as usize];
            f.next += 1;
            let cell = f.cell;
            let cand = self.levels.child();
            cand[cell as usize] = 1 << s;
            self.queue.clear();
            self.queue.push(cell);
            if propagate(self.e, cand, &mut self.queue) {
                self.levels.keep();
                if let Some(done) = self.enter(rng) {
                    return done;
                }
            } else {
                self.levels.drop_child();
            }
        }
        Outcome::Dead
    }

    /// Visits the deepest level: `Some` when the attempt ends there (a complete grid, or the
    /// budget spent), else its choice is opened.
    fn enter<R: Rng>(&mut self, rng: &mut R) -> Option<Outcome> {
        self.nodes += 1;
        let late = || self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.nodes > NODES_PER_ATTEMPT || (self.nodes.is_multiple_of(256) && late()) {
            return Some(Outcome::Budget);
        }
        let cand = self.levels.top();
        let mut best = u32::MAX;
        self.ties.clear();
        for (c, &m) in cand.iter().enumerate() {
            let k = m.count_ones();
            if k > 1 {
                if k < best {
                    best = k;
                    self.ties.clear();
                }
                if k == best {
                    self.ties.push(c as u32);
                }
            }
        }
        if self.ties.is_empty() {
            return Some(Outcome::Found(
                cand.iter().map(|m| m.trailing_zeros() as u8).collect(),
            ));
        }
        let cell = self.ties[rng.gen_range(0..self.ties.len())] as usize;
        let options = cand[cell];
        let start = self.orders.len();
        self.orders
            .extend((0..64u8).filter(|&s| options & (1 << s) != 0));
        self.orders[start..].shuffle(rng);
        self.frames.push(Frame {
            cell: cell as u32,
            start: start as u32,
            len: (self.orders.len() - start) as u8,
            next: 0,
        });
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::builtin;
    use crate::puzzle::conflicts_of;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn grids_are_complete_valid_and_varied() {
        for name in ["classic4", "classic9", "samurai", "tredoku", "toroidal"] {
            let g = builtin::load(name).unwrap();
            let e = Engine::new(&g);
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let a = random_grid(&e, &mut rng, 100).unwrap();
            let b = random_grid(&e, &mut rng, 100).unwrap();
            for grid in [&a, &b] {
                let full: Vec<Option<u8>> = grid.iter().map(|&v| Some(v)).collect();
                assert!(conflicts_of(&g, &full).is_empty(), "{name}");
            }
            assert_ne!(a, b, "{name}: two draws gave the same grid");
        }
    }

    #[test]
    fn same_seed_same_grid() {
        let g = builtin::load("classic9").unwrap();
        let e = Engine::new(&g);
        let a = random_grid(&e, &mut ChaCha8Rng::seed_from_u64(42), 10);
        let b = random_grid(&e, &mut ChaCha8Rng::seed_from_u64(42), 10);
        assert_eq!(a, b);
    }
}
