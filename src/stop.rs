//! The search stop: when a running search must give up.
//!
//! Engines poll a [`Stop`] every few thousand nodes. It fires at its deadline,
//! when cancelled (the search pool cancels it when the request goes away), or
//! when the engine's own node count passes its cap; it also carries the memory
//! budget the search's tables reserve from. It lives apart from the pool so
//! engines and offline tools need not depend on the async runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::memory::{MemoryBudget, Reservation};

/// Tells a running search when to give up: at its deadline, or as soon as
/// someone cancels it. Cheap to clone and to poll.
#[derive(Debug, Clone)]
pub struct Stop {
    deadline: Option<Instant>,
    cancelled: Arc<AtomicBool>,
    /// Work cap in search nodes (`u64::MAX` = none). Unlike the deadline it
    /// does not depend on machine speed, so capped searches are reproducible.
    node_limit: u64,
    /// What the search's own tables may take (none: no limit but their own).
    memory: Option<Arc<MemoryBudget>>,
}

impl Stop {
    pub fn at(deadline: Instant) -> Stop {
        Stop {
            deadline: Some(deadline),
            cancelled: Arc::default(),
            node_limit: u64::MAX,
            memory: None,
        }
    }

    pub fn after(budget: Duration) -> Stop {
        Stop::at(Instant::now() + budget)
    }

    /// A stop that only fires when cancelled (benchmarks, offline tools).
    pub fn never() -> Stop {
        Stop {
            deadline: None,
            cancelled: Arc::default(),
            node_limit: u64::MAX,
            memory: None,
        }
    }

    /// This stop, with its searches' tables held to `budget`.
    pub fn with_memory(self, budget: Arc<MemoryBudget>) -> Stop {
        Stop {
            memory: Some(budget),
            ..self
        }
    }

    /// This stop, with the memory budget of `other` (a search that makes its
    /// own stops for sub-searches keeps them within the request's budget).
    pub fn with_memory_of(self, other: &Stop) -> Stop {
        Stop {
            memory: other.memory.clone(),
            ..self
        }
    }

    /// A reservation of `base_bytes` against this stop's memory budget, for
    /// a search table to grow from.
    pub fn reserve_memory(&self, base_bytes: usize) -> Reservation {
        match &self.memory {
            Some(budget) => budget.reserve_base(base_bytes),
            None => Reservation::unbudgeted(),
        }
    }

    /// The same stop (sharing its deadline and cancellation) with a node cap.
    pub fn with_node_limit(&self, nodes: u64) -> Stop {
        Stop {
            node_limit: nodes,
            ..self.clone()
        }
    }

    /// Search nodes a search may visit; engines compare their own count.
    pub fn node_limit(&self) -> u64 {
        self.node_limit
    }

    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// True once cancelled or past the deadline. Costs a clock read, so call
    /// it every few thousand nodes, not at every node.
    pub fn should_stop(&self) -> bool {
        self.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Time left before the deadline (`Duration::MAX` without one).
    pub fn remaining(&self) -> Duration {
        match self.deadline {
            Some(d) => d.saturating_duration_since(Instant::now()),
            None => Duration::MAX,
        }
    }
}
