//! Killer generation: cages cut from a complete grid, then made unique and minimal.
//!
//! 1. Partition: cells are taken in random order; each uncovered cell starts a cage of a random
//!    size in the allowed range, grown through *layout neighbours* (cells whose drawing positions
//!    are one unit apart, so any board or user layout works) onto cells whose solution symbol is
//!    not in the cage yet. Undersized leftovers join a neighbouring cage where they fit.
//! 2. Unique: while a second solution exists, a cage where it differs from the known solution is
//!    split in two connected parts, preferring a split whose part sums tell the two solutions
//!    apart. Splitting only adds information, so this ends (at worst with one-cell cages).
//! 3. Minimal: neighbouring cages are merged while the puzzle stays unique (a merge that fails
//!    once fails forever, because merges only take information away), then (with
//!    [`KillerOptions::drop_cages`], the default) each cage is dropped while the puzzle stays
//!    unique.
//!
//! Each cage whose removal lets a second solution in gets that solution as its certificate; the
//! puzzle is minimal when every cage kept has one. The checks are [`Checker::other_solution`]:
//! on a Killer they go to conflict-driven search with the cages as explained propagators
//! ([`crate::engine::cdcl`]) after a few depth-first nodes, since the second solution of a sparse
//! Killer usually differs from the first in most cells. The drop checks run in passes of growing
//! budgets ([`drop_budgets`]): each pass settles the cheap checks and leaves the others to the
//! next, whose puzzle is weaker by the cages dropped meanwhile (its second solutions are easier
//! to find). On a layout of several grids a cage's second solution is first looked for in its
//! window ([`window`]), the rest of the grid fixed. The drop checks share one solver whose
//! cages can be switched off ([`super::killer_drop`]); models that solver cannot take (other
//! constraint kinds) are checked cage by cage here.
//!
//! To change how hard the generator tries, tune [`DEFAULT_NODES`], [`RECHECK_FACTOR`] and the
//! pass constants; a new kind of check goes in [`drop_unneeded`], which must keep only
//! certificates that are solutions of the whole puzzle without the cage.

use std::collections::BTreeSet;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::Rng;

use super::unique::{Checker, Other};
use super::{Certificate, GenerateError, Generated, Removed};
use crate::engine::{Engine, Limits};
use crate::geometry::{CellId, Geometry, Rule, Shape, ShapeKind};
use crate::puzzle::Puzzle;

/// Search nodes (depth-first nodes and CDCL decisions) per uniqueness check unless the caller
/// sets a budget. A check that runs out counts as "not unique" (the change is not made), so the
/// result stays proven unique.
pub const DEFAULT_NODES: u64 = 50_000;

/// How many times the budget of a check a cage gets in its last drop check (see
/// [`drop_budgets`]).
const RECHECK_FACTOR: u64 = 16;

/// How many drop passes there are, and the growth of the budget from one to the next.
const DROP_PASSES: u32 = 4;
const DROP_GROWTH: u64 = 8;

/// The budgets of the drop passes: the last is [`RECHECK_FACTOR`] times the check budget, each
/// earlier one [`DROP_GROWTH`] times smaller. Each pass checks the cages the passes before left
/// undecided, so the cheap checks come first: a dropped cage makes the puzzle weaker, which makes
/// the second solutions of the cages still to check easier to find, and a certificate found early
/// stays valid (dropping more cages only weakens the puzzle it is a solution of).
fn drop_budgets(limits: Limits) -> Vec<Limits> {
    let last = limits.max_nodes.map(|m| m.saturating_mul(RECHECK_FACTOR));
    (0..DROP_PASSES)
        .rev()
        .map(|k| Limits {
            max_nodes: last.map(|m| (m / DROP_GROWTH.pow(k)).max(1)),
            ..limits
        })
        .collect()
}

/// Options of Killer generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KillerOptions {
    /// Smallest cage size aimed for when cutting (leftovers may be smaller).
    pub min_size: usize,
    /// Largest cage size, also the limit for merges.
    pub max_size: usize,
    /// Drop the cages the puzzle does not need (leaving their cells uncaged), so every cage
    /// left is necessary and the puzzle can be minimal (the default). Without it every cell
    /// stays in a cage, and the puzzle is only merge-minimal: with every cell caged, any one
    /// cage's total follows from the others, so a cage is hardly ever necessary on its own.
    pub drop_cages: bool,
}

