//! Pure mahjong decision engine: Hong Kong, Riichi and Red Dragon.
//!
//! No I/O. Three ways in:
//! * A hand: the HTTP layer parses JSON into a [`DiscardContext`], calls [`validate`]
//!   (errors name the input [`Field`]) and then [`decide_discard`] or [`decide_claim`].
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
//! use gamebot::mahjong::{Action, DiscardContext, Strategy, decide_discard, parse_tiles, validate};
//!
//! // A Riichi hand one tile from ready, after drawing 5m: the lone honor goes.
//! let mut ctx = DiscardContext::new(Variant::Riichi, parse_tiles("123m456p789s1127z5m").unwrap());
//! ctx.drawn = Some(parse_tiles("5m").unwrap()[0]);
//! ctx.strategy = Strategy::Efficient;
//! validate(&ctx).unwrap();
//! let decision = decide_discard(&ctx);
//! assert_eq!(decision.action, Action::Discard);
//! assert_eq!(decision.tile.to_string(), "2z");
//! assert_eq!(decision.shanten, 1);
//! ```

pub mod classic;
pub mod danger;
pub mod decide;
pub mod efficient;
pub mod hong_kong_defence;
pub mod riichi_bot;
pub mod rules;
pub mod scoring;
pub mod shanten;
pub mod stateless;
pub mod table;
pub mod tiles;

use tiles::{
    Flower, KINDS, Meld, MeldKind, RED_DRAGON, Tile, TileCounts, TileError, Variant, Wind,
    is_dragon, is_honor, suit_of,
};

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
    Left,
    Across,
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

/// Everything the bot knows at a decision.
#[derive(Debug, Clone)]
pub struct DiscardContext {
    pub variant: Variant,
    pub min_fan: u8,
    pub min_score: u32,
    /// Concealed tiles (discard: incl. the drawn tile, 14 − 3 × melds; claim: 13 − 3 × melds).
    pub hand: Vec<Tile>,
    pub drawn: Option<Tile>,
    pub melds: Vec<Meld>,
    /// Every tile visible outside the own hand (discards, others' melds, dora indicators).
    pub visible: Vec<Tile>,
    pub seat_wind: Wind,
    pub round_wind: Wind,
    pub dora_indicators: Vec<Tile>,
    pub flowers: Vec<Flower>,
    pub riichi_declared: bool,
    /// Riichi: the bot's own discards this hand (also part of `visible`), for
    /// discard furiten.
    pub own_discards: Vec<Tile>,
    /// Riichi: the caller says the bot is in temporary or riichi furiten (it
    /// let a winning tile pass since its last discard, or at all since riichi),
    /// which only the game's history shows.
    pub furiten: bool,
    pub strategy: Strategy,
}

impl DiscardContext {
    /// A context with defaults (East seat and round, classic, min 0).
    pub fn new(variant: Variant, hand: Vec<Tile>) -> Self {
        Self {
            variant,
            min_fan: if variant == Variant::HongKong { 3 } else { 0 },
            min_score: 0,
            hand,
            drawn: None,
            melds: Vec::new(),
            visible: Vec::new(),
            seat_wind: Wind::East,
            round_wind: Wind::East,
            dora_indicators: Vec::new(),
            flowers: Vec::new(),
            riichi_declared: false,
            own_discards: Vec::new(),
            furiten: false,
            strategy: Strategy::Classic,
        }
    }
    pub fn concealed(&self) -> TileCounts {
        TileCounts::from_tiles(&self.hand)
    }
    /// Hand + own melds + visible.
    pub fn seen(&self) -> TileCounts {
        let mut c = self.concealed();
        for m in &self.melds {
            for t in &m.tiles {
                c.add(t.index);
            }
        }
        for t in &self.visible {
            c.add(t.index);
        }
        c
    }
    pub fn visible_counts(&self) -> TileCounts {
        TileCounts::from_tiles(&self.visible)
    }
    pub fn has_open_meld(&self) -> bool {
        self.melds.iter().any(|m| m.kind.is_open())
    }
}

/// Request field an error refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Hand,
    Drawn,
    /// The list of melds as a whole.
    MeldList,
    /// The tiles of meld `i`.
    Melds(usize),
    Visible,
    OwnDiscards,
    DoraIndicators,
    Flowers,
    Tile,
    MinFan,
}

