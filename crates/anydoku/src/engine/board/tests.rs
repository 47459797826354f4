//! The bitboard kernel against the cell-major kernel, and its plain copy against its AVX-512
//! copy (nodes included).

use crate::engine::{Engine, Limits, Options, Switch};
use crate::geometry::builtin;
use rand::{Rng, SeedableRng};

fn engines(name: &str, overlaps: Switch) -> (Engine, Engine) {
    let g = builtin::load(name).unwrap();
    let with = |board: bool| {
        Engine::with_options(
            &g,
            Options {
                board: board.into(),
                overlaps,
                ..Default::default()
            },
        )
    };
    (with(true), with(false))
}

/// Random givens taken from `grid`, how many drawn from `range`, about one in twenty of
/// them a random symbol instead (often a wrong given).
fn random_givens(
    rng: &mut impl Rng,
    grid: &[u8],
    range: std::ops::Range<i32>,
    n_symbols: usize,
) -> Vec<Option<u8>> {
    let mut givens = vec![None; grid.len()];
    for _ in 0..rng.gen_range(range) {
        let c = rng.gen_range(0..grid.len());
        givens[c] = Some(if rng.gen_bool(0.05) {
            rng.gen_range(0..n_symbols as u8)
        } else {
            grid[c]
        });
    }
    givens
}

/// Whether `sol` fills every cell and no two peers share a symbol.
fn valid(e: &Engine, givens: &[Option<u8>], sol: &[u8]) -> bool {
    sol.len() == e.n_cells
        && sol.iter().all(|&s| (s as usize) < e.n_symbols)
        && givens
            .iter()
            .zip(sol)
            .all(|(g, &s)| g.is_none_or(|g| g == s))
        && (0..e.n_cells).all(|c| e.peers(c).iter().all(|&p| sol[p as usize] != sol[c]))
}

/// The bitboard kernel counts what the cell-major kernel counts, on random partial grids of
/// several layouts (some with a wrong given), and every solution it reports is valid.
#[test]
fn counts_agree_with_the_cell_major_kernel() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let layouts = [
        ("classic4", 1..6, Switch::Auto),
        ("classic6", 3..14, Switch::Auto),
        ("classic9", 14..30, Switch::Auto),
        ("classic9", 14..30, Switch::On),
        ("x", 10..24, Switch::Auto),
        ("jigsaw", 12..26, Switch::Auto),
        ("toroidal", 12..26, Switch::Auto),
        ("windoku", 10..24, Switch::Auto),
        ("classic16", 90..140, Switch::Auto),
        ("samurai", 110..160, Switch::Auto),
        ("gattai8", 170..240, Switch::Auto),
    ];
    for (name, range, overlaps) in layouts {
        let (board, cells) = engines(name, overlaps);
        assert!(board.board.is_some(), "{name}: no bitboard form");
        let n = board.n_cells;
        let grid = cells.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
        let (mut unique, mut multiple, mut none) = (0, 0, 0);
        for _ in 0..60 {
            let givens = random_givens(&mut rng, &grid, range.clone(), board.n_symbols);
            let limits = Limits {
                max_nodes: Some(200_000),
                max_time: None,
            };
            let a = board.count(&givens, 20, limits);
            let b = cells.count(&givens, 20, limits);
            if !a.complete || !b.complete {
                continue;
            }
            assert_eq!(a.count, b.count, "{name}: {givens:?}");
            for sol in &a.solutions {
                assert!(valid(&board, &givens, sol), "{name}: {sol:?}");
            }
            if a.count == 1 {
                assert_eq!(a.solutions, b.solutions, "{name}");
            }
            match a.count {
                0 => none += 1,
                1 => unique += 1,
                _ => multiple += 1,
            }
        }
        assert!(
            unique + multiple + none >= 40,
            "{name}: too many budget stops"
        );
        assert!(
            multiple > 0 && unique + none > 0,
            "{name}: {unique} {multiple} {none}"
        );
    }
}

