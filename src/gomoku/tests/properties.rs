//! Properties over random games.

use super::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn play_undo_restores_everything(size in 5usize..=15, rule in 0u8..3, picks in prop::collection::vec(0usize..1000, 1..60)) {
        let rule = rule_of(rule);
        let b = random_game(size, rule, &picks);
        // the incremental state equals a board rebuilt from scratch
        let mut rebuilt = Board::new(size, rule).unwrap();
        for p in b.moves() {
            rebuilt.play(p);
        }
        prop_assert_eq!(b.snapshot(), rebuilt.snapshot());
        // and every code and sum equals one computed from scratch
        prop_assert_eq!(b.snapshot(), b.recomputed().snapshot());
        // the candidates are the empty cells within two king steps of a stone
        let near_stone = |x: usize, y: usize| {
            b.moves().iter().any(|&(sx, sy)| sx.abs_diff(x) <= 2 && sy.abs_diff(y) <= 2)
        };
        let naive: Vec<usize> = (0..size * size)
            .filter(|&c| b.stone((c % size, c / size)).is_none() && near_stone(c % size, c / size))
            .collect();
        prop_assert_eq!(b.snapshot().3, naive);
        // and playing then undoing any empty point changes nothing
        let before = b.snapshot();
        for p in empty_points(&b).into_iter().take(12) {
            let mut t = b.clone();
            t.play(p);
            t.undo();
            prop_assert_eq!(&t.snapshot(), &before);
            prop_assert_eq!(t.moves(), b.moves());
        }
    }

    #[test]
    fn winner_matches_a_naive_referee(size in 5usize..=12, rule in 0u8..3, picks in prop::collection::vec(0usize..1000, 1..80)) {
        let rule = rule_of(rule);
        let b = random_game(size, rule, &picks);
        let mut replay = Board::new(size, rule).unwrap();
        for p in b.moves() {
            let side = replay.to_move();
            let naive = makes_five_for(&replay, p, side);
            replay.play(p);
            prop_assert_eq!(replay.winner().is_some(), naive);
        }
    }

    #[test]
    fn search_answers_are_legal(size in 5usize..=15, rule in 0u8..3, picks in prop::collection::vec(0usize..1000, 0..50), nodes in 1u64..3000) {
        let rule = rule_of(rule);
        let b = random_game(size, rule, &picks);
        prop_assume!(b.winner().is_none() && !b.is_full());
        let r = search(&b, &limits(20, nodes), &Stop::never());
        prop_assert!(b.is_legal(r.best), "{:?} in {:?}", r.best, b.moves());
        prop_assert_eq!(r.pv.first(), Some(&r.best));
        // must win at once / must block a four
        let me = b.to_move();
        let wins: Vec<Point> = empty_points(&b).into_iter().filter(|&p| makes_five_for(&b, p, me)).collect();
        let threats: Vec<Point> = empty_points(&b).into_iter().filter(|&p| makes_five_for(&b, p, me.opponent())).collect();
        if !wins.is_empty() {
            prop_assert!(wins.contains(&r.best));
        } else if threats.iter().any(|&p| b.is_legal(p)) {
            prop_assert!(threats.contains(&r.best), "{:?} does not block {:?}", r.best, threats);
        }
    }
}

#[test]
fn finds_a_vct_by_double_three() {
    // (8, 7) makes two open threes at once (row and column): a win in three own moves
    let black = [(6, 7), (7, 7), (8, 8), (8, 9)];
    let white = [(3, 3), (11, 3), (3, 11), (12, 12)];
    for rule in [Rule::Freestyle, Rule::Standard] {
        let b = position(rule, &black, &white, true);
        let r = search(&b, &limits(8, 200_000), &Stop::never());
        assert_eq!(r.best, (8, 7), "{rule:?} {r:?}");
        assert_eq!(r.win_in, Some(3), "{rule:?} {r:?}");
    }
    // under renju the same point is forbidden for black
    let b = position(Rule::Renju, &black, &white, true);
    let r = search(&b, &limits(8, 200_000), &Stop::never());
    assert_ne!(r.best, (8, 7));
    assert!(b.is_legal(r.best));
}
