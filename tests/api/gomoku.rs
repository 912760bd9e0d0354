//! POST /gomoku/move.

use std::time::{Duration, Instant};

use gamebot::gomoku::{Board, Point, Rule};
use serde_json::{Value, json};

use crate::*;

async fn post(body: Value) -> Reply {
    let (app, _) = test_app(test_config(1, 1));
    call(&app, post_json("/gomoku/move", &body.to_string())).await
}

fn point(v: &Value) -> Point {
    let a = v.as_array().expect("[x, y]");
    assert_eq!(a.len(), 2, "{v}");
    (
        a[0].as_u64().unwrap() as usize,
        a[1].as_u64().unwrap() as usize,
    )
}

fn as_moves(moves: &[Point]) -> Value {
    Value::Array(moves.iter().map(|&(x, y)| json!([x, y])).collect())
}

/// Black's and white's stones interleaved, black first.
fn interleave(black: &[Point], white: &[Point]) -> Vec<Point> {
    let mut out = Vec::new();
    for (i, &b) in black.iter().enumerate() {
        out.push(b);
        if let Some(&w) = white.get(i) {
            out.push(w);
        }
    }
    out
}

#[tokio::test]
async fn answers_a_legal_move_with_its_search_numbers() {
    let moves = [(7, 7), (8, 8), (8, 6), (6, 8)];
    let r =
        post(json!({"size": 15, "rule": "freestyle", "moves": as_moves(&moves), "budget_ms": 200}))
            .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let best = point(&v["move"]);
    let board = Board::from_moves(15, Rule::Freestyle, &moves).unwrap();
    assert!(board.is_legal(best), "{best:?}");
    let pv = v["pv"].as_array().unwrap();
    assert!(!pv.is_empty() && point(&pv[0]) == best, "{v}");
    assert!(v["eval"].is_i64(), "{v}");
    assert!(v["win_in"].is_null() || v["win_in"].is_i64(), "{v}");
    assert!(v["depth"].as_u64().unwrap() >= 1, "{v}");
    assert!(v["nodes"].as_u64().unwrap() >= 1, "{v}");
    assert!(v["elapsed_ms"].as_f64().unwrap() >= 0.0, "{v}");
    // Defaults: 15 × 15 freestyle; an empty board has an answer too.
    let r = post(json!({"moves": [], "budget_ms": 50})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let p = point(&r.json()["move"]);
    assert!(p.0 < 15 && p.1 < 15);
    let r = post(json!({"size": 22, "moves": [[21, 21]], "budget_ms": 50})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_ne!(point(&r.json()["move"]), (21, 21));
}

/// 25 moves filling a 5 × 5 board with no five for either colour.
fn full_board_without_five() -> Vec<Point> {
    let rows = ["BBWWB", "WWBBW", "BBWWB", "WWBBW", "BBWWB"];
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == 'B' {
                black.push((x, y));
            } else {
                white.push((x, y));
            }
        }
    }
    interleave(&black, &white)
}

