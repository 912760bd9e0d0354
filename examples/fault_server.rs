//! The real service plus two routes that panic, for `scripts/faults.sh`: shows
//! on a live process that a panic in a handler or in a search becomes a 500
//! problem and the process keeps serving. The release binary has no such
//! route, so the script runs this instead for that one check.
//!
//!     cargo run --release --example fault_server -- 127.0.0.1:8089

use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use clap::Parser;
use gamebot::config::Config;
use gamebot::http::error::ApiError;
use gamebot::http::{AppState, app_with};

async fn handler_panic() -> &'static str {
    panic!("fault_server: handler panic on purpose")
}

async fn search_panic(State(state): State<AppState>) -> Result<&'static str, ApiError> {
    let budget = state.pool.budget(Some(100));
    state
        .pool
        .run(budget, |_| -> &'static str {
            panic!("fault_server: search panic on purpose")
        })
        .await?;
    Ok("unreachable")
}

/// The real service plus two routes that panic (GET /fault/panic, POST
/// /fault/search-panic), for scripts/faults.sh.
#[derive(Parser, Debug)]
struct Args {
    /// Address to listen on.
    #[arg(default_value = "127.0.0.1:8089")]
    listen: String,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let Args { listen } = Args::parse();
    let state = AppState::new(Config::defaults());
    let faults = Router::new()
        .route("/fault/panic", get(handler_panic))
        .route("/fault/search-panic", post(search_panic));
    let router = app_with(state.clone(), faults);
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    eprintln!("fault_server listening on {listen}");
    gamebot::server::serve(listener, router, &state, gamebot::server::shutdown_signal()).await
}
