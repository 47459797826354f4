//! New puzzles for `play`: the library's generator on the blocking pool, one at a time, within a
//! time budget, with its progress streamed to the client as lines of JSON.
//!
//! `POST /api/generate` answers `application/x-ndjson`: zero or more `{"progress": {"tested",
//! "orbits", "givens", "building"}}` lines, then one `{"puzzle": VIEW}` or `{"error": message}`
//! line. The generator cannot be stopped from outside, so the progress callback unwinds it
//! (with a private payload, caught here) once the budget is spent or the client has gone; Killer
//! cage cutting and difficulty ratings do not report progress, so they run to the end of their
//! current grid.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anydoku::generate::{GenerateError, Generator, KillerOptions, Options, Progress};
use anydoku::logic::Level;
use anydoku::{Geometry, Limits, Puzzle, Rule};
use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::api::{parse, ApiError, AppState};
use super::game::Game;

/// The default and the largest time budget of one generation.
pub const DEFAULT_BUDGET: f64 = 60.0;
pub const MAX_BUDGET: f64 = 300.0;
/// Grids tried for a difficulty before giving up.
const ATTEMPTS: u32 = 50;

/// What to generate.
#[derive(Debug, Clone)]
pub struct Request {
    pub geometry: Arc<Geometry>,
    pub killer: bool,
    pub difficulty: Option<Level>,
    pub seed: u64,
    pub budget: Duration,
}

/// The unwinding payload that stops a generation.
struct Cancelled;

/// A seed from the clock.
pub fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    t.as_secs() ^ ((t.subsec_nanos() as u64) << 20)
}

/// The layout of a puzzle without its cages (what "the served layout" generates on).
pub fn layout_of(p: &Puzzle) -> Result<Arc<Geometry>, String> {
    let g = &p.geometry;
    if !g.shapes.iter().any(|s| matches!(s.rule, Rule::Sum { .. })) {
        return Ok(g.clone());
    }
    let shapes = g
        .shapes
        .iter()
        .filter(|s| !matches!(s.rule, Rule::Sum { .. }))
        .cloned()
        .collect();
    g.with_shapes(g.name.clone(), shapes)
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

/// Generates one puzzle; `progress` hears of the thinning and may stop it by returning false.
pub fn run(req: &Request, progress: &mut dyn FnMut(Progress) -> bool) -> Result<Arc<Game>, String> {
    let started = Instant::now();
    let options = Options {
        attempts: if req.difficulty.is_some() {
            ATTEMPTS
        } else {
            1
        },
        killer: req.killer.then(|| {
            let n = req.geometry.symbol_count();
            KillerOptions {
                min_size: 2.min(n),
                max_size: 5.min(n),
                ..KillerOptions::default()
            }
        }),
        difficulty: req.difficulty,
        limits: Limits {
            max_nodes: None,
            max_time: Some(req.budget),
        },
        // the whole run's budget: thinning stops within it even between progress reports
        deadline: Some(started + req.budget),
        ..Options::default()
    };
    let generator = Generator::new(req.geometry.clone(), options).map_err(|e| e.to_string())?;
    let mut report = |p: Progress| {
        if !progress(p) || started.elapsed() > req.budget {
            panic::resume_unwind(Box::new(Cancelled));
        }
    };
    let made = panic::catch_unwind(AssertUnwindSafe(|| {
        generator.generate_seeded_with_progress(req.seed, 0, &mut report)
    }));
    let made = match made {
        Ok(Ok(m)) => m,
        Ok(Err(e @ GenerateError::TargetNotReached { .. })) => return Err(e.to_string()),
        Ok(Err(e)) => return Err(format!("no puzzle: {e}")),
        Err(payload) if payload.is::<Cancelled>() => {
            return Err(format!(
                "stopped: the time budget of {:.0} s ran out (or the client left)",
                req.budget.as_secs_f64()
            ))
        }
        Err(payload) => panic::resume_unwind(payload),
    };
    if started.elapsed() > req.budget {
        return Err(format!(
            "the time budget of {:.0} s ran out",
            req.budget.as_secs_f64()
        ));
    }
    Ok(Game::new(made.puzzle))
}

/// Reads a generate request.
fn request(state: &AppState, body: &Value) -> Result<Request, ApiError> {
    let bad = |m: String| ApiError::new(StatusCode::BAD_REQUEST, "bad-request", m);
    let name = body
        .get("geometry")
        .and_then(Value::as_str)
        .unwrap_or("served");
    let geometry = if name == "served" {
        layout_of(&state.served.puzzle).map_err(bad)?
    } else {
        Arc::new(Geometry::builtin(name).map_err(|e| bad(e.to_string()))?)
    };
    let difficulty = match body.get("difficulty") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.is_empty() || s == "any" => None,
        Some(Value::String(s)) => Some(s.parse::<Level>().map_err(|e| bad(e.to_string()))?),
        Some(_) => return Err(bad("\"difficulty\" must be a level name".into())),
    };
    let budget = match body.get("timeout") {
        None | Some(Value::Null) => DEFAULT_BUDGET,
        Some(v) => match v.as_f64() {
            Some(t) if t > 0.0 && t <= MAX_BUDGET => t,
            _ => {
                return Err(bad(format!(
                    "\"timeout\" must be a number of seconds in (0, {MAX_BUDGET}]"
                )))
            }
        },
    };
    let seed = match body.get("seed") {
        None | Some(Value::Null) => clock_seed(),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad("\"seed\" must be a whole number".into()))?,
    };
    Ok(Request {
        geometry,
        killer: body.get("killer").and_then(Value::as_bool).unwrap_or(false),
        difficulty,
        seed,
        budget: Duration::from_secs_f64(budget),
    })
}

fn line(v: Value) -> Bytes {
    let mut s = v.to_string();
    s.push('\n');
    Bytes::from(s)
}

/// `POST /api/generate`.
pub async fn generate(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = parse(body)?;
    let req = request(&state, &body)?;
    let permit = state.generating.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "another puzzle is being generated; try again when it is done",
        )
    })?;
    let (tx, rx) = mpsc::channel::<Bytes>(8);
    let budget = req.budget;
    let job_state = state.clone();
    let job = tokio::task::spawn_blocking(move || {
        let mut last = Instant::now();
        let tx2 = tx.clone();
        let mut progress = |p: Progress| {
            if last.elapsed() > Duration::from_millis(150) {
                last = Instant::now();
                let _ = tx2.try_send(line(json!({"progress": {
                    "tested": p.tested, "orbits": p.orbits, "givens": p.givens,
                    "building": p.building
                }})));
            }
            !tx2.is_closed()
        };
        let answer = match run(&req, &mut progress) {
            Ok(game) => {
                job_state.remember(game.clone());
                let mut view = game.view();
                view["seed"] = json!(req.seed);
                json!({"puzzle": view})
            }
            Err(e) => json!({"error": e}),
        };
        drop(permit);
        let _ = tx.blocking_send(line(answer));
    });
    // the client hears of the budget even when the job cannot be stopped in time
    let rx = Some(rx);
    let deadline = tokio::time::Instant::now() + budget + Duration::from_secs(2);
    let stream = futures_util::stream::unfold(rx, move |rx| async move {
        let mut rx = rx?;
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(b)) => Some((Ok::<Bytes, std::io::Error>(b), Some(rx))),
            Ok(None) => None,
            Err(_) => Some((Ok(line(json!({"error": "the time budget ran out"}))), None)),
        }
    });
    drop(job);
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}
