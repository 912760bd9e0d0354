//! `POST /doudizhu/moves`: every legal play of a hand.

use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CardsInput, MoveOut, RulesInput, check_deck, parse_play};
use crate::doudizhu::{self, Combo, Rules};
use crate::http::error::{ApiError, Problem};
use crate::http::extract::ApiJson;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MovesRequest {
    /// The mover's cards (1–20).
    pub hand: CardsInput,
    /// The standing play to beat; absent or `""` when the mover leads.
    #[serde(default)]
    pub last: Option<CardsInput>,
    #[serde(default)]
    pub rules: Option<RulesInput>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MovesResponse {
    pub count: usize,
    /// Every legal play exactly once (grouped by type, then main rank, length
    /// and kickers); when following, the pass comes last.
    pub moves: Vec<MoveOut>,
}

/// Every legal move: all leads, or every play that beats `last` plus the pass.
#[utoipa::path(
    post,
    path = "/doudizhu/moves",
    tag = "doudizhu",
    request_body(content = MovesRequest, examples(
        ("lead" = (value = json!({"hand": "33345"}))),
        ("follow" = (value = json!({"hand": "3334445566KKKK", "last": "777J", "rules": {"trio_pair": false}}))),
    )),
    responses(
        (status = 200, body = MovesResponse, example = json!({"count": 6, "moves": [
            {"cards": "6KKK", "type": "trio_solo", "rank": "K", "length": 1},
            {"cards": "5KKK", "type": "trio_solo", "rank": "K", "length": 1},
            {"cards": "4KKK", "type": "trio_solo", "rank": "K", "length": 1},
            {"cards": "3KKK", "type": "trio_solo", "rank": "K", "length": 1},
            {"cards": "KKKK", "type": "bomb", "rank": "K", "length": 1},
            {"cards": "", "type": "pass", "rank": "", "length": 0}]})),
        (status = 422, description = "Invalid hand, play or rules", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn moves(ApiJson(req): ApiJson<MovesRequest>) -> Result<Json<MovesResponse>, ApiError> {
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse_hand("/hand")?;
    let last = match &req.last {
        Some(input) => Some(parse_play(input, "/last", &rules)?),
        None => None,
    };
    if let Some(last) = &last {
        check_deck(&[("/hand", hand), ("/last", last.cards)])?;
    }
    let last = last.filter(|c| !c.is_pass());
    let mut plays = doudizhu::legal_moves(hand, last.as_ref(), &rules);
    if last.is_some() {
        plays.push(Combo::pass());
    }
    Ok(Json(MovesResponse {
        count: plays.len(),
        moves: plays.iter().map(MoveOut::from).collect(),
    }))
}
