//! A Samurai puzzle from a TOML file: solve it, explain it step by step, rate it, draw it.
//!
//! `cargo run --release --example samurai [PUZZLE.toml]` (default: `puzzles/samurai.toml`).
//! Writes the solved picture to `samurai.svg` in the working directory.

use anydoku::{render, Limits, Logic, Puzzle, Status};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/samurai.toml").to_string()
    });
    // A puzzle file names its geometry (here the built-in "samurai": five overlapping 9x9
    // grids) and writes the givens as grid text.
    let p = Puzzle::load(&path)?;
    let g = &p.geometry;
    println!(
        "{}: {} cells, {} shapes, {} givens",
        g.name,
        g.cell_count(),
        g.shapes.len(),
        p.given_count()
    );

    // Solving counts solutions up to two: one means the puzzle is sound.
    let result = p.solve(Limits::none());
    if result.status() != Status::Unique {
        return Err(format!("not a sound puzzle: {}", result.status().as_str()).into());
    }
    println!("{}", render::text(g, &result.solutions[0]));

    // The same solution with human-style rules, step by step.
    let path = Logic::all(g.symbol_count()).solve(g, &p.givens, None)?;
    for (i, step) in path.steps.iter().take(5).enumerate() {
        println!("{:>3}. {}", i + 1, step.describe(&path.start));
    }
    let rating = path.rating();
    println!(
        "... {} steps in all; hardest: {}; score {:.2} ({})",
        path.steps.len(),
        rating.hardest,
        rating.score,
        rating.level.as_str()
    );

    // Givens bold, the solved cells blue.
    std::fs::write(
        "samurai.svg",
        render::svg(g, &p.givens, &result.solutions[0]),
    )?;
    println!("wrote samurai.svg");
    Ok(())
}
