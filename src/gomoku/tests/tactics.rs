//! Tactics: fives, blocks, threat sequences, search limits.

use super::*;

#[test]
fn completes_five_before_anything_else() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        // both sides have a four; black to move wins
        let black = [(3, 7), (4, 7), (5, 7), (6, 7)];
        let white = [(3, 9), (4, 9), (5, 9), (6, 9)];
        let b = position(rule, &black, &white, true);
        let r = search(&b, &limits(8, 100_000), &Stop::never());
        assert!(
            r.best == (7, 7) || r.best == (2, 7),
            "{rule:?}: {:?}",
            r.best
        );
        assert_eq!(r.win_in, Some(1));
        // even when stopped at once
        let stop = Stop::never();
        stop.cancel();
        let r = search(&b, &Limits::default(), &stop);
        assert!(r.best == (7, 7) || r.best == (2, 7));
    }
}

#[test]
fn blocks_a_four() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        // white's four (7..=10, 7) is closed on the left by black
        let black = [(6, 7), (3, 3), (3, 11), (11, 3), (5, 12)];
        let white = [(7, 7), (8, 7), (9, 7), (10, 7)];
        let b = position(rule, &black, &white, true);
        for lim in [limits(1, 10), limits(10, 200_000), Limits::default()] {
            let stop = Stop::after(std::time::Duration::from_millis(100));
            let r = search(&b, &lim, &stop);
            assert_eq!(r.best, (11, 7), "{rule:?}");
        }
        let stop = Stop::never();
        stop.cancel();
        assert_eq!(search(&b, &Limits::default(), &stop).best, (11, 7));
    }
}

#[test]
fn answers_an_open_three() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let black = [(3, 3), (11, 11), (3, 11), (12, 4)];
        let white = [(6, 7), (7, 7), (8, 7)];
        let b = position(rule, &black, &white, true);
        let r = search(&b, &limits(6, 100_000), &Stop::never());
        assert!(
            [(5, 7), (9, 7), (4, 7), (10, 7)].contains(&r.best),
            "{rule:?}: {:?}",
            r.best
        );
        // and it is not lost: white has no forced win afterwards
        let mut after = b.clone();
        after.play(r.best);
        let w = search(&after, &limits(6, 100_000), &Stop::never());
        assert!(w.win_in.is_none_or(|n| n < 0), "{rule:?}: {w:?}");
    }
}

#[test]
fn finds_a_vcf() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        let b = vcf_position(rule);
        let r = search(&b, &limits(10, 200_000), &Stop::never());
        assert!([(10, 10), (10, 7)].contains(&r.best), "{rule:?} {r:?}");
        assert_eq!(r.win_in, Some(3), "{rule:?} {r:?}");
        check_forced_win(&b, &r.pv);
    }
    // under renju the double four is forbidden for black: no such win, and the answer is
    // never the forbidden point
    let mut b = vcf_position(Rule::Renju);
    b.play((10, 10));
    b.play((11, 11));
    assert!(b.is_forbidden((10, 7)));
    let r = search(&b, &limits(6, 100_000), &Stop::never());
    assert!(b.is_legal(r.best));
}

/// Independent check of a winning line: every attacker move but the last leaves
/// exactly the defender's reply as the only way to stop an immediate five, and the last
/// one completes a five (or a straight four / double four the defender can't stop).
fn check_forced_win(b: &Board, pv: &[Point]) {
    let mut b = b.clone();
    let attacker = b.to_move();
    for (i, &p) in pv.iter().enumerate() {
        assert!(b.is_legal(p), "pv move {i} {p:?} illegal");
        b.play(p);
        if b.winner().is_some() {
            assert_eq!(b.winner(), Some(attacker));
            return;
        }
    }
    // the line may end with a move that leaves two five points
    let fives: Vec<Point> = empty_points(&b)
        .into_iter()
        .filter(|&p| makes_five_for(&b, p, attacker))
        .collect();
    assert!(fives.len() >= 2, "no forced win at the end of {pv:?}");
}

#[test]
fn empty_board_plays_the_centre() {
    for size in [5, 6, 7, 15, 20, 22] {
        let b = Board::new(size, Rule::Renju).unwrap();
        let r = search(&b, &Limits::default(), &Stop::never());
        assert_eq!(r.best, (size / 2, size / 2));
    }
}

#[test]
fn small_boards_search_without_panics() {
    for size in 5..=7 {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let mut b = Board::new(size, rule).unwrap();
            while b.winner().is_none() && !b.is_full() {
                let r = search(&b, &limits(4, 3_000), &Stop::never());
                assert!(b.is_legal(r.best), "{size} {rule:?} {:?}", b.moves());
                b.play(r.best);
            }
        }
    }
}

#[test]
fn capped_searches_are_reproducible() {
    let b = vcf_position(Rule::Renju);
    let lim = limits(30, 20_000);
    let first = search(&b, &lim, &Stop::never());
    // an unrelated search in between must not change the answer
    let other = position(
        Rule::Freestyle,
        &[(7, 7), (8, 8), (6, 9)],
        &[(7, 8), (9, 9)],
        true,
    );
    let _ = search(&other, &limits(8, 50_000), &Stop::never());
    let second = search(&b, &lim, &Stop::never());
    assert_eq!(
        (first.best, first.eval, first.nodes, &first.pv),
        (second.best, second.eval, second.nodes, &second.pv)
    );
    let capped = search(&b, &limits(30, 0), &Stop::never().with_node_limit(5_000));
    let again = search(&b, &limits(30, 0), &Stop::never().with_node_limit(5_000));
    assert_eq!(capped.best, again.best);
    assert!(b.is_legal(capped.best));
}

#[test]
fn engine_keeps_its_table_and_stays_legal() {
    let mut engine = Engine::new(4);
    let mut b = Board::new(15, Rule::Renju).unwrap();
    for _ in 0..16 {
        if b.winner().is_some() || b.is_full() {
            break;
        }
        let r = engine.search(&b, &limits(6, 20_000), &Stop::never());
        assert!(b.is_legal(r.best));
        assert_eq!(r.pv.first(), Some(&r.best));
        b.play(r.best);
    }
    engine.clear();
}
