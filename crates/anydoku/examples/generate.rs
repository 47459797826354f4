//! Generating a minimal puzzle with certificates, and checking each certificate.
//!
//! `cargo run --release --example generate [GEOMETRY] [SEED]` (default: `classic9`, seed 1).
//! The puzzle is minimal: without any one of its givens it has a second solution, and that
//! solution comes with the puzzle as the given's *certificate*. Each one is checked here with
//! nothing but the geometry's rules.

use std::sync::Arc;

use anydoku::generate::{Generator, Options, Removed, Symmetry};
use anydoku::{render, Geometry, Puzzle};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "classic9".into());
    let seed: u64 = args.next().map_or(Ok(1), |s| s.parse())?;
    let g = Arc::new(Geometry::builtin(&name)?);
    let options = Options {
        symmetry: Symmetry::Rotate180,
        ..Options::default()
    };
    // Puzzle `index` of a seed is the same on every run and machine.
    let made = Generator::new(Arc::clone(&g), options)?.generate_seeded(seed, 0)?;
    let p = &made.puzzle;
    println!("{} givens, minimal: {}", p.given_count(), made.minimal);
    print!("{}", render::text(&g, &p.givens));
    println!("{}", p.to_line());

    // Each certificate: the givens it names removed, the second solution must keep every rule,
    // keep every other given, and differ from the puzzle's own solution.
    for cert in &made.certificates {
        let Removed::Givens(cells) = &cert.removed else {
            continue;
        };
        let full = Puzzle {
            geometry: Arc::clone(&g),
            givens: cert.solution.iter().map(|&v| Some(v)).collect(),
        };
        let keeps_givens = p.givens.iter().enumerate().all(|(c, given)| {
            given.is_none_or(|v| cells.iter().any(|id| id.index() == c) || cert.solution[c] == v)
        });
        assert!(full.conflicts().is_empty() && keeps_givens);
        assert_ne!(cert.solution, made.solution);
        let names: Vec<&str> = cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
        let differ = (0..g.cell_count())
            .filter(|&c| cert.solution[c] != made.solution[c])
            .count();
        println!(
            "without {}: another solution, {differ} cells differ",
            names.join(" ")
        );
    }
    println!("every certificate checked");
    Ok(())
}
