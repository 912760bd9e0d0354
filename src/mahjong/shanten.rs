//! Shanten (tiles away from ready; -1 = complete) and ukeire (live tiles that lower it).
//!
//! * Combined shanten without wildcards comes from the `xiangting` crate (standard form,
//!   seven pairs, thirteen orphans; it also handles "fourth copy in hand" cases).
//! * Standard-form-only shanten (four sets and a pair) is computed here with a per-suit
//!   block table cached per thread, because `xiangting` only exposes the combined minimum.
//! * Wildcards (Red Dragon): with `k` wildcards the replacement number (shanten + 1) is
//!   `max(0, r - k)` where `r` is the replacement number of the other tiles for the full
//!   hand size; tested against brute-force substitution.

use std::cell::RefCell;
use std::collections::HashMap;

use super::tiles::{KINDS, TileCounts, Variant, is_terminal_or_honor};

/// Best taatsu count per (pair used, sets) for one suit pattern; -1 = unreachable.
pub(crate) type BlockInfo = [[i8; 5]; 2];

/// Multiplicative hash for the small integer pattern keys: the default SipHash was a
/// large share of a discard decision's time, and the keys are not attacker-chosen hashes
/// (tile counts bounded by validation).
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

pub(crate) type KeyHashBuilder = std::hash::BuildHasherDefault<KeyHasher>;

thread_local! {
    static CACHE: RefCell<HashMap<u32, BlockInfo, KeyHashBuilder>> =
        RefCell::new(HashMap::with_capacity_and_hasher(1 << 14, KeyHashBuilder::default()));
}

fn pattern_key(c: &[u8; 9], len: usize, seq: bool) -> u32 {
    let mut key: u32 = u32::from(!seq) << 30;
    for (i, &x) in c[..len].iter().enumerate() {
        key |= u32::from(x.min(7)) << (3 * i);
    }
    key
}

#[allow(clippy::needless_range_loop)]
fn merge(best: &mut BlockInfo, sub: &BlockInfo, dm: usize, dt: i8, dp: usize) {
    for p in 0..2 {
        if p + dp > 1 {
            continue;
        }
        for m in 0..5 {
            if sub[p][m] >= 0 {
                let nm = (m + dm).min(4);
                let v = sub[p][m] + dt;
                if best[p + dp][nm] < v {
                    best[p + dp][nm] = v;
                }
            }
        }
    }
}

/// Memoised over sub-patterns: take the first tile and branch on what it becomes.
fn pattern_info(c: &mut [u8; 9], len: usize, seq: bool) -> BlockInfo {
    let Some(i) = (0..len).find(|&i| c[i] > 0) else {
        let mut b = [[-1i8; 5]; 2];
        b[0][0] = 0;
        return b;
    };
    let key = pattern_key(c, len, seq);
    if let Some(info) = CACHE.with(|cache| cache.borrow().get(&key).copied()) {
        return info;
    }
    let mut best = [[-1i8; 5]; 2];
    let mut branch = |c: &mut [u8; 9], take: &[usize], dm: usize, dt: i8, dp: usize| {
        for &x in take {
            c[x] -= 1;
        }
        let sub = pattern_info(c, len, seq);
        for &x in take {
            c[x] += 1;
        }
        merge(&mut best, &sub, dm, dt, dp);
    };
    if c[i] >= 3 {
        branch(c, &[i, i, i], 1, 0, 0);
    }
    if seq && i + 2 < len && c[i + 1] > 0 && c[i + 2] > 0 {
        branch(c, &[i, i + 1, i + 2], 1, 0, 0);
    }
    if c[i] >= 2 {
        branch(c, &[i, i], 0, 0, 1);
        branch(c, &[i, i], 0, 1, 0);
    }
    if seq {
        for d in 1..=2 {
            if i + d < len && c[i + d] > 0 {
                branch(c, &[i, i + d], 0, 1, 0);
            }
        }
    }
    branch(c, &[i], 0, 0, 0);
    CACHE.with(|cache| cache.borrow_mut().insert(key, best));
    best
}

fn group_info(counts: &[u8], seq: bool) -> BlockInfo {
    let mut c = [0u8; 9];
    c[..counts.len()].copy_from_slice(counts);
    pattern_info(&mut c, counts.len(), seq)
}

