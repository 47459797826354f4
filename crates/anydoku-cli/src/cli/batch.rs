//! `batch`: many puzzles, one per line, solved in parallel with answers in input order.
//!
//! Lines are read in chunks and solved with rayon; each worker keeps its own search state. Output
//! per line: the solution string, `none`, `multiple`, `unknown`, or `invalid: reason`. Blank lines
//! and lines starting with `#` are skipped. Throughput goes to stderr, and on a terminal a running
//! count while the work goes on.
//!
//! In a `.jsonl` file each line is a whole model; a worker reads the lines with a [`JsonLines`],
//! which reuses its last geometry while the layout repeats and its last cells while only the
//! shapes change (a file of Killers on one grid reads only each line's cages), and the worker
//! reuses its engine while the geometry is the same (a file of Samurai puzzles builds one
//! engine per worker, not one per line).

use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anydoku::puzzle::{JsonLines, TextLines};
use anydoku::{Engine, Geometry, Limits, Searcher, Status};
use rayon::prelude::*;

use super::input::{self, CliError};
use super::lines::{Line, Lines};
use super::BudgetArgs;

const CHUNK: usize = 4096;

#[derive(Default)]
struct Tally {
    unique: u64,
    multiple: u64,
    none: u64,
    unknown: u64,
    invalid: u64,
}

impl Tally {
    /// Counts an answer and writes its line (an error on stderr too for an invalid line).
    fn write(
        &mut self,
        out: &mut impl Write,
        line: &Line,
        a: Answer,
        label: &str,
        bar: Option<&indicatif::ProgressBar>,
    ) -> std::io::Result<()> {
        match a {
            Answer::Solved(Status::Unique, Some(solution)) => {
                self.unique += 1;
                writeln!(out, "{solution}")
            }
            Answer::Solved(status, _) => {
                match status {
                    Status::Multiple => self.multiple += 1,
                    Status::NoSolution => self.none += 1,
                    _ => self.unknown += 1,
                }
                writeln!(out, "{}", status.as_str())
            }
            Answer::Invalid(e) => {
                self.invalid += 1;
                let message = format!("{label}:{}: {e}", line.place(Some(&e)));
                match bar {
                    Some(b) => b.suspend(|| errln!("error: {message}")),
                    None => errln!("error: {message}"),
                }
                writeln!(out, "invalid: {}", line.invalid(&e))
            }
        }
    }
}

/// What the lines of a file are: one-line puzzles on a geometry (read by the reader, solved by
/// the engine), or JSON models.
enum Kind<'a> {
    Text(&'a TextLines, &'a Engine),
    Json,
}

/// A running count on a terminal (a line of a 36x36 can take minutes).
fn spinner() -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {human_pos} puzzles [{elapsed_precise}] {per_sec}",
            )
            .expect("the template is valid"),
        );
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    })
}

/// Solves a chunk of lines in parallel (in the current rayon pool), answers in line order.
fn solve_chunk(
    chunk: &[Line],
    kind: &Kind,
    limits: Limits,
    bar: Option<&indicatif::ProgressBar>,
) -> Vec<Answer> {
    let done = |a: Answer| {
        if let Some(b) = bar {
            b.inc(1);
        }
        a
    };
    match kind {
        Kind::Text(reader, engine) => chunk
            .par_iter()
            .map_init(
                || Searcher::new(engine),
                |s, line| {
                    let givens = match &line.text {
                        Ok(text) => reader.givens(text),
                        Err(e) => Err(e.clone()),
                    };
                    done(match givens {
                        Ok(givens) => answer(reader.geometry(), s, &givens, limits),
                        Err(e) => Answer::Invalid(e),
                    })
                },
            )
            .collect(),
        Kind::Json => chunk
            .par_iter()
            .map_init(Worker::default, |w, line| {
                let answer = match &line.text {
                    Ok(text) => solve_model(w, text, limits),
                    Err(e) => Err(e.clone()),
                };
                done(answer.unwrap_or_else(Answer::Invalid))
            })
            .collect(),
    }
}

/// One line's answer.
enum Answer {
    Solved(Status, Option<String>),
    Invalid(anydoku::Error),
}

