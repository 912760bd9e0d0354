//! Line pattern tables.
//!
//! A cell's situation in one direction, for one side, is read from the 11-cell window
//! centred on it (five cells each way): each neighbour is own, empty, or blocked
//! (opponent stone or off the board). The table tells what a stone of that side placed
//! on the centre would make in that line. It is computed over the 3^10 valid windows in
//! base 3, then spread into a table indexed by the raw bit masks. Two tables: "five or more wins" and "exactly five
//! wins" (an overline is then no five). Five cells each way are exactly what the exact
//! rule needs to tell a five from an overline.
//!
//! The cell table combines a cell's four direction codes (4 bits each) into an evaluation
//! value and threat flags.

use std::sync::OnceLock;

/// Nothing can come of this line.
pub const NONE: u8 = 0;
/// A lone stone with room: can grow into a two.
pub const ONE: u8 = 1;
/// A two that can only grow into a closed three.
pub const B2: u8 = 2;
/// An open two: can grow into an open three.
pub const F2: u8 = 3;
/// A closed three: can become a (closed) four.
pub const B3: u8 = 4;
/// An open three: one more stone makes a straight four.
pub const F3: u8 = 5;
/// A four: exactly one point completes a five.
pub const B4: u8 = 6;
/// A straight four: two points a five apart both complete it.
pub const F4: u8 = 7;
/// Two fours in one line (like `X.XXX.X`): two separate completion points.
pub const F44: u8 = 8;
/// A five (under the exact rule: exactly five).
pub const F5: u8 = 9;
/// Six or more in a row under the exact rule: not a five.
pub const OVER: u8 = 10;

/// The cell completes a five for this side.
pub const FL_FIVE: u8 = 1;
/// The cell makes at least one four.
pub const FL_FOUR: u8 = 2;
/// The cell makes a straight four or two fours: a win next move unless the opponent has a five.
pub const FL_OPEN4: u8 = 4; // (bit 2: the board counts with `>> 2`)
/// The cell makes at least one open three.
pub const FL_THREE: u8 = 8;
/// Four-three or three-three: a win threat that only fours can delay.
pub const FL_DOUBLE: u8 = 16;
/// For black under renju this cell may be forbidden (overline, two fours, two threes, no five).
pub const FL_MAYBE_FORBIDDEN: u8 = 32;

/// A cell's values and threat flags for one side, packed in one word so that the board
/// can sum them: the value of a stone here to the side to move (bits 0..32) and to the
/// side that has just moved (bits 32..64), then how many cells complete a five, make a
/// straight four or two fours, a four and an open three, two open threes, a four, an
/// open three (9 bits each, from bit 64, in [`Lane`] order), and the flags (bits
/// 120..128). The 9-bit lanes hold any count of cells (at most 484) and 32 bits any
/// value sum. Lane totals never go negative, so sums of whole words stay exact under
/// wrapping arithmetic; the flag bits of a sum are meaningless (and carry out of the
/// word, not into the lanes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellInfo(u128);

/// The counting lanes of a [`CellInfo`]: how many empty cells let a side make...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// ... a five;
    Five,
    /// ... a straight four or two fours;
    Open4,
    /// ... a four and an open three at once;
    FourThree,
    /// ... two open threes (and no four);
    ThreeThree,
    /// ... at least one four;
    Four,
    /// ... at least one open three.
    Three,
}

const LANE_BITS: u32 = 9;
const LANES_SHIFT: u32 = 64;
const FLAGS_SHIFT: u32 = 120;
const _: () = assert!(LANES_SHIFT + 6 * LANE_BITS <= FLAGS_SHIFT);

impl Lane {
    /// The count in this lane of a word of lane sums.
    #[inline]
    pub fn count(self, lanes: u128) -> i32 {
        (lanes >> (LANES_SHIFT + LANE_BITS * self as u32) & ((1 << LANE_BITS) - 1)) as i32
    }

    #[inline]
    fn one(self) -> u128 {
        1 << (LANES_SHIFT + LANE_BITS * self as u32)
    }
}

impl CellInfo {
    /// The word the board adds to its per-side sums.
    #[inline]
    pub fn lanes(self) -> u128 {
        self.0
    }

    /// Value of a stone here for the side to move.
    #[inline]
    pub fn mover_value(self) -> i32 {
        mover_value(self.0)
    }

    /// Value of a stone here for the side that has just moved.
    #[inline]
    pub fn opponent_value(self) -> i32 {
        opponent_value(self.0)
    }

    /// `FL_*` threat flags.
    #[inline]
    pub fn flags(self) -> u8 {
        (self.0 >> FLAGS_SHIFT) as u8
    }
}

