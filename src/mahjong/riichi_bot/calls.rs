//! Answering another seat's discard or added kan: win, call or pass.

use super::hand::{Paths, is_value_honor, path_shanten, path_ukeire, paths};
use super::threats::{THREAT_TENPAI, Threats};
use super::turn::legacy_setup;
use super::value::{win_items, win_now};
use super::{TableAction, TableDecision};
use crate::mahjong::shanten::live_counts;
use crate::mahjong::table::{Table, kuikae_kinds};
use crate::mahjong::tiles::{KINDS, Meld, MeldKind, Tile, TileCounts, Variant};
use crate::mahjong::{ClaimAction, ClaimContext, Discarder, Strategy};

pub(super) fn respond(
    table: &Table,
    strategy: Strategy,
    from: u8,
    tile: Tile,
    chankan: bool,
) -> TableDecision {
    let shanten_now = table.shanten();
    let conc = table.concealed();
    if conc.total() % 3 != 1 {
        return TableDecision::new(TableAction::Pass, "not the seat's decision", shanten_now);
    }
    if let Some(score) = win_now(table, tile, false, false, chankan) {
        let mut d = TableDecision::new(
            TableAction::Hora { target: from, tile },
            format!("win on the discard worth {}", score.total),
            -1,
        );
        d.win_points = Some(score.total);
        d.win_items = win_items(&score);
        return d;
    }
    let pass = |why: &str| TableDecision::new(TableAction::Pass, why, shanten_now);
    if table.furiten() && table.waits(&conc).contains(&tile.index) {
        return pass("furiten: a win only by self-draw");
    }
    if chankan {
        return pass("no win on the added kan");
    }
    if table.in_riichi() {
        return pass("riichi: no calls");
    }
    if table.wall_left() == 0 {
        return pass("no calls on the last discard");
    }
    match strategy {
        Strategy::Balanced => call_balanced(table, from, tile),
        Strategy::Classic | Strategy::Efficient => call_legacy(table, strategy, from, tile),
    }
}

/// The melds the seat could form with `tile`: (pon?, consumed tiles).
pub(super) fn call_options(table: &Table, from: u8, tile: Tile) -> Vec<(bool, [Tile; 2])> {
    let k = tile.index;
    let mut out = Vec::new();
    // Pick which copies to give: keep a red five in hand only if it is not needed.
    let copies = |kind: u8| -> Vec<Tile> {
        let mut v: Vec<Tile> = table
            .hand
            .iter()
            .filter(|t| t.index == kind)
            .copied()
            .collect();
        v.sort_by_key(|t| std::cmp::Reverse(t.red));
        v
    };
    let same = copies(k);
    if same.len() >= 2 {
        out.push((true, [same[0], same[1]]));
    }
    if (from + 1) % 4 == table.me && k < 27 {
        let r = k % 9;
        for start in r.saturating_sub(2)..=r.min(6) {
            let base = k - r + start;
            let others: Vec<u8> = (base..base + 3).filter(|&x| x != k).collect();
            let (a, b) = (copies(others[0]), copies(others[1]));
            if !a.is_empty() && !b.is_empty() {
                out.push((false, [a[0], b[0]]));
            }
        }
    }
    out
}

fn call_action(pon: bool, target: u8, tile: Tile, consumed: [Tile; 2]) -> TableAction {
    if pon {
        TableAction::Pon {
            target,
            tile,
            consumed,
        }
    } else {
        TableAction::Chi {
            target,
            tile,
            consumed,
        }
    }
}

/// The hand after a call: concealed counts, melds, and kinds then forbidden.
pub(super) fn after_call(
    table: &Table,
    pon: bool,
    tile: Tile,
    consumed: [Tile; 2],
) -> (TileCounts, Vec<Meld>, Vec<u8>) {
    let mut conc = table.concealed();
    for t in consumed {
        conc.remove(t.index);
    }
    let mut melds = table.my_seat().melds.clone();
    melds.push(Meld {
        kind: if pon { MeldKind::Pung } else { MeldKind::Chow },
        tiles: vec![consumed[0], consumed[1], tile],
    });
    let forbidden = if pon {
        vec![tile.index]
    } else {
        kuikae_kinds(tile.index, [consumed[0].index, consumed[1].index])
    };
    (conc, melds, forbidden)
}