/// Why a hand or its context is not a position of the game, each naming the
/// input [`Field`] it concerns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MahjongError {
    #[error("{source}")]
    BadTile { field: Field, source: TileError },
    #[error("tile {index} ({tile}) does not exist in this variant")]
    NotInVariant {
        field: Field,
        index: usize,
        tile: String,
    },
    #[error("more than 4 copies of {tile} across hand, melds and visible")]
    TooManyCopies { field: Field, tile: String },
    #[error("a second red five {tile} across hand, melds and visible (one red five per suit)")]
    TooManyRedFives { field: Field, tile: String },
    #[error("at most {max} tiles ({why})")]
    TooManyTiles {
        field: Field,
        max: usize,
        why: &'static str,
    },
    #[error("expected {expected} tiles for {melds} melds, got {got}")]
    WrongHandSize {
        expected: usize,
        got: usize,
        melds: usize,
    },
    #[error("not a valid {kind}")]
    InvalidMeld { field: Field, kind: &'static str },
    #[error("at most 4 melds")]
    TooManyMelds,
    #[error("the drawn tile is not in the hand")]
    DrawnNotInHand,
    #[error("duplicate or unsupported bonus tile")]
    BadFlowers,
    #[error("must be 0..=13")]
    BadMinFan,
    #[error("{tile} is listed more often than `visible` holds it (own discards are visible tiles)")]
    OwnDiscardNotVisible { tile: String },
}

impl MahjongError {
    /// The input the error concerns.
    pub fn field(&self) -> Field {
        match self {
            Self::BadTile { field, .. }
            | Self::NotInVariant { field, .. }
            | Self::TooManyCopies { field, .. }
            | Self::TooManyRedFives { field, .. }
            | Self::TooManyTiles { field, .. }
            | Self::InvalidMeld { field, .. } => *field,
            Self::WrongHandSize { .. } => Field::Hand,
            Self::TooManyMelds => Field::MeldList,
            Self::DrawnNotInHand => Field::Drawn,
            Self::BadFlowers => Field::Flowers,
            Self::BadMinFan => Field::MinFan,
            Self::OwnDiscardNotVisible { .. } => Field::OwnDiscards,
        }
    }
}

/// Most tiles a list of `field` may hold, and the rule that says so (`None`
/// for fields that aren't lists). The HTTP layer checks these before parsing,
/// so that a huge list costs nothing; [`validate`] checks them again for other
/// callers.
pub fn max_tiles(field: Field) -> Option<(usize, &'static str)> {
    Some(match field {
        Field::Hand => (14, "13 tiles and a drawn one"),
        Field::Melds(_) => (4, "a meld is a chow, a pung or a kong"),
        Field::Visible => (136, "the set has 136 tiles"),
        // A seat discards once per draw and once per chow or pung. Between
        // two of its draws the other three draw unless a call skips them
        // (twelve calls at most), so Riichi's 70-tile live wall gives a seat
        // at most 27 draws; kong replacement draws and its own calls (four
        // melds) add at most 8: 35. Hong Kong's longer wall gives a few more.
        Field::OwnDiscards => (40, "no seat discards more in one hand"),
        Field::DoraIndicators => (5, "the first indicator and four kan dora"),
        Field::Flowers => (8, "four flowers and four seasons"),
        Field::Drawn | Field::Tile | Field::MinFan | Field::MeldList => return None,
    })
}

/// Checks a list of `len` tiles for `field` against [`max_tiles`].
pub fn check_list_len(field: Field, len: usize) -> Result<(), MahjongError> {
    match max_tiles(field) {
        Some((max, why)) if len > max => Err(MahjongError::TooManyTiles { field, max, why }),
        _ => Ok(()),
    }
}

/// Parses a tile list for `field`, mapping errors to it.
pub fn parse_field(field: Field, tenhou: &str) -> Result<Vec<Tile>, MahjongError> {
    parse_tiles(tenhou).map_err(|source| MahjongError::BadTile { field, source })
}

/// Parses an mjai list for `field`.
pub fn parse_field_mjai<S: AsRef<str>>(
    field: Field,
    names: &[S],
) -> Result<Vec<Tile>, MahjongError> {
    parse_mjai(names).map_err(|source| MahjongError::BadTile { field, source })
}

