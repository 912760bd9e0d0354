//! `POST /mahjong/mjai`: one Riichi seat's decision from an mjai event log.
//!
//! The log is replayed into a table by the protocol front end ([`crate::protocol::mjai`]); the
//! answer is exactly one mjai action object, as an mjai bot prints it, with the bot's
//! explanation under `meta`.

use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::error::{ApiError, Problem};
use super::extract::ApiJson;
use super::mahjong::StrategyName;
use crate::mahjong::riichi_bot;
use crate::mahjong::table::Table;
use crate::protocol::mjai::{self, MAX_EVENTS};

/// A seat and its view of the game so far.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MjaiRequest {
    /// The bot's seat, 0-3.
    #[schema(minimum = 0, maximum = 3)]
    pub player_id: u8,
    /// The mjai events as this seat sees them (others' draws and starting hands as
    /// `"?"`), from `start_game` or from the current hand's `start_kyoku` up to the event
    /// that asks for a reaction.
    #[schema(value_type = Vec<Object>, max_items = 4096)]
    pub events: Vec<Value>,
    /// Riichi strategy; `balanced` unless set.
    #[serde(default)]
    pub strategy: Option<StrategyName>,
    /// Accepted for uniformity with the search routes; a mahjong decision takes a few
    /// milliseconds at most and does not use it.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 600000)]
    pub budget_ms: Option<u64>,
}

/// An mjai action: `dahai`, `reach`, `chi`, `pon`, `ankan`, `kakan`, `hora`,
/// `ryukyoku` or `none`, plus `meta` (reason, shanten, strategy).
#[derive(Debug, ToSchema)]
#[schema(value_type = Object, example = json!({"type": "dahai", "actor": 0, "pai": "9m",
    "tsumogiri": false, "meta": {"reason": "attack: fastest and most valuable", "shanten": 2,
    "strategy": "balanced"}}))]
pub struct MjaiAction(pub Value);

/// The seat's action after the last event of an mjai log.
#[utoipa::path(
    post,
    path = "/mahjong/mjai",
    tag = "mahjong",
    request_body(content = MjaiRequest, example = json!({
        "player_id": 0,
        "events": [
            {"type": "start_kyoku", "bakaze": "E", "dora_marker": "2s", "kyoku": 1, "honba": 0,
             "kyotaku": 0, "oya": 0, "scores": [25000, 25000, 25000, 25000],
             "tehais": [["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","P","9m"],
                        ["?","?","?","?","?","?","?","?","?","?","?","?","?"],
                        ["?","?","?","?","?","?","?","?","?","?","?","?","?"],
                        ["?","?","?","?","?","?","?","?","?","?","?","?","?"]]},
            {"type": "tsumo", "actor": 0, "pai": "C"}]})),
    responses(
        (status = 200, body = MjaiAction),
        (status = 422, description = "An event that cannot happen: `pointer` names it (`/events/17`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn mjai(ApiJson(req): ApiJson<MjaiRequest>) -> Result<Json<Value>, ApiError> {
    if req.player_id > 3 {
        return Err(ApiError::field("/player_id", "must be a seat 0-3"));
    }
    if req.events.len() > MAX_EVENTS {
        return Err(ApiError::field(
            "/events",
            format!("at most {MAX_EVENTS} events"),
        ));
    }
    super::check_budget(req.budget_ms)?;
    let strategy = req
        .strategy
        .map_or(crate::mahjong::Strategy::Balanced, StrategyName::strategy);
    let mut table = Table::new(req.player_id);
    mjai::replay(&mut table, &req.events, 0).map_err(|e| ApiError::field(e.pointer, e.message))?;
    let decision = riichi_bot::decide(&table, strategy);
    Ok(Json(mjai::action_json(&table, &decision, true)))
}
