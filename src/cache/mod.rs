//! The shared transposition cache: exact search results (solved positions),
//! shared by every request and worker.
//!
//! A fixed-size table allocated once, as chess engines do, so memory is bounded
//! by construction and never grows with traffic. Each bucket holds a few slots
//! behind its own small lock (contention is spread over many thousands of
//! locks). Every slot stores the position's full key and a lookup compares it
//! exactly, so two positions whose hashes collide can never read each other's
//! value. When a bucket is full, the entry that cost the least work to compute
//! is evicted.
//!
//! [`remote`] is the optional second level: solved positions shared by every
//! replica through a Redis server.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub mod remote;

/// Words in a key. Enough for a Dou Dizhu endgame (three hands, the standing
/// play, mover, seat and rules) or a gomoku position hash plus context.
pub const KEY_WORDS: usize = 6;

/// The full identity of a position. Word 0 should name the game/engine so
/// different engines sharing the cache never meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CacheKey(pub [u64; KEY_WORDS]);

impl CacheKey {
    fn hash(&self) -> u64 {
        // splitmix64-style mixing of every word: cheap and well spread.
        let mut h = 0x9E37_79B9_7F4A_7C15u64;
        for &w in &self.0 {
            h ^= w;
            h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
        h ^= h >> 29;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 32)
    }
}

const SLOTS_PER_BUCKET: usize = 4;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: CacheKey,
    value: u64,
    /// Effort spent computing the value (e.g. nodes searched); 0 = empty.
    work: u32,
}

type Bucket = [Slot; SLOTS_PER_BUCKET];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    pub evictions: u64,
    pub entries: u64,
    /// Bytes held by the stored entries.
    pub bytes: u64,
    /// Bytes of the whole table (the bound).
    pub capacity_bytes: u64,
}

#[derive(Debug)]
pub struct TranspositionCache {
    buckets: Box<[Mutex<Bucket>]>,
    hits: AtomicU64,
    misses: AtomicU64,
    evictions: AtomicU64,
    entries: AtomicU64,
}

impl TranspositionCache {
    /// A table that fits in `mib` MiB (at least one bucket).
    pub fn with_mib(mib: usize) -> Self {
        Self::with_bytes(mib.saturating_mul(1 << 20))
    }

    pub fn with_bytes(bytes: usize) -> Self {
        let n = (bytes / std::mem::size_of::<Mutex<Bucket>>()).max(1);
        let buckets = (0..n).map(|_| Mutex::new(Bucket::default())).collect();
        TranspositionCache {
            buckets,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            evictions: AtomicU64::new(0),
            entries: AtomicU64::new(0),
        }
    }

