//! The game behind `play`: one puzzle, its solution, and the answers the page asks for (the
//! board to draw, conflicts, wrong entries, the next logical step, the solution, an export), as
//! JSON values built from the library's public API only. Nothing here knows about HTTP: the
//! request handlers in [`super::api`] run these functions on the blocking pool.
//!
//! Cells are addressed by index (the order of the geometry and of the SVG's `data-cell`) in
//! answers, and by name in requests (`entries`: `{cell name: symbol}`), as in the JSON model.
//! To answer a new question, add a method here and a route in [`super::api`].

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anydoku::logic::{Board, Family, Logic};
use anydoku::{render, Engine, Limits, Puzzle, Status};
use serde_json::{json, Map, Value};

/// The budget of the search that finds (and proves unique) a puzzle's solution.
const SOLVE_LIMITS: Limits = Limits {
    max_nodes: Some(20_000_000),
    max_time: Some(Duration::from_secs(20)),
};

/// A request the game cannot answer: the message says what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub String);

/// The puzzle's solution, once searched for.
#[derive(Debug)]
struct Solved {
    status: Status,
    /// The solution when it is unique.
    grid: Option<Vec<u8>>,
}

/// One puzzle being played.
#[derive(Debug)]
pub struct Game {
    pub puzzle: Puzzle,
    /// Stable across runs: a hash of the puzzle's JSON model (the page keys its saved state by it).
    pub id: String,
    /// The neutral JSON model of the puzzle.
    pub model: Value,
    solved: OnceLock<Solved>,
}

