//! Serving with an explicit, bounded shutdown: on the shutdown signal the
//! service reports not-ready, stops accepting, lets in-flight requests finish
//! and gives up on them after the drain timeout.

use std::future::{Future, IntoFuture};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::Notify;

use crate::http::AppState;

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
/// Returns once every connection is closed or the drain timeout has passed.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    state: &AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let drain_timeout = state.config.drain_timeout();
    let draining = state.draining.clone();
    let begun = Arc::new(Notify::new());
    let signal = {
        let begun = begun.clone();
        async move {
            shutdown.await;
            draining.store(true, Ordering::Relaxed);
            tracing::info!(
                drain_timeout_ms = drain_timeout.as_millis() as u64,
                "shutting down: draining"
            );
            begun.notify_one();
        }
    };
    let server = axum::serve(listener, router)
        .with_graceful_shutdown(signal)
        .into_future();
    tokio::select! {
        result = server => {
            tracing::info!("drained; bye");
            result
        }
        () = drain_deadline(begun, drain_timeout) => {
            tracing::warn!("drain timeout reached; closing remaining connections");
            Ok(())
        }
    }
}

async fn drain_deadline(begun: Arc<Notify>, timeout: Duration) {
    begun.notified().await;
    tokio::time::sleep(timeout).await;
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM (what Docker and Kubernetes send).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
