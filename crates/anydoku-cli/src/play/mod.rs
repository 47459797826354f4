//! `anydoku play`: a local web server with one page on which a person plays any layout.
//!
//! [`game`] answers the questions (conflicts, check, hint, solve, export) from the library,
//! [`generate`] makes new puzzles, [`api`] routes the HTTP JSON API (docs/PLAY.md) onto them,
//! [`guard`] keeps out requests that are not the server's own, and [`page`] serves the embedded
//! page. The server listens on 127.0.0.1 only and stops on Ctrl-C.

mod api;
mod game;
mod generate;
mod guard;
mod page;

use std::io::Write as _;
use std::sync::Arc;
use std::time::Duration;

use anydoku::Error;

use crate::cli::input::{self, CliError};
use crate::cli::PuzzleArgs;

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// A puzzle file (TOML or JSON), a built-in layout name (its empty grid), or with --geometry
    /// a file of grid text or the givens string itself; without it, a new puzzle is generated
    /// (on --geometry, or classic9)
    pub puzzle: Option<String>,
    /// The layout of PUZZLE's givens, or without PUZZLE the layout of the new puzzle: a built-in
    /// name or a TOML/JSON geometry file
    #[arg(short, long)]
    pub geometry: Option<String>,
    /// Difficulty of the new puzzle: easy, medium, hard, expert, master or search
    #[arg(long, conflicts_with = "puzzle")]
    pub difficulty: Option<String>,
    /// Make the new puzzle a Killer (cages with sums, no givens)
    #[arg(long, conflicts_with = "puzzle")]
    pub killer: bool,
    /// Random seed of the new puzzle (default: from the clock)
    #[arg(long, conflicts_with = "puzzle")]
    pub seed: Option<u64>,
    /// Port on 127.0.0.1 (default: a free one)
    #[arg(long, default_value_t = 0)]
    pub port: u16,
}

fn fail(message: impl Into<String>) -> CliError {
    Error::puzzle(message.into()).into()
}

/// The puzzle to serve: the file given, or a new one.
fn served(args: &PlayArgs) -> Result<Arc<game::Game>, CliError> {
    if let Some(puzzle) = &args.puzzle {
        let p = input::solvable_puzzle(&PuzzleArgs {
            puzzle: puzzle.clone(),
            geometry: args.geometry.clone(),
        })?;
        return Ok(game::Game::new(p));
    }
    let name = args.geometry.as_deref().unwrap_or("classic9");
    let geometry = input::geometry(name)?;
    let difficulty = match &args.difficulty {
        Some(d) => Some(
            d.parse::<anydoku::logic::Level>()
                .map_err(|e| fail(e.to_string()))?,
        ),
        None => None,
    };
    let req = generate::Request {
        geometry,
        killer: args.killer,
        difficulty,
        seed: args.seed.unwrap_or_else(generate::clock_seed),
        budget: Duration::from_secs_f64(generate::DEFAULT_BUDGET),
    };
    eprintln!("generating a puzzle on {name} (seed {})...", req.seed);
    generate::run(&req, &mut |_| true).map_err(fail)
}

/// Runs `play` until Ctrl-C.
pub fn run(args: &PlayArgs) -> Result<u8, CliError> {
    let game = served(args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| fail(format!("cannot start the server: {e}")))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(("127.0.0.1", args.port)))
        .map_err(|e| {
            let why = match e.kind() {
                std::io::ErrorKind::AddrInUse => {
                    "another program uses that port (leave out --port for a free one)".to_string()
                }
                std::io::ErrorKind::PermissionDenied => {
                    "permission denied (ports below 1024 need privileges; leave out --port for a \
                     free one)"
                        .to_string()
                }
                _ => e.to_string(),
            };
            fail(format!("cannot listen on 127.0.0.1:{}: {why}", args.port))
        })?;
    let port = listener
        .local_addr()
        .map_err(|e| fail(format!("cannot read the server's address: {e}")))?
        .port();
    let state = Arc::new(api::AppState::new(port, game));
    let app = api::router(state);
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "anydoku play: http://127.0.0.1:{port}/ (Ctrl-C stops)");
        let _ = out.flush();
    }
    let served = runtime.block_on(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    });
    // jobs still running on the blocking pool are not waited for
    runtime.shutdown_timeout(Duration::from_millis(500));
    served.map_err(|e| fail(format!("the server stopped: {e}")))?;
    Ok(0)
}
