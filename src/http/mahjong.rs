//! Mahjong routes: request shapes, validation into the engine's context, and
//! mapping decisions back. The rules and strategies live in `crate::mahjong`.

use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};

use super::error::{ApiError, FieldFault, Problem};
use super::extract::ApiJson;
use super::string_or_list::{Expecting, StringOrList};
use crate::mahjong::hong_kong_defence;
use crate::mahjong::riichi_bot::{self, TableAction, TableDecision};
use crate::mahjong::stateless::{self, Question, RiverEntry, TableFieldError, TableFields};
use crate::mahjong::tiles::{Meld, MeldKind, Tile, Variant};
use crate::mahjong::{
    self, Action, ClaimAction, ClaimContext, DiscardContext, Discarder, Field, HandSetup,
    MahjongError, Strategy,
};

/// Tiles: a tenhou string (`123m456p789s1234567z`, 0 = red five) or a list of
/// mjai names (`5m`, `5mr`, `E`, `S`, `W`, `N`, `P`, `F`, `C`).
#[derive(Debug, Clone)]
pub enum TilesInput {
    Tenhou(String),
    Mjai(Vec<String>),
}

impl<'de> Deserialize<'de> for TilesInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match StringOrList::<TileName>::deserialize(deserializer)? {
            StringOrList::Text(s) => TilesInput::Tenhou(s),
            StringOrList::List(names) => TilesInput::Mjai(names.into_iter().map(|n| n.0).collect()),
        })
    }
}

impl Expecting for TileName {
    const EXPECTING: &'static str = "a tenhou tile string such as \"123m456p11z\" or a list of tile names such as [\"5m\", \"E\"]";
}

/// One element of a tile list: a string (parsed as a tile later, with the
/// other fields' context).
struct TileName(String);

impl<'de> Deserialize<'de> for TileName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl serde::de::Visitor<'_> for NameVisitor {
            type Value = TileName;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a tile name such as \"5m\", \"5mr\" or \"E\"")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<TileName, E> {
                Ok(TileName(s.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, s: String) -> Result<TileName, E> {
                Ok(TileName(s))
            }
        }
        deserializer.deserialize_str(NameVisitor)
    }
}

const TENHOU_PATTERN: &str = r"^([0-9]+[mpsz])*$";
const MJAI_PATTERN: &str = r"^([1-9][mps]|5[mps]r|[1-7]z|0[mps]|[ESWNPFC])$";

impl utoipa::PartialSchema for TilesInput {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .description(Some(
                "Tiles: a tenhou string (123m456p789s1234567z; 0m/0p/0s red fives; 1z-7z = \
                 E S W N white green red) or a list of mjai names (5m, 5mr, E, S, W, N, P, F, C).",
            ))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(TENHOU_PATTERN))
                    .max_length(Some(200))
                    .examples(["123m456p789s11z"]),
            )
            .item(
                ArrayBuilder::new()
                    .items(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .pattern(Some(MJAI_PATTERN)),
                    )
                    .max_items(Some(136)),
            )
            .into()
    }
}

impl utoipa::ToSchema for TilesInput {}

impl TilesInput {
    fn parse(&self, field: Field) -> Result<Vec<Tile>, MahjongError> {
        match self {
            TilesInput::Tenhou(s) => mahjong::parse_field(field, s),
            TilesInput::Mjai(v) => mahjong::parse_field_mjai(field, v),
        }
    }

