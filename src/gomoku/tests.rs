use proptest::prelude::*;

use super::*;
use crate::stop::Stop;

/// Far-away white stones used to keep the turn order (no five among them, clear of the
/// centre where the test shapes are built).
const FILLERS: [Point; 16] = [
    (0, 0),
    (0, 2),
    (0, 4),
    (2, 0),
    (4, 0),
    (14, 0),
    (14, 2),
    (14, 4),
    (12, 0),
    (10, 0),
    (0, 14),
    (2, 14),
    (4, 14),
    (14, 14),
    (14, 12),
    (12, 14),
];

/// A 15×15 board with the given stones, black to move when `black_to_move`, else white.
/// Stones are placed without validation (shapes may include points black couldn't have
/// played in a real renju game).
fn position(rule: Rule, black: &[Point], white: &[Point], black_to_move: bool) -> Board {
    let mut white = white.to_vec();
    let want = if black_to_move {
        black.len()
    } else {
        black.len() - 1
    };
    let mut fillers = FILLERS.iter();
    while white.len() < want {
        white.push(*fillers.next().expect("enough fillers"));
    }
    assert_eq!(white.len(), want, "too many white stones");
    let mut b = Board::new(15, rule).unwrap();
    for i in 0..black.len() {
        b.play(black[i]);
        if i < white.len() {
            b.play(white[i]);
        }
    }
    assert_eq!(b.to_move() == Stone::Black, black_to_move);
    b
}

fn limits(depth: u32, nodes: u64) -> Limits {
    Limits {
        max_depth: Some(depth),
        max_nodes: Some(nodes),
        ..Limits::default()
    }
}

// ---- rules --------------------------------------------------------------------------

#[test]
fn sizes_are_checked() {
    assert_eq!(
        Board::new(4, Rule::Freestyle).err(),
        Some(PositionError::BadSize(4))
    );
    assert_eq!(
        Board::new(23, Rule::Renju).err(),
        Some(PositionError::BadSize(23))
    );
    assert!(Board::new(5, Rule::Standard).is_ok());
    assert!(Board::new(22, Rule::Freestyle).is_ok());
}

#[test]
fn from_moves_errors_name_the_move() {
    let e = Board::from_moves(15, Rule::Freestyle, &[(7, 7), (15, 3)]).err();
    assert_eq!(
        e,
        Some(PositionError::OffBoard {
            index: 1,
            x: 15,
            y: 3
        })
    );
    let e = Board::from_moves(15, Rule::Freestyle, &[(7, 7), (8, 8), (7, 7)]).err();
    assert_eq!(
        e,
        Some(PositionError::Occupied {
            index: 2,
            x: 7,
            y: 7
        })
    );
    // black wins on move 8; a ninth stone comes too late
    let mut moves = black_five_on_row_7();
    assert_eq!(
        Board::from_moves(15, Rule::Freestyle, &moves).err(),
        Some(PositionError::AlreadyWon)
    );
    moves.push((1, 1));
    assert_eq!(
        Board::from_moves(15, Rule::Freestyle, &moves).err(),
        Some(PositionError::AfterWin { index: 9 })
    );
    // renju: black's double three at move 8
    let mut moves = DOUBLE_THREE_AHEAD.to_vec();
    moves.push((8, 7));
    assert_eq!(
        Board::from_moves(15, Rule::Renju, &moves).err(),
        Some(PositionError::Forbidden {
            index: 8,
            x: 8,
            y: 7
        })
    );
    assert!(Board::from_moves(15, Rule::Freestyle, &moves).is_ok());
}

/// Black to move, and (8, 7) would make a double three.
const DOUBLE_THREE_AHEAD: [Point; 8] = [
    (6, 7),
    (0, 0),
    (7, 7),
    (0, 2),
    (8, 8),
    (0, 4),
    (8, 9),
    (14, 0),
];

/// Black's five from (3, 7) to (7, 7) on its fifth stone, white's four
/// stones on row 9 between them.
fn black_five_on_row_7() -> Vec<Point> {
    let mut moves = vec![];
    for i in 0..5 {
        moves.push((i + 3, 7));
        if i < 4 {
            moves.push((i + 3, 9));
        }
    }
    moves
}

