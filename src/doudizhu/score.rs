//! Scoring a finished deal: the multiplier and each seat's points.
//!
//! # The payout rules adopted
//!
//! The rules the large platforms use, each a flag of [`Payout`] (all on by
//! default):
//!
//! * **Base**: the winning bid, 1 to 3 (1 when the game had no bidding).
//! * **Bombs** (`bombs_double`): ×2 for every bomb and for the rocket played.
//! * **Spring** (`spring_doubles`): ×2 when the landlord goes out before
//!   either peasant has played a card (春天), and ×2 when the peasants win
//!   and the landlord made only its opening play (反春).
//! * **Doubling** (`doubling`, 加倍): before play, each seat may double once.
//!   The landlord's double doubles its stake with both peasants; a peasant's
//!   double only its own stake with the landlord.
//!
//! Each peasant wins or loses `base × multiplier × (2 if the landlord
//! doubled) × (2 if this peasant doubled)` against the landlord, who wins or
//! loses the sum of the two. With bid 1 and nobody doubling, the landlord
//! wins or loses 2 × multiplier and each peasant 1 × multiplier: DouZero's
//! ADP convention when the spring rule is off.

use super::endgame::Seat;

/// Which payout rules apply (see the module docs); the default has all on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Payout {
    /// ×2 for every bomb and the rocket played.
    pub bombs_double: bool,
    /// ×2 for a spring or an anti-spring.
    pub spring_doubles: bool,
    /// Seats may double before play.
    pub doubling: bool,
}

impl Default for Payout {
    fn default() -> Payout {
        Payout {
            bombs_double: true,
            spring_doubles: true,
            doubling: true,
        }
    }
}

/// What a finished deal's payout depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DealResult {
    /// Whether the landlord went out first.
    pub landlord_won: bool,
    /// The winning bid, 1 to 3.
    pub bid: u8,
    /// Bombs and rockets played.
    pub bombs: u32,
    /// A spring or an anti-spring happened (see [`is_spring`]).
    pub spring: bool,
    /// Which seats doubled, by [`Seat::index`].
    pub doubled: [bool; 3],
}

/// Whether a finished deal was a spring (the landlord won and no peasant
/// played a card) or an anti-spring (the peasants won and the landlord made
/// exactly one play, its opening lead).
pub fn is_spring(landlord_won: bool, landlord_plays: u32, peasant_plays: u32) -> bool {
    if landlord_won {
        peasant_plays == 0
    } else {
        landlord_plays == 1
    }
}

/// The multiplier the bombs and the spring give, before the base and the
/// doubles; capped at 2^20 so that no deal overflows.
pub fn multiplier(bombs: u32, spring: bool, payout: &Payout) -> i64 {
    let mut doublings = 0;
    if payout.bombs_double {
        doublings += bombs.min(20);
    }
    if payout.spring_doubles && spring {
        doublings += 1;
    }
    1 << doublings.min(20)
}

/// Each seat's points, by [`Seat::index`]; they sum to zero.
pub fn points(result: &DealResult, payout: &Payout) -> [i64; 3] {
    let stake = i64::from(result.bid.clamp(1, 3)) * multiplier(result.bombs, result.spring, payout);
    let doubled = |s: Seat| payout.doubling && result.doubled[s.index()];
    let landlord_factor = if doubled(Seat::Landlord) { 2 } else { 1 };
    let sign = if result.landlord_won { -1 } else { 1 };
    let mut out = [0i64; 3];
    for peasant in [Seat::LandlordDown, Seat::LandlordUp] {
        let own = if doubled(peasant) { 2 } else { 1 };
        let p = sign * stake * landlord_factor * own;
        out[peasant.index()] = p;
        out[Seat::Landlord.index()] -= p;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(landlord_won: bool, bid: u8, bombs: u32, spring: bool) -> DealResult {
        DealResult {
            landlord_won,
            bid,
            bombs,
            spring,
            doubled: [false; 3],
        }
    }

    #[test]
    fn plain_deal_is_douzero_adp() {
        let all = Payout::default();
        assert_eq!(points(&result(true, 1, 0, false), &all), [2, -1, -1]);
        assert_eq!(points(&result(false, 1, 0, false), &all), [-2, 1, 1]);
        // two bombs: ×4
        assert_eq!(points(&result(true, 1, 2, false), &all), [8, -4, -4]);
    }

    #[test]
    fn bid_spring_and_doubles_multiply() {
        let all = Payout::default();
        let mut r = result(true, 3, 1, true);
        // 3 × 2 (bomb) × 2 (spring)
        assert_eq!(points(&r, &all), [24, -12, -12]);
        r.doubled = [true, true, false];
        // landlord ×2 on both stakes, the down peasant ×2 on its own
        assert_eq!(points(&r, &all), [24 * 2 + 24, -48, -24]);
        let none = Payout {
            bombs_double: false,
            spring_doubles: false,
            doubling: false,
        };
        assert_eq!(points(&r, &none), [6, -3, -3]);
    }

    #[test]
    fn springs_are_recognised() {
        assert!(is_spring(true, 5, 0));
        assert!(!is_spring(true, 5, 1));
        assert!(is_spring(false, 1, 7));
        assert!(!is_spring(false, 2, 7));
    }

    #[test]
    fn points_sum_to_zero_and_never_overflow() {
        let all = Payout::default();
        for bombs in [0, 5, 13, 40] {
            for doubled in [[true; 3], [false, true, false]] {
                let r = DealResult {
                    doubled,
                    ..result(bombs % 2 == 0, 3, bombs, true)
                };
                assert_eq!(points(&r, &all).iter().sum::<i64>(), 0);
            }
        }
    }
}
