//! The table the threads of one solve share: exact results in buckets of
//! three 16-byte slots and a version word, one cache line each.
//!
//! A bucket is written under its version word (odd while a writer holds
//! it) and read optimistically: a reader that saw the version change while
//! it read retries, so it never takes a key from one write with the result
//! of another. Slots hold the same 128-bit form as the per-thread table
//! ([`Table`](super::table::Table)); the table has a fixed size, taken
//! lazily from the kernel (untouched pages cost nothing), within the
//! workers' memory budget. Unlike the per-thread table it asks for no huge
//! pages: its entries are spread over the whole table from the start, and
//! zeroing a 2 MiB page for each of them cost more than the TLB misses
//! saved (1.34 s against 2.36 s on a 3 × 12 deal on two threads).

use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::sync::atomic::{AtomicU64, Ordering, fence};

use crate::memory::Reservation;
use crate::stop::Stop;

use super::table::{Key, prefetch_line, slot_of, slot_result, slot_work};

/// Slots per bucket (the fourth 16 bytes hold the version word).
const SLOTS: usize = 3;
/// Most buckets: 2^22 × 64 bytes = 256 MiB, the per-thread table's bound.
const MAX_BUCKETS: usize = 1 << 22;
/// Slots of the table of nodes being searched (512 KiB).
const BUSY_SLOTS: usize = 1 << 16;
/// Fewest buckets: 256 KiB.
const MIN_BUCKETS: usize = 1 << 12;
/// Buckets per second of search time: 2^20 × 64 bytes = 64 MiB.
const BUCKETS_PER_SECOND: f64 = (1 << 20) as f64;

#[repr(C, align(64))]
struct Bucket {
    version: AtomicU64,
    _pad: AtomicU64,
    /// Per slot its low and high 64 bits; all zero: empty.
    slots: [[AtomicU64; 2]; SLOTS],
}

/// A fixed-size table of exact results shared by the threads of one solve.
pub(super) struct SharedTable {
    buckets: Box<[Bucket]>,
    /// Per slot, the tag of a node some thread is searching (0: none); a
    /// lossy hint, never a result.
    busy: Box<[AtomicU64]>,
    _memory: Reservation,
}

impl SharedTable {
    /// A table for a search of `stop`'s time: 64 MiB per second left (about
    /// what two threads fill), between 256 KiB and 256 MiB, as far as the
    /// memory budget allows. (Touching a page costs its zeroing, so a short
    /// search must not spread its entries over a large table.)
    pub(super) fn new(stop: &Stop) -> SharedTable {
        let seconds = stop.remaining().as_secs_f64();
        let wanted = (seconds * BUCKETS_PER_SECOND) as usize;
        let buckets = wanted.clamp(MIN_BUCKETS, MAX_BUCKETS).next_power_of_two();
        SharedTable::with_max_buckets(stop, buckets.min(MAX_BUCKETS))
    }

