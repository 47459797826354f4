//! The single-puzzle commands: solve, count, check, export, geometries.

use std::sync::Arc;

use anydoku::{render, Engine, Geometry, Status};
use serde_json::json;

use super::input::{self, CliError};
use super::{BudgetArgs, ExportFormat, Format, PuzzleArgs};

/// `solve` with the law-of-45 options: `--no-derived` switches derived sum shapes off,
/// `--verbose` reports their number and the search nodes on stderr; JSON output carries both.
pub fn solve_with(
    args: &PuzzleArgs,
    format: Format,
    budget: BudgetArgs,
    d: super::DerivedArgs,
) -> Result<u8, CliError> {
    let limits = input::limits(budget)?;
    let p = input::solvable_puzzle(args)?;
    let options = anydoku::engine::Options {
        derived: !d.no_derived,
        ..Default::default()
    };
    let engine = Engine::with_options(&p.geometry, options);
    let result = engine.solve(&p.givens, limits);
    if d.verbose {
        errln!(
            "derived sum shapes (law of 45): {}; search nodes: {}",
            engine.derived_count(),
            result.nodes
        );
    }
    print_solution(&p, &result, format, engine.derived_count())
}

/// Prints a solve result; exit 0 when the solution is unique.
fn print_solution(
    p: &anydoku::Puzzle,
    result: &anydoku::Count,
    format: Format,
    derived: usize,
) -> Result<u8, CliError> {
    let status = result.status();
    let g = &p.geometry;
    match format {
        Format::Json => {
            let mut out = serde_json::Map::new();
            out.insert("status".into(), json!(status.as_str()));
            solutions_json(&mut out, g, result);
            out.insert("derived".into(), json!(derived));
            out.insert("nodes".into(), json!(result.nodes));
            outln!("{}", serde_json::Value::Object(out));
        }
        Format::Text => match status {
            Status::Unique => out!("{}", render::text(g, &result.solutions[0])),
            Status::Multiple => {
                outln!("multiple solutions; two of them:\n");
                out!("{}", render::text(g, &result.solutions[0]));
                outln!();
                out!("{}", render::text(g, &result.solutions[1]));
            }
            Status::NoSolution => outln!("no solution"),
            Status::Unknown => outln!(
                "unknown: the search budget ran out after {} nodes",
                result.nodes
            ),
        },
    }
    Ok(if status == Status::Unique { 0 } else { 1 })
}

/// The grids of a solve result in JSON: `solution` (and `other_solution` when there are
/// several) once the status is known; a grid found before a budget ran out, whose uniqueness is
/// not proven, is `unproven_solution`, so that no reader takes it for the answer.
fn solutions_json(
    out: &mut serde_json::Map<String, serde_json::Value>,
    g: &anydoku::Geometry,
    result: &anydoku::Count,
) {
    let first = if result.status() == Status::Unknown {
        "unproven_solution"
    } else {
        "solution"
    };
    if let Some(grid) = result.solutions.first() {
        out.insert(first.into(), g.grid_json(grid).into());
    }
    if let Some(second) = result.solutions.get(1) {
        out.insert("other_solution".into(), g.grid_json(second).into());
    }
}

/// `count`'s limit when none is asked for.
const COUNT_LIMIT: u64 = 1_000_000;

/// `count`'s time budget when no limit and no budget are asked for: a user asking "how many"
/// gets the count, or a lower bound, in a few seconds.
const COUNT_SECONDS: u64 = 10;

/// `count`: prints the number of solutions, or a lower bound; exit 0 only for an exact count.
pub fn count(args: &PuzzleArgs, limit: Option<u64>, budget: BudgetArgs) -> Result<u8, CliError> {
    if limit == Some(0) {
        return Err(anydoku::Error::puzzle("--limit must be at least 1").into());
    }
    let by_default = limit.is_none() && budget.max_nodes.is_none() && budget.timeout.is_none();
    let limit = limit.unwrap_or(COUNT_LIMIT);
    let mut limits = input::limits(budget)?;
    if by_default {
        limits.max_time = Some(std::time::Duration::from_secs(COUNT_SECONDS));
    }
    let p = input::solvable_puzzle(args)?;
    let result = Engine::new(&p.geometry).count(&p.givens, limit, limits);
    if !result.complete {
        let why = if by_default {
            format!(
                "counting stopped after the default {COUNT_SECONDS} s; --timeout, --max-nodes or --limit to count on"
            )
        } else {
            format!("the search budget ran out after {} nodes", result.nodes)
        };
        if result.count == 0 {
            // no solution yet is not "none": whether there is one is unknown
            outln!("unknown (no solution found before {why})");
        } else {
            outln!("at least {} ({why})", result.count);
        }
        return Ok(1);
    }
    if result.count >= limit {
        outln!("at least {} (the limit)", result.count);
        return Ok(1);
    }
    outln!("{}", result.count);
    Ok(0)
}

