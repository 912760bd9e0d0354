//! Every 4xx and 5xx answer is an RFC 9457 problem (`application/problem+json`).
//! Handlers return [`ApiError`]; this is the one place it becomes a response.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::pool::PoolError;

pub const PROBLEM_JSON: &str = "application/problem+json";

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema, PartialEq)]
#[schema(example = json!({
    "type": "urn:gamebot:problem:invalid-request",
    "title": "Invalid request",
    "status": 422,
    "detail": "the request is well-formed JSON but describes an invalid game state",
    "errors": [{"pointer": "/hand", "message": "unknown card `X` at position 3"}]
}))]
pub struct Problem {
    /// URI naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// For validation failures: each offending field, as a JSON pointer into the request body.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub errors: Vec<FieldError>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema, PartialEq, Eq)]
pub struct FieldError {
    /// JSON pointer (RFC 6901) of the offending field, e.g. `/last/cards`.
    pub pointer: String,
    pub message: String,
}

impl FieldError {
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("the request body is not valid JSON: {0}")]
    MalformedJson(String),
    #[error("expected a request with `Content-Type: application/json`")]
    UnsupportedMediaType,
    #[error("the request body is larger than the configured limit (body_limit_bytes)")]
    PayloadTooLarge,
    #[error("the request could not be read: {0}")]
    BadRequest(String),
    #[error("the request body did not arrive within the configured time (body_read_timeout_ms)")]
    RequestTimeout,
    #[error("the request is well-formed JSON but describes an invalid game state")]
    Invalid(Vec<FieldError>),
    #[error("no route matches {0}")]
    NotFound(String),
    #[error("this route does not accept that method")]
    MethodNotAllowed,
    #[error("{0}")]
    Overloaded(String),
    #[error("the service is shutting down")]
    Draining,
    #[error("internal error: {0}")]
    Internal(String),
    /// Any other error status, for answers made outside the handlers (the
    /// bundled Swagger UI's) that must still be problems.
    #[error("{}", .0.canonical_reason().unwrap_or("error"))]
    Status(StatusCode),
}

impl ApiError {
    /// A 404 naming the path (cut short: a path can be 64 KiB long).
    pub fn not_found(path: &str) -> Self {
        const SHOWN: usize = 200;
        let mut shown: String = path.chars().take(SHOWN).collect();
        if shown.len() < path.len() {
            shown.push('…');
        }
        ApiError::NotFound(shown)
    }

    /// A validation failure of one field.
    pub fn field(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::Invalid(vec![FieldError::new(pointer, message)])
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MalformedJson(_) | ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Overloaded(_) | ApiError::Draining => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Status(status) => *status,
        }
    }

    fn slug_and_title(&self) -> (&'static str, &'static str) {
        match self {
            ApiError::MalformedJson(_) => ("malformed-json", "Malformed JSON"),
            ApiError::BadRequest(_) => ("bad-request", "Bad request"),
            ApiError::RequestTimeout => ("request-timeout", "Request timeout"),
            ApiError::UnsupportedMediaType => ("unsupported-media-type", "Unsupported media type"),
            ApiError::PayloadTooLarge => ("payload-too-large", "Payload too large"),
            ApiError::Invalid(_) => ("invalid-request", "Invalid request"),
            ApiError::NotFound(_) => ("not-found", "Not found"),
            ApiError::MethodNotAllowed => ("method-not-allowed", "Method not allowed"),
            ApiError::Overloaded(_) => ("overloaded", "Overloaded"),
            ApiError::Draining => ("draining", "Shutting down"),
            ApiError::Internal(_) => ("internal", "Internal error"),
            ApiError::Status(_) => ("http-error", "HTTP error"),
        }
    }

    pub fn to_problem(&self) -> Problem {
        let (slug, title) = self.slug_and_title();
        Problem {
            kind: format!("urn:gamebot:problem:{slug}"),
            title: title.to_string(),
            status: self.status().as_u16(),
            detail: self.to_string(),
            errors: match self {
                ApiError::Invalid(errors) => errors.clone(),
                _ => Vec::new(),
            },
        }
    }
}

/// An engine's typed error as a client sees it: the request field to blame,
/// as a JSON pointer, and what is wrong with it. Each game's HTTP file
/// implements it for its engine's errors, so the engines know nothing of JSON
/// and handlers turn any of them into a 422 with `?`.
pub trait FieldFault: std::fmt::Display {
    /// The JSON pointer of the request field to blame.
    fn pointer(&self) -> String;

    /// What is wrong with it.
    fn message(&self) -> String {
        self.to_string()
    }
}

impl<E: FieldFault> From<E> for ApiError {
    fn from(e: E) -> Self {
        ApiError::field(e.pointer(), e.message())
    }
}

impl From<PoolError> for ApiError {
    fn from(e: PoolError) -> Self {
        match e {
            PoolError::Overloaded { .. } => ApiError::Overloaded(e.to_string()),
            PoolError::Panicked(msg) => ApiError::Internal(format!("search failed: {msg}")),
        }
    }
}

/// Seconds a client should wait before retrying an overloaded or draining server.
const RETRY_AFTER_SECS: &str = "1";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(msg) = &self {
            tracing::error!(error = %msg, "internal error");
        }
        let status = self.status();
        let body = serde_json::to_vec(&self.to_problem()).expect("problem serializes");
        let mut response = (status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if status == StatusCode::SERVICE_UNAVAILABLE {
            headers.insert(
                header::RETRY_AFTER,
                HeaderValue::from_static(RETRY_AFTER_SECS),
            );
        }
        response
    }
}

/// Turns a panic inside a handler into a 500 problem (used by `CatchPanicLayer`).
pub fn panic_response(payload: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string());
    ApiError::Internal(format!("handler panicked: {msg}")).into_response()
}

pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(uri.path())
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// Makes every error answer a problem, whoever made it: a 4xx or 5xx
/// response of another content type (the Swagger UI's empty 404 for
/// `/docs/..`, say) is replaced by the problem of its status.
pub async fn problems_only(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let path = req.uri().path().to_string();
    let response = next.run(req).await;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response;
    }
    let error = match status {
        StatusCode::NOT_FOUND => ApiError::not_found(&path),
        StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge,
        other => ApiError::Status(other),
    };
    let mut problem = error.into_response();
    // Keep what the original answer said about the resource (Allow, CORS).
    let original = response.headers();
    for name in original.keys() {
        if name == header::CONTENT_LENGTH || problem.headers().contains_key(name) {
            continue;
        }
        for value in original.get_all(name) {
            problem.headers_mut().append(name, value.clone());
        }
    }
    problem
}
