//! Solving the root: its moves as a queue that one or more solvers work
//! through, then the answer and its principal line.
//!
//! Every root move is searched (the answer lists every winning move), in
//! rounds with a growing node allowance per move, so a cheap win is found
//! before expensive refutations of the moves ordered ahead of it: a move
//! whose search runs over its allowance goes to the back of the queue with
//! four times the allowance. Finished subtrees stay in the solver's table,
//! so a later round redoes little. With several threads each takes the next
//! move from the queue with its own solver, all of them with one table of
//! solved positions. A thread that finds no move waiting joins the move in
//! flight that the fewest threads hold (the hard last moves of a solve would
//! otherwise leave it idle), and the first thread to resolve a move ends
//! the other tries of it.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::doudizhu::Combo;

use super::key::{decode_value, encode_value};
use super::search::{Node, Solver};
use super::{Outcome, Position, Seat, Solution};

/// Node allowance per root move in the first round (then ×4 per round).
const ROOT_FIRST_ALLOWANCE: u64 = 2048;

/// What the search of the root moves found.
#[derive(Debug, Clone, Default)]
pub(super) struct RootResults {
    /// Per root move: whether it wins (`None`: not resolved).
    pub(super) state: Vec<Option<bool>>,
    /// Per root move: the nodes spent on it.
    pub(super) work: Vec<u64>,
    /// Per root move: the thread that resolved it.
    pub(super) resolved_by: Vec<usize>,
    /// Every move was resolved (the search was not stopped).
    pub(super) finished: bool,
}

#[derive(Debug)]
struct QueueState {
    /// Moves waiting, with the allowance of their next try.
    pending: VecDeque<(usize, u64)>,
    /// Per root move, the threads searching it now.
    searchers: Vec<u32>,
    stopped: bool,
    results: RootResults,
}

/// The root moves waiting to be searched, shared by the threads of a solve.
#[derive(Debug)]
pub(super) struct RootQueue {
    state: Mutex<QueueState>,
    changed: Condvar,
    /// Per root move, set once it is resolved: a thread still searching it
    /// (see [`RootQueue::next`]) gives up.
    resolved: Vec<Arc<AtomicBool>>,
}

/// A root move to search, as [`RootQueue::next`] hands it out.
#[derive(Debug, Clone)]
pub(super) struct RootTry {
    pub(super) index: usize,
    pub(super) allowance: u64,
    /// Set when the move is resolved (by any thread).
    pub(super) resolved: Arc<AtomicBool>,
}

/// How one try of a root move ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Try {
    /// Resolved: whether the move wins.
    Resolved(bool),
    /// Over its allowance: try again later with more.
    OverAllowance,
    /// The stop fired: the whole search ends.
    Stopped,
}