#[tokio::test]
async fn every_invalid_position_is_a_422_naming_the_field() {
    let row_five = [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (4, 0),
    ];
    let mut after_win = row_five.to_vec();
    after_win.push((4, 1));
    // Black's (7, 7) makes two open threes: forbidden under renju only.
    let double_three = interleave(
        &[(5, 7), (6, 7), (7, 5), (7, 6), (7, 7)],
        &[(0, 0), (14, 0), (0, 14), (14, 14)],
    );
    let cases = [
        (json!({"moves": [[7, 7], [15, 3]]}), "/moves/1"),
        (json!({"size": 9, "moves": [[4, 4], [3, 9]]}), "/moves/1"),
        (json!({"moves": [[7, 7], [8, 8], [7, 7]]}), "/moves/2"),
        (json!({"moves": as_moves(&after_win)}), "/moves/9"),
        (json!({"moves": as_moves(&row_five)}), "/moves"),
        (
            json!({"size": 5, "moves": as_moves(&full_board_without_five())}),
            "/moves",
        ),
        (
            json!({"rule": "renju", "moves": as_moves(&double_three)}),
            "/moves/8",
        ),
        (json!({"size": 5, "moves": vec![[0, 0]; 26]}), "/moves"),
        (json!({"moves": [[7, -1]]}), "/moves/0/1"),
        (json!({"moves": [[7, 7, 7]]}), "/moves/0"),
        (json!({"moves": [7, 7]}), "/moves/0"),
        (json!({"size": 4}), "/size"),
        (json!({"size": 23}), "/size"),
        (json!({"rule": "caro"}), "/rule"),
        (json!({"budget_ms": 0}), "/budget_ms"),
        (json!({"budget_ms": 600001}), "/budget_ms"),
        (json!({"max_depth": 0}), "/max_depth"),
        (json!({"max_depth": 61}), "/max_depth"),
        (json!({"max_nodes": 0}), "/max_nodes"),
        (json!({"candidates": 0}), "/candidates"),
        (json!({"candidates": 11}), "/candidates"),
        (json!({"candidates": -1}), "/candidates"),
        (json!({"candidates": "three"}), "/candidates"),
    ];
    for (body, pointer) in cases {
        let r = post(body.clone()).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
        assert!(!p["errors"][0]["message"].as_str().unwrap().is_empty());
    }
    // The same history is fine where double threes are allowed.
    let r =
        post(json!({"rule": "standard", "moves": as_moves(&double_three), "budget_ms": 50})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = post(json!({"moves": [], "colour": "black"})).await;
    assert_problem(&r, 422);
}

#[tokio::test]
async fn completes_a_five_and_blocks_a_four() {
    // Black to move with an open four: win at once, on either end.
    let win = interleave(
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        &[(3, 8), (4, 8), (5, 8), (10, 10)],
    );
    for rule in ["freestyle", "standard", "renju"] {
        let r = post(json!({"rule": rule, "moves": as_moves(&win), "budget_ms": 300})).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        let p = point(&v["move"]);
        assert!(p == (2, 7) || p == (7, 7), "{rule}: {v}");
        assert_eq!(v["win_in"], 1, "{rule}: {v}");
    }
    // White to move: black's four is blocked at one end; white has no four.
    let block = interleave(
        &[(5, 5), (6, 5), (7, 5), (8, 5)],
        &[(4, 5), (14, 14), (0, 14)],
    );
    for rule in ["freestyle", "standard", "renju"] {
        let r = post(json!({"rule": rule, "moves": as_moves(&block), "budget_ms": 300})).await;
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(point(&r.json()["move"]), (9, 5), "{rule}: {}", r.text());
    }
    // Both have a four and white is to move: white wins rather than blocks.
    let race = interleave(
        &[(5, 5), (6, 5), (7, 5), (8, 5), (0, 0)],
        &[(5, 9), (6, 9), (7, 9), (8, 9)],
    );
    let r = post(json!({"moves": as_moves(&race), "budget_ms": 300})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let p = point(&r.json()["move"]);
    assert!(p == (4, 9) || p == (9, 9), "{}", r.text());
}

#[tokio::test]
async fn never_answers_a_forbidden_point_for_black_under_renju() {
    // Black to move; (7, 7) would be a double three.
    let moves = interleave(
        &[(5, 7), (6, 7), (7, 5), (7, 6)],
        &[(0, 0), (14, 0), (0, 14), (14, 14)],
    );
    let board = Board::from_moves(15, Rule::Renju, &moves).unwrap();
    assert!(board.is_forbidden((7, 7)), "the test's premise");
    for budget in [1, 50, 300] {
        let r =
            post(json!({"rule": "renju", "moves": as_moves(&moves), "budget_ms": budget})).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let p = point(&r.json()["move"]);
        assert!(board.is_legal(p), "{p:?} at budget {budget}");
    }
}

#[tokio::test]
async fn depth_and_node_caps_make_answers_reproducible() {
    let moves = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9)];
    // A generous budget so that the caps, not the clock, end the search.
    for caps in [
        json!({"max_depth": 4}),
        json!({"max_nodes": 20000}),
        json!({"max_depth": 6, "max_nodes": 50000}),
    ] {
        let mut body = json!({"moves": as_moves(&moves), "budget_ms": 10000});
        for (k, v) in caps.as_object().unwrap() {
            body[k] = v.clone();
        }
        let a = post(body.clone()).await;
        let b = post(body.clone()).await;
        assert_eq!(a.status, 200, "{}", a.text());
        let (mut a, mut b) = (a.json(), b.json());
        a["elapsed_ms"] = Value::Null;
        b["elapsed_ms"] = Value::Null;
        assert_eq!(a, b, "{body}");
        if let Some(d) = body["max_depth"].as_u64() {
            assert!(a["depth"].as_u64().unwrap() <= d, "{a}");
        }
    }
}

