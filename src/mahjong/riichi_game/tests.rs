use super::*;
use crate::mahjong::Strategy;
use crate::mahjong::riichi_bot;

fn bot(_: u8, view: &Table, _: &[TableAction]) -> Option<TableAction> {
    Some(riichi_bot::decide(view, Strategy::Balanced).action)
}

fn over(played: &Played) -> (&HandEnd, [i32; 4]) {
    match &played.outcome {
        Outcome::Over { end, deltas } => (end, *deltas),
        other => panic!("the hand did not end: {other:?}"),
    }
}

/// Points are only moved: between seats, and onto or off the table as riichi
/// sticks; the deltas sum to zero but for the sticks a winner takes.
fn assert_points_kept(setup: &HandSetup, played: &Played, deltas: [i32; 4]) {
    let total = |scores: &[i32; 4], sticks: u32| scores.iter().sum::<i32>() + 1000 * sticks as i32;
    assert_eq!(
        total(&setup.scores, setup.kyotaku),
        total(&played.scores, played.kyotaku)
    );
    let taken = match &played.outcome {
        Outcome::Over {
            end: HandEnd::Win { .. },
            ..
        } => 1000 * (setup.kyotaku as i32 + riichi_deposits(played)),
        _ => 0,
    };
    assert_eq!(deltas.iter().sum::<i32>(), taken, "{deltas:?}");
}

/// Riichi deposits made during the hand (seen from seat 0's view).
fn riichi_deposits(played: &Played) -> i32 {
    played.events[0]
        .iter()
        .filter(|e| matches!(e, Event::ReachAccepted { .. }))
        .count() as i32
}

#[test]
fn four_bots_play_hands_to_the_end() {
    let mut ends = [0; 3];
    for seed in 0..120 {
        let setup = HandSetup::new(seed);
        let played = play(&setup, &mut bot).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let (end, deltas) = over(&played);
        assert_points_kept(&setup, &played, deltas);
        match end {
            HandEnd::Win {
                winner,
                from,
                points,
                items,
                hand,
                ..
            } => {
                ends[0] += 1;
                assert_eq!(deltas[usize::from(*winner)], *points);
                assert!(*points > 0 && !items.is_empty(), "seed {seed}");
                assert_eq!(hand.len() % 3, 2, "seed {seed}: {hand:?}");
                if winner != from {
                    assert!(deltas[usize::from(*from)] < 0, "seed {seed}");
                }
            }
            HandEnd::Exhaustive { ready } => {
                ends[1] += 1;
                let n = ready.iter().filter(|&&r| r).count();
                if n == 0 || n == 4 {
                    assert_eq!(deltas, [0; 4]);
                } else {
                    assert_eq!(deltas.iter().sum::<i32>(), 0, "{deltas:?}");
                }
            }
            HandEnd::NineTerminals { .. } => ends[2] += 1,
        }
    }
    assert!(ends[0] > 30 && ends[1] > 5, "wins, draws, aborts: {ends:?}");
}

#[test]
fn the_same_seed_and_choices_give_the_same_hand() {
    let setup = HandSetup::new(7);
    let a = play(&setup, &mut bot).unwrap();
    let b = play(&setup, &mut bot).unwrap();
    assert_eq!(a.outcome, b.outcome);
    assert_eq!(a.events, b.events);
    let other = play(&HandSetup::new(8), &mut bot).unwrap();
    assert_ne!(a.events[0], other.events[0]);
}

/// A seat that decides one step at a time, the hand replayed from the start
/// for each decision (as the stateless route does), ends where one run with
/// the same choices ends.
#[test]
fn a_paused_hand_resumes_by_replay() {
    let setup = HandSetup::new(11);
    let pick = |legal: &[TableAction]| legal.last().cloned().expect("some action");
    let whole = play(&setup, &mut |seat, view, legal| {
        if seat == 0 {
            Some(pick(legal))
        } else {
            bot(seat, view, legal)
        }
    })
    .unwrap();
    let mut decisions: Vec<TableAction> = Vec::new();
    for _ in 0..200 {
        let mut queue = decisions.clone().into_iter();
        let played = play(&setup, &mut |seat, view, legal| {
            if seat == 0 {
                queue.next()
            } else {
                bot(seat, view, legal)
            }
        })
        .unwrap();
        match played.outcome {
            Outcome::Waiting { seat, legal } => {
                assert_eq!(seat, 0);
                assert!(!legal.is_empty() && legal != [TableAction::Pass]);
                decisions.push(pick(&legal));
            }
            over @ Outcome::Over { .. } => {
                assert_eq!(over, whole.outcome);
                assert_eq!(played.events, whole.events);
                return;
            }
        }
    }
    panic!("the hand never ended");
}

#[test]
fn an_illegal_choice_is_named() {
    let setup = HandSetup::new(3);
    // The dealer discards a tile it does not hold: a fifth east wind, say.
    let err = play(&setup, &mut |seat, view, legal| {
        if seat == setup.dealer {
            Some(TableAction::Discard {
                tile: Tile::new(33),
                tsumogiri: false,
            })
            .filter(|_| !view.hand.contains(&Tile::new(33)))
            .or(Some(TableAction::Pon {
                target: 1,
                tile: Tile::new(0),
                consumed: [Tile::new(0); 2],
            }))
        } else {
            bot(seat, view, legal)
        }
    })
    .unwrap_err();
    assert!(
        matches!(
            err,
            GameError::Illegal {
                seat: 0,
                decision: 0,
                ..
            }
        ),
        "{err}"
    );
}

/// Every seat takes random legal actions: every event the referee makes is
/// accepted by every seat's view, and every hand ends.
#[test]
fn random_legal_play_always_ends() {
    let mut kans = 0;
    for seed in 0..150u64 {
        let mut rng = SplitMix64::new(seed ^ 0xABCD);
        let setup = HandSetup {
            honba: (seed % 3) as u32,
            kyotaku: (seed % 2) as u32,
            dealer: (seed % 4) as u8,
            ..HandSetup::new(seed)
        };
        let played = play(&setup, &mut |_, _, legal| {
            Some(legal[rng.below(legal.len())].clone())
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let (_, deltas) = over(&played);
        assert_points_kept(&setup, &played, deltas);
        kans += played.views[0]
            .seats
            .iter()
            .flat_map(|s| &s.melds)
            .filter(|m| m.tiles.len() == 4)
            .count();
    }
    assert!(kans > 0, "random play made no kan");
}
