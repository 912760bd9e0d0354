//! Defence against the opponent's continuous fours.

use super::*;

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
