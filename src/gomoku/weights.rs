//! The evaluation's weights, fitted to the outcomes of self-play games by the
//! tuning example (`gomoku_tune`, Texel's method).
//!
//! The value of a stone on a cell is `weights · cell_features(codes)`
//! (`patterns::cell_features`), with one set of weights for the side to move
//! and one for its opponent; a position's evaluation is the difference of the
//! two sides' sums over the empty cells, divided by [`VALUE_SCALE`], plus the
//! `threat` entry of the threats both sides have (`patterns::threat_index`).
//!
//! Freestyle and standard share one set for both colours. Renju has one set
//! for each colour, because the rule treats them differently: black's
//! three-three, four-four and overline points are forbidden, so a shape worth
//! much to white is worth little or nothing to black, and the threats a side
//! has mean different things with black or white to move. A stone of a colour
//! is weighed by that colour's `mover` weights when it is to move and by its
//! `opponent` weights otherwise; the `threat` table is the side to move's.
//! The five's weight is not fitted (a position with a five point is never
//! quiet) and only has to dwarf the rest.

use super::Rule;
use super::patterns::{DIRECTION_FEATURES, FEATURES, THREAT_MASKS};

/// One colour's evaluation weights.
#[derive(Debug)]
pub struct Weights {
    /// Cell weights of this colour's stones when it is to move.
    pub mover: [i32; FEATURES],
    /// Cell weights of this colour's stones when the other colour is to move.
    pub opponent: [i32; FEATURES],
    /// The term for which threats each side has, by `patterns::threat_index`,
    /// when this colour is to move (evaluation units).
    pub threat: [i32; THREAT_MASKS],
}

/// Evaluation units per unit of cell value.
pub const VALUE_SCALE: i32 = 16;

/// The weights of `side` (0 black, 1 white) under `rule`.
pub fn weights(rule: Rule, side: usize) -> &'static Weights {
    match (rule, side) {
        (Rule::Renju, 0) => &RENJU_BLACK,
        (Rule::Renju, _) => &RENJU_WHITE,
        (Rule::Freestyle | Rule::Standard, _) => &FREE,
    }
}

/// Both colours' weights under freestyle and standard.
pub const FREE: Weights = Weights {
    mover: [
        2, 23, 6, 130, 228, 511, 1615, 0, 16000, 1760, 7589, 51, 465, 825, 95,
    ],
    opponent: [
        0, 25, 1, 117, 161, 462, 1622, 0, 16000, 787, 4637, 0, 311, 602, 76,
    ],
    threat: threat_table(FREE_THREATS),
};

/// Black's weights under renju.
pub const RENJU_BLACK: Weights = Weights {
    mover: [
        2, 23, 6, 130, 228, 511, 1615, 0, 16000, 1760, 7589, 51, 465, 825, 95,
    ],
    opponent: [
        0, 25, 1, 117, 161, 462, 1622, 0, 16000, 787, 4637, 0, 311, 602, 76,
    ],
    threat: threat_table(RENJU_BLACK_THREATS),
};

/// White's weights under renju.
pub const RENJU_WHITE: Weights = Weights {
    mover: [
        2, 23, 6, 130, 228, 511, 1615, 0, 16000, 1760, 7589, 51, 465, 825, 95,
    ],
    opponent: [
        0, 25, 1, 117, 161, 462, 1622, 0, 16000, 787, 4637, 0, 311, 602, 76,
    ],
    threat: threat_table(RENJU_WHITE_THREATS),
};

// The threat tables as `(threat_index, value)` for the combinations that
// occur in play; any other is 0. The index's bits, high to low: the opponent
// has an open-three point, a four point, a three-three point, a four-three
// point, a straight-four point; then the side to move has an open-three
// point, a four point, a three-three point, a four-three point. The indices
// are grouped by side (five bits, four bits), not by nibble.