/// A full 5×5 board with no five anywhere: colour by (x / 2 + y) parity.
fn drawn_5x5() -> Vec<Point> {
    let (mut black, mut white) = (vec![], vec![]);
    for y in 0..5 {
        for x in 0..5 {
            if (x / 2 + y) % 2 == 0 {
                black.push((x, y));
            } else {
                white.push((x, y));
            }
        }
    }
    assert_eq!((black.len(), white.len()), (13, 12));
    let mut moves = vec![];
    for i in 0..13 {
        moves.push(black[i]);
        if i < 12 {
            moves.push(white[i]);
        }
    }
    moves
}

#[test]
fn full_and_nearly_full_boards() {
    let moves = drawn_5x5();
    assert_eq!(
        Board::from_moves(5, Rule::Freestyle, &moves).err(),
        Some(PositionError::BoardFull)
    );
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let b = Board::from_moves(5, rule, &moves[..24]).unwrap();
        assert!(!b.is_full());
        let r = search(&b, &limits(6, 10_000), &Stop::never());
        assert_eq!(r.best, moves[24]);
        let b = Board::from_moves(5, rule, &moves[..20]).unwrap();
        let r = search(
            &b,
            &Limits::default(),
            &Stop::after(std::time::Duration::from_millis(50)),
        );
        assert!(b.is_legal(r.best));
    }
}

#[test]
fn fives_and_overlines_per_rule() {
    // black: (3..=5, 7) and (7..=8, 7); (6, 7) makes six
    let black = [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)];
    for (rule, wins) in [(Rule::Freestyle, true), (Rule::Standard, false)] {
        let mut b = position(rule, &black, &[], true);
        assert!(b.is_legal((6, 7)));
        b.play((6, 7));
        assert_eq!(b.winner().is_some(), wins, "{rule:?}");
    }
    let b = position(Rule::Renju, &black, &[], true);
    assert!(b.is_forbidden((6, 7)));
    assert!(!b.is_legal((6, 7)));
    // white's overline: wins under freestyle and renju, not under standard
    for (rule, wins) in [
        (Rule::Freestyle, true),
        (Rule::Renju, true),
        (Rule::Standard, false),
    ] {
        let white = [(3, 9), (4, 9), (5, 9), (7, 9), (8, 9)];
        let blacks = [(3, 11), (5, 11), (7, 11), (9, 11), (11, 11), (6, 3)];
        let mut b = position(rule, &blacks, &white, false);
        assert!(!b.is_forbidden((6, 9)));
        b.play((6, 9));
        assert_eq!(b.winner(), wins.then_some(Stone::White), "{rule:?}");
    }
    // an exact five wins under every rule
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let mut b = position(rule, &[(3, 7), (4, 7), (5, 7), (6, 7)], &[], true);
        b.play((7, 7));
        assert_eq!(b.winner(), Some(Stone::Black));
    }
}

#[test]
fn wins_at_edges_and_corners() {
    let cases: [(Vec<Point>, Point); 4] = [
        (vec![(0, 1), (1, 1), (2, 1), (3, 1)], (4, 1)),
        (vec![(14, 11), (14, 12), (14, 13), (14, 14)], (14, 10)),
        (vec![(11, 11), (12, 12), (13, 13), (14, 14)], (10, 10)),
        (vec![(0, 14), (1, 13), (2, 12), (3, 11)], (4, 10)),
    ];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for (stones, last) in &cases {
            let white = [(6, 3), (8, 3), (6, 5), (8, 5)];
            let mut b = position(rule, stones, &white, true);
            let r = search(&b, &limits(2, 1000), &Stop::never());
            assert_eq!(r.best, *last);
            assert_eq!(r.win_in, Some(1));
            b.play(*last);
            assert_eq!(b.winner(), Some(Stone::Black));
        }
    }
}

// ---- renju forbidden moves ----------------------------------------------------------