/// `check`: lists conflicts; exit 1 if any, if the grid cannot be completed, or if the budget
/// ran out before that was known.
pub fn check(args: &PuzzleArgs, budget: BudgetArgs) -> Result<u8, CliError> {
    let mut limits = input::limits(budget)?;
    if limits.max_nodes.is_none() && limits.max_time.is_none() {
        limits.max_nodes = Some(1_000_000);
    }
    let p = input::puzzle(args)?;
    let conflicts = p.conflicts();
    let filled = p.given_count();
    let total = p.geometry.cell_count();
    for c in &conflicts {
        outln!("conflict: {}", p.describe(c));
    }
    if !conflicts.is_empty() {
        outln!("{} conflict(s)", conflicts.len());
        return Ok(1);
    }
    if filled == total {
        outln!("complete and valid: all {total} cells filled, every rule holds");
        return Ok(0);
    }
    let result = Engine::new(&p.geometry).solve(&p.givens, limits);
    let future = match result.status() {
        Status::Unique => "it can be completed in exactly one way",
        Status::Multiple => "it can be completed in more than one way",
        Status::NoSolution => "but it cannot be completed: some entry is wrong",
        Status::Unknown => "whether it can be completed is unknown (the search budget ran out)",
    };
    outln!("no conflicts; {filled} of {total} cells filled; {future}");
    Ok(match result.status() {
        Status::NoSolution | Status::Unknown => 1,
        Status::Unique | Status::Multiple => 0,
    })
}

/// `export`: the neutral JSON model (with `--derived`, the sum shapes of the law of 45 added),
/// an f-puzzles link or the f-puzzles JSON.
pub fn export(args: &PuzzleArgs, format: ExportFormat, derived: bool) -> Result<u8, CliError> {
    let mut p = input::puzzle(args)?;
    let fail = input::in_file(&args.puzzle);
    match format {
        ExportFormat::Json => {
            if derived {
                p.geometry = Arc::new(p.geometry.with_derived_sums()?);
            }
            let model = p.to_json();
            outln!(
                "{}",
                serde_json::to_string_pretty(&model).expect("the model serialises")
            );
        }
        ExportFormat::Fpuzzles => outln!("{}", p.to_fpuzzles_url().map_err(fail)?),
        ExportFormat::FpuzzlesJson => {
            let v = p.to_fpuzzles_json().map_err(fail)?;
            outln!(
                "{}",
                serde_json::to_string_pretty(&v).expect("JSON serialises")
            );
        }
    }
    Ok(0)
}

/// `geometries`: the built-in layouts with their sizes, or with `--show NAME` one layout's
/// TOML text.
pub fn geometries(show: Option<&str>) -> Result<u8, CliError> {
    if let Some(name) = show {
        let text = Geometry::builtin_text(name).ok_or_else(|| {
            CliError::from(anydoku::Error::UnknownGeometry {
                name: name.to_string(),
                location: None,
            })
        })?;
        out!("{text}");
        return Ok(0);
    }
    let rows: Vec<(&str, Geometry)> = Geometry::builtin_names()
        .map(|name| Ok((name, Geometry::builtin(name)?)))
        .collect::<Result<_, anydoku::Error>>()?;
    let wide =
        |f: fn(&(&str, Geometry)) -> usize, min: usize| rows.iter().map(f).fold(min, usize::max);
    let (n, t) = (
        wide(|r| r.0.len(), 4),
        wide(|r| r.1.name.chars().count(), 5),
    );
    outln!(
        "{:<n$}  {:<t$}  {:>5}  {:>6}  {:>7}",
        "name",
        "title",
        "cells",
        "shapes",
        "symbols"
    );
    for (name, g) in &rows {
        outln!(
            "{:<n$}  {:<t$}  {:>5}  {:>6}  {:>7}",
            name,
            g.name,
            g.cell_count(),
            g.shapes.len(),
            g.symbol_count()
        );
    }
    Ok(0)
}