fn check_variant(variant: Variant, field: Field, tiles: &[Tile]) -> Result<(), MahjongError> {
    for (index, t) in tiles.iter().enumerate() {
        if !variant.has_kind(t.index) || (t.red && !variant.has_red_fives()) {
            return Err(MahjongError::NotInVariant {
                field,
                index,
                tile: t.to_string(),
            });
        }
    }
    Ok(())
}

fn validate_common(
    ctx: &DiscardContext,
    hand_size: usize,
    extra: Option<Tile>,
) -> Result<(), MahjongError> {
    let v = ctx.variant;
    if ctx.min_fan > 13 {
        return Err(MahjongError::BadMinFan);
    }
    // Bounds first: everything below is linear or worse in these lengths.
    check_list_len(Field::Hand, ctx.hand.len())?;
    if ctx.melds.len() > 4 {
        return Err(MahjongError::TooManyMelds);
    }
    for (i, m) in ctx.melds.iter().enumerate() {
        check_list_len(Field::Melds(i), m.tiles.len())?;
    }
    check_list_len(Field::Visible, ctx.visible.len())?;
    check_list_len(Field::OwnDiscards, ctx.own_discards.len())?;
    check_list_len(Field::DoraIndicators, ctx.dora_indicators.len())?;
    check_list_len(Field::Flowers, ctx.flowers.len())?;
    check_variant(v, Field::Hand, &ctx.hand)?;
    if let Some(d) = ctx.drawn {
        check_variant(v, Field::Drawn, &[d])?;
    }
    for (i, m) in ctx.melds.iter().enumerate() {
        check_variant(v, Field::Melds(i), &m.tiles)?;
        let wild_in_meld = v
            .wildcard()
            .is_some_and(|w| m.tiles.iter().any(|t| t.index == w));
        let chow_illegal = m.kind == MeldKind::Chow && !v.has_chow();
        if !m.is_valid(None) || wild_in_meld || chow_illegal {
            let kind = match m.kind {
                MeldKind::Chow => "chow",
                MeldKind::Pung => "pung",
                MeldKind::Kong => "kong",
                MeldKind::ConcealedKong => "concealed_kong",
            };
            return Err(MahjongError::InvalidMeld {
                field: Field::Melds(i),
                kind,
            });
        }
    }
    check_variant(v, Field::Visible, &ctx.visible)?;
    check_variant(v, Field::DoraIndicators, &ctx.dora_indicators)?;
    check_variant(v, Field::OwnDiscards, &ctx.own_discards)?;
    if let Some(t) = extra {
        check_variant(v, Field::Tile, &[t])?;
    }
    if !ctx.flowers.is_empty() && !v.has_flowers() {
        return Err(MahjongError::BadFlowers);
    }
    for (i, f) in ctx.flowers.iter().enumerate() {
        if ctx.flowers[..i].contains(f) {
            return Err(MahjongError::BadFlowers);
        }
    }
    let expected = hand_size.saturating_sub(3 * ctx.melds.len());
    if ctx.hand.len() != expected {
        return Err(MahjongError::WrongHandSize {
            expected,
            got: ctx.hand.len(),
            melds: ctx.melds.len(),
        });
    }
    if let Some(d) = ctx.drawn
        && !ctx.hand.iter().any(|t| t.index == d.index)
    {
        return Err(MahjongError::DrawnNotInHand);
    }
    // copies: hand, melds, visible, claimed tile; red fives at most one per suit
    let mut counts = [0u8; KINDS];
    let mut reds = [0u8; 3];
    let mut groups: Vec<(Field, &[Tile])> = vec![(Field::Hand, &ctx.hand)];
    for (i, m) in ctx.melds.iter().enumerate() {
        groups.push((Field::Melds(i), &m.tiles));
    }
    groups.push((Field::Visible, &ctx.visible));
    let extra_slice: Vec<Tile> = extra.into_iter().collect();
    groups.push((Field::Tile, &extra_slice));
    for (field, tiles) in groups {
        for t in tiles {
            counts[t.index as usize] += 1;
            if t.red {
                reds[t.suit() as usize] += 1;
            }
            if t.red && reds[t.suit() as usize] > 1 {
                return Err(MahjongError::TooManyRedFives {
                    field,
                    tile: t.to_string(),
                });
            }
            if counts[t.index as usize] > 4 {
                return Err(MahjongError::TooManyCopies {
                    field,
                    tile: t.kind_name(),
                });
            }
        }
    }
    // Own discards are visible tiles: each one uses up a copy in `visible`
    // (at most four of a kind by now; counted down, so nothing can wrap).
    let mut unmatched = ctx.visible_counts();
    for t in &ctx.own_discards {
        let n = &mut unmatched.0[t.index as usize];
        *n = n
            .checked_sub(1)
            .ok_or_else(|| MahjongError::OwnDiscardNotVisible {
                tile: t.kind_name(),
            })?;
    }
    Ok(())
}

