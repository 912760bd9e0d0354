//! /mahjong/discard and /mahjong/claim.

use std::collections::BTreeSet;

use crate::*;

async fn post(uri: &str, body: serde_json::Value) -> Reply {
    let (app, _) = test_app(test_config(1, 1));
    call(&app, post_json(uri, &body.to_string())).await
}

/// Tiles of a tenhou string, one "5m"-style name each (red fives as 0).
fn tiles(tenhou: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut digits = Vec::new();
    for c in tenhou.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            out.extend(digits.drain(..).map(|d| format!("{d}{c}")));
        }
    }
    out
}

#[tokio::test]
async fn discard_is_a_tile_of_the_hand_with_numbers_for_every_candidate() {
    for strategy in ["classic", "efficient"] {
        for variant in ["riichi", "hong_kong"] {
            let hand = "123m456p789s1127z5m";
            let r = post(
                "/mahjong/discard",
                serde_json::json!({"variant": variant, "min_fan": 0, "hand": hand, "drawn": "5m", "strategy": strategy}),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.text());
            let v = r.json();
            assert_eq!(v["action"], "discard", "{v}");
            let tile = v["tile"].as_str().unwrap().to_string();
            assert!(tiles(hand).contains(&tile), "{tile} not in hand");
            let distinct: BTreeSet<String> = tiles(hand).into_iter().collect();
            let listed: BTreeSet<String> = v["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["tile"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(distinct, listed);
            // The chosen discard's numbers are its candidate's numbers.
            let chosen = v["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["tile"] == tile.as_str())
                .unwrap();
            assert_eq!(chosen["shanten"], v["shanten"]);
            assert_eq!(chosen["ukeire"], v["ukeire"]);
        }
    }
}

#[tokio::test]
async fn efficient_keeps_the_hand_shape() {
    // 1-shanten: the lone honor goes, never a tile of a complete set.
    let r = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi", "hand": "123m456p789s1m2m7z55s", "strategy": "efficient"}),
    )
    .await;
    let v = r.json();
    assert_eq!(v["tile"], "7z", "{v}");
    let min = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["shanten"].as_i64().unwrap())
        .min()
        .unwrap();
    assert_eq!(v["shanten"].as_i64().unwrap(), min);
}

#[tokio::test]
async fn complete_hands_win_when_the_rules_allow() {
    // Thirteen orphans in Hong Kong: a limit hand.
    let r = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "hong_kong", "hand": "19m19p19s1234567z1m"}),
    )
    .await;
    let v = r.json();
    assert_eq!(v["action"], "win", "{v}");
    assert_eq!(v["win_value"], 13);
    assert_eq!(v["win_items"][0]["value"], 13, "{v}");
    // Riichi: closed and complete, so menzen tsumo is a yaku.
    let r = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi", "hand": "123m456p789s234s55z"}),
    )
    .await;
    let v = r.json();
    assert_eq!(v["action"], "win", "{v}");
    // The table bot (Riichi's default) itemises its win too: the yaku, then the dora.
    let r = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi", "hand": "123m456p789s234s55z",
            "dora_indicators": "1m", "table": {"river": [
                {"seat": "self", "tile": "9p"}, {"seat": "right", "tile": "1z"},
                {"seat": "across", "tile": "2z"}, {"seat": "left", "tile": "3z"}]}}),
    )
    .await;
    let v = r.json();
    assert_eq!(v["action"], "win", "{v}");
    assert_eq!(
        v["win_items"][0],
        serde_json::json!({"name": "menzen tsumo", "value": 1}),
        "{v}"
    );
    assert_eq!(
        v["win_items"][1],
        serde_json::json!({"name": "dora", "value": 1}),
        "{v}"
    );
    // A claim that completes a dragon-pung hand in Hong Kong at min_fan 0.
    let r = post(
        "/mahjong/claim",
        serde_json::json!({"variant": "hong_kong", "min_fan": 0, "hand": "123m456p789s1155z", "tile": "5z", "from": "right"}),
    )
    .await;
    let v = r.json();
    assert_eq!(v["action"], "win", "{v}");
    // What scores the win is data, and the reason reads as text.
    assert_eq!(
        v["win_items"],
        serde_json::json!([
            {"name": "concealed hand", "value": 1},
            {"name": "no flowers", "value": 1},
            {"name": "dragon pung", "value": 1},
        ])
    );
    assert_eq!(
        v["reason"],
        "complete hand worth 3: concealed hand 1, no flowers 1, dragon pung 1"
    );
}

