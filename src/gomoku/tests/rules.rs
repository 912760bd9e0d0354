//! Board rules: sizes, move lists, wins per rule, the referee's view.

use super::*;

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
