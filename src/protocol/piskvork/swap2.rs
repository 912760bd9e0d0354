//! The brain's side of the swap2 opening (`SWAP2BOARD`): which stones to
//! open with and which colour to take, decided by the engine's own numbers.
//!
//! * **No stones** (the brain opens): each shape of [`OPENINGS`] that fits
//!   the board is put around the centre (black, white, black) and searched
//!   for white, the side to move, within [`OPENING_NODES`]; the brain plays
//!   the shape whose value is nearest 0, since the opponent will take
//!   whichever side is better. The shapes were chosen offline from all
//!   shapes within four points of the centre as those the engine scores
//!   nearest 0 (within 20 000 nodes) on 15×15 under freestyle and exactly
//!   five and on 20×20 under freestyle; the search at move time picks among
//!   them for the actual rule and size. Once the clock runs out the shapes
//!   not yet searched are left out.
//! * **Three or five stones** (white is to move and the brain chooses): one
//!   search of the position for white within the move's time. The brain
//!   stays white and plays the search's move when white's value is at
//!   least 0, and answers `SWAP` (taking black) otherwise. The third option
//!   after three stones, adding a white and a black stone and letting the
//!   opponent choose, is never taken: the opponent would pick the better
//!   side, so by the engine's numbers it is worth at most 0 to the brain,
//!   while taking the better side now is worth at least 0.

use crate::gomoku::{Board, Limits, Point, Rule, SearchResult};
use crate::stop::Stop;

/// Opening shapes: white's stone and black's second, as offsets `(dx, dy)`
/// from black's first stone at the centre. The first ones fit a 5×5 board.
pub const OPENINGS: [[(i32, i32); 2]; 8] = [
    [(2, 2), (2, 1)],
    [(1, 0), (-1, 2)],
    [(2, 1), (-2, -2)],
    [(2, 2), (2, 3)],
    [(2, 1), (-2, -4)],
    [(1, 1), (1, 4)],
    [(2, 0), (4, -2)],
    [(3, 1), (1, -4)],
];

/// Node budget of each opening shape's search: enough for a few plies on
/// an open board, and all eight together stay well inside a second.
pub const OPENING_NODES: u64 = 20_000;

/// The brain's choice after three or five stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The brain takes black; white (the opponent) moves next.
    Swap,
    /// The brain stays white and plays this move.
    Play(Point),
}

/// The stones of `shape` around the centre of a `size` board, in move
/// order, if they all fit.
pub fn opening_stones(size: usize, shape: [(i32, i32); 2]) -> Option<[Point; 3]> {
    let c = (size / 2) as i32;
    let at = |(dx, dy): (i32, i32)| {
        let (x, y) = (c + dx, c + dy);
        let inside = (0..size as i32).contains(&x) && (0..size as i32).contains(&y);
        inside.then_some((x as usize, y as usize))
    };
    Some([at((0, 0))?, at(shape[0])?, at(shape[1])?])
}

/// The opening for an empty `size` board under `rule`: the fitting shape
/// whose search for white comes nearest 0, with that value. `search` runs
/// one capped search; it is not called once `stop` has fired (after the
/// first shape).
pub fn choose_opening(
    size: usize,
    rule: Rule,
    stop: &Stop,
    mut search: impl FnMut(&Board) -> Option<SearchResult>,
) -> Option<([Point; 3], i32)> {
    let mut best: Option<([Point; 3], i32)> = None;
    for shape in OPENINGS {
        let Some(stones) = opening_stones(size, shape) else {
            continue;
        };
        if best.is_some() && stop.should_stop() {
            break;
        }
        let Ok(board) = Board::from_moves(size, rule, &stones) else {
            continue;
        };
        let Some(found) = search(&board) else {
            continue;
        };
        if best.is_none_or(|(_, eval)| found.eval.abs() < eval.abs()) {
            best = Some((stones, found.eval));
        }
    }
    best
}

/// The answer after three or five stones, from a search of the position
/// for white (the side to move): stay white when white is not worse.
pub fn choose_side(found: &SearchResult) -> Choice {
    if found.eval >= 0 {
        Choice::Play(found.best)
    } else {
        Choice::Swap
    }
}

/// The limits of one opening shape's search: the brain's own, within
/// [`OPENING_NODES`].
pub fn opening_limits(brain: &Limits) -> Limits {
    Limits {
        max_nodes: Some(brain.max_nodes.unwrap_or(u64::MAX).min(OPENING_NODES)),
        candidates: 1,
        ..brain.clone()
    }
}