/// Max-plus convolution of two block tables (sets capped at 4, at most one pair).
/// Associative and commutative, so groups may be combined in any order.
#[allow(clippy::needless_range_loop)]
fn conv(a: &BlockInfo, b: &BlockInfo) -> BlockInfo {
    let mut nd = [[-1i8; 5]; 2];
    for p1 in 0..2 {
        for m1 in 0..5 {
            if a[p1][m1] < 0 {
                continue;
            }
            for p2 in 0..(2 - p1) {
                for m2 in 0..5 {
                    if b[p2][m2] < 0 {
                        continue;
                    }
                    let m = (m1 + m2).min(4);
                    let v = a[p1][m1] + b[p2][m2];
                    if nd[p1 + p2][m] < v {
                        nd[p1 + p2][m] = v;
                    }
                }
            }
        }
    }
    nd
}

/// Replacement-count minimum (shanten) for a combined table needing `mreq` sets and a pair.
fn eval(dp: &BlockInfo, mreq: i8) -> i8 {
    let mut best = i8::MAX;
    for (p, row) in dp.iter().enumerate() {
        for (m, &t) in row.iter().enumerate() {
            if t < 0 {
                continue;
            }
            let m = (m as i8).min(mreq);
            let t = t.min(mreq - m);
            best = best.min(2 * mreq - 2 * m - t - p as i8);
        }
    }
    best
}

fn combine(infos: &[BlockInfo; 4], mreq: i8) -> i8 {
    let dp = conv(&conv(&infos[0], &infos[1]), &conv(&infos[2], &infos[3]));
    eval(&dp, mreq)
}

/// For each group, the combination of the other three (so a change in one group costs
/// one convolution instead of three).
fn rest_of(infos: &[BlockInfo; 4]) -> [BlockInfo; 4] {
    let a01 = conv(&infos[0], &infos[1]);
    let a23 = conv(&infos[2], &infos[3]);
    [
        conv(&infos[1], &a23),
        conv(&infos[0], &a23),
        conv(&a01, &infos[3]),
        conv(&a01, &infos[2]),
    ]
}

fn infos_of(c: &[u8; KINDS]) -> [BlockInfo; 4] {
    [
        group_info(&c[0..9], true),
        group_info(&c[9..18], true),
        group_info(&c[18..27], true),
        group_info(&c[27..34], false),
    ]
}

/// Standard-form shanten of `c` needing `mreq` sets and a pair (no wildcards).
pub fn standard_shanten_raw(c: &[u8; KINDS], mreq: u8) -> i8 {
    combine(&infos_of(c), mreq as i8)
}

/// Maximum number of complete sets (chows and pungs, or pungs only) in `c`.
pub fn max_sets(c: &[u8; KINDS], chows: bool) -> u8 {
    if !chows {
        return c.iter().map(|&x| x / 3).sum();
    }
    infos_of(c)
        .iter()
        .map(|info| {
            (0..5)
                .rev()
                .find(|&m| info[0][m] >= 0 || info[1][m] >= 0)
                .unwrap_or(0) as u8
        })
        .sum()
}

/// Seven pairs shanten (distinct kinds), no wildcards; `None` when melds exist.
pub fn seven_pairs_raw(c: &[u8; KINDS]) -> i8 {
    let pairs = c.iter().filter(|&&x| x >= 2).count() as i8;
    let kinds = c.iter().filter(|&&x| x >= 1).count() as i8;
    6 - pairs + (7 - kinds).max(0)
}

/// Thirteen orphans shanten, no wildcards.
pub fn orphans_raw(c: &[u8; KINDS]) -> i8 {
    let mut kinds = 0;
    let mut pair = false;
    for (i, &x) in c.iter().enumerate() {
        if is_terminal_or_honor(i as u8) && x > 0 {
            kinds += 1;
            pair |= x >= 2;
        }
    }
    13 - kinds - i8::from(pair)
}

/// Which winning forms to consider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forms {
    /// Four sets and a pair only.
    Standard,
    /// Four sets and a pair, all pungs (no chows).
    Pungs,
    /// Every form the variant recognises.
    All,
}

/// All-pungs shanten (sets must be pungs), no wildcards.
pub fn pungs_raw(c: &[u8; KINDS], mreq: u8) -> i8 {
    let mreq = mreq as i8;
    let trip = c.iter().filter(|&&x| x >= 3).count() as i8;
    let pairs = c.iter().filter(|&&x| x == 2).count() as i8;
    let m = trip.min(mreq);
    let head = i8::from(pairs > 0);
    let t = (pairs - head).min(mreq - m);
    2 * mreq - 2 * m - t - head
}