    /// Entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * SLOTS_PER_BUCKET
    }

    fn bucket(&self, key: &CacheKey) -> std::sync::MutexGuard<'_, Bucket> {
        let i = (key.hash() % self.buckets.len() as u64) as usize;
        // A poisoned lock only means another thread panicked mid-copy of
        // plain data; the slots are still whole values.
        self.buckets[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value for `key`, without counting a hit or a miss (for copying
    /// entries to the second level).
    pub fn peek(&self, key: &CacheKey) -> Option<u64> {
        let bucket = self.bucket(key);
        bucket
            .iter()
            .find(|s| s.work != 0 && s.key == *key)
            .map(|s| s.value)
    }

    pub fn get(&self, key: &CacheKey) -> Option<u64> {
        let bucket = self.bucket(key);
        let found = bucket
            .iter()
            .find(|s| s.work != 0 && s.key == *key)
            .map(|s| s.value);
        drop(bucket);
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Stores `value` for `key`. `work` (clamped to at least 1) says how costly
    /// the value was to compute; cheaper entries are evicted first.
    pub fn insert(&self, key: CacheKey, value: u64, work: u32) {
        let work = work.max(1);
        let mut bucket = self.bucket(&key);
        if let Some(slot) = bucket.iter_mut().find(|s| s.work != 0 && s.key == key) {
            slot.value = value;
            slot.work = slot.work.max(work);
            return;
        }
        let new = Slot { key, value, work };
        if let Some(slot) = bucket.iter_mut().find(|s| s.work == 0) {
            *slot = new;
            self.entries.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|s| s.work)
            .expect("bucket has slots");
        // Age the survivors a little so old expensive entries do not stay forever.
        *victim = new;
        for s in bucket.iter_mut() {
            if s.key != key {
                s.work -= s.work / 8;
                s.work = s.work.max(1);
            }
        }
        self.evictions.fetch_add(1, Ordering::Relaxed);
    }

    pub fn stats(&self) -> CacheStats {
        let entries = self.entries.load(Ordering::Relaxed);
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            evictions: self.evictions.load(Ordering::Relaxed),
            entries,
            bytes: entries * std::mem::size_of::<Slot>() as u64,
            capacity_bytes: (self.buckets.len() * std::mem::size_of::<Mutex<Bucket>>()) as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::Arc;

    fn key(n: u64) -> CacheKey {
        CacheKey([1, n, n.rotate_left(17), !n, n.wrapping_mul(3), 0])
    }

    /// The value a key's writer stores: a reader can tell whose value it got.
    fn value_of(k: &CacheKey) -> u64 {
        k.0.iter()
            .fold(7u64, |a, &w| a.wrapping_mul(31).wrapping_add(w))
    }

    #[test]
    fn stores_and_finds() {
        let cache = TranspositionCache::with_bytes(64 * 1024);
        assert_eq!(cache.get(&key(1)), None);
        cache.insert(key(1), 42, 10);
        assert_eq!(cache.get(&key(1)), Some(42));
        let s = cache.stats();
        assert_eq!((s.hits, s.misses, s.entries), (1, 1, 1));
    }

    #[test]
    fn colliding_hashes_never_share_values() {
        // A one-bucket table: every key lands in the same bucket.
        let cache = TranspositionCache::with_bytes(1);
        assert_eq!(cache.capacity(), SLOTS_PER_BUCKET);
        for n in 0..100 {
            cache.insert(key(n), value_of(&key(n)), 1);
            for m in 0..=n {
                if let Some(v) = cache.get(&key(m)) {
                    assert_eq!(v, value_of(&key(m)));
                }
            }
        }
        assert!(cache.stats().evictions > 0);
    }

    #[test]
    fn memory_stays_bounded_after_ten_times_capacity() {
        let bound = 256 * 1024;
        let cache = TranspositionCache::with_bytes(bound);
        let inserts = cache.capacity() as u64 * 10;
        for n in 0..inserts {
            cache.insert(key(n), n, (n % 50) as u32);
        }
        let s = cache.stats();
        assert!(s.capacity_bytes <= bound as u64);
        assert!(s.bytes <= s.capacity_bytes);
        assert!(s.entries <= cache.capacity() as u64);
        assert!(
            s.entries > cache.capacity() as u64 / 2,
            "table should be well used"
        );
        assert_eq!(s.entries + s.evictions, inserts);
    }

    #[test]
    fn expensive_entries_survive_cheap_ones() {
        let cache = TranspositionCache::with_bytes(1);
        cache.insert(key(0), 1, 1_000_000);
        for n in 1..20 {
            cache.insert(key(n), n, 1);
        }
        assert_eq!(cache.get(&key(0)), Some(1));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        #[test]
        fn concurrent_readers_and_writers_see_only_their_keys(
            seeds in proptest::collection::vec(any::<u64>(), 4),
            table_bytes in 1usize..8192,
        ) {
            let cache = Arc::new(TranspositionCache::with_bytes(table_bytes));
            let threads: Vec<_> = seeds.iter().map(|&seed| {
                let cache = cache.clone();
                std::thread::spawn(move || {
                    let mut x = seed | 1;
                    for _ in 0..2_000 {
                        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                        let k = key(x % 512);
                        if x & 1 == 0 {
                            cache.insert(k, value_of(&k), (x >> 40) as u32);
                        } else if let Some(v) = cache.get(&k) {
                            assert_eq!(v, value_of(&k), "read another key's value");
                        }
                    }
                })
            }).collect();
            for t in threads {
                t.join().unwrap();
            }
            let s = cache.stats();
            prop_assert!(s.entries <= cache.capacity() as u64);
        }
    }
}
