//! `POST /doudizhu/play`: the bot's play in a game, for the win or for
//! points, with ranked candidates on request.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CardsInput, ComboTypeName, MAX_HAND, RulesInput, SeatName};
use crate::doudizhu::bot::{self, Candidate, GameState, HistoryError, Objective, PlayOptions};
use crate::doudizhu::score::Payout;
use crate::doudizhu::{Hand, Rules};
use crate::http::AppState;
use crate::http::error::{ApiError, FieldFault, Problem};
use crate::http::extract::ApiJson;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The seat the bot plays; it must be this seat's turn.
    pub seat: SeatName,
    /// The bot's cards now.
    pub hand: CardsInput,
    /// Every play since card play began, in turn order starting with the
    /// landlord; `""` is a pass.
    #[serde(default)]
    #[schema(max_items = 400)]
    pub history: Vec<CardsInput>,
    /// The three bottom cards the landlord took (public), when known.
    #[serde(default)]
    pub landlord_cards: Option<CardsInput>,
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// Thinking time in milliseconds (default from the configuration).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 600000)]
    pub budget_ms: Option<u64>,
    /// Seeds the bot's sampling of hidden cards: the same request and seed give the same answer.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 9223372036854775807_i64)]
    pub seed: Option<u64>,
    /// What the bot plays for: `win` (the default: the most games won) or
    /// `score` (the most points: bombs and springs count).
    #[serde(default)]
    pub objective: ObjectiveName,
    /// How many ranked candidate moves to return with their estimates (1 to
    /// 9); without it, none.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 9)]
    pub candidates: Option<usize>,
    /// How finished games are scored (for `score` and the candidates'
    /// expected points).
    #[serde(default)]
    pub payout: Option<PayoutInput>,
}

/// What the bot plays for.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ObjectiveName {
    #[default]
    Win,
    Score,
}

impl From<ObjectiveName> for Objective {
    fn from(o: ObjectiveName) -> Objective {
        match o {
            ObjectiveName::Win => Objective::Win,
            ObjectiveName::Score => Objective::Score,
        }
    }
}

/// Payout rules, each on unless set to false: base from the bid, ×2 for
/// every bomb and the rocket, ×2 for a spring or an anti-spring, ×2 for
/// each double (the landlord's on both stakes, a peasant's on its own).
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PayoutInput {
    /// ×2 for every bomb and the rocket played.
    pub bombs_double: bool,
    /// ×2 for a spring (春天) or an anti-spring (反春).
    pub spring_doubles: bool,
    /// Seats may double (加倍) before play.
    pub doubling: bool,
}

impl Default for PayoutInput {
    fn default() -> Self {
        let p = Payout::default();
        PayoutInput {
            bombs_double: p.bombs_double,
            spring_doubles: p.spring_doubles,
            doubling: p.doubling,
        }
    }
}

impl From<PayoutInput> for Payout {
    fn from(p: PayoutInput) -> Payout {
        Payout {
            bombs_double: p.bombs_double,
            spring_doubles: p.spring_doubles,
            doubling: p.doubling,
        }
    }
}

/// One ranked move and what the bot estimated for it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayCandidate {
    /// The move; `""` is a pass.
    pub cards: String,
    #[serde(rename = "type")]
    pub kind: ComboTypeName,
    /// Share of the sampled deals this move wins for the bot's side.
    pub win_rate: f64,
    /// Average points for the bot's seat per unit of base (bid 1, nobody
    /// doubled): the landlord wins or loses 2, a peasant 1, times the
    /// multiplier of the bombs (and, in rollouts, the spring).
    pub expected_points: f64,
    /// Deals solved exactly, or rollouts, behind the estimates.
    pub samples: u32,
}