/// Shanten of the concealed part `conc` (3n+1 or 3n+2 tiles) with `melds` declared sets.
pub fn shanten_forms(variant: Variant, conc: &TileCounts, melds: usize, forms: Forms) -> i8 {
    let total = conc.total() as usize;
    let mreq = (4usize.saturating_sub(melds)) as u8;
    let mut c = conc.0;
    let k = match variant.wildcard() {
        Some(w) => std::mem::take(&mut c[w as usize]) as i8,
        None => 0,
    };
    let closed_full = melds == 0 && total >= 13;
    let apply = |s: i8| (s + 1 - k).max(0) - 1;
    match forms {
        Forms::Standard => apply(standard_shanten_raw(&c, mreq)),
        Forms::Pungs => apply(pungs_raw(&c, mreq)),
        Forms::All => {
            if k == 0
                && variant != Variant::RedDragon
                && total <= 14
                && !total.is_multiple_of(3)
                && c.iter().all(|&x| x <= 4)
                && let Ok(r) =
                    xiangting::calculate_replacement_number(&c, xiangting::PlayerCount::Four)
            {
                return r as i8 - 1;
            }
            let mut s = apply(standard_shanten_raw(&c, mreq));
            if closed_full && variant.has_seven_pairs() {
                s = s.min(apply(seven_pairs_raw(&c)));
            }
            if closed_full && variant.has_thirteen_orphans() {
                s = s.min(apply(orphans_raw(&c)));
            }
            s
        }
    }
}

/// Combined shanten over every form the variant recognises.
pub fn shanten(variant: Variant, conc: &TileCounts, melds: usize) -> i8 {
    shanten_forms(variant, conc, melds, Forms::All)
}

/// Live copies per kind: 4 minus the copies in `seen` (hand + melds + visible).
pub fn live_counts(variant: Variant, seen: &TileCounts) -> [u8; KINDS] {
    let mut live = [0u8; KINDS];
    for k in variant.kinds() {
        live[k as usize] = 4u8.saturating_sub(seen.get(k));
    }
    live
}

/// (shanten, ukeire count, mask of accepting kinds) for a hand waiting for a draw.
#[allow(clippy::needless_range_loop)]
pub fn ukeire_forms(
    variant: Variant,
    conc: &TileCounts,
    melds: usize,
    live: &[u8; KINDS],
    forms: Forms,
) -> (i8, u32, u64) {
    if forms == Forms::Standard {
        return ukeire_standard(variant, conc, melds, live);
    }
    let c0 = conc.0;
    if forms == Forms::All
        && variant.wildcard().is_none()
        && let Ok((r, necessary)) =
            xiangting::calculate_necessary_tiles(&c0, xiangting::PlayerCount::Four)
    {
        let s0 = r as i8 - 1;
        if s0 < 0 {
            return (s0, 0, 0);
        }
        let mut count = 0;
        for t in 0..KINDS {
            if necessary & (1 << t) != 0 {
                count += live[t] as u32;
            }
        }
        return (s0, count, necessary);
    }
    let s0 = shanten_forms(variant, conc, melds, forms);
    if s0 < 0 {
        return (s0, 0, 0);
    }
    // Red Dragon never takes the `xiangting` branch of `shanten_forms`, so its combined
    // shanten after a plain draw is the standard part (one group re-evaluated) or the
    // cheap seven-pairs count, exactly as `shanten_forms` computes it.
    let tables = (forms == Forms::All && variant == Variant::RedDragon)
        .then(|| StdTables::new(variant, conc, melds));
    let mut mask = 0u64;
    let mut count = 0u32;
    let mut c = *conc;
    for k in variant.kinds() {
        if live[k as usize] == 0 || !could_help(conc, k, variant) {
            continue;
        }
        c.add(k);
        let after = match &tables {
            Some(t) if Some(k) != variant.wildcard() => {
                let mut s = t.apply(eval(&conv(&t.rest[group_of(k)], &t.group_plus(k)), t.mreq));
                if melds == 0 && c.total() >= 13 {
                    let mut plain = c.0;
                    plain[variant.wildcard().map_or(0, usize::from)] = 0;
                    s = s.min(t.apply(seven_pairs_raw(&plain)));
                }
                s
            }
            _ => shanten_forms(variant, &c, melds, forms),
        };
        if after < s0 {
            mask |= 1 << k;
            count += live[k as usize] as u32;
        }
        c.remove(k);
    }
    (s0, count, mask)
}

