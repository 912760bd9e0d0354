//! Renju: black's forbidden moves.

use super::*;

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
