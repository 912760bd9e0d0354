//! Dou Dizhu routes: request and response shapes, validation into engine
//! types, and mapping back. The rules themselves live in `crate::doudizhu`.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};

use super::AppState;
use super::error::{ApiError, FieldError, FieldFault, Problem};
use super::extract::ApiJson;
use super::string_or_list::{Expecting, StringOrList};
use crate::doudizhu::bid::{self, BidError};
use crate::doudizhu::bot::HistoryError;
use crate::doudizhu::endgame::{self, Outcome, Position, PositionError, Seat, SeatRole};
use crate::doudizhu::{self, CardError, Combo, ComboType, Hand, Rules};

/// Most cards one hand can hold (the landlord's 17 + 3).
pub use crate::doudizhu::endgame::MAX_HAND;

pub mod double;
pub mod play;

/// Cards: a string over `3456789TJQKA2BR` (B = black joker, R = red joker),
/// any order and case, `10` for `T`, spaces and commas ignored; or a list of
/// DouZero integers (3–14 for 3…A, 17 for 2, 20 black joker, 30 red joker).
#[derive(Debug, Clone)]
pub enum CardsInput {
    Text(String),
    DouZero(Vec<i64>),
}

impl<'de> Deserialize<'de> for CardsInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(
            match StringOrList::<DouZeroCard>::deserialize(deserializer)? {
                StringOrList::Text(s) => CardsInput::Text(s),
                StringOrList::List(cards) => {
                    CardsInput::DouZero(cards.into_iter().map(|c| c.0).collect())
                }
            },
        )
    }
}

impl Expecting for DouZeroCard {
    const EXPECTING: &'static str =
        "a card string such as \"33455TJ2BR\" or a list of DouZero card integers";
}

/// One element of a DouZero list: one of [`DOUZERO_CARDS`], anything else an
/// error naming the value.
struct DouZeroCard(i64);

impl<'de> Deserialize<'de> for DouZeroCard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CardVisitor;
        fn not_a_card<E: serde::de::Error>(shown: impl std::fmt::Display) -> E {
            E::custom(format!(
                "{shown} is not a card (DouZero cards are 3-14, 17, 20 and 30)"
            ))
        }
        impl<'de> serde::de::Visitor<'de> for CardVisitor {
            type Value = DouZeroCard;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a DouZero card integer (3-14, 17, 20 or 30)")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<DouZeroCard, E> {
                if DOUZERO_CARDS.contains(&v) {
                    Ok(DouZeroCard(v))
                } else {
                    Err(not_a_card(v))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<DouZeroCard, E> {
                match i64::try_from(v) {
                    Ok(v) => self.visit_i64(v),
                    Err(_) => Err(not_a_card(v)),
                }
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<DouZeroCard, E> {
                // JSON numbers beyond u64, and fractions, arrive as floats;
                // a huge one is shown short (1e300, not 301 digits).
                if v.abs() < 1e16 {
                    Err(not_a_card(v))
                } else {
                    Err(not_a_card(format_args!("{v:e}")))
                }
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<DouZeroCard, E> {
                let shown: String = s.chars().take(20).collect();
                Err(E::custom(format!(
                    "\"{shown}\" is not a card: a list holds DouZero integers (a card string is one string)"
                )))
            }
        }
        deserializer.deserialize_any(CardVisitor)
    }
}

/// Characters a card string may hold (the count limits are checked after).
const CARDS_PATTERN: &str = r"^([3-9TJQKA2BRtjqkabr ,]|10)*$";
/// DouZero's card integers.
const DOUZERO_CARDS: [i64; 15] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30];

impl utoipa::PartialSchema for CardsInput {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .description(Some(
                "Cards: a string over 3456789TJQKA2BR (B black joker, R red joker), any order \
                 and case, 10 for T, spaces and commas ignored; or DouZero integers (3-14 for \
                 3..A, 17 for 2, 20 black joker, 30 red joker). \"\" is the pass.",
            ))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(CARDS_PATTERN))
                    .max_length(Some(120))
                    .examples(["33455TJ2BR"]),
            )
            .item(
                ArrayBuilder::new()
                    .items(
                        ObjectBuilder::new()
                            .schema_type(Type::Integer)
                            .enum_values(Some(DOUZERO_CARDS)),
                    )
                    .max_items(Some(54))
                    .examples([serde_json::json!([3, 3, 4, 17, 30])]),
            )
            .into()
    }
}

impl utoipa::ToSchema for CardsInput {}

impl CardsInput {
    /// Parses into a hand, naming the offending card by pointer on failure.
    pub fn parse(&self, pointer: &str) -> Result<Hand, ApiError> {
        let result = match self {
            CardsInput::Text(s) => Hand::parse_str(s),
            CardsInput::DouZero(v) => Hand::from_douzero(v),
        };
        result.map_err(|e| {
            // For lists, point at the offending element itself.
            let at = match (&e, self) {
                (
                    CardError::UnknownCard { index, .. }
                    | CardError::TooManyOfRank { index, .. }
                    | CardError::DuplicateJoker { index, .. },
                    CardsInput::DouZero(_),
                ) => format!("{pointer}/{index}"),
                _ => pointer.to_string(),
            };
            ApiError::field(at, e.to_string())
        })
    }