/// FNV-1a, 64 bits: a stable hash for puzzle ids (not for security).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Game {
    /// A game of a puzzle.
    pub fn new(puzzle: Puzzle) -> Arc<Game> {
        let model = puzzle.to_json();
        let id = format!("{:016x}", fnv1a(model.to_string().as_bytes()));
        Arc::new(Game {
            puzzle,
            id,
            model,
            solved: OnceLock::new(),
        })
    }

    /// A game from a JSON model sent by a client.
    pub fn from_model(model: &Value) -> Result<Arc<Game>, Invalid> {
        let p = Puzzle::from_json(&model.to_string()).map_err(|e| Invalid(e.to_string()))?;
        if let Some(c) = p.conflicts().first() {
            return Err(Invalid(format!(
                "the givens break a rule: {}",
                p.describe(c)
            )));
        }
        Ok(Game::new(p))
    }

    fn solved(&self) -> &Solved {
        self.solved.get_or_init(|| {
            let r = Engine::new(&self.puzzle.geometry).solve(&self.puzzle.givens, SOLVE_LIMITS);
            let status = r.status();
            let grid = match status {
                Status::Unique => r.solutions.into_iter().next(),
                _ => None,
            };
            Solved { status, grid }
        })
    }

    fn symbol(&self, v: u8) -> &str {
        self.puzzle.geometry.symbols.symbol(v as usize)
    }

    /// What the page needs to draw and play the puzzle.
    pub fn view(&self) -> Value {
        let p = &self.puzzle;
        let g = &p.geometry;
        let givens: Vec<Value> = p
            .givens
            .iter()
            .map(|v| v.map_or(Value::Null, |v| json!(self.symbol(v))))
            .collect();
        json!({
            "id": self.id,
            "name": g.name,
            "status": self.solved().status.as_str(),
            "symbols": g.symbols.symbols(),
            "cells": g.cells.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            "givens": givens,
            "svg": render::svg(g, &p.givens, &p.givens),
            "model": self.model,
        })
    }

    /// The givens plus the client's `entries` (`{cell name: symbol}`; `null` or `""` is empty).
    pub fn grid(&self, entries: Option<&Value>) -> Result<Vec<Option<u8>>, Invalid> {
        let g = &self.puzzle.geometry;
        let mut grid = self.puzzle.givens.clone();
        let map = match entries {
            None | Some(Value::Null) => return Ok(grid),
            Some(Value::Object(m)) => m,
            Some(_) => return Err(Invalid("entries must be an object {cell: symbol}".into())),
        };
        for (name, v) in map {
            let c = g
                .cell_id(name)
                .ok_or_else(|| Invalid(format!("unknown cell '{name}'")))?
                .index();
            let s = match v {
                Value::Null => continue,
                Value::String(s) if s.is_empty() => continue,
                Value::String(s) => s,
                _ => return Err(Invalid(format!("the entry of {name} must be a string"))),
            };
            let v = g.symbols.index_of(s).ok_or_else(|| {
                Invalid(format!(
                    "'{s}' (cell {name}) is not a symbol of this puzzle (symbols: {})",
                    g.symbols.symbols().join(" ")
                ))
            })? as u8;
            match grid[c] {
                Some(given) if given != v => {
                    return Err(Invalid(format!(
                        "{name} is a given ({}); it cannot hold '{s}'",
                        self.symbol(given)
                    )))
                }
                _ => grid[c] = Some(v),
            }
        }
        Ok(grid)
    }

    /// The broken rules of a grid, each with its cells.
    fn conflicts(&self, grid: &[Option<u8>]) -> Vec<Value> {
        let probe = Puzzle {
            geometry: self.puzzle.geometry.clone(),
            givens: grid.to_vec(),
        };
        let g = &probe.geometry;
        probe
            .conflicts()
            .iter()
            .map(|c| {
                let cells: Vec<usize> = match c {
                    anydoku::puzzle::Conflict::Repeat { cells: (a, b), .. } => {
                        vec![a.index(), b.index()]
                    }
                    anydoku::puzzle::Conflict::Sum { shape, .. }
                    | anydoku::puzzle::Conflict::Broken { shape, .. } => {
                        g.shape(*shape).cells.iter().map(|c| c.index()).collect()
                    }
                };
                json!({"cells": cells, "text": probe.describe(c)})
            })
            .collect()
    }

    /// Entries (not givens) that differ from the unique solution; `None` without one.
    fn wrong(&self, grid: &[Option<u8>]) -> Option<Vec<usize>> {
        let sol = self.solved().grid.as_ref()?;
        Some(
            (0..grid.len())
                .filter(|&c| self.puzzle.givens[c].is_none())
                .filter(|&c| grid[c].is_some_and(|v| v != sol[c]))
                .collect(),
        )
    }

    /// Conflicts, completeness and (with `against_solution`) the entries that differ from the
    /// solution.
    pub fn check(&self, grid: &[Option<u8>], against_solution: bool) -> Value {
        let conflicts = self.conflicts(grid);
        let complete = grid.iter().all(Option::is_some);
        let mut out = json!({
            "conflicts": conflicts,
            "complete": complete,
            "solved": complete && conflicts.is_empty(),
            "filled": grid.iter().filter(|v| v.is_some()).count(),
        });
        if against_solution {
            out["status"] = json!(self.solved().status.as_str());
            out["wrong"] = json!(self.wrong(grid));
        }
        out
    }

    /// The next logical step from the grid, explained, with the cells to highlight; or which
    /// entries are wrong.
    pub fn hint(&self, grid: &[Option<u8>]) -> Value {
        let conflicts = self.conflicts(grid);
        if let Some(first) = conflicts.first() {
            let entries: Vec<u64> = first["cells"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .filter(|&c| self.puzzle.givens[c as usize].is_none())
                .collect();
            return json!({
                "complete": false,
                "wrong": entries,
                "message": format!("an entry breaks a rule: {}", first["text"].as_str().unwrap_or("")),
            });
        }
        let g = &self.puzzle.geometry;
        let solved = self.solved();
        if let Some(wrong) = self.wrong(grid).filter(|w| !w.is_empty()) {
            let names: Vec<String> = wrong
                .iter()
                .map(|&c| {
                    format!(
                        "{} = {}",
                        g.cells[c].name,
                        self.symbol(grid[c].unwrap_or(0))
                    )
                })
                .collect();
            return json!({
                "complete": false,
                "wrong": wrong,
                "message": format!("the puzzle cannot be solved with these entries; wrong: {}", names.join(", ")),
            });
        }
        let mut families = Family::ALL.to_vec();
        if solved.status != Status::Unique {
            families.retain(|f| !f.assumes_uniqueness());
        }
        let b = match Board::new(g, grid) {
            Ok(b) => b,
            Err(c) => {
                return json!({"complete": false, "wrong": [], "message": format!("the puzzle cannot be solved from here: {}", c.0)})
            }
        };
        if b.is_solved() {
            return json!({"complete": true});
        }
        match Logic::with_families(g.symbol_count(), &families).next_step(&b) {
            Some(step) => {
                let shapes: Vec<&Vec<usize>> =
                    step.shapes.iter().map(|&s| &b.shapes[s].cells).collect();
                json!({
                    "complete": false,
                    "step": step.to_json(&b),
                    "cells": step.cells,
                    "shape_cells": shapes,
                    "placements": step.placements.iter().map(|p| p.0).collect::<Vec<_>>(),
                    "eliminations": step.eliminations.iter().map(|p| p.0).collect::<Vec<_>>(),
                })
            }
            None => json!({
                "complete": false,
                "step": null,
                "message": format!(
                    "no rule applies to the {} empty cells: from here the puzzle needs trial and error",
                    b.free_count()
                ),
            }),
        }
    }

    /// The solution (`null` unless it is unique), by cell index.
    pub fn solve(&self) -> Value {
        let s = self.solved();
        let grid = s.grid.as_ref().map(|sol| {
            sol.iter()
                .map(|&v| self.symbol(v).to_string())
                .collect::<Vec<_>>()
        });
        json!({"status": s.status.as_str(), "solution": grid})
    }

    /// The puzzle as a JSON model file with the entries (not the givens) as grid text in
    /// `source.entries`, which `anydoku hint FILE --entries TEXT` reads back.
    pub fn export(&self, grid: &[Option<u8>]) -> Value {
        let g = &self.puzzle.geometry;
        let entries: Vec<Option<u8>> = grid
            .iter()
            .zip(&self.puzzle.givens)
            .map(|(v, given)| if given.is_some() { None } else { *v })
            .collect();
        let mut model = self.model.clone();
        let mut source = match model.get("source") {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        // the entries as a puzzle of their own, written as one line
        let entries = Puzzle {
            geometry: Arc::clone(g),
            givens: entries,
        };
        source.insert("entries".into(), json!(entries.to_line()));
        source.insert("filled".into(), json!(entries.given_count()));
        model["source"] = Value::Object(source);
        model
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anydoku::puzzle::TextLines;
    use anydoku::Geometry;

    fn game(line: &str) -> Arc<Game> {
        let g = Arc::new(Geometry::builtin("classic4").unwrap());
        Game::new(TextLines::new(g).read(line).unwrap())
    }

    #[test]
    fn ids_are_stable_and_differ_by_givens() {
        let a = game("1...............");
        assert_eq!(a.id, game("1...............").id);
        assert_ne!(a.id, game("2...............").id);
        assert_eq!(fnv1a(b"a"), 0xaf63dc4c8601ec8c);
    }

    #[test]
    fn entries_are_checked_by_name_and_symbol() {
        let g = game("1...............");
        assert!(g.grid(Some(&json!({"r1c2": "2"}))).unwrap()[1] == Some(1));
        let bad = |v: Value| g.grid(Some(&v)).unwrap_err().0;
        assert!(bad(json!({"r9c9": "1"})).contains("unknown cell"));
        assert!(bad(json!({"r1c2": "7"})).contains("not a symbol"));
        assert!(bad(json!({"r1c1": "2"})).contains("is a given"));
        assert!(bad(json!([1])).contains("must be an object"));
    }

    #[test]
    fn check_finds_conflicts_and_wrong_entries() {
        // the unique solution of this puzzle starts 1234 / 3412 / 2143 / 4321
        let g = game("1.3..4.22.4..3.1");
        let sol = g.solve();
        assert_eq!(sol["status"], "unique");
        let first: Vec<&str> = (0..4)
            .map(|i| sol["solution"][i].as_str().unwrap())
            .collect();
        assert_eq!(first, ["1", "2", "3", "4"]);
        let grid = g.grid(Some(&json!({"r1c2": "3"}))).unwrap();
        let c = g.check(&grid, true);
        // r1c2 = 3 repeats the 3 of its row and of its column
        assert_eq!(c["conflicts"].as_array().unwrap().len(), 2, "{c}");
        assert_eq!(c["conflicts"][0]["cells"], json!([1, 2]), "{c}");
        assert_eq!(c["wrong"], json!([1]));
        let grid = g.grid(Some(&json!({"r1c2": "2"}))).unwrap();
        let c = g.check(&grid, true);
        assert_eq!(c["conflicts"], json!([]));
        assert_eq!(c["wrong"], json!([]));
        assert_eq!(c["solved"], false);
    }

    #[test]
    fn hint_names_a_step_or_the_wrong_entries() {
        let g = game("1.3..4.22.4..3.1");
        let h = g.hint(&g.grid(None).unwrap());
        assert!(h["step"]["text"].as_str().unwrap().contains('→'), "{h}");
        assert!(!h["cells"].as_array().unwrap().is_empty());
        let h = g.hint(&g.grid(Some(&json!({"r1c2": "4"}))).unwrap());
        assert_eq!(h["wrong"], json!([1]), "{h}");
        let full: Map<String, Value> = g.solve()["solution"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, s)| (g.puzzle.geometry.cells[i].name.clone(), s.clone()))
            .collect();
        let grid = g.grid(Some(&Value::Object(full))).unwrap();
        assert_eq!(g.hint(&grid)["complete"], true);
        assert_eq!(g.check(&grid, false)["solved"], true);
    }

    #[test]
    fn export_keeps_the_givens_and_adds_the_entries() {
        let g = game("1.3..4.22.4..3.1");
        let m = g.export(&g.grid(Some(&json!({"r1c2": "2"}))).unwrap());
        assert_eq!(m["source"]["entries"], ".2..............");
        assert_eq!(m["givens"]["r1c1"], "1");
        assert!(m["givens"].get("r1c2").is_none());
        let back = Game::from_model(&m).unwrap();
        assert_eq!(back.id, g.id, "the export reads back as the same puzzle");
    }
}
