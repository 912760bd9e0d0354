//! How the model reads one opponent: the facts its river and melds show, and the wait
//! shapes each tile could complete.

use super::tuning::*;
use super::*;

pub(super) fn valid_opponent(view: &TableView, opp: u8) -> bool {
    opp < 4 && opp != view.me
}

/// What one pass over the river tells about an opponent.
pub(super) struct Facts {
    /// Own discards in order: kind and tsumogiri flag.
    pub(super) own: Vec<(u8, bool)>,
    pub(super) genbutsu: [bool; KINDS],
    /// Without furiten: its own discards and what passed since its last one (all false
    /// with furiten, where those are genbutsu instead).
    pub(super) passed: [bool; KINDS],
    /// The riichi declaration tile, if any.
    pub(super) riichi_tile: Option<RiverTile>,
}

impl Facts {
    pub(super) fn new(view: &TableView, opp: u8) -> Self {
        let river = view.river;
        let mut own = Vec::with_capacity(24);
        let mut genbutsu = [false; KINDS];
        let mut last_own = None;
        for (i, r) in river.iter().enumerate() {
            if r.seat == opp && (r.tile.index as usize) < KINDS {
                own.push((r.tile.index, r.tsumogiri));
                genbutsu[r.tile.index as usize] = true;
                last_own = Some(i);
            }
        }
        // Temporary furiten: whatever passed since the opponent's last discard (or since the
        // start, before its first) it did not ron. After riichi this widens to everything
        // since the declaration, which it could not refuse without staying furiten.
        // Without furiten rules there is no riichi to read.
        let riichi_at = view
            .riichi
            .get(opp as usize)
            .copied()
            .flatten()
            .filter(|&i| view.furiten && i < river.len());
        let from = match (riichi_at, last_own) {
            (Some(r), _) => r + 1,
            (None, Some(l)) => l + 1,
            (None, None) => 0,
        };
        for r in &river[from.min(river.len())..] {
            if (r.tile.index as usize) < KINDS {
                genbutsu[r.tile.index as usize] = true;
            }
        }
        // Without furiten the same tiles are only evidence, not safety.
        let passed = if view.furiten {
            [false; KINDS]
        } else {
            std::mem::replace(&mut genbutsu, [false; KINDS])
        };
        Self {
            own,
            genbutsu,
            passed,
            riichi_tile: riichi_at.map(|i| river[i]),
        }
    }
}

pub(super) fn seen_of(view: &TableView, kind: u8) -> usize {
    (view.seen.get(kind) as usize).min(4)
}

pub(super) fn is_riichi(view: &TableView, opp: u8) -> bool {
    view.furiten && view.riichi.get(opp as usize).copied().flatten().is_some()
}

pub(super) fn dora_count(view: &TableView, kind: u8) -> usize {
    view.dora.iter().filter(|&&d| d == kind).count()
}

pub(super) fn dora_hit_factor(view: &TableView, kind: u8) -> f64 {
    DORA_HIT_VALUE_FACTOR.powi(dora_count(view, kind) as i32)
}

/// Dora tiles shown in melds (kind dora per indicator, plus red fives).
pub(super) fn shown_dora(view: &TableView, melds: &[Meld]) -> usize {
    melds
        .iter()
        .flat_map(|m| &m.tiles)
        .map(|t| dora_count(view, t.index) + usize::from(t.red))
        .sum()
}

/// Yakuhai han of a kind for `opp`: dragons, its seat wind, the round wind.
pub(super) fn yakuhai_han(view: &TableView, opp: u8, kind: u8) -> usize {
    usize::from(kind >= 31)
        + usize::from(view.seat_winds.get(opp as usize) == Some(&kind))
        + usize::from(kind == view.round_wind && (27..=30).contains(&kind))
}

pub(super) fn is_pung(m: &Meld) -> bool {
    matches!(
        m.kind,
        MeldKind::Pung | MeldKind::Kong | MeldKind::ConcealedKong
    )
}

/// An open hand with at least two pungs and no chow waits on pairs.
pub(super) fn looks_like_toitoi(melds: &[Meld]) -> bool {
    melds.iter().any(|m| m.kind.is_open())
        && melds.iter().filter(|m| is_pung(m)).count() >= 2
        && !melds.iter().any(|m| m.kind == MeldKind::Chow)
}

pub(super) fn flush_read(view: &TableView, opp: u8, facts: &Facts) -> Option<u8> {
    let melds = view.melds[opp as usize];
    if !melds.iter().any(|m| m.kind.is_open()) {
        return None;
    }
    let mut suit = None;
    for t in melds.iter().flat_map(|m| &m.tiles) {
        if t.index < 27 {
            let s = suit_of(t.index);
            match suit {
                None => suit = Some(s),
                Some(x) if x != s => return None,
                _ => {}
            }
        }
    }
    let suit = suit?;
    let own = &facts.own;
    if own.len() < FLUSH_MIN_DISCARDS {
        return None;
    }
    let in_suit = |&&(k, _): &&(u8, bool)| k < 27 && suit_of(k) == suit;
    let total = own.iter().filter(in_suit).count();
    let late = own
        .iter()
        .rev()
        .take(FLUSH_LATE_WINDOW)
        .filter(in_suit)
        .count();
    let other = own.iter().filter(|&&(k, _)| k < 27).count() - total;
    (total <= FLUSH_MAX_SUIT_DISCARDS && late == 0 && other >= FLUSH_MIN_OTHER_SUIT_DISCARDS)
        .then_some(suit)
}

