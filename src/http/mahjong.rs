//! Mahjong routes: request shapes, validation into the engine's context, and
//! mapping decisions back. The rules and strategies live in `crate::mahjong`.

use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};

use super::error::{ApiError, Problem};
use super::extract::ApiJson;
use crate::mahjong::tiles::{Meld, MeldKind, Tile, Variant};
use crate::mahjong::{self, Action, ClaimAction, DiscardContext, Field, MahjongError, Strategy};

/// Tiles: a tenhou string (`123m456p789s1234567z`, 0 = red five) or a list of
/// mjai names (`5m`, `5mr`, `E`, `S`, `W`, `N`, `P`, `F`, `C`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum TilesInput {
    Tenhou(String),
    Mjai(Vec<String>),
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

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MeldInput {
    #[serde(rename = "type")]
    pub kind: MeldType,
    pub tiles: TilesInput,
}

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Discarder {
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
            #[serde(default)]
            pub strategy: StrategyName,
            $($extra)*
        }

        impl $name {
            fn context(&self) -> Result<DiscardContext, MahjongError> {
                let variant = match self.variant {
                    VariantName::HongKong => Variant::HongKong,
                    VariantName::Riichi => Variant::Riichi,
                    VariantName::RedDragon => Variant::RedDragon,
                };
                let mut ctx = DiscardContext::new(variant, self.hand.parse(Field::Hand)?);
                if let Some(f) = self.min_fan {
                    ctx.min_fan = f;
                }
                ctx.min_score = self.min_score.unwrap_or(0);
                for (i, m) in self.melds.iter().enumerate() {
                    let kind = match m.kind {
                        MeldType::Chow => MeldKind::Chow,
                        MeldType::Pung => MeldKind::Pung,
                        MeldType::Kong => MeldKind::Kong,
                        MeldType::ConcealedKong => MeldKind::ConcealedKong,
                    };
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
                ctx.strategy = self.strategy.strategy();
                Ok(ctx)
            }

            /// What the engine's context cannot check: wind names and the
            /// documented bound on `min_score`.
            fn winds_and_limits(&self, ctx: &mut DiscardContext) -> Result<(), ApiError> {
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
        pub from: Discarder,
    }
);

fn invalid(e: MahjongError) -> ApiError {
    let pointer = e.pointer();
    let message = e.to_string();
    // The engine's messages start with the pointer; the problem names it already.
    let message = message
        .strip_prefix(&format!("{pointer}: "))
        .unwrap_or(&message)
        .to_string();
    ApiError::field(pointer, message)
}

fn single_tile(s: &str, pointer: &str) -> Result<Tile, ApiError> {
    mahjong::parse_tile(s)
        .map_err(|e| ApiError::field(pointer, format!("unknown tile `{s}` ({e})")))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CandidateOut {
    pub tile: String,
    /// Shanten after discarding this tile (every winning form of the variant).
    pub shanten: i8,
    /// Live tiles that would lower it.
    pub ukeire: u32,
    /// The tile's category in the seed's discard priority list.
    pub category: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnAction {
    Discard,
    Win,
    Kong,
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
    /// Fan (Hong Kong), han (Riichi) or points (Red Dragon) when winning.
    pub win_value: Option<u32>,
    /// The same numbers for every distinct tile of the hand.
    pub candidates: Vec<CandidateOut>,
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
    let mut ctx = req.context().map_err(invalid)?;
    req.winds_and_limits(&mut ctx)?;
    if let Some(d) = &req.drawn {
        ctx.drawn = Some(single_tile(d, "/drawn")?);
    }
    mahjong::validate(&ctx).map_err(invalid)?;
    let d = mahjong::decide_discard(&ctx);
    Ok(Json(DiscardResponse {
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
        candidates: d
            .candidates
            .iter()
            .map(|c| CandidateOut {
                tile: c.tile.to_string(),
                shanten: c.shanten,
                ukeire: c.ukeire,
                category: c.category.name().to_string(),
            })
            .collect(),
    }))
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
    let mut ctx = req.context().map_err(invalid)?;
    req.winds_and_limits(&mut ctx)?;
    let tile = single_tile(&req.tile, "/tile")?;
    mahjong::validate_claim(&ctx, tile).map_err(invalid)?;
    let from = match req.from {
        Discarder::Left => mahjong::From::Left,
        Discarder::Across => mahjong::From::Across,
        Discarder::Right => mahjong::From::Right,
    };
    let d = mahjong::decide_claim(&ctx, tile, from);
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
    }))
}
