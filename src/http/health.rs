//! Liveness and readiness for load balancers and orchestrators.

use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

use super::AppState;
use super::error::{ApiError, Problem};

#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    /// `ok` or `ready`.
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// Liveness: 200 while the process runs.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "The process is alive", body = Status,
               example = json!({"status": "ok"}))))]
pub async fn healthz() -> Json<Status> {
    Json(Status { status: "ok" })
}

/// Readiness: 200 while serving, 503 once shutdown has begun.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "Accepting work", body = Status, example = json!({"status": "ready"})),
        (status = 503, description = "Draining before shutdown", body = Problem, content_type = "application/problem+json"),
    ))]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Status>, ApiError> {
    if state.draining.load(Ordering::Relaxed) {
        Err(ApiError::Draining)
    } else {
        Ok(Json(Status { status: "ready" }))
    }
}
