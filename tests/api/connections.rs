//! What slow, idle, greedy and vanishing clients can take from a real server
//! on a loopback port: timeouts, the connection cap, early 413, 499.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::*;

/// Reads until the server closes the connection (or `limit` passes) and
/// returns what came and how long it took.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (Vec<u8>, Duration) {
    let started = Instant::now();
    let mut raw = Vec::new();
    let read = tokio::time::timeout(limit, stream.read_to_end(&mut raw)).await;
    assert!(
        read.is_ok(),
        "the connection was still open after {limit:?}"
    );
    (raw, started.elapsed())
}

fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in\n{text}"))
}

async fn metrics_text(addr: std::net::SocketAddr) -> String {
    http(addr, "GET", "/metrics", None).await.text()
}

#[tokio::test]
async fn half_sent_headers_are_cut_off_after_the_header_timeout() {
    let mut config = test_config(1, 1);
    config.header_read_timeout_ms = 300;
    let server = spawn_app(config).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();
    let (raw, took) = read_until_closed(&mut stream, Duration::from_secs(5)).await;
    assert!(raw.is_empty(), "{}", String::from_utf8_lossy(&raw));
    assert!(took >= Duration::from_millis(250), "{took:?}");
    let m = metrics_text(server.addr).await;
    assert_eq!(metric(&m, "gamebot_connections_timed_out_total"), 1.0);
}

#[tokio::test]
async fn idle_connections_close_after_the_idle_timeout_not_the_header_timeout() {
    let mut config = test_config(1, 1);
    config.header_read_timeout_ms = 200;
    config.idle_timeout_ms = 1_000;
    let server = spawn_app(config).await;

    // Idle longer than the header timeout, then a whole request: answered.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    send(&mut stream, "GET", "/healthz", None).await;
    assert_eq!(read_reply(&mut stream).await.status, 200);

    // Never sending anything: closed after about the idle timeout.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let (raw, took) = read_until_closed(&mut silent, Duration::from_secs(5)).await;
    assert!(raw.is_empty());
    assert!(took >= Duration::from_millis(900), "{took:?}");

    // A keep-alive connection, idle after its answer: closed too.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        .await
        .unwrap();
    let (raw, took) = read_until_closed(&mut kept, Duration::from_secs(5)).await;
    assert!(String::from_utf8_lossy(&raw).starts_with("HTTP/1.1 200"));
    assert!(took >= Duration::from_millis(900), "{took:?}");
}

#[tokio::test]
async fn a_trickled_body_gets_408_at_the_body_timeout() {
    let mut config = test_config(1, 1);
    config.body_read_timeout_ms = 300;
    let server = spawn_app(config).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(
            b"POST /doudizhu/moves HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"hand\":",
        )
        .await
        .unwrap();
    let started = Instant::now();
    let reply = tokio::time::timeout(Duration::from_secs(5), read_reply(&mut stream))
        .await
        .expect("answered");
    assert_problem(&reply, 408);
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn a_declared_body_over_the_limit_is_refused_before_it_is_read() {
    let server = spawn_app(test_config(1, 1)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(
            b"POST /doudizhu/moves HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
              Content-Length: 1000000000000\r\n\r\n{",
        )
        .await
        .unwrap();
    let reply = tokio::time::timeout(Duration::from_secs(2), read_reply(&mut stream))
        .await
        .expect("413 at once, without waiting for the body");
    let p = assert_problem(&reply, 413);
    assert!(p["detail"].as_str().unwrap().contains("body_limit_bytes"));
}

#[tokio::test]
async fn connections_over_the_cap_wait_for_a_free_place() {
    let mut config = test_config(1, 1);
    config.max_connections = 2;
    let server = spawn_app(config).await;
    let first = TcpStream::connect(server.addr).await.unwrap();
    let _second = TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The kernel completes the third handshake, but it is not served...
    let mut third = TcpStream::connect(server.addr).await.unwrap();
    send(&mut third, "GET", "/healthz", None).await;
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(300), third.read(&mut byte)).await;
    assert!(early.is_err(), "served past the cap");
    // ...until a place frees up.
    drop(first);
    let reply = tokio::time::timeout(Duration::from_secs(5), read_reply(&mut third))
        .await
        .expect("served once a place was free");
    assert_eq!(reply.status, 200);
}

#[tokio::test]
async fn a_client_that_leaves_is_logged_as_499_and_its_search_cancelled() {
    let server = spawn_app(test_config(1, 1)).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    send(
        &mut stream,
        "POST",
        "/test/spin",
        Some(r#"{"budget_ms": 5000}"#),
    )
    .await;
    wait_until(Duration::from_secs(5), "the search to start", || {
        server.state.pool.stats().running == 1
    })
    .await;
    drop(stream);
    wait_until(Duration::from_secs(5), "the search to stop", || {
        server.state.pool.stats().cancelled == 1
    })
    .await;
    let m = metrics_text(server.addr).await;
    assert_eq!(
        metric(
            &m,
            r#"gamebot_http_requests_total{route="/test/spin",method="POST",status="499"}"#
        ),
        1.0
    );
    assert_eq!(metric(&m, "gamebot_searches_cancelled_total"), 1.0);
    assert_eq!(metric(&m, "gamebot_searches_completed_total"), 0.0);
}

/// Many idle and half-open connections take neither the descriptors nor the
/// answers of the light routes.
#[tokio::test]
async fn a_thousand_idle_connections_do_not_starve_light_routes() {
    let server = spawn_app(test_config(1, 1)).await;
    let mut idle = Vec::new();
    for i in 0..1000 {
        let mut s = TcpStream::connect(server.addr).await.unwrap();
        if i % 2 == 0 {
            s.write_all(b"POST /doudizhu/moves HTTP/1.1\r\nHost: t\r\n")
                .await
                .unwrap();
        }
        idle.push(s);
    }
    wait_until(Duration::from_secs(10), "all connections accepted", || {
        server.state.connections.snapshot().open >= 1000
    })
    .await;
    let started = Instant::now();
    for _ in 0..20 {
        assert_eq!(http(server.addr, "GET", "/healthz", None).await.status, 200);
    }
    // Generous: a debug build on a loaded 2-core machine; the point is
    // that they are answered at all, not queued behind the idle ones.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}