impl Default for KillerOptions {
    fn default() -> Self {
        KillerOptions {
            min_size: 2,
            max_size: 5,
            drop_cages: true,
        }
    }
}

impl KillerOptions {
    /// Parses a size range `A-B` or a single size `A`.
    pub fn parse_sizes(text: &str) -> Result<(usize, usize), GenerateError> {
        let bad = || {
            GenerateError::Option(format!(
                "cage size '{text}' is not a size or a range like 2-5 (sizes from 1)"
            ))
        };
        let (a, b) = match text.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (text.trim(), text.trim()),
        };
        let a: usize = a.parse().map_err(|_| bad())?;
        let b: usize = b.parse().map_err(|_| bad())?;
        if a == 0 || b < a {
            return Err(bad());
        }
        Ok((a, b))
    }

    /// Checks the options against a geometry.
    pub fn validate(&self, g: &Geometry) -> Result<(), GenerateError> {
        let n = g.symbol_count();
        if self.min_size == 0 || self.max_size < self.min_size {
            return Err(GenerateError::Option(format!(
                "cage sizes {}-{} are not a range of sizes from 1",
                self.min_size, self.max_size
            )));
        }
        if self.max_size > n {
            return Err(GenerateError::Option(format!(
                "cages of {} cells cannot hold distinct symbols: there are only {n} symbols",
                self.max_size
            )));
        }
        if g.shapes.iter().any(|s| matches!(s.rule, Rule::Sum { .. })) {
            return Err(GenerateError::Option(
                "the geometry already has sum shapes; Killer generation needs a layout without cages".into(),
            ));
        }
        Ok(())
    }
}

/// Layout neighbours: cells whose drawing positions are one unit apart.
pub fn neighbours(g: &Geometry) -> Vec<Vec<u32>> {
    let n = g.cells.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| g.cells[a].pos[0].total_cmp(&g.cells[b].pos[0]));
    let mut out = vec![Vec::new(); n];
    for (i, &a) in order.iter().enumerate() {
        let pa = g.cells[a].pos;
        for &b in &order[i + 1..] {
            let pb = g.cells[b].pos;
            if pb[0] - pa[0] > 1.05 {
                break;
            }
            let d2 = (pa[0] - pb[0]).powi(2) + (pa[1] - pb[1]).powi(2);
            if (0.9..1.1).contains(&d2) {
                out[a].push(b as u32);
                out[b].push(a as u32);
            }
        }
    }
    for v in &mut out {
        v.sort_unstable();
    }
    out
}

/// Cages under construction: stable ids, `None` once merged away or dropped.
pub(super) struct Cages {
    pub(super) cells: Vec<Option<Vec<u32>>>,
}

impl Cages {
    pub(super) fn live(&self) -> impl Iterator<Item = (usize, &Vec<u32>)> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().map(|c| (i, c)))
    }

    fn owner(&self, n: usize) -> Vec<usize> {
        let mut owner = vec![usize::MAX; n];
        for (i, c) in self.live() {
            for &x in c {
                owner[x as usize] = i;
            }
        }
        owner
    }
}

fn mask_of(cells: &[u32], solution: &[u8]) -> u64 {
    cells
        .iter()
        .fold(0, |m, &c| m | 1u64 << solution[c as usize])
}

