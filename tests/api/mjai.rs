//! POST /mahjong/mjai: one seat's action from an mjai event log.

use serde_json::{Value, json};

use crate::*;

async fn post(body: &Value) -> Reply {
    let (app, _) = test_app(test_config(1, 1));
    call(&app, post_json("/mahjong/mjai", &body.to_string())).await
}

const HAND: [&str; 13] = [
    "1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "P", "9m",
];

/// East 1, seat 0 the dealer holding [`HAND`], the others hidden.
fn start_kyoku() -> Value {
    let hidden = ["?"; 13];
    json!({"type": "start_kyoku", "bakaze": "E", "dora_marker": "2s", "kyoku": 1,
        "honba": 0, "kyotaku": 0, "oya": 0, "scores": [25000, 25000, 25000, 25000],
        "tehais": [HAND, hidden, hidden, hidden]})
}

fn tsumo(actor: u8, pai: &str) -> Value {
    json!({"type": "tsumo", "actor": actor, "pai": pai})
}

fn dahai(actor: u8, pai: &str, tsumogiri: bool) -> Value {
    json!({"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri})
}

fn request(events: Vec<Value>) -> Value {
    json!({"player_id": 0, "events": events})
}

#[tokio::test]
async fn the_seats_own_draw_answers_a_discard_of_a_held_tile_with_meta() {
    for strategy in ["balanced", "efficient", "classic"] {
        let mut body = request(vec![
            json!({"type": "start_game", "id": 0}),
            start_kyoku(),
            tsumo(0, "C"),
        ]);
        body["strategy"] = json!(strategy);
        let r = post(&body).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        assert_eq!(v["type"], "dahai", "{v}");
        assert_eq!(v["actor"], 0, "{v}");
        let pai = v["pai"].as_str().unwrap();
        assert!(HAND.contains(&pai) || pai == "C", "{pai} is not held: {v}");
        // Tsumogiri exactly when the drawn tile goes (C is the only copy held).
        assert_eq!(v["tsumogiri"], pai == "C", "{v}");
        assert_eq!(v["meta"]["strategy"], strategy, "{v}");
        assert!(!v["meta"]["reason"].as_str().unwrap().is_empty(), "{v}");
        assert!(v["meta"]["shanten"].is_i64(), "{v}");
    }
}

#[tokio::test]
async fn no_action_open_to_the_seat_answers_none() {
    // Seat 2's 7p: seat 0 holds none (no pon), seat 2 is not on its left (no chi) and the
    // hand is not ready (no ron).
    let events = vec![
        start_kyoku(),
        tsumo(0, "C"),
        dahai(0, "C", true),
        tsumo(1, "?"),
        dahai(1, "N", true),
        tsumo(2, "?"),
        dahai(2, "7p", false),
    ];
    let r = post(&request(events)).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["type"], "none", "{v}");
    assert_eq!(v["meta"]["strategy"], "balanced", "{v}");
    // Before any hand, there is nothing to decide either.
    let r = post(&request(vec![json!({"type": "start_game", "id": 0})])).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["type"], "none");
}

#[tokio::test]
async fn a_log_that_cannot_happen_names_its_first_bad_event() {
    let cases = [
        // Seat 1 discards while it is seat 0's turn.
        (
            vec![start_kyoku(), tsumo(0, "C"), dahai(1, "C", true)],
            "/events/2",
        ),
        // Seat 0 discards a tile it does not hold.
        (
            vec![start_kyoku(), tsumo(0, "C"), dahai(0, "9p", false)],
            "/events/2",
        ),
        // Tsumogiri of a tile that was not just drawn.
        (
            vec![start_kyoku(), tsumo(0, "C"), dahai(0, "1m", true)],
            "/events/2",
        ),
        // Seat 2 draws out of turn.
        (vec![start_kyoku(), tsumo(2, "?")], "/events/1"),
        // A draw before any hand is dealt.
        (vec![tsumo(0, "C")], "/events/0"),
        // An event type mjai does not have.
        (
            vec![start_kyoku(), json!({"type": "flower", "actor": 0})],
            "/events/1",
        ),
        // Not a tile name.
        (vec![start_kyoku(), tsumo(0, "5x")], "/events/1"),
        // A fifth 1m: four in the river after the own hand's one.
        (
            vec![
                start_kyoku(),
                tsumo(0, "1m"),
                dahai(0, "1m", true),
                tsumo(1, "?"),
                dahai(1, "1m", true),
                tsumo(2, "?"),
                dahai(2, "1m", true),
                tsumo(3, "?"),
                dahai(3, "1m", true),
            ],
            "/events/8",
        ),
    ];
    for (events, pointer) in cases {
        let body = request(events);
        let r = post(&body).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
        assert!(
            !p["errors"][0]["message"].as_str().unwrap().is_empty(),
            "{p}"
        );
    }
}

#[tokio::test]
async fn a_seat_outside_0_to_3_is_refused() {
    let r = post(&json!({"player_id": 4, "events": [start_kyoku()]})).await;
    let p = assert_problem(&r, 422);
    assert_eq!(p["errors"][0]["pointer"], "/player_id", "{p}");
}

#[tokio::test]
async fn an_unknown_strategy_is_refused() {
    let r = post(&json!({"player_id": 0, "events": [start_kyoku()], "strategy": "reckless"})).await;
    assert!(r.status.is_client_error(), "{}: {}", r.status, r.text());
    let p = assert_problem(&r, r.status.as_u16());
    assert_eq!(p["errors"][0]["pointer"], "/strategy", "{p}");
}

#[tokio::test]
async fn a_json_array_is_not_a_request() {
    // The bare event list, as the stdin protocol takes it.
    let r = post(&json!([start_kyoku(), tsumo(0, "C")])).await;
    assert!(r.status.is_client_error(), "{}: {}", r.status, r.text());
    assert_problem(&r, r.status.as_u16());
    // The request's fields in order, without their names.
    let r = post(&json!([0, [start_kyoku(), tsumo(0, "C")]])).await;
    assert!(r.status.is_client_error(), "{}: {}", r.status, r.text());
    assert_problem(&r, r.status.as_u16());
}
