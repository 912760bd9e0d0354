//! Whole request bodies through the real router (`tower::ServiceExt::oneshot`,
//! no socket): extraction, validation, the engines and the error mapping.
//!
//! Input: byte 0 picks the route, the rest is the JSON body. Properties: no
//! 5xx (a panic anywhere would also abort the fuzzer through libFuzzer's panic
//! hook), errors are problem documents, and 200 answers are legal for the
//! request (moves are combinations of the hand's cards that beat the standing
//! play, a split partitions the hand, a bid outbids, a discard is in the hand, a gomoku move is legal on the
//! replayed board).
#![no_main]

use std::sync::LazyLock;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use gamebot::config::Config;
use gamebot::gomoku;
use gamebot::doudizhu::{ComboType, Hand, Rules, beats, classify, classify_all};
use gamebot::http::doudizhu::bid::BidRequest;
use gamebot::http::doudizhu::moves::MovesRequest;
use gamebot::http::doudizhu::play::PlayRequest;
use gamebot::http::doudizhu::split::SplitRequest;
use gamebot::http::{AppState, app};
use gamebot::mahjong::tiles::{Tile, parse_mjai, parse_tile, parse_tiles};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tower::ServiceExt;

/// Every POST route.
const ROUTES: [&str; 12] = [
    "/doudizhu/moves",
    "/doudizhu/split",
    "/doudizhu/endgame",
    "/doudizhu/play",
    "/doudizhu/bid",
    "/mahjong/discard",
    "/mahjong/claim",
    "/gomoku/move",
    // Appended, so that the committed seeds keep their routes.
    "/doudizhu/double",
    "/mahjong/mjai",
    "/mahjong/table",
    "/gomoku/position",
];

const STACK_BYTES: usize = 256 * 1024;

static SERVICE: LazyLock<(tokio::runtime::Runtime, Router)> = LazyLock::new(|| {
    let mut config = Config::defaults();
    config.workers = 1;
    config.max_queued = 1;
    config.cache_mib = 1;
    // Searches are cut short so that each input takes milliseconds.
    config.default_budget_ms = 5;
    config.max_budget_ms = 5;
    // Handlers run on a worker thread whose stack is to the fuzzer's input
    // size (-max_len 8192) what the server's threads (2 MiB) are to its body
    // limit (64 KiB): 1/8, so recursion as deep as the input shows up as a crash.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_stack_size(STACK_BYTES)
        .enable_all()
        .build()
        .expect("tokio runtime");
    (runtime, app(AppState::new(config)))
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let route = ROUTES[usize::from(pick) % ROUTES.len()];
    let (runtime, router) = &*SERVICE;
    let request = Request::post(route)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_vec()))
        .expect("request");
    let router = router.clone();
    let task = runtime.spawn(async move {
        let response = router.oneshot(request).await.expect("infallible");
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        (status, content_type, bytes)
    });
    let (status, content_type, answer) = runtime.block_on(task).expect("the request task");
    let text = String::from_utf8_lossy(&answer);
    assert!(
        !status.is_server_error(),
        "{route} answered {status}: {text}"
    );
    let json: Value = serde_json::from_slice(&answer)
        .unwrap_or_else(|e| panic!("{route} answered {status} with non-JSON ({e}): {text}"));
    if status != StatusCode::OK {
        assert_eq!(
            content_type, "application/problem+json",
            "{route} {status}: {text}"
        );
        assert_eq!(json["status"], status.as_u16(), "{text}");
        if status == StatusCode::UNPROCESSABLE_ENTITY {
            let errors = json["errors"].as_array().expect("422 lists errors");
            assert!(!errors.is_empty());
            for e in errors {
                let pointer = e["pointer"].as_str().expect("pointer");
                assert!(pointer.is_empty() || pointer.starts_with('/'), "{pointer}");
            }
        }
        return;
    }
    match route {
        "/doudizhu/moves" => check_moves(body, &json),
        "/doudizhu/split" => check_split(body, &json),
        "/doudizhu/play" => check_play(body, &json),
        "/doudizhu/bid" => check_bid(body, &json),
        "/mahjong/discard" => check_discard(body, &json),
        "/mahjong/claim" => check_claim(body, &json),
        "/gomoku/move" => check_gomoku(body, &json),
        _ => {}
    }
});

fn cards(v: &Value) -> Hand {
    Hand::parse_str(v.as_str().expect("cards are a string")).expect("answer cards parse")
}

fn kind(v: &Value) -> ComboType {
    ComboType::from_name(v.as_str().expect("type is a string")).expect("known type")
}

/// `cards` with type `kind` is a combination under `rules` taken from `hand`.
fn assert_play(hand: Hand, played: Hand, kind: ComboType, rules: &Rules) {
    assert!(hand.contains(played), "{played} is not in {hand}");
    assert!(
        classify_all(played, rules)
            .iter()
            .any(|c| c.kind == kind && c.cards == played),
        "{played} is not a {kind}"
    );
}