#[test]
fn renju_double_three_is_forbidden() {
    let black = [(6, 7), (7, 7), (8, 8), (8, 9)];
    let b = position(Rule::Renju, &black, &[], true);
    assert!(b.is_forbidden((8, 7)));
    assert!(!b.is_legal((8, 7)));
    // the same shape is fine for white and under the other rules
    let w = position(
        Rule::Renju,
        &[(1, 10), (3, 10), (5, 10), (0, 8), (9, 12)],
        &black,
        true,
    );
    assert!(!w.is_forbidden((8, 7)));
    for rule in [Rule::Freestyle, Rule::Standard] {
        assert!(!position(rule, &black, &[], true).is_forbidden((8, 7)));
    }
    // one three blocked at its end: a single open three is allowed
    let b = position(Rule::Renju, &black, &[(8, 10)], true);
    assert!(!b.is_forbidden((8, 7)));
}

#[test]
fn renju_double_four_is_forbidden() {
    let black = [(5, 7), (6, 7), (7, 7), (8, 4), (8, 5), (8, 6)];
    let white = [(4, 7), (8, 3)];
    let b = position(Rule::Renju, &black, &white, true);
    assert!(b.is_forbidden((8, 7)));
    // four-three is allowed
    let black = [(5, 7), (6, 7), (7, 7), (8, 5), (8, 6)];
    let b = position(Rule::Renju, &black, &white, true);
    assert!(!b.is_forbidden((8, 7)));
}

#[test]
fn renju_four_four_in_one_line_is_forbidden() {
    // X.X_X.X → two fours in one line
    let black = [(3, 7), (5, 7), (6, 7), (9, 7)];
    let b = position(Rule::Renju, &black, &[], true);
    assert!(b.is_forbidden((7, 7)));
    assert!(!position(Rule::Standard, &black, &[], true).is_forbidden((7, 7)));
}

#[test]
fn renju_overline_is_forbidden() {
    let black = [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)];
    assert!(position(Rule::Renju, &black, &[], true).is_forbidden((6, 7)));
}

#[test]
fn renju_false_three_does_not_count() {
    // row three (6..=8, 7) through p = (8, 7) and column three (8, 7..=9).
    // Columns 5 and 9 hold XX.XXX around row 7, so black at (5, 7) or (9, 7) would
    // make an overline: both straight-four points of the row three are forbidden and
    // it is no real three.
    let col = |x: usize| [(x, 5), (x, 6), (x, 8), (x, 9), (x, 10)];
    let mut black = vec![(6, 7), (7, 7), (8, 8), (8, 9)];
    black.extend(col(5));
    let only_left = position(Rule::Renju, &black, &[], true);
    assert!(only_left.is_forbidden((5, 7)));
    // (9, 7) is still a good straight-four point: a real double three
    assert!(only_left.is_forbidden((8, 7)));
    black.extend(col(9));
    let both = position(Rule::Renju, &black, &[], true);
    assert!(both.is_forbidden((9, 7)));
    assert!(!both.is_forbidden((8, 7)));
}

#[test]
fn renju_five_beats_forbidden() {
    // (7, 7) completes a row five and also makes two open threes
    let black = [
        (3, 7),
        (4, 7),
        (5, 7),
        (6, 7),
        (7, 8),
        (7, 9),
        (8, 8),
        (9, 9),
    ];
    let mut b = position(Rule::Renju, &black, &[(2, 7)], true);
    assert!(!b.is_forbidden((7, 7)));
    let r = search(&b, &limits(2, 1000), &Stop::never());
    assert_eq!(r.best, (7, 7));
    b.play((7, 7));
    assert_eq!(b.winner(), Some(Stone::Black));
    // five plus an overline elsewhere: still a win
    let black = [
        (3, 7),
        (4, 7),
        (5, 7),
        (6, 7),
        (7, 2),
        (7, 3),
        (7, 4),
        (7, 5),
        (7, 6),
    ];
    let mut b = position(Rule::Renju, &black[..4], &[(2, 7)], true);
    for &p in &black[4..] {
        b.play(p);
        b.play(FILLERS[b.moves().len() / 2 + 4]);
    }
    // column 7 now holds five black stones above (7, 7): placing it makes six there
    assert!(!b.is_forbidden((7, 7)));
    b.play((7, 7));
    assert_eq!(b.winner(), Some(Stone::Black));
}

