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

use crate::engine::propagate::propagate;
use std::time::Instant;

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
    for _ in 0..attempts.max(1) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let mut state = Dfs {
            e,
            stack: root.clone(),
            queue: Vec::with_capacity(n),
            nodes: 0,
            ties: Vec::with_capacity(n),
            deadline,
        };
        match state.descend(0, rng) {
            Outcome::Found(level) => {
                let base = level * n;
                return Some(
                    state.stack[base..base + n]
                        .iter()
                        .map(|m| m.trailing_zeros() as u8)
                        .collect(),
                );
            }
            Outcome::Dead => return None,
            Outcome::Budget => continue,
        }
    }
    None
}

enum Outcome {
    Found(usize),
    Dead,
    Budget,
}

struct Dfs<'e> {
    e: &'e Engine,
    stack: Vec<Mask>,
    queue: Vec<u32>,
    nodes: u64,
    ties: Vec<u32>,
    deadline: Option<Instant>,
}

impl Dfs<'_> {
    fn descend<R: Rng>(&mut self, depth: usize, rng: &mut R) -> Outcome {
        let n = self.e.cell_count();
        self.nodes += 1;
        let late = || self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.nodes > NODES_PER_ATTEMPT || (self.nodes.is_multiple_of(256) && late()) {
            return Outcome::Budget;
        }
        let base = depth * n;
        let mut best = u32::MAX;
        self.ties.clear();
        for (c, &m) in self.stack[base..base + n].iter().enumerate() {
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
            return Outcome::Found(depth);
        }
        let cell = self.ties[rng.gen_range(0..self.ties.len())] as usize;
        let options = self.stack[base + cell];
        let mut symbols: Vec<u32> = (0..64).filter(|s| options & (1 << s) != 0).collect();
        symbols.shuffle(rng);
        let next = base + n;
        if self.stack.len() < next + n {
            self.stack.resize(next + n, 0);
        }
        for s in symbols {
            self.stack.copy_within(base..base + n, next);
            self.stack[next + cell] = 1 << s;
            self.queue.clear();
            self.queue.push(cell as u32);
            if propagate(self.e, &mut self.stack[next..next + n], &mut self.queue) {
                match self.descend(depth + 1, rng) {
                    Outcome::Dead => {}
                    other => return other,
                }
            }
        }
        Outcome::Dead
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