/// The side-to-move value sum of a word of lane sums.
#[inline]
pub fn mover_value(lanes: u128) -> i32 {
    lanes as u32 as i32
}

/// The opponent value sum of a word of lane sums.
#[inline]
pub fn opponent_value(lanes: u128) -> i32 {
    (lanes >> 32) as u32 as i32
}

/// Which threats a side has anywhere (bits of [`threat_index`]'s arguments):
/// a straight-four point, a four-three point, a three-three point, a four point, an
/// open-three point.
pub const HAS_OPEN4: u8 = 1;
/// See [`HAS_OPEN4`].
pub const HAS_FOUR_THREE: u8 = 2;
/// See [`HAS_OPEN4`].
pub const HAS_THREE_THREE: u8 = 4;
/// See [`HAS_OPEN4`].
pub const HAS_FOUR: u8 = 8;
/// See [`HAS_OPEN4`].
pub const HAS_THREE: u8 = 16;

/// The `HAS_*` bits of a side's word of lane sums.
#[inline]
pub fn threats(lanes: u128) -> u8 {
    [
        (Lane::Open4, HAS_OPEN4),
        (Lane::FourThree, HAS_FOUR_THREE),
        (Lane::ThreeThree, HAS_THREE_THREE),
        (Lane::Four, HAS_FOUR),
        (Lane::Three, HAS_THREE),
    ]
    .into_iter()
    .fold(0, |m, (lane, bit)| {
        m | if lane.count(lanes) > 0 { bit } else { 0 }
    })
}

/// Entries of [`THREAT`].
pub const THREAT_MASKS: usize = 512;

/// The [`THREAT`] entry of a position where the side to move has the threats
/// `mover` and its opponent `opponent` (`HAS_*` bits). The mover's straight-four
/// point is left out: with one, the position is won or (renju) about to be decided by
/// search, and it is never evaluated by this table's fit.
#[inline]
pub fn threat_index(mover: u8, opponent: u8) -> usize {
    (mover >> 1) as usize | (opponent as usize) << 4
}

#[derive(Debug)]
pub struct Tables {
    /// `[free, exact]` line tables over pairs of 10-cell windows in base 3, index
    /// `base3(x) + 2 · base3(y)`: the low nibble is the code for x's side with y blocked,
    /// the high nibble the code for y's side with x blocked. 64 KiB each (59,049 used),
    /// so a search keeps them in cache; the size is a power of two so that a masked index
    /// needs no bounds check.
    pub line: [Box<[u8; LINE_LEN]>; 2],
    /// Base-3 value of an 11-cell window's bits, the centre left out.
    pub base3: Box<[u16; 2048]>,
    /// Indexed by the four packed direction codes.
    pub cell: Box<[CellInfo; 1 << 16]>,
}

pub const LINE_LEN: usize = 1 << 16;

pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// Black's and white's codes for the empty centre of a window: `b`, `w` and `wall` hold
/// black stones, white stones and off-board cells from bit 0 (five cells each way of the
/// centre at bit 5; higher bits are ignored). `lines` are black's and white's line tables
/// (they differ under renju). The wall blocks both sides, so it joins the opponent's
/// stones in each side's lookup.
#[inline]
pub fn window_codes(
    base3: &[u16; 2048],
    lines: [&[u8; LINE_LEN]; 2],
    b: u32,
    w: u32,
    wall: u32,
) -> (u8, u8) {
    let t = |m: u32| base3[(m & 0x7FF) as usize] as usize;
    let black = t(b) + 2 * t(w | wall);
    let white = t(b | wall) + 2 * t(w);
    (
        lines[0][black & (LINE_LEN - 1)] & 0xF,
        lines[1][white & (LINE_LEN - 1)] >> 4,
    )
}

#[inline]
fn compress(w: u32) -> u32 {
    (w & 0x1F) | ((w >> 6) & 0x1F) << 5
}

fn expand(w: u32) -> u32 {
    (w & 0x1F) | (w & 0x3E0) << 1
}

/// Length of the run of own stones through the centre (bit 5).
fn run_len(own: u32) -> u32 {
    let mut len = 1;
    let mut i = 4i32;
    while i >= 0 && own >> i & 1 == 1 {
        len += 1;
        i -= 1;
    }
    let mut i = 6;
    while i <= 10 && own >> i & 1 == 1 {
        len += 1;
        i += 1;
    }
    len
}

fn is_five(len: u32, exact: bool) -> bool {
    if exact { len == 5 } else { len >= 5 }
}

