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
//!
//! Slow and idle clients cannot hold the server: at most `max_connections`
//! are served at once (more wait in the kernel's accept queue), a request
//! head must arrive within `header_read_timeout_ms` of its first byte, and a
//! connection with no request in flight is closed after `idle_timeout_ms`.
//! (The body's own deadline is enforced where it is read, with a 408.)

use std::collections::VecDeque;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore, watch};
use tower::ServiceExt;

use crate::http::AppState;

/// After the shutdown signal, how long connections accepted before it have to
/// send their request: hyper's graceful shutdown closes a connection that has
/// not begun a request, even when the request's bytes are already in flight.
pub const LAST_REQUEST_GRACE: Duration = Duration::from_millis(250);

/// The server's connection counts, for the metrics.
#[derive(Debug, Default)]
pub struct ConnectionStats {
    open: AtomicUsize,
    accepted: AtomicU64,
    timed_out: AtomicU64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionCounts {
    pub open: usize,
    pub accepted: u64,
    pub timed_out: u64,
}

impl ConnectionStats {
    pub fn snapshot(&self) -> ConnectionCounts {
        ConnectionCounts {
            open: self.open.load(Ordering::Relaxed),
            accepted: self.accepted.load(Ordering::Relaxed),
            timed_out: self.timed_out.load(Ordering::Relaxed),
        }
    }
}

/// How long a connection may take over each part of its life.
#[derive(Debug, Clone, Copy)]
struct Timeouts {
    /// From the first byte of a request to the end of its head.
    header_read: Duration,
    /// With no request in flight and no byte of the next one.
    idle: Duration,
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
/// Returns once every connection is closed or the drain timeout has passed.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    state: &AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let drain_timeout = state.config.drain_timeout();
    let timeouts = Timeouts {
        header_read: state.config.header_read_timeout(),
        idle: state.config.idle_timeout(),
    };
    let draining = state.draining.clone();
    let begun = Arc::new(Notify::new());
    let (close_tx, close_rx) = watch::channel(false);
    let mut listener = DrainingListener {
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
    let slots = Arc::new(Semaphore::new(state.config.max_connections));
    // Connections watch `stop` to begin their graceful shutdown and hold a
    // `done` receiver until they end, so `done_tx.closed()` means all ended.
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, done_rx) = watch::channel(());
    let serving = async {
        let mut signal = pin!(signal);
        loop {
            // At the cap, further connections wait in the kernel's queue.
            let next = async {
                let slot = slots.clone().acquire_owned().await;
                (slot, listener.accept().await)
            };
            tokio::select! {
                () = &mut signal => break,
                (slot, (stream, _addr)) = next => {
                    let Ok(slot) = slot else { break };
                    state.connections.accepted.fetch_add(1, Ordering::Relaxed);
                    let connection = Connection {
                        stats: state.connections.clone(),
                        timeouts,
                        _slot: slot,
                        _done: done_rx.clone(),
                    };
                    tokio::spawn(connection.serve(stream, router.clone(), stop_rx.clone()));
                }
            }
        }
        let _ = stop_tx.send(true);
        drop(done_rx);
        done_tx.closed().await;
    };
    tokio::select! {
        () = serving => {
            tracing::info!("drained; bye");
            Ok(())
        }
        () = drain_deadline(begun, drain_timeout) => {
            tracing::warn!("drain timeout reached; closing remaining connections");
            Ok(())
        }
    }
}

/// One accepted connection: what it holds while it lives.
struct Connection {
    stats: Arc<ConnectionStats>,
    timeouts: Timeouts,
    /// Its place under `max_connections`.
    _slot: tokio::sync::OwnedSemaphorePermit,
    _done: watch::Receiver<()>,
}

impl Connection {
    async fn serve(self, stream: TcpStream, router: Router, mut stop: watch::Receiver<bool>) {
        self.stats.open.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity::new());
        let io = TokioIo::new(WatchedIo {
            inner: stream,
            activity: activity.clone(),
        });
        let service = {
            let activity = activity.clone();
            hyper::service::service_fn(move |req: Request<Incoming>| {
                let busy = activity.request_began();
                let answer = router.clone().oneshot(req.map(Body::new));
                async move {
                    let response = answer.await;
                    drop(busy);
                    response
                }
            })
        };
        let builder = auto::Builder::new(TokioExecutor::new());
        let mut conn = pin!(builder.serve_connection_with_upgrades(io, service));
        let mut stopping = false;
        loop {
            // While a request is in flight its own limits apply (body read
            // timeout, search budget); look again after a while.
            let wake = activity
                .deadline(&self.timeouts)
                .unwrap_or_else(|| Instant::now() + self.timeouts.header_read);
            tokio::select! {
                _ = conn.as_mut() => break,
                _ = stop.changed(), if !stopping => {
                    stopping = true;
                    conn.as_mut().graceful_shutdown();
                }
                () = activity.changed.notified() => {}
                () = tokio::time::sleep_until(wake.into()) => {
                    if activity.deadline(&self.timeouts).is_some_and(|d| d <= Instant::now()) {
                        // Dropping the connection closes it.
                        self.stats.timed_out.fetch_add(1, Ordering::Relaxed);
                        tracing::debug!("closing a slow or idle connection");
                        break;
                    }
                }
            }
        }
        self.stats.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What a connection is doing, for its timeouts: a request in flight, the
/// head of the next one arriving, or nothing (idle), and since when.
struct Activity {
    epoch: Instant,
    in_flight: AtomicUsize,
    head_started: AtomicBool,
    /// Milliseconds after `epoch` that the current wait began.
    since_ms: AtomicU64,
    /// Told when a wait begins, so the watchdog takes its new deadline.
    changed: Notify,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            epoch: Instant::now(),
            in_flight: AtomicUsize::new(0),
            head_started: AtomicBool::new(false),
            since_ms: AtomicU64::new(0),
            changed: Notify::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Bytes came in: with no request in flight, a request head has begun.
    fn bytes_arrived(&self) {
        if self.in_flight.load(Ordering::Acquire) == 0
            && !self.head_started.swap(true, Ordering::AcqRel)
        {
            self.since_ms.store(self.now_ms(), Ordering::Release);
            self.changed.notify_one();
        }
    }

