//! Dou Dizhu card notation (strings and DouZero integers) and what is built on
//! it: round trips, move generation and the split.
//!
//! Input: one byte of rule flags, then text `HAND|LAST`. The hand part is also
//! read byte by byte as DouZero integers (as signed bytes, so both valid and
//! invalid codes occur).
#![no_main]

use std::collections::HashSet;

use gamebot::doudizhu::{
    Combo, Hand, Rank, Rules, beats, classify, classify_all, legal_moves, min_plays, split,
};
use libfuzzer_sys::fuzz_target;

fn rules_from(flags: u8) -> Rules {
    Rules {
        trio_solo: flags & 1 == 0,
        trio_pair: flags & 2 == 0,
        four_two_solo: flags & 4 == 0,
        four_two_pair: flags & 8 == 0,
    }
}

/// The canonical string, rewritten the other ways the notation allows (lower
/// case, `10` for `T`, separators), must parse back to the same hand.
fn check_round_trip(hand: Hand) {
    let canonical = hand.to_string();
    assert!(
        Hand::parse_str(&canonical) == Ok(hand),
        "parse(format(h)) != h for {canonical}"
    );
    let spelled: Vec<String> = canonical
        .chars()
        .map(|c| match c {
            'T' => "10".to_string(),
            c => c.to_ascii_lowercase().to_string(),
        })
        .collect();
    let spelled = spelled.join(", ");
    assert!(
        Hand::parse_str(&spelled) == Ok(hand),
        "{spelled:?} does not parse to {canonical}"
    );
    assert!(Hand::from_douzero(&hand.to_douzero()) == Ok(hand));
    assert!(Hand::from_counts(&hand.counts()) == Ok(hand));
    let counts = hand.counts();
    assert_eq!(
        hand.len(),
        counts.iter().map(|&c| usize::from(c)).sum::<usize>()
    );
    for (rank, &c) in Rank::ALL.iter().zip(&counts) {
        assert!(
            u32::from(c) <= rank.deck_count(),
            "{canonical}: too many {rank}"
        );
    }
}

/// A generated move must be a real combination of the hand's own cards.
fn check_move(hand: Hand, m: &Combo, rules: &Rules) {
    assert!(!m.is_pass(), "legal_moves returned a pass for {hand}");
    assert!(hand.contains(m.cards), "{m} is not in {hand}");
    assert!(
        classify_all(m.cards, rules).contains(m),
        "{m} is not a combination of its cards under the rules"
    );
}

fn check_moves(hand: Hand, last: Option<Combo>, rules: &Rules) {
    let moves = legal_moves(hand, last.as_ref(), rules);
    let mut seen = HashSet::new();
    for m in &moves {
        check_move(hand, m, rules);
        if let Some(l) = &last {
            assert!(beats(m, l), "{m} does not beat {l}");
        }
        assert!(seen.insert(m.cards), "{} listed twice for {hand}", m.cards);
    }
}

fn check_split(hand: Hand, rules: &Rules) {
    let s = split(hand, rules);
    assert_eq!(s.plays, s.groups.len());
    assert_eq!(
        s.plays,
        min_plays(hand, rules),
        "split is not minimal for {hand}"
    );
    let mut union = Hand::EMPTY;
    for g in &s.groups {
        assert!(
            classify_all(g.cards, rules).contains(g),
            "bad group {g} in split of {hand}"
        );
        union = union.add(g.cards);
    }
    assert!(union == hand, "split of {hand} covers {union}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let rules = rules_from(flags);
    let text = String::from_utf8_lossy(rest);
    let (hand_text, last_text) = text.split_once('|').unwrap_or((&text, ""));

    let codes: Vec<i64> = hand_text.bytes().map(|b| i64::from(b as i8)).collect();
    if let Ok(h) = Hand::from_douzero(&codes) {
        assert_eq!(h.len(), codes.len());
        check_round_trip(h);
    }

    let Ok(hand) = Hand::parse_str(hand_text) else {
        return;
    };
    check_round_trip(hand);
    if let Some(c) = classify(hand, &rules) {
        assert!(c.cards == hand);
        assert!(classify_all(hand, &rules).contains(&c));
    }
    if hand.is_empty() || hand.len() > 20 {
        return;
    }
    check_moves(hand, None, &rules);
    check_split(hand, &rules);
    if let Ok(last) = Hand::parse_str(last_text)
        && let Some(standing) = classify(last, &rules)
        && !standing.is_pass()
    {
        check_moves(hand, Some(standing), &rules);
    }
});
