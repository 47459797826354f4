//! Command definitions (clap derive) and dispatch. Each command lives in its own module and only
//! turns arguments into library calls and results into text.

/// `println!` that ignores a closed stdout (e.g. output piped into `head`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that ignores a closed stdout.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

mod batch;
mod commands;
mod explain;
mod generate;
mod import;
pub(crate) mod input;
mod render;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub use input::CliError;

/// Solve, explain, rate and generate Sudoku-family puzzles on any geometry.
#[derive(Debug, Parser)]
#[command(name = "anydoku", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Output formats of `solve` (the shared ones, plus an SVG picture).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolveFormat {
    Text,
    Json,
    Svg,
}

/// Options shared by commands that read one puzzle.
#[derive(Debug, clap::Args)]
pub struct PuzzleArgs {
    /// A puzzle file (TOML or JSON), a geometry file or built-in name (the empty puzzle), or with
    /// --geometry a file of grid text or the givens string itself
    pub puzzle: String,
    /// The geometry for a plain givens string or text file: a built-in name or a TOML/JSON file
    #[arg(short, long)]
    pub geometry: Option<String>,
}

/// Options of the law of 45 (derived innie/outie sum shapes of Killer cages).
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct DerivedArgs {
    /// Do not add the sum shapes derived by the law of 45
    #[arg(long)]
    pub no_derived: bool,
    /// Print the number of derived sum shapes and search nodes on stderr
    #[arg(long)]
    pub verbose: bool,
}

/// Search budgets.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct BudgetArgs {
    /// Give up after this many search nodes (answer `unknown`)
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Give up after this many seconds (answer `unknown`)
    #[arg(long)]
    pub timeout: Option<f64>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a puzzle and print its solution drawn on the layout
    Solve {
        #[command(flatten)]
        input: PuzzleArgs,
        #[arg(long, value_enum, default_value_t = SolveFormat::Text)]
        format: SolveFormat,
        #[command(flatten)]
        budget: BudgetArgs,
        /// Print the logical solution path step by step (rules, shapes, cells)
        #[arg(long)]
        steps: bool,
        #[command(flatten)]
        derived: DerivedArgs,
    },
    /// The next logical step for a partly filled grid, explained
    Hint(explain::HintArgs),
    /// Difficulty: a score and a named level (one puzzle, or one per line of a file)
    Rate(explain::RateArgs),
    /// Count solutions up to a limit
    Count {
        #[command(flatten)]
        input: PuzzleArgs,
        /// Stop counting at this many solutions
        #[arg(long, default_value_t = 1_000_000)]
        limit: u64,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Check a partial or full grid for conflicts (exit 1 if any rule is broken)
    Check {
        #[command(flatten)]
        input: PuzzleArgs,
    },
    /// Write a puzzle in the neutral JSON model
    Export {
        #[command(flatten)]
        input: PuzzleArgs,
        #[arg(long, value_enum, default_value_t = ExportFormat::Json)]
        format: ExportFormat,
        /// Include the sum shapes derived by the law of 45 (innies and outies of Killer cages)
        #[arg(long)]
        derived: bool,
    },
    /// Convert Killer puzzles from KrazyDad CSV, puzzlekit JSON or cage JSON into puzzle files
    Import(import::ImportArgs),
    /// List the built-in geometries
    Geometries,
    /// Draw a puzzle (or with --solution, its solution) as an SVG picture
    Render(render::RenderArgs),
    /// Generate random minimal puzzles (or Killer puzzles) for any geometry
    Generate(generate::GenerateArgs),
    /// Play in the browser: a local web server for one puzzle (or new ones) on any layout
    Play(crate::play::PlayArgs),
    /// Solve one puzzle per line of FILE (or a .jsonl file of JSON models); one answer per line
    Batch {
        /// The input file; `-` reads standard input
        file: PathBuf,
        /// The geometry of the lines (not needed for .jsonl files)
        #[arg(short, long)]
        geometry: Option<String>,
        /// Worker threads (default: all cores; 1 = single thread)
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
}

/// Formats for `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Json,
    /// An f-puzzles link (classic, jigsaw, X, Killer)
    Fpuzzles,
    /// The f-puzzles JSON behind such a link
    FpuzzlesJson,
}

/// Runs a command; returns the exit code.
pub fn run(cli: Cli) -> Result<u8, CliError> {
    match cli.command {
        Command::Solve {
            input,
            format,
            budget,
            steps,
            derived,
        } => match (format, steps) {
            (SolveFormat::Svg, _) => render::solve(&input, budget),
            (SolveFormat::Text, false) => {
                commands::solve_with(&input, Format::Text, budget, derived)
            }
            (SolveFormat::Json, false) => {
                commands::solve_with(&input, Format::Json, budget, derived)
            }
            (SolveFormat::Text, true) => explain::solve_steps(&input, Format::Text, budget),
            (SolveFormat::Json, true) => explain::solve_steps(&input, Format::Json, budget),
        },
        Command::Hint(args) => explain::hint(&args),
        Command::Rate(args) => explain::rate_cmd(&args),
        Command::Count {
            input,
            limit,
            budget,
        } => commands::count(&input, limit, budget),
        Command::Check { input } => commands::check(&input),
        Command::Export {
            input,
            format,
            derived,
        } => commands::export(&input, format, derived),
        Command::Render(args) => render::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Geometries => commands::geometries(),
        Command::Batch {
            file,
            geometry,
            threads,
            budget,
        } => batch::run(&file, geometry.as_deref(), threads, budget),
        Command::Generate(args) => generate::run(&args),
        Command::Play(args) => crate::play::run(&args),
    }
}
