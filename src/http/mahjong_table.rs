//! `POST /mahjong/table`: a hand of Riichi against three bots, statelessly.
//!
//! The client sends the seed, its seat and every decision it made so far; the
//! referee ([`crate::mahjong::riichi_game`]) replays the hand from the seed
//! with the bots' choices and those decisions, and answers with the table as
//! the seat sees it and either the seat's legal actions (send one back,
//! appended to `decisions`) or how the hand ended. Actions and events are mjai
//! objects, so the events can go to `/mahjong/mjai` for a hint.

use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::error::{ApiError, Problem};
use super::extract::ApiJson;
use super::mahjong::{StrategyName, WinItem};
use crate::mahjong::riichi_bot::{self, TableAction};
use crate::mahjong::riichi_game::{self, GameError, HandEnd, HandSetup, Outcome};
use crate::mahjong::table::{Table, Turn};
use crate::mahjong::tiles::{MeldKind, Tile};
use crate::protocol::mjai;

/// Decisions one request may carry; a seat makes far fewer in a hand.
const MAX_DECISIONS: usize = 256;
/// Largest seed (JSON integers beyond i64 are not portable).
const MAX_SEED: u64 = i64::MAX as u64;

/// A hand against three bots, as far as the seat has played it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableRequest {
    /// Shuffles the wall: the same seed and decisions give the same hand.
    #[schema(minimum = 0, maximum = 9223372036854775807_i64)]
    pub seed: u64,
    /// The player's seat, 0–3 (default 0).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 3)]
    pub seat: u8,
    /// The dealer's seat, 0–3 (default 0). The hand is East 1 with 25,000
    /// points each when the dealer is seat 0, East (dealer + 1) otherwise.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 3)]
    pub dealer: u8,
    /// The player's decisions so far, in order: each one of the `legal`
    /// actions (mjai action objects) an earlier answer offered.
    #[serde(default)]
    #[schema(value_type = Vec<Object>, max_items = 256)]
    pub decisions: Vec<Value>,
    /// The bots' strategy; `balanced` unless set.
    #[serde(default)]
    pub strategy: Option<StrategyName>,
}

/// Whether the hand waits for the player or is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HandState {
    Waiting,
    Over,
}

/// One meld as shown on the table.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MeldView {
    /// `chi`, `pon`, `kan` (open or added) or `ankan` (concealed).
    #[serde(rename = "type")]
    pub kind: String,
    pub tiles: Vec<String>,
}

/// One discard, in the order made.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RiverView {
    pub tile: String,
    /// Discarded straight after drawing it.
    pub tsumogiri: bool,
    /// Taken by another seat's call.
    pub called: bool,
    /// The riichi declaration tile.
    pub riichi: bool,
}

/// What everyone sees of one seat.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatView {
    pub seat: u8,
    /// The seat's wind: `E`, `S`, `W` or `N`.
    pub wind: String,
    pub score: i32,
    /// In riichi (declared, deposit taken).
    pub riichi: bool,
    /// Tiles in the concealed hand.
    pub concealed: u8,
    pub melds: Vec<MeldView>,
    pub river: Vec<RiverView>,
}

/// The table as the player's seat sees it. Tiles are mjai names (`5m`,
/// `5mr` a red five, `E` `S` `W` `N` winds, `P` `F` `C` dragons).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TableView {
    pub seat: u8,
    pub dealer: u8,
    /// `E` in East 1.
    pub round_wind: String,
    pub honba: u32,
    /// Riichi sticks on the table.
    pub kyotaku: u32,
    /// Tiles left to draw.
    pub wall: u8,
    pub dora_indicators: Vec<String>,
    /// The player's concealed tiles, sorted, without the tile just drawn.
    pub hand: Vec<String>,
    /// The tile just drawn, on the player's turn after a draw.
    pub drawn: Option<String>,
    /// Every seat, by seat number.
    pub seats: Vec<SeatView>,
}

