//! Serving with an explicit, bounded shutdown: on the shutdown signal the
//! service reports not-ready, stops accepting, lets in-flight requests finish
//! and gives up on them after the drain timeout.
//!
//! No accepted request is dropped: connections the kernel has already
//! completed (still queued for `accept`) are taken and served, the port is
//! closed so that later connects are refused rather than reset, and every
//! connection gets [`LAST_REQUEST_GRACE`] to deliver its request before idle
//! ones are closed. Responses sent while draining carry `Connection: close`,
//! so keep-alive clients do not send another request on a closing connection.

use std::collections::VecDeque;
use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};

use crate::http::AppState;

/// After the shutdown signal, how long connections accepted before it have to
/// send their request: hyper's graceful shutdown closes a connection that has
/// not begun a request, even when the request's bytes are already in flight.
pub const LAST_REQUEST_GRACE: Duration = Duration::from_millis(250);

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
    let (close_tx, close_rx) = watch::channel(false);
    let listener = DrainingListener {
        addr: listener.local_addr()?,
        listener: Some(listener),
        close: close_rx,
        backlog: VecDeque::new(),
    };
    let signal = {
        let begun = begun.clone();
        let draining = draining.clone();
        async move {
            shutdown.await;
            draining.store(true, Ordering::Relaxed);
            tracing::info!(
                drain_timeout_ms = drain_timeout.as_millis() as u64,
                "shutting down: draining"
            );
            begun.notify_one();
            let _ = close_tx.send(true);
            tokio::time::sleep(LAST_REQUEST_GRACE.min(drain_timeout)).await;
        }
    };
    let router = router.layer(axum::middleware::from_fn(
        move |req: Request, next: Next| {
            let draining = draining.clone();
            async move { close_when_draining(&draining, next.run(req).await) }
        },
    ));
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

fn close_when_draining(draining: &AtomicBool, mut response: Response) -> Response {
    if draining.load(Ordering::Relaxed) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// A TCP listener that, once told to close, hands out the connections still
/// queued in the kernel and then closes the listening socket.
struct DrainingListener {
    listener: Option<TcpListener>,
    addr: SocketAddr,
    // Changes (to true) once, when shutdown begins.
    close: watch::Receiver<bool>,
    backlog: VecDeque<(TcpStream, SocketAddr)>,
}

impl axum::serve::Listener for DrainingListener {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            if let Some(conn) = self.backlog.pop_front() {
                return conn;
            }
            let Some(listener) = &self.listener else {
                // Closed: axum stops calling once graceful shutdown begins.
                return std::future::pending().await;
            };
            let closing = tokio::select! {
                biased;
                _ = self.close.changed() => true,
                accepted = listener.accept() => match accepted {
                    Ok(conn) => return conn,
                    Err(e) => {
                        accept_error(e).await;
                        false
                    }
                },
            };
            if closing && let Some(listener) = self.listener.take() {
                self.backlog = take_queued(listener);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.addr)
    }
}

/// Accepts every connection the kernel has queued, then closes the socket.
fn take_queued(listener: TcpListener) -> VecDeque<(TcpStream, SocketAddr)> {
    let mut queued = VecDeque::new();
    // The std listener stays non-blocking: accept until the queue is empty.
    let Ok(listener) = listener.into_std() else {
        return queued;
    };
    loop {
        match listener.accept() {
            Ok((stream, addr)) => {
                if stream.set_nonblocking(true).is_ok()
                    && let Ok(stream) = TcpStream::from_std(stream)
                {
                    queued.push_back((stream, addr));
                }
            }
            Err(e) if is_connection_error(&e) => continue,
            Err(_) => break,
        }
    }
    if !queued.is_empty() {
        tracing::info!(
            connections = queued.len(),
            "serving connections queued at shutdown"
        );
    }
    queued
}

fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}

/// As axum's own listener does: a failed handshake is skipped; anything else
/// (out of file descriptors) is logged and retried after a pause.
async fn accept_error(e: std::io::Error) {
    if is_connection_error(&e) {
        return;
    }
    tracing::error!(error = %e, "accept failed");
    tokio::time::sleep(Duration::from_secs(1)).await;
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
