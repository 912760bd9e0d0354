//! Tests of the Dou Dizhu engine. Brute-force references here are written
//! plainly (sub-multiset enumeration + `classify`) and share no code with the
//! generator or the splitter.

use super::*;
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};

fn h(s: &str) -> Hand {
    Hand::parse_str(s).unwrap()
}

fn rules_from(f: [bool; 4]) -> Rules {
    Rules {
        trio_solo: f[0],
        trio_pair: f[1],
        four_two_solo: f[2],
        four_two_pair: f[3],
    }
}

const ALL_FLAGS: [[bool; 4]; 16] = {
    let mut out = [[false; 4]; 16];
    let mut i = 0;
    while i < 16 {
        out[i] = [i & 1 != 0, i & 2 != 0, i & 4 != 0, i & 8 != 0];
        i += 1;
    }
    out
};

// ---------------------------------------------------------------- parsing

#[test]
fn parse_notations_and_canonical_round_trip() {
    assert_eq!(h("33455TJ2BR").to_string(), "33455TJ2BR");
    assert_eq!(h("rb2jt55433").to_string(), "33455TJ2BR");
    assert_eq!(h("3, 3 4 5,5 10 j 2 B r").to_string(), "33455TJ2BR");
    assert_eq!(h("1010").to_string(), "TT");
    assert_eq!(h(""), Hand::EMPTY);
    assert_eq!(Hand::EMPTY.to_string(), "");
    let dz = Hand::from_douzero(&[3, 3, 4, 5, 5, 10, 11, 17, 20, 30]).unwrap();
    assert_eq!(dz.to_string(), "33455TJ2BR");
    assert_eq!(dz.to_douzero(), vec![3, 3, 4, 5, 5, 10, 11, 17, 20, 30]);
    assert_eq!(Hand::DECK.len(), 54);
    assert_eq!(
        Hand::DECK.to_string(),
        "33334444555566667777888899991010".replace("1010", "TTTTJJJJQQQQKKKKAAAA2222BR")
    );
    let x = h("3339TTKAA2R");
    assert_eq!(x.len(), 11);
    assert_eq!(x.count(Rank::Three), 3);
    assert_eq!(x.count(Rank::Ace), 2);
    assert_eq!(x.count(Rank::BlackJoker), 0);
    assert!(x.contains(h("3TA")));
    assert!(!x.contains(h("33334")));
    assert_eq!(x.sub(h("3TA")).to_string(), "339TKA2R");
    assert_eq!(x.sub(h("3TA")).add(h("3TA")), x);
    assert_eq!(x.cards().count(), 11);
    assert_eq!(x.cards().next(), Some(Rank::Three));
    assert_eq!(x.lowest(), Some(Rank::Three));
    assert_eq!(x.highest(), Some(Rank::RedJoker));
    let parsed: Hand = "KK".parse().unwrap();
    assert_eq!(parsed, h("kk"));
}

#[test]
fn parse_errors() {
    assert_eq!(
        Hand::parse_str("33x4"),
        Err(CardError::UnknownCard {
            index: 2,
            text: "x".into()
        })
    );
    assert_eq!(
        Hand::parse_str("3 1"),
        Err(CardError::UnknownCard {
            index: 2,
            text: "1".into()
        })
    );
    assert_eq!(
        Hand::parse_str("55555"),
        Err(CardError::TooManyOfRank {
            index: 4,
            rank: Rank::Five
        })
    );
    assert_eq!(
        Hand::parse_str("B3b"),
        Err(CardError::DuplicateJoker {
            index: 2,
            rank: Rank::BlackJoker
        })
    );
    assert_eq!(
        Hand::from_douzero(&[3, 16]),
        Err(CardError::UnknownCard {
            index: 1,
            text: "16".into()
        })
    );
    assert_eq!(
        Hand::from_douzero(&[30, 30]),
        Err(CardError::DuplicateJoker {
            index: 1,
            rank: Rank::RedJoker
        })
    );
    let big = Hand::parse_str("3333444455556666777788").unwrap();
    assert_eq!(
        big.check_max_len(20),
        Err(CardError::TooManyCards { count: 22, max: 20 })
    );
    assert_eq!(big.check_max_len(22), Ok(big));
    let mut counts = h("3456").counts();
    assert_eq!(Hand::from_counts(&counts), Ok(h("3456")));
    counts[2] = 5;
    assert_eq!(
        Hand::from_counts(&counts),
        Err(CardError::TooManyOfRank {
            index: 2,
            rank: Rank::Five
        })
    );
    counts[2] = 1;
    counts[14] = 2;
    assert_eq!(
        Hand::from_counts(&counts),
        Err(CardError::DuplicateJoker {
            index: 14,
            rank: Rank::RedJoker
        })
    );
    assert_eq!(
        Hand::parse_str("3 3 3 3 101010 3"),
        Err(CardError::TooManyOfRank {
            index: 15,
            rank: Rank::Three
        })
    );
    for e in [
        Hand::parse_str("x").unwrap_err(),
        Hand::parse_str("22222").unwrap_err(),
        Hand::parse_str("RR").unwrap_err(),
        big.check_max_len(20).unwrap_err(),
    ] {
        let msg = e.to_string();
        assert!(!msg.is_empty());
        let _: &dyn std::error::Error = &e;
    }
}

