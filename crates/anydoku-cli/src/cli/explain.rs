//! The logic commands: `solve --steps` (the whole path), `hint` (the next step for a partly
//! filled grid) and `rate` (score and level, for one puzzle or one per line of a file).
//!
//! They only turn arguments into calls of [`anydoku::logic`] and results into text or JSON.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anydoku::logic::{Budget, Family, Logic, LogicError, Path as LogicPath};
use anydoku::puzzle::TextLines;
use anydoku::{render, Engine, Error, Puzzle, Status};
use rayon::prelude::*;
use serde_json::{json, Value};

use super::input::{self, CliError};
use super::lines::{Line, Lines};
use super::{BudgetArgs, Format, PuzzleArgs};

/// `--rules`: which rule families to use.
#[derive(Debug, Clone, clap::Args)]
pub struct RuleArgs {
    /// Restrict the rules to these families (comma separated): singles, overlap, cages, subsets,
    /// fish, chains, als, uniqueness, forcing. Singles and the constraint kinds' own steps
    /// (constraints) are always used. Default: all.
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
    #[command(flatten)]
    pub budget: BudgetArgs,
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
    let budget = input::RunBudget::start(input::limits(budget)?);
    let p = input::solvable_puzzle(args)?;
    let g = &p.geometry;
    let status = Engine::new(g).solve(&p.givens, budget.left()).status();
    if status != Status::Unique {
        let why = match status {
            Status::Multiple => "the puzzle has more than one solution",
            Status::NoSolution => "the puzzle has no solution",
            _ => "the search budget ran out before uniqueness was known",
        };
        match format {
            Format::Json => outln!("{}", json!({"status": status.as_str(), "error": why})),
            Format::Text if status == Status::Unknown => {
                outln!("unknown: {why}; steps need a puzzle with exactly one solution")
            }
            Format::Text => outln!("{}: steps need a puzzle with exactly one solution", why),
        }
        return Ok(1);
    }
    let path = match Logic::all(g.symbol_count())
        .with_limits(budget.left())
        .solve(g, &p.givens, None)
    {
        Err(LogicError::Unknown) => return budget_ran_out(format),
        Err(LogicError::Stopped(partial)) => return stopped_steps(&partial, format),
        other => other.map_err(logic_error)?,
    };
    let rating = path.rating();
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
                    "solution": g.grid_json(&grid),
                })
            );
        }
        Format::Text => {
            print_steps(&path)?;
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
            out!("{}", render::text(g, &grid));
        }
    }
    Ok(0)
}

/// `solve --steps` when the budget ran out: the steps found so far, then why (exit 1).
fn stopped_steps(path: &LogicPath, format: Format) -> Result<u8, CliError> {
    let why = stopped_why(path);
    match format {
        Format::Json => outln!(
            "{}",
            json!({"status": "unknown", "error": why, "steps": steps_json(path)})
        ),
        Format::Text => {
            print_steps(path)?;
            outln!();
            outln!("unknown: {why}");
        }
    }
    Ok(1)
}

