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
mod legal;
mod threats;
mod turn;
mod value;

pub use legal::legal_actions;
pub(crate) use value::{win_items, win_score};

use super::Strategy;
use super::table::{Table, Turn};
use super::tiles::Tile;

/// One answer to the table, in the protocol's vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableAction {
    /// Nothing to do, or decline a call.
    Pass,
    /// Discard `tile`.
    Discard {
        /// The very copy to discard (red or not).
        tile: Tile,
        /// The tile is the one just drawn.
        tsumogiri: bool,
    },
    /// Declare riichi; the discard is the next decision.
    Riichi,
    /// Call a chow on `target`'s discard.
    Chi {
        /// Seat that made the discard.
        target: u8,
        /// The called discard.
        tile: Tile,
        /// The two tiles from the hand that complete the sequence.
        consumed: [Tile; 2],
    },
    /// Call a pung on `target`'s discard.
    Pon {
        /// Seat that made the discard.
        target: u8,
        /// The called discard.
        tile: Tile,
        /// The two tiles of its kind from the hand.
        consumed: [Tile; 2],
    },
    /// Call an open kan on `target`'s discard (the bot never does; a player may).
    Daiminkan {
        /// Seat that made the discard.
        target: u8,
        /// The called discard.
        tile: Tile,
        /// The three tiles of its kind from the hand.
        consumed: [Tile; 3],
    },
    /// Declare a concealed kan.
    Ankan {
        /// The four tiles of one kind from the hand.
        consumed: [Tile; 4],
    },
    /// Add `tile` to a pung, making it a kan.
    Kakan {
        /// The tile added from the hand.
        tile: Tile,
        /// The pung's three tiles.
        consumed: [Tile; 3],
    },
    /// Win: by self-draw when `target` is the seat itself.
    Hora {
        /// Seat whose discard or added tile wins; the seat itself for a self-draw.
        target: u8,
        /// The winning tile.
        tile: Tile,
    },
    /// Nine different terminals and honors on the first draw: abort the hand.
    NineTerminals,
}

/// A decision and why.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDecision {
    /// What to do.
    pub action: TableAction,
    /// With `Riichi`: the discard that will follow the declaration.
    pub riichi_discard: Option<Tile>,
    /// Why, in words, for the response.
    pub reason: String,
    /// Shanten of the hand after the action (−1 for a win).
    pub shanten: i8,
    /// Name of the strategy that decided ([`strategy_name`]).
    pub strategy: &'static str,
    /// Points the win scores, when the action is a win.
    pub win_points: Option<u32>,
    /// What scores the win, each with its han (yaku, then dora, red fives and
    /// ura dora); empty unless the action is a win.
    pub win_items: Vec<(&'static str, u32)>,
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
            win_items: Vec::new(),
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
