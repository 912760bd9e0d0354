//! Request ids, metrics and health routes.

use axum::body::Body;
use axum::http::Request;

use crate::*;

#[tokio::test]
async fn request_id_is_echoed_or_generated() {
    let (app, _) = test_app(test_config(1, 1));
    let req = Request::get("/healthz")
        .header("x-request-id", "abc-123")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        call(&app, req).await.header("x-request-id"),
        Some("abc-123")
    );
    let a = call(&app, get_req("/healthz")).await;
    let b = call(&app, get_req("/healthz")).await;
    let (a, b) = (
        a.header("x-request-id").unwrap(),
        b.header("x-request-id").unwrap(),
    );
    assert_eq!(a.len(), 36, "uuid expected: {a}");
    assert_ne!(a, b);
    // Ids that are not short printable ASCII are replaced.
    let req = Request::get("/healthz")
        .header("x-request-id", "a b")
        .body(Body::empty())
        .unwrap();
    assert_ne!(call(&app, req).await.header("x-request-id"), Some("a b"));
    // Errors carry it too.
    let req = Request::get("/nowhere")
        .header("x-request-id", "e-1")
        .body(Body::empty())
        .unwrap();
    assert_eq!(call(&app, req).await.header("x-request-id"), Some("e-1"));
}

#[tokio::test]
async fn health_and_readiness() {
    let (app, state) = test_app(test_config(1, 1));
    let r = call(&app, get_req("/healthz")).await;
    assert_eq!(r.status, 200);
    let health = r.json();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    let commit = health["commit"].as_str().unwrap();
    assert!(!commit.is_empty() && commit.len() <= 40, "{commit}");
    assert_eq!(
        call(&app, get_req("/readyz")).await.json()["status"],
        "ready"
    );
    state
        .draining
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let r = call(&app, get_req("/readyz")).await;
    assert_problem(&r, 503);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(
        call(&app, get_req("/healthz")).await.status,
        200,
        "still alive while draining"
    );
}

#[tokio::test]
async fn metrics_count_requests_latency_searches_and_cache() {
    let (app, state) = test_app(test_config(1, 1));
    call(&app, get_req("/healthz")).await;
    call(&app, get_req("/healthz")).await;
    call(&app, get_req("/missing")).await;
    call(&app, post_json("/test/spin", r#"{"budget_ms": 2}"#)).await;
    let key = gamebot::cache::CacheKey([9, 1, 2, 3, 4, 5]);
    state.cache.insert(key, 77, 10);
    assert_eq!(state.cache.get(&key), Some(77));
    let r = call(&app, get_req("/metrics")).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    let m = r.text();
    for needle in [
        r#"gamebot_http_requests_total{route="/healthz",method="GET",status="200"} 2"#,
        r#"gamebot_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
        r#"gamebot_http_request_duration_seconds_count{route="/healthz"} 2"#,
        r#"gamebot_http_request_duration_seconds_bucket{le="#,
        "gamebot_searches_in_flight 0",
        "gamebot_searches_queued 0",
        "gamebot_searches_completed_total 1",
        "gamebot_overload_rejections_total 0",
        "gamebot_cache_hits_total 1",
        "gamebot_cache_misses_total 0",
        "gamebot_cache_evictions_total 0",
        "gamebot_cache_entries 1",
        "gamebot_cache_bytes 64",
        "gamebot_cache_capacity_bytes ",
        "# TYPE gamebot_http_requests_total counter",
        "# TYPE gamebot_searches_cancelled_total counter",
        "gamebot_searches_cancelled_total 0",
        "gamebot_search_memory_bytes 0",
        "gamebot_search_memory_limit_bytes ",
        "gamebot_connections_open ",
        "# TYPE gamebot_build_info gauge",
        "gamebot_build_info{version=\"",
        "process_resident_memory_bytes ",
        "process_virtual_memory_bytes ",
        "process_open_fds ",
        "process_max_fds ",
        "process_start_time_seconds ",
        "# TYPE process_cpu_seconds_total counter",
    ] {
        assert!(m.contains(needle), "missing {needle} in\n{m}");
    }
    assert!(!m.contains("# EOF"), "OpenMetrics only on request");
}

#[tokio::test]
async fn openmetrics_is_served_to_scrapers_that_ask_for_it() {
    let (app, _) = test_app(test_config(1, 1));
    call(&app, get_req("/healthz")).await;
    let req = axum::http::Request::get("/metrics")
        .header(
            "accept",
            "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5",
        )
        .body(Body::empty())
        .unwrap();
    let r = call(&app, req).await;
    assert_eq!(
        r.header("content-type"),
        Some("application/openmetrics-text; version=1.0.0; charset=utf-8")
    );
    let m = r.text();
    assert!(m.ends_with("# EOF\n"), "{m}");
    assert!(m.contains("# TYPE gamebot_http_requests counter"), "{m}");
    assert!(m.contains("# TYPE gamebot_build info"), "{m}");
}

#[tokio::test]
async fn invented_methods_do_not_become_label_values() {
    let (app, _) = test_app(test_config(1, 1));
    let long = "X".repeat(60_000);
    for method in ["AUDITX1", "DELETE", long.as_str()] {
        let req = axum::http::Request::builder()
            .method(method)
            .uri("/healthz")
            .body(Body::empty())
            .unwrap();
        assert_problem(&call(&app, req).await, 405);
    }
    let m = call(&app, get_req("/metrics")).await.text();
    assert!(!m.contains("AUDITX1") && !m.contains("XXXX"), "{m}");
    assert!(
        m.contains(
            r#"gamebot_http_requests_total{route="/healthz",method="other",status="405"} 3"#
        ),
        "{m}"
    );
}

#[tokio::test]
async fn swagger_ui_is_served_offline() {
    let (app, _) = test_app(test_config(1, 1));
    let r = call(&app, get_req("/docs")).await;
    assert!(r.status.is_redirection());
    let r = call(&app, get_req("/docs/")).await;
    assert_eq!(r.status, 200);
    assert!(r.text().contains("swagger-ui"));
    let init = call(&app, get_req("/docs/swagger-initializer.js")).await;
    assert_eq!(init.status, 200);
    assert!(init.text().contains("/openapi.yaml"), "{}", init.text());
    let bundle = call(&app, get_req("/docs/swagger-ui-bundle.js")).await;
    assert_eq!(bundle.status, 200);
    assert!(bundle.body.len() > 100_000, "vendored UI bundle missing");
}
