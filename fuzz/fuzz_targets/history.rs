//! Dou Dizhu play histories: replaying and checking a history
//! (`GameState::from_history`), then the bot's decision on the result.
//!
//! Input: byte 0 = seat (mod 3) and rule flags (bits 2..6), byte 1 = seed,
//! then text `HAND|LANDLORD_CARDS|ENTRY|ENTRY|...` (an empty landlord part
//! means "not given", an empty entry is a pass).
#![no_main]

use std::time::Duration;

use gamebot::doudizhu::bot::{GameState, choose_play};
use gamebot::doudizhu::endgame::Seat;
use gamebot::doudizhu::{Hand, Rules, beats, classify_all};
use gamebot::stop::Stop;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [head, seed, rest @ ..] = data else {
        return;
    };
    let seat = Seat::ALL[usize::from(head % 3)];
    let flags = head >> 2;
    let rules = Rules {
        trio_solo: flags & 1 == 0,
        trio_pair: flags & 2 == 0,
        four_two_solo: flags & 4 == 0,
        four_two_pair: flags & 8 == 0,
    };
    let text = String::from_utf8_lossy(rest);
    let mut parts = text.split('|');
    let Some(Ok(hand)) = parts.next().map(Hand::parse_str) else {
        return;
    };
    let landlord_cards = match parts.next() {
        None | Some("") => None,
        Some(s) => match Hand::parse_str(s) {
            Ok(h) => Some(h),
            Err(_) => return,
        },
    };
    let Ok(history) = parts.map(Hand::parse_str).collect::<Result<Vec<_>, _>>() else {
        return;
    };

    let Ok(state) = GameState::from_history(seat, hand, &history, landlord_cards, rules) else {
        return;
    };
    // What the replay derived must add up: own hand + everything played +
    // unseen cards is exactly the deck.
    assert!(state.hand == hand);
    assert_eq!(state.counts[seat.index()], hand.len());
    let all = state
        .played
        .iter()
        .fold(state.unseen.add(hand), |acc, &p| acc.add(p));
    assert!(all == Hand::DECK, "cards do not add up to the deck: {all}");
    assert_eq!(
        state.counts.iter().sum::<usize>(),
        state.unseen.len() + hand.len(),
        "hand counts disagree with the unseen cards"
    );

    // Small budget: the decision must be legal however early it is cut.
    let stop = Stop::after(Duration::from_millis(5));
    let d = choose_play(&state, &stop, u64::from(*seed), None);
    let play = d.play;
    match &state.last {
        None => assert!(!play.is_pass(), "the bot passed on a lead"),
        Some((_, standing)) => {
            assert!(
                play.is_pass() || beats(&play, standing),
                "{play} does not beat {standing}"
            )
        }
    }
    if !play.is_pass() {
        assert!(hand.contains(play.cards), "{play} is not in {hand}");
        assert!(
            classify_all(play.cards, &state.rules).contains(&play),
            "{play} is no combination"
        );
    }
});
