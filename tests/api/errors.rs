//! One error format for every 4xx and 5xx.

use axum::body::Body;
use axum::http::Request;

use crate::*;

#[tokio::test]
async fn malformed_json_is_400() {
    let (app, _) = test_app(test_config(1, 1));
    let r = call(&app, post_json("/test/spin", "{\"budget_ms\": ")).await;
    assert_problem(&r, 400);
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let (app, _) = test_app(test_config(1, 1));
    let req = Request::post("/test/spin")
        .header("content-type", "text/plain")
        .body(Body::from("{\"budget_ms\": 1}"))
        .unwrap();
    assert_problem(&call(&app, req).await, 415);
    let req = Request::post("/test/spin").body(Body::from("{}")).unwrap();
    assert_problem(&call(&app, req).await, 415);
}

#[tokio::test]
async fn body_over_the_limit_is_413() {
    let (app, state) = test_app(test_config(1, 1));
    let big = format!(
        "{{\"budget_ms\": 1, \"pad\": \"{}\"}}",
        "x".repeat(state.config.body_limit_bytes)
    );
    assert_problem(&call(&app, post_json("/test/spin", &big)).await, 413);
}

#[tokio::test]
async fn unknown_route_is_404_and_wrong_method_405() {
    let (app, _) = test_app(test_config(1, 1));
    let p = assert_problem(&call(&app, get_req("/no/such/route")).await, 404);
    assert!(p["detail"].as_str().unwrap().contains("/no/such/route"));
    let r = call(&app, post_json("/healthz", "{}")).await;
    assert_problem(&r, 405);
    assert!(r.header("allow").unwrap().contains("GET"));
}

#[tokio::test]
async fn invalid_fields_are_422_with_pointers() {
    let (app, _) = test_app(test_config(1, 1));
    let p = assert_problem(
        &call(&app, post_json("/test/spin", r#"{"budget_ms": "soon"}"#)).await,
        422,
    );
    assert_eq!(p["errors"][0]["pointer"], "/budget_ms");
    let p = assert_problem(
        &call(&app, post_json("/test/spin", r#"{"budget_ms": 0}"#)).await,
        422,
    );
    assert_eq!(p["errors"][0]["pointer"], "/budget_ms");
    assert_eq!(p["errors"][0]["message"], "must be at least 1");
    let p = assert_problem(
        &call(&app, post_json("/test/spin", r#"{"budget_ms": 1, "x": 2}"#)).await,
        422,
    );
    assert!(
        p["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("unknown field")
    );
}

#[tokio::test]
async fn handler_panic_is_500_and_service_keeps_serving() {
    let (app, _) = test_app(test_config(1, 1));
    let p = assert_problem(&call(&app, get_req("/test/panic")).await, 500);
    assert!(p["detail"].as_str().unwrap().contains("handler exploded"));
    assert_eq!(call(&app, get_req("/healthz")).await.status, 200);
}

#[tokio::test]
async fn search_panic_is_500_and_frees_the_worker() {
    let (app, state) = test_app(test_config(1, 0));
    let p = assert_problem(&call(&app, post_json("/test/search-panic", "")).await, 500);
    assert!(p["detail"].as_str().unwrap().contains("search exploded"));
    assert_eq!(state.pool.stats().running, 0);
    let r = call(&app, post_json("/test/spin", r#"{"budget_ms": 5}"#)).await;
    assert_eq!(r.status, 200, "{}", r.text());
}

#[tokio::test]
async fn a_duplicate_key_points_at_the_key() {
    let (app, _) = test_app(test_config(1, 1));
    for (uri, body, pointer, field) in [
        (
            "/doudizhu/moves",
            r#"{"hand": "33", "hand": "44"}"#,
            "/hand",
            "hand",
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": "33", "rules": {"trio_solo": true, "trio_solo": false}}"#,
            "/rules/trio_solo",
            "trio_solo",
        ),
        (
            "/doudizhu/endgame",
            r#"{"hands": {"landlord": "3"}, "to_move": "landlord", "last": {"seat": "landlord_up", "seat": "landlord_down", "cards": "4"}}"#,
            "/last/seat",
            "seat",
        ),
        (
            "/mahjong/discard",
            r#"{"variant": "riichi", "hand": "123m456p789s1127z5m", "table": {"river": [{"seat": "right", "tile": "1m", "tile": "2m"}]}}"#,
            "/table/river/0/tile",
            "tile",
        ),
        (
            "/test/spin",
            r#"{"budget_ms": 1, "budget_ms": 2}"#,
            "/budget_ms",
            "budget_ms",
        ),
    ] {
        let p = assert_problem(&call(&app, post_json(uri, body)).await, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
        assert_eq!(
            p["errors"][0]["message"],
            format!("duplicate field `{field}`"),
            "{body}: {p}"
        );
    }
}

#[tokio::test]
async fn an_object_given_as_an_array_is_422_at_any_depth() {
    let (app, _) = test_app(test_config(1, 1));
    for (uri, body, pointer) in [
        ("/doudizhu/moves", r#"["33345"]"#, ""),
        (
            "/doudizhu/moves",
            r#"{"hand": "33", "rules": [true, true, true, true]}"#,
            "/rules",
        ),
        (
            "/doudizhu/endgame",
            r#"{"hands": ["3", "4", null], "to_move": "landlord"}"#,
            "/hands",
        ),
        (
            "/doudizhu/endgame",
            r#"{"hands": {"landlord": "3", "landlord_down": "4"}, "to_move": "landlord", "last": ["landlord_down", "5"]}"#,
            "/last",
        ),
        (
            "/mahjong/discard",
            r#"{"variant": "riichi", "hand": "123m456p789s1127z", "melds": [["pung", "555m"]]}"#,
            "/melds/0",
        ),
        (
            "/mahjong/claim",
            r#"{"variant": "riichi", "hand": "123m456p789s1122z", "tile": "1z", "from": "left", "table": {"river": [["right", "1m"]]}}"#,
            "/table/river/0",
        ),
        (
            "/mahjong/discard",
            r#"{"variant": "riichi", "hand": "123m456p789s1127z5m", "table": [[], {}]}"#,
            "/table",
        ),
        ("/gomoku/move", r#"[15, "freestyle", [[7, 7]]]"#, ""),
    ] {
        let p = assert_problem(&call(&app, post_json(uri, body)).await, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
        assert_eq!(
            p["errors"][0]["message"], "expected a JSON object, not an array",
            "{body}: {p}"
        );
    }
    // Lists and points given as arrays still read.
    let r = call(
        &app,
        post_json("/gomoku/move", r#"{"moves": [[7, 7]], "max_depth": 1}"#),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}