/// Makes a unique (and merge-minimal) Killer puzzle from a complete grid.
pub fn make<R: Rng>(
    base: &Arc<Geometry>,
    nbrs: &[Vec<u32>],
    solution: &[u8],
    opts: &KillerOptions,
    limits: Limits,
    deadline: Option<std::time::Instant>,
    rng: &mut R,
) -> Result<Generated, GenerateError> {
    let n = base.cell_count();
    let mut cages = partition(nbrs, solution, opts, rng);
    let givens: Vec<Option<u8>> = vec![None; n];
    let limits = Limits {
        max_nodes: Some(limits.max_nodes.unwrap_or(DEFAULT_NODES)),
        ..limits
    };
    // With `changed`, the cages are known to be a weakening of a unique set whose extra
    // information was about these cells: any second solution differs from the known one there.
    let check_with = |cages: &Cages,
                      changed: Option<&[u32]>,
                      limits: Limits,
                      givens: &[Option<u8>]|
     -> Result<Other, GenerateError> {
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(GenerateError::Deadline);
        }
        let g = build(base, cages, solution)?;
        let e = Engine::new(&g);
        let mut checker = Checker::new(&e, limits);
        checker.set_deadline(deadline);
        checker.far();
        Ok(match changed {
            Some(cells) => checker.other_solution(givens, cells, solution),
            None => checker.any_other(givens, solution),
        })
    };
    let check = |cages: &Cages, changed: Option<&[u32]>, limits: Limits| {
        check_with(cages, changed, limits, &givens)
    };
    // 2. split until unique (a check that runs out of budget splits the largest cage)
    loop {
        match check(&cages, None, limits)? {
            Other::NoneExists => break,
            Other::Unknown => split_largest(&mut cages, nbrs, rng),
            Other::Found(other) => split_for(
                &mut cages,
                nbrs,
                base.symbols.values(),
                solution,
                &other,
                rng,
            ),
        }
    }
    // 3. merge while unique
    merge_while_unique(
        &mut cages,
        nbrs,
        solution,
        opts.max_size,
        limits,
        &check,
        rng,
    )?;
    // 4. drop the cages the puzzle does not need (unless every cell must stay caged), and a
    //    certificate for every cage kept, in passes of growing budgets
    let mut order: Vec<usize> = cages.live().map(|(i, _)| i).collect();
    order.shuffle(rng);
    let passes = drop_budgets(limits);
    // one solver for every drop check where a cage's window is not the whole grid (several
    // grids); on one grid the checks with an engine each were faster at the median
    let several = cages.live().next().is_some_and(|(_, cells)| {
        window(&Engine::new(base), cells, WINDOW_DEPTH).len() < solution.len()
    });
    let one = super::killer_drop::drop_with_one_solver;
    let done = match several {
        true => one(
            &mut cages,
            base,
            solution,
            &order,
            opts.drop_cages,
            &passes,
            deadline,
        )?,
        false => None,
    };
    let (certs, minimal) = match done {
        Some(done) => done,
        None => drop_unneeded(
            &mut cages,
            base,
            solution,
            opts,
            &passes,
            &check_with,
            order,
        )?,
    };
    let geometry = build(base, &cages, solution)?;
    let certificates = named_certificates(&cages, certs);
    Ok(Generated {
        puzzle: Puzzle {
            geometry: Arc::new(geometry),
            givens,
        },
        solution: solution.to_vec(),
        certificates,
        minimal,
        grids: 1,
        rating: None,
    })
}

/// Step 4 of [`make`] for models the one-solver drop step ([`super::killer_drop`]) cannot
/// take: drops the cages the puzzle does not need (unless every cell must stay caged), checked
/// in `order`, and finds a certificate for every cage kept, in the passes of growing budgets
/// `passes` ([`drop_budgets`]), a new check (and engine) per cage. Before its full check in a pass, a cage whose window (see [`window`]) is
/// not the whole grid gets a cheaper one with the cells outside the window fixed to the
/// solution: a second solution found there is a certificate like any other (it satisfies every
/// cage but the one removed); no second solution there proves nothing. Returns the
/// certificates (cage id, second solution) and whether every cage kept has one.
fn drop_unneeded(
    cages: &mut Cages,
    base: &Geometry,
    solution: &[u8],
    opts: &KillerOptions,
    passes: &[Limits],
    check: &CheckWith,
    order: Vec<usize>,
) -> Result<(Certs, bool), GenerateError> {
    let mut pending = order;
    let base_engine = Engine::new(base);
    let mut certs: Certs = Vec::new();
    let mut minimal = true;
    let mut givens: Vec<Option<u8>> = vec![None; solution.len()];
    for (pass, budget) in passes.iter().enumerate() {
        let last = pass + 1 == passes.len();
        let mut undecided = Vec::new();
        for i in std::mem::take(&mut pending) {
            let cells = cages.cells[i].take().expect("a live cage");
            let inside = window(&base_engine, &cells, WINDOW_DEPTH);
            let mut found = None;
            if inside.len() < solution.len() {
                for (c, g) in givens.iter_mut().enumerate() {
                    *g = inside
                        .binary_search(&(c as u32))
                        .is_err()
                        .then_some(solution[c]);
                }
                let small = Limits {
                    max_nodes: budget.max_nodes.map(|m| (m / WINDOW_SHARE).max(1)),
                    ..*budget
                };
                if let Other::Found(other) = check(cages, Some(&cells), small, &givens)? {
                    found = Some(other);
                }
                givens.fill(None);
            }
            let result = match found {
                Some(other) => Other::Found(other),
                None => check(cages, Some(&cells), *budget, &givens)?,
            };
            match result {
                Other::NoneExists if opts.drop_cages => continue,
                Other::NoneExists => minimal = false,
                Other::Found(other) => certs.push((i, other)),
                Other::Unknown if !last => undecided.push(i),
                Other::Unknown => minimal = false,
            }
            cages.cells[i] = Some(cells);
        }
        pending = undecided;
    }
    Ok((certs, minimal))
}

