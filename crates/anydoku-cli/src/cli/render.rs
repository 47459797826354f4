//! `render` (SVG or PNG pictures) and `solve --format svg`.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use anydoku::{render, CellValues, Engine, Puzzle, Status};

use super::input::{self, CliError};
use super::{BudgetArgs, PuzzleArgs};

/// Arguments of `render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Write the picture here instead of standard output
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The picture's format; by default PNG when --output ends in .png, SVG otherwise
    #[arg(long, value_enum)]
    pub format: Option<PictureFormat>,
    /// Solve first and draw the solution (givens bold, the rest in blue)
    #[arg(long)]
    pub solution: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// What `render` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PictureFormat {
    /// Scalable vector graphics (text)
    Svg,
    /// A PNG image, two pixels per SVG unit, symbols in the system's fonts
    Png,
}

/// The format asked for, or the one `output`'s extension names.
fn format_for(format: Option<PictureFormat>, output: Option<&Path>) -> PictureFormat {
    let png_file = output
        .and_then(|p| p.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    match format {
        Some(f) => f,
        None if png_file => PictureFormat::Png,
        None => PictureFormat::Svg,
    }
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

/// Writes `svg` as a picture in `format` to `output` or standard output.
fn write_picture(
    svg: &str,
    format: PictureFormat,
    output: Option<&PathBuf>,
) -> Result<(), CliError> {
    if format == PictureFormat::Svg {
        return write(svg, output);
    }
    if output.is_none() && std::io::stdout().is_terminal() {
        return Err(anydoku::Error::puzzle(
            "a PNG is not text for the terminal: write it to a file with --output FILE.png, \
             or redirect standard output",
        )
        .into());
    }
    let png = super::png::from_svg(svg).map_err(anydoku::Error::puzzle)?;
    if !png.fonts {
        errln!(
            "warning: no fonts found on this system: the PNG shows the grid without its symbols"
        );
    }
    match output {
        Some(path) => super::output::write_file(path, &png.bytes),
        None => super::output::print_bytes(&png.bytes),
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

/// `render`: the puzzle (or its solution) as SVG or PNG.
pub fn run(args: &RenderArgs) -> Result<u8, CliError> {
    let format = format_for(args.format, args.output.as_deref());
    if args.solution {
        let p = input::solvable_puzzle(&args.input)?;
        let (svg, status) = solved_svg(&p, args.budget)?;
        write_picture(&svg, format, args.output.as_ref())?;
        return Ok(exit_code(status));
    }
    let p = input::puzzle(&args.input)?;
    write_picture(
        &render::svg(&p.geometry, &p.givens, &p.givens),
        format,
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
