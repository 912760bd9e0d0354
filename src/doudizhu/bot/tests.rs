//! Tests of the play policy and of `GameState::from_history`.

use super::deal::Dealer;
use super::rollout::{Playout, modelled_overtakers, rollout_candidates};
use super::*;
use crate::doudizhu::endgame::Seat;
use crate::doudizhu::{ComboType, Rank, Rules, beats};
use std::time::Duration;

fn h(s: &str) -> Hand {
    Hand::parse_str(s).unwrap()
}

fn hist(entries: &[&str]) -> Vec<Hand> {
    entries.iter().map(|e| h(e)).collect()
}

fn rules() -> Rules {
    Rules::default()
}

/// A hand-made state (counts and unseen set directly) for policy tests.
fn state(
    seat: Seat,
    hand: &str,
    counts: [usize; 3],
    unseen: &str,
    last: Option<(Seat, &str)>,
) -> GameState {
    let mut counts = counts;
    counts[seat.index()] = h(hand).len();
    GameState {
        seat,
        hand: h(hand),
        rules: rules(),
        history: Vec::new(),
        played: [Hand::EMPTY; 3],
        counts,
        landlord_cards: None,
        landlord_known: Hand::EMPTY,
        last: last.map(|(s, c)| (s, crate::doudizhu::classify(h(c), &rules()).unwrap())),
        unseen: h(unseen),
    }
}

const LL_HAND: &str = "33445566778899TTJJQK"; // 20 cards

#[test]
fn replays_a_valid_history() {
    // Landlord leads 3, down plays 5, up passes, landlord passes: down leads.
    let st = GameState::from_history(
        Seat::LandlordDown,
        h("6677889TTJJQQKKA"),
        &hist(&["3", "5", "", ""]),
        Some(h("2BR")),
        rules(),
    )
    .unwrap();
    assert_eq!(st.counts, [19, 16, 17]);
    assert_eq!(st.last, None);
    assert_eq!(st.landlord_known, h("2BR"));
    assert_eq!(st.unseen.len(), 19 + 17);
    assert!(!st.unseen.contains(h("3")) || st.unseen.count(Rank::Three) == 3);
    assert_eq!(st.partner(), Some(Seat::LandlordUp));
}

#[test]
fn standing_play_and_turn_follow_the_history() {
    let st = GameState::from_history(
        Seat::LandlordUp,
        h("3456789TJQKA2BR33"),
        &hist(&["44", "55"]),
        None,
        rules(),
    )
    .unwrap();
    let (by, c) = st.last.unwrap();
    assert_eq!(by, Seat::LandlordDown);
    assert_eq!(c.cards, h("55"));
}

#[test]
fn history_errors_name_the_field() {
    let r = rules();
    // Not this seat's turn.
    let e = GameState::from_history(Seat::LandlordDown, h(LL_HAND), &[], None, r).unwrap_err();
    assert!(matches!(e, HistoryError::NotYourTurn { .. }), "{e}");
    // Wrong hand size.
    let e = GameState::from_history(Seat::Landlord, h("3456"), &[], None, r).unwrap_err();
    assert!(
        matches!(
            e,
            HistoryError::HandSize {
                expected: 20,
                actual: 4
            }
        ),
        "{e}"
    );
    // A pass on a lead.
    let e =
        GameState::from_history(Seat::LandlordDown, h(LL_HAND), &hist(&[""]), None, r).unwrap_err();
    assert_eq!(
        e,
        HistoryError::PassOnLead {
            index: 0,
            seat: Seat::Landlord
        }
    );
    // Not a combination.
    let e = GameState::from_history(Seat::LandlordDown, h(LL_HAND), &hist(&["34"]), None, r)
        .unwrap_err();
    assert!(matches!(e, HistoryError::NotACombo { index: 0, .. }), "{e}");
    // Does not beat.
    let e = GameState::from_history(
        Seat::LandlordUp,
        h("3456789TJQKA2BR33"),
        &hist(&["55", "44"]),
        None,
        r,
    )
    .unwrap_err();
    assert!(
        matches!(e, HistoryError::DoesNotBeat { index: 1, .. }),
        "{e}"
    );
    // Too many copies: the hand holds 33, history plays 333.
    let e = GameState::from_history(
        Seat::LandlordDown,
        h("33456789TJQKA2BR4"),
        &hist(&["333"]),
        None,
        r,
    )
    .unwrap_err();
    assert!(
        matches!(e, HistoryError::TooManyCopies { index: Some(0), .. }),
        "{e}"
    );
    // Bottom cards a peasant holds itself.
    let e = GameState::from_history(
        Seat::LandlordDown,
        h("3456789TJQKA2BR33"),
        &hist(&["4"]),
        Some(h("BR2")),
        r,
    )
    .unwrap_err();
    assert!(
        matches!(e, HistoryError::TooManyCopies { index: None, .. }),
        "{e}"
    );
    // The landlord's unplayed bottom cards must be in its hand.
    let e =
        GameState::from_history(Seat::Landlord, h(LL_HAND), &[], Some(h("BR2")), r).unwrap_err();
    assert_eq!(e, HistoryError::LandlordCardsNotInHand);
    let e = GameState::from_history(Seat::Landlord, h(LL_HAND), &[], Some(h("BR")), r).unwrap_err();
    assert_eq!(e, HistoryError::LandlordCardsSize(2));
}

