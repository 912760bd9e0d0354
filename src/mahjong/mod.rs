//! Pure mahjong decision engine: Hong Kong, Riichi and Red Dragon.
//!
//! No I/O. Three ways in:
//! * A hand: the HTTP layer parses JSON into a [`HandSetup`], which becomes a checked
//!   [`DiscardContext`] or [`ClaimContext`] (errors name the input [`Field`]), and then
//!   [`decide_discard`] or [`decide_claim`] answers.
//! * A Riichi table: [`table::Table`] is rebuilt from the game's events (the mjai front
//!   end) or from a stateless request's table fields ([`stateless`]), and
//!   [`riichi_bot::decide`] answers it, weighing danger ([`danger`]) against the hand's
//!   value ([`scoring`]).
//! * A Hong Kong table: the stateless request's river and opponent melds let
//!   [`hong_kong_defence::defend`] reconsider [`decide_discard`]'s tile against ready-looking
//!   opponents, with the danger model read without furiten (Hong Kong has none, so an
//!   opponent's own discards are only safer, never safe).
//! * Red Dragon has no defence: it wins by self-draw only, so no discard can deal in.
//!
//! Rule set (documented choices):
//! * **Hong Kong** (136 tiles + 8 bonus tiles): chow/pung/kong calls, standard form, seven
//!   pairs and thirteen orphans. Fan table ([`rules::hk_fan`]): self-drawn 1, concealed hand 1,
//!   no flowers 1, own flower/season 1 each, dragon pung 1 each, seat-wind pung 1, round-wind
//!   pung 1, all chows 1, all pungs 3, mixed one suit 3, small dragons +3 (5 with the two
//!   dragon pungs), seven pairs 4, full flush 7, great dragons 8, small winds 10, great winds,
//!   all honors, four concealed pungs, thirteen orphans 13; capped at 13. A win needs
//!   `min_fan`.
//! * **Riichi**: Tenhou's rules, which Mortal's referee plays: hanchan, red fives, open
//!   tanyao, kuikae forbidden, riichi with 1,000 points and four tiles left in the wall,
//!   furiten (own discards, a passed winning tile, after riichi for the rest of the hand).
//!   A win needs a yaku; [`scoring`] has every yaku, the situational ones included, and
//!   the han, fu and points.
//! * **Red Dragon** (112 tiles: 108 suited + 4 red dragons, no winds, no other dragons, no
//!   flowers): red dragons are wildcards that take whatever tile completes the hand best;
//!   pung and kong calls with natural tiles only (red dragons are never claimed), no chows;
//!   a win is by self-draw only; standard form and seven pairs. Points
//!   ([`rules::red_dragon_points`]): basic win 2, self-drawn 2, no wildcard in hand 2,
//!   all pungs 6, seven pairs 6, half flush (one suit + red dragons standing for
//!   themselves) 6, full flush 12. A win needs `min_score`.
//!
//! ```
//! use gamebot::mahjong::tiles::Variant;
//! use gamebot::mahjong::{Action, DiscardContext, HandSetup, Strategy, decide_discard, parse_tiles};
//!
//! // A Riichi hand one tile from ready, after drawing 5m: the lone honor goes.
//! let mut setup = HandSetup::new(Variant::Riichi, parse_tiles("123m456p789s1127z5m").unwrap());
//! setup.drawn = Some(parse_tiles("5m").unwrap()[0]);
//! setup.strategy = Strategy::Efficient;
//! let ctx = DiscardContext::for_turn(setup).unwrap();
//! let decision = decide_discard(&ctx);
//! assert_eq!(decision.action, Action::Discard);
//! assert_eq!(decision.tile.to_string(), "2z");
//! assert_eq!(decision.shanten, 1);
//! ```

#![warn(missing_docs)]

pub mod classic;
mod context;
pub mod danger;
pub mod decide;
pub mod efficient;
mod error;
pub mod hong_kong_defence;
pub mod riichi_bot;
pub mod riichi_game;
pub mod rules;
pub mod scoring;
pub mod shanten;
pub mod stateless;
pub mod table;
pub mod tiles;

use tiles::{RED_DRAGON, Tile, TileCounts, is_dragon, is_honor, suit_of};

