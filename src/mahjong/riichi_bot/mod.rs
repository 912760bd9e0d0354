//! The bot at a Riichi table: one decision for a replayed [`Table`].
//!
//! Every answer is legal for the table: a win only with a yaku and out of furiten, no
//! kuikae discard, the drawn tile (the very copy, red or not) after riichi, a riichi
//! discard that keeps the hand ready, riichi only with 1,000 points and four tiles left.
//!
//! The `balanced` strategy plays the table rather than the hand:
//! * **Threats.** Each opponent's chance to be ready and the expected cost of dealing
//!   in come from [`super::danger`]; the risk of a discard is the sum over opponents
//!   of readiness × deal-in chance × hand value.
//! * **Push, fold or go around.** With no threat the bot plays for speed and value
//!   (fewest tiles from ready, then most live accepting tiles, keeping dora). Facing a
//!   threat it pushes a ready hand with a live wait (a cheap one only while the wait is
//!   wide), a one-from-ready hand only when it is worth a mangan and early; otherwise it
//!   folds, giving up the tile of least risk, and among nearly-as-safe tiles the one
//!   that keeps the hand best (mawashi).
//! * **Riichi or dama.** Riichi on a ready closed hand with a live wait, except a hand
//!   already worth a mangan without it on a wide wait (dama wins more often).
//! * **Calls.** Only into a hand with a yaku path: a pon of a value honor, or tanyao,
//!   a flush or all pungs kept by the melds; and only when the call brings the hand
//!   nearer to ready. No calls while folding, no open kan.
//!
//! `classic` and `efficient` keep their own discard and call choices (the seed's bot
//! and the efficiency ranking) and get the same legality guard.

mod calls;
mod hand;
mod threats;
mod turn;
mod value;

use super::Strategy;
use super::table::{Table, Turn};
use super::tiles::Tile;

/// One answer to the table, in the protocol's vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableAction {
    /// Nothing to do, or decline a call.
    Pass,
    Discard {
        tile: Tile,
        tsumogiri: bool,
    },
    /// Declare riichi; the discard is the next decision.
    Riichi,
    Chi {
        target: u8,
        tile: Tile,
        consumed: [Tile; 2],
    },
    Pon {
        target: u8,
        tile: Tile,
        consumed: [Tile; 2],
    },
    Ankan {
        consumed: [Tile; 4],
    },
    Kakan {
        tile: Tile,
        consumed: [Tile; 3],
    },
    /// Win: by self-draw when `target` is the seat itself.
    Hora {
        target: u8,
        tile: Tile,
    },
    /// Nine different terminals and honors on the first draw: abort the hand.
    NineTerminals,
}

/// A decision and why.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDecision {
    pub action: TableAction,
    /// With `Riichi`: the discard that will follow the declaration.
    pub riichi_discard: Option<Tile>,
    pub reason: String,
    /// Shanten of the hand after the action (−1 for a win).
    pub shanten: i8,
    pub strategy: &'static str,
    /// Points the win scores, when the action is a win.
    pub win_points: Option<u32>,
}

impl TableDecision {
    fn new(action: TableAction, reason: impl Into<String>, shanten: i8) -> Self {
        Self {
            action,
            riichi_discard: None,
            reason: reason.into(),
            shanten,
            strategy: "",
            win_points: None,
        }
    }
}

/// The name of a strategy as the protocol reports it.
pub fn strategy_name(s: Strategy) -> &'static str {
    match s {
        Strategy::Classic => "classic",
        Strategy::Efficient => "efficient",
        Strategy::Balanced => "balanced",
    }
}

/// The bot's answer to the table as it stands.
pub fn decide(table: &Table, strategy: Strategy) -> TableDecision {
    let mut d = match table.turn {
        Turn::Act {
            seat,
            drawn,
            rinshan,
            ..
        } if seat == table.me => turn::own_turn(table, strategy, drawn, rinshan),
        Turn::Discarded { seat } if seat != table.me => match table.river.last() {
            Some(r) => calls::respond(table, strategy, seat, r.tile, false),
            None => TableDecision::new(TableAction::Pass, "nothing to answer", table.shanten()),
        },
        Turn::Added { seat, tile } if seat != table.me => {
            calls::respond(table, strategy, seat, tile, true)
        }
        _ => TableDecision::new(
            TableAction::Pass,
            "not the seat's decision",
            table.shanten(),
        ),
    };
    d.strategy = strategy_name(strategy);
    d
}