#[tokio::test]
async fn claims_are_legal() {
    // 4m would make a chow with 23m, but only the left player's discard can be chowed.
    for from in ["across", "right"] {
        let r = post(
            "/mahjong/claim",
            serde_json::json!({"variant": "hong_kong", "min_fan": 0, "hand": "23m456p789s11z579p", "tile": "4m", "from": from}),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text());
        assert_ne!(r.json()["action"], "chow", "{}", r.text());
    }
    // A pung needs two of the tile in hand.
    let r = post(
        "/mahjong/claim",
        serde_json::json!({"variant": "riichi", "hand": "13m456p789s11z579p", "tile": "5z", "from": "across"}),
    )
    .await;
    assert_eq!(r.json()["action"], "pass", "{}", r.text());
}

#[tokio::test]
async fn notations_agree() {
    let a = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi", "hand": "123m406p789s1122z"}),
    )
    .await;
    let b = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi",
            "hand": ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "S", "S"]}),
    )
    .await;
    assert_eq!(
        a.status, 422,
        "13 tiles is a claim hand, not a discard hand"
    );
    assert_eq!(a.json(), b.json());
    let a = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi", "hand": "123m406p789s11223z"}),
    )
    .await;
    let b = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi",
            "hand": ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "S", "S", "W"]}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text());
    assert_eq!(a.json(), b.json());
}

#[tokio::test]
async fn each_kind_of_bad_input_is_a_422_naming_the_field() {
    let cases = [
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s11z5x"}),
            "/hand",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s11z5m8z"}),
            "/hand",
        ),
        (
            serde_json::json!({"variant": "red_dragon", "hand": "123m456p789s11z5m"}),
            "/hand",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "11111m456p789s11z5m"}),
            "/hand",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "1111m456p789s11z55m", "visible": "1m"}),
            "/visible",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s11z5"}),
            "/hand",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s11z"}),
            "/hand",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "456p789s11z5m", "melds": [{"type": "chow", "tiles": "135m"}]}),
            "/melds/0/tiles",
        ),
        (
            serde_json::json!({"variant": "red_dragon", "hand": "456p789s55m5m", "melds": [{"type": "chow", "tiles": "123m"}]}),
            "/melds/0/tiles",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m", "seat_wind": "X"}),
            "/seat_wind",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m", "drawn": "9m"}),
            "/drawn",
        ),
        (
            serde_json::json!({"variant": "hong_kong", "hand": "123m456p789s1127z5m", "min_fan": 14}),
            "/min_fan",
        ),
        (
            serde_json::json!({"variant": "hong_kong", "hand": "123m456p789s1127z5m", "flowers": ["5f"]}),
            "/flowers/0",
        ),
        (
            serde_json::json!({"variant": "mahjong", "hand": "123m456p789s1127z5m"}),
            "/variant",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m", "visible": "9p", "own_discards": "19p"}),
            "/own_discards",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m", "visible": "1x", "own_discards": "1m"}),
            "/visible",
        ),
    ];
    for (body, pointer) in cases {
        let r = post("/mahjong/discard", body.clone()).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
    }
    let r = post(
        "/mahjong/claim",
        serde_json::json!({"variant": "riichi", "hand": "123m456p789s1122z", "tile": "9q", "from": "left"}),
    )
    .await;
    assert_eq!(assert_problem(&r, 422)["errors"][0]["pointer"], "/tile");
    let r = post(
        "/mahjong/claim",
        serde_json::json!({"variant": "riichi", "hand": "123m456p789s1122z", "tile": "1z", "from": "behind"}),
    )
    .await;
    assert_eq!(assert_problem(&r, 422)["errors"][0]["pointer"], "/from");
}

