//! What a person with curl or a browser page meets: the root redirect, CORS,
//! problems everywhere, and the version on every answer.

use axum::body::Body;
use axum::http::Request;

use super::*;

#[tokio::test]
async fn the_root_redirects_to_the_docs() {
    let (app, _) = test_app(test_config(1, 1));
    let r = call(&app, get_req("/")).await;
    assert_eq!(r.status, StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(r.header("location"), Some("/docs/"));
}

#[tokio::test]
async fn unknown_docs_files_are_problems_too() {
    let (app, _) = test_app(test_config(1, 1));
    for path in [
        "/docs/..",
        "/docs/nothing-here.js",
        "/docs/%2e%2e/etc/passwd",
    ] {
        let r = call(&app, get_req(path)).await;
        assert_problem(&r, 404);
    }
}

#[tokio::test]
async fn every_answer_carries_the_version() {
    let (app, _) = test_app(test_config(1, 1));
    let want = format!("{}+", env!("CARGO_PKG_VERSION"));
    for req in [
        get_req("/healthz"),
        get_req("/nowhere"),
        post_json("/doudizhu/moves", "{}"),
        get_req("/docs/"),
    ] {
        let r = call(&app, req).await;
        let version = r.header("gamebot-version").expect("version header");
        assert!(version.starts_with(&want), "{version}");
    }
}

fn preflight(origin: &str) -> Request<Body> {
    Request::builder()
        .method("OPTIONS")
        .uri("/doudizhu/moves")
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn cors_is_off_unless_origins_are_configured() {
    let (app, _) = test_app(test_config(1, 1));
    let r = call(&app, preflight("https://play.example")).await;
    assert!(r.header("access-control-allow-origin").is_none());
    assert_problem(&r, 405);
}

#[tokio::test]
async fn configured_origins_may_call_the_api_from_a_browser() {
    let mut config = test_config(1, 1);
    config.cors_origins = vec!["https://play.example".into()];
    let (app, _) = test_app(config);

    let r = call(&app, preflight("https://play.example")).await;
    assert!(r.status.is_success(), "{}", r.status);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("https://play.example")
    );
    let methods = r.header("access-control-allow-methods").unwrap();
    assert!(methods.contains("POST"), "{methods}");

    let req = Request::post("/doudizhu/moves")
        .header("origin", "https://play.example")
        .header("content-type", "application/json")
        .body(Body::from(r#"{"hand": "33"}"#))
        .unwrap();
    let r = call(&app, req).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("https://play.example")
    );
    let exposed = r.header("access-control-expose-headers").unwrap();
    assert!(exposed.contains("gamebot-version"), "{exposed}");

    // Another origin gets no grant.
    let r = call(&app, preflight("https://evil.example")).await;
    assert!(r.header("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn the_playground_is_served_from_the_binary() {
    let (app, _) = test_app(test_config(1, 1));
    let page = call(&app, get_req("/playground")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let csp = page.header("content-security-policy").expect("a CSP");
    assert!(csp.starts_with("default-src 'self'"), "{csp}");
    let html = page.text();
    let mut loaded = 0;
    for reference in html.split('"').filter(|r| r.starts_with("/playground/")) {
        let r = call(&app, get_req(reference)).await;
        assert_eq!(r.status, StatusCode::OK, "{reference}");
        assert!(!r.body.is_empty(), "{reference}");
        loaded += 1;
    }
    assert!(loaded >= 3, "the page loads its script, style and icon");
    let script = call(&app, get_req("/playground/gomoku.js")).await;
    assert_eq!(
        script.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let slash = call(&app, get_req("/playground/")).await;
    assert_eq!(slash.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(slash.header("location"), Some("/playground"));
    for missing in [
        "/playground/index.html",
        "/playground/nothing.js",
        "/playground/..%2fCargo.toml",
    ] {
        assert_problem(&call(&app, get_req(missing)).await, 404);
    }
}