#[test]
fn renju_white_wins_by_forcing_black_onto_a_forbidden_point() {
    // black's (8, 7) would be a double three (row and diagonal); white's column four
    // (8, 3..=6) can only be blocked there.
    let black = [(6, 7), (7, 7), (9, 8), (10, 9), (8, 2)];
    let white = [(8, 3), (8, 4), (8, 5)];
    let b = position(Rule::Renju, &black, &white, false);
    let r = search(&b, &limits(4, 50_000), &Stop::never());
    assert_eq!(r.best, (8, 6));
    assert_eq!(r.win_in, Some(2));
    // black, facing the four on the forbidden point, is lost; the answer stays legal
    let mut b2 = b.clone();
    b2.play((8, 6));
    assert!(b2.is_forbidden((8, 7)));
    let r = search(&b2, &limits(4, 50_000), &Stop::never());
    assert!(b2.is_legal(r.best));
    assert!(r.win_in.is_some_and(|n| n < 0));
}

// ---- tactics -------------------------------------------------------------------------

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

/// Black: closed row three (7..=9, 7), closed diagonal three (7..=9), column two
/// (10, 8..=9) closed below. (10, 10) is a diagonal four; after the block, (10, 7) is a
/// double four. A three-move win by continuous fours.
fn vcf_position(rule: Rule) -> Board {
    let black = [(7, 7), (8, 7), (9, 7), (8, 8), (9, 9), (10, 8), (10, 9)];
    let white = [(6, 7), (6, 6), (10, 11)];
    position(rule, &black, &white, true)
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

fn empty_points(b: &Board) -> Vec<Point> {
    let n = b.size();
    (0..n * n)
        .map(|i| (i % n, i / n))
        .filter(|&p| b.stone(p).is_none())
        .collect()
}

/// Naive five test: would `side`'s stone at `p` complete a winning row under the rule?
fn makes_five_for(b: &Board, p: Point, side: Stone) -> bool {
    let n = b.size() as i32;
    let exact = match b.rule() {
        Rule::Freestyle => false,
        Rule::Standard => true,
        Rule::Renju => side == Stone::Black,
    };
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut len = 1;
        for sign in [1, -1] {
            let (mut x, mut y) = (p.0 as i32 + sign * dx, p.1 as i32 + sign * dy);
            while x >= 0
                && y >= 0
                && x < n
                && y < n
                && b.stone((x as usize, y as usize)) == Some(side)
            {
                len += 1;
                x += sign * dx;
                y += sign * dy;
            }
        }
        if exact { len == 5 } else { len >= 5 }
    })
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

// ---- properties ----------------------------------------------------------------------

/// Plays `picks` as indexes into the legal moves, stopping at a win or a full board.
fn random_game(size: usize, rule: Rule, picks: &[usize]) -> Board {
    let mut b = Board::new(size, rule).unwrap();
    for &k in picks {
        if b.winner().is_some() || b.is_full() {
            break;
        }
        let legal: Vec<Point> = empty_points(&b)
            .into_iter()
            .filter(|&p| b.is_legal(p))
            .collect();
        if legal.is_empty() {
            break;
        }
        // stay near the middle so shapes form
        b.play(legal[k % legal.len()]);
    }
    b
}

fn rule_of(k: u8) -> Rule {
    [Rule::Freestyle, Rule::Standard, Rule::Renju][k as usize % 3]
}

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

// ---- defence against the opponent's continuous fours -------------------------------

/// Naive check (independent of the engine's solver): does the side to move win by at
/// most `depth` continuous fours (each answered by the only block), ending in a five or in
/// two five points the defender can't both take?
fn has_vcf(b: &Board, depth: u32) -> bool {
    let me = b.to_move();
    let opp = me.opponent();
    let empty = empty_points(b);
    if empty
        .iter()
        .any(|&p| b.is_legal(p) && makes_five_for(b, p, me))
    {
        return true;
    }
    let opp_fives: Vec<Point> = empty
        .iter()
        .copied()
        .filter(|&p| makes_five_for(b, p, opp))
        .collect();
    if depth == 0 || opp_fives.len() > 1 {
        return false;
    }
    for &p in &empty {
        if !b.is_legal(p) || (!opp_fives.is_empty() && p != opp_fives[0]) {
            continue;
        }
        let mut c = b.clone();
        c.play(p);
        let mine: Vec<Point> = empty_points(&c)
            .into_iter()
            .filter(|&q| makes_five_for(&c, q, me))
            .collect();
        if mine.is_empty()
            || empty_points(&c)
                .iter()
                .any(|&q| c.is_legal(q) && makes_five_for(&c, q, opp))
        {
            continue;
        }
        if mine.len() >= 2 || !c.is_legal(mine[0]) {
            return true;
        }
        c.play(mine[0]);
        if has_vcf(&c, depth - 1) {
            return true;
        }
    }
    false
}

