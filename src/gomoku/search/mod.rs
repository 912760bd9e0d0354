//! The gomoku search: immediate wins and forced blocks, threat-space solvers
//! (VCF, VCT) and iterative-deepening PVS over a transposition table (see the
//! [`gomoku`](super) module documentation for the whole method).
//!
//! The tuning constants are kept together here; the table, the threat
//! solvers, the principal-variation search and the root driver each have
//! their own file.

mod pvs;
mod root;
mod table;
mod threats;

use std::cell::RefCell;

use super::Point;
use super::board::Board;
use crate::stop::Stop;

use table::Tt;

/// Score of a five made by the side to move right now; a win `n` plies away scores
/// `WIN_SCORE - n`.
pub const WIN_SCORE: i32 = 30000;
/// Scores beyond this are proven wins or losses.
const MATE_BOUND: i32 = WIN_SCORE - 1000;
const INF: i32 = WIN_SCORE + 1;
const MAX_PLY: usize = 96;
const NO_MOVE: u16 = u16::MAX;
/// Longest VCF (in attacker moves) tried at the root.
const ROOT_VCF_DEPTH: i32 = 14;
/// Longest VCT (in attacker moves) tried at the root, its node budget and how many
/// threats it tries per attacker node.
const ROOT_VCT_DEPTH: i32 = 6;
const ROOT_VCT_NODES: u64 = 30_000;
const ROOT_VCF_NODES: u64 = 60_000;
const VCT_WIDTH: usize = 12;
/// Defence against the opponent's VCF at the root: the node budget of the whole
/// defence, the share of it for spotting the threat, and how many candidate moves get
/// checked.
const ROOT_DEFEND_NODES: u64 = 60_000;
const ROOT_THREAT_NODES: u64 = 20_000;
const ROOT_DEFEND_WIDTH: usize = 40;
/// Late-move pruning: at non-PV nodes of depth d, the moves past `LMP[d]` are skipped,
/// but for double threats of either side and killers.
const LMP: [usize; 8] = [usize::MAX, 4, 6, 8, 11, 15, 20, 26];

/// Quiescence VCF at the leaves: at most this many fours, within this many nodes.
const LEAF_VCF_DEPTH: i32 = 3;
const LEAF_VCF_NODES: u64 = 24;
/// Aspiration windows: from this iteration on, the root is first searched this far
/// either side of the last value; a window that fails doubles until it passes
/// `ASPIRATION_MAX`, then opens fully.
const ASPIRATION_MIN_DEPTH: u32 = 4;
const ASPIRATION_DELTA: i32 = 40;
const ASPIRATION_MAX: i32 = 1000;
/// Internal iterative reduction: from this depth on, a node without a table move
/// is searched one ply shallower.
const IIR_MIN_DEPTH: i32 = 4;
/// Futility margins by depth (evaluation units): how far below alpha a quiet
/// move is not tried, and how far above beta a quiet node is cut.
const FUTILITY: [i32; 4] = [0, 60, 150, 300];
/// Singular extension: from this depth on, a table move whose lower bound was
/// searched at most `SINGULAR_TT_SLACK` plies shallower than the node is tested
/// by a search of the other moves, half as deep, against its value less
/// `SINGULAR_MARGIN` evaluation units a ply of depth; when none reaches that,
/// the table move is the only good one and is searched a ply deeper. (A margin
/// of 1 a ply, which extends far more often, gained nothing in self-play.)
const SINGULAR_MIN_DEPTH: i32 = 5;
const SINGULAR_TT_SLACK: i32 = 3;
const SINGULAR_MARGIN: i32 = 4;

/// History scores (depth² per cut, less depth² per move searched before a cut
/// move) stay within ±this.
const HISTORY_MAX: i32 = 1 << 20;

/// Late-move reductions by (depth, move number).
static LMR: std::sync::LazyLock<[[i32; 64]; 32]> = std::sync::LazyLock::new(|| {
    let mut t = [[0; 64]; 32];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 1.5) as i32;
        }
    }
    t
});

/// Most ranked root moves one search returns: every line costs a full root
/// search at every iteration, and a hint list longer than this is no help.
pub const MAX_CANDIDATES: usize = 10;

/// Bounds on one search, besides its [`Stop`]; `None` means no bound.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The deepest iteration to search, in plies.
    pub max_depth: Option<u32>,
    /// The most nodes to search.
    pub max_nodes: Option<u64>,
    /// How many ranked root moves [`SearchResult::candidates`] should hold: 1
    /// (the default; 0 counts as 1) is the plain search; more runs the
    /// multi-PV search, capped at [`MAX_CANDIDATES`] and at the number of
    /// root moves.
    pub candidates: usize,
}

impl Default for Limits {
    /// No bounds, one candidate.
    fn default() -> Limits {
        Limits {
            max_depth: None,
            max_nodes: None,
            candidates: 1,
        }
    }
}