// --------------------------------------------------------- classification

fn kind_of(s: &str) -> Option<&'static str> {
    classify(h(s), &Rules::default()).map(|c| c.kind.as_str())
}

#[test]
fn classify_examples() {
    assert_eq!(kind_of(""), Some("pass"));
    assert_eq!(kind_of("3"), Some("solo"));
    assert_eq!(kind_of("R"), Some("solo"));
    assert_eq!(kind_of("BR"), Some("rocket"));
    assert_eq!(kind_of("22"), Some("pair"));
    assert_eq!(kind_of("34567"), Some("solo_chain"));
    assert_eq!(kind_of("3456789TJQKA"), Some("solo_chain"));
    assert_eq!(kind_of("TJQKA2"), None);
    assert_eq!(kind_of("3456"), None);
    assert_eq!(kind_of("334455"), Some("pair_chain"));
    assert_eq!(kind_of("3344"), None);
    assert_eq!(kind_of("333444"), Some("trio_chain"));
    assert_eq!(kind_of("KKKAAA222"), None);
    assert_eq!(kind_of("3334"), Some("trio_solo"));
    assert_eq!(kind_of("333B"), Some("trio_solo"));
    assert_eq!(kind_of("33344"), Some("trio_pair"));
    assert_eq!(kind_of("333BR"), None);
    assert_eq!(kind_of("33334"), None);
    assert_eq!(kind_of("3333"), Some("bomb"));
    assert_eq!(kind_of("333345"), Some("four_two_solo"));
    assert_eq!(kind_of("333355"), Some("four_two_solo"));
    assert_eq!(kind_of("3333BR"), None);
    assert_eq!(kind_of("33335566"), Some("four_two_pair"));
    assert_eq!(kind_of("33335555"), None);
    assert_eq!(kind_of("33334444"), None);
    assert_eq!(kind_of("33344455"), Some("trio_solo_chain"));
    assert_eq!(kind_of("333444BR"), None);
    assert_eq!(kind_of("333444555666"), Some("trio_chain"));
    assert_eq!(kind_of("333444555999"), Some("trio_solo_chain"));
    assert_eq!(kind_of("444555666333"), Some("trio_chain"));
    assert_eq!(kind_of("QQQKKKAAA222"), Some("trio_solo_chain"));
    // Five trios and a joker: either 4-trio reading has an adjacent trio wing.
    assert_eq!(kind_of("333444555666777B"), None);
    assert_eq!(kind_of("333444555666777BJ9QQ"), Some("trio_solo_chain"));
    assert_eq!(kind_of("3334445555"), None);
    assert_eq!(kind_of("3334445566"), Some("trio_pair_chain"));
    assert_eq!(kind_of("33344422"), Some("trio_solo_chain"));
    assert_eq!(kind_of("3334442222"), None);
    assert_eq!(kind_of("33344455566677778888"), None);
    let c = classify(h("5556663J"), &Rules::default()).unwrap();
    assert_eq!((c.rank, c.length), (Rank::Five, 2));
    assert_eq!(c.body().to_string(), "555666");
    assert_eq!(c.kickers().to_string(), "3J");
    let off = Rules {
        trio_solo: false,
        ..Rules::default()
    };
    assert_eq!(classify(h("3334"), &off), None);
    assert_eq!(classify(h("33344455"), &off), None);
    assert!(classify(h("33344"), &off).is_some());
}

