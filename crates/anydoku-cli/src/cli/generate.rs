//! `generate`: random minimal puzzles (or Killer cage sets) for any geometry.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anydoku::generate::{
    GenerateError, Generated, Generator, KillerOptions, Options, Plant, Progress, Symmetry,
};
use anydoku::logic::Level;
use anydoku::{render, Error, Rule};
use serde_json::{json, Map};

use super::input::{self, CliError};
use super::BudgetArgs;

/// What `generate` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GenerateFormat {
    /// The puzzle drawn as text (it reads back in as grid text); comments start with #
    Text,
    /// One neutral JSON model per line, with the solution and the certificates
    Json,
    /// A TOML puzzle file (one puzzle), which `solve` reads as it is
    Toml,
}

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
    /// Plant constraints on the grid before removing givens: KIND or KIND:COUNT, repeatable
    /// (e.g. --plant thermometer:4 --plant arrow:2). KIND is a kind's name (see docs/FORMATS.md),
    /// a flavour (kropki-white, kropki-black, x, v) or a negative pattern planted on every cell
    /// with all its marks (non-consecutive, non-ratio, non-xv)
    #[arg(long, value_name = "KIND[:COUNT]")]
    pub plant: Vec<String>,
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
    /// Output format (default: from the --output file's extension, .toml or .json/.jsonl, else
    /// text)
    #[arg(long, value_enum)]
    pub format: Option<GenerateFormat>,
    /// Write to this file instead of standard output (a .toml file gets a puzzle file, a .json
    /// or .jsonl file JSON models)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print timing and given-count statistics on stderr at the end
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

fn option_error(e: GenerateError) -> CliError {
    Error::puzzle(e.to_string()).into()
}

/// The format asked for, or the one the output file's extension names.
fn format_of(args: &GenerateArgs) -> GenerateFormat {
    let ext = args
        .output
        .as_deref()
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    args.format.unwrap_or(match ext.as_deref() {
        Some("toml") => GenerateFormat::Toml,
        Some("json" | "jsonl") => GenerateFormat::Json,
        _ => GenerateFormat::Text,
    })
}

/// How a TOML puzzle file names the geometry: a built-in name as it is, a file by its path from
/// the directory the puzzle file goes to (or as given, for standard output).
fn geometry_ref(name: &str, output: Option<&Path>) -> String {
    let path = Path::new(name);
    if anydoku::Geometry::builtin_text(name).is_some() && !path.is_file() {
        return name.to_string();
    }
    let dir = output.and_then(Path::parent);
    match (dir, path.canonicalize()) {
        (Some(dir), Ok(target)) => {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            match dir.canonicalize() {
                Ok(from) => relative(&from, &target),
                Err(_) => target.display().to_string(),
            }
        }
        _ => name.to_string(),
    }
}

/// The path of `target` seen from directory `from` (both absolute).
fn relative(from: &Path, target: &Path) -> String {
    let (a, b): (Vec<_>, Vec<_>) = (from.components().collect(), target.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c);
    }
    out.display().to_string()
}

