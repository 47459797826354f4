//! Readers for Killer puzzles published in other formats, so they can be solved straight from
//! the files they come in.
//!
//! * [`krazydad`] — the KrazyDad CSV rows (cage letters row-major, cage sums in letter order,
//!   81-digit solution).
//! * [`puzzlekit`] — the puzzlekit (janko.at) JSON: a clue grid (each cage's sum written in one of
//!   its cells) and a cage-id grid, per record; 4x4, 6x6 and 9x9.
//! * [`cage_json`] — a JSON array of cages `{"result": sum, "indices": [[row, col], ...]}`
//!   (1-based), as in ConstraintSolver.jl's test data.
//!
//! Every reader produces [`RawKiller`]s: a classic N×N grid (the built-in `classic{N}` geometry:
//! rows, columns, boxes), a list of cages and the published solution when there is one. A raw
//! record becomes a [`Puzzle`] with [`RawKiller::to_puzzle`] (validated like a puzzle file: cells
//! inside the grid, no overlapping cages, possible sums) or a TOML puzzle file with
//! [`RawKiller::to_toml`]. To add a format, write a module with a `read(text) -> Result<Vec<RawKiller>,
//! Error>` function and add it to [`Source`].

pub mod cage_json;
pub mod krazydad;
pub mod puzzlekit;

use std::fmt::Write as _;
use std::sync::Arc;

use super::Puzzle;
use crate::error::Error;
use crate::geometry::{build, builtin, CellId, Rule, Shape, ShapeKind};

/// The formats `import` understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// KrazyDad Killer CSV rows (cage letters row-major, sums in letter order, solution).
    KrazyDad,
    /// puzzlekit-dataset (janko.at) JSON: a clue grid and a cage-id grid per record.
    Puzzlekit,
    /// A JSON array of cages `{"result": sum, "indices": [[row, col], ...]}` (1-based).
    CageJson,
}

impl Source {
    /// Guesses the format from the file name and its first characters.
    pub fn detect(file_name: &str, text: &str) -> Option<Source> {
        let head = text.trim_start();
        if file_name.ends_with(".csv") || head.starts_with(",ptitle") {
            Some(Source::KrazyDad)
        } else if head.starts_with('[') {
            Some(Source::CageJson)
        } else if head.starts_with('{') && head.contains("\"data\"") {
            Some(Source::Puzzlekit)
        } else {
            None
        }
    }

    /// Reads every puzzle of a file in this format (the first bad record is the error).
    pub fn read(self, text: &str) -> Result<Vec<RawKiller>, Error> {
        self.read_each(text)?.into_iter().collect()
    }

    /// Reads a file record by record: `Err` when the file as a whole cannot be read, else one
    /// result per record in file order, so that one bad record costs only itself (a KrazyDad
    /// row's error is located at its line; a puzzlekit record's names its key).
    pub fn read_each(self, text: &str) -> Result<Vec<Result<RawKiller, Error>>, Error> {
        match self {
            Source::KrazyDad => krazydad::read_each(text),
            Source::Puzzlekit => puzzlekit::read_each(text),
            Source::CageJson => Ok(cage_json::read(text)?.into_iter().map(Ok).collect()),
        }
    }
}

/// One cage: its total and its cells as 1-based (row, col).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawCage {
    /// The cage's total.
    pub sum: i64,
    /// Its cells as 1-based (row, column).
    pub cells: Vec<(i32, i32)>,
}

/// A Killer puzzle as read from a foreign format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawKiller {
    /// The record's own name (title or key), or its position.
    pub name: String,
    /// Side of the grid (4, 6, 9, ...): the geometry is the built-in `classic{size}`.
    pub size: usize,
    /// The cages.
    pub cages: Vec<RawCage>,
    /// Given digits, row-major (`None` = empty); usually all empty.
    pub givens: Vec<Option<u8>>,
    /// The published solution as digit values, row-major, when there is one.
    pub solution: Option<Vec<u8>>,
}

impl RawKiller {
    /// The built-in geometry name.
    pub fn geometry_name(&self) -> String {
        format!("classic{}", self.size)
    }

    /// Builds and validates the puzzle on the built-in `classic{size}` geometry.
    pub fn to_puzzle(&self) -> Result<Puzzle, Error> {
        self.to_puzzle_on(&self.geometry_name())
    }