/// How the hand ended.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HandResult {
    /// `win`, `exhaustive` (the wall ran out) or `nine_terminals`.
    pub end: String,
    /// The winner (`win`) or the seat that aborted (`nine_terminals`).
    pub seat: Option<u8>,
    /// `win`: the seat that dealt in; the winner itself for a self-draw.
    pub from: Option<u8>,
    /// `win`: the winning tile.
    pub tile: Option<String>,
    /// `win`: han (ura dora included) and fu.
    pub han: Option<u32>,
    pub fu: Option<u32>,
    /// `win`: what scores the hand.
    pub items: Vec<WinItem>,
    /// `win`: the winner's concealed tiles, the winning tile included.
    pub hand: Vec<String>,
    /// `win` after riichi: the ura-dora indicators.
    pub ura_indicators: Vec<String>,
    /// `exhaustive`: which seats were ready, by seat.
    pub ready: Vec<bool>,
    /// Points each seat gained or lost.
    pub deltas: [i32; 4],
    /// Scores after the hand.
    pub scores: [i32; 4],
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TableResponse {
    pub state: HandState,
    /// While `waiting`: the player's legal actions (mjai objects); send one
    /// back, appended to `decisions`.
    #[schema(value_type = Vec<Object>)]
    pub legal: Vec<Value>,
    pub table: TableView,
    /// Every event the seat has seen, as mjai objects (what `/mahjong/mjai`
    /// takes, with `player_id` the seat, for the bot's advice).
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// When `over`: how the hand ended.
    pub result: Option<HandResult>,
}

fn names(tiles: &[Tile]) -> Vec<String> {
    tiles.iter().map(|t| t.mjai_name()).collect()
}

fn view(table: &Table, wall: u8) -> TableView {
    let me = table.me;
    let drawn = match table.turn {
        Turn::Act {
            seat,
            drawn: Some(t),
            ..
        } if seat == me => Some(t),
        _ => None,
    };
    let mut hand = table.hand.clone();
    if let Some(d) = drawn
        && let Some(i) = hand.iter().position(|&t| t == d)
    {
        hand.remove(i);
    }
    hand.sort();
    let seats = (0..4u8)
        .map(|s| {
            let seat = &table.seats[usize::from(s)];
            let river = table
                .river
                .iter()
                .enumerate()
                .filter(|(_, r)| r.seat == s)
                .map(|(i, r)| RiverView {
                    tile: r.tile.mjai_name(),
                    tsumogiri: r.tsumogiri,
                    called: r.called,
                    riichi: seat.riichi == Some(i),
                })
                .collect();
            let melds = seat
                .melds
                .iter()
                .map(|m| MeldView {
                    kind: match m.kind {
                        MeldKind::Chow => "chi",
                        MeldKind::Pung => "pon",
                        MeldKind::Kong => "kan",
                        MeldKind::ConcealedKong => "ankan",
                    }
                    .to_string(),
                    tiles: names(&m.tiles),
                })
                .collect();
            SeatView {
                seat: s,
                wind: Tile::new(table.seat_wind(s)).mjai_name(),
                score: table.scores[usize::from(s)],
                riichi: seat.riichi_accepted,
                concealed: seat.concealed,
                melds,
                river,
            }
        })
        .collect();
    TableView {
        seat: me,
        dealer: table.dealer,
        round_wind: Tile::new(table.round_wind).mjai_name(),
        honba: table.honba,
        kyotaku: table.kyotaku,
        wall,
        dora_indicators: names(&table.dora_indicators),
        hand: names(&hand),
        drawn: drawn.map(|t| t.mjai_name()),
        seats,
    }
}

fn result(end: &HandEnd, deltas: [i32; 4], scores: [i32; 4]) -> HandResult {
    let mut out = HandResult {
        end: String::new(),
        seat: None,
        from: None,
        tile: None,
        han: None,
        fu: None,
        items: Vec::new(),
        hand: Vec::new(),
        ura_indicators: Vec::new(),
        ready: Vec::new(),
        deltas,
        scores,
    };
    match end {
        HandEnd::Win {
            winner,
            from,
            tile,
            han,
            fu,
            items,
            hand,
            ura_indicators,
            ..
        } => {
            out.end = "win".into();
            out.seat = Some(*winner);
            out.from = Some(*from);
            out.tile = Some(tile.mjai_name());
            out.han = Some(*han);
            out.fu = Some(*fu);
            out.items = super::mahjong::win_items(items);
            out.hand = names(hand);
            out.ura_indicators = names(ura_indicators);
        }
        HandEnd::Exhaustive { ready } => {
            out.end = "exhaustive".into();
            out.ready = ready.to_vec();
        }
        HandEnd::NineTerminals { seat } => {
            out.end = "nine_terminals".into();
            out.seat = Some(*seat);
        }
    }
    out
}