/// Validates a discard request (hand of 14 − 3 × melds tiles).
pub fn validate(ctx: &DiscardContext) -> Result<(), MahjongError> {
    validate_common(ctx, 14, None)
}

/// Validates a claim request (hand of 13 − 3 × melds tiles plus the discarded tile).
pub fn validate_claim(ctx: &DiscardContext, tile: Tile) -> Result<(), MahjongError> {
    validate_common(ctx, 13, Some(tile))
}

/// Own-turn action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Discard,
    Win,
    Kong,
}

/// Claim answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimAction {
    Pass,
    Chow,
    Pung,
    Kong,
    Win,
}

/// Category of a tile in the seed's discard priority list (lower is discarded first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    Dead,
    Problem,
    DeadIncompleteSequence,
    DeadPairOfMany,
    IsolatedNumber,
    IsolatedHonor,
    Secondary,
    IncompleteSequence,
    DeadPair,
    Pair,
    Set,
}

impl Category {
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
    pub tile: Tile,
    /// Combined shanten after discarding this tile.
    pub shanten: i8,
    /// Live tiles lowering that shanten.
    pub ukeire: u32,
    pub category: Category,
    /// Standard-form shanten / ukeire (the efficient strategy's measure).
    pub std_shanten: i8,
    pub std_ukeire: u32,
    /// Plan-form shanten (all pungs plan), else equal to `std_shanten`.
    pub plan_shanten: i8,
    pub off_plan: bool,
    /// Never discard (wildcard, protected yakuhai pair, riichi lock).
    pub locked: bool,
}

/// The bot's hand plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Free,
    AllPungs,
    HalfFlush(u8),
    FullFlush(u8),
    /// Riichi: open play (yakuhai).
    RiichiOpen,
    /// Riichi: closed play (riichi / menzen).
    RiichiClosed,
}

impl Plan {
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
    pub fn allows_chow(self) -> bool {
        !matches!(self, Self::AllPungs | Self::RiichiClosed)
    }
}

/// Own-turn decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscardDecision {
    pub action: Action,
    /// Discarded tile, the kong tile, or the winning tile.
    pub tile: Tile,
    pub riichi: bool,
    pub reason: String,
    pub plan: String,
    pub shanten: i8,
    pub ukeire: u32,
    pub candidates: Vec<Candidate>,
    /// Fan / han / points when `action == Win`.
    pub win_value: Option<u32>,
    /// What scores the win, each with its fan / han / points (empty unless a win).
    pub win_items: Vec<(&'static str, u32)>,
}

/// Claim decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimDecision {
    pub action: ClaimAction,
    /// The meld formed (incl. the claimed tile), or the claimed tile for a win; empty on pass.
    pub tiles: Vec<Tile>,
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
pub(crate) fn is_value_honor(ctx: &DiscardContext, k: u8) -> bool {
    is_dragon(k) && Some(k) != ctx.variant.wildcard()
        || k == ctx.seat_wind.kind()
        || k == ctx.round_wind.kind()
}

/// Chooses the plan for the current hand (see [`classic::choose_plan`]).
pub fn choose_plan(ctx: &DiscardContext) -> Plan {
    classic::choose_plan(ctx)
}

/// Own-turn decision (after a draw).
pub fn decide_discard(ctx: &DiscardContext) -> DiscardDecision {
    decide::decide_turn(ctx)
}

/// Decision on another player's discard.
pub fn decide_claim(ctx: &DiscardContext, tile: Tile, from: Discarder) -> ClaimDecision {
    decide::decide_claim(ctx, tile, from)
}

/// Combined shanten of the concealed hand with the context's melds.
pub fn shanten_of(ctx: &DiscardContext) -> i8 {
    shanten::shanten(ctx.variant, &ctx.concealed(), ctx.melds.len())
}

/// Index of the red dragon wildcard, re-exported for callers.
pub const WILDCARD: u8 = RED_DRAGON;

#[cfg(test)]
mod tests;
