//! Evaluation features of whole positions, for fitting the cell weights to
//! game outcomes (the `gomoku_tune` example). A test fixture behind the
//! `testkit` feature, not part of the API.
//!
//! The search's static evaluation is linear in these features: each side's
//! value is the sum, over the empty cells, of `WEIGHTS · features` of a stone
//! of that side there, and the evaluation is `(mover · 5/4 − opponent) / 4`.

use super::Board;
use super::patterns::{self, cell_features};

pub use super::patterns::{FEATURE_NAMES, FEATURES, FIVE_FEATURE, WEIGHTS};
pub use super::search::INITIATIVE;

/// One side's feature counts, summed over the empty cells.
pub type SideFeatures = [u32; FEATURES];

/// The feature sums of the side to move and of its opponent, or `None` when
/// the position is not quiet: someone has a five point, or the side to move
/// has a straight four (a won position says nothing about the weights).
pub fn quiet_features(board: &Board) -> Option<(SideFeatures, SideFeatures)> {
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
    Some((sums[s], sums[o]))
}

/// The value sum a side's features give under `WEIGHTS` (what the board
/// keeps incrementally), for checking the features against the board.
pub fn weighted(features: &SideFeatures) -> i64 {
    features
        .iter()
        .zip(patterns::WEIGHTS)
        .map(|(&f, w)| f as i64 * w as i64)
        .sum()
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
            let (me, op) = quiet_features(&b).expect("a quiet position");
            assert_eq!(weighted(&me), b.value_sum(b.side()) as i64);
            assert_eq!(weighted(&op), b.value_sum(1 - b.side()) as i64);
        }
    }

    #[test]
    fn a_position_with_a_five_point_is_not_quiet() {
        let moves = [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7)];
        let b = Board::from_moves(15, Rule::Freestyle, &moves).unwrap();
        assert!(quiet_features(&b).is_none());
    }
}
