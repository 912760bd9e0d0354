//! `POST /doudizhu/endgame`: a position with every hand known, solved.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CardsInput, ComboTypeName, RulesInput, SeatName, check_deck, parse_play};
use crate::doudizhu::endgame::{self, Outcome, Position, PositionError, Seat, SeatRole};
use crate::doudizhu::{Combo, Hand, Rules};
use crate::http::AppState;
use crate::http::error::{ApiError, FieldFault, Problem};
use crate::http::extract::ApiJson;

/// The hands of the seats that take part: the landlord and one or both peasants.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EndgameHands {
    pub landlord: Option<CardsInput>,
    pub landlord_down: Option<CardsInput>,
    pub landlord_up: Option<CardsInput>,
}

/// The play standing on the table and who made it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StandingPlay {
    pub seat: SeatName,
    pub cards: CardsInput,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EndgameRequest {
    pub hands: EndgameHands,
    pub to_move: SeatName,
    /// The play the mover must beat; absent when the mover leads. With three
    /// seats, the seats between `last.seat` and `to_move` are taken to have passed.
    #[serde(default)]
    pub last: Option<StandingPlay>,
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// Thinking time in milliseconds (default and maximum from the configuration).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 600000)]
    pub budget_ms: Option<u64>,
    /// Threads this search may take (default 1; at most the server's
    /// `workers`): the root's moves are shared out among them.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub threads: Option<usize>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EndgameResult {
    Win,
    Loss,
    Unknown,
}

/// A play in a solved line.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct LinePlay {
    pub seat: SeatName,
    /// `""` for a pass.
    pub cards: String,
}

/// A play without its rank and length.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Play {
    pub cards: String,
    #[serde(rename = "type")]
    pub kind: ComboTypeName,
}

