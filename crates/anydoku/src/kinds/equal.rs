//! Equal pairs: what the kinds made of pairs of cells that hold the same symbol (clones,
//! palindromes) share: their checker and the planting of random equal pairs. The engine form
//! is [`super::relation::Relation::equal`].

use rand::{Rng, RngCore};

use crate::geometry::{CellId, Geometry};

/// Whether each pair of `pairs` holds the same symbol in the full grid `grid`.
pub(crate) fn check(pairs: &[[CellId; 2]], g: &Geometry, grid: &[u8]) -> Result<(), String> {
    for &[a, b] in pairs {
        if grid[a.index()] != grid[b.index()] {
            return Err(format!("{} and {} differ", g.cell(a).name, g.cell(b).name));
        }
    }
    Ok(())
}

/// One or two random pairs of distinct cells of `g` that hold the same symbol in `grid`: the
/// first cells, the second cells, and which cells they use; `None` when none was found.
pub(crate) fn plant(
    g: &Geometry,
    grid: &[u8],
    rng: &mut dyn RngCore,
) -> Option<(Vec<CellId>, Vec<CellId>, Vec<bool>)> {
    let n = g.cell_count();
    let (mut first, mut second) = (Vec::new(), Vec::new());
    let mut used = vec![false; n];
    for _ in 0..rng.gen_range(1..=2) {
        for _ in 0..30 {
            let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
            if a != b && !used[a] && !used[b] && grid[a] == grid[b] {
                used[a] = true;
                used[b] = true;
                first.push(CellId(a as u32));
                second.push(CellId(b as u32));
                break;
            }
        }
    }
    (!first.is_empty()).then_some((first, second, used))
}
