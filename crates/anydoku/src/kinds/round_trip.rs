//! Round trips of every registered kind through the file formats, driven from the registry
//! (a new kind is covered without a line here).
//!
//! On the classic 4x4, instances planted from a random solution ([`Kind::plant`]) must read
//! back exactly from the TOML puzzle file and from the neutral JSON model. Written to f-puzzles
//! JSON and imported again they must keep the same solution set (every grid of the classic
//! 4x4 filtered by the kinds' checkers alone), or the export must be refused naming the shape's
//! kind. Instances are also planted on single lines of the board (rows, columns, diagonals read
//! from either end, and the whole board for patterns), the shapes f-puzzles draws outside
//! clues for; every kind with an f-puzzles form must write some instance, and a kind without
//! one must say that f-puzzles has no such constraint.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{rule, Kind, KINDS};
use crate::geometry::{CellId, Geometry, Shape, ShapeKind};
use crate::puzzle::{fpuzzles, Puzzle};

/// Kinds whose f-puzzles form spans several shapes (a minimum cell is an inequality with
/// each neighbour), which one planted instance never makes: their own tests write them.
const SPANNING: &[&str] = &["inequality"];

/// What became of one instance's f-puzzles round trip.
enum Fp {
    Same,
    Refused(String),
}

/// The shapes of `g` as the formats carry them: name, rule and cells.
fn rules(g: &Geometry) -> Vec<(&str, &crate::geometry::Rule, &[CellId])> {
    g.shapes
        .iter()
        .map(|s| (s.name.as_str(), &s.rule, s.cells.as_slice()))
        .collect()
}

/// The grids of `grids` that every shape of `g` accepts, by the kinds' checkers alone.
fn accepted(g: &Geometry, grids: &[Vec<u8>]) -> Vec<Vec<u8>> {
    grids
        .iter()
        .filter(|grid| g.shapes.iter().all(|s| super::check(s, g, grid).is_ok()))
        .cloned()
        .collect()
}

/// Puts `shape` on `base` and runs the three round trips; `None` when the layout turns the
/// instance down.
fn round_trip(base: &Geometry, shape: Shape, grids: &[Vec<u8>]) -> Option<Fp> {
    let kind = super::of(&shape.rule);
    let g = base.with_extra_shapes(vec![shape]).ok()?;
    let p = Puzzle::empty(Arc::new(g));
    let what = format!("{}: {:?}", kind.name(), p.geometry.shapes.last());
    let toml = p.to_toml("classic4", base.shapes.len(), "").expect("TOML");
    let back = Puzzle::from_toml(&toml).unwrap_or_else(|e| panic!("{what}: {e}\n{toml}"));
    assert_eq!(
        rules(&back.geometry),
        rules(&p.geometry),
        "{what}: TOML\n{toml}"
    );
    let json = p.to_json().to_string();
    let back = Puzzle::from_json(&json).unwrap_or_else(|e| panic!("{what}: {e}\n{json}"));
    assert_eq!(
        rules(&back.geometry),
        rules(&p.geometry),
        "{what}: JSON model"
    );
    let v = match fpuzzles::to_json(&p) {
        Ok(v) => v,
        Err(e) => return Some(Fp::Refused(e.to_string())),
    };
    let back = fpuzzles::from_value(&v).unwrap_or_else(|e| panic!("{what}: {e}\n{v}"));
    let board = |g: &Geometry| g.cells.iter().map(|c| c.board).collect::<Vec<_>>();
    assert_eq!(
        board(&back.geometry),
        board(&p.geometry),
        "{what}: the cells' order"
    );
    let (want, got) = (
        accepted(&p.geometry, grids),
        accepted(&back.geometry, grids),
    );
    assert_eq!(got, want, "{what}: f-puzzles changes the solutions\n{v}");
    Some(Fp::Same)
}