impl From<&Candidate> for PlayCandidate {
    fn from(c: &Candidate) -> Self {
        PlayCandidate {
            cards: c.play.cards.to_string(),
            kind: c.play.kind.into(),
            win_rate: c.win_rate,
            expected_points: c.expected_points,
            samples: c.samples,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PlayResponse {
    /// The play; `""` is a pass.
    pub cards: String,
    #[serde(rename = "type")]
    pub kind: ComboTypeName,
    /// Why, in a word: `search` (sampled deals solved exactly), `only_move`,
    /// `go_out`, a heuristic rule name, ...
    pub reason: String,
    /// With search: the share of sampled deals this play wins for the bot's side.
    pub evaluation: Option<f64>,
    /// Deals of the hidden cards sampled, and how many were solved exactly.
    pub deals: u32,
    pub deals_solved: u32,
    pub elapsed_ms: f64,
    /// With `candidates`: the ranked moves, the chosen one first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<PlayCandidate>>,
}

/// Largest history a game can have: every card played singly with two passes
/// after each, plus slack for passes.
const MAX_HISTORY: usize = 400;

/// The bot's play in a game of Dou Dizhu.
#[utoipa::path(
    post,
    path = "/doudizhu/play",
    tag = "doudizhu",
    request_body(content = PlayRequest, example = json!({
        "seat": "landlord_down", "hand": "3455567899TJQKA2B",
        "history": ["3334"], "landlord_cards": "4TR", "budget_ms": 200, "seed": 7})),
    responses(
        (status = 200, body = PlayResponse, example = json!({
            "cards": "3555", "type": "trio_solo", "reason": "follow_split",
            "evaluation": null, "deals": 0, "deals_solved": 0, "elapsed_ms": 0.23})),
        (status = 422, description = "Invalid game: wrong turn, hand size, impossible history", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn play(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<PlayRequest>,
) -> Result<Json<PlayResponse>, ApiError> {
    let budget_ms = crate::http::check_budget(req.budget_ms)?;
    let seed = crate::http::check_seed(req.seed)?;
    let rules: Rules = req.rules.unwrap_or_default().into();
    let hand = req.hand.parse("/hand")?;
    hand.check_max_len(MAX_HAND)
        .map_err(|e| ApiError::field("/hand", e.to_string()))?;
    if req.history.len() > MAX_HISTORY {
        return Err(ApiError::field(
            "/history",
            format!("at most {MAX_HISTORY} entries"),
        ));
    }
    let history = req
        .history
        .iter()
        .enumerate()
        .map(|(i, h)| h.parse(&format!("/history/{i}")))
        .collect::<Result<Vec<Hand>, ApiError>>()?;
    let landlord_cards = match &req.landlord_cards {
        Some(c) => Some(c.parse("/landlord_cards")?),
        None => None,
    };
    let game = GameState::from_history(req.seat.into(), hand, &history, landlord_cards, rules)?;
    let candidates = match req.candidates {
        Some(n) if !(1..=bot::MAX_CANDIDATES).contains(&n) => {
            return Err(ApiError::field(
                "/candidates",
                format!("must be 1 to {}", bot::MAX_CANDIDATES),
            ));
        }
        other => other,
    };
    let opts = PlayOptions {
        objective: req.objective.into(),
        payout: req.payout.unwrap_or_default().into(),
        candidates: candidates.unwrap_or(0),
        ..PlayOptions::default()
    };
    let budget = state.pool.budget(budget_ms);
    // No shared cache here: a cached position solves in fewer nodes, which
    // would let the node-capped search reach other deals and change the
    // answer; the same request and seed must give the same play.
    let decision = state
        .pool
        .run(budget, move |stop| {
            bot::choose_play_with(&game, stop, seed, None, &opts)
        })
        .await?;
    Ok(Json(PlayResponse {
        cards: decision.play.cards.to_string(),
        kind: decision.play.kind.into(),
        reason: decision.reason.to_string(),
        evaluation: decision.evaluation,
        deals: decision.deals,
        deals_solved: decision.deals_solved,
        elapsed_ms: decision.elapsed.as_secs_f64() * 1000.0,
        candidates: candidates.map(|_| decision.candidates.iter().map(Into::into).collect()),
    }))
}

/// Where a fault in a game's history lies in a play request (the double
/// request shares these field names).
impl FieldFault for HistoryError {
    fn pointer(&self) -> String {
        match self {
            HistoryError::NotYourTurn { .. } => "/seat".into(),
            HistoryError::HandSize { .. } => "/hand".into(),
            HistoryError::LandlordCardsSize(_) | HistoryError::LandlordCardsNotInHand => {
                "/landlord_cards".into()
            }
            HistoryError::NotACombo { index, .. }
            | HistoryError::PassOnLead { index, .. }
            | HistoryError::DoesNotBeat { index, .. }
            | HistoryError::Overdrawn { index, .. }
            | HistoryError::GameOver { index, .. } => format!("/history/{index}"),
            HistoryError::TooManyCopies { index, in_hand, .. } => match index {
                Some(i) => format!("/history/{i}"),
                None if *in_hand => "/hand".into(),
                None => "/landlord_cards".into(),
            },
        }
    }
}
