//! Evaluation features of whole positions, for fitting the evaluation to game
//! outcomes (the `gomoku_tune` example). A test fixture behind the `testkit`
//! feature, not part of the API.
//!
//! The search's static evaluation is linear in these features: each side's
//! value is the sum, over the empty cells, of `weights · features` of a stone
//! of that side there (the side to move's weights for the side to move, the
//! opponent's for the other), the evaluation is the difference of the two
//! values over `VALUE_SCALE`, plus the `THREAT` entry of the threats each
//! side has (`threat_index`).

use super::Board;
use super::patterns::cell_features;

pub use super::patterns::{
    FEATURE_NAMES, FEATURES, FIVE_FEATURE, MOVER_WEIGHTS, OPPONENT_WEIGHTS, THREAT, THREAT_MASKS,
    VALUE_SCALE, threat_index, weighted,
};

/// One side's feature counts, summed over the empty cells.
pub type SideFeatures = [u32; FEATURES];

/// A quiet position's features: each side's feature sums, and the index of
/// its entry in `THREAT`.
pub struct QuietFeatures {
    /// The side to move's feature sums.
    pub mover: SideFeatures,
    /// Its opponent's.
    pub opponent: SideFeatures,
    /// `threat_index` of the threats both sides have.
    pub threats: usize,
}

/// The features of `board`, or `None` when the position is not quiet:
/// someone has a five point, or the side to move has a straight four (a won
/// position says nothing about the weights).
pub fn quiet_features(board: &Board) -> Option<QuietFeatures> {
    let s = board.side();
    let o = 1 - s;
    if board.five_count(s) > 0 || board.five_count(o) > 0 || board.open4_count(s) > 0 {
        return None;
    }
    let mut sums = [[0u32; FEATURES]; 2];
    for c in 0..board.cells_len() {
        if !board.is_empty_idx(c) {
            continue;
        }
        for (side, sum) in sums.iter_mut().enumerate() {
            let codes = [0, 1, 2, 3].map(|d| board.code(c, side, d));
            for (t, f) in sum.iter_mut().zip(cell_features(codes)) {
                *t += f as u32;
            }
        }
    }
    Some(QuietFeatures {
        mover: sums[s],
        opponent: sums[o],
        threats: threat_index(board.threats(s), board.threats(o)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::Rule;

    #[test]
    fn features_reproduce_the_boards_value_sums() {
        for moves in [
            vec![(7, 7), (8, 8), (7, 8), (9, 9), (7, 9)],
            vec![(7, 7), (8, 7), (6, 8), (9, 6), (4, 4), (10, 10), (5, 9)],
        ] {
            let b = Board::from_moves(15, Rule::Freestyle, &moves).unwrap();
            let (s, o) = (b.side(), 1 - b.side());
            let f = quiet_features(&b).expect("a quiet position");
            assert_eq!(
                weighted(&f.mover, &MOVER_WEIGHTS),
                b.mover_value_sum(s) as i64
            );
            assert_eq!(
                weighted(&f.opponent, &OPPONENT_WEIGHTS),
                b.opponent_value_sum(o) as i64
            );
            assert_eq!(
                weighted(&f.mover, &OPPONENT_WEIGHTS),
                b.opponent_value_sum(s) as i64
            );
        }
    }

    /// The board counts each side's threats incrementally; the features count
    /// the same shapes cell by cell.
    #[test]
    fn the_boards_threat_bits_match_the_features() {
        use crate::gomoku::patterns::{
            B4, F3, F4, F44, FOUR_THREE_FEATURE, HAS_FOUR, HAS_FOUR_THREE, HAS_OPEN4, HAS_THREE,
            HAS_THREE_THREE, ONE, OPEN4_FEATURE, THREE_THREE_FEATURE,
        };
        // the first features count the directions holding each code from ONE on
        let directions = |f: &SideFeatures, code: u8| f[(code - ONE) as usize];
        let bits = |f: &SideFeatures| {
            let has = |on: bool, bit: u8| if on { bit } else { 0 };
            has(f[OPEN4_FEATURE] > 0, HAS_OPEN4)
                | has(f[FOUR_THREE_FEATURE] > 0, HAS_FOUR_THREE)
                | has(f[THREE_THREE_FEATURE] > 0, HAS_THREE_THREE)
                | has(
                    directions(f, B4) + directions(f, F4) + directions(f, F44) > 0,
                    HAS_FOUR,
                )
                | has(directions(f, F3) > 0, HAS_THREE)
        };
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let mut b = Board::new(15, Rule::Freestyle).unwrap();
            for _ in 0..40 {
                let p = (3 + rng.below(9), 3 + rng.below(9));
                if !b.is_legal(p) {
                    continue;
                }
                b.play(p);
                if b.winner().is_some() {
                    break;
                }
                if let Some(f) = quiet_features(&b) {
                    let (s, o) = (b.side(), 1 - b.side());
                    assert_eq!(bits(&f.mover), b.threats(s));
                    assert_eq!(bits(&f.opponent), b.threats(o));
                    assert_eq!(f.threats, threat_index(bits(&f.mover), bits(&f.opponent)));
                    seen.insert(f.threats);
                }
            }
        }
        // the random games reach many threat combinations, not just a few
        assert!(seen.len() > 40, "only {} masks", seen.len());
    }

    #[test]
    fn a_position_with_a_five_point_is_not_quiet() {
        let moves = [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7)];
        let b = Board::from_moves(15, Rule::Freestyle, &moves).unwrap();
        assert!(quiet_features(&b).is_none());
    }
}