/// The shapes a puzzle adds to its layout (cages, planted constraints) as `#` lines of text:
/// name, rule and keys, cells.
fn added_shapes(made: &Generated, base: usize) -> String {
    let g = &made.puzzle.geometry;
    let model = made.puzzle.to_json();
    let shapes = model["shapes"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let mut out = String::new();
    for (s, json) in g.shapes.iter().zip(shapes).skip(base) {
        let cells: Vec<&str> = s.cells.iter().map(|&c| g.cell(c).name.as_str()).collect();
        let cells = match cells.len() == g.cell_count() {
            true => "every cell".to_string(),
            false => cells.join(" "),
        };
        if let Rule::Sum { total, .. } = s.rule {
            out.push_str(&format!("# {} = {total}: {cells}\n", s.name));
            continue;
        }
        let mut keys = vec![s.rule.kind().to_string()];
        for (k, v) in json.as_object().into_iter().flatten() {
            if !["name", "rule", "cells"].contains(&k.as_str()) {
                keys.push(format!("{k} = {v}"));
            }
        }
        out.push_str(&format!("# {} ({}): {cells}\n", s.name, keys.join(", ")));
    }
    out
}

/// The command that makes the same puzzles (the options that change what is made).
fn command(args: &GenerateArgs, seed: u64) -> String {
    let mut out = format!("anydoku generate -g {}", args.geometry);
    if args.killer {
        out.push_str(&format!(" --killer --cage-size {}", args.cage_size));
        if args.cover {
            out.push_str(" --cover");
        }
    }
    for p in &args.plant {
        out.push_str(&format!(" --plant {p}"));
    }
    if args.symmetry != "none" {
        out.push_str(&format!(" --symmetry {}", args.symmetry));
    }
    if let Some(d) = &args.difficulty {
        out.push_str(&format!(" --difficulty {d}"));
    }
    if let Some(g) = args.givens {
        out.push_str(&format!(" --givens {g}"));
    }
    if (args.givens.is_some() || args.difficulty.is_some()) && args.attempts != 200 {
        out.push_str(&format!(" --attempts {}", args.attempts));
    }
    if let Some(n) = args.budget.max_nodes {
        out.push_str(&format!(" --max-nodes {n}"));
    }
    out.push_str(&format!(" --seed {seed}"));
    out
}

/// One generated puzzle in the output format: the drawing with `#` comments, a JSON line, or
/// a TOML puzzle file.
fn made_text(
    args: &GenerateArgs,
    made: &Generated,
    (seed, index): (u64, u64),
    symmetry: &str,
    base: usize,
) -> Result<String, CliError> {
    let g = &made.puzzle.geometry;
    let cage_shapes: Vec<&anydoku::Shape> = g
        .shapes
        .iter()
        .filter(|s| matches!(s.rule, Rule::Sum { .. }))
        .collect();
    let mut head = format!(
        "seed {seed} puzzle {index}: {} givens{}{}{}",
        made.puzzle.given_count(),
        if cage_shapes.is_empty() {
            String::new()
        } else {
            format!(", {} cages", cage_shapes.len())
        },
        match g.shapes.len() - base - cage_shapes.len() {
            0 => String::new(),
            n => format!(", {n} planted constraint(s)"),
        },
        if made.minimal { ", minimal" } else { "" }
    );
    if let Some(r) = &made.rating {
        head.push_str(&format!(
            "\nrated {} ({}), hardest step: {}",
            r.level.as_str(),
            r.score,
            r.hardest
        ));
    }
    let mut out = String::new();
    match format_of(args) {
        GenerateFormat::Json => {
            let mut source = Map::new();
            source.insert("seed".into(), json!(seed));
            source.insert("index".into(), json!(index));
            source.insert("symmetry".into(), json!(symmetry));
            let model = made.to_json(source);
            out = serde_json::to_string(&model).expect("the model serialises");
            out.push('\n');
        }
        GenerateFormat::Toml => {
            let comment = format!("made by {}: {head}", command(args, seed));
            let name = geometry_ref(&args.geometry, args.output.as_deref());
            out = made.puzzle.to_toml(&name, base, &comment)?;
        }
        GenerateFormat::Text => {
            if index > 0 {
                out.push('\n');
            }
            for line in head.lines() {
                out.push_str(&format!("# {line}\n"));
            }
            out.push_str(&render::text(g, &made.puzzle.givens));
            out.push_str(&added_shapes(made, base));
            out.push_str(&format!("# one line: {}\n", made.puzzle.to_line()));
        }
    }
    Ok(out)
}

/// Where the puzzles go: standard output, or the `--output` file (written as each puzzle is
/// made, so that a run stopped by its budget keeps the puzzles made). The file is opened at
/// the start, so an unwritable path fails before any work, but it is emptied only when the
/// first puzzle is written: a run that makes none leaves an existing file as it was and
/// creates no new one.
enum Sink {
    Stdout,
    File {
        path: PathBuf,
        file: std::io::BufWriter<std::fs::File>,
        existed: bool,
        written: bool,
    },
}

impl Sink {
    fn open(output: Option<&Path>) -> Result<Sink, CliError> {
        let Some(path) = output else {
            return Ok(Sink::Stdout);
        };
        let existed = path.exists();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| super::output::write_error(&path.display().to_string(), &e))?;
        Ok(Sink::File {
            path: path.to_path_buf(),
            file: std::io::BufWriter::new(file),
            existed,
            written: false,
        })
    }

    fn write(&mut self, text: &str) -> Result<(), CliError> {
        match self {
            Sink::Stdout => super::output::print_bytes(text.as_bytes()),
            Sink::File {
                path,
                file,
                written,
                ..
            } => {
                let first = !*written;
                *written = true;
                // (only a regular file is emptied: `/dev/null` or a pipe cannot be)
                let empty = |f: &std::fs::File| match f.metadata()?.is_file() {
                    true => f.set_len(0),
                    false => Ok(()),
                };
                (if first { empty(file.get_ref()) } else { Ok(()) })
                    .and_then(|()| file.write_all(text.as_bytes()))
                    .and_then(|()| file.flush())
                    .map_err(|e| super::output::write_error(&path.display().to_string(), &e))
            }
        }
    }

    /// Takes back a file this run created and never wrote to.
    fn abandon(self) {
        if let Sink::File {
            path,
            file,
            existed: false,
            written: false,
        } = self
        {
            drop(file);
            let _ = std::fs::remove_file(path);
        }
    }
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
    let plant = args
        .plant
        .iter()
        .map(|p| {
            p.parse::<Plant>()
                .map_err(|e| Error::puzzle(format!("--plant: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // --max-nodes bounds each uniqueness check, --timeout the whole run
    let limits = input::limits(args.budget)?;
    let deadline = limits.max_time.map(|t| Instant::now() + t);
    Ok(Options {
        symmetry,
        target_givens: args.givens,
        attempts: args.attempts,
        killer,
        plant,
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
    let picture = args
        .output
        .as_deref()
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .filter(|e| ["png", "svg"].contains(&e.to_ascii_lowercase().as_str()));
    if let (Some(ext), None) = (picture, args.format) {
        return Err(Error::puzzle(format!(
            "generate writes puzzles as text, TOML or JSON, not pictures: write one to a .toml \
             file, then draw it with `anydoku render FILE.toml -o FILE.{ext}`"
        ))
        .into());
    }
    if format_of(args) == GenerateFormat::Toml && args.count > 1 {
        return Err(Error::puzzle(
            "a TOML puzzle file holds one puzzle: use --count 1, or --format json for one \
             model per line",
        )
        .into());
    }
    let base = geometry.shapes.len();
    let options = options(args, symmetry, difficulty)?;
    let generator = Generator::new(geometry, options).map_err(option_error)?;
    let mut sink = Sink::open(args.output.as_deref())?;
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
            bar.set_message(match p.building {
                true => format!("building upward: {} givens so far", p.givens),
                false => format!(
                    "givens settled {}/{}, {} left",
                    p.tested, p.orbits, p.givens
                ),
            })
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
                sink.abandon();
                return Ok(1);
            }
            Err(e) => {
                sink.abandon();
                return Err(option_error(e));
            }
        };
        times.push(start.elapsed());
        givens.push(made.puzzle.given_count());
        let g = &made.puzzle.geometry;
        cages.push(g.shapes.len() - base);
        let text = made_text(args, &made, (seed, index), symmetry.name(), base)?;
        bar.suspend(|| sink.write(&text))?;
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