#[tokio::test]
async fn riichi_furiten_turns_a_win_on_a_discard_into_a_pass() {
    let claim = |extra: serde_json::Value| {
        let mut body = serde_json::json!({"variant": "riichi", "hand": "23m456p678s234s55p",
            "riichi_declared": true, "visible": "1m9p", "tile": "4m", "from": "left"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        post("/mahjong/claim", body)
    };
    let r = claim(serde_json::json!({"own_discards": "9p"})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["action"], "win");
    let r = claim(serde_json::json!({"own_discards": ["1m", "9p"]})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["action"], "pass");
    assert!(r.json()["reason"].as_str().unwrap().contains("furiten"));
    let r = claim(serde_json::json!({"furiten": true})).await;
    assert_eq!(r.json()["action"], "pass");
}

#[tokio::test]
async fn hong_kong_defends_its_discard_with_the_table() {
    // The right-hand seat has three melds and ten discards, 1m among them; the hand is two
    // from ready, so it folds to the 1m (out of its own set) instead of a loose tile.
    let river: Vec<serde_json::Value> = tiles("1z3z1m3s9p2m6z8m1p4m")
        .into_iter()
        .map(|t| serde_json::json!({"seat": "right", "tile": t}))
        .collect();
    let body = |table: Option<serde_json::Value>| {
        let mut b = serde_json::json!({"variant": "hong_kong", "min_fan": 0,
            "hand": "123m456p1357s9s247z", "strategy": "efficient"});
        if let Some(t) = table {
            b["table"] = t;
        }
        b
    };
    let table = serde_json::json!({"river": river, "melds": {"right": [
        {"type": "chow", "tiles": "789m"},
        {"type": "pung", "tiles": "222p"},
        {"type": "pung", "tiles": "888p"}]}});
    let plain = post("/mahjong/discard", body(None)).await;
    assert_eq!(plain.status, 200, "{}", plain.text());
    assert_ne!(plain.json()["tile"], "1m");
    let r = post("/mahjong/discard", body(Some(table))).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["action"], "discard", "{v}");
    assert_eq!(v["tile"], "1m", "{v}");
    assert_eq!(v["riichi"], false);
    assert!(v["reason"].as_str().unwrap().starts_with("defence"), "{v}");
    let bad = serde_json::json!({"river": [{"seat": "right", "tile": "9q"}]});
    let r = post("/mahjong/discard", body(Some(bad))).await;
    assert_eq!(
        assert_problem(&r, 422)["errors"][0]["pointer"],
        "/table/river/0/tile"
    );
}

/// A request with a bigger body limit than the tests' 4 KiB, for huge lists.
async fn post_big(uri: &str, body: serde_json::Value) -> Reply {
    let mut config = test_config(1, 1);
    config.body_limit_bytes = 1 << 20;
    let (app, _) = test_app(config);
    call(&app, post_json(uri, &body.to_string())).await
}

#[tokio::test]
async fn own_discards_are_counted_without_wrapping() {
    // 256 copies of 1m once counted as 0 in a u8 and were accepted.
    for copies in [256, 65_280] {
        let body = serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m",
            "visible": "1m", "own_discards": format!("{}m", "1".repeat(copies))});
        let r = post_big("/mahjong/discard", body).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], "/own_discards", "{p}");
        assert_eq!(
            p["errors"][0]["message"],
            "at most 40 tiles (no seat discards more in one hand)"
        );
    }
    // Within the bound, one copy more than `visible` holds is still refused.
    let r = post(
        "/mahjong/discard",
        serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m",
            "visible": "9999p", "own_discards": "99999p"}),
    )
    .await;
    let p = assert_problem(&r, 422);
    assert_eq!(p["errors"][0]["pointer"], "/own_discards", "{p}");
}

