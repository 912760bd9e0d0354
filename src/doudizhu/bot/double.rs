//! Doubling (加倍): whether a seat should double its stake before play.
//!
//! Doubling doubles what the seat wins or loses, so for a player who wants
//! the most points on average it pays exactly when the seat's side wins more
//! than half of the time. The bot estimates that win rate the way its play
//! does: it deals the cards it cannot see at random, consistently with what
//! it knows (the landlord holds the three bottom cards), and plays each deal
//! out from the landlord's first lead with the rollout policy for all three
//! seats ([`DOUBLE_ROLLOUTS`] deals). It doubles from a win rate of
//! [`DOUBLE_WIN_RATE`]: above the break-even ½, because the playouts are
//! whole-information players (stronger than the seats the rate is meant
//! for) and because an opponent's redouble makes a wrong double cost more.

use crate::doudizhu::endgame::Seat;
use crate::stop::Stop;

use super::deal::Dealer;
use super::rollout::Playout;
use super::{GameState, SplitMix64};

/// Deals played out for one doubling decision.
pub const DOUBLE_ROLLOUTS: u32 = 256;
/// The smallest estimated win rate at which the bot doubles.
pub const DOUBLE_WIN_RATE: f64 = 0.6;

/// What [`choose_double`] decided.
#[derive(Debug, Clone, PartialEq)]
pub struct DoubleDecision {
    /// Whether to double.
    pub double: bool,
    /// The estimated share of games the seat's side wins.
    pub win_rate: f64,
    /// Deals played out behind `win_rate`.
    pub samples: u32,
}

/// Decides whether `state.seat` doubles, from a state before play
/// ([`GameState::before_play`]). `stop` ends the rollouts early (the
/// estimate then rests on fewer deals); `seed` drives the dealing, so the
/// same state and seed give the same answer when nothing stops it.
/// `None` when no deal is consistent with the state (a hand-made state).
pub fn choose_double(state: &GameState, stop: &Stop, seed: u64) -> Option<DoubleDecision> {
    let mut dealer = Dealer::new(state, None, true)?;
    let mut rng = SplitMix64::new(seed ^ 0xD0B1_E000);
    let me = state.seat;
    let (mut wins, mut done) = (0u32, 0u32);
    for _ in 0..DOUBLE_ROLLOUTS {
        if done > 0 && stop.should_stop() {
            break;
        }
        let hands = dealer.deal(&mut rng);
        let winner = Playout::new(hands, &state.rules).run(Seat::Landlord, None);
        wins += u32::from(winner.same_team(me));
        done += 1;
    }
    let win_rate = f64::from(wins) / f64::from(done);
    Some(DoubleDecision {
        double: win_rate >= DOUBLE_WIN_RATE,
        win_rate,
        samples: done,
    })
}