/// The kernel compiled for AVX-512, which counts hidden singles with [`super::Tally`],
/// counts what the plain kernel counts, and finds the same solutions, on random partial
/// grids of every narrow layout (some with a wrong given). On a CPU without the instructions
/// both engines run the plain kernel and the test says so.
#[test]
fn vector_and_plain_kernels_agree() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
    // a 9x9 with the nine disjoint groups (the same place in every box) as well: 36
    // complete shapes, more than `Overlaps` takes, so overlaps go shape by shape there
    let mut disjoint = String::from("name = \"Disjoint\"\nsymbols = \"123456789\"\n");
    disjoint.push_str("[[grid]]\nsize = 9\nboxes = [3, 3]\n");
    for k in 0..9 {
        let cells: Vec<String> = (0..81)
            .filter(|c| (c / 9 % 3) * 3 + c % 3 == k)
            .map(|c| format!("r{}c{}", c / 9 + 1, c % 9 + 1))
            .collect();
        disjoint.push_str(&format!("[[shape]]\ncells = \"{}\"\n", cells.join(" ")));
    }
    let layouts = [
        ("classic4", 3..9),
        ("classic6", 8..20),
        ("classic9", 30..44),
        ("x", 26..40),
        ("jigsaw", 30..44),
        ("toroidal", 30..44),
        ("windoku", 26..40),
        ("disjoint", 26..40),
    ];
    for (name, range) in layouts {
        let g = match name {
            "disjoint" => crate::geometry::build::from_toml(&disjoint).unwrap(),
            _ => builtin::load(name).unwrap(),
        };
        let with = |vector: bool| {
            Engine::with_options(
                &g,
                Options {
                    vector: vector.into(),
                    ..Default::default()
                },
            )
        };
        let (vector, plain) = (with(true), with(false));
        let board = vector.board.as_ref().expect("narrow layouts fit a board");
        assert!(plain.board.as_ref().unwrap().tally.is_none());
        if board.tally.is_none() {
            assert!(
                !super::Tally::supported(),
                "{name}: no tally on a capable CPU"
            );
            eprintln!("no AVX-512 population count here: only the plain kernel ran");
            return;
        }
        // the overlap pass over every overlap at once where it fits, else shape by shape
        assert_eq!(board.overlaps.is_some(), name != "disjoint", "{name}");
        let n = vector.n_cells;
        let grid = plain.count(&vec![None; n], 1, Limits::none()).solutions[0].clone();
        let mut seen = [0; 3];
        for _ in 0..200 {
            let givens = random_givens(&mut rng, &grid, range.clone(), vector.n_symbols);
            let limits = Limits {
                max_nodes: Some(100_000),
                max_time: None,
            };
            let a = vector.count(&givens, 10, limits);
            let b = plain.count(&givens, 10, limits);
            if !a.complete || !b.complete {
                continue;
            }
            assert_eq!((a.count, &a.solutions), (b.count, &b.solutions), "{name}");
            // the same rules to the same fixpoint: the same search, node for node (a pass
            // of the AVX-512 copy that missed a deduction would cost nodes, not answers)
            assert_eq!(a.nodes, b.nodes, "{name}: nodes of the two copies");
            for sol in &a.solutions {
                assert!(valid(&vector, &givens, sol), "{name}: {sol:?}");
            }
            seen[a.count.min(2) as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k > 0), "{name}: {seen:?}");
    }
}

/// A given that is not a symbol, or two equal givens that see each other, leave no
/// solution in every copy of the kernel (the AVX-512 one reads givens as bytes).
#[test]
fn bad_givens_have_no_solution_in_either_copy() {
    for name in ["classic4", "classic9", "windoku"] {
        let g = builtin::load(name).unwrap();
        for vector in [true, false] {
            let e = Engine::with_options(
                &g,
                Options {
                    vector: vector.into(),
                    ..Default::default()
                },
            );
            let n = e.n_cells;
            let mut givens = vec![None; n];
            assert_eq!(e.count(&givens, 1, Limits::none()).count, 1, "{name}");
            givens[n - 1] = Some(e.n_symbols as u8);
            assert_eq!(e.count(&givens, 1, Limits::none()).count, 0, "{name}");
            givens[n - 1] = Some(u8::MAX);
            assert_eq!(e.count(&givens, 1, Limits::none()).count, 0, "{name}");
            givens[n - 1] = None;
            givens[0] = Some(1);
            givens[e.peers(0)[0] as usize] = Some(1);
            assert_eq!(e.count(&givens, 1, Limits::none()).count, 0, "{name}");
        }
    }
}

/// `keep_solutions` changes what is returned, not what is counted, in both kernels (and on
/// the empty 4x4 classic, whose 288 grids are counted either way).
#[test]
fn kept_solutions_do_not_change_counts() {
    let (board, plain) = engines("classic4", Switch::Auto);
    for e in [&board, &plain] {
        let mut s = crate::engine::search::Searcher::new(e);
        let givens = [None; 16];
        let all = s.count(&givens, 1_000, Limits::none());
        assert_eq!((all.count, all.solutions.len()), (288, 2));
        for keep in [0, 1, 2, 5] {
            s.keep_solutions(keep);
            let got = s.count(&givens, 1_000, Limits::none());
            assert_eq!(got.count, 288, "keep {keep}");
            assert_eq!(got.solutions.len(), keep.min(2), "keep {keep}");
            assert_eq!(
                got.solutions[..],
                all.solutions[..keep.min(2)],
                "keep {keep}"
            );
            let unique = s.count(
                &all.solutions[0]
                    .iter()
                    .map(|&v| Some(v))
                    .collect::<Vec<_>>(),
                2,
                Limits::none(),
            );
            assert_eq!((unique.count, unique.solutions.len()), (1, keep.min(1)));
        }
    }
}

/// A known exact count through the bitboard kernel: the empty 4x4 classic has 288 grids.
#[test]
fn empty_4x4_has_288_grids() {
    let (board, _) = engines("classic4", Switch::Auto);
    let got = board.count(&[None; 16], 1_000, Limits::none());
    assert_eq!((got.count, got.complete), (288, true));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// Any givens on a 6x6 (consistent or not): both kernels count the same solutions, up
    /// to 50, and agree on the first one when it is unique.
    #[test]
    fn kernels_agree_on_any_6x6_givens(
        givens in proptest::collection::vec(proptest::option::weighted(0.12, 0u8..6), 36)
    ) {
        let (board, cells) = engines("classic6", Switch::Auto);
        let a = board.count(&givens, 50, Limits::none());
        let b = cells.count(&givens, 50, Limits::none());
        proptest::prop_assert_eq!(a.count, b.count);
        if a.count == 1 {
            proptest::prop_assert_eq!(&a.solutions, &b.solutions);
        }
    }
}