    /// The largest table of at most `max` buckets (a power of two) that
    /// `stop`'s memory budget allows.
    fn with_max_buckets(stop: &Stop, max: usize) -> SharedTable {
        let bytes = |n: usize| n * std::mem::size_of::<Bucket>();
        let min = MIN_BUCKETS.min(max);
        let mut memory = stop.reserve_memory(bytes(min));
        let mut n = max;
        while n > min && !memory.try_grow(bytes(n) - bytes(min)) {
            n /= 2;
        }
        let layout = Layout::array::<Bucket>(n).expect("the table's size fits in memory");
        // SAFETY: the layout is not zero-sized; all-zero bytes are a valid
        // `Bucket` (atomics of 0: version 0 and empty slots), and the
        // pointer comes from the global allocator with this layout, as
        // `Box` requires.
        let buckets = unsafe {
            let p = alloc_zeroed(layout) as *mut Bucket;
            if p.is_null() {
                handle_alloc_error(layout);
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
        };
        SharedTable {
            buckets,
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            _memory: memory,
        }
    }

    #[inline]
    fn bucket(&self, key: &Key) -> &Bucket {
        &self.buckets[key.hash() as usize & (self.buckets.len() - 1)]
    }

    fn busy_slot(&self, key: &Key) -> (&AtomicU64, u64) {
        let h = key.hash();
        (&self.busy[(h >> 40) as usize & (BUSY_SLOTS - 1)], h | 1)
    }

    /// Notes that this thread searches `key`'s node.
    pub(super) fn mark_busy(&self, key: &Key) {
        let (slot, tag) = self.busy_slot(key);
        slot.store(tag, Ordering::Relaxed);
    }

    /// Takes back [`SharedTable::mark_busy`] (unless another node took the slot).
    pub(super) fn clear_busy(&self, key: &Key) {
        let (slot, tag) = self.busy_slot(key);
        let _ = slot.compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether some thread said it searches `key`'s node.
    pub(super) fn is_busy(&self, key: &Key) -> bool {
        let (slot, tag) = self.busy_slot(key);
        slot.load(Ordering::Relaxed) == tag
    }

    /// Hints the CPU to load `key`'s bucket.
    #[inline]
    pub(super) fn prefetch(&self, key: &Key) {
        prefetch_line(self.bucket(key));
    }

    /// The stored result of `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: &Key) -> Option<bool> {
        let b = self.bucket(key);
        loop {
            let before = b.version.load(Ordering::Acquire);
            if before & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let mut found = None;
            for s in &b.slots {
                let slot = load(s);
                if slot != 0 && key_matches(slot, key) {
                    found = Some(slot_result(slot));
                    break;
                }
            }
            fence(Ordering::Acquire);
            if b.version.load(Ordering::Relaxed) == before {
                return found;
            }
        }
    }

    /// Stores `win` for `key`: into its slot, an empty one, or over the
    /// entry whose subtree took the least work (if no more than this one).
    pub(super) fn insert(&self, key: Key, win: bool, work: u32) {
        let new = slot_of(key, win, work);
        let b = self.bucket(&key);
        let mut v = b.version.load(Ordering::Relaxed);
        loop {
            if v & 1 == 0 {
                match b.version.compare_exchange_weak(
                    v,
                    v + 1,
                    Ordering::Acquire,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break,
                    Err(now) => v = now,
                }
            } else {
                std::hint::spin_loop();
                v = b.version.load(Ordering::Relaxed);
            }
        }
        // Readers that see any of the stores below also see the odd version.
        fence(Ordering::Release);
        let slots: [u128; SLOTS] = std::array::from_fn(|i| load(&b.slots[i]));
        let target = slots
            .iter()
            .position(|&s| s == 0 || key_matches(s, &key))
            .or_else(|| {
                let (i, &cheapest) = slots
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, s)| slot_work(**s))?;
                (slot_work(cheapest) <= slot_work(new)).then_some(i)
            });
        if let Some(i) = target {
            b.slots[i][0].store(new as u64, Ordering::Relaxed);
            b.slots[i][1].store((new >> 64) as u64, Ordering::Relaxed);
        }
        b.version.store(v + 2, Ordering::Release);
    }
}

#[inline]
fn load(s: &[AtomicU64; 2]) -> u128 {
    s[0].load(Ordering::Relaxed) as u128 | (s[1].load(Ordering::Relaxed) as u128) << 64
}

#[inline]
fn key_matches(slot: u128, key: &Key) -> bool {
    slot_of(*key, false, 0) == slot & super::table::KEY_BITS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_read_only_whole_entries() {
        // One bucket: the keys share its three slots under heavy churn from
        // two writers; every read must give the result stored with its key.
        let table = SharedTable::with_max_buckets(&Stop::never(), 1);
        let keys: Vec<Key> = (1..=64u128).map(|i| Key(i << 70 | i)).collect();
        std::thread::scope(|s| {
            for t in 0..2 {
                let (table, keys) = (&table, &keys);
                s.spawn(move || {
                    for round in 0..20_000usize {
                        let k = keys[(round * 7 + t) % keys.len()];
                        // A key's result is a function of the key.
                        table.insert(k, k.0 & 1 == 1, (round % 50) as u32);
                        let probe = keys[(round * 13 + 3 * t) % keys.len()];
                        if let Some(win) = table.get(&probe) {
                            assert_eq!(win, probe.0 & 1 == 1);
                        }
                    }
                });
            }
        });
        assert!(keys.iter().filter_map(|k| table.get(k)).count() >= 1);
    }
}
