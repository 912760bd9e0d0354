//! `POST /doudizhu/double`: whether a seat should double (加倍) before play.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CardsInput, RulesInput, SeatName};
use crate::doudizhu::Rules;
use crate::doudizhu::bot::{self, GameState};
use crate::doudizhu::endgame::Seat;
use crate::http::AppState;
use crate::http::error::{ApiError, Problem};
use crate::http::extract::ApiJson;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DoubleRequest {
    /// The seat deciding.
    pub seat: SeatName,
    /// The seat's cards before play: 20 for the landlord (the bottom cards
    /// included), 17 for a peasant.
    pub hand: CardsInput,
    /// The three bottom cards the landlord took (public).
    pub landlord_cards: CardsInput,
    /// The winning bid, 1 to 3 (default 1): it scales the expected points.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 3)]
    pub bid: Option<u8>,
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// Thinking time in milliseconds (default from the configuration).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 600000)]
    pub budget_ms: Option<u64>,
    /// Seeds the dealing of the hidden cards: the same request and seed give the same answer.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 9223372036854775807_i64)]
    pub seed: Option<u64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DoubleResponse {
    /// Whether to double.
    pub double: bool,
    /// The estimated share of games the seat's side wins.
    pub win_rate: f64,
    /// Deals played out behind the estimate.
    pub samples: u32,
    /// The seat's expected points if it doubles, at this bid, before bombs
    /// and springs (the landlord's stake is twice a peasant's).
    pub expected_points_double: f64,
    /// The same if it does not double.
    pub expected_points_stay: f64,
}

/// Whether the seat should double its stake before play.
#[utoipa::path(
    post,
    path = "/doudizhu/double",
    tag = "doudizhu",
    request_body(content = DoubleRequest, example = json!({
        "seat": "landlord", "hand": "33456789TJQKA22BRKKK", "landlord_cards": "KKR",
        "bid": 3, "seed": 1})),
    responses(
        (status = 200, body = DoubleResponse, example = json!({
            "double": true, "win_rate": 0.98828125, "samples": 256,
            "expected_points_double": 11.71875, "expected_points_stay": 5.859375})),
        (status = 422, description = "Invalid hand, bottom cards or bid", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn double(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<DoubleRequest>,
) -> Result<Json<DoubleResponse>, ApiError> {
    let budget_ms = crate::http::check_budget(req.budget_ms)?;
    let seed = crate::http::check_seed(req.seed)?;
    let bid = req.bid.unwrap_or(1);
    if !(1..=3).contains(&bid) {
        return Err(ApiError::field("/bid", "must be 1 to 3"));
    }
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse_hand("/hand")?;
    let bottom = req.landlord_cards.parse("/landlord_cards")?;
    let seat = Seat::from(req.seat);
    // A peasant's hand and the bottom cards are apart; the landlord's holds them.
    if !seat.is_landlord() {
        super::check_deck(&[("/hand", hand), ("/landlord_cards", bottom)])?;
    }
    let expected = bot::starting_cards(seat);
    if hand.len() != expected {
        return Err(ApiError::field(
            "/hand",
            format!(
                "the {} holds {expected} cards before play, got {}",
                seat.as_str(),
                hand.len()
            ),
        ));
    }
    let game = GameState::before_play(seat, hand, Some(bottom), rules)?;
    let budget = state.pool.budget(budget_ms);
    let decision = state
        .pool
        .run(budget, move |stop| bot::choose_double(&game, stop, seed))
        .await?
        .ok_or_else(|| ApiError::field("/hand", "no deal of the other cards fits this hand"))?;
    let unit = if seat.is_landlord() { 2.0 } else { 1.0 };
    let stay = (2.0 * decision.win_rate - 1.0) * unit * f64::from(bid);
    Ok(Json(DoubleResponse {
        double: decision.double,
        win_rate: decision.win_rate,
        samples: decision.samples,
        expected_points_double: 2.0 * stay,
        expected_points_stay: stay,
    }))
}
