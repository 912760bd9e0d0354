//! The mjai front end: lines of events into one `gamebot::protocol::mjai::Session`, as the
//! stdin/stdout protocol feeds it, and the same text through `gamebot::protocol::mjai::run`.
//!
//! Input: byte 0 = seat (bits 0-1) and strategy (the rest, mod 3), then text, one
//! line per protocol line. Properties: no panic; every answer to a line the session
//! takes is a JSON object with a known `type` (a discard names a tile the replayed hand
//! holds); `run` answers every non-blank line with exactly what the session answered, or
//! with `none` and an `error` where the session refused the line.
#![no_main]

use gamebot::mahjong::Strategy;
use gamebot::mahjong::tiles::parse_tile;
use gamebot::protocol::mjai::{Session, run};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const TYPES: [&str; 10] = [
    "none",
    "dahai",
    "reach",
    "chi",
    "pon",
    "daiminkan",
    "ankan",
    "kakan",
    "hora",
    "ryukyoku",
];

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let seat = head & 3;
    let strategy =
        [Strategy::Balanced, Strategy::Efficient, Strategy::Classic][usize::from(head >> 2) % 3];
    let text = String::from_utf8_lossy(rest);

    let mut session = Session::new(seat, strategy);
    let mut expected = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        match session.react(line) {
            Ok(answer) => {
                check_answer(&session, seat, &answer, line);
                expected.push(Some(answer));
            }
            Err(e) => {
                assert!(
                    e.pointer.is_empty() || e.pointer.starts_with("/events"),
                    "pointer {}",
                    e.pointer
                );
                expected.push(None);
            }
        }
    }

    let mut out = Vec::new();
    run(seat, strategy, text.as_bytes(), &mut out).expect("writing to a Vec");
    let out = String::from_utf8(out).expect("run writes UTF-8");
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("run wrote {l:?}: {e}")))
        .collect();
    assert_eq!(
        answers.len(),
        expected.len(),
        "one answer per non-blank line"
    );
    for (got, want) in answers.iter().zip(&expected) {
        match want {
            Some(want) => assert_eq!(got, want),
            None => {
                assert_eq!(got["type"], "none", "{got}");
                assert!(got["error"].is_string(), "{got}");
            }
        }
    }
});

fn check_answer(session: &Session, seat: u8, answer: &Value, line: &str) {
    let ty = answer["type"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer} after {line}"));
    assert!(TYPES.contains(&ty), "unknown type {ty}");
    if ty == "none" {
        return;
    }
    assert_eq!(answer["actor"], seat, "{answer}");
    if ty == "dahai" {
        let pai = answer["pai"].as_str().expect("pai");
        let tile = parse_tile(pai).expect("pai is a tile");
        assert!(
            session.table().hand.contains(&tile),
            "{pai} is not in the replayed hand, after {line}"
        );
    }
}
