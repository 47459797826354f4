//! `render` (SVG pictures) and `solve --format svg`.

use std::path::PathBuf;

use anydoku::{render, CellValues, Engine, Puzzle, Status};

use super::input::{self, CliError};
use super::{BudgetArgs, PuzzleArgs};

/// Arguments of `render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Write the SVG here instead of standard output
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Solve first and draw the solution (givens bold, the rest in blue)
    #[arg(long)]
    pub solution: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

fn write(svg: &str, output: Option<&PathBuf>) -> Result<(), CliError> {
    match output {
        Some(path) => super::output::write_file(path, svg.as_bytes()),
        None => {
            out!("{svg}");
            Ok(())
        }
    }
}

/// Solves; returns the picture of the first solution (or of the givens) and the status.
fn solved_svg(p: &Puzzle, budget: BudgetArgs) -> Result<(String, Status), CliError> {
    let limits = input::limits(budget)?;
    let result = Engine::new(&p.geometry).solve(&p.givens, limits);
    let status = result.status();
    let grid = match result.solutions.first() {
        Some(s) => s.to_grid(),
        None => p.givens.clone(),
    };
    match status {
        Status::Unique => {}
        Status::Multiple => errln!("multiple solutions; drawing one of them"),
        Status::NoSolution => errln!("no solution; drawing the givens"),
        Status::Unknown => errln!(
            "unknown: the search budget ran out after {} nodes; drawing the givens",
            result.nodes
        ),
    }
    Ok((render::svg(&p.geometry, &p.givens, &grid), status))
}

fn exit_code(status: Status) -> u8 {
    if status == Status::Unique {
        0
    } else {
        1
    }
}

/// `render`: the puzzle (or its solution) as SVG.
pub fn run(args: &RenderArgs) -> Result<u8, CliError> {
    if args.solution {
        let p = input::solvable_puzzle(&args.input)?;
        let (svg, status) = solved_svg(&p, args.budget)?;
        write(&svg, args.output.as_ref())?;
        return Ok(exit_code(status));
    }
    let p = input::puzzle(&args.input)?;
    write(
        &render::svg(&p.geometry, &p.givens, &p.givens),
        args.output.as_ref(),
    )?;
    Ok(0)
}

/// `solve --format svg`: the solution drawn on the layout.
pub fn solve(args: &PuzzleArgs, budget: BudgetArgs) -> Result<u8, CliError> {
    let p = input::solvable_puzzle(args)?;
    let (svg, status) = solved_svg(&p, budget)?;
    write(&svg, None)?;
    Ok(exit_code(status))
}
