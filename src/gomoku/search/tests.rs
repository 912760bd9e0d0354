//! Tests of the searcher's internals.

use super::table::Tt;
use super::*;
use crate::gomoku::Rule;

/// Black to move has a four-three at (8, 7): a closed three in the row and an open
/// two in the column. No single move wins and there is no open four yet, so only the
/// quiescence VCF sees the win at a leaf.
#[test]
fn leaf_vcf_sees_a_four_three_win() {
    let moves = [
        (5, 7),
        (4, 7),
        (6, 7),
        (0, 0),
        (7, 7),
        (14, 0),
        (8, 5),
        (0, 14),
        (8, 6),
        (14, 14),
    ];
    let board = Board::from_moves(15, Rule::Freestyle, &moves).expect("position");
    let mut tt = Tt::new(1);
    let stop = Stop::never();
    let mut s = Searcher::new(board, &mut tt, &stop, u64::MAX);
    assert!(s.evaluate().abs() < MATE_BOUND);
    assert_eq!(s.b.open4_count(0), 0);
    let score = s.pvs(0, -INF, INF, 0);
    assert_eq!(score, WIN_SCORE - 4, "four, block, straight four");
    let line: Vec<Point> = s.pv[0][..s.pv_len[0]]
        .iter()
        .map(|&c| s.b.point(c as usize))
        .collect();
    assert_eq!(line[..2], [(8, 7), (9, 7)]);
}

/// A singular-extension test searches the node again without its table move: it
/// must hand the node back as it found it (no move left out, the board unchanged).
#[test]
fn singular_tests_leave_the_searcher_as_they_found_it() {
    for (rule, moves) in crate::gomoku::midgames::MIDGAMES {
        let before = Board::from_moves(15, rule, moves)
            .expect("position")
            .snapshot();
        after_depth_8(rule, moves, |s, result| {
            assert!(s.excluded.iter().all(|&m| m == NO_MOVE), "{moves:?}");
            assert_eq!(s.b.snapshot(), before, "{moves:?}");
            assert!(s.b.is_legal(result.best), "{moves:?}");
        });
    }
}

/// History rises for the moves that refute a node and falls for the ones searched
/// before them there, and stays within its bound either way.
#[test]
fn history_gains_and_loses_within_its_bound() {
    let (rule, moves) = crate::gomoku::midgames::MIDGAMES[0];
    after_depth_8(rule, moves, |s, _| {
        assert!(s.history.iter().any(|&h| h > 0), "no cut move gained");
        assert!(
            s.history.iter().any(|&h| h < 0),
            "no move searched before a cut lost"
        );
        assert!(s.history.iter().all(|&h| h.abs() <= HISTORY_MAX));
    });
}

/// Searches the position after `moves` to depth 8 with a fresh searcher, then
/// hands the searcher and its result to `check`.
fn after_depth_8(rule: Rule, moves: &[Point], check: impl FnOnce(&Searcher, &SearchResult)) {
    let board = Board::from_moves(15, rule, moves).expect("position");
    let mut tt = Tt::new(1);
    let stop = Stop::never();
    let mut s = Searcher::new(board, &mut tt, &stop, u64::MAX);
    let limits = Limits {
        max_depth: Some(8),
        ..Limits::default()
    };
    let result = s.root(&limits);
    check(&s, &result);
}