#[test]
fn game_over_is_detected() {
    let e = GameState::from_history(
        Seat::LandlordDown,
        h("3333"),
        &hist(&["456789TJQKA", "", "", "44556677", "", "", "2"]),
        None,
        rules(),
    );
    // The landlord played 11 + 8 + 1 = 20 cards: out at entry 6.
    assert_eq!(
        e.unwrap_err(),
        HistoryError::GameOver {
            index: 6,
            seat: Seat::Landlord
        }
    );
}

#[test]
fn overdrawn_seat_is_rejected() {
    // Down plays a 6-chain, then leads a 12-chain with only 11 cards left.
    let e = GameState::from_history(
        Seat::LandlordUp,
        h("JJQQKKAA22BR99TT3"),
        &hist(&["345678", "56789T", "", "", "3456789TJQKA"]),
        None,
        rules(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        HistoryError::Overdrawn {
            index: 4,
            seat: Seat::LandlordDown,
            played: 12,
            held: 11
        }
    );
}

#[test]
fn goes_out_when_it_can() {
    let st = state(
        Seat::Landlord,
        "888",
        [0, 10, 10],
        "3456789TJQKA2BRJQKA",
        None,
    );
    let d = choose_play(&st, &Stop::after(Duration::from_millis(50)), 1, None);
    assert_eq!(d.play.cards, h("888"));
}

#[test]
fn peasant_passes_on_partners_winning_play() {
    // Up, after the landlord led 3 and Down topped it with an A.
    let st = state(
        Seat::LandlordUp,
        "4456789TJQK22BR33",
        [19, 16, 0],
        "34445566778899TTJJQQKKAAA",
        Some((Seat::LandlordDown, "A")),
    );
    let d = choose_play(&st, &Stop::after(Duration::from_millis(50)), 1, None);
    assert!(d.play.is_pass(), "{d}");
}

#[test]
fn peasant_feeds_a_partner_about_to_go_out() {
    // Down leads; Up (next) holds one card; the landlord holds many.
    let st = state(
        Seat::LandlordDown,
        "3789TTJJ",
        [15, 0, 1],
        "4445556667778899QQKKAAA22",
        None,
    );
    let d = choose_play(&st, &Stop::after(Duration::from_millis(100)), 1, None);
    assert_eq!(d.play.kind, ComboType::Solo, "{d}");
    assert_eq!(d.play.cards, h("3"), "{d}");
}

#[test]
fn landlord_does_not_lead_a_solo_a_peasant_can_go_out_on() {
    // Down holds one unknown card; the landlord leads. Leading the 3 alone
    // would let almost any single card go out.
    let st = state(Seat::Landlord, "3TTJJQQ", [0, 1, 6], "456789A", None);
    let d = choose_play(&st, &Stop::after(Duration::from_millis(100)), 1, None);
    assert_ne!(d.play.cards, h("3"), "{d}");
}

#[test]
fn search_finds_a_forced_win() {
    // Landlord: rocket + 3. Cash the rocket (unbeatable) then go out.
    let st = state(Seat::Landlord, "3BR", [0, 5, 5], "4455667788", None);
    let d = choose_play(&st, &Stop::after(Duration::from_millis(100)), 1, None);
    assert_eq!(d.play.kind, ComboType::Rocket, "{d}");
}

#[test]
fn playing_for_points_spends_a_bomb_on_a_won_game() {
    // The landlord wins with either lead (no peasant can beat an ace or the
    // bomb), but only the bomb doubles the points.
    let st = state(Seat::Landlord, "3333A", [0, 5, 5], "4455667788", None);
    let stop = Stop::after(Duration::from_secs(5));
    let score = PlayOptions {
        objective: Objective::Score,
        candidates: 3,
        ..PlayOptions::default()
    };
    let d = choose_play_with(&st, &stop, 1, None, &score);
    assert_eq!(d.play.kind, ComboType::Bomb, "{d}");
    assert_eq!(d.evaluation, Some(1.0));
    assert_eq!(d.candidates[0].play, d.play);
    assert_eq!(d.candidates[0].expected_points, 4.0, "{:?}", d.candidates);
    assert!(
        d.candidates[1..].iter().all(|c| c.expected_points <= 2.0),
        "{:?}",
        d.candidates
    );
    // Playing for the win, any winning lead does; it still wins every deal.
    let d = choose_play_with(&st, &stop, 1, None, &PlayOptions::default());
    assert_eq!(d.evaluation, Some(1.0), "{d}");
}

/// Plays whole games with the bot in every seat; every decision must be
/// legal, reproducible, and a lead is never a pass.
#[test]
fn self_play_is_legal_and_reproducible() {
    let r = rules();
    let mut rng = SplitMix64::new(42);
    for game in 0..4u64 {
        let (mut hands, bottom) = random_deal(&mut rng);
        let mut history: Vec<Hand> = Vec::new();
        let mut seat = Seat::Landlord;
        for _turn in 0..200 {
            let i = seat.index();
            let st = GameState::from_history(seat, hands[i], &history, Some(bottom), r).unwrap();
            let d = choose_play(&st, &Stop::after(Duration::from_millis(20)), game, None);
            match st.last {
                None => assert!(!d.play.is_pass(), "passed on a lead"),
                Some((_, s)) => assert!(d.play.is_pass() || beats(&d.play, &s)),
            }
            assert!(hands[i].contains(d.play.cards));
            if st.counts.iter().sum::<usize>() > 40 {
                // Without a deadline (only the work caps) a decision is
                // exactly reproducible, rollouts included.
                let a = choose_play(&st, &Stop::never(), game, None);
                let b = choose_play(&st, &Stop::never(), game, None);
                assert_eq!((a.play, a.reason, a.deals), (b.play, b.reason, b.deals));
            }
            hands[i] = hands[i].sub(d.play.cards);
            history.push(d.play.cards);
            if hands[i].is_empty() {
                break;
            }
            seat = seat.next();
        }
        assert!(
            hands.iter().any(|h| h.is_empty()),
            "game {game} did not end"
        );
    }
}

/// A seeded deal where the landlord has led its lowest card and Down decides
/// next: Down's state, the dealt hands and the generator after the deal.
fn down_after_lowest_lead(seed: u64) -> (GameState, [Hand; 3], SplitMix64) {
    let mut rng = SplitMix64::new(seed);
    let (hands, bottom) = random_deal(&mut rng);
    let low = hands[0].lowest().unwrap();
    let st = GameState::from_history(
        Seat::LandlordDown,
        hands[1],
        &[Hand::of(low, 1)],
        Some(bottom),
        rules(),
    )
    .unwrap();
    (st, hands, rng)
}

#[test]
fn dealer_deals_consistently_with_what_is_known() {
    let (st, hands, mut rng) = down_after_lowest_lead(3);
    let mut dealer = Dealer::new(&st, None, false).unwrap();
    for _ in 0..50 {
        let d = dealer.deal(&mut rng);
        assert_eq!(d[1], hands[1]);
        assert_eq!(d[0].len(), 19);
        assert_eq!(d[2].len(), 17);
        assert_eq!(d[0].add(d[2]), st.unseen);
        assert!(
            d[0].contains(st.landlord_known),
            "the landlord keeps its bottom cards"
        );
    }
}

/// Down passed on the landlord's solo 2: deals biased by that pass seldom
/// give Down a joker (which would have beaten it), uniform deals often do.
#[test]
fn dealer_reads_passes() {
    let up_hand = h("33445566778899TTJ");
    let st = GameState::from_history(Seat::LandlordUp, up_hand, &hist(&["2", ""]), None, rules())
        .unwrap();
    let has_joker = |d: &[Hand; 3]| d[1].count(Rank::BlackJoker) + d[1].count(Rank::RedJoker) > 0;
    let mut rng = SplitMix64::new(5);
    let (mut biased, mut uniform) = (0, 0);
    let mut inferring = Dealer::new(&st, None, false).unwrap();
    let mut plain = Dealer::new(&st, None, true).unwrap();
    assert_eq!(inferring.passes.len(), 1);
    for _ in 0..400 {
        biased += usize::from(has_joker(&inferring.deal(&mut rng)));
        uniform += usize::from(has_joker(&plain.deal(&mut rng)));
    }
    assert!(
        uniform > 240,
        "uniform deals: {uniform} / 400 with a joker at Down"
    );
    assert!(
        biased < 180,
        "biased deals: {biased} / 400 with a joker at Down"
    );
}

/// Whole playouts from random deals end with someone out, every play legal.
#[test]
fn playouts_are_legal_and_end() {
    let r = rules();
    let mut rng = SplitMix64::new(11);
    for _ in 0..30 {
        let (hands, _) = random_deal(&mut rng);
        let mut p = Playout::new(hands, &r);
        let (mut seat, mut last): (Seat, Option<(Seat, Combo)>) = (Seat::Landlord, None);
        let mut ended = false;
        for _ in 0..300 {
            let m = p.choose(seat, last);
            let i = seat.index();
            match last {
                None => assert!(!m.is_pass(), "a playout passed on a lead"),
                Some((_, s)) => assert!(m.is_pass() || beats(&m, &s), "{m} on {s}"),
            }
            assert!(p.hands[i].contains(m.cards));
            if !m.is_pass() {
                p.apply(i, &m);
                if let Some(g) = &p.groups[i] {
                    // The kept split still partitions the hand.
                    let sum = g.iter().fold(Hand::EMPTY, |a, c| a.add(c.cards));
                    assert_eq!(sum, p.hands[i]);
                }
                if p.hands[i].is_empty() {
                    ended = true;
                    break;
                }
                last = Some((seat, m));
            }
            seat = seat.next();
            if last.is_some_and(|(by, _)| by == seat) {
                last = None;
            }
        }
        assert!(ended);
        assert_eq!(Playout::new(hands, &r).run(Seat::Landlord, None), {
            // `run` plays the same policy: same winner as the loop above.
            Seat::ALL
                .into_iter()
                .find(|s| p.hands[s.index()].is_empty())
                .unwrap()
        });
    }
}

#[test]
fn rollout_candidates_start_with_the_heuristic_and_are_legal() {
    // A peasant following a landlord solo: the pass must be among them.
    let st = state(
        Seat::LandlordDown,
        "3456789TTJQK2",
        [15, 0, 17],
        "33444555666777888999JJQQKKAAA22BR",
        Some((Seat::Landlord, "8")),
    );
    let mut moves = legal_moves(st.hand, Some(&st.last.unwrap().1), &st.rules);
    moves.push(Combo::pass());
    let heur = moves[0];
    let c = rollout_candidates(&st, &moves, heur, Objective::Win);
    assert_eq!(c[0], heur);
    assert!(c.len() <= ROLLOUT_CANDIDATES && c.len() >= 2);
    assert!(c.contains(&Combo::pass()));
    assert!(c.iter().all(|m| moves.contains(m)));
}

#[test]
fn peasant_rollouts_decide_and_reproduce() {
    let (st, _, _) = down_after_lowest_lead(5);
    let a = choose_play(&st, &Stop::never(), 9, None);
    let b = choose_play(&st, &Stop::never(), 9, None);
    assert!(a.reason.starts_with("rollout"), "{a}");
    assert!(a.deals > 0 && a.evaluation.is_some());
    assert_eq!(
        (a.play, a.deals, a.evaluation),
        (b.play, b.deals, b.evaluation)
    );
}

#[test]
fn splitmix_is_deterministic_and_in_range() {
    let mut a = SplitMix64::new(7);
    let mut b = SplitMix64::new(7);
    for n in 1..100 {
        let x = a.below(n);
        assert_eq!(x, b.below(n));
        assert!(x < n);
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Random legal games: every prefix replays, the counts and unseen
        /// cards add up, and the bot's answer is legal.
        #[test]
        fn random_games_replay_and_bot_answers_legally(seed in any::<u64>()) {
            let r = rules();
            let mut rng = SplitMix64::new(seed);
            let (mut hands, bottom) = random_deal(&mut rng);
            let mut history: Vec<Hand> = Vec::new();
            let mut seat = Seat::Landlord;
            let mut last: Option<(Seat, Combo)> = None;
            loop {
                let i = seat.index();
                let st = GameState::from_history(seat, hands[i], &history, Some(bottom), r)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(st.last, last);
                prop_assert_eq!(st.unseen.len(), st.counts.iter().sum::<usize>() - hands[i].len());
                if rng.below(8) == 0 {
                    let d = choose_play(&st, &Stop::after(Duration::from_millis(10)), seed, None);
                    match last {
                        None => prop_assert!(!d.play.is_pass()),
                        Some((_, s)) => prop_assert!(d.play.is_pass() || beats(&d.play, &s)),
                    }
                    prop_assert!(hands[i].contains(d.play.cards));
                }
                // Advance with a random legal move.
                let standing = last.map(|(_, c)| c);
                let mut moves = legal_moves(hands[i], standing.as_ref(), &r);
                if standing.is_some() {
                    moves.push(Combo::pass());
                }
                let mv = moves[rng.below(moves.len())];
                hands[i] = hands[i].sub(mv.cards);
                history.push(mv.cards);
                if !mv.is_pass() {
                    last = Some((seat, mv));
                }
                if hands[i].is_empty() {
                    // The finished game is rejected, naming the last entry.
                    let next = seat.next();
                    let e = GameState::from_history(next, hands[next.index()], &history, Some(bottom), r);
                    prop_assert_eq!(e, Err(HistoryError::GameOver { index: history.len() - 1, seat }));
                    break;
                }
                seat = seat.next();
                if last.is_some_and(|(by, _)| by == seat) {
                    last = None;
                }
            }
        }
    }
}

#[test]
fn a_peasant_beating_its_partners_play_is_seen_overtaking() {
    let seen = |entries: &[&str]| {
        // Down's hand: 16 cards after playing, 17 after passing.
        let hand = if entries[1].is_empty() {
            "66778899TTJJQQKKA"
        } else {
            "6677889TTJJQQKKA"
        };
        GameState::from_history(
            Seat::LandlordDown,
            h(hand),
            &hist(entries),
            Some(h("2BR")),
            rules(),
        )
        .unwrap()
        .overtakes_partner()
    };
    // Up beats down's 5, which stood against the landlord: overtaking.
    assert_eq!(seen(&["3", "5", "7", ""]), [false, false, true]);
    // Up beats the landlord's 3 after down passed: an ordinary answer.
    assert_eq!(seen(&["3", "", "5", ""]), [false; 3]);
    assert_eq!(seen(&["3", "5", "", ""]), [false; 3]);
}

/// The landlord's playouts model the overtaking peasant; a peasant's own
/// playouts keep both peasants passing on each other.
#[test]
fn only_the_landlord_models_overtaking() {
    let landlord = GameState::from_history(
        Seat::Landlord,
        h("44556677889TTJQK2BR"),
        &hist(&["3", "5", "7"]),
        Some(h("2BR")),
        rules(),
    )
    .unwrap();
    assert_eq!(modelled_overtakers(&landlord), [false, false, true]);
    let peasant = GameState::from_history(
        Seat::LandlordDown,
        h("6677889TTJJQQKKA"),
        &hist(&["3", "5", "7", ""]),
        Some(h("2BR")),
        rules(),
    )
    .unwrap();
    assert_eq!(peasant.overtakes_partner(), [false, false, true]);
    assert_eq!(modelled_overtakers(&peasant), [false; 3]);
}

/// A playout seat modelled as overtaking answers its partner's play; the
/// others pass on it.
#[test]
fn playouts_overtake_only_where_modelled() {
    let r = rules();
    let hands = [h("3456789TJQKA2"), h("4455"), h("6677")];
    let standing = Some((
        Seat::LandlordDown,
        crate::doudizhu::classify(h("44"), &r).unwrap(),
    ));
    let mut cooperative = Playout::new(hands, &r);
    assert!(cooperative.choose(Seat::LandlordUp, standing).is_pass());
    let mut overtaking = Playout::new(hands, &r).with_overtaking([false, false, true]);
    assert_eq!(overtaking.choose(Seat::LandlordUp, standing).cards, h("66"));
}
