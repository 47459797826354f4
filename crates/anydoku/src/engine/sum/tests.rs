//! Every filtering method against a naive enumeration.

use super::combos::list_combos;
use super::*;
use crate::geometry::builtin;
use rand::{Rng, SeedableRng};

/// Naive supports: every assignment of the shape's cells within candidates (distinct values
/// for unique shapes) that reaches the total.
fn naive(values: &[i64], cells: &[Mask], total: i64, unique: bool) -> Option<Vec<Mask>> {
    let k = cells.len();
    let mut keep = vec![0; k];
    let mut found = false;
    let mut pick = vec![0usize; k];
    #[allow(clippy::too_many_arguments)]
    fn go(
        values: &[i64],
        cells: &[Mask],
        total: i64,
        unique: bool,
        j: usize,
        pick: &mut Vec<usize>,
        keep: &mut Vec<Mask>,
        found: &mut bool,
    ) {
        if j == cells.len() {
            let sum: i64 = pick.iter().map(|&t| values[t]).sum();
            if sum == total {
                *found = true;
                for (i, &t) in pick.iter().enumerate() {
                    keep[i] |= 1 << t;
                }
            }
            return;
        }
        for t in 0..values.len() {
            if cells[j] & (1 << t) == 0 || (unique && pick[..j].contains(&t)) {
                continue;
            }
            pick[j] = t;
            go(values, cells, total, unique, j + 1, pick, keep, found);
        }
    }
    go(
        values, cells, total, unique, 0, &mut pick, &mut keep, &mut found,
    );
    found.then_some(keep)
}

/// A 9x9 engine with one extra sum shape on the first `k` cells of row 1.
fn engine_with(k: usize, total: i64, unique: bool, values: &[i64]) -> Engine {
    let g = builtin::load("classic9").unwrap();
    let mut e = Engine::new(&g);
    e.values = values.to_vec();
    e.sums = vec![SumShape {
        cells: (0..k as u32).collect(),
        total,
        unique,
    }];
    // a non-unique shape here has no peers inside, like the naive reference
    e.sum_tables = Tables::new(&e.sums, &e.values, &|_, _| false);
    e
}

#[test]
fn combination_filter_matches_brute_force() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let value_sets: [Vec<i64>; 2] = [(1..=9).collect(), vec![0, 2, 3, 5, 7, 11, 13, 17, 19]];
    for round in 0..3000 {
        let values = &value_sets[round % 2];
        let k = rng.gen_range(1..=5);
        let unique = round % 3 != 0 || k > MAX_ENUM_CELLS;
        let cells: Vec<Mask> = (0..k)
            .map(|_| rng.gen_range(1..(1u64 << 9)) | rng.gen_range(1..(1u64 << 9)))
            .collect();
        // a reachable total most of the time
        let total = (0..k).map(|_| values[rng.gen_range(0..9)]).sum::<i64>();
        let e = engine_with(k, total, unique, values);
        let mut cand = vec![e.full; 81];
        cand[..k].copy_from_slice(&cells);
        let expect = naive(values, &cells, total, unique);
        let got = cage_analysis(&e, 0, &cand);
        match (&expect, &got) {
            (None, None) => {}
            (Some(keep), Some(a)) => {
                let mut after = cells.clone();
                for &(c, m) in &a.eliminations {
                    after[c as usize] &= !m;
                }
                if matches!(e.sum_tables.method(0), Method::Bounds) {
                    for j in 0..k {
                        assert_eq!(after[j] & keep[j], keep[j], "bounds lost a support");
                    }
                } else {
                    assert_eq!(
                        &after, keep,
                        "values {values:?} k {k} total {total} unique {unique} cells {cells:?}"
                    );
                }
            }
            _ => panic!("{expect:?} vs {got:?} for {cells:?} total {total} unique {unique}"),
        }
        // the filter in place agrees with the analysis
        let mut c2 = cand.clone();
        let mut q = Vec::new();
        let r = filter_all(&e, &mut c2, &mut q);
        assert_eq!(r.is_none(), got.is_none());
    }
}

#[test]
fn required_symbol_with_one_place_is_placed() {
    // 3 distinct cells summing to 7 = {1,2,4}; only the first cell may hold 4
    let e = engine_with(3, 7, true, &(1..=9).collect::<Vec<_>>());
    let mut cand = vec![e.full; 81];
    cand[0] = 0b1111; // 1..4
    cand[1] = 0b0011; // 1,2
    cand[2] = 0b0111; // 1..3
    let a = cage_analysis(&e, 0, &cand).unwrap();
    assert_eq!(a.required, 0b1011); // 1, 2, 4
    let mut q = Vec::new();
    filter_all(&e, &mut cand, &mut q).unwrap();
    assert_eq!(cand[0], 0b1000);
    assert_eq!(cand[2], 0b0011);
}

#[test]
fn combos_are_listed_for_custom_values() {
    let values = [10, 20, 30, 40];
    let mut out = Vec::new();
    assert!(list_combos(&values, 2, 50, &mut out).0);
    assert_eq!(out, vec![0b1001, 0b0110]);
}