/// Certificates under construction: (cage id, second solution).
pub(super) type Certs = Vec<(usize, Vec<u8>)>;

/// How far (in peer steps) a cage's window reaches from its cells: see [`window`].
pub(super) const WINDOW_DEPTH: usize = 2;

/// The check inside a cage's window gets this share of the pass's budget (1 / `WINDOW_SHARE`).
pub(super) const WINDOW_SHARE: u64 = 8;

/// The cells within `depth` peer steps of `cells` (sorted): on a layout of several overlapping
/// grids (a Samurai), about the grids the cage lies in. A second solution that differs from the
/// known one only there is found much faster with the rest fixed.
pub(super) fn window(e: &Engine, cells: &[u32], depth: usize) -> Vec<u32> {
    let mut seen = vec![false; e.cell_count()];
    let mut out: Vec<u32> = cells.to_vec();
    for &c in cells {
        seen[c as usize] = true;
    }
    let mut from = 0;
    for _ in 0..depth {
        let to = out.len();
        for k in from..to {
            for &p in e.peers(out[k] as usize) {
                if !seen[p as usize] {
                    seen[p as usize] = true;
                    out.push(p);
                }
            }
        }
        from = to;
    }
    out.sort_unstable();
    out
}

/// A uniqueness check (see `make`) below some givens.
type CheckWith<'a> =
    dyn Fn(&Cages, Option<&[u32]>, Limits, &[Option<u8>]) -> Result<Other, GenerateError> + 'a;

/// Whether the puzzle of some cages is unique (see `make`), under a budget: with `changed`, the
/// cages are a weakening of a unique set whose extra information was about these cells.
type Check<'a> = dyn Fn(&Cages, Option<&[u32]>, Limits) -> Result<Other, GenerateError> + 'a;