fn classify(own10: u32, blk10: u32, exact: bool, base3: &[u16; 1024], table: &[u8]) -> u8 {
    let own = expand(own10) | 1 << 5;
    let blk = expand(blk10);
    let len = run_len(own);
    if len >= 5 {
        return if is_five(len, exact) { F5 } else { OVER };
    }
    let empty = |q: u32| (own | blk) >> q & 1 == 0;
    let mut fives = [0u32; 8];
    let mut n5 = 0;
    for q in 1..=9 {
        if q != 5 && empty(q) && is_five(run_len(own | 1 << q), exact) {
            fives[n5] = q;
            n5 += 1;
        }
    }
    match n5 {
        1 => return B4,
        2 if fives[1] - fives[0] == 5 => return F4,
        0 => {}
        _ => return F44,
    }
    let mut best = NONE;
    for q in 1..=9 {
        if q == 5 || !empty(q) {
            continue;
        }
        let own2 = compress(own | 1 << q) as usize;
        let next = table[base3[own2] as usize + 2 * base3[blk10 as usize] as usize];
        let level = match next {
            F4 | F44 => F3,
            B4 => B3,
            F3 => F2,
            B3 => B2,
            F2 | B2 => ONE,
            _ => NONE,
        };
        best = best.max(level);
    }
    best
}

fn build_line(exact: bool, base3: &[u16; 1024]) -> Vec<u8> {
    let mut combos: Vec<(u32, u32)> = Vec::with_capacity(59049);
    for own in 0u32..1024 {
        let free = !own & 0x3FF;
        // every subset of the free cells is a blocked mask
        let mut blk = free;
        loop {
            combos.push((own, blk));
            if blk == 0 {
                break;
            }
            blk = (blk - 1) & free;
        }
    }
    // a window's code depends on windows with one more own stone: fill those first
    combos.sort_by_key(|&(own, _)| std::cmp::Reverse(own.count_ones()));
    let mut table = vec![NONE; 59049];
    for (own, blk) in combos {
        let idx = base3[own as usize] as usize + 2 * base3[blk as usize] as usize;
        table[idx] = classify(own, blk, exact, base3, &table);
    }
    table
}

/// How many evaluation features a cell has (see [`cell_features`]).
pub const FEATURES: usize = 15;

/// The first features count the directions holding each line code from [`ONE`]
/// to [`F44`]; the bonus features follow, at these indices.
const DIRECTION_FEATURES: usize = 8;
/// The cell completes a five (only on the board to dwarf every other value).
pub const FIVE_FEATURE: usize = 8;
pub(crate) const OPEN4_FEATURE: usize = 9;
pub(crate) const FOUR_THREE_FEATURE: usize = 10;
pub(crate) const THREE_THREE_FEATURE: usize = 11;
const THREE_TWO_FEATURE: usize = 12;
const FOUR_TWO_FEATURE: usize = 13;
const TWO_TWOS_FEATURE: usize = 14;

/// What each evaluation feature counts, for the tuning tool's report.
#[cfg_attr(not(any(test, feature = "testkit")), allow(dead_code))]
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "one",
    "closed two",
    "open two",
    "closed three",
    "open three",
    "four",
    "straight four",
    "double four in a line",
    "five",
    "straight four or two fours",
    "four-three",
    "three-three",
    "three and a two",
    "four and a two",
    "two open twos",
];

/// The value of a stone on a cell is `weights · cell_features(codes)`, with
/// one set of weights for the side to move and one for its opponent; a
/// position's evaluation is the difference of the two sides' sums over the
/// empty cells, divided by [`VALUE_SCALE`], plus the [`THREAT`] entry of the
/// threats both sides have. Fitted to self-play outcomes by the tuning
/// example (`gomoku_tune`); the five's weight is not fitted (a position with a
/// five point is never quiet) and only has to dwarf the rest.
pub const MOVER_WEIGHTS: [i32; FEATURES] = [
    2, 23, 6, 130, 228, 511, 1615, 0, 16000, 1760, 7589, 51, 465, 825, 95,
];
/// See [`MOVER_WEIGHTS`].
pub const OPPONENT_WEIGHTS: [i32; FEATURES] = [
    0, 25, 1, 117, 161, 462, 1622, 0, 16000, 787, 4637, 0, 311, 602, 76,
];
/// Evaluation units per unit of cell value.
pub const VALUE_SCALE: i32 = 16;

