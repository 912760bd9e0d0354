//! `POST /doudizhu/bid`: the bot's bid for the landlord seat.

use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CardsInput, RulesInput};
use crate::doudizhu::Rules;
use crate::doudizhu::bid::{self, BidError};
use crate::http::error::{ApiError, FieldFault, Problem};
use crate::http::extract::ApiJson;

impl FieldFault for BidError {
    fn pointer(&self) -> String {
        match self {
            BidError::HandSize(_) => "/hand".into(),
            BidError::TooManyBids(_) => "/bids".into(),
            BidError::OutOfRange { index, .. }
            | BidError::NotHigher { index, .. }
            | BidError::AfterThree { index } => format!("/bids/{index}"),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BidRequest {
    /// The bidder's 17 cards.
    pub hand: CardsInput,
    /// Earlier bids in order, 0 (pass) to 3.
    #[serde(default)]
    #[schema(max_items = 2)]
    pub bids: Vec<u8>,
    #[serde(default)]
    pub rules: Option<RulesInput>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct BidResponse {
    /// 0 = pass, else 1–3, always above the highest earlier bid.
    #[schema(minimum = 0, maximum = 3)]
    pub bid: u8,
    /// The hand's strength estimate (see the README).
    pub strength: i32,
    /// What the hand is worth regardless of earlier bids.
    pub wanted: u8,
    /// Fewest plays the hand splits into.
    pub plays: usize,
}

/// The bot's bid for the landlord seat.
#[utoipa::path(
    post,
    path = "/doudizhu/bid",
    tag = "doudizhu",
    request_body(content = BidRequest, example = json!({"hand": "33456789TJQKA22BR", "bids": [1]})),
    responses(
        (status = 200, body = BidResponse, example = json!({"bid": 3, "strength": 18, "wanted": 3, "plays": 4})),
        (status = 422, description = "Invalid hand or bids", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn bid(ApiJson(req): ApiJson<BidRequest>) -> Result<Json<BidResponse>, ApiError> {
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse_hand("/hand")?;
    let d = bid::choose_bid(hand, &req.bids, &rules)?;
    Ok(Json(BidResponse {
        bid: d.bid,
        strength: d.strength,
        wanted: d.wanted,
        plays: d.plays,
    }))
}
