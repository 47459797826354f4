//! Groups of cells that must differ inside the sum shapes reasoned on by bounds
//! ([`super::order`]), and the bounds of a sum over such groups.
//!
//! A Little Killer diagonal may repeat digits, but the cells of it that share a box (or any
//! house: they are peers) may not. The plain bounds rule gives such a shape the sum of its
//! cells' smallest values as its least total; with the cells split into groups of pairwise
//! peers, a group's least total is that of *distinct* values at or above its cells' lower bounds
//! (three cells of a box at least 1: 1 + 2 + 3, not 1 + 1 + 1), and likewise for the largest.
//! That holds only when distinct symbols have distinct values; otherwise every cell is its own
//! group and the rule is the plain one.
//!
//! The bounds stay functions of the cells' order literals alone (the groups are fixed by the
//! model), so explanations keep one order literal per other cell; they are loosened one rank
//! at a time while the deduction holds, since a group's bound is not linear in its cells'.
//!
//! The split into groups is greedy in the shape's cell order (a cell joins the first group
//! whose cells are all its peers). To use more structure (a cell in two groups, or a matching
//! between groups and symbols), change [`Groups::new`] and [`group_bound`] together; the
//! propagator ([`tighten`]) and the explanations call only these.

use crate::engine::Engine;

/// The groups of pairwise peers of each bounded sum shape.
pub(super) struct Groups {
    /// Per shape: where its cell positions (in group order) begin in `members`.
    member_start: Vec<u32>,
    /// Cell positions within their shape, group after group.
    members: Vec<u8>,
    /// Per shape: where its group ends begin in `ends`.
    end_start: Vec<u32>,
    /// Per group: the end of its positions in its shape's slice of `members`.
    ends: Vec<u8>,
}

impl Groups {
    /// Splits the cells of every shape with `bounded[i]` into groups of pairwise peers (one cell
    /// per group unless `distinct`: distinct symbols have distinct values).
    pub(super) fn new(e: &Engine, bounded: &[bool], distinct: bool) -> Self {
        let mut g = Groups {
            member_start: vec![0],
            members: Vec::new(),
            end_start: vec![0],
            ends: Vec::new(),
        };
        for (i, s) in e.sums.iter().enumerate() {
            // group index of each cell position
            let mut of: Vec<usize> = Vec::new();
            let mut n_groups = 0;
            if bounded[i] {
                for (j, &c) in s.cells.iter().enumerate() {
                    let peer = |q: usize| s.unique || e.peers(c as usize).contains(&s.cells[q]);
                    let joined = (0..n_groups)
                        .find(|&grp| (0..j).filter(|&q| of[q] == grp).all(peer) && distinct);
                    of.push(joined.unwrap_or_else(|| {
                        n_groups += 1;
                        n_groups - 1
                    }));
                }
            }
            for grp in 0..n_groups {
                g.members
                    .extend((0..of.len()).filter(|&j| of[j] == grp).map(|j| j as u8));
                g.ends
                    .push((g.members.len() - *g.member_start.last().unwrap_or(&0) as usize) as u8);
            }
            g.member_start.push(g.members.len() as u32);
            g.end_start.push(g.ends.len() as u32);
        }
        g
    }

    /// Shape `i`'s cell positions in group order, and the end of each group among them.
    #[inline]
    pub(super) fn of(&self, i: usize) -> (&[u8], &[u8]) {
        (
            &self.members[self.member_start[i] as usize..self.member_start[i + 1] as usize],
            &self.ends[self.end_start[i] as usize..self.end_start[i + 1] as usize],
        )
    }
}

/// The least (`low`) or largest sum of distinct levels, one per rank of `ranks`, each at or
/// above (at or below) its rank; `None` when there are not enough levels. Sorts `ranks`.
#[inline]
pub(super) fn group_bound(levels: &[i64], ranks: &mut [u8], low: bool) -> Option<i64> {
    let top = levels.len() as i32;
    let mut sum = 0;
    if low {
        ranks.sort_unstable();
        let mut prev = -1i32;
        for &r in ranks.iter() {
            prev = (r as i32).max(prev + 1);
            if prev >= top {
                return None;
            }
            sum += levels[prev as usize];
        }
    } else {
        ranks.sort_unstable_by(|a, b| b.cmp(a));
        let mut prev = top;
        for &r in ranks.iter() {
            prev = (r as i32).min(prev - 1);
            if prev < 0 {
                return None;
            }
            sum += levels[prev as usize];
        }
    }
    Some(sum)
}

/// The bound of the group `group` (cell positions) on the ranks `rank` (by position), leaving
/// out position `skip`.
#[inline]
pub(super) fn bound_without(
    levels: &[i64],
    group: &[u8],
    rank: &[u8],
    skip: usize,
    low: bool,
) -> Option<i64> {
    let mut buf = [0u8; 64];
    let mut n = 0;
    for &q in group {
        if q as usize != skip {
            buf[n] = rank[q as usize];
            n += 1;
        }
    }
    group_bound(levels, &mut buf[..n], low)
}