/// Standard-form tables of one hand, kept so that one-tile edits (a draw, a discard)
/// re-evaluate only the touched suit group: one table lookup and one convolution.
pub(crate) struct StdTables {
    /// Counts without wildcards.
    c: [u8; KINDS],
    wilds: i8,
    mreq: i8,
    infos: [BlockInfo; 4],
    rest: [BlockInfo; 4],
}

/// Suit group of a kind (0–2 suits, 3 honors).
pub(crate) fn group_of(t: u8) -> usize {
    (t / 9).min(3) as usize
}

fn group_slice_info(c: &[u8; KINDS], g: usize) -> BlockInfo {
    match g {
        3 => group_info(&c[27..34], false),
        _ => group_info(&c[g * 9..g * 9 + 9], true),
    }
}

impl StdTables {
    pub(crate) fn new(variant: Variant, conc: &TileCounts, melds: usize) -> Self {
        let mut c = conc.0;
        let wilds = match variant.wildcard() {
            Some(w) => std::mem::take(&mut c[w as usize]) as i8,
            None => 0,
        };
        let infos = infos_of(&c);
        StdTables {
            c,
            wilds,
            mreq: 4usize.saturating_sub(melds) as i8,
            infos,
            rest: rest_of(&infos),
        }
    }

    fn apply(&self, s: i8) -> i8 {
        (s + 1 - self.wilds).max(0) - 1
    }

    /// Standard-form shanten (same as `shanten_forms(.., Forms::Standard)`).
    pub(crate) fn shanten(&self) -> i8 {
        self.apply(eval(&conv(&self.rest[0], &self.infos[0]), self.mreq))
    }

    /// The table of `t`'s group with one more `t` (not a wildcard).
    pub(crate) fn group_plus(&self, t: u8) -> BlockInfo {
        let mut c = self.c;
        c[t as usize] += 1;
        group_slice_info(&c, group_of(t))
    }

    /// The tables after removing one `d` (not a wildcard, held).
    pub(crate) fn without(&self, d: u8) -> Self {
        let mut c = self.c;
        c[d as usize] -= 1;
        let mut infos = self.infos;
        infos[group_of(d)] = group_slice_info(&c, group_of(d));
        StdTables {
            c,
            wilds: self.wilds,
            mreq: self.mreq,
            infos,
            rest: rest_of(&infos),
        }
    }

    /// (shanten, ukeire, mask) for the hand `conc` these tables describe; `plus(t)` must
    /// return `self.group_plus(t)` (callers may serve it from a cache).
    pub(crate) fn ukeire(
        &self,
        variant: Variant,
        conc: &TileCounts,
        live: &[u8; KINDS],
        mut plus: impl FnMut(u8) -> BlockInfo,
    ) -> (i8, u32, u64) {
        let s0 = self.shanten();
        if s0 < 0 {
            return (s0, 0, 0);
        }
        let mut mask = 0u64;
        let mut count = 0u32;
        for t in variant.kinds() {
            if live[t as usize] == 0 {
                continue;
            }
            if Some(t) == variant.wildcard() {
                // a wildcard always lowers the replacement number
                mask |= 1 << t;
                count += live[t as usize] as u32;
                continue;
            }
            if !touches(conc, t) {
                continue;
            }
            let info = plus(t);
            let s = self.apply(eval(&conv(&self.rest[group_of(t)], &info), self.mreq));
            if s < s0 {
                mask |= 1 << t;
                count += live[t as usize] as u32;
            }
        }
        (s0, count, mask)
    }
}

/// Fast standard-form ukeire: only the drawn tile's group is re-evaluated.
fn ukeire_standard(
    variant: Variant,
    conc: &TileCounts,
    melds: usize,
    live: &[u8; KINDS],
) -> (i8, u32, u64) {
    let tables = StdTables::new(variant, conc, melds);
    tables.ukeire(variant, conc, live, |t| tables.group_plus(t))
}

fn touches(conc: &TileCounts, k: u8) -> bool {
    if conc.get(k) > 0 {
        return true;
    }
    if k >= 27 {
        return false;
    }
    let base = k - k % 9;
    let r = k % 9;
    (r.saturating_sub(2)..=(r + 2).min(8)).any(|x| conc.get(base + x) > 0)
}

/// Combined-form ukeire.
pub fn ukeire(
    variant: Variant,
    conc: &TileCounts,
    melds: usize,
    live: &[u8; KINDS],
) -> (i8, u32, u64) {
    ukeire_forms(variant, conc, melds, live, Forms::All)
}

