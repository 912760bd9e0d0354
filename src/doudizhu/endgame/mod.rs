//! Dou Dizhu endgame solver: with every hand known, can the side to move force
//! going out first?
//!
//! # Positions
//!
//! Two or three seats take part. With three, the landlord plays against both
//! peasants (either peasant going out wins for both). With two, the landlord
//! duels one peasant (two peasants without a landlord is not a position). A
//! seat is *present* when the position gives it a hand; absent seats are
//! skipped in the turn order landlord → landlord_down → landlord_up.
//!
//! The standing play is `last = (seat, combo)`: the play to beat, made by
//! `seat`. Everyone between that seat and `to_move` is taken to have passed.
//! When a pass hands the turn to the seat whose play stands, that seat leads
//! anew (with two seats every pass does so).
//!
//! # Search
//!
//! An AND/OR search over win/loss for the team of the player to move: a node
//! is won when one move wins (a move to a teammate's turn keeps the value, a
//! move to an opponent's turn flips it). Results are exact booleans, so every
//! finished node is stored in a per-solve transposition table. Large
//! subtrees are also written to the shared [`TranspositionCache`] (keyed by
//! the full position), so successive positions of one endgame hit it.
//!
//! The per-solve table is keyed by the position up to renaming of the chain
//! ranks (`key::canonical_key`): positions that differ only in which of several
//! interchangeable cards were played share one entry, which cuts the nodes of
//! a 13-card duel 3–4×. The key is exact (no hash signatures) and fits in
//! 123 bits, so a slot is 16 bytes, four to a cache line. The probe is still
//! a main cost (a cache and TLB miss; the table asks for huge pages), so the
//! buckets of the next moves' positions are prefetched while the current
//! move is searched, and their keys are reused by the child's probe.
//!
//! Every hand is a subset of its root hand, so the three hands also pack into
//! one ≤ 54-bit mixed-radix `code` (per seat and rank just enough bits for
//! the copies held at the root; playing cards subtracts their code), which
//! indexes the per-seat [`min_plays`] memo.
//!
//! Speed comes from
//! * an exact out-check at every node (the whole hand is one legal play;
//!   only tried when the memoised [`min_plays`] is 1);
//! * the killer reply of the ply tried before any move is generated (it wins
//!   about two times in three where the node is won);
//! * a seat that cannot beat the standing play passes at once, without a
//!   table entry;
//! * move ordering: the killer reply of the ply, then moves by the number of
//!   plays left afterwards ([`min_plays`], memoised per seat in an array
//!   indexed by the seat's part of the code) with a bonus for
//!   plays no opponent can beat (the mover keeps the lead, so chains of
//!   unbeatable plays followed by a last play are found at once), lower cards
//!   and cheaper kickers first; a peasant following its partner passes first;
//! * kicker variants of one body sit next to each other, and the first that
//!   wins cuts the rest;
//! * below the root, kicker choices another choice of the same body
//!   dominates are not generated at all (module `dominance`: keeping the
//!   higher of two whole ranks no chain can use is never worse, unless the
//!   partner holds a card between them);
//! * a static out-check proves "the mover goes out by at most two plays
//!   nobody on the other side can beat, then one last play" without search
//!   (tried where [`min_plays`] is at most three; the opponents only pass on
//!   the way, so their hands are known).
//!
//! # Threads
//!
//! [`solve_endgame_on`] shares the root's moves out among threads (the
//! root's moves go through a queue in rounds of growing node allowance, see
//! `root`), each thread with its own solver and all of them with one table
//! of exact results (`shared_table`: buckets written under a version word
//! and read optimistically, so an entry is never torn). A thread that finds
//! the queue empty joins a root move another thread is searching: nodes up
//! to ply 10 mark themselves busy and their parents leave busy children for
//! last, so two threads on one move work on different subtrees and pick up
//! each other's results from the table. Whoever resolves the move first
//! ends the other's try.
//!
//! The stop is polled every 1,024 nodes; an interrupted search reports
//! [`Outcome::Unknown`] (unless the root move list already proved a win) and
//! never stores partial results.
//!
//! [`min_plays`]: crate::doudizhu::min_plays

mod dominance;
mod key;
mod position;
mod root;
mod search;
mod seat;
mod shared_table;
mod stored;
mod table;

