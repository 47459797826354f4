//! Command definitions (clap derive) and dispatch. Each command lives in its own module and only
//! turns arguments into library calls and results into text.

/// `println!` to standard output through [`output::print`]: a write error ends the command
/// with exit 2, a closed pipe (output piped into `head`) ends the run quietly. Use it in
/// functions returning `Result<_, CliError>`.
macro_rules! outln {
    () => {
        $crate::cli::output::print(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `print!` to standard output, as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!($($arg)*))?
    };
}

/// `errln!` that ignores a failing standard error (nothing is left to report it on).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod batch;
mod commands;
mod explain;
mod generate;
mod import;
pub(crate) mod input;
mod layout_hint;
mod lines;
pub mod output;
mod png;
mod render;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

pub use input::CliError;

/// What the exit codes mean, in every command's `--help`.
pub const EXIT_CODES: &str = "Exit codes: 0 ok; 1 no solution, several solutions, unknown (a \
--timeout or --max-nodes budget ran out) or a failed check; 2 bad input (a message naming the \
file, line and column) or an I/O error, a failed write included. A closed output pipe (output \
piped into `head`) ends a run quietly. Each command's --help says what the codes mean there.";

/// Solve, explain, rate and generate Sudoku-family puzzles on any geometry.
#[derive(Debug, Parser)]
#[command(name = "anydoku", version, about, long_about = None, after_help = EXIT_CODES)]
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

/// Search budgets. The help says what most commands answer when a budget runs out; a command
/// that answers otherwise (count, check, generate) says so with `mut_arg` on its subcommand.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct BudgetArgs {
    /// Give up after this many search nodes (answer `unknown`)
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Give up after this many seconds, at most 1000000 (answer `unknown`)
    #[arg(long, allow_negative_numbers = true)]
    pub timeout: Option<f64>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a puzzle and print its solution drawn on the layout
    #[command(
        after_help = "Exit codes: 0 exactly one solution; 1 no solution, several, or unknown (a budget ran out); 2 bad input or an I/O error."
    )]
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
    #[command(
        after_help = "Exit codes: 0 a step, a complete grid, or no rule applies; 1 the entries are wrong, the puzzle has no solution, or a budget ran out; 2 bad input or an I/O error."
    )]
    Hint(explain::HintArgs),
    /// Difficulty: a score and a named level (one puzzle, or one per line of a file)
    #[command(
        after_help = "Exit codes: 0 rated (a file: every line answered); 1 no solution, several, or unknown (one puzzle); 2 bad input or an I/O error (a file: some line was invalid; every other line is still answered)."
    )]
    Rate(explain::RateArgs),
    /// Count solutions up to a limit
    #[command(
        after_help = "Without --limit, --timeout or --max-nodes the count stops after 10 seconds (then `at least N`, or `unknown` if no solution was found by then).\n\nExit codes: 0 the exact count; 1 only a lower bound, or unknown (the --limit was reached or a budget ran out); 2 bad input or an I/O error.",
        mut_arg("max_nodes", |a| a.help("Give up after this many search nodes (answer `at least N`, or `unknown` before the first solution)")),
        mut_arg("timeout", |a| a.help("Give up after this many seconds, at most 1000000 (answer `at least N`, or `unknown` before the first solution)"))
    )]
    Count {
        #[command(flatten)]
        input: PuzzleArgs,
        /// Stop counting at this many solutions [default: 1000000]
        #[arg(long)]
        limit: Option<u64>,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Check a partial or full grid for conflicts (exit 1 if any rule is broken)
    #[command(
        after_help = "Exit codes: 0 no rule broken and the grid can be completed; 1 a rule is broken, the grid cannot be completed, or a budget ran out first; 2 bad input or an I/O error.",
        mut_arg("max_nodes", |a| a.help("Give up the search for a completion after this many nodes, 1000000 without --timeout (then whether the grid can be completed is unknown)")),
        mut_arg("timeout", |a| a.help("Give up the search for a completion after this many seconds, at most 1000000 (then whether the grid can be completed is unknown)"))
    )]
    Check {
        #[command(flatten)]
        input: PuzzleArgs,
        #[command(flatten)]
        budget: BudgetArgs,
    },
    /// Write a puzzle in the neutral JSON model
    #[command(after_help = "Exit codes: 0 written; 2 bad input or an I/O error.")]
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
    #[command(
        after_help = "Exit codes: 0 written; 2 bad input or an I/O error (with --all: some record was invalid; every other one is still written)."
    )]
    Import(import::ImportArgs),
    /// List the built-in geometries, or print one's TOML to start a layout of your own from
    #[command(after_help = "Exit codes: 0 listed; 2 an unknown name or an I/O error.")]
    Geometries {
        /// Print this built-in layout's TOML file (e.g. `--show samurai > my.toml`)
        #[arg(long, value_name = "NAME")]
        show: Option<String>,
    },
    /// Draw a puzzle (or with --solution, its solution) as an SVG or PNG picture
    #[command(
        after_help = "Exit codes: 0 drawn (with --solution: the solution is unique); 1 with --solution: no solution, several, or unknown; 2 bad input or an I/O error."
    )]
    Render(render::RenderArgs),
    /// Generate random minimal puzzles (or Killer puzzles) for any geometry
    #[command(
        after_help = "Exit codes: 0 every puzzle made; 1 a target was not reached or a budget ran out (the puzzles made so far are printed); 2 bad input or an I/O error.",
        mut_arg("max_nodes", |a| a.help("Give up after this many search nodes (print the puzzles made so far, exit 1)")),
        mut_arg("timeout", |a| a.help("Give up after this many seconds, at most 1000000 (print the puzzles made so far, exit 1)"))
    )]
    Generate(generate::GenerateArgs),
    /// Play in the browser: a local web server for one puzzle (or new ones) on any layout
    Play(crate::play::PlayArgs),
    /// Solve one puzzle per line of FILE (or a .jsonl file of JSON models); one answer per line
    #[command(
        after_help = "Exit codes: 0 every line answered (its answer may be none, multiple or unknown); 2 bad input, an I/O error, or some line was invalid (every other line is still answered, in order)."
    )]
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
    /// An f-puzzles link (classic, jigsaw, X, Killer and the constraint kinds f-puzzles has)
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
        } => match format {
            SolveFormat::Svg => render::solve(&input, budget),
            SolveFormat::Text if steps => explain::solve_steps(&input, Format::Text, budget),
            SolveFormat::Json if steps => explain::solve_steps(&input, Format::Json, budget),
            SolveFormat::Text => commands::solve_with(&input, Format::Text, budget, derived),
            SolveFormat::Json => commands::solve_with(&input, Format::Json, budget, derived),
        },
        Command::Hint(args) => explain::hint(&args),
        Command::Rate(args) => explain::rate_cmd(&args),
        Command::Count {
            input,
            limit,
            budget,
        } => commands::count(&input, limit, budget),
        Command::Check { input, budget } => commands::check(&input, budget),
        Command::Export {
            input,
            format,
            derived,
        } => commands::export(&input, format, derived),
        Command::Render(args) => render::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Geometries { show } => commands::geometries(show.as_deref()),
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
