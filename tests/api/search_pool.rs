//! The search pool under load: overload answers 503 at once, light requests
//! stay fast while every worker is busy, and a client that goes away frees
//! its worker.

use std::time::{Duration, Instant};

use crate::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saturated_pool_rejects_searches_and_keeps_light_routes_fast() {
    let server = spawn_app(test_config(2, 2)).await;
    let addr = server.addr;
    // Two running and two queued searches fill the pool.
    let searches: Vec<_> = (0..4)
        .map(|_| {
            tokio::spawn(async move {
                http(addr, "POST", "/test/spin", Some(r#"{"budget_ms": 1500}"#)).await
            })
        })
        .collect();
    let pool = server.state.pool.clone();
    wait_until(Duration::from_secs(5), "pool to fill", || {
        let s = pool.stats();
        s.running == 2 && s.queued == 2
    })
    .await;

    // A fifth search is refused at once.
    let started = Instant::now();
    let r = http(addr, "POST", "/test/spin", Some(r#"{"budget_ms": 1000}"#)).await;
    let p = assert_problem(&r, 503);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert!(p["detail"].as_str().unwrap().contains("busy"));
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "overload answer waited"
    );

    // Light requests keep answering in milliseconds. The bound is generous
    // for a loaded 2-core CI machine; typical latency is well under 1 ms.
    let mut worst = Duration::ZERO;
    for path in ["/healthz", "/readyz", "/metrics", "/healthz", "/readyz"] {
        let t = Instant::now();
        let r = http(addr, "GET", path, None).await;
        worst = worst.max(t.elapsed());
        assert_eq!(r.status, 200);
    }
    let t = Instant::now();
    let r = http(addr, "POST", "/test/spin", Some(r#"{"budget_ms": 0}"#)).await;
    worst = worst.max(t.elapsed());
    assert_problem(&r, 422);
    assert!(
        worst < Duration::from_millis(250),
        "light request took {worst:?}"
    );

    let metrics = http(addr, "GET", "/metrics", None).await.text();
    assert!(
        metrics.contains("gamebot_searches_in_flight 2"),
        "{metrics}"
    );
    assert!(metrics.contains("gamebot_searches_queued 2"), "{metrics}");
    assert!(
        metrics.contains("gamebot_overload_rejections_total 1"),
        "{metrics}"
    );

    for s in searches {
        assert_eq!(s.await.unwrap().status, 200);
    }
    let s = server.state.pool.stats();
    assert_eq!((s.running, s.queued), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnected_client_frees_its_worker() {
    let server = spawn_app(test_config(1, 0)).await;
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    send(
        &mut stream,
        "POST",
        "/test/spin",
        Some(r#"{"budget_ms": 60000}"#),
    )
    .await;
    let pool = server.state.pool.clone();
    wait_until(Duration::from_secs(5), "search to start", || {
        pool.stats().running == 1
    })
    .await;

    drop(stream);
    let freed = Instant::now();
    wait_until(Duration::from_secs(5), "worker to be freed", || {
        pool.stats().running == 0
    })
    .await;
    assert!(
        freed.elapsed() < Duration::from_secs(1),
        "took {:?}",
        freed.elapsed()
    );

    let r = http(
        server.addr,
        "POST",
        "/test/spin",
        Some(r#"{"budget_ms": 5}"#),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budgets_are_clamped_to_the_maximum() {
    let mut config = test_config(1, 0);
    config.max_budget_ms = 50;
    config.default_budget_ms = 50;
    let server = spawn_app(config).await;
    let t = Instant::now();
    let r = http(
        server.addr,
        "POST",
        "/test/spin",
        Some(r#"{"budget_ms": 60000}"#),
    )
    .await;
    assert_eq!(r.status, 200);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "budget was not clamped"
    );
}