#[test]
fn beats_relation() {
    let r = Rules::default();
    let c = |s: &str| classify(h(s), &r).unwrap();
    assert!(beats(&c("4"), &c("3")));
    assert!(!beats(&c("3"), &c("4")));
    assert!(!beats(&c("3"), &c("3")));
    assert!(beats(&c("45678"), &c("34567")));
    assert!(!beats(&c("456789"), &c("34567")));
    assert!(!beats(&c("44"), &c("3")));
    assert!(beats(&c("4443"), &c("3335")));
    assert!(!beats(&c("4443"), &c("33355")));
    assert!(beats(&c("3333"), &c("2")));
    assert!(beats(&c("3333"), &c("KKKAAA34")));
    assert!(beats(&c("4444"), &c("3333")));
    assert!(!beats(&c("3333"), &c("4444")));
    assert!(beats(&c("BR"), &c("2222")));
    assert!(!beats(&c("2222"), &c("BR")));
    assert!(beats(&c("3"), &Combo::pass()));
    assert!(!beats(&Combo::pass(), &c("3")));
    assert!(!beats(&c("BR"), &c("BR")));
}

// ------------------------------------------------------------ move counts

fn type_counts(moves: &[Combo]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for m in moves {
        *counts.entry(m.kind.as_str()).or_insert(0) += 1;
    }
    counts
}

const DECK_COUNTS: [(&str, usize); 14] = [
    ("solo", 15),
    ("solo_chain", 36),
    ("pair", 13),
    ("pair_chain", 52),
    ("trio", 13),
    ("trio_chain", 45),
    ("trio_solo", 182),
    ("trio_solo_chain", 21_822),
    ("trio_pair", 156),
    ("trio_pair_chain", 2_939),
    ("four_two_solo", 1_326),
    ("four_two_pair", 858),
    ("bomb", 13),
    ("rocket", 1),
];

#[test]
fn full_deck_move_universe() {
    let rules = Rules::default();
    let moves = legal_moves(Hand::DECK, None, &rules);
    assert_eq!(moves.len(), 27_471);
    assert_eq!(moves.len() + 1, 27_472, "with the pass");
    let expected: BTreeMap<&str, usize> = DECK_COUNTS.into_iter().collect();
    assert_eq!(type_counts(&moves), expected);
    // Pairwise distinct multisets: no multiset has two readings.
    let distinct: HashSet<Hand> = moves.iter().map(|m| m.cards).collect();
    assert_eq!(distinct.len(), moves.len());
    for m in &moves {
        assert_eq!(classify(m.cards, &rules), Some(*m), "{m}");
        assert_eq!(classify_all(m.cards, &rules), vec![*m], "{m}");
    }
}

#[test]
fn rule_flags_remove_exactly_their_types() {
    let all = legal_moves(Hand::DECK, None, &Rules::default());
    for f in ALL_FLAGS {
        let rules = rules_from(f);
        let moves = legal_moves(Hand::DECK, None, &rules);
        let expected: Vec<Combo> = all
            .iter()
            .copied()
            .filter(|m| rules.allows(m.kind))
            .collect();
        assert_eq!(moves, expected, "{rules:?}");
        let counts = type_counts(&moves);
        for (name, n) in DECK_COUNTS {
            let kind = ComboType::from_name(name).unwrap();
            let want = if rules.allows(kind) { n } else { 0 };
            assert_eq!(
                counts.get(name).copied().unwrap_or(0),
                want,
                "{name} {rules:?}"
            );
        }
        for m in &all {
            assert_eq!(classify(m.cards, &rules).is_some(), rules.allows(m.kind));
        }
    }
}

// ------------------------------------------------------ brute references

/// Every non-empty sub-multiset of `hand` (small hands only).
fn sub_multisets(hand: Hand) -> Vec<Hand> {
    let mut out = vec![Hand::EMPTY];
    for r in Rank::ALL {
        let n = hand.count(r);
        let mut next = Vec::new();
        for &base in &out {
            for k in 0..=n {
                next.push(base.add(Hand::of(r, k)));
            }
        }
        out = next;
    }
    out.retain(|s| !s.is_empty());
    out
}