impl RootQueue {
    /// A queue of `moves` root moves, in order.
    pub(super) fn new(moves: usize) -> RootQueue {
        RootQueue {
            state: Mutex::new(QueueState {
                pending: (0..moves).map(|i| (i, ROOT_FIRST_ALLOWANCE)).collect(),
                searchers: vec![0; moves],
                stopped: false,
                results: RootResults {
                    state: vec![None; moves],
                    work: vec![0; moves],
                    resolved_by: vec![0; moves],
                    finished: false,
                },
            }),
            changed: Condvar::new(),
            resolved: (0..moves)
                .map(|_| Arc::new(AtomicBool::new(false)))
                .collect(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        // Only plain data behind the lock: a panic elsewhere leaves it whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next move to try; `None` when every move is resolved or the
    /// search stopped. With no move waiting, a thread joins the unresolved
    /// move in flight that the fewest threads search, without an allowance:
    /// the threads share one table, and each leaves the subtrees the others
    /// have marked busy for last, so they split the move's work between
    /// them; the first to resolve it ends the others' tries.
    pub(super) fn next(&self) -> Option<RootTry> {
        let mut q = self.lock();
        loop {
            if q.stopped {
                return None;
            }
            // A move another thread resolved meanwhile may still wait here.
            while q
                .pending
                .front()
                .is_some_and(|&(i, _)| q.results.state[i].is_some())
            {
                q.pending.pop_front();
            }
            if let Some((index, allowance)) = q.pending.pop_front() {
                q.searchers[index] += 1;
                return Some(self.handing_out(index, allowance));
            }
            if q.searchers.iter().all(|&n| n == 0) {
                return None;
            }
            if let Some(index) = (0..q.searchers.len())
                .filter(|&i| q.searchers[i] > 0 && q.results.state[i].is_none())
                .min_by_key(|&i| q.searchers[i])
            {
                q.searchers[index] += 1;
                return Some(self.handing_out(index, u64::MAX));
            }
            q = self.changed.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn handing_out(&self, index: usize, allowance: u64) -> RootTry {
        RootTry {
            index,
            allowance,
            resolved: Arc::clone(&self.resolved[index]),
        }
    }

    /// Reports how thread `thread`'s try of move `index` ended.
    pub(super) fn report(
        &self,
        thread: usize,
        index: usize,
        allowance: u64,
        nodes: u64,
        ended: Try,
    ) {
        let mut q = self.lock();
        q.searchers[index] -= 1;
        q.results.work[index] += nodes;
        let open = q.results.state[index].is_none();
        match ended {
            Try::Resolved(win) if open => {
                q.results.state[index] = Some(win);
                q.results.resolved_by[index] = thread;
                self.resolved[index].store(true, Ordering::Relaxed);
            }
            // The other try's answer stands (both are proofs).
            Try::Resolved(_) => {}
            // A second try may still hold it; it comes back only once.
            Try::OverAllowance if open && !q.pending.iter().any(|&(i, _)| i == index) => {
                q.pending.push_back((index, allowance.saturating_mul(4)))
            }
            Try::OverAllowance => {}
            Try::Stopped => q.stopped = true,
        }
        drop(q);
        self.changed.notify_all();
    }

    /// The results once every thread is done.
    pub(super) fn into_results(self) -> RootResults {
        let q = self.state.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut results = q.results;
        results.finished = !q.stopped && results.state.iter().all(Option::is_some);
        results
    }
}

impl<'a> Solver<'a> {
    /// Takes root moves from `queue` until it is empty, as thread `thread`.
    fn work_root_queue(&mut self, root: &Node, moves: &[Combo], queue: &RootQueue, thread: usize) {
        while let Some(t) = queue.next() {
            let (i, allowance) = (t.index, t.allowance);
            // Should the search panic, the move is reported stopped, so the
            // other threads do not wait for it.
            let mut pending = PendingTry {
                queue,
                thread,
                index: i,
                allowance,
                armed: true,
            };
            let before = self.nodes;
            self.limit = self.nodes.saturating_add(allowance);
            self.given_up = Some(t.resolved);
            let r = self.eval_move(root, &moves[i], 0);
            self.given_up = None;
            self.limit = u64::MAX;
            let ended = match r {
                Some(win) => Try::Resolved(win),
                None if self.aborted => Try::Stopped,
                None => Try::OverAllowance,
            };
            pending.armed = false;
            queue.report(thread, i, allowance, self.nodes - before, ended);
        }
    }

    /// Solves the root: every root move on `threads` threads (this solver
    /// and `threads - 1` helpers, all with the table of the solve), then the
    /// answer and its principal line.
    pub(super) fn solve_root(&mut self, pos: &Position, root: &Node, threads: usize) -> Solution {
        let mut moves = Vec::new();
        self.ordered_moves(root, 0, &mut moves);
        let moves: Vec<Combo> = moves.into_iter().map(|(_, c)| c).collect();
        let mut cached = None;
        if let Some(shared) = self.shared
            && let Some(v) = shared.get(&self.shared_key(root))
        {
            cached = Some(decode_value(v, &self.rules));
        }
        let mut helpers: Vec<Option<Solver<'a>>> = Vec::new();
        let results = if cached.is_none_or(|(win, _)| win) {
            let queue = RootQueue::new(moves.len());
            let (stop, shared, table) = (self.stop, self.shared, self.shared_table);
            std::thread::scope(|scope| {
                let spawned: Vec<_> = (1..threads)
                    .map(|t| {
                        let (queue, moves) = (&queue, &moves);
                        std::thread::Builder::new()
                            .name("endgame-helper".into())
                            .spawn_scoped(scope, move || {
                                let mut helper = Solver::new(pos, stop, shared, table);
                                helper.work_root_queue(root, moves, queue, t);
                                helper
                            })
                            .ok()
                    })
                    .collect();
                self.work_root_queue(root, &moves, &queue, 0);
                helpers = spawned
                    .into_iter()
                    .map(|h| h.and_then(|h| h.join().ok()))
                    .collect();
            });
            self.nodes += helpers.iter().flatten().map(|h| h.nodes).sum::<u64>();
            queue.into_results()
        } else {
            RootResults {
                state: vec![None; moves.len()],
                work: vec![0; moves.len()],
                resolved_by: vec![0; moves.len()],
                finished: true,
            }
        };
        let RootResults {
            state,
            work,
            resolved_by,
            finished,
        } = results;
        let winning: Vec<Combo> = moves
            .iter()
            .zip(&state)
            .filter(|(_, s)| **s == Some(true))
            .map(|(m, _)| *m)
            .collect();
        let lost: Vec<bool> = state.iter().map(|s| *s == Some(false)).collect();
        let cached_win = cached.map(|(w, _)| w);
        let outcome = if !winning.is_empty() || cached_win == Some(true) {
            Outcome::Win
        } else if (finished && cached.is_none()) || cached_win == Some(false) {
            Outcome::Loss
        } else {
            Outcome::Unknown
        };
        let legal = |c: &Combo| moves.iter().any(|m| m.kind == c.kind && m.cards == c.cards);
        let cached_move = cached.and_then(|(_, m)| m).filter(legal);
        let best_move = match outcome {
            Outcome::Win => winning.first().copied().or(cached_move),
            Outcome::Loss => {
                if finished && cached.is_none() {
                    // The move that took the most search to refute.
                    let mut best = 0;
                    for i in 0..moves.len() {
                        if work[i] > work[best] {
                            best = i;
                        }
                    }
                    moves.get(best).copied()
                } else {
                    cached_move.or(moves.first().copied())
                }
            }
            Outcome::Unknown => moves
                .iter()
                .zip(&lost)
                .find(|(_, l)| !**l)
                .map(|(m, _)| *m)
                .or(moves.first().copied()),
        };
        // Remember the root answer with its move for the next request.
        if let (Some(shared), None) = (self.shared, cached)
            && (outcome == Outcome::Win || (outcome == Outcome::Loss && finished))
        {
            let v = encode_value(outcome == Outcome::Win, best_move.as_ref());
            shared.insert(
                self.shared_key(root),
                v,
                self.nodes.min(u32::MAX as u64) as u32,
            );
        }
        let mut complete = finished && !self.aborted;
        let mut pv = Vec::new();
        if outcome != Outcome::Unknown
            && let Some(mv) = best_move
        {
            // The line is followed by the solver whose table holds its proof.
            let by = moves
                .iter()
                .position(|m| m.kind == mv.kind && m.cards == mv.cards)
                .map_or(0, |i| resolved_by[i]);
            let line_solver = match helpers.get_mut(by.wrapping_sub(1)) {
                Some(Some(helper)) => helper,
                _ => &mut *self,
            };
            let before = line_solver.nodes;
            complete &= line_solver.principal_line(root, mv, &mut pv);
            let line_nodes = line_solver.nodes - before;
            if by != 0 {
                self.nodes += line_nodes;
            }
        }
        Solution {
            outcome,
            best_move,
            winning_moves: winning,
            pv,
            nodes: self.nodes,
            complete,
            cached: cached.is_some(),
            elapsed: Duration::ZERO,
        }
    }

    /// Follows the game from `root` with `first`, then the winner's winning
    /// moves and the loser's first-ordered moves, to the end. False if stopped.
    fn principal_line(&mut self, root: &Node, first: Combo, pv: &mut Vec<(Seat, Combo)>) -> bool {
        pv.push((Seat::ALL[root.mover], first));
        let mut node = match self.apply(root, &first) {
            None => return true,
            Some(n) => n,
        };
        let mut buf = Vec::new();
        for _ in 0..200 {
            let Some(win) = self.search(&node, 1) else {
                return false;
            };
            self.ordered_moves(&node, 1, &mut buf);
            let mut chosen = buf[0].1;
            if win {
                let mut found = false;
                for &(_, mv) in &buf {
                    match self.eval_move(&node, &mv, 1) {
                        None => return false,
                        Some(true) => {
                            chosen = mv;
                            found = true;
                            break;
                        }
                        Some(false) => {}
                    }
                }
                debug_assert!(found, "a won node has a winning move");
            }
            pv.push((Seat::ALL[node.mover], chosen));
            node = match self.apply(&node, &chosen) {
                None => return true,
                Some(n) => n,
            };
        }
        false
    }
}

/// A root move taken from the queue and not yet reported; reports it
/// stopped if dropped while armed (the search panicked).
struct PendingTry<'q> {
    queue: &'q RootQueue,
    thread: usize,
    index: usize,
    allowance: u64,
    armed: bool,
}

impl Drop for PendingTry<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.queue
                .report(self.thread, self.index, self.allowance, 0, Try::Stopped);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_over_their_allowance_come_back_after_the_others() {
        let q = RootQueue::new(2);
        let next = || q.next().map(|t| (t.index, t.allowance));
        let (a, allowance) = next().unwrap();
        q.report(0, a, allowance, 10, Try::OverAllowance);
        let (b, _) = next().unwrap();
        assert_eq!((a, b), (0, 1));
        q.report(0, b, allowance, 5, Try::Resolved(false));
        assert_eq!(next(), Some((0, allowance * 4)));
        q.report(1, 0, allowance * 4, 7, Try::Resolved(true));
        assert!(q.next().is_none());
        let r = q.into_results();
        assert_eq!(r.state, vec![Some(true), Some(false)]);
        assert_eq!(r.work, vec![17, 5]);
        assert_eq!(r.resolved_by, vec![1, 0]);
        assert!(r.finished);
    }

    #[test]
    fn an_idle_thread_joins_the_move_in_flight_and_the_first_answer_ends_both() {
        let q = RootQueue::new(1);
        let first = q.next().unwrap();
        // Nothing waits: the second thread joins move 0, without allowance.
        let second = q.next().unwrap();
        assert_eq!((first.index, second.index), (0, 0));
        assert_eq!(second.allowance, u64::MAX);
        assert!(!first.resolved.load(Ordering::Relaxed));
        q.report(1, 0, second.allowance, 9, Try::Resolved(true));
        // The first try sees the move resolved, gives up and is not queued again.
        assert!(first.resolved.load(Ordering::Relaxed));
        q.report(0, 0, first.allowance, 4, Try::OverAllowance);
        assert!(q.next().is_none());
        let r = q.into_results();
        assert_eq!(r.state, vec![Some(true)]);
        assert_eq!(r.resolved_by, vec![1]);
        assert_eq!(r.work, vec![13]);
        assert!(r.finished);
    }

    #[test]
    fn a_move_over_its_allowance_comes_back_once_while_joined() {
        let q = RootQueue::new(1);
        let first = q.next().unwrap();
        let second = q.next().unwrap();
        q.report(0, 0, first.allowance, 10, Try::OverAllowance);
        // Back in the queue with four times the allowance, while the second
        // try goes on; a third thread takes it from there.
        let again = q.next().unwrap();
        assert_eq!((again.index, again.allowance), (0, first.allowance * 4));
        q.report(2, 0, again.allowance, 10, Try::OverAllowance);
        q.report(1, 0, second.allowance, 5, Try::Resolved(false));
        assert!(q.next().is_none());
        assert_eq!(q.into_results().state, vec![Some(false)]);
    }

    #[test]
    fn a_stop_ends_the_queue_unfinished() {
        let q = RootQueue::new(3);
        let t = q.next().unwrap();
        q.report(0, t.index, t.allowance, 1, Try::Stopped);
        assert!(q.next().is_none());
        assert!(!q.into_results().finished);
    }
}
