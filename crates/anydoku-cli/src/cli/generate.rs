//! `generate`: random minimal puzzles (or Killer cage sets) for any geometry.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anydoku::generate::{
    GenerateError, Generated, Generator, KillerOptions, Options, Progress, Symmetry,
};
use anydoku::logic::Level;
use anydoku::{render, Error, Rule};
use serde_json::{json, Map};

use super::input::{self, CliError};
use super::{BudgetArgs, Format};

/// Arguments of `generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// The geometry: a built-in name (see `anydoku geometries`) or a TOML/JSON geometry file
    #[arg(short, long)]
    pub geometry: String,
    /// Make Killer puzzles: cages with sums, no givens
    #[arg(long)]
    pub killer: bool,
    /// Killer cage sizes, a range like 2-5 or one size
    #[arg(long, default_value = "2-5", requires = "killer")]
    pub cage_size: String,
    /// Killer: drop the cages the puzzle does not need, leaving their cells uncaged (the
    /// default; kept for compatibility)
    #[arg(long, requires = "killer", conflicts_with = "cover")]
    pub drop_cages: bool,
    /// Killer: keep every cell in a cage (then no cage is needed on its own, since its total
    /// follows from the others, so the puzzle is not marked minimal)
    #[arg(long, requires = "killer")]
    pub cover: bool,
    /// Symmetry of the given pattern
    #[arg(long, default_value = "none", value_parser = clap::builder::PossibleValuesParser::new(["none", "rotate180", "rotate90", "mirror", "diagonal"]))]
    pub symmetry: String,
    /// Target difficulty: easy, medium, hard, expert, master or search (see `anydoku rate`)
    #[arg(long)]
    pub difficulty: Option<String>,
    /// Target number of givens: stop removing there, and try other grids while a minimal puzzle has more
    #[arg(long)]
    pub givens: Option<usize>,
    /// Grids to try per puzzle for --givens / --difficulty before giving up
    #[arg(long, default_value_t = 200)]
    pub attempts: u32,
    /// How many puzzles
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Random seed (default: from the clock, printed); puzzle i of a seed is always the same
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print timing and given-count statistics on stderr at the end
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

fn option_error(e: GenerateError) -> CliError {
    Error::puzzle(e.to_string()).into()
}

/// Prints one generated puzzle (text or one JSON line).
fn print_made(
    args: &GenerateArgs,
    made: &Generated,
    seed: u64,
    index: u64,
    symmetry: &str,
    cage_shapes: &[&anydoku::Shape],
) -> Result<(), CliError> {
    let g = &made.puzzle.geometry;
    if args.format == Format::Json {
        let mut source = Map::new();
        source.insert("seed".into(), json!(seed));
        source.insert("index".into(), json!(index));
        source.insert("symmetry".into(), json!(symmetry));
        let model = made.to_json(source);
        outln!(
            "{}",
            serde_json::to_string(&model).expect("the model serialises")
        );
        return Ok(());
    }
    if index > 0 {
        outln!();
    }
    outln!(
        "# seed {seed} puzzle {index}: {} givens{}{}",
        made.puzzle.given_count(),
        if cage_shapes.is_empty() {
            String::new()
        } else {
            format!(", {} cages", cage_shapes.len())
        },
        if made.minimal { ", minimal" } else { "" }
    );
    if let Some(r) = &made.rating {
        outln!(
            "# rated {} ({}), hardest step: {}",
            r.level.as_str(),
            r.score,
            r.hardest
        );
    }
    out!("{}", render::text(g, &made.puzzle.givens));
    for s in cage_shapes {
        if let Rule::Sum { total, .. } = s.rule {
            let cells: Vec<&str> = s.cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
            outln!("{} = {total}: {}", s.name, cells.join(" "));
        }
    }
    outln!("{}", made.puzzle.to_line());
    Ok(())
}

