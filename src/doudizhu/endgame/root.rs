//! The root's moves as a queue that one or more solvers work through.
//!
//! Every root move is searched (the answer lists every winning move), in
//! rounds with a growing node allowance per move, so a cheap win is found
//! before expensive refutations of the moves ordered ahead of it: a move
//! whose search runs over its allowance goes to the back of the queue with
//! four times the allowance. Finished subtrees stay in the solver's table,
//! so a later round redoes little. With several threads each takes the next
//! move from the queue with its own solver; the threads share solved
//! positions through the shared cache when the caller gives one.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

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
    in_flight: usize,
    stopped: bool,
    results: RootResults,
}

/// The root moves waiting to be searched, shared by the threads of a solve.
#[derive(Debug)]
pub(super) struct RootQueue {
    state: Mutex<QueueState>,
    changed: Condvar,
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
                in_flight: 0,
                stopped: false,
                results: RootResults {
                    state: vec![None; moves],
                    work: vec![0; moves],
                    resolved_by: vec![0; moves],
                    finished: false,
                },
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, QueueState> {
        // Only plain data behind the lock: a panic elsewhere leaves it whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next move to try and its allowance; `None` when every move is
    /// resolved or the search stopped. Waits while other threads still hold
    /// moves that may come back.
    pub(super) fn next(&self) -> Option<(usize, u64)> {
        let mut q = self.lock();
        loop {
            if q.stopped {
                return None;
            }
            if let Some(item) = q.pending.pop_front() {
                q.in_flight += 1;
                return Some(item);
            }
            if q.in_flight == 0 {
                return None;
            }
            q = self.changed.wait(q).unwrap_or_else(|e| e.into_inner());
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
        q.in_flight -= 1;
        q.results.work[index] += nodes;
        match ended {
            Try::Resolved(win) => {
                q.results.state[index] = Some(win);
                q.results.resolved_by[index] = thread;
            }
            Try::OverAllowance => q.pending.push_back((index, allowance.saturating_mul(4))),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_over_their_allowance_come_back_after_the_others() {
        let q = RootQueue::new(2);
        let (a, allowance) = q.next().unwrap();
        q.report(0, a, allowance, 10, Try::OverAllowance);
        let (b, _) = q.next().unwrap();
        assert_eq!((a, b), (0, 1));
        q.report(0, b, allowance, 5, Try::Resolved(false));
        assert_eq!(q.next(), Some((0, allowance * 4)));
        q.report(1, 0, allowance * 4, 7, Try::Resolved(true));
        assert_eq!(q.next(), None);
        let r = q.into_results();
        assert_eq!(r.state, vec![Some(true), Some(false)]);
        assert_eq!(r.work, vec![17, 5]);
        assert_eq!(r.resolved_by, vec![1, 0]);
        assert!(r.finished);
    }

    #[test]
    fn a_stop_ends_the_queue_unfinished() {
        let q = RootQueue::new(3);
        let (a, allowance) = q.next().unwrap();
        q.report(0, a, allowance, 1, Try::Stopped);
        assert_eq!(q.next(), None);
        assert!(!q.into_results().finished);
    }
}
