//! The guard in front of every route: only the server's own Host and Origin get in (a page on
//! another site, or a DNS-rebound name, cannot talk to it), every request is answered within
//! [`REQUEST_DEADLINE`], errors that the router or extractors wrote as plain text become JSON,
//! and every answer carries headers that keep the page from being framed or sniffed.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::api::{ApiError, AppState};

/// How long reading a request and producing its answer's head may take.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(30);

/// The hosts the server answers to, with its port.
fn own_hosts(port: u16) -> [String; 2] {
    [format!("127.0.0.1:{port}"), format!("localhost:{port}")]
}

/// Why a request's Host or Origin is refused, if it is.
pub fn foreign(headers: &HeaderMap, port: u16) -> Option<ApiError> {
    let own = own_hosts(port);
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(|h| own.iter().any(|o| o.eq_ignore_ascii_case(h))) {
        return Some(ApiError::new(
            StatusCode::FORBIDDEN,
            "foreign-host",
            format!(
                "this server answers only to the Host {} (got {})",
                own[0],
                host.unwrap_or("none")
            ),
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let ok = own
            .iter()
            .any(|o| origin.eq_ignore_ascii_case(&format!("http://{o}")));
        if !ok {
            return Some(ApiError::new(
                StatusCode::FORBIDDEN,
                "foreign-origin",
                format!("requests from the origin '{origin}' are refused"),
            ));
        }
    }
    None
}

/// The middleware: Host/Origin check, deadline, JSON errors, safety headers.
pub async fn guard(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let mut response = match foreign(req.headers(), state.port) {
        Some(e) => e.into_response(),
        None => match tokio::time::timeout(REQUEST_DEADLINE, next.run(req)).await {
            Ok(r) => r,
            Err(_) => ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "timeout",
                format!(
                    "the request took longer than {} s",
                    REQUEST_DEADLINE.as_secs()
                ),
            )
            .into_response(),
        },
    };
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let reason = status.canonical_reason().unwrap_or("error").to_lowercase();
        response = ApiError::new(status, "http", reason).into_response();
    }
    let h = response.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert("cache-control", HeaderValue::from_static("no-store"));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        ),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(host: Option<&str>, origin: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(v) = host {
            h.insert(header::HOST, HeaderValue::from_str(v).unwrap());
        }
        if let Some(v) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn only_the_own_host_and_origin_pass() {
        let ok = |h, o| foreign(&headers(h, o), 8080).is_none();
        assert!(ok(Some("127.0.0.1:8080"), None));
        assert!(ok(Some("localhost:8080"), Some("http://localhost:8080")));
        assert!(ok(Some("127.0.0.1:8080"), Some("http://127.0.0.1:8080")));
        assert!(!ok(None, None));
        assert!(!ok(Some("127.0.0.1:8081"), None));
        assert!(!ok(Some("evil.example:8080"), None));
        assert!(!ok(Some("127.0.0.1"), None));
        assert!(!ok(Some("127.0.0.1:8080"), Some("http://evil.example")));
        assert!(!ok(Some("127.0.0.1:8080"), Some("null")));
        assert!(!ok(Some("127.0.0.1:8080"), Some("https://127.0.0.1:8080")));
    }
}
