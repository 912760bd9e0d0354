//! Pure gomoku engine: freestyle, standard and renju on boards 5×5 to 22×22.
//!
//! * [`Board`] keeps, for every empty cell, each side's pattern code in each of the four
//!   line directions (five, straight four, four, open three, three, open two, ...), read
//!   from precomputed tables over the 11-cell window around the cell and refreshed
//!   incrementally on play/undo. A stone on a cell is worth a weighted sum of that
//!   cell's features (how many directions hold each code, plus bonuses for a straight
//!   four, a four-three, a three-three and three smaller shape combinations), with one
//!   set of weights for the side to move and one for its opponent; the evaluation is
//!   the difference of the two sides' totals plus a table entry for which threats each
//!   side has anywhere (a four-three point, a three-three point, a four point, an open
//!   three point, and for the opponent a straight-four point: 512 combinations), the
//!   knowledge no sum of cell values holds (an open three facing no four wins; one
//!   facing a four-three point does not). Weights and table are fitted to the outcomes
//!   of self-play games by Texel's method (least squares between the result and a
//!   logistic of the evaluation over quiet positions), by the `gomoku_tune` example.
//! * Rules are exact: freestyle (five or more), standard (exactly five, for both colours),
//!   renju (black: exactly five; overline, double four, double three forbidden, with the
//!   recursive definition of a three; a five beats a forbidden shape; white: five or more).
//! * [`search`] / [`Engine::search`]: immediate win, forced blocks, a VCF (continuous fours)
//!   solver at the root (also run for the opponent, given the move, to keep the root to
//!   moves that stop his VCF), a bounded VCT solver and iterative-deepening PVS with a
//!   transposition table and aspiration windows at the root, killer and history ordering
//!   (a move that refutes a node gains history, the moves searched before it there
//!   lose as much), threat-restricted move lists, late-move reductions and pruning,
//!   futility pruning both ways (a quiet move that cannot lift a position far below alpha is skipped; a
//!   node with no threat to answer whose static value stands far above beta is cut),
//!   internal iterative reduction (a deep node the table has no move for is searched a
//!   ply shallower) and singular extensions (a table move that no other move comes near,
//!   in a shallower search without it, is searched a ply deeper; if another move
//!   holds above beta even so, the node is cut).
//!   Each search change is accepted by an SPRT against the build before it, or by
//!   matches against Rapfi beside the build before on the same day (self-play
//!   gains have not always carried over to Rapfi); the results, kept and rejected,
//!   are in `docs/benchmarks.md`.
//! * Ranked candidates ([`Limits::candidates`] > 1): after the same root work, the
//!   iterative deepening becomes a multi-PV search. Each iteration searches the root with
//!   a full window, takes the best move as line 1, leaves it out of the root's move list
//!   and searches again for line 2, and so on; the lines are then ordered by value. An
//!   iteration cut short by the budget keeps the lines it completed, ahead of the previous
//!   iteration's others. The root's table entry is not written while moves are left out,
//!   so the next iteration's first line starts from the true best move. Where the root
//!   decides without that search (a five, a straight four, a lost position, a win by
//!   continuous fours or threats, a search stopped during those checks, the empty
//!   board), the answer's move is the only candidate: other moves are not ranked, since
//!   a shallow guess beside a proof would mislead. A forced block, or a root reduced to
//!   the moves that stop the opponent's VCF, ranks only those moves. With one candidate
//!   (the default) the search is the plain one, node for node.
//!
//! Coordinates: a point is `(x, y)` = (column, row), 0-based from the top-left.
//!
//! ```
//! use gamebot::gomoku::{Board, Limits, Rule, search};
//! use gamebot::stop::Stop;
//!
//! // Black has four in a row on the top line with an open end: it completes five.
//! let moves = [(3, 0), (3, 1), (4, 0), (4, 1), (5, 0), (5, 1), (6, 0), (10, 10)];
//! let board = Board::from_moves(15, Rule::Freestyle, &moves).unwrap();
//! let limits = Limits { max_depth: Some(4), ..Limits::default() };
//! let found = search(&board, &limits, &Stop::never());
//! assert!(found.best == (2, 0) || found.best == (7, 0));
//! assert_eq!(found.win_in, Some(1));
//! ```

#![warn(missing_docs)]

mod board;
// A test fixture (the speed example and the benches), not part of the API:
// behind the `testkit` feature.
#[cfg(any(test, feature = "testkit"))]
pub mod midgames;
mod patterns;
mod search;
#[cfg(test)]
mod tests;
// The evaluation's features, for the tuning example: behind `testkit`.
#[cfg(any(test, feature = "testkit"))]
pub mod tuning;

pub use board::Board;
pub use search::{Candidate, Engine, Limits, MAX_CANDIDATES, SearchResult, WIN_SCORE, search};

/// The smallest board size (cells per side).
pub const MIN_SIZE: usize = 5;
/// The largest board size (cells per side).
pub const MAX_SIZE: usize = 22;

/// Which fives win and which moves black may not make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; an overline is no win, for either colour.
    Standard,
    /// Black: exactly five wins, overline / double four / double three forbidden.
    /// White: five or more wins.
    Renju,
}

/// Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    /// The first player's stones.
    Black,
    /// The second player's stones.
    White,
}

impl Stone {
    /// The other colour.
    pub fn opponent(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

/// `(x, y)` = (column, row), 0-based from the top-left.
pub type Point = (usize, usize);

/// Why a board size or move list is not a playable position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("board size {0} is outside 5..=22")]
    /// The board size is outside [`MIN_SIZE`]`..=`[`MAX_SIZE`]; carries the size.
    BadSize(usize),
    #[error("move {index} at ({x}, {y}) is off the board")]
    /// A move lies outside the board.
    OffBoard {
        /// Position of the move in the move list.
        index: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
    },
    #[error("move {index} at ({x}, {y}) is on an occupied cell")]
    /// A move is on a cell that already holds a stone.
    Occupied {
        /// Position of the move in the move list.
        index: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
    },
    #[error("move {index} comes after the game was already won")]
    /// A move follows a move that already won.
    AfterWin {
        /// Position of the move in the move list.
        index: usize,
    },
    #[error("move {index} at ({x}, {y}) is forbidden for black under renju")]
    /// A black move is forbidden under [`Rule::Renju`].
    Forbidden {
        /// Position of the move in the move list.
        index: usize,
        /// Its column.
        x: usize,
        /// Its row.
        y: usize,
    },
    #[error("the game is already won")]
    /// The moves end in a won game: nothing is left to search.
    AlreadyWon,
    #[error("the board is full")]
    /// The moves fill the board: nothing is left to search.
    BoardFull,
}
