//! The seat's hand: the yaku paths it keeps and every discard it could make.

use super::threats::Threats;
use super::value::{dora_in, ready_value, red_count};
use crate::mahjong::shanten::{self, live_counts, ukeire};
use crate::mahjong::table::Table;
use crate::mahjong::tiles::edge_rank;
use crate::mahjong::tiles::{
    KINDS, Meld, MeldKind, Tile, TileCounts, Variant, is_dragon, is_honor, is_terminal_or_honor,
    suit_of,
};

/// Equal-speed discards: a dora (or red five) kept counts as this many accepting tiles.
pub(super) const DORA_UKEIRE: f64 = 3.0;

/// The yaku paths an open hand keeps; a closed hand always has riichi.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Paths {
    pub(super) closed: bool,
    pub(super) yakuhai: bool,
    pub(super) tanyao: bool,
    pub(super) flush: Option<u8>,
    pub(super) pungs: bool,
}

pub(super) fn is_value_honor(table: &Table, k: u8) -> bool {
    is_dragon(k) || k == table.round_wind || k == table.seat_wind(table.me)
}

pub(super) fn paths(table: &Table, melds: &[Meld], conc: &TileCounts) -> Paths {
    let closed = melds.iter().all(|m| !m.kind.is_open());
    let meld_kinds = || melds.iter().flat_map(|m| m.tiles.iter().map(|t| t.index));
    let yakuhai = melds
        .iter()
        .any(|m| m.kind != MeldKind::Chow && is_value_honor(table, m.tiles[0].index))
        || (27..34u8).any(|k| is_value_honor(table, k) && conc.get(k) >= 3);
    let tanyao = meld_kinds().all(|k| !is_terminal_or_honor(k));
    let mut suits = meld_kinds().filter(|&k| !is_honor(k)).map(suit_of);
    let flush = match suits.next() {
        Some(s) => suits.all(|x| x == s).then_some(s),
        None => (0..3u8).max_by_key(|&s| (0..9u8).map(|r| conc.get(s * 9 + r) as u32).sum::<u32>()),
    };
    let pungs = melds.iter().all(|m| m.kind != MeldKind::Chow);
    Paths {
        closed,
        yakuhai,
        tanyao,
        flush,
        pungs,
    }
}

/// Shanten of a 13 − 3n (or 14 − 3n) tile hand toward a win with a yaku.
pub(super) fn path_shanten(p: &Paths, conc: &TileCounts, melds: usize) -> i8 {
    if p.closed {
        return shanten::shanten(Variant::Riichi, conc, melds);
    }
    let mreq = (4 - melds.min(4)) as u8;
    let mut best = i8::MAX;
    if p.yakuhai {
        best = best.min(shanten::standard_shanten_raw(&conc.0, mreq));
    }
    if p.tanyao {
        let mut c = conc.0;
        for (k, n) in c.iter_mut().enumerate() {
            if is_terminal_or_honor(k as u8) {
                *n = 0;
            }
        }
        best = best.min(shanten::standard_shanten_raw(&c, mreq));
    }
    if let Some(s) = p.flush {
        let mut c = conc.0;
        for (k, n) in c.iter_mut().enumerate() {
            if !is_honor(k as u8) && suit_of(k as u8) != s {
                *n = 0;
            }
        }
        best = best.min(shanten::standard_shanten_raw(&c, mreq));
    }
    if p.pungs {
        best = best.min(shanten::pungs_raw(&conc.0, mreq));
    }
    if best == i8::MAX { 8 } else { best }
}

/// (shanten, live accepting tiles, accepting kinds) of a hand waiting for a draw.
pub(super) fn path_ukeire(
    p: &Paths,
    conc: &TileCounts,
    melds: usize,
    live: &[u8; KINDS],
) -> (i8, u32, u64) {
    if p.closed {
        return ukeire(Variant::Riichi, conc, melds, live);
    }
    let s = path_shanten(p, conc, melds);
    let mut total = 0;
    let mut mask = 0u64;
    for k in 0..KINDS as u8 {
        if live[k as usize] == 0 {
            continue;
        }
        let mut c = *conc;
        c.add(k);
        if path_shanten(p, &c, melds) < s {
            total += u32::from(live[k as usize]);
            mask |= 1 << k;
        }
    }
    (s, total, mask)
}

/// One discard the seat could make.
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    pub(super) tile: Tile,
    pub(super) shanten: i8,
    pub(super) ukeire: u32,
    pub(super) waits: u64,
    /// Dora and red fives left in hand and melds after the discard.
    pub(super) dora: u32,
    /// Expected points lost to a deal-in with this tile now.
    pub(super) risk: f64,
    /// Average points of the ready hand over its live waits (0 when not ready).
    pub(super) value: f64,
}

/// Every distinct discard (a red five apart from the plain ones) with its numbers.
pub(super) fn candidates(table: &Table, threats: &Threats, only_ready: bool) -> Vec<Candidate> {
    let conc = table.concealed();
    let melds = &table.my_seat().melds;
    let p = paths(table, melds, &conc);
    let live = live_counts(Variant::Riichi, &table.seen());
    let reds = red_count(table);
    let mut out: Vec<Candidate> = Vec::new();
    for &tile in &table.hand {
        if out.iter().any(|c| c.tile == tile) || table.kuikae.contains(&tile.index) {
            continue;
        }
        let mut after = conc;
        after.remove(tile.index);
        let (shanten, uk, waits) = path_ukeire(&p, &after, melds.len(), &live);
        if only_ready && shanten != 0 {
            continue;
        }
        let reds_after = reds - u32::from(tile.red);
        let value = if shanten == 0 {
            ready_value(table, &after, reds_after, waits, &live)
        } else {
            0.0
        };
        out.push(Candidate {
            tile,
            shanten,
            ukeire: uk,
            waits,
            dora: dora_in(table, &after, reds_after),
            risk: threats.risk(tile.index),
            value,
        });
    }
    out
}

/// Attack order: fewest steps to ready, then accepting tiles with dora kept as a bonus,
/// then the ready hand's value, then the safer tile, then outside tiles first.
pub(super) fn attack_key(c: &Candidate) -> (i8, i64, i64, i64, u8) {
    let speed = f64::from(c.ukeire) + DORA_UKEIRE * f64::from(c.dora);
    (
        c.shanten,
        -(speed * 10.0) as i64,
        -(c.value as i64),
        (c.risk * 10.0) as i64,
        edge_rank(c.tile.index),
    )
}

pub(super) fn live_wait_count(waits: u64, live: &[u8; KINDS]) -> u32 {
    (0..KINDS)
        .filter(|&k| waits & (1 << k) != 0)
        .map(|k| u32::from(live[k]))
        .sum()
}
