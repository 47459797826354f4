//! The logic commands: `solve --steps` (the whole path), `hint` (the next step for a partly
//! filled grid) and `rate` (score and level, for one puzzle or one per line of a file).
//!
//! They only turn arguments into calls of [`anydoku::logic`] and results into text or JSON.

use std::io::{BufRead, Write};
use std::path::Path;

use anydoku::logic::{rate, Family, Logic, LogicError, Path as LogicPath};
use anydoku::puzzle::{json, text, Puzzle};
use anydoku::render::text::draw;
use anydoku::{Engine, Error, Geometry, Limits, Status};
use rayon::prelude::*;
use serde_json::{json, Value};

use super::input::{self, CliError};
use super::{BudgetArgs, Format, PuzzleArgs};

/// `--rules`: which rule families to use.
#[derive(Debug, Clone, clap::Args)]
pub struct RuleArgs {
    /// Restrict the rules to these families (comma separated): singles, overlap, cages, subsets,
    /// fish, chains, uniqueness. Singles are always used. Default: all.
    #[arg(long, value_delimiter = ',')]
    pub rules: Option<Vec<String>>,
}

/// `hint` arguments.
#[derive(Debug, clap::Args)]
pub struct HintArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Your entries so far, as grid text (a file or the string itself), `.` for empty cells;
    /// they are taken as givens after checking that they are right
    #[arg(long)]
    pub entries: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// `rate` arguments.
