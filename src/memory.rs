//! The memory budget of search tables, shared by every search worker.
//!
//! A search that wants a larger table asks the budget first and, when the
//! answer is no, keeps the table it has (its replacement scheme then decides
//! what stays). So however many hard searches run at once, their tables
//! together stay within the budget, and one request cannot take the memory
//! the others need. A search may always keep a small starting table
//! ([`MemoryBudget::reserve_base`]), so the budget can be exceeded by at
//! most that much per running search.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Debug)]
pub struct MemoryBudget {
    limit: usize,
    used: AtomicUsize,
    /// The most ever in use at once (for the metrics and the RSS check).
    peak: AtomicUsize,
    /// Growth requests turned down.
    refused: AtomicUsize,
}

/// Memory held against a budget; given back when dropped.
#[derive(Debug)]
pub struct Reservation {
    budget: Option<Arc<MemoryBudget>>,
    bytes: usize,
}

impl MemoryBudget {
    pub fn new(limit_bytes: usize) -> Arc<MemoryBudget> {
        Arc::new(MemoryBudget {
            limit: limit_bytes,
            used: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            refused: AtomicUsize::new(0),
        })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    pub fn refused(&self) -> usize {
        self.refused.load(Ordering::Relaxed)
    }

    /// Takes `bytes` whether or not they fit: the small table a search
    /// cannot run without.
    pub fn reserve_base(self: &Arc<Self>, bytes: usize) -> Reservation {
        let now = self.used.fetch_add(bytes, Ordering::AcqRel) + bytes;
        self.peak.fetch_max(now, Ordering::Relaxed);
        Reservation {
            budget: Some(self.clone()),
            bytes,
        }
    }

    fn try_take(&self, bytes: usize) -> bool {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let Some(next) = used.checked_add(bytes).filter(|&n| n <= self.limit) else {
                self.refused.fetch_add(1, Ordering::Relaxed);
                return false;
            };
            match self
                .used
                .compare_exchange_weak(used, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => {
                    self.peak.fetch_max(next, Ordering::Relaxed);
                    return true;
                }
                Err(now) => used = now,
            }
        }
    }
}

impl Reservation {
    /// Memory held against no budget (benchmarks, offline tools): every
    /// growth is granted.
    pub fn unbudgeted() -> Reservation {
        Reservation {
            budget: None,
            bytes: 0,
        }
    }

    /// Asks for `extra` bytes more; true when granted (and now held).
    pub fn try_grow(&mut self, extra: usize) -> bool {
        let granted = self.budget.as_ref().is_none_or(|b| b.try_take(extra));
        if granted {
            self.bytes += extra;
        }
        granted
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if let Some(budget) = &self.budget {
            budget.used.fetch_sub(self.bytes, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_stops_at_the_limit_and_drops_give_back() {
        let budget = MemoryBudget::new(100);
        let mut a = budget.reserve_base(10);
        let mut b = budget.reserve_base(10);
        assert!(a.try_grow(40));
        assert!(b.try_grow(40));
        assert_eq!(budget.used(), 100);
        assert!(!a.try_grow(1), "the budget is spent");
        assert_eq!(budget.refused(), 1);
        drop(b);
        assert_eq!(budget.used(), 50);
        assert!(a.try_grow(50));
        assert_eq!((budget.used(), budget.peak()), (100, 100));
        drop(a);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn concurrent_growth_never_exceeds_the_limit() {
        let budget = MemoryBudget::new(1000);
        std::thread::scope(|s| {
            for _ in 0..4 {
                let budget = budget.clone();
                s.spawn(move || {
                    for _ in 0..1000 {
                        let mut r = budget.reserve_base(0);
                        while r.try_grow(7) {}
                        assert!(budget.used() <= 1000);
                    }
                });
            }
        });
        assert!(budget.peak() <= 1000);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn unbudgeted_reservations_always_grow() {
        let mut r = Reservation::unbudgeted();
        assert!(r.try_grow(usize::MAX / 2));
        assert_eq!(r.bytes(), usize::MAX / 2);
    }
}
