//! anydoku solves, explains, rates and generates Sudoku-family puzzles on any geometry.
//!
//! A puzzle is **cells** and **shapes**: a shape is a set of cells that is *unique* (no symbol
//! twice; *complete* when it has as many cells as there are symbols) or *sum* (a Killer cage).
//! Rows, columns, boxes, diagonals, jigsaw regions, Samurai sub-grids and Tredoku lines are all
//! just shapes. Data flows one way:
//!
//! ```text
//! TOML / JSON / one-line text ──> geometry::spec ──> Geometry + givens (Puzzle)
//!                                                         │
//!                                  engine (flat arrays) <─┘ ──> solutions, counts ──> render
//! ```
//!
//! ```
//! use anydoku::{engine::{Engine, Limits, Status}, geometry::builtin, puzzle::{text, Puzzle}};
//! use std::sync::Arc;
//!
//! let g = Arc::new(builtin::load("classic4").unwrap());
//! let givens = text::parse_line(&g, "1...............").unwrap();
//! let result = Engine::new(&g).count(&givens, 1000, Limits::none());
//! assert_eq!(result.count, 288 / 4);
//! let p = Puzzle { geometry: g, givens };
//! assert!(p.conflicts().is_empty());
//! assert_eq!(Engine::new(&p.geometry).solve(&p.givens, Limits::none()).status(), Status::Multiple);
//! ```

pub mod engine;
pub mod error;
pub mod generate;
pub mod geometry;
pub mod limits;
pub mod logic;
pub mod puzzle;
pub mod render;
pub mod symbols;

pub use engine::{Count, Engine, Limits, Status};
pub use error::{Error, Location};
pub use geometry::{Geometry, Rule, Shape};
pub use puzzle::Puzzle;
pub use symbols::SymbolSet;