pub(super) fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

pub(super) fn tenpai_from(view: &TableView, opp: u8, facts: &Facts, flush: Option<u8>) -> f64 {
    if is_riichi(view, opp) {
        return 1.0;
    }
    let melds = view.melds[opp as usize];
    if melds.len() >= 4 {
        return 1.0;
    }
    let turns = facts.own.len();
    let mut x = TENPAI_LOGIT_BASE
        + TENPAI_LOGIT_PER_TURN * (turns as f64).min(TENPAI_TURN_CAP)
        + TENPAI_LOGIT_PER_MELD * melds.len() as f64;
    if turns >= LATE_TURN {
        let streak = facts.own.iter().rev().take_while(|(_, t)| *t).count();
        if streak >= 2 {
            x += TSUMOGIRI_STREAK_LOGIT * (streak - 1).min(3) as f64;
        }
        let late_middle = facts
            .own
            .iter()
            .rev()
            .take(3)
            .filter(|&&(k, t)| !t && k < 27 && (3..=7).contains(&rank_of(k)))
            .count();
        x += LATE_MIDDLE_LOGIT * late_middle.min(2) as f64;
    }
    x += CALLED_DORA_LOGIT * shown_dora(view, melds).min(3) as f64;
    if melds
        .iter()
        .any(|m| is_pung(m) && yakuhai_han(view, opp, m.base()) > 0)
    {
        x += YAKUHAI_LOGIT;
    }
    if flush.is_some() {
        x += FLUSH_LOGIT;
    }
    logistic(x).min(SILENT_TENPAI_CAP)
}

pub(super) fn points_for_han(han: f64) -> f64 {
    let first = POINTS_BY_HAN[0];
    if han <= first.0 {
        return first.1;
    }
    for w in POINTS_BY_HAN.windows(2) {
        let ((h0, p0), (h1, p1)) = (w[0], w[1]);
        if han <= h1 {
            return p0 + (p1 - p0) * (han - h0) / (h1 - h0);
        }
    }
    POINTS_BY_HAN[POINTS_BY_HAN.len() - 1].1
}

pub(super) fn value_from(view: &TableView, opp: u8, flush: Option<u8>) -> f64 {
    let melds = view.melds[opp as usize];
    let open = melds.iter().any(|m| m.kind.is_open());
    let mut han = if is_riichi(view, opp) {
        RIICHI_HAN
    } else if open {
        OPEN_HAN
    } else {
        DAMA_HAN
    };
    han += shown_dora(view, melds) as f64;
    let yakuhai: usize = melds
        .iter()
        .filter(|m| is_pung(m))
        .map(|m| yakuhai_han(view, opp, m.base()))
        .sum();
    if yakuhai > 0 {
        // the first yakuhai han is the yaku the base already assumes
        han += (yakuhai - 1) as f64 + YAKUHAI_CONFIRMED_HAN;
    }
    if flush.is_some() {
        han += FLUSH_HAN;
    }
    if open && melds.iter().filter(|m| is_pung(m)).count() >= 3 {
        han += TOITOI_HAN;
    }
    let dealer = view.seat_winds.get(opp as usize) == Some(&EAST);
    points_for_han(han) * if dealer { DEALER_FACTOR } else { 1.0 }
}

/// Factor of a shape tile by its copies seen: gone (kabe) at 4, one-chance at 3.
pub(super) fn live(seen: usize) -> f64 {
    match seen {
        0 | 1 => 1.0,
        2 => TWO_SEEN_SHAPE,
        3 => ONE_CHANCE,
        _ => 0.0,
    }
}

