//! The search pool: where CPU-heavy searches run, off the async threads.
//!
//! A search is admitted only while fewer than `workers + max_queued` searches
//! are running or waiting; past that it is refused at once (the HTTP layer
//! answers 503), so no request waits without bound. Admitted searches wait for
//! one of `workers` permits, then run on tokio's blocking threads. Each gets a
//! [`Stop`] that fires at its deadline or when the request future is dropped
//! (the client went away); engines poll it every few thousand nodes.

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::memory::MemoryBudget;
use crate::stop::Stop;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PoolError {
    #[error("all {workers} search workers are busy and {queued} searches are waiting")]
    Overloaded { workers: usize, queued: usize },
    #[error("the search failed: {0}")]
    Panicked(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStats {
    pub workers: usize,
    pub running: usize,
    pub queued: usize,
    pub rejected: u64,
    pub completed: u64,
    /// Searches stopped because their request went away.
    pub cancelled: u64,
}

#[derive(Debug)]
pub struct SearchPool {
    permits: Arc<Semaphore>,
    workers: usize,
    capacity: usize,
    counters: Arc<Counters>,
    default_budget: Duration,
    max_budget: Duration,
    memory: Arc<MemoryBudget>,
}

#[derive(Debug, Default)]
struct Counters {
    admitted: AtomicUsize,
    running: AtomicUsize,
    rejected: AtomicU64,
    completed: AtomicU64,
    cancelled: AtomicU64,
}

impl SearchPool {
    pub fn new(
        workers: usize,
        max_queued: usize,
        default_budget: Duration,
        max_budget: Duration,
    ) -> Self {
        let workers = workers.max(1);
        SearchPool {
            permits: Arc::new(Semaphore::new(workers)),
            workers,
            capacity: workers + max_queued,
            counters: Arc::default(),
            default_budget,
            max_budget,
            memory: MemoryBudget::new(usize::MAX),
        }
    }

    /// Holds the search tables of all workers together to `bytes`.
    pub fn with_memory_budget(mut self, bytes: usize) -> Self {
        self.memory = MemoryBudget::new(bytes);
        self
    }

    pub fn memory(&self) -> &MemoryBudget {
        &self.memory
    }

    /// The budget of a request: its `budget_ms`, or the default, never above the maximum.
    pub fn budget(&self, requested_ms: Option<u64>) -> Duration {
        requested_ms
            .map(Duration::from_millis)
            .unwrap_or(self.default_budget)
            .min(self.max_budget)
    }

    /// Worker threads: the most threads one search may take.
    pub fn workers(&self) -> usize {
        self.workers
    }

    pub fn max_budget(&self) -> Duration {
        self.max_budget
    }

    /// Runs `job` on a search worker with a [`Stop`] that fires after `budget`
    /// (counted from now, so time spent queued is part of it) or when the
    /// returned future is dropped.
    pub async fn run<T, F>(&self, budget: Duration, job: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&Stop) -> T + Send + 'static,
    {
        self.run_on(1, budget, job).await
    }

    /// [`SearchPool::run`] for a job that runs on `threads` threads: it waits
    /// for that many worker permits (at most all of them), so the searches
    /// never use more threads than there are workers.
    pub async fn run_on<T, F>(
        &self,
        threads: usize,
        budget: Duration,
        job: F,
    ) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&Stop) -> T + Send + 'static,
    {
        let admission = self.admit()?;
        let stop = Stop::after(budget).with_memory(self.memory.clone());
        let cancel_on_drop = CancelOnDrop(Some(stop.clone()));

        // Waiting here is "queued". The semaphore is never closed.
        let permit = self
            .permits
            .clone()
            .acquire_many_owned(threads.clamp(1, self.workers) as u32)
            .await
            .map_err(|_| PoolError::Panicked("search pool closed".into()))?;

        let counters = self.counters.clone();
        let handle = tokio::task::spawn_blocking(move || {
            // Held until the job returns, even when the request is gone:
            // the worker is busy until the search notices its Stop.
            let _permit = permit;
            let _admission = admission;
            lower_thread_priority();
            counters.running.fetch_add(1, Ordering::Relaxed);
            let _running = Decrement(&counters.running);
            let out = job(&stop);
            let counter = if stop.is_cancelled() {
                &counters.cancelled
            } else {
                &counters.completed
            };
            counter.fetch_add(1, Ordering::Relaxed);
            out
        });
        let result = handle.await;
        cancel_on_drop.disarm();
        match result {
            Ok(value) => Ok(value),
            Err(e) if e.is_panic() => Err(PoolError::Panicked(panic_message(e.into_panic()))),
            Err(e) => Err(PoolError::Panicked(e.to_string())),
        }
    }

    fn admit(&self) -> Result<Admission, PoolError> {
        let admitted = &self.counters.admitted;
        let mut current = admitted.load(Ordering::Relaxed);
        loop {
            if current >= self.capacity {
                self.counters.rejected.fetch_add(1, Ordering::Relaxed);
                return Err(PoolError::Overloaded {
                    workers: self.workers,
                    queued: self.capacity - self.workers,
                });
            }
            match admitted.compare_exchange_weak(
                current,
                current + 1,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(Admission(self.counters.clone())),
                Err(now) => current = now,
            }
        }
    }

    pub fn stats(&self) -> PoolStats {
        let admitted = self.counters.admitted.load(Ordering::Relaxed);
        let running = self.counters.running.load(Ordering::Relaxed);
        PoolStats {
            workers: self.workers,
            running,
            queued: admitted.saturating_sub(running),
            rejected: self.counters.rejected.load(Ordering::Relaxed),
            completed: self.counters.completed.load(Ordering::Relaxed),
            cancelled: self.counters.cancelled.load(Ordering::Relaxed),
        }
    }
}

/// One admitted search; releases its place when the search ends or the
/// request is dropped while still queued.
struct Admission(Arc<Counters>);

impl Drop for Admission {
    fn drop(&mut self) {
        self.0.admitted.fetch_sub(1, Ordering::AcqRel);
    }
}

struct Decrement<'a>(&'a AtomicUsize);