/// The evaluation's term for which threats each side has (evaluation units):
/// `(threat_index, value)` for the combinations that occur in play; any other
/// is 0. The index's bits, high to low: the opponent has an open-three point,
/// a four point, a three-three point, a four-three point, a straight-four
/// point; then the side to move has an open-three point, a four point, a
/// three-three point, a four-three point.
// the indices are grouped by side (five bits, four bits), not by nibble
#[allow(clippy::unusual_byte_groupings)]
#[rustfmt::skip]
const THREAT_ENTRIES: &[(u16, i32)] = &[
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

/// [`THREAT_ENTRIES`] by [`threat_index`].
pub const THREAT: [i32; THREAT_MASKS] = {
    let mut table = [0; THREAT_MASKS];
    let mut i = 0;
    while i < THREAT_ENTRIES.len() {
        let (index, value) = THREAT_ENTRIES[i];
        table[index as usize] = value;
        i += 1;
    }
    table
};

/// More than any cell's value: four directions at the largest direction
/// weight, and every bonus at once.
const fn cell_value_bound(weights: &[i32; FEATURES]) -> i32 {
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
    4 * dir + bonus
}
const _: () = assert!(
    484 * cell_value_bound(&MOVER_WEIGHTS) as i64 <= i32::MAX as i64
        && 484 * cell_value_bound(&OPPONENT_WEIGHTS) as i64 <= i32::MAX as i64,
    "value sums overflow their lane"
);

/// A cell's evaluation features for one side, from its four direction codes:
/// how many directions hold each code from [`ONE`] to [`F44`], then one each
/// for a five, a straight four (or two fours), a four-three, a three-three, an
/// open three beside a two or closed three, a four beside a two or closed
/// three, and two open twos with nothing bigger.
pub fn cell_features(codes: [u8; 4]) -> [u8; FEATURES] {
    let mut f = [0u8; FEATURES];
    let count = |k: u8| codes.iter().filter(|&&c| c == k).count() as u8;
    for (i, k) in (ONE..=F44).enumerate() {
        f[i] = count(k);
    }
    let fours = count(B4) + count(F4) + 2 * count(F44);
    let threes = count(F3);
    let twos = count(F2) + count(B3);
    let open4 = count(F4) > 0 || fours >= 2;
    f[FIVE_FEATURE] = codes.contains(&F5) as u8;
    f[OPEN4_FEATURE] = open4 as u8;
    f[FOUR_THREE_FEATURE] = (!open4 && fours > 0 && threes > 0) as u8;
    f[THREE_THREE_FEATURE] = (!open4 && fours == 0 && threes >= 2) as u8;
    f[THREE_TWO_FEATURE] = (fours == 0 && threes == 1 && twos > 0) as u8;
    f[FOUR_TWO_FEATURE] = (fours == 1 && !open4 && threes == 0 && twos > 0) as u8;
    f[TWO_TWOS_FEATURE] = (fours == 0 && threes == 0 && count(F2) >= 2) as u8;
    f
}

/// `weights · features`, for one cell's features or a side's sums of them.
pub fn weighted<F: Copy + Into<i64>>(features: &[F; FEATURES], weights: &[i32; FEATURES]) -> i64 {
    features
        .iter()
        .zip(weights)
        .map(|(&f, &w)| f.into() * w as i64)
        .sum()
}

pub fn cell_info(codes: [u8; 4]) -> CellInfo {
    let features = cell_features(codes);
    let five = features[FIVE_FEATURE] > 0;
    let count = |code: u8| features[(code - ONE) as usize];
    let fours = count(B4) + count(F4) + 2 * count(F44);
    let threes = count(F3);
    let over = codes.contains(&OVER);
    let open4 = features[OPEN4_FEATURE] > 0;
    let mut flags = 0;
    if five {
        flags |= FL_FIVE;
    }
    if fours > 0 {
        flags |= FL_FOUR;
    }
    if open4 {
        flags |= FL_OPEN4;
    }
    if threes > 0 {
        flags |= FL_THREE;
    }
    if features[FOUR_THREE_FEATURE] + features[THREE_THREE_FEATURE] > 0 {
        flags |= FL_DOUBLE;
    }
    if !five && (over || fours >= 2 || threes >= 2) {
        flags |= FL_MAYBE_FORBIDDEN;
    }
    let value = |weights| weighted(&features, weights).max(0) as u32 as u128;
    let lane = |lane: Lane, on: bool| if on { lane.one() } else { 0 };
    CellInfo(
        value(&MOVER_WEIGHTS)
            | value(&OPPONENT_WEIGHTS) << 32
            | lane(Lane::Five, five)
            | lane(Lane::Open4, open4)
            | lane(Lane::FourThree, features[FOUR_THREE_FEATURE] > 0)
            | lane(Lane::ThreeThree, features[THREE_THREE_FEATURE] > 0)
            | lane(Lane::Four, fours > 0)
            | lane(Lane::Three, threes > 0)
            | (flags as u128) << FLAGS_SHIFT,
    )
}

fn build() -> Tables {
    let mut base3 = [0u16; 1024];
    for (m, b) in base3.iter_mut().enumerate() {
        let mut v = 0u32;
        for bit in (0..10).rev() {
            v = v * 3 + (m as u32 >> bit & 1);
        }
        *b = v as u16;
    }
    let single = [build_line(false, &base3), build_line(true, &base3)];
    let line = [0, 1].map(|e| {
        let mut t = vec![NONE; LINE_LEN];
        for x in 0..1024usize {
            for y in 0..1024usize {
                if x & y == 0 {
                    let (bx, by) = (base3[x] as usize, base3[y] as usize);
                    t[bx + 2 * by] = single[e][bx + 2 * by] | single[e][by + 2 * bx] << 4;
                }
            }
        }
        t.into_boxed_slice().try_into().expect("table size")
    });
    let base3_11: Vec<u16> = (0..2048u32).map(|m| base3[compress(m) as usize]).collect();
    let base3 = base3_11.into_boxed_slice().try_into().expect("table size");
    let cell: Vec<CellInfo> = (0..65536u32)
        .map(|key| {
            let codes = [0, 1, 2, 3].map(|d| (key >> (4 * d) & 0xF) as u8);
            if codes.iter().any(|&c| c > OVER) {
                CellInfo::default()
            } else {
                cell_info(codes)
            }
        })
        .collect();
    let cell = cell.into_boxed_slice().try_into().expect("table size");
    Tables { line, base3, cell }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a window from a string like "..XX_X..." where `_` is the centre.
    fn code(s: &str, exact: bool) -> u8 {
        let cells: Vec<char> = s.chars().collect();
        let c = cells.iter().position(|&ch| ch == '_').expect("centre");
        let (mut own, mut blk) = (0u32, 0u32);
        for k in -5i32..=5 {
            let i = c as i32 + k;
            let bit = (k + 5) as u32;
            let ch = if i < 0 || i >= cells.len() as i32 {
                '|'
            } else {
                cells[i as usize]
            };
            match ch {
                'X' => own |= 1 << bit,
                'O' | '|' => blk |= 1 << bit,
                _ => {}
            }
        }
        let t = tables();
        let line = &*t.line[exact as usize];
        window_codes(&t.base3, [line, line], own, blk, 0).0
    }

    /// What lets the board refresh only four cells out after most stones: the cells
    /// five out matter under the exact rule alone, and only when they hold an own stone.
    #[test]
    fn only_an_own_stone_counts_five_cells_out() {
        let t = tables();
        for exact in [false, true] {
            let line = &*t.line[exact as usize];
            let code = |own: u32, blk: u32| window_codes(&t.base3, [line, line], own, blk, 0).0;
            for own in 0u32..2048 {
                for blk in 0u32..2048 {
                    if own & blk != 0 || (own | blk) & 1 << 5 != 0 {
                        continue;
                    }
                    for end in [0, 10] {
                        let (o, b) = (own & !(1 << end), blk & !(1 << end));
                        let empty = code(o, b);
                        assert_eq!(code(o, b | 1 << end), empty, "blocked end {own:b} {blk:b}");
                        if !exact {
                            assert_eq!(code(o | 1 << end, b), empty, "own end {own:b} {blk:b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn line_codes() {
        assert_eq!(code("..XX_X...", false), F4);
        assert_eq!(code("OXX_X....", false), B4);
        assert_eq!(code("..X_X....", false), F3);
        assert_eq!(code(".X.X_....", false), F3);
        assert_eq!(code("OX_X.....", false), B3);
        assert_eq!(code("XXXX_X", false), F5);
        assert_eq!(code("XXXX_X", true), OVER);
        assert_eq!(code(".XXXX_.", true), F5);
        assert_eq!(code("X.XX_.X", true), F44);
        assert_eq!(code("X.X_X.X", false), F44);
        // the straight four's left end would make six: only one true five point
        assert_eq!(code("X.XX_X.", true), B4);
        assert_eq!(code("X.XX_X.", false), F4);
        assert_eq!(code("..._....", false), ONE);
        assert_eq!(code("OX_XO", false), NONE);
        assert_eq!(code("|_X..", false), NONE);
        assert_eq!(code("|_X....", false), B2);
        assert_eq!(code("..._X...", false), F2);
    }
}