    /// A hand of 1 to 20 cards.
    pub fn parse_hand(&self, pointer: &str) -> Result<Hand, ApiError> {
        let hand = self.parse(pointer)?;
        if hand.is_empty() {
            return Err(ApiError::field(pointer, "the hand is empty"));
        }
        hand.check_max_len(MAX_HAND)
            .map_err(|e| ApiError::field(pointer, e.to_string()))
    }
}

/// Optional rules, each on unless set to false (the DouZero/RLCard standard).
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RulesInput {
    /// Trio with one single, and planes with single wings.
    pub trio_solo: bool,
    /// Trio with a pair, and planes with pair wings.
    pub trio_pair: bool,
    /// Four of a kind with two singles.
    pub four_two_solo: bool,
    /// Four of a kind with two pairs.
    pub four_two_pair: bool,
}

impl Default for RulesInput {
    fn default() -> Self {
        let r = Rules::default();
        RulesInput {
            trio_solo: r.trio_solo,
            trio_pair: r.trio_pair,
            four_two_solo: r.four_two_solo,
            four_two_pair: r.four_two_pair,
        }
    }
}

impl From<RulesInput> for Rules {
    fn from(r: RulesInput) -> Rules {
        Rules {
            trio_solo: r.trio_solo,
            trio_pair: r.trio_pair,
            four_two_solo: r.four_two_solo,
            four_two_pair: r.four_two_pair,
        }
    }
}

/// Classifies a play that must be a legal combination under `rules` (the
/// empty play is the pass).
pub fn parse_play(input: &CardsInput, pointer: &str, rules: &Rules) -> Result<Combo, ApiError> {
    let cards = input.parse(pointer)?;
    doudizhu::classify(cards, rules).ok_or_else(|| {
        ApiError::field(
            pointer,
            format!("{cards} is not a legal combination under the rules in force"),
        )
    })
}

/// Checks that `parts` together fit in one deck (4 per rank, 1 per joker);
/// the error names the first part that overflows.
pub fn check_deck(parts: &[(&str, Hand)]) -> Result<(), ApiError> {
    let mut total = [0u8; 15];
    for (pointer, hand) in parts {
        for (t, c) in total.iter_mut().zip(hand.counts()) {
            *t += c;
        }
        if let Err(e) = Hand::from_counts(&total) {
            let what = match e {
                CardError::TooManyOfRank { rank, .. } => {
                    format!("more than four cards of rank {rank} in all")
                }
                CardError::DuplicateJoker { rank, .. } => {
                    format!("the joker {rank} appears more than once in all")
                }
                other => other.to_string(),
            };
            return Err(ApiError::Invalid(vec![FieldError::new(*pointer, what)]));
        }
    }
    Ok(())
}

/// A combination type by RLCard's name (`solo`, `trio_solo_chain`, `pass`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComboTypeName(pub ComboType);

impl From<ComboType> for ComboTypeName {
    fn from(k: ComboType) -> Self {
        ComboTypeName(k)
    }
}

impl Serialize for ComboTypeName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for ComboTypeName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        ComboType::from_name(&name)
            .map(ComboTypeName)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown combination type `{name}`")))
    }
}

impl utoipa::PartialSchema for ComboTypeName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ComboType::ALL.map(ComboType::as_str)))
            .description(Some("Combination type (RLCard's names)"))
            .into()
    }
}

impl utoipa::ToSchema for ComboTypeName {}

/// One play.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveOut {
    /// The cards, canonical (ascending rank order); `""` for the pass.
    #[schema(example = "333J")]
    pub cards: String,
    #[serde(rename = "type")]
    pub kind: ComboTypeName,
    /// Main rank: the lowest rank of the body (a chain's first rank, a trio's
    /// or four's own rank); `""` for the pass.
    #[schema(example = "3")]
    pub rank: String,
    /// Consecutive body ranks: the chain or plane length, 1 otherwise, 0 for the pass.
    #[schema(example = 1)]
    pub length: u8,
}

impl From<&Combo> for MoveOut {
    fn from(c: &Combo) -> Self {
        MoveOut {
            cards: c.cards.to_string(),
            kind: c.kind.into(),
            rank: if c.is_pass() {
                String::new()
            } else {
                c.rank.to_string()
            },
            length: c.length,
        }
    }
}

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

/// Seats, named from the landlord: `landlord_down` plays right after the
/// landlord, `landlord_up` right before.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SeatName {
    Landlord,
    LandlordDown,
    LandlordUp,
}

impl From<SeatName> for Seat {
    fn from(s: SeatName) -> Seat {
        match s {
            SeatName::Landlord => Seat::Landlord,
            SeatName::LandlordDown => Seat::LandlordDown,
            SeatName::LandlordUp => Seat::LandlordUp,
        }
    }
}

impl From<Seat> for SeatName {
    fn from(s: Seat) -> SeatName {
        match s {
            Seat::Landlord => SeatName::Landlord,
            Seat::LandlordDown => SeatName::LandlordDown,
            Seat::LandlordUp => SeatName::LandlordUp,
        }
    }
}

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
    super::check_budget(req.budget_ms)?;
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
