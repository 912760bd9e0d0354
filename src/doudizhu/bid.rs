//! Dou Dizhu bid policy.
//!
//! # Bidding rule adopted
//!
//! Three players bid once each, in turn, starting with the first bidder. A bid
//! is 0 (pass) or 1–3 and must be higher than every earlier bid; a bid of 3
//! ends the bidding at once. So a request may carry at most two earlier bids,
//! none of them 3, and each non-zero one strictly above the ones before it.
//! (If all three pass the hand is redealt — the caller's business.)
//!
//! # Hand strength
//!
//! [`strength`] = control points + shape points:
//! * control: red joker 4, black joker 3 (the rocket together: 8, one more
//!   for holding both), each 2: 2, each ace: ½ (rounded down over the hand),
//!   each bomb: 6 (on top of its 2s' points for a bomb of 2s);
//! * shape: `10 − plays`, with `plays` the fewest plays the hand splits into
//!   ([`split`]): a hand that needs few rounds is strong even without
//!   control cards (17-card hands typically need 6–10 plays).
//!
//! The bid is the highest level whose threshold the strength reaches:
//! 1 at [`BID_1`], 2 at [`BID_2`], 3 at [`BID_3`] — and 0 when that level is
//! not higher than the highest earlier bid.
//!
//! # Calibration
//!
//! The thresholds come from the arena (`cargo run --release --features testkit
//! --example ddz_arena -- --deals 1500 --seed 2 --opponent baseline
//! --landlord-only`): the play bot as landlord against two baseline bots, its
//! win rate by the strength of its 17 dealt cards (before the bottom cards):
//!
//! | strength | ≤ 4 | 5 | 6–7 | 8–9 | 10–11 | 12–13 | 14–15 | ≥ 16 |
//! |---|---|---|---|---|---|---|---|---|
//! | games | 156 | 147 | 399 | 303 | 219 | 137 | 76 | 63 |
//! | landlord win rate | 0.42 | 0.50 | 0.63 | 0.68 | 0.76 | 0.80 | 0.78 | 0.89 |
//!
//! A landlord at bid `b` wins or loses `2b`, so a bid pays when the win rate
//! is above ½; the levels leave a margin for opponents stronger than the
//! baseline bot: bid 1 from a win rate of about 0.6 (strength 7), 2 from about 0.75
//! (10), 3 from about 0.8 (13).

use crate::doudizhu::{Hand, Rank, Rules, split};

/// Strength needed to bid 1.
pub const BID_1: i32 = 7;
/// Strength needed to bid 2.
pub const BID_2: i32 = 10;
/// Strength needed to bid 3.
pub const BID_3: i32 = 13;

/// Why a bid request is impossible.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BidError {
    #[error("a bidding hand has 17 cards, got {0}")]
    /// The hand does not hold 17 cards; carries its size.
    HandSize(usize),
    #[error("at most two earlier bids are possible (three players bid once each), got {0}")]
    /// More than two earlier bids; carries their number.
    TooManyBids(usize),
    #[error("bid {index} is {bid}; bids are 0 (pass) to 3")]
    /// An earlier bid is above 3.
    OutOfRange {
        /// Position of the bid among the earlier bids.
        index: usize,
        /// The bid given.
        bid: u8,
    },
    #[error("bid {index} is {bid}, not higher than the earlier highest bid {highest}")]
    /// A non-pass bid does not raise the highest earlier bid.
    NotHigher {
        /// Position of the bid among the earlier bids.
        index: usize,
        /// The bid given.
        bid: u8,
        /// The highest bid before it.
        highest: u8,
    },
    #[error("bid {index} is 3, which ends the bidding: no further bids")]
    /// An earlier bid of 3 already ended the bidding.
    AfterThree {
        /// Position of the bid of 3.
        index: usize,
    },
}

/// The decision and what it was based on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BidDecision {
    /// 0 = pass, else 1–3 (always above the highest earlier bid).
    pub bid: u8,
    /// [`strength`] of the hand.
    pub strength: i32,
    /// The level the hand is worth regardless of earlier bids.
    pub wanted: u8,
    /// Fewest plays the hand splits into.
    pub plays: usize,
}