pub use context::{ClaimContext, DiscardContext, HandSetup};
pub use error::{Field, MahjongError, check_list_len, max_tiles, parse_field, parse_field_mjai};
pub use tiles::{parse_flower, parse_mjai, parse_tile, parse_tiles, parse_wind};

/// Discard policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The seed's priority list.
    #[default]
    Classic,
    /// Shanten / ukeire maximising.
    Efficient,
    /// Riichi at a table: efficiency and value, with push / fold against threats
    /// ([`riichi_bot`]). Elsewhere and without table knowledge it plays as `Efficient`.
    Balanced,
}

impl Strategy {
    /// The strategy named `classic`, `efficient` or `balanced`.
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "classic" => Some(Self::Classic),
            "efficient" => Some(Self::Efficient),
            "balanced" => Some(Self::Balanced),
            _ => None,
        }
    }
}

/// Who discarded a tile the bot may claim, seen from the bot's seat: the
/// player on its left plays just before it (only that player's tile can be
/// chowed), the one on its right just after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Discarder {
    /// The seat just before the bot's.
    Left,
    /// The seat opposite.
    Across,
    /// The seat just after the bot's.
    Right,
}

impl Discarder {
    /// Seats after the bot's in turn order: right 1, across 2, left 3.
    pub fn seats_after(self) -> u8 {
        match self {
            Self::Right => 1,
            Self::Across => 2,
            Self::Left => 3,
        }
    }

    /// The discarder `seats_after` seats after the bot (1 to 3).
    pub fn from_seats_after(seats_after: u8) -> Option<Self> {
        match seats_after {
            1 => Some(Self::Right),
            2 => Some(Self::Across),
            3 => Some(Self::Left),
            _ => None,
        }
    }
}

/// Own-turn action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Discard [`DiscardDecision::tile`].
    Discard,
    /// Declare a self-drawn win.
    Win,
    /// Declare a concealed kong, or add the drawn tile to a pung.
    Kong,
}

/// Claim answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimAction {
    /// Let the tile go.
    Pass,
    /// Call a sequence with it (from the left-hand seat only).
    Chow,
    /// Call a triplet with it.
    Pung,
    /// Call a quad with it.
    Kong,
    /// Win on it.
    Win,
}

/// Category of a tile in the seed's discard priority list (lower is discarded first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// A single tile with no copy left to draw and no sequence to join.
    Dead,
    /// A single that can only become a pair, or an honor already seen once or twice.
    Problem,
    /// A single whose partial sequences all wait on tiles no longer live.
    DeadIncompleteSequence,
    /// One of several pairs with no copy left to draw.
    DeadPairOfMany,
    /// A number tile with no neighbour within two ranks.
    IsolatedNumber,
    /// A single honor.
    IsolatedHonor,
    /// A single whose suit keeps its partial sets without it.
    Secondary,
    /// A single in a partial sequence.
    IncompleteSequence,
    /// A lone pair with no copy left to draw.
    DeadPair,
    /// Two or more copies.
    Pair,
    /// Part of a complete set: discarding it loses the set.
    Set,
}

impl Category {
    /// The snake_case name the API answers with.
    pub fn name(self) -> &'static str {
        match self {
            Self::Dead => "dead",
            Self::Problem => "problem",
            Self::DeadIncompleteSequence => "dead_incomplete_sequence",
            Self::DeadPairOfMany => "dead_pair_of_many",
            Self::IsolatedNumber => "isolated_number",
            Self::IsolatedHonor => "isolated_honor",
            Self::Secondary => "secondary",
            Self::IncompleteSequence => "incomplete_sequence",
            Self::DeadPair => "dead_pair",
            Self::Pair => "pair",
            Self::Set => "set",
        }
    }
}

/// Per-tile numbers for the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The tile discarded.
    pub tile: Tile,
    /// Combined shanten after discarding this tile.
    pub shanten: i8,
    /// Live tiles lowering that shanten.
    pub ukeire: u32,
    /// Where the tile stands in the seed's priority list.
    pub category: Category,
    /// Standard-form shanten / ukeire (the efficient strategy's measure).
    pub std_shanten: i8,
    /// Live tiles lowering `std_shanten`.
    pub std_ukeire: u32,
    /// Plan-form shanten (all pungs plan), else equal to `std_shanten`.
    pub plan_shanten: i8,
    /// The tile's suit does not fit the plan (a flush's other suits).
    pub off_plan: bool,
    /// Never discard (wildcard, protected yakuhai pair, riichi lock).
    pub locked: bool,
}