/// Plain brute force: fewest plays and, among those, the highest total
/// `group_value`, by removing any legal play holding the lowest card.
fn brute_split(hand: Hand, rules: &Rules, memo: &mut HashMap<Hand, (usize, i32)>) -> (usize, i32) {
    if hand.is_empty() {
        return (0, 0);
    }
    if let Some(&r) = memo.get(&hand) {
        return r;
    }
    let low = hand.lowest().unwrap();
    let mut best = (usize::MAX, i32::MIN);
    for s in sub_multisets(hand) {
        if s.count(low) == 0 {
            continue;
        }
        if let Some(c) = classify(s, rules) {
            let (p, v) = brute_split(hand.sub(s), rules, memo);
            let cand = (p + 1, v + group_value(&c));
            if cand.0 < best.0 || (cand.0 == best.0 && cand.1 > best.1) {
                best = cand;
            }
        }
    }
    memo.insert(hand, best);
    best
}

fn hand_strategy(max: usize) -> impl Strategy<Value = Hand> {
    let deck: Vec<Rank> = Hand::DECK.cards().collect();
    proptest::sample::subsequence(deck, 0..=max).prop_map(|cards| {
        cards
            .into_iter()
            .fold(Hand::EMPTY, |h, r| h.add(Hand::of(r, 1)))
    })
}

fn check_split(hand: Hand, rules: &Rules) -> Split {
    let s = split(hand, rules);
    assert_eq!(s.plays, s.groups.len());
    let mut total = Hand::EMPTY;
    let mut value = 0;
    for g in &s.groups {
        assert_eq!(classify(g.cards, rules), Some(*g), "{hand}: {g}");
        assert!(!g.is_pass());
        total = total.add(g.cards);
        value += group_value(g);
    }
    assert_eq!(total, hand, "groups partition the hand");
    assert_eq!(s.score, value - 7 * s.plays as i32);
    assert_eq!(min_plays(hand, rules), s.plays, "{hand}");
    assert!(
        usize::from(split::lower_bound(hand, rules)) <= s.plays,
        "{hand}"
    );
    s
}

proptest! {
    // No regression files: the module is compiled from more than one crate.
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn generated_moves_are_legal_distinct_and_in_hand(hand in hand_strategy(20), f in any::<[bool; 4]>()) {
        let rules = rules_from(f);
        let moves = legal_moves(hand, None, &rules);
        let mut seen = HashSet::new();
        for m in &moves {
            prop_assert!(hand.contains(m.cards));
            prop_assert!(seen.insert(m.cards), "duplicate {}", m);
            prop_assert_eq!(classify(m.cards, &rules), Some(*m));
        }
        // Following: exactly the leading moves that beat `last`, for a few
        // `last` plays drawn from the deck's universe.
        let universe = legal_moves(Hand::DECK.sub(hand), None, &rules);
        for last in universe.iter().step_by(universe.len() / 7 + 1) {
            let follow = legal_moves(hand, Some(last), &rules);
            let want: Vec<Combo> = moves.iter().copied().filter(|m| beats(m, last)).collect();
            let a: HashSet<Hand> = follow.iter().map(|m| m.cards).collect();
            let b: HashSet<Hand> = want.iter().map(|m| m.cards).collect();
            prop_assert_eq!(a.len(), follow.len());
            prop_assert_eq!(a, b, "following {}", last);
            for m in &follow {
                prop_assert!(beats(m, last));
            }
        }
        let lead = legal_moves(hand, Some(&Combo::pass()), &rules);
        prop_assert_eq!(lead, moves);
    }

    #[test]
    fn generator_matches_brute_force(hand in hand_strategy(10), f in any::<[bool; 4]>()) {
        let rules = rules_from(f);
        let got: HashSet<Hand> = legal_moves(hand, None, &rules).iter().map(|m| m.cards).collect();
        let want: HashSet<Hand> = sub_multisets(hand)
            .into_iter()
            .filter(|s| classify(*s, &rules).is_some())
            .collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn split_is_a_minimum_partition(hand in hand_strategy(10), f in any::<[bool; 4]>()) {
        let rules = rules_from(f);
        let s = check_split(hand, &rules);
        let (plays, value) = brute_split(hand, &rules, &mut HashMap::new());
        prop_assert_eq!(s.plays, plays, "{}", hand);
        prop_assert_eq!(s.score, value - 7 * plays as i32, "{}", hand);
    }

    #[test]
    fn split_partitions_big_hands(hand in hand_strategy(20), f in any::<[bool; 4]>()) {
        check_split(hand, &rules_from(f));
    }
}

/// Thousands of random small hands (beyond proptest's case count), all flags.
#[test]
fn split_matches_brute_force_many() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let total: usize = std::env::var("DDZ_BRUTE_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let max: usize = std::env::var("DDZ_BRUTE_MAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    for i in 0..total {
        let n = 1 + i % max;
        let hand = deal(&mut rng, n);
        let rules = rules_from(ALL_FLAGS[i % 16]);
        let s = check_split(hand, &rules);
        let (plays, value) = brute_split(hand, &rules, &mut HashMap::new());
        assert_eq!(s.plays, plays, "{hand} {rules:?}");
        assert_eq!(s.score, value - 7 * plays as i32, "{hand} {rules:?}");
    }
}

/// Reference for big hands: exhaustive memoised search over the generated
/// plays holding the lowest card (no budgets, no lower bound), returning the
/// fewest plays and the best total value among them.
fn reference_split(
    hand: Hand,
    rules: &Rules,
    memo: &mut HashMap<Hand, (usize, i32)>,
) -> (usize, i32) {
    if hand.is_empty() {
        return (0, 0);
    }
    if let Some(&r) = memo.get(&hand) {
        return r;
    }
    let low = hand.lowest().unwrap();
    let mut best = (usize::MAX, i32::MIN);
    for m in legal_moves(hand, None, rules) {
        if m.cards.count(low) == 0 {
            continue;
        }
        let (p, v) = reference_split(hand.sub(m.cards), rules, memo);
        let cand = (p + 1, v + group_value(&m));
        if cand.0 < best.0 || (cand.0 == best.0 && cand.1 > best.1) {
            best = cand;
        }
    }
    memo.insert(hand, best);
    best
}

#[test]
fn split_matches_exhaustive_search_on_big_hands() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let total: usize = std::env::var("DDZ_BIG_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    for i in 0..total {
        let hand = deal(&mut rng, 15 + i % 6);
        let rules = rules_from(ALL_FLAGS[(i * 7) % 16]);
        let s = check_split(hand, &rules);
        let (plays, value) = reference_split(hand, &rules, &mut HashMap::new());
        assert_eq!(s.plays, plays, "{hand} {rules:?}");
        assert_eq!(s.score, value - 7 * plays as i32, "{hand} {rules:?}");
    }
}

