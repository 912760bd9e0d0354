//! Dou Dizhu routes: request and response shapes, validation into engine
//! types, and mapping back. The rules themselves live in `crate::doudizhu`.
//!
//! The shapes every route shares (cards, rules, seats, plays) have a module
//! each; each route has its own.

mod cards;
mod combo;
mod rules;
mod seat;

pub mod bid;
pub mod double;
pub mod endgame;
pub mod moves;
pub mod play;
pub mod split;

pub use cards::{CardsInput, MAX_HAND, check_deck, parse_play};
pub use combo::{ComboTypeName, MoveOut};
pub use rules::RulesInput;
pub use seat::SeatName;
