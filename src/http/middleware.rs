//! Per-request middleware: the `x-request-id` (taken from the request or made
//! up), the version header, one structured log line and the request metrics
//! ([`observe`]); and the body limits checked before a handler runs
//! ([`limit_body`]).

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;
use super::metrics::method_label;

pub const REQUEST_ID: &str = "x-request-id";

/// The status logged and counted for a request whose client went away before
/// the answer (nginx's "client closed request").
pub const CLIENT_CLOSED_REQUEST: u16 = 499;

/// Request ids from clients are echoed only when short and printable, so
/// logs and headers cannot be abused.
fn usable_id(value: &HeaderValue) -> Option<String> {
    let s = value.to_str().ok()?;
    let ok = !s.is_empty() && s.len() <= 128 && s.bytes().all(|b| b.is_ascii_graphic());
    ok.then(|| s.to_string())
}

pub async fn observe(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
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
    let mut record = RequestRecord {
        state,
        id,
        route,
        method: method_label(req.method()),
        started: Instant::now(),
        answered: false,
    };

    let mut response = next.run(req).await;

    let headers = response.headers_mut();
    headers.insert(REQUEST_ID, header);
    headers.insert(
        crate::version::HEADER,
        HeaderValue::from_static(crate::version::full()),
    );
    record.finish(response.status().as_u16());
    response
}

/// Logs and counts one request when it ends: with its status when answered,
/// or as [`CLIENT_CLOSED_REQUEST`] when dropped unanswered (hyper drops the
/// request's future when its client disconnects).
struct RequestRecord {
    state: AppState,
    id: String,
    route: String,
    method: &'static str,
    started: Instant,
    answered: bool,
}

impl RequestRecord {
    fn finish(&mut self, status: u16) {
        self.answered = true;
        let elapsed = self.started.elapsed();
        self.state
            .metrics
            .observe(&self.route, self.method, status, elapsed.as_secs_f64());
        let latency_ms = elapsed.as_secs_f64() * 1000.0;
        if status == CLIENT_CLOSED_REQUEST {
            tracing::warn!(
                request_id = %self.id,
                method = self.method,
                route = %self.route,
                status,
                latency_ms,
                "request abandoned: the client closed the connection"
            );
        } else {
            tracing::info!(
                request_id = %self.id,
                method = self.method,
                route = %self.route,
                status,
                latency_ms,
                "request"
            );
        }
    }
}

impl Drop for RequestRecord {
    fn drop(&mut self) {
        if !self.answered {
            self.finish(CLIENT_CLOSED_REQUEST);
        }
    }
}

/// When the request's body must have arrived by (read by the JSON extractor).
#[derive(Debug, Clone, Copy)]
pub struct BodyDeadline(pub Instant);

/// Refuses a body declared larger than `body_limit_bytes` at once, before
/// reading any of it, and sets the body's read deadline.
pub async fn limit_body(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > state.config.body_limit_bytes as u64) {
        let mut response = ApiError::PayloadTooLarge.into_response();
        // The unread body makes the connection unusable for another request.
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    let timeout: Duration = state.config.body_read_timeout();
    req.extensions_mut()
        .insert(BodyDeadline(Instant::now() + timeout));
    next.run(req).await
}