fn check_moves(body: &[u8], json: &Value) {
    let req: MovesRequest = serde_json::from_slice(body).expect("the server accepted it");
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse_hand("/hand").ok().expect("valid hand");
    let last = req
        .last
        .as_ref()
        .map(|l| classify(l.parse("/last").ok().expect("valid last"), &rules).expect("a combo"))
        .filter(|c| !c.is_pass());
    let moves = json["moves"].as_array().expect("moves");
    assert_eq!(json["count"], moves.len());
    for (i, m) in moves.iter().enumerate() {
        let (played, k) = (cards(&m["cards"]), kind(&m["type"]));
        if k == ComboType::Pass {
            assert!(
                last.is_some() && i + 1 == moves.len(),
                "a pass only last, when following"
            );
            continue;
        }
        assert_play(hand, played, k, &rules);
        if let Some(l) = &last {
            let c = classify_all(played, &rules)
                .into_iter()
                .find(|c| c.kind == k)
                .expect("classified above");
            assert!(beats(&c, l), "{c} does not beat {l}");
        }
    }
}

fn check_split(body: &[u8], json: &Value) {
    let req: SplitRequest = serde_json::from_slice(body).expect("the server accepted it");
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse_hand("/hand").ok().expect("valid hand");
    let groups = json["groups"].as_array().expect("groups");
    assert_eq!(json["plays"], groups.len());
    let mut union = Hand::EMPTY;
    for g in groups {
        let played = cards(&g["cards"]);
        assert_play(hand, played, kind(&g["type"]), &rules);
        union = union.add(played);
    }
    assert!(union == hand, "the split covers {union}, not {hand}");
}

fn check_play(body: &[u8], json: &Value) {
    let req: PlayRequest = serde_json::from_slice(body).expect("the server accepted it");
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse_hand("/hand").ok().expect("valid hand");
    let (played, k) = (cards(&json["cards"]), kind(&json["type"]));
    if k != ComboType::Pass {
        assert_play(hand, played, k, &rules);
    }
}

fn check_bid(body: &[u8], json: &Value) {
    let req: BidRequest = serde_json::from_slice(body).expect("the server accepted it");
    let bid = json["bid"].as_u64().expect("bid");
    let highest = req.bids.iter().copied().max().unwrap_or(0);
    assert!(bid <= 3);
    assert!(
        bid == 0 || bid > u64::from(highest),
        "bid {bid} after {highest}"
    );
}

/// The request's concealed tiles, in either notation.
fn hand_tiles(body: &[u8]) -> Vec<Tile> {
    let req: Value = serde_json::from_slice(body).expect("the server accepted it");
    match &req["hand"] {
        Value::String(s) => parse_tiles(s).expect("valid hand"),
        Value::Array(names) => {
            let names: Vec<&str> = names.iter().map(|n| n.as_str().expect("name")).collect();
            parse_mjai(&names).expect("valid hand")
        }
        other => panic!("hand {other}"),
    }
}

fn check_discard(body: &[u8], json: &Value) {
    let hand = hand_tiles(body);
    if json["action"] == "discard" {
        let tile = parse_tile(json["tile"].as_str().expect("tile")).expect("tile parses");
        assert!(
            hand.iter().any(|t| t.index == tile.index),
            "discarded {tile} is not in the hand"
        );
    }
}

fn check_claim(body: &[u8], json: &Value) {
    let req: Value = serde_json::from_slice(body).expect("the server accepted it");
    let claimed = parse_tile(req["tile"].as_str().expect("tile")).expect("valid tile");
    let action = json["action"].as_str().expect("action");
    let tiles = parse_tiles(json["tiles"].as_str().expect("tiles")).expect("tiles parse");
    let expected = match action {
        "pass" => 0..=0,
        "win" => 1..=1,
        "chow" | "pung" => 3..=3,
        "kong" => 4..=4,
        other => panic!("unknown claim action {other}"),
    };
    assert!(
        expected.contains(&tiles.len()),
        "{action} with {} tiles",
        tiles.len()
    );
    if action != "pass" {
        assert!(
            tiles.iter().any(|t| t.index == claimed.index),
            "{action} does not use the claimed {claimed}"
        );
    }
}

/// The answer is a legal move in the position the request describes
/// (replayed on the engine's own board: on the board, empty, not forbidden).
fn check_gomoku(body: &[u8], json: &Value) {
    let req: Value = serde_json::from_slice(body).expect("the server accepted it");
    let size = req["size"].as_u64().map_or(15, |s| s as usize);
    let rule = match req["rule"].as_str().unwrap_or("freestyle") {
        "freestyle" => gomoku::Rule::Freestyle,
        "standard" => gomoku::Rule::Standard,
        "renju" => gomoku::Rule::Renju,
        other => panic!("the server accepted rule {other}"),
    };
    let point = |v: &Value| {
        let xy = v.as_array().expect("a point is an array");
        (xy[0].as_u64().expect("x") as usize, xy[1].as_u64().expect("y") as usize)
    };
    let moves: Vec<gomoku::Point> = req["moves"]
        .as_array()
        .map(|m| m.iter().map(point).collect())
        .unwrap_or_default();
    let board = gomoku::Board::from_moves(size, rule, &moves).expect("the server accepted it");
    let answer = point(&json["move"]);
    assert!(board.is_legal(answer), "{answer:?} is not legal here");
}