#[allow(clippy::unusual_byte_groupings)]
#[rustfmt::skip]
const FREE_THREATS: &[(u16, i32)] = &[
    (0b00000_0000, 2), (0b00000_0100, -38), (0b00000_1010, 320), (0b00000_1100, -55),
    (0b00000_1101, 41), (0b00000_1110, 376), (0b01000_0000, 64), (0b01000_0100, -11),
    (0b01000_1000, 63), (0b01000_1010, 376), (0b01000_1100, 8), (0b01000_1101, -389),
    (0b01000_1110, 375), (0b01001_0000, 188), (0b01001_0100, 206), (0b01001_1000, 214),
    (0b01001_1010, 152), (0b01001_1100, 170), (0b01001_1101, -185), (0b01001_1110, 140),
    (0b01001_1111, 219), (0b10000_0000, -36), (0b10000_0100, -77), (0b10000_1000, 21),
    (0b10000_1010, 515), (0b10000_1100, 32), (0b10000_1101, 255), (0b10000_1110, 499),
    (0b10000_1111, 238), (0b10100_0000, -109), (0b10100_0100, -54), (0b10100_1000, 5),
    (0b10100_1010, 519), (0b10100_1100, 80), (0b10100_1101, 238), (0b10100_1110, 502),
    (0b10100_1111, 229), (0b11000_0000, 2), (0b11000_0100, -23), (0b11000_1000, 48),
    (0b11000_1010, 238), (0b11000_1100, 48), (0b11000_1101, -104), (0b11000_1110, 289),
    (0b11000_1111, 281), (0b11001_0000, 104), (0b11001_0100, 61), (0b11001_1000, -2),
    (0b11001_1010, -62), (0b11001_1100, 9), (0b11001_1101, 444), (0b11001_1110, 5),
    (0b11001_1111, 434), (0b11010_0000, 340), (0b11010_0100, 211), (0b11010_1000, 206),
    (0b11010_1010, 124), (0b11010_1100, 200), (0b11010_1101, 427), (0b11010_1110, 209),
    (0b11010_1111, 507), (0b11011_0000, 309), (0b11011_0100, 241), (0b11011_1000, -148),
    (0b11011_1010, -242), (0b11011_1100, 107), (0b11011_1101, 934), (0b11011_1110, 91),
    (0b11011_1111, 969), (0b11100_0000, -111), (0b11100_0100, -51), (0b11100_1000, 27),
    (0b11100_1010, 300), (0b11100_1100, 77), (0b11100_1101, 667), (0b11100_1110, 288),
    (0b11100_1111, 405), (0b11101_0000, -57), (0b11101_0100, -51), (0b11101_1000, -454),
    (0b11101_1010, -466), (0b11101_1100, -136), (0b11101_1101, 431), (0b11101_1110, -50),
    (0b11101_1111, 713), (0b11110_0000, 156), (0b11110_0100, 89), (0b11110_1000, -137),
    (0b11110_1010, 100), (0b11110_1100, 166), (0b11110_1101, 852), (0b11110_1110, 262),
    (0b11110_1111, 343), (0b11111_0000, -84), (0b11111_0100, 128), (0b11111_1000, -374),
    (0b11111_1010, -344), (0b11111_1100, 93), (0b11111_1101, 865), (0b11111_1110, 229),
    (0b11111_1111, 1090),
];

#[allow(clippy::unusual_byte_groupings)]
#[rustfmt::skip]
const RENJU_BLACK_THREATS: &[(u16, i32)] = &[
    (0b00000_0000, 2), (0b00000_0100, -38), (0b00000_1010, 320), (0b00000_1100, -55),
    (0b00000_1101, 41), (0b00000_1110, 376), (0b01000_0000, 64), (0b01000_0100, -11),
    (0b01000_1000, 63), (0b01000_1010, 376), (0b01000_1100, 8), (0b01000_1101, -389),
    (0b01000_1110, 375), (0b01001_0000, 188), (0b01001_0100, 206), (0b01001_1000, 214),
    (0b01001_1010, 152), (0b01001_1100, 170), (0b01001_1101, -185), (0b01001_1110, 140),
    (0b01001_1111, 219), (0b10000_0000, -36), (0b10000_0100, -77), (0b10000_1000, 21),
    (0b10000_1010, 515), (0b10000_1100, 32), (0b10000_1101, 255), (0b10000_1110, 499),
    (0b10000_1111, 238), (0b10100_0000, -109), (0b10100_0100, -54), (0b10100_1000, 5),
    (0b10100_1010, 519), (0b10100_1100, 80), (0b10100_1101, 238), (0b10100_1110, 502),
    (0b10100_1111, 229), (0b11000_0000, 2), (0b11000_0100, -23), (0b11000_1000, 48),
    (0b11000_1010, 238), (0b11000_1100, 48), (0b11000_1101, -104), (0b11000_1110, 289),
    (0b11000_1111, 281), (0b11001_0000, 104), (0b11001_0100, 61), (0b11001_1000, -2),
    (0b11001_1010, -62), (0b11001_1100, 9), (0b11001_1101, 444), (0b11001_1110, 5),
    (0b11001_1111, 434), (0b11010_0000, 340), (0b11010_0100, 211), (0b11010_1000, 206),
    (0b11010_1010, 124), (0b11010_1100, 200), (0b11010_1101, 427), (0b11010_1110, 209),
    (0b11010_1111, 507), (0b11011_0000, 309), (0b11011_0100, 241), (0b11011_1000, -148),
    (0b11011_1010, -242), (0b11011_1100, 107), (0b11011_1101, 934), (0b11011_1110, 91),
    (0b11011_1111, 969), (0b11100_0000, -111), (0b11100_0100, -51), (0b11100_1000, 27),
    (0b11100_1010, 300), (0b11100_1100, 77), (0b11100_1101, 667), (0b11100_1110, 288),
    (0b11100_1111, 405), (0b11101_0000, -57), (0b11101_0100, -51), (0b11101_1000, -454),
    (0b11101_1010, -466), (0b11101_1100, -136), (0b11101_1101, 431), (0b11101_1110, -50),
    (0b11101_1111, 713), (0b11110_0000, 156), (0b11110_0100, 89), (0b11110_1000, -137),
    (0b11110_1010, 100), (0b11110_1100, 166), (0b11110_1101, 852), (0b11110_1110, 262),
    (0b11110_1111, 343), (0b11111_0000, -84), (0b11111_0100, 128), (0b11111_1000, -374),
    (0b11111_1010, -344), (0b11111_1100, 93), (0b11111_1101, 865), (0b11111_1110, 229),
    (0b11111_1111, 1090),
];

