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
    assert_eq!(r.json(), serde_json::json!({"status": "ok"}));
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
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
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
    ] {
        assert!(m.contains(needle), "missing {needle} in\n{m}");
    }
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