#[tokio::test]
async fn every_list_is_bounded_by_the_rules_before_any_work() {
    let base = serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m"});
    let with = |field: &str, value: serde_json::Value| {
        let mut b = base.clone();
        b[field] = value;
        b
    };
    let many = |n: usize, tile: &str| serde_json::json!(vec![tile; n]);
    let meld = |tiles: serde_json::Value| serde_json::json!({"type": "pung", "tiles": tiles});
    let river = |n: usize| serde_json::json!({"river": vec![serde_json::json!({"seat": "right", "tile": "1m"}); n]});
    let cases = [
        (
            with("hand", serde_json::json!("1".repeat(5000) + "m")),
            "/hand",
            "at most 14 tiles (13 tiles and a drawn one)",
        ),
        (
            with("visible", many(5000, "1m")),
            "/visible",
            "at most 136 tiles (the set has 136 tiles)",
        ),
        (
            with("own_discards", many(41, "9s")),
            "/own_discards",
            "at most 40 tiles (no seat discards more in one hand)",
        ),
        (
            with("dora_indicators", many(6, "1m")),
            "/dora_indicators",
            "at most 5 tiles (the first indicator and four kan dora)",
        ),
        (
            with("flowers", many(5000, "1f")),
            "/flowers",
            "at most 8 tiles (four flowers and four seasons)",
        ),
        (
            with(
                "melds",
                serde_json::json!(vec![meld(serde_json::json!("111z")); 5000]),
            ),
            "/melds",
            "at most 4 melds",
        ),
        (
            with("melds", serde_json::json!([meld(many(5000, "1z"))])),
            "/melds/0/tiles",
            "at most 4 tiles (a meld is a chow, a pung or a kong)",
        ),
        (
            with("table", river(5000)),
            "/table/river",
            "at most 136 discards (the set has 136 tiles)",
        ),
        (
            with(
                "table",
                serde_json::json!({"melds": {"left": vec![meld(serde_json::json!("111z")); 5]}}),
            ),
            "/table/melds/left",
            "at most 4 melds",
        ),
        (
            with(
                "table",
                serde_json::json!({"melds": {"across": [meld(many(5000, "1z"))]}}),
            ),
            "/table/melds/across/0/tiles",
            "at most 4 tiles (a meld is a chow, a pung or a kong)",
        ),
    ];
    for (body, pointer, message) in cases {
        for uri in ["/mahjong/discard", "/mahjong/claim"] {
            let mut body = body.clone();
            if uri == "/mahjong/claim" {
                body["tile"] = "1m".into();
                body["from"] = "left".into();
            }
            let r = post_big(uri, body).await;
            let p = assert_problem(&r, 422);
            assert_eq!(p["errors"][0]["pointer"], pointer, "{uri}: {p}");
            assert_eq!(p["errors"][0]["message"], message, "{uri}: {p}");
        }
    }
}

#[tokio::test]
async fn a_second_red_five_is_named_by_its_rule() {
    for (body, pointer) in [
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s11z000p"}),
            "/hand",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": ["1m", "2m", "3m", "4p", "5pr", "6p", "7s", "8s", "9s", "E", "E", "S", "S", "W"],
                "visible": ["5pr"]}),
            "/visible",
        ),
    ] {
        let r = post("/mahjong/discard", body).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{p}");
        assert_eq!(
            p["errors"][0]["message"],
            "a second red five 0p across hand, melds and visible (one red five per suit)",
            "{p}"
        );
    }
}

#[tokio::test]
async fn a_bad_tile_list_element_is_named_by_its_pointer() {
    let cases = [
        (
            serde_json::json!({"variant": "riichi", "hand": ["1m", "2m", 3]}),
            "/hand/2",
            "invalid type: integer `3`, expected a tile name such as \"5m\", \"5mr\" or \"E\"",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m", "melds": [{"type": "pung", "tiles": ["E", null, "E"]}]}),
            "/melds/0/tiles/1",
            "invalid type: null, expected a tile name such as \"5m\", \"5mr\" or \"E\"",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": 123}),
            "/hand",
            "invalid type: integer `123`, expected a tenhou tile string such as \"123m456p11z\" or a list of tile names such as [\"5m\", \"E\"]",
        ),
        (
            serde_json::json!({"variant": "riichi", "hand": "123m456p789s1127z5m", "visible": [["1m"]]}),
            "/visible/0",
            "invalid type: sequence, expected a tile name such as \"5m\", \"5mr\" or \"E\"",
        ),
    ];
    for (body, pointer, message) in cases {
        let r = post("/mahjong/discard", body.clone()).await;
        let p = assert_problem(&r, 422);
        assert_eq!(p["errors"][0]["pointer"], pointer, "{body}: {p}");
        assert_eq!(p["errors"][0]["message"], message, "{body}: {p}");
    }
}
