//! Ranked candidates (multi-PV).

use super::*;

fn ranked(depth: u32, nodes: u64, candidates: usize) -> Limits {
    Limits {
        candidates,
        ..limits(depth, nodes)
    }
}

/// The invariants of every answer: `candidates[0]` is the answer itself, the candidates
/// are distinct legal moves, each with its own line, at most `asked` of them.
fn assert_ranking(b: &Board, r: &SearchResult, asked: usize) {
    let first = r.candidates.first().expect("at least one candidate");
    assert_eq!(
        (first.point, first.eval, first.win_in, &first.pv),
        (r.best, r.eval, r.win_in, &r.pv)
    );
    assert!(
        r.candidates.len() <= asked.clamp(1, MAX_CANDIDATES),
        "{r:?}"
    );
    for (i, c) in r.candidates.iter().enumerate() {
        assert!(b.is_legal(c.point), "{c:?} in {:?}", b.moves());
        assert_eq!(c.pv.first(), Some(&c.point));
        assert!(
            r.candidates[..i].iter().all(|d| d.point != c.point),
            "{r:?}"
        );
    }
}

#[test]
fn one_candidate_is_the_plain_search() {
    // 0 reads as 1; both are the single-line search, node for node
    for (rule, moves) in super::midgames::MIDGAMES.iter().take(3) {
        let b = Board::from_moves(15, *rule, moves).unwrap();
        let plain = search(&b, &limits(30, 20_000), &Stop::never());
        for n in [0, 1] {
            let r = search(&b, &ranked(30, 20_000, n), &Stop::never());
            assert_eq!(
                (r.best, r.eval, r.win_in, r.depth, r.nodes, &r.pv),
                (
                    plain.best,
                    plain.eval,
                    plain.win_in,
                    plain.depth,
                    plain.nodes,
                    &plain.pv
                )
            );
            assert_eq!(r.candidates.len(), 1);
            assert_ranking(&b, &r, 1);
        }
    }
}

#[test]
fn ranked_candidates_are_distinct_legal_and_best_first() {
    for (rule, moves) in super::midgames::MIDGAMES {
        let b = Board::from_moves(15, rule, moves).unwrap();
        // every iteration completes (no node cap reached): one ranking, by value
        let r = search(&b, &ranked(3, 10_000_000, 5), &Stop::never());
        assert_ranking(&b, &r, 5);
        assert_eq!(r.depth, 3, "{r:?}");
        assert!(
            r.candidates.windows(2).all(|w| w[0].eval >= w[1].eval),
            "{r:?}"
        );
        let again = search(&b, &ranked(3, 10_000_000, 5), &Stop::never());
        assert_eq!(again.candidates, r.candidates, "reproducible");
    }
    // an open position has more than enough moves to rank
    let (rule, moves) = super::midgames::MIDGAMES[0];
    let b = Board::from_moves(15, rule, moves).unwrap();
    let r = search(&b, &ranked(3, 10_000_000, 4), &Stop::never());
    assert_eq!(r.candidates.len(), 4, "{r:?}");
}

#[test]
fn ranked_searches_stop_on_the_node_cap_and_when_cancelled() {
    let (rule, moves) = super::midgames::MIDGAMES[5];
    let b = Board::from_moves(15, rule, moves).unwrap();
    for nodes in [1, 50, 3_000] {
        let r = search(
            &b,
            &ranked(60, nodes, 10),
            &Stop::never().with_node_limit(nodes),
        );
        assert_ranking(&b, &r, 10);
        assert!(r.nodes <= nodes + 2, "{nodes}: {}", r.nodes);
    }
    let stop = Stop::never();
    stop.cancel();
    let r = search(&b, &ranked(60, u64::MAX, 10), &stop);
    assert_ranking(&b, &r, 10);
    // without a cap, the deadline ends it
    let started = std::time::Instant::now();
    let r = search(
        &b,
        &Limits {
            candidates: 10,
            ..Limits::default()
        },
        &Stop::after(std::time::Duration::from_millis(50)),
    );
    assert_ranking(&b, &r, 10);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn a_decided_root_gives_one_candidate() {
    // a five to make, a four to block, a win by continuous fours
    let black = [(3, 7), (4, 7), (5, 7), (6, 7)];
    let white = [(3, 9), (4, 9), (5, 9), (6, 9)];
    let b = position(Rule::Freestyle, &black, &white, true);
    let r = search(&b, &ranked(8, 100_000, 5), &Stop::never());
    assert_eq!(r.candidates.len(), 1);
    assert_eq!(r.candidates[0].win_in, Some(1));
    let black = [(6, 7), (3, 3), (3, 11), (11, 3), (5, 12)];
    let white = [(7, 7), (8, 7), (9, 7), (10, 7)];
    let b = position(Rule::Freestyle, &black, &white, true);
    let r = search(&b, &ranked(8, 100_000, 5), &Stop::never());
    assert_eq!(r.candidates.len(), 1);
    assert_eq!(r.best, (11, 7));
    let b = vcf_position(Rule::Freestyle);
    let r = search(&b, &ranked(10, 200_000, 5), &Stop::never());
    assert_ranking(&b, &r, 5);
    assert_eq!((r.candidates.len(), r.win_in), (1, Some(3)), "{r:?}");
}

#[test]
fn every_ranked_move_stops_the_opponents_vcf() {
    let black = [(5, 7), (6, 7), (7, 7), (8, 5), (8, 6)];
    let white = [(4, 7), (8, 3), (2, 12), (12, 12)];
    for rule in [Rule::Freestyle, Rule::Renju] {
        let b = position(rule, &black, &white, false);
        let r = search(&b, &ranked(2, 200_000, 10), &Stop::never());
        assert_ranking(&b, &r, 10);
        assert!(r.candidates.len() > 1, "{rule:?}: {r:?}");
        for c in &r.candidates {
            let mut after = b.clone();
            after.play(c.point);
            assert!(!has_vcf(&after, 4), "{rule:?}: {c:?} leaves a VCF");
        }
    }
}

#[test]
fn candidates_are_capped() {
    let (rule, moves) = super::midgames::MIDGAMES[0];
    let b = Board::from_moves(15, rule, moves).unwrap();
    let r = search(&b, &ranked(2, 1_000_000, 50), &Stop::never());
    assert_eq!(r.candidates.len(), MAX_CANDIDATES);
    // two empty points left on a 5 × 5 board: two moves to rank at most
    let mut full = drawn_5x5();
    let last_two = full.split_off(full.len() - 2);
    let b = Board::from_moves(5, Rule::Freestyle, &full).unwrap();
    let r = search(&b, &ranked(4, 10_000, 10), &Stop::never());
    assert_ranking(&b, &r, 10);
    assert!(r.candidates.len() <= 2);
    assert!(r.candidates.iter().all(|c| last_two.contains(&c.point)));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn ranked_answers_are_legal(size in 5usize..=15, rule in 0u8..3, picks in prop::collection::vec(0usize..1000, 0..50), nodes in 1u64..3000, n in 2usize..12) {
        let rule = rule_of(rule);
        let b = random_game(size, rule, &picks);
        prop_assume!(b.winner().is_none() && !b.is_full());
        let r = search(&b, &ranked(20, nodes, n), &Stop::never());
        assert_ranking(&b, &r, n);
    }
}
