//! The gomoku route: a position (size, rule, every move so far) validated
//! into the engine's board, searched on the pool, the answer mapped back.
//! Rules and search live in `crate::gomoku`.

use std::time::Instant;

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};

use super::AppState;
use super::error::{ApiError, FieldFault, Problem};
use super::extract::ApiJson;
use crate::gomoku::{self, Board, Limits, PositionError, Rule};

/// A board point `[x, y]`: column and row, 0-based from the top-left
/// (Gomocup's coordinates).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cell(pub u32, pub u32);

impl<'de> Deserialize<'de> for Cell {
    /// By hand: serde's tuple struct rejects a third element as a JSON syntax
    /// error (a 400), where this is well-formed JSON of the wrong shape (422).
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CellVisitor;
        impl<'de> serde::de::Visitor<'de> for CellVisitor {
            type Value = Cell;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a point [x, y] of two non-negative integers")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Cell, A::Error> {
                use serde::de::Error;
                let x = seq
                    .next_element::<u32>()?
                    .ok_or_else(|| A::Error::invalid_length(0, &self))?;
                let y = seq
                    .next_element::<u32>()?
                    .ok_or_else(|| A::Error::invalid_length(1, &self))?;
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(A::Error::invalid_length(3, &self));
                }
                Ok(Cell(x, y))
            }
        }
        deserializer.deserialize_seq(CellVisitor)
    }
}

impl utoipa::PartialSchema for Cell {
    fn schema() -> RefOr<Schema> {
        let coordinate = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .maximum(Some(gomoku::MAX_SIZE as u32 - 1));
        ArrayBuilder::new()
            .description(Some(
                "A point [x, y]: column and row, 0-based from the top-left.",
            ))
            .items(coordinate)
            .min_items(Some(2))
            .max_items(Some(2))
            .examples([serde_json::json!([7, 7])])
            .into()
    }
}

impl utoipa::ToSchema for Cell {}

impl From<gomoku::Point> for Cell {
    fn from((x, y): gomoku::Point) -> Cell {
        // Points are on a board of at most 22 × 22.
        Cell(x as u32, y as u32)
    }
}

#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RuleName {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins; an overline wins for neither colour.
    Standard,
    /// Exactly five wins for black, five or more for white; black may not
    /// make a double three, a double four or an overline.
    Renju,
}

impl From<RuleName> for Rule {
    fn from(r: RuleName) -> Rule {
        match r {
            RuleName::Freestyle => Rule::Freestyle,
            RuleName::Standard => Rule::Standard,
            RuleName::Renju => Rule::Renju,
        }
    }
}

/// Board size when the request names none.
const DEFAULT_SIZE: usize = 15;
/// Deepest `max_depth` a request may ask for.
pub const MAX_DEPTH: u32 = 60;
/// Largest `max_nodes` (JSON integers beyond i64 are not portable).
const MAX_NODES: u64 = i64::MAX as u64;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The board is size × size, 5 to 22 (default 15; Gomocup plays 15 and 20).
    #[serde(default)]
    #[schema(minimum = 5, maximum = 22, default = 15)]
    pub size: Option<usize>,
    /// `freestyle` (default), `standard` or `renju`.
    #[serde(default)]
    pub rule: RuleName,
    /// Every stone so far, in order, black first. At most size × size.
    #[serde(default)]
    // 484 = MAX_SIZE²; the handler checks the tighter size² bound.
    #[schema(max_items = 484)]
    pub moves: Vec<Cell>,
    /// Thinking time in milliseconds (default from the configuration).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 600000)]
    pub budget_ms: Option<u64>,
    /// Stop after this many plies of iterative deepening.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 60)]
    pub max_depth: Option<u32>,
    /// Stop after this many search nodes. With `max_depth`, makes the answer
    /// reproducible (as long as `budget_ms` isn't reached first).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 9223372036854775807_i64)]
    pub max_nodes: Option<u64>,
    /// Rank this many moves, best first, in the answer's `candidates` (1 to
    /// 10). Each line is a full search of its own at every iteration, so the
    /// same budget reaches less deep with more lines. Without it the answer
    /// has no `candidates`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10)]
    pub candidates: Option<usize>,
}