/// Plays a hand of Riichi against three bots, statelessly: the seed, the
/// player's seat and every decision so far in; the table as the seat sees it
/// and its legal actions, or how the hand ended, out.
#[utoipa::path(
    post,
    path = "/mahjong/table",
    tag = "mahjong",
    request_body(content = TableRequest, examples(
        ("a new hand" = (value = json!({"seed": 7}))),
        ("after one discard" = (value = json!({"seed": 7, "decisions": [
            {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": false}]}))),
    )),
    responses(
        (status = 200, body = TableResponse),
        (status = 422, description = "A decision that is not a legal action at its point \
            (`/decisions/3`), or one after the hand ended", body = Problem,
            content_type = "application/problem+json"),
    )
)]
pub async fn table(ApiJson(req): ApiJson<TableRequest>) -> Result<Json<TableResponse>, ApiError> {
    if req.seed > MAX_SEED {
        return Err(ApiError::field(
            "/seed",
            format!("must be at most {MAX_SEED}"),
        ));
    }
    if req.seat > 3 {
        return Err(ApiError::field("/seat", "must be a seat 0-3"));
    }
    if req.dealer > 3 {
        return Err(ApiError::field("/dealer", "must be a seat 0-3"));
    }
    if req.decisions.len() > MAX_DECISIONS {
        return Err(ApiError::field(
            "/decisions",
            format!("at most {MAX_DECISIONS} decisions"),
        ));
    }
    let decisions = req
        .decisions
        .iter()
        .enumerate()
        .map(|(i, d)| {
            mjai::parse_action(d).map_err(|e| ApiError::field(format!("/decisions/{i}"), e))
        })
        .collect::<Result<Vec<TableAction>, _>>()?;
    let strategy = req
        .strategy
        .map_or(crate::mahjong::Strategy::Balanced, StrategyName::strategy);
    let setup = HandSetup {
        dealer: req.dealer,
        ..HandSetup::new(req.seed)
    };
    let player = req.seat;
    let mut queue = decisions.into_iter();
    let mut used = 0;
    let played = riichi_game::play(&setup, &mut |seat, table, _legal| {
        if seat == player {
            let next = queue.next();
            used += usize::from(next.is_some());
            next
        } else {
            Some(riichi_bot::decide(table, strategy).action)
        }
    })
    .map_err(|e| match e {
        GameError::Illegal {
            seat,
            action,
            decision,
        } if seat == player => ApiError::field(
            format!("/decisions/{decision}"),
            format!(
                "not a legal action at this point: {}",
                mjai::action_value(seat, &action)
            ),
        ),
        other => ApiError::Internal(other.to_string()),
    })?;
    if used < req.decisions.len() {
        return Err(ApiError::field(
            format!("/decisions/{used}"),
            "the hand was over before this decision",
        ));
    }
    let own = &played.views[usize::from(player)];
    let events = played.events[usize::from(player)]
        .iter()
        .map(|e| mjai::event_value(player, e))
        .collect();
    let (state, legal, result) = match &played.outcome {
        Outcome::Waiting { legal, .. } => (
            HandState::Waiting,
            legal
                .iter()
                .map(|a| mjai::action_value(player, a))
                .collect(),
            None,
        ),
        Outcome::Over { end, deltas } => (
            HandState::Over,
            Vec::new(),
            Some(result(end, *deltas, played.scores)),
        ),
    };
    Ok(Json(TableResponse {
        state,
        legal,
        table: view(own, played.wall_left),
        events,
        result,
    }))
}