impl From<&Combo> for Play {
    fn from(c: &Combo) -> Self {
        Play {
            cards: c.cards.to_string(),
            kind: c.kind.into(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct EndgameResponse {
    /// For the side of `to_move`: can it force going out first (either peasant
    /// going out wins for the peasants)? `unknown` when the budget ran out.
    pub result: EndgameResult,
    /// A winning move when `result` is `win`; otherwise the move that resists
    /// longest, or the best found so far.
    pub best_move: Option<Play>,
    /// Every move that keeps the win (complete when `complete` is true).
    pub winning_moves: Vec<Play>,
    /// A principal line to the end of the game when solved.
    pub pv: Vec<LinePlay>,
    pub nodes: u64,
    pub elapsed_ms: f64,
    /// True when the result is exact, `winning_moves` is the full list and `pv` reaches the end.
    pub complete: bool,
    /// True when the answer came from the shared cache of solved positions.
    pub cached: bool,
}

/// Solves a Dou Dizhu endgame with every hand known: can the side to move
/// force going out first?
#[utoipa::path(
    post,
    path = "/doudizhu/endgame",
    tag = "doudizhu",
    request_body(content = EndgameRequest, examples(
        ("duel" = (value = json!({"hands": {"landlord": "AA", "landlord_down": "2KKTT77554"},
            "to_move": "landlord_down", "last": {"seat": "landlord", "cards": "8"}, "budget_ms": 2000}))),
        ("three seats" = (value = json!({"hands": {"landlord": "BR JJ 999", "landlord_down": "3333 4567 TT AAAA", "landlord_up": "5"},
            "to_move": "landlord_down", "rules": {"trio_pair": false}}))),
    )),
    responses(
        (status = 200, body = EndgameResponse, example = json!({
            "result": "loss", "best_move": {"cards": "T", "type": "solo"}, "winning_moves": [],
            "pv": [{"seat": "landlord_down", "cards": "T"}, {"seat": "landlord", "cards": "A"},
                   {"seat": "landlord_down", "cards": "2"}, {"seat": "landlord", "cards": ""},
                   {"seat": "landlord_down", "cards": "55"}, {"seat": "landlord", "cards": ""},
                   {"seat": "landlord_down", "cards": "77"}, {"seat": "landlord", "cards": ""},
                   {"seat": "landlord_down", "cards": "KK"}, {"seat": "landlord", "cards": ""},
                   {"seat": "landlord_down", "cards": "4"}, {"seat": "landlord", "cards": "A"}],
            "nodes": 225, "elapsed_ms": 2.2, "complete": true, "cached": false})),
        (status = 422, description = "Invalid position", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn endgame(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<EndgameRequest>,
) -> Result<Json<EndgameResponse>, ApiError> {
    let position = endgame_position(&req)?;
    let threads = req.threads.unwrap_or(1);
    let workers = state.pool.workers();
    if !(1..=workers).contains(&threads) {
        return Err(ApiError::field(
            "/threads",
            format!("must be 1 to {workers} (the server's workers)"),
        ));
    }
    let budget = state.pool.budget(req.budget_ms);
    let cache = state.cache.clone();
    let remote = state.remote_cache.clone();
    let solution = state
        .pool
        .run_on(threads, budget, move |stop| {
            // The shared cache holds whole answers, checked move by move
            // before use; a position this replica holds needs no round trip.
            let shared = remote.map(|r| (r, endgame::cache_key(&position)));
            if let Some((remote, key)) = &shared
                && cache.peek(key).is_none()
            {
                let started = std::time::Instant::now();
                if let Some(mut answer) =
                    remote.get(key, |bytes| endgame::answer_from_bytes(&position, bytes))
                {
                    answer.elapsed = started.elapsed();
                    return answer;
                }
            }
            let solution = endgame::solve_endgame_on(&position, stop, Some(&cache), threads);
            if let Some((remote, key)) = shared
                && !solution.cached
                && let Some(bytes) = endgame::answer_bytes(&solution)
            {
                remote.put(key, bytes);
            }
            solution
        })
        .await?;
    Ok(Json(EndgameResponse {
        result: match solution.outcome {
            Outcome::Win => EndgameResult::Win,
            Outcome::Loss => EndgameResult::Loss,
            Outcome::Unknown => EndgameResult::Unknown,
        },
        best_move: solution.best_move.as_ref().map(Play::from),
        winning_moves: solution.winning_moves.iter().map(Play::from).collect(),
        pv: solution
            .pv
            .iter()
            .map(|(seat, c)| LinePlay {
                seat: (*seat).into(),
                cards: c.cards.to_string(),
            })
            .collect(),
        nodes: solution.nodes,
        elapsed_ms: solution.elapsed.as_secs_f64() * 1000.0,
        complete: solution.complete,
        cached: solution.cached,
    }))
}

/// Validates an endgame request into a position, naming the offending field.
fn endgame_position(req: &EndgameRequest) -> Result<Position, ApiError> {
    crate::http::check_budget(req.budget_ms)?;
    let rules: Rules = req.rules.unwrap_or_default().into();
    let inputs = [
        ("/hands/landlord", &req.hands.landlord),
        ("/hands/landlord_down", &req.hands.landlord_down),
        ("/hands/landlord_up", &req.hands.landlord_up),
    ];
    let mut hands = [None; 3];
    for (slot, (pointer, input)) in hands.iter_mut().zip(inputs) {
        if let Some(input) = input {
            *slot = Some(input.parse_hand(pointer)?);
        }
    }
    let last = match &req.last {
        Some(play) => {
            let combo = parse_play(&play.cards, "/last/cards", &rules)?;
            Some((Seat::from(play.seat), combo))
        }
        None => None,
    };
    let mut parts: Vec<(&str, Hand)> = inputs
        .iter()
        .zip(hands)
        .filter_map(|((pointer, _), h)| h.map(|h| (*pointer, h)))
        .collect();
    if let Some((_, combo)) = &last {
        parts.push(("/last/cards", combo.cards));
    }
    check_deck(&parts)?;

    let to_move = Seat::from(req.to_move);
    Ok(Position::new(hands, to_move, last, rules)?)
}

impl FieldFault for PositionError {
    fn pointer(&self) -> String {
        match self {
            PositionError::NoLandlord => "/hands/landlord".to_string(),
            PositionError::AbsentSeat {
                role: SeatRole::StandingPlay,
                ..
            } => "/last/seat".to_string(),
            PositionError::AbsentSeat {
                role: SeatRole::ToMove,
                ..
            } => "/to_move".to_string(),
            PositionError::EmptyHand(seat) | PositionError::TooManyCards { seat, .. } => {
                format!("/hands/{}", seat.as_str())
            }
            PositionError::LastIsMover(_) => "/last/seat".to_string(),
            PositionError::LastIsPass => "/last/cards".to_string(),
            PositionError::SeatCount(_)
            | PositionError::TooManyCopies(_)
            | PositionError::UnknownSeat(_) => "/hands".to_string(),
        }
    }
}