/// Deal-in share of a suited kind from the wait shapes that can contain it. `suji[k]`
/// weights a ryanmen side whose other wait is `k`: 0 when `k` is genbutsu (the hand would
/// be furiten), lower when the opponent passed `k` without furiten rules, else 1.
pub(super) fn suited_shapes(view: &TableView, suji: &[f64; KINDS], kind: u8, toitoi: bool) -> f64 {
    let rank = rank_of(kind) as i8;
    let start = kind - (rank as u8 - 1);
    let at = |r: i8| start + (r as u8 - 1);
    let lv = |r: i8| live(seen_of(view, at(r)));
    let (seq, pair) = if toitoi {
        (TOITOI_SEQUENCE_FACTOR, TOITOI_PAIR_FACTOR)
    } else {
        (1.0, 1.0)
    };
    let mut p = 0.0;
    // ryanmen (r−2, r−1) waits r−3 and r: dead if r−3 is genbutsu (suji)
    if rank >= 4 {
        let w = suji[at(rank - 3) as usize];
        if w > 0.0 {
            p += RYANMEN * seq * lv(rank - 2) * lv(rank - 1) * w;
        }
    }
    // ryanmen (r+1, r+2) waits r and r+3
    if rank <= 6 {
        let w = suji[at(rank + 3) as usize];
        if w > 0.0 {
            p += RYANMEN * seq * lv(rank + 1) * lv(rank + 2) * w;
        }
    }
    if (2..=8).contains(&rank) {
        p += KANCHAN * seq * lv(rank - 1) * lv(rank + 1);
    }
    if rank == 3 {
        p += PENCHAN * seq * lv(1) * lv(2);
    }
    if rank == 7 {
        p += PENCHAN * seq * lv(8) * lv(9);
    }
    p + PAIR_WAIT * pair * PAIR_BY_SEEN[seen_of(view, kind)]
}

pub(super) fn deal_in_table(
    view: &TableView,
    opp: u8,
    facts: &Facts,
    flush: Option<u8>,
) -> [f64; KINDS] {
    let melds = view.melds[opp as usize];
    let toitoi = looks_like_toitoi(melds);

    // per-kind multipliers from the river, dora and hand shape
    let mut factor = [1.0f64; KINDS];
    let mut early_outside = [0usize; 3];
    for &(k, _) in facts.own.iter().take(EARLY_DISCARDS) {
        if k < 27 && matches!(rank_of(k), 1 | 2 | 8 | 9) {
            early_outside[suit_of(k) as usize] += 1;
        }
    }
    for k in 0..27u8 {
        let n = early_outside[suit_of(k) as usize].min(2);
        if (3..=7).contains(&rank_of(k)) && n > 0 {
            factor[k as usize] *= 1.0 + EARLY_OUTSIDE_STEP * n as f64;
        }
    }
    let mut near_dora = [false; KINDS];
    for &d in &view.dora {
        if d as usize >= KINDS {
            continue;
        }
        if d < 27 {
            for k in same_suit_within(d, 2) {
                near_dora[k as usize] = true;
            }
        }
    }
    for k in 0..KINDS as u8 {
        if dora_count(view, k) > 0 {
            factor[k as usize] *= DORA_FACTOR;
        } else if near_dora[k as usize] {
            factor[k as usize] *= DORA_NEIGHBOUR_FACTOR;
        }
    }
    if let Some(rt) = facts.riichi_tile
        && !rt.tsumogiri
        && rt.tile.index < 27
    {
        let r = rank_of(rt.tile.index) as i8;
        for k in same_suit_within(rt.tile.index, 3) {
            match (rank_of(k) as i8 - r).abs() {
                1 | 2 => factor[k as usize] *= RIICHI_MATAGI_FACTOR,
                3 => factor[k as usize] *= RIICHI_SUJI_FACTOR,
                _ => {}
            }
        }
    }
    if let Some(s) = flush {
        for k in 0..KINDS as u8 {
            factor[k as usize] *= if k >= 27 {
                FLUSH_HONOR_FACTOR
            } else if suit_of(k) == s {
                FLUSH_SUIT_FACTOR
            } else {
                FLUSH_OTHER_SUIT_FACTOR
            };
        }
    }

    let suji: [f64; KINDS] = std::array::from_fn(|i| {
        if facts.genbutsu[i] {
            0.0
        } else if facts.passed[i] {
            NO_FURITEN_SUJI_FACTOR
        } else {
            1.0
        }
    });
    let mut out = [0.0; KINDS];
    for k in 0..KINDS as u8 {
        let i = k as usize;
        if facts.genbutsu[i] {
            continue;
        }
        if facts.passed[i] {
            factor[i] *= NO_FURITEN_PASSED_FACTOR;
        }
        let base = if k >= 27 {
            let seen = seen_of(view, k);
            if seen >= 4 {
                // no copy left to hold: no tanki, no shanpon (kokushi ignored)
                continue;
            }
            HONOR_BY_SEEN[seen] * if toitoi { TOITOI_PAIR_FACTOR } else { 1.0 }
        } else {
            suited_shapes(view, &suji, k, toitoi)
        };
        out[i] = (base * factor[i]).clamp(DEAL_IN_FLOOR, DEAL_IN_CAP);
    }
    out
}

/// Suited kinds of the same suit within `dist` ranks of `kind`, excluding `kind`.
pub(super) fn same_suit_within(kind: u8, dist: u8) -> impl Iterator<Item = u8> {
    let rank = rank_of(kind);
    let start = kind - (rank - 1);
    (1..=9u8)
        .filter(move |&r| r != rank && r.abs_diff(rank) <= dist)
        .map(move |r| start + r - 1)
}