/// The bounds rule of `Σ x = total` over groups of distinct values: from the cells' rank
/// bounds `lo` and `hi` (by position), each cell's new bounds in `new_lo` and `new_hi` (never
/// looser); `Err(())` when the total is out of reach.
#[allow(clippy::too_many_arguments)]
pub(super) fn tighten(
    levels: &[i64],
    total: i64,
    (members, ends): (&[u8], &[u8]),
    lo: &[u8],
    hi: &[u8],
    new_lo: &mut [u8],
    new_hi: &mut [u8],
) -> Result<(), ()> {
    let mut group_lo = [0i64; 64];
    let mut group_hi = [0i64; 64];
    let (mut sum_lo, mut sum_hi) = (0i64, 0i64);
    let mut from = 0;
    for (g, &end) in ends.iter().enumerate() {
        let group = &members[from..end as usize];
        group_lo[g] = bound_without(levels, group, lo, usize::MAX, true).ok_or(())?;
        group_hi[g] = bound_without(levels, group, hi, usize::MAX, false).ok_or(())?;
        sum_lo += group_lo[g];
        sum_hi += group_hi[g];
        from = end as usize;
    }
    if sum_lo > total || sum_hi < total {
        return Err(());
    }
    let mut from = 0;
    for (g, &end) in ends.iter().enumerate() {
        let group = &members[from..end as usize];
        for &q in group {
            let j = q as usize;
            // the others' bounds: the other groups', and this group's without the cell
            let other_hi =
                sum_hi - group_hi[g] + bound_without(levels, group, hi, j, false).unwrap_or(0);
            let other_lo =
                sum_lo - group_lo[g] + bound_without(levels, group, lo, j, true).unwrap_or(0);
            let need = total - other_hi;
            let most = total - other_lo;
            new_lo[j] = lo[j].max(levels.partition_point(|&v| v < need) as u8);
            new_hi[j] = hi[j].min((levels.partition_point(|&v| v <= most) as u8).saturating_sub(1));
        }
        from = end as usize;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_bounds_take_distinct_values() {
        let levels = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        // three cells at least 1 (ranks 0): 1 + 2 + 3; ranks 0, 0, 4: 1 + 2 + 5
        assert_eq!(group_bound(&levels, &mut [0, 0, 0], true), Some(6));
        assert_eq!(group_bound(&levels, &mut [4, 0, 0], true), Some(8));
        assert_eq!(group_bound(&levels, &mut [8, 8, 7], false), Some(24));
        assert_eq!(group_bound(&levels, &mut [8, 8], true), None);
        assert_eq!(group_bound(&levels, &mut [0, 0], false), None);
        // three peers adding up to 6 are 1, 2 and 3; apart, each could be up to 4
        let (mut new_lo, mut new_hi) = ([0u8; 3], [0u8; 3]);
        let together = (&[0u8, 1, 2][..], &[3u8][..]);
        tighten(
            &levels,
            6,
            together,
            &[0; 3],
            &[8; 3],
            &mut new_lo,
            &mut new_hi,
        )
        .unwrap();
        assert_eq!((new_lo, new_hi), ([0; 3], [2; 3]));
        let apart = (&[0u8, 1, 2][..], &[1u8, 2, 3][..]);
        tighten(
            &levels,
            6,
            apart,
            &[0; 3],
            &[8; 3],
            &mut new_lo,
            &mut new_hi,
        )
        .unwrap();
        assert_eq!((new_lo, new_hi), ([0; 3], [3; 3]));
        // 25 in three peers needs more than 9 + 8 + 7
        assert_eq!(
            tighten(
                &levels,
                25,
                together,
                &[0; 3],
                &[8; 3],
                &mut new_lo,
                &mut new_hi
            ),
            Err(())
        );
    }

    /// Brute force: every assignment of levels within the bounds, distinct inside each group,
    /// adding up to the total; the tightened bounds must keep every one of them, and report no
    /// solution only when there is none.
    #[test]
    fn tighten_never_cuts_a_solution() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let levels = [-1i64, 2, 3, 5, 8];
        let top = levels.len() as u8;
        for _ in 0..3000 {
            let k = rng.gen_range(1..=5usize);
            let mut group_of = [0usize; 5];
            let n_groups = rng.gen_range(1..=k);
            for g in group_of.iter_mut().take(k) {
                *g = rng.gen_range(0..n_groups);
            }
            let mut members = Vec::new();
            let mut ends = Vec::new();
            for g in 0..n_groups {
                members.extend((0..k).filter(|&j| group_of[j] == g).map(|j| j as u8));
                if members.len() > ends.last().map_or(0, |&e: &u8| e as usize) {
                    ends.push(members.len() as u8);
                }
            }
            let mut lo = [0u8; 5];
            let mut hi = [0u8; 5];
            for j in 0..k {
                let a = rng.gen_range(0..top);
                let b = rng.gen_range(0..top);
                lo[j] = a.min(b);
                hi[j] = a.max(b);
            }
            let total = rng.gen_range(-3..30i64);
            // every solution, by brute force
            let mut sols = Vec::new();
            let mut x = [0u8; 5];
            'all: loop {
                let ok = (0..k).all(|j| x[j] >= lo[j] && x[j] <= hi[j])
                    && (0..k).all(|a| (0..a).all(|b| group_of[a] != group_of[b] || x[a] != x[b]))
                    && (0..k).map(|j| levels[x[j] as usize]).sum::<i64>() == total;
                if ok {
                    sols.push(x);
                }
                for digit in x.iter_mut().take(k) {
                    *digit += 1;
                    if *digit < top {
                        continue 'all;
                    }
                    *digit = 0;
                }
                break;
            }
            let mut new_lo = [0u8; 5];
            let mut new_hi = [0u8; 5];
            let r = tighten(
                &levels,
                total,
                (&members, &ends),
                &lo[..k],
                &hi[..k],
                &mut new_lo[..k],
                &mut new_hi[..k],
            );
            match r {
                Err(()) => assert!(sols.is_empty(), "{lo:?} {hi:?} {total} {group_of:?}"),
                Ok(()) => {
                    for s in &sols {
                        for j in 0..k {
                            assert!(s[j] >= new_lo[j] && s[j] <= new_hi[j], "cut {s:?}");
                        }
                    }
                    for j in 0..k {
                        assert!(new_lo[j] >= lo[j] && new_hi[j] <= hi[j]);
                    }
                }
            }
        }
    }
}