    /// Builds and validates the puzzle on another built-in geometry of the same board (e.g. `x`
    /// for an X-Killer, whose files often do not say that the diagonals count).
    pub fn to_puzzle_on(&self, geometry: &str) -> Result<Puzzle, Error> {
        let base = builtin::load(geometry).map_err(|_| {
            Error::puzzle(format!(
                "{}: a {0}x{0} Killer has no built-in classic geometry",
                self.size
            ))
        })?;
        let mut cages = Vec::with_capacity(self.cages.len());
        for (i, c) in self.cages.iter().enumerate() {
            let name = format!("Cage {}", i + 1);
            let mut cells = Vec::with_capacity(c.cells.len());
            for &(r, col) in &c.cells {
                let id: CellId = base.cell_id(&format!("r{r}c{col}")).ok_or_else(|| {
                    Error::puzzle(format!(
                        "{}: {name} has cell r{r}c{col}, outside the {1}x{1} grid",
                        self.name, self.size
                    ))
                })?;
                cells.push(id);
            }
            cages.push(Shape {
                name,
                rule: Rule::Sum {
                    total: c.sum,
                    unique: true,
                },
                cells,
                kind: ShapeKind::Cage,
            });
        }
        let in_record = |e: Error| Error::puzzle(format!("{}: {e}", self.name));
        build::check_disjoint_cages(&cages, &base.cells).map_err(|e| in_record(e.into()))?;
        let g = base
            .with_extra_shapes(cages)
            .map_err(|e| in_record(e.into()))?;
        build::check_sums(&g).map_err(|e| in_record(e.into()))?;
        let mut givens = vec![None; g.cell_count()];
        for (i, v) in self.givens.iter().enumerate() {
            if let Some(v) = v {
                let s = g.symbols.index_of(&v.to_string()).ok_or_else(|| {
                    Error::puzzle(format!("{}: given {v} is not a symbol", self.name))
                })?;
                givens[i] = Some(s as u8);
            }
        }
        Ok(Puzzle {
            geometry: Arc::new(g),
            givens,
        })
    }

    /// The published solution as symbol indices in cell order, if any.
    pub fn solution_indices(&self, p: &Puzzle) -> Option<Vec<u8>> {
        let sol = self.solution.as_ref()?;
        sol.iter()
            .map(|v| {
                p.geometry
                    .symbols
                    .values()
                    .iter()
                    .position(|&x| x == *v as i64)
                    .map(|i| i as u8)
            })
            .collect()
    }

    /// A TOML puzzle file (`geometry = "classic9"` and a `[[cage]]` list).
    pub fn to_toml(&self) -> String {
        self.to_toml_on(&self.geometry_name())
    }

    /// A TOML puzzle file on another geometry (see [`RawKiller::to_puzzle_on`]).
    pub fn to_toml_on(&self, geometry: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "name = {}", toml_string(&self.name));
        let _ = writeln!(out, "geometry = {}", toml_string(geometry));
        if self.givens.iter().any(Option::is_some) {
            out.push_str("givens = \"\"\"\n");
            for row in self.givens.chunks(self.size.max(1)) {
                for v in row {
                    match v {
                        Some(v) => {
                            let _ = write!(out, "{v}");
                        }
                        None => out.push('.'),
                    }
                }
                out.push('\n');
            }
            out.push_str("\"\"\"\n");
        }
        for c in &self.cages {
            let cells: Vec<String> = c.cells.iter().map(|(r, c)| format!("r{r}c{c}")).collect();
            let _ = write!(
                out,
                "\n[[cage]]\nsum = {}\ncells = \"{}\"\n",
                c.sum,
                cells.join(" ")
            );
        }
        out
    }
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The digit values of a solution string/grid of `n * n` cells.
pub(crate) fn digits(tokens: &[&str], name: &str) -> Result<Vec<u8>, Error> {
    tokens
        .iter()
        .map(|t| {
            t.parse::<u8>().map_err(|_| {
                Error::puzzle(format!("{name}: '{t}' in the solution is not a number"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> RawKiller {
        // a 4x4 Killer: two-cell horizontal cages
        let sol = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let mut cages = Vec::new();
        for r in 0..4 {
            for c in [0, 2] {
                cages.push(RawCage {
                    sum: (sol[r * 4 + c] + sol[r * 4 + c + 1]) as i64,
                    cells: vec![(r as i32 + 1, c as i32 + 1), (r as i32 + 1, c as i32 + 2)],
                });
            }
        }
        RawKiller {
            name: "tiny".into(),
            size: 4,
            cages,
            givens: vec![None; 16],
            solution: Some(sol.to_vec()),
        }
    }

    #[test]
    fn toml_round_trip_keeps_the_cages() {
        let raw = tiny();
        let p = raw.to_puzzle().unwrap();
        let q = crate::puzzle::file::from_toml(&raw.to_toml(), None).unwrap();
        assert_eq!(p.geometry.shapes, q.geometry.shapes);
        assert_eq!(p.givens, q.givens);
    }

    #[test]
    fn cells_outside_the_grid_are_reported() {
        let mut raw = tiny();
        raw.cages[0].cells[0] = (5, 1);
        let e = raw.to_puzzle().unwrap_err().to_string();
        assert!(e.contains("Cage 1") && e.contains("r5c1"), "{e}");
    }
}