#[test]
fn split_examples() {
    let r = Rules::default();
    let s = split(h("3"), &r);
    assert_eq!((s.plays, s.groups.len()), (1, 1));
    assert_eq!(split(Hand::EMPTY, &r).plays, 0);
    assert_eq!(split(h("33344456"), &r).plays, 1, "a plane with wings");
    assert_eq!(
        split(h("33345556"), &r).plays,
        2,
        "two trios with one kicker each"
    );
    assert_eq!(split(h("3334555K"), &r).plays, 2);
    let s = split(h("3334A"), &r);
    assert_eq!(s.plays, 2);
    // Tie-break: dump the 4 as the kicker, keep the ace as a solo.
    assert!(
        s.groups.iter().any(|g| g.cards == h("3334")),
        "{:?}",
        s.groups
    );
    assert_eq!(min_plays(h("3456789TJQKA2BR"), &r), 3);
}

fn deal(rng: &mut rand::rngs::StdRng, n: usize) -> Hand {
    use rand::seq::SliceRandom;
    let mut deck: Vec<Rank> = Hand::DECK.cards().collect();
    deck.shuffle(rng);
    deck[..n]
        .iter()
        .fold(Hand::EMPTY, |h, &r| h.add(Hand::of(r, 1)))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// parse(format(h)) == h for the canonical string, the other spellings the
    /// notation allows (lower case, `10`, separators) and DouZero integers.
    #[test]
    fn card_notations_round_trip(hand in hand_strategy(54)) {
        let canonical = hand.to_string();
        prop_assert_eq!(Hand::parse_str(&canonical), Ok(hand));
        let spelled: Vec<String> = canonical
            .chars()
            .map(|c| if c == 'T' { "10".to_string() } else { c.to_ascii_lowercase().to_string() })
            .collect();
        prop_assert_eq!(Hand::parse_str(&spelled.join(", ")), Ok(hand));
        prop_assert_eq!(Hand::from_douzero(&hand.to_douzero()), Ok(hand));
        prop_assert_eq!(Hand::from_counts(&hand.counts()), Ok(hand));
        prop_assert_eq!(hand.len(), canonical.len());
    }
}
