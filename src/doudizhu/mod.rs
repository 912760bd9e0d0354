//! Dou Dizhu rules engine: cards, combinations, legal moves and hand splitting.
//!
//! Pure (no I/O, no HTTP, no JSON) and built for speed: a hand is a `u64`
//! with four bits per rank ([`Hand`]), a play is a 16-byte `Copy` value
//! ([`Combo`]), and move generation can fill a reused buffer
//! ([`legal_moves_into`]).
//!
//! By default the rules are exactly the standard DouZero/RLCard move universe:
//! from the full 54-card deck there are 27,471 leading plays (27,472 with the
//! pass). [`Rules`] switches the kicker-carrying types off one by one.
//!
//! Notation: `3456789TJQKA2BR` (B = black joker, R = red joker), any order and
//! case, `10` for `T`, spaces and commas ignored; or DouZero's integers (3–14
//! for 3…A, 17 for 2, 20 and 30 for the jokers). Output is canonical
//! (ascending), e.g. `33455TJ2BR`; the pass is the empty string.
//!
//! ```
//! use gamebot::doudizhu::{Hand, Rules, classify, legal_moves, split};
//!
//! let rules = Rules::default();
//! let hand = Hand::parse_str("3334445566KKKK").unwrap();
//! let standing = classify(Hand::parse_str("777J").unwrap(), &rules).unwrap();
//! // Trios of K with a kicker beat 777J, and so does the bomb.
//! let answers = legal_moves(hand, Some(&standing), &rules);
//! assert!(answers.iter().any(|m| m.cards.to_string() == "3KKK"));
//! assert!(answers.iter().any(|m| m.cards.to_string() == "KKKK"));
//! // The fewest plays that empty the hand.
//! assert_eq!(split(hand, &rules).plays, 2); // 333444 with 5566, and KKKK
//! ```

#![warn(missing_docs)]

pub mod bid;
pub mod bot;
mod cards;
mod combo;
pub mod endgame;
mod moves;
pub mod score;
mod split;

#[cfg(test)]
mod tests;

pub use cards::{CardError, Cards, Hand, Rank};
pub use combo::{Combo, ComboType, Rules, beats, classify, classify_all};
pub use moves::{legal_moves, legal_moves_into};
pub use split::{Split, group_value, min_plays, split};