/// One ranked move of the answer's `candidates`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CandidateMove {
    /// The move: never occupied, never forbidden.
    #[serde(rename = "move")]
    pub point: Cell,
    /// The value of playing it, for the side to move.
    pub eval: i32,
    /// As the answer's `win_in`, for this move.
    pub win_in: Option<i32>,
    /// The expected line, starting with `move`.
    pub pv: Vec<Cell>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MoveResponse {
    /// The move for the side to move: never occupied, never forbidden.
    #[serde(rename = "move")]
    pub best: Cell,
    /// The position's value for the side to move (large for a proven win).
    pub eval: i32,
    /// `n > 0`: the side to move wins with its n-th move from now; `n < 0`:
    /// it loses against best defence after n opponent moves; null: unknown.
    pub win_in: Option<i32>,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// The expected line, starting with `move`.
    pub pv: Vec<Cell>,
    pub elapsed_ms: f64,
    /// Present when the request asked for `candidates`: the ranked moves,
    /// best first; the first is `move` with `eval`, `win_in` and `pv`. It may
    /// hold fewer than asked: no more than the moves the search considers,
    /// and one when the position decides the move at the root (a five, a
    /// forced block, a proven win by threats, a lost position) or the search
    /// was stopped before ranking. An iteration cut short by the budget
    /// lists its deeper lines first, then the rest of the previous
    /// iteration's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<CandidateMove>>,
}

/// The board size a request names (or the default), checked.
fn board_size(size: Option<usize>) -> Result<usize, ApiError> {
    let size = size.unwrap_or(DEFAULT_SIZE);
    if !(gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&size) {
        return Err(ApiError::field(
            "/size",
            format!(
                "must be {} to {}, not {size}",
                gomoku::MIN_SIZE,
                gomoku::MAX_SIZE
            ),
        ));
    }
    Ok(size)
}

/// A request's moves as engine points, once they are known to fit the board.
fn points(moves: &[Cell], size: usize) -> Result<Vec<gomoku::Point>, ApiError> {
    if moves.len() > size * size {
        return Err(ApiError::field(
            "/moves",
            format!("{} moves don't fit on a {size}x{size} board", moves.len()),
        ));
    }
    Ok(moves.iter().map(|c| (c.0 as usize, c.1 as usize)).collect())
}

impl MoveRequest {
    /// The engine's board and limits, or a 422 naming the offending field.
    fn position(&self) -> Result<(Board, Limits), ApiError> {
        let size = board_size(self.size)?;
        if self
            .max_depth
            .is_some_and(|d| !(1..=MAX_DEPTH).contains(&d))
        {
            return Err(ApiError::field(
                "/max_depth",
                format!("must be 1 to {MAX_DEPTH}"),
            ));
        }
        if self
            .max_nodes
            .is_some_and(|n| !(1..=MAX_NODES).contains(&n))
        {
            return Err(ApiError::field(
                "/max_nodes",
                format!("must be 1 to {MAX_NODES}"),
            ));
        }
        if self
            .candidates
            .is_some_and(|n| !(1..=gomoku::MAX_CANDIDATES).contains(&n))
        {
            return Err(ApiError::field(
                "/candidates",
                format!("must be 1 to {}", gomoku::MAX_CANDIDATES),
            ));
        }
        let moves = points(&self.moves, size)?;
        let board = Board::from_moves(size, self.rule.into(), &moves)?;
        let limits = Limits {
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            candidates: self.candidates.unwrap_or(1),
        };
        Ok((board, limits))
    }
}

impl FieldFault for PositionError {
    fn pointer(&self) -> String {
        match self {
            PositionError::BadSize(_) => "/size".to_string(),
            PositionError::OffBoard { index, .. }
            | PositionError::Occupied { index, .. }
            | PositionError::AfterWin { index }
            | PositionError::Forbidden { index, .. } => format!("/moves/{index}"),
            PositionError::AlreadyWon | PositionError::BoardFull => "/moves".to_string(),
        }
    }
}

