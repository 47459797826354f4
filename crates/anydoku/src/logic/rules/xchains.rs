//! X-chains of a few strong links (SE's "strong-linked fishes": skyscraper, kite, turbot fish
//! for two links): one symbol, strong links a = b (one of the two holds it) joined by weak ones
//! b − c (not both). Either the first node holds the symbol or, following the links, the last
//! one does; so it leaves every cell that sees both ends. Nodes may be groups ([`super::links`]);
//! a chain through one weighs a little more.

use super::chains::Bfs;
use super::links::{Graph, Mode};
use super::{LogicRule, Step};
use crate::logic::board::Board;
use crate::logic::budget::Cx;
use crate::logic::{rate, Family};

/// A chain found: whether it uses a group, its potentials, its eliminations.
type Found = (bool, Vec<u32>, Vec<(usize, u8)>);

/// X-chains of exactly `self.0` strong links (2 to 4).
pub struct StrongLinks(pub usize);

impl LogicRule for StrongLinks {
    fn name(&self) -> &str {
        "X-chain"
    }
    fn family(&self) -> Family {
        Family::Chains
    }
    fn min_weight(&self) -> f64 {
        rate::STRONG_LINKS[self.0 - 2]
    }
    fn find(&self, b: &Board, cx: &mut Cx) -> Option<Step> {
        let k = self.0;
        let g = Graph::of(b, true);
        let mut bfs = Bfs::new(g.node_count());
        let depth = (2 * k - 1) as u16;
        let mut best: Option<Found> = None;
        let m = Mode {
            x: true,
            y: false,
            grouped: true,
        };
        // per node, the start it was last seen weakly linked to (`a + 1`; 0: none)
        let mut near_first = vec![0u32; g.node_count()];
        for a in 0..g.node_count() {
            if !present(b, &g, a) {
                continue;
            }
            let start = (2 * a) as u32;
            bfs.run((b, &g, m), start, depth, None);
            let mut marked = false;
            for z in bfs.reached_at(depth) {
                // walk the chain back from z without listing it: the step needs it listed
                // only once it is kept
                let mut grouped = false;
                let mut changed = false;
                bfs.walk(z, &mut |p| {
                    let u = (p / 2) as usize;
                    grouped |= g.is_group(u);
                    changed = changed || g.cells_any(u, |c| b.changed_since(c, cx.since));
                });
                if best.as_ref().is_some_and(|x| !x.0 || grouped) || !changed {
                    continue;
                }
                if !marked {
                    g.weak(b, a, m, &mut |w| near_first[w] = a as u32 + 1);
                    marked = true;
                }
                let path = bfs.path(z);
                let elim = ends_see(b, &g, &path, |w| near_first[w] == a as u32 + 1);
                if !elim.is_empty() {
                    best = Some((grouped, path, elim));
                }
            }
            if best.as_ref().is_some_and(|x| !x.0) {
                break;
            }
        }
        let (grouped, path, eliminations) = best?;
        let weight =
            rate::tenths(self.min_weight() + if grouped { rate::GROUPED_LINKS } else { 0.0 });
        let chain: Vec<String> = path
            .iter()
            .map(|&p| g.text(b, (p / 2) as usize, p % 2 == 1))
            .collect();
        let v = g.symbol((path[0] / 2) as usize);
        let mut cells: Vec<usize> = path
            .iter()
            .flat_map(|&p| g.cells((p / 2) as usize))
            .collect();
        cells.dedup();
        Some(Step {
            rule: format!(
                "{}X-chain of {k} strong links",
                if grouped { "Grouped " } else { "" }
            ),
            family: Family::Chains,
            size: k,
            weight,
            shapes: vec![],
            cells,
            placements: vec![],
            eliminations,
            reason: format!(
                "{}: {} is at one end or the other",
                chain.join(" → "),
                b.sym(v)
            ),
        })
    }
}

/// Whether node `u` is still there (an empty candidate, or a group).
fn present(b: &Board, g: &Graph, u: usize) -> bool {
    if g.is_group(u) {
        return true;
    }
    let (c, v) = g.cand(u);
    b.value[c].is_none() && b.cand[c] & (1 << v) != 0
}

/// The candidates weakly linked to both ends of a chain (and not in it); `near_first`: whether
/// a node is weakly linked to the first end.
fn ends_see(
    b: &Board,
    g: &Graph,
    path: &[u32],
    near_first: impl Fn(usize) -> bool,
) -> Vec<(usize, u8)> {
    let m = Mode {
        x: true,
        y: false,
        grouped: true,
    };
    let last = (path[path.len() - 1] / 2) as usize;
    let mut out = Vec::new();
    g.weak(b, last, m, &mut |w| {
        if near_first(w) && !g.is_group(w) && !path.iter().any(|&p| (p / 2) as usize == w) {
            let (c, v) = g.cand(w);
            out.push((c, v as u8));
        }
    });
    out.sort_unstable();
    out.dedup();
    out
}