/// The bot's hand plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// No constraint: the fastest hand.
    Free,
    /// Triplets only (no chows).
    AllPungs,
    /// One suit (0 = m, 1 = p, 2 = s) and honors.
    HalfFlush(u8),
    /// One suit (0 = m, 1 = p, 2 = s) alone.
    FullFlush(u8),
    /// Riichi: open play (yakuhai).
    RiichiOpen,
    /// Riichi: closed play (riichi / menzen).
    RiichiClosed,
}

impl Plan {
    /// The name the API answers with (`half_flush_m`, `closed`, ...).
    pub fn name(self) -> String {
        let suit = |s: u8| ["m", "p", "s"][s as usize];
        match self {
            Self::Free => "free".into(),
            Self::AllPungs => "all_pungs".into(),
            Self::HalfFlush(s) => format!("half_flush_{}", suit(s)),
            Self::FullFlush(s) => format!("full_flush_{}", suit(s)),
            Self::RiichiOpen => "open".into(),
            Self::RiichiClosed => "closed".into(),
        }
    }
    /// Whether a kind fits the plan's suit constraint.
    pub fn on_plan(self, kind: u8, wildcard: Option<u8>) -> bool {
        if Some(kind) == wildcard {
            return true;
        }
        match self {
            Self::HalfFlush(s) => is_honor(kind) || suit_of(kind) == s,
            Self::FullFlush(s) => !is_honor(kind) && suit_of(kind) == s,
            _ => true,
        }
    }
    /// Whether the plan may call chows.
    pub fn allows_chow(self) -> bool {
        !matches!(self, Self::AllPungs | Self::RiichiClosed)
    }
}

/// Own-turn decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscardDecision {
    /// What the bot does.
    pub action: Action,
    /// Discarded tile, the kong tile, or the winning tile.
    pub tile: Tile,
    /// Riichi: the discard declares riichi.
    pub riichi: bool,
    /// Why, in words.
    pub reason: String,
    /// The plan's name ([`Plan::name`]).
    pub plan: String,
    /// Shanten after the discard.
    pub shanten: i8,
    /// Live tiles lowering that shanten.
    pub ukeire: u32,
    /// Every distinct discard with its numbers.
    pub candidates: Vec<Candidate>,
    /// Fan / han / points when `action == Win`.
    pub win_value: Option<u32>,
    /// What scores the win, each with its fan / han / points (empty unless a win).
    pub win_items: Vec<(&'static str, u32)>,
}

/// Claim decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimDecision {
    /// What the bot does.
    pub action: ClaimAction,
    /// The meld formed (incl. the claimed tile), or the claimed tile for a win; empty on pass.
    pub tiles: Vec<Tile>,
    /// Why, in words.
    pub reason: String,
    /// What scores the win, each with its fan / han / points (empty unless a win).
    pub win_items: Vec<(&'static str, u32)>,
}

impl ClaimDecision {
    /// Tenhou string of `tiles` (`456m`).
    pub fn tiles_string(&self) -> String {
        TileCounts::from_tiles(&self.tiles).to_tenhou()
    }
}

/// Whether a kind is a yakuhai / scoring honor for this seat.
pub(crate) fn is_value_honor(ctx: &HandSetup, k: u8) -> bool {
    is_dragon(k) && Some(k) != ctx.variant.wildcard()
        || k == ctx.seat_wind.kind()
        || k == ctx.round_wind.kind()
}

/// Own-turn decision (after a draw).
pub fn decide_discard(ctx: &DiscardContext) -> DiscardDecision {
    decide::decide_turn(ctx)
}

/// Decision on another player's discard.
pub fn decide_claim(ctx: &ClaimContext) -> ClaimDecision {
    decide::decide_claim(ctx)
}

/// Index of the red dragon wildcard, re-exported for callers.
pub const WILDCARD: u8 = RED_DRAGON;

#[cfg(test)]
mod tests;
