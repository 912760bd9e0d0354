//! Per-request observability: the `x-request-id` (taken from the request or
//! made up), one structured log line, and the request metrics.

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

use super::AppState;

pub const REQUEST_ID: &str = "x-request-id";

/// Request ids from clients are echoed only when short and printable, so
/// logs and headers cannot be abused.
fn usable_id(value: &HeaderValue) -> Option<String> {
    let s = value.to_str().ok()?;
    let ok = !s.is_empty() && s.len() <= 128 && s.bytes().all(|b| b.is_ascii_graphic());
    ok.then(|| s.to_string())
}

pub async fn observe(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = req
        .headers()
        .get(REQUEST_ID)
        .and_then(usable_id)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let header = HeaderValue::from_str(&id).expect("request id is printable ASCII");
    req.headers_mut().insert(REQUEST_ID, header.clone());
    // Unmatched paths share one label so scanners cannot blow up the metrics.
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |p| p.as_str())
        .to_string();
    let method = req.method().clone();

    let mut response = next.run(req).await;

    response.headers_mut().insert(REQUEST_ID, header);
    let status = response.status().as_u16();
    let elapsed = started.elapsed();
    state
        .metrics
        .observe(&route, method.as_str(), status, elapsed.as_secs_f64());
    tracing::info!(
        request_id = %id,
        method = %method,
        route = %route,
        status,
        latency_ms = elapsed.as_secs_f64() * 1000.0,
        "request"
    );
    response
}
