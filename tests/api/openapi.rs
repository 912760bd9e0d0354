//! openapi.yaml at the repository root is the contract: it must equal the
//! document generated from the code. Regenerate with
//! `cargo run --release -- openapi > openapi.yaml`.

use crate::*;

#[test]
fn committed_openapi_matches_the_code() {
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml"))
        .expect("openapi.yaml at the repository root");
    let generated = gamebot::http::docs::OPENAPI_YAML.as_str();
    assert!(
        committed == generated,
        "openapi.yaml is stale: run `cargo run --release -- openapi > openapi.yaml`"
    );
}

#[tokio::test]
async fn served_document_is_the_generated_one() {
    let (app, _) = test_app(test_config(1, 1));
    let r = call(&app, get_req("/openapi.yaml")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/yaml"));
    assert_eq!(r.text(), gamebot::http::docs::OPENAPI_YAML.as_str());
    assert!(r.text().starts_with("openapi: 3.1"));
}
