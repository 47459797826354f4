#![deny(missing_docs)]
// The internal modules link to their private parts, which `--document-private-items` shows.
#![cfg_attr(feature = "internals", allow(rustdoc::private_intra_doc_links))]
//! anydoku solves, explains, rates and generates Sudoku-family puzzles on any geometry.
//!
//! A puzzle is **cells** and **shapes**: a shape is a set of cells that is *unique* (no symbol
//! twice; *complete* when it has as many cells as there are symbols) or *sum* (a Killer cage).
//! Rows, columns, boxes, diagonals, jigsaw regions, Samurai sub-grids and Tredoku lines are all
//! just shapes. Data flows one way:
//!
//! ```text
//! TOML / JSON / text ──> Geometry + givens (Puzzle) ──> Engine (flat arrays) ──> Count
//!                                     │                                            │
//!                                     ├──> Logic: steps, hints, Rating             │
//!                                     └──> Generator: minimal puzzles              └──> render
//! ```
//!
//! A walk through the API: a layout written in TOML, a puzzle on it solved and explained step
//! by step, a new minimal puzzle generated and drawn.
//!
//! ```
//! use std::sync::Arc;
//! use anydoku::generate::{Generator, Options};
//! use anydoku::{render, Geometry, Limits, Logic, Puzzle, Status};
//!
//! // A 6x6 layout whose two diagonals also hold every symbol once.
//! let layout = r#"
//!     name    = "X 6x6"
//!     symbols = "123456"
//!
//!     [[grid]]
//!     size      = 6
//!     boxes     = [2, 3]
//!     diagonals = true
//! "#;
//! let g = Arc::new(Geometry::from_toml(layout)?);
//! assert_eq!((g.cell_count(), g.shapes.len()), (36, 20));
//!
//! // Givens as grid text, one character per cell in row order; `.` is an empty cell.
//! let p = Puzzle::from_text(g.clone(), "........4...1624................3...")?;
//! let result = p.solve(Limits::none());
//! assert_eq!(result.status(), Status::Unique);
//! println!("{}", render::text(&g, &result.solutions[0]));
//!
//! // The same solution, found step by step with human-style rules.
//! let path = Logic::all(g.symbol_count()).solve(&g, &p.givens, None)?;
//! for (i, step) in path.steps.iter().enumerate() {
//!     println!("{}. {}", i + 1, step.describe(&path.start));
//! }
//! assert!(path.solved && !path.search);
//! println!("rated {}", path.rating().level.as_str());
//!
//! // A new puzzle: puzzle 0 of seed 7, the same on every machine, minimal (each given is
//! // needed, and each comes with the second solution that appears without it).
//! let made = Generator::new(g.clone(), Options::default())?.generate_seeded(7, 0)?;
//! assert!(made.minimal);
//! assert_eq!(made.certificates.len(), made.puzzle.given_count());
//! assert_eq!(made.puzzle.solve(Limits::none()).solutions[0], made.solution);
//! let svg = render::svg(&g, &made.puzzle.givens, &made.puzzle.givens);
//! assert!(svg.starts_with("<svg"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The main types are re-exported here; the modules group the rest: [`engine`] (solving and
//! counting), [`logic`] (steps, hints, ratings), [`generate`], [`geometry`], [`puzzle`] (reading
//! and writing puzzles), [`render`] (text and SVG); [`InputLimits`] says how large an input may be.

/// Declares a module that is public with the `internals` feature (for the project's tests,
/// benches and tuning tools; hidden from the docs and not part of the API) and private to the
/// crate without it.
macro_rules! internal_mod {
    ($name:ident) => {
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    };
}

pub mod engine;
internal_mod!(error);
pub mod generate;
pub mod geometry;
internal_mod!(kinds);
mod limits;
pub mod logic;
pub mod puzzle;
pub mod render;
internal_mod!(symbols);

pub use engine::{Count, Engine, Limits, Searcher, Status};
pub use error::{Error, Location};
pub use generate::Generator;
pub use geometry::{Cell, CellId, Geometry, Rule, Shape, ShapeId};
pub use limits::InputLimits;
pub use logic::Logic;
pub use puzzle::{CellValues, Puzzle};
pub use symbols::{SymbolError, SymbolSet};

/// The README's Rust example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