/// The lines f-puzzles draws clues beside (rows, columns and diagonals from either end) and
/// its 2x2 blocks.
fn lines(n: i64) -> Vec<Vec<(i64, i64)>> {
    let mut out: Vec<Vec<(i64, i64)>> = Vec::new();
    for i in 1..=n {
        out.push((1..=n).map(|j| (i, j)).collect());
        out.push((1..=n).map(|j| (j, i)).collect());
    }
    for d in -(n - 2)..=(n - 2) {
        out.push(
            (1..=n)
                .map(|r| (r, r + d))
                .filter(|p| (1..=n).contains(&p.1))
                .collect(),
        );
        out.push(
            (1..=n)
                .map(|r| (r, n + 1 - r + d))
                .filter(|p| (1..=n).contains(&p.1))
                .collect(),
        );
    }
    let reversed: Vec<_> = out
        .iter()
        .map(|l| l.iter().rev().copied().collect())
        .collect();
    out.extend(reversed);
    // the 2x2 blocks quadruples sit on
    for r in 1..n {
        for c in 1..n {
            out.push(vec![(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]);
        }
    }
    out
}

/// An instance of `kind` planted on the cells `line` of `base` alone (they form a layout of
/// their own), in `base`'s cell ids.
fn plant_on(
    kind: &dyn Kind,
    base: &Geometry,
    line: &[CellId],
    grid: &[u8],
    rng: &mut ChaCha8Rng,
) -> Option<(Vec<CellId>, Vec<i64>)> {
    let cells = line.iter().map(|&c| base.cell(c).clone()).collect();
    let sub = Geometry::new("line".into(), base.symbols.clone(), cells, Vec::new()).ok()?;
    let sub_grid: Vec<u8> = line.iter().map(|c| grid[c.index()]).collect();
    let (cells, params) = kind.plant(&sub, &sub_grid, rng)?;
    Some((cells.iter().map(|c| line[c.index()]).collect(), params))
}

#[test]
fn every_kind_round_trips_through_the_formats() {
    let base = Geometry::builtin("classic4").expect("classic4");
    let grids = super::harness::brute_force(&base);
    assert_eq!(grids.len(), 288);
    let at = |(r, c): (i64, i64)| {
        let i = base
            .cells
            .iter()
            .position(|x| x.board == Some((r as i32, c as i32)));
        CellId(i.expect("a board cell") as u32)
    };
    let mut lines: Vec<Vec<CellId>> = lines(4)
        .into_iter()
        .map(|l| l.into_iter().map(at).collect())
        .collect();
    lines.push((0..base.cell_count() as u32).map(CellId).collect());
    for (id, &kind) in KINDS.iter().enumerate().skip(2) {
        let mut rng = ChaCha8Rng::seed_from_u64(0xf0 ^ id as u64);
        let (mut written, mut refused) = (0, Vec::new());
        let mut tally = |fp: Option<Fp>| match fp {
            Some(Fp::Same) => written += 1,
            Some(Fp::Refused(m)) => refused.push(m),
            None => {}
        };
        for _ in 0..40 {
            let grid = grids.choose(&mut rng).expect("a grid");
            if let Some((cells, params)) = kind.plant(&base, grid, &mut rng) {
                if kind.is_pattern() {
                    // on every cell too, as f-puzzles has its patterns, whether or not a
                    // grid keeps it
                    let all = (0..base.cell_count() as u32).map(CellId).collect();
                    tally(round_trip(
                        &base,
                        shape(kind, id, all, params.clone()),
                        &grids,
                    ));
                }
                tally(round_trip(&base, shape(kind, id, cells, params), &grids));
            }
        }
        for line in &lines {
            for _ in 0..30 {
                let grid = grids.choose(&mut rng).expect("a grid");
                if let Some((cells, params)) = plant_on(kind, &base, line, grid, &mut rng) {
                    tally(round_trip(&base, shape(kind, id, cells, params), &grids));
                }
            }
        }
        let name = format!("rule \"{}\"", kind.name());
        assert!(
            refused.iter().all(|m| m.contains(&name)),
            "{name}: a refusal does not name the kind: {:?}",
            refused.iter().find(|m| !m.contains(&name))
        );
        let unsupported = format!("f-puzzles has no \"{}\" constraint", kind.name());
        if refused.iter().any(|m| m.contains(&unsupported)) {
            assert_eq!(
                written, 0,
                "{name}: written, yet said to have no f-puzzles form"
            );
            assert!(
                kind.fpuzzles_keys().is_empty(),
                "{name}: read from f-puzzles, never written"
            );
        } else if !SPANNING.contains(&kind.name()) {
            assert!(
                written > 0,
                "{name}: no instance written to f-puzzles: {:?}",
                &refused[..refused.len().min(3)]
            );
        }
    }
}

/// A shape of kind `kind` (id `id`) as the round trips carry it.
fn shape(kind: &dyn Kind, id: usize, cells: Vec<CellId>, params: Vec<i64>) -> Shape {
    Shape {
        name: format!("{} 1", kind.title()),
        rule: rule(id as u16, params),
        cells,
        kind: ShapeKind::Extra,
    }
}

/// Minimum and maximum cells read from f-puzzles write back as the same cells.
#[test]
fn minimum_and_maximum_cells_write_back() {
    let grid: Vec<Vec<serde_json::Value>> = (0..4)
        .map(|r| {
            (0..4)
                .map(|c| serde_json::json!({ "region": (r / 2) * 2 + c / 2 }))
                .collect()
        })
        .collect();
    let v = serde_json::json!({
        "size": 4,
        "grid": grid,
        "minimum": [{ "cell": "R1C1" }, { "cell": "R2C2" }, { "cell": "R3C2" }],
        "maximum": [{ "cell": "R4C4" }],
    });
    let p = fpuzzles::parse(&v.to_string()).expect("reads");
    let out = fpuzzles::to_json(&p).expect("writes");
    assert_eq!(out["minimum"], v["minimum"]);
    assert_eq!(out["maximum"], v["maximum"]);
    let back = fpuzzles::from_value(&out).expect("reads back");
    assert_eq!(rules(&back.geometry), rules(&p.geometry));
    // one sign alone is no minimum or maximum cell: refused by name
    let g = Geometry::builtin("classic4").expect("classic4");
    let (id, kind) = super::by_name("inequality").expect("registered");
    let lone = shape(kind, id as usize, vec![CellId(5), CellId(6)], Vec::new());
    let p = Puzzle::empty(Arc::new(g.with_extra_shapes(vec![lone]).expect("a layout")));
    let e = fpuzzles::to_json(&p).expect_err("refused");
    assert!(e.to_string().contains("rule \"inequality\""), "{e}");
}