/// The engine's move in a gomoku position: it completes a five when it can,
/// blocks the opponent's four otherwise, and else searches (threat-space
/// search and iterative-deepening alpha-beta) until the budget, `max_depth`
/// or `max_nodes`. With `candidates` it also ranks that many moves (a
/// multi-PV search), returned in `candidates` only when asked for.
#[utoipa::path(
    post,
    path = "/gomoku/move",
    tag = "gomoku",
    request_body(content = MoveRequest, examples(
        ("opening" = (value = json!({"size": 15, "rule": "freestyle",
            "moves": [[7, 7], [8, 8], [8, 6]], "budget_ms": 500}))),
        ("reproducible" = (value = json!({"size": 15, "rule": "renju",
            "moves": [[7, 7], [7, 8], [8, 7]], "max_depth": 6, "max_nodes": 200000}))),
        ("ranked hints" = (value = json!({"size": 15, "rule": "freestyle",
            "moves": [[7, 7], [8, 8], [8, 6]], "budget_ms": 500, "candidates": 3}))),
    )),
    responses(
        (status = 200, body = MoveResponse, example = json!({
            "move": [9, 5], "eval": 45, "win_in": null, "depth": 9, "nodes": 412345,
            "pv": [[9, 5], [6, 8], [10, 4]], "elapsed_ms": 500.3})),
        (status = 422, description = "Invalid position: a stone off the board or on an occupied point, \
            a move after the game was won, a renju-forbidden move by black, a won game or a full board",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn best_move(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<Json<MoveResponse>, ApiError> {
    let budget_ms = super::check_budget(req.budget_ms)?;
    let (board, limits) = req.position()?;
    let asked_candidates = req.candidates.is_some();
    let budget = state.pool.budget(budget_ms);
    let (result, board, elapsed) = state
        .pool
        .run(budget, move |stop| {
            let stop = match limits.max_nodes {
                Some(n) => stop.with_node_limit(n),
                None => stop.clone(),
            };
            let started = Instant::now();
            let result = gomoku::search(&board, &limits, &stop);
            (result, board, started.elapsed())
        })
        .await?;
    let answered = std::iter::once(result.best).chain(result.candidates.iter().map(|c| c.point));
    for p in answered {
        if !board.is_legal(p) {
            return Err(ApiError::Internal(format!(
                "the engine answered the illegal move {p:?}"
            )));
        }
    }
    let candidates = asked_candidates.then(|| {
        result
            .candidates
            .iter()
            .map(|c| CandidateMove {
                point: c.point.into(),
                eval: c.eval,
                win_in: c.win_in,
                pv: c.pv.iter().copied().map(Cell::from).collect(),
            })
            .collect()
    });
    Ok(Json(MoveResponse {
        best: result.best.into(),
        eval: result.eval,
        win_in: result.win_in,
        depth: result.depth,
        nodes: result.nodes,
        pv: result.pv.iter().copied().map(Cell::from).collect(),
        elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        candidates,
    }))
}

/// A game so far, for the referee route.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The board is size × size, 5 to 22 (default 15).
    #[serde(default)]
    #[schema(minimum = 5, maximum = 22, default = 15)]
    pub size: Option<usize>,
    /// `freestyle` (default), `standard` or `renju`.
    #[serde(default)]
    pub rule: RuleName,
    /// Every stone so far, in order, black first; the last may end the game.
    #[serde(default)]
    #[schema(max_items = 484)]
    pub moves: Vec<Cell>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Black,
    White,
}

impl From<gomoku::Stone> for Colour {
    fn from(s: gomoku::Stone) -> Colour {
        match s {
            gomoku::Stone::Black => Colour::Black,
            gomoku::Stone::White => Colour::White,
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    /// The game goes on.
    Open,
    /// The last move made a winning five.
    Won,
    /// The board is full and nobody won.
    Drawn,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PositionResponse {
    pub state: GameState,
    /// The side to move while the game is open; null once it is over.
    pub to_move: Option<Colour>,
    /// The side whose last move won.
    pub winner: Option<Colour>,
    /// The winning run of stones (five, or longer where the rule lets it
    /// win); empty unless `state` is `won`.
    pub five: Vec<Cell>,
    /// Renju with black to move: every empty point black may not play
    /// (double three, double four, overline); empty otherwise.
    pub forbidden: Vec<Cell>,
}

/// The referee: where a game stands after its moves, who is to move, who
/// won and with which stones, and in renju the points black may not play.
/// The moves must be legal; the last one may end the game.
#[utoipa::path(
    post,
    path = "/gomoku/position",
    tag = "gomoku",
    request_body(content = PositionRequest, examples(
        ("renju" = (value = json!({"size": 15, "rule": "renju",
            "moves": [[6, 7], [0, 0], [7, 7], [0, 2], [8, 8], [0, 4], [8, 9], [14, 0]]}))),
        ("won" = (value = json!({"size": 15, "rule": "freestyle",
            "moves": [[3, 7], [3, 9], [4, 7], [4, 9], [5, 7], [5, 9], [6, 7], [6, 9], [7, 7]]}))),
    )),
    responses(
        (status = 200, body = PositionResponse, example = json!({
            "state": "open", "to_move": "black", "winner": null, "five": [],
            "forbidden": [[8, 7]]})),
        (status = 422, description = "Invalid game: a stone off the board or on an occupied point, \
            a move after the game was won, a renju-forbidden move by black",
            body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn position(
    ApiJson(req): ApiJson<PositionRequest>,
) -> Result<Json<PositionResponse>, ApiError> {
    let size = board_size(req.size)?;
    let moves = points(&req.moves, size)?;
    let board = Board::replay(size, req.rule.into(), &moves)?;
    let winner = board.winner();
    let state = if winner.is_some() {
        GameState::Won
    } else if board.is_full() {
        GameState::Drawn
    } else {
        GameState::Open
    };
    let cells = |points: Vec<gomoku::Point>| points.into_iter().map(Cell::from).collect();
    Ok(Json(PositionResponse {
        state,
        to_move: (state == GameState::Open).then(|| board.to_move().into()),
        winner: winner.map(Colour::from),
        five: cells(board.five()),
        forbidden: cells(board.forbidden_points()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: serde_json::Value) -> Result<MoveRequest, ApiError> {
        super::super::extract::parse(json.to_string().as_bytes())
    }

    fn pointer(e: ApiError) -> String {
        match e {
            ApiError::Invalid(errors) => errors[0].pointer.clone(),
            other => panic!("not a validation error: {other:?}"),
        }
    }

    #[test]
    fn shape_errors_name_the_field() {
        for (body, at) in [
            (
                serde_json::json!({"moves": [[7, 7], [7, -1]]}),
                "/moves/1/1",
            ),
            (serde_json::json!({"moves": [[7, 7, 7]]}), "/moves/0"),
            (serde_json::json!({"rule": "caro"}), "/rule"),
            (serde_json::json!({"size": -3}), "/size"),
            (
                serde_json::json!({"moves": [], "colour": "black"}),
                "/colour",
            ),
        ] {
            let e = request(body.clone()).unwrap_err();
            assert_eq!(pointer(e), at, "{body}");
        }
    }

    #[test]
    fn defaults() {
        let r = request(serde_json::json!({})).unwrap();
        let (board, limits) = r.position().unwrap();
        assert_eq!(board.size(), 15);
        assert_eq!(board.rule(), Rule::Freestyle);
        assert!(limits.max_depth.is_none() && limits.max_nodes.is_none());
    }

    #[test]
    fn bounds_are_checked_in_the_handler_too() {
        for (body, at) in [
            (serde_json::json!({"size": 4}), "/size"),
            (serde_json::json!({"size": 23}), "/size"),
            (serde_json::json!({"max_depth": 0}), "/max_depth"),
            (serde_json::json!({"max_depth": 61}), "/max_depth"),
            (serde_json::json!({"max_nodes": 0}), "/max_nodes"),
            (serde_json::json!({"max_nodes": u64::MAX}), "/max_nodes"),
            (serde_json::json!({"candidates": 0}), "/candidates"),
            (serde_json::json!({"candidates": 11}), "/candidates"),
            (
                serde_json::json!({"size": 5, "moves": vec![[0, 0]; 26]}),
                "/moves",
            ),
        ] {
            let Err(e) = request(body.clone()).unwrap().position() else {
                panic!("{body} passed");
            };
            assert_eq!(pointer(e), at, "{body}");
        }
    }

    #[test]
    fn position_errors_point_at_the_move() {
        for (body, at) in [
            (serde_json::json!({"moves": [[7, 7], [15, 0]]}), "/moves/1"),
            (
                serde_json::json!({"moves": [[7, 7], [8, 8], [7, 7]]}),
                "/moves/2",
            ),
            (
                serde_json::json!({"size": 5, "moves": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1], [4, 0], [4, 1]]}),
                "/moves/9",
            ),
            (
                serde_json::json!({"moves": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1], [4, 0]]}),
                "/moves",
            ),
        ] {
            let Err(e) = request(body.clone()).unwrap().position() else {
                panic!("{body} passed");
            };
            assert_eq!(pointer(e), at, "{body}");
        }
    }
}
