//! API tests: one binary, grouped by area (as ripgrep does), sharing the
//! helpers below. Most go through `tower::ServiceExt::oneshot` with no socket;
//! those about connections, saturation and shutdown run a real server on an
//! ephemeral 127.0.0.1 port.

mod binary;
mod brain;
mod connections;
mod doudizhu;
mod errors;
mod gomoku;
mod mahjong;
mod mahjong_table;
mod mjai;
mod mjai_selfplay;
mod observability;
mod openapi;
mod search_pool;
mod shared_cache;
mod shutdown;
mod web;

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::{get, post};
use gamebot::config::Config;
use gamebot::http::error::ApiError;
use gamebot::http::extract::ApiJson;
use gamebot::http::{AppState, app_with};
use gamebot::stop::Stop;
use http_body_util::BodyExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

/// A configuration for tests: small cache, explicit workers.
/// The real binary, for tests that run it as a process.
pub const BIN: &str = env!("CARGO_BIN_EXE_gamebot");

/// A loopback port nothing listens on (just now).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn test_config(workers: usize, max_queued: usize) -> Config {
    let mut c = Config::defaults();
    c.workers = workers;
    c.max_queued = max_queued;
    c.cache_mib = 1;
    c.body_limit_bytes = 4096;
    c.drain_timeout_ms = 5_000;
    c
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SpinRequest {
    budget_ms: u64,
}

/// A real, cancellable CPU workload for the search pool: counts until its
/// Stop fires. Stands in for a game search in these foundation tests.
fn spin(stop: &Stop) -> u64 {
    let mut n = 0u64;
    loop {
        n = n.wrapping_add(1);
        if n.is_multiple_of(4096) && stop.should_stop() {
            return n;
        }
    }
}

async fn spin_handler(
    axum::extract::State(state): axum::extract::State<AppState>,
    ApiJson(req): ApiJson<SpinRequest>,
) -> Result<axum::Json<Value>, ApiError> {
    if req.budget_ms == 0 {
        return Err(ApiError::field("/budget_ms", "must be at least 1"));
    }
    let budget = state.pool.budget(Some(req.budget_ms));
    let n = state.pool.run(budget, spin).await?;
    Ok(axum::Json(serde_json::json!({ "iterations": n })))
}

async fn handler_panic() -> &'static str {
    panic!("handler exploded")
}

async fn search_panic(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Result<&'static str, ApiError> {
    state
        .pool
        .run(Duration::from_millis(100), |_| -> &'static str {
            panic!("search exploded")
        })
        .await?;
    Ok("unreachable")
}

pub fn test_routes() -> Router<AppState> {
    Router::new()
        .route("/test/spin", post(spin_handler))
        .route("/test/panic", get(handler_panic))
        .route("/test/search-panic", post(search_panic))
}

pub fn test_app(config: Config) -> (Router, AppState) {
    let state = AppState::new(config);
    (app_with(state.clone(), test_routes()), state)
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One request through the router, no socket.
pub async fn call(router: &Router, req: Request<Body>) -> Reply {
    let response = router
        .clone()
        .oneshot(req)
        .await
        .expect("router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    Reply {
        status,
        headers,
        body,
    }
}

pub fn post_json(uri: &str, body: &str) -> Request<Body> {
    Request::post(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

pub fn get_req(uri: &str) -> Request<Body> {
    Request::get(uri).body(Body::empty()).unwrap()
}

/// A running server on an ephemeral loopback port.
pub struct TestServer {
    pub addr: SocketAddr,
    pub state: AppState,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    pub handle: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Begins graceful shutdown (as SIGTERM does).
    pub fn shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

pub async fn spawn_app(config: Config) -> TestServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (router, state) = test_app(config);
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server_state = state.clone();
    let handle = tokio::spawn(async move {
        gamebot::server::serve(listener, router, &server_state, async {
            let _ = rx.await;
        })
        .await
    });
    TestServer {
        addr,
        state,
        shutdown: Some(tx),
        handle,
    }
}

/// A minimal HTTP/1.1 client: one request per connection.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Reply {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    send(&mut stream, method, path, body).await;
    read_reply(&mut stream).await
}

pub async fn send(stream: &mut TcpStream, method: &str, path: &str, body: Option<&str>) {
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await.expect("write");
}

pub async fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or_default();
    let code: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let mut headers = axum::http::HeaderMap::new();
    for line in lines {
        if let Some((k, v)) = line.split_once(':') {
            headers.insert(
                axum::http::HeaderName::from_bytes(k.trim().as_bytes()).unwrap(),
                v.trim().parse().unwrap(),
            );
        }
    }
    Reply {
        status: StatusCode::from_u16(code).unwrap_or(StatusCode::IM_A_TEAPOT),
        headers,
        body: body.as_bytes().to_vec(),
    }
}

/// Polls `cond` until true, failing after `limit`.
pub async fn wait_until(limit: Duration, what: &str, mut cond: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !cond() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// Asserts an RFC 9457 problem with the given status.
pub fn assert_problem(reply: &Reply, status: u16) -> Value {
    assert_eq!(reply.status.as_u16(), status, "body: {}", reply.text());
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    let p = reply.json();
    assert_eq!(p["status"], status);
    assert!(
        p["type"]
            .as_str()
            .unwrap()
            .starts_with("urn:gamebot:problem:")
    );
    assert!(!p["title"].as_str().unwrap().is_empty());
    assert!(!p["detail"].as_str().unwrap().is_empty());
    p
}