/// One ranked root move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Legal for the side to move.
    pub point: Point,
    /// The value of playing `point`, from the side to move's view (as
    /// [`SearchResult::eval`]).
    pub eval: i32,
    /// As [`SearchResult::win_in`], for this move.
    pub win_in: Option<i32>,
    /// The expected line, starting with `point`.
    pub pv: Vec<Point>,
}

/// What a search found for the side to move.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Always legal for the side to move.
    pub best: Point,
    /// Side to move's view; proven wins/losses are near ±[`WIN_SCORE`].
    pub eval: i32,
    /// `Some(n > 0)`: the mover wins with its n-th own move from now; `Some(n < 0)`: loses
    /// against best defence in -n opponent moves; `None`: not proven.
    pub win_in: Option<i32>,
    /// Deepest completed iteration (ranking several candidates: the deepest
    /// that completed at least its best line).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Starts with `best`.
    pub pv: Vec<Point>,
    /// The ranked root moves, best first: `candidates[0]` is `best` with
    /// `eval`, `win_in` and `pv`. One entry unless [`Limits::candidates`]
    /// asked for more and the position left more than one move to rank (see
    /// the [`gomoku`](super) module documentation).
    pub candidates: Vec<Candidate>,
}

/// A search engine that keeps its transposition table between searches.
pub struct Engine {
    tt: Tt,
}

impl Engine {
    /// An engine with a transposition table of at most `tt_mib` MiB (at least 1).
    pub fn new(tt_mib: usize) -> Engine {
        Engine {
            tt: Tt::new(tt_mib),
        }
    }

    /// Searches with the table kept from earlier searches (a brain playing one game).
    pub fn search(&mut self, board: &Board, limits: &Limits, stop: &Stop) -> SearchResult {
        self.run(board, limits, stop, false)
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn run(&mut self, board: &Board, limits: &Limits, stop: &Stop, strict: bool) -> SearchResult {
        self.tt.new_search(strict);
        let node_limit = limits
            .max_nodes
            .unwrap_or(u64::MAX)
            .min(stop.node_limit())
            .max(1);
        let mut s = Searcher::new(board.clone(), &mut self.tt, stop, node_limit);
        s.root(limits)
    }
}

/// Searches `board` for the side to move. Stateless: the answer under `max_depth` /
/// `max_nodes` (no deadline hit) depends only on the board and the limits.
pub fn search(board: &Board, limits: &Limits, stop: &Stop) -> SearchResult {
    thread_local! {
        static ENGINE: RefCell<Engine> = RefCell::new(Engine::new(16));
    }
    ENGINE.with(|e| e.borrow_mut().run(board, limits, stop, true))
}

/// What a node is, before any search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    /// The side to move completes a five at this cell.
    Win(u16),
    /// The side to move makes a straight four (or two fours) here; the opponent has no five.
    WinIn2(u16),
    /// The opponent has a five point the mover can't (legally) take or has two of them.
    Lost(u16),
    /// The only move is to block the opponent's four (the list holds it).
    Forced,
    /// The list holds the moves to search; `true` when restricted to answers to an open three.
    Moves(bool),
}

/// One search's state. Its methods live beside the part of the search
/// they serve: `pvs.rs`, `threats.rs` and `root.rs`.
struct Searcher<'a> {
    b: Board,
    tt: &'a mut Tt,
    stop: &'a Stop,
    node_limit: u64,
    nodes: u64,
    aborted: bool,
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<i32>,
    pv: Vec<[u16; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    bufs: Vec<Vec<(u16, i32)>>,
    /// Plies after the end of the last VCF line found: 0 when it ends with a five, 2 when
    /// it ends with a threat the defender can't meet (straight four, forbidden block).
    vcf_tail: i32,
    /// When not empty, the root searches only these moves (the ones that stop the
    /// opponent's VCF).
    root_moves: Vec<u16>,
    /// Root moves left out of the search: the lines a multi-PV iteration has
    /// already ranked.
    root_excluded: Vec<u16>,
    /// Per ply, the move a singular-extension test leaves out (`NO_MOVE` when
    /// the node is searched in full).
    excluded: [u16; MAX_PLY],
    /// The running iteration's depth: extensions stop at twice it in plies.
    root_depth: i32,
}

impl<'a> Searcher<'a> {
    fn new(b: Board, tt: &'a mut Tt, stop: &'a Stop, node_limit: u64) -> Searcher<'a> {
        let cells = b.cells_len();
        Searcher {
            b,
            tt,
            stop,
            node_limit,
            nodes: 0,
            aborted: false,
            killers: [[NO_MOVE; 2]; MAX_PLY],
            history: vec![0; 2 * cells],
            pv: vec![[NO_MOVE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            bufs: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            vcf_tail: 0,
            root_moves: Vec::new(),
            root_excluded: Vec::new(),
            excluded: [NO_MOVE; MAX_PLY],
            root_depth: 0,
        }
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && self.stop.should_stop()) {
            self.aborted = true;
        }
        self.aborted
    }
}

#[cfg(test)]
mod tests;
