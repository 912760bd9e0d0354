//! The per-solve transposition table: exact results in 16-byte slots, four
//! to a cache line, growing in place within the memory budget.

use crate::memory::Reservation;
use crate::stop::Stop;

/// Local table bound: 2^24 slots of 16 bytes = 256 MiB (doubled in place).
const MAX_TABLE_SLOTS: usize = 1 << 24;

/// A node of the per-solve table: its [`canonical_key`](super::key::canonical_key) (< 2^123, never 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Key(pub(super) u128);

impl Key {
    #[inline]
    pub(super) fn hash(&self) -> u64 {
        let mut x = self.0 as u64 ^ ((self.0 >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 32;
        x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x ^ (x >> 29)
    }
}

/// One stored result in 16 bytes: the key in bits 0–122, half the log2 of
/// the nodes the subtree took (a replacement priority) in bits 123–126, the
/// result in bit 127; 0 is an empty slot.
type Slot = u128;

pub(super) const KEY_BITS: u128 = (1 << 123) - 1;
const WORK_SHIFT: u32 = 123;
const WIN_BIT: u128 = 1 << 127;

/// The replacement priority of a slot.
#[inline]
pub(super) fn slot_work(s: Slot) -> u32 {
    (s >> WORK_SHIFT) as u32 & 15
}

/// The result a slot holds.
#[inline]
pub(super) fn slot_result(s: Slot) -> bool {
    s & WIN_BIT != 0
}

/// The slot for `key`'s result `win`, whose subtree took `work` nodes.
#[inline]
pub(super) fn slot_of(key: Key, win: bool, work: u32) -> Slot {
    let log_work = ((32 - work.leading_zeros()) / 2).min(15) as u128;
    key.0 | log_work << WORK_SHIFT | if win { WIN_BIT } else { 0 }
}

pub(super) const BUCKET: usize = 4;

/// Four slots in one cache line.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
pub(super) struct Bucket([Slot; BUCKET]);

/// Per-solve table of exact results: buckets of four slots, doubling while
/// under [`MAX_TABLE_SLOTS`] and the workers' memory budget allows, then
/// replacing the cheapest entry of a bucket.
pub(super) struct Table {
    pub(super) buckets: Vec<Bucket>,
    len: usize,
    /// No more doubling (the deadline is near).
    pub(super) frozen: bool,
    /// The table's bytes, held against the workers' shared memory budget;
    /// a doubling the budget refuses does not happen.
    pub(super) memory: Reservation,
}

impl Table {
    /// A table of `slots` slots, held against `stop`'s memory budget (the
    /// starting table is small and always allowed).
    pub(super) fn new(slots: usize, stop: &Stop) -> Table {
        let len = (slots / BUCKET).max(1);
        let memory = stop.reserve_memory(len * std::mem::size_of::<Bucket>());
        let mut buckets = Vec::new();
        resize_advised(&mut buckets, len);
        Table {
            buckets,
            len: 0,
            frozen: false,
            memory,
        }
    }

    #[inline]
    fn bucket(&self, key: &Key) -> usize {
        key.hash() as usize & (self.buckets.len() - 1)
    }

    /// Hints the CPU to load `key`'s bucket (the probe is a cache and TLB
    /// miss in a large table; the search has other work to overlap with it).
    #[inline]
    pub(super) fn prefetch(&self, key: &Key) {
        prefetch_line(&self.buckets[self.bucket(key)]);
    }

    #[inline]
    pub(super) fn get(&self, key: &Key) -> Option<bool> {
        self.buckets[self.bucket(key)]
            .0
            .iter()
            .find(|&&s| s & KEY_BITS == key.0)
            .map(|&s| slot_result(s))
    }

    pub(super) fn insert(&mut self, key: Key, win: bool, work: u32) {
        if self.len * 2 > self.buckets.len() * BUCKET
            && self.buckets.len() * BUCKET < MAX_TABLE_SLOTS
            && !self.frozen
        {
            if self
                .memory
                .try_grow(self.buckets.len() * std::mem::size_of::<Bucket>())
            {
                self.grow();
            } else {
                // Asked again at the next poll of the stop, by when another
                // search may have given memory back.
                self.frozen = true;
            }
        }
        self.put(slot_of(key, win, work));
    }

    fn put(&mut self, slot: Slot) {
        let key = slot & KEY_BITS;
        let b = self.bucket(&Key(key));
        let bucket = &mut self.buckets[b].0;
        if let Some(s) = bucket
            .iter_mut()
            .find(|s| **s == 0 || **s & KEY_BITS == key)
        {
            if *s == 0 {
                self.len += 1;
            }
            *s = slot;
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|s| slot_work(**s))
            .expect("bucket has slots");
        if slot_work(*victim) <= slot_work(slot) {
            *victim = slot;
        }
    }

    /// Doubles the table in place: a bucket's entries either stay or move to
    /// the bucket `old_len` further on (the hash gains one bit), so nothing
    /// else is disturbed, and the allocator can extend the memory instead of
    /// copying it (only the new half is fresh pages).
    fn grow(&mut self) {
        let old_len = self.buckets.len();
        resize_advised(&mut self.buckets, old_len * 2);
        for b in 0..old_len {
            for i in 0..BUCKET {
                let s = self.buckets[b].0[i];
                if s == 0 {
                    continue;
                }
                let nb = self.bucket(&Key(s & KEY_BITS));
                if nb != b {
                    debug_assert_eq!(nb, b + old_len);
                    let free = self.buckets[nb]
                        .0
                        .iter_mut()
                        .find(|t| **t == 0)
                        .expect("a new bucket takes at most one old bucket's entries");
                    *free = s;
                    self.buckets[b].0[i] = 0;
                }
            }
        }
    }
}

/// Hints the CPU to load the cache line of `value`.
#[inline]
pub(super) fn prefetch_line<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = value as *const T as *const i8;
        // SAFETY: a prefetch is only a hint; it never faults and has no
        // effect on memory contents (the address is in bounds anyway).
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Grows `buckets` to `len` empty buckets, asking the kernel first to back
/// the new memory with transparent huge pages: probes are random, so with
/// 4 KiB pages nearly every one also misses the TLB. The advice must come
/// before the pages are first written. Only a hint; where huge pages are off
/// or unavailable nothing changes.
fn resize_advised(buckets: &mut Vec<Bucket>, len: usize) {
    buckets.reserve_exact(len.saturating_sub(buckets.len()));
    advise_huge_pages(
        buckets.as_ptr() as usize,
        buckets.capacity() * std::mem::size_of::<Bucket>(),
    );
    buckets.resize(len, Bucket::default());
}

/// Asks the kernel to back `len` bytes from `start` with transparent huge
/// pages (only a hint: where huge pages are off nothing changes).
fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let end = start + len;
        let first = start.next_multiple_of(PAGE);
        let last = end / PAGE * PAGE;
        if last >= first + (2 << 20) {
            // SAFETY: the caller's range lies inside one allocation and
            // MADV_HUGEPAGE does not change its contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}