#[derive(Debug, clap::Args)]
pub struct RateArgs {
    /// A puzzle (as for `solve`), or with --geometry a file of one-line puzzles (one rating per
    /// line, like `batch`), or a .jsonl file of JSON models
    #[command(flatten)]
    pub input: PuzzleArgs,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Worker threads for files of puzzles (default: all cores)
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

fn families(args: &RuleArgs) -> Result<Vec<Family>, CliError> {
    let Some(list) = &args.rules else {
        return Ok(Family::ALL.to_vec());
    };
    list.iter()
        .map(|name| {
            Family::parse(name.trim()).ok_or_else(|| {
                let known: Vec<&str> = Family::ALL.iter().map(|f| f.as_str()).collect();
                Error::puzzle(format!(
                    "unknown rule family '{name}' (known: {})",
                    known.join(", ")
                ))
                .into()
            })
        })
        .collect()
}

fn logic_error(e: LogicError) -> CliError {
    Error::puzzle(e.to_string()).into()
}

/// `solve --steps`: the logical path, then the solution.
pub fn solve_steps(args: &PuzzleArgs, format: Format, budget: BudgetArgs) -> Result<u8, CliError> {
    let p = input::solvable_puzzle(args)?;
    let g = &p.geometry;
    let status = Engine::new(g)
        .solve(&p.givens, input::limits(budget)?)
        .status();
    if status != Status::Unique {
        let why = match status {
            Status::Multiple => "the puzzle has more than one solution",
            Status::NoSolution => "the puzzle has no solution",
            _ => "the search budget ran out before uniqueness was known",
        };
        match format {
            Format::Json => outln!("{}", json!({"status": status.as_str(), "error": why})),
            Format::Text => outln!("{}: steps need a puzzle with exactly one solution", why),
        }
        return Ok(1);
    }
    let path = Logic::all(g.symbol_count())
        .with_limits(input::limits(budget)?)
        .solve(g, &p.givens, None)
        .map_err(logic_error)?;
    let rating = rate::rate(&path);
    let grid: Vec<Option<u8>> = path.end.value.clone();
    match format {
        Format::Json => {
            let steps = steps_json(&path);
            outln!(
                "{}",
                json!({
                    "status": "unique",
                    "steps": steps,
                    "search": path.search,
                    "rating": rating.to_json(),
                    "solution": json::grid_map(g, &grid),
                })
            );
        }
        Format::Text => {
            print_steps(&path);
            outln!();
            outln!(
                "{} in {} steps; hardest: {}; score {:.2} ({})",
                if path.search {
                    "Finished with search"
                } else {
                    "Solved by logic"
                },
                path.steps.len(),
                if rating.hardest.is_empty() {
                    "none"
                } else {
                    &rating.hardest
                },
                rating.score,
                rating.level.as_str()
            );
            outln!();
            out!("{}", draw(g, &grid));
        }
    }
    Ok(0)
}

/// The steps of a path as JSON, each described on the board it applies to.
fn steps_json(path: &LogicPath) -> Vec<Value> {
    let mut b = path.start.clone();
    path.steps
        .iter()
        .map(|s| {
            let v = s.to_json(&b);
            b.apply(s);
            v
        })
        .collect()
}

fn print_steps(path: &LogicPath) {
    let b = &path.start;
    let width = path.steps.len().to_string().len();
    for (i, s) in path.steps.iter().enumerate() {
        outln!("{:>width$}. {}", i + 1, s.describe(b));
    }
}

/// The puzzle's givens plus the player's entries, checked.
fn with_entries(p: &Puzzle, entries: &str) -> Result<Result<Vec<Option<u8>>, String>, CliError> {
    let g = &p.geometry;
    let label = if Path::new(entries).is_file() {
        entries.to_string()
    } else {
        "entries".into()
    };
    let text_in = if Path::new(entries).is_file() {
        anydoku::puzzle::file::read_text(Path::new(entries)).map_err(input::in_file(&label))?
    } else {
        entries.to_string()
    };
    let cells = text::parse_grid(g, &text_in).map_err(input::in_file(&label))?;
    let mut grid = p.givens.clone();
    for (c, v) in cells.iter().enumerate() {
        match (grid[c], *v) {
            (Some(a), Some(b)) if a != b => {
                return Ok(Err(format!(
                    "your entry {} = {} differs from the given {}",
                    g.cells[c].name,
                    g.symbols.symbol(b as usize),
                    g.symbols.symbol(a as usize)
                )))
            }
            (None, Some(b)) => grid[c] = Some(b),
            _ => {}
        }
    }
    Ok(Ok(grid))
}

/// Why a grid is wrong (a broken rule, or no solution), naming the wrong entries when the
/// puzzle's own givens have a unique solution. `None` when it can still be completed.
fn wrong_entries(p: &Puzzle, grid: &[Option<u8>]) -> Option<String> {
    let g = &p.geometry;
    let probe = Puzzle {
        geometry: p.geometry.clone(),
        givens: grid.to_vec(),
    };
    if let Some(c) = probe.conflicts().first() {
        return Some(format!("an entry breaks a rule: {}", probe.describe(c)));
    }
    let limits = Limits {
        max_nodes: Some(5_000_000),
        max_time: None,
    };
    let engine = Engine::new(g);
    if engine.solve(grid, limits).status() != Status::NoSolution {
        return None;
    }
    let original = engine.solve(&p.givens, limits);
    if original.status() == Status::Unique {
        let sol = &original.solutions[0];
        let wrong: Vec<String> = (0..grid.len())
            .filter(|&c| p.givens[c].is_none() && grid[c].is_some_and(|v| v != sol[c]))
            .map(|c| {
                format!(
                    "{} = {}",
                    g.cells[c].name,
                    g.symbols.symbol(grid[c].unwrap_or(0) as usize)
                )
            })
            .collect();
        return Some(format!(
            "the puzzle cannot be solved with these entries; wrong: {}",
            wrong.join(", ")
        ));
    }
    Some("the puzzle cannot be solved with these entries".into())
}

/// `hint`: the next logical step.
pub fn hint(args: &HintArgs) -> Result<u8, CliError> {
    let p = input::puzzle(&args.input)?;
    let g = p.geometry.clone();
    let grid = match &args.entries {
        Some(e) => match with_entries(&p, e)? {
            Ok(grid) => grid,
            Err(msg) => return wrong(args.format, &msg),
        },
        None => p.givens.clone(),
    };
    if let Some(msg) = wrong_entries(&p, &grid) {
        return wrong(args.format, &msg);
    }
    let mut fams = families(&args.rules)?;
    let limits = Limits {
        max_nodes: Some(5_000_000),
        max_time: None,
    };
    if Engine::new(&g).solve(&grid, limits).status() != Status::Unique {
        fams.retain(|&f| !anydoku::logic::assumes_uniqueness(f));
    }
    let b = anydoku::logic::Board::new(&g, &grid).map_err(|c| Error::puzzle(c.0))?;
    if b.is_solved() {
        match args.format {
            Format::Json => outln!("{}", json!({"complete": true})),
            Format::Text => outln!("the grid is complete"),
        }
        return Ok(0);
    }
    match Logic::with_families(g.symbol_count(), &fams).next_step(&b) {
        Some(step) => match args.format {
            Format::Json => outln!("{}", json!({"complete": false, "step": step.to_json(&b)})),
            Format::Text => outln!("{}", step.describe(&b)),
        },
        None => match args.format {
            Format::Json => outln!("{}", json!({"complete": false, "step": null})),
            Format::Text => outln!(
                "no rule applies to the {} empty cells: from here the puzzle needs trial and error",
                b.free_count()
            ),
        },
    }
    Ok(0)
}

fn wrong(format: Format, msg: &str) -> Result<u8, CliError> {
    if format == Format::Json {
        outln!("{}", json!({"error": msg}));
    }
    eprintln!("error: {msg}");
    Ok(1)
}

/// Rates a puzzle after checking that it has exactly one solution (some rules assume it).
fn rate_checked(
    logic: &Logic,
    g: &Geometry,
    givens: &[Option<u8>],
) -> Result<LogicPath, LogicError> {
    if !anydoku::puzzle::conflicts_of(g, givens).is_empty() {
        return Err(LogicError::Unsolvable("the givens break a rule".into()));
    }
    match Engine::new(g).solve(givens, logic.limits()).status() {
        Status::Unique => logic.solve(g, givens, None),
        Status::Multiple => Err(LogicError::Multiple),
        Status::NoSolution => Err(LogicError::Unsolvable("it has no solution".into())),
        Status::Unknown => Err(LogicError::Unknown),
    }
}

/// One puzzle's rating as text or JSON (or the reason there is none).
fn rating_line(logic: &Logic, g: &Geometry, givens: &[Option<u8>], format: Format) -> String {
    let result = rate_checked(logic, g, givens);
    match (result, format) {
        (Ok(path), Format::Json) => {
            let r = rate::rate(&path);
            json!({"score": r.score, "level": r.level.as_str(), "search": r.search}).to_string()
        }
        (Ok(path), Format::Text) => {
            let r = rate::rate(&path);
            format!("{:.2} {}", r.score, r.level.as_str())
        }
        (Err(LogicError::Unknown), Format::Json) => {
            json!({"status": "unknown", "error": LogicError::Unknown.to_string()}).to_string()
        }
        (Err(LogicError::Unknown), Format::Text) => format!("unknown: {}", LogicError::Unknown),
        (Err(e), Format::Json) => json!({"error": e.to_string()}).to_string(),
        (Err(e), Format::Text) => format!("invalid: {e}"),
    }
}

/// `rate`: one puzzle, or one rating per line of a file.
pub fn rate_cmd(args: &RateArgs) -> Result<u8, CliError> {
    let fams = families(&args.rules)?;
    let path = Path::new(&args.input.puzzle);
    let jsonl = path.extension().is_some_and(|e| e == "jsonl");
    if jsonl || (args.input.geometry.is_some() && path.is_file() && !single_grid(args)?) {
        return rate_lines(args, &fams, jsonl);
    }
    let limits = input::limits(args.budget)?;
    let p = input::solvable_puzzle(&args.input)?;
    let g = &p.geometry;
    let logic = Logic::with_families(g.symbol_count(), &fams).with_limits(limits);
    let path = match rate_checked(&logic, g, &p.givens) {
        Err(LogicError::Unknown) => {
            let why = "the search budget ran out before uniqueness was known";
            match args.format {
                Format::Json => outln!("{}", json!({"status": "unknown", "error": why})),
                Format::Text => outln!("unknown: {why}"),
            }
            return Ok(1);
        }
        other => other.map_err(logic_error)?,
    };
    let r = rate::rate(&path);
    match args.format {
        Format::Json => outln!(
            "{}",
            json!({"score": r.score, "level": r.level.as_str(), "search": r.search})
        ),
        Format::Text => outln!(
            "score {:.2}, level {} (hardest rule: {}; {} steps{})",
            r.score,
            r.level.as_str(),
            if r.hardest.is_empty() {
                "none"
            } else {
                &r.hardest
            },
            r.steps,
            if r.search { "; needs search" } else { "" }
        ),
    }
    Ok(0)
}

/// Whether a `--geometry` file holds exactly one puzzle as grid text.
fn single_grid(args: &RateArgs) -> Result<bool, CliError> {
    let g = input::geometry(args.input.geometry.as_deref().unwrap_or_default())?;
    let t = anydoku::puzzle::file::read_text(Path::new(&args.input.puzzle))
        .map_err(input::in_file(&args.input.puzzle))?;
    Ok(text::parse_grid(&g, &t).is_ok())
}

fn rate_lines(args: &RateArgs, fams: &[Family], jsonl: bool) -> Result<u8, CliError> {
    let label = args.input.puzzle.clone();
    let geometry = match (&args.input.geometry, jsonl) {
        (Some(name), _) => Some(input::geometry(name)?),
        (None, _) => None,
    };
    let f = std::fs::File::open(&label).map_err(|e| {
        input::in_file(&label)(Error::Io {
            path: label.clone(),
            message: e.to_string(),
        })
    })?;
    let lines: Vec<String> = std::io::BufReader::new(f)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| {
            input::in_file(&label)(Error::Io {
                path: label.clone(),
                message: e.to_string(),
            })
        })?;
    let lines: Vec<&String> = lines
        .iter()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::puzzle(format!("cannot start worker threads: {e}")))?;
    let limits = input::limits(args.budget)?;
    let logic = geometry
        .as_ref()
        .map(|g| Logic::with_families(g.symbol_count(), fams).with_limits(limits));
    let format = args.format;
    let out: Vec<String> = pool.install(|| {
        lines
            .par_iter()
            .map(|line| match (&geometry, &logic) {
                (Some(g), Some(logic)) => match text::parse_line(g, line) {
                    Ok(givens) => rating_line(logic, g, &givens, format),
                    Err(e) => invalid(format, &e.to_string()),
                },
                _ => match json::from_json(line) {
                    Ok(p) => {
                        let logic = Logic::with_families(p.geometry.symbol_count(), fams)
                            .with_limits(limits);
                        rating_line(&logic, &p.geometry, &p.givens, format)
                    }
                    Err(e) => invalid(format, &e.to_string()),
                },
            })
            .collect()
    });
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    for l in out {
        if writeln!(w, "{l}").is_err() {
            return Ok(0);
        }
    }
    let _ = w.flush();
    Ok(0)
}

fn invalid(format: Format, msg: &str) -> String {
    match format {
        Format::Json => json!({"error": msg}).to_string(),
        Format::Text => format!("invalid: {msg}"),
    }
}