impl Drop for Decrement<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Cancels the search when the request future is dropped before it finished
/// (hyper drops a handler's future when its client disconnects).
struct CancelOnDrop(Option<Stop>);

impl CancelOnDrop {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(stop) = &self.0 {
            stop.cancel();
        }
    }
}

/// Search threads run at nice +10, below the async threads: with as many
/// workers as cores, the scheduler would otherwise share the cores evenly and
/// a health check or cheap request could wait a whole time slice behind
/// searches (see the saturated rows of scripts/load.sh). A thread's priority cannot be
/// raised again without privileges, so it is lowered once per blocking thread;
/// only the pool uses blocking threads after start-up.
fn lower_thread_priority() {
    #[cfg(target_os = "linux")]
    {
        use std::cell::Cell;
        /// How much nicer search threads are than the process (19 = lowest);
        /// relative, so a service started niced keeps its searches below it.
        const SEARCH_NICE_OFFSET: libc::c_int = 10;
        thread_local!(static LOWERED: Cell<bool> = const { Cell::new(false) });
        LOWERED.with(|lowered| {
            if !lowered.replace(true) {
                // SAFETY: plain system calls on the current thread's id; a
                // failure only leaves the priority as it was.
                unsafe {
                    let tid = libc::gettid();
                    let current = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
                    let nice = (current + SEARCH_NICE_OFFSET).min(19);
                    libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice);
                }
            }
        });
    }
}

fn panic_message(payload: Box<dyn Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    /// A real, cancellable workload: counts until told to stop.
    fn spin(stop: &Stop) -> u64 {
        let mut n = 0u64;
        loop {
            n = n.wrapping_add(1);
            if n.is_multiple_of(4096) && stop.should_stop() {
                return n;
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn rejects_beyond_workers_plus_queue() {
        let pool = Arc::new(SearchPool::new(
            1,
            1,
            Duration::from_secs(1),
            Duration::from_secs(5),
        ));
        let a = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(Duration::from_millis(300), spin).await }
        });
        let b = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(Duration::from_millis(300), spin).await }
        });
        // Let both be admitted (one running, one queued).
        while pool.stats().running + pool.stats().queued < 2 {
            tokio::task::yield_now().await;
        }
        let third = pool.run(Duration::from_millis(10), spin).await;
        assert!(matches!(
            third,
            Err(PoolError::Overloaded {
                workers: 1,
                queued: 1
            })
        ));
        assert_eq!(pool.stats().rejected, 1);
        assert!(a.await.unwrap().is_ok());
        assert!(b.await.unwrap().is_ok());
        let s = pool.stats();
        assert_eq!((s.running, s.queued, s.completed), (0, 0, 2));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn dropping_the_request_cancels_the_search() {
        let pool = Arc::new(SearchPool::new(
            1,
            0,
            Duration::from_secs(1),
            Duration::from_secs(60),
        ));
        let task = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(Duration::from_secs(60), spin).await }
        });
        while pool.stats().running == 0 {
            tokio::task::yield_now().await;
        }
        task.abort();
        let started = Instant::now();
        while pool.stats().running > 0 {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "worker never freed"
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let s = pool.stats();
        assert_eq!((s.cancelled, s.completed), (1, 0), "counted as cancelled");
        // The worker is free again: a new search runs.
        assert!(pool.run(Duration::from_millis(5), spin).await.is_ok());
        assert_eq!(pool.stats().completed, 1);
    }

    #[tokio::test]
    async fn panics_are_reported_not_propagated() {
        let pool = SearchPool::new(1, 0, Duration::from_secs(1), Duration::from_secs(1));
        let r: Result<(), _> = pool
            .run(Duration::from_millis(10), |_| panic!("boom"))
            .await;
        assert_eq!(r, Err(PoolError::Panicked("boom".into())));
        assert_eq!(pool.stats().running, 0);
        assert!(pool.run(Duration::from_millis(1), |_| 7).await == Ok(7));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn searches_run_below_the_async_threads_priority() {
        let pool = SearchPool::new(1, 0, Duration::from_secs(1), Duration::from_secs(1));
        // SAFETY: reads the calling thread's own nice value.
        let nice =
            || unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        let outside = nice();
        let inside = pool
            .run(Duration::from_millis(10), move |_| nice())
            .await
            .unwrap();
        assert_eq!(inside, (outside + 10).min(19));
    }

    #[test]
    fn budget_is_clamped() {
        let pool = SearchPool::new(1, 0, Duration::from_millis(100), Duration::from_millis(500));
        assert_eq!(pool.budget(None), Duration::from_millis(100));
        assert_eq!(pool.budget(Some(50)), Duration::from_millis(50));
        assert_eq!(pool.budget(Some(10_000)), Duration::from_millis(500));
    }
}
