//! Replay and decision tests on hand-written mjai logs.

use serde_json::{Value, json};

use super::*;
use crate::mahjong::table::Table;

const HIDDEN: [&str; 13] = ["?"; 13];

/// `start_kyoku` for seat 0 with `hand` (mjai names), East 1, dealer 0.
fn start(hand: &[&str]) -> Value {
    json!({"type": "start_kyoku", "bakaze": "E", "dora_marker": "2s", "kyoku": 1, "honba": 0,
           "kyotaku": 0, "oya": 0, "scores": [25000, 25000, 25000, 25000],
           "tehais": [hand, HIDDEN, HIDDEN, HIDDEN]})
}

fn tsumo(actor: u8, pai: &str) -> Value {
    json!({"type": "tsumo", "actor": actor, "pai": pai})
}

fn dahai(actor: u8, pai: &str, tsumogiri: bool) -> Value {
    json!({"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri})
}

/// Seats 1-3 each draw and discard `pai` (tsumogiri).
fn others_discard(log: &mut Vec<Value>, pais: [&str; 3]) {
    for (i, p) in pais.iter().enumerate() {
        let seat = i as u8 + 1;
        log.push(tsumo(seat, "?"));
        log.push(dahai(seat, p, true));
    }
}

fn decide(log: &[Value], strategy: Strategy) -> Value {
    let mut table = Table::new(0);
    replay(&mut table, log, 0).expect("the log replays");
    let d = riichi_bot::decide(&table, strategy);
    action_json(&table, &d, false)
}

fn all_strategies() -> [Strategy; 3] {
    [Strategy::Balanced, Strategy::Efficient, Strategy::Classic]
}

#[test]
fn replay_tracks_hand_river_and_wall() {
    let hand = [
        "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "P", "9m",
    ];
    let mut log = vec![start(&hand), tsumo(0, "C"), dahai(0, "C", true)];
    others_discard(&mut log, ["N", "W", "S"]);
    let mut t = Table::new(0);
    replay(&mut t, &log, 0).unwrap();
    assert_eq!(t.hand.len(), 13);
    assert_eq!(t.river.len(), 4);
    assert!(t.river[0].tsumogiri);
    assert_eq!(t.wall_left(), 70 - 4);
    assert_eq!(t.seats[1].concealed, 13);
}

#[test]
fn impossible_events_are_refused_with_their_index() {
    let hand = [
        "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "P", "9m",
    ];
    let cases: Vec<(Vec<Value>, &str)> = vec![
        // seat 1 draws before the dealer
        (vec![start(&hand), tsumo(1, "?")], "/events/1"),
        // the seat discards a tile it does not hold
        (
            vec![start(&hand), tsumo(0, "C"), dahai(0, "6z", false)],
            "/events/2",
        ),
        // a fifth East
        (
            vec![
                start(&hand),
                tsumo(0, "E"),
                dahai(0, "9m", false),
                tsumo(1, "?"),
                dahai(1, "E", true),
                tsumo(2, "?"),
                dahai(2, "E", true),
            ],
            "/events/6",
        ),
        // not a tile
        (vec![start(&hand), tsumo(0, "10m")], "/events/1"),
        // an event before any hand
        (vec![tsumo(0, "1m")], "/events/0"),
        // an unknown type
        (vec![start(&hand), json!({"type": "teleport"})], "/events/1"),
    ];
    for (log, pointer) in cases {
        let mut t = Table::new(0);
        let Err(e) = replay(&mut t, &log, 0) else {
            panic!("{log:?} replays");
        };
        assert_eq!(e.pointer, pointer, "{log:?}: {e}");
    }
}

#[test]
fn after_riichi_the_drawn_red_five_itself_goes() {
    // 4m 5m 5mr 6m 4p..9p 9p 7s7s7s; riichi already accepted, then 5mr is drawn
    let hand = [
        "4m", "5m", "6m", "4p", "5p", "6p", "7p", "8p", "9p", "9p", "7s", "7s", "7s",
    ];
    let mut log = vec![start(&hand), tsumo(0, "1s")];
    log.push(json!({"type": "reach", "actor": 0}));
    log.push(dahai(0, "1s", true));
    log.push(json!({"type": "reach_accepted", "actor": 0}));
    others_discard(&mut log, ["N", "W", "S"]);
    log.push(tsumo(0, "5mr"));
    for s in all_strategies() {
        let a = decide(&log, s);
        assert_eq!(
            a,
            json!({"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": true}),
            "{s:?}"
        );
    }
}

#[test]
fn no_kuikae_discard_after_a_chi() {
    // chi 3m with 45m from seat 3: 3m and 6m may not go next
    let hand = [
        "4m", "5m", "6m", "3m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P",
    ];
    let mut log = vec![start(&hand), tsumo(0, "F"), dahai(0, "F", true)];
    log.push(tsumo(1, "?"));
    log.push(dahai(1, "C", true));
    log.push(tsumo(2, "?"));
    log.push(dahai(2, "C", true));
    log.push(tsumo(3, "?"));
    log.push(dahai(3, "3m", true));
    log.push(
        json!({"type": "chi", "actor": 0, "target": 3, "pai": "3m", "consumed": ["4m", "5m"]}),
    );
    let mut t = Table::new(0);
    replay(&mut t, &log, 0).unwrap();
    assert_eq!(t.kuikae, vec![2, 5]);
    for s in all_strategies() {
        let a = decide(&log, s);
        assert_eq!(a["type"], "dahai");
        let pai = a["pai"].as_str().unwrap();
        assert!(pai != "3m" && pai != "6m", "{s:?} discards {pai}");
    }
}

#[test]
fn wins_on_a_discard_only_out_of_furiten() {
    // 123m 456p 789s 11z 23m... ready on 1m-4m with riichi-less yaku? Use tanyao-free: pinfu.
    let hand = [
        "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2p", "3p", "4p", "5s", "5s",
    ];
    let mut log = vec![start(&hand), tsumo(0, "N"), dahai(0, "N", true)];
    log.push(tsumo(1, "?"));
    log.push(dahai(1, "1m", true));
    for s in all_strategies() {
        let a = decide(&log, s);
        assert_eq!(a["type"], "hora", "{s:?}: {a}");
        assert_eq!(a["target"], 1);
    }
    // Having let 1m pass, the seat is furiten on 4m until its own next discard.
    log.push(tsumo(2, "?"));
    log.push(dahai(2, "4m", true));
    for s in all_strategies() {
        assert_eq!(decide(&log, s)["type"], "none", "{s:?}");
    }
}

#[test]
fn no_win_without_a_yaku() {
    // open hand with only a pon of 9s: ready on 1m/4m but no yaku
    let hand = [
        "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2p", "3p", "4p", "9s", "9s",
    ];
    let mut log = vec![start(&hand), tsumo(0, "N"), dahai(0, "N", true)];
    log.push(tsumo(1, "?"));
    log.push(dahai(1, "9s", true));
    // the bot may or may not pon; in the log it does
    log.push(
        json!({"type": "pon", "actor": 0, "target": 1, "pai": "9s", "consumed": ["9s", "9s"]}),
    );
    log.push(dahai(0, "7s", false));
    log.push(tsumo(1, "?"));
    log.push(dahai(1, "1m", true));
    for s in all_strategies() {
        let a = decide(&log, s);
        assert_ne!(a["type"], "hora", "{s:?}: {a}");
    }
}

#[test]
fn a_call_never_opens_a_hand_without_a_yaku_path() {
    // all terminals and honors except 8s 9s: a pon of 9s would leave no yaku path
    let hand = [
        "1m", "9m", "1p", "9p", "1s", "2m", "3m", "9s", "9s", "2p", "3p", "7p", "8p",
    ];
    let mut log = vec![start(&hand), tsumo(0, "N"), dahai(0, "N", true)];
    log.push(tsumo(1, "?"));
    log.push(dahai(1, "9s", true));
    let a = decide(&log, Strategy::Balanced);
    assert_eq!(a["type"], "none", "{a}");
}

#[test]
fn stdio_session_keeps_state_across_lines() {
    let hand = [
        "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "P", "9m",
    ];
    let first = json!([{"type": "start_game", "names": ["a", "b", "c", "d"], "id": 0}]);
    let second = json!([start(&hand), tsumo(0, "C")]);
    let input = format!("{first}\n{second}\nnot json\n");
    let mut out = Vec::new();
    run(0, Strategy::Balanced, input.as_bytes(), &mut out).unwrap();
    let lines: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["type"], "none");
    assert_eq!(lines[1]["type"], "dahai");
    assert_eq!(lines[2]["type"], "none");
    assert!(lines[2]["error"].as_str().unwrap().contains("not JSON"));
}

#[test]
fn robs_an_added_kan_that_completes_the_hand() {
    // ready on 1m-4m; seat 1 pons 1m, later adds the fourth 1m: chankan is a yaku
    let hand = [
        "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2s", "3s", "4s", "6s", "6s",
    ];
    let mut log = vec![start(&hand), tsumo(0, "N"), dahai(0, "N", true)];
    log.push(tsumo(1, "?"));
    log.push(dahai(1, "W", true));
    log.push(tsumo(2, "?"));
    log.push(dahai(2, "1m", true));
    log.push(
        json!({"type": "pon", "actor": 1, "target": 2, "pai": "1m", "consumed": ["1m", "1m"]}),
    );
    log.push(dahai(1, "S", false));
    log.push(tsumo(2, "?"));
    log.push(dahai(2, "9p", true));
    log.push(tsumo(3, "?"));
    log.push(dahai(3, "9p", true));
    log.push(tsumo(0, "E"));
    log.push(dahai(0, "E", true));
    log.push(tsumo(1, "?"));
    log.push(json!({"type": "kakan", "actor": 1, "pai": "1m", "consumed": ["1m", "1m", "1m"]}));
    for s in all_strategies() {
        let a = decide(&log, s);
        assert_eq!(a["type"], "hora", "{s:?}: {a}");
        assert_eq!(a["target"], 1);
        assert_eq!(a["pai"], "1m");
    }
}

/// The referee's events, written as mjai and read back, rebuild every seat's
/// view exactly; every legal action survives the trip through JSON.
#[test]
fn referee_events_and_actions_round_trip_through_json() {
    use crate::mahjong::riichi_game::{HandSetup, play, same_action};
    use crate::rng::SplitMix64;
    for seed in 0..40u64 {
        let mut rng = SplitMix64::new(seed);
        let mut actions = 0;
        let played = play(&HandSetup::new(seed), &mut |seat, _, legal| {
            for a in legal {
                let back = parse_action(&action_value(seat, a)).unwrap();
                assert!(same_action(&back, a), "{a:?} came back as {back:?}");
                actions += 1;
            }
            Some(legal[rng.below(legal.len())].clone())
        })
        .unwrap();
        assert!(actions > 0);
        for seat in 0..4u8 {
            let events: Vec<Value> = played.events[usize::from(seat)]
                .iter()
                .map(|e| event_value(seat, e))
                .collect();
            let mut table = Table::new(seat);
            replay(&mut table, &events, 0).unwrap();
            assert_eq!(
                table,
                played.views[usize::from(seat)],
                "seed {seed} seat {seat}"
            );
        }
    }
}

#[test]
fn malformed_actions_are_refused() {
    for bad in [
        json!({"type": "dahai", "pai": "9x", "tsumogiri": false}),
        json!({"type": "dahai", "pai": "9m"}),
        json!({"type": "pon", "target": 1, "pai": "E", "consumed": ["E"]}),
        json!({"type": "fly"}),
        json!([1, 2]),
    ] {
        assert!(parse_action(&bad).is_err(), "{bad}");
    }
}