/// Under every rule, with white to move: black, given a free move, would win by
/// continuous fours, and a one-ply search must still play a move after which he can't.
fn assert_one_ply_search_stops_vcf(black: &[Point], white: &[Point]) {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let b = position(rule, black, white, false);
        let mut passed = b.clone();
        passed.play((13, 1));
        assert!(has_vcf(&passed, 3), "{rule:?}: black has no VCF to stop");
        let r = search(&b, &limits(1, 50_000), &Stop::never());
        assert!(b.is_legal(r.best), "{r:?}");
        let mut after = b.clone();
        after.play(r.best);
        assert!(
            !has_vcf(&after, 4),
            "{rule:?}: {:?} leaves a VCF: {r:?}",
            r.best
        );
    }
}

#[test]
fn stops_the_opponents_vcf() {
    // black (the opponent) threatens (8, 7): a four on row 7 and a three on column 8 at
    // once, then a straight four at (8, 8). White, to move, must break it now; a search one
    // ply deep can't see it, only the check of black's continuous fours can.
    let black = [(5, 7), (6, 7), (7, 7), (8, 5), (8, 6)];
    let white = [(4, 7), (8, 3), (2, 12), (12, 12)];
    assert_one_ply_search_stops_vcf(&black, &white);
}

#[test]
fn stops_a_vcf_that_starts_without_a_four_three() {
    // black (the opponent) wins by (9, 7) (a four; white must take (8, 7)), then (9, 8):
    // a four in column 9 and an open three in row 8. No cell makes a four-three yet, so
    // neither a one-ply search nor the quiescence VCF at its leaves sees the threat; only
    // the root check of black's continuous fours does. White's open two far off tempts
    // a one-ply search into making a three instead.
    let black = [(5, 7), (6, 7), (7, 7), (9, 5), (9, 6), (10, 8), (11, 8)];
    let white = [(4, 7), (9, 4), (2, 12), (3, 12)];
    assert_one_ply_search_stops_vcf(&black, &white);
}

// ---- ranked candidates (multi-PV) -----------------------------------------------------

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

#[test]
fn replay_accepts_a_finished_game_and_names_the_five() {
    let mut moves = black_five_on_row_7();
    let open = Board::replay(15, Rule::Freestyle, &moves[..8]).unwrap();
    assert!(open.five().is_empty());
    let won = Board::replay(15, Rule::Freestyle, &moves).unwrap();
    assert_eq!(won.winner(), Some(Stone::Black));
    assert_eq!(won.five(), (3..8).map(|x| (x, 7)).collect::<Vec<_>>());
    moves.push((1, 1));
    assert_eq!(
        Board::replay(15, Rule::Freestyle, &moves).err(),
        Some(PositionError::AfterWin { index: 9 })
    );
    let full = Board::replay(5, Rule::Standard, &drawn_5x5()).unwrap();
    assert!(full.is_full() && full.winner().is_none() && full.five().is_empty());
}

#[test]
fn forbidden_points_lists_every_forbidden_point_and_only_for_black() {
    let moves = DOUBLE_THREE_AHEAD;
    let b = Board::from_moves(15, Rule::Renju, &moves).unwrap();
    let listed = b.forbidden_points();
    assert!(listed.contains(&(8, 7)), "{listed:?}");
    for y in 0..15 {
        for x in 0..15 {
            assert_eq!(listed.contains(&(x, y)), b.is_forbidden((x, y)));
        }
    }
    assert!(
        Board::from_moves(15, Rule::Freestyle, &moves)
            .unwrap()
            .forbidden_points()
            .is_empty()
    );
    // white to move: nothing is forbidden to white
    let b = Board::from_moves(15, Rule::Renju, &moves[..7]).unwrap();
    assert!(b.forbidden_points().is_empty());
}