/// The generator's options from the arguments.
fn options(
    args: &GenerateArgs,
    symmetry: Symmetry,
    difficulty: Option<Level>,
) -> Result<Options, CliError> {
    let killer = if args.killer {
        if symmetry != Symmetry::None {
            return Err(
                Error::puzzle("--symmetry applies to givens; Killer puzzles have none").into(),
            );
        }
        let (min_size, max_size) =
            KillerOptions::parse_sizes(&args.cage_size).map_err(option_error)?;
        Some(KillerOptions {
            min_size,
            max_size,
            drop_cages: !args.cover,
        })
    } else {
        None
    };
    // --max-nodes bounds each uniqueness check, --timeout the whole run
    let limits = input::limits(args.budget)?;
    let deadline = limits.max_time.map(|t| Instant::now() + t);
    Ok(Options {
        symmetry,
        target_givens: args.givens,
        attempts: args.attempts,
        killer,
        difficulty,
        limits: anydoku::Limits {
            max_time: None,
            ..limits
        },
        deadline,
    })
}

/// A progress bar on a terminal: which puzzle, and how far the thinning of its grid has got (a
/// minimal 25x25 takes minutes); hidden elsewhere.
fn progress_bar(count: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(count);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {pos}/{len} puzzles done [{elapsed_precise}] {msg}",
        )
        .expect("the template is valid"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Runs `generate`.
pub fn run(args: &GenerateArgs) -> Result<u8, CliError> {
    let geometry = input::geometry(&args.geometry)?;
    let symmetry: Symmetry = args.symmetry.parse().map_err(option_error)?;
    let difficulty = match &args.difficulty {
        Some(d) => Some(d.parse::<Level>().map_err(option_error)?),
        None => None,
    };
    if args.count == 0 {
        return Err(Error::puzzle("--count must be at least 1").into());
    }
    let options = options(args, symmetry, difficulty)?;
    let generator = Generator::new(geometry, options).map_err(option_error)?;
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let s = t.as_secs() ^ (t.subsec_nanos() as u64) << 20;
        errln!("seed: {s}");
        s
    });
    let bar = progress_bar(args.count);
    let mut times: Vec<Duration> = Vec::new();
    let mut givens: Vec<usize> = Vec::new();
    let mut cages: Vec<usize> = Vec::new();
    for index in 0..args.count {
        let start = Instant::now();
        let mut report = |p: Progress| {
            bar.set_message(format!(
                "removals tested {}/{}, {} givens left",
                p.tested, p.orbits, p.givens
            ))
        };
        let made = match generator.generate_seeded_with_progress(seed, index, &mut report) {
            Ok(m) => m,
            Err(
                e @ (GenerateError::TargetNotReached { .. }
                | GenerateError::Budget
                | GenerateError::Deadline),
            ) => {
                bar.finish_and_clear();
                errln!("error: puzzle {index} of seed {seed}: {e}");
                return Ok(1);
            }
            Err(e) => return Err(option_error(e)),
        };
        times.push(start.elapsed());
        givens.push(made.puzzle.given_count());
        let g = &made.puzzle.geometry;
        let cage_shapes: Vec<&anydoku::Shape> = g
            .shapes
            .iter()
            .filter(|s| matches!(s.rule, Rule::Sum { .. }))
            .collect();
        cages.push(cage_shapes.len());
        bar.suspend(|| print_made(args, &made, seed, index, symmetry.name(), &cage_shapes))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if args.stats {
        times.sort();
        givens.sort_unstable();
        cages.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let total: Duration = times.iter().sum();
        errln!(
            "{} puzzle(s) in {:.2} s; per puzzle: median {:.2} ms, min {:.2} ms, max {:.2} ms; givens: median {}, min {}, max {}{}",
            times.len(),
            total.as_secs_f64(),
            ms(times[times.len() / 2]),
            ms(times[0]),
            ms(times[times.len() - 1]),
            givens[givens.len() / 2],
            givens[0],
            givens[givens.len() - 1],
            if args.killer { format!("; cages: median {}", cages[cages.len() / 2]) } else { String::new() }
        );
    }
    Ok(0)
}