/// Step 3 of [`make`]: merges neighbouring cages (up to `max_size` cells, no symbol twice) while
/// `check` finds the puzzle still unique, until no pair can be merged.
fn merge_while_unique<R: Rng>(
    cages: &mut Cages,
    nbrs: &[Vec<u32>],
    solution: &[u8],
    max_size: usize,
    limits: Limits,
    check: &Check,
    rng: &mut R,
) -> Result<(), GenerateError> {
    let mut failed: BTreeSet<(usize, usize)> = BTreeSet::new();
    loop {
        let owner = cages.owner(nbrs.len());
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (i, cells) in cages.live() {
            for &c in cells {
                for &d in &nbrs[c as usize] {
                    let j = owner[d as usize];
                    if j != usize::MAX && j > i {
                        pairs.push((i, j));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs.retain(|&(i, j)| {
            let (a, b) = (
                cages.cells[i].as_ref().unwrap(),
                cages.cells[j].as_ref().unwrap(),
            );
            !failed.contains(&(i, j))
                && a.len() + b.len() <= max_size
                && mask_of(a, solution) & mask_of(b, solution) == 0
        });
        if pairs.is_empty() {
            break;
        }
        pairs.shuffle(rng);
        let mut touched = vec![false; cages.cells.len()];
        for (i, j) in pairs {
            if touched[i] || touched[j] {
                continue; // re-examined in the next round with the cages as they are now
            }
            let b = cages.cells[j].take().unwrap();
            let before = cages.cells[i].clone().unwrap();
            let mut merged = before.clone();
            merged.extend_from_slice(&b);
            merged.sort_unstable();
            cages.cells[i] = Some(merged);
            // a second solution breaks both old sums, so it differs inside the smaller cage
            let smaller = if b.len() < before.len() { &b } else { &before };
            match check(cages, Some(smaller), limits)? {
                Other::NoneExists => {
                    touched[i] = true;
                    touched[j] = true;
                }
                Other::Found(_) | Other::Unknown => {
                    cages.cells[i] = Some(before);
                    cages.cells[j] = Some(b);
                    failed.insert((i, j));
                }
            }
        }
    }
    Ok(())
}

/// The certificates of the kept cages (cage id, second solution), by the cage names used in the
/// final geometry, in name order.
fn named_certificates(cages: &Cages, certs: Vec<(usize, Vec<u8>)>) -> Vec<Certificate> {
    let names = cage_names(cages);
    let mut certificates: Vec<(usize, Certificate)> = certs
        .into_iter()
        .filter_map(|(i, s)| {
            let rank = names.iter().position(|(id, _)| *id == i)?;
            let removed = Removed::Cage(names[rank].1.clone());
            Some((
                rank,
                Certificate {
                    removed,
                    solution: s,
                },
            ))
        })
        .collect();
    certificates.sort_by_key(|(r, _)| *r);
    certificates.into_iter().map(|(_, c)| c).collect()
}

/// Cage names in reading order of their first cell: (cage id, "Cage k").
fn cage_names(cages: &Cages) -> Vec<(usize, String)> {
    let mut live: Vec<(u32, usize)> = cages.live().map(|(i, c)| (c[0], i)).collect();
    live.sort_unstable();
    live.iter()
        .enumerate()
        .map(|(k, &(_, i))| (i, format!("Cage {}", k + 1)))
        .collect()
}

/// The base geometry plus the cages as unique sum shapes.
pub(super) fn build(
    base: &Geometry,
    cages: &Cages,
    solution: &[u8],
) -> Result<Geometry, GenerateError> {
    let names = cage_names(cages);
    let shapes = names
        .into_iter()
        .map(|(i, name)| {
            let cells = cages.cells[i].as_ref().unwrap();
            let total = cells
                .iter()
                .map(|&c| base.symbols.value(solution[c as usize] as usize))
                .sum();
            Shape {
                name,
                rule: Rule::Sum {
                    total,
                    unique: true,
                },
                cells: cells.iter().map(|&c| CellId(c)).collect(),
                kind: ShapeKind::Cage,
            }
        })
        .collect();
    base.with_extra_shapes(shapes)
        .map_err(|e| GenerateError::Option(format!("cannot add the cages: {e}")))
}

/// Cuts the grid into connected cages of distinct symbols.
fn partition<R: Rng>(
    nbrs: &[Vec<u32>],
    solution: &[u8],
    opts: &KillerOptions,
    rng: &mut R,
) -> Cages {
    let n = solution.len();
    let mut owner = vec![usize::MAX; n];
    let mut cages: Vec<Vec<u32>> = Vec::new();
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(rng);
    let mut frontier: Vec<u32> = Vec::new();
    for &start in &order {
        if owner[start as usize] != usize::MAX {
            continue;
        }
        let id = cages.len();
        let size = rng.gen_range(opts.min_size..=opts.max_size);
        let mut cage = vec![start];
        owner[start as usize] = id;
        let mut used = 1u64 << solution[start as usize];
        while cage.len() < size {
            frontier.clear();
            for &c in &cage {
                for &d in &nbrs[c as usize] {
                    if owner[d as usize] == usize::MAX && used & (1u64 << solution[d as usize]) == 0
                    {
                        frontier.push(d);
                    }
                }
            }
            frontier.sort_unstable();
            frontier.dedup();
            let Some(&next) = frontier.choose(rng) else {
                break;
            };
            owner[next as usize] = id;
            used |= 1u64 << solution[next as usize];
            cage.push(next);
        }
        cage.sort_unstable();
        cages.push(cage);
    }
    // undersized cages join a neighbour where they fit
    for i in 0..cages.len() {
        if cages[i].is_empty() || cages[i].len() >= opts.min_size {
            continue;
        }
        let mut options: Vec<usize> = cages[i]
            .iter()
            .flat_map(|&c| nbrs[c as usize].iter().map(|&d| owner[d as usize]))
            .filter(|&j| {
                j != i
                    && cages[j].len() + cages[i].len() <= opts.max_size
                    && mask_of(&cages[j], solution) & mask_of(&cages[i], solution) == 0
            })
            .collect();
        options.sort_unstable();
        options.dedup();
        if let Some(&j) = options.choose(rng) {
            let moved = std::mem::take(&mut cages[i]);
            for &c in &moved {
                owner[c as usize] = j;
            }
            cages[j].extend(moved);
            cages[j].sort_unstable();
        }
    }
    Cages {
        cells: cages
            .into_iter()
            .map(|c| (!c.is_empty()).then_some(c))
            .collect(),
    }
}

/// Splits a cage where `other` differs from `solution` into connected parts.
fn split_for<R: Rng>(
    cages: &mut Cages,
    nbrs: &[Vec<u32>],
    values: &[i64],
    solution: &[u8],
    other: &[u8],
    rng: &mut R,
) {
    let mut candidates: Vec<usize> = cages
        .live()
        .filter(|(_, c)| {
            c.len() > 1 && c.iter().any(|&x| other[x as usize] != solution[x as usize])
        })
        .map(|(i, _)| i)
        .collect();
    candidates.shuffle(rng);
    let Some(&target) = candidates.first() else {
        // cannot happen: a cage-free difference would contradict the first uniqueness of givens
        return;
    };
    let cells = cages.cells[target].take().unwrap();
    let sum = |part: &[u32], s: &[u8]| {
        part.iter()
            .map(|&c| values[s[c as usize] as usize])
            .sum::<i64>()
    };
    let mut best: Option<Vec<Vec<u32>>> = None;
    for _ in 0..8 {
        let parts = random_split(&cells, nbrs, rng);
        let separates = parts.iter().any(|p| sum(p, solution) != sum(p, other));
        if separates || best.is_none() {
            best = Some(parts);
        }
        if separates {
            break;
        }
    }
    for p in best.unwrap() {
        cages.cells.push(Some(p));
    }
}

/// Splits the largest cage (used when a check could not decide within its budget).
fn split_largest<R: Rng>(cages: &mut Cages, nbrs: &[Vec<u32>], rng: &mut R) {
    let Some(target) = cages
        .live()
        .filter(|(_, c)| c.len() > 1)
        .max_by_key(|(i, c)| (c.len(), usize::MAX - i))
        .map(|(i, _)| i)
    else {
        return;
    };
    let cells = cages.cells[target].take().unwrap();
    for p in random_split(&cells, nbrs, rng) {
        cages.cells.push(Some(p));
    }
}

/// Cuts `cells` into a connected piece of about half the size and the connected rest.
fn random_split<R: Rng>(cells: &[u32], nbrs: &[Vec<u32>], rng: &mut R) -> Vec<Vec<u32>> {
    let inside = |c: u32| cells.binary_search(&c).is_ok();
    let half = cells.len() / 2;
    let mut piece = vec![*cells.choose(rng).unwrap()];
    while piece.len() < half.max(1) {
        let mut frontier: Vec<u32> = piece
            .iter()
            .flat_map(|&c| nbrs[c as usize].iter().copied())
            .filter(|&d| inside(d) && !piece.contains(&d))
            .collect();
        frontier.sort_unstable();
        frontier.dedup();
        let Some(&next) = frontier.choose(rng) else {
            break;
        };
        piece.push(next);
    }
    piece.sort_unstable();
    let mut parts = vec![piece.clone()];
    // the rest, as connected components
    let mut left: Vec<u32> = cells
        .iter()
        .copied()
        .filter(|c| !piece.contains(c))
        .collect();
    while let Some(seed) = left.pop() {
        let mut comp = vec![seed];
        let mut k = 0;
        while k < comp.len() {
            let c = comp[k];
            k += 1;
            let mut i = 0;
            while i < left.len() {
                if nbrs[c as usize].binary_search(&left[i]).is_ok() {
                    comp.push(left.swap_remove(i));
                } else {
                    i += 1;
                }
            }
        }
        comp.sort_unstable();
        parts.push(comp);
    }
    parts
}
