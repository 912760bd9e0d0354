//! The transposition table: one entry per slot, replaced by depth and age;
//! mate scores stored relative to the node.

use super::MATE_BOUND;

pub(super) const BOUND_LOWER: u8 = 1;
pub(super) const BOUND_UPPER: u8 = 2;
pub(super) const BOUND_EXACT: u8 = 3;

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) mv: u16,
    pub(super) score: i16,
    pub(super) depth: i8,
    pub(super) bound: u8,
    pub(super) generation: u16,
}

pub(super) struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u16,
    /// Only entries of the current search count (reproducible stateless searches).
    strict: bool,
}

impl Tt {
    pub(super) fn new(mib: usize) -> Tt {
        let want = (mib.max(1) << 20) / std::mem::size_of::<Entry>();
        let len = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Tt {
            entries: vec![Entry::default(); len],
            mask: len - 1,
            generation: 1,
            strict: false,
        }
    }

    pub(super) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 1;
    }

    pub(super) fn new_search(&mut self, strict: bool) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // after a wrap an old entry could look current: start clean
            self.clear();
        }
        self.strict = strict;
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.bound != 0 && e.key == key && (!self.strict || e.generation == self.generation))
            .then_some(e)
    }

    #[inline]
    pub(super) fn store(&mut self, key: u64, mv: u16, score: i32, depth: i32, bound: u8) {
        let generation = self.generation;
        let e = &mut self.entries[key as usize & self.mask];
        if e.generation != generation || e.key == key || depth >= e.depth as i32 {
            *e = Entry {
                key,
                mv,
                score: score as i16,
                depth: depth.clamp(-1, 127) as i8,
                bound,
                generation,
            };
        }
    }
}

pub(super) fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

pub(super) fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