use std::fmt;
use std::time::{Duration, Instant};

use crate::cache::TranspositionCache;
use crate::doudizhu::Combo;
use crate::stop::Stop;

pub use key::{CACHE_TAG, cache_key};
pub use position::{MAX_HAND, Played, Position, PositionError, SeatRole};
pub use seat::Seat;
pub use stored::{answer_bytes, answer_from_bytes};

use search::{Node, Solver};
use shared_table::SharedTable;

/// The result for the side of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move can force going out first.
    Win,
    /// The other side can force going out first.
    Loss,
    /// The budget ran out before the answer was known.
    Unknown,
}

impl Outcome {
    /// The outcome's name: `"win"`, `"loss"` or `"unknown"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What [`solve_endgame`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The result for the side to move.
    pub outcome: Outcome,
    /// Win: a winning move (the one `pv` starts with). Loss: the move whose
    /// refutation took the most search (a proxy for "survives longest"), or
    /// the move stored with a cached answer. Unknown: the first move, in the
    /// solver's order, not yet proven to lose. `None` only for an invalid
    /// position.
    pub best_move: Option<Combo>,
    /// Every root move that keeps the win (empty unless `outcome` is Win).
    /// Only complete when `complete` is.
    pub winning_moves: Vec<Combo>,
    /// A principal line from the root to the end of the game (winner's moves
    /// win, the loser's follow the solver's move order). Empty when Unknown;
    /// possibly cut short when `complete` is false.
    pub pv: Vec<(Seat, Combo)>,
    /// Nodes searched by this call.
    pub nodes: u64,
    /// The outcome is exact, `winning_moves` lists every winning move and `pv`
    /// reaches the end of the game.
    pub complete: bool,
    /// The root's outcome came from the shared cache.
    pub cached: bool,
    /// Wall-clock time this call took.
    pub elapsed: Duration,
}

/// Solves `pos` for the side of `pos.to_move()` within `stop`, consulting and
/// filling `cache` when given.
pub fn solve_endgame(pos: &Position, stop: &Stop, cache: Option<&TranspositionCache>) -> Solution {
    solve_endgame_on(pos, stop, cache, 1)
}

/// [`solve_endgame`] on `threads` threads (at least one): the root's moves
/// are shared out among them, and they share one table of solved positions.
/// One thread alone tries first, for about a million nodes (a third of a
/// second); only a position it does not finish gets the others. A node
/// limit in `stop` applies to each thread.
pub fn solve_endgame_on(
    pos: &Position,
    stop: &Stop,
    cache: Option<&TranspositionCache>,
    threads: usize,
) -> Solution {
    let started = Instant::now();
    let mut warm_up_nodes = 0;
    if threads > 1 {
        // Most positions are solved in a fraction of a second, where a
        // shared table (fixed in size, so spread over many fresh pages)
        // costs more than a second thread gains: one thread tries first.
        let capped = stop.with_node_limit(WARM_UP_NODES.min(stop.node_limit()));
        let mut sol = solve_on(pos, &capped, cache, 1);
        if sol.complete || stop.should_stop() || stop.node_limit() <= WARM_UP_NODES {
            sol.elapsed = started.elapsed();
            return sol;
        }
        warm_up_nodes = sol.nodes;
    }
    let mut sol = solve_on(pos, stop, cache, threads.max(1));
    sol.nodes += warm_up_nodes;
    sol.elapsed = started.elapsed();
    sol
}

/// Nodes one thread spends on a position before more threads join in.
const WARM_UP_NODES: u64 = 1 << 20;

fn solve_on(
    pos: &Position,
    stop: &Stop,
    cache: Option<&TranspositionCache>,
    threads: usize,
) -> Solution {
    let table = (threads > 1).then(|| SharedTable::new(stop));
    let mut s = Solver::new(pos, stop, cache, table.as_ref());
    let root = Node {
        hands: pos.hands,
        code: s.code_of(&pos.hands),
        mover: pos.to_move.index(),
        last: pos.last.map(|(seat, c)| (seat.index(), c)),
        key: 0,
    };
    s.solve_root(pos, &root, threads)
}

#[cfg(test)]
mod tests;