/// Documented hand strength (see the module docs). Any hand size works; the
/// thresholds are meant for 17 cards.
pub fn strength(hand: Hand, rules: &Rules) -> (i32, usize) {
    let red = hand.count(Rank::RedJoker) as i32;
    let black = hand.count(Rank::BlackJoker) as i32;
    let mut s = 4 * red + 3 * black + i32::from(red == 1 && black == 1);
    s += 2 * hand.count(Rank::Two) as i32;
    s += hand.count(Rank::Ace) as i32 / 2;
    s += 6 * hand.ranks_with_at_least(4).count_ones() as i32;
    let plays = split(hand, rules).plays;
    s += 10 - plays as i32;
    (s, plays)
}

/// Checks `bids` against the rule above and returns the highest so far.
pub fn validate_bids(bids: &[u8]) -> Result<u8, BidError> {
    if bids.len() > 2 {
        return Err(BidError::TooManyBids(bids.len()));
    }
    let mut highest = 0u8;
    for (index, &bid) in bids.iter().enumerate() {
        if bid > 3 {
            return Err(BidError::OutOfRange { index, bid });
        }
        if highest == 3 {
            return Err(BidError::AfterThree { index: index - 1 });
        }
        if bid != 0 {
            if bid <= highest {
                return Err(BidError::NotHigher {
                    index,
                    bid,
                    highest,
                });
            }
            highest = bid;
        }
    }
    if highest == 3 {
        return Err(BidError::AfterThree {
            index: bids.len() - 1,
        });
    }
    Ok(highest)
}

/// Chooses a bid for a 17-card `hand` after the earlier `bids`.
pub fn choose_bid(hand: Hand, bids: &[u8], rules: &Rules) -> Result<BidDecision, BidError> {
    if hand.len() != 17 {
        return Err(BidError::HandSize(hand.len()));
    }
    let highest = validate_bids(bids)?;
    let (s, plays) = strength(hand, rules);
    let wanted = match s {
        s if s >= BID_3 => 3,
        s if s >= BID_2 => 2,
        s if s >= BID_1 => 1,
        _ => 0,
    };
    Ok(BidDecision {
        bid: if wanted > highest { wanted } else { 0 },
        strength: s,
        wanted,
        plays,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hand {
        Hand::parse_str(s).unwrap()
    }

    #[test]
    fn strong_hand_bids_three_weak_hand_passes() {
        let rules = Rules::default();
        let strong = h("BR2222AAKKQQJJ998");
        let d = choose_bid(strong, &[], &rules).unwrap();
        assert_eq!(d.bid, 3, "{d:?}");
        let weak = h("33344667799TTQQKK");
        let d = choose_bid(weak, &[], &rules).unwrap();
        assert_eq!(d.bid, 0, "{d:?}");
    }

    #[test]
    fn never_bids_at_or_below_the_highest() {
        let rules = Rules::default();
        let hand = h("B2234567899TJQKAA");
        let d0 = choose_bid(hand, &[], &rules).unwrap();
        for earlier in [[0u8, 1], [1, 2], [2, 0], [0, 0]] {
            let d = choose_bid(hand, &earlier, &rules).unwrap();
            let top = *earlier.iter().max().unwrap();
            assert!(d.bid == 0 || d.bid > top, "{d:?} after {earlier:?}");
            assert_eq!(d.wanted, d0.wanted);
        }
    }

    #[test]
    fn impossible_sequences_are_rejected() {
        assert_eq!(validate_bids(&[0, 0, 0]), Err(BidError::TooManyBids(3)));
        assert_eq!(
            validate_bids(&[4]),
            Err(BidError::OutOfRange { index: 0, bid: 4 })
        );
        assert_eq!(
            validate_bids(&[2, 1]),
            Err(BidError::NotHigher {
                index: 1,
                bid: 1,
                highest: 2
            })
        );
        assert_eq!(validate_bids(&[3]), Err(BidError::AfterThree { index: 0 }));
        assert_eq!(
            validate_bids(&[3, 0]),
            Err(BidError::AfterThree { index: 0 })
        );
        assert_eq!(validate_bids(&[1, 2]), Ok(2));
        assert_eq!(validate_bids(&[]), Ok(0));
        assert_eq!(
            choose_bid(h("345"), &[], &Rules::default()),
            Err(BidError::HandSize(3))
        );
    }
}
