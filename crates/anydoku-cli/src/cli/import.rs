//! `import`: Killer puzzles from other formats (KrazyDad CSV, puzzlekit JSON, cage JSON) as
//! anydoku puzzle files, so they can be solved, rendered or batched directly.
//!
//! One puzzle (chosen with `--index` or `--name` when the file holds several) is written as a TOML
//! puzzle file (or the neutral JSON model with `--format json`); `--all` writes every puzzle as
//! JSON lines (one model per line, with the published solution when there is one) for `batch`.

use std::io::Write;
use std::path::PathBuf;

use anydoku::puzzle::{RawKiller, Source};
use anydoku::Error;
use clap::ValueEnum;
use serde_json::Value;

use super::input::{in_file, read_text, CliError};

/// The formats `import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImportFrom {
    /// KrazyDad Killer CSV rows (ptitle, puzz_color, puzz_hint, solved)
    Krazydad,
    /// puzzlekit-dataset JSON: clue grid + cage-id grid per record
    Puzzlekit,
    /// A JSON array of cages {"result": sum, "indices": [[row, col], ...]} (1-based)
    CageJson,
}

/// What `import` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
#[allow(rustdoc::broken_intra_doc_links)] // the help text writes TOML's `[[cage]]` as is
pub enum ImportFormat {
    /// A TOML puzzle file: geometry = "classicN" and a [[cage]] list
    Toml,
    /// The neutral JSON model (with the published solution, if any)
    Json,
}

/// Arguments of `import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The file to read (format guessed from its name and content unless --from is given)
    pub file: PathBuf,
    /// The file's format
    #[arg(long, value_enum)]
    pub from: Option<ImportFrom>,
    /// Which puzzle of a file holding several: its position, counting from 1
    #[arg(long)]
    pub index: Option<usize>,
    /// Which puzzle, by its title or key (KrazyDad `ptitle`, puzzlekit key such as `12_6x6`)
    #[arg(long, conflicts_with = "index")]
    pub name: Option<String>,
    /// Write every puzzle as JSON lines (one model per line, for `anydoku batch FILE.jsonl`)
    #[arg(long, conflicts_with_all = ["index", "name"])]
    pub all: bool,
    /// Output format of a single puzzle
    #[arg(long, value_enum, default_value_t = ImportFormat::Toml)]
    pub format: ImportFormat,
    /// Write to this file instead of standard output
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Put the cages on this built-in geometry instead of classicN (e.g. `x` for an X-Killer)
    #[arg(short, long)]
    pub geometry: Option<String>,
}

/// The model line of a record, with its solution.
fn model_of(raw: &RawKiller, geometry: &str) -> Result<Value, Error> {
    let p = raw.to_puzzle_on(geometry)?;
    let mut m = p.to_json();
    m["name"] = raw.name.clone().into();
    if let Some(sol) = raw.solution_indices(&p) {
        m["solution"] = p.geometry.grid_json(&sol).into();
    }
    Ok(m)
}

/// Runs `import`.
pub fn run(args: &ImportArgs) -> Result<u8, CliError> {
    let label = args.file.display().to_string();
    let fail = in_file(&label);
    let text = read_text(&args.file).map_err(&fail)?;
    let source = match args.from {
        Some(ImportFrom::Krazydad) => Source::KrazyDad,
        Some(ImportFrom::Puzzlekit) => Source::Puzzlekit,
        Some(ImportFrom::CageJson) => Source::CageJson,
        None => Source::detect(&label, &text).ok_or_else(|| {
            fail(Error::puzzle(
                "cannot tell the format of this file; say --from krazydad, puzzlekit or cage-json",
            ))
        })?,
    };
    let mut records = source.read_each(&text).map_err(&fail)?;
    if source == Source::CageJson {
        let stem = args
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        records
            .iter_mut()
            .flatten()
            .for_each(|r| r.name = stem.clone());
    }
    if records.is_empty() {
        return Err(fail(Error::puzzle("the file holds no puzzle")));
    }
    let geometry_of =
        |raw: &RawKiller| args.geometry.clone().unwrap_or_else(|| raw.geometry_name());
    let mut body = Vec::new();
    let mut bad = 0;
    if args.all {
        // one line per record, in order: a bad record is `invalid: ...` in its place
        for record in &records {
            let model = record.as_ref().map_err(Clone::clone).and_then(|raw| {
                model_of(raw, &geometry_of(raw)).map_err(|e| match e.to_string() {
                    // say which record, unless the message does
                    m if m.starts_with(&format!("{}:", raw.name)) => e,
                    m => Error::puzzle(format!("{}: {m}", raw.name)),
                })
            });
            match model {
                Ok(m) => {
                    let line = serde_json::to_string(&m).expect("the model serialises");
                    let _ = writeln!(body, "{line}");
                }
                Err(e) => {
                    bad += 1;
                    let at = e
                        .location()
                        .map(|l| format!("line {}: ", l.line))
                        .unwrap_or_default();
                    errln!("error: {}", fail(e.clone()));
                    let _ = writeln!(body, "invalid: {at}{e}");
                }
            }
        }
        errln!(
            "import: {} of {} puzzles written",
            records.len() - bad,
            records.len()
        );
    } else {
        // the chosen record must be good; a bad one elsewhere in the file does not matter
        let chosen = match (&args.name, args.index) {
            (Some(name), _) => records
                .iter()
                .find(|r| r.as_ref().is_ok_and(|r| &r.name == name))
                .ok_or_else(|| {
                    fail(Error::puzzle(format!("no puzzle named '{name}' in the file")))
                })?,
            (None, Some(i)) => {
                if i == 0 || i > records.len() {
                    return Err(fail(Error::puzzle(format!(
                        "--index {i} is out of range: the file holds {} puzzle(s), numbered from 1",
                        records.len()
                    ))));
                }
                &records[i - 1]
            }
            (None, None) if records.len() == 1 => &records[0],
            (None, None) => {
                return Err(fail(Error::puzzle(format!(
                    "the file holds {} puzzles; choose one with --index N (from 1) or --name NAME, or write them all with --all",
                    records.len()
                ))))
            }
        };
        let raw = chosen.as_ref().map_err(|e| fail(e.clone()))?;
        match args.format {
            ImportFormat::Toml => {
                raw.to_puzzle_on(&geometry_of(raw)).map_err(&fail)?;
                body.extend_from_slice(raw.to_toml_on(&geometry_of(raw)).as_bytes());
            }
            ImportFormat::Json => {
                let m = model_of(raw, &geometry_of(raw)).map_err(&fail)?;
                let _ = writeln!(
                    body,
                    "{}",
                    serde_json::to_string_pretty(&m).expect("the model serialises")
                );
            }
        }
    }
    match &args.output {
        Some(path) => super::output::write_file(path, &body)?,
        None => super::output::print_bytes(&body)?,
    }
    Ok(if bad > 0 { 2 } else { 0 })
}
