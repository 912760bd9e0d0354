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

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    #[schema(example = "ok")]
    pub status: &'static str,
    /// The package version.
    #[schema(example = "0.1.0")]
    pub version: &'static str,
    /// The commit the binary was built from (`unknown` when built without one).
    #[schema(example = "4544d86a1b2c")]
    pub commit: &'static str,
}

/// Liveness: 200 while the process runs, with the build it runs (the same
/// seed gives the same answer on the same build).
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "The process is alive", body = Health,
               example = json!({"status": "ok", "version": "0.1.0", "commit": "4544d86a1b2c"}))))]
pub async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok",
        version: crate::version::VERSION,
        commit: crate::version::COMMIT,
    })
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