    /// How many tiles the input names, without parsing it: in tenhou
    /// notation each digit is one tile.
    fn count(&self) -> usize {
        match self {
            TilesInput::Tenhou(s) => s.bytes().filter(u8::is_ascii_digit).count(),
            TilesInput::Mjai(v) => v.len(),
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VariantName {
    HongKong,
    Riichi,
    RedDragon,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StrategyName {
    /// The seed's bot: its discard priority list, ties broken by efficiency.
    #[default]
    Classic,
    /// Fewest tiles from a standard hand, then most live accepting tiles, within the same plans.
    Efficient,
    /// Riichi: efficiency and value with push / fold against the table's threats (the
    /// default for Riichi). Hong Kong and Red Dragon play it as `efficient`.
    Balanced,
}

impl StrategyName {
    pub fn strategy(self) -> Strategy {
        match self {
            Self::Classic => Strategy::Classic,
            Self::Efficient => Strategy::Efficient,
            Self::Balanced => Strategy::Balanced,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MeldType {
    Chow,
    Pung,
    Kong,
    ConcealedKong,
}

impl MeldType {
    fn kind(self) -> MeldKind {
        match self {
            Self::Chow => MeldKind::Chow,
            Self::Pung => MeldKind::Pung,
            Self::Kong => MeldKind::Kong,
            Self::ConcealedKong => MeldKind::ConcealedKong,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MeldInput {
    #[serde(rename = "type")]
    pub kind: MeldType,
    pub tiles: TilesInput,
}

/// Who discarded the tile, seen from the bot's seat.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = Discarder)]
pub enum DiscarderName {
    Left,
    Across,
    Right,
}

/// Largest `min_score` a Red Dragon request may ask for.
const MAX_MIN_SCORE: u32 = 1000;

/// Defines a request struct with the fields both mahjong routes share, plus
/// `extra` ones, and a method building the engine's context from them.
macro_rules! mahjong_request {
    ($(#[$meta:meta])* $name:ident { $($extra:tt)* }) => {
        $(#[$meta])*
        #[derive(Debug, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            pub variant: VariantName,
            /// Hong Kong: the minimum fan to win, 0–13 (default 3). Tiers 0, 1–3, 4–6, 7+.
            #[serde(default)]
            #[schema(minimum = 0, maximum = 13)]
            pub min_fan: Option<u8>,
            /// Red Dragon: the minimum score to win (tiers 0, 1–11, 12 and up).
            #[serde(default)]
            #[schema(minimum = 0, maximum = 1000)]
            pub min_score: Option<u32>,
            /// The concealed tiles.
            pub hand: TilesInput,
            #[serde(default)]
            #[schema(max_items = 4)]
            pub melds: Vec<MeldInput>,
            /// Every tile visible outside the own hand: all discards, the other players' melds, dora indicators.
            #[serde(default)]
            pub visible: Option<TilesInput>,
            /// `E`, `S`, `W` or `N` (default `E`).
            #[serde(default)]
            #[schema(pattern = "^([ESWN]|[1-4]z)$")]
            pub seat_wind: Option<String>,
            #[serde(default)]
            #[schema(pattern = "^([ESWN]|[1-4]z)$")]
            pub round_wind: Option<String>,
            #[serde(default)]
            pub dora_indicators: Option<TilesInput>,
            /// Hong Kong flowers `1f`–`4f` and seasons `1g`–`4g`.
            #[serde(default)]
            #[schema(max_items = 8, inline)]
            pub flowers: Vec<FlowerName>,
            #[serde(default)]
            pub riichi_declared: bool,
            /// Riichi: the bot's own discards this hand, for furiten (no win on a discard when
            /// one of them would complete the hand). They are visible tiles, so `visible` must
            /// hold each of them too. Ignored by the other variants.
            #[serde(default)]
            pub own_discards: Option<TilesInput>,
            /// Riichi: the bot is in temporary or riichi furiten (it let a winning tile pass since
            /// its last discard, or at all since declaring riichi). Only the game's history shows
            /// that, so the caller says it. Ignored by the other variants.
            #[serde(default)]
            pub furiten: bool,
            /// `classic` unless set; `balanced` for Riichi.
            #[serde(default)]
            pub strategy: Option<StrategyName>,
            /// What the seat knows of the table beyond its hand (rivers, the others' melds
            /// and riichi, scores, the wall). Riichi uses all of it: the answer then weighs
            /// danger and value as the mjai route does. Hong Kong uses the river and the
            /// others' melds to defend its discard against ready-looking opponents (claims
            /// ignore it). Red Dragon ignores it: it wins by self-draw only, so nothing it
            /// discards can deal in.
            #[serde(default)]
            pub table: Option<TableInput>,
            $($extra)*
        }

        impl $name {
            /// The request's hand, parsed but not yet checked as a whole.
            fn setup(&self) -> Result<HandSetup, MahjongError> {
                let variant = match self.variant {
                    VariantName::HongKong => Variant::HongKong,
                    VariantName::Riichi => Variant::Riichi,
                    VariantName::RedDragon => Variant::RedDragon,
                };
                let mut ctx = HandSetup::new(variant, self.hand.parse(Field::Hand)?);
                if let Some(f) = self.min_fan {
                    ctx.min_fan = f;
                }
                ctx.min_score = self.min_score.unwrap_or(0);
                for (i, m) in self.melds.iter().enumerate() {
                    let kind = m.kind.kind();
                    ctx.melds.push(Meld { kind, tiles: m.tiles.parse(Field::Melds(i))? });
                }
                if let Some(v) = &self.visible {
                    ctx.visible = v.parse(Field::Visible)?;
                }
                if let Some(d) = &self.dora_indicators {
                    ctx.dora_indicators = d.parse(Field::DoraIndicators)?;
                }
                ctx.flowers = self.flowers.iter().map(|f| f.0).collect();
                ctx.riichi_declared = self.riichi_declared;
                if let Some(d) = &self.own_discards {
                    ctx.own_discards = d.parse(Field::OwnDiscards)?;
                }
                ctx.furiten = self.furiten;
                ctx.strategy = match (self.strategy, variant) {
                    (Some(s), _) => s.strategy(),
                    (None, Variant::Riichi) => Strategy::Balanced,
                    (None, _) => Strategy::Classic,
                };
                Ok(ctx)
            }

            /// Every list of the request within the bounds of the game, checked
            /// before anything is parsed, so that a huge list is a quick 422.
            fn check_sizes(&self) -> Result<(), ApiError> {
                if self.melds.len() > 4 {
                    return Err(MahjongError::TooManyMelds.into());
                }
                for (i, m) in self.melds.iter().enumerate() {
                    mahjong::check_list_len(Field::Melds(i), m.tiles.count())?;
                }
                for (field, len) in [
                    (Field::Hand, Some(self.hand.count())),
                    (Field::Visible, self.visible.as_ref().map(TilesInput::count)),
                    (Field::DoraIndicators, self.dora_indicators.as_ref().map(TilesInput::count)),
                    (Field::OwnDiscards, self.own_discards.as_ref().map(TilesInput::count)),
                    (Field::Flowers, Some(self.flowers.len())),
                ] {
                    mahjong::check_list_len(field, len.unwrap_or(0))?;
                }
                match &self.table {
                    Some(t) => t.check_sizes(),
                    None => Ok(()),
                }
            }

            /// The table fields, parsed; `None` unless the table bot answers (Riichi
            /// with table fields or the balanced strategy). Hong Kong's defence parses
            /// them itself (`hong_kong_table`).
            fn table_fields(&self, ctx: &HandSetup) -> Result<Option<TableFields>, ApiError> {
                if ctx.variant != Variant::Riichi
                    || (self.table.is_none() && ctx.strategy != Strategy::Balanced)
                {
                    return Ok(None);
                }
                match &self.table {
                    Some(t) => t.fields().map(Some),
                    None => Ok(Some(TableFields::default())),
                }
            }

            /// What the engine's context cannot check: wind names and the
            /// documented bound on `min_score`.
            fn winds_and_limits(&self, ctx: &mut HandSetup) -> Result<(), ApiError> {
                if self.min_score.is_some_and(|m| m > MAX_MIN_SCORE) {
                    return Err(ApiError::field("/min_score", format!("must be at most {MAX_MIN_SCORE}")));
                }
                for (value, slot, pointer) in [
                    (&self.seat_wind, &mut ctx.seat_wind, "/seat_wind"),
                    (&self.round_wind, &mut ctx.round_wind, "/round_wind"),
                ] {
                    if let Some(w) = value {
                        *slot = mahjong::parse_wind(w)
                            .ok_or_else(|| ApiError::field(pointer, format!("`{w}` is not a wind (E, S, W, N)")))?;
                    }
                }
                Ok(())
            }
        }
    };
}

/// A seat relative to the bot: `self`, `right` (plays after it), `across`, `left`.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RelativeSeat {
    #[serde(rename = "self")]
    Own,
    Right,
    Across,
    Left,
}

impl RelativeSeat {
    fn index(self) -> u8 {
        match self {
            Self::Own => 0,
            Self::Right => 1,
            Self::Across => 2,
            Self::Left => 3,
        }
    }
}

/// One discard, in the order the discards were made.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RiverInput {
    pub seat: RelativeSeat,
    #[schema(example = "5m")]
    pub tile: String,
    /// Discarded straight after drawing it.
    #[serde(default)]
    pub tsumogiri: bool,
    /// Riichi: the seat declared riichi with this discard (unused by Hong Kong).
    #[serde(default)]
    pub riichi: bool,
    /// Another seat called this tile (it then stands in that seat's meld).
    #[serde(default)]
    pub called: bool,
}

/// The other seats' melds.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpponentMeldsInput {
    #[serde(default)]
    #[schema(max_items = 4)]
    pub right: Vec<MeldInput>,
    #[serde(default)]
    #[schema(max_items = 4)]
    pub across: Vec<MeldInput>,
    #[serde(default)]
    #[schema(max_items = 4)]
    pub left: Vec<MeldInput>,
}

/// Largest honba or riichi-stick count accepted.
const MAX_STICKS: u32 = crate::mahjong::table::MAX_STICKS;

/// The table beyond the seat's hand. Hong Kong reads only `river` (seat, tile, tsumogiri,
/// called) and `melds`; the Riichi parts (`riichi`, `scores`, `wall`, `honba`, `kyotaku`,
/// `called_tile`) are checked but unused there.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableInput {
    /// Every discard of the hand so far, all seats, in order. The seat's own entries
    /// replace `own_discards`.
    #[serde(default)]
    #[schema(max_items = 136)]
    pub river: Vec<RiverInput>,
    #[serde(default)]
    pub melds: OpponentMeldsInput,
    /// Riichi: scores of self, right, across, left (default 25,000 each).
    #[serde(default)]
    pub scores: Option<[i32; 4]>,
    /// Tiles left in the live wall, 0-69 (default: 69 less the river's length).
    #[serde(default)]
    #[schema(maximum = 69)]
    pub wall: Option<u8>,
    #[serde(default)]
    #[schema(maximum = 100)]
    pub honba: u32,
    /// Riichi sticks on the table.
    #[serde(default)]
    #[schema(maximum = 100)]
    pub kyotaku: u32,
    /// Riichi: the tile the seat just called to make its last meld: kuikae forbids
    /// discarding it (and, after a chi, the other end of the sequence) now.
    #[serde(default)]
    #[schema(example = "3m")]
    pub called_tile: Option<String>,
}

/// Most discards a river may list: the set's 136 tiles.
const MAX_RIVER: usize = 136;

impl TableInput {
    /// The lists of the table within the bounds of the game.
    fn check_sizes(&self) -> Result<(), ApiError> {
        if self.river.len() > MAX_RIVER {
            return Err(ApiError::field(
                "/table/river",
                format!("at most {MAX_RIVER} discards (the set has {MAX_RIVER} tiles)"),
            ));
        }
        for (name, melds) in [
            ("right", &self.melds.right),
            ("across", &self.melds.across),
            ("left", &self.melds.left),
        ] {
            if melds.len() > 4 {
                return Err(ApiError::field(
                    format!("/table/melds/{name}"),
                    "at most 4 melds",
                ));
            }
            for (i, m) in melds.iter().enumerate() {
                if let Some((max, why)) = mahjong::max_tiles(Field::Melds(i))
                    && m.tiles.count() > max
                {
                    return Err(ApiError::field(
                        format!("/table/melds/{name}/{i}/tiles"),
                        format!("at most {max} tiles ({why})"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn fields(&self) -> Result<TableFields, ApiError> {
        self.check_sizes()?;
        let mut river = Vec::with_capacity(self.river.len());
        for (i, r) in self.river.iter().enumerate() {
            river.push(RiverEntry {
                seat: r.seat.index(),
                tile: single_tile(&r.tile, &format!("/table/river/{i}/tile"))?,
                tsumogiri: r.tsumogiri,
                riichi: r.riichi,
                called: r.called,
            });
        }
        let mut opponent_melds: [Vec<Meld>; 3] = Default::default();
        for (slot, (name, melds)) in opponent_melds.iter_mut().zip([
            ("right", &self.melds.right),
            ("across", &self.melds.across),
            ("left", &self.melds.left),
        ]) {
            for (i, m) in melds.iter().enumerate() {
                let pointer = format!("/table/melds/{name}/{i}/tiles");
                let tiles = match &m.tiles {
                    TilesInput::Tenhou(s) => mahjong::parse_tiles(s),
                    TilesInput::Mjai(v) => mahjong::parse_mjai(v),
                }
                .map_err(|e| ApiError::field(&pointer, e.to_string()))?;
                let meld = Meld {
                    kind: m.kind.kind(),
                    tiles,
                };
                if !meld.is_valid(None) {
                    return Err(ApiError::field(&pointer, "not a valid meld of that type"));
                }
                slot.push(meld);
            }
        }
        if self.honba > MAX_STICKS || self.kyotaku > MAX_STICKS {
            let pointer = if self.honba > MAX_STICKS {
                "/table/honba"
            } else {
                "/table/kyotaku"
            };
            return Err(ApiError::field(
                pointer,
                format!("must be at most {MAX_STICKS}"),
            ));
        }
        let max_score = crate::mahjong::table::MAX_SCORE;
        if let Some(i) = self
            .scores
            .iter()
            .flatten()
            .position(|s| s.abs() > max_score)
        {
            return Err(ApiError::field(
                format!("/table/scores/{i}"),
                format!("must be within ±{max_score}"),
            ));
        }
        let called_tile = match &self.called_tile {
            Some(s) => Some(single_tile(s, "/table/called_tile")?),
            None => None,
        };
        Ok(TableFields {
            river,
            opponent_melds,
            scores: self.scores,
            wall: self.wall,
            honba: self.honba,
            kyotaku: self.kyotaku,
            called_tile,
        })
    }
}

/// A flower (`1f`–`4f`) or season (`1g`–`4g`).
#[derive(Debug, Clone, Copy)]
pub struct FlowerName(pub mahjong::tiles::Flower);

impl<'de> Deserialize<'de> for FlowerName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        mahjong::parse_flower(&s).map(FlowerName).ok_or_else(|| {
            serde::de::Error::custom(format!("`{s}` is not a flower (1f-4f) or season (1g-4g)"))
        })
    }
}

impl utoipa::PartialSchema for FlowerName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some("^[1-4][fg]$"))
            .examples(["1f"])
            .into()
    }
}

impl utoipa::ToSchema for FlowerName {}

mahjong_request!(
    /// The bot's own turn, after it drew.
    DiscardRequest {
        /// The tile just drawn (it is also in `hand`).
        #[serde(default)]
        #[schema(example = "5m")]
        pub drawn: Option<String>,
    }
);

mahjong_request!(
    /// Another player discarded `tile`.
    ClaimRequest {
        /// The discarded tile.
        #[schema(example = "5m")]
        pub tile: String,
        pub from: DiscarderName,
    }
);

/// The request field of each engine input.
fn pointer_of(field: Field) -> String {
    match field {
        Field::Hand => "/hand".into(),
        Field::Drawn => "/drawn".into(),
        Field::MeldList => "/melds".into(),
        Field::Melds(i) => format!("/melds/{i}/tiles"),
        Field::Visible => "/visible".into(),
        Field::OwnDiscards => "/own_discards".into(),
        Field::DoraIndicators => "/dora_indicators".into(),
        Field::Flowers => "/flowers".into(),
        Field::Tile => "/tile".into(),
        Field::MinFan => "/min_fan".into(),
    }
}

impl FieldFault for TableFieldError {
    fn pointer(&self) -> String {
        match self {
            TableFieldError::RiichiTwice { index } => format!("/table/river/{index}/riichi"),
            TableFieldError::WallTooLarge { .. } => "/table/wall".into(),
            TableFieldError::CalledTileWithoutOpenMeld
            | TableFieldError::CalledTileNotInLastMeld => "/table/called_tile".into(),
            TableFieldError::TileCounts(_) => "/table".into(),
        }
    }
}

impl FieldFault for MahjongError {
    fn pointer(&self) -> String {
        pointer_of(self.field())
    }
}

fn single_tile(s: &str, pointer: &str) -> Result<Tile, ApiError> {
    mahjong::parse_tile(s)
        .map_err(|e| ApiError::field(pointer, format!("unknown tile `{s}` ({e})")))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DiscardCandidate {
    pub tile: String,
    /// Shanten after discarding this tile (every winning form of the variant).
    pub shanten: i8,
    /// Live tiles that would lower it.
    pub ukeire: u32,
    /// The tile's category in the seed's discard priority list.
    pub category: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnAction {
    Discard,
    Win,
    Kong,
    /// Riichi: nine kinds of terminals and honors on the first draw; the hand is
    /// aborted (kyuushu kyuuhai). `tile` is empty.
    NineTerminals,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DiscardResponse {
    pub action: TurnAction,
    /// The tile discarded, declared as kong, or won on.
    pub tile: String,
    /// Declare riichi with this discard.
    pub riichi: bool,
    pub reason: String,
    /// The hand plan: free, all_pungs, half_flush_m, full_flush_p, open, closed, ...
    pub plan: String,
    /// Of the hand after the chosen discard.
    pub shanten: i8,
    pub ukeire: u32,
    /// Fan (Hong Kong), han (Riichi) or points (Red Dragon) when winning; with the
    /// Riichi table bot (`balanced` or `table` given), the points the win scores.
    pub win_value: Option<u32>,
    /// On a win: what scores it, each with its fan (Hong Kong), han (Riichi: with the
    /// table bot, dora and red fives too) or points (Red Dragon).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub win_items: Vec<WinItem>,
    /// The same numbers for every distinct tile of the hand.
    pub candidates: Vec<DiscardCandidate>,
}

/// One scoring element of a win.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct WinItem {
    #[schema(example = "dragon pung")]
    pub name: String,
    /// Its fan (Hong Kong), han (Riichi) or points (Red Dragon).
    #[schema(example = 1)]
    pub value: u32,
}

pub(super) fn win_items(items: &[(&'static str, u32)]) -> Vec<WinItem> {
    items
        .iter()
        .map(|&(name, value)| WinItem {
            name: name.to_string(),
            value,
        })
        .collect()
}

/// The bot's move on its own turn: discard (maybe with riichi), declare a kong, or win.
#[utoipa::path(
    post,
    path = "/mahjong/discard",
    tag = "mahjong",
    request_body(content = DiscardRequest, example = json!({
        "variant": "riichi", "hand": "123m456p789s1127z5m", "drawn": "5m", "visible": "1z",
        "seat_wind": "E", "round_wind": "E", "strategy": "efficient"})),
    responses(
        (status = 200, body = DiscardResponse),
        (status = 422, description = "Invalid tiles, counts, melds or hand size", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn discard(
    ApiJson(req): ApiJson<DiscardRequest>,
) -> Result<Json<DiscardResponse>, ApiError> {
    req.check_sizes()?;
    let mut setup = req.setup()?;
    req.winds_and_limits(&mut setup)?;
    if let Some(d) = &req.drawn {
        setup.drawn = Some(single_tile(d, "/drawn")?);
    }
    let ctx = DiscardContext::for_turn(setup)?;
    let fields = req.table_fields(&ctx)?;
    let hk_fields = hong_kong_table(&req, &ctx)?;
    // The hand's numbers (plan, candidates) come from the stateless engine either way.
    let mut d = mahjong::decide_discard(&ctx);
    if let Some(hk) = &hk_fields {
        d = hong_kong_defence::defend(&ctx, hk, d);
    }
    let mut out = DiscardResponse {
        action: match d.action {
            Action::Discard => TurnAction::Discard,
            Action::Win => TurnAction::Win,
            Action::Kong => TurnAction::Kong,
        },
        tile: d.tile.to_string(),
        riichi: d.riichi,
        reason: d.reason,
        plan: d.plan,
        shanten: d.shanten,
        ukeire: d.ukeire,
        win_value: d.win_value,
        win_items: win_items(&d.win_items),
        candidates: d
            .candidates
            .iter()
            .map(|c| DiscardCandidate {
                tile: c.tile.to_string(),
                shanten: c.shanten,
                ukeire: c.ukeire,
                category: c.category.name().to_string(),
            })
            .collect(),
    };
    if let Some(fields) = fields {
        let table = stateless::table_from(&ctx, &fields, Question::OwnTurn)?;
        let t = riichi_bot::decide(&table, ctx.strategy);
        apply_table_turn(&mut out, &t);
    }
    Ok(Json(out))
}

/// Hong Kong's table fields for its defence, parsed; `None` for the other variants or
/// without `table`.
fn hong_kong_table(req: &DiscardRequest, ctx: &HandSetup) -> Result<Option<TableFields>, ApiError> {
    match &req.table {
        Some(t) if ctx.variant == Variant::HongKong => t.fields().map(Some),
        _ => Ok(None),
    }
}

/// The table bot's own-turn decision in the discard route's terms.
fn apply_table_turn(out: &mut DiscardResponse, t: &TableDecision) {
    let (action, tile, riichi) = match &t.action {
        TableAction::Hora { tile, .. } => (TurnAction::Win, *tile, false),
        TableAction::Ankan { consumed } => (TurnAction::Kong, consumed[0], false),
        TableAction::Kakan { tile, .. } => (TurnAction::Kong, *tile, false),
        TableAction::Riichi => match t.riichi_discard {
            Some(tile) => (TurnAction::Discard, tile, true),
            None => return,
        },
        TableAction::Discard { tile, .. } => (TurnAction::Discard, *tile, false),
        TableAction::NineTerminals => (TurnAction::NineTerminals, Tile::new(0), false),
        // An own turn never passes or calls.
        TableAction::Pass
        | TableAction::Chi { .. }
        | TableAction::Pon { .. }
        | TableAction::Daiminkan { .. } => return,
    };
    out.ukeire = out
        .candidates
        .iter()
        .find(|c| c.tile == tile.to_string() || c.tile == Tile::new(tile.index).to_string())
        .map_or(0, |c| c.ukeire);
    out.action = action;
    out.tile = if action == TurnAction::NineTerminals {
        String::new()
    } else {
        tile.to_string()
    };
    out.riichi = riichi;
    out.reason = t.reason.clone();
    out.shanten = t.shanten;
    out.win_value = t.win_points;
    out.win_items = win_items(&t.win_items);
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClaimActionName {
    Pass,
    Chow,
    Pung,
    Kong,
    Win,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ClaimResponse {
    pub action: ClaimActionName,
    /// The meld formed with the claimed tile (`456m`), the tile won on, or `""` on a pass.
    pub tiles: String,
    pub reason: String,
    /// On a win: what scores it, each with its fan (Hong Kong), han (Riichi: with the
    /// table bot, dora and red fives too) or points (Red Dragon).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub win_items: Vec<WinItem>,
}

/// Whether to claim another player's discard: chow (from the left only, where the variant has chows), pung, kong, win, or pass.
#[utoipa::path(
    post,
    path = "/mahjong/claim",
    tag = "mahjong",
    request_body(content = ClaimRequest, example = json!({
        "variant": "hong_kong", "min_fan": 0, "hand": "123m456p789s1155z", "tile": "5z", "from": "right"})),
    responses(
        (status = 200, body = ClaimResponse),
        (status = 422, description = "Invalid tiles, counts, melds or hand size", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn claim(ApiJson(req): ApiJson<ClaimRequest>) -> Result<Json<ClaimResponse>, ApiError> {
    req.check_sizes()?;
    let mut setup = req.setup()?;
    req.winds_and_limits(&mut setup)?;
    let tile = single_tile(&req.tile, "/tile")?;
    let from = match req.from {
        DiscarderName::Left => Discarder::Left,
        DiscarderName::Across => Discarder::Across,
        DiscarderName::Right => Discarder::Right,
    };
    let ctx = ClaimContext::new(setup, tile, from)?;
    if let Some(fields) = req.table_fields(&ctx)? {
        let question = Question::Discard {
            tile,
            from: from.seats_after(),
        };
        let table = stateless::table_from(&ctx, &fields, question)?;
        let t = riichi_bot::decide(&table, ctx.strategy);
        let (action, mut tiles) = match &t.action {
            TableAction::Hora { tile, .. } => (ClaimActionName::Win, vec![*tile]),
            TableAction::Pon { tile, consumed, .. } => {
                (ClaimActionName::Pung, vec![consumed[0], consumed[1], *tile])
            }
            TableAction::Chi { tile, consumed, .. } => {
                (ClaimActionName::Chow, vec![consumed[0], consumed[1], *tile])
            }
            _ => (ClaimActionName::Pass, Vec::new()),
        };
        tiles.sort();
        return Ok(Json(ClaimResponse {
            action,
            tiles: mahjong::tiles::TileCounts::from_tiles(&tiles).to_tenhou(),
            reason: t.reason,
            win_items: win_items(&t.win_items),
        }));
    }
    let d = mahjong::decide_claim(&ctx);
    Ok(Json(ClaimResponse {
        action: match d.action {
            ClaimAction::Pass => ClaimActionName::Pass,
            ClaimAction::Chow => ClaimActionName::Chow,
            ClaimAction::Pung => ClaimActionName::Pung,
            ClaimAction::Kong => ClaimActionName::Kong,
            ClaimAction::Win => ClaimActionName::Win,
        },
        tiles: d.tiles_string(),
        reason: d.reason,
        win_items: win_items(&d.win_items),
    }))
}