    fn request_began(self: &Arc<Self>) -> Busy {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.head_started.store(false, Ordering::Release);
        Busy(self.clone())
    }

    /// When the connection is to be closed, if nothing happens before.
    fn deadline(&self, timeouts: &Timeouts) -> Option<Instant> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        let limit = if self.head_started.load(Ordering::Acquire) {
            timeouts.header_read
        } else {
            timeouts.idle
        };
        let since = Duration::from_millis(self.since_ms.load(Ordering::Acquire));
        Some(self.epoch + since + limit)
    }
}

/// A request in flight; the connection is idle again when the last ends.
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        let activity = &self.0;
        activity
            .since_ms
            .store(activity.now_ms(), Ordering::Release);
        activity.in_flight.fetch_sub(1, Ordering::AcqRel);
        activity.changed.notify_one();
    }
}

/// The connection's socket, telling [`Activity`] when bytes arrive.
struct WatchedIo {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for WatchedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.bytes_arrived();
        }
        polled
    }
}

impl AsyncWrite for WatchedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
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
    // Changes (to true) once, when shutdown begins.
    close: watch::Receiver<bool>,
    backlog: VecDeque<(TcpStream, SocketAddr)>,
}

impl DrainingListener {
    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            if let Some(conn) = self.backlog.pop_front() {
                return conn;
            }
            let Some(listener) = &self.listener else {
                // Closed: the accept loop stops once the grace has passed.
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

/// Raises the soft limit on open files to the hard one (many systems start
/// services at 1024, fewer than `max_connections`) and returns the limit now
/// in force, where the platform tells.
pub fn raise_open_file_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrlimit/setrlimit read and write a plain struct of ours.
        unsafe {
            let mut limit = std::mem::zeroed::<libc::rlimit>();
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return None;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: limit.rlim_max,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit = raised;
                }
            }
            Some(limit.rlim_cur)
        }
    }
    #[cfg(not(target_os = "linux"))]
    None
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