#[allow(clippy::unusual_byte_groupings)]
#[rustfmt::skip]
const RENJU_WHITE_THREATS: &[(u16, i32)] = &[
    (0b00000_0000, 2), (0b00000_0100, -38), (0b00000_1010, 320), (0b00000_1100, -55),
    (0b00000_1101, 41), (0b00000_1110, 376), (0b01000_0000, 64), (0b01000_0100, -11),
    (0b01000_1000, 63), (0b01000_1010, 376), (0b01000_1100, 8), (0b01000_1101, -389),
    (0b01000_1110, 375), (0b01001_0000, 188), (0b01001_0100, 206), (0b01001_1000, 214),
    (0b01001_1010, 152), (0b01001_1100, 170), (0b01001_1101, -185), (0b01001_1110, 140),
    (0b01001_1111, 219), (0b10000_0000, -36), (0b10000_0100, -77), (0b10000_1000, 21),
    (0b10000_1010, 515), (0b10000_1100, 32), (0b10000_1101, 255), (0b10000_1110, 499),
    (0b10000_1111, 238), (0b10100_0000, -109), (0b10100_0100, -54), (0b10100_1000, 5),
    (0b10100_1010, 519), (0b10100_1100, 80), (0b10100_1101, 238), (0b10100_1110, 502),
    (0b10100_1111, 229), (0b11000_0000, 2), (0b11000_0100, -23), (0b11000_1000, 48),
    (0b11000_1010, 238), (0b11000_1100, 48), (0b11000_1101, -104), (0b11000_1110, 289),
    (0b11000_1111, 281), (0b11001_0000, 104), (0b11001_0100, 61), (0b11001_1000, -2),
    (0b11001_1010, -62), (0b11001_1100, 9), (0b11001_1101, 444), (0b11001_1110, 5),
    (0b11001_1111, 434), (0b11010_0000, 340), (0b11010_0100, 211), (0b11010_1000, 206),
    (0b11010_1010, 124), (0b11010_1100, 200), (0b11010_1101, 427), (0b11010_1110, 209),
    (0b11010_1111, 507), (0b11011_0000, 309), (0b11011_0100, 241), (0b11011_1000, -148),
    (0b11011_1010, -242), (0b11011_1100, 107), (0b11011_1101, 934), (0b11011_1110, 91),
    (0b11011_1111, 969), (0b11100_0000, -111), (0b11100_0100, -51), (0b11100_1000, 27),
    (0b11100_1010, 300), (0b11100_1100, 77), (0b11100_1101, 667), (0b11100_1110, 288),
    (0b11100_1111, 405), (0b11101_0000, -57), (0b11101_0100, -51), (0b11101_1000, -454),
    (0b11101_1010, -466), (0b11101_1100, -136), (0b11101_1101, 431), (0b11101_1110, -50),
    (0b11101_1111, 713), (0b11110_0000, 156), (0b11110_0100, 89), (0b11110_1000, -137),
    (0b11110_1010, 100), (0b11110_1100, 166), (0b11110_1101, 852), (0b11110_1110, 262),
    (0b11110_1111, 343), (0b11111_0000, -84), (0b11111_0100, 128), (0b11111_1000, -374),
    (0b11111_1010, -344), (0b11111_1100, 93), (0b11111_1101, 865), (0b11111_1110, 229),
    (0b11111_1111, 1090),
];

const fn threat_table(entries: &[(u16, i32)]) -> [i32; THREAT_MASKS] {
    let mut table = [0; THREAT_MASKS];
    let mut i = 0;
    while i < entries.len() {
        let (index, value) = entries[i];
        table[index as usize] = value;
        i += 1;
    }
    table
}

/// More than any cell's value: four directions at the largest direction
/// weight, and every bonus at once.
const fn cell_value_bound(weights: &[i32; FEATURES]) -> i64 {
    let (mut dir, mut bonus, mut i) = (0, 0, 0);
    while i < FEATURES {
        if i < DIRECTION_FEATURES {
            if weights[i] > dir {
                dir = weights[i];
            }
        } else {
            bonus += weights[i];
        }
        i += 1;
    }
    4 * dir as i64 + bonus as i64
}

/// Whether a board's sum of cell values (at most 484 cells) fits its 32-bit lane.
const fn fits_a_lane(w: &Weights) -> bool {
    484 * cell_value_bound(&w.mover) <= i32::MAX as i64
        && 484 * cell_value_bound(&w.opponent) <= i32::MAX as i64
}
const _: () = assert!(
    fits_a_lane(&FREE) && fits_a_lane(&RENJU_BLACK) && fits_a_lane(&RENJU_WHITE),
    "value sums overflow their lane"
);