#[tokio::test]
async fn the_budget_bounds_the_search() {
    let moves = [
        (7, 7),
        (8, 8),
        (8, 6),
        (6, 8),
        (9, 7),
        (7, 9),
        (10, 8),
        (6, 6),
    ];
    for budget in [20u64, 150] {
        let started = Instant::now();
        let r = post(json!({"moves": as_moves(&moves), "budget_ms": budget})).await;
        let wall = started.elapsed();
        assert_eq!(r.status, 200, "{}", r.text());
        let elapsed = r.json()["elapsed_ms"].as_f64().unwrap();
        // The search polls its deadline every few thousand nodes; the slack
        // is for a loaded test machine descheduling the worker thread.
        assert!(elapsed <= (budget + 750) as f64, "{budget} ms: {elapsed}");
        assert!(wall < Duration::from_millis(budget + 2000), "{wall:?}");
    }
}

#[tokio::test]
async fn ranks_candidates_when_asked() {
    let moves = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9)];
    let board = Board::from_moves(15, Rule::Freestyle, &moves).unwrap();
    // Caps well inside the budget: every iteration completes, one ranking.
    let body = json!({"moves": as_moves(&moves), "budget_ms": 10000, "max_depth": 3,
        "max_nodes": 5000000, "candidates": 4});
    let r = post(body.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let candidates = v["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 4, "{v}");
    let first = &candidates[0];
    assert_eq!(first["move"], v["move"], "{v}");
    assert_eq!(first["eval"], v["eval"], "{v}");
    assert_eq!(first["win_in"], v["win_in"], "{v}");
    assert_eq!(first["pv"], v["pv"], "{v}");
    let mut seen = Vec::new();
    let mut last_eval = i64::MAX;
    for c in candidates {
        let p = point(&c["move"]);
        assert!(board.is_legal(p) && !seen.contains(&p), "{v}");
        seen.push(p);
        assert_eq!(point(&c["pv"][0]), p, "{v}");
        assert!(c["win_in"].is_null() || c["win_in"].is_i64(), "{v}");
        let eval = c["eval"].as_i64().unwrap();
        assert!(eval <= last_eval, "best first: {v}");
        last_eval = eval;
    }
    // Reproducible under the caps, like the single answer.
    let mut again = post(body).await.json();
    let mut v = v;
    v["elapsed_ms"] = Value::Null;
    again["elapsed_ms"] = Value::Null;
    assert_eq!(v, again);
    // Asked for one: a list of one. Not asked: no list (the answer as before).
    let r = post(json!({"moves": as_moves(&moves), "max_depth": 3, "candidates": 1})).await;
    let v = r.json();
    assert_eq!(v["candidates"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(v["candidates"][0]["move"], v["move"]);
    let r = post(json!({"moves": as_moves(&moves), "max_depth": 3})).await;
    assert!(r.json().get("candidates").is_none(), "{}", r.text());
    // A decided position: the forced block alone, whatever was asked.
    let block = interleave(
        &[(5, 5), (6, 5), (7, 5), (8, 5)],
        &[(4, 5), (14, 14), (0, 14)],
    );
    let r = post(json!({"moves": as_moves(&block), "budget_ms": 300, "candidates": 10})).await;
    let v = r.json();
    assert_eq!(v["candidates"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(point(&v["candidates"][0]["move"]), (9, 5), "{v}");
}

async fn referee(body: Value) -> Reply {
    let (app, _) = test_app(test_config(1, 1));
    call(&app, post_json("/gomoku/position", &body.to_string())).await
}

#[tokio::test]
async fn the_referee_follows_a_game_to_its_five() {
    let black: Vec<Point> = (3..8).map(|x| (x, 7)).collect();
    let white: Vec<Point> = (3..7).map(|x| (x, 9)).collect();
    let moves = interleave(&black, &white);
    let r = referee(json!({"moves": as_moves(&moves[..8])})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({"state": "open", "to_move": "black", "winner": null, "five": [], "forbidden": []})
    );
    let r = referee(json!({"moves": as_moves(&moves)})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["state"], "won", "{v}");
    assert_eq!(v["winner"], "black", "{v}");
    assert!(v["to_move"].is_null(), "{v}");
    assert_eq!(v["five"], as_moves(&black), "{v}");
    // a move after the five is an invalid game, named by its index
    let mut after = moves.clone();
    after.push((0, 0));
    let p = assert_problem(&referee(json!({"moves": as_moves(&after)})).await, 422);
    assert_eq!(p["errors"][0]["pointer"], "/moves/9", "{p}");
    // an overline wins in freestyle but not under the standard rule
    let black: Vec<Point> = [3, 4, 5, 7, 8, 6].iter().map(|&x| (x, 7)).collect();
    let white: Vec<Point> = vec![(0, 0), (0, 2), (0, 4), (2, 0), (2, 2)];
    let moves = as_moves(&interleave(&black, &white));
    let free = referee(json!({"moves": moves, "rule": "freestyle"}))
        .await
        .json();
    assert_eq!(
        (
            free["state"].clone(),
            free["five"].as_array().unwrap().len()
        ),
        (json!("won"), 6)
    );
    let standard = referee(json!({"moves": moves, "rule": "standard"}))
        .await
        .json();
    assert_eq!(standard["state"], "open", "{standard}");
    assert_eq!(standard["to_move"], "white", "{standard}");
}

#[tokio::test]
async fn the_referee_lists_blacks_forbidden_points_in_renju() {
    let moves = [
        (6, 7),
        (0, 0),
        (7, 7),
        (0, 2),
        (8, 8),
        (0, 4),
        (8, 9),
        (14, 0),
    ];
    let r = referee(json!({"rule": "renju", "moves": as_moves(&moves)})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let board = Board::from_moves(15, Rule::Renju, &moves).unwrap();
    let listed: Vec<Point> = v["forbidden"]
        .as_array()
        .unwrap()
        .iter()
        .map(point)
        .collect();
    assert!(listed.contains(&(8, 7)), "{v}");
    assert!(listed.iter().all(|&p| board.is_forbidden(p)), "{v}");
    // the same stones in freestyle, or white to move: nothing is forbidden
    let r = referee(json!({"rule": "freestyle", "moves": as_moves(&moves)})).await;
    assert_eq!(r.json()["forbidden"], json!([]));
    let r = referee(json!({"rule": "renju", "moves": as_moves(&moves[..7])})).await;
    assert_eq!(r.json()["forbidden"], json!([]));
    // playing a forbidden point is an invalid game
    let mut played = moves.to_vec();
    played.push((8, 7));
    let p = assert_problem(
        &referee(json!({"rule": "renju", "moves": as_moves(&played)})).await,
        422,
    );
    assert_eq!(p["errors"][0]["pointer"], "/moves/8", "{p}");
    for (body, at) in [
        (json!({"size": 4}), "/size"),
        (json!({"moves": [[7, 7]], "komi": 1}), "/komi"),
        (json!({"size": 5, "moves": vec![[0, 0]; 26]}), "/moves"),
    ] {
        let p = assert_problem(&referee(body.clone()).await, 422);
        assert_eq!(p["errors"][0]["pointer"], at, "{body}");
    }
}
