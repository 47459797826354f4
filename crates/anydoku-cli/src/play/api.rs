//! The HTTP JSON API behind the page (documented in docs/PLAY.md): routes, request bodies,
//! the puzzle cache and the limits on work.
//!
//! Every answer is JSON; every error is `{"error": message, "code": word}` with a 4xx (bad
//! request) or 5xx (busy, time budget) status. Bodies are read whole (capped by
//! [`MAX_BODY`]) and parsed by serde_json, so a malformed body is a 400 with the line and column.
//! The work (solving, hints, generation) runs on tokio's blocking pool, at most [`workers`] jobs
//! at once, each answered within its deadline. A puzzle is named in requests by the `id` that
//! `load`/`served`/`generate` returned (kept in a small cache) or sent whole as a JSON model.
//!
//! To add an endpoint, add a method to [`super::game::Game`] and a route in [`router`].

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use super::game::{Game, Invalid};
use super::{guard, page};

/// The largest request body accepted (a 36x36 model is about 200 KB).
pub const MAX_BODY: usize = 1 << 20;
/// How long a check, hint or solve may take before the client is told the budget ran out.
pub const WORK_DEADLINE: Duration = Duration::from_secs(20);
/// Puzzles kept by id.
const CACHE: usize = 64;

/// Jobs run at once on the blocking pool (the others wait, within their deadline).
pub fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }
}

impl From<Invalid> for ApiError {
    fn from(e: Invalid) -> Self {
        Self::bad(e.0)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.message, "code": self.code});
        (self.status, json_body(&body)).into_response()
    }
}

/// A JSON answer.
pub fn json_body(v: &Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_vec(v).expect("JSON serialises"),
    )
        .into_response()
}

/// The server's shared state.
pub struct AppState {
    pub port: u16,
    /// The puzzle given on the command line (or generated at start).
    pub served: Arc<Game>,
    cache: Mutex<VecDeque<Arc<Game>>>,
    /// Permits for jobs on the blocking pool.
    work: Arc<Semaphore>,
    /// One generation at a time.
    pub generating: Arc<Semaphore>,
}

impl AppState {
    pub fn new(port: u16, served: Arc<Game>) -> Self {
        let state = AppState {
            port,
            served: served.clone(),
            cache: Mutex::new(VecDeque::new()),
            work: Arc::new(Semaphore::new(workers())),
            generating: Arc::new(Semaphore::new(1)),
        };
        state.remember(served);
        state
    }

    /// Keeps a game in the cache (the oldest is dropped when it is full).
    pub fn remember(&self, game: Arc<Game>) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|g| g.id != game.id);
        cache.push_back(game);
        while cache.len() > CACHE {
            cache.pop_front();
        }
    }

    fn find(&self, id: &str) -> Option<Arc<Game>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.iter().find(|g| g.id == id).cloned()
    }

    /// The game a request names: `"puzzle": "ID"` or `"puzzle": {JSON model}`.
    async fn game(self: &Arc<Self>, body: &Value) -> Result<Arc<Game>, ApiError> {
        match body.get("puzzle") {
            Some(Value::String(id)) => self.find(id).ok_or_else(|| {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    "unknown-puzzle",
                    format!("no puzzle with id '{id}' here (send the model itself)"),
                )
            }),
            Some(model @ Value::Object(_)) => {
                let model = model.clone();
                let game = self.run(move || Game::from_model(&model)).await??;
                // a puzzle seen before keeps its solution
                if let Some(known) = self.find(&game.id) {
                    return Ok(known);
                }
                self.remember(game.clone());
                Ok(game)
            }
            Some(_) => Err(ApiError::bad(
                "\"puzzle\" must be a puzzle id or a JSON model",
            )),
            None => Err(ApiError::bad("the request needs a \"puzzle\"")),
        }
    }

    /// Runs a job on the blocking pool when a permit is free, within [`WORK_DEADLINE`].
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let timeout = || {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "timeout",
                format!(
                    "the work did not finish within {} s",
                    WORK_DEADLINE.as_secs()
                ),
            )
        };
        let deadline = tokio::time::Instant::now() + WORK_DEADLINE;
        let permit = tokio::time::timeout_at(deadline, self.work.clone().acquire_owned())
            .await
            .map_err(|_| timeout())?
            .expect("the semaphore is never closed");
        let task = tokio::task::spawn_blocking(move || {
            let out = job();
            drop(permit);
            out
        });
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                format!("the work failed: {e}"),
            )),
            Err(_) => Err(timeout()),
        }
    }
}

/// Parses a request body as a JSON object.
pub fn parse(body: Result<Bytes, BytesRejection>) -> Result<Value, ApiError> {
    let bytes = body.map_err(|e| {
        let status = e.status();
        let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "too-large"
        } else {
            "bad-body"
        };
        ApiError::new(status, code, e.body_text())
    })?;
    let v: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad-json", format!("{e}")))?;
    if !v.is_object() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-json",
            "the body must be a JSON object",
        ));
    }
    Ok(v)
}

type Shared = State<Arc<AppState>>;
type Answer = Result<Response, ApiError>;

async fn served(State(s): Shared) -> Answer {
    let game = s.served.clone();
    Ok(json_body(&s.run(move || game.view()).await?))
}

async fn geometries(State(s): Shared) -> Answer {
    let names: Vec<&str> = anydoku::Geometry::builtin_names().collect();
    Ok(json_body(
        &json!({"builtin": names, "served": s.served.puzzle.geometry.name}),
    ))
}

async fn load(State(s): Shared, body: Result<Bytes, BytesRejection>) -> Answer {
    let body = parse(body)?;
    let game = s.game(&body).await?;
    Ok(json_body(&s.run(move || game.view()).await?))
}

async fn check(State(s): Shared, body: Result<Bytes, BytesRejection>) -> Answer {
    let body = parse(body)?;
    let game = s.game(&body).await?;
    let grid = game.grid(body.get("entries"))?;
    let against = body
        .get("solution")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(json_body(&s.run(move || game.check(&grid, against)).await?))
}

async fn hint(State(s): Shared, body: Result<Bytes, BytesRejection>) -> Answer {
    let body = parse(body)?;
    let game = s.game(&body).await?;
    let grid = game.grid(body.get("entries"))?;
    Ok(json_body(&s.run(move || game.hint(&grid)).await?))
}

async fn solve(State(s): Shared, body: Result<Bytes, BytesRejection>) -> Answer {
    let body = parse(body)?;
    let game = s.game(&body).await?;
    Ok(json_body(&s.run(move || game.solve()).await?))
}

async fn export(State(s): Shared, body: Result<Bytes, BytesRejection>) -> Answer {
    let body = parse(body)?;
    let game = s.game(&body).await?;
    let grid = game.grid(body.get("entries"))?;
    Ok(json_body(&game.export(&grid)))
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        "no such page or endpoint",
    )
}

/// Every route, behind the guard.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/served", get(served))
        .route("/api/geometries", get(geometries))
        .route("/api/load", post(load))
        .route("/api/check", post(check))
        .route("/api/hint", post(hint))
        .route("/api/solve", post(solve))
        .route("/api/export", post(export))
        .route("/api/generate", post(super::generate::generate))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .with_state(state)
}