/// Solves `givens` with a reusable searcher and formats the answer.
fn answer(g: &Geometry, searcher: &mut Searcher, givens: &[Option<u8>], limits: Limits) -> Answer {
    let result = searcher.count(givens, 2, limits);
    let status = result.status();
    let line = (status == Status::Unique).then(|| anydoku::render::line(g, &result.solutions[0]));
    Answer::Solved(status, line)
}

/// A worker's engine for the last geometry it met: lines of a `.jsonl` file often share one
/// layout (a Samurai set, say), and [`JsonLines`] hands out the same geometry while the layout
/// repeats, so the engine is built once per layout, not once per line.
#[derive(Default)]
struct Worker {
    lines: JsonLines,
    engine: Option<(Arc<Geometry>, Engine)>,
}

/// Solves one JSON line, reusing the worker's engine when the line has the same layout.
fn solve_model(w: &mut Worker, line: &str, limits: Limits) -> Result<Answer, anydoku::Error> {
    let p = w.lines.read(line)?;
    let fresh = w
        .engine
        .as_ref()
        .is_none_or(|(g, _)| !Arc::ptr_eq(g, &p.geometry));
    if fresh {
        w.engine = Some((Arc::clone(&p.geometry), Engine::new(&p.geometry)));
    }
    let (_, engine) = w.engine.as_ref().expect("just built");
    let mut s = Searcher::new(engine);
    Ok(answer(&p.geometry, &mut s, &p.givens, limits))
}

/// The error for a file that cannot be read.
pub fn read_error(label: &str, e: std::io::Error) -> CliError {
    input::in_file(label)(anydoku::Error::io(label, e))
}

/// Runs the batch command.
pub fn run(
    file: &Path,
    geometry: Option<&str>,
    threads: Option<usize>,
    budget: BudgetArgs,
) -> Result<u8, CliError> {
    let limits = input::limits(budget)?;
    let label = file.display().to_string();
    let jsonl = file.extension().is_some_and(|e| e == "jsonl");
    let geometry = match (geometry, jsonl) {
        (Some(name), _) => Some(input::geometry(name)?),
        (None, true) => None,
        (None, false) => {
            let hint = super::layout_hint::for_lines_file(file)
                .map(|h| format!("; {h}"))
                .unwrap_or_default();
            return Err(anydoku::Error::puzzle(format!(
                "batch needs --geometry NAME (or a .jsonl file of JSON models){hint}"
            ))
            .into());
        }
    };
    let reader: Box<dyn BufRead> = if label == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(file).map_err(|e| read_error(&label, e))?;
        Box::new(std::io::BufReader::with_capacity(1 << 20, f))
    };
    let pool = input::pool(threads)?;
    let engine = geometry.as_ref().map(|g| Engine::new(g));
    let text_lines = geometry.clone().map(TextLines::new);
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut tally = Tally::default();
    let start = Instant::now();
    let bar = spinner();
    let bar = bar.as_ref();
    let mut lines = Lines::new(reader);
    let mut chunk: Vec<Line> = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        for line in lines.by_ref() {
            chunk.push(line.map_err(|e| read_error(&label, e))?);
            if chunk.len() == CHUNK {
                break;
            }
        }
        if chunk.is_empty() {
            break;
        }
        let kind = match (&text_lines, &engine) {
            (Some(reader), Some(e)) => Kind::Text(reader, e),
            _ => Kind::Json,
        };
        let answers = pool.install(|| solve_chunk(&chunk, &kind, limits, bar));
        for (line, a) in chunk.iter().zip(answers) {
            if let Err(e) = tally.write(&mut out, line, a, &label, bar) {
                if let Some(b) = bar {
                    b.finish_and_clear();
                }
                return Err(super::output::stdout_error(e));
            }
        }
    }
    out.flush().map_err(super::output::stdout_error)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    let total = tally.unique + tally.multiple + tally.none + tally.unknown + tally.invalid;
    errln!(
        "batch: {total} puzzles in {secs:.3} s ({:.0} puzzles/s): {} unique, {} multiple, {} none, {} unknown, {} invalid",
        total as f64 / secs.max(1e-9),
        tally.unique,
        tally.multiple,
        tally.none,
        tally.unknown,
        tally.invalid
    );
    if tally.invalid > 0 {
        return Err(input::in_file(&label)(anydoku::Error::puzzle(format!(
            "{} of {total} lines were invalid (each answered `invalid: line N: ...` in its place)",
            tally.invalid
        ))));
    }
    Ok(0)
}
