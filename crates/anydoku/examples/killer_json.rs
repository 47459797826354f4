//! A Killer puzzle from the neutral JSON model: its cages, the sum shapes the law of 45 adds,
//! a hint, and the solution.
//!
//! `cargo run --release --example killer_json [MODEL.json]` (default: `puzzles/killer6.json`,
//! written by `anydoku export puzzles/killer6.toml`).

use anydoku::engine::Options;
use anydoku::logic::Board;
use anydoku::{render, Engine, Limits, Logic, Puzzle, Rule, Status};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/killer6.json").to_string()
    });
    // The model lists symbols, cells (with drawing positions), shapes and givens; a Killer cage
    // is a shape with the rule "sum".
    let p = Puzzle::from_json(&std::fs::read_to_string(&path)?)?;
    let g = &p.geometry;
    for s in &g.shapes {
        if let Rule::Sum { total, .. } = s.rule {
            let cells: Vec<&str> = s.cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
            println!("{} = {total}: {}", s.name, cells.join(" "));
        }
    }

    // The engine adds the innies and outies of the law of 45 as sum shapes of its own.
    let engine = Engine::with_options(g, Options::default());
    let result = engine.solve(&p.givens, Limits::none());
    println!(
        "{} derived sum shapes; {} search nodes; {}",
        engine.derived_count(),
        result.nodes,
        result.status().as_str()
    );
    if result.status() != Status::Unique {
        return Err("not a sound puzzle".into());
    }

    // A hint: the easiest step from the givens.
    let board = Board::new(g, &p.givens).map_err(|c| c.0)?;
    if let Some(step) = Logic::all(g.symbol_count()).next_step(&board) {
        println!("hint: {}", step.describe(&board));
    }
    print!("{}", render::text(g, &result.solutions[0]));
    Ok(())
}