/// A drawn kind can only lower shanten if it touches the hand (or is a wildcard, or the
/// hand is closed and 13 tiles, where seven pairs / orphans may use any tile).
fn could_help(conc: &TileCounts, k: u8, variant: Variant) -> bool {
    if Some(k) == variant.wildcard() || conc.total() >= 13 {
        return true;
    }
    if conc.get(k) > 0 {
        return true;
    }
    if k >= 27 {
        return false;
    }
    let base = k - k % 9;
    let r = k % 9;
    (r.saturating_sub(2)..=(r + 2).min(8)).any(|x| conc.get(base + x) > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::tiles::parse_tiles;

    fn counts(s: &str) -> TileCounts {
        TileCounts::from_tiles(&parse_tiles(s).unwrap())
    }

    #[test]
    fn known_values() {
        let v = Variant::Riichi;
        assert_eq!(shanten(v, &counts("123m456p789s11222z"), 0), -1);
        assert_eq!(shanten(v, &counts("123m456p789s1122z"), 0), 0);
        assert_eq!(shanten(v, &counts("1188m288p55s1177z"), 0), 0);
        assert_eq!(shanten(v, &counts("19m19p19s1234567z"), 0), 0);
        assert_eq!(
            shanten_forms(v, &counts("1188m288p55s1177z"), 0, Forms::Standard),
            3
        );
        assert_eq!(
            shanten_forms(v, &counts("19m19p19s1234567z"), 0, Forms::Standard),
            8
        );
        assert_eq!(shanten(v, &counts("123m44p"), 3), -1);
        assert_eq!(shanten(v, &counts("13m4p"), 3), 1);
    }

    #[test]
    fn ukeire_basic() {
        let v = Variant::Riichi;
        let hand = counts("123m456p789s1122z");
        let mut seen = hand;
        seen.add(27);
        let live = live_counts(v, &seen);
        let (s, n, _) = ukeire(v, &hand, 0, &live);
        assert_eq!((s, n), (0, 3));
    }

    /// Ukeire by adding every kind and recomputing the whole shanten (the definition).
    fn ukeire_naive(
        variant: Variant,
        conc: &TileCounts,
        melds: usize,
        live: &[u8; KINDS],
        forms: Forms,
    ) -> (i8, u32, u64) {
        let s0 = shanten_forms(variant, conc, melds, forms);
        if s0 < 0 {
            return (s0, 0, 0);
        }
        let (mut count, mut mask) = (0u32, 0u64);
        for t in variant.kinds() {
            let mut c = *conc;
            if live[t as usize] == 0 || c.get(t) >= 4 {
                continue;
            }
            c.add(t);
            if shanten_forms(variant, &c, melds, forms) < s0 {
                mask |= 1 << t;
                count += u32::from(live[t as usize]);
            }
        }
        (s0, count, mask)
    }

    #[test]
    fn fast_ukeire_matches_naive() {
        let mut seed = 5u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for case in 0..4000u64 {
            let variant =
                [Variant::Riichi, Variant::HongKong, Variant::RedDragon][case as usize % 3];
            let melds = (case / 3 % 3) as usize;
            let kinds: Vec<u8> = variant.kinds().collect();
            let mut c = TileCounts::default();
            let mut seen = TileCounts::default();
            let n = 13 - 3 * melds;
            while c.total() < n as u32 {
                let k = kinds[(next() % kinds.len() as u64) as usize];
                if c.get(k) < 4 {
                    c.add(k);
                    seen.add(k);
                }
            }
            for _ in 0..next() % 20 {
                let k = kinds[(next() % kinds.len() as u64) as usize];
                if seen.get(k) < 4 {
                    seen.add(k);
                }
            }
            let live = live_counts(variant, &seen);
            // (the `xiangting` branch for the other variants is the crate's own answer)
            for forms in [Forms::Standard, Forms::All] {
                if forms == Forms::All && variant != Variant::RedDragon {
                    continue;
                }
                assert_eq!(
                    ukeire_forms(variant, &c, melds, &live, forms),
                    ukeire_naive(variant, &c, melds, &live, forms),
                    "{} melds {melds} {variant:?} {forms:?}",
                    c.to_tenhou()
                );
            }
        }
    }

    #[test]
    fn wildcard_rule() {
        let v = Variant::RedDragon;
        assert_eq!(shanten(v, &counts("123m456p789s1s777z"), 0), -1);
        assert_eq!(shanten(v, &counts("13m456p789s111s22s7z"), 0), -1);
    }
}
