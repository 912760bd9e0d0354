//! POST /mahjong/table: a Riichi hand against three bots, replayed per request.

use serde_json::{Value, json};

use crate::*;

async fn post(app: &axum::Router, path: &str, body: &Value) -> Reply {
    call(app, post_json(path, &body.to_string())).await
}

/// An mjai action with its `consumed` tiles sorted and without `meta`.
fn normalized(action: &Value) -> Value {
    let mut a = action.clone();
    if let Some(m) = a.as_object_mut() {
        m.remove("meta");
    }
    if let Some(list) = a.get_mut("consumed").and_then(Value::as_array_mut) {
        list.sort_by_key(|v| v.to_string());
    }
    a
}

/// A whole hand, the player taking the bot's advice from `/mahjong/mjai` on
/// the events it was given: every hint is one of the legal actions, the
/// hand ends, and the points add up.
#[tokio::test]
async fn a_hand_plays_to_its_end_with_the_bots_advice() {
    // A whole hand's events are larger than the tests' usual body limit.
    let mut config = test_config(1, 1);
    config.body_limit_bytes = 65536;
    let (app, _) = test_app(config);
    let mut ends = Vec::new();
    for seed in 0..4u64 {
        let seat = (seed % 4) as u8;
        let mut decisions: Vec<Value> = Vec::new();
        let result = loop {
            let r = post(
                &app,
                "/mahjong/table",
                &json!({"seed": seed, "seat": seat, "decisions": decisions}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.text());
            let v = r.json();
            let table = &v["table"];
            assert_eq!(table["seat"], seat);
            assert_eq!(table["seats"].as_array().unwrap().len(), 4);
            if v["state"] == "over" {
                assert_eq!(v["legal"], json!([]));
                break v["result"].clone();
            }
            assert_eq!(v["state"], "waiting");
            let hint = post(
                &app,
                "/mahjong/mjai",
                &json!({"player_id": seat, "events": v["events"]}),
            )
            .await;
            assert_eq!(hint.status, 200, "{}", hint.text());
            let hint = normalized(&hint.json());
            let legal: Vec<Value> = v["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(normalized)
                .collect();
            assert!(legal.contains(&hint), "{hint} not in {legal:?}");
            decisions.push(hint);
            assert!(decisions.len() < 120, "the hand does not end");
        };
        let deltas: Vec<i64> = result["deltas"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_i64().unwrap())
            .collect();
        let scores: i64 = result["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_i64().unwrap())
            .sum();
        assert!(scores <= 100_000 && scores > 90_000, "{result}");
        if result["end"] == "win" {
            let winner = result["seat"].as_u64().unwrap() as usize;
            assert!(deltas[winner] > 0, "{result}");
            assert!(result["han"].as_u64().unwrap() >= 1, "{result}");
            assert!(!result["items"].as_array().unwrap().is_empty(), "{result}");
        }
        ends.push(result["end"].as_str().unwrap().to_string());
        // The same request again gives the same hand.
        let again = post(
            &app,
            "/mahjong/table",
            &json!({"seed": seed, "seat": seat, "decisions": decisions}),
        )
        .await;
        assert_eq!(again.json()["result"], result);
    }
    assert!(
        ends.iter().all(|e| e == "win" || e == "exhaustive"),
        "{ends:?}"
    );
}

#[tokio::test]
async fn bad_decisions_are_named_by_index() {
    let mut config = test_config(1, 1);
    config.body_limit_bytes = 65536;
    let (app, _) = test_app(config);
    let first = post(&app, "/mahjong/table", &json!({"seed": 7}))
        .await
        .json();
    let legal = first["legal"].as_array().unwrap();
    let ok = legal.last().unwrap().clone();
    // A tile the seat does not hold.
    let held: Vec<&Value> = first["table"]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .chain(std::iter::once(&first["table"]["drawn"]))
        .collect();
    let missing = [
        "1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C",
    ]
    .into_iter()
    .find(|t| !held.contains(&&json!(t)))
    .unwrap();
    for (decisions, at, says) in [
        (
            json!([{"type": "dahai", "pai": missing, "tsumogiri": false}]),
            "/decisions/0",
            "not a legal action",
        ),
        (
            json!([ok, {"type": "reach"}]),
            "/decisions/1",
            "not a legal action",
        ),
        (json!([{"type": "dahai", "pai": "0x"}]), "/decisions/0", ""),
        (json!([{"type": "teleport"}]), "/decisions/0", ""),
    ] {
        let r = post(
            &app,
            "/mahjong/table",
            &json!({"seed": 7, "decisions": decisions}),
        )
        .await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], at, "{p}");
        assert!(
            p["errors"][0]["message"].as_str().unwrap().contains(says),
            "{p}"
        );
    }
    for (body, at) in [
        (json!({"seed": 7, "seat": 4}), "/seat"),
        (json!({"seed": 7, "dealer": 9}), "/dealer"),
        (json!({"seat": 1}), "/seed"),
        (json!({"seed": -1}), "/seed"),
        (
            json!({"seed": 7, "decisions": vec![json!({"type": "none"}); 257]}),
            "/decisions",
        ),
        (json!({"seed": 7, "hand": "123m"}), "/hand"),
    ] {
        let p = assert_problem(&post(&app, "/mahjong/table", &body).await, 422);
        assert_eq!(p["errors"][0]["pointer"], at, "{body}");
    }
}

#[tokio::test]
async fn decisions_after_the_end_are_refused() {
    let (app, _) = test_app(test_config(1, 1));
    let mut decisions: Vec<Value> = Vec::new();
    loop {
        let v = post(
            &app,
            "/mahjong/table",
            &json!({"seed": 2, "decisions": decisions}),
        )
        .await
        .json();
        if v["state"] == "over" {
            break;
        }
        decisions.push(v["legal"][0].clone());
    }
    let n = decisions.len();
    decisions.push(json!({"type": "none"}));
    let p = assert_problem(
        &post(
            &app,
            "/mahjong/table",
            &json!({"seed": 2, "decisions": decisions}),
        )
        .await,
        422,
    );
    assert_eq!(p["errors"][0]["pointer"], format!("/decisions/{n}"), "{p}");
}
