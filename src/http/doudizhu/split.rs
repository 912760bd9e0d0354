//! `POST /doudizhu/split`: the best way to play a hand out.

use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CardsInput, ComboTypeName, RulesInput};
use crate::doudizhu::{self, Rules};
use crate::http::error::{ApiError, Problem};
use crate::http::extract::ApiJson;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SplitRequest {
    /// The cards to split (1–20).
    pub hand: CardsInput,
    #[serde(default)]
    pub rules: Option<RulesInput>,
}

/// One group of a split.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Group {
    #[schema(example = "33345")]
    pub cards: String,
    #[serde(rename = "type")]
    pub kind: ComboTypeName,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SplitResponse {
    /// The fewest plays that empty the hand.
    pub plays: usize,
    /// A partition of the hand into that many legal plays, ascending by lowest card.
    pub groups: Vec<Group>,
    /// Strength of this split: the sum of the groups' values minus 7 per play
    /// (higher is stronger; see the README).
    pub score: i32,
}

/// The best way to play a hand out: fewest plays, ties broken by strength.
#[utoipa::path(
    post,
    path = "/doudizhu/split",
    tag = "doudizhu",
    request_body(content = SplitRequest, example = json!({"hand": "3334567899TTJJQQKA2B"})),
    responses(
        (status = 200, body = SplitResponse, example = json!({"plays": 4, "groups": [
            {"cards": "3332", "type": "trio_solo"}, {"cards": "456789TJQ", "type": "solo_chain"},
            {"cards": "9TJQKA", "type": "solo_chain"}, {"cards": "B", "type": "solo"}],
            "score": -21})),
        (status = 422, description = "Invalid hand or rules", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn split(ApiJson(req): ApiJson<SplitRequest>) -> Result<Json<SplitResponse>, ApiError> {
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse_hand("/hand")?;
    let s = doudizhu::split(hand, &rules);
    Ok(Json(SplitResponse {
        plays: s.plays,
        groups: s
            .groups
            .iter()
            .map(|g| Group {
                cards: g.cards.to_string(),
                kind: g.kind.into(),
            })
            .collect(),
        score: s.score,
    }))
}