/// Why a path stopped: the budget, with how far it got.
fn stopped_why(path: &LogicPath) -> String {
    let r = path.rating();
    let hardest = if r.hardest.is_empty() {
        String::new()
    } else {
        format!("; hardest so far: {}, score {:.2}", r.hardest, r.score)
    };
    format!(
        "the budget ran out after {} steps, with {} cells still empty{hardest}",
        path.steps.len(),
        path.end.free_count()
    )
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

fn print_steps(path: &LogicPath) -> Result<(), CliError> {
    let b = &path.start;
    let width = path.steps.len().to_string().len();
    for (i, s) in path.steps.iter().enumerate() {
        outln!("{:>width$}. {}", i + 1, s.describe(b));
    }
    Ok(())
}

/// The puzzle's givens plus the player's entries, checked.
fn with_entries(p: &Puzzle, entries: &str) -> Result<Result<Vec<Option<u8>>, String>, CliError> {
    let g = &p.geometry;
    let label = if Path::new(entries).is_file() {
        entries.to_string()
    } else {
        "entries".into()
    };
    let cells = Puzzle::load_on(Arc::clone(g), entries)
        .map_err(input::in_file(&label))?
        .givens;
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

/// What the search says about a grid with the player's entries.
enum Verdict {
    /// It can be completed; `unique` when in exactly one way.
    Fine { unique: bool },
    /// It cannot: why (a broken rule, or no solution), naming the wrong entries when the
    /// puzzle's own givens have a unique solution.
    Wrong(String),
    /// The budget ran out first.
    Unknown,
}

/// Checks a grid with the player's entries, each search under what is left of `budget`.
fn verdict(p: &Puzzle, grid: &[Option<u8>], budget: &input::RunBudget) -> Verdict {
    let g = &p.geometry;
    let probe = Puzzle {
        geometry: p.geometry.clone(),
        givens: grid.to_vec(),
    };
    if let Some(c) = probe.conflicts().first() {
        return Verdict::Wrong(format!("an entry breaks a rule: {}", probe.describe(c)));
    }
    let engine = Engine::new(g);
    match engine.solve(grid, budget.left()).status() {
        Status::Unique => return Verdict::Fine { unique: true },
        Status::Multiple => return Verdict::Fine { unique: false },
        Status::Unknown => return Verdict::Unknown,
        Status::NoSolution => {}
    }
    let original = engine.solve(&p.givens, budget.left());
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
        return Verdict::Wrong(format!(
            "the puzzle cannot be solved with these entries; wrong: {}",
            wrong.join(", ")
        ));
    }
    Verdict::Wrong("the puzzle cannot be solved with these entries".into())
}

/// `hint`: the next logical step. Without a budget, each search may take 5,000,000 nodes.
pub fn hint(args: &HintArgs) -> Result<u8, CliError> {
    let mut limits = input::limits(args.budget)?;
    if limits.max_nodes.is_none() && limits.max_time.is_none() {
        limits.max_nodes = Some(5_000_000);
    }
    let budget = input::RunBudget::start(limits);
    let mut fams = families(&args.rules)?;
    let p = input::puzzle(&args.input)?;
    let g = p.geometry.clone();
    let grid = match &args.entries {
        Some(e) => match with_entries(&p, e)? {
            Ok(grid) => grid,
            Err(msg) => return wrong(args.format, &msg),
        },
        None => p.givens.clone(),
    };
    match verdict(&p, &grid, &budget) {
        Verdict::Wrong(msg) => return wrong(args.format, &msg),
        Verdict::Unknown => return budget_ran_out(args.format),
        Verdict::Fine { unique: true } => {}
        Verdict::Fine { unique: false } => fams.retain(|f| !f.assumes_uniqueness()),
    }
    let b = anydoku::logic::Board::new(&g, &grid).map_err(|c| Error::puzzle(c.0))?;
    if b.is_solved() {
        match args.format {
            Format::Json => outln!("{}", json!({"complete": true})),
            Format::Text => outln!("the grid is complete and right: every rule holds"),
        }
        return Ok(0);
    }
    let logic_budget = Budget::new(budget.left());
    let step = Logic::with_families(g.symbol_count(), &fams).next_step_within(&b, &logic_budget);
    if logic_budget.is_out() || budget.spent() {
        let why = "the budget ran out before a step was found";
        match args.format {
            Format::Json => outln!("{}", json!({"status": "unknown", "error": why})),
            Format::Text => outln!("unknown: {why}"),
        }
        return Ok(1);
    }
    match step {
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

/// The answer when the budget ran out (exit 1).
fn budget_ran_out(format: Format) -> Result<u8, CliError> {
    let why = "the search budget ran out before the grid was checked";
    match format {
        Format::Json => outln!("{}", json!({"status": "unknown", "error": why})),
        Format::Text => outln!("unknown: {why}"),
    }
    Ok(1)
}

fn wrong(format: Format, msg: &str) -> Result<u8, CliError> {
    if format == Format::Json {
        outln!("{}", json!({"error": msg}));
    }
    errln!("error: {msg}");
    Ok(1)
}

/// Rates a puzzle after checking that it has exactly one solution (some rules assume it), with
/// `logic`'s limits for both.
fn rate_checked(logic: &Logic, families: &[Family], p: &Puzzle) -> Result<LogicPath, LogicError> {
    if !p.conflicts().is_empty() {
        return Err(LogicError::Unsolvable("the givens break a rule".into()));
    }
    let (g, givens) = (&p.geometry, &p.givens);
    // the rater's own searches get what the uniqueness check leaves of the time
    let budget = input::RunBudget::start(logic.limits());
    match Engine::new(g).solve(givens, budget.left()).status() {
        Status::Unique => Logic::with_families(g.symbol_count(), families)
            .with_limits(budget.left())
            .solve(g, givens, None),
        Status::Multiple => Err(LogicError::Multiple),
        Status::NoSolution => Err(LogicError::Unsolvable("it has no solution".into())),
        Status::Unknown => Err(LogicError::Unknown),
    }
}

/// One puzzle's rating as text or JSON, or its status (`none`, `multiple`, `unknown`) when it
/// has no rating; `Err` for a puzzle that cannot be rated for another reason.
fn rating_line(
    logic: &Logic,
    families: &[Family],
    p: &Puzzle,
    format: Format,
) -> Result<String, String> {
    let status = |status: &str, why: String| match format {
        Format::Json => json!({"status": status, "error": why}).to_string(),
        Format::Text => format!("{status}: {why}"),
    };
    match rate_checked(logic, families, p) {
        Ok(path) => {
            let r = path.rating();
            Ok(match format {
                Format::Json => {
                    json!({"score": r.score, "level": r.level.as_str(), "search": r.search})
                        .to_string()
                }
                Format::Text => format!("{:.2} {}", r.score, r.level.as_str()),
            })
        }
        Err(e @ LogicError::Unknown) => Ok(status("unknown", e.to_string())),
        Err(LogicError::Stopped(path)) => Ok(status("unknown", stopped_why(&path))),
        Err(e @ LogicError::Multiple) => Ok(status("multiple", e.to_string())),
        Err(e @ LogicError::Unsolvable(_)) => Ok(status("none", e.to_string())),
        Err(e) => Err(e.to_string()),
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
    let (status, why) = match rate_checked(&logic, &fams, &p) {
        Ok(path) => return print_rating(&path, args.format),
        Err(LogicError::Unknown) => (
            "unknown",
            "the search budget ran out before the puzzle was rated".to_string(),
        ),
        Err(LogicError::Stopped(path)) => ("unknown", stopped_why(&path)),
        Err(e @ LogicError::Multiple) => ("multiple", e.to_string()),
        Err(e @ LogicError::Unsolvable(_)) => ("none", e.to_string()),
        Err(e) => return Err(logic_error(e)),
    };
    match args.format {
        Format::Json => outln!("{}", json!({"status": status, "error": why})),
        Format::Text => outln!("{status}: {why}"),
    }
    Ok(1)
}

/// Prints one puzzle's rating.
fn print_rating(path: &LogicPath, format: Format) -> Result<u8, CliError> {
    let r = path.rating();
    match format {
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

/// Whether a `--geometry` file holds exactly one puzzle as grid text (a file that is not all
/// UTF-8 is read line by line, so its good lines are still rated).
fn single_grid(args: &RateArgs) -> Result<bool, CliError> {
    let g = input::geometry(args.input.geometry.as_deref().unwrap_or_default())?;
    match input::read_text(Path::new(&args.input.puzzle)) {
        Ok(t) => Ok(Puzzle::from_text(g, &t).is_ok()),
        Err(_) => Ok(false),
    }
}

/// `rate FILE`: one answer per puzzle line, in order (a rating, `none`, `multiple`, `unknown`,
/// or `invalid: line N: ...` for a line that is not a puzzle, also reported on stderr); exit 2
/// at the end when some line was invalid.
fn rate_lines(args: &RateArgs, fams: &[Family], jsonl: bool) -> Result<u8, CliError> {
    const CHUNK: usize = 256;
    let label = args.input.puzzle.clone();
    let reader = match (&args.input.geometry, jsonl) {
        (Some(name), _) => Some(TextLines::new(input::geometry(name)?)),
        (None, _) => None,
    };
    let f = std::fs::File::open(&label).map_err(|e| super::batch::read_error(&label, e))?;
    let mut lines = Lines::new(std::io::BufReader::new(f));
    let pool = input::pool(args.threads)?;
    let limits = input::limits(args.budget)?;
    let logic = reader
        .as_ref()
        .map(|r| Logic::with_families(r.geometry().symbol_count(), fams).with_limits(limits));
    let format = args.format;
    let rate_one = |line: &Line| -> Result<String, Error> {
        let text = line.text.as_ref().map_err(Clone::clone)?;
        match (&reader, &logic) {
            (Some(reader), Some(logic)) => {
                let p = reader.read(text)?;
                rating_line(logic, fams, &p, format).map_err(Error::puzzle)
            }
            _ => {
                let p = Puzzle::from_json(text)?;
                let logic =
                    Logic::with_families(p.geometry.symbol_count(), fams).with_limits(limits);
                rating_line(&logic, fams, &p, format).map_err(Error::puzzle)
            }
        }
    };
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let (mut total, mut bad) = (0usize, 0usize);
    let mut chunk: Vec<Line> = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        for line in lines.by_ref() {
            chunk.push(line.map_err(|e| super::batch::read_error(&label, e))?);
            if chunk.len() == CHUNK {
                break;
            }
        }
        if chunk.is_empty() {
            break;
        }
        let out: Vec<Result<String, Error>> =
            pool.install(|| chunk.par_iter().map(rate_one).collect());
        for (line, answer) in chunk.iter().zip(out) {
            total += 1;
            let text = answer.unwrap_or_else(|e| {
                bad += 1;
                errln!("error: {label}:{}: {e}", line.place(Some(&e)));
                let why = line.invalid(&e);
                match format {
                    Format::Json => json!({"status": "invalid", "error": why}).to_string(),
                    Format::Text => format!("invalid: {why}"),
                }
            });
            writeln!(w, "{text}").map_err(super::output::stdout_error)?;
        }
    }
    w.flush().map_err(super::output::stdout_error)?;
    if bad > 0 {
        return Err(input::in_file(&label)(Error::puzzle(format!(
            "{bad} of {total} lines were invalid (each answered `invalid: line N: ...` in its place)"
        ))));
    }
    Ok(0)
}