/// Best (shanten, −ukeire) after the call and a legal discard; `None` when every tile
/// left is forbidden (such a call is not allowed).
pub(super) fn best_after_call(
    p: &Paths,
    conc: &TileCounts,
    melds: usize,
    forbidden: &[u8],
    live: &[u8; KINDS],
) -> Option<(i8, i64)> {
    let mut best: Option<(i8, i64)> = None;
    for (k, _) in conc.kinds() {
        if forbidden.contains(&k) {
            continue;
        }
        let mut a = *conc;
        a.remove(k);
        let (s, u, _) = path_ukeire(p, &a, melds, live);
        let key = (s, -i64::from(u));
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best
}

pub(super) fn call_balanced(table: &Table, from: u8, tile: Tile) -> TableDecision {
    let shanten_now = table.shanten();
    let pass = |why: &str| TableDecision::new(TableAction::Pass, why, shanten_now);
    let threats = Threats::read(table);
    let conc = table.concealed();
    let melds = &table.my_seat().melds;
    let p_now = paths(table, melds, &conc);
    let live = live_counts(Variant::Riichi, &table.seen());
    let now = path_shanten(&p_now, &conc, melds.len());
    if threats.max_tenpai() >= THREAT_TENPAI && now > 0 {
        return pass("a threat: no calls while not ready");
    }
    let mut best: Option<(TableAction, (i8, i64), String)> = None;
    for (pon, consumed) in call_options(table, from, tile) {
        let (c2, m2, forbidden) = after_call(table, pon, tile, consumed);
        let p = paths(table, &m2, &c2);
        if !(p.yakuhai || p.tanyao || p.flush.is_some() || p.pungs) {
            continue;
        }
        let Some(score) = best_after_call(&p, &c2, m2.len(), &forbidden, &live) else {
            continue;
        };
        if score.0 >= now || score.0 >= 8 {
            continue;
        }
        let value_pon = pon && is_value_honor(table, tile.index);
        let first_call = p_now.closed;
        // Opening a closed hand gives up riichi: only for a yakuhai or a hand far from ready.
        if first_call && !value_pon && (now < 2 || score.0 > 2) {
            continue;
        }
        let path = if value_pon || p.yakuhai {
            "yakuhai"
        } else if p.tanyao {
            "tanyao"
        } else if p.flush.is_some() {
            "flush"
        } else {
            "all pungs"
        };
        if best.as_ref().is_none_or(|b| score < b.1) {
            let action = call_action(pon, from, tile, consumed);
            best = Some((
                action,
                score,
                format!("call for {path}: {} from ready", score.0),
            ));
        }
    }
    match best {
        Some((action, score, why)) => TableDecision::new(action, why, score.0),
        None => pass("no call brings a yaku hand nearer"),
    }
}

pub(super) fn call_legacy(
    table: &Table,
    strategy: Strategy,
    from: u8,
    tile: Tile,
) -> TableDecision {
    let shanten_now = table.shanten();
    let pass = |why: String| TableDecision::new(TableAction::Pass, why, shanten_now);
    let mut setup = legacy_setup(table, strategy);
    setup.drawn = None;
    // The table counts the discard among the seen tiles; a claim context
    // holds it apart, as the tile it faces.
    if let Some(i) = setup.visible.iter().position(|t| t.index == tile.index) {
        setup.visible.remove(i);
    }
    // The discarder is (me - from) seats before the bot, so 4 - that after it.
    let rel = Discarder::from_seats_after((from + 4 - table.me) % 4).unwrap_or(Discarder::Right);
    let d = crate::mahjong::decide_claim(&ClaimContext::trusted(setup, tile, rel));
    let live = live_counts(Variant::Riichi, &table.seen());
    let pon = match d.action {
        ClaimAction::Pung => true,
        ClaimAction::Chow => false,
        _ => return pass(d.reason),
    };
    // The meld the seed's bot chose, if its tiles are held and a yaku and a legal
    // discard remain after it.
    let want: Vec<u8> = {
        let mut v: Vec<u8> = d.tiles.iter().map(|t| t.index).collect();
        if let Some(i) = v.iter().position(|&x| x == tile.index) {
            v.remove(i);
        }
        v
    };
    for (is_pon, consumed) in call_options(table, from, tile) {
        let mut kinds = [consumed[0].index, consumed[1].index];
        kinds.sort_unstable();
        let mut w = want.clone();
        w.sort_unstable();
        if is_pon != pon || w != kinds {
            continue;
        }
        let (c2, m2, forbidden) = after_call(table, pon, tile, consumed);
        let p = paths(table, &m2, &c2);
        if !(p.yakuhai || p.tanyao || p.flush.is_some() || p.pungs) {
            return pass("the call would leave no yaku".into());
        }
        if best_after_call(&p, &c2, m2.len(), &forbidden, &live).is_none() {
            return pass("no legal discard after the call".into());
        }
        let action = call_action(pon, from, tile, consumed);
        return TableDecision::new(action, d.reason, shanten_now);
    }
    pass("the chosen meld is not held".into())
}
