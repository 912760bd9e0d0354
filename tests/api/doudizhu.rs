//! /doudizhu/moves and /doudizhu/split.

use crate::*;

fn app() -> axum::Router {
    test_app(test_config(1, 1)).0
}

async fn post(uri: &str, body: serde_json::Value) -> Reply {
    call(&app(), post_json(uri, &body.to_string())).await
}

fn cards_of(reply: &Reply) -> Vec<String> {
    reply.json()["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["cards"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn leading_moves_are_listed_once_each() {
    let r = post("/doudizhu/moves", serde_json::json!({"hand": "3334"})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let body = r.json();
    let mut cards = cards_of(&r);
    assert_eq!(body["count"], cards.len());
    cards.sort();
    assert_eq!(cards, ["3", "33", "333", "3334", "4"]);
    let trio_solo = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["cards"] == "3334")
        .unwrap();
    assert_eq!(trio_solo["type"], "trio_solo");
    assert_eq!(trio_solo["rank"], "3");
    assert_eq!(trio_solo["length"], 1);
}

#[tokio::test]
async fn following_moves_beat_last_and_end_with_pass() {
    let r = post(
        "/doudizhu/moves",
        serde_json::json!({"hand": "3456789TJQKA2BR", "last": "34567"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let moves = r.json()["moves"].as_array().unwrap().clone();
    let last = moves.last().unwrap();
    assert_eq!(
        (last["cards"].as_str(), last["type"].as_str()),
        (Some(""), Some("pass"))
    );
    // 4–8 … T–A as five-chains, and the rocket.
    let chains = moves.iter().filter(|m| m["type"] == "solo_chain").count();
    assert_eq!(chains, 7);
    assert!(
        moves
            .iter()
            .any(|m| m["type"] == "rocket" && m["cards"] == "BR")
    );
    assert_eq!(moves.len(), 9);
}

#[tokio::test]
async fn notations_agree() {
    let a = post(
        "/doudizhu/moves",
        serde_json::json!({"hand": "t10 jj,Q", "last": "9"}),
    )
    .await;
    let b = post(
        "/doudizhu/moves",
        serde_json::json!({"hand": [10, 10, 11, 11, 12], "last": [9]}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.json(), b.json());
    assert_eq!(cards_of(&a), ["T", "J", "Q", ""]);
}

#[tokio::test]
async fn rule_flags_change_the_moves() {
    let on = post("/doudizhu/moves", serde_json::json!({"hand": "33344"})).await;
    let off = post(
        "/doudizhu/moves",
        serde_json::json!({"hand": "33344", "rules": {"trio_pair": false}}),
    )
    .await;
    assert!(cards_of(&on).contains(&"33344".to_string()));
    assert!(!cards_of(&off).contains(&"33344".to_string()));
    assert_eq!(
        on.json()["count"].as_u64().unwrap(),
        off.json()["count"].as_u64().unwrap() + 1
    );
}

#[tokio::test]
async fn split_partitions_the_hand_with_fewest_plays() {
    let r = post(
        "/doudizhu/split",
        serde_json::json!({"hand": "34567 999 BR"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let body = r.json();
    assert_eq!(body["plays"], 3);
    let mut groups: Vec<(String, String)> = body["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["cards"].as_str().unwrap().into(),
                g["type"].as_str().unwrap().into(),
            )
        })
        .collect();
    groups.sort();
    assert_eq!(
        groups,
        [
            ("34567".to_string(), "solo_chain".to_string()),
            ("999".into(), "trio".into()),
            ("BR".into(), "rocket".into())
        ]
    );
    assert!(body["score"].is_i64());
}

#[tokio::test]
async fn each_kind_of_bad_input_is_a_422_naming_the_field() {
    let cases = [
        (serde_json::json!({"hand": "33X"}), "/hand", "unknown card"),
        (
            serde_json::json!({"hand": "AAAAA"}),
            "/hand",
            "more than four",
        ),
        (serde_json::json!({"hand": "BB"}), "/hand", "joker"),
        (
            serde_json::json!({"hand": [3, 4, 99]}),
            "/hand/2",
            "99 is not a card (DouZero cards are 3-14, 17, 20 and 30)",
        ),
        (
            serde_json::json!({"hand": "33445566778899TTJJQQK"}),
            "/hand",
            "at most 20",
        ),
        (serde_json::json!({"hand": ""}), "/hand", "empty"),
        (
            serde_json::json!({"hand": "3456", "last": "34"}),
            "/last",
            "not a legal combination",
        ),
        (
            serde_json::json!({"hand": "AAAA", "last": "A"}),
            "/last",
            "more than four cards of rank A",
        ),
        (
            serde_json::json!({"hand": "3", "rules": {"trio_sol": true}}),
            "/rules/trio_sol",
            "unknown field",
        ),
        (serde_json::json!({"hand": 7}), "/hand", ""),
    ];
    for (body, pointer, message) in cases {
        let r = post("/doudizhu/moves", body.clone()).await;
        let p = assert_problem(&r, 422);
        let e = &p["errors"][0];
        assert_eq!(e["pointer"], pointer, "{body}: {p}");
        assert!(
            e["message"].as_str().unwrap().contains(message),
            "{body}: {p}"
        );
    }
    let r = post("/doudizhu/split", serde_json::json!({"hand": "33Z"})).await;
    assert_eq!(assert_problem(&r, 422)["errors"][0]["pointer"], "/hand");
    let r = post(
        "/doudizhu/moves",
        serde_json::json!({"hand": "345", "last": "333", "rules": {"trio_solo": false}}),
    )
    .await;
    assert_eq!(r.status, 200, "a plain trio needs no flag: {}", r.text());
    let r = post(
        "/doudizhu/moves",
        serde_json::json!({"hand": "345", "last": "3334", "rules": {"trio_solo": false}}),
    )
    .await;
    assert_eq!(assert_problem(&r, 422)["errors"][0]["pointer"], "/last");
}

async fn endgame(app: &axum::Router, body: serde_json::Value) -> Reply {
    call(app, post_json("/doudizhu/endgame", &body.to_string())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endgame_solves_the_known_positions() {
    let (app, _) = test_app(test_config(2, 4));
    // (hands, to_move, rules, expected result for the mover)
    let cases = [
        (
            serde_json::json!({"landlord": "KK5543", "landlord_down": "225543"}),
            "landlord",
            serde_json::json!({}),
            "win",
        ),
        (
            serde_json::json!({"landlord": "RA54333", "landlord_down": "B222KQ"}),
            "landlord",
            serde_json::json!({}),
            "win",
        ),
        (
            serde_json::json!({"landlord": "2KKTT77554", "landlord_down": "AA8"}),
            "landlord",
            serde_json::json!({}),
            "loss",
        ),
        (
            serde_json::json!({"landlord": "BRJJ999", "landlord_down": "3333 4567 TT AAAA"}),
            "landlord_down",
            serde_json::json!({"trio_pair": false}),
            "loss",
        ),
    ];
    for (hands, to_move, rules, expected) in cases {
        let body = serde_json::json!({"hands": hands, "to_move": to_move, "rules": rules, "budget_ms": 5000});
        let r = endgame(&app, body.clone()).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        assert_eq!(v["result"], expected, "{body} -> {v}");
        assert_eq!(v["complete"], true);
        let pv = v["pv"].as_array().unwrap();
        assert!(!pv.is_empty());
        assert_eq!(pv[0]["seat"], to_move);
        if expected == "win" {
            let best = &v["best_move"];
            assert!(v["winning_moves"].as_array().unwrap().contains(best));
            assert_eq!(pv[0]["cards"], best["cards"]);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endgame_answers_repeats_from_the_shared_cache() {
    let (app, state) = test_app(test_config(1, 1));
    let body = serde_json::json!({"hands": {"landlord": "KK5543", "landlord_down": "225543"}, "to_move": "landlord"});
    let first = endgame(&app, body.clone()).await.json();
    assert_eq!(first["cached"], false);
    let second = endgame(&app, body).await.json();
    assert_eq!(second["cached"], true);
    assert_eq!(first["result"], second["result"]);
    assert_eq!(first["winning_moves"], second["winning_moves"]);
    assert!(state.cache.stats().hits >= 1);
    // A three-seat position with a standing play and implied passes.
    let r = endgame(
        &app,
        serde_json::json!({"hands": {"landlord": "3", "landlord_down": "4", "landlord_up": "BR"},
                           "to_move": "landlord_up", "last": {"seat": "landlord", "cards": "2"}}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.json()["result"],
        "win",
        "the rocket beats the 2, then the peasants lead"
    );
}

/// Two threads give the answer one gives; more threads than workers is a
/// 422 naming `/threads`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endgame_on_two_threads_agrees_with_one() {
    let (app, _) = test_app(test_config(2, 2));
    let hands = serde_json::json!({"landlord": "3345689JJ", "landlord_down": "34567778T", "landlord_up": "4455689TK"});
    let mut answers = Vec::new();
    for threads in [1, 2] {
        // A fresh cache each time, so the second answer is searched too.
        let (app, _) = test_app(test_config(2, 2));
        let body = serde_json::json!({"hands": hands, "to_move": "landlord_up", "threads": threads, "budget_ms": 20000});
        let r = endgame(&app, body).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        assert_eq!(v["complete"], true, "{v}");
        assert_eq!(v["cached"], false, "{v}");
        let mut winning: Vec<String> = v["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["cards"].as_str().unwrap().to_string())
            .collect();
        winning.sort();
        answers.push((v["result"].clone(), winning));
    }
    assert_eq!(answers[0], answers[1]);
    let r = endgame(
        &app,
        serde_json::json!({"hands": hands, "to_move": "landlord_up", "threads": 3}),
    )
    .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("/threads"), "{}", r.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endgame_respects_its_budget() {
    let (app, _) = test_app(test_config(1, 1));
    let body = serde_json::json!({
        "hands": {"landlord": "A8QRK49AB4A269587J4T", "landlord_down": "97532Q8J3T23K9JA7", "landlord_up": "7KTK6Q564T528QJ63"},
        "to_move": "landlord", "budget_ms": 30});
    let started = std::time::Instant::now();
    let r = endgame(&app, body).await;
    let took = started.elapsed();
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["complete"], false, "{v}");
    assert!(
        v["best_move"]["cards"]
            .as_str()
            .is_some_and(|c| !c.is_empty()),
        "{v}"
    );
    // Generous for a loaded CI machine; the solver stops within a millisecond.
    assert!(
        took < std::time::Duration::from_millis(1000),
        "took {took:?}"
    );
}

#[tokio::test]
async fn endgame_rejects_invalid_positions_naming_the_field() {
    let (app, _) = test_app(test_config(1, 1));
    let cases = [
        (
            serde_json::json!({"hands": {"landlord": "33", "landlord_down": "44"}, "to_move": "landlord",
                               "last": {"seat": "landlord", "cards": "5"}}),
            "/last/seat",
        ),
        (
            serde_json::json!({"hands": {"landlord_up": "33", "landlord_down": "44"}, "to_move": "landlord_up"}),
            "/hands/landlord",
        ),
        (
            serde_json::json!({"hands": {"landlord": "", "landlord_down": "44"}, "to_move": "landlord_down"}),
            "/hands/landlord",
        ),
        (
            serde_json::json!({"hands": {"landlord": "AAA", "landlord_down": "AA"}, "to_move": "landlord"}),
            "/hands/landlord_down",
        ),
        (
            serde_json::json!({"hands": {"landlord": "AAA", "landlord_down": "44"}, "to_move": "landlord_down",
                               "last": {"seat": "landlord", "cards": "AA"}}),
            "/last/cards",
        ),
        (
            serde_json::json!({"hands": {"landlord": "33445566778899TTJJQQK", "landlord_down": "4"}, "to_move": "landlord"}),
            "/hands/landlord",
        ),
        (
            serde_json::json!({"hands": {"landlord": "33", "landlord_down": "44"}, "to_move": "landlord_down",
                               "last": {"seat": "landlord", "cards": "35"}}),
            "/last/cards",
        ),
        (
            serde_json::json!({"hands": {"landlord": "33"}, "to_move": "landlord"}),
            "/hands",
        ),
        (
            serde_json::json!({"hands": {"landlord": "33", "landlord_down": "44"}, "to_move": "landlord_up"}),
            "/to_move",
        ),
        (
            serde_json::json!({"hands": {"landlord": "33", "landlord_down": "44"}, "to_move": "dealer"}),
            "/to_move",
        ),
        (
            serde_json::json!({"hands": {"landlord": "33", "landlord_down": "44"}, "to_move": "landlord", "budget_ms": 0}),
            "/budget_ms",
        ),
    ];
    for (body, pointer) in cases {
        let r = endgame(&app, body.clone()).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
    }
}

async fn play(app: &axum::Router, body: serde_json::Value) -> Reply {
    call(app, post_json("/doudizhu/play", &body.to_string())).await
}

/// Deals a seeded random game's hands: landlord 20 cards, peasants 17.
fn deal(seed: u64) -> [String; 3] {
    let mut deck: Vec<char> = "3456789TJQKA2"
        .chars()
        .flat_map(|c| [c; 4])
        .chain(['B', 'R'])
        .collect();
    gamebot::rng::SplitMix64::new(seed).shuffle(&mut deck);
    [
        deck[..20].iter().collect(),
        deck[20..37].iter().collect(),
        deck[37..].iter().collect(),
    ]
}

fn remove(hand: &str, cards: &str) -> String {
    let mut h: Vec<char> = hand.chars().collect();
    for c in cards.chars() {
        let i = h
            .iter()
            .position(|&x| x == c)
            .unwrap_or_else(|| panic!("{c} not in {hand}"));
        h.remove(i);
    }
    h.into_iter().collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_plays_whole_games_legally_and_reproducibly() {
    let (app, _) = test_app(test_config(2, 8));
    let seats = ["landlord", "landlord_down", "landlord_up"];
    for game in 0..4u64 {
        let mut hands = deal(game);
        let mut history: Vec<String> = Vec::new();
        let mut turn = 0usize;
        loop {
            let seat = seats[turn % 3];
            let body = serde_json::json!({"seat": seat, "hand": hands[turn % 3], "history": history,
                                          "budget_ms": 5000, "seed": game});
            let r = play(&app, body.clone()).await;
            assert_eq!(r.status, 200, "{body}: {}", r.text());
            let v = r.json();
            let cards = v["cards"].as_str().unwrap().to_string();
            // Reproducible: the same request and seed give the same play (the
            // search is capped in nodes; the generous budget keeps the time
            // safety net from firing first on a loaded machine).
            assert_eq!(play(&app, body).await.json()["cards"], v["cards"]);
            // A lead is never a pass: two passes (or nothing) before it.
            let leads = history.is_empty() || history.iter().rev().take(2).all(|h| h.is_empty());
            assert!(
                !(leads && cards.is_empty()),
                "passed on a lead in game {game}"
            );
            // The server validates every history entry, so the next request
            // fails if this play was illegal; the hand must hold the cards.
            hands[turn % 3] = remove(&hands[turn % 3], &cards);
            history.push(cards);
            if hands[turn % 3].is_empty() {
                break;
            }
            turn += 1;
            assert!(turn < 300, "game {game} never ended");
        }
        // The game is over: asking again is a 422 naming the last entry.
        let next = seats[(turn + 1) % 3];
        let r = play(
            &app,
            serde_json::json!({"seat": next, "hand": hands[(turn + 1) % 3], "history": history}),
        )
        .await;
        let p = assert_problem(&r, 422);
        assert!(
            p["errors"][0]["pointer"]
                .as_str()
                .unwrap()
                .starts_with("/history/"),
            "{p}"
        );
    }
}

#[tokio::test]
async fn play_rejects_impossible_games_naming_the_field() {
    let (app, _) = test_app(test_config(1, 1));
    let [landlord, down, _] = deal(99);
    let after_first = remove(&landlord, &landlord[..1]);
    let first = landlord[..1].to_string();
    let cases = [
        (
            serde_json::json!({"seat": "landlord_down", "hand": down, "history": []}),
            "/seat",
        ),
        (
            serde_json::json!({"seat": "landlord", "hand": after_first, "history": []}),
            "/hand",
        ),
        (
            serde_json::json!({"seat": "landlord_down", "hand": down, "history": [""]}),
            "/history/0",
        ),
        (
            serde_json::json!({"seat": "landlord_down", "hand": down, "history": ["3X"]}),
            "/history/0",
        ),
        (
            serde_json::json!({"seat": "landlord_down", "hand": down, "history": ["35"]}),
            "/history/0",
        ),
        (
            serde_json::json!({"seat": "landlord_up", "hand": down, "history": [first, "3"]}),
            "/history/1",
        ),
        (
            serde_json::json!({"seat": "landlord", "hand": landlord, "history": [], "landlord_cards": "33"}),
            "/landlord_cards",
        ),
        (
            serde_json::json!({"seat": "landlord", "hand": "AAAAA", "history": []}),
            "/hand",
        ),
        (
            serde_json::json!({"seat": "landlord", "hand": landlord, "history": [], "budget_ms": 0}),
            "/budget_ms",
        ),
        (
            serde_json::json!({"seat": "dealer", "hand": landlord, "history": []}),
            "/seat",
        ),
    ];
    for (body, pointer) in cases {
        let r = play(&app, body.clone()).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn candidates_rank_the_play_first_and_follow_the_seed() {
    let (app, _) = test_app(test_config(2, 8));
    let [landlord, down, _] = deal(5);
    // A lead by the landlord (rollouts), then a peasant's answer.
    let lead = serde_json::json!({"seat": "landlord", "hand": landlord, "history": [],
                                  "seed": 3, "candidates": 5, "budget_ms": 5000});
    for objective in ["win", "score"] {
        let mut body = lead.clone();
        body["objective"] = objective.into();
        let r = play(&app, body.clone()).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        let cands = v["candidates"].as_array().expect("candidates asked for");
        assert!(!cands.is_empty() && cands.len() <= 5, "{v}");
        assert_eq!(
            cands[0]["cards"], v["cards"],
            "the play leads the list: {v}"
        );
        for c in cands {
            let w = c["win_rate"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&w), "{c}");
            assert!(c["samples"].as_u64().unwrap() > 0, "{c}");
            // A landlord's points at bid 1 are ±2 times a power of two.
            assert!(
                c["expected_points"].as_f64().unwrap().abs() <= 2.0 * 2f64.powi(6),
                "{c}"
            );
        }
        // The same request and seed give the same list.
        assert_eq!(play(&app, body).await.json()["candidates"], v["candidates"]);
    }
    // Without `candidates` the answer has none, and the same play.
    let plain = play(
        &app,
        serde_json::json!({"seat": "landlord", "hand": landlord,
                                              "history": [], "seed": 3, "budget_ms": 5000}),
    )
    .await
    .json();
    assert!(plain.get("candidates").is_none(), "{plain}");
    let ranked = play(&app, lead.clone()).await.json();
    assert_eq!(plain["cards"], ranked["cards"]);
    // A forced answer (only a pass or one play) is still ranked on request.
    let first = landlord[..1].to_string();
    let r = play(
        &app,
        serde_json::json!({"seat": "landlord_down", "hand": down,
                                          "history": [first], "candidates": 3, "seed": 1}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["candidates"][0]["cards"], v["cards"], "{v}");
}

#[tokio::test]
async fn play_options_are_checked() {
    let (app, _) = test_app(test_config(1, 1));
    let [landlord, _, _] = deal(6);
    for (extra, pointer) in [
        (serde_json::json!({"candidates": 0}), "/candidates"),
        (serde_json::json!({"candidates": 10}), "/candidates"),
        (serde_json::json!({"objective": "fun"}), "/objective"),
        (
            serde_json::json!({"payout": {"bombs_double": 1}}),
            "/payout/bombs_double",
        ),
        (
            serde_json::json!({"payout": {"jackpot": true}}),
            "/payout/jackpot",
        ),
        (
            serde_json::json!({"seed": 9_223_372_036_854_775_808_u64}),
            "/seed",
        ),
    ] {
        let mut body = serde_json::json!({"seat": "landlord", "hand": landlord, "history": []});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = play(&app, body.clone()).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
    }
}

async fn double(app: &axum::Router, body: serde_json::Value) -> Reply {
    call(app, post_json("/doudizhu/double", &body.to_string())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doubling_follows_the_hand() {
    let (app, _) = test_app(test_config(2, 8));
    // Rocket, four 2s, aces and a long chain: the landlord wins nearly always.
    let strong = serde_json::json!({"seat": "landlord", "hand": "2222AAAKBR3456789TJQ",
                                    "landlord_cards": "3AK", "bid": 3, "seed": 1});
    let r = double(&app, strong.clone()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["double"], true, "{v}");
    assert!(v["win_rate"].as_f64().unwrap() > 0.8, "{v}");
    let stay = v["expected_points_stay"].as_f64().unwrap();
    assert!((v["expected_points_double"].as_f64().unwrap() - 2.0 * stay).abs() < 1e-9);
    // Reproducible by seed.
    assert_eq!(double(&app, strong).await.json(), v);
    // A peasant with small scattered cards facing that landlord does not.
    let weak = serde_json::json!({"seat": "landlord_up", "hand": "33445566778899TTJ",
                                  "landlord_cards": "3AK", "seed": 1});
    let v = double(&app, weak).await.json();
    assert_eq!(v["double"], false, "{v}");
    assert!(v["win_rate"].as_f64().unwrap() < 0.5, "{v}");
    for (body, pointer) in [
        (
            serde_json::json!({"seat": "landlord", "hand": "33445566778899TTJ", "landlord_cards": "3AK"}),
            "/hand",
        ),
        (
            serde_json::json!({"seat": "landlord_up", "hand": "33445566778899TTJ", "landlord_cards": "3AK", "bid": 4}),
            "/bid",
        ),
        (
            serde_json::json!({"seat": "landlord_up", "hand": "33445566778899TTJ", "landlord_cards": "3A"}),
            "/landlord_cards",
        ),
        (
            serde_json::json!({"seat": "landlord_up", "hand": "33445566778899TTJ", "landlord_cards": "333"}),
            "/landlord_cards",
        ),
        (
            serde_json::json!({"seat": "landlord", "hand": "2222AAAKBR3456789TJQ", "landlord_cards": "555"}),
            "/landlord_cards",
        ),
        (
            serde_json::json!({"seat": "landlord", "hand": "2222AAAKBR3456789TJQ", "landlord_cards": "3AK",
                               "seed": 9_223_372_036_854_775_808_u64}),
            "/seed",
        ),
    ] {
        let r = double(&app, body.clone()).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
    }
}

#[tokio::test]
async fn bids_rise_or_pass() {
    let (app, _) = test_app(test_config(1, 1));
    let strong = "33456789TJQKA22BR";
    let weak = "3345678899TTJQQKA";
    let bid = |hand: &'static str, bids: serde_json::Value| {
        let app = app.clone();
        async move {
            call(
                &app,
                post_json(
                    "/doudizhu/bid",
                    &serde_json::json!({"hand": hand, "bids": bids}).to_string(),
                ),
            )
            .await
        }
    };
    let r = bid(strong, serde_json::json!([1])).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert!(v["bid"].as_u64().unwrap() > 1 || v["bid"] == 0, "{v}");
    assert_eq!(v["bid"], 3, "rocket and two 2s are worth 3: {v}");
    let v = bid(weak, serde_json::json!([])).await.json();
    assert!(
        v["strength"].as_i64().unwrap()
            < bid(strong, serde_json::json!([])).await.json()["strength"]
                .as_i64()
                .unwrap()
    );
    for hand in [strong, weak] {
        for earlier in [
            serde_json::json!([]),
            serde_json::json!([0]),
            serde_json::json!([1, 2]),
            serde_json::json!([2, 0]),
        ] {
            let highest = earlier
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap())
                .max()
                .unwrap_or(0);
            let b = bid(hand, earlier.clone()).await.json()["bid"]
                .as_u64()
                .unwrap();
            assert!(b == 0 || b > highest, "{hand} after {earlier}: {b}");
        }
    }
    for (bids, pointer) in [
        (serde_json::json!([3]), "/bids/0"),
        (serde_json::json!([2, 1]), "/bids/1"),
        (serde_json::json!([0, 0, 0]), "/bids"),
        (serde_json::json!([4]), "/bids/0"),
        (serde_json::json!([-1]), "/bids/0"),
    ] {
        let p = assert_problem(&bid(strong, bids.clone()).await, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{bids}: {p}");
    }
    let p = assert_problem(&bid("33456789", serde_json::json!([])).await, 422);
    assert_eq!(p["errors"][0]["pointer"], "/hand");
}

/// Raw JSON bodies: serde_json::json! cannot write numbers beyond u64.
async fn post_raw(uri: &str, body: &str) -> Reply {
    call(&app(), post_json(uri, body)).await
}

#[tokio::test]
async fn a_bad_card_list_element_is_named_by_its_pointer() {
    let not_a_card = "is not a card (DouZero cards are 3-14, 17, 20 and 30)";
    let cases = [
        (
            "/doudizhu/moves",
            r#"{"hand": [3, 4, 5, 99999999999999999999]}"#,
            "/hand/3",
            format!("1e20 {not_a_card}"),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": [3, 18446744073709551615]}"#,
            "/hand/1",
            format!("18446744073709551615 {not_a_card}"),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": [3, -7]}"#,
            "/hand/1",
            format!("-7 {not_a_card}"),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": [3, 4.5]}"#,
            "/hand/1",
            format!("4.5 {not_a_card}"),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": [3, 1e300]}"#,
            "/hand/1",
            format!("1e300 {not_a_card}"),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": [3, "4"]}"#,
            "/hand/1",
            "\"4\" is not a card: a list holds DouZero integers (a card string is one string)"
                .to_string(),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": [3, null]}"#,
            "/hand/1",
            "invalid type: null, expected a DouZero card integer (3-14, 17, 20 or 30)".to_string(),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": {"cards": [3]}}"#,
            "/hand",
            "invalid type: map, expected a card string such as \"33455TJ2BR\" or a list of DouZero card integers".to_string(),
        ),
        (
            "/doudizhu/moves",
            r#"{"hand": "3", "last": [3, 1e30]}"#,
            "/last/1",
            format!("1e30 {not_a_card}"),
        ),
        (
            "/doudizhu/play",
            r#"{"seat": "landlord", "hand": "3", "history": [[3], [4, 16]]}"#,
            "/history/1/1",
            format!("16 {not_a_card}"),
        ),
        (
            "/doudizhu/endgame",
            r#"{"hands": {"landlord": [3, 300]}, "to_move": "landlord"}"#,
            "/hands/landlord/1",
            format!("300 {not_a_card}"),
        ),
        (
            "/doudizhu/endgame",
            r#"{"hands": {"landlord": [3]}, "to_move": "landlord", "last": {"seat": "landlord_down", "cards": [true]}}"#,
            "/last/cards/0",
            "invalid type: boolean `true`, expected a DouZero card integer (3-14, 17, 20 or 30)".to_string(),
        ),
    ];
    for (uri, body, pointer, message) in cases {
        let r = post_raw(uri, body).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
        assert_eq!(p["errors"][0]["message"], message.as_str(), "{body}: {p}");
    }
    // Both forms still read.
    let r = post_raw("/doudizhu/moves", r#"{"hand": [3, 3, 30], "last": "4"}"#).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = post_raw("/doudizhu/moves", r#"{"hand": "33R", "last": [4]}"#).await;
    assert_eq!(r.status, 200, "{}", r.text());
}
